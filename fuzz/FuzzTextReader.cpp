//===- FuzzTextReader.cpp - Fuzz the text-form parser ---------------------===//
//
// Feeds arbitrary bytes to readProgramText. Rejection is fine, with a
// `file:line:col: error:` message; crashes, hangs, leaks and sanitizer
// reports are not. An accepted program must print as text that reads back
// and prints the same (text -> IR -> text is a fixed point), and must write
// as JSON.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/fuzz/FuzzSupport.h"
#include "pt2ir/serde/ProgramWriter.h"
#include "pt2ir/text/TextFormat.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace pt2ir;
  TextReadOptions options;
  options.fileName = "fuzz.pt2ir";
  auto program = readProgramText(fuzz::asText(data, size), options);
  if (!program) {
    std::string message = llvm::toString(program.takeError());
    if (!llvm::StringRef(message).starts_with("fuzz.pt2ir:") ||
        !llvm::StringRef(message).contains(": error: "))
      fuzz::oracleFailure("a rejected text program has no file:line:col: error: message");
    return 0;
  }
  std::string text = writeProgramText(*program);
  auto again = readProgramText(text, options);
  if (!again) {
    fuzz::ignoreError(again.takeError());
    fuzz::oracleFailure("the printed text of an accepted program does not read back");
  }
  if (writeProgramText(*again) != text)
    fuzz::oracleFailure("text -> IR -> text is not a fixed point");
  if (writeProgram(*program).empty())
    fuzz::oracleFailure("an accepted program was written as no bytes");
  return 0;
}
