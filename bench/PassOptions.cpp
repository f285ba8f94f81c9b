//===- PassOptions.cpp - The options the benchmark runs passes with -------===//

#include "pt2ir/bench/PassOptions.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

namespace pt2ir {
namespace bench {
namespace {

constexpr const char *kPatterns = R"(pattern addmm-to-linear {
  match(%bias, %x, %w) {
    %wt = aten.t.default(%w)
    %out = aten.addmm.default(%bias, %x, %wt)
    return %out
  }
  replace {
    %lin = aten.linear.default(%x, %w, %bias)
    return %lin
  }
}
)";

constexpr const char *kSupported = R"(// The generated transformer's ops but mm and bmm.
aten._softmax.*
aten._unsafe_view.*
aten.add.*
aten.addmm.*
aten.arange.*
aten.bitwise_not.*
aten.clone.*
aten.embedding.*
aten.expand.*
aten.gelu.*
aten.masked_fill.*
aten.mul.*
aten.native_layer_norm.*
aten.slice.*
aten.split.*
aten.sym_size.*
aten.t.*
aten.transpose.*
aten.view.*
)";

/// Writes `text` to `<temp dir>/pt2-bench-<pid>-<name>` once; returns the
/// path.
llvm::Expected<std::string> writeOnce(llvm::StringRef name, llvm::StringRef text) {
  llvm::SmallString<256> path;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, path);
  llvm::sys::path::append(path, "pt2-bench-" +
                                    std::to_string(llvm::sys::Process::getProcessId()) +
                                    "-" + name);
  if (llvm::sys::fs::exists(path))
    return std::string(path);
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return llvm::createStringError(ec, "cannot write " + path + ": " + ec.message());
  os << text;
  return std::string(path);
}

} // namespace

llvm::Expected<PassOptions> benchPassOptions(llvm::StringRef name) {
  if (name == "rewrite") {
    auto path = writeOnce("patterns.pat", kPatterns);
    if (!path)
      return path.takeError();
    return PassOptions{{"patterns", *path}};
  }
  if (name == "partition") {
    auto path = writeOnce("supported.txt", kSupported);
    if (!path)
      return path.takeError();
    return PassOptions{{"supported", *path}};
  }
  return PassOptions{};
}

llvm::Expected<std::string> benchPipelineElement(llvm::StringRef name) {
  auto options = benchPassOptions(name);
  if (!options)
    return options.takeError();
  std::string text = name.str();
  if (options->empty())
    return text;
  text += "{";
  for (size_t i = 0; i < options->size(); ++i)
    text += (i ? " " : "") + (*options)[i].first + "=" + (*options)[i].second;
  return text + "}";
}

} // namespace bench
} // namespace pt2ir
