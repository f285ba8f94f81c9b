//===- IRTest.cpp - Tests for the IR API ----------------------------------===//
//
// Builds graphs through the API (inputs, NodeSpec nodes, outputs, an as_graph
// subgraph) and checks def-use links, insertion, erasure, replace-all-uses,
// walk order, deep cloning, interning, value-table order, and a corpus
// program read and written back through the API.
//
// It does not test the JSON reader's error messages (test/lit/errors) nor
// each schema construct (test/lit/schema).
//
//===----------------------------------------------------------------------===//

#include "pt2ir/ir/ExportedProgram.h"
#include "pt2ir/ir/Graph.h"
#include "pt2ir/ir/IRContext.h"
#include "pt2ir/ir/IRListener.h"
#include "pt2ir/serde/ProgramReader.h"
#include "pt2ir/serde/ProgramWriter.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace pt2ir;

namespace {

std::string errorText(llvm::Error err) {
  return err ? llvm::toString(std::move(err)) : std::string();
}

template <typename T> std::string errorText(llvm::Expected<T> &value) {
  return value ? std::string() : llvm::toString(value.takeError());
}

/// A positional tensor input named `argName` reading `value`.
NamedArgument tensorInput(IRContext &ctx, llvm::StringRef argName,
                          llvm::StringRef value) {
  return NamedArgument{
      ctx.intern(argName), Argument::tensor(ctx, value), 1, {}};
}

/// A node `target(inputs...)` defining one tensor named `out`.
NodeSpec tensorNode(IRContext &ctx, llvm::StringRef target,
                    std::vector<llvm::StringRef> inputs, llvm::StringRef out) {
  NodeSpec spec;
  spec.target = ctx.intern(target);
  static const char *const ArgNames[] = {"self", "other", "third"};
  for (size_t i = 0; i < inputs.size(); ++i)
    spec.inputs.push_back(tensorInput(ctx, ArgNames[i], inputs[i]));
  spec.outputs.push_back(Argument::tensor(ctx, out));
  spec.name = ctx.intern(out);
  return spec;
}

TensorMeta f32(std::vector<int64_t> sizes) {
  TensorMeta m;
  m.dtype = ScalarType::FLOAT;
  m.device.type = "cpu";
  int64_t stride = 1;
  std::vector<SymValue> strides(sizes.size());
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = SymValue::ofInt(stride);
    stride *= sizes[i];
  }
  for (int64_t s : sizes)
    m.sizes.push_back(SymValue::ofInt(s));
  m.strides = std::move(strides);
  m.storageOffset = SymValue::ofInt(0);
  return m;
}

std::vector<std::string> nodeNames(Graph &g) {
  std::vector<std::string> names;
  g.walk([&](Node *n) { names.push_back(n->getName().str()); });
  return names;
}

std::vector<std::string> userNames(const Value *v) {
  std::vector<std::string> names;
  for (Use *u : v->uses())
    names.push_back(u->getUser() ? u->getUser()->getName().str() : "<output>");
  std::sort(names.begin(), names.end());
  return names;
}

/// x, y -> a = relu(x); b = add(a, y); return b. Top-level graph of a
/// program with matching user input/output specs.
struct Chain {
  ExportedProgram ep;
  Graph &g = ep.getGraph();
  IRContext &ctx = ep.getContext();
  Node *relu = nullptr;
  Node *add = nullptr;

  Chain() {
    for (llvm::StringRef in : {"x", "y"}) {
      EXPECT_EQ(errorText(g.addInput(Argument::tensor(ctx, in))), "");
      InputSpec spec;
      spec.arg = Argument::tensor(ctx, in);
      ep.graphModule.signature.inputSpecs.push_back(std::move(spec));
    }
    auto r = g.appendNode(
        tensorNode(ctx, "torch.ops.aten.relu.default", {"x"}, "a"));
    EXPECT_EQ(errorText(r), "");
    relu = *r;
    auto s = g.appendNode(
        tensorNode(ctx, "torch.ops.aten.add.Tensor", {"a", "y"}, "b"));
    EXPECT_EQ(errorText(s), "");
    add = *s;
    EXPECT_EQ(errorText(g.addOutput(Argument::tensor(ctx, "b"))), "");
    OutputSpec out;
    out.arg = Argument::tensor(ctx, "b");
    ep.graphModule.signature.outputSpecs.push_back(std::move(out));
    ep.opsetVersion.emplace_back(ctx.intern("aten"), 0);
  }
  Value *value(llvm::StringRef name) { return g.lookupValue(name); }
};

TEST(IRTest, BuildsAGraphAndWritesIt) {
  Chain c;
  ASSERT_EQ(c.g.size(), 2u);
  Value *x = c.value("x"), *a = c.value("a"), *b = c.value("b");
  ASSERT_TRUE(x && a && b);
  EXPECT_TRUE(x->isGraphInput());
  EXPECT_EQ(x->getDefiningNode(), nullptr);
  EXPECT_EQ(a->getDefiningNode(), c.relu);
  EXPECT_EQ(a->getOrigin(), ValueOrigin::NodeOutput);
  EXPECT_EQ(a->getType(), ValueType::Tensor);
  EXPECT_EQ(a->getGraph(), &c.g);
  EXPECT_EQ(c.relu->getGraph(), &c.g);
  EXPECT_EQ(c.g.getInputValues(), (std::vector<Value *>{x, c.value("y")}));
  EXPECT_EQ(c.add->getResults(), std::vector<Value *>{b});
  EXPECT_EQ(c.add->getSingleResult(), b);
  ASSERT_NE(c.add->findInput("other"), nullptr);
  EXPECT_EQ(c.add->findInput("other")->arg.getSingleValue(), c.value("y"));
  EXPECT_EQ(c.add->findInput("nope"), nullptr);
  EXPECT_EQ(c.g.getOutputs()[0].getSingleValue(), b);

  std::string json = writeProgram(c.ep);
  EXPECT_NE(
      json.find(
          R"("nodes": [{"target": "torch.ops.aten.relu.default", "inputs": [{"name": "self", )"
          R"("arg": {"as_tensor": {"name": "x"}}, "kind": 1}], "outputs": [{"as_tensor": {"name": "a"}}], )"
          R"("metadata": {}, "is_hop_single_tensor_return": null, "name": "a"}, {"target": )"
          R"("torch.ops.aten.add.Tensor", "inputs": [{"name": "self", "arg": {"as_tensor": {"name": "a"}}, )"
          R"("kind": 1}, {"name": "other", "arg": {"as_tensor": {"name": "y"}}, "kind": 1}], "outputs": )"
          R"([{"as_tensor": {"name": "b"}}], "metadata": {}, "is_hop_single_tensor_return": null, "name": "b"}])"),
      std::string::npos)
      << json;
  // What the API built reads back to the same bytes.
  auto reread = readProgram(json);
  ASSERT_EQ(errorText(reread), "");
  EXPECT_EQ(writeProgram(*reread), json);
}

