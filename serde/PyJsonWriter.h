//===- PyJsonWriter.h - JSON text exactly as Python's json.dumps --*- C++ -*-===//
//
// torch writes every serialized program with Python's `json.dumps` defaults:
// `", "` and `": "` separators, ASCII-only output with lowercase `\uXXXX`
// escapes (DEL included), and floats as `float.__repr__`. This writer
// reproduces those bytes so that read-then-write is an exact round trip.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_SERDE_PYJSONWRITER_H
#define PT2IR_SERDE_PYJSONWRITER_H

#include "llvm/ADT/StringRef.h"
#include <rapidjson/document.h>
#include <cstdint>
#include <string>

namespace pt2ir {

/// Appends `s` to `out` as a JSON string literal (quotes included) with
/// Python's `ensure_ascii=True` escaping. Input is UTF-8; code points above
/// U+FFFF become surrogate pairs. Lone surrogates encoded as WTF-8 (ED A0..BF
/// xx) are escaped back to `\udXXX`.
void appendPyJsonString(std::string &out, llvm::StringRef s);

/// Appends `v` as Python's `repr(float)` does: shortest round-trip digits,
/// `1.0` rather than `1`, `1e-05`, `1e+16`. Non-finite values are appended as
/// the bare tokens `Infinity`, `-Infinity` and `NaN`; callers that follow
/// torch's schema write them as strings via appendPyJsonFloatField.
void appendPyFloatRepr(std::string &out, double v);

/// Appends a schema float the way torch's serializer does: finite values as
/// numbers, non-finite values as the strings "Infinity", "-Infinity", "NaN".
void appendPyJsonFloatField(std::string &out, double v);

/// Appends a decimal integer.
void appendInt(std::string &out, int64_t v);

/// Appends any RapidJSON value with json.dumps formatting. Used for JSON the
/// schema does not describe (unknown fields, metadata payloads).
void appendPyJsonValue(std::string &out, const rapidjson::Value &v);

/// Returns `v` dumped with json.dumps formatting.
std::string pyJsonDumps(const rapidjson::Value &v);

} // namespace pt2ir

#endif
