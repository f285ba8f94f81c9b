//===- VerifierTest.cpp - Tests for the verifier --------------------------===//
//
// Checks that every corpus program verifies clean under its own dialect, and
// the rules only the IR API can break (the reader refuses such files): uses
// before definitions after moving nodes, uses of erased, cleared, table-only
// and foreign values. Also checks that every violation is reported in
// program order, the subgraph depth cap, paths inside subgraphs, the treespec
// leaf counts, custom registries, the printed format, concurrent
// use, call_torchbind nodes built through the API, and the
// expected-diagnostics parser and matcher.
//
// Each JSON-reachable rule also has a lit test in test/lit/verifier.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/verifier/Verifier.h"
#include "pt2ir/ir/OperatorRegistry.h"
#include "pt2ir/serde/ProgramReader.h"
#include "pt2ir/verifier/ExpectedDiagnostics.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

using namespace pt2ir;

namespace {

const char *const TensorMetaJson =
    R"({"dtype": 7, "sizes": [{"as_int": 2}], "requires_grad": false, )"
    R"("device": {"type": "cpu"}, "strides": [{"as_int": 1}], )"
    R"("storage_offset": {"as_int": 0}, "layout": 7})";

std::string tensorValues(std::vector<std::string> names) {
  std::string out;
  for (const std::string &n : names)
    out += (out.empty() ? "\"" : ", \"") + n + "\": " + TensorMetaJson;
  return "{" + out + "}";
}

std::string unaryNode(const std::string &target, const std::string &in,
                      const std::string &out) {
  return R"({"target": ")" + target +
         R"(", "inputs": [{"name": "self", "arg": {"as_tensor": {"name": ")" +
         in + R"("}}, "kind": 1}], "outputs": [{"as_tensor": {"name": ")" +
         out + R"("}}], "metadata": {}, "name": ")" + out + R"("})";
}

/// A graph object with one input `x`, the given nodes, and output `result`.
std::string graphJson(const std::string &nodes, const std::string &result,
                      const std::string &tensors) {
  return R"({"inputs": [{"as_tensor": {"name": "x"}}], "outputs": [{"as_tensor": {"name": ")" +
         result + R"("}}], "nodes": [)" + nodes + R"(], "tensor_values": )" +
         tensors +
         R"(, "sym_int_values": {}, "sym_bool_values": {}, )"
         R"("is_single_tensor_return": false, "custom_obj_values": {}, )"
         R"("sym_float_values": {}})";
}

/// The in_spec of `forward(x)` and the out_spec of one output, as they appear
/// inside a JSON string.
const char *const OneInputSpec =
    R"([1, {\"type\": \"builtins.tuple\", \"context\": \"null\", )"
    R"(\"children_spec\": [{\"type\": \"builtins.tuple\", \"context\": )"
    R"(\"null\", \"children_spec\": [{\"type\": null, \"context\": null, )"
    R"(\"children_spec\": []}]}, {\"type\": \"builtins.dict\", )"
    R"(\"context\": \"[]\", \"children_spec\": []}]}])";
const char *const LeafSpec =
    R"([1, {\"type\": null, \"context\": null, \"children_spec\": []}])";

/// A whole program around `graph`, with a user_input `x` and a user_output
/// `result`.
std::string programJson(const std::string &graph, const std::string &result,
                        const std::string &dialect = "ATEN",
                        const std::string &rangeConstraints = "{}") {
  return R"({"graph_module": {"graph": )" + graph +
         R"(, "signature": {"input_specs": [{"user_input": {"arg": {"as_tensor": {"name": "x"}}}}], )"
         R"("output_specs": [{"user_output": {"arg": {"as_tensor": {"name": ")" +
         result +
         R"("}}}}]}, "module_call_graph": [{"fqn": "", "signature": {"inputs": [], )"
         R"("outputs": [], "in_spec": ")" +
         std::string(OneInputSpec) + R"(", "out_spec": ")" + LeafSpec +
         R"("}}]}, )"
         R"("opset_version": {}, "range_constraints": )" +
         rangeConstraints +
         R"(, "schema_version": {"major": 8, "minor": 19}, "verifiers": [")" +
         dialect + R"("]})";
}