TEST(IRTest, CreateNodeRejectsBadNamesAndChangesNothing) {
  Chain c;
  Value *x = c.value("x");
  unsigned xUses = x->getNumUses();

  auto undefined = c.g.appendNode(
      tensorNode(c.ctx, "torch.ops.aten.add.Tensor", {"x", "nope"}, "z"));
  EXPECT_EQ(errorText(undefined), "use of undefined value 'nope'");
  auto twice = c.g.appendNode(
      tensorNode(c.ctx, "torch.ops.aten.neg.default", {"x"}, "a"));
  EXPECT_EQ(errorText(twice), "value 'a' is defined twice");
  auto input = c.g.appendNode(
      tensorNode(c.ctx, "torch.ops.aten.neg.default", {"x"}, "y"));
  EXPECT_EQ(errorText(input), "value 'y' is defined twice");
  auto self = c.g.appendNode(
      tensorNode(c.ctx, "torch.ops.aten.neg.default", {"z"}, "z"));
  EXPECT_EQ(errorText(self), "use of undefined value 'z'");

  EXPECT_EQ(c.g.size(), 2u);
  EXPECT_EQ(x->getNumUses(), xUses);
  EXPECT_EQ(c.g.lookupValue("z"), nullptr);
  EXPECT_EQ(errorText(c.g.addOutput(Argument::tensor(c.ctx, "nope"))),
            "use of undefined value 'nope'");
  EXPECT_EQ(c.g.getOutputs().size(), 1u);
  EXPECT_EQ(errorText(c.g.addInput(Argument::tensor(c.ctx, "a"))),
            "value 'a' is defined twice");
  EXPECT_EQ(c.g.getInputs().size(), 2u);
}

TEST(IRTest, DefUseLinks) {
  Chain c;
  Value *x = c.value("x"), *y = c.value("y"), *a = c.value("a"),
        *b = c.value("b");
  EXPECT_EQ(userNames(x), std::vector<std::string>{"a"});
  EXPECT_EQ(userNames(a), std::vector<std::string>{"b"});
  EXPECT_EQ(userNames(b), std::vector<std::string>{"<output>"});
  EXPECT_EQ(x->getNumUses(), 1u);
  EXPECT_TRUE(y->hasOneUse());
  Use *out = *b->uses().begin();
  EXPECT_EQ(out->getUser(), nullptr);
  EXPECT_EQ(out->getOutputOwner(), &c.g);
  EXPECT_EQ(out->getRole(), UseRole::Operand);

  // A node reading x twice adds two uses; one list argument counts each slot.
  NodeSpec spec =
      tensorNode(c.ctx, "torch.ops.aten.mul.Tensor", {"x", "x"}, "m");
  spec.inputs.push_back(
      {c.ctx.intern("rest"), Argument::tensors(c.ctx, {"x", "a"}), 2, {}});
  auto m = c.g.appendNode(std::move(spec));
  ASSERT_EQ(errorText(m), "");
  EXPECT_EQ(x->getNumUses(), 4u);
  EXPECT_EQ(userNames(x), (std::vector<std::string>{"a", "m", "m", "m"}));
  EXPECT_EQ(a->getNumUses(), 2u);
  EXPECT_TRUE((*m)->hasNoUses());
  EXPECT_FALSE(c.relu->hasNoUses());
  bool sawX = false;
  (*m)->forEachOperand(
      [&](Use *u) { sawX |= u->get() == x && u->getUser() == *m; });
  EXPECT_TRUE(sawX);

  // setInput relinks: the old operand loses its use, the new one gains it.
  ASSERT_EQ(errorText(c.add->setInput(1, Argument::tensor(c.ctx, "x"))), "");
  EXPECT_TRUE(y->useEmpty());
  EXPECT_EQ(x->getNumUses(), 5u);
  EXPECT_EQ(errorText(c.add->setInput(1, Argument::tensor(c.ctx, "nope"))),
            "use of undefined value 'nope'");
  EXPECT_EQ(c.add->getInputs()[1].arg.getSingleValue(), x);
}

TEST(IRTest, InsertBeforeAPosition) {
  Chain c;
  // neg(x) goes between relu and add.
  auto neg = c.g.createNode(
      tensorNode(c.ctx, "torch.ops.aten.neg.default", {"x"}, "n"),
      c.add->getIterator());
  ASSERT_EQ(errorText(neg), "");
  EXPECT_EQ(nodeNames(c.g), (std::vector<std::string>{"a", "n", "b"}));
  // At the front.
  auto first = c.g.createNode(
      tensorNode(c.ctx, "torch.ops.aten.abs.default", {"y"}, "f"), c.g.begin());
  ASSERT_EQ(errorText(first), "");
  EXPECT_EQ(nodeNames(c.g), (std::vector<std::string>{"f", "a", "n", "b"}));
  EXPECT_EQ(c.g.size(), 4u);
  // An operand defined at or after the insertion point would break the
  // program order.
  auto late = c.g.createNode(
      tensorNode(c.ctx, "torch.ops.aten.neg.default", {"b"}, "late"),
      c.add->getIterator());
  EXPECT_EQ(errorText(late), "value 'b' is used before its definition: it is "
                             "defined by node 'b', at or after "
                             "the insertion point");
  auto early = c.g.createNode(
      tensorNode(c.ctx, "torch.ops.aten.neg.default", {"n"}, "early"),
      c.relu->getIterator());
  EXPECT_EQ(errorText(early), "value 'n' is used before its definition: it is "
                              "defined by node 'n', at or after "
                              "the insertion point");
  EXPECT_EQ(c.g.size(), 4u);
  EXPECT_EQ(c.g.lookupValue("late"), nullptr);
  // Reading a value defined just before the position is fine.
  auto after = c.g.createNode(
      tensorNode(c.ctx, "torch.ops.aten.neg.default", {"n", "f"}, "m"),
      c.add->getIterator());
  EXPECT_EQ(errorText(after), "");
  EXPECT_EQ(nodeNames(c.g),
            (std::vector<std::string>{"f", "a", "n", "m", "b"}));
}

