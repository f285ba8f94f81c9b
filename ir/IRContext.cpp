//===- IRContext.cpp - Interned strings and IR storage --------------------===//

#include "pt2ir/ir/IRContext.h"
#include "pt2ir/ir/IRListener.h"
#include "pt2ir/ir/Registry.h"
#include "pt2ir/ir/Value.h"

#include <cstring>

namespace pt2ir {

IRContext::IRContext(std::shared_ptr<const Registry> r)
    : registry(r ? std::move(r) : Registry::getDefault()) {}

IRContext::~IRContext() = default;

IRListener::~IRListener() = default;

llvm::StringRef IRContext::intern(llvm::StringRef s) {
  // One hash look-up: insert the caller's string, and when it is new, point
  // the entry at our copy (equal bytes, so its hash and place stay valid).
  auto [it, inserted] = strings.insert(s);
  if (!inserted)
    return *it;
  char *copy = allocator.Allocate<char>(s.size() + 1);
  if (!s.empty())
    std::memcpy(copy, s.data(), s.size());
  copy[s.size()] = '\0';
  llvm::StringRef saved(copy, s.size());
  const_cast<llvm::StringRef &>(*it) = saved;
  return saved;
}

Use *IRContext::allocateUse() {
  if (freeUses) {
    Use *u = freeUses;
    freeUses = u->next;
    *u = Use();
    return u;
  }
  return new (allocator.Allocate<Use>()) Use();
}

void IRContext::releaseUse(Use *use) {
  if (use->hasExtras)
    useExtras.erase(use);
  use->hasExtras = false;
  use->next = freeUses;
  freeUses = use;
}

const ExtraFields *IRContext::getUseExtras(const Use *use) const {
  if (!use->hasExtras)
    return nullptr;
  auto it = useExtras.find(use);
  return it == useExtras.end() ? nullptr : &it->second;
}

void IRContext::setUseExtras(Use *use, ExtraFields extras) {
  use->hasExtras = !extras.empty();
  if (!use->hasExtras) {
    useExtras.erase(use);
    return;
  }
  useExtras[use] = std::move(extras);
}

} // namespace pt2ir
