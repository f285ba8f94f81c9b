//===- DCETest.cpp - Tests for dead-code elimination and OpEffects --------===//
//
// Covers what dce erases (dead chains to a fixed point, dead multi-output
// nodes, dead random ops, pure higher-order ops, dead nodes inside
// subgraphs) and what it keeps (graph inputs and outputs, ops that write an
// argument, no-output ops, asserts and their conditions, side-effecting and
// unknown targets, higher-order ops with impure bodies), its options, its
// statistics, linear running time on long chains and wide fans, the
// nesting cap, and concurrent use.
//
//===----------------------------------------------------------------------===//

#include "PassTestPrograms.h"

#include "pt2ir/ir/OperatorRegistry.h"
#include "pt2ir/ir/UnbackedBindings.h"
#include "pt2ir/passes/DeadCodeElimination.h"
#include "pt2ir/passes/OpEffects.h"
#include "pt2ir/passes/PassRegistry.h"
#include "pt2ir/serde/ProgramWriter.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

using namespace pt2ir;
using namespace pt2ir::testing;

namespace {

using Inputs = std::vector<std::pair<std::string, std::string>>;

std::string unary(const std::string &op, const std::string &in,
                  const std::string &out, const std::string &metadata = "{}") {
  return nodeJson("torch.ops.aten." + op, {{"self", tensorArg(in)}},
                  {tensorArg(out)}, out, metadata);
}

/// Runs dce with `options`; returns the `nodes-erased` statistic (-1 on error).
int64_t runDCE(ExportedProgram &ep, const PassOptions &options = {},
               bool *changed = nullptr) {
  return runPassForStatistic(ep, "dce", "nodes-erased", options, changed);
}

TEST(DCETest, ErasesADeadChainInOneRunAndKeepsInputsAndOutputs) {
  GraphSpec g;
  g.inputs = {"x", "y"};
  g.nodes = {unary("relu.default", "x", "relu"),
             unary("neg.default", "x", "neg"),
             unary("exp.default", "neg", "exp"),
             nodeJson("torch.ops.aten.mul.Tensor",
                      {{"self", tensorArg("exp")}, {"other", tensorArg("exp")}},
                      {tensorArg("mul")}, "mul")};
  g.outputs = {"relu"};
  g.f32({"x", "y", "relu", "neg", "exp", "mul"});
  ExportedProgram ep = readOrFail(programJson(g));
  bool changed = false;
  EXPECT_EQ(runDCE(ep, {}, &changed), 3);
  EXPECT_TRUE(changed);
  EXPECT_EQ(nodeNames(ep.getGraph()), std::vector<std::string>{"relu"});
  // The unused input y stays, and the signature still matches the graph.
  ASSERT_EQ(ep.getGraph().getInputs().size(), 2u);
  EXPECT_EQ(ep.graphModule.signature.inputSpecs.size(), 2u);
  EXPECT_EQ(ep.getGraph().getOutputs().size(), 1u);
  // Erased values leave the tensor table.
  EXPECT_EQ(ep.getGraph().getTableEntries(ValueTable::Tensor).size(), 3u);
  EXPECT_EQ(writeProgram(ep).find("\"neg\""), std::string::npos);

  // A second run finds nothing.
  EXPECT_EQ(runDCE(ep, {}, &changed), 0);
  EXPECT_FALSE(changed);
}

TEST(DCETest, LeavesTheMetadataOfSurvivorsAlone) {
  GraphSpec g;
  g.inputs = {"x"};
  g.nodes = {
      unary(
          "relu.default", "x", "relu",
          R"({"stack_trace": "File \"m.py\", line 3", "nn_module_stack": "L__self__,,M"})"),
      unary("neg.default", "x", "neg")};
  g.outputs = {"relu"};
  g.f32({"x", "relu", "neg"});
  ExportedProgram ep = readOrFail(programJson(g));
  const Node &relu = ep.getGraph().getNodes().front();
  StringPairs before = relu.getMetadata();
  ASSERT_EQ(runDCE(ep), 1);
  EXPECT_EQ(ep.getGraph().getNodes().front().getMetadata(), before);
  EXPECT_EQ(ep.getGraph().getNodes().front().getMetadata().size(), 2u);
}