TEST(IRTest, EraseIsRefusedWhileUsed) {
  Chain c;
  EXPECT_EQ(errorText(c.g.eraseNode(c.relu)),
            "cannot erase node 'a': its value 'a' is still used by node 'b'");
  EXPECT_EQ(
      errorText(c.g.eraseNode(c.add)),
      "cannot erase node 'b': its value 'b' is still used by the graph output");
  EXPECT_EQ(c.g.size(), 2u);
  EXPECT_NE(c.g.lookupValue("a"), nullptr);

  // After its use is gone the node goes, and so do its uses of x.
  Value *x = c.value("x"), *a = c.value("a");
  ASSERT_EQ(errorText(c.add->setInput(0, Argument::tensor(c.ctx, "x"))), "");
  EXPECT_TRUE(a->useEmpty());
  EXPECT_EQ(x->getNumUses(), 2u);
  ASSERT_EQ(errorText(c.g.eraseNode(c.relu)), "");
  EXPECT_EQ(c.g.size(), 1u);
  EXPECT_EQ(c.g.lookupValue("a"), nullptr);
  EXPECT_EQ(x->getNumUses(), 1u);
  EXPECT_EQ(nodeNames(c.g), std::vector<std::string>{"b"});
  // The freed name can be defined again.
  auto again = c.g.appendNode(
      tensorNode(c.ctx, "torch.ops.aten.relu.default", {"b"}, "a"));
  EXPECT_EQ(errorText(again), "");
}

TEST(IRTest, ReplaceAllUsesWithIncludingGraphOutputs) {
  Chain c;
  Value *x = c.value("x"), *a = c.value("a"), *b = c.value("b");
  // b is only read by the graph output.
  b->replaceAllUsesWith(a);
  EXPECT_TRUE(b->useEmpty());
  EXPECT_EQ(c.g.getOutputs()[0].getSingleValue(), a);
  EXPECT_EQ(c.g.getOutputs()[0].getSingleValue()->getName(), "a");
  EXPECT_EQ(userNames(a), (std::vector<std::string>{"<output>", "b"}));
  ASSERT_EQ(errorText(c.g.eraseNode(c.add)), "");
  // a is read by the output only now; replacing it with x empties relu.
  a->replaceAllUsesWith(x);
  EXPECT_TRUE(a->useEmpty());
  EXPECT_EQ(x->getNumUses(), 2u);
  ASSERT_EQ(errorText(c.g.eraseNode(c.relu)), "");
  EXPECT_TRUE(c.g.empty());
  // Replacing with itself is a no-op.
  x->replaceAllUsesWith(x);
  EXPECT_EQ(x->getNumUses(), 1u);
  std::string json = writeProgram(c.ep);
  EXPECT_NE(
      json.find(R"("outputs": [{"as_tensor": {"name": "x"}}], "nodes": [])"),
      std::string::npos)
      << json;
}

TEST(IRTest, WalkFollowsProgramOrder) {
  Chain c;
  auto n = c.g.appendNode(
      tensorNode(c.ctx, "torch.ops.aten.neg.default", {"x"}, "n"));
  ASSERT_EQ(errorText(n), "");
  EXPECT_EQ(nodeNames(c.g), (std::vector<std::string>{"a", "b", "n"}));
  c.g.moveBefore(*n, c.g.begin());
  EXPECT_EQ(nodeNames(c.g), (std::vector<std::string>{"n", "a", "b"}));
  c.g.renumber();
  EXPECT_EQ((*n)->getOrder(), 1u);
  EXPECT_EQ(c.relu->getOrder(), 2u);
  EXPECT_EQ(c.add->getOrder(), 3u);
  // Iterators and walk agree.
  std::vector<std::string> viaIterators;
  for (Node &node : c.g)
    viaIterators.push_back(node.getName().str());
  EXPECT_EQ(viaIterators, nodeNames(c.g));
}

TEST(IRTest, InternedStringsShareStorage) {
  IRContext ctx;
  std::string dynamic = "torch.ops.aten.add";
  dynamic += ".Tensor";
  llvm::StringRef a = ctx.intern("torch.ops.aten.add.Tensor");
  llvm::StringRef b = ctx.intern(dynamic);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.data(), b.data());
  EXPECT_NE(a.data(), dynamic.data());
  dynamic.assign("overwritten");
  EXPECT_EQ(b, "torch.ops.aten.add.Tensor");
  EXPECT_NE(ctx.intern("x").data(), ctx.intern("y").data());
  // Separate contexts do not share.
  IRContext other;
  EXPECT_NE(other.intern("torch.ops.aten.add.Tensor").data(), a.data());
  // Names in a graph are interned: equal names share storage.
  Chain c;
  EXPECT_EQ(c.value("a")->getName().data(), c.ctx.intern("a").data());
  EXPECT_EQ(c.relu->getTarget().data(),
            c.ctx.intern("torch.ops.aten.relu.default").data());
}

TEST(IRTest, TableEntriesFollowDefinitionOrderUnlessTheFileSaidOtherwise) {
  Chain c;
  // Metadata set in a different order is still listed in definition order.
  c.value("b")->setTensorMeta(f32({3}));
  c.value("x")->setTensorMeta(f32({3}));
  c.value("a")->setTensorMeta(f32({3}));
  auto names = [&](ValueTable t) {
    std::vector<std::string> out;
    for (Value *v : c.g.getTableEntries(t))
      out.push_back(v->getName().str());
    return out;
  };
  EXPECT_EQ(names(ValueTable::Tensor),
            (std::vector<std::string>{"x", "a", "b"}));
  EXPECT_TRUE(names(ValueTable::SymInt).empty());

  // A file whose table is in another order keeps that order, appends new
  // entries, and drops erased values.
  std::string json = writeProgram(c.ep);
  size_t at = json.find(R"("tensor_values": {"x": )");
  ASSERT_NE(at, std::string::npos);
  std::string meta =
      R"({"dtype": 7, "sizes": [{"as_int": 3}], "requires_grad": false, "device": {"type": "cpu", )"
      R"("index": null}, "strides": [{"as_int": 1}], "storage_offset": {"as_int": 0}, "layout": 7})";
  std::string table = R"("tensor_values": {"x": )" + meta + R"(, "a": )" +
                      meta + R"(, "b": )" + meta + "}";
  std::string reordered = R"("tensor_values": {"b": )" + meta + R"(, "x": )" +
                          meta + R"(, "a": )" + meta + "}";
  ASSERT_EQ(json.compare(at, table.size(), table), 0) << json;
  json.replace(at, table.size(), reordered);
  auto ep = readProgram(json);
  ASSERT_EQ(errorText(ep), "");
  Graph &g = ep->getGraph();
  auto readNames = [&] {
    std::vector<std::string> out;
    for (Value *v : g.getTableEntries(ValueTable::Tensor))
      out.push_back(v->getName().str());
    return out;
  };
  EXPECT_EQ(readNames(), (std::vector<std::string>{"b", "x", "a"}));
  EXPECT_EQ(writeProgram(*ep), json);
  auto n = g.appendNode(
      tensorNode(ep->getContext(), "torch.ops.aten.neg.default", {"x"}, "n"));
  ASSERT_EQ(errorText(n), "");
  (*n)->getSingleResult()->setTensorMeta(f32({3}));
  EXPECT_EQ(readNames(), (std::vector<std::string>{"b", "x", "a", "n"}));
  Value *a = g.lookupValue("a");
  Node *relu = a->getDefiningNode();
  a->replaceAllUsesWith(g.lookupValue("x"));
  ASSERT_EQ(errorText(g.eraseNode(relu)), "");
  EXPECT_EQ(readNames(), (std::vector<std::string>{"b", "x", "n"}));
}

