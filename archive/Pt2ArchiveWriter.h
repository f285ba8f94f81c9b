//===- Pt2ArchiveWriter.h - Writing PyTorch .pt2 archives -------*- C++ -*-===//
//
// Writes a Pt2ArchiveContents as torch.export.save lays a `.pt2` out: every
// entry under one top-level folder, stored and 64-byte aligned (see
// ZipWriter.h), in torch's record order — per model its weight payloads,
// weights config, constant payloads, constants config, program and sample
// inputs; then AOTInductor, extra and other files; then `archive_format`,
// `archive_version`, `.data/version`, `byteorder` and
// `.data/serialization_id`. Contents read from the legacy layout come out in
// the current layout (whole pickles go to `data/weights/<m>.pt` and
// `data/constants/<m>.pt`, which torch still loads).
//
// Before anything is written, every name is checked and every payload a
// config refers to must be present. The write itself is atomic.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_ARCHIVE_PT2ARCHIVEWRITER_H
#define PT2IR_ARCHIVE_PT2ARCHIVEWRITER_H

#include "pt2ir/archive/Pt2Archive.h"
#include "pt2ir/archive/ZipWriter.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <vector>

namespace pt2ir {

/// Lists the zip entries (full names, in write order) that writePt2Archive
/// would write for `contents` to `path`, after the same checks.
llvm::Expected<std::vector<ZipWriteEntry>>
planPt2Archive(llvm::StringRef path, const Pt2ArchiveContents &contents);

/// Writes `contents` to `path` in torch's `.pt2` layout, replacing any
/// existing file only once the new one is complete.
llvm::Error writePt2Archive(llvm::StringRef path,
                            const Pt2ArchiveContents &contents);

} // namespace pt2ir

#endif
