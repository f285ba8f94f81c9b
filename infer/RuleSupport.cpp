//===- RuleSupport.cpp - Argument reading and shape helpers for the rules -===//

#include "pt2ir/infer/RuleSupport.h"

#include "pt2ir/ir/Graph.h"
#include "pt2ir/ir/IRContext.h"
#include "pt2ir/ir/OperatorRegistry.h"
#include "pt2ir/ir/Registry.h"
#include "pt2ir/ir/Value.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace pt2ir::infer::detail {

char MissingInputError::ID = 0;

void MissingInputError::log(llvm::raw_ostream &os) const { os << what; }

llvm::Error missingInput(const llvm::Twine &what) {
  return llvm::make_error<MissingInputError>(what.str());
}

llvm::Error ruleError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 message.str());
}

namespace {

/// Parses a schema default such as `1`, `-1`, `[]`, `[0, 0]`.
std::optional<std::vector<int64_t>> parseIntListDefault(llvm::StringRef text) {
  text = text.trim();
  std::vector<int64_t> out;
  if (text.consume_front("[")) {
    if (!text.consume_back("]"))
      return std::nullopt;
    llvm::SmallVector<llvm::StringRef, 4> parts;
    text.split(parts, ',', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef p : parts) {
      int64_t v;
      if (p.trim().getAsInteger(10, v))
        return std::nullopt;
      out.push_back(v);
    }
    return out;
  }
  int64_t v;
  if (text.getAsInteger(10, v))
    return std::nullopt;
  out.push_back(v);
  return out;
}

/// True when the strides `meta` records are the contiguous strides of
/// `shape` (size-1 dimensions ignored); strides that do not convert, or of
/// another rank, are not.
bool hasContiguousStrides(InferenceSession &s, const TensorMeta &meta,
                          const Shape &shape) {
  if (meta.strides.size() != shape.size())
    return false;
  // From the innermost dimension out, with the running product of the
  // dimensions inside (what contiguousStrides gives).
  Dim running(1);
  for (size_t i = shape.size(); i-- > 0;) {
    const SymValue &v = meta.strides[i];
    if (v.kind == SymValue::Kind::Int && running.isStatic()) {
      if (!shape[i].isStaticValue(1) && v.intValue != running.getValue())
        return false;
    } else {
      auto d = s.dimOf(v);
      if (!d) {
        llvm::consumeError(d.takeError());
        return false;
      }
      if (!shape[i].isStaticValue(1) && !sameDim(*d, running))
        return false;
    }
    if (i > 0)
      running = running * shape[i];
  }
  return true;
}

/// Reads a tensor input's metadata into `t`; an error when its sizes do not
/// convert.
llvm::Error readTensorArg(InferenceSession &s, const TensorMeta &meta,
                          TensorArg &t) {
  t.meta = &meta;
  if (auto err = s.appendDims(meta.sizes, t.shape))
    return err;
  t.contiguous = hasContiguousStrides(s, meta, t.shape);
  return llvm::Error::success();
}

} // namespace

Args::Args(InferenceSession &session, const Node &node) : s(session), n(node) {
  sch = session.schemaOf(node);
  if (!sch)
    return;
  const auto &params = sch->arguments();
  bySchema.assign(params.size(), nullptr);
  // Inputs usually come in schema order: try the next parameter first
  // (argument names are unique; the schema parser refuses duplicates).
  size_t next = 0;
  for (const NamedArgument &in : node.getInputs()) {
    std::optional<size_t> i;
    if (next < params.size() && params[next].Name == in.name)
      i = next;
    else
      i = sch->findArgumentIndex(in.name);
    if (!i)
      continue;
    bySchema[*i] = &in.arg;
    next = *i + 1;
  }
}

const Argument *Args::get(llvm::StringRef name) const {
  if (!sch) {
    for (const NamedArgument &in : n.getInputs())
      if (in.name == name)
        return &in.arg;
    return nullptr;
  }
  std::optional<size_t> i = sch->findArgumentIndex(name);
  return i ? bySchema[*i] : nullptr;
}

const Argument *Args::at(size_t i) const {
  return i < n.getInputs().size() ? &n.getInputs()[i].arg : nullptr;
}

std::optional<llvm::StringRef> Args::defaultOf(llvm::StringRef name) const {
  if (!sch)
    return std::nullopt;
  if (const SchemaArgument *a = sch->findArgument(name))
    return a->DefaultValue;
  return std::nullopt;
}

