//===- SymbolicExpr.h - Symbolic shape expressions (SymExpr.expr_str) -----===//
//
// An immutable expression tree for the `SymExpr.expr_str` strings of
// torch.export programs, with a parser for both spellings torch writes
// (sympy `str()` and sympy `srepr()`), printers for both, free-symbol queries,
// evaluation with Python semantics, substitution and renaming.
//
// Deliberately NOT here: algebraic simplification or canonicalisation (trees
// keep the structure they were written with, see upstream #136802), range
// analysis, and reasoning about assumptions. Structural equality is
// syntactic: `s0 + 1` and `1 + s0` are different trees.
//
//===----------------------------------------------------------------------===//

#ifndef PT2IR_IR_SYMBOLICEXPR_H
#define PT2IR_IR_SYMBOLICEXPR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace pt2ir::sym {

/// The node kinds of a symbolic expression.
enum class ExprKind : uint8_t {
  Integer,  ///< A 64-bit integer constant (`Integer(3)`, `3`).
  Rational, ///< A reduced fraction p/q with q > 1 (`Rational(1, 2)`, `1/2`).
  Float,    ///< A floating constant (`Float('1.5', precision=53)`, `1.5`).
  Boolean,  ///< `true`/`false` (srepr) or `True`/`False` (str).
  Infinity, ///< `oo`, `-oo`, `int_oo`, `-int_oo`.
  SpecialConstant, ///< `nan` or `zoo`, kept by name.
  Symbol,          ///< A named symbol with its srepr assumptions.
  Add,             ///< Sum of two or more operands.
  Mul,             ///< Product of two or more operands.
  Pow,             ///< base ** exponent.
  FloorDiv,        ///< Python floor division (torch `FloorDiv`, `a//b`).
  Mod,             ///< Modulus (`Mod(a, b)`, `a % b`).
  Min,             ///< Minimum of one or more operands.
  Max,             ///< Maximum of one or more operands.
  Eq,              ///< `Eq(a, b)` / `Equality(a, b)`.
  Ne,              ///< `Ne(a, b)` / `Unequality(a, b)`.
  Lt,              ///< `a < b` / `StrictLessThan(a, b)`.
  Le,              ///< `a <= b` / `LessThan(a, b)`.
  Gt,              ///< `a > b` / `StrictGreaterThan(a, b)`.
  Ge,              ///< `a >= b` / `GreaterThan(a, b)`.
  And,             ///< Conjunction (`And(...)`, `a & b`).
  Or,              ///< Disjunction (`Or(...)`, `a | b`).
  Not,             ///< Negation (`Not(a)`, `~a`).
  Call,            ///< Any other function application, kept by name.
};

/// The two textual forms of `expr_str`.
enum class Form : uint8_t {
  Plain, ///< sympy `str()`: `s0 + 1`, `Eq(u0, 4)`, `(s0//2)`.
  Srepr, ///< sympy `srepr()`: `Add(Symbol('s0', integer=True), Integer(1))`.
};

/// Deepest nesting the parser accepts; deeper input is rejected with an error.
constexpr unsigned kMaxParseNesting = 512;
/// Deepest tree `substitute` may produce; deeper results are an error. The
/// recursive algorithms (printing, evaluation, equality) recurse to the tree
/// depth, so this bounds their stack use (well under 1 MiB).
constexpr unsigned kMaxExprDepth = 1024;
/// Trees up to this depth print, in either form, within kMaxParseNesting
/// (a node adds at most a few levels of nesting to its printed form). A
/// deeper tree is printed and parsed again before parseSymExpr or
/// `substitute` returns it, so that every tree they return reads back.
constexpr unsigned kSurelyPrintableDepth = 96;

/// One `key=value` assumption of an srepr symbol, kept verbatim and in order
/// (`integer=True`). Assumptions never take part in equality or hashing.
struct SymbolAssumption {
  std::string key;
  std::string value;
};

class ExprNode;

/// A handle to an immutable, shared expression node. Copying is cheap (one
/// reference count). A default-constructed Expr is null; every accessor except
/// `isNull`/`operator bool` requires a non-null handle.
class Expr {
public:
  Expr() = default;

  /// True for a default-constructed handle.
  bool isNull() const { return node == nullptr; }
  explicit operator bool() const { return node != nullptr; }

