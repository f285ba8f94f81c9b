//===- RegistryOptions.h - The registry from the command line ---*- C++ -*-===//
//
// The flags that fill the one Registry (ir/Registry.h) a driver reads,
// verifies, runs passes and prints against:
//
//   --load-pass-plugin=PATH      a shared library that registers passes,
//                                schemas and namespaces (passes/PassPlugin.h)
//   --op-schemas=FILE            custom operators (`mylib::custom_relu(Tensor
//                                x) -> Tensor`, one per line), reachable as
//                                `torch.ops.mylib.custom_relu...`
//   --extension-schemas=FILE     ExecuTorch-style extension namespaces whose
//                                operators are targeted as `#namespace:op`
//   --allow-unregistered-extensions
//                                accept `#ns:op` of unregistered namespaces
//   --treespec-types=FILE        pytree node types, dataclasses and namedtuple
//                                classes that in_spec/out_spec name
//                                (treespec/TreespecDeclarations.h), kept in
//                                the registry's TreespecTypeRegistry slot
//                                where the verifier finds them
//
// In the schema files, blank lines and lines starting with `#` are ignored.
// Plugins are loaded before the command line is parsed (loadPluginsFromArgs),
// so that their passes get flags and appear in --help.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_TOOLS_REGISTRYOPTIONS_H
#define PT2IR_TOOLS_REGISTRYOPTIONS_H

#include "pt2ir/ir/Registry.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace pt2ir {

/// The registry flags. Construct one before llvm::cl::ParseCommandLineOptions.
struct RegistryCLOptions {
  explicit RegistryCLOptions(llvm::cl::OptionCategory &category);

  llvm::cl::list<std::string> passPlugins;
  llvm::cl::list<std::string> opSchemas;
  llvm::cl::list<std::string> extensionSchemas;
  llvm::cl::opt<bool> allowUnregisteredExtensions;
  llvm::cl::list<std::string> treespecTypes;
};

/// The values of every `--load-pass-plugin` in `argv` (`=PATH` or a
/// separate PATH argument, one or two dashes), in order.
std::vector<std::string> findPassPluginArgs(int argc, char **argv);

/// Loads every plugin `findPassPluginArgs` finds into `registry`.
llvm::Error loadPluginsFromArgs(int argc, char **argv, Registry &registry);

/// Registers the schemas of `opSchemaFiles` as custom operators and those of
/// `extensionFiles` as extension namespaces. Errors name `FILE:LINE`.
llvm::Error registerSchemaFiles(Registry &registry,
                                const std::vector<std::string> &opSchemaFiles,
                                const std::vector<std::string> &extensionFiles);

/// Registers the declarations of every file of `files` (the format of
/// treespec/TreespecDeclarations.h) in the registry's TreespecTypeRegistry
/// slot. Errors name `FILE:LINE`.
llvm::Error registerTreespecTypeFiles(Registry &registry,
                                      const std::vector<std::string> &files);

/// Applies the parsed flags (all but the plugins, loaded earlier) to
/// `registry`.
llvm::Error applyRegistryOptions(const RegistryCLOptions &flags,
                                 Registry &registry);

} // namespace pt2ir

#endif
