//===- PassManager.h - Runs passes with instrumentation ---------*- C++ -*-===//
//
// A PassManager holds an ordered list of passes and runs them on one
// program. Around each pass it verifies the program (with the verifier by
// default, or through a hook the user supplies), dumps the IR as text before
// or after chosen passes, times the passes and collects their statistics.
// After a pass that changed the program it recomputes the unbacked-symbol
// bindings, which are derived data every pass may rely on.
//
// Passes are found by name in the manager's Registry (built-in ones and
// those registered at run time); the programs it runs on must have been read
// or built with that same registry.
//
// Deliberately not here: choosing passes from the command line
// (tools/lib/PassPipelineOptions.h) and the pipeline syntax
// (passes/PassRegistry.h).
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_PASSES_PASSMANAGER_H
#define PT2IR_PASSES_PASSMANAGER_H

#include "pt2ir/passes/Pass.h"
#include "pt2ir/passes/PassRegistry.h"
#include "pt2ir/verifier/Verifier.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace pt2ir {

/// Checks a program between passes. Returns success, or an error whose
/// message lists what is wrong (one finding per line).
using VerifyHook = std::function<llvm::Error(const ExportedProgram &)>;

/// A VerifyHook that runs verifyProgram with `options` and fails on error
/// diagnostics, listing them as `<fileName>: error: <path>: [<rule>] ...`
/// (one per line). This is what a PassManager verifies with by default.
VerifyHook makeVerifierHook(std::string fileName = "<program>",
                            VerifyOptions options = {});

/// What the pass manager does around each pass.
struct PassInstrumentation {
  /// Run the verify hook on the input (see verifyInput) and after every pass
  /// that changed the program. With the hook removed this does nothing.
  bool verifyEach = true;
  /// With verifyEach, also verify the program before the first pass, so a
  /// broken input is not blamed on a pass. Off when the caller already
  /// verified what it read (pt2-opt does).
  bool verifyInput = true;
  /// Dump the IR before / after passes with these registry names.
  std::vector<std::string> printIRBefore;
  std::vector<std::string> printIRAfter;
  /// Dump the IR after every pass.
  bool printIRAfterAll = false;
  /// Dump the IR only after passes that changed it. Alone, it applies to
  /// every pass; with printIRAfter / printIRAfterAll it narrows those.
  bool printIRAfterChange = false;
  /// Print a timing table when the run ends.
  bool timePasses = false;
  /// Print each pass's statistics when the run ends.
  bool passStatistics = false;
};

/// What one pass did in the last run.
struct PassRunRecord {
  std::string name;
  double seconds = 0;
  bool changed = false;
  std::map<std::string, int64_t> statistics;
};

class PassManager {
public:
  /// A pass manager that finds passes in `registry` (null:
  /// Registry::getDefault()) and verifies with makeVerifierHook().
  explicit PassManager(std::shared_ptr<const Registry> registry = nullptr);

  const Registry &getRegistry() const { return *registry; }

  /// Appends a pass.
  void addPass(std::unique_ptr<Pass> pass);
  /// Creates and appends every pass of a parsed pipeline; on error nothing
  /// is added.
  llvm::Error addPipeline(llvm::ArrayRef<PassPipelineElement> pipeline);
  /// Parses `text` (see parsePassPipeline) and appends its passes.
  llvm::Error addPipeline(llvm::StringRef text);
  size_t size() const { return passes.size(); }
  bool empty() const { return passes.empty(); }
  /// The registry names of the passes, in order.
  std::vector<std::string> getPassNames() const;

  /// Replaces the verifier used by `verifyEach`; an empty hook disables it.
  void setVerifyHook(VerifyHook hook) { verifyHook = std::move(hook); }
  /// Sets the instrumentation. Pass names in printIRBefore / printIRAfter
  /// must be registered.
  llvm::Error setInstrumentation(PassInstrumentation instrumentation);
  const PassInstrumentation &getInstrumentation() const { return instr; }
  /// Whether to recompute the unbacked-symbol bindings (ir/UnbackedBindings.h)
  /// after every pass that changed the program, so later passes never see
  /// stale ones (default on). A symbol left unbound is then an error.
  void setRefreshUnbackedBindings(bool on) { refreshBindings = on; }
  /// Where IR dumps and reports go (default: llvm::errs()).
  void setDiagnosticStream(llvm::raw_ostream &os) { diagOS = &os; }

  /// Runs every pass in order on `ep`. Stops at the first pass that fails
  /// or leaves the program failing verification; the error names the pass.
  /// Reports (timing, statistics) are printed even when a pass fails. A
  /// program read or built with another registry than the manager's is
  /// refused: its passes and its schemas would not agree.
  llvm::Error run(ExportedProgram &ep);

  /// One record per pass that ran in the last `run`.
  llvm::ArrayRef<PassRunRecord> getRunRecords() const { return records; }

  /// The `--time-passes` table for the last run.
  void printTimingReport(llvm::raw_ostream &os) const;
  /// The `--pass-statistics` listing for the last run.
  void printStatisticsReport(llvm::raw_ostream &os) const;

private:
  llvm::raw_ostream &diag() const { return diagOS ? *diagOS : llvm::errs(); }
  void dumpIR(const ExportedProgram &ep, llvm::StringRef when,
              llvm::StringRef passName) const;
  bool wantsDumpAfter(llvm::StringRef passName, bool changed) const;
  llvm::Error verify(const ExportedProgram &ep, llvm::StringRef afterPass);
  void printReports() const;

  std::shared_ptr<const Registry> registry;
  std::vector<std::unique_ptr<Pass>> passes;
  VerifyHook verifyHook;
  PassInstrumentation instr;
  llvm::raw_ostream *diagOS = nullptr;
  bool refreshBindings = true;
  std::vector<PassRunRecord> records;
  double verifySeconds = 0;
};

} // namespace pt2ir

#endif
