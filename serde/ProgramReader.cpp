//===- ProgramReader.cpp - JSON to ExportedProgram ------------------------===//
//
// A single pass over the RapidJSON DOM. Every step keeps the JSON path it is
// at, so the first error found can say exactly where it is. The reader does
// not judge whether the program is valid beyond what is needed to build the
// IR (types of JSON values, union arity, enums, defined-once names); the
// verifier checks the rest.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/serde/ProgramReader.h"
#include "pt2ir/json/JsonNumbers.h"
#include "pt2ir/json/PyJsonWriter.h"
#include "pt2ir/serde/StreamingReader.h"

#include "pt2ir/ir/Enums.h"
#include "pt2ir/ir/Graph.h"
#include "pt2ir/ir/OperatorRegistry.h"
#include "pt2ir/ir/SymbolicOps.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include <rapidjson/error/en.h>

#include <cmath>
#include <cstring>

using JsonValue = rapidjson::Value;

namespace pt2ir {
namespace {

llvm::StringRef str(const JsonValue &v) {
  return llvm::StringRef(v.GetString(), v.GetStringLength());
}

const char *jsonTypeName(const JsonValue &v) {
  switch (v.GetType()) {
  case rapidjson::kNullType: return "null";
  case rapidjson::kFalseType:
  case rapidjson::kTrueType: return "a boolean";
  case rapidjson::kNumberType: return v.IsDouble() ? "a float" : "an integer";
  case rapidjson::kStringType: return "a string";
  case rapidjson::kArrayType: return "an array";
  case rapidjson::kObjectType: return "an object";
  }
  return "?";
}

/// One step of a JSON path: an object key or an array index.
struct PathStep {
  const char *key;
  size_t keyLen;
  size_t index;
};

class Reader {
public:
  Reader(IRContext &ctx, const ReadOptions &options) : ctx(ctx), options(options) {}

  /// Records the first error, at the current path.
  bool fail(const llvm::Twine &msg) {
    if (!error)
      error = options.fileName + ": error: " + (path.empty() ? "<root>" : pathString()) +
              ": " + msg.str();
    return false;
  }
  std::string takeError() { return std::move(*error); }
  bool failed() const { return error.has_value(); }

  /// The current JSON path. Very deep paths keep their first and last
  /// steps, so a message stays readable.
  std::string pathString() const {
    constexpr size_t KeepHead = 12, KeepTail = 8;
    std::string out;
    for (size_t i = 0; i < path.size(); ++i) {
      if (path.size() > KeepHead + KeepTail && i == KeepHead) {
        out += ".<" + std::to_string(path.size() - KeepHead - KeepTail) +
               " more steps>";
        i = path.size() - KeepTail - 1;
        continue;
      }
      const PathStep &s = path[i];
      if (s.key) {
        if (!out.empty())
          out += '.';
        out.append(s.key, s.keyLen);
      } else {
        out += '[';
        out += std::to_string(s.index);
        out += ']';
      }
    }
    return out;
  }

  struct Step {
    Reader &r;
    Step(Reader &r, llvm::StringRef key) : r(r) { r.path.push_back({key.data(), key.size(), 0}); }
    Step(Reader &r, size_t index) : r(r) { r.path.push_back({nullptr, 0, index}); }
    ~Step() { r.path.pop_back(); }
  };

  bool readProgram(const JsonValue &root, ExportedProgram &ep);

private:
  //===--- Primitive readers ---===//
  bool expectObject(const JsonValue &v, llvm::StringRef what) {
    if (v.IsObject())
      return true;
    return fail("expected " + what + " (a JSON object), got " + jsonTypeName(v));
  }
  bool expectArray(const JsonValue &v, llvm::StringRef what) {
    if (v.IsArray())
      return true;
    return fail("expected " + what + " (a JSON array), got " + jsonTypeName(v));
  }
  bool readInt(const JsonValue &v, int64_t &out) {
    if (v.IsInt64()) {
      out = v.GetInt64();
      return true;
    }
    if (v.IsUint64() || (v.IsDouble() && std::isfinite(v.GetDouble()) &&
                         std::floor(v.GetDouble()) == v.GetDouble() &&
                         std::fabs(v.GetDouble()) >= 9.2e18))
      return fail("integer out of range: does not fit in 64 bits");
    return fail(llvm::Twine("expected an integer, got ") + jsonTypeName(v));
  }
  bool readBool(const JsonValue &v, bool &out) {
    if (!v.IsBool())
      return fail(llvm::Twine("expected a boolean, got ") + jsonTypeName(v));
    out = v.GetBool();
    return true;
  }
  bool readString(const JsonValue &v, llvm::StringRef &out) {
    if (!v.IsString())
      return fail(llvm::Twine("expected a string, got ") + jsonTypeName(v));
    if (v.GetStringLength() > options.maxStringLength)
      return fail("string of " + llvm::Twine(v.GetStringLength()) +
                  " bytes is longer than the limit of " + llvm::Twine(options.maxStringLength));
    out = ctx.intern(str(v));
    return true;
  }
  bool readStdString(const JsonValue &v, std::string &out) {
    llvm::StringRef s;
    if (!v.IsString())
      return fail(llvm::Twine("expected a string, got ") + jsonTypeName(v));
    s = str(v);
    out.assign(s.data(), s.size());
    return true;
  }
  /// Floats: numbers, the strings Python's float() accepts for non-finite
  /// values and decimals, and the bare tokens (parsed by RapidJSON).
  bool readFloat(const JsonValue &v, double &out) {
    if (v.IsNumber()) {
      out = v.GetDouble();
      return true;
    }
    if (v.IsString()) {
      std::string s = str(v).trim().lower();
      if (s == "infinity" || s == "inf" || s == "+infinity" || s == "+inf") {
        out = HUGE_VAL;
        return true;
      }
      if (s == "-infinity" || s == "-inf") {
        out = -HUGE_VAL;
        return true;
      }
      if (s == "nan" || s == "+nan" || s == "-nan") {
        out = std::nan("");
        return true;
      }
      if (!llvm::StringRef(s).getAsDouble(out, /*AllowInexact=*/true))
        return true;
      return fail("expected a float, got the string \"" + str(v) + "\"");
    }
    return fail(llvm::Twine("expected a float, got ") + jsonTypeName(v));
  }
  bool readEnum(const JsonValue &v, llvm::StringRef enumName, bool (*valid)(int64_t),
                int64_t &out) {
    if (!readInt(v, out))
      return false;
    if (!valid(out))
      return fail("unknown " + enumName + " value " + llvm::Twine(out));
    return true;
  }
  bool depthOk() {
    if (depth <= options.maxDepth)
      return true;
    return fail("nesting deeper than the limit of " + llvm::Twine(options.maxDepth));
  }
  bool subgraphDepthOk() {
    if (subgraphDepth <= options.maxSubgraphDepth)
      return true;
    return fail("subgraphs nested deeper than the limit of " +
                llvm::Twine(options.maxSubgraphDepth));
  }

  /// Matches the members of a struct object against `names` (declaration
  /// order). Unknown keys go to `extras` (when given) with their position.
  bool readFields(const JsonValue &obj, llvm::StringRef typeName,
                  llvm::ArrayRef<const char *> names, const JsonValue **slots,
                  ExtraFields *extras) {
    if (!expectObject(obj, typeName))
      return false;
    int lastKnown = -1;
    for (auto &m : obj.GetObject()) {
      llvm::StringRef key = str(m.name);
      int idx = -1;
      for (size_t i = 0; i < names.size(); ++i) {
        if (key == names[i]) {
          idx = static_cast<int>(i);
          break;
        }
      }
      if (idx >= 0) {
        if (slots[idx]) {
          Step s(*this, key);
          return fail("duplicate key '" + key + "' in " + typeName);
        }
        slots[idx] = &m.value;
        lastKnown = idx;
        continue;
      }
      if (!extras)
        continue;
      Step s(*this, key);
      std::string json;
      if (!dumpUnknown(m.value, json))
        return false;
      extras->add(lastKnown, key.str(), std::move(json));
    }
    return true;
  }
  bool dumpUnknown(const JsonValue &v, std::string &out) {
    // Bounded walk before the (recursive) dump.
    struct Item { const JsonValue *v; unsigned d; };
    llvm::SmallVector<Item, 16> work{{&v, 0}};
    while (!work.empty()) {
      Item it = work.pop_back_val();
      if (depth + it.d > options.maxDepth)
        return fail("nesting deeper than the limit of " + llvm::Twine(options.maxDepth));
      if (it.v->IsArray())
        for (auto &e : it.v->GetArray())
          work.push_back({&e, it.d + 1});
      else if (it.v->IsObject())
        for (auto &m : it.v->GetObject())
          work.push_back({&m.value, it.d + 1});
    }
    appendPyJsonValue(out, v);
    return true;
  }
  bool require(const JsonValue *slot, const char *field, llvm::StringRef typeName) {
    if (slot)
      return true;
    return fail("missing required field '" + llvm::Twine(field) + "' of " + typeName);
  }

