//===- MetaChecks.cpp - Recorded metadata against operator semantics ------===//
//
// For every node whose target has a shape/dtype rule (infer/Rules.def), in
// every graph, infers its results from its inputs' recorded metadata and
// compares them with the recorded metadata of its outputs:
//  - meta-mismatch (error): the dtype, the rank, a size or (where the rule
//    knows them) a stride differs, or a list output has the wrong number of
//    values. Symbolic sizes are compared as simplified expressions under
//    the range constraints; when equality cannot be decided the finding is a
//    warning, never an error.
//  - meta-invalid-inputs (error): the inputs' metadata contradict the
//    operator (`mm` of [2, 3] and [4, 5], a dim out of range).
//
// Nodes without a rule, and nodes whose inputs lack metadata, are skipped
// and counted (VerifyOptions::metaCoverage). Runs with the operator checks
// (under a dialect, or with verifyOps / coreAten) unless
// VerifyOptions::checkMeta is off.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/infer/MetaInference.h"
#include "pt2ir/verifier/Checks.h"

namespace pt2ir::verifier {

namespace {

using infer::InferResult;
using infer::InferStatus;

void checkNode(VerifierContext &ctx, infer::InferenceSession &session,
               const Node &n, MetaCoverage *coverage) {
  if (!session.ruleOf(n)) {
    if (coverage) {
      ++coverage->withoutRule;
      coverage->opsWithoutRule.insert(n.getTarget().str());
    }
    return;
  }
  InferResult r = session.infer(n);
  if (r.status == InferStatus::MissingInput) {
    if (coverage)
      ++coverage->missingInput;
    return;
  }
  if (coverage)
    ++coverage->checked;
  if (r.status == InferStatus::Failed) {
    ctx.error("meta-invalid-inputs", ctx.nodePath(n), n.getName(),
              ctx.nodeOrder(n, 1000),
              "the inputs of '" + n.getTarget() +
                  "' contradict the operator: " + r.message);
    return;
  }
  for (const infer::OutputMismatch &o : session.compareOutputs(n, r)) {
    const infer::MetaMismatch &m = o.mismatch;
    std::string msg;
    if (m.field == "count")
      msg = "'" + n.getTarget().str() + "' yields " + m.inferred +
            " tensors but the node records " + m.recorded;
    else
      msg = "output '" + o.value->getName().str() + "' of '" +
            n.getTarget().str() + "': " + m.field + " is recorded as " +
            m.recorded + " but the operator gives " + m.inferred;
    if (m.undecided)
      ctx.warning("meta-mismatch", ctx.nodeOutputPath(n, o.outputIndex),
                  n.getName(), ctx.nodeOrder(n, 1000),
                  msg + " (equality cannot be decided under the range "
                        "constraints)");
    else
      ctx.error("meta-mismatch", ctx.nodeOutputPath(n, o.outputIndex),
                n.getName(), ctx.nodeOrder(n, 1000), msg);
  }
}

} // namespace

void checkMeta(VerifierContext &ctx) {
  infer::InferenceSession session(&ctx.program());
  MetaCoverage *coverage = ctx.options().metaCoverage;
  for (const Graph *g : ctx.graphs())
    for (const Node &n : g->getNodes())
      checkNode(ctx, session, n, coverage);
}

} // namespace pt2ir::verifier
