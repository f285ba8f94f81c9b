//===- OperatorRegistryTest.cpp - Tests for OperatorRegistry --------------===//
//
// Covers the built-in aten table (size, tags, autogen variants), lookup by
// qualified name and by serialized target, custom schema registration and
// its errors, extension handlers (`#ns:op` targets) and their errors, and
// concurrent use of separate registries.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/ir/OperatorRegistry.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <chrono>
#include <ctime>
#include <set>
#include <thread>

using namespace pt2ir;

namespace {

/// Returns the message of \p E, or "" for success.
std::string errorText(llvm::Error E) {
  return E ? llvm::toString(std::move(E)) : std::string();
}

/// Returns the CPU time this thread has used, in milliseconds (wall-clock
/// time is meaningless on a loaded machine).
double threadCpuMs() {
  timespec Now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &Now);
  return Now.tv_sec * 1e3 + Now.tv_nsec / 1e6;
}

// Declared first so that, in the default order, it sees the lazy build.
TEST(OperatorRegistryTest, BuildsTheBuiltinTableOnceAndQuickly) {
  double CpuStart = threadCpuMs();
  auto WallStart = std::chrono::steady_clock::now();
  OperatorRegistry Registry;
  double CpuMs = threadCpuMs() - CpuStart;
  double WallMs = std::chrono::duration<double, std::milli>(
                      std::chrono::steady_clock::now() - WallStart)
                      .count();
  std::printf("aten table ready after %.2f ms CPU (%.2f ms wall)\n", CpuMs,
              WallMs);
  // Generous bound (sanitizer builds are slower); release builds take a few
  // ms. This catches accidental quadratic work, not small regressions.
  EXPECT_LT(CpuMs, 500.0);

  // Every generated entry parsed; none was dropped.
  const size_t Generated = 0
#define PT2IR_ATEN_OP(Schema, Tags) +1
#include "pt2ir/ir/AtenOperators.inc"
      ;
  EXPECT_GT(Generated, 3000u);
  EXPECT_EQ(OperatorRegistry::builtinSchemas().size(), Generated);
  // The table is shared: a second registry sees the same schemas.
  OperatorRegistry Other;
  EXPECT_EQ(Registry.lookup("aten::add.Tensor"),
            Other.lookup("aten::add.Tensor"));
}

TEST(OperatorRegistryTest, BuiltinNamesAreUniqueAndResolvable) {
  OperatorRegistry Registry;
  std::set<std::string> Names;
  for (const OperatorSchema &Schema : OperatorRegistry::builtinSchemas()) {
    EXPECT_EQ(Schema.getNamespace(), "aten");
    std::string Name = Schema.getQualifiedName();
    EXPECT_TRUE(Names.insert(Name).second) << "duplicate " << Name;
    EXPECT_EQ(Registry.lookup(Name), &Schema) << Name;
    EXPECT_EQ(Registry.lookupTarget(Schema.getTargetName()), &Schema) << Name;
  }
}

TEST(OperatorRegistryTest, LooksUpByQualifiedNameAndTarget) {
  OperatorRegistry Registry;
  const OperatorSchema *Add = Registry.lookup("aten::add.Tensor");
  ASSERT_NE(Add, nullptr);
  EXPECT_EQ(Add->toString(),
            "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> "
            "Tensor");
  EXPECT_EQ(Registry.lookupTarget("torch.ops.aten.add.Tensor"), Add);

  const OperatorSchema *Relu = Registry.lookup("aten::relu");
  ASSERT_NE(Relu, nullptr);
  EXPECT_EQ(Relu->getName(), "relu");
  EXPECT_EQ(Relu->getOverloadName(), "default");
  EXPECT_EQ(Registry.lookup("aten::relu.default"), Relu);
  EXPECT_EQ(Registry.lookupTarget("torch.ops.aten.relu.default"), Relu);
  EXPECT_NE(Registry.lookup("aten::add.out"), Add);
  EXPECT_NE(Registry.lookup("aten::add.out"), nullptr);

  // Malformed or unknown names resolve to nothing.
  for (const char *Name : {"add.Tensor", "aten::", "aten::add.", "::add.Tensor",
                           "aten::add.NoSuchOverload", "aten::no_such_op",
                           "prims::add.default", "aten::add.Tensor.extra", ""})
    EXPECT_EQ(Registry.lookup(Name), nullptr) << Name;
  for (const char *Target :
       {"torch.ops.aten.relu", "torch.ops.aten.add.Tensor.x",
        "torch.ops.aten..Tensor", "torch.ops.aten.add.", "aten::add.Tensor",
        "torch.ops.higher_order.cond", "_operator.add", "torch.sym_max",
        "torch.ops.aten.no_such_op.default", "#", "#aten:add", ""})
    EXPECT_EQ(Registry.lookupTarget(Target), nullptr) << Target;
}

