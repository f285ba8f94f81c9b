//===- BindRegistry.cpp - pt2ir.Registry and the module's enums -----------===//
//
// pt2ir.Registry (custom operator schemas and extension namespaces, copy on
// write, see Bindings.h), the module-level register_* functions on the
// default registry, and the ScalarType / MemoryFormat / Layout enums.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/python/Bindings.h"

#include "pt2ir/ir/Enums.h"
#include "pt2ir/python/Errors.h"

#include "llvm/ADT/StringRef.h"

#include <pybind11/stl.h>

namespace py = pybind11;

namespace pt2ir::python {

PyRegistry::PyRegistry(std::shared_ptr<const Registry> programRegistry)
    : frozen(std::move(programRegistry)), readOnly(true) {}

llvm::Error PyRegistry::replay(Registry &r) const {
  r.setAllowUnregisteredExtensions(allowUnregistered);
  for (const std::string &schema : operators)
    if (auto err = r.getOperators().registerSchema(schema))
      return err;
  for (const auto &[ns, schemas] : extensions) {
    std::vector<llvm::StringRef> refs(schemas.begin(), schemas.end());
    auto handler = SchemaTableExtension::create(ns, refs);
    if (!handler)
      return handler.takeError();
    if (auto err = r.getOperators().registerExtension(std::move(*handler)))
      return err;
  }
  return llvm::Error::success();
}

void PyRegistry::change(const std::function<llvm::Error(Registry &)> &fn) {
  if (readOnly)
    raise(ErrorKind::Registry,
          "this is a program's registry, which is read-only: register on a "
          "pt2ir.Registry (or with pt2ir.register_operator) before loading");
  // Programs hold `current`: change a copy, so they keep what they were
  // read with. On error the copy is dropped and nothing changed.
  std::shared_ptr<Registry> target = current;
  if (!target || target.use_count() > 1) {
    target = std::make_shared<Registry>();
    check(replay(*target), ErrorKind::Registry);
  }
  check(fn(*target), ErrorKind::Registry);
  current = std::move(target);
}

void PyRegistry::registerOperator(const std::string &schema) {
  change([&](Registry &r) { return r.getOperators().registerSchema(schema); });
  operators.push_back(schema);
}

void PyRegistry::registerExtension(const std::string &ns,
                                   const std::vector<std::string> &schemas) {
  change([&](Registry &r) -> llvm::Error {
    std::vector<llvm::StringRef> refs(schemas.begin(), schemas.end());
    auto handler = SchemaTableExtension::create(ns, refs);
    if (!handler)
      return handler.takeError();
    return r.getOperators().registerExtension(std::move(*handler));
  });
  extensions.emplace_back(ns, schemas);
}

void PyRegistry::setAllowUnregistered(bool allow) {
  change([&](Registry &r) {
    r.setAllowUnregisteredExtensions(allow);
    return llvm::Error::success();
  });
  allowUnregistered = allow;
}

bool PyRegistry::allowsUnregistered() const {
  return readOnly ? frozen->allowsUnregisteredExtensions() : allowUnregistered;
}

std::shared_ptr<const Registry> PyRegistry::get() {
  if (readOnly)
    return frozen;
  if (!current)
    return Registry::getDefault();
  return current;
}

const Registry &PyRegistry::view() { return *get(); }

const std::shared_ptr<PyRegistry> &defaultRegistry() {
  // Leaked on purpose: Python may tear the module down in any order.
  static auto *registry =
      new std::shared_ptr<PyRegistry>(std::make_shared<PyRegistry>());
  return *registry;
}

void bindEnums(py::module_ &m) {
  py::enum_<ScalarType> dtype(
      m, "ScalarType", "A tensor's element type, as the schema names it.");
  for (int64_t v = 0; v < 64; ++v)
    if (llvm::StringRef name = scalarTypeName(v); !name.empty())
      dtype.value(name.str().c_str(), ScalarType(v));
  py::enum_<MemoryFormat> format(m, "MemoryFormat");
  for (int64_t v = 0; v < 16; ++v)
    if (llvm::StringRef name = memoryFormatName(v); !name.empty())
      format.value(name.str().c_str(), MemoryFormat(v));
  py::enum_<Layout> layout(m, "Layout");
  for (int64_t v = 0; v < 16; ++v)
    if (llvm::StringRef name = layoutName(v); !name.empty())
      layout.value(name.str().c_str(), Layout(v));
}

static py::object schemaText(PyRegistry &r, const std::string &name) {
  const OperatorRegistry &ops = r.view().getOperators();
  const OperatorSchema *schema = ops.lookup(name);
  if (!schema)
    schema = ops.lookupTarget(name);
  if (!schema)
    return py::none();
  return py::str(schema->toString());
}

void bindRegistry(py::module_ &m) {
  py::class_<PyRegistry, std::shared_ptr<PyRegistry>>(
      m, "Registry",
      "Custom operator schemas and extension namespaces that programs are "
      "read, verified and changed against. A program keeps the registry it "
      "was loaded with; later registrations apply to programs loaded later.")
      .def(py::init<>())
      .def("register_operator", &PyRegistry::registerOperator,
           py::arg("schema"),
           "Registers a custom operator from its schema, "
           "`mylib::op(Tensor x) -> Tensor`; its nodes target "
           "`torch.ops.mylib.op.default`.")
      .def("register_extension", &PyRegistry::registerExtension,
           py::arg("namespace"), py::arg("schemas"),
           "Registers an extension namespace whose operators nodes target as "
           "`#namespace:op`.")
      .def_property("allow_unregistered_extensions",
                    &PyRegistry::allowsUnregistered,
                    &PyRegistry::setAllowUnregistered,
                    "Accept `#ns:op` targets of namespaces nobody registered.")
      .def_property_readonly("read_only", &PyRegistry::isReadOnly)
      .def(
          "has_operator",
          [](PyRegistry &r, const std::string &name) {
            return !schemaText(r, name).is_none();
          },
          py::arg("name"),
          "Whether `aten::add.Tensor`, `mylib::op` or a target such as "
          "`#ns:op` is known.")
      .def("schema", &schemaText, py::arg("name"),
           "The operator's schema text, or None.")
      .def_property_readonly("namespaces", [](PyRegistry &r) {
        return r.view().getOperators().namespaces();
      });

  m.def(
      "default_registry", []() { return defaultRegistry(); },
      "The registry load and loads use when given none.");
  m.def(
      "register_operator",
      [](const std::string &schema) {
        defaultRegistry()->registerOperator(schema);
      },
      py::arg("schema"), "Registry.register_operator on the default registry.");
  m.def(
      "register_extension",
      [](const std::string &ns, const std::vector<std::string> &schemas) {
        defaultRegistry()->registerExtension(ns, schemas);
      },
      py::arg("namespace"), py::arg("schemas"),
      "Registry.register_extension on the default registry.");
}

} // namespace pt2ir::python
