//===- Enums.cpp - Names of the schema enumerations -----------------------===//

#include "pt2ir/ir/Enums.h"

namespace pt2ir {

namespace {
struct ScalarTypeInfo {
  int64_t value;
  const char *name;
  const char *shortName;
  unsigned bytes;
};
} // namespace

static const ScalarTypeInfo ScalarTypes[] = {
    {0, "UNKNOWN", "unknown", 0},      {1, "BYTE", "u8", 1},
    {2, "CHAR", "i8", 1},              {3, "SHORT", "i16", 2},
    {4, "INT", "i32", 4},              {5, "LONG", "i64", 8},
    {6, "HALF", "f16", 2},             {7, "FLOAT", "f32", 4},
    {8, "DOUBLE", "f64", 8},           {9, "COMPLEXHALF", "c32", 4},
    {10, "COMPLEXFLOAT", "c64", 8},    {11, "COMPLEXDOUBLE", "c128", 16},
    {12, "BOOL", "bool", 1},           {13, "BFLOAT16", "bf16", 2},
    {28, "UINT16", "u16", 2},          {29, "FLOAT8E4M3FN", "f8e4m3fn", 1},
    {30, "FLOAT8E5M2", "f8e5m2", 1},   {31, "FLOAT8E4M3FNUZ", "f8e4m3fnuz", 1},
    {32, "FLOAT8E5M2FNUZ", "f8e5m2fnuz", 1},
    {33, "FLOAT8E8M0FNU", "f8e8m0fnu", 1},
    {34, "UINT32", "u32", 4},          {35, "UINT64", "u64", 8},
};

static const ScalarTypeInfo *findScalarType(int64_t v) {
  for (const auto &info : ScalarTypes)
    if (info.value == v)
      return &info;
  return nullptr;
}

llvm::StringRef scalarTypeName(int64_t v) {
  const auto *info = findScalarType(v);
  return info ? info->name : "";
}

llvm::StringRef scalarTypeShortName(int64_t v) {
  const auto *info = findScalarType(v);
  return info ? info->shortName : "";
}

unsigned scalarTypeByteSize(int64_t v) {
  const auto *info = findScalarType(v);
  return info ? info->bytes : 0;
}

llvm::StringRef layoutName(int64_t v) {
  static const char *Names[] = {"Unknown",   "SparseCoo", "SparseCsr",
                                "SparseCsc", "SparseBsr", "SparseBsc",
                                "_mkldnn",   "Strided"};
  if (v < 0 || v > 7)
    return "";
  return Names[v];
}

llvm::StringRef memoryFormatName(int64_t v) {
  static const char *Names[] = {"Unknown", "ContiguousFormat", "ChannelsLast",
                                "ChannelsLast3d", "PreserveFormat"};
  if (v < 0 || v > 4)
    return "";
  return Names[v];
}

llvm::StringRef argumentKindName(int64_t v) {
  static const char *Names[] = {"UNKNOWN", "POSITIONAL", "KEYWORD"};
  if (!isValidArgumentKind(v))
    return "";
  return Names[v];
}

} // namespace pt2ir