// A malformed argument is the schema checks' business (schema-argument-type,
// schema-missing-argument): the rule skips the node like one whose inputs
// lack metadata.
llvm::Error Args::noArgument(llvm::StringRef name) const {
  return missingInput("argument '" + name + "' is missing or of the wrong kind");
}

llvm::Expected<TensorArg> Args::tensorOf(const Argument &arg,
                                         llvm::StringRef what) {
  Use *use = nullptr;
  if (arg.getKind() == ArgKind::Tensor || arg.getKind() == ArgKind::OptionalTensor)
    use = arg.getRef();
  if (!use)
    return missingInput("argument '" + what + "' is not a tensor");
  const Value *v = use->get();
  const TensorMeta *meta = v ? v->getTensorMeta() : nullptr;
  if (!meta)
    return missingInput("input '" + use->getName() + "' has no tensor metadata");
  // Filled in place and returned as is: a TensorArg returned into an
  // Expected would move its shape once more.
  llvm::Expected<TensorArg> t = TensorArg();
  if (auto err = readTensorArg(s, *meta, *t)) {
    llvm::consumeError(t.takeError());
    return missingInput("input '" + use->getName() +
                        "': " + llvm::toString(std::move(err)));
  }
  return t;
}

llvm::Expected<TensorArg> Args::tensor(llvm::StringRef name) {
  const Argument *a = get(name);
  if (!a)
    return noArgument(name);
  return tensorOf(*a, name);
}

llvm::Expected<std::optional<TensorArg>> Args::optTensor(llvm::StringRef name) {
  const Argument *a = get(name);
  if (!a || a->isNone() ||
      (a->getKind() == ArgKind::OptionalTensor && !a->getRef()))
    return std::nullopt;
  PT2IR_TRY(t, tensorOf(*a, name));
  return std::optional<TensorArg>(std::move(t));
}

llvm::Expected<std::vector<std::optional<TensorArg>>>
Args::optTensorList(llvm::StringRef name) {
  const Argument *a = get(name);
  const std::vector<Use *> *refs = a ? a->getIfRefs() : nullptr;
  if (!refs)
    return noArgument(name);
  std::vector<std::optional<TensorArg>> out;
  for (Use *u : *refs) {
    if (!u) {
      out.push_back(std::nullopt);
      continue;
    }
    const TensorMeta *meta = u->get() ? u->get()->getTensorMeta() : nullptr;
    if (!meta)
      return missingInput("input '" + u->getName() + "' has no tensor metadata");
    TensorArg t;
    if (auto err = readTensorArg(s, *meta, t))
      return missingInput("input '" + u->getName() +
                          "': " + llvm::toString(std::move(err)));
    out.push_back(std::move(t));
  }
  return out;
}

llvm::Expected<std::vector<TensorArg>> Args::tensorList(llvm::StringRef name) {
  PT2IR_TRY(list, optTensorList(name));
  std::vector<TensorArg> out;
  for (auto &t : list) {
    if (!t)
      return ruleError("argument '" + name + "' holds None");
    out.push_back(std::move(*t));
  }
  return out;
}

llvm::Expected<Dim> Args::symIntOf(const Argument &arg, llvm::StringRef what) {
  switch (arg.getKind()) {
  case ArgKind::Int:
    return Dim(arg.getInt());
  case ArgKind::SymInt: {
    const SymArg &sa = arg.getSym();
    if (!sa.isRef())
      return Dim(sa.intValue);
    const Value *v = sa.ref->get();
    const SymValue *meta = v ? v->getSymIntMeta() : nullptr;
    if (!meta)
      return missingInput("input '" + sa.ref->getName() + "' has no sym_int metadata");
    return s.dimOf(*meta);
  }
  default:
    return missingInput("argument '" + what + "' is not an int");
  }
}

llvm::Expected<Dim> Args::symInt(llvm::StringRef name) {
  PT2IR_TRY(d, optSymInt(name));
  if (!d)
    return noArgument(name);
  return *d;
}

llvm::Expected<std::optional<Dim>> Args::optSymInt(llvm::StringRef name) {
  const Argument *a = get(name);
  if (!a) {
    std::optional<llvm::StringRef> def = defaultOf(name);
    if (!def || *def == "None")
      return std::nullopt;
    int64_t v;
    if (def->getAsInteger(10, v))
      return ruleError("cannot read the default '" + *def + "' of '" + name + "'");
    return std::optional<Dim>(Dim(v));
  }
  if (a->isNone())
    return std::nullopt;
  PT2IR_TRY(d, symIntOf(*a, name));
  return std::optional<Dim>(d);
}

