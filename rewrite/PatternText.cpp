//===- PatternText.cpp - Pattern files in the text form -------------------===//
//
// Reads declarative patterns written with the text form's spelling of nodes
// (docs/text-format.md): a pattern is a small graph to find and a
// replacement, each a list of node lines ending in `return`:
//
//   pattern add-relu benefit 2 {
//     match(%a, %b) {
//       %sum = aten.add.Tensor(%a, %b)
//       %out = aten.relu.default(%sum)
//       return %out
//     }
//     replace {
//       %t = aten.sub.Tensor(%a, %b, alpha=-1) like %sum
//       %fused = aten.clamp_min.default(%t, 0)
//       return %fused
//     }
//   }
//
// Nodes carry no types (matching is by target, arguments and constants).
// Arguments written without a name are kept in order and named from the
// operator schemas by nameArguments, once the program's registry is known.
// Checks that need the whole pattern (names defined before use, nodes
// feeding the root) are verifyPatternSpec's; this file checks the syntax.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/rewrite/PatternFile.h"

#include "pt2ir/ir/Enums.h"
#include "pt2ir/text/TextSyntax.h"

#include "llvm/ADT/StringExtras.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace pt2ir {

namespace {

struct Token {
  enum Kind : uint8_t { Eof, Word, Value, String, Int, Float, Punct, Bad };
  Kind kind = Eof;
  /// Word, Punct, Int and Float: the text; Value: the name after `%`;
  /// String: the decoded contents; Bad: why.
  std::string text;
  int64_t intValue = 0;
  double floatValue = 0;
  PatternLoc loc;
};

/// What an argument may be, for "expected ..." messages.
constexpr const char *kArgumentKinds =
    "an argument (a value, a number, a string, True, False, None, a list, "
    "torch.<dtype|layout|memory_format> or device(\"...\"))";

bool isWordStart(char c) { return llvm::isAlpha(c) || c == '_' || c == '#'; }
bool isWordChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '.' || c == ':' || c == '#' || c == '-';
}

class Lexer {
public:
  Lexer(llvm::StringRef text, llvm::StringRef file) : text(text), file(file.str()) {}

  Token next() {
    skipSpaceAndComments();
    Token t;
    t.loc = here();
    if (pos >= text.size())
      return t;
    char c = text[pos];
    if (c == '"')
      return string(t);
    if (c == '%') {
      ++pos;
      if (pos < text.size() && text[pos] == '"') {
        string(t);
        if (t.kind == Token::String)
          t.kind = Token::Value;
        return t;
      }
      size_t start = pos;
      while (pos < text.size() && (llvm::isAlnum(text[pos]) || text[pos] == '_'))
        ++pos;
      if (start == pos)
        return bad(t, "expected a value name after '%'");
      t.kind = Token::Value;
      t.text = text.slice(start, pos).str();
      return t;
    }
    if (llvm::isDigit(c) || (c == '-' && pos + 1 < text.size() &&
                             (llvm::isDigit(text[pos + 1]) || text[pos + 1] == 'i' ||
                              text[pos + 1] == 'n' || text[pos + 1] == '.')))
      return number(t);
    if (isWordStart(c)) {
      size_t start = pos;
      while (pos < text.size() && isWordChar(text[pos]))
        ++pos;
      t.kind = Token::Word;
      t.text = text.slice(start, pos).str();
      if (t.text == "inf" || t.text == "nan") {
        t.kind = Token::Float;
        t.floatValue = t.text == "inf" ? std::numeric_limits<double>::infinity()
                                       : std::numeric_limits<double>::quiet_NaN();
      }
      return t;
    }
    if (llvm::StringRef("(){}[],=:").contains(c)) {
      ++pos;
      t.kind = Token::Punct;
      t.text = std::string(1, c);
      return t;
    }
    return bad(t, "unexpected character '" + std::string(1, c) + "'");
  }

  PatternLoc here() const {
    PatternLoc loc;
    loc.file = file;
    loc.line = line;
    loc.column = unsigned(pos - lineStart + 1);
    return loc;
  }

private:
  void skipSpaceAndComments() {
    while (pos < text.size()) {
      char c = text[pos];
      if (c == '\n') {
        ++pos;
        ++line;
        lineStart = pos;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++pos;
      } else if (text.substr(pos).starts_with("//")) {
        while (pos < text.size() && text[pos] != '\n')
          ++pos;
      } else {
        return;
      }
    }
  }

  Token &bad(Token &t, std::string why) {
    t.kind = Token::Bad;
    t.text = std::move(why);
    return t;
  }

