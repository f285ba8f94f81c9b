//===- FuzzRoundTrip.cpp - Fuzz read/write as a fixed point ---------------===//
//
// For every input the reader accepts, writing is a fixed point:
//
//   w1 = write(read(x)),  w2 = write(read(w1)),  w1 == w2 (byte for byte)
//
// and the written text must be accepted again. A clone must write the same
// bytes as the program it was cloned from. Any violation aborts, which
// libFuzzer records as a crash with the input that caused it.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/fuzz/FuzzSupport.h"
#include "pt2ir/serde/ProgramReader.h"
#include "pt2ir/serde/ProgramWriter.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace pt2ir;
  ReadOptions options = fuzz::readOptions();
  auto first = readProgram(fuzz::asText(data, size), options);
  if (!first) {
    fuzz::ignoreError(first.takeError());
    return 0;
  }
  std::string written = writeProgram(*first);
  options.fileName = "written.json";
  auto second = readProgram(written, options);
  if (!second) {
    std::string message = llvm::toString(second.takeError());
    fuzz::oracleFailure("the writer's output is rejected by the reader: " +
                        message);
  }
  std::string rewritten = writeProgram(*second);
  if (rewritten != written)
    fuzz::oracleFailure("write(read(write(read(x)))) != write(read(x))",
                        written, rewritten);
  std::string cloned = writeProgram(first->clone());
  if (cloned != written)
    fuzz::oracleFailure("a clone writes different bytes", written, cloned);
  return 0;
}
