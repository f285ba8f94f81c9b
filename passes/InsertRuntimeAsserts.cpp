//===- InsertRuntimeAsserts.cpp - Range asserts for shape symbols ---------===//
//
// insert-runtime-asserts: for every symbol of `range_constraints` with a
// finite bound, make sure the graph checks that bound at run time, the way
// torch's `insert_deferred_runtime_asserts` does:
//
//   %ge = _operator.ge(%sym, 0)                     : SymBool(u0 >= 0)
//   aten._assert_scalar.default(%ge, "Runtime assertion failed for
//       expression u0 >= 0 on node 'ge'")
//
// The symbol's value comes from a node that already yields it bare (a SymInt
// whose expression is just the symbol), or is extracted from where it is
// bound: `aten.sym_size.int` / `sym_stride.int` / `sym_storage_offset` of a
// tensor, `_operator.floordiv` through a `Mul(k, u0)` binding. Unbacked
// symbols are found through their unbacked bindings (ir/UnbackedBindings.h);
// backed symbols (option `backed`, on by default) through a SymInt graph
// input, an existing node, or a graph input tensor's size/stride/offset.
// The new nodes sit right after the node the symbol is read from (after the
// graph inputs for input-bound symbols) and copy its stack_trace,
// nn_module_stack and custom metadata; they get value-table entries and
// FX-style unique names.
//
// A bound already checked by an `_assert_scalar` (of an `_operator` or
// expression comparison between the bare symbol and a constant, in either
// orientation), `sym_constrain_range` or `sym_constrain_range_for_size` is
// not checked again, so running the pass twice adds nothing.
//
// Deliberately NOT done: symbols bound through a bool-to-int conversion
// (upstream skips them too); symbols that appear only inside larger
// expressions (replaced symbols, `u0 = s0 + s1`), which are silently left
// alone; multi-symbol asserts (there is no ShapeEnv to derive them from);
// CSE of existing size computations; subgraphs (range constraints describe
// the top-level graph).
//
//===----------------------------------------------------------------------===//

#include "pt2ir/ir/ExportedProgram.h"
#include "pt2ir/ir/SymbolicExpr.h"
#include "pt2ir/ir/UnbackedBindings.h"
#include "pt2ir/passes/Pass.h"
#include "pt2ir/passes/PassRegistry.h"
#include "pt2ir/passes/Passes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <cstdint>
#include <limits>
#include <set>

namespace pt2ir {
namespace {

constexpr llvm::StringLiteral kAssertScalar =
    "torch.ops.aten._assert_scalar.default";
constexpr llvm::StringLiteral kSymSize = "torch.ops.aten.sym_size.int";
constexpr llvm::StringLiteral kSymStride = "torch.ops.aten.sym_stride.int";
constexpr llvm::StringLiteral kSymStorageOffset =
    "torch.ops.aten.sym_storage_offset.default";
constexpr llvm::StringLiteral kConstrainRange =
    "torch.ops.aten.sym_constrain_range.default";
constexpr llvm::StringLiteral kConstrainRangeForSize =
    "torch.ops.aten.sym_constrain_range_for_size.default";

/// Python's `sys.maxsize - 1`, which upstream treats as an infinite upper
/// bound for int symbols.
constexpr int64_t kMaxSizeMinusOne = std::numeric_limits<int64_t>::max() - 1;

/// Bounds of one symbol that the graph already checks.
struct CheckedBounds {
  std::set<int64_t> lower;
  std::set<int64_t> upper;
};

/// Where a symbol first appears bare, and in which spelling.
struct SymbolSpelling {
  sym::Expr symbol;
  sym::Form form = sym::Form::Plain;
};

/// Where a symbol's value can be read: `value` is defined by `anchor` (null:
/// by a graph input), or must first be extracted from `start` by following
/// `rest`, with the new nodes placed after `anchor`.
struct SymbolSource {
  Value *value = nullptr;
  Value *start = nullptr;
  BindingPath rest;
  Node *anchor = nullptr;
};

/// Where a tensor graph input yields a symbol bare.
struct InputDim {
  Value *tensor = nullptr;
  BindingKey::Kind method = BindingKey::Kind::Size;
  int64_t index = 0;
};

/// A stored unbacked binding: by `node`, or by graph input `inputIndex` when
/// `node` is null.
struct BindingSite {
  Node *node = nullptr;
  unsigned inputIndex = 0;
  const BindingPath *path = nullptr;
};

class AssertInserter {
public:
  AssertInserter(ExportedProgram &ep, bool assertBacked)
      : ep(ep), graph(ep.getGraph()), ctx(ep.getContext()),
        assertBacked(assertBacked) {}

