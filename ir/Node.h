//===- Node.h - One call in a graph ------------------------------*- C++ -*-===//
//
// A Node is one `call_function` of the serialized graph: a target string
// (`torch.ops.aten.add.Tensor`, `_operator.mul`, `torch.ops.higher_order.cond`,
// `#ns:op`), named input arguments, output arguments that define values,
// string metadata, and the optional fields of the schema's Node struct.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_IR_NODE_H
#define PT2IR_IR_NODE_H

#include "pt2ir/ir/Argument.h"
#include "pt2ir/ir/ExtraFields.h"
#include "pt2ir/ir/UnbackedBindings.h"
#include "llvm/ADT/ilist_node.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <vector>

namespace pt2ir {

class Graph;

/// NamedArgument: a schema argument name, the argument, and how it was passed.
struct NamedArgument {
  llvm::StringRef name;
  Argument arg;
  /// ArgumentKind as stored (`kind`), or none when the file omitted it / wrote null.
  std::optional<int64_t> kind;
  ExtraFields extras;
  bool isKeyword() const { return kind && *kind == 2; }
};

/// Ordered string-to-string metadata (Node.metadata, GraphModule.metadata).
/// Keys and values are interned: stack traces repeat across many nodes.
using StringPairs = std::vector<std::pair<llvm::StringRef, llvm::StringRef>>;

/// Looks up `key` in ordered metadata.
std::optional<llvm::StringRef> lookupMetadata(const StringPairs &md, llvm::StringRef key);
/// Sets `key` (appending when new, keeping its place otherwise).
void setMetadata(StringPairs &md, llvm::StringRef key, llvm::StringRef value);

/// A call node.
class Node : public llvm::ilist_node<Node> {
public:
  llvm::StringRef getTarget() const { return target; }
  void setTarget(llvm::StringRef t) { target = t; }

  /// Node.name as stored; absent in files before schema 8.16.
  std::optional<llvm::StringRef> getStoredName() const { return name; }
  void setStoredName(std::optional<llvm::StringRef> n) { name = n; }
  /// The name to show: the stored one, else the first output's value name,
  /// else the target's last component.
  llvm::StringRef getName() const;

  const std::vector<NamedArgument> &getInputs() const { return inputs; }
  const std::vector<Argument> &getOutputs() const { return outputs; }
  /// Finds an input by schema argument name.
  const NamedArgument *findInput(llvm::StringRef argName) const;

  /// Values this node defines, in output order.
  std::vector<Value *> getResults() const;
  /// The value of a node with exactly one defined value, else null.
  Value *getSingleResult() const;
  /// True when no defined value has a use.
  bool hasNoUses() const;

  /// Replaces input `i`'s argument; the new slots are resolved in this
  /// node's graph.
  llvm::Error setInput(unsigned i, Argument arg);

  StringPairs &getMetadata() { return metadata; }
  const StringPairs &getMetadata() const { return metadata; }

  std::optional<bool> getIsHopSingleTensorReturn() const { return isHopSingleTensorReturn; }
  void setIsHopSingleTensorReturn(std::optional<bool> v) { isHopSingleTensorReturn = v; }

  ExtraFields &getExtras() { return extras; }
  const ExtraFields &getExtras() const { return extras; }

  Graph *getGraph() const { return graph; }

  /// Subgraphs passed as as_graph inputs (cond branches, map bodies).
  std::vector<Graph *> getSubgraphs() const;

  /// Calls `fn` on every operand slot of the inputs.
  void forEachOperand(llvm::function_ref<void(Use *)> fn) const;

  /// Position in the graph; valid after Graph::renumber().
  unsigned getOrder() const { return order; }

  /// Unbacked symbols this node's value binds first, in match order. Derived
  /// data: never serialized, recomputed by recomputeUnbackedBindings().
  const std::vector<SymbolBinding> &getUnbackedBindings() const {
    return unbackedBindings;
  }
  void setUnbackedBindings(std::vector<SymbolBinding> bindings) {
    unbackedBindings = std::move(bindings);
  }

private:
  friend class Graph;
  Node() = default;

  llvm::StringRef target;
  std::vector<NamedArgument> inputs;
  std::vector<Argument> outputs;
  StringPairs metadata;
  std::optional<bool> isHopSingleTensorReturn;
  std::optional<llvm::StringRef> name;
  ExtraFields extras;
  Graph *graph = nullptr;
  unsigned order = 0;
  std::vector<SymbolBinding> unbackedBindings;
};

/// What a node is made from; Graph::createNode turns it into a Node.
struct NodeSpec {
  llvm::StringRef target;
  std::vector<NamedArgument> inputs;
  std::vector<Argument> outputs;
  StringPairs metadata;
  std::optional<bool> isHopSingleTensorReturn;
  std::optional<llvm::StringRef> name;
  ExtraFields extras;
};

} // namespace pt2ir

#endif
