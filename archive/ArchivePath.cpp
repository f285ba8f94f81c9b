//===- ArchivePath.cpp - Safety rules for names inside zip archives -------===//
//
// Implements the entry-name checks declared in ArchivePath.h.
//
//===----------------------------------------------------------------------===//
#include "pt2ir/archive/ArchivePath.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"

using namespace llvm;

namespace pt2ir {

bool isValidUtf8(StringRef s) {
  const auto *begin = reinterpret_cast<const UTF8 *>(s.data());
  return isLegalUTF8String(&begin, begin + s.size());
}

std::string quoteEntryName(StringRef name) {
  bool keepHighBytes = isValidUtf8(name);
  std::string out = "'";
  for (unsigned char c : name) {
    bool printable = (c >= 0x20 && c < 0x7f) || (c >= 0x80 && keepHighBytes);
    if (printable && c != '\'' && c != '\\') {
      out.push_back(static_cast<char>(c));
      continue;
    }
    if (c == '\'' || c == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
      continue;
    }
    out += "\\x";
    out.push_back(hexdigit(c >> 4, /*LowerCase=*/true));
    out.push_back(hexdigit(c & 15, /*LowerCase=*/true));
  }
  out.push_back('\'');
  return out;
}

static Error nameError(StringRef name, const Twine &problem) {
  return createStringError(inconvertibleErrorCode(), "unsafe entry name " +
                                                         quoteEntryName(name) +
                                                         ": " + problem);
}

Error validateEntryName(StringRef name) {
  if (name.empty())
    return nameError(name, "the name is empty");
  if (name.contains('\0'))
    return nameError(name, "it contains a NUL byte");
  if (name.contains('\\'))
    return nameError(name, "it contains a backslash");
  if (name.front() == '/')
    return nameError(name, "it is an absolute path");
  if (name.size() >= 2 && isAlpha(name[0]) && name[1] == ':')
    return nameError(name, "it starts with a drive letter");

  // A single trailing '/' marks a directory entry; strip it before splitting.
  StringRef body = name;
  if (body.ends_with("/"))
    body = body.drop_back();
  if (body.empty())
    return nameError(name, "the name has no components");

  SmallVector<StringRef, 8> components;
  body.split(components, '/', /*MaxSplit=*/-1, /*KeepEmpty=*/true);
  for (StringRef component : components) {
    if (component.empty())
      return nameError(name, "it has an empty path component");
    if (component == "..")
      return nameError(name, "it has a '..' component");
    if (component == ".")
      return nameError(name, "it has a '.' component");
  }
  return Error::success();
}

Error validatePathComponent(StringRef component, StringRef what) {
  if (component.contains('/'))
    return createStringError(inconvertibleErrorCode(),
                             what + " " + quoteEntryName(component) +
                                 " must not contain '/'");
  if (Error err = validateEntryName(component))
    return createStringError(
        inconvertibleErrorCode(),
        what + " is not usable in an entry name: " + toString(std::move(err)));
  return Error::success();
}

} // namespace pt2ir
