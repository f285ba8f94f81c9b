//===- OperatorSchemaTest.cpp - Tests for the schema parser ---------------===//
//
// Covers parseOperatorSchema (good and bad strings with their exact errors),
// types, alias annotations, keyword-only arguments, defaults, printing, the
// predicates on OperatorSchema, tags and isPythonKeyword. Every entry of the
// generated aten table is parsed and printed back.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/ir/OperatorSchema.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace pt2ir;

namespace {

using StringRefs = llvm::SmallVector<llvm::StringRef, 2>;

/// Parses \p Text, failing the test on error.
OperatorSchema parseOk(llvm::StringRef Text, llvm::StringRef Namespace = "") {
  llvm::Expected<OperatorSchema> Schema = parseOperatorSchema(Text, Namespace);
  if (!Schema) {
    ADD_FAILURE() << "failed to parse '" << Text.str()
                  << "': " << llvm::toString(Schema.takeError());
    return OperatorSchema();
  }
  return std::move(*Schema);
}

/// Returns the parse error message for \p Text, or "" if it parses.
std::string parseError(llvm::StringRef Text, llvm::StringRef Namespace = "") {
  llvm::Expected<OperatorSchema> Schema = parseOperatorSchema(Text, Namespace);
  if (Schema)
    return "";
  return llvm::toString(Schema.takeError());
}

TEST(OperatorSchemaTest, ParsesAddTensor) {
  OperatorSchema S = parseOk(
      "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
      "aten");
  EXPECT_EQ(S.getNamespace(), "aten");
  EXPECT_EQ(S.getName(), "add");
  EXPECT_EQ(S.getOverloadName(), "Tensor");
  EXPECT_TRUE(S.hasExplicitOverload());
  EXPECT_EQ(S.getQualifiedName(), "aten::add.Tensor");
  EXPECT_EQ(S.getTargetName(), "torch.ops.aten.add.Tensor");
  ASSERT_EQ(S.arguments().size(), 3u);
  EXPECT_EQ(S.arguments()[0].Name, "self");
  EXPECT_EQ(S.arguments()[0].Type.Base, SchemaBaseType::Tensor);
  EXPECT_TRUE(S.arguments()[0].Type.isPlainTensor());
  EXPECT_FALSE(S.arguments()[0].KwargOnly);
  EXPECT_FALSE(S.arguments()[1].KwargOnly);
  const SchemaArgument &Alpha = S.arguments()[2];
  EXPECT_EQ(Alpha.Name, "alpha");
  EXPECT_EQ(Alpha.Type.Base, SchemaBaseType::Scalar);
  EXPECT_TRUE(Alpha.KwargOnly);
  ASSERT_TRUE(Alpha.DefaultValue.has_value());
  EXPECT_EQ(*Alpha.DefaultValue, "1");
  ASSERT_EQ(S.returns().size(), 1u);
  EXPECT_TRUE(S.returns()[0].Name.empty());
  EXPECT_FALSE(S.returns()[0].Alias.has_value());
  EXPECT_FALSE(S.isMutable());
  EXPECT_FALSE(S.isInplace());
  EXPECT_FALSE(S.isOutVariant());
}

TEST(OperatorSchemaTest, QualifiedAndUnqualifiedForms) {
  OperatorSchema Custom = parseOk("mylib::custom_relu(Tensor x) -> Tensor");
  EXPECT_EQ(Custom.getNamespace(), "mylib");
  EXPECT_EQ(Custom.getName(), "custom_relu");
  EXPECT_EQ(Custom.getOverloadName(), "default");
  EXPECT_FALSE(Custom.hasExplicitOverload());
  EXPECT_EQ(Custom.getQualifiedName(), "mylib::custom_relu.default");
  EXPECT_EQ(Custom.toString(), "mylib::custom_relu(Tensor x) -> Tensor");
  EXPECT_EQ(Custom.toString(/*IncludeNamespace=*/false),
            "custom_relu(Tensor x) -> Tensor");

  OperatorSchema Qualified =
      parseOk("aten::add.Tensor(Tensor self, Tensor other) -> Tensor", "aten");
  EXPECT_EQ(Qualified.getNamespace(), "aten");

  OperatorSchema Bare = parseOk("relu(Tensor self) -> Tensor");
  EXPECT_EQ(Bare.getNamespace(), "");
  EXPECT_EQ(Bare.getQualifiedName(), "relu.default");

  // An explicit `.default` is the same as no overload.
  OperatorSchema Default = parseOk("aten::relu.default(Tensor self) -> Tensor");
  EXPECT_FALSE(Default.hasExplicitOverload());
  EXPECT_EQ(Default.getOverloadName(), "default");

  EXPECT_EQ(parseError("mylib::f(Tensor x) -> Tensor", "aten"),
            "operator schema column 1: namespace 'mylib' does not match the "
            "expected namespace 'aten'");
}

TEST(OperatorSchemaTest, ParsesEveryTypeKind) {
  OperatorSchema S = parseOk(
      "f(Tensor a, Tensor? b, Tensor[] c, Tensor?[] d, int e, SymInt f, "
      "int[] g, SymInt[] h, int[2] i, float j, float[] k, bool l, bool[3] m, "
      "str n, str? o, Scalar p, Scalar? q, ScalarType r, Layout s, Device t, "
      "MemoryFormat u, Generator? v, Dimname w, Storage x, Stream y, "
      "int[1]? z, SymInt[]? aa, Dimname[]? bb, DeviceIndex cc, QScheme dd, "
      "__torch__.torch.classes.mylib.Foo ee, SymFloat ff, SymBool gg, "
      "complex hh, Any ii) -> ()");
  auto Type = [&](llvm::StringRef Name) -> const SchemaType & {
    const SchemaArgument *Arg = S.findArgument(Name);
    EXPECT_NE(Arg, nullptr) << Name.str();
    static const SchemaType Empty;
    return Arg ? Arg->Type : Empty;
  };
  EXPECT_TRUE(Type("a").isPlainTensor());
  EXPECT_TRUE(Type("b").isTensorLike());
  EXPECT_TRUE(Type("b").Optional);
  EXPECT_FALSE(Type("b").IsList);
  EXPECT_TRUE(Type("c").IsList);
  EXPECT_FALSE(Type("c").ElementOptional);
  EXPECT_TRUE(Type("d").IsList);
  EXPECT_TRUE(Type("d").ElementOptional);
  EXPECT_FALSE(Type("d").Optional);
  EXPECT_EQ(Type("e").Base, SchemaBaseType::Int);
  EXPECT_EQ(Type("f").Base, SchemaBaseType::SymInt);
  EXPECT_TRUE(Type("g").IsList);
  EXPECT_FALSE(Type("g").FixedSize.has_value());
  EXPECT_EQ(Type("h").Base, SchemaBaseType::SymInt);
  EXPECT_TRUE(Type("h").IsList);
  EXPECT_EQ(Type("i").FixedSize, 2u);
  EXPECT_EQ(Type("j").Base, SchemaBaseType::Float);
  EXPECT_TRUE(Type("k").IsList);
  EXPECT_EQ(Type("l").Base, SchemaBaseType::Bool);
  EXPECT_EQ(Type("m").FixedSize, 3u);
  EXPECT_EQ(Type("n").Base, SchemaBaseType::Str);
  EXPECT_TRUE(Type("o").Optional);
  EXPECT_EQ(Type("p").Base, SchemaBaseType::Scalar);
  EXPECT_TRUE(Type("q").Optional);
  EXPECT_EQ(Type("r").Base, SchemaBaseType::ScalarType);
  EXPECT_EQ(Type("s").Base, SchemaBaseType::Layout);
  EXPECT_EQ(Type("t").Base, SchemaBaseType::Device);
  EXPECT_EQ(Type("u").Base, SchemaBaseType::MemoryFormat);
  EXPECT_EQ(Type("v").Base, SchemaBaseType::Generator);
  EXPECT_EQ(Type("w").Base, SchemaBaseType::Dimname);
  EXPECT_EQ(Type("x").Base, SchemaBaseType::Storage);
  EXPECT_EQ(Type("y").Base, SchemaBaseType::Stream);
  EXPECT_TRUE(Type("z").IsList);
  EXPECT_EQ(Type("z").FixedSize, 1u);
  EXPECT_TRUE(Type("z").Optional);
  EXPECT_FALSE(Type("z").ElementOptional);
  EXPECT_TRUE(Type("aa").Optional);
  EXPECT_EQ(Type("bb").Base, SchemaBaseType::Dimname);
  EXPECT_EQ(Type("cc").Base, SchemaBaseType::DeviceIndex);
  EXPECT_EQ(Type("dd").Base, SchemaBaseType::QScheme);
  EXPECT_EQ(Type("ee").Base, SchemaBaseType::CustomClass);
  EXPECT_EQ(Type("ee").ClassName, "__torch__.torch.classes.mylib.Foo");
  EXPECT_EQ(Type("ff").Base, SchemaBaseType::SymFloat);
  EXPECT_EQ(Type("gg").Base, SchemaBaseType::SymBool);
  EXPECT_EQ(Type("hh").Base, SchemaBaseType::Complex);
  EXPECT_EQ(Type("ii").Base, SchemaBaseType::Any);
  EXPECT_TRUE(S.returns().empty());

  // Types print back as written.
  for (const SchemaArgument &Arg : S.arguments())
    EXPECT_NE(S.toString().find(Arg.typeString() + " " + Arg.Name.str()),
              std::string::npos)
        << Arg.Name.str();
  EXPECT_EQ(S.findArgument("d")->typeString(), "Tensor?[]");
  EXPECT_EQ(S.findArgument("z")->typeString(), "int[1]?");
  EXPECT_EQ(S.findArgument("missing"), nullptr);
  EXPECT_EQ(S.findArgumentIndex("c"), 2u);
}

TEST(OperatorSchemaTest, AliasAnnotations) {
  OperatorSchema Inplace = parseOk(
      "add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> "
      "Tensor(a!)");
  const SchemaArgument &Self = Inplace.arguments()[0];
  ASSERT_TRUE(Self.Alias.has_value());
  EXPECT_EQ(Self.Alias->getAliasSet(), "a");
  EXPECT_TRUE(Self.Alias->IsWrite);
  EXPECT_TRUE(Self.Alias->afterSets().empty());
  EXPECT_TRUE(Self.isWrite());
  EXPECT_FALSE(Self.isOut());
  EXPECT_EQ(Self.typeString(), "Tensor(a!)");
  ASSERT_TRUE(Inplace.returns()[0].Alias.has_value());
  EXPECT_EQ(*Inplace.returns()[0].Alias, *Self.Alias);
  EXPECT_TRUE(Inplace.returns()[0].isWrite());
  EXPECT_TRUE(Inplace.isMutable());
  EXPECT_TRUE(Inplace.isInplace());
  EXPECT_FALSE(Inplace.isOutVariant());

  OperatorSchema View =
      parseOk("view(Tensor(a) self, SymInt[] size) -> Tensor(a)");
  ASSERT_TRUE(View.arguments()[0].Alias.has_value());
  EXPECT_EQ(View.arguments()[0].Alias->getAliasSet(), "a");
  EXPECT_FALSE(View.arguments()[0].Alias->IsWrite);
  EXPECT_FALSE(View.isMutable());

  OperatorSchema Wildcard =
      parseOk("unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]");
  const AliasInfo &W = *Wildcard.arguments()[0].Alias;
  EXPECT_EQ(W.beforeSets(), StringRefs({"a"}));
  EXPECT_EQ(W.afterSets(), StringRefs({"*"}));
  EXPECT_FALSE(W.IsWrite);
  EXPECT_EQ(W.toString(), "a -> *");
  EXPECT_TRUE(Wildcard.returns()[0].Type.IsList);
  EXPECT_EQ(Wildcard.returns()[0].typeString(), "Tensor(a)[]");

  OperatorSchema Multi = parseOk("f(Tensor(a|b!) x, Tensor(*) y) -> ()");
  EXPECT_EQ(Multi.arguments()[0].Alias->beforeSets(), StringRefs({"a", "b"}));
  EXPECT_TRUE(Multi.arguments()[0].Alias->IsWrite);
  EXPECT_EQ(Multi.arguments()[0].typeString(), "Tensor(a|b!)");
  EXPECT_EQ(Multi.arguments()[1].Alias->getAliasSet(), "*");

  OperatorSchema ListWrite =
      parseOk("_foreach_add_.Scalar(Tensor(a!)[] self, Scalar scalar) -> ()");
  EXPECT_TRUE(ListWrite.arguments()[0].Type.IsList);
  EXPECT_TRUE(ListWrite.arguments()[0].isWrite());
  EXPECT_TRUE(ListWrite.isInplace());
  EXPECT_TRUE(ListWrite.isMutable());
}

TEST(OperatorSchemaTest, OutVariantsAndNamedReturns) {
  OperatorSchema Out = parseOk(
      "max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) "
      "max, Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) "
      "indices)");
  EXPECT_TRUE(Out.isOutVariant());
  EXPECT_TRUE(Out.isMutable());
  EXPECT_FALSE(Out.isInplace());
  const SchemaArgument *Max = Out.findArgument("max");
  ASSERT_NE(Max, nullptr);
  EXPECT_TRUE(Max->KwargOnly);
  EXPECT_TRUE(Max->isOut());
  EXPECT_EQ(Max->Alias->getAliasSet(), "a");
  ASSERT_EQ(Out.returns().size(), 2u);
  EXPECT_EQ(Out.returns()[0].Name, "values");
  EXPECT_EQ(Out.returns()[1].Name, "indices");
  EXPECT_EQ(Out.returns()[1].Alias->getAliasSet(), "b");

  // A single named return needs no parentheses.
  OperatorSchema Named =
      parseOk("_foreach_zero(Tensor[] self) -> Tensor[] self_out");
  ASSERT_EQ(Named.returns().size(), 1u);
  EXPECT_EQ(Named.returns()[0].Name, "self_out");
  EXPECT_EQ(Named.toString(),
            "_foreach_zero(Tensor[] self) -> Tensor[] self_out");
}

TEST(OperatorSchemaTest, InplaceDetection) {
  EXPECT_TRUE(
      parseOk("__iand__.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)")
          .isInplace());
  EXPECT_FALSE(parseOk("__and__.Tensor(Tensor self, Tensor other) -> Tensor")
                   .isInplace());
  EXPECT_FALSE(parseOk("_foo(Tensor x) -> Tensor").isInplace());
  EXPECT_TRUE(parseOk("relu_(Tensor(a!) self) -> Tensor(a!)").isInplace());
  // A mutable op that is not named in-place.
  OperatorSchema Mutable = parseOk(
      "_fused_moving_avg_obs_fq_helper(Tensor self, Tensor(a!) running_min) "
      "-> (Tensor output, Tensor mask)");
  EXPECT_TRUE(Mutable.isMutable());
  EXPECT_FALSE(Mutable.isInplace());
  EXPECT_FALSE(Mutable.isOutVariant());
}

TEST(OperatorSchemaTest, DefaultValuesKeepTheirText) {
  OperatorSchema S =
      parseOk("f(Tensor x, int[2] dims=[-2,-1], str a=\"\\\"'\\\\\", str "
              "b='\"\\'\\\\', "
              "float eps=1e-05, ScalarType? dtype=None, str mode=\"a,b)\", "
              "int[] e=[], MemoryFormat m=contiguous_format) -> Tensor");
  EXPECT_EQ(*S.findArgument("dims")->DefaultValue, "[-2,-1]");
  EXPECT_EQ(*S.findArgument("a")->DefaultValue, "\"\\\"'\\\\\"");
  EXPECT_EQ(*S.findArgument("b")->DefaultValue, "'\"\\'\\\\'");
  EXPECT_EQ(*S.findArgument("eps")->DefaultValue, "1e-05");
  EXPECT_EQ(*S.findArgument("dtype")->DefaultValue, "None");
  EXPECT_EQ(*S.findArgument("mode")->DefaultValue, "\"a,b)\"");
  EXPECT_EQ(*S.findArgument("e")->DefaultValue, "[]");
  EXPECT_EQ(*S.findArgument("m")->DefaultValue, "contiguous_format");
  EXPECT_FALSE(S.findArgument("x")->DefaultValue.has_value());
}

TEST(OperatorSchemaTest, ToleratesWhitespaceBetweenTokens) {
  OperatorSchema S = parseOk(
      "  mylib::f.o ( Tensor( a ! ) x , * , int y = 3 ) ->  ( Tensor(a !) , "
      "int )  ");
  EXPECT_EQ(S.toString(),
            "mylib::f.o(Tensor(a!) x, *, int y=3) -> (Tensor(a!), int)");
  // Names and types are single tokens: no whitespace inside them.
  EXPECT_EQ(parseError("mylib::f .o(Tensor x) -> Tensor"),
            "operator schema column 10: expected '(' to start the argument "
            "list, found '.'");
  EXPECT_EQ(parseError("f(Tensor [] x) -> Tensor"),
            "operator schema column 10: expected an argument name, found '['");
}

struct BadSchema {
  const char *Text;
  const char *Error;
};

TEST(OperatorSchemaTest, RejectsMalformedSchemasWithPreciseErrors) {
  const BadSchema Cases[] = {
      {"", "column 1: expected an operator name, found end of input"},
      {"(Tensor x) -> Tensor",
       "column 1: expected an operator name, found '('"},
      {"aten::(Tensor x) -> Tensor",
       "column 7: expected an operator name after '::', found '('"},
      {"add.(Tensor x) -> Tensor",
       "column 5: expected an overload name after '.', found '('"},
      {"add Tensor x) -> Tensor",
       "column 5: expected '(' to start the argument list, found 'Tensor'"},
      {"add.Tensor(Tensor self",
       "column 23: expected ',' or ')' after an argument, found end of input"},
      {"add(Tensor self) Tensor",
       "column 18: expected '->' after the argument list, found 'Tensor'"},
      {"add(Foo self) -> Tensor", "column 5: unknown type 'Foo'"},
      {"add(Tensor) -> Tensor",
       "column 11: expected an argument name, found ')'"},
      {"add(Tensor self, Tensor self) -> Tensor",
       "column 25: duplicate argument name 'self'"},
      {"add(Tensor self, *, *, Scalar a) -> Tensor",
       "column 21: '*' may appear only once"},
      {"add(Tensor self, *) -> Tensor",
       "column 19: expected ',' and a keyword-only argument after '*', found "
       "')'"},
      {"add(Tensor(a! self) -> Tensor",
       "column 15: expected ')' to close the alias annotation, found 'self'"},
      {"add(Tensor() self) -> Tensor",
       "column 12: expected an alias set name or '*', found ')'"},
      {"add(Tensor[][] x) -> Tensor",
       "column 13: nested list types are not supported"},
      {"add(int?? x) -> Tensor",
       "column 9: a type may be marked optional only once"},
      {"add(int[2 x) -> Tensor",
       "column 10: expected ']' to close the list type, found ' '"},
      {"add(str s=\"abc) -> Tensor",
       "column 11: unterminated string literal in default value"},
      {"add(int x=) -> Tensor",
       "column 11: expected a default value after '=', found ')'"},
      {"add(int[] x=[1, 2) -> Tensor",
       "column 18: expected ']' in the default value, found ')'"},
      {"add(int[] x=[1, 2",
       "column 18: expected ']' in the default value, found end of input"},
      {"add(int[] x=1]) -> Tensor",
       "column 14: unbalanced ']' in default value"},
      {"add(Tensor x) -> Tensor extra junk",
       "column 31: expected end of schema, found 'junk'"},
      {"add(Tensor x) -> (Tensor, )", "column 27: expected a type, found ')'"},
      {"add(Tensor x) -> (Tensor a b)",
       "column 28: expected ',' or ')' after a return, found 'b'"},
      {"add(Tensor x) ->", "column 17: expected a type, found end of input"},
      {"add(Tensor x, ...) -> Tensor", "column 15: expected a type, found '.'"},
  };
  for (const BadSchema &Case : Cases)
    EXPECT_EQ(parseError(Case.Text),
              std::string("operator schema ") + Case.Error)
        << "schema: " << Case.Text;
}

TEST(OperatorSchemaTest, HostileInputFailsCleanly) {
  // Deeply nested default values are scanned with a counter, not recursion.
  std::string Deep = "f(int[] x=" + std::string(200000, '[') + ") -> ()";
  EXPECT_NE(parseError(Deep), "");
  std::string Long = "f(" + std::string(100000, 'a') + ") -> ()";
  EXPECT_NE(parseError(Long), "");
  EXPECT_NE(parseError("f(int[99999999999] x) -> ()"), "");
  EXPECT_NE(parseError(llvm::StringRef("f(Tensor\0x) -> ()", 17)), "");

  // Every prefix of a rich schema either parses or fails with a message.
  const std::string Full =
      "mylib::op.ov(Tensor(a!) self, Tensor?[] t, int[2]? s=None, *, "
      "str m=\"x,y\", Tensor(b!) out) -> (Tensor(a!) r, Tensor(b!))";
  EXPECT_EQ(parseError(Full), "");
  for (size_t Len = 0; Len < Full.size(); ++Len) {
    llvm::Expected<OperatorSchema> S =
        parseOperatorSchema(llvm::StringRef(Full).take_front(Len));
    if (S)
      continue;
    std::string Message = llvm::toString(S.takeError());
    EXPECT_EQ(Message.rfind("operator schema column ", 0), 0u) << Message;
  }
}

TEST(OperatorSchemaTest, RoundTripsEveryAtenTableEntry) {
  std::vector<const char *> Entries = {
#define PT2IR_ATEN_OP(Schema, Tags) Schema,
#include "pt2ir/ir/AtenOperators.inc"
  };
  ASSERT_GT(Entries.size(), 3000u);
  size_t Failures = 0;
  for (const char *Text : Entries) {
    llvm::Expected<OperatorSchema> S = parseOperatorSchema(Text, "aten");
    if (!S) {
      ADD_FAILURE() << Text << ": " << llvm::toString(S.takeError());
      if (++Failures > 10)
        return;
      continue;
    }
    EXPECT_EQ(S->toString(/*IncludeNamespace=*/false), Text);
    EXPECT_EQ(S->toString(), std::string("aten::") + Text);
  }
}

TEST(OperatorSchemaTest, Tags) {
  EXPECT_EQ(getOperatorTagName(OperatorTag::Core), "core");
  EXPECT_EQ(getOperatorTagName(OperatorTag::NondeterministicSeeded),
            "nondeterministic_seeded");
  EXPECT_EQ(parseOperatorTag("inplace_view"), OperatorTag::InplaceView);
  EXPECT_EQ(parseOperatorTag("pointwise"), OperatorTag::Pointwise);
  EXPECT_EQ(parseOperatorTag("no_such_tag"), std::nullopt);
  for (unsigned I = 0; I < NumOperatorTags; ++I) {
    auto Tag = static_cast<OperatorTag>(I);
    EXPECT_EQ(parseOperatorTag(getOperatorTagName(Tag)), Tag);
  }

  OperatorTagSet Set{OperatorTag::Core, OperatorTag::Pointwise};
  EXPECT_TRUE(Set.contains(OperatorTag::Core));
  EXPECT_FALSE(Set.contains(OperatorTag::Generated));
  EXPECT_EQ(Set.names(), (std::vector<llvm::StringRef>{"core", "pointwise"}));

  OperatorSchema S = parseOk("mylib::f(Tensor x) -> Tensor");
  EXPECT_FALSE(S.hasTag("core"));
  S.setTags(Set);
  EXPECT_TRUE(S.hasTag("core"));
  EXPECT_TRUE(S.hasTag(OperatorTag::Pointwise));
  EXPECT_FALSE(S.hasTag("inplace_view"));
  EXPECT_FALSE(S.hasTag("not_a_tag"));
}

TEST(OperatorSchemaTest, PythonKeywords) {
  for (const char *Word : {"from", "lambda", "None", "True", "False", "in",
                           "is", "async", "await", "nonlocal", "yield"})
    EXPECT_TRUE(isPythonKeyword(Word)) << Word;
  for (const char *Word : {"self", "to", "match", "type", "case", "print",
                           "none", "From", "", "_"})
    EXPECT_FALSE(isPythonKeyword(Word)) << Word;
}

} // namespace
