//===- StructuralDiff.cpp - What changed between two programs -------------===//
//
// Implements diffPrograms (see the header for the matching rules) and its
// text and JSON printers. Hashes are xxh3 over a canonical byte encoding of
// a node's call; the phase-2 matcher is a worklist over def-use edges, so a
// graph is compared in time linear in its size.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/tools/lib/StructuralDiff.h"

#include "pt2ir/ir/Printer.h"
#include "pt2ir/ir/SymbolicOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/xxhash.h"

#include <cstring>
#include <deque>
#include <map>
#include <memory>

namespace pt2ir {

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

static constexpr llvm::StringLiteral IgnoreCategories[] = {
    "names",           "metadata", "types",       "range_constraints",
    "signature",       "versions", "stack_trace", "nn_module_stack",
    "source_fn_stack", "torch_fn", "custom",      "from_node"};

llvm::ArrayRef<llvm::StringLiteral> diffIgnoreCategories() {
  return IgnoreCategories;
}

llvm::Error applyDiffIgnore(llvm::StringRef words, DiffOptions &options) {
  llvm::SmallVector<llvm::StringRef, 4> parts;
  words.split(parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef raw : parts) {
    llvm::StringRef word = raw.trim();
    if (word.empty())
      continue;
    if (word == "names")
      options.ignoreNames = true;
    else if (word == "metadata")
      options.ignoreMetadata = true;
    else if (word == "types")
      options.ignoreTypes = true;
    else if (word == "range_constraints")
      options.ignoreRangeConstraints = true;
    else if (word == "signature")
      options.ignoreSignature = true;
    else if (word == "versions")
      options.ignoreVersions = true;
    else if (llvm::all_of(
                 word, [](char c) { return llvm::isAlnum(c) || c == '_'; }) &&
             llvm::isAlpha(word.front()) &&
             llvm::is_contained(IgnoreCategories, word))
      options.ignoreMetadataKeys.push_back(word.str());
    else if (word.consume_front("metadata:") && !word.empty())
      options.ignoreMetadataKeys.push_back(word.str());
    else
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "unknown --ignore category '%s'; expected one of: %s, or "
          "metadata:<key>",
          raw.str().c_str(),
          llvm::join(llvm::ArrayRef(IgnoreCategories), ", ").c_str());
  }
  return llvm::Error::success();
}

