//===- Partition.cpp - Capability-based partitioning ----------------------===//
//
// The `partition` pass cuts the top-level graph into the pieces a backend
// runs. `supported=FILE` lists the targets the backend takes, one per line
// (`*` matches any run of characters: `aten.*`, `#mybackend:*`,
// `torch.ops.aten.relu.default`; a target is matched with and without its
// `torch.ops.` prefix; blank lines and lines starting with `//` are
// skipped). A partition is a connected set of supported nodes that stays
// acyclic when contracted: no path leaves it and comes back. Partitions are
// maximal: no two joined by an edge can be merged without such a path.
//
// How: every node gets a level, the most unsupported nodes on a path from
// the graph inputs to it. Supported neighbours of one level form the first
// partitions, which are convex by construction (a path that leaves through
// an unsupported node ends at a higher level). Then partitions joined by an
// edge are merged, to a fixed point, when a search bounded by the program
// order finds no path between them through outside nodes.
//
// `min-size=N` drops smaller partitions and `max-partitions=N` keeps the N
// largest; their nodes are left out. Partition i is called `<name>_<i>`,
// numbered in program order (`name` defaults to the supported file's stem).
//
// `mode=tag` writes `"delegation_tag": "<name>_<i>"` into each node's
// `custom` metadata (the key ExecuTorch partitioners set), keeping the
// other keys. `mode=outline` moves each partition into a subgraph called by
// one `torch.ops.higher_order.invoke_subgraph` node, the higher-order op
// torch uses to call a subgraph: its operands are the subgraph, an
// identifier string (the partition's name) and the values entering the
// partition; its outputs are the values leaving it, which keep their names.
//
// Not here: partitioning inside subgraphs, and lowering partitions.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/passes/PassRegistry.h"
#include "pt2ir/passes/Passes.h"

#include "pt2ir/ir/IRContext.h"
#include "pt2ir/ir/NodeMetadata.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace pt2ir {