  ExprKind kind() const;
  /// Operands in the order they were written or built.
  llvm::ArrayRef<Expr> operands() const;
  size_t numOperands() const { return operands().size(); }
  const Expr &operand(size_t index) const { return operands()[index]; }
  /// 1 for leaves, else 1 + the deepest operand.
  unsigned depth() const;
  /// Structural hash, consistent with `operator==`.
  size_t hash() const;

  /// Value of an Integer node.
  int64_t integerValue() const;
  /// Numerator and denominator of a Rational node (denominator > 1).
  int64_t numerator() const;
  int64_t denominator() const;
  /// Value and binary precision of a Float node.
  double floatValue() const;
  unsigned floatPrecision() const;
  /// The literal a Float was written with (empty when built from a value),
  /// and the form that literal belongs to.
  llvm::StringRef floatSpelling() const;
  Form floatSpellingForm() const;
  /// True when a FloorDiv was written `FloorDiv(a, b)` in plain text.
  bool hasCallSpelling() const;
  /// Value of a Boolean node.
  bool booleanValue() const;
  /// Sign of an Infinity node.
  bool isNegativeInfinity() const;
  /// True for `int_oo` / `-int_oo` (torch's integer infinity).
  bool isIntegerInfinity() const;
  /// Name of a Symbol, Call or SpecialConstant node.
  llvm::StringRef name() const;
  /// Assumptions of a Symbol node, in written order.
  llvm::ArrayRef<SymbolAssumption> assumptions() const;

  /// Structural equality: same kinds, values, names and operands. Symbols
  /// compare by name only; Floats by value; spellings are ignored.
  bool operator==(const Expr &other) const;
  bool operator!=(const Expr &other) const { return !(*this == other); }
  /// True when both handles share the same node (O(1)).
  bool isSameNode(const Expr &other) const { return node == other.node; }

  /// The shared node, for identity-keyed caches.
  const ExprNode *getNode() const { return node.get(); }

private:
  friend class ExprBuilderAccess;
  explicit Expr(std::shared_ptr<const ExprNode> n) : node(std::move(n)) {}
  std::shared_ptr<const ExprNode> node;
};

/// Hash functor for unordered containers keyed by Expr.
struct ExprHash {
  size_t operator()(const Expr &expr) const { return expr.hash(); }
};

//===----------------------------------------------------------------------===//
// Construction. Builders never simplify; they only check arity.
//===----------------------------------------------------------------------===//

Expr makeInteger(int64_t value);
/// A reduced rational; returns an Integer when the reduced denominator is 1.
/// Returns a null Expr when `denominator` is 0 or reduction overflows.
Expr makeRational(int64_t numerator, int64_t denominator);
/// A Float. `spelling` is the literal to print back in `spellingForm`
/// (empty: print from the value).
Expr makeFloat(double value, unsigned precision = 53,
               llvm::StringRef spelling = {}, Form spellingForm = Form::Plain);
Expr makeBoolean(bool value);
Expr makeInfinity(bool negative, bool integerInfinity = false);
/// `nan` or `zoo`.
Expr makeSpecialConstant(llvm::StringRef name);
Expr makeSymbol(llvm::StringRef name,
                llvm::ArrayRef<SymbolAssumption> assumptions = {});
/// Add/Mul of the operands; one operand is returned as is, none gives 0 / 1.
Expr makeAdd(llvm::ArrayRef<Expr> operands);
Expr makeMul(llvm::ArrayRef<Expr> operands);
Expr makePow(Expr base, Expr exponent);
/// `callSpelling` records that plain text wrote `FloorDiv(a, b)` rather than
/// `(a//b)`, so the plain printer can reproduce it.
Expr makeFloorDiv(Expr base, Expr divisor, bool callSpelling = false);
Expr makeMod(Expr base, Expr divisor);
/// Min/Max of one or more operands (asserts on none).
Expr makeMin(llvm::ArrayRef<Expr> operands);
Expr makeMax(llvm::ArrayRef<Expr> operands);
/// `kind` must be one of Eq, Ne, Lt, Le, Gt, Ge.
Expr makeRelational(ExprKind kind, Expr lhs, Expr rhs);
/// And/Or of one or more operands (asserts on none).
Expr makeAnd(llvm::ArrayRef<Expr> operands);
Expr makeOr(llvm::ArrayRef<Expr> operands);
Expr makeNot(Expr operand);
Expr makeCall(llvm::StringRef name, llvm::ArrayRef<Expr> operands);

