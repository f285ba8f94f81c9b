//===- BenchSupport.h - Timers, memory probes and subprocesses ----*- C++
//-*-===//
//
// The measuring primitives of the benchmark: process CPU time, resident set
// size (current and peak, with a way to reset the peak between stages) and
// running a program as a child with its CPU time and peak memory. Linux
// only (/proc, wait4); nothing here knows about programs or the IR.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_BENCH_BENCHSUPPORT_H
#define PT2IR_BENCH_BENCHSUPPORT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <string>
#include <vector>

namespace pt2ir {
namespace bench {

/// CPU time (user + system) this process has used, in seconds.
double processCpuSeconds();
/// Wall-clock seconds since an arbitrary fixed point.
double wallSeconds();

/// Resident set size now, in bytes.
int64_t currentRssBytes();
/// Peak resident set size since start or the last resetPeakRss(), in bytes.
int64_t peakRssBytes();
/// Makes the peak equal to the current RSS; false when the kernel refused.
bool resetPeakRss();
/// Returns freed heap memory to the system, so RSS reflects live data.
void releaseFreeHeap();

/// What a child process did.
struct ChildResult {
  /// Exit code, or -1 when it did not exit normally (signal, exec failure).
  int exitCode = -1;
  double cpuSeconds = 0;
  double wallSeconds = 0;
  int64_t peakRssBytes = 0;
};

/// Runs `argv[0]` with `argv`, standard output and error appended to
/// `logPath`, and waits for it.
ChildResult runChild(llvm::ArrayRef<std::string> argv, llvm::StringRef logPath);

/// The path of the running executable.
std::string selfExecutablePath();

} // namespace bench
} // namespace pt2ir

#endif