llvm::Expected<int64_t> Args::intArg(llvm::StringRef name) {
  PT2IR_TRY(d, optInt(name));
  if (!d)
    return noArgument(name);
  return *d;
}

llvm::Expected<std::optional<int64_t>> Args::optInt(llvm::StringRef name) {
  PT2IR_TRY(d, optSymInt(name));
  if (!d)
    return std::nullopt;
  if (!d->isStatic())
    return unsupported("argument '" + name + "' is symbolic (" + d->str() +
                     "); the rule needs a constant");
  return std::optional<int64_t>(d->getValue());
}

llvm::Expected<std::optional<Shape>> Args::optSymInts(llvm::StringRef name) {
  Shape out;
  bool present = false;
  if (auto err = symIntsInto(name, out, present))
    return err;
  if (!present)
    return std::nullopt;
  return std::optional<Shape>(std::move(out));
}

llvm::Error Args::symIntsInto(llvm::StringRef name, Shape &out, bool &present) {
  present = false;
  const Argument *a = get(name);
  if (!a) {
    std::optional<llvm::StringRef> def = defaultOf(name);
    if (!def || *def == "None")
      return llvm::Error::success();
    std::optional<std::vector<int64_t>> v = parseIntListDefault(*def);
    if (!v)
      return ruleError("cannot read the default '" + *def + "' of '" + name +
                       "'");
    for (int64_t x : *v)
      out.push_back(Dim(x));
    present = true;
    return llvm::Error::success();
  }
  switch (a->getKind()) {
  case ArgKind::None:
    return llvm::Error::success();
  case ArgKind::Ints:
    for (int64_t x : a->getInts())
      out.push_back(Dim(x));
    break;
  case ArgKind::SymInts:
    for (const SymArg &sa : a->getSymList()) {
      if (!sa.isRef()) {
        out.push_back(Dim(sa.intValue));
        continue;
      }
      const Value *v = sa.ref->get();
      const SymValue *meta = v ? v->getSymIntMeta() : nullptr;
      if (!meta)
        return missingInput("input '" + sa.ref->getName() +
                            "' has no sym_int metadata");
      PT2IR_TRY(d, s.dimOf(*meta));
      out.push_back(d);
    }
    break;
  case ArgKind::Int:
  case ArgKind::SymInt: {
    PT2IR_TRY(d, symIntOf(*a, name));
    out.push_back(d);
    break;
  }
  default:
    return noArgument(name);
  }
  present = true;
  return llvm::Error::success();
}

llvm::Expected<Shape> Args::symInts(llvm::StringRef name) {
  Shape out;
  bool present = false;
  if (auto err = symIntsInto(name, out, present))
    return err;
  if (!present)
    return noArgument(name);
  return out;
}

llvm::Expected<std::optional<std::vector<int64_t>>>
Args::optInts(llvm::StringRef name) {
  Shape dims;
  bool present = false;
  if (auto err = symIntsInto(name, dims, present))
    return err;
  if (!present)
    return std::nullopt;
  std::vector<int64_t> out;
  for (const Dim &d : dims) {
    if (!d.isStatic())
      return unsupported("argument '" + name + "' holds a symbolic value (" +
                       d.str() + "); the rule needs constants");
    out.push_back(d.getValue());
  }
  return std::optional<std::vector<int64_t>>(std::move(out));
}

llvm::Expected<std::vector<int64_t>> Args::ints(llvm::StringRef name) {
  PT2IR_TRY(v, optInts(name));
  if (!v)
    return noArgument(name);
  return std::move(*v);
}

llvm::Expected<std::optional<bool>> Args::optBool(llvm::StringRef name) {
  const Argument *a = get(name);
  if (!a) {
    std::optional<llvm::StringRef> def = defaultOf(name);
    if (!def || *def == "None")
      return std::nullopt;
    return std::optional<bool>(*def == "True");
  }
  if (a->isNone())
    return std::nullopt;
  if (std::optional<bool> b = a->getIfBool())
    return std::optional<bool>(*b);
  if (const SymArg *sa = a->getIfSym(); sa && !sa->isRef())
    return std::optional<bool>(sa->boolValue);
  if (a->getKind() == ArgKind::Int)
    return std::optional<bool>(a->getInt() != 0);
  return noArgument(name);
}