TEST(OperatorRegistryTest, BuiltinTags) {
  OperatorRegistry Registry;
  const OperatorSchema *Add = Registry.lookup("aten::add.Tensor");
  ASSERT_NE(Add, nullptr);
  EXPECT_TRUE(Add->hasTag("core"));
  EXPECT_TRUE(Add->hasTag("pointwise"));
  EXPECT_FALSE(Add->hasTag("generated"));
  EXPECT_FALSE(Add->hasTag("nondeterministic_seeded"));

  const OperatorSchema *UniformInplace = Registry.lookup("aten::uniform_");
  ASSERT_NE(UniformInplace, nullptr);
  EXPECT_TRUE(UniformInplace->hasTag("nondeterministic_seeded"));
  EXPECT_FALSE(UniformInplace->hasTag("generated"));
  EXPECT_TRUE(UniformInplace->isInplace());
  EXPECT_TRUE(UniformInplace->isMutable());

  const OperatorSchema *Transpose = Registry.lookup("aten::transpose_");
  ASSERT_NE(Transpose, nullptr);
  EXPECT_TRUE(Transpose->hasTag(OperatorTag::InplaceView));
}

TEST(OperatorRegistryTest, AutogenFunctionalAndOutVariants) {
  OperatorRegistry Registry;
  const OperatorSchema *Uniform = Registry.lookup("aten::uniform");
  ASSERT_NE(Uniform, nullptr);
  EXPECT_EQ(Uniform->toString(/*IncludeNamespace=*/false),
            "uniform(Tensor self, float from=0, float to=1, *, Generator? "
            "generator=None) -> Tensor");
  EXPECT_FALSE(Uniform->isMutable());
  EXPECT_FALSE(Uniform->isInplace());
  EXPECT_TRUE(Uniform->hasTag("generated"));
  EXPECT_TRUE(Uniform->hasTag("nondeterministic_seeded"));
  EXPECT_FALSE(Uniform->returns()[0].Alias.has_value());

  const OperatorSchema *UniformOut =
      Registry.lookupTarget("torch.ops.aten.uniform.out");
  ASSERT_NE(UniformOut, nullptr);
  EXPECT_EQ(UniformOut->toString(/*IncludeNamespace=*/false),
            "uniform.out(Tensor self, float from=0, float to=1, *, Generator? "
            "generator=None, Tensor(a!) out) -> Tensor(a!)");
  EXPECT_TRUE(UniformOut->isOutVariant());
  EXPECT_FALSE(UniformOut->isInplace());
  const SchemaArgument *Out = UniformOut->findArgument("out");
  ASSERT_NE(Out, nullptr);
  EXPECT_TRUE(Out->KwargOnly);
  EXPECT_TRUE(Out->isWrite());
  EXPECT_EQ(Out->Alias->getAliasSet(), "a");
  EXPECT_FALSE(UniformOut->findArgument("self")->Alias.has_value());
  EXPECT_EQ(UniformOut->returns()[0].Alias->getAliasSet(), "a");

  // Mutable (not in-place) op: `_functional` suffix, mutated args returned.
  const OperatorSchema *Fq =
      Registry.lookup("aten::_fused_moving_avg_obs_fq_helper_functional");
  ASSERT_NE(Fq, nullptr);
  ASSERT_EQ(Fq->returns().size(), 6u);
  EXPECT_EQ(Fq->returns()[2].Name, "running_min_out");
  EXPECT_EQ(Fq->returns()[5].Name, "zero_point_out");
  EXPECT_FALSE(Fq->isMutable());
  const OperatorSchema *FqOut =
      Registry.lookup("aten::_fused_moving_avg_obs_fq_helper.out");
  ASSERT_NE(FqOut, nullptr);
  EXPECT_EQ(FqOut->findArgument("out0")->Alias->toString(), "e!");
  EXPECT_EQ(FqOut->findArgument("out1")->Alias->toString(), "f!");
  EXPECT_EQ(FqOut->findArgument("running_min")->Alias->toString(), "a!");

  // In-place op returning nothing: the functional variant returns `self`.
  const OperatorSchema *Zero = Registry.lookup("aten::_foreach_zero");
  ASSERT_NE(Zero, nullptr);
  EXPECT_EQ(Zero->toString(/*IncludeNamespace=*/false),
            "_foreach_zero(Tensor[] self) -> Tensor[] self_out");

  // out= of a functional factory drops the TensorOptions arguments.
  const OperatorSchema *ToCopyOut = Registry.lookup("aten::_to_copy.out");
  ASSERT_NE(ToCopyOut, nullptr);
  EXPECT_EQ(ToCopyOut->findArgument("dtype"), nullptr);
  EXPECT_NE(ToCopyOut->findArgument("memory_format"), nullptr);
  EXPECT_TRUE(ToCopyOut->hasTag("generated"));

  // Overloaded in-place op: overload-named variants.
  EXPECT_NE(Registry.lookup("aten::bernoulli.Tensor"), nullptr);
  EXPECT_NE(Registry.lookup("aten::bernoulli.Tensor_out"), nullptr);
  EXPECT_NE(Registry.lookup("aten::add.Scalar_out"), nullptr);
}

