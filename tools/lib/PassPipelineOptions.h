//===- PassPipelineOptions.h - pt2-opt pass flags ---------------*- C++ -*-===//
//
// The command-line side of the pass manager: `--pass-pipeline=...`, one
// `--<pass>` flag per registered pass (generated from
// passes/PassRegistry.def), `--verify-each`, `--print-ir-before/after...`,
// `--time-passes` and `--pass-statistics`. The flags live in a struct the
// driver owns (no global option objects); runPassPipelineFromCL turns them
// into a PassManager run.
//
// Deliberately not here: reading and writing programs (tools/lib/OptMain.cpp)
// and the verifier itself, which the driver passes in as a hook so this file
// does not depend on it.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_TOOLS_PASSPIPELINEOPTIONS_H
#define PT2IR_TOOLS_PASSPIPELINEOPTIONS_H

#include "pt2ir/passes/PassManager.h"
#include "pt2ir/verifier/Verifier.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

namespace pt2ir {

/// The passes and instrumentation a command line asks for, independent of
/// llvm::cl (so it can be built directly in tests).
struct PassPipelineConfig {
  std::vector<PassPipelineElement> pipeline;
  PassInstrumentation instrumentation;
};

/// The pass-related pt2-opt flags. Construct exactly one, before
/// llvm::cl::ParseCommandLineOptions, in the driver's option category.
struct PassCLOptions {
  explicit PassCLOptions(llvm::cl::OptionCategory &category);
  ~PassCLOptions();
  PassCLOptions(const PassCLOptions &) = delete;
  PassCLOptions &operator=(const PassCLOptions &) = delete;

  /// The pipeline the flags describe: `--pass-pipeline` and the per-pass
  /// flags in command-line order. Errors on bad pipeline syntax; pass names
  /// and options are checked when the passes are created. The input is not
  /// verified again (`verifyInput` is false): pt2-opt verifies what it reads
  /// before running passes.
  llvm::Expected<PassPipelineConfig> getConfig() const;

  /// Text for `--pass-pipeline`'s help: every pass with its options.
  std::string pipelineHelp;
  llvm::cl::opt<std::string> passPipeline;
  /// One `--<name>` flag per registered pass, in .def order.
  std::vector<std::unique_ptr<llvm::cl::opt<bool>>> passFlags;
  llvm::cl::opt<bool> verifyEach;
  llvm::cl::list<std::string> printIRBefore;
  llvm::cl::list<std::string> printIRAfter;
  llvm::cl::opt<bool> printIRAfterAll;
  llvm::cl::opt<bool> printIRAfterChange;
  llvm::cl::opt<bool> timePasses;
  llvm::cl::opt<bool> passStatistics;
};

/// Runs `config` on `ep`. `verify` (may be empty) is the verifier used by
/// verify-each; dumps and reports go to `diag`. Errors start with
/// `<fileName>: error: `. A config without passes does nothing.
llvm::Error runPassPipeline(ExportedProgram &ep, llvm::StringRef fileName,
                            const PassPipelineConfig &config,
                            const VerifyHook &verify, PassContext context = {},
                            llvm::raw_ostream &diag = llvm::errs());

/// The driver's entry point: runPassPipeline with the flags' config.
/// `registry` (may be null: the built-in aten table) is handed to the passes.
llvm::Error runPassPipelineFromCL(ExportedProgram &ep, llvm::StringRef fileName,
                                  const PassCLOptions &options,
                                  const VerifyHook &verify,
                                  const OperatorRegistry *registry = nullptr);

/// A VerifyHook that runs verifyProgram and fails on error diagnostics,
/// printing them as `file: error: path: [rule] message`. Inline so only
/// drivers that use it link the verifier.
inline VerifyHook makeVerifierHook(std::string fileName,
                                   VerifyOptions options = {}) {
  return [fileName = std::move(fileName), options = std::move(options)](
             const ExportedProgram &ep) -> llvm::Error {
    std::vector<Diagnostic> diags = verifyProgram(ep, options);
    if (!hasErrors(diags))
      return llvm::Error::success();
    std::string text;
    llvm::raw_string_ostream os(text);
    printDiagnostics(os, fileName, diags);
    os.flush();
    while (!text.empty() && text.back() == '\n')
      text.pop_back();
    return llvm::createStringError(llvm::inconvertibleErrorCode(), text);
  };
}

} // namespace pt2ir

#endif