/// x -> relu -> neg.
std::string reluNegProgram() {
  return programJson(
      graphJson(unaryNode("torch.ops.aten.relu.default", "x", "relu") + ", " +
                    unaryNode("torch.ops.aten.neg.default", "relu", "neg"),
                "neg", tensorValues({"x", "relu", "neg"})),
      "neg");
}

ExportedProgram read(const std::string &json) {
  auto ep = readProgram(json);
  if (!ep) {
    ADD_FAILURE() << llvm::toString(ep.takeError());
    return ExportedProgram();
  }
  return std::move(*ep);
}

Node *nodeNamed(Graph &g, llvm::StringRef name) {
  for (Node &n : g.getNodes())
    if (n.getName() == name)
      return &n;
  return nullptr;
}

/// The first operand slot of `n`.
Use *firstOperand(Node &n) {
  Use *found = nullptr;
  n.forEachOperand([&](Use *u) {
    if (!found)
      found = u;
  });
  return found;
}

std::vector<std::string> rules(const std::vector<Diagnostic> &diags) {
  std::vector<std::string> out;
  for (const Diagnostic &d : diags)
    out.push_back(d.rule);
  return out;
}

std::string dump(const std::vector<Diagnostic> &diags) {
  std::string out;
  llvm::raw_string_ostream os(out);
  printDiagnostics(os, "t.json", diags);
  return out;
}

//===----------------------------------------------------------------------===//
// Corpus
//===----------------------------------------------------------------------===//

struct CorpusCase {
  const char *file;
  const char *dialect;
};

const CorpusCase Corpus[] = {{"buffer_mutation.json", "ATEN"},
                             {"cnn.json", "TRAINING"},
                             {"dyn_mlp.json", "ATEN"},
                             {"dyn_mlp_str_expr.json", "ATEN"},
                             {"gpt_d2.json", "ATEN"},
                             {"lstm.json", "TRAINING"},
                             {"mlp.json", "ATEN"},
                             {"ops_zoo.json", "TRAINING"}};

TEST(VerifierCorpus, EveryProgramVerifiesCleanUnderItsDialect) {
  for (const CorpusCase &c : Corpus) {
    SCOPED_TRACE(c.file);
    auto ep = readProgramFile(std::string(PT2IR_TEST_DIR "/corpus/") + c.file);
    ASSERT_TRUE(bool(ep)) << llvm::toString(ep.takeError());
    ASSERT_EQ(ep->verifiers.size(), 1u);
    EXPECT_EQ(ep->verifiers[0], c.dialect);

    EXPECT_EQ(dump(verifyProgram(*ep)), "");
    VerifyOptions forced;
    forced.dialect = c.dialect;
    forced.verifyOps = true;
    EXPECT_EQ(dump(verifyProgram(*ep, forced)), "");
    // Everything ATEN accepts, TRAINING accepts too.
    forced.dialect = TrainingDialect;
    EXPECT_EQ(dump(verifyProgram(*ep, forced)), "");
  }
}

TEST(VerifierCorpus, TrainingProgramUnderAtenReportsItsInPlaceOps) {
  auto ep = readProgramFile(PT2IR_TEST_DIR "/corpus/ops_zoo.json");
  ASSERT_TRUE(bool(ep)) << llvm::toString(ep.takeError());
  VerifyOptions options;
  options.dialect = AtenDialect;
  std::vector<Diagnostic> diags = verifyProgram(*ep, options);
  ASSERT_EQ(diags.size(), 1u) << dump(diags);
  EXPECT_EQ(diags[0].rule, "non-functional-op");
  EXPECT_EQ(diags[0].nodeName, "uniform_");
  EXPECT_EQ(diags[0].jsonPath, "graph_module.graph.nodes[13].target");
  EXPECT_EQ(diags[0].message,
            "operator 'aten::uniform_.default' mutates 'self' (Tensor(a!)); "
            "the ATEN dialect allows only functional operators");
}

//===----------------------------------------------------------------------===//
// Rules only the API can break
//===----------------------------------------------------------------------===//

TEST(VerifierStructure, BaseProgramIsClean) {
  ExportedProgram ep = read(reluNegProgram());
  EXPECT_EQ(dump(verifyProgram(ep)), "");
}

