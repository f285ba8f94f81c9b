//===- pkgconfig_check.cpp - Links against pt2ir through pkg-config -------===//
//
// Built by RunConsumerTest.cmake with `pkg-config --cflags --libs pt2ir`:
// reads a program and prints how many nodes its graph has.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/serde/ProgramReader.h"

#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  auto program = pt2ir::readProgramFile(argv[1]);
  if (!program) {
    llvm::errs() << llvm::toString(program.takeError()) << "\n";
    return 1;
  }
  llvm::outs() << "pkg-config consumer: " << program->getGraph().size()
               << " nodes\n";
  return 0;
}
