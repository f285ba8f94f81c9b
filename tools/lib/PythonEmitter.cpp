//===- PythonEmitter.cpp - The program as a Python listing ----------------===//
//
// Implements emitPython. Subgraphs are collected breadth first into a flat
// list of `def`s, so nesting depth never turns into recursion or into
// Python indentation. Each function has its own PythonNameTable; def names
// share one table and are reserved in every function so a local value never
// shadows a subgraph.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/tools/lib/PythonEmitter.h"

#include "pt2ir/ir/ArgumentBinding.h"
#include "pt2ir/ir/OperatorSchema.h"
#include "pt2ir/ir/PlaceholderNames.h"
#include "pt2ir/ir/Printer.h"
#include "pt2ir/ir/PyRepr.h"
#include "pt2ir/ir/SymbolicExpr.h"
#include "pt2ir/ir/SymbolicOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <deque>

namespace pt2ir {

//===----------------------------------------------------------------------===//
// Identifiers and literals
//===----------------------------------------------------------------------===//

static bool isIdentStart(char c) { return llvm::isAlpha(c) || c == '_'; }
static bool isIdentChar(char c) { return llvm::isAlnum(c) || c == '_'; }

bool isValidPythonIdentifier(llvm::StringRef name) {
  if (name.empty() || !isIdentStart(name.front()))
    return false;
  if (!llvm::all_of(name, isIdentChar))
    return false;
  return !isPythonKeyword(name) && name != "__debug__";
}

std::string sanitizePythonIdentifier(llvm::StringRef name) {
  std::string out;
  out.reserve(name.size() + 2);
  for (char c : name)
    out.push_back(isIdentChar(c) ? c : '_');
  if (out.empty() || llvm::isDigit(out.front()))
    out.insert(out.begin(), '_');
  if (isPythonKeyword(out) || out == "__debug__")
    out.push_back('_');
  return out;
}

std::string pythonStringLiteral(llvm::StringRef s) {
  std::string out;
  appendPyJsonString(out, s);
  return out;
}

/// Text safe inside a `#` comment: printable ASCII stays, anything else
/// (newlines, carriage returns, NULs, non-ASCII) is escaped.
static std::string commentSafe(llvm::StringRef s) {
  if (llvm::all_of(s, [](char c) { return c >= 0x20 && c < 0x7f; }))
    return s.str();
  std::string quoted = pythonStringLiteral(s);
  return quoted.substr(1, quoted.size() - 2);
}

void PythonNameTable::reserve(llvm::StringRef identifier) {
  used.insert(identifier);
}

void PythonNameTable::claim(llvm::StringRef original) {
  if (assigned.count(original) || !isValidPythonIdentifier(original) ||
      used.contains(original))
    return;
  used.insert(original);
  assigned[original] = original.str();
}

llvm::StringRef PythonNameTable::lookup(llvm::StringRef original) {
  auto it = assigned.find(original);
  if (it != assigned.end())
    return it->second;
  return assigned[original] = fresh(original);
}

std::string PythonNameTable::fresh(llvm::StringRef original) {
  std::string base = sanitizePythonIdentifier(original);
  std::string candidate = base;
  for (unsigned k = 1; used.contains(candidate); ++k)
    candidate = base + "_" + std::to_string(k);
  used.insert(candidate);
  return candidate;
}

//===----------------------------------------------------------------------===//
// Torch spellings of enum arguments
//===----------------------------------------------------------------------===//

static llvm::StringRef torchMemoryFormatName(int64_t v) {
  static const char *const Names[] = {"", "contiguous_format", "channels_last",
                                      "channels_last_3d", "preserve_format"};
  return v >= 0 && v <= 4 ? Names[v] : "";
}

static llvm::StringRef torchLayoutName(int64_t v) {
  static const char *const Names[] = {"",           "sparse_coo", "sparse_csr",
                                      "sparse_csc", "sparse_bsr", "sparse_bsc",
                                      "_mkldnn",    "strided"};
  return v >= 0 && v <= 7 ? Names[v] : "";
}

/// `torch.<name>`, or `unknown_enum("<kind>", <v>)` for values torch lacks.
static std::string torchEnumValue(llvm::StringRef name, llvm::StringRef kind,
                                  int64_t v) {
  if (!name.empty())
    return ("torch." + name).str();
  return ("unknown_enum(\"" + kind + "\", " + llvm::Twine(v) + ")").str();
}

//===----------------------------------------------------------------------===//
// The emitter
//===----------------------------------------------------------------------===//

namespace {

/// Binary `_operator` functions written infix.
llvm::StringRef infixOperator(llvm::StringRef fn) {
  return llvm::StringSwitch<llvm::StringRef>(fn)
      .Case("add", "+")
      .Case("sub", "-")
      .Case("mul", "*")
      .Case("truediv", "/")
      .Case("floordiv", "//")
      .Case("mod", "%")
      .Case("pow", "**")
      .Case("lshift", "<<")
      .Case("rshift", ">>")
      .Case("and_", "&")
      .Case("or_", "|")
      .Case("xor", "^")
      .Case("eq", "==")
      .Case("ne", "!=")
      .Case("lt", "<")
      .Case("le", "<=")
      .Case("gt", ">")
      .Case("ge", ">=")
      .Default("");
}

/// Unary `_operator` functions written prefix.
llvm::StringRef prefixOperator(llvm::StringRef fn) {
  return llvm::StringSwitch<llvm::StringRef>(fn)
      .Case("neg", "-")
      .Case("pos", "+")
      .Case("invert", "~")
      .Case("not_", "not ")
      .Default("");
}

/// True if every `.`-separated part of `path` is a usable identifier.
bool isDottedIdentifierPath(llvm::StringRef path) {
  llvm::SmallVector<llvm::StringRef, 6> parts;
  path.split(parts, '.');
  return llvm::all_of(parts, isValidPythonIdentifier);
}

/// Deepest as_string_to_argument nesting written out; deeper parts print as
/// `...` so a hostile file cannot drive the recursion.
constexpr unsigned kMaxArgumentDepth = 128;

/// Names used by the listing itself, reserved in every function.
constexpr llvm::StringLiteral ReservedNames[] = {
    "torch",       "operator",         "math",
    "float",       "complex",          "extension_op",
    "call_target", "unknown_argument", "unknown_enum"};

/// One function of the listing: the graph and the names in it.
struct Function {
  const Graph *graph;
  std::string defName;
  bool isForward;
  PythonNameTable names;
};

class PythonWriter {
public:
  PythonWriter(llvm::raw_ostream &os, const ExportedProgram &ep,
               const EmitOptions &options)
      : os(os), ep(ep), options(options) {}

