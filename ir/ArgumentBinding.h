//===- ArgumentBinding.h - Positional or keyword, decided safely --*- C++ -*-===//
//
// How a node's input is passed: positionally or by keyword. A stored `kind`
// is kept; files without it (older ones) are decided from the operator
// schema. Two rules keep generated Python valid and faithful:
//  - an argument whose name is a Python keyword (`from`, `to` in
//    `aten.uniform_`) is always positional;
//  - a positional schema argument that has a default but was passed (linear's
//    `bias`) stays positional.
// Symbolic ops and higher-order ops take positional arguments (a HOP keyword
// argument is one with a non-empty name).
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_IR_ARGUMENTBINDING_H
#define PT2IR_IR_ARGUMENTBINDING_H

#include "pt2ir/ir/Node.h"

namespace pt2ir {

class OperatorSchema;

/// True if input `index` of `node` is passed by keyword. `schema` may be
/// null (unknown operator).
bool isPassedByKeyword(const Node &node, size_t index, const OperatorSchema *schema);

/// Looks the node's schema up in the registry of the node's program and
/// decides as above.
bool isPassedByKeyword(const Node &node, size_t index);

} // namespace pt2ir

#endif
