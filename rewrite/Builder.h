//===- Builder.h - Create nodes the way torch would --------------*- C++ -*-===//
//
// The Builder is how a pass adds nodes, like MLIR's OpBuilder: it has an
// insertion point the pass sets once (before or after a node, or at the end
// of a graph) and creates calls from a target and operands:
//
//   Builder b(ep.getGraph());
//   b.setInsertionPointAfter(relu);
//   b.setProvenance({addmm, relu}, "my-fuse-pass");
//   auto fused = b.create("mybackend::linear_relu", {input, weight, bias},
//                         {}, NodeOptions::like(reluValue));
//
// From the operator's registered schema (the graph's Registry) it takes the
// argument names and whether each argument is passed positionally or by
// keyword (as torch's serializer decides: keyword-only arguments by keyword,
// the others by position; defaulted arguments not given are left out), and
// the outputs: one value per return, named uniquely in the graph after the
// node (`linear_relu`, `linear_relu_1`). Operands are values (by pointer,
// not by name), constants and lists; each becomes the Argument member torch
// would write for it.
//
// Output metadata is given, copied from another value, or, failing both,
// inferred: by default with the shape and dtype rules of infer/ (the same
// ones the verifier's meta-mismatch rule and the infer-meta pass use; see
// setMetaInference to replace them). A tensor output left without metadata
// is an error, since every tensor of a program has an entry in
// tensor_values.
// Provenance metadata (stack_trace, nn_module_stack, source_fn_stack,
// torch_fn, custom and a `from_node` record) is carried from the nodes a
// rewrite replaces.
//
// This file does not erase or replace nodes: use Graph::eraseNode and
// ExportedProgram::replaceAllUsesWith, which keeps the signature in step.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_REWRITE_BUILDER_H
#define PT2IR_REWRITE_BUILDER_H

#include "pt2ir/ir/Enums.h"
#include "pt2ir/ir/Graph.h"
#include "pt2ir/ir/TensorMeta.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pt2ir {

class OperatorSchema;
struct SchemaType;

/// One operand of Builder::create: a value, a constant, None, or a list.
class BuilderArg {
public:
  enum class Kind : uint8_t {
    None, Value, Int, Float, Bool, String, ScalarType, MemoryFormat, Layout, Device, List
  };

  BuilderArg(std::nullopt_t) {}
  BuilderArg(const Value *v) : kind(v ? Kind::Value : Kind::None), value(v) {}
  BuilderArg(int v) : kind(Kind::Int), intValue(v) {}
  BuilderArg(int64_t v) : kind(Kind::Int), intValue(v) {}
  BuilderArg(double v) : kind(Kind::Float), floatValue(v) {}
  BuilderArg(bool v) : kind(Kind::Bool), boolValue(v) {}
  BuilderArg(const char *s) : kind(Kind::String), text(s) {}
  BuilderArg(llvm::StringRef s) : kind(Kind::String), text(s.str()) {}
  BuilderArg(ScalarType t) : kind(Kind::ScalarType), intValue(int64_t(t)) {}
  BuilderArg(MemoryFormat f) : kind(Kind::MemoryFormat), intValue(int64_t(f)) {}
  BuilderArg(Layout l) : kind(Kind::Layout), intValue(int64_t(l)) {}
  BuilderArg(Device d) : kind(Kind::Device), device(std::move(d)) {}
  /// A list of ints (`[2, -1]`).
  BuilderArg(std::initializer_list<int64_t> ints);
  BuilderArg(llvm::ArrayRef<int64_t> ints);
  /// A list of values (`[x, y]`, all tensors or all sym values).
  BuilderArg(llvm::ArrayRef<Value *> values);
  /// Any other list: ints mixed with SymInt values (`[s, 4]`), tensors mixed
  /// with None, lists of floats or bools.
  static BuilderArg list(std::vector<BuilderArg> elements);

  Kind getKind() const { return kind; }
  const Value *getValue() const { return value; }
  int64_t getInt() const { return intValue; }
  double getFloat() const { return floatValue; }
  bool getBool() const { return boolValue; }
  llvm::StringRef getString() const { return text; }
  const Device &getDevice() const { return device; }
  llvm::ArrayRef<BuilderArg> getElements() const { return elements; }

private:
  BuilderArg() = default;

