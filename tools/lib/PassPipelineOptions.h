//===- PassPipelineOptions.h - pt2-opt pass flags ---------------*- C++ -*-===//
//
// The command-line side of the pass manager: `--pass-pipeline=...`, one
// `--<pass>` flag per pass the registry knows (the built-in ones of
// passes/PassRegistry.def and those plugins registered), `--verify-each`,
// `--print-ir-before/after...`, `--time-passes` and `--pass-statistics`. The
// flags live in a struct the driver owns (no global option objects);
// runPassPipelineFromCL turns them into a PassManager run.
//
// Deliberately not here: reading and writing programs (tools/lib/OptMain.cpp)
// and the verify-each hook (passes/PassManager.h's makeVerifierHook).
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
  /// Registers the flags, one per pass of `registry`. A pass whose name is
  /// already an option of the driver gets no flag of its own; it is still
  /// reachable through --pass-pipeline.
  PassCLOptions(llvm::cl::OptionCategory &category, const Registry &registry);
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
  /// One `--<name>` flag per pass that has one, with the pass's name.
  std::vector<std::pair<std::string, std::unique_ptr<llvm::cl::opt<bool>>>>
      passFlags;
  llvm::cl::opt<bool> verifyEach;
  llvm::cl::list<std::string> printIRBefore;
  llvm::cl::list<std::string> printIRAfter;
  llvm::cl::opt<bool> printIRAfterAll;
  llvm::cl::opt<bool> printIRAfterChange;
  llvm::cl::opt<bool> timePasses;
  llvm::cl::opt<bool> passStatistics;
};

/// Runs `config` on `ep` with a PassManager of the program's registry.
/// `verify` (may be empty) is the verifier used by verify-each; dumps and
/// reports go to `diag`. Errors start with `<fileName>: error: `. A config
/// without passes does nothing.
llvm::Error runPassPipeline(ExportedProgram &ep, llvm::StringRef fileName,
                            const PassPipelineConfig &config,
                            const VerifyHook &verify,
                            llvm::raw_ostream &diag = llvm::errs());

/// The driver's entry point: runPassPipeline with the flags' config.
llvm::Error runPassPipelineFromCL(ExportedProgram &ep, llvm::StringRef fileName,
                                  const PassCLOptions &options,
                                  const VerifyHook &verify);

} // namespace pt2ir

#endif
