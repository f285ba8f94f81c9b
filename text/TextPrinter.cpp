//===- TextPrinter.cpp - ExportedProgram to the text form -----------------===//
//
// Prints every field of the program so that TextParser.cpp reads back the
// same IR; see docs/text-format.md for the grammar. An argument is printed
// in its natural spelling (`%x`, `3`, `[1, 2]`) when the parser infers its
// union member from that spelling, and tagged with the member name
// (`as_sym_ints([3])`) otherwise. Values that have a default (contiguous
// strides, cpu, ...) are left out.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/text/TextFormat.h"
#include "pt2ir/text/TextSyntax.h"

#include "pt2ir/ir/Graph.h"
#include "pt2ir/ir/OperatorRegistry.h"
#include "pt2ir/ir/PyRepr.h"
#include "llvm/ADT/StringExtras.h"

namespace pt2ir {
using namespace text;

namespace {

/// Where an argument is printed: the parser infers the kind of `%x` from
/// the value it names (Use), from the type that follows (Def), or takes
/// it for a tensor (Detached: signature and module call graph).
enum class Position { Use, Def, Detached };

/// The natural single-value member for a value type.
ArgKind naturalKind(ValueType t) {
  switch (t) {
  case ValueType::Tensor: return ArgKind::Tensor;
  case ValueType::SymInt: return ArgKind::SymInt;
  case ValueType::SymBool: return ArgKind::SymBool;
  case ValueType::SymFloat: return ArgKind::SymFloat;
  case ValueType::CustomObj: return ArgKind::CustomObj;
  }
  return ArgKind::Tensor;
}

/// The value type the parser infers for a def from the type printed for
/// `v` (its first table entry, or its bare type name).
ValueType printedType(const Value &v) {
  const ValueMeta *m = v.getMeta();
  if (m) {
    if (m->tensor)
      return ValueType::Tensor;
    if (m->symInt)
      return ValueType::SymInt;
    if (m->symBool)
      return ValueType::SymBool;
    if (m->hasCustomObj)
      return ValueType::CustomObj;
    if (m->symFloat)
      return ValueType::SymFloat;
  }
  return v.getType();
}

class Printer {
public:
  Printer(std::string &out, const ExportedProgram &ep, const TextPrintOptions &options)
      : out(out), ep(ep), options(options), stridesCache(ep.getContext()) {}

  void program();

private:
  void indent(unsigned n) { out.append(n, ' '); }
  void quoted(llvm::StringRef s) { appendQuoted(out, s); }
  void integer(int64_t v) { appendInt(out, v); }
  void floating(double v) { appendFloat(out, v); }
  void boolean(bool b) { out += b ? "True" : "False"; }
  void name(char sigil, llvm::StringRef n) {
    out += sigil;
    if (isBareValueName(n))
      out += n;
    else
      quoted(n);
  }
  void keyName(llvm::StringRef n) {
    if (isIdentifier(n))
      out += n;
    else
      quoted(n);
  }
  void extras(const ExtraFields &e) {
    if (e.empty())
      return;
    out += " extra[";
    bool first = true;
    for (const ExtraField &f : e.get()) {
      if (!first)
        out += ", ";
      first = false;
      out += '(';
      integer(f.afterField);
      out += ", ";
      quoted(f.key);
      out += ", ";
      quoted(f.json);
      out += ')';
    }
    out += ']';
  }
  void useExtras(const Use *u) {
    if (u && u->hasExtraFields())
      if (const ExtraFields *e = ep.getContext().getUseExtras(u))
        extras(*e);
  }
  void ref(const Use *u) {
    name('%', u->getName());
    useExtras(u);
  }
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

  bool refIsNatural(const Use *u, ArgKind kind, Position pos);
  bool isNatural(const Argument &a, Position pos);
  void argumentBody(const Argument &a, Position pos);
  void argument(const Argument &a, Position pos);
  void symArg(ArgKind single, const SymArg &s);
  void device(const Device &d);
  void symValue(const SymValue &v);
  void symExpr(const SymExpr &e);
  void tensorType(const TensorMeta &m);
  void valueType(const Value &v);
  void defTypes(const Argument &a);
  void node(const Node &n, unsigned ind);
  void graph(const Graph &g, unsigned ind, llvm::StringRef label);
  void signature();
  void moduleCallGraph();
  void rawOrQuoted(llvm::StringRef s);

