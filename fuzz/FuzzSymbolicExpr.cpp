//===- FuzzSymbolicExpr.cpp - Fuzz the expr_str parser --------------------===//
//
// Parses arbitrary bytes as a SymExpr `expr_str`. For every accepted
// expression:
//
//   - srepr printing is exact: parse(srepr(e)) == e and prints the same;
//   - the plain form parses again, and printing it is a fixed point after
//     one step (plain text may fold numbers once);
//   - evaluation, renaming and substitution run without undefined behaviour
//     for bindings that include 0, -1 and the int64 extremes.
//
//===----------------------------------------------------------------------===//

#include "fuzz/FuzzSupport.h"
#include "ir/SymbolicExpr.h"

#include <cmath>
#include <limits>

namespace {

using namespace pt2ir;
using namespace pt2ir::sym;

/// True when the tree holds a Float that is NaN (NaN never equals itself).
bool holdsNaN(const Expr &root) {
  std::vector<Expr> work{root};
  while (!work.empty()) {
    Expr e = work.back();
    work.pop_back();
    if (e.kind() == ExprKind::Float && std::isnan(e.floatValue()))
      return true;
    for (const Expr &operand : e.operands())
      work.push_back(operand);
  }
  return false;
}

Expr parseOrDie(llvm::StringRef text, const char *what) {
  auto parsed = parseSymExpr(text);
  if (!parsed) {
    std::string message = llvm::toString(parsed.takeError());
    fuzz::oracleFailure(llvm::Twine(what) + " does not parse again: " +
                        message + "\ntext: " + text);
  }
  return *parsed;
}

void exerciseEvaluation(const Expr &e) {
  static const int64_t Samples[] = {0, 1, -1, 2, 7,
                                    std::numeric_limits<int64_t>::max(),
                                    std::numeric_limits<int64_t>::min()};
  std::vector<std::string> names = freeSymbols(e);
  for (int64_t sample : Samples) {
    llvm::StringMap<SymValue> bindings;
    for (const std::string &name : names)
      bindings[name] = sample;
    (void)evaluate(e, bindings);
    (void)evaluateInt(e, bindings);
    (void)evaluateBool(e, bindings);
  }
  llvm::StringMap<std::string> renames;
  llvm::StringMap<Expr> replacements;
  for (const std::string &name : names) {
    renames[name] = name + "_r";
    replacements[name] = makeAdd({makeSymbol(name), makeInteger(1)});
  }
  (void)renameSymbols(e, renames);
  auto substituted = substitute(e, replacements);
  if (!substituted)
    fuzz::ignoreError(substituted.takeError());
  else
    (void)toString(*substituted, Form::Plain);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  auto parsed = parseSymExpr(fuzz::asText(data, size));
  if (!parsed) {
    fuzz::ignoreError(parsed.takeError());
    return 0;
  }
  Expr e = *parsed;
  std::string srepr = toString(e, Form::Srepr);
  Expr fromSrepr = parseOrDie(srepr, "the srepr form");
  if (!holdsNaN(e) && fromSrepr != e)
    fuzz::oracleFailure("parse(srepr(e)) != e\nsrepr: " + srepr);
  std::string sreprAgain = toString(fromSrepr, Form::Srepr);
  if (sreprAgain != srepr)
    fuzz::oracleFailure("srepr printing is not a fixed point", srepr,
                        sreprAgain);

  std::string plain = toString(e, Form::Plain);
  Expr fromPlain = parseOrDie(plain, "the plain form");
  std::string plainOnce = toString(fromPlain, Form::Plain);
  Expr fromPlainOnce = parseOrDie(plainOnce, "the re-printed plain form");
  std::string plainTwice = toString(fromPlainOnce, Form::Plain);
  if (plainTwice != plainOnce)
    fuzz::oracleFailure("plain printing does not settle after one step",
                        plainOnce, plainTwice);

  exerciseEvaluation(e);
  return 0;
}
