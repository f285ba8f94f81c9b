//===- Views.cpp - Rules of views and reshapes ----------------------------===//
//
// view/_unsafe_view/reshape (one -1 solved from the element count, also
// when it is symbolic), expand, permute, t, transpose, (un)squeeze, select,
// slice (bounds clamped as Python slices are, symbolic bounds kept as
// expressions), diagonal, as_strided, alias/detach, view_as_complex, and the
// copying flip and repeat. Views carry strides derived from their input's
// where those are known.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/infer/RuleSupport.h"

namespace pt2ir::infer::detail {

namespace {

/// The input's strides when it has as many as dimensions.
std::optional<Shape> stridesOf(InferenceSession &s, const TensorArg &t) {
  auto strides = s.stridesOf(*t.meta);
  if (!strides) {
    llvm::consumeError(strides.takeError());
    return std::nullopt;
  }
  if (strides->size() != t.shape.size())
    return std::nullopt;
  return std::move(*strides);
}

/// The strides of a view of `shape`/`strides` as `newShape`, as torch
/// computes them (chunks of dimensions that are contiguous among themselves
/// can be regrouped); nullopt when the view is impossible without a copy
/// or a size is symbolic.
std::optional<Shape> viewStrides(const Shape &shape, const Shape &strides,
                                 const Shape &newShape) {
  auto allStatic = [](const Shape &s) {
    for (const Dim &d : s)
      if (!d.isStatic())
        return false;
    return true;
  };
  if (!allStatic(shape) || !allStatic(strides) || !allStatic(newShape))
    return std::nullopt;
  Shape out(newShape.size(), Dim(0));
  if (shape.empty())
    return contiguousStrides(newShape);
  int64_t numel = 1;
  for (const Dim &d : shape)
    numel *= d.getValue();
  if (numel == 0)
    return contiguousStrides(newShape);
  int64_t viewD = int64_t(newShape.size()) - 1;
  int64_t chunkBase = strides.back().getValue();
  int64_t tensorNumel = 1, viewNumel = 1;
  for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
    tensorNumel *= shape[d].getValue();
    if (d == 0 || (shape[d - 1].getValue() != 1 &&
                   strides[d - 1].getValue() != tensorNumel * chunkBase)) {
      while (viewD >= 0 && (viewNumel < tensorNumel ||
                            newShape[viewD].getValue() == 1)) {
        out[viewD] = Dim(viewNumel * chunkBase);
        viewNumel *= newShape[viewD].getValue();
        --viewD;
      }
      if (viewNumel != tensorNumel)
        return std::nullopt;
      if (d > 0) {
        chunkBase = strides[d - 1].getValue();
        tensorNumel = 1;
        viewNumel = 1;
      }
    }
  }
  if (viewD != -1)
    return std::nullopt;
  return out;
}

} // namespace

llvm::Expected<Results> view(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  llvm::StringRef sizeName = a.get("shape") ? "shape" : "size";
  PT2IR_TRY(size, a.symInts(sizeName));
  std::optional<size_t> inferIndex;
  Dim known(1);
  for (size_t i = 0; i < size.size(); ++i) {
    if (size[i].isStaticValue(-1)) {
      if (inferIndex)
        return ruleError("only one dimension can be inferred (-1)");
      inferIndex = i;
      continue;
    }
    if (size[i].isStatic() && size[i].getValue() < 0)
      return ruleError("invalid size " + llvm::Twine(size[i].getValue()));
    known = known * size[i];
  }
  // The element count matters for -1 and for a static size; a symbolic
  // product is not worth computing otherwise.
  Dim numel = inferIndex || known.isStatic() ? product(self.shape) : Dim(0);
  if (inferIndex) {
    if (known.isStaticValue(0))
      return ruleError("cannot infer -1 in a shape with 0 elements");
    std::optional<Dim> q = floorDiv(numel, known);
    if (!q)
      return ruleError("cannot infer -1");
    if (numel.isStatic() && known.isStatic() &&
        numel.getValue() % known.getValue() != 0)
      return ruleError("shape " + formatShape(size) + " is invalid for " +
                       llvm::Twine(numel.getValue()) + " elements");
    size[*inferIndex] = *q;
  } else if (numel.isStatic() && known.isStatic() &&
             numel.getValue() != known.getValue()) {
    return ruleError("shape " + formatShape(size) + " is invalid for " +
                     llvm::Twine(numel.getValue()) + " elements");
  }
  std::optional<Shape> strides;
  if (self.contiguous) {
    strides = contiguousStrides(size);
  } else if (std::optional<Shape> in = stridesOf(s, self)) {
    strides = viewStrides(self.shape, *in, size);
    // reshape and _unsafe_view copy what view cannot express.
    if (!strides && !n.getTarget().contains(".view."))
      strides = contiguousStrides(size);
  }
  return one(viewOf(self, std::move(size), std::move(strides)));
}

