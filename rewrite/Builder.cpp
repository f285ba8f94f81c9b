//===- Builder.cpp - Create nodes the way torch would ---------------------===//
//
// Operands are matched to schema arguments the way torch's serializer walks
// them (schema order; a given argument is positional while every earlier
// one was given and it is not keyword-only, else keyword), and turned into
// Argument members by the value's type, as serialize_input does.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/rewrite/Builder.h"

#include "pt2ir/infer/MetaInference.h"

#include "pt2ir/ir/IRContext.h"
#include "pt2ir/ir/NodeMetadata.h"
#include "pt2ir/ir/OperatorSchema.h"
#include "pt2ir/ir/Registry.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/JSON.h"

namespace pt2ir {

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

//===----------------------------------------------------------------------===//
// BuilderArg
//===----------------------------------------------------------------------===//

BuilderArg::BuilderArg(std::initializer_list<int64_t> ints)
    : BuilderArg(llvm::ArrayRef<int64_t>(ints.begin(), ints.size())) {}

BuilderArg::BuilderArg(llvm::ArrayRef<int64_t> ints) : kind(Kind::List) {
  for (int64_t i : ints)
    elements.emplace_back(i);
}

BuilderArg::BuilderArg(llvm::ArrayRef<Value *> values) : kind(Kind::List) {
  for (Value *v : values)
    elements.emplace_back(static_cast<const Value *>(v));
}

BuilderArg BuilderArg::list(std::vector<BuilderArg> elements) {
  BuilderArg arg;
  arg.kind = Kind::List;
  arg.elements = std::move(elements);
  return arg;
}

//===----------------------------------------------------------------------===//
// Targets
//===----------------------------------------------------------------------===//

std::string toSerializedTarget(llvm::StringRef target) {
  if (!target.contains("::"))
    return target.str();
  auto [ns, rest] = target.split("::");
  auto [name, overload] = rest.split('.');
  return ("torch.ops." + ns + "." + name + "." + (overload.empty() ? "default" : overload)).str();
}

/// `target` as a serialized target, extension namespaces of `operators`
/// written `#ns:op`.
static std::string resolveTarget(llvm::StringRef target, const OperatorRegistry &operators) {
  if (!target.contains("::"))
    return target.str();
  auto [ns, op] = target.split("::");
  if (operators.getExtension(ns)) {
    if (op.ends_with(".default"))
      op = op.drop_back(strlen(".default"));
    return ("#" + ns + ":" + op).str();
  }
  return toSerializedTarget(target);
}

//===----------------------------------------------------------------------===//
// Builder
//===----------------------------------------------------------------------===//

Builder::Builder(Graph &g)
    : graph(&g), insertPoint(g.end()),
      inferMeta([](Node &node) { return infer::fillMissingMeta(node); }) {}

void Builder::setInsertionPointBefore(Node *node) {
  graph = node->getGraph();
  insertPoint = node->getIterator();
}

void Builder::setInsertionPointAfter(Node *node) {
  graph = node->getGraph();
  insertPoint = std::next(node->getIterator());
}

void Builder::setInsertionPointToEnd(Graph &g) {
  graph = &g;
  insertPoint = g.end();
}

void Builder::setProvenance(llvm::ArrayRef<const Node *> replaced, llvm::StringRef passName) {
  provenance.assign(replaced.begin(), replaced.end());
  provenancePass = passName.str();
}

StringPairs Builder::provenanceMetadata() const {
  StringPairs metadata;
  if (provenance.empty())
    return metadata;
  IRContext &ctx = graph->getContext();
  llvm::json::Array sources;
  for (const Node *node : provenance) {
    llvm::json::Array earlier;
    if (std::optional<llvm::StringRef> text = lookupMetadata(node->getMetadata(), "from_node")) {
      auto parsed = parseJsonMetadata(*text);
      if (parsed && parsed->getAsArray())
        earlier = std::move(*parsed->getAsArray());
      else if (!parsed)
        llvm::consumeError(parsed.takeError());
    }
    sources.push_back(llvm::json::Object{{"name", node->getName()},
                                         {"target", node->getTarget()},
                                         {"graph_id", -1},
                                         {"pass_name", provenancePass},
                                         {"action", "replace"},
                                         {"from_node", std::move(earlier)}});
  }
  std::string fromNode;
  llvm::raw_string_ostream os(fromNode);
  os << llvm::json::Value(std::move(sources));
  os.flush();
  metadata.emplace_back(ctx.intern("from_node"), ctx.intern(fromNode));
  copyProvenanceMetadata(*provenance.front(), metadata);
  return metadata;
}

/// Whether a value of `type` fits schema type `base`.
static bool valueFits(ValueType type, const SchemaType &schemaType) {
  switch (type) {
  case ValueType::Tensor:
    return schemaType.Base == SchemaBaseType::Tensor;
  case ValueType::SymInt:
    return llvm::is_contained({SchemaBaseType::SymInt, SchemaBaseType::Int, SchemaBaseType::Scalar},
                              schemaType.Base);
  case ValueType::SymFloat:
    return llvm::is_contained({SchemaBaseType::SymFloat, SchemaBaseType::Float, SchemaBaseType::Scalar},
                              schemaType.Base);
  case ValueType::SymBool:
    return llvm::is_contained({SchemaBaseType::SymBool, SchemaBaseType::Bool, SchemaBaseType::Scalar},
                              schemaType.Base);
  case ValueType::CustomObj:
    return schemaType.Base == SchemaBaseType::CustomClass || schemaType.Base == SchemaBaseType::Any;
  }
  return false;
}

/// The Argument for a value operand.
static Argument valueArgument(IRContext &ctx, const Value &v) {
  switch (v.getType()) {
  case ValueType::Tensor:
    return Argument::tensor(ctx, v.getName());
  case ValueType::SymInt:
    return Argument::sym(ArgKind::SymInt, Argument::symRef(ctx, v.getName()));
  case ValueType::SymBool:
    return Argument::sym(ArgKind::SymBool, Argument::symRef(ctx, v.getName()));
  case ValueType::SymFloat:
    return Argument::sym(ArgKind::SymFloat, Argument::symRef(ctx, v.getName()));
  case ValueType::CustomObj: {
    const ValueMeta *meta = v.getMeta();
    return Argument::customObj(ctx, v.getName(), meta ? meta->customObjClass : llvm::StringRef());
  }
  }
  return Argument::none();
}

llvm::Expected<Argument> Builder::toArgument(const BuilderArg &arg, const SchemaType &type,
                                             llvm::StringRef argName) const {
  IRContext &ctx = graph->getContext();
  auto mismatch = [&](const llvm::Twine &what) {
    return makeError("argument '" + argName + "' of type '" + type.toString() + "' cannot take " + what);
  };
  bool list = type.IsList;
  switch (arg.getKind()) {
  case BuilderArg::Kind::None:
    if (!type.Optional && type.Base != SchemaBaseType::Any)
      return mismatch("None");
    return Argument::none();
  case BuilderArg::Kind::Value: {
    const Value &v = *arg.getValue();
    if (v.getGraph() != graph)
      return makeError("argument '" + argName + "': value '" + v.getName() +
                       "' is not defined in the graph the node is created in");
    if (list || !valueFits(v.getType(), type))
      return mismatch(("the " + valueTypeName(v.getType()) + " value '" + v.getName() + "'").str());
    return valueArgument(ctx, v);
  }
  case BuilderArg::Kind::Int:
    if (list || type.Base == SchemaBaseType::Tensor)
      return mismatch("an int");
    return Argument::integer(arg.getInt());
  case BuilderArg::Kind::Float:
    if (list || type.Base == SchemaBaseType::Tensor)
      return mismatch("a float");
    return Argument::floating(arg.getFloat());
  case BuilderArg::Kind::Bool:
    if (list || type.Base == SchemaBaseType::Tensor)
      return mismatch("a bool");
    return Argument::boolean(arg.getBool());
  case BuilderArg::Kind::String:
    if (list || type.Base == SchemaBaseType::Tensor)
      return mismatch("a string");
    return Argument::string(ctx.intern(arg.getString()));
  case BuilderArg::Kind::ScalarType:
    return Argument::scalarType(arg.getInt());
  case BuilderArg::Kind::MemoryFormat:
    return Argument::memoryFormat(arg.getInt());
  case BuilderArg::Kind::Layout:
    return Argument::layout(arg.getInt());
  case BuilderArg::Kind::Device: {
    Device d = arg.getDevice();
    d.type = ctx.intern(d.type);
    return Argument::device(std::move(d));
  }
  case BuilderArg::Kind::List:
    break;
  }

  // Lists: the member follows the elements, as serialize_input decides.
  llvm::ArrayRef<BuilderArg> elements = arg.getElements();
  if (!list)
    return mismatch("a list");
  auto all = [&](BuilderArg::Kind k) {
    return llvm::all_of(elements, [&](const BuilderArg &e) { return e.getKind() == k; });
  };
  auto isValueOf = [](const BuilderArg &e, ValueType t) {
    return e.getKind() == BuilderArg::Kind::Value && e.getValue()->getType() == t;
  };
  for (const BuilderArg &e : elements)
    if (e.getKind() == BuilderArg::Kind::Value && e.getValue()->getGraph() != graph)
      return makeError("argument '" + argName + "': value '" + e.getValue()->getName() +
                       "' is not defined in the graph the node is created in");
  if (elements.empty()) {
    switch (type.Base) {
    case SchemaBaseType::Tensor:
      return Argument::tensors(ctx, {});
    case SchemaBaseType::Float:
    case SchemaBaseType::SymFloat:
      return Argument::floats({});
    case SchemaBaseType::Bool:
    case SchemaBaseType::SymBool:
      return Argument::bools({});
    case SchemaBaseType::Str:
      return Argument::strings({});
    default:
      return Argument::ints({});
    }
  }
  if (all(BuilderArg::Kind::Int)) {
    std::vector<int64_t> ints;
    for (const BuilderArg &e : elements)
      ints.push_back(e.getInt());
    return Argument::ints(std::move(ints));
  }
  if (all(BuilderArg::Kind::Float)) {
    std::vector<double> floats;
    for (const BuilderArg &e : elements)
      floats.push_back(e.getFloat());
    return Argument::floats(std::move(floats));
  }
  if (all(BuilderArg::Kind::Bool)) {
    std::vector<bool> bools;
    for (const BuilderArg &e : elements)
      bools.push_back(e.getBool());
    return Argument::bools(std::move(bools));
  }
  if (all(BuilderArg::Kind::String)) {
    std::vector<llvm::StringRef> strings;
    for (const BuilderArg &e : elements)
      strings.push_back(ctx.intern(e.getString()));
    return Argument::strings(std::move(strings));
  }
  if (type.Base == SchemaBaseType::Tensor) {
    bool tensors = llvm::all_of(elements, [&](const BuilderArg &e) { return isValueOf(e, ValueType::Tensor); });
    if (tensors) {
      std::vector<llvm::StringRef> names;
      for (const BuilderArg &e : elements)
        names.push_back(e.getValue()->getName());
      return Argument::tensors(ctx, names);
    }
    bool optionalTensors = llvm::all_of(elements, [&](const BuilderArg &e) {
      return isValueOf(e, ValueType::Tensor) || e.getKind() == BuilderArg::Kind::None;
    });
    if (optionalTensors) {
      std::vector<std::optional<llvm::StringRef>> names;
      for (const BuilderArg &e : elements)
        names.push_back(e.getKind() == BuilderArg::Kind::None ? std::nullopt
                                                              : std::optional(e.getValue()->getName()));
      return Argument::optionalTensors(ctx, names);
    }
    return mismatch("a list that is not all tensors (or tensors and None)");
  }
  // Constants mixed with sym values of one type.
  struct SymListKind {
    ValueType value;
    BuilderArg::Kind constant;
    ArgKind member;
  };
  for (SymListKind k : {SymListKind{ValueType::SymInt, BuilderArg::Kind::Int, ArgKind::SymInts},
                        SymListKind{ValueType::SymFloat, BuilderArg::Kind::Float, ArgKind::SymFloats},
                        SymListKind{ValueType::SymBool, BuilderArg::Kind::Bool, ArgKind::SymBools}}) {
    bool fits = llvm::all_of(elements, [&](const BuilderArg &e) {
      return isValueOf(e, k.value) || e.getKind() == k.constant;
    });
    if (!fits)
      continue;
    std::vector<SymArg> items;
    for (const BuilderArg &e : elements) {
      if (e.getKind() == BuilderArg::Kind::Value) {
        items.push_back(Argument::symRef(ctx, e.getValue()->getName()));
        continue;
      }
      SymArg c;
      c.intValue = e.getInt();
      c.floatValue = e.getFloat();
      c.boolValue = e.getBool();
      items.push_back(c);
    }
    return Argument::symList(k.member, std::move(items));
  }
  return mismatch("a list mixing these kinds of elements");
}

llvm::Expected<std::vector<Argument>> Builder::makeOutputs(const OperatorSchema &schema,
                                                           llvm::StringRef base,
                                                           const NodeOptions &options) const {
  IRContext &ctx = graph->getContext();
  llvm::ArrayRef<SchemaReturn> returns = schema.returns();
  // One return is named after the node; several are `getitem`s, as torch
  // names the values a multi-output call yields.
  llvm::StringRef stem = returns.size() == 1 && !returns[0].Type.IsList ? base : "getitem";
  std::vector<llvm::StringRef> taken;
  auto fresh = [&]() {
    llvm::StringRef name = graph->uniqueName(stem);
    // uniqueName does not know the names picked for this node so far.
    while (llvm::is_contained(taken, name))
      name = graph->uniqueName((name + "_").str());
    taken.push_back(name);
    return name;
  };
  std::vector<Argument> outputs;
  for (const SchemaReturn &ret : returns) {
    const SchemaType &type = ret.Type;
    if (type.Base == SchemaBaseType::Tensor && !type.IsList) {
      outputs.push_back(Argument::tensor(ctx, fresh()));
      continue;
    }
    if (type.Base == SchemaBaseType::Tensor && type.IsList) {
      if (!options.listOutputs)
        return makeError("operator '" + schema.getQualifiedName() +
                         "' returns a list of tensors: give NodeOptions::listOutputs");
      std::vector<llvm::StringRef> names;
      for (unsigned i = 0; i < *options.listOutputs; ++i)
        names.push_back(fresh());
      outputs.push_back(Argument::tensors(ctx, names));
      continue;
    }
    ArgKind kind;
    switch (type.Base) {
    case SchemaBaseType::SymInt:
    case SchemaBaseType::Int:
      kind = ArgKind::SymInt;
      break;
    case SchemaBaseType::SymFloat:
    case SchemaBaseType::Float:
      kind = ArgKind::SymFloat;
      break;
    case SchemaBaseType::SymBool:
    case SchemaBaseType::Bool:
      kind = ArgKind::SymBool;
      break;
    default:
      return makeError("operator '" + schema.getQualifiedName() + "' returns '" + type.toString() +
                       "', which the builder cannot create values for");
    }
    if (type.IsList)
      return makeError("operator '" + schema.getQualifiedName() + "' returns '" + type.toString() +
                       "', which the builder cannot create values for");
    outputs.push_back(Argument::sym(kind, Argument::symRef(ctx, fresh())));
  }
  return outputs;
}

llvm::Error Builder::setOutputMeta(Node &node, const NodeOptions &options) const {
  const TensorMeta *like = options.metaLike ? options.metaLike->getTensorMeta() : nullptr;
  if (options.metaLike && !like)
    return makeError("NodeOptions::metaLike names '" + options.metaLike->getName() +
                     "', which has no tensor metadata");
  size_t tensorIndex = 0;
  for (Value *v : node.getResults()) {
    if (v->getType() != ValueType::Tensor)
      continue;
    size_t i = tensorIndex++;
    if (i < options.outputMeta.size() && options.outputMeta[i])
      v->setTensorMeta(*options.outputMeta[i]);
    else if (like)
      v->setTensorMeta(*like);
  }
  if (inferMeta)
    if (auto err = inferMeta(node))
      return err;
  for (Value *v : node.getResults())
    if (v->getType() == ValueType::Tensor && !v->getTensorMeta())
      return makeError("output '" + v->getName() + "' of '" + node.getTarget() +
                       "' has no tensor metadata: give it (NodeOptions::outputMeta or "
                       "NodeOptions::metaLike); no inference rule provided it");
  return llvm::Error::success();
}

llvm::Expected<Node *> Builder::create(llvm::StringRef target, llvm::ArrayRef<BuilderArg> args,
                                       llvm::ArrayRef<BuilderKwarg> kwargs,
                                       const NodeOptions &options) {
  IRContext &ctx = graph->getContext();
  const OperatorRegistry &operators = ctx.getRegistry().getOperators();
  std::string serialized = resolveTarget(target, operators);
  const OperatorSchema *schema = operators.lookupTarget(serialized);
  if (!schema)
    return makeError("cannot create a call of '" + target + "': no schema is registered for '" +
                     serialized + "'");
  llvm::ArrayRef<SchemaArgument> params = schema->arguments();
  auto where = [&](const llvm::Twine &what) {
    return makeError("cannot create a call of '" + schema->getQualifiedName() + "': " + what);
  };

  // Which operand goes to which schema argument.
  std::vector<const BuilderArg *> given(params.size(), nullptr);
  size_t positional = 0;
  for (const BuilderArg &arg : args) {
    while (positional < params.size() && params[positional].KwargOnly)
      ++positional;
    if (positional == params.size())
      return where("it takes at most " + llvm::Twine(positional) + " positional arguments, got " +
                   llvm::Twine(args.size()));
    given[positional++] = &arg;
  }
  for (const BuilderKwarg &kw : kwargs) {
    const SchemaArgument *param = schema->findArgument(kw.first);
    if (!param)
      return where("it has no argument '" + kw.first + "'");
    size_t index = param - params.data();
    if (given[index])
      return where("argument '" + kw.first + "' is given twice");
    given[index] = &kw.second;
  }

  NodeSpec spec;
  spec.target = ctx.intern(serialized);
  bool positionalOpen = true;
  for (size_t i = 0; i < params.size(); ++i) {
    const SchemaArgument &param = params[i];
    if (!given[i]) {
      if (!param.DefaultValue && !param.Type.Optional)
        return where("argument '" + param.Name + "' is missing");
      positionalOpen = false;
      continue;
    }
    auto arg = toArgument(*given[i], param.Type, param.Name);
    if (!arg)
      return where(llvm::toString(arg.takeError()));
    bool byPosition = positionalOpen && !param.KwargOnly;
    if (!byPosition)
      positionalOpen = false;
    spec.inputs.push_back(NamedArgument{ctx.intern(param.Name), std::move(*arg),
                                        int64_t(byPosition ? ArgumentKind::POSITIONAL : ArgumentKind::KEYWORD),
                                        {}});
  }

  llvm::StringRef base = options.name.empty() ? llvm::StringRef(schema->getName()) : llvm::StringRef(options.name);
  auto outputs = makeOutputs(*schema, base, options);
  if (!outputs)
    return where(llvm::toString(outputs.takeError()));
  spec.outputs = std::move(*outputs);
  llvm::StringRef nodeName = graph->uniqueName(base);
  if (spec.outputs.size() == 1 && spec.outputs[0].getKind() != ArgKind::Tensors)
    spec.outputs[0].forEachUse([&](Use *u) { nodeName = u->getName(); });
  spec.name = nodeName;
  spec.metadata = provenanceMetadata();

  auto node = graph->createNode(std::move(spec), insertPoint);
  if (!node)
    return node.takeError();
  if (auto err = setOutputMeta(**node, options)) {
    // Leave the graph as it was: the new node has no users yet.
    llvm::consumeError(graph->eraseNode(*node));
    return where(llvm::toString(std::move(err)));
  }
  return *node;
}

llvm::Expected<Value *> Builder::createValue(llvm::StringRef target, llvm::ArrayRef<BuilderArg> args,
                                             llvm::ArrayRef<BuilderKwarg> kwargs,
                                             const NodeOptions &options) {
  auto node = create(target, args, kwargs, options);
  if (!node)
    return node.takeError();
  if (Value *v = (*node)->getSingleResult())
    return v;
  std::string name = (*node)->getName().str();
  llvm::consumeError(graph->eraseNode(*node));
  return makeError("'" + target + "' does not yield exactly one value (node '" + name + "')");
}

} // namespace pt2ir
