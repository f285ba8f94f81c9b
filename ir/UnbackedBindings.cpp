//===- UnbackedBindings.cpp - Where each unbacked symbol is bound ---------===//
//
// Implements the binding recomputation described in ir/UnbackedBindings.h:
// a view of each input's and node's value built from the value tables, the
// six matching rules, and the never-bound / used-before-bound checks.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/ir/UnbackedBindings.h"
#include "pt2ir/ir/Enums.h"
#include "pt2ir/ir/ExportedProgram.h"
#include "pt2ir/ir/Graph.h"
#include "pt2ir/ir/SymbolicExpr.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

namespace pt2ir {

//===----------------------------------------------------------------------===//
// Paths
//===----------------------------------------------------------------------===//

std::string bindingPathToString(const BindingPath &path) {
  std::string out;
  llvm::raw_string_ostream os(out);
  for (const BindingKey &key : path) {
    switch (key.kind) {
    case BindingKey::Kind::Index:
      os << '[' << key.value << ']';
      break;
    case BindingKey::Kind::Size:
      os << ".size()";
      break;
    case BindingKey::Kind::Stride:
      os << ".stride()";
      break;
    case BindingKey::Kind::StorageOffset:
      os << ".storage_offset()";
      break;
    case BindingKey::Kind::DivideBy:
      os << ".__floordiv__(";
      if (key.divisorSymbol.empty())
        os << key.value;
      else
        os << key.divisorSymbol;
      os << ')';
      break;
    case BindingKey::Kind::ConvertInt:
      os << ".cast_symbool_to_symint_guardless()";
      break;
    }
  }
  return out;
}

bool hasTupleValue(const Node &node) {
  if (node.getTarget().starts_with("torch.ops.higher_order."))
    return node.getIsHopSingleTensorReturn() != std::optional<bool>(true);
  return node.getOutputs().size() > 1;
}

/// Follows `[i]` keys from `arg` starting at `path[pos]`.
static BindingStart followInArgument(const Argument &arg,
                                     const BindingPath &path, size_t pos) {
  auto indexAt = [&](size_t p) -> std::optional<int64_t> {
    if (p < path.size() && path[p].kind == BindingKey::Kind::Index)
      return path[p].value;
    return std::nullopt;
  };
  auto pick = [&](const auto &items, size_t p) -> const auto * {
    using Item = std::decay_t<decltype(items[0])>;
    std::optional<int64_t> i = indexAt(p);
    if (!i || *i < 0 || static_cast<size_t>(*i) >= items.size())
      return static_cast<const Item *>(nullptr);
    return &items[*i];
  };
  switch (arg.getKind()) {
  case ArgKind::Tensor:
  case ArgKind::OptionalTensor:
    return {arg.getRef() ? arg.getRef()->get() : nullptr, pos};
  case ArgKind::SymInt:
  case ArgKind::SymBool:
  case ArgKind::SymFloat:
    return {arg.getSym().ref ? arg.getSym().ref->get() : nullptr, pos};
  case ArgKind::Tensors:
  case ArgKind::OptionalTensors: {
    Use *const *u = pick(arg.getRefs(), pos);
    return {u && *u ? (*u)->get() : nullptr, pos + 1};
  }
  case ArgKind::SymInts:
  case ArgKind::SymBools:
  case ArgKind::SymFloats: {
    const SymArg *s = pick(arg.getSymList(), pos);
    return {s && s->ref ? s->ref->get() : nullptr, pos + 1};
  }
  case ArgKind::NestedTensors: {
    const std::vector<Use *> *inner = pick(arg.getNestedRefs(), pos);
    if (!inner)
      return {nullptr, pos + 1};
    Use *const *u = pick(*inner, pos + 1);
    return {u && *u ? (*u)->get() : nullptr, pos + 2};
  }
  default:
    return {nullptr, pos};
  }
}

BindingStart followSequenceKeys(const Node &node, const BindingPath &path) {
  const std::vector<Argument> &outputs = node.getOutputs();
  if (!hasTupleValue(node)) {
    if (outputs.size() != 1)
      return {};
    return followInArgument(outputs.front(), path, 0);
  }
  if (path.empty() || path.front().kind != BindingKey::Kind::Index)
    return {};
  int64_t i = path.front().value;
  if (i < 0 || static_cast<size_t>(i) >= outputs.size())
    return {nullptr, 1};
  return followInArgument(outputs[i], path, 1);
}

BindingStart followSequenceKeys(const Argument &graphInput,
                                const BindingPath &path) {
  return followInArgument(graphInput, path, 0);
}

//===----------------------------------------------------------------------===//
// Value views
//===----------------------------------------------------------------------===//

namespace {

/// A value as the binding rules see it.
struct ValueView {
  enum class Kind : uint8_t { None, Tensor, SymInt, SymBool, SymFloat, Tuple };
  Kind kind = Kind::None;
  const TensorMeta *tensor = nullptr;
  const SymValue *sym = nullptr;
  std::vector<ValueView> elements;
};

ValueView viewOfValue(const Value *v) {
  ValueView view;
  if (!v)
    return view;
  switch (v->getType()) {
  case ValueType::Tensor:
    if ((view.tensor = v->getTensorMeta()))
      view.kind = ValueView::Kind::Tensor;
    return view;
  case ValueType::SymInt:
    view.kind = ValueView::Kind::SymInt;
    break;
  case ValueType::SymBool:
    view.kind = ValueView::Kind::SymBool;
    break;
  case ValueType::SymFloat:
    view.kind = ValueView::Kind::SymFloat;
    break;
  case ValueType::CustomObj:
    return view;
  }
  view.sym = v->getSymMeta();
  if (!view.sym)
    view.kind = ValueView::Kind::None;
  return view;
}

ValueView viewOfUse(const Use *u) {
  return viewOfValue(u ? u->get() : nullptr);
}

ValueView tupleOf(std::vector<ValueView> elements) {
  ValueView view;
  view.kind = ValueView::Kind::Tuple;
  view.elements = std::move(elements);
  return view;
}

ValueView viewOfArgument(const Argument &arg) {
  std::vector<ValueView> elements;
  switch (arg.getKind()) {
  case ArgKind::Tensor:
  case ArgKind::OptionalTensor:
    return viewOfUse(arg.getRef());
  case ArgKind::SymInt:
  case ArgKind::SymBool:
  case ArgKind::SymFloat:
    return viewOfUse(arg.getSym().ref);
  case ArgKind::Tensors:
  case ArgKind::OptionalTensors:
    for (const Use *u : arg.getRefs())
      elements.push_back(viewOfUse(u));
    return tupleOf(std::move(elements));
  case ArgKind::SymInts:
  case ArgKind::SymBools:
  case ArgKind::SymFloats:
    for (const SymArg &s : arg.getSymList())
      elements.push_back(viewOfUse(s.ref));
    return tupleOf(std::move(elements));
  case ArgKind::NestedTensors:
    for (const std::vector<Use *> &inner : arg.getNestedRefs()) {
      std::vector<ValueView> innerViews;
      for (const Use *u : inner)
        innerViews.push_back(viewOfUse(u));
      elements.push_back(tupleOf(std::move(innerViews)));
    }
    return tupleOf(std::move(elements));
  default:
    return {};
  }
}

ValueView viewOfNode(const Node &node) {
  const std::vector<Argument> &outputs = node.getOutputs();
  if (hasTupleValue(node)) {
    std::vector<ValueView> elements;
    for (const Argument &out : outputs)
      elements.push_back(viewOfArgument(out));
    return tupleOf(std::move(elements));
  }
  if (outputs.size() != 1)
    return {};
  return viewOfArgument(outputs.front());
}

bool isCompressedSparse(Layout layout) {
  switch (layout) {
  case Layout::SparseCsr:
  case Layout::SparseCsc:
  case Layout::SparseBsr:
  case Layout::SparseBsc:
    return true;
  default:
    return false;
  }
}

/// Calls `fn(symValue, intLike)` for every SymValue in a view, in matching
/// order.
template <typename Fn> void forEachSymValue(const ValueView &view, Fn &&fn) {
  switch (view.kind) {
  case ValueView::Kind::None:
    return;
  case ValueView::Kind::Tuple:
    for (const ValueView &e : view.elements)
      forEachSymValue(e, fn);
    return;
  case ValueView::Kind::Tensor:
    for (const SymValue &s : view.tensor->sizes)
      fn(s);
    for (const SymValue &s : view.tensor->strides)
      fn(s);
    fn(view.tensor->storageOffset);
    return;
  case ValueView::Kind::SymInt:
  case ValueView::Kind::SymBool:
  case ValueView::Kind::SymFloat:
    fn(*view.sym);
    return;
  }
}

/// One place that defines values: a graph input or a node.
struct Site {
  const Node *node = nullptr; ///< Null for a graph input.
  unsigned inputIndex = 0;
  const Argument *input = nullptr;
  ValueView view;
};

std::string describeSite(const Site &site) {
  if (site.node)
    return "node '" + site.node->getName().str() + "'";
  std::string name;
  if (Value *v = site.input->getSingleValue())
    name = v->getName().str();
  else
    name = "#" + std::to_string(site.inputIndex);
  return "graph input '" + name + "'";
}

/// Computes the bindings of one graph (not its subgraphs).
class BindingComputer {
public:
  explicit BindingComputer(const Graph &g) : graph(g) {}

