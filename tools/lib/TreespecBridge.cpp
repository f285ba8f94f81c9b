//===- TreespecBridge.cpp - Treespec leaf counts for the verifier ---------===//

#include "pt2ir/tools/lib/TreespecBridge.h"

#include "pt2ir/treespec/Treespec.h"
#include "pt2ir/treespec/TreespecRegistry.h"

#include <memory>

namespace pt2ir {

std::function<std::optional<size_t>(llvm::StringRef)>
makeTreespecLeafCounter(const ExportedProgram &ep) {
  auto registry = std::make_shared<TreespecTypeRegistry>();
  for (const auto &entry : ep.graphModule.treespecNamedtupleFields) {
    std::vector<std::string> fields;
    for (llvm::StringRef f : entry.second.fieldNames)
      fields.push_back(f.str());
    llvm::consumeError(registry->registerNamedtuple(entry.first, fields));
  }
  return [registry](llvm::StringRef spec) -> std::optional<size_t> {
    auto parsed = parseTreespec(spec, *registry);
    if (!parsed) {
      llvm::consumeError(parsed.takeError());
      return std::nullopt;
    }
    return parsed->getNumLeaves();
  };
}

} // namespace pt2ir