llvm::Expected<Results> expand(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  PT2IR_TRY(size, a.symInts("size"));
  if (size.size() < self.shape.size())
    return ruleError("expand to " + formatShape(size) +
                     " has fewer dimensions than the input " +
                     formatShape(self.shape));
  std::optional<Shape> inStrides = stridesOf(s, self);
  size_t offset = size.size() - self.shape.size();
  Shape strides(size.size(), Dim(0));
  for (size_t i = 0; i < size.size(); ++i) {
    if (i < offset) {
      if (size[i].isStaticValue(-1))
        return ruleError("-1 is not allowed for a new leading dimension");
      continue;
    }
    const Dim &in = self.shape[i - offset];
    if (size[i].isStaticValue(-1)) {
      size[i] = in;
    } else if (!sameDim(in, size[i]) && !in.isStaticValue(1)) {
      if (in.isStatic() && size[i].isStatic())
        return ruleError("cannot expand dimension " + llvm::Twine(i) +
                         " of size " + llvm::Twine(in.getValue()) + " to " +
                         llvm::Twine(size[i].getValue()));
    }
    if (inStrides && !(in.isStaticValue(1) && !size[i].isStaticValue(1)))
      strides[i] = (*inStrides)[i - offset];
  }
  return one(viewOf(self, std::move(size),
                    inStrides ? std::optional<Shape>(std::move(strides))
                              : std::nullopt));
}

llvm::Expected<Results> permute(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  PT2IR_TRY(dims, a.ints("dims"));
  if (int64_t(dims.size()) != self.rank())
    return ruleError("permute of a rank " + llvm::Twine(self.rank()) +
                     " tensor by " + llvm::Twine(dims.size()) + " dimensions");
  std::optional<Shape> inStrides = stridesOf(s, self);
  Shape shape, strides;
  llvm::SmallVector<bool, 8> seen(dims.size(), false);
  for (int64_t d : dims) {
    PT2IR_TRY(nd, normalizeDim(d, self.rank()));
    if (seen[nd])
      return ruleError("dimension " + llvm::Twine(nd) + " repeats in permute");
    seen[nd] = true;
    shape.push_back(self.shape[nd]);
    if (inStrides)
      strides.push_back((*inStrides)[nd]);
  }
  return one(viewOf(self, std::move(shape),
                    inStrides ? std::optional<Shape>(std::move(strides))
                              : std::nullopt));
}

static llvm::Expected<Results> swapDims(InferenceSession &s,
                                        const TensorArg &self, int64_t d0,
                                        int64_t d1) {
  PT2IR_TRY(a0, normalizeDim(d0, self.rank()));
  PT2IR_TRY(a1, normalizeDim(d1, self.rank()));
  Shape shape = self.shape;
  std::optional<Shape> strides = stridesOf(s, self);
  if (!shape.empty()) {
    std::swap(shape[a0], shape[a1]);
    if (strides)
      std::swap((*strides)[a0], (*strides)[a1]);
  }
  return one(viewOf(self, std::move(shape), std::move(strides)));
}

llvm::Expected<Results> t(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  if (self.rank() > 2)
    return ruleError("t() expects a tensor of at most 2 dimensions, got " +
                     llvm::Twine(self.rank()));
  if (self.rank() < 2)
    return swapDims(s, self, 0, 0);
  return swapDims(s, self, 0, 1);
}

llvm::Expected<Results> transpose(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  PT2IR_TRY(d0, a.intArg("dim0"));
  PT2IR_TRY(d1, a.intArg("dim1"));
  return swapDims(s, self, d0, d1);
}