TEST(DCETest, KeepsOpsThatWriteAnArgumentAndWhatTheyRead) {
  GraphSpec g;
  g.inputs = {"x", "y"};
  g.nodes = {unary("sin.default", "y", "sin"),
             nodeJson("torch.ops.aten.add_.Tensor",
                      {{"self", tensorArg("x")}, {"other", tensorArg("sin")}},
                      {tensorArg("add_")}, "add_"),
             nodeJson("torch.ops.aten.neg.out",
                      {{"self", tensorArg("y")}, {"out", tensorArg("x")}},
                      {tensorArg("neg_out")}, "neg_out"),
             unary("cos.default", "y", "cos")};
  g.outputs = {"y"};
  g.f32({"x", "y", "sin", "add_", "neg_out", "cos"});
  ExportedProgram ep = readOrFail(programJson(g, "{}", R"(["TRAINING"])"));
  EXPECT_EQ(runDCE(ep), 1);
  EXPECT_EQ(nodeNames(ep.getGraph()),
            (std::vector<std::string>{"sin", "add_", "neg_out"}));
}

/// x: f32[s0]; ge = s0 >= 4; _assert_scalar(ge); sym_constrain_range_for_size.
ExportedProgram assertProgram() {
  GraphSpec g;
  g.inputs = {"x"};
  g.nodes = {
      nodeJson("torch.ops.aten.sym_size.int",
               {{"self", tensorArg("x")}, {"dim", intArg(0)}},
               {symIntArg("sym_size_int")}, "sym_size_int"),
      nodeJson("_operator.ge",
               {{"a", symIntArg("sym_size_int")}, {"b", intArg(4)}},
               {symBoolArg("ge")}, "ge"),
      nodeJson("torch.ops.aten._assert_scalar.default",
               {{"self", symBoolArg("ge")},
                {"assert_msg", stringArg("Runtime assertion failed for "
                                         "expression s0 >= 4 on node 'ge'")}},
               {}, "_assert_scalar_default"),
      nodeJson("torch.ops.aten.sym_constrain_range_for_size.default",
               {{"size", symIntArg("sym_size_int")}}, {},
               "sym_constrain_range_for_size_default"),
      unary("relu.default", "x", "relu")};
  g.outputs = {"relu"};
  g.tensors = {{"x", tensorMeta({"s0"})}, {"relu", tensorMeta({"s0"})}};
  g.symInts = {{"sym_size_int", "s0"}};
  g.symBools = {{"ge", "s0 >= 4"}};
  return readOrFail(
      programJson(g, R"({"s0": {"min_val": 4, "max_val": null}})"));
}

TEST(DCETest, KeepsAssertsAndTheConditionsTheyRead) {
  ExportedProgram ep = assertProgram();
  EXPECT_EQ(runDCE(ep), 0);
  EXPECT_EQ(ep.getGraph().size(), 5u);
}

TEST(DCETest, RemoveAssertsAlsoErasesTheirConditions) {
  ExportedProgram ep = assertProgram();
  auto pass = createPass(*Registry::getDefault(), "dce", {{"remove-asserts", "true"}});
  ASSERT_TRUE(bool(pass)) << llvm::toString(pass.takeError());
  PassContext ctx;
  auto changed = (*pass)->run(ep, ctx);
  ASSERT_TRUE(bool(changed));
  EXPECT_TRUE(*changed);
  EXPECT_EQ(nodeNames(ep.getGraph()), std::vector<std::string>{"relu"});
  EXPECT_EQ((*pass)->getStatistics().at("nodes-erased"), 4);
  EXPECT_EQ((*pass)->getStatistics().at("asserts-erased"), 2);
}

