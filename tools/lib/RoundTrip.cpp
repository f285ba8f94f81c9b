//===- RoundTrip.cpp - Write, read back, compare --------------------------===//

#include "pt2ir/tools/lib/RoundTrip.h"

#include "pt2ir/json/JsonNumbers.h"
#include "pt2ir/json/PyJsonWriter.h"
#include "pt2ir/serde/ProgramReader.h"
#include "pt2ir/serde/ProgramWriter.h"

#include <rapidjson/document.h>
#include <rapidjson/memorystream.h>
#include <vector>

namespace pt2ir {

namespace {
struct Frame {
  const rapidjson::Value *a;
  const rapidjson::Value *b;
  std::string path;
};
} // namespace

std::string firstJsonDifference(llvm::StringRef ta, llvm::StringRef tb) {
  rapidjson::Document da, db;
  rapidjson::MemoryStream sa(ta.data(), ta.size()), sb(tb.data(), tb.size());
  std::string numberError;
  bool badA = json::parseDocument<rapidjson::kParseIterativeFlag>(sa, da, numberError).IsError();
  bool badB = json::parseDocument<rapidjson::kParseIterativeFlag>(sb, db, numberError).IsError();
  if (badA || badB)
    return badA != badB ? "<root> (one side is not JSON)" : "";
  std::vector<Frame> work{{&da, &db, ""}};
  auto describe = [](const std::string &p) { return p.empty() ? std::string("<root>") : p; };
  while (!work.empty()) {
    Frame f = std::move(work.back());
    work.pop_back();
    const auto &a = *f.a, &b = *f.b;
    if (a.GetType() != b.GetType())
      return describe(f.path) + " (types differ)";
    if (a.IsObject()) {
      auto ia = a.MemberBegin(), ib = b.MemberBegin();
      std::vector<Frame> children;
      for (; ia != a.MemberEnd() && ib != b.MemberEnd(); ++ia, ++ib) {
        std::string key(ia->name.GetString(), ia->name.GetStringLength());
        std::string keyB(ib->name.GetString(), ib->name.GetStringLength());
        std::string child = f.path.empty() ? key : f.path + "." + key;
        if (key != keyB)
          return describe(child) + " (keys differ: '" + key + "' vs '" + keyB + "')";
        children.push_back({&ia->value, &ib->value, child});
      }
      if (ia != a.MemberEnd() || ib != b.MemberEnd())
        return describe(f.path) + " (member counts differ)";
      for (auto it = children.rbegin(); it != children.rend(); ++it)
        work.push_back(std::move(*it));
      continue;
    }
    if (a.IsArray()) {
      if (a.Size() != b.Size())
        return describe(f.path) + " (lengths differ: " + std::to_string(a.Size()) + " vs " +
               std::to_string(b.Size()) + ")";
      for (size_t i = a.Size(); i-- > 0;)
        work.push_back({&a[i], &b[i], f.path + "[" + std::to_string(i) + "]"});
      continue;
    }
    if (pyJsonDumps(a) != pyJsonDumps(b))
      return describe(f.path) + " (values differ: " + pyJsonDumps(a) + " vs " + pyJsonDumps(b) + ")";
  }
  return "";
}

llvm::Error verifyRoundTrip(const ExportedProgram &ep, llvm::StringRef fileName) {
  std::string first = writeProgram(ep);
  ReadOptions options;
  options.registry = ep.getRegistryPtr();
  options.fileName = (fileName + " (round trip)").str();
  auto reread = readProgram(first, options);
  if (!reread)
    return reread.takeError();
  std::string second = writeProgram(*reread);
  if (first == second)
    return llvm::Error::success();
  std::string where = firstJsonDifference(first, second);
  if (where.empty())
    where = "<bytes only>";
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "%s: error: round trip changed the program at %s",
                                 fileName.str().c_str(), where.c_str());
}

} // namespace pt2ir
