//===- ZipWriter.cpp - Aligned, atomic zip writing with libzip ------------===//
//
// libzip writes the entries of a new archive back to back in index order:
// local header (30 bytes + name + extra fields), then the data, with no data
// descriptor when the output is seekable. Its only automatic extra field for
// UTF-8 names without comments is none (it sets flag bit 11 instead), and it
// adds a ZIP64 extra field to the local header only for entries of 4 GiB or
// more. That makes every data offset predictable, so the padding field of
// each entry is computed up front. The prediction is checked against the
// written file before it replaces the destination.
//
//===----------------------------------------------------------------------===//
#include "pt2ir/archive/ZipWriter.h"

#include "pt2ir/archive/ArchivePath.h"
#include "pt2ir/archive/ZipDirectory.h"
#include "pt2ir/archive/ZipReader.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <memory>
#include <optional>
#include <unistd.h>
#include <vector>
#include <zip.h>

using namespace llvm;

namespace pt2ir {
namespace {

constexpr uint64_t LocalHeaderSize = 30;
constexpr uint64_t ExtraFieldHeaderSize = 4;
constexpr uint64_t Max32 = 0xffffffffu;
constexpr uint64_t MaxAlignment = 4096;
/// DOS date 1980-01-01, time 00:00:00: a fixed timestamp keeps the output
/// reproducible.
constexpr uint16_t FixedDosDate = (1 << 5) | 1;
constexpr uint16_t FixedDosTime = 0;
/// Regular file, rw-r--r--, in the upper half of the external attributes.
constexpr uint32_t UnixFileAttributes = 0100644u << 16;

/// Bytes libzip puts in a stored entry's local ZIP64 extra field (header
/// included) for an entry of `size` bytes.
uint64_t localZip64ExtraSize(uint64_t size) {
  if (size > Max32)
    return ExtraFieldHeaderSize + 16;
  if (size == Max32)
    return ExtraFieldHeaderSize; // libzip writes an empty ZIP64 field here.
  return 0;
}

/// Where each entry's data will start, and the padding that puts it there.
struct PlannedEntry {
  uint64_t dataOffset = 0;
  uint16_t padding = 0;
};

std::vector<PlannedEntry> planLayout(ArrayRef<ZipWriteEntry> entries,
                                     uint64_t alignment) {
  std::vector<PlannedEntry> plan;
  plan.reserve(entries.size());
  uint64_t cursor = 0;
  for (const ZipWriteEntry &entry : entries) {
    uint64_t size = entry.payload.size();
    uint64_t unpadded = cursor + LocalHeaderSize + entry.name.size() +
                        localZip64ExtraSize(size) + ExtraFieldHeaderSize;
    PlannedEntry planned;
    planned.padding = uint16_t((alignment - unpadded % alignment) % alignment);
    planned.dataOffset = unpadded + planned.padding;
    plan.push_back(planned);
    cursor = planned.dataOffset + size;
  }
  return plan;
}

Error writeError(StringRef path, const Twine &message) {
  return createStringError(inconvertibleErrorCode(),
                           "cannot write " + path + ": " + message);
}

Error checkEntries(StringRef path, ArrayRef<ZipWriteEntry> entries) {
  if (entries.empty())
    return writeError(path, "a zip archive needs at least one entry");
  StringSet<> names;
  for (const ZipWriteEntry &entry : entries) {
    if (Error err = validateEntryName(entry.name))
      return writeError(path, toString(std::move(err)));
    if (StringRef(entry.name).ends_with("/"))
      return writeError(path, "entry " + quoteEntryName(entry.name) +
                                  " names a directory; only files are "
                                  "written");
    if (!isValidUtf8(entry.name))
      return writeError(path, "entry name " + quoteEntryName(entry.name) +
                                  " is not valid UTF-8");
    if (entry.name.size() > 0xffff)
      return writeError(path, "entry name " + quoteEntryName(entry.name) +
                                  " is longer than 65535 bytes");
    if (!names.insert(entry.name).second)
      return writeError(path, "duplicate entry " + quoteEntryName(entry.name));
  }
  return Error::success();
}

/// Feeds one zip-entry payload to libzip through a callback source.
struct StreamingSource {
  const ZipWriteEntry *entry = nullptr;
  std::optional<ZipEntryStream> stream;
  /// The first failure, kept for the error report.
  std::string failure;
  zip_error_t error;

  StreamingSource() { zip_error_init(&error); }
  ~StreamingSource() { zip_error_fini(&error); }

