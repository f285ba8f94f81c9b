//===- PatternFile.h - Reading declarative pattern files --------*- C++ -*-===//
//
// Reads the files `rewrite{patterns=FILE}` takes into
// DeclarativePatternSpecs (rewrite/DeclarativePattern.h). The format is
// JSON for now (docs/passes.md, "rewrite", describes it); the text form of
// graphs will be a second reader behind the same entry point, chosen by the
// first non-blank character ('{' is JSON).
//
// Every error names the file, the line and the column (`f.json:3:17: ...`).
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_REWRITE_PATTERNFILE_H
#define PT2IR_REWRITE_PATTERNFILE_H

#include "pt2ir/rewrite/DeclarativePattern.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace pt2ir {

/// Parses pattern-file text; `fileName` is used in error messages only.
llvm::Expected<std::vector<DeclarativePatternSpec>>
parsePatternFile(llvm::StringRef text, llvm::StringRef fileName);

/// Reads and parses the pattern file at `path`.
llvm::Expected<std::vector<DeclarativePatternSpec>>
readPatternFile(llvm::StringRef path);

} // namespace pt2ir

#endif