  std::string &out;
  const ExportedProgram &ep;
  const TextPrintOptions &options;
  StridesCache stridesCache;
};

bool Printer::refIsNatural(const Use *u, ArgKind kind, Position pos) {
  switch (pos) {
  case Position::Detached: return kind == ArgKind::Tensor;
  case Position::Def:
    return u->get() && naturalKind(printedType(*u->get())) == kind;
  case Position::Use:
    return u->get() && naturalKind(u->get()->getType()) == kind;
  }
  return false;
}

bool Printer::isNatural(const Argument &a, Position pos) {
  switch (a.getKind()) {
  case ArgKind::None:
  case ArgKind::Int:
  case ArgKind::Float:
  case ArgKind::String:
  case ArgKind::Bool:
  case ArgKind::ScalarType:
  case ArgKind::MemoryFormat:
  case ArgKind::Layout:
  case ArgKind::Device:
  case ArgKind::Complex:
  case ArgKind::StringToArgument:
    return true;
  case ArgKind::Operator: {
    llvm::StringRef s = a.getString();
    if (!s.starts_with("torch.ops."))
      return false;
    std::string sp = targetSpelling(s);
    return !sp.empty() && !llvm::StringRef(sp).starts_with("torch.") && sp != s;
  }
  case ArgKind::Graph: return pos == Position::Use && isBareValueName(a.getGraphArg().name);
  case ArgKind::Tensor:
  case ArgKind::SymInt:
  case ArgKind::SymBool:
  case ArgKind::SymFloat:
  case ArgKind::CustomObj: {
    if (a.getKind() == ArgKind::CustomObj)
      return false; // Carries its class: always `as_custom_obj(%x, "cls")`.
    const Use *u = a.getKind() == ArgKind::Tensor ? a.getRef() : a.getSym().ref;
    return u && refIsNatural(u, a.getKind(), pos);
  }
  case ArgKind::Ints: return true; // `[]` reads as ints.
  case ArgKind::Floats: return !a.getFloats().empty();
  case ArgKind::Strings: return !a.getStrings().empty();
  case ArgKind::Bools: return !a.getBools().empty();
  case ArgKind::Tensors: {
    auto &refs = a.getRefs();
    return !refs.empty() && llvm::all_of(refs, [&](const Use *u) {
      return refIsNatural(u, ArgKind::Tensor, pos);
    });
  }
  case ArgKind::OptionalTensors: {
    auto &refs = a.getRefs();
    bool anyNone = llvm::any_of(refs, [](const Use *u) { return !u; });
    return anyNone && llvm::all_of(refs, [&](const Use *u) {
      return !u || refIsNatural(u, ArgKind::Tensor, pos);
    });
  }
  case ArgKind::SymInts: {
    // A list of ints and sym int values with at least one value reads as
    // sym ints (without one, as ints).
    if (pos != Position::Use)
      return false;
    auto &items = a.getSymList();
    bool anyRef = llvm::any_of(items, [](const SymArg &s) { return s.ref; });
    return anyRef && llvm::all_of(items, [&](const SymArg &s) {
      return !s.ref || (s.ref->get() && s.ref->get()->getType() == ValueType::SymInt);
    });
  }
  default:
    return false;
  }
}

void Printer::symArg(ArgKind single, const SymArg &s) {
  if (s.ref)
    return ref(s.ref);
  switch (single) {
  case ArgKind::SymBool: return boolean(s.boolValue);
  case ArgKind::SymFloat: return floating(s.floatValue);
  default: return integer(s.intValue);
  }
}

void Printer::device(const Device &d) {
  if (d.type.contains(':')) {
    quoted(d.type);
    out += ", ";
    if (d.index)
      integer(*d.index);
    else
      out += "None";
  } else {
    std::string s = d.type.str();
    if (d.index)
      s += ":" + std::to_string(*d.index);
    quoted(s);
  }
  extras(d.extras);
}

void Printer::argumentBody(const Argument &a, Position pos) {
  switch (a.getKind()) {
  case ArgKind::None: out += "None"; return;
  case ArgKind::Tensor:
  case ArgKind::Token: ref(a.getRef()); return;
  case ArgKind::OptionalTensor:
    if (a.getRef())
      ref(a.getRef());
    else
      out += "None";
    return;
  case ArgKind::Tensors: list(a.getRefs(), [&](const Use *u) { ref(u); }); return;
  case ArgKind::OptionalTensors:
    list(a.getRefs(), [&](const Use *u) {
      if (u)
        ref(u);
      else
        out += "None";
    });
    return;
  case ArgKind::NestedTensors:
    list(a.getNestedRefs(),
         [&](const std::vector<Use *> &inner) { list(inner, [&](const Use *u) { ref(u); }); });
    return;
  case ArgKind::Int: integer(a.getInt()); return;
  case ArgKind::Ints: list(a.getInts(), [&](int64_t v) { integer(v); }); return;
  case ArgKind::Float: floating(a.getFloat()); return;
  case ArgKind::Floats: list(a.getFloats(), [&](double v) { floating(v); }); return;
  case ArgKind::String: quoted(a.getString()); return;
  case ArgKind::Strings: list(a.getStrings(), [&](llvm::StringRef s) { quoted(s); }); return;
  case ArgKind::Bool: boolean(a.getBool()); return;
  case ArgKind::Bools: list(a.getBools(), [&](bool b) { boolean(b); }); return;
  case ArgKind::SymInt:
  case ArgKind::SymBool:
  case ArgKind::SymFloat: symArg(a.getKind(), a.getSym()); return;
  case ArgKind::SymInts:
  case ArgKind::SymBools:
  case ArgKind::SymFloats: {
    ArgKind single = a.getKind() == ArgKind::SymInts    ? ArgKind::SymInt
                     : a.getKind() == ArgKind::SymBools ? ArgKind::SymBool
                                                        : ArgKind::SymFloat;
    list(a.getSymList(), [&](const SymArg &s) { symArg(single, s); });
    return;
  }
  case ArgKind::ScalarType: out += "torch."; out += scalarTypeTorchName(a.getInt()); return;
  case ArgKind::MemoryFormat: out += "torch."; out += torchMemoryFormatName(a.getInt()); return;
  case ArgKind::Layout: out += "torch."; out += torchLayoutName(a.getInt()); return;
  case ArgKind::Device:
    out += "device(";
    device(a.getDevice());
    out += ')';
    return;
  case ArgKind::Graph:
    name('@', a.getGraphArg().name);
    extras(a.getGraphArg().extras);
    return;
  case ArgKind::CustomObj:
    ref(a.getCustomObj().ref);
    out += ", ";
    quoted(a.getCustomObj().classFqn);
    return;
  case ArgKind::Operator: {
    std::string sp = targetSpelling(a.getString());
    if (isNatural(a, pos))
      out += sp;
    else
      quoted(a.getString());
    return;
  }
  case ArgKind::Complex: {
    Argument::Complex c = a.getComplex();
    out += "complex(";
    floating(c.real);
    out += ", ";
    floating(c.imag);
    out += ')';
    extras(c.extras);
    return;
  }
  case ArgKind::IntLists:
    list(a.getIntLists(),
         [&](const std::vector<int64_t> &inner) { list(inner, [&](int64_t v) { integer(v); }); });
    return;
  case ArgKind::FloatLists:
    list(a.getFloatLists(),
         [&](const std::vector<double> &inner) { list(inner, [&](double v) { floating(v); }); });
    return;
  case ArgKind::StringToArgument: {
    out += '{';
    bool first = true;
    for (auto &entry : a.getStringMap()) {
      if (!first)
        out += ", ";
      first = false;
      quoted(entry.first);
      out += ": ";
      argument(entry.second, pos);
    }
    out += '}';
    return;
  }
  case ArgKind::Unknown:
    quoted(a.getUnknown().key);
    out += ", ";
    quoted(a.getUnknown().json);
    return;
  }
}

void Printer::argument(const Argument &a, Position pos) {
  if (isNatural(a, pos))
    return argumentBody(a, pos);
  out += a.getKind() == ArgKind::Token     ? llvm::StringRef("as_token")
         : a.getKind() == ArgKind::Unknown ? llvm::StringRef("as_unknown")
                                           : argKindMemberName(a.getKind());
  out += '(';
  argumentBody(a, pos);
  out += ')';
}

void Printer::symExpr(const SymExpr &e) {
  if (exprPrintsBare(e.exprStr))
    out += e.exprStr;
  else
    quoted(e.exprStr);
  if (!e.hint && e.extras.empty())
    return;
  out += '{';
  if (e.hint) {
    out += "hint=";
    switch (e.hint->kind) {
    case SymExprHint::Kind::Int: integer(e.hint->intValue); break;
    case SymExprHint::Kind::Bool: boolean(e.hint->boolValue); break;
    case SymExprHint::Kind::Float: floating(e.hint->floatValue); break;
    }
    if (!e.extras.empty())
      out += ',';
  }
  extras(e.extras);
  out += '}';
}

void Printer::symValue(const SymValue &v) {
  switch (v.kind) {
  case SymValue::Kind::Expr: return symExpr(v.expr);
  case SymValue::Kind::Int: return integer(v.intValue);
  case SymValue::Kind::Bool: return boolean(v.boolValue);
  case SymValue::Kind::Float: return floating(v.floatValue);
  }
}

static bool sameSymValue(const SymValue &a, const SymValue &b) {
  if (a.kind != b.kind)
    return false;
  switch (a.kind) {
  case SymValue::Kind::Int: return a.intValue == b.intValue;
  case SymValue::Kind::Bool: return a.boolValue == b.boolValue;
  case SymValue::Kind::Float: return false; // Never a default.
  case SymValue::Kind::Expr:
    return a.expr.exprStr == b.expr.exprStr && !a.expr.hint && !b.expr.hint &&
           a.expr.extras.empty() && b.expr.extras.empty();
  }
  return false;
}

void Printer::tensorType(const TensorMeta &m) {
  out += scalarTypeShortName(m.dtype);
  list(m.sizes, [&](const SymValue &s) { symValue(s); });
  bool first = true;
  auto attr = [&](llvm::StringRef key) {
    out += first ? "{" : ", ";
    first = false;
    out += key;
    out += '=';
  };
  bool defaultStride;
  if (llvm::all_of(m.sizes, [](const SymValue &s) { return s.kind == SymValue::Kind::Int; })) {
    // Static sizes: compare without building the default strides.
    defaultStride = m.strides.size() == m.sizes.size();
    int64_t running = 1;
    for (size_t i = m.sizes.size(); defaultStride && i-- > 0;) {
      const SymValue &st = m.strides[i];
      defaultStride = st.kind == SymValue::Kind::Int && st.intValue == running;
      if (__builtin_mul_overflow(running, m.sizes[i].intValue, &running))
        running = 0;
    }
  } else {
    const auto &strides = stridesCache.get(m);
    defaultStride = strides && strides->size() == m.strides.size() &&
                    std::equal(m.strides.begin(), m.strides.end(), strides->begin(),
                               sameSymValue);
  }
  if (!defaultStride) {
    attr("strides");
    list(m.strides, [&](const SymValue &s) { symValue(s); });
  }
  if (!sameSymValue(m.storageOffset, SymValue::ofInt(0))) {
    attr("offset");
    symValue(m.storageOffset);
  }
  if (m.device.type != "cpu" || m.device.index || !m.device.extras.empty()) {
    attr("device");
    if (m.device.type.contains(':')) {
      out += '(';
      device(m.device);
      out += ')';
    } else {
      device(m.device);
    }
  }
  if (m.layout != Layout::Strided) {
    attr("layout");
    out += "torch.";
    out += torchLayoutName(int64_t(m.layout));
  }
  if (m.requiresGrad) {
    attr("requires_grad");
    boolean(true);
  }
  if (!m.extras.empty()) {
    out += first ? "{" : ",";
    first = false;
    extras(m.extras);
  }
  if (!first)
    out += '}';
}

void Printer::valueType(const Value &v) {
  const ValueMeta *m = v.getMeta();
  bool any = false;
  auto sep = [&] {
    if (any)
      out += " & ";
    any = true;
  };
  if (m) {
    if (m->tensor) {
      sep();
      tensorType(*m->tensor);
    }
    auto sym = [&](llvm::StringRef label, const std::unique_ptr<SymValue> &s) {
      if (!s)
        return;
      sep();
      out += label;
      out += '(';
      symValue(*s);
      out += ')';
    };
    sym("SymInt", m->symInt);
    sym("SymBool", m->symBool);
    if (m->hasCustomObj) {
      sep();
      out += "obj(";
      quoted(m->customObjClass);
      if (m->customObjName != v.getName()) {
        out += ", ";
        quoted(m->customObjName);
      }
      extras(m->customObjExtras);
      out += ')';
    }
    sym("SymFloat", m->symFloat);
  }
  if (!any || printedType(v) != v.getType()) {
    // No entry, or entries that do not say the value's type: name it.
    if (any)
      out += " & ";
    out += valueTypeName(v.getType());
  }
}

void Printer::defTypes(const Argument &a) {
  std::vector<const Value *> values;
  a.forEachUse([&](Use *u) {
    if (u->get())
      values.push_back(u->get());
  });
  if (values.empty())
    return;
  out += values.size() > 1 ? ": (" : ": ";
  bool first = true;
  for (const Value *v : values) {
    if (!first)
      out += ", ";
    first = false;
    valueType(*v);
  }
  if (values.size() > 1)
    out += ')';
}

void Printer::node(const Node &n, unsigned ind) {
  indent(ind);
  if (!n.getOutputs().empty()) {
    bool first = true;
    for (const Argument &o : n.getOutputs()) {
      if (!first)
        out += ", ";
      first = false;
      if (o.isNone())
        out += '_';
      else
        argument(o, Position::Def);
    }
    out += " = ";
  }
  std::string target = targetSpelling(n.getTarget());
  if (target.empty())
    quoted(n.getTarget());
  else
    out += target;
  out += '(';
  const OperatorSchema *schema = nullptr;
  bool schemaLooked = false;
  for (size_t i = 0; i < n.getInputs().size(); ++i) {
    const NamedArgument &in = n.getInputs()[i];
    if (i)
      out += ", ";
    bool positional = in.kind && *in.kind == 1;
    std::optional<llvm::StringRef> expected;
    if (positional) {
      if (!schemaLooked) {
        schema = ep.getRegistry().getOperators().lookupTarget(n.getTarget());
        schemaLooked = true;
      }
      expected = positionalName(schema, n.getTarget(), i);
    }
    if (positional && expected && *expected == in.name) {
      argument(in.arg, Position::Use);
    } else if (in.kind && (*in.kind == 1 || *in.kind == 2) && isIdentifier(in.name)) {
      out += in.name;
      out += *in.kind == 2 ? "=" : ": ";
      argument(in.arg, Position::Use);
    } else {
      out += "arg(";
      quoted(in.name);
      out += ", ";
      argument(in.arg, Position::Use);
      out += ", ";
      if (in.kind)
        integer(*in.kind);
      else
        out += "None";
      out += ')';
    }
    extras(in.extras);
  }
  out += ')';
  // Result types, one per defined value.
  bool first = true;
  for (const Argument &o : n.getOutputs())
    o.forEachUse([&](Use *u) {
      if (!u->get())
        return;
      out += first ? " : " : ", ";
      first = false;
      valueType(*u->get());
    });
  // The stored name, unless it is the first result's.
  std::optional<llvm::StringRef> natural;
  for (const Argument &o : n.getOutputs()) {
    if (natural)
      break;
    o.forEachUse([&](Use *u) {
      if (!natural)
        natural = u->getName();
    });
  }
  std::optional<llvm::StringRef> stored = n.getStoredName();
  if (stored != natural) {
    out += " name(";
    if (stored)
      quoted(*stored);
    else
      out += "None";
    out += ')';
  }
  if (auto hop = n.getIsHopSingleTensorReturn()) {
    out += " hop_single_tensor_return(";
    boolean(*hop);
    out += ')';
  }
  extras(n.getExtras());
  if (options.printMetadata && !n.getMetadata().empty()) {
    out += " meta {";
    bool firstMd = true;
    for (auto &kv : n.getMetadata()) {
      out += firstMd ? "" : ", ";
      firstMd = false;
      keyName(kv.first);
      out += " = ";
      quoted(kv.second);
    }
    out += '}';
  }
  out += '\n';
  for (const NamedArgument &in : n.getInputs())
    if (in.arg.getKind() == ArgKind::Graph && in.arg.getGraphArg().graph) {
      std::string label;
      llvm::raw_string_ostream(label) << '@';
      if (isBareValueName(in.arg.getGraphArg().name))
        label += in.arg.getGraphArg().name;
      else
        appendQuoted(label, in.arg.getGraphArg().name);
      graph(*in.arg.getGraphArg().graph, ind + 2, label);
    }
}

/// The table entries in definition order, as the graph gives them when no
/// explicit order was set.
static std::vector<Value *> naturalTableOrder(const Graph &g, ValueTable table,
                                              bool &hasTableOnly) {
  std::vector<Value *> result;
  auto has = [&](const Value *v) {
    const ValueMeta *m = v->getMeta();
    if (!m)
      return false;
    switch (table) {
    case ValueTable::Tensor: return m->tensor != nullptr;
    case ValueTable::SymInt: return m->symInt != nullptr;
    case ValueTable::SymBool: return m->symBool != nullptr;
    case ValueTable::SymFloat: return m->symFloat != nullptr;
    case ValueTable::CustomObj: return m->hasCustomObj;
    }
    return false;
  };
  auto visit = [&](Use *u) {
    if (u->get() && has(u->get()))
      result.push_back(u->get());
  };
  for (const Argument &in : g.getInputs())
    in.forEachUse(visit);
  for (const Node &n : g.getNodes())
    for (const Argument &o : n.getOutputs())
      o.forEachUse(visit);
  hasTableOnly = false;
  for (Value *v : g.getTableEntries(table))
    if (v->getOrigin() == ValueOrigin::TableOnly)
      hasTableOnly = true;
  return result;
}

static const char *tableName(ValueTable t) {
  switch (t) {
  case ValueTable::Tensor: return "tensor_values";
  case ValueTable::SymInt: return "sym_int_values";
  case ValueTable::SymBool: return "sym_bool_values";
  case ValueTable::CustomObj: return "custom_obj_values";
  case ValueTable::SymFloat: return "sym_float_values";
  }
  return "";
}

void Printer::graph(const Graph &g, unsigned ind, llvm::StringRef label) {
  indent(ind);
  out += label;
  out += '(';
  bool first = true;
  for (const Argument &in : g.getInputs()) {
    if (!first)
      out += ", ";
    first = false;
    argument(in, Position::Def);
    defTypes(in);
  }
  out += ") {\n";
  for (const Node &n : g.getNodes())
    node(n, ind + 2);
  // Table entries nothing defines, then tables whose order is not the
  // definition order.
  std::vector<Value *> tableOnly;
  for (unsigned t = 0; t < NumValueTables; ++t)
    for (Value *v : g.getTableEntries(ValueTable(t)))
      if (v->getOrigin() == ValueOrigin::TableOnly && !llvm::is_contained(tableOnly, v))
        tableOnly.push_back(v);
  for (Value *v : tableOnly) {
    indent(ind + 2);
    out += "table_only ";
    name('%', v->getName());
    out += ": ";
    valueType(*v);
    out += '\n';
  }
  for (unsigned t = 0; t < NumValueTables; ++t) {
    bool hasTableOnly = false;
    std::vector<Value *> natural = naturalTableOrder(g, ValueTable(t), hasTableOnly);
    std::vector<Value *> actual = g.getTableEntries(ValueTable(t));
    if (!hasTableOnly && natural == actual)
      continue;
    indent(ind + 2);
    out += "order ";
    out += tableName(ValueTable(t));
    out += " [";
    bool firstEntry = true;
    for (Value *v : actual) {
      if (!firstEntry)
        out += ", ";
      firstEntry = false;
      name('%', v->getName());
    }
    out += "]\n";
  }
  if (g.isSingleTensorReturn()) {
    indent(ind + 2);
    out += "single_tensor_return\n";
  }
  if (!g.getExtras().empty()) {
    indent(ind + 2);
    out += "graph";
    extras(g.getExtras());
    out += '\n';
  }
  indent(ind + 2);
  out += "return";
  first = true;
  for (const Argument &o : g.getOutputs()) {
    out += first ? " " : ", ";
    first = false;
    argument(o, Position::Use);
  }
  out += '\n';
  indent(ind);
  out += "}\n";
}

void Printer::signature() {
  const GraphSignature &sig = ep.graphModule.signature;
  out += "signature {\n";
  for (const InputSpec &s : sig.inputSpecs) {
    out += "  input ";
    switch (s.kind) {
    case InputKind::Unknown:
      out += "unknown ";
      quoted(s.unknownKey);
      out += ' ';
      quoted(s.unknownJson);
      break;
    case InputKind::ConstantInput:
      quoted(s.target);
      out += " = ";
      argument(s.arg, Position::Detached);
      out += " : constant_input";
      break;
    case InputKind::CustomObj:
      ref(s.arg.getCustomObj().ref);
      out += " : custom_obj ";
      quoted(s.target);
      out += " class ";
      quoted(s.arg.getCustomObj().classFqn);
      break;
    case InputKind::UserInput:
      argument(s.arg, Position::Detached);
      out += " : user_input";
      break;
    default:
      ref(s.arg.getRef());
      out += " : ";
      out += inputKindMemberName(s.kind);
      if (s.kind != InputKind::Token) {
        out += ' ';
        quoted(s.target);
      }
      if (s.kind == InputKind::Buffer && !s.persistent)
        out += " non_persistent";
      break;
    }
    extras(s.extras);
    out += '\n';
  }
  for (const OutputSpec &s : sig.outputSpecs) {
    out += "  output ";
    if (s.kind == OutputKind::Unknown) {
      out += "unknown ";
      quoted(s.unknownKey);
      out += ' ';
      quoted(s.unknownJson);
    } else {
      if (s.kind == OutputKind::UserOutput)
        argument(s.arg, Position::Detached);
      else
        ref(s.arg.getRef());
      out += " : ";
      out += outputKindMemberName(s.kind);
      if (!outputKindTargetField(s.kind).empty()) {
        out += ' ';
        quoted(s.target);
      }
    }
    extras(s.extras);
    out += '\n';
  }
  if (!sig.extras.empty()) {
    out += " ";
    extras(sig.extras);
    out += '\n';
  }
  out += "}\n";
}

/// A treespec's JSON as it is when it fits on the line, else quoted.
void Printer::rawOrQuoted(llvm::StringRef s) {
  bool raw = !s.empty() && s.front() != '"' && s.front() != ' ' && s.back() != ' ' &&
             llvm::none_of(s, [](char c) { return static_cast<unsigned char>(c) < 0x20; });
  if (raw)
    out += s;
  else
    quoted(s);
}

void Printer::moduleCallGraph() {
  auto &entries = ep.graphModule.moduleCallGraph;
  // An empty section is printed: without one, the reader gives the program
  // torch's root entry.
  out += "module_call_graph {\n";
  for (const ModuleCallEntry &e : entries) {
    out += "  module ";
    quoted(e.fqn);
    extras(e.extras);
    if (!e.signature) {
      out += '\n';
      continue;
    }
    const ModuleCallSignature &sig = *e.signature;
    auto args = [&](const std::vector<Argument> &items) {
      out += '(';
      bool first = true;
      for (const Argument &a : items) {
        if (!first)
          out += ", ";
        first = false;
        argument(a, Position::Detached);
      }
      out += ')';
    };
    out += ' ';
    args(sig.inputs);
    out += " -> ";
    args(sig.outputs);
    if (sig.forwardArgNames) {
      out += " forward_arg_names ";
      list(*sig.forwardArgNames, [&](llvm::StringRef n) { quoted(n); });
    }
    extras(sig.extras);
    out += "\n    in_spec ";
    rawOrQuoted(sig.inSpec);
    out += "\n    out_spec ";
    rawOrQuoted(sig.outSpec);
    out += '\n';
  }
  out += "}\n";
}

void Printer::program() {
  out += "program schema ";
  integer(ep.schemaVersion.major);
  out += '.';
  integer(ep.schemaVersion.minor);
  out += " torch ";
  quoted(ep.torchVersion);
  out += " verifiers [";
  bool first = true;
  for (llvm::StringRef v : ep.verifiers) {
    if (!first)
      out += ", ";
    first = false;
    keyName(v);
  }
  out += "]\n";
  if (!ep.opsetVersion.empty()) {
    out += "opset_version {";
    first = true;
    for (auto &kv : ep.opsetVersion) {
      out += first ? " " : ", ";
      first = false;
      keyName(kv.first);
      out += ": ";
      integer(kv.second);
    }
    out += " }\n";
  }
  const GraphModule &gm = ep.graphModule;
  bool anyExtras = !ep.extras.empty() || !gm.extras.empty() || !ep.schemaVersion.extras.empty();
  if (anyExtras) {
    out += "extras {\n";
    auto line = [&](const char *what, const ExtraFields &e) {
      if (e.empty())
        return;
      out += "  ";
      out += what;
      extras(e);
      out += '\n';
    };
    line("program", ep.extras);
    line("graph_module", gm.extras);
    line("schema_version", ep.schemaVersion.extras);
    out += "}\n";
  }
  signature();
  if (!ep.rangeConstraints.empty()) {
    out += "range_constraints {\n";
    for (auto &kv : ep.rangeConstraints) {
      out += "  ";
      keyName(kv.first);
      out += " in [";
      if (kv.second.minVal)
        integer(*kv.second.minVal);
      else
        out += "-inf";
      out += ", ";
      if (kv.second.maxVal)
        integer(*kv.second.maxVal);
      else
        out += "inf";
      out += ']';
      extras(kv.second.extras);
      out += '\n';
    }
    out += "}\n";
  }
  graph(ep.getGraph(), 0, "graph");
  moduleCallGraph();
  if (!gm.metadata.empty()) {
    out += "metadata {\n";
    for (auto &kv : gm.metadata) {
      out += "  ";
      quoted(kv.first);
      out += ": ";
      quoted(kv.second);
      out += '\n';
    }
    out += "}\n";
  }
  if (!gm.treespecNamedtupleFields.empty()) {
    out += "namedtuple_fields {\n";
    for (auto &kv : gm.treespecNamedtupleFields) {
      out += "  ";
      quoted(kv.first);
      out += ": ";
      list(kv.second.fieldNames, [&](llvm::StringRef n) { quoted(n); });
      extras(kv.second.extras);
      out += '\n';
    }
    out += "}\n";
  }
  if (!ep.guardsCode.empty()) {
    out += "guards_code {\n";
    for (const std::string &code : ep.guardsCode) {
      out += "  ";
      quoted(code);
      out += '\n';
    }
    out += "}\n";
  }
}

} // namespace

/// About what the text of `ep` takes, so the buffer grows once or twice.
static size_t estimateTextSize(const ExportedProgram &ep) {
  size_t bytes = 4096;
  for (const Node &n : ep.getGraph().getNodes()) {
    bytes += 128 + 48 * n.getInputs().size();
    for (const auto &kv : n.getMetadata())
      bytes += 8 + kv.first.size() + kv.second.size() + kv.second.size() / 8;
  }
  return bytes;
}

void printProgramText(llvm::raw_ostream &os, const ExportedProgram &ep,
                      const TextPrintOptions &options) {
  std::string out;
  out.reserve(estimateTextSize(ep));
  Printer(out, ep, options).program();
  os << out;
}

std::string writeProgramText(const ExportedProgram &ep) {
  std::string out;
  out.reserve(estimateTextSize(ep));
  TextPrintOptions options;
  Printer(out, ep, options).program();
  return out;
}

} // namespace pt2ir
