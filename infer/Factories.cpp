//===- Factories.cpp - Rules of factory and random ops --------------------===//
//
// Tensors made from arguments: arange (length ceil((end - start) / step),
// symbolic for int bounds; int64 for int arguments), full (dtype from the
// fill value), zeros/ones/empty/rand/randn (default float), empty_strided,
// randperm, scalar_tensor and the *_like ops. The `dtype`, `device` and
// `layout` arguments are honoured; results are contiguous (empty_strided:
// the strides given) and do not require grad.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/infer/RuleSupport.h"

#include <cmath>
#include <variant>

namespace pt2ir::infer::detail {

namespace {

Device deviceOr(const Args &a, Device fallback) {
  if (std::optional<Device> d = a.device("device"))
    return *d;
  if (fallback.type.empty())
    fallback.type = "cpu";
  return fallback;
}

TensorInfo made(const Args &a, ScalarType dtype, Shape shape,
                Device fallback = {}) {
  TensorInfo t = freshOn(dtype, std::move(shape), deviceOr(a, fallback));
  if (const Argument *l = a.get("layout"); l && l->getKind() == ArgKind::Layout)
    t.layout = Layout(l->getInt());
  return t;
}

/// A Scalar argument: an int (possibly symbolic) or a float.
llvm::Expected<std::variant<Dim, double>> scalarValue(Args &a,
                                                      llvm::StringRef name,
                                                      int64_t fallback) {
  const Argument *arg = a.get(name);
  if (!arg) {
    std::optional<llvm::StringRef> def = a.defaultOf(name);
    int64_t v;
    if (def && !def->getAsInteger(10, v))
      return Dim(v);
    double f;
    if (def && !def->getAsDouble(f))
      return f;
    return Dim(fallback);
  }
  if (arg->getKind() == ArgKind::Float)
    return arg->getFloat();
  if (arg->getKind() == ArgKind::SymFloat)
    return unsupported("a symbolic float '" + name + "'");
  PT2IR_TRY(d, a.symIntOf(*arg, name));
  return d;
}

} // namespace

llvm::Expected<Results> arange(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(end, scalarValue(a, "end", 0));
  PT2IR_TRY(start, scalarValue(a, "start", 0));
  PT2IR_TRY(step, scalarValue(a, "step", 1));
  bool allInt = std::holds_alternative<Dim>(end) &&
                std::holds_alternative<Dim>(start) &&
                std::holds_alternative<Dim>(step);
  Dim length;
  if (allInt) {
    const Dim &e = std::get<Dim>(end), &b = std::get<Dim>(start),
              &st = std::get<Dim>(step);
    if (!st.isStatic())
      return unsupported("a symbolic arange step");
    if (st.getValue() == 0)
      return ruleError("arange step must be non-zero");
    Dim span = e - b;
    std::optional<Dim> len = st.getValue() > 0 ? ceilDiv(span, st)
                                               : ceilDiv(Dim(0) - span, Dim(0) - st);
    length = *len;
    if (length.isStatic() && length.getValue() < 0)
      return ruleError("arange bounds are inconsistent with the step sign");
  } else {
    auto num = [](const std::variant<Dim, double> &v) -> std::optional<double> {
      if (const double *d = std::get_if<double>(&v))
        return *d;
      const Dim &d = std::get<Dim>(v);
      return d.isStatic() ? std::optional<double>(double(d.getValue())) : std::nullopt;
    };
    std::optional<double> e = num(end), b = num(start), st = num(step);
    if (!e || !b || !st || *st == 0)
      return unsupported("arange with symbolic float bounds or a zero step");
    double len = std::ceil((*e - *b) / *st);
    if (len < 0)
      return ruleError("arange bounds are inconsistent with the step sign");
    length = Dim(int64_t(len));
  }
  ScalarType dtype = a.scalarType("dtype").value_or(allInt ? ScalarType::LONG
                                                           : kDefaultFloat);
  return one(made(a, dtype, {length}));
}

llvm::Expected<Results> full(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(size, a.symInts("size"));
  ScalarType dtype = kDefaultFloat;
  if (std::optional<ScalarCategory> c = a.scalarCategory("fill_value")) {
    if (*c == ScalarCategory::Bool)
      dtype = ScalarType::BOOL;
    else if (*c == ScalarCategory::Integral)
      dtype = ScalarType::LONG;
    else if (*c == ScalarCategory::Complex)
      dtype = kDefaultComplex;
  }
  std::optional<ScalarType> given = a.scalarType("dtype");
  TensorInfo t = made(a, given.value_or(dtype), std::move(size));
  // Before torch 1.7 a bool or int fill value gave the default float dtype.
  t.dtypeChecked = given || dtype == kDefaultFloat;
  return one(std::move(t));
}

llvm::Expected<Results> factory(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(size, a.symInts("size"));
  TensorInfo t = made(a, a.scalarType("dtype").value_or(kDefaultFloat),
                      std::move(size));
  applyMemoryFormat(a, t);
  return one(std::move(t));
}

llvm::Expected<Results> emptyStrided(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(size, a.symInts("size"));
  PT2IR_TRY(stride, a.symInts("stride"));
  if (size.size() != stride.size())
    return ruleError("empty_strided: " + llvm::Twine(size.size()) +
                     " sizes and " + llvm::Twine(stride.size()) + " strides");
  TensorInfo t = made(a, a.scalarType("dtype").value_or(kDefaultFloat),
                      std::move(size));
  t.strides = std::move(stride);
  return one(std::move(t));
}

llvm::Expected<Results> randperm(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(count, a.symInt("n"));
  return one(made(a, a.scalarType("dtype").value_or(ScalarType::LONG), {count}));
}

llvm::Expected<Results> scalarTensor(InferenceSession &s, const Node &n) {
  Args a(s, n);
  return one(made(a, a.scalarType("dtype").value_or(kDefaultFloat), {}));
}

llvm::Expected<Results> factoryLike(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  ScalarType dtype = a.scalarType("dtype").value_or(self.dtype());
  TensorInfo t = made(a, dtype, self.shape, self.device());
  if (!self.contiguous)
    t.strides.reset();
  applyMemoryFormat(a, t);
  return one(std::move(t));
}

} // namespace pt2ir::infer::detail