namespace {

//===----------------------------------------------------------------------===//
// Canonical encoding and hashing
//===----------------------------------------------------------------------===//

/// Bytes that identify a call; equal bytes mean equal structure.
class Canon {
public:
  void tag(char c) { bytes.push_back(c); }
  void u64(uint64_t v) {
    char buf[8];
    std::memcpy(buf, &v, 8);
    bytes.append(buf, 8);
  }
  void i64(int64_t v) { u64(static_cast<uint64_t>(v)); }
  void f64(double v) {
    if (v != v) // Every NaN is the same constant.
      return u64(0x7ff8000000000000ULL);
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    u64(bits);
  }
  void str(llvm::StringRef s) {
    u64(s.size());
    bytes.append(s.data(), s.size());
  }
  uint64_t hash() const { return llvm::xxh3_64bits(llvm::StringRef(bytes)); }

private:
  std::string bytes;
};

uint64_t combine(uint64_t a, uint64_t b, uint64_t c = 0) {
  Canon canon;
  canon.u64(a);
  canon.u64(b);
  canon.u64(c);
  return canon.hash();
}

/// How a value reference is encoded (a structural or a match id).
using RefId = llvm::function_ref<uint64_t(const Use *)>;
/// How a subgraph argument is encoded.
using GraphId = llvm::function_ref<uint64_t(const Graph *)>;

constexpr unsigned kMaxArgumentDepth = 128;

void encodeArgument(Canon &c, const Argument &a, RefId ref, GraphId graph,
                    unsigned depth = 0) {
  c.tag('A');
  c.u64(static_cast<uint64_t>(a.getKind()));
  if (depth > kMaxArgumentDepth)
    return c.tag('D');
  auto refs = [&](const std::vector<Use *> &list) {
    c.u64(list.size());
    for (const Use *u : list)
      c.u64(u ? ref(u) : 0);
  };
  auto sym = [&](const SymArg &s) {
    if (s.ref)
      return c.tag('r'), c.u64(ref(s.ref));
    c.tag('k');
    c.i64(s.intValue);
    c.f64(s.floatValue);
    c.u64(s.boolValue);
  };
  switch (a.getKind()) {
  case ArgKind::None:
    return;
  case ArgKind::Tensor:
  case ArgKind::Token:
  case ArgKind::OptionalTensor:
    c.u64(a.getRef() ? ref(a.getRef()) : 0);
    return;
  case ArgKind::Tensors:
  case ArgKind::OptionalTensors:
    refs(a.getRefs());
    return;
  case ArgKind::NestedTensors:
    c.u64(a.getNestedRefs().size());
    for (const auto &inner : a.getNestedRefs())
      refs(inner);
    return;
  case ArgKind::Int:
  case ArgKind::ScalarType:
  case ArgKind::MemoryFormat:
  case ArgKind::Layout:
    c.i64(a.getInt());
    return;
  case ArgKind::Ints:
    c.u64(a.getInts().size());
    for (int64_t v : a.getInts())
      c.i64(v);
    return;
  case ArgKind::Float:
    c.f64(a.getFloat());
    return;
  case ArgKind::Floats:
    c.u64(a.getFloats().size());
    for (double v : a.getFloats())
      c.f64(v);
    return;
  case ArgKind::String:
  case ArgKind::Operator:
    c.str(a.getString());
    return;
  case ArgKind::Strings:
    c.u64(a.getStrings().size());
    for (llvm::StringRef s : a.getStrings())
      c.str(s);
    return;
  case ArgKind::SymInt:
  case ArgKind::SymBool:
  case ArgKind::SymFloat:
    sym(a.getSym());
    return;
  case ArgKind::SymInts:
  case ArgKind::SymBools:
  case ArgKind::SymFloats:
    c.u64(a.getSymList().size());
    for (const SymArg &s : a.getSymList())
      sym(s);
    return;
  case ArgKind::Device:
    c.str(a.getDevice().type);
    c.i64(a.getDevice().index ? *a.getDevice().index : -1);
    return;
  case ArgKind::Bool:
    c.u64(a.getBool());
    return;
  case ArgKind::Bools:
    c.u64(a.getBools().size());
    for (bool b : a.getBools())
      c.u64(b);
    return;
  case ArgKind::Graph:
    c.u64(graph(a.getGraphArg().graph.get()));
    return;
  case ArgKind::CustomObj:
    c.u64(a.getCustomObj().ref ? ref(a.getCustomObj().ref) : 0);
    c.str(a.getCustomObj().classFqn);
    return;
  case ArgKind::Complex:
    c.f64(a.getComplex().real);
    c.f64(a.getComplex().imag);
    return;
  case ArgKind::IntLists:
    c.u64(a.getIntLists().size());
    for (const auto &inner : a.getIntLists()) {
      c.u64(inner.size());
      for (int64_t v : inner)
        c.i64(v);
    }
    return;
  case ArgKind::FloatLists:
    c.u64(a.getFloatLists().size());
    for (const auto &inner : a.getFloatLists()) {
      c.u64(inner.size());
      for (double v : inner)
        c.f64(v);
    }
    return;
  case ArgKind::StringToArgument:
    c.u64(a.getStringMap().size());
    for (const auto &entry : a.getStringMap()) {
      c.str(entry.first);
      encodeArgument(c, entry.second, ref, graph, depth + 1);
    }
    return;
  case ArgKind::Unknown:
    c.str(a.getUnknown().key);
    c.str(a.getUnknown().json);
    return;
  }
}

/// The shape of a node's outputs: kinds and list lengths, no names.
void encodeOutputShape(Canon &c, const Node &node) {
  c.u64(node.getOutputs().size());
  for (const Argument &out : node.getOutputs()) {
    c.u64(static_cast<uint64_t>(out.getKind()));
    if (out.getKind() == ArgKind::Tensors ||
        out.getKind() == ArgKind::OptionalTensors) {
      c.u64(out.getRefs().size());
      for (const Use *u : out.getRefs())
        c.u64(u != nullptr);
    }
  }
}

/// The call of a node: target, inputs (names, kinds, arguments), outputs'
/// shape.
uint64_t callHash(const Node &node, RefId ref, GraphId graph) {
  Canon c;
  c.str(node.getTarget());
  c.u64(node.getInputs().size());
  for (const NamedArgument &in : node.getInputs()) {
    c.str(in.name);
    c.i64(in.kind ? *in.kind : -1);
    encodeArgument(c, in.arg, ref, graph);
  }
  encodeOutputShape(c, node);
  return c.hash();
}

/// The key of graph input `index`: its role in the signature when there is
/// one (`parameter "w"`, the k-th user input), else its position.
std::vector<std::string> inputKeys(const Graph &g, const GraphSignature *sig) {
  std::vector<std::string> keys;
  size_t users = 0, tokens = 0;
  size_t count =
      std::max(g.getInputs().size(), sig ? sig->inputSpecs.size() : 0);
  for (size_t i = 0; i < count; ++i) {
    if (!sig || i >= sig->inputSpecs.size()) {
      keys.push_back("input " + std::to_string(i));
      continue;
    }
    const InputSpec &spec = sig->inputSpecs[i];
    switch (spec.kind) {
    case InputKind::UserInput:
      keys.push_back("user_input " + std::to_string(users++));
      break;
    case InputKind::Token:
      keys.push_back("token " + std::to_string(tokens++));
      break;
    case InputKind::Unknown:
      keys.push_back(spec.unknownKey + " " + std::to_string(i));
      break;
    default:
      keys.push_back(
          (inputKindMemberName(spec.kind) + " \"" + spec.target + "\"").str());
      break;
    }
  }
  return keys;
}

/// Structural ids of one graph's values and nodes.
struct GraphHashes {
  llvm::DenseMap<const Value *, uint64_t> valueId;
  llvm::DenseMap<const Node *, uint64_t> nodeId;
  uint64_t graphHash = 0;
};

//===----------------------------------------------------------------------===//
// The differ
//===----------------------------------------------------------------------===//

/// Largest left-over middle (A nodes x B nodes) aligned by a longest common
/// subsequence; bigger middles keep only their common prefix and suffix.
constexpr size_t kMaxAlignCells = size_t(1) << 22;

/// Pairs nodes that neither structure nor names matched, by position: the
/// unmatched nodes of each side in program order are aligned on equal
/// calls' shape (target, input and output counts) — their common prefix,
/// common suffix, and a longest common subsequence of the middle when it is
/// small. This catches nodes whose input changed *and* whose name changed,
/// such as everything after an inserted node in a renamed program.
void alignLeftovers(const Graph &ga, const Graph &gb,
                    const llvm::DenseMap<const Node *, const Node *> &aToB,
                    const llvm::DenseMap<const Node *, const Node *> &bToA,
                    llvm::function_ref<void(const Node *, const Node *)> pair) {
  std::vector<const Node *> restA, restB;
  for (const Node &na : ga.getNodes())
    if (!aToB.count(&na))
      restA.push_back(&na);
  for (const Node &nb : gb.getNodes())
    if (!bToA.count(&nb))
      restB.push_back(&nb);
  auto sameShape = [](const Node *x, const Node *y) {
    return x->getTarget() == y->getTarget() &&
           x->getInputs().size() == y->getInputs().size() &&
           x->getOutputs().size() == y->getOutputs().size();
  };
  size_t lo = 0;
  while (lo < restA.size() && lo < restB.size() &&
         sameShape(restA[lo], restB[lo]))
    ++lo;
  size_t hiA = restA.size(), hiB = restB.size();
  while (hiA > lo && hiB > lo && sameShape(restA[hiA - 1], restB[hiB - 1]))
    --hiA, --hiB;
  std::vector<std::pair<const Node *, const Node *>> pairs;
  for (size_t i = 0; i < lo; ++i)
    pairs.emplace_back(restA[i], restB[i]);
  for (size_t i = 0; hiA + i < restA.size(); ++i)
    pairs.emplace_back(restA[hiA + i], restB[hiB + i]);
  size_t n = hiA - lo, m = hiB - lo;
  if (n && m && (n + 1) * (m + 1) <= kMaxAlignCells) {
    // lcs[i][j]: LCS length of restA[lo+i..hiA) and restB[lo+j..hiB).
    std::vector<uint32_t> lcs((n + 1) * (m + 1), 0);
    auto at = [&](size_t i, size_t j) -> uint32_t & {
      return lcs[i * (m + 1) + j];
    };
    for (size_t i = n; i-- > 0;)
      for (size_t j = m; j-- > 0;)
        at(i, j) = sameShape(restA[lo + i], restB[lo + j])
                       ? at(i + 1, j + 1) + 1
                       : std::max(at(i + 1, j), at(i, j + 1));
    for (size_t i = 0, j = 0; i < n && j < m;) {
      if (sameShape(restA[lo + i], restB[lo + j]) &&
          at(i, j) == at(i + 1, j + 1) + 1) {
        pairs.emplace_back(restA[lo + i], restB[lo + j]);
        ++i, ++j;
      } else if (at(i + 1, j) >= at(i, j + 1)) {
        ++i;
      } else {
        ++j;
      }
    }
  }
  for (auto &[na, nb] : pairs)
    pair(na, nb);
}

class Differ {
public:
  Differ(const ExportedProgram &a, const ExportedProgram &b,
         const DiffOptions &options)
      : a(a), b(b), options(options) {}
  ProgramDiff run();

private:
  const GraphHashes &hashesOf(const Graph &g, const GraphSignature *sig,
                              unsigned depth);
  void diffGraph(const Graph &ga, const Graph &gb, const GraphSignature *sigA,
                 const GraphSignature *sigB, const std::string &path,
                 unsigned depth, std::vector<NodeChange> &out);
  void compareSignature();
  void compareRangeConstraints();
  void compareProgramFields();
  bool metadataIgnored(llvm::StringRef key) const;
  std::string typeText(const Value &v) const;
  void noteProgress();

