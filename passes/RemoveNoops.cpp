//===- RemoveNoops.cpp - Erase ops that provably do nothing ---------------===//
//
// The `remove-noops` pass replaces the result of an op that provably returns
// its input unchanged by that input, and erases the op:
//
//   - `view`, `reshape`, `_unsafe_view`, `expand` whose result has the
//     input's shape;
//   - `_to_copy` whose result has the input's dtype, device, layout and
//     strides; `clone` whose result has the input's strides (no memory
//     format change);
//   - `alias`; `detach` when the program is not a training program;
//   - `slice` with step 1 whose result has the input's shape (the whole
//     dimension);
//   - `add`/`sub` of a scalar 0 and `mul`/`div` by a scalar 1 whose result
//     has the input's dtype and shape (no type promotion, no broadcast).
//
// Shapes and strides are compared from the metadata: equal when both are
// static and equal, or both symbolic and the same expression.
//
// Ops that make a new tensor (`clone`, `_to_copy` and the arithmetic ones)
// are removed only when neither their input nor their result may be
// written: no op writes a value that may share memory with either
// (passes/AliasClasses.h). No op is
// removed when its result is a graph output and its input may share memory
// with a graph input: the output would then alias an input.
//
// Not here: folding chains of views into one, or any other rewrite that
// changes an op rather than dropping it.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/passes/AliasClasses.h"
#include "pt2ir/passes/OpEffects.h"
#include "pt2ir/passes/PassRegistry.h"
#include "pt2ir/passes/Passes.h"
#include "pt2ir/rewrite/ValueReplacer.h"

#include "pt2ir/ir/OperatorRegistry.h"
#include "pt2ir/ir/OperatorSchema.h"
#include "pt2ir/ir/SymbolicExpr.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"

namespace pt2ir {

namespace {

constexpr unsigned kMaxNoopDepth = 256;

enum class NoopKind : uint8_t {
  NotNoop,
  SameShapeView, // view, reshape, _unsafe_view, expand
  ToCopy,
  Clone,
  Alias,
  Detach,
  Slice,
  AddZero, // add, sub
  MulOne,  // mul, div
};

NoopKind classifyTarget(llvm::StringRef target) {
  return llvm::StringSwitch<NoopKind>(target)
      .Cases("torch.ops.aten.view.default", "torch.ops.aten.reshape.default",
             "torch.ops.aten._unsafe_view.default",
             "torch.ops.aten.expand.default", NoopKind::SameShapeView)
      .Case("torch.ops.aten._to_copy.default", NoopKind::ToCopy)
      .Case("torch.ops.aten.clone.default", NoopKind::Clone)
      .Case("torch.ops.aten.alias.default", NoopKind::Alias)
      .Case("torch.ops.aten.detach.default", NoopKind::Detach)
      .Case("torch.ops.aten.slice.Tensor", NoopKind::Slice)
      .Cases("torch.ops.aten.add.Tensor", "torch.ops.aten.add.Scalar",
             "torch.ops.aten.sub.Tensor", "torch.ops.aten.sub.Scalar",
             NoopKind::AddZero)
      .Cases("torch.ops.aten.mul.Tensor", "torch.ops.aten.mul.Scalar",
             "torch.ops.aten.div.Tensor", "torch.ops.aten.div.Scalar",
             NoopKind::MulOne)
      .Default(NoopKind::NotNoop);
}

/// True when the op makes a fresh tensor that removal would turn into an
/// alias of its input.
bool makesCopy(NoopKind kind) {
  return kind == NoopKind::ToCopy || kind == NoopKind::Clone ||
         kind == NoopKind::AddZero || kind == NoopKind::MulOne;
}

/// Equal when both are static and equal, or both symbolic and the same
/// expression.
bool sameSize(const SymValue &a, const SymValue &b) {
  std::optional<int64_t> sa = a.getStaticInt(), sb = b.getStaticInt();
  if (sa || sb)
    return sa && sb && *sa == *sb;
  if (!a.isExpr() || !b.isExpr())
    return false;
  if (a.expr.exprStr == b.expr.exprStr)
    return true;
  auto ea = a.toExpr();
  if (!ea) {
    llvm::consumeError(ea.takeError());
    return false;
  }
  auto eb = b.toExpr();
  if (!eb) {
    llvm::consumeError(eb.takeError());
    return false;
  }
  return *ea == *eb;
}

bool sameSizes(llvm::ArrayRef<SymValue> a, llvm::ArrayRef<SymValue> b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!sameSize(a[i], b[i]))
      return false;
  return true;
}

/// The scalar constant of argument `name`, when it is an int or float.
std::optional<double> scalarArg(const Node &node, llvm::StringRef name) {
  const NamedArgument *in = node.findInput(name);
  if (!in)
    return std::nullopt;
  if (auto i = in->arg.getIfInt(); i && in->arg.getKind() == ArgKind::Int)
    return double(*i);
  if (in->arg.getKind() == ArgKind::Float)
    return in->arg.getFloat();
  return std::nullopt;
}

struct NoopStats {
  int64_t removed = 0;
  int64_t keptOutputAliasesInput = 0;
  int64_t keptMutated = 0;
};

class NoopRemover {
public:
  NoopRemover(ExportedProgram &ep, NoopStats &stats)
      : ep(ep), operators(ep.getRegistry().getOperators()),
        effects(ep.getRegistry()), stats(stats), replacer(ep),
        training(llvm::is_contained(ep.verifiers, "TRAINING") ||
                 hasTrainingOutputs(ep)) {}

