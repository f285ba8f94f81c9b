//===- StreamingReaderTest.cpp - The fast reader agrees with the DOM one --===//
//
// readProgram tries serde/StreamingReader first and falls back to the DOM
// reader. These tests check that the fast path is taken for canonical
// programs and that, on the corpus and on thousands of mutations of it
// (truncations, byte replacements, insertions, legacy and rare forms), both
// readers reach the same outcome: the same error message, or programs that
// write the same bytes, print the same text and have the same use counts.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/serde/StreamingReader.h"
#include "pt2ir/ir/Printer.h"
#include "pt2ir/serde/ProgramReader.h"
#include "pt2ir/serde/ProgramWriter.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <gtest/gtest.h>

using namespace pt2ir;

namespace {

const char *const CorpusFiles[] = {"buffer_mutation.json",
                                   "cnn.json",
                                   "dyn_mlp.json",
                                   "dyn_mlp_str_expr.json",
                                   "gpt_d2.json",
                                   "lstm.json",
                                   "mlp.json",
                                   "ops_zoo.json"};

std::string corpus(llvm::StringRef name) {
  auto buf = llvm::MemoryBuffer::getFile(std::string(PT2IR_TEST_DIR) +
                                         "/corpus/" + name.str());
  EXPECT_TRUE(bool(buf)) << name.str();
  return buf ? (*buf)->getBuffer().str() : std::string();
}

/// Everything observable about a program: its JSON, its text form and how
/// many uses each value has.
std::string fingerprint(const ExportedProgram &ep) {
  std::string out = writeProgram(ep);
  llvm::raw_string_ostream os(out);
  os << "\n";
  printProgram(os, ep);
  const Graph &g = ep.getGraph();
  for (Value *v : g.getInputValues())
    os << v->getName() << ":" << v->getNumUses() << " ";
  for (const Node &n : g.getNodes())
    for (Value *v : n.getResults())
      os << v->getName() << ":" << v->getNumUses() << " ";
  return out;
}

/// Reads `json` with and without the fast path; returns "error: <message>"
/// or the fingerprint, after checking both readers agree.
std::string readBothWays(const std::string &json, const std::string &what) {
  ReadOptions fast, dom;
  dom.useStreamingReader = false;
  auto a = readProgram(json, fast);
  auto b = readProgram(json, dom);
  std::string ra =
      a ? fingerprint(*a) : "error: " + llvm::toString(a.takeError());
  std::string rb =
      b ? fingerprint(*b) : "error: " + llvm::toString(b.takeError());
  EXPECT_EQ(ra, rb) << "readers disagree on " << what;
  return ra;
}

TEST(StreamingReader, TakesTheFastPathForCanonicalPrograms) {
  unsigned fastCount = 0;
  for (const char *name : CorpusFiles) {
    std::string json = corpus(name);
    if (readProgramStreaming(json, ReadOptions()))
      ++fastCount;
  }
  // gpt_d2, mlp, cnn and dyn_mlp use nothing the fast path leaves out.
  for (const char *name :
       {"gpt_d2.json", "mlp.json", "cnn.json", "dyn_mlp.json"})
    EXPECT_TRUE(readProgramStreaming(corpus(name), ReadOptions()).has_value())
        << name;
  EXPECT_GE(fastCount, 4u);
}

TEST(StreamingReader, AgreesWithTheDomReaderOnTheCorpus) {
  for (const char *name : CorpusFiles) {
    std::string json = corpus(name);
    std::string result = readBothWays(json, name);
    EXPECT_EQ(llvm::StringRef(result).take_front(json.size()), json) << name;
  }
}

TEST(StreamingReader, GivesUpOnWhatItDoesNotHandle) {
  std::string json = corpus("mlp.json");
  auto variant = [&](llvm::StringRef from, llvm::StringRef to) {
    size_t at = json.find(from.str());
    EXPECT_NE(at, std::string::npos) << from.str();
    std::string v = json;
    v.replace(at, from.size(), to.str());
    return v;
  };
  // Each is a valid program the DOM reader accepts, in a non-canonical form.
  for (const std::string &v : {
           variant("\"kind\": 1}", "\"kind\": 1, \"extra\": [1]}"),
           variant("{\"as_int\": 64}", "64"),
           variant("\"graph_module\": {", " \"graph_module\" :{"),
           variant("\"torch_version\": \"2.9.0\", ", ""),
       }) {
    std::string result = readBothWays(v, v.substr(0, 40));
    EXPECT_EQ(result.rfind("error: ", 0), std::string::npos)
        << result.substr(0, 200);
  }
  EXPECT_FALSE(readProgramStreaming(
      variant("\"kind\": 1}", "\"kind\": 1, \"extra\": [1]}"), ReadOptions()));
  EXPECT_FALSE(readProgramStreaming(variant("\"major\": 8", "\"major\": 7"),
                                    ReadOptions()));
}

TEST(StreamingReader, DecodesEscapesAsTheDomReaderDoes) {
  std::string json = corpus("mlp.json");
  for (llvm::StringRef escaped : {"\"get\\u0069tem\\u00e9\\u4e2d\\/\\t\"",
                                  "\"a\\\"b\\\\c\\n\"", "\"\\ud83d\\ude00\""}) {
    std::string v = json;
    size_t at = v.find("\"nn_module_stack\": ");
    ASSERT_NE(at, std::string::npos);
    at += std::strlen("\"nn_module_stack\": ");
    size_t end = v.find('"', at + 1);
    v.replace(at, end + 1 - at, escaped.str());
    readBothWays(v, escaped.str());
  }
}

TEST(StreamingReader, AgreesOnTruncatedInputs) {
  std::string json = corpus("mlp.json");
  for (size_t n = 0; n < json.size(); n += 37)
    readBothWays(json.substr(0, n), "truncated at " + std::to_string(n));
}

TEST(StreamingReader, AgreesOnReplacedBytes) {
  std::string json = corpus("mlp.json");
  const char Replacements[] = {'"', '}', ']',    ',', '1', 'x', '\\',
                               ' ', '-', '\x80', 'e', '.', '0', 'n'};
  for (size_t at = 0; at < json.size(); at += 71) {
    for (char c : Replacements) {
      std::string v = json;
      v[at] = c;
      readBothWays(v, "byte " + std::to_string(at) + " replaced by " +
                          std::to_string(int(c)));
    }
  }
}

TEST(StreamingReader, AgreesOnInsertions) {
  std::string json = corpus("dyn_mlp.json");
  const char *const Insertions[] = {"\"zz\": 1, ", " ", "\\u00e9", "null",
                                    "{}",          "0", "\n"};
  for (size_t at = 0; at < json.size(); at += 97) {
    for (const char *ins : Insertions) {
      std::string v = json;
      v.insert(at, ins);
      readBothWays(v,
                   std::string("insert ") + ins + " at " + std::to_string(at));
    }
  }
}

TEST(StreamingReader, AgreesOnNumbersAndSpecialFloats) {
  std::string json = corpus("mlp.json");
  size_t at = json.find("\"dtype\": 7");
  ASSERT_NE(at, std::string::npos);
  for (const char *dtype :
       {"7", "-0", "07", "7.0", "7e0", "9223372036854775807",
        "9223372036854775808", "-9223372036854775808", "1e400", "99"}) {
    std::string v = json;
    v.replace(at, std::strlen("\"dtype\": 7"),
              std::string("\"dtype\": ") + dtype);
    readBothWays(v, std::string("dtype ") + dtype);
  }
  std::string gpt = corpus("gpt_d2.json");
  size_t f = gpt.find("\"as_float\": 1e-05");
  ASSERT_NE(f, std::string::npos);
  for (const char *value :
       {"1e-05", "1E-5", "0.1", "-0.0", "5", "123456789012345678901234567890",
        "2.2250738585072011e-308", "4.9e-324", "1.7976931348623157e308",
        "\"Infinity\"", "\"-Infinity\"", "\"NaN\"", "\"inf\"", "NaN",
        "-Infinity", "\"1.5\"", "0.30000000000000004"}) {
    std::string v = gpt;
    v.replace(f, std::strlen("\"as_float\": 1e-05"),
              std::string("\"as_float\": ") + value);
    readBothWays(v, std::string("float ") + value);
  }
}

} // namespace

TEST(StreamingReader, ReportsHowFarItHasRead) {
  std::string json = corpus("gpt_d2.json");
  std::vector<size_t> offsets;
  ReadOptions options;
  options.onInputReadEvery = 4096;
  options.onInputRead = [&](size_t bytes) { offsets.push_back(bytes); };
  auto ep = readProgramStreaming(json, options);
  ASSERT_TRUE(ep.has_value());
  ASSERT_GT(offsets.size(), json.size() / 2 / 8192) << "called every 4 KiB of nodes";
  for (size_t i = 0; i < offsets.size(); ++i) {
    EXPECT_LT(offsets[i], json.size());
    if (i) {
      EXPECT_GE(offsets[i], offsets[i - 1] + 4096);
    }
  }
  EXPECT_EQ(writeProgram(*ep), writeProgram(*readProgramStreaming(json, ReadOptions())));
}
