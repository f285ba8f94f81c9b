//===- OperatorSchema.h - Parsed operator schemas ---------------*- C++ -*-===//
//
// Part of pt2ir.
//
//===----------------------------------------------------------------------===//
//
// The in-memory form of an operator schema string such as
//   aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
// and the parser that produces it. A schema names its operator (namespace,
// name, overload), lists typed arguments (with alias annotations, default
// value text and keyword-only markers) and typed returns, and carries the
// operator's tags (from tags.yaml).
//
// This file deliberately does not interpret default values (they are kept as
// source text), does not check argument values against types, and knows no
// operator table: see ir/OperatorRegistry.h for lookup.
//
//===----------------------------------------------------------------------===//

#ifndef PT2IR_IR_OPERATORSCHEMA_H
#define PT2IR_IR_OPERATORSCHEMA_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pt2ir {

/// The operator tags declared in tags.yaml, in declaration order.
enum class OperatorTag : uint8_t {
#define PT2IR_ATEN_TAG(Enumerator, Name) Enumerator,
#include "pt2ir/ir/AtenOperators.inc"
};

/// The number of OperatorTag enumerators.
constexpr unsigned NumOperatorTags = 0
#define PT2IR_ATEN_TAG(Enumerator, Name) +1
#include "pt2ir/ir/AtenOperators.inc"
    ;

/// Returns the tags.yaml spelling of \p Tag (for example "core").
llvm::StringRef getOperatorTagName(OperatorTag Tag);

/// Returns the tag spelled \p Name in tags.yaml, or std::nullopt.
std::optional<OperatorTag> parseOperatorTag(llvm::StringRef Name);

/// A set of OperatorTag values, stored as a bitmask.
class OperatorTagSet {
public:
  constexpr OperatorTagSet() = default;
  constexpr explicit OperatorTagSet(uint32_t Mask) : Bits(Mask) {}
  OperatorTagSet(std::initializer_list<OperatorTag> Tags) {
    for (OperatorTag Tag : Tags)
      insert(Tag);
  }

  /// Returns true if \p Tag is in the set.
  bool contains(OperatorTag Tag) const { return Bits & bitOf(Tag); }
  /// Adds \p Tag to the set.
  void insert(OperatorTag Tag) { Bits |= bitOf(Tag); }
  /// Returns true if the set holds no tag.
  bool empty() const { return Bits == 0; }
  /// Returns the raw bitmask (bit i is the i-th tag of tags.yaml).
  uint32_t bits() const { return Bits; }
  /// Returns the tag names in tags.yaml order.
  std::vector<llvm::StringRef> names() const;

  bool operator==(OperatorTagSet Other) const { return Bits == Other.Bits; }
  bool operator!=(OperatorTagSet Other) const { return Bits != Other.Bits; }

private:
  static constexpr uint32_t bitOf(OperatorTag Tag) {
    return uint32_t(1) << static_cast<unsigned>(Tag);
  }

  uint32_t Bits = 0;
};

/// The element type of a schema type, before list and optional modifiers.
enum class SchemaBaseType : uint8_t {
  Tensor,
  Int,
  SymInt,
  Float,
  SymFloat,
  Bool,
  SymBool,
  Complex,
  Str,
  Scalar,
  ScalarType,
  Layout,
  Device,
  DeviceIndex,
  MemoryFormat,
  Generator,
  Dimname,
  Storage,
  Stream,
  QScheme,
  ConstQuantizerPtr,
  Any,
  /// A TorchBind class such as `__torch__.torch.classes.mylib.Foo`.
  CustomClass,
};

/// Returns the schema spelling of \p Base ("Tensor", "int", "SymInt", ...).
/// CustomClass has no fixed spelling and returns "<class>".
llvm::StringRef getSchemaBaseTypeName(SchemaBaseType Base);