namespace {

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// `*` matches any run of characters; everything else itself.
bool globMatch(llvm::StringRef pattern, llvm::StringRef text) {
  size_t p = 0, t = 0, star = llvm::StringRef::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (p < pattern.size() && pattern[p] == text[t]) {
      ++p;
      ++t;
    } else if (star != llvm::StringRef::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*')
    ++p;
  return p == pattern.size();
}

/// The supported-target list of a file.
class SupportedTargets {
public:
  llvm::Error read(llvm::StringRef path) {
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
    if (!buffer)
      return makeError("partition: cannot read supported-targets file '" +
                       path + "': " + buffer.getError().message());
    llvm::SmallVector<llvm::StringRef, 64> lines;
    (*buffer)->getBuffer().split(lines, '\n');
    for (size_t i = 0; i < lines.size(); ++i) {
      llvm::StringRef line = lines[i].rtrim("\r");
      size_t indent = line.size() - line.ltrim().size();
      line = line.trim();
      if (line.empty() || line.starts_with("//"))
        continue;
      size_t space = line.find_first_of(" \t");
      if (space != llvm::StringRef::npos)
        return makeError(path + ":" + llvm::Twine(i + 1) + ":" +
                         llvm::Twine(indent + space + 1) +
                         ": expected one target per line (a target or a `*` "
                         "glob such as aten.*), found a space");
      patterns.push_back(line.str());
    }
    return llvm::Error::success();
  }

  bool isSupported(llvm::StringRef target) {
    auto [it, fresh] = cache.try_emplace(target, false);
    if (!fresh)
      return it->second;
    llvm::StringRef shortForm = target;
    bool hasPrefix = shortForm.consume_front("torch.ops.");
    for (const std::string &p : patterns)
      if (globMatch(p, target) || (hasPrefix && globMatch(p, shortForm))) {
        it->second = true;
        break;
      }
    return it->second;
  }

  bool empty() const { return patterns.empty(); }

private:
  std::vector<std::string> patterns;
  llvm::DenseMap<llvm::StringRef, bool> cache;
};

/// Adjacency lists in one array (compressed rows).
class AdjacencyLists {
public:
  llvm::ArrayRef<unsigned> operator[](unsigned i) const {
    return llvm::ArrayRef<unsigned>(items).slice(starts[i], starts[i + 1] - starts[i]);
  }

private:
  friend struct NodeDag;
  std::vector<unsigned> starts, items;
};

/// The nodes of one graph as a DAG over program positions. Successor lists
/// are sorted by position; both kinds are free of duplicates.
struct NodeDag {
  std::vector<Node *> nodes;
  AdjacencyLists preds, succs;

  explicit NodeDag(Graph &graph) {
    graph.renumber(); // Node orders 1..N: positions without a map.
    for (Node &n : graph.getNodes())
      nodes.push_back(&n);
    unsigned n = unsigned(nodes.size());
    // Operands as (producer, user) pairs, each once per user.
    std::vector<std::pair<unsigned, unsigned>> edges;
    std::vector<unsigned> seenBy(n, ~0u);
    for (unsigned i = 0; i < n; ++i)
      nodes[i]->forEachOperand([&](Use *u) {
        Value *v = u->get();
        Node *def = v ? v->getDefiningNode() : nullptr;
        if (!def || def->getGraph() != &graph)
          return;
        unsigned p = def->getOrder() - 1;
        if (seenBy[p] == i)
          return;
        seenBy[p] = i;
        edges.emplace_back(p, i);
      });
    auto fill = [&](AdjacencyLists &lists, bool byProducer) {
      lists.starts.assign(n + 1, 0);
      for (const auto &[p, u] : edges)
        ++lists.starts[(byProducer ? p : u) + 1];
      for (unsigned i = 0; i < n; ++i)
        lists.starts[i + 1] += lists.starts[i];
      lists.items.resize(edges.size());
      std::vector<unsigned> next(lists.starts.begin(), lists.starts.end() - 1);
      // Edges are in user order, so each producer's users come out sorted.
      for (const auto &[p, u] : edges)
        lists.items[next[byProducer ? p : u]++] = byProducer ? u : p;
    };
    fill(succs, true);
    fill(preds, false);
  }
};

/// Union-find over node positions, with each partition's members in a list
/// threaded through one array (joining two lists is constant time).
class Partitions {
public:
  static constexpr unsigned kEnd = ~0u;

  explicit Partitions(unsigned n)
      : parent(n), next(n, kEnd), tail(n), size(n, 1), first(n), last(n) {
    std::iota(parent.begin(), parent.end(), 0u);
    std::iota(tail.begin(), tail.end(), 0u);
    std::iota(first.begin(), first.end(), 0u);
    std::iota(last.begin(), last.end(), 0u);
  }
  unsigned find(unsigned x) {
    while (parent[x] != x)
      x = parent[x] = parent[parent[x]];
    return x;
  }
  void join(unsigned a, unsigned b) {
    a = find(a);
    b = find(b);
    if (a == b)
      return;
    if (size[a] < size[b])
      std::swap(a, b);
    parent[b] = a;
    next[tail[a]] = b; // A root heads its list.
    tail[a] = tail[b];
    size[a] += size[b];
    first[a] = std::min(first[a], first[b]);
    last[a] = std::max(last[a], last[b]);
  }
  /// The member after `x` in its partition's list, or kEnd; the list of the
  /// partition rooted at `root` starts at `root`.
  unsigned getNext(unsigned x) const { return next[x]; }
  /// The member count of the partition rooted at `root`.
  unsigned getSize(unsigned root) const { return size[root]; }
  /// The positions of the first and last nodes of the partition rooted at
  /// `root`.
  unsigned getFirst(unsigned root) const { return first[root]; }
  unsigned getLast(unsigned root) const { return last[root]; }

private:
  std::vector<unsigned> parent, next, tail, size, first, last;
};

/// True when merging the partition rooted at `a` into the one rooted at
/// `b`, which it feeds, would create a path that leaves the union and comes
/// back: a path from `a` to `b` through an outside node. (A path from `b`
/// back to `a` cannot exist: the contracted graph is acyclic.) The search
/// stops at the position of `b`'s last node.
///
/// The edges leaving `a` are taken lazily, nearest to `b` first (a merge of
/// the members' sorted successor lists, read backwards from `b`'s last
/// position), and each is searched before the next is read. A node with
/// users all over the program (a mask every layer reads) then costs the
/// few edges next to `b` in a check that finds a path, not all its users
/// before `b`: scanning them all made the checks grow with the depth of
/// the program.
bool wouldCycle(const NodeDag &dag, Partitions &parts, unsigned a, unsigned b,
                std::vector<unsigned> &stamp, unsigned epoch) {
  unsigned last = parts.getLast(b);
  // (successor position, member, successor index) per member.
  struct Cursor {
    unsigned pos, member, index;
    bool operator<(const Cursor &o) const { return pos < o.pos; }
  };
  llvm::SmallVector<Cursor, 16> heap;
  for (unsigned m = a; m != Partitions::kEnd; m = parts.getNext(m)) {
    llvm::ArrayRef<unsigned> succs = dag.succs[m];
    unsigned end = unsigned(std::lower_bound(succs.begin(), succs.end(), last) -
                            succs.begin());
    if (end)
      heap.push_back({succs[end - 1], m, end - 1});
  }
  std::make_heap(heap.begin(), heap.end());
  llvm::SmallVector<unsigned, 32> work;
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end());
    Cursor &c = heap.back();
    unsigned root = c.pos;
    if (c.index) {
      c.pos = dag.succs[c.member][--c.index];
      std::push_heap(heap.begin(), heap.end());
    } else {
      heap.pop_back();
    }
    if (stamp[root] == epoch)
      continue;
    unsigned r = parts.find(root);
    if (r == a || r == b)
      continue;
    stamp[root] = epoch;
    work.push_back(root);
    while (!work.empty()) {
      unsigned n = work.pop_back_val();
      for (unsigned s : dag.succs[n]) {
        if (s > last)
          break; // Successors are sorted by position.
        if (stamp[s] == epoch)
          continue;
        unsigned part = parts.find(s);
        if (part == b)
          return true;
        if (part == a)
          continue; // Unreachable: `a` is convex.
        stamp[s] = epoch;
        work.push_back(s);
      }
    }
  }
  return false;
}

