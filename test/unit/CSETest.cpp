//===- CSETest.cpp - Tests for cse and structural keys --------------------===//
//
// Covers what cse merges (equal pure nodes, chains in one run, equal
// higher-order ops), what survives (the first node's name and metadata),
// what it keeps apart (different constants, random ops, views, written
// values), the structural keys it relies on, and linear running time.
//
//===----------------------------------------------------------------------===//

#include "PassTestPrograms.h"

#include "pt2ir/passes/PassRegistry.h"
#include "pt2ir/rewrite/StructuralKey.h"

#include <gtest/gtest.h>

#include <chrono>

using namespace pt2ir;
using namespace pt2ir::testing;

namespace {

std::string unary(const std::string &op, const std::string &in,
                  const std::string &out, const std::string &metadata = "{}") {
  return nodeJson("torch.ops.aten." + op, {{"self", tensorArg(in)}},
                  {tensorArg(out)}, out, metadata);
}

std::string binary(const std::string &op, const std::string &a,
                   const std::string &b, const std::string &out) {
  return nodeJson("torch.ops.aten." + op,
                  {{"self", tensorArg(a)}, {"other", tensorArg(b)}},
                  {tensorArg(out)}, out);
}

/// Runs cse; returns the `nodes-merged` statistic (-1 on error).
int64_t runCSE(ExportedProgram &ep, bool *changed = nullptr) {
  return runPassForStatistic(ep, "cse", "nodes-merged", {}, changed);
}

TEST(CSETest, MergesEqualChainsAndKeepsTheFirstNode) {
  GraphSpec g;
  g.inputs = {"x"};
  g.nodes = {unary("relu.default", "x", "a", R"({"stack_trace": "first"})"),
             unary("relu.default", "x", "b", R"({"stack_trace": "second"})"),
             unary("exp.default", "a", "ea"), unary("exp.default", "b", "eb"),
             binary("mul.Tensor", "ea", "eb", "m")};
  g.outputs = {"m"};
  g.f32({"x", "a", "b", "ea", "eb", "m"});
  ExportedProgram ep = readOrFail(programJson(g));
  bool changed = false;
  EXPECT_EQ(runCSE(ep, &changed), 2);
  EXPECT_TRUE(changed);
  EXPECT_EQ(nodeNames(ep.getGraph()),
            (std::vector<std::string>{"a", "ea", "m"}));
  const Node &first = ep.getGraph().getNodes().front();
  EXPECT_EQ(lookupMetadata(first.getMetadata(), "stack_trace"),
            std::optional<llvm::StringRef>("first"));
  const Node &mul = ep.getGraph().getNodes().back();
  EXPECT_EQ(mul.getInputs()[0].arg.getSingleValue()->getName(), "ea");
  EXPECT_EQ(mul.getInputs()[1].arg.getSingleValue()->getName(), "ea");
  EXPECT_EQ(runCSE(ep, &changed), 0);
  EXPECT_FALSE(changed);
}

TEST(CSETest, KeepsDifferentConstantsRandomOpsAndViewsApart) {
  GraphSpec g;
  g.inputs = {"x"};
  g.nodes = {
      nodeJson("torch.ops.aten.add.Scalar",
               {{"self", tensorArg("x")}, {"other", intArg(1)}},
               {tensorArg("p1")}, "p1"),
      nodeJson("torch.ops.aten.add.Scalar",
               {{"self", tensorArg("x")}, {"other", intArg(2)}},
               {tensorArg("p2")}, "p2"),
      unary("rand_like.default", "x", "r1"),
      unary("rand_like.default", "x", "r2"),
      unary("alias.default", "x", "v1"), unary("alias.default", "x", "v2")};
  g.outputs = {"p1", "p2", "r1", "r2", "v1", "v2"};
  g.f32({"x", "p1", "p2", "r1", "r2", "v1", "v2"});
  ExportedProgram ep = readOrFail(programJson(g));
  EXPECT_EQ(runCSE(ep), 0);
  EXPECT_EQ(ep.getGraph().size(), 6u);
}

TEST(CSETest, NeverMergesAFreshTensorThatIsWritten) {
  GraphSpec g;
  g.inputs = {"x"};
  g.nodes = {unary("clone.default", "x", "c1"),
             unary("clone.default", "x", "c2"),
             binary("add_.Tensor", "c2", "x", "w")};
  g.outputs = {"c1", "w"};
  g.f32({"x", "c1", "c2", "w"});
  ExportedProgram ep = readOrFail(programJson(g, "{}", R"(["TRAINING"])"));
  EXPECT_EQ(runCSE(ep), 0);
}

TEST(CSETest, StructuralKeysCompareSubgraphsByPosition) {
  auto body = [](const std::string &op, const std::string &in) {
    GraphSpec b;
    b.inputs = {in};
    b.nodes = {unary(op, in, "r")};
    b.outputs = {"r"};
    b.f32({in, "r"});
    return b.json();
  };
  auto program = [&](const std::string &op, const std::string &in) {
    GraphSpec g;
    g.inputs = {"x"};
    g.nodes = {nodeJson("torch.ops.higher_order.map_impl",
                        {{"f", graphArg("body", body(op, in))},
                         {"mapped_args", R"({"as_tensors": [{"name": "x"}]})"},
                         {"operands", R"({"as_tensors": []})"}},
                        {tensorArg("m")}, "m")};
    g.outputs = {"m"};
    g.f32({"x", "m"});
    return readOrFail(programJson(g));
  };
  ExportedProgram a = program("relu.default", "p");
  ExportedProgram b = program("relu.default", "q"); // Other names, same shape.
  ExportedProgram c = program("neg.default", "p");
  const Graph &ga = *a.getGraph().getNodes().front().getSubgraphs()[0];
  const Graph &gb = *b.getGraph().getNodes().front().getSubgraphs()[0];
  const Graph &gc = *c.getGraph().getNodes().front().getSubgraphs()[0];
  EXPECT_TRUE(areStructurallyEqual(ga, gb));
  EXPECT_FALSE(areStructurallyEqual(ga, gc));
}

TEST(CSETest, RunsInLinearTimeOnManyDuplicates) {
  auto build = [](unsigned n) {
    GraphSpec g;
    g.inputs = {"x"};
    std::string prev = "x";
    for (unsigned i = 0; i < n; ++i) {
      std::string a = "a" + std::to_string(i), b = "b" + std::to_string(i);
      std::string s = "s" + std::to_string(i);
      g.nodes.push_back(unary("exp.default", prev, a));
      g.nodes.push_back(unary("exp.default", prev, b));
      g.nodes.push_back(binary("add.Tensor", a, b, s));
      g.f32({a, b, s});
      prev = s;
    }
    g.f32({"x"});
    g.outputs = {prev};
    return readOrFail(programJson(g));
  };
  auto time = [&](unsigned n) {
    ExportedProgram ep = build(n);
    auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(runCSE(ep), int64_t(n));
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
        .count();
  };
  double small = time(1000), large = time(4000);
  // Four times the nodes: far less than the 16x a quadratic pass would take.
  EXPECT_LT(large, small * 10 + 0.05);
}

} // namespace
