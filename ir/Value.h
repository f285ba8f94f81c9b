//===- Value.h - SSA values and their uses ------------------------*- C++ -*-===//
//
// A Value is defined exactly once: by a graph input or by a node output. It
// records every Use that reads it in an intrusive list, so replace-all-uses
// and user queries are cheap. A Use is one value slot inside an Argument; in
// output position the same slot is the value's definition.
//
// Values also carry the per-graph metadata tables of the schema
// (tensor_values, sym_*_values, custom_obj_values).
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_IR_VALUE_H
#define PT2IR_IR_VALUE_H

#include "pt2ir/ir/TensorMeta.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/iterator_range.h"
#include <iterator>
#include <memory>

namespace pt2ir {

class Graph;
class Node;
class Value;
class IRContext;
class Use;
Use *detachedUseImpl(IRContext &ctx, llvm::StringRef name);

/// What kind of value a name denotes, from the Argument member that defines it.
enum class ValueType : uint8_t { Tensor, SymInt, SymBool, SymFloat, CustomObj };

llvm::StringRef valueTypeName(ValueType t);

/// The role of a value slot inside an Argument.
enum class UseRole : uint8_t {
  /// Names a value without taking part in def-use (signature, module call graph).
  Detached,
  /// Reads a value: linked into the value's use list.
  Operand,
  /// Defines a value (node outputs and graph inputs).
  Definition,
};

/// One value slot of an Argument.
class Use {
public:
  /// The value this slot refers to, or null while unresolved.
  Value *get() const { return value; }
  /// The name as written: the value's name when resolved.
  llvm::StringRef getName() const;
  UseRole getRole() const { return role; }
  /// The node whose input this is; null for graph outputs and detached slots.
  Node *getUser() const { return user; }
  /// The graph whose output list holds this slot, if any.
  Graph *getOutputOwner() const { return outputOwner; }
  /// Points an Operand slot at another value, relinking use lists.
  void set(Value *v);
  /// Renames a Detached slot (the signature's and module call graph's
  /// mentions of a value); other slots take their value's name.
  void setDetachedName(llvm::StringRef newName);
  Use *getNext() const { return next; }
  /// Whether the context holds unknown JSON keys for this slot.
  bool hasExtraFields() const { return hasExtras; }

private:
  friend class Value;
  friend class Argument;
  friend class Graph;
  friend class Node;
  friend class IRContext;
  friend Use *detachedUseImpl(IRContext &, llvm::StringRef);

  void unlink();

  Value *value = nullptr;
  llvm::StringRef name;
  Node *user = nullptr;
  Graph *outputOwner = nullptr;
  Use *next = nullptr;
  Use **prev = nullptr;
  UseRole role = UseRole::Detached;
  /// The context holds unknown JSON keys for this slot (IRContext::getUseExtras).
  bool hasExtras = false;
};

/// Where a value is defined.
enum class ValueOrigin : uint8_t {
  GraphInput,
  NodeOutput,
  /// A metadata table entry whose name no input or node defines.
  TableOnly,
};

/// The schema's metadata for one value, one slot per value table.
struct ValueMeta {
  std::unique_ptr<TensorMeta> tensor;
  std::unique_ptr<SymValue> symInt;
  std::unique_ptr<SymValue> symBool;
  std::unique_ptr<SymValue> symFloat;
  /// custom_obj_values entry: {name, class_fqn}.
  bool hasCustomObj = false;
  llvm::StringRef customObjName;
  llvm::StringRef customObjClass;
  ExtraFields customObjExtras;
};

/// An SSA value.
class Value {
public:
  llvm::StringRef getName() const { return name; }
  ValueType getType() const { return type; }
  ValueOrigin getOrigin() const { return origin; }
  bool isGraphInput() const { return origin == ValueOrigin::GraphInput; }
  /// The node whose output defines this value; null for graph inputs.
  Node *getDefiningNode() const { return definingNode; }
  Graph *getGraph() const { return graph; }
  /// False once its definition was erased.
  bool isLive() const { return live; }

  /// Iteration over the uses that read this value.
  class use_iterator {
  public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Use *;
    using difference_type = std::ptrdiff_t;
    using pointer = Use **;
    using reference = Use *;
    explicit use_iterator(Use *u = nullptr) : cur(u) {}
    Use *operator*() const { return cur; }
    use_iterator &operator++() {
      cur = cur->getNext();
      return *this;
    }
    use_iterator operator++(int) {
      use_iterator old = *this;
      cur = cur->getNext();
      return old;
    }
    bool operator==(const use_iterator &o) const { return cur == o.cur; }
    bool operator!=(const use_iterator &o) const { return cur != o.cur; }

  private:
    Use *cur;
  };
  llvm::iterator_range<use_iterator> uses() const {
    return {use_iterator(firstUse), use_iterator()};
  }
  bool useEmpty() const { return firstUse == nullptr; }
  bool hasOneUse() const { return firstUse && !firstUse->getNext(); }
  unsigned getNumUses() const;
  /// Makes every use of this value read `replacement` instead.
  void replaceAllUsesWith(Value *replacement);

  /// Metadata tables. Null when the value has no entry in that table.
  const TensorMeta *getTensorMeta() const { return meta ? meta->tensor.get() : nullptr; }
  TensorMeta *getTensorMeta() { return meta ? meta->tensor.get() : nullptr; }
  const SymValue *getSymIntMeta() const { return meta ? meta->symInt.get() : nullptr; }
  const SymValue *getSymBoolMeta() const { return meta ? meta->symBool.get() : nullptr; }
  const SymValue *getSymFloatMeta() const { return meta ? meta->symFloat.get() : nullptr; }
  /// The sym table entry matching this value's type, if any.
  const SymValue *getSymMeta() const;
  const ValueMeta *getMeta() const { return meta.get(); }
  ValueMeta &getOrCreateMeta() {
    if (!meta)
      meta = std::make_unique<ValueMeta>();
    return *meta;
  }
  void setTensorMeta(TensorMeta m);
  void setSymMeta(SymValue m);

private:
  friend class Graph;
  friend class Use;
  Value(llvm::StringRef n, ValueType t, ValueOrigin o, Graph *g)
      : name(n), type(t), origin(o), graph(g) {}

  llvm::StringRef name;
  ValueType type;
  ValueOrigin origin;
  bool live = true;
  /// Position among the graph's definitions, maintained lazily for ordering.
  Graph *graph;
  Node *definingNode = nullptr;
  Use *firstUse = nullptr;
  std::unique_ptr<ValueMeta> meta;
};

} // namespace pt2ir

#endif
