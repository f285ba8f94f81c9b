//===- MyBackend.cpp - Register the example backend -----------------------===//

#include "MyBackend.h"

#include "pt2ir/passes/PassRegistry.h"

namespace mybackend {

llvm::Error registerMyBackend(pt2ir::Registry &registry) {
  auto ops = pt2ir::SchemaTableExtension::create(
      "mybackend",
      {"mybackend::linear_relu(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor"});
  if (!ops)
    return ops.takeError();
  if (llvm::Error err = registry.getOperators().registerExtension(std::move(*ops)))
    return err;
  return pt2ir::registerPass(
      registry, pt2ir::PassInfo{FusePassName,
                                "Fuse linear (or addmm of a transposed weight) followed by relu "
                                "into mybackend::linear_relu",
                                {},
                                createFuseLinearReluPass});
}

} // namespace mybackend
