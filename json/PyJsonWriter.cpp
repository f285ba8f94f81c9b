//===- PyJsonWriter.cpp - JSON text exactly as Python's json.dumps --------===//

#include "pt2ir/json/PyJsonWriter.h"

#include <fmt/format.h>

namespace pt2ir {

void appendPyJsonValue(std::string &out, const rapidjson::Value &v) {
  switch (v.GetType()) {
  case rapidjson::kNullType:
    out += "null";
    return;
  case rapidjson::kFalseType:
    out += "false";
    return;
  case rapidjson::kTrueType:
    out += "true";
    return;
  case rapidjson::kStringType:
    appendPyJsonString(out, llvm::StringRef(v.GetString(), v.GetStringLength()));
    return;
  case rapidjson::kNumberType:
    if (v.IsInt64())
      appendInt(out, v.GetInt64());
    else if (v.IsUint64())
      fmt::format_to(std::back_inserter(out), "{}", v.GetUint64());
    else
      appendPyFloatRepr(out, v.GetDouble());
    return;
  case rapidjson::kArrayType: {
    out += '[';
    bool first = true;
    for (const auto &e : v.GetArray()) {
      if (!first)
        out += ", ";
      first = false;
      appendPyJsonValue(out, e);
    }
    out += ']';
    return;
  }
  case rapidjson::kObjectType: {
    out += '{';
    bool first = true;
    for (const auto &m : v.GetObject()) {
      if (!first)
        out += ", ";
      first = false;
      appendPyJsonString(out, llvm::StringRef(m.name.GetString(), m.name.GetStringLength()));
      out += ": ";
      appendPyJsonValue(out, m.value);
    }
    out += '}';
    return;
  }
  }
}

std::string pyJsonDumps(const rapidjson::Value &v) {
  std::string out;
  appendPyJsonValue(out, v);
  return out;
}

} // namespace pt2ir
