//===- TensorMeta.h - Symbolic values and tensor metadata --------*- C++ -*-===//
//
// The schema's SymExpr / SymInt / SymBool / SymFloat unions and TensorMeta.
// Expressions are kept as their original `expr_str` text; ir/SymbolicExpr.h
// parses them on demand.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_IR_TENSORMETA_H
#define PT2IR_IR_TENSORMETA_H

#include "pt2ir/ir/Enums.h"
#include "pt2ir/ir/ExtraFields.h"
#include "pt2ir/ir/SymbolicExpr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <vector>

namespace pt2ir {

class IRContext;

/// SymExprHint: the concrete value seen at export time.
struct SymExprHint {
  enum class Kind : uint8_t { Int, Bool, Float };
  Kind kind = Kind::Int;
  int64_t intValue = 0;
  bool boolValue = false;
  double floatValue = 0;
};

/// SymExpr: a sympy expression string and an optional hint.
struct SymExpr {
  llvm::StringRef exprStr;
  std::optional<SymExprHint> hint;
  ExtraFields extras;
};

/// The SymInt / SymBool / SymFloat unions: an expression or a constant.
struct SymValue {
  enum class Kind : uint8_t { Expr, Int, Bool, Float };
  Kind kind = Kind::Int;
  SymExpr expr;
  int64_t intValue = 0;
  bool boolValue = false;
  double floatValue = 0;

  static SymValue ofInt(int64_t v) {
    SymValue s;
    s.kind = Kind::Int;
    s.intValue = v;
    return s;
  }
  static SymValue ofExpr(llvm::StringRef exprStr) {
    SymValue s;
    s.kind = Kind::Expr;
    s.expr.exprStr = exprStr;
    return s;
  }
  bool isExpr() const { return kind == Kind::Expr; }

  /// The value as an expression: an integer constant, or `expr_str`
  /// parsed. Bool and float constants are refused (they are no sizes).
  llvm::Expected<sym::Expr> toExpr() const;
  /// The constant, when this is an int (or an expression that is one).
  std::optional<int64_t> getStaticInt() const;
};

/// Device: a torch device type string and an optional index.
struct Device {
  llvm::StringRef type;
  std::optional<int64_t> index;
  ExtraFields extras;
  bool operator==(const Device &o) const {
    return type == o.type && index == o.index;
  }
};

/// TensorMeta: dtype, sizes, strides, storage offset, device and layout.
/// The reader accepts only the `dtype` and `layout` values ir/Enums.h names.
struct TensorMeta {
  ScalarType dtype = ScalarType::FLOAT;
  std::vector<SymValue> sizes;
  bool requiresGrad = false;
  Device device;
  std::vector<SymValue> strides;
  SymValue storageOffset;
  Layout layout = Layout::Strided;
  ExtraFields extras;

  /// The number of dimensions.
  size_t rank() const { return sizes.size(); }
  /// The sizes as expressions: integer constants for static dimensions,
  /// parsed expressions for symbolic ones. Fails on an expression that does
  /// not parse.
  llvm::Expected<std::vector<sym::Expr>> getShape() const;
  /// The sizes as integers, or nullopt when any of them is symbolic.
  std::optional<std::vector<int64_t>> getStaticShape() const;
  /// The number of elements, when the shape is static.
  std::optional<int64_t> getStaticNumel() const;

  /// Metadata of a freshly allocated tensor of `shape`: contiguous strides,
  /// zero storage offset, on `device` (default cpu). Symbolic sizes and
  /// strides are written in the plain form, interned in `ctx`.
  static TensorMeta contiguous(IRContext &ctx, ScalarType dtype,
                               llvm::ArrayRef<sym::Expr> shape,
                               Device device = {});
  static TensorMeta contiguous(IRContext &ctx, ScalarType dtype,
                               llvm::ArrayRef<int64_t> shape,
                               Device device = {});
};

} // namespace pt2ir

#endif
