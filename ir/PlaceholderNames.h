//===- PlaceholderNames.h - A name for every graph input -----------*- C++ -*-===//
//
// Graph inputs that define a value are named by it. Constant inputs have no
// value: a constant_input spec gives its name; 2023-era files wrote a None
// user input with no name at all, and those become `arg<i>` (i = position in
// graph.inputs), made unique, so printed programs are always valid.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_IR_PLACEHOLDERNAMES_H
#define PT2IR_IR_PLACEHOLDERNAMES_H

#include "pt2ir/ir/ExportedProgram.h"
#include <string>
#include <vector>

namespace pt2ir {

/// One name per input of `g`; `signature` (may be null) supplies
/// constant_input names for the top-level graph.
std::vector<std::string> placeholderNames(const Graph &g, const GraphSignature *signature);

} // namespace pt2ir

#endif
