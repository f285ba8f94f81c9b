//===- FuzzSupport.cpp - Shared helpers of the libFuzzer targets ----------===//
//
// Oracle failures print both sides before aborting; the scratch file lives
// in the system temporary folder and is removed when its owner is destroyed.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/fuzz/FuzzSupport.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace pt2ir::fuzz {

void oracleFailure(const llvm::Twine &what, llvm::StringRef expected,
                   llvm::StringRef actual) {
  llvm::errs() << "pt2ir fuzz oracle violated: " << what << "\n";
  if (!expected.empty() || !actual.empty()) {
    size_t at = 0;
    while (at < expected.size() && at < actual.size() &&
           expected[at] == actual[at])
      ++at;
    size_t from = at > 80 ? at - 80 : 0;
    llvm::errs() << "first difference at byte " << at << "\n"
                 << "expected: ..." << expected.substr(from, 200) << "\n"
                 << "actual:   ..." << actual.substr(from, 200) << "\n";
  }
  llvm::errs().flush();
  std::abort();
}

ScratchFile::ScratchFile(llvm::StringRef suffix) {
  llvm::SmallString<128> path;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("pt2ir-fuzz", suffix, path)) {
    llvm::errs() << "cannot create a scratch file: " << ec.message() << "\n";
    std::abort();
  }
  filePath = path.str().str();
}

ScratchFile::~ScratchFile() { llvm::sys::fs::remove(filePath); }

void ScratchFile::write(llvm::StringRef bytes) const {
  std::error_code ec;
  llvm::raw_fd_ostream os(filePath, ec);
  if (!ec) {
    os << bytes;
    os.close();
    if (!os.has_error())
      return;
    ec = os.error();
    os.clear_error();
  }
  llvm::errs() << "cannot write " << filePath << ": " << ec.message() << "\n";
  std::abort();
}

} // namespace pt2ir::fuzz
