//===- ZipWriter.h - Aligned, atomic zip writing with libzip ----*- C++ -*-===//
//
// Writes a zip file the way PyTorch's container writer lays records out:
// every entry stored (uncompressed), the data of each entry starting at a
// file offset that is a multiple of the alignment (64 bytes by default), the
// gap filled by a local-header extra field with id "FB" and 'Z' filler
// bytes. Such payloads can be memory-mapped in place.
//
// The file is built under a temporary name in the destination directory,
// checked (the layout is re-read and every entry's offset, size and CRC
// compared with the plan) and only then renamed over the destination, so a
// failed write leaves no partial archive and any existing file untouched.
//
// Entry payloads are streamed: in-memory bytes are handed to libzip without
// a copy, entries of another open zip are read chunk by chunk while writing.
//
// This layer knows nothing about the `.pt2` layout; Pt2ArchiveWriter decides
// names and order.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_ARCHIVE_ZIPWRITER_H
#define PT2IR_ARCHIVE_ZIPWRITER_H

#include "pt2ir/archive/ArchivePayload.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>

namespace pt2ir {

/// One entry of a zip file to be written.
struct ZipWriteEntry {
  /// Full entry name; must pass validateEntryName, be UTF-8 and not name a
  /// directory.
  std::string name;
  PayloadSource payload;
};

/// The PyTorch container alignment of entry data.
constexpr uint64_t TorchDataAlignment = 64;

/// The 2-byte id of the padding extra field, as it appears in the file
/// ("FB" read as a little-endian integer).
constexpr uint16_t PaddingExtraFieldId = 0x4246;

/// Writes `entries`, in order, to a new zip file at `path`, replacing it
/// atomically. `alignment` must be a power of two no larger than 4096.
llvm::Error writeAlignedZip(llvm::StringRef path,
                            llvm::ArrayRef<ZipWriteEntry> entries,
                            uint64_t alignment = TorchDataAlignment);

} // namespace pt2ir

#endif
