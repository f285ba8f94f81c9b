//===- SymbolicExprTest.cpp - Tests for symbolic shape expressions --------===//
//
// Covers parseSymExpr on both expr_str forms (every expression in the corpus,
// and pairs printed by sympy's str()/srepr() for the same expression), the
// printers' round trip, free symbols and symbol classification, evaluation
// with Python semantics, substitution and renaming, SymExprText's verbatim
// round trip, and the parser's errors (truncated input, unknown tokens,
// excessive nesting).
//
//===----------------------------------------------------------------------===//

#include "pt2ir/ir/SymbolicExpr.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <regex>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

using namespace pt2ir::sym;

namespace {

/// Parses `text`, failing the test on error.
Expr parseOk(llvm::StringRef text, Form *form = nullptr) {
  llvm::Expected<Expr> expr = parseSymExpr(text, form);
  if (!expr) {
    ADD_FAILURE() << "failed to parse '" << text.str()
                  << "': " << llvm::toString(expr.takeError());
    return Expr();
  }
  return *expr;
}

/// `text` parses, its plain form reads back as the same tree, and printing
/// that tree again gives the same plain text.
void expectPlainFormExact(const char *text) {
  SCOPED_TRACE(text);
  Expr e = parseOk(text);
  ASSERT_FALSE(e.isNull());
  std::string plain = toString(e, Form::Plain);
  Expr again = parseOk(plain);
  ASSERT_FALSE(again.isNull()) << plain;
  EXPECT_EQ(again, e) << plain;
  EXPECT_EQ(toString(again, Form::Plain), plain);
}

/// Expects the plain form of `text` to settle: after one print/parse round
/// that may regroup the tree, printing and parsing again changes nothing.
void expectPlainFormSettles(const char *text) {
  SCOPED_TRACE(text);
  Expr e = parseOk(text);
  ASSERT_FALSE(e.isNull());
  std::string plain = toString(e, Form::Plain);
  Expr again = parseOk(plain);
  ASSERT_FALSE(again.isNull()) << plain;
  std::string settled = toString(again, Form::Plain);
  EXPECT_EQ(toString(parseOk(settled), Form::Plain), settled);
}

/// The parse error for `text`, or "" when it parses.
std::string parseError(llvm::StringRef text) {
  llvm::Expected<Expr> expr = parseSymExpr(text);
  if (expr)
    return "";
  return llvm::toString(expr.takeError());
}

/// Every `"expr_str": "..."` value of a corpus file, in file order.
std::vector<std::string> corpusExprStrings(llvm::StringRef fileName) {
  std::string path = std::string(PT2IR_TEST_DIR) + "/corpus/" + fileName.str();
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    ADD_FAILURE() << "cannot read " << path;
    return {};
  }
  llvm::StringRef json = (*buffer)->getBuffer();
  std::vector<std::string> values;
  llvm::StringRef key = "\"expr_str\"";
  for (size_t at = json.find(key); at != llvm::StringRef::npos;
       at = json.find(key, at + 1)) {
    size_t open = json.find('"', json.find(':', at + key.size()));
    std::string value;
    size_t i = open + 1;
    for (; i < json.size() && json[i] != '"'; ++i) {
      if (json[i] == '\\' && i + 1 < json.size())
        ++i; // The corpus only escapes quotes and backslashes.
      value.push_back(json[i]);
    }
    values.push_back(value);
  }
  return values;
}

/// Drops srepr symbol assumptions: `Symbol('s0', integer=True)` ->
/// `Symbol('s0')`.
std::string withoutAssumptions(const std::string &srepr) {
  static const std::regex assumption(
      R"((Symbol\('[A-Za-z0-9_]+')(, [a-z_]+=[A-Za-z]+)+\))");
  return std::regex_replace(srepr, assumption, "$1)");
}

