//===- StructuralDiffTest.cpp - Matching and reporting of diffPrograms ----===//
//
// diffPrograms through its API: structural matching across renames and
// reordering-free insertions, duplicates matched by occurrence, the ignore
// categories, the JSON form, progress reports, and independent diffs on
// separate threads.
//
//===----------------------------------------------------------------------===//

#include "PassTestPrograms.h"

#include "pt2ir/tools/lib/StructuralDiff.h"

#include <gtest/gtest.h>

#include <thread>

using namespace pt2ir;
using namespace pt2ir::testing;

namespace {

/// x -> relu(r1) -> neg(r2) -> add(r2, 1) (r3); names configurable.
std::string chain(const std::string &r1, const std::string &r2,
                  const std::string &r3, int64_t constant = 1) {
  GraphSpec g;
  g.inputs = {"x"};
  g.nodes = {nodeJson("torch.ops.aten.relu.default", {{"self", tensorArg("x")}},
                      {tensorArg(r1)}, r1),
             nodeJson("torch.ops.aten.neg.default", {{"self", tensorArg(r1)}},
                      {tensorArg(r2)}, r2),
             nodeJson("torch.ops.aten.add.Tensor",
                      {{"self", tensorArg(r2)}, {"other", intArg(constant)}},
                      {tensorArg(r3)}, r3)};
  g.outputs = {r3};
  g.f32({"x", r1, r2, r3});
  return programJson(g);
}

TEST(StructuralDiff, EqualPrograms) {
  ExportedProgram a = readOrFail(chain("r1", "r2", "r3"));
  ExportedProgram b = readOrFail(chain("r1", "r2", "r3"));
  ProgramDiff d = diffPrograms(a, b);
  EXPECT_TRUE(d.isEqual());
  EXPECT_EQ(d.summary.unchanged, 3u);
}

TEST(StructuralDiff, RenamesMatchByStructure) {
  ExportedProgram a = readOrFail(chain("r1", "r2", "r3"));
  // Every name differs; the structure is the same.
  ExportedProgram b = readOrFail(chain("q1", "q2", "q3"));
  ProgramDiff d = diffPrograms(a, b);
  EXPECT_FALSE(d.isEqual());
  EXPECT_EQ(d.summary.renamed, 3u);
  EXPECT_EQ(d.summary.added + d.summary.removed + d.summary.changed, 0u);
  ASSERT_EQ(d.nodes.size(), 3u);
  EXPECT_EQ(d.nodes[0].nameA, "r1");
  EXPECT_EQ(d.nodes[0].nameB, "q1");
  EXPECT_TRUE(d.nodes[0].renamed);
  EXPECT_FALSE(d.nodes[0].contentChanged);
  // The renamed output is a signature change only when names count.
  EXPECT_EQ(d.signature.size(), 1u);

  DiffOptions options;
  options.ignoreNames = true;
  EXPECT_TRUE(diffPrograms(a, b, options).isEqual());
}

TEST(StructuralDiff, ChangedConstantDoesNotCascade) {
  ExportedProgram a = readOrFail(chain("r1", "r2", "r3", 1));
  ExportedProgram b = readOrFail(chain("r1", "r2", "r3", 5));
  ProgramDiff d = diffPrograms(a, b);
  EXPECT_EQ(d.summary.changed, 1u);
  EXPECT_EQ(d.summary.unchanged, 2u);
  ASSERT_EQ(d.nodes.size(), 1u);
  ASSERT_EQ(d.nodes[0].details.size(), 1u);
  EXPECT_EQ(d.nodes[0].details[0], "input 'other': 1 -> 5");
}

TEST(StructuralDiff, DuplicatesMatchByOccurrence) {
  auto twoRelus = [](const std::string &first, const std::string &second) {
    GraphSpec g;
    g.inputs = {"x"};
    g.nodes = {
        nodeJson("torch.ops.aten.relu.default", {{"self", tensorArg("x")}},
                 {tensorArg(first)}, first),
        nodeJson("torch.ops.aten.relu.default", {{"self", tensorArg("x")}},
                 {tensorArg(second)}, second),
        nodeJson("torch.ops.aten.sub.Tensor",
                 {{"self", tensorArg(first)}, {"other", tensorArg(second)}},
                 {tensorArg("d")}, "d")};
    g.outputs = {"d"};
    g.f32({"x", first, second, "d"});
    return programJson(g);
  };
  ExportedProgram a = readOrFail(twoRelus("a", "b"));
  ExportedProgram b = readOrFail(twoRelus("b", "a"));
  ProgramDiff d = diffPrograms(a, b);
  // The k-th relu pairs with the k-th relu, so `sub` is unchanged and the
  // two relus swapped names.
  EXPECT_EQ(d.summary.renamed, 2u);
  EXPECT_EQ(d.summary.unchanged, 1u);
  EXPECT_EQ(d.summary.changed, 0u);
}

TEST(StructuralDiff, AddedAndRemovedNodes) {
  GraphSpec g;
  g.inputs = {"x"};
  g.nodes = {nodeJson("torch.ops.aten.relu.default", {{"self", tensorArg("x")}},
                      {tensorArg("r")}, "r")};
  g.outputs = {"r"};
  g.f32({"x", "r"});
  GraphSpec h = g;
  h.nodes = {nodeJson("torch.ops.aten.sigmoid.default",
                      {{"self", tensorArg("x")}}, {tensorArg("s")}, "s")};
  h.outputs = {"s"};
  h.f32({"s"});
  ExportedProgram a = readOrFail(programJson(g));
  ExportedProgram b = readOrFail(programJson(h));
  ProgramDiff d = diffPrograms(a, b);
  EXPECT_EQ(d.summary.added, 1u);
  EXPECT_EQ(d.summary.removed, 1u);
  ASSERT_EQ(d.nodes.size(), 2u);
  EXPECT_EQ(d.nodes[0].kind, NodeChangeKind::Removed);
  EXPECT_EQ(d.nodes[0].textA, "%r = aten.relu.default(%x) : f32[2]");
  EXPECT_EQ(d.nodes[1].kind, NodeChangeKind::Added);
  ASSERT_EQ(d.graphOutputs.size(), 1u);
  EXPECT_EQ(d.graphOutputs[0].before, "%r");
  EXPECT_EQ(d.graphOutputs[0].after, "%s");

  llvm::json::Value json = diffToJson(d);
  const llvm::json::Object *root = json.getAsObject();
  ASSERT_TRUE(root);
  EXPECT_EQ(root->getBoolean("equal"), false);
  EXPECT_EQ(root->getObject("summary")->getInteger("added"), 1);
  EXPECT_EQ((*root->getArray("nodes"))[0].getAsObject()->getString("change"),
            "removed");
}

TEST(StructuralDiff, IgnoreWords) {
  DiffOptions options;
  EXPECT_FALSE(bool(applyDiffIgnore("names,types", options)));
  EXPECT_TRUE(options.ignoreNames);
  EXPECT_TRUE(options.ignoreTypes);
  EXPECT_FALSE(
      bool(applyDiffIgnore("stack_trace, metadata:debug_handle", options)));
  EXPECT_EQ(options.ignoreMetadataKeys,
            (std::vector<std::string>{"stack_trace", "debug_handle"}));
  llvm::Error err = applyDiffIgnore("nonsense", options);
  ASSERT_TRUE(bool(err));
  std::string message = llvm::toString(std::move(err));
  EXPECT_NE(message.find("unknown --ignore category 'nonsense'"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("range_constraints"), std::string::npos) << message;
}

TEST(StructuralDiff, ReportsProgress) {
  ExportedProgram a = readOrFail(chain("r1", "r2", "r3"));
  ExportedProgram b = readOrFail(chain("r1", "r2", "r3"));
  DiffOptions options;
  uint64_t lastDone = 0, lastTotal = 0;
  options.onProgress = [&](uint64_t done, uint64_t total) {
    lastDone = done;
    lastTotal = total;
  };
  diffPrograms(a, b, options);
  EXPECT_EQ(lastTotal, 6u);
  EXPECT_EQ(lastDone, 6u);
}

TEST(StructuralDiff, IndependentDiffsOnThreads) {
  std::vector<std::thread> threads;
  std::vector<uint64_t> renamed(4);
  for (unsigned t = 0; t < 4; ++t)
    threads.emplace_back([t, &renamed] {
      auto a = readProgram(chain("r1", "r2", "r3"));
      auto b = readProgram(chain("q1", "q2", "z" + std::to_string(t)));
      if (!a || !b) {
        ADD_FAILURE() << "unreadable test program";
        llvm::consumeError(a.takeError());
        llvm::consumeError(b.takeError());
        return;
      }
      for (int i = 0; i < 20; ++i)
        renamed[t] = diffPrograms(*a, *b).summary.renamed;
    });
  for (std::thread &t : threads)
    t.join();
  for (uint64_t r : renamed)
    EXPECT_EQ(r, 3u);
}

} // namespace
