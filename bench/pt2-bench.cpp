//===- pt2-bench.cpp - The pt2ir performance benchmark --------------------===//
//
// For each program size: generates a transformer-like program (cached in the
// work directory; generation is deterministic), measures the in-process
// stages in a fresh child process (so peak memory belongs to that size
// alone), runs the built pt2-opt on the file with --verify-roundtrip and
// with a pipeline of every registered pass, and finally prints one table
// with the targets. bench/run.sh is the one command that builds and runs it.
//
// The child modes (--generate-file, --measure-file) are how the parent runs
// work in separate processes; they are hidden from --help. By hand,
// --measure-file with --profile-stage runs one stage for a profiler (see
// docs/performance.md).
//
//===----------------------------------------------------------------------===//

#include "pt2ir/bench/BenchSupport.h"
#include "pt2ir/bench/Report.h"
#include "pt2ir/bench/Stages.h"
#include "pt2ir/bench/TransformerGenerator.h"

#include "pt2ir/bench/PassOptions.h"
#include "pt2ir/passes/PassRegistry.h"
#include "pt2ir/serde/ProgramWriter.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

using namespace pt2ir;
using namespace pt2ir::bench;

namespace {

/// Bumped whenever the generator's output changes, so cached files are
/// regenerated.
constexpr const char *GeneratorVersion = "g1";

struct BenchOptions {
  llvm::cl::OptionCategory category{"pt2-bench options"};
  llvm::cl::list<uint64_t> sizes{
      "sizes", llvm::cl::CommaSeparated,
      llvm::cl::desc("Program sizes in nodes (default "
                     "1000,10000,100000,1000000)"),
      llvm::cl::cat(category)};
  llvm::cl::opt<bool> quick{
      "quick", llvm::cl::desc("Small sizes (1000,10000,50000) and short runs"),
      llvm::cl::cat(category)};
  llvm::cl::opt<std::string> workDir{
      "work-dir", llvm::cl::desc("Where programs and logs go"),
      llvm::cl::init("/tmp/pt2ir-bench"), llvm::cl::cat(category)};
  llvm::cl::opt<std::string> pt2opt{
      "pt2-opt",
      llvm::cl::desc("The pt2-opt to run (default: the one "
                     "built beside this benchmark)"),
      llvm::cl::cat(category)};
  llvm::cl::opt<double> minTime{
      "min-time",
      llvm::cl::desc("CPU seconds each stage runs for, at least "
                     "once (default 0.5, 0.1 with --quick)"),
      llvm::cl::init(-1), llvm::cl::cat(category)};
  llvm::cl::opt<bool> skipOpt{"skip-pt2-opt",
                              llvm::cl::desc("Do not run pt2-opt"),
                              llvm::cl::cat(category)};
  llvm::cl::opt<bool> regenerate{
      "regenerate", llvm::cl::desc("Regenerate programs even when cached"),
      llvm::cl::cat(category)};
  // Child modes.
  llvm::cl::opt<std::string> generateFile{"generate-file", llvm::cl::Hidden,
                                          llvm::cl::cat(category)};
  llvm::cl::opt<uint64_t> nodes{"nodes", llvm::cl::Hidden,
                                llvm::cl::cat(category)};
  llvm::cl::opt<std::string> measureFile{"measure-file", llvm::cl::Hidden,
                                         llvm::cl::cat(category)};
  llvm::cl::opt<std::string> resultFile{"result-file", llvm::cl::Hidden,
                                        llvm::cl::cat(category)};
  // Profiling: repeat one stage on one file, nothing else.
  llvm::cl::opt<std::string> profileStage{
      "profile-stage",
      llvm::cl::desc(
          "With --measure-file: run only this stage (read, write, read-text, write-text, verify, "
          "pass:NAME, "
          "rapidjson-parse) --profile-runs times, for perf or callgrind"),
      llvm::cl::cat(category)};
  llvm::cl::opt<unsigned> profileRuns{"profile-runs", llvm::cl::init(1),
                                      llvm::cl::cat(category)};
};

int fail(const llvm::Twine &msg) {
  llvm::errs() << "pt2-bench: error: " << msg << "\n";
  return 1;
}

int generateChild(const std::string &path, uint64_t nodes) {
  GeneratorOptions options;
  options.numNodes = nodes;
  auto program = generateTransformer(options);
  if (!program)
    return fail(llvm::toString(program.takeError()));
  std::string json = writeProgram(*program);
  if (auto err = writeFileAtomically(path, json))
    return fail(llvm::toString(std::move(err)));
  return 0;
}

int measureChild(const std::string &path, const std::string &resultPath,
                 double minTime) {
  MeasureOptions options;
  options.minSeconds = minTime;
  auto results = measureFile(path, options);
  if (!results)
    return fail(llvm::toString(results.takeError()));
  std::string text;
  for (const StageResult &r : *results)
    text += formatStageResult(r) + "\n";
  if (auto err = writeFileAtomically(resultPath, text))
    return fail(llvm::toString(std::move(err)));
  return 0;
}

std::string readText(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

/// A line describing the machine: CPU model, cores, memory.
std::string machineDescription() {
  std::string cpu = "unknown CPU";
  unsigned cores = 0;
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    llvm::StringRef l(line);
    if (l.starts_with("model name")) {
      cpu = l.split(':').second.trim().str();
      ++cores;
    }
  }
  std::string memory;
  std::ifstream meminfo("/proc/meminfo");
  for (std::string line; std::getline(meminfo, line);) {
    llvm::StringRef l(line);
    uint64_t kb = 0;
    if (l.consume_front("MemTotal:") &&
        !l.trim().split(' ').first.getAsInteger(10, kb))
      memory = std::to_string((kb + (1 << 19)) >> 20) + " GB";
  }
  return cpu + ", " + std::to_string(cores) + " cores, " + memory + " RAM";
}

class Driver {
public:
  explicit Driver(const BenchOptions &o) : o(o) {}
  int run();

private:
  bool ensureProgram(uint64_t nodes, const std::string &path);
  bool measure(uint64_t nodes, const std::string &path);
  void runOpt(uint64_t nodes, const std::string &path, const char *stageName,
              std::vector<std::string> extraArgs);

