//===- StructureChecks.cpp - Definitions, uses, names and value tables ----===//
//
// Checks every graph of the program (subgraphs included) for:
//  - undefined-value, use-before-def, foreign-value: each operand names a
//    live value of the same graph, defined by a graph input or an earlier
//    node (graphs built or rewritten through the API can break this even
//    though the reader refuses undefined names);
//  - value-kind-mismatch: an operand slot's member (as_tensor, as_sym_int,
//    ...) agrees with the kind of value it names;
//  - custom-obj-class: an as_custom_obj slot (a use or a definition) names
//    the class its value's custom_obj_values entry gives;
//  - duplicate-definition, invalid-name, duplicate-node-name: value and node
//    names are unique Python identifiers;
//  - call-target: no call_module / call_method style targets;
//  - missing-value-meta, value-meta-mismatch, orphan-value-meta: every value
//    has an entry in the value table of its kind and only there; a table
//    entry for a name nothing defines is a warning;
//  - single-tensor-return: `is_single_tensor_return` fits the outputs;
//  - subgraph-depth: subgraphs nested deeper than the cap.
//
// It deliberately does not look at operator schemas, the signature, or
// symbolic expressions (see the other check files).
//
//===----------------------------------------------------------------------===//

#include "pt2ir/verifier/Checks.h"
#include "pt2ir/verifier/Targets.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

namespace pt2ir::verifier {

namespace {

/// Calls `fn(use, leaf)` for every value slot of `arg`, where `leaf` is the
/// argument holding the slot (its kind is the slot's member), descending
/// into as_string_to_argument maps without recursion.
template <typename Fn> void forEachSlot(const Argument &arg, Fn fn) {
  if (arg.getKind() != ArgKind::StringToArgument) {
    arg.forEachUse([&](Use *u) { fn(u, arg); });
    return;
  }
  std::vector<const Argument *> work{&arg};
  while (!work.empty()) {
    const Argument *a = work.back();
    work.pop_back();
    if (a->getKind() == ArgKind::StringToArgument) {
      const auto &entries = a->getStringMap();
      for (auto it = entries.rbegin(); it != entries.rend(); ++it)
        work.push_back(&it->second);
      continue;
    }
    a->forEachUse([&](Use *u) { fn(u, *a); });
  }
}

llvm::StringRef tableName(ValueType type) {
  switch (type) {
  case ValueType::Tensor:
    return "tensor_values";
  case ValueType::SymInt:
    return "sym_int_values";
  case ValueType::SymBool:
    return "sym_bool_values";
  case ValueType::SymFloat:
    return "sym_float_values";
  case ValueType::CustomObj:
    return "custom_obj_values";
  }
  return "?";
}

bool hasEntry(const Value &v, ValueType table) {
  const ValueMeta *md = v.getMeta();
  if (!md)
    return false;
  switch (table) {
  case ValueType::Tensor:
    return md->tensor != nullptr;
  case ValueType::SymInt:
    return md->symInt != nullptr;
  case ValueType::SymBool:
    return md->symBool != nullptr;
  case ValueType::SymFloat:
    return md->symFloat != nullptr;
  case ValueType::CustomObj:
    return md->hasCustomObj;
  }
  return false;
}

constexpr ValueType AllValueTypes[] = {ValueType::Tensor, ValueType::SymInt,
                                       ValueType::SymBool, ValueType::CustomObj,
                                       ValueType::SymFloat};

ValueTable tableOf(ValueType type) {
  switch (type) {
  case ValueType::Tensor:
    return ValueTable::Tensor;
  case ValueType::SymInt:
    return ValueTable::SymInt;
  case ValueType::SymBool:
    return ValueTable::SymBool;
  case ValueType::SymFloat:
    return ValueTable::SymFloat;
  case ValueType::CustomObj:
    return ValueTable::CustomObj;
  }
  return ValueTable::Tensor;
}

/// Where a value is defined: graph input `index` (node null) or output
/// `index` of `node`. Paths are built only when a finding needs one.
struct DefSite {
  const Node *node = nullptr;
  size_t index = 0;
};

/// Where a value is read: input `index` of `node`, or graph output `index`
/// (node null).
struct UseSite {
  const Node *node = nullptr;
  size_t index = 0;
};

class GraphStructureChecker {
public:
  GraphStructureChecker(VerifierContext &ctx, const Graph &g)
      : ctx(ctx), g(g) {}

