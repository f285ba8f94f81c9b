//===- pt2-opt.cpp - The pt2ir optimizer driver ---------------------------===//
//
// All logic lives in tools/lib/OptMain.cpp so other drivers can reuse it.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/tools/lib/OptMain.h"

int main(int argc, char **argv) { return pt2ir::pt2OptMain(argc, argv); }
