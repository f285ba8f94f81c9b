//===- FuzzProgramReader.cpp - Fuzz the JSON program reader ---------------===//
//
// Feeds arbitrary bytes to readProgram. Rejection is fine; crashes, hangs,
// leaks, sanitizer reports and stack overflows are not. An accepted program
// is also printed in the text form and written back as JSON, so the printer
// and the writer see every shape the reader lets through.
//
// Not here: the round-trip fixed-point check (FuzzRoundTrip.cpp) and the
// verifier and passes (FuzzPipeline.cpp).
//
//===----------------------------------------------------------------------===//

#include "pt2ir/fuzz/FuzzSupport.h"
#include "pt2ir/ir/Printer.h"
#include "pt2ir/serde/ProgramReader.h"
#include "pt2ir/serde/ProgramWriter.h"

#include "llvm/Support/raw_ostream.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace pt2ir;
  ReadOptions options = fuzz::readOptions();
  auto program = readProgram(fuzz::asText(data, size), options);
  if (!program) {
    std::string message = llvm::toString(program.takeError());
    if (message.empty())
      fuzz::oracleFailure("a rejected program has an empty error message");
    return 0;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  PrintOptions printOptions;
  printOptions.printMetadata = true;
  printProgram(os, *program, printOptions);
  std::string json = writeProgram(*program);
  if (json.empty())
    fuzz::oracleFailure("an accepted program was written as no bytes");
  return 0;
}
