//===- Stats.cpp - Counts and sizes of a program --------------------------===//
//
// Implements computeStats and its two printers. Graphs are walked from a
// worklist (no recursion); each distinct expr_str is parsed once.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/tools/lib/Stats.h"

#include "pt2ir/ir/Enums.h"
#include "pt2ir/ir/Printer.h"
#include "pt2ir/ir/SymbolicExpr.h"
#include "pt2ir/ir/SymbolicOps.h"
#include "pt2ir/passes/OpEffects.h"
#include "pt2ir/verifier/Verifier.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <map>

namespace pt2ir {

std::string targetNamespace(llvm::StringRef target) {
  if (target.starts_with("#"))
    return target.split(':').first.str();
  llvm::StringRef rest = target;
  if (rest.consume_front("torch.ops.")) {
    llvm::StringRef ns = rest.split('.').first;
    return ns.str();
  }
  return target.split('.').first.str();
}

/// One factor of a size: an integer, or an expression.
static bool sizeFactor(const SymValue &size, int64_t &intPart,
                       std::vector<sym::Expr> &symbolic) {
  if (size.kind == SymValue::Kind::Int) {
    return !llvm::MulOverflow(intPart, size.intValue, intPart);
  }
  if (size.kind != SymValue::Kind::Expr)
    return false;
  auto parsed = sym::parseSymExpr(size.expr.exprStr);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return false;
  }
  if (auto value = sym::asInteger(*parsed))
    return !llvm::MulOverflow(intPart, *value, intPart);
  symbolic.push_back(*parsed);
  return true;
}

/// `c*e1*e2`, or `c` when nothing is symbolic.
static std::string productText(int64_t intPart,
                               const std::vector<sym::Expr> &symbolic) {
  if (symbolic.empty())
    return std::to_string(intPart);
  if (intPart == 0)
    return "0";
  std::vector<sym::Expr> factors;
  if (intPart != 1)
    factors.push_back(sym::makeInteger(intPart));
  factors.insert(factors.end(), symbolic.begin(), symbolic.end());
  return sym::toString(sym::makeMul(factors));
}

std::string elementCountExpr(const std::vector<SymValue> &sizes,
                             int64_t factor) {
  int64_t intPart = factor;
  std::vector<sym::Expr> symbolic;
  for (const SymValue &size : sizes)
    if (!sizeFactor(size, intPart, symbolic))
      return "";
  return productText(intPart, symbolic);
}

/// `[s0, 4]`: sizes in sympy's plain form.
static std::string shapeText(const std::vector<SymValue> &sizes) {
  std::string out = "[";
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (i)
      out += ", ";
    const SymValue &size = sizes[i];
    if (size.kind == SymValue::Kind::Int) {
      out += std::to_string(size.intValue);
      continue;
    }
    auto parsed = sym::parseSymExpr(size.expr.exprStr);
    if (parsed) {
      out += sym::toString(*parsed);
      continue;
    }
    llvm::consumeError(parsed.takeError());
    out += size.expr.exprStr.str();
  }
  return out + "]";
}

namespace {

/// Sums element or byte counts: an integer part plus symbolic terms.
struct SymbolicSum {
  int64_t concrete = 0;
  bool overflow = false;
  bool unknown = false;
  std::vector<sym::Expr> terms;

  void add(const std::vector<SymValue> *sizes, int64_t factor) {
    if (!sizes) {
      unknown = true;
      return;
    }
    int64_t intPart = factor;
    std::vector<sym::Expr> symbolic;
    for (const SymValue &size : *sizes)
      if (!sizeFactor(size, intPart, symbolic)) {
        unknown = true;
        return;
      }
    if (symbolic.empty()) {
      overflow |= llvm::AddOverflow(concrete, intPart, concrete);
      return;
    }
    if (intPart == 0)
      return;
    std::vector<sym::Expr> factors;
    if (intPart != 1)
      factors.push_back(sym::makeInteger(intPart));
    factors.insert(factors.end(), symbolic.begin(), symbolic.end());
    terms.push_back(sym::makeMul(factors));
  }

  std::string text() const {
    if (overflow)
      return "";
    if (terms.empty())
      return std::to_string(concrete) + (unknown ? "+?" : "");
    std::vector<sym::Expr> all = terms;
    if (concrete)
      all.push_back(sym::makeInteger(concrete));
    return sym::toString(sym::makeAdd(all)) + (unknown ? " + ?" : "");
  }
};

/// Counts names, remembering first-seen order.
struct Counter {
  std::vector<NamedCount> items;
  llvm::StringMap<size_t> index;
  void add(llvm::StringRef name) {
    auto [it, inserted] = index.try_emplace(name, items.size());
    if (inserted)
      items.emplace_back(name.str(), 0);
    ++items[it->second].second;
  }
  std::vector<NamedCount> byCount() const {
    std::vector<NamedCount> sorted = items;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const NamedCount &a, const NamedCount &b) {
                       return a.second != b.second ? a.second > b.second
                                                   : a.first < b.first;
                     });
    return sorted;
  }
};

