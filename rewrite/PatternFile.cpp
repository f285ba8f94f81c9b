//===- PatternFile.cpp - Reading declarative pattern files ----------------===//
//
// The JSON form (the text form is rewrite/PatternText.cpp's). A small JSON
// parser that keeps the line and column of every value, so
// that mistakes found after parsing (an unknown key, a name used before it
// is defined) are reported where they were written, and a converter from
// that tree to DeclarativePatternSpecs.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/rewrite/PatternFile.h"

#include "pt2ir/ir/Enums.h"
#include "pt2ir/rewrite/Builder.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>

namespace pt2ir {

namespace {

/// A JSON value with where it starts.
struct JsonNode {
  enum class Kind : uint8_t { Null, Bool, Int, Float, String, Array, Object };
  Kind kind = Kind::Null;
  bool boolValue = false;
  int64_t intValue = 0;
  double floatValue = 0;
  std::string text;
  std::vector<JsonNode> items;
  std::vector<std::pair<std::string, JsonNode>> members;
  std::vector<PatternLoc> keyLocs;
  PatternLoc loc;

  const JsonNode *find(llvm::StringRef key) const {
    for (const auto &[k, v] : members)
      if (k == key)
        return &v;
    return nullptr;
  }
};

llvm::StringRef kindName(JsonNode::Kind k) {
  switch (k) {
  case JsonNode::Kind::Null:
    return "null";
  case JsonNode::Kind::Bool:
    return "a boolean";
  case JsonNode::Kind::Int:
  case JsonNode::Kind::Float:
    return "a number";
  case JsonNode::Kind::String:
    return "a string";
  case JsonNode::Kind::Array:
    return "an array";
  case JsonNode::Kind::Object:
    return "an object";
  }
  return "a value";
}

class JsonParser {
public:
  JsonParser(llvm::StringRef text, llvm::StringRef file) : text(text), file(file) {
    lineStarts.push_back(0);
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n')
        lineStarts.push_back(i + 1);
  }

  llvm::Expected<JsonNode> parseDocument() {
    JsonNode root;
    if (auto err = parseValue(root, 0))
      return err;
    skipSpace();
    if (pos != text.size())
      return error("unexpected text after the JSON document");
    return root;
  }

private:
  PatternLoc here() const {
    PatternLoc loc;
    loc.file = file.str();
    auto next = std::upper_bound(lineStarts.begin(), lineStarts.end(), pos);
    loc.line = unsigned(next - lineStarts.begin());
    loc.column = unsigned(pos - *(next - 1) + 1);
    return loc;
  }

  llvm::Error error(const llvm::Twine &message) const {
    return makePatternError(here(), message);
  }

  void skipSpace() {
    while (pos < text.size() &&
           (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\n' ||
            text[pos] == '\r'))
      ++pos;
  }

  llvm::Error parseValue(JsonNode &out, unsigned depth) {
    if (depth > 64)
      return error("JSON nested deeper than 64 levels");
    skipSpace();
    out.loc = here();
    if (pos == text.size())
      return error("expected a JSON value, found the end of the file");
    char c = text[pos];
    if (c == '{')
      return parseObject(out, depth);
    if (c == '[')
      return parseArray(out, depth);
    if (c == '"') {
      out.kind = JsonNode::Kind::String;
      return parseString(out.text);
    }
    if (c == '-' || llvm::isDigit(c))
      return parseNumber(out);
    for (auto [word, kind, value] :
         {std::tuple{"true", JsonNode::Kind::Bool, true},
          std::tuple{"false", JsonNode::Kind::Bool, false},
          std::tuple{"null", JsonNode::Kind::Null, false}}) {
      if (text.substr(pos).starts_with(word)) {
        pos += llvm::StringRef(word).size();
        out.kind = kind;
        out.boolValue = value;
        return llvm::Error::success();
      }
    }
    return error("expected a JSON value, found '" + std::string(1, c) + "'");
  }