  Kind kind = Kind::None;
  const Value *value = nullptr;
  int64_t intValue = 0;
  double floatValue = 0;
  bool boolValue = false;
  std::string text;
  Device device;
  std::vector<BuilderArg> elements;
};

/// A keyword operand: `{"alpha", 2}`.
using BuilderKwarg = std::pair<llvm::StringRef, BuilderArg>;

/// How Builder::create names and types a node's outputs.
struct NodeOptions {
  /// What to name the node and its outputs after (made unique in the
  /// graph); empty: the operator's name (`relu` for aten::relu.default).
  std::string name;
  /// Metadata per tensor output, in output order; an entry without a value
  /// (or a missing entry) is copied from `metaLike` or inferred.
  std::vector<std::optional<TensorMeta>> outputMeta;
  /// A value whose tensor metadata the tensor outputs copy.
  const Value *metaLike = nullptr;
  /// The number of values a `Tensor[]` return yields (split, unbind).
  std::optional<unsigned> listOutputs;

  /// Options that copy the outputs' metadata from `v`.
  static NodeOptions like(const Value *v) {
    NodeOptions o;
    o.metaLike = v;
    return o;
  }
};

/// Fills the metadata a new node's outputs lack, from its inputs; succeeds
/// without change for an operator it has no rule for.
using MetaInferenceFn = std::function<llvm::Error(Node &)>;

/// Creates nodes at an insertion point; see the file comment.
class Builder {
public:
  /// A builder that appends to the end of `graph`.
  explicit Builder(Graph &graph);

  void setInsertionPointBefore(Node *node);
  void setInsertionPointAfter(Node *node);
  void setInsertionPointToEnd(Graph &graph);
  Graph &getGraph() const { return *graph; }

  /// New nodes carry the provenance of `replaced`: the first node's
  /// stack_trace, nn_module_stack, source_fn_stack, torch_fn and custom
  /// metadata, and a `from_node` record naming every replaced node and
  /// `passName`. An empty list stops carrying provenance.
  void setProvenance(llvm::ArrayRef<const Node *> replaced, llvm::StringRef passName = "");

  /// Replaces how missing output metadata is inferred. The default is
  /// infer::fillMissingMeta (the rules of infer/Rules.def); an empty
  /// function turns inference off.
  void setMetaInference(MetaInferenceFn fn) { inferMeta = std::move(fn); }

  /// Creates a call of `target` before the insertion point. `target` is a
  /// serialized target (`torch.ops.aten.add.Tensor`, `#ns:op`) or a
  /// qualified operator name (`aten::add.Tensor`, `aten::relu` meaning its
  /// default overload, `mybackend::linear_relu`). `args` are the positional
  /// operands in schema order; `kwargs` name the others. Errors (an unknown
  /// operator, a missing or unknown argument, an operand that does not fit
  /// its schema type, missing metadata) leave the graph unchanged.
  llvm::Expected<Node *> create(llvm::StringRef target, llvm::ArrayRef<BuilderArg> args,
                                llvm::ArrayRef<BuilderKwarg> kwargs = {},
                                const NodeOptions &options = {});

  /// create() for an operator with exactly one output; returns that value.
  llvm::Expected<Value *> createValue(llvm::StringRef target, llvm::ArrayRef<BuilderArg> args,
                                      llvm::ArrayRef<BuilderKwarg> kwargs = {},
                                      const NodeOptions &options = {});

private:
  llvm::Expected<Argument> toArgument(const BuilderArg &arg, const SchemaType &type,
                                      llvm::StringRef argName) const;
  llvm::Expected<std::vector<Argument>> makeOutputs(const OperatorSchema &schema,
                                                    llvm::StringRef base,
                                                    const NodeOptions &options) const;
  llvm::Error setOutputMeta(Node &node, const NodeOptions &options) const;
  StringPairs provenanceMetadata() const;

  Graph *graph;
  Graph::iterator insertPoint;
  std::vector<const Node *> provenance;
  std::string provenancePass;
  MetaInferenceFn inferMeta;
};

/// The serialized target for a qualified operator name (`aten::relu` ->
/// `torch.ops.aten.relu.default`); serialized targets are returned as they
/// are.
std::string toSerializedTarget(llvm::StringRef target);

} // namespace pt2ir

#endif
