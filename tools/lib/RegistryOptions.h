//===- RegistryOptions.h - Operator schemas from the command line -*- C++ -*-===//
//
// `--op-schemas=FILE` registers custom operators (`mylib::custom_relu(Tensor
// x) -> Tensor`, one per line) reachable as `torch.ops.mylib.custom_relu...`;
// `--extension-schemas=FILE` registers ExecuTorch-style extension namespaces
// whose operators are targeted as `#namespace:op_name`. Blank lines and lines
// starting with `#` are ignored.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_TOOLS_REGISTRYOPTIONS_H
#define PT2IR_TOOLS_REGISTRYOPTIONS_H

#include "pt2ir/ir/OperatorRegistry.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace pt2ir {

/// Builds a registry with the schemas of `opSchemaFiles` registered as custom
/// operators and those of `extensionFiles` as extension namespaces.
llvm::Expected<std::unique_ptr<OperatorRegistry>>
buildRegistry(const std::vector<std::string> &opSchemaFiles,
              const std::vector<std::string> &extensionFiles);

} // namespace pt2ir

#endif
