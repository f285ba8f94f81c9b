//===- JsonNumbers.h - Exact conversion of JSON number tokens -------------===//
//
// pt2ir's readers let RapidJSON split the text into tokens but convert every
// number token themselves, with std::from_chars, which rounds correctly.
// RapidJSON 1.1's own conversion (even with kParseFullPrecisionFlag) gets
// numbers wrong, and some of them wildly, which no round trip may do:
//
// - a zero with a large exponent or many zero decimals (`0e308`) reads as an
//   arbitrary double (count-leading-zeros of a zero significand);
// - a number below about 10^-324 written with leading zero decimals
//   (`0.0000000000000000000000000000016e-300`) indexes its table of powers
//   of ten far out of bounds (fuzz finding 8 of fuzz_treespec), and one
//   near the smallest double reads as NaN or a huge number (`1065E-327`);
// - a number of 10^309 or more with many integer digits indexes the same
//   table past its end;
// - a long number is sometimes off by one unit in the last place;
// - a fraction or exponent after NaN or Inf(inity) is read as its digits.
//
// So the readers parse with kParseNumbersAsStringsFlag and wrap their
// handler in ExactNumbers, which hands the handler the same events
// RapidJSON would (Int64/Uint64 for integers that fit, Double for the rest),
// with the correct values.
//
//===----------------------------------------------------------------------===//

#ifndef PT2IR_JSON_JSONNUMBERS_H
#define PT2IR_JSON_JSONNUMBERS_H

#include "llvm/ADT/StringRef.h"

#include <rapidjson/document.h>
#include <rapidjson/reader.h>

#include <cstdint>
#include <string>

namespace pt2ir::json {

/// A JSON number token, converted.
struct Number {
  enum class Kind {
    /// An integer token that fits int64 and is negative (or `-0`).
    Int64,
    /// An integer token that fits uint64 and is not negative.
    Uint64,
    /// Any other number, NaN and the infinities included.
    Double,
    /// Not a number token: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`,
    /// or NaN, Inf or Infinity with an optional `-`.
    Invalid,
    /// A finite number beyond the largest double.
    TooBig,
  };
  Kind kind = Kind::Invalid;
  int64_t i64 = 0;
  uint64_t u64 = 0;
  double d = 0;
};

/// Converts one number token the way RapidJSON would type it, with the value
/// rounded correctly: an integer that fits int64 or uint64 stays an integer,
/// every other number becomes the nearest double (zero for those below the
/// smallest one, keeping the sign).
Number convertNumber(llvm::StringRef token);

/// Why convertNumber refused `token` (Invalid or TooBig), for a message.
std::string describeRefusedNumber(const Number &number, llvm::StringRef token);

/// The parse flags that hand number tokens to ExactNumbers as text, plus
/// NaN and Infinity, which Python's json module writes.
constexpr unsigned ExactNumberFlags =
    rapidjson::kParseNumbersAsStringsFlag | rapidjson::kParseNanAndInfFlag;

/// A RapidJSON handler that converts raw number tokens with convertNumber
/// and passes every event on to `Next` (a rapidjson::Document or a handler
/// with the same methods). Refusing a number stops the parse with
/// kParseErrorTermination at the number's offset; numberError() says why.
template <typename Next> class ExactNumbers {
public:
  explicit ExactNumbers(Next &next) : next(next) {}

  /// Why a number was refused; empty when none was.
  const std::string &numberError() const { return refusal; }

  bool Null() { return next.Null(); }
  bool Bool(bool b) { return next.Bool(b); }
  bool Int(int i) { return next.Int(i); }
  bool Uint(unsigned u) { return next.Uint(u); }
  bool Int64(int64_t i) { return next.Int64(i); }
  bool Uint64(uint64_t u) { return next.Uint64(u); }
  bool Double(double d) { return next.Double(d); }
  bool RawNumber(const char *str, rapidjson::SizeType length, bool) {
    llvm::StringRef token(str, length);
    Number number = convertNumber(token);
    switch (number.kind) {
    case Number::Kind::Int64:
      return next.Int64(number.i64);
    case Number::Kind::Uint64:
      return next.Uint64(number.u64);
    case Number::Kind::Double:
      return next.Double(number.d);
    case Number::Kind::Invalid:
    case Number::Kind::TooBig:
      refusal = describeRefusedNumber(number, token);
      return false;
    }
    return false;
  }
  bool String(const char *str, rapidjson::SizeType length, bool copy) {
    return next.String(str, length, copy);
  }
  bool Key(const char *str, rapidjson::SizeType length, bool copy) {
    return next.Key(str, length, copy);
  }
  bool StartObject() { return next.StartObject(); }
  bool EndObject(rapidjson::SizeType members) {
    return next.EndObject(members);
  }
  bool StartArray() { return next.StartArray(); }
  bool EndArray(rapidjson::SizeType elements) {
    return next.EndArray(elements);
  }

private:
  Next &next;
  std::string refusal;
};

/// Parses the JSON text in `stream` into `doc` with `Flags` plus
/// ExactNumberFlags, converting numbers with ExactNumbers. On a refused
/// number the result is kParseErrorTermination and `numberError` says why.
template <unsigned Flags, typename Stream>
rapidjson::ParseResult parseDocument(Stream &stream, rapidjson::Document &doc,
                                     std::string &numberError) {
  rapidjson::ParseResult result;
  auto generator = [&](rapidjson::Document &target) {
    ExactNumbers<rapidjson::Document> handler(target);
    rapidjson::Reader reader;
    result = reader.Parse<Flags | ExactNumberFlags>(stream, handler);
    numberError = handler.numberError();
    return !result.IsError();
  };
  doc.Populate(generator);
  return result;
}

} // namespace pt2ir::json

#endif // PT2IR_JSON_JSONNUMBERS_H
