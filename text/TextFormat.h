//===- TextFormat.h - The parseable, lossless text form ----------*- C++ -*-===//
//
// pt2ir's text form of an ExportedProgram (docs/text-format.md): the readable
// listing `pt2-opt --emit=text` shows, made complete so that it reads back
// into the same program. Everything the IR holds has a spelling; defaults
// (contiguous strides, cpu, zero storage offset, ...) are left out.
//
//   printProgramText  the text; with printMetadata off, node metadata is
//                     left out (a view, no longer lossless)
//   readProgramText   the program back; errors are `file:line:col: error:`
//   looksLikeText     whether bytes are text rather than JSON or a zip
//
// This file does not read or write JSON (serde/) or archives (archive/).
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_TEXT_TEXTFORMAT_H
#define PT2IR_TEXT_TEXTFORMAT_H

#include "pt2ir/ir/ExportedProgram.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <string>

namespace pt2ir {

/// How to print the text form.
struct TextPrintOptions {
  /// Print node metadata (stack traces, nn_module_stack, ...). Off gives the
  /// short view of `--emit=text`, which no longer carries everything.
  bool printMetadata = true;
};

/// Prints `ep` in the text form.
void printProgramText(llvm::raw_ostream &os, const ExportedProgram &ep,
                      const TextPrintOptions &options = {});
/// The text form of `ep` with everything (what `-o FILE.pt2ir` writes).
std::string writeProgramText(const ExportedProgram &ep);

/// How to read the text form.
struct TextReadOptions {
  /// The registry the program is read against (null: Registry::getDefault()).
  std::shared_ptr<const Registry> registry;
  /// Shown in error messages.
  std::string fileName = "<input>";
  /// Deepest nesting of subgraphs and brackets accepted.
  unsigned maxDepth = 64;
};

/// Parses a program in the text form. On error nothing is returned but the
/// error: `FILE:LINE:COL: error: expected ...`.
llvm::Expected<ExportedProgram> readProgramText(llvm::StringRef text,
                                                const TextReadOptions &options = {});

/// True when `bytes` start (after white space and `//` comments) like the
/// text form (`program`, `graph`, `signature`, ...) rather than JSON (`{`).
bool looksLikeProgramText(llvm::StringRef bytes);

} // namespace pt2ir

#endif
