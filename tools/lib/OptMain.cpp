//===- OptMain.cpp - pt2-opt driver ---------------------------------------===//
//
// Reads a program (JSON or a .pt2 archive), optionally runs passes and the
// verifier, and writes it back as JSON, an archive or the readable text form.
// Mirrors mlir-opt: the logic is here, tools/pt2-opt.cpp only calls
// pt2OptMain. When stderr is a terminal, a progress line names the stage a
// long run is in (reading, verifying, writing); it is erased before any
// message and before output goes to stdout.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/tools/lib/OptMain.h"
#include "pt2ir/tools/lib/DotEmitter.h"
#include "pt2ir/tools/lib/MetaRuleTable.h"
#include "pt2ir/tools/lib/PassPipelineOptions.h"
#include "pt2ir/tools/lib/Progress.h"
#include "pt2ir/tools/lib/ProgramIO.h"
#include "pt2ir/tools/lib/PythonEmitter.h"
#include "pt2ir/tools/lib/Stats.h"
#include "pt2ir/tools/lib/VerifierOptions.h"
#include "pt2ir/tools/lib/RegistryOptions.h"
#include "pt2ir/tools/lib/RoundTrip.h"

#include "pt2ir/ir/Printer.h"
#include "pt2ir/ir/UnbackedBindings.h"
#include "pt2ir/serde/ProgramReader.h"
#include "pt2ir/serde/ProgramWriter.h"
#include "pt2ir/text/TextFormat.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

namespace pt2ir {

namespace {
enum class EmitKind { Json, Text, Listing, Python, Dot };

struct OptOptions {
  /// `registry` has the plugins loaded already, so their passes get flags.
  explicit OptOptions(const Registry &registry) : passes(category, registry) {}

