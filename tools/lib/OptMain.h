//===- OptMain.h - pt2-opt driver entry point ---------------------*- C++ -*-===//
#ifndef PT2IR_TOOLS_OPTMAIN_H
#define PT2IR_TOOLS_OPTMAIN_H

namespace pt2ir {

/// Runs pt2-opt with the given command line; returns the process exit code.
int pt2OptMain(int argc, char **argv);

} // namespace pt2ir

#endif
