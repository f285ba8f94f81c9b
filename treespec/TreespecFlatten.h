//===- TreespecFlatten.h - Flatten a minimal pytree model -------*- C++ -*-===//
//
// PyTreeValue is a small stand-in for the Python values a treespec describes:
// leaves (named by an id), None, tuples, lists, string-keyed dicts,
// namedtuples and dataclasses. flattenPyTree and unflattenPyTree follow
// `torch.utils._pytree.tree_flatten`/`tree_unflatten`, so C++ code can build
// the spec a Python caller would produce and map flat values back to
// structure.
//
// Deliberately not modelled: Python objects themselves, non-string dict keys,
// and custom node types without a PyTreeValue counterpart (unflattening those
// is an error). OrderedDict, defaultdict and immutable_dict unflatten to a
// dict; deque and immutable_list to a list.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_TREESPEC_TREESPECFLATTEN_H
#define PT2IR_TREESPEC_TREESPECFLATTEN_H

#include "pt2ir/treespec/Treespec.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <utility>
#include <vector>

namespace pt2ir {

/// A minimal pytree value.
class PyTreeValue {
public:
  enum class Kind { None, Leaf, Tuple, List, Dict, Namedtuple, Dataclass };

  /// Creates None.
  PyTreeValue() = default;

  static PyTreeValue none() { return PyTreeValue(); }
  /// A leaf identified by `id` (a tensor name, a constant spelled out, ...).
  static PyTreeValue leaf(std::string id);
  static PyTreeValue tuple(std::vector<PyTreeValue> elements);
  static PyTreeValue list(std::vector<PyTreeValue> elements);
  /// A dict; entries keep their order, as Python dicts do.
  static PyTreeValue
  dict(std::vector<std::pair<std::string, PyTreeValue>> entries);
  /// An instance of the namedtuple class registered as `typeName`.
  static PyTreeValue
  namedtuple(std::string typeName,
             std::vector<std::pair<std::string, PyTreeValue>> fields);
  /// An instance of the dataclass registered as `typeName`; None-valued
  /// fields are given as PyTreeValue::none().
  static PyTreeValue
  dataclass(std::string typeName,
            std::vector<std::pair<std::string, PyTreeValue>> fields);

  Kind getKind() const { return kind; }
  bool isNone() const { return kind == Kind::None; }
  bool isLeaf() const { return kind == Kind::Leaf; }

  /// The leaf id, or the class name of a namedtuple/dataclass.
  llvm::StringRef getName() const { return name; }

  /// Dict keys or namedtuple/dataclass field names, paired with elements.
  llvm::ArrayRef<std::string> getKeys() const { return keys; }

  /// Child values (tuple/list elements, dict values, field values).
  llvm::ArrayRef<PyTreeValue> getElements() const { return elements; }

  /// The value of key/field `key`, or null.
  const PyTreeValue *lookup(llvm::StringRef key) const;

  /// A Python-like rendering: `(x, [y], {'k': z}, mod.P(a=x), None)`.
  std::string repr() const;

  bool operator==(const PyTreeValue &other) const;
  bool operator!=(const PyTreeValue &other) const { return !(*this == other); }

private:
  static PyTreeValue
  keyed(Kind kind, std::string name,
        std::vector<std::pair<std::string, PyTreeValue>> entries);

  Kind kind = Kind::None;
  std::string name;
  std::vector<std::string> keys;
  std::vector<PyTreeValue> elements;
};

/// The result of flattening: the leaves in order and the structure.
struct FlattenedPyTree {
  /// Leaf and None values (None is a pytree leaf) in depth-first order.
  std::vector<PyTreeValue> Leaves;
  TreeSpec Spec;
};

/// Flattens `value` as `tree_flatten` does. Namedtuple and dataclass classes
/// must be registered in `registry` and the value's fields must match the
/// registered ones. Nesting deeper than MaxTreespecDepth is an error.
llvm::Expected<FlattenedPyTree>
flattenPyTree(const PyTreeValue &value, const TreespecTypeRegistry &registry);

/// Rebuilds a value from `leaves` and `spec`, as `tree_unflatten` does. The
/// leaf count must equal `spec.getNumLeaves()`.
llvm::Expected<PyTreeValue>
unflattenPyTree(llvm::ArrayRef<PyTreeValue> leaves, const TreeSpec &spec,
                const TreespecTypeRegistry &registry);

} // namespace pt2ir

#endif
