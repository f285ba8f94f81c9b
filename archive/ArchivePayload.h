//===- ArchivePayload.h - Bytes to be written into an archive ---*- C++ -*-===//
//
// A PayloadSource is the content of one archive entry before it is written:
// either bytes held in memory, or an entry of an already open zip file whose
// bytes are streamed (and CRC-checked) only while the new archive is written.
// The second form is how large weights pass from one archive to another
// without ever being loaded whole.
//
// Copies are cheap (in-memory bytes are shared, archive entries are
// references). A source that refers to an archive keeps that archive open.
// Payloads are opaque: nothing here interprets, and in particular never
// unpickles, the bytes.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_ARCHIVE_ARCHIVEPAYLOAD_H
#define PT2IR_ARCHIVE_ARCHIVEPAYLOAD_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace pt2ir {

class ZipReader;
class ZipEntryStream;

/// The bytes of one archive entry: in memory, or an entry of an open zip.
class PayloadSource {
public:
  /// An empty in-memory payload.
  PayloadSource();
  /// Takes ownership of `bytes`.
  static PayloadSource fromBytes(std::string bytes);
  /// Refers to entry `index` of `reader`; the bytes are read when needed.
  static PayloadSource fromZipEntry(std::shared_ptr<ZipReader> reader,
                                    size_t index);

  /// The number of bytes.
  uint64_t size() const;
  /// The CRC-32 of the bytes: computed when in-memory bytes are given, taken
  /// from the (validated) central directory for zip entries.
  uint32_t crc32() const;
  /// True when the bytes live in another zip file.
  bool isZipEntry() const { return reader != nullptr; }
  /// The in-memory bytes, or nothing for a zip entry.
  std::optional<llvm::StringRef> inMemoryBytes() const;
  /// The zip entry's name, or empty for in-memory bytes.
  llvm::StringRef zipEntryName() const;

  /// Opens a checked stream over a zip-entry payload (an error for
  /// in-memory bytes).
  llvm::Expected<ZipEntryStream> openZipEntryStream() const;
  /// Loads all bytes into memory.
  llvm::Expected<std::string> readAll() const;
  /// Calls `consume` with consecutive chunks of at most `chunkSize` bytes;
  /// zip entries are verified (CRC-32, size) once the last chunk is read.
  llvm::Error
  forEachChunk(llvm::function_ref<llvm::Error(llvm::StringRef)> consume,
               size_t chunkSize = size_t(1) << 20) const;

private:
  std::shared_ptr<const std::string> bytes;
  uint32_t bytesCrc = 0;
  std::shared_ptr<ZipReader> reader;
  size_t index = 0;
};

} // namespace pt2ir

#endif
