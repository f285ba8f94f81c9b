//===- Rewrite.cpp - Apply declarative patterns from a file ---------------===//
//
// The `rewrite` pass: `rewrite{patterns=FILE}` reads the pattern file
// (rewrite/PatternFile.h) when the pipeline is built, names positional
// arguments and checks replacement targets against the program's operator
// registry, and applies
// the patterns with the greedy driver (rewrite/RewritePattern.h) to a fixed
// point or `max-iterations` sweeps.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/passes/PassRegistry.h"
#include "pt2ir/passes/Passes.h"
#include "pt2ir/rewrite/DeclarativePattern.h"
#include "pt2ir/rewrite/PatternFile.h"
#include "pt2ir/rewrite/RewritePattern.h"

#include "llvm/ADT/Twine.h"

namespace pt2ir {

namespace {

class RewritePass final : public Pass {
public:
  llvm::StringRef getName() const override { return "rewrite"; }

  llvm::Error setOptions(const PassOptions &options) override {
    for (const auto &[name, value] : options) {
      if (name == "patterns") {
        patternFile.clear();
        loaded.clear();
        if (value.empty())
          continue; // The default: no file yet.
        auto specs = readPatternFile(value);
        if (!specs)
          return specs.takeError();
        patternFile = value;
        loaded = std::move(*specs);
      } else if (name == "max-iterations") {
        unsigned n = 0;
        if (llvm::StringRef(value).getAsInteger(10, n) || n == 0)
          return llvm::createStringError(
              llvm::inconvertibleErrorCode(),
              "rewrite: option 'max-iterations' expects a positive integer, "
              "got '" + value + "'");
        config.maxIterations = n;
      } else {
        return makeUnknownPassOptionError(getName(), name);
      }
    }
    return llvm::Error::success();
  }

  llvm::Expected<bool> run(ExportedProgram &ep, PassContext &ctx) override {
    if (patternFile.empty())
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "rewrite: no pattern file; use rewrite{patterns=FILE}");
    RewritePatternSet patterns;
    const OperatorRegistry &operators = ep.getRegistry().getOperators();
    for (DeclarativePatternSpec spec : loaded) {
      if (auto err = nameArguments(spec, operators))
        return err;
      if (auto err = verifyPatternSpec(spec, operators))
        return err;
      patterns.add(createDeclarativePattern(std::move(spec)));
    }
    auto result = applyPatternsGreedily(ep, patterns, config);
    if (!result)
      return result.takeError();
    addStatistic("patterns", int64_t(patterns.size()));
    addStatistic("rewrites", result->rewrites);
    addStatistic("iterations", result->iterations);
    if (!result->converged) {
      addStatistic("not-converged", 1);
      llvm::raw_ostream &os = ctx.diagnostics ? *ctx.diagnostics : llvm::errs();
      os << "warning: rewrite: no fixed point after " << result->iterations
         << " iterations of the patterns of " << patternFile << "\n";
    }
    return result->changed;
  }

private:
  std::string patternFile;
  std::vector<DeclarativePatternSpec> loaded;
  GreedyRewriteConfig config;
};

} // namespace

std::unique_ptr<Pass> createRewritePass() {
  return std::make_unique<RewritePass>();
}

} // namespace pt2ir
