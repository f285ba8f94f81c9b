//===- Targets.cpp - What a node target string names
//-----------------------===//
//
// The allow-lists of symbolic builtins and training-only torch functions,
// and the parsing of operator target strings. Schemas are looked up
// elsewhere (OperatorRegistry).
//
//===----------------------------------------------------------------------===//

#include "pt2ir/verifier/Targets.h"
#include "pt2ir/ir/OperatorSchema.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

namespace pt2ir::verifier {

/// Python-level functions of shapes and scalars that appear in every dialect.
static const char *const SymbolicBuiltins[] = {
    // operator (serialized with the `_operator` module name).
    "_operator.getitem", "_operator.add", "_operator.sub", "_operator.mul",
    "_operator.truediv", "_operator.floordiv", "_operator.mod", "_operator.pow",
    "_operator.neg", "_operator.pos", "_operator.abs", "_operator.and_",
    "_operator.or_", "_operator.xor", "_operator.not_", "_operator.lshift",
    "_operator.rshift", "_operator.eq", "_operator.ne", "_operator.lt",
    "_operator.le", "_operator.gt", "_operator.ge",
    // math and builtins.
    "math.ceil", "math.floor", "math.trunc", "builtins.round",
    // torch's symbolic helpers.
    "torch.sym_int", "torch.sym_float", "torch.sym_ite", "torch.sym_max",
    "torch.sym_min", "torch.sym_not", "torch.sym_sqrt", "torch.sym_sum",
    "torch._sym_sqrt",
    "torch.fx.experimental.symbolic_shapes.cast_symbool_to_symint_guardless"};

/// torch-level functions that pre-dispatch (training) IR keeps as calls.
static const char *const TrainingFunctions[] = {
    "torch._C._set_grad_enabled",
    "torch.autograd.grad_mode.set_grad_enabled",
    "torch.amp.autocast_mode._enter_autocast",
    "torch.amp.autocast_mode._exit_autocast",
    "torch.amp._enter_autocast",
    "torch.amp._exit_autocast",
    "torch._functorch.predispatch._add_batch_dim",
    "torch._functorch.predispatch._remove_batch_dim",
    "torch._functorch.predispatch._vmap_increment_nesting",
    "torch._functorch.predispatch._vmap_decrement_nesting",
    "torch._functorch.predispatch.lazy_load_decompositions"};

static bool isIdentifierChar(char c) { return llvm::isAlnum(c) || c == '_'; }

bool isPythonIdentifier(llvm::StringRef name) {
  if (name.empty() || llvm::isDigit(name.front()))
    return false;
  if (!llvm::all_of(name, isIdentifierChar))
    return false;
  return !isPythonKeyword(name);
}

static bool isDottedIdentifierPath(llvm::StringRef s) {
  llvm::SmallVector<llvm::StringRef, 8> parts;
  s.split(parts, '.');
  return llvm::all_of(parts, [](llvm::StringRef p) {
    return !p.empty() && !llvm::isDigit(p.front()) &&
           llvm::all_of(p, isIdentifierChar);
  });
}

static bool contains(llvm::ArrayRef<const char *> list, llvm::StringRef s) {
  return llvm::any_of(list, [&](const char *e) { return s == e; });
}

TargetInfo classifyTarget(llvm::StringRef target) {
  TargetInfo info;
  if (target.empty() || (!target.contains('.') && !target.starts_with("#"))) {
    info.kind = TargetKind::ModuleOrMethod;
    return info;
  }
  if (target.starts_with("#")) {
    auto [ns, op] = target.drop_front().split(':');
    if (ns.empty() || op.empty() || op.contains(':')) {
      info.kind = TargetKind::Unknown;
      return info;
    }
    info.kind = TargetKind::Extension;
    info.ns = ns;
    info.op = op;
    return info;
  }
  if (target.consume_front("torch.ops.higher_order.")) {
    info.kind = isPythonIdentifier(target) ? TargetKind::HigherOrder
                                           : TargetKind::MalformedOp;
    info.op = target;
    return info;
  }
  if (target.consume_front("torch.ops.")) {
    llvm::SmallVector<llvm::StringRef, 4> parts;
    target.split(parts, '.');
    info.kind = parts.size() == 3 && isDottedIdentifierPath(target)
                    ? TargetKind::OpOverload
                    : TargetKind::MalformedOp;
    if (!parts.empty())
      info.ns = parts[0];
    auto dot = target.find('.');
    if (dot != llvm::StringRef::npos)
      info.op = target.drop_front(dot + 1);
    return info;
  }
  // `operator.add` is the same function as `_operator.add`.
  llvm::StringRef spelled = target;
  std::string normalized;
  if (spelled.starts_with("operator.")) {
    normalized = "_" + spelled.str();
    spelled = normalized;
  }
  if (contains(SymbolicBuiltins, spelled)) {
    info.kind = TargetKind::SymbolicBuiltin;
    return info;
  }
  if (contains(TrainingFunctions, target)) {
    info.kind = TargetKind::TrainingFunction;
    return info;
  }
  info.kind = TargetKind::Unknown;
  return info;
}

} // namespace pt2ir::verifier
