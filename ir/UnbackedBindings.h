//===- UnbackedBindings.h - Where each unbacked symbol is bound ---*- C++
//-*-===//
//
// An unbacked symbol (`u0`, `zuf3`) is a data-dependent size or scalar: the
// program only learns its value when some node runs (`item`, `nonzero`, a
// custom op with a data-dependent output shape). Upstream records, per FX
// node, the key path that extracts each symbol the node introduces from the
// node's value (`node.meta["unbacked_bindings"]`). The schema does not store
// these bindings; loaders recompute them. This file does the same:
//
//   - a graph's *pending* set is every unbacked symbol that occurs in the
//     metadata of a value the graph defines (graph inputs and node outputs);
//   - graph inputs, then nodes, are visited in order; each value is matched
//     against the rules below and the first match of a symbol wins;
//   - a symbol left pending, or mentioned by a value before the input or
//     node that binds it, is an error naming the symbol and the node;
//   - every subgraph (as_graph argument) has its own pending set.
//
// Matching rules, in order: sequences element by element (`[i]`); tensors by
// sizes (`.size()[i]`), strides (`.stride()[i]`, skipped for compressed
// sparse layouts) and storage offset (`.storage_offset()`); a SymInt/SymFloat
// that is a bare pending symbol binds it where it stands; a SymInt
// `Mul(k, u)` with exactly one pending symbol and an integer or backed-symbol
// coefficient binds `u` through `.__floordiv__(k)`; a SymBool `Eq(u, 1)`
// binds `u` through `.cast_symbool_to_symint_guardless()`.
//
// Deliberately NOT here: simplification (expressions are matched as written),
// hints, and placing runtime asserts (passes/InsertRuntimeAsserts.cpp).
// This header only forward-declares the IR so that ir/Node.h can include it.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_IR_UNBACKEDBINDINGS_H
#define PT2IR_IR_UNBACKEDBINDINGS_H

#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace pt2ir {

class Argument;
class ExportedProgram;
class Graph;
class Node;
class Value;

/// One step of a binding path; each prints as upstream's pytree key does.
struct BindingKey {
  enum class Kind : uint8_t {
    /// `[i]`: element i of a sequence (a node's outputs, a Tensor[]).
    Index,
    /// `.size()`; followed by an Index key for the dimension.
    Size,
    /// `.stride()`; followed by an Index key for the dimension.
    Stride,
    /// `.storage_offset()`.
    StorageOffset,
    /// `.__floordiv__(d)`: d is `divisor`, or the backed symbol
    /// `divisorSymbol` when that is not empty.
    DivideBy,
    /// `.cast_symbool_to_symint_guardless()`: a SymBool `Eq(u, 1)` as 0/1.
    ConvertInt,
  };

  Kind kind = Kind::Index;
  /// Index: the element; DivideBy: the integer divisor.
  int64_t value = 0;
  /// DivideBy: a backed symbol used as the divisor, else empty.
  std::string divisorSymbol;

  static BindingKey index(int64_t i) { return {Kind::Index, i, {}}; }
  static BindingKey size() { return {Kind::Size, 0, {}}; }
  static BindingKey stride() { return {Kind::Stride, 0, {}}; }
  static BindingKey storageOffset() { return {Kind::StorageOffset, 0, {}}; }
  static BindingKey divideBy(int64_t d) { return {Kind::DivideBy, d, {}}; }
  static BindingKey divideBySymbol(std::string s) {
    return {Kind::DivideBy, 0, std::move(s)};
  }
  static BindingKey convertInt() { return {Kind::ConvertInt, 0, {}}; }

  bool operator==(const BindingKey &o) const {
    return kind == o.kind && value == o.value &&
           divisorSymbol == o.divisorSymbol;
  }
  bool operator!=(const BindingKey &o) const { return !(*this == o); }
};

/// The keys leading from a value to a symbol; empty means the value itself.
using BindingPath = std::vector<BindingKey>;

/// Prints a path as upstream does: `[1].size()[0]`, `.__floordiv__(4)`; the
/// empty path prints as nothing.
std::string bindingPathToString(const BindingPath &path);

/// An unbacked symbol and the path that extracts it.
struct SymbolBinding {
  std::string symbol;
  BindingPath path;

  bool operator==(const SymbolBinding &o) const {
    return symbol == o.symbol && path == o.path;
  }
  bool operator!=(const SymbolBinding &o) const { return !(*this == o); }
};

/// A binding made by graph input `inputIndex` (a placeholder, upstream).
struct InputBinding {
  unsigned inputIndex = 0;
  SymbolBinding binding;

  bool operator==(const InputBinding &o) const {
    return inputIndex == o.inputIndex && binding == o.binding;
  }
  bool operator!=(const InputBinding &o) const { return !(*this == o); }
};

/// True when a node's value is the tuple of its outputs, so binding paths
/// start with `[i]`: several outputs, or a higher-order op whose
/// `is_hop_single_tensor_return` is not true.
bool hasTupleValue(const Node &node);

/// Where a binding path leads inside the values a node or graph input
/// defines: the value reached by following the leading `[i]` keys, and how
/// many keys that consumed. `value` is null when the keys lead nowhere (an
/// index out of range, a None element, a constant).
struct BindingStart {
  Value *value = nullptr;
  size_t consumed = 0;
};
BindingStart followSequenceKeys(const Node &node, const BindingPath &path);
BindingStart followSequenceKeys(const Argument &graphInput,
                                const BindingPath &path);

/// Recomputes the bindings of `g` and of every subgraph nested in it and
/// stores them in the IR (Graph::getInputBindings, Node::getUnbackedBindings),
/// replacing what was there. Returns an error naming the symbol and the node
/// when an unbacked symbol is never bound or is used before its binding; an
/// expression that does not parse is an error naming the value. On error the
/// stored bindings of the graph that failed are cleared.
///
/// If `changed` is given, it is set to true when any stored binding differs
/// from before.
llvm::Error recomputeUnbackedBindings(Graph &g, bool *changed = nullptr);

/// The same for the program's top-level graph (and so all its subgraphs).
llvm::Error recomputeUnbackedBindings(ExportedProgram &ep,
                                      bool *changed = nullptr);

} // namespace pt2ir

#endif // PT2IR_IR_UNBACKEDBINDINGS_H
