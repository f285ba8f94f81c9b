//===- Printer.cpp - The readable text form of a program ------------------===//

#include "pt2ir/ir/Printer.h"
#include "pt2ir/ir/ArgumentBinding.h"
#include "pt2ir/ir/Enums.h"
#include "pt2ir/ir/PlaceholderNames.h"
#include "pt2ir/ir/SymbolicExpr.h"
#include "pt2ir/ir/PyRepr.h"

#include "llvm/ADT/StringExtras.h"
#include <cmath>

namespace pt2ir {

llvm::StringRef shortTarget(llvm::StringRef target) {
  target.consume_front("torch.ops.");
  return target;
}

static void printPyFloat(llvm::raw_ostream &os, double v) {
  if (std::isnan(v)) {
    os << "nan";
    return;
  }
  if (std::isinf(v)) {
    os << (v < 0 ? "-inf" : "inf");
    return;
  }
  std::string s;
  appendPyFloatRepr(s, v);
  os << s;
}

static void printQuoted(llvm::raw_ostream &os, llvm::StringRef s) {
  os << '"';
  os.write_escaped(s);
  os << '"';
}

/// Expressions print in sympy's plain form (`s0 + 1`) whichever form the
/// file used; text that does not parse is shown as written.
static void printExprStr(llvm::raw_ostream &os, llvm::StringRef exprStr) {
  if (sym::detectForm(exprStr) == sym::Form::Plain) {
    os << exprStr;
    return;
  }
  auto parsed = sym::parseSymExpr(exprStr);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    os << exprStr;
    return;
  }
  os << sym::toString(*parsed, sym::Form::Plain);
}

static void printSymValue(llvm::raw_ostream &os, const SymValue &s) {
  switch (s.kind) {
  case SymValue::Kind::Expr: printExprStr(os, s.expr.exprStr); return;
  case SymValue::Kind::Int: os << s.intValue; return;
  case SymValue::Kind::Bool: os << (s.boolValue ? "True" : "False"); return;
  case SymValue::Kind::Float: printPyFloat(os, s.floatValue); return;
  }
}

static void printDevice(llvm::raw_ostream &os, const Device &d) {
  os << d.type;
  if (d.index)
    os << ':' << *d.index;
}

std::string describeValueType(const Value &v) {
  std::string out;
  llvm::raw_string_ostream os(out);
  if (const TensorMeta *m = v.getTensorMeta()) {
    llvm::StringRef dtype = scalarTypeShortName(m->dtype);
    os << (dtype.empty() ? "?" : dtype) << '[';
    llvm::interleaveComma(m->sizes, os, [&](const SymValue &s) { printSymValue(os, s); });
    os << ']';
    if (m->device.type != "cpu") {
      os << '@';
      printDevice(os, m->device);
    }
    if (m->layout != Layout::Strided)
      os << " layout=" << layoutName(m->layout);
    return out;
  }
  if (const SymValue *s = v.getSymMeta()) {
    os << valueTypeName(v.getType()) << '(';
    printSymValue(os, *s);
    os << ')';
    return out;
  }
  if (const ValueMeta *md = v.getMeta(); md && md->hasCustomObj) {
    os << "obj<" << md->customObjClass << '>';
    return out;
  }
  os << valueTypeName(v.getType());
  return out;
}

static void printRef(llvm::raw_ostream &os, const Use *u) {
  if (!u) {
    os << "None";
    return;
  }
  os << '%' << u->getName();
}

static void printSymArg(llvm::raw_ostream &os, ArgKind kind, const SymArg &a) {
  if (a.ref)
    return printRef(os, a.ref);
  switch (kind) {
  case ArgKind::SymBool:
  case ArgKind::SymBools: os << (a.boolValue ? "True" : "False"); return;
  case ArgKind::SymFloat:
  case ArgKind::SymFloats: printPyFloat(os, a.floatValue); return;
  default: os << a.intValue; return;
  }
}

