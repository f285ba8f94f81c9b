//===- Dim.h - Sizes and strides for shape inference -------------*- C++ -*-===//
//
// A Dim is one size or stride as shape inference computes it: an integer, or
// a symbolic expression (ir/SymbolicExpr.h) kept in a simplified normal
// form. Static dimensions never allocate; arithmetic on them folds at once.
// Symbolic arithmetic goes through a polynomial normal form (sums of integer
// multiples of products of atoms, an atom being a symbol or a FloorDiv, Mod,
// Min, Max or other call that does not reduce), so `s0 + s0` is `2*s0`,
// `(2*s0)//2` is `s0` and `s0*s1 - s1*s0` is `0`.
//
// Comparison (`compareDims`) decides equality of two dimensions under the
// range constraints of the program: equal normal forms are equal, a non-zero
// constant difference is unequal, and a difference whose interval over the
// symbols' ranges excludes zero is unequal; anything else is undecided.
//
// This file deliberately does not know operators or metadata tables.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_INFER_DIM_H
#define PT2IR_INFER_DIM_H

#include "pt2ir/ir/SymbolicExpr.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace pt2ir::infer {

/// One size or stride: a constant, or a simplified symbolic expression.
class Dim {
public:
  Dim(int64_t v = 0) : value(v) {}
  /// A symbolic dimension; simplified, and a constant when it folds to one.
  static Dim symbolic(const sym::Expr &expr);
  /// A dimension the rule cannot know (the size of `nonzero`'s result, bound
  /// by a fresh unbacked symbol at run time). Arithmetic with it stays
  /// unknown; comparison with it is Unknown.
  static Dim unknown() {
    Dim d;
    d.unknownDim = true;
    return d;
  }

  bool isUnknown() const { return unknownDim; }
  bool isStatic() const { return !expr && !unknownDim; }
  /// The constant of a static dimension.
  int64_t getValue() const { return value; }
  std::optional<int64_t> getStatic() const {
    return isStatic() ? std::optional<int64_t>(value) : std::nullopt;
  }
  /// The dimension as an expression (an Integer node when static).
  sym::Expr toExpr() const;
  /// The stored expression of a symbolic dimension (null when static or
  /// unknown); unlike toExpr, no copy.
  const sym::Expr &getExpr() const { return expr; }
  /// The plain text (`s0 + 1`, `4`).
  std::string str() const;

  bool isStaticValue(int64_t v) const { return isStatic() && value == v; }

private:
  int64_t value = 0;
  sym::Expr expr;
  bool unknownDim = false;
};

using Shape = llvm::SmallVector<Dim, 6>;

/// Simplifies `expr` to the normal form (see the file comment). Expressions
/// outside integer arithmetic (floats, relations) are returned unchanged.
sym::Expr simplify(const sym::Expr &expr);

Dim operator+(const Dim &a, const Dim &b);
Dim operator-(const Dim &a, const Dim &b);
Dim operator*(const Dim &a, const Dim &b);
/// Python floor division and modulus; a zero constant divisor gives a null
/// result (nullopt).
std::optional<Dim> floorDiv(const Dim &a, const Dim &b);
std::optional<Dim> mod(const Dim &a, const Dim &b);
/// `(a + b - 1) // b`.
std::optional<Dim> ceilDiv(const Dim &a, const Dim &b);
Dim maxDim(const Dim &a, const Dim &b);
Dim minDim(const Dim &a, const Dim &b);

/// The product of `dims` (1 for none).
Dim product(llvm::ArrayRef<Dim> dims);
/// Row-major strides of `shape`.
Shape contiguousStrides(llvm::ArrayRef<Dim> shape);

/// The outcome of comparing two dimensions.
enum class Equality : uint8_t { Equal, Unequal, Unknown };

/// The range [lo, hi] of a symbol, or nullopt when nothing is known about it.
using SymbolRange = std::optional<std::pair<double, double>>;
using RangeLookup = llvm::function_ref<SymbolRange(llvm::StringRef symbol)>;

/// Decides `a == b` under the ranges `lookup` gives (see the file comment).
Equality compareDims(const Dim &a, const Dim &b, RangeLookup lookup);
/// `compareDims` with no range knowledge.
Equality compareDims(const Dim &a, const Dim &b);

/// Prints `[2, s0 + 1]`.
std::string formatShape(llvm::ArrayRef<Dim> shape);

} // namespace pt2ir::infer

#endif
