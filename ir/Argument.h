//===- Argument.h - The schema's Argument union -------------------*- C++ -*-===//
//
// An Argument holds exactly one member of the schema's `Argument` union
// (as_none, as_tensor, ..., as_float_lists). Members that name values
// (tensors, sym ints/bools/floats, custom objects) hold Use slots, which are
// operands in input position and definitions in output position.
//
// Arguments own their Use slots and their subgraphs, so they are move-only;
// clone() makes a deep copy.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_IR_ARGUMENT_H
#define PT2IR_IR_ARGUMENT_H

#include "pt2ir/ir/ExtraFields.h"
#include "pt2ir/ir/TensorMeta.h"
#include "pt2ir/ir/Value.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <cassert>
#include <cstdint>
#include <optional>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace pt2ir {

class Graph;
class IRContext;

/// The members of the Argument union, in schema declaration order, followed
/// by kinds that only pt2ir uses.
enum class ArgKind : uint8_t {
  None,
  Tensor,
  Tensors,
  Int,
  Ints,
  Float,
  Floats,
  String,
  Strings,
  SymInt,
  SymInts,
  ScalarType,
  MemoryFormat,
  Layout,
  Device,
  Bool,
  Bools,
  SymBool,
  SymBools,
  Graph,
  OptionalTensors,
  CustomObj,
  Operator,
  SymFloat,
  SymFloats,
  OptionalTensor,
  Complex,
  NestedTensors,
  IntLists,
  StringToArgument,
  FloatLists,
  /// A TokenArgument ({"name": ...}), used by token input/output specs.
  Token,
  /// A union member this build does not know (newer schema minor); kept as text.
  Unknown,
};

constexpr unsigned NumSchemaArgKinds = static_cast<unsigned>(ArgKind::Token);

/// The JSON member name of `k` (`as_tensor`), or a description for internal kinds.
llvm::StringRef argKindMemberName(ArgKind k);
/// Parses a JSON member name; returns false if unknown.
bool argKindFromMemberName(llvm::StringRef name, ArgKind &k);

/// The type of the values that slots of member `k` name (as_tensor and the
/// tensor lists: Tensor; as_sym_int(s): SymInt; ...; as_custom_obj: CustomObj).
ValueType valueTypeOfArgKind(ArgKind k);

/// One element of as_sym_ints / as_sym_bools / as_sym_floats (and the single
/// forms): a named symbolic value or a constant.
struct SymArg {
  Use *ref = nullptr;
  int64_t intValue = 0;
  double floatValue = 0;
  bool boolValue = false;
  bool isRef() const { return ref != nullptr; }
};

/// The Argument union.
class Argument {
public:
  struct GraphArg {
    llvm::StringRef name;
    std::unique_ptr<Graph> graph;
    /// Unknown JSON keys of the GraphArgument object.
    ExtraFields extras;
    GraphArg(llvm::StringRef name, std::unique_ptr<Graph> graph);
    GraphArg(GraphArg &&) noexcept;
    GraphArg &operator=(GraphArg &&) noexcept;
    ~GraphArg(); // Out of line: Graph is incomplete here.
  };
  struct CustomObjArg {
    Use *ref = nullptr;
    llvm::StringRef classFqn;
  };
  struct Complex {
    double real = 0, imag = 0;
    /// Unknown JSON keys of the ComplexValue object.
    ExtraFields extras;
  };
  struct UnknownMember {
    std::string key;
    std::string json;
  };
  using StringMap = std::vector<std::pair<llvm::StringRef, Argument>>;

  Argument() = default; // as_none
  Argument(Argument &&other) noexcept;
  Argument &operator=(Argument &&other) noexcept;
  Argument(const Argument &) = delete;
  Argument &operator=(const Argument &) = delete;
  ~Argument();

  ArgKind getKind() const { return kind; }
  bool isNone() const { return kind == ArgKind::None; }

  //===--- Construction (value slots start detached, holding a name) ---===//
  static Argument none() { return Argument(); }
  static Argument tensor(IRContext &ctx, llvm::StringRef name);
  static Argument tensors(IRContext &ctx, llvm::ArrayRef<llvm::StringRef> names);
  static Argument optionalTensor(IRContext &ctx, std::optional<llvm::StringRef> name);
  static Argument optionalTensors(IRContext &ctx,
                                  llvm::ArrayRef<std::optional<llvm::StringRef>> names);
  static Argument nestedTensors(IRContext &ctx,
                                llvm::ArrayRef<std::vector<llvm::StringRef>> names);
  static Argument token(IRContext &ctx, llvm::StringRef name);
  static Argument integer(int64_t v) { return Argument(ArgKind::Int, v); }
  static Argument ints(std::vector<int64_t> v) { return Argument(ArgKind::Ints, std::move(v)); }
  static Argument floating(double v) { return Argument(ArgKind::Float, v); }
  static Argument floats(std::vector<double> v) { return Argument(ArgKind::Floats, std::move(v)); }
  static Argument string(llvm::StringRef s) { return Argument(ArgKind::String, s); }
  static Argument strings(std::vector<llvm::StringRef> s) { return Argument(ArgKind::Strings, std::move(s)); }
  static Argument boolean(bool b) { return Argument(ArgKind::Bool, b); }
  static Argument bools(std::vector<bool> b) { return Argument(ArgKind::Bools, std::move(b)); }
  static Argument scalarType(int64_t v) { return Argument(ArgKind::ScalarType, v); }
  static Argument memoryFormat(int64_t v) { return Argument(ArgKind::MemoryFormat, v); }
  static Argument layout(int64_t v) { return Argument(ArgKind::Layout, v); }
  static Argument device(Device d) { return Argument(ArgKind::Device, std::move(d)); }
  static Argument operatorRef(llvm::StringRef s) { return Argument(ArgKind::Operator, s); }
  static Argument complex(double re, double im, ExtraFields extras = {}) {
    return Argument(ArgKind::Complex, Complex{re, im, std::move(extras)});
  }
  static Argument intLists(std::vector<std::vector<int64_t>> v) { return Argument(ArgKind::IntLists, std::move(v)); }
  static Argument floatLists(std::vector<std::vector<double>> v) { return Argument(ArgKind::FloatLists, std::move(v)); }
  /// A single sym member (kind is SymInt, SymBool or SymFloat).
  static Argument sym(ArgKind kind, SymArg a);
  /// A list sym member (kind is SymInts, SymBools or SymFloats).
  static Argument symList(ArgKind kind, std::vector<SymArg> a);
  static SymArg symRef(IRContext &ctx, llvm::StringRef name);
  static Argument graph(llvm::StringRef name, std::unique_ptr<Graph> g);
  static Argument customObj(IRContext &ctx, llvm::StringRef name, llvm::StringRef classFqn);
  static Argument stringToArgument(StringMap m);
  static Argument unknown(std::string key, std::string json);

