//===- ExportedProgram.cpp - A whole serialized program -------------------===//

#include "pt2ir/ir/ExportedProgram.h"

namespace pt2ir {

ExportedProgram::ExportedProgram(std::shared_ptr<const Registry> registry)
    : ExportedProgram(std::make_shared<IRContext>(std::move(registry))) {}

ExportedProgram::ExportedProgram(std::shared_ptr<IRContext> c) : ctx(std::move(c)) {
  graphModule.graph = std::make_unique<Graph>(*ctx);
}

const RangeConstraint *ExportedProgram::findRangeConstraint(llvm::StringRef symbol) const {
  for (auto &entry : rangeConstraints)
    if (entry.first == symbol)
      return &entry.second;
  return nullptr;
}

static std::vector<Argument> cloneArgs(IRContext &ctx, const std::vector<Argument> &args) {
  std::vector<Argument> out;
  out.reserve(args.size());
  for (const Argument &a : args)
    out.push_back(a.clone(ctx));
  return out;
}

ExportedProgram ExportedProgram::clone() const {
  ExportedProgram copy(ctx);
  IRContext &c = *ctx;
  copy.graphModule.graph = graphModule.graph->clone();
  for (const InputSpec &s : graphModule.signature.inputSpecs) {
    InputSpec d;
    d.kind = s.kind;
    d.arg = s.arg.clone(c);
    d.target = s.target;
    d.persistent = s.persistent;
    d.extras = s.extras;
    d.unknownKey = s.unknownKey;
    d.unknownJson = s.unknownJson;
    copy.graphModule.signature.inputSpecs.push_back(std::move(d));
  }
  for (const OutputSpec &s : graphModule.signature.outputSpecs) {
    OutputSpec d;
    d.kind = s.kind;
    d.arg = s.arg.clone(c);
    d.target = s.target;
    d.extras = s.extras;
    d.unknownKey = s.unknownKey;
    d.unknownJson = s.unknownJson;
    copy.graphModule.signature.outputSpecs.push_back(std::move(d));
  }
  copy.graphModule.signature.extras = graphModule.signature.extras;
  for (const ModuleCallEntry &e : graphModule.moduleCallGraph) {
    ModuleCallEntry d;
    d.fqn = e.fqn;
    d.extras = e.extras;
    if (e.signature) {
      ModuleCallSignature sig;
      sig.inputs = cloneArgs(c, e.signature->inputs);
      sig.outputs = cloneArgs(c, e.signature->outputs);
      sig.inSpec = e.signature->inSpec;
      sig.outSpec = e.signature->outSpec;
      sig.forwardArgNames = e.signature->forwardArgNames;
      sig.extras = e.signature->extras;
      d.signature = std::move(sig);
    }
    copy.graphModule.moduleCallGraph.push_back(std::move(d));
  }
  copy.graphModule.metadata = graphModule.metadata;
  copy.graphModule.treespecNamedtupleFields = graphModule.treespecNamedtupleFields;
  copy.graphModule.extras = graphModule.extras;
  copy.opsetVersion = opsetVersion;
  copy.rangeConstraints = rangeConstraints;
  copy.schemaVersion = schemaVersion;
  copy.verifiers = verifiers;
  copy.torchVersion = torchVersion;
  copy.guardsCode = guardsCode;
  copy.extras = extras;
  return copy;
}

} // namespace pt2ir
