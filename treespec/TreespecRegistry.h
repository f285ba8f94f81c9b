//===- TreespecRegistry.h - Pytree node type registry -----------*- C++ -*-===//
//
// A treespec names each interior node by its *serialized type name*
// (`builtins.tuple`, `collections.OrderedDict`, `mymod.Point`, ...). The
// TreespecTypeRegistry says which names exist, how each stores its context on
// disk, and how to check that a context fits its node:
//
//  - Without a codec the context is `json.dumps(context)`, written as a JSON
//    string inside the treespec.
//  - With a codec (Python's `to_dumpable_context`/`from_dumpable_context`)
//    the codec's JSON value is embedded directly.
//
// A registry is an ordinary value (no global state): each one starts with
// the built-in node types, and callers add their own custom types,
// dataclasses and namedtuple classes to it. It is also a slot of the one
// Registry (ir/Registry.h): `registry.getOrCreate<TreespecTypeRegistry>()`
// is where a driver (`--treespec-types`), a library user or a pass plugin
// declares the types a program's treespecs name, and where the verifier
// finds them.
//
// Contexts cross this interface as JSON text, so that no RapidJSON type
// appears in it.
//
// This file does not parse or dump treespecs (Treespec.h) and does not
// flatten values (TreespecFlatten.h).
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_TREESPEC_TREESPECREGISTRY_H
#define PT2IR_TREESPEC_TREESPECREGISTRY_H

#include "pt2ir/ir/Registry.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace pt2ir {

class TreespecTypeRegistry;

/// Serialized type names of the node types every registry starts with.
namespace treespec_types {
inline constexpr llvm::StringLiteral Tuple = "builtins.tuple";
inline constexpr llvm::StringLiteral List = "builtins.list";
inline constexpr llvm::StringLiteral Dict = "builtins.dict";
inline constexpr llvm::StringLiteral OrderedDict = "collections.OrderedDict";
inline constexpr llvm::StringLiteral DefaultDict = "collections.defaultdict";
inline constexpr llvm::StringLiteral Deque = "collections.deque";
inline constexpr llvm::StringLiteral Namedtuple = "collections.namedtuple";
inline constexpr llvm::StringLiteral ImmutableList =
    "torch.fx.immutable_collections.immutable_list";
inline constexpr llvm::StringLiteral ImmutableDict =
    "torch.fx.immutable_collections.immutable_dict";
} // namespace treespec_types

/// getstate/setstate-style converters for a node type whose context is
/// embedded in the treespec as a plain JSON value. A TreeSpec always holds
/// its context as JSON text; the codec maps between that held text and the
/// value written on disk.
struct TreespecContextCodec {
  /// getstate: returns the JSON text to embed for the held context. The text
  /// is re-parsed and re-formatted with json.dumps rules before writing.
  std::function<llvm::Expected<std::string>(llvm::StringRef heldContext)>
      ToJson;
  /// setstate: gets the embedded value as JSON text (formatted as json.dumps
  /// writes it) and returns the context to hold (JSON text), or an error
  /// saying what shape was expected.
  std::function<llvm::Expected<std::string>(llvm::StringRef onDiskJson)>
      FromJson;
};

/// Checks that a context (the held JSON text, known to be valid JSON) fits a
/// node with `numChildren` children. Runs on load and on dump.
using TreespecContextValidator =
    std::function<llvm::Error(llvm::StringRef contextJson, size_t numChildren,
                              const TreespecTypeRegistry &registry)>;

/// One registered node type.
struct TreespecNodeType {
  /// Fully qualified serialized type name.
  std::string Name;
  /// Set when the context is embedded as a JSON value rather than a string.
  std::optional<TreespecContextCodec> Codec;
  /// Optional shape check of the context; empty accepts any JSON.
  TreespecContextValidator Validate;
};

/// A dataclass registered with `registerDataclass`.
struct TreespecDataclass {
  std::string Name;
  /// Field names in declaration order.
  std::vector<std::string> Fields;
  /// When true, None-valued fields stay children (as None leaves); when
  /// false they are dropped and listed in the context's `none_names`.
  bool ReturnNoneFields = false;
};

/// The pytree node types a treespec may name, with their context rules.
/// Copyable; also a RegistrySlot (see the file comment).
class TreespecTypeRegistry : public RegistrySlot {
public:
  /// Identifies the slot in a Registry.
  static char ID;

  /// Creates a registry holding the built-in node types: tuple, list, dict,
  /// OrderedDict, defaultdict, deque, namedtuple and torch.fx's
  /// immutable_list/immutable_dict.
  TreespecTypeRegistry();

  /// Registers a custom node type under a fully qualified serialized type
  /// name (`module.Name`). Without `codec` its context is stored as a
  /// json.dumps string. Fails if the name is malformed or already taken.
  llvm::Error registerType(llvm::StringRef serializedTypeName,
                           std::optional<TreespecContextCodec> codec = {},
                           TreespecContextValidator validate = {});

  /// Registers a dataclass as a node type whose context is
  /// `json.dumps([flat_names, none_names])` (the layout of
  /// `torch.utils._pytree.register_dataclass`). A context must list every
  /// field once, in one of the two lists. `returnNoneFields` keeps None
  /// fields as leaves instead of dropping them when flattening (then
  /// `none_names` must be empty).
  llvm::Error registerDataclass(llvm::StringRef serializedTypeName,
                                llvm::ArrayRef<std::string> fieldNames,
                                bool returnNoneFields = false);

  /// Registers a namedtuple class under its serialized type name with its
  /// field names. The name then works both as the context of a
  /// `collections.namedtuple` node and as a node type of its own. Registering
  /// the same name again with the same fields is a no-op; with different
  /// fields it is an error.
  llvm::Error registerNamedtuple(llvm::StringRef serializedTypeName,
                                 llvm::ArrayRef<std::string> fieldNames);

  /// Returns the node type registered under `name`, or null.
  const TreespecNodeType *lookupType(llvm::StringRef name) const;

  /// Returns the dataclass registered under `name`, or null.
  const TreespecDataclass *lookupDataclass(llvm::StringRef name) const;

  /// Returns the field names of the namedtuple class `name`, or null.
  const std::vector<std::string> *
  lookupNamedtupleFields(llvm::StringRef name) const;

  /// True for `collections.namedtuple` and registered namedtuple classes.
  bool isNamedtupleNodeType(llvm::StringRef name) const;

  /// All registered type names, sorted, comma separated (for messages).
  std::string describeTypes() const;

  /// All registered namedtuple class names, sorted, comma separated.
  std::string describeNamedtuples() const;

private:
  llvm::Error checkNewName(llvm::StringRef name) const;
  void addBuiltin(llvm::StringRef name, std::optional<TreespecContextCodec>,
                  TreespecContextValidator validate);

  llvm::StringMap<TreespecNodeType> types;
  llvm::StringMap<TreespecDataclass> dataclasses;
  llvm::StringMap<std::vector<std::string>> namedtuples;
};

} // namespace pt2ir

#endif
