//===- TreespecChecks.cpp - The module call graph's treespecs -------------===//
//
// Checks the `in_spec`/`out_spec` strings of every module call signature
// with the treespec library (treespec/). The node types come from the
// program's registry (its TreespecTypeRegistry slot, filled by
// `--treespec-types`, a library user or a pass plugin; the built-in types
// when nobody declared any) plus the namedtuple classes the program lists in
// `treespec_namedtuple_fields`:
//  - module-call-graph-spec: a spec looks like a protocol-1 treespec
//    (`[<int>, ...]`, balanced, strings closed); the root's leaf counts
//    equal the number of user inputs and user outputs;
//  - treespec-invalid: a spec that looks like one parses, and every context
//    fits its node (the library's message, with the path inside the spec);
//    a namedtuple node has as many children as the program's
//    `treespec_namedtuple_fields` lists fields; every entry of that table
//    can be registered;
//  - treespec-unregistered-type (warning): a node type, dataclass or
//    namedtuple class that nothing registered (reported once per program,
//    where it first occurs); torch refuses to load such a program unless the
//    user's code registers the type first.
//
// It does not flatten values, does not look at the names of module call
// signatures (ProgramChecks.cpp), and does not compare a namedtuple class the
// user declared with the fields the program saved (a class may gain fields;
// treespec/TreespecNamedtuple.h adapts values).
//
//===----------------------------------------------------------------------===//

#include "pt2ir/verifier/Checks.h"

#include "pt2ir/treespec/Treespec.h"
#include "pt2ir/treespec/TreespecRegistry.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"

#include <utility>

namespace pt2ir::verifier {

namespace {

/// A cheap structural test: `[<int>, <json>]` with balanced brackets and
/// braces outside JSON strings. Returns an empty string when the text looks
/// like a treespec, else what is wrong.
std::string treespecShapeProblem(llvm::StringRef text) {
  llvm::StringRef s = text.trim();
  if (!s.consume_front("["))
    return "does not start with '['";
  s = s.ltrim();
  size_t digits = 0;
  while (digits < s.size() && llvm::isDigit(s[digits]))
    ++digits;
  if (digits == 0)
    return "does not start with a protocol number";
  s = s.drop_front(digits).ltrim();
  if (!s.consume_front(","))
    return "has no ',' after the protocol number";
  std::vector<char> stack{']'};
  bool inString = false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
      continue;
    }
    switch (c) {
    case '"':
      inString = true;
      break;
    case '[':
      stack.push_back(']');
      break;
    case '{':
      stack.push_back('}');
      break;
    case ']':
    case '}':
      if (stack.empty() || stack.back() != c)
        return "has unbalanced brackets";
      stack.pop_back();
      if (stack.empty() && i + 1 != s.size())
        return "has text after the closing ']'";
      break;
    default:
      break;
    }
  }
  if (inString)
    return "has an unterminated string";
  if (!stack.empty())
    return "is not closed";
  return "";
}

/// `children_spec[0].children_spec[2]`, or `root node`.
std::string nodePathInSpec(llvm::StringRef parent, size_t index) {
  std::string path = parent.str();
  if (!path.empty())
    path += '.';
  return path + "children_spec[" + std::to_string(index) + "]";
}

class TreespecChecker {
public:
  explicit TreespecChecker(VerifierContext &ctx)
      : ctx(ctx), ep(ctx.program()) {}

  void run() {
    const Registry &registry = ep.getRegistry();
    if (const auto *declared = registry.find<TreespecTypeRegistry>())
      types = *declared;
    registerSavedNamedtuples();
    const auto &entries = ep.graphModule.moduleCallGraph;
    for (size_t i = 0; i < entries.size(); ++i)
      if (entries[i].signature)
        checkEntry(i, *entries[i].signature, entries[i].fqn.empty());
  }

private:
  uint64_t entryOrder(size_t i) const {
    return ctx.sectionOrder(Section::ModuleCallGraph, i);
  }

  /// The program's `treespec_namedtuple_fields` counts as registration of
  /// its classes, unless the registry already declares the name (then the
  /// declaration wins, as in TreespecNamedtuple.h's registerSavedNamedtuples).
  void registerSavedNamedtuples() {
    const auto &table = ep.graphModule.treespecNamedtupleFields;
    size_t after = ep.graphModule.moduleCallGraph.size();
    for (size_t i = 0; i < table.size(); ++i) {
      llvm::StringRef name = table[i].first;
      std::vector<std::string> fields;
      for (llvm::StringRef field : table[i].second.fieldNames)
        fields.push_back(field.str());
      savedFieldCounts[name] = fields.size();
      if (types.lookupNamedtupleFields(name) || types.lookupType(name))
        continue;
      if (llvm::Error err = types.registerNamedtuple(name, fields))
        ctx.error("treespec-invalid",
                  "graph_module.treespec_namedtuple_fields." + name.str(), "",
                  ctx.sectionOrder(Section::ModuleCallGraph, after + i),
                  "namedtuple class '" + name +
                      "' of treespec_namedtuple_fields cannot be registered: " +
                      llvm::toString(std::move(err)));
    }
  }

  void checkEntry(size_t i, const ModuleCallSignature &sig, bool isRoot) {
    std::string path =
        "graph_module.module_call_graph[" + std::to_string(i) + "].signature";
    llvm::StringRef fqn = ep.graphModule.moduleCallGraph[i].fqn;
    std::string who =
        isRoot ? std::string("the root module") : "module '" + fqn.str() + "'";
    checkSpec(path + ".in_spec", entryOrder(i), "in_spec of " + who, sig.inSpec,
              isRoot, /*isInput=*/true);
    checkSpec(path + ".out_spec", entryOrder(i), "out_spec of " + who,
              sig.outSpec, isRoot, /*isInput=*/false);
  }

