//===- ProgramChecks.cpp - Module call graph, verifiers, range bounds -----===//
//
// Checks the program-level fields around the graph:
//  - module-call-graph-root: an entry for the root module (fqn "") exists
//    and has a signature;
//  - module-call-graph-name: names in module call signatures exist in the
//    graph;
//  - invalid-range-constraint: keys are symbol names and min <= max;
//  - unknown-dialect: `verifiers` entries (and the dialect option) are ATEN
//    or TRAINING; an unknown program entry is a warning.
//
// It deliberately does not look at the in_spec/out_spec treespecs (see
// TreespecChecks.cpp) or at symbols' use (see SymbolChecks.cpp).
//
//===----------------------------------------------------------------------===//

#include "pt2ir/verifier/Checks.h"
#include "pt2ir/verifier/Targets.h"

namespace pt2ir::verifier {

namespace {

class ProgramFieldChecker {
public:
  explicit ProgramFieldChecker(VerifierContext &ctx)
      : ctx(ctx), ep(ctx.program()) {}

  Dialect run() {
    checkModuleCallGraph();
    checkRangeConstraints();
    return decideDialect();
  }

private:
  std::string entryPath(size_t i) const {
    return "graph_module.module_call_graph[" + std::to_string(i) + "]";
  }
  uint64_t entryOrder(size_t i) const {
    return ctx.sectionOrder(Section::ModuleCallGraph, i);
  }

  void checkModuleCallGraph() {
    const auto &entries = ep.graphModule.moduleCallGraph;
    bool sawRoot = false;
    for (size_t i = 0; i < entries.size(); ++i) {
      const ModuleCallEntry &entry = entries[i];
      bool isRoot = entry.fqn.empty();
      sawRoot |= isRoot;
      if (!entry.signature) {
        if (isRoot)
          ctx.error("module-call-graph-root", entryPath(i) + ".signature", "",
                    entryOrder(i), "the root module's entry has no signature");
        continue;
      }
      checkEntrySignature(i, *entry.signature, isRoot);
    }
    if (sawRoot)
      return;
    std::string fqns;
    for (const ModuleCallEntry &entry : entries)
      fqns += (fqns.empty() ? "'" : ", '") + entry.fqn.str() + "'";
    std::string message =
        entries.empty()
            ? std::string("the module call graph is empty; it needs an entry "
                          "for the root module (fqn \"\")")
            : "no entry for the root module (fqn \"\"); entries: " + fqns;
    ctx.error("module-call-graph-root", "graph_module.module_call_graph", "",
              entryOrder(0), message);
  }

  void checkEntrySignature(size_t i, const ModuleCallSignature &sig,
                           bool isRoot) {
    std::string path = entryPath(i) + ".signature";
    llvm::StringRef fqn = ep.graphModule.moduleCallGraph[i].fqn;
    std::string who =
        isRoot ? std::string("the root module") : "module '" + fqn.str() + "'";
    const char *lists[] = {"inputs", "outputs"};
    const std::vector<Argument> *args[] = {&sig.inputs, &sig.outputs};
    for (int k = 0; k < 2; ++k) {
      for (size_t j = 0; j < args[k]->size(); ++j) {
        (*args[k])[j].forEachUse([&](Use *u) {
          if (ep.getGraph().lookupValue(u->getName()))
            return;
          ctx.error("module-call-graph-name",
                    path + "." + lists[k] + "[" + std::to_string(j) + "]", "",
                    entryOrder(i),
                    "the call signature of " + who + " names '" + u->getName() +
                        "', which the graph does not define");
        });
      }
    }
  }

  void checkRangeConstraints() {
    const auto &constraints = ep.rangeConstraints;
    for (size_t i = 0; i < constraints.size(); ++i) {
      const auto &[symbol, range] = constraints[i];
      std::string path = "range_constraints." + symbol.str();
      uint64_t order = ctx.sectionOrder(Section::RangeConstraints, i);
      if (!isPythonIdentifier(symbol))
        ctx.error("invalid-range-constraint", path, "", order,
                  "key '" + symbol + "' is not a symbol name");
      if (range.minVal && range.maxVal && *range.minVal > *range.maxVal)
        ctx.error("invalid-range-constraint", path, "", order,
                  "the range of '" + symbol + "' is empty: min_val " +
                      std::to_string(*range.minVal) + " > max_val " +
                      std::to_string(*range.maxVal));
    }
  }

  static Dialect parseDialect(llvm::StringRef name) {
    if (name == AtenDialect)
      return Dialect::Aten;
    if (name == TrainingDialect)
      return Dialect::Training;
    return Dialect::None;
  }

  Dialect decideDialect() {
    llvm::StringRef forced = ctx.options().dialect;
    if (!forced.empty()) {
      Dialect d = parseDialect(forced);
      if (d == Dialect::None)
        ctx.error("unknown-dialect", "verifiers", "",
                  ctx.sectionOrder(Section::Verifiers),
                  "the requested dialect '" + forced +
                      "' is not known (expected ATEN or TRAINING)");
      return d;
    }
    Dialect chosen = Dialect::None;
    for (size_t i = 0; i < ep.verifiers.size(); ++i) {
      llvm::StringRef name = ep.verifiers[i];
      Dialect d = parseDialect(name);
      if (d == Dialect::None) {
        ctx.warning("unknown-dialect", "verifiers[" + std::to_string(i) + "]",
                    "", ctx.sectionOrder(Section::Verifiers, i),
                    "dialect '" + name +
                        "' is not known; its rules were not checked");
        continue;
      }
      // ATEN is the stricter dialect: it wins when both are listed.
      if (chosen != Dialect::Aten)
        chosen = d;
    }
    return chosen;
  }

  VerifierContext &ctx;
  const ExportedProgram &ep;
};

} // namespace

Dialect checkProgramFields(VerifierContext &ctx) {
  return ProgramFieldChecker(ctx).run();
}

} // namespace pt2ir::verifier
