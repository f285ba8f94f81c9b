//===- SignatureChecks.cpp - Graph inputs/outputs against the signature ---===//
//
// Checks the top-level graph against its GraphSignature, in the order the
// upstream verifier does:
//  - signature-input-count: one input spec per graph input (the finding
//    lists the names missing on either side; pairwise checks are skipped);
//  - signature-input-name: each spec names the graph input it is paired
//    with;
//  - signature-input-kind: the spec kind fits the graph input (parameter,
//    buffer, tensor_constant and token specs pair with as_tensor, custom_obj
//    with as_custom_obj, constant_input with a constant of the same member,
//    user_input with the same member as its own argument);
//  - signature-input-target: parameter/buffer/tensor_constant/custom_obj
//    specs name a non-empty target, and no parameter or buffer twice;
//  - signature-output-count, signature-output-name, signature-output-kind:
//    the same for outputs;
//  - signature-output-order: tokens, then mutations (buffer, parameter,
//    user input), then user and loss outputs, then gradients;
//  - signature-mutation-target: mutations and gradients point at a buffer,
//    parameter or user input the input specs declare, each at most once;
//  - signature-unknown-spec (warning): a spec member this build does not
//    know is not checked.
//
// It deliberately does not check the state dict or constants (they live in
// the archive, not in the program JSON), nor the input order (upstream does
// not require one).
//
//===----------------------------------------------------------------------===//

#include "pt2ir/verifier/Checks.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace pt2ir::verifier {

