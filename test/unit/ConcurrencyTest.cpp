//===- ConcurrencyTest.cpp - Separate programs on separate threads --------===//
//
// pt2ir keeps no global mutable state, so threads that each work on their
// own programs must get exactly the results one thread gets. Every corpus
// program is read, written, cloned, printed, verified and run through the
// pass pipeline, and its treespecs and symbolic expressions are parsed and
// printed, by 8 threads at once in different orders; every result is
// compared with a sequential run. The threads start before anything has
// been computed, so lazily built shared tables (the aten operator table,
// for instance) are first touched by several threads at once.
//
// Run under ThreadSanitizer with `scripts/sanitize.sh thread`.
//
// Not tested here: sharing one program between threads (documented as not
// thread-safe) and the archive reader's own concurrency (ArchiveTest).
//
//===----------------------------------------------------------------------===//

#include "pt2ir/ir/Printer.h"
#include "pt2ir/ir/SymbolicExpr.h"
#include "pt2ir/passes/PassManager.h"
#include "pt2ir/serde/ProgramReader.h"
#include "pt2ir/serde/ProgramWriter.h"
#include "pt2ir/treespec/Treespec.h"
#include "pt2ir/verifier/Verifier.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <algorithm>
#include <atomic>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace pt2ir {
namespace {

constexpr unsigned NumThreads = 8;
constexpr unsigned RoundsPerThread = 2;
/// Passes that exist in every build of the pipeline (passes/PassRegistry.def).
constexpr const char *Pipeline =
    "canonicalize-symbols,recompute-unbacked-bindings,insert-runtime-asserts,dce";

struct CorpusProgram {
  std::string name;
  std::string bytes;
};

/// Everything computed from one program; equal across threads.
struct ProgramResults {
  std::string written;
  std::string cloneWritten;
  std::string text;
  std::string diagnostics;
  std::string afterPasses;
  std::string rereadWritten;
  std::string treespecs;
  std::string expressions;

  bool operator==(const ProgramResults &o) const {
    return written == o.written && cloneWritten == o.cloneWritten &&
           text == o.text && diagnostics == o.diagnostics &&
           afterPasses == o.afterPasses && rereadWritten == o.rereadWritten &&
           treespecs == o.treespecs && expressions == o.expressions;
  }
};

std::vector<CorpusProgram> loadCorpus() {
  std::vector<CorpusProgram> programs;
  std::error_code ec;
  llvm::SmallString<256> dir(PT2IR_TEST_DIR);
  llvm::sys::path::append(dir, "corpus");
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    if (llvm::sys::path::extension(it->path()) != ".json")
      continue;
    auto buffer = llvm::MemoryBuffer::getFile(it->path());
    if (!buffer)
      continue;
    programs.push_back({llvm::sys::path::filename(it->path()).str(),
                        (*buffer)->getBuffer().str()});
  }
  std::sort(programs.begin(), programs.end(),
            [](const CorpusProgram &a, const CorpusProgram &b) {
              return a.name < b.name;
            });
  return programs;
}

/// Every `expr_str` string of a program's JSON, walked with a stack.
std::vector<std::string> collectExprStrings(llvm::StringRef json) {
  std::vector<std::string> out;
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseNanAndInfFlag>(json.data(), json.size());
  if (doc.HasParseError())
    return out;
  std::vector<const rapidjson::Value *> work{&doc};
  while (!work.empty()) {
    const rapidjson::Value *v = work.back();
    work.pop_back();
    if (v->IsArray()) {
      for (const rapidjson::Value &e : v->GetArray())
        work.push_back(&e);
    } else if (v->IsObject()) {
      for (const auto &m : v->GetObject()) {
        if (llvm::StringRef(m.name.GetString()) == "expr_str" &&
            m.value.IsString())
          out.emplace_back(m.value.GetString(), m.value.GetStringLength());
        work.push_back(&m.value);
      }
    }
  }
  return out;
}