TEST(OperatorRegistryTest, RegistersCustomSchemas) {
  OperatorRegistry Registry;
  EXPECT_EQ(errorText(Registry.registerSchema(
                "mylib::custom_relu(Tensor x) -> Tensor",
                OperatorTagSet{OperatorTag::Pointwise})),
            "");
  const OperatorSchema *Relu = Registry.lookup("mylib::custom_relu");
  ASSERT_NE(Relu, nullptr);
  EXPECT_EQ(Relu->getNamespace(), "mylib");
  EXPECT_TRUE(Relu->hasTag("pointwise"));
  EXPECT_EQ(Registry.lookup("mylib::custom_relu.default"), Relu);
  EXPECT_EQ(Registry.lookupTarget("torch.ops.mylib.custom_relu.default"), Relu);

  EXPECT_EQ(errorText(Registry.registerSchema(
                "mylib::custom_relu.inplace(Tensor(a!) x) -> Tensor(a!)")),
            "");
  EXPECT_NE(Registry.lookup("mylib::custom_relu.inplace"), Relu);

  // A new aten operator unknown to the built-in table may be added.
  EXPECT_EQ(errorText(Registry.registerSchema(
                "aten::brand_new_op(Tensor self) -> Tensor")),
            "");
  EXPECT_NE(Registry.lookup("aten::brand_new_op"), nullptr);
  EXPECT_NE(Registry.lookup("aten::add.Tensor"), nullptr);

  EXPECT_EQ(Registry.namespaces(), (std::vector<std::string>{"aten", "mylib"}));

  // Registrations are per instance.
  OperatorRegistry Fresh;
  EXPECT_EQ(Fresh.lookup("mylib::custom_relu"), nullptr);
  EXPECT_EQ(Fresh.lookup("aten::brand_new_op"), nullptr);
  EXPECT_EQ(Fresh.namespaces(), (std::vector<std::string>{"aten"}));
}

TEST(OperatorRegistryTest, RegistrationErrors) {
  OperatorRegistry Registry;
  ASSERT_EQ(errorText(Registry.registerSchema("mylib::f(Tensor x) -> Tensor")),
            "");
  EXPECT_EQ(errorText(Registry.registerSchema("mylib::f(Tensor y) -> Tensor")),
            "operator 'mylib::f.default' is already registered");
  EXPECT_EQ(errorText(Registry.registerSchema(
                "mylib::f.default(Tensor y) -> Tensor")),
            "operator 'mylib::f.default' is already registered");
  EXPECT_EQ(errorText(Registry.registerSchema(
                "aten::add.Tensor(Tensor self, Tensor other) -> Tensor")),
            "operator 'aten::add.Tensor' is already registered");
  EXPECT_EQ(errorText(Registry.registerSchema("g(Tensor x) -> Tensor")),
            "schema 'g(Tensor x) -> Tensor' must be qualified with a "
            "namespace (ns::name)");
  EXPECT_EQ(errorText(Registry.registerSchema("mylib::g(Tensor x) Tensor")),
            "invalid schema 'mylib::g(Tensor x) Tensor': operator schema "
            "column 20: expected '->' after the argument list, found 'Tensor'");
  // The failed registrations left nothing behind.
  EXPECT_EQ(Registry.lookup("mylib::g"), nullptr);
  EXPECT_EQ(Registry.lookup("mylib::f")->arguments()[0].Name, "x");
}

