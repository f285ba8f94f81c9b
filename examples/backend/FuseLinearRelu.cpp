//===- FuseLinearRelu.cpp - mybackend-fuse-linear-relu --------------------===//
//
// Fuses `relu(linear(input, weight, bias?))` and
// `relu(addmm(bias, input, t(weight)))` (with beta and alpha at their
// default of 1) into `mybackend::linear_relu(input, weight, bias)`, when the
// linear or addmm result feeds nothing but the relu. The fused call takes
// the relu's place (and its metadata and provenance); the program-level
// replaceAllUsesWith keeps the signature right when the relu was a graph
// output. Dead code elimination then removes what the fusion left unused.
//
//===----------------------------------------------------------------------===//

#include "MyBackend.h"

#include "pt2ir/ir/ExportedProgram.h"
#include "pt2ir/passes/DeadCodeElimination.h"
#include "pt2ir/passes/OpEffects.h"
#include "pt2ir/passes/Pass.h"
#include "pt2ir/rewrite/Builder.h"

#include <vector>

namespace mybackend {
namespace {

using pt2ir::Node;
using pt2ir::Value;

/// The value an input of `node` names, or null (absent, None, a constant).
Value *operand(const Node &node, llvm::StringRef name) {
  const pt2ir::NamedArgument *in = node.findInput(name);
  return in ? in->arg.getSingleValue() : nullptr;
}

/// True when input `name` is absent or the int/float 1.
bool isAbsentOrOne(const Node &node, llvm::StringRef name) {
  const pt2ir::NamedArgument *in = node.findInput(name);
  if (!in)
    return true;
  if (std::optional<int64_t> i = in->arg.getIfInt())
    return *i == 1;
  if (std::optional<double> f = in->arg.getIfFloat())
    return *f == 1.0;
  return false;
}

/// What the fused call takes.
struct LinearOperands {
  Value *input = nullptr;
  Value *weight = nullptr;
  Value *bias = nullptr; // Optional.
};

/// Matches the producer of a relu's operand.
std::optional<LinearOperands> matchLinear(const Node &producer) {
  llvm::StringRef target = producer.getTarget();
  if (target == "torch.ops.aten.linear.default") {
    LinearOperands ops{operand(producer, "input"), operand(producer, "weight"),
                       operand(producer, "bias")};
    if (!ops.input || !ops.weight)
      return std::nullopt;
    return ops;
  }
  if (target != "torch.ops.aten.addmm.default" || !isAbsentOrOne(producer, "beta") ||
      !isAbsentOrOne(producer, "alpha"))
    return std::nullopt;
  Value *transposed = operand(producer, "mat2");
  Node *t = transposed ? transposed->getDefiningNode() : nullptr;
  if (!t || t->getTarget() != "torch.ops.aten.t.default")
    return std::nullopt;
  LinearOperands ops{operand(producer, "mat1"), operand(*t, "self"), operand(producer, "self")};
  if (!ops.input || !ops.weight || !ops.bias)
    return std::nullopt;
  return ops;
}

class FuseLinearReluPass final : public pt2ir::Pass {
public:
  llvm::StringRef getName() const override { return FusePassName; }

  llvm::Expected<bool> run(pt2ir::ExportedProgram &ep, pt2ir::PassContext &) override {
    pt2ir::Graph &graph = ep.getGraph();
    std::vector<Node *> relus;
    for (Node &node : graph.getNodes())
      if (node.getTarget() == "torch.ops.aten.relu.default")
        relus.push_back(&node);

    pt2ir::Builder builder(graph);
    int64_t fused = 0;
    for (Node *relu : relus) {
      Value *x = operand(*relu, "self");
      Value *out = relu->getSingleResult();
      if (!x || !out || !x->hasOneUse() || !x->getDefiningNode())
        continue;
      Node *producer = x->getDefiningNode();
      std::optional<LinearOperands> ops = matchLinear(*producer);
      if (!ops)
        continue;
      builder.setInsertionPointAfter(relu);
      builder.setProvenance({producer, relu}, getName());
      std::vector<pt2ir::BuilderArg> args{ops->input, ops->weight};
      if (ops->bias)
        args.emplace_back(ops->bias);
      auto call = builder.createValue("mybackend::linear_relu", args, {},
                                      pt2ir::NodeOptions::like(out));
      if (!call)
        return call.takeError();
      if (llvm::Error err = ep.replaceAllUsesWith(out, *call))
        return err;
      ++fused;
    }
    addStatistic("fused-linear-relu", fused);
    if (fused == 0)
      return false;
    pt2ir::OpEffects effects(ep.getRegistry());
    auto cleaned = pt2ir::eliminateDeadCode(graph, effects);
    if (!cleaned)
      return cleaned.takeError();
    addStatistic("nodes-erased", cleaned->nodesErased);
    return true;
  }
};

} // namespace

std::unique_ptr<pt2ir::Pass> createFuseLinearReluPass() {
  return std::make_unique<FuseLinearReluPass>();
}

} // namespace mybackend