llvm::Expected<Results> unsqueeze(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  PT2IR_TRY(dim, a.intArg("dim"));
  PT2IR_TRY(nd, normalizeDim(dim, self.rank() + 1));
  Shape shape = self.shape;
  shape.insert(shape.begin() + nd, Dim(1));
  std::optional<Shape> strides = stridesOf(s, self);
  if (strides) {
    Dim st = size_t(nd) < self.shape.size()
                 ? (*strides)[nd] * self.shape[nd]
                 : Dim(1);
    strides->insert(strides->begin() + nd, st);
  }
  return one(viewOf(self, std::move(shape), std::move(strides)));
}

llvm::Expected<Results> squeeze(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  llvm::SmallVector<bool, 8> drop(self.shape.size(), false);
  PT2IR_TRY(dims, a.optInts("dim"));
  if (!dims) {
    for (size_t i = 0; i < self.shape.size(); ++i)
      drop[i] = self.shape[i].isStaticValue(1);
  } else {
    for (int64_t d : *dims) {
      PT2IR_TRY(nd, normalizeDim(d, self.rank()));
      if (self.rank() > 0 && self.shape[nd].isStaticValue(1))
        drop[nd] = true;
    }
  }
  std::optional<Shape> inStrides = stridesOf(s, self);
  Shape shape, strides;
  for (size_t i = 0; i < self.shape.size(); ++i) {
    if (drop[i])
      continue;
    shape.push_back(self.shape[i]);
    if (inStrides)
      strides.push_back((*inStrides)[i]);
  }
  return one(viewOf(self, std::move(shape),
                    inStrides ? std::optional<Shape>(std::move(strides))
                              : std::nullopt));
}

llvm::Expected<Results> select(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  if (self.rank() == 0)
    return ruleError("select() cannot be applied to a 0-dim tensor");
  PT2IR_TRY(dim, a.intArg("dim"));
  PT2IR_TRY(nd, normalizeDim(dim, self.rank()));
  PT2IR_TRY(index, a.symInt("index"));
  const Dim &size = self.shape[nd];
  if (index.isStatic() && size.isStatic() &&
      (index.getValue() >= size.getValue() ||
       index.getValue() < -size.getValue()))
    return ruleError("index " + llvm::Twine(index.getValue()) +
                     " is out of range for dimension " + llvm::Twine(nd) +
                     " of size " + llvm::Twine(size.getValue()));
  Shape shape = self.shape;
  shape.erase(shape.begin() + nd);
  std::optional<Shape> strides = stridesOf(s, self);
  if (strides)
    strides->erase(strides->begin() + nd);
  return one(viewOf(self, std::move(shape), std::move(strides)));
}

/// Python slice bound clamping of `v` against `size`. Against a symbolic
/// size torch guards on the hint and records the unclamped bound (a start
/// of 1 on `s0` gives `s0 - 1`), so that is what this gives; a huge end
/// (sys.maxsize) is the size itself.
static Dim clampBound(const Dim &v, const Dim &size) {
  if (v.isStatic() && size.isStatic()) {
    int64_t x = v.getValue(), n = size.getValue();
    if (x < 0)
      x = std::max<int64_t>(x + n, 0);
    return Dim(std::min(x, n));
  }
  if (v.isStatic() && v.getValue() >= (int64_t(1) << 62))
    return size;
  if (v.isStatic() && v.getValue() < 0)
    return size + v;
  return v;
}

llvm::Expected<Results> slice(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  if (self.rank() == 0)
    return ruleError("slice() cannot be applied to a 0-dim tensor");
  PT2IR_TRY(dim, a.intArg("dim"));
  PT2IR_TRY(nd, normalizeDim(dim, self.rank()));
  PT2IR_TRY(start, a.optSymInt("start"));
  PT2IR_TRY(end, a.optSymInt("end"));
  PT2IR_TRY(step, a.symInt("step"));
  if (!step.isStatic())
    return unsupported("a symbolic slice step");
  if (step.getValue() <= 0)
    return ruleError("slice step must be positive");
  const Dim &size = self.shape[nd];
  Dim lo = start ? clampBound(*start, size) : Dim(0);
  Dim hi = end ? clampBound(*end, size) : size;
  Dim len = hi - lo;
  if (len.isStatic() && len.getValue() < 0)
    len = Dim(0);
  std::optional<Dim> count = ceilDiv(len, step);
  if (!count)
    return ruleError("slice step is zero");
  Shape shape = self.shape;
  shape[nd] = *count;
  std::optional<Shape> strides = stridesOf(s, self);
  if (strides)
    (*strides)[nd] = (*strides)[nd] * step;
  return one(viewOf(self, std::move(shape), std::move(strides)));
}

