//===- TreespecNamedtuple.h - Namedtuple fields and adapter -----*- C++ -*-===//
//
// A treespec names a namedtuple only by its class (`"mymod.Point"`); the
// field names live beside it in `GraphModule.treespec_namedtuple_fields`
// (`{"mymod.Point": {"field_names": ["x", "y"]}}`), recorded when the program
// was saved. This file holds that side table, fills it from specs the way
// torch's serializer does, and adapts values of a namedtuple class that has
// gained fields since the program was saved: the added fields are dropped and
// the rest are put back in the saved order.
//
// It does not read or write whole programs; callers hand it the JSON text of
// `treespec_namedtuple_fields` and the parsed specs.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_TREESPEC_TREESPECNAMEDTUPLE_H
#define PT2IR_TREESPEC_TREESPECNAMEDTUPLE_H

#include "pt2ir/treespec/Treespec.h"
#include "pt2ir/treespec/TreespecFlatten.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace pt2ir {

/// `treespec_namedtuple_fields`: namedtuple class name -> field names, in
/// insertion order.
class NamedtupleFieldTable {
public:
  struct Entry {
    std::string TypeName;
    std::vector<std::string> Fields;
  };

  /// Records `fields` for `typeName`. Recording the same fields again is a
  /// no-op; different fields for a known name are an error (as in torch's
  /// serializer).
  llvm::Error add(llvm::StringRef typeName, llvm::ArrayRef<std::string> fields);

  /// Returns the recorded fields of `typeName`, or null.
  const std::vector<std::string> *lookup(llvm::StringRef typeName) const;

  llvm::ArrayRef<Entry> entries() const { return table; }
  bool empty() const { return table.empty(); }
  size_t size() const { return table.size(); }

  /// Reads the schema form `{"T": {"field_names": ["a", ...]}, ...}` from
  /// JSON text.
  static llvm::Expected<NamedtupleFieldTable> fromJson(llvm::StringRef json);

  /// Writes the schema form with json.dumps formatting.
  std::string toJson() const;

private:
  std::vector<Entry> table;
  llvm::StringMap<size_t> indexByName;
};

/// Walks `spec` and records the fields of every namedtuple node it names, as
/// torch's `serialize_treespec` does. Field names come from the registry (or
/// from a legacy context that carries them); a namedtuple whose registered
/// field count differs from the node's child count is an error.
llvm::Error collectNamedtupleFields(const TreeSpec &spec,
                                    const TreespecTypeRegistry &registry,
                                    NamedtupleFieldTable &table);

/// Registers every class of `table` that `registry` does not know yet as a
/// namedtuple with the recorded fields. Classes already registered keep their
/// (possibly newer) fields; adapt values with adaptToSavedSpec.
llvm::Error registerSavedNamedtuples(const NamedtupleFieldTable &table,
                                     TreespecTypeRegistry &registry);

/// How the fields of a namedtuple class as it is now line up with the fields
/// it had when a spec was saved.
struct NamedtupleFieldMapping {
  std::string TypeName;
  std::vector<std::string> SavedFields;
  std::vector<std::string> CurrentFields;
  /// For each current field, its position among the saved fields, or
  /// std::nullopt for a field added since (it is dropped).
  std::vector<std::optional<size_t>> CurrentToSaved;
  /// For each saved position, the index of the current field that fills it.
  std::vector<size_t> SavedToCurrent;

  /// The current fields that did not exist when the spec was saved.
  std::vector<std::string> addedFields() const;
};

/// Maps `currentFields` onto `savedFields`. A saved field that no longer
/// exists is an error naming it.
llvm::Expected<NamedtupleFieldMapping>
mapNamedtupleFields(llvm::StringRef typeName,
                    llvm::ArrayRef<std::string> savedFields,
                    llvm::ArrayRef<std::string> currentFields);

/// Maps `currentFields` onto the fields of the saved namedtuple node
/// `savedNode` (a namedtuple node of a parsed spec); the saved field names
/// come from `saved` or from a legacy context.
llvm::Expected<NamedtupleFieldMapping>
mapNamedtupleFields(const TreeSpec &savedNode,
                    const NamedtupleFieldTable &saved,
                    llvm::ArrayRef<std::string> currentFields);

/// The inputs of a saved program, computed from a value of today's classes.
struct SavedSpecInputs {
  /// The current value rebuilt in the saved layout: every namedtuple drops
  /// the fields added since the spec was saved and lists the rest in the
  /// saved order.
  PyTreeValue Value;
  /// The values at the saved spec's leaves, in order: the saved program's
  /// flat inputs.
  std::vector<PyTreeValue> Leaves;
  /// For each saved leaf position, the index of the flat input (of `current`
  /// flattened with today's registry) that fills it. Inputs that appear in no
  /// entry belong to added fields.
  std::vector<size_t> SavedToCurrentInput;
};

/// Matches `current` (flattenable with today's `registry`) against
/// `savedSpec`, adapting namedtuples through `saved` field lists. Structure
/// that does not match the spec, a saved field that no longer exists, or a
/// saved input with no current counterpart is an error naming the place.
llvm::Expected<SavedSpecInputs>
adaptToSavedSpec(const PyTreeValue &current, const TreeSpec &savedSpec,
                 const NamedtupleFieldTable &saved,
                 const TreespecTypeRegistry &registry);

} // namespace pt2ir

#endif