  const BenchOptions &o;
  std::string self = selfExecutablePath();
  std::string optPath;
  double minTime = 0.5;
  std::vector<StageResult> results;
};

bool Driver::ensureProgram(uint64_t nodes, const std::string &path) {
  if (!o.regenerate && llvm::sys::fs::exists(path))
    return true;
  llvm::errs() << "  generating " << path << "\n";
  ChildResult r = runChild(
      {self, "--generate-file=" + path, "--nodes=" + std::to_string(nodes)},
      path + ".log");
  if (r.exitCode != 0) {
    fail("generating " + path + " failed; see " + path + ".log");
    return false;
  }
  llvm::errs() << "  generated in " << llvm::format("%.1f", r.wallSeconds)
               << " s\n";
  return true;
}

bool Driver::measure(uint64_t nodes, const std::string &path) {
  std::string resultPath = path + ".results.tsv";
  llvm::sys::fs::remove(resultPath);
  llvm::errs() << "  measuring in-process stages\n";
  ChildResult r =
      runChild({self, "--measure-file=" + path, "--result-file=" + resultPath,
                "--min-time=" + std::to_string(minTime)},
               path + ".measure.log");
  if (r.exitCode != 0) {
    fail("measuring " + path + " failed; see " + path + ".measure.log");
    return false;
  }
  llvm::SmallVector<llvm::StringRef, 32> lines;
  std::string text = readText(resultPath);
  llvm::StringRef(text).split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef line : lines) {
    StageResult sr;
    if (parseStageResult(line, sr))
      results.push_back(sr);
  }
  return true;
}

