//===- Indexing.cpp - Rules of indexing, scatter/gather and embedding -----===//
//
// index.Tensor (advanced indexing: the index tensors broadcast, and the
// result dimensions go where the indexed ones were when they are adjacent,
// else first; a bool mask yields a dimension of unknown size), the
// scatter-style ops (results like `self`), index_select, gather, embedding
// and its backward, _embedding_bag and nonzero (whose row count is bound at
// run time: unknown).
//
//===----------------------------------------------------------------------===//

#include "pt2ir/infer/RuleSupport.h"

namespace pt2ir::infer::detail {

llvm::Expected<Results> indexTensor(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  PT2IR_TRY(indices, a.optTensorList("indices"));
  // Expand bool masks into the dimensions they consume.
  std::vector<std::optional<Shape>> perDim; // nullopt: a full slice
  std::vector<Shape> indexShapes;
  size_t consumed = 0;
  for (const std::optional<TensorArg> &idx : indices) {
    if (!idx) {
      perDim.push_back(std::nullopt);
      ++consumed;
      continue;
    }
    ScalarType t = idx->dtype();
    if (t == ScalarType::BOOL || t == ScalarType::BYTE) {
      for (int64_t k = 0; k < idx->rank(); ++k)
        perDim.push_back(Shape{});
      if (idx->rank() > 0)
        perDim.back() = Shape{Dim::unknown()};
      indexShapes.push_back(Shape{Dim::unknown()});
      consumed += size_t(idx->rank());
      continue;
    }
    if (!isIntegralType(t, /*includeBool=*/false))
      return ruleError("indices must be integral or bool tensors");
    perDim.push_back(idx->shape);
    indexShapes.push_back(idx->shape);
    ++consumed;
  }
  if (consumed > self.shape.size())
    return ruleError("too many indices (" + llvm::Twine(consumed) +
                     ") for a tensor of rank " + llvm::Twine(self.rank()));
  PT2IR_TRY(bshape, broadcastShapes(indexShapes));
  // Which dims are indexed; are they adjacent?
  int first = -1, last = -1;
  bool adjacent = true;
  for (size_t i = 0; i < perDim.size(); ++i) {
    if (!perDim[i])
      continue;
    if (first < 0)
      first = int(i);
    else if (last != int(i) - 1)
      adjacent = false;
    last = int(i);
  }
  Shape shape;
  if (first < 0) {
    shape = self.shape;
  } else if (adjacent) {
    shape.append(self.shape.begin(), self.shape.begin() + first);
    shape.append(bshape.begin(), bshape.end());
    shape.append(self.shape.begin() + last + 1, self.shape.end());
  } else {
    shape = bshape;
    for (size_t i = 0; i < self.shape.size(); ++i)
      if (i >= perDim.size() || !perDim[i])
        shape.push_back(self.shape[i]);
  }
  return one(freshLike(self, self.dtype(), std::move(shape)));
}

llvm::Expected<Results> likeSelf(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  if (n.getTarget().contains("_.")) {
    PT2IR_TRY(t, sameAs(s, self));
    return one(std::move(t));
  }
  return one(freshLike(self, self.dtype(), self.shape));
}

llvm::Expected<Results> indexSelect(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  PT2IR_TRY(dim, a.intArg("dim"));
  PT2IR_TRY(index, a.tensor("index"));
  PT2IR_TRY(nd, normalizeDim(dim, self.rank()));
  if (index.rank() > 1)
    return ruleError("index_select expects a 0-d or 1-d index");
  Shape shape = self.shape;
  if (!shape.empty())
    shape[nd] = index.rank() == 0 ? Dim(1) : index.shape[0];
  return one(freshLike(self, self.dtype(), std::move(shape)));
}

llvm::Expected<Results> gather(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  PT2IR_TRY(index, a.tensor("index"));
  PT2IR_TRY(dim, a.intArg("dim"));
  PT2IR_TRY(nd, normalizeDim(dim, self.rank()));
  (void)nd;
  return one(freshLike(self, self.dtype(), index.shape));
}

llvm::Expected<Results> embedding(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(weight, a.tensor("weight"));
  PT2IR_TRY(indices, a.tensor("indices"));
  if (weight.rank() != 2)
    return ruleError("embedding weight must be 2-d, got " +
                     formatShape(weight.shape));
  if (!isIntegralType(indices.dtype(), false))
    return ruleError("embedding indices must be integral, got " +
                     scalarTypeName(indices.dtype()));
  Shape shape = indices.shape;
  shape.push_back(weight.shape[1]);
  TensorInfo t = freshLike(weight, weight.dtype(), std::move(shape));
  t.strides = contiguousStrides(t.shape);
  return one(std::move(t));
}

llvm::Expected<Results> embeddingBackward(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(grad, a.tensor("grad_output"));
  PT2IR_TRY(num, a.symInt("num_weights"));
  if (grad.rank() == 0)
    return ruleError("embedding gradient of rank 0");
  return one(freshLike(grad, grad.dtype(), {num, grad.shape.back()}));
}

llvm::Expected<Results> embeddingBag(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(weight, a.tensor("weight"));
  PT2IR_TRY(indices, a.tensor("indices"));
  PT2IR_TRY(offsets, a.tensor("offsets"));
  PT2IR_TRY(lastOffset, a.boolArg("include_last_offset"));
  PT2IR_TRY(mode, a.intArg("mode"));
  if (weight.rank() != 2 || offsets.rank() != 1)
    return ruleError("_embedding_bag expects a 2-d weight and 1-d offsets");
  Dim bags = lastOffset ? offsets.shape[0] - Dim(1) : offsets.shape[0];
  TensorInfo out = freshLike(weight, weight.dtype(), {bags, weight.shape[1]});
  ScalarType it = indices.dtype();
  Shape o2b = indices.shape;
  TensorInfo offset2bag = freshLike(indices, it, o2b);
  TensorInfo bagSize = freshLike(indices, it, {bags});
  TensorInfo maxIdx = freshLike(indices, it, mode == 2 ? Shape{bags, weight.shape[1]} : Shape{bags});
  Results r;
  for (TensorInfo *t : {&out, &offset2bag, &bagSize, &maxIdx})
    r.push_back(ResultInfo::ofTensor(std::move(*t)));
  // offset2bag and max_indices depend on the mode and the backend.
  r[1] = ResultInfo::unknown();
  r[3] = ResultInfo::unknown();
  return r;
}

llvm::Expected<Results> nonzero(InferenceSession &s, const Node &n) {
  Args a(s, n);
  PT2IR_TRY(self, a.tensor("self"));
  TensorInfo t = freshLike(self, ScalarType::LONG,
                           {Dim::unknown(), Dim(self.rank())});
  t.strides.reset();
  return one(std::move(t));
}

} // namespace pt2ir::infer::detail