  void run() {
    // Most nodes define one value or two: sized up front, the tables below
    // do not rehash and copy while the walk fills them.
    size_t expected = g.getInputs().size() + 2 * g.size();
    defined.reserve(expected);
    definitionSites.reserve(expected);
    definitions.reserve(expected);
    checkInputs();
    for (const Node &n : g.getNodes())
      checkNode(n);
    checkOutputs();
    checkNodeNamesAgainstValues();
    checkTables();
    checkSingleTensorReturn();
  }

private:
  std::string pathOf(DefSite site) const {
    return site.node ? ctx.nodeOutputPath(*site.node, site.index)
                     : ctx.graphInputPath(g, site.index);
  }
  uint64_t orderOf(DefSite site) const {
    return site.node ? ctx.nodeOrder(
                           *site.node,
                           unsigned(site.node->getInputs().size() + site.index))
                     : ctx.graphInputOrder(g, site.index);
  }
  /// The node name a finding at `site` shows: the node, or the input's name.
  llvm::StringRef nodeNameOf(DefSite site, llvm::StringRef valueName) const {
    return site.node ? site.node->getName() : valueName;
  }

  /// Records a definition slot held by `leaf` and checks its name.
  void define(Use *u, const Argument &leaf, DefSite site) {
    Value *v = u->get();
    llvm::StringRef name = u->getName();
    if (!v) {
      ctx.error("undefined-value", pathOf(site), nodeNameOf(site, name),
                orderOf(site),
                "the definition of '" + name + "' is not bound to a value");
      return;
    }
    if (!isPythonIdentifier(name))
      ctx.error("invalid-name", pathOf(site), nodeNameOf(site, name),
                orderOf(site),
                "value name '" + name + "' is not a valid Python identifier");
    // A value's name is interned: equal names share storage.
    auto [it, inserted] = definitionSites.try_emplace(name.data(), site);
    if (!inserted)
      ctx.error("duplicate-definition", pathOf(site), nodeNameOf(site, name),
                orderOf(site),
                "value '" + name + "' is defined twice (first at " +
                    pathOf(it->second) + ")");
    defined.insert(v);
    definitions.push_back({v, site});
    checkCustomObjClass(*v, leaf, [&] { return pathOf(site); },
                        nodeNameOf(site, name), orderOf(site));
  }

  /// An as_custom_obj slot must name the class of its value's
  /// custom_obj_values entry (torch writes both from the same object).
  template <typename PathFn>
  void checkCustomObjClass(const Value &v, const Argument &leaf, PathFn path,
                           llvm::StringRef nodeName, uint64_t order) {
    if (leaf.getKind() != ArgKind::CustomObj)
      return;
    const ValueMeta *md = v.getMeta();
    if (!md || !md->hasCustomObj)
      return;
    llvm::StringRef slotClass = leaf.getCustomObj().classFqn;
    if (slotClass == md->customObjClass)
      return;
    ctx.error("custom-obj-class", path() + ".as_custom_obj.class_fqn",
              nodeName, order,
              "names '" + v.getName() + "' with class '" + slotClass +
                  "', but its custom_obj_values entry gives class '" +
                  md->customObjClass + "'");
  }

  std::string pathOf(UseSite site) const {
    return site.node ? ctx.nodeInputPath(*site.node, site.index)
                     : ctx.graphOutputPath(g, site.index);
  }
  uint64_t orderOf(UseSite site) const {
    return site.node ? ctx.nodeOrder(*site.node, unsigned(site.index))
                     : ctx.graphOutputOrder(g, site.index);
  }

