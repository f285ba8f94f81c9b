//===- Bindings.h - The parts of the pt2ir module ---------------*- C++ -*-===//
//
// Each bind* function adds one group of classes and functions to the module;
// Module.cpp calls them in dependency order (errors and enums first).
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_PYTHON_BINDINGS_H
#define PT2IR_PYTHON_BINDINGS_H

#include <pybind11/pybind11.h>

#include "pt2ir/ir/Registry.h"
#include "pt2ir/python/PyProgram.h"
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pt2ir::python {

/// pt2ir.Registry: custom operator schemas and extension namespaces, kept
/// as the list of what was registered. Programs hold an immutable Registry
/// (ir/Registry.h); registering after a program took the current one builds
/// a new one from the list (copy on write), so programs already loaded keep
/// theirs.
class PyRegistry {
public:
  /// A registry with nothing registered.
  PyRegistry() = default;
  /// A read-only view of a program's registry.
  explicit PyRegistry(std::shared_ptr<const Registry> programRegistry);

  /// Registers `schema` (`mylib::op(Tensor x) -> Tensor`).
  void registerOperator(const std::string &schema);
  /// Registers extension namespace `ns` with `schemas` (`#ns:op` targets).
  void registerExtension(const std::string &ns,
                         const std::vector<std::string> &schemas);
  void setAllowUnregistered(bool allow);
  bool allowsUnregistered() const;
  /// The registry programs loaded now use.
  std::shared_ptr<const Registry> get();
  const Registry &view();
  bool isReadOnly() const { return readOnly; }

private:
  /// Applies one change, copying the registry first when programs share it.
  void change(const std::function<llvm::Error(Registry &)> &fn);
  llvm::Error replay(Registry &r) const;

  std::vector<std::string> operators;
  std::vector<std::pair<std::string, std::vector<std::string>>> extensions;
  bool allowUnregistered = false;
  std::shared_ptr<Registry> current;
  std::shared_ptr<const Registry> frozen;
  bool readOnly = false;
};

/// A long operation on one program (see PyProgram.h): checks that the
/// program is not busy, marks it busy and releases the GIL for its scope.
/// Nothing in the scope may touch Python (no raise: keep the llvm::Error
/// and raise after the scope).
class LongOperation {
public:
  LongOperation(PyProgram &program, const char *what) : program(program) {
    program.use();
    program.busy = what;
    release.emplace();
  }
  ~LongOperation() {
    release.reset(); // The GIL first: `busy` is read under it.
    program.busy = nullptr;
  }
  LongOperation(const LongOperation &) = delete;
  LongOperation &operator=(const LongOperation &) = delete;

private:
  PyProgram &program;
  std::optional<pybind11::gil_scoped_release> release;
};

/// The registry pt2ir.load and pt2ir.loads use when given none.
const std::shared_ptr<PyRegistry> &defaultRegistry();

void bindEnums(pybind11::module_ &m);
void bindRegistry(pybind11::module_ &m);
void bindGraph(pybind11::module_ &m);
void bindProgram(pybind11::module_ &m);

} // namespace pt2ir::python

#endif