/// An alias annotation: `(a!)`, `(a)`, `(a|b)`, `(a -> *)`, `(*)`. The set
/// lists are views into the owning schema's text.
struct AliasInfo {
  /// The alias sets on entry as written, e.g. "a" or "a|b" (`*` = wildcard).
  llvm::StringRef BeforeSetsText;
  /// The alias sets after the call as written after `->`, empty if none.
  llvm::StringRef AfterSetsText;
  /// True when the value is written (`!`).
  bool IsWrite = false;

  /// Returns the sets on entry, e.g. {"a"} for `Tensor(a!)`.
  llvm::SmallVector<llvm::StringRef, 2> beforeSets() const;
  /// Returns the sets after the call, e.g. {"*"} for `Tensor(a -> *)`.
  llvm::SmallVector<llvm::StringRef, 2> afterSets() const;
  /// Returns the first set on entry ("a" for `Tensor(a!)`).
  llvm::StringRef getAliasSet() const;
  /// Returns the annotation text without parentheses, e.g. "a!" or "a -> *".
  std::string toString() const;

  bool operator==(const AliasInfo &Other) const {
    return IsWrite == Other.IsWrite && beforeSets() == Other.beforeSets() &&
           afterSets() == Other.afterSets();
  }
  bool operator!=(const AliasInfo &Other) const { return !(*this == Other); }
};

/// A parsed schema type such as `Tensor?[]`, `int[2]` or `SymInt[]?`.
struct SchemaType {
  SchemaBaseType Base = SchemaBaseType::Tensor;
  /// True for `T?[]`: the list elements are optional.
  bool ElementOptional = false;
  /// True for `T[]` and `T[N]`.
  bool IsList = false;
  /// True for `T?` and `T[]?`: the value itself may be None.
  bool Optional = false;
  /// N for a fixed-size list `T[N]`.
  std::optional<uint32_t> FixedSize;
  /// The dotted class name when Base is CustomClass, else empty.
  llvm::StringRef ClassName;

  /// Returns true for Tensor, Tensor?, Tensor[], Tensor?[] and Tensor[]?.
  bool isTensorLike() const { return Base == SchemaBaseType::Tensor; }
  /// Returns true for exactly `Tensor`.
  bool isPlainTensor() const { return isTensorLike() && !IsList && !Optional; }
  /// Returns the type text; \p Alias, if given, is printed after the base
  /// type name (`Tensor(a!)[]`).
  std::string toString(const AliasInfo *Alias = nullptr) const;
};

/// One argument of a schema. String fields are views into the text owned by
/// the OperatorSchema they belong to.
struct SchemaArgument {
  llvm::StringRef Name;
  SchemaType Type;
  std::optional<AliasInfo> Alias;
  /// The default value exactly as written after `=`, e.g. "1", "None",
  /// "[-2,-1]", "\"valid\"".
  std::optional<llvm::StringRef> DefaultValue;
  /// True for arguments after the `*` marker.
  bool KwargOnly = false;

  /// Returns true if the argument is written by the operator (`!`).
  bool isWrite() const { return Alias && Alias->IsWrite; }
  /// Returns true for a written keyword-only argument (an out= argument).
  bool isOut() const { return KwargOnly && isWrite(); }
  /// Returns the type text including the alias annotation.
  std::string typeString() const {
    return Type.toString(Alias ? &*Alias : nullptr);
  }
  /// Returns `type name[=default]`.
  std::string toString() const;
};

/// One return value of a schema (string fields as for SchemaArgument).
struct SchemaReturn {
  /// The return's name, empty when unnamed.
  llvm::StringRef Name;
  SchemaType Type;
  std::optional<AliasInfo> Alias;

  /// Returns true if the return aliases a written input (`Tensor(a!)`).
  bool isWrite() const { return Alias && Alias->IsWrite; }
  /// Returns the type text including the alias annotation.
  std::string typeString() const {
    return Type.toString(Alias ? &*Alias : nullptr);
  }
  /// Returns `type[ name]`.
  std::string toString() const;
};

namespace detail {
class OperatorSchemaParser;
} // namespace detail

/// A parsed operator schema. It is created by parseOperatorSchema and keeps
/// its source text alive (shared between copies, so copies are cheap); the
/// string fields of its arguments and returns are views into that text.
class OperatorSchema {
public:
  /// Creates an empty schema (no name, no arguments).
  OperatorSchema() = default;

