//===- DotEmitter.h - The program as a Graphviz picture ---------*- C++ -*-===//
//
// `pt2-opt --emit=dot`: a Graphviz `digraph` of the program. Each node is a
// box labelled with its name, its short target (`aten.linear.default`) and
// its output types; edges follow def-use. Graph inputs and outputs are
// drawn by their signature kind (parameters, buffers, constants, user
// inputs and tokens in different colours; mutations and user outputs too).
// Runtime asserts are red octagons, symbolic (SymInt/SymBool) ops ellipses
// and higher-order ops 3-D boxes; every subgraph of a higher-order op is a
// dashed cluster, with a dashed edge from the op to it.
//
// Render with `dot -Tsvg prog.dot -o prog.svg`. Node ids are generated
// (`g0_n12`), so any value name is safe; labels are escaped. This file does
// not lay anything out or call Graphviz.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_TOOLS_DOTEMITTER_H
#define PT2IR_TOOLS_DOTEMITTER_H

#include "pt2ir/ir/ExportedProgram.h"
#include "pt2ir/tools/lib/EmitOptions.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace pt2ir {

/// `s` as the inside of a DOT double-quoted string: quotes and backslashes
/// escaped, newlines as `\n`, other control bytes dropped, invalid UTF-8
/// repaired.
std::string escapeDotString(llvm::StringRef s);

/// Writes `ep` as a Graphviz digraph. Reads `options.showTypes` (a type line
/// in each label) and `options.showMetadata` (the last stack-trace line as
/// each node's tooltip).
void emitDot(llvm::raw_ostream &os, const ExportedProgram &ep,
             const EmitOptions &options = {});

} // namespace pt2ir

#endif
