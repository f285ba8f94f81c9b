//===- ExportedProgram.h - A whole serialized program -------------*- C++ -*-===//
//
// The schema's ExportedProgram and GraphModule: the top-level graph with its
// signature and module call graph, plus opset versions, range constraints,
// the schema version, verifier dialects, the torch version and guards code.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_IR_EXPORTEDPROGRAM_H
#define PT2IR_IR_EXPORTEDPROGRAM_H

#include "pt2ir/ir/Graph.h"
#include "pt2ir/ir/IRContext.h"
#include "pt2ir/ir/Registry.h"
#include "pt2ir/ir/Signature.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pt2ir {

/// The schema version this build writes.
constexpr int64_t SchemaMajor = 8;
constexpr int64_t SchemaMinor = 19;

struct RangeConstraint {
  /// Null ends are unbounded.
  std::optional<int64_t> minVal;
  std::optional<int64_t> maxVal;
  ExtraFields extras;
};

struct SchemaVersion {
  int64_t major = SchemaMajor;
  int64_t minor = SchemaMinor;
  ExtraFields extras;
};

struct GraphModule {
  std::unique_ptr<Graph> graph;
  GraphSignature signature;
  std::vector<ModuleCallEntry> moduleCallGraph;
  StringPairs metadata;
  std::vector<std::pair<llvm::StringRef, NamedTupleDef>> treespecNamedtupleFields;
  ExtraFields extras;
};

class ExportedProgram {
  // Declared first so it is destroyed last: the members below hold uses
  // allocated in this context.
  std::shared_ptr<IRContext> ctx;

public:
  /// An empty program that uses `registry` (null: Registry::getDefault()).
  explicit ExportedProgram(std::shared_ptr<const Registry> registry = nullptr);
  explicit ExportedProgram(std::shared_ptr<IRContext> ctx);
  ExportedProgram(ExportedProgram &&) = default;
  ExportedProgram &operator=(ExportedProgram &&) = default;

  IRContext &getContext() const { return *ctx; }
  /// The registry this program was read or built with (see ir/Registry.h).
  const Registry &getRegistry() const { return ctx->getRegistry(); }
  const std::shared_ptr<const Registry> &getRegistryPtr() const {
    return ctx->getRegistryPtr();
  }
  llvm::StringRef intern(llvm::StringRef s) const { return ctx->intern(s); }

  Graph &getGraph() { return *graphModule.graph; }
  const Graph &getGraph() const { return *graphModule.graph; }

  GraphModule graphModule;
  std::vector<std::pair<llvm::StringRef, int64_t>> opsetVersion;
  std::vector<std::pair<llvm::StringRef, RangeConstraint>> rangeConstraints;
  SchemaVersion schemaVersion;
  std::vector<llvm::StringRef> verifiers;
  std::string torchVersion = "<=2.4";
  std::vector<std::string> guardsCode;
  ExtraFields extras;

  //===--- Program-aware rewiring (ir/ValueRewiring.cpp) ---===//
  // The signature and the module call graph name top-level values by name.
  // Value::replaceAllUsesWith and Graph::renameValue change only the graph;
  // these keep the names outside it in step, so a pass that replaces or
  // renames a graph output needs no hand patching of output_specs.

  /// Makes every use of `from` read `to` (node operands, graph outputs), and
  /// every output spec and module-call-graph entry that names `from` as a
  /// result name `to`. Mentions of `from` as a graph input (input specs, the
  /// root call's inputs) stay: the input still exists. Both values must be
  /// of one graph and of one type.
  llvm::Error replaceAllUsesWith(Value *from, Value *to);
  /// Renames `v` and every mention of it: its uses, the signature (specs
  /// and `user_input_name` targets), the module call graph, and the stored
  /// name of the node defining it when that name was the value's.
  llvm::Error renameValue(Value *v, llvm::StringRef newName);

  /// Finds a range constraint by symbol name.
  const RangeConstraint *findRangeConstraint(llvm::StringRef symbol) const;

  /// Deep copy sharing this program's context (not thread-safe to use both
  /// from different threads).
  ExportedProgram clone() const;
};

} // namespace pt2ir

#endif
