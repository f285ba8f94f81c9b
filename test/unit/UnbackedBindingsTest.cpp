//===- UnbackedBindingsTest.cpp - Tests for unbacked-binding recomputation ===//
//
// Builds small graphs directly through the IR API and checks the bindings
// recomputeUnbackedBindings stores: each matching rule (scalar, size, stride,
// storage offset, tuple index, Mul through a division, Eq through a
// bool-to-int), first-match-wins, graph-input bindings, subgraphs with their
// own pending set, the never-bound / used-before-bound / unparsable errors,
// the `changed` flag, the text form, and that the corpus programs (which have
// no unbacked symbols) get no bindings.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/ir/UnbackedBindings.h"
#include "pt2ir/ir/ExportedProgram.h"
#include "pt2ir/ir/Printer.h"
#include "pt2ir/serde/ProgramReader.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace pt2ir;

namespace {

/// Builds graphs of one program node by node.
class Builder {
public:
  Builder() : ctx(ep.getContext()) {}

  /// A size/stride entry: an integer literal or an expression string.
  SymValue dim(llvm::StringRef text) {
    int64_t v;
    if (!text.getAsInteger(10, v))
      return SymValue::ofInt(v);
    return SymValue::ofExpr(ctx.intern(text));
  }

  TensorMeta tensor(std::vector<std::string> sizes,
                    std::vector<std::string> strides = {},
                    std::string offset = "0", int64_t layout = 7) {
    TensorMeta m;
    for (const std::string &s : sizes)
      m.sizes.push_back(dim(s));
    if (strides.empty())
      strides.assign(sizes.size(), "1");
    for (const std::string &s : strides)
      m.strides.push_back(dim(s));
    m.storageOffset = dim(offset);
    m.layout = static_cast<Layout>(layout);
    return m;
  }

  Value *tensorInput(Graph &g, llvm::StringRef name, TensorMeta meta) {
    llvm::cantFail(g.addInput(Argument::tensor(ctx, name)));
    Value *v = g.lookupValue(name);
    v->setTensorMeta(std::move(meta));
    return v;
  }

  Value *symIntInput(Graph &g, llvm::StringRef name, llvm::StringRef expr) {
    llvm::cantFail(g.addInput(
        Argument::sym(ArgKind::SymInt, Argument::symRef(ctx, name))));
    Value *v = g.lookupValue(name);
    v->setSymMeta(SymValue::ofExpr(ctx.intern(expr)));
    return v;
  }

  NamedArgument in(llvm::StringRef name, Argument arg) {
    NamedArgument a;
    a.name = ctx.intern(name);
    a.arg = std::move(arg);
    a.kind = 1;
    return a;
  }

  Node *node(Graph &g, llvm::StringRef target, std::vector<NamedArgument> ins,
             std::vector<Argument> outs, llvm::StringRef name = "",
             std::optional<bool> hopSingle = std::nullopt) {
    NodeSpec spec;
    spec.target = ctx.intern(target);
    spec.inputs = std::move(ins);
    spec.outputs = std::move(outs);
    if (!name.empty())
      spec.name = ctx.intern(name);
    spec.isHopSingleTensorReturn = hopSingle;
    return llvm::cantFail(g.appendNode(std::move(spec)));
  }

  /// A node with one tensor output `name` of metadata `meta`.
  Node *tensorNode(Graph &g, llvm::StringRef target, llvm::StringRef input,
                   llvm::StringRef name, TensorMeta meta) {
    std::vector<NamedArgument> ins;
    ins.push_back(in("self", Argument::tensor(ctx, input)));
    std::vector<Argument> outs;
    outs.push_back(Argument::tensor(ctx, name));
    Node *n = node(g, target, std::move(ins), std::move(outs), name);
    g.lookupValue(name)->setTensorMeta(std::move(meta));
    return n;
  }

  /// A node with one sym output (`kind` SymInt/SymBool) of expression `expr`.
  Node *symNode(Graph &g, llvm::StringRef target, llvm::StringRef input,
                llvm::StringRef name, ArgKind kind, llvm::StringRef expr) {
    std::vector<NamedArgument> ins;
    ins.push_back(in("self", Argument::tensor(ctx, input)));
    std::vector<Argument> outs;
    outs.push_back(Argument::sym(kind, Argument::symRef(ctx, name)));
    Node *n = node(g, target, std::move(ins), std::move(outs), name);
    g.lookupValue(name)->setSymMeta(SymValue::ofExpr(ctx.intern(expr)));
    return n;
  }

