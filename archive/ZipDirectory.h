//===- ZipDirectory.h - Validating scan of a zip directory ------*- C++ -*-===//
//
// Parses the end records (plain and ZIP64), the central directory and every
// local header of a zip file, and checks them against each other before any
// entry data is trusted: the local header must repeat the central
// directory's name, method and (unless a data descriptor is used) CRC and
// sizes; entry data must lie before the central directory and no two entries
// may overlap; names must be safe and unique; declared sizes must respect the
// ArchiveLimits. Every error names the entry it is about.
//
// The scan also yields what libzip does not expose: the file offset where
// each entry's data starts (needed to map stored payloads and to check their
// alignment).
//
// It does not decompress or checksum entry data; ZipReader does that.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_ARCHIVE_ZIPDIRECTORY_H
#define PT2IR_ARCHIVE_ZIPDIRECTORY_H

#include "pt2ir/archive/ArchiveLimits.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>
#include <vector>

namespace pt2ir {

/// Zip compression methods this project reads.
enum class ZipMethod : uint16_t { Stored = 0, Deflated = 8 };

/// One entry of a zip file, as the central directory describes it after the
/// local header was checked against it.
struct ZipEntryInfo {
  /// The raw name bytes (zip names are normally UTF-8).
  std::string name;
  ZipMethod method = ZipMethod::Stored;
  /// General-purpose flag bits from the central directory.
  uint16_t flags = 0;
  uint32_t crc32 = 0;
  uint64_t compressedSize = 0;
  /// Decompressed size.
  uint64_t size = 0;
  uint64_t localHeaderOffset = 0;
  /// File offset of the first byte of the (possibly compressed) data.
  uint64_t dataOffset = 0;

  bool isDirectory() const { return !name.empty() && name.back() == '/'; }
  bool isStored() const { return method == ZipMethod::Stored; }
};

/// The validated directory of a zip file.
struct ZipDirectory {
  /// Entries in central-directory order.
  std::vector<ZipEntryInfo> entries;
  uint64_t centralDirectoryOffset = 0;
  uint64_t centralDirectorySize = 0;
  /// True when the file has ZIP64 end records.
  bool zip64 = false;
};

/// Reads exactly `buffer.size()` bytes at `offset` of the file being scanned,
/// or fails.
using ZipReadAt = llvm::function_ref<llvm::Error(
    uint64_t offset, llvm::MutableArrayRef<uint8_t> buffer)>;

/// Scans and validates the directory of a zip file of `fileSize` bytes. Only
/// stored and deflated, unencrypted entries are accepted.
llvm::Expected<ZipDirectory> scanZipDirectory(ZipReadAt readAt,
                                              uint64_t fileSize,
                                              const ArchiveLimits &limits);

} // namespace pt2ir

#endif
