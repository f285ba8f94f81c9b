//===- ArgumentBinding.cpp - Positional or keyword, decided safely --------===//

#include "pt2ir/ir/ArgumentBinding.h"
#include "pt2ir/ir/Enums.h"
#include "pt2ir/ir/OperatorRegistry.h"
#include "pt2ir/ir/OperatorSchema.h"
#include "pt2ir/ir/SymbolicOps.h"

namespace pt2ir {

bool isPassedByKeyword(const Node &node, size_t index, const OperatorSchema *schema) {
  const NamedArgument &in = node.getInputs()[index];
  if (isPythonKeyword(in.name))
    return false;
  if (in.kind && *in.kind != static_cast<int64_t>(ArgumentKind::UNKNOWN))
    return *in.kind == static_cast<int64_t>(ArgumentKind::KEYWORD);
  if (isSymbolicOp(node))
    return false;
  if (isHigherOrderOpTarget(node.getTarget()))
    return !in.name.empty();
  if (!schema)
    return false;
  const SchemaArgument *arg = schema->findArgument(in.name);
  return arg && arg->KwargOnly;
}

bool isPassedByKeyword(const Node &node, size_t index, const OperatorRegistry *registry) {
  const NamedArgument &in = node.getInputs()[index];
  if (isPythonKeyword(in.name) || (in.kind && *in.kind != 0))
    return isPassedByKeyword(node, index, static_cast<const OperatorSchema *>(nullptr));
  const OperatorSchema *schema = nullptr;
  if (registry) {
    schema = registry->lookupTarget(node.getTarget());
  } else {
    static const OperatorRegistry Builtin; // Immutable after construction.
    schema = Builtin.lookupTarget(node.getTarget());
  }
  return isPassedByKeyword(node, index, schema);
}

} // namespace pt2ir
