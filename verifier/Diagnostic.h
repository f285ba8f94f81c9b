//===- Diagnostic.h - Findings of the verifier --------------------*- C++
//-*-===//
//
// A Diagnostic is one finding of the verifier: its severity, where it is (a
// JSON path into the serialized program and, when it concerns a node, the
// node's name), a stable rule id and a message. This file formats and sorts
// findings; it deliberately knows nothing about how they are found.
//
// Printed form, one line per finding:
//   <file>: error: <json path>: [<rule>] node '<name>': <message>
//   <file>: warning: <json path>: [<rule>] <message>
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_VERIFIER_DIAGNOSTIC_H
#define PT2IR_VERIFIER_DIAGNOSTIC_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <string>
#include <vector>

namespace pt2ir {

enum class Severity { Error, Warning };

/// "error" or "warning".
llvm::StringRef severityName(Severity severity);

/// One finding: where (JSON path and node), which rule, and what is wrong.
struct Diagnostic {
  Severity severity = Severity::Error;
  /// JSON path in the serialized program, e.g.
  /// `graph_module.graph.nodes[3].inputs[0]`.
  std::string jsonPath;
  /// The node's name, or empty when the finding is not about a node.
  std::string nodeName;
  /// A short stable rule id, e.g. `use-before-def`, `signature-input-count`.
  std::string rule;
  std::string message;
  /// Position in program order, for sorting (graph inputs first, then nodes).
  uint64_t order = 0;
};

/// Formats the part after the severity: `path: [rule] node 'name': message`.
std::string formatDiagnosticBody(const Diagnostic &diag);

/// Formats one diagnostic as a single line, without the trailing newline:
/// `file: error: path: [rule] node 'name': message` (the node part only when
/// the diagnostic names a node).
std::string formatDiagnostic(llvm::StringRef fileName, const Diagnostic &diag);

/// Prints `file: error: path: [rule] message` lines, one per diagnostic.
void printDiagnostics(llvm::raw_ostream &os, llvm::StringRef fileName,
                      const std::vector<Diagnostic> &diags);

/// Sorts by position; findings at the same position keep their order.
void sortDiagnostics(std::vector<Diagnostic> &diags);

/// True if any diagnostic is an error.
bool hasErrors(const std::vector<Diagnostic> &diags);

/// The number of diagnostics of `severity`.
size_t countDiagnostics(const std::vector<Diagnostic> &diags,
                        Severity severity);

} // namespace pt2ir

#endif
