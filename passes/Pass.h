//===- Pass.h - The interface every pass implements --------------*- C++ -*-===//
//
// A pass transforms one ExportedProgram in place. It reports whether it
// changed anything (so the manager can skip re-verification and
// --print-ir-after-change can stay quiet) and counts what it did in named
// statistics (`nodes-erased`, `asserts-added`).
//
// Built-in passes are listed once, in passes/PassRegistry.def; that list
// feeds the factory, `pt2-opt --help` and the pipeline parser. Passes from
// elsewhere join them through registerPass (passes/PassRegistry.h).
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_PASSES_PASS_H
#define PT2IR_PASSES_PASS_H

#include "pt2ir/ir/ExportedProgram.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace pt2ir {

/// What the pass manager shares with every pass besides the program. The
/// program itself carries its Registry (ExportedProgram::getRegistry()),
/// which is where a pass finds operator schemas.
struct PassContext {
  /// Where a pass may print remarks (the pass manager's diagnostic stream);
  /// null means llvm::errs().
  llvm::raw_ostream *diagnostics = nullptr;
};

/// One pass option as given in a pipeline: `dce{remove-asserts=true}`.
using PassOptions = std::vector<std::pair<std::string, std::string>>;

class Pass {
public:
  virtual ~Pass() = default;
  /// The registry name (`dce`).
  virtual llvm::StringRef getName() const = 0;
  /// Applies options; an unknown option or bad value is an error that lists
  /// the options that exist.
  virtual llvm::Error setOptions(const PassOptions &options);
  /// Runs on `ep`; returns whether the program changed.
  virtual llvm::Expected<bool> run(ExportedProgram &ep, PassContext &ctx) = 0;

  /// Named counters, reset before each run.
  const std::map<std::string, int64_t> &getStatistics() const { return stats; }
  void resetStatistics() { stats.clear(); }

protected:
  void addStatistic(llvm::StringRef name, int64_t delta = 1) { stats[name.str()] += delta; }

private:
  std::map<std::string, int64_t> stats;
};

} // namespace pt2ir

#endif
