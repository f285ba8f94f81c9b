//===- ExtraFields.h - JSON keys the schema does not know ---------*- C++ -*-===//
//
// A file from a newer schema minor may carry keys this build does not know.
// They are kept as their json.dumps text together with the position they had
// relative to the known fields, so the writer puts each back where it was.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_IR_EXTRAFIELDS_H
#define PT2IR_IR_EXTRAFIELDS_H

#include <memory>
#include <string>
#include <vector>

namespace pt2ir {

/// One unknown JSON member of a schema struct.
struct ExtraField {
  /// Index in declaration order of the known field this key followed in the
  /// input, or -1 when it came before all known fields.
  int afterField;
  std::string key;
  /// The value, already in json.dumps form.
  std::string json;
};

/// The unknown members of one struct; empty (and pointer-sized) in the
/// common case.
class ExtraFields {
public:
  ExtraFields() = default;
  ExtraFields(const ExtraFields &other) { *this = other; }
  ExtraFields &operator=(const ExtraFields &other) {
    if (this != &other)
      fields = other.fields ? std::make_unique<std::vector<ExtraField>>(*other.fields)
                            : nullptr;
    return *this;
  }
  ExtraFields(ExtraFields &&) = default;
  ExtraFields &operator=(ExtraFields &&) = default;

  bool empty() const { return !fields || fields->empty(); }
  void add(int afterField, std::string key, std::string json) {
    if (!fields)
      fields = std::make_unique<std::vector<ExtraField>>();
    fields->push_back({afterField, std::move(key), std::move(json)});
  }
  const std::vector<ExtraField> &get() const {
    static const std::vector<ExtraField> Empty;
    return fields ? *fields : Empty;
  }

private:
  std::unique_ptr<std::vector<ExtraField>> fields;
};

} // namespace pt2ir

#endif
