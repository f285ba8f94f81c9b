//===- Pass.cpp - Defaults of the Pass interface --------------------------===//
//
// The default option handling: a pass that declares no options accepts an
// empty option list and rejects anything else with the list of options the
// registry knows for it.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/passes/Pass.h"
#include "pt2ir/passes/PassRegistry.h"

namespace pt2ir {

llvm::Error Pass::setOptions(const PassOptions &options) {
  if (options.empty())
    return llvm::Error::success();
  return makeUnknownPassOptionError(getName(), options.front().first);
}

} // namespace pt2ir