TEST(VerifierStructure, UseBeforeDefAfterMovingANode) {
  ExportedProgram ep = read(reluNegProgram());
  Graph &g = ep.getGraph();
  Node *neg = nodeNamed(g, "neg");
  ASSERT_NE(neg, nullptr);
  g.moveBefore(neg, g.begin());
  std::vector<Diagnostic> diags = verifyProgram(ep);
  ASSERT_EQ(diags.size(), 1u) << dump(diags);
  EXPECT_EQ(dump(diags),
            "t.json: error: graph_module.graph.nodes[0].inputs[0].arg: "
            "[use-before-def] node 'neg': uses 'relu' before its definition "
            "by node 'relu' (graph_module.graph.nodes[1])\n");
}

TEST(VerifierStructure, NodeReadingItsOwnOutput) {
  ExportedProgram ep = read(reluNegProgram());
  Node *relu = nodeNamed(ep.getGraph(), "relu");
  firstOperand(*relu)->set(relu->getSingleResult());
  std::vector<Diagnostic> diags = verifyProgram(ep);
  ASSERT_EQ(rules(diags), std::vector<std::string>{"use-before-def"});
  EXPECT_EQ(diags[0].message, "uses its own output 'relu'");
  EXPECT_EQ(diags[0].jsonPath, "graph_module.graph.nodes[0].inputs[0].arg");
}

TEST(VerifierStructure, ClearedOperandIsUndefined) {
  ExportedProgram ep = read(reluNegProgram());
  firstOperand(*nodeNamed(ep.getGraph(), "neg"))->set(nullptr);
  std::vector<Diagnostic> diags = verifyProgram(ep);
  ASSERT_EQ(rules(diags), std::vector<std::string>{"undefined-value"});
  EXPECT_EQ(diags[0].message,
            "uses 'relu', which no graph input or node of this graph defines");
  EXPECT_EQ(diags[0].nodeName, "neg");
}

TEST(VerifierStructure, UseOfErasedValue) {
  ExportedProgram ep = read(reluNegProgram());
  Graph &g = ep.getGraph();
  // Add an unused node, keep its value, erase it, then point `neg` at it.
  NodeSpec spec;
  IRContext &ctx = ep.getContext();
  spec.target = ctx.intern("torch.ops.aten.abs.default");
  spec.inputs.push_back(
      NamedArgument{ctx.intern("self"), Argument::tensor(ctx, "x"), 1, {}});
  spec.outputs.push_back(Argument::tensor(ctx, "dead"));
  auto created = g.appendNode(std::move(spec));
  ASSERT_TRUE(bool(created)) << llvm::toString(created.takeError());
  Value *dead = (*created)->getSingleResult();
  ASSERT_FALSE(bool(g.eraseNode(*created)));
  firstOperand(*nodeNamed(g, "neg"))->set(dead);
  std::vector<Diagnostic> diags = verifyProgram(ep);
  ASSERT_EQ(rules(diags), std::vector<std::string>{"undefined-value"});
  EXPECT_EQ(diags[0].message, "uses 'dead', whose definition was erased");
  firstOperand(*nodeNamed(g, "neg"))->set(g.lookupValue("relu"));
  EXPECT_EQ(dump(verifyProgram(ep)), "");
}

TEST(VerifierStructure, UseOfTableOnlyValue) {
  ExportedProgram ep = read(reluNegProgram());
  Graph &g = ep.getGraph();
  Value *ghost = g.createTableOnlyValue("ghost", ValueType::Tensor);
  firstOperand(*nodeNamed(g, "neg"))->set(ghost);
  std::vector<Diagnostic> diags = verifyProgram(ep);
  ASSERT_EQ(rules(diags), std::vector<std::string>{"undefined-value"});
  EXPECT_EQ(diags[0].message, "uses 'ghost', which only a value table names; "
                              "no graph input or node defines it");
}

TEST(VerifierStructure, UseOfAnotherGraphsValue) {
  ExportedProgram ep = read(reluNegProgram());
  ExportedProgram other = read(reluNegProgram());
  Use *u = firstOperand(*nodeNamed(ep.getGraph(), "neg"));
  u->set(other.getGraph().lookupValue("relu"));
  std::vector<Diagnostic> diags = verifyProgram(ep);
  u->set(ep.getGraph().lookupValue("relu")); // Unlink before `other` dies.
  ASSERT_EQ(rules(diags), std::vector<std::string>{"foreign-value"});
  EXPECT_EQ(diags[0].jsonPath, "graph_module.graph.nodes[1].inputs[0].arg");
}

