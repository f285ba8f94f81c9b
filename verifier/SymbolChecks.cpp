//===- SymbolChecks.cpp - Symbolic expressions and range constraints ------===//
//
// Parses every `expr_str` of the value tables (tensor sizes, strides and
// storage offsets, and the sym_* tables) of every graph, each distinct text
// once:
//  - invalid-sym-expr: an expression that does not parse (reported once per
//    distinct text, at its first occurrence);
//  - unused-range-constraint (warning): a range_constraints entry whose
//    symbol occurs in no expression of the program.
//
// It deliberately does not judge whether expressions are consistent with
// each other or with the ranges.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/verifier/Checks.h"
#include "pt2ir/verifier/Targets.h"

#include "pt2ir/ir/SymbolicExpr.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace pt2ir::verifier {

namespace {

class SymbolChecker {
public:
  explicit SymbolChecker(VerifierContext &ctx) : ctx(ctx) {}

  void run() {
    for (const Graph *g : ctx.graphs())
      scanGraph(*g);
    reportUnusedRanges();
  }

private:
  void scanExpr(const SymValue &sv, const Graph &g,
                llvm::function_ref<std::string()> path) {
    if (!sv.isExpr())
      return;
    llvm::StringRef text = sv.expr.exprStr;
    auto [it, inserted] = seen.try_emplace(text, true);
    if (!inserted)
      return;
    llvm::Expected<sym::Expr> expr = sym::parseSymExpr(text);
    if (!expr) {
      ctx.error("invalid-sym-expr", path(), "", ctx.tableOrder(g),
                "expr_str does not parse: " + llvm::toString(expr.takeError()));
      return;
    }
    for (const std::string &name : sym::freeSymbols(*expr))
      symbols.insert(name);
  }

  void scanList(const std::vector<SymValue> &list, const Graph &g,
                const Value &v, const char *field) {
    for (size_t i = 0; i < list.size(); ++i)
      scanExpr(list[i], g, [&] {
        return ctx.tablePath(g, "tensor_values", v.getName()) + "." + field +
               "[" + std::to_string(i) + "]";
      });
  }

  void scanGraph(const Graph &g) {
    for (Value *v : g.getTableEntries(ValueTable::Tensor)) {
      const TensorMeta *tm = v->getTensorMeta();
      if (!tm)
        continue;
      scanList(tm->sizes, g, *v, "sizes");
      scanList(tm->strides, g, *v, "strides");
      scanExpr(tm->storageOffset, g, [&] {
        return ctx.tablePath(g, "tensor_values", v->getName()) +
               ".storage_offset";
      });
    }
    struct SymTable {
      ValueTable table;
      const char *name;
      const SymValue *(Value::*get)() const;
    };
    static const SymTable Tables[] = {
        {ValueTable::SymInt, "sym_int_values", &Value::getSymIntMeta},
        {ValueTable::SymBool, "sym_bool_values", &Value::getSymBoolMeta},
        {ValueTable::SymFloat, "sym_float_values", &Value::getSymFloatMeta}};
    for (const SymTable &t : Tables) {
      for (Value *v : g.getTableEntries(t.table)) {
        if (const SymValue *sv = (v->*t.get)())
          scanExpr(*sv, g,
                   [&] { return ctx.tablePath(g, t.name, v->getName()); });
      }
    }
  }

  void reportUnusedRanges() {
    const auto &constraints = ctx.program().rangeConstraints;
    for (size_t i = 0; i < constraints.size(); ++i) {
      llvm::StringRef symbol = constraints[i].first;
      // Keys that are not symbol names are reported by ProgramChecks.cpp.
      if (symbols.count(symbol) || !isPythonIdentifier(symbol))
        continue;
      ctx.warning(
          "unused-range-constraint", "range_constraints." + symbol.str(), "",
          ctx.sectionOrder(Section::RangeConstraints, i),
          "symbol '" + symbol + "' occurs in no expression of the program");
    }
  }

  VerifierContext &ctx;
  llvm::StringMap<bool> seen;
  llvm::StringSet<> symbols;
};

} // namespace

void checkSymbols(VerifierContext &ctx) { SymbolChecker(ctx).run(); }

} // namespace pt2ir::verifier
