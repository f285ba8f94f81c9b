//===- Diagnostic.h - Findings of the verifier --------------------*- C++ -*-===//
#ifndef PT2IR_VERIFIER_DIAGNOSTIC_H
#define PT2IR_VERIFIER_DIAGNOSTIC_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace pt2ir {

enum class Severity { Error, Warning };

/// One finding: where (JSON path and node), which rule, and what is wrong.
struct Diagnostic {
  Severity severity = Severity::Error;
  /// JSON path in the serialized program, e.g. `graph_module.graph.nodes[3].inputs[0]`.
  std::string jsonPath;
  /// The node's name, or empty when the finding is not about a node.
  std::string nodeName;
  /// A short stable rule id, e.g. `use-before-def`, `signature-input-count`.
  std::string rule;
  std::string message;
  /// Position in program order, for sorting (graph inputs first, then nodes).
  uint64_t order = 0;
};

/// Prints `file: error: path: [rule] message` lines, one per diagnostic.
void printDiagnostics(llvm::raw_ostream &os, llvm::StringRef fileName,
                      const std::vector<Diagnostic> &diags);

/// True if any diagnostic is an error.
bool hasErrors(const std::vector<Diagnostic> &diags);

} // namespace pt2ir

#endif
