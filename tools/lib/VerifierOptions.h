//===- VerifierOptions.h - pt2-opt's verifier flags and stage -----*- C++
//-*-===//
//
// The command-line flags that control the verifier in pt2-opt, and the
// verifier stage a driver runs after reading a program (and, if it likes,
// after its passes):
//
//   --no-verify                 skip the verifier
//   --verify-dialect=ATEN|TRAINING
//                               check this dialect instead of the one the
//                               program's `verifiers` field names
//   --verify-ops                check operators against the schema table even
//                               when no dialect applies
//   --verify-core-aten          require the `core` tag on every aten operator
//   --no-verify-meta            skip the meta-mismatch rule (recorded
//                               metadata against the shape and dtype rules)
//   --verify-diagnostics        compare the findings with expectations
//                               instead of printing them (as mlir-opt's
//                               -verify-diagnostics does): a match succeeds,
//                               and the run goes on unless the program has
//                               errors
//   --expected-diagnostics=FILE the expectations (see
//                               verifier/ExpectedDiagnostics.h); without it,
//                               no finding is expected
//
// This file deliberately does not read programs or run passes.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_TOOLS_VERIFIEROPTIONS_H
#define PT2IR_TOOLS_VERIFIEROPTIONS_H

#include "pt2ir/ir/ExportedProgram.h"
#include "pt2ir/verifier/Verifier.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace pt2ir {

/// The dialect chosen on the command line.
enum class DialectChoice { FromProgram, Aten, Training };

/// The verifier's flags. Construct one before
/// llvm::cl::ParseCommandLineOptions.
struct VerifierCLOptions {
  /// Registers the flags in `category` (so they show in the driver's --help).
  explicit VerifierCLOptions(llvm::cl::OptionCategory &category);

  llvm::cl::opt<bool> noVerify;
  llvm::cl::opt<DialectChoice> dialect;
  llvm::cl::opt<bool> verifyOps;
  llvm::cl::opt<bool> verifyCoreAten;
  llvm::cl::opt<bool> noVerifyMeta;
  llvm::cl::opt<bool> verifyDiagnostics;
  llvm::cl::opt<std::string> expectedDiagnostics;
};

/// The library options the flags stand for.
VerifyOptions makeVerifyOptions(const VerifierCLOptions &flags);

/// What the verifier stage tells the driver to do next. Ordered by
/// severity, so that std::max combines the verdicts of several programs.
enum class VerifierVerdict {
  /// No errors: go on (passes, output).
  Proceed,
  /// --verify-diagnostics: every expectation was met, but the program has
  /// (expected) errors, so it is not processed further; the run succeeds.
  StopSuccess,
  /// Errors, or with --verify-diagnostics an unmet expectation or an
  /// unexpected finding: the run fails (exit code 1).
  StopFailure,
};

/// Runs the verifier on `ep` as the flags say and prints the findings to
/// `os`, as `<fileName>: error: <path>: [<rule>] node '<name>': <message>`;
/// with --verify-diagnostics it prints only unmet expectations and
/// unexpected findings. Schemas and treespec node types come from the
/// program's registry. With --no-verify nothing runs and the verdict is
/// Proceed.
VerifierVerdict runVerifierStage(const ExportedProgram &ep,
                                 llvm::StringRef fileName,
                                 const VerifierCLOptions &flags,
                                 llvm::raw_ostream &os = llvm::errs());

} // namespace pt2ir

#endif