/// Appends `torch.ops.higher_order.call_torchbind(args...)`, every input
/// positional, with no outputs (a method returning None) to the top-level
/// graph.
template <typename... Args>
void appendTorchbindCall(ExportedProgram &ep, Args &&...argList) {
  std::vector<Argument> args;
  (args.push_back(std::forward<Args>(argList)), ...);
  IRContext &ctx = ep.getContext();
  NodeSpec spec;
  spec.target = ctx.intern("torch.ops.higher_order.call_torchbind");
  for (Argument &arg : args)
    spec.inputs.push_back(NamedArgument{ctx.intern(""), std::move(arg), 1, {}});
  auto created = ep.getGraph().appendNode(std::move(spec));
  ASSERT_TRUE(bool(created)) << llvm::toString(created.takeError());
}

const char *const FooClass = "__torch__.torch.classes._TorchScriptTesting._Foo";

TEST(VerifierTorchbind, CallBuiltThroughTheApiIsChecked) {
  ExportedProgram ep = read(reluNegProgram());
  IRContext &ctx = ep.getContext();
  // A constant object (no graph input defines it) and its method: fine.
  appendTorchbindCall(ep, Argument::customObj(ctx, "_torchbind_obj0", FooClass),
                      Argument::string("reset"), Argument::tensor(ctx, "relu"));
  EXPECT_EQ(dump(verifyProgram(ep)), "");

  // Object and method swapped, then a call with no arguments at all.
  appendTorchbindCall(ep, Argument::string("reset"),
                      Argument::customObj(ctx, "_torchbind_obj0", FooClass));
  appendTorchbindCall(ep);
  std::vector<Diagnostic> diags = verifyProgram(ep);
  ASSERT_EQ(rules(diags),
            (std::vector<std::string>{"call-torchbind", "call-torchbind",
                                      "call-torchbind"}))
      << dump(diags);
  EXPECT_EQ(diags[0].jsonPath, "graph_module.graph.nodes[3].inputs[0].arg");
  EXPECT_EQ(diags[0].message,
            "the first input of call_torchbind must be the object "
            "(as_custom_obj), but it is as_string");
  EXPECT_EQ(diags[1].jsonPath, "graph_module.graph.nodes[3].inputs[1].arg");
  EXPECT_EQ(diags[1].message,
            "the second input of call_torchbind must be the method name "
            "(as_string), but it is as_custom_obj");
  EXPECT_EQ(diags[2].jsonPath, "graph_module.graph.nodes[4].inputs");
  EXPECT_EQ(diags[2].message, "call_torchbind takes (obj, method, *args, "
                              "**kwargs), but the node has 0 inputs");
}

TEST(VerifierTorchbind, RunsWithoutADialect) {
  // The layout rule is structural: it also runs when `verifiers` is empty.
  ExportedProgram ep = read(reluNegProgram());
  ep.verifiers.clear();
  appendTorchbindCall(ep, Argument::customObj(ep.getContext(), "obj", FooClass),
                      Argument::integer(3));
  std::vector<Diagnostic> diags = verifyProgram(ep);
  ASSERT_EQ(rules(diags), std::vector<std::string>{"call-torchbind"})
      << dump(diags);
  EXPECT_EQ(diags[0].message, "the second input of call_torchbind must be the "
                              "method name (as_string), but it is as_int");
}

//===----------------------------------------------------------------------===//
// Reporting
//===----------------------------------------------------------------------===//

TEST(VerifierReporting, EveryViolationInProgramOrder) {
  // Two independent problems, reported in program order even though the
  // signature is checked before operators: an unknown operator in the
  // second node, and a signature output naming the wrong value.
  std::string graph = graphJson(
      unaryNode("torch.ops.aten.relu.default", "x", "relu") + ", " +
          unaryNode("torch.ops.aten.no_such_op.default", "relu", "neg"),
      "neg", tensorValues({"x", "relu", "neg"}));
  std::string json = programJson(graph, "relu");
  ExportedProgram ep = read(json);
  std::vector<Diagnostic> diags = verifyProgram(ep);
  EXPECT_EQ(rules(diags),
            (std::vector<std::string>{"unknown-op", "signature-output-name"}))
      << dump(diags);
  for (size_t i = 1; i < diags.size(); ++i)
    EXPECT_LT(diags[i - 1].order, diags[i].order);
  EXPECT_EQ(diags[0].message,
            "unknown operator 'aten::no_such_op.default' (registered "
            "namespaces: aten)");
}