TEST(IRTest, TableEntriesFollowProgramOrderAfterInsertsMovesAndLateInputs) {
  Chain c;
  auto names = [&] {
    std::vector<std::string> out;
    for (Value *v : c.g.getTableEntries(ValueTable::Tensor))
      out.push_back(v->getName().str());
    return out;
  };
  for (llvm::StringRef n : {"x", "y", "a", "b"})
    c.value(n)->setTensorMeta(f32({3}));
  EXPECT_EQ(names(), (std::vector<std::string>{"x", "y", "a", "b"}));
  // Created last, defined between a and b.
  auto mid = c.g.createNode(
      tensorNode(c.ctx, "torch.ops.aten.neg.default", {"a"}, "m"),
      Graph::iterator(c.add));
  ASSERT_EQ(errorText(mid), "");
  (*mid)->getSingleResult()->setTensorMeta(f32({3}));
  EXPECT_EQ(names(), (std::vector<std::string>{"x", "y", "a", "m", "b"}));
  c.g.moveBefore(*mid, Graph::iterator(c.relu));
  EXPECT_EQ(names(), (std::vector<std::string>{"x", "y", "m", "a", "b"}));

  // An input added after the nodes still comes before them.
  Chain d;
  ASSERT_EQ(errorText(d.g.addInput(Argument::tensor(d.ctx, "z"))), "");
  for (llvm::StringRef n : {"z", "x", "b"})
    d.value(n)->setTensorMeta(f32({3}));
  std::vector<std::string> dn;
  for (Value *v : d.g.getTableEntries(ValueTable::Tensor))
    dn.push_back(v->getName().str());
  EXPECT_EQ(dn, (std::vector<std::string>{"x", "z", "b"}));
}

TEST(IRTest, UniqueNamesAvoidDefinedOnes) {
  Chain c;
  EXPECT_EQ(c.g.uniqueName("fresh"), "fresh");
  llvm::StringRef a1 = c.g.uniqueName("a");
  EXPECT_NE(a1, "a");
  EXPECT_EQ(c.g.lookupValue(a1), nullptr);
  auto n = c.g.appendNode(
      tensorNode(c.ctx, "torch.ops.aten.neg.default", {"x"}, a1));
  ASSERT_EQ(errorText(n), "");
  llvm::StringRef a2 = c.g.uniqueName("a");
  EXPECT_NE(a2, a1);
  EXPECT_EQ(c.g.lookupValue(a2), nullptr);
}

/// x, pred -> cond(pred, @true_graph_0, @false_graph_0, [x]); the branches
/// are built through the API too.
std::unique_ptr<Graph> makeBranch(IRContext &ctx, llvm::StringRef in,
                                  llvm::StringRef target, llvm::StringRef out) {
  auto g = std::make_unique<Graph>(ctx);
  EXPECT_EQ(errorText(g->addInput(Argument::tensor(ctx, in))), "");
  auto n = g->appendNode(tensorNode(ctx, target, {in}, out));
  EXPECT_EQ(errorText(n), "");
  EXPECT_EQ(errorText(g->addOutput(Argument::tensor(ctx, out))), "");
  g->lookupValue(in)->setTensorMeta(f32({3}));
  g->lookupValue(out)->setTensorMeta(f32({3}));
  return g;
}

struct CondProgram {
  ExportedProgram ep;
  Node *cond = nullptr;
  CondProgram() {
    IRContext &ctx = ep.getContext();
    Graph &g = ep.getGraph();
    for (llvm::StringRef in : {"x", "pred"}) {
      EXPECT_EQ(errorText(g.addInput(Argument::tensor(ctx, in))), "");
      InputSpec spec;
      spec.arg = Argument::tensor(ctx, in);
      ep.graphModule.signature.inputSpecs.push_back(std::move(spec));
    }
    NodeSpec spec;
    spec.target = ctx.intern("torch.ops.higher_order.cond");
    spec.inputs.push_back({"", Argument::tensor(ctx, "pred"), 1, {}});
    spec.inputs.push_back(
        {"",
         Argument::graph(
             "true_graph_0",
             makeBranch(ctx, "x_1", "torch.ops.aten.sin.default", "sin")),
         1,
         {}});
    spec.inputs.push_back(
        {"",
         Argument::graph(
             "false_graph_0",
             makeBranch(ctx, "x_2", "torch.ops.aten.cos.default", "cos")),
         1,
         {}});
    spec.inputs.push_back({"", Argument::tensors(ctx, {"x"}), 1, {}});
    spec.outputs.push_back(Argument::tensor(ctx, "getitem"));
    spec.isHopSingleTensorReturn = false;
    spec.name = ctx.intern("cond");
    setMetadata(spec.metadata, ctx.intern("stack_trace"),
                ctx.intern("File \"m.py\", line 1"));
    setMetadata(spec.metadata, ctx.intern("nn_module_stack"),
                ctx.intern("L__self__,,__main__.M"));
    auto n = g.appendNode(std::move(spec));
    EXPECT_EQ(errorText(n), "");
    cond = *n;
    EXPECT_EQ(errorText(g.addOutput(Argument::tensor(ctx, "getitem"))), "");
    OutputSpec out;
    out.arg = Argument::tensor(ctx, "getitem");
    ep.graphModule.signature.outputSpecs.push_back(std::move(out));
    // Table entries set in an order that differs from definition order.
    g.lookupValue("getitem")->setTensorMeta(f32({3}));
    g.lookupValue("x")->setTensorMeta(f32({3}));
    TensorMeta boolScalar = f32({});
    boolScalar.dtype = ScalarType::BOOL;
    g.lookupValue("pred")->setTensorMeta(boolScalar);
    setMetadata(ep.graphModule.metadata, ctx.intern("custom"),
                ctx.intern("{\"k\": 1}"));
    ep.opsetVersion.emplace_back(ctx.intern("aten"), 0);
    ep.verifiers.push_back(ctx.intern("ATEN"));
    ep.torchVersion = "2.9.0";
  }
};

