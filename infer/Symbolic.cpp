//===- Symbolic.cpp - Rules of SymInt-valued ops --------------------------===//
//
// sym_size, sym_stride, sym_numel and sym_storage_offset read a tensor's
// metadata; the `_operator` builtins and torch.sym_max/min compute on
// SymInts, simplified (`s0 * 2` -> `2*s0`). Comparisons and float results
// (SymBool, SymFloat) are not determined.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/infer/RuleSupport.h"

namespace pt2ir::infer::detail {

namespace {

llvm::Expected<int64_t> dimIndex(Args &a, const TensorArg &self) {
  PT2IR_TRY(dim, a.intArg("dim"));
  PT2IR_TRY(nd, normalizeDim(dim, self.rank()));
  if (self.rank() == 0)
    return ruleError("a 0-dim tensor has no dimension " + llvm::Twine(dim));
  return nd;
}

} // namespace

llvm::Expected<Results> symSize(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  PT2IR_TRY(nd, dimIndex(a, self));
  return Results{ResultInfo::ofSymInt(self.shape[nd])};
}

llvm::Expected<Results> symStride(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  PT2IR_TRY(nd, dimIndex(a, self));
  PT2IR_TRY(strides, s.stridesOf(*self.meta));
  if (size_t(nd) >= strides.size())
    return ruleError("the input records no stride " + llvm::Twine(nd));
  return Results{ResultInfo::ofSymInt(strides[nd])};
}

llvm::Expected<Results> symNumel(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  return Results{ResultInfo::ofSymInt(product(self.shape))};
}

llvm::Expected<Results> symStorageOffset(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  PT2IR_TRY(offset, s.dimOf(self.meta->storageOffset));
  return Results{ResultInfo::ofSymInt(offset)};
}

llvm::Expected<Results> symArith(InferenceSession &s, const Node &n) {
  Args a(s, n);
  llvm::SmallVector<Dim, 2> ops;
  for (size_t i = 0; i < n.getInputs().size(); ++i) {
    const Argument *arg = a.at(i);
    if (arg->getKind() != ArgKind::Int && arg->getKind() != ArgKind::SymInt)
      return Results{ResultInfo::unknown()};
    PT2IR_TRY(d, a.symIntOf(*arg, "operand"));
    ops.push_back(d);
  }
  llvm::StringRef op = n.getTarget();
  op = op.substr(op.rfind('.') + 1);
  if (op == "neg") {
    if (ops.size() != 1)
      return ruleError("neg takes one operand");
    return Results{ResultInfo::ofSymInt(Dim(0) - ops[0])};
  }
  if (ops.size() != 2)
    return ruleError(op + " takes two operands, got " + llvm::Twine(ops.size()));
  std::optional<Dim> r;
  if (op == "add")
    r = ops[0] + ops[1];
  else if (op == "sub")
    r = ops[0] - ops[1];
  else if (op == "mul")
    r = ops[0] * ops[1];
  else if (op == "floordiv")
    r = floorDiv(ops[0], ops[1]);
  else if (op == "mod")
    r = mod(ops[0], ops[1]);
  else if (op == "sym_max")
    r = maxDim(ops[0], ops[1]);
  else if (op == "sym_min")
    r = minDim(ops[0], ops[1]);
  if (!r)
    return ruleError("division by zero");
  return Results{ResultInfo::ofSymInt(*r)};
}

llvm::Expected<Results> symUnknown(InferenceSession &, const Node &) {
  return Results{ResultInfo::unknown()};
}

} // namespace pt2ir::infer::detail
