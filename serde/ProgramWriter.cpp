//===- ProgramWriter.cpp - ExportedProgram to JSON ------------------------===//
//
// Each write function emits one schema struct with its fields in declaration
// order. A struct's unknown fields (ExtraFields) are emitted right after the
// known field they followed in the input.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/serde/ProgramWriter.h"
#include "pt2ir/json/PyJsonWriter.h"

#include "pt2ir/ir/Graph.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <cstring>

namespace pt2ir {
namespace {

/// Emits the fields of one JSON object, interleaving unknown fields.
class ObjectWriter {
public:
  ObjectWriter(std::string &out, const ExtraFields *extras = nullptr)
      : out(out), extras(extras) {
    out += '{';
    emitExtras(-1);
  }
  /// Starts known field number `index` (declaration order) named `key`.
  std::string &field(int index, llvm::StringRef key) {
    if (pendingIndex >= 0)
      emitExtras(pendingIndex);
    // Declared keys are plain identifiers: `, "key": ` in one append.
    char buf[64];
    size_t n = 0;
    if (!first) {
      buf[n++] = ',';
      buf[n++] = ' ';
    }
    first = false;
    if (key.size() > sizeof(buf) - 6) {
      out.append(buf, n);
      appendPyJsonString(out, key);
      out += ": ";
    } else {
      buf[n++] = '"';
      std::memcpy(buf + n, key.data(), key.size());
      n += key.size();
      buf[n++] = '"';
      buf[n++] = ':';
      buf[n++] = ' ';
      out.append(buf, n);
    }
    pendingIndex = index;
    return out;
  }
  ~ObjectWriter() {
    if (pendingIndex >= 0)
      emitExtras(pendingIndex);
    out += '}';
  }

private:
  void separator() {
    if (!first)
      out += ", ";
    first = false;
  }
  void emitExtras(int after) {
    if (!extras || extras->empty())
      return;
    for (const ExtraField &f : extras->get()) {
      if (f.afterField != after)
        continue;
      separator();
      appendPyJsonString(out, f.key);
      out += ": ";
      out += f.json;
    }
  }
  std::string &out;
  const ExtraFields *extras;
  bool first = true;
  int pendingIndex = -1;
};

class Writer {
public:
  /// `ctx` holds the unknown keys of leaf structs; without it they are
  /// not written.
  /// With a `sink`, the bytes written so far go to it whenever `chunkBytes`
  /// have gathered (between nodes and table entries).
  llvm::raw_ostream *sink = nullptr;
  size_t chunkBytes = 0;

  explicit Writer(std::string &out, const IRContext *ctx = nullptr)
      : out(out), ctx(ctx) {}

