//===- FuzzPipeline.cpp - Fuzz the verifier and the passes ----------------===//
//
// Everything a driver does after reading, on whatever the reader accepts:
// the verifier runs, then every registered pass runs alone on its own clone,
// then all of them run in sequence. Passes run whether or not the verifier
// found errors (pt2-opt only verifies when asked), so neither may crash on a
// readable program. A pass may fail with an error, but what it leaves behind
// must still be written as JSON that the reader accepts.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/fuzz/FuzzSupport.h"
#include "pt2ir/passes/PassManager.h"
#include "pt2ir/passes/PassRegistry.h"
#include "pt2ir/serde/ProgramReader.h"
#include "pt2ir/serde/ProgramWriter.h"
#include "pt2ir/verifier/Verifier.h"

namespace {

using namespace pt2ir;

/// The pass output must read back.
void checkReadable(const ExportedProgram &ep, llvm::StringRef after) {
  std::string json = writeProgram(ep);
  ReadOptions options;
  options.fileName = "after-pass.json";
  auto again = readProgram(json, options);
  if (!again) {
    std::string message = llvm::toString(again.takeError());
    fuzz::oracleFailure("the program written after " + after +
                        " does not read back: " + message);
  }
}

void runOnePass(const PassInfo &info, const ExportedProgram &input) {
  auto pass = createPass(*Registry::getDefault(), info.name);
  if (!pass)
    fuzz::oracleFailure("cannot create registered pass " + info.name);
  ExportedProgram ep = input.clone();
  PassContext context;
  auto changed = (*pass)->run(ep, context);
  if (!changed)
    fuzz::ignoreError(changed.takeError());
  checkReadable(ep, info.name);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ReadOptions options = fuzz::readOptions();
  auto program = readProgram(fuzz::asText(data, size), options);
  if (!program) {
    fuzz::ignoreError(program.takeError());
    return 0;
  }
  VerifyOptions verifyOptions;
  verifyOptions.verifyOps = true;
  std::vector<Diagnostic> diags = verifyProgram(*program, verifyOptions);
  for (const Diagnostic &diag : diags)
    (void)formatDiagnostic("fuzz.json", diag);

  for (const PassInfo &info : getBuiltinPasses())
    runOnePass(info, *program);

  PassManager manager;
  for (const PassInfo &info : getBuiltinPasses()) {
    auto pass = createPass(*Registry::getDefault(), info.name);
    if (!pass)
      fuzz::oracleFailure("cannot create registered pass " + info.name);
    manager.addPass(std::move(*pass));
  }
  if (llvm::Error err = manager.run(*program))
    fuzz::ignoreError(std::move(err));
  checkReadable(*program, "the whole pipeline");
  return 0;
}
