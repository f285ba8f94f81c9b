//===- PassPipelineOptions.cpp - pt2-opt flags that choose and watch passes
//===//

#include "pt2ir/tools/lib/PassPipelineOptions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>

namespace pt2ir {

namespace cl = llvm::cl;

namespace {

std::string buildPipelineHelp(const Registry &registry) {
  std::string text =
      "Passes to run, comma-separated, each with optional {option=value ...};\n"
      "e.g. 'dce{remove-asserts=true},canonicalize-symbols'. Passes:";
  llvm::raw_string_ostream os(text);
  os << "\n";
  printRegisteredPasses(os, registry, 2);
  os.flush();
  while (!text.empty() && text.back() == '\n')
    text.pop_back();
  return text;
}

} // namespace

PassCLOptions::PassCLOptions(cl::OptionCategory &category,
                             const Registry &registry)
    : pipelineHelp(buildPipelineHelp(registry)),
      passPipeline("pass-pipeline", cl::desc(pipelineHelp),
                   cl::value_desc("pipeline"), cl::cat(category)),
      verifyEach("verify-each",
                 cl::desc("Verify the program after every pass that changed "
                          "it (default on)"),
                 cl::init(true), cl::cat(category)),
      printIRBefore("print-ir-before",
                    cl::desc("Print the program (text form, to stderr) "
                             "before each run of these passes"),
                    cl::value_desc("pass"), cl::CommaSeparated,
                    cl::cat(category)),
      printIRAfter("print-ir-after",
                   cl::desc("Print the program (text form, to stderr) after "
                            "each run of these passes"),
                   cl::value_desc("pass"), cl::CommaSeparated,
                   cl::cat(category)),
      printIRAfterAll("print-ir-after-all",
                      cl::desc("Print the program after every pass"),
                      cl::cat(category)),
      printIRAfterChange(
          "print-ir-after-change",
          cl::desc("Print the program only after passes that changed it "
                   "(narrows --print-ir-after/--print-ir-after-all when "
                   "given with them)"),
          cl::cat(category)),
      timePasses("time-passes",
                 cl::desc("Print a table of pass run times to stderr"),
                 cl::cat(category)),
      passStatistics("pass-statistics",
                     cl::desc("Print each pass's statistics to stderr"),
                     cl::cat(category)) {
  for (const PassInfo *info : getRegisteredPasses(registry)) {
    // Two options of one name would abort llvm::cl.
    if (cl::getRegisteredOptions().count(info->name))
      continue;
    passFlags.emplace_back(
        info->name, std::make_unique<cl::opt<bool>>(
                        llvm::StringRef(info->name), cl::desc(info->summary),
                        cl::cat(category)));
  }
}

PassCLOptions::~PassCLOptions() {
  // Unregister, so a later instance can register the same names again.
  for (auto &flag : passFlags)
    flag.second->removeArgument();
  passPipeline.removeArgument();
  verifyEach.removeArgument();
  printIRBefore.removeArgument();
  printIRAfter.removeArgument();
  printIRAfterAll.removeArgument();
  printIRAfterChange.removeArgument();
  timePasses.removeArgument();
  passStatistics.removeArgument();
}

llvm::Expected<PassPipelineConfig> PassCLOptions::getConfig() const {
  PassPipelineConfig config;
  // (argv position, pipeline piece), sorted so flags run in the order given.
  std::vector<std::pair<unsigned, std::vector<PassPipelineElement>>> pieces;
  if (passPipeline.getNumOccurrences()) {
    auto parsed = parsePassPipeline(passPipeline);
    if (!parsed)
      return parsed.takeError();
    pieces.emplace_back(passPipeline.getPosition(), std::move(*parsed));
  }
  for (const auto &[name, flag] : passFlags)
    if (*flag)
      pieces.push_back({flag->getPosition(), {PassPipelineElement{name, {}}}});
  std::stable_sort(
      pieces.begin(), pieces.end(),
      [](const auto &a, const auto &b) { return a.first < b.first; });
  for (auto &piece : pieces)
    for (auto &element : piece.second)
      config.pipeline.push_back(std::move(element));

  PassInstrumentation &instr = config.instrumentation;
  instr.verifyEach = verifyEach;
  // pt2-opt verifies every program it reads before running passes.
  instr.verifyInput = false;
  instr.printIRBefore.assign(printIRBefore.begin(), printIRBefore.end());
  instr.printIRAfter.assign(printIRAfter.begin(), printIRAfter.end());
  instr.printIRAfterAll = printIRAfterAll;
  instr.printIRAfterChange = printIRAfterChange;
  instr.timePasses = timePasses;
  instr.passStatistics = passStatistics;
  return config;
}

llvm::Error runPassPipeline(ExportedProgram &ep, llvm::StringRef fileName,
                            const PassPipelineConfig &config,
                            const VerifyHook &verify,
                            llvm::raw_ostream &diag) {
  auto withFile = [&](llvm::Error err) {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        fileName + ": error: " + llvm::toString(std::move(err)));
  };
  PassManager pm(ep.getRegistryPtr());
  pm.setDiagnosticStream(diag);
  if (auto err = pm.setInstrumentation(config.instrumentation))
    return withFile(std::move(err));
  if (auto err = pm.addPipeline(config.pipeline))
    return withFile(std::move(err));
  if (pm.empty())
    return llvm::Error::success();
  pm.setVerifyHook(verify);
  if (auto err = pm.run(ep))
    return withFile(std::move(err));
  return llvm::Error::success();
}

llvm::Error runPassPipelineFromCL(ExportedProgram &ep, llvm::StringRef fileName,
                                  const PassCLOptions &options,
                                  const VerifyHook &verify) {
  auto config = options.getConfig();
  if (!config)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        fileName + ": error: " + llvm::toString(config.takeError()));
  return runPassPipeline(ep, fileName, *config, verify);
}

} // namespace pt2ir
