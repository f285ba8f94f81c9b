//===- TreespecDeclarations.cpp - Node types declared in a text file ------===//
//
// Parses the declaration lines of TreespecDeclarations.h and hands each to
// the registry; the registry checks names and duplicates.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/treespec/TreespecDeclarations.h"

#include "pt2ir/treespec/TreespecJson.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include <string>
#include <vector>

namespace pt2ir {

namespace {

constexpr llvm::StringLiteral ReturnNoneFields = "return-none-fields";
constexpr llvm::StringLiteral EmbeddedContext = "embedded-context";

bool isIdentifier(llvm::StringRef name) {
  if (name.empty() || llvm::isDigit(name.front()))
    return false;
  for (char c : name)
    if (!llvm::isAlnum(c) && c != '_')
      return false;
  return true;
}

/// Splits `text` (what follows the type name) into fields; `kind` names the
/// declaration in errors.
llvm::Expected<std::vector<std::string>> readFields(llvm::StringRef text,
                                                    llvm::StringRef kind) {
  std::vector<std::string> fields;
  text = text.trim();
  if (text.empty())
    return fields;
  llvm::SmallVector<llvm::StringRef, 8> parts;
  text.split(parts, ',');
  for (llvm::StringRef part : parts) {
    part = part.trim();
    if (part.empty())
      return makeTreespecError("empty field name in the field list of a " +
                               kind +
                               " (expected names separated by "
                               "commas, e.g. x,mask)");
    if (!isIdentifier(part))
      return makeTreespecError("field '" + part + "' of a " + kind +
                               " is not a Python identifier");
    fields.push_back(part.str());
  }
  return fields;
}

/// Registers one declaration line (trimmed, comment removed, non-empty).
llvm::Error declare(llvm::StringRef line, TreespecTypeRegistry &registry) {
  auto [kind, rest] = line.split(' ');
  rest = rest.trim();
  auto [name, tail] = rest.split(' ');
  tail = tail.trim();
  if (kind != "type" && kind != "dataclass" && kind != "namedtuple")
    return makeTreespecError("unknown declaration '" + kind +
                             "'; expected 'type NAME', 'dataclass NAME "
                             "FIELDS', or 'namedtuple NAME FIELDS'");
  if (name.empty())
    return makeTreespecError("'" + kind +
                             "' needs a fully qualified type name "
                             "(module.Name)");
  if (kind == "type") {
    if (tail.empty())
      return registry.registerType(name);
    if (tail != EmbeddedContext)
      return makeTreespecError("unexpected '" + tail + "' after 'type " + name +
                               "' (the only option is '" + EmbeddedContext +
                               "')");
    // The context is kept as the embedded JSON value; it is not checked.
    auto identity = [](llvm::StringRef json) -> llvm::Expected<std::string> {
      return json.str();
    };
    return registry.registerType(name,
                                 TreespecContextCodec{identity, identity});
  }
  bool returnNone = false;
  if (kind == "dataclass" && tail.consume_back(ReturnNoneFields)) {
    if (!tail.empty() && !llvm::isSpace(tail.back()) && tail.back() != ',')
      return makeTreespecError("expected '" + ReturnNoneFields +
                               "' as a word of its own after the field list");
    returnNone = true;
  }
  if (tail.contains(ReturnNoneFields))
    return makeTreespecError(kind == "dataclass"
                                 ? llvm::Twine("'") + ReturnNoneFields +
                                       "' goes last, after the field list"
                                 : llvm::Twine("'") + ReturnNoneFields +
                                       "' applies to dataclasses only");
  llvm::Expected<std::vector<std::string>> fields = readFields(tail, kind);
  if (!fields)
    return fields.takeError();
  if (kind == "dataclass")
    return registry.registerDataclass(name, *fields, returnNone);
  return registry.registerNamedtuple(name, *fields);
}

} // namespace

llvm::Error registerTreespecDeclarations(llvm::StringRef text,
                                         llvm::StringRef fileName,
                                         TreespecTypeRegistry &registry) {
  llvm::SmallVector<llvm::StringRef, 32> lines;
  text.split(lines, '\n');
  for (size_t i = 0; i < lines.size(); ++i) {
    llvm::StringRef line = lines[i];
    line = line.take_until([](char c) { return c == '#'; });
    // Tabs separate words as spaces do.
    std::string normalized = line.trim().str();
    for (char &c : normalized)
      if (c == '\t')
        c = ' ';
    if (normalized.empty())
      continue;
    if (llvm::Error err = declare(normalized, registry))
      return makeTreespecError(fileName + ":" + llvm::Twine(i + 1) +
                               ": error: " + llvm::toString(std::move(err)));
  }
  return llvm::Error::success();
}

} // namespace pt2ir