TEST(IRTest, SubgraphsBuiltThroughTheApi) {
  CondProgram p;
  std::vector<Graph *> subs = p.cond->getSubgraphs();
  ASSERT_EQ(subs.size(), 2u);
  EXPECT_EQ(subs[0]->getParentNode(), p.cond);
  EXPECT_EQ(subs[1]->getParentNode(), p.cond);
  EXPECT_EQ(p.ep.getGraph().getParentNode(), nullptr);
  // Names are local to each graph.
  EXPECT_EQ(p.ep.getGraph().lookupValue("sin"), nullptr);
  ASSERT_NE(subs[0]->lookupValue("sin"), nullptr);
  EXPECT_EQ(subs[0]->lookupValue("sin")->getGraph(), subs[0]);
  // Written like torch: subgraph with its own tables, then the parent's.
  std::string json = writeProgram(p.ep);
  EXPECT_NE(
      json.find(
          R"({"name": "", "arg": {"as_graph": {"name": "true_graph_0", "graph": {"inputs": )"
          R"([{"as_tensor": {"name": "x_1"}}], "outputs": [{"as_tensor": {"name": "sin"}}], "nodes": )"
          R"([{"target": "torch.ops.aten.sin.default")"),
      std::string::npos)
      << json;
  EXPECT_NE(json.find(R"("tensor_values": {"x": )"), std::string::npos) << json;
  auto reread = readProgram(json);
  ASSERT_EQ(errorText(reread), "");
  EXPECT_EQ(writeProgram(*reread), json);
}

TEST(IRTest, SetInputAdoptsANewSubgraph) {
  CondProgram p;
  IRContext &ctx = p.ep.getContext();
  ASSERT_EQ(
      errorText(p.cond->setInput(
          1, Argument::graph(
                 "true_graph_1",
                 makeBranch(ctx, "x_3", "torch.ops.aten.tan.default", "tan")))),
      "");
  std::vector<Graph *> subs = p.cond->getSubgraphs();
  ASSERT_EQ(subs.size(), 2u);
  EXPECT_EQ(subs[0]->getParentNode(), p.cond);
  ASSERT_NE(subs[0]->lookupValue("tan"), nullptr);
}

/// Records what an IRListener is told, by name.
struct RecordingListener : IRListener {
  std::vector<std::string> events;
  void nodeErased(const Node &node) override {
    events.push_back("node " + node.getName().str());
  }
  void graphDestroyed(const Graph &graph) override {
    events.push_back("graph of " + std::to_string(graph.size()) + " nodes");
  }
};

TEST(IRTest, ListenerHearsOfErasedNodesAndDestroyedSubgraphs) {
  CondProgram p;
  RecordingListener listener;
  p.ep.getContext().setListener(&listener);
  Graph &g = p.ep.getGraph();
  // A refused erase says nothing.
  ASSERT_NE(errorText(g.eraseNode(p.cond)), "");
  EXPECT_TRUE(listener.events.empty());
  // Replacing the cond's outputs' uses lets it go, with its two branches.
  ASSERT_EQ(errorText(g.setOutput(0, Argument::tensor(p.ep.getContext(), "x"))), "");
  ASSERT_EQ(errorText(g.eraseNode(p.cond)), "");
  EXPECT_EQ(listener.events,
            (std::vector<std::string>{"node cond", "graph of 1 nodes",
                                      "graph of 1 nodes"}));
  p.ep.getContext().setListener(nullptr);
  // Destroying the program reports its top-level graph; without a listener
  // nothing is told.
  listener.events.clear();
  {
    Chain c;
    c.ctx.setListener(&listener);
    ASSERT_EQ(errorText(c.g.setOutput(0, Argument::tensor(c.ctx, "y"))), "");
    ASSERT_EQ(errorText(c.g.eraseNode(c.add)), "");
    c.ctx.setListener(nullptr);
    ASSERT_EQ(errorText(c.g.eraseNode(c.relu)), "");
    c.ctx.setListener(&listener);
  }
  EXPECT_EQ(listener.events,
            (std::vector<std::string>{"node b", "graph of 0 nodes"}));
}

TEST(IRTest, CloneIsDeepAndIndependent) {
  CondProgram p;
  const std::string original = writeProgram(p.ep);

  ExportedProgram copy = p.ep.clone();
  EXPECT_EQ(writeProgram(copy), original);
  Graph &g = copy.getGraph();
  ASSERT_NE(&g, &p.ep.getGraph());
  Node *cond = &*g.begin();
  ASSERT_NE(cond, p.cond);
  std::vector<Graph *> subs = cond->getSubgraphs();
  ASSERT_EQ(subs.size(), 2u);
  EXPECT_NE(subs[0], p.cond->getSubgraphs()[0]);
  EXPECT_EQ(subs[0]->getParentNode(), cond);
  // Values are new objects wired to the copy's nodes; metadata was copied.
  Value *x = g.lookupValue("x");
  ASSERT_NE(x, nullptr);
  EXPECT_NE(x, p.ep.getGraph().lookupValue("x"));
  EXPECT_EQ(userNames(x), std::vector<std::string>{"cond"});
  EXPECT_EQ(*x->uses().begin() ? (*x->uses().begin())->getUser() : nullptr,
            cond);
  ASSERT_NE(x->getTensorMeta(), nullptr);
  EXPECT_NE(x->getTensorMeta(),
            p.ep.getGraph().lookupValue("x")->getTensorMeta());
  EXPECT_EQ(lookupMetadata(cond->getMetadata(), "nn_module_stack"),
            llvm::StringRef("L__self__,,__main__.M"));

  // Mutate the copy everywhere; the original does not change.
  setMetadata(cond->getMetadata(), copy.intern("stack_trace"),
              copy.intern("changed"));
  cond->setTarget(copy.intern("torch.ops.higher_order.cond_changed"));
  x->getTensorMeta()->dtype = ScalarType::LONG;
  Node *sin = &*subs[0]->begin();
  sin->setTarget(copy.intern("torch.ops.aten.tan.default"));
  subs[1]->lookupValue("cos")->getTensorMeta()->sizes[0] = SymValue::ofInt(4);
  auto extra = subs[0]->appendNode(tensorNode(
      copy.getContext(), "torch.ops.aten.neg.default", {"sin"}, "neg"));
  ASSERT_EQ(errorText(extra), "");
  ASSERT_EQ(errorText(subs[0]->setOutput(
                0, Argument::tensor(copy.getContext(), "neg"))),
            "");
  g.lookupValue("getitem")->replaceAllUsesWith(x);
  ASSERT_EQ(errorText(g.eraseNode(cond)), "");
  copy.graphModule.metadata.clear();
  copy.graphModule.signature.outputSpecs[0].arg =
      Argument::tensor(copy.getContext(), "x");
  copy.verifiers.clear();

  EXPECT_EQ(writeProgram(p.ep), original);
  EXPECT_NE(writeProgram(copy), original);
  EXPECT_EQ(p.ep.getGraph().size(), 1u);
  EXPECT_EQ(p.cond->getSubgraphs()[0]->size(), 1u);
  EXPECT_EQ(p.ep.getGraph().lookupValue("x")->getNumUses(), 1u);

  // Graph::clone alone copies a subgraph with its tables.
  std::unique_ptr<Graph> branch = p.cond->getSubgraphs()[1]->clone();
  EXPECT_EQ(branch->size(), 1u);
  EXPECT_EQ(branch->getParentNode(), nullptr);
  ASSERT_NE(branch->lookupValue("cos"), nullptr);
  EXPECT_EQ(branch->lookupValue("cos")->getTensorMeta()->sizes[0].intValue, 3);
  EXPECT_EQ(branch->getOutputs()[0].getSingleValue(),
            branch->lookupValue("cos"));
}

