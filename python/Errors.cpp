//===- Errors.cpp - The pt2ir.Error exception classes ---------------------===//

#include "pt2ir/python/Errors.h"

namespace py = pybind11;

namespace pt2ir::python {

namespace {
/// The classes, created once by bindErrors; owned by the module.
PyObject *classes[7] = {};

PyObject *makeClass(py::module_ &m, const char *name, PyObject *base,
                    const char *doc) {
  std::string qualified = std::string("pt2ir.") + name;
  PyObject *cls =
      PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base, nullptr);
  if (!cls)
    throw py::error_already_set();
  m.add_object(name, py::reinterpret_borrow<py::object>(cls));
  return cls;
}
} // namespace

void bindErrors(py::module_ &m) {
  PyObject *base = makeClass(m, "Error", PyExc_Exception,
                             "Base class of every error pt2ir raises.");
  classes[int(ErrorKind::Error)] = base;
  classes[int(ErrorKind::Read)] = makeClass(
      m, "ReadError", base,
      "A file or text that cannot be read as a program (the message names "
      "the file and the JSON path or line:column).");
  classes[int(ErrorKind::Write)] =
      makeClass(m, "WriteError", base, "A file that cannot be written.");
  PyObject *graph =
      makeClass(m, "GraphError", base,
                "A change the IR refuses, or an operand that does not fit.");
  classes[int(ErrorKind::Graph)] = graph;
  classes[int(ErrorKind::StaleHandle)] = makeClass(
      m, "StaleHandleError", graph,
      "A node, value or graph used after it was erased from its program.");
  classes[int(ErrorKind::Pass)] =
      makeClass(m, "PassError", base,
                "A pass pipeline that does not parse, or a pass that failed.");
  classes[int(ErrorKind::Registry)] = makeClass(
      m, "RegistryError", base,
      "An operator schema or extension namespace that cannot be registered.");
}

void raise(ErrorKind kind, const std::string &message) {
  PyErr_SetString(classes[int(kind)], message.c_str());
  throw py::error_already_set();
}

void raise(ErrorKind kind, llvm::Error err) {
  raise(kind, llvm::toString(std::move(err)));
}

} // namespace pt2ir::python
