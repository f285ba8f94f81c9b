//===- SerdeFidelityTest.cpp - Metadata, symbolic ops, versions -----------===//

#include "pt2ir/ir/NodeMetadata.h"
#include "pt2ir/ir/SymbolicOps.h"
#include "pt2ir/serde/ProgramReader.h"
#include "pt2ir/serde/ProgramWriter.h"

#include "llvm/Support/MemoryBuffer.h"
#include <gtest/gtest.h>

using namespace pt2ir;

namespace {

std::string corpus(const char *name) {
  auto buf = llvm::MemoryBuffer::getFile(std::string(PT2IR_TEST_DIR) + "/corpus/" + name);
  EXPECT_TRUE(bool(buf));
  return (*buf)->getBuffer().str();
}

TEST(NnModuleStack, SplitsCommasOnlyOutsideBrackets) {
  auto stack = parseNnModuleStack(
      "L__self__,,torch.nn.Sequential;L__self___layers_1,layers[(1)],a.B;"
      "getattr(L['fn'], '0'),getattr(L['fn'], '0'),c:[22]");
  ASSERT_TRUE(bool(stack)) << llvm::toString(stack.takeError());
  ASSERT_EQ(stack->entries.size(), 3u);
  EXPECT_EQ(stack->entries[0].path, "");
  EXPECT_EQ(stack->entries[1].path, "layers[(1)]");
  EXPECT_EQ(stack->entries[2].key, "getattr(L['fn'], '0')");
  EXPECT_EQ(stack->entries[2].type, "c:[22]");
  EXPECT_EQ(stack->encoding, NnModuleStack::Encoding::Text);
}

TEST(NnModuleStack, TextEncodingFormatsBackIdentically) {
  std::string text = "L__self__,,torch.nn.modules.container.Sequential;L__self___body_0,body.0,"
                     "torch.nn.modules.linear.Linear";
  auto stack = parseNnModuleStack(text);
  ASSERT_TRUE(bool(stack));
  EXPECT_EQ(formatNnModuleStack(*stack), text);
}

TEST(NnModuleStack, JsonEncodingIsReadAndWrittenBackAsJson) {
  std::string text = "{\"key_list\": [\"L__self__\", \"L__self___fc\"], \"path_list\": [\"\", \"fc\"], "
                     "\"type_list\": [\"M\", \"torch.nn.Linear\"]}";
  auto stack = parseNnModuleStack(text);
  ASSERT_TRUE(bool(stack)) << llvm::toString(stack.takeError());
  EXPECT_EQ(stack->encoding, NnModuleStack::Encoding::JsonObject);
  ASSERT_EQ(stack->entries.size(), 2u);
  EXPECT_EQ(stack->entries[1].type, "torch.nn.Linear");
  EXPECT_EQ(formatNnModuleStack(*stack), text);
}

TEST(NnModuleStack, MalformedEntryIsAnError) {
  auto stack = parseNnModuleStack("a,b");
  ASSERT_FALSE(bool(stack));
  EXPECT_EQ(llvm::toString(stack.takeError()),
            "malformed nn_module_stack metadata: entry 0 ('a,b') has 2 comma-separated parts, expected 3 "
            "(key,path,type)");
}

TEST(SourceFnStack, ParsesAndFormats) {
  auto entries = parseSourceFnStack("linear,torch.nn.modules.linear.Linear;add,_operator.add");
  ASSERT_TRUE(bool(entries));
  ASSERT_EQ(entries->size(), 2u);
  EXPECT_EQ((*entries)[1].target, "_operator.add");
  EXPECT_EQ(formatSourceFnStack(*entries), "linear,torch.nn.modules.linear.Linear;add,_operator.add");
  EXPECT_FALSE(bool(parseSourceFnStack("nocomma")));
}

TEST(TorchFn, Parses) {
  auto fn = parseTorchFn("linear_1;builtin_function_or_method.linear");
  ASSERT_TRUE(bool(fn));
  EXPECT_EQ(fn->name, "linear_1");
  EXPECT_EQ(fn->function, "builtin_function_or_method.linear");
  EXPECT_FALSE(bool(parseTorchFn("no-separator")));
}

TEST(Metadata, CustomQuantizationTagAndExactRoundTrip) {
  std::string text = corpus("cnn.json");
  auto ep = readProgram(text);
  ASSERT_TRUE(bool(ep)) << llvm::toString(ep.takeError());
  // cnn.json carries node-level `custom` metadata.
  bool sawCustom = false;
  for (const Node &n : ep->getGraph().getNodes())
    if (auto custom = lookupMetadata(n.getMetadata(), "custom")) {
      sawCustom = true;
      EXPECT_TRUE(bool(parseJsonMetadata(*custom)));
    }
  EXPECT_TRUE(sawCustom);
  EXPECT_FALSE(ep->graphModule.metadata.empty());
  // Metadata survives a clone exactly.
  ExportedProgram copy = ep->clone();
  EXPECT_EQ(writeProgram(copy), text);
}

TEST(Metadata, CopyProvenanceKeepsExistingEntries) {
  auto ep = readProgram(corpus("mlp.json"));
  ASSERT_TRUE(bool(ep));
  const Node &first = ep->getGraph().getNodes().front();
  StringPairs target{{"stack_trace", "mine"}};
  copyProvenanceMetadata(first, target);
  EXPECT_EQ(*lookupMetadata(target, "stack_trace"), "mine");
  EXPECT_EQ(*lookupMetadata(target, "nn_module_stack"), *lookupMetadata(first.getMetadata(), "nn_module_stack"));
}

TEST(SymbolicOps, ByTargetOrByValue) {
  EXPECT_TRUE(isSymbolicOpTarget("_operator.eq"));
  EXPECT_TRUE(isSymbolicOpTarget("torch.sym_sum"));
  EXPECT_TRUE(isSymbolicOpTarget("math.trunc"));
  EXPECT_FALSE(isSymbolicOpTarget("_operator.getitem"));
  EXPECT_FALSE(isSymbolicOpTarget("torch.ops.aten.sym_size.int"));
  auto ep = readProgram(corpus("dyn_mlp.json"));
  ASSERT_TRUE(bool(ep));
  unsigned byValueOnly = 0, byTarget = 0;
  for (const Node &n : ep->getGraph().getNodes()) {
    if (n.getTarget() == "torch.ops.aten.sym_size.int") {
      EXPECT_TRUE(isSymbolicOp(n));
      EXPECT_FALSE(isSymbolicOpTarget(n.getTarget()));
      ++byValueOnly;
    }
    if (isSymbolicOpTarget(n.getTarget()))
      ++byTarget;
    if (n.getTarget() == "torch.ops.aten.relu.default") {
      EXPECT_FALSE(isSymbolicOp(n));
    }
  }
  EXPECT_GT(byValueOnly, 0u);
  EXPECT_GT(byTarget, 0u);
}

std::string withMajor(const std::string &text, int major) {
  std::string out = text;
  size_t pos = out.find("\"major\": 8");
  EXPECT_NE(pos, std::string::npos);
  out.replace(pos, 10, "\"major\": " + std::to_string(major));
  return out;
}

TEST(SchemaVersion, OtherMajorIsAnErrorNamingBoth) {
  auto ep = readProgram(withMajor(corpus("mlp.json"), 9));
  ASSERT_FALSE(bool(ep));
  EXPECT_EQ(llvm::toString(ep.takeError()),
            "<input>: error: schema_version.major: unsupported schema version 9.19: this build reads schema major 8 (it "
            "writes 8.19)");
}

TEST(SchemaVersion, UpgraderReadsAFutureMajor) {
  // Pretend major 9 renamed Node.target to Node.op; the upgrader renames it back.
  std::string text = withMajor(corpus("mlp.json"), 9);
  size_t pos = 0;
  unsigned renamed = 0;
  while ((pos = text.find("\"target\": ", pos)) != std::string::npos) {
    text.replace(pos, 10, "\"op\": ");
    ++renamed;
  }
  ASSERT_GT(renamed, 0u);
  ReadOptions options;
  unsigned calls = 0;
  options.upgraders.push_back({9, "graph_module.graph.nodes[]",
                               [&](llvm::json::Value &node) -> llvm::Error {
                                 ++calls;
                                 llvm::json::Object *object = node.getAsObject();
                                 std::optional<llvm::json::Value> op;
                                 if (object)
                                   if (llvm::json::Value *found = object->get("op"))
                                     op = std::move(*found);
                                 if (!op)
                                   return llvm::createStringError(llvm::inconvertibleErrorCode(), "no op");
                                 object->erase("op");
                                 (*object)["target"] = std::move(*op);
                                 return llvm::Error::success();
                               }});
  auto ep = readProgram(text, options);
  ASSERT_TRUE(bool(ep)) << llvm::toString(ep.takeError()) << " calls=" << calls;
  EXPECT_EQ(calls, renamed);
  EXPECT_EQ(ep->schemaVersion.major, 8);
  EXPECT_EQ(ep->schemaVersion.minor, 0);
  EXPECT_EQ(ep->getGraph().getNodes().front().getTarget(), "torch.ops.aten.t.default");
}

TEST(SchemaVersion, NewerMinorIsRead) {
  std::string text = corpus("mlp.json");
  size_t pos = text.find("\"minor\": 19");
  ASSERT_NE(pos, std::string::npos);
  text.replace(pos, 11, "\"minor\": 27");
  auto ep = readProgram(text);
  ASSERT_TRUE(bool(ep)) << llvm::toString(ep.takeError());
  EXPECT_EQ(ep->schemaVersion.minor, 27);
  EXPECT_EQ(writeProgram(*ep), text);
}

} // namespace

TEST(Writer, StreamedOutputIsTheSameBytesInChunks) {
  for (const char *name : {"gpt_d2.json", "lstm.json", "ops_zoo.json"}) {
    auto ep = readProgram(corpus(name));
    ASSERT_TRUE(bool(ep)) << llvm::toString(ep.takeError());
    std::string whole = writeProgram(*ep);
    // A raw_ostream that counts how many times the writer hands it bytes.
    struct Counting : llvm::raw_ostream {
      std::string &bytes;
      unsigned writes = 0;
      explicit Counting(std::string &bytes) : bytes(bytes) { SetUnbuffered(); }
      void write_impl(const char *p, size_t n) override {
        ++writes;
        bytes.append(p, n);
      }
      uint64_t current_pos() const override { return bytes.size(); }
    };
    std::string streamed;
    Counting os(streamed);
    writeProgram(*ep, os, /*chunkBytes=*/4096);
    os.flush();
    EXPECT_EQ(streamed, whole) << name;
    EXPECT_GT(os.writes, whole.size() / 8192) << name << ": written in chunks";
  }
}