  void run();

private:
  void collectFunctions();
  void prepareNames(Function &fn);
  void emitHeader(Function &forward);
  void emitFunction(Function &fn);
  void emitNode(Function &fn, const Node &node);
  std::string targetsOf(Function &fn, const Node &node);
  std::string callOf(Function &fn, const Node &node);
  std::string calleeOf(llvm::StringRef target);
  std::string argument(Function &fn, const Argument &arg, unsigned depth = 0);
  std::string ref(Function &fn, const Use *u);
  std::string symArg(Function &fn, ArgKind kind, const SymArg &a);
  std::string typesOf(const Node &node);
  std::vector<std::string> parameterNames(Function &fn);

  llvm::raw_ostream &os;
  const ExportedProgram &ep;
  const EmitOptions &options;
  std::deque<Function> functions;
  llvm::DenseMap<const Graph *, Function *> functionOf;
};

std::string pyFloat(double v) {
  if (std::isnan(v))
    return "float(\"nan\")";
  if (std::isinf(v))
    return v < 0 ? "-float(\"inf\")" : "float(\"inf\")";
  std::string s;
  appendPyFloatRepr(s, v);
  return s;
}

std::string pyBool(bool b) { return b ? "True" : "False"; }

template <typename Range, typename Fn>
std::string joinMapped(const Range &items, Fn fn, llvm::StringRef open = "[",
                       llvm::StringRef close = "]") {
  std::string out = open.str();
  bool first = true;
  for (const auto &item : items) {
    if (!first)
      out += ", ";
    first = false;
    out += fn(item);
  }
  return out + close.str();
}

/// A tuple display: `(a,)` for one element.
std::string tupleOf(const std::vector<std::string> &items) {
  if (items.size() == 1)
    return "(" + items[0] + ",)";
  return joinMapped(
      items, [](const std::string &s) { return s; }, "(", ")");
}

/// Operands of infix operators: negative literals get parentheses so
/// `(-2) ** a` keeps its meaning.
std::string operand(const std::string &text) {
  return !text.empty() && text[0] == '-' ? "(" + text + ")" : text;
}

} // namespace

void PythonWriter::collectFunctions() {
  PythonNameTable defNames;
  defNames.reserve("forward");
  for (llvm::StringLiteral r : ReservedNames)
    defNames.reserve(r);
  functions.push_back(Function{&ep.getGraph(), "forward", true, {}});
  functionOf[&ep.getGraph()] = &functions.back();
  // Breadth first; `functions` is a deque, so references stay valid. Equal
  // subgraph names (two conds' `true_graph_0`) get distinct defs.
  for (size_t i = 0; i < functions.size(); ++i) {
    const Graph *g = functions[i].graph;
    for (const Node &node : g->getNodes())
      for (const NamedArgument &in : node.getInputs()) {
        if (in.arg.getKind() != ArgKind::Graph || !in.arg.getGraphArg().graph)
          continue;
        const Argument::GraphArg &ga = in.arg.getGraphArg();
        functions.push_back(
            Function{ga.graph.get(), defNames.fresh(ga.name), false, {}});
        functionOf[ga.graph.get()] = &functions.back();
      }
  }
}

void PythonWriter::prepareNames(Function &fn) {
  for (llvm::StringLiteral r : ReservedNames)
    fn.names.reserve(r);
  for (const Function &other : functions)
    fn.names.reserve(other.defName);
  if (fn.isForward)
    fn.names.reserve("self");
  const Graph &g = *fn.graph;
  std::vector<std::string> inputs =
      placeholderNames(g, fn.isForward ? &ep.graphModule.signature : nullptr);
  // Valid names keep their spelling; invalid ones are mangled around them.
  for (const std::string &name : inputs)
    fn.names.claim(name);
  for (const Node &node : g.getNodes())
    for (const Value *v : node.getResults())
      fn.names.claim(v->getName());
  for (const std::string &name : inputs)
    fn.names.lookup(name);
  for (const Node &node : g.getNodes())
    for (const Value *v : node.getResults())
      fn.names.lookup(v->getName());
}

std::vector<std::string> PythonWriter::parameterNames(Function &fn) {
  std::vector<std::string> out;
  for (const std::string &name : placeholderNames(
           *fn.graph, fn.isForward ? &ep.graphModule.signature : nullptr))
    out.push_back(fn.names.lookup(name).str());
  return out;
}

std::string PythonWriter::ref(Function &fn, const Use *u) {
  if (!u)
    return "None";
  return fn.names.lookup(u->getName()).str();
}

std::string PythonWriter::symArg(Function &fn, ArgKind kind, const SymArg &a) {
  if (a.ref)
    return ref(fn, a.ref);
  switch (kind) {
  case ArgKind::SymBool:
  case ArgKind::SymBools:
    return pyBool(a.boolValue);
  case ArgKind::SymFloat:
  case ArgKind::SymFloats:
    return pyFloat(a.floatValue);
  default:
    return std::to_string(a.intValue);
  }
}

std::string PythonWriter::calleeOf(llvm::StringRef target) {
  if (isExtensionOpTarget(target))
    return "extension_op(" + pythonStringLiteral(target) + ")";
  llvm::StringRef rest = target;
  if (rest.consume_front("_operator.") && isValidPythonIdentifier(rest))
    return ("operator." + rest).str();
  if (isDottedIdentifierPath(target))
    return target.str();
  return "call_target(" + pythonStringLiteral(target) + ")";
}

std::string PythonWriter::argument(Function &fn, const Argument &a,
                                   unsigned depth) {
  if (depth > kMaxArgumentDepth)
    return "...";
  auto refList = [&](const std::vector<Use *> &refs) {
    return joinMapped(refs, [&](const Use *u) { return ref(fn, u); });
  };
  switch (a.getKind()) {
  case ArgKind::None:
    return "None";
  case ArgKind::Tensor:
  case ArgKind::Token:
  case ArgKind::OptionalTensor:
    return ref(fn, a.getRef());
  case ArgKind::Tensors:
  case ArgKind::OptionalTensors:
    return refList(a.getRefs());
  case ArgKind::NestedTensors:
    return joinMapped(a.getNestedRefs(), refList);
  case ArgKind::Int:
    return std::to_string(a.getInt());
  case ArgKind::Ints:
    return joinMapped(a.getInts(), [](int64_t v) { return std::to_string(v); });
  case ArgKind::Float:
    return pyFloat(a.getFloat());
  case ArgKind::Floats:
    return joinMapped(a.getFloats(), pyFloat);
  case ArgKind::String:
    return pythonStringLiteral(a.getString());
  case ArgKind::Strings:
    return joinMapped(a.getStrings(),
                      [](llvm::StringRef s) { return pythonStringLiteral(s); });
  case ArgKind::SymInt:
  case ArgKind::SymBool:
  case ArgKind::SymFloat:
    return symArg(fn, a.getKind(), a.getSym());
  case ArgKind::SymInts:
  case ArgKind::SymBools:
  case ArgKind::SymFloats:
    return joinMapped(a.getSymList(), [&](const SymArg &s) {
      return symArg(fn, a.getKind(), s);
    });
  case ArgKind::ScalarType:
    return torchEnumValue(scalarTypeTorchName(a.getInt()), "dtype", a.getInt());
  case ArgKind::MemoryFormat:
    return torchEnumValue(torchMemoryFormatName(a.getInt()), "memory_format",
                          a.getInt());
  case ArgKind::Layout:
    return torchEnumValue(torchLayoutName(a.getInt()), "layout", a.getInt());
  case ArgKind::Device: {
    const Device &d = a.getDevice();
    std::string out = "torch.device(type=" + pythonStringLiteral(d.type);
    if (d.index)
      out += ", index=" + std::to_string(*d.index);
    return out + ")";
  }
  case ArgKind::Bool:
    return pyBool(a.getBool());
  case ArgKind::Bools:
    return joinMapped(a.getBools(), pyBool);
  case ArgKind::Graph: {
    const Argument::GraphArg &ga = a.getGraphArg();
    auto it = functionOf.find(ga.graph.get());
    if (ga.graph && it != functionOf.end())
      return it->second->defName;
    return fn.names.lookup(ga.name).str();
  }
  case ArgKind::CustomObj:
    return ref(fn, a.getCustomObj().ref);
  case ArgKind::Operator:
    return calleeOf(a.getString());
  case ArgKind::Complex:
    return "complex(" + pyFloat(a.getComplex().real) + ", " +
           pyFloat(a.getComplex().imag) + ")";
  case ArgKind::IntLists:
    // torch reads these back as tuples.
    return joinMapped(a.getIntLists(), [](const std::vector<int64_t> &inner) {
      std::vector<std::string> items;
      for (int64_t v : inner)
        items.push_back(std::to_string(v));
      return tupleOf(items);
    });
  case ArgKind::FloatLists:
    return joinMapped(a.getFloatLists(), [](const std::vector<double> &inner) {
      return joinMapped(inner, pyFloat);
    });
  case ArgKind::StringToArgument:
    return joinMapped(
        a.getStringMap(),
        [&](const auto &entry) {
          return pythonStringLiteral(entry.first) + ": " +
                 argument(fn, entry.second, depth + 1);
        },
        "{", "}");
  case ArgKind::Unknown:
    return "unknown_argument(" + pythonStringLiteral(a.getUnknown().key) +
           ", " + pythonStringLiteral(a.getUnknown().json) + ")";
  }
  return "None";
}

/// The assignment targets of a node: `a`, `a, b`, `a, [b, c]`, `a,` for a
/// one-tuple; empty when the node defines nothing.
std::string PythonWriter::targetsOf(Function &fn, const Node &node) {
  const std::vector<Argument> &outs = node.getOutputs();
  if (outs.empty())
    return "";
  auto element = [&](const Argument &out) -> std::string {
    switch (out.getKind()) {
    case ArgKind::None:
      return "_";
    case ArgKind::Tensors:
    case ArgKind::OptionalTensors: {
      std::vector<std::string> names;
      for (const Use *u : out.getRefs())
        names.push_back(u ? ref(fn, u) : "_");
      return joinMapped(names, [](const std::string &s) { return s; });
    }
    default: {
      std::vector<std::string> names;
      out.forEachUse([&](Use *u) { names.push_back(ref(fn, u)); });
      if (names.size() == 1)
        return names[0];
      return joinMapped(names, [](const std::string &s) { return s; });
    }
    }
  };
  if (outs.size() == 1) {
    const Argument &only = outs[0];
    bool isList = only.getKind() == ArgKind::Tensors ||
                  only.getKind() == ArgKind::OptionalTensors;
    if (isList) {
      // A single list return unpacks directly: `getitem, getitem_1 =
      // split(...)`.
      std::string list = element(only);
      std::string inner = list.substr(1, list.size() - 2);
      if (only.getRefs().empty())
        return "_";
      return only.getRefs().size() == 1 ? inner + "," : inner;
    }
    std::string one = element(only);
    // A higher-order op that returns a 1-tuple unpacks it.
    if (node.getIsHopSingleTensorReturn() == false &&
        isHigherOrderOpTarget(node.getTarget()))
      return one + ",";
    return one;
  }
  std::string out;
  for (size_t i = 0; i < outs.size(); ++i) {
    if (i)
      out += ", ";
    out += element(outs[i]);
  }
  return out;
}

std::string PythonWriter::callOf(Function &fn, const Node &node) {
  const std::vector<NamedArgument> &inputs = node.getInputs();
  llvm::StringRef target = node.getTarget();
  llvm::StringRef opName = target;
  bool allPositional = llvm::all_of(
      inputs, [](const NamedArgument &in) { return !in.isKeyword(); });
  if (opName.consume_front("_operator.") && allPositional) {
    if (inputs.size() == 2 && !infixOperator(opName).empty())
      return operand(argument(fn, inputs[0].arg)) + " " +
             infixOperator(opName).str() + " " +
             operand(argument(fn, inputs[1].arg));
    if (inputs.size() == 1 && !prefixOperator(opName).empty())
      return prefixOperator(opName).str() +
             operand(argument(fn, inputs[0].arg));
    if (inputs.size() == 2 && opName == "getitem")
      return operand(argument(fn, inputs[0].arg)) + "[" +
             argument(fn, inputs[1].arg) + "]";
  }
  // Positional arguments first: Python rejects a positional after a keyword.
  std::vector<std::string> positional, keyword;
  llvm::StringSet<> keywordNames;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const NamedArgument &in = inputs[i];
    std::string value = argument(fn, in.arg);
    if (!isPassedByKeyword(node, i)) {
      positional.push_back(std::move(value));
      continue;
    }
    if (isValidPythonIdentifier(in.name) && keywordNames.insert(in.name).second)
      keyword.push_back(in.name.str() + "=" + value);
    else
      keyword.push_back("**{" + pythonStringLiteral(in.name) + ": " + value +
                        "}");
  }
  std::string call = calleeOf(target) + "(";
  bool first = true;
  for (const std::vector<std::string> *group : {&positional, &keyword})
    for (const std::string &item : *group) {
      if (!first)
        call += ", ";
      first = false;
      call += item;
    }
  return call + ")";
}