/// (sympy str(), sympy srepr()) of the same expression, as printed by
/// sympy 1.14 with torch-style Mod/PythonMod/IntTrueDiv precedences.
const std::pair<const char *, const char *> kSympyPairs[] = {
    {"s0", "Symbol('s0', positive=True, integer=True)"},
    {"s0 + 1", "Add(Symbol('s0', positive=True, integer=True), Integer(1))"},
    {"2*s0", "Mul(Integer(2), Symbol('s0', positive=True, integer=True))"},
    {"3 - s1", "Add(Integer(3), Mul(Integer(-1), Symbol('s1', positive=True, "
               "integer=True)))"},
    {"-s1 + 3", "Add(Mul(Integer(-1), Symbol('s1', positive=True, "
                "integer=True)), Integer(3))"},
    {"s0**2", "Pow(Symbol('s0', positive=True, integer=True), Integer(2))"},
    {"Eq(s0, 4)",
     "Equality(Symbol('s0', positive=True, integer=True), Integer(4))"},
    {"Ne(u0, 1)", "Unequality(Symbol('u0', integer=True), Integer(1))"},
    {"u0 >= 0", "GreaterThan(Symbol('u0', integer=True), Integer(0))"},
    {"s0 < 10",
     "StrictLessThan(Symbol('s0', positive=True, integer=True), Integer(10))"},
    {"u0 <= s0", "LessThan(Symbol('u0', integer=True), Symbol('s0', "
                 "positive=True, integer=True))"},
    {"s0 > u1", "StrictGreaterThan(Symbol('s0', positive=True, integer=True), "
                "Symbol('u1', integer=True))"},
    {"Max(2, s0)",
     "Max(Integer(2), Symbol('s0', positive=True, integer=True))"},
    {"Min(s0, u0)", "Min(Symbol('s0', positive=True, integer=True), "
                    "Symbol('u0', integer=True))"},
    {"Max(2*u0, s0 + 1)",
     "Max(Mul(Integer(2), Symbol('u0', integer=True)), Add(Symbol('s0', "
     "positive=True, integer=True), Integer(1)))"},
    {"(u0 >= 0) & (u0 < 10)",
     "And(GreaterThan(Symbol('u0', integer=True), Integer(0)), "
     "StrictLessThan(Symbol('u0', integer=True), Integer(10)))"},
    {"Eq(u0, 1) | (u0 > 3)",
     "Or(Equality(Symbol('u0', integer=True), Integer(1)), "
     "StrictGreaterThan(Symbol('u0', integer=True), Integer(3)))"},
    {"1/2", "Rational(1, 2)"},
    {"-1/2", "Rational(-1, 2)"},
    {"s0/2", "Mul(Rational(1, 2), Symbol('s0', positive=True, integer=True))"},
    {"3*s0/2",
     "Mul(Rational(3, 2), Symbol('s0', positive=True, integer=True))"},
    {"-s0/2", "Mul(Integer(-1), Rational(1, 2), Symbol('s0', positive=True, "
              "integer=True))"},
    {"s0/s1", "Mul(Symbol('s0', positive=True, integer=True), Pow(Symbol('s1', "
              "positive=True, integer=True), Integer(-1)))"},
    {"1/s0", "Pow(Symbol('s0', positive=True, integer=True), Integer(-1))"},
    {"s0**(-2)", "Pow(Symbol('s0', positive=True, integer=True), Integer(-2))"},
    {"sqrt(s0)",
     "Pow(Symbol('s0', positive=True, integer=True), Rational(1, 2))"},
    {"s0**(1/3)",
     "Pow(Symbol('s0', positive=True, integer=True), Rational(1, 3))"},
    {"1.50000000000000", "Float('1.5', precision=53)"},
    {"-s0", "Mul(Integer(-1), Symbol('s0', positive=True, integer=True))"},
    {"s0 - 1", "Add(Symbol('s0', positive=True, integer=True), Integer(-1))"},
    {"2 - s0", "Add(Integer(2), Mul(Integer(-1), Symbol('s0', positive=True, "
               "integer=True)))"},
    {"s0*s1", "Mul(Symbol('s0', positive=True, integer=True), Symbol('s1', "
              "positive=True, integer=True))"},
    {"-2*s0*s1", "Mul(Integer(-1), Integer(2), Symbol('s0', positive=True, "
                 "integer=True), Symbol('s1', positive=True, integer=True))"},
    {"s1*(s0 + 1)",
     "Mul(Symbol('s1', positive=True, integer=True), Add(Symbol('s0', "
     "positive=True, integer=True), Integer(1)))"},
    {"(s0 + 1)**2", "Pow(Add(Symbol('s0', positive=True, integer=True), "
                    "Integer(1)), Integer(2))"},
    {"oo", "oo"},
    {"-oo", "-oo"},
    {"True", "true"},
    {"False", "false"},
    {"Mod(s0, 8)",
     "Mod(Symbol('s0', positive=True, integer=True), Integer(8))"},
    {"(Mod(s0, 8)) + 1", "Add(Mod(Symbol('s0', positive=True, integer=True), "
                         "Integer(8)), Integer(1))"},
    {"2*(Mod(s0, 8))", "Mul(Integer(2), Mod(Symbol('s0', positive=True, "
                       "integer=True), Integer(8)))"},
    {"-(Mod(s0, 8))", "Mul(Integer(-1), Mod(Symbol('s0', positive=True, "
                      "integer=True), Integer(8)))"},
    {"(Mod(s0, 8)) < 3", "StrictLessThan(Mod(Symbol('s0', positive=True, "
                         "integer=True), Integer(8)), Integer(3))"},
    {"Eq(Mod(s0, 8), 0)", "Equality(Mod(Symbol('s0', positive=True, "
                          "integer=True), Integer(8)), Integer(0))"},
    {"PythonMod(u0, 4)", "PythonMod(Symbol('u0', integer=True), Integer(4))"},
    {"CeilToInt(IntTrueDiv(s0, 3))",
     "CeilToInt(IntTrueDiv(Symbol('s0', positive=True, integer=True), "
     "Integer(3)))"},
    {"TruncToInt(0.5*ToFloat(s0))",
     "TruncToInt(Mul(Float('0.5', precision=53), ToFloat(Symbol('s0', "
     "positive=True, integer=True))))"},
    {"s0 - 2*s1",
     "Add(Symbol('s0', positive=True, integer=True), Mul(Integer(-1), "
     "Integer(2), Symbol('s1', positive=True, integer=True)))"},
    {"-3*s0/2", "Mul(Integer(-1), Rational(3, 2), Symbol('s0', positive=True, "
                "integer=True))"},
    {"s0/(s1*u0)",
     "Mul(Symbol('s0', positive=True, integer=True), Pow(Symbol('s1', "
     "positive=True, integer=True), Integer(-1)), Pow(Symbol('u0', "
     "integer=True), Integer(-1)))"},
    {"s0**(s1 + 1)",
     "Pow(Symbol('s0', positive=True, integer=True), Add(Symbol('s1', "
     "positive=True, integer=True), Integer(1)))"},
    {"4*s0*s1 + 2*s0 + 1",
     "Add(Mul(Integer(4), Symbol('s0', positive=True, integer=True), "
     "Symbol('s1', positive=True, integer=True)), Mul(Integer(2), Symbol('s0', "
     "positive=True, integer=True)), Integer(1))"},
    {"Eq(2*u0, s0)", "Equality(Mul(Integer(2), Symbol('u0', integer=True)), "
                     "Symbol('s0', positive=True, integer=True))"},
    {"Ne(u0*u1, 0)", "Unequality(Mul(Symbol('u0', integer=True), Symbol('u1', "
                     "integer=True)), Integer(0))"},
    {"s0*Max(1, u0)", "Mul(Symbol('s0', positive=True, integer=True), "
                      "Max(Integer(1), Symbol('u0', integer=True)))"},
    {"2*zuf0", "Mul(Integer(2), Symbol('zuf0'))"},
    {"u0*u1 - 1", "Add(Mul(Symbol('u0', integer=True), Symbol('u1', "
                  "integer=True)), Integer(-1))"},
    {"-u0 - 1",
     "Add(Mul(Integer(-1), Symbol('u0', integer=True)), Integer(-1))"},
    {"1.5*s0", "Mul(Float('1.5', precision=53), Symbol('s0', positive=True, "
               "integer=True))"},
    // torch's FloorDiv prints as `(a//b)` and ranks below Add (precedence 35).
    {"(s0//2)",
     "FloorDiv(Symbol('s0', positive=True, integer=True), Integer(2))"},
    {"((s0 + 1)//2)", "FloorDiv(Add(Symbol('s0', positive=True, integer=True), "
                      "Integer(1)), Integer(2))"},
    {"((s0//2)) + 1", "Add(FloorDiv(Symbol('s0', positive=True, integer=True), "
                      "Integer(2)), Integer(1))"},
    {"2*((u0//4))",
     "Mul(Integer(2), FloorDiv(Symbol('u0', integer=True), Integer(4)))"},
    {"((2*s0)//3)", "FloorDiv(Mul(Integer(2), Symbol('s0', positive=True, "
                    "integer=True)), Integer(3))"},
    {"((u0//2)) < 3", "StrictLessThan(FloorDiv(Symbol('u0', integer=True), "
                      "Integer(2)), Integer(3))"},
    {"Eq((u0//2), 3)",
     "Equality(FloorDiv(Symbol('u0', integer=True), Integer(2)), Integer(3))"},
    {"int_oo", "IntInfinity()"},
};

//===----------------------------------------------------------------------===//
// Corpus
//===----------------------------------------------------------------------===//

TEST(SymbolicExprTest, ParsesEveryCorpusExprInBothForms) {
  std::vector<std::string> srepr = corpusExprStrings("dyn_mlp.json");
  std::vector<std::string> plain = corpusExprStrings("dyn_mlp_str_expr.json");
  ASSERT_GE(srepr.size(), 10u);
  ASSERT_EQ(srepr.size(), plain.size());
  for (size_t i = 0; i < srepr.size(); ++i) {
    SCOPED_TRACE(srepr[i] + " / " + plain[i]);
    Form sreprForm = Form::Plain, plainForm = Form::Srepr;
    Expr fromSrepr = parseOk(srepr[i], &sreprForm);
    Expr fromPlain = parseOk(plain[i], &plainForm);
    ASSERT_FALSE(fromSrepr.isNull());
    ASSERT_FALSE(fromPlain.isNull());
    EXPECT_EQ(sreprForm, Form::Srepr);
    EXPECT_EQ(plainForm, Form::Plain);
    EXPECT_EQ(freeSymbols(fromSrepr), std::vector<std::string>{"s0"});
    EXPECT_EQ(freeSymbols(fromPlain), std::vector<std::string>{"s0"});
    // The two files hold the same program: same trees, same hashes.
    EXPECT_EQ(fromSrepr, fromPlain);
    EXPECT_EQ(fromSrepr.hash(), fromPlain.hash());
    // Each prints back to its own text, and srepr converts to plain.
    EXPECT_EQ(toString(fromSrepr, Form::Srepr), srepr[i]);
    EXPECT_EQ(toString(fromPlain, Form::Plain), plain[i]);
    EXPECT_EQ(toString(fromSrepr, Form::Plain), plain[i]);
    // Symbol assumptions are kept verbatim and in their written order.
    EXPECT_NE(srepr[i].find("Symbol('s0', positive=True, integer=True)"),
              std::string::npos);
  }
}

