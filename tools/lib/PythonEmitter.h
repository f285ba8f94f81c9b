//===- PythonEmitter.h - The program as a Python listing --------*- C++ -*-===//
//
// `pt2-opt --emit=python`: the program written the way torch users read
// exported graphs,
//
//   # Inputs:
//   #   p_weight: parameter 'weight'; f32[3, 4]
//   #   x: user_input; f32[s0, 4]
//   ...
//   def forward(self, p_weight, x):
//       linear = torch.ops.aten.linear.default(x, p_weight)  # f32[s0, 3]
//       return (linear,)
//
// with the signature and range constraints in a header comment, one line per
// node, multi-output nodes unpacked (`getitem, getitem_1 = ...`), symbolic
// arithmetic written infix (`sym_size_int + 1`) and every higher-order-op
// subgraph as a separate top-level `def` that the call site names.
//
// The output is always valid Python syntax (it parses with `ast.parse`):
// names that are keywords or not identifiers are renamed consistently
// (`from` -> `from_`, `1x` -> `_1x`), keyword-named arguments stay
// positional, and every user-provided string is escaped. It is a listing for
// reading, not code to run: targets torch cannot import as written
// (`#ns:op`, opaque strings) are wrapped in `extension_op("...")` and
// `call_target("...")`. pt2ir does not read this form back.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_TOOLS_PYTHONEMITTER_H
#define PT2IR_TOOLS_PYTHONEMITTER_H

#include "pt2ir/ir/ExportedProgram.h"
#include "pt2ir/tools/lib/EmitOptions.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace pt2ir {

/// True if `name` is usable as a Python variable name unchanged: ASCII
/// letters, digits and `_`, not starting with a digit, not a keyword and
/// not `__debug__`.
bool isValidPythonIdentifier(llvm::StringRef name);

/// An identifier derived from `name`: other bytes become `_`, a leading
/// digit (or an empty name) gets a `_` prefix, a keyword a `_` suffix.
std::string sanitizePythonIdentifier(llvm::StringRef name);

/// `s` as a Python string literal (double quotes; escapes as json.dumps
/// with ensure_ascii, which Python reads back to the same string).
std::string pythonStringLiteral(llvm::StringRef s);

/// Gives each original name one Python identifier, unique within a scope.
/// Valid names that are not reserved keep their spelling when claimed before
/// an invalid name is mangled onto them.
class PythonNameTable {
public:
  /// Makes `identifier` unavailable (module names, `self`, def names).
  void reserve(llvm::StringRef identifier);
  /// Keeps `original` as its own name when it is valid and still free.
  void claim(llvm::StringRef original);
  /// The identifier for `original`, assigning a fresh one on first use.
  llvm::StringRef lookup(llvm::StringRef original);
  /// A new identifier derived from `original`, not recorded as its name
  /// (for things that share a spelling but must stay distinct).
  std::string fresh(llvm::StringRef original);

private:
  llvm::StringMap<std::string> assigned;
  llvm::StringSet<> used;
};

/// Writes `ep` as a Python listing. Reads
/// `options.showTypes` (trailing `# f32[...]` comments) and
/// `options.showMetadata` (a `# <last stack-trace line>` comment above each
/// node that has one).
void emitPython(llvm::raw_ostream &os, const ExportedProgram &ep,
                const EmitOptions &options = {});

} // namespace pt2ir

#endif
