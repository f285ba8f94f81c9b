//===- ZipReader.h - Lazy, validated access to a zip file -------*- C++ -*-===//
//
// Opens a zip file, validates its directory (see ZipDirectory.h) and gives
// access to entry bytes on demand: as a checked stream, read whole into
// memory, or (for stored entries) mapped straight from the file. Opening
// reads only the end records, the central directory and the local headers,
// so a multi-gigabyte archive opens without loading its payloads.
//
// Decompression and CRC-32 checking are done by libzip (the Debian
// `libzip-dev` package); the file is opened once and both libzip and the
// mapping path use that same open file, so the bytes checked at open time
// are the bytes read later.
//
// One ZipReader may be shared by several threads: calls into libzip are
// serialized by a per-reader mutex. It never writes.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_ARCHIVE_ZIPREADER_H
#define PT2IR_ARCHIVE_ZIPREADER_H

#include "pt2ir/archive/ArchiveLimits.h"
#include "pt2ir/archive/ZipDirectory.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include <memory>
#include <mutex>
#include <optional>
#include <string>

struct zip;
struct zip_file;

namespace pt2ir {

class ZipReader;

/// Streams the decompressed bytes of one entry. After the last byte it makes
/// libzip verify the CRC-32 and checks that exactly the declared size was
/// produced, so a stream that ends without error delivered correct data.
class ZipEntryStream {
public:
  ZipEntryStream(ZipEntryStream &&other) noexcept;
  ZipEntryStream &operator=(ZipEntryStream &&other) noexcept;
  ZipEntryStream(const ZipEntryStream &) = delete;
  ZipEntryStream &operator=(const ZipEntryStream &) = delete;
  ~ZipEntryStream();

  /// Reads up to `buffer.size()` bytes and returns how many were read; 0
  /// means the entry is complete and verified.
  llvm::Expected<size_t> read(llvm::MutableArrayRef<char> buffer);

  /// The declared decompressed size.
  uint64_t size() const;
  /// The entry's name inside the zip file.
  llvm::StringRef name() const;

private:
  friend class ZipReader;
  ZipEntryStream(std::shared_ptr<ZipReader> reader, size_t index,
                 zip_file *file);
  void close();
  llvm::Error finish();

  std::shared_ptr<ZipReader> reader;
  size_t index = 0;
  zip_file *file = nullptr;
  uint64_t delivered = 0;
  bool finished = false;
};

/// A validated, read-only zip file. Always held by shared_ptr so that
/// streams and payload references can keep it alive.
class ZipReader : public std::enable_shared_from_this<ZipReader> {
public:
  /// Opens and validates `path`. Errors start with the path.
  static llvm::Expected<std::shared_ptr<ZipReader>>
  open(llvm::StringRef path, const ArchiveLimits &limits = {});

  ZipReader(const ZipReader &) = delete;
  ZipReader &operator=(const ZipReader &) = delete;
  ~ZipReader();

  /// The path the reader was opened with.
  llvm::StringRef path() const { return filePath; }
  /// The validated directory.
  const ZipDirectory &directory() const { return dir; }
  /// Entries in central-directory order.
  llvm::ArrayRef<ZipEntryInfo> entries() const { return dir.entries; }
  /// The index of the entry named exactly `name`.
  std::optional<size_t> findEntry(llvm::StringRef name) const;

  /// Opens a checked stream over entry `index`.
  llvm::Expected<ZipEntryStream> openEntry(size_t index);
  /// Reads entry `index` whole into memory (checked like a stream).
  llvm::Expected<std::string> readEntry(size_t index);
  /// Maps a stored entry's bytes from the file without copying them (small
  /// entries may be read instead). The CRC-32 is not checked on this path;
  /// use openEntry or readEntry when integrity matters more than speed.
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> mapEntry(size_t index);

  /// Builds an error "<path>: entry '<name>': <message>".
  llvm::Error entryError(size_t index, const llvm::Twine &message) const;

private:
  friend class ZipEntryStream;
  ZipReader() = default;

  std::string filePath;
  int fd = -1;
  ::zip *archive = nullptr;
  ZipDirectory dir;
  llvm::StringMap<size_t> byName;
  /// Serializes every call into libzip for this archive.
  std::mutex libzipMutex;
};

} // namespace pt2ir

#endif
