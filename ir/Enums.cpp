//===- Enums.cpp - Names of the schema enumerations -----------------------===//

#include "pt2ir/ir/Enums.h"

namespace pt2ir {

namespace {
struct ScalarTypeInfo {
  int64_t value;
  const char *name;
  const char *shortName;
  /// torch's attribute name (`torch.float32`).
  const char *torchName;
  unsigned bytes;
};
} // namespace

static const ScalarTypeInfo ScalarTypes[] = {
    {0, "UNKNOWN", "unknown", "unknown", 0},
    {1, "BYTE", "u8", "uint8", 1},
    {2, "CHAR", "i8", "int8", 1},
    {3, "SHORT", "i16", "int16", 2},
    {4, "INT", "i32", "int32", 4},
    {5, "LONG", "i64", "int64", 8},
    {6, "HALF", "f16", "float16", 2},
    {7, "FLOAT", "f32", "float32", 4},
    {8, "DOUBLE", "f64", "float64", 8},
    {9, "COMPLEXHALF", "c32", "complex32", 4},
    {10, "COMPLEXFLOAT", "c64", "complex64", 8},
    {11, "COMPLEXDOUBLE", "c128", "complex128", 16},
    {12, "BOOL", "bool", "bool", 1},
    {13, "BFLOAT16", "bf16", "bfloat16", 2},
    {28, "UINT16", "u16", "uint16", 2},
    {29, "FLOAT8E4M3FN", "f8e4m3fn", "float8_e4m3fn", 1},
    {30, "FLOAT8E5M2", "f8e5m2", "float8_e5m2", 1},
    {31, "FLOAT8E4M3FNUZ", "f8e4m3fnuz", "float8_e4m3fnuz", 1},
    {32, "FLOAT8E5M2FNUZ", "f8e5m2fnuz", "float8_e5m2fnuz", 1},
    {33, "FLOAT8E8M0FNU", "f8e8m0fnu", "float8_e8m0fnu", 1},
    {34, "UINT32", "u32", "uint32", 4},
    {35, "UINT64", "u64", "uint64", 8},
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

llvm::StringRef scalarTypeTorchName(int64_t v) {
  const auto *info = findScalarType(v);
  return info ? info->torchName : "";
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