  //===--- Unchecked accessors ---===//
  // Each asserts that the argument holds the matching kind (the comment
  // names the kinds); with assertions off a wrong guess is undefined
  // behaviour. Check getKind() first, or use the getIf* accessors below.
  Use *getRef() const; // Tensor, OptionalTensor (null = None), Token, CustomObj
  const std::vector<Use *> &getRefs() const; // Tensors, OptionalTensors
  const std::vector<std::vector<Use *>> &getNestedRefs() const;
  int64_t getInt() const; // Int, ScalarType, MemoryFormat, Layout
  double getFloat() const;
  bool getBool() const;
  llvm::StringRef getString() const; // String, Operator
  const std::vector<int64_t> &getInts() const;
  const std::vector<double> &getFloats() const;
  const std::vector<llvm::StringRef> &getStrings() const;
  const std::vector<bool> &getBools() const;
  const SymArg &getSym() const;
  const std::vector<SymArg> &getSymList() const;
  const Device &getDevice() const;
  const GraphArg &getGraphArg() const;
  GraphArg &getGraphArg();
  const CustomObjArg &getCustomObj() const;
  Complex getComplex() const;
  const std::vector<std::vector<int64_t>> &getIntLists() const;
  const std::vector<std::vector<double>> &getFloatLists() const;
  const StringMap &getStringMap() const;
  StringMap &getStringMap();
  const UnknownMember &getUnknown() const;

  //===--- Checked accessors: nullopt / null when the kind differs ---===//
  std::optional<int64_t> getIfInt() const; // Int, ScalarType, MemoryFormat, Layout
  std::optional<double> getIfFloat() const;
  std::optional<bool> getIfBool() const;
  std::optional<llvm::StringRef> getIfString() const; // String, Operator
  const std::vector<int64_t> *getIfInts() const;
  const std::vector<double> *getIfFloats() const;
  const std::vector<bool> *getIfBools() const;
  const std::vector<llvm::StringRef> *getIfStrings() const;
  const std::vector<Use *> *getIfRefs() const; // Tensors, OptionalTensors
  const SymArg *getIfSym() const;              // SymInt, SymBool, SymFloat
  const std::vector<SymArg> *getIfSymList() const;
  const Device *getIfDevice() const;
  const GraphArg *getIfGraphArg() const;
  const CustomObjArg *getIfCustomObj() const;
  const StringMap *getIfStringMap() const;

  /// Calls `fn` on every value slot, including those nested in
  /// as_string_to_argument, but not those inside subgraphs.
  void forEachUse(llvm::function_ref<void(Use *)> fn) const;
  /// True if any slot refers to `v`.
  bool refersTo(const Value *v) const;
  /// The single value this argument names (as_tensor, as_sym_*, as_custom_obj,
  /// a present as_optional_tensor); null otherwise.
  Value *getSingleValue() const;

  /// Deep copy. Value slots of the copy are detached and keep the names; the
  /// caller attaches them (Graph::addNode does).
  Argument clone(IRContext &ctx) const;

private:
  template <typename T>
  Argument(ArgKind k, T v) : kind(k), payload(std::move(v)) {}

  /// The payload as a `T`: asserts that it is one.
  template <typename T> const T &payloadAs() const {
    const T *p = std::get_if<T>(&payload);
    assert(p && "Argument accessor does not match the argument's kind");
    return *p;
  }
  template <typename T> T &payloadAs() {
    T *p = std::get_if<T>(&payload);
    assert(p && "Argument accessor does not match the argument's kind");
    return *p;
  }

  void releaseUses();

  ArgKind kind = ArgKind::None;
  std::variant<std::monostate, Use *, std::vector<Use *>,
               std::vector<std::vector<Use *>>, int64_t, double, bool,
               llvm::StringRef, std::vector<int64_t>, std::vector<double>,
               std::vector<llvm::StringRef>, std::vector<bool>, SymArg,
               std::vector<SymArg>, Device, GraphArg, CustomObjArg, Complex,
               std::vector<std::vector<int64_t>>,
               std::vector<std::vector<double>>, std::unique_ptr<StringMap>,
               std::unique_ptr<UnknownMember>>
      payload;
};

} // namespace pt2ir

#endif
