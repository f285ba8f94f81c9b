//===- RegistryOptions.cpp - Operator schemas from the command line -------===//

#include "pt2ir/tools/lib/RegistryOptions.h"

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

llvm::Expected<std::unique_ptr<OperatorRegistry>>
buildRegistry(const std::vector<std::string> &opSchemaFiles,
              const std::vector<std::string> &extensionFiles) {
  auto registry = std::make_unique<OperatorRegistry>();
  for (const std::string &file : opSchemaFiles)
    if (auto err = forEachSchemaLine(file, [&](llvm::StringRef line, unsigned) {
          return registry->registerSchema(line);
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
    if (auto err = registry->registerExtension(std::move(*handler)))
      return err;
  }
  return registry;
}

} // namespace pt2ir