void Driver::runOpt(uint64_t nodes, const std::string &path,
                    const char *stageName, std::vector<std::string> extraArgs) {
  std::string out = path + ".opt-out.json";
  std::string log = path + ".opt.log";
  llvm::sys::fs::remove(log);
  std::vector<std::string> argv = {optPath, path};
  argv.insert(argv.end(), extraArgs.begin(), extraArgs.end());
  argv.push_back("-o");
  argv.push_back(out);
  llvm::errs() << "  " << stageName << "\n";
  ChildResult r = runChild(argv, log);
  uint64_t size = 0;
  llvm::sys::fs::file_size(path, size);
  StageResult sr;
  sr.stage = stageName;
  sr.nodes = nodes;
  sr.jsonBytes = size;
  sr.seconds = r.cpuSeconds;
  sr.runs = 1;
  sr.peakRssBytes = r.peakRssBytes;
  std::string logText = readText(log);
  if (r.exitCode != 0) {
    llvm::StringRef first = llvm::StringRef(logText).split('\n').first;
    sr.note = "failed (exit " + std::to_string(r.exitCode) +
              "): " + first.take_front(160).str();
  } else {
    sr.note = "ok, wall " +
              std::to_string(static_cast<int>(r.wallSeconds * 1000)) + " ms";
    if (llvm::StringRef(logText).contains("round trip exact"))
      sr.note += ", round trip exact";
  }
  results.push_back(sr);
  llvm::sys::fs::remove(out);
}

int Driver::run() {
  std::vector<uint64_t> sizes(o.sizes.begin(), o.sizes.end());
  if (sizes.empty())
    sizes = o.quick ? std::vector<uint64_t>{1000, 10000, 50000}
                    : std::vector<uint64_t>{1000, 10000, 100000, 1000000};
  minTime = o.minTime >= 0 ? double(o.minTime) : o.quick ? 0.1 : 0.5;
  optPath = o.pt2opt;
  if (optPath.empty()) {
    llvm::SmallString<256> p(self);
    llvm::sys::path::remove_filename(p); // bench/
    llvm::sys::path::remove_filename(p); // build root
    llvm::sys::path::append(p, "tools", "pt2-opt");
    optPath = std::string(p);
  }
  if (auto ec = llvm::sys::fs::create_directories(o.workDir))
    return fail("cannot create " + o.workDir + ": " + ec.message());

  std::string pipeline;
  for (const PassInfo &info : getBuiltinPasses()) {
    auto element = benchPipelineElement(info.name);
    if (!element)
      return fail(llvm::toString(element.takeError()));
    pipeline += (pipeline.empty() ? "" : ",") + *element;
  }

  for (uint64_t n : sizes) {
    if (n < MinNodes)
      return fail("sizes must be at least " + llvm::Twine(MinNodes) + " nodes");
    std::string path = o.workDir + "/transformer-" + GeneratorVersion + "-" +
                       std::to_string(n) + ".json";
    llvm::errs() << "[" << n << " nodes]\n";
    if (!ensureProgram(n, path) || !measure(n, path))
      return 1;
    if (o.skipOpt)
      continue;
    runOpt(n, path, stage::OptRoundTrip, {"--verify-roundtrip"});
    if (!pipeline.empty())
      runOpt(n, path, stage::OptPipeline, {"--pass-pipeline=" + pipeline});
  }

  std::time_t now = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof(date), "%Y-%m-%d %H:%M", std::localtime(&now));
  llvm::outs() << "pt2ir benchmark, " << date << "\n";
  llvm::outs() << "machine: " << machineDescription() << "\n";
  llvm::outs() << "times: best CPU time (user+system) of the runs shown, each "
                  "from a trimmed heap; peak RSS of the measuring process\n";
  const char *tunables = std::getenv("GLIBC_TUNABLES");
  llvm::outs() << "GLIBC_TUNABLES: " << (tunables ? tunables : "(unset)") << "\n";
  if (!pipeline.empty())
    llvm::outs() << "pass pipeline: " << pipeline << "\n";
  llvm::outs() << "\n";
  bool ok = printReport(llvm::outs(), results);
  llvm::outs().flush();
  return ok ? 0 : 2;
}

} // namespace

int main(int argc, char **argv) {
  BenchOptions options;
  llvm::cl::HideUnrelatedOptions(options.category);
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "pt2ir performance benchmark\n");
  if (!options.generateFile.empty())
    return generateChild(options.generateFile, options.nodes);
  if (!options.measureFile.empty() && !options.profileStage.empty()) {
    if (auto err = profileStage(options.measureFile, options.profileStage,
                                options.profileRuns))
      return fail(llvm::toString(std::move(err)));
    return 0;
  }
  if (!options.measureFile.empty())
    return measureChild(options.measureFile, options.resultFile,
                        options.minTime >= 0 ? double(options.minTime) : 0.5);
  return Driver(options).run();
}
