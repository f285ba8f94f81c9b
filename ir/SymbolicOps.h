//===- SymbolicOps.h - Which nodes are symbolic (SymInt/SymBool) ops -*- C++ -*-===//
//
// A node is a symbolic op when its target is one of the Python builtins that
// torch serializes on the symbolic path (`_operator.add`, `math.trunc`,
// `torch.sym_max`, ...) OR when its value is symbolic (its output is a
// SymInt/SymBool/SymFloat). Both tests are needed: `torch._check(s0 == 4)`
// makes an `eq` whose value is a plain bool, and `aten.sym_size.int` is an
// OpOverload whose value is a SymInt.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_IR_SYMBOLICOPS_H
#define PT2IR_IR_SYMBOLICOPS_H

#include "llvm/ADT/StringRef.h"

namespace pt2ir {

class Node;

/// True if `target` is in the symbolic-op set (`_operator.*` arithmetic and
/// comparisons, `math.trunc`, `torch.sym_*` including `sym_sum`).
bool isSymbolicOpTarget(llvm::StringRef target);

/// True if the node's single output is a SymInt, SymBool or SymFloat.
bool hasSymbolicValue(const Node &node);

/// Target OR value: see the file comment.
bool isSymbolicOp(const Node &node);

/// True for `torch.ops.higher_order.*` targets.
bool isHigherOrderOpTarget(llvm::StringRef target);

/// True for `#namespace:op` extension targets.
bool isExtensionOpTarget(llvm::StringRef target);

} // namespace pt2ir

#endif
