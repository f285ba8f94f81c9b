//===- PassRegistry.h - Passes by name; pipeline syntax ---------*- C++ -*-===//
//
// The table built from passes/PassRegistry.def: each pass's registry name,
// summary and options (with defaults and descriptions), and its factory.
// On top of it: creating a pass by name with options, and parsing the
// pipeline syntax `dce{remove-asserts=true},canonicalize-symbols`.
//
// The table is constant data; nothing here is mutable global state.
// Running passes is passes/PassManager.h's concern.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_PASSES_PASSREGISTRY_H
#define PT2IR_PASSES_PASSREGISTRY_H

#include "pt2ir/passes/Pass.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <string>
#include <vector>

namespace pt2ir {

/// One option of a pass, from a PT2IR_PASS_OPTION line.
struct PassOptionInfo {
  /// The class name of the pass the option belongs to.
  llvm::StringRef passClass;
  llvm::StringRef name;
  llvm::StringRef defaultValue;
  llvm::StringRef description;
};

/// One pass, from a PT2IR_PASS line.
struct PassInfo {
  llvm::StringRef name;
  llvm::StringRef className;
  llvm::StringRef summary;
  std::unique_ptr<Pass> (*create)();

  /// The pass's options, in .def order.
  llvm::ArrayRef<PassOptionInfo> getOptions() const;
  /// The option called `optionName`, or null.
  const PassOptionInfo *findOption(llvm::StringRef optionName) const;
};

/// Every registered pass, in .def order.
llvm::ArrayRef<PassInfo> getRegisteredPasses();

/// The pass registered as `name`, or null.
const PassInfo *lookupPass(llvm::StringRef name);

/// `dce, canonicalize-symbols`: the registered names, for error messages.
std::string listRegisteredPassNames();

/// Prints every pass with its summary and options (for `--help`).
void printRegisteredPasses(llvm::raw_ostream &os, unsigned indent = 2);

/// Creates the pass registered as `name` and applies `options`. An unknown
/// pass, an unknown or repeated option, or a value the pass rejects is an
/// error that says what exists.
llvm::Expected<std::unique_ptr<Pass>>
createPass(llvm::StringRef name, const PassOptions &options = {});

/// The error for an option `optionName` that pass `passName` does not have;
/// it lists the options the pass does have.
llvm::Error makeUnknownPassOptionError(llvm::StringRef passName,
                                       llvm::StringRef optionName);

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
