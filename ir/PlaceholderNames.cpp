//===- PlaceholderNames.cpp - A name for every graph input ----------------===//

#include "pt2ir/ir/PlaceholderNames.h"

#include "llvm/ADT/StringSet.h"

namespace pt2ir {

std::vector<std::string> placeholderNames(const Graph &g, const GraphSignature *signature) {
  const auto &inputs = g.getInputs();
  std::vector<std::string> names(inputs.size());
  llvm::StringSet<> taken;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (Value *v = inputs[i].getSingleValue()) {
      names[i] = v->getName().str();
    } else if (signature && i < signature->inputSpecs.size()) {
      const InputSpec &spec = signature->inputSpecs[i];
      llvm::StringRef specName = spec.getArgName();
      if (!specName.empty())
        names[i] = specName.str();
    }
    if (!names[i].empty())
      taken.insert(names[i]);
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!names[i].empty())
      continue;
    std::string candidate = "arg" + std::to_string(i);
    for (unsigned k = 1; taken.contains(candidate) || g.lookupValue(candidate); ++k)
      candidate = "arg" + std::to_string(i) + "_" + std::to_string(k);
    taken.insert(candidate);
    names[i] = candidate;
  }
  return names;
}

} // namespace pt2ir
