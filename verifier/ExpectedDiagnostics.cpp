//===- ExpectedDiagnostics.cpp - Checking findings against expectations ---===//
//
// Parses `expected-error@loc [rule] {{text}}` lines and matches them against
// the verifier's findings, first unmatched finding first. Running the
// verifier and reading files is the caller's business.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/verifier/ExpectedDiagnostics.h"

#include "llvm/ADT/StringExtras.h"

namespace pt2ir {

static llvm::Error parseError(llvm::StringRef fileName, unsigned line,
                              const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 fileName + ":" + llvm::Twine(line) +
                                     ": error: " + msg);
}

bool ExpectedDiagnostic::matches(const Diagnostic &diag) const {
  if (diag.severity != severity)
    return false;
  if (!rule.empty() && diag.rule != rule)
    return false;
  switch (locationKind) {
  case LocationKind::Any:
    break;
  case LocationKind::JsonPath:
    if (diag.jsonPath != location)
      return false;
    break;
  case LocationKind::NodeName:
    if (diag.nodeName != location)
      return false;
    break;
  }
  return llvm::StringRef(diag.message).contains(message);
}

/// Parses the expectation that starts right after `expected-<severity>`.
static llvm::Error parseOne(llvm::StringRef rest, ExpectedDiagnostic &out,
                            llvm::StringRef fileName, unsigned line) {
  if (rest.consume_front("@")) {
    size_t end = rest.find_first_of(" \t");
    llvm::StringRef loc = rest.take_front(end);
    if (loc.empty())
      return parseError(fileName, line, "expected a location after '@'");
    out.location = loc.str();
    out.locationKind = loc.find_first_of(".[") != llvm::StringRef::npos
                           ? ExpectedDiagnostic::LocationKind::JsonPath
                           : ExpectedDiagnostic::LocationKind::NodeName;
    rest = rest.drop_front(loc.size());
  }
  rest = rest.ltrim();
  if (rest.consume_front("[")) {
    size_t end = rest.find(']');
    if (end == llvm::StringRef::npos || end == 0)
      return parseError(fileName, line, "expected a rule id and ']'");
    out.rule = rest.take_front(end).str();
    rest = rest.drop_front(end + 1).ltrim();
  }
  if (!rest.consume_front("{{"))
    return parseError(fileName, line,
                      "expected '{{' followed by the expected message");
  size_t end = rest.find("}}");
  if (end == llvm::StringRef::npos)
    return parseError(fileName, line, "expected '}}' after the message");
  out.message = rest.take_front(end).str();
  return llvm::Error::success();
}

llvm::Expected<std::vector<ExpectedDiagnostic>>
parseExpectedDiagnostics(llvm::StringRef text, llvm::StringRef fileName) {
  std::vector<ExpectedDiagnostic> result;
  unsigned lineNo = 0;
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    text = rest;
    ++lineNo;
    static const struct {
      const char *marker;
      Severity severity;
    } Markers[] = {{"expected-error", Severity::Error},
                   {"expected-warning", Severity::Warning}};
    for (const auto &m : Markers) {
      size_t at = line.find(m.marker);
      if (at == llvm::StringRef::npos)
        continue;
      llvm::StringRef after = line.drop_front(at + strlen(m.marker));
      // `expected-errors` or `expected-error-foo` are other words.
      if (!after.empty() && after.front() != '@' && after.front() != ' ' &&
          after.front() != '\t')
        continue;
      ExpectedDiagnostic e;
      e.severity = m.severity;
      e.line = lineNo;
      if (llvm::Error err = parseOne(after, e, fileName, lineNo))
        return err;
      result.push_back(std::move(e));
      break;
    }
  }
  return result;
}

bool checkExpectedDiagnostics(const std::vector<Diagnostic> &diags,
                              const std::vector<ExpectedDiagnostic> &expected,
                              llvm::StringRef inputFile,
                              llvm::StringRef expectFile,
                              llvm::raw_ostream &os) {
  std::vector<bool> consumed(diags.size(), false);
  bool ok = true;
  for (const ExpectedDiagnostic &e : expected) {
    bool found = false;
    for (size_t i = 0; i < diags.size() && !found; ++i) {
      if (consumed[i] || !e.matches(diags[i]))
        continue;
      consumed[i] = true;
      found = true;
    }
    if (found)
      continue;
    ok = false;
    os << expectFile << ":" << e.line << ": error: expected "
       << severityName(e.severity);
    if (e.locationKind != ExpectedDiagnostic::LocationKind::Any)
      os << " at " << e.location;
    if (!e.rule.empty())
      os << " [" << e.rule << "]";
    os << " {{" << e.message << "}} was not produced\n";
  }
  for (size_t i = 0; i < diags.size(); ++i) {
    if (consumed[i])
      continue;
    ok = false;
    os << inputFile << ": error: unexpected " << severityName(diags[i].severity)
       << ": " << formatDiagnosticBody(diags[i]) << "\n";
  }
  return ok;
}

} // namespace pt2ir
