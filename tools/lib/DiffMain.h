//===- DiffMain.h - pt2-diff driver entry point -----------------*- C++ -*-===//
//
// pt2-diff A B: compares two programs (JSON files or `.pt2` archives)
// structurally (tools/lib/StructuralDiff.h) and prints what changed, as text
// or JSON (`--format=json`). Archives are compared model by model (`--model
// NAME` picks one); two inputs holding one program each are compared
// whatever their model names. `--ignore=names,metadata,...` leaves parts
// out of the comparison.
//
// Exit status: 0 when the programs are equal, 1 when they differ, 2 on any
// error (unreadable input, bad flags).
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_TOOLS_DIFFMAIN_H
#define PT2IR_TOOLS_DIFFMAIN_H

namespace pt2ir {

/// Runs pt2-diff with the given command line; returns the exit status.
int pt2DiffMain(int argc, char **argv);

} // namespace pt2ir

#endif
