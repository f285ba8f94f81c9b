//===- ProgramIO.h - Programs in and out of JSON files and archives -*- C++ -*-===//
//
// pt2-opt takes a JSON program or a `.pt2` archive. An archive may hold
// several models; `--model NAME` picks one, and by default every model is
// processed. Writing back to `.pt2` keeps every entry pt2ir does not touch
// (weights, constants, extra files, AOTInductor artifacts) byte-identical
// and only replaces the programs.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_TOOLS_PROGRAMIO_H
#define PT2IR_TOOLS_PROGRAMIO_H

#include "pt2ir/archive/Pt2Archive.h"
#include "pt2ir/ir/ExportedProgram.h"
#include "pt2ir/serde/ProgramReader.h"
#include "pt2ir/text/TextFormat.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pt2ir {

/// One program of the input, with where it came from.
struct LoadedProgram {
  /// The model name in an archive; empty for a plain JSON input.
  std::string modelName;
  /// `file.json`, or `file.pt2:models/<name>.json`, for messages.
  std::string displayName;
  /// The bytes the program was read from (JSON, or the text form): the
  /// file as mapped, not a copy; reset it to free them.
  std::unique_ptr<llvm::MemoryBuffer> input;
  llvm::StringRef inputBytes() const { return input ? input->getBuffer() : llvm::StringRef(); }
  /// The input was the text form (docs/text-format.md), not JSON.
  bool isText = false;
  ExportedProgram program;
};

/// Everything read from INPUT.
struct LoadedInput {
  std::string path;
  std::vector<LoadedProgram> programs;
  /// Set when INPUT was an archive: the contents to write back.
  std::optional<Pt2ArchiveContents> archive;
};

/// True if `path` names a zip archive (by its first bytes; `.pt2` by name
/// when the file cannot be read).
bool looksLikeArchive(llvm::StringRef path);

/// Reads INPUT (a JSON file, `-` for stdin, or an archive). `modelFilter`
/// selects one model of an archive; an unknown model is an error listing
/// the models there are.
llvm::Expected<LoadedInput> loadInput(llvm::StringRef path, const ReadOptions &readOptions,
                                      llvm::StringRef modelFilter);

/// Writes the programs (already serialized to JSON, one per loaded program)
/// to `path`: a `.pt2` path gets an archive (the input archive's other
/// entries kept, or a fresh archive around a JSON input), anything else a
/// single JSON program. Atomic in every case.
llvm::Error writeOutput(llvm::StringRef path, const LoadedInput &input,
                        const std::vector<std::string> &programJson);

/// Writes the loaded programs, as they are now, to `path` like writeOutput;
/// a single program to a JSON file is streamed to it as it is serialized,
/// never held whole in memory.
llvm::Error writeProgramsOutput(llvm::StringRef path, const LoadedInput &input);

/// `pt2-opt --list FILE`: what an archive holds. A JSON program or standard
/// input is refused with a message that says so.
llvm::Error listArchive(llvm::StringRef path, llvm::raw_ostream &os);

/// When `path` is `-` and standard input is a terminal, tells the user on
/// `os` that `tool` is waiting for a program there (a bare `pt2-opt` would
/// otherwise look hung). Prints nothing for pipes and files.
void hintWhenReadingTerminal(llvm::StringRef tool, llvm::StringRef path,
                             llvm::raw_ostream &os);

} // namespace pt2ir

#endif
