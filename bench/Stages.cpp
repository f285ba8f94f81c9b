//===- Stages.cpp - The in-process benchmark stages -----------------------===//

#include "pt2ir/bench/Stages.h"
#include "pt2ir/bench/BenchSupport.h"
#include "pt2ir/bench/PassOptions.h"

#include "pt2ir/infer/MetaInference.h"
#include "pt2ir/passes/PassRegistry.h"
#include "pt2ir/serde/ProgramReader.h"
#include "pt2ir/serde/ProgramWriter.h"
#include "pt2ir/text/TextFormat.h"
#include "pt2ir/verifier/Verifier.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <limits>
#include <optional>

namespace pt2ir {
namespace bench {
namespace {

/// Runs `setup` (untimed) then `body` (timed) until the options are met;
/// returns the best time and sets `runs`.
template <typename Setup, typename Body>
double bestOf(const MeasureOptions &options, unsigned &runs, Setup setup,
              Body body) {
  double best = std::numeric_limits<double>::infinity();
  double total = 0;
  runs = 0;
  do {
    setup();
    // Every run starts from a trimmed heap, so small programs pay for
    // touching fresh memory as the largest (single-run) ones do.
    releaseFreeHeap();
    double start = processCpuSeconds();
    body();
    double t = processCpuSeconds() - start;
    best = std::min(best, t);
    total += t;
    ++runs;
  } while (total < options.minSeconds && runs < options.maxRuns);
  return best;
}

class FileMeasurer {
public:
  FileMeasurer(std::string json, const MeasureOptions &options)
      : json(std::move(json)), options(options) {}

  llvm::Error run(std::vector<StageResult> &results);

private:
  StageResult make(llvm::StringRef name) {
    StageResult r;
    r.stage = name.str();
    r.nodes = nodes;
    r.jsonBytes = json.size();
    return r;
  }
  llvm::Error measureRead(std::vector<StageResult> &results);
  void measureWrite(std::vector<StageResult> &results);
  void measureText(std::vector<StageResult> &results);
  void measureVerify(std::vector<StageResult> &results);
  void measureVerifyMeta(std::vector<StageResult> &results);
  void measurePasses(std::vector<StageResult> &results);
  void measureRapidJson(std::vector<StageResult> &results);

