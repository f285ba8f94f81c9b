//===- MetaInference.h - Output metadata from operator semantics -*- C++ -*-===//
//
// Shape and dtype inference: for a node calling an operator with a rule
// (core ATen, the non-core ops torch.export emits, the symbolic builtins),
// computes what its outputs' metadata must be from its inputs' metadata and
// its constant arguments: dtype, shape (static or simplified symbolic
// expressions, infer/Dim.h), device, layout, requires_grad, and strides
// where the result is freshly allocated and contiguous or is a view whose
// strides follow from its input's.
//
// The rules live in one file per operator family (Pointwise.cpp,
// Reductions.cpp, ...) and are listed in one table, infer/Rules.def, keyed by
// the serialized target without its `torch.ops.` prefix (`aten.add.Tensor`,
// `_operator.mul`). `listRules()` gives that table (the docs/ table of rules
// is generated from it by `pt2-opt --list-meta-rules`).
//
// Uses: the verifier's `meta-mismatch` rule (compareTensorMeta), the
// `infer-meta` pass and the Builder (fillMissingMeta).
//
// This file deliberately does not report diagnostics or walk programs.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_INFER_METAINFERENCE_H
#define PT2IR_INFER_METAINFERENCE_H

#include "pt2ir/infer/Dim.h"
#include "pt2ir/ir/Enums.h"
#include "pt2ir/ir/TensorMeta.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace pt2ir {

class ExportedProgram;
class Graph;
class IRContext;
class Node;
class OperatorRegistry;
class OperatorSchema;
class Value;

namespace infer {

/// What a rule knows about one tensor result.
struct TensorInfo {
  ScalarType dtype = ScalarType::FLOAT;
  /// False when torch versions disagree on the dtype (`full` without
  /// `dtype`): `dtype` is what current torch gives, and it is not checked.
  bool dtypeChecked = true;
  Shape shape;
  /// Known strides (fresh contiguous results, views); nullopt: unknown.
  std::optional<Shape> strides;
  Device device;
  Layout layout = Layout::Strided;
  bool requiresGrad = false;
};

/// One result of a rule, in the order of the schema's returns.
struct ResultInfo {
  enum class Kind : uint8_t {
    /// The rule does not say (an unbacked scalar, a SymBool).
    Unknown,
    Tensor,
    /// A `Tensor[]` return: `tensors` holds one entry per element.
    TensorList,
    /// A SymInt (sym_size, `_operator.mul`, ...).
    SymInt,
  };
  Kind kind = Kind::Unknown;
  TensorInfo tensor;
  std::vector<TensorInfo> tensors;
  Dim symInt;

  static ResultInfo unknown() { return {}; }
  static ResultInfo ofTensor(TensorInfo t) {
    ResultInfo r;
    r.kind = Kind::Tensor;
    r.tensor = std::move(t);
    return r;
  }
  static ResultInfo ofSymInt(Dim d) {
    ResultInfo r;
    r.kind = Kind::SymInt;
    r.symInt = std::move(d);
    return r;
  }
};

class InferenceSession;

/// A rule: reads the node through the session, returns one ResultInfo per
/// schema return.
using RuleFn = llvm::Expected<std::vector<ResultInfo>> (*)(
    InferenceSession &session, const Node &node);

/// One entry of the rule table.
struct RuleInfo {
  /// The target without `torch.ops.` (`aten.add.Tensor`, `_operator.mul`).
  llvm::StringRef op;
  /// The family file it lives in (`Pointwise`, `Reductions`, ...).
  llvm::StringRef family;
  /// What the rule computes beyond dtype and shape, for the docs table.
  llvm::StringRef covers;
  RuleFn fn;
};

/// Every rule, in table order.
llvm::ArrayRef<RuleInfo> listRules();
/// The rule for a serialized target (`torch.ops.aten.add.Tensor`,
/// `_operator.mul`), or null.
const RuleInfo *findRule(llvm::StringRef target);

/// How inference of one node went.
enum class InferStatus : uint8_t {
  /// No rule for the target.
  NoRule,
  /// An input lacks the metadata the rule needs, or an argument is
  /// missing or of the wrong kind (the schema checks report that): skipped,
  /// not an error.
  MissingInput,
  /// The rule refused the node (its inputs contradict the operator); the
  /// message says why.
  Failed,
  Ok,
};

struct InferResult {
  InferStatus status = InferStatus::NoRule;
  std::string message;
  std::vector<ResultInfo> results;
};

/// One difference between recorded and inferred metadata.
struct MetaMismatch {
  /// `dtype`, `rank`, `size[1]`, `stride[0]`, `device`, `value`, `count`.
  std::string field;
  std::string recorded;
  std::string inferred;
  /// True when equality could not be decided (symbolic dimensions whose
  /// ranges allow both): a warning, not an error.
  bool undecided = false;
};

/// A difference on one output of a node.
struct OutputMismatch {
  /// Index into Node::getOutputs().
  size_t outputIndex = 0;
  /// The value whose metadata differs (null for a `count` mismatch).
  const Value *value = nullptr;
  MetaMismatch mismatch;
};

/// What checking a whole program found.
struct ProgramCheck {
  uint64_t nodes = 0, checked = 0, withoutRule = 0, missingInput = 0,
           failed = 0, mismatches = 0, undecided = 0;
};

/// State shared by the inference of the nodes of one program: the range
/// constraints and caches of parsed expressions. Not thread-safe.
class InferenceSession {
public:
  /// `program` (optional) supplies range constraints for comparisons.
  explicit InferenceSession(const ExportedProgram *program = nullptr);
  /// Not copied or moved: it remembers where its own table entries are.
  InferenceSession(const InferenceSession &) = delete;
  InferenceSession &operator=(const InferenceSession &) = delete;