TEST(VerifierReporting, NoDialectMeansNoOperatorChecks) {
  std::string graph =
      graphJson(unaryNode("torch.ops.mylib.frobnicate.default", "x", "f"), "f",
                tensorValues({"x", "f"}));
  ExportedProgram ep = read(programJson(graph, "f"));
  ep.verifiers.clear();
  EXPECT_EQ(dump(verifyProgram(ep)), "");
  VerifyOptions ops;
  ops.verifyOps = true;
  EXPECT_EQ(rules(verifyProgram(ep, ops)),
            std::vector<std::string>{"unknown-op"});
}

TEST(VerifierReporting, CustomRegistryMakesCustomOperatorsKnown) {
  std::string graph =
      graphJson(unaryNode("torch.ops.mylib.frobnicate.default", "x", "f"), "f",
                tensorValues({"x", "f"}));
  auto registry = std::make_shared<Registry>();
  ASSERT_FALSE(bool(registry->getOperators().registerSchema(
      "mylib::frobnicate(Tensor input, int level=1) -> Tensor")));
  ReadOptions readOptions;
  readOptions.registry = registry;
  ExportedProgram ep =
      llvm::cantFail(readProgram(programJson(graph, "f"), readOptions));
  std::vector<Diagnostic> diags = verifyProgram(ep);
  // Known now, so its arguments are checked: the node passes `self`.
  ASSERT_EQ(rules(diags), (std::vector<std::string>{"schema-unknown-argument",
                                                    "schema-missing-argument"}))
      << dump(diags);
  EXPECT_EQ(diags[0].message, "operator 'mylib::frobnicate.default' has no "
                              "argument 'self' (its arguments: input, level)");
}

TEST(VerifierReporting, SubgraphFindingsCarrySubgraphPaths) {
  std::string body =
      graphJson(unaryNode("torch.ops.aten.relu.default", "x", "r"), "r",
                tensorValues({"x"})); // `r` lacks its tensor_values entry.
  std::string hop =
      R"({"target": "torch.ops.higher_order.wrap", "inputs": [{"name": "", "arg": {"as_graph": {"name": "body", "graph": )" +
      body +
      R"(}}, "kind": 1}, {"name": "", "arg": {"as_tensor": {"name": "x"}}, "kind": 1}], "outputs": [{"as_tensor": {"name": "w"}}], "metadata": {}, "name": "w"})";
  ExportedProgram ep =
      read(programJson(graphJson(hop, "w", tensorValues({"x", "w"})), "w"));
  std::vector<Diagnostic> diags = verifyProgram(ep);
  ASSERT_EQ(rules(diags), std::vector<std::string>{"missing-value-meta"})
      << dump(diags);
  EXPECT_EQ(diags[0].jsonPath, "graph_module.graph.nodes[0].inputs[0].arg."
                               "as_graph.graph.nodes[0].outputs[0]");
  EXPECT_EQ(diags[0].message, "Tensor value 'r' has no tensor_values entry");
}

TEST(VerifierReporting, SubgraphDepthIsCapped) {
  // wrap(wrap(wrap(relu))) : three levels of subgraphs.
  std::string inner =
      graphJson(unaryNode("torch.ops.aten.relu.default", "x", "r"), "r",
                tensorValues({"x", "r"}));
  for (int level = 0; level < 3; ++level) {
    std::string hop =
        R"({"target": "torch.ops.higher_order.wrap", "inputs": [{"name": "", "arg": {"as_graph": {"name": "body", "graph": )" +
        inner +
        R"(}}, "kind": 1}, {"name": "", "arg": {"as_tensor": {"name": "x"}}, "kind": 1}], "outputs": [{"as_tensor": {"name": "r"}}], "metadata": {}, "name": "r"})";
    inner = graphJson(hop, "r", tensorValues({"x", "r"}));
  }
  ExportedProgram ep = read(programJson(inner, "r"));
  EXPECT_EQ(dump(verifyProgram(ep)), "");
  VerifyOptions options;
  options.maxSubgraphDepth = 2;
  std::vector<Diagnostic> diags = verifyProgram(ep, options);
  ASSERT_EQ(rules(diags), std::vector<std::string>{"subgraph-depth"});
  EXPECT_EQ(diags[0].jsonPath, "graph_module.graph.nodes[0].inputs[0].arg."
                               "as_graph.graph.nodes[0].inputs[0].arg."
                               "as_graph.graph.nodes[0]");
}

