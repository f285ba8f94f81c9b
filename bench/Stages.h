//===- Stages.h - The in-process benchmark stages -----------------*- C++
//-*-===//
//
// Measures, on one program file, every stage that runs inside a process:
// the RapidJSON baselines (DOM parse with full precision, Writer dump of the
// DOM), pt2ir's read and write, the text form's write and read, the verifier, its shape and dtype check
// alone, and every registered pass (on a
// fresh copy of the program for each run). Reading also reports the memory
// the loaded program occupies.
//
// Each stage runs until it has used `minSeconds` of CPU time (at most
// `maxRuns` times, at least once); the best run counts. Results travel from
// the measuring child to the reporting parent as tab-separated lines.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_BENCH_STAGES_H
#define PT2IR_BENCH_STAGES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>
#include <vector>

namespace pt2ir {
namespace bench {

/// Stage names shared by the measuring and the reporting side.
namespace stage {
constexpr const char *RapidJsonParse = "rapidjson-parse";
constexpr const char *RapidJsonWrite = "rapidjson-write";
constexpr const char *Read = "read";
constexpr const char *Write = "write";
/// The text form (text/): printing the whole program, and parsing it.
constexpr const char *WriteText = "write-text";
constexpr const char *ReadText = "read-text";
constexpr const char *Verify = "verify";
/// The shape and dtype check alone (infer::checkProgram: what the
/// verifier's meta-mismatch rule does, without reporting).
constexpr const char *VerifyMeta = "verify-meta";
/// Registered passes appear as `pass:<registry name>`.
constexpr const char *PassPrefix = "pass:";
constexpr const char *OptRoundTrip = "pt2-opt --verify-roundtrip";
constexpr const char *OptPipeline = "pt2-opt all passes";
} // namespace stage

struct StageResult {
  std::string stage;
  uint64_t nodes = 0;
  /// Size of the program's JSON text.
  uint64_t jsonBytes = 0;
  /// Best CPU time of one run, in seconds.
  double seconds = 0;
  unsigned runs = 0;
  /// Peak resident set size of the process during the stage; -1 if unknown.
  int64_t peakRssBytes = -1;
  /// For `read`: RSS growth that stays while the program is loaded; else -1.
  int64_t loadedBytes = -1;
  /// `ok`, or what went wrong / what is worth knowing.
  std::string note = "ok";
};

struct MeasureOptions {
  double minSeconds = 0.5;
  unsigned maxRuns = 30;
};

/// Measures every in-process stage on the program at `path`.
llvm::Expected<std::vector<StageResult>>
measureFile(llvm::StringRef path, const MeasureOptions &options);

/// Runs one stage (`read`, `write`, `verify`, `rapidjson-parse`) `runs`
/// times on the program at `path` and nothing else, for profilers.
llvm::Error profileStage(llvm::StringRef path, llvm::StringRef stageName,
                         unsigned runs);

/// One result as a tab-separated line (no newline), and back.
std::string formatStageResult(const StageResult &r);
bool parseStageResult(llvm::StringRef line, StageResult &r);

} // namespace bench
} // namespace pt2ir

#endif
