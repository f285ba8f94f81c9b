//===- SymbolicOpChecks.cpp - The layout of symbolic-op nodes -------------===//
//
// Checks every node whose target is in the symbolic-op set (`_operator.add`,
// `_operator.eq`, `math.trunc`, `torch.sym_max`, ...; see
// ir/SymbolicOps.h) in every graph (subgraphs included) against the way
// torch serializes them:
//  - symbolic-op-layout: every input is positional (a stored `kind` is 1),
//    and the node has exactly one output, an `as_sym_int`, `as_sym_bool` or
//    `as_sym_float` argument. A symbolic op whose value is a plain number
//    (`torch._check(s0 == 4)` makes an `eq` that is always true) still
//    writes its output that way, with a constant table entry.
//
// Nodes that are symbolic only by value (`aten.sym_size.int` returning a
// SymInt) are operator overloads: their outputs are checked against the
// schema (schema-outputs, SchemaArgumentChecks.cpp).
//
// Runs always, like the structural checks.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/ir/SymbolicOps.h"
#include "pt2ir/verifier/Checks.h"

namespace pt2ir::verifier {

namespace {

bool isSymMember(ArgKind kind) {
  return kind == ArgKind::SymInt || kind == ArgKind::SymBool ||
         kind == ArgKind::SymFloat;
}

void checkSymbolicOp(VerifierContext &ctx, const Node &n) {
  llvm::StringRef name = n.getName();
  const auto &inputs = n.getInputs();
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].kind && *inputs[i].kind != 1)
      ctx.error("symbolic-op-layout",
                ctx.nodePath(n) + ".inputs[" + std::to_string(i) + "].kind",
                name, ctx.nodeOrder(n, unsigned(i)),
                "symbolic op '" + n.getTarget() + "' passes input " +
                    llvm::Twine(unsigned(i)) + " ('" + inputs[i].name +
                    "') with kind " + llvm::Twine(*inputs[i].kind) +
                    "; symbolic ops take positional inputs (kind 1)");

  const auto &outputs = n.getOutputs();
  unsigned outputOrder = unsigned(inputs.size());
  if (outputs.size() != 1) {
    ctx.error("symbolic-op-layout", ctx.nodePath(n) + ".outputs", name,
              ctx.nodeOrder(n, outputOrder),
              "symbolic op '" + n.getTarget() + "' has " +
                  llvm::Twine(unsigned(outputs.size())) +
                  " outputs; it defines exactly one (as_sym_int, "
                  "as_sym_bool or as_sym_float)");
    return;
  }
  ArgKind member = outputs[0].getKind();
  if (!isSymMember(member))
    ctx.error("symbolic-op-layout", ctx.nodeOutputPath(n, 0), name,
              ctx.nodeOrder(n, outputOrder),
              "symbolic op '" + n.getTarget() + "' defines its output as " +
                  (member == ArgKind::Unknown
                       ? std::string("an unknown member")
                       : argKindMemberName(member).str()) +
                  "; it must be as_sym_int, as_sym_bool or as_sym_float");
}

} // namespace

void checkSymbolicOps(VerifierContext &ctx) {
  for (const Graph *g : ctx.graphs())
    for (const Node &n : g->getNodes())
      if (isSymbolicOpTarget(n.getTarget()))
        checkSymbolicOp(ctx, n);
}

} // namespace pt2ir::verifier
