//===- RuntimeAssertsTest.cpp - Tests for insert-runtime-asserts ----------===//
//
// Runs the insert-runtime-asserts pass (through its factory) on the dynamic
// corpus programs and on small graphs built through the IR API, and checks
// the nodes it adds: targets, argument names and kinds, FX-style names,
// value-table entries in the program's expression form, the exact upstream
// message, placement right after the node the symbol is read from, copied
// metadata, idempotence, recognition of equivalent existing checks, the
// `backed` option, replaced and bool-derived symbols, and that the result
// survives a JSON round trip and verifies.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/ir/ExportedProgram.h"
#include "pt2ir/ir/Printer.h"
#include "pt2ir/ir/UnbackedBindings.h"
#include "pt2ir/passes/Passes.h"
#include "pt2ir/serde/ProgramReader.h"
#include "pt2ir/serde/ProgramWriter.h"
#include "pt2ir/verifier/Verifier.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace pt2ir;

namespace {

/// Builds a graph node by node.
class Builder {
public:
  Builder() : ctx(ep.getContext()) {}

  SymValue dim(llvm::StringRef text) {
    int64_t v;
    if (!text.getAsInteger(10, v))
      return SymValue::ofInt(v);
    return SymValue::ofExpr(ctx.intern(text));
  }

  TensorMeta tensor(std::vector<std::string> sizes) {
    TensorMeta m;
    for (const std::string &s : sizes) {
      m.sizes.push_back(dim(s));
      m.strides.push_back(SymValue::ofInt(1));
    }
    m.storageOffset = SymValue::ofInt(0);
    m.device.type = ctx.intern("cpu");
    return m;
  }

  void tensorInput(llvm::StringRef name, TensorMeta meta) {
    llvm::cantFail(g().addInput(Argument::tensor(ctx, name)));
    g().lookupValue(name)->setTensorMeta(std::move(meta));
  }

  void symIntInput(llvm::StringRef name, llvm::StringRef expr) {
    llvm::cantFail(g().addInput(
        Argument::sym(ArgKind::SymInt, Argument::symRef(ctx, name))));
    g().lookupValue(name)->setSymMeta(SymValue::ofExpr(ctx.intern(expr)));
  }

  NamedArgument in(llvm::StringRef name, Argument arg) {
    NamedArgument a;
    a.name = ctx.intern(name);
    a.arg = std::move(arg);
    a.kind = 1;
    return a;
  }

  Argument symRef(ArgKind kind, llvm::StringRef name) {
    return Argument::sym(kind, Argument::symRef(ctx, name));
  }

  /// Appends `target(inputs) -> out` where `out` is a tensor (`outKind`
  /// Tensor), a sym value, or nothing (empty `out`).
  Node *node(llvm::StringRef target, std::vector<NamedArgument> ins,
             llvm::StringRef out = "", ArgKind outKind = ArgKind::Tensor,
             llvm::StringRef name = "") {
    NodeSpec spec;
    spec.target = ctx.intern(target);
    spec.inputs = std::move(ins);
    if (!out.empty())
      spec.outputs.push_back(outKind == ArgKind::Tensor
                                 ? Argument::tensor(ctx, out)
                                 : symRef(outKind, out));
    spec.name = ctx.intern(name.empty() ? out : name);
    setMetadata(spec.metadata, ctx.intern("stack_trace"),
                ctx.intern(("File \"m.py\", line 1, in " + spec.name->str())));
    return llvm::cantFail(g().appendNode(std::move(spec)));
  }

  Node *tensorNode(llvm::StringRef target, llvm::StringRef input,
                   llvm::StringRef out, TensorMeta meta) {
    std::vector<NamedArgument> ins;
    ins.push_back(in("self", Argument::tensor(ctx, input)));
    Node *n = node(target, std::move(ins), out);
    g().lookupValue(out)->setTensorMeta(std::move(meta));
    return n;
  }

  Node *symNode(llvm::StringRef target, std::vector<NamedArgument> ins,
                llvm::StringRef out, ArgKind kind, llvm::StringRef expr) {
    Node *n = node(target, std::move(ins), out, kind);
    g().lookupValue(out)->setSymMeta(SymValue::ofExpr(ctx.intern(expr)));
    return n;
  }

