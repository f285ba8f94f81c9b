//===- ArchivePayload.cpp - Bytes to be written into an archive -----------===//
//
// Implements PayloadSource.
//
//===----------------------------------------------------------------------===//
#include "pt2ir/archive/ArchivePayload.h"

#include "pt2ir/archive/ZipReader.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CRC.h"
#include <vector>

using namespace llvm;

namespace pt2ir {

PayloadSource::PayloadSource()
    : bytes(std::make_shared<std::string>()), bytesCrc(llvm::crc32({})) {}

PayloadSource PayloadSource::fromBytes(std::string data) {
  PayloadSource source;
  source.bytesCrc = llvm::crc32(arrayRefFromStringRef(data));
  source.bytes = std::make_shared<const std::string>(std::move(data));
  return source;
}

PayloadSource PayloadSource::fromZipEntry(std::shared_ptr<ZipReader> reader,
                                          size_t index) {
  PayloadSource source;
  source.bytes.reset();
  source.reader = std::move(reader);
  source.index = index;
  return source;
}

uint64_t PayloadSource::size() const {
  if (reader)
    return reader->entries()[index].size;
  return bytes->size();
}

uint32_t PayloadSource::crc32() const {
  if (reader)
    return reader->entries()[index].crc32;
  return bytesCrc;
}

std::optional<StringRef> PayloadSource::inMemoryBytes() const {
  if (reader)
    return std::nullopt;
  return StringRef(*bytes);
}

StringRef PayloadSource::zipEntryName() const {
  if (!reader)
    return {};
  return reader->entries()[index].name;
}

Expected<ZipEntryStream> PayloadSource::openZipEntryStream() const {
  if (!reader)
    return createStringError(inconvertibleErrorCode(),
                             "the payload is held in memory, not in a zip "
                             "entry");
  return reader->openEntry(index);
}

Expected<std::string> PayloadSource::readAll() const {
  if (reader)
    return reader->readEntry(index);
  return *bytes;
}

Error PayloadSource::forEachChunk(function_ref<Error(StringRef)> consume,
                                  size_t chunkSize) const {
  if (chunkSize == 0)
    chunkSize = 1;
  if (!reader) {
    StringRef rest = *bytes;
    while (!rest.empty()) {
      if (Error err = consume(rest.take_front(chunkSize)))
        return err;
      rest = rest.drop_front(std::min(chunkSize, rest.size()));
    }
    return Error::success();
  }
  Expected<ZipEntryStream> stream = reader->openEntry(index);
  if (!stream)
    return stream.takeError();
  std::vector<char> buffer(std::min<uint64_t>(chunkSize, stream->size() + 1));
  while (true) {
    Expected<size_t> n = stream->read(buffer);
    if (!n)
      return n.takeError();
    if (*n == 0)
      return Error::success();
    if (Error err = consume(StringRef(buffer.data(), *n)))
      return err;
  }
}

} // namespace pt2ir
