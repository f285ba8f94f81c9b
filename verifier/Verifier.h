//===- Verifier.h - Structural, signature and dialect checks ------*- C++
//-*-===//
//
// The verifier checks a whole ExportedProgram and reports every violation it
// finds (not only the first), each with a JSON path, the node's name, a rule
// id and a message, sorted by position in the program. It never modifies the
// program and runs in time linear in the program's size.
//
// Which checks run:
//  - always: structure (definitions and uses, names, value tables,
//    subgraphs, range constraints, module call graph), the graph signature,
//    and the module call graph's treespecs (parsed with the treespec library
//    and the node types of the program's registry, see
//    treespec/TreespecRegistry.h);
//  - under a dialect (the `dialect` option, else the program's `verifiers`
//    field), or with `verifyOps` / `coreAten`: operator targets against the
//    schema table, the dialect's rules, node arguments against schemas,
//    and recorded output metadata against the shape and dtype rules of
//    infer/ (meta-mismatch; off with `checkMeta = false`).
//
// docs/verifier.md lists every rule. This file deliberately does not read
// files or print anything.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_VERIFIER_VERIFIER_H
#define PT2IR_VERIFIER_VERIFIER_H

#include "pt2ir/ir/ExportedProgram.h"
#include "pt2ir/verifier/Diagnostic.h"
#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace pt2ir {

/// How many nodes the meta-mismatch rule checked, and why it skipped the
/// others (filled when VerifyOptions::metaCoverage points here).
struct MetaCoverage {
  /// Nodes whose results were inferred and compared.
  uint64_t checked = 0;
  /// Nodes whose target has no rule, and those targets.
  uint64_t withoutRule = 0;
  std::set<std::string> opsWithoutRule;
  /// Nodes with a rule whose inputs lack metadata.
  uint64_t missingInput = 0;
};

struct VerifyOptions {
  /// Dialect to check ("ATEN", "TRAINING"); empty means the program's own
  /// `verifiers` field decides.
  std::string dialect;
  /// Report unknown operators even without a dialect.
  bool verifyOps = false;
  /// Require every aten operator to carry the `core` tag.
  bool coreAten = false;
  /// Deepest nesting of subgraphs examined; deeper ones are reported.
  unsigned maxSubgraphDepth = 64;
  /// Compare recorded output metadata with the shape and dtype rules
  /// (meta-mismatch) when the operator checks run.
  bool checkMeta = true;
  /// Optional: receives the coverage of the meta-mismatch rule.
  MetaCoverage *metaCoverage = nullptr;
};

/// The dialect names the verifier knows.
constexpr const char *AtenDialect = "ATEN";
constexpr const char *TrainingDialect = "TRAINING";

/// Checks the whole program and returns every finding, sorted by position.
std::vector<Diagnostic> verifyProgram(const ExportedProgram &ep,
                                      const VerifyOptions &options = {});

} // namespace pt2ir

#endif
