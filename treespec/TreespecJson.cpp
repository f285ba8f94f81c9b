//===- TreespecJson.cpp - JSON handling inside the treespec library -------===//

#include "pt2ir/treespec/TreespecJson.h"
#include "pt2ir/json/JsonNumbers.h"

#include "llvm/ADT/SmallVector.h"
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

namespace pt2ir {

std::string quotedList(llvm::ArrayRef<std::string> names) {
  std::string out = "[";
  for (const std::string &name : names) {
    if (out.size() > 1)
      out += ", ";
    out += "'" + name + "'";
  }
  return out + "]";
}

namespace {

/// Forwards SAX events to a Document while counting array/object nesting;
/// aborts the parse once the nesting passes the cap.
class DepthCappedHandler {
public:
  DepthCappedHandler(rapidjson::Document &doc, unsigned maxDepth)
      : doc(doc), maxDepth(maxDepth) {}

  bool exceeded() const { return depthExceeded; }

  bool Null() { return doc.Null(); }
  bool Bool(bool b) { return doc.Bool(b); }
  bool Int(int i) { return doc.Int(i); }
  bool Uint(unsigned u) { return doc.Uint(u); }
  bool Int64(int64_t i) { return doc.Int64(i); }
  bool Uint64(uint64_t u) { return doc.Uint64(u); }
  bool Double(double d) { return doc.Double(d); }
  bool String(const char *str, rapidjson::SizeType len, bool copy) {
    return doc.String(str, len, copy);
  }
  bool Key(const char *str, rapidjson::SizeType len, bool copy) {
    return doc.Key(str, len, copy);
  }
  bool StartObject() { return enter() && doc.StartObject(); }
  bool EndObject(rapidjson::SizeType members) {
    --depth;
    return doc.EndObject(members);
  }
  bool StartArray() { return enter() && doc.StartArray(); }
  bool EndArray(rapidjson::SizeType elements) {
    --depth;
    return doc.EndArray(elements);
  }

private:
  bool enter() {
    if (++depth <= maxDepth)
      return true;
    depthExceeded = true;
    return false;
  }

  rapidjson::Document &doc;
  unsigned maxDepth;
  unsigned depth = 0;
  bool depthExceeded = false;
};

} // namespace

llvm::Error makeTreespecError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

llvm::Error parseBoundedJson(llvm::StringRef text, unsigned maxDepth,
                             llvm::StringRef what, rapidjson::Document &doc) {
  // RapidJSON's memory stream reports a NUL byte as end of input, which would
  // silently drop whatever follows it.
  size_t nul = text.find('\0');
  if (nul != llvm::StringRef::npos)
    return makeTreespecError(what + ": invalid JSON: NUL byte at offset " +
                             llvm::Twine(nul));

  // Invalid UTF-8 is refused, as by the program reader: it could only be
  // dumped as escapes of its single bytes, which read back as other text.
  // Numbers are converted by json/JsonNumbers.h.
  constexpr unsigned Flags = rapidjson::kParseIterativeFlag |
                             rapidjson::kParseValidateEncodingFlag |
                             json::ExactNumberFlags;
  rapidjson::ParseResult result;
  bool depthExceeded = false;
  std::string numberError;
  auto generator = [&](rapidjson::Document &target) {
    DepthCappedHandler capped(target, maxDepth);
    json::ExactNumbers<DepthCappedHandler> handler(capped);
    rapidjson::MemoryStream stream(text.data(), text.size());
    rapidjson::Reader reader;
    result = reader.Parse<Flags>(stream, handler);
    depthExceeded = capped.exceeded();
    numberError = handler.numberError();
    return !result.IsError();
  };
  doc.Populate(generator);
  if (depthExceeded)
    return makeTreespecError(what + ": JSON nesting exceeds the limit of " +
                             llvm::Twine(maxDepth) + " levels");
  if (result.IsError())
    return makeTreespecError(what + ": invalid JSON at offset " +
                             llvm::Twine(result.Offset()) + ": " +
                             (numberError.empty()
                                  ? rapidjson::GetParseError_En(result.Code())
                                  : numberError.c_str()));
  return llvm::Error::success();
}

llvm::Error parseHeldContext(const TreeSpec &spec, rapidjson::Document &doc) {
  if (spec.isLeaf())
    return makeTreespecError("a leaf treespec has no context");
  return parseBoundedJson(spec.getContextJson(), MaxTreespecContextDepth,
                          ("context of '" + spec.getTypeName() + "'").str(),
                          doc);
}

unsigned jsonNestingDepth(const rapidjson::Value &v, unsigned limit) {
  struct Pending {
    const rapidjson::Value *value;
    unsigned depth;
  };
  llvm::SmallVector<Pending, 16> work;
  work.push_back({&v, 0});
  unsigned deepest = 0;
  while (!work.empty()) {
    Pending item = work.pop_back_val();
    if (!item.value->IsArray() && !item.value->IsObject())
      continue;
    unsigned depth = item.depth + 1;
    if (depth > deepest)
      deepest = depth;
    if (deepest > limit)
      return limit + 1;
    if (item.value->IsArray()) {
      for (const auto &element : item.value->GetArray())
        work.push_back({&element, depth});
      continue;
    }
    for (const auto &member : item.value->GetObject())
      work.push_back({&member.value, depth});
  }
  return deepest;
}

llvm::StringRef describeJsonType(const rapidjson::Value &v) {
  switch (v.GetType()) {
  case rapidjson::kNullType:
    return "null";
  case rapidjson::kFalseType:
  case rapidjson::kTrueType:
    return "a boolean";
  case rapidjson::kObjectType:
    return "an object";
  case rapidjson::kArrayType:
    return "an array";
  case rapidjson::kStringType:
    return "a string";
  case rapidjson::kNumberType:
    return "a number";
  }
  return "an unknown JSON value";
}

} // namespace pt2ir
