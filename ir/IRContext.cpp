//===- IRContext.cpp - Interned strings and IR storage --------------------===//

#include "ir/IRContext.h"
#include "ir/Value.h"

namespace pt2ir {

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