llvm::Expected<bool> Args::boolArg(llvm::StringRef name) {
  PT2IR_TRY(b, optBool(name));
  if (!b)
    return noArgument(name);
  return *b;
}

llvm::Expected<std::optional<double>> Args::optFloat(llvm::StringRef name) {
  const Argument *a = get(name);
  if (!a) {
    std::optional<llvm::StringRef> def = defaultOf(name);
    if (!def || *def == "None")
      return std::nullopt;
    double v;
    if (def->getAsDouble(v))
      return ruleError("cannot read the default '" + *def + "' of '" + name + "'");
    return std::optional<double>(v);
  }
  switch (a->getKind()) {
  case ArgKind::None:
    return std::nullopt;
  case ArgKind::Float:
    return std::optional<double>(a->getFloat());
  case ArgKind::Int:
    return std::optional<double>(double(a->getInt()));
  case ArgKind::Bool:
    return std::optional<double>(a->getBool() ? 1.0 : 0.0);
  default:
    return ruleError("argument '" + name + "' is not a constant number");
  }
}

std::optional<ScalarType> Args::scalarType(llvm::StringRef name) const {
  const Argument *a = get(name);
  if (!a || a->getKind() != ArgKind::ScalarType)
    return std::nullopt;
  return ScalarType(a->getInt());
}

std::optional<Device> Args::device(llvm::StringRef name) const {
  const Argument *a = get(name);
  if (const Device *d = a ? a->getIfDevice() : nullptr)
    return *d;
  return std::nullopt;
}

std::optional<llvm::StringRef> Args::string(llvm::StringRef name) const {
  const Argument *a = get(name);
  if (a && a->getKind() == ArgKind::String)
    return a->getString();
  if (!a) {
    std::optional<llvm::StringRef> def = defaultOf(name);
    if (def && def->size() >= 2 && def->front() == '"')
      return def->drop_front().drop_back();
  }
  return std::nullopt;
}

std::optional<ScalarCategory> Args::scalarCategory(llvm::StringRef name) const {
  const Argument *a = get(name);
  if (!a) {
    std::optional<llvm::StringRef> def = defaultOf(name);
    if (!def)
      return std::nullopt;
    if (*def == "True" || *def == "False")
      return ScalarCategory::Bool;
    int64_t i;
    if (!def->getAsInteger(10, i))
      return ScalarCategory::Integral;
    return ScalarCategory::Floating;
  }
  switch (a->getKind()) {
  case ArgKind::Int:
  case ArgKind::SymInt:
    return ScalarCategory::Integral;
  case ArgKind::Float:
  case ArgKind::SymFloat:
    return ScalarCategory::Floating;
  case ArgKind::Bool:
  case ArgKind::SymBool:
    return ScalarCategory::Bool;
  case ArgKind::Complex:
    return ScalarCategory::Complex;
  default:
    return std::nullopt;
  }
}

llvm::Expected<Operand> Args::operand(llvm::StringRef name) {
  const Argument *a = get(name);
  Operand op;
  if (a && (a->getKind() == ArgKind::Tensor ||
            a->getKind() == ArgKind::OptionalTensor)) {
    PT2IR_TRY(t, tensorOf(*a, name));
    op.tensor = std::move(t);
    return op;
  }
  std::optional<ScalarCategory> c = scalarCategory(name);
  if (!c)
    return noArgument(name);
  op.category = *c;
  return op;
}

//===----------------------------------------------------------------------===//

llvm::Expected<int64_t> normalizeDim(int64_t dim, int64_t rank) {
  int64_t r = rank == 0 ? 1 : rank;
  if (dim < -r || dim >= r)
    return ruleError("dimension " + llvm::Twine(dim) +
                     " is out of range for a tensor of rank " + llvm::Twine(rank));
  return dim < 0 ? dim + r : dim;
}

bool sameDim(const Dim &a, const Dim &b) {
  if (a.isStatic() && b.isStatic())
    return a.getValue() == b.getValue();
  return compareDims(a, b) == Equality::Equal;
}