  ExportedProgram ep;
  IRContext &ctx;
  Graph &g() { return ep.getGraph(); }
};

/// `symbol <- path` for each binding of `n`, joined by "; ".
std::string bindingsOf(const Node &n) {
  std::string out;
  for (const SymbolBinding &b : n.getUnbackedBindings()) {
    if (!out.empty())
      out += "; ";
    out += b.symbol + " <- " + bindingPathToString(b.path);
  }
  return out;
}

std::string inputBindingsOf(const Graph &g) {
  std::string out;
  for (const InputBinding &b : g.getInputBindings()) {
    if (!out.empty())
      out += "; ";
    out += "#" + std::to_string(b.inputIndex) + " " + b.binding.symbol +
           " <- " + bindingPathToString(b.binding.path);
  }
  return out;
}

std::string errorOf(llvm::Error err) {
  if (!err)
    return "";
  return llvm::toString(std::move(err));
}

TEST(UnbackedBindings, PathPrinting) {
  BindingPath p = {BindingKey::index(1), BindingKey::size(),
                   BindingKey::index(0), BindingKey::divideBy(4)};
  EXPECT_EQ(bindingPathToString(p), "[1].size()[0].__floordiv__(4)");
  EXPECT_EQ(bindingPathToString({BindingKey::storageOffset()}),
            ".storage_offset()");
  EXPECT_EQ(bindingPathToString({BindingKey::stride(), BindingKey::index(2)}),
            ".stride()[2]");
  EXPECT_EQ(bindingPathToString({BindingKey::convertInt()}),
            ".cast_symbool_to_symint_guardless()");
  EXPECT_EQ(bindingPathToString({BindingKey::divideBySymbol("s0")}),
            ".__floordiv__(s0)");
  EXPECT_EQ(bindingPathToString({}), "");
}

TEST(UnbackedBindings, ScalarAndSizeBindings) {
  Builder b;
  Graph &g = b.g();
  b.tensorInput(g, "x", b.tensor({"s0", "4"}));
  Node *item = b.symNode(g, "torch.ops.aten.item.default", "x", "item",
                         ArgKind::SymInt, "u0");
  Node *nz = b.tensorNode(g, "torch.ops.aten.nonzero.default", "x", "nonzero",
                          b.tensor({"u1", "2"}, {"2", "1"}));
  // A later user of u1 binds nothing: the first match wins.
  Node *view = b.tensorNode(g, "torch.ops.aten.view.default", "nonzero", "view",
                            b.tensor({"2*u1"}));
  ASSERT_EQ(errorOf(recomputeUnbackedBindings(g)), "");
  EXPECT_EQ(bindingsOf(*item), "u0 <- ");
  EXPECT_EQ(bindingsOf(*nz), "u1 <- .size()[0]");
  EXPECT_EQ(bindingsOf(*view), "");
  EXPECT_EQ(inputBindingsOf(g), "");
}

TEST(UnbackedBindings, StrideAndStorageOffset) {
  Builder b;
  Graph &g = b.g();
  b.tensorInput(g, "x", b.tensor({"4"}));
  Node *n = b.tensorNode(g, "mylib.op", "x", "y",
                         b.tensor({"4", "3"}, {"u0", "1"}, "u1"));
  ASSERT_EQ(errorOf(recomputeUnbackedBindings(g)), "");
  EXPECT_EQ(bindingsOf(*n), "u0 <- .stride()[0]; u1 <- .storage_offset()");
}

TEST(UnbackedBindings, SparseCompressedLayoutSkipsStrides) {
  Builder b;
  Graph &g = b.g();
  b.tensorInput(g, "x", b.tensor({"4"}));
  // Layout 2 = sparse_csr: strides are not looked at, so u0 is bound by the
  // storage offset instead.
  Node *n = b.tensorNode(g, "mylib.op", "x", "y",
                         b.tensor({"4"}, {"u0"}, "u0", /*layout=*/2));
  ASSERT_EQ(errorOf(recomputeUnbackedBindings(g)), "");
  EXPECT_EQ(bindingsOf(*n), "u0 <- .storage_offset()");
}

TEST(UnbackedBindings, TupleOutputsStartWithIndex) {
  Builder b;
  Graph &g = b.g();
  b.tensorInput(g, "x", b.tensor({"8"}));
  std::vector<NamedArgument> ins;
  ins.push_back(b.in("self", Argument::tensor(b.ctx, "x")));
  std::vector<Argument> outs;
  outs.push_back(Argument::tensor(b.ctx, "a"));
  outs.push_back(Argument::tensors(b.ctx, {"b0", "b1"}));
  outs.push_back(Argument::sym(ArgKind::SymInt, Argument::symRef(b.ctx, "n")));
  Node *n = b.node(g, "mylib.split", std::move(ins), std::move(outs), "split");
  g.lookupValue("a")->setTensorMeta(b.tensor({"3"}));
  g.lookupValue("b0")->setTensorMeta(b.tensor({"1"}));
  g.lookupValue("b1")->setTensorMeta(b.tensor({"u4", "u5"}));
  g.lookupValue("n")->setSymMeta(SymValue::ofExpr(b.ctx.intern("u6")));
  ASSERT_EQ(errorOf(recomputeUnbackedBindings(g)), "");
  EXPECT_EQ(bindingsOf(*n), "u4 <- [1][1].size()[0]; u5 <- [1][1].size()[1]; "
                            "u6 <- [2]");
  BindingStart start = followSequenceKeys(*n, n->getUnbackedBindings()[0].path);
  ASSERT_NE(start.value, nullptr);
  EXPECT_EQ(start.value->getName(), "b1");
  EXPECT_EQ(start.consumed, 2u);
}

TEST(UnbackedBindings, HopWithoutSingleTensorReturnIsATuple) {
  Builder b;
  Graph &g = b.g();
  b.tensorInput(g, "x", b.tensor({"8"}));
  std::vector<NamedArgument> ins;
  ins.push_back(b.in("", Argument::tensor(b.ctx, "x")));
  std::vector<Argument> outs;
  outs.push_back(Argument::tensor(b.ctx, "r"));
  Node *hop = b.node(g, "torch.ops.higher_order.mylib_hop", std::move(ins),
                     std::move(outs), "hop", /*hopSingle=*/false);
  g.lookupValue("r")->setTensorMeta(b.tensor({"u0"}));
  ASSERT_EQ(errorOf(recomputeUnbackedBindings(g)), "");
  EXPECT_EQ(bindingsOf(*hop), "u0 <- [0].size()[0]");

  hop->setIsHopSingleTensorReturn(true);
  ASSERT_EQ(errorOf(recomputeUnbackedBindings(g)), "");
  EXPECT_EQ(bindingsOf(*hop), "u0 <- .size()[0]");
}

TEST(UnbackedBindings, MulBindsThroughDivision) {
  Builder b;
  Graph &g = b.g();
  b.tensorInput(g, "x", b.tensor({"s0"}));
  Node *a =
      b.tensorNode(g, "mylib.a", "x", "a",
                   b.tensor({"Mul(Integer(4), Symbol('u0', integer=True))"}));
  Node *c = b.tensorNode(g, "mylib.c", "x", "c", b.tensor({"s0*u1"}));
  // Two pending symbols: neither is bound by the product...
  Node *d =
      b.tensorNode(g, "mylib.d", "x", "d", b.tensor({"u2*u3", "u2", "u3"}));
  // ...and an unbacked coefficient that is already bound is not a divisor.
  Node *e = b.tensorNode(g, "mylib.e", "x", "e", b.tensor({"u0*u4", "u4"}));
  ASSERT_EQ(errorOf(recomputeUnbackedBindings(g)), "");
  EXPECT_EQ(bindingsOf(*a), "u0 <- .size()[0].__floordiv__(4)");
  EXPECT_EQ(bindingsOf(*c), "u1 <- .size()[0].__floordiv__(s0)");
  EXPECT_EQ(bindingsOf(*d), "u2 <- .size()[1]; u3 <- .size()[2]");
  EXPECT_EQ(bindingsOf(*e), "u4 <- .size()[1]");
}

TEST(UnbackedBindings, EqBindsThroughBoolToInt) {
  Builder b;
  Graph &g = b.g();
  b.tensorInput(g, "x", b.tensor({"2"}));
  Node *eq = b.symNode(g, "mylib.is_one", "x", "is_one", ArgKind::SymBool,
                       "Eq(u0, 1)");
  // Eq with another constant binds nothing, so u1 is never bound.
  b.symNode(g, "mylib.is_two", "x", "is_two", ArgKind::SymBool, "Eq(u1, 2)");
  std::string err = errorOf(recomputeUnbackedBindings(g));
  EXPECT_EQ(bindingsOf(*eq), "");
  EXPECT_NE(err.find("unbacked symbol u1 is never bound"), std::string::npos)
      << err;
  EXPECT_NE(err.find("node 'is_two'"), std::string::npos) << err;
  EXPECT_EQ(err.find("u0"), std::string::npos) << err;

  // Without the bad node, the Eq binding is stored.
  Builder b2;
  Graph &g2 = b2.g();
  b2.tensorInput(g2, "x", b2.tensor({"2"}));
  Node *eq2 = b2.symNode(g2, "mylib.is_one", "x", "is_one", ArgKind::SymBool,
                         "Equality(Symbol('u0', integer=True), Integer(1))");
  ASSERT_EQ(errorOf(recomputeUnbackedBindings(g2)), "");
  EXPECT_EQ(bindingsOf(*eq2), "u0 <- .cast_symbool_to_symint_guardless()");
}

TEST(UnbackedBindings, GraphInputsBindFirst) {
  Builder b;
  Graph &g = b.g();
  b.tensorInput(g, "x", b.tensor({"s0"}));
  b.tensorInput(g, "y", b.tensor({"u0", "3"}));
  b.symIntInput(g, "n", "zuf1");
  Node *n = b.tensorNode(g, "mylib.op", "y", "z", b.tensor({"u0"}));
  ASSERT_EQ(errorOf(recomputeUnbackedBindings(g)), "");
  EXPECT_EQ(inputBindingsOf(g), "#1 u0 <- .size()[0]; #2 zuf1 <- ");
  EXPECT_EQ(bindingsOf(*n), "");
}

TEST(UnbackedBindings, NeverBoundNamesSymbolAndNode) {
  Builder b;
  Graph &g = b.g();
  b.tensorInput(g, "x", b.tensor({"4"}));
  b.tensorNode(g, "mylib.op", "x", "y", b.tensor({"u7 + 1"}));
  std::string err = errorOf(recomputeUnbackedBindings(g));
  EXPECT_NE(err.find("unbacked symbol u7 is never bound"), std::string::npos)
      << err;
  EXPECT_NE(err.find("node 'y'"), std::string::npos) << err;
}

TEST(UnbackedBindings, UseBeforeBindingIsAnError) {
  Builder b;
  Graph &g = b.g();
  b.tensorInput(g, "x", b.tensor({"4"}));
  Node *early = b.tensorNode(g, "mylib.a", "x", "early", b.tensor({"u0 + 1"}));
  Node *late = b.symNode(g, "torch.ops.aten.item.default", "x", "late",
                         ArgKind::SymInt, "u0");
  std::string err = errorOf(recomputeUnbackedBindings(g));
  EXPECT_NE(err.find("unbacked symbol u0 is used by node 'early' before node "
                     "'late' binds it"),
            std::string::npos)
      << err;
  // Nothing stale is left behind on failure.
  EXPECT_EQ(bindingsOf(*early), "");
  EXPECT_EQ(bindingsOf(*late), "");
}

TEST(UnbackedBindings, UnparsableExpressionNamesTheValue) {
  Builder b;
  Graph &g = b.g();
  b.tensorInput(g, "x", b.tensor({"4"}));
  b.tensorNode(g, "mylib.a", "x", "bad", b.tensor({"Add(Symbol('u0'"}));
  std::string err = errorOf(recomputeUnbackedBindings(g));
  EXPECT_NE(err.find("cannot parse"), std::string::npos) << err;
  EXPECT_NE(err.find("node 'bad'"), std::string::npos) << err;
}

TEST(UnbackedBindings, SubgraphsHaveTheirOwnPendingSet) {
  Builder b;
  Graph &g = b.g();
  b.tensorInput(g, "x", b.tensor({"4"}));
  Node *nz = b.tensorNode(g, "torch.ops.aten.nonzero.default", "x", "nz",
                          b.tensor({"u0", "1"}));
  // The branch receives nz: its own input binds u0 again, and its item binds
  // u1, which the outer graph never sees.
  auto body = std::make_unique<Graph>(b.ctx);
  b.tensorInput(*body, "arg0", b.tensor({"u0", "1"}));
  Node *inner = b.symNode(*body, "torch.ops.aten.item.default", "arg0", "item",
                          ArgKind::SymInt, "u1");
  std::vector<NamedArgument> ins;
  ins.push_back(
      b.in("", Argument::graph(b.ctx.intern("body_graph_0"), std::move(body))));
  ins.push_back(b.in("", Argument::tensor(b.ctx, "nz")));
  std::vector<Argument> outs;
  outs.push_back(Argument::tensor(b.ctx, "r"));
  Node *hop = b.node(g, "torch.ops.higher_order.map_impl", std::move(ins),
                     std::move(outs), "map_impl", /*hopSingle=*/true);
  g.lookupValue("r")->setTensorMeta(b.tensor({"u0"}));
  ASSERT_EQ(errorOf(recomputeUnbackedBindings(g)), "");
  EXPECT_EQ(bindingsOf(*nz), "u0 <- .size()[0]");
  EXPECT_EQ(bindingsOf(*hop), "");
  Graph *sub = hop->getSubgraphs().front();
  EXPECT_EQ(inputBindingsOf(*sub), "#0 u0 <- .size()[0]");
  EXPECT_EQ(bindingsOf(*inner), "u1 <- ");

  // An error inside the subgraph says where it is.
  b.tensorNode(*sub, "mylib.op", "arg0", "bad", b.tensor({"u9 - 1"}));
  std::string err = errorOf(recomputeUnbackedBindings(g));
  EXPECT_NE(err.find("subgraph 'body_graph_0' of node 'map_impl'"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("u9"), std::string::npos) << err;
}

TEST(UnbackedBindings, ChangedFlagOnlyWhenBindingsDiffer) {
  Builder b;
  Graph &g = b.g();
  b.tensorInput(g, "x", b.tensor({"4"}));
  b.symNode(g, "torch.ops.aten.item.default", "x", "item", ArgKind::SymInt,
            "u0");
  bool changed = false;
  ASSERT_EQ(errorOf(recomputeUnbackedBindings(b.ep, &changed)), "");
  EXPECT_TRUE(changed);
  changed = false;
  ASSERT_EQ(errorOf(recomputeUnbackedBindings(b.ep, &changed)), "");
  EXPECT_FALSE(changed);
}

TEST(UnbackedBindings, PrinterShowsBindings) {
  Builder b;
  Graph &g = b.g();
  b.tensorInput(g, "x", b.tensor({"u0"}));
  b.tensorNode(g, "torch.ops.aten.nonzero.default", "x", "nonzero",
               b.tensor({"u1", "1"}));
  ASSERT_EQ(errorOf(recomputeUnbackedBindings(g)), "");
  std::string text;
  llvm::raw_string_ostream os(text);
  printGraph(os, g);
  EXPECT_NE(text.find("  // unbacked: u0 <- x.size()[0]\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("    // unbacked: u1 <- nonzero.size()[0]\n"),
            std::string::npos)
      << text;
}

TEST(UnbackedBindings, CorpusProgramsHaveNoUnbackedSymbols) {
  for (const char *name : {"dyn_mlp.json", "dyn_mlp_str_expr.json", "mlp.json",
                           "gpt_d2.json", "ops_zoo.json"}) {
    std::string path = std::string(PT2IR_TEST_DIR) + "/corpus/" + name;
    auto ep = readProgramFile(path);
    ASSERT_TRUE(static_cast<bool>(ep)) << llvm::toString(ep.takeError());
    bool changed = false;
    ASSERT_EQ(errorOf(recomputeUnbackedBindings(*ep, &changed)), "") << name;
    EXPECT_FALSE(changed) << name;
    EXPECT_TRUE(ep->getGraph().getInputBindings().empty()) << name;
    for (const Node &n : ep->getGraph().getNodes())
      EXPECT_TRUE(n.getUnbackedBindings().empty())
          << name << " " << n.getName().str();
  }
}

} // namespace
