//===- Norms.cpp - Rules of layer, batch and group norm -------------------===//
//
// The multi-output normalizations: the result like the input, and the saved
// statistics shaped by the normalized dimensions (layer norm: the leading
// dimensions with ones for the normalized ones; batch norm: [C] in training,
// [0] otherwise; group norm: [N, group]) in the computation dtype (float for
// half inputs). The backward ops give gradients shaped like the forward
// inputs, None where `output_mask` says so.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/infer/RuleSupport.h"

namespace pt2ir::infer::detail {

namespace {

std::vector<bool> outputMask(const Args &a) {
  const Argument *m = a.get("output_mask");
  if (const std::vector<bool> *b = m ? m->getIfBools() : nullptr)
    return *b;
  return {true, true, true};
}

Results three(TensorInfo a, TensorInfo b, TensorInfo c) {
  Results r(3);
  for (ResultInfo &ri : r)
    ri.kind = ResultInfo::Kind::Tensor;
  r[0].tensor = std::move(a);
  r[1].tensor = std::move(b);
  r[2].tensor = std::move(c);
  return r;
}

} // namespace

llvm::Expected<Results> layerNorm(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(input, a.tensor("input"));
  PT2IR_TRY(normalized, a.symInts("normalized_shape"));
  if (normalized.size() > input.shape.size())
    return ruleError("normalized_shape " + formatShape(normalized) +
                     " has more dimensions than the input " +
                     formatShape(input.shape));
  size_t axis = input.shape.size() - normalized.size();
  for (size_t i = 0; i < normalized.size(); ++i) {
    const Dim &d = input.shape[axis + i];
    if (d.isStatic() && normalized[i].isStatic() &&
        d.getValue() != normalized[i].getValue())
      return ruleError("normalized_shape " + formatShape(normalized) +
                       " does not match the trailing input dimensions " +
                       formatShape(input.shape));
  }
  Shape stat(input.shape.begin(), input.shape.begin() + axis);
  stat.append(normalized.size(), Dim(1));
  ScalarType st = computationType(input.dtype());
  return three(freshLike(input, input.dtype(), input.shape),
               freshLike(input, st, stat), freshLike(input, st, stat));
}

llvm::Expected<Results> layerNormBackward(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(grad, a.tensor("grad_out"));
  PT2IR_TRY(input, a.tensor("input"));
  PT2IR_TRY(weight, a.optTensor("weight"));
  PT2IR_TRY(bias, a.optTensor("bias"));
  std::vector<bool> mask = outputMask(a);
  Results r(3);
  if (mask.size() > 0 && mask[0])
    r[0] = ResultInfo::ofTensor(freshLike({&grad, &input}, input.dtype(), input.shape));
  if (mask.size() > 1 && mask[1] && weight)
    r[1] = ResultInfo::ofTensor(freshLike(*weight, weight->dtype(), weight->shape));
  if (mask.size() > 2 && mask[2] && bias)
    r[2] = ResultInfo::ofTensor(freshLike(*bias, bias->dtype(), bias->shape));
  return r;
}

llvm::Expected<Results> batchNorm(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(input, a.tensor("input"));
  if (input.rank() < 2)
    return ruleError("batch norm expects at least 2 dimensions, got " +
                     formatShape(input.shape));
  // Eval mode: CPU kernels save [0], the others the running stats ([C]);
  // traces record either, so the size is left unknown.
  bool training = false;
  if (a.get("training")) {
    PT2IR_TRY(t, a.boolArg("training"));
    training = t;
  }
  bool cpu = input.device().type.empty() || input.device().type == "cpu";
  ScalarType st = computationType(input.dtype());
  Shape stat{training || !cpu ? input.shape[1] : Dim::unknown()};
  return three(freshLike(input, input.dtype(), input.shape),
               freshLike(input, st, stat), freshLike(input, st, stat));
}

llvm::Expected<Results> groupNorm(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(input, a.tensor("input"));
  PT2IR_TRY(batch, a.symInt("N"));
  PT2IR_TRY(group, a.intArg("group"));
  ScalarType st = computationType(input.dtype());
  Shape stat{batch, Dim(group)};
  return three(freshLike(input, input.dtype(), input.shape),
               freshLike(input, st, stat), freshLike(input, st, stat));
}

llvm::Expected<Results> groupNormBackward(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(grad, a.tensor("grad_out"));
  PT2IR_TRY(input, a.tensor("input"));
  PT2IR_TRY(channels, a.symInt("C"));
  std::vector<bool> mask = outputMask(a);
  Results r(3);
  if (mask.size() > 0 && mask[0])
    r[0] = ResultInfo::ofTensor(freshLike({&grad, &input}, input.dtype(), input.shape));
  for (size_t i = 1; i < 3; ++i)
    if (mask.size() > i && mask[i])
      r[i] = ResultInfo::ofTensor(freshLike(input, input.dtype(), {channels}));
  return r;
}

} // namespace pt2ir::infer::detail
