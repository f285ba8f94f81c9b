//===- mybackend-opt.cpp - The example backend as a standalone tool -------===//
//
//   mybackend-opt IN.json OUT.json
//
// Reads a program with the backend registered, fuses linear+relu, verifies
// and writes the result, and prints the pass statistics.
//
//===----------------------------------------------------------------------===//

#include "MyBackend.h"

#include "pt2ir/passes/PassManager.h"
#include "pt2ir/serde/ProgramReader.h"
#include "pt2ir/serde/ProgramWriter.h"
#include "pt2ir/verifier/Verifier.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

static int fail(llvm::Error err) {
  llvm::errs() << "mybackend-opt: " << llvm::toString(std::move(err)) << "\n";
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    llvm::errs() << "usage: mybackend-opt IN.json OUT.json\n";
    return 2;
  }
  // One registry for everything that follows.
  auto registry = std::make_shared<pt2ir::Registry>();
  if (llvm::Error err = mybackend::registerMyBackend(*registry))
    return fail(std::move(err));

  pt2ir::ReadOptions options;
  options.registry = registry;
  auto program = pt2ir::readProgramFile(argv[1], options);
  if (!program)
    return fail(program.takeError());

  pt2ir::PassManager pm(registry);
  pm.setVerifyHook(pt2ir::makeVerifierHook(argv[1]));
  if (llvm::Error err = pm.addPipeline(mybackend::FusePassName))
    return fail(std::move(err));
  if (llvm::Error err = pm.run(*program))
    return fail(std::move(err));
  for (const pt2ir::PassRunRecord &record : pm.getRunRecords())
    for (const auto &[name, value] : record.statistics)
      llvm::outs() << record.name << ": " << name << " = " << value << "\n";

  std::vector<pt2ir::Diagnostic> diags = pt2ir::verifyProgram(*program);
  pt2ir::printDiagnostics(llvm::errs(), argv[1], diags);
  if (pt2ir::hasErrors(diags))
    return 1;

  std::error_code ec;
  llvm::raw_fd_ostream out(argv[2], ec);
  if (ec)
    return fail(llvm::createStringError(ec, "cannot write '%s'", argv[2]));
  out << pt2ir::writeProgram(*program);
  return 0;
}
