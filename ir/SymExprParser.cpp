//===- SymExprParser.cpp - Parse sympy str()/srepr() expression text ------===//
//
// A lexer and recursive-descent parser for `SymExpr.expr_str`. One grammar
// (Python expression syntax, as `sympy.sympify` uses) covers both forms:
// srepr text is just nested constructor calls (`Add(Symbol('s0'), ...)`),
// which are mapped to node kinds by name. Nesting is capped at
// kMaxParseNesting so hostile input cannot exhaust the stack, no tree
// deeper than kMaxExprDepth is returned (left-nested `//`/`%` chains are cut
// off as they grow), and no tree whose printed forms would nest deeper than
// kMaxParseNesting (checkPrintsWithinParseNesting), so what is read can be
// written and read again.
//
// Plain infix operators are built the way sympy would build them, so that
// `s0 - 2*s1` gets the same tree as its srepr: numeric factors of a product
// are folded into one leading coefficient (split as `-1, c` when negative),
// sums and products are flattened, and `a/b` becomes a product with
// `Pow(b, -1)`. Constructor calls are kept exactly as written. Nothing else
// is simplified.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/ir/SymbolicExpr.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <charconv>
#include <cmath>
#include <numeric>

namespace pt2ir::sym {
namespace {

//===----------------------------------------------------------------------===//
// Lexer
//===----------------------------------------------------------------------===//

enum class Tok {
  End,
  Identifier,
  Int,
  Float,
  String,
  LParen,
  RParen,
  Comma,
  Equals,
  Plus,
  Minus,
  Star,
  StarStar,
  Slash,
  SlashSlash,
  Percent,
  Less,
  LessEq,
  Greater,
  GreaterEq,
  Amp,
  Pipe,
  Tilde,
  Invalid,
};

struct Token {
  Tok kind = Tok::End;
  /// The source text of the token (for strings, including the quotes).
  llvm::StringRef text;
  size_t offset = 0;
};

bool isIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isIdentChar(char c) { return isIdentStart(c) || isDigit(c); }

/// Splits text into tokens on demand. An invalid character, an unterminated
/// string or a malformed number yields a Tok::Invalid token whose text is the
/// offending input.
class Lexer {
public:
  explicit Lexer(llvm::StringRef text) : text(text) {}

  Token next() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                                 text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
    size_t start = pos;
    if (pos >= text.size())
      return {Tok::End, {}, pos};
    char c = text[pos];
    if (isIdentStart(c)) {
      while (pos < text.size() && isIdentChar(text[pos]))
        ++pos;
      return make(Tok::Identifier, start);
    }
    if (isDigit(c) ||
        (c == '.' && pos + 1 < text.size() && isDigit(text[pos + 1])))
      return lexNumber(start);
    if (c == '\'' || c == '"')
      return lexString(start);
    ++pos;
    auto twoChar = [&](char second, Tok pair, Tok single) {
      if (pos < text.size() && text[pos] == second) {
        ++pos;
        return make(pair, start);
      }
      return make(single, start);
    };
    switch (c) {
    case '(':
      return make(Tok::LParen, start);
    case ')':
      return make(Tok::RParen, start);
    case ',':
      return make(Tok::Comma, start);
    case '=':
      return make(Tok::Equals, start);
    case '+':
      return make(Tok::Plus, start);
    case '-':
      return make(Tok::Minus, start);
    case '*':
      return twoChar('*', Tok::StarStar, Tok::Star);
    case '/':
      return twoChar('/', Tok::SlashSlash, Tok::Slash);
    case '%':
      return make(Tok::Percent, start);
    case '<':
      return twoChar('=', Tok::LessEq, Tok::Less);
    case '>':
      return twoChar('=', Tok::GreaterEq, Tok::Greater);
    case '&':
      return make(Tok::Amp, start);
    case '|':
      return make(Tok::Pipe, start);
    case '~':
      return make(Tok::Tilde, start);
    default:
      return make(Tok::Invalid, start);
    }
  }

  size_t position() const { return pos; }
  void reset(size_t position) { pos = position; }

private:
  Token make(Tok kind, size_t start) {
    return {kind, text.slice(start, pos), start};
  }

  Token lexNumber(size_t start) {
    bool isFloat = false;
    while (pos < text.size() && isDigit(text[pos]))
      ++pos;
    if (pos < text.size() && text[pos] == '.') {
      isFloat = true;
      ++pos;
      while (pos < text.size() && isDigit(text[pos]))
        ++pos;
    }
    if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
      size_t save = pos;
      ++pos;
      if (pos < text.size() && (text[pos] == '+' || text[pos] == '-'))
        ++pos;
      if (pos < text.size() && isDigit(text[pos])) {
        isFloat = true;
        while (pos < text.size() && isDigit(text[pos]))
          ++pos;
      } else {
        pos = save;
      }
    }
    // `2x` is not a number followed by a name; reject it here.
    if (pos < text.size() && isIdentChar(text[pos])) {
      while (pos < text.size() && isIdentChar(text[pos]))
        ++pos;
      return make(Tok::Invalid, start);
    }
    return make(isFloat ? Tok::Float : Tok::Int, start);
  }