  void str(llvm::StringRef s) { appendPyJsonString(out, s); }
  void flushToSink() {
    if (!sink || out.size() < chunkBytes)
      return;
    sink->write(out.data(), out.size());
    out.clear();
  }
  void integer(int64_t v) { appendInt(out, v); }
  void boolean(bool b) { out += b ? "true" : "false"; }
  void floating(double d) { appendPyJsonFloatField(out, d); }
  void null() { out += "null"; }
  template <typename T, typename Fn> void list(const std::vector<T> &items, Fn fn) {
    out += '[';
    bool first = true;
    for (const auto &item : items) {
      if (!first)
        out += ", ";
      first = false;
      fn(item);
    }
    out += ']';
  }
  /// A union member this build does not know, written back as it was read.
  void unknownMember(llvm::StringRef key, llvm::StringRef json) {
    out += '{';
    str(key);
    out += ": ";
    out += json;
    out += '}';
  }
  /// A single-member union object.
  template <typename Fn> void unionMember(llvm::StringRef key, Fn fn) {
    out += '{';
    str(key);
    out += ": ";
    fn();
    out += '}';
  }
  /// The unknown keys read with `u`, or null.
  const ExtraFields *extrasOf(const Use *u) const {
    return ctx && u->hasExtraFields() ? ctx->getUseExtras(u) : nullptr;
  }
  void tensorArg(Use *u) {
    if (const ExtraFields *extras = extrasOf(u)) {
      ObjectWriter o(out, extras);
      o.field(0, "name");
      str(u->getName());
      return;
    }
    out += "{\"name\": ";
    str(u->getName());
    out += '}';
  }
  void symArg(ArgKind single, const SymArg &a) {
    if (a.ref)
      return unionMember("as_name", [&] { str(a.ref->getName()); });
    switch (single) {
    case ArgKind::SymInt: return unionMember("as_int", [&] { integer(a.intValue); });
    case ArgKind::SymBool: return unionMember("as_bool", [&] { boolean(a.boolValue); });
    default: return unionMember("as_float", [&] { floating(a.floatValue); });
    }
  }
  void optionalTensor(Use *u) {
    if (u)
      return unionMember("as_tensor", [&] { tensorArg(u); });
    unionMember("as_none", [&] { out += "true"; });
  }
  void device(const Device &d) {
    ObjectWriter o(out, &d.extras);
    o.field(0, "type");
    str(d.type);
    o.field(1, "index");
    if (d.index)
      integer(*d.index);
    else
      null();
  }
  void customObj(const Argument::CustomObjArg &obj) {
    ObjectWriter o(out, extrasOf(obj.ref));
    o.field(0, "name");
    str(obj.ref->getName());
    o.field(1, "class_fqn");
    str(obj.classFqn);
  }