TEST(VerifierReporting, TreespecLeafCountsMatchTheSignature) {
  ExportedProgram ep = read(reluNegProgram());
  EXPECT_EQ(dump(verifyProgram(ep)), "");
  // forward(x, y): one leaf too many.
  ModuleCallSignature &sig = *ep.graphModule.moduleCallGraph[0].signature;
  sig.inSpec = R"([1, {"type": "builtins.tuple", "context": "null", )"
               R"("children_spec": [{"type": "builtins.tuple", "context": )"
               R"("null", "children_spec": [{"type": null, "context": null, )"
               R"("children_spec": []}, {"type": null, "context": null, )"
               R"("children_spec": []}]}, {"type": "builtins.dict", )"
               R"("context": "[]", "children_spec": []}]}])";
  std::vector<Diagnostic> diags = verifyProgram(ep);
  ASSERT_EQ(rules(diags), std::vector<std::string>{"module-call-graph-spec"});
  EXPECT_EQ(diags[0].jsonPath,
            "graph_module.module_call_graph[0].signature.in_spec");
  EXPECT_EQ(diags[0].message,
            "in_spec of the root module has 2 leaves, but the signature has 1 "
            "user input");
}

TEST(VerifierReporting, ProgramsVerifyConcurrently) {
  ExportedProgram a = read(reluNegProgram());
  ExportedProgram b = read(reluNegProgram());
  b.getGraph().moveBefore(nodeNamed(b.getGraph(), "neg"), b.getGraph().begin());
  std::vector<Diagnostic> da, db;
  std::thread ta([&] {
    for (int i = 0; i < 50; ++i)
      da = verifyProgram(a);
  });
  std::thread tb([&] {
    for (int i = 0; i < 50; ++i)
      db = verifyProgram(b);
  });
  ta.join();
  tb.join();
  EXPECT_TRUE(da.empty());
  EXPECT_EQ(rules(db), std::vector<std::string>{"use-before-def"});
}

TEST(VerifierReporting, LongChainVerifiesCleanly) {
  std::string nodes;
  std::vector<std::string> names{"x"};
  for (int i = 0; i < 20000; ++i) {
    std::string in = names.back(), out = "r" + std::to_string(i);
    nodes +=
        (i ? ", " : "") + unaryNode("torch.ops.aten.relu.default", in, out);
    names.push_back(out);
  }
  ExportedProgram ep = read(programJson(
      graphJson(nodes, names.back(), tensorValues(names)), names.back()));
  VerifyOptions options;
  options.verifyOps = true;
  EXPECT_EQ(dump(verifyProgram(ep, options)), "");
}

//===----------------------------------------------------------------------===//
// Expected diagnostics
//===----------------------------------------------------------------------===//

Diagnostic diag(Severity s, std::string path, std::string node,
                std::string rule, std::string message) {
  Diagnostic d;
  d.severity = s;
  d.jsonPath = std::move(path);
  d.nodeName = std::move(node);
  d.rule = std::move(rule);
  d.message = std::move(message);
  return d;
}

TEST(ExpectedDiagnostics, ParsesLocationsRulesAndMessages) {
  auto parsed = parseExpectedDiagnostics(
      "// RUN: not relevant --expected-diagnostics=%s\n"
      "// expected-error@graph_module.graph.nodes[2] [use-before-def] "
      "{{uses 'relu'}}\n"
      "\n"
      "# expected-warning@relu {{unused}}\n"
      "expected-error {{anything}}\n",
      "exp.txt");
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  ASSERT_EQ(parsed->size(), 3u);
  const ExpectedDiagnostic &a = (*parsed)[0];
  EXPECT_EQ(a.severity, Severity::Error);
  EXPECT_EQ(a.locationKind, ExpectedDiagnostic::LocationKind::JsonPath);
  EXPECT_EQ(a.location, "graph_module.graph.nodes[2]");
  EXPECT_EQ(a.rule, "use-before-def");
  EXPECT_EQ(a.message, "uses 'relu'");
  EXPECT_EQ(a.line, 2u);
  EXPECT_EQ((*parsed)[1].severity, Severity::Warning);
  EXPECT_EQ((*parsed)[1].locationKind,
            ExpectedDiagnostic::LocationKind::NodeName);
  EXPECT_EQ((*parsed)[1].line, 4u);
  EXPECT_EQ((*parsed)[2].locationKind, ExpectedDiagnostic::LocationKind::Any);
}

