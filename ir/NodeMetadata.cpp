//===- NodeMetadata.cpp - Structured views of node metadata ---------------===//

#include "pt2ir/ir/NodeMetadata.h"
#include "pt2ir/ir/PyRepr.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"

namespace pt2ir {

static llvm::Error metadataError(llvm::StringRef key, const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "malformed " + key + " metadata: " + msg);
}

/// Splits on `sep` only where brackets `[`/`(` ... `)`/`]` are balanced.
static std::vector<std::string> splitOutsideBrackets(llvm::StringRef text, char sep) {
  std::vector<std::string> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '[' || c == '(')
      ++depth;
    else if ((c == ']' || c == ')') && depth > 0)
      --depth;
    else if (c == sep && depth == 0) {
      parts.push_back(text.slice(start, i).str());
      start = i + 1;
    }
  }
  parts.push_back(text.substr(start).str());
  return parts;
}

llvm::Expected<NnModuleStack> parseNnModuleStack(llvm::StringRef text) {
  NnModuleStack stack;
  if (text.ltrim().starts_with("{")) {
    stack.encoding = NnModuleStack::Encoding::JsonObject;
    auto json = llvm::json::parse(text);
    if (!json)
      return metadataError("nn_module_stack", llvm::toString(json.takeError()));
    const llvm::json::Object *obj = json->getAsObject();
    const llvm::json::Array *keys = obj ? obj->getArray("key_list") : nullptr;
    const llvm::json::Array *paths = obj ? obj->getArray("path_list") : nullptr;
    const llvm::json::Array *types = obj ? obj->getArray("type_list") : nullptr;
    if (!keys || !paths || !types || keys->size() != paths->size() || keys->size() != types->size())
      return metadataError("nn_module_stack",
                           "expected an object with key_list, path_list and type_list of equal length");
    for (size_t i = 0; i < keys->size(); ++i) {
      auto k = (*keys)[i].getAsString(), p = (*paths)[i].getAsString(), t = (*types)[i].getAsString();
      if (!k || !p || !t)
        return metadataError("nn_module_stack", llvm::formatv("entry {0} is not three strings", i));
      stack.entries.push_back({k->str(), p->str(), t->str()});
    }
    return stack;
  }
  if (text.empty())
    return stack;
  // Entries are separated by ';' outside brackets too: paths may hold ';' only
  // inside brackets in practice.
  std::vector<std::string> entries = splitOutsideBrackets(text, ';');
  for (size_t i = 0; i < entries.size(); ++i) {
    std::vector<std::string> parts = splitOutsideBrackets(entries[i], ',');
    if (parts.size() != 3)
      return metadataError("nn_module_stack",
                           llvm::formatv("entry {0} ('{1}') has {2} comma-separated parts, expected 3 "
                                         "(key,path,type)",
                                         i, entries[i], parts.size()));
    stack.entries.push_back({parts[0], parts[1], parts[2]});
  }
  return stack;
}

std::string formatNnModuleStack(const NnModuleStack &stack) {
  if (stack.encoding == NnModuleStack::Encoding::JsonObject) {
    // json.dumps layout: ", " and ": " separators, keys in this order.
    auto dumpList = [&](std::string &out, auto field) {
      out += '[';
      for (size_t i = 0; i < stack.entries.size(); ++i) {
        if (i)
          out += ", ";
        appendPyJsonString(out, field(stack.entries[i]));
      }
      out += ']';
    };
    std::string out = "{\"key_list\": ";
    dumpList(out, [](const ModuleStackEntry &e) { return llvm::StringRef(e.key); });
    out += ", \"path_list\": ";
    dumpList(out, [](const ModuleStackEntry &e) { return llvm::StringRef(e.path); });
    out += ", \"type_list\": ";
    dumpList(out, [](const ModuleStackEntry &e) { return llvm::StringRef(e.type); });
    out += '}';
    return out;
  }
  std::string out;
  for (size_t i = 0; i < stack.entries.size(); ++i) {
    if (i)
      out += ';';
    const auto &e = stack.entries[i];
    out += e.key + "," + e.path + "," + e.type;
  }
  return out;
}

llvm::Expected<std::vector<SourceFnEntry>> parseSourceFnStack(llvm::StringRef text) {
  std::vector<SourceFnEntry> result;
  if (text.empty())
    return result;
  llvm::SmallVector<llvm::StringRef, 4> entries;
  text.split(entries, ';');
  for (size_t i = 0; i < entries.size(); ++i) {
    auto [name, target] = entries[i].split(',');
    if (!entries[i].contains(',') || target.contains(','))
      return metadataError("source_fn_stack",
                           llvm::formatv("entry {0} ('{1}') is not 'name,target'", i, entries[i]));
    result.push_back({name.str(), target.str()});
  }
  return result;
}

std::string formatSourceFnStack(const std::vector<SourceFnEntry> &entries) {
  std::string out;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i)
      out += ';';
    out += entries[i].name + "," + entries[i].target;
  }
  return out;
}

llvm::Expected<TorchFn> parseTorchFn(llvm::StringRef text) {
  auto [name, fn] = text.split(';');
  if (!text.contains(';') || fn.contains(';'))
    return metadataError("torch_fn", "expected '<name>;<class>.<function>', got '" + text + "'");
  return TorchFn{name.str(), fn.str()};
}

llvm::Expected<llvm::json::Value> parseJsonMetadata(llvm::StringRef text) {
  auto json = llvm::json::parse(text);
  if (!json)
    return metadataError("JSON", llvm::toString(json.takeError()));
  return std::move(*json);
}

std::optional<std::string> getQuantizationTag(const Node &node) {
  auto custom = lookupMetadata(node.getMetadata(), "custom");
  if (!custom)
    return std::nullopt;
  auto json = llvm::json::parse(*custom);
  if (!json) {
    llvm::consumeError(json.takeError());
    return std::nullopt;
  }
  if (const llvm::json::Object *obj = json->getAsObject())
    if (auto tag = obj->getString("quantization_tag"))
      return tag->str();
  return std::nullopt;
}

void copyProvenanceMetadata(const Node &from, StringPairs &to) {
  static const char *const Keys[] = {"stack_trace", "nn_module_stack", "source_fn_stack",
                                     "torch_fn",    "custom",          "from_node"};
  for (const auto &kv : from.getMetadata())
    if (llvm::is_contained(Keys, kv.first) && !lookupMetadata(to, kv.first))
      to.push_back(kv);
}

} // namespace pt2ir
