//===- PassRegistry.cpp - Passes by name, and the pipeline syntax ---------===//
//
// Expands passes/PassRegistry.def into the built-in pass table, keeps the
// passes registered at run time in their Registry, and implements lookup,
// creation with options, and the pipeline parser and printer.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/passes/PassRegistry.h"
#include "pt2ir/passes/Passes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"

namespace pt2ir {

namespace {

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The .def expanded once into PassInfos (constant after that).
std::vector<PassInfo> buildBuiltinPasses() {
  std::vector<PassInfo> passes;
  // Each PT2IR_PASS_OPTION follows its pass's PT2IR_PASS line.
#define PT2IR_PASS(NAME, CLASS, SUMMARY)                                       \
  passes.push_back(PassInfo{NAME, SUMMARY, {}, &create##CLASS});
#define PT2IR_PASS_OPTION(CLASS, NAME, DEFAULT, DESCRIPTION)                   \
  passes.back().options.push_back(PassOptionInfo{NAME, DEFAULT, DESCRIPTION});
#include "pt2ir/passes/PassRegistry.def"
  return passes;
}

bool isValidPassName(llvm::StringRef name) {
  return !name.empty() && llvm::all_of(name, [](char c) {
    return llvm::isAlnum(c) || c == '-' || c == '_' || c == '.';
  });
}

} // namespace

char PassRegistry::ID = 0;

const PassOptionInfo *PassInfo::findOption(llvm::StringRef optionName) const {
  for (const PassOptionInfo &o : options)
    if (o.name == optionName)
      return &o;
  return nullptr;
}

llvm::ArrayRef<PassInfo> getBuiltinPasses() {
  static const std::vector<PassInfo> builtin = buildBuiltinPasses();
  return builtin;
}

std::vector<const PassInfo *> getRegisteredPasses(const Registry &registry) {
  std::vector<const PassInfo *> all;
  for (const PassInfo &info : getBuiltinPasses())
    all.push_back(&info);
  if (const auto *registered = registry.find<PassRegistry>())
    for (const PassInfo &info : registered->getPasses())
      all.push_back(&info);
  return all;
}

const PassInfo *lookupPass(const Registry &registry, llvm::StringRef name) {
  for (const PassInfo *info : getRegisteredPasses(registry))
    if (info->name == name)
      return info;
  return nullptr;
}

llvm::Error registerPass(Registry &registry, PassInfo info) {
  if (!isValidPassName(info.name))
    return makeError("cannot register pass '" + info.name +
                     "': a pass name is letters, digits, '-', '_' and '.'");
  if (lookupPass(registry, info.name))
    return makeError("cannot register pass '" + info.name +
                     "': a pass of that name is already registered");
  if (!info.create)
    return makeError("cannot register pass '" + info.name +
                     "': it has no factory");
  std::unique_ptr<Pass> probe = info.create();
  if (!probe)
    return makeError("cannot register pass '" + info.name +
                     "': its factory returned no pass");
  if (probe->getName() != info.name)
    return makeError("cannot register pass '" + info.name +
                     "': its factory makes a pass named '" +
                     probe->getName() + "'");
  llvm::StringSet<> optionNames;
  for (const PassOptionInfo &o : info.options)
    if (!isValidPassName(o.name) || !optionNames.insert(o.name).second)
      return makeError("cannot register pass '" + info.name +
                       "': option name '" + o.name +
                       "' is malformed or repeated");
  registry.getOrCreate<PassRegistry>().passes.push_back(std::move(info));
  return llvm::Error::success();
}

std::string listRegisteredPassNames(const Registry &registry) {
  std::string names;
  for (const PassInfo *info : getRegisteredPasses(registry)) {
    if (!names.empty())
      names += ", ";
    names += info->name;
  }
  return names;
}

void printRegisteredPasses(llvm::raw_ostream &os, const Registry &registry,
                           unsigned indent) {
  for (const PassInfo *info : getRegisteredPasses(registry)) {
    os.indent(indent) << info->name << " - " << info->summary << "\n";
    for (const PassOptionInfo &o : info->options)
      os.indent(indent + 4) << o.name << "=<" << o.defaultValue << "> - "
                            << o.description << "\n";
  }
}

llvm::Error makeUnknownPassOptionError(llvm::StringRef passName,
                                       llvm::StringRef optionName,
                                       const PassInfo *info) {
  if (!info)
    for (const PassInfo &builtin : getBuiltinPasses())
      if (builtin.name == passName)
        info = &builtin;
  std::string known;
  if (info)
    for (const PassOptionInfo &o : info->options) {
      if (!known.empty())
        known += ", ";
      known += o.name;
    }
  if (known.empty())
    return makeError("pass '" + passName + "' has no option '" + optionName +
                     "': it takes no options");
  return makeError("pass '" + passName + "' has no option '" + optionName +
                   "'; its options are: " + known);
}

llvm::Expected<bool> parseBoolPassOption(llvm::StringRef passName,
                                         llvm::StringRef optionName,
                                         llvm::StringRef value) {
  if (value == "true" || value == "1")
    return true;
  if (value == "false" || value == "0")
    return false;
  return makeError("pass '" + passName + "': option '" + optionName +
                   "' expects true or false, got '" + value + "'");
}

llvm::Expected<std::unique_ptr<Pass>> createPass(const Registry &registry,
                                                 llvm::StringRef name,
                                                 const PassOptions &options) {
  const PassInfo *info = lookupPass(registry, name);
  if (!info)
    return makeError("unknown pass '" + name + "'; registered passes: " +
                     listRegisteredPassNames(registry));
  llvm::StringSet<> seen;
  for (const auto &[optionName, value] : options) {
    if (!info->findOption(optionName))
      return makeUnknownPassOptionError(name, optionName, info);
    if (!seen.insert(optionName).second)
      return makeError("pass '" + name + "': option '" + optionName +
                       "' is given more than once");
  }
  std::unique_ptr<Pass> pass = info->create();
  if (!pass)
    return makeError("pass '" + name + "': its factory returned no pass");
  if (auto err = pass->setOptions(options))
    return err;
  return pass;
}

//===----------------------------------------------------------------------===//
// Pipeline syntax
//===----------------------------------------------------------------------===//

namespace {

/// A recursive-descent-free scanner: the grammar is flat.
///   pipeline := element (',' element)*
///   element  := name ('{' option ((' ' | ',') option)* '}')?
///   option   := key ('=' value)?
class PipelineParser {
public:
  explicit PipelineParser(llvm::StringRef text) : text(text) {}

  llvm::Expected<std::vector<PassPipelineElement>> parse() {
    std::vector<PassPipelineElement> pipeline;
    skipSpaces();
    if (pos == text.size())
      return fail("the pipeline is empty; expected a pass name");
    while (true) {
      PassPipelineElement element;
      if (auto err = parseElement(element))
        return err;
      pipeline.push_back(std::move(element));
      skipSpaces();
      if (pos == text.size())
        return pipeline;
      if (text[pos] != ',')
        return fail("expected ',' or the end of the pipeline");
      ++pos;
      skipSpaces();
    }
  }

private:
  static bool isNameChar(char c) {
    return llvm::isAlnum(c) || c == '-' || c == '_' || c == '.';
  }

  void skipSpaces() {
    while (pos < text.size() && llvm::isSpace(text[pos]))
      ++pos;
  }

  llvm::Error fail(const llvm::Twine &what) const {
    return makeError("pass pipeline, column " + llvm::Twine(pos + 1) + ": " +
                     what + " in '" + text + "'");
  }

  llvm::StringRef scanName() {
    size_t start = pos;
    while (pos < text.size() && isNameChar(text[pos]))
      ++pos;
    return text.slice(start, pos);
  }

  llvm::Error parseElement(PassPipelineElement &element) {
    llvm::StringRef name = scanName();
    if (name.empty())
      return fail("expected a pass name");
    element.name = name.str();
    skipSpaces();
    if (pos == text.size() || text[pos] != '{')
      return llvm::Error::success();
    ++pos;
    while (true) {
      while (pos < text.size() &&
             (llvm::isSpace(text[pos]) || text[pos] == ','))
        ++pos;
      if (pos == text.size())
        return fail("expected '}' to close the options of '" + name + "'");
      if (text[pos] == '}') {
        ++pos;
        return llvm::Error::success();
      }
      llvm::StringRef key = scanName();
      if (key.empty())
        return fail("expected an option name");
      std::string value = "true";
      if (pos < text.size() && text[pos] == '=') {
        ++pos;
        size_t start = pos;
        while (pos < text.size() && !llvm::isSpace(text[pos]) &&
               text[pos] != ',' && text[pos] != '}' && text[pos] != '{')
          ++pos;
        if (pos == start)
          return fail("expected a value after '" + key + "='");
        value = text.slice(start, pos).str();
      }
      element.options.emplace_back(key.str(), std::move(value));
    }
  }

  llvm::StringRef text;
  size_t pos = 0;
};

} // namespace

llvm::Expected<std::vector<PassPipelineElement>>
parsePassPipeline(llvm::StringRef text) {
  return PipelineParser(text).parse();
}

std::string printPassPipeline(llvm::ArrayRef<PassPipelineElement> pipeline) {
  std::string out;
  for (const PassPipelineElement &element : pipeline) {
    if (!out.empty())
      out += ",";
    out += element.name;
    if (element.options.empty())
      continue;
    out += "{";
    for (size_t i = 0; i < element.options.size(); ++i) {
      if (i)
        out += " ";
      out += element.options[i].first + "=" + element.options[i].second;
    }
    out += "}";
  }
  return out;
}

} // namespace pt2ir
