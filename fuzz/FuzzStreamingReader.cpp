//===- FuzzStreamingReader.cpp - Differential fuzzing of the two readers --===//
//
// readProgram tries the one-pass streaming reader first and falls back to
// the DOM reader, which is the reference. On every input:
//
//   - when the streaming reader accepts, the DOM reader must accept too, and
//     both programs must write the same bytes (and print the same text);
//   - when the DOM reader rejects, the streaming reader must not accept.
//
// Rejections by the streaming reader alone are expected (it gives up on
// anything outside the canonical form).
//
//===----------------------------------------------------------------------===//

#include "pt2ir/fuzz/FuzzSupport.h"
#include "pt2ir/ir/Printer.h"
#include "pt2ir/serde/ProgramReader.h"
#include "pt2ir/serde/ProgramWriter.h"
#include "pt2ir/serde/StreamingReader.h"

#include "llvm/Support/raw_ostream.h"

namespace {

std::string printed(const pt2ir::ExportedProgram &ep) {
  std::string text;
  llvm::raw_string_ostream os(text);
  pt2ir::printProgram(os, ep);
  return text;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace pt2ir;
  llvm::StringRef input = fuzz::asText(data, size);
  ReadOptions options = fuzz::readOptions();
  std::optional<ExportedProgram> fast = readProgramStreaming(input, options);
  if (!fast)
    return 0;
  options.useStreamingReader = false;
  auto reference = readProgram(input, options);
  if (!reference) {
    std::string message = llvm::toString(reference.takeError());
    fuzz::oracleFailure(
        "the streaming reader accepts what the DOM reader rejects: " +
        message);
  }
  std::string fastJson = writeProgram(*fast);
  std::string referenceJson = writeProgram(*reference);
  if (fastJson != referenceJson)
    fuzz::oracleFailure("the two readers read different programs",
                        referenceJson, fastJson);
  std::string fastText = printed(*fast);
  std::string referenceText = printed(*reference);
  if (fastText != referenceText)
    fuzz::oracleFailure("the two readers' programs print differently",
                        referenceText, fastText);
  return 0;
}