std::string describeTreespecs(const ExportedProgram &ep) {
  TreespecTypeRegistry registry;
  for (const auto &[name, def] : ep.graphModule.treespecNamedtupleFields) {
    std::vector<std::string> fields(def.fieldNames.begin(),
                                    def.fieldNames.end());
    llvm::consumeError(registry.registerNamedtuple(name, fields));
  }
  std::string out;
  for (const ModuleCallEntry &entry : ep.graphModule.moduleCallGraph) {
    if (!entry.signature)
      continue;
    for (const std::string *spec :
         {&entry.signature->inSpec, &entry.signature->outSpec}) {
      auto parsed = parseTreespec(*spec, registry);
      if (!parsed) {
        out += "error: " + llvm::toString(parsed.takeError()) + "\n";
        continue;
      }
      auto dumped = dumpTreespec(*parsed, registry);
      if (!dumped) {
        out += "error: " + llvm::toString(dumped.takeError()) + "\n";
        continue;
      }
      out += std::to_string(parsed->getNumLeaves()) + " " + *dumped + "\n";
    }
  }
  return out;
}

std::string describeExpressions(llvm::StringRef json) {
  std::string out;
  for (const std::string &text : collectExprStrings(json)) {
    auto expr = sym::parseSymExpr(text);
    if (!expr) {
      out += "error: " + llvm::toString(expr.takeError()) + "\n";
      continue;
    }
    out += sym::toString(*expr, sym::Form::Plain) + " | " +
           sym::toString(*expr, sym::Form::Srepr) + "\n";
  }
  return out;
}

std::string runPipeline(ExportedProgram &ep) {
  PassManager manager;
  if (llvm::Error err = manager.addPipeline(Pipeline))
    return "pipeline error: " + llvm::toString(std::move(err));
  if (llvm::Error err = manager.run(ep))
    return "pass error: " + llvm::toString(std::move(err));
  return writeProgram(ep);
}

/// Does everything the test compares, for one program, on this thread only.
ProgramResults process(const CorpusProgram &input) {
  ProgramResults r;
  ReadOptions options;
  options.fileName = input.name;
  auto program = readProgram(input.bytes, options);
  if (!program) {
    r.written = "read error: " + llvm::toString(program.takeError());
    return r;
  }
  r.written = writeProgram(*program);
  r.cloneWritten = writeProgram(program->clone());
  {
    llvm::raw_string_ostream os(r.text);
    PrintOptions printOptions;
    printOptions.printMetadata = true;
    printProgram(os, *program, printOptions);
  }
  for (const Diagnostic &diag : verifyProgram(*program))
    r.diagnostics += formatDiagnostic(input.name, diag) + "\n";
  r.treespecs = describeTreespecs(*program);
  r.expressions = describeExpressions(r.written);

  ExportedProgram transformed = program->clone();
  r.afterPasses = runPipeline(transformed);

  auto reread = readProgram(r.written, options);
  r.rereadWritten = reread ? writeProgram(*reread)
                           : "reread error: " +
                                 llvm::toString(reread.takeError());
  return r;
}