  /// Runs the rule of `node`'s target.
  InferResult infer(const Node &node);

  /// findRule of `node`'s target, looked up once per distinct target.
  const RuleInfo *ruleOf(const Node &node);
  /// The schema of `node`'s target in its graph's operator registry (null
  /// when it has none or the node is detached), looked up once per
  /// distinct target.
  const OperatorSchema *schemaOf(const Node &node);

  /// The size or stride as a Dim (cached per expression text); an
  /// expression that does not parse is an error.
  llvm::Expected<Dim> dimOf(const SymValue &value);
  /// The shape and strides of `meta` as Dims.
  llvm::Expected<Shape> shapeOf(const TensorMeta &meta);
  llvm::Expected<Shape> stridesOf(const TensorMeta &meta);
  /// Appends the Dims of `values` (sizes or strides) to `out`; the first
  /// that is not a size is the error.
  llvm::Error appendDims(llvm::ArrayRef<SymValue> values, Shape &out);

  /// The range of `symbol` from the range constraints ([min, max], with
  /// infinite ends for unbounded ones); nullopt when it has none.
  SymbolRange rangeOf(llvm::StringRef symbol) const;

  /// Compares recorded metadata with a rule's result: dtype, rank, sizes
  /// and (when the rule knows them) strides. Sizes are compared under the
  /// range constraints; see compareDims.
  std::vector<MetaMismatch> compareTensor(const TensorMeta &recorded,
                                          const TensorInfo &inferred);

  /// Compares every output of `node` with `result` (an Ok inference of
  /// it): tensors and tensor lists with compareTensor (and the number of
  /// tensors), SymInt outputs by value. Outputs without metadata, and those
  /// the rule leaves unknown, are skipped.
  std::vector<OutputMismatch> compareOutputs(const Node &node,
                                             const InferResult &result);

private:
  /// compareDims under the range constraints, remembered per pair of
  /// operands (their expression nodes or constants).
  Equality compareUnderRanges(const Dim &a, const Dim &b);

  /// What is known about one target text.
  struct TargetEntry {
    const RuleInfo *rule = nullptr;
    /// The registry `schema` was looked up in (null: not looked up yet).
    const OperatorRegistry *registry = nullptr;
    const OperatorSchema *schema = nullptr;
  };
  TargetEntry &targetEntry(llvm::StringRef target);

  const ExportedProgram *program;
  /// Keyed by the target's storage (interned: equal storage, equal text).
  llvm::DenseMap<std::pair<const char *, size_t>, TargetEntry> targets;
  /// The last entry looked up (a node's target is looked up several times
  /// in a row); reset when the table grows.
  std::pair<const char *, size_t> lastTarget{nullptr, 0};
  TargetEntry *lastEntry = nullptr;
  llvm::DenseMap<const char *, Dim> dimCache;
  llvm::StringMap<SymbolRange> ranges;
  /// A compared pair: the operands (held so that the nodes the key names
  /// stay alive) and the outcome.
  struct Compared {
    Dim a, b;
    Equality equality;
  };
  using CompareKey = std::tuple<const void *, int64_t, const void *, int64_t>;
  llvm::DenseMap<CompareKey, Compared> compareCache;
};

/// Infers and compares every node of `program` (subgraphs included); the
/// counts of what it found. This is the work of the verifier's
/// meta-mismatch rule without the reporting.
ProgramCheck checkProgram(const ExportedProgram &program);

/// The metadata torch would record for `info` (strides contiguous when the
/// rule does not know them); symbolic dims are written in plain form.
TensorMeta toTensorMeta(IRContext &ctx, const TensorInfo &info);

/// Fills the tensor and SymInt metadata `node`'s outputs lack from the rule
/// of its target; outputs that have metadata are left alone. No rule: success
/// without change. A rule that fails, or leaves an output unknown, is an
/// error naming the node.
llvm::Error fillMissingMeta(Node &node, InferenceSession &session);
/// The same with a session of its own (no range constraints).
llvm::Error fillMissingMeta(Node &node);

} // namespace infer
} // namespace pt2ir

#endif