class StatsCollector {
public:
  StatsCollector(const ExportedProgram &ep, const StatsOptions &options)
      : ep(ep), options(options) {}
  ProgramStats run();

private:
  void walkGraphs();
  void noteSymbols(const Value &v);
  void noteExpr(llvm::StringRef exprStr, llvm::StringSet<> &seen);
  void collectSymbols();
  void collectState();
  void collectDialects();
  void collectMetaRules();

  const ExportedProgram &ep;
  const StatsOptions &options;
  ProgramStats stats;
  /// Symbol name -> values mentioning it, in first-seen order.
  Counter symbolUses;
  /// expr_str -> its free symbols.
  llvm::StringMap<std::vector<std::string>> exprSymbols;
};

void StatsCollector::noteExpr(llvm::StringRef exprStr,
                              llvm::StringSet<> &seen) {
  auto it = exprSymbols.find(exprStr);
  if (it == exprSymbols.end()) {
    std::vector<std::string> names;
    if (auto parsed = sym::parseSymExpr(exprStr))
      names = sym::freeSymbols(*parsed);
    else
      llvm::consumeError(parsed.takeError());
    it = exprSymbols.try_emplace(exprStr, std::move(names)).first;
  }
  for (const std::string &name : it->second)
    seen.insert(name);
}

void StatsCollector::noteSymbols(const Value &v) {
  llvm::StringSet<> seen;
  auto note = [&](const SymValue &s) {
    if (s.isExpr())
      noteExpr(s.expr.exprStr, seen);
  };
  if (const TensorMeta *m = v.getTensorMeta()) {
    for (const SymValue &s : m->sizes)
      note(s);
    for (const SymValue &s : m->strides)
      note(s);
    note(m->storageOffset);
  }
  if (const SymValue *s = v.getSymMeta())
    note(*s);
  // StringSet iterates in hash order; sort for a stable first-seen order.
  std::vector<std::string> names;
  for (const auto &entry : seen)
    names.push_back(entry.getKey().str());
  std::sort(names.begin(), names.end());
  for (const std::string &name : names)
    symbolUses.add(name);
}

void StatsCollector::walkGraphs() {
  Counter byNamespace, byOp;
  std::vector<std::pair<const Graph *, unsigned>> worklist{{&ep.getGraph(), 0}};
  for (size_t i = 0; i < worklist.size(); ++i) {
    auto [g, depth] = worklist[i];
    ++stats.graphCount;
    stats.maxSubgraphDepth = std::max<uint64_t>(stats.maxSubgraphDepth, depth);
    for (const Value *v : g->getInputValues())
      noteSymbols(*v);
    for (const Node &node : g->getNodes()) {
      ++stats.nodeCount;
      if (depth == 0)
        ++stats.topLevelNodeCount;
      byNamespace.add(targetNamespace(node.getTarget()));
      byOp.add(shortTarget(node.getTarget()));
      if (isSymbolicOp(node))
        ++stats.symbolicOpCount;
      if (OpEffects::isAssertTarget(node.getTarget()))
        ++stats.assertCount;
      if (isHigherOrderOpTarget(node.getTarget()))
        ++stats.higherOrderOpCount;
      for (const Value *v : node.getResults())
        noteSymbols(*v);
      for (const Graph *sub : node.getSubgraphs())
        worklist.emplace_back(sub, depth + 1);
    }
  }
  stats.nodesByNamespace = byNamespace.byCount();
  stats.nodesByOp = byOp.byCount();
}

void StatsCollector::collectSymbols() {
  llvm::StringMap<size_t> position;
  for (const auto &[name, range] : ep.rangeConstraints) {
    SymbolStats s;
    s.name = name.str();
    s.constrained = true;
    s.minVal = range.minVal;
    s.maxVal = range.maxVal;
    position[name] = stats.symbols.size();
    stats.symbols.push_back(std::move(s));
  }
  for (const NamedCount &use : symbolUses.items) {
    auto it = position.find(use.first);
    if (it == position.end()) {
      SymbolStats s;
      s.name = use.first;
      position[use.first] = stats.symbols.size();
      stats.symbols.push_back(std::move(s));
      it = position.find(use.first);
    }
    stats.symbols[it->second].valueCount = use.second;
  }
  for (SymbolStats &s : stats.symbols)
    s.unbacked = sym::isUnbackedSymbol(s.name);
}