  llvm::Error parseString(std::string &out) {
    ++pos; // The opening quote.
    while (pos < text.size() && text[pos] != '"') {
      char c = text[pos++];
      if (c == '\n')
        return error("unterminated string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos == text.size())
        break;
      char e = text[pos++];
      switch (e) {
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'u': {
        unsigned code = 0;
        if (pos + 4 > text.size() ||
            text.substr(pos, 4).getAsInteger(16, code))
          return error("bad \\u escape");
        pos += 4;
        if (code >= 0x80)
          return error("non-ASCII \\u escapes are not supported in pattern files");
        out += char(code);
        break;
      }
      case '"':
      case '\\':
      case '/':
        out += e;
        break;
      default:
        return error("bad escape '\\" + std::string(1, e) + "'");
      }
    }
    if (pos == text.size())
      return error("unterminated string");
    ++pos; // The closing quote.
    return llvm::Error::success();
  }

  llvm::Error parseNumber(JsonNode &out) {
    size_t start = pos;
    bool isFloat = false;
    if (text[pos] == '-')
      ++pos;
    while (pos < text.size()) {
      char c = text[pos];
      if (llvm::isDigit(c)) {
        ++pos;
      } else if (c == '.' || c == 'e' || c == 'E' ||
                 ((c == '+' || c == '-') &&
                  (text[pos - 1] == 'e' || text[pos - 1] == 'E'))) {
        isFloat = true;
        ++pos;
      } else {
        break;
      }
    }
    std::string token = text.slice(start, pos).str();
    const char *first = token.data(), *last = token.data() + token.size();
    if (!isFloat) {
      auto [ptr, ec] = std::from_chars(first, last, out.intValue);
      if (ec != std::errc() || ptr != last)
        return makePatternError(out.loc, "bad integer '" + token + "'");
      out.kind = JsonNode::Kind::Int;
      return llvm::Error::success();
    }
    char *end = nullptr;
    out.floatValue = std::strtod(first, &end);
    if (end != last)
      return makePatternError(out.loc, "bad number '" + token + "'");
    out.kind = JsonNode::Kind::Float;
    return llvm::Error::success();
  }

  llvm::Error parseArray(JsonNode &out, unsigned depth) {
    out.kind = JsonNode::Kind::Array;
    ++pos;
    skipSpace();
    if (pos < text.size() && text[pos] == ']') {
      ++pos;
      return llvm::Error::success();
    }
    while (true) {
      out.items.emplace_back();
      if (auto err = parseValue(out.items.back(), depth + 1))
        return err;
      skipSpace();
      if (pos < text.size() && text[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < text.size() && text[pos] == ']') {
        ++pos;
        return llvm::Error::success();
      }
      return error("expected ',' or ']' in an array");
    }
  }

  llvm::Error parseObject(JsonNode &out, unsigned depth) {
    out.kind = JsonNode::Kind::Object;
    ++pos;
    skipSpace();
    if (pos < text.size() && text[pos] == '}') {
      ++pos;
      return llvm::Error::success();
    }
    while (true) {
      skipSpace();
      if (pos == text.size() || text[pos] != '"')
        return error("expected a quoted key in an object");
      PatternLoc keyLoc = here();
      std::string key;
      if (auto err = parseString(key))
        return err;
      for (const auto &member : out.members)
        if (member.first == key)
          return makePatternError(keyLoc, "key '" + key + "' appears twice");
      skipSpace();
      if (pos == text.size() || text[pos] != ':')
        return error("expected ':' after a key");
      ++pos;
      out.members.emplace_back(std::move(key), JsonNode());
      out.keyLocs.push_back(keyLoc);
      if (auto err = parseValue(out.members.back().second, depth + 1))
        return err;
      skipSpace();
      if (pos < text.size() && text[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < text.size() && text[pos] == '}') {
        ++pos;
        return llvm::Error::success();
      }
      return error("expected ',' or '}' in an object");
    }
  }

  llvm::StringRef text;
  llvm::StringRef file;
  std::vector<size_t> lineStarts;
  size_t pos = 0;
};

llvm::Error expectKind(const JsonNode &n, JsonNode::Kind kind,
                       llvm::StringRef what) {
  if (n.kind == kind)
    return llvm::Error::success();
  return makePatternError(n.loc, what + " must be " + kindName(kind) +
                                     ", not " + kindName(n.kind));
}

/// Refuses keys of `obj` not in `allowed`.
llvm::Error checkKeys(const JsonNode &obj, std::initializer_list<llvm::StringRef> allowed,
                      llvm::StringRef what) {
  for (size_t i = 0; i < obj.members.size(); ++i) {
    if (llvm::is_contained(allowed, obj.members[i].first))
      continue;
    std::string list;
    for (llvm::StringRef a : allowed)
      list += (list.empty() ? "" : ", ") + a.str();
    return makePatternError(obj.keyLocs[i], "unknown key '" + obj.members[i].first +
                                                "' in " + what + " (expected " +
                                                list + ")");
  }
  return llvm::Error::success();
}

llvm::Expected<std::vector<std::string>> readNames(const JsonNode *n,
                                                   llvm::StringRef what,
                                                   const PatternLoc &owner) {
  std::vector<std::string> names;
  if (!n)
    return makePatternError(owner, "missing \"" + what + "\"");
  if (auto err = expectKind(*n, JsonNode::Kind::Array, "\"" + what.str() + "\""))
    return err;
  for (const JsonNode &item : n->items) {
    if (auto err = expectKind(item, JsonNode::Kind::String, "a name in \"" + what.str() + "\""))
      return err;
    llvm::StringRef name = item.text;
    name.consume_front("%");
    if (name.empty())
      return makePatternError(item.loc, "empty name");
    names.push_back(name.str());
  }
  return names;
}

std::optional<int64_t> dtypeByName(llvm::StringRef name) {
  for (int64_t v = 0; v < 64; ++v) {
    if (!scalarTypeName(v).empty() &&
        (scalarTypeShortName(v) == name || scalarTypeName(v) == name))
      return v;
  }
  return std::nullopt;
}

llvm::Expected<PatternArg> readArg(const JsonNode &n) {
  PatternArg arg;
  arg.loc = n.loc;
  using K = PatternArg::Kind;
  switch (n.kind) {
  case JsonNode::Kind::Null:
    arg.kind = K::None;
    return arg;
  case JsonNode::Kind::Bool:
    arg.kind = K::Bool;
    arg.boolValue = n.boolValue;
    return arg;
  case JsonNode::Kind::Int:
    arg.kind = K::Int;
    arg.intValue = n.intValue;
    return arg;
  case JsonNode::Kind::Float:
    arg.kind = K::Float;
    arg.floatValue = n.floatValue;
    return arg;
  case JsonNode::Kind::String: {
    llvm::StringRef s = n.text;
    if (s.consume_front("%")) {
      if (s.empty())
        return makePatternError(n.loc, "'%' must be followed by a value name");
      arg.kind = K::Ref;
    } else {
      arg.kind = K::String;
    }
    arg.text = s.str();
    return arg;
  }
  case JsonNode::Kind::Array:
    arg.kind = K::List;
    for (const JsonNode &item : n.items) {
      auto e = readArg(item);
      if (!e)
        return e.takeError();
      arg.elements.push_back(std::move(*e));
    }
    return arg;
  case JsonNode::Kind::Object:
    break;
  }
  if (n.members.size() != 1)
    return makePatternError(n.loc, "a typed constant is an object with one key: "
                                   "dtype, layout, memory_format, device or string");
  const auto &[key, value] = n.members.front();
  auto enumValue = [&](K kind, auto byName) -> llvm::Expected<PatternArg> {
    arg.kind = kind;
    if (value.kind == JsonNode::Kind::Int) {
      arg.intValue = value.intValue;
      return arg;
    }
    if (value.kind == JsonNode::Kind::String)
      if (std::optional<int64_t> v = byName(llvm::StringRef(value.text))) {
        arg.intValue = *v;
        return arg;
      }
    return makePatternError(value.loc, "unknown " + key + " '" + value.text + "'");
  };
  if (key == "dtype")
    return enumValue(K::ScalarType, dtypeByName);
  if (key == "layout")
    return enumValue(K::Layout, [](llvm::StringRef s) -> std::optional<int64_t> {
      if (s == "strided" || s == "Strided")
        return int64_t(Layout::Strided);
      return std::nullopt;
    });
  if (key == "memory_format")
    return enumValue(K::MemoryFormat, [](llvm::StringRef s) -> std::optional<int64_t> {
      if (s == "contiguous")
        return int64_t(MemoryFormat::ContiguousFormat);
      if (s == "channels_last")
        return int64_t(MemoryFormat::ChannelsLast);
      if (s == "channels_last_3d")
        return int64_t(MemoryFormat::ChannelsLast3d);
      if (s == "preserve")
        return int64_t(MemoryFormat::PreserveFormat);
      return std::nullopt;
    });
  if (key == "device" || key == "string") {
    if (auto err = expectKind(value, JsonNode::Kind::String, "\"" + key + "\""))
      return err;
    arg.kind = key == "device" ? K::Device : K::String;
    arg.text = value.text;
    arg.intValue = -1;
    if (key == "device") {
      auto [type, index] = llvm::StringRef(value.text).split(':');
      arg.text = type.str();
      if (!index.empty() && index.getAsInteger(10, arg.intValue))
        return makePatternError(value.loc, "bad device '" + value.text + "'");
    }
    return arg;
  }
  return makePatternError(n.keyLocs.front(), "unknown typed constant '" + key +
                                                 "' (expected dtype, layout, "
                                                 "memory_format, device or string)");
}

llvm::Expected<std::vector<PatternNodeSpec>>
readNodes(const JsonNode *list, llvm::StringRef what, const PatternLoc &owner,
          bool replacement) {
  std::vector<PatternNodeSpec> nodes;
  if (!list)
    return makePatternError(owner, "missing \"" + what + "\"");
  if (auto err = expectKind(*list, JsonNode::Kind::Array, "\"" + what.str() + "\""))
    return err;
  for (const JsonNode &n : list->items) {
    if (auto err = expectKind(n, JsonNode::Kind::Object, "a node"))
      return err;
    if (auto err = replacement
                       ? checkKeys(n, {"target", "args", "results", "like"}, "a node")
                       : checkKeys(n, {"target", "args", "results"}, "a node"))
      return err;
    PatternNodeSpec node;
    node.loc = n.loc;
    const JsonNode *target = n.find("target");
    if (!target)
      return makePatternError(n.loc, "a node needs a \"target\"");
    if (auto err = expectKind(*target, JsonNode::Kind::String, "\"target\""))
      return err;
    if (target->text.empty())
      return makePatternError(target->loc, "empty target");
    node.target = toSerializedTarget(target->text);
    if (const JsonNode *args = n.find("args")) {
      if (auto err = expectKind(*args, JsonNode::Kind::Object, "\"args\""))
        return err;
      for (const auto &[name, value] : args->members) {
        auto arg = readArg(value);
        if (!arg)
          return arg.takeError();
        node.args.emplace_back(name, std::move(*arg));
      }
    }
    auto results = readNames(n.find("results"), "results", n.loc);
    if (!results)
      return results.takeError();
    node.results = std::move(*results);
    if (const JsonNode *like = n.find("like")) {
      if (auto err = expectKind(*like, JsonNode::Kind::String, "\"like\""))
        return err;
      node.like = llvm::StringRef(like->text).ltrim('%').str();
    }
    nodes.push_back(std::move(node));
  }
  return nodes;
}

llvm::Expected<DeclarativePatternSpec> readPattern(const JsonNode &n) {
  if (auto err = expectKind(n, JsonNode::Kind::Object, "a pattern"))
    return err;
  if (auto err = checkKeys(n,
                           {"name", "benefit", "inputs", "match", "outputs",
                            "replace", "replace_outputs"},
                           "a pattern"))
    return err;
  DeclarativePatternSpec spec;
  spec.loc = n.loc;
  const JsonNode *name = n.find("name");
  if (!name)
    return makePatternError(n.loc, "a pattern needs a \"name\"");
  if (auto err = expectKind(*name, JsonNode::Kind::String, "\"name\""))
    return err;
  spec.name = name->text;
  if (const JsonNode *benefit = n.find("benefit")) {
    if (benefit->kind != JsonNode::Kind::Int || benefit->intValue < 0 ||
        benefit->intValue > 65535)
      return makePatternError(benefit->loc,
                              "\"benefit\" must be an integer from 0 to 65535");
    spec.benefit = unsigned(benefit->intValue);
  }
  auto inputs = readNames(n.find("inputs"), "inputs", n.loc);
  if (!inputs)
    return inputs.takeError();
  spec.inputs = std::move(*inputs);
  auto match = readNodes(n.find("match"), "match", n.loc, false);
  if (!match)
    return match.takeError();
  spec.match = std::move(*match);
  auto outputs = readNames(n.find("outputs"), "outputs", n.loc);
  if (!outputs)
    return outputs.takeError();
  spec.outputs = std::move(*outputs);
  auto replace = readNodes(n.find("replace"), "replace", n.loc, true);
  if (!replace)
    return replace.takeError();
  spec.replace = std::move(*replace);
  auto replaceOutputs = readNames(n.find("replace_outputs"), "replace_outputs", n.loc);
  if (!replaceOutputs)
    return replaceOutputs.takeError();
  spec.replaceOutputs = std::move(*replaceOutputs);
  return spec;
}

} // namespace

llvm::Expected<std::vector<DeclarativePatternSpec>>
parsePatternFile(llvm::StringRef text, llvm::StringRef fileName) {
  if (!text.ltrim().starts_with("{"))
    return parsePatternText(text, fileName);
  JsonParser parser(text, fileName);
  auto root = parser.parseDocument();
  if (!root)
    return root.takeError();
  if (auto err = checkKeys(*root, {"patterns"}, "the pattern file"))
    return err;
  const JsonNode *patterns = root->find("patterns");
  if (!patterns)
    return makePatternError(root->loc, "missing \"patterns\"");
  if (auto err = expectKind(*patterns, JsonNode::Kind::Array, "\"patterns\""))
    return err;
  std::vector<DeclarativePatternSpec> specs;
  for (const JsonNode &p : patterns->items) {
    auto spec = readPattern(p);
    if (!spec)
      return spec.takeError();
    specs.push_back(std::move(*spec));
  }
  return specs;
}

llvm::Expected<std::vector<DeclarativePatternSpec>>
readPatternFile(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   "cannot read pattern file '" + path +
                                       "': " + buffer.getError().message());
  return parsePatternFile((*buffer)->getBuffer(), path);
}

} // namespace pt2ir
