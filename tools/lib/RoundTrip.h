//===- RoundTrip.h - Write, read back, compare ---------------------*- C++ -*-===//
#ifndef PT2IR_TOOLS_ROUNDTRIP_H
#define PT2IR_TOOLS_ROUNDTRIP_H

#include "pt2ir/ir/ExportedProgram.h"
#include "llvm/Support/Error.h"

namespace pt2ir {

/// Writes `ep`, reads the bytes back, writes again, and checks that the two
/// programs agree in memory (compared through their JSON trees) and that the
/// two writes are byte-identical. The error names the first differing JSON
/// path.
llvm::Error verifyRoundTrip(const ExportedProgram &ep, llvm::StringRef fileName);

/// The first JSON path where two JSON texts differ, or empty when equal.
std::string firstJsonDifference(llvm::StringRef a, llvm::StringRef b);

} // namespace pt2ir

#endif
