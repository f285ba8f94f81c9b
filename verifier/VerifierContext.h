//===- VerifierContext.h - State shared by the verifier's checks --*- C++
//-*-===//
//
// Internal to the verifier. A VerifierContext holds what every group of
// checks needs: the program and options, the operator registry, the layout
// of the program (the JSON path and program-order position of every graph,
// node, graph input and output, computed once in a linear walk) and the list
// of findings.
//
// Positions order findings the way a reader meets them: for each graph its
// inputs, then its nodes (a node's subgraphs right after the node), then its
// outputs and value tables; after the graphs come the signature, the module
// call graph, the range constraints and the `verifiers` field.
//
// This file deliberately holds no rules.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_VERIFIER_VERIFIERCONTEXT_H
#define PT2IR_VERIFIER_VERIFIERCONTEXT_H

#include "pt2ir/ir/ExportedProgram.h"
#include "pt2ir/ir/OperatorRegistry.h"
#include "pt2ir/verifier/Targets.h"
#include "pt2ir/verifier/Verifier.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Twine.h"

#include <memory>
#include <string>
#include <vector>

namespace pt2ir::verifier {

/// Program-level sections that follow the graphs, in reporting order.
enum class Section : uint8_t {
  InputSpecs,
  OutputSpecs,
  ModuleCallGraph,
  RangeConstraints,
  Verifiers,
  Program,
};

/// Where a graph sits in the serialized program.
struct GraphLayout {
  /// JSON path of the Graph object, e.g. `graph_module.graph` or
  /// `graph_module.graph.nodes[4].inputs[1].arg.as_graph.graph`.
  std::string path;
  /// Nesting depth: 0 for the top-level graph.
  unsigned depth = 0;
  uint64_t inputsUnit = 0;
  uint64_t outputsUnit = 0;
  uint64_t tablesUnit = 0;
};

class VerifierContext {
public:
  VerifierContext(const ExportedProgram &program, const VerifyOptions &options);

  const ExportedProgram &program() const { return ep; }
  const VerifyOptions &options() const { return opts; }
  const OperatorRegistry &registry() const { return *registryPtr; }

  /// Every graph examined, in program order (a subgraph follows the node
  /// that holds it). Subgraphs nested deeper than the cap are left out and
  /// reported by the structural checks.
  llvm::ArrayRef<const Graph *> graphs() const { return graphList; }
  const GraphLayout &layout(const Graph &g) const;
  /// Nodes whose subgraphs were not examined because of the depth cap.
  llvm::ArrayRef<const Node *> tooDeepNodes() const { return tooDeep; }

  //===--- Targets, classified once per distinct target string ---===//
  /// classifyTarget(n.getTarget()).
  const TargetInfo &targetInfo(const Node &n) const {
    return targetEntry(n.getTarget()).info;
  }
  /// registry().lookupTarget(n.getTarget()).
  const OperatorSchema *schemaOf(const Node &n) const;

  //===--- Paths and positions ---===//
  unsigned nodeIndex(const Node &n) const;
  std::string nodePath(const Node &n) const;
  /// `<node>.inputs[i].arg`.
  std::string nodeInputPath(const Node &n, size_t i) const;
  /// `<node>.outputs[i]`.
  std::string nodeOutputPath(const Node &n, size_t i) const;
  /// Position of a node; `sub` orders findings within it (e.g. input index).
  uint64_t nodeOrder(const Node &n, unsigned sub = 0) const;

  std::string graphInputPath(const Graph &g, size_t i) const;
  uint64_t graphInputOrder(const Graph &g, size_t i) const;
  std::string graphOutputPath(const Graph &g, size_t i) const;
  uint64_t graphOutputOrder(const Graph &g, size_t i) const;
  /// `<graph>.<table>.<key>`.
  std::string tablePath(const Graph &g, llvm::StringRef table,
                        llvm::StringRef key) const;
  uint64_t tableOrder(const Graph &g, unsigned sub = 0) const;
  /// Position of entry `index` of a program-level section.
  uint64_t sectionOrder(Section section, size_t index = 0) const;

  //===--- Findings ---===//
  void report(Severity severity, llvm::StringRef rule, std::string path,
              llvm::StringRef nodeName, uint64_t order,
              const llvm::Twine &message);
  void error(llvm::StringRef rule, std::string path, llvm::StringRef nodeName,
             uint64_t order, const llvm::Twine &message) {
    report(Severity::Error, rule, std::move(path), nodeName, order, message);
  }
  void warning(llvm::StringRef rule, std::string path, llvm::StringRef nodeName,
               uint64_t order, const llvm::Twine &message) {
    report(Severity::Warning, rule, std::move(path), nodeName, order, message);
  }
  std::vector<Diagnostic> takeDiagnostics();

private:
  struct NodeInfo {
    unsigned index = 0;
    uint64_t unit = 0;
    const Graph *graph = nullptr;
  };

  struct TargetEntry {
    TargetInfo info;
    const OperatorSchema *schema = nullptr;
    bool schemaLooked = false;
  };

  void layOut(const Graph &g, std::string path, unsigned depth);
  const NodeInfo *findNode(const Node &n) const;
  TargetEntry &targetEntry(llvm::StringRef target) const;
  static uint64_t encode(uint64_t unit, uint64_t sub);

  const ExportedProgram &ep;
  const VerifyOptions &opts;
  const OperatorRegistry *registryPtr = nullptr;

  std::vector<const Graph *> graphList;
  llvm::DenseMap<const Graph *, GraphLayout> graphLayouts;
  llvm::DenseMap<const Node *, NodeInfo> nodeInfos;
  /// The last node looked up: checks ask about one node several times in a
  /// row. (The map no longer changes once the layout is done.)
  mutable const Node *lastNode = nullptr;
  mutable const NodeInfo *lastNodeInfo = nullptr;
  /// Keyed by the target's storage: targets are interned, so nodes calling
  /// the same operator share one entry.
  mutable llvm::DenseMap<std::pair<const char *, size_t>, TargetEntry>
      targets;
  std::vector<const Node *> tooDeep;
  uint64_t nextUnit = 0;
  uint64_t sectionsUnit = 0;

  std::vector<Diagnostic> diags;
};

} // namespace pt2ir::verifier

#endif
