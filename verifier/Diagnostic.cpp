//===- Diagnostic.cpp - Formatting and sorting findings
//--------------------===//
//
// Formats, sorts and counts verifier findings. Finding them is the business of
// the check files.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/verifier/Diagnostic.h"

#include "llvm/ADT/Twine.h"

#include <algorithm>

namespace pt2ir {

llvm::StringRef severityName(Severity severity) {
  return severity == Severity::Error ? "error" : "warning";
}

std::string formatDiagnosticBody(const Diagnostic &diag) {
  std::string body;
  llvm::raw_string_ostream os(body);
  os << (diag.jsonPath.empty() ? std::string("<root>") : diag.jsonPath) << ": ["
     << diag.rule << "] ";
  if (!diag.nodeName.empty())
    os << "node '" << diag.nodeName << "': ";
  os << diag.message;
  return body;
}

std::string formatDiagnostic(llvm::StringRef fileName, const Diagnostic &diag) {
  return (fileName + ": " + severityName(diag.severity) + ": " +
          formatDiagnosticBody(diag))
      .str();
}

void printDiagnostics(llvm::raw_ostream &os, llvm::StringRef fileName,
                      const std::vector<Diagnostic> &diags) {
  for (const Diagnostic &diag : diags)
    os << formatDiagnostic(fileName, diag) << "\n";
}

void sortDiagnostics(std::vector<Diagnostic> &diags) {
  std::stable_sort(diags.begin(), diags.end(),
                   [](const Diagnostic &a, const Diagnostic &b) {
                     return a.order < b.order;
                   });
}

bool hasErrors(const std::vector<Diagnostic> &diags) {
  return countDiagnostics(diags, Severity::Error) != 0;
}

size_t countDiagnostics(const std::vector<Diagnostic> &diags,
                        Severity severity) {
  return std::count_if(diags.begin(), diags.end(), [&](const Diagnostic &d) {
    return d.severity == severity;
  });
}

} // namespace pt2ir