  llvm::Error run(Graph &graph, unsigned depth) {
    if (depth > kMaxNoopDepth)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "remove-noops: subgraphs nested deeper "
                                     "than " +
                                         llvm::Twine(kMaxNoopDepth) + " levels");
    aliases.addGraph(graph, operators, effects);
    for (auto it = graph.begin(); it != graph.end();) {
      Node &node = *it++;
      for (Graph *body : node.getSubgraphs())
        if (auto err = run(*body, depth + 1))
          return err;
      Value *input = nullptr;
      NoopKind kind = matchNoop(node, input);
      if (kind == NoopKind::NotNoop)
        continue;
      Value *result = node.getSingleResult();
      if (isGraphOutput(*result) && aliases.mayAliasGraphInput(input)) {
        ++stats.keptOutputAliasesInput;
        continue;
      }
      if (makesCopy(kind) &&
          (aliases.isMutated(input) || aliases.isMutated(result))) {
        ++stats.keptMutated;
        continue;
      }
      if (&graph == &ep.getGraph()) {
        if (auto err = replacer.replaceAllUsesWith(result, input))
          return err;
      } else {
        result->replaceAllUsesWith(input);
      }
      aliases.join(input, result);
      if (auto err = graph.eraseNode(&node))
        return err;
      ++stats.removed;
    }
    return llvm::Error::success();
  }

private:
  static bool hasTrainingOutputs(const ExportedProgram &ep) {
    for (const OutputSpec &spec : ep.graphModule.signature.outputSpecs)
      if (spec.kind == OutputKind::LossOutput ||
          spec.kind == OutputKind::GradientToParameter ||
          spec.kind == OutputKind::GradientToUserInput)
        return true;
    return false;
  }

  static bool isGraphOutput(const Value &v) {
    for (const Use *u : v.uses())
      if (u->getOutputOwner())
        return true;
    return false;
  }

  /// The tensor value of input `name`, or null.
  static Value *tensorInput(const Node &node, llvm::StringRef name) {
    const NamedArgument *in = node.findInput(name);
    if (!in || in->arg.getKind() != ArgKind::Tensor)
      return nullptr;
    return in->arg.getSingleValue();
  }

  NoopKind matchNoop(const Node &node, Value *&input) {
    NoopKind kind = classifyTarget(node.getTarget());
    if (kind == NoopKind::NotNoop)
      return kind;
    input = tensorInput(node, "self");
    Value *result = node.getSingleResult();
    if (!input || !result || result->getType() != ValueType::Tensor)
      return NoopKind::NotNoop;
    const TensorMeta *in = input->getTensorMeta();
    const TensorMeta *out = result->getTensorMeta();
    if (!in || !out)
      return NoopKind::NotNoop;
    bool sameShape = sameSizes(in->sizes, out->sizes);
    bool sameType = in->dtype == out->dtype && in->layout == out->layout &&
                    in->device == out->device;
    switch (kind) {
    case NoopKind::SameShapeView:
    case NoopKind::Alias:
      return sameShape && sameType ? kind : NoopKind::NotNoop;
    case NoopKind::ToCopy:
    case NoopKind::Clone:
      return sameShape && sameType && sameSizes(in->strides, out->strides)
                 ? kind
                 : NoopKind::NotNoop;
    case NoopKind::Detach:
      return !training && sameShape && sameType ? kind : NoopKind::NotNoop;
    case NoopKind::Slice: {
      std::optional<double> step = scalarArg(node, "step");
      bool unitStep = !node.findInput("step") || (step && *step == 1);
      return unitStep && sameShape && sameType ? kind : NoopKind::NotNoop;
    }
    case NoopKind::AddZero:
    case NoopKind::MulOne: {
      std::optional<double> other = scalarArg(node, "other");
      double identity = kind == NoopKind::AddZero ? 0.0 : 1.0;
      if (!other || *other != identity)
        return NoopKind::NotNoop;
      return sameShape && sameType ? kind : NoopKind::NotNoop;
    }
    case NoopKind::NotNoop:
      break;
    }
    return NoopKind::NotNoop;
  }

  ExportedProgram &ep;
  const OperatorRegistry &operators;
  OpEffects effects;
  NoopStats &stats;
  ValueReplacer replacer;
  bool training;
  AliasClasses aliases;
};

class RemoveNoopsPass final : public Pass {
public:
  llvm::StringRef getName() const override { return "remove-noops"; }

  llvm::Expected<bool> run(ExportedProgram &ep, PassContext &) override {
    NoopStats stats;
    NoopRemover remover(ep, stats);
    if (auto err = remover.run(ep.getGraph(), 0))
      return err;
    addStatistic("nodes-removed", stats.removed);
    addStatistic("kept-output-would-alias-input", stats.keptOutputAliasesInput);
    addStatistic("kept-copy-of-mutated-value", stats.keptMutated);
    return stats.removed > 0;
  }
};

} // namespace

std::unique_ptr<Pass> createRemoveNoopsPass() {
  return std::make_unique<RemoveNoopsPass>();
}

} // namespace pt2ir
