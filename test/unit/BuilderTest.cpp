//===- BuilderTest.cpp - Tests for the Builder and program-wide rewiring --===//
//
// Builder (rewrite/Builder.h): insertion points, argument names and kinds
// from schemas, operand conversion, output names and metadata, provenance,
// errors that leave the graph unchanged. ExportedProgram::replaceAllUsesWith
// and renameValue keep the signature and module call graph in step.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/ir/ExportedProgram.h"
#include "pt2ir/ir/NodeMetadata.h"
#include "pt2ir/rewrite/Builder.h"
#include "pt2ir/serde/ProgramReader.h"
#include "pt2ir/serde/ProgramWriter.h"
#include "pt2ir/verifier/Verifier.h"

#include <gtest/gtest.h>

using namespace pt2ir;

namespace {

std::string errorText(llvm::Error err) {
  return err ? llvm::toString(std::move(err)) : std::string();
}

ExportedProgram readFile(const std::string &name,
                         std::shared_ptr<const Registry> registry = nullptr) {
  ReadOptions options;
  options.registry = std::move(registry);
  auto ep = readProgramFile(std::string(PT2IR_TEST_DIR) + "/corpus/" + name, options);
  if (!ep) {
    ADD_FAILURE() << llvm::toString(ep.takeError());
    return ExportedProgram();
  }
  return std::move(*ep);
}

Node *findNode(Graph &g, llvm::StringRef name) {
  for (Node &n : g.getNodes())
    if (n.getName() == name)
      return &n;
  return nullptr;
}

/// `name:member:kind` for each input of `n`.
std::vector<std::string> inputSummary(const Node &n) {
  std::vector<std::string> out;
  for (const NamedArgument &in : n.getInputs())
    out.push_back(in.name.str() + ":" + argKindMemberName(in.arg.getKind()).str() + ":" +
                  (in.kind ? std::to_string(*in.kind) : "-"));
  return out;
}

bool verifies(const ExportedProgram &ep) {
  std::vector<Diagnostic> diags = verifyProgram(ep);
  for (const Diagnostic &d : diags)
    if (d.severity == Severity::Error)
      ADD_FAILURE() << formatDiagnosticBody(d);
  return !hasErrors(diags);
}

} // namespace

TEST(BuilderTest, CreatesAfterANodeWithSchemaNamesKindsAndUniqueOutputNames) {
  ExportedProgram ep = readFile("mlp.json");
  Graph &g = ep.getGraph();
  Node *relu = findNode(g, "relu");
  ASSERT_NE(relu, nullptr);
  Value *reluValue = relu->getSingleResult();

  Builder b(g);
  b.setInsertionPointAfter(relu);
  // add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1): alpha is
  // keyword-only.
  auto add = b.create("aten::add.Tensor", {reluValue, reluValue}, {{"alpha", 2}},
                      NodeOptions::like(reluValue));
  ASSERT_TRUE(bool(add)) << llvm::toString(add.takeError());
  EXPECT_EQ((*add)->getTarget(), "torch.ops.aten.add.Tensor");
  EXPECT_EQ(inputSummary(**add), (std::vector<std::string>{"self:as_tensor:1", "other:as_tensor:1",
                                                            "alpha:as_int:2"}));
  EXPECT_EQ(std::next(relu->getIterator()), (*add)->getIterator());
  // The next node goes after the first: the insertion point stays before
  // relu's old successor.
  auto second = b.createValue("aten::relu", {(*add)->getSingleResult()}, {},
                              NodeOptions::like(reluValue));
  ASSERT_TRUE(bool(second)) << llvm::toString(second.takeError());
  EXPECT_EQ((*second)->getName(), "relu_3"); // relu, relu_1 and relu_2 exist.
  EXPECT_EQ(std::next((*add)->getIterator()), (*second)->getDefiningNode()->getIterator());
  EXPECT_EQ((*add)->getName(), "add");
  EXPECT_EQ((*add)->getStoredName(), std::optional<llvm::StringRef>("add"));
  ASSERT_NE((*second)->getTensorMeta(), nullptr);
  EXPECT_EQ((*second)->getTensorMeta()->getStaticShape(),
            reluValue->getTensorMeta()->getStaticShape());
  EXPECT_TRUE(verifies(ep));
}

