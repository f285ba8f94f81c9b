//===- DeclarativePattern.cpp - Patterns written as pairs of graphs -------===//
//
// The matcher walks from the root node backwards: each pattern node is
// mapped to at most one graph node and back, each pattern value to one
// graph value. Nothing is changed until the whole match, and the check that
// inner values stay inside it, succeeded.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/rewrite/DeclarativePattern.h"

#include "pt2ir/ir/OperatorSchema.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace pt2ir {

llvm::Error makePatternError(const PatternLoc &loc, const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 loc.file + ":" + llvm::Twine(loc.line) + ":" +
                                     llvm::Twine(loc.column) + ": " + message);
}

namespace {

/// Calls `fn` on every Ref inside `arg`.
template <typename Fn> void forEachRef(const PatternArg &arg, Fn &&fn) {
  if (arg.kind == PatternArg::Kind::Ref)
    fn(arg);
  for (const PatternArg &e : arg.elements)
    forEachRef(e, fn);
}

} // namespace

llvm::Error verifyPatternSpec(const DeclarativePatternSpec &spec,
                              const OperatorRegistry &operators) {
  if (spec.match.empty())
    return makePatternError(spec.loc, "pattern '" + spec.name +
                                          "' matches no node: \"match\" is empty");
  for (const auto *nodes : {&spec.match, &spec.replace})
    for (const PatternNodeSpec &node : *nodes)
      if (!node.positional.empty())
        return makePatternError(node.loc, "positional arguments have no names yet "
                                          "(call nameArguments first)");
  // Names of the pattern: inputs, then node results in order.
  llvm::StringMap<int> producer; // -1: an input
  for (const std::string &in : spec.inputs)
    if (!producer.try_emplace(in, -1).second)
      return makePatternError(spec.loc, "input '" + in + "' is declared twice");
  for (size_t i = 0; i < spec.match.size(); ++i) {
    const PatternNodeSpec &node = spec.match[i];
    for (const auto &[name, arg] : node.args) {
      llvm::Error err = llvm::Error::success();
      forEachRef(arg, [&](const PatternArg &ref) {
        if (!err && !producer.count(ref.text))
          err = makePatternError(ref.loc, "'" + ref.text +
                                              "' is not a pattern input or an "
                                              "earlier result");
      });
      if (err)
        return err;
    }
    if (node.results.empty())
      return makePatternError(node.loc, "a pattern node needs \"results\"");
    for (const std::string &r : node.results)
      if (!producer.try_emplace(r, int(i)).second)
        return makePatternError(node.loc, "'" + r + "' is defined twice");
  }
  if (spec.outputs.empty())
    return makePatternError(spec.loc, "pattern '" + spec.name + "' has no outputs");
  for (const std::string &out : spec.outputs) {
    auto it = producer.find(out);
    if (it == producer.end() || it->second < 0)
      return makePatternError(spec.loc, "output '" + out +
                                            "' is not a result of a pattern node");
  }
  // Every node must feed the root (the last node), or the matcher, which
  // walks back from the root, could not find it.
  std::vector<bool> reached(spec.match.size(), false);
  reached.back() = true;
  for (size_t i = spec.match.size(); i-- > 0;) {
    if (!reached[i])
      return makePatternError(spec.match[i].loc,
                              "this node does not feed the root (the last "
                              "node of \"match\"), so it can never be matched");
    for (const auto &[name, arg] : spec.match[i].args)
      forEachRef(arg, [&](const PatternArg &ref) {
        int p = producer.lookup(ref.text);
        if (p >= 0)
          reached[p] = true;
      });
  }
  // The replacement: pattern inputs and its own earlier results only.
  llvm::StringSet<> available;
  for (const std::string &in : spec.inputs)
    available.insert(in);
  for (const PatternNodeSpec &node : spec.replace) {
    const OperatorSchema *schema = operators.lookupTarget(node.target);
    if (!schema)
      return makePatternError(node.loc, "no schema is registered for '" +
                                            node.target + "'");
    for (const auto &[name, arg] : node.args) {
      if (!schema->findArgument(name))
        return makePatternError(arg.loc, "'" + schema->getQualifiedName() +
                                             "' has no argument '" + name + "'");
      llvm::Error err = llvm::Error::success();
      forEachRef(arg, [&](const PatternArg &ref) {
        if (!err && !available.count(ref.text))
          err = makePatternError(
              ref.loc, "'" + ref.text +
                           "' is not a pattern input or an earlier replacement "
                           "result (values the pattern matched are erased)");
      });
      if (err)
        return err;
    }
    if (!node.like.empty() && !producer.count(node.like))
      return makePatternError(node.loc, "\"like\" names '" + node.like +
                                            "', which is not a pattern value");
    for (const std::string &r : node.results)
      if (!available.insert(r).second || producer.count(r))
        return makePatternError(node.loc, "'" + r + "' is defined twice");
  }
  if (spec.replaceOutputs.size() != spec.outputs.size())
    return makePatternError(spec.loc,
                            "the replacement has " +
                                llvm::Twine(spec.replaceOutputs.size()) +
                                " outputs, the pattern " +
                                llvm::Twine(spec.outputs.size()));
  for (const std::string &out : spec.replaceOutputs)
    if (!available.count(out))
      return makePatternError(spec.loc, "replacement output '" + out +
                                            "' is not defined by the replacement "
                                            "or a pattern input");
  return llvm::Error::success();
}