  /// `item = aten.item.default(input)` : SymInt(expr).
  Node *item(llvm::StringRef input, llvm::StringRef out, llvm::StringRef expr) {
    std::vector<NamedArgument> ins;
    ins.push_back(in("self", Argument::tensor(ctx, input)));
    return symNode("torch.ops.aten.item.default", std::move(ins), out,
                   ArgKind::SymInt, expr);
  }

  /// `name = _operator.<op>(a, k)` : SymBool(expr), `expr` empty for none.
  Node *compare(llvm::StringRef op, llvm::StringRef a, int64_t k,
                llvm::StringRef out, llvm::StringRef expr) {
    std::vector<NamedArgument> ins;
    ins.push_back(in("a", symRef(ArgKind::SymInt, a)));
    ins.push_back(in("b", Argument::integer(k)));
    Node *n =
        node(("_operator." + op).str(), std::move(ins), out, ArgKind::SymBool);
    if (!expr.empty())
      g().lookupValue(out)->setSymMeta(SymValue::ofExpr(ctx.intern(expr)));
    return n;
  }

  Node *assertScalar(llvm::StringRef cond, llvm::StringRef name) {
    std::vector<NamedArgument> ins;
    ins.push_back(in("self", symRef(ArgKind::SymBool, cond)));
    ins.push_back(in("assert_msg", Argument::string(ctx.intern("msg"))));
    return node("torch.ops.aten._assert_scalar.default", std::move(ins), "",
                ArgKind::Tensor, name);
  }

  void range(llvm::StringRef symbol, std::optional<int64_t> lo,
             std::optional<int64_t> hi) {
    RangeConstraint r;
    r.minVal = lo;
    r.maxVal = hi;
    ep.rangeConstraints.emplace_back(ctx.intern(symbol), r);
  }

  Graph &g() { return ep.getGraph(); }

  ExportedProgram ep;
  IRContext &ctx;
};

/// Result of one pass run.
struct RunResult {
  std::string error;
  bool changed = false;
  int64_t assertsAdded = 0;
};

RunResult runPass(ExportedProgram &ep, const PassOptions &options = {}) {
  std::unique_ptr<Pass> pass = createInsertRuntimeAssertsPass();
  RunResult result;
  if (auto err = pass->setOptions(options)) {
    result.error = llvm::toString(std::move(err));
    return result;
  }
  PassContext ctx;
  llvm::Expected<bool> changed = pass->run(ep, ctx);
  if (!changed) {
    result.error = llvm::toString(changed.takeError());
    return result;
  }
  result.changed = *changed;
  auto it = pass->getStatistics().find("asserts-added");
  if (it != pass->getStatistics().end())
    result.assertsAdded = it->second;
  return result;
}

/// One line per node: `name = target(args)`, as the text printer shows it.
std::vector<std::string> nodeLines(const Graph &g) {
  std::vector<std::string> lines;
  for (const Node &n : g.getNodes()) {
    std::string line;
    llvm::raw_string_ostream os(line);
    printNode(os, n);
    lines.push_back(line);
  }
  return lines;
}

std::string join(const std::vector<std::string> &lines) {
  std::string out;
  for (const std::string &l : lines)
    out += l + "\n";
  return out;
}

const Node *findNode(const Graph &g, llvm::StringRef name) {
  for (const Node &n : g.getNodes())
    if (n.getName() == name)
      return &n;
  return nullptr;
}

llvm::StringRef symExprOf(const Graph &g, llvm::StringRef value) {
  const Value *v = g.lookupValue(value);
  if (!v || !v->getSymMeta())
    return "<none>";
  return v->getSymMeta()->expr.exprStr;
}

ExportedProgram readCorpus(llvm::StringRef name) {
  std::string path = std::string(PT2IR_TEST_DIR) + "/corpus/" + name.str();
  return llvm::cantFail(readProgramFile(path));
}

TEST(InsertRuntimeAsserts, BackedSymbolOfCorpusProgramSrepr) {
  ExportedProgram ep = readCorpus("dyn_mlp.json");
  size_t before = ep.getGraph().size();
  RunResult r = runPass(ep);
  ASSERT_EQ(r.error, "");
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.assertsAdded, 1);
  EXPECT_EQ(ep.getGraph().size(), before + 2);

