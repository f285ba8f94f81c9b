//===- CommonSubexpressionElimination.cpp - Merge equal nodes -------------===//
//
// The `cse` pass: a node that calls the same target on the same arguments as
// an earlier node of its graph is replaced by that earlier node, whose name
// and metadata survive. Arguments are compared structurally
// (rewrite/StructuralKey.h): the same values in the same slots, equal
// constants, and for higher-order ops structurally equal subgraphs.
//
// What may merge comes from the operator schemas (passes/OpEffects.h): only
// pure nodes, never random ops (`nondeterministic_seeded`), asserts, ops
// whose results alias an input (`Tensor(a)` returns: views), nodes whose
// results bring a new unbacked symbol (`nonzero`, `item`: each call binds
// its own), nothing with side effects, and no node whose results may share
// memory with a value some op writes (passes/AliasClasses.h): two fresh
// `zeros` are equal until one is written in place. A node that writes
// memory or has an unknown effect also ends the stretch in which earlier
// nodes can be reused, since the values they read may have changed.
//
// Subgraphs are processed first, each on its own (their values are local),
// so bodies that differ only by duplicates compare equal afterwards.
//
// Not here: commutativity (`add(a, b)` vs `add(b, a)`), constant folding,
// and merging across graphs.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/passes/AliasClasses.h"
#include "pt2ir/passes/OpEffects.h"
#include "pt2ir/passes/PassRegistry.h"
#include "pt2ir/passes/Passes.h"
#include "pt2ir/rewrite/StructuralKey.h"
#include "pt2ir/rewrite/ValueReplacer.h"

#include "pt2ir/ir/OperatorRegistry.h"
#include "pt2ir/ir/OperatorSchema.h"
#include "pt2ir/ir/SymbolicExpr.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"

namespace pt2ir {

namespace {

/// Deepest subgraph nesting cse descends into.
constexpr unsigned kMaxCseDepth = 256;

struct CseStats {
  int64_t nodesMerged = 0;
  int64_t keptForEffects = 0;
};

/// True when `text` names an unbacked symbol (`u0`, `zuf1`).
bool mentionsUnbacked(llvm::StringRef text) {
  bool found = false;
  sym::forEachIdentifier(text, [&](llvm::StringRef word) {
    found = found || sym::isUnbackedSymbol(word);
  });
  return found;
}

bool symMentionsUnbacked(const SymValue *s) {
  return s && s->isExpr() && mentionsUnbacked(s->expr.exprStr);
}

/// True when a result of `node` has an unbacked symbol in its metadata.
bool resultsMentionUnbacked(const Node &node) {
  for (const Value *v : node.getResults()) {
    if (const TensorMeta *tm = v->getTensorMeta()) {
      for (const SymValue &s : tm->sizes)
        if (symMentionsUnbacked(&s))
          return true;
      for (const SymValue &s : tm->strides)
        if (symMentionsUnbacked(&s))
          return true;
      if (symMentionsUnbacked(&tm->storageOffset))
        return true;
    }
    if (symMentionsUnbacked(v->getSymMeta()))
      return true;
  }
  return false;
}

class Cse {
public:
  Cse(ExportedProgram &ep, CseStats &stats)
      : ep(ep), operators(ep.getRegistry().getOperators()),
        effects(ep.getRegistry(), policy()), stats(stats), replacer(ep) {}

  llvm::Error run(Graph &graph, unsigned depth) {
    if (depth > kMaxCseDepth)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "cse: subgraphs nested deeper than " +
                                         llvm::Twine(kMaxCseDepth) + " levels");
    for (Node &n : graph.getNodes())
      for (Graph *body : n.getSubgraphs())
        if (auto err = run(*body, depth + 1))
          return err;

    aliases.addGraph(graph, operators, effects);
    llvm::StringMap<Node *> seen;
    std::string key;
    for (auto it = graph.begin(); it != graph.end();) {
      Node &node = *it++;
      NodeEffect effect = effects.getEffect(node);
      if (effect != NodeEffect::None) {
        ++stats.keptForEffects;
        if (isBarrier(effect))
          seen.clear();
        continue;
      }
      if (!isMergeable(node))
        continue;
      key.clear();
      appendText(key, node.getTarget());
      for (const NamedArgument &in : node.getInputs()) {
        appendText(key, in.name);
        appendArgumentKey(key, in.arg, appendValueIdentity);
      }
      auto [entry, inserted] = seen.try_emplace(key, &node);
      if (inserted || !sameResultShape(*entry->second, node))
        continue;
      if (auto err = replace(node, *entry->second))
        return err;
      if (auto err = graph.eraseNode(&node))
        return err;
      ++stats.nodesMerged;
    }
    return llvm::Error::success();
  }

private:
  static EffectsPolicy policy() {
    EffectsPolicy p;
    p.randomIsImpure = true;
    p.hopImpureBodies = true;
    return p;
  }

  static void appendText(std::string &key, llvm::StringRef text) {
    key += std::to_string(text.size());
    key += ':';
    key += text;
  }

  /// Effects after which an earlier node's result may differ from a
  /// recomputation: memory writes and anything not known.
  static bool isBarrier(NodeEffect effect) {
    switch (effect) {
    case NodeEffect::None:
    case NodeEffect::Assert:
    case NodeEffect::Random:
      return false;
    default:
      return true;
    }
  }

  bool isMergeable(const Node &node) {
    if (node.getResults().empty())
      return false;
    if (const OperatorSchema *schema = operators.lookupTarget(node.getTarget()))
      for (const SchemaReturn &ret : schema->returns())
        if (ret.Alias)
          return false;
    for (const Value *v : node.getResults())
      if (aliases.isMutated(v))
        return false;
    return !resultsMentionUnbacked(node);
  }

  static bool sameResultShape(const Node &a, const Node &b) {
    std::vector<Value *> ra = a.getResults(), rb = b.getResults();
    if (ra.size() != rb.size() || a.getOutputs().size() != b.getOutputs().size())
      return false;
    for (size_t i = 0; i < ra.size(); ++i)
      if (ra[i]->getType() != rb[i]->getType())
        return false;
    return true;
  }

  llvm::Error replace(Node &dup, Node &first) {
    std::vector<Value *> from = dup.getResults(), to = first.getResults();
    bool topLevel = dup.getGraph() == &ep.getGraph();
    for (size_t i = 0; i < from.size(); ++i) {
      if (!topLevel) {
        from[i]->replaceAllUsesWith(to[i]);
        continue;
      }
      if (auto err = replacer.replaceAllUsesWith(from[i], to[i]))
        return err;
    }
    return llvm::Error::success();
  }

  ExportedProgram &ep;
  const OperatorRegistry &operators;
  OpEffects effects;
  CseStats &stats;
  ValueReplacer replacer;
  AliasClasses aliases;
};

class CommonSubexpressionEliminationPass final : public Pass {
public:
  llvm::StringRef getName() const override { return "cse"; }

  llvm::Expected<bool> run(ExportedProgram &ep, PassContext &) override {
    CseStats stats;
    Cse cse(ep, stats);
    if (auto err = cse.run(ep.getGraph(), 0))
      return err;
    addStatistic("nodes-merged", stats.nodesMerged);
    addStatistic("nodes-kept-for-effects", stats.keptForEffects);
    return stats.nodesMerged > 0;
  }
};

} // namespace

std::unique_ptr<Pass> createCommonSubexpressionEliminationPass() {
  return std::make_unique<CommonSubexpressionEliminationPass>();
}

} // namespace pt2ir