namespace {

class DeclarativePattern final : public RewritePattern {
public:
  explicit DeclarativePattern(DeclarativePatternSpec s)
      : RewritePattern(s.match.back().target, s.benefit, s.name),
        spec(std::move(s)) {
    for (size_t i = 0; i < spec.inputs.size(); ++i)
      inputIndex[spec.inputs[i]] = i;
    for (size_t i = 0; i < spec.match.size(); ++i)
      for (size_t j = 0; j < spec.match[i].results.size(); ++j)
        resultOf[spec.match[i].results[j]] = {i, j};
    for (const std::string &out : spec.outputs)
      outputNames.insert(out);
  }

  llvm::Expected<bool> matchAndRewrite(Node &root,
                                       PatternRewriter &rewriter) const override {
    Match m;
    m.nodes.assign(spec.match.size(), nullptr);
    if (!matchNode(m, spec.match.size() - 1, root) || !isClosed(m))
      return false;
    return rewrite(m, rewriter);
  }

private:
  struct Match {
    std::vector<Node *> nodes;
    llvm::DenseMap<const Node *, size_t> patternOf;
    llvm::StringMap<Value *> values;
  };

  bool matchNode(Match &m, size_t index, Node &node) const {
    if (m.nodes[index])
      return m.nodes[index] == &node;
    if (m.patternOf.count(&node))
      return false;
    const PatternNodeSpec &p = spec.match[index];
    if (node.getTarget() != p.target || node.getInputs().size() != p.args.size())
      return false;
    std::vector<Value *> results = node.getResults();
    if (results.size() != p.results.size())
      return false;
    m.nodes[index] = &node;
    m.patternOf[&node] = index;
    for (size_t j = 0; j < results.size(); ++j)
      m.values[p.results[j]] = results[j];
    for (const auto &[name, arg] : p.args) {
      const NamedArgument *in = node.findInput(name);
      if (!in || !matchArg(m, arg, in->arg))
        return false;
    }
    return true;
  }

  /// Binds pattern value `name` to `v`, matching its producer if any.
  bool bindValue(Match &m, llvm::StringRef name, Value *v) const {
    if (!v)
      return false;
    auto bound = m.values.find(name);
    if (bound != m.values.end())
      return bound->second == v;
    if (inputIndex.count(name)) {
      m.values[name] = v;
      return true;
    }
    auto producer = resultOf.find(name);
    if (producer == resultOf.end())
      return false;
    Node *def = v->getDefiningNode();
    if (!def)
      return false;
    auto [nodeIndex, resultIndex] = producer->second;
    std::vector<Value *> results = def->getResults();
    if (resultIndex >= results.size() || results[resultIndex] != v)
      return false;
    return matchNode(m, nodeIndex, *def);
  }

  static bool sameInt(const PatternArg &p, int64_t v) {
    return p.kind == PatternArg::Kind::Int && p.intValue == v;
  }

