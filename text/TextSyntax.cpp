//===- TextSyntax.cpp - Spellings shared by the text printer and parser ---===//

#include "pt2ir/text/TextSyntax.h"
#include "pt2ir/ir/Enums.h"
#include "pt2ir/ir/OperatorRegistry.h"
#include "pt2ir/ir/PyRepr.h"
#include "llvm/ADT/StringExtras.h"
#include <cmath>

namespace pt2ir::text {

bool isIdentifier(llvm::StringRef s) {
  if (s.empty() || !(llvm::isAlpha(s[0]) || s[0] == '_'))
    return false;
  return llvm::all_of(s, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

bool isBareValueName(llvm::StringRef s) {
  return !s.empty() && llvm::all_of(s, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

void appendQuoted(std::string &out, llvm::StringRef s) {
  static const char Hex[] = "0123456789abcdef";
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\t': out += "\\t"; break;
    case '\r': out += "\\r"; break;
    default:
      if (c < 0x20 || c == 0x7f) {
        out += "\\x";
        out += Hex[c >> 4];
        out += Hex[c & 15];
      } else {
        out += static_cast<char>(c);
      }
    }
  }
  out += '"';
}

void appendFloat(std::string &out, double v) {
  if (std::isnan(v)) {
    out += std::signbit(v) ? "-nan" : "nan";
    return;
  }
  if (std::isinf(v)) {
    out += v < 0 ? "-inf" : "inf";
    return;
  }
  appendPyFloatRepr(out, v);
}

size_t scanExpr(llvm::StringRef text, size_t pos) {
  int depth = 0;
  for (; pos < text.size(); ++pos) {
    char c = text[pos];
    if (c == '\n' || c == '\r' || c == '{' || c == '}' || c == '"')
      return pos;
    if (c == '(' || c == '[') {
      ++depth;
      continue;
    }
    if (c == ')' || c == ']') {
      if (depth == 0)
        return pos;
      --depth;
      continue;
    }
    if (c == ',' && depth == 0)
      return pos;
  }
  return pos;
}

static bool readsAsNumber(llvm::StringRef s) {
  s.consume_front("-");
  if (s.empty())
    return false;
  if (s == "inf" || s == "nan")
    return true;
  return llvm::isDigit(s[0]) || s[0] == '.';
}

bool exprPrintsBare(llvm::StringRef expr) {
  if (expr.empty() || expr.front() == ' ' || expr.back() == ' ' ||
      expr.front() == '\t' || expr.back() == '\t')
    return false;
  if (expr == "True" || expr == "False" || expr == "None" || readsAsNumber(expr))
    return false;
  if (!(llvm::isAlpha(expr[0]) || expr[0] == '_' || expr[0] == '(' || expr[0] == '-'))
    return false;
  if (llvm::any_of(expr, [](char c) {
        return static_cast<unsigned char>(c) < 0x20 || c == '"' || c == '\\' ||
               c == '%' || c == '@' || c == '#';
      }))
    return false;
  return scanExpr(expr, 0) == expr.size();
}

static bool keepsPrefix(llvm::StringRef s) {
  return s.starts_with("_operator.") || s.starts_with("builtins.") ||
         s.starts_with("math.") || s.starts_with("torch.") || s.starts_with("#");
}

bool isBareTarget(llvm::StringRef s) {
  if (s.empty() || !(llvm::isAlpha(s[0]) || s[0] == '_' || s[0] == '#'))
    return false;
  if (s.back() == '.' || s.back() == ':')
    return false;
  if (!llvm::all_of(s, [](char c) {
        return llvm::isAlnum(c) || c == '_' || c == '.' || c == ':' || c == '#';
      }))
    return false;
  return s.contains('.') || s.contains(':');
}

std::string targetSpelling(llvm::StringRef target) {
  llvm::StringRef rest = target;
  if (rest.consume_front("torch.ops.")) {
    if (!keepsPrefix(rest) && isBareTarget(rest))
      return rest.str();
    return isBareTarget(target) ? target.str() : std::string();
  }
  if (keepsPrefix(target) && isBareTarget(target))
    return target.str();
  return std::string();
}

std::string targetFromSpelling(llvm::StringRef spelling) {
  if (keepsPrefix(spelling))
    return spelling.str();
  return ("torch.ops." + spelling).str();
}

std::optional<int64_t> scalarTypeFromShortName(llvm::StringRef name) {
  // Short names are 2 to 9 characters (`b8`, `f8e4m3fnuz`); most lookups
  // are `f32`, so try the common ones first.
  if (name.size() < 2 || name.size() > 12)
    return std::nullopt;
  static const int64_t Common[] = {7, 5, 12, 6, 13, 8, 4};
  for (int64_t v : Common)
    if (scalarTypeShortName(v) == name)
      return v;
  for (int64_t v = 0; v < 64; ++v)
    if (isValidScalarType(v) && scalarTypeShortName(v) == name)
      return v;
  return std::nullopt;
}

llvm::StringRef torchMemoryFormatName(int64_t v) {
  static const char *const Names[] = {"unknown_format", "contiguous_format", "channels_last",
                                      "channels_last_3d", "preserve_format"};
  return v >= 0 && v <= 4 ? Names[v] : "";
}

llvm::StringRef torchLayoutName(int64_t v) {
  static const char *const Names[] = {"unknown_layout", "sparse_coo", "sparse_csr",
                                      "sparse_csc",     "sparse_bsr", "sparse_bsc",
                                      "_mkldnn",        "strided"};
  return v >= 0 && v <= 7 ? Names[v] : "";
}

std::optional<llvm::StringRef> positionalName(const OperatorSchema *schema,
                                              llvm::StringRef target, size_t index) {
  if (target.starts_with("_operator.")) {
    static const char *const Names[] = {"a", "b", "c"};
    return index < 3 ? std::optional<llvm::StringRef>(Names[index]) : std::nullopt;
  }
  if (schema) {
    auto args = schema->arguments();
    if (index >= args.size() || args[index].KwargOnly)
      return std::nullopt;
    return args[index].Name;
  }
  return llvm::StringRef();
}

std::optional<std::vector<SymValue>> defaultStrides(IRContext &ctx, const TensorMeta &m) {
  if (llvm::all_of(m.sizes, [](const SymValue &s) { return s.kind == SymValue::Kind::Int; })) {
    std::vector<SymValue> strides(m.sizes.size());
    int64_t running = 1;
    for (size_t i = m.sizes.size(); i-- > 0;) {
      strides[i] = SymValue::ofInt(running);
      if (__builtin_mul_overflow(running, m.sizes[i].intValue, &running))
        running = 0; // Only the strides before an overflow can be right.
    }
    return strides;
  }
  if (llvm::any_of(m.sizes, [](const SymValue &s) {
        return s.kind != SymValue::Kind::Int && s.kind != SymValue::Kind::Expr;
      }))
    return std::nullopt;
  auto shape = m.getShape();
  if (!shape) {
    llvm::consumeError(shape.takeError());
    return std::nullopt;
  }
  return TensorMeta::contiguous(ctx, m.dtype, *shape).strides;
}

const std::optional<std::vector<SymValue>> &StridesCache::get(const TensorMeta &m) {
  // The key spells each size: `i<value>` or `e<expression>`, NUL-separated.
  key.clear();
  for (const SymValue &s : m.sizes) {
    switch (s.kind) {
    case SymValue::Kind::Int: key += 'i'; key += std::to_string(s.intValue); break;
    case SymValue::Kind::Expr: key += 'e'; key += s.expr.exprStr; break;
    default: key += 'x'; break;
    }
    key += '\0';
  }
  auto [it, inserted] = cache.try_emplace(key);
  if (inserted)
    it->second = defaultStrides(ctx, m);
  return it->second;
}

} // namespace pt2ir::text
