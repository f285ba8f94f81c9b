//===- TensorMeta.h - Symbolic values and tensor metadata --------*- C++ -*-===//
//
// The schema's SymExpr / SymInt / SymBool / SymFloat unions and TensorMeta.
// Expressions are kept as their original `expr_str` text; ir/SymbolicExpr.h
// parses them on demand.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_IR_TENSORMETA_H
#define PT2IR_IR_TENSORMETA_H

#include "pt2ir/ir/ExtraFields.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <vector>

namespace pt2ir {

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
struct TensorMeta {
  int64_t dtype = 7;
  std::vector<SymValue> sizes;
  bool requiresGrad = false;
  Device device;
  std::vector<SymValue> strides;
  SymValue storageOffset;
  int64_t layout = 7;
  ExtraFields extras;
};

} // namespace pt2ir

#endif
