//===- Registry.cpp - Everything a program is read and run against --------===//

#include "pt2ir/ir/Registry.h"

namespace pt2ir {

RegistrySlot::~RegistrySlot() = default;

Registry::Registry() = default;
Registry::~Registry() = default;

const std::shared_ptr<const Registry> &Registry::getDefault() {
  // Built once, thread-safely, and never changed afterwards.
  static const std::shared_ptr<const Registry> defaultRegistry =
      std::make_shared<const Registry>();
  return defaultRegistry;
}

std::string Registry::extensionTargetProblem(llvm::StringRef target) const {
  if (!target.starts_with("#"))
    return std::string();
  auto [ns, op] = target.drop_front().split(':');
  if (ns.empty() || op.empty() || op.contains(':'))
    return ("malformed extension target '" + target +
            "': expected '#<namespace>:<op_name>'")
        .str();
  const ExtensionHandler *handler = operators.getExtension(ns);
  if (!handler) {
    if (allowUnregistered)
      return std::string();
    std::string known;
    for (const std::string &n : operators.namespaces())
      if (operators.getExtension(n))
        known += (known.empty() ? "" : ", ") + n;
    return ("extension namespace '" + ns + "' of target '" + target +
            "' is not registered (registered extension namespaces: " +
            (known.empty() ? std::string("none") : known) +
            "); register its operators (pt2-opt --extension-schemas=FILE, "
            "or a plugin with --load-pass-plugin), or accept its targets "
            "unchecked with --allow-unregistered-extensions")
        .str();
  }
  if (!handler->getSchema(op))
    return ("extension namespace '" + ns + "' has no operator '" + op + "'").str();
  return std::string();
}

} // namespace pt2ir