void printArgument(llvm::raw_ostream &os, const Argument &a) {
  auto list = [&](const auto &items, auto fn) {
    os << '[';
    llvm::interleaveComma(items, os, fn);
    os << ']';
  };
  switch (a.getKind()) {
  case ArgKind::None: os << "None"; return;
  case ArgKind::Tensor:
  case ArgKind::Token:
  case ArgKind::OptionalTensor: printRef(os, a.getRef()); return;
  case ArgKind::Tensors:
  case ArgKind::OptionalTensors: list(a.getRefs(), [&](const Use *u) { printRef(os, u); }); return;
  case ArgKind::NestedTensors:
    list(a.getNestedRefs(), [&](const std::vector<Use *> &inner) {
      list(inner, [&](const Use *u) { printRef(os, u); });
    });
    return;
  case ArgKind::Int: os << a.getInt(); return;
  case ArgKind::Ints: list(a.getInts(), [&](int64_t v) { os << v; }); return;
  case ArgKind::Float: printPyFloat(os, a.getFloat()); return;
  case ArgKind::Floats: list(a.getFloats(), [&](double v) { printPyFloat(os, v); }); return;
  case ArgKind::String: printQuoted(os, a.getString()); return;
  case ArgKind::Strings: list(a.getStrings(), [&](llvm::StringRef s) { printQuoted(os, s); }); return;
  case ArgKind::SymInt:
  case ArgKind::SymBool:
  case ArgKind::SymFloat: printSymArg(os, a.getKind(), a.getSym()); return;
  case ArgKind::SymInts:
  case ArgKind::SymBools:
  case ArgKind::SymFloats:
    list(a.getSymList(), [&](const SymArg &s) { printSymArg(os, a.getKind(), s); });
    return;
  case ArgKind::ScalarType: {
    llvm::StringRef name = scalarTypeTorchName(a.getInt());
    os << "torch." << (name.empty() ? "unknown" : name);
    return;
  }
  case ArgKind::MemoryFormat: {
    static const char *const Names[] = {"unknown_format", "contiguous_format", "channels_last",
                                        "channels_last_3d", "preserve_format"};
    int64_t v = a.getInt();
    os << "torch." << (v >= 0 && v <= 4 ? Names[v] : "unknown_format");
    return;
  }
  case ArgKind::Layout: {
    static const char *const Names[] = {"unknown_layout", "sparse_coo", "sparse_csr", "sparse_csc",
                                        "sparse_bsr",     "sparse_bsc", "_mkldnn",    "strided"};
    int64_t v = a.getInt();
    os << "torch." << (v >= 0 && v <= 7 ? Names[v] : "unknown_layout");
    return;
  }
  case ArgKind::Device:
    os << "device(\"";
    printDevice(os, a.getDevice());
    os << "\")";
    return;
  case ArgKind::Bool: os << (a.getBool() ? "True" : "False"); return;
  case ArgKind::Bools: list(a.getBools(), [&](bool b) { os << (b ? "True" : "False"); }); return;
  case ArgKind::Graph: os << '@' << a.getGraphArg().name; return;
  case ArgKind::CustomObj: printRef(os, a.getCustomObj().ref); return;
  case ArgKind::Operator: os << shortTarget(a.getString()); return;
  case ArgKind::Complex:
    os << "complex(";
    printPyFloat(os, a.getComplex().real);
    os << ", ";
    printPyFloat(os, a.getComplex().imag);
    os << ')';
    return;
  case ArgKind::IntLists:
    list(a.getIntLists(), [&](const std::vector<int64_t> &inner) { list(inner, [&](int64_t v) { os << v; }); });
    return;
  case ArgKind::FloatLists:
    list(a.getFloatLists(),
         [&](const std::vector<double> &inner) { list(inner, [&](double v) { printPyFloat(os, v); }); });
    return;
  case ArgKind::StringToArgument:
    os << '{';
    llvm::interleaveComma(a.getStringMap(), os, [&](const auto &entry) {
      printQuoted(os, entry.first);
      os << ": ";
      printArgument(os, entry.second);
    });
    os << '}';
    return;
  case ArgKind::Unknown: os << '<' << a.getUnknown().key << ": " << a.getUnknown().json << '>'; return;
  }
}

/// The output slots of a node: `%a`, `[%b, %c]`, `_` for None.
static void printResults(llvm::raw_ostream &os, const Node &n) {
  llvm::interleaveComma(n.getOutputs(), os, [&](const Argument &out) {
    if (out.isNone())
      os << '_';
    else
      printArgument(os, out);
  });
}

static void printResultTypes(llvm::raw_ostream &os, const Node &n) {
  std::vector<std::string> types;
  for (Value *v : n.getResults())
    types.push_back(describeValueType(*v));
  if (types.empty())
    return;
  os << " : ";
  llvm::interleaveComma(types, os);
}

