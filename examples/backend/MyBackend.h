//===- MyBackend.h - An example backend built on pt2ir ----------*- C++ -*-===//
//
// The example backend `mybackend`: an ExecuTorch-style extension namespace
// with one operator,
//
//   mybackend::linear_relu(Tensor input, Tensor weight, Tensor? bias=None)
//       -> Tensor
//
// and the pass `mybackend-fuse-linear-relu`, which rewrites
// `relu(linear(input, weight, bias))` and `relu(addmm(bias, input,
// t(weight)))` into one call of it. registerMyBackend() adds both to a
// Registry; the standalone tool and the pass plugin share it.
//
//===----------------------------------------------------------------------===//
#ifndef MYBACKEND_MYBACKEND_H
#define MYBACKEND_MYBACKEND_H

#include "pt2ir/ir/Registry.h"

#include "llvm/Support/Error.h"

#include <memory>

namespace pt2ir {
class Pass;
} // namespace pt2ir

namespace mybackend {

/// The name of the fusion pass.
inline constexpr const char *FusePassName = "mybackend-fuse-linear-relu";

/// Registers the `mybackend` namespace and the fusion pass in `registry`.
llvm::Error registerMyBackend(pt2ir::Registry &registry);

/// Creates the fusion pass (FuseLinearRelu.cpp).
std::unique_ptr<pt2ir::Pass> createFuseLinearReluPass();

} // namespace mybackend

#endif