/// A node of the same kind and payload as `like` but with new operands.
Expr rebuildWithOperands(const Expr &like, llvm::ArrayRef<Expr> operands);

//===----------------------------------------------------------------------===//
// Parsing and printing.
//===----------------------------------------------------------------------===//

/// Parses an `expr_str` in either form. The form is detected from the text
/// (srepr constructors such as `Symbol(`, `Integer(`, `Add(`, or `true`) and
/// stored in `*detectedForm` when given. Errors name the byte offset and
/// what was expected there.
llvm::Expected<Expr> parseSymExpr(llvm::StringRef text,
                                  Form *detectedForm = nullptr);

/// Succeeds when both printed forms of `expr` parse again: always for trees
/// up to kSurelyPrintableDepth; a deeper tree can print nested deeper than
/// kMaxParseNesting (a chain `x//2//2...` of depth d prints `((...//2)//2)`
/// with 2d levels) and is then an error.
llvm::Error checkPrintsWithinParseNesting(const Expr &expr);

/// The form `parseSymExpr` would detect for `text`, without parsing it.
Form detectForm(llvm::StringRef text);

/// Prints `expr` the way sympy's `str()` (Form::Plain, with torch's printing
/// of FloorDiv) or `srepr()` (Form::Srepr) prints the same expression.
std::string toString(const Expr &expr, Form form = Form::Plain);

/// Prints the plain form.
llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const Expr &expr);

//===----------------------------------------------------------------------===//
// Queries.
//===----------------------------------------------------------------------===//

/// Names of the symbols occurring in `expr`, deduplicated, in order of first
/// occurrence (left to right, depth first).
std::vector<std::string> freeSymbols(const Expr &expr);
/// True when a symbol named `name` occurs in `expr`.
bool containsSymbol(const Expr &expr, llvm::StringRef name);

/// The kinds of symbol torch names by prefix (`torch/utils/_sympy/symbol.py`).
enum class SymbolPrefix : uint8_t {
  Size,          ///< `s<N>`: backed int.
  UnbackedInt,   ///< `u<N>`: unbacked int.
  Float,         ///< `zf<N>`: backed float.
  UnbackedFloat, ///< `zuf<N>`: unbacked float.
  Other,         ///< Any other name.
};

/// Classifies `name`; only `<prefix><digits>` names get a torch prefix.
SymbolPrefix classifySymbol(llvm::StringRef name);
/// `u<N>` or `zuf<N>`.
bool isUnbackedSymbol(llvm::StringRef name);
/// `s<N>` or `zf<N>`.
bool isBackedSymbol(llvm::StringRef name);
/// N of a `<torch prefix><N>` name (`u12` -> 12), if it has one.
std::optional<uint64_t> symbolIndex(llvm::StringRef name);

/// Calls `fn` on every identifier (`[A-Za-z_][A-Za-z0-9_]*`) of an
/// expression's text, in order, without parsing it: the symbols, and the
/// names of the functions it calls.
template <typename Fn> void forEachIdentifier(llvm::StringRef text, Fn &&fn) {
  auto isStart = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  };
  for (size_t i = 0; i < text.size();) {
    if (!isStart(text[i])) {
      ++i;
      continue;
    }
    size_t start = i;
    while (i < text.size() && (isStart(text[i]) || (text[i] >= '0' && text[i] <= '9')))
      ++i;
    fn(text.slice(start, i));
  }
}

/// The name of a Symbol node.
std::optional<llvm::StringRef> asSymbol(const Expr &expr);
/// The value of an Integer node.
std::optional<int64_t> asInteger(const Expr &expr);
/// The value of a Boolean node.
std::optional<bool> asBoolean(const Expr &expr);

/// True for Eq, Ne, Lt, Le, Gt, Ge.
bool isRelational(ExprKind kind);
/// The parts of a relational node.
struct RelationalParts {
  ExprKind kind;
  Expr lhs;
  Expr rhs;
};
std::optional<RelationalParts> asRelational(const Expr &expr);