llvm::Expected<Results> diagonal(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  PT2IR_TRY(offset, a.intArg("offset"));
  PT2IR_TRY(d1, a.intArg("dim1"));
  PT2IR_TRY(d2, a.intArg("dim2"));
  PT2IR_TRY(n1, normalizeDim(d1, self.rank()));
  PT2IR_TRY(n2, normalizeDim(d2, self.rank()));
  if (n1 == n2)
    return ruleError("diagonal dimensions cannot be identical");
  Dim len = offset >= 0 ? minDim(self.shape[n1], self.shape[n2] - Dim(offset))
                        : minDim(self.shape[n1] + Dim(offset), self.shape[n2]);
  len = maxDim(len, Dim(0));
  std::optional<Shape> inStrides = stridesOf(s, self);
  Shape shape, strides;
  for (int64_t i = 0; i < self.rank(); ++i) {
    if (i == n1 || i == n2)
      continue;
    shape.push_back(self.shape[i]);
    if (inStrides)
      strides.push_back((*inStrides)[i]);
  }
  shape.push_back(len);
  if (inStrides)
    strides.push_back((*inStrides)[n1] + (*inStrides)[n2]);
  return one(viewOf(self, std::move(shape),
                    inStrides ? std::optional<Shape>(std::move(strides))
                              : std::nullopt));
}

llvm::Expected<Results> asStrided(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  PT2IR_TRY(size, a.symInts("size"));
  PT2IR_TRY(stride, a.symInts("stride"));
  if (size.size() != stride.size())
    return ruleError("as_strided: " + llvm::Twine(size.size()) + " sizes and " +
                     llvm::Twine(stride.size()) + " strides");
  return one(viewOf(self, std::move(size), std::move(stride)));
}

llvm::Expected<Results> viewSame(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  TensorInfo t = viewOf(self, self.shape, stridesOf(s, self));
  if (n.getTarget().contains(".detach."))
    t.requiresGrad = false;
  return one(std::move(t));
}

llvm::Expected<Results> viewAsComplex(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  if (self.shape.empty() || !self.shape.back().isStaticValue(2))
    return ruleError("view_as_complex needs a last dimension of size 2, got " +
                     formatShape(self.shape));
  if (!isFloatingType(self.dtype()))
    return ruleError("view_as_complex needs a floating input");
  Shape shape = self.shape;
  shape.pop_back();
  std::optional<Shape> strides = stridesOf(s, self);
  if (strides) {
    strides->pop_back();
    for (Dim &d : *strides) {
      std::optional<Dim> h = floorDiv(d, Dim(2));
      d = h ? *h : d;
    }
  }
  TensorInfo t = viewOf(self, std::move(shape), std::move(strides));
  t.dtype = toComplexType(self.dtype());
  return one(std::move(t));
}

llvm::Expected<Results> flip(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  PT2IR_TRY(dims, a.ints("dims"));
  for (int64_t d : dims) {
    PT2IR_TRY(nd, normalizeDim(d, self.rank()));
    (void)nd;
  }
  return one(freshLike(self, self.dtype(), self.shape));
}

llvm::Expected<Results> repeat(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  PT2IR_TRY(repeats, a.symInts("repeats"));
  if (repeats.size() < self.shape.size())
    return ruleError("repeat needs at least as many repeats (" +
                     llvm::Twine(repeats.size()) + ") as dimensions (" +
                     llvm::Twine(self.rank()) + ")");
  size_t offset = repeats.size() - self.shape.size();
  Shape shape = repeats;
  for (size_t i = offset; i < shape.size(); ++i)
    shape[i] = repeats[i] * self.shape[i - offset];
  TensorInfo t = freshLike(self, self.dtype(), std::move(shape));
  t.strides = contiguousStrides(t.shape);
  return one(std::move(t));
}

} // namespace pt2ir::infer::detail
