//===- Treespec.cpp - Pytree treespecs (treespec_dumps protocol 1) --------===//
//
// Both the parser and the dumper walk the tree with an explicit stack, so a
// deep spec costs heap, not C++ stack; depth is capped anyway because the
// TreeSpec destructor and context formatting recurse. The parser has a
// lenient mode (parseTreespecAllowingUnregistered) that records node types
// and namedtuple classes the registry does not know instead of failing.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/treespec/Treespec.h"

#include "pt2ir/json/PyJsonWriter.h"
#include "pt2ir/treespec/TreespecJson.h"
#include "llvm/ADT/StringSet.h"
#include <algorithm>
#include <utility>

namespace pt2ir {

//===----------------------------------------------------------------------===//
// TreeSpec
//===----------------------------------------------------------------------===//

TreeSpec::TreeSpec(std::string typeName, std::string contextJson,
                   std::vector<TreeSpec> children)
    : typeName(std::move(typeName)), contextJson(std::move(contextJson)),
      children(std::move(children)) {
  numLeaves = 0;
  numNodes = 1;
  size_t deepestChild = 0;
  for (const TreeSpec &child : this->children) {
    numLeaves += child.numLeaves;
    numNodes += child.numNodes;
    deepestChild = std::max(deepestChild, child.depth);
  }
  depth = deepestChild + 1;
}

bool TreeSpec::operator==(const TreeSpec &other) const {
  std::vector<std::pair<const TreeSpec *, const TreeSpec *>> work;
  work.emplace_back(this, &other);
  while (!work.empty()) {
    auto [lhs, rhs] = work.back();
    work.pop_back();
    if (lhs->typeName != rhs->typeName ||
        lhs->contextJson != rhs->contextJson ||
        lhs->children.size() != rhs->children.size() ||
        lhs->numNodes != rhs->numNodes)
      return false;
    for (size_t i = 0, e = lhs->children.size(); i != e; ++i)
      work.emplace_back(&lhs->children[i], &rhs->children[i]);
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Paths and shared checks
//===----------------------------------------------------------------------===//

namespace {

std::string childPath(llvm::StringRef parent, size_t index) {
  std::string path = parent.str();
  if (!path.empty())
    path += '.';
  path += "children_spec[" + std::to_string(index) + "]";
  return path;
}

std::string fieldPath(llvm::StringRef node, llvm::StringRef field) {
  if (node.empty())
    return ("root " + field).str();
  return (node + "." + field).str();
}

std::string nodeName(llvm::StringRef path) {
  return path.empty() ? "root node" : path.str();
}

/// Runs the node type's validator on a held context (known to be JSON).
llvm::Error validateContext(const TreespecNodeType &type,
                            llvm::StringRef context, size_t numChildren,
                            const TreespecTypeRegistry &registry,
                            llvm::StringRef path) {
  if (!type.Validate)
    return llvm::Error::success();
  if (llvm::Error err = type.Validate(context, numChildren, registry))
    return makeTreespecError("treespec: " + fieldPath(path, "context") +
                             " of a '" + type.Name +
                             "' node: " + llvm::toString(std::move(err)));
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

/// A node whose children are still being read.
struct ParseFrame {
  const rapidjson::Value *childArray;
  std::string path;
  std::string typeName;
  std::string contextJson;
  std::vector<TreeSpec> children;
  size_t nextChild = 0;
};

class TreespecParser {
public:
  /// With `unregistered`, names the registry does not know are recorded
  /// there instead of being errors.
  TreespecParser(const TreespecTypeRegistry &registry,
                 std::vector<UnregisteredTreespecName> *unregistered = nullptr)
      : registry(registry), unregistered(unregistered) {}

  llvm::Expected<TreeSpec> parse(llvm::StringRef text);

private:
  /// Checks a node object. Returns true for a leaf; otherwise fills `frame`
  /// for the interior node and returns false.
  llvm::Expected<bool> beginNode(const rapidjson::Value &json,
                                 const std::string &path, ParseFrame &frame);
  llvm::Expected<std::string> readContext(const TreespecNodeType &type,
                                          const rapidjson::Value &context,
                                          size_t numChildren,
                                          const std::string &path);
  /// The context of a node whose type the registry does not know, as found.
  llvm::Expected<std::string>
  readUnknownContext(const rapidjson::Value &context, const std::string &path);
  /// For a namedtuple node in lenient mode: records the class its context
  /// names if the registry does not know it, and returns true then.
  bool recordedUnknownNamedtuple(const rapidjson::Value &context,
                                 const std::string &path);
  void record(llvm::StringRef name, bool isNamedtupleClass, std::string path);

  const TreespecTypeRegistry &registry;
  std::vector<UnregisteredTreespecName> *unregistered;
  /// Names already recorded, prefixed with 'n' (namedtuple) or 't' (type).
  llvm::StringSet<> recorded;
};

llvm::Expected<TreeSpec> TreespecParser::parse(llvm::StringRef text) {
  rapidjson::Document doc;
  if (llvm::Error err =
          parseBoundedJson(text, MaxTreespecJsonDepth, "treespec", doc))
    return err;
  if (!doc.IsArray() || doc.Size() != 2)
    return makeTreespecError(
        "treespec: expected a JSON array [protocol, root node], got " +
        (doc.IsArray()
             ? "an array of " + std::to_string(doc.Size()) + " elements"
             : describeJsonType(doc).str()));
  const rapidjson::Value &protocol = doc[0];
  if (!protocol.IsInt64())
    return makeTreespecError(
        "treespec: expected an integer protocol number as the first element, "
        "got " +
        describeJsonType(protocol));
  if (protocol.GetInt64() != TreespecProtocol)
    return makeTreespecError(
        "treespec: unsupported protocol " + llvm::Twine(protocol.GetInt64()) +
        "; only protocol " + llvm::Twine(TreespecProtocol) + " is supported");

  std::vector<ParseFrame> stack;
  ParseFrame rootFrame;
  llvm::Expected<bool> rootIsLeaf = beginNode(doc[1], "", rootFrame);
  if (!rootIsLeaf)
    return rootIsLeaf.takeError();
  if (*rootIsLeaf)
    return TreeSpec::leaf();
  stack.push_back(std::move(rootFrame));

  while (true) {
    ParseFrame &top = stack.back();
    if (top.nextChild == top.childArray->Size()) {
      TreeSpec done(std::move(top.typeName), std::move(top.contextJson),
                    std::move(top.children));
      stack.pop_back();
      if (stack.empty())
        return done;
      stack.back().children.push_back(std::move(done));
      continue;
    }
    size_t index = top.nextChild++;
    std::string path = childPath(top.path, index);
    if (stack.size() + 1 > MaxTreespecDepth)
      return makeTreespecError("treespec: " + path +
                               ": nodes nest deeper than the limit of " +
                               llvm::Twine(MaxTreespecDepth) + " levels");
    ParseFrame frame;
    llvm::Expected<bool> isLeaf =
        beginNode((*top.childArray)[index], path, frame);
    if (!isLeaf)
      return isLeaf.takeError();
    if (*isLeaf) {
      top.children.push_back(TreeSpec::leaf());
      continue;
    }
    stack.push_back(std::move(frame)); // `top` is invalid from here on.
  }
}

llvm::Expected<bool> TreespecParser::beginNode(const rapidjson::Value &json,
                                               const std::string &path,
                                               ParseFrame &frame) {
  if (!json.IsObject())
    return makeTreespecError("treespec: " + nodeName(path) +
                             ": expected a node object {\"type\", "
                             "\"context\", \"children_spec\"}, got " +
                             describeJsonType(json));
  // Python reads the three keys by name and ignores any others.
  auto type = json.FindMember("type");
  auto context = json.FindMember("context");
  auto children = json.FindMember("children_spec");
  auto missing = [&](llvm::StringRef key) {
    return makeTreespecError("treespec: " + nodeName(path) +
                             ": missing key \"" + key + "\"");
  };
  if (type == json.MemberEnd())
    return missing("type");
  if (context == json.MemberEnd())
    return missing("context");
  if (children == json.MemberEnd())
    return missing("children_spec");
  if (!children->value.IsArray())
    return makeTreespecError("treespec: " + fieldPath(path, "children_spec") +
                             ": expected an array of nodes, got " +
                             describeJsonType(children->value));
  size_t numChildren = children->value.Size();

  if (type->value.IsNull()) {
    if (context->value.IsNull() && numChildren == 0)
      return true;
    return makeTreespecError(
        "treespec: " + nodeName(path) +
        ": \"type\" is null but the node is not a leaf (a leaf has a null "
        "context and no children)");
  }
  if (!type->value.IsString())
    return makeTreespecError("treespec: " + fieldPath(path, "type") +
                             ": expected a serialized type name or null, got " +
                             describeJsonType(type->value));
  llvm::StringRef typeName(type->value.GetString(),
                           type->value.GetStringLength());
  const TreespecNodeType *nodeType = registry.lookupType(typeName);
  if (!nodeType && !unregistered)
    return makeTreespecError(
        "treespec: " + fieldPath(path, "type") + ": unknown pytree type '" +
        typeName + "'; registered types: " + registry.describeTypes());
  if (!nodeType)
    record(typeName, /*isNamedtupleClass=*/false, fieldPath(path, "type"));

  llvm::Expected<std::string> held =
      nodeType ? readContext(*nodeType, context->value, numChildren, path)
               : readUnknownContext(context->value, path);
  if (!held)
    return held.takeError();
  frame.childArray = &children->value;
  frame.path = path;
  frame.typeName = typeName.str();
  frame.contextJson = std::move(*held);
  frame.children.reserve(numChildren);
  return false;
}

llvm::Expected<std::string>
TreespecParser::readContext(const TreespecNodeType &type,
                            const rapidjson::Value &context, size_t numChildren,
                            const std::string &path) {
  std::string where = fieldPath(path, "context");
  std::string held;
  if (type.Codec) {
    if (jsonNestingDepth(context, MaxTreespecContextDepth) >
        MaxTreespecContextDepth)
      return makeTreespecError(
          "treespec: " + where + ": JSON nesting exceeds the limit of " +
          llvm::Twine(MaxTreespecContextDepth) + " levels");
    llvm::Expected<std::string> decoded =
        type.Codec->FromJson(pyJsonDumps(context));
    if (!decoded)
      return makeTreespecError(
          "treespec: " + where + " of a '" + type.Name +
          "' node: " + llvm::toString(decoded.takeError()));
    held = std::move(*decoded);
  } else {
    if (!context.IsString())
      return makeTreespecError(
          "treespec: " + where + ": '" + type.Name +
          "' stores its context as a JSON string (json.dumps output), got " +
          describeJsonType(context));
    // Kept verbatim so dumping reproduces the exact bytes.
    held.assign(context.GetString(), context.GetStringLength());
  }

  rapidjson::Document parsed;
  if (llvm::Error err = parseBoundedJson(held, MaxTreespecContextDepth,
                                         "treespec: " + where, parsed))
    return err;
  if (unregistered && registry.isNamedtupleNodeType(type.Name) &&
      recordedUnknownNamedtuple(parsed, path))
    return held;
  if (llvm::Error err =
          validateContext(type, held, numChildren, registry, path))
    return err;
  return held;
}

llvm::Expected<std::string>
TreespecParser::readUnknownContext(const rapidjson::Value &context,
                                   const std::string &path) {
  // Whether the type stores its context as a string or embeds it is up to
  // the type; either way it is kept as found.
  if (context.IsString())
    return std::string(context.GetString(), context.GetStringLength());
  if (jsonNestingDepth(context, MaxTreespecContextDepth) >
      MaxTreespecContextDepth)
    return makeTreespecError("treespec: " + fieldPath(path, "context") +
                             ": JSON nesting exceeds the limit of " +
                             llvm::Twine(MaxTreespecContextDepth) + " levels");
  return pyJsonDumps(context);
}

bool TreespecParser::recordedUnknownNamedtuple(const rapidjson::Value &context,
                                               const std::string &path) {
  llvm::Expected<NamedtupleContext> decoded = decodeNamedtupleContext(context);
  if (!decoded) {
    // Malformed: the validator reports it.
    llvm::consumeError(decoded.takeError());
    return false;
  }
  // A legacy context carries its own fields and needs no registration.
  if (decoded->LegacyFields ||
      registry.lookupNamedtupleFields(decoded->ClassName))
    return false;
  record(decoded->ClassName, /*isNamedtupleClass=*/true,
         fieldPath(path, "context"));
  return true;
}

void TreespecParser::record(llvm::StringRef name, bool isNamedtupleClass,
                            std::string path) {
  std::string key = (isNamedtupleClass ? "n" : "t") + name.str();
  if (!recorded.insert(key).second)
    return;
  unregistered->push_back(
      UnregisteredTreespecName{name.str(), isNamedtupleClass, std::move(path)});
}

//===----------------------------------------------------------------------===//
// Dumping
//===----------------------------------------------------------------------===//

class TreespecDumper {
public:
  explicit TreespecDumper(const TreespecTypeRegistry &registry)
      : registry(registry) {}

  llvm::Expected<std::string> dump(const TreeSpec &spec);

private:
  /// Writes a leaf completely, or the opening of an interior node up to and
  /// including `"children_spec": [`.
  llvm::Error beginNode(const TreeSpec &spec, const std::string &path);
  llvm::Error appendContext(const TreespecNodeType &type, const TreeSpec &spec,
                            const std::string &path);

  const TreespecTypeRegistry &registry;
  std::string out;
};

struct DumpFrame {
  const TreeSpec *spec;
  std::string path;
  size_t nextChild = 0;
};

llvm::Expected<std::string> TreespecDumper::dump(const TreeSpec &spec) {
  if (spec.getDepth() > MaxTreespecDepth)
    return makeTreespecError("cannot dump treespec: it nests " +
                             llvm::Twine(spec.getDepth()) +
                             " levels deep, more than the limit of " +
                             llvm::Twine(MaxTreespecDepth));
  out = "[1, ";
  if (llvm::Error err = beginNode(spec, ""))
    return err;
  std::vector<DumpFrame> stack;
  if (!spec.isLeaf())
    stack.push_back({&spec, "", 0});
  while (!stack.empty()) {
    DumpFrame &top = stack.back();
    llvm::ArrayRef<TreeSpec> children = top.spec->getChildren();
    if (top.nextChild == children.size()) {
      out += "]}";
      stack.pop_back();
      continue;
    }
    size_t index = top.nextChild++;
    if (index != 0)
      out += ", ";
    const TreeSpec &child = children[index];
    std::string path = childPath(top.path, index);
    if (llvm::Error err = beginNode(child, path))
      return err;
    if (!child.isLeaf())
      stack.push_back({&child, std::move(path), 0}); // `top` is invalid now.
  }
  out += "]";
  return std::move(out);
}

llvm::Error TreespecDumper::beginNode(const TreeSpec &spec,
                                      const std::string &path) {
  if (spec.isLeaf()) {
    out += "{\"type\": null, \"context\": null, \"children_spec\": []}";
    return llvm::Error::success();
  }
  const TreespecNodeType *type = registry.lookupType(spec.getTypeName());
  if (!type)
    return makeTreespecError(
        "cannot dump treespec: node type '" + spec.getTypeName() + "' at " +
        nodeName(path) +
        " is not registered; register it with "
        "TreespecTypeRegistry::registerType (registered types: " +
        registry.describeTypes() + ")");
  out += "{\"type\": ";
  appendPyJsonString(out, spec.getTypeName());
  out += ", \"context\": ";
  if (llvm::Error err = appendContext(*type, spec, path))
    return err;
  out += ", \"children_spec\": [";
  return llvm::Error::success();
}

llvm::Error TreespecDumper::appendContext(const TreespecNodeType &type,
                                          const TreeSpec &spec,
                                          const std::string &path) {
  std::string where = "cannot dump treespec: " + fieldPath(path, "context");
  rapidjson::Document held;
  if (llvm::Error err = parseBoundedJson(spec.getContextJson(),
                                         MaxTreespecContextDepth, where, held))
    return err;
  if (llvm::Error err = validateContext(type, spec.getContextJson(),
                                        spec.getNumChildren(), registry, path))
    return err;
  if (!type.Codec) {
    appendPyJsonString(out, spec.getContextJson());
    return llvm::Error::success();
  }
  llvm::Expected<std::string> dumpable =
      type.Codec->ToJson(spec.getContextJson());
  if (!dumpable)
    return makeTreespecError(where + " of a '" + type.Name +
                             "' node: " + llvm::toString(dumpable.takeError()));
  // Re-format so a codec's spacing cannot leak into the output.
  rapidjson::Document embedded;
  if (llvm::Error err = parseBoundedJson(*dumpable, MaxTreespecContextDepth,
                                         where + " (codec output)", embedded))
    return err;
  appendPyJsonValue(out, embedded);
  return llvm::Error::success();
}

} // namespace

llvm::Expected<TreeSpec> parseTreespec(llvm::StringRef text,
                                       const TreespecTypeRegistry &registry) {
  return TreespecParser(registry).parse(text);
}

llvm::Expected<LenientTreespec>
parseTreespecAllowingUnregistered(llvm::StringRef text,
                                  const TreespecTypeRegistry &registry) {
  LenientTreespec result;
  llvm::Expected<TreeSpec> spec =
      TreespecParser(registry, &result.Unregistered).parse(text);
  if (!spec)
    return spec.takeError();
  result.Spec = std::move(*spec);
  return result;
}

llvm::Expected<std::string> dumpTreespec(const TreeSpec &spec,
                                         const TreespecTypeRegistry &registry) {
  return TreespecDumper(registry).dump(spec);
}

//===----------------------------------------------------------------------===//
// Builders
//===----------------------------------------------------------------------===//

std::string treespecKeyListJson(llvm::ArrayRef<std::string> keys) {
  std::string out = "[";
  for (size_t i = 0, e = keys.size(); i != e; ++i) {
    if (i != 0)
      out += ", ";
    appendPyJsonString(out, keys[i]);
  }
  out += "]";
  return out;
}

TreeSpec makeTupleSpec(std::vector<TreeSpec> children) {
  return TreeSpec(treespec_types::Tuple.str(), "null", std::move(children));
}

TreeSpec makeListSpec(std::vector<TreeSpec> children) {
  return TreeSpec(treespec_types::List.str(), "null", std::move(children));
}

TreeSpec makeDictSpec(llvm::ArrayRef<std::string> keys,
                      std::vector<TreeSpec> children) {
  return TreeSpec(treespec_types::Dict.str(), treespecKeyListJson(keys),
                  std::move(children));
}

TreeSpec makeNamedtupleSpec(llvm::StringRef className,
                            std::vector<TreeSpec> children) {
  std::string context;
  appendPyJsonString(context, className);
  return TreeSpec(treespec_types::Namedtuple.str(), std::move(context),
                  std::move(children));
}

TreeSpec makeCallSpec(std::vector<TreeSpec> args,
                      llvm::ArrayRef<std::string> kwargNames,
                      std::vector<TreeSpec> kwargs) {
  std::vector<TreeSpec> pair;
  pair.push_back(makeTupleSpec(std::move(args)));
  pair.push_back(makeDictSpec(kwargNames, std::move(kwargs)));
  return makeTupleSpec(std::move(pair));
}

} // namespace pt2ir