void printNode(llvm::raw_ostream &os, const Node &n, const PrintOptions &options) {
  if (!n.getOutputs().empty()) {
    printResults(os, n);
    os << " = ";
  }
  os << shortTarget(n.getTarget()) << '(';
  for (size_t i = 0; i < n.getInputs().size(); ++i) {
    const NamedArgument &in = n.getInputs()[i];
    if (i)
      os << ", ";
    if (isPassedByKeyword(n, i))
      os << in.name << '=';
    printArgument(os, in.arg);
  }
  os << ')';
  printResultTypes(os, n);
}

static void printGraphImpl(llvm::raw_ostream &os, const Graph &g, unsigned indent,
                           const PrintOptions &options, llvm::StringRef label,
                           const GraphSignature *signature) {
  os.indent(indent) << label << '(';
  std::vector<std::string> names = placeholderNames(g, signature);
  for (size_t i = 0; i < g.getInputs().size(); ++i) {
    const Argument &in = g.getInputs()[i];
    if (i)
      os << ", ";
    if (Value *v = in.getSingleValue()) {
      os << '%' << v->getName() << ": " << describeValueType(*v);
      continue;
    }
    os << '%' << names[i] << " = ";
    printArgument(os, in);
  }
  os << ") {\n";
  for (const InputBinding &b : g.getInputBindings()) {
    const Value *v = b.inputIndex < g.getInputs().size()
                         ? g.getInputs()[b.inputIndex].getSingleValue()
                         : nullptr;
    os.indent(indent + 2) << "// unbacked: " << b.binding.symbol << " <- "
                          << (v ? v->getName() : "?")
                          << bindingPathToString(b.binding.path) << '\n';
  }
  for (const Node &n : g.getNodes()) {
    os.indent(indent + 2);
    printNode(os, n, options);
    os << '\n';
    for (const SymbolBinding &b : n.getUnbackedBindings())
      os.indent(indent + 4) << "// unbacked: " << b.symbol << " <- "
                            << n.getName() << bindingPathToString(b.path)
                            << '\n';
    if (options.printMetadata)
      for (auto &kv : n.getMetadata()) {
        llvm::StringRef value = kv.second;
        if (kv.first == "stack_trace")
          value = value.rtrim().rsplit('\n').second.empty() ? value.trim() : value.rtrim().rsplit('\n').second.trim();
        os.indent(indent + 4) << "// " << kv.first << ": " << value << '\n';
      }
    for (const NamedArgument &in : n.getInputs())
      if (in.arg.getKind() == ArgKind::Graph && in.arg.getGraphArg().graph)
        printGraphImpl(os, *in.arg.getGraphArg().graph, indent + 4, options,
                       ("@" + in.arg.getGraphArg().name).str(), nullptr);
  }
  os.indent(indent + 2) << "return ";
  llvm::interleaveComma(g.getOutputs(), os, [&](const Argument &out) { printArgument(os, out); });
  os << '\n';
  os.indent(indent) << "}\n";
}

void printGraph(llvm::raw_ostream &os, const Graph &g, unsigned indent, const PrintOptions &options) {
  printGraphImpl(os, g, indent, options, "graph", nullptr);
}

static void printSignature(llvm::raw_ostream &os, const GraphSignature &sig, const Graph &g) {
  os << "signature {\n";
  std::vector<std::string> names = placeholderNames(g, &sig);
  for (size_t index = 0; index < sig.inputSpecs.size(); ++index) {
    const InputSpec &s = sig.inputSpecs[index];
    if (index >= names.size())
      names.push_back("arg" + std::to_string(index));
    os << "  input ";
    if (s.kind == InputKind::ConstantInput) {
      os << s.target << " = ";
      printArgument(os, s.arg);
      os << " : constant_input\n";
      continue;
    }
    if (s.kind == InputKind::Unknown) {
      os << "<" << s.unknownKey << ">\n";
      continue;
    }
    if (s.arg.getSingleValue() || s.arg.getKind() == ArgKind::Tensor || s.arg.getKind() == ArgKind::Token ||
        s.arg.getKind() == ArgKind::CustomObj || s.arg.getKind() == ArgKind::SymInt)
      printArgument(os, s.arg);
    else
      os << '%' << names[index] << " = ", printArgument(os, s.arg);
    os << " : " << inputKindMemberName(s.kind);
    if (!s.target.empty())
      os << ' ' << '"' << s.target << '"';
    if (s.kind == InputKind::Buffer && !s.persistent)
      os << " non_persistent";
    os << '\n';
  }
  for (const OutputSpec &s : sig.outputSpecs) {
    os << "  output ";
    if (s.kind == OutputKind::Unknown) {
      os << "<" << s.unknownKey << ">\n";
      continue;
    }
    printArgument(os, s.arg);
    os << " : " << outputKindMemberName(s.kind);
    if (!s.target.empty())
      os << ' ' << '"' << s.target << '"';
    os << '\n';
  }
  os << "}\n";
}

