//===- ProgramIO.cpp - Programs in and out of JSON files and archives -----===//

#include "pt2ir/tools/lib/ProgramIO.h"

#include "pt2ir/archive/Pt2ArchiveWriter.h"
#include "pt2ir/serde/ProgramWriter.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include <fstream>
#include <functional>
#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace pt2ir {

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

bool looksLikeArchive(llvm::StringRef path) {
  if (path == "-")
    return false;
  std::ifstream in(path.str(), std::ios::binary);
  char magic[4] = {};
  if (in.read(magic, 4))
    return llvm::StringRef(magic, 4) == llvm::StringRef("PK\x03\x04", 4) ||
           llvm::StringRef(magic, 4) == llvm::StringRef("PK\x05\x06", 4);
  return path.ends_with(".pt2");
}

/// Archive-layer messages read `<path>: <what>`; tools say `<path>: error: <what>`.
static llvm::Error asToolError(llvm::Error err, llvm::StringRef path) {
  std::string msg = llvm::toString(std::move(err));
  std::string prefix = path.str() + ": ";
  if (llvm::StringRef(msg).starts_with(prefix) && !llvm::StringRef(msg).drop_front(prefix.size()).starts_with("error:"))
    msg = prefix + "error: " + msg.substr(prefix.size());
  else if (!llvm::StringRef(msg).contains(": error: "))
    msg = prefix + "error: " + msg;
  return makeError(msg);
}

static std::string modelList(const Pt2ArchiveContents &contents) {
  std::string names;
  for (const Pt2Model &m : contents.models)
    names += (names.empty() ? "" : ", ") + m.name;
  return names.empty() ? "none" : names;
}

static TextReadOptions textReadOptions(const ReadOptions &options) {
  TextReadOptions text;
  text.registry = options.registry;
  text.fileName = options.fileName;
  text.maxDepth = options.maxSubgraphDepth;
  return text;
}

/// For a file the reader sees through a read-only mapping: a callback that
/// gives back the pages it has read, so that the input does not stay in
/// memory beside the program built from it (touching them again reads them
/// back from the file). Nothing for other buffers.
static std::function<void(size_t)> dropMappedPages(const llvm::MemoryBuffer &buffer) {
#if defined(__linux__)
  if (buffer.getBufferKind() != llvm::MemoryBuffer::MemoryBuffer_MMap)
    return {};
  const uintptr_t start = reinterpret_cast<uintptr_t>(buffer.getBufferStart());
  return [start](size_t bytesRead) {
    const uintptr_t page = uintptr_t(llvm::sys::Process::getPageSizeEstimate());
    uintptr_t first = (start + page - 1) & ~(page - 1);
    uintptr_t last = (start + bytesRead) & ~(page - 1);
    if (last > first)
      ::madvise(reinterpret_cast<void *>(first), last - first, MADV_DONTNEED);
  };
#else
  (void)buffer;
  return {};
#endif
}

llvm::Expected<LoadedInput> loadInput(llvm::StringRef path, const ReadOptions &readOptions,
                                      llvm::StringRef modelFilter) {
  LoadedInput input;
  input.path = path.str();
  if (!looksLikeArchive(path)) {
    std::string display = path == "-" ? "<stdin>" : path.str();
    auto buffer = path == "-" ? llvm::MemoryBuffer::getSTDIN()
                              : llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                                            /*RequiresNullTerminator=*/false);
    if (!buffer)
      return makeError(display + ": error: cannot read file: " + buffer.getError().message());
    if (!modelFilter.empty())
      return makeError(display + ": error: --model applies to .pt2 archives; this input is a JSON program");
    LoadedProgram lp;
    lp.displayName = display;
    lp.input = std::move(*buffer);
    ReadOptions options = readOptions;
    options.fileName = display;
    options.onInputRead = dropMappedPages(*lp.input);
    // The text form: a `.pt2ir` file, or text recognised by how it starts.
    lp.isText = path.ends_with(".pt2ir") || looksLikeProgramText(lp.inputBytes());
    auto program = lp.isText ? readProgramText(lp.inputBytes(), textReadOptions(options))
                             : readProgram(lp.inputBytes(), options);
    if (!program)
      return program.takeError();
    lp.program = std::move(*program);
    input.programs.push_back(std::move(lp));
    return input;
  }

  auto archive = Pt2Archive::open(path);
  if (!archive)
    return asToolError(archive.takeError(), path);
  auto contents = archive->readContents();
  if (!contents)
    return asToolError(contents.takeError(), path);
  if (!modelFilter.empty() && !contents->findModel(modelFilter))
    return makeError(path + ": error: no model '" + modelFilter + "' in the archive (models: " +
                     modelList(*contents) + ")");
  for (const Pt2Model &model : contents->models) {
    if (!modelFilter.empty() && model.name != modelFilter)
      continue;
    LoadedProgram lp;
    lp.modelName = model.name;
    lp.displayName = contents->layout == Pt2ArchiveLayout::Legacy
                         ? (path + ":serialized_exported_program.json").str()
                         : (path + ":models/" + model.name + ".json").str();
    lp.input = llvm::MemoryBuffer::getMemBufferCopy(model.programJson, lp.displayName);
    ReadOptions options = readOptions;
    options.fileName = lp.displayName;
    auto program = readProgram(lp.inputBytes(), options);
    if (!program)
      return program.takeError();
    lp.program = std::move(*program);
    input.programs.push_back(std::move(lp));
  }
  if (input.programs.empty())
    return makeError(path + ": error: the archive holds no model");
  input.archive = std::move(*contents);
  return input;
}

