//===- FuzzSupport.h - Shared helpers of the libFuzzer targets --*- C++ -*-===//
//
// Small helpers every fuzz target uses: turning the fuzzer's bytes into a
// StringRef, failing loudly when an oracle is violated, and a per-process
// scratch files for targets whose API takes a path.
//
// Not here: any fuzzing logic of its own. Each target is one file with one
// LLVMFuzzerTestOneInput.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_FUZZ_FUZZSUPPORT_H
#define PT2IR_FUZZ_FUZZSUPPORT_H

#include "pt2ir/serde/ProgramReader.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace pt2ir::fuzz {

/// The fuzzer's input as text.
inline llvm::StringRef asText(const uint8_t *data, size_t size) {
  return llvm::StringRef(reinterpret_cast<const char *>(data), size);
}

/// Reports a broken oracle (a property that must hold on every accepted
/// input) and aborts, so libFuzzer records the input as a crash.
[[noreturn]] void oracleFailure(const llvm::Twine &what,
                                llvm::StringRef expected = {},
                                llvm::StringRef actual = {});

/// Read options for fuzz inputs: single strings are capped far below
/// libFuzzer's memory limit.
inline ReadOptions readOptions(llvm::StringRef fileName = "fuzz.json") {
  ReadOptions options;
  options.fileName = fileName.str();
  options.maxStringLength = size_t(1) << 20;
  return options;
}

/// Drops an expected error (the input was rejected, which is fine).
inline void ignoreError(llvm::Error err) { llvm::consumeError(std::move(err)); }

/// A temporary file owned by one fuzz target (created on construction,
/// removed on destruction), for APIs that take a path. Targets keep one as a
/// function-local static and rewrite it for every input.
class ScratchFile {
public:
  /// Creates an empty temporary file whose name ends in `suffix` (no dot).
  explicit ScratchFile(llvm::StringRef suffix);
  ~ScratchFile();
  ScratchFile(const ScratchFile &) = delete;
  ScratchFile &operator=(const ScratchFile &) = delete;

  const std::string &path() const { return filePath; }
  /// Replaces the file's contents with `bytes`; aborts if it cannot.
  void write(llvm::StringRef bytes) const;

private:
  std::string filePath;
};

} // namespace pt2ir::fuzz

#endif