std::string PythonWriter::typesOf(const Node &node) {
  std::vector<Value *> results = node.getResults();
  if (results.empty())
    return "";
  std::string out;
  for (size_t i = 0; i < results.size(); ++i) {
    if (i)
      out += ", ";
    out += describeValueType(*results[i]);
  }
  return commentSafe(out);
}

void PythonWriter::emitNode(Function &fn, const Node &node) {
  if (options.showMetadata)
    if (auto trace = lookupMetadata(node.getMetadata(), "stack_trace")) {
      llvm::StringRef last = trace->rtrim().rsplit('\n').second;
      if (last.empty())
        last = trace->trim();
      os << "    # " << commentSafe(last.trim()) << "\n";
    }
  os << "    ";
  std::string targets = targetsOf(fn, node);
  if (!targets.empty())
    os << targets << " = ";
  os << callOf(fn, node);
  if (options.showTypes) {
    std::string types = typesOf(node);
    if (!types.empty())
      os << "  # " << types;
  }
  os << "\n";
}

void PythonWriter::emitFunction(Function &fn) {
  const Graph &g = *fn.graph;
  std::vector<std::string> params = parameterNames(fn);
  os << "def " << fn.defName << "(";
  bool first = true;
  if (fn.isForward) {
    os << "self";
    first = false;
  }
  for (const std::string &p : params) {
    os << (first ? "" : ", ") << p;
    first = false;
  }
  os << "):\n";
  if (!fn.isForward && options.showTypes) {
    // Subgraph inputs have no signature: their types go in a comment.
    for (size_t i = 0; i < g.getInputs().size(); ++i)
      if (Value *v = g.getInputs()[i].getSingleValue())
        os << "    # " << params[i] << ": "
           << commentSafe(describeValueType(*v)) << "\n";
  }
  for (const Node &node : g.getNodes())
    emitNode(fn, node);
  std::vector<std::string> results;
  for (const Argument &out : g.getOutputs())
    results.push_back(argument(fn, out));
  os << "    return ";
  if (!fn.isForward && g.isSingleTensorReturn() && results.size() == 1)
    os << results[0];
  else
    os << tupleOf(results);
  os << "\n";
}

