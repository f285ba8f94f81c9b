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
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace pt2ir {

/// Serializes `ep` to JSON text.
std::string writeProgram(const ExportedProgram &ep);

/// Serializes `ep` to `os` as it goes (the same bytes as writeProgram),
/// handing over the output whenever `chunkBytes` have gathered, between
/// nodes and table entries: a large program is never held whole in memory.
void writeProgram(const ExportedProgram &ep, llvm::raw_ostream &os,
                  size_t chunkBytes = size_t(1) << 20);

/// Appends the JSON of one Argument (used by tools that show arguments).
void writeArgumentJson(std::string &out, const Argument &arg);

/// Writes `bytes` to `path` atomically: a temporary file in the same folder,
/// then a rename. On failure the existing file is untouched. `-` is stdout.
llvm::Error writeFileAtomically(llvm::StringRef path, llvm::StringRef bytes);

/// The same, for output produced as it is written: `write` streams into the
/// temporary file (or stdout), which replaces `path` only when `write`
/// succeeds and every byte reached the disk.
llvm::Error writeFileAtomically(llvm::StringRef path,
                                llvm::function_ref<llvm::Error(llvm::raw_ostream &)> write);

} // namespace pt2ir

#endif