TEST(DCETest, RandomOpsArePureUnlessKeepRandom) {
  GraphSpec g;
  g.inputs = {"x"};
  g.nodes = {unary("bernoulli.default", "x", "bernoulli"),
             unary("relu.default", "x", "relu")};
  g.outputs = {"relu"};
  g.f32({"x", "bernoulli", "relu"});
  ExportedProgram erased = readOrFail(programJson(g));
  EXPECT_EQ(runDCE(erased), 1);
  ExportedProgram kept = readOrFail(programJson(g));
  EXPECT_EQ(runDCE(kept, {{"keep-random", "true"}}), 0);
  EXPECT_EQ(kept.getGraph().size(), 2u);
}

TEST(DCETest, UnknownTargetsStayAndSchemasDecideForCustomOps) {
  GraphSpec g;
  g.inputs = {"x"};
  g.nodes = {nodeJson("torch.ops.mylib.scale.default", {{"x", tensorArg("x")}},
                      {tensorArg("scale")}, "scale"),
             nodeJson("torch.ops.mylib.log_tensor.default",
                      {{"x", tensorArg("x")}}, {}, "log_tensor"),
             unary("relu", "x", "packet"), // no overload: not resolvable
             nodeJson("mymodule.helper", {{"a", tensorArg("x")}},
                      {tensorArg("helper")}, "helper"),
             unary("relu.default", "x", "relu")};
  g.outputs = {"relu"};
  g.f32({"x", "scale", "packet", "helper", "relu"});
  ExportedProgram unknown = readOrFail(programJson(g, "{}", "[]"));
  EXPECT_EQ(runDCE(unknown), 0);

  auto registry = std::make_shared<Registry>();
  ASSERT_FALSE(bool(registry->getOperators().registerSchema(
      "mylib::scale(Tensor x) -> Tensor")));
  ASSERT_FALSE(bool(registry->getOperators().registerSchema(
      "mylib::log_tensor(Tensor x) -> ()")));
  ExportedProgram known = readOrFail(programJson(g, "{}", "[]"), registry);
  EXPECT_EQ(runDCE(known, {}), 1);
  EXPECT_EQ(
      nodeNames(known.getGraph()),
      (std::vector<std::string>{"log_tensor", "packet", "helper", "relu"}));
}

TEST(DCETest, AMultiOutputNodeDiesOnlyWhenNoOutputIsRead) {
  GraphSpec g;
  g.inputs = {"x"};
  g.nodes = {
      nodeJson("torch.ops.aten.var_mean.correction", {{"self", tensorArg("x")}},
               {tensorArg("var_mean_unused_0"), tensorArg("getitem")},
               "var_mean"),
      nodeJson(
          "torch.ops.aten.var_mean.correction", {{"self", tensorArg("x")}},
          {tensorArg("var_mean_1_unused_0"), tensorArg("var_mean_1_unused_1")},
          "var_mean_1"),
      unary("relu.default", "getitem", "relu")};
  g.outputs = {"relu"};
  g.f32({"x", "var_mean_unused_0", "getitem", "var_mean_1_unused_0",
         "var_mean_1_unused_1", "relu"});
  ExportedProgram ep = readOrFail(programJson(g));
  EXPECT_EQ(runDCE(ep), 1);
  EXPECT_EQ(nodeNames(ep.getGraph()),
            (std::vector<std::string>{"var_mean", "relu"}));
}

/// A cond over `x` with the given branch nodes (each branch reads x_1 and
/// returns `trueOut` / `sin`).
std::string condNode(const std::string &name, const std::string &out,
                     const std::vector<std::string> &trueNodes,
                     const std::string &trueOut,
                     const std::vector<std::string> &trueTensors) {
  GraphSpec t;
  t.inputs = {"x_1"};
  t.nodes = trueNodes;
  t.outputs = {trueOut};
  t.f32(trueTensors).f32({"x_1"});
  GraphSpec f;
  f.inputs = {"x_1"};
  f.nodes = {unary("sin.default", "x_1", "sin")};
  f.outputs = {"sin"};
  f.f32({"x_1", "sin"});
  return nodeJson("torch.ops.higher_order.cond",
                  {{"", tensorArg("pred")},
                   {"", graphArg("true_graph_" + name, t.json())},
                   {"", graphArg("false_graph_" + name, f.json())},
                   {"", R"({"as_tensors": [{"name": "x"}]})"}},
                  {tensorArg(out)}, name);
}

