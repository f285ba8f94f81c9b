//===- PassPlugin.h - Passes and schemas from shared libraries ---*- C++ -*-===//
//
// A pass plugin is a shared library that adds passes, operator schemas,
// extension namespaces or anything else a Registry holds, the way
// `mlir-opt --load-pass-plugin` and LLVM's `opt --load-pass-plugin` load
// theirs. It exports one C function,
//
//   extern "C" PT2IR_PLUGIN_EXPORT pt2ir::PassPluginInfo
//   pt2irGetPassPluginInfo() {
//     return {PT2IR_PLUGIN_API_VERSION, "mybackend", "0.1",
//             [](pt2ir::Registry &registry) -> llvm::Error { ... }};
//   }
//
// and loadPassPlugin() opens it, checks that it was built for this API
// version, and calls its registration function on a registry. A missing
// file, a library without the entry point, a version mismatch and a failed
// registration are all errors that name the plugin. A plugin whose
// registration fails may have registered part of what it meant to, so a
// caller should give up on that registry (pt2-opt exits).
//
// The host program must export its symbols (pt2-opt is linked with
// -rdynamic), so the plugin's calls into pt2ir land in the host's copy and
// both agree on one registry.
//
// This file does not unload plugins: a loaded library stays for the life of
// the process, since passes it registered may run at any time.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_PASSES_PASSPLUGIN_H
#define PT2IR_PASSES_PASSPLUGIN_H

#include "pt2ir/ir/Registry.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

/// The plugin interface version. Bumped whenever a change to pt2ir's API or
/// ABI would make a plugin built against an older version misbehave.
#define PT2IR_PLUGIN_API_VERSION 1

/// Marks the entry point of a plugin as exported from its shared library.
#define PT2IR_PLUGIN_EXPORT __attribute__((visibility("default")))

namespace pt2ir {

/// What a plugin's `pt2irGetPassPluginInfo()` returns.
struct PassPluginInfo {
  /// PT2IR_PLUGIN_API_VERSION as the plugin saw it when it was built.
  uint32_t apiVersion;
  /// A short name for messages ("mybackend").
  const char *name;
  /// The plugin's own version text.
  const char *version;
  /// Registers the plugin's passes, schemas and namespaces.
  llvm::Error (*registerWith)(Registry &registry);
};

/// A plugin that loaded: its file and what it said about itself.
struct LoadedPassPlugin {
  std::string path;
  std::string name;
  std::string version;
};

/// Loads the plugin at `path` and lets it register into `registry`.
llvm::Expected<LoadedPassPlugin> loadPassPlugin(llvm::StringRef path,
                                                Registry &registry);

} // namespace pt2ir

/// The entry point every plugin defines.
extern "C" pt2ir::PassPluginInfo pt2irGetPassPluginInfo();

#endif
