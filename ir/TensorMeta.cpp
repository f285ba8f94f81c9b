//===- TensorMeta.cpp - Shapes of tensor metadata -------------------------===//

#include "pt2ir/ir/TensorMeta.h"
#include "pt2ir/ir/IRContext.h"

namespace pt2ir {

llvm::Expected<sym::Expr> SymValue::toExpr() const {
  switch (kind) {
  case Kind::Int:
    return sym::makeInteger(intValue);
  case Kind::Expr:
    return sym::parseSymExpr(expr.exprStr);
  case Kind::Bool:
  case Kind::Float:
    break;
  }
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "a %s constant is not an integer size",
                                 kind == Kind::Bool ? "bool" : "float");
}

std::optional<int64_t> SymValue::getStaticInt() const {
  if (kind == Kind::Int)
    return intValue;
  if (kind != Kind::Expr)
    return std::nullopt;
  auto parsed = sym::parseSymExpr(expr.exprStr);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return std::nullopt;
  }
  return sym::asInteger(*parsed);
}

llvm::Expected<std::vector<sym::Expr>> TensorMeta::getShape() const {
  std::vector<sym::Expr> shape;
  shape.reserve(sizes.size());
  for (size_t i = 0; i < sizes.size(); ++i) {
    auto dim = sizes[i].toExpr();
    if (!dim)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "size %zu: %s", i,
                                     llvm::toString(dim.takeError()).c_str());
    shape.push_back(std::move(*dim));
  }
  return shape;
}

std::optional<std::vector<int64_t>> TensorMeta::getStaticShape() const {
  std::vector<int64_t> shape;
  shape.reserve(sizes.size());
  for (const SymValue &size : sizes) {
    std::optional<int64_t> dim = size.getStaticInt();
    if (!dim)
      return std::nullopt;
    shape.push_back(*dim);
  }
  return shape;
}

std::optional<int64_t> TensorMeta::getStaticNumel() const {
  std::optional<std::vector<int64_t>> shape = getStaticShape();
  if (!shape)
    return std::nullopt;
  int64_t numel = 1;
  for (int64_t dim : *shape)
    if (__builtin_mul_overflow(numel, dim, &numel))
      return std::nullopt;
  return numel;
}

/// A size or stride as stored: an int when constant, else the plain text.
static SymValue symValueOf(IRContext &ctx, const sym::Expr &e) {
  if (std::optional<int64_t> v = sym::asInteger(e))
    return SymValue::ofInt(*v);
  return SymValue::ofExpr(ctx.intern(sym::toString(e, sym::Form::Plain)));
}

/// `a * b`, with constants folded and ones dropped; the constant factor
/// first, as sympy prints it (`4*s1`). Nested products are flattened.
static sym::Expr multiply(const sym::Expr &a, const sym::Expr &b) {
  std::optional<int64_t> ia = sym::asInteger(a), ib = sym::asInteger(b);
  int64_t folded;
  if (ia && ib && !__builtin_mul_overflow(*ia, *ib, &folded))
    return sym::makeInteger(folded);
  if (ia && *ia == 1)
    return b;
  if (ib && *ib == 1)
    return a;
  int64_t constant = 1;
  std::vector<sym::Expr> factors;
  for (const sym::Expr &e : {a, b}) {
    llvm::ArrayRef<sym::Expr> parts(&e, 1);
    if (e.kind() == sym::ExprKind::Mul)
      parts = e.operands();
    for (const sym::Expr &part : parts) {
      std::optional<int64_t> c = sym::asInteger(part);
      if (c && !__builtin_mul_overflow(constant, *c, &folded)) {
        constant = folded;
        continue;
      }
      factors.push_back(part);
    }
  }
  if (constant != 1)
    factors.insert(factors.begin(), sym::makeInteger(constant));
  return factors.size() == 1 ? factors.front() : sym::makeMul(factors);
}

TensorMeta TensorMeta::contiguous(IRContext &ctx, ScalarType dtype,
                                  llvm::ArrayRef<sym::Expr> shape, Device device) {
  TensorMeta meta;
  meta.dtype = dtype;
  meta.device = std::move(device);
  if (meta.device.type.empty())
    meta.device.type = ctx.intern("cpu");
  meta.storageOffset = SymValue::ofInt(0);
  meta.sizes.reserve(shape.size());
  for (const sym::Expr &dim : shape)
    meta.sizes.push_back(symValueOf(ctx, dim));
  // Row-major: each stride is the product of the sizes after it.
  std::vector<SymValue> strides(shape.size());
  sym::Expr running = sym::makeInteger(1);
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = symValueOf(ctx, running);
    running = multiply(shape[i], running);
  }
  meta.strides = std::move(strides);
  return meta;
}

TensorMeta TensorMeta::contiguous(IRContext &ctx, ScalarType dtype,
                                  llvm::ArrayRef<int64_t> shape, Device device) {
  std::vector<sym::Expr> dims;
  dims.reserve(shape.size());
  for (int64_t d : shape)
    dims.push_back(sym::makeInteger(d));
  return contiguous(ctx, dtype, dims, std::move(device));
}

} // namespace pt2ir
