//===- RuleSupport.h - What the inference rules share -------------*- C++ -*-===//
//
// Internal to infer/: the argument reader every rule uses (`Args`: inputs by
// schema name with the schema's defaults, tensor inputs with their shapes,
// int lists that mix constants and SymInt values), shape helpers
// (broadcasting, dims, reductions) and result builders. The rule functions
// themselves are declared from Rules.def.
//
// This file does not hold rules.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_INFER_RULESUPPORT_H
#define PT2IR_INFER_RULESUPPORT_H

#include "pt2ir/infer/MetaInference.h"
#include "pt2ir/infer/TypePromotion.h"
#include "pt2ir/ir/Node.h"
#include "pt2ir/ir/OperatorSchema.h"

#include "llvm/ADT/Twine.h"

#include <optional>
#include <vector>

namespace pt2ir::infer::detail {

using Results = std::vector<ResultInfo>;

/// The error a rule returns when an input lacks metadata: the node is
/// skipped (InferStatus::MissingInput), not reported.
class MissingInputError : public llvm::ErrorInfo<MissingInputError> {
public:
  static char ID;
  explicit MissingInputError(std::string what) : what(std::move(what)) {}
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  std::string what;
};

llvm::Error missingInput(const llvm::Twine &what);
/// A rule's refusal: the node's arguments contradict the operator.
llvm::Error ruleError(const llvm::Twine &message);
/// A case the rule does not handle (a symbolic value where it needs a
/// constant): the node is skipped like one with a missing input.
inline llvm::Error unsupported(const llvm::Twine &what) {
  return missingInput("not supported by the rule: " + what);
}

/// A tensor input: its metadata and shape.
struct TensorArg {
  const TensorMeta *meta = nullptr;
  Shape shape;
  /// True when its strides are the contiguous ones (size-1 dims ignored).
  bool contiguous = false;

  int64_t rank() const { return int64_t(shape.size()); }
  ScalarType dtype() const { return meta->dtype; }
  const Device &device() const { return meta->device; }
  bool requiresGrad() const { return meta->requiresGrad; }
};

/// A `Scalar` or `Tensor` operand of a pointwise operator.
struct Operand {
  /// Set for a tensor; otherwise a Python number of `category`.
  std::optional<TensorArg> tensor;
  ScalarCategory category = ScalarCategory::Integral;
};

/// Reads a node's inputs by schema argument name.
class Args {
public:
  Args(InferenceSession &session, const Node &node);

  const Node &node() const { return n; }
  InferenceSession &session() const { return s; }
  const OperatorSchema *schema() const { return sch; }

  /// The argument passed for `name`; null when it was not passed.
  const Argument *get(llvm::StringRef name) const;
  /// Input `i` in node order (symbolic ops, which have no schema).
  const Argument *at(size_t i) const;
  /// The schema's default text for `name`, if any.
  std::optional<llvm::StringRef> defaultOf(llvm::StringRef name) const;

  llvm::Expected<TensorArg> tensor(llvm::StringRef name);
  llvm::Expected<std::optional<TensorArg>> optTensor(llvm::StringRef name);
  llvm::Expected<std::vector<TensorArg>> tensorList(llvm::StringRef name);
  /// `Tensor?[]`: absent elements are nullopt.
  llvm::Expected<std::vector<std::optional<TensorArg>>>
  optTensorList(llvm::StringRef name);
  llvm::Expected<TensorArg> tensorOf(const Argument &arg, llvm::StringRef what);

