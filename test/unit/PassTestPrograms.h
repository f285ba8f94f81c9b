//===- PassTestPrograms.h - Programs for pass tests -------------*- C++ -*-===//
//
// Builds ExportedProgram JSON from a few lines of description, so each pass
// test states only the nodes it is about. Every tensor is f32[2] unless
// given other metadata; the module call graph has its root entry so the
// verifier accepts the programs. Test-only; not part of any library.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_TEST_UNIT_PASSTESTPROGRAMS_H
#define PT2IR_TEST_UNIT_PASSTESTPROGRAMS_H

#include "pt2ir/ir/ExportedProgram.h"
#include "pt2ir/passes/PassRegistry.h"
#include "pt2ir/serde/ProgramReader.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace pt2ir::testing {

/// `{"as_tensor": {"name": N}}`
inline std::string tensorArg(const std::string &name) {
  return R"({"as_tensor": {"name": ")" + name + R"("}})";
}
/// `{"as_sym_int": {"as_name": N}}`
inline std::string symIntArg(const std::string &name) {
  return R"({"as_sym_int": {"as_name": ")" + name + R"("}})";
}
/// `{"as_sym_bool": {"as_name": N}}`
inline std::string symBoolArg(const std::string &name) {
  return R"({"as_sym_bool": {"as_name": ")" + name + R"("}})";
}
inline std::string intArg(int64_t v) {
  return R"({"as_int": )" + std::to_string(v) + "}";
}
inline std::string stringArg(const std::string &s) {
  return R"({"as_string": ")" + s + R"("})";
}
inline std::string graphArg(const std::string &name, const std::string &graph) {
  return R"({"as_graph": {"name": ")" + name + R"(", "graph": )" + graph + "}}";
}

/// A SymExpr-or-int entry: digits become `as_int`, anything else `as_expr`.
inline std::string symSlot(const std::string &s) {
  bool isInt =
      !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
  if (isInt)
    return R"({"as_int": )" + s + "}";
  return R"({"as_expr": {"expr_str": ")" + s + R"(", "hint": null}})";
}

/// TensorMeta JSON with the given sizes (contiguous strides when not given).
inline std::string tensorMeta(const std::vector<std::string> &sizes,
                              std::vector<std::string> strides = {}) {
  if (strides.empty())
    strides.assign(sizes.size(), "1");
  std::string json = R"({"dtype": 7, "sizes": [)";
  for (size_t i = 0; i < sizes.size(); ++i)
    json += (i ? ", " : "") + symSlot(sizes[i]);
  json +=
      R"(], "requires_grad": false, "device": {"type": "cpu", "index": null}, "strides": [)";
  for (size_t i = 0; i < strides.size(); ++i)
    json += (i ? ", " : "") + symSlot(strides[i]);
  json += R"(], "storage_offset": {"as_int": 0}, "layout": 7})";
  return json;
}

/// One node. Inputs are (schema argument name, Argument JSON); outputs are
/// Argument JSON.
inline std::string
nodeJson(const std::string &target,
         const std::vector<std::pair<std::string, std::string>> &inputs,
         const std::vector<std::string> &outputs, const std::string &name,
         const std::string &metadata = "{}") {
  std::string json = R"({"target": ")" + target + R"(", "inputs": [)";
  for (size_t i = 0; i < inputs.size(); ++i)
    json += std::string(i ? ", " : "") + R"({"name": ")" + inputs[i].first +
            R"(", "arg": )" + inputs[i].second + R"(, "kind": 1})";
  json += R"(], "outputs": [)";
  for (size_t i = 0; i < outputs.size(); ++i)
    json += (i ? ", " : "") + outputs[i];
  json += R"(], "metadata": )" + metadata +
          R"(, "is_hop_single_tensor_return": null, "name": ")" + name +
          R"("})";
  return json;
}

/// A Graph struct. Tensor inputs/outputs are given by name; `tensors` maps
/// every tensor name to its TensorMeta JSON.
struct GraphSpec {
  std::vector<std::string> inputs;
  std::vector<std::string> nodes;
  std::vector<std::string> outputs;
  std::map<std::string, std::string> tensors;
  std::map<std::string, std::string> symInts;  ///< name -> expr_str
  std::map<std::string, std::string> symBools; ///< name -> expr_str

  /// Gives every name in `names` the f32[2] metadata.
  GraphSpec &f32(const std::vector<std::string> &names) {
    for (const std::string &n : names)
      tensors[n] = tensorMeta({"2"});
    return *this;
  }

