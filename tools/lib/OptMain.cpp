//===- OptMain.cpp - pt2-opt driver ---------------------------------------===//
//
// Reads a program, optionally runs passes and the verifier, and writes it
// back as JSON or as the readable text form. Mirrors mlir-opt: the logic is
// here, tools/pt2-opt.cpp only calls pt2OptMain.
//
//===----------------------------------------------------------------------===//

#include "tools/lib/OptMain.h"
#include "tools/lib/RegistryOptions.h"
#include "tools/lib/RoundTrip.h"

#include "ir/Printer.h"
#include "serde/ProgramReader.h"
#include "serde/ProgramWriter.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

namespace pt2ir {

namespace {
enum class EmitKind { Json, Text };

struct OptOptions {
  llvm::cl::OptionCategory category{"pt2-opt options"};
  llvm::cl::opt<std::string> input{llvm::cl::Positional, llvm::cl::desc("<input program (.json, or - for stdin)>"),
                                   llvm::cl::init("-"), llvm::cl::cat(category)};
  llvm::cl::opt<std::string> output{"o", llvm::cl::desc("Output file (default: stdout)"),
                                    llvm::cl::value_desc("file"), llvm::cl::init("-"), llvm::cl::cat(category)};
  llvm::cl::opt<EmitKind> emit{
      "emit", llvm::cl::desc("Output format"), llvm::cl::init(EmitKind::Json),
      llvm::cl::values(clEnumValN(EmitKind::Json, "json", "the serialized JSON program (default)"),
                       clEnumValN(EmitKind::Text, "text", "the readable text listing")),
      llvm::cl::cat(category)};
  llvm::cl::list<std::string> opSchemas{
      "op-schemas", llvm::cl::desc("Register custom operator schemas, one per line (mylib::op(Tensor x) -> Tensor)"),
      llvm::cl::value_desc("file"), llvm::cl::cat(category)};
  llvm::cl::list<std::string> extensionSchemas{
      "extension-schemas",
      llvm::cl::desc("Register extension namespaces for '#ns:op' targets from schemas, one per line"),
      llvm::cl::value_desc("file"), llvm::cl::cat(category)};
  llvm::cl::opt<bool> allowUnregisteredExtensions{
      "allow-unregistered-extensions",
      llvm::cl::desc("Keep '#ns:op' targets of unregistered namespaces as opaque strings"),
      llvm::cl::cat(category)};
  llvm::cl::opt<bool> verifyRoundTrip{
      "verify-roundtrip",
      llvm::cl::desc("Write, read back and compare in memory and as bytes; fail on any difference"),
      llvm::cl::cat(category)};
};
} // namespace

static int reportError(llvm::Error err) {
  llvm::handleAllErrors(std::move(err), [](const llvm::ErrorInfoBase &e) {
    llvm::errs() << e.message() << "\n";
  });
  return 1;
}

/// Tells whether writing reproduced the input bytes exactly. A difference
/// is not an error: legacy forms are normalized on the first write.
static void reportInputComparison(llvm::StringRef written, llvm::StringRef input,
                                  llvm::StringRef name) {
  if (written == input) {
    llvm::errs() << name << ": round trip exact: " << written.size()
                 << " bytes written, identical to the input\n";
    return;
  }
  std::string where = firstJsonDifference(written, input);
  llvm::errs() << name << ": round trip stable; the output differs from the input at "
               << (where.empty() ? std::string("the byte level (formatting)") : where)
               << " (normalized on write)\n";
}

int pt2OptMain(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  OptOptions opts;
  llvm::cl::HideUnrelatedOptions(opts.category);
  llvm::cl::ParseCommandLineOptions(argc, argv, "pt2ir optimizer driver\n");

  std::string inputName = opts.input == "-" ? std::string("<stdin>") : std::string(opts.input);
  auto buffer = opts.input == "-" ? llvm::MemoryBuffer::getSTDIN()
                                  : llvm::MemoryBuffer::getFile(opts.input, /*IsText=*/false,
                                                                /*RequiresNullTerminator=*/false);
  if (!buffer) {
    llvm::errs() << inputName << ": error: cannot read file: " << buffer.getError().message() << "\n";
    return 1;
  }
  auto registry = buildRegistry(opts.opSchemas, opts.extensionSchemas);
  if (!registry)
    return reportError(registry.takeError());
  ReadOptions readOptions;
  readOptions.fileName = inputName;
  readOptions.registry = registry->get();
  readOptions.allowUnregisteredExtensions = opts.allowUnregisteredExtensions;
  auto program = readProgram((*buffer)->getBuffer(), readOptions);
  if (!program)
    return reportError(program.takeError());

  if (opts.verifyRoundTrip) {
    if (auto err = verifyRoundTrip(*program, inputName))
      return reportError(std::move(err));
    reportInputComparison(writeProgram(*program), (*buffer)->getBuffer(), inputName);
  }

  std::string bytes;
  if (opts.emit == EmitKind::Text) {
    llvm::raw_string_ostream os(bytes);
    PrintOptions printOptions;
    printOptions.registry = registry->get();
    printProgram(os, *program, printOptions);
  } else {
    bytes = writeProgram(*program);
  }
  if (auto err = writeFileAtomically(opts.output, bytes))
    return reportError(std::move(err));
  return 0;
}

} // namespace pt2ir
