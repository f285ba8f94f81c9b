//===- RegistryOptions.cpp - The registry from the command line -----------===//

#include "pt2ir/tools/lib/RegistryOptions.h"
#include "pt2ir/passes/PassPlugin.h"
#include "pt2ir/treespec/TreespecDeclarations.h"
#include "pt2ir/treespec/TreespecRegistry.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MemoryBuffer.h"

namespace pt2ir {

/// The schema lines of a file, with their line numbers.
static llvm::Error forEachSchemaLine(
    const std::string &file,
    llvm::function_ref<llvm::Error(llvm::StringRef line, unsigned lineNo)> fn) {
  auto buffer = llvm::MemoryBuffer::getFile(file);
  if (!buffer)
    return llvm::createStringError(buffer.getError(), "%s: error: cannot read schema file: %s",
                                   file.c_str(), buffer.getError().message().c_str());
  llvm::SmallVector<llvm::StringRef, 32> lines;
  (*buffer)->getBuffer().split(lines, '\n');
  for (unsigned i = 0; i < lines.size(); ++i) {
    llvm::StringRef line = lines[i].trim();
    if (line.empty() || line.starts_with("#"))
      continue;
    if (auto err = fn(line, i + 1))
      return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s:%u: error: %s", file.c_str(),
                                     i + 1, llvm::toString(std::move(err)).c_str());
  }
  return llvm::Error::success();
}

namespace cl = llvm::cl;

RegistryCLOptions::RegistryCLOptions(cl::OptionCategory &category)
    : passPlugins("load-pass-plugin",
                  cl::desc("Load a pass plugin (a shared library) that registers passes, "
                           "operator schemas and extension namespaces"),
                  cl::value_desc("path"), cl::cat(category)),
      opSchemas("op-schemas",
                cl::desc("Register custom operator schemas, one per line (mylib::op(Tensor x) -> Tensor)"),
                cl::value_desc("file"), cl::cat(category)),
      extensionSchemas("extension-schemas",
                       cl::desc("Register extension namespaces for '#ns:op' targets from schemas, one per line"),
                       cl::value_desc("file"), cl::cat(category)),
      allowUnregisteredExtensions(
          "allow-unregistered-extensions",
          cl::desc("Accept '#ns:op' targets of unregistered namespaces: read them as opaque "
                   "strings and verify them with a warning instead of an error"),
          cl::cat(category)),
      treespecTypes("treespec-types",
                    cl::desc("Declare the pytree node types, dataclasses and namedtuple classes that "
                             "in_spec/out_spec name, one per line (type mymod.C | dataclass mymod.D "
                             "x,y [return-none-fields] | namedtuple mymod.P x,y)"),
                    cl::value_desc("file"), cl::cat(category)) {}

std::vector<std::string> findPassPluginArgs(int argc, char **argv) {
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (arg == "--")
      break;
    if (!arg.consume_front("--"))
      if (!arg.consume_front("-"))
        continue;
    if (!arg.consume_front("load-pass-plugin"))
      continue;
    if (arg.consume_front("="))
      paths.push_back(arg.str());
    else if (arg.empty() && i + 1 < argc)
      paths.push_back(argv[++i]);
  }
  return paths;
}

llvm::Error loadPluginsFromArgs(int argc, char **argv, Registry &registry) {
  for (const std::string &path : findPassPluginArgs(argc, argv)) {
    auto loaded = loadPassPlugin(path, registry);
    if (!loaded)
      return llvm::createStringError(llvm::inconvertibleErrorCode(), "error: " +
                                                                         llvm::toString(loaded.takeError()));
  }
  return llvm::Error::success();
}

llvm::Error applyRegistryOptions(const RegistryCLOptions &flags, Registry &registry) {
  registry.setAllowUnregisteredExtensions(flags.allowUnregisteredExtensions);
  if (auto err = registerSchemaFiles(registry, {flags.opSchemas.begin(), flags.opSchemas.end()},
                                     {flags.extensionSchemas.begin(), flags.extensionSchemas.end()}))
    return err;
  return registerTreespecTypeFiles(registry, {flags.treespecTypes.begin(), flags.treespecTypes.end()});
}

llvm::Error registerTreespecTypeFiles(Registry &registry, const std::vector<std::string> &files) {
  if (files.empty())
    return llvm::Error::success();
  TreespecTypeRegistry &types = registry.getOrCreate<TreespecTypeRegistry>();
  for (const std::string &file : files) {
    auto buffer = llvm::MemoryBuffer::getFile(file, /*IsText=*/true);
    if (!buffer)
      return llvm::createStringError(buffer.getError(), "%s: error: cannot read treespec types file: %s",
                                     file.c_str(), buffer.getError().message().c_str());
    if (auto err = registerTreespecDeclarations((*buffer)->getBuffer(), file, types))
      return err;
  }
  return llvm::Error::success();
}

llvm::Error registerSchemaFiles(Registry &registry, const std::vector<std::string> &opSchemaFiles,
                                const std::vector<std::string> &extensionFiles) {
  OperatorRegistry &operators = registry.getOperators();
  for (const std::string &file : opSchemaFiles)
    if (auto err = forEachSchemaLine(file, [&](llvm::StringRef line, unsigned) {
          return operators.registerSchema(line);
        }))
      return err;

  // Extension schemas are grouped by namespace into one handler each.
  std::vector<std::pair<std::string, std::vector<std::string>>> byNamespace;
  for (const std::string &file : extensionFiles)
    if (auto err = forEachSchemaLine(file, [&](llvm::StringRef line, unsigned) -> llvm::Error {
          size_t sep = line.find("::");
          if (sep == llvm::StringRef::npos)
            return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                           "expected a qualified schema 'namespace::op(...) -> ...', got '%s'",
                                           line.str().c_str());
          std::string ns = line.take_front(sep).str();
          auto it = llvm::find_if(byNamespace, [&](const auto &e) { return e.first == ns; });
          if (it == byNamespace.end())
            it = byNamespace.insert(byNamespace.end(), {ns, {}});
          it->second.push_back(line.str());
          return llvm::Error::success();
        }))
      return err;
  for (auto &entry : byNamespace) {
    std::vector<llvm::StringRef> schemas(entry.second.begin(), entry.second.end());
    auto handler = SchemaTableExtension::create(entry.first, schemas);
    if (!handler)
      return handler.takeError();
    if (auto err = operators.registerExtension(std::move(*handler)))
      return err;
  }
  return llvm::Error::success();
}

} // namespace pt2ir