  llvm::cl::OptionCategory category{"pt2-opt options"};
  llvm::cl::opt<std::string> input{llvm::cl::Positional,
                                   llvm::cl::desc("<input program: .json, .pt2, .pt2ir (text), or - for stdin>"),
                                   llvm::cl::init("-"), llvm::cl::cat(category)};
  llvm::cl::opt<std::string> output{"o", llvm::cl::desc("Output file (default: stdout); a .pt2 name writes an archive, a .pt2ir name the text form"),
                                    llvm::cl::value_desc("file"), llvm::cl::init("-"), llvm::cl::cat(category)};
  llvm::cl::opt<EmitKind> emit{
      "emit", llvm::cl::desc("Output format"), llvm::cl::init(EmitKind::Json),
      llvm::cl::values(clEnumValN(EmitKind::Json, "json", "the serialized JSON program (default)"),
                       clEnumValN(EmitKind::Text, "text",
                                  "the text form, which pt2-opt reads back (metadata with --print-metadata)"),
                       clEnumValN(EmitKind::Listing, "listing",
                                  "the short listing of earlier releases (not read back)"),
                       clEnumValN(EmitKind::Python, "python", "the program as torch-style Python"),
                       clEnumValN(EmitKind::Dot, "dot", "a Graphviz picture")),
      llvm::cl::cat(category)};
  llvm::cl::opt<std::string> model{"model", llvm::cl::desc("Process only this model of a .pt2 archive"),
                                   llvm::cl::value_desc("name"), llvm::cl::cat(category)};
  llvm::cl::opt<bool> list{"list", llvm::cl::desc("List what a .pt2 archive holds and exit"),
                           llvm::cl::cat(category)};
  llvm::cl::opt<bool> listMetaRules{
      "list-meta-rules",
      llvm::cl::desc("Print the table of shape and dtype inference rules "
                     "(docs/meta-rules.md, Markdown) and exit"),
      llvm::cl::cat(category)};
  RegistryCLOptions registry{category};
  llvm::cl::opt<bool> stats{"stats", llvm::cl::desc("Print statistics instead of the program"),
                            llvm::cl::cat(category)};
  llvm::cl::opt<StatsFormat> statsFormat{
      "stats-format", llvm::cl::desc("Format of --stats"), llvm::cl::init(StatsFormat::Text),
      llvm::cl::values(clEnumValN(StatsFormat::Text, "text", "a readable report (default)"),
                       clEnumValN(StatsFormat::Json, "json", "JSON")),
      llvm::cl::cat(category)};
  llvm::cl::opt<bool> printMetadata{"print-metadata",
                                    llvm::cl::desc("Show node metadata in text, python and dot output"),
                                    llvm::cl::cat(category)};
  VerifierCLOptions verifier{category};
  PassCLOptions passes;
  llvm::cl::opt<bool> verifyRoundTrip{
      "verify-roundtrip",
      llvm::cl::desc("Write, read back and compare in memory and as bytes; fail on any difference"),
      llvm::cl::cat(category)};
};
} // namespace

static int reportError(llvm::Error err) {
  llvm::handleAllErrors(std::move(err), [](const llvm::ErrorInfoBase &e) {
    llvm::errs() << e.message() << "\n";
  });
  return 1;
}

/// Says what --verify-roundtrip compared, and whether the output reproduces
/// the input bytes exactly. A difference from the input is not an error:
/// legacy forms are normalized on the first write, and passes change the
/// program.
static void reportInputComparison(llvm::StringRef written,
                                  llvm::StringRef input, llvm::StringRef name,
                                  bool passesRan) {
  if (written == input) {
    llvm::errs() << name << ": round trip exact: " << written.size()
                 << " bytes written, identical to the input\n";
    return;
  }
  std::string where = firstJsonDifference(written, input);
  if (where.empty())
    where = "the byte level (formatting)";
  if (passesRan) {
    llvm::errs()
        << name << ": round trip exact: the program after the passes ("
        << written.size()
        << " bytes) reads back unchanged; it differs from the input at "
        << where << " (changed by the passes or normalized on write)\n";
    return;
  }
  llvm::errs() << name
               << ": round trip stable; the output differs from the input at "
               << where << " (normalized on write)\n";
}

/// Inputs at least this big show the reading stage at once.
static constexpr uint64_t BigInputBytes = uint64_t(16) << 20;

/// LLVM's own `-stats` (its statistics counters) would clash with ours.
static void removeLLVMStatsOption() {
  auto &registered = llvm::cl::getRegisteredOptions();
  for (const char *name : {"stats", "stats-json"}) {
    auto it = registered.find(name);
    if (it != registered.end())
      it->second->removeArgument();
  }
}

int pt2OptMain(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  removeLLVMStatsOption();
  // The one registry of this run: plugins first, so that their passes get
  // flags and show in --help; schema files once the flags are parsed.
  auto registry = std::make_shared<Registry>();
  if (auto err = loadPluginsFromArgs(argc, argv, *registry)) {
    llvm::errs() << "pt2-opt: " << llvm::toString(std::move(err)) << "\n";
    return 1;
  }
  OptOptions opts(*registry);
  llvm::cl::HideUnrelatedOptions(opts.category);
  llvm::cl::ParseCommandLineOptions(argc, argv, "pt2ir optimizer driver\n");

  if (opts.verifier.verifyDiagnostics && opts.verifier.noVerify) {
    llvm::errs() << "pt2-opt: error: --verify-diagnostics checks the "
                    "verifier's findings; "
                    "it cannot be combined with --no-verify\n";
    return 1;
  }
  if (opts.listMetaRules) {
    printMetaRuleTable(llvm::outs(), *registry);
    return 0;
  }
  if (opts.list) {
    if (auto err = listArchive(opts.input, llvm::outs()))
      return reportError(std::move(err));
    return 0;
  }

  // Stages of the run, drawn only on a terminal and only when slow; every
  // message goes through `fail` or `diagnostics`, which erase the line first.
  Progress progress("pt2-opt", 0);
  auto fail = [&](llvm::Error err) {
    progress.finish();
    return reportError(std::move(err));
  };
  ProgressAwareStream diagnostics(progress, llvm::errs());

  if (auto err = applyRegistryOptions(opts.registry, *registry))
    return fail(std::move(err));
  ReadOptions readOptions;
  readOptions.registry = registry;

  hintWhenReadingTerminal("pt2-opt", opts.input, llvm::errs());
  uint64_t inputSize = 0;
  if (opts.input == "-")
    progress.setStage("reading standard input");
  else if (!llvm::sys::fs::file_size(opts.input, inputSize))
    progress.setStage("reading " + opts.input + " (" + Progress::formatBytes(inputSize) + ")");
  else
    progress.setStage("reading " + opts.input);
  // Reading reports no progress of its own: say at once that a big input is
  // being read.
  if (inputSize >= BigInputBytes)
    progress.show();
  auto input = loadInput(opts.input, readOptions, opts.model);
  if (!input)
    return fail(input.takeError());

  // Verify every program before anything interprets one, so that a bad
  // expression or name is reported with its JSON path and rule, and an
  // archive's findings are all reported, not only the first model's.
  // With --verify-diagnostics, a program whose errors were all expected
  // ends the run successfully without output, as in mlir-opt.
  VerifierVerdict verdict = VerifierVerdict::Proceed;
  for (LoadedProgram &lp : input->programs) {
    progress.setStage("verifying " + lp.displayName);
    VerifierVerdict v =
        runVerifierStage(lp.program, lp.displayName, opts.verifier, diagnostics);
    verdict = std::max(verdict, v);
  }
  if (verdict != VerifierVerdict::Proceed) {
    progress.finish();
    return verdict == VerifierVerdict::StopFailure ? 1 : 0;
  }
  // Passes and round-trip checks print on stderr themselves.
  progress.clear();

  bool passesRan = false;
  if (auto config = opts.passes.getConfig())
    passesRan = !config->pipeline.empty();
  else
    llvm::consumeError(config.takeError()); // reported when the passes run
  for (LoadedProgram &lp : input->programs) {
    // Unbacked-symbol bindings are not stored in JSON: recompute them.
    if (auto err = recomputeUnbackedBindings(lp.program))
      return fail(llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: error: %s",
                                          lp.displayName.c_str(),
                                          llvm::toString(std::move(err)).c_str()));
    VerifyOptions verifyOptions = makeVerifyOptions(opts.verifier);
    VerifyHook hook = opts.verifier.noVerify ? VerifyHook() : makeVerifierHook(lp.displayName, verifyOptions);
    if (auto err = runPassPipelineFromCL(lp.program, lp.displayName, opts.passes, hook))
      return fail(std::move(err));
    if (!opts.verifyRoundTrip)
      continue;
    if (auto err = verifyRoundTrip(lp.program, lp.displayName))
      return fail(std::move(err));
    reportInputComparison(writeProgram(lp.program), lp.inputBytes(),
                          lp.displayName, passesRan);
  }
  // The program owns its strings: the input bytes are not needed any more.
  for (LoadedProgram &lp : input->programs)
    lp.input.reset();
  progress.setStage(opts.output == "-" ? std::string("writing standard output") : "writing " + opts.output);
  // `-o FILE.pt2ir` writes the whole text form, metadata included.
  bool textFile = llvm::StringRef(opts.output).ends_with(".pt2ir") &&
                  (opts.emit == EmitKind::Json || opts.emit == EmitKind::Text);
  if (opts.stats || opts.emit != EmitKind::Json || textFile) {
    std::string text;
    llvm::raw_string_ostream os(text);
    EmitOptions emitOptions;
    emitOptions.showMetadata = opts.printMetadata;
    TextPrintOptions textOptions;
    textOptions.printMetadata = opts.printMetadata;
    PrintOptions printOptions;
    printOptions.printMetadata = opts.printMetadata;
    StatsOptions statsOptions;
    statsOptions.format = opts.statsFormat;
    bool singleDocument = opts.emit == EmitKind::Dot || (opts.stats && opts.statsFormat == StatsFormat::Json);
    if (singleDocument && input->programs.size() > 1)
      return fail(llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "%s: error: the archive holds %zu models; pick one with --model NAME for this output",
          input->path.c_str(), input->programs.size()));
    for (const LoadedProgram &lp : input->programs) {
      bool header = !singleDocument && !lp.modelName.empty();
      if (header)
        os << (opts.emit == EmitKind::Python && !opts.stats ? "# model: " : "// model: ") << lp.modelName << "\n";
      if (opts.stats)
        emitStats(os, lp.program, statsOptions);
      else if (textFile)
        printProgramText(os, lp.program);
      else if (opts.emit == EmitKind::Text)
        printProgramText(os, lp.program, textOptions);
      else if (opts.emit == EmitKind::Listing)
        printProgram(os, lp.program, printOptions);
      else if (opts.emit == EmitKind::Python)
        emitPython(os, lp.program, emitOptions);
      else
        emitDot(os, lp.program, emitOptions);
    }
    progress.finish();
    if (auto err = writeFileAtomically(opts.output, text))
      return reportError(std::move(err));
    return 0;
  }

  llvm::Error err = writeProgramsOutput(opts.output, *input);
  progress.finish();
  if (err)
    return reportError(std::move(err));
  return 0;
}

} // namespace pt2ir
