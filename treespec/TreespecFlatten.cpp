//===- TreespecFlatten.cpp - Flatten/unflatten a minimal pytree model -----===//
//
// Both directions recurse once per tree level; flattening stops at
// MaxTreespecDepth and unflattening rejects specs deeper than that up front,
// so the recursion is bounded.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/treespec/TreespecFlatten.h"

#include "pt2ir/json/PyJsonWriter.h"
#include "pt2ir/treespec/TreespecJson.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

namespace pt2ir {

//===----------------------------------------------------------------------===//
// PyTreeValue
//===----------------------------------------------------------------------===//

PyTreeValue PyTreeValue::leaf(std::string id) {
  PyTreeValue v;
  v.kind = Kind::Leaf;
  v.name = std::move(id);
  return v;
}

PyTreeValue PyTreeValue::tuple(std::vector<PyTreeValue> elements) {
  PyTreeValue v;
  v.kind = Kind::Tuple;
  v.elements = std::move(elements);
  return v;
}

PyTreeValue PyTreeValue::list(std::vector<PyTreeValue> elements) {
  PyTreeValue v;
  v.kind = Kind::List;
  v.elements = std::move(elements);
  return v;
}

PyTreeValue
PyTreeValue::keyed(Kind kind, std::string name,
                   std::vector<std::pair<std::string, PyTreeValue>> entries) {
  PyTreeValue v;
  v.kind = kind;
  v.name = std::move(name);
  v.keys.reserve(entries.size());
  v.elements.reserve(entries.size());
  for (auto &[key, value] : entries) {
    v.keys.push_back(std::move(key));
    v.elements.push_back(std::move(value));
  }
  return v;
}

PyTreeValue
PyTreeValue::dict(std::vector<std::pair<std::string, PyTreeValue>> entries) {
  return keyed(Kind::Dict, "", std::move(entries));
}

PyTreeValue PyTreeValue::namedtuple(
    std::string typeName,
    std::vector<std::pair<std::string, PyTreeValue>> fields) {
  return keyed(Kind::Namedtuple, std::move(typeName), std::move(fields));
}

PyTreeValue PyTreeValue::dataclass(
    std::string typeName,
    std::vector<std::pair<std::string, PyTreeValue>> fields) {
  return keyed(Kind::Dataclass, std::move(typeName), std::move(fields));
}

const PyTreeValue *PyTreeValue::lookup(llvm::StringRef key) const {
  for (size_t i = 0, e = keys.size(); i != e; ++i)
    if (keys[i] == key)
      return &elements[i];
  return nullptr;
}

static void appendRepr(std::string &out, const PyTreeValue &v, unsigned depth) {
  if (depth > MaxTreespecDepth) {
    out += "...";
    return;
  }
  using Kind = PyTreeValue::Kind;
  llvm::ArrayRef<PyTreeValue> elements = v.getElements();
  llvm::ArrayRef<std::string> keys = v.getKeys();
  switch (v.getKind()) {
  case Kind::None:
    out += "None";
    return;
  case Kind::Leaf:
    out += v.getName();
    return;
  case Kind::Tuple:
  case Kind::List: {
    bool isTuple = v.getKind() == Kind::Tuple;
    out += isTuple ? '(' : '[';
    for (size_t i = 0, e = elements.size(); i != e; ++i) {
      if (i != 0)
        out += ", ";
      appendRepr(out, elements[i], depth + 1);
    }
    if (isTuple && elements.size() == 1)
      out += ',';
    out += isTuple ? ')' : ']';
    return;
  }
  case Kind::Dict:
    out += '{';
    for (size_t i = 0, e = elements.size(); i != e; ++i) {
      if (i != 0)
        out += ", ";
      out += "'" + keys[i] + "': ";
      appendRepr(out, elements[i], depth + 1);
    }
    out += '}';
    return;
  case Kind::Namedtuple:
  case Kind::Dataclass:
    out += v.getName();
    out += '(';
    for (size_t i = 0, e = elements.size(); i != e; ++i) {
      if (i != 0)
        out += ", ";
      out += keys[i] + "=";
      appendRepr(out, elements[i], depth + 1);
    }
    out += ')';
    return;
  }
}

std::string PyTreeValue::repr() const {
  std::string out;
  appendRepr(out, *this, 1);
  return out;
}

bool PyTreeValue::operator==(const PyTreeValue &other) const {
  std::vector<std::pair<const PyTreeValue *, const PyTreeValue *>> work;
  work.emplace_back(this, &other);
  while (!work.empty()) {
    auto [lhs, rhs] = work.back();
    work.pop_back();
    if (lhs->kind != rhs->kind || lhs->name != rhs->name ||
        lhs->keys != rhs->keys || lhs->elements.size() != rhs->elements.size())
      return false;
    for (size_t i = 0, e = lhs->elements.size(); i != e; ++i)
      work.emplace_back(&lhs->elements[i], &rhs->elements[i]);
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Flatten
//===----------------------------------------------------------------------===//

namespace {

/// Names a place in a value the way Python's keystr does: `[0]['k'].x`.
std::string describeValuePath(llvm::StringRef path) {
  return path.empty() ? "the root value" : "value" + path.str();
}

class Flattener {
public:
  explicit Flattener(const TreespecTypeRegistry &registry)
      : registry(registry) {}

  llvm::Expected<TreeSpec> flatten(const PyTreeValue &value,
                                   const std::string &path, unsigned depth);

  std::vector<PyTreeValue> leaves;

private:
  llvm::Error error(const std::string &path, const llvm::Twine &message) {
    return makeTreespecError("flatten: " + describeValuePath(path) + ": " +
                             message);
  }
  llvm::Expected<std::vector<TreeSpec>>
  flattenChildren(const PyTreeValue &value, const std::string &path,
                  unsigned depth);
  llvm::Expected<TreeSpec> flattenNamedtuple(const PyTreeValue &value,
                                             const std::string &path,
                                             unsigned depth);
  llvm::Expected<TreeSpec> flattenDataclass(const PyTreeValue &value,
                                            const std::string &path,
                                            unsigned depth);

  const TreespecTypeRegistry &registry;
};

std::string elementPath(const std::string &parent, const PyTreeValue &value,
                        size_t index) {
  switch (value.getKind()) {
  case PyTreeValue::Kind::Dict:
    return parent + "['" + value.getKeys()[index] + "']";
  case PyTreeValue::Kind::Namedtuple:
  case PyTreeValue::Kind::Dataclass:
    return parent + "." + value.getKeys()[index];
  default:
    return parent + "[" + std::to_string(index) + "]";
  }
}

llvm::Expected<std::vector<TreeSpec>>
Flattener::flattenChildren(const PyTreeValue &value, const std::string &path,
                           unsigned depth) {
  std::vector<TreeSpec> children;
  llvm::ArrayRef<PyTreeValue> elements = value.getElements();
  children.reserve(elements.size());
  for (size_t i = 0, e = elements.size(); i != e; ++i) {
    llvm::Expected<TreeSpec> child =
        flatten(elements[i], elementPath(path, value, i), depth + 1);
    if (!child)
      return child.takeError();
    children.push_back(std::move(*child));
  }
  return children;
}

llvm::Expected<TreeSpec> Flattener::flatten(const PyTreeValue &value,
                                            const std::string &path,
                                            unsigned depth) {
  if (depth > MaxTreespecDepth)
    return error(path, "nesting exceeds the limit of " +
                           llvm::Twine(MaxTreespecDepth) + " levels");
  using Kind = PyTreeValue::Kind;
  switch (value.getKind()) {
  case Kind::None:
  case Kind::Leaf:
    leaves.push_back(value);
    return TreeSpec::leaf();
  case Kind::Namedtuple:
    return flattenNamedtuple(value, path, depth);
  case Kind::Dataclass:
    return flattenDataclass(value, path, depth);
  case Kind::Tuple:
  case Kind::List:
  case Kind::Dict:
    break;
  }
  llvm::Expected<std::vector<TreeSpec>> children =
      flattenChildren(value, path, depth);
  if (!children)
    return children.takeError();
  if (value.getKind() == Kind::Tuple)
    return makeTupleSpec(std::move(*children));
  if (value.getKind() == Kind::List)
    return makeListSpec(std::move(*children));
  return makeDictSpec(value.getKeys(), std::move(*children));
}

llvm::Expected<TreeSpec> Flattener::flattenNamedtuple(const PyTreeValue &value,
                                                      const std::string &path,
                                                      unsigned depth) {
  const std::vector<std::string> *fields =
      registry.lookupNamedtupleFields(value.getName());
  if (!fields)
    return error(path, "namedtuple class '" + value.getName() +
                           "' is not registered; register it with "
                           "TreespecTypeRegistry::registerNamedtuple");
  if (value.getKeys() != llvm::ArrayRef<std::string>(*fields))
    return error(path, "namedtuple '" + value.getName() + "' has fields " +
                           quotedList(value.getKeys()) +
                           " but is registered with " + quotedList(*fields));
  llvm::Expected<std::vector<TreeSpec>> children =
      flattenChildren(value, path, depth);
  if (!children)
    return children.takeError();
  return makeNamedtupleSpec(value.getName(), std::move(*children));
}

llvm::Expected<TreeSpec> Flattener::flattenDataclass(const PyTreeValue &value,
                                                     const std::string &path,
                                                     unsigned depth) {
  const TreespecDataclass *info = registry.lookupDataclass(value.getName());
  if (!info)
    return error(path, "dataclass '" + value.getName() +
                           "' is not registered; register it with "
                           "TreespecTypeRegistry::registerDataclass");
  for (const std::string &key : value.getKeys())
    if (!llvm::is_contained(info->Fields, key))
      return error(
          path, "dataclass '" + value.getName() + "' has no field '" + key +
                    "' (registered fields: " + quotedList(info->Fields) + ")");

  std::vector<std::string> flatNames, noneNames;
  std::vector<TreeSpec> children;
  for (const std::string &field : info->Fields) {
    const PyTreeValue *fieldValue = value.lookup(field);
    if (!fieldValue)
      return error(path, "dataclass '" + value.getName() +
                             "' is missing field '" + field + "'");
    if (fieldValue->isNone() && !info->ReturnNoneFields) {
      noneNames.push_back(field);
      continue;
    }
    flatNames.push_back(field);
    llvm::Expected<TreeSpec> child =
        flatten(*fieldValue, path + "." + field, depth + 1);
    if (!child)
      return child.takeError();
    children.push_back(std::move(*child));
  }
  std::string context = "[" + treespecKeyListJson(flatNames) + ", " +
                        treespecKeyListJson(noneNames) + "]";
  return TreeSpec(info->Name, std::move(context), std::move(children));
}

//===----------------------------------------------------------------------===//
// Unflatten
//===----------------------------------------------------------------------===//

std::string specChildPath(const std::string &parent, size_t index) {
  std::string path = parent;
  if (!path.empty())
    path += '.';
  return path + "children_spec[" + std::to_string(index) + "]";
}

class Unflattener {
public:
  Unflattener(llvm::ArrayRef<PyTreeValue> leaves,
              const TreespecTypeRegistry &registry)
      : leaves(leaves), registry(registry) {}

  llvm::Expected<PyTreeValue> build(const TreeSpec &spec,
                                    const std::string &path);

private:
  llvm::Error error(const std::string &path, const llvm::Twine &message) {
    return makeTreespecError("unflatten: spec " +
                             (path.empty() ? std::string("root node") : path) +
                             ": " + message);
  }
  llvm::Expected<std::vector<PyTreeValue>>
  buildChildren(const TreeSpec &spec, const std::string &path);
  llvm::Expected<std::vector<std::string>>
  stringKeys(const rapidjson::Value &keys, const std::string &path);
  llvm::Expected<PyTreeValue> buildKeyed(PyTreeValue::Kind kind,
                                         std::string name,
                                         std::vector<std::string> keys,
                                         const TreeSpec &spec,
                                         const std::string &path);
  llvm::Expected<PyTreeValue> buildNamedtuple(const TreeSpec &spec,
                                              const rapidjson::Value &context,
                                              const std::string &path);
  llvm::Expected<PyTreeValue> buildDataclass(const TreespecDataclass &info,
                                             const TreeSpec &spec,
                                             const rapidjson::Value &context,
                                             const std::string &path);

  llvm::ArrayRef<PyTreeValue> leaves;
  size_t nextLeaf = 0;
  const TreespecTypeRegistry &registry;
};

llvm::Expected<std::vector<PyTreeValue>>
Unflattener::buildChildren(const TreeSpec &spec, const std::string &path) {
  std::vector<PyTreeValue> values;
  values.reserve(spec.getNumChildren());
  for (size_t i = 0, e = spec.getNumChildren(); i != e; ++i) {
    llvm::Expected<PyTreeValue> child =
        build(spec.getChildren()[i], specChildPath(path, i));
    if (!child)
      return child.takeError();
    values.push_back(std::move(*child));
  }
  return values;
}

llvm::Expected<std::vector<std::string>>
Unflattener::stringKeys(const rapidjson::Value &keys, const std::string &path) {
  if (!keys.IsArray())
    return error(path,
                 "expected a list of dict keys, got " + describeJsonType(keys));
  std::vector<std::string> result;
  for (const auto &key : keys.GetArray()) {
    if (!key.IsString())
      return error(path, "dict key " + pyJsonDumps(key) +
                             " is not a string; PyTreeValue dicts hold "
                             "string keys only");
    result.emplace_back(key.GetString(), key.GetStringLength());
  }
  return result;
}

llvm::Expected<PyTreeValue>
Unflattener::buildKeyed(PyTreeValue::Kind kind, std::string name,
                        std::vector<std::string> keys, const TreeSpec &spec,
                        const std::string &path) {
  if (keys.size() != spec.getNumChildren())
    return error(path, llvm::Twine(keys.size()) + " keys for " +
                           llvm::Twine(spec.getNumChildren()) + " children");
  llvm::Expected<std::vector<PyTreeValue>> values = buildChildren(spec, path);
  if (!values)
    return values.takeError();
  std::vector<std::pair<std::string, PyTreeValue>> entries;
  for (size_t i = 0, e = keys.size(); i != e; ++i)
    entries.emplace_back(std::move(keys[i]), std::move((*values)[i]));
  if (kind == PyTreeValue::Kind::Dict)
    return PyTreeValue::dict(std::move(entries));
  if (kind == PyTreeValue::Kind::Namedtuple)
    return PyTreeValue::namedtuple(std::move(name), std::move(entries));
  return PyTreeValue::dataclass(std::move(name), std::move(entries));
}

llvm::Expected<PyTreeValue>
Unflattener::buildNamedtuple(const TreeSpec &spec,
                             const rapidjson::Value &context,
                             const std::string &path) {
  llvm::Expected<NamedtupleContext> decoded = decodeNamedtupleContext(context);
  if (!decoded)
    return error(path, llvm::toString(decoded.takeError()));
  std::vector<std::string> fields;
  if (decoded->LegacyFields) {
    fields = *decoded->LegacyFields;
  } else if (const std::vector<std::string> *registered =
                 registry.lookupNamedtupleFields(decoded->ClassName)) {
    fields = *registered;
  } else {
    return error(path, "unknown namedtuple class '" + decoded->ClassName +
                           "'; registered namedtuple classes: " +
                           registry.describeNamedtuples());
  }
  if (fields.size() != spec.getNumChildren())
    return error(
        path, "namedtuple '" + decoded->ClassName + "' is registered with " +
                  llvm::Twine(fields.size()) + " fields " + quotedList(fields) +
                  " but the spec has " + llvm::Twine(spec.getNumChildren()) +
                  " children; adapt values saved with other fields using "
                  "TreespecNamedtuple.h");
  return buildKeyed(PyTreeValue::Kind::Namedtuple, decoded->ClassName,
                    std::move(fields), spec, path);
}

llvm::Expected<PyTreeValue>
Unflattener::buildDataclass(const TreespecDataclass &info, const TreeSpec &spec,
                            const rapidjson::Value &context,
                            const std::string &path) {
  if (!context.IsArray() || context.Size() != 2 || !context[0].IsArray() ||
      !context[1].IsArray())
    return error(path, "expected a dataclass context [flat_names, none_names]");
  llvm::Expected<std::vector<std::string>> flatNames =
      stringKeys(context[0], path);
  if (!flatNames)
    return flatNames.takeError();
  llvm::Expected<std::vector<std::string>> noneNames =
      stringKeys(context[1], path);
  if (!noneNames)
    return noneNames.takeError();
  if (flatNames->size() != spec.getNumChildren())
    return error(path, llvm::Twine(flatNames->size()) + " flat fields for " +
                           llvm::Twine(spec.getNumChildren()) + " children");
  llvm::Expected<std::vector<PyTreeValue>> values = buildChildren(spec, path);
  if (!values)
    return values.takeError();

  // Fields come back in declaration order, as the class constructor sees
  // them.
  std::vector<std::pair<std::string, PyTreeValue>> entries;
  for (const std::string &field : info.Fields) {
    auto flat = llvm::find(*flatNames, field);
    if (flat != flatNames->end()) {
      entries.emplace_back(field,
                           std::move((*values)[flat - flatNames->begin()]));
      continue;
    }
    if (llvm::is_contained(*noneNames, field)) {
      entries.emplace_back(field, PyTreeValue::none());
      continue;
    }
    return error(path, "dataclass '" + info.Name + "' field '" + field +
                           "' is in neither flat_names nor none_names");
  }
  return PyTreeValue::dataclass(info.Name, std::move(entries));
}

llvm::Expected<PyTreeValue> Unflattener::build(const TreeSpec &spec,
                                               const std::string &path) {
  if (spec.isLeaf())
    return leaves[nextLeaf++];

  namespace types = treespec_types;
  llvm::StringRef type = spec.getTypeName();
  if (!registry.lookupType(type))
    return error(path, "unknown pytree type '" + type +
                           "'; registered types: " + registry.describeTypes());
  if (type == types::Tuple || type == types::List ||
      type == types::ImmutableList || type == types::Deque) {
    llvm::Expected<std::vector<PyTreeValue>> values = buildChildren(spec, path);
    if (!values)
      return values.takeError();
    if (type == types::Tuple)
      return PyTreeValue::tuple(std::move(*values));
    return PyTreeValue::list(std::move(*values));
  }

  rapidjson::Document context;
  if (llvm::Error err = parseHeldContext(spec, context))
    return error(path, llvm::toString(std::move(err)));

  if (type == types::Dict || type == types::OrderedDict ||
      type == types::ImmutableDict || type == types::DefaultDict) {
    const rapidjson::Value *keyList = &context;
    if (type == types::DefaultDict) {
      if (!context.IsObject() || !context.HasMember("dict_context"))
        return error(path, "expected a defaultdict context with dict_context");
      keyList = &context["dict_context"];
    }
    llvm::Expected<std::vector<std::string>> keys = stringKeys(*keyList, path);
    if (!keys)
      return keys.takeError();
    return buildKeyed(PyTreeValue::Kind::Dict, "", std::move(*keys), spec,
                      path);
  }
  if (registry.isNamedtupleNodeType(type))
    return buildNamedtuple(spec, context, path);
  if (const TreespecDataclass *info = registry.lookupDataclass(type))
    return buildDataclass(*info, spec, context, path);
  return error(path, "cannot unflatten a '" + type +
                         "' node: PyTreeValue has no counterpart for it");
}

} // namespace

llvm::Expected<FlattenedPyTree>
flattenPyTree(const PyTreeValue &value, const TreespecTypeRegistry &registry) {
  Flattener flattener(registry);
  llvm::Expected<TreeSpec> spec = flattener.flatten(value, "", 1);
  if (!spec)
    return spec.takeError();
  return FlattenedPyTree{std::move(flattener.leaves), std::move(*spec)};
}

llvm::Expected<PyTreeValue>
unflattenPyTree(llvm::ArrayRef<PyTreeValue> leaves, const TreeSpec &spec,
                const TreespecTypeRegistry &registry) {
  if (spec.getDepth() > MaxTreespecDepth)
    return makeTreespecError("unflatten: the spec nests " +
                             llvm::Twine(spec.getDepth()) +
                             " levels deep, more than the limit of " +
                             llvm::Twine(MaxTreespecDepth));
  if (leaves.size() != spec.getNumLeaves())
    return makeTreespecError("unflatten: the spec has " +
                             llvm::Twine(spec.getNumLeaves()) + " leaves but " +
                             llvm::Twine(leaves.size()) + " values were given");
  return Unflattener(leaves, registry).build(spec, "");
}

} // namespace pt2ir
