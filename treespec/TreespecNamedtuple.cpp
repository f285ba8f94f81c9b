//===- TreespecNamedtuple.cpp - Namedtuple field table and adapter --------===//

#include "pt2ir/treespec/TreespecNamedtuple.h"

#include "pt2ir/json/PyJsonWriter.h"
#include "pt2ir/treespec/TreespecJson.h"
#include "llvm/ADT/STLExtras.h"

namespace pt2ir {

namespace {

/// The class name and saved field names of a namedtuple node.
struct SavedNamedtuple {
  std::string ClassName;
  std::vector<std::string> Fields;
};

/// Decodes the context of namedtuple node `node`; the field names come from
/// a legacy context or from `lookupFields(className)`.
template <typename LookupFn>
llvm::Expected<SavedNamedtuple> readNamedtupleNode(const TreeSpec &node,
                                                   LookupFn lookupFields,
                                                   llvm::StringRef source) {
  rapidjson::Document context;
  if (llvm::Error err = parseHeldContext(node, context))
    return err;
  llvm::Expected<NamedtupleContext> decoded = decodeNamedtupleContext(context);
  if (!decoded)
    return decoded.takeError();
  SavedNamedtuple result;
  result.ClassName = decoded->ClassName;
  if (decoded->LegacyFields) {
    result.Fields = *decoded->LegacyFields;
  } else if (const std::vector<std::string> *fields =
                 lookupFields(decoded->ClassName)) {
    result.Fields = *fields;
  } else {
    return makeTreespecError("no field names for namedtuple '" +
                             decoded->ClassName + "' in " + source);
  }
  if (result.Fields.size() != node.getNumChildren())
    return makeTreespecError("namedtuple '" + result.ClassName + "' has " +
                             llvm::Twine(result.Fields.size()) + " fields " +
                             quotedList(result.Fields) + " in " + source +
                             " but its spec node has " +
                             llvm::Twine(node.getNumChildren()) + " children");
  return result;
}

} // namespace

//===----------------------------------------------------------------------===//
// NamedtupleFieldTable
//===----------------------------------------------------------------------===//

llvm::Error NamedtupleFieldTable::add(llvm::StringRef typeName,
                                      llvm::ArrayRef<std::string> fields) {
  auto known = indexByName.find(typeName);
  if (known == indexByName.end()) {
    indexByName[typeName] = table.size();
    table.push_back(Entry{typeName.str(), {fields.begin(), fields.end()}});
    return llvm::Error::success();
  }
  const Entry &entry = table[known->second];
  if (llvm::ArrayRef<std::string>(entry.Fields) == fields)
    return llvm::Error::success();
  return makeTreespecError(
      "namedtuple '" + typeName + "' has fields " + quotedList(fields) +
      " but was recorded earlier with fields " + quotedList(entry.Fields));
}

const std::vector<std::string> *
NamedtupleFieldTable::lookup(llvm::StringRef typeName) const {
  auto it = indexByName.find(typeName);
  return it == indexByName.end() ? nullptr : &table[it->second].Fields;
}

llvm::Expected<NamedtupleFieldTable>
NamedtupleFieldTable::fromJson(llvm::StringRef text) {
  constexpr llvm::StringLiteral Where = "treespec_namedtuple_fields";
  rapidjson::Document json;
  if (llvm::Error err =
          parseBoundedJson(text, MaxTreespecContextDepth, Where, json))
    return err;
  if (!json.IsObject())
    return makeTreespecError(Where +
                             ": expected an object mapping namedtuple "
                             "names to {\"field_names\": [...]}, got " +
                             describeJsonType(json));
  NamedtupleFieldTable result;
  for (const auto &member : json.GetObject()) {
    llvm::StringRef name(member.name.GetString(),
                         member.name.GetStringLength());
    std::string where = (Where + "['" + name + "']").str();
    if (!member.value.IsObject())
      return makeTreespecError(where +
                               ": expected {\"field_names\": [...]}, "
                               "got " +
                               describeJsonType(member.value));
    auto fieldNames = member.value.FindMember("field_names");
    if (fieldNames == member.value.MemberEnd())
      return makeTreespecError(where + ": missing key \"field_names\"");
    if (!fieldNames->value.IsArray())
      return makeTreespecError(where +
                               ".field_names: expected a list of "
                               "strings, got " +
                               describeJsonType(fieldNames->value));
    std::vector<std::string> fields;
    for (const auto &field : fieldNames->value.GetArray()) {
      if (!field.IsString())
        return makeTreespecError(where +
                                 ".field_names: expected a list of "
                                 "strings, found " +
                                 describeJsonType(field));
      fields.emplace_back(field.GetString(), field.GetStringLength());
    }
    if (result.lookup(name))
      return makeTreespecError(where + ": listed twice");
    if (llvm::Error err = result.add(name, fields))
      return err;
  }
  return result;
}

std::string NamedtupleFieldTable::toJson() const {
  std::string out = "{";
  for (size_t i = 0, e = table.size(); i != e; ++i) {
    if (i != 0)
      out += ", ";
    appendPyJsonString(out, table[i].TypeName);
    out += ": {\"field_names\": " + treespecKeyListJson(table[i].Fields) + "}";
  }
  return out + "}";
}

//===----------------------------------------------------------------------===//
// Collecting and registering
//===----------------------------------------------------------------------===//

llvm::Error collectNamedtupleFields(const TreeSpec &spec,
                                    const TreespecTypeRegistry &registry,
                                    NamedtupleFieldTable &table) {
  std::vector<const TreeSpec *> work{&spec};
  while (!work.empty()) {
    const TreeSpec *node = work.back();
    work.pop_back();
    for (const TreeSpec &child : node->getChildren())
      work.push_back(&child);
    if (node->isLeaf() || !registry.isNamedtupleNodeType(node->getTypeName()))
      continue;
    llvm::Expected<SavedNamedtuple> saved = readNamedtupleNode(
        *node,
        [&](llvm::StringRef name) {
          return registry.lookupNamedtupleFields(name);
        },
        "the type registry");
    if (!saved)
      return saved.takeError();
    if (llvm::Error err = table.add(saved->ClassName, saved->Fields))
      return err;
  }
  return llvm::Error::success();
}

llvm::Error registerSavedNamedtuples(const NamedtupleFieldTable &table,
                                     TreespecTypeRegistry &registry) {
  for (const NamedtupleFieldTable::Entry &entry : table.entries()) {
    if (registry.lookupNamedtupleFields(entry.TypeName))
      continue;
    if (llvm::Error err =
            registry.registerNamedtuple(entry.TypeName, entry.Fields))
      return err;
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Field mapping
//===----------------------------------------------------------------------===//

std::vector<std::string> NamedtupleFieldMapping::addedFields() const {
  std::vector<std::string> added;
  for (size_t i = 0, e = CurrentFields.size(); i != e; ++i)
    if (!CurrentToSaved[i])
      added.push_back(CurrentFields[i]);
  return added;
}

llvm::Expected<NamedtupleFieldMapping>
mapNamedtupleFields(llvm::StringRef typeName,
                    llvm::ArrayRef<std::string> savedFields,
                    llvm::ArrayRef<std::string> currentFields) {
  NamedtupleFieldMapping mapping;
  mapping.TypeName = typeName.str();
  mapping.SavedFields.assign(savedFields.begin(), savedFields.end());
  mapping.CurrentFields.assign(currentFields.begin(), currentFields.end());
  for (const std::string &field : savedFields) {
    auto it = llvm::find(currentFields, field);
    if (it == currentFields.end())
      return makeTreespecError(
          "namedtuple '" + typeName + "': saved field '" + field +
          "' is missing from the current fields " + quotedList(currentFields) +
          " (only fields added since the program was saved can be adapted)");
    mapping.SavedToCurrent.push_back(it - currentFields.begin());
  }
  for (const std::string &field : currentFields) {
    auto it = llvm::find(savedFields, field);
    if (it == savedFields.end())
      mapping.CurrentToSaved.push_back(std::nullopt);
    else
      mapping.CurrentToSaved.push_back(size_t(it - savedFields.begin()));
  }
  return mapping;
}

llvm::Expected<NamedtupleFieldMapping>
mapNamedtupleFields(const TreeSpec &savedNode,
                    const NamedtupleFieldTable &saved,
                    llvm::ArrayRef<std::string> currentFields) {
  llvm::Expected<SavedNamedtuple> node = readNamedtupleNode(
      savedNode, [&](llvm::StringRef name) { return saved.lookup(name); },
      "treespec_namedtuple_fields");
  if (!node)
    return node.takeError();
  return mapNamedtupleFields(node->ClassName, node->Fields, currentFields);
}

//===----------------------------------------------------------------------===//
// Value adapter
//===----------------------------------------------------------------------===//

namespace {

class SpecAdapter {
public:
  SpecAdapter(const NamedtupleFieldTable &saved,
              const TreespecTypeRegistry &registry)
      : saved(saved), registry(registry) {}

  /// Returns `value` in the layout of `spec`, appending the values found at
  /// the spec's leaves to `leaves`.
  llvm::Expected<PyTreeValue> adapt(const PyTreeValue &value,
                                    const TreeSpec &spec,
                                    const std::string &path);

  std::vector<PyTreeValue> leaves;

private:
  llvm::Error error(const std::string &path, const llvm::Twine &message) {
    return makeTreespecError("adapt to saved spec: " +
                             (path.empty() ? std::string("root node") : path) +
                             ": " + message);
  }
  std::string childPath(const std::string &parent, size_t index) {
    return (parent.empty() ? "" : parent + ".") + "children_spec[" +
           std::to_string(index) + "]";
  }
  llvm::Expected<std::vector<PyTreeValue>>
  adaptElements(llvm::ArrayRef<PyTreeValue> values, const TreeSpec &spec,
                const std::string &path);
  llvm::Expected<PyTreeValue> adaptNamedtuple(const PyTreeValue &value,
                                              const TreeSpec &spec,
                                              const std::string &path);
  llvm::Expected<PyTreeValue> adaptDict(const PyTreeValue &value,
                                        const TreeSpec &spec,
                                        const std::string &path);
  llvm::Expected<PyTreeValue> adaptDataclass(const PyTreeValue &value,
                                             const TreeSpec &spec,
                                             const std::string &path);

  const NamedtupleFieldTable &saved;
  const TreespecTypeRegistry &registry;
};

llvm::Expected<std::vector<PyTreeValue>>
SpecAdapter::adaptElements(llvm::ArrayRef<PyTreeValue> values,
                           const TreeSpec &spec, const std::string &path) {
  if (values.size() != spec.getNumChildren())
    return error(path, "the value has " + llvm::Twine(values.size()) +
                           " elements but the saved spec has " +
                           llvm::Twine(spec.getNumChildren()) + " children");
  std::vector<PyTreeValue> adapted;
  adapted.reserve(values.size());
  for (size_t i = 0, e = values.size(); i != e; ++i) {
    llvm::Expected<PyTreeValue> child =
        adapt(values[i], spec.getChildren()[i], childPath(path, i));
    if (!child)
      return child.takeError();
    adapted.push_back(std::move(*child));
  }
  return adapted;
}

llvm::Expected<PyTreeValue>
SpecAdapter::adaptNamedtuple(const PyTreeValue &value, const TreeSpec &spec,
                             const std::string &path) {
  if (value.getKind() != PyTreeValue::Kind::Namedtuple)
    return error(path,
                 "the saved spec has a namedtuple here but the value is " +
                     value.repr());
  llvm::Expected<NamedtupleFieldMapping> mapping =
      mapNamedtupleFields(spec, saved, value.getKeys());
  if (!mapping)
    return error(path, llvm::toString(mapping.takeError()));
  if (mapping->TypeName != value.getName())
    return error(path, "the saved spec has namedtuple '" + mapping->TypeName +
                           "' but the value is a '" + value.getName() + "'");
  std::vector<std::pair<std::string, PyTreeValue>> fields;
  for (size_t i = 0, e = mapping->SavedFields.size(); i != e; ++i) {
    const PyTreeValue &current =
        value.getElements()[mapping->SavedToCurrent[i]];
    llvm::Expected<PyTreeValue> child =
        adapt(current, spec.getChildren()[i], childPath(path, i));
    if (!child)
      return child.takeError();
    fields.emplace_back(mapping->SavedFields[i], std::move(*child));
  }
  return PyTreeValue::namedtuple(value.getName().str(), std::move(fields));
}

llvm::Expected<PyTreeValue> SpecAdapter::adaptDict(const PyTreeValue &value,
                                                   const TreeSpec &spec,
                                                   const std::string &path) {
  if (value.getKind() != PyTreeValue::Kind::Dict)
    return error(path, "the saved spec has a '" + spec.getTypeName() +
                           "' here but the value is " + value.repr());
  rapidjson::Document context;
  if (llvm::Error err = parseHeldContext(spec, context))
    return error(path, llvm::toString(std::move(err)));
  const rapidjson::Value *keys = &context;
  if (spec.getTypeName() == treespec_types::DefaultDict && context.IsObject() &&
      context.HasMember("dict_context"))
    keys = &context["dict_context"];
  if (!keys->IsArray() || keys->Size() != spec.getNumChildren())
    return error(path, "malformed dict key list");
  if (value.getKeys().size() != keys->Size())
    return error(path, "the value has " + llvm::Twine(value.getKeys().size()) +
                           " keys but the saved spec has " +
                           llvm::Twine(keys->Size()));
  // Like pytree's flatten_up_to, key order may differ; the spec's wins.
  std::vector<std::pair<std::string, PyTreeValue>> entries;
  for (size_t i = 0, e = keys->Size(); i != e; ++i) {
    const rapidjson::Value &key = (*keys)[static_cast<rapidjson::SizeType>(i)];
    if (!key.IsString())
      return error(path, "dict key " + pyJsonDumps(key) +
                             " is not a string; PyTreeValue dicts hold string "
                             "keys only");
    llvm::StringRef name(key.GetString(), key.GetStringLength());
    const PyTreeValue *current = value.lookup(name);
    if (!current)
      return error(path, "the value has no key '" + name + "'");
    llvm::Expected<PyTreeValue> child =
        adapt(*current, spec.getChildren()[i], childPath(path, i));
    if (!child)
      return child.takeError();
    entries.emplace_back(name.str(), std::move(*child));
  }
  return PyTreeValue::dict(std::move(entries));
}

llvm::Expected<PyTreeValue>
SpecAdapter::adaptDataclass(const PyTreeValue &value, const TreeSpec &spec,
                            const std::string &path) {
  if (value.getKind() != PyTreeValue::Kind::Dataclass ||
      value.getName() != spec.getTypeName())
    return error(path, "the saved spec has dataclass '" + spec.getTypeName() +
                           "' here but the value is " + value.repr());
  rapidjson::Document context;
  if (llvm::Error err = parseHeldContext(spec, context))
    return error(path, llvm::toString(std::move(err)));
  if (!context.IsArray() || context.Size() != 2 || !context[0].IsArray() ||
      context[0].Size() != spec.getNumChildren())
    return error(path, "malformed dataclass context");
  auto indexIn = [](const rapidjson::Value &names,
                    llvm::StringRef field) -> std::optional<size_t> {
    for (rapidjson::SizeType k = 0; k != names.Size(); ++k)
      if (names[k].IsString() &&
          field ==
              llvm::StringRef(names[k].GetString(), names[k].GetStringLength()))
        return k;
    return std::nullopt;
  };
  // Children are visited in the spec's order so leaves come out in it.
  std::vector<std::optional<PyTreeValue>> adaptedFields(value.getKeys().size());
  for (rapidjson::SizeType k = 0; k != context[0].Size(); ++k) {
    llvm::StringRef field(context[0][k].IsString() ? context[0][k].GetString()
                                                   : "");
    const PyTreeValue *current = value.lookup(field);
    if (!current)
      return error(path, "the value of dataclass '" + value.getName() +
                             "' has no field '" + field + "'");
    llvm::Expected<PyTreeValue> adapted =
        adapt(*current, spec.getChildren()[k], childPath(path, k));
    if (!adapted)
      return adapted.takeError();
    adaptedFields[current - value.getElements().data()] = std::move(*adapted);
  }
  std::vector<std::pair<std::string, PyTreeValue>> fields;
  for (size_t i = 0, e = value.getKeys().size(); i != e; ++i) {
    const std::string &field = value.getKeys()[i];
    if (adaptedFields[i]) {
      fields.emplace_back(field, std::move(*adaptedFields[i]));
      continue;
    }
    // A field that was None when the spec was saved has no input slot.
    if (context[1].IsArray() && indexIn(context[1], field) &&
        !value.getElements()[i].isNone())
      return error(path, "dataclass '" + value.getName() + "' field '" + field +
                             "' was None when the spec was saved but now "
                             "holds " +
                             value.getElements()[i].repr());
    fields.emplace_back(field, value.getElements()[i]);
  }
  return PyTreeValue::dataclass(value.getName().str(), std::move(fields));
}

llvm::Expected<PyTreeValue> SpecAdapter::adapt(const PyTreeValue &value,
                                               const TreeSpec &spec,
                                               const std::string &path) {
  if (spec.isLeaf()) {
    leaves.push_back(value);
    return value;
  }
  namespace types = treespec_types;
  llvm::StringRef type = spec.getTypeName();
  if (registry.isNamedtupleNodeType(type))
    return adaptNamedtuple(value, spec, path);
  if (type == types::Tuple || type == types::List ||
      type == types::ImmutableList || type == types::Deque) {
    bool isTuple = value.getKind() == PyTreeValue::Kind::Tuple;
    if (!isTuple && value.getKind() != PyTreeValue::Kind::List)
      return error(path, "the saved spec has a '" + type +
                             "' here but the value is " + value.repr());
    llvm::Expected<std::vector<PyTreeValue>> elements =
        adaptElements(value.getElements(), spec, path);
    if (!elements)
      return elements.takeError();
    return isTuple ? PyTreeValue::tuple(std::move(*elements))
                   : PyTreeValue::list(std::move(*elements));
  }
  if (type == types::Dict || type == types::OrderedDict ||
      type == types::ImmutableDict || type == types::DefaultDict)
    return adaptDict(value, spec, path);
  if (registry.lookupDataclass(type))
    return adaptDataclass(value, spec, path);
  return error(path, "cannot adapt a value to a '" + type +
                         "' node: PyTreeValue has no counterpart for it");
}

} // namespace

llvm::Expected<SavedSpecInputs>
adaptToSavedSpec(const PyTreeValue &current, const TreeSpec &savedSpec,
                 const NamedtupleFieldTable &saved,
                 const TreespecTypeRegistry &registry) {
  if (savedSpec.getDepth() > MaxTreespecDepth)
    return makeTreespecError("adapt to saved spec: the spec nests " +
                             llvm::Twine(savedSpec.getDepth()) +
                             " levels deep, more than the limit of " +
                             llvm::Twine(MaxTreespecDepth));
  SpecAdapter adapter(saved, registry);
  llvm::Expected<PyTreeValue> adapted = adapter.adapt(current, savedSpec, "");
  if (!adapted)
    return adapted.takeError();

  // Trace the current inputs through the same adaptation: rebuild `current`
  // with leaf i replaced by a marker naming i, adapt that, and read the
  // markers found at the saved leaves.
  llvm::Expected<FlattenedPyTree> flat = flattenPyTree(current, registry);
  if (!flat)
    return flat.takeError();
  std::vector<PyTreeValue> markers;
  for (size_t i = 0, e = flat->Leaves.size(); i != e; ++i)
    markers.push_back(PyTreeValue::leaf(std::to_string(i)));
  llvm::Expected<PyTreeValue> marked =
      unflattenPyTree(markers, flat->Spec, registry);
  if (!marked)
    return marked.takeError();
  SpecAdapter tracer(saved, registry);
  if (llvm::Expected<PyTreeValue> traced = tracer.adapt(*marked, savedSpec, "");
      !traced)
    return traced.takeError();

  SavedSpecInputs result;
  result.Value = std::move(*adapted);
  result.Leaves = std::move(adapter.leaves);
  for (size_t i = 0, e = tracer.leaves.size(); i != e; ++i) {
    const PyTreeValue &marker = tracer.leaves[i];
    size_t index = 0;
    if (!marker.isLeaf() || marker.getName().getAsInteger(10, index))
      return makeTreespecError("adapt to saved spec: saved input " +
                               llvm::Twine(i) +
                               " is not fed by a single current input (the "
                               "value there is " +
                               result.Leaves[i].repr() + ")");
    result.SavedToCurrentInput.push_back(index);
  }
  return result;
}

} // namespace pt2ir
