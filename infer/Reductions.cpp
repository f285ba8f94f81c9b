//===- Reductions.cpp - Rules of reductions, scans, softmax, sort ---------===//
//
// Reductions over `dim` (a list, a single int, or None/empty for all) with
// `keepdim`, and their dtype rules: sums and products of integral or bool
// inputs give int64 unless `dtype` says otherwise; any/all give bool; arg
// reductions and indices give int64; var/std of complex give the real
// dtype. Also cumsum, softmax, topk and sort, which keep or resize a
// dimension.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/infer/RuleSupport.h"

namespace pt2ir::infer::detail {

namespace {

ScalarType sumType(ScalarType t) {
  return isIntegralType(t, /*includeBool=*/true) ? ScalarType::LONG : t;
}

/// The reduced result over the `dim` argument (absent, None or empty: all).
llvm::Expected<Results> reduceOver(InferenceSession &s, const Node &n,
                                   ScalarType (*dtypeOf)(ScalarType),
                                   bool honourDtypeArg, bool emptyMeansAll) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  PT2IR_TRY(dims, a.optInts("dim"));
  PT2IR_TRY(keepdim, a.boolArg("keepdim"));
  std::vector<int64_t> d = dims ? *dims : std::vector<int64_t>{};
  PT2IR_TRY(shape, reducedShape(self.shape, d, keepdim, !dims || emptyMeansAll));
  ScalarType dtype = dtypeOf(self.dtype());
  if (honourDtypeArg)
    if (std::optional<ScalarType> t = a.scalarType("dtype"))
      dtype = *t;
  return one(freshLike(self, dtype, std::move(shape)));
}

llvm::Expected<Results> reduceAll(InferenceSession &s, const Node &n,
                                  ScalarType (*dtypeOf)(ScalarType),
                                  bool honourDtypeArg) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  ScalarType dtype = dtypeOf(self.dtype());
  if (honourDtypeArg)
    if (std::optional<ScalarType> t = a.scalarType("dtype"))
      dtype = *t;
  return one(freshLike(self, dtype, {}));
}

ScalarType same(ScalarType t) { return t; }
ScalarType boolOrByte(ScalarType t) {
  return t == ScalarType::BYTE ? t : ScalarType::BOOL;
}

/// The values and int64 indices of a reduction along one dimension.
Results valuesAndIndices(const TensorArg &self, Shape shape) {
  TensorInfo values = freshLike(self, self.dtype(), shape);
  TensorInfo indices = freshLike(self, ScalarType::LONG, std::move(shape));
  return {ResultInfo::ofTensor(std::move(values)),
          ResultInfo::ofTensor(std::move(indices))};
}

} // namespace

llvm::Expected<Results> sumDim(InferenceSession &s, const Node &n) {
  return reduceOver(s, n, sumType, true, true);
}

llvm::Expected<Results> sumAll(InferenceSession &s, const Node &n) {
  return reduceAll(s, n, sumType, true);
}

llvm::Expected<Results> meanDim(InferenceSession &s, const Node &n) {
  return reduceOver(s, n, same, true, true);
}

llvm::Expected<Results> meanAll(InferenceSession &s, const Node &n) {
  return reduceAll(s, n, same, true);
}

llvm::Expected<Results> amaxAmin(InferenceSession &s, const Node &n) {
  return reduceOver(s, n, same, false, true);
}

llvm::Expected<Results> anyAll(InferenceSession &s, const Node &n) {
  return reduceAll(s, n, boolOrByte, false);
}

llvm::Expected<Results> anyDim(InferenceSession &s, const Node &n) {
  return reduceOver(s, n, boolOrByte, false, true);
}

llvm::Expected<Results> argMinMax(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  PT2IR_TRY(dim, a.optInt("dim"));
  PT2IR_TRY(keepdim, a.boolArg("keepdim"));
  Shape shape;
  if (dim) {
    PT2IR_TRY(r, reducedShape(self.shape, {*dim}, keepdim));
    shape = std::move(r);
  } else if (keepdim) {
    shape.assign(self.shape.size(), Dim(1));
  }
  return one(freshLike(self, ScalarType::LONG, std::move(shape)));
}

llvm::Expected<Results> maxMinDim(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  PT2IR_TRY(dim, a.intArg("dim"));
  PT2IR_TRY(keepdim, a.boolArg("keepdim"));
  PT2IR_TRY(shape, reducedShape(self.shape, {dim}, keepdim));
  return valuesAndIndices(self, std::move(shape));
}

llvm::Expected<Results> maxMinAll(InferenceSession &s, const Node &n) {
  return reduceAll(s, n, same, false);
}

llvm::Expected<Results> prodAll(InferenceSession &s, const Node &n) {
  return reduceAll(s, n, sumType, true);
}

llvm::Expected<Results> prodDim(InferenceSession &s, const Node &n) {
  return reduceOver(s, n, sumType, true, true);
}

llvm::Expected<Results> varReduce(InferenceSession &s, const Node &n) {
  return reduceOver(s, n, toRealType, false, true);
}

llvm::Expected<Results> varMean(InferenceSession &s, const Node &n) {
  PT2IR_TRY(var, reduceOver(s, n, toRealType, false, true));
  PT2IR_TRY(mean, reduceOver(s, n, same, false, true));
  return Results{std::move(var.front()), std::move(mean.front())};
}

llvm::Expected<Results> cumsum(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  PT2IR_TRY(dim, a.intArg("dim"));
  PT2IR_TRY(nd, normalizeDim(dim, self.rank()));
  (void)nd;
  ScalarType dtype = a.scalarType("dtype").value_or(sumType(self.dtype()));
  return one(freshLike(self, dtype, self.shape));
}

llvm::Expected<Results> softmax(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  PT2IR_TRY(dim, a.intArg("dim"));
  PT2IR_TRY(nd, normalizeDim(dim, self.rank()));
  (void)nd;
  PT2IR_TRY(halfToFloat, a.boolArg("half_to_float"));
  ScalarType dtype = self.dtype();
  if (halfToFloat && dtype == ScalarType::HALF)
    dtype = ScalarType::FLOAT;
  return one(freshLike(self, dtype, self.shape));
}

llvm::Expected<Results> topk(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  PT2IR_TRY(k, a.symInt("k"));
  PT2IR_TRY(dim, a.intArg("dim"));
  PT2IR_TRY(nd, normalizeDim(dim, self.rank()));
  Shape shape = self.shape;
  if (!shape.empty()) {
    if (k.isStatic() && shape[nd].isStatic() &&
        k.getValue() > shape[nd].getValue())
      return ruleError("k (" + llvm::Twine(k.getValue()) +
                       ") is larger than dimension " + llvm::Twine(nd) +
                       " (" + llvm::Twine(shape[nd].getValue()) + ")");
    shape[nd] = k;
  }
  return valuesAndIndices(self, std::move(shape));
}

llvm::Expected<Results> sort(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  PT2IR_TRY(dim, a.intArg("dim"));
  PT2IR_TRY(nd, normalizeDim(dim, self.rank()));
  (void)nd;
  return valuesAndIndices(self, self.shape);
}

} // namespace pt2ir::infer::detail
