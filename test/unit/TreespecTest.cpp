//===- TreespecTest.cpp - Treespec unit tests -----------------------------===//

#include "pt2ir/treespec/Treespec.h"
#include "pt2ir/ir/Registry.h"
#include "pt2ir/treespec/TreespecFlatten.h"
#include "pt2ir/treespec/TreespecJson.h"
#include "pt2ir/treespec/TreespecNamedtuple.h"
#include "pt2ir/treespec/TreespecRegistry.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <thread>

using namespace pt2ir;

namespace {

const char *const Leaf =
    R"({"type": null, "context": null, "children_spec": []})";

/// The `forward(x, y)` in_spec from the upstream notes.
const char *const TwoArgsSpec =
    R"([1, {"type": "builtins.tuple", "context": "null", "children_spec": [{"type": "builtins.tuple", "context": "null", "children_spec": [{"type": null, "context": null, "children_spec": []}, {"type": null, "context": null, "children_spec": []}]}, {"type": "builtins.dict", "context": "[]", "children_spec": []}]}])";

/// The `forward(x, *, mask)` in_spec from the upstream notes.
const char *const MaskKwargSpec =
    R"([1, {"type": "builtins.tuple", "context": "null", "children_spec": [{"type": "builtins.tuple", "context": "null", "children_spec": [{"type": null, "context": null, "children_spec": []}]}, {"type": "builtins.dict", "context": "[\"mask\"]", "children_spec": [{"type": null, "context": null, "children_spec": []}]}]}])";

/// Wraps `node` as a protocol-1 treespec string.
std::string wrap(const std::string &node) { return "[1, " + node + "]"; }

/// A node with a string-encoded context.
std::string node(const std::string &type, const std::string &contextJsonLiteral,
                 const std::string &children) {
  return R"({"type": ")" + type + R"(", "context": )" + contextJsonLiteral +
         R"(, "children_spec": [)" + children + "]}";
}

/// Parses `text` and expects it to fail with a message containing every
/// fragment in `fragments`.
void expectParseError(const std::string &text,
                      std::initializer_list<const char *> fragments,
                      const TreespecTypeRegistry &registry = {}) {
  llvm::Expected<TreeSpec> spec = parseTreespec(text, registry);
  ASSERT_FALSE(static_cast<bool>(spec)) << "parsed unexpectedly: " << text;
  std::string message = llvm::toString(spec.takeError());
  for (const char *fragment : fragments)
    EXPECT_NE(message.find(fragment), std::string::npos)
        << "message: " << message << "\nmissing: " << fragment;
}

/// Parses and dumps `text`, expecting the exact same bytes back.
void expectRoundTrip(const std::string &text,
                     const TreespecTypeRegistry &registry = {}) {
  llvm::Expected<TreeSpec> spec = parseTreespec(text, registry);
  ASSERT_TRUE(static_cast<bool>(spec)) << llvm::toString(spec.takeError());
  llvm::Expected<std::string> dumped = dumpTreespec(*spec, registry);
  ASSERT_TRUE(static_cast<bool>(dumped)) << llvm::toString(dumped.takeError());
  EXPECT_EQ(*dumped, text);
}

std::string errorText(llvm::Error err) {
  return llvm::toString(std::move(err));
}

template <typename T> std::string errorText(llvm::Expected<T> &value) {
  EXPECT_FALSE(static_cast<bool>(value));
  return value ? std::string() : llvm::toString(value.takeError());
}

bool contains(const std::string &haystack, const char *needle) {
  return haystack.find(needle) != std::string::npos;
}

//===----------------------------------------------------------------------===//
// Corpus
//===----------------------------------------------------------------------===//

struct CorpusSpec {
  std::string file;
  std::string text;
  bool isInSpec;
  bool isRootEntry;
  size_t userInputs;
  size_t userOutputs;
};

size_t countKinds(const rapidjson::Value &specs,
                  std::initializer_list<const char *> kinds) {
  size_t count = 0;
  for (const auto &spec : specs.GetArray())
    for (const char *kind : kinds)
      if (spec.HasMember(kind))
        ++count;
  return count;
}

std::vector<CorpusSpec> loadCorpusSpecs() {
  std::vector<CorpusSpec> specs;
  llvm::SmallString<256> dir(PT2IR_TEST_DIR);
  llvm::sys::path::append(dir, "corpus");
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    if (llvm::sys::path::extension(it->path()) != ".json")
      continue;
    auto buffer = llvm::MemoryBuffer::getFile(it->path());
    if (!buffer)
      continue;
    rapidjson::Document doc;
    doc.Parse<rapidjson::kParseFullPrecisionFlag>((*buffer)->getBufferStart(),
                                                  (*buffer)->getBufferSize());
    if (doc.HasParseError() || !doc.IsObject() ||
        !doc.HasMember("graph_module"))
      continue;
    const rapidjson::Value &gm = doc["graph_module"];
    size_t userInputs = countKinds(gm["signature"]["input_specs"],
                                   {"user_input", "constant_input"});
    size_t userOutputs =
        countKinds(gm["signature"]["output_specs"], {"user_output"});
    const rapidjson::Value &entries = gm["module_call_graph"];
    for (rapidjson::SizeType i = 0; i != entries.Size(); ++i) {
      const rapidjson::Value &signature = entries[i]["signature"];
      if (!signature.IsObject())
        continue;
      bool root = entries[i]["fqn"].GetStringLength() == 0;
      for (const char *key : {"in_spec", "out_spec"})
        specs.push_back({it->path(), signature[key].GetString(), key[0] == 'i',
                         root, userInputs, userOutputs});
    }
  }
  return specs;
}

TEST(TreespecCorpus, EverySpecRoundTripsByteIdentically) {
  std::vector<CorpusSpec> specs = loadCorpusSpecs();
  ASSERT_GE(specs.size(), 16u) << "expected in/out specs from 8 corpus files";
  TreespecTypeRegistry registry;
  for (const CorpusSpec &corpusSpec : specs) {
    SCOPED_TRACE(corpusSpec.file);
    llvm::Expected<TreeSpec> spec = parseTreespec(corpusSpec.text, registry);
    ASSERT_TRUE(static_cast<bool>(spec)) << llvm::toString(spec.takeError());
    llvm::Expected<std::string> dumped = dumpTreespec(*spec, registry);
    ASSERT_TRUE(static_cast<bool>(dumped))
        << llvm::toString(dumped.takeError());
    EXPECT_EQ(*dumped, corpusSpec.text);
    // The root signature's leaves are the program's user inputs/outputs.
    if (corpusSpec.isRootEntry) {
      EXPECT_EQ(spec->getNumLeaves(), corpusSpec.isInSpec
                                          ? corpusSpec.userInputs
                                          : corpusSpec.userOutputs);
    }
  }
}

//===----------------------------------------------------------------------===//
// Parsing and dumping
//===----------------------------------------------------------------------===//

TEST(TreespecParse, NotesExamplesRoundTripAndCountLeaves) {
  TreespecTypeRegistry registry;
  for (const char *text : {TwoArgsSpec, MaskKwargSpec})
    expectRoundTrip(text, registry);
  llvm::Expected<TreeSpec> spec = parseTreespec(MaskKwargSpec, registry);
  ASSERT_TRUE(static_cast<bool>(spec));
  EXPECT_EQ(spec->getTypeName(), "builtins.tuple");
  EXPECT_EQ(spec->getContextJson(), "null");
  ASSERT_EQ(spec->getNumChildren(), 2u);
  EXPECT_EQ(spec->getChildren()[1].getTypeName(), "builtins.dict");
  EXPECT_EQ(spec->getChildren()[1].getContextJson(), "[\"mask\"]");
  EXPECT_EQ(spec->getNumLeaves(), 2u);
  EXPECT_EQ(spec->getNumNodes(), 5u);
  EXPECT_EQ(spec->getDepth(), 3u);
}

