//===- ProgramWriter.h - ExportedProgram to JSON -----------------*- C++ -*-===//
//
// Writes a program as torch does: every schema field in declaration order,
// Python json.dumps formatting, non-finite floats as strings. Unknown keys
// kept by the reader go back where they were.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_SERDE_PROGRAMWRITER_H
#define PT2IR_SERDE_PROGRAMWRITER_H

#include "pt2ir/ir/ExportedProgram.h"
#include "llvm/Support/Error.h"
#include <string>

namespace pt2ir {

/// Serializes `ep` to JSON text.
std::string writeProgram(const ExportedProgram &ep);

/// Appends the JSON of one Argument (used by tools that show arguments).
void writeArgumentJson(std::string &out, const Argument &arg);

/// Writes `bytes` to `path` atomically: a temporary file in the same folder,
/// then a rename. On failure the existing file is untouched. `-` is stdout.
llvm::Error writeFileAtomically(llvm::StringRef path, llvm::StringRef bytes);

} // namespace pt2ir

#endif