  bool matchArg(Match &m, const PatternArg &p, const Argument &a) const {
    using K = PatternArg::Kind;
    switch (p.kind) {
    case K::Ref:
      return bindValue(m, p.text, a.getSingleValue());
    case K::None:
      return a.isNone() ||
             (a.getKind() == ArgKind::OptionalTensor && !a.getRef());
    case K::Int:
      if (a.getKind() == ArgKind::Int)
        return a.getInt() == p.intValue;
      if (const SymArg *s = a.getIfSym(); s && a.getKind() == ArgKind::SymInt)
        return !s->isRef() && s->intValue == p.intValue;
      return false;
    case K::Float:
      return a.getKind() == ArgKind::Float && a.getFloat() == p.floatValue;
    case K::Bool:
      return a.getKind() == ArgKind::Bool && a.getBool() == p.boolValue;
    case K::String:
      return a.getKind() == ArgKind::String && a.getString() == p.text;
    case K::ScalarType:
      return a.getKind() == ArgKind::ScalarType && a.getInt() == p.intValue;
    case K::MemoryFormat:
      return a.getKind() == ArgKind::MemoryFormat && a.getInt() == p.intValue;
    case K::Layout:
      return a.getKind() == ArgKind::Layout && a.getInt() == p.intValue;
    case K::Device: {
      const Device *d = a.getIfDevice();
      return d && d->type == p.text &&
             d->index == (p.intValue < 0 ? std::nullopt
                                         : std::optional<int64_t>(p.intValue));
    }
    case K::List:
      return matchList(m, p, a);
    }
    return false;
  }

  bool matchList(Match &m, const PatternArg &p, const Argument &a) const {
    const auto &elems = p.elements;
    switch (a.getKind()) {
    case ArgKind::Ints: {
      const auto &ints = a.getInts();
      if (ints.size() != elems.size())
        return false;
      for (size_t i = 0; i < ints.size(); ++i)
        if (!sameInt(elems[i], ints[i]))
          return false;
      return true;
    }
    case ArgKind::Floats: {
      const auto &fs = a.getFloats();
      if (fs.size() != elems.size())
        return false;
      for (size_t i = 0; i < fs.size(); ++i)
        if (elems[i].kind != PatternArg::Kind::Float ||
            elems[i].floatValue != fs[i])
          return false;
      return true;
    }
    case ArgKind::Bools: {
      const auto &bs = a.getBools();
      if (bs.size() != elems.size())
        return false;
      for (size_t i = 0; i < bs.size(); ++i)
        if (elems[i].kind != PatternArg::Kind::Bool ||
            elems[i].boolValue != bs[i])
          return false;
      return true;
    }
    case ArgKind::Tensors:
    case ArgKind::OptionalTensors: {
      const auto &refs = a.getRefs();
      if (refs.size() != elems.size())
        return false;
      for (size_t i = 0; i < refs.size(); ++i) {
        if (!refs[i]) {
          if (elems[i].kind != PatternArg::Kind::None)
            return false;
          continue;
        }
        if (elems[i].kind != PatternArg::Kind::Ref ||
            !bindValue(m, elems[i].text, refs[i]->get()))
          return false;
      }
      return true;
    }
    case ArgKind::SymInts: {
      const auto &syms = a.getSymList();
      if (syms.size() != elems.size())
        return false;
      for (size_t i = 0; i < syms.size(); ++i) {
        if (syms[i].isRef()) {
          if (elems[i].kind != PatternArg::Kind::Ref ||
              !bindValue(m, elems[i].text, syms[i].ref->get()))
            return false;
        } else if (!sameInt(elems[i], syms[i].intValue)) {
          return false;
        }
      }
      return true;
    }
    default:
      return false;
    }
  }

  /// True when no inner value of the match is read outside it.
  bool isClosed(const Match &m) const {
    for (size_t i = 0; i < m.nodes.size(); ++i) {
      std::vector<Value *> results = m.nodes[i]->getResults();
      for (size_t j = 0; j < results.size(); ++j) {
        if (outputNames.count(spec.match[i].results[j]))
          continue;
        for (const Use *u : results[j]->uses()) {
          const Node *user = u->getUser();
          if (!user || !m.patternOf.count(user))
            return false;
        }
      }
    }
    return true;
  }

