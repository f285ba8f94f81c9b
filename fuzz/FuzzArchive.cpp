//===- FuzzArchive.cpp - Fuzz the .pt2 archive reader ---------------------===//
//
// Writes the input bytes to a scratch file and opens it as a `.pt2` archive
// with tight resource limits. For every archive that opens, every entry is
// read (CRC-checked) and the contents are sorted into models; when that
// succeeds the contents are written to a second archive, which must open and
// hold the same programs and entries. The programs are then given to the
// JSON reader.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/archive/Pt2Archive.h"
#include "pt2ir/archive/Pt2ArchiveWriter.h"
#include "pt2ir/fuzz/FuzzSupport.h"
#include "pt2ir/serde/ProgramReader.h"

namespace {

using namespace pt2ir;

ArchiveLimits fuzzLimits() {
  ArchiveLimits limits;
  limits.maxEntries = 4096;
  limits.maxEntryBytes = uint64_t(8) << 20;
  limits.maxTotalBytes = uint64_t(32) << 20;
  return limits;
}

void readEveryEntry(const Pt2Archive &archive) {
  for (const std::string &path : archive.entryPaths()) {
    auto bytes = archive.readEntry(path);
    if (!bytes)
      fuzz::ignoreError(bytes.takeError());
  }
}

/// The written archive must open and hold the same programs.
void checkRewrite(const Pt2ArchiveContents &contents) {
  static const fuzz::ScratchFile output("pt2");
  if (llvm::Error err = writePt2Archive(output.path(), contents)) {
    // The writer may refuse contents the reader tolerates (for example
    // names it would not produce itself); that is not a crash.
    fuzz::ignoreError(std::move(err));
    return;
  }
  auto reopened = Pt2Archive::open(output.path(), fuzzLimits());
  if (!reopened) {
    std::string message = llvm::toString(reopened.takeError());
    fuzz::oracleFailure("a written archive does not open: " + message);
  }
  auto again = reopened->readContents();
  if (!again) {
    std::string message = llvm::toString(again.takeError());
    fuzz::oracleFailure("a written archive's contents do not read: " +
                        message);
  }
  if (again->models.size() != contents.models.size())
    fuzz::oracleFailure("a written archive has a different number of models");
  for (size_t i = 0; i < contents.models.size(); ++i)
    if (again->models[i].programJson != contents.models[i].programJson)
      fuzz::oracleFailure("a written archive changed a program",
                          contents.models[i].programJson,
                          again->models[i].programJson);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const fuzz::ScratchFile input("pt2");
  input.write(fuzz::asText(data, size));
  auto archive = Pt2Archive::open(input.path(), fuzzLimits());
  if (!archive) {
    fuzz::ignoreError(archive.takeError());
    return 0;
  }
  readEveryEntry(*archive);
  auto contents = archive->readContents();
  if (!contents) {
    fuzz::ignoreError(contents.takeError());
    return 0;
  }
  for (const Pt2Model &model : contents->models) {
    ReadOptions options = fuzz::readOptions(model.name);
    auto program = readProgram(model.programJson, options);
    if (!program)
      fuzz::ignoreError(program.takeError());
  }
  checkRewrite(*contents);
  return 0;
}
