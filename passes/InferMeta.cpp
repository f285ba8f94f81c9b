//===- InferMeta.cpp - Fill and check output metadata from the rules ------===//
//
// The `infer-meta` pass. Walks every graph (subgraphs included) in program
// order and, for each node whose target has a shape and dtype rule
// (infer/Rules.def):
//  - fills the tensor_values / sym_int_values entries its outputs lack, so
//    a later node can be inferred from them;
//  - with `check` (the default), compares the entries it did not fill with
//    what the rule gives, and fails on the first contradiction (dtype,
//    rank, a size or a known stride), naming the node, the field and both
//    values. Symbolic sizes whose equality cannot be decided under the range
//    constraints are counted (`undecided`), not errors.
//
// Statistics: `filled` (values given metadata), `checked` (nodes compared),
// `undecided`, `no-rule` (nodes without a rule, left alone).
//
// Deliberately not done: re-inferring values that have metadata (it is
// checked, never replaced), and nodes without a rule (they need metadata
// already).
//
//===----------------------------------------------------------------------===//

#include "pt2ir/passes/PassRegistry.h"
#include "pt2ir/passes/Passes.h"

#include "pt2ir/infer/MetaInference.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace pt2ir {

namespace {

constexpr unsigned kMaxDepth = 256;

class InferMetaPass final : public Pass {
public:
  llvm::StringRef getName() const override { return "infer-meta"; }

  llvm::Error setOptions(const PassOptions &options) override {
    for (const auto &[name, value] : options) {
      auto flag = parseBoolPassOption(getName(), name, value);
      if (!flag)
        return flag.takeError();
      if (name == "check")
        check = *flag;
      else
        return makeUnknownPassOptionError(getName(), name);
    }
    return llvm::Error::success();
  }

  llvm::Expected<bool> run(ExportedProgram &ep, PassContext &) override {
    infer::InferenceSession session(&ep);
    bool changed = false;
    if (auto err = runOn(ep.getGraph(), session, changed, 0))
      return err;
    return changed;
  }

private:
  llvm::Error runOn(Graph &g, infer::InferenceSession &session, bool &changed,
                    unsigned depth) {
    if (depth > kMaxDepth)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "infer-meta: subgraphs nested deeper than %u levels",
                                     kMaxDepth);
    for (Node &n : g.getNodes()) {
      for (Graph *sub : n.getSubgraphs())
        if (auto err = runOn(*sub, session, changed, depth + 1))
          return err;
      if (!infer::findRule(n.getTarget())) {
        addStatistic("no-rule");
        continue;
      }
      // What had metadata before filling is what gets checked.
      llvm::SmallPtrSet<const Value *, 4> had;
      for (Value *v : n.getResults())
        if (v->getTensorMeta() || v->getSymIntMeta())
          had.insert(v);
      if (auto err = infer::fillMissingMeta(n, session))
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       "infer-meta: " + llvm::toString(std::move(err)));
      for (Value *v : n.getResults())
        if (!had.count(v) && (v->getTensorMeta() || v->getSymIntMeta())) {
          addStatistic("filled");
          changed = true;
        }
      if (check)
        if (auto err = checkNode(n, session, had))
          return err;
    }
    return llvm::Error::success();
  }

  llvm::Error checkNode(const Node &n, infer::InferenceSession &session,
                        const llvm::SmallPtrSetImpl<const Value *> &had) {
    if (had.empty())
      return llvm::Error::success();
    infer::InferResult r = session.infer(n);
    if (r.status == infer::InferStatus::MissingInput)
      return llvm::Error::success();
    if (r.status == infer::InferStatus::Failed)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          ("infer-meta: node '" + n.getName() + "' (" + n.getTarget() +
           "): the inputs contradict the operator: " + r.message)
              .str());
    addStatistic("checked");
    for (const infer::OutputMismatch &o : session.compareOutputs(n, r)) {
      if (o.value && !had.count(o.value))
        continue;
      if (o.mismatch.undecided) {
        addStatistic("undecided");
        continue;
      }
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          ("infer-meta: node '" + n.getName() + "' (" + n.getTarget() + "): " +
           (o.value ? "output '" + o.value->getName().str() + "': " : std::string()) +
           o.mismatch.field + " is recorded as " + o.mismatch.recorded +
           " but the operator gives " + o.mismatch.inferred)
              .str());
    }
    return llvm::Error::success();
  }

  bool check = true;
};

} // namespace

std::unique_ptr<Pass> createInferMetaPass() {
  return std::make_unique<InferMetaPass>();
}

} // namespace pt2ir