llvm::Expected<Shape> broadcastShapes(llvm::ArrayRef<Shape> shapes) {
  size_t rank = 0;
  for (const Shape &s : shapes)
    rank = std::max(rank, s.size());
  Shape out(rank, Dim(1));
  for (const Shape &s : shapes) {
    size_t offset = rank - s.size();
    for (size_t i = 0; i < s.size(); ++i) {
      Dim &o = out[offset + i];
      const Dim &d = s[i];
      if (d.isStaticValue(1) || sameDim(o, d))
        continue;
      if (o.isStaticValue(1)) {
        o = d;
        continue;
      }
      if (o.isStatic() && d.isStatic())
        return ruleError("shapes " + formatShape(shapes.front()) + " and " +
                         formatShape(s) + " do not broadcast (dimension " +
                         llvm::Twine(offset + i) + ": " + llvm::Twine(o.getValue()) +
                         " vs " + llvm::Twine(d.getValue()) + ")");
      // One symbolic: torch guards that they are equal; the static one is
      // the more precise answer.
      if (d.isStatic())
        o = d;
    }
  }
  return out;
}

llvm::Expected<Shape> reducedShape(const Shape &shape,
                                   llvm::ArrayRef<int64_t> dims, bool keepdim,
                                   bool emptyMeansAll) {
  int64_t rank = int64_t(shape.size());
  llvm::SmallVector<bool, 8> reduce(shape.size(), false);
  if (dims.empty() && emptyMeansAll)
    reduce.assign(shape.size(), true);
  for (int64_t d : dims) {
    PT2IR_TRY(nd, normalizeDim(d, rank));
    if (rank > 0)
      reduce[nd] = true;
  }
  Shape out;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (!reduce[i])
      out.push_back(shape[i]);
    else if (keepdim)
      out.push_back(Dim(1));
  }
  return out;
}

TensorInfo freshLike(llvm::ArrayRef<const TensorArg *> inputs,
                     ScalarType dtype, Shape shape) {
  TensorInfo t;
  t.dtype = dtype;
  bool contiguous = true;
  bool grad = false;
  for (const TensorArg *in : inputs) {
    contiguous &= in->contiguous;
    grad |= in->requiresGrad();
  }
  if (!inputs.empty())
    t.device = inputs.front()->device();
  t.requiresGrad = grad && (isFloatingType(dtype) || isComplexType(dtype));
  if (contiguous)
    t.strides = contiguousStrides(shape);
  t.shape = std::move(shape);
  return t;
}

TensorInfo freshLike(const TensorArg &input, ScalarType dtype, Shape shape) {
  const TensorArg *in = &input;
  return freshLike(llvm::ArrayRef<const TensorArg *>(in), dtype,
                   std::move(shape));
}

TensorInfo freshOn(ScalarType dtype, Shape shape, Device device,
                   bool requiresGrad) {
  TensorInfo t;
  t.dtype = dtype;
  t.strides = contiguousStrides(shape);
  t.shape = std::move(shape);
  t.device = std::move(device);
  t.requiresGrad = requiresGrad;
  return t;
}

llvm::Expected<TensorInfo> sameAs(InferenceSession &s, const TensorArg &input) {
  TensorInfo t;
  t.dtype = input.dtype();
  t.shape = input.shape;
  t.device = input.device();
  t.layout = input.meta->layout;
  t.requiresGrad = input.requiresGrad();
  auto strides = s.stridesOf(*input.meta);
  if (!strides)
    llvm::consumeError(strides.takeError());
  else if (strides->size() == t.shape.size())
    t.strides = std::move(*strides);
  return t;
}

void applyMemoryFormat(const Args &a, TensorInfo &t) {
  const Argument *mf = a.get("memory_format");
  if (!mf || mf->getKind() != ArgKind::MemoryFormat)
    return;
  const Shape &s = t.shape;
  switch (MemoryFormat(mf->getInt())) {
  case MemoryFormat::ContiguousFormat:
    t.strides = contiguousStrides(s);
    return;
  case MemoryFormat::ChannelsLast:
  case MemoryFormat::ChannelsLast3d: {
    if (s.size() != 4 && s.size() != 5) {
      t.strides.reset();
      return;
    }
    // Channels innermost, then the spatial dims, then the batch.
    Shape strides(s.size());
    Dim running(1);
    strides[1] = running;
    running = running * s[1];
    for (size_t i = s.size(); i-- > 2;) {
      strides[i] = running;
      running = running * s[i];
    }
    strides[0] = running;
    t.strides = std::move(strides);
    return;
  }
  default:
    return;
  }
}

TensorInfo viewOf(const TensorArg &input, Shape shape,
                  std::optional<Shape> strides) {
  TensorInfo t;
  t.dtype = input.dtype();
  t.shape = std::move(shape);
  t.strides = std::move(strides);
  t.device = input.device();
  t.layout = input.meta->layout;
  t.requiresGrad = input.requiresGrad();
  return t;
}

} // namespace pt2ir::infer::detail
