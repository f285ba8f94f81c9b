//===- MetaRuleTable.h - The docs table of shape and dtype rules -*- C++ -*-===//
//
// `pt2-opt --list-meta-rules`: prints docs/meta-rules.md, the Markdown
// table of every rule in infer/Rules.def (operator, family, whether the
// operator is core ATen, what the rule computes) with counts. The page is
// this output, so it cannot drift from the table; a test compares them.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_TOOLS_METARULETABLE_H
#define PT2IR_TOOLS_METARULETABLE_H

#include "llvm/Support/raw_ostream.h"

namespace pt2ir {

class Registry;

/// Prints the page; `registry` tells which operators carry the core tag.
void printMetaRuleTable(llvm::raw_ostream &os, const Registry &registry);

} // namespace pt2ir

#endif
