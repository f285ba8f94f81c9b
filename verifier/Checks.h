//===- Checks.h - The verifier's groups of rules -------------------*- C++
//-*-===//
//
// Internal to the verifier: one entry point per group of rules, each defined
// in its own file. verifyProgram (Verifier.cpp) decides which groups run.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_VERIFIER_CHECKS_H
#define PT2IR_VERIFIER_CHECKS_H

#include "pt2ir/verifier/VerifierContext.h"

namespace pt2ir::verifier {

/// The dialect a run checks against.
enum class Dialect : uint8_t { None, Aten, Training };

/// StructureChecks.cpp: definitions and uses, names, targets, value tables,
/// subgraph nesting.
void checkStructure(VerifierContext &ctx);

/// TorchbindChecks.cpp: call_torchbind nodes are laid out as
/// `(obj, method, *args, **kwargs)`.
void checkTorchbindCalls(VerifierContext &ctx);

/// SymbolicOpChecks.cpp: symbolic ops (`_operator.*`, `torch.sym_*`, ...)
/// take positional inputs and define one as_sym_* output.
void checkSymbolicOps(VerifierContext &ctx);

/// SignatureChecks.cpp: graph inputs/outputs against the graph signature.
void checkSignature(VerifierContext &ctx);

/// TreespecChecks.cpp: the in_spec/out_spec treespecs of the module call
/// graph parse with the program's treespec types, name only registered
/// types, and the root's leaf counts match the signature.
void checkTreespecs(VerifierContext &ctx);

/// ProgramChecks.cpp: range constraints, the module call graph's entries and
/// names, and the `verifiers` field. Returns the dialect the program asks
/// for.
Dialect checkProgramFields(VerifierContext &ctx);

/// SymbolChecks.cpp: symbolic expressions parse; range constraints name
/// symbols that occur in the program.
void checkSymbols(VerifierContext &ctx);

/// DialectChecks.cpp: operator targets are allowed in `dialect` (None: only
/// known operators), mutation rules, the core-ATen tag.
void checkOperators(VerifierContext &ctx, Dialect dialect);

/// SchemaArgumentChecks.cpp: node inputs and outputs against operator
/// schemas.
void checkSchemaArguments(VerifierContext &ctx);

/// MetaChecks.cpp: recorded output metadata against the shape and dtype
/// rules of infer/ (meta-mismatch, meta-invalid-inputs).
void checkMeta(VerifierContext &ctx);

} // namespace pt2ir::verifier

#endif
