//===- SymExprPrinter.cpp - Print expressions as sympy str()/srepr() ------===//
//
// Writes an expression tree back in either `expr_str` form, following the
// conventions of sympy's StrPrinter (operator precedences, signs pulled out
// of sums and products, `a/b` for negative powers, `sqrt`) plus torch's own
// printing rules for its functions (`(a//b)` for FloorDiv, the `precedence`
// attributes of Mod, PythonMod, IntTrueDiv, ...), and of sympy's ReprPrinter.
//
// Operand order is never changed: a tree parsed from sympy output prints back
// as that output. Terms are not sorted the way sympy sorts freshly built
// expressions.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/ir/SymbolicExpr.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <cstdio>

namespace pt2ir::sym {
namespace {

// sympy.printing.precedence.PRECEDENCE.
constexpr double kPrecOr = 20;
constexpr double kPrecAnd = 30;
constexpr double kPrecRelational = 35;
constexpr double kPrecBitwiseOr = 36;
constexpr double kPrecBitwiseAnd = 38;
constexpr double kPrecAdd = 40;
constexpr double kPrecMul = 50;
constexpr double kPrecPow = 60;
constexpr double kPrecFunc = 70;
constexpr double kPrecNot = 100;
constexpr double kPrecAtom = 1000;
/// torch's FloorDiv parenthesizes every operand that is not an atom.
constexpr double kPrecBelowAtom = kPrecAtom - 0.5;

//===----------------------------------------------------------------------===//
// Floats, formatted like mpmath's to_str
//===----------------------------------------------------------------------===//

/// Decimal digits sympy's str() shows for a binary precision.
int strDigits(unsigned precision) {
  int dps = static_cast<int>(std::lround(precision / 3.3219280948873626)) - 1;
  return std::max(1, dps);
}

/// Decimal digits sympy's srepr() shows for a binary precision.
int reprDigits(unsigned precision) {
  int dps = strDigits(precision);
  return dps == 15 ? 17 : dps + 3;
}

/// `value` with `dps` significant digits: fixed notation for decimal
/// exponents in (min(-dps/3, -5), dps), scientific otherwise; trailing zeros
/// stripped when `stripZeros`.
std::string formatFloat(double value, int dps, bool stripZeros) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value > 0 ? "+inf" : "-inf";
  if (value == 0)
    return "0.0";
  std::string sign = value < 0 ? "-" : "";
  dps = std::min(dps, 40);
  char buffer[96];
  std::snprintf(buffer, sizeof(buffer), "%.*e", dps - 1, std::fabs(value));
  llvm::StringRef formatted(buffer);
  auto [mantissa, exponentText] = formatted.split('e');
  int exponent = 0;
  exponentText.consume_front("+");
  exponentText.getAsInteger(10, exponent);
  std::string digits;
  for (char c : mantissa)
    if (c != '.')
      digits.push_back(c);
  if (stripZeros) {
    while (digits.size() > 1 && digits.back() == '0')
      digits.pop_back();
  }
  int minFixed = std::min(-(dps / 3), -5);
  if (minFixed < exponent && exponent < dps) {
    std::string out = sign;
    if (exponent < 0) {
      out += "0." + std::string(-exponent - 1, '0') + digits;
      return out;
    }
    size_t intDigits = static_cast<size_t>(exponent) + 1;
    if (digits.size() < intDigits)
      digits.append(intDigits - digits.size(), '0');
    out += digits.substr(0, intDigits) + "." + digits.substr(intDigits);
    if (stripZeros && out.back() == '.')
      out += "0";
    return out;
  }
  std::string fraction = digits.substr(1);
  if (fraction.empty())
    fraction = "0";
  return sign + digits.substr(0, 1) + "." + fraction + "e" +
         (exponent > 0 ? "+" : "") + std::to_string(exponent);
}

/// sympy's str() shows all digits of a top-level Float and strips trailing
/// zeros from nested ones (`full_prec="auto"`).
std::string plainFloat(const Expr &e, bool nested) {
  if (!e.floatSpelling().empty() && e.floatSpellingForm() == Form::Plain)
    return e.floatSpelling().str();
  // Keep the text parseable: mpmath's "+inf" is not an expression.
  if (std::isinf(e.floatValue()))
    return e.floatValue() > 0 ? "oo" : "-oo";
  return formatFloat(e.floatValue(), strDigits(e.floatPrecision()), nested);
}

std::string sreprFloat(const Expr &e) {
  std::string digits =
      !e.floatSpelling().empty() && e.floatSpellingForm() == Form::Srepr
          ? e.floatSpelling().str()
          : formatFloat(e.floatValue(), reprDigits(e.floatPrecision()), true);
  return "Float('" + digits +
         "', precision=" + std::to_string(e.floatPrecision()) + ")";
}

//===----------------------------------------------------------------------===//
// Numeric coefficients of products
//===----------------------------------------------------------------------===//

bool isNumber(const Expr &e) {
  return e.kind() == ExprKind::Integer || e.kind() == ExprKind::Rational ||
         e.kind() == ExprKind::Float;
}

bool isNegativeNumber(const Expr &e) {
  switch (e.kind()) {
  case ExprKind::Integer:
    return e.integerValue() < 0;
  case ExprKind::Rational:
    return e.numerator() < 0;
  case ExprKind::Float:
    return e.floatValue() < 0;
  default:
    return false;
  }
}

bool isIntegerValue(const Expr &e, int64_t value) {
  return e.kind() == ExprKind::Integer && e.integerValue() == value;
}

/// True when `1/base` would not parse back: the parser refuses a division by
/// an exact zero, alone or as a factor of a product. What the printed base
/// reads back as counts: products nested in products are flattened, and a
/// one-operand And/Or prints as its bare operand. Such powers are printed as
/// `base**(-1)` instead.
bool isZeroDivisor(const Expr &base) {
  llvm::SmallVector<const Expr *, 8> work{&base};
  while (!work.empty()) {
    const Expr *e = work.pop_back_val();
    if (isIntegerValue(*e, 0))
      return true;
    bool transparent = (e->kind() == ExprKind::And ||
                        e->kind() == ExprKind::Or) &&
                       e->numOperands() == 1;
    if (e->kind() == ExprKind::Mul || transparent)
      for (const Expr &factor : e->operands())
        work.push_back(&factor);
  }
  return false;
}

/// True when the printed base reads back as an exact number: an Integer or
/// Rational, or a product of them (the parser folds numeric factors into
/// one), seen through one-operand And/Or, which print bare.
bool readsAsExactNumber(const Expr &base) {
  llvm::SmallVector<const Expr *, 8> work{&base};
  while (!work.empty()) {
    const Expr *e = work.pop_back_val();
    if (e->kind() == ExprKind::Integer || e->kind() == ExprKind::Rational)
      continue;
    bool transparent =
        (e->kind() == ExprKind::And || e->kind() == ExprKind::Or) &&
        e->numOperands() == 1;
    if ((e->kind() != ExprKind::Mul && !transparent) || e->numOperands() == 0)
      return false;
    for (const Expr &operand : e->operands())
      work.push_back(&operand);
  }
  return true;
}

/// True when a power of `base` with a negative exponent must keep the `**`
/// form: `1/base` either does not parse back (a zero divisor) or reads back
/// as a number, since the parser inverts exact numbers (`1/(-1)` is -1, not
/// `(-1)**(-1)`). Such a folded number changes how an enclosing power
/// prints, so a right-nested chain like `s0**(-1)**(-1)**(-1)` would lose
/// one level per print/parse round and never settle.
bool keepsPowerForm(const Expr &base) {
  return isZeroDivisor(base) || readsAsExactNumber(base);
}

/// The leading numeric factors of a product folded into one number (the way
/// sympy stores `Mul(Integer(-1), Integer(2), x)` as coefficient -2), and
/// how many operands it covers. Null coefficient when there are none.
struct Coefficient {
  Expr value;
  size_t count = 0;
};

Expr multiplyNumbers(const Expr &a, const Expr &b) {
  if (a.kind() == ExprKind::Float || b.kind() == ExprKind::Float) {
    auto asDouble = [](const Expr &e) {
      switch (e.kind()) {
      case ExprKind::Integer:
        return static_cast<double>(e.integerValue());
      case ExprKind::Rational:
        return static_cast<double>(e.numerator()) /
               static_cast<double>(e.denominator());
      default:
        return e.floatValue();
      }
    };
    unsigned precision =
        a.kind() == ExprKind::Float ? a.floatPrecision() : b.floatPrecision();
    return makeFloat(asDouble(a) * asDouble(b), precision);
  }
  auto fraction = [](const Expr &e) -> std::pair<int64_t, int64_t> {
    if (e.kind() == ExprKind::Integer)
      return {e.integerValue(), 1};
    return {e.numerator(), e.denominator()};
  };
  auto [p1, q1] = fraction(a);
  auto [p2, q2] = fraction(b);
  int64_t p, q;
  if (__builtin_mul_overflow(p1, p2, &p) || __builtin_mul_overflow(q1, q2, &q))
    return Expr();
  return makeRational(p, q);
}

/// srepr splits a negative coefficient c into `-1, |c|`; sympy's own product
/// has the single coefficient c. Folds that pair back, and otherwise takes
/// a leading number as it is.
Coefficient leadingCoefficient(const Expr &mul) {
  Coefficient result;
  llvm::ArrayRef<Expr> factors = mul.operands();
  if (factors.empty() || !isNumber(factors[0]))
    return result;
  result.value = factors[0];
  result.count = 1;
  if (isIntegerValue(factors[0], -1) && factors.size() > 1 &&
      isNumber(factors[1]) && !isNegativeNumber(factors[1])) {
    Expr product = multiplyNumbers(factors[0], factors[1]);
    if (!product.isNull()) {
      result.value = product;
      result.count = 2;
    }
  }
  return result;
}

/// -e for a number, keeping a Float's spelling; null when not representable.
Expr negateNumber(const Expr &e) {
  switch (e.kind()) {
  case ExprKind::Integer:
    return e.integerValue() == INT64_MIN ? Expr()
                                         : makeInteger(-e.integerValue());
  case ExprKind::Rational:
    return makeRational(-e.numerator(), e.denominator());
  case ExprKind::Float: {
    llvm::StringRef spelling = e.floatSpelling();
    std::string flipped;
    if (!spelling.empty())
      flipped = spelling.starts_with("-") ? spelling.drop_front().str()
                                          : "-" + spelling.str();
    return makeFloat(-e.floatValue(), e.floatPrecision(), flipped,
                     e.floatSpellingForm());
  }
  default:
    return Expr();
  }
}

/// sympy's `could_extract_minus_sign` for the shapes we print.
bool hasMinusSign(const Expr &e) {
  if (isNumber(e))
    return isNegativeNumber(e);
  if (e.kind() == ExprKind::Mul) {
    Coefficient c = leadingCoefficient(e);
    return c.count != 0 && isNegativeNumber(c.value);
  }
  return false;
}

/// `-exponent` when a Pow's exponent has a negative coefficient (which puts
/// the Pow in a denominator), else null.
Expr negatedExponent(const Expr &exponent) {
  if (isNumber(exponent))
    return isNegativeNumber(exponent) ? negateNumber(exponent) : Expr();
  if (exponent.kind() != ExprKind::Mul || !hasMinusSign(exponent))
    return Expr();
  Coefficient c = leadingCoefficient(exponent);
  Expr magnitude = negateNumber(c.value);
  if (magnitude.isNull())
    return Expr();
  llvm::SmallVector<Expr, 4> factors;
  if (!isIntegerValue(magnitude, 1))
    factors.push_back(magnitude);
  factors.append(exponent.operands().begin() + c.count,
                 exponent.operands().end());
  return makeMul(factors);
}

//===----------------------------------------------------------------------===//
// Plain (sympy str) printer
//===----------------------------------------------------------------------===//

/// `precedence` of torch's sympy functions; sympy's default for others.
double callPrecedence(llvm::StringRef name) {
  return llvm::StringSwitch<double>(name)
      .Cases("ModularIndexing", "Where", "PythonMod", "CleanDiv",
             "FloatTrueDiv", "IntTrueDiv", kPrecRelational)
      .Case("PowByNatural", kPrecMul)
      .Case("FloatPow", kPrecPow)
      .Case("Identity", 10)
      .Default(kPrecFunc);
}

double precedenceOf(const Expr &e) {
  switch (e.kind()) {
  case ExprKind::Integer:
  case ExprKind::Float:
    return isNegativeNumber(e) ? kPrecAdd : kPrecAtom;
  case ExprKind::Rational:
    return isNegativeNumber(e) ? kPrecAdd : kPrecMul;
  case ExprKind::Infinity:
    // sympy ranks -oo like a sum; torch's -int_oo is a plain atom.
    return e.isNegativeInfinity() && !e.isIntegerInfinity() ? kPrecAdd
                                                            : kPrecAtom;
  case ExprKind::Boolean:
  case ExprKind::SpecialConstant:
  case ExprKind::Symbol:
  case ExprKind::Min:
  case ExprKind::Max:
    return kPrecAtom;
  case ExprKind::Add:
    return kPrecAdd;
  case ExprKind::Mul:
    return hasMinusSign(e) ? kPrecAdd : kPrecMul;
  case ExprKind::Pow:
    return kPrecPow;
  case ExprKind::FloorDiv:
  case ExprKind::Mod:
    return kPrecRelational; // torch sets `precedence = 35` on both.
  case ExprKind::Eq:
  case ExprKind::Ne:
    return kPrecMul;
  case ExprKind::Lt:
  case ExprKind::Le:
  case ExprKind::Gt:
  case ExprKind::Ge:
    return kPrecRelational;
  case ExprKind::And:
    return kPrecAnd;
  case ExprKind::Or:
    return kPrecOr;
  case ExprKind::Not:
    return kPrecNot;
  case ExprKind::Call:
    return callPrecedence(e.name());
  }
  return kPrecAtom;
}

class PlainPrinter {
public:
  std::string print(const Expr &e) {
    ++level;
    std::string text = printNode(e);
    --level;
    return text;
  }

private:
  std::string printNode(const Expr &e) {
    switch (e.kind()) {
    case ExprKind::Integer:
      return std::to_string(e.integerValue());
    case ExprKind::Rational:
      return std::to_string(e.numerator()) + "/" +
             std::to_string(e.denominator());
    case ExprKind::Float:
      return plainFloat(e, level > 1);
    case ExprKind::Boolean:
      return e.booleanValue() ? "True" : "False";
    case ExprKind::Infinity:
      return std::string(e.isNegativeInfinity() ? "-" : "") +
             (e.isIntegerInfinity() ? "int_oo" : "oo");
    case ExprKind::SpecialConstant:
    case ExprKind::Symbol:
      return e.name().str();
    case ExprKind::Add:
      return printAdd(e);
    case ExprKind::Mul:
      return printMul(e);
    case ExprKind::Pow:
      return printPow(e);
    case ExprKind::FloorDiv:
      if (e.hasCallSpelling())
        return printCall("FloorDiv", e.operands());
      return printFloorDiv(e);
    case ExprKind::Mod:
      return printCall("Mod", e.operands());
    case ExprKind::Min:
      return printCall("Min", e.operands());
    case ExprKind::Max:
      return printCall("Max", e.operands());
    case ExprKind::Eq:
      return printCall("Eq", e.operands());
    case ExprKind::Ne:
      return printCall("Ne", e.operands());
    case ExprKind::Lt:
      return printInfix(e, " < ");
    case ExprKind::Le:
      return printInfix(e, " <= ");
    case ExprKind::Gt:
      return printInfix(e, " > ");
    case ExprKind::Ge:
      return printInfix(e, " >= ");
    case ExprKind::And:
      return join(e.operands(), " & ", kPrecBitwiseAnd);
    case ExprKind::Or:
      return join(e.operands(), " | ", kPrecBitwiseOr);
    case ExprKind::Not:
      return "~" + parenthesize(e.operand(0), kPrecNot);
    case ExprKind::Call:
      // torch's CleanDiv inherits FloorDiv's printing.
      if (e.name() == "CleanDiv" && e.numOperands() == 2)
        return printFloorDiv(e);
      return printCall(e.name(), e.operands());
    }
    return "";
  }

