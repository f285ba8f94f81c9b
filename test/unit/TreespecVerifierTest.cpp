//===- TreespecVerifierTest.cpp - Treespecs in the verifier ---------------===//
//
// The verifier's treespec rules through the library API: node types declared
// in the program's registry (the TreespecTypeRegistry slot, as a library user
// or a pass plugin fills it) are known and checked, the program's
// treespec_namedtuple_fields registers its classes, unregistered names are
// reported once per program, and verifying leaves the registry unchanged.
// Also the `--treespec-types` declaration format
// (treespec/TreespecDeclarations.h).
//
// The rules' messages as pt2-opt prints them are in
// test/lit/verifier/treespec-*.test.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/ir/Registry.h"
#include "pt2ir/serde/ProgramReader.h"
#include "pt2ir/treespec/TreespecDeclarations.h"
#include "pt2ir/treespec/TreespecRegistry.h"
#include "pt2ir/verifier/Verifier.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace pt2ir;

namespace {

const char *const Leaf =
    R"({"type": null, "context": null, "children_spec": []})";

/// `[1, ((<arg>, y), {})]`: the in_spec of forward(arg, y).
std::string callSpec(const std::string &arg) {
  return std::string(
             R"([1, {"type": "builtins.tuple", "context": "null", )"
             R"("children_spec": [{"type": "builtins.tuple", "context": )"
             R"("null", "children_spec": [)") +
         arg + ", " + Leaf +
         R"(]}, {"type": "builtins.dict", "context": "[]", )"
         R"("children_spec": []}]}])";
}

/// A Config dataclass node holding x, with mask None: `[["x"], ["mask"]]`.
std::string configNode() {
  return std::string(R"({"type": "mymod.Config", )"
                     R"("context": "[[\"x\"], [\"mask\"]]", )"
                     R"("children_spec": [)") +
         Leaf + "]}";
}

/// A namedtuple node of class mymod.Point with one child.
std::string pointNode() {
  return std::string(R"({"type": "collections.namedtuple", )"
                     R"("context": "mymod.Point", "children_spec": [)") +
         Leaf + "]}";
}

std::string quoted(const std::string &text) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << llvm::json::Value(text);
  return out;
}

const char *const TensorMeta =
    R"({"dtype": 7, "sizes": [{"as_int": 2}], "requires_grad": false, )"
    R"("device": {"type": "cpu"}, "strides": [{"as_int": 1}], )"
    R"("storage_offset": {"as_int": 0}, "layout": 7})";

/// forward(x, y) -> add(x, y), with the given specs and side table.
std::string programJson(const std::string &inSpec, const std::string &outSpec,
                        const std::string &namedtupleFields = "{}") {
  std::string tv = TensorMeta;
  return R"({"graph_module": {"graph": {"inputs": [{"as_tensor": {"name": "x"}}, )"
         R"({"as_tensor": {"name": "y"}}], "outputs": [{"as_tensor": {"name": "add"}}], )"
         R"("nodes": [{"target": "torch.ops.aten.add.Tensor", "inputs": [{"name": "self", )"
         R"("arg": {"as_tensor": {"name": "x"}}, "kind": 1}, {"name": "other", "arg": )"
         R"({"as_tensor": {"name": "y"}}, "kind": 1}], "outputs": [{"as_tensor": )"
         R"({"name": "add"}}], "metadata": {}, "name": "add"}], "tensor_values": {"x": )" +
         tv + R"(, "y": )" + tv + R"(, "add": )" + tv +
         R"(}, "sym_int_values": {}, "sym_bool_values": {}, "is_single_tensor_return": )"
         R"(false, "custom_obj_values": {}, "sym_float_values": {}}, "signature": )"
         R"({"input_specs": [{"user_input": {"arg": {"as_tensor": {"name": "x"}}}}, )"
         R"({"user_input": {"arg": {"as_tensor": {"name": "y"}}}}], "output_specs": )"
         R"([{"user_output": {"arg": {"as_tensor": {"name": "add"}}}}]}, )"
         R"("module_call_graph": [{"fqn": "", "signature": {"inputs": [], "outputs": [], )"
         R"("in_spec": )" +
         quoted(inSpec) + R"(, "out_spec": )" + quoted(outSpec) +
         R"(}}], "treespec_namedtuple_fields": )" + namedtupleFields +
         R"(}, "opset_version": {}, "range_constraints": {}, "schema_version": )"
         R"({"major": 8, "minor": 19}, "verifiers": ["ATEN"]})";
}

ExportedProgram read(const std::string &json,
                     std::shared_ptr<const Registry> registry = nullptr) {
  ReadOptions options;
  options.registry = std::move(registry);
  auto ep = readProgram(json, options);
  if (!ep) {
    ADD_FAILURE() << llvm::toString(ep.takeError());
    return ExportedProgram();
  }
  return std::move(*ep);
}

std::string dump(const std::vector<Diagnostic> &diags) {
  std::string out;
  llvm::raw_string_ostream os(out);
  printDiagnostics(os, "t.json", diags);
  return out;
}

const char *const InSpecPath =
    "graph_module.module_call_graph[0].signature.in_spec";

} // namespace

