//===- OpEffects.cpp - Which nodes may be erased when unused --------------===//
//
// The fixed lists follow the side-effecting functions torch.fx keeps
// (upstream-notes §8.1); everything with a schema is decided by the schema.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/passes/OpEffects.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

namespace pt2ir {

namespace {

constexpr llvm::StringLiteral kOpsPrefix = "torch.ops.";
constexpr llvm::StringLiteral kHopPrefix = "torch.ops.higher_order.";

/// Splits `torch.ops.<ns>.<op>.<overload>` into `<ns>.<op>`; returns the
/// input unchanged for anything else. `#ns:op` becomes `ns.op`.
std::string namespaceAndOp(llvm::StringRef target) {
  if (target.consume_front("#")) {
    auto [ns, op] = target.split(':');
    return (ns + "." + op).str();
  }
  if (!target.consume_front(kOpsPrefix))
    return target.str();
  auto [ns, rest] = target.split('.');
  size_t lastDot = rest.rfind('.');
  llvm::StringRef op =
      lastDot == llvm::StringRef::npos ? rest : rest.take_front(lastDot);
  return (ns + "." + op).str();
}

/// Operator-module functions that write their first argument.
bool isMutatingPythonOperator(llvm::StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases("setitem", "delitem", "iadd", "iand", "iconcat", "ifloordiv", true)
      .Cases("ilshift", "imod", "imul", "imatmul", "ior", "ipow", true)
      .Cases("irshift", "isub", "itruediv", "ixor", true)
      .Default(false);
}

/// Higher-order ops that only compute from their operands and subgraphs.
bool isFunctionalHop(llvm::StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases("cond", "map_impl", "map", "while_loop", "scan", true)
      .Cases("associative_scan", "invoke_subgraph", "wrap_with_autocast", true)
      .Cases("wrap_with_set_grad_enabled", "auto_functionalized",
             "auto_functionalized_v2", "triton_kernel_wrapper_functional", true)
      .Cases("flex_attention", "flex_attention_backward", "strict_mode",
             "out_dtype", "hints_wrapper", true)
      .Cases("run_const_graph", "invoke_quant", "invoke_quant_packed", true)
      .Default(false);
}

/// Non-operator callables that are pure (sym arithmetic and friends).
bool isPureTorchFunction(llvm::StringRef target) {
  if (target.ends_with(".cast_symbool_to_symint_guardless") ||
      target == "cast_symbool_to_symint_guardless")
    return true;
  return llvm::StringSwitch<bool>(target)
      .Cases("torch.sym_not", "torch.sym_int", "torch.sym_float",
             "torch.sym_ite", "torch.sym_max", true)
      .Cases("torch.sym_min", "torch.sym_sqrt", "torch.sym_sum",
             "torch._sym_sqrt", true)
      .Cases("builtins.round", "round", "builtins.abs", "abs", true)
      .Default(false);
}

/// Non-operator callables with side effects other than checking.
bool isSideEffectTorchFunction(llvm::StringRef target) {
  return llvm::StringSwitch<bool>(target)
      .Cases("torch._C._set_grad_enabled",
             "torch.autograd.grad_mode.set_grad_enabled", true)
      .Cases("torch.amp.autocast_mode._enter_autocast",
             "torch.amp.autocast_mode._exit_autocast", true)
      .Cases("torch.amp._enter_autocast", "torch.amp._exit_autocast", true)
      .Default(false);
}

/// `<ns>.<op>` of operators that act by side effect; assert ops are listed
/// in isAssertOp.
bool isSideEffectOp(llvm::StringRef nsAndOp) {
  return llvm::StringSwitch<bool>(nsAndOp)
      .Cases("profiler._record_function_enter",
             "profiler._record_function_enter_new",
             "profiler._record_function_exit", true)
      .Cases("inductor.accumulate_grad_", "inductor.resize_storage_bytes_",
             true)
      .Default(false);
}

bool isAssertOp(llvm::StringRef nsAndOp) {
  return llvm::StringSwitch<bool>(nsAndOp)
      .Cases("aten._assert_scalar", "aten._assert_async",
             "aten._assert_tensor_metadata", true)
      .Cases("aten.sym_constrain_range", "aten.sym_constrain_range_for_size",
             true)
      .Default(false);
}

} // namespace

llvm::StringRef describeNodeEffect(NodeEffect effect) {
  switch (effect) {
  case NodeEffect::None:
    return "pure";
  case NodeEffect::MutatesArgument:
    return "mutates an argument";
  case NodeEffect::NoOutputs:
    return "defines no value";
  case NodeEffect::Assert:
    return "is a runtime assert";
  case NodeEffect::SideEffect:
    return "has a side effect";
  case NodeEffect::Random:
    return "is a random op";
  case NodeEffect::UnknownTarget:
    return "has an unknown target";
  case NodeEffect::ImpureBody:
    return "has an impure subgraph";
  }
  return "unknown effect";
}

OpEffects::OpEffects(const Registry &registry, EffectsPolicy policy)
    : policy(policy), operators(registry.getOperators()) {}

OpEffects::~OpEffects() = default;

bool OpEffects::isAssertTarget(llvm::StringRef target) {
  if (target == "torch._assert" || target == "torch._assert_async" ||
      target == "torch._check" || target == "torch._check_is_size")
    return true;
  if (!target.starts_with(kOpsPrefix))
    return false;
  return isAssertOp(namespaceAndOp(target));
}

bool OpEffects::isHigherOrderTarget(llvm::StringRef target) {
  return target.starts_with(kHopPrefix);
}

NodeEffect OpEffects::computeOpOverloadEffect(llvm::StringRef target) const {
  std::string nsAndOp = namespaceAndOp(target);
  if (isSideEffectOp(nsAndOp))
    return NodeEffect::SideEffect;
  const OperatorSchema *schema = operators.lookupTarget(target);
  if (!schema)
    return NodeEffect::UnknownTarget;
  if (schema->isMutable())
    return NodeEffect::MutatesArgument;
  if (schema->returns().empty())
    return NodeEffect::NoOutputs;
  if (policy.randomIsImpure &&
      schema->hasTag(OperatorTag::NondeterministicSeeded))
    return NodeEffect::Random;
  return NodeEffect::None;
}

NodeEffect OpEffects::computeTargetEffect(llvm::StringRef target) const {
  if (isAssertTarget(target))
    return policy.assertsArePure ? NodeEffect::None : NodeEffect::Assert;
  if (isHigherOrderTarget(target)) {
    llvm::StringRef hop = target.drop_front(kHopPrefix.size());
    if (hop == "call_torchbind" || hop == "with_effects")
      return NodeEffect::SideEffect;
    if (hop == "triton_kernel_wrapper_mutation")
      return NodeEffect::MutatesArgument;
    return isFunctionalHop(hop) ? NodeEffect::None : NodeEffect::UnknownTarget;
  }
  if (target.starts_with(kOpsPrefix) || target.starts_with("#"))
    return computeOpOverloadEffect(target);
  llvm::StringRef opName = target;
  if (opName.consume_front("_operator.") || opName.consume_front("operator."))
    return isMutatingPythonOperator(opName) ? NodeEffect::SideEffect
                                            : NodeEffect::None;
  if (target.starts_with("math."))
    return NodeEffect::None;
  if (isPureTorchFunction(target))
    return NodeEffect::None;
  if (isSideEffectTorchFunction(target))
    return NodeEffect::SideEffect;
  return NodeEffect::UnknownTarget;
}

NodeEffect OpEffects::getTargetEffect(llvm::StringRef target) {
  auto it = targetCache.find(target);
  if (it != targetCache.end())
    return it->second;
  NodeEffect effect = computeTargetEffect(target);
  targetCache[target] = effect;
  return effect;
}

NodeEffect OpEffects::getEffect(const Node &node) { return getEffect(node, 0); }

NodeEffect OpEffects::getEffect(const Node &node, unsigned depth) {
  llvm::StringRef target = node.getTarget();
  NodeEffect effect = getTargetEffect(target);
  if (effect != NodeEffect::None)
    return effect;
  // A removable assert defines nothing; that must not keep it.
  if (policy.assertsArePure && isAssertTarget(target))
    return NodeEffect::None;
  if (node.getResults().empty())
    return NodeEffect::NoOutputs;
  for (const NamedArgument &in : node.getInputs())
    if (in.arg.getKind() == ArgKind::Token)
      return NodeEffect::SideEffect;
  if (policy.hopImpureBodies && isHigherOrderTarget(target))
    for (const Graph *body : node.getSubgraphs())
      if (graphHasEffects(*body, depth + 1))
        return NodeEffect::ImpureBody;
  return NodeEffect::None;
}

bool OpEffects::graphHasEffects(const Graph &graph) {
  return graphHasEffects(graph, 0);
}

bool OpEffects::graphHasEffects(const Graph &graph, unsigned depth) {
  if (depth > kMaxEffectsSubgraphDepth)
    return true;
  auto it = graphCache.find(&graph);
  if (it != graphCache.end())
    return it->second;
  bool hasEffects = llvm::any_of(graph.getNodes(), [&](const Node &n) {
    return getEffect(n, depth) != NodeEffect::None;
  });
  graphCache[&graph] = hasEffects;
  return hasEffects;
}

} // namespace pt2ir