  Token lexString(size_t start) {
    char quote = text[pos++];
    while (pos < text.size() && text[pos] != quote) {
      if (text[pos] == '\\' && pos + 1 < text.size())
        ++pos;
      ++pos;
    }
    if (pos >= text.size())
      return make(Tok::Invalid, start);
    ++pos; // closing quote
    return make(Tok::String, start);
  }

  llvm::StringRef text;
  size_t pos = 0;
};

/// The contents of a string token with escapes resolved.
std::string unquote(llvm::StringRef token) {
  std::string out;
  llvm::StringRef body = token.drop_front().drop_back();
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] == '\\' && i + 1 < body.size())
      ++i;
    out.push_back(body[i]);
  }
  return out;
}

/// Parses a decimal floating literal (locale independent).
std::optional<double> parseDouble(llvm::StringRef literal) {
  llvm::StringRef digits = literal;
  if (digits.consume_front("+") && digits.starts_with("-"))
    return std::nullopt;
  double value = 0;
  auto [end, ec] = std::from_chars(digits.begin(), digits.end(), value,
                                   std::chars_format::general);
  if (ec != std::errc() || end != digits.end())
    return std::nullopt;
  return value;
}

//===----------------------------------------------------------------------===//
// Number helpers for building products like sympy does
//===----------------------------------------------------------------------===//

bool isExactNumber(const Expr &e) {
  return e.kind() == ExprKind::Integer || e.kind() == ExprKind::Rational;
}

/// p/q of an Integer or Rational node.
std::pair<int64_t, int64_t> fractionOf(const Expr &e) {
  if (e.kind() == ExprKind::Integer)
    return {e.integerValue(), 1};
  return {e.numerator(), e.denominator()};
}

/// a*b of two fractions as a node; null on overflow.
Expr multiplyFractions(std::pair<int64_t, int64_t> a,
                       std::pair<int64_t, int64_t> b) {
  // Cross-reduce first to keep the products small.
  int64_t g1 = std::gcd(a.first, b.second);
  int64_t g2 = std::gcd(b.first, a.second);
  if (g1 <= 0)
    g1 = 1;
  if (g2 <= 0)
    g2 = 1;
  int64_t p, q;
  if (__builtin_mul_overflow(a.first / g1, b.first / g2, &p) ||
      __builtin_mul_overflow(a.second / g2, b.second / g1, &q))
    return Expr();
  return makeRational(p, q);
}

bool isNegativeNumber(const Expr &e) {
  switch (e.kind()) {
  case ExprKind::Integer:
    return e.integerValue() < 0;
  case ExprKind::Rational:
    return e.numerator() < 0;
  case ExprKind::Float:
    return std::signbit(e.floatValue()) && e.floatValue() != 0;
  default:
    return false;
  }
}

/// -e for a numeric node, or null when it cannot be represented.
Expr negateNumber(const Expr &e) {
  switch (e.kind()) {
  case ExprKind::Integer:
    if (e.integerValue() == INT64_MIN)
      return Expr();
    return makeInteger(-e.integerValue());
  case ExprKind::Rational:
    return makeRational(-e.numerator(), e.denominator());
  case ExprKind::Float: {
    llvm::StringRef spelling = e.floatSpelling();
    std::string flipped;
    if (!spelling.empty())
      flipped = spelling.starts_with("-") ? spelling.drop_front().str()
                                          : "-" + spelling.str();
    return makeFloat(-e.floatValue(), e.floatPrecision(), flipped,
                     e.floatSpellingForm());
  }
  default:
    return Expr();
  }
}

