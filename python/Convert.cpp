//===- Convert.cpp - IR arguments and metadata as Python values -----------===//

#include "pt2ir/python/Convert.h"

#include "pt2ir/ir/Graph.h"
#include "pt2ir/ir/NodeMetadata.h"
#include "pt2ir/ir/SymbolicExpr.h"
#include "pt2ir/python/Errors.h"

#include <pybind11/complex.h>
#include <pybind11/stl.h>

#include <complex>

namespace py = pybind11;

namespace pt2ir::python {

std::string deviceToString(const Device &d) {
  std::string s = d.type.str();
  if (d.index)
    s += ":" + std::to_string(*d.index);
  return s;
}

py::object symValueToPython(const SymValue &v) {
  switch (v.kind) {
  case SymValue::Kind::Int:
    return py::int_(v.intValue);
  case SymValue::Kind::Bool:
    return py::bool_(v.boolValue);
  case SymValue::Kind::Float:
    return py::float_(v.floatValue);
  case SymValue::Kind::Expr:
    break;
  }
  // Programs write expressions in sympy's str() or srepr() form; show the
  // str() form either way (`s0*2`, not `Mul(Integer(2), Symbol('s0'))`).
  llvm::Expected<sym::Expr> expr = sym::parseSymExpr(v.expr.exprStr);
  if (!expr) {
    llvm::consumeError(expr.takeError());
    return py::str(v.expr.exprStr.str());
  }
  return py::str(sym::toString(*expr));
}

/// A value slot: the Value handle, or its name while unresolved (a constant
/// custom object that is no graph input).
static py::object useToPython(const ProgramPtr &p, const Use *u) {
  if (!u)
    return py::none();
  if (Value *v = u->get())
    return py::cast(makeValueRef(p, v));
  return py::str(u->getName().str());
}

static py::object symArgToPython(const ProgramPtr &p, ArgKind kind,
                                 const SymArg &a) {
  if (a.isRef())
    return useToPython(p, a.ref);
  switch (kind) {
  case ArgKind::SymBool:
  case ArgKind::SymBools:
    return py::bool_(a.boolValue);
  case ArgKind::SymFloat:
  case ArgKind::SymFloats:
    return py::float_(a.floatValue);
  default:
    return py::int_(a.intValue);
  }
}

template <typename T> static py::list toList(const std::vector<T> &items) {
  py::list out;
  for (const T &item : items)
    out.append(py::cast(item));
  return out;
}

py::object argumentToPython(const ProgramPtr &p, const Argument &arg) {
  switch (arg.getKind()) {
  case ArgKind::None:
    return py::none();
  case ArgKind::Tensor:
  case ArgKind::OptionalTensor:
  case ArgKind::Token:
    return useToPython(p, arg.getRef());
  case ArgKind::CustomObj:
    return useToPython(p, arg.getCustomObj().ref);
  case ArgKind::Tensors:
  case ArgKind::OptionalTensors: {
    py::list out;
    for (const Use *u : arg.getRefs())
      out.append(useToPython(p, u));
    return std::move(out);
  }
  case ArgKind::NestedTensors: {
    py::list out;
    for (const std::vector<Use *> &inner : arg.getNestedRefs()) {
      py::list row;
      for (const Use *u : inner)
        row.append(useToPython(p, u));
      out.append(row);
    }
    return std::move(out);
  }
  case ArgKind::Int:
    return py::int_(arg.getInt());
  case ArgKind::Ints:
    return toList(arg.getInts());
  case ArgKind::Float:
    return py::float_(arg.getFloat());
  case ArgKind::Floats:
    return toList(arg.getFloats());
  case ArgKind::String:
  case ArgKind::Operator:
    return py::str(arg.getString().str());
  case ArgKind::Strings: {
    py::list out;
    for (llvm::StringRef s : arg.getStrings())
      out.append(py::str(s.str()));
    return std::move(out);
  }
  case ArgKind::Bool:
    return py::bool_(arg.getBool());
  case ArgKind::Bools: {
    py::list out;
    for (bool b : arg.getBools())
      out.append(py::bool_(b));
    return std::move(out);
  }
  case ArgKind::SymInt:
  case ArgKind::SymBool:
  case ArgKind::SymFloat:
    return symArgToPython(p, arg.getKind(), arg.getSym());
  case ArgKind::SymInts:
  case ArgKind::SymBools:
  case ArgKind::SymFloats: {
    py::list out;
    for (const SymArg &a : arg.getSymList())
      out.append(symArgToPython(p, arg.getKind(), a));
    return std::move(out);
  }
  case ArgKind::ScalarType:
    if (isValidScalarType(arg.getInt()))
      return py::cast(ScalarType(arg.getInt()));
    return py::int_(arg.getInt());
  case ArgKind::MemoryFormat:
    if (isValidMemoryFormat(arg.getInt()))
      return py::cast(MemoryFormat(arg.getInt()));
    return py::int_(arg.getInt());
  case ArgKind::Layout:
    if (isValidLayout(arg.getInt()))
      return py::cast(Layout(arg.getInt()));
    return py::int_(arg.getInt());
  case ArgKind::Device:
    return py::str(deviceToString(arg.getDevice()));
  case ArgKind::Graph: {
    const Argument::GraphArg &g = arg.getGraphArg();
    if (!g.graph)
      return py::none();
    return py::cast(makeGraphRef(p, g.graph.get()));
  }
  case ArgKind::Complex: {
    Argument::Complex c = arg.getComplex();
    return py::cast(std::complex<double>(c.real, c.imag));
  }
  case ArgKind::IntLists:
    return py::cast(arg.getIntLists());
  case ArgKind::FloatLists:
    return py::cast(arg.getFloatLists());
  case ArgKind::StringToArgument: {
    py::dict out;
    for (const auto &[key, value] : arg.getStringMap())
      out[py::str(key.str())] = argumentToPython(p, value);
    return std::move(out);
  }
  case ArgKind::Unknown: {
    // A member of a newer schema: its key and JSON, decoded.
    const Argument::UnknownMember &u = arg.getUnknown();
    py::dict out;
    out[py::str(u.key)] = py::module_::import("json").attr("loads")(u.json);
    return std::move(out);
  }
  }
  return py::none();
}

/// Decodes one metadata entry; nullopt keeps the text.
static std::optional<py::object> decodeMetadata(llvm::StringRef key,
                                                llvm::StringRef text) {
  if (key == "nn_module_stack") {
    auto stack = parseNnModuleStack(text);
    if (!stack) {
      llvm::consumeError(stack.takeError());
      return std::nullopt;
    }
    py::dict out;
    for (const ModuleStackEntry &e : stack->entries)
      out[py::str(e.key)] = py::make_tuple(e.path, e.type);
    return out;
  }
  if (key == "source_fn_stack") {
    auto entries = parseSourceFnStack(text);
    if (!entries) {
      llvm::consumeError(entries.takeError());
      return std::nullopt;
    }
    py::list out;
    for (const SourceFnEntry &e : *entries)
      out.append(py::make_tuple(e.name, e.target));
    return out;
  }
  if (key == "torch_fn") {
    auto fn = parseTorchFn(text);
    if (!fn) {
      llvm::consumeError(fn.takeError());
      return std::nullopt;
    }
    return py::make_tuple(fn->name, fn->function);
  }
  if (key == "custom" || key == "from_node") {
    try {
      return py::module_::import("json").attr("loads")(py::str(text.str()));
    } catch (py::error_already_set &e) {
      if (!e.matches(PyExc_ValueError))
        throw;
      return std::nullopt;
    }
  }
  return std::nullopt;
}

py::dict metadataToPython(const Node &node) {
  py::dict out;
  for (const auto &[key, value] : node.getMetadata()) {
    std::optional<py::object> decoded = decodeMetadata(key, value);
    out[py::str(key.str())] = decoded ? *decoded : py::str(value.str());
  }
  return out;
}

/// The value a Node operand stands for: its single result.
static const Value *nodeOperand(const NodeRef &n) {
  if (!n.isLive())
    raise(ErrorKind::StaleHandle, "node used as an operand was erased");
  Value *v = n.object->getSingleResult();
  if (!v)
    raise(ErrorKind::Graph,
          "node '" + n.object->getName().str() + "' has " +
              std::to_string(n.object->getResults().size()) +
              " outputs; pass one of its values (node.outputs[i])");
  return v;
}

BuilderArg pythonToBuilderArg(const ProgramPtr &p, const Graph &graph,
                              py::handle obj) {
  auto checkValue = [&](const Value *v) {
    if (v->getGraph() != &graph)
      raise(ErrorKind::Graph, "value '" + v->getName().str() +
                                  "' belongs to another graph or program");
    return v;
  };
  if (obj.is_none())
    return BuilderArg(std::nullopt);
  if (py::isinstance<ValueRef>(obj)) {
    const ValueRef &v = obj.cast<const ValueRef &>();
    if (v.program != p)
      raise(ErrorKind::Graph,
            "value '" +
                (v.isLive() ? v.object->getName().str() : std::string("?")) +
                "' belongs to another program");
    if (!v.isLive())
      raise(ErrorKind::StaleHandle, "value used as an operand was erased");
    return BuilderArg(checkValue(v.object));
  }
  if (py::isinstance<NodeRef>(obj)) {
    const NodeRef &n = obj.cast<const NodeRef &>();
    if (n.program != p)
      raise(ErrorKind::Graph,
            "node used as an operand belongs to another program");
    return BuilderArg(checkValue(nodeOperand(n)));
  }
  if (py::isinstance<py::bool_>(obj))
    return BuilderArg(obj.cast<bool>());
  if (py::isinstance<py::int_>(obj)) {
    try {
      return BuilderArg(obj.cast<int64_t>());
    } catch (py::cast_error &) {
      raise(ErrorKind::Graph, "integer operand " +
                                  py::str(obj).cast<std::string>() +
                                  " does not fit in 64 bits");
    }
  }
  if (py::isinstance<py::float_>(obj))
    return BuilderArg(obj.cast<double>());
  if (py::isinstance<py::str>(obj))
    return BuilderArg(llvm::StringRef(obj.cast<std::string>()));
  if (py::isinstance<ScalarType>(obj))
    return BuilderArg(obj.cast<ScalarType>());
  if (py::isinstance<MemoryFormat>(obj))
    return BuilderArg(obj.cast<MemoryFormat>());
  if (py::isinstance<Layout>(obj))
    return BuilderArg(obj.cast<Layout>());
  if (py::isinstance<py::list>(obj) || py::isinstance<py::tuple>(obj)) {
    std::vector<BuilderArg> elements;
    bool allInts = true, allValues = true;
    for (py::handle item : obj) {
      elements.push_back(pythonToBuilderArg(p, graph, item));
      allInts &= elements.back().getKind() == BuilderArg::Kind::Int;
      allValues &= elements.back().getKind() == BuilderArg::Kind::Value;
    }
    if (!elements.empty() && allInts) {
      std::vector<int64_t> ints;
      for (const BuilderArg &e : elements)
        ints.push_back(e.getInt());
      return BuilderArg(llvm::ArrayRef<int64_t>(ints));
    }
    if (!elements.empty() && allValues) {
      std::vector<Value *> values;
      for (const BuilderArg &e : elements)
        values.push_back(const_cast<Value *>(e.getValue()));
      return BuilderArg(llvm::ArrayRef<Value *>(values));
    }
    return BuilderArg::list(std::move(elements));
  }
  raise(ErrorKind::Graph,
        "cannot pass a " +
            py::str(obj.get_type().attr("__name__")).cast<std::string>() +
            " to an operator: operands are None, bool, int, float, str, "
            "ScalarType, MemoryFormat, Layout, Value, Node, or lists of them");
}

} // namespace pt2ir::python
