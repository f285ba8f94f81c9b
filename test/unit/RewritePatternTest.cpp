//===- RewritePatternTest.cpp - Tests for patterns and the greedy driver --===//
//
// Covers the C++ RewritePattern API through the greedy driver (a fixed
// point across sweeps, benefit order, the iteration bound and the
// converged flag, rewrites inside subgraphs), and declarative patterns
// parsed from text (matching, closed matches, file:line:col errors).
//
//===----------------------------------------------------------------------===//

#include "PassTestPrograms.h"

#include "pt2ir/rewrite/DeclarativePattern.h"
#include "pt2ir/rewrite/PatternFile.h"
#include "pt2ir/rewrite/RewritePattern.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace pt2ir;
using namespace pt2ir::testing;

namespace {

std::string unary(const std::string &op, const std::string &in,
                  const std::string &out) {
  return nodeJson("torch.ops.aten." + op, {{"self", tensorArg(in)}},
                  {tensorArg(out)}, out);
}

/// neg(neg(x)) -> x.
class FoldDoubleNeg final : public RewritePattern {
public:
  FoldDoubleNeg() : RewritePattern("torch.ops.aten.neg.default", 1, "fold-neg") {}
  llvm::Expected<bool> matchAndRewrite(Node &root,
                                       PatternRewriter &rewriter) const override {
    Value *in = root.getInputs()[0].arg.getSingleValue();
    Node *inner = in->getDefiningNode();
    if (!inner || inner->getTarget() != getRootTarget() || !in->hasOneUse())
      return false;
    Value *x = inner->getInputs()[0].arg.getSingleValue();
    if (auto err = rewriter.replaceNode(root, {x}))
      return err;
    if (auto err = rewriter.eraseNode(*inner))
      return err;
    return true;
  }
};

/// Replaces every relu by exp, with a low benefit; a pattern that never
/// stops (relu -> relu) shows the bound.
class ReplaceRelu final : public RewritePattern {
public:
  ReplaceRelu(std::string by, unsigned benefit)
      : RewritePattern("torch.ops.aten.relu.default", benefit, "relu-" + by),
        by(std::move(by)) {}
  llvm::Expected<bool> matchAndRewrite(Node &root,
                                       PatternRewriter &rewriter) const override {
    Value *in = root.getInputs()[0].arg.getSingleValue();
    auto v = rewriter.createValue("aten::" + by, {in}, {},
                                  NodeOptions::like(root.getSingleResult()));
    if (!v)
      return v.takeError();
    if (auto err = rewriter.replaceNode(root, {*v}))
      return err;
    return true;
  }

private:
  std::string by;
};

ExportedProgram negChain(unsigned n) {
  GraphSpec g;
  g.inputs = {"x"};
  std::string prev = "x";
  for (unsigned i = 0; i < n; ++i) {
    std::string name = "n" + std::to_string(i);
    g.nodes.push_back(unary("neg.default", prev, name));
    g.f32({name});
    prev = name;
  }
  g.nodes.push_back(unary("relu.default", prev, "r"));
  g.f32({"x", "r"});
  g.outputs = {"r"};
  return readOrFail(programJson(g));
}

TEST(RewritePatternTest, TheDriverReachesAFixedPoint) {
  ExportedProgram ep = negChain(4);
  RewritePatternSet patterns;
  patterns.add<FoldDoubleNeg>();
  auto result = applyPatternsGreedily(ep, patterns);
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  EXPECT_TRUE(result->changed);
  EXPECT_TRUE(result->converged);
  EXPECT_EQ(result->rewrites, 2u);
  EXPECT_EQ(nodeNames(ep.getGraph()), std::vector<std::string>{"r"});
  EXPECT_EQ(ep.getGraph().getNodes().front().getInputs()[0].arg.getSingleValue()->getName(), "x");
}

TEST(RewritePatternTest, HigherBenefitFirstAndTheIterationBound) {
  {
    ExportedProgram ep = negChain(0);
    RewritePatternSet patterns;
    patterns.add<ReplaceRelu>("exp", 1).add<ReplaceRelu>("sigmoid", 5);
    auto result = applyPatternsGreedily(ep, patterns);
    ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
    EXPECT_EQ(ep.getGraph().getNodes().front().getTarget(),
              "torch.ops.aten.sigmoid.default");
    EXPECT_EQ(result->rewritesPerPattern, (std::vector<unsigned>{0, 1}));
    EXPECT_TRUE(result->converged);
  }
  {
    ExportedProgram ep = negChain(0);
    RewritePatternSet patterns;
    patterns.add<ReplaceRelu>("relu", 1); // Never reaches a fixed point.
    GreedyRewriteConfig config;
    config.maxIterations = 3;
    auto result = applyPatternsGreedily(ep, patterns, config);
    ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
    EXPECT_TRUE(result->changed);
    EXPECT_FALSE(result->converged);
    EXPECT_EQ(result->iterations, 3u);
    EXPECT_EQ(result->rewrites, 3u);
  }
}

TEST(RewritePatternTest, DeclarativePatternsMatchStructurally) {
  const char *file = R"({"patterns": [
  {"name": "double-neg", "inputs": ["a"],
   "match": [{"target": "aten::neg", "args": {"self": "%a"}, "results": ["n1"]},
             {"target": "aten::neg", "args": {"self": "%n1"}, "results": ["n2"]}],
   "outputs": ["n2"], "replace": [], "replace_outputs": ["a"]}]})";
  auto specs = parsePatternFile(file, "p.json");
  ASSERT_TRUE(bool(specs)) << llvm::toString(specs.takeError());
  ASSERT_EQ(specs->size(), 1u);
  ExportedProgram ep = negChain(5);
  ASSERT_FALSE(bool(verifyPatternSpec((*specs)[0], ep.getRegistry().getOperators())));
  RewritePatternSet patterns;
  patterns.add(createDeclarativePattern((*specs)[0]));
  auto result = applyPatternsGreedily(ep, patterns);
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->rewrites, 2u);
  EXPECT_EQ(nodeNames(ep.getGraph()), (std::vector<std::string>{"n4", "r"}));
}

