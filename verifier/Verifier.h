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
//    subgraphs, range constraints, module call graph) and the graph
//    signature;
//  - under a dialect (the `dialect` option, else the program's `verifiers`
//    field), or with `verifyOps` / `coreAten`: operator targets against the
//    schema table, the dialect's rules, and node arguments against schemas.
//
// docs/verifier.md lists every rule. This file deliberately does not read
// files, parse treespecs (see `treespecLeafCount`) or print anything.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_VERIFIER_VERIFIER_H
#define PT2IR_VERIFIER_VERIFIER_H

#include "pt2ir/ir/ExportedProgram.h"
#include "pt2ir/verifier/Diagnostic.h"
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace pt2ir {

struct VerifyOptions {
  /// Dialect to check ("ATEN", "TRAINING"); empty means the program's own
  /// `verifiers` field decides.
  std::string dialect;
  /// Report unknown operators even without a dialect.
  bool verifyOps = false;
  /// Require every aten operator to carry the `core` tag.
  bool coreAten = false;
  /// Optional: the number of leaves of a treespec string, or nullopt when it
  /// cannot tell (for example a node type it does not know). When set, the
  /// root module-call-graph entry's in_spec/out_spec leaf counts are compared
  /// with the number of user inputs/outputs. The verifier itself only checks
  /// that the strings look like treespecs, since treespec parsing lives in
  /// serde.
  std::function<std::optional<size_t>(llvm::StringRef spec)> treespecLeafCount;
  /// Deepest nesting of subgraphs examined; deeper ones are reported.
  unsigned maxSubgraphDepth = 64;
};

/// The dialect names the verifier knows.
constexpr const char *AtenDialect = "ATEN";
constexpr const char *TrainingDialect = "TRAINING";

/// Checks the whole program and returns every finding, sorted by position.
std::vector<Diagnostic> verifyProgram(const ExportedProgram &ep,
                                      const VerifyOptions &options = {});

} // namespace pt2ir

#endif
