//===- CanonicalizeSymbols.cpp - Name backed symbols after their source ---===//
//
// The `canonicalize-symbols` pass. Export numbers backed shape symbols
// (`s0`, `s1`, ...) in the order it meets them, so the same model exported
// twice can come out with different numbers. This pass renames each backed
// symbol after the first graph-input position that binds it: for every
// top-level graph input in order, each size, stride and storage offset (or
// the sym-int input itself) whose expression is exactly one symbol. The new
// number is a stable hash of that position (`x:size:0`) modulo 10007, moved
// to the next free number on a collision, so equal programs get equal names
// whatever their original numbering.
//
// The rename reaches every place a symbol is written: tensor metadata and
// sym value tables of every graph (subgraphs included), range_constraints
// keys (which are then sorted, for the same reason), and the expressions
// inside `Runtime assertion failed for expression ...` messages (a message
// whose expression does not parse gets its symbol-like words renamed). Each
// expression keeps its form: srepr stays srepr, plain stays plain; an
// expression without a renamed symbol keeps its text byte for byte. In the
// rewritten ones, the non-constant operands of commutative operators (Add,
// Mul, Min, Max, And, Or, Eq, Ne) are sorted by their text, because sympy
// orders them by symbol name and so by the old numbering. Nothing else about
// an expression changes: no simplification.
//
// Deliberately not renamed: unbacked symbols (`u0`, they are bound by nodes,
// not inputs), symbols no graph input binds, and `guards_code` (Python
// source, which pt2ir does not rewrite).
//
//===----------------------------------------------------------------------===//

#include "pt2ir/passes/PassRegistry.h"
#include "pt2ir/passes/Passes.h"

#include "pt2ir/ir/SymbolicExpr.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <tuple>

namespace pt2ir {

namespace {

/// The modulus of the symbol-number hash.
constexpr uint64_t kSymbolHashModulus = 10007;
/// Subgraphs nested deeper than this are an error.
constexpr unsigned kMaxSubgraphDepth = 256;
constexpr llvm::StringLiteral kAssertPrefix =
    "Runtime assertion failed for expression ";
constexpr llvm::StringLiteral kAssertNodeMarker = " on node '";

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "canonicalize-symbols: " + message);
}

/// The value tables that hold expressions.
constexpr ValueTable kExprTables[] = {ValueTable::Tensor, ValueTable::SymInt,
                                      ValueTable::SymBool,
                                      ValueTable::SymFloat};

/// Calls `fn(slot, where)` on every SymValue that holds an expression in the
/// value tables of `graph` and its subgraphs; `where()` describes the slot
/// (built only when asked: this runs for every dimension of every tensor).
template <typename Fn>
llvm::Error forEachExprSlot(Graph &graph, Fn &&fn, unsigned depth = 0) {
  if (depth > kMaxSubgraphDepth)
    return makeError("subgraphs nested deeper than " +
                     llvm::Twine(kMaxSubgraphDepth) + " levels");
  auto visit = [&](SymValue *slot, Value *v, const char *field,
                   int index) -> llvm::Error {
    if (!slot || !slot->isExpr())
      return llvm::Error::success();
    auto where = [&] {
      std::string text = ("value '" + v->getName() + "' " + field).str();
      if (index >= 0)
        text += "[" + std::to_string(index) + "]";
      return text;
    };
    return fn(*slot, llvm::function_ref<std::string()>(where));
  };
  for (ValueTable table : kExprTables)
    for (Value *v : graph.getTableEntries(table)) {
      ValueMeta &meta = v->getOrCreateMeta();
      if (table == ValueTable::Tensor) {
        TensorMeta &tm = *meta.tensor;
        for (size_t i = 0; i < tm.sizes.size(); ++i)
          if (auto err = visit(&tm.sizes[i], v, "size", int(i)))
            return err;
        for (size_t i = 0; i < tm.strides.size(); ++i)
          if (auto err = visit(&tm.strides[i], v, "stride", int(i)))
            return err;
        if (auto err = visit(&tm.storageOffset, v, "storage_offset", -1))
          return err;
        continue;
      }
      SymValue *slot = table == ValueTable::SymInt    ? meta.symInt.get()
                       : table == ValueTable::SymBool ? meta.symBool.get()
                                                      : meta.symFloat.get();
      if (auto err = visit(slot, v, "sym value", -1))
        return err;
    }
  for (Node &n : graph.getNodes())
    for (Graph *body : n.getSubgraphs())
      if (auto err = forEachExprSlot(*body, fn, depth + 1))
        return err;
  return llvm::Error::success();
}