void StatsCollector::collectState() {
  const GraphSignature &sig = ep.graphModule.signature;
  const Graph &g = ep.getGraph();
  Counter inputs, outputs;
  std::map<std::string, std::pair<SymbolicSum, SymbolicSum>> sums;
  std::map<std::string, uint64_t> counts;
  std::vector<std::string> kindOrder;
  for (size_t i = 0; i < sig.inputSpecs.size(); ++i) {
    const InputSpec &spec = sig.inputSpecs[i];
    llvm::StringRef kind = spec.kind == InputKind::Unknown
                               ? llvm::StringRef(spec.unknownKey)
                               : inputKindMemberName(spec.kind);
    inputs.add(kind);
    if (spec.kind != InputKind::Parameter && spec.kind != InputKind::Buffer &&
        spec.kind != InputKind::TensorConstant)
      continue;
    StateTensorStats t;
    t.kind = kind.str();
    t.target = spec.target.str();
    t.persistent = spec.kind != InputKind::Buffer || spec.persistent;
    const Value *v =
        i < g.getInputs().size() ? g.getInputs()[i].getSingleValue() : nullptr;
    if (!v)
      v = spec.arg.getKind() == ArgKind::Tensor && spec.arg.getRef()
              ? g.lookupValue(spec.arg.getRef()->getName())
              : nullptr;
    const TensorMeta *meta = v ? v->getTensorMeta() : nullptr;
    if (v)
      t.valueName = v->getName().str();
    if (!counts.count(t.kind))
      kindOrder.push_back(t.kind);
    ++counts[t.kind];
    auto &[elementSum, byteSum] = sums[t.kind];
    if (meta) {
      llvm::StringRef dtype = scalarTypeShortName(meta->dtype);
      t.dtype = dtype.empty() ? "?" : dtype.str();
      t.shape = shapeText(meta->sizes);
      t.elements = elementCountExpr(meta->sizes);
      unsigned itemSize = scalarTypeByteSize(meta->dtype);
      t.bytes = itemSize ? elementCountExpr(meta->sizes, itemSize) : "";
      elementSum.add(&meta->sizes, 1);
      byteSum.add(itemSize ? &meta->sizes : nullptr, itemSize);
    } else {
      t.dtype = "?";
      elementSum.add(nullptr, 1);
      byteSum.add(nullptr, 1);
    }
    stats.stateTensors.push_back(std::move(t));
  }
  for (const OutputSpec &spec : sig.outputSpecs)
    outputs.add(spec.kind == OutputKind::Unknown
                    ? llvm::StringRef(spec.unknownKey)
                    : outputKindMemberName(spec.kind));
  stats.inputsByKind = inputs.items;
  stats.outputsByKind = outputs.items;
  for (const std::string &kind : kindOrder)
    stats.stateTotals.push_back(StateTotals{
        kind, counts[kind], sums[kind].first.text(), sums[kind].second.text()});
}

void StatsCollector::collectDialects() {
  for (llvm::StringRef v : ep.verifiers)
    stats.verifiers.push_back(v.str());
  for (const char *dialect : {AtenDialect, TrainingDialect}) {
    DialectStats d;
    d.dialect = dialect;
    d.declared = llvm::is_contained(ep.verifiers, llvm::StringRef(dialect));
    if (options.runVerifier) {
      VerifyOptions vo;
      vo.dialect = dialect;
      std::vector<Diagnostic> diags = verifyProgram(ep, vo);
      d.checked = true;
      d.errors = countDiagnostics(diags, Severity::Error);
      for (const Diagnostic &diag : diags)
        if (diag.severity == Severity::Error) {
          d.firstError = formatDiagnosticBody(diag);
          break;
        }
    }
    stats.dialects.push_back(std::move(d));
  }
}

void StatsCollector::collectMetaRules() {
  if (!options.runVerifier)
    return;
  MetaCoverage coverage;
  VerifyOptions vo;
  vo.verifyOps = true;
  vo.metaCoverage = &coverage;
  MetaRuleStats &m = stats.metaRules;
  for (const Diagnostic &d : verifyProgram(ep, vo)) {
    if (d.rule != "meta-mismatch" && d.rule != "meta-invalid-inputs")
      continue;
    if (d.severity == Severity::Error)
      ++m.errors;
    else
      ++m.undecided;
  }
  m.checked = true;
  m.covered = coverage.checked + coverage.missingInput;
  m.missingInput = coverage.missingInput;
  m.nodes = m.covered + coverage.withoutRule;
  m.opsWithoutRule.assign(coverage.opsWithoutRule.begin(),
                          coverage.opsWithoutRule.end());
}

