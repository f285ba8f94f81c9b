//===- OperatorSchema.cpp - Parsed operator schemas -----------------------===//
//
// Part of pt2ir.
//
//===----------------------------------------------------------------------===//
//
// Implements OperatorSchema, its printer and the schema-string parser. The
// parser is a single forward scan (no recursion), so input of any shape
// finishes in time linear in its length.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/ir/OperatorSchema.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>

using namespace llvm;

namespace pt2ir {

//===----------------------------------------------------------------------===//
// Tags
//===----------------------------------------------------------------------===//

static constexpr StringLiteral TagNames[] = {
#define PT2IR_ATEN_TAG(Enumerator, Name) Name,
#include "pt2ir/ir/AtenOperators.inc"
};
static_assert(std::size(TagNames) == NumOperatorTags,
              "tag name table out of sync with the OperatorTag enum");
static_assert(NumOperatorTags <= 32, "OperatorTagSet holds at most 32 tags");

StringRef getOperatorTagName(OperatorTag Tag) {
  return TagNames[static_cast<unsigned>(Tag)];
}

std::optional<OperatorTag> parseOperatorTag(StringRef Name) {
  for (unsigned I = 0; I < NumOperatorTags; ++I)
    if (TagNames[I] == Name)
      return static_cast<OperatorTag>(I);
  return std::nullopt;
}

std::vector<StringRef> OperatorTagSet::names() const {
  std::vector<StringRef> Result;
  for (unsigned I = 0; I < NumOperatorTags; ++I)
    if (Bits & (uint32_t(1) << I))
      Result.push_back(TagNames[I]);
  return Result;
}

//===----------------------------------------------------------------------===//
// Types and printing
//===----------------------------------------------------------------------===//

StringRef getSchemaBaseTypeName(SchemaBaseType Base) {
  switch (Base) {
  case SchemaBaseType::Tensor:
    return "Tensor";
  case SchemaBaseType::Int:
    return "int";
  case SchemaBaseType::SymInt:
    return "SymInt";
  case SchemaBaseType::Float:
    return "float";
  case SchemaBaseType::SymFloat:
    return "SymFloat";
  case SchemaBaseType::Bool:
    return "bool";
  case SchemaBaseType::SymBool:
    return "SymBool";
  case SchemaBaseType::Complex:
    return "complex";
  case SchemaBaseType::Str:
    return "str";
  case SchemaBaseType::Scalar:
    return "Scalar";
  case SchemaBaseType::ScalarType:
    return "ScalarType";
  case SchemaBaseType::Layout:
    return "Layout";
  case SchemaBaseType::Device:
    return "Device";
  case SchemaBaseType::DeviceIndex:
    return "DeviceIndex";
  case SchemaBaseType::MemoryFormat:
    return "MemoryFormat";
  case SchemaBaseType::Generator:
    return "Generator";
  case SchemaBaseType::Dimname:
    return "Dimname";
  case SchemaBaseType::Storage:
    return "Storage";
  case SchemaBaseType::Stream:
    return "Stream";
  case SchemaBaseType::QScheme:
    return "QScheme";
  case SchemaBaseType::ConstQuantizerPtr:
    return "ConstQuantizerPtr";
  case SchemaBaseType::Any:
    return "Any";
  case SchemaBaseType::CustomClass:
    return "<class>";
  }
  return "<unknown>";
}

/// Maps a type name to its base type; CustomClass for dotted class names.
static std::optional<SchemaBaseType> lookupBaseType(StringRef Name) {
  if (Name.contains('.'))
    return SchemaBaseType::CustomClass;
  return StringSwitch<std::optional<SchemaBaseType>>(Name)
      .Case("Tensor", SchemaBaseType::Tensor)
      .Case("int", SchemaBaseType::Int)
      .Case("SymInt", SchemaBaseType::SymInt)
      .Case("float", SchemaBaseType::Float)
      .Case("SymFloat", SchemaBaseType::SymFloat)
      .Case("bool", SchemaBaseType::Bool)
      .Case("SymBool", SchemaBaseType::SymBool)
      .Case("complex", SchemaBaseType::Complex)
      .Case("str", SchemaBaseType::Str)
      .Case("Scalar", SchemaBaseType::Scalar)
      .Case("ScalarType", SchemaBaseType::ScalarType)
      .Case("Layout", SchemaBaseType::Layout)
      .Case("Device", SchemaBaseType::Device)
      .Case("DeviceIndex", SchemaBaseType::DeviceIndex)
      .Case("MemoryFormat", SchemaBaseType::MemoryFormat)
      .Case("Generator", SchemaBaseType::Generator)
      .Case("Dimname", SchemaBaseType::Dimname)
      .Case("Storage", SchemaBaseType::Storage)
      .Case("Stream", SchemaBaseType::Stream)
      .Case("QScheme", SchemaBaseType::QScheme)
      .Case("ConstQuantizerPtr", SchemaBaseType::ConstQuantizerPtr)
      .Case("Any", SchemaBaseType::Any)
      .Default(std::nullopt);
}

/// Splits a written alias set list ("a|b", "a | *") into trimmed names.
static SmallVector<StringRef, 2> splitAliasSets(StringRef Text) {
  SmallVector<StringRef, 2> Sets;
  if (Text.trim().empty())
    return Sets;
  SmallVector<StringRef, 2> Pieces;
  Text.split(Pieces, '|');
  for (StringRef Piece : Pieces)
    Sets.push_back(Piece.trim());
  return Sets;
}

SmallVector<StringRef, 2> AliasInfo::beforeSets() const {
  return splitAliasSets(BeforeSetsText);
}

SmallVector<StringRef, 2> AliasInfo::afterSets() const {
  return splitAliasSets(AfterSetsText);
}

StringRef AliasInfo::getAliasSet() const {
  return BeforeSetsText.split('|').first.trim();
}

static void appendJoined(std::string &Out, ArrayRef<StringRef> Sets) {
  for (size_t I = 0; I < Sets.size(); ++I) {
    if (I)
      Out += '|';
    Out += Sets[I];
  }
}

std::string AliasInfo::toString() const {
  std::string Out;
  appendJoined(Out, beforeSets());
  if (IsWrite)
    Out += '!';
  SmallVector<StringRef, 2> After = afterSets();
  if (!After.empty()) {
    Out += " -> ";
    appendJoined(Out, After);
  }
  return Out;
}

std::string SchemaType::toString(const AliasInfo *Alias) const {
  std::string Out = Base == SchemaBaseType::CustomClass
                        ? ClassName.str()
                        : getSchemaBaseTypeName(Base).str();
  if (Alias) {
    Out += '(';
    Out += Alias->toString();
    Out += ')';
  }
  if (IsList) {
    if (ElementOptional)
      Out += '?';
    Out += '[';
    if (FixedSize)
      Out += std::to_string(*FixedSize);
    Out += ']';
  }
  if (Optional)
    Out += '?';
  return Out;
}

std::string SchemaArgument::toString() const {
  std::string Out = typeString();
  Out += ' ';
  Out += Name;
  if (DefaultValue) {
    Out += '=';
    Out += *DefaultValue;
  }
  return Out;
}

std::string SchemaReturn::toString() const {
  std::string Out = typeString();
  if (!Name.empty()) {
    Out += ' ';
    Out += Name;
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// OperatorSchema
//===----------------------------------------------------------------------===//

std::string OperatorSchema::getQualifiedName() const {
  std::string Out;
  if (!Namespace.empty()) {
    Out += Namespace;
    Out += "::";
  }
  Out += Name;
  Out += '.';
  Out += getOverloadName();
  return Out;
}

std::string OperatorSchema::getTargetName() const {
  std::string Out = "torch.ops.";
  Out += Namespace;
  Out += '.';
  Out += Name;
  Out += '.';
  Out += getOverloadName();
  return Out;
}

const SchemaArgument *OperatorSchema::findArgument(StringRef ArgName) const {
  std::optional<size_t> Index = findArgumentIndex(ArgName);
  return Index ? &Arguments[*Index] : nullptr;
}

std::optional<size_t>
OperatorSchema::findArgumentIndex(StringRef ArgName) const {
  for (size_t I = 0; I < Arguments.size(); ++I)
    if (Arguments[I].Name == ArgName)
      return I;
  return std::nullopt;
}

bool OperatorSchema::isMutable() const {
  return any_of(Arguments, [](const SchemaArgument &A) { return A.isWrite(); });
}

bool OperatorSchema::isOutVariant() const {
  return any_of(Arguments, [](const SchemaArgument &A) { return A.isOut(); });
}

/// The operators whose `__i<name>__` dunder form assigns in place.
static bool isAugmentedAssignmentName(StringRef Name) {
  static constexpr StringLiteral Names[] = {
      "add", "sub",    "mul",    "matmul", "truediv", "floordiv", "mod",
      "pow", "lshift", "rshift", "and",    "xor",     "or"};
  return is_contained(Names, Name);
}

bool OperatorSchema::isInplace() const {
  StringRef N = Name;
  if (N.size() > 4 && N.starts_with("__") && N.ends_with("__")) {
    StringRef Inner = N.drop_front(2).drop_back(2);
    return Inner.consume_front("i") && isAugmentedAssignmentName(Inner);
  }
  return N.size() > 1 && N.ends_with("_");
}

bool OperatorSchema::hasTag(StringRef TagName) const {
  std::optional<OperatorTag> Tag = parseOperatorTag(TagName);
  return Tag && Tags.contains(*Tag);
}

std::string OperatorSchema::toString(bool IncludeNamespace) const {
  std::string Out;
  if (IncludeNamespace && !Namespace.empty()) {
    Out += Namespace;
    Out += "::";
  }
  Out += Name;
  if (!OverloadName.empty()) {
    Out += '.';
    Out += OverloadName;
  }
  Out += '(';
  bool SawKwargOnly = false;
  for (size_t I = 0; I < Arguments.size(); ++I) {
    if (I)
      Out += ", ";
    if (Arguments[I].KwargOnly && !SawKwargOnly) {
      Out += "*, ";
      SawKwargOnly = true;
    }
    Out += Arguments[I].toString();
  }
  Out += ") -> ";
  if (Returns.size() == 1)
    return Out + Returns.front().toString();
  Out += '(';
  for (size_t I = 0; I < Returns.size(); ++I) {
    if (I)
      Out += ", ";
    Out += Returns[I].toString();
  }
  Out += ')';
  return Out;
}

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

namespace detail {

/// Parses one schema string into views of that string. Every method that
/// can fail returns an Error naming the column and what was expected there.
class OperatorSchemaParser {
public:
  explicit OperatorSchemaParser(StringRef Text) : Text(Text) {}

  /// Parses the whole text; \p Owner (possibly null) keeps it alive.
  Expected<OperatorSchema> parse(StringRef DefaultNamespace,
                                 std::shared_ptr<const std::string> Owner);

private:
  /// Builds "operator schema column N: expected X, found Y" at \p At.
  Error expected(const Twine &What, size_t At) const;
  Error expected(const Twine &What) const { return expected(What, Pos); }
  /// Builds "operator schema column N: <message>" at \p At.
  Error errorAt(size_t At, const Twine &Message) const;
  /// Describes the token at \p At for error messages.
  std::string describeTokenAt(size_t At) const;

  void skipSpace() {
    while (Pos < Text.size() && (Text[Pos] == ' ' || Text[Pos] == '\t' ||
                                 Text[Pos] == '\n' || Text[Pos] == '\r'))
      ++Pos;
  }
  bool atEnd() const { return Pos >= Text.size(); }
  char peek() const { return atEnd() ? '\0' : Text[Pos]; }
  /// Skips whitespace, then consumes \p Token if it comes next.
  bool consume(StringRef Token) {
    skipSpace();
    if (!Text.substr(Pos).starts_with(Token))
      return false;
    Pos += Token.size();
    return true;
  }
  /// Skips whitespace, then reads an identifier; empty if none is there.
  StringRef readIdentifier();

  Error parseArguments(SmallVectorImpl<SchemaArgument> &Arguments);
  Error parseReturns(SmallVectorImpl<SchemaReturn> &Returns);
  Error parseType(SchemaType &Type, std::optional<AliasInfo> &Alias);
  Error parseAliasAnnotation(AliasInfo &Alias);
  Error parseAliasSets(StringRef &Sets);
  Error parseDefaultValue(StringRef &Value);

  StringRef Text;
  size_t Pos = 0;
};

} // namespace detail

using detail::OperatorSchemaParser;

static bool isIdentifierStart(char C) {
  return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') || C == '_';
}

static bool isIdentifierChar(char C) {
  return isIdentifierStart(C) || (C >= '0' && C <= '9');
}

Error OperatorSchemaParser::errorAt(size_t At, const Twine &Message) const {
  return createStringError(inconvertibleErrorCode(), "operator schema column " +
                                                         Twine(At + 1) + ": " +
                                                         Message);
}

std::string OperatorSchemaParser::describeTokenAt(size_t At) const {
  if (At >= Text.size())
    return "end of input";
  if (isIdentifierChar(Text[At])) {
    size_t End = At;
    while (End < Text.size() && isIdentifierChar(Text[End]))
      ++End;
    return ("'" + Text.slice(At, End) + "'").str();
  }
  if (Text.substr(At).starts_with("->"))
    return "'->'";
  return ("'" + Text.substr(At, 1) + "'").str();
}

Error OperatorSchemaParser::expected(const Twine &What, size_t At) const {
  return errorAt(At, "expected " + What + ", found " + describeTokenAt(At));
}

StringRef OperatorSchemaParser::readIdentifier() {
  skipSpace();
  if (atEnd() || !isIdentifierStart(Text[Pos]))
    return StringRef();
  size_t Start = Pos;
  while (Pos < Text.size() && isIdentifierChar(Text[Pos]))
    ++Pos;
  return Text.slice(Start, Pos);
}

Expected<OperatorSchema>
OperatorSchemaParser::parse(StringRef DefaultNamespace,
                            std::shared_ptr<const std::string> Owner) {
  skipSpace();
  size_t NameStart = Pos;
  StringRef First = readIdentifier();
  if (First.empty())
    return expected("an operator name");

  StringRef Namespace = DefaultNamespace;
  StringRef Name = First;
  if (Text.substr(Pos).starts_with("::")) {
    Pos += 2;
    if (!DefaultNamespace.empty() && DefaultNamespace != First)
      return errorAt(NameStart,
                     "namespace '" + First +
                         "' does not match the expected namespace '" +
                         DefaultNamespace + "'");
    Namespace = First;
    if (atEnd() || !isIdentifierStart(Text[Pos]))
      return expected("an operator name after '::'");
    Name = readIdentifier();
  }

  StringRef Overload;
  if (peek() == '.') {
    ++Pos;
    if (atEnd() || !isIdentifierStart(Text[Pos]))
      return expected("an overload name after '.'");
    Overload = readIdentifier();
    if (Overload == "default")
      Overload = StringRef();
  }

  if (!consume("("))
    return expected("'(' to start the argument list");
  SmallVector<SchemaArgument, 16> Arguments;
  if (Error E = parseArguments(Arguments))
    return E;

  if (!consume("->"))
    return expected("'->' after the argument list");
  SmallVector<SchemaReturn, 4> Returns;
  if (Error E = parseReturns(Returns))
    return E;

  skipSpace();
  if (!atEnd())
    return expected("end of schema");

  OperatorSchema Schema;
  Schema.OwnedText = std::move(Owner);
  Schema.Namespace = Namespace.str();
  Schema.Name = Name;
  Schema.OverloadName = Overload;
  // Exact-size vectors: the built-in table holds thousands of schemas.
  Schema.Arguments.assign(std::make_move_iterator(Arguments.begin()),
                          std::make_move_iterator(Arguments.end()));
  Schema.Returns.assign(std::make_move_iterator(Returns.begin()),
                        std::make_move_iterator(Returns.end()));
  return Schema;
}

/// Returns true if an argument before the last one is also called \p Name.
static bool isDuplicateName(ArrayRef<SchemaArgument> Previous, StringRef Name,
                            StringSet<> &Seen) {
  // Schemas have few arguments: scan them. Past a few dozen (only hostile
  // input), switch to a set so the check stays linear overall.
  constexpr size_t ScanLimit = 32;
  if (Previous.size() < ScanLimit)
    return any_of(Previous,
                  [&](const SchemaArgument &A) { return A.Name == Name; });
  if (Seen.empty())
    for (const SchemaArgument &A : Previous)
      Seen.insert(A.Name);
  return !Seen.insert(Name).second;
}

Error OperatorSchemaParser::parseArguments(
    SmallVectorImpl<SchemaArgument> &Arguments) {
  // Called after '('; consumes through ')'.
  if (consume(")"))
    return Error::success();
  StringSet<> Seen;
  bool KwargOnly = false;
  while (true) {
    skipSpace();
    if (peek() == '*') {
      size_t StarPos = Pos;
      ++Pos;
      if (KwargOnly)
        return errorAt(StarPos, "'*' may appear only once");
      KwargOnly = true;
      if (!consume(","))
        return expected("',' and a keyword-only argument after '*'");
      skipSpace();
      if (peek() == ')' || atEnd())
        return expected("a keyword-only argument after '*'");
      continue;
    }

    SchemaArgument Arg;
    Arg.KwargOnly = KwargOnly;
    if (Error E = parseType(Arg.Type, Arg.Alias))
      return E;
    skipSpace();
    size_t NamePos = Pos;
    Arg.Name = readIdentifier();
    if (Arg.Name.empty())
      return expected("an argument name");
    if (isDuplicateName(Arguments, Arg.Name, Seen))
      return errorAt(NamePos, "duplicate argument name '" + Arg.Name + "'");
    if (consume("=")) {
      StringRef Value;
      if (Error E = parseDefaultValue(Value))
        return E;
      Arg.DefaultValue = Value;
    }
    Arguments.push_back(std::move(Arg));

    if (consume(")"))
      return Error::success();
    if (!consume(","))
      return expected("',' or ')' after an argument");
  }
}

Error OperatorSchemaParser::parseReturns(
    SmallVectorImpl<SchemaReturn> &Returns) {
  auto ParseOne = [&]() -> Error {
    SchemaReturn Ret;
    if (Error E = parseType(Ret.Type, Ret.Alias))
      return E;
    Ret.Name = readIdentifier();
    Returns.push_back(std::move(Ret));
    return Error::success();
  };

  if (!consume("("))
    return ParseOne();
  if (consume(")"))
    return Error::success();
  while (true) {
    if (Error E = ParseOne())
      return E;
    if (consume(")"))
      return Error::success();
    if (!consume(","))
      return expected("',' or ')' after a return");
  }
}

Error OperatorSchemaParser::parseType(SchemaType &Type,
                                      std::optional<AliasInfo> &Alias) {
  skipSpace();
  size_t TypePos = Pos;
  StringRef Name = readIdentifier();
  if (Name.empty())
    return expected("a type");
  // TorchBind classes are dotted: __torch__.torch.classes.ns.Cls.
  while (peek() == '.' && Pos + 1 < Text.size() &&
         isIdentifierStart(Text[Pos + 1])) {
    ++Pos;
    readIdentifier();
    Name = Text.slice(TypePos, Pos);
  }
  std::optional<SchemaBaseType> Base = lookupBaseType(Name);
  if (!Base)
    return errorAt(TypePos, "unknown type '" + Name + "'");
  Type.Base = *Base;
  if (*Base == SchemaBaseType::CustomClass)
    Type.ClassName = Name;

  if (peek() == '(') {
    ++Pos;
    AliasInfo Info;
    if (Error E = parseAliasAnnotation(Info))
      return E;
    Alias = Info;
  }

  bool OptionalBeforeList = false;
  if (peek() == '?') {
    ++Pos;
    OptionalBeforeList = true;
  }
  if (peek() == '[') {
    ++Pos;
    Type.IsList = true;
    Type.ElementOptional = OptionalBeforeList;
    if (peek() >= '0' && peek() <= '9') {
      size_t SizePos = Pos;
      uint32_t Size = 0;
      while (peek() >= '0' && peek() <= '9') {
        Size = Size * 10 + uint32_t(peek() - '0');
        if (Size > 1000000)
          return errorAt(SizePos, "list size is too large");
        ++Pos;
      }
      Type.FixedSize = Size;
    }
    if (peek() != ']')
      return expected("']' to close the list type");
    ++Pos;
    if (peek() == '?') {
      ++Pos;
      Type.Optional = true;
    }
  } else {
    Type.Optional = OptionalBeforeList;
  }
  if (peek() == '[')
    return errorAt(Pos, "nested list types are not supported");
  if (peek() == '?')
    return errorAt(Pos, "a type may be marked optional only once");
  return Error::success();
}

Error OperatorSchemaParser::parseAliasAnnotation(AliasInfo &Alias) {
  // Called after '('; consumes through ')'.
  if (Error E = parseAliasSets(Alias.BeforeSetsText))
    return E;
  if (consume("!"))
    Alias.IsWrite = true;
  if (consume("->")) {
    if (Error E = parseAliasSets(Alias.AfterSetsText))
      return E;
  }
  if (!consume(")"))
    return expected("')' to close the alias annotation");
  return Error::success();
}

Error OperatorSchemaParser::parseAliasSets(StringRef &Sets) {
  skipSpace();
  size_t Start = Pos;
  while (true) {
    if (!consume("*") && readIdentifier().empty())
      return expected("an alias set name or '*'");
    size_t End = Pos;
    if (!consume("|")) {
      Sets = Text.slice(Start, End);
      return Error::success();
    }
  }
}

Error OperatorSchemaParser::parseDefaultValue(StringRef &Value) {
  // Scans to the next ',' or ')' outside brackets and string literals. Open
  // brackets are tracked on an explicit stack of expected closers, not by
  // recursion.
  skipSpace();
  size_t Start = Pos;
  std::string Closers;
  while (!atEnd()) {
    char C = Text[Pos];
    if (C == '"' || C == '\'') {
      size_t QuotePos = Pos++;
      while (!atEnd() && Text[Pos] != C)
        Pos += Text[Pos] == '\\' ? 2 : 1;
      if (atEnd())
        return errorAt(QuotePos,
                       "unterminated string literal in default value");
      ++Pos;
      continue;
    }
    if (C == '[' || C == '(' || C == '{') {
      Closers.push_back(C == '[' ? ']' : C == '(' ? ')' : '}');
    } else if (C == ']' || C == '}' || C == ')') {
      if (Closers.empty()) {
        if (C == ')')
          break;
        return errorAt(Pos,
                       Twine("unbalanced '") + Twine(C) + "' in default value");
      }
      if (C != Closers.back())
        return expected(Twine("'") + Twine(Closers.back()) +
                        "' in the default value");
      Closers.pop_back();
    } else if (C == ',' && Closers.empty()) {
      break;
    }
    ++Pos;
  }
  if (!Closers.empty())
    return expected(Twine("'") + Twine(Closers.back()) +
                    "' in the default value");
  Value = Text.slice(Start, Pos).rtrim(" \t\r\n");
  if (Value.empty())
    return expected("a default value after '='", Start);
  return Error::success();
}

Expected<OperatorSchema> parseOperatorSchema(StringRef Text,
                                             StringRef DefaultNamespace) {
  auto Owner = std::make_shared<const std::string>(Text.str());
  StringRef Stable = *Owner;
  return OperatorSchemaParser(Stable).parse(DefaultNamespace, std::move(Owner));
}

Expected<OperatorSchema> parseStaticOperatorSchema(StringRef StaticText,
                                                   StringRef DefaultNamespace) {
  return OperatorSchemaParser(StaticText).parse(DefaultNamespace, nullptr);
}

//===----------------------------------------------------------------------===//
// Python keywords
//===----------------------------------------------------------------------===//

bool isPythonKeyword(StringRef Word) {
  // Every keyword is two to eight letters; most names (`add_1`, `arg0_1`)
  // fail that without a look at the list.
  if (Word.size() < 2 || Word.size() > 8 || !all_of(Word, isAlpha))
    return false;
  static constexpr StringLiteral Keywords[] = {
      "False",  "None",   "True",    "and",      "as",       "assert", "async",
      "await",  "break",  "class",   "continue", "def",      "del",    "elif",
      "else",   "except", "finally", "for",      "from",     "global", "if",
      "import", "in",     "is",      "lambda",   "nonlocal", "not",    "or",
      "pass",   "raise",  "return",  "try",      "while",    "with",   "yield"};
  return is_contained(Keywords, Word);
}

} // namespace pt2ir