  /// Wraps `e` in parentheses when its precedence is at most `level`.
  std::string parenthesize(const Expr &e, double level) {
    std::string text = print(e);
    if (precedenceOf(e) <= level)
      return "(" + text + ")";
    return text;
  }

  std::string join(llvm::ArrayRef<Expr> operands, llvm::StringRef separator,
                   double level) {
    std::string out;
    for (size_t i = 0; i < operands.size(); ++i) {
      if (i)
        out += separator;
      out += parenthesize(operands[i], level);
    }
    return out;
  }

  std::string printCall(llvm::StringRef name, llvm::ArrayRef<Expr> operands) {
    std::string out = name.str() + "(";
    for (size_t i = 0; i < operands.size(); ++i) {
      if (i)
        out += ", ";
      out += print(operands[i]);
    }
    return out + ")";
  }

  std::string printInfix(const Expr &e, llvm::StringRef op) {
    return parenthesize(e.operand(0), kPrecRelational) + op.str() +
           parenthesize(e.operand(1), kPrecRelational);
  }

  std::string printFloorDiv(const Expr &e) {
    return "(" + parenthesize(e.operand(0), kPrecBelowAtom) + "//" +
           parenthesize(e.operand(1), kPrecBelowAtom) + ")";
  }

  std::string printAdd(const Expr &e) {
    std::string out;
    bool first = true;
    for (const Expr &term : e.operands()) {
      std::string text = print(term);
      bool minus = false;
      if (!text.empty() && text.front() == '-' &&
          term.kind() != ExprKind::Add) {
        minus = true;
        text.erase(0, 1);
      }
      if (precedenceOf(term) < kPrecAdd || term.kind() == ExprKind::Add)
        text = "(" + text + ")";
      if (first)
        out += minus ? "-" : "";
      else
        out += minus ? " - " : " + ";
      out += text;
      first = false;
    }
    return out;
  }