ProgramStats StatsCollector::run() {
  stats.schemaMajor = ep.schemaVersion.major;
  stats.schemaMinor = ep.schemaVersion.minor;
  stats.torchVersion = ep.torchVersion;
  walkGraphs();
  collectSymbols();
  collectState();
  collectDialects();
  collectMetaRules();
  return std::move(stats);
}

std::string rangeText(const SymbolStats &s) {
  if (!s.constrained)
    return "unconstrained";
  std::string out = "[";
  out += s.minVal ? std::to_string(*s.minVal) : "-inf";
  out += ", ";
  out += s.maxVal ? std::to_string(*s.maxVal) : "inf";
  return out + "]";
}

void printCounts(llvm::raw_ostream &os, const std::vector<NamedCount> &counts,
                 unsigned indent) {
  size_t width = 0;
  for (const NamedCount &c : counts)
    width = std::max(width, c.first.size());
  for (const NamedCount &c : counts)
    os.indent(indent) << llvm::left_justify(c.first, width) << "  " << c.second
                      << "\n";
}

uint64_t sumCounts(const std::vector<NamedCount> &counts) {
  uint64_t total = 0;
  for (const NamedCount &c : counts)
    total += c.second;
  return total;
}

} // namespace

ProgramStats computeStats(const ExportedProgram &ep,
                          const StatsOptions &options) {
  return StatsCollector(ep, options).run();
}

void printStatsText(llvm::raw_ostream &os, const ProgramStats &s) {
  os << "program: schema " << s.schemaMajor << "." << s.schemaMinor
     << ", torch " << s.torchVersion << "\n";
  os << "verifiers: [" << llvm::join(s.verifiers, ", ") << "]\n";
  for (const DialectStats &d : s.dialects) {
    os << "  " << d.dialect << (d.declared ? " (declared)" : "") << ": ";
    if (!d.checked)
      os << "not checked\n";
    else if (d.errors == 0)
      os << "verifies\n";
    else
      os << d.errors << " error" << (d.errors == 1 ? "" : "s")
         << "; first: " << d.firstError << "\n";
  }
  os << "graphs: " << s.graphCount << " (" << s.graphCount - 1 << " subgraph"
     << (s.graphCount == 2 ? "" : "s") << ", max depth " << s.maxSubgraphDepth
     << ")\n";
  os << "nodes: " << s.nodeCount << " (" << s.topLevelNodeCount
     << " top-level; " << s.symbolicOpCount << " symbolic, " << s.assertCount
     << " asserts, " << s.higherOrderOpCount << " higher-order)\n";
  os << "nodes by namespace:\n";
  printCounts(os, s.nodesByNamespace, 2);
  os << "nodes by op:\n";
  printCounts(os, s.nodesByOp, 2);
  if (s.metaRules.checked) {
    const MetaRuleStats &m = s.metaRules;
    os << "shape rules: " << m.covered << " of " << m.nodes << " nodes ("
       << (m.nodes ? m.covered * 100 / m.nodes : 100) << "%)";
    if (m.missingInput)
      os << ", " << m.missingInput << " without input metadata";
    os << "; " << m.errors << " mismatch" << (m.errors == 1 ? "" : "es")
       << ", " << m.undecided << " undecided\n";
    if (!m.opsWithoutRule.empty())
      os << "  without a rule: " << llvm::join(m.opsWithoutRule, ", ") << "\n";
  }
  os << "inputs: " << sumCounts(s.inputsByKind) << "\n";
  printCounts(os, s.inputsByKind, 2);
  os << "outputs: " << sumCounts(s.outputsByKind) << "\n";
  printCounts(os, s.outputsByKind, 2);
  os << "symbols: " << s.symbols.size() << "\n";
  for (const SymbolStats &sym : s.symbols)
    os << "  " << sym.name << " " << rangeText(sym)
       << (sym.unbacked ? " unbacked" : "") << ", " << sym.valueCount
       << " value" << (sym.valueCount == 1 ? "" : "s") << "\n";
  os << "parameters, buffers and constants: " << s.stateTensors.size() << "\n";
  for (const StateTensorStats &t : s.stateTensors) {
    os << "  " << t.kind << " " << t.target << " (" << t.valueName
       << "): " << t.dtype << t.shape;
    if (!t.elements.empty())
      os << ", " << t.elements
         << (t.elements == "1" ? " element" : " elements");
    if (!t.bytes.empty())
      os << ", " << t.bytes << " bytes";
    if (!t.persistent)
      os << ", non-persistent";
    os << "\n";
  }
  for (const StateTotals &t : s.stateTotals)
    os << "  total " << t.kind << ": " << t.count << ", " << t.elements
       << " elements, " << t.bytes << " bytes\n";
}

