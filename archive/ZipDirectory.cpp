//===- ZipDirectory.cpp - Validating scan of a zip central directory ------===//
//
// Record layouts follow the PKWARE APPNOTE (sections 4.3.7 local header,
// 4.3.12 central header, 4.3.14-4.3.16 end records, 4.5.3 ZIP64 extra).
//
//===----------------------------------------------------------------------===//
#include "pt2ir/archive/ZipDirectory.h"

#include "pt2ir/archive/ArchivePath.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"
#include <algorithm>
#include <numeric>

using namespace llvm;

namespace pt2ir {
namespace {

constexpr uint32_t LocalHeaderSignature = 0x04034b50;
constexpr uint32_t CentralHeaderSignature = 0x02014b50;
constexpr uint32_t EndSignature = 0x06054b50;
constexpr uint32_t Zip64EndSignature = 0x06064b50;
constexpr uint32_t Zip64LocatorSignature = 0x07064b50;
constexpr uint16_t Zip64ExtraId = 0x0001;

constexpr size_t LocalHeaderSize = 30;
constexpr size_t CentralHeaderSize = 46;
constexpr size_t EndSize = 22;
constexpr size_t Zip64EndSize = 56;
constexpr size_t Zip64LocatorSize = 20;
constexpr size_t MaxCommentSize = 0xffff;

constexpr uint16_t FlagEncrypted = 1u << 0;
constexpr uint16_t FlagDataDescriptor = 1u << 3;
constexpr uint16_t FlagMaskedHeaders = 1u << 13;

constexpr uint32_t Max32 = 0xffffffffu;
constexpr uint16_t Max16 = 0xffffu;

uint16_t load16(const uint8_t *p) { return uint16_t(p[0] | (p[1] << 8)); }
uint32_t load32(const uint8_t *p) {
  return uint32_t(p[0]) | (uint32_t(p[1]) << 8) | (uint32_t(p[2]) << 16) |
         (uint32_t(p[3]) << 24);
}
uint64_t load64(const uint8_t *p) {
  return uint64_t(load32(p)) | (uint64_t(load32(p + 4)) << 32);
}

Error corrupt(const Twine &message) {
  return createStringError(inconvertibleErrorCode(),
                           "corrupt zip archive: " + message);
}

Error entryError(StringRef name, const Twine &message) {
  return createStringError(inconvertibleErrorCode(),
                           "entry " + quoteEntryName(name) + ": " + message);
}

/// Adds without wrapping; returns false on overflow.
bool addChecked(uint64_t a, uint64_t b, uint64_t &sum) {
  sum = a + b;
  return sum >= a;
}

/// Finds the ZIP64 extended-information field among `extra` fields.
/// Returns an empty ref when it is absent, or an error when the extra block
/// is malformed.
Expected<ArrayRef<uint8_t>> findZip64Extra(ArrayRef<uint8_t> extra,
                                           StringRef name) {
  size_t pos = 0;
  ArrayRef<uint8_t> found;
  while (pos < extra.size()) {
    if (extra.size() - pos < 4)
      return entryError(name, "truncated extra field header");
    uint16_t id = load16(extra.data() + pos);
    uint16_t length = load16(extra.data() + pos + 2);
    pos += 4;
    if (extra.size() - pos < length)
      return entryError(name, "extra field 0x" + Twine::utohexstr(id) +
                                  " runs past the end of the extra block");
    if (id == Zip64ExtraId && found.empty())
      found = extra.slice(pos, length);
    pos += length;
  }
  return found;
}

/// The fields of the end records that locate the central directory.
struct EndRecords {
  uint64_t entryCount = 0;
  uint64_t directorySize = 0;
  uint64_t directoryOffset = 0;
  /// Where the first end record starts; the central directory must end here.
  uint64_t recordsStart = 0;
  bool zip64 = false;
};

Expected<EndRecords> readEndRecords(ZipReadAt readAt, uint64_t fileSize) {
  if (fileSize < EndSize)
    return corrupt("the file is " + Twine(fileSize) +
                   " bytes, too short for an end-of-central-directory record");

  // The end record sits at the very end, followed only by its comment.
  uint64_t tailSize = std::min<uint64_t>(fileSize, EndSize + MaxCommentSize);
  std::vector<uint8_t> tail(tailSize);
  if (Error err = readAt(fileSize - tailSize, tail))
    return err;

  std::optional<size_t> endPos;
  for (size_t pos = tailSize - EndSize + 1; pos-- > 0;) {
    if (load32(tail.data() + pos) != EndSignature)
      continue;
    if (pos + EndSize + load16(tail.data() + pos + 20) == tailSize) {
      endPos = pos;
      break;
    }
  }
  if (!endPos)
    return corrupt("no end-of-central-directory record (not a zip file, or "
                   "truncated)");

  const uint8_t *end = tail.data() + *endPos;
  uint16_t diskNumber = load16(end + 4);
  uint16_t directoryDisk = load16(end + 6);
  uint16_t entriesOnDisk = load16(end + 8);
  EndRecords records;
  records.entryCount = load16(end + 10);
  records.directorySize = load32(end + 12);
  records.directoryOffset = load32(end + 16);
  records.recordsStart = fileSize - tailSize + *endPos;

  bool hasLocator = false;
  uint8_t locator[Zip64LocatorSize];
  if (records.recordsStart >= Zip64LocatorSize) {
    if (Error err = readAt(records.recordsStart - Zip64LocatorSize, locator))
      return err;
    hasLocator = load32(locator) == Zip64LocatorSignature;
  }

  if (!hasLocator) {
    if (records.entryCount == Max16 || records.directorySize == Max32 ||
        records.directoryOffset == Max32)
      return corrupt("the end record needs ZIP64 values but there is no "
                     "ZIP64 end-of-central-directory locator");
    if (diskNumber != 0 || directoryDisk != 0)
      return corrupt("multi-disk archives are not supported");
    if (entriesOnDisk != records.entryCount)
      return corrupt("the end record's entry counts disagree");
    return records;
  }

  // ZIP64: the locator points at the ZIP64 end record, whose fields win.
  uint32_t zip64Disk = load32(locator + 4);
  uint64_t zip64EndOffset = load64(locator + 8);
  uint32_t totalDisks = load32(locator + 16);
  if (zip64Disk != 0 || totalDisks > 1)
    return corrupt("multi-disk archives are not supported");
  uint64_t locatorStart = records.recordsStart - Zip64LocatorSize;
  if (zip64EndOffset > locatorStart ||
      locatorStart - zip64EndOffset < Zip64EndSize)
    return corrupt("the ZIP64 end record offset " + Twine(zip64EndOffset) +
                   " is outside the file");
  uint8_t zip64End[Zip64EndSize];
  if (Error err = readAt(zip64EndOffset, zip64End))
    return err;
  if (load32(zip64End) != Zip64EndSignature)
    return corrupt("no ZIP64 end record at offset " + Twine(zip64EndOffset));
  if (load32(zip64End + 16) != 0 || load32(zip64End + 20) != 0)
    return corrupt("multi-disk archives are not supported");
  uint64_t zip64EntriesOnDisk = load64(zip64End + 24);
  records.entryCount = load64(zip64End + 32);
  records.directorySize = load64(zip64End + 40);
  records.directoryOffset = load64(zip64End + 48);
  records.recordsStart = zip64EndOffset;
  records.zip64 = true;
  if (zip64EntriesOnDisk != records.entryCount)
    return corrupt("the ZIP64 end record's entry counts disagree");
  return records;
}

/// Parses one central-directory header at `pos` of `directory` into `entry`
/// and advances `pos`.
Error parseCentralHeader(ArrayRef<uint8_t> directory, size_t &pos,
                         uint64_t index, ZipEntryInfo &entry) {
  if (directory.size() - pos < CentralHeaderSize)
    return corrupt("central directory header " + Twine(index) +
                   " is truncated");
  const uint8_t *h = directory.data() + pos;
  if (load32(h) != CentralHeaderSignature)
    return corrupt("bad signature for central directory header " +
                   Twine(index));
  uint16_t flags = load16(h + 8);
  uint16_t method = load16(h + 10);
  uint32_t crc = load32(h + 16);
  uint32_t compressed32 = load32(h + 20);
  uint32_t size32 = load32(h + 24);
  uint16_t nameLength = load16(h + 28);
  uint16_t extraLength = load16(h + 30);
  uint16_t commentLength = load16(h + 32);
  uint16_t disk16 = load16(h + 34);
  uint32_t offset32 = load32(h + 42);

  size_t variable = size_t(nameLength) + extraLength + commentLength;
  if (directory.size() - pos - CentralHeaderSize < variable)
    return corrupt("central directory header " + Twine(index) +
                   " runs past the end of the central directory");
  const uint8_t *namePtr = h + CentralHeaderSize;
  entry.name.assign(reinterpret_cast<const char *>(namePtr), nameLength);
  ArrayRef<uint8_t> extra(namePtr + nameLength, extraLength);
  pos += CentralHeaderSize + variable;

  entry.flags = flags;
  entry.crc32 = crc;
  entry.compressedSize = compressed32;
  entry.size = size32;
  entry.localHeaderOffset = offset32;
  uint32_t disk = disk16;

  if (size32 == Max32 || compressed32 == Max32 || offset32 == Max32 ||
      disk16 == Max16) {
    Expected<ArrayRef<uint8_t>> zip64 = findZip64Extra(extra, entry.name);
    if (!zip64)
      return zip64.takeError();
    ArrayRef<uint8_t> fields = *zip64;
    auto take64 = [&](uint64_t &out) -> Error {
      if (fields.size() < 8)
        return entryError(entry.name, "the ZIP64 extra field is too short");
      out = load64(fields.data());
      fields = fields.drop_front(8);
      return Error::success();
    };
    if (size32 == Max32)
      if (Error err = take64(entry.size))
        return err;
    if (compressed32 == Max32)
      if (Error err = take64(entry.compressedSize))
        return err;
    if (offset32 == Max32)
      if (Error err = take64(entry.localHeaderOffset))
        return err;
    if (disk16 == Max16) {
      if (fields.size() < 4)
        return entryError(entry.name, "the ZIP64 extra field is too short");
      disk = load32(fields.data());
    }
  }

  if (disk != 0)
    return entryError(entry.name, "multi-disk archives are not supported");
  if (flags & (FlagEncrypted | FlagMaskedHeaders))
    return entryError(entry.name, "encrypted entries are not supported");
  if (method != uint16_t(ZipMethod::Stored) &&
      method != uint16_t(ZipMethod::Deflated))
    return entryError(entry.name,
                      "compression method " + Twine(method) +
                          " is not supported (only stored and deflated)");
  entry.method = ZipMethod(method);
  if (entry.isStored() && entry.compressedSize != entry.size)
    return entryError(entry.name, "stored entry has compressed size " +
                                      Twine(entry.compressedSize) +
                                      " but size " + Twine(entry.size));
  return Error::success();
}

/// Reads the local header of `entry`, checks it against the central
/// directory and fills in `entry.dataOffset`.
Error checkLocalHeader(ZipReadAt readAt, uint64_t directoryOffset,
                       ZipEntryInfo &entry) {
  uint64_t headerEnd;
  if (!addChecked(entry.localHeaderOffset, LocalHeaderSize, headerEnd) ||
      headerEnd > directoryOffset)
    return entryError(entry.name, "local header offset " +
                                      Twine(entry.localHeaderOffset) +
                                      " is not before the central directory");
  uint8_t h[LocalHeaderSize];
  if (Error err = readAt(entry.localHeaderOffset, h))
    return err;
  if (load32(h) != LocalHeaderSignature)
    return entryError(entry.name, "no local header at offset " +
                                      Twine(entry.localHeaderOffset));
  uint16_t flags = load16(h + 6);
  uint16_t method = load16(h + 8);
  uint32_t crc = load32(h + 14);
  uint64_t compressed = load32(h + 18);
  uint64_t size = load32(h + 22);
  uint16_t nameLength = load16(h + 26);
  uint16_t extraLength = load16(h + 28);

  uint64_t variableEnd = headerEnd + nameLength + extraLength;
  if (variableEnd > directoryOffset)
    return entryError(entry.name,
                      "local header runs into the central directory");
  std::vector<uint8_t> variable(size_t(nameLength) + extraLength);
  if (Error err = readAt(headerEnd, variable))
    return err;
  StringRef localName(reinterpret_cast<const char *>(variable.data()),
                      nameLength);
  if (localName != entry.name)
    return entryError(entry.name,
                      "the local header names it " + quoteEntryName(localName));
  if (method != uint16_t(entry.method))
    return entryError(entry.name, "the local header says compression method " +
                                      Twine(method) +
                                      ", the central "
                                      "directory says " +
                                      Twine(uint16_t(entry.method)));
  if (flags & (FlagEncrypted | FlagMaskedHeaders))
    return entryError(entry.name, "encrypted entries are not supported");

  // With a data descriptor the local CRC and sizes may legitimately be zero;
  // the central directory is authoritative then.
  if (!(flags & FlagDataDescriptor)) {
    if (size == Max32 || compressed == Max32) {
      Expected<ArrayRef<uint8_t>> zip64 = findZip64Extra(
          ArrayRef<uint8_t>(variable).drop_front(nameLength), entry.name);
      if (!zip64)
        return zip64.takeError();
      ArrayRef<uint8_t> fields = *zip64;
      if (size == Max32) {
        if (fields.size() < 8)
          return entryError(entry.name,
                            "the local ZIP64 extra field is too short");
        size = load64(fields.data());
        fields = fields.drop_front(8);
      }
      if (compressed == Max32) {
        if (fields.size() < 8)
          return entryError(entry.name,
                            "the local ZIP64 extra field is too short");
        compressed = load64(fields.data());
      }
    }
    if (crc != entry.crc32)
      return entryError(entry.name, "the local header's CRC-32 differs from "
                                    "the central directory's");
    if (size != entry.size || compressed != entry.compressedSize)
      return entryError(
          entry.name,
          "the local header says " + Twine(compressed) + "/" + Twine(size) +
              " bytes (compressed/uncompressed), the central "
              "directory says " +
              Twine(entry.compressedSize) + "/" + Twine(entry.size));
  }

  entry.dataOffset = variableEnd;
  uint64_t dataEnd;
  if (!addChecked(entry.dataOffset, entry.compressedSize, dataEnd) ||
      dataEnd > directoryOffset)
    return entryError(entry.name,
                      "its " + Twine(entry.compressedSize) +
                          " data bytes at offset " + Twine(entry.dataOffset) +
                          " run past the start of the central directory "
                          "(corrupt or truncated file)");
  return Error::success();
}

Error checkNoOverlap(ArrayRef<ZipEntryInfo> entries) {
  std::vector<size_t> order(entries.size());
  std::iota(order.begin(), order.end(), size_t(0));
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return entries[a].localHeaderOffset < entries[b].localHeaderOffset;
  });
  for (size_t i = 1; i < order.size(); ++i) {
    const ZipEntryInfo &previous = entries[order[i - 1]];
    const ZipEntryInfo &current = entries[order[i]];
    if (previous.dataOffset + previous.compressedSize >
        current.localHeaderOffset)
      return createStringError(
          inconvertibleErrorCode(),
          "entries " + quoteEntryName(previous.name) + " and " +
              quoteEntryName(current.name) +
              " overlap in the file (a zip-bomb construction)");
  }
  return Error::success();
}

} // namespace

