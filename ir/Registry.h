//===- Registry.h - Everything a program is read and run against -*- C++ -*-===//
//
// A Registry is the one place that says what operators, extension
// namespaces, passes and treespec types exist, the way MLIR's context
// carries its dialect registry. It is set up once (by hand, from command-line
// files, or by pass plugins) and then shared, read-only, by every program
// read or built with it: each program's IRContext keeps a reference, so the
// reader, the verifier, the passes, the printers and the round-trip check all
// consult the same one without being handed it again.
//
// The registry owns the OperatorRegistry directly. Higher layers keep their
// own tables in typed slots (getOrCreate<T>): passes/PassRegistry.h keeps the
// passes registered at run time there, and a backend may keep its own
// configuration the same way. A slot type derives from RegistrySlot and has a
// `static char ID` whose address identifies it, like LLVM's pass IDs.
//
// A registry is not synchronized: set it up on one thread, then share it as
// `std::shared_ptr<const Registry>`; const use from many threads is safe.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_IR_REGISTRY_H
#define PT2IR_IR_REGISTRY_H

#include "pt2ir/ir/OperatorRegistry.h"

#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <type_traits>

namespace pt2ir {

/// Base of the tables higher layers keep in a Registry (see getOrCreate).
class RegistrySlot {
public:
  virtual ~RegistrySlot();
};

/// Operator schemas, extension namespaces, passes and other per-layer tables;
/// see the file comment.
class Registry {
public:
  Registry();
  ~Registry();
  Registry(const Registry &) = delete;
  Registry &operator=(const Registry &) = delete;

  /// The registry programs use when none is given: the built-in aten
  /// schemas and the built-in passes, nothing registered. Immutable and
  /// shared by the whole process.
  static const std::shared_ptr<const Registry> &getDefault();

  /// Custom operator schemas and extension namespaces (`#ns:op` targets).
  OperatorRegistry &getOperators() { return operators; }
  const OperatorRegistry &getOperators() const { return operators; }

  /// Whether `#ns:op` targets of a namespace nobody registered are accepted
  /// and kept as opaque strings (by the reader, and by the verifier, which
  /// then reports them as warnings rather than `[unknown-op]` errors), like
  /// MLIR's allowUnregisteredDialects. Off by default.
  bool allowsUnregisteredExtensions() const { return allowUnregistered; }
  void setAllowUnregisteredExtensions(bool allow) { allowUnregistered = allow; }

  /// What is wrong with reading `target` against this registry: a
  /// malformed `#ns:op`, a namespace nobody registered (unless they are
  /// allowed), an operator its namespace lacks. Empty when nothing is,
  /// including every target that is not an extension target. Both readers
  /// (JSON and text) report it.
  std::string extensionTargetProblem(llvm::StringRef target) const;

  /// The slot of type `T`, created (default-constructed) on first use.
  template <typename T> T &getOrCreate() {
    static_assert(std::is_base_of_v<RegistrySlot, T>,
                  "registry slots derive from RegistrySlot");
    std::unique_ptr<RegistrySlot> &slot = slots[&T::ID];
    if (!slot)
      slot = std::make_unique<T>();
    return static_cast<T &>(*slot);
  }

  /// The slot of type `T`, or null when nothing created it.
  template <typename T> const T *find() const {
    static_assert(std::is_base_of_v<RegistrySlot, T>,
                  "registry slots derive from RegistrySlot");
    auto it = slots.find(&T::ID);
    return it == slots.end() ? nullptr : static_cast<const T *>(it->second.get());
  }

private:
  OperatorRegistry operators;
  bool allowUnregistered = false;
  llvm::DenseMap<const void *, std::unique_ptr<RegistrySlot>> slots;
};

} // namespace pt2ir

#endif
