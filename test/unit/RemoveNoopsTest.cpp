//===- RemoveNoopsTest.cpp - Tests for remove-noops -----------------------===//
//
// Covers the shape comparison (static, symbolic in either spelling, and
// syntactically different expressions that are kept apart), the rewiring
// of graph outputs through the signature, and what stays.
//
//===----------------------------------------------------------------------===//

#include "PassTestPrograms.h"

#include "pt2ir/passes/PassRegistry.h"

#include <gtest/gtest.h>

using namespace pt2ir;
using namespace pt2ir::testing;

namespace {

/// Runs remove-noops; returns the `nodes-removed` statistic (-1 on error).
int64_t runRemoveNoops(ExportedProgram &ep) {
  return runPassForStatistic(ep, "remove-noops", "nodes-removed");
}

/// x: f32[<in>]; v = view(x, [-1]) : f32[<out>]; n = neg(v); returns n.
ExportedProgram viewProgram(const std::string &in, const std::string &out) {
  GraphSpec g;
  g.inputs = {"x"};
  g.nodes = {nodeJson("torch.ops.aten.view.default",
                      {{"self", tensorArg("x")}, {"size", R"({"as_ints": [-1]})"}},
                      {tensorArg("v")}, "v"),
             nodeJson("torch.ops.aten.neg.default", {{"self", tensorArg("v")}},
                      {tensorArg("n")}, "n")};
  g.outputs = {"n"};
  g.tensors = {{"x", tensorMeta({in})}, {"v", tensorMeta({out})},
               {"n", tensorMeta({out})}};
  return readOrFail(programJson(
      g, R"({"s0": {"min_val": 2, "max_val": null}})"));
}

TEST(RemoveNoopsTest, ComparesShapesStaticallyOrSymbolically) {
  {
    ExportedProgram ep = viewProgram("6", "6");
    EXPECT_EQ(runRemoveNoops(ep), 1);
    EXPECT_EQ(nodeNames(ep.getGraph()), std::vector<std::string>{"n"});
  }
  {
    ExportedProgram ep = viewProgram("6", "3");
    EXPECT_EQ(runRemoveNoops(ep), 0);
  }
  {
    // One expression in two spellings (plain and srepr) is one shape.
    ExportedProgram ep = viewProgram(
        "2*s0", "Mul(Integer(2), Symbol('s0', positive=True, integer=True))");
    EXPECT_EQ(runRemoveNoops(ep), 1);
  }
  {
    // No algebra: s0 + 1 and 1 + s0 are different trees, so the view stays.
    ExportedProgram ep = viewProgram("s0 + 1", "1 + s0");
    EXPECT_EQ(runRemoveNoops(ep), 0);
  }
  {
    ExportedProgram ep = viewProgram("s0", "6");
    EXPECT_EQ(runRemoveNoops(ep), 0);
  }
}

TEST(RemoveNoopsTest, AGraphOutputFollowsThroughTheSignature) {
  GraphSpec g;
  g.inputs = {"x"};
  g.nodes = {nodeJson("torch.ops.aten.relu.default", {{"self", tensorArg("x")}},
                      {tensorArg("r")}, "r"),
             nodeJson("torch.ops.aten.alias.default", {{"self", tensorArg("r")}},
                      {tensorArg("a")}, "a")};
  g.outputs = {"a"};
  g.f32({"x", "r", "a"});
  ExportedProgram ep = readOrFail(programJson(g));
  EXPECT_EQ(runRemoveNoops(ep), 1);
  ASSERT_EQ(ep.graphModule.signature.outputSpecs.size(), 1u);
  EXPECT_EQ(ep.getGraph().getOutputs()[0].getSingleValue()->getName(), "r");
  std::string name;
  ep.graphModule.signature.outputSpecs[0].arg.forEachUse(
      [&](Use *u) { name = u->getName().str(); });
  EXPECT_EQ(name, "r");
}

TEST(RemoveNoopsTest, KeepsAnOutputThatWouldAliasAnInput) {
  GraphSpec g;
  g.inputs = {"x"};
  g.nodes = {nodeJson("torch.ops.aten.alias.default", {{"self", tensorArg("x")}},
                      {tensorArg("a")}, "a")};
  g.outputs = {"a"};
  g.f32({"x", "a"});
  ExportedProgram ep = readOrFail(programJson(g));
  EXPECT_EQ(runRemoveNoops(ep), 0);
  EXPECT_EQ(ep.getGraph().size(), 1u);
}

} // namespace
