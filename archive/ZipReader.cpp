//===- ZipReader.cpp - Lazy, validated access to a zip file ---------------===//
//
// Implements ZipReader and ZipEntryStream on top of libzip.
//
//===----------------------------------------------------------------------===//
#include "pt2ir/archive/ZipReader.h"

#include "pt2ir/archive/ArchivePath.h"
#include "llvm/Support/FileSystem.h"
#include <unistd.h>
#include <zip.h>

using namespace llvm;

namespace pt2ir {
namespace {

Error pathError(StringRef path, const Twine &message) {
  return createStringError(inconvertibleErrorCode(), path + ": " + message);
}

/// Reads exactly `buffer.size()` bytes at `offset` from `fd`.
Error readExactly(int fd, uint64_t offset, MutableArrayRef<uint8_t> buffer) {
  size_t done = 0;
  while (done < buffer.size()) {
    MutableArrayRef<char> rest(reinterpret_cast<char *>(buffer.data()) + done,
                               buffer.size() - done);
    Expected<size_t> n = sys::fs::readNativeFileSlice(fd, rest, offset + done);
    if (!n)
      return n.takeError();
    if (*n == 0)
      return createStringError(inconvertibleErrorCode(),
                               "unexpected end of file at offset " +
                                   Twine(offset + done));
    done += *n;
  }
  return Error::success();
}

std::string libzipErrorString(int code) {
  zip_error_t error;
  zip_error_init_with_code(&error, code);
  std::string text = zip_error_strerror(&error);
  zip_error_fini(&error);
  return text;
}

} // namespace

//===----------------------------------------------------------------------===//
// ZipReader
//===----------------------------------------------------------------------===//

Expected<std::shared_ptr<ZipReader>>
ZipReader::open(StringRef path, const ArchiveLimits &limits) {
  Expected<sys::fs::file_t> opened = sys::fs::openNativeFileForRead(path);
  if (!opened)
    return pathError(path, "cannot open: " + toString(opened.takeError()));

  std::shared_ptr<ZipReader> reader(new ZipReader());
  reader->filePath = path.str();
  reader->fd = *opened;

  sys::fs::file_status status;
  if (std::error_code ec = sys::fs::status(reader->fd, status))
    return pathError(path, "cannot stat: " + ec.message());
  if (status.type() != sys::fs::file_type::regular_file)
    return pathError(path, "not a regular file");

  int fd = reader->fd;
  auto readAt = [fd](uint64_t offset, MutableArrayRef<uint8_t> buffer) {
    return readExactly(fd, offset, buffer);
  };
  Expected<ZipDirectory> directory =
      scanZipDirectory(readAt, status.getSize(), limits);
  if (!directory)
    return pathError(path, toString(directory.takeError()));
  reader->dir = std::move(*directory);
  for (size_t i = 0; i < reader->dir.entries.size(); ++i)
    reader->byName.try_emplace(reader->dir.entries[i].name, i);

  // libzip gets its own descriptor for the same open file description, so it
  // reads exactly the file that was validated above.
  int libzipFd = ::dup(fd);
  if (libzipFd < 0)
    return pathError(
        path, "cannot duplicate the file descriptor: " +
                  std::error_code(errno, std::generic_category()).message());
  int code = 0;
  reader->archive = zip_fdopen(libzipFd, 0, &code);
  if (!reader->archive) {
    ::close(libzipFd);
    return pathError(path, "libzip cannot open it: " + libzipErrorString(code));
  }

  // The two parsers must agree entry by entry.
  zip_int64_t count = zip_get_num_entries(reader->archive, 0);
  if (count < 0 || uint64_t(count) != reader->dir.entries.size())
    return pathError(path, "corrupt zip archive: libzip sees " + Twine(count) +
                               " entries, the central directory scan " +
                               Twine(reader->dir.entries.size()));
  for (size_t i = 0; i < reader->dir.entries.size(); ++i) {
    const ZipEntryInfo &entry = reader->dir.entries[i];
    const char *name = zip_get_name(reader->archive, i, ZIP_FL_ENC_RAW);
    zip_stat_t stat;
    zip_stat_init(&stat);
    bool agrees =
        name && entry.name == name &&
        zip_stat_index(reader->archive, i, ZIP_FL_ENC_RAW, &stat) == 0 &&
        (stat.valid & ZIP_STAT_SIZE) && stat.size == entry.size &&
        (stat.valid & ZIP_STAT_COMP_SIZE) &&
        stat.comp_size == entry.compressedSize;
    if (!agrees)
      return reader->entryError(i, "libzip and the central directory scan "
                                   "disagree about this entry");
  }
  return reader;
}

ZipReader::~ZipReader() {
  if (archive)
    zip_discard(archive);
  if (fd >= 0)
    ::close(fd);
}

std::optional<size_t> ZipReader::findEntry(StringRef name) const {
  auto it = byName.find(name);
  if (it == byName.end())
    return std::nullopt;
  return it->second;
}

Error ZipReader::entryError(size_t index, const Twine &message) const {
  return createStringError(inconvertibleErrorCode(),
                           filePath + ": entry " +
                               quoteEntryName(dir.entries[index].name) + ": " +
                               message);
}

Expected<ZipEntryStream> ZipReader::openEntry(size_t index) {
  if (index >= dir.entries.size())
    return pathError(filePath,
                     "entry index " + Twine(index) + " is out of range");
  zip_file_t *file;
  {
    std::lock_guard<std::mutex> lock(libzipMutex);
    file = zip_fopen_index(archive, index, 0);
    if (!file)
      return entryError(index,
                        std::string("cannot open: ") + zip_strerror(archive));
  }
  return ZipEntryStream(shared_from_this(), index, file);
}

Expected<std::string> ZipReader::readEntry(size_t index) {
  Expected<ZipEntryStream> stream = openEntry(index);
  if (!stream)
    return stream.takeError();
  uint64_t size = stream->size();
  if (size > std::string().max_size())
    return entryError(index, "too large to hold in memory");
  std::string bytes(size, '\0');
  size_t filled = 0;
  while (true) {
    MutableArrayRef<char> rest(bytes.data() + filled, bytes.size() - filled);
    Expected<size_t> n = stream->read(rest);
    if (!n)
      return n.takeError();
    if (*n == 0)
      break;
    filled += *n;
  }
  return bytes;
}

Expected<std::unique_ptr<MemoryBuffer>> ZipReader::mapEntry(size_t index) {
  if (index >= dir.entries.size())
    return pathError(filePath,
                     "entry index " + Twine(index) + " is out of range");
  const ZipEntryInfo &entry = dir.entries[index];
  if (!entry.isStored())
    return entryError(index, "is deflated, so it cannot be mapped; read it "
                             "instead");
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      MemoryBuffer::getOpenFileSlice(fd, filePath + ":" + entry.name,
                                     entry.size, int64_t(entry.dataOffset));
  if (!buffer)
    return entryError(index, "cannot map: " + buffer.getError().message());
  return std::move(*buffer);
}

//===----------------------------------------------------------------------===//
// ZipEntryStream
//===----------------------------------------------------------------------===//

ZipEntryStream::ZipEntryStream(std::shared_ptr<ZipReader> reader, size_t index,
                               zip_file *file)
    : reader(std::move(reader)), index(index), file(file) {}

ZipEntryStream::ZipEntryStream(ZipEntryStream &&other) noexcept
    : reader(std::move(other.reader)), index(other.index), file(other.file),
      delivered(other.delivered), finished(other.finished) {
  other.file = nullptr;
}

ZipEntryStream &ZipEntryStream::operator=(ZipEntryStream &&other) noexcept {
  if (this == &other)
    return *this;
  close();
  reader = std::move(other.reader);
  index = other.index;
  file = other.file;
  delivered = other.delivered;
  finished = other.finished;
  other.file = nullptr;
  return *this;
}

ZipEntryStream::~ZipEntryStream() { close(); }

void ZipEntryStream::close() {
  if (!file)
    return;
  std::lock_guard<std::mutex> lock(reader->libzipMutex);
  zip_fclose(file);
  file = nullptr;
}

uint64_t ZipEntryStream::size() const {
  return reader->dir.entries[index].size;
}

StringRef ZipEntryStream::name() const {
  return reader->dir.entries[index].name;
}

Error ZipEntryStream::finish() {
  // One more read past the declared size: libzip checks the CRC-32 when it
  // reaches the end of the data, and any extra byte means the data is longer
  // than the directory says.
  char probe;
  zip_int64_t n;
  {
    std::lock_guard<std::mutex> lock(reader->libzipMutex);
    n = zip_fread(file, &probe, 1);
  }
  if (n < 0)
    return reader->entryError(index, std::string("data is corrupt: ") +
                                         zip_file_strerror(file));
  if (n > 0)
    return reader->entryError(index, "data is longer than the declared " +
                                         Twine(size()) + " bytes");
  finished = true;
  close();
  return Error::success();
}

Expected<size_t> ZipEntryStream::read(MutableArrayRef<char> buffer) {
  if (finished)
    return 0;
  if (!file)
    return reader->entryError(index, "the stream was closed after an error");
  uint64_t remaining = size() - delivered;
  if (remaining == 0) {
    if (Error err = finish())
      return err;
    return 0;
  }
  if (buffer.empty())
    return reader->entryError(index, "read called with an empty buffer");
  uint64_t want = std::min<uint64_t>(buffer.size(), remaining);
  zip_int64_t n;
  {
    std::lock_guard<std::mutex> lock(reader->libzipMutex);
    n = zip_fread(file, buffer.data(), want);
  }
  if (n < 0)
    return reader->entryError(index, std::string("data is corrupt: ") +
                                         zip_file_strerror(file));
  if (n == 0)
    return reader->entryError(index, "data ends after " + Twine(delivered) +
                                         " of the declared " + Twine(size()) +
                                         " bytes");
  delivered += uint64_t(n);
  return size_t(n);
}

} // namespace pt2ir
