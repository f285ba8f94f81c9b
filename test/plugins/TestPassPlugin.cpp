//===- TestPassPlugin.cpp - A pass plugin for the lit tests --------------===//
//
// Loaded with `pt2-opt --load-pass-plugin`. Registers:
//  - the pass `test-tag-nodes{tag=STR}`, which sets `test_tag: STR` in the
//    metadata of every aten node and counts them (`nodes-tagged`);
//  - the extension namespace `testext` with
//    `testext::scale(Tensor x, float factor) -> Tensor`;
//  - the pytree node type `testplugin.Box` and the dataclass
//    `testplugin.Pair` (fields a, b), which in_spec/out_spec may name.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/ir/ExportedProgram.h"
#include "pt2ir/passes/PassPlugin.h"
#include "pt2ir/passes/PassRegistry.h"
#include "pt2ir/treespec/TreespecRegistry.h"

namespace {

class TagNodesPass final : public pt2ir::Pass {
public:
  llvm::StringRef getName() const override { return "test-tag-nodes"; }

  llvm::Error setOptions(const pt2ir::PassOptions &options) override {
    for (const auto &[name, value] : options) {
      if (name != "tag")
        return pt2ir::makeUnknownPassOptionError(getName(), name);
      tag = value;
    }
    return llvm::Error::success();
  }

  llvm::Expected<bool> run(pt2ir::ExportedProgram &ep, pt2ir::PassContext &) override {
    int64_t tagged = 0;
    for (pt2ir::Node &node : ep.getGraph().getNodes()) {
      if (!node.getTarget().starts_with("torch.ops.aten."))
        continue;
      pt2ir::setMetadata(node.getMetadata(), ep.intern("test_tag"), ep.intern(tag));
      ++tagged;
    }
    addStatistic("nodes-tagged", tagged);
    return tagged > 0;
  }

private:
  std::string tag = "seen";
};

llvm::Error registerTestPlugin(pt2ir::Registry &registry) {
  auto scale = pt2ir::SchemaTableExtension::create(
      "testext", {"testext::scale(Tensor x, float factor) -> Tensor"});
  if (!scale)
    return scale.takeError();
  if (auto err = registry.getOperators().registerExtension(std::move(*scale)))
    return err;
  auto &treespecTypes = registry.getOrCreate<pt2ir::TreespecTypeRegistry>();
  if (auto err = treespecTypes.registerType("testplugin.Box"))
    return err;
  if (auto err = treespecTypes.registerDataclass("testplugin.Pair", {"a", "b"}))
    return err;
  return pt2ir::registerPass<TagNodesPass>(
      registry, "test-tag-nodes", "Tag every aten node's metadata (a test plugin's pass)",
      {{"tag", "seen", "The value of the test_tag metadata key"}});
}

} // namespace

extern "C" PT2IR_PLUGIN_EXPORT pt2ir::PassPluginInfo pt2irGetPassPluginInfo() {
  return {PT2IR_PLUGIN_API_VERSION, "test-plugin", "1.0", registerTestPlugin};
}