TEST(IRTest, CloneKeepsTheFileTableOrder) {
  CondProgram p;
  std::string json = writeProgram(p.ep);
  // Reverse the top-level tensor table as a file might have it.
  std::string meta3 =
      R"({"dtype": 7, "sizes": [{"as_int": 3}], "requires_grad": false, "device": {"type": "cpu", )"
      R"("index": null}, "strides": [{"as_int": 1}], "storage_offset": {"as_int": 0}, "layout": 7})";
  std::string metaBool =
      R"({"dtype": 12, "sizes": [], "requires_grad": false, "device": {"type": "cpu", )"
      R"("index": null}, "strides": [], "storage_offset": {"as_int": 0}, "layout": 7})";
  std::string natural = R"("tensor_values": {"x": )" + meta3 + R"(, "pred": )" +
                        metaBool + R"(, "getitem": )" + meta3;
  std::string reversed = R"("tensor_values": {"getitem": )" + meta3 +
                         R"(, "pred": )" + metaBool + R"(, "x": )" + meta3;
  size_t at = json.find(natural);
  ASSERT_NE(at, std::string::npos) << json;
  json.replace(at, natural.size(), reversed);
  auto ep = readProgram(json);
  ASSERT_EQ(errorText(ep), "");
  EXPECT_EQ(writeProgram(*ep), json);
  ExportedProgram copy = ep->clone();
  EXPECT_EQ(writeProgram(copy), json);
  std::unique_ptr<Graph> g = ep->getGraph().clone();
  std::vector<std::string> names;
  for (Value *v : g->getTableEntries(ValueTable::Tensor))
    names.push_back(v->getName().str());
  EXPECT_EQ(names, (std::vector<std::string>{"getitem", "pred", "x"}));
}

/// Every corpus program reads and writes back byte for byte through the
/// API, and so does a clone of it.
TEST(IRTest, CorpusProgramsRoundTripThroughTheApi) {
  for (const char *name :
       {"mlp.json", "cnn.json", "lstm.json", "gpt_d2.json", "ops_zoo.json",
        "buffer_mutation.json", "dyn_mlp.json", "dyn_mlp_str_expr.json"}) {
    SCOPED_TRACE(name);
    std::string path = std::string(PT2IR_TEST_DIR "/corpus/") + name;
    auto buffer = llvm::MemoryBuffer::getFile(path);
    ASSERT_TRUE(bool(buffer)) << path;
    auto ep = readProgramFile(path);
    ASSERT_EQ(errorText(ep), "");
    EXPECT_EQ(writeProgram(*ep), (*buffer)->getBuffer().str());
    EXPECT_EQ(writeProgram(ep->clone()), (*buffer)->getBuffer().str());
  }
}

/// The input program of each test/lit/schema test (its `//--- input.json`
/// section) is cloned; the clone writes the same bytes as the original. This
/// covers every schema construct: sym values, custom objects, tokens,
/// unknown fields and members, legacy forms.
TEST(IRTest, CloneReproducesEverySchemaConstruct) {
  std::error_code ec;
  unsigned programs = 0;
  for (llvm::sys::fs::directory_iterator it(PT2IR_TEST_DIR "/lit/schema", ec),
       end;
       it != end && !ec; it.increment(ec)) {
    if (!llvm::StringRef(it->path()).ends_with(".test"))
      continue;
    SCOPED_TRACE(it->path());
    auto buffer = llvm::MemoryBuffer::getFile(it->path());
    ASSERT_TRUE(bool(buffer));
    llvm::StringRef text = (*buffer)->getBuffer();
    size_t at = text.find("//--- input.json\n");
    ASSERT_NE(at, llvm::StringRef::npos);
    llvm::StringRef json = text.substr(at).split('\n').second.split('\n').first;
    auto ep = readProgram(json);
    ASSERT_EQ(errorText(ep), "");
    std::string original = writeProgram(*ep);
    ExportedProgram copy = ep->clone();
    EXPECT_EQ(writeProgram(copy), original);
    // The copy's graph is its own: erasing its nodes leaves the original.
    Graph &g = copy.getGraph();
    while (!g.empty()) {
      Node *last = &g.getNodes().back();
      for (Value *r : last->getResults()) {
        std::vector<Use *> uses(r->uses().begin(), r->uses().end());
        for (Use *u : uses)
          if (!u->getUser())
            u->set(nullptr);
      }
      if (!last->hasNoUses())
        break;
      ASSERT_EQ(errorText(g.eraseNode(last)), "");
    }
    EXPECT_TRUE(g.empty());
    EXPECT_EQ(writeProgram(*ep), original);
    ++programs;
  }
  EXPECT_FALSE(ec) << ec.message();
  EXPECT_GE(programs, 60u);
}

