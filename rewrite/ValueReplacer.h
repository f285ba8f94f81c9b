//===- ValueReplacer.h - Replace many values, program-wide, fast -*- C++ -*-===//
//
// ExportedProgram::replaceAllUsesWith keeps the signature and the module
// call graph in step, which costs a walk over all of them per call. A pass
// that replaces many values uses a ValueReplacer instead: it collects once
// the names those mention, and walks them only for a value they name, so
// the pass stays linear in the program's size.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_REWRITE_VALUEREPLACER_H
#define PT2IR_REWRITE_VALUEREPLACER_H

#include "pt2ir/ir/ExportedProgram.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Error.h"

namespace pt2ir {

/// Replaces values like ExportedProgram::replaceAllUsesWith, with the same
/// checks and effect. The program's signature and module call graph must
/// change only through this object while it is in use.
class ValueReplacer {
public:
  explicit ValueReplacer(ExportedProgram &ep);

  /// Makes every use of `from` read `to`, and the signature and module call
  /// graph name `to` where they named `from` as a result.
  llvm::Error replaceAllUsesWith(Value *from, Value *to);

private:
  ExportedProgram &ep;
  /// Top-level value names the signature or the module call graph mention.
  llvm::DenseSet<llvm::StringRef> named;
};

} // namespace pt2ir

#endif
