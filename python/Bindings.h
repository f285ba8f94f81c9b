//===- Bindings.h - The parts of the pt2ir module ----------------*- C++ -*-===//
//
// Each bind* function adds one group of classes and functions to the module;
// Module.cpp calls them in dependency order (errors and enums first).
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_PYTHON_BINDINGS_H
#define PT2IR_PYTHON_BINDINGS_H

#include <pybind11/pybind11.h>

#include "pt2ir/ir/Registry.h"
#include <functional>
#include <memory>
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
  void registerExtension(const std::string &ns, const std::vector<std::string> &schemas);
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

/// The registry pt2ir.load and pt2ir.loads use when given none.
const std::shared_ptr<PyRegistry> &defaultRegistry();

void bindEnums(pybind11::module_ &m);
void bindRegistry(pybind11::module_ &m);
void bindGraph(pybind11::module_ &m);
void bindProgram(pybind11::module_ &m);

} // namespace pt2ir::python

#endif