TEST(TreespecVerifier, UndeclaredDataclassIsAWarning) {
  ExportedProgram ep = read(
      programJson(callSpec(configNode()), std::string("[1, ") + Leaf + "]"));
  std::vector<Diagnostic> diags = verifyProgram(ep);
  ASSERT_EQ(diags.size(), 1u) << dump(diags);
  EXPECT_EQ(diags[0].severity, Severity::Warning);
  EXPECT_EQ(diags[0].rule, "treespec-unregistered-type");
  EXPECT_EQ(diags[0].jsonPath, InSpecPath);
  EXPECT_EQ(diags[0].message,
            "in_spec of the root module uses node type 'mymod.Config' "
            "(children_spec[0].children_spec[0].type), which is not "
            "registered; torch will need the type registered to load the "
            "program (declare it with --treespec-types to check its nodes)");
}

TEST(TreespecVerifier, TypesDeclaredInTheProgramsRegistryAreKnownAndChecked) {
  std::string outSpec = std::string("[1, ") + Leaf + "]";
  // As a library user or a pass plugin's registerWith(Registry &) does.
  auto registry = std::make_shared<Registry>();
  ASSERT_FALSE(
      bool(registry->getOrCreate<TreespecTypeRegistry>().registerDataclass(
          "mymod.Config", {"x", "mask"})));
  ExportedProgram ep =
      read(programJson(callSpec(configNode()), outSpec), registry);
  EXPECT_EQ(dump(verifyProgram(ep)), "");

  // Declared with other fields: the context no longer fits.
  auto other = std::make_shared<Registry>();
  ASSERT_FALSE(
      bool(other->getOrCreate<TreespecTypeRegistry>().registerDataclass(
          "mymod.Config", {"x", "mask", "lr"})));
  ExportedProgram bad =
      read(programJson(callSpec(configNode()), outSpec), other);
  std::vector<Diagnostic> diags = verifyProgram(bad);
  ASSERT_EQ(diags.size(), 1u) << dump(diags);
  EXPECT_EQ(diags[0].severity, Severity::Error);
  EXPECT_EQ(diags[0].rule, "treespec-invalid");
  EXPECT_EQ(diags[0].jsonPath, InSpecPath);
  EXPECT_EQ(diags[0].message,
            "in_spec of the root module is not a valid treespec: "
            "children_spec[0].children_spec[0].context of a 'mymod.Config' "
            "node: dataclass 'mymod.Config' context does not list field 'lr' "
            "(registered fields: ['x', 'mask', 'lr'])");
}

