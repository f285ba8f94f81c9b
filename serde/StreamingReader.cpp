//===- StreamingReader.cpp - One-pass reader for canonical programs -------===//
//
// A small pull lexer over the input bytes (strings are views into the input
// unless they contain escapes; ASCII runs are scanned eight bytes at a time)
// and a recursive-descent reader that expects the schema's fields in
// declaration order. Every function returns false to give up; nothing here
// formats an error. The structure follows serde/ProgramReader.cpp function
// by function, and builds the IR through the same calls in the same order,
// so both readers produce the same program.
//
// Deliberately not handled (the DOM reader takes over): non-ASCII bytes,
// surrogate escapes, bare NaN/Infinity, integers beyond int64, unknown or
// missing fields, legacy forms, other schema majors, `#ns:op` targets,
// as_graph / as_custom_obj / as_string_to_argument / unknown members, custom
// object, token and constant inputs, token outputs, named-tuple fields.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/serde/StreamingReader.h"
#include "pt2ir/json/JsonNumbers.h"

#include "pt2ir/ir/Enums.h"
#include "pt2ir/ir/Graph.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/SwapByteOrder.h"

#include <cmath>
#include <cstring>

namespace pt2ir {
namespace {

//===----------------------------------------------------------------------===//
// Lexer
//===----------------------------------------------------------------------===//

constexpr uint64_t Ones = 0x0101010101010101ull;
constexpr uint64_t Highs = 0x8080808080808080ull;

/// The high bit of each byte of `w` that is '"', '\\', a control character
/// or non-ASCII. Bits above the lowest may be spurious (borrows), so only
/// the lowest set bit is used to find a byte.
inline uint64_t attentionMask(uint64_t w) {
  auto zeroByte = [](uint64_t x) { return (x - Ones) & ~x; };
  uint64_t quote = zeroByte(w ^ (Ones * '"'));
  uint64_t backslash = zeroByte(w ^ (Ones * '\\'));
  uint64_t control = (w - Ones * 0x20) & ~w;
  return (quote | backslash | control | w) & Highs;
}

inline bool needsAttention(unsigned char c) {
  return c == '"' || c == '\\' || c < 0x20 || c >= 0x80;
}

inline bool isDigit(char c) { return c >= '0' && c <= '9'; }

class Lexer {
public:
  explicit Lexer(llvm::StringRef text)
      : begin(text.data()), p(text.data()), end(text.data() + text.size()) {}

  size_t offset() const { return static_cast<size_t>(p - begin); }
  void seek(size_t off) { p = begin + off; }