  const ExportedProgram &a, &b;
  const DiffOptions &options;
  ProgramDiff diff;
  std::map<const Graph *, std::unique_ptr<GraphHashes>> hashCache;
  /// Values known to correspond; both sides map to the same class id.
  llvm::DenseMap<const Value *, uint64_t> classOf;
  uint64_t processed = 0, total = 0;
};

void Differ::noteProgress() {
  if (options.onProgress && (++processed & 4095) == 0)
    options.onProgress(processed, total);
}

const GraphHashes &Differ::hashesOf(const Graph &g, const GraphSignature *sig,
                                    unsigned depth) {
  auto &slot = hashCache[&g];
  if (slot)
    return *slot;
  auto hashes = std::make_unique<GraphHashes>();
  std::vector<std::string> keys = inputKeys(g, sig);
  for (size_t i = 0; i < g.getInputs().size(); ++i) {
    uint64_t slotIndex = 0;
    g.getInputs()[i].forEachUse([&](Use *u) {
      if (u->get())
        hashes->valueId[u->get()] =
            combine(llvm::xxh3_64bits(keys[i]), slotIndex++);
    });
  }
  auto ref = [&](const Use *u) -> uint64_t {
    auto it = u->get() ? hashes->valueId.find(u->get()) : hashes->valueId.end();
    if (it != hashes->valueId.end())
      return it->second;
    return llvm::xxh3_64bits(u->getName()); // Unresolved: by name.
  };
  auto graph = [&](const Graph *sub) -> uint64_t {
    if (!sub)
      return 0;
    if (depth + 1 > options.maxSubgraphDepth)
      return 1;
    return hashesOf(*sub, nullptr, depth + 1).graphHash;
  };
  llvm::DenseMap<uint64_t, uint64_t> occurrences;
  Canon whole;
  whole.u64(g.getInputs().size());
  for (const Node &node : g.getNodes()) {
    noteProgress();
    uint64_t call = callHash(node, ref, graph);
    uint64_t id = combine(call, occurrences[call]++);
    hashes->nodeId[&node] = id;
    whole.u64(id);
    uint64_t outIndex = 0;
    for (const Argument &out : node.getOutputs()) {
      uint64_t slotIndex = 0;
      out.forEachUse([&](Use *u) {
        if (u->get())
          hashes->valueId[u->get()] = combine(id, outIndex, slotIndex);
        ++slotIndex;
      });
      ++outIndex;
    }
  }
  for (const Argument &out : g.getOutputs())
    encodeArgument(whole, out, ref, graph);
  hashes->graphHash = whole.hash();
  slot = std::move(hashes);
  return *slot;
}

bool Differ::metadataIgnored(llvm::StringRef key) const {
  return options.ignoreMetadata ||
         llvm::is_contained(options.ignoreMetadataKeys, key);
}

std::string Differ::typeText(const Value &v) const {
  std::string text = describeValueType(v);
  if (const TensorMeta *m = v.getTensorMeta()) {
    std::string strides;
    for (const SymValue &s : m->strides)
      strides +=
          (strides.empty() ? "" : ", ") +
          (s.isExpr() ? s.expr.exprStr.str() : std::to_string(s.intValue));
    text += " strides [" + strides + "]";
    if (m->requiresGrad)
      text += " requires_grad";
  }
  return text;
}

std::string nodeText(const Node &node) {
  std::string out;
  llvm::raw_string_ostream os(out);
  printNode(os, node);
  return out;
}

std::string argumentText(const Argument &arg) {
  std::string out;
  llvm::raw_string_ostream os(out);
  printArgument(os, arg);
  return out;
}

/// How a stored ArgumentKind reads in a detail line.
std::string passingText(std::optional<int64_t> kind) {
  if (!kind)
    return "(unset)";
  if (*kind == 1)
    return "positionally";
  if (*kind == 2)
    return "by keyword";
  return "(kind " + std::to_string(*kind) + ")";
}

/// A one-line, bounded rendering of a metadata value.
std::string shortValue(llvm::StringRef s) {
  std::string out;
  for (char c : s) {
    if (out.size() >= 60) {
      out += "...";
      break;
    }
    if (c == '\n')
      out += "\\n";
    else if (static_cast<unsigned char>(c) >= 0x20)
      out.push_back(c);
  }
  return "\"" + out + "\"";
}

void Differ::diffGraph(const Graph &ga, const Graph &gb,
                       const GraphSignature *sigA, const GraphSignature *sigB,
                       const std::string &path, unsigned depth,
                       std::vector<NodeChange> &out) {
  const GraphHashes &ha = hashesOf(ga, sigA, depth);
  const GraphHashes &hb = hashesOf(gb, sigB, depth);

  // Graph inputs with equal keys correspond.
  for (const auto &[value, id] : ha.valueId)
    if (value->isGraphInput())
      classOf[value] = id;
  for (const auto &[value, id] : hb.valueId)
    if (value->isGraphInput())
      classOf[value] = id;

  llvm::DenseMap<const Node *, const Node *> aToB, bToA;
  auto pair = [&](const Node *na, const Node *nb) {
    aToB[na] = nb;
    bToA[nb] = na;
    std::vector<Value *> ra = na->getResults(), rb = nb->getResults();
    uint64_t base = ha.nodeId.lookup(na);
    for (size_t i = 0; i < std::min(ra.size(), rb.size()); ++i)
      classOf[ra[i]] = classOf[rb[i]] = combine(base, 0x5eed, i);
  };

  // Phase 1: equal structural ids.
  llvm::DenseMap<uint64_t, const Node *> byIdB;
  for (const Node &nb : gb.getNodes())
    byIdB[hb.nodeId.lookup(&nb)] = &nb;
  for (const Node &na : ga.getNodes()) {
    auto it = byIdB.find(ha.nodeId.lookup(&na));
    if (it != byIdB.end() && !bToA.count(it->second))
      pair(&na, it->second);
  }

  // Phase 2: the same call over matched inputs, propagated along uses.
  // Subgraphs count by shape only here, so a higher-order op whose body
  // changed still pairs up and has its body compared.
  auto shapeOfGraph = [](const Graph *sub) -> uint64_t {
    return sub ? combine(sub->getInputs().size(), sub->getOutputs().size()) : 0;
  };
  struct Pending {
    std::deque<const Node *> a, b;
  };
  std::map<uint64_t, Pending> pending;
  llvm::DenseSet<const Node *> ready;
  std::vector<const Node *> work;
  auto tryReady = [&](const Node *node, bool sideA) {
    if ((sideA ? aToB.count(node) : bToA.count(node)) || ready.count(node))
      return;
    bool allClassed = true;
    node->forEachOperand(
        [&](Use *u) { allClassed &= u->get() && classOf.count(u->get()); });
    if (!allClassed)
      return;
    ready.insert(node);
    uint64_t key = callHash(
        *node, [&](const Use *u) { return classOf.lookup(u->get()); },
        shapeOfGraph);
    Pending &p = pending[key];
    std::deque<const Node *> &mine = sideA ? p.a : p.b;
    std::deque<const Node *> &theirs = sideA ? p.b : p.a;
    while (!theirs.empty()) {
      const Node *other = theirs.front();
      theirs.pop_front();
      if (sideA ? bToA.count(other) : aToB.count(other))
        continue;
      sideA ? pair(node, other) : pair(other, node);
      work.push_back(node);
      work.push_back(other);
      return;
    }
    mine.push_back(node);
  };
  auto drain = [&]() {
    while (!work.empty()) {
      const Node *node = work.back();
      work.pop_back();
      bool sideA = node->getGraph() == &ga;
      for (Value *v : node->getResults())
        for (Use *u : v->uses())
          if (Node *user = u->getUser())
            tryReady(user, sideA);
    }
  };
  for (const Node &na : ga.getNodes())
    tryReady(&na, true);
  for (const Node &nb : gb.getNodes())
    tryReady(&nb, false);
  drain();
  // Then equal names, and whatever that enables.
  if (!options.ignoreNames) {
    llvm::StringMap<const Node *> byNameB;
    for (const Node &nb : gb.getNodes())
      if (!bToA.count(&nb))
        byNameB[nb.getName()] = &nb;
    for (const Node &na : ga.getNodes()) {
      if (aToB.count(&na))
        continue;
      auto it = byNameB.find(na.getName());
      if (it == byNameB.end() || bToA.count(it->second))
        continue;
      pair(&na, it->second);
      work.push_back(&na);
      work.push_back(it->second);
    }
    drain();
  }
  alignLeftovers(ga, gb, aToB, bToA, pair);
  // Pairs made by position enable exact matches after them.
  for (const Node &na : ga.getNodes())
    if (aToB.count(&na))
      work.push_back(&na);
  for (const Node &nb : gb.getNodes())
    if (bToA.count(&nb))
      work.push_back(&nb);
  drain();

  // Compare the pairs and interleave removed/added nodes in B's order.
  auto refClass = [&](const Use *u) -> uint64_t {
    if (u->get()) {
      auto it = classOf.find(u->get());
      if (it != classOf.end())
        return it->second;
      return combine(reinterpret_cast<uintptr_t>(u->get()), 0xdead);
    }
    return llvm::xxh3_64bits(u->getName());
  };
  auto sameArgument = [&](const Argument &x, const Argument &y) {
    Canon cx, cy;
    encodeArgument(cx, x, refClass, shapeOfGraph);
    encodeArgument(cy, y, refClass, shapeOfGraph);
    return cx.hash() == cy.hash();
  };
  auto removedChange = [&](const Node &na) {
    NodeChange c;
    c.kind = NodeChangeKind::Removed;
    c.graphPath = path;
    c.nameA = na.getName().str();
    c.textA = nodeText(na);
    ++diff.summary.removed;
    out.push_back(std::move(c));
  };
  auto comparePair = [&](const Node &na, const Node &nb) {
    NodeChange c;
    c.graphPath = path;
    c.nameA = na.getName().str();
    c.nameB = nb.getName().str();
    c.textA = nodeText(na);
    c.textB = nodeText(nb);
    std::vector<Value *> ra = na.getResults(), rb = nb.getResults();
    if (!options.ignoreNames) {
      c.renamed = na.getName() != nb.getName() || ra.size() != rb.size();
      for (size_t i = 0; i < std::min(ra.size(), rb.size()); ++i)
        c.renamed |= ra[i]->getName() != rb[i]->getName();
    }
    auto detail = [&](std::string text) {
      c.details.push_back(std::move(text));
    };
    if (na.getTarget() != nb.getTarget())
      detail(("target: " + shortTarget(na.getTarget()) + " -> " +
              shortTarget(nb.getTarget()))
                 .str());
    const auto &ia = na.getInputs(), &ib = nb.getInputs();
    std::vector<NodeChange> subChanges;
    for (size_t i = 0; i < std::max(ia.size(), ib.size()); ++i) {
      if (i >= ia.size()) {
        detail("input '" + ib[i].name.str() +
               "' added: " + argumentText(ib[i].arg));
        continue;
      }
      if (i >= ib.size()) {
        detail("input '" + ia[i].name.str() +
               "' removed: " + argumentText(ia[i].arg));
        continue;
      }
      std::string label = ia[i].name.empty()
                              ? "input " + std::to_string(i)
                              : "input '" + ia[i].name.str() + "'";
      if (ia[i].name != ib[i].name)
        detail(label + " renamed to '" + ib[i].name.str() + "'");
      if (ia[i].kind != ib[i].kind)
        detail(label + " passed " + passingText(ia[i].kind) + " -> " +
               passingText(ib[i].kind));
      const Argument &xa = ia[i].arg, &xb = ib[i].arg;
      if (xa.getKind() == ArgKind::Graph && xb.getKind() == ArgKind::Graph) {
        const Graph *sa = xa.getGraphArg().graph.get(),
                    *sb = xb.getGraphArg().graph.get();
        if (!sa || !sb)
          continue;
        if (depth + 1 > options.maxSubgraphDepth) {
          detail(label + ": subgraph not compared (nesting deeper than " +
                 std::to_string(options.maxSubgraphDepth) + ")");
          continue;
        }
        if (!options.ignoreNames &&
            xa.getGraphArg().name != xb.getGraphArg().name)
          c.renamed = true;
        size_t before = subChanges.size();
        size_t inputsBefore = diff.graphInputs.size();
        size_t outputsBefore = diff.graphOutputs.size();
        diffGraph(*sa, *sb, nullptr, nullptr,
                  path + "/" + nb.getName().str() + "." +
                      xb.getGraphArg().name.str(),
                  depth + 1, subChanges);
        // Renames inside the body make this node renamed, not changed.
        bool bodyChanged = diff.graphOutputs.size() != outputsBefore;
        for (size_t k = inputsBefore; k < diff.graphInputs.size(); ++k) {
          bool renameOnly = diff.graphInputs[k].change == "renamed";
          bodyChanged |= !renameOnly;
          c.renamed |= renameOnly;
        }
        for (size_t k = before; k < subChanges.size(); ++k) {
          bodyChanged |= subChanges[k].contentChanged ||
                         subChanges[k].kind != NodeChangeKind::Changed;
          c.renamed |= subChanges[k].renamed;
        }
        if (bodyChanged)
          detail(label + ": subgraph @" + xb.getGraphArg().name.str() +
                 " changed");
        continue;
      }
      if (!sameArgument(xa, xb))
        detail(label + ": " + argumentText(xa) + " -> " + argumentText(xb));
    }
    if (na.getOutputs().size() != nb.getOutputs().size()) {
      detail("outputs: " + std::to_string(na.getOutputs().size()) + " -> " +
             std::to_string(nb.getOutputs().size()));
    } else if (!options.ignoreTypes) {
      for (size_t i = 0; i < std::min(ra.size(), rb.size()); ++i) {
        std::string ta = typeText(*ra[i]), tb = typeText(*rb[i]);
        if (ta == tb)
          continue;
        // Show the short form unless only strides or requires_grad differ.
        std::string sa = describeValueType(*ra[i]),
                    sb = describeValueType(*rb[i]);
        if (sa != sb)
          ta = sa, tb = sb;
        detail("output %" + rb[i]->getName().str() + " type: " + ta + " -> " +
               tb);
      }
    }
    // Metadata, key by key, in A's order then B's new keys.
    const StringPairs &ma = na.getMetadata(), &mb = nb.getMetadata();
    for (const auto &[key, value] : ma) {
      if (metadataIgnored(key))
        continue;
      auto other = lookupMetadata(mb, key);
      if (!other)
        detail(("metadata '" + key + "' removed").str());
      else if (*other != value)
        detail(("metadata '" + key + "': ").str() + shortValue(value) + " -> " +
               shortValue(*other));
    }
    for (const auto &[key, value] : mb)
      if (!metadataIgnored(key) && !lookupMetadata(ma, key))
        detail(("metadata '" + key + "' added: ").str() + shortValue(value));
    if (na.getIsHopSingleTensorReturn() != nb.getIsHopSingleTensorReturn())
      detail("is_hop_single_tensor_return changed");

    c.contentChanged = !c.details.empty();
    if (c.contentChanged)
      ++diff.summary.changed;
    else if (c.renamed)
      ++diff.summary.renamed;
    else
      ++diff.summary.unchanged;
    if (c.contentChanged || c.renamed)
      out.push_back(std::move(c));
    for (NodeChange &sub : subChanges)
      out.push_back(std::move(sub));
  };

  llvm::DenseMap<const Node *, size_t> indexA;
  std::vector<const Node *> orderA;
  for (const Node &na : ga.getNodes()) {
    indexA[&na] = orderA.size();
    orderA.push_back(&na);
  }
  // For each B node, the A index of the next matched B node's partner:
  // removals in a gap print before the additions in it.
  std::vector<const Node *> orderB;
  for (const Node &nb : gb.getNodes())
    orderB.push_back(&nb);
  std::vector<size_t> nextPartner(orderB.size() + 1, orderA.size());
  for (size_t k = orderB.size(); k-- > 0;) {
    auto it = bToA.find(orderB[k]);
    nextPartner[k] = it == bToA.end() ? nextPartner[k + 1] : indexA[it->second];
  }
  size_t nextA = 0;
  for (size_t k = 0; k < orderB.size(); ++k) {
    const Node &nb = *orderB[k];
    auto it = bToA.find(&nb);
    if (it == bToA.end()) {
      for (; nextA < nextPartner[k]; ++nextA)
        if (!aToB.count(orderA[nextA]))
          removedChange(*orderA[nextA]);
      NodeChange c;
      c.kind = NodeChangeKind::Added;
      c.graphPath = path;
      c.nameB = nb.getName().str();
      c.textB = nodeText(nb);
      ++diff.summary.added;
      out.push_back(std::move(c));
      continue;
    }
    size_t target = indexA[it->second];
    for (; nextA < target; ++nextA)
      if (!aToB.count(orderA[nextA]))
        removedChange(*orderA[nextA]);
    nextA = std::max(nextA, target + 1);
    comparePair(*it->second, nb);
  }
  for (; nextA < orderA.size(); ++nextA)
    if (!aToB.count(orderA[nextA]))
      removedChange(*orderA[nextA]);
  // A matched node that came before `nextA` was skipped while a later pair
  // moved the cursor: nothing is lost, since only unmatched ones print.

  // Subgraph inputs, by position (the signature covers the top level).
  if (!sigA || !sigB) {
    const auto &ia = ga.getInputs(), &ib = gb.getInputs();
    for (size_t i = 0; i < std::max(ia.size(), ib.size()); ++i) {
      std::string what = path + " input " + std::to_string(i);
      if (i >= ia.size()) {
        diff.graphInputs.push_back({"added", what, "", argumentText(ib[i])});
        continue;
      }
      if (i >= ib.size()) {
        diff.graphInputs.push_back({"removed", what, argumentText(ia[i]), ""});
        continue;
      }
      const Value *va = ia[i].getSingleValue(), *vb = ib[i].getSingleValue();
      bool differs = ia[i].getKind() != ib[i].getKind();
      if (!options.ignoreTypes && va && vb)
        differs |= typeText(*va) != typeText(*vb);
      if (!va || !vb)
        differs |= argumentText(ia[i]) != argumentText(ib[i]); // Constants.
      bool renamed =
          !options.ignoreNames && va && vb && va->getName() != vb->getName();
      if (!differs && !renamed)
        continue;
      std::string before = argumentText(ia[i]), after = argumentText(ib[i]);
      if (va && vb) {
        before += " : " + describeValueType(*va);
        after += " : " + describeValueType(*vb);
      }
      diff.graphInputs.push_back(
          {differs ? "changed" : "renamed", what, before, after});
    }
  }

  // Graph outputs, by position.
  const auto &oa = ga.getOutputs(), &ob = gb.getOutputs();
  for (size_t i = 0; i < std::max(oa.size(), ob.size()); ++i) {
    std::string what = path + " output " + std::to_string(i);
    if (i >= oa.size())
      diff.graphOutputs.push_back({"added", what, "", argumentText(ob[i])});
    else if (i >= ob.size())
      diff.graphOutputs.push_back({"removed", what, argumentText(oa[i]), ""});
    else if (!sameArgument(oa[i], ob[i]))
      diff.graphOutputs.push_back(
          {"changed", what, argumentText(oa[i]), argumentText(ob[i])});
  }
}

std::string specText(const InputSpec &spec, const Graph &g, size_t index,
                     bool withType,
                     const std::function<std::string(const Value &)> &type) {
  std::string text;
  if (spec.kind == InputKind::Unknown)
    return "<" + spec.unknownKey + ">";
  if (spec.kind == InputKind::ConstantInput)
    text = spec.target.str() + " = " + argumentText(spec.arg);
  else
    text = argumentText(spec.arg);
  text += " : " + inputKindMemberName(spec.kind).str();
  if (!spec.target.empty() && spec.kind != InputKind::ConstantInput)
    text += " \"" + spec.target.str() + "\"";
  if (spec.kind == InputKind::Buffer && !spec.persistent)
    text += " non_persistent";
  const Value *v = index < g.getInputs().size()
                       ? g.getInputs()[index].getSingleValue()
                       : nullptr;
  if (withType && v)
    text += " " + type(*v);
  return text;
}

void Differ::compareSignature() {
  if (options.ignoreSignature)
    return;
  const GraphSignature &sa = a.graphModule.signature,
                       &sb = b.graphModule.signature;
  const Graph &ga = a.getGraph(), &gb = b.getGraph();
  std::vector<std::string> keysA = inputKeys(ga, &sa),
                           keysB = inputKeys(gb, &sb);
  llvm::StringMap<size_t> positionB;
  for (size_t i = 0; i < sb.inputSpecs.size(); ++i)
    positionB[keysB[i]] = i;
  auto type = [](const Value &v) { return describeValueType(v); };
  auto fullType = [&](const Value &v) { return typeText(v); };
  llvm::StringSet<> seen;
  for (size_t i = 0; i < sa.inputSpecs.size(); ++i) {
    std::string what = "input " + keysA[i];
    auto it = positionB.find(keysA[i]);
    std::string before =
        specText(sa.inputSpecs[i], ga, i, !options.ignoreTypes, type);
    if (it == positionB.end()) {
      diff.signature.push_back({"removed", what, before, ""});
      continue;
    }
    seen.insert(keysA[i]);
    size_t j = it->second;
    const InputSpec &x = sa.inputSpecs[i], &y = sb.inputSpecs[j];
    std::string after = specText(y, gb, j, !options.ignoreTypes, type);
    bool differs = x.persistent != y.persistent ||
                   (x.kind == InputKind::ConstantInput &&
                    argumentText(x.arg) != argumentText(y.arg)) ||
                   x.arg.getKind() != y.arg.getKind();
    if (!options.ignoreNames)
      differs |= x.getArgName() != y.getArgName();
    if (!options.ignoreTypes) {
      const Value *va = i < ga.getInputs().size()
                            ? ga.getInputs()[i].getSingleValue()
                            : nullptr;
      const Value *vb = j < gb.getInputs().size()
                            ? gb.getInputs()[j].getSingleValue()
                            : nullptr;
      if (va && vb)
        differs |= typeText(*va) != typeText(*vb);
    }
    if (i != j) {
      differs = true;
      what +=
          " (position " + std::to_string(i) + " -> " + std::to_string(j) + ")";
    }
    if (differs && before == after) {
      // Only strides or requires_grad differ: show them.
      before = specText(x, ga, i, true, fullType);
      after = specText(y, gb, j, true, fullType);
    }
    if (differs)
      diff.signature.push_back({"changed", what, before, after});
  }
  for (size_t j = 0; j < sb.inputSpecs.size(); ++j)
    if (!seen.contains(keysB[j]))
      diff.signature.push_back(
          {"added", "input " + keysB[j], "",
           specText(sb.inputSpecs[j], gb, j, !options.ignoreTypes, type)});

  auto outputText = [&](const OutputSpec &spec) {
    if (spec.kind == OutputKind::Unknown)
      return "<" + spec.unknownKey + ">";
    std::string text =
        argumentText(spec.arg) + " : " + outputKindMemberName(spec.kind).str();
    if (!spec.target.empty())
      text += " \"" + spec.target.str() + "\"";
    return text;
  };
  // An output names a value: compare through the matching, so renames alone
  // are not signature changes.
  auto outputClass = [&](const OutputSpec &spec,
                         const Graph &g) -> std::string {
    const Value *v =
        spec.getArgName().empty() ? nullptr : g.lookupValue(spec.getArgName());
    auto it = v ? classOf.find(v) : classOf.end();
    if (it != classOf.end())
      return std::to_string(it->second);
    return options.ignoreNames && v ? "?" : argumentText(spec.arg);
  };
  for (size_t i = 0; i < std::max(sa.outputSpecs.size(), sb.outputSpecs.size());
       ++i) {
    std::string what = "output " + std::to_string(i);
    if (i >= sa.outputSpecs.size()) {
      diff.signature.push_back(
          {"added", what, "", outputText(sb.outputSpecs[i])});
      continue;
    }
    if (i >= sb.outputSpecs.size()) {
      diff.signature.push_back(
          {"removed", what, outputText(sa.outputSpecs[i]), ""});
      continue;
    }
    const OutputSpec &x = sa.outputSpecs[i], &y = sb.outputSpecs[i];
    bool differs = x.kind != y.kind || x.target != y.target ||
                   x.unknownKey != y.unknownKey ||
                   outputClass(x, ga) != outputClass(y, gb);
    if (!options.ignoreNames)
      differs |= x.getArgName() != y.getArgName();
    if (differs)
      diff.signature.push_back({"changed", what, outputText(x), outputText(y)});
  }
}

std::string rangeText(const RangeConstraint &r) {
  return "[" + (r.minVal ? std::to_string(*r.minVal) : std::string("-inf")) +
         ", " + (r.maxVal ? std::to_string(*r.maxVal) : std::string("inf")) +
         "]";
}

void Differ::compareRangeConstraints() {
  if (options.ignoreRangeConstraints)
    return;
  llvm::StringSet<> inA;
  for (const auto &[symbol, range] : a.rangeConstraints) {
    inA.insert(symbol);
    const RangeConstraint *other = b.findRangeConstraint(symbol);
    if (!other)
      diff.rangeConstraints.push_back(
          {"removed", symbol.str(), rangeText(range), ""});
    else if (other->minVal != range.minVal || other->maxVal != range.maxVal)
      diff.rangeConstraints.push_back(
          {"changed", symbol.str(), rangeText(range), rangeText(*other)});
  }
  for (const auto &[symbol, range] : b.rangeConstraints)
    if (!inA.contains(symbol))
      diff.rangeConstraints.push_back(
          {"added", symbol.str(), "", rangeText(range)});
}

void Differ::compareProgramFields() {
  auto field = [&](const std::string &what, const std::string &x,
                   const std::string &y) {
    if (x != y)
      diff.programFields.push_back({"changed", what, x, y});
  };
  auto joined = [](const auto &items, auto fn) {
    std::string out = "[";
    for (const auto &item : items)
      out += (out.size() > 1 ? ", " : "") + fn(item);
    return out + "]";
  };
  if (!options.ignoreVersions) {
    field("schema_version",
          std::to_string(a.schemaVersion.major) + "." +
              std::to_string(a.schemaVersion.minor),
          std::to_string(b.schemaVersion.major) + "." +
              std::to_string(b.schemaVersion.minor));
    field("torch_version", a.torchVersion, b.torchVersion);
    auto opset = [](const auto &kv) {
      return kv.first.str() + "=" + std::to_string(kv.second);
    };
    field("opset_version", joined(a.opsetVersion, opset),
          joined(b.opsetVersion, opset));
    auto name = [](llvm::StringRef s) { return s.str(); };
    field("verifiers", joined(a.verifiers, name), joined(b.verifiers, name));
  }
  if (!options.ignoreMetadata) {
    auto kv = [](const auto &p) { return (p.first + "=" + p.second).str(); };
    field("graph_module.metadata", joined(a.graphModule.metadata, kv),
          joined(b.graphModule.metadata, kv));
  }
  auto text = [](const std::string &s) { return s; };
  field("guards_code", joined(a.guardsCode, text), joined(b.guardsCode, text));
  auto entry = [](const ModuleCallEntry &e) {
    std::string out = e.fqn.str().empty() ? "<root>" : e.fqn.str();
    if (e.signature)
      out += "(" + e.signature->inSpec + " -> " + e.signature->outSpec + ")";
    return out;
  };
  std::string mcgA = joined(a.graphModule.moduleCallGraph, entry);
  std::string mcgB = joined(b.graphModule.moduleCallGraph, entry);
  if (mcgA != mcgB)
    diff.programFields.push_back(
        {"changed", "module_call_graph",
         std::to_string(a.graphModule.moduleCallGraph.size()) + " entries",
         std::to_string(b.graphModule.moduleCallGraph.size()) + " entries"});
}

ProgramDiff Differ::run() {
  total = a.getGraph().size() + b.getGraph().size();
  diffGraph(a.getGraph(), b.getGraph(), &a.graphModule.signature,
            &b.graphModule.signature, "graph", 0, diff.nodes);
  compareSignature();
  compareRangeConstraints();
  compareProgramFields();
  if (options.onProgress)
    options.onProgress(total, total);
  return std::move(diff);
}

const char *changeMark(const std::string &change) {
  return change == "added"     ? "+"
         : change == "removed" ? "-"
         : change == "renamed" ? "="
                               : "~";
}

void printFieldChanges(llvm::raw_ostream &os, llvm::StringRef title,
                       const std::vector<FieldChange> &changes) {
  if (changes.empty())
    return;
  os << title << ":\n";
  for (const FieldChange &c : changes) {
    os << "  " << changeMark(c.change) << " " << c.what << ": ";
    if (c.change == "added")
      os << c.after;
    else if (c.change == "removed")
      os << c.before;
    else
      os << c.before << " -> " << c.after;
    os << "\n";
  }
}

llvm::json::Array fieldChangesJson(const std::vector<FieldChange> &changes) {
  llvm::json::Array out;
  for (const FieldChange &c : changes) {
    llvm::json::Object o{{"change", c.change}, {"what", c.what}};
    o["before"] = c.change == "added" ? llvm::json::Value(nullptr)
                                      : llvm::json::Value(c.before);
    o["after"] = c.change == "removed" ? llvm::json::Value(nullptr)
                                       : llvm::json::Value(c.after);
    out.push_back(std::move(o));
  }
  return out;
}

} // namespace

