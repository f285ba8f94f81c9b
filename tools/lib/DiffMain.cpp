//===- DiffMain.cpp - pt2-diff driver -------------------------------------===//
//
// Reads both inputs, pairs their programs, runs diffPrograms on each pair
// and prints the result. tools/pt2-diff.cpp only calls pt2DiffMain.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/tools/lib/DiffMain.h"
#include "pt2ir/tools/lib/ProgramIO.h"
#include "pt2ir/tools/lib/Progress.h"
#include "pt2ir/tools/lib/RegistryOptions.h"
#include "pt2ir/tools/lib/StructuralDiff.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

namespace pt2ir {

namespace {

enum class DiffFormat { Text, Json };

struct DiffCLOptions {
  llvm::cl::OptionCategory category{"pt2-diff options"};
  llvm::cl::opt<std::string> inputA{
      llvm::cl::Positional, llvm::cl::Required,
      llvm::cl::desc("<old program: .json, .pt2 or ->"),
      llvm::cl::cat(category)};
  llvm::cl::opt<std::string> inputB{
      llvm::cl::Positional, llvm::cl::Required,
      llvm::cl::desc("<new program: .json, .pt2 or ->"),
      llvm::cl::cat(category)};
  llvm::cl::opt<DiffFormat> format{
      "format", llvm::cl::desc("Output format"),
      llvm::cl::init(DiffFormat::Text),
      llvm::cl::values(
          clEnumValN(DiffFormat::Text, "text", "a readable listing (default)"),
          clEnumValN(DiffFormat::Json, "json", "a JSON document")),
      llvm::cl::cat(category)};
  llvm::cl::list<std::string> ignore{
      "ignore",
      llvm::cl::desc(
          "Leave out of the comparison (comma-separated): names, metadata, "
          "types, "
          "range_constraints, signature, versions, or a node metadata key "
          "(stack_trace, nn_module_stack, ..., metadata:<key>)"),
      llvm::cl::value_desc("what"), llvm::cl::CommaSeparated,
      llvm::cl::cat(category)};
  llvm::cl::opt<std::string> model{
      "model", llvm::cl::desc("Compare only this model of .pt2 archives"),
      llvm::cl::value_desc("name"), llvm::cl::cat(category)};
  llvm::cl::opt<bool> quiet{
      "q", llvm::cl::desc("Print nothing; only the exit status tells"),
      llvm::cl::cat(category)};
  RegistryCLOptions registry{category};
};

/// Exit statuses.
constexpr int ExitEqual = 0;
constexpr int ExitDifferent = 1;
constexpr int ExitError = 2;

int reportError(llvm::Error err) {
  llvm::handleAllErrors(std::move(err), [](const llvm::ErrorInfoBase &e) {
    llvm::errs() << "pt2-diff: " << e.message() << "\n";
  });
  return ExitError;
}

/// One compared pair of programs.
struct ModuleDiff {
  std::string model;
  ProgramDiff diff;
};

} // namespace

int pt2DiffMain(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  auto registry = std::make_shared<Registry>();
  if (auto err = loadPluginsFromArgs(argc, argv, *registry))
    return reportError(std::move(err));
  DiffCLOptions opts;
  llvm::cl::HideUnrelatedOptions(opts.category);
  if (!llvm::cl::ParseCommandLineOptions(
          argc, argv,
          "pt2ir structural diff: compares two exported programs\n\n"
          "  Exit status: 0 equal, 1 different, 2 error.\n",
          &llvm::errs()))
    return ExitError;

  DiffOptions diffOptions;
  for (const std::string &word : opts.ignore)
    if (auto err = applyDiffIgnore(word, diffOptions))
      return reportError(std::move(err));

  if (auto err = applyRegistryOptions(opts.registry, *registry))
    return reportError(std::move(err));
  ReadOptions readOptions;
  readOptions.registry = registry;
  if (opts.inputA == "-" && opts.inputB == "-")
    return reportError(
        llvm::createStringError(llvm::inconvertibleErrorCode(),
                                "only one input can be standard input"));
  hintWhenReadingTerminal("pt2-diff", opts.inputA, llvm::errs());
  hintWhenReadingTerminal("pt2-diff", opts.inputB, llvm::errs());
  auto a = loadInput(opts.inputA, readOptions, opts.model);
  if (!a)
    return reportError(a.takeError());
  auto b = loadInput(opts.inputB, readOptions, opts.model);
  if (!b)
    return reportError(b.takeError());

  // Pair the programs: one each compares directly; otherwise by model name.
  std::vector<std::pair<const LoadedProgram *, const LoadedProgram *>> pairs;
  std::vector<std::string> onlyInA, onlyInB;
  if (a->programs.size() == 1 && b->programs.size() == 1) {
    pairs.emplace_back(&a->programs[0], &b->programs[0]);
  } else {
    for (const LoadedProgram &pa : a->programs) {
      const LoadedProgram *match = nullptr;
      for (const LoadedProgram &pb : b->programs)
        if (pb.modelName == pa.modelName)
          match = &pb;
      if (match)
        pairs.emplace_back(&pa, match);
      else
        onlyInA.push_back(pa.modelName);
    }
    for (const LoadedProgram &pb : b->programs)
      if (llvm::none_of(a->programs, [&](const LoadedProgram &pa) {
            return pa.modelName == pb.modelName;
          }))
        onlyInB.push_back(pb.modelName);
  }

  uint64_t totalNodes = 0;
  for (auto &[pa, pb] : pairs)
    totalNodes += pa->program.getGraph().size() + pb->program.getGraph().size();
  Progress progress("comparing", totalNodes);
  uint64_t doneBefore = 0;
  diffOptions.onProgress = [&](uint64_t done, uint64_t) {
    progress.update(doneBefore + done);
  };

  std::vector<ModuleDiff> results;
  for (auto &[pa, pb] : pairs) {
    results.push_back({pb->modelName.empty() ? pa->modelName : pb->modelName,
                       diffPrograms(pa->program, pb->program, diffOptions)});
    doneBefore += pa->program.getGraph().size() + pb->program.getGraph().size();
  }
  progress.finish();

  bool equal = onlyInA.empty() && onlyInB.empty() &&
               llvm::all_of(results, [](const ModuleDiff &m) {
                 return m.diff.isEqual();
               });
  if (opts.quiet)
    return equal ? ExitEqual : ExitDifferent;

  llvm::raw_ostream &os = llvm::outs();
  if (opts.format == DiffFormat::Json) {
    llvm::json::Array models;
    for (const ModuleDiff &m : results) {
      llvm::json::Value value = diffToJson(m.diff);
      value.getAsObject()->try_emplace("model", m.model);
      models.push_back(std::move(value));
    }
    llvm::json::Object root{{"a", opts.inputA.getValue()},
                            {"b", opts.inputB.getValue()},
                            {"equal", equal},
                            {"models", std::move(models)},
                            {"only_in_a", llvm::json::Array(onlyInA)},
                            {"only_in_b", llvm::json::Array(onlyInB)}};
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
    return equal ? ExitEqual : ExitDifferent;
  }

  os << "--- " << opts.inputA << "\n+++ " << opts.inputB << "\n";
  for (const std::string &name : onlyInA)
    os << "model " << name << ": only in " << opts.inputA << "\n";
  for (const std::string &name : onlyInB)
    os << "model " << name << ": only in " << opts.inputB << "\n";
  bool headers = results.size() > 1 || !onlyInA.empty() || !onlyInB.empty();
  for (const ModuleDiff &m : results) {
    if (headers)
      os << "model " << m.model << ":\n";
    printDiffText(os, m.diff);
  }
  return equal ? ExitEqual : ExitDifferent;
}

} // namespace pt2ir