/// Builds a product from plain-text factors the way sympy evaluates one:
/// nested products are flattened and the exact numeric factors are folded
/// into one leading coefficient, written `-1, |c|` when negative.
Expr buildProduct(llvm::ArrayRef<Expr> input) {
  llvm::SmallVector<Expr, 4> factors;
  for (const Expr &factor : input) {
    if (factor.kind() == ExprKind::Mul)
      factors.append(factor.operands().begin(), factor.operands().end());
    else
      factors.push_back(factor);
  }
  Expr coefficient = makeInteger(1);
  llvm::SmallVector<Expr, 4> rest;
  for (const Expr &factor : factors) {
    if (isExactNumber(factor)) {
      Expr product =
          multiplyFractions(fractionOf(coefficient), fractionOf(factor));
      if (!product.isNull()) {
        coefficient = product;
        continue;
      }
    }
    rest.push_back(factor);
  }
  if (rest.empty())
    return coefficient;
  llvm::SmallVector<Expr, 4> ordered;
  // A lone leading Float is the coefficient when there is no exact one.
  if (fractionOf(coefficient) == std::make_pair<int64_t, int64_t>(1, 1) &&
      rest.size() > 1 && rest.front().kind() == ExprKind::Float) {
    coefficient = rest.front();
    rest.erase(rest.begin());
  }
  if (isNegativeNumber(coefficient)) {
    Expr magnitude = negateNumber(coefficient);
    if (magnitude.isNull()) {
      ordered.push_back(coefficient);
    } else {
      ordered.push_back(makeInteger(-1));
      if (!(magnitude.kind() == ExprKind::Integer &&
            magnitude.integerValue() == 1))
        ordered.push_back(magnitude);
    }
  } else if (!(coefficient.kind() == ExprKind::Integer &&
               coefficient.integerValue() == 1)) {
    ordered.push_back(coefficient);
  }
  ordered.append(rest.begin(), rest.end());
  return makeMul(ordered);
}

/// -e as sympy builds it from `-e`.
Expr negate(const Expr &e) {
  if (e.kind() == ExprKind::Infinity)
    return makeInfinity(!e.isNegativeInfinity(), e.isIntegerInfinity());
  Expr number = negateNumber(e);
  if (!number.isNull())
    return number;
  return buildProduct({makeInteger(-1), e});
}

/// Flattens `lhs & rhs` / `lhs | rhs`.
Expr buildLogical(ExprKind kind, llvm::ArrayRef<Expr> operands) {
  llvm::SmallVector<Expr, 4> flat;
  for (const Expr &operand : operands) {
    if (operand.kind() == kind)
      flat.append(operand.operands().begin(), operand.operands().end());
    else
      flat.push_back(operand);
  }
  return kind == ExprKind::And ? makeAnd(flat) : makeOr(flat);
}

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

/// Constructor names that only occur in srepr text.
bool isSreprOnlyHead(llvm::StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases("Symbol", "Integer", "Rational", "Float", "Add", "Mul", "Pow",
             true)
      .Cases("Equality", "Unequality", "StrictLessThan", "LessThan",
             "StrictGreaterThan", "GreaterThan", true)
      .Cases("BooleanTrue", "BooleanFalse", "IntInfinity",
             "NegativeIntInfinity", "Infinity", "NegativeInfinity", true)
      .Default(false);
}

/// One argument of a call: positional or `keyword=value`.
struct CallArg {
  std::string keyword;
  /// Set for a string literal argument.
  std::optional<std::string> stringValue;
  Expr value;
  /// The verbatim source of the value (for symbol assumptions).
  llvm::StringRef valueText;
  size_t valueStart = 0;
  size_t offset = 0;
};

class Parser {
public:
  Parser(llvm::StringRef text, Form form)
      : text(text), lexer(text), form(form) {
    advance();
  }

  llvm::Expected<Expr> parse() {
    Expr result = parseComparison();
    if (!result.isNull() && tok.kind != Tok::End)
      result = fail("an operator or the end of the input");
    // Nesting levels each add a bounded number of tree levels; this keeps
    // the promise of kMaxExprDepth for every tree the parser returns.
    if (!result.isNull() && result.depth() > kMaxExprDepth)
      result = treeTooDeep(0);
    if (result.isNull())
      return makeError();
    return result;
  }

private:
  /// Counts nesting for the recursive productions.
  class NestingGuard {
  public:
    explicit NestingGuard(Parser &parser) : parser(parser) { ++parser.depth; }
    ~NestingGuard() { --parser.depth; }
    bool tooDeep() const { return parser.depth > kMaxParseNesting; }

  private:
    Parser &parser;
  };

  void advance() { tok = lexer.next(); }

  Token peek() {
    size_t save = lexer.position();
    Token next = lexer.next();
    lexer.reset(save);
    return next;
  }

  std::string describe(const Token &token) const {
    if (token.kind == Tok::End)
      return "end of input";
    if (token.kind == Tok::Invalid && !token.text.empty() &&
        (token.text.front() == '\'' || token.text.front() == '"'))
      return std::string("unterminated string starting with ") +
             token.text.front();
    llvm::StringRef shown = token.text.take_front(24);
    return "'" + shown.str() +
           (shown.size() < token.text.size() ? "...'" : "'");
  }

  /// Records "expected X, found <current token>" at the current token.
  LLVM_ATTRIBUTE_NOINLINE Expr fail(llvm::StringRef expected) {
    return failAt(tok.offset,
                  "expected " + expected.str() + ", found " + describe(tok));
  }

  LLVM_ATTRIBUTE_NOINLINE Expr failAt(size_t offset, std::string message) {
    if (error.empty()) {
      error = std::move(message);
      errorOffset = offset;
    }
    return Expr();
  }

