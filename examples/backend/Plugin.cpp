//===- Plugin.cpp - mybackend as a pt2-opt pass plugin --------------------===//
//
//   pt2-opt --load-pass-plugin=liblibMyBackendPlugin.so \
//           --pass-pipeline=mybackend-fuse-linear-relu model.json
//
//===----------------------------------------------------------------------===//

#include "MyBackend.h"

#include "pt2ir/passes/PassPlugin.h"

extern "C" PT2IR_PLUGIN_EXPORT pt2ir::PassPluginInfo pt2irGetPassPluginInfo() {
  return {PT2IR_PLUGIN_API_VERSION, "mybackend", "0.1", mybackend::registerMyBackend};
}
