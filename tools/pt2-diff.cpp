//===- pt2-diff.cpp - Structural diff of two exported programs ------------===//
//
// All logic lives in tools/lib/DiffMain.cpp so other drivers can reuse it.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/tools/lib/DiffMain.h"

int main(int argc, char **argv) { return pt2ir::pt2DiffMain(argc, argv); }
