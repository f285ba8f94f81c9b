//===- OpEffects.h - Which nodes may be erased when unused ------*- C++ -*-===//
//
// Purity queries for dead-code elimination and other cleanups. A node is
// pure when erasing it (once nothing reads its outputs) cannot change what
// the program does. The answer comes from the operator schema where there is
// one (a `!` alias annotation means an argument is written; the
// `nondeterministic_seeded` tag marks random ops), from fixed lists of
// side-effecting functions (asserts, profiler ranges, grad mode and autocast
// switches, setitem), and, for higher-order ops, from their subgraphs.
// Targets nothing here knows are impure: keeping a node is always safe.
//
// Deliberately not here: alias or memory analysis beyond the schema
// annotations, and any graph rewriting.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_PASSES_OPEFFECTS_H
#define PT2IR_PASSES_OPEFFECTS_H

#include "pt2ir/ir/Graph.h"
#include "pt2ir/ir/Registry.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <memory>

namespace pt2ir {

/// Why a node must stay even when nothing reads it; `None` means pure.
enum class NodeEffect : uint8_t {
  /// Pure: erasable once unused.
  None,
  /// The schema writes an argument (`Tensor(a!)`): in-place and out= ops.
  MutatesArgument,
  /// The node defines no value, so it exists only for what it does.
  NoOutputs,
  /// A runtime check (`_assert_scalar`, `_assert_async`,
  /// `_assert_tensor_metadata`, `sym_constrain_range*`, `torch._assert`).
  Assert,
  /// On the side-effect list: profiler ranges, grad mode and autocast
  /// switches, `setitem`, `call_torchbind`, `with_effects`, token users.
  SideEffect,
  /// A random op (`nondeterministic_seeded`) under a keep-random policy.
  Random,
  /// A target without a schema that is not a known builtin or higher-order
  /// op.
  UnknownTarget,
  /// A higher-order op whose subgraphs hold an impure node.
  ImpureBody,
};

/// A short description of `effect` ("mutates an argument").
llvm::StringRef describeNodeEffect(NodeEffect effect);

/// The knobs of the purity test.
struct EffectsPolicy {
  /// Treat runtime asserts as pure (so unused asserts can be erased).
  bool assertsArePure = false;
  /// Treat random ops (`nondeterministic_seeded`) as impure.
  bool randomIsImpure = false;
  /// Treat a higher-order op as impure when its subgraphs hold an impure
  /// node (upstream went back and forth on this, so it is a switch).
  bool hopImpureBodies = true;
};

/// Deepest subgraph nesting the queries look into; deeper bodies are taken
/// to be impure.
constexpr unsigned kMaxEffectsSubgraphDepth = 256;

/// Answers purity questions, caching per target string and per subgraph.
/// One instance per thread; it borrows `registry` (usually the program's,
/// `ep.getRegistry()`) and the graphs it is asked about, which must not
/// change their nodes' targets while it is in use.
class OpEffects {
public:
  explicit OpEffects(const Registry &registry, EffectsPolicy policy = {});
  ~OpEffects();

  const EffectsPolicy &getPolicy() const { return policy; }

  /// Why `node` must stay when unused, or NodeEffect::None.
  NodeEffect getEffect(const Node &node);
  bool isPure(const Node &node) { return getEffect(node) == NodeEffect::None; }

  /// The effect implied by a target string alone (the schema and the fixed
  /// lists), ignoring the node's outputs and subgraphs.
  NodeEffect getTargetEffect(llvm::StringRef target);

  /// True when `graph`, or a subgraph nested in it, holds an impure node.
  bool graphHasEffects(const Graph &graph);

  /// True for the runtime-check targets that `assertsArePure` covers.
  static bool isAssertTarget(llvm::StringRef target);
  /// True for `torch.ops.higher_order.*`.
  static bool isHigherOrderTarget(llvm::StringRef target);

private:
  NodeEffect computeTargetEffect(llvm::StringRef target) const;
  NodeEffect computeOpOverloadEffect(llvm::StringRef target) const;
  bool graphHasEffects(const Graph &graph, unsigned depth);
  NodeEffect getEffect(const Node &node, unsigned depth);

  EffectsPolicy policy;
  const OperatorRegistry &operators;
  llvm::DenseMap<llvm::StringRef, NodeEffect> targetCache;
  llvm::DenseMap<const Graph *, bool> graphCache;
};

} // namespace pt2ir

#endif
