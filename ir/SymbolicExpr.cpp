//===- SymbolicExpr.cpp - Expression nodes, builders and queries ----------===//
//
// The node representation behind `Expr`, the builders, structural equality
// and hashing, free-symbol queries, symbol-name classification, and the
// rewriting entry points (substitute, rename).
//
// Parsing, printing and evaluation live in SymExprParser.cpp,
// SymExprPrinter.cpp and SymExprEval.cpp; SymExprText is in SymExprText.cpp.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/ir/SymbolicExpr.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>
#include <cmath>
#include <cstring>
#include <numeric>

namespace pt2ir::sym {

/// The shared, immutable payload of an Expr. Only the fields that matter for
/// `kind` are meaningful.
class ExprNode {
public:
  explicit ExprNode(ExprKind kind) : kind(kind) {}

  ExprKind kind;
  /// Kind-specific bit: FloorDiv written as a call in plain text; Infinity is
  /// torch's int_oo; Float spelling is an srepr string.
  bool flag = false;
  /// Infinity sign.
  bool negative = false;
  /// Boolean value.
  bool boolean = false;
  unsigned depth = 1;
  size_t hash = 0;
  /// Integer value, Rational numerator.
  int64_t first = 0;
  /// Rational denominator, Float precision.
  int64_t second = 0;
  /// Float value.
  double real = 0;
  /// Symbol/Call/SpecialConstant name, or Float spelling.
  std::string text;
  std::vector<SymbolAssumption> assumptions;
  std::vector<Expr> operands;
};

/// Grants the builders access to Expr's private constructor.
class ExprBuilderAccess {
public:
  static Expr wrap(std::shared_ptr<const ExprNode> node) {
    return Expr(std::move(node));
  }
};

namespace {

size_t hashFloat(double value) {
  if (value == 0)
    value = 0; // -0.0 and 0.0 compare equal.
  if (std::isnan(value))
    return 0x7ff8;
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return llvm::hash_value(bits);
}

/// Computes depth and hash, then freezes the node into an Expr.
Expr finish(std::shared_ptr<ExprNode> node) {
  llvm::hash_code code = llvm::hash_value(static_cast<unsigned>(node->kind));
  unsigned maxChild = 0;
  for (const Expr &operand : node->operands) {
    assert(!operand.isNull() && "null operand");
    maxChild = std::max(maxChild, operand.depth());
    code = llvm::hash_combine(code, operand.hash());
  }
  node->depth = maxChild + 1;
  switch (node->kind) {
  case ExprKind::Integer:
    code = llvm::hash_combine(code, node->first);
    break;
  case ExprKind::Rational:
    code = llvm::hash_combine(code, node->first, node->second);
    break;
  case ExprKind::Float:
    code = llvm::hash_combine(code, hashFloat(node->real));
    break;
  case ExprKind::Boolean:
    code = llvm::hash_combine(code, node->boolean);
    break;
  case ExprKind::Infinity:
    code = llvm::hash_combine(code, node->negative, node->flag);
    break;
  case ExprKind::SpecialConstant:
  case ExprKind::Symbol:
  case ExprKind::Call:
    code = llvm::hash_combine(code, llvm::StringRef(node->text));
    break;
  default:
    break;
  }
  node->hash = static_cast<size_t>(code);
  return ExprBuilderAccess::wrap(std::move(node));
}

Expr makeWithOperands(ExprKind kind, llvm::ArrayRef<Expr> operands) {
  auto node = std::make_shared<ExprNode>(kind);
  node->operands.assign(operands.begin(), operands.end());
  return finish(std::move(node));
}

const ExprNode &nodeOf(const Expr &expr) {
  assert(!expr.isNull() && "use of a null Expr");
  return *expr.getNode();
}

bool payloadEqual(const ExprNode &a, const ExprNode &b) {
  switch (a.kind) {
  case ExprKind::Integer:
    return a.first == b.first;
  case ExprKind::Rational:
    return a.first == b.first && a.second == b.second;
  case ExprKind::Float:
    return a.real == b.real || (std::isnan(a.real) && std::isnan(b.real));
  case ExprKind::Boolean:
    return a.boolean == b.boolean;
  case ExprKind::Infinity:
    return a.negative == b.negative && a.flag == b.flag;
  case ExprKind::SpecialConstant:
  case ExprKind::Symbol:
  case ExprKind::Call:
    return a.text == b.text;
  default:
    return true;
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// Expr accessors
//===----------------------------------------------------------------------===//

ExprKind Expr::kind() const { return nodeOf(*this).kind; }
llvm::ArrayRef<Expr> Expr::operands() const { return nodeOf(*this).operands; }
unsigned Expr::depth() const { return nodeOf(*this).depth; }
size_t Expr::hash() const { return nodeOf(*this).hash; }

int64_t Expr::integerValue() const {
  assert(kind() == ExprKind::Integer);
  return nodeOf(*this).first;
}
int64_t Expr::numerator() const {
  assert(kind() == ExprKind::Rational);
  return nodeOf(*this).first;
}
int64_t Expr::denominator() const {
  assert(kind() == ExprKind::Rational);
  return nodeOf(*this).second;
}
double Expr::floatValue() const {
  assert(kind() == ExprKind::Float);
  return nodeOf(*this).real;
}
unsigned Expr::floatPrecision() const {
  assert(kind() == ExprKind::Float);
  return static_cast<unsigned>(nodeOf(*this).second);
}
llvm::StringRef Expr::floatSpelling() const {
  assert(kind() == ExprKind::Float);
  return nodeOf(*this).text;
}
Form Expr::floatSpellingForm() const {
  assert(kind() == ExprKind::Float);
  return nodeOf(*this).flag ? Form::Srepr : Form::Plain;
}
bool Expr::hasCallSpelling() const {
  return kind() == ExprKind::FloorDiv && nodeOf(*this).flag;
}
bool Expr::booleanValue() const {
  assert(kind() == ExprKind::Boolean);
  return nodeOf(*this).boolean;
}
bool Expr::isNegativeInfinity() const {
  assert(kind() == ExprKind::Infinity);
  return nodeOf(*this).negative;
}
bool Expr::isIntegerInfinity() const {
  assert(kind() == ExprKind::Infinity);
  return nodeOf(*this).flag;
}
llvm::StringRef Expr::name() const {
  assert(kind() == ExprKind::Symbol || kind() == ExprKind::Call ||
         kind() == ExprKind::SpecialConstant);
  return nodeOf(*this).text;
}
llvm::ArrayRef<SymbolAssumption> Expr::assumptions() const {
  assert(kind() == ExprKind::Symbol);
  return nodeOf(*this).assumptions;
}

bool Expr::operator==(const Expr &other) const {
  if (node == other.node)
    return true;
  if (!node || !other.node)
    return false;
  const ExprNode &a = *node;
  const ExprNode &b = *other.node;
  if (a.hash != b.hash || a.kind != b.kind ||
      a.operands.size() != b.operands.size() || !payloadEqual(a, b))
    return false;
  for (size_t i = 0, e = a.operands.size(); i != e; ++i)
    if (a.operands[i] != b.operands[i])
      return false;
  return true;
}

//===----------------------------------------------------------------------===//
// Builders
//===----------------------------------------------------------------------===//

Expr makeInteger(int64_t value) {
  auto node = std::make_shared<ExprNode>(ExprKind::Integer);
  node->first = value;
  return finish(std::move(node));
}

Expr makeRational(int64_t numerator, int64_t denominator) {
  if (denominator == 0)
    return Expr();
  int64_t divisor = std::gcd(numerator, denominator);
  if (divisor == 0)
    divisor = 1;
  // std::gcd of INT64_MIN can overflow; refuse rather than misreduce.
  if (divisor < 0 || numerator == INT64_MIN || denominator == INT64_MIN)
    return Expr();
  numerator /= divisor;
  denominator /= divisor;
  if (denominator < 0) {
    numerator = -numerator;
    denominator = -denominator;
  }
  if (denominator == 1)
    return makeInteger(numerator);
  auto node = std::make_shared<ExprNode>(ExprKind::Rational);
  node->first = numerator;
  node->second = denominator;
  return finish(std::move(node));
}

Expr makeFloat(double value, unsigned precision, llvm::StringRef spelling,
               Form spellingForm) {
  auto node = std::make_shared<ExprNode>(ExprKind::Float);
  node->real = value;
  node->second = precision;
  node->text = spelling.str();
  node->flag = spellingForm == Form::Srepr;
  return finish(std::move(node));
}

Expr makeBoolean(bool value) {
  auto node = std::make_shared<ExprNode>(ExprKind::Boolean);
  node->boolean = value;
  return finish(std::move(node));
}

Expr makeInfinity(bool negative, bool integerInfinity) {
  auto node = std::make_shared<ExprNode>(ExprKind::Infinity);
  node->negative = negative;
  node->flag = integerInfinity;
  return finish(std::move(node));
}

Expr makeSpecialConstant(llvm::StringRef name) {
  auto node = std::make_shared<ExprNode>(ExprKind::SpecialConstant);
  node->text = name.str();
  return finish(std::move(node));
}

Expr makeSymbol(llvm::StringRef name,
                llvm::ArrayRef<SymbolAssumption> assumptions) {
  auto node = std::make_shared<ExprNode>(ExprKind::Symbol);
  node->text = name.str();
  node->assumptions.assign(assumptions.begin(), assumptions.end());
  return finish(std::move(node));
}

Expr makeAdd(llvm::ArrayRef<Expr> operands) {
  if (operands.empty())
    return makeInteger(0);
  if (operands.size() == 1)
    return operands.front();
  return makeWithOperands(ExprKind::Add, operands);
}

Expr makeMul(llvm::ArrayRef<Expr> operands) {
  if (operands.empty())
    return makeInteger(1);
  if (operands.size() == 1)
    return operands.front();
  return makeWithOperands(ExprKind::Mul, operands);
}

Expr makePow(Expr base, Expr exponent) {
  return makeWithOperands(ExprKind::Pow, {base, exponent});
}

Expr makeFloorDiv(Expr base, Expr divisor, bool callSpelling) {
  auto node = std::make_shared<ExprNode>(ExprKind::FloorDiv);
  node->operands = {std::move(base), std::move(divisor)};
  node->flag = callSpelling;
  return finish(std::move(node));
}

Expr makeMod(Expr base, Expr divisor) {
  return makeWithOperands(ExprKind::Mod, {base, divisor});
}

Expr makeMin(llvm::ArrayRef<Expr> operands) {
  assert(!operands.empty() && "Min needs an operand");
  return makeWithOperands(ExprKind::Min, operands);
}

Expr makeMax(llvm::ArrayRef<Expr> operands) {
  assert(!operands.empty() && "Max needs an operand");
  return makeWithOperands(ExprKind::Max, operands);
}

Expr makeRelational(ExprKind kind, Expr lhs, Expr rhs) {
  assert(isRelational(kind) && "not a relational kind");
  return makeWithOperands(kind, {lhs, rhs});
}

Expr makeAnd(llvm::ArrayRef<Expr> operands) {
  assert(!operands.empty() && "And needs an operand");
  return makeWithOperands(ExprKind::And, operands);
}

Expr makeOr(llvm::ArrayRef<Expr> operands) {
  assert(!operands.empty() && "Or needs an operand");
  return makeWithOperands(ExprKind::Or, operands);
}

Expr makeNot(Expr operand) {
  return makeWithOperands(ExprKind::Not, {operand});
}

Expr makeCall(llvm::StringRef name, llvm::ArrayRef<Expr> operands) {
  auto node = std::make_shared<ExprNode>(ExprKind::Call);
  node->text = name.str();
  node->operands.assign(operands.begin(), operands.end());
  return finish(std::move(node));
}

Expr rebuildWithOperands(const Expr &like, llvm::ArrayRef<Expr> operands) {
  auto node = std::make_shared<ExprNode>(nodeOf(like));
  node->operands.assign(operands.begin(), operands.end());
  return finish(std::move(node));
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

namespace {

/// Visits every node once per occurrence, pre-order, left to right, without
/// recursion. Stops when `visit` returns false.
template <typename Fn> void walkPreorder(const Expr &root, Fn visit) {
  llvm::SmallVector<const Expr *, 32> stack{&root};
  while (!stack.empty()) {
    const Expr *current = stack.pop_back_val();
    if (!visit(*current))
      return;
    llvm::ArrayRef<Expr> operands = current->operands();
    for (size_t i = operands.size(); i-- > 0;)
      stack.push_back(&operands[i]);
  }
}

} // namespace

std::vector<std::string> freeSymbols(const Expr &expr) {
  std::vector<std::string> names;
  llvm::StringSet<> seen;
  walkPreorder(expr, [&](const Expr &node) {
    if (node.kind() == ExprKind::Symbol && seen.insert(node.name()).second)
      names.push_back(node.name().str());
    return true;
  });
  return names;
}

bool containsSymbol(const Expr &expr, llvm::StringRef name) {
  bool found = false;
  walkPreorder(expr, [&](const Expr &node) {
    found = node.kind() == ExprKind::Symbol && node.name() == name;
    return !found;
  });
  return found;
}

namespace {

/// Splits `name` into a torch prefix and a decimal index.
std::optional<std::pair<SymbolPrefix, uint64_t>>
splitTorchName(llvm::StringRef name) {
  static constexpr std::pair<llvm::StringLiteral, SymbolPrefix> prefixes[] = {
      {"zuf", SymbolPrefix::UnbackedFloat},
      {"zf", SymbolPrefix::Float},
      {"s", SymbolPrefix::Size},
      {"u", SymbolPrefix::UnbackedInt},
  };
  for (const auto &[prefix, kind] : prefixes) {
    if (!name.starts_with(prefix))
      continue;
    llvm::StringRef digits = name.drop_front(prefix.size());
    if (digits.empty() ||
        !llvm::all_of(digits, [](char c) { return c >= '0' && c <= '9'; }))
      return std::nullopt;
    uint64_t index;
    if (digits.getAsInteger(10, index))
      return std::nullopt;
    return std::make_pair(kind, index);
  }
  return std::nullopt;
}

} // namespace

SymbolPrefix classifySymbol(llvm::StringRef name) {
  if (auto split = splitTorchName(name))
    return split->first;
  return SymbolPrefix::Other;
}

bool isUnbackedSymbol(llvm::StringRef name) {
  SymbolPrefix prefix = classifySymbol(name);
  return prefix == SymbolPrefix::UnbackedInt ||
         prefix == SymbolPrefix::UnbackedFloat;
}

bool isBackedSymbol(llvm::StringRef name) {
  SymbolPrefix prefix = classifySymbol(name);
  return prefix == SymbolPrefix::Size || prefix == SymbolPrefix::Float;
}

std::optional<uint64_t> symbolIndex(llvm::StringRef name) {
  if (auto split = splitTorchName(name))
    return split->second;
  return std::nullopt;
}

std::optional<llvm::StringRef> asSymbol(const Expr &expr) {
  if (expr.isNull() || expr.kind() != ExprKind::Symbol)
    return std::nullopt;
  return expr.name();
}

std::optional<int64_t> asInteger(const Expr &expr) {
  if (expr.isNull() || expr.kind() != ExprKind::Integer)
    return std::nullopt;
  return expr.integerValue();
}

std::optional<bool> asBoolean(const Expr &expr) {
  if (expr.isNull() || expr.kind() != ExprKind::Boolean)
    return std::nullopt;
  return expr.booleanValue();
}

bool isRelational(ExprKind kind) {
  switch (kind) {
  case ExprKind::Eq:
  case ExprKind::Ne:
  case ExprKind::Lt:
  case ExprKind::Le:
  case ExprKind::Gt:
  case ExprKind::Ge:
    return true;
  default:
    return false;
  }
}

std::optional<RelationalParts> asRelational(const Expr &expr) {
  if (expr.isNull() || !isRelational(expr.kind()))
    return std::nullopt;
  return RelationalParts{expr.kind(), expr.operand(0), expr.operand(1)};
}

//===----------------------------------------------------------------------===//
// Rewriting
//===----------------------------------------------------------------------===//

namespace {

/// Rebuilds `expr` bottom-up, replacing leaves via `rewriteLeaf` (which
/// returns a null Expr to keep a leaf). Shares unchanged subtrees. Recursion
/// is bounded by the input depth.
template <typename Fn> Expr rewriteLeaves(const Expr &expr, Fn &rewriteLeaf) {
  llvm::ArrayRef<Expr> operands = expr.operands();
  if (operands.empty()) {
    Expr replacement = rewriteLeaf(expr);
    return replacement.isNull() ? expr : replacement;
  }
  llvm::SmallVector<Expr, 4> rebuilt;
  bool changed = false;
  for (const Expr &operand : operands) {
    rebuilt.push_back(rewriteLeaves(operand, rewriteLeaf));
    changed |= !rebuilt.back().isSameNode(operand);
  }
  return changed ? rebuildWithOperands(expr, rebuilt) : expr;
}

} // namespace

llvm::Expected<Expr> substitute(const Expr &expr,
                                const llvm::StringMap<Expr> &replacements) {
  auto rewriteLeaf = [&](const Expr &leaf) -> Expr {
    if (leaf.kind() != ExprKind::Symbol)
      return Expr();
    auto it = replacements.find(leaf.name());
    if (it == replacements.end())
      return Expr();
    assert(!it->second.isNull() && "null replacement");
    return it->second;
  };
  // Depth of the result is at most input depth + deepest replacement used.
  unsigned deepestReplacement = 0;
  for (const std::string &name : freeSymbols(expr)) {
    auto it = replacements.find(name);
    if (it != replacements.end() && !it->second.isNull())
      deepestReplacement = std::max(deepestReplacement, it->second.depth());
  }
  if (expr.depth() + deepestReplacement > kMaxExprDepth)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "substitution would build an expression of depth %u, deeper than the "
        "limit of %u",
        expr.depth() + deepestReplacement, kMaxExprDepth);
  Expr result = rewriteLeaves(expr, rewriteLeaf);
  if (llvm::Error err = checkPrintsWithinParseNesting(result))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "substitution would build an expression "
                                   "that cannot be read back: %s",
                                   llvm::toString(std::move(err)).c_str());
  return result;
}

Expr renameSymbols(const Expr &expr,
                   const llvm::StringMap<std::string> &renames) {
  auto rewriteLeaf = [&](const Expr &leaf) -> Expr {
    if (leaf.kind() != ExprKind::Symbol)
      return Expr();
    auto it = renames.find(leaf.name());
    if (it == renames.end() || it->second == leaf.name())
      return Expr();
    return makeSymbol(it->second, leaf.assumptions());
  };
  return rewriteLeaves(expr, rewriteLeaf);
}

llvm::StringRef kindName(ExprKind kind) {
  switch (kind) {
  case ExprKind::Integer:
    return "Integer";
  case ExprKind::Rational:
    return "Rational";
  case ExprKind::Float:
    return "Float";
  case ExprKind::Boolean:
    return "Boolean";
  case ExprKind::Infinity:
    return "Infinity";
  case ExprKind::SpecialConstant:
    return "SpecialConstant";
  case ExprKind::Symbol:
    return "Symbol";
  case ExprKind::Add:
    return "Add";
  case ExprKind::Mul:
    return "Mul";
  case ExprKind::Pow:
    return "Pow";
  case ExprKind::FloorDiv:
    return "FloorDiv";
  case ExprKind::Mod:
    return "Mod";
  case ExprKind::Min:
    return "Min";
  case ExprKind::Max:
    return "Max";
  case ExprKind::Eq:
    return "Eq";
  case ExprKind::Ne:
    return "Ne";
  case ExprKind::Lt:
    return "Lt";
  case ExprKind::Le:
    return "Le";
  case ExprKind::Gt:
    return "Gt";
  case ExprKind::Ge:
    return "Ge";
  case ExprKind::And:
    return "And";
  case ExprKind::Or:
    return "Or";
  case ExprKind::Not:
    return "Not";
  case ExprKind::Call:
    return "Call";
  }
  return "Unknown";
}

llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const Expr &expr) {
  return os << toString(expr, Form::Plain);
}

} // namespace pt2ir::sym
