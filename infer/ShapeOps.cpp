//===- ShapeOps.cpp - Rules of cat, stack, split and unbind ---------------===//
//
// Concatenation sums the sizes along `dim` (symbolically when they are
// symbolic) and skips legacy empty 1-d inputs; stack inserts a dimension;
// split, split_with_sizes and unbind yield one view per piece, with the
// input's strides.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/infer/RuleSupport.h"

namespace pt2ir::infer::detail {

namespace {

std::optional<ScalarType> promoteAll(const std::vector<TensorArg> &ts) {
  ResultTypeState state;
  for (const TensorArg &t : ts)
    state.addTensor(t.dtype(), /*zeroDim=*/false);
  return state.result();
}

std::vector<const TensorArg *> pointers(const std::vector<TensorArg> &ts) {
  std::vector<const TensorArg *> out;
  for (const TensorArg &t : ts)
    out.push_back(&t);
  return out;
}

std::optional<Shape> inputStrides(InferenceSession &s, const TensorArg &t) {
  auto strides = s.stridesOf(*t.meta);
  if (!strides) {
    llvm::consumeError(strides.takeError());
    return std::nullopt;
  }
  if (strides->size() != t.shape.size())
    return std::nullopt;
  return std::move(*strides);
}

/// Pieces of `sizes` along `nd` of `self`, as views.
Results pieces(InferenceSession &s, const TensorArg &self, int64_t nd,
               llvm::ArrayRef<Dim> sizes) {
  std::optional<Shape> strides = inputStrides(s, self);
  ResultInfo r;
  r.kind = ResultInfo::Kind::TensorList;
  for (const Dim &len : sizes) {
    Shape shape = self.shape;
    shape[nd] = len;
    r.tensors.push_back(viewOf(self, std::move(shape), strides));
  }
  return {std::move(r)};
}

} // namespace

llvm::Expected<Results> cat(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(all, a.tensorList("tensors"));
  PT2IR_TRY(dim, a.intArg("dim"));
  std::vector<TensorArg> ts;
  for (TensorArg &t : all)
    if (!(t.rank() == 1 && t.shape[0].isStaticValue(0)))
      ts.push_back(t);
  std::optional<ScalarType> dtype = promoteAll(all);
  if (!dtype)
    return ruleError("the input dtypes do not promote");
  if (ts.empty()) {
    if (all.empty())
      return ruleError("cat of no tensors");
    return one(freshLike(pointers(all), *dtype, all.front().shape));
  }
  int64_t rank = ts.front().rank();
  PT2IR_TRY(nd, normalizeDim(dim, rank));
  Shape shape = ts.front().shape;
  for (size_t i = 1; i < ts.size(); ++i) {
    const TensorArg &t = ts[i];
    if (t.rank() != rank)
      return ruleError("cat of tensors of rank " + llvm::Twine(rank) + " and " +
                       llvm::Twine(t.rank()));
    for (int64_t d = 0; d < rank; ++d) {
      if (d == nd)
        continue;
      if (shape[d].isStatic() && t.shape[d].isStatic() &&
          shape[d].getValue() != t.shape[d].getValue())
        return ruleError("cat: sizes of tensors must match except in dimension " +
                         llvm::Twine(nd) + " (" + formatShape(shape) + " vs " +
                         formatShape(t.shape) + ")");
      if (!shape[d].isStatic() && t.shape[d].isStatic())
        shape[d] = t.shape[d];
    }
    shape[nd] = shape[nd] + t.shape[nd];
  }
  return one(freshLike(pointers(all), *dtype, std::move(shape)));
}

llvm::Expected<Results> stack(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(ts, a.tensorList("tensors"));
  PT2IR_TRY(dim, a.intArg("dim"));
  if (ts.empty())
    return ruleError("stack of no tensors");
  Shape shape = ts.front().shape;
  for (const TensorArg &t : ts) {
    if (t.rank() != int64_t(shape.size()))
      return ruleError("stack expects tensors of equal shape, got " +
                       formatShape(shape) + " and " + formatShape(t.shape));
    for (size_t d = 0; d < shape.size(); ++d)
      if (shape[d].isStatic() && t.shape[d].isStatic() &&
          shape[d].getValue() != t.shape[d].getValue())
        return ruleError("stack expects tensors of equal shape, got " +
                         formatShape(shape) + " and " + formatShape(t.shape));
  }
  PT2IR_TRY(nd, normalizeDim(dim, int64_t(shape.size()) + 1));
  shape.insert(shape.begin() + nd, Dim(int64_t(ts.size())));
  std::optional<ScalarType> dtype = promoteAll(ts);
  if (!dtype)
    return ruleError("the input dtypes do not promote");
  return one(freshLike(pointers(ts), *dtype, std::move(shape)));
}

llvm::Expected<Results> split(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  PT2IR_TRY(splitSize, a.symInt("split_size"));
  PT2IR_TRY(dim, a.intArg("dim"));
  PT2IR_TRY(nd, normalizeDim(dim, self.rank()));
  if (self.rank() == 0)
    return ruleError("split of a 0-dim tensor");
  const Dim &size = self.shape[nd];
  if (!size.isStatic() || !splitSize.isStatic()) {
    // The number of pieces depends on a symbol: only an exact division by
    // a symbolic piece count is followed.
    if (splitSize.isStaticValue(0))
      return ruleError("split_size is 0");
    std::optional<Dim> count = ceilDiv(size, splitSize);
    if (!count || !count->isStatic())
      return unsupported("the number of pieces of a symbolic split is not a "
                       "constant (" + size.str() + " by " + splitSize.str() + ")");
    Shape sizes;
    Dim rest = size;
    for (int64_t i = 0; i < count->getValue(); ++i) {
      Dim len = i + 1 < count->getValue() ? splitSize : rest;
      sizes.push_back(len);
      rest = rest - splitSize;
    }
    return pieces(s, self, nd, sizes);
  }
  int64_t total = size.getValue(), step = splitSize.getValue();
  if (step <= 0) {
    if (step == 0 && total == 0)
      return pieces(s, self, nd, {Dim(0)});
    return ruleError("split_size must be positive, got " + llvm::Twine(step));
  }
  Shape sizes;
  for (int64_t off = 0; off < total; off += step)
    sizes.push_back(Dim(std::min(step, total - off)));
  if (sizes.empty())
    sizes.push_back(Dim(0));
  return pieces(s, self, nd, sizes);
}

llvm::Expected<Results> splitWithSizes(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  PT2IR_TRY(sizes, a.symInts("split_sizes"));
  PT2IR_TRY(dim, a.intArg("dim"));
  PT2IR_TRY(nd, normalizeDim(dim, self.rank()));
  Dim total(0);
  for (const Dim &d : sizes)
    total = total + d;
  if (total.isStatic() && self.shape[nd].isStatic() &&
      total.getValue() != self.shape[nd].getValue())
    return ruleError("split_sizes add up to " + llvm::Twine(total.getValue()) +
                     ", not the size " + llvm::Twine(self.shape[nd].getValue()) +
                     " of dimension " + llvm::Twine(nd));
  return pieces(s, self, nd, sizes);
}

llvm::Expected<Results> unbind(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  PT2IR_TRY(dim, a.intArg("dim"));
  PT2IR_TRY(nd, normalizeDim(dim, self.rank()));
  if (self.rank() == 0)
    return ruleError("unbind of a 0-dim tensor");
  if (!self.shape[nd].isStatic())
    return unsupported("unbind along a symbolic dimension (" +
                     self.shape[nd].str() + ")");
  std::optional<Shape> strides = inputStrides(s, self);
  if (strides)
    strides->erase(strides->begin() + nd);
  Shape shape = self.shape;
  shape.erase(shape.begin() + nd);
  ResultInfo r;
  r.kind = ResultInfo::Kind::TensorList;
  for (int64_t i = 0; i < self.shape[nd].getValue(); ++i)
    r.tensors.push_back(viewOf(self, shape, strides));
  return Results{std::move(r)};
}

} // namespace pt2ir::infer::detail