TEST(SymbolicExprTest, CorpusValuesEvaluate) {
  llvm::StringMap<EvalValue> bindings;
  bindings["s0"] = int64_t(5);
  std::vector<int64_t> values;
  for (const std::string &text : corpusExprStrings("dyn_mlp.json")) {
    std::optional<int64_t> value = evaluateInt(parseOk(text), bindings);
    ASSERT_TRUE(value.has_value()) << text;
    values.push_back(*value);
  }
  // s0, 2*s0, s0 + 1, 3*s0 and 4*s0 all occur.
  for (int64_t expected : {5, 6, 10, 15, 20})
    EXPECT_NE(std::find(values.begin(), values.end(), expected), values.end())
        << expected;
}

//===----------------------------------------------------------------------===//
// Round trip against sympy's printers
//===----------------------------------------------------------------------===//

TEST(SymbolicExprTest, SympyPairsRoundTrip) {
  for (const auto &[plain, srepr] : kSympyPairs) {
    SCOPED_TRACE(std::string(plain) + "  |  " + srepr);
    Form detectedPlain, detectedSrepr;
    Expr fromPlain = parseOk(plain, &detectedPlain);
    Expr fromSrepr = parseOk(srepr, &detectedSrepr);
    if (fromPlain.isNull() || fromSrepr.isNull())
      continue;
    EXPECT_EQ(toString(fromPlain, Form::Plain), plain);
    EXPECT_EQ(toString(fromSrepr, Form::Srepr), srepr);
    EXPECT_EQ(toString(fromSrepr, Form::Plain), plain);
    // Plain text carries no assumptions; otherwise the srepr is the same.
    EXPECT_EQ(toString(fromPlain, Form::Srepr), withoutAssumptions(srepr));
    EXPECT_EQ(fromPlain, fromSrepr);
    EXPECT_EQ(fromPlain.hash(), fromSrepr.hash());
    if (llvm::StringRef(srepr) != plain) {
      EXPECT_EQ(detectedPlain, Form::Plain);
      EXPECT_EQ(detectedSrepr, Form::Srepr);
    }
  }
}

TEST(SymbolicExprTest, PlainFloorDivCallSpellingIsKept) {
  Expr call = parseOk("FloorDiv(s0, 2)");
  Expr op = parseOk("(s0//2)");
  EXPECT_EQ(call, op);
  EXPECT_EQ(toString(call), "FloorDiv(s0, 2)");
  EXPECT_EQ(toString(op), "(s0//2)");
  // Srepr has one spelling; its plain rendering is torch's current one.
  Expr srepr = parseOk("FloorDiv(Symbol('s0', integer=True), Integer(2))");
  EXPECT_EQ(toString(srepr), "(s0//2)");
}

TEST(SymbolicExprTest, FloatFormatting) {
  EXPECT_EQ(toString(makeFloat(0.1), Form::Plain), "0.100000000000000");
  EXPECT_EQ(toString(makeFloat(0.1), Form::Srepr),
            "Float('0.10000000000000001', precision=53)");
  EXPECT_EQ(toString(makeFloat(1e20), Form::Plain), "1.00000000000000e+20");
  EXPECT_EQ(toString(makeFloat(1e20), Form::Srepr),
            "Float('1.0e+20', precision=53)");
  EXPECT_EQ(toString(makeFloat(1e14), Form::Plain), "100000000000000.");
  EXPECT_EQ(toString(makeFloat(1e16), Form::Srepr),
            "Float('10000000000000000.0', precision=53)");
  EXPECT_EQ(toString(makeFloat(0.0001), Form::Plain), "0.000100000000000000");
  EXPECT_EQ(toString(makeFloat(1.5e-7), Form::Srepr),
            "Float('1.4999999999999999e-7', precision=53)");
  EXPECT_EQ(toString(makeFloat(-2.5), Form::Plain), "-2.50000000000000");
  EXPECT_EQ(toString(makeFloat(0.0), Form::Plain), "0.0");
  Expr infinite = parseOk("Float('+inf', precision=53)");
  EXPECT_EQ(toString(infinite, Form::Plain), "oo");
  EXPECT_EQ(toString(makeFloat(-HUGE_VAL), Form::Srepr),
            "Float('-inf', precision=53)");
  // A literal keeps its spelling in its own form.
  EXPECT_EQ(toString(parseOk("Float('0.1', precision=53)"), Form::Srepr),
            "Float('0.1', precision=53)");
  EXPECT_EQ(toString(parseOk("2.5e3*s0")), "2.5e3*s0");
}

//===----------------------------------------------------------------------===//
// Structure
//===----------------------------------------------------------------------===//

TEST(SymbolicExprTest, TreeShapes) {
  Expr e = parseOk("Eq(u0, 1)");
  std::optional<RelationalParts> parts = asRelational(e);
  ASSERT_TRUE(parts.has_value());
  EXPECT_EQ(parts->kind, ExprKind::Eq);
  EXPECT_EQ(asSymbol(parts->lhs), std::optional<llvm::StringRef>("u0"));
  EXPECT_EQ(asInteger(parts->rhs), std::optional<int64_t>(1));
  EXPECT_FALSE(asRelational(parseOk("u0 + 1")).has_value());
  EXPECT_EQ(asInteger(parseOk("Integer(-3)")), std::optional<int64_t>(-3));
  EXPECT_EQ(asBoolean(parseOk("true")), std::optional<bool>(true));
  EXPECT_EQ(asBoolean(parseOk("False")), std::optional<bool>(false));

  Expr sum = parseOk("s0 + 2*s1 - 3");
  ASSERT_EQ(sum.kind(), ExprKind::Add);
  ASSERT_EQ(sum.numOperands(), 3u);
  EXPECT_EQ(sum.operand(1).kind(), ExprKind::Mul);
  EXPECT_EQ(asInteger(sum.operand(2)), std::optional<int64_t>(-3));

  Expr symbol = parseOk("Symbol('u3', integer=True, nonnegative=True)");
  ASSERT_EQ(symbol.kind(), ExprKind::Symbol);
  ASSERT_EQ(symbol.assumptions().size(), 2u);
  EXPECT_EQ(symbol.assumptions()[1].key, "nonnegative");
  EXPECT_EQ(symbol.assumptions()[1].value, "True");
  // Assumptions do not take part in equality.
  EXPECT_EQ(symbol, parseOk("u3"));

  Expr call = parseOk("TruncToInt(IntTrueDiv(u0, 3))");
  ASSERT_EQ(call.kind(), ExprKind::Call);
  EXPECT_EQ(call.name(), "TruncToInt");
  EXPECT_EQ(call.operand(0).name(), "IntTrueDiv");

  EXPECT_EQ(parseOk("Rational(4, 2)").kind(), ExprKind::Integer);
  EXPECT_EQ(parseOk("6/4").numerator(), 3);
  EXPECT_EQ(parseOk("-oo").isNegativeInfinity(), true);
  EXPECT_EQ(parseOk("-int_oo").isIntegerInfinity(), true);
  EXPECT_EQ(parseOk("BooleanTrue()"), makeBoolean(true));
  EXPECT_EQ(parseOk("And(Eq(u0, 1), Not(u1 > 2))").kind(), ExprKind::And);
  EXPECT_EQ(parseOk("~(u0 > 2)").kind(), ExprKind::Not);
}

