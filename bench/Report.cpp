//===- Report.cpp - The benchmark table and its targets -------------------===//

#include "pt2ir/bench/Report.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Format.h"
#include <algorithm>
#include <map>
#include <string>

namespace pt2ir {
namespace bench {
namespace {

constexpr double ReadWriteLimit = 1.5;
constexpr double VerifyPassLimit = 0.2;
constexpr double TextLimit = 1.0;
constexpr double LinearityLimit = 1.5;
constexpr double MemoryLimit = 2.0;
constexpr uint64_t LinearityBase = 10000;

/// The stage a stage's time is compared with, and the allowed ratio (0 when
/// the ratio is only informative).
struct Reference {
  const char *stage = nullptr;
  double limit = 0;
};

Reference referenceOf(llvm::StringRef s) {
  if (s == stage::Read)
    return {stage::RapidJsonParse, ReadWriteLimit};
  if (s == stage::Write)
    return {stage::RapidJsonWrite, ReadWriteLimit};
  // The text form is to be no slower per node than JSON.
  if (s == stage::ReadText)
    return {stage::Read, TextLimit};
  if (s == stage::WriteText)
    return {stage::Write, TextLimit};
  if (s == stage::Verify || s == stage::VerifyMeta ||
      s.starts_with(stage::PassPrefix))
    return {stage::Read, VerifyPassLimit};
  if (s == stage::OptRoundTrip || s == stage::OptPipeline)
    return {stage::Read, 0};
  return {};
}

/// Display order of the stages.
int rankOf(llvm::StringRef s) {
  if (s == stage::RapidJsonParse)
    return 0;
  if (s == stage::Read)
    return 1;
  if (s == stage::RapidJsonWrite)
    return 3;
  if (s == stage::Write)
    return 4;
  if (s == stage::ReadText)
    return 5;
  if (s == stage::WriteText)
    return 6;
  if (s == stage::Verify || s == stage::VerifyMeta)
    return 7;
  if (s.starts_with(stage::PassPrefix))
    return 8;
  if (s == stage::OptRoundTrip)
    return 9;
  if (s == stage::OptPipeline)
    return 10;
  return 11;
}

std::string fixed(double v, int decimals) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format(("%." + std::to_string(decimals) + "f").c_str(), v);
  return s;
}

std::string timeText(double seconds) {
  if (seconds >= 10)
    return fixed(seconds, 2) + " s";
  return fixed(seconds * 1e3, seconds < 0.01 ? 3 : 1) + " ms";
}

std::string megabytes(int64_t bytes) {
  if (bytes < 0)
    return "n/a";
  return fixed(static_cast<double>(bytes) / (1 << 20), 1) + " MB";
}

double nsPerNode(const StageResult &r) {
  return r.nodes ? r.seconds * 1e9 / static_cast<double>(r.nodes) : 0;
}

class Reporter {
public:
  Reporter(llvm::raw_ostream &os, const std::vector<StageResult> &results)
      : os(os), results(results) {
    for (const StageResult &r : results)
      byKey[{r.stage, r.nodes}] = &r;
  }

  bool print() {
    printTable();
    printTargets();
    return allPassed;
  }

private:
  const StageResult *find(llvm::StringRef s, uint64_t nodes) const {
    auto it = byKey.find({s.str(), nodes});
    return it == byKey.end() ? nullptr : it->second;
  }

  void row(llvm::ArrayRef<std::string> cells) {
    os << "|";
    for (const std::string &c : cells)
      os << " " << c << " |";
    os << "\n";
  }

  void printTable() {
    std::vector<const StageResult *> sorted;
    for (const StageResult &r : results)
      sorted.push_back(&r);
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const StageResult *a, const StageResult *b) {
                       int ra = rankOf(a->stage), rb = rankOf(b->stage);
                       if (ra != rb)
                         return ra < rb;
                       if (a->stage != b->stage)
                         return a->stage < b->stage;
                       return a->nodes < b->nodes;
                     });
    row({"stage", "nodes", "JSON", "time", "ns/node", "MB/s", "ratio", "target",
         "peak RSS", "note"});
    row({"---", "---:", "---:", "---:", "---:", "---:", "---:", "---",
         "---:", "---"});
    for (const StageResult *r : sorted) {
      printStageRow(*r);
      if (r->stage == stage::Read && r->loadedBytes >= 0)
        printMemoryRow(*r);
    }
  }

