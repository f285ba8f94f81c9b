//===- OperatorRegistry.cpp - Operator schema lookup ----------------------===//
//
// Part of pt2ir.
//
//===----------------------------------------------------------------------===//
//
// Implements OperatorRegistry and SchemaTableExtension. The built-in aten
// table is parsed from ir/AtenOperators.inc once, on first use, into an
// immutable function-local static (C++11 guarantees thread-safe
// initialization); registries only point at it.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/ir/OperatorRegistry.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>

using namespace llvm;

namespace pt2ir {

//===----------------------------------------------------------------------===//
// The built-in aten table
//===----------------------------------------------------------------------===//

namespace {

struct AtenEntry {
  StringLiteral Schema;
  uint32_t Tags;
};

/// The tag bits, named like the OperatorTag enumerators so the generated
/// table's tag expressions (`Core|Pointwise`) compile as masks.
namespace aten_tag_bits {
#define PT2IR_ATEN_TAG(Enumerator, Name)                                       \
  constexpr uint32_t Enumerator =                                              \
      uint32_t(1) << static_cast<unsigned>(OperatorTag::Enumerator);
#include "pt2ir/ir/AtenOperators.inc"

constexpr AtenEntry Entries[] = {
#define PT2IR_ATEN_OP(Schema, Tags) {StringLiteral(Schema), Tags},
#include "pt2ir/ir/AtenOperators.inc"
};
} // namespace aten_tag_bits

struct AtenTable {
  std::vector<OperatorSchema> Schemas;
  /// Keyed by "name.overload" for explicit overloads and by "name" for the
  /// default one; the keys are views into the generated string literals.
  DenseMap<StringRef, const OperatorSchema *> ByName;
};

/// Builds "name.overload" into \p Key.
void buildKey(SmallVectorImpl<char> &Key, StringRef Name, StringRef Overload) {
  Key.clear();
  Key.append(Name.begin(), Name.end());
  Key.push_back('.');
  if (Overload.empty())
    Overload = "default";
  Key.append(Overload.begin(), Overload.end());
}

/// Returns the built-in table key for a name and overload that are views
/// into one schema text ("add" and "Tensor" of "add.Tensor(...)").
StringRef builtinKey(StringRef Name, StringRef Overload) {
  if (Overload.empty() || Overload == "default")
    return Name;
  // Views from the parser are adjacent: name, '.', overload.
  if (Overload.data() != Name.data() + Name.size() + 1)
    return StringRef();
  return StringRef(Name.data(), Name.size() + 1 + Overload.size());
}

AtenTable buildAtenTable() {
  AtenTable Table;
  Table.Schemas.reserve(std::size(aten_tag_bits::Entries));
  for (const AtenEntry &Entry : aten_tag_bits::Entries) {
    // The literals live as long as the program, so the schemas view them.
    Expected<OperatorSchema> Schema =
        parseStaticOperatorSchema(Entry.Schema, "aten");
    // The table is generated and every entry is checked by the unit tests;
    // an entry that still fails to parse is left out rather than crashing.
    if (!Schema) {
      consumeError(Schema.takeError());
      continue;
    }
    Schema->setTags(OperatorTagSet(Entry.Tags));
    Table.Schemas.push_back(std::move(*Schema));
  }
  Table.ByName.reserve(Table.Schemas.size());
  for (const OperatorSchema &Schema : Table.Schemas) {
    StringRef Overload =
        Schema.hasExplicitOverload() ? Schema.getOverloadName() : StringRef();
    StringRef Key = builtinKey(Schema.getName(), Overload);
    if (!Key.empty())
      Table.ByName.try_emplace(Key, &Schema);
  }
  return Table;
}

const AtenTable &getAtenTable() {
  static const AtenTable Table = buildAtenTable();
  return Table;
}

Error makeError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

/// Returns true for names reserved by torch.export for non-extension use.
bool isReservedExtensionNamespace(StringRef Namespace) {
  return Namespace == "torch" || Namespace == "builtins" || Namespace == "aten";
}

} // namespace

//===----------------------------------------------------------------------===//
// ExtensionHandler and SchemaTableExtension
//===----------------------------------------------------------------------===//

ExtensionHandler::~ExtensionHandler() = default;

Expected<std::unique_ptr<SchemaTableExtension>>
SchemaTableExtension::create(StringRef Namespace, ArrayRef<StringRef> Schemas) {
  if (Namespace.empty() || Namespace.contains(':'))
    return makeError("extension namespace '" + Namespace +
                     "' must be non-empty and contain no ':'");
  std::unique_ptr<SchemaTableExtension> Table(
      new SchemaTableExtension(Namespace.str()));
  SmallString<64> Key;
  for (StringRef Text : Schemas) {
    Expected<OperatorSchema> Schema = parseOperatorSchema(Text, Namespace);
    if (!Schema)
      return makeError("invalid schema '" + Text +
                       "': " + toString(Schema.takeError()));
    buildKey(Key, Schema->getName(), Schema->getOverloadName());
    auto Inserted = Table->Schemas.try_emplace(
        Key, std::make_unique<OperatorSchema>(std::move(*Schema)));
    if (!Inserted.second)
      return makeError("extension namespace '" + Namespace +
                       "' defines operator '" + Key + "' twice");
  }
  return Table;
}

const OperatorSchema *SchemaTableExtension::getSchema(StringRef OpName) const {
  SmallString<64> Key;
  if (OpName.contains('.'))
    Key = OpName;
  else
    buildKey(Key, OpName, "");
  auto It = Schemas.find(Key);
  return It == Schemas.end() ? nullptr : It->second.get();
}

//===----------------------------------------------------------------------===//
// OperatorRegistry
//===----------------------------------------------------------------------===//

OperatorRegistry::OperatorRegistry() { (void)getAtenTable(); }
OperatorRegistry::~OperatorRegistry() = default;
OperatorRegistry::OperatorRegistry(OperatorRegistry &&) = default;
OperatorRegistry &OperatorRegistry::operator=(OperatorRegistry &&) = default;

ArrayRef<OperatorSchema> OperatorRegistry::builtinSchemas() {
  return getAtenTable().Schemas;
}

const OperatorSchema *OperatorRegistry::lookupParts(StringRef Namespace,
                                                    StringRef Name,
                                                    StringRef Overload) const {
  if (Namespace.empty() || Name.empty())
    return nullptr;
  if (Namespace == "aten") {
    const AtenTable &Table = getAtenTable();
    // Callers usually pass views of one "name.overload" string; only
    // otherwise is the key built.
    SmallString<96> Built;
    StringRef Key = builtinKey(Name, Overload);
    if (Key.empty()) {
      buildKey(Built, Name, Overload);
      Key = Built;
    }
    auto It = Table.ByName.find(Key);
    if (It != Table.ByName.end())
      return It->second;
  }
  if (CustomSchemas.empty())
    return nullptr;
  SmallString<128> Qualified(Namespace);
  Qualified += "::";
  SmallString<96> Key;
  buildKey(Key, Name, Overload);
  Qualified += Key;
  auto It = CustomSchemas.find(Qualified);
  return It == CustomSchemas.end() ? nullptr : It->second.get();
}

const OperatorSchema *OperatorRegistry::lookup(StringRef QualifiedName) const {
  size_t Colons = QualifiedName.find("::");
  if (Colons == StringRef::npos)
    return nullptr;
  StringRef Namespace = QualifiedName.take_front(Colons);
  StringRef Rest = QualifiedName.drop_front(Colons + 2);
  auto [Name, Overload] = Rest.split('.');
  if (Rest.contains('.') && Overload.empty())
    return nullptr;
  return lookupParts(Namespace, Name, Overload);
}

const OperatorSchema *OperatorRegistry::lookupTarget(StringRef Target) const {
  if (Target.consume_front("#")) {
    auto [Namespace, OpName] = Target.split(':');
    if (Namespace.empty() || OpName.empty() || OpName.contains(':'))
      return nullptr;
    const ExtensionHandler *Handler = getExtension(Namespace);
    return Handler ? Handler->getSchema(OpName) : nullptr;
  }
  if (!Target.consume_front("torch.ops."))
    return nullptr;
  SmallVector<StringRef, 4> Parts;
  Target.split(Parts, '.');
  if (Parts.size() != 3 || Parts[2].empty())
    return nullptr;
  return lookupParts(Parts[0], Parts[1], Parts[2]);
}

Error OperatorRegistry::registerSchema(StringRef SchemaString,
                                       OperatorTagSet Tags) {
  Expected<OperatorSchema> Schema = parseOperatorSchema(SchemaString);
  if (!Schema)
    return makeError("invalid schema '" + SchemaString +
                     "': " + toString(Schema.takeError()));
  Schema->setTags(Tags);
  return registerSchema(std::move(*Schema));
}

Error OperatorRegistry::registerSchema(OperatorSchema Schema) {
  StringRef Namespace = Schema.getNamespace();
  if (Namespace.empty())
    return makeError("schema '" + Schema.toString() +
                     "' must be qualified with a namespace (ns::name)");
  if (Extensions.count(Namespace))
    return makeError("namespace '" + Namespace +
                     "' belongs to an extension handler");
  std::string Qualified = Schema.getQualifiedName();
  if (lookupParts(Namespace, Schema.getName(), Schema.getOverloadName()))
    return makeError("operator '" + Qualified + "' is already registered");
  CustomNamespaces.try_emplace(Namespace, 0);
  CustomSchemas.try_emplace(
      Qualified, std::make_unique<OperatorSchema>(std::move(Schema)));
  return Error::success();
}

Error OperatorRegistry::registerExtension(
    std::unique_ptr<ExtensionHandler> Handler) {
  if (!Handler)
    return makeError("cannot register a null extension handler");
  StringRef Namespace = Handler->getNamespace();
  if (Namespace.empty() || Namespace.contains(':'))
    return makeError("extension namespace '" + Namespace +
                     "' must be non-empty and contain no ':'");
  if (isReservedExtensionNamespace(Namespace))
    return makeError("extension namespace '" + Namespace + "' is reserved");
  if (Extensions.count(Namespace))
    return makeError("extension namespace '" + Namespace +
                     "' is already registered");
  if (CustomNamespaces.count(Namespace))
    return makeError("namespace '" + Namespace +
                     "' is already used by registered operator schemas");
  std::string Key = Namespace.str();
  Extensions.try_emplace(Key, std::move(Handler));
  return Error::success();
}

const ExtensionHandler *
OperatorRegistry::getExtension(StringRef Namespace) const {
  auto It = Extensions.find(Namespace);
  return It == Extensions.end() ? nullptr : It->second.get();
}

std::vector<std::string> OperatorRegistry::namespaces() const {
  StringSet<> Names;
  Names.insert("aten");
  for (const auto &Entry : CustomNamespaces)
    Names.insert(Entry.getKey());
  for (const auto &Entry : Extensions)
    Names.insert(Entry.getKey());
  std::vector<std::string> Result;
  Result.reserve(Names.size());
  for (const auto &Entry : Names)
    Result.push_back(Entry.getKey().str());
  std::sort(Result.begin(), Result.end());
  return Result;
}

} // namespace pt2ir
