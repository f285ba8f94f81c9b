//===- Pointwise.cpp - Rules of elementwise operators ---------------------===//
//
// Unary and binary elementwise operators, in-place operators, where,
// masked_fill, clamp, _to_copy and friends: broadcasting of the tensor
// operands and torch's type promotion (ResultTypeState), then the operator's
// kind of result (same dtype, default float for integral inputs, bool).
// Results are fresh: contiguous strides when every tensor input is
// contiguous, else unknown (torch follows the inputs' memory format).
//
//===----------------------------------------------------------------------===//

#include "pt2ir/infer/RuleSupport.h"

namespace pt2ir::infer::detail {

namespace {

/// The first schema argument (the `self` of most operators).
llvm::StringRef argName(const Args &a, size_t i) {
  if (!a.schema() || i >= a.schema()->arguments().size())
    return {};
  return a.schema()->arguments()[i].Name;
}

llvm::Expected<Results> unary(InferenceSession &s, const Node &n,
                              ScalarType (*dtypeOf)(ScalarType)) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor(argName(a, 0)));
  return one(freshLike(self, dtypeOf(self.dtype()), self.shape));
}

/// Broadcast shape, promoted dtype and the tensor operands of `names`.
struct Promoted {
  Shape shape;
  ScalarType dtype;
  std::vector<TensorArg> tensors;
};

llvm::Expected<Promoted> promote(Args &a, llvm::ArrayRef<llvm::StringRef> names) {
  Promoted p;
  ResultTypeState state;
  std::vector<Shape> shapes;
  for (llvm::StringRef name : names) {
    const Argument *arg = a.get(name);
    if (arg && (arg->isNone() || (arg->getKind() == ArgKind::OptionalTensor &&
                                  !arg->getRef())))
      continue;
    PT2IR_TRY(op, a.operand(name));
    if (op.tensor) {
      state.addTensor(op.tensor->dtype(), op.tensor->rank() == 0);
      shapes.push_back(op.tensor->shape);
      p.tensors.push_back(std::move(*op.tensor));
    } else {
      state.addScalar(op.category);
    }
  }
  std::optional<ScalarType> dtype = state.result();
  if (!dtype)
    return ruleError("the operand dtypes do not promote");
  p.dtype = *dtype;
  PT2IR_TRY(shape, broadcastShapes(shapes));
  p.shape = std::move(shape);
  return p;
}

TensorInfo promotedResult(const Promoted &p, ScalarType dtype) {
  std::vector<const TensorArg *> ins;
  for (const TensorArg &t : p.tensors)
    ins.push_back(&t);
  return freshLike(ins, dtype, p.shape);
}

ScalarType intToFloat(ScalarType t) {
  return isIntegralType(t, /*includeBool=*/true) ? kDefaultFloat : t;
}

} // namespace

llvm::Expected<Results> unaryPreserve(InferenceSession &s, const Node &n) {
  PT2IR_TRY(r, unary(s, n, [](ScalarType t) { return t; }));
  applyMemoryFormat(Args(s, n), r.front().tensor);
  return std::move(r);
}

llvm::Expected<Results> unaryAbs(InferenceSession &s, const Node &n) {
  return unary(s, n, toRealType);
}

llvm::Expected<Results> unaryFloat(InferenceSession &s, const Node &n) {
  return unary(s, n, intToFloat);
}

llvm::Expected<Results> unaryBool(InferenceSession &s, const Node &n) {
  return unary(s, n, [](ScalarType) { return ScalarType::BOOL; });
}

llvm::Expected<Results> inplace(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor(argName(a, 0)));
  PT2IR_TRY(t, sameAs(s, self));
  return one(std::move(t));
}

llvm::Expected<Results> binaryPromote(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(p, promote(a, {argName(a, 0), argName(a, 1)}));
  return one(promotedResult(p, p.dtype));
}

llvm::Expected<Results> binaryFloat(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(p, promote(a, {argName(a, 0), argName(a, 1)}));
  return one(promotedResult(p, intToFloat(p.dtype)));
}

llvm::Expected<Results> divMode(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(p, promote(a, {argName(a, 0), argName(a, 1)}));
  bool trueDiv = !a.string("rounding_mode");
  return one(promotedResult(p, trueDiv ? intToFloat(p.dtype) : p.dtype));
}

llvm::Expected<Results> binaryBool(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(p, promote(a, {argName(a, 0), argName(a, 1)}));
  return one(promotedResult(p, ScalarType::BOOL));
}

llvm::Expected<Results> where(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(cond, a.tensor("condition"));
  PT2IR_TRY(p, promote(a, {"self", "other"}));
  PT2IR_TRY(shape, broadcastShapes({cond.shape, p.shape}));
  p.shape = std::move(shape);
  p.tensors.push_back(std::move(cond));
  return one(promotedResult(p, p.dtype));
}

llvm::Expected<Results> maskedFill(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  PT2IR_TRY(mask, a.tensor("mask"));
  PT2IR_TRY(shape, broadcastShapes({self.shape, mask.shape}));
  return one(freshLike({&self, &mask}, self.dtype(), std::move(shape)));
}

llvm::Expected<Results> clampTensor(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(p, promote(a, {"self", "min", "max"}));
  return one(promotedResult(p, p.dtype));
}

llvm::Expected<Results> toCopy(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  TensorInfo t = freshLike(self, a.scalarType("dtype").value_or(self.dtype()),
                           self.shape);
  if (std::optional<Device> d = a.device("device"))
    t.device = *d;
  applyMemoryFormat(a, t);
  if (!isFloatingType(t.dtype) && !isComplexType(t.dtype))
    t.requiresGrad = false;
  return one(std::move(t));
}

llvm::Expected<Results> nativeDropout(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(input, a.tensor("input"));
  TensorInfo out = freshLike(input, input.dtype(), input.shape);
  TensorInfo mask = freshLike(input, ScalarType::BOOL, input.shape);
  return Results{ResultInfo::ofTensor(std::move(out)),
                 ResultInfo::ofTensor(std::move(mask))};
}

llvm::Expected<Results> outVariant(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(out, a.tensor("out"));
  PT2IR_TRY(t, sameAs(s, out));
  return one(std::move(t));
}

llvm::Expected<Results> resize(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  PT2IR_TRY(size, a.symInts("size"));
  TensorInfo t = freshOn(self.dtype(), size, self.device(), self.requiresGrad());
  return one(std::move(t));
}

llvm::Expected<Results> localScalarDense(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  (void)self;
  return Results{ResultInfo::unknown()};
}

} // namespace pt2ir::infer::detail