ProgramDiff diffPrograms(const ExportedProgram &a, const ExportedProgram &b,
                         const DiffOptions &options) {
  return Differ(a, b, options).run();
}

void printDiffText(llvm::raw_ostream &os, const ProgramDiff &diff) {
  printFieldChanges(os, "signature", diff.signature);
  printFieldChanges(os, "range_constraints", diff.rangeConstraints);
  std::string currentPath;
  for (const NodeChange &c : diff.nodes) {
    if (c.graphPath != currentPath) {
      currentPath = c.graphPath;
      os << currentPath << ":\n";
    }
    switch (c.kind) {
    case NodeChangeKind::Removed:
      os << "  - " << c.textA << "\n";
      break;
    case NodeChangeKind::Added:
      os << "  + " << c.textB << "\n";
      break;
    case NodeChangeKind::Changed:
      if (!c.contentChanged) {
        if (c.nameA == c.nameB)
          os << "  = " << c.nameA << " (values renamed)\n";
        else
          os << "  = " << c.nameA << " -> " << c.nameB << " (renamed)\n";
        break;
      }
      os << "  ~ " << c.textB;
      if (c.renamed)
        os << "  (renamed from " << c.nameA << ")";
      os << "\n";
      for (const std::string &d : c.details)
        os << "      " << d << "\n";
      break;
    }
  }
  printFieldChanges(os, "subgraph inputs", diff.graphInputs);
  printFieldChanges(os, "outputs", diff.graphOutputs);
  printFieldChanges(os, "program", diff.programFields);
  const DiffSummary &s = diff.summary;
  os << (diff.isEqual() ? "equal: " : "different: ") << s.added << " added, "
     << s.removed << " removed, " << s.changed << " changed, " << s.renamed
     << " renamed, " << s.unchanged << " unchanged nodes; "
     << diff.signature.size() << " signature, " << diff.rangeConstraints.size()
     << " range constraint, "
     << diff.graphInputs.size() + diff.graphOutputs.size()
     << " graph input/output, " << diff.programFields.size()
     << " program field changes\n";
}