  /// Fills `nodeBindings` (indexed by node position) and `inputBindings`.
  llvm::Error run();

  std::vector<std::vector<SymbolBinding>> nodeBindings;
  std::vector<InputBinding> inputBindings;

private:
  llvm::Expected<sym::Expr> parse(const SymValue &s);
  llvm::Error collectMentions(const Site &site, unsigned siteIndex);
  llvm::Error match(const ValueView &view, BindingPath &path,
                    std::vector<SymbolBinding> &out);
  llvm::Error matchSym(const ValueView &view, BindingPath &path,
                       std::vector<SymbolBinding> &out);
  void bind(llvm::StringRef symbol, const BindingPath &path,
            std::vector<SymbolBinding> &out);
  bool isPending(llvm::StringRef name) const { return pending.count(name); }

  const Graph &graph;
  std::vector<Site> sites;
  llvm::StringMap<sym::Expr> parsed;
  /// The unbacked symbols each expression mentions, keyed by the storage of
  /// its (interned) expr_str: a program repeats a few expressions in every
  /// tensor's sizes and strides, and most mention no unbacked symbol.
  llvm::DenseMap<std::pair<const char *, size_t>, std::vector<std::string>>
      unbackedMentions;
  /// Unbacked symbols still waiting for a binding.
  llvm::StringSet<> pending;
  /// Every unbacked symbol mentioned, in order of first mention, with the
  /// site index of that mention.
  std::vector<std::pair<std::string, unsigned>> firstMentions;
  llvm::StringMap<unsigned> firstMentionIndex;
  /// Site index at which each symbol was bound.
  llvm::StringMap<unsigned> boundAt;
  unsigned currentSite = 0;
};

llvm::Expected<sym::Expr> BindingComputer::parse(const SymValue &s) {
  auto it = parsed.find(s.expr.exprStr);
  if (it != parsed.end())
    return it->second;
  llvm::Expected<sym::Expr> e = sym::parseSymExpr(s.expr.exprStr);
  if (!e)
    return e.takeError();
  parsed[s.expr.exprStr] = *e;
  return *e;
}

llvm::Error BindingComputer::collectMentions(const Site &site,
                                             unsigned siteIndex) {
  llvm::Error err = llvm::Error::success();
  forEachSymValue(site.view, [&](const SymValue &s) {
    if (err || !s.isExpr())
      return;
    llvm::StringRef text = s.expr.exprStr;
    auto cached = unbackedMentions.find({text.data(), text.size()});
    if (cached == unbackedMentions.end()) {
      llvm::Expected<sym::Expr> e = parse(s);
      if (!e) {
        err = llvm::createStringError(
            llvm::inconvertibleErrorCode(),
            "cannot parse the symbolic expression '%s' in the metadata of "
            "%s: %s",
            s.expr.exprStr.str().c_str(), describeSite(site).c_str(),
            llvm::toString(e.takeError()).c_str());
        return;
      }
      std::vector<std::string> unbacked;
      for (std::string &name : sym::freeSymbols(*e))
        if (sym::isUnbackedSymbol(name))
          unbacked.push_back(std::move(name));
      cached = unbackedMentions
                   .try_emplace({text.data(), text.size()}, std::move(unbacked))
                   .first;
    }
    for (const std::string &name : cached->second) {
      if (firstMentionIndex.count(name))
        continue;
      firstMentionIndex[name] = siteIndex;
      firstMentions.emplace_back(name, siteIndex);
      pending.insert(name);
    }
  });
  return err;
}

void BindingComputer::bind(llvm::StringRef symbol, const BindingPath &path,
                           std::vector<SymbolBinding> &out) {
  pending.erase(symbol);
  boundAt[symbol] = currentSite;
  out.push_back({symbol.str(), path});
}

llvm::Error BindingComputer::matchSym(const ValueView &view, BindingPath &path,
                                      std::vector<SymbolBinding> &out) {
  if (!view.sym || !view.sym->isExpr())
    return llvm::Error::success();
  llvm::Expected<sym::Expr> parsedExpr = parse(*view.sym);
  if (!parsedExpr)
    return parsedExpr.takeError(); // Already reported by collectMentions.
  const sym::Expr &e = *parsedExpr;
  bool intLike = view.kind == ValueView::Kind::SymInt;

  // Rule 4: a bare pending symbol.
  if (view.kind != ValueView::Kind::SymBool) {
    if (auto name = sym::asSymbol(e); name && isPending(*name)) {
      bind(*name, path, out);
      return llvm::Error::success();
    }
  }
  // Rule 5: Mul(k, u) with exactly one pending symbol.
  if (intLike && e.kind() == sym::ExprKind::Mul && e.numOperands() == 2) {
    const sym::Expr &lhs = e.operand(0);
    const sym::Expr &rhs = e.operand(1);
    auto rhsName = sym::asSymbol(rhs);
    auto lhsName = sym::asSymbol(lhs);
    if (!rhsName || (!lhsName && !sym::asInteger(lhs)))
      return llvm::Error::success();
    bool lhsPending = lhsName && isPending(*lhsName);
    bool rhsPending = isPending(*rhsName);
    if (lhsPending == rhsPending)
      return llvm::Error::success();
    const sym::Expr &coeff = lhsPending ? rhs : lhs;
    llvm::StringRef unbacked = lhsPending ? *lhsName : *rhsName;
    BindingKey key;
    if (auto k = sym::asInteger(coeff)) {
      if (*k == 0)
        return llvm::Error::success();
      key = BindingKey::divideBy(*k);
    } else if (auto s = sym::asSymbol(coeff); s && sym::isBackedSymbol(*s)) {
      key = BindingKey::divideBySymbol(s->str());
    } else {
      return llvm::Error::success();
    }
    path.push_back(key);
    bind(unbacked, path, out);
    path.pop_back();
    return llvm::Error::success();
  }
  // Rule 6: Eq(u, 1) as a SymBool.
  if (view.kind == ValueView::Kind::SymBool) {
    auto rel = sym::asRelational(e);
    if (!rel || rel->kind != sym::ExprKind::Eq)
      return llvm::Error::success();
    auto name = sym::asSymbol(rel->lhs);
    auto one = sym::asInteger(rel->rhs);
    if (name && one && *one == 1 && isPending(*name)) {
      path.push_back(BindingKey::convertInt());
      bind(*name, path, out);
      path.pop_back();
    }
  }
  return llvm::Error::success();
}

llvm::Error BindingComputer::match(const ValueView &view, BindingPath &path,
                                   std::vector<SymbolBinding> &out) {
  if (pending.empty())
    return llvm::Error::success();
  switch (view.kind) {
  case ValueView::Kind::None:
    return llvm::Error::success();
  case ValueView::Kind::Tuple:
    for (size_t i = 0; i < view.elements.size(); ++i) {
      path.push_back(BindingKey::index(static_cast<int64_t>(i)));
      llvm::Error err = match(view.elements[i], path, out);
      path.pop_back();
      if (err)
        return err;
    }
    return llvm::Error::success();
  case ValueView::Kind::Tensor: {
    auto matchDims = [&](const std::vector<SymValue> &dims,
                         BindingKey method) -> llvm::Error {
      path.push_back(method);
      for (size_t i = 0; i < dims.size(); ++i) {
        ValueView dim;
        dim.kind = ValueView::Kind::SymInt;
        dim.sym = &dims[i];
        path.push_back(BindingKey::index(static_cast<int64_t>(i)));
        llvm::Error err = matchSym(dim, path, out);
        path.pop_back();
        if (err) {
          path.pop_back();
          return err;
        }
      }
      path.pop_back();
      return llvm::Error::success();
    };
    if (auto err = matchDims(view.tensor->sizes, BindingKey::size()))
      return err;
    if (!isCompressedSparse(view.tensor->layout))
      if (auto err = matchDims(view.tensor->strides, BindingKey::stride()))
        return err;
    ValueView offset;
    offset.kind = ValueView::Kind::SymInt;
    offset.sym = &view.tensor->storageOffset;
    path.push_back(BindingKey::storageOffset());
    llvm::Error err = matchSym(offset, path, out);
    path.pop_back();
    return err;
  }
  case ValueView::Kind::SymInt:
  case ValueView::Kind::SymBool:
  case ValueView::Kind::SymFloat:
    return matchSym(view, path, out);
  }
  return llvm::Error::success();
}

llvm::Error BindingComputer::run() {
  const std::vector<Argument> &inputs = graph.getInputs();
  for (unsigned i = 0; i < inputs.size(); ++i) {
    Site site;
    site.inputIndex = i;
    site.input = &inputs[i];
    site.view = viewOfArgument(inputs[i]);
    sites.push_back(std::move(site));
  }
  for (const Node &n : graph.getNodes()) {
    Site site;
    site.node = &n;
    site.view = viewOfNode(n);
    sites.push_back(std::move(site));
  }
  for (unsigned i = 0; i < sites.size(); ++i)
    if (auto err = collectMentions(sites[i], i))
      return err;

  nodeBindings.resize(graph.size());
  unsigned nodeIndex = 0;
  for (unsigned i = 0; i < sites.size(); ++i) {
    currentSite = i;
    std::vector<SymbolBinding> found;
    BindingPath path;
    if (auto err = match(sites[i].view, path, found))
      return err;
    if (sites[i].node) {
      nodeBindings[nodeIndex++] = std::move(found);
      continue;
    }
    for (SymbolBinding &b : found)
      inputBindings.push_back({sites[i].inputIndex, std::move(b)});
  }

  std::vector<std::string> problems;
  for (const auto &[name, mentionSite] : firstMentions) {
    auto bound = boundAt.find(name);
    if (bound == boundAt.end())
      problems.push_back("unbacked symbol " + name + " is never bound: " +
                         describeSite(sites[mentionSite]) +
                         " uses it, but no graph input or node yields it as "
                         "a size, stride, storage offset or scalar");
    else if (bound->second > mentionSite)
      problems.push_back("unbacked symbol " + name + " is used by " +
                         describeSite(sites[mentionSite]) + " before " +
                         describeSite(sites[bound->second]) + " binds it");
  }
  if (problems.empty())
    return llvm::Error::success();
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 llvm::join(problems, "\n"));
}

/// Subgraph nesting deeper than this is refused (the reader caps JSON depth
/// far below it; this guards IR built by other means).
constexpr unsigned kMaxSubgraphDepth = 256;

llvm::Error recomputeImpl(Graph &g, bool *changed, unsigned depth,
                          llvm::StringRef where) {
  if (depth > kMaxSubgraphDepth)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "subgraphs nested more than %u deep at %s",
                                   kMaxSubgraphDepth, where.str().c_str());
  llvm::Error all = llvm::Error::success();
  BindingComputer computer(g);
  if (llvm::Error err = computer.run()) {
    std::string prefix = where.empty() ? "" : "in " + where.str() + ": ";
    all = llvm::createStringError(llvm::inconvertibleErrorCode(),
                                  prefix + llvm::toString(std::move(err)));
    computer.nodeBindings.assign(g.size(), {});
    computer.inputBindings.clear();
  }
  bool differs = computer.inputBindings != g.getInputBindings();
  g.setInputBindings(std::move(computer.inputBindings));
  // One walk over the nodes (each a separate object, so every walk costs
  // cache misses): store the bindings and note the subgraphs.
  std::vector<std::pair<Node *, const Argument::GraphArg *>> subgraphs;
  unsigned i = 0;
  for (Node &n : g.getNodes()) {
    std::vector<SymbolBinding> &found = computer.nodeBindings[i++];
    if (found != n.getUnbackedBindings()) {
      differs = true;
      n.setUnbackedBindings(std::move(found));
    }
    for (const NamedArgument &in : n.getInputs())
      if (in.arg.getKind() == ArgKind::Graph && in.arg.getGraphArg().graph)
        subgraphs.emplace_back(&n, &in.arg.getGraphArg());
  }
  if (changed && differs)
    *changed = true;

  for (auto [n, graphArg] : subgraphs) {
    std::string inner = "subgraph '" + graphArg->name.str() + "' of node '" +
                        n->getName().str() + "'";
    if (!where.empty())
      inner += " (" + where.str() + ")";
    all = llvm::joinErrors(
        std::move(all),
        recomputeImpl(*graphArg->graph, changed, depth + 1, inner));
  }
  return all;
}

} // namespace

llvm::Error recomputeUnbackedBindings(Graph &g, bool *changed) {
  return recomputeImpl(g, changed, 0, "");
}

llvm::Error recomputeUnbackedBindings(ExportedProgram &ep, bool *changed) {
  return recomputeUnbackedBindings(ep.getGraph(), changed);
}

} // namespace pt2ir