/// Calls `fn(node, inputIndex, exprText)` for every `Runtime assertion
/// failed for expression <expr> on node '...'` string input in `graph` and
/// its subgraphs.
template <typename Fn>
llvm::Error forEachAssertMessage(Graph &graph, Fn &&fn, unsigned depth = 0) {
  if (depth > kMaxSubgraphDepth)
    return makeError("subgraphs nested deeper than " +
                     llvm::Twine(kMaxSubgraphDepth) + " levels");
  for (Node &n : graph.getNodes()) {
    const auto &inputs = n.getInputs();
    for (unsigned i = 0; i < inputs.size(); ++i) {
      if (inputs[i].arg.getKind() != ArgKind::String)
        continue;
      llvm::StringRef text = inputs[i].arg.getString();
      if (!text.starts_with(kAssertPrefix))
        continue;
      if (auto err = fn(n, i, text))
        return err;
    }
    for (Graph *body : n.getSubgraphs())
      if (auto err = forEachAssertMessage(*body, fn, depth + 1))
        return err;
  }
  return llvm::Error::success();
}

/// Splits an assert message into the text before the expression, the
/// expression and the rest; false when it does not have that shape.
bool splitAssertMessage(llvm::StringRef message, llvm::StringRef &expr,
                        llvm::StringRef &rest) {
  llvm::StringRef body = message.drop_front(kAssertPrefix.size());
  size_t marker = body.rfind(kAssertNodeMarker);
  if (marker == llvm::StringRef::npos)
    return false;
  expr = body.take_front(marker);
  rest = body.drop_front(marker);
  return !expr.empty();
}

/// `text` with every identifier that `renames` maps replaced.
std::string renameIdentifiers(llvm::StringRef text,
                              const llvm::StringMap<std::string> &renames) {
  std::string out;
  size_t copied = 0;
  sym::forEachIdentifier(text, [&](llvm::StringRef word) {
    auto it = renames.find(word);
    if (it == renames.end())
      return;
    size_t at = word.data() - text.data();
    out += text.slice(copied, at).str() + it->second;
    copied = at + word.size();
  });
  return out + text.drop_front(copied).str();
}

/// Natural order for symbol names: prefix, then number, then the name.
bool symbolNameLess(llvm::StringRef a, llvm::StringRef b) {
  auto key = [](llvm::StringRef name) {
    llvm::StringRef prefix = name.take_until(llvm::isDigit);
    std::optional<uint64_t> index = sym::symbolIndex(name);
    return std::make_tuple(prefix, index.has_value(), index.value_or(0), name);
  };
  return key(a) < key(b);
}

/// True for constants, which keep their place when operands are reordered.
bool isConstant(const sym::Expr &e) {
  switch (e.kind()) {
  case sym::ExprKind::Integer:
  case sym::ExprKind::Rational:
  case sym::ExprKind::Float:
  case sym::ExprKind::Boolean:
  case sym::ExprKind::Infinity:
  case sym::ExprKind::SpecialConstant:
    return true;
  default:
    return false;
  }
}

/// True for operators whose operands may be permuted freely.
bool isCommutative(sym::ExprKind kind) {
  switch (kind) {
  case sym::ExprKind::Add:
  case sym::ExprKind::Mul:
  case sym::ExprKind::Min:
  case sym::ExprKind::Max:
  case sym::ExprKind::And:
  case sym::ExprKind::Or:
  case sym::ExprKind::Eq:
  case sym::ExprKind::Ne:
    return true;
  default:
    return false;
  }
}

/// Sorts the non-constant operands of commutative operators by their srepr
/// text (constants stay in their slots, so `s + 1` and `2*s` keep their
/// shape). Sympy orders such operands by symbol name, so after a rename the
/// written order depends on the old numbering; this makes it depend on the
/// new names only. Returns the same node when nothing moves.
sym::Expr orderCommutativeOperands(const sym::Expr &e) {
  if (e.numOperands() == 0)
    return e;
  std::vector<sym::Expr> operands;
  bool changed = false;
  for (const sym::Expr &op : e.operands()) {
    operands.push_back(orderCommutativeOperands(op));
    changed |= !operands.back().isSameNode(op);
  }
  if (isCommutative(e.kind())) {
    std::vector<size_t> slots;
    std::vector<std::pair<std::string, sym::Expr>> movable;
    for (size_t i = 0; i < operands.size(); ++i)
      if (!isConstant(operands[i])) {
        slots.push_back(i);
        movable.emplace_back(sym::toString(operands[i], sym::Form::Srepr),
                             operands[i]);
      }
    std::stable_sort(
        movable.begin(), movable.end(),
        [](const auto &a, const auto &b) { return a.first < b.first; });
    for (size_t k = 0; k < slots.size(); ++k)
      if (!operands[slots[k]].isSameNode(movable[k].second)) {
        operands[slots[k]] = movable[k].second;
        changed = true;
      }
  }
  return changed ? sym::rebuildWithOperands(e, operands) : e;
}

