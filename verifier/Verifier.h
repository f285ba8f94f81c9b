//===- Verifier.h - Structural, signature and dialect checks ------*- C++ -*-===//
#ifndef PT2IR_VERIFIER_VERIFIER_H
#define PT2IR_VERIFIER_VERIFIER_H

#include "ir/ExportedProgram.h"
#include "verifier/Diagnostic.h"
#include <optional>
#include <string>
#include <vector>

namespace pt2ir {

class OperatorRegistry;

struct VerifyOptions {
  /// Dialect to check ("ATEN", "TRAINING"); empty means the program's own
  /// `verifiers` field decides.
  std::string dialect;
  /// Report unknown operators even without a dialect.
  bool verifyOps = false;
  /// Require every aten operator to carry the `core` tag.
  bool coreAten = false;
  /// Schemas (with extension namespaces); null means the built-in table.
  const OperatorRegistry *registry = nullptr;
};

/// Checks the whole program and returns every finding, sorted by position.
std::vector<Diagnostic> verifyProgram(const ExportedProgram &ep,
                                      const VerifyOptions &options = {});

} // namespace pt2ir

#endif
