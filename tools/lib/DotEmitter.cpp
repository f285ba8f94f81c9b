//===- DotEmitter.cpp - The program as a Graphviz picture -----------------===//
//
// Implements emitDot. Graphs are visited breadth first from a worklist and
// every subgraph becomes a top-level cluster (clusters are not nested in the
// text), so deep nesting never turns into recursion.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/tools/lib/DotEmitter.h"

#include "pt2ir/ir/PlaceholderNames.h"
#include "pt2ir/ir/Printer.h"
#include "pt2ir/ir/SymbolicOps.h"
#include "pt2ir/passes/OpEffects.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/JSON.h"

#include <deque>

namespace pt2ir {

std::string escapeDotString(llvm::StringRef s) {
  std::string text = llvm::json::isUTF8(s) ? s.str() : llvm::json::fixUTF8(s);
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f) {
      out.push_back(c);
    }
  }
  return out;
}

namespace {

/// Fill and border colours of one style.
struct Colors {
  const char *fill;
  const char *border;
};

constexpr Colors ParameterColors{"#dae8fc", "#6c8ebf"};
constexpr Colors BufferColors{"#d5e8d4", "#82b366"};
constexpr Colors UserColors{"#fff2cc", "#d6b656"};
constexpr Colors ConstantColors{"#e1d5e7", "#9673a6"};
constexpr Colors TokenColors{"#eeeeee", "#999999"};
constexpr Colors LossColors{"#ffe6cc", "#d79b00"};
constexpr Colors AssertColors{"#f8cecc", "#b85450"};
constexpr Colors SymbolicColors{"#e1d5e7", "#9673a6"};
constexpr Colors HigherOrderColors{"#ffe6cc", "#d79b00"};
constexpr Colors OpColors{"#ffffff", "#333333"};

Colors inputColors(InputKind kind) {
  switch (kind) {
  case InputKind::Parameter:
    return ParameterColors;
  case InputKind::Buffer:
    return BufferColors;
  case InputKind::UserInput:
    return UserColors;
  case InputKind::Token:
    return TokenColors;
  default:
    return ConstantColors;
  }
}

Colors outputColors(OutputKind kind) {
  switch (kind) {
  case OutputKind::BufferMutation:
    return BufferColors;
  case OutputKind::ParameterMutation:
  case OutputKind::GradientToParameter:
    return ParameterColors;
  case OutputKind::LossOutput:
    return LossColors;
  case OutputKind::Token:
    return TokenColors;
  default:
    return UserColors;
  }
}

/// One graph to draw and the id prefix of its nodes.
struct GraphItem {
  const Graph *graph;
  std::string prefix;
  /// For subgraphs: the cluster label (subgraph name and owning node).
  std::string clusterLabel;
};

class DotWriter {
public:
  DotWriter(llvm::raw_ostream &os, const ExportedProgram &ep,
            const EmitOptions &options)
      : os(os), ep(ep), options(options) {}
  void run();

private:
  void emitGraph(const GraphItem &item);
  void emitInputs(const GraphItem &item,
                  llvm::DenseMap<const Value *, std::string> &ids);
  void emitOutputs(const GraphItem &item,
                   const llvm::DenseMap<const Value *, std::string> &ids);
  void emitNode(const std::string &id, const Node &node, unsigned indent);
  void attrs(unsigned indent, const std::string &id, const std::string &label,
             const char *shape, const char *style, Colors colors,
             const std::string &extra = "");