  void argument(const Argument &a);
  void symExpr(const SymExpr &e);
  void symValue(const SymValue &v, ValueTable table);
  void tensorMeta(const TensorMeta &m);
  void node(const Node &n);
  void graph(const Graph &g);
  void stringPairs(const StringPairs &md);
  void inputSpec(const InputSpec &s);
  void outputSpec(const OutputSpec &s);
  void moduleCallEntry(const ModuleCallEntry &e);
  void program(const ExportedProgram &ep);

private:
  std::string &out;
  const IRContext *ctx;
};

void Writer::argument(const Argument &a) {
  ArgKind k = a.getKind();
  if (k == ArgKind::Unknown) {
    unknownMember(a.getUnknown().key, a.getUnknown().json);
    return;
  }
  if (k == ArgKind::Token) { // Only inside specs, written by the caller.
    tensorArg(a.getRef());
    return;
  }
  unionMember(argKindMemberName(k), [&] {
    switch (k) {
    case ArgKind::None: out += "true"; return;
    case ArgKind::Tensor: tensorArg(a.getRef()); return;
    case ArgKind::Tensors: list(a.getRefs(), [&](Use *u) { tensorArg(u); }); return;
    case ArgKind::Int:
    case ArgKind::ScalarType:
    case ArgKind::MemoryFormat:
    case ArgKind::Layout: integer(a.getInt()); return;
    case ArgKind::Ints: list(a.getInts(), [&](int64_t v) { integer(v); }); return;
    case ArgKind::Float: floating(a.getFloat()); return;
    case ArgKind::Floats: list(a.getFloats(), [&](double v) { floating(v); }); return;
    case ArgKind::String:
    case ArgKind::Operator: str(a.getString()); return;
    case ArgKind::Strings: list(a.getStrings(), [&](llvm::StringRef s) { str(s); }); return;
    case ArgKind::SymInt:
    case ArgKind::SymBool:
    case ArgKind::SymFloat: symArg(k, a.getSym()); return;
    case ArgKind::SymInts: list(a.getSymList(), [&](const SymArg &s) { symArg(ArgKind::SymInt, s); }); return;
    case ArgKind::SymBools: list(a.getSymList(), [&](const SymArg &s) { symArg(ArgKind::SymBool, s); }); return;
    case ArgKind::SymFloats: list(a.getSymList(), [&](const SymArg &s) { symArg(ArgKind::SymFloat, s); }); return;
    case ArgKind::Device: device(a.getDevice()); return;
    case ArgKind::Bool: boolean(a.getBool()); return;
    case ArgKind::Bools: list(a.getBools(), [&](bool b) { boolean(b); }); return;
    case ArgKind::Graph: {
      auto &g = a.getGraphArg();
      ObjectWriter o(out, &g.extras);
      o.field(0, "name");
      str(g.name);
      o.field(1, "graph");
      graph(*g.graph);
      return;
    }
    case ArgKind::OptionalTensors: list(a.getRefs(), [&](Use *u) { optionalTensor(u); }); return;
    case ArgKind::OptionalTensor: optionalTensor(a.getRef()); return;
    case ArgKind::CustomObj:
      customObj(a.getCustomObj());
      return;
    case ArgKind::Complex: {
      Argument::Complex c = a.getComplex();
      ObjectWriter o(out, &c.extras);
      o.field(0, "real");
      floating(c.real);
      o.field(1, "imag");
      floating(c.imag);
      return;
    }
    case ArgKind::NestedTensors:
      list(a.getNestedRefs(), [&](const std::vector<Use *> &inner) {
        list(inner, [&](Use *u) { tensorArg(u); });
      });
      return;
    case ArgKind::IntLists:
      list(a.getIntLists(), [&](const std::vector<int64_t> &inner) {
        list(inner, [&](int64_t v) { integer(v); });
      });
      return;
    case ArgKind::FloatLists:
      list(a.getFloatLists(), [&](const std::vector<double> &inner) {
        list(inner, [&](double v) { floating(v); });
      });
      return;
    case ArgKind::StringToArgument: {
      out += '{';
      bool first = true;
      for (auto &entry : a.getStringMap()) {
        if (!first)
          out += ", ";
        first = false;
        str(entry.first);
        out += ": ";
        argument(entry.second);
      }
      out += '}';
      return;
    }
    default: return;
    }
  });
}

void Writer::symExpr(const SymExpr &e) {
  ObjectWriter o(out, &e.extras);
  o.field(0, "expr_str");
  str(e.exprStr);
  o.field(1, "hint");
  if (!e.hint)
    return null();
  switch (e.hint->kind) {
  case SymExprHint::Kind::Int: return unionMember("as_int", [&] { integer(e.hint->intValue); });
  case SymExprHint::Kind::Bool: return unionMember("as_bool", [&] { boolean(e.hint->boolValue); });
  case SymExprHint::Kind::Float: return unionMember("as_float", [&] { floating(e.hint->floatValue); });
  }
}

void Writer::symValue(const SymValue &v, ValueTable table) {
  switch (v.kind) {
  case SymValue::Kind::Expr: return unionMember("as_expr", [&] { symExpr(v.expr); });
  case SymValue::Kind::Int: return unionMember("as_int", [&] { integer(v.intValue); });
  case SymValue::Kind::Bool: return unionMember("as_bool", [&] { boolean(v.boolValue); });
  case SymValue::Kind::Float: return unionMember("as_float", [&] { floating(v.floatValue); });
  }
}

void Writer::tensorMeta(const TensorMeta &m) {
  ObjectWriter o(out, &m.extras);
  o.field(0, "dtype");
  integer(static_cast<int64_t>(m.dtype));
  o.field(1, "sizes");
  list(m.sizes, [&](const SymValue &s) { symValue(s, ValueTable::SymInt); });
  o.field(2, "requires_grad");
  boolean(m.requiresGrad);
  o.field(3, "device");
  device(m.device);
  o.field(4, "strides");
  list(m.strides, [&](const SymValue &s) { symValue(s, ValueTable::SymInt); });
  o.field(5, "storage_offset");
  symValue(m.storageOffset, ValueTable::SymInt);
  o.field(6, "layout");
  integer(static_cast<int64_t>(m.layout));
}

void Writer::stringPairs(const StringPairs &md) {
  out += '{';
  bool first = true;
  for (auto &kv : md) {
    if (!first)
      out += ", ";
    first = false;
    str(kv.first);
    out += ": ";
    str(kv.second);
  }
  out += '}';
}

void Writer::node(const Node &n) {
  ObjectWriter o(out, &n.getExtras());
  o.field(0, "target");
  str(n.getTarget());
  o.field(1, "inputs");
  list(n.getInputs(), [&](const NamedArgument &na) {
    ObjectWriter a(out, &na.extras);
    a.field(0, "name");
    str(na.name);
    a.field(1, "arg");
    argument(na.arg);
    a.field(2, "kind");
    if (na.kind)
      integer(*na.kind);
    else
      null();
  });
  o.field(2, "outputs");
  list(n.getOutputs(), [&](const Argument &a) { argument(a); });
  o.field(3, "metadata");
  stringPairs(n.getMetadata());
  o.field(4, "is_hop_single_tensor_return");
  if (auto v = n.getIsHopSingleTensorReturn())
    boolean(*v);
  else
    null();
  o.field(5, "name");
  if (auto name = n.getStoredName())
    str(*name);
  else
    null();
}

void Writer::graph(const Graph &g) {
  ObjectWriter o(out, &g.getExtras());
  o.field(0, "inputs");
  list(g.getInputs(), [&](const Argument &a) { argument(a); });
  o.field(1, "outputs");
  list(g.getOutputs(), [&](const Argument &a) { argument(a); });
  o.field(2, "nodes");
  out += '[';
  bool first = true;
  for (const Node &n : g.getNodes()) {
    if (!first)
      out += ", ";
    first = false;
    node(n);
    flushToSink();
  }
  out += ']';
  auto table = [&](ValueTable t, auto fn) {
    out += '{';
    bool firstEntry = true;
    for (Value *v : g.getTableEntries(t)) {
      if (!firstEntry)
        out += ", ";
      firstEntry = false;
      str(v->getName());
      out += ": ";
      fn(*v->getMeta());
      flushToSink();
    }
    out += '}';
  };
  o.field(3, "tensor_values");
  table(ValueTable::Tensor, [&](const ValueMeta &m) { tensorMeta(*m.tensor); });
  o.field(4, "sym_int_values");
  table(ValueTable::SymInt, [&](const ValueMeta &m) { symValue(*m.symInt, ValueTable::SymInt); });
  o.field(5, "sym_bool_values");
  table(ValueTable::SymBool, [&](const ValueMeta &m) { symValue(*m.symBool, ValueTable::SymBool); });
  o.field(6, "is_single_tensor_return");
  boolean(g.isSingleTensorReturn());
  o.field(7, "custom_obj_values");
  table(ValueTable::CustomObj, [&](const ValueMeta &m) {
    ObjectWriter c(out, &m.customObjExtras);
    c.field(0, "name");
    str(m.customObjName);
    c.field(1, "class_fqn");
    str(m.customObjClass);
  });
  o.field(8, "sym_float_values");
  table(ValueTable::SymFloat, [&](const ValueMeta &m) { symValue(*m.symFloat, ValueTable::SymFloat); });
}

void Writer::inputSpec(const InputSpec &s) {
  if (s.kind == InputKind::Unknown) {
    unknownMember(s.unknownKey, s.unknownJson);
    return;
  }
  unionMember(inputKindMemberName(s.kind), [&] {
    ObjectWriter o(out, &s.extras);
    switch (s.kind) {
    case InputKind::UserInput:
      o.field(0, "arg");
      argument(s.arg);
      return;
    case InputKind::ConstantInput:
      o.field(0, "name");
      str(s.target);
      o.field(1, "value");
      switch (s.arg.getKind()) {
      case ArgKind::Int: return unionMember("as_int", [&] { integer(s.arg.getInt()); });
      case ArgKind::Float: return unionMember("as_float", [&] { floating(s.arg.getFloat()); });
      case ArgKind::String: return unionMember("as_string", [&] { str(s.arg.getString()); });
      case ArgKind::Bool: return unionMember("as_bool", [&] { boolean(s.arg.getBool()); });
      default: return unionMember("as_none", [&] { out += "true"; });
      }
    case InputKind::CustomObj:
      o.field(0, "arg");
      customObj(s.arg.getCustomObj());
      o.field(1, "custom_obj_name");
      str(s.target);
      return;
    default:
      o.field(0, "arg");
      tensorArg(s.arg.getRef());
      if (s.kind == InputKind::Token)
        return;
      o.field(1, inputKindTargetField(s.kind));
      str(s.target);
      if (s.kind == InputKind::Buffer) {
        o.field(2, "persistent");
        boolean(s.persistent);
      }
      return;
    }
  });
}

void Writer::outputSpec(const OutputSpec &s) {
  if (s.kind == OutputKind::Unknown) {
    unknownMember(s.unknownKey, s.unknownJson);
    return;
  }
  unionMember(outputKindMemberName(s.kind), [&] {
    ObjectWriter o(out, &s.extras);
    o.field(0, "arg");
    if (s.kind == OutputKind::UserOutput)
      argument(s.arg);
    else
      tensorArg(s.arg.getRef());
    llvm::StringRef target = outputKindTargetField(s.kind);
    if (target.empty())
      return;
    o.field(1, target);
    str(s.target);
  });
}

void Writer::moduleCallEntry(const ModuleCallEntry &e) {
  ObjectWriter o(out, &e.extras);
  o.field(0, "fqn");
  str(e.fqn);
  o.field(1, "signature");
  if (!e.signature)
    return null();
  const ModuleCallSignature &sig = *e.signature;
  ObjectWriter s(out, &sig.extras);
  s.field(0, "inputs");
  list(sig.inputs, [&](const Argument &a) { argument(a); });
  s.field(1, "outputs");
  list(sig.outputs, [&](const Argument &a) { argument(a); });
  s.field(2, "in_spec");
  str(sig.inSpec);
  s.field(3, "out_spec");
  str(sig.outSpec);
  s.field(4, "forward_arg_names");
  if (sig.forwardArgNames)
    list(*sig.forwardArgNames, [&](llvm::StringRef n) { str(n); });
  else
    null();
}

void Writer::program(const ExportedProgram &ep) {
  ObjectWriter o(out, &ep.extras);
  o.field(0, "graph_module");
  {
    const GraphModule &gm = ep.graphModule;
    ObjectWriter m(out, &gm.extras);
    m.field(0, "graph");
    graph(*gm.graph);
    m.field(1, "signature");
    {
      ObjectWriter s(out, &gm.signature.extras);
      s.field(0, "input_specs");
      list(gm.signature.inputSpecs, [&](const InputSpec &spec) { inputSpec(spec); });
      s.field(1, "output_specs");
      list(gm.signature.outputSpecs, [&](const OutputSpec &spec) { outputSpec(spec); });
    }
    m.field(2, "module_call_graph");
    list(gm.moduleCallGraph, [&](const ModuleCallEntry &e) { moduleCallEntry(e); });
    m.field(3, "metadata");
    stringPairs(gm.metadata);
    m.field(4, "treespec_namedtuple_fields");
    out += '{';
    bool first = true;
    for (auto &entry : gm.treespecNamedtupleFields) {
      if (!first)
        out += ", ";
      first = false;
      str(entry.first);
      out += ": ";
      ObjectWriter d(out, &entry.second.extras);
      d.field(0, "field_names");
      list(entry.second.fieldNames, [&](llvm::StringRef n) { str(n); });
    }
    out += '}';
  }
  o.field(1, "opset_version");
  out += '{';
  bool first = true;
  for (auto &kv : ep.opsetVersion) {
    if (!first)
      out += ", ";
    first = false;
    str(kv.first);
    out += ": ";
    integer(kv.second);
  }
  out += '}';
  o.field(2, "range_constraints");
  out += '{';
  first = true;
  for (auto &kv : ep.rangeConstraints) {
    if (!first)
      out += ", ";
    first = false;
    str(kv.first);
    out += ": ";
    ObjectWriter r(out, &kv.second.extras);
    r.field(0, "min_val");
    if (kv.second.minVal)
      integer(*kv.second.minVal);
    else
      null();
    r.field(1, "max_val");
    if (kv.second.maxVal)
      integer(*kv.second.maxVal);
    else
      null();
  }
  out += '}';
  o.field(3, "schema_version");
  {
    ObjectWriter v(out, &ep.schemaVersion.extras);
    v.field(0, "major");
    integer(ep.schemaVersion.major);
    v.field(1, "minor");
    integer(ep.schemaVersion.minor);
  }
  o.field(4, "verifiers");
  list(ep.verifiers, [&](llvm::StringRef s) { str(s); });
  o.field(5, "torch_version");
  str(ep.torchVersion);
  o.field(6, "guards_code");
  list(ep.guardsCode, [&](const std::string &s) { str(s); });
}

} // namespace

/// An upper estimate of the JSON size of `g`'s nodes and values, so the
/// output buffer is allocated once instead of doubling (and copying) about
/// thirty times for a large program. Capacity that is never written costs
/// address space, not memory.
static size_t estimateGraphJsonSize(const Graph &g) {
  size_t bytes = 4096 + 256 * g.getInputs().size();
  for (const Node &n : g.getNodes()) {
    bytes += 256 + 160 * n.getInputs().size() + 768 * n.getOutputs().size();
    for (const auto &kv : n.getMetadata())
      bytes += 8 + kv.first.size() + kv.second.size() + kv.second.size() / 4;
  }
  return bytes;
}

std::string writeProgram(const ExportedProgram &ep) {
  std::string out;
  const GraphModule &gm = ep.graphModule;
  out.reserve(estimateGraphJsonSize(*gm.graph) + 256 * gm.signature.inputSpecs.size() +
              128 * gm.moduleCallGraph.size());
  Writer(out, &ep.getContext()).program(ep);
  return out;
}

void writeProgram(const ExportedProgram &ep, llvm::raw_ostream &os, size_t chunkBytes) {
  std::string out;
  out.reserve(chunkBytes + (64u << 10));
  Writer w(out, &ep.getContext());
  w.sink = &os;
  w.chunkBytes = chunkBytes;
  w.program(ep);
  os.write(out.data(), out.size());
}

void writeArgumentJson(std::string &out, const Argument &arg) { Writer(out).argument(arg); }

llvm::Error writeFileAtomically(llvm::StringRef path, llvm::StringRef bytes) {
  return writeFileAtomically(path, [&](llvm::raw_ostream &os) {
    os << bytes;
    return llvm::Error::success();
  });
}

llvm::Error writeFileAtomically(llvm::StringRef path,
                                llvm::function_ref<llvm::Error(llvm::raw_ostream &)> write) {
  if (path == "-") {
    llvm::Error err = write(llvm::outs());
    llvm::outs().flush();
    return err;
  }
  llvm::SmallString<256> dir(path);
  llvm::sys::path::remove_filename(dir);
  if (dir.empty())
    dir = ".";
  llvm::SmallString<256> model(dir);
  llvm::sys::path::append(model, llvm::sys::path::filename(path) + ".tmp-%%%%%%");
  int fd;
  llvm::SmallString<256> tmp;
  if (auto ec = llvm::sys::fs::createUniqueFile(model, fd, tmp))
    return llvm::createStringError(ec, "%s: error: cannot create a temporary file: %s",
                                   path.str().c_str(), ec.message().c_str());
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    if (llvm::Error err = write(os)) {
      os.close();
      os.clear_error();
      llvm::sys::fs::remove(tmp);
      return err;
    }
    os.close();
    if (os.has_error()) {
      std::error_code ec = os.error();
      os.clear_error();
      llvm::sys::fs::remove(tmp);
      return llvm::createStringError(ec, "%s: error: cannot write: %s", path.str().c_str(),
                                     ec.message().c_str());
    }
  }
  if (auto ec = llvm::sys::fs::rename(tmp, path)) {
    llvm::sys::fs::remove(tmp);
    return llvm::createStringError(ec, "%s: error: cannot replace the file: %s", path.str().c_str(),
                                   ec.message().c_str());
  }
  return llvm::Error::success();
}

} // namespace pt2ir
