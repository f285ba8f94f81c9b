//===- ValueRewiring.cpp - Replace and rename values program-wide ---------===//
//
// ExportedProgram::replaceAllUsesWith and renameValue: the graph change plus
// the names the signature and the module call graph hold for top-level
// values (detached slots, compared by name). Subgraph values are named by
// nothing outside their graph, so for them these are the graph operations.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/ir/ExportedProgram.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace pt2ir {

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Renames the detached slots of `arg` that hold `oldName`.
static void renameSlots(const Argument &arg, llvm::StringRef oldName, llvm::StringRef newName) {
  arg.forEachUse([&](Use *u) {
    if (u->getRole() == UseRole::Detached && !u->get() && u->getName() == oldName)
      u->setDetachedName(newName);
  });
}

/// Calls `fn` on every argument outside the graph that names top-level
/// values: specs first, then module-call signatures. `isResult` tells
/// whether the argument names a result (an output) rather than an input.
static void forEachNamingArgument(ExportedProgram &ep,
                                  llvm::function_ref<void(const Argument &, bool isResult)> fn) {
  for (const InputSpec &spec : ep.graphModule.signature.inputSpecs)
    fn(spec.arg, false);
  for (const OutputSpec &spec : ep.graphModule.signature.outputSpecs)
    fn(spec.arg, true);
  for (const ModuleCallEntry &entry : ep.graphModule.moduleCallGraph) {
    if (!entry.signature)
      continue;
    for (const Argument &arg : entry.signature->inputs)
      fn(arg, false);
    for (const Argument &arg : entry.signature->outputs)
      fn(arg, true);
  }
}

llvm::Error ExportedProgram::replaceAllUsesWith(Value *from, Value *to) {
  if (!from || !to)
    return makeError("replaceAllUsesWith: a value is null");
  if (from->getGraph() != to->getGraph())
    return makeError("cannot replace '" + from->getName() + "' with '" + to->getName() +
                     "': they belong to different graphs");
  if (from->getType() != to->getType())
    return makeError("cannot replace " + valueTypeName(from->getType()) + " '" + from->getName() +
                     "' with " + valueTypeName(to->getType()) + " '" + to->getName() + "'");
  if (from == to)
    return llvm::Error::success();
  from->replaceAllUsesWith(to);
  if (from->getGraph() != &getGraph())
    return llvm::Error::success();
  llvm::StringRef oldName = from->getName(), newName = to->getName();
  bool fromIsInput = from->isGraphInput();
  forEachNamingArgument(*this, [&](const Argument &arg, bool isResult) {
    if (isResult || !fromIsInput)
      renameSlots(arg, oldName, newName);
  });
  return llvm::Error::success();
}

llvm::Error ExportedProgram::renameValue(Value *v, llvm::StringRef newName) {
  if (!v)
    return makeError("renameValue: the value is null");
  Graph *graph = v->getGraph();
  llvm::StringRef oldName = v->getName();
  if (auto err = graph->renameValue(v, newName))
    return err;
  newName = v->getName(); // Interned.
  if (Node *def = v->getDefiningNode())
    if (def->getStoredName() == oldName)
      def->setStoredName(newName);
  if (graph != &getGraph())
    return llvm::Error::success();
  forEachNamingArgument(*this, [&](const Argument &arg, bool) { renameSlots(arg, oldName, newName); });
  for (OutputSpec &spec : graphModule.signature.outputSpecs)
    if ((spec.kind == OutputKind::UserInputMutation || spec.kind == OutputKind::GradientToUserInput) &&
        spec.target == oldName)
      spec.target = newName;
  return llvm::Error::success();
}

} // namespace pt2ir
