//===- RewritePattern.cpp - Patterns and the greedy driver ----------------===//
//
// The driver sweeps a snapshot of each graph's nodes, so nodes a pattern
// creates are seen on the next sweep, and nodes it erases are skipped by
// pointer (the rewriter records them; erased nodes are never touched).
//
//===----------------------------------------------------------------------===//

#include "pt2ir/rewrite/RewritePattern.h"

#include "llvm/ADT/StringMap.h"

#include <algorithm>

namespace pt2ir {

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

RewritePattern::~RewritePattern() = default;

PatternRewriter::PatternRewriter(ExportedProgram &ep, Graph &graph,
                                 ValueReplacer &replacer)
    : Builder(graph), ep(ep), replacer(replacer) {}

llvm::Error PatternRewriter::replaceAllUsesWith(Value *from, Value *to) {
  if (from && from->getGraph() == &ep.getGraph())
    return replacer.replaceAllUsesWith(from, to);
  if (!from || !to)
    return makeError("replaceAllUsesWith: a value is null");
  if (from->getGraph() != to->getGraph())
    return makeError("cannot replace '" + from->getName() + "' with '" +
                     to->getName() + "': they belong to different graphs");
  if (from->getType() != to->getType())
    return makeError("cannot replace " + valueTypeName(from->getType()) + " '" +
                     from->getName() + "' with " + valueTypeName(to->getType()) +
                     " '" + to->getName() + "'");
  from->replaceAllUsesWith(to);
  return llvm::Error::success();
}

llvm::Error PatternRewriter::replaceNode(Node &node,
                                         llvm::ArrayRef<Value *> values) {
  std::vector<Value *> results = node.getResults();
  if (results.size() != values.size())
    return makeError("cannot replace node '" + node.getName() + "': it has " +
                     llvm::Twine(results.size()) + " results, " +
                     llvm::Twine(values.size()) + " replacements given");
  for (size_t i = 0; i < results.size(); ++i)
    if (auto err = replaceAllUsesWith(results[i], values[i]))
      return err;
  return eraseNode(node);
}

llvm::Error PatternRewriter::eraseNode(Node &node) {
  if (auto err = node.getGraph()->eraseNode(&node))
    return err;
  erased.insert(&node);
  return llvm::Error::success();
}

namespace {

/// The patterns to try per root target, highest benefit first; the
/// any-target patterns are merged into every list.
class PatternIndex {
public:
  explicit PatternIndex(const RewritePatternSet &set) {
    const auto &all = set.getPatterns();
    for (size_t i = 0; i < all.size(); ++i) {
      if (all[i]->getRootTarget().empty())
        anyTarget.push_back(i);
      else
        byTarget[all[i]->getRootTarget()].push_back(i);
    }
    auto order = [&](std::vector<size_t> &list) {
      std::stable_sort(list.begin(), list.end(), [&](size_t a, size_t b) {
        return all[a]->getBenefit() > all[b]->getBenefit();
      });
    };
    for (auto &entry : byTarget) {
      entry.second.insert(entry.second.end(), anyTarget.begin(), anyTarget.end());
      order(entry.second);
    }
    order(anyTarget);
  }

  llvm::ArrayRef<size_t> lookup(llvm::StringRef target) const {
    auto it = byTarget.find(target);
    return it == byTarget.end() ? llvm::ArrayRef<size_t>(anyTarget)
                                : llvm::ArrayRef<size_t>(it->second);
  }

private:
  llvm::StringMap<std::vector<size_t>> byTarget;
  std::vector<size_t> anyTarget;
};

/// One sweep over `graph` (and its subgraphs); returns whether anything
/// changed.
llvm::Expected<bool> sweep(ExportedProgram &ep, Graph &graph,
                           const RewritePatternSet &set,
                           const PatternIndex &index,
                           const GreedyRewriteConfig &config,
                           GreedyRewriteResult &result, ValueReplacer &replacer,
                           unsigned depth) {
  if (depth > 256)
    return makeError("rewrite: subgraphs nested deeper than 256 levels");
  std::vector<Node *> snapshot;
  snapshot.reserve(graph.size());
  for (Node &n : graph.getNodes())
    snapshot.push_back(&n);
  PatternRewriter rewriter(ep, graph, replacer);
  bool changed = false;
  for (Node *node : snapshot) {
    if (rewriter.wasErased(node))
      continue;
    if (config.recurseIntoSubgraphs)
      for (Graph *body : node->getSubgraphs()) {
        auto inner =
            sweep(ep, *body, set, index, config, result, replacer, depth + 1);
        if (!inner)
          return inner.takeError();
        changed |= *inner;
      }
    for (size_t i : index.lookup(node->getTarget())) {
      const RewritePattern &pattern = *set.getPatterns()[i];
      rewriter.setInsertionPointBefore(node);
      rewriter.setProvenance({node}, pattern.getName());
      auto applied = pattern.matchAndRewrite(*node, rewriter);
      if (!applied)
        return applied.takeError();
      if (!*applied)
        continue;
      changed = true;
      ++result.rewrites;
      ++result.rewritesPerPattern[i];
      break;
    }
  }
  return changed;
}

} // namespace

llvm::Expected<GreedyRewriteResult>
applyPatternsGreedily(ExportedProgram &ep, const RewritePatternSet &patterns,
                      const GreedyRewriteConfig &config) {
  GreedyRewriteResult result;
  result.rewritesPerPattern.assign(patterns.size(), 0);
  if (patterns.empty()) {
    result.converged = true;
    return result;
  }
  PatternIndex index(patterns);
  ValueReplacer replacer(ep);
  while (result.iterations < config.maxIterations) {
    ++result.iterations;
    auto changed =
        sweep(ep, ep.getGraph(), patterns, index, config, result, replacer, 0);
    if (!changed)
      return changed.takeError();
    if (!*changed) {
      result.converged = true;
      break;
    }
    result.changed = true;
  }
  return result;
}

} // namespace pt2ir
