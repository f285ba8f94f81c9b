//===- PyJsonWriter.h - JSON text exactly as Python's json.dumps --*- C++ -*-===//
//
// torch writes every serialized program with Python's `json.dumps` defaults:
// `", "` and `": "` separators, ASCII-only output with lowercase `\uXXXX`
// escapes (DEL included), and floats as `float.__repr__`. This writer
// reproduces those bytes so that read-then-write is an exact round trip.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_JSON_PYJSONWRITER_H
#define PT2IR_JSON_PYJSONWRITER_H

#include "pt2ir/ir/PyRepr.h"
#include "llvm/ADT/StringRef.h"
#include <rapidjson/document.h>
#include <cstdint>
#include <string>

namespace pt2ir {

/// Appends any RapidJSON value with json.dumps formatting. Used for JSON the
/// schema does not describe (unknown fields, metadata payloads).
void appendPyJsonValue(std::string &out, const rapidjson::Value &v);

/// Returns `v` dumped with json.dumps formatting.
std::string pyJsonDumps(const rapidjson::Value &v);

} // namespace pt2ir

#endif