TEST(BuilderTest, ConvertsConstantsListsAndSkipsDefaults) {
  ExportedProgram ep = readFile("mlp.json");
  Graph &g = ep.getGraph();
  Value *relu = findNode(g, "relu")->getSingleResult();
  Builder b(g);
  b.setInsertionPointAfter(relu->getDefiningNode());
  TensorMeta flat = TensorMeta::contiguous(ep.getContext(), ScalarType::FLOAT, {-1});
  NodeOptions options;
  options.outputMeta = {flat};
  auto view = b.create("torch.ops.aten.view.default", {relu, {2, -1}}, {}, options);
  ASSERT_TRUE(bool(view)) << llvm::toString(view.takeError());
  EXPECT_EQ(inputSummary(**view), (std::vector<std::string>{"self:as_tensor:1", "size:as_ints:1"}));
  EXPECT_EQ((*view)->getInputs()[1].arg.getInts(), (std::vector<int64_t>{2, -1}));

  // sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *,
  // ScalarType? dtype=None): keepdim given by keyword after an omitted
  // argument stays positional here (dim is given); dtype is keyword-only.
  auto sum = b.create("aten::sum.dim_IntList", {relu, {1}}, {{"dtype", ScalarType::DOUBLE}},
                      NodeOptions::like(relu));
  ASSERT_TRUE(bool(sum)) << llvm::toString(sum.takeError());
  EXPECT_EQ(inputSummary(**sum), (std::vector<std::string>{"self:as_tensor:1", "dim:as_ints:1",
                                                            "dtype:as_scalar_type:2"}));
  // An argument after an omitted defaulted one is passed by keyword.
  auto sum2 = b.create("aten::sum.dim_IntList", {relu, {1}}, {{"dtype", std::nullopt}},
                       NodeOptions::like(relu));
  ASSERT_TRUE(bool(sum2)) << llvm::toString(sum2.takeError());
  EXPECT_EQ(inputSummary(**sum2).back(), "dtype:as_none:2");
  auto mean = b.create("aten::mean.dim", {relu, {0}}, {{"keepdim", true}}, NodeOptions::like(relu));
  ASSERT_TRUE(bool(mean)) << llvm::toString(mean.takeError());
  EXPECT_EQ(inputSummary(**mean), (std::vector<std::string>{"self:as_tensor:1", "dim:as_ints:1",
                                                             "keepdim:as_bool:1"}));
}

TEST(BuilderTest, ErrorsNameTheProblemAndLeaveTheGraphUnchanged) {
  ExportedProgram ep = readFile("mlp.json");
  Graph &g = ep.getGraph();
  Value *relu = findNode(g, "relu")->getSingleResult();
  size_t before = g.size();
  Builder b(g);
  EXPECT_EQ(errorText(b.create("mylib::nothing", {relu}).takeError()),
            "cannot create a call of 'mylib::nothing': no schema is registered for "
            "'torch.ops.mylib.nothing.default'");
  EXPECT_EQ(errorText(b.create("aten::add.Tensor", {relu}).takeError()),
            "cannot create a call of 'aten::add.Tensor': argument 'other' is missing");
  EXPECT_EQ(errorText(b.create("aten::relu", {relu}, {{"bogus", 1}}).takeError()),
            "cannot create a call of 'aten::relu.default': it has no argument 'bogus'");
  EXPECT_EQ(errorText(b.create("aten::relu", {relu, relu}).takeError()),
            "cannot create a call of 'aten::relu.default': it takes at most 1 positional arguments, got 2");
  EXPECT_EQ(errorText(b.create("aten::relu", {3}).takeError()),
            "cannot create a call of 'aten::relu.default': argument 'self' of type 'Tensor' cannot take an int");
  EXPECT_EQ(errorText(b.create("aten::relu", {std::nullopt}).takeError()),
            "cannot create a call of 'aten::relu.default': argument 'self' of type 'Tensor' cannot take None");
  // A tensor for an int list.
  EXPECT_NE(errorText(b.create("aten::view", {relu, relu}, {}, NodeOptions::like(relu)).takeError())
                .find("argument 'size' of type 'SymInt[]' cannot take the Tensor value 'relu'"),
            std::string::npos);
  // Without metadata and with inference turned off, nothing is created.
  b.setMetaInference(nullptr);
  EXPECT_NE(errorText(b.create("aten::relu", {relu}).takeError())
                .find("has no tensor metadata: give it (NodeOptions::outputMeta or NodeOptions::metaLike)"),
            std::string::npos);
  EXPECT_EQ(g.size(), before);
}

