//===- main.cpp - A program built against the installed pt2ir -------------===//
//
// Reads a program, runs a pass defined here (outside pt2ir) through the pass
// manager, verifies the result, and writes it:
//
//   pt2ir-consumer IN.json OUT.json
//
// The pass tags every aten node with `consumer_tag` metadata and counts them
// in a statistic. It is registered by name in the run's Registry, so the
// pipeline names it like a built-in pass.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/ir/ExportedProgram.h"
#include "pt2ir/passes/Pass.h"
#include "pt2ir/passes/PassManager.h"
#include "pt2ir/passes/PassRegistry.h"
#include "pt2ir/serde/ProgramReader.h"
#include "pt2ir/serde/ProgramWriter.h"
#include "pt2ir/tools/lib/Stats.h"
#include "pt2ir/verifier/Verifier.h"

#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace {

class TagAtenNodesPass : public pt2ir::Pass {
public:
  llvm::StringRef getName() const override { return "tag-aten-nodes"; }

  llvm::Expected<bool> run(pt2ir::ExportedProgram &ep,
                           pt2ir::PassContext &) override {
    bool changed = false;
    for (pt2ir::Node &node : ep.getGraph().getNodes()) {
      if (!node.getTarget().starts_with("torch.ops.aten."))
        continue;
      pt2ir::setMetadata(node.getMetadata(), ep.intern("consumer_tag"),
                         ep.intern("seen"));
      addStatistic("nodes-tagged");
      changed = true;
    }
    return changed;
  }
};

int fail(llvm::Error err) {
  llvm::errs() << "pt2ir-consumer: " << llvm::toString(std::move(err)) << "\n";
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    llvm::errs() << "usage: pt2ir-consumer IN.json OUT.json\n";
    return 2;
  }
  auto registry = std::make_shared<pt2ir::Registry>();
  if (auto err = pt2ir::registerPass<TagAtenNodesPass>(
          *registry, "tag-aten-nodes", "Tag every aten node"))
    return fail(std::move(err));
  pt2ir::ReadOptions options;
  options.registry = registry;
  auto program = pt2ir::readProgramFile(argv[1], options);
  if (!program)
    return fail(program.takeError());

  pt2ir::PassManager manager(registry);
  if (auto err = manager.addPipeline("tag-aten-nodes,dce"))
    return fail(std::move(err));
  manager.setVerifyHook([](const pt2ir::ExportedProgram &ep) -> llvm::Error {
    auto diags = pt2ir::verifyProgram(ep);
    if (!pt2ir::hasErrors(diags))
      return llvm::Error::success();
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(), "%s",
        pt2ir::formatDiagnosticBody(diags.front()).c_str());
  });
  if (auto err = manager.run(*program))
    return fail(std::move(err));
  for (const pt2ir::PassRunRecord &record : manager.getRunRecords())
    for (const auto &[name, value] : record.statistics)
      llvm::outs() << record.name << ": " << name << " = " << value << "\n";

  pt2ir::ProgramStats stats = pt2ir::computeStats(*program);
  llvm::outs() << "nodes: " << stats.nodeCount << "\n";

  if (auto err =
          pt2ir::writeFileAtomically(argv[2], pt2ir::writeProgram(*program)))
    return fail(std::move(err));
  return 0;
}
