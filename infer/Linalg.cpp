//===- Linalg.cpp - Rules of the matmul family ----------------------------===//
//
// mm, bmm, addmm, matmul (1-d, 2-d and batched operands, batch dimensions
// broadcast), linear, and the distance ops. Inner dimensions are checked
// when static; results are fresh and contiguous.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/infer/RuleSupport.h"

namespace pt2ir::infer::detail {

namespace {

llvm::Error checkInner(const Dim &a, const Dim &b, const Shape &sa,
                       const Shape &sb) {
  if (a.isStatic() && b.isStatic() && a.getValue() != b.getValue())
    return ruleError("shapes " + formatShape(sa) + " and " + formatShape(sb) +
                     " cannot be multiplied (" + llvm::Twine(a.getValue()) +
                     " vs " + llvm::Twine(b.getValue()) + ")");
  return llvm::Error::success();
}

std::optional<ScalarType> promote2(ScalarType a, ScalarType b) {
  ResultTypeState st;
  st.addTensor(a, false);
  st.addTensor(b, false);
  return st.result();
}

/// A fresh contiguous result of the product.
TensorInfo product2(const TensorArg &a, const TensorArg &b, ScalarType dtype,
                    Shape shape) {
  TensorInfo t = freshLike({&a, &b}, dtype, std::move(shape));
  t.strides = contiguousStrides(t.shape);
  return t;
}

} // namespace

llvm::Expected<Results> mm(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(x, a.tensor("self"));
  PT2IR_TRY(y, a.tensor("mat2"));
  if (x.rank() != 2 || y.rank() != 2)
    return ruleError("mm expects 2-d operands, got " + formatShape(x.shape) +
                     " and " + formatShape(y.shape));
  if (auto err = checkInner(x.shape[1], y.shape[0], x.shape, y.shape))
    return err;
  std::optional<ScalarType> dt = promote2(x.dtype(), y.dtype());
  if (!dt)
    return ruleError("the operand dtypes do not promote");
  return one(product2(x, y, *dt, {x.shape[0], y.shape[1]}));
}

llvm::Expected<Results> bmm(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(x, a.tensor("self"));
  PT2IR_TRY(y, a.tensor("mat2"));
  if (x.rank() != 3 || y.rank() != 3)
    return ruleError("bmm expects 3-d operands, got " + formatShape(x.shape) +
                     " and " + formatShape(y.shape));
  if (auto err = checkInner(x.shape[0], y.shape[0], x.shape, y.shape))
    return err;
  if (auto err = checkInner(x.shape[2], y.shape[1], x.shape, y.shape))
    return err;
  std::optional<ScalarType> dt = promote2(x.dtype(), y.dtype());
  if (!dt)
    return ruleError("the operand dtypes do not promote");
  Dim batch = x.shape[0].isStatic() ? x.shape[0] : y.shape[0];
  return one(product2(x, y, *dt, {batch, x.shape[1], y.shape[2]}));
}

llvm::Expected<Results> addmm(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  PT2IR_TRY(x, a.tensor("mat1"));
  PT2IR_TRY(y, a.tensor("mat2"));
  if (x.rank() != 2 || y.rank() != 2)
    return ruleError("addmm expects 2-d matrices, got " + formatShape(x.shape) +
                     " and " + formatShape(y.shape));
  if (auto err = checkInner(x.shape[1], y.shape[0], x.shape, y.shape))
    return err;
  Shape shape{x.shape[0], y.shape[1]};
  PT2IR_TRY(b, broadcastShapes({self.shape, shape}));
  if (b.size() != 2)
    return ruleError("addmm: self " + formatShape(self.shape) +
                     " does not broadcast to " + formatShape(shape));
  ResultTypeState st;
  st.addTensor(self.dtype(), self.rank() == 0);
  st.addTensor(x.dtype(), false);
  st.addTensor(y.dtype(), false);
  std::optional<ScalarType> dt = st.result();
  if (!dt)
    return ruleError("the operand dtypes do not promote");
  TensorInfo t = freshLike({&self, &x, &y}, *dt, shape);
  t.strides = contiguousStrides(t.shape);
  return one(std::move(t));
}

llvm::Expected<Results> matmul(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(x, a.tensor("self"));
  PT2IR_TRY(y, a.tensor("other"));
  if (x.rank() == 0 || y.rank() == 0)
    return ruleError("matmul of a 0-dim tensor");
  std::optional<ScalarType> dt = promote2(x.dtype(), y.dtype());
  if (!dt)
    return ruleError("the operand dtypes do not promote");
  Shape xs = x.shape, ys = y.shape;
  bool xVec = xs.size() == 1, yVec = ys.size() == 1;
  if (xVec)
    xs.insert(xs.begin(), Dim(1));
  if (yVec)
    ys.push_back(Dim(1));
  if (auto err = checkInner(xs.back(), ys[ys.size() - 2], x.shape, y.shape))
    return err;
  Shape xb(xs.begin(), xs.end() - 2), yb(ys.begin(), ys.end() - 2);
  PT2IR_TRY(batch, broadcastShapes({xb, yb}));
  Shape shape = batch;
  if (!xVec)
    shape.push_back(xs[xs.size() - 2]);
  if (!yVec)
    shape.push_back(ys.back());
  return one(product2(x, y, *dt, std::move(shape)));
}

llvm::Expected<Results> linear(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(x, a.tensor("input"));
  PT2IR_TRY(w, a.tensor("weight"));
  if (x.rank() == 0 || w.rank() == 0 || w.rank() > 2)
    return ruleError("linear of " + formatShape(x.shape) + " by weight " +
                     formatShape(w.shape));
  if (auto err = checkInner(x.shape.back(), w.shape.back(), x.shape, w.shape))
    return err;
  Shape shape = x.shape;
  shape.pop_back();
  if (w.rank() == 2)
    shape.push_back(w.shape[0]);
  std::optional<ScalarType> dt = promote2(x.dtype(), w.dtype());
  if (!dt)
    return ruleError("the operand dtypes do not promote");
  return one(product2(x, w, *dt, std::move(shape)));
}

llvm::Expected<Results> cdist(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(x, a.tensor("x1"));
  PT2IR_TRY(y, a.tensor("x2"));
  if (x.rank() < 2 || y.rank() < 2)
    return ruleError("cdist expects operands of at least 2 dimensions");
  if (auto err = checkInner(x.shape.back(), y.shape.back(), x.shape, y.shape))
    return err;
  Shape xb(x.shape.begin(), x.shape.end() - 2), yb(y.shape.begin(), y.shape.end() - 2);
  PT2IR_TRY(batch, broadcastShapes({xb, yb}));
  Shape shape = batch;
  shape.push_back(x.shape[x.shape.size() - 2]);
  shape.push_back(y.shape[y.shape.size() - 2]);
  return one(product2(x, y, x.dtype(), std::move(shape)));
}

llvm::Expected<Results> pdist(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(x, a.tensor("self"));
  if (x.rank() != 2)
    return ruleError("pdist expects a 2-d input, got " + formatShape(x.shape));
  const Dim &rows = x.shape[0];
  std::optional<Dim> count = floorDiv(rows * (rows - Dim(1)), Dim(2));
  return one(freshLike(x, x.dtype(), {*count}));
}

} // namespace pt2ir::infer::detail
