//===- Report.h - The benchmark table and its targets -------------*- C++
//-*-===//
//
// Turns stage results for several program sizes into one Markdown table
// (stage, nodes, time, ns/node, MB/s, ratio to the stage's reference, peak
// RSS, note) and a list of the performance targets with PASS/FAIL:
// read and write within 1.5x of the RapidJSON baselines, verify and each
// pass under a fifth of the read time, time per node at the largest size
// within 1.5x of that at 10k nodes, and loaded-program memory at most twice
// the JSON size.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_BENCH_REPORT_H
#define PT2IR_BENCH_REPORT_H

#include "pt2ir/bench/Stages.h"
#include "llvm/Support/raw_ostream.h"
#include <vector>

namespace pt2ir {
namespace bench {

/// Prints the table and the targets; returns true when every target that
/// could be evaluated passed.
bool printReport(llvm::raw_ostream &os,
                 const std::vector<StageResult> &results);

} // namespace bench
} // namespace pt2ir

#endif