  std::string json;
  const MeasureOptions &options;
  std::optional<ExportedProgram> program;
  uint64_t nodes = 0;
};

llvm::Error FileMeasurer::measureRead(std::vector<StageResult> &results) {
  // The first read is alone in a clean heap, for the memory figures.
  releaseFreeHeap();
  int64_t base = currentRssBytes();
  bool peakOk = resetPeakRss();
  double start = processCpuSeconds();
  auto first = readProgram(json);
  double firstTime = processCpuSeconds() - start;
  if (!first)
    return first.takeError();
  int64_t peak = peakRssBytes();
  program.emplace(std::move(*first));
  releaseFreeHeap();
  int64_t loaded = currentRssBytes() - base;
  nodes = program->getGraph().size();

  StageResult r = make(stage::Read);
  unsigned runs = 0;
  double best = firstTime;
  if (firstTime < options.minSeconds) {
    std::optional<ExportedProgram> again;
    best = std::min(
        best, bestOf(
                  options, runs, [&] { again.reset(); },
                  [&] { again.emplace(llvm::cantFail(readProgram(json))); }));
  }
  r.seconds = best;
  r.runs = runs + 1;
  r.peakRssBytes = peakOk ? peak : -1;
  r.loadedBytes = loaded;
  results.push_back(r);
  return llvm::Error::success();
}

void FileMeasurer::measureWrite(std::vector<StageResult> &results) {
  StageResult r = make(stage::Write);
  std::string out;
  resetPeakRss();
  r.seconds = bestOf(
      options, r.runs, [&] { out = std::string(); },
      [&] { out = writeProgram(*program); });
  r.peakRssBytes = peakRssBytes();
  if (out != json)
    r.note = "output differs from the input bytes";
  results.push_back(r);
}

void FileMeasurer::measureText(std::vector<StageResult> &results) {
  StageResult w = make(stage::WriteText);
  std::string text;
  resetPeakRss();
  w.seconds = bestOf(
      options, w.runs, [&] { text = std::string(); },
      [&] { text = writeProgramText(*program); });
  w.peakRssBytes = peakRssBytes();
  w.note = "ok, " + std::to_string(text.size()) + " bytes of text";
  results.push_back(w);

  StageResult r = make(stage::ReadText);
  std::optional<ExportedProgram> again;
  resetPeakRss();
  r.seconds = bestOf(
      options, r.runs, [&] { again.reset(); },
      [&] { again.emplace(llvm::cantFail(readProgramText(text))); });
  r.peakRssBytes = peakRssBytes();
  if (writeProgram(*again) != writeProgram(*program))
    r.note = "the program read back writes other JSON";
  results.push_back(r);
}

void FileMeasurer::measureVerify(std::vector<StageResult> &results) {
  StageResult r = make(stage::Verify);
  std::vector<Diagnostic> diags;
  resetPeakRss();
  r.seconds = bestOf(
      options, r.runs, [&] { diags.clear(); },
      [&] { diags = verifyProgram(*program); });
  r.peakRssBytes = peakRssBytes();
  if (!diags.empty())
    r.note = std::to_string(diags.size()) +
             " findings, first: " + diags.front().rule + " " +
             diags.front().jsonPath;
  results.push_back(r);
}

void FileMeasurer::measureVerifyMeta(std::vector<StageResult> &results) {
  StageResult r = make(stage::VerifyMeta);
  infer::ProgramCheck check;
  resetPeakRss();
  r.seconds = bestOf(
      options, r.runs, [&] { check = infer::ProgramCheck(); },
      [&] { check = infer::checkProgram(*program); });
  r.peakRssBytes = peakRssBytes();
  if (check.withoutRule || check.missingInput || check.failed ||
      check.mismatches || check.undecided)
    r.note = std::to_string(check.checked) + " of " +
             std::to_string(check.nodes) + " nodes checked, " +
             std::to_string(check.mismatches + check.failed) +
             " mismatches, " + std::to_string(check.undecided) + " undecided";
  results.push_back(r);
}

void FileMeasurer::measurePasses(std::vector<StageResult> &results) {
  for (const PassInfo &info : getBuiltinPasses()) {
    StageResult r = make(std::string(stage::PassPrefix) + info.name);
    std::optional<ExportedProgram> copy;
    std::unique_ptr<Pass> pass;
    std::string failure;
    bool changed = false;
    resetPeakRss();
    r.seconds = bestOf(
        options, r.runs,
        [&] {
          copy.reset();
          copy.emplace(program->clone());
          pass = llvm::cantFail(createPass(*Registry::getDefault(), info.name,
                                           llvm::cantFail(benchPassOptions(info.name))));
        },
        [&] {
          PassContext context;
          auto result = pass->run(*copy, context);
          if (!result)
            failure = llvm::toString(result.takeError());
          else
            changed = *result;
        });
    r.peakRssBytes = peakRssBytes();
    if (!failure.empty())
      r.note = "failed: " + failure.substr(0, failure.find('\n'));
    else
      r.note = changed ? "changed" : "unchanged";
    results.push_back(r);
  }
}

void FileMeasurer::measureRapidJson(std::vector<StageResult> &results) {
  program.reset();
  releaseFreeHeap();
  StageResult parse = make(stage::RapidJsonParse);
  std::optional<rapidjson::Document> doc;
  resetPeakRss();
  parse.seconds = bestOf(
      options, parse.runs, [&] { doc.reset(); },
      [&] {
        doc.emplace();
        // The NUL-terminated overload: RapidJSON's fastest normal parse
        // (the length-taking one goes through a slower encoded stream).
        doc->Parse<rapidjson::kParseFullPrecisionFlag>(json.c_str());
      });
  parse.peakRssBytes = peakRssBytes();
  if (doc->HasParseError())
    parse.note = "parse error";
  results.push_back(parse);

  StageResult dump = make(stage::RapidJsonWrite);
  std::optional<rapidjson::StringBuffer> buffer;
  resetPeakRss();
  dump.seconds = bestOf(
      options, dump.runs, [&] { buffer.reset(); },
      [&] {
        buffer.emplace();
        rapidjson::Writer<rapidjson::StringBuffer> writer(*buffer);
        doc->Accept(writer);
      });
  dump.peakRssBytes = peakRssBytes();
  results.push_back(dump);
}

llvm::Error FileMeasurer::run(std::vector<StageResult> &results) {
  if (auto err = measureRead(results))
    return err;
  measureWrite(results);
  measureText(results);
  measureVerify(results);
  measureVerifyMeta(results);
  measurePasses(results);
  measureRapidJson(results);
  return llvm::Error::success();
}

} // namespace

llvm::Expected<std::vector<StageResult>>
measureFile(llvm::StringRef path, const MeasureOptions &options) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return llvm::createStringError(buffer.getError(), "%s: cannot read: %s",
                                   path.str().c_str(),
                                   buffer.getError().message().c_str());
  // An owned copy, so the mapping does not count as the program's memory.
  std::string json = (*buffer)->getBuffer().str();
  buffer->reset();
  std::vector<StageResult> results;
  FileMeasurer measurer(std::move(json), options);
  if (auto err = measurer.run(results))
    return err;
  return results;
}

llvm::Error profileStage(llvm::StringRef path, llvm::StringRef stageName,
                         unsigned runs) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return llvm::createStringError(buffer.getError(), "%s: cannot read",
                                   path.str().c_str());
  std::string json = (*buffer)->getBuffer().str();
  if (stageName == stage::RapidJsonParse) {
    for (unsigned i = 0; i < runs; ++i) {
      rapidjson::Document doc;
      doc.Parse<rapidjson::kParseFullPrecisionFlag>(json.c_str());
    }
    return llvm::Error::success();
  }
  bool readOnly = stageName == stage::Read;
  auto program = readProgram(json);
  if (!program)
    return program.takeError();
  std::string text = writeProgramText(*program);
  for (unsigned i = 0; i < runs; ++i) {
    if (stageName == stage::ReadText) {
      auto again = readProgramText(text);
      if (!again)
        return again.takeError();
    } else if (stageName == stage::WriteText) {
      std::string out = writeProgramText(*program);
    } else if (readOnly) {
      auto again = readProgram(json);
      if (!again)
        return again.takeError();
    } else if (stageName == stage::Write) {
      std::string out = writeProgram(*program);
    } else if (stageName == stage::Verify) {
      (void)verifyProgram(*program);
    } else if (stageName == stage::VerifyMeta) {
      (void)infer::checkProgram(*program);
    } else if (stageName.starts_with(stage::PassPrefix)) {
      llvm::StringRef passName =
          stageName.drop_front(llvm::StringRef(stage::PassPrefix).size());
      auto options = benchPassOptions(passName);
      if (!options)
        return options.takeError();
      auto pass = createPass(*Registry::getDefault(), passName, *options);
      if (!pass)
        return pass.takeError();
      ExportedProgram copy = program->clone();
      PassContext context;
      auto result = (*pass)->run(copy, context);
      if (!result)
        return result.takeError();
    } else {
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "unknown stage '%s'",
                                     stageName.str().c_str());
    }
  }
  return llvm::Error::success();
}