/// True when `e` mentions a symbol that `renames` covers.
bool mentionsAny(const sym::Expr &e,
                 const llvm::StringMap<std::string> &renames) {
  for (const std::string &name : sym::freeSymbols(e))
    if (renames.count(name))
      return true;
  return false;
}

class CanonicalizeSymbolsPass final : public Pass {
public:
  llvm::StringRef getName() const override { return "canonicalize-symbols"; }

  llvm::Expected<bool> run(ExportedProgram &ep, PassContext &ctx) override {
    // 1. Every symbol written anywhere, so new names avoid the ones kept.
    llvm::StringSet<> allSymbols;
    llvm::StringMap<sym::Expr> parsed;
    // Assert-message expressions the parser rejects.
    llvm::StringSet<> unparsedMessages;
    // Expression texts already collected, by their (interned) storage: the
    // same few texts fill every tensor's sizes and strides.
    llvm::DenseSet<std::pair<const char *, size_t>> collected;
    auto collect = [&](llvm::StringRef text,
                       llvm::function_ref<std::string()> where) -> llvm::Error {
      if (collected.count({text.data(), text.size()}) || parsed.count(text))
        return llvm::Error::success();
      auto expr = sym::parseSymExpr(text);
      if (!expr)
        return makeError("cannot parse the expression of " + where() + ": " +
                         llvm::toString(expr.takeError()));
      collected.insert({text.data(), text.size()});
      for (const std::string &name : sym::freeSymbols(*expr))
        allSymbols.insert(name);
      parsed[text] = *expr;
      return llvm::Error::success();
    };
    Graph &graph = ep.getGraph();
    if (auto err = forEachExprSlot(
            graph,
            [&](SymValue &s,
                llvm::function_ref<std::string()> w) -> llvm::Error {
              return collect(s.expr.exprStr, w);
            }))
      return err;
    if (auto err = forEachAssertMessage(
            graph, [&](Node &n, unsigned, llvm::StringRef text) -> llvm::Error {
              llvm::StringRef expr, rest;
              if (!splitAssertMessage(text, expr, rest))
                return llvm::Error::success();
              if (parsed.count(expr) || unparsedMessages.count(expr))
                return llvm::Error::success();
              if (!sym::parseSymExpr(expr)) {
                // Only a message: rename its symbol-like words instead.
                unparsedMessages.insert(expr);
                sym::forEachIdentifier(expr, [&](llvm::StringRef word) {
                  if (sym::classifySymbol(word) != sym::SymbolPrefix::Other)
                    allSymbols.insert(word);
                });
                return llvm::Error::success();
              }
              return collect(expr, [&] {
                return ("the assert message of node '" + n.getName() + "'")
                    .str();
              });
            }))
      return err;
    for (const auto &[name, range] : ep.rangeConstraints)
      allSymbols.insert(name);

    // 2. The binding source of each backed symbol, first binding first.
    std::vector<std::pair<std::string, std::string>> sources; // symbol, key
    llvm::StringSet<> bound;
    auto bind = [&](const SymValue &s, const llvm::Twine &key) {
      if (!s.isExpr())
        return;
      auto it = parsed.find(s.expr.exprStr);
      if (it == parsed.end())
        return;
      std::optional<llvm::StringRef> name = sym::asSymbol(it->second);
      if (!name || !sym::isBackedSymbol(*name) || !bound.insert(*name).second)
        return;
      sources.emplace_back(name->str(), key.str());
    };
    for (Value *input : graph.getInputValues()) {
      llvm::StringRef inputName = input->getName();
      if (const TensorMeta *tm = input->getTensorMeta()) {
        for (size_t i = 0; i < tm->sizes.size(); ++i)
          bind(tm->sizes[i], inputName + ":size:" + llvm::Twine(i));
        for (size_t i = 0; i < tm->strides.size(); ++i)
          bind(tm->strides[i], inputName + ":stride:" + llvm::Twine(i));
        bind(tm->storageOffset, inputName + ":storage_offset");
      }
      if (const SymValue *s = input->getSymMeta())
        bind(*s, inputName + ":" + valueTypeName(input->getType()));
    }

    // 3. New names: hash of the source, probing past names already taken.
    llvm::StringSet<> taken;
    for (const auto &entry : allSymbols)
      if (!bound.count(entry.getKey()))
        taken.insert(entry.getKey());
    llvm::StringMap<std::string> renames;
    int64_t renamedCount = 0;
    for (const auto &[symbol, key] : sources) {
      llvm::StringRef prefix =
          llvm::StringRef(symbol).take_until(llvm::isDigit);
      uint64_t number = llvm::xxh3_64bits(key) % kSymbolHashModulus;
      std::string candidate;
      for (;; ++number) {
        candidate = (prefix + llvm::Twine(number)).str();
        if (!taken.count(candidate))
          break;
      }
      taken.insert(candidate);
      if (candidate != symbol)
        ++renamedCount;
      renames[symbol] = candidate;
    }
    addStatistic("symbols-renamed", renamedCount);

    // 4. Rewrite every expression, keeping untouched texts verbatim.
    bool changed = false;
    int64_t rewritten = 0;
    llvm::StringMap<llvm::StringRef> rewrittenText;
    // The same, by the storage of the text (interned, so this hits for all
    // but the first slot holding a text).
    llvm::DenseMap<std::pair<const char *, size_t>, llvm::StringRef>
        rewrittenAt;
    auto rewrite = [&](llvm::StringRef text) -> llvm::StringRef {
      auto at = rewrittenAt.find({text.data(), text.size()});
      if (at != rewrittenAt.end())
        return at->second;
      auto cached = rewrittenText.find(text);
      if (cached != rewrittenText.end()) {
        rewrittenAt[{text.data(), text.size()}] = cached->second;
        return cached->second;
      }
      llvm::StringRef result = text;
      auto it = parsed.find(text);
      if (it != parsed.end() && mentionsAny(it->second, renames)) {
        sym::Expr renamed = sym::renameSymbols(it->second, renames);
        sym::Expr ordered = orderCommutativeOperands(renamed);
        if (!ordered.isSameNode(it->second))
          result = ep.intern(sym::toString(ordered, sym::detectForm(text)));
      }
      rewrittenText[text] = result;
      rewrittenAt[{text.data(), text.size()}] = result;
      return result;
    };
    if (auto err = forEachExprSlot(
            graph,
            [&](SymValue &s, llvm::function_ref<std::string()>) -> llvm::Error {
              llvm::StringRef updated = rewrite(s.expr.exprStr);
              if (updated != s.expr.exprStr) {
                s.expr.exprStr = updated;
                ++rewritten;
              }
              return llvm::Error::success();
            }))
      return err;
    if (auto err = forEachAssertMessage(
            graph,
            [&](Node &n, unsigned index, llvm::StringRef text) -> llvm::Error {
              llvm::StringRef expr, rest;
              if (!splitAssertMessage(text, expr, rest))
                return llvm::Error::success();
              std::string renamedWords;
              llvm::StringRef updated;
              if (unparsedMessages.count(expr)) {
                renamedWords = renameIdentifiers(expr, renames);
                updated = renamedWords;
              } else {
                updated = rewrite(expr);
              }
              if (updated == expr)
                return llvm::Error::success();
              ++rewritten;
              std::string message = (kAssertPrefix + updated + rest).str();
              return n.setInput(index, Argument::string(ep.intern(message)));
            }))
      return err;
    addStatistic("expressions-rewritten", rewritten);
    changed = rewritten > 0;

    // 5. range_constraints: renamed keys, in natural name order.
    for (auto &[name, range] : ep.rangeConstraints) {
      auto it = renames.find(name);
      if (it != renames.end() && it->second != name) {
        name = ep.intern(it->second);
        changed = true;
      }
    }
    auto byName = [](const auto &a, const auto &b) {
      return symbolNameLess(a.first, b.first);
    };
    if (!std::is_sorted(ep.rangeConstraints.begin(), ep.rangeConstraints.end(),
                        byName)) {
      std::stable_sort(ep.rangeConstraints.begin(), ep.rangeConstraints.end(),
                       byName);
      changed = true;
    }
    return changed;
  }
};

} // namespace

std::unique_ptr<Pass> createCanonicalizeSymbolsPass() {
  return std::make_unique<CanonicalizeSymbolsPass>();
}

} // namespace pt2ir