  void printStageRow(const StageResult &r) {
    double mbps = r.seconds > 0
                      ? static_cast<double>(r.jsonBytes) / (1 << 20) / r.seconds
                      : 0;
    std::string ratio = "", target = "";
    Reference ref = referenceOf(r.stage);
    if (ref.stage) {
      if (const StageResult *base = find(ref.stage, r.nodes);
          base && base->seconds > 0) {
        ratio = fixed(r.seconds / base->seconds, 2) + "x " + ref.stage;
        if (ref.limit > 0)
          target = "<= " + fixed(ref.limit, ref.limit < 1 ? 1 : 1) + "x";
      }
    }
    row({r.stage, std::to_string(r.nodes),
         megabytes(static_cast<int64_t>(r.jsonBytes)), timeText(r.seconds),
         fixed(nsPerNode(r), 0), fixed(mbps, 1), ratio, target,
         megabytes(r.peakRssBytes),
         r.note + " (" + std::to_string(r.runs) + " runs)"});
  }

  void printMemoryRow(const StageResult &r) {
    double ratio =
        static_cast<double>(r.loadedBytes) / static_cast<double>(r.jsonBytes);
    row({"memory (program loaded)", std::to_string(r.nodes),
         megabytes(static_cast<int64_t>(r.jsonBytes)), megabytes(r.loadedBytes),
         "", "", fixed(ratio, 2) + "x JSON",
         "<= " + fixed(MemoryLimit, 1) + "x", "", "RSS growth after read"});
  }

  void verdict(bool ok, const std::string &text) {
    allPassed &= ok;
    os << "- " << (ok ? "PASS" : "FAIL") << " " << text << "\n";
  }

  void printTargets() {
    os << "\nTargets:\n";
    uint64_t largest = 0;
    for (const StageResult &r : results)
      largest = std::max(largest, r.nodes);
    std::vector<std::string> stages;
    for (const StageResult &r : results)
      if (std::find(stages.begin(), stages.end(), r.stage) == stages.end())
        stages.push_back(r.stage);
    std::stable_sort(stages.begin(), stages.end(),
                     [](const std::string &a, const std::string &b) {
                       return rankOf(a) < rankOf(b);
                     });
    // Ratios against the baselines, at every size.
    for (const std::string &s : stages) {
      Reference ref = referenceOf(s);
      if (!ref.stage || ref.limit == 0)
        continue;
      double worst = 0;
      uint64_t worstNodes = 0;
      for (const StageResult &r : results) {
        const StageResult *base =
            r.stage == s ? find(ref.stage, r.nodes) : nullptr;
        if (!base || base->seconds <= 0)
          continue;
        double ratio = r.seconds / base->seconds;
        if (ratio > worst) {
          worst = ratio;
          worstNodes = r.nodes;
        }
      }
      if (worstNodes)
        verdict(worst <= ref.limit,
                s + " / " + ref.stage + ": worst " + fixed(worst, 2) +
                    "x (at " + std::to_string(worstNodes) + " nodes), limit " +
                    fixed(ref.limit, 1) + "x");
    }
    // Linearity: ns/node at the largest size against 10k nodes.
    if (largest > LinearityBase) {
      for (const std::string &s : stages) {
        const StageResult *small = find(s, LinearityBase),
                          *big = find(s, largest);
        if (!small || !big || nsPerNode(*small) <= 0)
          continue;
        double growth = nsPerNode(*big) / nsPerNode(*small);
        verdict(growth <= LinearityLimit,
                s + " linear: " + fixed(nsPerNode(*big), 0) + " ns/node at " +
                    std::to_string(largest) + " vs " +
                    fixed(nsPerNode(*small), 0) + " at 10000 (" +
                    fixed(growth, 2) + "x, limit " + fixed(LinearityLimit, 1) +
                    "x)");
      }
    }
    // Memory while loaded.
    for (const StageResult &r : results) {
      if (r.stage != stage::Read || r.loadedBytes < 0)
        continue;
      double ratio =
          static_cast<double>(r.loadedBytes) / static_cast<double>(r.jsonBytes);
      verdict(ratio <= MemoryLimit,
              "memory at " + std::to_string(r.nodes) +
                  " nodes: " + megabytes(r.loadedBytes) + " loaded for " +
                  megabytes(static_cast<int64_t>(r.jsonBytes)) + " of JSON (" +
                  fixed(ratio, 2) + "x, limit " + fixed(MemoryLimit, 1) + "x)");
    }
    // Everything ran.
    for (const StageResult &r : results) {
      bool failed = llvm::StringRef(r.note).starts_with("failed") ||
                    llvm::StringRef(r.note).contains("differs");
      if (failed || rankOf(r.stage) >= 7)
        verdict(!failed, r.stage + " at " + std::to_string(r.nodes) +
                             " nodes: " + r.note);
    }
  }

  llvm::raw_ostream &os;
  const std::vector<StageResult> &results;
  std::map<std::pair<std::string, uint64_t>, const StageResult *> byKey;
  bool allPassed = true;
};

} // namespace

bool printReport(llvm::raw_ostream &os,
                 const std::vector<StageResult> &results) {
  return Reporter(os, results).print();
}

} // namespace bench
} // namespace pt2ir
