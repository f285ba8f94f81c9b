//===- OperatorRegistry.h - Operator schema lookup --------------*- C++ -*-===//
//
// Part of pt2ir.
//
//===----------------------------------------------------------------------===//
//
// OperatorRegistry resolves operator names and serialized target strings to
// schemas. Every registry sees the built-in aten table (generated from
// native_functions.yaml into ir/AtenOperators.inc; immutable, shared by all
// registries, built once on first use in a thread-safe way). On top of that a
// registry instance holds its own custom operator schemas (registered from
// schema strings, like torch.library definitions) and ExecuTorch-style
// extension handlers that resolve `#<namespace>:<op_name>` targets.
//
// This file deliberately does not resolve higher-order operators
// (`torch.ops.higher_order.*`) or Python builtins (`_operator.add`): those
// have no schema here. A registry is not internally synchronized: concurrent
// const lookups are safe, registration needs exclusive access.
//
//===----------------------------------------------------------------------===//

#ifndef PT2IR_IR_OPERATORREGISTRY_H
#define PT2IR_IR_OPERATORREGISTRY_H

#include "pt2ir/ir/OperatorSchema.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace pt2ir {

/// Resolves the operators of one extension namespace, the C++ counterpart of
/// torch.export's ExtensionHandler. Targets of the form
/// `#<namespace>:<op_name>` are resolved by the handler registered for
/// `<namespace>`.
class ExtensionHandler {
public:
  virtual ~ExtensionHandler();

  /// Returns the namespace this handler serves (no ':' allowed).
  virtual llvm::StringRef getNamespace() const = 0;

  /// Returns the schema of operator \p OpName (the part after ':' in a
  /// target), or null if the handler does not know it. The schema must stay
  /// valid as long as the handler lives.
  virtual const OperatorSchema *getSchema(llvm::StringRef OpName) const = 0;
};

/// An ExtensionHandler backed by a fixed list of schema strings. An operator
/// `my_op` is found by op name "my_op" (or "my_op.default"); an overload
/// `my_op.fast` by op name "my_op.fast".
class SchemaTableExtension final : public ExtensionHandler {
public:
  /// Parses \p Schemas into a handler for \p Namespace. Each schema may be
  /// unqualified or qualified with \p Namespace; any other namespace, a parse
  /// error or a repeated operator is an error.
  static llvm::Expected<std::unique_ptr<SchemaTableExtension>>
  create(llvm::StringRef Namespace, llvm::ArrayRef<llvm::StringRef> Schemas);

  llvm::StringRef getNamespace() const override { return Namespace; }
  const OperatorSchema *getSchema(llvm::StringRef OpName) const override;

  /// Returns the number of operators in the table.
  size_t size() const { return Schemas.size(); }

private:
  explicit SchemaTableExtension(std::string Ns) : Namespace(std::move(Ns)) {}

  std::string Namespace;
  /// Keyed by "name.overload" with "default" for an unnamed overload.
  llvm::StringMap<std::unique_ptr<OperatorSchema>> Schemas;
};

/// Resolves operator names and target strings to schemas; see the file
/// comment for what it covers.
class OperatorRegistry {
public:
  /// Creates a registry that sees the built-in aten table and nothing else.
  OperatorRegistry();
  ~OperatorRegistry();
  OperatorRegistry(OperatorRegistry &&);
  OperatorRegistry &operator=(OperatorRegistry &&);
  OperatorRegistry(const OperatorRegistry &) = delete;
  OperatorRegistry &operator=(const OperatorRegistry &) = delete;

  /// Looks up a qualified operator name: "aten::add.Tensor", "aten::relu"
  /// (the `default` overload, same as "aten::relu.default"),
  /// "mylib::custom_relu". Returns null for unknown or unqualified names.
  /// Extension operators are not reachable by this form; see lookupTarget.
  const OperatorSchema *lookup(llvm::StringRef QualifiedName) const;

  /// Looks up a serialized node target: `torch.ops.<ns>.<op>.<overload>`
  /// (the overload is required) or `#<namespace>:<op_name>` for extension
  /// operators. Returns null for anything else or anything unknown.
  const OperatorSchema *lookupTarget(llvm::StringRef Target) const;

  /// Parses \p SchemaString (which must be qualified, e.g.
  /// "mylib::custom_relu(Tensor x) -> Tensor") and registers it with \p Tags.
  /// Fails on parse errors, an operator that already exists (built-in or
  /// registered), or a namespace that belongs to an extension handler.
  llvm::Error registerSchema(llvm::StringRef SchemaString,
                             OperatorTagSet Tags = {});

  /// Registers an already-parsed schema, with the same rules as above.
  llvm::Error registerSchema(OperatorSchema Schema);

  /// Registers \p Handler for its namespace. Refuses a null handler, an empty
  /// namespace or one containing ':', the reserved namespaces `torch`,
  /// `builtins` and `aten`, a namespace that already has a handler, and one
  /// used by custom operators registered with registerSchema.
  llvm::Error registerExtension(std::unique_ptr<ExtensionHandler> Handler);

  /// Returns the handler for extension namespace \p Namespace, or null.
  const ExtensionHandler *getExtension(llvm::StringRef Namespace) const;

  /// Returns every namespace known to this registry, sorted: "aten", the
  /// namespaces of registered schemas and those of extension handlers.
  std::vector<std::string> namespaces() const;

  /// Returns the built-in aten schemas, in table order. Shared by all
  /// registries; built on the first call.
  static llvm::ArrayRef<OperatorSchema> builtinSchemas();

private:
  const OperatorSchema *lookupParts(llvm::StringRef Namespace,
                                    llvm::StringRef Name,
                                    llvm::StringRef Overload) const;

  /// Custom schemas keyed by "ns::name.overload".
  llvm::StringMap<std::unique_ptr<OperatorSchema>> CustomSchemas;
  /// Namespaces of custom schemas (values unused).
  llvm::StringMap<char> CustomNamespaces;
  /// Extension handlers keyed by namespace.
  llvm::StringMap<std::unique_ptr<ExtensionHandler>> Extensions;
};

} // namespace pt2ir

#endif // PT2IR_IR_OPERATORREGISTRY_H