TEST(TreespecParse, LeafRootAndStructuredContext) {
  TreespecTypeRegistry registry;
  std::string text = wrap(Leaf);
  expectRoundTrip(text, registry);
  llvm::Expected<TreeSpec> leaf = parseTreespec(text, registry);
  ASSERT_TRUE(static_cast<bool>(leaf));
  EXPECT_TRUE(leaf->isLeaf());
  EXPECT_EQ(leaf->getNumLeaves(), 1u);
  rapidjson::Document doc;
  EXPECT_TRUE(contains(errorText(parseHeldContext(*leaf, doc)), "leaf"));

  llvm::Expected<TreeSpec> spec = parseTreespec(MaskKwargSpec, registry);
  ASSERT_TRUE(static_cast<bool>(spec));
  ASSERT_FALSE(
      static_cast<bool>(parseHeldContext(spec->getChildren()[1], doc)));
  ASSERT_TRUE(doc.IsArray());
  ASSERT_EQ(doc.Size(), 1u);
  EXPECT_STREQ(doc[0].GetString(), "mask");
}

TEST(TreespecParse, InvalidUtf8IsRejected) {
  // A lone continuation byte in a dict key was accepted and dumped as the
  // escape \u00b6, which reads back as a different key (fuzz finding of
  // fuzz_treespec: parse(dump(spec)) != spec).
  expectParseError("[1, {\"type\": \"builtins.dict\", \"context\": "
                   "\"[\\\"ma\xb6k\\\"]\", \"children_spec\": [{\"type\": "
                   "null, \"context\": null, \"children_spec\": []}]}]",
                   {"treespec", "Invalid encoding"});
  for (const char *bad : {"\"\xc3\"", "\"\xed\xa0\x80\"", "\"\xf0\""})
    expectParseError(std::string("[1, {\"type\": null, \"context\": ") + bad +
                         ", \"children_spec\": []}]",
                     {"Invalid encoding"});
  // Valid UTF-8 still reads, and its dump reads back as the same spec.
  std::string valid = "[1, {\"type\": \"builtins.dict\", \"context\": "
                      "\"[\\\"ma\xc2\xb6k\\\"]\", \"children_spec\": "
                      "[{\"type\": null, \"context\": null, "
                      "\"children_spec\": []}]}]";
  llvm::Expected<TreeSpec> spec = parseTreespec(valid, {});
  ASSERT_TRUE(static_cast<bool>(spec)) << llvm::toString(spec.takeError());
  llvm::Expected<std::string> dumped = dumpTreespec(*spec, {});
  ASSERT_TRUE(static_cast<bool>(dumped)) << llvm::toString(dumped.takeError());
  llvm::Expected<TreeSpec> again = parseTreespec(*dumped, {});
  ASSERT_TRUE(static_cast<bool>(again)) << llvm::toString(again.takeError());
  EXPECT_TRUE(*again == *spec) << *dumped;
}

