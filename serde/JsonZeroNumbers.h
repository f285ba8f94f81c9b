//===- JsonZeroNumbers.h - Numbers RapidJSON's strtod misreads ------------===//
//
// RapidJSON 1.1's full-precision number parsing (kParseFullPrecisionFlag)
// falls back to an approximation for a number whose decimal exponent is
// outside [-22, 22], and that approximation normalizes the significand with
// count-leading-zeros, which is undefined for a significand of zero. So a
// zero with a large exponent or many zero decimals (`0e308`,
// `0.0000000000000000000000000`) reads as an arbitrary double, and `-0e400`
// is refused as too big. These helpers find such zeros so that a reader can
// rewrite them, in place and at the same length, as `0.0` (or `-0.0`)
// followed by spaces, which RapidJSON reads exactly. A fraction or exponent
// right after NaN or Inf(inity), which RapidJSON reads as such digits, is
// cut off by a space.
//
//===----------------------------------------------------------------------===//

#ifndef PT2IR_SERDE_JSONZERONUMBERS_H
#define PT2IR_SERDE_JSONZERONUMBERS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstring>

namespace pt2ir::json {

/// True for the characters a JSON number token is made of.
inline bool isNumberChar(char c) {
  return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' ||
         c == '+' || c == '-';
}

/// True when `token` (a whole run of number characters) is a JSON number
/// whose digits before the exponent are all zero and that has a fraction or
/// an exponent: `-?0(\.0+)?([eE][+-]?[0-9]+)?` with at least one of the two
/// optional parts.
inline bool isZeroWithFractionOrExponent(llvm::StringRef token) {
  token.consume_front("-");
  if (!token.consume_front("0"))
    return false;
  bool fraction = false;
  if (token.consume_front(".")) {
    size_t zeros = token.find_first_not_of('0');
    zeros = zeros == llvm::StringRef::npos ? token.size() : zeros;
    if (zeros == 0)
      return false;
    token = token.drop_front(zeros);
    fraction = true;
  }
  if (token.empty())
    return fraction;
  if (token.front() != 'e' && token.front() != 'E')
    return false;
  token = token.drop_front();
  if (!token.consume_front("+"))
    token.consume_front("-");
  return !token.empty() &&
         token.find_first_not_of("0123456789") == llvm::StringRef::npos;
}

/// Length of the longest prefix of `run` that is a JSON number,
/// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, taken greedily the way
/// RapidJSON reads it (0 when there is none). RapidJSON converts that prefix
/// before it reports whatever follows it as an error.
inline size_t numberPrefixLength(llvm::StringRef run) {
  auto isDigit = [&](size_t i) {
    return i < run.size() && run[i] >= '0' && run[i] <= '9';
  };
  size_t i = 0;
  if (i < run.size() && run[i] == '-')
    ++i;
  if (!isDigit(i))
    return 0;
  if (run[i++] != '0')
    while (isDigit(i))
      ++i;
  if (i < run.size() && run[i] == '.') {
    if (!isDigit(i + 1))
      return 0; // RapidJSON fails before converting anything.
    for (i += 2; isDigit(i); ++i)
      ;
  }
  if (i < run.size() && (run[i] == 'e' || run[i] == 'E')) {
    size_t j = i + 1;
    if (j < run.size() && (run[j] == '+' || run[j] == '-'))
      ++j;
    if (!isDigit(j))
      return 0;
    for (i = j + 1; isDigit(i); ++i)
      ;
  }
  return i;
}

/// True when the number RapidJSON would read at the start of `run` is one of
/// the zeros it misreads.
inline bool startsWithZeroNumber(llvm::StringRef run) {
  return isZeroWithFractionOrExponent(run.take_front(numberPrefixLength(run)));
}

/// True when `rest` starts with a fraction (`.` and a digit) or an exponent
/// (`e`, an optional sign and a digit), which RapidJSON reads after `NaN` or
/// `Inf(inity)` with kParseNanAndInfFlag.
inline bool startsFractionOrExponent(llvm::StringRef rest) {
  auto digitAt = [&](size_t i) {
    return i < rest.size() && rest[i] >= '0' && rest[i] <= '9';
  };
  if (rest.starts_with("."))
    return digitAt(1);
  if (!rest.starts_with("e") && !rest.starts_with("E"))
    return false;
  return digitAt(1) ||
         ((rest.size() > 1 && (rest[1] == '+' || rest[1] == '-')) &&
          digitAt(2));
}

/// Calls `onZero(offset, length)` for every number outside strings of the
/// JSON text `text` that isZeroWithFractionOrExponent accepts: the number
/// RapidJSON reads at the start of each run of number characters.
template <typename Callback>
void forEachZeroNumber(llvm::StringRef text, Callback onZero) {
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == '"') {
      // Skip the string, escapes included; an unterminated one ends the scan.
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      ++i;
      continue;
    }
    if (!isNumberChar(c)) {
      // RapidJSON reads a fraction or exponent after NaN and Inf(inity) as
      // the digits of a double (`NaN.00e48` is 0e48): report its first
      // character, which a rewrite turns into a space (an error there).
      llvm::StringRef rest = text.drop_front(i);
      size_t literal = rest.starts_with("NaN")        ? 3
                       : rest.starts_with("Infinity") ? 8
                       : rest.starts_with("Inf")      ? 3
                                                      : 0;
      if (literal && startsFractionOrExponent(rest.drop_front(literal))) {
        onZero(i + literal, 1);
        i += literal + 1;
        continue;
      }
      ++i;
      continue;
    }
    size_t start = i;
    while (i < text.size() && isNumberChar(text[i]))
      ++i;
    llvm::StringRef run = text.slice(start, i);
    size_t length = numberPrefixLength(run);
    if (isZeroWithFractionOrExponent(run.take_front(length)))
      onZero(start, length);
  }
}

/// True when `text` holds a number forEachZeroNumber would report.
inline bool hasZeroNumbers(llvm::StringRef text) {
  bool found = false;
  forEachZeroNumber(text, [&](size_t, size_t) { found = true; });
  return found;
}

/// Rewrites every number forEachZeroNumber reports as `0.0` or `-0.0`
/// padded with spaces to its old length (at least `0e0`, three characters,
/// so the new spelling always fits). Offsets of everything else stay. A
/// number followed by more number characters (`0e1e40`) is an error right
/// after it anyway; it becomes `0` padded with spaces, so that it cannot
/// join those characters into a new number (`0.0e40`).
inline void rewriteZeroNumbers(llvm::MutableArrayRef<char> text) {
  llvm::StringRef view(text.data(), text.size());
  forEachZeroNumber(view, [&](size_t offset, size_t length) {
    char *token = text.data() + offset;
    bool joined = offset + length < text.size() && isNumberChar(token[length]);
    if (length == 1 && !(token[0] >= '0' && token[0] <= '9')) {
      *token = ' '; // after NaN or Inf(inity)
      return;
    }
    const char *zero = joined ? "0" : token[0] == '-' ? "-0.0" : "0.0";
    size_t zeroLength = std::strlen(zero);
    if (zeroLength > length)
      return;
    std::memcpy(token, zero, zeroLength);
    std::memset(token + zeroLength, ' ', length - zeroLength);
  });
}

} // namespace pt2ir::json

#endif // PT2IR_SERDE_JSONZERONUMBERS_H
