//===- Passes.h - Factories of every registered pass ------------*- C++ -*-===//
//
// Declares `std::unique_ptr<Pass> create<ClassName>()` for every pass listed
// in passes/PassRegistry.def. Each pass defines its factory in its own .cpp.
// Prefer createPass(name, options) from passes/PassRegistry.h when the pass
// is chosen by name; these are for code that wants one pass directly.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_PASSES_PASSES_H
#define PT2IR_PASSES_PASSES_H

#include "pt2ir/passes/Pass.h"
#include <memory>

namespace pt2ir {

/// One factory per PT2IR_PASS line: dce -> createDeadCodeEliminationPass(),
/// canonicalize-symbols -> createCanonicalizeSymbolsPass(), and so on.
#define PT2IR_PASS(NAME, CLASS, SUMMARY) std::unique_ptr<Pass> create##CLASS();
#include "pt2ir/passes/PassRegistry.def"

} // namespace pt2ir

#endif
