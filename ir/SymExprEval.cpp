//===- SymExprEval.cpp - Evaluate expressions with Python semantics -------===//
//
// Computes the concrete value of an expression from symbol bindings, the way
// Python evaluates the equivalent SymInt/SymFloat/SymBool code: ints stay
// 64-bit ints (overflow gives "no value" rather than a wrong one), `//` and
// `%` round toward negative infinity, true division gives a float, and
// comparisons give bools.
//
// Not handled (evaluate to nullopt): unknown functions, RoundDecimal,
// IsNonOverlappingAndDenseIndicator, `zoo`, and complex results.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/ir/SymbolicExpr.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>

namespace pt2ir::sym {
namespace {

using Value = EvalValue;
using Result = std::optional<EvalValue>;

bool isFloat(const Value &v) { return std::holds_alternative<double>(v); }

/// Python treats bools as the ints 0 and 1 in arithmetic.
int64_t asInt(const Value &v) {
  if (const bool *b = std::get_if<bool>(&v))
    return *b ? 1 : 0;
  return std::get<int64_t>(v);
}

double asDouble(const Value &v) {
  if (const double *d = std::get_if<double>(&v))
    return *d;
  return static_cast<double>(asInt(v));
}

/// A finite double that fits int64, truncated.
Result doubleToInt(double d) {
  if (!std::isfinite(d) || d < -9223372036854775808.0 ||
      d >= 9223372036854775808.0)
    return std::nullopt;
  return Value(static_cast<int64_t>(d));
}

/// A float result, or nothing when the operation produced NaN from non-NaN
/// inputs (Python raises ValueError there).
Result floatResult(double result, std::initializer_list<double> inputs) {
  if (std::isnan(result))
    for (double input : inputs)
      if (!std::isnan(input))
        return std::nullopt;
  return Value(result);
}

Result add(const Value &a, const Value &b) {
  if (isFloat(a) || isFloat(b))
    return Value(asDouble(a) + asDouble(b));
  int64_t out;
  if (__builtin_add_overflow(asInt(a), asInt(b), &out))
    return std::nullopt;
  return Value(out);
}

Result multiply(const Value &a, const Value &b) {
  if (isFloat(a) || isFloat(b))
    return Value(asDouble(a) * asDouble(b));
  int64_t out;
  if (__builtin_mul_overflow(asInt(a), asInt(b), &out))
    return std::nullopt;
  return Value(out);
}

Result negateValue(const Value &a) {
  if (isFloat(a))
    return Value(-asDouble(a));
  int64_t value = asInt(a);
  if (value == INT64_MIN)
    return std::nullopt;
  return Value(-value);
}

Result floorDivide(const Value &a, const Value &b) {
  if (isFloat(a) || isFloat(b)) {
    double x = asDouble(a), y = asDouble(b);
    if (y == 0)
      return std::nullopt;
    return floatResult(std::floor(x / y), {x, y});
  }
  int64_t x = asInt(a), y = asInt(b);
  if (y == 0 || (x == INT64_MIN && y == -1))
    return std::nullopt;
  int64_t quotient = x / y;
  if (x % y != 0 && ((x < 0) != (y < 0)))
    --quotient;
  return Value(quotient);
}

Result modulo(const Value &a, const Value &b) {
  if (isFloat(a) || isFloat(b)) {
    double x = asDouble(a), y = asDouble(b);
    if (y == 0)
      return std::nullopt;
    double r = std::fmod(x, y);
    if (r != 0 && ((r < 0) != (y < 0)))
      r += y;
    return floatResult(r, {x, y});
  }
  int64_t x = asInt(a), y = asInt(b);
  if (y == 0)
    return std::nullopt;
  if (y == -1)
    return Value(int64_t(0));
  int64_t r = x % y;
  if (r != 0 && ((r < 0) != (y < 0)))
    r += y;
  return Value(r);
}

Result trueDivide(const Value &a, const Value &b) {
  double x = asDouble(a), y = asDouble(b);
  if (y == 0)
    return std::nullopt;
  return Value(x / y);
}

/// Integer power with overflow checking; `exponent` >= 0.
Result intPower(int64_t base, int64_t exponent) {
  int64_t result = 1;
  while (exponent > 0) {
    if (exponent & 1)
      if (__builtin_mul_overflow(result, base, &result))
        return std::nullopt;
    exponent >>= 1;
    if (exponent > 0 && __builtin_mul_overflow(base, base, &base))
      return std::nullopt;
  }
  return Value(result);
}

Result power(const Value &a, const Value &b) {
  if (!isFloat(a) && !isFloat(b)) {
    int64_t base = asInt(a), exponent = asInt(b);
    if (exponent >= 0)
      return intPower(base, exponent);
    if (base == 0)
      return std::nullopt; // ZeroDivisionError
    return Value(
        std::pow(static_cast<double>(base), static_cast<double>(exponent)));
  }
  double x = asDouble(a), y = asDouble(b);
  if (x == 0 && y < 0)
    return std::nullopt;
  return floatResult(std::pow(x, y), {x, y});
}

/// Three-way comparison; nullopt when unordered (NaN).
std::optional<int> compare(const Value &a, const Value &b) {
  if (!isFloat(a) && !isFloat(b)) {
    int64_t x = asInt(a), y = asInt(b);
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  double x = asDouble(a), y = asDouble(b);
  if (std::isnan(x) || std::isnan(y))
    return std::nullopt;
  return x < y ? -1 : (x > y ? 1 : 0);
}

Result relational(ExprKind kind, const Value &a, const Value &b) {
  std::optional<int> order = compare(a, b);
  if (!order)
    return Value(kind == ExprKind::Ne);
  switch (kind) {
  case ExprKind::Eq:
    return Value(*order == 0);
  case ExprKind::Ne:
    return Value(*order != 0);
  case ExprKind::Lt:
    return Value(*order < 0);
  case ExprKind::Le:
    return Value(*order <= 0);
  case ExprKind::Gt:
    return Value(*order > 0);
  default:
    return Value(*order >= 0);
  }
}

/// Truth of a condition operand; floats are not conditions.
std::optional<bool> truth(const Value &v) {
  if (isFloat(v))
    return std::nullopt;
  return asInt(v) != 0;
}

/// Python's round(): nearest, ties to even.
double roundHalfEven(double x) {
  double lower = std::floor(x);
  double diff = x - lower;
  if (diff > 0.5)
    return lower + 1;
  if (diff < 0.5)
    return lower;
  return std::fmod(lower, 2.0) == 0 ? lower : lower + 1;
}

class Evaluator {
public:
  explicit Evaluator(SymbolLookup lookup) : lookup(lookup) {}

  Result eval(const Expr &e) {
    switch (e.kind()) {
    case ExprKind::Integer:
      return Value(e.integerValue());
    case ExprKind::Rational:
      return Value(static_cast<double>(e.numerator()) /
                   static_cast<double>(e.denominator()));
    case ExprKind::Float:
      return Value(e.floatValue());
    case ExprKind::Boolean:
      return Value(e.booleanValue());
    case ExprKind::Infinity:
      return Value(e.isNegativeInfinity() ? -HUGE_VAL : HUGE_VAL);
    case ExprKind::SpecialConstant:
      if (e.name() == "nan")
        return Value(std::nan(""));
      return std::nullopt;
    case ExprKind::Symbol:
      return lookup(e.name());
    case ExprKind::Add:
      return fold(e, add);
    case ExprKind::Mul:
      return fold(e, multiply);
    case ExprKind::Pow:
      return binary(e, power);
    case ExprKind::FloorDiv:
      return binary(e, floorDivide);
    case ExprKind::Mod:
      return binary(e, modulo);
    case ExprKind::Min:
    case ExprKind::Max:
      return extremum(e, e.kind() == ExprKind::Max);
    case ExprKind::Eq:
    case ExprKind::Ne:
    case ExprKind::Lt:
    case ExprKind::Le:
    case ExprKind::Gt:
    case ExprKind::Ge: {
      Result lhs = eval(e.operand(0));
      if (!lhs)
        return std::nullopt;
      Result rhs = eval(e.operand(1));
      if (!rhs)
        return std::nullopt;
      return relational(e.kind(), *lhs, *rhs);
    }
    case ExprKind::And:
    case ExprKind::Or:
      return logical(e, e.kind() == ExprKind::And);
    case ExprKind::Not: {
      Result operand = eval(e.operand(0));
      if (!operand)
        return std::nullopt;
      std::optional<bool> value = truth(*operand);
      if (!value)
        return std::nullopt;
      return Value(!*value);
    }
    case ExprKind::Call:
      return call(e);
    }
    return std::nullopt;
  }

private:
  template <typename Op> Result fold(const Expr &e, Op op) {
    Result acc;
    for (const Expr &operand : e.operands()) {
      Result value = eval(operand);
      if (!value)
        return std::nullopt;
      acc = acc ? op(*acc, *value) : value;
      if (!acc)
        return std::nullopt;
    }
    return acc;
  }

  template <typename Op> Result binary(const Expr &e, Op op) {
    if (e.numOperands() != 2)
      return std::nullopt;
    Result lhs = eval(e.operand(0));
    if (!lhs)
      return std::nullopt;
    Result rhs = eval(e.operand(1));
    if (!rhs)
      return std::nullopt;
    return op(*lhs, *rhs);
  }

  Result extremum(const Expr &e, bool isMax) {
    Result best;
    for (const Expr &operand : e.operands()) {
      Result value = eval(operand);
      if (!value)
        return std::nullopt;
      if (!best) {
        best = value;
        continue;
      }
      std::optional<int> order = compare(*value, *best);
      if (!order)
        return std::nullopt;
      if (isMax ? *order > 0 : *order < 0)
        best = value;
    }
    return best;
  }

  /// And/Or evaluate every operand (no short circuit past unbound symbols).
  Result logical(const Expr &e, bool isAnd) {
    bool result = isAnd;
    for (const Expr &operand : e.operands()) {
      Result value = eval(operand);
      if (!value)
        return std::nullopt;
      std::optional<bool> flag = truth(*value);
      if (!flag)
        return std::nullopt;
      result = isAnd ? (result && *flag) : (result || *flag);
    }
    return Value(result);
  }

  Result call(const Expr &e) {
    llvm::StringRef name = e.name();
    llvm::SmallVector<Value, 4> args;
    for (const Expr &operand : e.operands()) {
      Result value = eval(operand);
      if (!value)
        return std::nullopt;
      args.push_back(*value);
    }
    auto need = [&](size_t count) { return args.size() == count; };

    if ((name == "PythonMod" || name == "Mod") && need(2))
      return modulo(args[0], args[1]);
    if ((name == "CleanDiv" || name == "FloorDiv") && need(2))
      return floorDivide(args[0], args[1]);
    if (name == "CeilDiv" && need(2)) {
      Result negated = negateValue(args[0]);
      if (!negated)
        return std::nullopt;
      Result quotient = floorDivide(*negated, args[1]);
      return quotient ? negateValue(*quotient) : std::nullopt;
    }
    if (name == "ModularIndexing" && need(3)) {
      Result quotient = floorDivide(args[0], args[1]);
      return quotient ? modulo(*quotient, args[2]) : std::nullopt;
    }
    if (name == "Where" && need(3)) {
      std::optional<bool> condition = truth(args[0]);
      if (!condition)
        return std::nullopt;
      return *condition ? args[1] : args[2];
    }
    if ((name == "IntTrueDiv" || name == "FloatTrueDiv") && need(2))
      return trueDivide(args[0], args[1]);
    if (name == "PowByNatural" && need(2)) {
      if (isFloat(args[0]) || isFloat(args[1]) || asInt(args[1]) < 0)
        return std::nullopt;
      return intPower(asInt(args[0]), asInt(args[1]));
    }
    if (name == "FloatPow" && need(2)) {
      double x = asDouble(args[0]), y = asDouble(args[1]);
      if (x == 0 && y < 0)
        return std::nullopt;
      return floatResult(std::pow(x, y), {x, y});
    }
    if ((name == "LShift" || name == "RShift") && need(2))
      return shift(args[0], args[1], name == "LShift");
    if (name == "Identity" && need(1))
      return args[0];
    if (name == "ToFloat" && need(1))
      return Value(asDouble(args[0]));
    if (name == "TruncToFloat" && need(1))
      return Value(std::trunc(asDouble(args[0])));
    if (need(1)) {
      std::optional<double (*)(double)> rounding =
          llvm::StringSwitch<std::optional<double (*)(double)>>(name)
              .Cases("CeilToInt", "ceiling",
                     [](double x) { return std::ceil(x); })
              .Cases("FloorToInt", "floor",
                     [](double x) { return std::floor(x); })
              .Case("TruncToInt", [](double x) { return std::trunc(x); })
              .Case("RoundToInt", roundHalfEven)
              .Default(std::nullopt);
      if (rounding) {
        if (!isFloat(args[0]))
          return Value(asInt(args[0]));
        return doubleToInt((*rounding)(asDouble(args[0])));
      }
    }
    if (name == "Abs" && need(1)) {
      if (isFloat(args[0]))
        return Value(std::fabs(asDouble(args[0])));
      return asInt(args[0]) < 0 ? negateValue(args[0]) : Value(asInt(args[0]));
    }
    if (name == "sign" && need(1)) {
      double x = asDouble(args[0]);
      int64_t sign = x > 0 ? 1 : (x < 0 ? -1 : 0);
      return isFloat(args[0]) ? Value(static_cast<double>(sign)) : Value(sign);
    }
    if (name.starts_with("OpaqueUnaryFn_") && need(1))
      return opaqueUnary(name.drop_front(strlen("OpaqueUnaryFn_")),
                         asDouble(args[0]));
    if (name.starts_with("BitwiseFn_bitwise_") && need(2)) {
      if (isFloat(args[0]) || isFloat(args[1]))
        return std::nullopt;
      int64_t x = asInt(args[0]), y = asInt(args[1]);
      llvm::StringRef op = name.drop_front(strlen("BitwiseFn_bitwise_"));
      if (op == "and")
        return Value(x & y);
      if (op == "or")
        return Value(x | y);
      if (op == "xor")
        return Value(x ^ y);
    }
    return std::nullopt;
  }

  static Result shift(const Value &a, const Value &b, bool left) {
    if (isFloat(a) || isFloat(b) || asInt(b) < 0)
      return std::nullopt;
    int64_t amount = asInt(b), value = asInt(a);
    if (amount >= 63) {
      if (left)
        return value == 0 ? Result(Value(int64_t(0))) : std::nullopt;
      return Value(int64_t(value < 0 ? -1 : 0));
    }
    int64_t factor = int64_t(1) << amount;
    return left ? multiply(a, Value(factor)) : floorDivide(a, Value(factor));
  }

  static Result opaqueUnary(llvm::StringRef fn, double x) {
    double (*op)(double) =
        llvm::StringSwitch<double (*)(double)>(fn)
            .Case("sqrt", [](double v) { return std::sqrt(v); })
            .Case("exp", [](double v) { return std::exp(v); })
            .Case("log", [](double v) { return std::log(v); })
            .Case("log2", [](double v) { return std::log2(v); })
            .Case("sin", [](double v) { return std::sin(v); })
            .Case("cos", [](double v) { return std::cos(v); })
            .Case("tan", [](double v) { return std::tan(v); })
            .Case("asin", [](double v) { return std::asin(v); })
            .Case("acos", [](double v) { return std::acos(v); })
            .Case("atan", [](double v) { return std::atan(v); })
            .Case("sinh", [](double v) { return std::sinh(v); })
            .Case("cosh", [](double v) { return std::cosh(v); })
            .Case("tanh", [](double v) { return std::tanh(v); })
            .Case("asinh", [](double v) { return std::asinh(v); })
            .Default(nullptr);
    if (!op)
      return std::nullopt;
    return floatResult(op(x), {x});
  }

  SymbolLookup lookup;
};

} // namespace

std::optional<EvalValue> evaluate(const Expr &expr, SymbolLookup lookup) {
  if (expr.isNull())
    return std::nullopt;
  return Evaluator(lookup).eval(expr);
}

std::optional<EvalValue> evaluate(const Expr &expr,
                                 const llvm::StringMap<EvalValue> &bindings) {
  return evaluate(expr, [&](llvm::StringRef name) -> std::optional<EvalValue> {
    auto it = bindings.find(name);
    if (it == bindings.end())
      return std::nullopt;
    return it->second;
  });
}

std::optional<int64_t> evaluateInt(const Expr &expr,
                                   const llvm::StringMap<EvalValue> &bindings) {
  std::optional<EvalValue> value = evaluate(expr, bindings);
  if (!value || isFloat(*value))
    return std::nullopt;
  return asInt(*value);
}

std::optional<bool> evaluateBool(const Expr &expr,
                                 const llvm::StringMap<EvalValue> &bindings) {
  std::optional<EvalValue> value = evaluate(expr, bindings);
  if (!value)
    return std::nullopt;
  if (const bool *flag = std::get_if<bool>(&*value))
    return *flag;
  return std::nullopt;
}

} // namespace pt2ir::sym