  void skipWhitespace() {
    while (p != end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
      ++p;
  }
  bool consume(char c) {
    skipWhitespace();
    if (p == end || *p != c)
      return false;
    ++p;
    return true;
  }
  char peek() {
    skipWhitespace();
    return p == end ? '\0' : *p;
  }
  bool atEnd() {
    skipWhitespace();
    return p == end;
  }
  bool literal(llvm::StringRef word) {
    skipWhitespace();
    if (static_cast<size_t>(end - p) < word.size() ||
        std::memcmp(p, word.data(), word.size()))
      return false;
    p += word.size();
    return true;
  }

  /// A string token. The result views the input, or this lexer's scratch
  /// buffer when the string has escapes (valid until the next string).
  bool string(llvm::StringRef &out) {
    if (!consume('"'))
      return false;
    const char *start = p;
    const char *run = p; // Start of the bytes not yet copied to scratch.
    bool escaped = false;
    for (;;) {
      skipPlainBytes();
      if (p == end)
        return false;
      unsigned char c = static_cast<unsigned char>(*p);
      if (c == '"') {
        if (escaped) {
          scratch.append(run, p);
          out = scratch;
        } else {
          out = llvm::StringRef(start, static_cast<size_t>(p - start));
        }
        ++p;
        return true;
      }
      if (c != '\\')
        return false; // A control character or non-ASCII byte.
      if (escaped)
        scratch.append(run, p);
      else
        scratch.assign(start, p);
      escaped = true;
      ++p;
      if (!unescape())
        return false;
      run = p;
    }
  }
  /// Moves to the next byte that needs attention inside a string, eight
  /// bytes at a time.
  void skipPlainBytes() {
    while (end - p >= 8) {
      uint64_t w;
      std::memcpy(&w, p, 8);
      uint64_t mask = attentionMask(w);
      if (mask) {
        if (llvm::sys::IsLittleEndianHost) {
          p += llvm::countr_zero(mask) / 8;
          return;
        }
        break;
      }
      p += 8;
    }
    while (p != end && !needsAttention(static_cast<unsigned char>(*p)))
      ++p;
  }
  /// Decodes the escape after a backslash into scratch.
  bool unescape() {
    if (p == end)
      return false;
    switch (*p++) {
    case '"':
      scratch += '"';
      return true;
    case '\\':
      scratch += '\\';
      return true;
    case '/':
      scratch += '/';
      return true;
    case 'b':
      scratch += '\b';
      return true;
    case 'f':
      scratch += '\f';
      return true;
    case 'n':
      scratch += '\n';
      return true;
    case 'r':
      scratch += '\r';
      return true;
    case 't':
      scratch += '\t';
      return true;
    case 'u':
      break;
    default:
      return false;
    }
    if (end - p < 4)
      return false;
    unsigned cp = 0;
    for (int i = 0; i < 4; ++i) {
      char h = *p++;
      unsigned d = isDigit(h)               ? unsigned(h - '0')
                   : (h >= 'a' && h <= 'f') ? unsigned(h - 'a' + 10)
                   : (h >= 'A' && h <= 'F') ? unsigned(h - 'A' + 10)
                                            : 16u;
      if (d == 16)
        return false;
      cp = cp << 4 | d;
    }
    if (cp >= 0xD800 && cp <= 0xDFFF)
      return false; // Surrogates: the DOM reader decides.
    if (cp < 0x80) {
      scratch += static_cast<char>(cp);
    } else if (cp < 0x800) {
      scratch += static_cast<char>(0xC0 | (cp >> 6));
      scratch += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      scratch += static_cast<char>(0xE0 | (cp >> 12));
      scratch += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      scratch += static_cast<char>(0x80 | (cp & 0x3F));
    }
    return true;
  }
  bool inScratch(llvm::StringRef s) const {
    return !scratch.empty() && s.data() >= scratch.data() &&
           s.data() < scratch.data() + scratch.size();
  }

  /// An integer token that fits int64 (no fraction or exponent).
  bool integer(int64_t &out) {
    skipWhitespace();
    bool negative = p != end && *p == '-';
    if (negative)
      ++p;
    if (p == end || !isDigit(*p))
      return false;
    if (*p == '0' && p + 1 != end && isDigit(p[1]))
      return false;
    uint64_t v = 0;
    while (p != end && isDigit(*p)) {
      unsigned d = static_cast<unsigned>(*p - '0');
      if (v > (UINT64_MAX - d) / 10)
        return false;
      v = v * 10 + d;
      ++p;
    }
    if (p != end && (*p == '.' || *p == 'e' || *p == 'E'))
      return false;
    constexpr uint64_t MinMagnitude = uint64_t(1) << 63;
    if (negative) {
      if (v > MinMagnitude)
        return false;
      out = v == MinMagnitude ? INT64_MIN : -static_cast<int64_t>(v);
    } else {
      if (v >= MinMagnitude)
        return false;
      out = static_cast<int64_t>(v);
    }
    return true;
  }

  /// Any JSON number, converted to double as the DOM reader would
  /// (json/JsonNumbers.h).
  bool number(double &out) {
    skipWhitespace();
    const char *start = p;
    if (p != end && *p == '-')
      ++p;
    while (p != end && (isDigit(*p) || *p == '.' || *p == 'e' || *p == 'E' ||
                        *p == '+' || *p == '-'))
      ++p;
    llvm::StringRef token(start, static_cast<size_t>(p - start));
    json::Number number = json::convertNumber(token);
    // RapidJSON's tokenizer refuses a zero with an exponent past 308
    // (`0e400`): leave zeros with exponents to the DOM reader.
    if (number.kind == json::Number::Kind::Double && number.d == 0 &&
        token.find_first_of("eE") != llvm::StringRef::npos)
      return false;
    switch (number.kind) {
    case json::Number::Kind::Int64:
      out = static_cast<double>(number.i64);
      return true;
    case json::Number::Kind::Uint64:
      out = static_cast<double>(number.u64);
      return true;
    case json::Number::Kind::Double:
      out = number.d;
      return true;
    case json::Number::Kind::Invalid:
    case json::Number::Kind::TooBig:
      return false; // The DOM reader reports it.
    }
    return false;
  }

  /// Skips one array or object (re-read later with full checks).
  bool skipContainer() {
    char open = peek();
    if (open != '[' && open != '{')
      return false;
    unsigned depth = 0;
    while (p < end) {
      char c = *p++;
      if (c == '"') {
        while (p < end && *p != '"')
          p += *p == '\\' ? 2 : 1;
        if (p >= end)
          return false;
        ++p;
      } else if (c == '[' || c == '{') {
        ++depth;
      } else if (c == ']' || c == '}') {
        if (--depth == 0)
          return true;
      }
    }
    return false;
  }

private:
  const char *begin;
  const char *p;
  const char *end;
  std::string scratch;
};

//===----------------------------------------------------------------------===//
// Reader
//===----------------------------------------------------------------------===//

class StreamReader {
public:
  StreamReader(llvm::StringRef json, IRContext &ctx, const ReadOptions &options)
      : lex(json), ctx(ctx), options(options) {}

