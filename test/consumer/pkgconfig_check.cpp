//===- pkgconfig_check.cpp - Links against pt2ir through pkg-config -------===//
//
// Built by RunConsumerTest.cmake with `pkg-config --cflags --libs pt2ir`:
// reads a program and prints how many nodes its graph has and how many
// leaves its root in_spec has (which links the treespec library too).
//
//===----------------------------------------------------------------------===//

#include "pt2ir/serde/ProgramReader.h"
#include "pt2ir/treespec/Treespec.h"

#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  auto program = pt2ir::readProgramFile(argv[1]);
  if (!program) {
    llvm::errs() << llvm::toString(program.takeError()) << "\n";
    return 1;
  }
  const auto &entries = program->graphModule.moduleCallGraph;
  if (entries.empty() || !entries[0].signature) {
    llvm::errs() << "no root module call signature\n";
    return 1;
  }
  auto spec = pt2ir::parseTreespec(entries[0].signature->inSpec,
                                   pt2ir::TreespecTypeRegistry());
  if (!spec) {
    llvm::errs() << llvm::toString(spec.takeError()) << "\n";
    return 1;
  }
  llvm::outs() << "pkg-config consumer: " << program->getGraph().size()
               << " nodes, " << spec->getNumLeaves() << " input leaf"
               << (spec->getNumLeaves() == 1 ? "" : "s") << "\n";
  return 0;
}