  /// A double-quoted string with the text form's escapes.
  Token &string(Token &t) {
    ++pos;
    std::string out;
    while (pos < text.size()) {
      char c = text[pos];
      if (c == '"') {
        ++pos;
        t.kind = Token::String;
        t.text = std::move(out);
        return t;
      }
      if (c == '\n')
        return bad(t, "expected '\"' before the end of the line");
      ++pos;
      if (c != '\\') {
        out += c;
        continue;
      }
      char e = pos < text.size() ? text[pos++] : '\0';
      switch (e) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'x':
        if (pos + 2 <= text.size() && llvm::isHexDigit(text[pos]) &&
            llvm::isHexDigit(text[pos + 1])) {
          out += char(llvm::hexDigitValue(text[pos]) * 16 + llvm::hexDigitValue(text[pos + 1]));
          pos += 2;
          break;
        }
        return bad(t, "expected two hex digits after \\x");
      default:
        return bad(t, "expected an escape (\\\" \\\\ \\n \\t \\r \\xHH) after '\\'");
      }
    }
    return bad(t, "expected '\"' before the end of the input");
  }

  Token &number(Token &t) {
    size_t start = pos;
    if (text[pos] == '-')
      ++pos;
    while (pos < text.size() && (isWordChar(text[pos]) || text[pos] == '+' ||
                                 (text[pos] == '-' && (text[pos - 1] == 'e' || text[pos - 1] == 'E'))))
      ++pos;
    llvm::StringRef s = text.slice(start, pos);
    t.text = s.str();
    if (s == "-inf" || s == "-nan") {
      t.kind = Token::Float;
      t.floatValue = s == "-inf" ? -std::numeric_limits<double>::infinity()
                                 : -std::numeric_limits<double>::quiet_NaN();
      return t;
    }
    if (!s.getAsInteger(10, t.intValue)) {
      t.kind = Token::Int;
      return t;
    }
    auto [end, ec] = std::from_chars(s.begin(), s.end(), t.floatValue);
    if (ec == std::errc() && end == s.end()) {
      t.kind = Token::Float;
      return t;
    }
    return bad(t, "'" + s.str() + "' is not a number");
  }

  llvm::StringRef text;
  std::string file;
  size_t pos = 0;
  unsigned line = 1;
  size_t lineStart = 0;
};

class PatternParser {
public:
  PatternParser(llvm::StringRef text, llvm::StringRef file) : lexer(text, file) {
    advance();
  }

  llvm::Expected<std::vector<DeclarativePatternSpec>> parseFile() {
    std::vector<DeclarativePatternSpec> specs;
    while (tok.kind != Token::Eof) {
      DeclarativePatternSpec spec;
      if (auto err = pattern(spec))
        return err;
      specs.push_back(std::move(spec));
    }
    if (specs.empty())
      return makePatternError(tok.loc, "expected 'pattern': the file holds no pattern");
    return specs;
  }

private:
  void advance() { tok = lexer.next(); }

  bool isPunct(char c) const {
    return tok.kind == Token::Punct && tok.text.size() == 1 && tok.text[0] == c;
  }
  bool isWord(llvm::StringRef w) const { return tok.kind == Token::Word && tok.text == w; }

  /// "expected X, found Y" at the current token.
  llvm::Error expected(const llvm::Twine &what) {
    if (tok.kind == Token::Bad)
      return makePatternError(tok.loc, tok.text);
    std::string found;
    switch (tok.kind) {
    case Token::Eof:
      found = "the end of the file";
      break;
    case Token::Value:
      found = "'%" + tok.text + "'";
      break;
    case Token::String:
      found = "a string";
      break;
    default:
      found = "'" + tok.text + "'";
    }
    return makePatternError(tok.loc, "expected " + what + ", found " + found);
  }

  llvm::Error expectPunct(char c) {
    if (!isPunct(c))
      return expected("'" + std::string(1, c) + "'");
    advance();
    return llvm::Error::success();
  }

  llvm::Error expectWord(llvm::StringRef w) {
    if (!isWord(w))
      return expected("'" + w + "'");
    advance();
    return llvm::Error::success();
  }

  llvm::Error valueName(std::string &out) {
    if (tok.kind != Token::Value)
      return expected("a value ('%name')");
    out = tok.text;
    advance();
    return llvm::Error::success();
  }

