//===- IRContext.cpp - Interned strings and IR storage --------------------===//

#include "ir/IRContext.h"
#include "ir/Value.h"

#include <cstring>

namespace pt2ir {

llvm::StringRef IRContext::intern(llvm::StringRef s) {
  auto it = strings.find(s);
  if (it != strings.end())
    return *it;
  char *copy = allocator.Allocate<char>(s.size() + 1);
  if (!s.empty())
    std::memcpy(copy, s.data(), s.size());
  copy[s.size()] = '\0';
  llvm::StringRef saved(copy, s.size());
  strings.insert(saved);
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
  use->next = freeUses;
  freeUses = use;
}

} // namespace pt2ir