  llvm::Error run();

  int64_t assertsAdded = 0;
  int64_t nodesAdded = 0;

private:
  llvm::Expected<sym::Expr> parse(llvm::StringRef text);
  std::optional<std::string> bareSymbol(const SymValue *s);
  void noteSpellings(const SymValue &s);
  llvm::Error scanValues();
  void scanExistingChecks();
  void noteCheckedRelational(const sym::Expr &e);
  void noteConditionOf(const Node &assertNode);
  void noteConstrainRange(const Node &node, bool forSize);

  std::optional<SymbolSource> findSource(llvm::StringRef symbol);
  std::optional<SymbolSource> sourceFromBinding(llvm::StringRef symbol);
  llvm::Expected<Value *> materialize(SymbolSource &source,
                                      llvm::StringRef symbol);
  llvm::Error constrain(llvm::StringRef symbol, const RangeConstraint &range);
  llvm::Error emitBoundCheck(Value *symValue, llvm::StringRef symbol,
                             sym::ExprKind kind, int64_t bound, Node *anchor);

  llvm::StringRef freshName(llvm::StringRef base);
  NamedArgument positional(llvm::StringRef name, Argument arg);
  Argument refTo(const Value *v);
  llvm::Expected<Node *> emit(llvm::StringRef target, llvm::StringRef nameBase,
                              std::vector<NamedArgument> inputs,
                              std::optional<ArgKind> outputKind,
                              std::optional<SymValue> outputMeta, Node *anchor);

  ExportedProgram &ep;
  Graph &graph;
  IRContext &ctx;
  bool assertBacked;

