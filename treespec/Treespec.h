//===- Treespec.h - Pytree treespecs (protocol 1) ---------------*- C++ -*-===//
//
// A treespec describes the shape of a Python pytree: a tree whose interior
// nodes are containers (tuple, list, dict, namedtuple, dataclass, ...) and
// whose leaves are the flat values. torch.export stores the call signature of
// a module as two treespec strings (`ModuleCallSignature.in_spec`/`out_spec`)
// written by `torch.utils._pytree.treespec_dumps`:
//
//   json.dumps([1, node]),  node = {"type": <serialized type name or null>,
//                                   "context": <context>,
//                                   "children_spec": [node, ...]}
//
// A leaf is {"type": null, "context": null, "children_spec": []}. This file
// holds the in-memory TreeSpec, the parser and the dumper; dumping a parsed
// spec reproduces the input byte for byte. Node types and their context
// rules come from a TreespecTypeRegistry (TreespecRegistry.h).
//
// Besides the strict parser (parseTreespec), parseTreespecAllowingUnregistered
// reads specs that name node types or namedtuple classes the registry does
// not know, reporting those names instead of failing, so that a checker
// (the verifier) can still check the rest of the spec and count its leaves.
//
// It does not flatten or unflatten values (TreespecFlatten.h) and does not
// handle the namedtuple side table (TreespecNamedtuple.h).
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_TREESPEC_TREESPEC_H
#define PT2IR_TREESPEC_TREESPEC_H

#include "pt2ir/treespec/TreespecRegistry.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace pt2ir {

/// The only treespec serialization protocol torch has defined.
constexpr int TreespecProtocol = 1;

/// Deepest tree of nodes a treespec may describe (the root is level 1).
/// Python's own loader recurses once per level and gives up near 1000.
constexpr unsigned MaxTreespecDepth = 512;

/// Deepest JSON nesting allowed inside one node context.
constexpr unsigned MaxTreespecContextDepth = 64;

/// Deepest JSON nesting allowed in a whole treespec string: two levels per
/// tree level (node object and `children_spec` array), the outer
/// `[protocol, node]` array, and one context.
constexpr unsigned MaxTreespecJsonDepth =
    2 * MaxTreespecDepth + MaxTreespecContextDepth + 2;

/// One node of a pytree structure. Immutable once built; sizes and depth are
/// computed at construction, so queries never walk the tree.
class TreeSpec {
public:
  /// Creates a leaf.
  TreeSpec() = default;

  /// Creates an interior node of type `typeName` (non-empty). `contextJson`
  /// is the context as the spec holds it, as JSON text: for a node type
  /// without a codec that is exactly the `json.dumps(context)` string written
  /// on disk (for example `null` or `["a", "b"]`); for a type with a codec it
  /// is whatever the codec's FromJson returns (the built-in codecs keep the
  /// embedded JSON value's json.dumps text).
  TreeSpec(std::string typeName, std::string contextJson,
           std::vector<TreeSpec> children);

  /// Returns a leaf.
  static TreeSpec leaf() { return TreeSpec(); }

  /// True for a leaf (a node with no type).
  bool isLeaf() const { return typeName.empty(); }

  /// The serialized type name; empty for a leaf.
  llvm::StringRef getTypeName() const { return typeName; }

  /// The held context as JSON text; empty for a leaf. (A node of a type
  /// the registry did not know, read by parseTreespecAllowingUnregistered,
  /// holds its context as found, which need not be JSON text.)
  llvm::StringRef getContextJson() const { return contextJson; }

  llvm::ArrayRef<TreeSpec> getChildren() const { return children; }
  size_t getNumChildren() const { return children.size(); }

  /// Number of leaves in the subtree (1 for a leaf).
  size_t getNumLeaves() const { return numLeaves; }

  /// Number of nodes in the subtree, leaves included.
  size_t getNumNodes() const { return numNodes; }

  /// Levels in the subtree: 1 for a leaf or a node without children.
  size_t getDepth() const { return depth; }

  /// Structural equality: same types, identical context text, equal children.
  bool operator==(const TreeSpec &other) const;
  bool operator!=(const TreeSpec &other) const { return !(*this == other); }

private:
  std::string typeName;
  std::string contextJson;
  std::vector<TreeSpec> children;
  size_t numLeaves = 1;
  size_t numNodes = 1;
  size_t depth = 1;
};

/// Parses a `treespec_dumps` string. Errors name the offending place, for
/// example "treespec: children_spec[1].context: ...". Unknown type names,
/// other protocols, malformed nodes, contexts that do not fit their node and
/// nesting deeper than MaxTreespecDepth are rejected.
llvm::Expected<TreeSpec> parseTreespec(llvm::StringRef text,
                                       const TreespecTypeRegistry &registry);

/// A node type or namedtuple class that a spec names and a registry does not
/// know.
struct UnregisteredTreespecName {
  /// The serialized type name or namedtuple class name.
  std::string Name;
  /// True for a class named by the context of a namedtuple node; false for a
  /// node's type (a custom node type, a dataclass, or a namedtuple class used
  /// as a node type).
  bool IsNamedtupleClass = false;
  /// Where the spec names it, in the style of parse errors:
  /// `children_spec[1].type`, `children_spec[0].context`, `root type`, ...
  std::string Path;
};

/// A spec read by parseTreespecAllowingUnregistered.
struct LenientTreespec {
  TreeSpec Spec;
  /// Every unregistered name once, where it first occurs (depth first).
  std::vector<UnregisteredTreespecName> Unregistered;
};

/// Parses like parseTreespec, except that a node type or namedtuple class
/// `registry` does not know is recorded rather than an error. The context of
/// a node of an unknown type is kept as found (a string verbatim, an
/// embedded value as its json.dumps text) and not checked, since only the
/// type knows its rules; everything else is checked as parseTreespec does,
/// the unknown node's children included. A spec with unregistered names
/// cannot be dumped with `registry`.
llvm::Expected<LenientTreespec>
parseTreespecAllowingUnregistered(llvm::StringRef text,
                                  const TreespecTypeRegistry &registry);

/// Writes `spec` exactly as Python's `treespec_dumps` does (protocol 1).
/// Fails on a node type the registry does not know, on a context that does
/// not fit its node, and on trees deeper than MaxTreespecDepth.
llvm::Expected<std::string> dumpTreespec(const TreeSpec &spec,
                                         const TreespecTypeRegistry &registry);

/// Returns `json.dumps(keys)` for a list of string keys: `["a", "b"]`.
std::string treespecKeyListJson(llvm::ArrayRef<std::string> keys);

/// Builds a `builtins.tuple` node.
TreeSpec makeTupleSpec(std::vector<TreeSpec> children);

/// Builds a `builtins.list` node.
TreeSpec makeListSpec(std::vector<TreeSpec> children);

/// Builds a `builtins.dict` node; `keys` and `children` pair up by position
/// (a count mismatch is reported when the spec is dumped).
TreeSpec makeDictSpec(llvm::ArrayRef<std::string> keys,
                      std::vector<TreeSpec> children);

/// Builds a `collections.namedtuple` node for the namedtuple class
/// registered as `className`.
TreeSpec makeNamedtupleSpec(llvm::StringRef className,
                            std::vector<TreeSpec> children);

/// Builds the `in_spec` layout of a call: `((arg0, ...), {kw0: ..., ...})`.
TreeSpec makeCallSpec(std::vector<TreeSpec> args,
                      llvm::ArrayRef<std::string> kwargNames,
                      std::vector<TreeSpec> kwargs);

} // namespace pt2ir

#endif