llvm::json::Value diffToJson(const ProgramDiff &diff) {
  llvm::json::Array nodes;
  for (const NodeChange &c : diff.nodes) {
    const char *kind = c.kind == NodeChangeKind::Added     ? "added"
                       : c.kind == NodeChangeKind::Removed ? "removed"
                       : c.contentChanged                  ? "changed"
                                                           : "renamed";
    llvm::json::Object o{{"change", kind}, {"graph", c.graphPath}};
    o["a"] = c.nameA.empty() ? llvm::json::Value(nullptr)
                             : llvm::json::Value(c.nameA);
    o["b"] = c.nameB.empty() ? llvm::json::Value(nullptr)
                             : llvm::json::Value(c.nameB);
    o["text_a"] = c.textA.empty() ? llvm::json::Value(nullptr)
                                  : llvm::json::Value(c.textA);
    o["text_b"] = c.textB.empty() ? llvm::json::Value(nullptr)
                                  : llvm::json::Value(c.textB);
    o["renamed"] = c.renamed;
    o["details"] = llvm::json::Array(c.details);
    nodes.push_back(std::move(o));
  }
  const DiffSummary &s = diff.summary;
  return llvm::json::Object{
      {"equal", diff.isEqual()},
      {"summary", llvm::json::Object{{"added", s.added},
                                     {"removed", s.removed},
                                     {"changed", s.changed},
                                     {"renamed", s.renamed},
                                     {"unchanged", s.unchanged}}},
      {"nodes", std::move(nodes)},
      {"graph_inputs", fieldChangesJson(diff.graphInputs)},
      {"graph_outputs", fieldChangesJson(diff.graphOutputs)},
      {"signature", fieldChangesJson(diff.signature)},
      {"range_constraints", fieldChangesJson(diff.rangeConstraints)},
      {"program", fieldChangesJson(diff.programFields)}};
}

} // namespace pt2ir