TEST(BuilderTest, DefaultInferenceUsesTheShapeRules) {
  ExportedProgram ep = readFile("mlp.json");
  Graph &g = ep.getGraph();
  Value *relu = findNode(g, "relu")->getSingleResult();
  const TensorMeta *in = relu->getTensorMeta();
  ASSERT_NE(in, nullptr);
  Builder b(g);
  b.setInsertionPointAfter(findNode(g, "relu"));
  // No metadata given: the rules of infer/ fill it in.
  auto sum = b.createValue("aten::sum.dim_IntList", {relu, llvm::ArrayRef<int64_t>{1}, true});
  ASSERT_TRUE(bool(sum)) << llvm::toString(sum.takeError());
  const TensorMeta *out = (*sum)->getTensorMeta();
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->dtype, in->dtype);
  ASSERT_EQ(out->rank(), 2u);
  EXPECT_EQ(out->sizes[0].intValue, in->sizes[0].intValue);
  EXPECT_EQ(out->sizes[1].intValue, 1);
  EXPECT_EQ(out->strides[0].intValue, 1);
  // A rule that refuses the inputs is an error naming the node.
  auto bad = b.createValue("aten::mm", {relu, relu});
  ASSERT_FALSE(bool(bad));
  EXPECT_NE(llvm::toString(bad.takeError()).find("cannot be multiplied"), std::string::npos);
}

TEST(BuilderTest, ExtensionOperatorsAndProvenance) {
  auto registry = std::make_shared<Registry>();
  auto ext = SchemaTableExtension::create(
      "mybackend", {"mybackend::linear_relu(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor"});
  ASSERT_TRUE(bool(ext));
  ASSERT_EQ(errorText(registry->getOperators().registerExtension(std::move(*ext))), "");
  ExportedProgram ep = readFile("mlp.json", registry);
  Graph &g = ep.getGraph();
  Node *addmm = findNode(g, "addmm");
  Node *relu = findNode(g, "relu");
  Node *t = findNode(g, "t");
  Builder b(g);
  b.setInsertionPointAfter(relu);
  b.setProvenance({addmm, relu}, "fuse");
  auto fused = b.create("mybackend::linear_relu",
                        {addmm->getInputs()[1].arg.getSingleValue(), t->getInputs()[0].arg.getSingleValue(),
                         addmm->getInputs()[0].arg.getSingleValue()},
                        {}, NodeOptions::like(relu->getSingleResult()));
  ASSERT_TRUE(bool(fused)) << llvm::toString(fused.takeError());
  EXPECT_EQ((*fused)->getTarget(), "#mybackend:linear_relu");
  EXPECT_EQ((*fused)->getName(), "linear_relu");
  const StringPairs &md = (*fused)->getMetadata();
  EXPECT_EQ(lookupMetadata(md, "stack_trace"), lookupMetadata(addmm->getMetadata(), "stack_trace"));
  EXPECT_EQ(lookupMetadata(md, "nn_module_stack"), lookupMetadata(addmm->getMetadata(), "nn_module_stack"));
  std::optional<llvm::StringRef> fromNode = lookupMetadata(md, "from_node");
  ASSERT_TRUE(fromNode.has_value());
  auto parsed = parseJsonMetadata(*fromNode);
  ASSERT_TRUE(bool(parsed));
  ASSERT_TRUE(parsed->getAsArray());
  ASSERT_EQ(parsed->getAsArray()->size(), 2u);
  const llvm::json::Object *first = (*parsed->getAsArray())[0].getAsObject();
  EXPECT_EQ(first->getString("name"), std::optional<llvm::StringRef>("addmm"));
  EXPECT_EQ(first->getString("pass_name"), std::optional<llvm::StringRef>("fuse"));

  // The fused value replaces relu everywhere; dce-free check: it verifies
  // and round-trips.
  ASSERT_EQ(errorText(ep.replaceAllUsesWith(relu->getSingleResult(), (*fused)->getSingleResult())), "");
  EXPECT_TRUE(verifies(ep));
  std::string json = writeProgram(ep);
  ReadOptions options;
  options.registry = registry;
  auto reread = readProgram(json, options);
  ASSERT_TRUE(bool(reread)) << llvm::toString(reread.takeError());
  EXPECT_EQ(writeProgram(*reread), json);
}

