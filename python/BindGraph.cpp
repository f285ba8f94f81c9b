//===- BindGraph.cpp - pt2ir.Graph, pt2ir.Node and pt2ir.Value ------------===//
//
// The graph side of the module, with torch.fx's names where the concept is
// the same: graph.nodes, node.args / kwargs / meta / users,
// graph.inserting_before / inserting_after, graph.call_function,
// node.replace_all_uses_with, graph.erase_node, graph.eliminate_dead_code.
//
// Every entry point first checks that its handles are live (PyProgram.h)
// and belong to one program and graph; what the IR refuses is raised as
// pt2ir.GraphError with the IR's message.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/python/Bindings.h"

#include "pt2ir/ir/Printer.h"
#include "pt2ir/passes/DeadCodeElimination.h"
#include "pt2ir/passes/OpEffects.h"
#include "pt2ir/python/Convert.h"
#include "pt2ir/python/Errors.h"
#include "pt2ir/rewrite/Builder.h"

#include "llvm/Support/raw_ostream.h"

#include <pybind11/stl.h>

namespace py = pybind11;

namespace pt2ir::python {

namespace {

const char *kindName(const NodeRef &) { return "node"; }
const char *kindName(const ValueRef &) { return "value"; }
const char *kindName(const GraphRef &) { return "graph"; }

/// The object behind `h`, or raises StaleHandleError.
template <typename T> T &live(const Handle<T> &h) {
  if (h.program)
    h.program->use();
  if (!h.isLive())
    raise(ErrorKind::StaleHandle,
          std::string("this ") + kindName(h) +
              " no longer exists: it was erased from its program (by "
              "erase_node, a pass, or the erasure of the node owning its "
              "graph)");
  return *h.object;
}

/// Raises unless `h` belongs to program `p`.
template <typename T>
void sameProgram(const ProgramPtr &p, const Handle<T> &h, const char *what) {
  if (h.program != p)
    raise(ErrorKind::Graph, std::string(what) + " belongs to another program");
}

/// The nodes that read any of `values`, each once, in use-list order.
py::list usersOf(const ProgramPtr &p, const std::vector<Value *> &values) {
  py::list out;
  llvm::SmallVector<Node *, 8> seen;
  for (Value *v : values)
    for (Use *u : v->uses())
      if (Node *user = u->getUser(); user && !llvm::is_contained(seen, user)) {
        seen.push_back(user);
        out.append(py::cast(makeNodeRef(p, user)));
      }
  return out;
}

/// The values a replace_all_uses_with replacement stands for.
std::vector<Value *> replacementValues(const ProgramPtr &p, py::handle other) {
  if (py::isinstance<NodeRef>(other)) {
    const NodeRef &n = other.cast<const NodeRef &>();
    sameProgram(p, n, "the replacement node");
    return live(n).getResults();
  }
  if (py::isinstance<ValueRef>(other)) {
    const ValueRef &v = other.cast<const ValueRef &>();
    sameProgram(p, v, "the replacement value");
    return {&live(v)};
  }
  raise(ErrorKind::Graph,
        "replace_all_uses_with takes a Node or a Value, not a " +
            py::str(other.get_type().attr("__name__")).cast<std::string>());
}

/// Replaces every use of `from[i]` with `to[i]`, through the program so the
/// signature follows. Uses by the node defining `to[i]` stay: that is the
/// node which now computes from `from[i]` (torch.fx's `x -> f(x)` rewrite).
/// Returns the nodes whose inputs changed.
py::list replaceUses(const ProgramPtr &p, const std::vector<Value *> &from,
                     const std::vector<Value *> &to) {
  if (from.size() != to.size())
    raise(ErrorKind::Graph, "cannot replace " + std::to_string(from.size()) +
                                " values with " + std::to_string(to.size()));
  py::list changed;
  for (py::handle user : usersOf(p, from)) {
    const Node *n = user.cast<const NodeRef &>().object;
    if (!llvm::any_of(
            to, [&](const Value *v) { return v->getDefiningNode() == n; }))
      changed.append(user);
  }
  for (size_t i = 0; i < from.size(); ++i) {
    if (from[i] == to[i])
      continue;
    Node *keep = to[i]->getDefiningNode();
    std::vector<Use *> kept;
    if (keep)
      keep->forEachOperand([&](Use *u) {
        if (u->get() == from[i])
          kept.push_back(u);
      });
    check(p->use().replaceAllUsesWith(from[i], to[i]), ErrorKind::Graph);
    for (Use *u : kept)
      u->set(from[i]);
  }
  return changed;
}

/// Makes `node`'s operands that read `from` read `to`: torch.fx's
/// replace_input_with.
void replaceInput(const NodeRef &n, py::handle fromObj, py::handle toObj) {
  Node &node = live(n);
  std::vector<Value *> from = replacementValues(n.program, fromObj);
  std::vector<Value *> to = replacementValues(n.program, toObj);
  if (from.size() != 1 || to.size() != 1)
    raise(ErrorKind::Graph,
          "replace_input_with takes single-value nodes or values");
  if (to[0]->getGraph() != node.getGraph())
    raise(ErrorKind::Graph,
          "value '" + to[0]->getName().str() + "' belongs to another graph");
  if (from[0]->getType() != to[0]->getType())
    raise(ErrorKind::Graph, "cannot replace " +
                                valueTypeName(from[0]->getType()).str() + " '" +
                                from[0]->getName().str() + "' with " +
                                valueTypeName(to[0]->getType()).str() + " '" +
                                to[0]->getName().str() + "'");
  node.forEachOperand([&](Use *u) {
    if (u->get() == from[0])
      u->set(to[0]);
  });
}

/// `graph.inserting_before(node)` / `inserting_after(node)`: a context
/// manager that makes call_function insert there while it is entered.
struct InsertingContext {
  GraphRef graph;
  InsertionPoint point;
  bool entered = false;
};

Graph &graphOf(const NodeRef &n) { return *live(n).getGraph(); }

/// Checks that `n` is a live node of graph `g`.
Node &nodeIn(const GraphRef &g, const NodeRef &n) {
  sameProgram(g.program, n, "the node");
  Node &node = live(n);
  if (node.getGraph() != &live(g))
    raise(ErrorKind::Graph,
          "node '" + node.getName().str() + "' belongs to another graph");
  return node;
}

std::string str(llvm::StringRef s) { return s.str(); }

template <typename Fn> std::string printed(Fn fn) {
  std::string text;
  llvm::raw_string_ostream os(text);
  fn(os);
  return text;
}

py::object callFunction(const GraphRef &g, const std::string &target,
                        py::handle args, py::handle kwargs, py::handle name,
                        py::handle metaLike, py::handle replaces) {
  Graph &graph = live(g);
  const ProgramPtr &p = g.program;
  Builder b(graph);
  auto &stack = p->insertionPoints[&graph];
  if (!stack.empty()) {
    const InsertionPoint &ip = stack.back();
    if (!p->isLive(ip.node, ip.nodeId))
      raise(ErrorKind::StaleHandle,
            "the insertion point's node was erased; leave the "
            "inserting_before/inserting_after block");
    Node *at = const_cast<Node *>(ip.node);
    if (ip.kind == InsertionPoint::Kind::Before)
      b.setInsertionPointBefore(at);
    else
      b.setInsertionPointAfter(at);
  }
  std::vector<BuilderArg> operands;
  if (!args.is_none()) {
    if (!py::isinstance<py::tuple>(args) && !py::isinstance<py::list>(args))
      raise(ErrorKind::Graph, "call_function: args must be a tuple or a list");
    for (py::handle a : args)
      operands.push_back(pythonToBuilderArg(p, graph, a));
  }
  std::vector<std::string> keys;
  std::vector<BuilderArg> keyValues;
  if (!kwargs.is_none()) {
    if (!py::isinstance<py::dict>(kwargs))
      raise(ErrorKind::Graph, "call_function: kwargs must be a dict");
    for (auto [k, v] : kwargs.cast<py::dict>()) {
      if (!py::isinstance<py::str>(k))
        raise(ErrorKind::Graph, "call_function: kwargs keys must be str");
      keys.push_back(k.cast<std::string>());
      keyValues.push_back(pythonToBuilderArg(p, graph, v));
    }
  }
  std::vector<BuilderKwarg> kwargList;
  for (size_t i = 0; i < keys.size(); ++i)
    kwargList.emplace_back(keys[i], keyValues[i]);
  NodeOptions options;
  if (!name.is_none())
    options.name = name.cast<std::string>();
  if (!metaLike.is_none()) {
    BuilderArg like = pythonToBuilderArg(p, graph, metaLike);
    if (like.getKind() != BuilderArg::Kind::Value)
      raise(ErrorKind::Graph,
            "call_function: meta_like must be a Value or a single-output Node");
    options.metaLike = like.getValue();
  }
  std::vector<const Node *> replaced;
  if (!replaces.is_none()) {
    for (py::handle r : replaces) {
      if (!py::isinstance<NodeRef>(r))
        raise(ErrorKind::Graph, "call_function: replaces must list Nodes");
      replaced.push_back(&nodeIn(g, r.cast<const NodeRef &>()));
    }
    b.setProvenance(replaced, "python");
  }
  Node *node =
      unwrap(b.create(target, operands, kwargList, options), ErrorKind::Graph);
  NodeRef ref = makeNodeRef(p, node);
  // Inserting after a node: the next call goes after this one, so that
  // calls come out in call order.
  auto &points = p->insertionPoints[&graph];
  if (!points.empty() && points.back().kind == InsertionPoint::Kind::After)
    points.back() = {InsertionPoint::Kind::After, node, ref.id};
  return py::cast(ref);
}

} // namespace

void bindGraph(py::module_ &m) {
  py::class_<GraphRef>(m, "Graph",
                       "A graph: nodes in program order, inputs, outputs.")
      .def_property_readonly(
          "nodes",
          [](const GraphRef &g) {
            py::list out;
            for (Node &n : live(g))
              out.append(py::cast(makeNodeRef(g.program, &n)));
            return out;
          },
          "The nodes, in program order (a new list each time).")
      .def("__len__", [](const GraphRef &g) { return live(g).size(); })
      .def_property_readonly(
          "inputs",
          [](const GraphRef &g) {
            py::list out;
            for (Value *v : live(g).getInputValues())
              out.append(py::cast(makeValueRef(g.program, v)));
            return out;
          },
          "The values the graph's inputs define (torch.fx's placeholders).")
      .def_property_readonly(
          "outputs",
          [](const GraphRef &g) {
            py::list out;
            for (const Argument &a : live(g).getOutputs())
              out.append(argumentToPython(g.program, a));
            return out;
          },
          "What the graph returns, as Python values.")
      .def_property_readonly(
          "parent",
          [](const GraphRef &g) -> py::object {
            if (Node *n = live(g).getParentNode())
              return py::cast(makeNodeRef(g.program, n));
            return py::none();
          },
          "The higher-order node whose argument holds this subgraph; None at "
          "top level.")
      .def(
          "find_node",
          [](const GraphRef &g, const std::string &name) -> py::object {
            for (Node &n : live(g))
              if (n.getName() == name)
                return py::cast(makeNodeRef(g.program, &n));
            return py::none();
          },
          py::arg("name"), "The node named `name`, or None.")
      .def(
          "find_value",
          [](const GraphRef &g, const std::string &name) -> py::object {
            if (Value *v = live(g).lookupValue(name))
              return py::cast(makeValueRef(g.program, v));
            return py::none();
          },
          py::arg("name"),
          "The value named `name` defined in this graph, or None.")
      .def(
          "inserting_before",
          [](const GraphRef &g, const NodeRef &n) {
            Node &node = nodeIn(g, n);
            return InsertingContext{
                g, {InsertionPoint::Kind::Before, &node, n.id}, false};
          },
          py::arg("node"),
          "A context manager: call_function inserts before `node` inside it.")
      .def(
          "inserting_after",
          [](const GraphRef &g, const NodeRef &n) {
            Node &node = nodeIn(g, n);
            return InsertingContext{
                g, {InsertionPoint::Kind::After, &node, n.id}, false};
          },
          py::arg("node"),
          "A context manager: call_function inserts after `node` inside it "
          "(several calls come out in call order).")
      .def("call_function", &callFunction, py::arg("target"),
           py::arg("args") = py::tuple(), py::arg("kwargs") = py::none(),
           py::kw_only(), py::arg("name") = py::none(),
           py::arg("meta_like") = py::none(), py::arg("replaces") = py::none(),
           "Creates a call of `target` (`aten::add.Tensor`, "
           "`torch.ops.aten.add.Tensor`, `#ns:op`) at the insertion point and "
           "returns its Node. Arguments are matched to the operator's schema; "
           "output metadata is copied from `meta_like`; `replaces` lists the "
           "nodes whose provenance metadata the new node carries.")
      .def(
          "erase_node",
          [](const GraphRef &g, const NodeRef &n) {
            Node &node = nodeIn(g, n);
            check(live(g).eraseNode(&node), ErrorKind::Graph);
          },
          py::arg("node"),
          "Erases `node`; refused while any of its values is used.")
      .def(
          "eliminate_dead_code",
          [](const GraphRef &g) {
            Graph &graph = live(g);
            llvm::Expected<DeadCodeStats> stats = DeadCodeStats();
            {
              LongOperation op(*g.program, "eliminate_dead_code");
              OpEffects effects(graph.getContext().getRegistry());
              stats = eliminateDeadCode(graph, effects);
            }
            return unwrap(std::move(stats), ErrorKind::Graph).nodesErased > 0;
          },
          "Erases unused side-effect-free nodes (and those only they used). "
          "Returns whether anything was erased.")
      .def("__iter__",
           [](const GraphRef &g) {
             py::list nodes;
             for (Node &n : live(g))
               nodes.append(py::cast(makeNodeRef(g.program, &n)));
             return py::iter(nodes);
           })
      .def("__str__",
           [](const GraphRef &g) {
             return printed(
                 [&](llvm::raw_ostream &os) { printGraph(os, live(g)); });
           })
      .def("__repr__",
           [](const GraphRef &g) {
             if (!g.isLive())
               return std::string("<pt2ir.Graph (erased)>");
             return "<pt2ir.Graph of " + std::to_string(g.object->size()) +
                    " nodes>";
           })
      .def("__eq__",
           [](const GraphRef &a, const GraphRef &b) { return a == b; })
      .def("__hash__", [](const GraphRef &g) {
        return std::hash<const void *>()(g.object) ^ g.id;
      });

  py::class_<InsertingContext>(
      m, "InsertionPoint",
      "Returned by Graph.inserting_before / inserting_after.")
      .def("__enter__",
           [](InsertingContext &c) {
             Graph &graph = live(c.graph);
             if (c.entered)
               raise(ErrorKind::Graph,
                     "this insertion point is already entered");
             c.entered = true;
             c.graph.program->insertionPoints[&graph].push_back(c.point);
             return c.graph;
           })
      .def("__exit__", [](InsertingContext &c, py::args) {
        c.graph.program->use();
        if (!c.entered)
          return false;
        c.entered = false;
        auto &points = c.graph.program->insertionPoints;
        auto it = points.find(c.graph.object);
        if (c.graph.isLive() && it != points.end() && !it->second.empty())
          it->second.pop_back();
        return false;
      });

  py::class_<NodeRef>(m, "Node", "One call in a graph.")
      .def_property_readonly(
          "name", [](const NodeRef &n) { return str(live(n).getName()); })
      .def_property_readonly(
          "op",
          [](const NodeRef &n) {
            live(n);
            return "call_function";
          },
          "Always 'call_function': graph inputs are Values, outputs "
          "graph.outputs.")
      .def_property_readonly(
          "target", [](const NodeRef &n) { return str(live(n).getTarget()); },
          "The target as the file spells it (`torch.ops.aten.relu.default`).")
      .def_property_readonly(
          "args",
          [](const NodeRef &n) {
            py::list out;
            for (const NamedArgument &in : live(n).getInputs())
              if (!in.isKeyword())
                out.append(argumentToPython(n.program, in.arg));
            return py::tuple(out);
          },
          "The positional arguments, as Python values.")
      .def_property_readonly(
          "kwargs",
          [](const NodeRef &n) {
            py::dict out;
            for (const NamedArgument &in : live(n).getInputs())
              if (in.isKeyword())
                out[py::str(in.name.str())] =
                    argumentToPython(n.program, in.arg);
            return out;
          },
          "The keyword arguments, as Python values.")
      .def_property_readonly(
          "arg_names",
          [](const NodeRef &n) {
            py::list out;
            for (const NamedArgument &in : live(n).getInputs())
              out.append(py::str(in.name.str()));
            return out;
          },
          "The schema names of every input, in order (positional ones first).")
      .def_property_readonly(
          "meta", [](const NodeRef &n) { return metadataToPython(live(n)); },
          "The metadata, decoded (a new dict each time).")
      .def(
          "set_meta",
          [](const NodeRef &n, const std::string &key,
             const std::string &value) {
            Node &node = live(n);
            IRContext &ctx = node.getGraph()->getContext();
            setMetadata(node.getMetadata(), ctx.intern(key), ctx.intern(value));
          },
          py::arg("key"), py::arg("value"),
          "Sets metadata entry `key` to the text `value` (as the file stores "
          "it).")
      .def_property_readonly(
          "users",
          [](const NodeRef &n) {
            return usersOf(n.program, live(n).getResults());
          },
          "The nodes that read any of this node's values.")
      .def_property_readonly(
          "outputs",
          [](const NodeRef &n) {
            py::list out;
            for (Value *v : live(n).getResults())
              out.append(py::cast(makeValueRef(n.program, v)));
            return out;
          },
          "The values this node defines.")
      .def_property_readonly(
          "value",
          [](const NodeRef &n) -> py::object {
            if (Value *v = live(n).getSingleResult())
              return py::cast(makeValueRef(n.program, v));
            return py::none();
          },
          "The node's value when it defines exactly one, else None.")
      .def_property_readonly(
          "graph",
          [](const NodeRef &n) { return makeGraphRef(n.program, &graphOf(n)); })
      .def_property_readonly(
          "subgraphs",
          [](const NodeRef &n) {
            py::list out;
            for (Graph *g : live(n).getSubgraphs())
              out.append(py::cast(makeGraphRef(n.program, g)));
            return out;
          },
          "The graphs passed to this higher-order node.")
      .def_property_readonly("is_erased",
                             [](const NodeRef &n) { return !n.isLive(); })
      .def(
          "replace_all_uses_with",
          [](const NodeRef &n, py::handle other) {
            Node &node = live(n);
            return replaceUses(n.program, node.getResults(),
                               replacementValues(n.program, other));
          },
          py::arg("replace_with"),
          "Makes every reader of this node's values (nodes, graph outputs, the "
          "signature) read `replace_with`'s instead, except the node defining "
          "the replacement. Returns the nodes whose inputs changed.")
      .def("replace_input_with", &replaceInput, py::arg("old_input"),
           py::arg("new_input"),
           "Makes this node's arguments that read `old_input` read `new_input` "
           "(Nodes with one value, or Values of this graph, of one type).")
      .def("__str__",
           [](const NodeRef &n) {
             return printed(
                 [&](llvm::raw_ostream &os) { printNode(os, live(n)); });
           })
      .def("__repr__",
           [](const NodeRef &n) {
             if (!n.isLive())
               return std::string("<pt2ir.Node (erased)>");
             return "<pt2ir.Node " + str(n.object->getName()) + ": " +
                    str(shortTarget(n.object->getTarget())) + ">";
           })
      .def("__eq__", [](const NodeRef &a, const NodeRef &b) { return a == b; })
      .def("__hash__", [](const NodeRef &n) {
        return std::hash<const void *>()(n.object) ^ n.id;
      });

  py::class_<ValueRef>(
      m, "Value", "A tensor, symbolic value, token or object a graph defines.")
      .def_property_readonly(
          "name", [](const ValueRef &v) { return str(live(v).getName()); })
      .def_property_readonly(
          "type",
          [](const ValueRef &v) {
            return str(valueTypeName(live(v).getType()));
          },
          "'Tensor', 'SymInt', 'SymBool', 'SymFloat' or 'CustomObj'.")
      .def_property_readonly(
          "dtype",
          [](const ValueRef &v) -> py::object {
            if (const TensorMeta *t = live(v).getTensorMeta())
              return py::cast(t->dtype);
            return py::none();
          },
          "A tensor's ScalarType; None for other values.")
      .def_property_readonly(
          "shape",
          [](const ValueRef &v) -> py::object {
            const TensorMeta *t = live(v).getTensorMeta();
            if (!t)
              return py::none();
            py::list out;
            for (const SymValue &s : t->sizes)
              out.append(symValueToPython(s));
            return std::move(out);
          },
          "A tensor's sizes: ints, and symbolic ones as expression strings; "
          "None for other values.")
      .def_property_readonly("strides",
                             [](const ValueRef &v) -> py::object {
                               const TensorMeta *t = live(v).getTensorMeta();
                               if (!t)
                                 return py::none();
                               py::list out;
                               for (const SymValue &s : t->strides)
                                 out.append(symValueToPython(s));
                               return std::move(out);
                             })
      .def_property_readonly("device",
                             [](const ValueRef &v) -> py::object {
                               if (const TensorMeta *t =
                                       live(v).getTensorMeta())
                                 return py::str(deviceToString(t->device));
                               return py::none();
                             })
      .def_property_readonly("requires_grad",
                             [](const ValueRef &v) -> py::object {
                               if (const TensorMeta *t =
                                       live(v).getTensorMeta())
                                 return py::bool_(t->requiresGrad);
                               return py::none();
                             })
      .def_property_readonly(
          "expr",
          [](const ValueRef &v) -> py::object {
            if (const SymValue *s = live(v).getSymMeta())
              return symValueToPython(*s);
            return py::none();
          },
          "A symbolic value's expression (a str) or constant; None for "
          "tensors.")
      .def_property_readonly(
          "node",
          [](const ValueRef &v) -> py::object {
            if (Node *n = live(v).getDefiningNode())
              return py::cast(makeNodeRef(v.program, n));
            return py::none();
          },
          "The node defining this value; None for a graph input.")
      .def_property_readonly(
          "is_input", [](const ValueRef &v) { return live(v).isGraphInput(); })
      .def_property_readonly(
          "users",
          [](const ValueRef &v) { return usersOf(v.program, {&live(v)}); },
          "The nodes that read this value.")
      .def_property_readonly("graph",
                             [](const ValueRef &v) {
                               return makeGraphRef(v.program,
                                                   live(v).getGraph());
                             })
      .def(
          "replace_all_uses_with",
          [](const ValueRef &v, py::handle other) {
            return replaceUses(v.program, {&live(v)},
                               replacementValues(v.program, other));
          },
          py::arg("replace_with"),
          "As Node.replace_all_uses_with, for one value.")
      .def("__repr__",
           [](const ValueRef &v) {
             if (!v.isLive())
               return std::string("<pt2ir.Value (erased)>");
             return "<pt2ir.Value " + str(v.object->getName()) + ": " +
                    describeValueType(*v.object) + ">";
           })
      .def("__eq__",
           [](const ValueRef &a, const ValueRef &b) { return a == b; })
      .def("__hash__", [](const ValueRef &v) {
        return std::hash<const void *>()(v.object) ^ v.id;
      });
}

} // namespace pt2ir::python
