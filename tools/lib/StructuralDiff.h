//===- StructuralDiff.h - What changed between two programs -----*- C++ -*-===//
//
// Compares two ExportedPrograms the way a reviewer would: nodes are matched
// by structure, not by name, so renaming `add_1` to `add_2` is "unchanged
// (renamed)" and inserting one node does not make everything after it
// differ.
//
// Matching, per graph:
//  1. Each value gets a structural id, in topological order: a graph input's
//     id comes from its signature role (`parameter "lin.weight"`, the k-th
//     user input); a node's id hashes its target, its argument names and
//     kinds, its constants and the ids of the values it reads (subgraphs by
//     their own structural hash), plus an occurrence index among nodes with
//     the same hash. Names, metadata and output types do not take part.
//     Nodes with equal ids match.
//  2. Left-over nodes are matched in rounds: first by the same hash computed
//     over the *matched* counterparts of their inputs (a node whose own call
//     is unchanged but whose input changed upstream), then by equal names
//     (unless names are ignored). Rounds repeat while they find matches.
//  3. The rest are aligned by position: the unmatched nodes of each side,
//     in program order, pair up where their targets (and input and output
//     counts) agree — common prefix, common suffix, and a longest common
//     subsequence of the middle when it is small.
//  4. Whatever is still unmatched is removed (only in A) or added (only in
//     B). Matched higher-order ops have their subgraphs compared the same
//     way, pairwise by argument position.
//
// A matched pair is reported when its target, arguments (compared through
// the matching), output count or output types, metadata or names differ.
// Also compared: graph outputs, the signature (inputs by role, outputs by
// position), range constraints, and program fields (schema and torch
// versions, verifiers, opset versions, graph-module metadata, guards code,
// module call graph).
//
// This file does not read files; DiffMain.h is the pt2-diff driver.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_TOOLS_STRUCTURALDIFF_H
#define PT2IR_TOOLS_STRUCTURALDIFF_H

#include "pt2ir/ir/ExportedProgram.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace pt2ir {

/// What the comparison leaves out.
struct DiffOptions {
  /// Renames are not differences, and nodes are never matched by name.
  bool ignoreNames = false;
  /// All node metadata and the graph module's metadata.
  bool ignoreMetadata = false;
  /// Individual node metadata keys (`stack_trace`, `nn_module_stack`).
  std::vector<std::string> ignoreMetadataKeys;
  /// Output types (tensor metadata and symbolic values) of nodes and inputs.
  bool ignoreTypes = false;
  bool ignoreRangeConstraints = false;
  bool ignoreSignature = false;
  /// Schema version, torch version, opset versions, verifiers.
  bool ignoreVersions = false;
  /// Deepest subgraph nesting compared; deeper subgraphs are reported as
  /// not compared.
  unsigned maxSubgraphDepth = 64;
  /// Called now and then with the number of nodes processed so far and the
  /// total (for a progress line); may be empty.
  std::function<void(uint64_t done, uint64_t total)> onProgress;
};

/// The `--ignore` words: names, metadata, types, range_constraints,
/// signature, versions, and any node metadata key (stack_trace,
/// nn_module_stack, source_fn_stack, torch_fn, custom, from_node, ...).
llvm::ArrayRef<llvm::StringLiteral> diffIgnoreCategories();

/// Applies one `--ignore` word (or a comma-separated list). A word that is
/// neither a category nor looks like a metadata key is an error listing the
/// categories.
llvm::Error applyDiffIgnore(llvm::StringRef words, DiffOptions &options);

enum class NodeChangeKind { Added, Removed, Changed };

/// One node that differs.
struct NodeChange {
  NodeChangeKind kind = NodeChangeKind::Changed;
  /// `graph`, or `graph/<node>.<subgraph>` for a subgraph (nested ones
  /// append further components).
  std::string graphPath;
  /// Node names in A and B; empty on the side that lacks the node.
  std::string nameA, nameB;
  /// The node in the text form (`%x = aten.add.Tensor(%a, 1) : f32[2]`).
  std::string textA, textB;
  /// For Changed: the node was renamed (a name or an output value name
  /// differs) and names are not ignored.
  bool renamed = false;
  /// For Changed: something other than names differs; `details` says what.
  bool contentChanged = false;
  std::vector<std::string> details;
};

/// A difference outside the nodes.
struct FieldChange {
  /// `added`, `removed`, `changed`, or `renamed` (a subgraph input whose
  /// name alone differs).
  std::string change;
  /// What it is about: `input 2 (parameter "lin.bias")`, `s0`, `torch_version`.
  std::string what;
  /// Before and after, in the text form; empty on the side that lacks it.
  std::string before, after;
};

struct DiffSummary {
  uint64_t added = 0, removed = 0, changed = 0, renamed = 0, unchanged = 0;
};

/// Everything that differs between two programs.
struct ProgramDiff {
  std::vector<NodeChange> nodes;
  /// Subgraph inputs that differ (the top level's are in `signature`).
  std::vector<FieldChange> graphInputs;
  /// Graph outputs that differ (top level and subgraphs).
  std::vector<FieldChange> graphOutputs;
  std::vector<FieldChange> signature;
  std::vector<FieldChange> rangeConstraints;
  std::vector<FieldChange> programFields;
  DiffSummary summary;

  bool isEqual() const {
    return nodes.empty() && graphInputs.empty() && graphOutputs.empty() &&
           signature.empty() && rangeConstraints.empty() &&
           programFields.empty();
  }
};

/// Compares `a` (the old program) with `b` (the new one).
ProgramDiff diffPrograms(const ExportedProgram &a, const ExportedProgram &b,
                         const DiffOptions &options = {});

/// Prints the diff as text: sections for the signature, range constraints,
/// each graph's nodes (`-` removed, `+` added, `~` changed, `=` renamed
/// only) and outputs, program fields, then a summary line.
void printDiffText(llvm::raw_ostream &os, const ProgramDiff &diff);

/// The diff as a JSON object (`equal`, `summary`, `nodes`, `graph_inputs`,
/// `graph_outputs`, `signature`, `range_constraints`, `program`).
llvm::json::Value diffToJson(const ProgramDiff &diff);

} // namespace pt2ir

#endif
