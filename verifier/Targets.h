//===- Targets.h - What a node target string names -----------------*- C++
//-*-===//
//
// Internal to the verifier. Classifies a serialized `call_function` target:
// an operator overload (`torch.ops.<ns>.<op>.<overload>`), a higher-order
// operator (`torch.ops.higher_order.<name>`), an extension operator
// (`#<ns>:<op>`), one of the symbolic builtins every dialect allows
// (`_operator.add`, `math.trunc`, `torch.sym_max`, `builtins.round`), one of
// the torch-level functions only training IR contains (grad mode and
// autocast), a bare name as a call_module/call_method node would have, or
// anything else.
//
// This file deliberately does not look schemas up: see OperatorRegistry.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_VERIFIER_TARGETS_H
#define PT2IR_VERIFIER_TARGETS_H

#include "llvm/ADT/StringRef.h"

namespace pt2ir::verifier {

enum class TargetKind : uint8_t {
  /// `torch.ops.<ns>.<op>.<overload>`.
  OpOverload,
  /// `torch.ops.<ns>.<op>` without an overload, or a malformed `torch.ops.`
  /// string.
  MalformedOp,
  HigherOrder,
  /// `#<ns>:<op>`.
  Extension,
  SymbolicBuiltin,
  TrainingFunction,
  /// Empty, or a name without a module path (`linear`, `view`): what a
  /// call_module or call_method node targets.
  ModuleOrMethod,
  Unknown,
};

struct TargetInfo {
  TargetKind kind = TargetKind::Unknown;
  /// For OpOverload and Extension: the namespace; for HigherOrder: empty.
  llvm::StringRef ns;
  /// For OpOverload: `<op>.<overload>`; Extension: `<op>`; HigherOrder: the
  /// operator's name.
  llvm::StringRef op;
};

TargetInfo classifyTarget(llvm::StringRef target);

/// True for a valid Python identifier that is not a keyword (ASCII only, as
/// torch.fx names are).
bool isPythonIdentifier(llvm::StringRef name);

} // namespace pt2ir::verifier

#endif
