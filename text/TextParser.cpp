//===- TextParser.cpp - The text form back to an ExportedProgram ----------===//
//
// A hand-written recursive-descent parser over an on-demand lexer. It builds
// the IR directly (Graph::addInput / appendNode resolve the names), so a
// program that parses is as well formed as one the JSON reader accepts.
// The first error stops the parse: `FILE:LINE:COL: error: expected ...`.
// See docs/text-format.md for the grammar and TextPrinter.cpp for how each
// construct is spelled.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/text/TextFormat.h"
#include "pt2ir/text/TextSyntax.h"

#include "pt2ir/ir/Graph.h"
#include "pt2ir/ir/OperatorRegistry.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include <charconv>
#include <cmath>

namespace pt2ir {
using namespace text;

namespace {

struct Token {
  enum Kind { Eof, Ident, ValueName, GraphName, Int, Float, String, Punct, Bad };
  Kind kind = Eof;
  size_t pos = 0;
  size_t end = 0;
  /// The identifier, name, number text or punctuation.
  llvm::StringRef text;
  /// The decoded string of a String, ValueName or GraphName token: a slice
  /// of the input, or (when it had escapes) interned in the context.
  llvm::StringRef str;
  /// `str` is interned already (it had escapes).
  bool interned = false;
  bool is(char c) const { return kind == Punct && text.size() == 1 && text[0] == c; }
  bool isIdent(llvm::StringRef s) const { return kind == Ident && text == s; }
};

enum class Position { Use, Def, Detached };

/// A parsed list element or tagged body, before its union member is known.
struct Item {
  enum Kind { Ref, None, Int, Float, String, Bool, List, Graph };
  Kind kind = None;
  size_t pos = 0;
  llvm::StringRef str; // Ref / Graph name, string (stable: see Token::str)
  int64_t i = 0;
  double d = 0;
  bool b = false;
  ExtraFields extras;
  std::vector<Item> items;
};

class Parser {
public:
  Parser(llvm::StringRef text, const TextReadOptions &options, ExportedProgram &ep)
      : text(text), options(options), ep(ep), ctx(ep.getContext()), stridesCache(ctx) {}

  bool program();
  std::string takeError() { return std::move(error); }

private:
  //===--- Errors ---===//
  bool fail(size_t at, const llvm::Twine &msg) {
    if (!error.empty())
      return false;
    size_t line = 1, col = 1;
    for (size_t i = 0; i < at && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    error = (options.fileName + ":" + llvm::Twine(line) + ":" + llvm::Twine(col) +
             ": error: " + msg)
                .str();
    return false;
  }
  std::string describe(const Token &t) {
    switch (t.kind) {
    case Token::Eof: return "the end of the input";
    case Token::String: return "a string";
    case Token::Bad: return "'" + t.text.str() + "'";
    default: return "'" + t.text.str() + "'";
    }
  }
  bool expected(const llvm::Twine &what) {
    const Token &t = peek();
    if (t.kind == Token::Bad && !badReason.empty())
      return fail(t.pos, badReason);
    return fail(t.pos, "expected " + what + ", found " + describe(t));
  }

  //===--- Lexing ---===//
  void skipSpace(size_t &p) {
    while (p < text.size()) {
      char c = text[p];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        ++p;
      } else if (c == '/' && p + 1 < text.size() && text[p + 1] == '/') {
        while (p < text.size() && text[p] != '\n')
          ++p;
      } else {
        break;
      }
    }
  }
  bool lexString(size_t &p, llvm::StringRef &out, bool *interned = nullptr);
  bool followedBy(char c);
  std::string scratch;
  Token lex(size_t p);
  const Token &peek() {
    if (!peeked || peekedAt != pos) {
      cur = lex(pos);
      peeked = true;
      peekedAt = pos;
    }
    return cur;
  }
  const Token &peek2() {
    size_t save = pos;
    pos = peek().end;
    peek2Tok = lex(pos);
    pos = save;
    peeked = false;
    return peek2Tok;
  }
  Token next() {
    Token t = peek();
    pos = t.end;
    return t;
  }
  bool consume(char c) {
    if (!peek().is(c))
      return false;
    next();
    return true;
  }
  bool consumeIdent(llvm::StringRef s) {
    if (!peek().isIdent(s))
      return false;
    next();
    return true;
  }
  bool expect(char c) {
    if (consume(c))
      return true;
    return expected(llvm::Twine("'") + llvm::StringRef(&c, 1) + "'");
  }
  bool expectIdent(llvm::StringRef s) {
    if (consumeIdent(s))
      return true;
    return expected("'" + s + "'");
  }
  bool expectString(std::string &out, const char *what) {
    if (peek().kind != Token::String)
      return expected(what);
    out = next().str.str();
    return true;
  }
  llvm::StringRef intern(llvm::StringRef s) { return ctx.intern(s); }

  //===--- Pieces ---===//
  bool integer(int64_t &v, const char *what);
  bool floatOrInt(double &v);
  bool keyName(std::string &out, const char *what);
  bool extras(ExtraFields &e);
  bool maybeExtras(ExtraFields &e) { return !peek().isIdent("extra") || extras(e); }
  bool item(Item &it, Position posn, unsigned depth);
  bool torchEnum(ArgKind &kind, int64_t &v);
  bool deviceBody(Device &d, bool allowPair);
  bool argument(Argument &a, Position posn, unsigned depth, bool *untaggedDef = nullptr);
  bool tagged(Argument &a, ArgKind kind, Position posn, unsigned depth);
  bool fromItem(Argument &a, ArgKind kind, const Item &it);
  bool inferList(Argument &a, const Item &list, Position posn);
  bool symArgOf(SymArg &s, ArgKind single, const Item &it);
  bool symValue(SymValue &v);
  bool tensorType(TensorMeta &m);
  struct ParsedType {
    ValueMeta meta;
    bool any = false;
    std::optional<ValueType> first, named;
    bool objNameGiven = false;
    ValueType type() const { return named ? *named : first ? *first : ValueType::Tensor; }
  };
  bool valueType(ParsedType &t);
  bool defineTypes(Graph &g, Argument &a, const std::string &untaggedDef, size_t at,
                   std::vector<ParsedType> &types, size_t &next);
  void applyType(Value *v, ParsedType &t);
  bool graph(Graph &g, unsigned depth);
  bool node(Graph &g, unsigned depth);
  bool signature();
  bool inputSpec(InputSpec &s);
  bool outputSpec(OutputSpec &s);
  bool moduleCallGraph();
  bool rawLine(std::string &out, const char *what);
  bool rangeConstraints();
  ModuleCallEntry defaultRootEntry();