TEST(OperatorRegistryTest, ResolvesExtensionTargets) {
  OperatorRegistry Registry;
  llvm::StringRef Schemas[] = {
      "my_op(Tensor x) -> Tensor",
      "foo::my_op.fast(Tensor x, *, int n=2) -> Tensor"};
  auto Table = SchemaTableExtension::create("foo", Schemas);
  ASSERT_TRUE(static_cast<bool>(Table)) << llvm::toString(Table.takeError());
  EXPECT_EQ((*Table)->size(), 2u);
  ASSERT_EQ(errorText(Registry.registerExtension(std::move(*Table))), "");

  const OperatorSchema *MyOp = Registry.lookupTarget("#foo:my_op");
  ASSERT_NE(MyOp, nullptr);
  EXPECT_EQ(MyOp->getNamespace(), "foo");
  EXPECT_EQ(MyOp->getName(), "my_op");
  EXPECT_EQ(Registry.lookupTarget("#foo:my_op.default"), MyOp);
  const OperatorSchema *Fast = Registry.lookupTarget("#foo:my_op.fast");
  ASSERT_NE(Fast, nullptr);
  EXPECT_EQ(*Fast->findArgument("n")->DefaultValue, "2");

  for (const char *Target : {"#foo:missing", "#bar:my_op", "#foo",
                             "#foo:", "#:my_op", "#foo:my_op:x", "foo:my_op"})
    EXPECT_EQ(Registry.lookupTarget(Target), nullptr) << Target;
  // Extension operators are not torch.ops operators.
  EXPECT_EQ(Registry.lookupTarget("torch.ops.foo.my_op.default"), nullptr);
  EXPECT_EQ(Registry.lookup("foo::my_op"), nullptr);

  ASSERT_NE(Registry.getExtension("foo"), nullptr);
  EXPECT_EQ(Registry.getExtension("foo")->getNamespace(), "foo");
  EXPECT_EQ(Registry.getExtension("bar"), nullptr);
  EXPECT_EQ(Registry.namespaces(), (std::vector<std::string>{"aten", "foo"}));
}

/// A hand-written handler: op names are looked up in a small map.
class MapExtension : public ExtensionHandler {
public:
  explicit MapExtension(std::string Namespace)
      : Namespace(std::move(Namespace)) {}
  llvm::StringRef getNamespace() const override { return Namespace; }
  const OperatorSchema *getSchema(llvm::StringRef OpName) const override {
    auto It = Ops.find(OpName);
    return It == Ops.end() ? nullptr : &It->second;
  }
  void add(llvm::StringRef OpName, llvm::StringRef Schema) {
    llvm::Expected<OperatorSchema> Parsed =
        parseOperatorSchema(Schema, Namespace);
    ASSERT_TRUE(static_cast<bool>(Parsed))
        << llvm::toString(Parsed.takeError());
    Ops.try_emplace(OpName, std::move(*Parsed));
  }

private:
  std::string Namespace;
  llvm::StringMap<OperatorSchema> Ops;
};

TEST(OperatorRegistryTest, CustomExtensionHandler) {
  OperatorRegistry Registry;
  auto Handler = std::make_unique<MapExtension>("et");
  Handler->add("quantize_per_tensor",
               "quantize(Tensor input, float scale, int zero_point) -> Tensor");
  ASSERT_EQ(errorText(Registry.registerExtension(std::move(Handler))), "");
  const OperatorSchema *Q = Registry.lookupTarget("#et:quantize_per_tensor");
  ASSERT_NE(Q, nullptr);
  EXPECT_EQ(Q->getName(), "quantize");
  EXPECT_EQ(Registry.lookupTarget("#et:quantize"), nullptr);
}

