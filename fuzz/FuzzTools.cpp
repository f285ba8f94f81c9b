//===- FuzzTools.cpp - Fuzz the pt2-opt emitters and the structural diff --===//
//
// What the pt2-opt and pt2-diff drivers do with a program after reading it,
// on whatever the reader accepts: unbacked-symbol bindings are recomputed,
// then the Python listing, the Graphviz graph and the statistics (text and
// JSON, with the per-dialect verifier runs) are produced, and the program is
// diffed against its own clone and against itself read back from its JSON.
// For programs the verifier accepts, both diffs must be empty. Diffs are
// produced but not judged for invalid programs, and for programs in which
// two inputs lift the same parameter, buffer or constant: structural
// matching keys inputs by that role, so such inputs are ambiguous (reported
// to the pt2-diff owner; fuzz/regressions/tools/same-lifted-constant-twice).
//
//===----------------------------------------------------------------------===//

#include "pt2ir/fuzz/FuzzSupport.h"
#include "pt2ir/ir/UnbackedBindings.h"
#include "pt2ir/serde/ProgramReader.h"
#include "pt2ir/serde/ProgramWriter.h"
#include "pt2ir/tools/lib/DotEmitter.h"
#include "pt2ir/tools/lib/PythonEmitter.h"
#include "pt2ir/tools/lib/Stats.h"
#include "pt2ir/tools/lib/StructuralDiff.h"
#include "pt2ir/verifier/Verifier.h"

#include "llvm/Support/raw_ostream.h"

namespace {

using namespace pt2ir;

/// True when two graph inputs have the same signature role (kind and
/// target), which structural matching cannot tell apart.
bool hasAmbiguousInputRoles(const ExportedProgram &ep) {
  const auto &specs = ep.graphModule.signature.inputSpecs;
  for (size_t i = 0; i < specs.size(); ++i)
    for (size_t j = i + 1; j < specs.size(); ++j)
      if (specs[i].kind == specs[j].kind && !specs[i].target.empty() &&
          specs[i].target == specs[j].target)
        return true;
  return false;
}

void checkNoDifference(const ExportedProgram &a, const ExportedProgram &b,
                       llvm::StringRef what) {
  ProgramDiff diff = diffPrograms(a, b);
  if (diff.isEqual())
    return;
  std::string text;
  llvm::raw_string_ostream os(text);
  printDiffText(os, diff);
  fuzz::oracleFailure("a program differs from " + what + ":\n" + text);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ReadOptions options = fuzz::readOptions();
  auto program = readProgram(fuzz::asText(data, size), options);
  if (!program) {
    fuzz::ignoreError(program.takeError());
    return 0;
  }
  if (llvm::Error err = recomputeUnbackedBindings(*program))
    fuzz::ignoreError(std::move(err));

  std::string text;
  llvm::raw_string_ostream os(text);
  EmitOptions emitOptions;
  emitOptions.showMetadata = true;
  emitPython(os, *program, emitOptions);
  emitDot(os, *program, emitOptions);
  StatsOptions statsOptions;
  emitStats(os, *program, statsOptions);
  statsOptions.format = StatsFormat::Json;
  emitStats(os, *program, statsOptions);

  auto reread = readProgram(writeProgram(*program), options);
  if (!reread) {
    std::string message = llvm::toString(reread.takeError());
    fuzz::oracleFailure("the written program does not read back: " + message);
  }
  if (hasErrors(verifyProgram(*program)) || hasAmbiguousInputRoles(*program)) {
    (void)diffPrograms(*program, program->clone());
    (void)diffPrograms(*program, *reread);
    return 0;
  }
  checkNoDifference(*program, program->clone(), "its clone");
  checkNoDifference(*program, *reread, "itself written and read back");
  return 0;
}
