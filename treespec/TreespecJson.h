//===- TreespecJson.h - Bounded JSON parsing --------------------*- C++ -*-===//
//
// Treespec strings and the contexts inside them are JSON written by Python's
// `json.dumps`. This file parses such text with RapidJSON's iterative parser
// (no recursion on the C++ stack), full-precision doubles, the bare
// `Infinity`/`NaN` tokens Python emits, and a cap on nesting depth, so later
// recursive walks over the result (such as `appendPyJsonValue`) stay bounded.
//
// It does not interpret the JSON; the treespec format lives in Treespec.h.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_TREESPEC_TREESPECJSON_H
#define PT2IR_TREESPEC_TREESPECJSON_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <rapidjson/document.h>
#include <string>

namespace pt2ir {

/// Deepest tree of nodes a treespec may describe (the root is level 1).
/// Python's own loader recurses once per level and gives up near 1000.
constexpr unsigned MaxTreespecDepth = 512;

/// Deepest JSON nesting allowed inside one node context.
constexpr unsigned MaxTreespecContextDepth = 64;

/// Deepest JSON nesting allowed in a whole treespec string: two levels per
/// tree level (node object and `children_spec` array), the outer
/// `[protocol, node]` array, and one context.
constexpr unsigned MaxTreespecJsonDepth =
    2 * MaxTreespecDepth + MaxTreespecContextDepth + 2;

/// Parses `text` into `doc`, rejecting syntax errors, trailing content, NUL
/// bytes and nesting deeper than `maxDepth` arrays/objects. `what` names the
/// text in error messages (for example "treespec" or "context string").
llvm::Error parseBoundedJson(llvm::StringRef text, unsigned maxDepth,
                             llvm::StringRef what, rapidjson::Document &doc);

/// Returns the array/object nesting depth of `v` (a scalar has depth 0),
/// walking iteratively and stopping early once `limit` is exceeded (the
/// result is then `limit + 1`).
unsigned jsonNestingDepth(const rapidjson::Value &v, unsigned limit);

/// Names the JSON type of `v` for error messages ("a string", "null", ...).
llvm::StringRef describeJsonType(const rapidjson::Value &v);

/// Creates an llvm::Error carrying `message`.
llvm::Error makeTreespecError(const llvm::Twine &message);

} // namespace pt2ir

#endif