//===----------------------------------------------------------------------===//
// Evaluation.
//===----------------------------------------------------------------------===//

/// A concrete value: Python int (int64), float or bool.
using EvalValue = std::variant<int64_t, double, bool>;

/// Looks a symbol up; nullopt when it is unbound.
using SymbolLookup =
    llvm::function_ref<std::optional<EvalValue>(llvm::StringRef name)>;

/// Evaluates `expr` with Python semantics (FloorDiv and Mod round toward
/// -inf, int/int `**` with a negative exponent gives a float, comparisons give
/// bools). Returns nullopt when a symbol is unbound, on division or modulo by
/// zero, on int64 overflow, on a type error, or for a function it does not
/// know. See docs/symbolic-expressions.md for the function table.
std::optional<EvalValue> evaluate(const Expr &expr, SymbolLookup lookup);
std::optional<EvalValue> evaluate(const Expr &expr,
                                 const llvm::StringMap<EvalValue> &bindings);
/// Evaluates to an int (bools count as 0/1; floats are rejected).
std::optional<int64_t> evaluateInt(const Expr &expr,
                                   const llvm::StringMap<EvalValue> &bindings);
/// Evaluates to a bool (ints are rejected).
std::optional<bool> evaluateBool(const Expr &expr,
                                 const llvm::StringMap<EvalValue> &bindings);

//===----------------------------------------------------------------------===//
// Rewriting. Unchanged subtrees are shared; when nothing changes the result
// is the very same node (`isSameNode`).
//===----------------------------------------------------------------------===//

/// Replaces symbols by expressions, all at once (a replacement is not itself
/// rewritten). No simplification follows. Fails when the result would be
/// deeper than kMaxExprDepth.
llvm::Expected<Expr> substitute(const Expr &expr,
                                const llvm::StringMap<Expr> &replacements);

/// Renames symbols (keeping their assumptions); names not in the map stay.
Expr renameSymbols(const Expr &expr,
                   const llvm::StringMap<std::string> &renames);

//===----------------------------------------------------------------------===//
// SymExprText: verbatim text with a lazily parsed tree.
//===----------------------------------------------------------------------===//

/// An `expr_str` as read from a file. `str()` returns the original text
/// byte for byte until the tree is changed through this object; after that it
/// prints the tree in the form the original text used.
///
/// The parse cache is filled on first use from a const method, so one
/// instance must not be used from several threads at once without external
/// synchronisation; distinct instances are independent.
class SymExprText {
public:
  SymExprText() = default;
  explicit SymExprText(std::string source) : text(std::move(source)) {}
  /// Text synthesised from a tree, printed in `form`.
  static SymExprText fromExpr(Expr expr, Form form);

  /// The text as read (or as synthesised).
  llvm::StringRef original() const { return text; }
  /// The tree, parsing on first call. Parse errors are reported on every call.
  llvm::Expected<Expr> expr() const;
  /// The form of the original text.
  Form form() const { return detectForm(text); }
  /// True once the tree was replaced by a different one.
  bool isModified() const { return modified; }
  /// The original text unless modified; else the tree printed in `form()`.
  std::string str() const;

  /// Replaces the tree; marks the text modified unless `newExpr` is the same
  /// node as the current tree.
  void setExpr(Expr newExpr);
  /// Renames symbols in the tree (see `renameSymbols`).
  llvm::Error renameSymbols(const llvm::StringMap<std::string> &renames);
  /// Substitutes symbols in the tree (see `substitute`).
  llvm::Error substitute(const llvm::StringMap<Expr> &replacements);

private:
  llvm::Error ensureParsed() const;

  std::string text;
  mutable Expr tree;
  mutable std::string parseError;
  mutable bool parsed = false;
  bool modified = false;
};

/// Name of a kind, for diagnostics (`"Add"`, `"Eq"`).
llvm::StringRef kindName(ExprKind kind);

} // namespace pt2ir::sym

namespace std {
template <> struct hash<pt2ir::sym::Expr> {
  size_t operator()(const pt2ir::sym::Expr &expr) const { return expr.hash(); }
};
} // namespace std

#endif // PT2IR_IR_SYMBOLICEXPR_H
