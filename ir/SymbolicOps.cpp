//===- SymbolicOps.cpp - Which nodes are symbolic ops ---------------------===//

#include "pt2ir/ir/SymbolicOps.h"
#include "pt2ir/ir/Node.h"

#include "llvm/ADT/StringSwitch.h"

namespace pt2ir {

bool isSymbolicOpTarget(llvm::StringRef target) {
  if (target.consume_front("_operator."))
    return llvm::StringSwitch<bool>(target)
        .Cases("add", "sub", "mul", "floordiv", "mod", "pow", "truediv", true)
        .Cases("neg", "pos", "eq", "ne", "lt", "le", "gt", "ge", true)
        .Cases("and_", "or_", "lshift", "rshift", true)
        .Default(false);
  if (target == "math.trunc")
    return true;
  if (target.consume_front("torch."))
    return llvm::StringSwitch<bool>(target)
        .Cases("sym_not", "sym_int", "sym_float", "sym_ite", true)
        .Cases("sym_max", "sym_min", "sym_sqrt", "sym_sum", true)
        .Default(false);
  return false;
}

bool hasSymbolicValue(const Node &node) {
  if (node.getOutputs().size() != 1)
    return false;
  switch (node.getOutputs().front().getKind()) {
  case ArgKind::SymInt:
  case ArgKind::SymBool:
  case ArgKind::SymFloat:
    return true;
  default:
    return false;
  }
}

bool isSymbolicOp(const Node &node) {
  return isSymbolicOpTarget(node.getTarget()) || hasSymbolicValue(node);
}

bool isHigherOrderOpTarget(llvm::StringRef target) {
  return target.starts_with("torch.ops.higher_order.");
}

bool isExtensionOpTarget(llvm::StringRef target) {
  return target.starts_with("#") && target.contains(':');
}

} // namespace pt2ir