  std::string json() const {
    auto list = [](const std::vector<std::string> &names) {
      std::string s = "[";
      for (size_t i = 0; i < names.size(); ++i)
        s += (i ? ", " : "") + tensorArg(names[i]);
      return s + "]";
    };
    auto table = [](const std::map<std::string, std::string> &m, bool expr) {
      std::string s = "{";
      bool first = true;
      for (const auto &[k, v] : m) {
        s +=
            (first ? "\"" : ", \"") + k + "\": " +
            (expr ? R"({"as_expr": {"expr_str": ")" + v + R"(", "hint": null}})"
                  : v);
        first = false;
      }
      return s + "}";
    };
    std::string nodeList = "[";
    for (size_t i = 0; i < nodes.size(); ++i)
      nodeList += (i ? ",\n" : "\n") + nodes[i];
    nodeList += "]";
    return R"({"inputs": )" + list(inputs) + R"(, "outputs": )" +
           list(outputs) + R"(, "nodes": )" + nodeList +
           R"(, "tensor_values": )" + table(tensors, false) +
           R"(, "sym_int_values": )" + table(symInts, true) +
           R"(, "sym_bool_values": )" + table(symBools, true) +
           R"(, "is_single_tensor_return": false, "custom_obj_values": {}, "sym_float_values": {}})";
  }
};

/// A whole program whose graph inputs are all user inputs and whose graph
/// outputs are all user outputs. `rangeConstraints` is the JSON object.
inline std::string programJson(const GraphSpec &g,
                               const std::string &rangeConstraints = "{}",
                               const std::string &verifiers = R"(["ATEN"])") {
  std::string inSpecs, outSpecs, inLeaves, outLeaves;
  const char *leaf =
      R"({\"type\": null, \"context\": null, \"children_spec\": []})";
  for (size_t i = 0; i < g.inputs.size(); ++i) {
    inSpecs += (i ? ", " : "") + std::string(R"({"user_input": {"arg": )") +
               tensorArg(g.inputs[i]) + "}}";
    inLeaves += (i ? ", " : "") + std::string(leaf);
  }
  for (size_t i = 0; i < g.outputs.size(); ++i) {
    outSpecs += (i ? ", " : "") + std::string(R"({"user_output": {"arg": )") +
                tensorArg(g.outputs[i]) + "}}";
    outLeaves += (i ? ", " : "") + std::string(leaf);
  }
  std::string inSpec =
      R"([1, {\"type\": \"builtins.tuple\", \"context\": \"null\", \"children_spec\": [{\"type\": \"builtins.tuple\", \"context\": \"null\", \"children_spec\": [)" +
      inLeaves +
      R"(]}, {\"type\": \"builtins.dict\", \"context\": \"[]\", \"children_spec\": []}]}])";
  std::string outSpec =
      g.outputs.size() == 1
          ? std::string("[1, ") + leaf + "]"
          : R"([1, {\"type\": \"builtins.tuple\", \"context\": \"null\", \"children_spec\": [)" +
                outLeaves + "]}]";
  return R"({"graph_module": {"graph": )" + g.json() +
         R"(, "signature": {"input_specs": [)" + inSpecs +
         R"(], "output_specs": [)" + outSpecs +
         R"(]}, "module_call_graph": [{"fqn": "", "signature": {"inputs": [], "outputs": [], "in_spec": ")" +
         inSpec + R"(", "out_spec": ")" + outSpec +
         R"(", "forward_arg_names": null}}], "metadata": {}, "treespec_namedtuple_fields": {}}, "opset_version": {"aten": 10}, "range_constraints": )" +
         rangeConstraints +
         R"(, "schema_version": {"major": 8, "minor": 19}, "verifiers": )" +
         verifiers + R"(, "torch_version": "2.9.0", "guards_code": []})";
}

/// Reads `json`, failing the current test on error.
/// Reads `json` against `registry` (null: the default registry).
inline ExportedProgram
readOrFail(const std::string &json,
           std::shared_ptr<const Registry> registry = nullptr) {
  ReadOptions options;
  options.registry = registry;
  auto ep = readProgram(json, options);
  if (!ep) {
    ADD_FAILURE() << llvm::toString(ep.takeError()) << "\n" << json;
    return ExportedProgram();
  }
  return std::move(*ep);
}

/// Runs the registered pass `name` with `options` on `ep` and returns its
/// statistic `statistic` (0 when the pass did not set it; -1, with a test
/// failure, on error). `changed` receives what the pass returned.
inline int64_t runPassForStatistic(ExportedProgram &ep, llvm::StringRef name,
                                   llvm::StringRef statistic,
                                   const PassOptions &options = {},
                                   bool *changed = nullptr) {
  auto pass = createPass(*Registry::getDefault(), name, options);
  if (!pass) {
    ADD_FAILURE() << llvm::toString(pass.takeError());
    return -1;
  }
  PassContext ctx;
  auto result = (*pass)->run(ep, ctx);
  if (!result) {
    ADD_FAILURE() << llvm::toString(result.takeError());
    return -1;
  }
  if (changed)
    *changed = *result;
  const auto &stats = (*pass)->getStatistics();
  auto it = stats.find(statistic.str());
  return it == stats.end() ? 0 : it->second;
}

/// The node names of `g`, in order.
inline std::vector<std::string> nodeNames(const Graph &g) {
  std::vector<std::string> names;
  for (const Node &n : g.getNodes())
    names.push_back(n.getName().str());
  return names;
}

} // namespace pt2ir::testing

#endif