  /// Returns the namespace ("aten"), empty if the schema was unqualified.
  llvm::StringRef getNamespace() const { return Namespace; }
  /// Returns the operator name without overload ("add", "add_").
  llvm::StringRef getName() const { return Name; }
  /// Returns the overload name, "default" when the schema names none.
  llvm::StringRef getOverloadName() const {
    return OverloadName.empty() ? llvm::StringRef("default") : OverloadName;
  }
  /// Returns true if the schema text named an overload.
  bool hasExplicitOverload() const { return !OverloadName.empty(); }
  /// Returns `ns::name.overload` (always with an overload, e.g.
  /// "aten::relu.default"); the namespace part is omitted when empty.
  std::string getQualifiedName() const;
  /// Returns the serialized target form `torch.ops.ns.name.overload`.
  std::string getTargetName() const;

  llvm::ArrayRef<SchemaArgument> arguments() const { return Arguments; }
  llvm::ArrayRef<SchemaReturn> returns() const { return Returns; }

  /// Returns the argument called \p ArgName, or null.
  const SchemaArgument *findArgument(llvm::StringRef ArgName) const;
  /// Returns the position of the argument called \p ArgName.
  std::optional<size_t> findArgumentIndex(llvm::StringRef ArgName) const;

  /// Returns true if any argument is written (`!` annotation).
  bool isMutable() const;
  /// Returns true for an in-place operator: its name ends in `_` (`add_`),
  /// or it is an augmented-assignment dunder (`__iadd__`).
  bool isInplace() const;
  /// Returns true if the schema has out= arguments (written keyword-only).
  bool isOutVariant() const;

  OperatorTagSet getTags() const { return Tags; }
  void setTags(OperatorTagSet NewTags) { Tags = NewTags; }
  bool hasTag(OperatorTag Tag) const { return Tags.contains(Tag); }
  /// Returns true if the schema has the tag spelled \p TagName in tags.yaml;
  /// false for unknown names.
  bool hasTag(llvm::StringRef TagName) const;

  /// Returns the schema text; with \p IncludeNamespace and a non-empty
  /// namespace it is qualified (`aten::add.Tensor(...) -> Tensor`).
  std::string toString(bool IncludeNamespace = true) const;

private:
  friend class detail::OperatorSchemaParser;

  /// Owns the text the views point into; null when parsed from static text.
  std::shared_ptr<const std::string> OwnedText;
  std::string Namespace;
  llvm::StringRef Name;
  llvm::StringRef OverloadName;
  std::vector<SchemaArgument> Arguments;
  std::vector<SchemaReturn> Returns;
  OperatorTagSet Tags;
};

/// Parses a schema string. The text may be qualified (`aten::add.Tensor(...)
/// -> Tensor`, `mylib::custom_relu(Tensor x) -> Tensor`) or unqualified, in
/// which case \p DefaultNamespace (possibly empty) becomes its namespace. A
/// qualified text whose namespace differs from a non-empty \p
/// DefaultNamespace is an error. An explicit `.default` overload is the same
/// as none. Errors name the 1-based column and what was expected there. The
/// schema keeps its own copy of \p Text.
llvm::Expected<OperatorSchema>
parseOperatorSchema(llvm::StringRef Text,
                    llvm::StringRef DefaultNamespace = "");

/// Like parseOperatorSchema, but without copying: \p StaticText must outlive
/// the schema and all its copies (a string literal, for example).
llvm::Expected<OperatorSchema>
parseStaticOperatorSchema(llvm::StringRef StaticText,
                          llvm::StringRef DefaultNamespace = "");

/// Returns true if \p Word is a Python 3 keyword (`from`, `lambda`, `None`,
/// ...); soft keywords such as `match` and `type` are not keywords.
bool isPythonKeyword(llvm::StringRef Word);

} // namespace pt2ir

#endif // PT2IR_IR_OPERATORSCHEMA_H