std::string hopProgram() {
  std::vector<std::string> pure = {
      unary("cos.default", "x_1", "cos"),
      unary("exp.default", "x_1", "dead_in_branch")};
  std::vector<std::string> impure = {
      unary("cos.default", "x_1", "cos"),
      nodeJson(
          "torch.ops.aten._assert_async.msg",
          {{"self", tensorArg("x_1")}, {"assert_msg", stringArg("checked")}},
          {}, "_assert_async_msg")};
  GraphSpec g;
  g.inputs = {"x", "pred"};
  g.nodes = {
      condNode("cond", "getitem", pure, "cos", {"cos", "dead_in_branch"}),
      condNode("cond_1", "getitem_1", pure, "cos", {"cos", "dead_in_branch"}),
      condNode("cond_2", "getitem_2", impure, "cos", {"cos"})};
  g.outputs = {"getitem"};
  g.f32({"x", "pred", "getitem", "getitem_1", "getitem_2"});
  return programJson(g);
}

TEST(DCETest, HigherOrderOpsWithImpureBodiesStayByDefault) {
  ExportedProgram ep = readOrFail(hopProgram());
  // cond_1 (unused, pure) and the dead exp inside cond's used branch go.
  EXPECT_EQ(runDCE(ep), 2);
  EXPECT_EQ(nodeNames(ep.getGraph()),
            (std::vector<std::string>{"cond", "cond_2"}));
  std::vector<Graph *> branches =
      ep.getGraph().getNodes().front().getSubgraphs();
  ASSERT_EQ(branches.size(), 2u);
  EXPECT_EQ(nodeNames(*branches[0]), std::vector<std::string>{"cos"});
}

TEST(DCETest, HopImpureBodiesFalseErasesThemToo) {
  ExportedProgram ep = readOrFail(hopProgram());
  EXPECT_EQ(runDCE(ep, {{"hop-impure-bodies", "false"}}), 3);
  EXPECT_EQ(nodeNames(ep.getGraph()), std::vector<std::string>{"cond"});
}

TEST(DCETest, BadOptionsAreErrorsThatListTheOptions) {
  auto bad = createPass(*Registry::getDefault(), "dce", {{"remove-assert", "true"}});
  ASSERT_FALSE(bool(bad));
  EXPECT_EQ(llvm::toString(bad.takeError()),
            "pass 'dce' has no option 'remove-assert'; its options are: "
            "remove-asserts, "
            "keep-random, hop-impure-bodies");
  auto value = createPass(*Registry::getDefault(), "dce", {{"keep-random", "yes"}});
  ASSERT_FALSE(bool(value));
  EXPECT_EQ(
      llvm::toString(value.takeError()),
      "pass 'dce': option 'keep-random' expects true or false, got 'yes'");
}

/// nonzero(x) binds u0 through its size; `zeros` mentions u0 in its
/// metadata without reading nonzero.
std::string unbackedProgram(const std::string &output) {
  GraphSpec g;
  g.inputs = {"x"};
  g.nodes = {nodeJson("torch.ops.aten.nonzero.default",
                      {{"self", tensorArg("x")}}, {tensorArg("nonzero")},
                      "nonzero"),
             nodeJson("torch.ops.aten.zeros.default",
                      {{"size", R"({"as_ints": [3]})"}}, {tensorArg("zeros")},
                      "zeros"),
             nodeJson("torch.ops.aten.relu.default", {{"self", tensorArg("x")}},
                      {tensorArg("relu")}, "relu")};
  g.outputs = {output};
  g.tensors = {{"x", tensorMeta({"2"})},
               {"nonzero", tensorMeta({"u0", "1"}, {"1", "1"})},
               {"zeros", tensorMeta({"u0"})},
               {"relu", tensorMeta({"2"})}};
  return programJson(g, "{}", "[]");
}