TEST(TreespecParse, BuiltinsRoundTrip) {
  TreespecTypeRegistry registry;
  ASSERT_FALSE(static_cast<bool>(
      registry.registerNamedtuple("mymod.Point", {"x", "y"})));
  std::string two = std::string(Leaf) + ", " + Leaf;
  const std::string cases[] = {
      wrap(node("builtins.list", "\"null\"", two)),
      wrap(node("collections.OrderedDict", R"("[\"b\", \"a\"]")", two)),
      // Non-string keys are fine: the key list is plain JSON.
      wrap(
          node("builtins.dict", R"("[1, 2.5, null, true]")", two + ", " + two)),
      wrap(node("collections.deque", "\"null\"", two)),
      wrap(node("collections.deque", "\"5\"", two)),
      wrap(node(
          "collections.defaultdict",
          R"({"default_factory_module": "builtins", "default_factory_name": "list", "dict_context": ["k", "j"]})",
          two)),
      wrap(node("collections.namedtuple", "\"mymod.Point\"", two)),
      // The namedtuple class itself as the node type.
      wrap(node("mymod.Point", "\"mymod.Point\"", two)),
      // Legacy namedtuple context carrying its own fields.
      wrap(node("collections.namedtuple",
                R"({"class_name": "old.Pair", "fields": ["a", "b"]})", two)),
      wrap(node("torch.fx.immutable_collections.immutable_list", "\"null\"",
                two)),
      wrap(node("torch.fx.immutable_collections.immutable_dict",
                R"("[\"p\", \"q\"]")", two)),
      // An empty tuple is a node, not a leaf.
      wrap(node("builtins.tuple", "\"null\"", "")),
      // Enum values inside a context are plain JSON objects.
      wrap(node(
          "builtins.dict",
          R"("[{\"__enum__\": true, \"fqn\": \"m:Color\", \"name\": \"RED\"}]")",
          Leaf)),
  };
  for (const std::string &text : cases) {
    SCOPED_TRACE(text);
    expectRoundTrip(text, registry);
  }
}

TEST(TreespecParse, EscapedKeysRoundTrip) {
  // Keys with a quote, a backslash, a non-ASCII letter, an astral code point
  // and DEL: escaped once by the inner json.dumps, again by the outer one.
  std::string text = wrap(node(
      "builtins.dict",
      R"("[\"a\\\"b\", \"c\\\\d\", \"\\u00e9\", \"\\ud83d\\ude00\", \"\\u007f\", \"e/f\"]")",
      std::string(Leaf) + ", " + Leaf + ", " + Leaf + ", " + Leaf + ", " +
          Leaf + ", " + Leaf));
  expectRoundTrip(text);
  llvm::Expected<TreeSpec> spec = parseTreespec(text, {});
  ASSERT_TRUE(static_cast<bool>(spec));
  EXPECT_EQ(spec->getContextJson(),
            R"(["a\"b", "c\\d", "\u00e9", "\ud83d\ude00", "\u007f", "e/f"])");
}

TEST(TreespecParse, IgnoresExtraKeysAndNormalisesKeyOrder) {
  TreespecTypeRegistry registry;
  std::string text =
      R"([1, {"children_spec": [{"context": null, "type": null, "children_spec": [], "extra": 1}], "context": "null", "type": "builtins.tuple"}])";
  llvm::Expected<TreeSpec> spec = parseTreespec(text, registry);
  ASSERT_TRUE(static_cast<bool>(spec)) << llvm::toString(spec.takeError());
  llvm::Expected<std::string> dumped = dumpTreespec(*spec, registry);
  ASSERT_TRUE(static_cast<bool>(dumped));
  EXPECT_EQ(*dumped, wrap(node("builtins.tuple", "\"null\"", Leaf)));
}

TEST(TreespecParse, BuildersMatchPythonOutput) {
  TreespecTypeRegistry registry;
  std::vector<TreeSpec> args;
  args.push_back(TreeSpec::leaf());
  args.push_back(TreeSpec::leaf());
  llvm::Expected<std::string> twoArgs =
      dumpTreespec(makeCallSpec(std::move(args), {}, {}), registry);
  ASSERT_TRUE(static_cast<bool>(twoArgs));
  EXPECT_EQ(*twoArgs, TwoArgsSpec);

  std::vector<TreeSpec> oneArg, mask;
  oneArg.push_back(TreeSpec::leaf());
  mask.push_back(TreeSpec::leaf());
  TreeSpec built = makeCallSpec(std::move(oneArg), {"mask"}, std::move(mask));
  llvm::Expected<std::string> maskKwarg = dumpTreespec(built, registry);
  ASSERT_TRUE(static_cast<bool>(maskKwarg));
  EXPECT_EQ(*maskKwarg, MaskKwargSpec);
  llvm::Expected<TreeSpec> parsed = parseTreespec(MaskKwargSpec, registry);
  ASSERT_TRUE(static_cast<bool>(parsed));
  EXPECT_EQ(built, *parsed);
  EXPECT_NE(built, makeTupleSpec({}));
}

TEST(TreespecParse, DepthLimit) {
  TreespecTypeRegistry registry;
  auto nested = [](unsigned levels) {
    std::string text = Leaf;
    for (unsigned i = 1; i < levels; ++i)
      text = node("builtins.list", "\"null\"", text);
    return wrap(text);
  };
  expectRoundTrip(nested(MaxTreespecDepth), registry);
  expectParseError(nested(MaxTreespecDepth + 1), {"limit of 512 levels"},
                   registry);
  // Raw nesting far beyond any cap fails cleanly rather than overflowing.
  std::string deep(200000, '[');
  expectParseError(deep, {"nesting exceeds the limit"}, registry);

  TreeSpec tall;
  for (unsigned i = 1; i <= MaxTreespecDepth; ++i) {
    std::vector<TreeSpec> children;
    children.push_back(std::move(tall));
    tall = makeListSpec(std::move(children));
  }
  EXPECT_EQ(tall.getDepth(), MaxTreespecDepth + 1);
  llvm::Expected<std::string> dumped = dumpTreespec(tall, registry);
  EXPECT_TRUE(contains(errorText(dumped), "more than the limit of 512"));
}

TEST(TreespecParse, MutatedInputsFailCleanlyOrRoundTrip) {
  // Every single-byte substitution of a spec either fails with an error or
  // yields a spec whose dump is a fixed point of parse-then-dump.
  TreespecTypeRegistry registry;
  ASSERT_FALSE(static_cast<bool>(
      registry.registerNamedtuple("mymod.Point", {"x", "y"})));
  std::string seed = wrap(node("builtins.tuple", "\"null\"",
                               node("collections.namedtuple", "\"mymod.Point\"",
                                    std::string(Leaf) + ", " + Leaf) +
                                   ", " +
                                   node("builtins.dict", R"("[\"k\", 1]")",
                                        std::string(Leaf) + ", " + Leaf)));
  const char replacements[] = {'[', ']', '{', '}', '"', '\\',   ',',
                               ':', '1', '0', 'n', ' ', '\x7f', '\0'};
  size_t accepted = 0, rejected = 0;
  for (size_t i = 0; i < seed.size(); ++i) {
    for (char c : replacements) {
      std::string text = seed;
      text[i] = c;
      llvm::Expected<TreeSpec> spec = parseTreespec(text, registry);
      if (!spec) {
        EXPECT_FALSE(llvm::toString(spec.takeError()).empty());
        ++rejected;
        continue;
      }
      ++accepted;
      llvm::Expected<std::string> dumped = dumpTreespec(*spec, registry);
      ASSERT_TRUE(static_cast<bool>(dumped))
          << text << "\n"
          << llvm::toString(dumped.takeError());
      llvm::Expected<TreeSpec> again = parseTreespec(*dumped, registry);
      ASSERT_TRUE(static_cast<bool>(again)) << *dumped;
      EXPECT_EQ(*again, *spec) << text;
    }
  }
  EXPECT_GT(accepted, 0u);
  EXPECT_GT(rejected, accepted);
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

TEST(TreespecErrors, ProtocolAndTopLevel) {
  expectParseError(
      R"([2, {"type": null, "context": null, "children_spec": []}])",
      {"unsupported protocol 2", "only protocol 1"});
  expectParseError(
      R"(["1", {"type": null, "context": null, "children_spec": []}])",
      {"integer protocol number", "a string"});
  expectParseError(R"({"type": null})", {"[protocol, root node]", "an object"});
  expectParseError("[1]", {"[protocol, root node]", "1 elements"});
  expectParseError("[1, ", {"invalid JSON at offset"});
  expectParseError(wrap(Leaf) + " x", {"invalid JSON"});
  expectParseError(wrap(Leaf) + std::string(1, '\0') + "x", {"NUL byte"});
  expectParseError("", {"invalid JSON"});
}

TEST(TreespecErrors, MalformedNodesNameTheirPath) {
  std::string two = std::string(Leaf) + ", " + Leaf;
  expectParseError(
      wrap(node("builtins.tuple", "\"null\"", std::string(Leaf) + ", [1]")),
      {"children_spec[1]: expected a node object", "an array"});
  expectParseError(wrap(node("builtins.tuple", "\"null\"",
                             R"({"type": null, "context": null})")),
                   {"children_spec[0]: missing key \"children_spec\""});
  expectParseError(wrap(R"({"type": 3, "context": null, "children_spec": []})"),
                   {"root type", "expected a serialized type name or null"});
  expectParseError(
      wrap(R"({"type": null, "context": "null", "children_spec": []})"),
      {"root node", "\"type\" is null but the node is not a leaf"});
  expectParseError(
      wrap(node(
          "builtins.tuple", "\"null\"",
          node("builtins.list", "\"null\"", "") + ", " +
              R"({"type": "builtins.list", "context": "null", "children_spec": {}})")),
      {"children_spec[1].children_spec", "expected an array of nodes"});
}

TEST(TreespecErrors, UnknownTypeListsRegisteredTypes) {
  expectParseError(
      wrap(node("builtins.tuple", "\"null\"", node("foo.Bar", "\"null\"", ""))),
      {"children_spec[0].type", "unknown pytree type 'foo.Bar'",
       "registered types: builtins.dict, builtins.list, builtins.tuple"});
}

TEST(TreespecErrors, ContextsThatDoNotFitTheirNode) {
  TreespecTypeRegistry registry;
  std::string two = std::string(Leaf) + ", " + Leaf;
  auto inTuple = [](const std::string &inner) {
    return wrap(
        node("builtins.tuple", "\"null\"", std::string(Leaf) + ", " + inner));
  };
  // A string-context type given an embedded value.
  expectParseError(inTuple(node("builtins.dict", R"(["a"])", Leaf)),
                   {"children_spec[1].context",
                    "stores its context as a JSON "
                    "string",
                    "an array"},
                   registry);
  expectParseError(inTuple(node("builtins.dict", R"("[\"a\"")", Leaf)),
                   {"children_spec[1].context", "invalid JSON"}, registry);
  expectParseError(inTuple(node("builtins.dict", R"("[\"a\"]")", two)),
                   {"children_spec[1].context of a 'builtins.dict' node",
                    "1 keys but the node has 2 children"},
                   registry);
  expectParseError(inTuple(node("builtins.tuple", R"("[]")", "")),
                   {"children_spec[1].context", "expected a null context"},
                   registry);
  expectParseError(inTuple(node("collections.deque", R"("1")", two)),
                   {"maxlen 1 cannot hold 2 children"}, registry);
  expectParseError(inTuple(node("collections.deque", R"("-1")", "")),
                   {"non-negative integer"}, registry);
  expectParseError(
      inTuple(node(
          "collections.defaultdict",
          R"({"default_factory_module": "builtins", "dict_context": []})", "")),
      {"missing key 'default_factory_name'"}, registry);
  expectParseError(inTuple(node("collections.defaultdict", R"("{}")", "")),
                   {"expected a defaultdict context object", "a string"},
                   registry);
  expectParseError(
      inTuple(node("collections.namedtuple", R"("mymod.Nope")", Leaf)),
      {"children_spec[1].context", "unknown namedtuple class 'mymod.Nope'"},
      registry);
  expectParseError(inTuple(node("collections.namedtuple", "7", Leaf)),
                   {"serialized type name as a JSON string", "a number"},
                   registry);
  expectParseError(
      inTuple(node("collections.namedtuple",
                   R"({"class_name": "old.Pair", "fields": ["a"]})", two)),
      {"lists 1 fields but the node has 2 children"}, registry);
}

TEST(TreespecErrors, DumpRejectsUnknownTypesAndBadContexts) {
  TreespecTypeRegistry registry;
  std::vector<TreeSpec> children;
  children.push_back(TreeSpec("foo.Bar", "null", {}));
  llvm::Expected<std::string> unknown =
      dumpTreespec(makeTupleSpec(std::move(children)), registry);
  std::string message = errorText(unknown);
  EXPECT_TRUE(contains(message, "node type 'foo.Bar' at children_spec[0] is "
                                "not registered"))
      << message;

  std::vector<TreeSpec> one;
  one.push_back(TreeSpec::leaf());
  llvm::Expected<std::string> mismatch =
      dumpTreespec(makeDictSpec({"a", "b"}, std::move(one)), registry);
  EXPECT_TRUE(
      contains(errorText(mismatch), "2 keys but the node has 1 children"));

  llvm::Expected<std::string> notJson =
      dumpTreespec(TreeSpec("builtins.list", "nul", {}), registry);
  EXPECT_TRUE(contains(errorText(notJson), "invalid JSON"));
}

//===----------------------------------------------------------------------===//
// Registry
//===----------------------------------------------------------------------===//

TEST(TreespecRegistry, RegistrationRules) {
  TreespecTypeRegistry registry;
  EXPECT_FALSE(static_cast<bool>(registry.registerType("mymod.Pair")));
  EXPECT_TRUE(contains(errorText(registry.registerType("mymod.Pair")),
                       "already registered"));
  EXPECT_TRUE(contains(errorText(registry.registerType("builtins.dict")),
                       "already registered"));
  EXPECT_TRUE(contains(errorText(registry.registerType("Pair")),
                       "not fully qualified"));
  EXPECT_TRUE(contains(errorText(registry.registerType("a..b")),
                       "not fully qualified"));
  EXPECT_TRUE(contains(errorText(registry.registerType("")), "non-empty"));
  EXPECT_TRUE(
      contains(errorText(registry.registerType("my mod.X")), "whitespace"));
  EXPECT_TRUE(contains(
      errorText(registry.registerType("NO_SERIALIZED_TYPE_NAME_FOUND")),
      "placeholder"));
  EXPECT_TRUE(
      contains(errorText(registry.registerType(
                   "mymod.Half", TreespecContextCodec{nullptr, nullptr})),
               "needs both ToJson and FromJson"));
  EXPECT_TRUE(contains(
      errorText(registry.registerDataclass("mymod.Cfg", {"a", "a"})), "twice"));
  EXPECT_FALSE(
      static_cast<bool>(registry.registerNamedtuple("mymod.P", {"x"})));
  EXPECT_FALSE(
      static_cast<bool>(registry.registerNamedtuple("mymod.P", {"x"})));
  EXPECT_TRUE(
      contains(errorText(registry.registerNamedtuple("mymod.P", {"x", "y"})),
               "already registered with fields ['x'], not ['x', 'y']"));
}

TEST(TreespecRegistry, InstancesAreIndependent) {
  TreespecTypeRegistry first, second;
  ASSERT_FALSE(static_cast<bool>(first.registerType("mymod.Pair")));
  std::string text = wrap(node("mymod.Pair", R"("[1, 2]")", ""));
  expectRoundTrip(text, first);
  expectParseError(text, {"unknown pytree type 'mymod.Pair'"}, second);

  // Separate registries work from separate threads.
  std::string results[2];
  std::thread a([&] {
    llvm::Expected<TreeSpec> spec = parseTreespec(text, first);
    results[0] = spec ? "ok" : llvm::toString(spec.takeError());
  });
  std::thread b([&] {
    llvm::Expected<TreeSpec> spec = parseTreespec(text, second);
    results[1] = spec ? "ok" : llvm::toString(spec.takeError());
  });
  a.join();
  b.join();
  EXPECT_EQ(results[0], "ok");
  EXPECT_TRUE(contains(results[1], "unknown pytree type"));
}

/// A custom type whose held context is `{"layers": N}` but which writes
/// just `[N]` to disk.
TreespecContextCodec layersCodec() {
  TreespecContextCodec codec;
  codec.ToJson = [](llvm::StringRef held) -> llvm::Expected<std::string> {
    rapidjson::Document doc;
    doc.Parse(held.data(), held.size());
    if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("layers"))
      return makeTreespecError("held context lacks 'layers'");
    return "[" + std::to_string(doc["layers"].GetInt()) + "]";
  };
  codec.FromJson = [](llvm::StringRef text) -> llvm::Expected<std::string> {
    rapidjson::Document onDisk;
    onDisk.Parse(text.data(), text.size());
    if (onDisk.HasParseError() || !onDisk.IsArray() || onDisk.Size() != 1 ||
        !onDisk[0].IsInt())
      return makeTreespecError("expected [layers]");
    return "{\"layers\": " + std::to_string(onDisk[0].GetInt()) + "}";
  };
  return codec;
}

TEST(TreespecRegistry, CustomCodecEmbedsItsValue) {
  TreespecTypeRegistry registry;
  ASSERT_FALSE(
      static_cast<bool>(registry.registerType("mymod.Stack", layersCodec())));
  std::string text = wrap(node("mymod.Stack", "[3]", Leaf));
  llvm::Expected<TreeSpec> spec = parseTreespec(text, registry);
  ASSERT_TRUE(static_cast<bool>(spec)) << llvm::toString(spec.takeError());
  EXPECT_EQ(spec->getContextJson(), "{\"layers\": 3}");
  llvm::Expected<std::string> dumped = dumpTreespec(*spec, registry);
  ASSERT_TRUE(static_cast<bool>(dumped));
  EXPECT_EQ(*dumped, text);

  expectParseError(
      wrap(node("mymod.Stack", "\"3\"", Leaf)),
      {"root context of a 'mymod.Stack' node", "expected [layers]"}, registry);
  llvm::Expected<std::string> bad =
      dumpTreespec(TreeSpec("mymod.Stack", "{}", {}), registry);
  EXPECT_TRUE(contains(errorText(bad), "held context lacks 'layers'"));
}

TEST(TreespecRegistry, CustomValidatorRunsOnLoadAndDump) {
  TreespecTypeRegistry registry;
  auto needsString = [](llvm::StringRef context, size_t,
                        const TreespecTypeRegistry &) -> llvm::Error {
    if (context.starts_with("\""))
      return llvm::Error::success();
    return makeTreespecError("expected a tag string");
  };
  ASSERT_FALSE(static_cast<bool>(
      registry.registerType("mymod.Tagged", std::nullopt, needsString)));
  expectRoundTrip(wrap(node("mymod.Tagged", R"("\"t\"")", "")), registry);
  expectParseError(wrap(node("mymod.Tagged", R"("1")", "")),
                   {"expected a tag string"}, registry);
  llvm::Expected<std::string> bad =
      dumpTreespec(TreeSpec("mymod.Tagged", "1", {}), registry);
  EXPECT_TRUE(contains(errorText(bad), "expected a tag string"));
}

TEST(TreespecRegistry, IsASlotOfTheOneRegistry) {
  Registry registry;
  EXPECT_EQ(registry.find<TreespecTypeRegistry>(), nullptr);
  TreespecTypeRegistry &types = registry.getOrCreate<TreespecTypeRegistry>();
  ASSERT_FALSE(static_cast<bool>(types.registerType("mymod.Pair")));
  const Registry &shared = registry;
  const TreespecTypeRegistry *found = shared.find<TreespecTypeRegistry>();
  ASSERT_EQ(found, &types);
  EXPECT_NE(found->lookupType("mymod.Pair"), nullptr);
  EXPECT_NE(found->lookupType("builtins.dict"), nullptr);
  // A copy is independent of the slot.
  TreespecTypeRegistry copy = *found;
  ASSERT_FALSE(static_cast<bool>(copy.registerType("mymod.Other")));
  EXPECT_EQ(found->lookupType("mymod.Other"), nullptr);
}

//===----------------------------------------------------------------------===//
// Parsing specs that name unregistered types
//===----------------------------------------------------------------------===//

TEST(TreespecLenient, RecordsUnknownTypesAndKeepsChecking) {
  TreespecTypeRegistry registry;
  // (custom, dataclass-like, namedtuple class as its own node type,
  //  collections.namedtuple of an unknown class, the custom type again)
  std::string text = wrap(
      node("builtins.tuple", R"("null")",
           node("mymod.MyContainer", R"("[\"a\"]")", Leaf) + ", " +
               node("mymod.Config", R"("[[\"x\"], [\"mask\"]]")", Leaf) + ", " +
               node("mymod.Point", R"("mymod.Point")",
                    std::string(Leaf) + ", " + Leaf) +
               ", " +
               node("collections.namedtuple", R"("mymod.Pair")",
                    std::string(Leaf) + ", " + Leaf) +
               ", " + node("mymod.MyContainer", R"({"embedded": [1]})", Leaf)));
  llvm::Expected<TreeSpec> strict = parseTreespec(text, registry);
  EXPECT_TRUE(contains(errorText(strict), "unknown pytree type "
                                          "'mymod.MyContainer'"));

  llvm::Expected<LenientTreespec> lenient =
      parseTreespecAllowingUnregistered(text, registry);
  ASSERT_TRUE(static_cast<bool>(lenient))
      << llvm::toString(lenient.takeError());
  EXPECT_EQ(lenient->Spec.getNumLeaves(), 7u);
  std::vector<std::string> seen;
  for (const UnregisteredTreespecName &name : lenient->Unregistered)
    seen.push_back((name.IsNamedtupleClass ? "class " : "type ") + name.Name +
                   " at " + name.Path);
  EXPECT_EQ(seen, (std::vector<std::string>{
                      "type mymod.MyContainer at children_spec[0].type",
                      "type mymod.Config at children_spec[1].type",
                      "type mymod.Point at children_spec[2].type",
                      "class mymod.Pair at children_spec[3].context"}));
  // Contexts of unknown types are kept as found.
  EXPECT_EQ(lenient->Spec.getChildren()[2].getContextJson(), "mymod.Point");
  EXPECT_EQ(lenient->Spec.getChildren()[4].getContextJson(),
            R"({"embedded": [1]})");
  // Such a spec cannot be dumped.
  llvm::Expected<std::string> dumped = dumpTreespec(lenient->Spec, registry);
  EXPECT_TRUE(contains(errorText(dumped), "is not registered"));
}

TEST(TreespecLenient, KnownNodesAreStillChecked) {
  TreespecTypeRegistry registry;
  // A dict below an unknown node whose key list does not fit.
  std::string badDict =
      wrap(node("mymod.Box", R"("null")",
                node("builtins.dict", R"("[\"a\", \"b\"]")", Leaf)));
  llvm::Expected<LenientTreespec> spec =
      parseTreespecAllowingUnregistered(badDict, registry);
  EXPECT_TRUE(contains(errorText(spec),
                       "treespec: children_spec[0].context of a "
                       "'builtins.dict' node: the key list has 2 keys but "
                       "the node has 1 children"));
  // A known namedtuple class is checked; the legacy form needs no
  // registration.
  ASSERT_FALSE(
      static_cast<bool>(registry.registerNamedtuple("mymod.P", {"x", "y"})));
  std::string legacy =
      wrap(node("collections.namedtuple",
                R"({"class_name": "mymod.Q", "fields": ["a"]})", Leaf));
  llvm::Expected<LenientTreespec> legacySpec =
      parseTreespecAllowingUnregistered(legacy, registry);
  ASSERT_TRUE(static_cast<bool>(legacySpec));
  EXPECT_TRUE(legacySpec->Unregistered.empty());
  std::string known = wrap(node("collections.namedtuple", R"("mymod.P")",
                                std::string(Leaf) + ", " + Leaf));
  llvm::Expected<LenientTreespec> knownSpec =
      parseTreespecAllowingUnregistered(known, registry);
  ASSERT_TRUE(static_cast<bool>(knownSpec));
  EXPECT_TRUE(knownSpec->Unregistered.empty());
  // Malformed JSON is an error as always.
  llvm::Expected<LenientTreespec> broken =
      parseTreespecAllowingUnregistered("[1, {", registry);
  EXPECT_TRUE(contains(errorText(broken), "invalid JSON"));
}

//===----------------------------------------------------------------------===//
// Flatten / unflatten
//===----------------------------------------------------------------------===//

PyTreeValue L(const char *id) { return PyTreeValue::leaf(id); }

TEST(TreespecFlatten, CallValueGivesPythonSpec) {
  TreespecTypeRegistry registry;
  PyTreeValue call = PyTreeValue::tuple(
      {PyTreeValue::tuple({L("x")}), PyTreeValue::dict({{"mask", L("m")}})});
  llvm::Expected<FlattenedPyTree> flat = flattenPyTree(call, registry);
  ASSERT_TRUE(static_cast<bool>(flat)) << llvm::toString(flat.takeError());
  llvm::Expected<std::string> dumped = dumpTreespec(flat->Spec, registry);
  ASSERT_TRUE(static_cast<bool>(dumped));
  EXPECT_EQ(*dumped, MaskKwargSpec);
  ASSERT_EQ(flat->Leaves.size(), 2u);
  EXPECT_EQ(flat->Leaves[0], L("x"));
  EXPECT_EQ(flat->Leaves[1], L("m"));
}

TEST(TreespecFlatten, RoundTripThroughStringAndBack) {
  TreespecTypeRegistry registry;
  ASSERT_FALSE(static_cast<bool>(
      registry.registerNamedtuple("mymod.Point", {"x", "y"})));
  PyTreeValue value = PyTreeValue::tuple(
      {L("a"), PyTreeValue::list({L("b"), PyTreeValue::none()}),
       PyTreeValue::dict({{"k", L("c")}, {"j", PyTreeValue::tuple({})}}),
       PyTreeValue::namedtuple("mymod.Point", {{"x", L("d")}, {"y", L("e")}})});
  llvm::Expected<FlattenedPyTree> flat = flattenPyTree(value, registry);
  ASSERT_TRUE(static_cast<bool>(flat)) << llvm::toString(flat.takeError());
  EXPECT_EQ(flat->Leaves.size(), 6u); // None is a leaf.
  EXPECT_EQ(flat->Spec.getNumLeaves(), 6u);
  EXPECT_TRUE(flat->Leaves[2].isNone());

  llvm::Expected<std::string> text = dumpTreespec(flat->Spec, registry);
  ASSERT_TRUE(static_cast<bool>(text));
  EXPECT_TRUE(contains(
      *text, R"("type": "collections.namedtuple", "context": "mymod.Point")"));
  EXPECT_TRUE(contains(*text, R"("context": "[\"k\", \"j\"]")"));
  llvm::Expected<TreeSpec> reparsed = parseTreespec(*text, registry);
  ASSERT_TRUE(static_cast<bool>(reparsed));
  llvm::Expected<PyTreeValue> rebuilt =
      unflattenPyTree(flat->Leaves, *reparsed, registry);
  ASSERT_TRUE(static_cast<bool>(rebuilt))
      << llvm::toString(rebuilt.takeError());
  EXPECT_EQ(*rebuilt, value) << rebuilt->repr();
  EXPECT_EQ(rebuilt->repr(),
            "(a, [b, None], {'k': c, 'j': ()}, mymod.Point(x=d, y=e))");
}

TEST(TreespecFlatten, BuiltinVariantsUnflattenToTheModel) {
  TreespecTypeRegistry registry;
  std::string two = std::string(Leaf) + ", " + Leaf;
  struct Case {
    std::string text;
    const char *repr;
  } cases[] = {
      {wrap(node("collections.OrderedDict", R"("[\"p\", \"q\"]")", two)),
       "{'p': u, 'q': w}"},
      {wrap(node("collections.deque", "\"4\"", two)), "[u, w]"},
      {wrap(node(
           "collections.defaultdict",
           R"({"default_factory_module": "builtins", "default_factory_name": "int", "dict_context": ["p", "q"]})",
           two)),
       "{'p': u, 'q': w}"},
  };
  for (const Case &c : cases) {
    llvm::Expected<TreeSpec> spec = parseTreespec(c.text, registry);
    ASSERT_TRUE(static_cast<bool>(spec)) << llvm::toString(spec.takeError());
    llvm::Expected<PyTreeValue> value =
        unflattenPyTree({L("u"), L("w")}, *spec, registry);
    ASSERT_TRUE(static_cast<bool>(value)) << llvm::toString(value.takeError());
    EXPECT_EQ(value->repr(), c.repr);
  }
}

TEST(TreespecFlatten, Errors) {
  TreespecTypeRegistry registry;
  ASSERT_FALSE(static_cast<bool>(
      registry.registerNamedtuple("mymod.Point", {"x", "y"})));
  PyTreeValue unregistered =
      PyTreeValue::tuple({PyTreeValue::namedtuple("mymod.Nope", {})});
  llvm::Expected<FlattenedPyTree> flat = flattenPyTree(unregistered, registry);
  std::string message = errorText(flat);
  EXPECT_TRUE(contains(message, "value[0]")) << message;
  EXPECT_TRUE(contains(message, "'mymod.Nope' is not registered")) << message;

  PyTreeValue wrongFields = PyTreeValue::dict(
      {{"p", PyTreeValue::namedtuple("mymod.Point", {{"y", L("a")}})}});
  flat = flattenPyTree(wrongFields, registry);
  message = errorText(flat);
  EXPECT_TRUE(contains(message, "value['p']")) << message;
  EXPECT_TRUE(contains(message, "has fields ['y'] but is registered with "
                                "['x', 'y']"))
      << message;

  PyTreeValue deep = L("x");
  for (unsigned i = 0; i <= MaxTreespecDepth; ++i)
    deep = PyTreeValue::list({std::move(deep)});
  flat = flattenPyTree(deep, registry);
  EXPECT_TRUE(contains(errorText(flat), "nesting exceeds the limit"));

  llvm::Expected<TreeSpec> spec = parseTreespec(TwoArgsSpec, registry);
  ASSERT_TRUE(static_cast<bool>(spec));
  llvm::Expected<PyTreeValue> value =
      unflattenPyTree({L("a")}, *spec, registry);
  EXPECT_TRUE(contains(errorText(value), "has 2 leaves but 1 values"));

  spec = parseTreespec(wrap(node("builtins.dict", R"("[1]")", Leaf)), registry);
  ASSERT_TRUE(static_cast<bool>(spec));
  value = unflattenPyTree({L("a")}, *spec, registry);
  EXPECT_TRUE(contains(errorText(value), "dict key 1 is not a string"));

  ASSERT_FALSE(static_cast<bool>(registry.registerType("mymod.Opaque")));
  value = unflattenPyTree({}, TreeSpec("mymod.Opaque", "null", {}), registry);
  EXPECT_TRUE(contains(errorText(value), "no counterpart"));

  // The class gained a field since the spec was written.
  spec = parseTreespec(
      wrap(node("collections.namedtuple", "\"mymod.Point\"", Leaf)), registry);
  ASSERT_TRUE(static_cast<bool>(spec));
  value = unflattenPyTree({L("a")}, *spec, registry);
  EXPECT_TRUE(contains(errorText(value), "registered with 2 fields"));
}

//===----------------------------------------------------------------------===//
// Dataclasses
//===----------------------------------------------------------------------===//

TEST(TreespecDataclass, NoneFieldsAreDroppedByDefault) {
  TreespecTypeRegistry registry;
  ASSERT_FALSE(static_cast<bool>(
      registry.registerDataclass("mymod.Cfg", {"lr", "mask", "extra"})));
  PyTreeValue cfg = PyTreeValue::dataclass(
      "mymod.Cfg",
      {{"extra", L("e")}, {"lr", L("l")}, {"mask", PyTreeValue::none()}});
  llvm::Expected<FlattenedPyTree> flat = flattenPyTree(cfg, registry);
  ASSERT_TRUE(static_cast<bool>(flat)) << llvm::toString(flat.takeError());
  ASSERT_EQ(flat->Leaves.size(), 2u);
  EXPECT_EQ(flat->Leaves[0], L("l")); // Declaration order, not value order.
  llvm::Expected<std::string> text = dumpTreespec(flat->Spec, registry);
  ASSERT_TRUE(static_cast<bool>(text));
  EXPECT_EQ(*text,
            wrap(node("mymod.Cfg", R"("[[\"lr\", \"extra\"], [\"mask\"]]")",
                      std::string(Leaf) + ", " + Leaf)));
  expectRoundTrip(*text, registry);

  llvm::Expected<TreeSpec> spec = parseTreespec(*text, registry);
  ASSERT_TRUE(static_cast<bool>(spec));
  llvm::Expected<PyTreeValue> rebuilt =
      unflattenPyTree(flat->Leaves, *spec, registry);
  ASSERT_TRUE(static_cast<bool>(rebuilt));
  EXPECT_EQ(rebuilt->repr(), "mymod.Cfg(lr=l, mask=None, extra=e)");
}

TEST(TreespecDataclass, ReturnNoneFieldsKeepsThemAsLeaves) {
  TreespecTypeRegistry registry;
  ASSERT_FALSE(static_cast<bool>(registry.registerDataclass(
      "mymod.Cfg", {"lr", "mask"}, /*returnNoneFields=*/true)));
  PyTreeValue cfg = PyTreeValue::dataclass(
      "mymod.Cfg", {{"lr", L("l")}, {"mask", PyTreeValue::none()}});
  llvm::Expected<FlattenedPyTree> flat = flattenPyTree(cfg, registry);
  ASSERT_TRUE(static_cast<bool>(flat));
  ASSERT_EQ(flat->Leaves.size(), 2u);
  EXPECT_TRUE(flat->Leaves[1].isNone());
  EXPECT_EQ(flat->Spec.getContextJson(), R"([["lr", "mask"], []])");
  llvm::Expected<PyTreeValue> rebuilt =
      unflattenPyTree(flat->Leaves, flat->Spec, registry);
  ASSERT_TRUE(static_cast<bool>(rebuilt));
  EXPECT_EQ(*rebuilt,
            PyTreeValue::dataclass(
                "mymod.Cfg", {{"lr", L("l")}, {"mask", PyTreeValue::none()}}));
}

TEST(TreespecDataclass, Errors) {
  TreespecTypeRegistry registry;
  ASSERT_FALSE(static_cast<bool>(
      registry.registerDataclass("mymod.Cfg", {"lr", "mask"})));
  llvm::Expected<FlattenedPyTree> flat = flattenPyTree(
      PyTreeValue::dataclass("mymod.Other", {{"lr", L("l")}}), registry);
  EXPECT_TRUE(contains(errorText(flat), "dataclass 'mymod.Other' is not "
                                        "registered"));
  flat = flattenPyTree(PyTreeValue::dataclass("mymod.Cfg", {{"lr", L("l")}}),
                       registry);
  EXPECT_TRUE(contains(errorText(flat), "missing field 'mask'"));
  flat = flattenPyTree(
      PyTreeValue::dataclass(
          "mymod.Cfg", {{"lr", L("l")}, {"mask", L("m")}, {"zz", L("z")}}),
      registry);
  EXPECT_TRUE(contains(errorText(flat), "has no field 'zz'"));

  expectParseError(wrap(node("mymod.Cfg", R"("[[\"lr\", \"zz\"], []]")",
                             std::string(Leaf) + ", " + Leaf)),
                   {"root context of a 'mymod.Cfg' node", "no field 'zz'"},
                   registry);
  expectParseError(wrap(node("mymod.Cfg", R"("[[\"lr\"], [\"lr\"]]")", Leaf)),
                   {"lists field 'lr' twice"}, registry);
  expectParseError(wrap(node("mymod.Cfg", R"("[[\"lr\"]]")", Leaf)),
                   {"[flat_names, none_names]", "an array of 1 elements"},
                   registry);
  expectParseError(wrap(node("mymod.Cfg", R"("[[\"lr\"], []]")", "")),
                   {"1 flat fields but the node has 0 children"}, registry);

  // Flattening lists every field in flat_names or none_names.
  expectParseError(wrap(node("mymod.Cfg", R"("[[\"lr\"], []]")", Leaf)),
                   {"dataclass 'mymod.Cfg' context does not list field "
                    "'mask' (registered fields: ['lr', 'mask'])"},
                   registry);
  TreeSpec partial("mymod.Cfg", R"([["lr"], []])", {TreeSpec::leaf()});
  llvm::Expected<PyTreeValue> value =
      unflattenPyTree({L("l")}, partial, registry);
  EXPECT_TRUE(contains(errorText(value), "field 'mask' is in neither"));
}

TEST(TreespecDataclass, ReturnNoneFieldsKeepsNoneNamesEmpty) {
  TreespecTypeRegistry registry;
  ASSERT_FALSE(static_cast<bool>(registry.registerDataclass(
      "mymod.Opt", {"lr", "beta"}, /*returnNoneFields=*/true)));
  expectRoundTrip(wrap(node("mymod.Opt", R"("[[\"lr\", \"beta\"], []]")",
                            std::string(Leaf) + ", " + Leaf)),
                  registry);
  expectParseError(
      wrap(node("mymod.Opt", R"("[[\"lr\"], [\"beta\"]]")", Leaf)),
      {"dataclass 'mymod.Opt' keeps None fields as children "
       "(return_none_fields), but its context lists 'beta' in none_names"},
      registry);
  // Without the option, a None field is dropped and listed in none_names.
  TreespecTypeRegistry dropping;
  ASSERT_FALSE(static_cast<bool>(
      dropping.registerDataclass("mymod.Opt", {"lr", "beta"})));
  expectRoundTrip(wrap(node("mymod.Opt", R"("[[\"lr\"], [\"beta\"]]")", Leaf)),
                  dropping);
}

//===----------------------------------------------------------------------===//
// Namedtuple side table and adapter
//===----------------------------------------------------------------------===//

TEST(TreespecNamedtuple, CollectFieldsLikeTheSerializer) {
  TreespecTypeRegistry registry;
  ASSERT_FALSE(static_cast<bool>(
      registry.registerNamedtuple("mymod.Point", {"x", "y"})));
  ASSERT_FALSE(static_cast<bool>(
      registry.registerNamedtuple("mymod.Box", {"lo", "hi"})));
  PyTreeValue point =
      PyTreeValue::namedtuple("mymod.Point", {{"x", L("a")}, {"y", L("b")}});
  PyTreeValue value = PyTreeValue::tuple(
      {point,
       PyTreeValue::namedtuple("mymod.Box", {{"lo", point}, {"hi", L("c")}})});
  llvm::Expected<FlattenedPyTree> flat = flattenPyTree(value, registry);
  ASSERT_TRUE(static_cast<bool>(flat));
  NamedtupleFieldTable table;
  ASSERT_FALSE(
      static_cast<bool>(collectNamedtupleFields(flat->Spec, registry, table)));
  ASSERT_EQ(table.size(), 2u);
  std::string json = table.toJson();
  EXPECT_TRUE(contains(json, R"("mymod.Point": {"field_names": ["x", "y"]})"))
      << json;
  EXPECT_TRUE(contains(json, R"("mymod.Box": {"field_names": ["lo", "hi"]})"))
      << json;

  llvm::Expected<NamedtupleFieldTable> reread =
      NamedtupleFieldTable::fromJson(json);
  ASSERT_TRUE(static_cast<bool>(reread));
  EXPECT_EQ(reread->toJson(), json);

  EXPECT_TRUE(contains(errorText(table.add("mymod.Point", {"x"})),
                       "has fields ['x'] but was recorded earlier with "
                       "fields ['x', 'y']"));
  EXPECT_FALSE(static_cast<bool>(table.add("mymod.Point", {"x", "y"})));
}

TEST(TreespecNamedtuple, TableJsonErrors) {
  const char *bad[][2] = {
      {"[]", "expected an object"},
      {R"({"m.P": []})", "treespec_namedtuple_fields['m.P']"},
      {R"({"m.P": {}})", "missing key \"field_names\""},
      {R"({"m.P": {"field_names": [1]}})", ".field_names: expected a list of "
                                           "strings"},
  };
  for (auto &[json, fragment] : bad) {
    llvm::Expected<NamedtupleFieldTable> table =
        NamedtupleFieldTable::fromJson(json);
    EXPECT_TRUE(contains(errorText(table), fragment)) << json;
  }
  llvm::Expected<NamedtupleFieldTable> notJson =
      NamedtupleFieldTable::fromJson("{");
  EXPECT_TRUE(
      contains(errorText(notJson), "treespec_namedtuple_fields: invalid JSON"));
  llvm::Expected<NamedtupleFieldTable> table =
      NamedtupleFieldTable::fromJson("{}");
  ASSERT_TRUE(static_cast<bool>(table));
  EXPECT_EQ(table->toJson(), "{}");
}

TEST(TreespecNamedtuple, SavedTableMakesSpecsLoadable) {
  std::string text = wrap(node("collections.namedtuple", "\"mymod.Point\"",
                               std::string(Leaf) + ", " + Leaf));
  TreespecTypeRegistry registry;
  expectParseError(text, {"unknown namedtuple class 'mymod.Point'"}, registry);
  NamedtupleFieldTable saved;
  ASSERT_FALSE(static_cast<bool>(saved.add("mymod.Point", {"x", "y"})));
  ASSERT_FALSE(static_cast<bool>(registerSavedNamedtuples(saved, registry)));
  expectRoundTrip(text, registry);

  // A registry that already knows a newer layout keeps it.
  TreespecTypeRegistry newer;
  ASSERT_FALSE(static_cast<bool>(
      newer.registerNamedtuple("mymod.Point", {"x", "y", "z"})));
  ASSERT_FALSE(static_cast<bool>(registerSavedNamedtuples(saved, newer)));
  EXPECT_EQ(newer.lookupNamedtupleFields("mymod.Point")->size(), 3u);
}

TEST(TreespecNamedtuple, FieldMappingDropsAddedFields) {
  llvm::Expected<NamedtupleFieldMapping> mapping =
      mapNamedtupleFields("mymod.Point", {"x", "y"}, {"w", "y", "x"});
  ASSERT_TRUE(static_cast<bool>(mapping));
  ASSERT_EQ(mapping->CurrentToSaved.size(), 3u);
  EXPECT_EQ(mapping->CurrentToSaved[0], std::nullopt);
  EXPECT_EQ(mapping->CurrentToSaved[1], std::optional<size_t>(1));
  EXPECT_EQ(mapping->CurrentToSaved[2], std::optional<size_t>(0));
  EXPECT_EQ(mapping->SavedToCurrent, (std::vector<size_t>{2, 1}));
  EXPECT_EQ(mapping->addedFields(), std::vector<std::string>{"w"});

  mapping = mapNamedtupleFields("mymod.Point", {"x", "y"}, {"x", "z"});
  std::string message = errorText(mapping);
  EXPECT_TRUE(contains(message, "saved field 'y' is missing")) << message;
  EXPECT_TRUE(contains(message, "mymod.Point")) << message;
}

TEST(TreespecNamedtuple, FieldMappingFromSavedSpecNode) {
  TreespecTypeRegistry registry;
  NamedtupleFieldTable saved;
  ASSERT_FALSE(static_cast<bool>(saved.add("mymod.Point", {"x", "y"})));
  ASSERT_FALSE(static_cast<bool>(registerSavedNamedtuples(saved, registry)));
  llvm::Expected<TreeSpec> spec =
      parseTreespec(wrap(node("collections.namedtuple", "\"mymod.Point\"",
                              std::string(Leaf) + ", " + Leaf)),
                    registry);
  ASSERT_TRUE(static_cast<bool>(spec));
  llvm::Expected<NamedtupleFieldMapping> mapping =
      mapNamedtupleFields(*spec, saved, {"x", "t", "y"});
  ASSERT_TRUE(static_cast<bool>(mapping));
  EXPECT_EQ(mapping->SavedToCurrent, (std::vector<size_t>{0, 2}));

  NamedtupleFieldTable unrelated;
  mapping = mapNamedtupleFields(*spec, unrelated, {"x", "y"});
  EXPECT_TRUE(contains(errorText(mapping),
                       "no field names for namedtuple 'mymod.Point' in "
                       "treespec_namedtuple_fields"));
  NamedtupleFieldTable wrongCount;
  ASSERT_FALSE(static_cast<bool>(wrongCount.add("mymod.Point", {"x"})));
  mapping = mapNamedtupleFields(*spec, wrongCount, {"x", "y"});
  EXPECT_TRUE(contains(errorText(mapping), "but its spec node has 2 children"));

  // Legacy contexts carry their own field names.
  llvm::Expected<TreeSpec> legacy = parseTreespec(
      wrap(node("collections.namedtuple",
                R"({"class_name": "old.Pair", "fields": ["a", "b"]})",
                std::string(Leaf) + ", " + Leaf)),
      registry);
  ASSERT_TRUE(static_cast<bool>(legacy));
  mapping = mapNamedtupleFields(*legacy, unrelated, {"b", "c", "a"});
  ASSERT_TRUE(static_cast<bool>(mapping));
  EXPECT_EQ(mapping->SavedToCurrent, (std::vector<size_t>{2, 0}));
}

TEST(TreespecNamedtuple, AdaptNewerValueToSavedSpec) {
  // Saved: forward(p: Point(x, y), *, scale) with Point as it was.
  TreespecTypeRegistry old;
  ASSERT_FALSE(
      static_cast<bool>(old.registerNamedtuple("mymod.Point", {"x", "y"})));
  PyTreeValue oldCall =
      PyTreeValue::tuple({PyTreeValue::tuple({PyTreeValue::namedtuple(
                              "mymod.Point", {{"x", L("x")}, {"y", L("y")}})}),
                          PyTreeValue::dict({{"scale", L("s")}})});
  llvm::Expected<FlattenedPyTree> savedFlat = flattenPyTree(oldCall, old);
  ASSERT_TRUE(static_cast<bool>(savedFlat));
  llvm::Expected<std::string> savedText = dumpTreespec(savedFlat->Spec, old);
  ASSERT_TRUE(static_cast<bool>(savedText));
  NamedtupleFieldTable savedTable;
  ASSERT_FALSE(static_cast<bool>(
      collectNamedtupleFields(savedFlat->Spec, old, savedTable)));

  // Today Point has gained `z` (in the middle) and `w`.
  TreespecTypeRegistry today;
  ASSERT_FALSE(static_cast<bool>(
      today.registerNamedtuple("mymod.Point", {"x", "z", "y", "w"})));
  llvm::Expected<TreeSpec> savedSpec = parseTreespec(*savedText, today);
  ASSERT_TRUE(static_cast<bool>(savedSpec))
      << llvm::toString(savedSpec.takeError());
  PyTreeValue newCall = PyTreeValue::tuple(
      {PyTreeValue::tuple({PyTreeValue::namedtuple(
           "mymod.Point",
           {{"x", L("X")}, {"z", L("Z")}, {"y", L("Y")}, {"w", L("W")}})}),
       PyTreeValue::dict({{"scale", L("S")}})});
  llvm::Expected<SavedSpecInputs> inputs =
      adaptToSavedSpec(newCall, *savedSpec, savedTable, today);
  ASSERT_TRUE(static_cast<bool>(inputs)) << llvm::toString(inputs.takeError());
  EXPECT_EQ(inputs->Value.repr(), "((mymod.Point(x=X, y=Y),), {'scale': S})");
  ASSERT_EQ(inputs->Leaves.size(), 3u);
  EXPECT_EQ(inputs->Leaves[0], L("X"));
  EXPECT_EQ(inputs->Leaves[1], L("Y"));
  EXPECT_EQ(inputs->Leaves[2], L("S"));
  // Today's flat inputs are X, Z, Y, W, S.
  EXPECT_EQ(inputs->SavedToCurrentInput, (std::vector<size_t>{0, 2, 4}));

  // A field that disappeared cannot be adapted.
  TreespecTypeRegistry shrunk;
  ASSERT_FALSE(
      static_cast<bool>(shrunk.registerNamedtuple("mymod.Point", {"x", "z"})));
  PyTreeValue shrunkCall =
      PyTreeValue::tuple({PyTreeValue::tuple({PyTreeValue::namedtuple(
                              "mymod.Point", {{"x", L("X")}, {"z", L("Z")}})}),
                          PyTreeValue::dict({{"scale", L("S")}})});
  inputs = adaptToSavedSpec(shrunkCall, *savedSpec, savedTable, shrunk);
  std::string message = errorText(inputs);
  EXPECT_TRUE(contains(message, "children_spec[0].children_spec[0]"))
      << message;
  EXPECT_TRUE(contains(message, "saved field 'y' is missing")) << message;

  // Structure that does not match the spec is named.
  PyTreeValue wrongShape = PyTreeValue::tuple(
      {PyTreeValue::tuple({L("p")}), PyTreeValue::dict({{"scale", L("S")}})});
  inputs = adaptToSavedSpec(wrongShape, *savedSpec, savedTable, today);
  EXPECT_TRUE(contains(errorText(inputs), "has a namedtuple here"));
  PyTreeValue missingKwarg = PyTreeValue::tuple(
      {PyTreeValue::tuple({PyTreeValue::namedtuple(
           "mymod.Point",
           {{"x", L("X")}, {"z", L("Z")}, {"y", L("Y")}, {"w", L("W")}})}),
       PyTreeValue::dict({{"bias", L("B")}})});
  inputs = adaptToSavedSpec(missingKwarg, *savedSpec, savedTable, today);
  EXPECT_TRUE(contains(errorText(inputs), "no key 'scale'"));
}

TEST(TreespecNamedtuple, AdaptDataclassNoneFields) {
  TreespecTypeRegistry registry;
  ASSERT_FALSE(
      static_cast<bool>(registry.registerDataclass("mymod.Cfg", {"a", "b"})));
  llvm::Expected<FlattenedPyTree> saved = flattenPyTree(
      PyTreeValue::dataclass("mymod.Cfg",
                             {{"a", L("a")}, {"b", PyTreeValue::none()}}),
      registry);
  ASSERT_TRUE(static_cast<bool>(saved));
  NamedtupleFieldTable none;
  llvm::Expected<SavedSpecInputs> inputs = adaptToSavedSpec(
      PyTreeValue::dataclass("mymod.Cfg",
                             {{"b", PyTreeValue::none()}, {"a", L("A")}}),
      saved->Spec, none, registry);
  ASSERT_TRUE(static_cast<bool>(inputs)) << llvm::toString(inputs.takeError());
  EXPECT_EQ(inputs->SavedToCurrentInput, std::vector<size_t>{0});
  inputs = adaptToSavedSpec(
      PyTreeValue::dataclass("mymod.Cfg", {{"a", L("A")}, {"b", L("B")}}),
      saved->Spec, none, registry);
  EXPECT_TRUE(contains(errorText(inputs),
                       "field 'b' was None when the spec was saved"));
}

} // namespace
