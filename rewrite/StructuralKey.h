//===- StructuralKey.h - Canonical byte strings for arguments ---*- C++ -*-===//
//
// Encodes an Argument, or a whole Graph, as a string such that two equal
// strings mean structurally equal things: the same union member, the same
// constants (floats compared by bit pattern), the same values in the same
// slots, and, for subgraphs, the same nodes in the same order reading the
// same locally numbered values. Passes use the keys to find equal nodes
// (cse) and equal subgraphs, and the pattern matcher to compare constants.
//
// How a value slot is written is the caller's choice (a pointer for "the
// same value", a local number for "the same position"). This file does not
// compare metadata, node names or stack traces: those never change what a
// node computes.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_REWRITE_STRUCTURALKEY_H
#define PT2IR_REWRITE_STRUCTURALKEY_H

#include "pt2ir/ir/Graph.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace pt2ir {

/// Writes one value slot into `key`; `v` is null for an unresolved slot,
/// whose name `name` is.
using ValueKeyFn =
    llvm::function_ref<void(std::string &key, const Value *v, llvm::StringRef name)>;

/// Appends the encoding of `arg` to `key`. Value slots go through
/// `valueKey`; subgraphs are encoded with appendGraphKey.
void appendArgumentKey(std::string &key, const Argument &arg, ValueKeyFn valueKey);

/// Appends the encoding of `graph`: the kinds of its inputs, each node's
/// target, argument names and arguments, and the outputs, with the values
/// of the graph numbered in definition order. Two graphs get the same
/// encoding exactly when they compute the same thing node for node.
void appendGraphKey(std::string &key, const Graph &graph);

/// True when `a` and `b` have the same appendGraphKey encoding.
bool areStructurallyEqual(const Graph &a, const Graph &b);

/// A value slot written as the value's address: equal keys mean the very
/// same values. Unresolved slots are written by name.
void appendValueIdentity(std::string &key, const Value *v, llvm::StringRef name);

} // namespace pt2ir

#endif
