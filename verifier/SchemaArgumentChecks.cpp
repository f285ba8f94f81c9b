//===- SchemaArgumentChecks.cpp - Node arguments against schemas ----------===//
//
// For every node whose target resolves to a schema (operator overloads and
// extension operators), checks the inputs and outputs against it:
//  - schema-unknown-argument: every input names a schema argument;
//  - schema-duplicate-argument: no argument is passed twice;
//  - schema-missing-argument: every argument without a default is passed;
//  - schema-keyword-only: a keyword-only argument is not passed positionally
//    (only when the input records `kind`);
//  - schema-positional-gap: positional inputs occupy schema positions 0, 1,
//    2, ... in order, so a reader binds each one to its own parameter (an
//    omitted or keyword argument before a positional one would shift it);
//  - schema-argument-type: the Argument member can satisfy the schema type
//    (see argumentFitsType below for the table);
//  - schema-outputs: the outputs match the schema's returns in number and
//    kind.
//
// It deliberately does not check higher-order operators or symbolic
// builtins (they have no schema), default values, or the values of
// constants (a dim out of range, say).
//
//===----------------------------------------------------------------------===//

#include "pt2ir/verifier/Checks.h"
#include "pt2ir/verifier/Targets.h"

#include "pt2ir/ir/Enums.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"

namespace pt2ir::verifier {

namespace {

bool isEmptyList(const Argument &a) {
  switch (a.getKind()) {
  case ArgKind::Tensors:
  case ArgKind::OptionalTensors:
    return a.getRefs().empty();
  case ArgKind::Ints:
    return a.getInts().empty();
  case ArgKind::Floats:
    return a.getFloats().empty();
  case ArgKind::Strings:
    return a.getStrings().empty();
  case ArgKind::Bools:
    return a.getBools().empty();
  case ArgKind::SymInts:
  case ArgKind::SymBools:
  case ArgKind::SymFloats:
    return a.getSymList().empty();
  default:
    return false;
  }
}

bool isIntLike(ArgKind k) { return k == ArgKind::Int || k == ArgKind::SymInt; }
bool isFloatLike(ArgKind k) {
  return k == ArgKind::Float || k == ArgKind::SymFloat;
}
bool isBoolLike(ArgKind k) {
  return k == ArgKind::Bool || k == ArgKind::SymBool;
}
bool isNumber(ArgKind k) {
  return isIntLike(k) || isFloatLike(k) || isBoolLike(k) ||
         k == ArgKind::Complex;
}

/// Whether a list argument fits a list type `T[]`, `T[N]`, `T?[]`.
bool listFits(const Argument &a, const SchemaType &t) {
  ArgKind k = a.getKind();
  if (isEmptyList(a))
    return true;
  switch (t.Base) {
  case SchemaBaseType::Tensor:
    if (k == ArgKind::Tensors)
      return true;
    if (k == ArgKind::OptionalTensors) {
      if (t.ElementOptional)
        return true;
      for (Use *u : a.getRefs())
        if (!u)
          return false;
      return true;
    }
    return false;
  case SchemaBaseType::Int:
  case SchemaBaseType::SymInt:
    // `int[2] stride=1` also takes a single int, which Python broadcasts.
    return k == ArgKind::Ints || k == ArgKind::SymInts ||
           (t.FixedSize && isIntLike(k));
  case SchemaBaseType::Float:
  case SchemaBaseType::SymFloat:
    return k == ArgKind::Floats || k == ArgKind::SymFloats ||
           k == ArgKind::Ints || k == ArgKind::SymInts;
  case SchemaBaseType::Bool:
  case SchemaBaseType::SymBool:
    return k == ArgKind::Bools || k == ArgKind::SymBools ||
           (t.FixedSize && isBoolLike(k));
  case SchemaBaseType::Scalar:
    return k == ArgKind::Ints || k == ArgKind::Floats || k == ArgKind::Bools ||
           k == ArgKind::SymInts || k == ArgKind::SymFloats ||
           k == ArgKind::SymBools;
  case SchemaBaseType::Str:
  case SchemaBaseType::Dimname:
    return k == ArgKind::Strings;
  default:
    // Lists of generators, streams, ... cannot be told apart here.
    return true;
  }
}

/// Whether argument `a` can be passed for schema type `t`. Python numbers
/// may stand for a Tensor (torch wraps them), ints for floats, and any
/// number for a Scalar; None needs an optional type; empty lists fit any
/// list type (the serializer picks the member from the schema).
bool argumentFitsType(const Argument &a, const SchemaType &t) {
  ArgKind k = a.getKind();
  if (t.Base == SchemaBaseType::Any || k == ArgKind::Unknown)
    return true;
  if (k == ArgKind::None)
    return t.Optional;
  if (k == ArgKind::OptionalTensor && !a.getRef())
    return t.Optional && t.Base == SchemaBaseType::Tensor;
  if (t.IsList)
    return listFits(a, t);
  switch (t.Base) {
  case SchemaBaseType::Tensor:
    return k == ArgKind::Tensor || k == ArgKind::OptionalTensor || isNumber(k);
  case SchemaBaseType::Int:
  case SchemaBaseType::SymInt:
  case SchemaBaseType::DeviceIndex:
    return isIntLike(k);
  case SchemaBaseType::Float:
  case SchemaBaseType::SymFloat:
    return isFloatLike(k) || isIntLike(k);
  case SchemaBaseType::Bool:
  case SchemaBaseType::SymBool:
    return isBoolLike(k);
  case SchemaBaseType::Complex:
  case SchemaBaseType::Scalar:
    return isNumber(k);
  case SchemaBaseType::Str:
  case SchemaBaseType::Dimname:
    return k == ArgKind::String;
  case SchemaBaseType::ScalarType:
    return k == ArgKind::ScalarType;
  case SchemaBaseType::Layout:
    return k == ArgKind::Layout;
  case SchemaBaseType::MemoryFormat:
    return k == ArgKind::MemoryFormat;
  case SchemaBaseType::Device:
    return k == ArgKind::Device || k == ArgKind::String;
  case SchemaBaseType::CustomClass:
    return k == ArgKind::CustomObj;
  default:
    // Generator, Storage, Stream, QScheme, ...: nothing to compare against.
    return true;
  }
}

/// Whether output `a` can hold return type `t`; None stands for an output
/// nobody reads (native_layer_norm_backward with an output mask).
bool outputFitsReturn(const Argument &a, const SchemaType &t) {
  ArgKind k = a.getKind();
  if (k == ArgKind::None || k == ArgKind::Unknown)
    return true;
  if (t.IsList)
    return t.Base == SchemaBaseType::Tensor
               ? k == ArgKind::Tensors || k == ArgKind::OptionalTensors
               : true;
  switch (t.Base) {
  case SchemaBaseType::Tensor:
    return k == ArgKind::Tensor || k == ArgKind::OptionalTensor;
  case SchemaBaseType::Int:
  case SchemaBaseType::SymInt:
    return isIntLike(k);
  case SchemaBaseType::Float:
  case SchemaBaseType::SymFloat:
    return isFloatLike(k);
  case SchemaBaseType::Bool:
  case SchemaBaseType::SymBool:
    return isBoolLike(k);
  case SchemaBaseType::Scalar:
    return isNumber(k);
  default:
    return true;
  }
}

class SchemaArgumentChecker {
public:
  explicit SchemaArgumentChecker(VerifierContext &ctx) : ctx(ctx) {}

