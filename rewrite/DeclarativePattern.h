//===- DeclarativePattern.h - Patterns written as pairs of graphs -*- C++ -*-===//
//
// A declarative pattern is a small graph to find and a small graph to put
// in its place, as read from a pattern file (rewrite/PatternFile.h):
//
//   inputs:   x, y                          (bind to any value)
//   match:    s = aten::add.Tensor(self=x, other=y)
//             r = aten::relu(self=s)        (the last node is the root)
//   outputs:  r
//   replace:  f = mybackend::add_relu(self=x, other=y)
//   replace outputs: f
//
// Matching is structural, from the root backwards through operands: the
// same targets, the same argument names, equal constants; a pattern input
// binds to any value (the same one wherever it appears); a value the
// pattern computes must be the same graph value wherever it is read. A match
// does not fire when one of its inner values (computed by the pattern but
// not among its outputs) is read outside the match or is a graph output.
//
// The replacement names its operands by the pattern's inputs (and its own
// earlier results) and is built with the Builder, so arguments follow the
// operator schemas. Its outputs take the metadata of the matched outputs
// they replace; an inner replacement value takes the metadata of the
// pattern value its node names with `like`. The matched nodes are erased.
//
// This file holds the in-memory form and the pattern built from it; no
// file syntax is known here.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_REWRITE_DECLARATIVEPATTERN_H
#define PT2IR_REWRITE_DECLARATIVEPATTERN_H

#include "pt2ir/ir/OperatorRegistry.h"
#include "pt2ir/rewrite/RewritePattern.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace pt2ir {

/// Where something was written: file, 1-based line and column.
struct PatternLoc {
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
};

/// `file:line:col: message` as an llvm::Error.
llvm::Error makePatternError(const PatternLoc &loc, const llvm::Twine &message);

/// One argument of a pattern or replacement node.
struct PatternArg {
  enum class Kind : uint8_t {
    Ref, None, Int, Float, Bool, String, ScalarType, MemoryFormat, Layout,
    Device, List
  };
  Kind kind = Kind::None;
  /// The value name (Ref), the text (String), the device type (Device).
  std::string text;
  int64_t intValue = 0; ///< Int, ScalarType, MemoryFormat, Layout, device index (-1: none)
  double floatValue = 0;
  bool boolValue = false;
  std::vector<PatternArg> elements; ///< List
  PatternLoc loc;
};

/// One node of a pattern or replacement graph.
struct PatternNodeSpec {
  /// A serialized target (`torch.ops.aten.relu.default`, `#ns:op`).
  std::string target;
  /// Arguments by schema name, as written.
  std::vector<std::pair<std::string, PatternArg>> args;
  /// Arguments written without a name, in order (the text form); they
  /// precede `args` and get their names from the schema (nameArguments in
  /// rewrite/PatternFile.h).
  std::vector<PatternArg> positional;
  /// The names of the values the node defines.
  std::vector<std::string> results;
  /// Replacement nodes only: the pattern value whose metadata the node's
  /// results take when they are not replacement outputs.
  std::string like;
  PatternLoc loc;
};

/// A pattern and its replacement, as a pattern file describes them.
struct DeclarativePatternSpec {
  std::string name;
  unsigned benefit = 1;
  std::vector<std::string> inputs;
  std::vector<PatternNodeSpec> match;
  std::vector<std::string> outputs;
  std::vector<PatternNodeSpec> replace;
  /// Names of replacement results or pattern inputs, one per output.
  std::vector<std::string> replaceOutputs;
  PatternLoc loc;
};

/// Checks a spec whose arguments all have names on its own (names defined once and before use, every
/// pattern node feeding the root, outputs matching in number) and its
/// replacement targets against `operators` (each must have a schema, and
/// each argument name must be one of the schema's). Errors point at the
/// offending place.
llvm::Error verifyPatternSpec(const DeclarativePatternSpec &spec,
                              const OperatorRegistry &operators);

/// The RewritePattern that applies a verified spec.
std::unique_ptr<RewritePattern>
createDeclarativePattern(DeclarativePatternSpec spec);

} // namespace pt2ir

#endif
