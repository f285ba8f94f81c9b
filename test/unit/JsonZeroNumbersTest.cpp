//===- JsonZeroNumbersTest.cpp - Zeros RapidJSON misreads ----------------===//
//
// RapidJSON 1.1's full-precision strtod read a zero with a large exponent
// (`0e308`) as an arbitrary double and refused `-0e400` (undefined
// behaviour in its count-leading-zeros of a zero significand; a fuzz
// finding of fuzz_program_reader). serde/JsonZeroNumbers.h rewrites such
// zeros before parsing; these tests check the scanner and every reader that
// parses numbers with full precision.
//
//===----------------------------------------------------------------------===//

#include "serde/JsonZeroNumbers.h"
#include "serde/ProgramReader.h"
#include "serde/ProgramWriter.h"
#include "serde/TreespecJson.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using namespace pt2ir;

namespace {

TEST(JsonZeroNumbersTest, RecognizesZerosWithFractionOrExponent) {
  for (const char *zero :
       {"0e308", "-0e400", "0.0", "0.00000000000000000000000", "0E-99",
        "-0.0e+1", "0e0"})
    EXPECT_TRUE(json::isZeroWithFractionOrExponent(zero)) << zero;
  for (const char *other : {"0", "-0", "1e308", "0.1", "0.", "0e", "0e+",
                            "00e5", "0.0.0", "0e5e5", "10.0", "-", "0.e1"})
    EXPECT_FALSE(json::isZeroWithFractionOrExponent(other)) << other;
}

TEST(JsonZeroNumbersTest, FindsTheNumberRapidJsonReadsFirst) {
  // RapidJSON converts the longest number at the start of a run and only
  // then fails on the rest (fuzz finding of fuzz_treespec: `0e101e40`).
  EXPECT_EQ(json::numberPrefixLength("0e101e40"), 5u);
  EXPECT_EQ(json::numberPrefixLength("-0.0e5.3"), 6u);
  EXPECT_EQ(json::numberPrefixLength("00e5"), 1u);
  EXPECT_EQ(json::numberPrefixLength("12.5E-3x"), 7u);
  EXPECT_EQ(json::numberPrefixLength("0.e1"), 0u);
  EXPECT_EQ(json::numberPrefixLength("0e+"), 0u);
  EXPECT_EQ(json::numberPrefixLength("e0e400"), 0u);
  EXPECT_TRUE(json::startsWithZeroNumber("0e101e40"));
  EXPECT_TRUE(json::startsWithZeroNumber("-0.0e5.3"));
  EXPECT_FALSE(json::startsWithZeroNumber("1-0e400"));
  EXPECT_FALSE(json::startsWithZeroNumber("00e5"));
  std::string text = "0e101e40\x10";
  json::rewriteZeroNumbers(
      llvm::MutableArrayRef<char>(text.data(), text.size()));
  EXPECT_EQ(text, "0    e40\x10");
  // A rewritten prefix must not join what follows it into a new number.
  std::string joined = "0e1e40";
  json::rewriteZeroNumbers(
      llvm::MutableArrayRef<char>(joined.data(), joined.size()));
  EXPECT_EQ(joined, "0  e40");
  rapidjson::Document joinedDoc;
  llvm::Error joinedError =
      parseBoundedJson("[-0e1e40]", 16, "treespec", joinedDoc);
  ASSERT_TRUE(static_cast<bool>(joinedError));
  llvm::consumeError(std::move(joinedError));
  rapidjson::Document doc;
  llvm::Error error = parseBoundedJson("0e101e40\x10", 16, "treespec", doc);
  ASSERT_TRUE(static_cast<bool>(error));
  std::string message = llvm::toString(std::move(error));
  EXPECT_NE(message.find("invalid JSON at offset 5"), std::string::npos)
      << message;
}

TEST(JsonZeroNumbersTest, NoDigitsAfterNanOrInfinity) {
  // RapidJSON (kParseNanAndInfFlag) reads a fraction or exponent after NaN
  // or Inf(inity) as the digits of a double: `NaN.00e00048` reached the
  // same misread zero (fuzz finding of fuzz_treespec). Such text is now an
  // error right after the literal.
  std::string text = " NaN.00e00048 [Infinitye400, -Infe+4, NaNe]";
  json::rewriteZeroNumbers(
      llvm::MutableArrayRef<char>(text.data(), text.size()));
  EXPECT_EQ(text, " NaN 00e00048 [Infinity 400, -Inf +4, NaNe]");
  EXPECT_FALSE(json::hasZeroNumbers("[NaN, Infinity, -Infinity, \"NaN.5\"]"));
  for (const char *input : {" NaN.00e00048", "[NaN.5]", "[Infinitye400]"}) {
    rapidjson::Document doc;
    llvm::Error error = parseBoundedJson(input, 16, "treespec", doc);
    EXPECT_TRUE(static_cast<bool>(error)) << input;
    llvm::consumeError(std::move(error));
  }
  rapidjson::Document doc;
  llvm::Error error =
      parseBoundedJson("[NaN, Infinity, -Infinity]", 16, "treespec", doc);
  ASSERT_FALSE(static_cast<bool>(error)) << llvm::toString(std::move(error));
  EXPECT_TRUE(std::isnan(doc[0].GetDouble()));
  EXPECT_TRUE(std::isinf(doc[2].GetDouble()));
}

TEST(JsonZeroNumbersTest, RewritesOutsideStringsAtTheSameLength) {
  std::string text = "[0e308, \"0e308 \\\" 0e308\", -0e400,10.0e5, 0.0e1]";
  std::string before = text;
  json::rewriteZeroNumbers(
      llvm::MutableArrayRef<char>(text.data(), text.size()));
  EXPECT_EQ(text, "[0.0  , \"0e308 \\\" 0e308\", -0.0  ,10.0e5, 0.0  ]");
  EXPECT_EQ(text.size(), before.size());
  EXPECT_FALSE(json::hasZeroNumbers("[1e308, \"0e308\", 0]"));
  EXPECT_TRUE(json::hasZeroNumbers("{\"a\": 0e308}"));
}

TEST(JsonZeroNumbersTest, ProgramReaderReadsThemAsZero) {
  std::string input =
      "{\"graph_module\": {\"graph\": {\"inputs\": [{\"as_tensor\": {\"name\": "
      "\"x\"}}], \"outputs\": [{\"as_tensor\": {\"name\": \"y\"}}], \"nodes\": "
      "[{\"target\": \"torch.ops.test.float_lists.default\", \"inputs\": "
      "[{\"name\": \"self\", \"arg\": {\"as_tensor\": {\"name\": \"x\"}}, "
      "\"kind\": 1}, {\"name\": \"values\", \"arg\": {\"as_float_lists\": "
      "[[0e308, 0.0000000000000000000000000, -0e400, 0E-99], [0.5, -0.0e+1]]}, "
      "\"kind\": 1}], \"outputs\": [{\"as_tensor\": {\"name\": \"y\"}}], "
      "\"metadata\": {}, \"is_hop_single_tensor_return\": null, \"name\": "
      "\"y\"}], \"tensor_values\": {}, \"sym_int_values\": {}, "
      "\"sym_bool_values\": {}, \"is_single_tensor_return\": false, "
      "\"custom_obj_values\": {}, \"sym_float_values\": {}}, \"signature\": "
      "{\"input_specs\": [{\"user_input\": {\"arg\": {\"as_tensor\": "
      "{\"name\": \"x\"}}}}], \"output_specs\": [{\"user_output\": {\"arg\": "
      "{\"as_tensor\": {\"name\": \"y\"}}}}]}, \"module_call_graph\": [], "
      "\"metadata\": {}, \"treespec_namedtuple_fields\": {}}, "
      "\"opset_version\": {\"aten\": 0}, \"range_constraints\": {}, "
      "\"schema_version\": {\"major\": 8, \"minor\": 19}, \"verifiers\": "
      "[\"ATEN\"], \"torch_version\": \"2.9.0\", \"guards_code\": []}";
  auto program = readProgram(input);
  ASSERT_TRUE(static_cast<bool>(program))
      << llvm::toString(program.takeError());
  std::string written = writeProgram(*program);
  EXPECT_NE(written.find("[[0.0, 0.0, -0.0, 0.0], [0.5, -0.0]]"),
            std::string::npos)
      << written;
}

TEST(JsonZeroNumbersTest, TreespecJsonReadsThemAsZero) {
  rapidjson::Document doc;
  llvm::Error error = parseBoundedJson(
      "[0e308, -0e400, 0.0000000000000000000000000, 1.5]", 16, "context", doc);
  ASSERT_FALSE(static_cast<bool>(error)) << llvm::toString(std::move(error));
  ASSERT_TRUE(doc.IsArray());
  ASSERT_EQ(doc.Size(), 4u);
  EXPECT_EQ(doc[0].GetDouble(), 0.0);
  EXPECT_FALSE(std::signbit(doc[0].GetDouble()));
  EXPECT_EQ(doc[1].GetDouble(), 0.0);
  EXPECT_TRUE(std::signbit(doc[1].GetDouble()));
  EXPECT_EQ(doc[2].GetDouble(), 0.0);
  EXPECT_EQ(doc[3].GetDouble(), 1.5);
}

} // namespace
