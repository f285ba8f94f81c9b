//===- PassRegistry.h - Passes by name; pipeline syntax ---------*- C++ -*-===//
//
// Passes by name. The built-in ones come from passes/PassRegistry.def (each
// pass's name, summary, options with defaults and descriptions, and
// factory); passes defined elsewhere (a backend's, a plugin's) are added to
// a Registry (ir/Registry.h) with registerPass and from then on are found by
// name exactly like the built-in ones. On top of that: creating a pass by
// name with options, and the pipeline syntax
// `dce{remove-asserts=true},canonicalize-symbols`.
//
// The built-in table is constant data; run-time registrations live in the
// Registry they were made in. Nothing here is mutable global state.
// Running passes is passes/PassManager.h's concern.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_PASSES_PASSREGISTRY_H
#define PT2IR_PASSES_PASSREGISTRY_H

#include "pt2ir/ir/Registry.h"
#include "pt2ir/passes/Pass.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace pt2ir {

/// One option of a pass: its name, default value text and description.
struct PassOptionInfo {
  std::string name;
  std::string defaultValue;
  std::string description;
};

/// Makes a new instance of a pass.
using PassFactory = std::function<std::unique_ptr<Pass>()>;

/// One pass: a PT2IR_PASS line of the .def with its options, or a pass
/// registered at run time with registerPass.
struct PassInfo {
  std::string name;
  std::string summary;
  /// The options, in the order --help lists them.
  std::vector<PassOptionInfo> options;
  PassFactory create;

  /// The option called `optionName`, or null.
  const PassOptionInfo *findOption(llvm::StringRef optionName) const;
};

/// The passes registered at run time (by library users and pass plugins)
/// in a Registry, after the built-in ones of the .def.
class PassRegistry final : public RegistrySlot {
public:
  static char ID;
  llvm::ArrayRef<PassInfo> getPasses() const { return passes; }

private:
  friend llvm::Error registerPass(Registry &registry, PassInfo info);
  std::vector<PassInfo> passes;
};

/// The built-in passes, in .def order.
llvm::ArrayRef<PassInfo> getBuiltinPasses();

/// Every pass `registry` knows: the built-in ones in .def order, then those
/// registered at run time, in registration order.
std::vector<const PassInfo *> getRegisteredPasses(const Registry &registry);

/// The pass registered as `name` in `registry`, or null.
const PassInfo *lookupPass(const Registry &registry, llvm::StringRef name);

/// Registers a pass under `info.name`, so that pipelines, the pass manager's
/// instrumentation and pt2-opt's flags and --help know it like a built-in
/// one. Fails on an empty or malformed name (letters, digits, '-', '_' and
/// '.'), a name already taken (built-in or registered), a missing factory,
/// or a factory whose pass reports another name.
llvm::Error registerPass(Registry &registry, PassInfo info);

/// Registers pass class `PassT` (default-constructible) under `name`.
template <typename PassT>
llvm::Error registerPass(Registry &registry, llvm::StringRef name,
                         llvm::StringRef summary,
                         std::vector<PassOptionInfo> options = {}) {
  return registerPass(registry,
                      PassInfo{name.str(), summary.str(), std::move(options),
                               [] { return std::make_unique<PassT>(); }});
}

/// `dce, canonicalize-symbols`: the names `registry` knows, for messages.
std::string listRegisteredPassNames(const Registry &registry);

/// Prints every pass `registry` knows with its summary and options (for
/// `--help`).
void printRegisteredPasses(llvm::raw_ostream &os, const Registry &registry,
                           unsigned indent = 2);

/// Creates the pass registered as `name` in `registry` and applies
/// `options`. An unknown pass, an unknown or repeated option, or a value the
/// pass rejects is an error that says what exists.
llvm::Expected<std::unique_ptr<Pass>>
createPass(const Registry &registry, llvm::StringRef name,
           const PassOptions &options = {});

/// The error for an option `optionName` that `pass` does not have; it lists
/// the options `info` (if given) declares.
llvm::Error makeUnknownPassOptionError(llvm::StringRef passName,
                                       llvm::StringRef optionName,
                                       const PassInfo *info = nullptr);

/// Parses a boolean option value: `true`/`false`/`1`/`0`; anything else is an
/// error naming the pass and the option.
llvm::Expected<bool> parseBoolPassOption(llvm::StringRef passName,
                                         llvm::StringRef optionName,
                                         llvm::StringRef value);

/// One entry of a textual pipeline: a pass name and its options as written.
struct PassPipelineElement {
  std::string name;
  PassOptions options;
};

/// Parses `name[{opt=value opt=value}],name...`. Options are separated by
/// spaces or commas; `opt` alone means `opt=true`. Only the syntax is
/// checked here: unknown names are caught by createPass, which the pass
/// manager calls for every element. Errors give the 1-based column.
llvm::Expected<std::vector<PassPipelineElement>>
parsePassPipeline(llvm::StringRef text);

/// Prints a pipeline back in the syntax parsePassPipeline accepts.
std::string printPassPipeline(llvm::ArrayRef<PassPipelineElement> pipeline);

} // namespace pt2ir

#endif