TEST(SymbolicExprTest, EqualityIsStructural) {
  EXPECT_NE(parseOk("s0 + 1"), parseOk("1 + s0"));
  EXPECT_NE(parseOk("s0 + 1"), parseOk("s0 + 2"));
  EXPECT_NE(parseOk("Max(s0, 2)"), parseOk("Min(s0, 2)"));
  EXPECT_NE(parseOk("f(s0)"), parseOk("g(s0)"));
  EXPECT_NE(parseOk("s0 < 3"), parseOk("s0 <= 3"));
  EXPECT_EQ(parseOk("Max(s0, 2)"), parseOk("Max(Symbol('s0'), Integer(2))"));
  EXPECT_EQ(parseOk("1.5"), parseOk("Float('1.50', precision=53)"));
  std::unordered_set<Expr, ExprHash> set;
  set.insert(parseOk("u0 >= 0"));
  EXPECT_EQ(set.count(parseOk("GreaterThan(Symbol('u0', integer=True), "
                              "Integer(0))")),
            1u);
  EXPECT_EQ(set.count(parseOk("u0 > 0")), 0u);
}

TEST(SymbolicExprTest, FreeSymbolsOrderedAndDeduplicated) {
  EXPECT_EQ(freeSymbols(parseOk("u2*s0 + Max(s0, u10) - u2")),
            (std::vector<std::string>{"u2", "s0", "u10"}));
  EXPECT_TRUE(freeSymbols(parseOk("Eq(3, 4) | True")).empty());
  EXPECT_TRUE(containsSymbol(parseOk("FloorDiv(u0, 2)"), "u0"));
  EXPECT_FALSE(containsSymbol(parseOk("FloorDiv(u0, 2)"), "u"));
  EXPECT_EQ(freeSymbols(parseOk("Eq(zuf0, 1.5) & (zf1 > 0)")),
            (std::vector<std::string>{"zuf0", "zf1"}));
}

TEST(SymbolicExprTest, SymbolClassification) {
  EXPECT_TRUE(isUnbackedSymbol("u0"));
  EXPECT_TRUE(isUnbackedSymbol("u123"));
  EXPECT_TRUE(isUnbackedSymbol("zuf7"));
  EXPECT_FALSE(isUnbackedSymbol("s0"));
  EXPECT_FALSE(isUnbackedSymbol("zf0"));
  EXPECT_FALSE(isUnbackedSymbol("u"));
  EXPECT_FALSE(isUnbackedSymbol("unbacked"));
  EXPECT_FALSE(isUnbackedSymbol("u1a"));
  EXPECT_TRUE(isBackedSymbol("s0"));
  EXPECT_TRUE(isBackedSymbol("zf3"));
  EXPECT_FALSE(isBackedSymbol("u0"));
  EXPECT_FALSE(isBackedSymbol("size"));
  EXPECT_EQ(classifySymbol("zuf2"), SymbolPrefix::UnbackedFloat);
  EXPECT_EQ(classifySymbol("x0"), SymbolPrefix::Other);
  EXPECT_EQ(symbolIndex("u17"), std::optional<uint64_t>(17));
  EXPECT_EQ(symbolIndex("zuf3"), std::optional<uint64_t>(3));
  EXPECT_EQ(symbolIndex("foo"), std::nullopt);
}

//===----------------------------------------------------------------------===//
// Evaluation
//===----------------------------------------------------------------------===//

std::optional<EvalValue>
eval(llvm::StringRef text,
     std::initializer_list<std::pair<const char *, EvalValue>> bindings = {}) {
  llvm::StringMap<EvalValue> map;
  for (const auto &[name, value] : bindings)
    map[name] = value;
  Expr e = parseOk(text);
  if (e.isNull())
    return std::nullopt;
  return evaluate(e, map);
}

int64_t evalInt(
    llvm::StringRef text,
    std::initializer_list<std::pair<const char *, EvalValue>> bindings = {}) {
  std::optional<EvalValue> value = eval(text, bindings);
  if (!value || !std::holds_alternative<int64_t>(*value)) {
    ADD_FAILURE() << text.str() << " did not evaluate to an int";
    return INT64_MIN;
  }
  return std::get<int64_t>(*value);
}

TEST(SymbolicExprTest, EvaluatesWithPythonFloorSemantics) {
  EXPECT_EQ(evalInt("FloorDiv(u0, 2)", {{"u0", int64_t(-7)}}), -4);
  EXPECT_EQ(evalInt("(u0//2)", {{"u0", int64_t(7)}}), 3);
  EXPECT_EQ(evalInt("FloorDiv(u0, -2)", {{"u0", int64_t(7)}}), -4);
  EXPECT_EQ(evalInt("FloorDiv(u0, -2)", {{"u0", int64_t(-7)}}), 3);
  EXPECT_EQ(evalInt("Mod(u0, 3)", {{"u0", int64_t(-7)}}), 2);
  EXPECT_EQ(evalInt("Mod(u0, -3)", {{"u0", int64_t(7)}}), -2);
  EXPECT_EQ(evalInt("u0 % 4", {{"u0", int64_t(-1)}}), 3);
  EXPECT_EQ(evalInt("PythonMod(u0, 5)", {{"u0", int64_t(-12)}}), 3);
  EXPECT_EQ(evalInt("CeilDiv(u0, 4)", {{"u0", int64_t(9)}}), 3);
  EXPECT_EQ(evalInt("ModularIndexing(u0, 2, 3)", {{"u0", int64_t(11)}}), 2);
  EXPECT_EQ(evalInt("-s1 + 3", {{"s1", int64_t(10)}}), -7);
  EXPECT_EQ(evalInt("2*s0 + s1**2", {{"s0", int64_t(3)}, {"s1", int64_t(4)}}),
            22);
  EXPECT_EQ(evalInt("Max(s0, 2) + Min(s0, u0, 1)",
                    {{"s0", int64_t(5)}, {"u0", int64_t(-2)}}),
            3);
  EXPECT_EQ(evalInt("CeilToInt(IntTrueDiv(s0, 4))", {{"s0", int64_t(9)}}), 3);
  EXPECT_EQ(evalInt("FloorToInt(-2.5)"), -3);
  EXPECT_EQ(evalInt("TruncToInt(-2.5)"), -2);
  EXPECT_EQ(evalInt("RoundToInt(2.5) + RoundToInt(3.5)"), 6);
  EXPECT_EQ(evalInt("LShift(u0, 3) + RShift(-9, 1)", {{"u0", int64_t(1)}}), 3);
  EXPECT_EQ(evalInt("Where(u0 > 0, 10, 20)", {{"u0", int64_t(0)}}), 20);
  EXPECT_EQ(evalInt("Abs(u0)", {{"u0", int64_t(-4)}}), 4);
}

