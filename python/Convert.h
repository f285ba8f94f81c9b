//===- Convert.h - IR arguments and metadata as Python values ---*- C++ -*-===//
//
// How the IR's data looks from Python, and back:
//
//  - An Argument becomes the Python value it stands for: None, bool, int,
//    float, str, complex, lists, a dict for as_string_to_argument; tensors,
//    symbolic values, tokens and custom objects become Value handles;
//    ScalarType / MemoryFormat / Layout become the module's enums; a device a
//    str (`cpu`, `cuda:0`); a subgraph a Graph handle.
//  - A SymValue (a size, a stride, a symbolic value's meta) becomes an int
//    (or bool, float) when constant, else its expression as a str, in
//    sympy's str() form whichever form the file used.
//  - Node metadata becomes a dict of decoded entries (see metadataToPython).
//  - call_function operands (Python values) become BuilderArgs.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_PYTHON_CONVERT_H
#define PT2IR_PYTHON_CONVERT_H

#include <pybind11/pybind11.h>

#include "pt2ir/python/PyProgram.h"
#include "pt2ir/rewrite/Builder.h"

namespace pt2ir::python {

/// The Python value of `arg`, read in program `p`.
pybind11::object argumentToPython(const ProgramPtr &p, const Argument &arg);
/// The Python value of a size, stride or symbolic value.
pybind11::object symValueToPython(const SymValue &v);
/// `node`'s metadata: every entry, with `nn_module_stack` as {key: (path,
/// type)}, `source_fn_stack` as [(name, target)], `torch_fn` as (name,
/// function), `custom` and `from_node` as decoded JSON. An entry that does
/// not decode stays a str.
pybind11::dict metadataToPython(const Node &node);
/// A str for a device.
std::string deviceToString(const Device &d);

/// The BuilderArg for operand `obj` of a node created in `graph` of program
/// `p`: None, bool, int, float, str, the enums, a Value or a single-output
/// Node of that graph, or a list / tuple of those. Raises pt2ir.GraphError
/// (or StaleHandleError) for anything else.
BuilderArg pythonToBuilderArg(const ProgramPtr &p, const Graph &graph,
                              pybind11::handle obj);

} // namespace pt2ir::python

#endif
