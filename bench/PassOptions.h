//===- PassOptions.h - The options the benchmark runs passes with -*- C++ -*-===//
//
// Most passes run with their defaults; `rewrite` and `partition` need an
// input file, which this writes once per process into a temporary folder:
// a pattern file turning t + addmm into linear, and a supported-targets
// file with every op of the generated transformer except the matmuls (mm,
// bmm), so the partitioner has several partitions to find and merge.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_BENCH_PASSOPTIONS_H
#define PT2IR_BENCH_PASSOPTIONS_H

#include "pt2ir/passes/Pass.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace pt2ir {
namespace bench {

/// The options pass `name` is benchmarked with.
llvm::Expected<PassOptions> benchPassOptions(llvm::StringRef name);

/// Pipeline text for pass `name` with its benchmark options
/// (`rewrite{patterns=/tmp/...}`).
llvm::Expected<std::string> benchPipelineElement(llvm::StringRef name);

} // namespace bench
} // namespace pt2ir

#endif