TEST(SymbolicExprTest, EvaluatesFloatsAndBools) {
  std::optional<EvalValue> half = eval("1/2");
  ASSERT_TRUE(half && std::holds_alternative<double>(*half));
  EXPECT_DOUBLE_EQ(std::get<double>(*half), 0.5);
  std::optional<EvalValue> quotient = eval("IntTrueDiv(7, 2)");
  ASSERT_TRUE(quotient && std::holds_alternative<double>(*quotient));
  EXPECT_DOUBLE_EQ(std::get<double>(*quotient), 3.5);
  std::optional<EvalValue> inverse = eval("s0**(-1)", {{"s0", int64_t(4)}});
  ASSERT_TRUE(inverse && std::holds_alternative<double>(*inverse));
  EXPECT_DOUBLE_EQ(std::get<double>(*inverse), 0.25);
  std::optional<EvalValue> root = eval("sqrt(s0)", {{"s0", int64_t(9)}});
  ASSERT_TRUE(root && std::holds_alternative<double>(*root));
  EXPECT_DOUBLE_EQ(std::get<double>(*root), 3.0);
  std::optional<EvalValue> floorFloat = eval("zuf0 // 2", {{"zuf0", -3.0}});
  ASSERT_TRUE(floorFloat && std::holds_alternative<double>(*floorFloat));
  EXPECT_DOUBLE_EQ(std::get<double>(*floorFloat), -2.0);

  llvm::StringMap<EvalValue> b;
  b["u0"] = int64_t(4);
  b["s0"] = int64_t(4);
  EXPECT_EQ(evaluateBool(parseOk("Eq(u0, 4)"), b), true);
  EXPECT_EQ(evaluateBool(parseOk("Ne(u0, 4)"), b), false);
  EXPECT_EQ(evaluateBool(parseOk("(u0 >= 0) & (u0 < 4)"), b), false);
  EXPECT_EQ(evaluateBool(parseOk("(u0 >= 0) | (u0 < 4)"), b), true);
  EXPECT_EQ(evaluateBool(parseOk("~(u0 > 3)"), b), false);
  EXPECT_EQ(evaluateBool(parseOk("Eq(s0, 4.0)"), b), true);
  EXPECT_EQ(evaluateBool(parseOk("u0 < oo"), b), true);
  EXPECT_EQ(evaluateBool(parseOk("True"), b), true);
  // Ints are not bools and bools are ints (0/1), as in Python.
  EXPECT_EQ(evaluateBool(parseOk("u0"), b), std::nullopt);
  EXPECT_EQ(evaluateInt(parseOk("True + 1"), b), 2);
  EXPECT_EQ(evaluateInt(parseOk("ToFloat(u0)"), b), std::nullopt);
}

TEST(SymbolicExprTest, EvaluationFailures) {
  // Unbound symbol.
  EXPECT_FALSE(eval("s0 + u0", {{"s0", int64_t(1)}}).has_value());
  // Division and modulo by zero.
  EXPECT_FALSE(
      eval("FloorDiv(s0, u0)", {{"s0", int64_t(1)}, {"u0", int64_t(0)}})
          .has_value());
  EXPECT_FALSE(eval("Mod(s0, 0)", {{"s0", int64_t(1)}}).has_value());
  EXPECT_FALSE(eval("IntTrueDiv(1, 0)").has_value());
  EXPECT_FALSE(eval("0**(-1)").has_value());
  // int64 overflow is refused rather than wrapped.
  EXPECT_FALSE(eval("s0*s0", {{"s0", int64_t(1) << 40}}).has_value());
  EXPECT_FALSE(eval("2**64").has_value());
  EXPECT_FALSE(eval("FloorDiv(u0, -1)", {{"u0", INT64_MIN}}).has_value());
  // Unknown functions and zoo have no value.
  EXPECT_FALSE(eval("Mystery(1)").has_value());
  EXPECT_FALSE(eval("zoo").has_value());
  EXPECT_FALSE(eval("CeilToInt(oo)").has_value());
}

//===----------------------------------------------------------------------===//
// Rewriting
//===----------------------------------------------------------------------===//

TEST(SymbolicExprTest, RenameReachesEveryOccurrence) {
  const char *text = "Eq(Max(u0, FloorDiv(u0*s0, 2)), Mod(u0 + 1, 3)) & "
                     "(PythonMod(u0, u1) < CeilToInt(u0**2)) | Not(u0 > u1)";
  Expr e = parseOk(text);
  llvm::StringMap<std::string> renames;
  renames["u0"] = "u7";
  Expr renamed = renameSymbols(e, renames);
  EXPECT_EQ(freeSymbols(renamed), (std::vector<std::string>{"u7", "s0", "u1"}));
  EXPECT_FALSE(containsSymbol(renamed, "u0"));
  std::string printed = toString(renamed);
  EXPECT_EQ(printed.find("u0"), std::string::npos);
  EXPECT_EQ(printed, std::regex_replace(toString(e), std::regex("u0"), "u7"));

  // Assumptions survive renaming.
  Expr srepr = parseOk("Add(Symbol('u0', integer=True), Integer(1))");
  EXPECT_EQ(toString(renameSymbols(srepr, renames), Form::Srepr),
            "Add(Symbol('u7', integer=True), Integer(1))");

  // Nothing to rename: the very same node comes back.
  llvm::StringMap<std::string> unrelated;
  unrelated["u9"] = "u10";
  EXPECT_TRUE(renameSymbols(e, unrelated).isSameNode(e));
}

TEST(SymbolicExprTest, SubstituteIsSimultaneousAndUnsimplified) {
  Expr e = parseOk("s0 + 2*s1");
  llvm::StringMap<Expr> replacements;
  replacements["s0"] = parseOk("s1");
  replacements["s1"] = makeInteger(3);
  llvm::Expected<Expr> result = substitute(e, replacements);
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(toString(*result), "s1 + 2*3");
  llvm::StringMap<EvalValue> b;
  b["s1"] = int64_t(10);
  EXPECT_EQ(evaluateInt(*result, b), 16);

  // Unused replacements leave the node untouched.
  llvm::StringMap<Expr> unrelated;
  unrelated["u5"] = makeInteger(1);
  llvm::Expected<Expr> same = substitute(e, unrelated);
  ASSERT_TRUE(static_cast<bool>(same));
  EXPECT_TRUE(same->isSameNode(e));
}

TEST(SymbolicExprTest, SubstituteRefusesTooDeepResults) {
  Expr deep = makeSymbol("x");
  for (unsigned i = 0; i < kMaxExprDepth - 1; ++i)
    deep = makeNot(deep);
  ASSERT_EQ(deep.depth(), kMaxExprDepth);
  llvm::StringMap<Expr> replacements;
  replacements["x"] = parseOk("y + 1");
  llvm::Expected<Expr> result = substitute(deep, replacements);
  ASSERT_FALSE(static_cast<bool>(result));
  EXPECT_NE(llvm::toString(result.takeError()).find("deeper than"),
            std::string::npos);

  // Shallow enough, but it would print nested too deep to be read back.
  Expr chain = makeSymbol("x");
  for (unsigned i = 0; i < 200; ++i)
    chain = makeFloorDiv(chain, makeInteger(2));
  replacements["x"] = chain;
  llvm::Expected<Expr> unreadable = substitute(chain, replacements);
  ASSERT_FALSE(static_cast<bool>(unreadable));
  EXPECT_NE(llvm::toString(unreadable.takeError()).find("cannot be read back"),
            std::string::npos);
}

//===----------------------------------------------------------------------===//
// SymExprText
//===----------------------------------------------------------------------===//

