//===- Argument.cpp - The schema's Argument union -------------------------===//

#include "pt2ir/ir/Argument.h"
#include "pt2ir/ir/Graph.h"
#include "pt2ir/ir/IRContext.h"

#include <cassert>

namespace pt2ir {

static const char *const MemberNames[] = {
    "as_none",          "as_tensor",          "as_tensors",
    "as_int",           "as_ints",            "as_float",
    "as_floats",        "as_string",          "as_strings",
    "as_sym_int",       "as_sym_ints",        "as_scalar_type",
    "as_memory_format", "as_layout",          "as_device",
    "as_bool",          "as_bools",           "as_sym_bool",
    "as_sym_bools",     "as_graph",           "as_optional_tensors",
    "as_custom_obj",    "as_operator",        "as_sym_float",
    "as_sym_floats",    "as_optional_tensor", "as_complex",
    "as_nested_tensors", "as_int_lists",      "as_string_to_argument",
    "as_float_lists",
};
static_assert(sizeof(MemberNames) / sizeof(MemberNames[0]) == NumSchemaArgKinds,
              "one JSON member name per schema ArgKind");

llvm::StringRef argKindMemberName(ArgKind k) {
  unsigned i = static_cast<unsigned>(k);
  if (i < NumSchemaArgKinds)
    return MemberNames[i];
  return k == ArgKind::Token ? "token" : "unknown";
}

ValueType valueTypeOfArgKind(ArgKind k) {
  switch (k) {
  case ArgKind::SymInt:
  case ArgKind::SymInts:
    return ValueType::SymInt;
  case ArgKind::SymBool:
  case ArgKind::SymBools:
    return ValueType::SymBool;
  case ArgKind::SymFloat:
  case ArgKind::SymFloats:
    return ValueType::SymFloat;
  case ArgKind::CustomObj:
    return ValueType::CustomObj;
  default:
    return ValueType::Tensor;
  }
}

bool argKindFromMemberName(llvm::StringRef name, ArgKind &k) {
  for (unsigned i = 0; i < NumSchemaArgKinds; ++i) {
    if (name == MemberNames[i]) {
      k = static_cast<ArgKind>(i);
      return true;
    }
  }
  return false;
}

Use *detachedUseImpl(IRContext &ctx, llvm::StringRef name) {
  Use *u = ctx.allocateUse();
  u->name = ctx.intern(name);
  return u;
}

static Use *detachedUse(IRContext &ctx, llvm::StringRef name) {
  return detachedUseImpl(ctx, name);
}

Argument::GraphArg::GraphArg(llvm::StringRef name, std::unique_ptr<Graph> graph)
    : name(name), graph(std::move(graph)) {}
Argument::GraphArg::GraphArg(GraphArg &&) noexcept = default;
Argument::GraphArg &Argument::GraphArg::operator=(GraphArg &&) noexcept = default;
Argument::GraphArg::~GraphArg() = default;

Argument::Argument(Argument &&other) noexcept
    : kind(other.kind), payload(std::move(other.payload)) {
  other.kind = ArgKind::None;
  other.payload = std::monostate();
}

Argument &Argument::operator=(Argument &&other) noexcept {
  if (this == &other)
    return *this;
  releaseUses();
  kind = other.kind;
  payload = std::move(other.payload);
  other.kind = ArgKind::None;
  other.payload = std::monostate();
  return *this;
}

Argument::~Argument() { releaseUses(); }

void Argument::releaseUses() {
  forEachUse([](Use *u) { u->unlink(); });
}

Argument Argument::tensor(IRContext &ctx, llvm::StringRef name) {
  return Argument(ArgKind::Tensor, detachedUse(ctx, name));
}

Argument Argument::token(IRContext &ctx, llvm::StringRef name) {
  return Argument(ArgKind::Token, detachedUse(ctx, name));
}

Argument Argument::tensors(IRContext &ctx, llvm::ArrayRef<llvm::StringRef> names) {
  std::vector<Use *> refs;
  refs.reserve(names.size());
  for (auto n : names)
    refs.push_back(detachedUse(ctx, n));
  return Argument(ArgKind::Tensors, std::move(refs));
}

Argument Argument::optionalTensor(IRContext &ctx, std::optional<llvm::StringRef> name) {
  return Argument(ArgKind::OptionalTensor, name ? detachedUse(ctx, *name) : nullptr);
}

Argument Argument::optionalTensors(IRContext &ctx,
                                   llvm::ArrayRef<std::optional<llvm::StringRef>> names) {
  std::vector<Use *> refs;
  refs.reserve(names.size());
  for (auto &n : names)
    refs.push_back(n ? detachedUse(ctx, *n) : nullptr);
  return Argument(ArgKind::OptionalTensors, std::move(refs));
}

Argument Argument::nestedTensors(IRContext &ctx,
                                 llvm::ArrayRef<std::vector<llvm::StringRef>> names) {
  std::vector<std::vector<Use *>> lists;
  for (auto &inner : names) {
    std::vector<Use *> refs;
    for (auto n : inner)
      refs.push_back(detachedUse(ctx, n));
    lists.push_back(std::move(refs));
  }
  return Argument(ArgKind::NestedTensors, std::move(lists));
}

Argument Argument::sym(ArgKind k, SymArg a) {
  assert(k == ArgKind::SymInt || k == ArgKind::SymBool || k == ArgKind::SymFloat);
  return Argument(k, a);
}

Argument Argument::symList(ArgKind k, std::vector<SymArg> a) {
  assert(k == ArgKind::SymInts || k == ArgKind::SymBools || k == ArgKind::SymFloats);
  return Argument(k, std::move(a));
}

SymArg Argument::symRef(IRContext &ctx, llvm::StringRef name) {
  SymArg a;
  a.ref = detachedUse(ctx, name);
  return a;
}

Argument Argument::graph(llvm::StringRef name, std::unique_ptr<Graph> g) {
  return Argument(ArgKind::Graph, GraphArg{name, std::move(g)});
}

Argument Argument::customObj(IRContext &ctx, llvm::StringRef name,
                             llvm::StringRef classFqn) {
  return Argument(ArgKind::CustomObj,
                  CustomObjArg{detachedUse(ctx, name), ctx.intern(classFqn)});
}

Argument Argument::stringToArgument(StringMap m) {
  return Argument(ArgKind::StringToArgument, std::make_unique<StringMap>(std::move(m)));
}

Argument Argument::unknown(std::string key, std::string json) {
  return Argument(ArgKind::Unknown,
                  std::make_unique<UnknownMember>(UnknownMember{std::move(key), std::move(json)}));
}

Use *Argument::getRef() const {
  if (kind == ArgKind::CustomObj)
    return payloadAs<CustomObjArg>().ref;
  return payloadAs<Use *>();
}
const std::vector<Use *> &Argument::getRefs() const { return payloadAs<std::vector<Use *>>(); }
const std::vector<std::vector<Use *>> &Argument::getNestedRefs() const {
  return payloadAs<std::vector<std::vector<Use *>>>();
}
int64_t Argument::getInt() const { return payloadAs<int64_t>(); }
double Argument::getFloat() const { return payloadAs<double>(); }
bool Argument::getBool() const { return payloadAs<bool>(); }
llvm::StringRef Argument::getString() const { return payloadAs<llvm::StringRef>(); }
const std::vector<int64_t> &Argument::getInts() const { return payloadAs<std::vector<int64_t>>(); }
const std::vector<double> &Argument::getFloats() const { return payloadAs<std::vector<double>>(); }
const std::vector<llvm::StringRef> &Argument::getStrings() const {
  return payloadAs<std::vector<llvm::StringRef>>();
}
const std::vector<bool> &Argument::getBools() const { return payloadAs<std::vector<bool>>(); }
const SymArg &Argument::getSym() const { return payloadAs<SymArg>(); }
const std::vector<SymArg> &Argument::getSymList() const { return payloadAs<std::vector<SymArg>>(); }
const Device &Argument::getDevice() const { return payloadAs<Device>(); }
const Argument::GraphArg &Argument::getGraphArg() const { return payloadAs<GraphArg>(); }
Argument::GraphArg &Argument::getGraphArg() { return payloadAs<GraphArg>(); }
const Argument::CustomObjArg &Argument::getCustomObj() const { return payloadAs<CustomObjArg>(); }
Argument::Complex Argument::getComplex() const { return payloadAs<Complex>(); }
const std::vector<std::vector<int64_t>> &Argument::getIntLists() const {
  return payloadAs<std::vector<std::vector<int64_t>>>();
}
const std::vector<std::vector<double>> &Argument::getFloatLists() const {
  return payloadAs<std::vector<std::vector<double>>>();
}
const Argument::StringMap &Argument::getStringMap() const {
  return *payloadAs<std::unique_ptr<StringMap>>();
}
Argument::StringMap &Argument::getStringMap() { return *payloadAs<std::unique_ptr<StringMap>>(); }
const Argument::UnknownMember &Argument::getUnknown() const {
  return *payloadAs<std::unique_ptr<UnknownMember>>();
}

/// A copy of the payload when it is a `T`, else nullopt.
template <typename T, typename Variant>
static std::optional<T> copyIf(const Variant &payload) {
  if (const T *p = std::get_if<T>(&payload))
    return *p;
  return std::nullopt;
}

std::optional<int64_t> Argument::getIfInt() const { return copyIf<int64_t>(payload); }
std::optional<double> Argument::getIfFloat() const { return copyIf<double>(payload); }
std::optional<bool> Argument::getIfBool() const { return copyIf<bool>(payload); }
std::optional<llvm::StringRef> Argument::getIfString() const { return copyIf<llvm::StringRef>(payload); }
const std::vector<int64_t> *Argument::getIfInts() const { return std::get_if<std::vector<int64_t>>(&payload); }
const std::vector<double> *Argument::getIfFloats() const { return std::get_if<std::vector<double>>(&payload); }
const std::vector<bool> *Argument::getIfBools() const { return std::get_if<std::vector<bool>>(&payload); }
const std::vector<llvm::StringRef> *Argument::getIfStrings() const {
  return std::get_if<std::vector<llvm::StringRef>>(&payload);
}
const std::vector<Use *> *Argument::getIfRefs() const { return std::get_if<std::vector<Use *>>(&payload); }
const SymArg *Argument::getIfSym() const { return std::get_if<SymArg>(&payload); }
const std::vector<SymArg> *Argument::getIfSymList() const { return std::get_if<std::vector<SymArg>>(&payload); }
const Device *Argument::getIfDevice() const { return std::get_if<Device>(&payload); }
const Argument::GraphArg *Argument::getIfGraphArg() const { return std::get_if<GraphArg>(&payload); }
const Argument::CustomObjArg *Argument::getIfCustomObj() const { return std::get_if<CustomObjArg>(&payload); }
const Argument::StringMap *Argument::getIfStringMap() const {
  const auto *p = std::get_if<std::unique_ptr<StringMap>>(&payload);
  return p ? p->get() : nullptr;
}

void Argument::forEachUse(llvm::function_ref<void(Use *)> fn) const {
  switch (kind) {
  case ArgKind::Tensor:
  case ArgKind::Token:
  case ArgKind::OptionalTensor:
    if (Use *u = std::get<Use *>(payload))
      fn(u);
    return;
  case ArgKind::CustomObj:
    if (Use *u = std::get<CustomObjArg>(payload).ref)
      fn(u);
    return;
  case ArgKind::Tensors:
  case ArgKind::OptionalTensors:
    for (Use *u : std::get<std::vector<Use *>>(payload))
      if (u)
        fn(u);
    return;
  case ArgKind::NestedTensors:
    for (auto &inner : std::get<std::vector<std::vector<Use *>>>(payload))
      for (Use *u : inner)
        fn(u);
    return;
  case ArgKind::SymInt:
  case ArgKind::SymBool:
  case ArgKind::SymFloat:
    if (Use *u = std::get<SymArg>(payload).ref)
      fn(u);
    return;
  case ArgKind::SymInts:
  case ArgKind::SymBools:
  case ArgKind::SymFloats:
    for (auto &a : std::get<std::vector<SymArg>>(payload))
      if (a.ref)
        fn(a.ref);
    return;
  case ArgKind::StringToArgument: {
    // Iterative walk over nested maps keeps deep user data off the stack.
    std::vector<const StringMap *> work{&getStringMap()};
    while (!work.empty()) {
      const StringMap *m = work.back();
      work.pop_back();
      for (auto &entry : *m) {
        if (entry.second.kind == ArgKind::StringToArgument)
          work.push_back(&entry.second.getStringMap());
        else
          entry.second.forEachUse(fn);
      }
    }
    return;
  }
  default:
    return;
  }
}

bool Argument::refersTo(const Value *v) const {
  bool found = false;
  forEachUse([&](Use *u) { found |= u->get() == v; });
  return found;
}

Value *Argument::getSingleValue() const {
  switch (kind) {
  case ArgKind::Tensor:
  case ArgKind::Token:
  case ArgKind::OptionalTensor:
  case ArgKind::CustomObj: {
    Use *u = getRef();
    return u ? u->get() : nullptr;
  }
  case ArgKind::SymInt:
  case ArgKind::SymBool:
  case ArgKind::SymFloat:
    return getSym().ref ? getSym().ref->get() : nullptr;
  default:
    return nullptr;
  }
}

Argument Argument::clone(IRContext &ctx) const {
  auto cloneUse = [&](Use *u) -> Use * {
    if (!u)
      return nullptr;
    Use *copy = detachedUse(ctx, u->getName());
    if (const ExtraFields *extras = ctx.getUseExtras(u))
      ctx.setUseExtras(copy, *extras);
    return copy;
  };
  auto cloneRefs = [&](const std::vector<Use *> &refs) {
    std::vector<Use *> out;
    out.reserve(refs.size());
    for (Use *u : refs)
      out.push_back(cloneUse(u));
    return out;
  };
  switch (kind) {
  case ArgKind::None:
    return Argument();
  case ArgKind::Tensor:
  case ArgKind::Token:
  case ArgKind::OptionalTensor:
    return Argument(kind, cloneUse(std::get<Use *>(payload)));
  case ArgKind::CustomObj: {
    auto &c = getCustomObj();
    return Argument(kind, CustomObjArg{cloneUse(c.ref), c.classFqn});
  }
  case ArgKind::Tensors:
  case ArgKind::OptionalTensors:
    return Argument(kind, cloneRefs(getRefs()));
  case ArgKind::NestedTensors: {
    std::vector<std::vector<Use *>> lists;
    for (auto &inner : getNestedRefs())
      lists.push_back(cloneRefs(inner));
    return Argument(kind, std::move(lists));
  }
  case ArgKind::SymInt:
  case ArgKind::SymBool:
  case ArgKind::SymFloat: {
    SymArg a = getSym();
    a.ref = cloneUse(a.ref);
    return Argument(kind, a);
  }
  case ArgKind::SymInts:
  case ArgKind::SymBools:
  case ArgKind::SymFloats: {
    std::vector<SymArg> list = getSymList();
    for (auto &a : list)
      a.ref = cloneUse(a.ref);
    return Argument(kind, std::move(list));
  }
  case ArgKind::Graph: {
    auto &g = getGraphArg();
    GraphArg copy{g.name, g.graph ? g.graph->clone() : nullptr};
    copy.extras = g.extras;
    return Argument(kind, std::move(copy));
  }
  case ArgKind::StringToArgument: {
    StringMap m;
    for (auto &entry : getStringMap())
      m.emplace_back(entry.first, entry.second.clone(ctx));
    return stringToArgument(std::move(m));
  }
  case ArgKind::Unknown:
    return unknown(getUnknown().key, getUnknown().json);
  case ArgKind::Int:
  case ArgKind::ScalarType:
  case ArgKind::MemoryFormat:
  case ArgKind::Layout:
    return Argument(kind, getInt());
  case ArgKind::Float:
    return Argument(kind, getFloat());
  case ArgKind::Bool:
    return Argument(kind, getBool());
  case ArgKind::String:
  case ArgKind::Operator:
    return Argument(kind, getString());
  case ArgKind::Ints:
    return Argument(kind, getInts());
  case ArgKind::Floats:
    return Argument(kind, getFloats());
  case ArgKind::Strings:
    return Argument(kind, getStrings());
  case ArgKind::Bools:
    return Argument(kind, getBools());
  case ArgKind::Device:
    return Argument(kind, getDevice());
  case ArgKind::Complex:
    return Argument(kind, getComplex());
  case ArgKind::IntLists:
    return Argument(kind, getIntLists());
  case ArgKind::FloatLists:
    return Argument(kind, getFloatLists());
  }
  return Argument();
}

} // namespace pt2ir
