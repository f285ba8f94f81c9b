//===- FuzzTreespec.cpp - Fuzz the treespec parser and dumper -------------===//
//
// Parses arbitrary bytes as a `treespec_dumps` string against a registry that
// holds the built-in node types plus one custom type, one dataclass and one
// namedtuple class. For every accepted spec:
//
//   - dumping succeeds, and the dump parses back to an equal tree;
//   - dumping is a fixed point: dump(parse(dump(s))) == dump(s);
//   - the cached leaf/node/depth counts match a walk of the tree;
//   - the lenient parser (parseTreespecAllowingUnregistered) reads it to
//     the same tree and finds no unregistered name.
//
// Every input also goes through the lenient parser against the built-in
// types alone, which must not crash, hang or leak whatever it names.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/fuzz/FuzzSupport.h"
#include "pt2ir/treespec/Treespec.h"

namespace {

const pt2ir::TreespecTypeRegistry &fuzzRegistry() {
  static const pt2ir::TreespecTypeRegistry registry = [] {
    pt2ir::TreespecTypeRegistry r;
    llvm::cantFail(r.registerType("fuzz.Custom"));
    llvm::cantFail(r.registerDataclass("fuzz.Point", {"x", "y"}));
    llvm::cantFail(r.registerNamedtuple("fuzz.Pair", {"first", "second"}));
    return r;
  }();
  return registry;
}

/// Recounts what the constructor cached, with an explicit stack.
void checkCachedCounts(const pt2ir::TreeSpec &root) {
  struct Item {
    const pt2ir::TreeSpec *spec;
    size_t level;
  };
  std::vector<Item> work{{&root, 1}};
  size_t leaves = 0, nodes = 0, depth = 0;
  while (!work.empty()) {
    Item item = work.back();
    work.pop_back();
    ++nodes;
    depth = std::max(depth, item.level);
    if (item.spec->isLeaf())
      ++leaves;
    for (const pt2ir::TreeSpec &child : item.spec->getChildren())
      work.push_back({&child, item.level + 1});
  }
  if (leaves != root.getNumLeaves() || nodes != root.getNumNodes() ||
      depth != root.getDepth())
    pt2ir::fuzz::oracleFailure("cached treespec counts disagree with a walk");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace pt2ir;
  const TreespecTypeRegistry &registry = fuzzRegistry();
  static const TreespecTypeRegistry builtinsOnly;
  auto lenientBuiltins =
      parseTreespecAllowingUnregistered(fuzz::asText(data, size), builtinsOnly);
  if (lenientBuiltins)
    checkCachedCounts(lenientBuiltins->Spec);
  else
    fuzz::ignoreError(lenientBuiltins.takeError());

  auto spec = parseTreespec(fuzz::asText(data, size), registry);
  if (!spec) {
    fuzz::ignoreError(spec.takeError());
    return 0;
  }
  checkCachedCounts(*spec);
  auto lenient =
      parseTreespecAllowingUnregistered(fuzz::asText(data, size), registry);
  if (!lenient) {
    std::string message = llvm::toString(lenient.takeError());
    fuzz::oracleFailure("the lenient parser refuses a valid treespec: " +
                        message);
  }
  if (lenient->Spec != *spec || !lenient->Unregistered.empty())
    fuzz::oracleFailure("the lenient parser reads a valid treespec "
                        "differently");
  auto dumped = dumpTreespec(*spec, registry);
  if (!dumped) {
    std::string message = llvm::toString(dumped.takeError());
    fuzz::oracleFailure("a parsed treespec cannot be dumped: " + message);
  }
  auto reparsed = parseTreespec(*dumped, registry);
  if (!reparsed) {
    std::string message = llvm::toString(reparsed.takeError());
    fuzz::oracleFailure("a dumped treespec does not parse: " + message);
  }
  if (*reparsed != *spec)
    fuzz::oracleFailure("parse(dump(spec)) differs from spec");
  auto redumped = dumpTreespec(*reparsed, registry);
  if (!redumped) {
    std::string message = llvm::toString(redumped.takeError());
    fuzz::oracleFailure("a re-parsed treespec cannot be dumped: " + message);
  }
  if (*redumped != *dumped)
    fuzz::oracleFailure("treespec dump is not a fixed point", *dumped,
                        *redumped);
  return 0;
}
