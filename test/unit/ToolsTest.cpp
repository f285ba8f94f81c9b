//===- ToolsTest.cpp - Python names, DOT labels, stats, progress ----------===//
//
// Unit tests for the pieces of tools/lib that the lit tests reach only
// indirectly: identifier mangling and string literals of the Python listing,
// DOT label escaping, element-count expressions and namespaces of the
// statistics, and the Progress line (drawn only when enabled, throttled,
// erased at the end; the first-drawing delay, PT2IR_PROGRESS_DELAY_MS).
//
//===----------------------------------------------------------------------===//

#include "PassTestPrograms.h"

#include "pt2ir/tools/lib/DotEmitter.h"
#include "pt2ir/tools/lib/Progress.h"
#include "pt2ir/tools/lib/PythonEmitter.h"
#include "pt2ir/tools/lib/Stats.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <thread>

using namespace pt2ir;
using namespace pt2ir::testing;

namespace {

TEST(PythonNames, ValidIdentifiers) {
  EXPECT_TRUE(isValidPythonIdentifier("x"));
  EXPECT_TRUE(isValidPythonIdentifier("_1"));
  EXPECT_TRUE(isValidPythonIdentifier("getitem_12"));
  EXPECT_TRUE(isValidPythonIdentifier("match")); // A soft keyword is a name.
  EXPECT_FALSE(isValidPythonIdentifier(""));
  EXPECT_FALSE(isValidPythonIdentifier("1x"));
  EXPECT_FALSE(isValidPythonIdentifier("from"));
  EXPECT_FALSE(isValidPythonIdentifier("None"));
  EXPECT_FALSE(isValidPythonIdentifier("__debug__"));
  EXPECT_FALSE(isValidPythonIdentifier("a-b"));
  EXPECT_FALSE(isValidPythonIdentifier("caf\xc3\xa9"));
}

TEST(PythonNames, Sanitize) {
  EXPECT_EQ(sanitizePythonIdentifier("from"), "from_");
  EXPECT_EQ(sanitizePythonIdentifier("1x"), "_1x");
  EXPECT_EQ(sanitizePythonIdentifier(""), "_");
  EXPECT_EQ(sanitizePythonIdentifier("a.b-c"), "a_b_c");
  EXPECT_EQ(sanitizePythonIdentifier("__debug__"), "__debug___");
  EXPECT_EQ(sanitizePythonIdentifier("True"), "True_");
  for (llvm::StringRef name : {"from", "1x", "", "a b", "lambda", "x\ny"})
    EXPECT_TRUE(isValidPythonIdentifier(sanitizePythonIdentifier(name)))
        << name.str();
}

TEST(PythonNames, TableIsConsistentAndUnique) {
  PythonNameTable table;
  table.reserve("self");
  table.claim("from_");
  table.claim("x");
  table.claim("self"); // Reserved: not claimable.
  EXPECT_EQ(table.lookup("x"), "x");
  EXPECT_EQ(table.lookup("from_"), "from_");
  // `from` mangles onto `from_`, which is taken.
  EXPECT_EQ(table.lookup("from"), "from__1");
  EXPECT_EQ(table.lookup("from"), "from__1");
  EXPECT_EQ(table.lookup("self"), "self_1");
  // Two names that sanitize alike stay apart.
  EXPECT_EQ(table.lookup("a-b"), "a_b");
  EXPECT_EQ(table.lookup("a.b"), "a_b_1");
  EXPECT_EQ(table.fresh("x"), "x_1");
  EXPECT_EQ(table.fresh("x"), "x_2");
  EXPECT_EQ(table.lookup("x"), "x");
}

TEST(PythonNames, StringLiterals) {
  EXPECT_EQ(pythonStringLiteral("plain"), "\"plain\"");
  EXPECT_EQ(pythonStringLiteral(llvm::StringRef("a\"b\\c\nd\r\0e", 10)),
            "\"a\\\"b\\\\c\\nd\\r\\u0000e\"");
  EXPECT_EQ(pythonStringLiteral("caf\xc3\xa9"), "\"caf\\u00e9\"");
}

TEST(PythonEmitter, ListingOfASmallProgram) {
  GraphSpec g;
  g.inputs = {"x"};
  g.nodes = {nodeJson("torch.ops.aten.relu.default", {{"self", tensorArg("x")}},
                      {tensorArg("class")}, "class"),
             nodeJson("torch.ops.aten.add.Tensor",
                      {{"self", tensorArg("class")}, {"other", intArg(1)}},
                      {tensorArg("y")}, "y")};
  g.outputs = {"y"};
  g.f32({"x", "class", "y"});
  ExportedProgram ep = readOrFail(programJson(g));
  std::string out;
  llvm::raw_string_ostream os(out);
  emitPython(os, ep);
  EXPECT_NE(out.find("def forward(self, x):\n"), std::string::npos) << out;
  EXPECT_NE(out.find("    class_ = torch.ops.aten.relu.default(x)  # f32[2]\n"),
            std::string::npos)
      << out;
  EXPECT_NE(
      out.find("    y = torch.ops.aten.add.Tensor(class_, 1)  # f32[2]\n"),
      std::string::npos)
      << out;
  EXPECT_NE(out.find("    return (y,)\n"), std::string::npos) << out;

  EmitOptions noTypes;
  noTypes.showTypes = false;
  std::string bare;
  llvm::raw_string_ostream bos(bare);
  emitPython(bos, ep, noTypes);
  EXPECT_NE(bare.find("    y = torch.ops.aten.add.Tensor(class_, 1)\n"),
            std::string::npos)
      << bare;
}

TEST(DotEmitter, Escaping) {
  EXPECT_EQ(escapeDotString("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
  EXPECT_EQ(escapeDotString(llvm::StringRef("x\0y\x01z", 5)), "xyz");
  // Invalid UTF-8 is repaired rather than passed to Graphviz.
  std::string repaired = escapeDotString("bad\xff");
  EXPECT_EQ(repaired.substr(0, 3), "bad");
  EXPECT_NE(repaired, "bad\xff");
}

TEST(DotEmitter, EveryNodeAndEdgeOfASmallProgram) {
  GraphSpec g;
  g.inputs = {"x"};
  g.nodes = {nodeJson("torch.ops.aten.relu.default", {{"self", tensorArg("x")}},
                      {tensorArg("r")}, "r")};
  g.outputs = {"r"};
  g.f32({"x", "r"});
  ExportedProgram ep = readOrFail(programJson(g));
  std::string out;
  llvm::raw_string_ostream os(out);
  emitDot(os, ep);
  EXPECT_EQ(out.rfind("digraph program {\n", 0), 0u) << out;
  EXPECT_NE(out.find("g0_in0 [label=\"x\\nuser_input\\nf32[2]\""),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("g0_n0 [label=\"r\\naten.relu.default\\nf32[2]\""),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("g0_in0 -> g0_n0;"), std::string::npos) << out;
  EXPECT_NE(out.find("g0_n0 -> g0_out0;"), std::string::npos) << out;
  EXPECT_EQ(out.substr(out.size() - 2), "}\n");
}

TEST(Stats, ElementCounts) {
  // Expressions are StringRefs: give them string literals, which outlive
  // the SymValues.
  auto sizes = [](std::initializer_list<llvm::StringRef> items) {
    std::vector<SymValue> out;
    for (llvm::StringRef s : items) {
      int64_t v;
      if (!s.getAsInteger(10, v))
        out.push_back(SymValue::ofInt(v));
      else
        out.push_back(SymValue::ofExpr(s));
    }
    return out;
  };
  const char *S0 = "s0", *S1 = "s1 + 1", *Bad = "s0 +";
  EXPECT_EQ(elementCountExpr({}), "1");
  EXPECT_EQ(elementCountExpr(sizes({"2", "3"})), "6");
  EXPECT_EQ(elementCountExpr(sizes({"2", "3"}), 4), "24");
  EXPECT_EQ(elementCountExpr(sizes({"0", S0})), "0");
  EXPECT_EQ(elementCountExpr(sizes({S0, "4"})), "4*s0");
  EXPECT_EQ(elementCountExpr(sizes({S0, "4"}), 4), "16*s0");
  EXPECT_EQ(elementCountExpr(sizes({S1, S0})), "(s1 + 1)*s0");
  EXPECT_EQ(elementCountExpr(sizes({"4611686018427387904", "4"})), "")
      << "overflow";
  EXPECT_EQ(elementCountExpr(sizes({Bad})), "") << "unparsable";
}

TEST(Stats, Namespaces) {
  EXPECT_EQ(targetNamespace("torch.ops.aten.add.Tensor"), "aten");
  EXPECT_EQ(targetNamespace("torch.ops.higher_order.cond"), "higher_order");
  EXPECT_EQ(targetNamespace("_operator.add"), "_operator");
  EXPECT_EQ(targetNamespace("math.trunc"), "math");
  EXPECT_EQ(targetNamespace("torch.sym_max"), "torch");
  EXPECT_EQ(targetNamespace("#foo:bar"), "#foo");
}

TEST(Stats, CountsOfACorpusProgram) {
  auto ep = readProgramFile(PT2IR_TEST_DIR "/corpus/mlp.json");
  ASSERT_TRUE(bool(ep)) << llvm::toString(ep.takeError());
  StatsOptions options;
  options.runVerifier = false;
  ProgramStats stats = computeStats(*ep, options);
  EXPECT_EQ(stats.nodeCount, 12u);
  EXPECT_EQ(stats.graphCount, 1u);
  ASSERT_EQ(stats.nodesByNamespace.size(), 1u);
  EXPECT_EQ(stats.nodesByNamespace[0], NamedCount("aten", 12));
  EXPECT_EQ(stats.nodesByOp[0], NamedCount("aten.addmm.default", 4));
  ASSERT_EQ(stats.stateTotals.size(), 1u);
  EXPECT_EQ(stats.stateTotals[0].kind, "parameter");
  // 64*16+64 + 64*64+64 + 32*64+32 + 10*32+10 = 7658 float32 elements.
  EXPECT_EQ(stats.stateTotals[0].elements, "7658");
  EXPECT_EQ(stats.stateTotals[0].bytes, "30632");
  for (const DialectStats &d : stats.dialects)
    EXPECT_FALSE(d.checked);
}

TEST(Progress, SilentWhenDisabled) {
  std::string out;
  llvm::raw_string_ostream os(out);
  {
    Progress p("reading", 100, Progress::Unit::Items, os, /*enabled=*/false);
    std::this_thread::sleep_for(std::chrono::milliseconds(350));
    p.update(50);
    EXPECT_EQ(p.render(), "reading: 50 / 100 (50%)");
  }
  EXPECT_EQ(out, "");
}

TEST(Progress, DrawsAfterADelayAndErasesAtTheEnd) {
  std::string out;
  llvm::raw_string_ostream os(out);
  {
    Progress p("reading x.pt2", 4096, Progress::Unit::Bytes, os,
               /*enabled=*/true);
    p.update(1024);
    EXPECT_EQ(out, "") << "short work draws nothing";
    std::this_thread::sleep_for(std::chrono::milliseconds(350));
    p.update(2048);
    EXPECT_EQ(out, "\rreading x.pt2: 2.0 KiB / 4.0 KiB (50%)");
    p.update(3000); // Within the redraw interval: no drawing.
    EXPECT_EQ(out, "\rreading x.pt2: 2.0 KiB / 4.0 KiB (50%)");
  }
  std::string line = "reading x.pt2: 2.0 KiB / 4.0 KiB (50%)";
  EXPECT_EQ(out, "\r" + line + "\r" + std::string(line.size(), ' ') + "\r");
}

TEST(Progress, ZeroDelayDrawsAtOnce) {
  std::string out;
  llvm::raw_string_ostream os(out);
  Progress p("comparing", 10, Progress::Unit::Items, os, /*enabled=*/true,
             std::chrono::milliseconds(0));
  p.update(10);
  EXPECT_EQ(out, "\rcomparing: 10 / 10 (100%)");
}

TEST(Progress, StagesReplaceTheLineAndMessagesEraseIt) {
  std::string out;
  llvm::raw_string_ostream os(out);
  Progress p("pt2-opt", 0, Progress::Unit::Items, os, /*enabled=*/true,
             std::chrono::milliseconds(0));
  p.setStage("reading big.json");
  EXPECT_EQ(out, "\rreading big.json");
  p.setStage("verifying x"); // Shorter: padded over the old text.
  EXPECT_EQ(out, "\rreading big.json\rverifying x     ");
  out.clear();
  ProgressAwareStream messages(p, os);
  messages << "x: error: bad\n";
  EXPECT_EQ(out, "\r" + std::string(16, ' ') + "\rx: error: bad\n");
  out.clear();
  p.setStage("writing out.json", 2);
  EXPECT_EQ(out, "\rwriting out.json: 0 / 2 (0%)");
  p.finish();
  out.clear();
  p.setStage("after the end");
  p.show();
  EXPECT_EQ(out, "");
}

TEST(Progress, ShowDrawsBeforeTheDelay) {
  std::string out;
  llvm::raw_string_ostream os(out);
  Progress p("reading huge.json (2.0 GiB)", 0, Progress::Unit::Bytes, os,
             /*enabled=*/true);
  p.update(0);
  EXPECT_EQ(out, "");
  p.show();
  EXPECT_EQ(out, "\rreading huge.json (2.0 GiB)");
}

TEST(Progress, DelayFromTheEnvironment) {
  ::setenv("PT2IR_PROGRESS_DELAY_MS", "0", 1);
  EXPECT_EQ(Progress::initialDelayFromEnvironment().count(), 0);
  ::setenv("PT2IR_PROGRESS_DELAY_MS", "1500", 1);
  EXPECT_EQ(Progress::initialDelayFromEnvironment().count(), 1500);
  ::setenv("PT2IR_PROGRESS_DELAY_MS", "soon", 1);
  EXPECT_EQ(Progress::initialDelayFromEnvironment(),
            Progress::DefaultInitialDelay);
  ::unsetenv("PT2IR_PROGRESS_DELAY_MS");
  EXPECT_EQ(Progress::initialDelayFromEnvironment(),
            Progress::DefaultInitialDelay);
}

TEST(Progress, FormatsBytes) {
  EXPECT_EQ(Progress::formatBytes(0), "0 B");
  EXPECT_EQ(Progress::formatBytes(1023), "1023 B");
  EXPECT_EQ(Progress::formatBytes(1536), "1.5 KiB");
  EXPECT_EQ(Progress::formatBytes(uint64_t(3) << 30), "3.0 GiB");
}

} // namespace
