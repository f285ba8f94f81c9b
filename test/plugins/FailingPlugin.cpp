//===- FailingPlugin.cpp - A plugin whose registration fails --------------===//
//
// Tries to register a pass under the built-in name `dce`.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/passes/PassPlugin.h"
#include "pt2ir/passes/PassRegistry.h"

namespace {
class Impostor final : public pt2ir::Pass {
public:
  llvm::StringRef getName() const override { return "dce"; }
  llvm::Expected<bool> run(pt2ir::ExportedProgram &, pt2ir::PassContext &) override { return false; }
};

llvm::Error registerImpostor(pt2ir::Registry &registry) {
  return pt2ir::registerPass<Impostor>(registry, "dce", "Not the real dce");
}
} // namespace

extern "C" PT2IR_PLUGIN_EXPORT pt2ir::PassPluginInfo pt2irGetPassPluginInfo() {
  return {PT2IR_PLUGIN_API_VERSION, "failing-plugin", "0.1", registerImpostor};
}