/// Programs own their contexts: separate programs can be read, edited,
/// cloned and written on separate threads at the same time.
TEST(IRTest, SeparateProgramsOnSeparateThreads) {
  std::string path = PT2IR_TEST_DIR "/corpus/gpt_d2.json";
  auto buffer = llvm::MemoryBuffer::getFile(path);
  ASSERT_TRUE(bool(buffer)) << path;
  const std::string bytes = (*buffer)->getBuffer().str();
  constexpr unsigned NumThreads = 4;
  std::vector<std::string> written(NumThreads), edited(NumThreads);
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < NumThreads; ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < 3; ++round) {
        auto ep = readProgram(bytes);
        if (!ep) {
          written[t] = llvm::toString(ep.takeError());
          return;
        }
        ExportedProgram copy = ep->clone();
        written[t] = writeProgram(*ep);
        copy.getGraph().begin()->setTarget(
            copy.intern("torch.ops.aten.neg.default"));
        edited[t] = writeProgram(copy);
      }
    });
  for (std::thread &t : threads)
    t.join();
  for (unsigned t = 0; t < NumThreads; ++t) {
    EXPECT_EQ(written[t], bytes) << "thread " << t;
    EXPECT_EQ(edited[t], edited[0]) << "thread " << t;
    EXPECT_NE(edited[t], bytes);
  }
}

TEST(IRTest, CorpusProgramThroughTheApi) {
  auto ep = readProgramFile(PT2IR_TEST_DIR "/corpus/mlp.json");
  ASSERT_EQ(errorText(ep), "");
  Graph &g = ep->getGraph();
  // Every operand is linked to a value of this graph, defined before use.
  std::vector<const Value *> defined = {};
  for (Value *v : g.getInputValues())
    defined.push_back(v);
  unsigned operands = 0;
  g.walk([&](Node *n) {
    n->forEachOperand([&](Use *u) {
      ++operands;
      ASSERT_NE(u->get(), nullptr) << n->getName().str();
      EXPECT_EQ(u->get()->getGraph(), &g);
      EXPECT_TRUE(llvm::is_contained(defined, u->get())) << u->getName().str();
    });
    for (Value *v : n->getResults())
      defined.push_back(v);
  });
  EXPECT_GT(operands, 0u);
  // The signature names line up with the graph inputs.
  ASSERT_EQ(ep->graphModule.signature.inputSpecs.size(), g.getInputs().size());
  for (size_t i = 0; i < g.getInputs().size(); ++i)
    EXPECT_EQ(ep->graphModule.signature.inputSpecs[i].getArgName(),
              g.getInputValues()[i]->getName());

  // An edit through the API: relu -> neg on the first relu, written back.
  Node *relu = nullptr;
  g.walk([&](Node *n) {
    if (!relu && n->getTarget() == "torch.ops.aten.relu.default")
      relu = n;
  });
  ASSERT_NE(relu, nullptr);
  std::string before = writeProgram(*ep);
  relu->setTarget(ep->intern("torch.ops.aten.neg.default"));
  std::string after = writeProgram(*ep);
  EXPECT_NE(before, after);
  std::string expected = before;
  size_t at = expected.find("\"torch.ops.aten.relu.default\"");
  ASSERT_NE(at, std::string::npos);
  expected.replace(at, std::strlen("\"torch.ops.aten.relu.default\""),
                   "\"torch.ops.aten.neg.default\"");
  EXPECT_EQ(after, expected);
}

} // namespace

/// Unknown keys inside leaf structs (TensorArgument, CustomObjArgument,
/// GraphArgument, ComplexValue) survive read, write and clone, and a use
/// slot reused after an erase does not inherit them.
TEST(IRTest, UnknownKeysInLeafStructsSurviveCloneAndErase) {
  const std::string json = R"JSON({"graph_module": {"graph": {"inputs": [{"as_tensor": {"name": "p_w", "future_gi": 1}}, {"as_custom_obj": {"name": "obj", "class_fqn": "__torch__.Foo", "future_co": 2}}, {"as_tensor": {"name": "x"}}], "outputs": [{"as_tensor": {"future_go": 3, "name": "y"}}], "nodes": [{"target": "torch.ops.aten.cat.default", "inputs": [{"name": "tensors", "arg": {"as_tensors": [{"name": "x"}, {"name": "p_w", "future_list": [4]}]}, "kind": 1}], "outputs": [{"as_tensor": {"name": "c", "future_out": "five"}}], "metadata": {}, "is_hop_single_tensor_return": null, "name": "c"}, {"target": "torch.ops.aten.index.Tensor", "inputs": [{"name": "self", "arg": {"as_tensor": {"name": "c"}}, "kind": 1}, {"name": "indices", "arg": {"as_optional_tensors": [{"as_none": true}, {"as_tensor": {"name": "x", "future_opt": 6}}]}, "kind": 1}], "outputs": [{"as_tensor": {"name": "i"}}], "metadata": {}, "is_hop_single_tensor_return": null, "name": "i"}, {"target": "torch.ops.aten.mul.Scalar", "inputs": [{"name": "self", "arg": {"as_tensor": {"name": "i", "future_in": 7}}, "kind": 1}, {"name": "other", "arg": {"as_complex": {"real": 1.0, "imag": 0.5, "future_cx": 8}}, "kind": 1}], "outputs": [{"as_tensor": {"name": "y"}}], "metadata": {}, "is_hop_single_tensor_return": null, "name": "y"}, {"target": "torch.ops.higher_order.call_torchbind", "inputs": [{"name": "obj", "arg": {"as_custom_obj": {"name": "obj", "class_fqn": "__torch__.Foo", "future_arg_co": 9}}, "kind": 1}, {"name": "method", "arg": {"as_string": "step"}, "kind": 1}], "outputs": [{"as_none": true}], "metadata": {}, "is_hop_single_tensor_return": null, "name": "call_torchbind"}, {"target": "torch.ops.higher_order.wrap_with_set_grad_enabled", "inputs": [{"name": "", "arg": {"as_bool": false}, "kind": 1}, {"name": "", "arg": {"as_graph": {"future_ga_first": 10, "name": "submod", "graph": {"inputs": [], "outputs": [], "nodes": [], "tensor_values": {}, "sym_int_values": {}, "sym_bool_values": {}, "is_single_tensor_return": false, "custom_obj_values": {}, "sym_float_values": {}}}}, "kind": 1}], "outputs": [], "metadata": {}, "is_hop_single_tensor_return": null, "name": "wrap"}], "tensor_values": {}, "sym_int_values": {}, "sym_bool_values": {}, "is_single_tensor_return": false, "custom_obj_values": {}, "sym_float_values": {}}, "signature": {"input_specs": [{"parameter": {"arg": {"name": "p_w", "future_spec_in": 11}, "parameter_name": "w"}}, {"custom_obj": {"arg": {"name": "obj", "class_fqn": "__torch__.Foo", "future_spec_co": 12}, "custom_obj_name": "obj"}}, {"user_input": {"arg": {"as_tensor": {"name": "x", "future_ui": 13}}}}], "output_specs": [{"user_output": {"arg": {"as_tensor": {"name": "y", "future_uo": 14}}}}]}, "module_call_graph": [], "metadata": {}, "treespec_namedtuple_fields": {}}, "opset_version": {"aten": 0}, "range_constraints": {}, "schema_version": {"major": 8, "minor": 19}, "verifiers": [], "torch_version": "2.9.0", "guards_code": []})JSON";
  auto ep = readProgram(json);
  ASSERT_EQ(errorText(ep), "");
  EXPECT_EQ(writeProgram(*ep), json);
  ExportedProgram copy = ep->clone();
  EXPECT_EQ(writeProgram(copy), json);

  // Erase call_torchbind (its object argument carried `future_arg_co`),
  // then build a node whose fresh use slots come from the free list.
  Graph &graph = ep->getGraph();
  Node *torchbind = nullptr;
  for (Node &n : graph)
    if (n.getName() == "call_torchbind")
      torchbind = &n;
  ASSERT_NE(torchbind, nullptr);
  ASSERT_EQ(errorText(graph.eraseNode(torchbind)), "");
  std::string written = writeProgram(*ep);
  EXPECT_EQ(written.find("future_arg_co"), std::string::npos);
  EXPECT_NE(written.find("\"future_in\": 7"), std::string::npos);
  IRContext &ctx = ep->getContext();
  for (int i = 0; i < 4; ++i) {
    std::string out = "r" + std::to_string(i);
    auto relu = graph.appendNode(
        tensorNode(ctx, "torch.ops.aten.relu.default", {"x"}, out));
    ASSERT_EQ(errorText(relu), "");
  }
  written = writeProgram(*ep);
  EXPECT_EQ(written.find("future_arg_co"), std::string::npos);
  EXPECT_NE(written.find(R"({"name": "r3"})"), std::string::npos);
}