  llvm::raw_ostream &os;
  const ExportedProgram &ep;
  const EmitOptions &options;
  std::deque<GraphItem> worklist;
  /// The first drawn node of each subgraph, where the op's dashed edge ends.
  llvm::DenseMap<const Graph *, std::string> anchors;
  /// A dashed op -> subgraph edge, written after all clusters exist.
  struct SubgraphEdge {
    std::string from;
    size_t item;
    std::string name;
  };
  std::vector<SubgraphEdge> subgraphEdges;
};

void DotWriter::attrs(unsigned indent, const std::string &id,
                      const std::string &label, const char *shape,
                      const char *style, Colors colors,
                      const std::string &extra) {
  os.indent(indent) << id << " [label=\"" << escapeDotString(label)
                    << "\", shape=" << shape << ", style=\"" << style
                    << "\", fillcolor=\"" << colors.fill << "\", color=\""
                    << colors.border << "\"" << extra << "];\n";
}

void DotWriter::emitInputs(const GraphItem &item,
                           llvm::DenseMap<const Value *, std::string> &ids) {
  const Graph &g = *item.graph;
  bool topLevel = item.clusterLabel.empty();
  const GraphSignature *sig = topLevel ? &ep.graphModule.signature : nullptr;
  std::vector<std::string> names = placeholderNames(g, sig);
  unsigned indent = topLevel ? 2 : 4;
  for (size_t i = 0; i < g.getInputs().size(); ++i) {
    std::string id = item.prefix + "_in" + std::to_string(i);
    const Argument &in = g.getInputs()[i];
    std::string label = names[i];
    Colors colors = UserColors;
    if (sig && i < sig->inputSpecs.size()) {
      const InputSpec &spec = sig->inputSpecs[i];
      colors = inputColors(spec.kind);
      label += "\n" + inputKindMemberName(spec.kind).str();
      if (!spec.target.empty() && spec.kind != InputKind::ConstantInput)
        label += ": " + spec.target.str();
    } else if (!topLevel) {
      label += "\nsubgraph input";
    }
    const Value *v = in.getSingleValue();
    if (v && options.showTypes)
      label += "\n" + describeValueType(*v);
    if (!v) {
      std::string text;
      llvm::raw_string_ostream tos(text);
      printArgument(tos, in);
      label += "\n= " + text;
    }
    bool nonPersistent = sig && i < sig->inputSpecs.size() &&
                         sig->inputSpecs[i].kind == InputKind::Buffer &&
                         !sig->inputSpecs[i].persistent;
    attrs(indent, id, label, "box", nonPersistent ? "filled,dashed" : "filled",
          colors);
    if (v)
      ids[v] = id;
  }
}

void DotWriter::emitOutputs(
    const GraphItem &item,
    const llvm::DenseMap<const Value *, std::string> &ids) {
  const Graph &g = *item.graph;
  bool topLevel = item.clusterLabel.empty();
  const GraphSignature *sig = topLevel ? &ep.graphModule.signature : nullptr;
  unsigned indent = topLevel ? 2 : 4;
  for (size_t i = 0; i < g.getOutputs().size(); ++i) {
    const Argument &out = g.getOutputs()[i];
    std::string id = item.prefix + "_out" + std::to_string(i);
    std::string text;
    llvm::raw_string_ostream tos(text);
    printArgument(tos, out);
    std::string label = "output " + std::to_string(i) + ": " + text;
    Colors colors = UserColors;
    if (sig && i < sig->outputSpecs.size()) {
      const OutputSpec &spec = sig->outputSpecs[i];
      colors = outputColors(spec.kind);
      label += "\n" + outputKindMemberName(spec.kind).str();
      if (!spec.target.empty())
        label += ": " + spec.target.str();
    }
    attrs(indent, id, label, "invhouse", "filled", colors);
    out.forEachUse([&](Use *u) {
      auto it = ids.find(u->get());
      if (it != ids.end())
        os.indent(indent) << it->second << " -> " << id << ";\n";
    });
  }
}

void DotWriter::emitNode(const std::string &id, const Node &node,
                         unsigned indent) {
  llvm::StringRef target = node.getTarget();
  std::string label = node.getName().str() + "\n" + shortTarget(target).str();
  if (options.showTypes) {
    std::vector<Value *> results = node.getResults();
    for (size_t i = 0; i < results.size(); ++i)
      label += (i ? ", " : "\n") + describeValueType(*results[i]);
  }
  std::string extra;
  if (options.showMetadata)
    if (auto trace = lookupMetadata(node.getMetadata(), "stack_trace")) {
      llvm::StringRef last = trace->rtrim().rsplit('\n').second;
      if (last.empty())
        last = trace->trim();
      extra = ", tooltip=\"" + escapeDotString(last.trim()) + "\"";
    }
  if (OpEffects::isAssertTarget(target))
    return attrs(indent, id, label, "octagon", "filled", AssertColors, extra);
  if (isSymbolicOp(node))
    return attrs(indent, id, label, "ellipse", "filled", SymbolicColors, extra);
  if (isHigherOrderOpTarget(target))
    return attrs(indent, id, label, "box3d", "filled", HigherOrderColors,
                 extra);
  attrs(indent, id, label, "box", "rounded,filled", OpColors, extra);
}

void DotWriter::emitGraph(const GraphItem &item) {
  const Graph &g = *item.graph;
  bool topLevel = item.clusterLabel.empty();
  unsigned indent = topLevel ? 2 : 4;
  if (!topLevel) {
    os << "  subgraph cluster_" << item.prefix << " {\n";
    os << "    label=\"" << escapeDotString(item.clusterLabel) << "\";\n";
    os << "    style=dashed; color=\"#888888\";\n";
  }
  llvm::DenseMap<const Value *, std::string> ids;
  emitInputs(item, ids);
  if (!g.getInputs().empty())
    anchors[&g] = item.prefix + "_in0";

  unsigned index = 0;
  for (const Node &node : g.getNodes()) {
    std::string id = item.prefix + "_n" + std::to_string(index++);
    if (!anchors.count(&g))
      anchors[&g] = id;
    emitNode(id, node, indent);
    // Operand edges; a producer with several results names the value.
    node.forEachOperand([&](Use *u) {
      const Value *v = u->get();
      auto it = ids.find(v);
      if (it == ids.end())
        return;
      os.indent(indent) << it->second << " -> " << id;
      const Node *producer = v->getDefiningNode();
      if (producer && producer->getResults().size() > 1)
        os << " [label=\"" << escapeDotString(v->getName()) << "\"]";
      os << ";\n";
    });
    for (Value *v : node.getResults())
      ids[v] = id;
    for (const NamedArgument &in : node.getInputs()) {
      if (in.arg.getKind() != ArgKind::Graph || !in.arg.getGraphArg().graph)
        continue;
      const Argument::GraphArg &ga = in.arg.getGraphArg();
      std::string prefix = "g" + std::to_string(worklist.size());
      worklist.push_back(
          GraphItem{ga.graph.get(), prefix,
                    ga.name.str() + " (" + node.getName().str() + ")"});
      subgraphEdges.push_back(
          SubgraphEdge{id, worklist.size() - 1, ga.name.str()});
    }
  }
  emitOutputs(item, ids);
  if (!anchors.count(&g)) {
    anchors[&g] = item.prefix + "_empty";
    os.indent(indent) << item.prefix
                      << "_empty [label=\"(empty)\", shape=plaintext];\n";
  }
  if (!topLevel)
    os << "  }\n";
}

void DotWriter::run() {
  os << "digraph program {\n";
  os << "  compound=true;\n";
  os << "  rankdir=TB;\n";
  os << "  graph [fontname=\"Helvetica\", fontsize=11];\n";
  os << "  node [fontname=\"Helvetica\", fontsize=10];\n";
  os << "  edge [fontname=\"Helvetica\", fontsize=9, color=\"#555555\"];\n";
  worklist.push_back(GraphItem{&ep.getGraph(), "g0", ""});
  for (size_t i = 0; i < worklist.size(); ++i) {
    GraphItem item = worklist[i];
    emitGraph(item);
  }
  for (const SubgraphEdge &edge : subgraphEdges) {
    const GraphItem &item = worklist[edge.item];
    os << "  " << edge.from << " -> " << anchors[item.graph]
       << " [style=dashed, lhead=cluster_" << item.prefix << ", label=\""
       << escapeDotString(edge.name) << "\"];\n";
  }
  os << "}\n";
}

} // namespace

void emitDot(llvm::raw_ostream &os, const ExportedProgram &ep,
             const EmitOptions &options) {
  DotWriter(os, ep, options).run();
}

} // namespace pt2ir
