//===- Enums.h - Enumerations of the serialized schema -----------*- C++ -*-===//
//
// ScalarType, Layout, MemoryFormat and ArgumentKind with the integer values
// the JSON uses (schema 8.19 plus UINT32/UINT64 of 8.20), and their names.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_IR_ENUMS_H
#define PT2IR_IR_ENUMS_H

#include "llvm/ADT/StringRef.h"
#include <cstdint>

namespace pt2ir {

enum class ScalarType : int64_t {
  UNKNOWN = 0, BYTE = 1, CHAR = 2, SHORT = 3, INT = 4, LONG = 5, HALF = 6,
  FLOAT = 7, DOUBLE = 8, COMPLEXHALF = 9, COMPLEXFLOAT = 10,
  COMPLEXDOUBLE = 11, BOOL = 12, BFLOAT16 = 13, UINT16 = 28,
  FLOAT8E4M3FN = 29, FLOAT8E5M2 = 30, FLOAT8E4M3FNUZ = 31,
  FLOAT8E5M2FNUZ = 32, FLOAT8E8M0FNU = 33, UINT32 = 34, UINT64 = 35,
};

enum class Layout : int64_t {
  Unknown = 0, SparseCoo = 1, SparseCsr = 2, SparseCsc = 3, SparseBsr = 4,
  SparseBsc = 5, _mkldnn = 6, Strided = 7,
};

enum class MemoryFormat : int64_t {
  Unknown = 0, ContiguousFormat = 1, ChannelsLast = 2, ChannelsLast3d = 3,
  PreserveFormat = 4,
};

enum class ArgumentKind : int64_t { UNKNOWN = 0, POSITIONAL = 1, KEYWORD = 2 };

/// Schema name of a ScalarType value (`FLOAT`), or empty if not a member.
llvm::StringRef scalarTypeName(int64_t v);
/// torch's short dtype name (`f32`, `i64`, `bf16`) for the text form.
llvm::StringRef scalarTypeShortName(int64_t v);
/// torch's attribute name (`float32` as in `torch.float32`), or empty if not
/// a member.
llvm::StringRef scalarTypeTorchName(int64_t v);
/// Element size in bytes, or 0 when unknown.
unsigned scalarTypeByteSize(int64_t v);
llvm::StringRef layoutName(int64_t v);
llvm::StringRef memoryFormatName(int64_t v);
llvm::StringRef argumentKindName(int64_t v);

inline llvm::StringRef scalarTypeName(ScalarType t) { return scalarTypeName(int64_t(t)); }
inline llvm::StringRef scalarTypeShortName(ScalarType t) { return scalarTypeShortName(int64_t(t)); }
inline unsigned scalarTypeByteSize(ScalarType t) { return scalarTypeByteSize(int64_t(t)); }
inline llvm::StringRef layoutName(Layout l) { return layoutName(int64_t(l)); }
inline llvm::StringRef memoryFormatName(MemoryFormat f) { return memoryFormatName(int64_t(f)); }

inline bool isValidScalarType(int64_t v) { return !scalarTypeName(v).empty(); }
inline bool isValidLayout(int64_t v) { return !layoutName(v).empty(); }
inline bool isValidMemoryFormat(int64_t v) { return !memoryFormatName(v).empty(); }
inline bool isValidArgumentKind(int64_t v) { return v >= 0 && v <= 2; }

} // namespace pt2ir

#endif