//===----------------------------------------------------------------------===//
// Checked accessors and typed tensor metadata
//===----------------------------------------------------------------------===//

TEST(ArgumentAccessTest, CheckedAccessorsAnswerOnlyForTheirKind) {
  IRContext ctx;
  Argument tensor = Argument::tensor(ctx, "x");
  EXPECT_EQ(tensor.getIfInt(), std::nullopt);
  EXPECT_EQ(tensor.getIfInts(), nullptr);
  EXPECT_EQ(tensor.getIfSym(), nullptr);
  EXPECT_EQ(tensor.getIfString(), std::nullopt);

  Argument three = Argument::integer(3);
  ASSERT_TRUE(three.getIfInt().has_value());
  EXPECT_EQ(*three.getIfInt(), 3);
  EXPECT_EQ(three.getIfFloat(), std::nullopt);
  EXPECT_EQ(Argument::scalarType(int64_t(ScalarType::BOOL)).getIfInt(),
            std::optional<int64_t>(12));

  Argument dims = Argument::ints({1, -1});
  ASSERT_NE(dims.getIfInts(), nullptr);
  EXPECT_EQ(*dims.getIfInts(), (std::vector<int64_t>{1, -1}));
  EXPECT_EQ(dims.getIfFloats(), nullptr);
  EXPECT_EQ(Argument::string("mean").getIfString(),
            std::optional<llvm::StringRef>("mean"));
  EXPECT_EQ(Argument::boolean(true).getIfBool(), std::optional<bool>(true));
  EXPECT_EQ(Argument::none().getIfBool(), std::nullopt);
}

TEST(TensorMetaTest, ShapeAsIntsAndParsedExpressions) {
  IRContext ctx;
  TensorMeta meta;
  meta.sizes = {SymValue::ofExpr(ctx.intern("s0")), SymValue::ofInt(3),
                SymValue::ofExpr(ctx.intern("2*s1"))};
  auto shape = meta.getShape();
  ASSERT_TRUE(bool(shape)) << llvm::toString(shape.takeError());
  ASSERT_EQ(shape->size(), 3u);
  EXPECT_EQ(sym::toString((*shape)[0]), "s0");
  EXPECT_EQ(sym::asInteger((*shape)[1]), std::optional<int64_t>(3));
  EXPECT_EQ(sym::toString((*shape)[2]), "2*s1");
  EXPECT_EQ(meta.getStaticShape(), std::nullopt);
  EXPECT_EQ(meta.getStaticNumel(), std::nullopt);

  meta.sizes = {SymValue::ofInt(2), SymValue::ofExpr(ctx.intern("4"))};
  EXPECT_EQ(meta.getStaticShape(), (std::vector<int64_t>{2, 4}));
  EXPECT_EQ(meta.getStaticNumel(), std::optional<int64_t>(8));

  meta.sizes = {SymValue::ofExpr(ctx.intern("s0 +"))};
  auto bad = meta.getShape();
  ASSERT_FALSE(bool(bad));
  EXPECT_NE(llvm::toString(bad.takeError()).find("size 0: "), std::string::npos);
}

TEST(TensorMetaTest, ContiguousMetadataHasRowMajorStrides) {
  IRContext ctx;
  TensorMeta fixed = TensorMeta::contiguous(ctx, ScalarType::HALF, {2, 3, 4});
  EXPECT_EQ(fixed.dtype, ScalarType::HALF);
  EXPECT_EQ(fixed.layout, Layout::Strided);
  EXPECT_EQ(fixed.device.type, "cpu");
  EXPECT_EQ(fixed.getStaticShape(), (std::vector<int64_t>{2, 3, 4}));
  std::vector<int64_t> strides;
  for (const SymValue &s : fixed.strides)
    strides.push_back(*s.getStaticInt());
  EXPECT_EQ(strides, (std::vector<int64_t>{12, 4, 1}));
  EXPECT_EQ(fixed.storageOffset.getStaticInt(), std::optional<int64_t>(0));

  auto s0 = llvm::cantFail(sym::parseSymExpr("s0"));
  auto s1 = llvm::cantFail(sym::parseSymExpr("s1"));
  TensorMeta symbolic = TensorMeta::contiguous(
      ctx, ScalarType::FLOAT, {s0, s1, sym::makeInteger(4)});
  std::vector<std::string> text;
  for (const SymValue &s : symbolic.strides)
    text.push_back(s.isExpr() ? s.expr.exprStr.str() : std::to_string(s.intValue));
  EXPECT_EQ(text, (std::vector<std::string>{"4*s1", "4", "1"}));
  EXPECT_EQ(symbolic.sizes[0].expr.exprStr, "s0");
}