  std::string printMul(const Expr &e) {
    Coefficient coefficient = leadingCoefficient(e);
    bool negative =
        coefficient.count != 0 && isNegativeNumber(coefficient.value);
    double level = negative ? kPrecAdd : kPrecMul;
    llvm::SmallVector<Expr, 4> numerator;
    llvm::SmallVector<Expr, 4> denominator;
    llvm::SmallVector<bool, 4> forceParens;

    auto addNumber = [&](const Expr &number) {
      if (number.kind() == ExprKind::Rational) {
        if (number.numerator() != 1)
          numerator.push_back(makeInteger(number.numerator()));
        denominator.push_back(makeInteger(number.denominator()));
        forceParens.push_back(false);
        return;
      }
      if (!isIntegerValue(number, 1))
        numerator.push_back(number);
    };

    if (coefficient.count != 0) {
      Expr magnitude =
          negative ? negateNumber(coefficient.value) : coefficient.value;
      if (magnitude.isNull()) {
        // -INT64_MIN: print the factors as they are.
        negative = false;
        level = kPrecMul;
        coefficient.count = 0;
      } else {
        addNumber(magnitude);
      }
    }
    for (const Expr &factor : e.operands().drop_front(coefficient.count)) {
      if (factor.kind() == ExprKind::Pow &&
          !keepsPowerForm(factor.operand(0))) {
        Expr exponent = negatedExponent(factor.operand(1));
        if (!exponent.isNull()) {
          const Expr &base = factor.operand(0);
          if (isIntegerValue(exponent, 1)) {
            denominator.push_back(base);
            forceParens.push_back(base.kind() == ExprKind::Mul ||
                                  base.kind() == ExprKind::Pow);
          } else {
            denominator.push_back(makePow(base, exponent));
            forceParens.push_back(false);
          }
          continue;
        }
      }
      if (factor.kind() == ExprKind::Rational ||
          factor.kind() == ExprKind::Integer) {
        addNumber(factor);
        continue;
      }
      numerator.push_back(factor);
    }

    std::string out = negative ? "-" : "";
    if (numerator.empty()) {
      out += "1";
    } else {
      for (size_t i = 0; i < numerator.size(); ++i) {
        if (i)
          out += "*";
        out += parenthesize(numerator[i], level);
      }
    }
    if (denominator.empty())
      return out;
    std::string below;
    for (size_t i = 0; i < denominator.size(); ++i) {
      if (i)
        below += "*";
      std::string text = parenthesize(denominator[i], level);
      below += forceParens[i] ? "(" + text + ")" : text;
    }
    return out + "/" + (denominator.size() == 1 ? below : "(" + below + ")");
  }

