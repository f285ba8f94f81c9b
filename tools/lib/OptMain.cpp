//===- OptMain.cpp - pt2-opt driver ---------------------------------------===//

#include "tools/lib/OptMain.h"
#include <cstdio>

namespace pt2ir {

int pt2OptMain(int argc, char **argv) {
  std::fprintf(stderr, "pt2-opt: not built yet\n");
  return 1;
}

} // namespace pt2ir
