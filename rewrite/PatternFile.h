//===- PatternFile.h - Reading declarative pattern files --------*- C++ -*-===//
//
// Reads the files `rewrite{patterns=FILE}` takes into
// DeclarativePatternSpecs (rewrite/DeclarativePattern.h). Two formats,
// told apart by the first character that is not blank or in a `//` comment
// (docs/passes.md, "rewrite", describes both): `{` starts the JSON form,
// anything else is the text form, whose nodes are spelled as in the text
// form of programs (docs/text-format.md).
//
// Every error names the file, the line and the column (`f.pat:3:17: ...`).
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_REWRITE_PATTERNFILE_H
#define PT2IR_REWRITE_PATTERNFILE_H

#include "pt2ir/rewrite/DeclarativePattern.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace pt2ir {

/// Parses a pattern file's contents in either format; `fileName` is used
/// in error messages only.
llvm::Expected<std::vector<DeclarativePatternSpec>>
parsePatternFile(llvm::StringRef text, llvm::StringRef fileName);

/// Parses patterns in the text form only.
llvm::Expected<std::vector<DeclarativePatternSpec>>
parsePatternText(llvm::StringRef text, llvm::StringRef fileName);

/// Gives the positional arguments of `spec`'s nodes (the text form's
/// `aten.add.Tensor(%a, %b)`) their schema names from `operators`, as the
/// text form of programs does; an error when a target has no schema or
/// takes fewer positional arguments. Call before verifyPatternSpec.
llvm::Error nameArguments(DeclarativePatternSpec &spec, const OperatorRegistry &operators);

/// Reads and parses the pattern file at `path`.
llvm::Expected<std::vector<DeclarativePatternSpec>>
readPatternFile(llvm::StringRef path);

} // namespace pt2ir

#endif