  /// `%a, %b` up to (not including) a token that is not a comma.
  llvm::Error valueNames(std::vector<std::string> &out) {
    do {
      std::string name;
      if (auto err = valueName(name))
        return err;
      out.push_back(std::move(name));
      if (!isPunct(','))
        return llvm::Error::success();
      advance();
    } while (true);
  }

  llvm::Error pattern(DeclarativePatternSpec &spec) {
    spec.loc = tok.loc;
    if (auto err = expectWord("pattern"))
      return err;
    if (tok.kind != Token::Word && tok.kind != Token::String)
      return expected("the pattern's name");
    spec.name = tok.text;
    advance();
    if (isWord("benefit")) {
      advance();
      if (tok.kind != Token::Int || tok.intValue < 0 || tok.intValue > 65535)
        return expected("a benefit from 0 to 65535");
      spec.benefit = unsigned(tok.intValue);
      advance();
    }
    if (auto err = expectPunct('{'))
      return err;
    if (auto err = expectWord("match"))
      return err;
    if (auto err = expectPunct('('))
      return err;
    if (!isPunct(')'))
      if (auto err = valueNames(spec.inputs))
        return err;
    if (auto err = expectPunct(')'))
      return err;
    if (auto err = body(spec.match, spec.outputs, /*replacement=*/false))
      return err;
    if (auto err = expectWord("replace"))
      return err;
    if (auto err = body(spec.replace, spec.replaceOutputs, /*replacement=*/true))
      return err;
    return expectPunct('}');
  }

  /// `{ node* return %a, ... }`.
  llvm::Error body(std::vector<PatternNodeSpec> &nodes, std::vector<std::string> &outputs,
                   bool replacement) {
    if (auto err = expectPunct('{'))
      return err;
    while (!isWord("return")) {
      if (tok.kind != Token::Value)
        return expected(nodes.empty() ? "a node ('%result = target(...)')"
                                      : "a node or 'return'");
      PatternNodeSpec node;
      if (auto err = this->node(node, replacement))
        return err;
      nodes.push_back(std::move(node));
    }
    advance();
    if (auto err = valueNames(outputs))
      return err;
    return expectPunct('}');
  }

  /// `%r1, %r2 = target(args) [like %v]`.
  llvm::Error node(PatternNodeSpec &node, bool replacement) {
    node.loc = tok.loc;
    if (auto err = valueNames(node.results))
      return err;
    if (auto err = expectPunct('='))
      return err;
    if (tok.kind == Token::String) {
      node.target = tok.text;
    } else if (tok.kind == Token::Word && text::isBareTarget(tok.text)) {
      node.target = text::targetFromSpelling(tok.text);
    } else {
      return expected("a target ('aten.relu.default', '#ns:op' or a quoted name)");
    }
    advance();
    if (auto err = expectPunct('('))
      return err;
    bool named = false;
    while (!isPunct(')')) {
      if (!node.args.empty() || !node.positional.empty()) {
        if (!isPunct(','))
          return expected("',' or ')'");
        advance();
      }
      if (tok.kind == Token::Word && text::isIdentifier(tok.text) && peekIsEquals()) {
        std::string name = tok.text;
        advance();
        advance(); // '='
        for (const auto &[seen, arg] : node.args)
          if (seen == name)
            return makePatternError(tok.loc, "argument '" + name + "' is given twice");
        PatternArg arg;
        if (auto err = argument(arg))
          return err;
        node.args.emplace_back(std::move(name), std::move(arg));
        named = true;
        continue;
      }
      if (named)
        return expected("a named argument ('name=value'): positional arguments come first");
      PatternArg arg;
      if (auto err = argument(arg))
        return err;
      node.positional.push_back(std::move(arg));
    }
    advance();
    if (isPunct(':'))
      return makePatternError(tok.loc, "pattern nodes carry no types: matching is "
                                       "by target, arguments and constants");
    if (isWord("like")) {
      if (!replacement)
        return makePatternError(tok.loc, "'like' is for replacement nodes");
      advance();
      if (auto err = valueName(node.like))
        return err;
    }
    return llvm::Error::success();
  }

  /// Whether the token after the current one is `=` (a named argument).
  bool peekIsEquals() {
    Lexer copy = lexer;
    Token t = copy.next();
    return t.kind == Token::Punct && t.text == "=";
  }