TEST(SymbolicExprTest, TextIsVerbatimUntilModified) {
  // Not how sympy would print it, but untouched text must come back as is.
  SymExprText text("s0*2  +1");
  EXPECT_EQ(text.str(), "s0*2  +1");
  llvm::Expected<Expr> tree = text.expr();
  ASSERT_TRUE(static_cast<bool>(tree));
  EXPECT_EQ(toString(*tree), "2*s0 + 1");
  EXPECT_EQ(text.str(), "s0*2  +1");
  EXPECT_FALSE(text.isModified());

  llvm::StringMap<std::string> noop;
  noop["u3"] = "u4";
  ASSERT_FALSE(static_cast<bool>(text.renameSymbols(noop)));
  EXPECT_FALSE(text.isModified());
  EXPECT_EQ(text.str(), "s0*2  +1");

  llvm::StringMap<std::string> renames;
  renames["s0"] = "s5";
  ASSERT_FALSE(static_cast<bool>(text.renameSymbols(renames)));
  EXPECT_TRUE(text.isModified());
  EXPECT_EQ(text.str(), "2*s5 + 1");
}

TEST(SymbolicExprTest, TextPrintsChangesInItsOwnForm) {
  SymExprText srepr("Add(Symbol('u0', integer=True), Integer(1))");
  EXPECT_EQ(srepr.form(), Form::Srepr);
  llvm::StringMap<Expr> replacements;
  replacements["u0"] = parseOk("Mul(Integer(2), Symbol('u1', integer=True))");
  ASSERT_FALSE(static_cast<bool>(srepr.substitute(replacements)));
  EXPECT_EQ(srepr.str(),
            "Add(Mul(Integer(2), Symbol('u1', integer=True)), Integer(1))");

  SymExprText fromTree = SymExprText::fromExpr(parseOk("u0 >= 0"), Form::Srepr);
  EXPECT_EQ(fromTree.str(), "GreaterThan(Symbol('u0'), Integer(0))");
}

