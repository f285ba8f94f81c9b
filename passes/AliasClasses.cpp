//===- AliasClasses.cpp - Which values may share memory -------------------===//

#include "pt2ir/passes/AliasClasses.h"

#include "pt2ir/ir/OperatorSchema.h"

namespace pt2ir {

const Value *AliasClasses::find(const Value *v) {
  auto it = parent.find(v);
  if (it == parent.end() || it->second == v)
    return v;
  const Value *root = find(it->second);
  it->second = root;
  return root;
}

void AliasClasses::join(const Value *a, const Value *b) {
  const Value *ra = find(a), *rb = find(b);
  if (ra == rb)
    return;
  parent[rb] = ra;
  parent.try_emplace(ra, ra);
  Flags fb = flags.lookup(rb);
  Flags &fa = flags[ra];
  fa.mutated |= fb.mutated;
  fa.graphInput |= fb.graphInput;
}

void AliasClasses::addGraph(const Graph &graph, const OperatorRegistry &operators,
                            OpEffects &effects) {
  for (const Value *v : graph.getInputValues())
    flags[find(v)].graphInput = true;
  for (const Node &node : graph.getNodes()) {
    const OperatorSchema *schema = operators.lookupTarget(node.getTarget());
    if (!schema) {
      // Higher-order ops and checks are functional; other unknown targets
      // may write their operands.
      NodeEffect effect = effects.getEffect(node);
      if (effect != NodeEffect::None && effect != NodeEffect::Assert &&
          effect != NodeEffect::Random)
        node.forEachOperand([&](Use *u) {
          if (Value *v = u->get())
            flags[find(v)].mutated = true;
        });
      continue;
    }
    std::vector<Value *> results = node.getResults();
    llvm::ArrayRef<SchemaReturn> returns = schema->returns();
    for (const NamedArgument &in : node.getInputs()) {
      const SchemaArgument *arg = schema->findArgument(in.name);
      if (!arg || !arg->Alias)
        continue;
      llvm::StringRef set = arg->Alias->getAliasSet();
      in.arg.forEachUse([&](Use *u) {
        Value *v = u->get();
        if (!v)
          return;
        for (size_t i = 0; i < returns.size() && i < results.size(); ++i)
          if (returns[i].Alias && returns[i].Alias->getAliasSet() == set)
            join(v, results[i]);
        if (arg->isWrite())
          flags[find(v)].mutated = true;
      });
    }
  }
}

} // namespace pt2ir
