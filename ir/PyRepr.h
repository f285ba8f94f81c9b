//===- PyRepr.h - Python's string escaping and float repr ---------*- C++ -*-===//
//
// The primitives of Python's `json.dumps` output that the IR needs too
// (metadata and the text form): string literals with `ensure_ascii=True`
// escaping and floats as `float.__repr__`.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_IR_PYREPR_H
#define PT2IR_IR_PYREPR_H

#include "llvm/ADT/StringRef.h"
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

} // namespace pt2ir

#endif
