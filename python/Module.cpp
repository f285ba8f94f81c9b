//===- Module.cpp - The pt2ir Python extension module ---------------------===//
//
// `import pt2ir`: reading, inspecting, changing, verifying and writing
// exported programs without torch. The parts are bound in Bind*.cpp; see
// docs/python.md for the API.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/python/Bindings.h"
#include "pt2ir/python/Errors.h"

namespace py = pybind11;

PYBIND11_MODULE(pt2ir, m) {
  m.doc() = "Read, inspect, change, verify and write PyTorch exported programs "
            "(torch.export) without torch.";
  m.attr("__version__") = "0.1.0";
  pt2ir::python::bindErrors(m);
  pt2ir::python::bindEnums(m);
  pt2ir::python::bindRegistry(m);
  pt2ir::python::bindGraph(m);
  pt2ir::python::bindProgram(m);
}
