//===- JsonNumbers.cpp - Exact conversion of JSON number tokens -----------===//

#include "pt2ir/json/JsonNumbers.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <system_error>

namespace pt2ir::json {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }

/// Length of the run of digits at the start of `text`.
size_t digitRun(llvm::StringRef text) {
  size_t n = 0;
  while (n < text.size() && isDigit(text[n]))
    ++n;
  return n;
}

/// True when `token` (without its sign) is
/// `(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`; `integer` says whether it
/// has neither fraction nor exponent.
bool isUnsignedNumber(llvm::StringRef token, bool &integer) {
  size_t whole = digitRun(token);
  if (whole == 0 || (whole > 1 && token[0] == '0'))
    return false;
  llvm::StringRef rest = token.drop_front(whole);
  integer = rest.empty();
  if (rest.consume_front(".")) {
    size_t fraction = digitRun(rest);
    if (fraction == 0)
      return false;
    rest = rest.drop_front(fraction);
  }
  if (rest.consume_front("e") || rest.consume_front("E")) {
    if (!rest.consume_front("+"))
      rest.consume_front("-");
    size_t exponent = digitRun(rest);
    if (exponent == 0)
      return false;
    rest = rest.drop_front(exponent);
  }
  return rest.empty();
}

/// True when the number `token` (valid, unsigned) is below 1 in magnitude:
/// its leading nonzero digit sits after the decimal point once the exponent
/// is applied. Decides whether a number out of double range underflowed.
bool isBelowOne(llvm::StringRef token) {
  size_t exponentAt = token.find_first_of("eE");
  llvm::StringRef digits = token.take_front(exponentAt);
  int64_t leading; // decimal exponent of the leading nonzero digit
  llvm::StringRef integer = digits.take_until([](char c) { return c == '.'; });
  size_t integerLead = integer.find_first_not_of('0');
  if (integerLead != llvm::StringRef::npos) {
    leading = int64_t(integer.size() - integerLead) - 1;
  } else {
    llvm::StringRef fraction = digits.drop_front(integer.size() + 1);
    leading = -int64_t(fraction.find_first_not_of('0')) - 1;
  }
  if (exponentAt == llvm::StringRef::npos)
    return leading < 0;
  llvm::StringRef text = token.drop_front(exponentAt + 1);
  bool negative = text.consume_front("-");
  if (!negative)
    text.consume_front("+");
  // Saturate: the mantissa has at most a few billion digits.
  constexpr int64_t Saturated = int64_t(1) << 40;
  int64_t exponent = 0;
  for (char c : text)
    exponent = std::min<int64_t>(exponent * 10 + (c - '0'), Saturated);
  return leading + (negative ? -exponent : exponent) < 0;
}

Number makeDouble(double d) {
  Number number;
  number.kind = Number::Kind::Double;
  number.d = d;
  return number;
}

} // namespace

Number convertNumber(llvm::StringRef token) {
  llvm::StringRef magnitude = token;
  bool negative = magnitude.consume_front("-");
  if (magnitude == "NaN")
    return makeDouble(std::numeric_limits<double>::quiet_NaN());
  if (magnitude == "Infinity" || magnitude == "Inf") {
    double infinity = std::numeric_limits<double>::infinity();
    return makeDouble(negative ? -infinity : infinity);
  }
  bool integer = false;
  if (!isUnsignedNumber(magnitude, integer))
    return Number();

  const char *first = token.data();
  const char *last = token.data() + token.size();
  if (integer) {
    Number number;
    if (negative) {
      auto [end, ec] = std::from_chars(first, last, number.i64);
      if (ec == std::errc() && end == last) {
        number.kind = Number::Kind::Int64;
        return number;
      }
    } else {
      auto [end, ec] = std::from_chars(first, last, number.u64);
      if (ec == std::errc() && end == last) {
        number.kind = Number::Kind::Uint64;
        return number;
      }
    }
    // Past 64 bits: a double, as RapidJSON makes it.
  }

  double d = 0;
  auto [end, ec] = std::from_chars(first, last, d);
  if (ec == std::errc() && end == last)
    return makeDouble(d);
  if (ec == std::errc::result_out_of_range && isBelowOne(magnitude))
    return makeDouble(negative ? -0.0 : 0.0);
  Number tooBig;
  tooBig.kind = Number::Kind::TooBig;
  return tooBig;
}

std::string describeRefusedNumber(const Number &number, llvm::StringRef token) {
  constexpr size_t Shown = 40;
  std::string shown = token.take_front(Shown).str();
  if (token.size() > Shown)
    shown += "... (" + std::to_string(token.size()) + " characters)";
  if (number.kind == Number::Kind::TooBig)
    return "number too big for a double: " + shown;
  return "not a JSON number: " + shown;
}

} // namespace pt2ir::json
