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

} // namespace pt2ir