  bool readProgram(ExportedProgram &ep);

private:
  //===--- Structure ---===//
  /// `"name":` of the next field, preceded by a comma unless it is the first.
  bool field(bool &first, llvm::StringRef name) {
    if (!first && !lex.consume(','))
      return false;
    first = false;
    llvm::StringRef key;
    return lex.string(key) && key == name && lex.consume(':');
  }
  /// Steps to the next element of an array or object: 1 when there is one,
  /// 0 at the closing bracket, -1 when malformed.
  int next(char close, bool &first) {
    if (lex.consume(close))
      return 0;
    if (first) {
      first = false;
      return 1;
    }
    return lex.consume(',') ? 1 : -1;
  }
  int nextKey(bool &first, llvm::StringRef &key) {
    int r = next('}', first);
    if (r != 1)
      return r;
    return lex.string(key) && lex.consume(':') ? 1 : -1;
  }
  template <typename Fn> bool list(Fn fn) {
    if (!lex.consume('['))
      return false;
    bool first = true;
    for (;;) {
      int r = next(']', first);
      if (r <= 0)
        return r == 0;
      if (!fn())
        return false;
    }
  }
  template <typename T, typename Fn> bool listOf(std::vector<T> &out, Fn fn) {
    return list([&] {
      T item{};
      if (!fn(item))
        return false;
      out.push_back(std::move(item));
      return true;
    });
  }
  /// A one-member union object: `{"key": <member>}`.
  template <typename Fn> bool unionOf(Fn fn) {
    llvm::StringRef key;
    return lex.consume('{') && lex.string(key) && lex.consume(':') && fn(key) &&
           lex.consume('}');
  }
  bool emptyObject() { return lex.consume('{') && lex.consume('}'); }
  bool isNull() { return lex.peek() == 'n'; }

  //===--- Scalars ---===//
  bool boolean(bool &out) {
    char c = lex.peek();
    out = c == 't';
    return lex.literal(out ? "true" : "false");
  }
  /// A string the program keeps: length-checked and interned.
  bool internedString(llvm::StringRef &out) {
    llvm::StringRef s;
    if (!lex.string(s) || s.size() > options.maxStringLength)
      return false;
    out = ctx.intern(s);
    return true;
  }
  /// A length-checked string that stays valid while reading goes on.
  bool stableString(llvm::StringRef &out) {
    if (!lex.string(out) || out.size() > options.maxStringLength)
      return false;
    if (lex.inScratch(out))
      out = ctx.intern(out);
    return true;
  }
  bool stdString(std::string &out) {
    llvm::StringRef s;
    if (!lex.string(s))
      return false;
    out.assign(s.data(), s.size());
    return true;
  }
  bool floating(double &out) {
    if (lex.peek() != '"')
      return lex.number(out);
    llvm::StringRef s;
    if (!lex.string(s))
      return false;
    if (s == "Infinity")
      out = HUGE_VAL;
    else if (s == "-Infinity")
      out = -HUGE_VAL;
    else if (s == "NaN")
      out = std::nan("");
    else
      return false;
    return true;
  }
  bool enumValue(bool (*valid)(int64_t), int64_t &out) {
    return lex.integer(out) && valid(out);
  }
  template <typename Enum> bool enumValue(bool (*valid)(int64_t), Enum &out) {
    int64_t v;
    if (!enumValue(valid, v))
      return false;
    out = static_cast<Enum>(v);
    return true;
  }
  bool tensorName(llvm::StringRef &name) {
    bool first = true;
    return lex.consume('{') && field(first, "name") && stableString(name) &&
           lex.consume('}');
  }

  //===--- Schema types ---===//
  bool argument(Argument &out);
  bool argumentMember(ArgKind kind, Argument &out);
  bool symArg(ArgKind kind, SymArg &out);
  bool optionalTensor(std::optional<llvm::StringRef> &out);
  bool device(Device &out);
  bool symExpr(SymExpr &out);
  bool symValue(ValueTable table, SymValue &out);
  bool tensorMeta(TensorMeta &out);
  bool stringPairs(StringPairs &out, bool cacheValues);
  bool node(Graph &g);
  bool graph(Graph &g);
  bool valueTable(Graph &g, ValueTable table);
  bool inputSpec(InputSpec &out);
  bool outputSpec(OutputSpec &out);
  bool signature(GraphSignature &out);
  bool moduleCallEntry(ModuleCallEntry &out);
  bool graphModule(GraphModule &out);
  bool rangeConstraintEnd(std::optional<int64_t> &out) {
    if (isNull())
      return lex.literal("null");
    int64_t v;
    if (!lex.integer(v))
      return false;
    out = v;
    return true;
  }