/// The `custom` metadata texts of one partition's tag, built once for all
/// its nodes.
struct DelegationTag {
  DelegationTag(ExportedProgram &ep, llvm::StringRef tag)
      : entry("\"delegation_tag\": \"" + tag.str() + "\""),
        key(ep.intern("custom")), alone(ep.intern("{" + entry + "}")) {}
  std::string entry;   ///< `"delegation_tag": "<tag>"`
  llvm::StringRef key; ///< `custom`, interned.
  /// The metadata of a node without other custom keys, interned.
  llvm::StringRef alone;
};

/// Sets `"delegation_tag": tag` in the `custom` metadata of `node`, keeping
/// the other keys as written.
llvm::Error setDelegationTag(ExportedProgram &ep, Node &node,
                             const DelegationTag &tag) {
  StringPairs &md = node.getMetadata();
  std::optional<llvm::StringRef> custom = lookupMetadata(md, tag.key);
  if (!custom || custom->trim().empty() || custom->trim() == "{}") {
    setMetadata(md, tag.key, tag.alone);
    return llvm::Error::success();
  }
  const std::string &entry = tag.entry;
  std::string text;
  auto parsed = parseJsonMetadata(*custom);
  if (!parsed)
    return makeError("partition: the custom metadata of node '" +
                     node.getName() + "' is not JSON: " +
                     llvm::toString(parsed.takeError()));
  const llvm::json::Object *obj = parsed->getAsObject();
  if (!obj)
    return makeError("partition: the custom metadata of node '" +
                     node.getName() + "' is not a JSON object");
  llvm::StringRef trimmed = custom->rtrim();
  if (const llvm::json::Value *old = obj->get("delegation_tag")) {
    std::string oldEntry;
    llvm::raw_string_ostream os(oldEntry);
    os << "\"delegation_tag\": " << *old;
    size_t at = trimmed.find(oldEntry);
    if (at == llvm::StringRef::npos)
      return makeError("partition: cannot rewrite the delegation_tag in the "
                       "custom metadata of node '" +
                       node.getName() + "'");
    text = (trimmed.take_front(at) + entry +
            trimmed.drop_front(at + oldEntry.size()))
               .str();
  } else {
    text = (trimmed.drop_back() + ", " + entry + "}").str();
  }
  setMetadata(md, tag.key, ep.intern(text));
  return llvm::Error::success();
}

