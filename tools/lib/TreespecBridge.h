//===- TreespecBridge.h - Treespec leaf counts for the verifier ----*- C++ -*-===//
//
// The verifier does not depend on serde; it takes a callback that counts the
// leaves of a treespec string. This builds one from serde's parser, with the
// program's namedtuple side table registered.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_TOOLS_TREESPECBRIDGE_H
#define PT2IR_TOOLS_TREESPECBRIDGE_H

#include "pt2ir/ir/ExportedProgram.h"
#include <functional>
#include <optional>

namespace pt2ir {

/// A leaf counter for `ep`'s in_spec/out_spec strings. A spec that does not
/// parse yields no count (the verifier's structural spec check reports it).
std::function<std::optional<size_t>(llvm::StringRef)>
makeTreespecLeafCounter(const ExportedProgram &ep);

} // namespace pt2ir

#endif
