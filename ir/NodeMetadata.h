//===- NodeMetadata.h - Structured views of node metadata ---------*- C++ -*-===//
//
// Node.metadata is a string-to-string map whose values have formats of their
// own. The IR keeps the original strings (so round trips are exact) and
// these functions parse them into structured form and format them back in
// the encoding they came in:
//
//   nn_module_stack  `key,path,type` entries joined by `;` (commas split only
//                    outside brackets: `layers[(1)]`, `getattr(L['fn'], '0')`),
//                    or a JSON object {"key_list", "path_list", "type_list"}.
//   source_fn_stack  `name,target` entries joined by `;`.
//   torch_fn         `<name>;<class>.<fn>`.
//   custom, from_node  JSON text (custom may hold `quantization_tag`).
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_IR_NODEMETADATA_H
#define PT2IR_IR_NODEMETADATA_H

#include "pt2ir/ir/Node.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <string>
#include <vector>

namespace pt2ir {

struct ModuleStackEntry {
  std::string key;
  std::string path;
  std::string type;
  bool operator==(const ModuleStackEntry &o) const {
    return key == o.key && path == o.path && type == o.type;
  }
};

struct NnModuleStack {
  enum class Encoding { Text, JsonObject };
  Encoding encoding = Encoding::Text;
  std::vector<ModuleStackEntry> entries;
};

/// Parses either encoding; errors say which entry is malformed.
llvm::Expected<NnModuleStack> parseNnModuleStack(llvm::StringRef text);
/// Formats in `stack.encoding`; `parse` then `format` reproduces torch's text.
std::string formatNnModuleStack(const NnModuleStack &stack);

struct SourceFnEntry {
  std::string name;
  std::string target;
};
llvm::Expected<std::vector<SourceFnEntry>> parseSourceFnStack(llvm::StringRef text);
std::string formatSourceFnStack(const std::vector<SourceFnEntry> &entries);

struct TorchFn {
  std::string name;
  std::string function;
};
llvm::Expected<TorchFn> parseTorchFn(llvm::StringRef text);

/// Parses a JSON-valued entry (`custom`, `from_node`).
llvm::Expected<llvm::json::Value> parseJsonMetadata(llvm::StringRef text);
/// `quantization_tag` inside node `custom` metadata, if present.
std::optional<std::string> getQuantizationTag(const Node &node);

/// Copies the metadata a replacement node should inherit (stack_trace,
/// nn_module_stack, source_fn_stack, torch_fn, custom, from_node) from
/// `from` to `to`, keeping entries `to` already has.
void copyProvenanceMetadata(const Node &from, StringPairs &to);

} // namespace pt2ir

#endif
