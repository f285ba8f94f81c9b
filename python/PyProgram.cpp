//===- PyProgram.cpp - A program and safe handles into it -----------------===//

#include "pt2ir/python/PyProgram.h"

#include "pt2ir/python/Errors.h"

#include "pt2ir/ir/Graph.h"
#include "pt2ir/ir/Node.h"

namespace pt2ir::python {

PyProgram::PyProgram(ExportedProgram p) : program(std::move(p)) {
  program.getContext().setListener(this);
}

PyProgram::~PyProgram() { program.getContext().setListener(nullptr); }

static void checkNotBusy(const char *busy) {
  if (busy)
    raise(ErrorKind::Error,
          std::string("the program is busy: another thread is running ") +
              busy + " on it");
}

ExportedProgram &PyProgram::use() {
  checkNotBusy(busy);
  return program;
}

uint64_t PyProgram::idOf(const void *object, const Graph *graph) {
  auto [it, inserted] = liveIds.try_emplace(object, Entry{nextId, graph});
  if (inserted)
    ++nextId;
  return it->second.id;
}

bool PyProgram::isLive(const void *object, uint64_t id) const {
  checkNotBusy(busy); // The ids change while a pass runs.
  auto it = liveIds.find(object);
  return it != liveIds.end() && it->second.id == id;
}

void PyProgram::nodeErased(const Node &node) {
  liveIds.erase(&node);
  for (Value *v : node.getResults())
    liveIds.erase(v);
}

void PyProgram::graphDestroyed(const Graph &graph) {
  llvm::SmallVector<const void *, 16> dead;
  for (const auto &[object, entry] : liveIds)
    if (entry.graph == &graph)
      dead.push_back(object);
  for (const void *object : dead)
    liveIds.erase(object);
  insertionPoints.erase(&graph);
}

NodeRef makeNodeRef(const ProgramPtr &p, Node *n) {
  return NodeRef(p, n, n->getGraph());
}

ValueRef makeValueRef(const ProgramPtr &p, Value *v) {
  return ValueRef(p, v, v->getGraph());
}

GraphRef makeGraphRef(const ProgramPtr &p, Graph *g) {
  return GraphRef(p, g, g);
}

} // namespace pt2ir::python