  llvm::StringMap<sym::Expr> parsed;
  llvm::StringMap<SymbolSpelling> spellings;
  llvm::StringMap<CheckedBounds> checked;
  /// First SymInt graph input / node output whose expression is the bare
  /// symbol.
  llvm::StringMap<Value *> bareInput;
  llvm::StringMap<Value *> bareNodeValue;
  /// First tensor graph input dimension that is the bare symbol.
  llvm::StringMap<InputDim> bareInputDim;
  /// Where each unbacked symbol is bound (from the stored bindings).
  llvm::StringMap<BindingSite> bindingSites;
  /// Node and value names (all interned in `ctx`) and the fresh ones made.
  llvm::DenseSet<llvm::StringRef> usedNames;
  llvm::DenseSet<std::pair<const char *, size_t>> notedExprs;
  /// Last node inserted after each anchor (key null: after the inputs).
  llvm::DenseMap<Node *, Node *> lastInserted;
};

//===----------------------------------------------------------------------===//
// Scanning the graph
//===----------------------------------------------------------------------===//

llvm::Expected<sym::Expr> AssertInserter::parse(llvm::StringRef text) {
  auto it = parsed.find(text);
  if (it != parsed.end())
    return it->second;
  llvm::Expected<sym::Expr> e = sym::parseSymExpr(text);
  if (!e)
    return e.takeError();
  parsed[text] = *e;
  return *e;
}

std::optional<std::string> AssertInserter::bareSymbol(const SymValue *s) {
  if (!s || !s->isExpr())
    return std::nullopt;
  llvm::Expected<sym::Expr> e = parse(s->expr.exprStr);
  if (!e) {
    llvm::consumeError(e.takeError());
    return std::nullopt;
  }
  if (auto name = sym::asSymbol(*e))
    return name->str();
  return std::nullopt;
}

/// Records the first spelling of every symbol in `e`.
static void collectSymbolNodes(const sym::Expr &e, sym::Form form,
                               llvm::StringMap<SymbolSpelling> &out) {
  // Expression depth is capped by the parser (kMaxParseNesting).
  if (auto name = sym::asSymbol(e)) {
    out.try_emplace(*name, SymbolSpelling{e, form});
    return;
  }
  for (const sym::Expr &op : e.operands())
    collectSymbolNodes(op, form, out);
}

void AssertInserter::noteSpellings(const SymValue &s) {
  if (!s.isExpr())
    return;
  // Only first spellings count, so an expression seen before (by its
  // interned text: tensors repeat a few) adds nothing.
  llvm::StringRef text = s.expr.exprStr;
  if (!notedExprs.insert({text.data(), text.size()}).second)
    return;
  llvm::Expected<sym::Expr> e = parse(s.expr.exprStr);
  if (!e)
    return llvm::consumeError(e.takeError());
  collectSymbolNodes(*e, sym::detectForm(s.expr.exprStr), spellings);
}

llvm::Error AssertInserter::scanValues() {
  auto noteValue = [&](Value *v) {
    if (const TensorMeta *t = v->getTensorMeta()) {
      for (const SymValue &s : t->sizes)
        noteSpellings(s);
      for (const SymValue &s : t->strides)
        noteSpellings(s);
      noteSpellings(t->storageOffset);
    }
    if (const SymValue *s = v->getSymMeta())
      noteSpellings(*s);
  };
  for (Value *v : graph.getInputValues()) {
    usedNames.insert(v->getName());
    noteValue(v);
    if (v->getType() == ValueType::SymInt) {
      if (auto name = bareSymbol(v->getSymIntMeta()))
        bareInput.try_emplace(*name, v);
      continue;
    }
    const TensorMeta *t = v->getTensorMeta();
    if (!t)
      continue;
    auto noteDims = [&](const std::vector<SymValue> &dims,
                        BindingKey::Kind method) {
      for (size_t i = 0; i < dims.size(); ++i)
        if (auto name = bareSymbol(&dims[i]))
          bareInputDim.try_emplace(
              *name, InputDim{v, method, static_cast<int64_t>(i)});
    };
    noteDims(t->sizes, BindingKey::Kind::Size);
    noteDims(t->strides, BindingKey::Kind::Stride);
    if (auto name = bareSymbol(&t->storageOffset))
      bareInputDim.try_emplace(*name,
                               InputDim{v, BindingKey::Kind::StorageOffset, 0});
  }
  for (const InputBinding &b : graph.getInputBindings())
    bindingSites.try_emplace(
        b.binding.symbol, BindingSite{nullptr, b.inputIndex, &b.binding.path});
  for (Node &n : graph.getNodes()) {
    for (const SymbolBinding &b : n.getUnbackedBindings())
      bindingSites.try_emplace(b.symbol, BindingSite{&n, 0, &b.path});
    usedNames.insert(n.getName());
    for (Value *v : n.getResults()) {
      usedNames.insert(v->getName());
      noteValue(v);
      if (v->getType() == ValueType::SymInt)
        if (auto name = bareSymbol(v->getSymIntMeta()))
          bareNodeValue.try_emplace(*name, v);
    }
  }
  return llvm::Error::success();
}

void AssertInserter::noteCheckedRelational(const sym::Expr &e) {
  if (e.kind() == sym::ExprKind::And) {
    for (const sym::Expr &op : e.operands())
      noteCheckedRelational(op);
    return;
  }
  auto rel = sym::asRelational(e);
  if (!rel)
    return;
  sym::ExprKind kind = rel->kind;
  auto name = sym::asSymbol(rel->lhs);
  auto bound = sym::asInteger(rel->rhs);
  if (!name || !bound) {
    // `0 <= u0` is `u0 >= 0`.
    name = sym::asSymbol(rel->rhs);
    bound = sym::asInteger(rel->lhs);
    if (!name || !bound)
      return;
    switch (kind) {
    case sym::ExprKind::Ge:
      kind = sym::ExprKind::Le;
      break;
    case sym::ExprKind::Le:
      kind = sym::ExprKind::Ge;
      break;
    case sym::ExprKind::Gt:
      kind = sym::ExprKind::Lt;
      break;
    case sym::ExprKind::Lt:
      kind = sym::ExprKind::Gt;
      break;
    default:
      break;
    }
  }
  CheckedBounds &b = checked[*name];
  int64_t k = *bound;
  switch (kind) {
  case sym::ExprKind::Ge:
    b.lower.insert(k);
    break;
  case sym::ExprKind::Le:
    b.upper.insert(k);
    break;
  case sym::ExprKind::Gt:
    if (k < std::numeric_limits<int64_t>::max())
      b.lower.insert(k + 1);
    break;
  case sym::ExprKind::Lt:
    if (k > std::numeric_limits<int64_t>::min())
      b.upper.insert(k - 1);
    break;
  default:
    break;
  }
}

/// The operand of a sym comparison as an expression: an int constant or a
/// SymInt value's expression.
static std::optional<sym::Expr> operandExpr(
    const Argument &arg,
    llvm::function_ref<std::optional<sym::Expr>(const SymValue *)> exprOf) {
  if (arg.getKind() == ArgKind::Int)
    return sym::makeInteger(arg.getInt());
  if (arg.getKind() != ArgKind::SymInt)
    return std::nullopt;
  const SymArg &s = arg.getSym();
  if (!s.ref)
    return sym::makeInteger(s.intValue);
  return s.ref->get() ? exprOf(s.ref->get()->getSymIntMeta()) : std::nullopt;
}

void AssertInserter::noteConditionOf(const Node &assertNode) {
  if (assertNode.getInputs().empty())
    return;
  const Argument &cond = assertNode.getInputs().front().arg;
  if (cond.getKind() != ArgKind::SymBool || !cond.getSym().ref)
    return;
  const Value *v = cond.getSym().ref->get();
  if (!v)
    return;
  auto exprOf = [&](const SymValue *s) -> std::optional<sym::Expr> {
    if (!s || !s->isExpr())
      return std::nullopt;
    llvm::Expected<sym::Expr> e = parse(s->expr.exprStr);
    if (!e) {
      llvm::consumeError(e.takeError());
      return std::nullopt;
    }
    return *e;
  };
  if (auto e = exprOf(v->getSymBoolMeta())) {
    noteCheckedRelational(*e);
    return;
  }
  // No usable value-table entry: read the comparison node itself.
  const Node *def = v->getDefiningNode();
  if (!def || def->getInputs().size() != 2)
    return;
  llvm::StringRef op = def->getTarget();
  if (!op.consume_front("_operator."))
    return;
  std::optional<sym::ExprKind> kind;
  if (op == "ge")
    kind = sym::ExprKind::Ge;
  else if (op == "le")
    kind = sym::ExprKind::Le;
  else if (op == "gt")
    kind = sym::ExprKind::Gt;
  else if (op == "lt")
    kind = sym::ExprKind::Lt;
  if (!kind)
    return;
  auto lhs = operandExpr(def->getInputs()[0].arg, exprOf);
  auto rhs = operandExpr(def->getInputs()[1].arg, exprOf);
  if (lhs && rhs)
    noteCheckedRelational(sym::makeRelational(*kind, *lhs, *rhs));
}

void AssertInserter::noteConstrainRange(const Node &node, bool forSize) {
  const NamedArgument *size = node.findInput("size");
  if (!size && !node.getInputs().empty())
    size = &node.getInputs().front();
  if (!size || size->arg.getKind() != ArgKind::SymInt ||
      !size->arg.getSym().ref)
    return;
  const Value *v = size->arg.getSym().ref->get();
  auto name = v ? bareSymbol(v->getSymIntMeta()) : std::nullopt;
  if (!name)
    return;
  auto intInput = [&](llvm::StringRef argName) -> std::optional<int64_t> {
    const NamedArgument *in = node.findInput(argName);
    if (in && in->arg.getKind() == ArgKind::Int)
      return in->arg.getInt();
    return std::nullopt;
  };
  CheckedBounds &b = checked[*name];
  std::optional<int64_t> lo = intInput("min");
  if (!lo && forSize)
    lo = 0;
  if (lo)
    b.lower.insert(*lo);
  if (auto hi = intInput("max"))
    b.upper.insert(*hi);
}

void AssertInserter::scanExistingChecks() {
  for (const Node &n : graph.getNodes()) {
    if (n.getTarget() == kAssertScalar)
      noteConditionOf(n);
    else if (n.getTarget() == kConstrainRange)
      noteConstrainRange(n, /*forSize=*/false);
    else if (n.getTarget() == kConstrainRangeForSize)
      noteConstrainRange(n, /*forSize=*/true);
  }
}

//===----------------------------------------------------------------------===//
// Emitting nodes
//===----------------------------------------------------------------------===//

llvm::StringRef AssertInserter::freshName(llvm::StringRef base) {
  std::string candidate = base.str();
  for (unsigned i = 1;
       usedNames.count(candidate) || graph.isNameUsed(candidate); ++i)
    candidate = base.str() + "_" + std::to_string(i);
  llvm::StringRef name = ctx.intern(candidate);
  usedNames.insert(name);
  return name;
}

NamedArgument AssertInserter::positional(llvm::StringRef name, Argument arg) {
  NamedArgument in;
  in.name = ctx.intern(name);
  in.arg = std::move(arg);
  in.kind = 1;
  return in;
}

Argument AssertInserter::refTo(const Value *v) {
  if (v->getType() == ValueType::Tensor)
    return Argument::tensor(ctx, v->getName());
  return Argument::sym(ArgKind::SymInt, Argument::symRef(ctx, v->getName()));
}

llvm::Expected<Node *> AssertInserter::emit(llvm::StringRef target,
                                            llvm::StringRef nameBase,
                                            std::vector<NamedArgument> inputs,
                                            std::optional<ArgKind> outputKind,
                                            std::optional<SymValue> outputMeta,
                                            Node *anchor) {
  NodeSpec spec;
  spec.target = ctx.intern(target);
  spec.inputs = std::move(inputs);
  llvm::StringRef name = freshName(nameBase);
  spec.name = name;
  if (outputKind)
    spec.outputs.push_back(
        Argument::sym(*outputKind, Argument::symRef(ctx, name)));
  if (anchor)
    for (llvm::StringRef key : {"stack_trace", "nn_module_stack", "custom"})
      if (auto value = lookupMetadata(anchor->getMetadata(), key))
        setMetadata(spec.metadata, ctx.intern(key), *value);

  Node *last = lastInserted.lookup(anchor);
  Graph::iterator pos = last     ? std::next(last->getIterator())
                        : anchor ? std::next(anchor->getIterator())
                                 : graph.begin();
  llvm::Expected<Node *> node = graph.createNode(std::move(spec), pos);
  if (!node)
    return node.takeError();
  lastInserted[anchor] = *node;
  ++nodesAdded;
  if (outputMeta)
    if (Value *v = (*node)->getSingleResult())
      v->setSymMeta(std::move(*outputMeta));
  return *node;
}

//===----------------------------------------------------------------------===//
// Finding and extracting symbols
//===----------------------------------------------------------------------===//

std::optional<SymbolSource>
AssertInserter::sourceFromBinding(llvm::StringRef symbol) {
  auto it = bindingSites.find(symbol);
  if (it == bindingSites.end())
    return std::nullopt;
  const BindingSite &site = it->second;
  BindingStart start =
      site.node
          ? followSequenceKeys(*site.node, *site.path)
          : followSequenceKeys(graph.getInputs()[site.inputIndex], *site.path);
  if (!start.value)
    return std::nullopt;
  SymbolSource src;
  src.start = start.value;
  src.rest.assign(site.path->begin() + start.consumed, site.path->end());
  src.anchor = site.node;
  return src;
}

std::optional<SymbolSource> AssertInserter::findSource(llvm::StringRef symbol) {
  bool unbacked = sym::isUnbackedSymbol(symbol);
  std::optional<SymbolSource> binding;
  if (unbacked) {
    binding = sourceFromBinding(symbol);
    if (!binding)
      return std::nullopt; // Replaced by an expression: nothing to check.
    for (const BindingKey &k : binding->rest)
      if (k.kind == BindingKey::Kind::ConvertInt)
        return std::nullopt; // Upstream leaves bool-derived symbols alone.
  }
  if (Value *v = bareInput.lookup(symbol))
    return SymbolSource{v, nullptr, {}, nullptr};
  if (Value *v = bareNodeValue.lookup(symbol))
    return SymbolSource{v, nullptr, {}, v->getDefiningNode()};
  if (binding)
    return binding;
  auto dim = bareInputDim.find(symbol);
  if (dim == bareInputDim.end())
    return std::nullopt;
  SymbolSource src;
  src.start = dim->second.tensor;
  if (dim->second.method == BindingKey::Kind::StorageOffset) {
    src.rest = {BindingKey::storageOffset()};
  } else {
    src.rest = {dim->second.method == BindingKey::Kind::Size
                    ? BindingKey::size()
                    : BindingKey::stride(),
                BindingKey::index(dim->second.index)};
  }
  return src;
}

llvm::Expected<Value *> AssertInserter::materialize(SymbolSource &source,
                                                    llvm::StringRef symbol) {
  if (source.value)
    return source.value;
  Value *current = source.start;
  const SymValue *currentMeta = nullptr;
  const BindingPath &rest = source.rest;
  auto unsupported = [&]() -> llvm::Error {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "cannot extract symbol %s from value '%s' through path '%s'",
        symbol.str().c_str(), current->getName().str().c_str(),
        bindingPathToString(rest).c_str());
  };
  for (size_t i = 0; i < rest.size(); ++i) {
    const BindingKey &key = rest[i];
    const TensorMeta *t = current->getTensorMeta();
    if (key.kind == BindingKey::Kind::Size ||
        key.kind == BindingKey::Kind::Stride) {
      if (!t || i + 1 >= rest.size() ||
          rest[i + 1].kind != BindingKey::Kind::Index)
        return unsupported();
      int64_t dim = rest[++i].value;
      bool isSize = key.kind == BindingKey::Kind::Size;
      const std::vector<SymValue> &dims = isSize ? t->sizes : t->strides;
      if (dim < 0 || static_cast<size_t>(dim) >= dims.size())
        return unsupported();
      std::vector<NamedArgument> inputs;
      inputs.push_back(positional("self", refTo(current)));
      inputs.push_back(positional("dim", Argument::integer(dim)));
      auto node =
          emit(isSize ? kSymSize : kSymStride,
               isSize ? "sym_size_int" : "sym_stride_int", std::move(inputs),
               ArgKind::SymInt, dims[dim], source.anchor);
      if (!node)
        return node.takeError();
      current = (*node)->getSingleResult();
    } else if (key.kind == BindingKey::Kind::StorageOffset) {
      if (!t)
        return unsupported();
      std::vector<NamedArgument> inputs;
      inputs.push_back(positional("self", refTo(current)));
      auto node = emit(kSymStorageOffset, "sym_storage_offset_default",
                       std::move(inputs), ArgKind::SymInt, t->storageOffset,
                       source.anchor);
      if (!node)
        return node.takeError();
      current = (*node)->getSingleResult();
    } else if (key.kind == BindingKey::Kind::DivideBy) {
      if (current->getType() != ValueType::SymInt)
        return unsupported();
      Argument divisor = Argument::integer(key.value);
      if (!key.divisorSymbol.empty()) {
        std::optional<SymbolSource> divisorSource =
            findSource(key.divisorSymbol);
        if (!divisorSource)
          return unsupported();
        auto divisorValue = materialize(*divisorSource, key.divisorSymbol);
        if (!divisorValue)
          return divisorValue.takeError();
        divisor = refTo(*divisorValue);
      }
      auto spelling = spellings.find(symbol);
      if (spelling == spellings.end())
        return unsupported();
      SymValue meta = SymValue::ofExpr(ctx.intern(
          sym::toString(spelling->second.symbol, spelling->second.form)));
      if (currentMeta && currentMeta->expr.hint && key.divisorSymbol.empty() &&
          key.value != 0 &&
          currentMeta->expr.hint->kind == SymExprHint::Kind::Int) {
        SymExprHint hint = *currentMeta->expr.hint;
        hint.intValue /= key.value;
        meta.expr.hint = hint;
      }
      std::vector<NamedArgument> inputs;
      inputs.push_back(positional("a", refTo(current)));
      inputs.push_back(positional("b", std::move(divisor)));
      auto node = emit("_operator.floordiv", "floordiv", std::move(inputs),
                       ArgKind::SymInt, meta, source.anchor);
      if (!node)
        return node.takeError();
      current = (*node)->getSingleResult();
    } else {
      return unsupported();
    }
    currentMeta = current->getSymIntMeta();
  }
  if (current->getType() != ValueType::SymInt)
    return unsupported();
  source.value = current;
  return current;
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

llvm::Error AssertInserter::emitBoundCheck(Value *symValue,
                                           llvm::StringRef symbol,
                                           sym::ExprKind kind, int64_t bound,
                                           Node *anchor) {
  auto spelling = spellings.find(symbol);
  sym::Expr symbolExpr = spelling != spellings.end() ? spelling->second.symbol
                                                     : sym::makeSymbol(symbol);
  sym::Form form =
      spelling != spellings.end() ? spelling->second.form : sym::Form::Plain;
  sym::Expr condition =
      sym::makeRelational(kind, symbolExpr, sym::makeInteger(bound));

  std::vector<NamedArgument> cmpInputs;
  cmpInputs.push_back(positional("a", refTo(symValue)));
  cmpInputs.push_back(positional("b", Argument::integer(bound)));
  bool isLower = kind == sym::ExprKind::Ge;
  llvm::StringRef op = isLower ? "ge" : "le";
  SymValue meta = SymValue::ofExpr(ctx.intern(sym::toString(condition, form)));
  auto cmp = emit(("_operator." + op).str(), op, std::move(cmpInputs),
                  ArgKind::SymBool, meta, anchor);
  if (!cmp)
    return cmp.takeError();
  llvm::StringRef cmpName = (*cmp)->getSingleResult()->getName();

  std::string message = "Runtime assertion failed for expression " +
                        sym::toString(condition, sym::Form::Plain) +
                        " on node '" + cmpName.str() + "'";
  std::vector<NamedArgument> assertInputs;
  assertInputs.push_back(positional(
      "self", Argument::sym(ArgKind::SymBool, Argument::symRef(ctx, cmpName))));
  assertInputs.push_back(
      positional("assert_msg", Argument::string(ctx.intern(message))));
  auto check =
      emit(kAssertScalar, "_assert_scalar_default", std::move(assertInputs),
           std::nullopt, std::nullopt, anchor);
  if (!check)
    return check.takeError();
  ++assertsAdded;
  CheckedBounds &b = checked[symbol];
  (isLower ? b.lower : b.upper).insert(bound);
  return llvm::Error::success();
}

llvm::Error AssertInserter::constrain(llvm::StringRef symbol,
                                      const RangeConstraint &range) {
  if (!sym::isUnbackedSymbol(symbol) && !assertBacked)
    return llvm::Error::success();
  // The bounds still to check, lower first.
  std::vector<std::pair<sym::ExprKind, int64_t>> missing;
  const CheckedBounds &known = checked[symbol];
  if (range.minVal && !known.lower.count(*range.minVal))
    missing.emplace_back(sym::ExprKind::Ge, *range.minVal);
  if (range.maxVal && *range.maxVal < kMaxSizeMinusOne &&
      !known.upper.count(*range.maxVal))
    missing.emplace_back(sym::ExprKind::Le, *range.maxVal);
  if (missing.empty())
    return llvm::Error::success();

  std::optional<SymbolSource> source = findSource(symbol);
  if (!source)
    return llvm::Error::success();
  llvm::Expected<Value *> value = materialize(*source, symbol);
  if (!value)
    return value.takeError();
  for (const auto &[kind, bound] : missing)
    if (auto err = emitBoundCheck(*value, symbol, kind, bound, source->anchor))
      return err;
  return llvm::Error::success();
}

llvm::Error AssertInserter::run() {
  if (auto err = recomputeUnbackedBindings(ep))
    return err;
  if (auto err = scanValues())
    return err;
  scanExistingChecks();
  for (const auto &[symbol, range] : ep.rangeConstraints)
    if (auto err = constrain(symbol, range))
      return err;
  if (nodesAdded == 0)
    return llvm::Error::success();
  return recomputeUnbackedBindings(ep);
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

class InsertRuntimeAssertsPass final : public Pass {
public:
  llvm::StringRef getName() const override { return "insert-runtime-asserts"; }

  llvm::Error setOptions(const PassOptions &options) override {
    for (const auto &[name, value] : options) {
      if (name != "backed")
        return makeUnknownPassOptionError(getName(), name);
      auto flag = parseBoolPassOption(getName(), name, value);
      if (!flag)
        return flag.takeError();
      assertBacked = *flag;
    }
    return llvm::Error::success();
  }

  llvm::Expected<bool> run(ExportedProgram &ep, PassContext &) override {
    AssertInserter inserter(ep, assertBacked);
    if (auto err = inserter.run())
      return err;
    addStatistic("asserts-added", inserter.assertsAdded);
    addStatistic("nodes-added", inserter.nodesAdded);
    return inserter.nodesAdded > 0;
  }

private:
  bool assertBacked = true;
};

} // namespace

std::unique_ptr<Pass> createInsertRuntimeAssertsPass() {
  return std::make_unique<InsertRuntimeAssertsPass>();
}

} // namespace pt2ir