  /// Checks one operand slot, held by `leaf`, read at `site`.
  void use(Use *u, const Argument &leaf, UseSite site) {
    ArgKind member = leaf.getKind();
    Value *v = u->get();
    llvm::StringRef name = u->getName();
    const Node *user = site.node;
    llvm::StringRef nodeName = user ? user->getName() : llvm::StringRef();
    auto path = [&] { return pathOf(site); };
    uint64_t order = orderOf(site);
    if (!v) {
      // A custom object that no graph input defines is a constant, kept by
      // name.
      if (member == ArgKind::CustomObj)
        return;
      ctx.error("undefined-value", path(), nodeName, order,
                "uses '" + name +
                    "', which no graph input or node of this graph defines");
      return;
    }
    if (!v->isLive()) {
      ctx.error("undefined-value", path(), nodeName, order,
                "uses '" + name + "', whose definition was erased");
      return;
    }
    if (v->getGraph() != &g) {
      ctx.error("foreign-value", path(), nodeName, order,
                "uses '" + name +
                    "', a value of another graph; a subgraph receives values "
                    "only through its inputs");
      return;
    }
    if (v->getOrigin() == ValueOrigin::TableOnly) {
      ctx.error("undefined-value", path(), nodeName, order,
                "uses '" + name +
                    "', which only a value table names; no graph input or "
                    "node defines it");
      return;
    }
    if (!defined.count(v)) {
      const Node *def = v->getDefiningNode();
      if (def && def == user)
        ctx.error("use-before-def", path(), nodeName, order,
                  "uses its own output '" + name + "'");
      else if (def)
        ctx.error("use-before-def", path(), nodeName, order,
                  "uses '" + name + "' before its definition by node '" +
                      def->getName() + "' (" + ctx.nodePath(*def) + ")");
      else
        ctx.error("use-before-def", path(), nodeName, order,
                  "uses '" + name + "' before its definition");
    }
    ValueType expected = valueTypeOfArgKind(member);
    if (v->getType() != expected)
      ctx.error("value-kind-mismatch", path(), nodeName, order,
                "passes '" + name + "' as " + argKindMemberName(member) +
                    ", but it is a " + valueTypeName(v->getType()) + " value");
    checkCustomObjClass(*v, leaf, path, nodeName, order);
  }

  void checkInputs() {
    const auto &inputs = g.getInputs();
    for (size_t i = 0; i < inputs.size(); ++i) {
      forEachSlot(inputs[i], [&](Use *u, const Argument &leaf) {
        define(u, leaf, {nullptr, i});
      });
    }
  }

  void checkNode(const Node &n) {
    llvm::StringRef nodeName = n.getName();
    const TargetInfo &target = ctx.targetInfo(n);
    if (target.kind == TargetKind::ModuleOrMethod) {
      if (n.getTarget().empty())
        ctx.error("call-target", ctx.nodePath(n) + ".target", nodeName,
                  ctx.nodeOrder(n), "the target is empty");
      else
        ctx.error("call-target", ctx.nodePath(n) + ".target", nodeName,
                  ctx.nodeOrder(n),
                  "target '" + n.getTarget() +
                      "' is not a function: call_module and call_method "
                      "nodes are not valid in an exported program");
    }
    if (std::optional<llvm::StringRef> stored = n.getStoredName()) {
      if (!isPythonIdentifier(*stored))
        ctx.error("invalid-name", ctx.nodePath(n) + ".name", nodeName,
                  ctx.nodeOrder(n),
                  "node name '" + *stored +
                      "' is not a valid Python identifier");
      auto [it, inserted] = nodeNames.try_emplace(*stored, &n);
      if (!inserted)
        ctx.error("duplicate-node-name", ctx.nodePath(n) + ".name", nodeName,
                  ctx.nodeOrder(n),
                  "node name '" + *stored + "' is already used by " +
                      ctx.nodePath(*it->second));
    }
    const auto &inputs = n.getInputs();
    for (size_t i = 0; i < inputs.size(); ++i) {
      forEachSlot(inputs[i].arg, [&](Use *u, const Argument &leaf) {
        use(u, leaf, {&n, i});
      });
    }
    const auto &outputs = n.getOutputs();
    for (size_t i = 0; i < outputs.size(); ++i) {
      forEachSlot(outputs[i], [&](Use *u, const Argument &leaf) {
        define(u, leaf, {&n, i});
      });
    }
  }

