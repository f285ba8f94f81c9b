//===- VerifierOptions.cpp - pt2-opt's verifier flags and stage -----------===//
//
// Defines the verifier flags and the stage that runs the verifier, prints
// findings, and checks them against expectations. Reading programs and
// running passes belong to OptMain.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/tools/lib/VerifierOptions.h"

#include "pt2ir/verifier/ExpectedDiagnostics.h"

#include "llvm/Support/MemoryBuffer.h"

namespace pt2ir {

namespace cl = llvm::cl;

VerifierCLOptions::VerifierCLOptions(cl::OptionCategory &category)
    : noVerify("no-verify", cl::desc("Do not run the verifier"),
               cl::cat(category)),
      dialect("verify-dialect",
              cl::desc("Dialect to verify (default: the program's "
                       "`verifiers` field)"),
              cl::init(DialectChoice::FromProgram),
              cl::values(
                  clEnumValN(DialectChoice::Aten, "ATEN", "functional ATen IR"),
                  clEnumValN(DialectChoice::Training, "TRAINING",
                             "training IR (in-place ops allowed)")),
              cl::cat(category)),
      verifyOps("verify-ops",
                cl::desc("Check operators and their arguments against the "
                         "schema table even without a dialect"),
                cl::cat(category)),
      verifyCoreAten("verify-core-aten",
                     cl::desc("Require every aten operator to be a core ATen "
                              "operator (the `core` tag)"),
                     cl::cat(category)),
      noVerifyMeta("no-verify-meta",
                   cl::desc("Do not compare recorded output metadata with "
                            "the shape and dtype rules (meta-mismatch)"),
                   cl::cat(category)),
      verifyDiagnostics(
          "verify-diagnostics",
          cl::desc("Compare the verifier's findings with the expectations of "
                   "--expected-diagnostics instead of printing them; when "
                   "they match, exit 0 and go on unless the program has "
                   "errors"),
          cl::cat(category)),
      expectedDiagnostics(
          "expected-diagnostics",
          cl::desc("File with `expected-error@<path or node> [rule] "
                   "{{message}}` lines (default: expect none)"),
          cl::value_desc("file"), cl::cat(category)) {}

VerifyOptions makeVerifyOptions(const VerifierCLOptions &flags) {
  VerifyOptions options;
  switch (flags.dialect) {
  case DialectChoice::FromProgram:
    break;
  case DialectChoice::Aten:
    options.dialect = AtenDialect;
    break;
  case DialectChoice::Training:
    options.dialect = TrainingDialect;
    break;
  }
  options.verifyOps = flags.verifyOps;
  options.coreAten = flags.verifyCoreAten;
  options.checkMeta = !flags.noVerifyMeta;
  return options;
}

/// Runs --verify-diagnostics: true when every expectation is met and
/// nothing unexpected was found.
static bool checkAgainstExpectations(const std::vector<Diagnostic> &diags,
                                     llvm::StringRef fileName,
                                     const VerifierCLOptions &flags,
                                     llvm::raw_ostream &os) {
  std::vector<ExpectedDiagnostic> expected;
  std::string expectFile = flags.expectedDiagnostics;
  if (!expectFile.empty()) {
    auto buffer = llvm::MemoryBuffer::getFile(expectFile, /*IsText=*/true);
    if (!buffer) {
      os << expectFile
         << ": error: cannot read expectations: " << buffer.getError().message()
         << "\n";
      return false;
    }
    auto parsed = parseExpectedDiagnostics((*buffer)->getBuffer(), expectFile);
    if (!parsed) {
      os << llvm::toString(parsed.takeError()) << "\n";
      return false;
    }
    expected = std::move(*parsed);
  }
  return checkExpectedDiagnostics(diags, expected, fileName,
                                  expectFile.empty() ? "<none>" : expectFile,
                                  os);
}

VerifierVerdict runVerifierStage(const ExportedProgram &ep,
                                 llvm::StringRef fileName,
                                 const VerifierCLOptions &flags,
                                 llvm::raw_ostream &os) {
  if (flags.noVerify)
    return VerifierVerdict::Proceed;
  VerifyOptions options = makeVerifyOptions(flags);
  std::vector<Diagnostic> diags = verifyProgram(ep, options);
  if (flags.verifyDiagnostics) {
    if (!checkAgainstExpectations(diags, fileName, flags, os))
      return VerifierVerdict::StopFailure;
    // Like mlir-opt: an invalid program stops the run even when its errors
    // were expected; a valid one goes on to the passes and the output.
    return hasErrors(diags) ? VerifierVerdict::StopSuccess
                            : VerifierVerdict::Proceed;
  }
  printDiagnostics(os, fileName, diags);
  return hasErrors(diags) ? VerifierVerdict::StopFailure
                          : VerifierVerdict::Proceed;
}

} // namespace pt2ir