TEST(DCETest, KeepsTheBinderOfAnUnbackedSymbolWhileItIsMentioned) {
  ExportedProgram ep = readOrFail(unbackedProgram("zeros"));
  EXPECT_EQ(runDCE(ep), 1); // relu only.
  EXPECT_EQ(nodeNames(ep.getGraph()),
            (std::vector<std::string>{"nonzero", "zeros"}));
  EXPECT_FALSE(bool(recomputeUnbackedBindings(ep)));

  // Once the last mention is gone, the binder goes too.
  ExportedProgram dead = readOrFail(unbackedProgram("relu"));
  EXPECT_EQ(runDCE(dead), 2);
  EXPECT_EQ(nodeNames(dead.getGraph()), std::vector<std::string>{"relu"});
  EXPECT_FALSE(bool(recomputeUnbackedBindings(dead)));
}

//===----------------------------------------------------------------------===//
// Programs built through the IR API: long chains, wide fans, deep nesting.
//===----------------------------------------------------------------------===//

/// Appends `target(operands...) -> out` to `g`.
Node *append(Graph &g, llvm::StringRef target,
             const std::vector<std::string> &operands, const std::string &out) {
  IRContext &ctx = g.getContext();
  NodeSpec spec;
  spec.target = ctx.intern(target);
  for (const std::string &op : operands)
    spec.inputs.push_back(
        NamedArgument{ctx.intern("self"), Argument::tensor(ctx, op), 1, {}});
  spec.outputs.push_back(Argument::tensor(ctx, out));
  spec.name = ctx.intern(out);
  auto node = g.appendNode(std::move(spec));
  if (!node) {
    ADD_FAILURE() << llvm::toString(node.takeError());
    return nullptr;
  }
  return *node;
}

double secondsToErase(Graph &g, int64_t expected) {
  OpEffects effects(*Registry::getDefault());
  auto start = std::chrono::steady_clock::now();
  auto stats = eliminateDeadCode(g, effects);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  EXPECT_TRUE(bool(stats));
  if (stats)
    EXPECT_EQ(stats->nodesErased, expected);
  else
    llvm::consumeError(stats.takeError());
  return seconds;
}

TEST(DCETest, ErasesALongDeadChainInLinearTime) {
  constexpr int n = 200000;
  ExportedProgram ep;
  Graph &g = ep.getGraph();
  ASSERT_FALSE(bool(g.addInput(Argument::tensor(ep.getContext(), "x"))));
  std::string prev = "x";
  for (int i = 0; i < n; ++i) {
    std::string name = "n" + std::to_string(i);
    ASSERT_NE(append(g, "torch.ops.aten.neg.default", {prev}, name), nullptr);
    prev = name;
  }
  ASSERT_FALSE(bool(g.addOutput(Argument::tensor(ep.getContext(), "x"))));
  double seconds = secondsToErase(g, n);
  std::printf("erased %d chained nodes in %.3f s\n", n, seconds);
  EXPECT_TRUE(g.empty());
  // Linear work is a few tens of milliseconds; a rescan per erased node
  // would be 10^10 steps.
  EXPECT_LT(seconds, 5.0);
}

TEST(DCETest, ErasesAWideFanWithoutRescanning) {
  // One producer read by n dead consumers, each read twice by nothing.
  constexpr int n = 100000;
  ExportedProgram ep;
  Graph &g = ep.getGraph();
  ASSERT_FALSE(bool(g.addInput(Argument::tensor(ep.getContext(), "x"))));
  ASSERT_NE(append(g, "torch.ops.aten.neg.default", {"x"}, "hub"), nullptr);
  for (int i = 0; i < n; ++i)
    ASSERT_NE(append(g, "torch.ops.aten.mul.Tensor", {"hub", "hub"},
                     "m" + std::to_string(i)),
              nullptr);
  ASSERT_FALSE(bool(g.addOutput(Argument::tensor(ep.getContext(), "x"))));
  EXPECT_LT(secondsToErase(g, n + 1), 5.0);
  EXPECT_TRUE(g.empty());
}

