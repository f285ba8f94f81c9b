//===- CanonicalizeSymbolsTest.cpp - Tests for canonicalize-symbols -------===//
//
// The same program under different symbol numberings canonicalizes to the
// same bytes; names come from the binding position (sizes, then strides);
// unbacked and unbound symbols keep their names; untouched expressions keep
// their text; the pass is idempotent; unparsable expressions are errors.
//
//===----------------------------------------------------------------------===//

#include "PassTestPrograms.h"

#include "pt2ir/passes/PassRegistry.h"
#include "pt2ir/serde/ProgramWriter.h"

#include <gtest/gtest.h>

using namespace pt2ir;
using namespace pt2ir::testing;

namespace {

/// x: [A, 3] strides [3, 1]; y: [4] strides [B]; out = x + 1 : [A, 3];
/// a sym node A*B and an assert message about A and u0.
std::string program(const std::string &a, const std::string &b,
                    const std::string &extraRange = "") {
  std::string prod = a < b ? a + "*" + b : b + "*" + a; // sympy's order
  GraphSpec g;
  g.inputs = {"x", "y"};
  g.nodes = {
      nodeJson("torch.ops.aten.sym_size.int",
               {{"self", tensorArg("x")}, {"dim", intArg(0)}},
               {symIntArg("sz")}, "sz"),
      nodeJson("torch.ops.aten.sym_stride.int",
               {{"self", tensorArg("y")}, {"dim", intArg(0)}},
               {symIntArg("st")}, "st"),
      nodeJson("_operator.mul",
               {{"a", symIntArg("sz")}, {"b", symIntArg("st")}},
               {symIntArg("mul")}, "mul"),
      nodeJson("torch.ops.aten.add.Tensor",
               {{"self", tensorArg("x")}, {"other", intArg(1)}},
               {tensorArg("add")}, "add"),
      nodeJson("torch.ops.aten._assert_scalar.default",
               {{"self", R"({"as_bool": true})"},
                {"assert_msg",
                 stringArg("Runtime assertion failed for expression Eq(" + a +
                           " + u0, 7) on node 'x'")}},
               {}, "_assert_scalar_default")};
  g.outputs = {"add"};
  g.tensors = {{"x", tensorMeta({a, "3"}, {"3", "1"})},
               {"y", tensorMeta({"4"}, {b})},
               {"add", tensorMeta({a, "3"}, {"3", "1"})}};
  g.symInts = {{"sz", a}, {"st", b}, {"mul", prod}};
  std::string ranges = "{\"" + a + R"(": {"min_val": 2, "max_val": null}, ")" +
                       b + R"(": {"min_val": 1, "max_val": 8})" + extraRange +
                       "}";
  if (a > b) // List ranges in numbering order, as export does.
    ranges = "{\"" + b + R"(": {"min_val": 1, "max_val": 8}, ")" + a +
             R"(": {"min_val": 2, "max_val": null})" + extraRange + "}";
  return programJson(g, ranges, "[]");
}

/// Runs canonicalize-symbols; returns the written program ("" on error).
std::string canonicalize(ExportedProgram &ep, bool *changed = nullptr) {
  auto pass = createPass(*Registry::getDefault(), "canonicalize-symbols");
  EXPECT_TRUE(bool(pass));
  if (!pass)
    return llvm::toString(pass.takeError());
  PassContext ctx;
  auto result = (*pass)->run(ep, ctx);
  if (!result) {
    ADD_FAILURE() << llvm::toString(result.takeError());
    return "";
  }
  if (changed)
    *changed = *result;
  return writeProgram(ep);
}

TEST(CanonicalizeSymbolsTest, NumberingDoesNotMatter) {
  ExportedProgram first = readOrFail(program("s0", "s1"));
  ExportedProgram swapped = readOrFail(program("s1", "s0"));
  ExportedProgram far = readOrFail(program("s12", "s3"));
  ASSERT_NE(writeProgram(first), writeProgram(swapped));
  std::string canonical = canonicalize(first);
  EXPECT_EQ(canonicalize(swapped), canonical);
  EXPECT_EQ(canonicalize(far), canonical);
  EXPECT_EQ(canonical.find("\"s0\""), std::string::npos);
  EXPECT_EQ(canonical.find("s1\""), std::string::npos);
}

TEST(CanonicalizeSymbolsTest, NamesComeFromTheBindingPosition) {
  ExportedProgram ep = readOrFail(program("s0", "s1"));
  canonicalize(ep);
  const Value *x = ep.getGraph().lookupValue("x");
  const Value *y = ep.getGraph().lookupValue("y");
  ASSERT_TRUE(x && y);
  llvm::StringRef xName = x->getTensorMeta()->sizes[0].expr.exprStr;
  llvm::StringRef yName = y->getTensorMeta()->strides[0].expr.exprStr;
  EXPECT_TRUE(xName.starts_with("s") && xName != "s0") << xName.str();
  EXPECT_TRUE(yName.starts_with("s") && yName != "s1") << yName.str();
  EXPECT_NE(xName, yName);
  // Everything else follows.
  EXPECT_EQ(ep.getGraph().lookupValue("sz")->getSymIntMeta()->expr.exprStr,
            xName);
  EXPECT_EQ(ep.getGraph().lookupValue("st")->getSymIntMeta()->expr.exprStr,
            yName);
  ASSERT_EQ(ep.rangeConstraints.size(), 2u);
  std::set<std::string> keys = {ep.rangeConstraints[0].first.str(),
                                ep.rangeConstraints[1].first.str()};
  EXPECT_EQ(keys, (std::set<std::string>{xName.str(), yName.str()}));
  const Node &assertNode = ep.getGraph().getNodes().back();
  EXPECT_EQ(assertNode.getInputs()[1].arg.getString(),
            ("Runtime assertion failed for expression Eq(" + xName +
             " + u0, 7) on node 'x'")
                .str());
}

