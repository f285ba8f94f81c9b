//===- RecomputeUnbackedBindings.cpp - Pass wrapper -----------------------===//
//
// recompute-unbacked-bindings: recomputes which node (or graph input) binds
// each unbacked symbol, for the top-level graph and every subgraph, and
// stores the result in the IR (see ir/UnbackedBindings.h). The driver and
// the pass manager already do this after reading and after every pass that
// changes the graph; the pass exists to run it explicitly in a pipeline and
// to fail a pipeline on a program whose unbacked symbols are not all bound
// before use.
//
// It changes nothing but the derived bindings, and reports a change only when
// they differ from what was stored. Statistic `bindings`: how many bindings
// the program has afterwards.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/ir/ExportedProgram.h"
#include "pt2ir/ir/UnbackedBindings.h"
#include "pt2ir/passes/Pass.h"
#include "pt2ir/passes/Passes.h"

namespace pt2ir {
namespace {

/// Counts the stored bindings of `g` and its subgraphs.
int64_t countBindings(const Graph &g, unsigned depth = 0) {
  int64_t count = static_cast<int64_t>(g.getInputBindings().size());
  for (const Node &n : g.getNodes()) {
    count += static_cast<int64_t>(n.getUnbackedBindings().size());
    // recomputeUnbackedBindings has already refused deeper nesting.
    if (depth < 256)
      for (const Graph *sub : n.getSubgraphs())
        count += countBindings(*sub, depth + 1);
  }
  return count;
}

class RecomputeUnbackedBindingsPass final : public Pass {
public:
  llvm::StringRef getName() const override {
    return "recompute-unbacked-bindings";
  }

  llvm::Expected<bool> run(ExportedProgram &ep, PassContext &) override {
    bool changed = false;
    if (auto err = recomputeUnbackedBindings(ep, &changed))
      return err;
    addStatistic("bindings", countBindings(ep.getGraph()));
    return changed;
  }
};

} // namespace

std::unique_ptr<Pass> createRecomputeUnbackedBindingsPass() {
  return std::make_unique<RecomputeUnbackedBindingsPass>();
}

} // namespace pt2ir