  std::vector<std::string> lines = nodeLines(ep.getGraph());
  ASSERT_GE(lines.size(), 3u);
  // Right after the node that already yields s0.
  EXPECT_EQ(lines[0].substr(0, lines[0].find(" :")),
            "%sym_size = aten.sym_size.int(%x, 0)");
  EXPECT_EQ(lines[1], "%ge = _operator.ge(%sym_size, 2) : SymBool(s0 >= 2)");
  EXPECT_EQ(lines[2], "aten._assert_scalar.default(%ge, \"Runtime assertion "
                      "failed for expression s0 >= 2 on node 'ge'\")");
  // The table keeps the program's srepr form, assumptions included.
  EXPECT_EQ(symExprOf(ep.getGraph(), "ge"),
            "GreaterThan(Symbol('s0', positive=True, integer=True), "
            "Integer(2))");
  // Metadata comes from the node the symbol is read from.
  const Node *symSize = findNode(ep.getGraph(), "sym_size");
  const Node *ge = findNode(ep.getGraph(), "ge");
  const Node *check = findNode(ep.getGraph(), "_assert_scalar_default");
  ASSERT_TRUE(symSize && ge && check);
  for (const Node *n : {ge, check}) {
    EXPECT_EQ(lookupMetadata(n->getMetadata(), "stack_trace"),
              lookupMetadata(symSize->getMetadata(), "stack_trace"));
    EXPECT_EQ(lookupMetadata(n->getMetadata(), "nn_module_stack"),
              lookupMetadata(symSize->getMetadata(), "nn_module_stack"));
    EXPECT_FALSE(lookupMetadata(n->getMetadata(), "source_fn_stack"));
  }
  EXPECT_EQ(ge->getStoredName(), std::optional<llvm::StringRef>("ge"));
  EXPECT_EQ(ge->getInputs()[0].name, "a");
  EXPECT_EQ(ge->getInputs()[1].name, "b");
  EXPECT_EQ(check->getInputs()[1].name, "assert_msg");
  EXPECT_EQ(check->getInputs()[1].kind, std::optional<int64_t>(1));

  // Idempotent.
  RunResult again = runPass(ep);
  ASSERT_EQ(again.error, "");
  EXPECT_FALSE(again.changed);
  EXPECT_EQ(again.assertsAdded, 0);
  EXPECT_EQ(ep.getGraph().size(), before + 2);

  // Round trip: what is written reads back to the same bytes and verifies.
  std::string json = writeProgram(ep);
  auto back = readProgram(json);
  ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(writeProgram(*back), json);
  EXPECT_EQ(nodeLines(back->getGraph()), lines);
  std::vector<Diagnostic> diags = verifyProgram(*back);
  std::string text;
  llvm::raw_string_ostream os(text);
  printDiagnostics(os, "dyn_mlp", diags);
  EXPECT_FALSE(hasErrors(diags)) << text;
}

TEST(InsertRuntimeAsserts, PlainFormProgramGetsPlainExpressions) {
  ExportedProgram ep = readCorpus("dyn_mlp_str_expr.json");
  RunResult r = runPass(ep);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.assertsAdded, 1);
  EXPECT_EQ(symExprOf(ep.getGraph(), "ge"), "s0 >= 2");
  EXPECT_FALSE(runPass(ep).changed);
}

TEST(InsertRuntimeAsserts, BackedOptionOff) {
  ExportedProgram ep = readCorpus("dyn_mlp.json");
  size_t before = ep.getGraph().size();
  RunResult r = runPass(ep, {{"backed", "false"}});
  ASSERT_EQ(r.error, "");
  EXPECT_FALSE(r.changed);
  EXPECT_EQ(ep.getGraph().size(), before);
}

TEST(InsertRuntimeAsserts, OptionErrors) {
  ExportedProgram ep;
  EXPECT_NE(runPass(ep, {{"backed", "maybe"}}).error, "");
  EXPECT_NE(runPass(ep, {{"colour", "true"}}).error, "");
}

