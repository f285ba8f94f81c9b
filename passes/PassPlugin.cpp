//===- PassPlugin.cpp - Passes and schemas from shared libraries ----------===//
//
// Opens a plugin with llvm::sys::DynamicLibrary, finds its entry point,
// checks the API version and runs its registration.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/passes/PassPlugin.h"

#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"

namespace pt2ir {

static llvm::Error pluginError(llvm::StringRef path, const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "cannot load pass plugin '" + path + "': " + what);
}

llvm::Expected<LoadedPassPlugin> loadPassPlugin(llvm::StringRef path, Registry &registry) {
  if (!llvm::sys::fs::exists(path))
    return pluginError(path, "no such file");
  if (llvm::sys::fs::is_directory(path))
    return pluginError(path, "it is a directory, not a shared library");
  std::string message;
  llvm::sys::DynamicLibrary library =
      llvm::sys::DynamicLibrary::getPermanentLibrary(path.str().c_str(), &message);
  if (!library.isValid())
    return pluginError(path, message.empty() ? std::string("not a loadable shared library") : message);
  void *entry = library.getAddressOfSymbol("pt2irGetPassPluginInfo");
  if (!entry)
    return pluginError(path, "it does not define the entry point pt2irGetPassPluginInfo() "
                             "(see pt2ir/passes/PassPlugin.h)");
  auto getInfo = reinterpret_cast<PassPluginInfo (*)()>(entry);
  PassPluginInfo info = getInfo();
  if (info.apiVersion != PT2IR_PLUGIN_API_VERSION)
    return pluginError(path, "it was built for plugin API version " + llvm::Twine(info.apiVersion) +
                                 ", but this pt2ir has version " +
                                 llvm::Twine(PT2IR_PLUGIN_API_VERSION) +
                                 "; rebuild it against this pt2ir");
  if (!info.registerWith)
    return pluginError(path, "its plugin info has no registration function");
  LoadedPassPlugin loaded{path.str(), info.name ? info.name : "", info.version ? info.version : ""};
  if (llvm::Error err = info.registerWith(registry))
    return pluginError(path, "plugin '" + loaded.name + "' failed to register: " +
                                 llvm::toString(std::move(err)));
  return loaded;
}

} // namespace pt2ir