  std::string printPow(const Expr &e) {
    const Expr &base = e.operand(0);
    const Expr &exponent = e.operand(1);
    if (exponent.kind() == ExprKind::Rational && exponent.denominator() == 2) {
      if (exponent.numerator() == 1)
        return "sqrt(" + print(base) + ")";
      if (exponent.numerator() == -1)
        return "1/sqrt(" + print(base) + ")";
    }
    if (isIntegerValue(exponent, -1) && !keepsPowerForm(base))
      return "1/" + parenthesize(base, kPrecPow);
    // `~a**b` reads as `~(a**b)` (Python binds `**` tighter than a prefix
    // operator), so a Not base keeps its parentheses; sympy's precedence
    // table ranks Not above Pow and would drop them.
    std::string baseText = base.kind() == ExprKind::Not
                               ? "(" + print(base) + ")"
                               : parenthesize(base, kPrecPow);
    return baseText + "**" + parenthesize(exponent, kPrecPow);
  }

  /// Nesting of the node being printed; 1 for the root.
  unsigned level = 0;
};

//===----------------------------------------------------------------------===//
// Srepr printer
//===----------------------------------------------------------------------===//

llvm::StringRef sreprHead(const Expr &e) {
  switch (e.kind()) {
  case ExprKind::Add:
    return "Add";
  case ExprKind::Mul:
    return "Mul";
  case ExprKind::Pow:
    return "Pow";
  case ExprKind::FloorDiv:
    return "FloorDiv";
  case ExprKind::Mod:
    return "Mod";
  case ExprKind::Min:
    return "Min";
  case ExprKind::Max:
    return "Max";
  case ExprKind::Eq:
    return "Equality";
  case ExprKind::Ne:
    return "Unequality";
  case ExprKind::Lt:
    return "StrictLessThan";
  case ExprKind::Le:
    return "LessThan";
  case ExprKind::Gt:
    return "StrictGreaterThan";
  case ExprKind::Ge:
    return "GreaterThan";
  case ExprKind::And:
    return "And";
  case ExprKind::Or:
    return "Or";
  case ExprKind::Not:
    return "Not";
  case ExprKind::Call:
    return e.name();
  default:
    return "";
  }
}

void printSrepr(const Expr &e, std::string &out) {
  switch (e.kind()) {
  case ExprKind::Integer:
    out += "Integer(" + std::to_string(e.integerValue()) + ")";
    return;
  case ExprKind::Rational:
    out += "Rational(" + std::to_string(e.numerator()) + ", " +
           std::to_string(e.denominator()) + ")";
    return;
  case ExprKind::Float:
    out += sreprFloat(e);
    return;
  case ExprKind::Boolean:
    out += e.booleanValue() ? "true" : "false";
    return;
  case ExprKind::Infinity:
    if (e.isIntegerInfinity())
      out += e.isNegativeInfinity() ? "NegativeIntInfinity()" : "IntInfinity()";
    else
      out += e.isNegativeInfinity() ? "-oo" : "oo";
    return;
  case ExprKind::SpecialConstant:
    out += e.name();
    return;
  case ExprKind::Symbol:
    out += "Symbol('" + e.name().str() + "'";
    for (const SymbolAssumption &assumption : e.assumptions())
      out += ", " + assumption.key + "=" + assumption.value;
    out += ")";
    return;
  default:
    break;
  }
  out += sreprHead(e);
  out += "(";
  llvm::ArrayRef<Expr> operands = e.operands();
  for (size_t i = 0; i < operands.size(); ++i) {
    if (i)
      out += ", ";
    printSrepr(operands[i], out);
  }
  out += ")";
}

} // namespace

std::string toString(const Expr &expr, Form form) {
  if (expr.isNull())
    return "<null>";
  if (form == Form::Srepr) {
    std::string out;
    printSrepr(expr, out);
    return out;
  }
  return PlainPrinter().print(expr);
}

} // namespace pt2ir::sym