TEST(InsertRuntimeAsserts, UnbackedScalarLowerAndUpper) {
  Builder b;
  b.tensorInput("x", b.tensor({"4"}));
  b.item("x", "item", "u0");
  b.tensorNode("torch.ops.aten.relu.default", "x", "relu", b.tensor({"4"}));
  b.range("u0", 0, 10);
  RunResult r = runPass(b.ep);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.assertsAdded, 2);
  EXPECT_EQ(join(nodeLines(b.g())),
            "%item = aten.item.default(%x) : SymInt(u0)\n"
            "%ge = _operator.ge(%item, 0) : SymBool(u0 >= 0)\n"
            "aten._assert_scalar.default(%ge, \"Runtime assertion failed for "
            "expression u0 >= 0 on node 'ge'\")\n"
            "%le = _operator.le(%item, 10) : SymBool(u0 <= 10)\n"
            "aten._assert_scalar.default(%le, \"Runtime assertion failed for "
            "expression u0 <= 10 on node 'le'\")\n"
            "%relu = aten.relu.default(%x) : f32[4]\n");
  EXPECT_EQ(findNode(b.g(), "_assert_scalar_default_1")->getName(),
            "_assert_scalar_default_1");
  EXPECT_FALSE(runPass(b.ep).changed);
}

TEST(InsertRuntimeAsserts, SizeBoundSymbolIsExtractedAfterItsProducer) {
  Builder b;
  b.tensorInput("x", b.tensor({"4"}));
  b.tensorNode("torch.ops.aten.nonzero.default", "x", "nonzero",
               b.tensor({"Symbol('u0', integer=True)", "1"}));
  b.tensorNode("torch.ops.aten.relu.default", "nonzero", "relu",
               b.tensor({"Symbol('u0', integer=True)", "1"}));
  b.range("u0", 0, std::nullopt);
  RunResult r = runPass(b.ep);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.assertsAdded, 1);
  std::vector<std::string> lines = nodeLines(b.g());
  ASSERT_EQ(lines.size(), 5u) << join(lines);
  EXPECT_EQ(lines[1], "%sym_size_int = aten.sym_size.int(%nonzero, 0) : "
                      "SymInt(u0)");
  EXPECT_EQ(lines[2],
            "%ge = _operator.ge(%sym_size_int, 0) : SymBool(u0 >= 0)");
  EXPECT_EQ(symExprOf(b.g(), "ge"),
            "GreaterThan(Symbol('u0', integer=True), Integer(0))");
  EXPECT_EQ(lines[3], "aten._assert_scalar.default(%ge, \"Runtime assertion "
                      "failed for expression u0 >= 0 on node 'ge'\")");
  EXPECT_EQ(
      lookupMetadata(findNode(b.g(), "sym_size_int")->getMetadata(),
                     "stack_trace"),
      lookupMetadata(findNode(b.g(), "nonzero")->getMetadata(), "stack_trace"));
  // The bindings were recomputed: nonzero still binds u0.
  ASSERT_EQ(findNode(b.g(), "nonzero")->getUnbackedBindings().size(), 1u);
  EXPECT_TRUE(findNode(b.g(), "sym_size_int")->getUnbackedBindings().empty());
  EXPECT_FALSE(runPass(b.ep).changed);

  std::string json = writeProgram(b.ep);
  auto back = readProgram(json);
  ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(writeProgram(*back), json);
}

TEST(InsertRuntimeAsserts, DivisionBindingGoesThroughFloordiv) {
  Builder b;
  b.tensorInput("x", b.tensor({"4"}));
  b.tensorNode("mylib.repeat", "x", "rep", b.tensor({"4*u3"}));
  b.range("u3", 1, std::nullopt);
  RunResult r = runPass(b.ep);
  ASSERT_EQ(r.error, "");
  std::vector<std::string> lines = nodeLines(b.g());
  ASSERT_EQ(lines.size(), 5u) << join(lines);
  EXPECT_EQ(lines[1], "%sym_size_int = aten.sym_size.int(%rep, 0) : "
                      "SymInt(4*u3)");
  EXPECT_EQ(lines[2], "%floordiv = _operator.floordiv(%sym_size_int, 4) : "
                      "SymInt(u3)");
  EXPECT_EQ(lines[3], "%ge = _operator.ge(%floordiv, 1) : SymBool(u3 >= 1)");
}

