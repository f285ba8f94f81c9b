//===- Pt2ArchiveLayout.cpp - Names and rules of the .pt2 layout ----------===//
//
// Implements the helpers declared in Pt2ArchiveLayout.h.
//
//===----------------------------------------------------------------------===//
#include "pt2ir/archive/Pt2ArchiveLayout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/xxhash.h"
#include <algorithm>
#include <cstdio>
#include <rapidjson/encodedstream.h>
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

using namespace llvm;

namespace pt2ir {
namespace pt2layout {
namespace {

/// SAX handler that picks `config.<fqn>.path_name` strings.
class PathNameCollector
    : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>,
                                          PathNameCollector> {
public:
  std::vector<std::string> pathNames;
  bool rootIsObject = false;
  bool sawConfig = false;
  bool tooDeep = false;

  bool StartObject() {
    if (!enter())
      return false;
    if (depth == 1)
      rootIsObject = true;
    if (depth == 2 && keyAtDepth1 == "config") {
      inConfig = true;
      sawConfig = true;
    }
    return true;
  }
  bool EndObject(rapidjson::SizeType) {
    if (depth == 2)
      inConfig = false;
    --depth;
    return true;
  }
  bool StartArray() { return enter(); }
  bool EndArray(rapidjson::SizeType) {
    --depth;
    return true;
  }
  bool Key(const char *s, rapidjson::SizeType length, bool) {
    if (depth == 1)
      keyAtDepth1.assign(s, length);
    else if (depth == 3)
      keyAtDepth3.assign(s, length);
    return true;
  }
  bool String(const char *s, rapidjson::SizeType length, bool) {
    if (depth == 3 && inConfig && keyAtDepth3 == "path_name")
      pathNames.emplace_back(s, length);
    return true;
  }
  bool Default() { return true; }

private:
  bool enter() {
    if (++depth > MaxPayloadConfigDepth) {
      tooDeep = true;
      return false;
    }
    return true;
  }

  unsigned depth = 0;
  bool inConfig = false;
  std::string keyAtDepth1;
  std::string keyAtDepth3;
};

} // namespace

Expected<std::vector<std::string>>
payloadConfigPathNames(StringRef configJson) {
  rapidjson::MemoryStream memory(configJson.data(), configJson.size());
  rapidjson::EncodedInputStream<rapidjson::UTF8<>, rapidjson::MemoryStream>
      input(memory);
  PathNameCollector collector;
  rapidjson::Reader reader;
  rapidjson::ParseResult result =
      reader.Parse<rapidjson::kParseIterativeFlag |
                   rapidjson::kParseValidateEncodingFlag>(input, collector);
  if (collector.tooDeep)
    return createStringError(inconvertibleErrorCode(),
                             "payload config nests deeper than " +
                                 Twine(MaxPayloadConfigDepth) + " levels");
  if (!result)
    return createStringError(
        inconvertibleErrorCode(),
        "payload config is not valid JSON: " +
            Twine(rapidjson::GetParseError_En(result.Code())) + " at byte " +
            Twine(result.Offset()));
  if (!collector.rootIsObject || !collector.sawConfig)
    return createStringError(inconvertibleErrorCode(),
                             "payload config has no \"config\" object");
  return std::move(collector.pathNames);
}

std::string rootFolderForFile(StringRef path) {
  size_t start = path.find_last_of("/\\");
  StringRef base = start == StringRef::npos ? path : path.drop_front(start + 1);
  // Drop the last extension; a leading dot is not an extension separator
  // and leaves nothing usable.
  size_t dot = base.rfind('.');
  if (dot != StringRef::npos)
    base = base.take_front(dot);
  return base.str();
}

std::string computeSerializationId(
    ArrayRef<std::pair<std::string, uint32_t>> namesAndCrcs) {
  std::vector<StringRef> names;
  names.reserve(namesAndCrcs.size());
  std::string crcBytes;
  crcBytes.reserve(namesAndCrcs.size() * 4);
  for (const auto &[name, crc] : namesAndCrcs) {
    names.push_back(name);
    for (int shift = 0; shift < 32; shift += 8)
      crcBytes.push_back(char((crc >> shift) & 0xff));
  }
  llvm::sort(names);
  std::string joinedNames;
  for (StringRef name : names) {
    joinedNames += name;
    joinedNames.push_back('\n');
  }
  char digits[41];
  std::snprintf(digits, sizeof(digits), "%020llu%020llu",
                static_cast<unsigned long long>(xxh3_64bits(joinedNames)),
                static_cast<unsigned long long>(xxh3_64bits(crcBytes)));
  return std::string(digits, 40);
}

} // namespace pt2layout
} // namespace pt2ir