  llvm::Error argument(PatternArg &arg) {
    using K = PatternArg::Kind;
    arg.loc = tok.loc;
    switch (tok.kind) {
    case Token::Value:
    case Token::String:
      arg.kind = tok.kind == Token::Value ? K::Ref : K::String;
      arg.text = tok.text;
      break;
    case Token::Int:
      arg.kind = K::Int;
      arg.intValue = tok.intValue;
      break;
    case Token::Float:
      arg.kind = K::Float;
      arg.floatValue = tok.floatValue;
      break;
    case Token::Word:
      return wordArgument(arg);
    default:
      if (isPunct('['))
        return list(arg);
      return expected(kArgumentKinds);
    }
    advance();
    return llvm::Error::success();
  }

  /// `[arg, ...]`.
  llvm::Error list(PatternArg &arg) {
    advance();
    arg.kind = PatternArg::Kind::List;
    while (!isPunct(']')) {
      if (!arg.elements.empty()) {
        if (!isPunct(','))
          return expected("',' or ']'");
        advance();
      }
      PatternArg element;
      if (auto err = argument(element))
        return err;
      arg.elements.push_back(std::move(element));
    }
    advance();
    return llvm::Error::success();
  }

  llvm::Error wordArgument(PatternArg &arg) {
    using K = PatternArg::Kind;
    llvm::StringRef w = tok.text;
    if (w == "None" || w == "True" || w == "False") {
      arg.kind = w == "None" ? K::None : K::Bool;
      arg.boolValue = w == "True";
      advance();
      return llvm::Error::success();
    }
    if (w == "device") {
      advance();
      if (auto err = expectPunct('('))
        return err;
      if (tok.kind != Token::String)
        return expected("a device string (\"cpu\", \"cuda:0\")");
      auto [type, index] = llvm::StringRef(tok.text).split(':');
      arg.kind = K::Device;
      arg.text = type.str();
      arg.intValue = -1;
      if (type.empty() || (!index.empty() && index.getAsInteger(10, arg.intValue)))
        return makePatternError(tok.loc, "bad device '" + tok.text + "'");
      advance();
      return expectPunct(')');
    }
    llvm::StringRef name = w;
    if (name.consume_front("torch.")) {
      for (int64_t v = 0; v < 64; ++v)
        if (isValidScalarType(v) && scalarTypeTorchName(v) == name)
          return enumArg(arg, K::ScalarType, v);
      for (int64_t v = 0; v <= 4; ++v)
        if (text::torchMemoryFormatName(v) == name)
          return enumArg(arg, K::MemoryFormat, v);
      for (int64_t v = 0; v <= 7; ++v)
        if (text::torchLayoutName(v) == name)
          return enumArg(arg, K::Layout, v);
      return makePatternError(tok.loc, "unknown torch constant '" + w +
                                           "' (expected a dtype, layout or memory format)");
    }
    return expected(kArgumentKinds);
  }

  llvm::Error enumArg(PatternArg &arg, PatternArg::Kind kind, int64_t v) {
    arg.kind = kind;
    arg.intValue = v;
    advance();
    return llvm::Error::success();
  }

  Lexer lexer;
  Token tok;
};

} // namespace

llvm::Expected<std::vector<DeclarativePatternSpec>>
parsePatternText(llvm::StringRef text, llvm::StringRef fileName) {
  return PatternParser(text, fileName).parseFile();
}

llvm::Error nameArguments(DeclarativePatternSpec &spec, const OperatorRegistry &operators) {
  auto nameNodes = [&](std::vector<PatternNodeSpec> &nodes) -> llvm::Error {
    for (PatternNodeSpec &node : nodes) {
      if (node.positional.empty())
        continue;
      const OperatorSchema *schema = operators.lookupTarget(node.target);
      std::vector<std::pair<std::string, PatternArg>> named;
      for (size_t i = 0; i < node.positional.size(); ++i) {
        PatternArg &arg = node.positional[i];
        std::optional<llvm::StringRef> name = text::positionalName(schema, node.target, i);
        if (!name)
          return makePatternError(arg.loc, "'" + node.target + "' takes no positional argument " +
                                               llvm::Twine(i + 1));
        if (name->empty())
          return makePatternError(arg.loc, "no schema is registered for '" + node.target +
                                               "', so its arguments need names (name=value)");
        for (const auto &[seen, other] : node.args)
          if (seen == *name)
            return makePatternError(other.loc, "argument '" + seen +
                                                   "' is given twice (by position and by name)");
        named.emplace_back(name->str(), std::move(arg));
      }
      node.positional.clear();
      node.args.insert(node.args.begin(), std::make_move_iterator(named.begin()),
                       std::make_move_iterator(named.end()));
    }
    return llvm::Error::success();
  };
  if (auto err = nameNodes(spec.match))
    return err;
  return nameNodes(spec.replace);
}

} // namespace pt2ir