  zip_int64_t fail(std::string message) {
    if (failure.empty())
      failure = std::move(message);
    zip_error_set(&error, ZIP_ER_READ, 0);
    return -1;
  }

  static zip_int64_t callback(void *userdata, void *data, zip_uint64_t length,
                              zip_source_cmd_t command) {
    auto *self = static_cast<StreamingSource *>(userdata);
    switch (command) {
    case ZIP_SOURCE_OPEN: {
      Expected<ZipEntryStream> stream =
          self->entry->payload.openZipEntryStream();
      if (!stream)
        return self->fail(toString(stream.takeError()));
      self->stream.emplace(std::move(*stream));
      return 0;
    }
    case ZIP_SOURCE_READ: {
      if (!self->stream)
        return self->fail("read before open");
      Expected<size_t> n = self->stream->read(
          MutableArrayRef<char>(static_cast<char *>(data), length));
      if (!n)
        return self->fail(toString(n.takeError()));
      return zip_int64_t(*n);
    }
    case ZIP_SOURCE_CLOSE:
      self->stream.reset();
      return 0;
    case ZIP_SOURCE_STAT: {
      zip_stat_t *stat =
          ZIP_SOURCE_GET_ARGS(zip_stat_t, data, length, &self->error);
      if (!stat)
        return -1;
      zip_stat_init(stat);
      stat->size = self->entry->payload.size();
      stat->valid |= ZIP_STAT_SIZE;
      return sizeof(zip_stat_t);
    }
    case ZIP_SOURCE_ERROR:
      return zip_error_to_data(&self->error, data, length);
    case ZIP_SOURCE_FREE:
      return 0; // The writer owns this object.
    case ZIP_SOURCE_SUPPORTS:
      return zip_source_make_command_bitmap(
          ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE, ZIP_SOURCE_STAT,
          ZIP_SOURCE_ERROR, ZIP_SOURCE_FREE, -1);
    default:
      zip_error_set(&self->error, ZIP_ER_OPNOTSUPP, 0);
      return -1;
    }
  }
};

/// Removes the temporary file unless released.
class TemporaryFile {
public:
  explicit TemporaryFile(std::string path) : path(std::move(path)) {}
  ~TemporaryFile() {
    if (!path.empty())
      sys::fs::remove(path);
  }
  const std::string &name() const { return path; }
  void release() { path.clear(); }

private:
  std::string path;
};

/// Hands every entry to libzip and closes (writes) the archive.
Error writeWithLibzip(StringRef finalPath, const std::string &temporary,
                      ArrayRef<ZipWriteEntry> entries,
                      ArrayRef<PlannedEntry> plan) {
  int code = 0;
  zip_t *archive = zip_open(temporary.c_str(), ZIP_TRUNCATE, &code);
  if (!archive) {
    zip_error_t error;
    zip_error_init_with_code(&error, code);
    std::string text = zip_error_strerror(&error);
    zip_error_fini(&error);
    return writeError(finalPath,
                      "libzip cannot create " + temporary + ": " + text);
  }
  // Owned here so they outlive zip_close, which is when libzip reads them.
  std::vector<std::unique_ptr<StreamingSource>> streams;
  std::string padding(MaxAlignment, 'Z');

  auto abandon = [&](const Twine &message) {
    Error err = writeError(finalPath, message);
    zip_discard(archive);
    return err;
  };

  for (size_t i = 0; i < entries.size(); ++i) {
    const ZipWriteEntry &entry = entries[i];
    zip_source_t *source;
    if (std::optional<StringRef> bytes = entry.payload.inMemoryBytes()) {
      source = zip_source_buffer(archive, bytes->data(), bytes->size(), 0);
    } else {
      streams.push_back(std::make_unique<StreamingSource>());
      streams.back()->entry = &entry;
      source = zip_source_function(archive, &StreamingSource::callback,
                                   streams.back().get());
    }
    if (!source)
      return abandon("entry " + quoteEntryName(entry.name) + ": " +
                     zip_strerror(archive));
    zip_int64_t index =
        zip_file_add(archive, entry.name.c_str(), source, ZIP_FL_ENC_UTF_8);
    if (index < 0) {
      zip_source_free(source);
      return abandon("entry " + quoteEntryName(entry.name) + ": " +
                     zip_strerror(archive));
    }
    uint64_t idx = uint64_t(index);
    const auto *paddingBytes =
        reinterpret_cast<const zip_uint8_t *>(padding.data());
    if (zip_set_file_compression(archive, idx, ZIP_CM_STORE, 0) < 0 ||
        zip_file_extra_field_set(archive, idx, PaddingExtraFieldId,
                                 ZIP_EXTRA_FIELD_NEW, paddingBytes,
                                 plan[i].padding, ZIP_FL_LOCAL) < 0 ||
        zip_file_set_dostime(archive, idx, FixedDosTime, FixedDosDate, 0) < 0 ||
        zip_file_set_external_attributes(archive, idx, 0, ZIP_OPSYS_UNIX,
                                         UnixFileAttributes) < 0)
      return abandon("entry " + quoteEntryName(entry.name) + ": " +
                     zip_strerror(archive));
  }

  if (zip_close(archive) < 0) {
    std::string reason = zip_strerror(archive);
    for (const std::unique_ptr<StreamingSource> &stream : streams)
      if (!stream->failure.empty()) {
        reason = "entry " + quoteEntryName(stream->entry->name) + ": " +
                 stream->failure;
        break;
      }
    zip_discard(archive);
    return writeError(finalPath, reason);
  }
  return Error::success();
}

/// Re-reads the written file and compares it with the plan.
Error verifyLayout(StringRef finalPath, const std::string &temporary,
                   ArrayRef<ZipWriteEntry> entries, ArrayRef<PlannedEntry> plan,
                   uint64_t alignment) {
  ArchiveLimits unlimited;
  unlimited.maxEntries = UINT64_MAX;
  unlimited.maxEntryBytes = UINT64_MAX;
  unlimited.maxTotalBytes = UINT64_MAX;
  Expected<std::shared_ptr<ZipReader>> reader =
      ZipReader::open(temporary, unlimited);
  if (!reader)
    return writeError(finalPath, "the written file does not read back: " +
                                     toString(reader.takeError()));
  ArrayRef<ZipEntryInfo> written = (*reader)->entries();
  if (written.size() != entries.size())
    return writeError(finalPath, "the written file has " +
                                     Twine(written.size()) + " entries, not " +
                                     Twine(entries.size()));
  for (size_t i = 0; i < entries.size(); ++i) {
    const ZipEntryInfo &info = written[i];
    const ZipWriteEntry &entry = entries[i];
    bool matches = info.name == entry.name && info.isStored() &&
                   info.size == entry.payload.size() &&
                   info.crc32 == entry.payload.crc32() &&
                   info.dataOffset == plan[i].dataOffset &&
                   info.dataOffset % alignment == 0;
    if (!matches)
      return writeError(finalPath,
                        "internal error: libzip laid out entry " +
                            quoteEntryName(entry.name) +
                            " differently than planned (data at offset " +
                            Twine(info.dataOffset) + ", expected " +
                            Twine(plan[i].dataOffset) + ")");
  }
  return Error::success();
}

} // namespace

Error writeAlignedZip(StringRef path, ArrayRef<ZipWriteEntry> entries,
                      uint64_t alignment) {
  if (alignment == 0 || alignment > MaxAlignment ||
      (alignment & (alignment - 1)))
    return writeError(path, "alignment " + Twine(alignment) +
                                " is not a power of two up to 4096");
  if (Error err = checkEntries(path, entries))
    return err;
  std::vector<PlannedEntry> plan = planLayout(entries, alignment);

  // The temporary lives beside the destination so the final rename stays on
  // one file system.
  SmallString<256> model(sys::path::parent_path(path));
  if (model.empty())
    model = ".";
  sys::path::append(model, "." + sys::path::filename(path) + ".tmp-%%%%%%%%");
  int fd = -1;
  SmallString<256> temporaryPath;
  if (std::error_code ec = sys::fs::createUniqueFile(model, fd, temporaryPath))
    return writeError(path, "cannot create a temporary file in " +
                                sys::path::parent_path(model) + ": " +
                                ec.message());
  ::close(fd);
  TemporaryFile temporary(temporaryPath.str().str());

  if (Error err = writeWithLibzip(path, temporary.name(), entries, plan))
    return err;
  if (Error err =
          verifyLayout(path, temporary.name(), entries, plan, alignment))
    return err;
  if (std::error_code ec = sys::fs::rename(temporary.name(), path))
    return writeError(path, "cannot rename " + temporary.name() + ": " +
                                ec.message());
  temporary.release();
  return Error::success();
}

} // namespace pt2ir