namespace {

/// The name of the one value an argument names, or empty.
llvm::StringRef slotName(const Argument &arg) {
  llvm::StringRef name;
  arg.forEachUse([&](Use *u) {
    if (name.empty())
      name = u->getName();
  });
  return name;
}

/// True for members that carry a constant rather than naming a value.
bool isConstantMember(ArgKind kind) {
  switch (kind) {
  case ArgKind::None:
  case ArgKind::Int:
  case ArgKind::Float:
  case ArgKind::String:
  case ArgKind::Bool:
  case ArgKind::Ints:
  case ArgKind::Floats:
  case ArgKind::Strings:
  case ArgKind::Bools:
  case ArgKind::ScalarType:
  case ArgKind::MemoryFormat:
  case ArgKind::Layout:
  case ArgKind::Device:
  case ArgKind::Complex:
    return true;
  default:
    return false;
  }
}

/// Position class of an output spec: tokens, mutations, user outputs,
/// gradients; -1 for unknown members.
int outputRank(OutputKind kind) {
  switch (kind) {
  case OutputKind::Token:
    return 0;
  case OutputKind::BufferMutation:
  case OutputKind::ParameterMutation:
  case OutputKind::UserInputMutation:
    return 1;
  case OutputKind::UserOutput:
  case OutputKind::LossOutput:
    return 2;
  case OutputKind::GradientToParameter:
  case OutputKind::GradientToUserInput:
    return 3;
  case OutputKind::Unknown:
    return -1;
  }
  return -1;
}

/// `1 input`, `2 inputs`.
std::string counted(size_t n, const std::string &noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

const char *const RankNames[] = {"token", "mutation", "user output",
                                 "gradient"};

class SignatureChecker {
public:
  explicit SignatureChecker(VerifierContext &ctx)
      : ctx(ctx), g(ctx.program().getGraph()),
        sig(ctx.program().graphModule.signature) {}

  void run() {
    checkInputTargets();
    if (checkInputCount())
      for (size_t i = 0; i < sig.inputSpecs.size(); ++i)
        checkInputPair(i);
    if (checkOutputCount())
      for (size_t i = 0; i < sig.outputSpecs.size(); ++i)
        checkOutputPair(i);
    checkOutputOrder();
    checkMutationTargets();
  }

private:
  std::string inputPath(size_t i) const {
    return "graph_module.signature.input_specs[" + std::to_string(i) + "]";
  }
  std::string outputPath(size_t i) const {
    return "graph_module.signature.output_specs[" + std::to_string(i) + "]";
  }
  uint64_t inputOrder(size_t i) const {
    return ctx.sectionOrder(Section::InputSpecs, i);
  }
  uint64_t outputOrder(size_t i) const {
    return ctx.sectionOrder(Section::OutputSpecs, i);
  }

  /// Lists the value names one side has and the other lacks.
  static std::string missingNames(const std::vector<llvm::StringRef> &from,
                                  const std::vector<llvm::StringRef> &in) {
    llvm::StringSet<> present;
    for (llvm::StringRef n : in)
      present.insert(n);
    std::string out;
    for (llvm::StringRef n : from) {
      if (n.empty() || present.count(n))
        continue;
      if (!out.empty())
        out += ", ";
      out += n.str();
    }
    return out.empty() ? "none" : out;
  }

  template <typename Specs>
  void reportCount(const char *what, const std::vector<Argument> &graphSide,
                   const Specs &specs, llvm::StringRef rule, std::string path,
                   uint64_t order) {
    std::vector<llvm::StringRef> graphNames, specNames;
    for (const Argument &a : graphSide)
      graphNames.push_back(slotName(a));
    for (const auto &s : specs)
      specNames.push_back(s.getArgName());
    ctx.error(rule, std::move(path), "", order,
              "the graph has " + counted(graphSide.size(), what) +
                  " but the signature has " +
                  counted(specs.size(), std::string(what) + " spec") + "; " +
                  what +
                  "s without a spec: " + missingNames(graphNames, specNames) +
                  "; specs without a graph " + what + ": " +
                  missingNames(specNames, graphNames));
  }

  bool checkInputCount() {
    if (g.getInputs().size() == sig.inputSpecs.size())
      return true;
    reportCount("input", g.getInputs(), sig.inputSpecs, "signature-input-count",
                "graph_module.signature.input_specs", inputOrder(0));
    return false;
  }

  bool checkOutputCount() {
    if (g.getOutputs().size() == sig.outputSpecs.size())
      return true;
    reportCount("output", g.getOutputs(), sig.outputSpecs,
                "signature-output-count", "graph_module.signature.output_specs",
                outputOrder(0));
    return false;
  }

  /// Checks that a spec's own argument has the member its kind requires.
  void checkSpecMember(const Argument &arg, ArgKind expected,
                       llvm::StringRef specKind, llvm::StringRef rule,
                       const std::string &path, llvm::StringRef nodeName,
                       uint64_t order) {
    if (arg.getKind() == expected)
      return;
    ctx.error(rule, path + ".arg", nodeName, order,
              specKind + " spec holds " + argKindMemberName(arg.getKind()) +
                  " instead of " + argKindMemberName(expected));
  }

  void checkInputPair(size_t i) {
    const InputSpec &spec = sig.inputSpecs[i];
    const Argument &input = g.getInputs()[i];
    std::string path = inputPath(i);
    llvm::StringRef inputName = slotName(input);
    llvm::StringRef specKind = inputKindMemberName(spec.kind);
    uint64_t order = inputOrder(i);
    if (spec.kind == InputKind::Unknown) {
      ctx.warning("signature-unknown-spec", path, inputName, order,
                  "input spec member '" + spec.unknownKey +
                      "' is not known to this build and was not checked");
      return;
    }

    // The graph input's member for this spec kind.
    ArgKind want = ArgKind::Unknown;
    switch (spec.kind) {
    case InputKind::Parameter:
    case InputKind::Buffer:
    case InputKind::TensorConstant:
      checkSpecMember(spec.arg, ArgKind::Tensor, specKind,
                      "signature-input-kind", path, inputName, order);
      want = ArgKind::Tensor;
      break;
    case InputKind::Token:
      checkSpecMember(spec.arg, ArgKind::Token, specKind,
                      "signature-input-kind", path, inputName, order);
      want = ArgKind::Tensor;
      break;
    case InputKind::CustomObj:
      checkSpecMember(spec.arg, ArgKind::CustomObj, specKind,
                      "signature-input-kind", path, inputName, order);
      want = ArgKind::CustomObj;
      break;
    case InputKind::ConstantInput:
      if (!isConstantMember(input.getKind())) {
        ctx.error("signature-input-kind", path, inputName, order,
                  "constant_input spec '" + spec.target +
                      "' is paired with graph input " +
                      argKindMemberName(input.getKind()) +
                      ", which is not a constant");
        return;
      }
      want = spec.arg.getKind();
      break;
    case InputKind::UserInput:
      want = spec.arg.getKind();
      break;
    case InputKind::Unknown:
      return;
    }
    if (input.getKind() != want) {
      ctx.error("signature-input-kind", path, inputName, order,
                specKind + " spec expects graph input " + std::to_string(i) +
                    " to be " + argKindMemberName(want) + ", but it is " +
                    argKindMemberName(input.getKind()));
      return;
    }
    if (spec.kind == InputKind::ConstantInput)
      return;
    llvm::StringRef specName = spec.getArgName();
    if (specName != inputName)
      ctx.error("signature-input-name", path + ".arg", inputName, order,
                specKind + " spec names '" + specName + "', but graph input " +
                    std::to_string(i) + " is '" + inputName + "'");
  }

  void checkInputTargets() {
    llvm::StringMap<size_t> parameters, buffers;
    for (size_t i = 0; i < sig.inputSpecs.size(); ++i) {
      const InputSpec &spec = sig.inputSpecs[i];
      llvm::StringRef field = inputKindTargetField(spec.kind);
      if (field.empty())
        continue;
      llvm::StringRef name = spec.getArgName();
      if (spec.target.empty()) {
        ctx.error("signature-input-target", inputPath(i) + "." + field.str(),
                  name, inputOrder(i),
                  inputKindMemberName(spec.kind) + " spec has an empty " +
                      field);
        continue;
      }
      llvm::StringMap<size_t> *seen =
          spec.kind == InputKind::Parameter ? &parameters
          : spec.kind == InputKind::Buffer  ? &buffers
                                            : nullptr;
      if (!seen)
        continue;
      auto [it, inserted] = seen->try_emplace(spec.target, i);
      if (!inserted)
        ctx.error("signature-input-target", inputPath(i) + "." + field.str(),
                  name, inputOrder(i),
                  inputKindMemberName(spec.kind) + " '" + spec.target +
                      "' is already declared by input spec " +
                      std::to_string(it->second));
    }
  }

  void checkOutputPair(size_t i) {
    const OutputSpec &spec = sig.outputSpecs[i];
    const Argument &output = g.getOutputs()[i];
    std::string path = outputPath(i);
    llvm::StringRef outputName = slotName(output);
    llvm::StringRef specKind = outputKindMemberName(spec.kind);
    uint64_t order = outputOrder(i);
    if (spec.kind == OutputKind::Unknown) {
      ctx.warning("signature-unknown-spec", path, outputName, order,
                  "output spec member '" + spec.unknownKey +
                      "' is not known to this build and was not checked");
      return;
    }
    ArgKind want;
    if (spec.kind == OutputKind::UserOutput) {
      want = spec.arg.getKind();
    } else {
      ArgKind specMember =
          spec.kind == OutputKind::Token ? ArgKind::Token : ArgKind::Tensor;
      checkSpecMember(spec.arg, specMember, specKind, "signature-output-kind",
                      path, outputName, order);
      want = ArgKind::Tensor;
    }
    if (output.getKind() != want) {
      ctx.error("signature-output-kind", path, outputName, order,
                specKind + " spec expects graph output " + std::to_string(i) +
                    " to be " + argKindMemberName(want) + ", but it is " +
                    argKindMemberName(output.getKind()));
      return;
    }
    llvm::StringRef specName = spec.getArgName();
    if (specName != outputName)
      ctx.error("signature-output-name", path + ".arg", outputName, order,
                specKind + " spec names '" + specName + "', but graph output " +
                    std::to_string(i) + " is '" + outputName + "'");
  }

  void checkOutputOrder() {
    int highest = -1;
    size_t highestAt = 0;
    for (size_t i = 0; i < sig.outputSpecs.size(); ++i) {
      const OutputSpec &spec = sig.outputSpecs[i];
      int rank = outputRank(spec.kind);
      if (rank < 0)
        continue;
      if (rank < highest) {
        ctx.error("signature-output-order", outputPath(i), spec.getArgName(),
                  outputOrder(i),
                  outputKindMemberName(spec.kind) + " output comes after " +
                      "output_specs[" + std::to_string(highestAt) + "] (a " +
                      RankNames[highest] +
                      "); outputs must be tokens, then mutations, then user "
                      "outputs, then gradients");
        continue;
      }
      if (rank > highest) {
        highest = rank;
        highestAt = i;
      }
    }
  }

  void checkMutationTargets() {
    llvm::StringSet<> parameters, buffers, userInputs;
    for (const InputSpec &spec : sig.inputSpecs) {
      if (spec.kind == InputKind::Parameter)
        parameters.insert(spec.target);
      else if (spec.kind == InputKind::Buffer)
        buffers.insert(spec.target);
      else if (spec.kind == InputKind::UserInput)
        userInputs.insert(spec.getArgName());
    }
    llvm::StringMap<size_t> mutated[3];
    for (size_t i = 0; i < sig.outputSpecs.size(); ++i) {
      const OutputSpec &spec = sig.outputSpecs[i];
      const llvm::StringSet<> *declared = nullptr;
      const char *what = "";
      int slot = -1;
      switch (spec.kind) {
      case OutputKind::BufferMutation:
        declared = &buffers, what = "buffer", slot = 0;
        break;
      case OutputKind::ParameterMutation:
        declared = &parameters, what = "parameter", slot = 1;
        break;
      case OutputKind::UserInputMutation:
        declared = &userInputs, what = "user input", slot = 2;
        break;
      case OutputKind::GradientToParameter:
        declared = &parameters, what = "parameter";
        break;
      case OutputKind::GradientToUserInput:
        declared = &userInputs, what = "user input";
        break;
      default:
        continue;
      }
      std::string path =
          outputPath(i) + "." + outputKindTargetField(spec.kind).str();
      llvm::StringRef name = spec.getArgName();
      if (!declared->count(spec.target)) {
        ctx.error("signature-mutation-target", path, name, outputOrder(i),
                  outputKindMemberName(spec.kind) + " output '" + name +
                      "' points at " + what + " '" + spec.target +
                      "', which no input spec declares");
        continue;
      }
      if (slot < 0)
        continue;
      auto [it, inserted] = mutated[slot].try_emplace(spec.target, i);
      if (!inserted)
        ctx.error("signature-mutation-target", path, name, outputOrder(i),
                  llvm::Twine(what) + " '" + spec.target +
                      "' is already mutated by output spec " +
                      std::to_string(it->second));
    }
  }

  VerifierContext &ctx;
  const Graph &g;
  const GraphSignature &sig;
};

} // namespace

void checkSignature(VerifierContext &ctx) { SignatureChecker(ctx).run(); }

} // namespace pt2ir::verifier
