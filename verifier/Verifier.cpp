//===- Verifier.cpp - Runs the groups of checks ---------------------------===//
//
// verifyProgram: lays the program out once, runs the structural,
// call_torchbind, symbolic-op, signature, symbol, treespec and program-field
// checks, then, under a dialect or when asked for, the operator and
// schema-argument checks, and returns the sorted findings.
// The rules themselves live in the *Checks.cpp files.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/verifier/Verifier.h"
#include "pt2ir/verifier/Checks.h"

namespace pt2ir {

std::vector<Diagnostic> verifyProgram(const ExportedProgram &ep,
                                      const VerifyOptions &options) {
  verifier::VerifierContext ctx(ep, options);
  verifier::checkStructure(ctx);
  verifier::checkTorchbindCalls(ctx);
  verifier::checkSymbolicOps(ctx);
  verifier::checkSignature(ctx);
  verifier::checkSymbols(ctx);
  verifier::checkTreespecs(ctx);
  verifier::Dialect dialect = verifier::checkProgramFields(ctx);
  if (dialect != verifier::Dialect::None || options.verifyOps ||
      options.coreAten) {
    verifier::checkOperators(ctx, dialect);
    verifier::checkSchemaArguments(ctx);
    if (options.checkMeta)
      verifier::checkMeta(ctx);
  }
  return ctx.takeDiagnostics();
}

} // namespace pt2ir
