//===- TorchbindChecks.cpp - The layout of call_torchbind nodes -----------===//
//
// Checks every `torch.ops.higher_order.call_torchbind` node of every graph
// (subgraphs included) against the layout torch gives it,
// `(obj, method, *args, **kwargs)`:
//  - call-torchbind: the node has at least two inputs; the first is the
//    object, an `as_custom_obj` argument with a non-empty name, and the
//    second the method name, a non-empty `as_string`; neither is passed by
//    keyword (`kind` 2).
//
// The object names a custom-object value (a graph input of custom_obj kind,
// or an object a node returns) or, when nothing defines the name, a
// constant; that an `as_custom_obj` argument names a value of another kind
// is reported by value-kind-mismatch (StructureChecks.cpp), not repeated
// here. The remaining arguments are the method's own and are not checked:
// pt2ir has no schemas of TorchBind classes.
//
// Runs always, like the structural checks: a node that breaks the layout
// cannot be executed under any dialect.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/verifier/Checks.h"
#include "pt2ir/verifier/Targets.h"

namespace pt2ir::verifier {

namespace {

/// `as_tensor`, `as_string`, ... for a message.
std::string memberOf(const Argument &arg) {
  if (arg.getKind() == ArgKind::Unknown)
    return "an unknown member";
  return argKindMemberName(arg.getKind()).str();
}

void checkTorchbindCall(VerifierContext &ctx, const Node &n) {
  llvm::StringRef name = n.getName();
  const auto &inputs = n.getInputs();
  if (inputs.size() < 2) {
    ctx.error("call-torchbind", ctx.nodePath(n) + ".inputs", name,
              ctx.nodeOrder(n),
              "call_torchbind takes (obj, method, *args, **kwargs), but the "
              "node has " +
                  llvm::Twine(unsigned(inputs.size())) +
                  (inputs.size() == 1 ? " input" : " inputs"));
    if (inputs.empty())
      return;
  }

  // The object.
  const NamedArgument &obj = inputs[0];
  if (obj.isKeyword())
    ctx.error("call-torchbind", ctx.nodePath(n) + ".inputs[0].kind", name,
              ctx.nodeOrder(n, 0),
              "the object of call_torchbind is passed by keyword ('" +
                  obj.name + "'); it must be the first positional input");
  if (obj.arg.getKind() != ArgKind::CustomObj)
    ctx.error("call-torchbind", ctx.nodeInputPath(n, 0), name,
              ctx.nodeOrder(n, 0),
              "the first input of call_torchbind must be the object "
              "(as_custom_obj), but it is " +
                  memberOf(obj.arg));
  else if (!obj.arg.getCustomObj().ref ||
           obj.arg.getCustomObj().ref->getName().empty())
    ctx.error("call-torchbind", ctx.nodeInputPath(n, 0) + ".as_custom_obj.name",
              name, ctx.nodeOrder(n, 0),
              "the object of call_torchbind has an empty name");

  if (inputs.size() < 2)
    return;

  // The method name.
  const NamedArgument &method = inputs[1];
  if (method.isKeyword())
    ctx.error("call-torchbind", ctx.nodePath(n) + ".inputs[1].kind", name,
              ctx.nodeOrder(n, 1),
              "the method name of call_torchbind is passed by keyword ('" +
                  method.name + "'); it must be the second positional input");
  if (method.arg.getKind() != ArgKind::String)
    ctx.error("call-torchbind", ctx.nodeInputPath(n, 1), name,
              ctx.nodeOrder(n, 1),
              "the second input of call_torchbind must be the method name "
              "(as_string), but it is " +
                  memberOf(method.arg));
  else if (method.arg.getString().empty())
    ctx.error("call-torchbind", ctx.nodeInputPath(n, 1), name,
              ctx.nodeOrder(n, 1),
              "the method name of call_torchbind is empty");
}

} // namespace

void checkTorchbindCalls(VerifierContext &ctx) {
  for (const Graph *g : ctx.graphs())
    for (const Node &n : g->getNodes()) {
      const TargetInfo &target = ctx.targetInfo(n);
      if (target.kind == TargetKind::HigherOrder &&
          target.op == "call_torchbind")
        checkTorchbindCall(ctx, n);
    }
}

} // namespace pt2ir::verifier