  /// A union: exactly one member (members whose value is null are ignored
  /// when exactly one other member remains).
  bool readUnion(const JsonValue &v, llvm::StringRef typeName, llvm::StringRef &key,
                 const JsonValue *&member) {
    if (!expectObject(v, typeName))
      return false;
    if (v.MemberCount() == 1) {
      auto m = v.MemberBegin();
      key = str(m->name);
      member = &m->value;
      return true;
    }
    const JsonValue *found = nullptr;
    unsigned nonNull = 0;
    std::string keys;
    for (auto &m : v.GetObject()) {
      if (!keys.empty())
        keys += ", ";
      keys += str(m.name).str();
      if (m.value.IsNull())
        continue;
      ++nonNull;
      found = &m.value;
      key = str(m.name);
    }
    if (nonNull == 1) {
      member = found;
      return true;
    }
    if (v.MemberCount() == 0)
      return fail("expected exactly one member of union " + typeName + ", got none");
    return fail("expected exactly one member of union " + typeName + ", got " +
                llvm::Twine(v.MemberCount()) + " (" + keys + ")");
  }

  //===--- Schema types ---===//
  bool readArgument(const JsonValue &v, Argument &out);
  /// Reads a TensorArgument or TokenArgument object; unknown keys go to
  /// `extras`.
  bool readTensorArgument(const JsonValue &v, llvm::StringRef typeName, llvm::StringRef &name,
                          ExtraFields &extras);
  /// A TensorArgument's name together with the unknown keys it carried.
  struct TensorRef {
    llvm::StringRef name;
    ExtraFields extras;
  };
  bool readTensorRef(const JsonValue &v, TensorRef &out) {
    return readTensorArgument(v, "TensorArgument", out.name, out.extras);
  }
  /// Hands the unknown keys read with a slot to the context.
  void attachExtras(Use *use, ExtraFields &extras) {
    if (use && !extras.empty())
      ctx.setUseExtras(use, std::move(extras));
  }
  /// Names of `refs`, for the Argument factories.
  static std::vector<llvm::StringRef> namesOf(const std::vector<TensorRef> &refs) {
    std::vector<llvm::StringRef> names;
    names.reserve(refs.size());
    for (const TensorRef &r : refs)
      names.push_back(r.name);
    return names;
  }
  void attachExtras(const std::vector<Use *> &uses, std::vector<TensorRef> &refs) {
    for (size_t i = 0; i < uses.size() && i < refs.size(); ++i)
      attachExtras(uses[i], refs[i].extras);
  }
  bool readSymArg(const JsonValue &v, ArgKind kind, SymArg &out);
  bool readOptionalTensor(const JsonValue &v, std::optional<TensorRef> &out);
  bool readDevice(const JsonValue &v, Device &out);
  bool readSymExpr(const JsonValue &v, SymExpr &out);
  bool readSymValue(const JsonValue &v, ValueTable table, SymValue &out);
  bool readTensorMeta(const JsonValue &v, TensorMeta &out);
  bool readNode(const JsonValue &v, Graph &g, size_t index);
  bool readGraph(const JsonValue &v, Graph &g);
  template <typename Fn> bool readMap(const JsonValue &v, llvm::StringRef what, Fn fn);
  bool readStringPairs(const JsonValue &v, StringPairs &out);
  bool readValueTable(const JsonValue &v, Graph &g, ValueTable table);
  bool readInputSpec(const JsonValue &v, InputSpec &out);
  bool readOutputSpec(const JsonValue &v, OutputSpec &out);
  bool readSignature(const JsonValue &v, GraphSignature &out);
  bool readModuleCallEntry(const JsonValue &v, ModuleCallEntry &out);
  bool readGraphModule(const JsonValue &v, GraphModule &out);
  bool readRangeConstraintEnd(const JsonValue &v, std::optional<int64_t> &out);
  bool checkOperandsDefined(const Argument &arg, const Graph &g);
  bool checkExtensionTarget(llvm::StringRef target);
  bool checkDefinitionsFree(const Argument &arg, const Graph &g);
  template <typename T, typename Fn>
  bool readList(const JsonValue &v, llvm::StringRef what, std::vector<T> &out, Fn fn) {
    if (!expectArray(v, what))
      return false;
    out.reserve(v.Size());
    size_t i = 0;
    for (auto &e : v.GetArray()) {
      Step s(*this, i++);
      T item{};
      if (!fn(e, item))
        return false;
      out.push_back(std::move(item));
    }
    return true;
  }

