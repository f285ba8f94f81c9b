//===- PassRegistry.cpp - Passes by name, and the pipeline syntax ---------===//
//
// Expands passes/PassRegistry.def into two constant tables (passes and
// options) and implements lookup, creation with options, and the pipeline
// parser and printer.
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

const PassInfo passTable[] = {
#define PT2IR_PASS(NAME, CLASS, SUMMARY)                                       \
  {NAME, #CLASS, SUMMARY, &create##CLASS},
#include "pt2ir/passes/PassRegistry.def"
};

/// Every option of every pass; the options of one pass are contiguous. The
/// last entry is a sentinel so the array is never empty.
const PassOptionInfo optionTable[] = {
#define PT2IR_PASS_OPTION(CLASS, NAME, DEFAULT, DESCRIPTION)                   \
  {#CLASS, NAME, DEFAULT, DESCRIPTION},
#include "pt2ir/passes/PassRegistry.def"
    {"", "", "", ""},
};

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

} // namespace

llvm::ArrayRef<PassOptionInfo> PassInfo::getOptions() const {
  llvm::ArrayRef<PassOptionInfo> all(optionTable);
  all = all.drop_back(); // The sentinel.
  const PassOptionInfo *first = llvm::find_if(
      all, [&](const PassOptionInfo &o) { return o.passClass == className; });
  if (first == all.end())
    return {};
  const PassOptionInfo *last =
      std::find_if(first, all.end(), [&](const PassOptionInfo &o) {
        return o.passClass != className;
      });
  return llvm::ArrayRef<PassOptionInfo>(first, last);
}

const PassOptionInfo *PassInfo::findOption(llvm::StringRef optionName) const {
  for (const PassOptionInfo &o : getOptions())
    if (o.name == optionName)
      return &o;
  return nullptr;
}

llvm::ArrayRef<PassInfo> getRegisteredPasses() { return passTable; }

const PassInfo *lookupPass(llvm::StringRef name) {
  for (const PassInfo &info : passTable)
    if (info.name == name)
      return &info;
  return nullptr;
}

std::string listRegisteredPassNames() {
  std::string names;
  for (const PassInfo &info : passTable) {
    if (!names.empty())
      names += ", ";
    names += info.name.str();
  }
  return names;
}

void printRegisteredPasses(llvm::raw_ostream &os, unsigned indent) {
  for (const PassInfo &info : passTable) {
    os.indent(indent) << info.name << " - " << info.summary << "\n";
    for (const PassOptionInfo &o : info.getOptions())
      os.indent(indent + 4) << o.name << "=<" << o.defaultValue << "> - "
                            << o.description << "\n";
  }
}

llvm::Error makeUnknownPassOptionError(llvm::StringRef passName,
                                       llvm::StringRef optionName) {
  const PassInfo *info = lookupPass(passName);
  std::string known;
  if (info)
    for (const PassOptionInfo &o : info->getOptions()) {
      if (!known.empty())
        known += ", ";
      known += o.name.str();
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

llvm::Expected<std::unique_ptr<Pass>> createPass(llvm::StringRef name,
                                                 const PassOptions &options) {
  const PassInfo *info = lookupPass(name);
  if (!info)
    return makeError("unknown pass '" + name +
                     "'; registered passes: " + listRegisteredPassNames());
  llvm::StringSet<> seen;
  for (const auto &[optionName, value] : options) {
    if (!info->findOption(optionName))
      return makeUnknownPassOptionError(name, optionName);
    if (!seen.insert(optionName).second)
      return makeError("pass '" + name + "': option '" + optionName +
                       "' is given more than once");
  }
  std::unique_ptr<Pass> pass = info->create();
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
