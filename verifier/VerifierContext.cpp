//===- VerifierContext.cpp - Layout of the program and the findings -------===//
//
// Computes, in one walk, the JSON path and program-order position of every
// graph and node, and collects findings. No rules live here.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/verifier/VerifierContext.h"

#include <algorithm>

namespace pt2ir::verifier {

/// Hard limit on subgraph nesting, whatever the options say, so the layout
/// walk's recursion stays shallow.
static constexpr unsigned HardMaxSubgraphDepth = 256;
/// Room for sub-positions (argument indices) inside one position unit.
static constexpr unsigned SubBits = 20;

VerifierContext::VerifierContext(const ExportedProgram &program,
                                 const VerifyOptions &options)
    : ep(program), opts(options),
      registryPtr(&program.getRegistry().getOperators()) {
  nodeInfos.reserve(ep.getGraph().size());
  layOut(ep.getGraph(), "graph_module.graph", 0);
  sectionsUnit = nextUnit;
}

void VerifierContext::layOut(const Graph &g, std::string path, unsigned depth) {
  graphList.push_back(&g);
  GraphLayout &gl = graphLayouts[&g];
  gl.path = path;
  gl.depth = depth;
  gl.inputsUnit = nextUnit;
  nextUnit += g.getInputs().size();
  unsigned maxDepth = std::min(opts.maxSubgraphDepth, HardMaxSubgraphDepth);
  unsigned index = 0;
  for (const Node &n : g.getNodes()) {
    NodeInfo &info = nodeInfos[&n];
    info.index = index;
    info.unit = nextUnit++;
    info.graph = &g;
    const auto &inputs = n.getInputs();
    bool reportedDepth = false;
    for (size_t i = 0; i < inputs.size(); ++i) {
      const Argument &arg = inputs[i].arg;
      if (arg.getKind() != ArgKind::Graph || !arg.getGraphArg().graph)
        continue;
      if (depth + 1 > maxDepth) {
        if (!reportedDepth)
          tooDeep.push_back(&n);
        reportedDepth = true;
        continue;
      }
      std::string subPath = path + ".nodes[" + std::to_string(index) +
                            "].inputs[" + std::to_string(i) +
                            "].arg.as_graph.graph";
      layOut(*arg.getGraphArg().graph, std::move(subPath), depth + 1);
    }
    ++index;
  }
  // `gl` may have moved while subgraphs were added to the map.
  GraphLayout &after = graphLayouts[&g];
  after.outputsUnit = nextUnit;
  nextUnit += g.getOutputs().size();
  after.tablesUnit = nextUnit++;
}

uint64_t VerifierContext::encode(uint64_t unit, uint64_t sub) {
  uint64_t maxSub = (uint64_t(1) << SubBits) - 1;
  return (unit << SubBits) | std::min(sub, maxSub);
}

const GraphLayout &VerifierContext::layout(const Graph &g) const {
  auto it = graphLayouts.find(&g);
  assert(it != graphLayouts.end() && "graph outside the program");
  return it->second;
}

const VerifierContext::NodeInfo *
VerifierContext::findNode(const Node &n) const {
  if (lastNode == &n)
    return lastNodeInfo;
  auto it = nodeInfos.find(&n);
  lastNode = &n;
  lastNodeInfo = it == nodeInfos.end() ? nullptr : &it->second;
  return lastNodeInfo;
}

VerifierContext::TargetEntry &
VerifierContext::targetEntry(llvm::StringRef target) const {
  auto [it, inserted] =
      targets.try_emplace(std::make_pair(target.data(), target.size()));
  if (inserted)
    it->second.info = classifyTarget(target);
  return it->second;
}

const OperatorSchema *VerifierContext::schemaOf(const Node &n) const {
  TargetEntry &entry = targetEntry(n.getTarget());
  if (!entry.schemaLooked) {
    entry.schema = registryPtr->lookupTarget(n.getTarget());
    entry.schemaLooked = true;
  }
  return entry.schema;
}

unsigned VerifierContext::nodeIndex(const Node &n) const {
  const NodeInfo *info = findNode(n);
  return info ? info->index : 0;
}

std::string VerifierContext::nodePath(const Node &n) const {
  const NodeInfo *info = findNode(n);
  if (!info)
    return "<detached node>";
  return layout(*info->graph).path + ".nodes[" + std::to_string(info->index) +
         "]";
}

std::string VerifierContext::nodeInputPath(const Node &n, size_t i) const {
  return nodePath(n) + ".inputs[" + std::to_string(i) + "].arg";
}

std::string VerifierContext::nodeOutputPath(const Node &n, size_t i) const {
  return nodePath(n) + ".outputs[" + std::to_string(i) + "]";
}

uint64_t VerifierContext::nodeOrder(const Node &n, unsigned sub) const {
  const NodeInfo *info = findNode(n);
  return encode(info ? info->unit : 0, sub);
}

std::string VerifierContext::graphInputPath(const Graph &g, size_t i) const {
  return layout(g).path + ".inputs[" + std::to_string(i) + "]";
}

uint64_t VerifierContext::graphInputOrder(const Graph &g, size_t i) const {
  return encode(layout(g).inputsUnit + i, 0);
}

std::string VerifierContext::graphOutputPath(const Graph &g, size_t i) const {
  return layout(g).path + ".outputs[" + std::to_string(i) + "]";
}

uint64_t VerifierContext::graphOutputOrder(const Graph &g, size_t i) const {
  return encode(layout(g).outputsUnit + i, 0);
}

std::string VerifierContext::tablePath(const Graph &g, llvm::StringRef table,
                                       llvm::StringRef key) const {
  return layout(g).path + "." + table.str() + "." + key.str();
}

uint64_t VerifierContext::tableOrder(const Graph &g, unsigned sub) const {
  return encode(layout(g).tablesUnit, sub);
}

uint64_t VerifierContext::sectionOrder(Section section, size_t index) const {
  return encode(sectionsUnit + static_cast<unsigned>(section), index);
}

void VerifierContext::report(Severity severity, llvm::StringRef rule,
                             std::string path, llvm::StringRef nodeName,
                             uint64_t order, const llvm::Twine &message) {
  Diagnostic d;
  d.severity = severity;
  d.jsonPath = std::move(path);
  d.nodeName = nodeName.str();
  d.rule = rule.str();
  d.message = message.str();
  d.order = order;
  diags.push_back(std::move(d));
}

std::vector<Diagnostic> VerifierContext::takeDiagnostics() {
  sortDiagnostics(diags);
  return std::move(diags);
}

} // namespace pt2ir::verifier