  llvm::Error makeError() const {
    llvm::StringRef shown = text.take_front(80);
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "invalid symbolic expression '%s%s': at offset %zu: %s",
        shown.str().c_str(), shown.size() < text.size() ? "..." : "",
        errorOffset, error.c_str());
  }

  bool expect(Tok kind, llvm::StringRef what) {
    if (tok.kind == kind) {
      advance();
      return true;
    }
    fail(what);
    return false;
  }

  LLVM_ATTRIBUTE_NOINLINE Expr tooDeep() {
    return failAt(tok.offset, "expression nested deeper than " +
                                  std::to_string(kMaxParseNesting) + " levels");
  }

  LLVM_ATTRIBUTE_NOINLINE Expr treeTooDeep(size_t offset) {
    return failAt(offset, "expression tree deeper than " +
                              std::to_string(kMaxExprDepth) + " levels");
  }

  // The productions below sit on the recursion path once per nesting
  // level, so each keeps a minimal frame: it parses its first operand and
  // hands any operator chain to an out-of-line continuation.

  // comparison := bitor [compop bitor]
  Expr parseComparison() {
    Expr lhs = parseBitOr();
    if (lhs.isNull() || !comparisonKind(tok.kind))
      return lhs;
    return continueComparison(lhs);
  }

  LLVM_ATTRIBUTE_NOINLINE Expr continueComparison(const Expr &lhs) {
    ExprKind kind = *comparisonKind(tok.kind);
    advance();
    Expr rhs = parseBitOr();
    if (rhs.isNull())
      return rhs;
    if (comparisonKind(tok.kind))
      return failAt(tok.offset, "chained comparisons are not supported; "
                                "parenthesize one side");
    return makeRelational(kind, lhs, rhs);
  }

  static std::optional<ExprKind> comparisonKind(Tok kind) {
    switch (kind) {
    case Tok::Less:
      return ExprKind::Lt;
    case Tok::LessEq:
      return ExprKind::Le;
    case Tok::Greater:
      return ExprKind::Gt;
    case Tok::GreaterEq:
      return ExprKind::Ge;
    default:
      return std::nullopt;
    }
  }

  // bitor := bitand ('|' bitand)*
  Expr parseBitOr() {
    Expr first = parseBitAnd();
    if (first.isNull() || tok.kind != Tok::Pipe)
      return first;
    return continueLogical(first, ExprKind::Or);
  }

  // bitand := arith ('&' arith)*
  Expr parseBitAnd() {
    Expr first = parseArith();
    if (first.isNull() || tok.kind != Tok::Amp)
      return first;
    return continueLogical(first, ExprKind::And);
  }

  LLVM_ATTRIBUTE_NOINLINE Expr continueLogical(const Expr &first,
                                               ExprKind kind) {
    Tok op = kind == ExprKind::Or ? Tok::Pipe : Tok::Amp;
    llvm::SmallVector<Expr, 4> operands{first};
    while (tok.kind == op) {
      advance();
      Expr next = kind == ExprKind::Or ? parseBitAnd() : parseArith();
      if (next.isNull())
        return next;
      operands.push_back(next);
    }
    return buildLogical(kind, operands);
  }

  // arith := term (('+' | '-') term)*
  Expr parseArith() {
    Expr first = parseTerm();
    if (first.isNull() || (tok.kind != Tok::Plus && tok.kind != Tok::Minus))
      return first;
    return continueSum(first);
  }

  /// Terms are collected and flattened once, so long sums stay linear.
  LLVM_ATTRIBUTE_NOINLINE Expr continueSum(const Expr &first) {
    llvm::SmallVector<Expr, 8> terms;
    auto addTerm = [&](const Expr &term) {
      if (term.kind() == ExprKind::Add)
        terms.append(term.operands().begin(), term.operands().end());
      else
        terms.push_back(term);
    };
    addTerm(first);
    while (tok.kind == Tok::Plus || tok.kind == Tok::Minus) {
      bool subtract = tok.kind == Tok::Minus;
      advance();
      Expr term = parseTerm();
      if (term.isNull())
        return term;
      addTerm(subtract ? negate(term) : term);
    }
    return makeAdd(terms);
  }

  static bool isTermOperator(Tok kind) {
    return kind == Tok::Star || kind == Tok::Slash || kind == Tok::SlashSlash ||
           kind == Tok::Percent;
  }

  // term := factor (('*' | '/' | '//' | '%') factor)*
  Expr parseTerm() {
    Expr first = parseFactor();
    if (first.isNull() || !isTermOperator(tok.kind))
      return first;
    return continueProduct(first);
  }

  /// A run of `*` and `/` is one product, built once at its end; `//` and `%`
  /// close the run and start a new one with their result.
  LLVM_ATTRIBUTE_NOINLINE Expr continueProduct(const Expr &first) {
    llvm::SmallVector<Expr, 8> factors{first};
    while (isTermOperator(tok.kind)) {
      Tok op = tok.kind;
      size_t opOffset = tok.offset;
      advance();
      Expr rhs = parseFactor();
      if (rhs.isNull())
        return rhs;
      if (op == Tok::Star) {
        factors.push_back(rhs);
        continue;
      }
      if (op == Tok::Slash) {
        if (!appendReciprocal(rhs, factors, opOffset))
          return Expr();
        continue;
      }
      Expr lhs = finishProduct(factors, opOffset);
      if (lhs.isNull())
        return lhs;
      factors.assign(1, op == Tok::SlashSlash ? makeFloorDiv(lhs, rhs)
                                              : makeMod(lhs, rhs));
      // A chain `a // b // c ...` nests to the left without any nesting
      // level of the parser; bound the tree it builds here, before it gets
      // deep enough to overflow the stack of whatever walks or frees it.
      if (factors.front().depth() > kMaxExprDepth)
        return treeTooDeep(opOffset);
    }
    return finishProduct(factors, tok.offset);
  }

  Expr finishProduct(llvm::ArrayRef<Expr> factors, size_t offset) {
    if (factors.size() == 1)
      return factors.front();
    Expr product = buildProduct(factors);
    if (product.isNull())
      return failAt(offset, "rational constant out of int64 range");
    return product;
  }

  /// Appends the factors of `1/divisor` as sympy builds them: exact numbers
  /// invert exactly, powers with numeric exponents flip the exponent's sign,
  /// products invert factor by factor, anything else becomes Pow(x, -1).
  bool appendReciprocal(const Expr &divisor, llvm::SmallVectorImpl<Expr> &out,
                        size_t opOffset) {
    llvm::SmallVector<Expr, 4> parts;
    if (divisor.kind() == ExprKind::Mul)
      parts.append(divisor.operands().begin(), divisor.operands().end());
    else
      parts.push_back(divisor);
    for (const Expr &part : parts) {
      if (isExactNumber(part)) {
        auto [p, q] = fractionOf(part);
        if (p == 0) {
          failAt(opOffset, "division by zero");
          return false;
        }
        Expr reciprocal = makeRational(q, p);
        if (reciprocal.isNull()) {
          failAt(opOffset, "rational constant out of int64 range");
          return false;
        }
        out.push_back(reciprocal);
        continue;
      }
      if (part.kind() == ExprKind::Pow &&
          (isExactNumber(part.operand(1)) ||
           part.operand(1).kind() == ExprKind::Float)) {
        Expr exponent = negateNumber(part.operand(1));
        if (!exponent.isNull()) {
          out.push_back(makePow(part.operand(0), exponent));
          continue;
        }
      }
      out.push_back(makePow(part, makeInteger(-1)));
    }
    return true;
  }

  // factor := ('-' | '+' | '~') factor | power
  Expr parseFactor() {
    if (tok.kind != Tok::Minus && tok.kind != Tok::Plus &&
        tok.kind != Tok::Tilde)
      return parsePower();
    return parseUnary();
  }

  /// Each unary operator is one level of nesting.
  LLVM_ATTRIBUTE_NOINLINE Expr parseUnary() {
    NestingGuard guard(*this);
    if (guard.tooDeep())
      return tooDeep();
    Tok op = tok.kind;
    advance();
    Expr operand = parseFactor();
    if (operand.isNull() || op == Tok::Plus)
      return operand;
    return op == Tok::Minus ? negate(operand) : makeNot(operand);
  }

  // power := primary ['**' factor]
  Expr parsePower() {
    Expr base = parsePrimary();
    if (base.isNull() || tok.kind != Tok::StarStar)
      return base;
    return continuePower(base);
  }

  LLVM_ATTRIBUTE_NOINLINE Expr continuePower(const Expr &base) {
    NestingGuard guard(*this);
    if (guard.tooDeep())
      return tooDeep();
    advance();
    Expr exponent = parseFactor();
    if (exponent.isNull())
      return exponent;
    return makePow(base, exponent);
  }

  // primary := INT | FLOAT | IDENT | IDENT '(' args ')' | '(' comparison ')'
  Expr parsePrimary() {
    if (tok.kind == Tok::LParen)
      return parseParenthesized();
    if (tok.kind == Tok::Identifier)
      return parseIdentifier();
    return parseLeaf();
  }

  Expr parseParenthesized() {
    NestingGuard guard(*this);
    if (guard.tooDeep())
      return tooDeep();
    size_t openOffset = tok.offset;
    advance();
    Expr inner = parseComparison();
    if (inner.isNull())
      return inner;
    if (tok.kind != Tok::RParen)
      return failUnclosed(openOffset);
    advance();
    return inner;
  }

  LLVM_ATTRIBUTE_NOINLINE Expr failUnclosed(size_t openOffset) {
    return fail("')' to close the '(' at offset " + std::to_string(openOffset));
  }

  Expr parseIdentifier() {
    llvm::StringRef name = tok.text;
    size_t nameOffset = tok.offset;
    advance();
    if (tok.kind == Tok::LParen)
      return parseCall(name, nameOffset);
    return namedAtom(name);
  }

  /// Numbers and the tokens that cannot start an expression.
  LLVM_ATTRIBUTE_NOINLINE Expr parseLeaf() {
    switch (tok.kind) {
    case Tok::Int: {
      int64_t value;
      if (tok.text.getAsInteger(10, value))
        return failAt(tok.offset, "integer literal '" + tok.text.str() +
                                      "' does not fit in int64");
      advance();
      return makeInteger(value);
    }
    case Tok::Float: {
      llvm::StringRef literal = tok.text;
      std::optional<double> value = parseDouble(literal);
      if (!value)
        return failAt(tok.offset,
                      "malformed float literal '" + literal.str() + "'");
      advance();
      return makeFloat(*value, 53, literal, Form::Plain);
    }
    case Tok::String:
      return failAt(tok.offset, "a string literal is only allowed as the "
                                "first argument of Symbol(...) or Float(...)");
    case Tok::Invalid:
      if (!tok.text.empty() &&
          (tok.text.front() == '\'' || tok.text.front() == '"'))
        return failAt(tok.offset, "unterminated string literal");
      if (!tok.text.empty() && isDigit(tok.text.front()))
        return failAt(tok.offset, "malformed number '" + tok.text.str() + "'");
      return failAt(tok.offset, "unexpected character " + describe(tok));
    default:
      return fail("an expression");
    }
  }

  LLVM_ATTRIBUTE_NOINLINE Expr namedAtom(llvm::StringRef name) {
    if (name == "oo")
      return makeInfinity(false);
    if (name == "int_oo")
      return makeInfinity(false, true);
    if (name == "zoo" || name == "nan")
      return makeSpecialConstant(name);
    if (name == "True" || name == "true")
      return makeBoolean(true);
    if (name == "False" || name == "false")
      return makeBoolean(false);
    return makeSymbol(name);
  }

  /// Parses `(args)` after a function name and maps the call to a node.
  Expr parseCall(llvm::StringRef name, size_t nameOffset) {
    NestingGuard guard(*this);
    if (guard.tooDeep())
      return tooDeep();
    size_t openOffset = tok.offset;
    advance(); // '('
    std::vector<CallArg> args;
    while (tok.kind != Tok::RParen) {
      if (!beginArgument(args, name))
        return Expr();
      if (!args.back().stringValue) {
        Expr value = parseComparison();
        if (value.isNull())
          return value;
        args.back().value = value;
      }
      if (!endArgument(args.back(), name, openOffset))
        return Expr();
    }
    advance(); // ')'
    return buildCall({Tok::Identifier, name, nameOffset}, args);
  }

  /// Starts a new argument: reads `keyword=` and a string literal value.
  LLVM_ATTRIBUTE_NOINLINE bool beginArgument(std::vector<CallArg> &args,
                                             llvm::StringRef name) {
    bool afterKeyword = !args.empty() && !args.back().keyword.empty();
    CallArg &arg = args.emplace_back();
    arg.offset = tok.offset;
    if (tok.kind == Tok::Identifier && peek().kind == Tok::Equals) {
      arg.keyword = tok.text.str();
      advance();
      advance();
    } else if (afterKeyword) {
      failAt(tok.offset, "positional argument after keyword argument in "
                         "call to '" +
                             name.str() + "'");
      return false;
    }
    arg.valueStart = tok.offset;
    if (tok.kind == Tok::String && arg.keyword.empty()) {
      arg.stringValue = unquote(tok.text);
      advance();
    }
    return true;
  }

  /// Finishes an argument: records its text and consumes ',' before ')'.
  LLVM_ATTRIBUTE_NOINLINE bool endArgument(CallArg &arg, llvm::StringRef name,
                                           size_t openOffset) {
    arg.valueText = text.slice(arg.valueStart, tok.offset).rtrim();
    if (tok.kind == Tok::Comma) {
      advance();
      return true;
    }
    if (tok.kind == Tok::RParen)
      return true;
    fail("',' or ')' to close the call to '" + name.str() +
         "' opened at offset " + std::to_string(openOffset));
    return false;
  }

  LLVM_ATTRIBUTE_NOINLINE Expr buildCall(const Token &head,
                                         llvm::ArrayRef<CallArg> args) {
    llvm::StringRef name = head.text;
    if (name == "Symbol")
      return buildSymbol(head, args);
    if (name == "Float")
      return buildFloat(head, args);
    for (const CallArg &arg : args) {
      if (!arg.keyword.empty())
        return failAt(arg.offset, "keyword arguments are only allowed in "
                                  "Symbol(...) and Float(...), not in '" +
                                      name.str() + "'");
      if (arg.stringValue)
        return failAt(arg.offset,
                      "a string literal is only allowed as the first "
                      "argument of Symbol(...) or Float(...)");
    }
    llvm::SmallVector<Expr, 4> operands;
    for (const CallArg &arg : args)
      operands.push_back(arg.value);

    auto arity = [&](size_t min, size_t max) {
      if (operands.size() >= min && operands.size() <= max)
        return true;
      std::string count = min == max        ? std::to_string(min)
                          : max == SIZE_MAX ? "at least " + std::to_string(min)
                                            : std::to_string(min) + " to " +
                                                  std::to_string(max);
      failAt(head.offset, "'" + name.str() + "' takes " + count + " argument" +
                              (max == 1 ? "" : "s") + ", got " +
                              std::to_string(operands.size()));
      return false;
    };

    if (name == "Integer") {
      if (!arity(1, 1))
        return Expr();
      if (operands[0].kind() != ExprKind::Integer)
        return failAt(args[0].offset,
                      "Integer(...) expects an integer literal");
      return operands[0];
    }
    if (name == "Rational") {
      if (!arity(2, 2))
        return Expr();
      if (operands[0].kind() != ExprKind::Integer ||
          operands[1].kind() != ExprKind::Integer)
        return failAt(head.offset,
                      "Rational(...) expects two integer literals");
      if (operands[1].integerValue() == 0)
        return failAt(args[1].offset, "Rational(...) with a zero denominator");
      Expr value =
          makeRational(operands[0].integerValue(), operands[1].integerValue());
      if (value.isNull())
        return failAt(head.offset, "rational constant out of int64 range");
      return value;
    }
    if (std::optional<ExprKind> kind = relationalByName(name)) {
      if (!arity(2, 2))
        return Expr();
      return makeRelational(*kind, operands[0], operands[1]);
    }
    if (name == "Add" || name == "Mul") {
      if (!arity(1, SIZE_MAX))
        return Expr();
      return name == "Add" ? makeAdd(operands) : makeMul(operands);
    }
    if (name == "Pow") {
      if (!arity(2, 2))
        return Expr();
      return makePow(operands[0], operands[1]);
    }
    if (name == "sqrt") {
      if (!arity(1, 1))
        return Expr();
      return makePow(operands[0], makeRational(1, 2));
    }
    if (name == "FloorDiv") {
      if (!arity(2, 2))
        return Expr();
      return makeFloorDiv(operands[0], operands[1], form == Form::Plain);
    }
    if (name == "Mod") {
      if (!arity(2, 2))
        return Expr();
      return makeMod(operands[0], operands[1]);
    }
    if (name == "Max" || name == "Min") {
      if (!arity(1, SIZE_MAX))
        return Expr();
      return name == "Max" ? makeMax(operands) : makeMin(operands);
    }
    if (name == "And" || name == "Or") {
      if (!arity(1, SIZE_MAX))
        return Expr();
      return name == "And" ? makeAnd(operands) : makeOr(operands);
    }
    if (name == "Not") {
      if (!arity(1, 1))
        return Expr();
      return makeNot(operands[0]);
    }
    if (name == "BooleanTrue" || name == "BooleanFalse") {
      if (!arity(0, 0))
        return Expr();
      return makeBoolean(name == "BooleanTrue");
    }
    if (name == "Infinity" || name == "NegativeInfinity" ||
        name == "IntInfinity" || name == "NegativeIntInfinity") {
      if (!arity(0, 0))
        return Expr();
      return makeInfinity(name.starts_with("Negative"),
                          name.ends_with("IntInfinity"));
    }
    if (name == "NaN" || name == "ComplexInfinity") {
      if (!arity(0, 0))
        return Expr();
      return makeSpecialConstant(name == "NaN" ? "nan" : "zoo");
    }
    return makeCall(name, operands);
  }

  static std::optional<ExprKind> relationalByName(llvm::StringRef name) {
    return llvm::StringSwitch<std::optional<ExprKind>>(name)
        .Cases("Eq", "Equality", ExprKind::Eq)
        .Cases("Ne", "Unequality", ExprKind::Ne)
        .Cases("Lt", "StrictLessThan", ExprKind::Lt)
        .Cases("Le", "LessThan", ExprKind::Le)
        .Cases("Gt", "StrictGreaterThan", ExprKind::Gt)
        .Cases("Ge", "GreaterThan", ExprKind::Ge)
        .Default(std::nullopt);
  }

  // Symbol('name', key=value, ...)
  Expr buildSymbol(const Token &head, llvm::ArrayRef<CallArg> args) {
    if (args.empty() || !args[0].keyword.empty() || !args[0].stringValue)
      return failAt(args.empty() ? head.offset : args[0].offset,
                    "Symbol(...) expects the symbol name as a string literal "
                    "first argument");
    std::vector<SymbolAssumption> assumptions;
    for (const CallArg &arg : args.drop_front()) {
      if (arg.keyword.empty())
        return failAt(arg.offset, "Symbol(...) takes only keyword arguments "
                                  "after the name");
      if (arg.stringValue)
        return failAt(arg.offset, "a Symbol assumption value must not be a "
                                  "string");
      assumptions.push_back({arg.keyword, arg.valueText.str()});
    }
    llvm::StringRef symbolName = *args[0].stringValue;
    if (symbolName.empty() || !isIdentStart(symbolName.front()) ||
        !llvm::all_of(symbolName, isIdentChar))
      return failAt(args[0].offset, "Symbol name '" + symbolName.str() +
                                        "' is not an identifier");
    return makeSymbol(symbolName, assumptions);
  }

  // Float('1.5', precision=53)
  Expr buildFloat(const Token &head, llvm::ArrayRef<CallArg> args) {
    if (args.empty() || !args[0].keyword.empty())
      return failAt(head.offset, "Float(...) expects a value first");
    std::optional<double> value;
    std::string spelling;
    if (args[0].stringValue) {
      spelling = *args[0].stringValue;
      value = parseDouble(llvm::StringRef(spelling).trim());
      if (!value)
        return failAt(args[0].offset,
                      "Float(...) string '" + spelling + "' is not a number");
    } else {
      const Expr &number = args[0].value;
      if (number.kind() == ExprKind::Float)
        value = number.floatValue();
      else if (number.kind() == ExprKind::Integer)
        value = static_cast<double>(number.integerValue());
      else
        return failAt(args[0].offset,
                      "Float(...) expects a string or numeric literal");
    }
    unsigned precision = 53;
    for (const CallArg &arg : args.drop_front()) {
      if (arg.keyword != "precision" && arg.keyword != "prec")
        return failAt(arg.offset, "Float(...) takes only a 'precision' "
                                  "keyword after the value");
      std::optional<int64_t> bits = asInteger(arg.value);
      if (!bits || *bits < 1 || *bits > 100000)
        return failAt(arg.offset, "Float precision must be a positive "
                                  "integer");
      precision = static_cast<unsigned>(*bits);
    }
    return makeFloat(*value, precision, spelling, Form::Srepr);
  }

  llvm::StringRef text;
  Lexer lexer;
  Token tok;
  Form form;
  unsigned depth = 0;
  std::string error;
  size_t errorOffset = 0;
};

} // namespace