/// An Argument naming value `v` by name (detached; the graph resolves it).
Argument refTo(IRContext &ctx, const Value &v) {
  switch (v.getType()) {
  case ValueType::SymInt:
    return Argument::sym(ArgKind::SymInt, Argument::symRef(ctx, v.getName()));
  case ValueType::SymBool:
    return Argument::sym(ArgKind::SymBool, Argument::symRef(ctx, v.getName()));
  case ValueType::SymFloat:
    return Argument::sym(ArgKind::SymFloat, Argument::symRef(ctx, v.getName()));
  default:
    return Argument::tensor(ctx, v.getName());
  }
}

void copyValueMeta(const Value &from, Value &to) {
  if (const TensorMeta *tm = from.getTensorMeta())
    to.setTensorMeta(*tm);
  if (const SymValue *s = from.getSymMeta())
    to.setSymMeta(*s);
}

/// True when outline mode can move `node`: its operands and results are
/// tensors or sym values (no custom objects or tokens).
bool isOutlinable(const Node &node) {
  bool ok = true;
  auto check = [&](const Argument &arg) {
    if (arg.getKind() == ArgKind::Token || arg.getKind() == ArgKind::CustomObj)
      ok = false;
    arg.forEachUse([&](Use *u) {
      if (Value *v = u->get())
        if (v->getType() == ValueType::CustomObj)
          ok = false;
    });
  };
  for (const NamedArgument &in : node.getInputs())
    check(in.arg);
  for (const Argument &out : node.getOutputs())
    check(out);
  return ok;
}

class PartitionPass final : public Pass {
public:
  llvm::StringRef getName() const override { return "partition"; }

  llvm::Error setOptions(const PassOptions &options) override {
    for (const auto &[name, value] : options) {
      if (name == "supported") {
        supportedFile = value;
        supported = SupportedTargets();
        if (value.empty())
          continue; // The default: no file yet.
        if (auto err = supported.read(value))
          return err;
      } else if (name == "mode") {
        if (value != "tag" && value != "outline")
          return makeError("partition: option 'mode' expects tag or outline, "
                           "got '" + value + "'");
        outline = value == "outline";
      } else if (name == "min-size" || name == "max-partitions") {
        unsigned n = 0;
        if (llvm::StringRef(value).getAsInteger(10, n))
          return makeError("partition: option '" + name +
                           "' expects a non-negative integer, got '" + value +
                           "'");
        (name == "min-size" ? minSize : maxPartitions) = n;
      } else if (name == "name") {
        if (!llvm::all_of(value, [](char c) {
              return llvm::isAlnum(c) || c == '_';
            }))
          return makeError("partition: option 'name' expects letters, digits "
                           "and '_', got '" + value + "'");
        partitionName = value;
      } else {
        return makeUnknownPassOptionError(getName(), name);
      }
    }
    return llvm::Error::success();
  }

