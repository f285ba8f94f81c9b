//===- WrongVersionPlugin.cpp - A plugin built for another API version ---===//

#include "pt2ir/passes/PassPlugin.h"

static llvm::Error registerNothing(pt2ir::Registry &) { return llvm::Error::success(); }

extern "C" PT2IR_PLUGIN_EXPORT pt2ir::PassPluginInfo pt2irGetPassPluginInfo() {
  return {PT2IR_PLUGIN_API_VERSION + 1000, "future-plugin", "9.9", registerNothing};
}