  void run() {
    for (const Graph *g : ctx.graphs())
      for (const Node &n : g->getNodes())
        checkNode(n);
  }

private:
  void checkNode(const Node &n) {
    const TargetInfo &info = ctx.targetInfo(n);
    if (info.kind != TargetKind::OpOverload &&
        info.kind != TargetKind::Extension)
      return;
    const OperatorSchema *schema = ctx.schemaOf(n);
    if (!schema)
      return; // Reported as unknown-op.
    checkInputs(n, *schema);
    checkOutputs(n, *schema);
  }

  static std::string argumentList(const OperatorSchema &schema) {
    std::string out;
    for (const SchemaArgument &a : schema.arguments()) {
      if (!out.empty())
        out += ", ";
      out += a.Name.str();
    }
    return out.empty() ? "none" : out;
  }

  void checkInputs(const Node &n, const OperatorSchema &schema) {
    // Built only for a finding: this runs for every node.
    auto op = [&] { return schema.getQualifiedName(); };
    llvm::ArrayRef<SchemaArgument> params = schema.arguments();
    // Per schema argument, the input that passed it (argument names are
    // unique within a schema, so this is the same as keying by name).
    constexpr size_t NotPassed = ~size_t(0);
    llvm::SmallVector<size_t, 16> passed(params.size(), NotPassed);
    size_t positional = 0;
    const auto &inputs = n.getInputs();
    for (size_t i = 0; i < inputs.size(); ++i) {
      const NamedArgument &in = inputs[i];
      auto path = [&, i](const char *field) {
        return ctx.nodePath(n) + ".inputs[" + std::to_string(i) + "]." + field;
      };
      uint64_t order = ctx.nodeOrder(n, unsigned(i));
      std::optional<size_t> index = schema.findArgumentIndex(in.name);
      if (!index) {
        ctx.error("schema-unknown-argument", path("name"), n.getName(), order,
                  "operator '" + op() + "' has no argument '" + in.name +
                      "' (its arguments: " + argumentList(schema) + ")");
        continue;
      }
      if (passed[*index] != NotPassed) {
        ctx.error("schema-duplicate-argument", path("name"), n.getName(), order,
                  "argument '" + in.name + "' is passed twice (inputs " +
                      std::to_string(passed[*index]) + " and " +
                      std::to_string(i) + ")");
        continue;
      }
      passed[*index] = i;
      const SchemaArgument &param = params[*index];
      if (in.kind && *in.kind == static_cast<int64_t>(ArgumentKind::POSITIONAL))
        checkPositional(
            n, [&] { return path("kind"); }, order, param, *index, params,
            positional);
      if (!argumentFitsType(in.arg, param.Type))
        ctx.error("schema-argument-type", path("arg"), n.getName(), order,
                  "argument '" + in.name + "' of '" + op() + "' expects " +
                      param.typeString() + ", but got " +
                      argKindMemberName(in.arg.getKind()));
    }
    for (size_t p = 0; p < params.size(); ++p) {
      const SchemaArgument &param = params[p];
      if (param.DefaultValue || passed[p] != NotPassed)
        continue;
      ctx.error("schema-missing-argument", ctx.nodePath(n) + ".inputs",
                n.getName(), ctx.nodeOrder(n, unsigned(inputs.size())),
                "required argument '" + param.Name + "' (" +
                    param.typeString() + ") of '" + op() + "' is not passed");
    }
  }