TEST(SymbolicExprTest, TextReportsParseErrorsEveryTime) {
  SymExprText bad("Add(Symbol('s0'), ");
  EXPECT_EQ(bad.str(), "Add(Symbol('s0'), ");
  for (int i = 0; i < 2; ++i) {
    llvm::Expected<Expr> tree = bad.expr();
    ASSERT_FALSE(static_cast<bool>(tree));
    EXPECT_NE(llvm::toString(tree.takeError()).find("end of input"),
              std::string::npos);
  }
  llvm::StringMap<std::string> renames;
  renames["s0"] = "s1";
  llvm::Error error = bad.renameSymbols(renames);
  EXPECT_TRUE(static_cast<bool>(error));
  llvm::consumeError(std::move(error));
  EXPECT_EQ(bad.str(), "Add(Symbol('s0'), ");
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

TEST(SymbolicExprTest, ErrorsNamePositionAndExpectation) {
  EXPECT_EQ(parseError("Add(Symbol('s0', integer=True), Integer(1)"),
            "invalid symbolic expression 'Add(Symbol('s0', integer=True), "
            "Integer(1)': at offset 42: expected ',' or ')' to close the call "
            "to 'Add' opened at offset 3, found end of input");
  EXPECT_EQ(parseError("s0 +"),
            "invalid symbolic expression 's0 +': at offset 4: expected an "
            "expression, found end of input");
  EXPECT_EQ(parseError("(s0 + 1"),
            "invalid symbolic expression '(s0 + 1': at offset 7: expected ')' "
            "to close the '(' at offset 0, found end of input");
  EXPECT_EQ(parseError("s0 $ 2"),
            "invalid symbolic expression 's0 $ 2': at offset 3: expected an "
            "operator or the end of the input, found '$'");
  EXPECT_EQ(parseError("$s0"), "invalid symbolic expression '$s0': at offset "
                               "0: unexpected character '$'");
  EXPECT_EQ(parseError("Symbol('s0"),
            "invalid symbolic expression 'Symbol('s0': at offset 7: "
            "unterminated string literal");
  EXPECT_EQ(parseError(""), "invalid symbolic expression '': at offset 0: "
                            "expected an expression, found end of input");
  EXPECT_NE(parseError("s0 s1").find("at offset 3: expected an operator"),
            std::string::npos);
  EXPECT_NE(parseError("Pow(s0)").find("'Pow' takes 2 arguments, got 1"),
            std::string::npos);
  EXPECT_NE(parseError("Integer(s0)").find("expects an integer literal"),
            std::string::npos);
  EXPECT_NE(parseError("Rational(1, 0)").find("zero denominator"),
            std::string::npos);
  EXPECT_NE(parseError("s0/0").find("division by zero"), std::string::npos);
  EXPECT_NE(parseError("Symbol(s0)").find("string literal first argument"),
            std::string::npos);
  EXPECT_NE(parseError("Max(s0, key=1)").find("keyword arguments are only"),
            std::string::npos);
  EXPECT_NE(parseError("'s0' + 1").find("string literal is only allowed"),
            std::string::npos);
  EXPECT_NE(parseError("1 < s0 < 3").find("chained comparisons"),
            std::string::npos);
  EXPECT_NE(parseError("99999999999999999999").find("does not fit in int64"),
            std::string::npos);
  EXPECT_NE(parseError("2s0").find("malformed number '2s0'"),
            std::string::npos);
  EXPECT_NE(parseError("s0 == 1").find("offset 3: expected an operator"),
            std::string::npos);
}

TEST(SymbolicExprTest, NestingIsBounded) {
  auto nested = [](unsigned levels, const std::string &open,
                   const std::string &close) {
    std::string text;
    for (unsigned i = 0; i < levels; ++i)
      text += open;
    text += "s0";
    for (unsigned i = 0; i < levels; ++i)
      text += close;
    return text;
  };
  // At the limit: fine.
  Expr ok = parseOk(nested(kMaxParseNesting, "(", ")"));
  EXPECT_EQ(asSymbol(ok), std::optional<llvm::StringRef>("s0"));
  // Srepr prints each leaf as a call too (`Symbol('s0')`), one level deeper
  // than plain calls: the deepest readable nest of calls is one less.
  Expr calls = parseOk(nested(kMaxParseNesting - 1, "Max(1, ", ")"));
  EXPECT_EQ(freeSymbols(calls), std::vector<std::string>{"s0"});
  EXPECT_EQ(calls.depth(), kMaxParseNesting);
  EXPECT_EQ(toString(calls).size(),
            nested(kMaxParseNesting - 1, "Max(1, ", ")").size());
  EXPECT_EQ(parseOk(toString(calls, Form::Srepr)).depth(), kMaxParseNesting);
  EXPECT_NE(parseError(nested(kMaxParseNesting, "Max(1, ", ")"))
                .find("prints (srepr form) nested deeper than 512 levels"),
            std::string::npos);

  // One past it, and far past it: a clear error, no stack overflow.
  std::string deeper = "nested deeper than 512 levels";
  EXPECT_NE(parseError(nested(kMaxParseNesting + 1, "(", ")")).find(deeper),
            std::string::npos);
  EXPECT_NE(parseError(nested(200000, "Add(", ")")).find(deeper),
            std::string::npos);
  EXPECT_NE(parseError(nested(200000, "-", "")).find(deeper),
            std::string::npos);
  EXPECT_NE(parseError(nested(200000, "~", "")).find(deeper),
            std::string::npos);
  EXPECT_NE(parseError(nested(200000, "2**", "")).find(deeper),
            std::string::npos);
  // Truncated deep input reports the nesting first.
  EXPECT_NE(parseError(std::string(100000, '(')).find(deeper),
            std::string::npos);
  // Left-nested `//` and `%` chains deepen the tree without nesting the
  // parser; they are cut off at kMaxExprDepth.
  std::string chain = "s0";
  for (int i = 0; i < 5000; ++i)
    chain += i % 2 ? " // 2" : " % 7";
  EXPECT_NE(parseError(chain).find("expression tree deeper than 1024 levels"),
            std::string::npos);
  std::string shortChain = "s0";
  for (int i = 0; i < 100; ++i)
    shortChain += " // 2";
  EXPECT_EQ(parseOk(shortChain).depth(), 101u);
  // Long but flat input is fine.
  std::string flat = "s0";
  for (int i = 0; i < 100000; ++i)
    flat += " + s0";
  Expr sum = parseOk(flat);
  EXPECT_EQ(sum.numOperands(), 100001u);
  EXPECT_EQ(sum.depth(), 2u);
}

TEST(SymbolicExprTest, LeftNestedChainsAreBounded) {
  // `a // b // c` nests to the left without a parser nesting level; a long
  // chain once built a tree deep enough to overflow the stack of the
  // printer (found by fuzz/FuzzSymbolicExpr.cpp).
  auto chain = [](unsigned links, const std::string &op) {
    std::string text = "s0";
    for (unsigned i = 0; i < links; ++i)
      text += op + "2";
    return text;
  };
  std::string deeper = "expression tree deeper than 1024 levels";
  std::string unreadable = "which could not be read back";
  for (const char *op : {"//", " % "}) {
    SCOPED_TRACE(op);
    EXPECT_NE(parseError(chain(kMaxExprDepth, op)).find(deeper),
              std::string::npos);
    EXPECT_NE(parseError(chain(200000, op)).find(deeper), std::string::npos);
    // A tree within kMaxExprDepth must still print in both forms within
    // the parser's nesting limit (fuzz finding 9): `(s0//2)` nests twice
    // per link in plain form, `Mod(s0, 2)` once in both forms.
    EXPECT_NE(parseError(chain(kMaxExprDepth - 1, op)).find(unreadable),
              std::string::npos);
  }
  for (auto [op, links] : {std::pair<const char *, unsigned>{"//", 250},
                           {" % ", 500}}) {
    SCOPED_TRACE(op);
    Expr ok = parseOk(chain(links, op));
    EXPECT_EQ(ok.depth(), links + 1);
    for (Form form : {Form::Plain, Form::Srepr})
      EXPECT_EQ(parseOk(toString(ok, form)).depth(), links + 1);
    EXPECT_NE(parseError(chain(links + 20, op)).find(unreadable),
              std::string::npos);
  }
  // Chains inside nesting levels add up; the result stays bounded.
  std::string nestedChains;
  for (int level = 0; level < 400; ++level)
    nestedChains += "(";
  nestedChains += "s0";
  for (int level = 0; level < 400; ++level)
    nestedChains += "//2//2//2)";
  EXPECT_NE(parseError(nestedChains).find(deeper), std::string::npos);
}

TEST(SymbolicExprTest, FuzzFindingsStayFixed) {
  // A power of a Not printed as `~x**e`, which reads back as `~(x**e)`: one
  // `~` per print/parse round moved inside the power, so the plain form of
  // `(~~...~x)**e` took as many rounds to settle as it had `~` (finding 11).
  expectPlainFormExact("Pow(Not(Symbol('s0')), Integer(2))");
  // It settles after the one round in which `0/x**e` regroups as
  // `0/(x**e)`, as the fuzz oracle allows.
  expectPlainFormSettles(
      "0*(~~~~~~~~~~~~~~~~~~~~~~~~~~~-0**(-1))**(-5**(-6))");
  EXPECT_EQ(toString(parseOk("Pow(Not(Not(Symbol('s0'))), Integer(3))")),
            "(~(~s0))**3");

  // A `//` chain of depth 347 without parentheses printed its plain form
  // nested 526 levels deep, past the parser's limit (finding 9): such trees
  // are refused where they are read, with a clear error.
  std::string crash;
  {
    auto buffer = llvm::MemoryBuffer::getFile(
        PT2IR_TEST_DIR "/../fuzz/regressions/symexpr/floordiv-chain-prints-too-deep");
    ASSERT_TRUE(static_cast<bool>(buffer));
    crash = (*buffer)->getBuffer().str();
  }
  EXPECT_NE(parseError(crash).find("prints (plain form) nested deeper than "
                                   "512 levels, which could not be read back"),
            std::string::npos);

  // An unterminated quote right after a token: the message was built with
  // `const char * + char`, which read past the literal (UBSan, found by
  // fuzz/FuzzSymbolicExpr.cpp).
  std::string quote = parseError("s' == 1");
  EXPECT_NE(quote.find("unterminated string starting with '"),
            std::string::npos)
      << quote;
  EXPECT_NE(parseError("s0 \"x").find("unterminated string starting with \""),
            std::string::npos);

  // A power of an exact zero with exponent -1 printed as `1/0`, which the
  // parser refuses (division by zero): plain text must parse again.
  for (const char *text :
       {"0**(-1)", "s0*0**(-1)", "(0*s0)**(-1)", "Pow(Integer(0), Integer(-1))",
        "Mul(Symbol('s0'), Pow(Integer(0), Integer(-1)))",
        "Mul(Integer(2), Pow(Mul(Integer(0), Symbol('s0')), Integer(-1)))"})
    expectPlainFormExact(text);
  // A one-operand And/Or prints as its bare operand, so its zero factors end
  // up in the divisor when read back.
  for (const char *text : {"-u0 - And(0*s1*s0)**(-1)", "Or(And(0*s1))**(-1)"})
    expectPlainFormSettles(text);
  // A zero inside a nested product: the plain form flattens products when
  // read back, so the zero still ends up in the divisor.
  Expr nested = parseOk("Mul(Integer(2), Pow(Mul(Mul(Integer(0), "
                        "Symbol('s1')), Symbol('s0')), Integer(-1)))");
  ASSERT_FALSE(nested.isNull());
  std::string plain = toString(nested, Form::Plain);
  Expr again = parseOk(plain);
  ASSERT_FALSE(again.isNull()) << plain;
  // The nested product is flattened once; after that the text is stable.
  std::string flattened = toString(again, Form::Plain);
  EXPECT_EQ(flattened, "2*(0*s1*s0)**(-1)");
  EXPECT_EQ(toString(parseOk(flattened), Form::Plain), flattened);
  // Divisions by non-zero values keep sympy's spelling.
  EXPECT_EQ(toString(parseOk("Pow(Symbol('s0'), Integer(-1))")), "1/s0");

  // `**` is right-associative, so this is s0**((-1)**((-1)**...)). The
  // innermost (-1)**(-1) printed as `1/(-1)`, which reads back as the number
  // -1, turning the power above it into (-1)**(-1) in turn: one level folded
  // per print/parse round, so the plain form never settled. Powers of exact
  // numbers (and of products of them) keep the `**` form and read back as
  // the same tree.
  for (const char *text :
       {"s0**(-1)**(-1)**(-1)**(-1)**(-1)", "(-1)**(-1)", "s0*2**(-1)",
        "(1/2)**(-1)", "s0**(2**(-1))", "s1*(-3)**(-1)**(-1)**(-1)"})
    expectPlainFormExact(text);
  EXPECT_EQ(toString(parseOk("s0**(-1)**(-1)**(-1)")),
            "s0**((-1)**((-1)**(-1)))");
  EXPECT_EQ(toString(parseOk("Mul(Symbol('s0'), Pow(Integer(2), "
                             "Integer(-1)))")),
            "s0*2**(-1)");
  // A product of numbers is folded into one when read back, so it settles
  // after one round, on a power of that number.
  Expr product = parseOk("Pow(Mul(Integer(2), Integer(3)), Integer(-1))");
  ASSERT_FALSE(product.isNull());
  EXPECT_EQ(toString(product), "(2*3)**(-1)");
  EXPECT_EQ(toString(parseOk(toString(product))), "6**(-1)");
}

TEST(SymbolicExprTest, SeparateThreadsParseIndependently) {
  std::vector<std::thread> threads;
  std::vector<std::string> results(4);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t, &results] {
      std::string text = "u" + std::to_string(t) + " + " + std::to_string(t);
      for (int i = 0; i < 200; ++i) {
        llvm::Expected<Expr> e = parseSymExpr(text);
        if (!e) {
          llvm::consumeError(e.takeError());
          return;
        }
        results[t] = toString(*e, Form::Srepr);
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  for (int t = 0; t < 4; ++t)
    EXPECT_EQ(results[t], "Add(Symbol('u" + std::to_string(t) + "'), Integer(" +
                              std::to_string(t) + "))");
}

//===----------------------------------------------------------------------===//
// Randomised properties
//===----------------------------------------------------------------------===//

/// Builds random well-typed trees from a fixed seed (the engine's output is
/// specified by the standard; distributions are not, so none are used).
class TreeGenerator {
public:
  explicit TreeGenerator(uint32_t seed) : engine(seed) {}

  Expr intExpr(unsigned depth) {
    unsigned choice = pick(depth == 0 ? 2 : 11);
    switch (choice) {
    case 0:
      return makeInteger(static_cast<int64_t>(pick(11)) - 5);
    case 1:
      return makeSymbol(kNames[pick(3)]);
    case 2:
      return makeAdd({intExpr(depth - 1), intExpr(depth - 1)});
    case 3:
      return makeMul({intExpr(depth - 1), intExpr(depth - 1)});
    case 4:
      return makePow(intExpr(depth - 1),
                     makeInteger(static_cast<int64_t>(pick(4))));
    case 5:
      return makeFloorDiv(intExpr(depth - 1), intExpr(depth - 1));
    case 6:
      return makeMod(intExpr(depth - 1), intExpr(depth - 1));
    case 7:
      return pick(2) ? makeMax({intExpr(depth - 1), intExpr(depth - 1)})
                     : makeMin({intExpr(depth - 1), intExpr(depth - 1)});
    case 8:
      // How srepr writes a negated product: Mul(Integer(-1), Integer(k), x).
      return makeMul({makeInteger(-1),
                      makeInteger(static_cast<int64_t>(pick(3)) + 2),
                      intExpr(depth - 1)});
    case 9:
      return makeMul({makeInteger(-1), intExpr(depth - 1)});
    default:
      return makeAdd(
          {intExpr(depth - 1), intExpr(depth - 1), intExpr(depth - 1)});
    }
  }

  Expr boolExpr(unsigned depth) {
    static const ExprKind relationals[] = {ExprKind::Eq, ExprKind::Ne,
                                           ExprKind::Lt, ExprKind::Le,
                                           ExprKind::Gt, ExprKind::Ge};
    unsigned choice = pick(depth == 0 ? 1 : 5);
    switch (choice) {
    case 0:
      return makeRelational(relationals[pick(6)], intExpr(depth),
                            intExpr(depth));
    case 1:
      return makeAnd({boolExpr(depth - 1), boolExpr(depth - 1)});
    case 2:
      return makeOr({boolExpr(depth - 1), boolExpr(depth - 1)});
    case 3:
      return makeNot(boolExpr(depth - 1));
    default:
      return makeBoolean(pick(2));
    }
  }

  unsigned pick(unsigned n) { return engine() % n; }

  static constexpr const char *kNames[] = {"s0", "s1", "u0"};

private:
  std::mt19937 engine;
};

TEST(SymbolicExprTest, RandomTreesRoundTripThroughBothForms) {
  TreeGenerator gen(20240611);
  unsigned compared = 0;
  for (int i = 0; i < 3000; ++i) {
    Expr tree = (i % 3 == 0) ? gen.boolExpr(3) : gen.intExpr(4);
    std::string srepr = toString(tree, Form::Srepr);
    std::string plain = toString(tree, Form::Plain);
    SCOPED_TRACE(plain + "  |  " + srepr);

    // srepr is exact: same tree, same text.
    Expr fromSrepr = parseOk(srepr);
    ASSERT_FALSE(fromSrepr.isNull());
    EXPECT_EQ(fromSrepr, tree);
    EXPECT_EQ(toString(fromSrepr, Form::Srepr), srepr);

    // Plain text may fold numbers, but must parse and mean the same.
    Expr fromPlain = parseOk(plain);
    ASSERT_FALSE(fromPlain.isNull());
    EXPECT_EQ(freeSymbols(fromPlain).size() <= freeSymbols(tree).size(), true);
    for (int trial = 0; trial < 3; ++trial) {
      llvm::StringMap<EvalValue> bindings;
      for (const char *name : TreeGenerator::kNames)
        bindings[name] = static_cast<int64_t>(gen.pick(13)) - 6;
      std::optional<EvalValue> expected = evaluate(tree, bindings);
      std::optional<EvalValue> actual = evaluate(fromPlain, bindings);
      if (!expected || !actual)
        continue; // Division by zero or overflow (can depend on order).
      EXPECT_EQ(*expected, *actual)
          << "bindings s0=" << std::get<int64_t>(bindings["s0"]);
      ++compared;
    }
  }
  EXPECT_GT(compared, 3000u);
}

TEST(SymbolicExprTest, RandomTokenSoupNeverCrashes) {
  static const char *const pieces[] = {
      "(",  ")",        ",",         "s0",   "u1",     "+",         "-",
      "*",  "**",       "/",         "//",   "%",      "<",         "<=",
      ">=", "&",        "|",         "~",    "1",      "2.5",       "0",
      "'",  "Symbol(",  "'s0'",      "Add(", "Mul(",   "Pow(",      "Integer(",
      "=",  "integer=", "True",      "Eq(",  "Float(", "Rational(", "oo",
      " ",  "Max(",     "FloorDiv(", "\"",   "$",      "1e",        "f("};
  std::mt19937 engine(7);
  unsigned parsed = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string text;
    unsigned length = engine() % 12;
    for (unsigned j = 0; j < length; ++j)
      text += pieces[engine() % (sizeof(pieces) / sizeof(pieces[0]))];
    llvm::Expected<Expr> expr = parseSymExpr(text);
    if (!expr) {
      std::string message = llvm::toString(expr.takeError());
      EXPECT_NE(message.find("at offset"), std::string::npos) << text;
      continue;
    }
    ++parsed;
    // Whatever parses prints to text that parses again.
    EXPECT_TRUE(static_cast<bool>(parseSymExpr(toString(*expr, Form::Srepr))))
        << text;
    llvm::Expected<Expr> again = parseSymExpr(toString(*expr, Form::Plain));
    EXPECT_TRUE(static_cast<bool>(again))
        << text << " -> " << toString(*expr, Form::Plain);
    if (!again)
      llvm::consumeError(again.takeError());
  }
  EXPECT_GT(parsed, 100u);
}

TEST(SymbolicExprTest, ForEachIdentifierFindsNamesWithoutParsing) {
  std::vector<std::string> words;
  forEachIdentifier("Max(2*u0, s1) + _x9 - 3e5", [&](llvm::StringRef w) {
    words.push_back(w.str());
  });
  EXPECT_EQ(words, (std::vector<std::string>{"Max", "u0", "s1", "_x9", "e5"}));
}

} // namespace
