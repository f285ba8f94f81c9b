//===- Errors.h - The pt2ir.Error exception classes -------------*- C++ -*-===//
//
// Every failure the module reports raises a subclass of pt2ir.Error carrying
// the library's message (file, JSON path, line:column, what was expected):
//
//   Error
//   ├── ReadError          a file or text that cannot be read as a program
//   ├── WriteError         a file that cannot be written
//   ├── GraphError         a change the IR refuses, a bad operand
//   │   └── StaleHandleError  a node or value used after it was erased
//   ├── PassError          a pipeline that does not parse, a pass that fails
//   └── RegistryError      a schema or namespace that cannot be registered
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_PYTHON_ERRORS_H
#define PT2IR_PYTHON_ERRORS_H

// pybind11 (and so Python.h) comes first, as Python's headers require.
#include <pybind11/pybind11.h>

#include "llvm/Support/Error.h"
#include <string>

namespace pt2ir::python {

enum class ErrorKind {
  Error,
  Read,
  Write,
  Graph,
  StaleHandle,
  Pass,
  Registry,
};

/// Creates the exception classes in `m`.
void bindErrors(pybind11::module_ &m);

/// Raises the Python exception of `kind` with `message`.
[[noreturn]] void raise(ErrorKind kind, const std::string &message);
/// Raises `err`'s message as `kind`.
[[noreturn]] void raise(ErrorKind kind, llvm::Error err);

/// The value of `e`, or raises its error as `kind`.
template <typename T> T unwrap(llvm::Expected<T> e, ErrorKind kind) {
  if (!e)
    raise(kind, e.takeError());
  return std::move(*e);
}
/// Raises `err` as `kind` when it is a failure.
inline void check(llvm::Error err, ErrorKind kind) {
  if (err)
    raise(kind, std::move(err));
}

} // namespace pt2ir::python

#endif