TEST(InsertRuntimeAsserts, StrideAndStorageOffsetExtraction) {
  Builder b;
  b.tensorInput("x", b.tensor({"4"}));
  TensorMeta meta = b.tensor({"4", "3"});
  meta.strides[0] = b.dim("u0");
  meta.storageOffset = b.dim("u1");
  b.tensorNode("mylib.strided", "x", "y", std::move(meta));
  b.range("u0", 3, std::nullopt);
  b.range("u1", std::nullopt, 100);
  RunResult r = runPass(b.ep);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.assertsAdded, 2);
  std::vector<std::string> lines = nodeLines(b.g());
  ASSERT_EQ(lines.size(), 7u) << join(lines);
  EXPECT_EQ(lines[1],
            "%sym_stride_int = aten.sym_stride.int(%y, 0) : SymInt(u0)");
  EXPECT_EQ(lines[2], "%ge = _operator.ge(%sym_stride_int, 3) : "
                      "SymBool(u0 >= 3)");
  EXPECT_EQ(lines[4], "%sym_storage_offset_default = "
                      "aten.sym_storage_offset.default(%y) : SymInt(u1)");
  EXPECT_EQ(lines[5], "%le = _operator.le(%sym_storage_offset_default, 100) : "
                      "SymBool(u1 <= 100)");
  EXPECT_FALSE(runPass(b.ep).changed);
}

TEST(InsertRuntimeAsserts, ExistingChecksAreRecognised) {
  // The typical export output: nothing to add.
  Builder b;
  b.tensorInput("x", b.tensor({"4"}));
  b.tensorNode("torch.ops.aten.nonzero.default", "x", "nonzero",
               b.tensor({"u0", "1"}));
  std::vector<NamedArgument> ins;
  ins.push_back(b.in("self", Argument::tensor(b.ctx, "nonzero")));
  ins.push_back(b.in("dim", Argument::integer(0)));
  b.symNode("torch.ops.aten.sym_size.int", std::move(ins), "sym_size_int",
            ArgKind::SymInt, "u0");
  b.compare("ge", "sym_size_int", 0, "ge", "u0 >= 0");
  b.assertScalar("ge", "_assert_scalar_default");
  // `10 >= u0`, written the other way round, counts as `u0 <= 10`.
  b.compare("le", "sym_size_int", 10, "le", "10 >= u0");
  b.assertScalar("le", "_assert_scalar_default_1");
  b.range("u0", 0, 10);
  size_t before = b.g().size();
  RunResult r = runPass(b.ep);
  ASSERT_EQ(r.error, "");
  EXPECT_FALSE(r.changed);
  EXPECT_EQ(b.g().size(), before);

  // A comparison without a table entry is read from its node; a wider range
  // needs one more check, placed after the existing sym_size node (no second
  // extraction), with names that avoid the existing ones.
  Builder c;
  c.tensorInput("x", c.tensor({"4"}));
  c.tensorNode("torch.ops.aten.nonzero.default", "x", "nonzero",
               c.tensor({"u0", "1"}));
  std::vector<NamedArgument> ins2;
  ins2.push_back(c.in("self", Argument::tensor(c.ctx, "nonzero")));
  ins2.push_back(c.in("dim", Argument::integer(0)));
  c.symNode("torch.ops.aten.sym_size.int", std::move(ins2), "sym_size_int",
            ArgKind::SymInt, "u0");
  c.compare("ge", "sym_size_int", 0, "ge", "");
  c.assertScalar("ge", "_assert_scalar_default");
  c.range("u0", 0, 7);
  RunResult r2 = runPass(c.ep);
  ASSERT_EQ(r2.error, "");
  EXPECT_EQ(r2.assertsAdded, 1);
  std::vector<std::string> lines = nodeLines(c.g());
  ASSERT_EQ(lines.size(), 6u) << join(lines);
  EXPECT_EQ(lines[2],
            "%le = _operator.le(%sym_size_int, 7) : SymBool(u0 <= 7)");
  EXPECT_EQ(lines[3], "aten._assert_scalar.default(%le, \"Runtime assertion "
                      "failed for expression u0 <= 7 on node 'le'\")");
  EXPECT_EQ(lines[4], "%ge = _operator.ge(%sym_size_int, 0) : SymBool");
  EXPECT_NE(findNode(c.g(), "_assert_scalar_default_1"), nullptr);
}