static bool isArchiveOutput(llvm::StringRef path) {
  return path != "-" && path.ends_with(".pt2");
}

llvm::Error writeProgramsOutput(llvm::StringRef path, const LoadedInput &input) {
  if (!isArchiveOutput(path) && input.programs.size() == 1)
    return writeFileAtomically(path, [&](llvm::raw_ostream &os) {
      writeProgram(input.programs.front().program, os);
      return llvm::Error::success();
    });
  std::vector<std::string> json;
  for (const LoadedProgram &lp : input.programs)
    json.push_back(writeProgram(lp.program));
  return writeOutput(path, input, json);
}

llvm::Error writeOutput(llvm::StringRef path, const LoadedInput &input,
                        const std::vector<std::string> &programJson) {
  bool toArchive = isArchiveOutput(path);
  if (!toArchive) {
    if (programJson.size() != 1)
      return makeError(input.path + ": error: the archive holds " + llvm::Twine(programJson.size()) +
                       " models; pick one with --model NAME to write JSON, or write a .pt2 archive");
    return writeFileAtomically(path, programJson.front());
  }
  Pt2ArchiveContents contents;
  if (input.archive) {
    contents = *input.archive;
  } else {
    contents.rootFolder = llvm::sys::path::stem(path).str();
    contents.archiveVersion = "0";
  }
  for (size_t i = 0; i < input.programs.size(); ++i) {
    std::string name = input.programs[i].modelName.empty() ? "model" : input.programs[i].modelName;
    Pt2Model *model = contents.findModel(name);
    if (!model) {
      contents.models.push_back(Pt2Model());
      model = &contents.models.back();
      model->name = name;
    }
    model->programJson = programJson[i];
  }
  if (auto err = writePt2Archive(path, contents))
    return asToolError(std::move(err), path);
  return llvm::Error::success();
}

/// True if the file's first non-blank byte opens a JSON object or array.
static bool looksLikeJson(llvm::StringRef path) {
  std::ifstream in(path.str(), std::ios::binary);
  char c;
  while (in.get(c))
    if (!llvm::isSpace(c))
      return c == '{' || c == '[';
  return false;
}

llvm::Error listArchive(llvm::StringRef path, llvm::raw_ostream &os) {
  if (path == "-")
    return makeError(
        "<stdin>: error: --list needs a .pt2 archive file, not standard input");
  if (!looksLikeArchive(path) && looksLikeJson(path))
    return makeError(
        path +
        ": error: not a .pt2 archive (this is a JSON program); --list shows "
        "what an archive holds, --stats what a program holds");
  auto archive = Pt2Archive::open(path);
  if (!archive)
    return asToolError(archive.takeError(), path);
  auto contents = archive->readContents();
  if (!contents)
    return asToolError(contents.takeError(), path);
  auto sizeOf = [](const std::vector<Pt2ArchiveFile> &files) {
    uint64_t total = 0;
    for (const auto &f : files)
      total += f.payload.size();
    return total;
  };
  os << path << ": "
     << (contents->layout == Pt2ArchiveLayout::Legacy ? "legacy (pre-archive) layout" : "pt2 archive")
     << ", root folder '" << contents->rootFolder << "'";
  if (contents->archiveVersion)
    os << ", archive_version " << *contents->archiveVersion;
  os << "\n";
  for (const Pt2Model &m : contents->models) {
    os << llvm::formatv("model {0}: program {1} bytes, {2} weights ({3} bytes), {4} constants ({5} bytes)",
                        m.name, m.programJson.size(), m.weights.size(), sizeOf(m.weights),
                        m.constants.size(), sizeOf(m.constants));
    if (m.sampleInputs)
      os << ", sample inputs";
    os << "\n";
  }
  if (!contents->extraFiles.empty())
    os << "extra files: " << contents->extraFiles.size() << " (" << sizeOf(contents->extraFiles) << " bytes)\n";
  if (!contents->aotinductorFiles.empty())
    os << "aotinductor files: " << contents->aotinductorFiles.size() << "\n";
  if (!contents->otherFiles.empty())
    os << "other entries kept as they are: " << contents->otherFiles.size() << "\n";
  os << "entries:\n";
  for (const std::string &entry : archive->entryPaths()) {
    const ZipEntryInfo *info = archive->entryInfo(entry);
    os << "  " << entry;
    if (info)
      os << " (" << info->size << " bytes)";
    os << "\n";
  }
  return llvm::Error::success();
}

void hintWhenReadingTerminal(llvm::StringRef tool, llvm::StringRef path,
                             llvm::raw_ostream &os) {
  if (path != "-" || !llvm::sys::Process::StandardInIsUserInput())
    return;
  os << tool << ": reading a program from standard input (end it with Ctrl-D; "
     << tool << " --help shows the usage)\n";
}

} // namespace pt2ir