  llvm::Expected<bool> run(ExportedProgram &ep, PassContext &) override {
    if (supportedFile.empty())
      return makeError("partition: no supported-targets file; use "
                       "partition{supported=FILE}");
    std::string base = partitionName;
    if (base.empty()) {
      base = llvm::sys::path::stem(supportedFile).str();
      for (char &c : base)
        if (!llvm::isAlnum(c))
          c = '_';
    }
    Graph &graph = ep.getGraph();
    NodeDag dag(graph);
    unsigned n = unsigned(dag.nodes.size());
    std::vector<bool> isSupported(n);
    int64_t supportedCount = 0;
    for (unsigned i = 0; i < n; ++i) {
      isSupported[i] = supported.isSupported(dag.nodes[i]->getTarget()) &&
                       (!outline || isOutlinable(*dag.nodes[i]));
      supportedCount += isSupported[i];
    }

    // Levels and the first, convex partitions.
    std::vector<unsigned> level(n, 0);
    for (unsigned i = 0; i < n; ++i)
      for (unsigned p : dag.preds[i])
        level[i] = std::max(level[i], level[p] + (isSupported[p] ? 0 : 1));
    Partitions parts(n);
    for (unsigned i = 0; i < n; ++i)
      for (unsigned p : dag.preds[i])
        if (isSupported[i] && isSupported[p] && level[i] == level[p])
          parts.join(i, p);

    // Merge neighbours to a fixed point. A pair that failed is tried again
    // only after one of the two grew (the member counts are the version).
    std::vector<unsigned> stamp(n, 0);
    unsigned epoch = 0;
    std::map<std::pair<unsigned, unsigned>, std::pair<size_t, size_t>> failed;
    for (bool merged = true; merged;) {
      merged = false;
      for (unsigned i = 0; i < n; ++i) {
        if (!isSupported[i])
          continue;
        for (unsigned p : dag.preds[i]) {
          if (!isSupported[p])
            continue;
          unsigned a = parts.find(p), b = parts.find(i);
          if (a == b)
            continue;
          std::pair<size_t, size_t> version{parts.getSize(a),
                                            parts.getSize(b)};
          auto known = failed.find({a, b});
          if (known != failed.end() && known->second == version)
            continue;
          if (wouldCycle(dag, parts, a, b, stamp, ++epoch)) {
            failed[{a, b}] = version;
            continue;
          }
          parts.join(a, b);
          merged = true;
        }
      }
    }

    // The partitions, by first node; then the size filters.
    std::vector<unsigned> roots;
    for (unsigned i = 0; i < n; ++i)
      if (isSupported[i] && parts.find(i) == i)
        roots.push_back(i);
    llvm::erase_if(roots, [&](unsigned r) {
      return parts.getSize(r) < std::max(minSize, 1u);
    });
    if (maxPartitions && roots.size() > maxPartitions) {
      std::stable_sort(roots.begin(), roots.end(), [&](unsigned a, unsigned b) {
        return parts.getSize(a) > parts.getSize(b);
      });
      roots.resize(maxPartitions);
    }
    llvm::sort(roots, [&](unsigned a, unsigned b) {
      return parts.getFirst(a) < parts.getFirst(b);
    });

    int64_t placed = 0;
    std::vector<std::vector<Node *>> partitionNodes;
    for (unsigned r : roots) {
      std::vector<unsigned> members;
      for (unsigned m = r; m != Partitions::kEnd; m = parts.getNext(m))
        members.push_back(m);
      llvm::sort(members);
      std::vector<Node *> nodes;
      for (unsigned m : members)
        nodes.push_back(dag.nodes[m]);
      placed += int64_t(nodes.size());
      partitionNodes.push_back(std::move(nodes));
    }

    for (size_t i = 0; i < partitionNodes.size(); ++i) {
      std::string tag = base + "_" + std::to_string(i);
      addStatistic("partition-" + std::to_string(i) + "-nodes",
                   int64_t(partitionNodes[i].size()));
      if (outline) {
        if (auto err = outlinePartition(ep, partitionNodes[i], tag))
          return err;
        continue;
      }
      DelegationTag texts(ep, tag);
      for (Node *node : partitionNodes[i])
        if (auto err = setDelegationTag(ep, *node, texts))
          return err;
    }
    addStatistic("partitions", int64_t(partitionNodes.size()));
    addStatistic("nodes-in-partitions", placed);
    addStatistic("supported-nodes-left-out", supportedCount - placed);
    return !partitionNodes.empty();
  }

private:
  /// Moves `nodes` (a convex partition, in program order) into a subgraph
  /// called by one invoke_subgraph node.
  llvm::Error outlinePartition(ExportedProgram &ep, llvm::ArrayRef<Node *> nodes,
                               llvm::StringRef tag) {
    Graph &graph = ep.getGraph();
    IRContext &ctx = ep.getContext();
    llvm::DenseSet<const Node *> inPart(nodes.begin(), nodes.end());

    // Values entering (first use order) and leaving (definition order).
    std::vector<Value *> entering, leaving;
    llvm::DenseSet<Value *> seenEntering;
    for (Node *node : nodes)
      node->forEachOperand([&](Use *u) {
        Value *v = u->get();
        if (!v)
          return;
        Node *def = v->getDefiningNode();
        if ((!def || !inPart.count(def)) && seenEntering.insert(v).second)
          entering.push_back(v);
      });
    for (Node *node : nodes)
      for (Value *v : node->getResults())
        for (const Use *u : v->uses())
          if (!u->getUser() || !inPart.count(u->getUser())) {
            leaving.push_back(v);
            break;
          }

    // The body: entering values become inputs of the same names.
    auto body = std::make_unique<Graph>(ctx);
    for (Value *v : entering) {
      if (auto err = body->addInput(refTo(ctx, *v)))
        return err;
      copyValueMeta(*v, *body->lookupValue(v->getName()));
    }
    for (Node *node : nodes) {
      NodeSpec spec;
      spec.target = node->getTarget();
      for (const NamedArgument &in : node->getInputs())
        spec.inputs.push_back(
            NamedArgument{in.name, in.arg.clone(ctx), in.kind, in.extras});
      for (const Argument &out : node->getOutputs())
        spec.outputs.push_back(out.clone(ctx));
      spec.metadata = node->getMetadata();
      spec.isHopSingleTensorReturn = node->getIsHopSingleTensorReturn();
      spec.name = node->getStoredName();
      spec.extras = node->getExtras();
      auto copy = body->appendNode(std::move(spec));
      if (!copy)
        return copy.takeError();
      std::vector<Value *> from = node->getResults(), to = (*copy)->getResults();
      for (size_t i = 0; i < from.size() && i < to.size(); ++i)
        copyValueMeta(*from[i], *to[i]);
    }
    for (Value *v : leaving)
      if (auto err = body->addOutput(refTo(ctx, *v)))
        return err;

    // The call, after the last node of the partition, with fresh output
    // names for now.
    NodeSpec call;
    call.target = ctx.intern("torch.ops.higher_order.invoke_subgraph");
    call.inputs.push_back(NamedArgument{
        "", Argument::graph(ctx.intern(tag), std::move(body)), 1, {}});
    call.inputs.push_back(
        NamedArgument{"", Argument::string(ctx.intern(tag)), 1, {}});
    for (Value *v : entering)
      call.inputs.push_back(NamedArgument{"", refTo(ctx, *v), 1, {}});
    std::vector<std::string> finalNames;
    for (Value *v : leaving) {
      finalNames.push_back(v->getName().str());
      llvm::StringRef fresh = graph.uniqueName((v->getName() + "_" + tag).str());
      Argument out = refTo(ctx, *v);
      out.forEachUse([&](Use *u) { u->setDetachedName(fresh); });
      call.outputs.push_back(std::move(out));
    }
    call.isHopSingleTensorReturn = false;
    call.name = ctx.intern(tag);
    call.metadata = nodes.back()->getMetadata();
    Graph::iterator pos = std::next(Graph::iterator(*nodes.back()));
    auto created = graph.createNode(std::move(call), pos);
    if (!created)
      return created.takeError();
    Node *callNode = *created;
    std::vector<Value *> results = callNode->getResults();
    for (size_t i = 0; i < leaving.size(); ++i)
      copyValueMeta(*leaving[i], *results[i]);

    // Outside nodes between the partition's nodes that depend on it move
    // after the call (none of them feeds the partition: it is convex).
    llvm::DenseSet<const Node *> tainted(inPart.begin(), inPart.end());
    std::vector<Node *> toMove;
    for (Graph::iterator it(*nodes.front()); &*it != callNode; ++it) {
      Node *n = &*it;
      if (inPart.count(n))
        continue;
      bool dependent = false;
      n->forEachOperand([&](Use *u) {
        if (Value *v = u->get())
          if (Node *def = v->getDefiningNode())
            dependent |= tainted.count(def) > 0;
      });
      if (dependent) {
        tainted.insert(n);
        toMove.push_back(n);
      }
    }
    Graph::iterator after = std::next(Graph::iterator(*callNode));
    for (Node *n : toMove)
      graph.moveBefore(n, after);

    for (size_t i = 0; i < leaving.size(); ++i)
      if (auto err = ep.replaceAllUsesWith(leaving[i], results[i]))
        return err;
    for (size_t i = nodes.size(); i-- > 0;)
      if (auto err = graph.eraseNode(nodes[i]))
        return err;
    for (size_t i = 0; i < leaving.size(); ++i)
      if (auto err = ep.renameValue(results[i], finalNames[i]))
        return err;
    return llvm::Error::success();
  }

  std::string supportedFile;
  SupportedTargets supported;
  bool outline = false;
  unsigned minSize = 1;
  unsigned maxPartitions = 0;
  std::string partitionName;
};

} // namespace

std::unique_ptr<Pass> createPartitionPass() {
  return std::make_unique<PartitionPass>();
}

} // namespace pt2ir
