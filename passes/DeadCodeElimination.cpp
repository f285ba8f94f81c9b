//===- DeadCodeElimination.cpp - Erase unused pure nodes ------------------===//
//
// The worklist algorithm and the `dce` pass with its options.
//
//===----------------------------------------------------------------------===//

#include "passes/DeadCodeElimination.h"
#include "passes/PassRegistry.h"
#include "passes/Passes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

namespace pt2ir {

namespace {

/// Counts, per node of `graph`, the use slots that read one of its values:
/// operands of later nodes and graph outputs.
llvm::DenseMap<const Node *, unsigned> countUses(const Graph &graph) {
  llvm::DenseMap<const Node *, unsigned> uses;
  auto count = [&](Use *u) {
    if (Value *v = u->get())
      if (Node *def = v->getDefiningNode())
        if (def->getGraph() == &graph)
          ++uses[def];
  };
  for (const Node &n : graph.getNodes())
    n.forEachOperand(count);
  for (const Argument &out : graph.getOutputs())
    out.forEachUse(count);
  return uses;
}

llvm::Error eraseDeadNodes(Graph &graph, OpEffects &effects,
                           DeadCodeStats &stats, unsigned depth) {
  if (depth > kMaxDeadCodeSubgraphDepth)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "dce: subgraphs nested deeper than " +
                                       llvm::Twine(kMaxDeadCodeSubgraphDepth) +
                                       " levels");

  llvm::DenseMap<const Node *, unsigned> remainingUses = countUses(graph);
  // Seed with every unused node, last first, so chains die bottom-up.
  llvm::SmallVector<Node *, 64> worklist;
  for (Node &n : llvm::reverse(graph.getNodes()))
    if (!remainingUses.count(&n))
      worklist.push_back(&n);

  llvm::SmallVector<Node *, 8> producers;
  while (!worklist.empty()) {
    Node *node = worklist.pop_back_val();
    if (!node->hasNoUses() || !effects.isPure(*node))
      continue;
    producers.clear();
    node->forEachOperand([&](Use *u) {
      if (Value *v = u->get())
        if (Node *def = v->getDefiningNode())
          if (def->getGraph() == &graph)
            producers.push_back(def);
    });
    bool isAssert = OpEffects::isAssertTarget(node->getTarget());
    if (auto err = graph.eraseNode(node))
      return err; // Unreachable: the node has no uses.
    ++stats.nodesErased;
    if (isAssert)
      ++stats.assertsErased;
    // One entry per operand slot, so a producer read twice is decremented
    // twice and queued once, when its count reaches zero.
    for (Node *def : producers) {
      auto it = remainingUses.find(def);
      if (it == remainingUses.end() || it->second == 0)
        continue;
      if (--it->second == 0)
        worklist.push_back(def);
    }
  }

  for (Node &n : graph.getNodes())
    for (Graph *body : n.getSubgraphs()) {
      ++stats.subgraphsVisited;
      if (auto err = eraseDeadNodes(*body, effects, stats, depth + 1))
        return err;
    }
  return llvm::Error::success();
}

class DeadCodeEliminationPass final : public Pass {
public:
  llvm::StringRef getName() const override { return "dce"; }

  llvm::Error setOptions(const PassOptions &options) override {
    for (const auto &[name, value] : options) {
      auto flag = parseBoolPassOption(getName(), name, value);
      if (!flag)
        return flag.takeError();
      if (name == "remove-asserts")
        policy.assertsArePure = *flag;
      else if (name == "keep-random")
        policy.randomIsImpure = *flag;
      else if (name == "hop-impure-bodies")
        policy.hopImpureBodies = *flag;
      else
        return makeUnknownPassOptionError(getName(), name);
    }
    return llvm::Error::success();
  }

  llvm::Expected<bool> run(ExportedProgram &ep, PassContext &ctx) override {
    OpEffects effects(ctx.registry, policy);
    auto stats = eliminateDeadCode(ep.getGraph(), effects);
    if (!stats)
      return stats.takeError();
    addStatistic("nodes-erased", stats->nodesErased);
    if (policy.assertsArePure)
      addStatistic("asserts-erased", stats->assertsErased);
    return stats->nodesErased > 0;
  }

private:
  EffectsPolicy policy;
};

} // namespace

llvm::Expected<DeadCodeStats> eliminateDeadCode(Graph &graph,
                                                OpEffects &effects) {
  DeadCodeStats stats;
  if (auto err = eraseDeadNodes(graph, effects, stats, 0))
    return err;
  return stats;
}

std::unique_ptr<Pass> createDeadCodeEliminationPass() {
  return std::make_unique<DeadCodeEliminationPass>();
}

} // namespace pt2ir
