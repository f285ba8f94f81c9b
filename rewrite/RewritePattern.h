//===- RewritePattern.h - Patterns and the greedy driver --------*- C++ -*-===//
//
// Pattern rewriting, modelled on MLIR's: a RewritePattern looks at one root
// node and, when it matches, rewrites the graph through a PatternRewriter
// (a Builder that can also replace and erase nodes). Each pattern has a
// benefit; where several patterns apply to one node, the one with the
// highest benefit is tried first.
//
//   class FoldDoubleNeg : public RewritePattern {
//   public:
//     FoldDoubleNeg() : RewritePattern("torch.ops.aten.neg.default", 1) {}
//     llvm::Expected<bool> matchAndRewrite(Node &root,
//                                          PatternRewriter &r) const override;
//   };
//   RewritePatternSet patterns;
//   patterns.add<FoldDoubleNeg>();
//   auto result = applyPatternsGreedily(ep, patterns);
//
// applyPatternsGreedily sweeps every graph of a program (subgraphs
// included) and tries the patterns on each node, repeating the sweeps until
// one changes nothing (a fixed point) or a bound on sweeps is reached, and
// says whether anything changed and whether it converged.
//
// Not here: the declarative patterns read from files
// (rewrite/DeclarativePattern.h), dead-code removal (the dce pass), and
// any notion of legality or conversion targets.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_REWRITE_REWRITEPATTERN_H
#define PT2IR_REWRITE_REWRITEPATTERN_H

#include "pt2ir/ir/ExportedProgram.h"
#include "pt2ir/rewrite/Builder.h"
#include "pt2ir/rewrite/ValueReplacer.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace pt2ir {

/// A Builder positioned in one graph of a program that can also replace
/// values and erase nodes, keeping the program's signature in step.
class PatternRewriter : public Builder {
public:
  PatternRewriter(ExportedProgram &ep, Graph &graph, ValueReplacer &replacer);

  ExportedProgram &getProgram() const { return ep; }

  /// Makes every use of `from` read `to`; for the top-level graph the
  /// signature follows (rewrite/ValueReplacer.h).
  llvm::Error replaceAllUsesWith(Value *from, Value *to);

  /// Replaces the results of `node`, in order, by `values` and erases it.
  llvm::Error replaceNode(Node &node, llvm::ArrayRef<Value *> values);

  /// Erases `node`, which must have no uses left.
  llvm::Error eraseNode(Node &node);

  /// True when `node` was erased through this rewriter.
  bool wasErased(const Node *node) const { return erased.contains(node); }

private:
  ExportedProgram &ep;
  ValueReplacer &replacer;
  llvm::DenseSet<const Node *> erased;
};

/// One rewrite: matches at a root node and rewrites through the rewriter.
class RewritePattern {
public:
  /// A pattern tried on nodes whose target is `rootTarget` (a serialized
  /// target; empty: every node), with `benefit` ordering it among the
  /// patterns for the same node (higher first).
  RewritePattern(llvm::StringRef root, unsigned patternBenefit,
                 llvm::StringRef patternName = "")
      : rootTarget(root.str()), benefit(patternBenefit),
        name(patternName.str()) {}
  virtual ~RewritePattern();

  llvm::StringRef getRootTarget() const { return rootTarget; }
  unsigned getBenefit() const { return benefit; }
  /// A name for statistics and provenance (`from_node` records).
  llvm::StringRef getName() const { return name; }

  /// Tries the pattern at `root`. Returns true after rewriting, false when
  /// it does not match, in which case the graph must be unchanged. The
  /// rewriter's insertion point is just before `root`. A pattern may erase
  /// `root` and nodes before it, never nodes after it.
  virtual llvm::Expected<bool> matchAndRewrite(Node &root,
                                               PatternRewriter &rewriter) const = 0;

private:
  std::string rootTarget;
  unsigned benefit;
  std::string name;
};

/// An owning list of patterns.
class RewritePatternSet {
public:
  template <typename PatternT, typename... Args>
  RewritePatternSet &add(Args &&...args) {
    patterns.push_back(std::make_unique<PatternT>(std::forward<Args>(args)...));
    return *this;
  }
  RewritePatternSet &add(std::unique_ptr<RewritePattern> pattern) {
    patterns.push_back(std::move(pattern));
    return *this;
  }
  const std::vector<std::unique_ptr<RewritePattern>> &getPatterns() const {
    return patterns;
  }
  bool empty() const { return patterns.empty(); }
  size_t size() const { return patterns.size(); }

private:
  std::vector<std::unique_ptr<RewritePattern>> patterns;
};

/// The knobs of applyPatternsGreedily.
struct GreedyRewriteConfig {
  /// The most sweeps over the program; reaching it without a fixed point is
  /// reported as `converged = false`, not as an error.
  unsigned maxIterations = 10;
  /// Also rewrite inside subgraphs (cond branches, map bodies).
  bool recurseIntoSubgraphs = true;
};

/// What applyPatternsGreedily did.
struct GreedyRewriteResult {
  /// Some pattern rewrote something.
  bool changed = false;
  /// The last sweep changed nothing.
  bool converged = false;
  /// Sweeps made.
  unsigned iterations = 0;
  /// Successful matchAndRewrite calls.
  unsigned rewrites = 0;
  /// Successful rewrites per pattern, in the set's order.
  std::vector<unsigned> rewritesPerPattern;
};

/// Applies `patterns` to every node of `ep` until nothing matches or
/// `config.maxIterations` sweeps were made. An error from a pattern stops
/// the driver and is returned.
llvm::Expected<GreedyRewriteResult>
applyPatternsGreedily(ExportedProgram &ep, const RewritePatternSet &patterns,
                      const GreedyRewriteConfig &config = {});

} // namespace pt2ir

#endif
