//===- DialectChecks.cpp - Which operators a dialect allows ---------------===//
//
// Checks every node target of every graph against the schema table and the
// dialect:
//  - unknown-op: the target is an operator overload
//    (`torch.ops.<ns>.<op>.<overload>`) or extension operator (`#ns:op`)
//    the registry knows, a higher-order operator (`torch.ops.higher_order.*`,
//    `call_torchbind` included), or a symbolic builtin (`_operator.*`,
//    `math.ceil/floor/trunc`, `builtins.round`, `torch.sym_*`); anything
//    else is reported with the namespaces the registry knows;
//  - non-functional-op (ATEN): no operator overload whose schema writes an
//    input (alias annotation with `!`): ATEN programs are functional and
//    record mutations in the signature instead;
//  - training-only-op (ATEN): grad-mode and autocast calls
//    (`torch._C._set_grad_enabled`, `torch.amp.autocast_mode._enter_autocast`
//    and friends) belong to TRAINING IR;
//  - aliased-constant (ATEN): two tensor_constant or custom_obj input specs
//    name the same constant; TRAINING IR may alias constants;
//  - non-core-aten-op (with coreAten): every aten operator carries the
//    `core` tag.
//
// It deliberately does not check arguments (SchemaArgumentChecks.cpp) and
// does not look inside `as_operator` arguments of higher-order operators.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/verifier/Checks.h"
#include "pt2ir/verifier/Targets.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

namespace pt2ir::verifier {

namespace {

class OperatorChecker {
public:
  OperatorChecker(VerifierContext &ctx, Dialect dialect)
      : ctx(ctx), dialect(dialect) {}

  void run() {
    for (const Graph *g : ctx.graphs())
      for (const Node &n : g->getNodes())
        checkNode(n);
    if (dialect == Dialect::Aten)
      checkAliasedConstants();
  }

private:
  const std::string &registeredNamespaces() {
    if (namespaces.empty()) {
      std::vector<std::string> names = ctx.registry().namespaces();
      namespaces = names.empty() ? "none" : llvm::join(names, ", ");
    }
    return namespaces;
  }

  void unknown(const Node &n, const llvm::Twine &what) {
    ctx.error("unknown-op", ctx.nodePath(n) + ".target", n.getName(),
              ctx.nodeOrder(n),
              what + " (registered namespaces: " + registeredNamespaces() +
                  ")");
  }

  void checkNode(const Node &n) {
    llvm::StringRef target = n.getTarget();
    const TargetInfo &info = ctx.targetInfo(n);
    switch (info.kind) {
    case TargetKind::ModuleOrMethod: // Reported by the structural checks.
    case TargetKind::HigherOrder:
    case TargetKind::SymbolicBuiltin:
      return;
    case TargetKind::TrainingFunction:
      if (dialect == Dialect::Aten)
        ctx.error("training-only-op", ctx.nodePath(n) + ".target", n.getName(),
                  ctx.nodeOrder(n),
                  "'" + target +
                      "' is a TRAINING IR call; the ATEN dialect expresses "
                      "grad-mode and autocast regions as higher-order "
                      "operators");
      return;
    case TargetKind::MalformedOp:
      unknown(n, "target '" + target +
                     "' is not of the form torch.ops.<namespace>.<op>."
                     "<overload>");
      return;
    case TargetKind::Unknown:
      unknown(n, "target '" + target +
                     "' is not an operator, a higher-order operator or an "
                     "allowed builtin");
      return;
    case TargetKind::Extension:
      checkExtension(n, info);
      return;
    case TargetKind::OpOverload:
      checkOverload(n, info);
      return;
    }
  }

  void checkExtension(const Node &n, const TargetInfo &info) {
    if (ctx.schemaOf(n))
      return;
    if (!ctx.registry().getExtension(info.ns)) {
      if (ctx.program().getRegistry().allowsUnregisteredExtensions()) {
        ctx.warning("unregistered-extension-op", ctx.nodePath(n) + ".target",
                    n.getName(), ctx.nodeOrder(n),
                    "extension namespace '" + info.ns +
                        "' is not registered; target '" + n.getTarget() +
                        "' was accepted unchecked "
                        "(--allow-unregistered-extensions)");
        return;
      }
      unknown(n, "no extension handler for namespace '" + info.ns +
                     "' (target '" + n.getTarget() +
                     "'); register its operators (--extension-schemas=FILE "
                     "or a plugin), or accept them unchecked with "
                     "--allow-unregistered-extensions");
    } else
      unknown(n, "extension namespace '" + info.ns + "' has no operator '" +
                     info.op + "'");
  }

  void checkOverload(const Node &n, const TargetInfo &info) {
    const OperatorSchema *schema = ctx.schemaOf(n);
    if (!schema) {
      unknown(n, "unknown operator '" + info.ns + "::" + info.op + "'");
      return;
    }
    if (dialect == Dialect::Aten && schema->isMutable())
      reportMutation(n, *schema);
    if (ctx.options().coreAten && schema->getNamespace() == "aten" &&
        !schema->hasTag("core"))
      ctx.error("non-core-aten-op", ctx.nodePath(n) + ".target", n.getName(),
                ctx.nodeOrder(n),
                "operator '" + schema->getQualifiedName() +
                    "' is not a core ATen operator (it has no 'core' tag)");
  }

  void reportMutation(const Node &n, const OperatorSchema &schema) {
    std::string written;
    for (const SchemaArgument &arg : schema.arguments()) {
      if (!arg.isWrite())
        continue;
      if (!written.empty())
        written += ", ";
      written += "'" + arg.Name.str() + "' (" + arg.typeString() + ")";
    }
    ctx.error("non-functional-op", ctx.nodePath(n) + ".target", n.getName(),
              ctx.nodeOrder(n),
              "operator '" + schema.getQualifiedName() + "' mutates " +
                  written +
                  "; the ATEN dialect allows only functional operators");
  }

  void checkAliasedConstants() {
    const auto &specs = ctx.program().graphModule.signature.inputSpecs;
    llvm::StringMap<size_t> seen[2];
    for (size_t i = 0; i < specs.size(); ++i) {
      const InputSpec &spec = specs[i];
      int slot = spec.kind == InputKind::TensorConstant ? 0
                 : spec.kind == InputKind::CustomObj    ? 1
                                                        : -1;
      if (slot < 0 || spec.target.empty())
        continue;
      auto [it, inserted] = seen[slot].try_emplace(spec.target, i);
      if (inserted)
        continue;
      ctx.error("aliased-constant",
                "graph_module.signature.input_specs[" + std::to_string(i) +
                    "]." + inputKindTargetField(spec.kind).str(),
                spec.getArgName(), ctx.sectionOrder(Section::InputSpecs, i),
                inputKindMemberName(spec.kind) + " '" + spec.target +
                    "' is already lifted by input spec " +
                    std::to_string(it->second) +
                    "; only the TRAINING dialect allows aliased constants");
    }
  }

  VerifierContext &ctx;
  Dialect dialect;
  std::string namespaces;
};

} // namespace

void checkOperators(VerifierContext &ctx, Dialect dialect) {
  OperatorChecker(ctx, dialect).run();
}

} // namespace pt2ir::verifier
