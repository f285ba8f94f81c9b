//===- StreamingReader.h - One-pass reader for canonical programs -*- C++
//-*-===//
//
// The fast path of readProgram. It reads the JSON text in a single pass,
// straight into the IR, without a RapidJSON DOM or a copy of the input, but
// only for programs in the canonical form torch (and pt2ir's writer)
// produces: current schema major, every field present and in declaration
// order, no unknown fields, ASCII-only text, common Argument members.
//
// It never reports errors. When the input is anything else - a legacy form,
// an unknown field, a rare union member, invalid JSON, or a program the DOM
// reader would reject - it gives up and readProgram falls back to the DOM
// reader, which is the reference: it accepts everything the schema allows
// and words every error. A program the fast path accepts is read exactly as
// the DOM reader would read it (test/unit/StreamingReaderTest.cpp checks
// this on every corpus and lit input).
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_SERDE_STREAMINGREADER_H
#define PT2IR_SERDE_STREAMINGREADER_H

#include "pt2ir/serde/ProgramReader.h"
#include <optional>

namespace pt2ir {

/// Reads `json` when it is a canonical program; nullopt otherwise (never an
/// error: the caller falls back to the DOM reader).
std::optional<ExportedProgram> readProgramStreaming(llvm::StringRef json,
                                                    const ReadOptions &options);

} // namespace pt2ir

#endif