  void checkSpec(const std::string &path, uint64_t order,
                 const std::string &what, const std::string &text, bool isRoot,
                 bool isInput) {
    if (text.empty() && !isRoot)
      return;
    std::string problem = treespecShapeProblem(text);
    if (!problem.empty()) {
      ctx.error("module-call-graph-spec", path, "", order,
                what + " is not a treespec: it " + problem);
      return;
    }
    llvm::Expected<LenientTreespec> parsed =
        parseTreespecAllowingUnregistered(text, types);
    if (!parsed) {
      std::string message = llvm::toString(parsed.takeError());
      llvm::StringRef detail(message);
      detail.consume_front("treespec: ");
      ctx.error("treespec-invalid", path, "", order,
                what + " is not a valid treespec: " + detail);
      return;
    }
    for (const UnregisteredTreespecName &name : parsed->Unregistered)
      reportUnregistered(path, order, what, name);
    checkSavedNamedtuples(path, order, what, parsed->Spec);
    if (isRoot)
      checkLeafCount(path, order, what, parsed->Spec.getNumLeaves(), isInput);
  }

  void reportUnregistered(const std::string &path, uint64_t order,
                          const std::string &what,
                          const UnregisteredTreespecName &name) {
    std::string key = (name.IsNamedtupleClass ? "n" : "t") + name.Name;
    if (!warned.insert(key).second)
      return;
    if (name.IsNamedtupleClass) {
      ctx.warning("treespec-unregistered-type", path, "", order,
                  what + " names namedtuple class '" + name.Name + "' (" +
                      name.Path +
                      "), which is not registered and not listed in "
                      "treespec_namedtuple_fields; torch will need the class "
                      "registered to load the program (declare it with "
                      "--treespec-types to check its nodes)");
      return;
    }
    ctx.warning("treespec-unregistered-type", path, "", order,
                what + " uses node type '" + name.Name + "' (" + name.Path +
                    "), which is not registered; torch will need the type "
                    "registered to load the program (declare it with "
                    "--treespec-types to check its nodes)");
  }

  /// The class a namedtuple node's held context names, or empty (a legacy
  /// context carries its own fields and was checked by the parser).
  static std::string namedtupleClass(const TreeSpec &node) {
    llvm::Expected<llvm::json::Value> context =
        llvm::json::parse(node.getContextJson());
    if (!context) {
      llvm::consumeError(context.takeError());
      return "";
    }
    if (std::optional<llvm::StringRef> name = context->getAsString())
      return name->str();
    return "";
  }

  /// A namedtuple node was saved with the fields the program's side table
  /// lists: one child per field.
  void checkSavedNamedtuples(const std::string &path, uint64_t order,
                             const std::string &what, const TreeSpec &spec) {
    if (savedFieldCounts.empty())
      return;
    std::vector<std::pair<const TreeSpec *, std::string>> work;
    work.emplace_back(&spec, "");
    while (!work.empty()) {
      auto [node, nodePath] = std::move(work.back());
      work.pop_back();
      llvm::ArrayRef<TreeSpec> children = node->getChildren();
      for (size_t i = children.size(); i-- > 0;)
        work.emplace_back(&children[i], nodePathInSpec(nodePath, i));
      if (node->isLeaf() || !types.isNamedtupleNodeType(node->getTypeName()))
        continue;
      std::string className = namedtupleClass(*node);
      auto saved = savedFieldCounts.find(className);
      if (saved == savedFieldCounts.end() ||
          saved->second == node->getNumChildren())
        continue;
      ctx.error("treespec-invalid", path, "", order,
                what + " is not a valid treespec: " +
                    (nodePath.empty() ? std::string("root node") : nodePath) +
                    ": namedtuple '" + className + "' has " +
                    std::to_string(node->getNumChildren()) +
                    " children, but treespec_namedtuple_fields lists " +
                    std::to_string(saved->second) + " fields");
    }
  }

  /// Compares the leaves of a root treespec with the user inputs/outputs.
  void checkLeafCount(const std::string &path, uint64_t order,
                      const std::string &what, size_t leaves, bool isInput) {
    size_t expected = 0;
    const GraphSignature &sig = ep.graphModule.signature;
    if (isInput) {
      for (const InputSpec &s : sig.inputSpecs)
        if (s.kind == InputKind::UserInput ||
            (s.kind == InputKind::ConstantInput && !s.arg.isNone()))
          ++expected;
    } else {
      for (const OutputSpec &s : sig.outputSpecs)
        if (s.kind == OutputKind::UserOutput ||
            s.kind == OutputKind::LossOutput)
          ++expected;
    }
    if (leaves == expected)
      return;
    ctx.error("module-call-graph-spec", path, "", order,
              what + " has " + std::to_string(leaves) +
                  " leaves, but the signature has " + std::to_string(expected) +
                  (isInput ? " user input" : " user output") +
                  (expected == 1 ? "" : "s"));
  }

  VerifierContext &ctx;
  const ExportedProgram &ep;
  /// The declared types plus the program's saved namedtuple classes.
  TreespecTypeRegistry types;
  /// Field counts of `treespec_namedtuple_fields`.
  llvm::StringMap<size_t> savedFieldCounts;
  /// Unregistered names already reported ('n' class / 't' type + name).
  llvm::StringSet<> warned;
};

} // namespace

void checkTreespecs(VerifierContext &ctx) { TreespecChecker(ctx).run(); }

} // namespace pt2ir::verifier
