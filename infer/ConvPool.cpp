//===- ConvPool.cpp - Rules of convolution, pooling, upsampling, padding --===//
//
// Convolution (1-3 spatial dimensions, stride/padding/dilation, groups,
// transposed with output_padding), max and average pooling (kernel, stride
// defaulting to the kernel, padding, dilation, ceil_mode with torch's rule
// that the last window starts inside the input or left padding), adaptive
// pooling, upsampling by size or scale, col2im, grid sampling and padding.
// The backward ops give gradients shaped like the forward inputs.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/infer/RuleSupport.h"

#include <cmath>

namespace pt2ir::infer::detail {

namespace {

/// `list` of length `n`: a single element is repeated, empty gives
/// `fallback` (nullopt: an error).
llvm::Expected<Shape> expandList(const Shape &list, size_t n,
                                 llvm::StringRef name,
                                 std::optional<Shape> fallback = std::nullopt) {
  if (list.empty() && fallback)
    return *fallback;
  if (list.size() == 1)
    return Shape(n, list.front());
  if (list.size() != n)
    return ruleError("'" + name + "' has " + llvm::Twine(list.size()) +
                     " elements, expected 1 or " + llvm::Twine(n));
  return list;
}

/// floor((in + 2p - d(k-1) - 1) / s) + 1, or with ceil_mode the ceiling,
/// less one when the last window would start in the right padding.
llvm::Expected<Dim> pooledSize(const Dim &in, const Dim &k, const Dim &st,
                               const Dim &p, const Dim &d, bool ceilMode) {
  if (st.isStaticValue(0))
    return ruleError("stride 0");
  Dim span = in + p * Dim(2) - d * (k - Dim(1)) - Dim(1);
  std::optional<Dim> q = ceilMode ? floorDiv(span + st - Dim(1), st)
                                  : floorDiv(span, st);
  if (!q)
    return ruleError("stride 0");
  Dim out = *q + Dim(1);
  if (ceilMode && out.isStatic() && in.isStatic() && p.isStatic() &&
      st.isStatic() &&
      (out.getValue() - 1) * st.getValue() >= in.getValue() + p.getValue())
    out = out - Dim(1);
  if (out.isStatic() && out.getValue() <= 0)
    return ruleError("the output size is too small (" + out.str() + ")");
  return out;
}

} // namespace

llvm::Expected<Results> convolution(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(input, a.tensor("input"));
  PT2IR_TRY(weight, a.tensor("weight"));
  PT2IR_TRY(stride0, a.symInts("stride"));
  PT2IR_TRY(padding0, a.symInts("padding"));
  PT2IR_TRY(dilation0, a.symInts("dilation"));
  PT2IR_TRY(transposed, a.boolArg("transposed"));
  PT2IR_TRY(outPad0, a.symInts("output_padding"));
  PT2IR_TRY(groups, a.symInt("groups"));
  if (input.rank() < 3 || weight.rank() != input.rank())
    return ruleError("convolution of input " + formatShape(input.shape) +
                     " by weight " + formatShape(weight.shape));
  size_t spatial = input.shape.size() - 2;
  PT2IR_TRY(stride, expandList(stride0, spatial, "stride"));
  PT2IR_TRY(padding, expandList(padding0, spatial, "padding"));
  PT2IR_TRY(dilation, expandList(dilation0, spatial, "dilation"));
  PT2IR_TRY(outPad, expandList(outPad0, spatial, "output_padding",
                               Shape(spatial, Dim(0))));
  Shape shape{input.shape[0]};
  if (!transposed) {
    Dim cin = weight.shape[1] * groups;
    if (cin.isStatic() && input.shape[1].isStatic() &&
        cin.getValue() != input.shape[1].getValue())
      return ruleError("input has " + llvm::Twine(input.shape[1].getValue()) +
                       " channels; weight " + formatShape(weight.shape) +
                       " with groups " + groups.str() + " expects " +
                       llvm::Twine(cin.getValue()));
    shape.push_back(weight.shape[0]);
    for (size_t i = 0; i < spatial; ++i) {
      PT2IR_TRY(o, pooledSize(input.shape[2 + i], weight.shape[2 + i],
                              stride[i], padding[i], dilation[i], false));
      shape.push_back(o);
    }
  } else {
    shape.push_back(weight.shape[1] * groups);
    for (size_t i = 0; i < spatial; ++i)
      shape.push_back((input.shape[2 + i] - Dim(1)) * stride[i] -
                      padding[i] * Dim(2) +
                      dilation[i] * (weight.shape[2 + i] - Dim(1)) +
                      outPad[i] + Dim(1));
  }
  ResultTypeState st;
  st.addTensor(input.dtype(), false);
  st.addTensor(weight.dtype(), false);
  std::optional<ScalarType> dt = st.result();
  if (!dt)
    return ruleError("the operand dtypes do not promote");
  return one(freshLike({&input, &weight}, *dt, std::move(shape)));
}

llvm::Expected<Results> convolutionBackward(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(grad, a.tensor("grad_output"));
  PT2IR_TRY(input, a.tensor("input"));
  PT2IR_TRY(weight, a.tensor("weight"));
  PT2IR_TRY(biasSizes, a.optSymInts("bias_sizes"));
  const Argument *maskArg = a.get("output_mask");
  const std::vector<bool> *mask = maskArg ? maskArg->getIfBools() : nullptr;
  auto on = [&](size_t i) { return !mask || (i < mask->size() && (*mask)[i]); };
  Results r(3);
  if (on(0))
    r[0] = ResultInfo::ofTensor(freshLike(input, grad.dtype(), input.shape));
  if (on(1))
    r[1] = ResultInfo::ofTensor(freshLike(weight, grad.dtype(), weight.shape));
  if (on(2)) {
    Shape b = biasSizes ? *biasSizes : Shape{grad.shape.size() > 1 ? grad.shape[1] : Dim(1)};
    r[2] = ResultInfo::ofTensor(freshLike(grad, grad.dtype(), std::move(b)));
  }
  return r;
}

llvm::Expected<Results> maxPoolWithIndices(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  size_t spatial = n.getTarget().contains("3d") ? 3 : 2;
  if (self.shape.size() != spatial + 1 && self.shape.size() != spatial + 2)
    return ruleError("pooling expects " + llvm::Twine(spatial + 1) + "-d or " +
                     llvm::Twine(spatial + 2) + "-d input, got " +
                     formatShape(self.shape));
  PT2IR_TRY(k0, a.symInts("kernel_size"));
  PT2IR_TRY(kernel, expandList(k0, spatial, "kernel_size"));
  PT2IR_TRY(s0, a.symInts("stride"));
  PT2IR_TRY(stride, expandList(s0, spatial, "stride", kernel));
  PT2IR_TRY(p0, a.symInts("padding"));
  PT2IR_TRY(padding, expandList(p0, spatial, "padding"));
  PT2IR_TRY(d0, a.symInts("dilation"));
  PT2IR_TRY(dilation, expandList(d0, spatial, "dilation"));
  PT2IR_TRY(ceilMode, a.boolArg("ceil_mode"));
  Shape shape(self.shape.begin(), self.shape.end() - spatial);
  size_t base = self.shape.size() - spatial;
  for (size_t i = 0; i < spatial; ++i) {
    PT2IR_TRY(o, pooledSize(self.shape[base + i], kernel[i], stride[i],
                            padding[i], dilation[i], ceilMode));
    shape.push_back(o);
  }
  TensorInfo values = freshLike(self, self.dtype(), shape);
  TensorInfo indices = freshLike(self, ScalarType::LONG, std::move(shape));
  return Results{ResultInfo::ofTensor(std::move(values)),
                 ResultInfo::ofTensor(std::move(indices))};
}

llvm::Expected<Results> avgPool(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  size_t spatial = n.getTarget().contains("3d") ? 3
                   : n.getTarget().contains("1d") ? 1
                                                  : 2;
  if (self.shape.size() != spatial + 1 && self.shape.size() != spatial + 2)
    return ruleError("pooling expects " + llvm::Twine(spatial + 1) + "-d or " +
                     llvm::Twine(spatial + 2) + "-d input, got " +
                     formatShape(self.shape));
  PT2IR_TRY(k0, a.symInts("kernel_size"));
  PT2IR_TRY(kernel, expandList(k0, spatial, "kernel_size"));
  PT2IR_TRY(s0, a.symInts("stride"));
  PT2IR_TRY(stride, expandList(s0, spatial, "stride", kernel));
  PT2IR_TRY(p0, a.symInts("padding"));
  PT2IR_TRY(padding, expandList(p0, spatial, "padding"));
  PT2IR_TRY(ceilMode, a.boolArg("ceil_mode"));
  Shape shape(self.shape.begin(), self.shape.end() - spatial);
  size_t base = self.shape.size() - spatial;
  for (size_t i = 0; i < spatial; ++i) {
    PT2IR_TRY(o, pooledSize(self.shape[base + i], kernel[i], stride[i],
                            padding[i], Dim(1), ceilMode));
    shape.push_back(o);
  }
  return one(freshLike(self, self.dtype(), std::move(shape)));
}

llvm::Expected<Results> adaptivePool(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  PT2IR_TRY(out, a.symInts("output_size"));
  if (out.size() > self.shape.size())
    return ruleError("output_size " + formatShape(out) + " for input " +
                     formatShape(self.shape));
  Shape shape(self.shape.begin(), self.shape.end() - out.size());
  shape.append(out.begin(), out.end());
  return one(freshLike(self, self.dtype(), std::move(shape)));
}

llvm::Expected<Results> gradLikeSelf(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(grad, a.tensor("grad_output"));
  PT2IR_TRY(self, a.tensor("self"));
  return one(freshLike({&grad, &self}, grad.dtype(), self.shape));
}

llvm::Expected<Results> upsample(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(input, a.tensor("input"));
  PT2IR_TRY(size, a.optSymInts("output_size"));
  if (input.rank() < 3)
    return ruleError("upsampling expects at least 3 dimensions, got " +
                     formatShape(input.shape));
  size_t spatial = input.shape.size() - 2;
  Shape shape(input.shape.begin(), input.shape.begin() + 2);
  if (size) {
    if (size->size() != spatial)
      return ruleError("output_size " + formatShape(*size) + " for " +
                       llvm::Twine(spatial) + " spatial dimensions");
    shape.append(size->begin(), size->end());
  } else {
    const Argument *sf = a.get("scale_factors");
    const std::vector<double> *scales = sf ? sf->getIfFloats() : nullptr;
    if (!scales || scales->size() != spatial)
      return ruleError("upsampling needs output_size or " +
                       llvm::Twine(spatial) + " scale_factors");
    for (size_t i = 0; i < spatial; ++i) {
      const Dim &in = input.shape[2 + i];
      if (!in.isStatic())
        return unsupported("scaling a symbolic size (" + in.str() + ")");
      shape.push_back(Dim(int64_t(std::floor(double(in.getValue()) * (*scales)[i]))));
    }
  }
  return one(freshLike(input, input.dtype(), std::move(shape)));
}

llvm::Expected<Results> col2im(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  PT2IR_TRY(out, a.symInts("output_size"));
  PT2IR_TRY(kernel, a.symInts("kernel_size"));
  if (self.rank() != 2 && self.rank() != 3)
    return ruleError("col2im expects a 2-d or 3-d input");
  size_t c = self.shape.size() == 3 ? 1 : 0;
  std::optional<Dim> ch = floorDiv(self.shape[c], product(kernel));
  if (!ch)
    return ruleError("a kernel of 0 elements");
  Shape shape;
  if (c)
    shape.push_back(self.shape[0]);
  shape.push_back(*ch);
  shape.append(out.begin(), out.end());
  return one(freshLike(self, self.dtype(), std::move(shape)));
}

llvm::Expected<Results> gridSampler(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(input, a.tensor("input"));
  PT2IR_TRY(grid, a.tensor("grid"));
  if (input.rank() != 4 || grid.rank() != 4)
    return ruleError("grid_sampler_2d expects 4-d input and grid");
  return one(freshLike({&input, &grid}, input.dtype(),
                       {input.shape[0], input.shape[1], grid.shape[1],
                        grid.shape[2]}));
}

llvm::Expected<Results> pad(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  llvm::StringRef name = a.get("pad") ? "pad" : "padding";
  PT2IR_TRY(pads, a.symInts(name));
  if (pads.size() % 2 != 0 || pads.size() / 2 > self.shape.size())
    return ruleError("padding of " + llvm::Twine(pads.size()) +
                     " values for a tensor of rank " + llvm::Twine(self.rank()));
  Shape shape = self.shape;
  // Pairs apply from the last dimension backwards.
  for (size_t i = 0; i < pads.size() / 2; ++i) {
    Dim &d = shape[shape.size() - 1 - i];
    d = d + pads[2 * i] + pads[2 * i + 1];
    if (d.isStatic() && d.getValue() < 0)
      return ruleError("padding makes dimension " +
                       llvm::Twine(shape.size() - 1 - i) + " negative");
  }
  return one(freshLike(self, self.dtype(), std::move(shape)));
}

} // namespace pt2ir::infer::detail
