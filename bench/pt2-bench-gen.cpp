//===- pt2-bench-gen.cpp - Write a generated benchmark program ------------===//
//
// Writes one transformer-like program (bench/TransformerGenerator.h) of the
// requested node count as schema JSON, for profiling and for trying pt2-opt
// on large inputs by hand.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/bench/TransformerGenerator.h"
#include "pt2ir/serde/ProgramWriter.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace pt2ir;

int main(int argc, char **argv) {
  llvm::cl::OptionCategory category("pt2-bench-gen options");
  llvm::cl::opt<uint64_t> nodes(
      "n", llvm::cl::desc("Number of nodes (default 1000)"),
      llvm::cl::init(1000), llvm::cl::cat(category));
  llvm::cl::opt<std::string> output(
      "o", llvm::cl::desc("Output file (default: stdout)"), llvm::cl::init("-"),
      llvm::cl::cat(category));
  llvm::cl::HideUnrelatedOptions(category);
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "writes a generated benchmark program\n");
  bench::GeneratorOptions options;
  options.numNodes = nodes;
  auto program = bench::generateTransformer(options);
  if (!program) {
    llvm::errs() << "pt2-bench-gen: error: "
                 << llvm::toString(program.takeError()) << "\n";
    return 1;
  }
  if (auto err = writeFileAtomically(output, writeProgram(*program))) {
    llvm::errs() << llvm::toString(std::move(err)) << "\n";
    return 1;
  }
  return 0;
}
