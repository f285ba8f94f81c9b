//===- DeadCodeElimination.h - Erase unused pure nodes ----------*- C++ -*-===//
//
// Dead-code elimination as a utility for other passes; the `dce` pass
// (registered in passes/PassRegistry.def) is a thin wrapper around it.
//
// A node is dead when none of its outputs is read (by a node, a graph
// output, or through them the signature) and OpEffects says it is pure.
// Erasing a node can make its operands' producers dead; a worklist keyed by
// each node's remaining use count finds them without rescanning, so the
// whole run is linear in nodes plus uses (plus one scan of the metadata
// text). The node that first mentions an unbacked symbol binds it, so it
// also stays while another node still mentions that symbol. Graph inputs and
// outputs are never touched, so the signature stays consistent; surviving nodes
// keep their metadata. Subgraphs of surviving higher-order ops are cleaned too.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_PASSES_DEADCODEELIMINATION_H
#define PT2IR_PASSES_DEADCODEELIMINATION_H

#include "pt2ir/ir/Graph.h"
#include "pt2ir/passes/OpEffects.h"
#include "llvm/Support/Error.h"
#include <cstdint>

namespace pt2ir {

/// What one elimination run erased.
struct DeadCodeStats {
  /// Every erased node, subgraph nodes included (nodes inside an erased
  /// higher-order op's subgraphs are not counted separately).
  int64_t nodesErased = 0;
  /// Erased runtime asserts (only with EffectsPolicy::assertsArePure).
  int64_t assertsErased = 0;
  /// Subgraphs that were visited.
  int64_t subgraphsVisited = 0;
};

/// Subgraphs nested deeper than this are an error.
constexpr unsigned kMaxDeadCodeSubgraphDepth = 256;

/// Erases dead nodes of `graph` and of the subgraphs of its surviving nodes.
/// Fails only on nesting beyond kMaxDeadCodeSubgraphDepth (the graph is
/// then left partly cleaned, but consistent).
llvm::Expected<DeadCodeStats> eliminateDeadCode(Graph &graph,
                                                OpEffects &effects);

} // namespace pt2ir

#endif