  llvm::StringRef text;
  const TextReadOptions &options;
  ExportedProgram &ep;
  IRContext &ctx;
  StridesCache stridesCache;
  /// Target spellings seen, with the target and its schema.
  llvm::DenseMap<llvm::StringRef, std::pair<llvm::StringRef, const OperatorSchema *>> targets;
  Graph *current = nullptr;
  size_t pos = 0;
  Token cur, peek2Tok;
  bool peeked = false;
  size_t peekedAt = 0;
  std::string error, badReason;
};

bool Parser::lexString(size_t &p, llvm::StringRef &result, bool *interned) {
  ++p; // opening quote
  size_t start = p;
  // Fast path: no escapes, the string is a slice of the input.
  while (p < text.size() && text[p] != '"' && text[p] != '\\' && text[p] != '\n')
    ++p;
  if (p < text.size() && text[p] == '"') {
    result = text.slice(start, p);
    ++p;
    return true;
  }
  std::string &out = scratch;
  out.assign(text.data() + start, p - start);
  while (p < text.size()) {
    char c = text[p];
    if (c == '"') {
      ++p;
      result = ctx.intern(out);
      if (interned)
        *interned = true;
      return true;
    }
    if (c == '\n') {
      badReason = "expected '\"' before the end of the line (a string cannot span lines; write \\n)";
      return false;
    }
    if (c != '\\') {
      out += c;
      ++p;
      continue;
    }
    if (p + 1 >= text.size())
      break;
    char e = text[p + 1];
    p += 2;
    switch (e) {
    case '"': out += '"'; break;
    case '\\': out += '\\'; break;
    case 'n': out += '\n'; break;
    case 't': out += '\t'; break;
    case 'r': out += '\r'; break;
    case 'x': {
      if (p + 2 > text.size() || !llvm::isHexDigit(text[p]) || !llvm::isHexDigit(text[p + 1])) {
        badReason = "expected two hex digits after \\x";
        return false;
      }
      out += static_cast<char>(llvm::hexDigitValue(text[p]) * 16 + llvm::hexDigitValue(text[p + 1]));
      p += 2;
      break;
    }
    default:
      badReason = "expected an escape (\\\" \\\\ \\n \\t \\r \\xHH) after '\\'";
      return false;
    }
  }
  badReason = "expected '\"' before the end of the input";
  return false;
}

Token Parser::lex(size_t p) {
  skipSpace(p);
  Token t;
  t.pos = p;
  badReason.clear();
  if (p >= text.size()) {
    t.end = p;
    return t;
  }
  char c = text[p];
  auto finish = [&](Token::Kind k, size_t end) {
    t.kind = k;
    t.end = end;
    t.text = text.slice(p, end);
    return t;
  };
  if (c == '"') {
    size_t q = p;
    if (!lexString(q, t.str, &t.interned))
      return finish(Token::Bad, std::min(q + 1, text.size()));
    return finish(Token::String, q);
  }
  if (c == '%' || c == '@') {
    Token::Kind k = c == '%' ? Token::ValueName : Token::GraphName;
    size_t q = p + 1;
    if (q < text.size() && text[q] == '"') {
      if (!lexString(q, t.str))
        return finish(Token::Bad, std::min(q + 1, text.size()));
      return finish(k, q);
    }
    while (q < text.size() && (llvm::isAlnum(text[q]) || text[q] == '_'))
      ++q;
    if (q == p + 1) {
      badReason = "expected a name after '" + std::string(1, c) + "'";
      return finish(Token::Bad, q);
    }
    t.str = text.slice(p + 1, q);
    return finish(k, q);
  }
  if (llvm::isDigit(c) || (c == '-' && p + 1 < text.size() &&
                           (llvm::isDigit(text[p + 1]) || text.substr(p + 1).starts_with("inf") ||
                            text.substr(p + 1).starts_with("nan")))) {
    size_t q = p + 1;
    if (c == '-' && !llvm::isDigit(text[q]))
      return finish(Token::Float, q + 3);
    bool isFloat = false;
    while (q < text.size() && llvm::isDigit(text[q]))
      ++q;
    if (q < text.size() && text[q] == '.') {
      isFloat = true;
      ++q;
      while (q < text.size() && llvm::isDigit(text[q]))
        ++q;
    }
    if (q < text.size() && (text[q] == 'e' || text[q] == 'E')) {
      size_t r = q + 1;
      if (r < text.size() && (text[r] == '+' || text[r] == '-'))
        ++r;
      if (r < text.size() && llvm::isDigit(text[r])) {
        isFloat = true;
        q = r;
        while (q < text.size() && llvm::isDigit(text[q]))
          ++q;
      }
    }
    return finish(isFloat ? Token::Float : Token::Int, q);
  }
  if (llvm::isAlpha(c) || c == '_' || c == '#') {
    size_t q = p + 1;
    while (q < text.size() && (llvm::isAlnum(text[q]) || text[q] == '_' || text[q] == '.' ||
                               (c == '#' && text[q] == ':')))
      ++q;
    return finish(Token::Ident, q);
  }
  if (c == '-' && p + 1 < text.size() && text[p + 1] == '>')
    return finish(Token::Punct, p + 2);
  if (llvm::StringRef("()[]{},=:&?").contains(c))
    return finish(Token::Punct, p + 1);
  badReason = "unexpected character '" + std::string(1, c) + "'";
  if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f)
    badReason = "unexpected byte 0x" + llvm::utohexstr(static_cast<unsigned char>(c));
  return finish(Token::Bad, p + 1);
}

/// Whether the first character after the next token (past white space and
/// comments) is `c`: a cheaper peek2().is(c) for one-character tokens.
bool Parser::followedBy(char c) {
  size_t p = peek().end;
  skipSpace(p);
  return p < text.size() && text[p] == c;
}

bool Parser::integer(int64_t &v, const char *what) {
  const Token &t = peek();
  if (t.kind != Token::Int)
    return expected(what);
  auto r = std::from_chars(t.text.begin(), t.text.end(), v);
  if (r.ec != std::errc() || r.ptr != t.text.end())
    return fail(t.pos, "integer out of range: " + t.text);
  next();
  return true;
}

static bool parseFloatText(llvm::StringRef s, double &v) {
  bool neg = s.consume_front("-");
  if (s == "inf" || s == "nan") {
    v = s == "inf" ? HUGE_VAL : std::nan("");
    if (neg)
      v = -v;
    return true;
  }
  auto r = std::from_chars(s.begin(), s.end(), v);
  if (r.ec == std::errc::result_out_of_range)
    return false;
  if (r.ec != std::errc() || r.ptr != s.end())
    return false;
  if (neg)
    v = -v;
  return true;
}

bool Parser::floatOrInt(double &v) {
  const Token &t = peek();
  if (t.kind == Token::Float || t.kind == Token::Int ||
      (t.kind == Token::Ident && (t.text == "inf" || t.text == "nan"))) {
    if (!parseFloatText(t.text, v))
      return fail(t.pos, "float out of range: " + t.text);
    next();
    return true;
  }
  return expected("a float");
}

bool Parser::keyName(std::string &out, const char *what) {
  const Token &t = peek();
  if (t.kind == Token::Ident) {
    out = t.text.str();
    next();
    return true;
  }
  if (t.kind == Token::String) {
    out = next().str.str();
    return true;
  }
  return expected(what);
}

bool Parser::extras(ExtraFields &e) {
  if (!expectIdent("extra") || !expect('['))
    return false;
  if (consume(']'))
    return true;
  do {
    int64_t after;
    std::string key, json;
    if (!expect('(') || !integer(after, "the index of the field it follows") || !expect(',') ||
        !expectString(key, "the key as a string") || !expect(',') ||
        !expectString(json, "the value's JSON as a string") || !expect(')'))
      return false;
    e.add(static_cast<int>(after), std::move(key), std::move(json));
  } while (consume(','));
  return expect(']');
}

bool Parser::item(Item &it, Position posn, unsigned depth) {
  if (depth > options.maxDepth)
    return fail(peek().pos, "nested too deeply (more than " + llvm::Twine(options.maxDepth) +
                                " levels)");
  const Token &t = peek();
  it.pos = t.pos;
  switch (t.kind) {
  case Token::ValueName:
    it.kind = Item::Ref;
    it.str = next().str;
    return maybeExtras(it.extras);
  case Token::GraphName:
    it.kind = Item::Graph;
    it.str = next().str;
    return maybeExtras(it.extras);
  case Token::Int: {
    it.kind = Item::Int;
    return integer(it.i, "an integer");
  }
  case Token::Float:
    it.kind = Item::Float;
    return floatOrInt(it.d);
  case Token::String:
    it.kind = Item::String;
    it.str = next().str;
    return true;
  case Token::Ident:
    if (t.text == "None") {
      next();
      it.kind = Item::None;
      return true;
    }
    if (t.text == "True" || t.text == "False") {
      it.kind = Item::Bool;
      it.b = next().text == "True";
      return true;
    }
    if (t.text == "inf" || t.text == "nan") {
      it.kind = Item::Float;
      return floatOrInt(it.d);
    }
    break;
  case Token::Punct:
    if (t.is('[')) {
      next();
      it.kind = Item::List;
      if (consume(']'))
        return true;
      do {
        it.items.emplace_back();
        if (!item(it.items.back(), posn, depth + 1))
          return false;
      } while (consume(','));
      return expect(']');
    }
    break;
  default:
    break;
  }
  return expected("an argument");
}

bool Parser::symArgOf(SymArg &s, ArgKind single, const Item &it) {
  if (it.kind == Item::Ref) {
    s = Argument::symRef(ctx, it.str);
    if (!it.extras.empty())
      ctx.setUseExtras(s.ref, it.extras);
    return true;
  }
  switch (single) {
  case ArgKind::SymInt:
    if (it.kind == Item::Int) {
      s.intValue = it.i;
      return true;
    }
    return fail(it.pos, "expected a sym int value or an integer");
  case ArgKind::SymBool:
    if (it.kind == Item::Bool) {
      s.boolValue = it.b;
      return true;
    }
    return fail(it.pos, "expected a sym bool value or True/False");
  default:
    if (it.kind == Item::Float || it.kind == Item::Int) {
      s.floatValue = it.kind == Item::Int ? double(it.i) : it.d;
      return true;
    }
    return fail(it.pos, "expected a sym float value or a float");
  }
}

/// Attaches the unknown keys parsed after a `%name` to its slot.
static void attach(IRContext &ctx, Use *u, const Item &it) {
  if (u && !it.extras.empty())
    ctx.setUseExtras(u, it.extras);
}

bool Parser::fromItem(Argument &a, ArgKind kind, const Item &it) {
  auto need = [&](Item::Kind k, const char *what) {
    return it.kind == k || fail(it.pos, llvm::Twine("expected ") + what + " for " +
                                           argKindMemberName(kind));
  };
  auto elems = [&](Item::Kind k, const char *what) {
    if (!need(Item::List, "a list"))
      return false;
    for (const Item &e : it.items)
      if (e.kind != k && !(k == Item::Float && e.kind == Item::Int))
        return fail(e.pos, llvm::Twine("expected ") + what + " in " + argKindMemberName(kind));
    return true;
  };
  switch (kind) {
  case ArgKind::None:
    if (!need(Item::None, "None"))
      return false;
    a = Argument::none();
    return true;
  case ArgKind::Tensor:
  case ArgKind::Token:
    if (!need(Item::Ref, "a %value"))
      return false;
    a = kind == ArgKind::Tensor ? Argument::tensor(ctx, it.str) : Argument::token(ctx, it.str);
    attach(ctx, a.getRef(), it);
    return true;
  case ArgKind::OptionalTensor:
    if (it.kind == Item::None) {
      a = Argument::optionalTensor(ctx, std::nullopt);
      return true;
    }
    if (!need(Item::Ref, "a %value or None"))
      return false;
    a = Argument::optionalTensor(ctx, llvm::StringRef(it.str));
    attach(ctx, a.getRef(), it);
    return true;
  case ArgKind::Tensors:
  case ArgKind::OptionalTensors: {
    if (!need(Item::List, "a list"))
      return false;
    std::vector<std::optional<llvm::StringRef>> names;
    for (const Item &e : it.items) {
      if (e.kind == Item::None && kind == ArgKind::OptionalTensors) {
        names.push_back(std::nullopt);
        continue;
      }
      if (e.kind != Item::Ref)
        return fail(e.pos, "expected a %value in a tensor list");
      names.push_back(llvm::StringRef(e.str));
    }
    if (kind == ArgKind::OptionalTensors) {
      a = Argument::optionalTensors(ctx, names);
    } else {
      std::vector<llvm::StringRef> plain;
      for (auto &n : names)
        plain.push_back(*n);
      a = Argument::tensors(ctx, plain);
    }
    for (size_t i = 0; i < it.items.size(); ++i)
      attach(ctx, a.getRefs()[i], it.items[i]);
    return true;
  }
  case ArgKind::NestedTensors: {
    if (!need(Item::List, "a list of lists"))
      return false;
    std::vector<std::vector<llvm::StringRef>> names;
    for (const Item &inner : it.items) {
      if (inner.kind != Item::List)
        return fail(inner.pos, "expected a list of %values");
      names.emplace_back();
      for (const Item &e : inner.items) {
        if (e.kind != Item::Ref)
          return fail(e.pos, "expected a %value");
        names.back().push_back(e.str);
      }
    }
    a = Argument::nestedTensors(ctx, names);
    for (size_t i = 0; i < it.items.size(); ++i)
      for (size_t j = 0; j < it.items[i].items.size(); ++j)
        attach(ctx, a.getNestedRefs()[i][j], it.items[i].items[j]);
    return true;
  }
  case ArgKind::Int:
    if (!need(Item::Int, "an integer"))
      return false;
    a = Argument::integer(it.i);
    return true;
  case ArgKind::Ints: {
    if (!elems(Item::Int, "integers"))
      return false;
    std::vector<int64_t> v;
    for (const Item &e : it.items)
      v.push_back(e.i);
    a = Argument::ints(std::move(v));
    return true;
  }
  case ArgKind::Float:
    if (it.kind != Item::Float && it.kind != Item::Int)
      return fail(it.pos, "expected a float");
    a = Argument::floating(it.kind == Item::Int ? double(it.i) : it.d);
    return true;
  case ArgKind::Floats: {
    if (!elems(Item::Float, "floats"))
      return false;
    std::vector<double> v;
    for (const Item &e : it.items)
      v.push_back(e.kind == Item::Int ? double(e.i) : e.d);
    a = Argument::floats(std::move(v));
    return true;
  }
  case ArgKind::String:
  case ArgKind::Operator:
    if (!need(Item::String, "a string"))
      return false;
    a = kind == ArgKind::String ? Argument::string(intern(it.str))
                                : Argument::operatorRef(intern(it.str));
    return true;
  case ArgKind::Strings: {
    if (!elems(Item::String, "strings"))
      return false;
    std::vector<llvm::StringRef> v;
    for (const Item &e : it.items)
      v.push_back(intern(e.str));
    a = Argument::strings(std::move(v));
    return true;
  }
  case ArgKind::Bool:
    if (!need(Item::Bool, "True or False"))
      return false;
    a = Argument::boolean(it.b);
    return true;
  case ArgKind::Bools: {
    if (!elems(Item::Bool, "True or False"))
      return false;
    std::vector<bool> v;
    for (const Item &e : it.items)
      v.push_back(e.b);
    a = Argument::bools(std::move(v));
    return true;
  }
  case ArgKind::SymInt:
  case ArgKind::SymBool:
  case ArgKind::SymFloat: {
    SymArg s;
    if (!symArgOf(s, kind, it))
      return false;
    a = Argument::sym(kind, s);
    return true;
  }
  case ArgKind::SymInts:
  case ArgKind::SymBools:
  case ArgKind::SymFloats: {
    if (!need(Item::List, "a list"))
      return false;
    ArgKind single = kind == ArgKind::SymInts    ? ArgKind::SymInt
                     : kind == ArgKind::SymBools ? ArgKind::SymBool
                                                 : ArgKind::SymFloat;
    std::vector<SymArg> v(it.items.size());
    for (size_t i = 0; i < it.items.size(); ++i)
      if (!symArgOf(v[i], single, it.items[i]))
        return false;
    a = Argument::symList(kind, std::move(v));
    return true;
  }
  case ArgKind::IntLists:
  case ArgKind::FloatLists: {
    if (!need(Item::List, "a list of lists"))
      return false;
    std::vector<std::vector<int64_t>> ints;
    std::vector<std::vector<double>> floats;
    for (const Item &inner : it.items) {
      if (inner.kind != Item::List)
        return fail(inner.pos, "expected a list");
      ints.emplace_back();
      floats.emplace_back();
      for (const Item &e : inner.items) {
        if (kind == ArgKind::IntLists && e.kind != Item::Int)
          return fail(e.pos, "expected an integer");
        if (kind == ArgKind::FloatLists && e.kind != Item::Float && e.kind != Item::Int)
          return fail(e.pos, "expected a float");
        ints.back().push_back(e.i);
        floats.back().push_back(e.kind == Item::Int ? double(e.i) : e.d);
      }
    }
    a = kind == ArgKind::IntLists ? Argument::intLists(std::move(ints))
                                  : Argument::floatLists(std::move(floats));
    return true;
  }
  case ArgKind::Graph: {
    if (!need(Item::Graph, "a @subgraph"))
      return false;
    a = Argument::graph(intern(it.str), nullptr);
    a.getGraphArg().extras = it.extras;
    return true;
  }
  default:
    return fail(it.pos, llvm::Twine("cannot write ") + argKindMemberName(kind) + " this way");
  }
}

/// The member an untagged list reads as (see TextPrinter.cpp isNatural).
bool Parser::inferList(Argument &a, const Item &list, Position posn) {
  bool anyRef = false, anyNone = false, anyInt = false, anyFloat = false, anyString = false,
       anyBool = false, anyOther = false, allSymIntRefs = true, allTensorRefs = true;
  for (const Item &e : list.items) {
    switch (e.kind) {
    case Item::Ref: {
      anyRef = true;
      Value *v = posn == Position::Use && current ? current->lookupValue(e.str) : nullptr;
      if (posn == Position::Use && !v)
        return fail(e.pos, "use of undefined value '%" + e.str + "'");
      ValueType t = v ? v->getType() : ValueType::Tensor;
      allSymIntRefs &= t == ValueType::SymInt;
      allTensorRefs &= t == ValueType::Tensor;
      break;
    }
    case Item::None: anyNone = true; break;
    case Item::Int: anyInt = true; break;
    case Item::Float: anyFloat = true; break;
    case Item::String: anyString = true; break;
    case Item::Bool: anyBool = true; break;
    default: anyOther = true; break;
    }
  }
  if (anyOther)
    return fail(list.pos, "a nested list needs its kind: as_int_lists([...]), "
                          "as_float_lists([...]) or as_nested_tensors([...])");
  int groups = anyRef + anyNone + anyInt + anyFloat + anyString + anyBool;
  if (list.items.empty() || (groups == 1 && anyInt))
    return fromItem(a, ArgKind::Ints, list);
  if (anyRef && allSymIntRefs && posn == Position::Use && !anyNone && groups <= 2 &&
      (groups == 1 || anyInt))
    return fromItem(a, ArgKind::SymInts, list);
  if (groups == 1 && anyFloat)
    return fromItem(a, ArgKind::Floats, list);
  if (groups == 1 && anyString)
    return fromItem(a, ArgKind::Strings, list);
  if (groups == 1 && anyBool)
    return fromItem(a, ArgKind::Bools, list);
  if (anyRef && allTensorRefs && groups == 1)
    return fromItem(a, ArgKind::Tensors, list);
  if (anyNone && groups <= 2 && (groups == 1 || (anyRef && allTensorRefs)))
    return fromItem(a, ArgKind::OptionalTensors, list);
  return fail(list.pos, "cannot tell what kind of list this is; tag it, e.g. as_floats([...]) "
                        "or as_sym_ints([...])");
}

bool Parser::torchEnum(ArgKind &kind, int64_t &v) {
  const Token &t = peek();
  llvm::StringRef name = t.text.drop_front(6);
  for (int64_t i = 0; i < 64; ++i) {
    if (!name.empty() && scalarTypeTorchName(i) == name) {
      kind = ArgKind::ScalarType;
      v = i;
      next();
      return true;
    }
    if (!torchMemoryFormatName(i).empty() && torchMemoryFormatName(i) == name) {
      kind = ArgKind::MemoryFormat;
      v = i;
      next();
      return true;
    }
    if (!torchLayoutName(i).empty() && torchLayoutName(i) == name) {
      kind = ArgKind::Layout;
      v = i;
      next();
      return true;
    }
  }
  return fail(t.pos, "unknown dtype, memory format or layout '" + t.text + "'");
}

bool Parser::deviceBody(Device &d, bool allowPair) {
  std::string s;
  if (!expectString(s, "a device string such as \"cuda:0\""))
    return false;
  if (allowPair && consume(',')) {
    d.type = intern(s);
    if (consumeIdent("None"))
      d.index = std::nullopt;
    else {
      int64_t i;
      if (!integer(i, "a device index or None"))
        return false;
      d.index = i;
    }
  } else {
    llvm::StringRef type = s, index;
    size_t colon = type.find(':');
    if (colon != llvm::StringRef::npos) {
      index = type.substr(colon + 1);
      type = type.take_front(colon);
      int64_t i;
      if (index.getAsInteger(10, i))
        return fail(peek().pos, "expected a device index after ':' in \"" + s + "\"");
      d.index = i;
    }
    d.type = intern(type);
  }
  return maybeExtras(d.extras);
}

bool Parser::argument(Argument &a, Position posn, unsigned depth, bool *untaggedDef) {
  if (depth > options.maxDepth)
    return fail(peek().pos, "nested too deeply");
  const Token &t = peek();
  if (t.kind == Token::Ident) {
    llvm::StringRef id = t.text;
    if (id.starts_with("as_") && followedBy('(')) {
      ArgKind kind;
      size_t at = t.pos;
      std::string name = id.str();
      next();
      next();
      if (name == "as_token")
        kind = ArgKind::Token;
      else if (name == "as_unknown") {
        std::string key, json;
        if (!expectString(key, "the member name") || !expect(',') ||
            !expectString(json, "the member's JSON") || !expect(')'))
          return false;
        a = Argument::unknown(std::move(key), std::move(json));
        return true;
      } else if (!argKindFromMemberName(name, kind))
        return fail(at, "unknown argument kind '" + name + "'");
      return tagged(a, kind, posn, depth) && expect(')');
    }
    if (id.starts_with("torch.")) {
      ArgKind kind;
      int64_t v;
      if (!torchEnum(kind, v))
        return false;
      a = kind == ArgKind::ScalarType     ? Argument::scalarType(v)
          : kind == ArgKind::MemoryFormat ? Argument::memoryFormat(v)
                                          : Argument::layout(v);
      return true;
    }
    if (id == "device" && followedBy('(')) {
      next();
      next();
      Device d;
      if (!deviceBody(d, true) || !expect(')'))
        return false;
      a = Argument::device(std::move(d));
      return true;
    }
    if (id == "complex" && followedBy('(')) {
      next();
      next();
      double re, im;
      if (!floatOrInt(re) || !expect(',') || !floatOrInt(im) || !expect(')'))
        return false;
      ExtraFields e;
      if (!maybeExtras(e))
        return false;
      a = Argument::complex(re, im, std::move(e));
      return true;
    }
    if (isBareTarget(id) && id != "None") {
      a = Argument::operatorRef(intern(targetFromSpelling(id)));
      next();
      return true;
    }
  }
  if (t.is('{')) {
    next();
    Argument::StringMap map;
    if (!consume('}')) {
      do {
        std::string key;
        if (!expectString(key, "a string key"))
          return false;
        if (!expect(':'))
          return false;
        Argument v;
        if (!argument(v, posn, depth + 1))
          return false;
        map.emplace_back(intern(key), std::move(v));
      } while (consume(','));
      if (!expect('}'))
        return false;
    }
    a = Argument::stringToArgument(std::move(map));
    return true;
  }
  Item it;
  if (!item(it, posn, depth + 1))
    return false;
  switch (it.kind) {
  case Item::Ref: {
    if (posn == Position::Use) {
      Value *v = current ? current->lookupValue(it.str) : nullptr;
      if (!v)
        return fail(it.pos, "use of undefined value '%" + it.str + "'");
      switch (v->getType()) {
      case ValueType::Tensor: return fromItem(a, ArgKind::Tensor, it);
      case ValueType::SymInt: return fromItem(a, ArgKind::SymInt, it);
      case ValueType::SymBool: return fromItem(a, ArgKind::SymBool, it);
      case ValueType::SymFloat: return fromItem(a, ArgKind::SymFloat, it);
      case ValueType::CustomObj:
        return fail(it.pos, "a custom object is passed as as_custom_obj(%" + it.str +
                                ", \"class\")");
      }
    }
    if (untaggedDef)
      *untaggedDef = true;
    return fromItem(a, ArgKind::Tensor, it);
  }
  case Item::None: a = Argument::none(); return true;
  case Item::Int: a = Argument::integer(it.i); return true;
  case Item::Float: a = Argument::floating(it.d); return true;
  case Item::String: a = Argument::string(intern(it.str)); return true;
  case Item::Bool: a = Argument::boolean(it.b); return true;
  case Item::List: return inferList(a, it, posn);
  case Item::Graph: return fromItem(a, ArgKind::Graph, it);
  }
  return false;
}

bool Parser::tagged(Argument &a, ArgKind kind, Position posn, unsigned depth) {
  switch (kind) {
  case ArgKind::CustomObj: {
    Item it;
    std::string cls;
    if (!item(it, posn, depth + 1))
      return false;
    if (it.kind != Item::Ref)
      return fail(it.pos, "expected a %value for as_custom_obj");
    if (!expect(',') || !expectString(cls, "the class name"))
      return false;
    a = Argument::customObj(ctx, it.str, intern(cls));
    attach(ctx, a.getCustomObj().ref, it);
    return true;
  }
  case ArgKind::Operator: {
    std::string s;
    if (peek().kind == Token::Ident && isBareTarget(peek().text)) {
      a = Argument::operatorRef(intern(targetFromSpelling(next().text)));
      return true;
    }
    if (!expectString(s, "an operator name"))
      return false;
    a = Argument::operatorRef(intern(s));
    return true;
  }
  case ArgKind::ScalarType:
  case ArgKind::MemoryFormat:
  case ArgKind::Layout:
  case ArgKind::Device:
  case ArgKind::Complex:
  case ArgKind::StringToArgument: {
    if (!argument(a, posn, depth + 1))
      return false;
    if (a.getKind() != kind)
      return fail(peek().pos, llvm::Twine("expected a ") + argKindMemberName(kind) + " value");
    return true;
  }
  default: {
    Item it;
    return item(it, posn, depth + 1) && fromItem(a, kind, it);
  }
  }
}

bool Parser::symValue(SymValue &v) {
  const Token &t = peek();
  if (t.kind == Token::String) {
    v.kind = SymValue::Kind::Expr;
    v.expr.exprStr = intern(next().str);
  } else {
    size_t start = t.pos;
    size_t end = scanExpr(text, start);
    llvm::StringRef s = text.slice(start, end).rtrim(" \t");
    if (s.empty())
      return expected("a size, an expression or a constant");
    int64_t i;
    double d;
    bool isInt = !s.empty() && (llvm::isDigit(s[0]) || (s[0] == '-' && s.size() > 1 &&
                                                        llvm::isDigit(s[1])));
    if (s == "True" || s == "False") {
      v.kind = SymValue::Kind::Bool;
      v.boolValue = s == "True";
    } else if (isInt && std::from_chars(s.begin(), s.end(), i).ptr == s.end() &&
               std::from_chars(s.begin(), s.end(), i).ec == std::errc()) {
      v.kind = SymValue::Kind::Int;
      v.intValue = i;
    } else if ((isInt || s == "inf" || s == "-inf" || s == "nan" || s == "-nan") &&
               parseFloatText(s, d) && (s.contains('.') || s.contains('e') || s.contains('E') ||
                                        s.contains("inf") || s.contains("nan"))) {
      v.kind = SymValue::Kind::Float;
      v.floatValue = d;
    } else if (isInt && std::from_chars(s.begin(), s.end(), i).ec == std::errc::result_out_of_range) {
      return fail(start, "integer out of range: " + s);
    } else if (isInt || s[0] == '.') {
      return fail(start, "expected a number, found '" + s +
                             "' (an expression that starts like a number is quoted: \"" + s +
                             "\")");
    } else {
      v.kind = SymValue::Kind::Expr;
      v.expr.exprStr = intern(s);
    }
    pos = start + s.size();
    peeked = false;
  }
  if (v.kind != SymValue::Kind::Expr || !peek().is('{'))
    return true;
  // `{hint=..., extra[...]}` right after an expression.
  next();
  bool first = true;
  while (!peek().is('}')) {
    if (!first && !expect(','))
      return false;
    first = false;
    if (consumeIdent("hint")) {
      if (!expect('='))
        return false;
      SymExprHint h;
      const Token &ht = peek();
      if (ht.kind == Token::Int) {
        h.kind = SymExprHint::Kind::Int;
        if (!integer(h.intValue, "an integer"))
          return false;
      } else if (ht.isIdent("True") || ht.isIdent("False")) {
        h.kind = SymExprHint::Kind::Bool;
        h.boolValue = next().text == "True";
      } else {
        h.kind = SymExprHint::Kind::Float;
        if (!floatOrInt(h.floatValue))
          return false;
      }
      v.expr.hint = h;
    } else if (peek().isIdent("extra")) {
      if (!extras(v.expr.extras))
        return false;
    } else {
      return expected("'hint=' or 'extra[...]'");
    }
  }
  return expect('}');
}

bool Parser::tensorType(TensorMeta &m) {
  Token t = next();
  auto dtype = scalarTypeFromShortName(t.text);
  if (!dtype)
    return fail(t.pos, "unknown dtype '" + t.text + "' (f32, i64, bf16, ...)");
  m.dtype = ScalarType(*dtype);
  m.device.type = intern("cpu");
  m.storageOffset = SymValue::ofInt(0);
  if (!expect('['))
    return false;
  if (!consume(']')) {
    do {
      m.sizes.emplace_back();
      if (!symValue(m.sizes.back()))
        return false;
    } while (consume(','));
    if (!expect(']'))
      return false;
  }
  bool haveStrides = false;
  if (consume('{')) {
    bool first = true;
    while (!peek().is('}')) {
      if (!first && !expect(','))
        return false;
      first = false;
      if (peek().isIdent("extra")) {
        if (!extras(m.extras))
          return false;
        continue;
      }
      Token key = peek();
      if (key.kind != Token::Ident)
        return expected("a tensor attribute (strides, offset, device, layout, requires_grad)");
      next();
      if (!expect('='))
        return false;
      if (key.text == "strides") {
        haveStrides = true;
        if (!expect('['))
          return false;
        if (!consume(']')) {
          do {
            m.strides.emplace_back();
            if (!symValue(m.strides.back()))
              return false;
          } while (consume(','));
          if (!expect(']'))
            return false;
        }
      } else if (key.text == "offset") {
        if (!symValue(m.storageOffset))
          return false;
      } else if (key.text == "device") {
        bool paren = consume('(');
        if (!deviceBody(m.device, paren) || (paren && !expect(')')))
          return false;
      } else if (key.text == "layout") {
        ArgKind k;
        int64_t v;
        if (peek().kind != Token::Ident || !peek().text.starts_with("torch."))
          return expected("a layout such as torch.sparse_coo");
        if (!torchEnum(k, v))
          return false;
        if (k != ArgKind::Layout)
          return fail(key.pos, "expected a layout");
        m.layout = Layout(v);
      } else if (key.text == "requires_grad") {
        if (!peek().isIdent("True") && !peek().isIdent("False"))
          return expected("True or False");
        m.requiresGrad = next().text == "True";
      } else {
        return fail(key.pos, "unknown tensor attribute '" + key.text +
                                 "' (strides, offset, device, layout, requires_grad)");
      }
    }
    next();
  }
  if (!haveStrides) {
    const auto &strides = stridesCache.get(m);
    if (!strides)
      return fail(t.pos, "cannot compute the default strides of this shape; write strides=[...]");
    m.strides = *strides;
  }
  return true;
}

bool Parser::valueType(ParsedType &t) {
  do {
    const Token &tok = peek();
    if (tok.kind != Token::Ident)
      return expected("a type (f32[2, 3], SymInt(s0), obj(\"cls\"), Tensor, ...)");
    llvm::StringRef id = tok.text;
    ValueType vt;
    // A bare type name ends the type even when the next line starts with
    // `[` (a node whose results are a list).
    bool bareName = id == "Tensor" || id == "SymInt" || id == "SymBool" ||
                    id == "SymFloat" || id == "CustomObj";
    if (scalarTypeFromShortName(id) || (!bareName && followedBy('['))) {
      auto m = std::make_unique<TensorMeta>();
      if (!tensorType(*m))
        return false;
      if (t.meta.tensor)
        return fail(tok.pos, "two tensor types for one value");
      t.meta.tensor = std::move(m);
      vt = ValueType::Tensor;
    } else if ((id == "SymInt" || id == "SymBool" || id == "SymFloat") && followedBy('(')) {
      next();
      next();
      auto s = std::make_unique<SymValue>();
      if (!symValue(*s) || !expect(')'))
        return false;
      auto &slot = id == "SymInt" ? t.meta.symInt : id == "SymBool" ? t.meta.symBool : t.meta.symFloat;
      if (slot)
        return fail(tok.pos, "two " + id + " types for one value");
      slot = std::move(s);
      vt = id == "SymInt" ? ValueType::SymInt : id == "SymBool" ? ValueType::SymBool : ValueType::SymFloat;
    } else if (id == "obj" && followedBy('(')) {
      next();
      next();
      std::string cls, objName;
      if (!expectString(cls, "the class name"))
        return false;
      if (consume(',')) {
        if (!expectString(objName, "the object's name"))
          return false;
        t.objNameGiven = true;
        t.meta.customObjName = intern(objName);
      }
      if (!maybeExtras(t.meta.customObjExtras) || !expect(')'))
        return false;
      t.meta.hasCustomObj = true;
      t.meta.customObjClass = intern(cls);
      vt = ValueType::CustomObj;
    } else if (bareName) {
      next();
      t.named = id == "Tensor"    ? ValueType::Tensor
                : id == "SymInt"  ? ValueType::SymInt
                : id == "SymBool" ? ValueType::SymBool
                : id == "SymFloat" ? ValueType::SymFloat
                                   : ValueType::CustomObj;
      continue;
    } else {
      return fail(tok.pos, "expected a type (f32[2, 3], SymInt(s0), obj(\"cls\"), Tensor, ...), "
                           "found '" + id + "'");
    }
    t.any = true;
    if (!t.first)
      t.first = vt;
  } while (consume('&'));
  return true;
}

void Parser::applyType(Value *v, ParsedType &t) {
  if (!t.any)
    return;
  ValueMeta &m = v->getOrCreateMeta();
  if (t.meta.tensor)
    m.tensor = std::move(t.meta.tensor);
  if (t.meta.symInt)
    m.symInt = std::move(t.meta.symInt);
  if (t.meta.symBool)
    m.symBool = std::move(t.meta.symBool);
  if (t.meta.symFloat)
    m.symFloat = std::move(t.meta.symFloat);
  if (t.meta.hasCustomObj) {
    m.hasCustomObj = true;
    m.customObjClass = t.meta.customObjClass;
    m.customObjName = t.objNameGiven ? t.meta.customObjName : v->getName();
    m.customObjExtras = std::move(t.meta.customObjExtras);
  }
}

/// Rebuilds an untagged `%x` definition as the member its type says.
static void retypeDef(IRContext &ctx, Argument &a, ValueType type) {
  if (type == ValueType::Tensor || a.getKind() != ArgKind::Tensor)
    return;
  Use *old = a.getRef();
  std::string name = old->getName().str();
  ExtraFields extras;
  if (const ExtraFields *e = ctx.getUseExtras(old))
    extras = *e;
  if (type == ValueType::CustomObj)
    return;
  ArgKind kind = type == ValueType::SymInt    ? ArgKind::SymInt
                 : type == ValueType::SymBool ? ArgKind::SymBool
                                              : ArgKind::SymFloat;
  if (!extras.empty())
    ctx.setUseExtras(old, {});
  a = Argument::sym(kind, Argument::symRef(ctx, name));
  if (!extras.empty())
    ctx.setUseExtras(a.getSym().ref, std::move(extras));
}

bool Parser::graph(Graph &g, unsigned depth) {
  if (depth > options.maxDepth)
    return fail(peek().pos, "subgraphs nested too deeply (more than " +
                                llvm::Twine(options.maxDepth) + " levels)");
  Graph *saved = current;
  current = &g;
  llvm::DenseMap<llvm::StringRef, Value *> tableOnly;
  std::vector<Value *> tableOnlyInOrder;
  bool orderGiven[5] = {false, false, false, false, false};
  if (!expect('('))
    return false;
  if (!consume(')')) {
    do {
      size_t at = peek().pos;
      Argument a;
      bool untagged = false;
      if (!argument(a, Position::Def, depth + 1, &untagged))
        return false;
      std::vector<ParsedType> types;
      size_t defs = 0;
      a.forEachUse([&](Use *) { ++defs; });
      if (defs && consume(':')) {
        bool paren = defs > 1 && consume('(');
        for (size_t i = 0; i < defs; ++i) {
          if (i && !expect(','))
            return false;
          types.emplace_back();
          if (!valueType(types.back()))
            return false;
        }
        if (paren && !expect(')'))
          return false;
      }
      if (untagged && !types.empty())
        retypeDef(ctx, a, types[0].type());
      llvm::SmallVector<llvm::StringRef, 2> names;
      a.forEachUse([&](Use *u) { names.push_back(u->getName()); });
      if (auto err = g.addInput(std::move(a)))
        return fail(at, llvm::toString(std::move(err)));
      for (size_t i = 0; i < types.size() && i < names.size(); ++i)
        applyType(g.lookupValue(names[i]), types[i]);
    } while (consume(','));
    if (!expect(')'))
      return false;
  }
  if (!expect('{'))
    return false;
  while (true) {
    const Token &t = peek();
    if (t.isIdent("return")) {
      next();
      size_t i = 0;
      if (!peek().is('}')) {
        do {
          size_t at = peek().pos;
          Argument a;
          if (!argument(a, Position::Use, depth + 1))
            return false;
          if (auto err = g.addOutput(std::move(a)))
            return fail(at, llvm::toString(std::move(err)));
          ++i;
        } while (consume(','));
      }
      if (!expect('}'))
        return false;
      break;
    }
    if (t.isIdent("table_only")) {
      next();
      const Token &n = peek();
      if (n.kind != Token::ValueName)
        return expected("a %value");
      Token nameTok = next();
      ParsedType type;
      if (!expect(':') || !valueType(type))
        return false;
      if (g.isNameUsed(nameTok.str))
        return fail(nameTok.pos, "'%" + nameTok.str + "' is already defined");
      Value *v = g.createTableOnlyValue(intern(nameTok.str), type.type());
      applyType(v, type);
      tableOnly[v->getName()] = v;
      tableOnlyInOrder.push_back(v);
      continue;
    }
    if (t.isIdent("order")) {
      next();
      static const char *const Tables[] = {"tensor_values", "sym_int_values", "sym_bool_values",
                                           "custom_obj_values", "sym_float_values"};
      const Token &tn = peek();
      int table = -1;
      for (int i = 0; i < 5; ++i)
        if (tn.isIdent(Tables[i]))
          table = i;
      if (table < 0)
        return expected("a table name (tensor_values, sym_int_values, ...)");
      next();
      std::vector<Value *> order;
      if (!expect('['))
        return false;
      if (!consume(']')) {
        do {
          const Token &vt = peek();
          if (vt.kind != Token::ValueName)
            return expected("a %value");
          Value *v = g.lookupValue(vt.str);
          if (!v) {
            auto it = tableOnly.find(vt.str);
            v = it == tableOnly.end() ? nullptr : it->second;
          }
          if (!v)
            return fail(vt.pos, "use of undefined value '%" + vt.str + "'");
          order.push_back(v);
          next();
        } while (consume(','));
        if (!expect(']'))
          return false;
      }
      g.setExplicitTableOrder(ValueTable(table), std::move(order));
      orderGiven[table] = true;
      continue;
    }
    if (t.isIdent("single_tensor_return")) {
      next();
      g.setSingleTensorReturn(true);
      continue;
    }
    if (t.isIdent("graph") && peek2().isIdent("extra")) {
      next();
      if (!extras(g.getExtras()))
        return false;
      continue;
    }
    if (t.kind == Token::Eof || t.is('}'))
      return expected("a node or 'return'");
    if (!node(g, depth))
      return false;
  }
  // Table-only entries no `order` line places follow the defined values.
  if (!tableOnlyInOrder.empty())
    for (int table = 0; table < 5; ++table) {
      if (orderGiven[table])
        continue;
      std::vector<Value *> order = g.getTableEntries(ValueTable(table));
      order.insert(order.end(), tableOnlyInOrder.begin(), tableOnlyInOrder.end());
      g.setExplicitTableOrder(ValueTable(table), std::move(order));
    }
  current = saved;
  return true;
}

bool Parser::node(Graph &g, unsigned depth) {
  NodeSpec spec;
  size_t at = peek().pos;
  const OperatorSchema *schema = nullptr;
  bool schemaLooked = false;
  llvm::SmallVector<bool, 2> untagged;
  // Results, when the statement does not start with its target.
  const Token &first = peek();
  bool hasResults = first.kind == Token::ValueName || first.is('[') || first.isIdent("_") ||
                    (first.kind == Token::Ident && isIdentifier(first.text) &&
                     first.text.starts_with("as_") && followedBy('(')) ||
                    first.isIdent("None");
  if (hasResults) {
    do {
      if (consumeIdent("_")) {
        spec.outputs.push_back(Argument::none());
        untagged.push_back(false);
        continue;
      }
      Argument a;
      bool isUntagged = false;
      if (!argument(a, Position::Def, depth + 1, &isUntagged))
        return false;
      untagged.push_back(isUntagged);
      spec.outputs.push_back(std::move(a));
    } while (consume(','));
    if (!expect('='))
      return false;
  }
  const Token &tt = peek();
  if (tt.kind == Token::String) {
    spec.target = intern(tt.str);
    std::string problem = ep.getRegistry().extensionTargetProblem(spec.target);
    if (!problem.empty())
      return fail(tt.pos, problem);
    next();
  } else if (tt.kind == Token::Ident && isBareTarget(tt.text)) {
    // Programs call few operators many times: remember each spelling.
    auto [it, inserted] = targets.try_emplace(tt.text);
    if (inserted) {
      it->second.first = intern(targetFromSpelling(tt.text));
      std::string problem = ep.getRegistry().extensionTargetProblem(it->second.first);
      if (!problem.empty()) {
        targets.erase(it);
        return fail(tt.pos, problem);
      }
      it->second.second = ep.getRegistry().getOperators().lookupTarget(it->second.first);
    }
    spec.target = it->second.first;
    schema = it->second.second;
    schemaLooked = true;
    next();
  }
  else
    return expected(hasResults ? "an operator (aten.relu.default, \"target\")"
                               : "a node, 'return' or '}'");
  if (!expect('('))
    return false;
  if (!consume(')')) {
    size_t index = 0;
    do {
      NamedArgument na;
      const Token &t = peek();
      if (t.kind == Token::Ident && isIdentifier(t.text) && (followedBy('=') || followedBy(':'))) {
        na.name = intern(t.text);
        next();
        na.kind = next().is('=') ? 2 : 1;
        if (!argument(na.arg, Position::Use, depth + 1))
          return false;
      } else if (t.isIdent("arg") && followedBy('(')) {
        next();
        next();
        std::string name;
        if (!expectString(name, "the argument name") || !expect(',') ||
            !argument(na.arg, Position::Use, depth + 1) || !expect(','))
          return false;
        na.name = intern(name);
        if (!consumeIdent("None")) {
          int64_t k;
          if (!integer(k, "the argument kind (an integer) or None"))
            return false;
          na.kind = k;
        }
        if (!expect(')'))
          return false;
      } else {
        if (!schemaLooked) {
          schema = ep.getRegistry().getOperators().lookupTarget(spec.target);
          schemaLooked = true;
        }
        auto name = positionalName(schema, spec.target, index);
        if (!name)
          return fail(t.pos, "'" + spec.target + "' has no positional argument " +
                                 llvm::Twine(index) + "; name it (name=value)");
        na.name = intern(*name);
        na.kind = 1;
        if (!argument(na.arg, Position::Use, depth + 1))
          return false;
      }
      if (!maybeExtras(na.extras))
        return false;
      spec.inputs.push_back(std::move(na));
      ++index;
    } while (consume(','));
    if (!expect(')'))
      return false;
  }
  // Result types, one per defined value.
  size_t defs = 0;
  for (const Argument &o : spec.outputs)
    o.forEachUse([&](Use *) { ++defs; });
  std::vector<ParsedType> types;
  size_t typesAt = peek().pos;
  if (consume(':')) {
    typesAt = peek().pos;
    do {
      types.emplace_back();
      if (!valueType(types.back()))
        return false;
    } while (consume(','));
    if (!defs && types.size() != 1)
      return fail(typesAt, "expected one result type for a node without results, found " +
                               llvm::Twine(types.size()));
    if (!defs) {
      // An unnamed result: name it after the operator.
      llvm::StringRef base = spec.target;
      base.consume_front("torch.ops.");
      base = base.rsplit('.').first;
      base = base.rsplit('.').second.empty() ? base : base.rsplit('.').second;
      std::string clean;
      for (char c : base)
        clean += llvm::isAlnum(c) ? c : '_';
      llvm::StringRef name = g.uniqueName(clean.empty() ? "v" : clean);
      spec.outputs.push_back(Argument::tensor(ctx, name));
      untagged.push_back(true);
      defs = 1;
    }
  }
  // Retype untagged single defs by their types.
  {
    size_t ti = 0;
    for (size_t i = 0; i < spec.outputs.size(); ++i) {
      size_t n = 0;
      spec.outputs[i].forEachUse([&](Use *) { ++n; });
      if (i < untagged.size() && untagged[i] && ti < types.size())
        retypeDef(ctx, spec.outputs[i], types[ti].type());
      ti += n;
    }
  }
  std::optional<llvm::StringRef> natural;
  for (const Argument &o : spec.outputs) {
    if (natural)
      break;
    o.forEachUse([&](Use *u) {
      if (!natural)
        natural = u->getName();
    });
  }
  spec.name = natural;
  // Node fields.
  while (true) {
    const Token &t = peek();
    if (t.isIdent("name") && followedBy('(')) {
      next();
      next();
      if (consumeIdent("None")) {
        spec.name = std::nullopt;
      } else {
        std::string n;
        if (!expectString(n, "the node name or None"))
          return false;
        spec.name = intern(n);
      }
      if (!expect(')'))
        return false;
    } else if (t.isIdent("hop_single_tensor_return") && followedBy('(')) {
      next();
      next();
      if (!peek().isIdent("True") && !peek().isIdent("False"))
        return expected("True or False");
      spec.isHopSingleTensorReturn = next().text == "True";
      if (!expect(')'))
        return false;
    } else if (t.isIdent("extra") && followedBy('[')) {
      if (!extras(spec.extras))
        return false;
    } else if (t.isIdent("meta") && followedBy('{')) {
      next();
      next();
      if (!consume('}')) {
        do {
          const Token &k = peek();
          if (k.kind != Token::Ident && k.kind != Token::String)
            return expected("a metadata key");
          llvm::StringRef key = intern(k.kind == Token::Ident ? k.text : k.str);
          next();
          if (!expect('='))
            return false;
          const Token &v = peek();
          if (v.kind != Token::String)
            return expected("the metadata value as a string");
          llvm::StringRef value = v.interned ? v.str : intern(v.str);
          next();
          spec.metadata.emplace_back(key, value);
        } while (consume(','));
        if (!expect('}'))
          return false;
      }
    } else {
      break;
    }
  }
  // Subgraph bodies follow in the order of the node's graph arguments.
  for (NamedArgument &na : spec.inputs) {
    if (na.arg.getKind() != ArgKind::Graph)
      continue;
    Argument::GraphArg &ga = na.arg.getGraphArg();
    const Token &t = peek();
    if (t.kind != Token::GraphName || t.str != ga.name)
      return expected("the body of subgraph '@" + ga.name + "'");
    next();
    auto sub = std::make_unique<Graph>(ctx);
    if (!graph(*sub, depth + 1))
      return false;
    ga.graph = std::move(sub);
  }
  // Values get their types after the node defines them.
  llvm::SmallVector<llvm::StringRef, 2> names;
  for (const Argument &o : spec.outputs)
    o.forEachUse([&](Use *u) { names.push_back(u->getName()); });
  if (!types.empty() && types.size() != names.size())
    return fail(typesAt, "expected " + llvm::Twine(names.size()) + " result type" +
                             (names.size() == 1 ? "" : "s") + ", found " +
                             llvm::Twine(types.size()));
  auto created = g.appendNode(std::move(spec));
  if (!created)
    return fail(at, llvm::toString(created.takeError()));
  for (size_t i = 0; i < types.size(); ++i)
    applyType(g.lookupValue(names[i]), types[i]);
  return true;
}

bool Parser::inputSpec(InputSpec &s) {
  if (peek().isIdent("unknown") && peek2().kind == Token::String) {
    next();
    s.kind = InputKind::Unknown;
    return expectString(s.unknownKey, "the member name") &&
           expectString(s.unknownJson, "the member's JSON") && maybeExtras(s.extras);
  }
  if (peek().kind == Token::String) {
    s.kind = InputKind::ConstantInput;
    s.target = intern(next().str);
    if (!expect('=') || !argument(s.arg, Position::Detached, 1) || !expect(':') ||
        !expectIdent("constant_input"))
      return false;
    return maybeExtras(s.extras);
  }
  Argument a;
  size_t at = peek().pos;
  if (!argument(a, Position::Detached, 1) || !expect(':'))
    return false;
  const Token &k = peek();
  static const InputKind Kinds[] = {InputKind::UserInput, InputKind::Parameter,
                                    InputKind::Buffer,    InputKind::TensorConstant,
                                    InputKind::CustomObj, InputKind::Token};
  bool known = false;
  for (InputKind kind : Kinds)
    if (k.isIdent(inputKindMemberName(kind))) {
      s.kind = kind;
      known = true;
    }
  if (!known)
    return expected("an input kind (user_input, parameter, buffer, tensor_constant, "
                    "custom_obj, token)");
  next();
  if (s.kind == InputKind::UserInput) {
    s.arg = std::move(a);
    return maybeExtras(s.extras);
  }
  if (a.getKind() != ArgKind::Tensor)
    return fail(at, "expected a %value");
  std::string name = a.getRef()->getName().str();
  ExtraFields useExtras;
  if (const ExtraFields *e = ctx.getUseExtras(a.getRef()))
    useExtras = *e;
  if (s.kind == InputKind::Token) {
    s.arg = Argument::token(ctx, name);
    if (!useExtras.empty())
      ctx.setUseExtras(s.arg.getRef(), useExtras);
    return maybeExtras(s.extras);
  }
  std::string target;
  if (!expectString(target, "the target name as a string"))
    return false;
  s.target = intern(target);
  if (s.kind == InputKind::CustomObj) {
    std::string cls;
    if (!expectIdent("class") || !expectString(cls, "the class name"))
      return false;
    s.arg = Argument::customObj(ctx, name, intern(cls));
    if (!useExtras.empty())
      ctx.setUseExtras(s.arg.getCustomObj().ref, useExtras);
    return maybeExtras(s.extras);
  }
  s.arg = std::move(a);
  if (s.kind == InputKind::Buffer)
    s.persistent = !consumeIdent("non_persistent");
  return maybeExtras(s.extras);
}

bool Parser::outputSpec(OutputSpec &s) {
  if (peek().isIdent("unknown") && peek2().kind == Token::String) {
    next();
    s.kind = OutputKind::Unknown;
    return expectString(s.unknownKey, "the member name") &&
           expectString(s.unknownJson, "the member's JSON") && maybeExtras(s.extras);
  }
  Argument a;
  size_t at = peek().pos;
  if (!argument(a, Position::Detached, 1) || !expect(':'))
    return false;
  static const OutputKind Kinds[] = {
      OutputKind::UserOutput,          OutputKind::LossOutput,
      OutputKind::BufferMutation,      OutputKind::GradientToParameter,
      OutputKind::GradientToUserInput, OutputKind::UserInputMutation,
      OutputKind::Token,               OutputKind::ParameterMutation};
  bool known = false;
  for (OutputKind kind : Kinds)
    if (peek().isIdent(outputKindMemberName(kind))) {
      s.kind = kind;
      known = true;
    }
  if (!known)
    return expected("an output kind (user_output, buffer_mutation, ...)");
  next();
  if (s.kind != OutputKind::UserOutput && a.getKind() != ArgKind::Tensor)
    return fail(at, "expected a %value");
  if (s.kind == OutputKind::Token) {
    std::string name = a.getRef()->getName().str();
    ExtraFields useExtras;
    if (const ExtraFields *e = ctx.getUseExtras(a.getRef()))
      useExtras = *e;
    s.arg = Argument::token(ctx, name);
    if (!useExtras.empty())
      ctx.setUseExtras(s.arg.getRef(), useExtras);
  } else {
    s.arg = std::move(a);
  }
  if (!outputKindTargetField(s.kind).empty()) {
    std::string target;
    if (!expectString(target, "the target name as a string"))
      return false;
    s.target = intern(target);
  }
  return maybeExtras(s.extras);
}

bool Parser::signature() {
  GraphSignature &sig = ep.graphModule.signature;
  if (!expect('{'))
    return false;
  while (!consume('}')) {
    if (consumeIdent("input")) {
      sig.inputSpecs.emplace_back();
      if (!inputSpec(sig.inputSpecs.back()))
        return false;
    } else if (consumeIdent("output")) {
      sig.outputSpecs.emplace_back();
      if (!outputSpec(sig.outputSpecs.back()))
        return false;
    } else if (peek().isIdent("extra")) {
      if (!extras(sig.extras))
        return false;
    } else {
      return expected("'input', 'output' or '}'");
    }
  }
  return true;
}

bool Parser::rawLine(std::string &out, const char *what) {
  size_t p = pos;
  while (p < text.size() && (text[p] == ' ' || text[p] == '\t'))
    ++p;
  if (p < text.size() && text[p] == '"') {
    pos = p;
    peeked = false;
    return expectString(out, what);
  }
  size_t end = text.find('\n', p);
  if (end == llvm::StringRef::npos)
    end = text.size();
  llvm::StringRef line = text.slice(p, end).rtrim(" \t\r");
  if (line.empty())
    return fail(p, llvm::Twine("expected ") + what);
  out = line.str();
  pos = p + line.size();
  peeked = false;
  return true;
}

bool Parser::moduleCallGraph() {
  if (!expect('{'))
    return false;
  while (!consume('}')) {
    if (!expectIdent("module"))
      return false;
    ModuleCallEntry e;
    std::string fqn;
    if (!expectString(fqn, "the module's qualified name") || !maybeExtras(e.extras))
      return false;
    e.fqn = intern(fqn);
    if (peek().is('(')) {
      ModuleCallSignature sig;
      auto args = [&](std::vector<Argument> &items) {
        if (!expect('('))
          return false;
        if (consume(')'))
          return true;
        do {
          items.emplace_back();
          if (!argument(items.back(), Position::Detached, 1))
            return false;
        } while (consume(','));
        return expect(')');
      };
      if (!args(sig.inputs))
        return false;
      if (peek().kind != Token::Punct || peek().text != "->")
        return expected("'->'");
      next();
      if (!args(sig.outputs))
        return false;
      if (consumeIdent("forward_arg_names")) {
        std::vector<llvm::StringRef> names;
        if (!expect('['))
          return false;
        if (!consume(']')) {
          do {
            std::string n;
            if (!expectString(n, "an argument name"))
              return false;
            names.push_back(intern(n));
          } while (consume(','));
          if (!expect(']'))
            return false;
        }
        sig.forwardArgNames = std::move(names);
      }
      if (!maybeExtras(sig.extras) || !expectIdent("in_spec") ||
          !rawLine(sig.inSpec, "the input treespec") || !expectIdent("out_spec") ||
          !rawLine(sig.outSpec, "the output treespec"))
        return false;
      e.signature = std::move(sig);
    }
    ep.graphModule.moduleCallGraph.push_back(std::move(e));
  }
  return true;
}

bool Parser::rangeConstraints() {
  if (!expect('{'))
    return false;
  while (!consume('}')) {
    std::string sym;
    if (!keyName(sym, "a symbol") || !expectIdent("in") || !expect('['))
      return false;
    RangeConstraint rc;
    auto bound = [&](std::optional<int64_t> &b, llvm::StringRef inf) {
      const Token &t = peek();
      if ((t.kind == Token::Float || t.kind == Token::Ident) && t.text == inf) {
        next();
        b = std::nullopt;
        return true;
      }
      int64_t v;
      if (!integer(v, inf == "inf" ? "an integer or inf" : "an integer or -inf"))
        return false;
      b = v;
      return true;
    };
    if (!bound(rc.minVal, "-inf") || !expect(',') || !bound(rc.maxVal, "inf") || !expect(']') ||
        !maybeExtras(rc.extras))
      return false;
    ep.rangeConstraints.emplace_back(intern(sym), std::move(rc));
  }
  return true;
}

bool Parser::program() {
  bool sawSignature = false, sawGraph = false, sawModuleCallGraph = false;
  if (consumeIdent("program")) {
    int64_t major, minor;
    if (!expectIdent("schema"))
      return false;
    // `8.19` lexes as a float: split it.
    const Token &t = peek();
    llvm::StringRef v = t.text;
    auto [a, b] = v.split('.');
    if (t.kind != Token::Float || a.getAsInteger(10, major) || b.getAsInteger(10, minor))
      return expected("the schema version MAJOR.MINOR");
    next();
    ep.schemaVersion.major = major;
    ep.schemaVersion.minor = minor;
    std::string torch;
    if (!expectIdent("torch") || !expectString(torch, "the torch version as a string"))
      return false;
    ep.torchVersion = torch;
    if (!expectIdent("verifiers") || !expect('['))
      return false;
    if (!consume(']')) {
      do {
        std::string name;
        if (!keyName(name, "a verifier name"))
          return false;
        ep.verifiers.push_back(intern(name));
      } while (consume(','));
      if (!expect(']'))
        return false;
    }
  }
  GraphModule &gm = ep.graphModule;
  while (peek().kind != Token::Eof) {
    const Token &t = peek();
    if (t.isIdent("signature")) {
      next();
      if (sawSignature)
        return fail(t.pos, "a second signature");
      sawSignature = true;
      if (!signature())
        return false;
    } else if (t.isIdent("graph") && followedBy('(')) {
      next();
      if (sawGraph)
        return fail(t.pos, "a second top-level graph");
      sawGraph = true;
      if (!graph(ep.getGraph(), 0))
        return false;
    } else if (t.isIdent("opset_version")) {
      next();
      if (!expect('{'))
        return false;
      if (!consume('}')) {
        do {
          std::string key;
          int64_t v;
          if (!keyName(key, "an opset name") || !expect(':') || !integer(v, "an opset version"))
            return false;
          ep.opsetVersion.emplace_back(intern(key), v);
        } while (consume(','));
        if (!expect('}'))
          return false;
      }
    } else if (t.isIdent("extras")) {
      next();
      if (!expect('{'))
        return false;
      while (!consume('}')) {
        ExtraFields *target = consumeIdent("program")        ? &ep.extras
                              : consumeIdent("graph_module")   ? &gm.extras
                              : consumeIdent("schema_version") ? &ep.schemaVersion.extras
                                                               : nullptr;
        if (!target)
          return expected("'program', 'graph_module' or 'schema_version'");
        if (!extras(*target))
          return false;
      }
    } else if (t.isIdent("range_constraints")) {
      next();
      if (!rangeConstraints())
        return false;
    } else if (t.isIdent("module_call_graph")) {
      next();
      sawModuleCallGraph = true;
      if (!moduleCallGraph())
        return false;
    } else if (t.isIdent("metadata")) {
      next();
      if (!expect('{'))
        return false;
      while (!consume('}')) {
        std::string k, v;
        if (!expectString(k, "a metadata key") || !expect(':') ||
            !expectString(v, "a metadata value"))
          return false;
        gm.metadata.emplace_back(intern(k), intern(v));
      }
    } else if (t.isIdent("namedtuple_fields")) {
      next();
      if (!expect('{'))
        return false;
      while (!consume('}')) {
        std::string k;
        NamedTupleDef def;
        if (!expectString(k, "a namedtuple type name") || !expect(':') || !expect('['))
          return false;
        if (!consume(']')) {
          do {
            std::string f;
            if (!expectString(f, "a field name"))
              return false;
            def.fieldNames.push_back(intern(f));
          } while (consume(','));
          if (!expect(']'))
            return false;
        }
        if (!maybeExtras(def.extras))
          return false;
        gm.treespecNamedtupleFields.emplace_back(intern(k), std::move(def));
      }
    } else if (t.isIdent("guards_code")) {
      next();
      if (!expect('{'))
        return false;
      while (!consume('}')) {
        std::string code;
        if (!expectString(code, "guards code as a string"))
          return false;
        ep.guardsCode.push_back(std::move(code));
      }
    } else {
      return expected("a section (signature, graph, range_constraints, module_call_graph, "
                      "metadata, ...)");
    }
  }
  if (!sawGraph)
    return fail(text.size(), "expected 'graph(...) { ... }': the program has no graph");
  if (!sawSignature) {
    // A hand-written program without a signature: every graph input is a
    // user input and every output a user output (tensors, symbolic values
    // and constants alike).
    for (const Argument &in : ep.getGraph().getInputs()) {
      InputSpec s;
      s.arg = in.clone(ctx);
      gm.signature.inputSpecs.push_back(std::move(s));
    }
    for (const Argument &out : ep.getGraph().getOutputs()) {
      OutputSpec s;
      s.arg = out.clone(ctx);
      gm.signature.outputSpecs.push_back(std::move(s));
    }
  }
  if (!sawModuleCallGraph)
    gm.moduleCallGraph.push_back(defaultRootEntry());
  return true;
}

/// The module call graph entry torch writes for a module `forward(a, b)`
/// returning its outputs: no values, a tuple-of-(args, kwargs) input
/// treespec, and a leaf (one output) or tuple output treespec.
ModuleCallEntry Parser::defaultRootEntry() {
  const char *Leaf = R"({"type": null, "context": null, "children_spec": []})";
  auto tuple = [](const std::vector<std::string> &children) {
    std::string out = R"({"type": "builtins.tuple", "context": "null", "children_spec": [)";
    for (size_t i = 0; i < children.size(); ++i)
      out += (i ? ", " : "") + children[i];
    return out + "]}";
  };
  ModuleCallEntry e;
  e.fqn = intern("");
  ModuleCallSignature sig;
  std::vector<llvm::StringRef> names;
  std::vector<std::string> inLeaves;
  // forward's arguments are the user inputs; its results the user outputs.
  for (const InputSpec &spec : ep.graphModule.signature.inputSpecs) {
    if (spec.kind != InputKind::UserInput)
      continue;
    names.push_back(intern(spec.getArgName()));
    inLeaves.push_back(Leaf);
  }
  std::vector<std::string> outLeaves;
  for (const OutputSpec &spec : ep.graphModule.signature.outputSpecs)
    if (spec.kind == OutputKind::UserOutput)
      outLeaves.push_back(Leaf);
  sig.inSpec = "[1, " +
               tuple({tuple(inLeaves), R"({"type": "builtins.dict", "context": "[]", "children_spec": []})"}) +
               "]";
  sig.outSpec = "[1, " + (outLeaves.size() == 1 ? std::string(Leaf) : tuple(outLeaves)) + "]";
  sig.forwardArgNames = std::move(names);
  e.signature = std::move(sig);
  return e;
}

} // namespace

llvm::Expected<ExportedProgram> readProgramText(llvm::StringRef text,
                                                const TextReadOptions &options) {
  ExportedProgram ep(options.registry);
  Parser parser(text, options, ep);
  if (!parser.program())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s",
                                   parser.takeError().c_str());
  return ep;
}

bool looksLikeProgramText(llvm::StringRef bytes) {
  while (true) {
    bytes = bytes.ltrim(" \t\r\n");
    if (!bytes.consume_front("//"))
      break;
    size_t nl = bytes.find('\n');
    bytes = nl == llvm::StringRef::npos ? llvm::StringRef() : bytes.substr(nl);
  }
  for (llvm::StringRef kw : {"program", "graph", "signature", "opset_version"})
    if (bytes.starts_with(kw)) {
      llvm::StringRef rest = bytes.substr(kw.size());
      if (rest.empty() || !(llvm::isAlnum(rest[0]) || rest[0] == '_'))
        return true;
    }
  return false;
}

} // namespace pt2ir
