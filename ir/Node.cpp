//===- Node.cpp - One call in a graph -------------------------------------===//

#include "pt2ir/ir/Node.h"
#include "pt2ir/ir/Graph.h"

namespace pt2ir {

std::optional<llvm::StringRef> lookupMetadata(const StringPairs &md,
                                              llvm::StringRef key) {
  for (auto &kv : md)
    if (kv.first == key)
      return kv.second;
  return std::nullopt;
}

void setMetadata(StringPairs &md, llvm::StringRef key, llvm::StringRef value) {
  for (auto &kv : md) {
    if (kv.first == key) {
      kv.second = value;
      return;
    }
  }
  md.emplace_back(key, value);
}

llvm::StringRef Node::getName() const {
  if (name && !name->empty())
    return *name;
  for (const Argument &out : outputs) {
    llvm::StringRef found;
    out.forEachUse([&](Use *u) {
      if (found.empty())
        found = u->getName();
    });
    if (!found.empty())
      return found;
  }
  return target.rsplit('.').second.empty() ? target : target.rsplit('.').first.rsplit('.').second;
}

const NamedArgument *Node::findInput(llvm::StringRef argName) const {
  for (const NamedArgument &in : inputs)
    if (in.name == argName)
      return &in;
  return nullptr;
}

std::vector<Value *> Node::getResults() const {
  std::vector<Value *> results;
  for (const Argument &out : outputs)
    out.forEachUse([&](Use *u) {
      if (u->get())
        results.push_back(u->get());
    });
  return results;
}

Value *Node::getSingleResult() const {
  Value *single = nullptr;
  unsigned count = 0;
  for (const Argument &out : outputs)
    out.forEachUse([&](Use *u) {
      if (u->get()) {
        single = u->get();
        ++count;
      }
    });
  return count == 1 ? single : nullptr;
}

bool Node::hasNoUses() const {
  bool used = false;
  for (const Argument &out : outputs)
    out.forEachUse([&](Use *u) {
      if (u->get() && !u->get()->useEmpty())
        used = true;
    });
  return !used;
}

llvm::Error Node::setInput(unsigned i, Argument arg) {
  assert(i < inputs.size() && "input index out of range");
  if (auto err = graph->checkResolvable(arg))
    return err;
  inputs[i].arg = std::move(arg);
  if (auto err = graph->resolveOperands(inputs[i].arg, this, nullptr))
    return err;
  graph->adoptSubgraphs(this); // A new as_graph input needs its parent.
  return llvm::Error::success();
}

std::vector<Graph *> Node::getSubgraphs() const {
  std::vector<Graph *> result;
  for (const NamedArgument &in : inputs)
    if (in.arg.getKind() == ArgKind::Graph && in.arg.getGraphArg().graph)
      result.push_back(in.arg.getGraphArg().graph.get());
  return result;
}

void Node::forEachOperand(llvm::function_ref<void(Use *)> fn) const {
  for (const NamedArgument &in : inputs)
    in.arg.forEachUse(fn);
}

} // namespace pt2ir
