//===- JsonNumbersTest.cpp - Exact conversion of JSON numbers -------------===//
//
// RapidJSON 1.1's own number conversion misread zeros with large exponents
// (`0e308`), indexed its table of powers of ten out of bounds for tiny and
// huge numbers (fuzz finding 8 of fuzz_treespec: a fraction with hundreds of
// leading zeros), read `1065E-327` as NaN and was off by one unit in the
// last place on long numbers. json/JsonNumbers.h converts every number
// token with std::from_chars instead; these tests check the conversion
// against strtod and every reader that goes through it.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/json/JsonNumbers.h"
#include "pt2ir/serde/ProgramReader.h"
#include "pt2ir/serde/ProgramWriter.h"
#include "pt2ir/treespec/TreespecJson.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <random>
#include <string>

using namespace pt2ir;
using Kind = json::Number::Kind;

namespace {

/// Expects `token` to convert to a double bit-identical to strtod's.
void expectLikeStrtod(const std::string &token) {
  json::Number number = json::convertNumber(token);
  double want = std::strtod(token.c_str(), nullptr);
  ASSERT_EQ(number.kind, Kind::Double) << token;
  EXPECT_EQ(number.d, want) << token;
  EXPECT_EQ(std::signbit(number.d), std::signbit(want)) << token;
}

TEST(JsonNumbersTest, IntegersKeepRapidJsonsTypes) {
  json::Number zero = json::convertNumber("0");
  EXPECT_EQ(zero.kind, Kind::Uint64);
  EXPECT_EQ(zero.u64, 0u);
  json::Number minusZero = json::convertNumber("-0");
  EXPECT_EQ(minusZero.kind, Kind::Int64);
  EXPECT_EQ(minusZero.i64, 0);
  json::Number max = json::convertNumber("18446744073709551615");
  EXPECT_EQ(max.kind, Kind::Uint64);
  EXPECT_EQ(max.u64, UINT64_MAX);
  json::Number min = json::convertNumber("-9223372036854775808");
  EXPECT_EQ(min.kind, Kind::Int64);
  EXPECT_EQ(min.i64, INT64_MIN);
  // Past 64 bits an integer becomes a double, as in RapidJSON.
  expectLikeStrtod("18446744073709551616");
  expectLikeStrtod("-9223372036854775809");
  expectLikeStrtod("123456789012345678901234567890");
}

TEST(JsonNumbersTest, MisreadsOfRapidJsonReadExactly) {
  for (const char *token :
       {"0e308", "0.0000000000000000000000000", "0E-99", "-0.0e+1", "-0.0",
        // Fuzz finding 8: a fraction with many leading zeros below 1e-324.
        "0.0000000000000000000000000000016004082691565586637e-300",
        "-0.0000000000000000000000000000000000235430299e-289",
        // RapidJSON: NaN, a huge number, one unit off at the smallest double.
        "1065E-327", "19031376803998903E-340",
        "-97478.00000000000000007541605E-331", "3e-324",
        "2.4703282292062328e-324", "2.4703282292062327e-324",
        "4.9406564584124654e-324", "2.2250738585072011e-308",
        "1.7976931348623157e308", "1e-400",
        "20992153793019889872562682523615898242413950737512253478611278596683"
        "891638076051073330632777974719611343920809750771533769759095500423956."
        "0000000000000000000000000000000000073320954669980"})
    expectLikeStrtod(token);
  EXPECT_TRUE(std::signbit(json::convertNumber("-1e-400").d));
}

TEST(JsonNumbersTest, AgreesWithStrtodOnRandomNumbers) {
  std::mt19937_64 random(8);
  auto below = [&](unsigned n) { return unsigned(random() % n); };
  for (int i = 0; i < 20000; ++i) {
    std::string token = below(2) ? "-" : "";
    if (below(3) == 0) {
      token += '0';
    } else {
      unsigned digits = 1 + below(below(2) ? 5 : 400);
      token += char('1' + below(9));
      for (unsigned d = 1; d < digits; ++d)
        token += char('0' + below(10));
    }
    if (below(3)) {
      token += '.';
      token.append(below(4) ? below(40) : below(800), '0');
      unsigned digits = 1 + (below(4) ? below(25) : below(900));
      for (unsigned d = 0; d < digits; ++d)
        token += char('0' + below(10));
    }
    if (below(3)) {
      token += below(2) ? "e-" : "E";
      token += std::to_string(below(4) ? below(400) : below(100000));
    }
    bool integer = token.find_first_of(".eE") == std::string::npos;
    json::Number number = json::convertNumber(token);
    double want = std::strtod(token.c_str(), nullptr);
    if (std::isinf(want)) {
      EXPECT_EQ(number.kind, Kind::TooBig) << token;
      continue;
    }
    if (integer && number.kind != Kind::Double)
      continue; // checked above
    ASSERT_EQ(number.kind, Kind::Double) << token;
    ASSERT_EQ(number.d, want) << token;
    ASSERT_EQ(std::signbit(number.d), std::signbit(want)) << token;
  }
}

TEST(JsonNumbersTest, NanInfinityAndRefusals) {
  EXPECT_TRUE(std::isnan(json::convertNumber("NaN").d));
  EXPECT_TRUE(std::isnan(json::convertNumber("-NaN").d));
  EXPECT_EQ(json::convertNumber("Infinity").d, HUGE_VAL);
  EXPECT_EQ(json::convertNumber("-Infinity").d, -HUGE_VAL);
  EXPECT_EQ(json::convertNumber("-Inf").d, -HUGE_VAL);
  for (const char *token :
       {"", "-", "NaN.5", "Infinitye400", "NaNe", "1.", "01", "1e", "1e+", "+1",
        ".5", "0x10", "1.5-3", "inf", "nan", "1e5e5"})
    EXPECT_EQ(json::convertNumber(token).kind, Kind::Invalid) << token;
  for (const char *token : {"1e309", "1.8e308", "-1e400"})
    EXPECT_EQ(json::convertNumber(token).kind, Kind::TooBig) << token;
  json::Number bad = json::convertNumber("NaN.00e48");
  EXPECT_EQ(json::describeRefusedNumber(bad, "NaN.00e48"),
            "not a JSON number: NaN.00e48");
  std::string huge(400, '9');
  EXPECT_EQ(json::describeRefusedNumber(json::convertNumber(huge), huge),
            "number too big for a double: " + std::string(40, '9') +
                "... (400 characters)");
}

/// A program whose one node takes `floatLists` (JSON text) as a float-lists
/// argument.
std::string programWithFloatLists(const std::string &floatLists) {
  return std::string("{\"graph_module\": {\"graph\": {\"inputs\": "
                     "[{\"as_tensor\": {\"name\": "
                     "\"x\"}}], \"outputs\": [{\"as_tensor\": {\"name\": "
                     "\"y\"}}], \"nodes\": "
                     "[{\"target\": \"torch.ops.test.float_lists.default\", "
                     "\"inputs\": "
                     "[{\"name\": \"self\", \"arg\": {\"as_tensor\": "
                     "{\"name\": \"x\"}}, "
                     "\"kind\": 1}, {\"name\": \"values\", \"arg\": "
                     "{\"as_float_lists\": ") +
         floatLists +
         "}, "
         "\"kind\": 1}], \"outputs\": [{\"as_tensor\": {\"name\": \"y\"}}], "
         "\"metadata\": {}, \"is_hop_single_tensor_return\": null, \"name\": "
         "\"y\"}], \"tensor_values\": {}, \"sym_int_values\": {}, "
         "\"sym_bool_values\": {}, \"is_single_tensor_return\": false, "
         "\"custom_obj_values\": {}, \"sym_float_values\": {}}, \"signature\": "
         "{\"input_specs\": [{\"user_input\": {\"arg\": {\"as_tensor\": "
         "{\"name\": \"x\"}}}}], \"output_specs\": [{\"user_output\": "
         "{\"arg\": "
         "{\"as_tensor\": {\"name\": \"y\"}}}}]}, \"module_call_graph\": [], "
         "\"metadata\": {}, \"treespec_namedtuple_fields\": {}}, "
         "\"opset_version\": {\"aten\": 0}, \"range_constraints\": {}, "
         "\"schema_version\": {\"major\": 8, \"minor\": 19}, \"verifiers\": "
         "[\"ATEN\"], \"torch_version\": \"2.9.0\", \"guards_code\": []}";
}

TEST(JsonNumbersTest, ProgramReaderReadsExactly) {
  for (bool streaming : {true, false}) {
    ReadOptions options;
    options.useStreamingReader = streaming;
    auto program = readProgram(
        programWithFloatLists(
            "[[0e308, 0.0000000000000000000000000, 0E-99, 1065E-327, "
            "0.0000000000000000000000000000016004082691565586637e-300], "
            "[0.5, -0.0e+1, 3e-324]]"),
        options);
    ASSERT_TRUE(static_cast<bool>(program))
        << llvm::toString(program.takeError());
    std::string written = writeProgram(*program);
    EXPECT_NE(written.find("[[0.0, 0.0, 0.0, 0.0, 0.0], [0.5, -0.0, 5e-324]]"),
              std::string::npos)
        << written;
  }
}

TEST(JsonNumbersTest, ProgramReaderRefusesNumbersWithTheirPlace) {
  ReadOptions options;
  options.fileName = "p.json";
  for (auto [lists, message] :
       {std::pair<const char *, const char *>{
            "[[1.8e308]]", "number too big for a double: 1.8e308"},
        {"[[NaN.5]]", "not a JSON number: NaN.5"},
        // RapidJSON's tokenizer refuses an exponent past 308 even on a zero.
        {"[[-0e400]]", "Number too big to be stored in double"}}) {
    for (bool streaming : {true, false}) {
      options.useStreamingReader = streaming;
      auto program = readProgram(programWithFloatLists(lists), options);
      ASSERT_FALSE(static_cast<bool>(program)) << lists;
      std::string error = llvm::toString(program.takeError());
      EXPECT_NE(error.find("p.json:1:"), std::string::npos) << error;
      EXPECT_NE(error.find(message), std::string::npos) << error;
    }
  }
}

TEST(JsonNumbersTest, TreespecJsonReadsExactly) {
  rapidjson::Document doc;
  llvm::Error error = parseBoundedJson(
      "[0e308, 0.0000000000000000000000000, 1.5, 7, -3, NaN, "
      "0.0000000000000000000000000000016004082691565586637e-300]",
      16, "context", doc);
  ASSERT_FALSE(static_cast<bool>(error)) << llvm::toString(std::move(error));
  ASSERT_TRUE(doc.IsArray());
  ASSERT_EQ(doc.Size(), 7u);
  EXPECT_TRUE(doc[0].IsDouble());
  EXPECT_EQ(doc[0].GetDouble(), 0.0);
  EXPECT_EQ(doc[2].GetDouble(), 1.5);
  EXPECT_TRUE(doc[3].IsUint64());
  EXPECT_EQ(doc[3].GetInt64(), 7);
  EXPECT_TRUE(doc[4].IsInt64());
  EXPECT_EQ(doc[4].GetInt64(), -3);
  EXPECT_TRUE(std::isnan(doc[5].GetDouble()));
  EXPECT_EQ(doc[6].GetDouble(), 0.0);
}

TEST(JsonNumbersTest, TreespecJsonRefusesNumbersWithTheirOffset) {
  for (auto [input, message] :
       {std::pair<const char *, const char *>{
            "[1, NaN.00e48]", "invalid JSON at offset 4: not a JSON number: "
                              "NaN.00e48"},
        {"[1e999]", "invalid JSON at offset 1: Number too big"},
        {"{\"a\": 1.8e308}", "invalid JSON at offset 6: number too big"}}) {
    rapidjson::Document doc;
    llvm::Error error = parseBoundedJson(input, 16, "context", doc);
    ASSERT_TRUE(static_cast<bool>(error)) << input;
    std::string text = llvm::toString(std::move(error));
    EXPECT_NE(text.find(message), std::string::npos) << text;
  }
}

} // namespace
