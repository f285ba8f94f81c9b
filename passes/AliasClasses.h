//===- AliasClasses.h - Which values may share memory -----------*- C++ -*-===//
//
// A conservative may-alias partition of the values of a graph, from the
// operator schemas: a result annotated `Tensor(a)` joins the class of the
// argument annotated with the same set (views, in-place ops). A class is
// "mutated" when a schema writes (`Tensor(a!)`) one of its values or a
// node with an unknown effect reads one; it "holds a graph input" when one
// of its values is an input of the graph.
//
// Used by cse (never merge values someone writes) and remove-noops (never
// turn a copy of a written value into an alias, never make an output alias
// an input). Not here: anything finer than the schema annotations.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_PASSES_ALIASCLASSES_H
#define PT2IR_PASSES_ALIASCLASSES_H

#include "pt2ir/ir/Graph.h"
#include "pt2ir/ir/OperatorRegistry.h"
#include "pt2ir/passes/OpEffects.h"

#include "llvm/ADT/DenseMap.h"

namespace pt2ir {

/// Union-find over the values of graphs with per-class flags.
class AliasClasses {
public:
  /// Adds the classes of `graph`'s values (not its subgraphs').
  void addGraph(const Graph &graph, const OperatorRegistry &operators,
                OpEffects &effects);

  /// Puts `a` and `b` in one class.
  void join(const Value *a, const Value *b);
  /// True when a value that may share memory with `v` is written.
  bool isMutated(const Value *v) { return flags.lookup(find(v)).mutated; }
  /// True when `v` may share memory with an input of its graph.
  bool mayAliasGraphInput(const Value *v) {
    return flags.lookup(find(v)).graphInput;
  }

private:
  struct Flags {
    bool mutated = false;
    bool graphInput = false;
  };
  const Value *find(const Value *v);

  llvm::DenseMap<const Value *, const Value *> parent;
  llvm::DenseMap<const Value *, Flags> flags;
};

} // namespace pt2ir

#endif