void printStatsJson(llvm::raw_ostream &os, const ProgramStats &s) {
  auto counts = [](const std::vector<NamedCount> &items) {
    llvm::json::Array out;
    for (const NamedCount &c : items)
      out.push_back(llvm::json::Object{{"name", c.first}, {"count", c.second}});
    return out;
  };
  llvm::json::Array dialects;
  for (const DialectStats &d : s.dialects) {
    llvm::json::Object o{{"dialect", d.dialect},
                         {"declared", d.declared},
                         {"checked", d.checked}};
    if (d.checked) {
      o["verifies"] = d.errors == 0;
      o["errors"] = d.errors;
      if (!d.firstError.empty())
        o["first_error"] = d.firstError;
    }
    dialects.push_back(std::move(o));
  }
  llvm::json::Array symbols;
  for (const SymbolStats &sym : s.symbols) {
    llvm::json::Object o{{"name", sym.name},
                         {"constrained", sym.constrained},
                         {"unbacked", sym.unbacked},
                         {"values", sym.valueCount}};
    // null: unbounded, or not in range_constraints (see "constrained").
    o["min"] = sym.minVal ? llvm::json::Value(*sym.minVal)
                          : llvm::json::Value(nullptr);
    o["max"] = sym.maxVal ? llvm::json::Value(*sym.maxVal)
                          : llvm::json::Value(nullptr);
    symbols.push_back(std::move(o));
  }
  auto countValue = [](const std::string &text) -> llvm::json::Value {
    if (text.empty())
      return nullptr;
    int64_t v;
    if (!llvm::StringRef(text).getAsInteger(10, v))
      return v;
    return text;
  };
  llvm::json::Array state;
  for (const StateTensorStats &t : s.stateTensors)
    state.push_back(llvm::json::Object{{"kind", t.kind},
                                       {"target", t.target},
                                       {"value", t.valueName},
                                       {"dtype", t.dtype},
                                       {"shape", t.shape},
                                       {"elements", countValue(t.elements)},
                                       {"bytes", countValue(t.bytes)},
                                       {"persistent", t.persistent}});
  llvm::json::Array totals;
  for (const StateTotals &t : s.stateTotals)
    totals.push_back(llvm::json::Object{{"kind", t.kind},
                                        {"count", t.count},
                                        {"elements", countValue(t.elements)},
                                        {"bytes", countValue(t.bytes)}});
  llvm::json::Object root{
      {"schema_version",
       llvm::formatv("{0}.{1}", s.schemaMajor, s.schemaMinor).str()},
      {"torch_version", s.torchVersion},
      {"verifiers", llvm::json::Array(s.verifiers)},
      {"dialects", std::move(dialects)},
      {"graphs", s.graphCount},
      {"max_subgraph_depth", s.maxSubgraphDepth},
      {"nodes", llvm::json::Object{{"total", s.nodeCount},
                                   {"top_level", s.topLevelNodeCount},
                                   {"symbolic", s.symbolicOpCount},
                                   {"asserts", s.assertCount},
                                   {"higher_order", s.higherOrderOpCount},
                                   {"by_namespace", counts(s.nodesByNamespace)},
                                   {"by_op", counts(s.nodesByOp)}}},
      {"shape_rules",
       s.metaRules.checked
           ? llvm::json::Value(llvm::json::Object{
                 {"nodes", s.metaRules.nodes},
                 {"covered", s.metaRules.covered},
                 {"missing_input", s.metaRules.missingInput},
                 {"mismatches", s.metaRules.errors},
                 {"undecided", s.metaRules.undecided},
                 {"ops_without_rule",
                  llvm::json::Array(s.metaRules.opsWithoutRule)}})
           : llvm::json::Value(nullptr)},
      {"inputs", counts(s.inputsByKind)},
      {"outputs", counts(s.outputsByKind)},
      {"symbols", std::move(symbols)},
      {"state", std::move(state)},
      {"state_totals", std::move(totals)}};
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
}

void emitStats(llvm::raw_ostream &os, const ExportedProgram &ep,
               const StatsOptions &options) {
  ProgramStats stats = computeStats(ep, options);
  if (options.format == StatsFormat::Json)
    printStatsJson(os, stats);
  else
    printStatsText(os, stats);
}

} // namespace pt2ir