Form detectForm(llvm::StringRef text) {
  Lexer lexer(text);
  Token previous;
  for (Token tok = lexer.next();
       tok.kind != Tok::End && tok.kind != Tok::Invalid;
       previous = tok, tok = lexer.next()) {
    if (previous.kind != Tok::Identifier)
      continue;
    if (tok.kind == Tok::LParen
            ? isSreprOnlyHead(previous.text)
            : (previous.text == "true" || previous.text == "false"))
      return Form::Srepr;
  }
  if (previous.kind == Tok::Identifier &&
      (previous.text == "true" || previous.text == "false"))
    return Form::Srepr;
  return Form::Plain;
}

llvm::Error checkPrintsWithinParseNesting(const Expr &expr) {
  if (expr.isNull() || expr.depth() <= kSurelyPrintableDepth)
    return llvm::Error::success();
  for (Form form : {Form::Plain, Form::Srepr}) {
    std::string printed = toString(expr, form);
    auto reparsed = Parser(printed, form).parse();
    if (reparsed)
      continue;
    llvm::consumeError(reparsed.takeError());
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "expression tree of depth %u prints (%s form) nested deeper than "
        "%u levels, which could not be read back",
        expr.depth(), static_cast<const char *>(form == Form::Plain ? "plain" : "srepr"),
        kMaxParseNesting);
  }
  return llvm::Error::success();
}

llvm::Expected<Expr> parseSymExpr(llvm::StringRef text, Form *detectedForm) {
  Form form = detectForm(text);
  if (detectedForm)
    *detectedForm = form;
  llvm::Expected<Expr> parsed = Parser(text, form).parse();
  if (!parsed)
    return parsed.takeError();
  if (llvm::Error err = checkPrintsWithinParseNesting(*parsed)) {
    llvm::StringRef shown = text.take_front(80);
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(), "invalid symbolic expression '%s%s': %s",
        shown.str().c_str(), shown.size() < text.size() ? "..." : "",
        llvm::toString(std::move(err)).c_str());
  }
  return parsed;
}

} // namespace pt2ir::sym
