//===- DeadCodeElimination.cpp - Erase unused pure nodes ------------------===//
//
// The worklist algorithm and the `dce` pass with its options.
//
// Besides operand uses, one more thing keeps a node alive: the node that
// first mentions an unbacked symbol (`u0`) in its outputs' metadata binds it
// (ir/UnbackedBindings.h), so it stays while any other value of the graph
// still mentions the symbol; otherwise the bindings could not be recomputed.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/passes/DeadCodeElimination.h"
#include "pt2ir/passes/PassRegistry.h"
#include "pt2ir/passes/Passes.h"

#include "pt2ir/ir/SymbolicExpr.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
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

/// Calls `fn(text)` on every expression in the metadata of `v`.
template <typename Fn> void forEachExprText(const Value &v, Fn &&fn) {
  auto visit = [&](const SymValue *s) {
    if (s && s->isExpr())
      fn(s->expr.exprStr);
  };
  if (const TensorMeta *tm = v.getTensorMeta()) {
    for (const SymValue &s : tm->sizes)
      visit(&s);
    for (const SymValue &s : tm->strides)
      visit(&s);
    visit(&tm->storageOffset);
  }
  visit(v.getSymIntMeta());
  visit(v.getSymBoolMeta());
  visit(v.getSymFloatMeta());
}

/// Which node binds each unbacked symbol of one graph and how many other
/// nodes still mention it. A binder is pinned while its count is non-zero.
class UnbackedPins {
public:
  explicit UnbackedPins(const Graph &graph) {
    llvm::StringSet<> boundByInput;
    for (const Value *v : graph.getInputValues())
      forEachExprText(*v, [&](llvm::StringRef text) {
        for (llvm::StringRef u : unbackedTokens(text))
          boundByInput.insert(u);
      });
    for (const Node &n : graph.getNodes()) {
      llvm::SmallVector<llvm::StringRef, 4> mentioned;
      for (const Value *v : n.getResults())
        forEachExprText(*v, [&](llvm::StringRef text) {
          for (llvm::StringRef u : unbackedTokens(text))
            if (!boundByInput.count(u) && !llvm::is_contained(mentioned, u))
              mentioned.push_back(u);
        });
      for (llvm::StringRef u : mentioned) {
        auto [it, first] = symbols.try_emplace(u);
        if (first) {
          it->second.binder = &n;
          continue;
        }
        if (it->second.binder == &n)
          continue;
        ++it->second.mentions;
        mentionsByNode[&n].push_back(u);
      }
    }
    for (const auto &entry : symbols)
      if (entry.second.mentions)
        ++pinCount[entry.second.binder];
  }

  /// True while some other live node mentions a symbol `node` binds.
  bool isPinned(const Node *node) const { return pinCount.count(node); }

  /// Records that `node` is gone; calls `unpinned(binder)` for each binder
  /// whose last mention it was.
  template <typename Fn> void erase(const Node *node, Fn &&unpinned) {
    auto it = mentionsByNode.find(node);
    if (it == mentionsByNode.end())
      return;
    for (llvm::StringRef u : it->second) {
      Symbol &sym = symbols[u];
      if (--sym.mentions != 0)
        continue;
      auto pin = pinCount.find(sym.binder);
      if (--pin->second == 0) {
        pinCount.erase(pin);
        unpinned(const_cast<Node *>(sym.binder));
      }
    }
    mentionsByNode.erase(it);
  }

private:
  struct Symbol {
    const Node *binder = nullptr;
    unsigned mentions = 0;
  };

  /// The unbacked symbol names in an expression text (`u0`, `zuf3`), found
  /// by scanning identifiers, so no expression is parsed. Cached per text.
  llvm::ArrayRef<llvm::StringRef> unbackedTokens(llvm::StringRef text) {
    auto [it, fresh] = tokenCache.try_emplace(text);
    if (!fresh)
      return it->second;
    auto &tokens = it->second;
    sym::forEachIdentifier(text, [&](llvm::StringRef word) {
      if (sym::isUnbackedSymbol(word))
        tokens.push_back(word);
    });
    return tokens;
  }

  llvm::StringMap<Symbol> symbols;
  llvm::DenseMap<const Node *, llvm::SmallVector<llvm::StringRef, 2>>
      mentionsByNode;
  llvm::DenseMap<const Node *, unsigned> pinCount;
  llvm::DenseMap<llvm::StringRef, llvm::SmallVector<llvm::StringRef, 2>>
      tokenCache;
};

llvm::Error eraseDeadNodes(Graph &graph, OpEffects &effects,
                           DeadCodeStats &stats, unsigned depth) {
  if (depth > kMaxDeadCodeSubgraphDepth)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "dce: subgraphs nested deeper than " +
                                       llvm::Twine(kMaxDeadCodeSubgraphDepth) +
                                       " levels");

  llvm::DenseMap<const Node *, unsigned> remainingUses = countUses(graph);
  UnbackedPins pins(graph);
  // Seed with every unused node, last first, so chains die bottom-up. A node
  // is queued at most once at a time; it can come back after being skipped
  // while pinned.
  llvm::SmallVector<Node *, 64> worklist;
  llvm::DenseSet<Node *> queued;
  auto enqueue = [&](Node *n) {
    if (queued.insert(n).second)
      worklist.push_back(n);
  };
  for (Node &n : llvm::reverse(graph.getNodes()))
    if (!remainingUses.count(&n))
      enqueue(&n);

  llvm::SmallVector<Node *, 8> producers;
  while (!worklist.empty()) {
    Node *node = worklist.pop_back_val();
    queued.erase(node);
    if (!node->hasNoUses() || pins.isPinned(node) || !effects.isPure(*node))
      continue;
    producers.clear();
    node->forEachOperand([&](Use *u) {
      if (Value *v = u->get())
        if (Node *def = v->getDefiningNode())
          if (def->getGraph() == &graph)
            producers.push_back(def);
    });
    bool isAssert = OpEffects::isAssertTarget(node->getTarget());
    pins.erase(node, [&](Node *binder) {
      if (binder->hasNoUses())
        enqueue(binder);
    });
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
        enqueue(def);
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

  llvm::Expected<bool> run(ExportedProgram &ep, PassContext &) override {
    OpEffects effects(ep.getRegistry(), policy);
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
