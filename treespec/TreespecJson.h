//===- TreespecJson.h - JSON inside the treespec library --------*- C++ -*-===//
//
// Private to the treespec library (not installed): the public headers speak
// JSON text, and this is where that text meets RapidJSON.
//
// Treespec strings and the contexts inside them are JSON written by Python's
// `json.dumps`. This file parses such text with RapidJSON's iterative parser
// (no recursion on the C++ stack), exact number conversion
// (json/JsonNumbers.h), the bare `Infinity`/`NaN` tokens Python emits, and a
// cap on nesting depth, so later recursive walks over the result (such as
// `appendPyJsonValue`) stay bounded. It also holds the structured views of
// contexts that several files of the library share.
//
// It does not interpret whole treespecs; the format lives in Treespec.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_TREESPEC_TREESPECJSON_H
#define PT2IR_TREESPEC_TREESPECJSON_H

#include "pt2ir/treespec/Treespec.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <rapidjson/document.h>
#include <string>
#include <vector>

namespace pt2ir {

/// Field or key names as Python prints a list of str: `['x', 'y']`; the
/// library's messages quote names this way.
std::string quotedList(llvm::ArrayRef<std::string> names);

/// Parses `text` into `doc`, rejecting syntax errors, trailing content, NUL
/// bytes and nesting deeper than `maxDepth` arrays/objects. `what` names the
/// text in error messages (for example "treespec" or "context string").
llvm::Error parseBoundedJson(llvm::StringRef text, unsigned maxDepth,
                             llvm::StringRef what, rapidjson::Document &doc);

/// Parses the held context of `spec` (an interior node) into `doc`. Fails
/// for a leaf or when the text is not JSON.
llvm::Error parseHeldContext(const TreeSpec &spec, rapidjson::Document &doc);

/// Returns the array/object nesting depth of `v` (a scalar has depth 0),
/// walking iteratively and stopping early once `limit` is exceeded (the
/// result is then `limit + 1`).
unsigned jsonNestingDepth(const rapidjson::Value &v, unsigned limit);

/// Names the JSON type of `v` for error messages ("a string", "null", ...).
llvm::StringRef describeJsonType(const rapidjson::Value &v);

/// Creates an llvm::Error carrying `message`.
llvm::Error makeTreespecError(const llvm::Twine &message);

/// The class name a namedtuple node's context names and, for the legacy
/// `{"class_name": ..., "fields": [...]}` context, the field names it
/// carries.
struct NamedtupleContext {
  std::string ClassName;
  /// Set only for the legacy form.
  std::optional<std::vector<std::string>> LegacyFields;
};

/// Decodes the held context of a namedtuple node, parsed.
llvm::Expected<NamedtupleContext>
decodeNamedtupleContext(const rapidjson::Value &context);

} // namespace pt2ir

#endif
