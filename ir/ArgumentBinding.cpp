//===- ArgumentBinding.cpp - Positional or keyword, decided safely --------===//

#include "pt2ir/ir/ArgumentBinding.h"
#include "pt2ir/ir/Enums.h"
#include "pt2ir/ir/Graph.h"
#include "pt2ir/ir/IRContext.h"
#include "pt2ir/ir/Registry.h"
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

bool isPassedByKeyword(const Node &node, size_t index) {
  const NamedArgument &in = node.getInputs()[index];
  if (isPythonKeyword(in.name) || (in.kind && *in.kind != 0))
    return isPassedByKeyword(node, index, static_cast<const OperatorSchema *>(nullptr));
  const Registry &registry =
      node.getGraph() ? node.getGraph()->getContext().getRegistry() : *Registry::getDefault();
  return isPassedByKeyword(node, index, registry.getOperators().lookupTarget(node.getTarget()));
}

} // namespace pt2ir
