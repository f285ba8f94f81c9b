//===- Signature.h - Graph signature and module call graph -------*- C++ -*-===//
//
// The schema's GraphSignature (one InputSpec per graph input, one OutputSpec
// per graph output), and the module call graph entries with their treespec
// strings. Names here are detached: the verifier checks that they agree
// with the graph.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_IR_SIGNATURE_H
#define PT2IR_IR_SIGNATURE_H

#include "pt2ir/ir/Argument.h"
#include "pt2ir/ir/ExtraFields.h"
#include <optional>
#include <string>
#include <vector>

namespace pt2ir {

/// Members of the InputSpec union, in declaration order.
enum class InputKind : uint8_t {
  UserInput,
  Parameter,
  Buffer,
  TensorConstant,
  CustomObj,
  Token,
  ConstantInput,
  Unknown,
};

/// Members of the OutputSpec union, in declaration order.
enum class OutputKind : uint8_t {
  UserOutput,
  LossOutput,
  BufferMutation,
  GradientToParameter,
  GradientToUserInput,
  UserInputMutation,
  Token,
  ParameterMutation,
  Unknown,
};

llvm::StringRef inputKindMemberName(InputKind k);
llvm::StringRef outputKindMemberName(OutputKind k);
/// The JSON key of the spec's target field (`parameter_name`, `buffer_name`,
/// ...), or empty when the kind has none.
llvm::StringRef inputKindTargetField(InputKind k);
llvm::StringRef outputKindTargetField(OutputKind k);

/// One InputSpec.
struct InputSpec {
  InputKind kind = InputKind::UserInput;
  /// user_input: any Argument; parameter/buffer/tensor_constant: Tensor;
  /// custom_obj: CustomObj; token: Token; constant_input: the ConstantValue.
  Argument arg;
  /// parameter_name / buffer_name / tensor_constant_name / custom_obj_name,
  /// or constant_input's `name`.
  llvm::StringRef target;
  bool persistent = false;
  /// Unknown members of the spec struct, and of the union wrapper.
  ExtraFields extras;
  /// A union member this build does not know: key and json.dumps text.
  std::string unknownKey, unknownJson;

  /// The name of the graph input this spec describes ("" for constants).
  llvm::StringRef getArgName() const;
};

/// One OutputSpec.
struct OutputSpec {
  OutputKind kind = OutputKind::UserOutput;
  /// user_output: any Argument; token: Token; the others: Tensor.
  Argument arg;
  /// buffer_name / parameter_name / user_input_name; empty otherwise.
  llvm::StringRef target;
  ExtraFields extras;
  std::string unknownKey, unknownJson;

  llvm::StringRef getArgName() const;
};

struct GraphSignature {
  std::vector<InputSpec> inputSpecs;
  std::vector<OutputSpec> outputSpecs;
  ExtraFields extras;
};

struct ModuleCallSignature {
  std::vector<Argument> inputs;
  std::vector<Argument> outputs;
  std::string inSpec;
  std::string outSpec;
  std::optional<std::vector<llvm::StringRef>> forwardArgNames;
  ExtraFields extras;
};

struct ModuleCallEntry {
  llvm::StringRef fqn;
  std::optional<ModuleCallSignature> signature;
  ExtraFields extras;
};

struct NamedTupleDef {
  std::vector<llvm::StringRef> fieldNames;
  ExtraFields extras;
};

} // namespace pt2ir

#endif
