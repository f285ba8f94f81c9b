//===- ArchivePath.h - Safety rules for names inside zip --------*- C++ -*-===//
//
// Entry names come from untrusted files. These checks reject every name that
// could escape a directory or alias another entry when a tool extracts the
// archive: absolute paths, drive letters, backslashes, `.` and `..`
// components, empty components and NUL bytes. Both the reader and the writer
// use them, so an archive we write is always one we accept.
//
// Nothing here touches the file system.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_ARCHIVE_ARCHIVEPATH_H
#define PT2IR_ARCHIVE_ARCHIVEPATH_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace pt2ir {

/// Checks a zip entry name. A single trailing `/` (a directory entry) is
/// allowed; everything listed in the file comment is rejected with an error
/// that quotes the name and says what is wrong with it.
llvm::Error validateEntryName(llvm::StringRef name);

/// Checks one path component used to build entry names (a model name, the
/// archive's root folder): it must be a valid name without any `/`.
llvm::Error validatePathComponent(llvm::StringRef component,
                                  llvm::StringRef what);

/// Returns true when `s` is well-formed UTF-8.
bool isValidUtf8(llvm::StringRef s);

/// Returns `name` quoted for an error message, with control and non-ASCII
/// bytes escaped so a hostile name cannot garble the terminal.
std::string quoteEntryName(llvm::StringRef name);

} // namespace pt2ir

#endif