void PythonWriter::emitHeader(Function &forward) {
  os << "# Exported program: schema " << ep.schemaVersion.major << "."
     << ep.schemaVersion.minor << ", torch " << commentSafe(ep.torchVersion)
     << ", verifiers [";
  for (size_t i = 0; i < ep.verifiers.size(); ++i)
    os << (i ? ", " : "") << commentSafe(ep.verifiers[i]);
  os << "]\n";

  const GraphSignature &sig = ep.graphModule.signature;
  const Graph &g = ep.getGraph();
  std::vector<std::string> params = parameterNames(forward);
  os << "#\n# Inputs:\n";
  for (size_t i = 0; i < sig.inputSpecs.size(); ++i) {
    const InputSpec &spec = sig.inputSpecs[i];
    os << "#   ";
    if (spec.kind == InputKind::Unknown) {
      os << "<" << commentSafe(spec.unknownKey) << ">\n";
      continue;
    }
    std::string name =
        i < params.size() ? params[i] : commentSafe(spec.getArgName());
    os << name << ": " << inputKindMemberName(spec.kind);
    if (!spec.target.empty() && spec.kind != InputKind::ConstantInput)
      os << " " << commentSafe(pythonStringLiteral(spec.target));
    if (spec.kind == InputKind::Buffer && !spec.persistent)
      os << " (non-persistent)";
    // Signature arguments are detached: the graph input has the value.
    const Value *v =
        i < g.getInputs().size() ? g.getInputs()[i].getSingleValue() : nullptr;
    if (!v && (spec.kind == InputKind::ConstantInput ||
               spec.kind == InputKind::UserInput))
      os << " = " << commentSafe(argument(forward, spec.arg));
    if (v && options.showTypes)
      os << "; " << commentSafe(describeValueType(*v));
    if (v && v->getName() != llvm::StringRef(name))
      os << " (stored as " << commentSafe(pythonStringLiteral(v->getName()))
         << ")";
    os << "\n";
  }
  os << "# Outputs:\n";
  for (size_t i = 0; i < sig.outputSpecs.size(); ++i) {
    const OutputSpec &spec = sig.outputSpecs[i];
    os << "#   ";
    if (spec.kind == OutputKind::Unknown) {
      os << "<" << commentSafe(spec.unknownKey) << ">\n";
      continue;
    }
    os << commentSafe(argument(forward, spec.arg)) << ": "
       << outputKindMemberName(spec.kind);
    if (!spec.target.empty())
      os << " " << commentSafe(pythonStringLiteral(spec.target));
    const Value *v =
        spec.getArgName().empty() ? nullptr : g.lookupValue(spec.getArgName());
    if (v && options.showTypes)
      os << "; " << commentSafe(describeValueType(*v));
    os << "\n";
  }
  if (!ep.rangeConstraints.empty()) {
    os << "# Range constraints:\n";
    for (const auto &[symbol, range] : ep.rangeConstraints) {
      os << "#   " << commentSafe(symbol) << ": [";
      if (range.minVal)
        os << *range.minVal;
      else
        os << "-inf";
      os << ", ";
      if (range.maxVal)
        os << *range.maxVal;
      else
        os << "inf";
      os << "]\n";
    }
  }
  os << "\n";
}

void PythonWriter::run() {
  collectFunctions();
  for (Function &fn : functions)
    prepareNames(fn);
  emitHeader(functions.front());
  for (size_t i = 0; i < functions.size(); ++i) {
    if (i)
      os << "\n\n";
    emitFunction(functions[i]);
  }
}

void emitPython(llvm::raw_ostream &os, const ExportedProgram &ep,
                const EmitOptions &options) {
  PythonWriter(os, ep, options).run();
}

} // namespace pt2ir
