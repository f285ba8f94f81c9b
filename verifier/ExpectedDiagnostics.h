//===- ExpectedDiagnostics.h - Checking findings against expectations -*- C++
//-*-===//
//
// The verifier's counterpart of mlir-opt's -verify-diagnostics. JSON has no
// comments, so expectations live in a separate text file (a lit test can
// point at itself). Any line containing `expected-error` or
// `expected-warning` is an expectation:
//
//   // expected-error@graph_module.graph.nodes[2].inputs[0].arg
//   [use-before-def] {{uses 'relu'}}
//   // expected-warning@range_constraints.s7 {{occurs in no expression}}
//   // expected-error@relu_1 {{uses its own output}}
//   // expected-error {{is not functional}}
//
//  - `@<location>` is optional: a location containing `.` or `[` is a JSON
//    path compared exactly; otherwise it is a node name compared exactly
//    with the finding's node;
//  - `[<rule>]` is optional and compared exactly;
//  - `{{<text>}}` is required: a substring of the message.
//
// Each expectation consumes one matching finding; every finding must be
// consumed. Other text on a line (the `//`, RUN lines, ...) is ignored.
//
// This file deliberately does not run the verifier or read files.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_VERIFIER_EXPECTEDDIAGNOSTICS_H
#define PT2IR_VERIFIER_EXPECTEDDIAGNOSTICS_H

#include "pt2ir/verifier/Diagnostic.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace pt2ir {

/// One expected finding, parsed from an expectation line.
struct ExpectedDiagnostic {
  Severity severity = Severity::Error;
  /// How the location is compared.
  enum class LocationKind {
    Any,
    JsonPath,
    NodeName
  } locationKind = LocationKind::Any;
  std::string location;
  /// Empty: any rule.
  std::string rule;
  /// A substring of the message.
  std::string message;
  /// 1-based line in the expectation file.
  unsigned line = 0;

  /// True if `diag` satisfies this expectation.
  bool matches(const Diagnostic &diag) const;
};

/// Parses every expectation in `text`; errors name `fileName`, the line and
/// what was expected there.
llvm::Expected<std::vector<ExpectedDiagnostic>>
parseExpectedDiagnostics(llvm::StringRef text, llvm::StringRef fileName);

/// Matches `diags` against `expected`. Prints one line per unmet expectation
/// (at `expectFile:line`) and per unexpected finding (at `inputFile`) to
/// `os`; returns true when everything matched.
bool checkExpectedDiagnostics(const std::vector<Diagnostic> &diags,
                              const std::vector<ExpectedDiagnostic> &expected,
                              llvm::StringRef inputFile,
                              llvm::StringRef expectFile,
                              llvm::raw_ostream &os);

} // namespace pt2ir

#endif