/// Nests `depth` conds, each one's true branch holding the next.
std::unique_ptr<Graph> nestedBranch(IRContext &ctx, unsigned depth) {
  auto g = std::make_unique<Graph>(ctx);
  EXPECT_FALSE(bool(g->addInput(Argument::tensor(ctx, "a"))));
  if (depth > 0) {
    NodeSpec spec;
    spec.target = ctx.intern("torch.ops.higher_order.cond");
    spec.inputs.push_back(
        NamedArgument{ctx.intern(""), Argument::tensor(ctx, "a"), 1, {}});
    spec.inputs.push_back(NamedArgument{
        ctx.intern(""),
        Argument::graph(ctx.intern("t"), nestedBranch(ctx, depth - 1)),
        1,
        {}});
    spec.outputs.push_back(Argument::tensor(ctx, "r"));
    EXPECT_TRUE(bool(g->appendNode(std::move(spec))));
    EXPECT_FALSE(bool(g->addOutput(Argument::tensor(ctx, "r"))));
  } else {
    EXPECT_FALSE(bool(g->addOutput(Argument::tensor(ctx, "a"))));
  }
  return g;
}

TEST(DCETest, RefusesSubgraphsNestedBeyondTheCap) {
  ExportedProgram shallow;
  shallow.graphModule.graph = nestedBranch(shallow.getContext(), 20);
  OpEffects effects(*Registry::getDefault());
  auto ok = eliminateDeadCode(shallow.getGraph(), effects);
  ASSERT_TRUE(bool(ok)) << llvm::toString(ok.takeError());
  EXPECT_EQ(ok->subgraphsVisited, 20);

  ExportedProgram deep;
  deep.graphModule.graph =
      nestedBranch(deep.getContext(), kMaxDeadCodeSubgraphDepth + 5);
  auto err = eliminateDeadCode(deep.getGraph(), effects);
  ASSERT_FALSE(bool(err));
  EXPECT_EQ(llvm::toString(err.takeError()),
            "dce: subgraphs nested deeper than 256 levels");
}

TEST(DCETest, SeparateProgramsCanBeCleanedConcurrently) {
  std::vector<std::thread> threads;
  std::vector<int64_t> erased(4, -1);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < 20; ++round) {
        ExportedProgram ep = readOrFail(hopProgram());
        erased[t] = runDCE(ep);
      }
    });
  for (std::thread &th : threads)
    th.join();
  EXPECT_EQ(erased, std::vector<int64_t>(4, 2));
}

//===----------------------------------------------------------------------===//
// OpEffects on its own.
//===----------------------------------------------------------------------===//

