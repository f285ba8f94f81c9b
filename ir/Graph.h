//===- Graph.h - A graph of nodes with its value tables -----------*- C++ -*-===//
//
// The schema's Graph: inputs (definitions), nodes in program order, outputs
// (uses) and the value tables. A Graph resolves names: adding a node links
// each operand to the value of that name and defines the node's outputs;
// a name defined twice or used before any definition is an error.
//
// Subgraphs (as_graph arguments of higher-order ops) are Graphs of their
// own, with local names and tables, owned by the argument that holds them.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_IR_GRAPH_H
#define PT2IR_IR_GRAPH_H

#include "pt2ir/ir/Argument.h"
#include "pt2ir/ir/Node.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/simple_ilist.h"
#include "llvm/Support/Error.h"
#include <array>
#include <memory>
#include <vector>

namespace pt2ir {

class IRContext;

/// The schema's per-graph value tables, in declaration order.
enum class ValueTable : uint8_t { Tensor, SymInt, SymBool, CustomObj, SymFloat };
constexpr unsigned NumValueTables = 5;

class Graph {
public:
  using NodeList = llvm::simple_ilist<Node>;
  using iterator = NodeList::iterator;

  explicit Graph(IRContext &context) : ctx(context) {}
  Graph(const Graph &) = delete;
  Graph &operator=(const Graph &) = delete;
  ~Graph();

  IRContext &getContext() const { return ctx; }

  //===--- Inputs and outputs ---===//
  const std::vector<Argument> &getInputs() const { return inputs; }
  const std::vector<Argument> &getOutputs() const { return outputs; }
  /// Appends a graph input; the values it names are defined here.
  llvm::Error addInput(Argument arg);
  /// Appends a graph output; the values it names must be defined.
  llvm::Error addOutput(Argument arg);
  /// Replaces output `i`.
  llvm::Error setOutput(unsigned i, Argument arg);
  /// The values defined by graph inputs, in order.
  std::vector<Value *> getInputValues() const;

  //===--- Nodes ---===//
  NodeList &getNodes() { return nodes; }
  const NodeList &getNodes() const { return nodes; }
  iterator begin() { return nodes.begin(); }
  iterator end() { return nodes.end(); }
  size_t size() const { return numNodes; }
  bool empty() const { return nodes.empty(); }

  /// Creates a node from `spec` and inserts it before `pos` (end() appends).
  /// Operands must name values defined earlier; outputs must not redefine a
  /// name. On error nothing changes.
  llvm::Expected<Node *> createNode(NodeSpec spec, iterator pos);
  llvm::Expected<Node *> appendNode(NodeSpec spec) {
    return createNode(std::move(spec), end());
  }
  /// Erases `node`. Refused (with an error naming the user) while any value
  /// it defines still has uses.
  llvm::Error eraseNode(Node *node);
  /// Moves `node` before `pos`. Does not check that the order stays valid.
  void moveBefore(Node *node, iterator pos);

  /// Walks nodes in program order, which the graph keeps topological.
  template <typename Fn> void walk(Fn fn) {
    for (Node &n : nodes)
      fn(&n);
  }
  /// Numbers nodes 1..N in program order (graph inputs are order 0).
  void renumber();

  //===--- Values ---===//
  /// The value named `name` defined in this graph, or null.
  Value *lookupValue(llvm::StringRef name) const;
  /// True when a value of this graph is named `name`, or a value-table
  /// entry that no graph input or node defines (createTableOnlyValue) is:
  /// a new definition of that name would make the table hold it twice.
  bool isNameUsed(llvm::StringRef name) const;
  /// Returns a name not yet used in this graph (isNameUsed), derived from
  /// `base`.
  llvm::StringRef uniqueName(llvm::StringRef base);
  /// Renames `v` (a graph input or node output of this graph); its uses
  /// follow. Refuses a name already used (isNameUsed). This graph only: to
  /// keep the signature and module call graph in step, use
  /// ExportedProgram::renameValue.
  llvm::Error renameValue(Value *v, llvm::StringRef newName);

  /// The value-table entries in the order they are written: the file's order
  /// for a table read in a different order, otherwise definition order
  /// (graph inputs, then node outputs).
  std::vector<Value *> getTableEntries(ValueTable table) const;
  /// Records that `v` got an entry in `table` (keeps explicit order tables in sync).
  void noteTableEntry(Value *v, ValueTable table);
  /// Makes `table` keep the explicit order given (used by the reader).
  void setExplicitTableOrder(ValueTable table, std::vector<Value *> order);
  /// Creates a value for a table entry whose name nothing defines.
  Value *createTableOnlyValue(llvm::StringRef name, ValueType type);

  bool isSingleTensorReturn() const { return singleTensorReturn; }
  void setSingleTensorReturn(bool v) { singleTensorReturn = v; }

  /// The node whose as_graph argument owns this graph; null at top level.
  Node *getParentNode() const { return parentNode; }
  void setParentNode(Node *n) { parentNode = n; }

  ExtraFields &getExtras() { return extras; }
  const ExtraFields &getExtras() const { return extras; }

  /// Unbacked symbols bound by graph inputs (see ir/UnbackedBindings.h).
  /// Derived data: never serialized, recomputed by
  /// recomputeUnbackedBindings().
  const std::vector<InputBinding> &getInputBindings() const {
    return inputBindings;
  }
  void setInputBindings(std::vector<InputBinding> bindings) {
    inputBindings = std::move(bindings);
  }

  /// Deep copy with all metadata, into the same context.
  std::unique_ptr<Graph> clone() const;

private:
  friend class Node;
  Value *createValue(llvm::StringRef name, ValueType type, ValueOrigin origin);
  llvm::Error defineSlots(const Argument &arg, Node *definer, ValueOrigin origin);
  llvm::Error resolveOperands(const Argument &arg, Node *user, Graph *outputOwner);
  llvm::Error checkDefinable(const Argument &arg) const;
  llvm::Error checkResolvable(const Argument &arg) const;
  void adoptSubgraphs(Node *node);

  IRContext &ctx;
  std::vector<Argument> inputs;
  std::vector<Argument> outputs;
  NodeList nodes;
  size_t numNodes = 0;
  llvm::DenseMap<llvm::StringRef, Value *> valuesByName;
  /// Names of the table-only values (entries nothing defines).
  llvm::DenseSet<llvm::StringRef> tableOnlyNames;
  /// Every value created here, table-only ones included, in creation order.
  std::vector<Value *> allValues;
  /// True while creation order is definition order (inputs, then node
  /// outputs in program order): nothing inserted mid-graph or moved.
  bool valuesInDefinitionOrder = true;
  std::array<std::unique_ptr<std::vector<Value *>>, NumValueTables> explicitOrder;
  bool singleTensorReturn = false;
  Node *parentNode = nullptr;
  ExtraFields extras;
  unsigned uniqueCounter = 0;
  std::vector<InputBinding> inputBindings;
};

} // namespace pt2ir

#endif
