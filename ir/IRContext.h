//===- IRContext.h - Owner of interned strings and IR storage ----*- C++ -*-===//
//
// Every program owns one IRContext: the string pool that interns names,
// targets and metadata values, the arena that holds values and uses, and the
// Registry (ir/Registry.h) the program was read or built with, which every
// later stage consults for operator schemas and passes.
// There is no global state, so separate programs can live on separate
// threads. One context must not be used from two threads at once.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_IR_IRCONTEXT_H
#define PT2IR_IR_IRCONTEXT_H

#include "pt2ir/ir/ExtraFields.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/xxhash.h"

#include <memory>

namespace pt2ir {

class IRListener;
class Registry;
class Use;

/// Interns strings and allocates IR objects for one program.
class IRContext {
public:
  /// A context whose program uses `registry` (null: Registry::getDefault()).
  explicit IRContext(std::shared_ptr<const Registry> registry = nullptr);
  ~IRContext();
  IRContext(const IRContext &) = delete;
  IRContext &operator=(const IRContext &) = delete;

  /// Returns the unique copy of `s`; equal strings share storage, so interned
  /// strings can be compared by pointer.
  llvm::StringRef intern(llvm::StringRef s);

  /// Allocates a fresh, unlinked use slot.
  Use *allocateUse();
  /// Returns a use slot to the free list. The use must be unlinked.
  void releaseUse(Use *use);

  /// Unknown JSON keys of the leaf struct (TensorArgument, TokenArgument,
  /// CustomObjArgument) that `use` was read from, or null. Files of a newer
  /// schema minor may carry them; they are written back in place. Kept here
  /// rather than in every Use since almost no use has any.
  const ExtraFields *getUseExtras(const Use *use) const;
  /// Sets (or, when `extras` is empty, clears) the unknown keys of `use`.
  void setUseExtras(Use *use, ExtraFields extras);

  llvm::BumpPtrAllocator &getAllocator() { return allocator; }

  /// The registry of operators, passes and treespec types this program uses.
  const Registry &getRegistry() const { return *registry; }
  const std::shared_ptr<const Registry> &getRegistryPtr() const {
    return registry;
  }

  /// The listener told when nodes and graphs of this context are deleted
  /// (ir/IRListener.h), or null. Not owned.
  IRListener *getListener() const { return listener; }
  void setListener(IRListener *l) { listener = l; }

private:
  std::shared_ptr<const Registry> registry;
  IRListener *listener = nullptr;
  // Interning is done here rather than with llvm::UniqueStringSaver so that
  // every allocation from `allocator` is made by code compiled with the same
  // sanitizer settings (the prebuilt LLVMSupport is not instrumented).
  llvm::BumpPtrAllocator allocator;
  /// Hashes with xxh3, which is several times faster than the default
  /// StringRef hash on the long stack-trace strings programs carry.
  struct InternedStringInfo : llvm::DenseMapInfo<llvm::StringRef> {
    static unsigned getHashValue(llvm::StringRef s) {
      return static_cast<unsigned>(llvm::xxh3_64bits(s));
    }
  };
  llvm::DenseSet<llvm::StringRef, InternedStringInfo> strings;
  Use *freeUses = nullptr;
  llvm::DenseMap<const Use *, ExtraFields> useExtras;
};

} // namespace pt2ir

#endif
