//===- Stats.h - Counts and sizes of a program ------------------*- C++ -*-===//
//
// `pt2-opt --stats`: what a program holds, as text or JSON.
//
//  - nodes by namespace (`aten`, `_operator`, `higher_order`) and by op
//    (`aten.addmm.default`), over the top-level graph and every subgraph,
//    with the numbers of symbolic ops, runtime asserts and higher-order ops;
//  - graph inputs and outputs by signature kind;
//  - symbols: every symbol in range_constraints or in a value's metadata,
//    with its range and how many values mention it;
//  - parameters, buffers and tensor constants: dtype, shape, elements and
//    bytes (dtype size x product of sizes); symbolic sizes give expressions
//    (`4*s0`), and totals add the concrete part and the symbolic terms;
//  - the dialects named in `verifiers` and, optionally, whether the program
//    passes the verifier under each dialect;
//  - with the verifier, the coverage of the nodes by the shape and dtype
//    rules of infer/ and the meta-mismatch findings.
//
// computeStats gathers, the printers format; nothing here reads files.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_TOOLS_STATS_H
#define PT2IR_TOOLS_STATS_H

#include "pt2ir/ir/ExportedProgram.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pt2ir {

enum class StatsFormat { Text, Json };

struct StatsOptions {
  StatsFormat format = StatsFormat::Text;
  /// Run the verifier under each known dialect (ATEN, TRAINING) and report
  /// whether the program passes.
  bool runVerifier = true;
};

/// A name with a count, e.g. ("aten", 110).
using NamedCount = std::pair<std::string, uint64_t>;

/// One symbol and what is known about it.
struct SymbolStats {
  std::string name;
  /// From range_constraints; unset when the program does not constrain it.
  bool constrained = false;
  std::optional<int64_t> minVal, maxVal;
  /// `u<N>` / `zuf<N>` symbols.
  bool unbacked = false;
  /// Values whose metadata mentions the symbol.
  uint64_t valueCount = 0;
};

/// One parameter, buffer or tensor constant.
struct StateTensorStats {
  /// `parameter`, `buffer` or `tensor_constant`.
  std::string kind;
  /// The state-dict name (`lin.weight`).
  std::string target;
  /// The graph input's value name (`p_lin_weight`).
  std::string valueName;
  /// `f32`, or `?` when unknown.
  std::string dtype;
  /// `[3, 4]`, `[s0, 4]`; empty when the input has no tensor metadata.
  std::string shape;
  /// An integer, or an expression when a size is symbolic; empty if unknown.
  std::string elements;
  std::string bytes;
  bool persistent = true;
};

/// The dialect check of one dialect.
struct DialectStats {
  std::string dialect;
  bool declared = false;
  bool checked = false;
  uint64_t errors = 0;
  /// The first error's text, when there is one.
  std::string firstError;
};

/// Totals of one kind of state tensor.
struct StateTotals {
  std::string kind;
  uint64_t count = 0;
  std::string elements;
  std::string bytes;
};

/// Coverage of the program's nodes by the shape and dtype rules, and what
/// the verifier's meta-mismatch rule found.
struct MetaRuleStats {
  bool checked = false;
  /// Every node (subgraphs included).
  uint64_t nodes = 0;
  /// Nodes whose target has a rule.
  uint64_t covered = 0;
  /// Covered nodes skipped because an input lacks metadata.
  uint64_t missingInput = 0;
  /// meta-mismatch and meta-invalid-inputs errors; undecided warnings.
  uint64_t errors = 0;
  uint64_t undecided = 0;
  /// Targets without a rule, sorted.
  std::vector<std::string> opsWithoutRule;
};

struct ProgramStats {
  int64_t schemaMajor = 0, schemaMinor = 0;
  std::string torchVersion;
  std::vector<std::string> verifiers;
  /// The top-level graph plus every subgraph.
  uint64_t graphCount = 0;
  uint64_t maxSubgraphDepth = 0;
  uint64_t nodeCount = 0;
  uint64_t topLevelNodeCount = 0;
  uint64_t symbolicOpCount = 0;
  uint64_t assertCount = 0;
  uint64_t higherOrderOpCount = 0;
  /// Sorted by count (descending), then name.
  std::vector<NamedCount> nodesByNamespace;
  std::vector<NamedCount> nodesByOp;
  /// Signature kinds (`parameter`, `user_input`), in first-seen order.
  std::vector<NamedCount> inputsByKind;
  std::vector<NamedCount> outputsByKind;
  std::vector<SymbolStats> symbols;
  std::vector<StateTensorStats> stateTensors;
  std::vector<StateTotals> stateTotals;
  std::vector<DialectStats> dialects;
  MetaRuleStats metaRules;
};

/// The namespace of a target: `aten` for `torch.ops.aten.add.Tensor`,
/// `_operator` for `_operator.add`, `#ns` for `#ns:op`.
std::string targetNamespace(llvm::StringRef target);

/// Elements of a tensor with these sizes: a decimal integer, or an
/// expression in sympy's plain form when a size is symbolic; empty when a
/// size cannot be read or the product overflows.
std::string elementCountExpr(const std::vector<SymValue> &sizes,
                             int64_t factor = 1);

ProgramStats computeStats(const ExportedProgram &ep,
                          const StatsOptions &options = {});

void printStatsText(llvm::raw_ostream &os, const ProgramStats &stats);
void printStatsJson(llvm::raw_ostream &os, const ProgramStats &stats);

/// computeStats, then the printer `options.format` selects.
void emitStats(llvm::raw_ostream &os, const ExportedProgram &ep,
               const StatsOptions &options = {});

} // namespace pt2ir

#endif
