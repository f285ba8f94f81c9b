//===- FuzzSymbolicExpr.cpp - Fuzz the expr_str parser --------------------===//
//
// Parses arbitrary bytes as a SymExpr `expr_str`. For every accepted
// expression:
//
//   - srepr printing is exact: parse(srepr(e)) == e and prints the same;
//   - the plain form parses again, and print/parse rounds reach a fixed
//     point within a few rounds (plain text folds numbers and signs);
//   - evaluation, renaming and substitution run without undefined behaviour
//     for bindings that include 0, -1 and the int64 extremes.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/fuzz/FuzzSupport.h"
#include "pt2ir/ir/SymbolicExpr.h"

#include <cmath>
#include <limits>

namespace {

using namespace pt2ir;
using namespace pt2ir::sym;

/// Print/parse rounds after which plain text must be stable.
constexpr int MaxPlainRounds = 3;

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
    llvm::StringMap<sym::EvalValue> bindings;
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

  // Plain text folds numbers and signs when read back (`-(-1.5)/x` reads as
  // `1.5/x`), so it may take a few rounds to settle; it must parse every
  // time and settle quickly.
  std::string plain = toString(e, Form::Plain);
  for (int round = 0;; ++round) {
    Expr again = parseOrDie(plain, "the plain form");
    std::string next = toString(again, Form::Plain);
    if (next == plain)
      break;
    if (round == MaxPlainRounds)
      fuzz::oracleFailure("plain printing does not settle", plain, next);
    plain = std::move(next);
  }

  exerciseEvaluation(e);
  return 0;
}
