//===- PyProgram.h - A program and safe handles into it ---------*- C++ -*-===//
//
// What the Python objects of the `pt2ir` module hold. A PyProgram owns one
// ExportedProgram (and, when it came from a `.pt2` archive, the archive's
// other entries, to write back). Graph, Node and Value objects are handles:
// a shared owner of the PyProgram, the raw pointer, and an id.
//
// Passes erase nodes and destroy subgraphs behind the handles' back, and a
// new node may be allocated where an erased one was. So the PyProgram is the
// program's IRListener (ir/IRListener.h): every object a handle was made for
// gets an id in `liveIds`; erasing it drops the entry; a handle is valid only
// while its pointer still maps to its own id. Using a stale handle raises
// pt2ir.StaleHandleError instead of touching freed memory.
//
// Long operations (verify, run_passes, eliminate_dead_code, save, dumps)
// release the GIL, so that programs on different threads run at once. While
// one runs, its program is `busy`: every other use of it or its handles
// raises (PyProgram::use), instead of racing with it. The flag is only read
// and written with the GIL held, so checking it needs no lock.
//
// This file holds no pybind11 bindings (see the Bind*.cpp files).
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_PYTHON_PYPROGRAM_H
#define PT2IR_PYTHON_PYPROGRAM_H

#include "pt2ir/archive/Pt2Archive.h"
#include "pt2ir/ir/ExportedProgram.h"
#include "pt2ir/ir/IRListener.h"
#include "llvm/ADT/DenseMap.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pt2ir::python {

/// Where graph.call_function inserts in one graph (torch.fx's
/// inserting_before / inserting_after); the default is the end.
struct InsertionPoint {
  enum class Kind { End, Before, After };
  Kind kind = Kind::End;
  const Node *node = nullptr;
  uint64_t nodeId = 0;
};

class PyProgram final : public IRListener {
public:
  explicit PyProgram(ExportedProgram program);
  ~PyProgram() override;
  PyProgram(const PyProgram &) = delete;
  PyProgram &operator=(const PyProgram &) = delete;

  ExportedProgram &get() { return program; }
  /// The program, after checking that no other thread is running a long
  /// operation on it (raises pt2ir.Error otherwise). Call with the GIL held.
  ExportedProgram &use();

  /// What the long operation running now is called ("run_passes"), while
  /// one runs with the GIL released; null otherwise.
  const char *busy = nullptr;

  /// Where the program came from: the path given to load (empty for loads),
  /// the name errors show, the model name in an archive (empty for JSON).
  std::string path;
  std::string displayName;
  std::string modelName;
  /// The archive's entries, when loaded from one: written back by save.
  std::optional<Pt2ArchiveContents> archive;
  /// Insertion points, per graph, innermost last.
  llvm::DenseMap<const Graph *, std::vector<InsertionPoint>> insertionPoints;

  /// The id of `object` (a Node, Value or Graph of this program), made on
  /// first use.
  uint64_t idOf(const void *object, const Graph *graph);
  /// True while `object` still is the object `id` was made for. Raises
  /// pt2ir.Error while the program is busy.
  bool isLive(const void *object, uint64_t id) const;
  /// Drops the ids of `node` and its values (erased with it, though still
  /// allocated, marked not live).
  void nodeErased(const Node &node) override;
  void graphDestroyed(const Graph &graph) override;

private:
  // The destructor unsets the listener before any member goes.
  ExportedProgram program;
  struct Entry {
    uint64_t id;
    const Graph *graph;
  };
  llvm::DenseMap<const void *, Entry> liveIds;
  uint64_t nextId = 1;
};

using ProgramPtr = std::shared_ptr<PyProgram>;

/// A handle: the owner, the object and the id it had when made.
template <typename T> struct Handle {
  ProgramPtr program;
  T *object = nullptr;
  uint64_t id = 0;

  Handle() = default;
  Handle(ProgramPtr p, T *o, const Graph *graph)
      : program(std::move(p)), object(o), id(program->idOf(o, graph)) {}
  bool isLive() const { return program && program->isLive(object, id); }
  bool operator==(const Handle &o) const {
    return program == o.program && object == o.object && id == o.id;
  }
};

using NodeRef = Handle<Node>;
using ValueRef = Handle<Value>;
using GraphRef = Handle<Graph>;

NodeRef makeNodeRef(const ProgramPtr &p, Node *n);
ValueRef makeValueRef(const ProgramPtr &p, Value *v);
GraphRef makeGraphRef(const ProgramPtr &p, Graph *g);

} // namespace pt2ir::python

#endif