TEST(OpEffectsTest, ClassifiesTargets) {
  OpEffects effects(*Registry::getDefault());
  auto effect = [&](llvm::StringRef target) {
    return effects.getTargetEffect(target);
  };
  EXPECT_EQ(effect("torch.ops.aten.relu.default"), NodeEffect::None);
  EXPECT_EQ(effect("torch.ops.aten.add_.Tensor"), NodeEffect::MutatesArgument);
  EXPECT_EQ(effect("torch.ops.aten.add.out"), NodeEffect::MutatesArgument);
  // Autogen out variants are real mutable ops; name heuristics would fail on
  // the dunder ops either way.
  EXPECT_EQ(effect("torch.ops.aten.uniform.out"), NodeEffect::MutatesArgument);
  EXPECT_EQ(effect("torch.ops.aten.__iand__.Tensor"),
            NodeEffect::MutatesArgument);
  EXPECT_EQ(effect("torch.ops.aten.__and__.Tensor"), NodeEffect::None);
  EXPECT_EQ(effect("torch.ops.aten._assert_scalar.default"),
            NodeEffect::Assert);
  EXPECT_EQ(effect("torch.ops.aten._assert_async.msg"), NodeEffect::Assert);
  EXPECT_EQ(effect("torch.ops.aten._assert_tensor_metadata.default"),
            NodeEffect::Assert);
  EXPECT_EQ(effect("torch.ops.aten.sym_constrain_range.default"),
            NodeEffect::Assert);
  EXPECT_EQ(effect("torch.ops.profiler._record_function_enter_new.default"),
            NodeEffect::SideEffect);
  EXPECT_EQ(effect("torch.ops.profiler._record_function_exit._RecordFunction"),
            NodeEffect::SideEffect);
  EXPECT_EQ(effect("_operator.setitem"), NodeEffect::SideEffect);
  EXPECT_EQ(effect("_operator.iadd"), NodeEffect::SideEffect);
  EXPECT_EQ(effect("_operator.add"), NodeEffect::None);
  EXPECT_EQ(effect("_operator.getitem"), NodeEffect::None);
  EXPECT_EQ(effect("math.trunc"), NodeEffect::None);
  EXPECT_EQ(effect("torch.sym_max"), NodeEffect::None);
  EXPECT_EQ(effect("torch._C._set_grad_enabled"), NodeEffect::SideEffect);
  EXPECT_EQ(effect("torch.amp.autocast_mode._enter_autocast"),
            NodeEffect::SideEffect);
  EXPECT_EQ(effect("torch.amp.autocast_mode._exit_autocast"),
            NodeEffect::SideEffect);
  EXPECT_EQ(effect("torch.ops.higher_order.call_torchbind"),
            NodeEffect::SideEffect);
  EXPECT_EQ(effect("torch.ops.higher_order.with_effects"),
            NodeEffect::SideEffect);
  EXPECT_EQ(effect("torch.ops.higher_order.triton_kernel_wrapper_mutation"),
            NodeEffect::MutatesArgument);
  EXPECT_EQ(effect("torch.ops.higher_order.cond"), NodeEffect::None);
  EXPECT_EQ(effect("torch.ops.higher_order.some_new_hop"),
            NodeEffect::UnknownTarget);
  EXPECT_EQ(effect("torch.ops.mylib.op.default"), NodeEffect::UnknownTarget);
  EXPECT_EQ(effect("#foo:bar"), NodeEffect::UnknownTarget);
  EXPECT_EQ(effect("builtins.print"), NodeEffect::UnknownTarget);
  // Random ops are pure by default.
  EXPECT_EQ(effect("torch.ops.aten.rand.default"), NodeEffect::None);
}

TEST(OpEffectsTest, PolicyChangesAssertsAndRandomOps) {
  EffectsPolicy policy;
  policy.assertsArePure = true;
  policy.randomIsImpure = true;
  OpEffects effects(*Registry::getDefault(), policy);
  EXPECT_EQ(effects.getTargetEffect("torch.ops.aten._assert_scalar.default"),
            NodeEffect::None);
  EXPECT_EQ(effects.getTargetEffect("torch.ops.aten.rand.default"),
            NodeEffect::Random);
  EXPECT_EQ(effects.getTargetEffect("torch.ops.aten.bernoulli.default"),
            NodeEffect::Random);
  EXPECT_EQ(effects.getTargetEffect("torch.ops.aten.relu.default"),
            NodeEffect::None);
}

TEST(OpEffectsTest, NodeLevelEffects) {
  ExportedProgram ep = assertProgram();
  OpEffects effects(*Registry::getDefault());
  std::vector<NodeEffect> got;
  for (const Node &n : ep.getGraph().getNodes())
    got.push_back(effects.getEffect(n));
  EXPECT_EQ(got, (std::vector<NodeEffect>{
                     NodeEffect::None, NodeEffect::None, NodeEffect::Assert,
                     NodeEffect::Assert, NodeEffect::None}));
  EXPECT_EQ(describeNodeEffect(NodeEffect::MutatesArgument),
            "mutates an argument");

  ExportedProgram hop = readOrFail(hopProgram());
  std::vector<NodeEffect> hops;
  for (const Node &n : hop.getGraph().getNodes())
    hops.push_back(effects.getEffect(n));
  EXPECT_EQ(hops, (std::vector<NodeEffect>{NodeEffect::None, NodeEffect::None,
                                           NodeEffect::ImpureBody}));
}

} // namespace
