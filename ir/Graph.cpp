//===- Graph.cpp - A graph of nodes with its value tables -----------------===//

#include "pt2ir/ir/Graph.h"
#include "pt2ir/ir/IRContext.h"
#include "pt2ir/ir/IRListener.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FormatVariadic.h"

namespace pt2ir {

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

Graph::~Graph() {
  if (IRListener *l = ctx.getListener())
    l->graphDestroyed(*this);
  while (!nodes.empty()) {
    Node &n = nodes.back();
    nodes.remove(n);
    delete &n;
  }
  inputs.clear();
  outputs.clear();
  for (Value *v : allValues)
    delete v;
}

Value *Graph::createValue(llvm::StringRef name, ValueType type, ValueOrigin origin) {
  Value *v = new Value(name, type, origin, this);
  allValues.push_back(v);
  if (origin != ValueOrigin::TableOnly)
    valuesByName[name] = v;
  else
    tableOnlyNames.insert(name);
  return v;
}

Value *Graph::createTableOnlyValue(llvm::StringRef name, ValueType type) {
  return createValue(ctx.intern(name), type, ValueOrigin::TableOnly);
}

Value *Graph::lookupValue(llvm::StringRef name) const {
  auto it = valuesByName.find(name);
  return it == valuesByName.end() ? nullptr : it->second;
}

bool Graph::isNameUsed(llvm::StringRef name) const {
  return lookupValue(name) || tableOnlyNames.contains(name);
}

llvm::StringRef Graph::uniqueName(llvm::StringRef base) {
  if (!isNameUsed(base))
    return ctx.intern(base);
  for (;;) {
    std::string candidate = llvm::formatv("{0}_{1}", base, ++uniqueCounter).str();
    if (!isNameUsed(candidate))
      return ctx.intern(candidate);
  }
}

llvm::Error Graph::renameValue(Value *v, llvm::StringRef newName) {
  if (v->getGraph() != this || v->getOrigin() == ValueOrigin::TableOnly || !v->isLive())
    return makeError("cannot rename '" + v->getName() + "': it is not a live value defined in this graph");
  if (newName.empty())
    return makeError("cannot rename '" + v->getName() + "' to an empty name");
  if (newName == v->getName())
    return llvm::Error::success();
  if (isNameUsed(newName))
    return makeError("cannot rename '" + v->getName() + "' to '" + newName + "': the name is taken");
  valuesByName.erase(v->getName());
  v->name = ctx.intern(newName);
  valuesByName[v->name] = v;
  return llvm::Error::success();
}

llvm::Error Graph::checkDefinable(const Argument &arg) const {
  llvm::Error err = llvm::Error::success();
  llvm::SmallVector<llvm::StringRef, 4> seen;
  arg.forEachUse([&](Use *u) {
    if (err)
      return;
    llvm::StringRef name = u->getName();
    if (lookupValue(name) || llvm::is_contained(seen, name))
      err = makeError("value '" + name + "' is defined twice");
    else if (tableOnlyNames.contains(name))
      err = makeError("value '" + name +
                      "' would be defined twice: a value-table entry of that "
                      "name already exists with no definition");
    seen.push_back(name);
  });
  return err;
}

llvm::Error Graph::checkResolvable(const Argument &arg) const {
  llvm::Error err = llvm::Error::success();
  arg.forEachUse([&](Use *u) {
    if (err || u->get())
      return;
    if (arg.getKind() == ArgKind::CustomObj)
      return; // A constant object that is not a graph input stays by name.
    if (!lookupValue(u->getName()))
      err = makeError("use of undefined value '" + u->getName() + "'");
  });
  return err;
}

llvm::Error Graph::defineSlots(const Argument &arg, Node *definer, ValueOrigin origin) {
  ValueType type = valueTypeOfArgKind(arg.getKind());
  arg.forEachUse([&](Use *u) {
    Value *v = createValue(ctx.intern(u->getName()), type, origin);
    v->definingNode = definer;
    u->value = v;
    u->role = UseRole::Definition;
  });
  return llvm::Error::success();
}

llvm::Error Graph::resolveOperands(const Argument &arg, Node *user, Graph *outputOwner) {
  arg.forEachUse([&](Use *u) {
    Value *v = u->get() ? u->get() : lookupValue(u->getName());
    u->role = UseRole::Operand;
    u->user = user;
    u->outputOwner = outputOwner;
    if (v)
      u->set(v);
  });
  return llvm::Error::success();
}

llvm::Error Graph::addInput(Argument arg) {
  if (auto err = checkDefinable(arg))
    return err;
  if (numNodes != 0) // Its values come before those of existing nodes.
    valuesInDefinitionOrder = false;
  if (auto err = defineSlots(arg, nullptr, ValueOrigin::GraphInput))
    return err;
  inputs.push_back(std::move(arg));
  return llvm::Error::success();
}

llvm::Error Graph::addOutput(Argument arg) {
  if (auto err = checkResolvable(arg))
    return err;
  outputs.push_back(std::move(arg));
  return resolveOperands(outputs.back(), nullptr, this);
}

llvm::Error Graph::setOutput(unsigned i, Argument arg) {
  assert(i < outputs.size() && "output index out of range");
  if (auto err = checkResolvable(arg))
    return err;
  outputs[i] = std::move(arg);
  return resolveOperands(outputs[i], nullptr, this);
}

std::vector<Value *> Graph::getInputValues() const {
  std::vector<Value *> result;
  for (const Argument &in : inputs)
    in.forEachUse([&](Use *u) { result.push_back(u->get()); });
  return result;
}

void Graph::adoptSubgraphs(Node *node) {
  for (Graph *sub : node->getSubgraphs())
    sub->setParentNode(node);
}

/// Checks that every operand of `spec` is defined before `pos`: by a graph
/// input or by a node in front of it. Searches outward from `pos` in both
/// directions at once, so the cost is the distance to the nearest answer, not
/// the size of the graph.
static llvm::Error checkDefinedBefore(Graph &g, const NodeSpec &spec,
                                      Graph::iterator pos) {
  if (pos == g.end()) // Appending: every defined value is earlier.
    return llvm::Error::success();
  llvm::SmallVector<const Value *, 4> pending;
  for (const NamedArgument &in : spec.inputs)
    in.arg.forEachUse([&](Use *u) {
      const Value *v = u->get() ? u->get() : g.lookupValue(u->getName());
      if (v && v->getDefiningNode() && !llvm::is_contained(pending, v))
        pending.push_back(v);
    });
  Graph::iterator back = pos, forward = pos;
  while (!pending.empty() && (back != g.begin() || forward != g.end())) {
    if (forward != g.end()) {
      for (const Value *v : pending)
        if (v->getDefiningNode() == &*forward)
          return makeError(
              "value '" + v->getName() +
              "' is used before its definition: it is defined by node '" +
              forward->getName() + "', at or after the insertion point");
      ++forward;
    }
    if (back != g.begin()) {
      --back;
      llvm::erase_if(pending, [&](const Value *v) {
        return v->getDefiningNode() == &*back;
      });
    }
  }
  return llvm::Error::success();
}

llvm::Expected<Node *> Graph::createNode(NodeSpec spec, iterator pos) {
  // Resolve every operand once; the values found are linked below, after
  // all checks passed (on error nothing changes).
  llvm::SmallVector<Value *, 16> operandValues;
  for (const NamedArgument &in : spec.inputs) {
    llvm::Error err = llvm::Error::success();
    in.arg.forEachUse([&](Use *u) {
      Value *v = u->get() ? u->get() : lookupValue(u->getName());
      operandValues.push_back(v);
      if (err || v || in.arg.getKind() == ArgKind::CustomObj)
        return; // A constant object that is not a graph input stays by name.
      err = makeError("use of undefined value '" + u->getName() + "'");
    });
    if (err)
      return err;
  }
  // Outputs may not repeat each other nor an existing name. Nodes define a
  // few values, so a linear scan beats a set until there are many.
  {
    llvm::SmallVector<llvm::StringRef, 8> seen;
    llvm::DenseSet<llvm::StringRef> seenSet;
    auto firstTime = [&](llvm::StringRef name) {
      if (seen.size() < 16) {
        if (llvm::is_contained(seen, name))
          return false;
        seen.push_back(name);
        if (seen.size() == 16)
          seenSet.insert(seen.begin(), seen.end());
        return true;
      }
      return seenSet.insert(name).second;
    };
    for (const Argument &out : spec.outputs) {
      llvm::Error err = llvm::Error::success();
      out.forEachUse([&](Use *u) {
        if (err)
          return;
        if (lookupValue(u->getName()) || !firstTime(u->getName()))
          err = makeError("value '" + u->getName() + "' is defined twice");
      });
      if (err)
        return err;
    }
  }

  if (auto err = checkDefinedBefore(*this, spec, pos))
    return err;

  Node *node = new Node();
  node->graph = this;
  node->target = spec.target;
  node->inputs = std::move(spec.inputs);
  node->outputs = std::move(spec.outputs);
  node->metadata = std::move(spec.metadata);
  node->isHopSingleTensorReturn = spec.isHopSingleTensorReturn;
  node->name = spec.name;
  node->extras = std::move(spec.extras);
  Value *const *nextOperand = operandValues.begin();
  for (const NamedArgument &in : node->inputs)
    in.arg.forEachUse([&](Use *u) {
      Value *v = *nextOperand++;
      u->role = UseRole::Operand;
      u->user = node;
      u->outputOwner = nullptr;
      if (v)
        u->set(v);
    });
  for (const Argument &out : node->outputs)
    (void)defineSlots(out, node, ValueOrigin::NodeOutput);
  adoptSubgraphs(node);
  if (pos != end())
    valuesInDefinitionOrder = false;
  nodes.insert(pos, *node);
  ++numNodes;
  return node;
}

llvm::Error Graph::eraseNode(Node *node) {
  assert(node->graph == this && "node belongs to another graph");
  for (Value *v : node->getResults()) {
    if (v->useEmpty())
      continue;
    Use *u = *v->uses().begin();
    std::string user = u->getUser()
                           ? "node '" + u->getUser()->getName().str() + "'"
                           : "the graph output";
    return makeError("cannot erase node '" + node->getName() + "': its value '" +
                     v->getName() + "' is still used by " + user);
  }
  for (Value *v : node->getResults()) {
    v->live = false;
    valuesByName.erase(v->getName());
  }
  if (IRListener *l = ctx.getListener())
    l->nodeErased(*node);
  nodes.remove(*node);
  --numNodes;
  delete node; // Argument destructors unlink the operand uses.
  return llvm::Error::success();
}

void Graph::moveBefore(Node *node, iterator pos) {
  valuesInDefinitionOrder = false;
  nodes.remove(*node);
  nodes.insert(pos, *node);
}

void Graph::renumber() {
  unsigned i = 0;
  for (Node &n : nodes)
    n.order = ++i;
}

static bool hasTableEntry(const Value *v, ValueTable table) {
  const ValueMeta *md = v->getMeta();
  if (!md)
    return false;
  switch (table) {
  case ValueTable::Tensor: return md->tensor != nullptr;
  case ValueTable::SymInt: return md->symInt != nullptr;
  case ValueTable::SymBool: return md->symBool != nullptr;
  case ValueTable::SymFloat: return md->symFloat != nullptr;
  case ValueTable::CustomObj: return md->hasCustomObj;
  }
  return false;
}

std::vector<Value *> Graph::getTableEntries(ValueTable table) const {
  std::vector<Value *> result;
  unsigned t = static_cast<unsigned>(table);
  if (explicitOrder[t]) {
    for (Value *v : *explicitOrder[t])
      if (v->isLive() && hasTableEntry(v, table))
        result.push_back(v);
    return result;
  }
  if (valuesInDefinitionOrder) {
    // Creation order is definition order: one pass over a flat array
    // instead of a walk through every node's outputs.
    for (Value *v : allValues)
      if (v->getOrigin() != ValueOrigin::TableOnly && v->isLive() &&
          hasTableEntry(v, table))
        result.push_back(v);
    return result;
  }
  auto visit = [&](Use *u) {
    if (u->get() && hasTableEntry(u->get(), table))
      result.push_back(u->get());
  };
  for (const Argument &in : inputs)
    in.forEachUse(visit);
  for (const Node &n : nodes)
    for (const Argument &out : n.getOutputs())
      out.forEachUse(visit);
  return result;
}

void Graph::noteTableEntry(Value *v, ValueTable table) {
  unsigned t = static_cast<unsigned>(table);
  if (explicitOrder[t])
    explicitOrder[t]->push_back(v);
}

void Graph::setExplicitTableOrder(ValueTable table, std::vector<Value *> order) {
  explicitOrder[static_cast<unsigned>(table)] =
      std::make_unique<std::vector<Value *>>(std::move(order));
}

static void copyMeta(const Value *from, Value *to) {
  const ValueMeta *md = from->getMeta();
  if (!md)
    return;
  ValueMeta &dst = to->getOrCreateMeta();
  if (md->tensor)
    dst.tensor = std::make_unique<TensorMeta>(*md->tensor);
  if (md->symInt)
    dst.symInt = std::make_unique<SymValue>(*md->symInt);
  if (md->symBool)
    dst.symBool = std::make_unique<SymValue>(*md->symBool);
  if (md->symFloat)
    dst.symFloat = std::make_unique<SymValue>(*md->symFloat);
  dst.hasCustomObj = md->hasCustomObj;
  dst.customObjName = md->customObjName;
  dst.customObjClass = md->customObjClass;
  dst.customObjExtras = md->customObjExtras;
}

std::unique_ptr<Graph> Graph::clone() const {
  auto g = std::make_unique<Graph>(ctx);
  llvm::DenseMap<const Value *, Value *> map;
  auto mapDefs = [&](const Argument &from, const Argument &to) {
    std::vector<Value *> src, dst;
    from.forEachUse([&](Use *u) { src.push_back(u->get()); });
    to.forEachUse([&](Use *u) { dst.push_back(u->get()); });
    for (size_t i = 0; i < src.size() && i < dst.size(); ++i)
      if (src[i] && dst[i]) {
        map[src[i]] = dst[i];
        copyMeta(src[i], dst[i]);
      }
  };
  for (const Argument &in : inputs) {
    llvm::cantFail(g->addInput(in.clone(ctx)));
    mapDefs(in, g->inputs.back());
  }
  for (const Node &n : nodes) {
    NodeSpec spec;
    spec.target = n.target;
    for (const NamedArgument &in : n.inputs)
      spec.inputs.push_back({in.name, in.arg.clone(ctx), in.kind, in.extras});
    for (const Argument &out : n.outputs)
      spec.outputs.push_back(out.clone(ctx));
    spec.metadata = n.metadata;
    spec.isHopSingleTensorReturn = n.isHopSingleTensorReturn;
    spec.name = n.name;
    spec.extras = n.extras;
    Node *copy = llvm::cantFail(g->appendNode(std::move(spec)));
    copy->setUnbackedBindings(n.getUnbackedBindings());
    for (size_t i = 0; i < n.outputs.size(); ++i)
      mapDefs(n.outputs[i], copy->outputs[i]);
  }
  for (const Argument &out : outputs)
    llvm::cantFail(g->addOutput(out.clone(ctx)));
  for (const Value *v : allValues) {
    if (v->getOrigin() != ValueOrigin::TableOnly)
      continue;
    Value *copy = g->createTableOnlyValue(v->getName(), v->getType());
    copyMeta(v, copy);
    map[v] = copy;
  }
  for (unsigned t = 0; t < NumValueTables; ++t) {
    if (!explicitOrder[t])
      continue;
    std::vector<Value *> order;
    for (Value *v : *explicitOrder[t])
      if (Value *m = map.lookup(v))
        order.push_back(m);
    g->setExplicitTableOrder(static_cast<ValueTable>(t), std::move(order));
  }
  g->setInputBindings(getInputBindings());
  g->singleTensorReturn = singleTensorReturn;
  g->extras = extras;
  return g;
}

} // namespace pt2ir