TEST(TreespecVerifier, NamedtupleSideTableRegistersItsClasses) {
  std::string outSpec = std::string("[1, ") + Leaf + "]";
  ExportedProgram listed =
      read(programJson(callSpec(pointNode()), outSpec,
                       R"({"mymod.Point": {"field_names": ["x"]}})"));
  EXPECT_EQ(dump(verifyProgram(listed)), "");
  // The verifier registers them in a copy: the registry stays as it was.
  EXPECT_EQ(listed.getRegistry().find<TreespecTypeRegistry>(), nullptr);

  ExportedProgram unlisted = read(programJson(callSpec(pointNode()), outSpec));
  std::vector<Diagnostic> diags = verifyProgram(unlisted);
  ASSERT_EQ(diags.size(), 1u) << dump(diags);
  EXPECT_EQ(diags[0].rule, "treespec-unregistered-type");
  EXPECT_EQ(diags[0].message,
            "in_spec of the root module names namedtuple class 'mymod.Point' "
            "(children_spec[0].children_spec[0].context), which is not "
            "registered and not listed in treespec_namedtuple_fields; torch "
            "will need the class registered to load the program (declare it "
            "with --treespec-types to check its nodes)");

  // Listed with two fields, but the node has one child.
  ExportedProgram mismatch =
      read(programJson(callSpec(pointNode()), outSpec,
                       R"({"mymod.Point": {"field_names": ["x", "y"]}})"));
  diags = verifyProgram(mismatch);
  ASSERT_EQ(diags.size(), 1u) << dump(diags);
  EXPECT_EQ(diags[0].rule, "treespec-invalid");
  EXPECT_EQ(diags[0].message,
            "in_spec of the root module is not a valid treespec: "
            "children_spec[0].children_spec[0]: namedtuple 'mymod.Point' has 1 "
            "children, but treespec_namedtuple_fields lists 2 fields");
}

TEST(TreespecVerifier, EachUnregisteredNameIsReportedOnce) {
  // Config in both specs, Point once: two warnings, at the in_spec.
  std::string outSpec = "[1, " + configNode() + "]";
  ExportedProgram ep = read(programJson(
      callSpec(
          R"({"type": "builtins.tuple", "context": "null", "children_spec": [)" +
          configNode() + ", " + pointNode() + "]}"),
      outSpec));
  std::vector<Diagnostic> diags = verifyProgram(ep);
  // (x, y) plus Config's and Point's leaves: 3 leaves for 2 user inputs.
  ASSERT_EQ(diags.size(), 3u) << dump(diags);
  EXPECT_EQ(diags[0].rule, "treespec-unregistered-type");
  EXPECT_NE(diags[0].message.find("'mymod.Config'"), std::string::npos);
  EXPECT_EQ(diags[1].rule, "treespec-unregistered-type");
  EXPECT_NE(diags[1].message.find("'mymod.Point'"), std::string::npos);
  EXPECT_EQ(diags[2].rule, "module-call-graph-spec");
  EXPECT_EQ(diags[2].message, "in_spec of the root module has 3 leaves, but "
                              "the signature has 2 user inputs");
}

TEST(TreespecVerifier, ContextThatDoesNotFitItsNode) {
  std::string dict = std::string(R"({"type": "builtins.dict", )"
                                 R"("context": "[\"a\", \"b\"]", )"
                                 R"("children_spec": [)") +
                     Leaf + "]}";
  ExportedProgram ep = read(programJson(callSpec(Leaf), "[1, " + dict + "]"));
  std::vector<Diagnostic> diags = verifyProgram(ep);
  ASSERT_EQ(diags.size(), 1u) << dump(diags);
  EXPECT_EQ(diags[0].rule, "treespec-invalid");
  EXPECT_EQ(diags[0].jsonPath,
            "graph_module.module_call_graph[0].signature.out_spec");
  EXPECT_EQ(diags[0].message,
            "out_spec of the root module is not a valid treespec: root "
            "context of a 'builtins.dict' node: the key list has 2 keys but "
            "the node has 1 children");
}

TEST(TreespecVerifier, SharedRegistryVerifiesConcurrently) {
  auto registry = std::make_shared<Registry>();
  ASSERT_FALSE(
      bool(registry->getOrCreate<TreespecTypeRegistry>().registerDataclass(
          "mymod.Config", {"x", "mask"})));
  std::string json =
      programJson(callSpec(configNode()), std::string("[1, ") + Leaf + "]",
                  R"({"mymod.Point": {"field_names": ["x"]}})");
  ExportedProgram a = read(json, registry);
  ExportedProgram b = read(json, registry);
  std::vector<Diagnostic> da, db;
  std::thread ta([&] {
    for (int i = 0; i < 20; ++i)
      da = verifyProgram(a);
  });
  std::thread tb([&] {
    for (int i = 0; i < 20; ++i)
      db = verifyProgram(b);
  });
  ta.join();
  tb.join();
  EXPECT_EQ(dump(da), "");
  EXPECT_EQ(dump(db), "");
}