  llvm::Expected<int64_t> intArg(llvm::StringRef name);
  llvm::Expected<std::optional<int64_t>> optInt(llvm::StringRef name);
  llvm::Expected<Dim> symInt(llvm::StringRef name);
  llvm::Expected<std::optional<Dim>> optSymInt(llvm::StringRef name);
  llvm::Expected<Dim> symIntOf(const Argument &arg, llvm::StringRef what);
  /// `int[]` / `SymInt[]`; a single int passed for `int[1]` is a list of one.
  llvm::Expected<Shape> symInts(llvm::StringRef name);
  llvm::Expected<std::optional<Shape>> optSymInts(llvm::StringRef name);
  /// `int[]` whose elements must be constants.
  llvm::Expected<std::vector<int64_t>> ints(llvm::StringRef name);
  llvm::Expected<std::optional<std::vector<int64_t>>>
  optInts(llvm::StringRef name);
  llvm::Expected<bool> boolArg(llvm::StringRef name);
  llvm::Expected<std::optional<bool>> optBool(llvm::StringRef name);
  llvm::Expected<std::optional<double>> optFloat(llvm::StringRef name);
  /// A dtype argument (`as_scalar_type`), nullopt when None or absent.
  std::optional<ScalarType> scalarType(llvm::StringRef name) const;
  /// A device argument, nullopt when None or absent.
  std::optional<Device> device(llvm::StringRef name) const;
  std::optional<llvm::StringRef> string(llvm::StringRef name) const;
  /// A `Scalar` or `Tensor` operand.
  llvm::Expected<Operand> operand(llvm::StringRef name);

  /// The category of a Scalar argument (as_int, as_float, as_bool, ...).
  std::optional<ScalarCategory> scalarCategory(llvm::StringRef name) const;

private:
  llvm::Error noArgument(llvm::StringRef name) const;
  /// optSymInts into `out` (absent or None: `present` false), without the
  /// moves of returning through optional and Expected.
  llvm::Error symIntsInto(llvm::StringRef name, Shape &out, bool &present);

  InferenceSession &s;
  const Node &n;
  const OperatorSchema *sch = nullptr;
  /// Inputs by schema position (null: not passed).
  llvm::SmallVector<const Argument *, 8> bySchema;
};

//===--- Dims and shapes ---===//

/// `dim` wrapped into [0, rank) (rank 0 accepts -1 and 0).
llvm::Expected<int64_t> normalizeDim(int64_t dim, int64_t rank);
/// torch's broadcast of shapes; an incompatible pair is an error.
llvm::Expected<Shape> broadcastShapes(llvm::ArrayRef<Shape> shapes);
/// The shape after reducing `dims` (all when empty and `emptyMeansAll`).
llvm::Expected<Shape> reducedShape(const Shape &shape,
                                   llvm::ArrayRef<int64_t> dims, bool keepdim,
                                   bool emptyMeansAll = true);
/// True when `a` and `b` are certainly equal.
bool sameDim(const Dim &a, const Dim &b);

//===--- Results ---===//

/// A freshly allocated result: contiguous strides when every input in
/// `inputs` is contiguous, device and requires_grad from the first input.
TensorInfo freshLike(llvm::ArrayRef<const TensorArg *> inputs,
                     ScalarType dtype, Shape shape);
TensorInfo freshLike(const TensorArg &input, ScalarType dtype, Shape shape);
/// A fresh contiguous result on `device` (factories).
TensorInfo freshOn(ScalarType dtype, Shape shape, Device device,
                   bool requiresGrad = false);
/// The result that is `input` itself (in-place ops, `out=`): its metadata.
llvm::Expected<TensorInfo> sameAs(InferenceSession &s, const TensorArg &input);
/// A view of `input` with `shape` and, when known, `strides`.
TensorInfo viewOf(const TensorArg &input, Shape shape,
                  std::optional<Shape> strides);

/// Applies the `memory_format` argument to a fresh result: contiguous,
/// channels-last (rank 4) or channels-last-3d (rank 5) strides; preserve
/// (or no argument) leaves `t` as it is.
void applyMemoryFormat(const Args &a, TensorInfo &t);

/// One tensor result (built in place: an initializer list would copy it).
inline Results one(TensorInfo t) {
  Results r(1);
  r[0].kind = ResultInfo::Kind::Tensor;
  r[0].tensor = std::move(t);
  return r;
}

/// Reads `expr` into `var`, returning the error from the enclosing function.
#define PT2IR_TRY(var, expr)                                                   \
  auto var##OrErr = (expr);                                                    \
  if (!var##OrErr)                                                             \
    return var##OrErr.takeError();                                             \
  auto &var = *var##OrErr;

//===--- The rules ---===//

#define PT2IR_META_RULE(OP, FAMILY, FN, COVERS)                                \
  llvm::Expected<Results> FN(InferenceSession &, const Node &);
#include "pt2ir/infer/Rules.def"

} // namespace pt2ir::infer::detail

#endif
