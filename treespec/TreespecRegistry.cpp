//===- TreespecRegistry.cpp - Pytree node types known to treespecs --------===//

#include "pt2ir/treespec/TreespecRegistry.h"

#include "pt2ir/json/PyJsonWriter.h"
#include "pt2ir/treespec/Treespec.h"
#include "pt2ir/treespec/TreespecJson.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include <algorithm>

namespace pt2ir {

char TreespecTypeRegistry::ID = 0;

namespace {

/// A context check on the parsed context; see onParsedContext.
using ParsedContextValidator = std::function<llvm::Error(
    const rapidjson::Value &context, size_t numChildren,
    const TreespecTypeRegistry &registry)>;

/// The public validator (on JSON text) that parses the context and runs
/// `check` on it.
TreespecContextValidator onParsedContext(ParsedContextValidator check) {
  return [check = std::move(check)](
             llvm::StringRef context, size_t numChildren,
             const TreespecTypeRegistry &registry) -> llvm::Error {
    rapidjson::Document doc;
    if (llvm::Error err =
            parseBoundedJson(context, MaxTreespecContextDepth, "context", doc))
      return err;
    return check(doc, numChildren, registry);
  };
}

/// Python's placeholder for a type registered without a serialized name.
constexpr llvm::StringLiteral NoSerializedTypeName =
    "NO_SERIALIZED_TYPE_NAME_FOUND";

std::string joinSorted(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  std::string out;
  for (const std::string &name : names) {
    if (!out.empty())
      out += ", ";
    out += name;
  }
  return out.empty() ? "(none)" : out;
}

/// Checks that a field list is usable: non-empty names, no duplicates.
llvm::Error checkFieldNames(llvm::StringRef owner,
                            llvm::ArrayRef<std::string> fields) {
  llvm::StringSet<> seen;
  for (const std::string &field : fields) {
    if (field.empty())
      return makeTreespecError("'" + owner + "' has an empty field name");
    if (!seen.insert(field).second)
      return makeTreespecError("'" + owner + "' lists field '" + field +
                               "' twice");
  }
  return llvm::Error::success();
}

/// Reads a JSON array of strings into `out`; `what` names it in errors.
llvm::Error readStringList(const rapidjson::Value &v, llvm::StringRef what,
                           std::vector<std::string> &out) {
  if (!v.IsArray())
    return makeTreespecError("expected " + what +
                             " as a list of strings, got " +
                             describeJsonType(v));
  for (const auto &element : v.GetArray()) {
    if (!element.IsString())
      return makeTreespecError("expected " + what +
                               " as a list of strings, found " +
                               describeJsonType(element));
    out.emplace_back(element.GetString(), element.GetStringLength());
  }
  return llvm::Error::success();
}

llvm::Error validateNullContext(const rapidjson::Value &context, size_t,
                                const TreespecTypeRegistry &) {
  if (context.IsNull())
    return llvm::Error::success();
  return makeTreespecError("expected a null context (json.dumps(None)), got " +
                           describeJsonType(context));
}

llvm::Error checkKeyList(const rapidjson::Value &keys, size_t numChildren) {
  if (!keys.IsArray())
    return makeTreespecError(
        "expected the list of dict keys (one per child), got " +
        describeJsonType(keys));
  if (keys.Size() != numChildren)
    return makeTreespecError("the key list has " + llvm::Twine(keys.Size()) +
                             " keys but the node has " +
                             llvm::Twine(numChildren) + " children");
  return llvm::Error::success();
}

llvm::Error validateKeyListContext(const rapidjson::Value &context,
                                   size_t numChildren,
                                   const TreespecTypeRegistry &) {
  return checkKeyList(context, numChildren);
}

llvm::Error validateDequeContext(const rapidjson::Value &context,
                                 size_t numChildren,
                                 const TreespecTypeRegistry &) {
  if (context.IsNull())
    return llvm::Error::success();
  if (!context.IsUint64())
    return makeTreespecError(
        "expected the deque's maxlen (a non-negative integer or null), got " +
        describeJsonType(context));
  if (context.GetUint64() < numChildren)
    return makeTreespecError(
        "a deque with maxlen " + llvm::Twine(context.GetUint64()) +
        " cannot hold " + llvm::Twine(numChildren) + " children");
  return llvm::Error::success();
}

/// Accepts the embedded value if it is an object; the validator checks the
/// members.
llvm::Expected<std::string> defaultDictFromJson(llvm::StringRef onDisk) {
  rapidjson::Document v;
  if (llvm::Error err =
          parseBoundedJson(onDisk, MaxTreespecContextDepth, "context", v))
    return err;
  if (!v.IsObject())
    return makeTreespecError("expected a defaultdict context object "
                             "{default_factory_module, default_factory_name, "
                             "dict_context}, got " +
                             describeJsonType(v));
  return onDisk.str();
}

llvm::Error validateDefaultDictContext(const rapidjson::Value &context,
                                       size_t numChildren,
                                       const TreespecTypeRegistry &) {
  if (!context.IsObject())
    return makeTreespecError("expected a defaultdict context object, got " +
                             describeJsonType(context));
  static constexpr llvm::StringLiteral RequiredKeys[] = {
      "default_factory_module", "default_factory_name", "dict_context"};
  for (const auto &member : context.GetObject()) {
    llvm::StringRef key(member.name.GetString(), member.name.GetStringLength());
    if (!llvm::is_contained(RequiredKeys, key))
      return makeTreespecError("unexpected key '" + key +
                               "' in a defaultdict context (expected "
                               "default_factory_module, default_factory_name, "
                               "dict_context)");
  }
  for (llvm::StringRef key : RequiredKeys) {
    auto it = context.FindMember(
        rapidjson::StringRef(key.data(), static_cast<unsigned>(key.size())));
    if (it == context.MemberEnd())
      return makeTreespecError("missing key '" + key +
                               "' in a defaultdict context");
    if (key == "dict_context") {
      if (llvm::Error err = checkKeyList(it->value, numChildren))
        return err;
      continue;
    }
    if (!it->value.IsString())
      return makeTreespecError(
          "expected '" + key +
          "' of a defaultdict context to be a string, got " +
          describeJsonType(it->value));
  }
  return llvm::Error::success();
}

/// Accepts a class name (string) or the legacy object form; the validator
/// checks the details.
llvm::Expected<std::string> namedtupleFromJson(llvm::StringRef onDisk) {
  rapidjson::Document v;
  if (llvm::Error err =
          parseBoundedJson(onDisk, MaxTreespecContextDepth, "context", v))
    return err;
  if (!v.IsString() && !v.IsObject())
    return makeTreespecError(
        "expected the namedtuple class's serialized type name as a JSON "
        "string, got " +
        describeJsonType(v));
  return onDisk.str();
}

llvm::Expected<std::string> identityToJson(llvm::StringRef held) {
  return held.str();
}

llvm::Error validateNamedtupleContext(const rapidjson::Value &context,
                                      size_t numChildren,
                                      const TreespecTypeRegistry &registry) {
  llvm::Expected<NamedtupleContext> decoded = decodeNamedtupleContext(context);
  if (!decoded)
    return decoded.takeError();
  if (decoded->LegacyFields) {
    if (decoded->LegacyFields->size() != numChildren)
      return makeTreespecError(
          "namedtuple '" + decoded->ClassName + "' lists " +
          llvm::Twine(decoded->LegacyFields->size()) +
          " fields but the node has " + llvm::Twine(numChildren) + " children");
    return checkFieldNames(decoded->ClassName, *decoded->LegacyFields);
  }
  // The field count is not compared here: a class that gained fields since
  // the spec was saved still loads, and TreespecNamedtuple.h adapts values.
  if (registry.lookupNamedtupleFields(decoded->ClassName))
    return llvm::Error::success();
  return makeTreespecError(
      "unknown namedtuple class '" + decoded->ClassName +
      "'; registered namedtuple classes: " + registry.describeNamedtuples());
}

TreespecContextCodec namedtupleCodec() {
  return TreespecContextCodec{identityToJson, namedtupleFromJson};
}

} // namespace

llvm::Expected<NamedtupleContext>
decodeNamedtupleContext(const rapidjson::Value &context) {
  NamedtupleContext result;
  if (context.IsString()) {
    result.ClassName.assign(context.GetString(), context.GetStringLength());
    return result;
  }
  if (!context.IsObject())
    return makeTreespecError(
        "expected the namedtuple class's serialized type name as a JSON "
        "string, got " +
        describeJsonType(context));
  auto className = context.FindMember("class_name");
  auto fields = context.FindMember("fields");
  if (className == context.MemberEnd() || !className->value.IsString() ||
      fields == context.MemberEnd())
    return makeTreespecError(
        "expected a namedtuple class name string, or the legacy object "
        "{\"class_name\": str, \"fields\": [str, ...]}");
  result.ClassName.assign(className->value.GetString(),
                          className->value.GetStringLength());
  std::vector<std::string> fieldNames;
  if (llvm::Error err =
          readStringList(fields->value, "the namedtuple 'fields'", fieldNames))
    return err;
  result.LegacyFields = std::move(fieldNames);
  return result;
}

TreespecTypeRegistry::TreespecTypeRegistry() {
  using namespace treespec_types;
  addBuiltin(Tuple, std::nullopt, onParsedContext(validateNullContext));
  addBuiltin(List, std::nullopt, onParsedContext(validateNullContext));
  addBuiltin(Dict, std::nullopt, onParsedContext(validateKeyListContext));
  addBuiltin(OrderedDict, std::nullopt,
             onParsedContext(validateKeyListContext));
  addBuiltin(DefaultDict,
             TreespecContextCodec{identityToJson, defaultDictFromJson},
             onParsedContext(validateDefaultDictContext));
  addBuiltin(Deque, std::nullopt, onParsedContext(validateDequeContext));
  addBuiltin(Namedtuple, namedtupleCodec(),
             onParsedContext(validateNamedtupleContext));
  addBuiltin(ImmutableList, std::nullopt, onParsedContext(validateNullContext));
  addBuiltin(ImmutableDict, std::nullopt,
             onParsedContext(validateKeyListContext));
}

void TreespecTypeRegistry::addBuiltin(llvm::StringRef name,
                                      std::optional<TreespecContextCodec> codec,
                                      TreespecContextValidator validate) {
  types[name] =
      TreespecNodeType{name.str(), std::move(codec), std::move(validate)};
}

llvm::Error TreespecTypeRegistry::checkNewName(llvm::StringRef name) const {
  if (name.empty())
    return makeTreespecError("a pytree type needs a non-empty serialized type "
                             "name");
  if (name == NoSerializedTypeName)
    return makeTreespecError("'" + name +
                             "' is Python's placeholder for a missing "
                             "serialized type name, not a usable name");
  for (char c : name)
    if (static_cast<unsigned char>(c) <= ' ' || c == 0x7F)
      return makeTreespecError("serialized type name '" + name +
                               "' contains whitespace or control characters");
  llvm::SmallVector<llvm::StringRef, 4> parts;
  name.split(parts, '.');
  if (parts.size() < 2 ||
      llvm::any_of(parts, [](llvm::StringRef part) { return part.empty(); }))
    return makeTreespecError("serialized type name '" + name +
                             "' is not fully qualified (expected "
                             "'module.Name')");
  if (types.count(name))
    return makeTreespecError("pytree type '" + name +
                             "' is already registered");
  return llvm::Error::success();
}

llvm::Error
TreespecTypeRegistry::registerType(llvm::StringRef serializedTypeName,
                                   std::optional<TreespecContextCodec> codec,
                                   TreespecContextValidator validate) {
  if (llvm::Error err = checkNewName(serializedTypeName))
    return err;
  if (codec && (!codec->ToJson || !codec->FromJson))
    return makeTreespecError("the context codec of '" + serializedTypeName +
                             "' needs both ToJson and FromJson");
  types[serializedTypeName] = TreespecNodeType{
      serializedTypeName.str(), std::move(codec), std::move(validate)};
  return llvm::Error::success();
}

llvm::Error
TreespecTypeRegistry::registerDataclass(llvm::StringRef serializedTypeName,
                                        llvm::ArrayRef<std::string> fieldNames,
                                        bool returnNoneFields) {
  if (llvm::Error err = checkNewName(serializedTypeName))
    return err;
  if (llvm::Error err = checkFieldNames(serializedTypeName, fieldNames))
    return err;

  std::vector<std::string> fields(fieldNames.begin(), fieldNames.end());
  std::string owner = serializedTypeName.str();
  auto validate = [owner, fields, returnNoneFields](
                      const rapidjson::Value &context, size_t numChildren,
                      const TreespecTypeRegistry &) -> llvm::Error {
    if (!context.IsArray() || context.Size() != 2) {
      std::string got =
          context.IsArray()
              ? "an array of " + std::to_string(context.Size()) + " elements"
              : describeJsonType(context).str();
      return makeTreespecError(
          "expected a dataclass context [flat_names, none_names], got " + got);
    }
    std::vector<std::string> flatNames, noneNames;
    if (llvm::Error err =
            readStringList(context[0], "the dataclass flat_names", flatNames))
      return err;
    if (llvm::Error err =
            readStringList(context[1], "the dataclass none_names", noneNames))
      return err;
    if (flatNames.size() != numChildren)
      return makeTreespecError("dataclass '" + owner + "' lists " +
                               llvm::Twine(flatNames.size()) +
                               " flat fields but the node has " +
                               llvm::Twine(numChildren) + " children");
    llvm::StringSet<> seen;
    for (const std::vector<std::string> *names : {&flatNames, &noneNames}) {
      for (const std::string &name : *names) {
        if (!llvm::is_contained(fields, name))
          return makeTreespecError(
              "dataclass '" + owner + "' has no field '" + name +
              "' (registered fields: " + quotedList(fields) + ")");
        if (!seen.insert(name).second)
          return makeTreespecError("dataclass '" + owner +
                                   "' context lists "
                                   "field '" +
                                   name + "' twice");
      }
    }
    // Flattening puts every field in one of the two lists.
    for (const std::string &field : fields)
      if (!seen.count(field))
        return makeTreespecError(
            "dataclass '" + owner + "' context does not list field '" + field +
            "' (registered fields: " + quotedList(fields) + ")");
    if (returnNoneFields && !noneNames.empty())
      return makeTreespecError(
          "dataclass '" + owner +
          "' keeps None fields as children (return_none_fields), but its "
          "context lists '" +
          noneNames.front() + "' in none_names");
    return llvm::Error::success();
  };
  types[serializedTypeName] = TreespecNodeType{
      owner, std::nullopt, onParsedContext(std::move(validate))};
  dataclasses[serializedTypeName] =
      TreespecDataclass{owner, std::move(fields), returnNoneFields};
  return llvm::Error::success();
}

llvm::Error TreespecTypeRegistry::registerNamedtuple(
    llvm::StringRef serializedTypeName,
    llvm::ArrayRef<std::string> fieldNames) {
  auto known = namedtuples.find(serializedTypeName);
  if (known != namedtuples.end()) {
    if (llvm::ArrayRef<std::string>(known->second) == fieldNames)
      return llvm::Error::success();
    return makeTreespecError("namedtuple '" + serializedTypeName +
                             "' is already registered with fields " +
                             quotedList(known->second) + ", not " +
                             quotedList(fieldNames));
  }
  if (llvm::Error err = checkNewName(serializedTypeName))
    return err;
  if (llvm::Error err = checkFieldNames(serializedTypeName, fieldNames))
    return err;
  types[serializedTypeName] =
      TreespecNodeType{serializedTypeName.str(), namedtupleCodec(),
                       onParsedContext(validateNamedtupleContext)};
  namedtuples[serializedTypeName] =
      std::vector<std::string>(fieldNames.begin(), fieldNames.end());
  return llvm::Error::success();
}

const TreespecNodeType *
TreespecTypeRegistry::lookupType(llvm::StringRef name) const {
  auto it = types.find(name);
  return it == types.end() ? nullptr : &it->second;
}

const TreespecDataclass *
TreespecTypeRegistry::lookupDataclass(llvm::StringRef name) const {
  auto it = dataclasses.find(name);
  return it == dataclasses.end() ? nullptr : &it->second;
}

const std::vector<std::string> *
TreespecTypeRegistry::lookupNamedtupleFields(llvm::StringRef name) const {
  auto it = namedtuples.find(name);
  return it == namedtuples.end() ? nullptr : &it->second;
}

bool TreespecTypeRegistry::isNamedtupleNodeType(llvm::StringRef name) const {
  return name == treespec_types::Namedtuple || namedtuples.count(name);
}

std::string TreespecTypeRegistry::describeTypes() const {
  std::vector<std::string> names;
  for (const auto &entry : types)
    names.push_back(entry.getKey().str());
  return joinSorted(std::move(names));
}

std::string TreespecTypeRegistry::describeNamedtuples() const {
  std::vector<std::string> names;
  for (const auto &entry : namedtuples)
    names.push_back(entry.getKey().str());
  return joinSorted(std::move(names));
}

} // namespace pt2ir