  Lexer lex;
  IRContext &ctx;
  const ReadOptions &options;
  /// The offset last given to options.onInputRead.
  size_t reportedOffset = 0;
  void reportProgress() {
    if (!options.onInputRead || lex.offset() < reportedOffset + options.onInputReadEvery)
      return;
    reportedOffset = lex.offset();
    options.onInputRead(reportedOffset);
  }
  /// Last value interned per metadata key: consecutive nodes usually share
  /// their stack trace, so most lookups end in one memcmp instead of a hash.
  llvm::SmallVector<std::pair<const char *, llvm::StringRef>, 8> lastMetadata;
};

bool StreamReader::symArg(ArgKind kind, SymArg &out) {
  return unionOf([&](llvm::StringRef key) {
    if (key == "as_name") {
      llvm::StringRef name;
      if (!stableString(name))
        return false;
      out = Argument::symRef(ctx, name);
      return true;
    }
    if (kind == ArgKind::SymInt && key == "as_int")
      return lex.integer(out.intValue);
    if (kind == ArgKind::SymBool && key == "as_bool")
      return boolean(out.boolValue);
    if (kind == ArgKind::SymFloat && key == "as_float")
      return floating(out.floatValue);
    return false;
  });
}

bool StreamReader::optionalTensor(std::optional<llvm::StringRef> &out) {
  return unionOf([&](llvm::StringRef key) {
    if (key == "as_none") {
      out = std::nullopt;
      return lex.literal("true");
    }
    llvm::StringRef name;
    if (key != "as_tensor" || !tensorName(name))
      return false;
    out = name;
    return true;
  });
}

bool StreamReader::device(Device &out) {
  bool first = true;
  if (!lex.consume('{') || !field(first, "type") || !internedString(out.type) ||
      !field(first, "index"))
    return false;
  if (isNull()) {
    if (!lex.literal("null"))
      return false;
  } else {
    int64_t index;
    if (!lex.integer(index))
      return false;
    out.index = index;
  }
  return lex.consume('}');
}

bool StreamReader::argument(Argument &out) {
  llvm::StringRef key;
  if (!lex.consume('{') || !lex.string(key) || !lex.consume(':'))
    return false;
  ArgKind kind;
  if (!argKindFromMemberName(key, kind))
    return false;
  return argumentMember(kind, out) && lex.consume('}');
}

bool StreamReader::argumentMember(ArgKind kind, Argument &out) {
  switch (kind) {
  case ArgKind::None:
    out = Argument::none();
    return lex.literal("true");
  case ArgKind::Tensor: {
    llvm::StringRef name;
    if (!tensorName(name))
      return false;
    out = Argument::tensor(ctx, name);
    return true;
  }
  case ArgKind::Tensors: {
    llvm::SmallVector<llvm::StringRef, 8> names;
    if (!list([&] {
          llvm::StringRef n;
          if (!tensorName(n))
            return false;
          names.push_back(n);
          return true;
        }))
      return false;
    out = Argument::tensors(ctx, names);
    return true;
  }
  case ArgKind::Int: {
    int64_t i;
    if (!lex.integer(i))
      return false;
    out = Argument::integer(i);
    return true;
  }
  case ArgKind::Ints: {
    std::vector<int64_t> ints;
    if (!listOf(ints, [&](int64_t &i) { return lex.integer(i); }))
      return false;
    out = Argument::ints(std::move(ints));
    return true;
  }
  case ArgKind::Float: {
    double f;
    if (!floating(f))
      return false;
    out = Argument::floating(f);
    return true;
  }
  case ArgKind::Floats: {
    std::vector<double> fs;
    if (!listOf(fs, [&](double &f) { return floating(f); }))
      return false;
    out = Argument::floats(std::move(fs));
    return true;
  }
  case ArgKind::String:
  case ArgKind::Operator: {
    llvm::StringRef s;
    if (!internedString(s))
      return false;
    out = kind == ArgKind::String ? Argument::string(s)
                                  : Argument::operatorRef(s);
    return true;
  }
  case ArgKind::Strings: {
    std::vector<llvm::StringRef> ss;
    if (!listOf(ss, [&](llvm::StringRef &s) { return internedString(s); }))
      return false;
    out = Argument::strings(std::move(ss));
    return true;
  }
  case ArgKind::SymInt:
  case ArgKind::SymBool:
  case ArgKind::SymFloat: {
    SymArg a;
    if (!symArg(kind, a))
      return false;
    out = Argument::sym(kind, a);
    return true;
  }
  case ArgKind::SymInts:
  case ArgKind::SymBools:
  case ArgKind::SymFloats: {
    ArgKind elem = kind == ArgKind::SymInts    ? ArgKind::SymInt
                   : kind == ArgKind::SymBools ? ArgKind::SymBool
                                               : ArgKind::SymFloat;
    std::vector<SymArg> syms;
    if (!listOf(syms, [&](SymArg &a) { return symArg(elem, a); }))
      return false;
    out = Argument::symList(kind, std::move(syms));
    return true;
  }
  case ArgKind::ScalarType:
  case ArgKind::MemoryFormat:
  case ArgKind::Layout: {
    int64_t i;
    if (kind == ArgKind::ScalarType) {
      if (!enumValue(isValidScalarType, i))
        return false;
      out = Argument::scalarType(i);
    } else if (kind == ArgKind::MemoryFormat) {
      if (!enumValue(isValidMemoryFormat, i))
        return false;
      out = Argument::memoryFormat(i);
    } else {
      if (!enumValue(isValidLayout, i))
        return false;
      out = Argument::layout(i);
    }
    return true;
  }
  case ArgKind::Device: {
    Device d;
    if (!device(d))
      return false;
    out = Argument::device(std::move(d));
    return true;
  }
  case ArgKind::Bool: {
    bool b;
    if (!boolean(b))
      return false;
    out = Argument::boolean(b);
    return true;
  }
  case ArgKind::Bools: {
    std::vector<bool> bs;
    if (!list([&] {
          bool b;
          if (!boolean(b))
            return false;
          bs.push_back(b);
          return true;
        }))
      return false;
    out = Argument::bools(std::move(bs));
    return true;
  }
  case ArgKind::OptionalTensors: {
    std::vector<std::optional<llvm::StringRef>> names;
    if (!listOf(names, [&](std::optional<llvm::StringRef> &n) {
          return optionalTensor(n);
        }))
      return false;
    out = Argument::optionalTensors(ctx, names);
    return true;
  }
  case ArgKind::OptionalTensor: {
    std::optional<llvm::StringRef> name;
    if (!optionalTensor(name))
      return false;
    out = Argument::optionalTensor(ctx, name);
    return true;
  }
  case ArgKind::Complex: {
    bool first = true;
    double re, im;
    if (!lex.consume('{') || !field(first, "real") || !floating(re) ||
        !field(first, "imag") || !floating(im) || !lex.consume('}'))
      return false;
    out = Argument::complex(re, im);
    return true;
  }
  case ArgKind::NestedTensors: {
    std::vector<std::vector<llvm::StringRef>> lists;
    if (!listOf(lists, [&](std::vector<llvm::StringRef> &inner) {
          return listOf(inner,
                        [&](llvm::StringRef &n) { return tensorName(n); });
        }))
      return false;
    out = Argument::nestedTensors(ctx, lists);
    return true;
  }
  case ArgKind::IntLists: {
    std::vector<std::vector<int64_t>> lists;
    if (!listOf(lists, [&](std::vector<int64_t> &inner) {
          return listOf(inner, [&](int64_t &i) { return lex.integer(i); });
        }))
      return false;
    out = Argument::intLists(std::move(lists));
    return true;
  }
  case ArgKind::FloatLists: {
    std::vector<std::vector<double>> lists;
    if (!listOf(lists, [&](std::vector<double> &inner) {
          return listOf(inner, [&](double &f) { return floating(f); });
        }))
      return false;
    out = Argument::floatLists(std::move(lists));
    return true;
  }
  default:
    return false;
  }
}

bool StreamReader::symExpr(SymExpr &out) {
  if (lex.peek() == '"') { // Legacy: a bare expression string.
    llvm::StringRef s;
    if (!lex.string(s))
      return false;
    out.exprStr = ctx.intern(s);
    return true;
  }
  bool first = true;
  if (!lex.consume('{') || !field(first, "expr_str") ||
      !internedString(out.exprStr) || !field(first, "hint"))
    return false;
  if (isNull())
    return lex.literal("null") && lex.consume('}');
  SymExprHint h;
  bool ok = unionOf([&](llvm::StringRef key) {
    if (key == "as_int") {
      h.kind = SymExprHint::Kind::Int;
      return lex.integer(h.intValue);
    }
    if (key == "as_bool") {
      h.kind = SymExprHint::Kind::Bool;
      return boolean(h.boolValue);
    }
    if (key == "as_float") {
      h.kind = SymExprHint::Kind::Float;
      return floating(h.floatValue);
    }
    return false;
  });
  if (!ok)
    return false;
  out.hint = h;
  return lex.consume('}');
}

bool StreamReader::symValue(ValueTable table, SymValue &out) {
  char c = lex.peek();
  if (table == ValueTable::SymInt &&
      (isDigit(c) || c == '-')) { // Legacy plain integer.
    int64_t v;
    if (!lex.integer(v))
      return false;
    out = SymValue::ofInt(v);
    return true;
  }
  return unionOf([&](llvm::StringRef key) {
    if (key == "as_expr") {
      out.kind = SymValue::Kind::Expr;
      return symExpr(out.expr);
    }
    if (table == ValueTable::SymInt && key == "as_int") {
      out.kind = SymValue::Kind::Int;
      return lex.integer(out.intValue);
    }
    if (table == ValueTable::SymBool && key == "as_bool") {
      out.kind = SymValue::Kind::Bool;
      return boolean(out.boolValue);
    }
    if (table == ValueTable::SymFloat && key == "as_float") {
      out.kind = SymValue::Kind::Float;
      return floating(out.floatValue);
    }
    return false;
  });
}

bool StreamReader::tensorMeta(TensorMeta &out) {
  bool first = true;
  // Collected first so the vectors get their exact size, as the DOM reader
  // gives them (SymValue is large; growth would waste memory).
  auto syms = [&](std::vector<SymValue> &dst) {
    llvm::SmallVector<SymValue, 8> items;
    if (!list([&] {
          items.emplace_back();
          return symValue(ValueTable::SymInt, items.back());
        }))
      return false;
    dst.assign(std::make_move_iterator(items.begin()),
               std::make_move_iterator(items.end()));
    return true;
  };
  return lex.consume('{') && field(first, "dtype") &&
         enumValue(isValidScalarType, out.dtype) && field(first, "sizes") &&
         syms(out.sizes) && field(first, "requires_grad") &&
         boolean(out.requiresGrad) && field(first, "device") &&
         device(out.device) && field(first, "strides") && syms(out.strides) &&
         field(first, "storage_offset") &&
         symValue(ValueTable::SymInt, out.storageOffset) &&
         field(first, "layout") && enumValue(isValidLayout, out.layout) &&
         lex.consume('}');
}

bool StreamReader::stringPairs(StringPairs &out, bool cacheValues) {
  if (!lex.consume('{'))
    return false;
  bool first = true;
  for (;;) {
    llvm::StringRef key;
    int r = nextKey(first, key);
    if (r <= 0)
      return r == 0;
    llvm::StringRef internedKey = ctx.intern(key);
    llvm::StringRef value;
    if (!lex.string(value) || value.size() > options.maxStringLength)
      return false;
    llvm::StringRef *last = nullptr;
    if (cacheValues) {
      for (auto &entry : lastMetadata)
        if (entry.first == internedKey.data())
          last = &entry.second;
      if (!last && lastMetadata.size() < 8) {
        lastMetadata.push_back({internedKey.data(), {}});
        last = &lastMetadata.back().second;
      }
    }
    if (last && *last == value) {
      value = *last;
    } else {
      value = ctx.intern(value);
      if (last)
        *last = value;
    }
    out.emplace_back(internedKey, value);
  }
}

bool StreamReader::node(Graph &g) {
  NodeSpec spec;
  bool first = true;
  if (!lex.consume('{') || !field(first, "target") ||
      !internedString(spec.target) || spec.target.starts_with("#") ||
      !field(first, "inputs"))
    return false;
  llvm::SmallVector<NamedArgument, 8> inputs;
  bool ok = list([&] {
    NamedArgument na;
    bool f = true;
    if (!lex.consume('{') || !field(f, "name") || !internedString(na.name) ||
        !field(f, "arg") || !argument(na.arg) || !field(f, "kind"))
      return false;
    if (isNull()) {
      if (!lex.literal("null"))
        return false;
    } else {
      int64_t k;
      if (!enumValue(isValidArgumentKind, k))
        return false;
      na.kind = k;
    }
    inputs.push_back(std::move(na));
    return lex.consume('}');
  });
  if (!ok || !field(first, "outputs"))
    return false;
  spec.inputs.assign(std::make_move_iterator(inputs.begin()),
                     std::make_move_iterator(inputs.end()));
  llvm::SmallVector<Argument, 4> outputs;
  ok = list([&] {
    outputs.emplace_back();
    return argument(outputs.back());
  });
  if (!ok)
    return false;
  spec.outputs.assign(std::make_move_iterator(outputs.begin()),
                      std::make_move_iterator(outputs.end()));
  if (!field(first, "metadata") ||
      !stringPairs(spec.metadata, /*cacheValues=*/true) ||
      !field(first, "is_hop_single_tensor_return"))
    return false;
  if (isNull()) {
    if (!lex.literal("null"))
      return false;
  } else {
    bool b;
    if (!boolean(b))
      return false;
    spec.isHopSingleTensorReturn = b;
  }
  if (!field(first, "name"))
    return false;
  if (isNull()) {
    if (!lex.literal("null"))
      return false;
  } else {
    llvm::StringRef name;
    if (!internedString(name))
      return false;
    spec.name = name;
  }
  if (!lex.consume('}'))
    return false;
  // Undefined operands and names defined twice are refused here, as the
  // DOM reader refuses them before appending.
  auto appended = g.appendNode(std::move(spec));
  if (!appended) {
    llvm::consumeError(appended.takeError());
    return false;
  }
  return true;
}

bool StreamReader::valueTable(Graph &g, ValueTable table) {
  if (table == ValueTable::CustomObj)
    return emptyObject();
  if (!lex.consume('{'))
    return false;
  std::vector<pt2ir::Value *> order;
  bool sawTableOnly = false;
  bool first = true;
  for (;;) {
    llvm::StringRef name;
    int r = nextKey(first, name);
    if (r < 0)
      return false;
    if (r == 0)
      break;
    pt2ir::Value *val = g.lookupValue(name);
    if (!val) {
      ValueType type = table == ValueTable::Tensor    ? ValueType::Tensor
                       : table == ValueTable::SymInt  ? ValueType::SymInt
                       : table == ValueTable::SymBool ? ValueType::SymBool
                                                      : ValueType::SymFloat;
      val = g.createTableOnlyValue(name, type);
      sawTableOnly = true;
    }
    ValueMeta &md = val->getOrCreateMeta();
    if (table == ValueTable::Tensor) {
      if (md.tensor)
        return false;
      auto tm = std::make_unique<TensorMeta>();
      if (!tensorMeta(*tm))
        return false;
      md.tensor = std::move(tm);
    } else {
      auto &slot = table == ValueTable::SymInt    ? md.symInt
                   : table == ValueTable::SymBool ? md.symBool
                                                  : md.symFloat;
      if (slot)
        return false;
      auto sv = std::make_unique<SymValue>();
      if (!symValue(table, *sv))
        return false;
      slot = std::move(sv);
    }
    order.push_back(val);
  }
  std::vector<pt2ir::Value *> natural = g.getTableEntries(table);
  if (sawTableOnly || natural != order)
    g.setExplicitTableOrder(table, std::move(order));
  return true;
}

bool StreamReader::graph(Graph &g) {
  bool first = true;
  if (!lex.consume('{') || !field(first, "inputs"))
    return false;
  bool ok = list([&] {
    Argument a;
    if (!argument(a))
      return false;
    if (auto err = g.addInput(std::move(a))) {
      llvm::consumeError(std::move(err));
      return false;
    }
    return true;
  });
  if (!ok || !field(first, "outputs"))
    return false;
  // Outputs name node values: read them after the nodes, as the DOM reader
  // does.
  size_t outputsAt = lex.offset();
  if (!lex.skipContainer() || !field(first, "nodes") ||
      !list([&] { return node(g) && (reportProgress(), true); }))
    return false;
  size_t resumeAt = lex.offset();
  lex.seek(outputsAt);
  ok = list([&] {
    Argument a;
    if (!argument(a))
      return false;
    if (auto err = g.addOutput(std::move(a))) {
      llvm::consumeError(std::move(err));
      return false;
    }
    return true;
  });
  if (!ok)
    return false;
  lex.seek(resumeAt);
  bool single = false;
  if (!field(first, "tensor_values") || !valueTable(g, ValueTable::Tensor) ||
      !field(first, "sym_int_values") || !valueTable(g, ValueTable::SymInt) ||
      !field(first, "sym_bool_values") || !valueTable(g, ValueTable::SymBool) ||
      !field(first, "is_single_tensor_return") || !boolean(single) ||
      !field(first, "custom_obj_values") ||
      !valueTable(g, ValueTable::CustomObj) ||
      !field(first, "sym_float_values") ||
      !valueTable(g, ValueTable::SymFloat) || !lex.consume('}'))
    return false;
  g.setSingleTensorReturn(single);
  return true;
}

bool StreamReader::inputSpec(InputSpec &out) {
  return unionOf([&](llvm::StringRef key) {
    bool first = true;
    if (key == "user_input") {
      out.kind = InputKind::UserInput;
      return lex.consume('{') && field(first, "arg") && argument(out.arg) &&
             lex.consume('}');
    }
    if (key == "parameter")
      out.kind = InputKind::Parameter;
    else if (key == "buffer")
      out.kind = InputKind::Buffer;
    else if (key == "tensor_constant")
      out.kind = InputKind::TensorConstant;
    else
      return false;
    llvm::StringRef name;
    if (!lex.consume('{') || !field(first, "arg") || !tensorName(name))
      return false;
    out.arg = Argument::tensor(ctx, name);
    if (!field(first, inputKindTargetField(out.kind)) ||
        !internedString(out.target))
      return false;
    if (out.kind == InputKind::Buffer &&
        (!field(first, "persistent") || !boolean(out.persistent)))
      return false;
    return lex.consume('}');
  });
}

bool StreamReader::outputSpec(OutputSpec &out) {
  static const OutputKind Kinds[] = {
      OutputKind::UserOutput,          OutputKind::LossOutput,
      OutputKind::BufferMutation,      OutputKind::GradientToParameter,
      OutputKind::GradientToUserInput, OutputKind::UserInputMutation,
      OutputKind::ParameterMutation};
  return unionOf([&](llvm::StringRef key) {
    bool known = false;
    for (OutputKind k : Kinds)
      if (key == outputKindMemberName(k)) {
        out.kind = k;
        known = true;
      }
    bool first = true;
    if (!known || !lex.consume('{') || !field(first, "arg"))
      return false;
    if (out.kind == OutputKind::UserOutput) {
      if (!argument(out.arg))
        return false;
    } else {
      llvm::StringRef name;
      if (!tensorName(name))
        return false;
      out.arg = Argument::tensor(ctx, name);
    }
    llvm::StringRef target = outputKindTargetField(out.kind);
    if (!target.empty() &&
        (!field(first, target) || !internedString(out.target)))
      return false;
    return lex.consume('}');
  });
}

bool StreamReader::signature(GraphSignature &out) {
  bool first = true;
  return lex.consume('{') && field(first, "input_specs") &&
         listOf(out.inputSpecs, [&](InputSpec &s) { return inputSpec(s); }) &&
         field(first, "output_specs") &&
         listOf(out.outputSpecs,
                [&](OutputSpec &s) { return outputSpec(s); }) &&
         lex.consume('}');
}

bool StreamReader::moduleCallEntry(ModuleCallEntry &out) {
  bool first = true;
  if (!lex.consume('{') || !field(first, "fqn") || !internedString(out.fqn) ||
      !field(first, "signature"))
    return false;
  if (isNull())
    return lex.literal("null") && lex.consume('}');
  ModuleCallSignature sig;
  bool f = true;
  auto args = [&](std::vector<Argument> &dst) {
    return listOf(dst, [&](Argument &a) { return argument(a); });
  };
  if (!lex.consume('{') || !field(f, "inputs") || !args(sig.inputs) ||
      !field(f, "outputs") || !args(sig.outputs) || !field(f, "in_spec") ||
      !stdString(sig.inSpec) || !field(f, "out_spec") ||
      !stdString(sig.outSpec) || !field(f, "forward_arg_names"))
    return false;
  if (isNull()) {
    if (!lex.literal("null"))
      return false;
  } else {
    std::vector<llvm::StringRef> names;
    if (!listOf(names, [&](llvm::StringRef &n) { return internedString(n); }))
      return false;
    sig.forwardArgNames = std::move(names);
  }
  if (!lex.consume('}'))
    return false;
  out.signature = std::move(sig);
  return lex.consume('}');
}

bool StreamReader::graphModule(GraphModule &out) {
  bool first = true;
  return lex.consume('{') && field(first, "graph") && graph(*out.graph) &&
         field(first, "signature") && signature(out.signature) &&
         field(first, "module_call_graph") &&
         listOf(out.moduleCallGraph,
                [&](ModuleCallEntry &e) { return moduleCallEntry(e); }) &&
         field(first, "metadata") &&
         stringPairs(out.metadata, /*cacheValues=*/false) &&
         field(first, "treespec_namedtuple_fields") && emptyObject() &&
         lex.consume('}');
}

bool StreamReader::readProgram(ExportedProgram &ep) {
  bool first = true;
  if (!lex.consume('{') || !field(first, "graph_module") ||
      !graphModule(ep.graphModule) || !field(first, "opset_version") ||
      !lex.consume('{'))
    return false;
  bool f = true;
  for (;;) {
    llvm::StringRef key;
    int r = nextKey(f, key);
    if (r < 0)
      return false;
    if (r == 0)
      break;
    llvm::StringRef name = ctx.intern(key);
    int64_t version;
    if (!lex.integer(version))
      return false;
    ep.opsetVersion.emplace_back(name, version);
  }
  if (!field(first, "range_constraints") || !lex.consume('{'))
    return false;
  f = true;
  for (;;) {
    llvm::StringRef key;
    int r = nextKey(f, key);
    if (r < 0)
      return false;
    if (r == 0)
      break;
    llvm::StringRef symbol = ctx.intern(key);
    RangeConstraint rc;
    bool rf = true;
    if (!lex.consume('{') || !field(rf, "min_val") ||
        !rangeConstraintEnd(rc.minVal) || !field(rf, "max_val") ||
        !rangeConstraintEnd(rc.maxVal) || !lex.consume('}'))
      return false;
    ep.rangeConstraints.emplace_back(symbol, std::move(rc));
  }
  bool vf = true;
  if (!field(first, "schema_version") || !lex.consume('{') ||
      !field(vf, "major") || !lex.integer(ep.schemaVersion.major) ||
      !field(vf, "minor") || !lex.integer(ep.schemaVersion.minor) ||
      !lex.consume('}') || ep.schemaVersion.major != SchemaMajor)
    return false;
  return field(first, "verifiers") &&
         listOf(ep.verifiers,
                [&](llvm::StringRef &s) { return internedString(s); }) &&
         field(first, "torch_version") && stdString(ep.torchVersion) &&
         field(first, "guards_code") &&
         listOf(ep.guardsCode, [&](std::string &s) { return stdString(s); }) &&
         lex.consume('}') && lex.atEnd();
}

} // namespace

std::optional<ExportedProgram>
readProgramStreaming(llvm::StringRef json, const ReadOptions &options) {
  ExportedProgram ep(options.registry);
  StreamReader reader(json, ep.getContext(), options);
  if (!reader.readProgram(ep))
    return std::nullopt;
  return ep;
}

} // namespace pt2ir