  void checkPositional(const Node &n, llvm::function_ref<std::string()> path,
                       uint64_t order, const SchemaArgument &param,
                       size_t index, llvm::ArrayRef<SchemaArgument> params,
                       size_t &positional) {
    if (param.KwargOnly) {
      ctx.error("schema-keyword-only", path(), n.getName(), order,
                "keyword-only argument '" + param.Name +
                    "' is passed positionally (kind 1)");
      return;
    }
    if (index != positional) {
      std::string owner = positional < params.size()
                              ? "'" + params[positional].Name.str() + "'"
                              : std::string("no argument");
      ctx.error("schema-positional-gap", path(), n.getName(), order,
                "argument '" + param.Name +
                    "' is passed positionally in position " +
                    std::to_string(positional) + ", which belongs to " + owner +
                    "; it is schema position " + std::to_string(index));
    }
    ++positional;
  }

  void checkOutputs(const Node &n, const OperatorSchema &schema) {
    llvm::ArrayRef<SchemaReturn> returns = schema.returns();
    const auto &outputs = n.getOutputs();
    auto op = [&] { return schema.getQualifiedName(); };
    uint64_t order = ctx.nodeOrder(n, unsigned(n.getInputs().size()));
    if (returns.empty()) {
      for (size_t i = 0; i < outputs.size(); ++i)
        if (!outputs[i].isNone()) {
          ctx.error("schema-outputs", ctx.nodeOutputPath(n, i), n.getName(),
                    order,
                    "operator '" + op() + "' returns nothing, but output " +
                        std::to_string(i) + " is " +
                        argKindMemberName(outputs[i].getKind()));
          return;
        }
      return;
    }
    if (outputs.size() != returns.size()) {
      ctx.error(
          "schema-outputs", ctx.nodePath(n) + ".outputs", n.getName(), order,
          "operator '" + op() + "' returns " + std::to_string(returns.size()) +
              (returns.size() == 1 ? " value" : " values") +
              ", but the node has " + std::to_string(outputs.size()) +
              (outputs.size() == 1 ? " output" : " outputs"));
      return;
    }
    for (size_t i = 0; i < outputs.size(); ++i) {
      if (outputFitsReturn(outputs[i], returns[i].Type))
        continue;
      ctx.error("schema-outputs", ctx.nodeOutputPath(n, i), n.getName(),
                order + i,
                "output " + std::to_string(i) + " is " +
                    argKindMemberName(outputs[i].getKind()) + ", but '" + op() +
                    "' returns " + returns[i].typeString() + " there");
    }
  }

  VerifierContext &ctx;
};

} // namespace

void checkSchemaArguments(VerifierContext &ctx) {
  SchemaArgumentChecker(ctx).run();
}

} // namespace pt2ir::verifier
