//===- ValueReplacer.cpp - Replace many values, program-wide, fast --------===//

#include "pt2ir/rewrite/ValueReplacer.h"

namespace pt2ir {

ValueReplacer::ValueReplacer(ExportedProgram &ep) : ep(ep) {
  auto collect = [&](const Argument &arg) {
    arg.forEachUse([&](Use *u) { named.insert(ep.intern(u->getName())); });
  };
  for (const InputSpec &spec : ep.graphModule.signature.inputSpecs)
    collect(spec.arg);
  for (const OutputSpec &spec : ep.graphModule.signature.outputSpecs)
    collect(spec.arg);
  for (const ModuleCallEntry &entry : ep.graphModule.moduleCallGraph) {
    if (!entry.signature)
      continue;
    for (const Argument &arg : entry.signature->inputs)
      collect(arg);
    for (const Argument &arg : entry.signature->outputs)
      collect(arg);
  }
}

llvm::Error ValueReplacer::replaceAllUsesWith(Value *from, Value *to) {
  bool plain = from && to && from != to && from->getGraph() == to->getGraph() &&
               from->getType() == to->getType() &&
               (from->getGraph() != &ep.getGraph() ||
                !named.contains(from->getName()));
  if (plain) {
    from->replaceAllUsesWith(to);
    return llvm::Error::success();
  }
  if (auto err = ep.replaceAllUsesWith(from, to))
    return err;
  named.insert(to->getName());
  return llvm::Error::success();
}

} // namespace pt2ir
