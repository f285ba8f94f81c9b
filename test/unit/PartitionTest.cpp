//===- PartitionTest.cpp - Tests for the partition pass -------------------===//
//
// Checks the partitions on random graphs against brute force: every
// supported node is in exactly one partition, each partition is connected
// and convex (no path leaves it and comes back), and no two partitions
// joined by an edge could merge without losing convexity (maximality).
//
//===----------------------------------------------------------------------===//

#include "PassTestPrograms.h"

#include "pt2ir/ir/NodeMetadata.h"
#include "pt2ir/passes/PassRegistry.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

using namespace pt2ir;
using namespace pt2ir::testing;

namespace {

struct RandomGraph {
  std::vector<std::vector<int>> preds; // -1: the graph input
  std::vector<bool> supported;
};

RandomGraph makeGraph(std::mt19937 &rng, unsigned n) {
  RandomGraph g;
  for (unsigned i = 0; i < n; ++i) {
    unsigned arity = rng() % 2 + 1;
    std::vector<int> p;
    for (unsigned k = 0; k < arity; ++k) {
      // Mostly recent producers, so chains and diamonds both appear.
      int from = i == 0 ? -1 : int(i) - 1 - int(rng() % std::min(i, 4u));
      if (rng() % 8 == 0)
        from = -1;
      p.push_back(from);
    }
    g.preds.push_back(p);
    g.supported.push_back(rng() % 3 != 0);
  }
  return g;
}

std::string toProgram(const RandomGraph &rg) {
  GraphSpec g;
  g.inputs = {"x"};
  auto name = [](int i) { return i < 0 ? std::string("x") : "n" + std::to_string(i); };
  for (size_t i = 0; i < rg.preds.size(); ++i) {
    const auto &p = rg.preds[i];
    std::string target = rg.supported[i] ? (p.size() == 2 ? "add.Tensor" : "relu.default")
                                         : (p.size() == 2 ? "mul.Tensor" : "sin.default");
    std::vector<std::pair<std::string, std::string>> inputs = {{"self", tensorArg(name(p[0]))}};
    if (p.size() == 2)
      inputs.push_back({"other", tensorArg(name(p[1]))});
    g.nodes.push_back(nodeJson("torch.ops.aten." + target, inputs,
                               {tensorArg(name(int(i)))}, name(int(i))));
    g.f32({name(int(i))});
  }
  g.f32({"x"});
  g.outputs = {name(int(rg.preds.size()) - 1)};
  return programJson(g);
}

/// True when `set` is convex: no path from it through an outside node
/// reaches it again.
bool isConvex(const RandomGraph &g, const std::set<int> &set) {
  size_t n = g.preds.size();
  std::vector<std::vector<int>> succs(n);
  for (size_t i = 0; i < n; ++i)
    for (int p : g.preds[i])
      if (p >= 0)
        succs[p].push_back(int(i));
  std::vector<bool> seen(n, false);
  std::vector<int> work;
  for (int m : set)
    for (int s : succs[m])
      if (!set.count(s) && !seen[s]) {
        seen[s] = true;
        work.push_back(s);
      }
  while (!work.empty()) {
    int v = work.back();
    work.pop_back();
    for (int s : succs[v]) {
      if (set.count(s))
        return false;
      if (!seen[s]) {
        seen[s] = true;
        work.push_back(s);
      }
    }
  }
  return true;
}

TEST(PartitionTest, PartitionsAreConnectedConvexAndMaximal) {
  llvm::SmallString<128> supported;
  int fd;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("supported", "txt", fd, supported));
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << "aten.relu.*\naten.add.*\n";
  }
  std::mt19937 rng(1234);
  for (unsigned round = 0; round < 60; ++round) {
    RandomGraph rg = makeGraph(rng, 6 + round % 20);
    ExportedProgram ep = readOrFail(toProgram(rg));
    auto pass = createPass(*Registry::getDefault(), "partition",
                           {{"supported", std::string(supported)}, {"name", "p"}});
    ASSERT_TRUE(bool(pass)) << llvm::toString(pass.takeError());
    PassContext ctx;
    auto result = (*pass)->run(ep, ctx);
    ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());

    std::map<std::string, std::set<int>> parts;
    std::vector<std::string> tagOf(rg.preds.size());
    int i = 0;
    for (const Node &n : ep.getGraph().getNodes()) {
      if (auto custom = lookupMetadata(n.getMetadata(), "custom")) {
        auto json = llvm::json::parse(*custom);
        ASSERT_TRUE(bool(json));
        tagOf[i] = json->getAsObject()->getString("delegation_tag")->str();
        parts[tagOf[i]].insert(i);
      }
      EXPECT_EQ(!tagOf[i].empty(), bool(rg.supported[i])) << "node " << i;
      ++i;
    }
    EXPECT_EQ((*pass)->getStatistics().at("partitions"), int64_t(parts.size()));
    for (const auto &[tag, set] : parts) {
      EXPECT_TRUE(isConvex(rg, set)) << tag << " in round " << round;
      // Connected: a walk over edges inside the set reaches every member.
      std::set<int> reached = {*set.begin()};
      for (bool grew = true; grew;) {
        grew = false;
        for (int m : set)
          for (int p : rg.preds[m])
            if (p >= 0 && set.count(p) && reached.count(m) != reached.count(p)) {
              reached.insert(m);
              reached.insert(p);
              grew = true;
            }
      }
      EXPECT_EQ(reached, set) << tag << " in round " << round;
    }
    // Maximal: neighbouring partitions cannot merge.
    for (size_t m = 0; m < rg.preds.size(); ++m)
      for (int p : rg.preds[m])
        if (p >= 0 && !tagOf[m].empty() && !tagOf[p].empty() &&
            tagOf[m] != tagOf[p]) {
          std::set<int> merged = parts[tagOf[m]];
          merged.insert(parts[tagOf[p]].begin(), parts[tagOf[p]].end());
          EXPECT_FALSE(isConvex(rg, merged))
              << tagOf[m] << " and " << tagOf[p] << " could merge in round " << round;
        }
  }
  llvm::sys::fs::remove(supported);
}

} // namespace