TEST(RewiringTest, ReplacingAGraphOutputUpdatesTheSignature) {
  ExportedProgram ep = readFile("mlp.json");
  Graph &g = ep.getGraph();
  Value *out = g.getOutputs()[0].getSingleValue();
  ASSERT_EQ(out->getName(), "_log_softmax");
  Node *softmax = out->getDefiningNode();
  Value *logits = softmax->getInputs()[0].arg.getSingleValue();
  Builder b(g);
  b.setInsertionPointAfter(softmax);
  auto relu = b.createValue("aten::relu", {logits}, {}, NodeOptions::like(out));
  ASSERT_TRUE(bool(relu)) << llvm::toString(relu.takeError());
  ASSERT_EQ(errorText(ep.replaceAllUsesWith(out, *relu)), "");
  EXPECT_EQ(g.getOutputs()[0].getSingleValue(), *relu);
  // Value::replaceAllUsesWith alone would leave output_specs naming
  // _log_softmax.
  EXPECT_EQ(ep.graphModule.signature.outputSpecs[0].getArgName(), (*relu)->getName());
  EXPECT_TRUE(out->useEmpty());
  ASSERT_EQ(errorText(g.eraseNode(softmax)), "");
  EXPECT_TRUE(verifies(ep));
}

TEST(RewiringTest, RenameReachesSpecsModuleCallGraphAndNodeNames) {
  ExportedProgram ep = readFile("buffer_mutation.json");
  Graph &g = ep.getGraph();
  // Rename every graph input and output value, then verify.
  std::vector<Value *> values = g.getInputValues();
  for (const Argument &out : g.getOutputs())
    if (Value *v = out.getSingleValue())
      values.push_back(v);
  unsigned i = 0;
  for (Value *v : values) {
    if (v->getName().starts_with("renamed_"))
      continue;
    ASSERT_EQ(errorText(ep.renameValue(v, "renamed_" + std::to_string(i++))), "");
  }
  for (const InputSpec &spec : ep.graphModule.signature.inputSpecs) {
    if (spec.kind != InputKind::ConstantInput) {
      EXPECT_TRUE(spec.getArgName().starts_with("renamed_")) << spec.getArgName().str();
    }
  }
  for (const OutputSpec &spec : ep.graphModule.signature.outputSpecs) {
    if (!spec.getArgName().empty()) { // Not the constant output.
      EXPECT_TRUE(spec.getArgName().starts_with("renamed_")) << spec.getArgName().str();
    }
  }
  EXPECT_TRUE(verifies(ep));
  // Node names follow their output.
  for (Node &n : g.getNodes()) {
    Value *v = n.getSingleResult();
    if (v && v->getName().starts_with("renamed_")) {
      EXPECT_EQ(n.getName(), v->getName());
    }
  }

  Value *first = g.getInputValues()[0];
  Value *second = g.getInputValues()[1];
  EXPECT_EQ(errorText(ep.renameValue(first, second->getName())),
            "cannot rename '" + first->getName().str() + "' to '" + second->getName().str() +
                "': the name is taken");
}

TEST(RewiringTest, ReplaceRefusesMismatchedValues) {
  ExportedProgram ep = readFile("dyn_mlp.json");
  Graph &g = ep.getGraph();
  Value *tensor = g.getInputValues()[0];
  Value *sym = nullptr;
  for (Node &n : g.getNodes())
    for (Value *v : n.getResults())
      if (v->getType() == ValueType::SymInt && !sym)
        sym = v;
  if (!sym)
    GTEST_SKIP() << "no SymInt value in dyn_mlp.json";
  EXPECT_EQ(errorText(ep.replaceAllUsesWith(tensor, sym)),
            "cannot replace Tensor '" + tensor->getName().str() + "' with SymInt '" +
                sym->getName().str() + "'");
}