TEST(ExpectedDiagnostics, MalformedLinesAreErrors) {
  auto noBraces = parseExpectedDiagnostics("\nexpected-error@x oops\n", "e");
  ASSERT_FALSE(bool(noBraces));
  EXPECT_EQ(llvm::toString(noBraces.takeError()),
            "e:2: error: expected '{{' followed by the expected message");
  auto unclosed = parseExpectedDiagnostics("expected-error {{oops", "e");
  ASSERT_FALSE(bool(unclosed));
  EXPECT_EQ(llvm::toString(unclosed.takeError()),
            "e:1: error: expected '}}' after the message");
  auto noRule = parseExpectedDiagnostics("expected-error [] {{x}}", "e");
  EXPECT_FALSE(bool(noRule));
  llvm::consumeError(noRule.takeError());
}

TEST(ExpectedDiagnostics, EachExpectationConsumesOneFinding) {
  std::vector<Diagnostic> diags = {
      diag(Severity::Error, "a.b[0]", "n1", "r1", "first message"),
      diag(Severity::Error, "a.b[1]", "n2", "r1", "second message"),
      diag(Severity::Warning, "a.c", "", "r2", "a warning")};
  auto parsed = parseExpectedDiagnostics("expected-error [r1] {{message}}\n"
                                         "expected-error@n2 {{second}}\n"
                                         "expected-warning@a.c {{warning}}\n",
                                         "e");
  ASSERT_TRUE(bool(parsed));
  std::string out;
  llvm::raw_string_ostream os(out);
  EXPECT_TRUE(checkExpectedDiagnostics(diags, *parsed, "in.json", "e", os));
  EXPECT_EQ(out, "");

  // `n2` is taken first, so the two `{{message}}` expectations compete for
  // `n1`: the second finds nothing, and the warning is unexpected.
  auto tooMany = parseExpectedDiagnostics("expected-error@n2 {{second}}\n"
                                          "expected-error [r1] {{message}}\n"
                                          "expected-error [r1] {{message}}\n",
                                          "e");
  ASSERT_TRUE(bool(tooMany));
  out.clear();
  EXPECT_FALSE(checkExpectedDiagnostics(diags, *tooMany, "in.json", "e", os));
  EXPECT_EQ(out, "e:3: error: expected error [r1] {{message}} was not "
                 "produced\nin.json: error: unexpected warning: a.c: [r2] a "
                 "warning\n");
}

TEST(ExpectedDiagnostics, SeverityAndExactLocationMustMatch) {
  std::vector<Diagnostic> diags = {
      diag(Severity::Warning, "a.b[0]", "n1", "r1", "text")};
  auto wrongSeverity = parseExpectedDiagnostics("expected-error {{text}}", "e");
  auto prefixPath =
      parseExpectedDiagnostics("expected-warning@a.b {{text}}", "e");
  ASSERT_TRUE(bool(wrongSeverity) && bool(prefixPath));
  std::string out;
  llvm::raw_string_ostream os(out);
  EXPECT_FALSE(checkExpectedDiagnostics(diags, *wrongSeverity, "i", "e", os));
  EXPECT_FALSE(checkExpectedDiagnostics(diags, *prefixPath, "i", "e", os));
}

TEST(DiagnosticFormat, PrintsNodeOnlyWhenPresent) {
  std::vector<Diagnostic> diags = {
      diag(Severity::Error, "p.q", "n", "rule-a", "msg a"),
      diag(Severity::Warning, "", "", "rule-b", "msg b")};
  EXPECT_EQ(dump(diags), "t.json: error: p.q: [rule-a] node 'n': msg a\n"
                         "t.json: warning: <root>: [rule-b] msg b\n");
  EXPECT_TRUE(hasErrors(diags));
  EXPECT_EQ(countDiagnostics(diags, Severity::Warning), 1u);
  diags.erase(diags.begin());
  EXPECT_FALSE(hasErrors(diags));
}

} // namespace