TEST(RewritePatternTest, TextPatternsGetSchemaNamesForPositionalArguments) {
  const char *file = R"(// Two negations cancel.
pattern double-neg benefit 7 {
  match(%a) {
    %n1 = aten.neg.default(%a)
    %n2 = aten.neg.default(self=%n1)
    return %n2
  }
  replace {
    return %a
  }
}
pattern "scaled add" {
  match(%a, %b) {
    %s = aten.add.Tensor(%a, %b, alpha=2.5)
    return %s
  }
  replace {
    %c = aten.to.dtype(%b, torch.float16) like %s
    %d = aten.add.Tensor(%a, %c, alpha=[1, -2, inf])
    return %d
  }
}
)";
  auto specs = parsePatternFile(file, "p.pat");
  ASSERT_TRUE(bool(specs)) << llvm::toString(specs.takeError());
  ASSERT_EQ(specs->size(), 2u);
  DeclarativePatternSpec &neg = (*specs)[0];
  EXPECT_EQ(neg.name, "double-neg");
  EXPECT_EQ(neg.benefit, 7u);
  EXPECT_EQ(neg.match[0].target, "torch.ops.aten.neg.default");
  EXPECT_EQ(neg.match[0].positional.size(), 1u);
  EXPECT_EQ(neg.replaceOutputs, (std::vector<std::string>{"a"}));
  ExportedProgram ep = negChain(5);
  const OperatorRegistry &operators = ep.getRegistry().getOperators();
  EXPECT_TRUE(bool(verifyPatternSpec(neg, operators))) << "positional args must be named first";
  ASSERT_FALSE(bool(nameArguments(neg, operators)));
  ASSERT_EQ(neg.match[0].args.size(), 1u);
  EXPECT_EQ(neg.match[0].args[0].first, "self");
  EXPECT_EQ(neg.match[0].args[0].second.text, "a");
  ASSERT_FALSE(bool(verifyPatternSpec(neg, operators)));

  DeclarativePatternSpec &add = (*specs)[1];
  EXPECT_EQ(add.name, "scaled add");
  ASSERT_FALSE(bool(nameArguments(add, operators)));
  const auto &alpha = add.match[0].args[2];
  EXPECT_EQ(alpha.first, "alpha");
  EXPECT_EQ(alpha.second.kind, PatternArg::Kind::Float);
  EXPECT_EQ(alpha.second.floatValue, 2.5);
  const PatternNodeSpec &to = add.replace[0];
  EXPECT_EQ(to.like, "s");
  ASSERT_EQ(to.args.size(), 2u);
  EXPECT_EQ(to.args[1].first, "dtype");
  EXPECT_EQ(to.args[1].second.kind, PatternArg::Kind::ScalarType);
  EXPECT_EQ(to.args[1].second.intValue, int64_t(ScalarType::HALF));
  const PatternArg &list = add.replace[1].args[2].second;
  ASSERT_EQ(list.elements.size(), 3u);
  EXPECT_EQ(list.elements[1].intValue, -2);
  EXPECT_TRUE(std::isinf(list.elements[2].floatValue));

  RewritePatternSet patterns;
  patterns.add(createDeclarativePattern(neg));
  auto result = applyPatternsGreedily(ep, patterns);
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->rewrites, 2u);
}

TEST(RewritePatternTest, PatternFileErrorsHaveLineAndColumn) {
  auto specs = parsePatternFile("{\"patterns\": [\n  {\"name\": 3}]}", "f.json");
  ASSERT_FALSE(bool(specs));
  EXPECT_EQ(llvm::toString(specs.takeError()),
            "f.json:2:12: \"name\" must be a string, not a number");
  specs = parsePatternFile("{\"patterns\": [1,]}", "g.json");
  ASSERT_FALSE(bool(specs));
  EXPECT_EQ(llvm::toString(specs.takeError()),
            "g.json:1:17: expected a JSON value, found ']'");
  specs = parsePatternFile("pattern p {\n  match(%a) {\n    %r = aten.relu.default(%a, [1 2])",
                           "h.pat");
  ASSERT_FALSE(bool(specs));
  EXPECT_EQ(llvm::toString(specs.takeError()), "h.pat:3:35: expected ',' or ']', found '2'");
}

} // namespace
