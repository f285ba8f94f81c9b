//===- PassManager.cpp - Runs a pipeline of passes with instrumentation ---===//

#include "pt2ir/passes/PassManager.h"

#include "pt2ir/ir/Printer.h"
#include "pt2ir/ir/UnbackedBindings.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Format.h"

#include <chrono>

namespace pt2ir {

namespace {

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Seconds since `start`.
double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

void printReportBanner(llvm::raw_ostream &os, llvm::StringRef title) {
  const char *rule = "===-------------------------------------------------"
                     "------------------------===\n";
  os << rule;
  std::string line = ("... " + title + " ...").str();
  os.indent(line.size() < 78 ? (78 - line.size()) / 2 : 0) << line << "\n";
  os << rule;
}

llvm::Error checkPassNames(const Registry &registry,
                           llvm::ArrayRef<std::string> names,
                           llvm::StringRef flag) {
  for (const std::string &name : names)
    if (!lookupPass(registry, name))
      return makeError(flag + ": unknown pass '" + name +
                       "'; registered passes: " +
                       listRegisteredPassNames(registry));
  return llvm::Error::success();
}

} // namespace

VerifyHook makeVerifierHook(std::string fileName, VerifyOptions options) {
  return [fileName = std::move(fileName), options = std::move(options)](
             const ExportedProgram &ep) -> llvm::Error {
    std::vector<Diagnostic> diags = verifyProgram(ep, options);
    if (!hasErrors(diags))
      return llvm::Error::success();
    std::string text;
    llvm::raw_string_ostream os(text);
    printDiagnostics(os, fileName, diags);
    os.flush();
    while (!text.empty() && text.back() == '\n')
      text.pop_back();
    return makeError(text);
  };
}

PassManager::PassManager(std::shared_ptr<const Registry> r)
    : registry(r ? std::move(r) : Registry::getDefault()),
      verifyHook(makeVerifierHook()) {}

void PassManager::addPass(std::unique_ptr<Pass> pass) {
  passes.push_back(std::move(pass));
}

llvm::Error
PassManager::addPipeline(llvm::ArrayRef<PassPipelineElement> pipeline) {
  std::vector<std::unique_ptr<Pass>> created;
  for (const PassPipelineElement &element : pipeline) {
    auto pass = createPass(*registry, element.name, element.options);
    if (!pass)
      return pass.takeError();
    created.push_back(std::move(*pass));
  }
  for (auto &pass : created)
    passes.push_back(std::move(pass));
  return llvm::Error::success();
}

llvm::Error PassManager::addPipeline(llvm::StringRef text) {
  auto pipeline = parsePassPipeline(text);
  if (!pipeline)
    return pipeline.takeError();
  return addPipeline(*pipeline);
}

std::vector<std::string> PassManager::getPassNames() const {
  std::vector<std::string> names;
  for (const auto &pass : passes)
    names.push_back(pass->getName().str());
  return names;
}

llvm::Error
PassManager::setInstrumentation(PassInstrumentation instrumentation) {
  if (auto err = checkPassNames(*registry, instrumentation.printIRBefore,
                                "--print-ir-before"))
    return err;
  if (auto err = checkPassNames(*registry, instrumentation.printIRAfter,
                                "--print-ir-after"))
    return err;
  instr = std::move(instrumentation);
  return llvm::Error::success();
}

void PassManager::dumpIR(const ExportedProgram &ep, llvm::StringRef when,
                         llvm::StringRef passName) const {
  llvm::raw_ostream &os = diag();
  os << "// -----// IR Dump " << when << " " << passName << " //----- //\n";
  printProgram(os, ep);
  os << "\n";
  os.flush();
}

bool PassManager::wantsDumpAfter(llvm::StringRef passName, bool changed) const {
  bool selected = instr.printIRAfterAll ||
                  llvm::is_contained(instr.printIRAfter, passName.str());
  if (!instr.printIRAfterChange)
    return selected;
  bool narrowing = instr.printIRAfterAll || !instr.printIRAfter.empty();
  return changed && (selected || !narrowing);
}

llvm::Error PassManager::verify(const ExportedProgram &ep,
                                llvm::StringRef afterPass) {
  if (!instr.verifyEach || !verifyHook)
    return llvm::Error::success();
  auto start = std::chrono::steady_clock::now();
  llvm::Error err = verifyHook(ep);
  verifySeconds += secondsSince(start);
  if (!err)
    return llvm::Error::success();
  std::string details = llvm::toString(std::move(err));
  if (afterPass.empty())
    return makeError("the input program fails verification before the first "
                     "pass:\n" +
                     details);
  return makeError("verification failed after pass '" + afterPass + "':\n" +
                   details);
}

void PassManager::printReports() const {
  if (instr.timePasses)
    printTimingReport(diag());
  if (instr.passStatistics)
    printStatisticsReport(diag());
  diag().flush();
}

llvm::Error PassManager::run(ExportedProgram &ep) {
  records.clear();
  verifySeconds = 0;
  if (&ep.getRegistry() != registry.get())
    return makeError(
        "the program was read or built with another registry than the pass "
        "manager's; create the PassManager with the program's registry "
        "(PassManager(program.getRegistryPtr()))");
  PassContext context;
  context.diagnostics = &diag();
  if (instr.verifyInput)
    if (auto err = verify(ep, ""))
      return err;
  for (auto &pass : passes) {
    llvm::StringRef name = pass->getName();
    if (llvm::is_contained(instr.printIRBefore, name.str()))
      dumpIR(ep, "Before", name);
    pass->resetStatistics();
    auto start = std::chrono::steady_clock::now();
    llvm::Expected<bool> changed = pass->run(ep, context);
    PassRunRecord record;
    record.name = name.str();
    record.seconds = secondsSince(start);
    record.statistics = pass->getStatistics();
    if (!changed) {
      records.push_back(std::move(record));
      printReports();
      return makeError("pass '" + name +
                       "' failed: " + llvm::toString(changed.takeError()));
    }
    record.changed = *changed;
    records.push_back(std::move(record));
    if (*changed && refreshBindings) {
      if (auto err = recomputeUnbackedBindings(ep)) {
        printReports();
        return makeError("after pass '" + name + "': unbacked bindings: " +
                         llvm::toString(std::move(err)));
      }
    }
    if (wantsDumpAfter(name, *changed))
      dumpIR(ep, "After", name);
    if (*changed) {
      if (auto err = verify(ep, name)) {
        printReports();
        return err;
      }
    }
  }
  printReports();
  return llvm::Error::success();
}

void PassManager::printTimingReport(llvm::raw_ostream &os) const {
  double total = verifySeconds;
  for (const PassRunRecord &r : records)
    total += r.seconds;
  printReportBanner(os, "Pass execution timing report");
  os << "  Total Execution Time: " << llvm::format("%.4f", total)
     << " seconds\n\n";
  os << "  ----Wall Time----  ----Name----\n";
  auto row = [&](double seconds, llvm::StringRef name) {
    double percent = total > 0 ? 100.0 * seconds / total : 0.0;
    os << llvm::format("  %8.4f (%5.1f%%)  ", seconds, percent) << name << "\n";
  };
  for (const PassRunRecord &r : records)
    row(r.seconds, r.name);
  if (instr.verifyEach && verifyHook)
    row(verifySeconds, "(verifier)");
  row(total, "Total");
}

void PassManager::printStatisticsReport(llvm::raw_ostream &os) const {
  printReportBanner(os, "Pass statistics report");
  for (const PassRunRecord &r : records) {
    os << r.name << (r.changed ? "" : " (no change)") << "\n";
    for (const auto &[statName, value] : r.statistics)
      os << "  (S) " << value << " " << statName << "\n";
  }
}

} // namespace pt2ir