TEST(CanonicalizeSymbolsTest, IsIdempotentAndLeavesOtherProgramsAlone) {
  ExportedProgram ep = readOrFail(program("s0", "s1"));
  bool changed = false;
  std::string once = canonicalize(ep, &changed);
  EXPECT_TRUE(changed);
  EXPECT_EQ(canonicalize(ep, &changed), once);
  EXPECT_FALSE(changed);

  GraphSpec g;
  g.inputs = {"x"};
  g.nodes = {nodeJson("torch.ops.aten.relu.default", {{"self", tensorArg("x")}},
                      {tensorArg("relu")}, "relu")};
  g.outputs = {"relu"};
  g.f32({"x", "relu"});
  std::string json = programJson(g);
  ExportedProgram plain = readOrFail(json);
  std::string before = writeProgram(plain);
  EXPECT_EQ(canonicalize(plain, &changed), before);
  EXPECT_FALSE(changed);
}

TEST(CanonicalizeSymbolsTest, UnboundSymbolsKeepTheirNamesAndAreAvoided) {
  // s7 is in range_constraints but no input binds it; u0 is unbacked.
  ExportedProgram ep = readOrFail(program(
      "s0", "s1",
      R"(, "s7": {"min_val": 2, "max_val": null}, "u0": {"min_val": 0, "max_val": null})"));
  canonicalize(ep);
  std::vector<std::string> keys;
  for (const auto &[name, range] : ep.rangeConstraints)
    keys.push_back(name.str());
  ASSERT_EQ(keys.size(), 4u);
  EXPECT_NE(std::find(keys.begin(), keys.end(), "s7"), keys.end());
  EXPECT_EQ(keys.back(), "u0"); // Sorted: s symbols first.
  EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end() - 1,
                             [](const std::string &a, const std::string &b) {
                               return std::stoul(a.substr(1)) <
                                      std::stoul(b.substr(1));
                             }));
}

TEST(CanonicalizeSymbolsTest, KeepsTheFormOfEachExpression) {
  GraphSpec g;
  g.inputs = {"x"};
  g.nodes = {nodeJson("torch.ops.aten.relu.default", {{"self", tensorArg("x")}},
                      {tensorArg("relu")}, "relu")};
  g.outputs = {"relu"};
  g.tensors = {{"x", tensorMeta({"Symbol('s4', integer=True, positive=True)"})},
               {"relu", tensorMeta({"s4 + 0"})}};
  ExportedProgram ep = readOrFail(programJson(g));
  canonicalize(ep);
  llvm::StringRef srepr =
      ep.getGraph().lookupValue("x")->getTensorMeta()->sizes[0].expr.exprStr;
  llvm::StringRef plain =
      ep.getGraph().lookupValue("relu")->getTensorMeta()->sizes[0].expr.exprStr;
  EXPECT_TRUE(srepr.starts_with("Symbol('s")) << srepr.str();
  EXPECT_TRUE(srepr.ends_with("', integer=True, positive=True)"))
      << srepr.str();
  EXPECT_TRUE(plain.ends_with(" + 0")) << plain.str();
  EXPECT_FALSE(plain.starts_with("Add(")) << plain.str();
}

TEST(CanonicalizeSymbolsTest, UnparsableAssertMessagesGetTheirWordsRenamed) {
  GraphSpec g;
  g.inputs = {"x"};
  g.nodes = {nodeJson(
      "torch.ops.aten._assert_scalar.default",
      {{"self", R"({"as_bool": true})"},
       {"assert_msg", stringArg("Runtime assertion failed for expression s0 ?? "
                                "s10 + s0x on node 'x'")}},
      {}, "_assert_scalar_default")};
  g.outputs = {"x"};
  g.tensors = {{"x", tensorMeta({"s0"})}};
  ExportedProgram ep = readOrFail(programJson(g, "{}", "[]"));
  canonicalize(ep);
  llvm::StringRef name =
      ep.getGraph().lookupValue("x")->getTensorMeta()->sizes[0].expr.exprStr;
  ASSERT_NE(name, "s0");
  EXPECT_EQ(ep.getGraph().getNodes().front().getInputs()[1].arg.getString(),
            ("Runtime assertion failed for expression " + name +
             " ?? s10 + s0x on node 'x'")
                .str());
}

TEST(CanonicalizeSymbolsTest, UnparsableExpressionsAreErrors) {
  GraphSpec g;
  g.inputs = {"x"};
  g.nodes = {};
  g.outputs = {"x"};
  g.tensors = {{"x", tensorMeta({"s0 +* 1"})}};
  auto ep = readProgram(programJson(g));
  ASSERT_TRUE(bool(ep)) << llvm::toString(ep.takeError());
  auto pass = createPass(*Registry::getDefault(), "canonicalize-symbols");
  ASSERT_TRUE(bool(pass));
  PassContext ctx;
  auto result = (*pass)->run(*ep, ctx);
  ASSERT_FALSE(bool(result));
  std::string message = llvm::toString(result.takeError());
  EXPECT_EQ(message.rfind("canonicalize-symbols: cannot parse the expression "
                          "of value 'x' size[0]: ",
                          0),
            0u)
      << message;
}

} // namespace