  void checkOutputs() {
    const auto &outputs = g.getOutputs();
    for (size_t i = 0; i < outputs.size(); ++i) {
      forEachSlot(outputs[i], [&](Use *u, const Argument &leaf) {
        use(u, leaf, {nullptr, i});
      });
    }
  }

  /// In torch.fx, node names and value names share one namespace: a stored
  /// node name may only coincide with a value that node defines itself.
  void checkNodeNamesAgainstValues() {
    for (const auto &entry : nodeNames) {
      const Node *n = entry.second;
      Value *v = g.lookupValue(entry.first);
      if (!v || v->getDefiningNode() == n || !v->isLive())
        continue;
      std::string owner = v->isGraphInput()
                              ? std::string("a graph input")
                              : "node '" +
                                    (v->getDefiningNode()
                                         ? v->getDefiningNode()->getName().str()
                                         : std::string("?")) +
                                    "'";
      ctx.error("duplicate-node-name", ctx.nodePath(*n) + ".name", n->getName(),
                ctx.nodeOrder(*n),
                "node name '" + entry.first +
                    "' is also the name of a value defined by " + owner);
    }
  }

  void checkTables() {
    for (const auto &[v, site] : definitions) {
      ValueType type = v->getType();
      llvm::StringRef nodeName = nodeNameOf(site, v->getName());
      if (!hasEntry(*v, type))
        ctx.error("missing-value-meta", pathOf(site), nodeName, orderOf(site),
                  valueTypeName(type) + " value '" + v->getName() +
                      "' has no " + tableName(type) + " entry");
      for (ValueType other : AllValueTypes) {
        if (other == type || !hasEntry(*v, other))
          continue;
        ctx.error("value-meta-mismatch",
                  ctx.tablePath(g, tableName(other), v->getName()), nodeName,
                  ctx.tableOrder(g),
                  valueTypeName(type) + " value '" + v->getName() + "' has a " +
                      tableName(other) + " entry");
      }
    }
    unsigned sub = 0;
    for (ValueType type : AllValueTypes) {
      for (Value *v : g.getTableEntries(tableOf(type))) {
        ++sub;
        if (v->getOrigin() != ValueOrigin::TableOnly)
          continue;
        ctx.warning("orphan-value-meta",
                    ctx.tablePath(g, tableName(type), v->getName()), "",
                    ctx.tableOrder(g, sub),
                    tableName(type) + " has an entry for '" + v->getName() +
                        "', which no graph input or node defines");
      }
    }
  }

  void checkSingleTensorReturn() {
    if (!g.isSingleTensorReturn())
      return;
    const auto &outputs = g.getOutputs();
    if (outputs.size() == 1 && outputs[0].getKind() == ArgKind::Tensor)
      return;
    ctx.error("single-tensor-return", ctx.layout(g).path + ".outputs", "",
              ctx.graphOutputOrder(g, 0),
              "is_single_tensor_return is set, but the graph returns " +
                  std::to_string(outputs.size()) +
                  " outputs instead of one as_tensor");
  }

  VerifierContext &ctx;
  const Graph &g;
  llvm::DenseSet<const Value *> defined;
  /// Keyed by the (interned) name's storage.
  llvm::DenseMap<const char *, DefSite> definitionSites;
  llvm::DenseMap<llvm::StringRef, const Node *> nodeNames;
  std::vector<std::pair<const Value *, DefSite>> definitions;
};

} // namespace

void checkStructure(VerifierContext &ctx) {
  for (const Graph *g : ctx.graphs())
    GraphStructureChecker(ctx, *g).run();
  for (const Node *n : ctx.tooDeepNodes())
    ctx.error("subgraph-depth", ctx.nodePath(*n), n->getName(),
              ctx.nodeOrder(*n),
              "subgraphs are nested more than " +
                  std::to_string(ctx.options().maxSubgraphDepth) +
                  " levels deep; the deeper ones were not checked");
}

} // namespace pt2ir::verifier