Expected<ZipDirectory> scanZipDirectory(ZipReadAt readAt, uint64_t fileSize,
                                        const ArchiveLimits &limits) {
  Expected<EndRecords> records = readEndRecords(readAt, fileSize);
  if (!records)
    return records.takeError();

  if (records->entryCount > limits.maxEntries)
    return createStringError(inconvertibleErrorCode(),
                             "the archive lists " + Twine(records->entryCount) +
                                 " entries, more than the limit of " +
                                 Twine(limits.maxEntries));
  uint64_t directoryEnd;
  if (!addChecked(records->directoryOffset, records->directorySize,
                  directoryEnd) ||
      directoryEnd > records->recordsStart)
    return corrupt("the central directory (offset " +
                   Twine(records->directoryOffset) + ", " +
                   Twine(records->directorySize) +
                   " bytes) runs past the end records");
  if (records->directorySize / CentralHeaderSize < records->entryCount)
    return corrupt("the central directory is " + Twine(records->directorySize) +
                   " bytes, too small for " + Twine(records->entryCount) +
                   " entries");

  std::vector<uint8_t> directory(records->directorySize);
  if (Error err = readAt(records->directoryOffset, directory))
    return err;

  ZipDirectory result;
  result.centralDirectoryOffset = records->directoryOffset;
  result.centralDirectorySize = records->directorySize;
  result.zip64 = records->zip64;
  result.entries.resize(records->entryCount);

  StringMap<size_t> seen;
  uint64_t totalBytes = 0;
  size_t pos = 0;
  for (uint64_t i = 0; i < records->entryCount; ++i) {
    ZipEntryInfo &entry = result.entries[i];
    if (Error err = parseCentralHeader(directory, pos, i, entry))
      return err;
    if (Error err = validateEntryName(entry.name))
      return err;
    if (!seen.try_emplace(entry.name, i).second)
      return createStringError(inconvertibleErrorCode(),
                               "duplicate entry " + quoteEntryName(entry.name));
    if (entry.size > limits.maxEntryBytes)
      return entryError(entry.name,
                        "declares " + Twine(entry.size) +
                            " uncompressed bytes, more than the per-entry "
                            "limit of " +
                            Twine(limits.maxEntryBytes));
    if (!addChecked(totalBytes, entry.size, totalBytes) ||
        totalBytes > limits.maxTotalBytes)
      return createStringError(
          inconvertibleErrorCode(),
          "entries up to and including " + quoteEntryName(entry.name) +
              " declare more uncompressed bytes than the total limit of " +
              Twine(limits.maxTotalBytes));
    if (Error err = checkLocalHeader(readAt, records->directoryOffset, entry))
      return err;
  }
  if (pos != directory.size())
    return corrupt("the central directory has " +
                   Twine(directory.size() - pos) +
                   " bytes after its last entry");
  if (Error err = checkNoOverlap(result.entries))
    return err;
  return result;
}

} // namespace pt2ir