  IRContext &ctx;
  const ReadOptions &options;
  std::vector<PathStep> path;
  std::optional<std::string> error;
  unsigned depth = 0;
  unsigned subgraphDepth = 0;
};

bool Reader::readTensorArgument(const JsonValue &v, llvm::StringRef typeName,
                                llvm::StringRef &name, ExtraFields &extras) {
  static const char *const Names[] = {"name"};
  const JsonValue *slots[1] = {};
  if (!readFields(v, typeName, Names, slots, &extras))
    return false;
  if (!require(slots[0], "name", typeName))
    return false;
  Step s(*this, "name");
  return readString(*slots[0], name);
}

bool Reader::readSymArg(const JsonValue &v, ArgKind kind, SymArg &out) {
  llvm::StringRef typeName = kind == ArgKind::SymInt    ? "SymIntArgument"
                             : kind == ArgKind::SymBool ? "SymBoolArgument"
                                                        : "SymFloatArgument";
  llvm::StringRef key;
  const JsonValue *member;
  if (!readUnion(v, typeName, key, member))
    return false;
  Step s(*this, key);
  if (key == "as_name") {
    llvm::StringRef name;
    if (!readString(*member, name))
      return false;
    out = Argument::symRef(ctx, name);
    return true;
  }
  if (kind == ArgKind::SymInt && key == "as_int")
    return readInt(*member, out.intValue);
  if (kind == ArgKind::SymBool && key == "as_bool")
    return readBool(*member, out.boolValue);
  if (kind == ArgKind::SymFloat && key == "as_float")
    return readFloat(*member, out.floatValue);
  return fail("unknown member '" + key + "' of union " + typeName);
}

bool Reader::readOptionalTensor(const JsonValue &v, std::optional<TensorRef> &out) {
  llvm::StringRef key;
  const JsonValue *member;
  if (!readUnion(v, "OptionalTensorArgument", key, member))
    return false;
  Step s(*this, key);
  if (key == "as_none") {
    out.reset();
    return true;
  }
  if (key != "as_tensor")
    return fail("unknown member '" + key + "' of union OptionalTensorArgument");
  out.emplace();
  return readTensorRef(*member, *out);
}

bool Reader::readDevice(const JsonValue &v, Device &out) {
  static const char *const Names[] = {"type", "index"};
  const JsonValue *slots[2] = {};
  if (!readFields(v, "Device", Names, slots, &out.extras) || !require(slots[0], "type", "Device"))
    return false;
  {
    Step s(*this, "type");
    if (!readString(*slots[0], out.type))
      return false;
  }
  if (slots[1] && !slots[1]->IsNull()) {
    Step s(*this, "index");
    int64_t idx;
    if (!readInt(*slots[1], idx))
      return false;
    out.index = idx;
  }
  return true;
}

bool Reader::readArgument(const JsonValue &v, Argument &out) {
  llvm::StringRef key;
  const JsonValue *mp;
  if (!readUnion(v, "Argument", key, mp))
    return false;
  const JsonValue &m = *mp;
  ArgKind kind;
  if (!argKindFromMemberName(key, kind)) {
    std::string json;
    Step s(*this, key);
    if (!dumpUnknown(m, json))
      return false;
    out = Argument::unknown(key.str(), std::move(json));
    return true;
  }
  Step s(*this, key);
  switch (kind) {
  case ArgKind::None:
    out = Argument::none(); // Any value: `true`, or `[]` in early files.
    return true;
  case ArgKind::Tensor: {
    TensorRef ref;
    if (!readTensorRef(m, ref))
      return false;
    out = Argument::tensor(ctx, ref.name);
    attachExtras(out.getRef(), ref.extras);
    return true;
  }
  case ArgKind::Tensors: {
    std::vector<TensorRef> refs;
    if (!readList(m, "a list of TensorArgument", refs,
                  [&](const JsonValue &e, TensorRef &r) { return readTensorRef(e, r); }))
      return false;
    out = Argument::tensors(ctx, namesOf(refs));
    attachExtras(out.getRefs(), refs);
    return true;
  }
  case ArgKind::Int: {
    int64_t i;
    if (!readInt(m, i))
      return false;
    out = Argument::integer(i);
    return true;
  }
  case ArgKind::Ints: {
    std::vector<int64_t> ints;
    if (!readList(m, "a list of int", ints, [&](const JsonValue &e, int64_t &i) { return readInt(e, i); }))
      return false;
    out = Argument::ints(std::move(ints));
    return true;
  }
  case ArgKind::Float: {
    double f;
    if (!readFloat(m, f))
      return false;
    out = Argument::floating(f);
    return true;
  }
  case ArgKind::Floats: {
    std::vector<double> fs;
    if (!readList(m, "a list of float", fs, [&](const JsonValue &e, double &f) { return readFloat(e, f); }))
      return false;
    out = Argument::floats(std::move(fs));
    return true;
  }
  case ArgKind::String:
  case ArgKind::Operator: {
    llvm::StringRef s2;
    if (!readString(m, s2))
      return false;
    out = kind == ArgKind::String ? Argument::string(s2) : Argument::operatorRef(s2);
    return true;
  }
  case ArgKind::Strings: {
    std::vector<llvm::StringRef> ss;
    if (!readList(m, "a list of str", ss, [&](const JsonValue &e, llvm::StringRef &x) { return readString(e, x); }))
      return false;
    out = Argument::strings(std::move(ss));
    return true;
  }
  case ArgKind::SymInt:
  case ArgKind::SymBool:
  case ArgKind::SymFloat: {
    SymArg a;
    if (!readSymArg(m, kind, a))
      return false;
    out = Argument::sym(kind, a);
    return true;
  }
  case ArgKind::SymInts:
  case ArgKind::SymBools:
  case ArgKind::SymFloats: {
    ArgKind elem = kind == ArgKind::SymInts    ? ArgKind::SymInt
                   : kind == ArgKind::SymBools ? ArgKind::SymBool
                                               : ArgKind::SymFloat;
    std::vector<SymArg> list;
    if (!readList(m, "a list", list, [&](const JsonValue &e, SymArg &a) { return readSymArg(e, elem, a); }))
      return false;
    out = Argument::symList(kind, std::move(list));
    return true;
  }
  case ArgKind::ScalarType: {
    int64_t i;
    if (!readEnum(m, "ScalarType", isValidScalarType, i))
      return false;
    out = Argument::scalarType(i);
    return true;
  }
  case ArgKind::MemoryFormat: {
    int64_t i;
    if (!readEnum(m, "MemoryFormat", isValidMemoryFormat, i))
      return false;
    out = Argument::memoryFormat(i);
    return true;
  }
  case ArgKind::Layout: {
    int64_t i;
    if (!readEnum(m, "Layout", isValidLayout, i))
      return false;
    out = Argument::layout(i);
    return true;
  }
  case ArgKind::Device: {
    Device d;
    if (!readDevice(m, d))
      return false;
    out = Argument::device(std::move(d));
    return true;
  }
  case ArgKind::Bool: {
    bool b = false;
    if (!readBool(m, b))
      return false;
    out = Argument::boolean(b);
    return true;
  }
  case ArgKind::Bools: {
    if (!expectArray(m, "a list of bool"))
      return false;
    std::vector<bool> bs;
    size_t i = 0;
    for (auto &e : m.GetArray()) {
      Step s2(*this, i++);
      bool b = false;
      if (!readBool(e, b))
        return false;
      bs.push_back(b);
    }
    out = Argument::bools(std::move(bs));
    return true;
  }
  case ArgKind::Graph: {
    static const char *const Names[] = {"name", "graph"};
    const JsonValue *slots[2] = {};
    ExtraFields extras;
    if (!readFields(m, "GraphArgument", Names, slots, &extras) ||
        !require(slots[0], "name", "GraphArgument") || !require(slots[1], "graph", "GraphArgument"))
      return false;
    llvm::StringRef name;
    {
      Step s2(*this, "name");
      if (!readString(*slots[0], name))
        return false;
    }
    auto sub = std::make_unique<Graph>(ctx);
    {
      Step s2(*this, "graph");
      ++depth;
      ++subgraphDepth;
      bool ok = depthOk() && subgraphDepthOk() && readGraph(*slots[1], *sub);
      --subgraphDepth;
      --depth;
      if (!ok)
        return false;
    }
    out = Argument::graph(name, std::move(sub));
    out.getGraphArg().extras = std::move(extras);
    return true;
  }
  case ArgKind::OptionalTensors: {
    if (!expectArray(m, "a list of OptionalTensorArgument"))
      return false;
    std::vector<std::optional<TensorRef>> refs;
    std::vector<std::optional<llvm::StringRef>> names;
    refs.reserve(m.Size());
    names.reserve(m.Size());
    size_t i = 0;
    for (auto &e : m.GetArray()) {
      Step s2(*this, i++);
      if (!readOptionalTensor(e, refs.emplace_back()))
        return false;
      names.push_back(refs.back() ? std::optional<llvm::StringRef>(refs.back()->name) : std::nullopt);
    }
    out = Argument::optionalTensors(ctx, names);
    for (size_t j = 0; j < refs.size(); ++j)
      if (refs[j])
        attachExtras(out.getRefs()[j], refs[j]->extras);
    return true;
  }
  case ArgKind::OptionalTensor: {
    std::optional<TensorRef> ref;
    if (!readOptionalTensor(m, ref))
      return false;
    out = Argument::optionalTensor(ctx, ref ? std::optional<llvm::StringRef>(ref->name) : std::nullopt);
    if (ref)
      attachExtras(out.getRef(), ref->extras);
    return true;
  }
  case ArgKind::CustomObj: {
    static const char *const Names[] = {"name", "class_fqn"};
    const JsonValue *slots[2] = {};
    ExtraFields extras;
    if (!readFields(m, "CustomObjArgument", Names, slots, &extras) ||
        !require(slots[0], "name", "CustomObjArgument") ||
        !require(slots[1], "class_fqn", "CustomObjArgument"))
      return false;
    llvm::StringRef name, cls;
    {
      Step s2(*this, "name");
      if (!readString(*slots[0], name))
        return false;
    }
    {
      Step s2(*this, "class_fqn");
      if (!readString(*slots[1], cls))
        return false;
    }
    out = Argument::customObj(ctx, name, cls);
    attachExtras(out.getCustomObj().ref, extras);
    return true;
  }
  case ArgKind::Complex: {
    static const char *const Names[] = {"real", "imag"};
    const JsonValue *slots[2] = {};
    ExtraFields extras;
    if (!readFields(m, "ComplexValue", Names, slots, &extras) ||
        !require(slots[0], "real", "ComplexValue") || !require(slots[1], "imag", "ComplexValue"))
      return false;
    double re, im;
    {
      Step s2(*this, "real");
      if (!readFloat(*slots[0], re))
        return false;
    }
    {
      Step s2(*this, "imag");
      if (!readFloat(*slots[1], im))
        return false;
    }
    out = Argument::complex(re, im, std::move(extras));
    return true;
  }
  case ArgKind::NestedTensors: {
    std::vector<std::vector<TensorRef>> lists;
    if (!readList(m, "a list of lists of TensorArgument", lists,
                  [&](const JsonValue &e, std::vector<TensorRef> &inner) {
                    return readList(e, "a list of TensorArgument", inner,
                                    [&](const JsonValue &t, TensorRef &r) { return readTensorRef(t, r); });
                  }))
      return false;
    std::vector<std::vector<llvm::StringRef>> names;
    names.reserve(lists.size());
    for (const auto &inner : lists)
      names.push_back(namesOf(inner));
    out = Argument::nestedTensors(ctx, names);
    for (size_t j = 0; j < lists.size(); ++j)
      attachExtras(out.getNestedRefs()[j], lists[j]);
    return true;
  }
  case ArgKind::IntLists: {
    std::vector<std::vector<int64_t>> lists;
    if (!readList(m, "a list of int lists", lists, [&](const JsonValue &e, std::vector<int64_t> &inner) {
          return readList(e, "a list of int", inner, [&](const JsonValue &x, int64_t &i) { return readInt(x, i); });
        }))
      return false;
    out = Argument::intLists(std::move(lists));
    return true;
  }
  case ArgKind::FloatLists: {
    std::vector<std::vector<double>> lists;
    if (!readList(m, "a list of float lists", lists, [&](const JsonValue &e, std::vector<double> &inner) {
          return readList(e, "a list of float", inner, [&](const JsonValue &x, double &f) { return readFloat(x, f); });
        }))
      return false;
    out = Argument::floatLists(std::move(lists));
    return true;
  }
  case ArgKind::StringToArgument: {
    if (!expectObject(m, "a map of str to Argument"))
      return false;
    Argument::StringMap map;
    ++depth;
    if (!depthOk()) {
      --depth;
      return false;
    }
    for (auto &e : m.GetObject()) {
      Step s2(*this, str(e.name));
      Argument a;
      if (!readArgument(e.value, a)) {
        --depth;
        return false;
      }
      map.emplace_back(ctx.intern(str(e.name)), std::move(a));
    }
    --depth;
    out = Argument::stringToArgument(std::move(map));
    return true;
  }
  default:
    return fail("unsupported Argument member '" + key + "'");
  }
}

bool Reader::readSymExpr(const JsonValue &v, SymExpr &out) {
  if (v.IsString()) { // Legacy: SymBool.as_expr as a bare string.
    out.exprStr = ctx.intern(str(v));
    return true;
  }
  static const char *const Names[] = {"expr_str", "hint"};
  const JsonValue *slots[2] = {};
  if (!readFields(v, "SymExpr", Names, slots, &out.extras) || !require(slots[0], "expr_str", "SymExpr"))
    return false;
  {
    Step s(*this, "expr_str");
    if (!readString(*slots[0], out.exprStr))
      return false;
  }
  if (!slots[1] || slots[1]->IsNull())
    return true;
  Step s(*this, "hint");
  llvm::StringRef key;
  const JsonValue *m;
  if (!readUnion(*slots[1], "SymExprHint", key, m))
    return false;
  Step s2(*this, key);
  SymExprHint h;
  if (key == "as_int") {
    h.kind = SymExprHint::Kind::Int;
    if (!readInt(*m, h.intValue))
      return false;
  } else if (key == "as_bool") {
    h.kind = SymExprHint::Kind::Bool;
    if (!readBool(*m, h.boolValue))
      return false;
  } else if (key == "as_float") {
    h.kind = SymExprHint::Kind::Float;
    if (!readFloat(*m, h.floatValue))
      return false;
  } else {
    return fail("unknown member '" + key + "' of union SymExprHint");
  }
  out.hint = h;
  return true;
}

bool Reader::readSymValue(const JsonValue &v, ValueTable table, SymValue &out) {
  const char *typeName = table == ValueTable::SymInt    ? "SymInt"
                         : table == ValueTable::SymBool ? "SymBool"
                                                        : "SymFloat";
  if (table == ValueTable::SymInt && v.IsInt64()) { // Legacy plain integer.
    out = SymValue::ofInt(v.GetInt64());
    return true;
  }
  llvm::StringRef key;
  const JsonValue *m;
  if (!readUnion(v, typeName, key, m))
    return false;
  Step s(*this, key);
  if (key == "as_expr") {
    out.kind = SymValue::Kind::Expr;
    return readSymExpr(*m, out.expr);
  }
  if (table == ValueTable::SymInt && key == "as_int") {
    out.kind = SymValue::Kind::Int;
    return readInt(*m, out.intValue);
  }
  if (table == ValueTable::SymBool && key == "as_bool") {
    out.kind = SymValue::Kind::Bool;
    return readBool(*m, out.boolValue);
  }
  if (table == ValueTable::SymFloat && key == "as_float") {
    out.kind = SymValue::Kind::Float;
    return readFloat(*m, out.floatValue);
  }
  return fail("unknown member '" + key + "' of union " + typeName);
}

bool Reader::readTensorMeta(const JsonValue &v, TensorMeta &out) {
  static const char *const Names[] = {"dtype",   "sizes",          "requires_grad", "device",
                                      "strides", "storage_offset", "layout"};
  const JsonValue *slots[7] = {};
  if (!readFields(v, "TensorMeta", Names, slots, &out.extras))
    return false;
  for (int i = 0; i < 7; ++i)
    if (!require(slots[i], Names[i], "TensorMeta"))
      return false;
  auto readSyms = [&](const JsonValue &list, const char *field, std::vector<SymValue> &dst) {
    Step s(*this, field);
    return readList(list, "a list of SymInt", dst,
                    [&](const JsonValue &e, SymValue &sv) { return readSymValue(e, ValueTable::SymInt, sv); });
  };
  {
    Step s(*this, "dtype");
    int64_t dtype;
    if (!readEnum(*slots[0], "ScalarType", isValidScalarType, dtype))
      return false;
    out.dtype = static_cast<ScalarType>(dtype);
  }
  if (!readSyms(*slots[1], "sizes", out.sizes))
    return false;
  {
    Step s(*this, "requires_grad");
    if (!readBool(*slots[2], out.requiresGrad))
      return false;
  }
  {
    Step s(*this, "device");
    if (!readDevice(*slots[3], out.device))
      return false;
  }
  if (!readSyms(*slots[4], "strides", out.strides))
    return false;
  {
    Step s(*this, "storage_offset");
    if (!readSymValue(*slots[5], ValueTable::SymInt, out.storageOffset))
      return false;
  }
  Step s(*this, "layout");
  int64_t layout;
  if (!readEnum(*slots[6], "Layout", isValidLayout, layout))
    return false;
  out.layout = static_cast<Layout>(layout);
  return true;
}

bool Reader::checkOperandsDefined(const Argument &arg, const Graph &g) {
  bool ok = true;
  arg.forEachUse([&](Use *u) {
    if (!ok || arg.getKind() == ArgKind::CustomObj)
      return;
    if (!g.lookupValue(u->getName()))
      ok = fail("use of undefined value '" + u->getName() + "'");
  });
  return ok;
}

/// Where `v` was defined, for "defined twice" messages.
static std::string describeDefinition(const pt2ir::Value &v) {
  if (v.isGraphInput())
    return "a graph input";
  if (const Node *n = v.getDefiningNode())
    return ("node '" + n->getName() + "'").str();
  return "an earlier definition";
}

bool Reader::checkDefinitionsFree(const Argument &arg, const Graph &g) {
  bool ok = true;
  llvm::SmallVector<llvm::StringRef, 4> seen;
  arg.forEachUse([&](Use *u) {
    if (!ok)
      return;
    if (const pt2ir::Value *prev = g.lookupValue(u->getName()))
      ok = fail("value '" + u->getName() + "' is defined twice (first by " +
                describeDefinition(*prev) + ")");
    else if (llvm::is_contained(seen, u->getName()))
      ok = fail("value '" + u->getName() +
                "' is defined twice (first earlier in this argument)");
    seen.push_back(u->getName());
  });
  return ok;
}

/// `#namespace:op` targets must name a registered extension namespace and
/// one of its operators, unless the user asked to keep them opaque.
bool Reader::checkExtensionTarget(llvm::StringRef target) {
  std::string problem = ctx.getRegistry().extensionTargetProblem(target);
  return problem.empty() || fail(problem);
}

bool Reader::readStringPairs(const JsonValue &v, StringPairs &out) {
  if (!expectObject(v, "a map of str to str"))
    return false;
  out.reserve(v.MemberCount());
  for (auto &m : v.GetObject()) {
    Step s(*this, str(m.name));
    llvm::StringRef value;
    if (!readString(m.value, value))
      return false;
    out.emplace_back(ctx.intern(str(m.name)), value);
  }
  return true;
}

bool Reader::readNode(const JsonValue &v, Graph &g, size_t index) {
  static const char *const Names[] = {"target",   "inputs", "outputs",
                                      "metadata", "is_hop_single_tensor_return", "name"};
  const JsonValue *slots[6] = {};
  NodeSpec spec;
  if (!readFields(v, "Node", Names, slots, &spec.extras))
    return false;
  for (int i = 0; i < 4; ++i)
    if (!require(slots[i], Names[i], "Node"))
      return false;
  {
    Step s(*this, "target");
    if (!readString(*slots[0], spec.target) || !checkExtensionTarget(spec.target))
      return false;
  }
  {
    Step s(*this, "inputs");
    if (!expectArray(*slots[1], "a list of NamedArgument"))
      return false;
    spec.inputs.reserve(slots[1]->Size());
    size_t i = 0;
    for (auto &e : slots[1]->GetArray()) {
      Step s2(*this, i++);
      static const char *const ArgNames[] = {"name", "arg", "kind"};
      const JsonValue *as[3] = {};
      NamedArgument na;
      if (!readFields(e, "NamedArgument", ArgNames, as, &na.extras) ||
          !require(as[0], "name", "NamedArgument") || !require(as[1], "arg", "NamedArgument"))
        return false;
      {
        Step s3(*this, "name");
        if (!readString(*as[0], na.name))
          return false;
      }
      {
        Step s3(*this, "arg");
        if (!readArgument(*as[1], na.arg) || !checkOperandsDefined(na.arg, g))
          return false;
      }
      if (as[2] && !as[2]->IsNull()) {
        Step s3(*this, "kind");
        int64_t k;
        if (!readEnum(*as[2], "ArgumentKind", isValidArgumentKind, k))
          return false;
        na.kind = k;
      }
      spec.inputs.push_back(std::move(na));
    }
  }
  {
    Step s(*this, "outputs");
    if (!expectArray(*slots[2], "a list of Argument"))
      return false;
    spec.outputs.reserve(slots[2]->Size());
    size_t i = 0;
    for (auto &e : slots[2]->GetArray()) {
      Step s2(*this, i++);
      Argument a;
      if (!readArgument(e, a) || !checkDefinitionsFree(a, g))
        return false;
      for (size_t j = 0; j < spec.outputs.size(); ++j) {
        llvm::StringRef clash;
        a.forEachUse([&](Use *u) {
          spec.outputs[j].forEachUse([&](Use *p) {
            if (clash.empty() && p->getName() == u->getName())
              clash = u->getName();
          });
        });
        if (!clash.empty())
          return fail("value '" + clash +
                      "' is defined twice (first by outputs[" + llvm::Twine(j) +
                      "] of this node)");
      }
      spec.outputs.push_back(std::move(a));
    }
  }
  {
    Step s(*this, "metadata");
    if (!readStringPairs(*slots[3], spec.metadata))
      return false;
  }
  if (slots[4] && !slots[4]->IsNull()) {
    Step s(*this, "is_hop_single_tensor_return");
    bool b = false;
    if (!readBool(*slots[4], b))
      return false;
    spec.isHopSingleTensorReturn = b;
  }
  if (slots[5] && !slots[5]->IsNull()) {
    Step s(*this, "name");
    llvm::StringRef name;
    if (!readString(*slots[5], name))
      return false;
    spec.name = name;
  }
  auto node = g.appendNode(std::move(spec));
  if (!node)
    return fail(llvm::toString(node.takeError()));
  return true;
}

bool Reader::readValueTable(const JsonValue &v, Graph &g, ValueTable table) {
  const char *what = table == ValueTable::Tensor      ? "a map of str to TensorMeta"
                     : table == ValueTable::CustomObj ? "a map of str to CustomObjArgument"
                                                      : "a map of str to a symbolic value";
  if (!expectObject(v, what))
    return false;
  std::vector<pt2ir::Value *> order;
  order.reserve(v.MemberCount());
  bool sawTableOnly = false;
  for (auto &m : v.GetObject()) {
    llvm::StringRef name = str(m.name);
    Step s(*this, name);
    pt2ir::Value *val = g.lookupValue(name);
    if (!val) {
      ValueType type = table == ValueTable::Tensor      ? ValueType::Tensor
                       : table == ValueTable::SymInt    ? ValueType::SymInt
                       : table == ValueTable::SymBool   ? ValueType::SymBool
                       : table == ValueTable::SymFloat  ? ValueType::SymFloat
                                                        : ValueType::CustomObj;
      val = g.createTableOnlyValue(name, type);
      sawTableOnly = true;
    }
    ValueMeta &md = val->getOrCreateMeta();
    switch (table) {
    case ValueTable::Tensor: {
      if (md.tensor)
        return fail("duplicate entry for value '" + name + "'");
      auto tm = std::make_unique<TensorMeta>();
      if (!readTensorMeta(m.value, *tm))
        return false;
      md.tensor = std::move(tm);
      break;
    }
    case ValueTable::SymInt:
    case ValueTable::SymBool:
    case ValueTable::SymFloat: {
      auto &slot = table == ValueTable::SymInt    ? md.symInt
                   : table == ValueTable::SymBool ? md.symBool
                                                  : md.symFloat;
      if (slot)
        return fail("duplicate entry for value '" + name + "'");
      auto sv = std::make_unique<SymValue>();
      if (!readSymValue(m.value, table, *sv))
        return false;
      slot = std::move(sv);
      break;
    }
    case ValueTable::CustomObj: {
      if (md.hasCustomObj)
        return fail("duplicate entry for value '" + name + "'");
      static const char *const Names[] = {"name", "class_fqn"};
      const JsonValue *slots[2] = {};
      if (!readFields(m.value, "CustomObjArgument", Names, slots, &md.customObjExtras) ||
          !require(slots[0], "name", "CustomObjArgument") ||
          !require(slots[1], "class_fqn", "CustomObjArgument"))
        return false;
      Step s2(*this, "name");
      if (!readString(*slots[0], md.customObjName) || !readString(*slots[1], md.customObjClass))
        return false;
      md.hasCustomObj = true;
      break;
    }
    }
    order.push_back(val);
  }
  std::vector<pt2ir::Value *> natural = g.getTableEntries(table);
  if (sawTableOnly || natural != order)
    g.setExplicitTableOrder(table, std::move(order));
  return true;
}

bool Reader::readGraph(const JsonValue &v, Graph &g) {
  static const char *const Names[] = {"inputs",        "outputs",         "nodes",
                                      "tensor_values", "sym_int_values",  "sym_bool_values",
                                      "is_single_tensor_return", "custom_obj_values",
                                      "sym_float_values"};
  const JsonValue *slots[9] = {};
  if (!readFields(v, "Graph", Names, slots, &g.getExtras()))
    return false;
  for (int i = 0; i < 6; ++i)
    if (!require(slots[i], Names[i], "Graph"))
      return false;
  {
    Step s(*this, "inputs");
    if (!expectArray(*slots[0], "a list of Argument"))
      return false;
    size_t i = 0;
    for (auto &e : slots[0]->GetArray()) {
      Step s2(*this, i++);
      Argument a;
      if (!readArgument(e, a) || !checkDefinitionsFree(a, g))
        return false;
      if (auto err = g.addInput(std::move(a)))
        return fail(llvm::toString(std::move(err)));
    }
  }
  {
    Step s(*this, "nodes");
    if (!expectArray(*slots[2], "a list of Node"))
      return false;
    size_t i = 0;
    for (auto &e : slots[2]->GetArray()) {
      Step s2(*this, i);
      if (!readNode(e, g, i))
        return false;
      ++i;
    }
  }
  {
    Step s(*this, "outputs");
    if (!expectArray(*slots[1], "a list of Argument"))
      return false;
    size_t i = 0;
    for (auto &e : slots[1]->GetArray()) {
      Step s2(*this, i++);
      Argument a;
      if (!readArgument(e, a) || !checkOperandsDefined(a, g))
        return false;
      if (auto err = g.addOutput(std::move(a)))
        return fail(llvm::toString(std::move(err)));
    }
  }
  struct TableSlot {
    int slot;
    ValueTable table;
  };
  static const TableSlot Tables[] = {{3, ValueTable::Tensor},
                                     {4, ValueTable::SymInt},
                                     {5, ValueTable::SymBool},
                                     {7, ValueTable::CustomObj},
                                     {8, ValueTable::SymFloat}};
  for (const TableSlot &t : Tables) {
    if (!slots[t.slot])
      continue;
    Step s(*this, Names[t.slot]);
    if (!readValueTable(*slots[t.slot], g, t.table))
      return false;
  }
  if (slots[6]) {
    Step s(*this, "is_single_tensor_return");
    bool b = false;
    if (!readBool(*slots[6], b))
      return false;
    g.setSingleTensorReturn(b);
  }
  return true;
}

bool Reader::readInputSpec(const JsonValue &v, InputSpec &out) {
  llvm::StringRef key;
  const JsonValue *m;
  if (!readUnion(v, "InputSpec", key, m))
    return false;
  Step s(*this, key);
  static const InputKind Kinds[] = {InputKind::UserInput, InputKind::Parameter,
                                    InputKind::Buffer,    InputKind::TensorConstant,
                                    InputKind::CustomObj, InputKind::Token,
                                    InputKind::ConstantInput};
  bool known = false;
  for (InputKind k : Kinds)
    if (key == inputKindMemberName(k)) {
      out.kind = k;
      known = true;
    }
  if (!known) {
    out.kind = InputKind::Unknown;
    out.unknownKey = key.str();
    return dumpUnknown(*m, out.unknownJson);
  }
  switch (out.kind) {
  case InputKind::UserInput: {
    static const char *const Names[] = {"arg"};
    const JsonValue *slots[1] = {};
    if (!readFields(*m, "UserInputSpec", Names, slots, &out.extras) || !require(slots[0], "arg", "UserInputSpec"))
      return false;
    Step s2(*this, "arg");
    return readArgument(*slots[0], out.arg);
  }
  case InputKind::ConstantInput: {
    static const char *const Names[] = {"name", "value"};
    const JsonValue *slots[2] = {};
    if (!readFields(*m, "InputToConstantInputSpec", Names, slots, &out.extras) ||
        !require(slots[0], "name", "InputToConstantInputSpec") ||
        !require(slots[1], "value", "InputToConstantInputSpec"))
      return false;
    {
      Step s2(*this, "name");
      if (!readString(*slots[0], out.target))
        return false;
    }
    Step s2(*this, "value");
    llvm::StringRef ck;
    const JsonValue *cm;
    if (!readUnion(*slots[1], "ConstantValue", ck, cm))
      return false;
    Step s3(*this, ck);
    if (ck == "as_none") {
      out.arg = Argument::none();
      return true;
    }
    if (ck == "as_int") {
      int64_t i;
      if (!readInt(*cm, i))
        return false;
      out.arg = Argument::integer(i);
      return true;
    }
    if (ck == "as_float") {
      double f;
      if (!readFloat(*cm, f))
        return false;
      out.arg = Argument::floating(f);
      return true;
    }
    if (ck == "as_string") {
      llvm::StringRef sv;
      if (!readString(*cm, sv))
        return false;
      out.arg = Argument::string(sv);
      return true;
    }
    if (ck == "as_bool") {
      bool b = false;
      if (!readBool(*cm, b))
        return false;
      out.arg = Argument::boolean(b);
      return true;
    }
    return fail("unknown member '" + ck + "' of union ConstantValue");
  }
  default:
    break;
  }
  // The remaining kinds: {arg, <target field>[, persistent]}.
  llvm::StringRef targetField = inputKindTargetField(out.kind);
  const char *typeName = out.kind == InputKind::Parameter        ? "InputToParameterSpec"
                         : out.kind == InputKind::Buffer         ? "InputToBufferSpec"
                         : out.kind == InputKind::TensorConstant ? "InputToTensorConstantSpec"
                         : out.kind == InputKind::CustomObj      ? "InputToCustomObjSpec"
                                                                 : "InputTokenSpec";
  std::string target = targetField.str();
  const char *names[3] = {"arg", target.c_str(), "persistent"};
  size_t count = out.kind == InputKind::Token ? 1 : out.kind == InputKind::Buffer ? 3 : 2;
  const JsonValue *slots[3] = {};
  if (!readFields(*m, typeName, llvm::ArrayRef<const char *>(names, count), slots, &out.extras))
    return false;
  for (size_t i = 0; i < count; ++i)
    if (!require(slots[i], names[i], typeName))
      return false;
  {
    Step s2(*this, "arg");
    if (out.kind == InputKind::CustomObj) {
      static const char *const Names[] = {"name", "class_fqn"};
      const JsonValue *cs[2] = {};
      ExtraFields extras;
      if (!readFields(*slots[0], "CustomObjArgument", Names, cs, &extras) ||
          !require(cs[0], "name", "CustomObjArgument") || !require(cs[1], "class_fqn", "CustomObjArgument"))
        return false;
      llvm::StringRef name, cls;
      if (!readString(*cs[0], name) || !readString(*cs[1], cls))
        return false;
      out.arg = Argument::customObj(ctx, name, cls);
      attachExtras(out.arg.getCustomObj().ref, extras);
    } else {
      llvm::StringRef name;
      ExtraFields extras;
      if (!readTensorArgument(*slots[0], out.kind == InputKind::Token ? "TokenArgument" : "TensorArgument", name,
                              extras))
        return false;
      out.arg = out.kind == InputKind::Token ? Argument::token(ctx, name) : Argument::tensor(ctx, name);
      attachExtras(out.arg.getRef(), extras);
    }
  }
  if (count >= 2) {
    Step s2(*this, target);
    if (!readString(*slots[1], out.target))
      return false;
  }
  if (count == 3) {
    Step s2(*this, "persistent");
    if (!readBool(*slots[2], out.persistent))
      return false;
  }
  return true;
}

bool Reader::readOutputSpec(const JsonValue &v, OutputSpec &out) {
  llvm::StringRef key;
  const JsonValue *m;
  if (!readUnion(v, "OutputSpec", key, m))
    return false;
  Step s(*this, key);
  static const OutputKind Kinds[] = {
      OutputKind::UserOutput,          OutputKind::LossOutput,
      OutputKind::BufferMutation,      OutputKind::GradientToParameter,
      OutputKind::GradientToUserInput, OutputKind::UserInputMutation,
      OutputKind::Token,               OutputKind::ParameterMutation};
  static const char *const TypeNames[] = {
      "UserOutputSpec",          "LossOutputSpec",          "BufferMutationSpec",
      "GradientToParameterSpec", "GradientToUserInputSpec", "UserInputMutationSpec",
      "OutputTokenSpec",         "ParameterMutationSpec"};
  int idx = -1;
  for (int i = 0; i < 8; ++i)
    if (key == outputKindMemberName(Kinds[i]))
      idx = i;
  if (idx < 0) {
    out.kind = OutputKind::Unknown;
    out.unknownKey = key.str();
    return dumpUnknown(*m, out.unknownJson);
  }
  out.kind = Kinds[idx];
  const char *typeName = TypeNames[idx];
  std::string target = outputKindTargetField(out.kind).str();
  const char *names[2] = {"arg", target.c_str()};
  size_t count = target.empty() ? 1 : 2;
  const JsonValue *slots[2] = {};
  if (!readFields(*m, typeName, llvm::ArrayRef<const char *>(names, count), slots, &out.extras))
    return false;
  for (size_t i = 0; i < count; ++i)
    if (!require(slots[i], names[i], typeName))
      return false;
  {
    Step s2(*this, "arg");
    if (out.kind == OutputKind::UserOutput) {
      if (!readArgument(*slots[0], out.arg))
        return false;
    } else {
      llvm::StringRef name;
      ExtraFields extras;
      bool isToken = out.kind == OutputKind::Token;
      if (!readTensorArgument(*slots[0], isToken ? "TokenArgument" : "TensorArgument", name, extras))
        return false;
      out.arg = isToken ? Argument::token(ctx, name) : Argument::tensor(ctx, name);
      attachExtras(out.arg.getRef(), extras);
    }
  }
  if (count == 2) {
    Step s2(*this, target);
    if (!readString(*slots[1], out.target))
      return false;
  }
  return true;
}

bool Reader::readSignature(const JsonValue &v, GraphSignature &out) {
  static const char *const Names[] = {"input_specs", "output_specs"};
  const JsonValue *slots[2] = {};
  if (!readFields(v, "GraphSignature", Names, slots, &out.extras) ||
      !require(slots[0], "input_specs", "GraphSignature") ||
      !require(slots[1], "output_specs", "GraphSignature"))
    return false;
  {
    Step s(*this, "input_specs");
    if (!readList(*slots[0], "a list of InputSpec", out.inputSpecs,
                  [&](const JsonValue &e, InputSpec &spec) { return readInputSpec(e, spec); }))
      return false;
  }
  Step s(*this, "output_specs");
  return readList(*slots[1], "a list of OutputSpec", out.outputSpecs,
                  [&](const JsonValue &e, OutputSpec &spec) { return readOutputSpec(e, spec); });
}

bool Reader::readModuleCallEntry(const JsonValue &v, ModuleCallEntry &out) {
  static const char *const Names[] = {"fqn", "signature"};
  const JsonValue *slots[2] = {};
  if (!readFields(v, "ModuleCallEntry", Names, slots, &out.extras) || !require(slots[0], "fqn", "ModuleCallEntry"))
    return false;
  {
    Step s(*this, "fqn");
    if (!readString(*slots[0], out.fqn))
      return false;
  }
  if (!slots[1] || slots[1]->IsNull())
    return true;
  Step s(*this, "signature");
  static const char *const SigNames[] = {"inputs", "outputs", "in_spec", "out_spec", "forward_arg_names"};
  const JsonValue *ss[5] = {};
  ModuleCallSignature sig;
  if (!readFields(*slots[1], "ModuleCallSignature", SigNames, ss, &sig.extras))
    return false;
  for (int i = 0; i < 4; ++i)
    if (!require(ss[i], SigNames[i], "ModuleCallSignature"))
      return false;
  auto readArgs = [&](const JsonValue &list, const char *field, std::vector<Argument> &dst) {
    Step s2(*this, field);
    return readList(list, "a list of Argument", dst, [&](const JsonValue &e, Argument &a) { return readArgument(e, a); });
  };
  if (!readArgs(*ss[0], "inputs", sig.inputs) || !readArgs(*ss[1], "outputs", sig.outputs))
    return false;
  {
    Step s2(*this, "in_spec");
    if (!readStdString(*ss[2], sig.inSpec))
      return false;
  }
  {
    Step s2(*this, "out_spec");
    if (!readStdString(*ss[3], sig.outSpec))
      return false;
  }
  if (ss[4] && !ss[4]->IsNull()) {
    Step s2(*this, "forward_arg_names");
    std::vector<llvm::StringRef> names;
    if (!readList(*ss[4], "a list of str", names, [&](const JsonValue &e, llvm::StringRef &n) { return readString(e, n); }))
      return false;
    sig.forwardArgNames = std::move(names);
  }
  out.signature = std::move(sig);
  return true;
}

bool Reader::readGraphModule(const JsonValue &v, GraphModule &out) {
  static const char *const Names[] = {"graph", "signature", "module_call_graph", "metadata",
                                      "treespec_namedtuple_fields"};
  const JsonValue *slots[5] = {};
  if (!readFields(v, "GraphModule", Names, slots, &out.extras))
    return false;
  for (int i = 0; i < 3; ++i)
    if (!require(slots[i], Names[i], "GraphModule"))
      return false;
  {
    Step s(*this, "graph");
    if (!readGraph(*slots[0], *out.graph))
      return false;
  }
  {
    Step s(*this, "signature");
    if (!readSignature(*slots[1], out.signature))
      return false;
  }
  {
    Step s(*this, "module_call_graph");
    if (!readList(*slots[2], "a list of ModuleCallEntry", out.moduleCallGraph,
                  [&](const JsonValue &e, ModuleCallEntry &entry) { return readModuleCallEntry(e, entry); }))
      return false;
  }
  if (slots[3]) {
    Step s(*this, "metadata");
    if (!readStringPairs(*slots[3], out.metadata))
      return false;
  }
  if (slots[4]) {
    Step s(*this, "treespec_namedtuple_fields");
    if (!expectObject(*slots[4], "a map of str to NamedTupleDef"))
      return false;
    for (auto &m : slots[4]->GetObject()) {
      Step s2(*this, str(m.name));
      static const char *const NtNames[] = {"field_names"};
      const JsonValue *ns[1] = {};
      NamedTupleDef def;
      if (!readFields(m.value, "NamedTupleDef", NtNames, ns, &def.extras) ||
          !require(ns[0], "field_names", "NamedTupleDef"))
        return false;
      Step s3(*this, "field_names");
      if (!readList(*ns[0], "a list of str", def.fieldNames,
                    [&](const JsonValue &e, llvm::StringRef &n) { return readString(e, n); }))
        return false;
      out.treespecNamedtupleFields.emplace_back(ctx.intern(str(m.name)), std::move(def));
    }
  }
  return true;
}

bool Reader::readRangeConstraintEnd(const JsonValue &v, std::optional<int64_t> &out) {
  if (v.IsNull())
    return true;
  // Old files wrote math.inf bounds; they mean unbounded.
  if ((v.IsDouble() && std::isinf(v.GetDouble())) ||
      (v.IsString() && (str(v) == "Infinity" || str(v) == "-Infinity")))
    return true;
  int64_t i;
  if (!readInt(v, i))
    return false;
  out = i;
  return true;
}

bool Reader::readProgram(const JsonValue &root, ExportedProgram &ep) {
  static const char *const Names[] = {"graph_module",   "opset_version", "range_constraints",
                                      "schema_version", "verifiers",     "torch_version",
                                      "guards_code",    "dialect"};
  const JsonValue *slots[8] = {};
  if (!readFields(root, "ExportedProgram", Names, slots, &ep.extras))
    return false;
  // The version decides how the rest is read, so it is checked first.
  if (!require(slots[3], "schema_version", "ExportedProgram"))
    return false;
  {
    Step s(*this, "schema_version");
    static const char *const VNames[] = {"major", "minor"};
    const JsonValue *vs[2] = {};
    if (!readFields(*slots[3], "SchemaVersion", VNames, vs, &ep.schemaVersion.extras) ||
        !require(vs[0], "major", "SchemaVersion") || !require(vs[1], "minor", "SchemaVersion"))
      return false;
    {
      Step s2(*this, "minor");
      if (!readInt(*vs[1], ep.schemaVersion.minor))
        return false;
    }
    Step s2(*this, "major");
    if (!readInt(*vs[0], ep.schemaVersion.major))
      return false;
    if (ep.schemaVersion.major != SchemaMajor)
      return fail(
          "unsupported schema version " + llvm::Twine(ep.schemaVersion.major) +
          "." + llvm::Twine(ep.schemaVersion.minor) +
          ": this build reads schema major " + llvm::Twine(SchemaMajor) +
          " (it writes " + llvm::Twine(SchemaMajor) + "." +
          llvm::Twine(SchemaMinor) + ")");
  }
  for (int i : {0, 1, 2})
    if (!require(slots[i], Names[i], "ExportedProgram"))
      return false;
  {
    Step s(*this, "graph_module");
    if (!readGraphModule(*slots[0], ep.graphModule))
      return false;
  }
  {
    Step s(*this, "opset_version");
    if (!expectObject(*slots[1], "a map of str to int"))
      return false;
    for (auto &m : slots[1]->GetObject()) {
      Step s2(*this, str(m.name));
      int64_t i;
      if (!readInt(m.value, i))
        return false;
      ep.opsetVersion.emplace_back(ctx.intern(str(m.name)), i);
    }
  }
  {
    Step s(*this, "range_constraints");
    if (!expectObject(*slots[2], "a map of str to RangeConstraint"))
      return false;
    for (auto &m : slots[2]->GetObject()) {
      Step s2(*this, str(m.name));
      static const char *const RNames[] = {"min_val", "max_val"};
      const JsonValue *rs[2] = {};
      RangeConstraint rc;
      if (!readFields(m.value, "RangeConstraint", RNames, rs, &rc.extras) ||
          !require(rs[0], "min_val", "RangeConstraint") || !require(rs[1], "max_val", "RangeConstraint"))
        return false;
      {
        Step s3(*this, "min_val");
        if (!readRangeConstraintEnd(*rs[0], rc.minVal))
          return false;
      }
      Step s3(*this, "max_val");
      if (!readRangeConstraintEnd(*rs[1], rc.maxVal))
        return false;
      ep.rangeConstraints.emplace_back(ctx.intern(str(m.name)), std::move(rc));
    }
  }
  if (slots[4]) {
    Step s(*this, "verifiers");
    if (!readList(*slots[4], "a list of str", ep.verifiers,
                  [&](const JsonValue &e, llvm::StringRef &n) { return readString(e, n); }))
      return false;
  } else if (slots[7] && !slots[7]->IsNull()) { // Legacy `dialect`.
    Step s(*this, "dialect");
    llvm::StringRef d;
    if (!readString(*slots[7], d))
      return false;
    ep.verifiers.push_back(d);
  }
  if (slots[5]) {
    Step s(*this, "torch_version");
    if (!readStdString(*slots[5], ep.torchVersion))
      return false;
  }
  if (slots[6]) {
    Step s(*this, "guards_code");
    if (!readList(*slots[6], "a list of str", ep.guardsCode,
                  [&](const JsonValue &e, std::string &n) { return readStdString(e, n); }))
      return false;
  }
  return true;
}

/// Line and column (1-based) of byte `offset` in `text`.
std::pair<size_t, size_t> lineAndColumn(llvm::StringRef text, size_t offset) {
  offset = std::min(offset, text.size());
  llvm::StringRef before = text.take_front(offset);
  size_t line = before.count('\n') + 1;
  size_t lastNl = before.rfind('\n');
  size_t col = lastNl == llvm::StringRef::npos ? offset + 1 : offset - lastNl;
  return {line, col};
}

/// A RapidJSON value as an llvm::json value (for upgraders).
static llvm::json::Value toLLVMJson(const rapidjson::Value &v) {
  switch (v.GetType()) {
  case rapidjson::kNullType:
    return nullptr;
  case rapidjson::kFalseType:
    return false;
  case rapidjson::kTrueType:
    return true;
  case rapidjson::kStringType:
    return std::string(v.GetString(), v.GetStringLength());
  case rapidjson::kNumberType:
    if (v.IsInt64())
      return v.GetInt64();
    if (v.IsUint64())
      return v.GetUint64();
    return v.GetDouble();
  case rapidjson::kArrayType: {
    llvm::json::Array a;
    for (const auto &e : v.GetArray())
      a.push_back(toLLVMJson(e));
    return a;
  }
  case rapidjson::kObjectType: {
    llvm::json::Object o;
    for (const auto &m : v.GetObject())
      o[std::string(m.name.GetString(), m.name.GetStringLength())] = toLLVMJson(m.value);
    return o;
  }
  }
  return nullptr;
}

/// The inverse of toLLVMJson, allocating from `alloc`.
static rapidjson::Value fromLLVMJson(const llvm::json::Value &v,
                                     rapidjson::Document::AllocatorType &alloc) {
  switch (v.kind()) {
  case llvm::json::Value::Null:
    return rapidjson::Value();
  case llvm::json::Value::Boolean:
    return rapidjson::Value(*v.getAsBoolean());
  case llvm::json::Value::Number:
    if (std::optional<int64_t> i = v.getAsInteger())
      return rapidjson::Value(*i);
    if (std::optional<uint64_t> u = v.getAsUINT64())
      return rapidjson::Value(*u);
    return rapidjson::Value(*v.getAsNumber());
  case llvm::json::Value::String: {
    llvm::StringRef s = *v.getAsString();
    return rapidjson::Value(s.data(), static_cast<rapidjson::SizeType>(s.size()), alloc);
  }
  case llvm::json::Value::Array: {
    rapidjson::Value a(rapidjson::kArrayType);
    for (const llvm::json::Value &e : *v.getAsArray())
      a.PushBack(fromLLVMJson(e, alloc), alloc);
    return a;
  }
  case llvm::json::Value::Object: {
    rapidjson::Value o(rapidjson::kObjectType);
    for (const auto &kv : *v.getAsObject()) {
      llvm::StringRef key = kv.first;
      o.AddMember(rapidjson::Value(key.data(), static_cast<rapidjson::SizeType>(key.size()), alloc),
                  fromLLVMJson(kv.second, alloc), alloc);
    }
    return o;
  }
  }
  return rapidjson::Value();
}

/// Applies the upgraders registered for `major`, deepest key path first.
llvm::Error applyUpgraders(rapidjson::Document &doc, int64_t major,
                           const std::vector<SchemaUpgrader> &upgraders) {
  std::vector<const SchemaUpgrader *> todo;
  for (const SchemaUpgrader &u : upgraders)
    if (u.fromMajor == major)
      todo.push_back(&u);
  std::stable_sort(todo.begin(), todo.end(), [](const SchemaUpgrader *a, const SchemaUpgrader *b) {
    return llvm::StringRef(a->keyPath).count('.') > llvm::StringRef(b->keyPath).count('.');
  });
  for (const SchemaUpgrader *u : todo) {
    llvm::SmallVector<llvm::StringRef, 8> parts;
    llvm::StringRef(u->keyPath).split(parts, '.', -1, false);
    std::vector<rapidjson::Value *> current{&doc};
    for (llvm::StringRef part : parts) {
      bool each = part.consume_back("[]");
      std::vector<rapidjson::Value *> next;
      for (rapidjson::Value *v : current) {
        if (!v->IsObject())
          continue;
        // A Value key: the `const Ch *` overload would read past `part`.
        rapidjson::Value key(rapidjson::StringRef(part.data(), part.size()));
        auto it = v->FindMember(key);
        if (it == v->MemberEnd())
          continue;
        if (!each) {
          next.push_back(&it->value);
        } else if (it->value.IsArray()) {
          for (auto &e : it->value.GetArray())
            next.push_back(&e);
        }
      }
      current = std::move(next);
    }
    for (rapidjson::Value *v : current) {
      llvm::json::Value value = toLLVMJson(*v);
      if (auto err = u->fn(value))
        return err;
      *v = fromLLVMJson(value, doc.GetAllocator());
    }
  }
  if (!todo.empty() && doc.IsObject()) {
    auto it = doc.FindMember("schema_version");
    if (it != doc.MemberEnd() && it->value.IsObject()) {
      it->value.RemoveAllMembers();
      it->value.AddMember("major", SchemaMajor, doc.GetAllocator());
      it->value.AddMember("minor", 0, doc.GetAllocator());
    }
  }
  return llvm::Error::success();
}

int64_t peekMajor(const rapidjson::Document &doc) {
  if (!doc.IsObject())
    return SchemaMajor;
  auto it = doc.FindMember("schema_version");
  if (it == doc.MemberEnd() || !it->value.IsObject())
    return SchemaMajor;
  auto m = it->value.FindMember("major");
  if (m == it->value.MemberEnd() || !m->value.IsInt64())
    return SchemaMajor;
  return m->value.GetInt64();
}

/// NUL bytes after the input, enough for the longest UTF-8 sequence.
constexpr size_t JsonPadding = 4;

} // namespace

llvm::Expected<ExportedProgram> readProgram(llvm::StringRef json, const ReadOptions &options) {
  if (options.useStreamingReader)
    if (std::optional<ExportedProgram> ep = readProgramStreaming(json, options))
      return std::move(*ep);
  // In-situ parsing needs a writable, NUL-terminated copy. RapidJSON's UTF-8
  // validation takes a lead byte's continuation bytes without looking for
  // the end, so a lead byte last in the input reads (and, in situ, writes)
  // up to three bytes past it: pad with NULs, which end such a sequence as
  // invalid UTF-8.
  std::string buffer;
  buffer.reserve(json.size() + JsonPadding);
  buffer.append(json.data(), json.size());
  buffer.append(JsonPadding, '\0');
  rapidjson::Document doc;
  constexpr unsigned Flags = rapidjson::kParseInsituFlag | rapidjson::kParseValidateEncodingFlag |
                             rapidjson::kParseIterativeFlag;
  // Without kParseStopWhenDoneFlag, anything but whitespace after the
  // document is an error. Numbers are converted by json/JsonNumbers.h.
  rapidjson::InsituStringStream stream(buffer.data());
  std::string numberError;
  rapidjson::ParseResult parsed = pt2ir::json::parseDocument<Flags>(stream, doc, numberError);
  if (parsed.IsError()) {
    size_t offset = parsed.Offset();
    auto [line, col] = lineAndColumn(json, offset);
    if (!numberError.empty())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "%s:%zu:%zu: error: invalid JSON: %s",
                                     options.fileName.c_str(), line, col, numberError.c_str());
    bool endsEarly = offset >= json.size() && !json.trim().empty();
    bool atNul = offset < json.size() && json[offset] == '\0';
    bool loneSurrogate = parsed.Code() ==
                         rapidjson::kParseErrorStringUnicodeSurrogateInvalid;
    const char *hint =
        endsEarly ? " (the input ends early: is it truncated?)"
        : atNul   ? " (at a NUL byte, which JSON text cannot contain)"
        : loneSurrogate
            ? " (a lone high surrogate: a \\uD800-\\uDBFF escape not "
              "followed by a \\uDC00-\\uDFFF escape; Python's json module "
              "writes these for strings that are not valid Unicode, pt2ir "
              "cannot read them)"
            : "";
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(), "%s:%zu:%zu: error: invalid JSON: %s%s",
        options.fileName.c_str(), line, col,
        rapidjson::GetParseError_En(parsed.Code()), hint);
  }
  // In-situ parsing ends at a NUL byte. One inside the document fails above;
  // one after it would silently drop the rest of the input.
  if (size_t nul = json.find('\0'); nul != llvm::StringRef::npos) {
    auto [line, col] = lineAndColumn(json, nul);
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "%s:%zu:%zu: error: invalid JSON: a NUL byte after the document (JSON "
        "text cannot contain NUL bytes)",
        options.fileName.c_str(), line, col);
  }
  int64_t major = peekMajor(doc);
  if (major != SchemaMajor) {
    if (auto err = applyUpgraders(doc, major, options.upgraders))
      return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: error: upgrader failed: %s",
                                     options.fileName.c_str(), llvm::toString(std::move(err)).c_str());
  }
  ExportedProgram ep(options.registry);
  Reader reader(ep.getContext(), options);
  if (!reader.readProgram(doc, ep))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), reader.takeError());
  return ep;
}

llvm::Expected<ExportedProgram> readProgramFile(llvm::StringRef path, ReadOptions options) {
  if (options.fileName == "<input>")
    options.fileName = path == "-" ? "<stdin>" : path.str();
  auto buffer = path == "-" ? llvm::MemoryBuffer::getSTDIN() : llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                                                                             /*RequiresNullTerminator=*/false);
  if (!buffer)
    return llvm::createStringError(buffer.getError(), "%s: error: cannot read file: %s",
                                   options.fileName.c_str(), buffer.getError().message().c_str());
  return readProgram((*buffer)->getBuffer(), options);
}

} // namespace pt2ir