//===----------------------------------------------------------------------===//
// The --treespec-types format
//===----------------------------------------------------------------------===//

TEST(TreespecDeclarations, EveryFormRegisters) {
  TreespecTypeRegistry types;
  llvm::Error err = registerTreespecDeclarations(
      "# seed types\n"
      "\n"
      "type mymod.MyContainer\n"
      "type mymod.Stack embedded-context   # a codec type\n"
      "dataclass mymod.Config x, mask\r\n"
      "dataclass\tmymod.Opt lr,beta return-none-fields\n"
      "namedtuple mymod.Point x,y\n"
      "dataclass mymod.Empty\n",
      "types.txt", types);
  ASSERT_FALSE(bool(err)) << llvm::toString(std::move(err));
  ASSERT_NE(types.lookupType("mymod.MyContainer"), nullptr);
  EXPECT_FALSE(types.lookupType("mymod.MyContainer")->Codec.has_value());
  ASSERT_NE(types.lookupType("mymod.Stack"), nullptr);
  EXPECT_TRUE(types.lookupType("mymod.Stack")->Codec.has_value());
  const TreespecDataclass *config = types.lookupDataclass("mymod.Config");
  ASSERT_NE(config, nullptr);
  EXPECT_EQ(config->Fields, (std::vector<std::string>{"x", "mask"}));
  EXPECT_FALSE(config->ReturnNoneFields);
  const TreespecDataclass *opt = types.lookupDataclass("mymod.Opt");
  ASSERT_NE(opt, nullptr);
  EXPECT_EQ(opt->Fields, (std::vector<std::string>{"lr", "beta"}));
  EXPECT_TRUE(opt->ReturnNoneFields);
  ASSERT_NE(types.lookupNamedtupleFields("mymod.Point"), nullptr);
  EXPECT_EQ(*types.lookupNamedtupleFields("mymod.Point"),
            (std::vector<std::string>{"x", "y"}));
  ASSERT_NE(types.lookupDataclass("mymod.Empty"), nullptr);
  EXPECT_TRUE(types.lookupDataclass("mymod.Empty")->Fields.empty());
}

TEST(TreespecDeclarations, BadLinesNameFileAndLine) {
  struct Case {
    const char *text;
    const char *error;
  };
  const Case cases[] = {
      {"\n\nstruct mymod.X a\n",
       "t.txt:3: error: unknown declaration 'struct'; expected 'type NAME', "
       "'dataclass NAME FIELDS', or 'namedtuple NAME FIELDS'"},
      {"namedtuple\n",
       "t.txt:1: error: 'namedtuple' needs a fully qualified type name "
       "(module.Name)"},
      {"type Box\n", "t.txt:1: error: serialized type name 'Box' is not fully "
                     "qualified (expected 'module.Name')"},
      {"namedtuple mymod.P 1x\n",
       "t.txt:1: error: field '1x' of a namedtuple is not a Python identifier"},
      {"dataclass mymod.D a,\n",
       "t.txt:1: error: empty field name in the field list of a dataclass "
       "(expected names separated by commas, e.g. x,mask)"},
      {"namedtuple mymod.P a return-none-fields\n",
       "t.txt:1: error: 'return-none-fields' applies to dataclasses only"},
      {"dataclass mymod.D a,breturn-none-fields\n",
       "t.txt:1: error: expected 'return-none-fields' as a word of its own "
       "after the field list"},
      {"type mymod.T\ntype mymod.T\n",
       "t.txt:2: error: pytree type 'mymod.T' is already registered"},
      {"namedtuple mymod.P a\nnamedtuple mymod.P b\n",
       "t.txt:2: error: namedtuple 'mymod.P' is already registered with "
       "fields ['a'], not ['b']"},
  };
  for (const Case &c : cases) {
    TreespecTypeRegistry types;
    llvm::Error err = registerTreespecDeclarations(c.text, "t.txt", types);
    ASSERT_TRUE(bool(err)) << c.text;
    EXPECT_EQ(llvm::toString(std::move(err)), c.error) << c.text;
  }
}
