//===- Signature.cpp - Graph signature and module call graph --------------===//

#include "pt2ir/ir/Signature.h"

namespace pt2ir {

llvm::StringRef inputKindMemberName(InputKind k) {
  switch (k) {
  case InputKind::UserInput: return "user_input";
  case InputKind::Parameter: return "parameter";
  case InputKind::Buffer: return "buffer";
  case InputKind::TensorConstant: return "tensor_constant";
  case InputKind::CustomObj: return "custom_obj";
  case InputKind::Token: return "token";
  case InputKind::ConstantInput: return "constant_input";
  case InputKind::Unknown: return "unknown";
  }
  return "unknown";
}

llvm::StringRef outputKindMemberName(OutputKind k) {
  switch (k) {
  case OutputKind::UserOutput: return "user_output";
  case OutputKind::LossOutput: return "loss_output";
  case OutputKind::BufferMutation: return "buffer_mutation";
  case OutputKind::GradientToParameter: return "gradient_to_parameter";
  case OutputKind::GradientToUserInput: return "gradient_to_user_input";
  case OutputKind::UserInputMutation: return "user_input_mutation";
  case OutputKind::Token: return "token";
  case OutputKind::ParameterMutation: return "parameter_mutation";
  case OutputKind::Unknown: return "unknown";
  }
  return "unknown";
}

llvm::StringRef inputKindTargetField(InputKind k) {
  switch (k) {
  case InputKind::Parameter: return "parameter_name";
  case InputKind::Buffer: return "buffer_name";
  case InputKind::TensorConstant: return "tensor_constant_name";
  case InputKind::CustomObj: return "custom_obj_name";
  default: return "";
  }
}

llvm::StringRef outputKindTargetField(OutputKind k) {
  switch (k) {
  case OutputKind::BufferMutation: return "buffer_name";
  case OutputKind::GradientToParameter:
  case OutputKind::ParameterMutation: return "parameter_name";
  case OutputKind::GradientToUserInput:
  case OutputKind::UserInputMutation: return "user_input_name";
  default: return "";
  }
}

static llvm::StringRef singleName(const Argument &arg) {
  Use *found = nullptr;
  arg.forEachUse([&](Use *u) {
    if (!found)
      found = u;
  });
  return found ? found->getName() : "";
}

llvm::StringRef InputSpec::getArgName() const {
  if (kind == InputKind::ConstantInput)
    return target;
  return singleName(arg);
}

llvm::StringRef OutputSpec::getArgName() const { return singleName(arg); }

} // namespace pt2ir