TEST(OperatorRegistryTest, ExtensionRegistrationErrors) {
  OperatorRegistry Registry;
  EXPECT_EQ(errorText(Registry.registerExtension(nullptr)),
            "cannot register a null extension handler");
  for (const char *Reserved : {"torch", "builtins", "aten"})
    EXPECT_EQ(errorText(Registry.registerExtension(
                  std::make_unique<MapExtension>(Reserved))),
              std::string("extension namespace '") + Reserved +
                  "' is reserved");
  EXPECT_EQ(
      errorText(Registry.registerExtension(std::make_unique<MapExtension>(""))),
      "extension namespace '' must be non-empty and contain no ':'");
  EXPECT_EQ(errorText(Registry.registerExtension(
                std::make_unique<MapExtension>("a:b"))),
            "extension namespace 'a:b' must be non-empty and contain no ':'");

  ASSERT_EQ(errorText(Registry.registerExtension(
                std::make_unique<MapExtension>("foo"))),
            "");
  EXPECT_EQ(errorText(Registry.registerExtension(
                std::make_unique<MapExtension>("foo"))),
            "extension namespace 'foo' is already registered");

  // Extension namespaces and custom-schema namespaces do not mix.
  EXPECT_EQ(errorText(Registry.registerSchema("foo::f(Tensor x) -> Tensor")),
            "namespace 'foo' belongs to an extension handler");
  ASSERT_EQ(errorText(Registry.registerSchema("mylib::f(Tensor x) -> Tensor")),
            "");
  EXPECT_EQ(errorText(Registry.registerExtension(
                std::make_unique<MapExtension>("mylib"))),
            "namespace 'mylib' is already used by registered operator schemas");
  EXPECT_EQ(Registry.namespaces(),
            (std::vector<std::string>{"aten", "foo", "mylib"}));
}

TEST(OperatorRegistryTest, SchemaTableExtensionErrors) {
  llvm::StringRef WrongNamespace[] = {"bar::my_op(Tensor x) -> Tensor"};
  auto Wrong = SchemaTableExtension::create("foo", WrongNamespace);
  ASSERT_FALSE(static_cast<bool>(Wrong));
  EXPECT_EQ(llvm::toString(Wrong.takeError()),
            "invalid schema 'bar::my_op(Tensor x) -> Tensor': operator schema "
            "column 1: namespace 'bar' does not match the expected namespace "
            "'foo'");

  llvm::StringRef Twice[] = {"my_op(Tensor x) -> Tensor",
                             "foo::my_op(Tensor y) -> Tensor"};
  auto Duplicate = SchemaTableExtension::create("foo", Twice);
  ASSERT_FALSE(static_cast<bool>(Duplicate));
  EXPECT_EQ(llvm::toString(Duplicate.takeError()),
            "extension namespace 'foo' defines operator 'my_op.default' twice");

  auto BadNamespace = SchemaTableExtension::create("a:b", {});
  ASSERT_FALSE(static_cast<bool>(BadNamespace));
  EXPECT_EQ(llvm::toString(BadNamespace.takeError()),
            "extension namespace 'a:b' must be non-empty and contain no ':'");
}

TEST(OperatorRegistryTest, SeparateRegistriesWorkConcurrently) {
  constexpr int NumThreads = 4;
  const OperatorSchema *Seen[NumThreads] = {};
  bool Ok[NumThreads] = {};
  std::vector<std::thread> Threads;
  for (int I = 0; I < NumThreads; ++I)
    Threads.emplace_back([I, &Seen, &Ok] {
      OperatorRegistry Registry;
      std::string Schema =
          "ns" + std::to_string(I) + "::op(Tensor x) -> Tensor";
      llvm::Error E = Registry.registerSchema(Schema);
      Ok[I] = !E;
      llvm::consumeError(std::move(E));
      Ok[I] = Ok[I] &&
              Registry.lookup("ns" + std::to_string(I) + "::op") != nullptr &&
              Registry.lookup("ns" + std::to_string((I + 1) % NumThreads) +
                              "::op") == nullptr;
      Seen[I] = Registry.lookupTarget("torch.ops.aten.mul.Tensor");
    });
  for (std::thread &T : Threads)
    T.join();
  for (int I = 0; I < NumThreads; ++I) {
    EXPECT_TRUE(Ok[I]) << I;
    ASSERT_NE(Seen[I], nullptr);
    EXPECT_EQ(Seen[I], Seen[0]);
  }
}

} // namespace
