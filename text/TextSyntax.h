//===- TextSyntax.h - Spellings shared by the text printer and parser -*- C++ -*-===//
//
// The decisions both directions must agree on: which names print bare, how a
// symbolic expression is delimited, how targets are shortened, the dtype
// names. Private to the project (text/, and rewrite/PatternText.cpp, which
// spells nodes the same way); not installed.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_TEXT_TEXTSYNTAX_H
#define PT2IR_TEXT_TEXTSYNTAX_H

#include "pt2ir/ir/Node.h"
#include "pt2ir/ir/OperatorSchema.h"
#include "pt2ir/ir/Registry.h"
#include "pt2ir/ir/TensorMeta.h"
#include <vector>
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace pt2ir::text {

/// `[A-Za-z_][A-Za-z0-9_]*`.
bool isIdentifier(llvm::StringRef s);
/// A value or subgraph name printed without quotes after `%` / `@`:
/// `[A-Za-z0-9_]+`.
bool isBareValueName(llvm::StringRef s);
/// Appends `s` as a double-quoted string; every byte reads back.
void appendQuoted(std::string &out, llvm::StringRef s);
/// Appends `repr(float)`, with `inf`, `-inf`, `nan` for non-finite values.
void appendFloat(std::string &out, double v);

/// Where a bare symbolic expression that starts at `pos` of `text` ends: at
/// the first `,` `]` `)` `{` `}` or line end outside parentheses.
size_t scanExpr(llvm::StringRef text, size_t pos);
/// True when `expr` prints bare: it scans to its own end, has no outer
/// spaces and does not read as a number, bool, string or `None`.
bool exprPrintsBare(llvm::StringRef expr);

/// The text spelling of a node target: `torch.ops.` dropped when what is
/// left reads back as the same target; empty when it must be quoted.
std::string targetSpelling(llvm::StringRef target);
/// The target a bare spelling stands for.
std::string targetFromSpelling(llvm::StringRef spelling);
/// A bare target: `[A-Za-z_#][A-Za-z0-9_.:#]*` with at least one `.` or `:`.
bool isBareTarget(llvm::StringRef s);

/// The dtype of a short name (`f32`), or nullopt.
std::optional<int64_t> scalarTypeFromShortName(llvm::StringRef name);
/// `torch.channels_last`-style names of the enum arguments.
llvm::StringRef torchMemoryFormatName(int64_t v);
llvm::StringRef torchLayoutName(int64_t v);

/// The name a positional input `index` of a call to `target` has: the
/// schema's argument name, `a`/`b`/`c` for Python's `_operator` functions,
/// empty for everything else (higher-order ops pass positionals unnamed).
/// Nullopt when the schema has no such positional argument.
/// `schema` is the target's schema (null when it has none): look it up once
/// per node with Registry::getOperators().lookupTarget.
std::optional<llvm::StringRef> positionalName(const OperatorSchema *schema,
                                              llvm::StringRef target, size_t index);

/// The strides a tensor of `m`'s sizes has when none are written: row-major
/// contiguous (symbolic strides in sympy's plain form), or nullopt when a
/// size does not parse or the product overflows.
std::optional<std::vector<SymValue>> defaultStrides(IRContext &ctx, const TensorMeta &m);

/// defaultStrides, remembered per shape: programs repeat a few symbolic
/// shapes many times, and working out their strides parses expressions.
class StridesCache {
public:
  explicit StridesCache(IRContext &ctx) : ctx(ctx) {}
  const std::optional<std::vector<SymValue>> &get(const TensorMeta &m);

private:
  IRContext &ctx;
  llvm::StringMap<std::optional<std::vector<SymValue>>> cache;
  llvm::SmallString<128> key;
};

} // namespace pt2ir::text

#endif