static void printArgumentList(llvm::raw_ostream &os, const std::vector<Argument> &args) {
  os << '(';
  llvm::interleaveComma(args, os, [&](const Argument &a) { printArgument(os, a); });
  os << ')';
}

/// A treespec's JSON as it is (torch writes it on one line), or quoted and
/// escaped when it holds control characters.
static void printTreespecText(llvm::raw_ostream &os, llvm::StringRef spec) {
  bool plain = llvm::none_of(spec, [](char c) { return static_cast<unsigned char>(c) < 0x20; });
  if (plain)
    os << spec;
  else
    printQuoted(os, spec);
}

/// One line per module call: its fqn, the graph values it takes and returns,
/// its argument names, then its input and output treespecs.
static void printModuleCallGraph(llvm::raw_ostream &os,
                                 const std::vector<ModuleCallEntry> &entries) {
  if (entries.empty())
    return;
  os << "module_call_graph {\n";
  for (const ModuleCallEntry &entry : entries) {
    os << "  module ";
    printQuoted(os, entry.fqn);
    if (!entry.signature) {
      os << '\n';
      continue;
    }
    const ModuleCallSignature &sig = *entry.signature;
    os << ' ';
    printArgumentList(os, sig.inputs);
    os << " -> ";
    printArgumentList(os, sig.outputs);
    if (sig.forwardArgNames) {
      os << " forward_arg_names [";
      llvm::interleaveComma(*sig.forwardArgNames, os, [&](llvm::StringRef name) { printQuoted(os, name); });
      os << ']';
    }
    os << "\n    in_spec ";
    printTreespecText(os, sig.inSpec);
    os << "\n    out_spec ";
    printTreespecText(os, sig.outSpec);
    os << '\n';
  }
  os << "}\n";
}

/// The graph module's metadata and the guards code, when present.
static void printTrailingFields(llvm::raw_ostream &os, const ExportedProgram &ep) {
  if (!ep.graphModule.metadata.empty()) {
    os << "metadata {\n";
    for (const auto &[key, value] : ep.graphModule.metadata) {
      os << "  ";
      printQuoted(os, key);
      os << ": ";
      printQuoted(os, value);
      os << '\n';
    }
    os << "}\n";
  }
  if (!ep.guardsCode.empty()) {
    os << "guards_code {\n";
    for (const std::string &code : ep.guardsCode) {
      os << "  ";
      printQuoted(os, code);
      os << '\n';
    }
    os << "}\n";
  }
}

void printProgram(llvm::raw_ostream &os, const ExportedProgram &ep, const PrintOptions &options) {
  os << "program schema " << ep.schemaVersion.major << '.' << ep.schemaVersion.minor << " torch \""
     << ep.torchVersion << "\" verifiers [";
  llvm::interleaveComma(ep.verifiers, os);
  os << "]\n";
  printSignature(os, ep.graphModule.signature, ep.getGraph());
  if (!ep.rangeConstraints.empty()) {
    os << "range_constraints {\n";
    for (auto &kv : ep.rangeConstraints) {
      os << "  " << kv.first << " in [";
      if (kv.second.minVal)
        os << *kv.second.minVal;
      else
        os << "-inf";
      os << ", ";
      if (kv.second.maxVal)
        os << *kv.second.maxVal;
      else
        os << "inf";
      os << "]\n";
    }
    os << "}\n";
  }
  printGraphImpl(os, ep.getGraph(), 0, options, "graph", &ep.graphModule.signature);
  printModuleCallGraph(os, ep.graphModule.moduleCallGraph);
  printTrailingFields(os, ep);
}

} // namespace pt2ir