std::string formatStageResult(const StageResult &r) {
  std::string note = r.note;
  std::replace(note.begin(), note.end(), '\t', ' ');
  std::replace(note.begin(), note.end(), '\n', ' ');
  char seconds[64];
  std::snprintf(seconds, sizeof(seconds), "%.9g", r.seconds);
  return r.stage + "\t" + std::to_string(r.nodes) + "\t" +
         std::to_string(r.jsonBytes) + "\t" + seconds + "\t" +
         std::to_string(r.runs) + "\t" + std::to_string(r.peakRssBytes) + "\t" +
         std::to_string(r.loadedBytes) + "\t" + note;
}

bool parseStageResult(llvm::StringRef line, StageResult &r) {
  llvm::SmallVector<llvm::StringRef, 8> fields;
  line.split(fields, '\t', /*MaxSplit=*/7);
  if (fields.size() != 8)
    return false;
  r.stage = fields[0].str();
  if (fields[1].getAsInteger(10, r.nodes) ||
      fields[2].getAsInteger(10, r.jsonBytes) ||
      fields[3].getAsDouble(r.seconds) || fields[4].getAsInteger(10, r.runs) ||
      fields[5].getAsInteger(10, r.peakRssBytes) ||
      fields[6].getAsInteger(10, r.loadedBytes))
    return false;
  r.note = fields[7].str();
  return true;
}

} // namespace bench
} // namespace pt2ir