TEST(ConcurrencyTest, SeparateProgramsOnSeparateThreadsMatchSequentialRun) {
  std::vector<CorpusProgram> corpus = loadCorpus();
  ASSERT_GE(corpus.size(), 4u) << "test/corpus should hold the sample programs";

  // Threads first: they race on any lazily initialised shared state.
  std::vector<std::vector<std::vector<ProgramResults>>> perThread(NumThreads);
  std::vector<std::thread> threads;
  std::atomic<unsigned> ready{0};
  for (unsigned t = 0; t < NumThreads; ++t) {
    perThread[t].assign(corpus.size(), {});
    threads.emplace_back([&, t] {
      std::vector<size_t> order(corpus.size());
      for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
      std::mt19937 shuffle(1234 + t);
      // Start together so the first reads overlap.
      ready.fetch_add(1);
      while (ready.load() < NumThreads)
        std::this_thread::yield();
      for (unsigned round = 0; round < RoundsPerThread; ++round) {
        std::shuffle(order.begin(), order.end(), shuffle);
        for (size_t i : order)
          perThread[t][i].push_back(process(corpus[i]));
      }
    });
  }
  for (std::thread &thread : threads)
    thread.join();

  for (size_t i = 0; i < corpus.size(); ++i) {
    SCOPED_TRACE(corpus[i].name);
    ProgramResults expected = process(corpus[i]);
    // The sequential results are meaningful, not empty or failing.
    EXPECT_EQ(expected.written.rfind("read error", 0), std::string::npos)
        << expected.written;
    EXPECT_EQ(expected.written, expected.cloneWritten);
    EXPECT_EQ(expected.written, expected.rereadWritten);
    EXPECT_FALSE(expected.text.empty());
    EXPECT_FALSE(expected.afterPasses.empty());
    for (unsigned t = 0; t < NumThreads; ++t) {
      ASSERT_EQ(perThread[t][i].size(), RoundsPerThread);
      for (unsigned round = 0; round < RoundsPerThread; ++round) {
        const ProgramResults &got = perThread[t][i][round];
        EXPECT_TRUE(got == expected) << "thread " << t << " round " << round;
        EXPECT_EQ(got.written, expected.written);
        EXPECT_EQ(got.text, expected.text);
        EXPECT_EQ(got.diagnostics, expected.diagnostics);
        EXPECT_EQ(got.afterPasses, expected.afterPasses);
        EXPECT_EQ(got.treespecs, expected.treespecs);
        EXPECT_EQ(got.expressions, expected.expressions);
      }
    }
  }
}

TEST(ConcurrencyTest, ExpressionsAndTreespecsCoverTheCorpus) {
  // Guards the test above against silently comparing nothing: the corpus
  // has symbolic shapes and module call signatures.
  std::vector<CorpusProgram> corpus = loadCorpus();
  size_t expressions = 0, treespecs = 0, passChanges = 0;
  for (const CorpusProgram &program : corpus) {
    ProgramResults r = process(program);
    expressions += llvm::StringRef(r.expressions).count('\n');
    treespecs += llvm::StringRef(r.treespecs).count('\n');
    passChanges += r.afterPasses != r.written;
    EXPECT_EQ(llvm::StringRef(r.expressions).find("error:"),
              llvm::StringRef::npos)
        << program.name << "\n"
        << r.expressions;
  }
  EXPECT_GT(expressions, 10u);
  EXPECT_GE(treespecs, 2 * corpus.size());
  EXPECT_GT(passChanges, 0u);
}

TEST(ConcurrencyTest, FailingReadsOnManyThreadsReportTheSameErrors) {
  // Error paths build messages from per-reader state; they too must not
  // interfere across threads.
  const std::vector<std::string> inputs = {
      "", "{", "[]", "{\"schema_version\": {\"major\": 8}}",
      std::string(2000, '[') + std::string(2000, ']'),
      "{\"graph_module\": 1, \"schema_version\": {\"major\": 8, \"minor\": "
      "19}, \"opset_version\": {}, \"range_constraints\": {}}"};
  auto readAll = [&] {
    std::vector<std::string> messages;
    for (const std::string &input : inputs) {
      auto program = readProgram(input);
      messages.push_back(program ? std::string("accepted")
                                 : llvm::toString(program.takeError()));
    }
    return messages;
  };
  std::vector<std::string> expected = readAll();
  for (const std::string &message : expected)
    EXPECT_NE(message, "accepted");
  std::vector<std::vector<std::string>> got(NumThreads);
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < NumThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i)
        got[t] = readAll();
    });
  for (std::thread &thread : threads)
    thread.join();
  for (unsigned t = 0; t < NumThreads; ++t)
    EXPECT_EQ(got[t], expected) << "thread " << t;
}

} // namespace
} // namespace pt2ir
