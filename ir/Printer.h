//===- Printer.h - The readable text form of a program -----------*- C++ -*-===//
//
// A stable, line-oriented listing for people and for FileCheck:
//
//   program schema 8.19 torch "2.5.0" verifiers [ATEN]
//   signature {
//     input %x : user_input
//     output %linear : user_output
//   }
//   range_constraints { s0 in [2, inf] }
//   graph(%x: f32[s0, 4]) {
//     %linear = aten.linear.default(%x, %p_weight) : f32[s0, 3]
//     return %linear
//   }
//
// The text form is for reading; pt2ir does not parse it back.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_IR_PRINTER_H
#define PT2IR_IR_PRINTER_H

#include "pt2ir/ir/ExportedProgram.h"
#include "llvm/Support/raw_ostream.h"

namespace pt2ir {

/// How to print. Positional vs keyword inputs without a stored kind are
/// decided from the schemas of the program's registry.
struct PrintOptions {
  /// Show each node's metadata (stack traces are abbreviated to their last line).
  bool printMetadata = false;
};

/// Prints the whole program.
void printProgram(llvm::raw_ostream &os, const ExportedProgram &ep,
                  const PrintOptions &options = {});
/// Prints one graph (and its subgraphs), indented by `indent` spaces.
void printGraph(llvm::raw_ostream &os, const Graph &g, unsigned indent = 0,
                const PrintOptions &options = {});
/// Prints one node on one line (without subgraph bodies).
void printNode(llvm::raw_ostream &os, const Node &n, const PrintOptions &options = {});
/// Prints an argument as it appears in a call.
void printArgument(llvm::raw_ostream &os, const Argument &a);
/// `f32[s0, 3]`-style type of a value, from its metadata.
std::string describeValueType(const Value &v);
/// The short form of a target: `torch.ops.aten.add.Tensor` -> `aten.add.Tensor`.
llvm::StringRef shortTarget(llvm::StringRef target);

} // namespace pt2ir

#endif
