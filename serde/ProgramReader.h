//===- ProgramReader.h - JSON to ExportedProgram -----------------*- C++ -*-===//
//
// Reads the serialized ExportedProgram JSON (schema major 8, any minor) into
// the IR. Errors name the file, the JSON path (for example
// `graph_module.graph.nodes[12].inputs[0].arg`) and what was expected.
//
// Tolerated legacy forms: as_none written as `[]` or any value; storage_offset
// as a plain integer; SymBool.as_expr as a bare string; non-finite floats as
// the bare tokens Infinity/-Infinity/NaN or as strings; union objects whose
// other members are all null; `dialect` instead of `verifiers`.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_SERDE_PROGRAMREADER_H
#define PT2IR_SERDE_PROGRAMREADER_H

#include "pt2ir/ir/ExportedProgram.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace pt2ir {

/// Rewrites a program of an older or newer schema major into the current one
/// before it is read: `fn` is applied to every JSON value at `keyPath`
/// (dot-separated keys, `[]` for every element of an array, e.g.
/// `graph_module.graph.nodes[].inputs`) and may change it in place.
/// Upgraders run deepest path first. (An upgraded value's object keys lose
/// their order; the reader does not depend on it.)
struct SchemaUpgrader {
  int64_t fromMajor;
  std::string keyPath;
  std::function<llvm::Error(llvm::json::Value &value)> fn;
};

struct ReadOptions {
  /// The registry the program is read against and keeps (see
  /// ir/Registry.h): it resolves `#namespace:op` extension targets and says
  /// whether unregistered ones are accepted. Null: Registry::getDefault().
  std::shared_ptr<const Registry> registry;
  /// Shown in error messages.
  std::string fileName = "<input>";
  /// Deepest JSON nesting accepted (arrays and objects).
  unsigned maxDepth = 512;
  /// Deepest nesting of subgraphs (GraphArgument inside a graph's node)
  /// accepted. Each level costs a few KiB of stack in the reader, the writer,
  /// the printer and clone; 64 keeps reading well under 1 MiB of stack and
  /// matches the verifier's default subgraph-depth check.
  unsigned maxSubgraphDepth = 64;
  /// Longest string accepted, in bytes.
  size_t maxStringLength = size_t(1) << 30;
  /// Upgraders for programs whose major differs from SchemaMajor.
  std::vector<SchemaUpgrader> upgraders;
  /// Try the one-pass reader (serde/StreamingReader.h) first. It gives the
  /// same result; turning it off forces the DOM reader (tests, benchmarks).
  bool useStreamingReader = true;
  /// Called now and then while the one-pass reader works, with how many
  /// bytes from the start of the input it has read so far. The reader may
  /// still look back at those bytes (and the DOM reader, if it takes over,
  /// reads them all again): a caller that maps the input from a file can
  /// drop those pages from memory, since touching them again reads them
  /// back, but must not change them.
  std::function<void(size_t)> onInputRead;
  /// Bytes read between two calls of onInputRead (at least).
  size_t onInputReadEvery = size_t(8) << 20;
};

/// Parses a whole program from JSON text.
llvm::Expected<ExportedProgram> readProgram(llvm::StringRef json,
                                            const ReadOptions &options = {});

/// Reads a program from a file (`-` is standard input).
llvm::Expected<ExportedProgram> readProgramFile(llvm::StringRef path,
                                                ReadOptions options = {});

} // namespace pt2ir

#endif