  BuilderArg toBuilderArg(const PatternArg &p,
                          const llvm::StringMap<Value *> &env) const {
    using K = PatternArg::Kind;
    switch (p.kind) {
    case K::Ref:
      return BuilderArg(static_cast<const Value *>(env.lookup(p.text)));
    case K::None:
      return BuilderArg(std::nullopt);
    case K::Int:
      return BuilderArg(p.intValue);
    case K::Float:
      return BuilderArg(p.floatValue);
    case K::Bool:
      return BuilderArg(p.boolValue);
    case K::String:
      return BuilderArg(llvm::StringRef(p.text));
    case K::ScalarType:
      return BuilderArg(ScalarType(p.intValue));
    case K::MemoryFormat:
      return BuilderArg(MemoryFormat(p.intValue));
    case K::Layout:
      return BuilderArg(Layout(p.intValue));
    case K::Device: {
      Device d;
      d.type = p.text;
      if (p.intValue >= 0)
        d.index = p.intValue;
      return BuilderArg(std::move(d));
    }
    case K::List: {
      std::vector<BuilderArg> elems;
      for (const PatternArg &e : p.elements)
        elems.push_back(toBuilderArg(e, env));
      return BuilderArg::list(std::move(elems));
    }
    }
    return BuilderArg(std::nullopt);
  }

  llvm::Expected<bool> rewrite(Match &m, PatternRewriter &rewriter) const {
    std::vector<const Node *> matched(m.nodes.begin(), m.nodes.end());
    rewriter.setProvenance(matched, getName());
    llvm::StringMap<Value *> env;
    for (const std::string &in : spec.inputs)
      env[in] = m.values.lookup(in);
    // Replacement result -> the matched output it stands for.
    llvm::StringMap<Value *> replacedBy;
    for (size_t k = 0; k < spec.replaceOutputs.size(); ++k)
      replacedBy[spec.replaceOutputs[k]] = m.values.lookup(spec.outputs[k]);

    for (const PatternNodeSpec &r : spec.replace) {
      std::vector<BuilderKwarg> kwargs;
      std::vector<BuilderArg> storage;
      storage.reserve(r.args.size());
      for (const auto &[name, arg] : r.args)
        storage.push_back(toBuilderArg(arg, env));
      for (size_t i = 0; i < r.args.size(); ++i)
        kwargs.emplace_back(r.args[i].first, storage[i]);
      NodeOptions options;
      const Value *like = r.like.empty() ? nullptr : m.values.lookup(r.like);
      for (const std::string &res : r.results) {
        const Value *source = replacedBy.lookup(res);
        if (!source)
          source = like;
        const TensorMeta *tm = source ? source->getTensorMeta() : nullptr;
        options.outputMeta.push_back(tm ? std::optional<TensorMeta>(*tm)
                                        : std::nullopt);
      }
      if (!like && !r.results.empty())
        options.metaLike = replacedBy.lookup(r.results.front());
      auto node = rewriter.create(r.target, {}, kwargs, options);
      if (!node)
        return makePatternError(r.loc, "pattern '" + getName() +
                                           "' could not build its replacement: " +
                                           llvm::toString(node.takeError()));
      std::vector<Value *> results = (*node)->getResults();
      if (results.size() != r.results.size())
        return makePatternError(r.loc, "'" + r.target + "' defines " +
                                           llvm::Twine(results.size()) +
                                           " values, the replacement names " +
                                           llvm::Twine(r.results.size()));
      for (size_t i = 0; i < results.size(); ++i)
        env[r.results[i]] = results[i];
    }
    for (size_t k = 0; k < spec.outputs.size(); ++k)
      if (auto err = rewriter.replaceAllUsesWith(
              m.values.lookup(spec.outputs[k]), env.lookup(spec.replaceOutputs[k])))
        return err;
    // Erase users before producers: pattern nodes only read earlier ones.
    for (size_t i = m.nodes.size(); i-- > 0;)
      if (auto err = rewriter.eraseNode(*m.nodes[i]))
        return err;
    return true;
  }

  DeclarativePatternSpec spec;
  llvm::StringMap<size_t> inputIndex;
  llvm::StringMap<std::pair<size_t, size_t>> resultOf;
  llvm::StringSet<> outputNames;
};

} // namespace

std::unique_ptr<RewritePattern>
createDeclarativePattern(DeclarativePatternSpec spec) {
  return std::make_unique<DeclarativePattern>(std::move(spec));
}

} // namespace pt2ir
