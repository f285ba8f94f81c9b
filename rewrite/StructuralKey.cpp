//===- StructuralKey.cpp - Canonical byte strings for arguments -----------===//
//
// Every piece is tagged with its ArgKind and every variable-length piece is
// length-prefixed, so no two different arguments share an encoding.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/rewrite/StructuralKey.h"

#include "llvm/ADT/DenseMap.h"

#include <cstring>

namespace pt2ir {

namespace {

void appendInt(std::string &key, int64_t v) {
  key += std::to_string(v);
  key += ',';
}

void appendFloat(std::string &key, double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof(bits));
  key += 'f';
  key += std::to_string(bits);
  key += ',';
}

void appendText(std::string &key, llvm::StringRef text) {
  key += std::to_string(text.size());
  key += ':';
  key += text;
}

void appendUse(std::string &key, const Use *u, ValueKeyFn valueKey) {
  if (!u) {
    key += '~';
    return;
  }
  valueKey(key, u->get(), u->get() ? llvm::StringRef() : u->getName());
}

void appendSym(std::string &key, const SymArg &s, ValueKeyFn valueKey) {
  if (s.isRef()) {
    key += 'r';
    appendUse(key, s.ref, valueKey);
    return;
  }
  key += 'c';
  appendInt(key, s.intValue);
  appendFloat(key, s.floatValue);
  key += s.boolValue ? 'T' : 'F';
}

} // namespace

void appendValueIdentity(std::string &key, const Value *v, llvm::StringRef name) {
  if (!v) {
    key += 'n';
    appendText(key, name);
    return;
  }
  key += 'v';
  appendInt(key, int64_t(reinterpret_cast<uintptr_t>(v)));
}

void appendArgumentKey(std::string &key, const Argument &arg, ValueKeyFn valueKey) {
  key += '<';
  appendInt(key, int64_t(arg.getKind()));
  switch (arg.getKind()) {
  case ArgKind::None:
    break;
  case ArgKind::Tensor:
  case ArgKind::OptionalTensor:
  case ArgKind::Token:
    appendUse(key, arg.getRef(), valueKey);
    break;
  case ArgKind::Tensors:
  case ArgKind::OptionalTensors:
    for (const Use *u : arg.getRefs())
      appendUse(key, u, valueKey);
    break;
  case ArgKind::NestedTensors:
    for (const auto &inner : arg.getNestedRefs()) {
      key += '[';
      for (const Use *u : inner)
        appendUse(key, u, valueKey);
      key += ']';
    }
    break;
  case ArgKind::Int:
  case ArgKind::ScalarType:
  case ArgKind::MemoryFormat:
  case ArgKind::Layout:
    appendInt(key, arg.getInt());
    break;
  case ArgKind::Ints:
    for (int64_t v : arg.getInts())
      appendInt(key, v);
    break;
  case ArgKind::Float:
    appendFloat(key, arg.getFloat());
    break;
  case ArgKind::Floats:
    for (double v : arg.getFloats())
      appendFloat(key, v);
    break;
  case ArgKind::String:
  case ArgKind::Operator:
    appendText(key, arg.getString());
    break;
  case ArgKind::Strings:
    for (llvm::StringRef s : arg.getStrings())
      appendText(key, s);
    break;
  case ArgKind::Bool:
    key += arg.getBool() ? 'T' : 'F';
    break;
  case ArgKind::Bools:
    for (bool b : arg.getBools())
      key += b ? 'T' : 'F';
    break;
  case ArgKind::SymInt:
  case ArgKind::SymBool:
  case ArgKind::SymFloat:
    appendSym(key, arg.getSym(), valueKey);
    break;
  case ArgKind::SymInts:
  case ArgKind::SymBools:
  case ArgKind::SymFloats:
    for (const SymArg &s : arg.getSymList())
      appendSym(key, s, valueKey);
    break;
  case ArgKind::Device: {
    const Device &d = arg.getDevice();
    appendText(key, d.type);
    if (d.index)
      appendInt(key, *d.index);
    else
      key += '-';
    break;
  }
  case ArgKind::Graph:
    appendGraphKey(key, *arg.getGraphArg().graph);
    break;
  case ArgKind::CustomObj:
    appendUse(key, arg.getCustomObj().ref, valueKey);
    appendText(key, arg.getCustomObj().classFqn);
    break;
  case ArgKind::Complex:
    appendFloat(key, arg.getComplex().real);
    appendFloat(key, arg.getComplex().imag);
    break;
  case ArgKind::IntLists:
    for (const auto &inner : arg.getIntLists()) {
      key += '[';
      for (int64_t v : inner)
        appendInt(key, v);
      key += ']';
    }
    break;
  case ArgKind::FloatLists:
    for (const auto &inner : arg.getFloatLists()) {
      key += '[';
      for (double v : inner)
        appendFloat(key, v);
      key += ']';
    }
    break;
  case ArgKind::StringToArgument:
    for (const auto &[name, inner] : arg.getStringMap()) {
      appendText(key, name);
      appendArgumentKey(key, inner, valueKey);
    }
    break;
  case ArgKind::Unknown:
    appendText(key, arg.getUnknown().key);
    appendText(key, arg.getUnknown().json);
    break;
  }
  key += '>';
}

void appendGraphKey(std::string &key, const Graph &graph) {
  llvm::DenseMap<const Value *, unsigned> numbers;
  auto define = [&](const Argument &arg) {
    arg.forEachUse([&](Use *u) {
      if (Value *v = u->get())
        numbers.try_emplace(v, numbers.size());
    });
  };
  auto local = [&](std::string &k, const Value *v, llvm::StringRef name) {
    auto it = v ? numbers.find(v) : numbers.end();
    if (it == numbers.end()) {
      // Defined outside this graph (or unresolved): not a local position.
      appendValueIdentity(k, v, name);
      return;
    }
    k += '%';
    appendInt(k, it->second);
  };
  key += "{in";
  for (const Argument &in : graph.getInputs()) {
    define(in);
    appendArgumentKey(key, in, local);
  }
  for (const Node &n : graph.getNodes()) {
    key += "(";
    appendText(key, n.getTarget());
    for (const NamedArgument &in : n.getInputs()) {
      appendText(key, in.name);
      appendArgumentKey(key, in.arg, local);
    }
    key += "->";
    for (const Argument &out : n.getOutputs()) {
      define(out);
      appendArgumentKey(key, out, local);
    }
    key += ")";
  }
  key += "out";
  for (const Argument &out : graph.getOutputs())
    appendArgumentKey(key, out, local);
  key += '}';
}

bool areStructurallyEqual(const Graph &a, const Graph &b) {
  std::string keyA, keyB;
  appendGraphKey(keyA, a);
  appendGraphKey(keyB, b);
  return keyA == keyB;
}

} // namespace pt2ir