TEST(InsertRuntimeAsserts, ConstrainRangeNodesCount) {
  Builder b;
  b.tensorInput("x", b.tensor({"4"}));
  b.item("x", "item", "u0");
  std::vector<NamedArgument> ins;
  ins.push_back(b.in("size", b.symRef(ArgKind::SymInt, "item")));
  b.node("torch.ops.aten.sym_constrain_range_for_size.default", std::move(ins),
         "", ArgKind::Tensor, "sym_constrain_range_for_size_default");
  b.range("u0", 0, std::nullopt);
  size_t before = b.g().size();
  RunResult r = runPass(b.ep);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(b.g().size(), before);
}

TEST(InsertRuntimeAsserts, ReplacedAndBoolDerivedSymbolsAreLeftAlone) {
  Builder b;
  b.tensorInput("x", b.tensor({"s0"}));
  b.tensorInput("y", b.tensor({"s1"}));
  // u0 was replaced by s0 + s1: it only survives in range_constraints.
  b.tensorNode("torch.ops.aten.cat.default", "x", "cat", b.tensor({"s0 + s1"}));
  std::vector<NamedArgument> ins;
  ins.push_back(b.in("self", Argument::tensor(b.ctx, "x")));
  b.symNode("mylib.flag", std::move(ins), "flag", ArgKind::SymBool,
            "Eq(u1, 1)");
  b.range("u0", 0, 100);
  b.range("u1", 0, 1);
  RunResult r = runPass(b.ep, {{"backed", "false"}});
  ASSERT_EQ(r.error, "");
  EXPECT_FALSE(r.changed);
  EXPECT_EQ(b.g().size(), 2u);
}

TEST(InsertRuntimeAsserts, BackedSymbolsFromGraphInputs) {
  Builder b;
  b.symIntInput("n", "s1");
  b.tensorInput("x", b.tensor({"3", "s0"}));
  b.tensorNode("torch.ops.aten.relu.default", "x", "relu",
               b.tensor({"3", "s0"}));
  b.range("s0", 2, 64);
  b.range("s1", std::nullopt, 9223372036854775806LL); // sys.maxsize - 1
  b.range("s2", 2, 5); // appears nowhere: nothing to check
  RunResult r = runPass(b.ep);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.assertsAdded, 2);
  std::vector<std::string> lines = nodeLines(b.g());
  ASSERT_EQ(lines.size(), 6u) << join(lines);
  EXPECT_EQ(lines[0], "%sym_size_int = aten.sym_size.int(%x, 1) : SymInt(s0)");
  EXPECT_EQ(lines[1],
            "%ge = _operator.ge(%sym_size_int, 2) : SymBool(s0 >= 2)");
  EXPECT_EQ(lines[3], "%le = _operator.le(%sym_size_int, 64) : "
                      "SymBool(s0 <= 64)");
  EXPECT_EQ(lines[5].substr(0, 5), "%relu");
  // Nodes read from graph inputs have no node to copy metadata from.
  EXPECT_TRUE(findNode(b.g(), "ge")->getMetadata().empty());
  EXPECT_FALSE(runPass(b.ep).changed);
}

TEST(InsertRuntimeAsserts, SymIntGraphInputIsUsedDirectly) {
  Builder b;
  b.symIntInput("n", "s1");
  b.tensorInput("x", b.tensor({"4"}));
  b.tensorNode("torch.ops.aten.relu.default", "x", "relu", b.tensor({"4"}));
  b.range("s1", 3, std::nullopt);
  RunResult r = runPass(b.ep);
  ASSERT_EQ(r.error, "");
  std::vector<std::string> lines = nodeLines(b.g());
  ASSERT_EQ(lines.size(), 3u) << join(lines);
  EXPECT_EQ(lines[0], "%ge = _operator.ge(%n, 3) : SymBool(s1 >= 3)");
}

TEST(InsertRuntimeAsserts, UnboundUnbackedSymbolFailsThePass) {
  Builder b;
  b.tensorInput("x", b.tensor({"4"}));
  b.tensorNode("mylib.op", "x", "y", b.tensor({"u5 + 1"}));
  b.range("u5", 0, std::nullopt);
  RunResult r = runPass(b.ep);
  EXPECT_NE(r.error.find("unbacked symbol u5 is never bound"),
            std::string::npos)
      << r.error;
}

} // namespace
