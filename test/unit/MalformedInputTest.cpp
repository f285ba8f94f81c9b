//===- MalformedInputTest.cpp - The malformed-input corpus, through the API ===//
//
// test/malformed/ holds programs and archives that are wrong in one way each
// (made by test/malformed/generate.py). The lit tests in test/lit/malformed
// check the programs' messages through pt2-opt; this test covers what is
// better checked through the library:
//
//  - every archive is rejected with its expected message (or, for the
//    lenient cases, read and then refused by the writer);
//  - archive resource limits (entry count, entry and total size) and the
//    reader's limits (nesting depth, string length) give clear errors;
//  - every committed program except the valid one is rejected, with an
//    error that starts with the file name;
//  - reading never changes its input (bytes and modification time), and a
//    failed write leaves the existing output and no temporary behind;
//  - the deepest programs the reader accepts are read, written, printed,
//    cloned, verified and freed on a thread with a 1 MiB stack.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/archive/Pt2Archive.h"
#include "pt2ir/archive/Pt2ArchiveWriter.h"
#include "pt2ir/ir/Printer.h"
#include "pt2ir/serde/ProgramReader.h"
#include "pt2ir/serde/ProgramWriter.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/thread.h"
#include "pt2ir/verifier/Verifier.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace pt2ir {
namespace {

std::string malformedPath(llvm::StringRef name) {
  llvm::SmallString<256> path(PT2IR_TEST_DIR);
  llvm::sys::path::append(path, "malformed", name);
  return path.str().str();
}

std::vector<std::string> malformedFiles(llvm::StringRef extension) {
  std::vector<std::string> names;
  std::error_code ec;
  llvm::SmallString<256> dir(PT2IR_TEST_DIR);
  llvm::sys::path::append(dir, "malformed");
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::sys::path::extension(it->path()) == extension)
      names.push_back(llvm::sys::path::filename(it->path()).str());
  std::sort(names.begin(), names.end());
  return names;
}

std::string readBytes(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  return buffer ? (*buffer)->getBuffer().str() : std::string("<unreadable>");
}

/// A program whose graph has a node with a subgraph, whose node has a
/// subgraph, ... `levels` subgraphs deep, written as torch writes JSON.
std::string nestedSubgraphProgram(unsigned levels) {
  const std::string tables =
      "\"tensor_values\": {}, \"sym_int_values\": {}, \"sym_bool_values\": "
      "{}, \"is_single_tensor_return\": false, \"custom_obj_values\": {}, "
      "\"sym_float_values\": {}}";
  std::string graph = "{\"inputs\": [], \"outputs\": [], \"nodes\": [], " +
                      tables;
  for (unsigned i = 0; i < levels; ++i)
    graph = "{\"inputs\": [], \"outputs\": [], \"nodes\": [{\"target\": "
            "\"torch.ops.higher_order.wrap\", \"inputs\": [{\"name\": \"\", "
            "\"arg\": {\"as_graph\": {\"name\": \"g\", \"graph\": " +
            graph +
            "}}, \"kind\": 1}], \"outputs\": [], \"metadata\": {}, "
            "\"is_hop_single_tensor_return\": null, \"name\": \"wrap\"}], " +
            tables;
  return "{\"graph_module\": {\"graph\": " + graph +
         ", \"signature\": {\"input_specs\": [], \"output_specs\": []}, "
         "\"module_call_graph\": [], \"metadata\": {}, "
         "\"treespec_namedtuple_fields\": {}}, \"opset_version\": {}, "
         "\"range_constraints\": {}, \"schema_version\": {\"major\": 8, "
         "\"minor\": 19}, \"verifiers\": [], \"torch_version\": \"2.9.0\", "
         "\"guards_code\": []}";
}

/// A program with one node whose argument is `levels` nested
/// as_string_to_argument maps.
std::string nestedMapProgram(unsigned levels) {
  std::string arg = "{\"as_int\": 1}";
  for (unsigned i = 0; i < levels; ++i)
    arg = "{\"as_string_to_argument\": {\"k\": " + arg + "}}";
  std::string program = nestedSubgraphProgram(0);
  std::string nodes = "\"nodes\": []";
  size_t at = program.find(nodes);
  return program.replace(
      at, nodes.size(),
      "\"nodes\": [{\"target\": \"torch.ops.test.deep.default\", "
      "\"inputs\": [{\"name\": \"m\", \"arg\": " +
          arg +
          ", \"kind\": 1}], \"outputs\": [], \"metadata\": {}, "
          "\"is_hop_single_tensor_return\": null, \"name\": \"deep\"}]");
}

/// Everything a driver does with an archive: open, read every entry, sort
/// the contents and read each program. Returns the first error, or "".
std::string readArchive(const std::string &path,
                        const ArchiveLimits &limits = {}) {
  auto archive = Pt2Archive::open(path, limits);
  if (!archive)
    return llvm::toString(archive.takeError());
  for (const std::string &entry : archive->entryPaths()) {
    auto bytes = archive->readEntry(entry);
    if (!bytes)
      return llvm::toString(bytes.takeError());
  }
  auto contents = archive->readContents();
  if (!contents)
    return llvm::toString(contents.takeError());
  for (const Pt2Model &model : contents->models) {
    ReadOptions options;
    options.fileName = path + ":models/" + model.name + ".json";
    auto program = readProgram(model.programJson, options);
    if (!program)
      return llvm::toString(program.takeError());
  }
  return "";
}

struct ArchiveCase {
  const char *file;
  const char *expected;
};

/// The expected message of every malformed archive (a substring).
const ArchiveCase ArchiveCases[] = {
    {"archive-absolute-path.pt2",
     "unsafe entry name '/archive/abs': it is an absolute path"},
    {"archive-backslash-path.pt2", "it contains a backslash"},
    {"archive-bad-crc.pt2",
     "entry 'archive/models/model.json': data is corrupt: CRC error"},
    {"archive-broken-weights-config.pt2",
     "model 'model': weights config: payload config nests deeper than 64 "
     "levels"},
    {"archive-dot-component.pt2",
     "unsafe entry name 'archive/x/./y': it has a '.' component"},
    {"archive-duplicate-entry.pt2", "duplicate entry 'archive/extra/a'"},
    {"archive-empty-file.pt2",
     "corrupt zip archive: the file is 0 bytes, too short for an "
     "end-of-central-directory record"},
    {"archive-encrypted-flag.pt2",
     "entry 'archive/models/model.json': encrypted entries are not supported"},
    {"archive-inflates-past-declared-size.pt2",
     "entry 'archive/extra/bomb': data is longer than the declared 1000 "
     "bytes"},
    {"archive-malformed-program.pt2",
     "models/model.json:1:101: error: invalid JSON: Missing a closing "
     "quotation mark in string."},
    {"archive-not-a-zip.pt2", "corrupt zip archive: no "
                              "end-of-central-directory record"},
    {"archive-oversize-entry.pt2",
     "entry 'archive/extra/big': declares 21474836480 uncompressed bytes, "
     "more than the per-entry limit of 17179869184"},
    {"archive-path-traversal.pt2",
     "unsafe entry name 'archive/../../evil': it has a '..' component"},
    {"archive-truncated-directory.pt2",
     "corrupt zip archive: no end-of-central-directory record"},
    {"archive-truncated-half.pt2",
     "corrupt zip archive: no end-of-central-directory record"},
    {"archive-two-top-level-folders.pt2",
     "more than one top-level folder: 'archive' and 'other'"},
    {"archive-unknown-method.pt2",
     "compression method 99 is not supported (only stored and deflated)"},
    {"archive-wrong-format.pt2", "archive_format is 'zip', expected 'pt2'"},
    {"archive-wrong-version.pt2",
     "archive_version is '7'; only version 0 is supported"},
};

/// Archives the reader accepts (payloads are looked up by name inside the
/// archive only, so a bad name is just dangling) but the writer refuses.
const ArchiveCase RefusedOnWrite[] = {
    {"archive-config-names-missing-payload.pt2",
     "the weights config refers to 'weight_0', which is not in the archive"},
    {"archive-config-path-traversal.pt2",
     "the weights config refers to '../../../etc/passwd', which is not in the "
     "archive"},
};

TEST(MalformedInputTest, EveryArchiveHasAnExpectation) {
  std::vector<std::string> files = malformedFiles(".pt2");
  EXPECT_GE(files.size(), 20u);
  for (const std::string &file : files) {
    bool known = file == "archive-valid.pt2";
    for (const ArchiveCase &c : ArchiveCases)
      known |= file == c.file;
    for (const ArchiveCase &c : RefusedOnWrite)
      known |= file == c.file;
    EXPECT_TRUE(known) << file << " has no expected message in this test";
  }
}

TEST(MalformedInputTest, ArchivesAreRejectedWithClearErrors) {
  EXPECT_EQ(readArchive(malformedPath("archive-valid.pt2")), "");
  for (const ArchiveCase &c : ArchiveCases) {
    SCOPED_TRACE(c.file);
    std::string path = malformedPath(c.file);
    std::string error = readArchive(path);
    EXPECT_NE(error.find(c.expected), std::string::npos) << error;
    // Every message says which file it is about.
    EXPECT_EQ(error.rfind(path, 0), 0u) << error;
  }
}

TEST(MalformedInputTest, DanglingPayloadNamesAreRefusedOnWrite) {
  llvm::SmallString<128> out;
  ASSERT_FALSE(
      llvm::sys::fs::createTemporaryFile("malformed-rewrite", "pt2", out));
  llvm::sys::fs::remove(out);
  for (const ArchiveCase &c : RefusedOnWrite) {
    SCOPED_TRACE(c.file);
    auto archive = Pt2Archive::open(malformedPath(c.file));
    ASSERT_TRUE(static_cast<bool>(archive))
        << llvm::toString(archive.takeError());
    auto contents = archive->readContents();
    ASSERT_TRUE(static_cast<bool>(contents))
        << llvm::toString(contents.takeError());
    llvm::Error err = writePt2Archive(out, *contents);
    std::string message = err ? llvm::toString(std::move(err)) : "";
    EXPECT_NE(message.find(c.expected), std::string::npos) << message;
    EXPECT_FALSE(llvm::sys::fs::exists(out));
  }
}

TEST(MalformedInputTest, ArchiveLimitsGiveClearErrors) {
  std::string valid = malformedPath("archive-valid.pt2");
  ArchiveLimits fewEntries;
  fewEntries.maxEntries = 3;
  EXPECT_NE(readArchive(valid, fewEntries).find("limit of 3"),
            std::string::npos)
      << readArchive(valid, fewEntries);
  ArchiveLimits smallEntries;
  smallEntries.maxEntryBytes = 100;
  EXPECT_NE(readArchive(valid, smallEntries).find("per-entry limit of 100"),
            std::string::npos)
      << readArchive(valid, smallEntries);
  ArchiveLimits smallTotal;
  smallTotal.maxTotalBytes = 1000;
  EXPECT_NE(readArchive(valid, smallTotal).find("1000"), std::string::npos)
      << readArchive(valid, smallTotal);
}

TEST(MalformedInputTest, ReaderLimitsGiveClearErrors) {
  std::string base = readBytes(malformedPath("valid-base.json"));
  ASSERT_TRUE(static_cast<bool>(readProgram(base)));

  ReadOptions shortStrings;
  shortStrings.fileName = "short.json";
  shortStrings.maxStringLength = 8;
  auto program = readProgram(base, shortStrings);
  ASSERT_FALSE(static_cast<bool>(program));
  std::string message = llvm::toString(program.takeError());
  EXPECT_NE(message.find("is longer than the limit of 8"), std::string::npos)
      << message;
  EXPECT_EQ(message.rfind("short.json: error: ", 0), 0u) << message;

  // Two nested subgraphs under a subgraph limit of one.
  std::string program2 = nestedSubgraphProgram(2);
  ASSERT_TRUE(static_cast<bool>(readProgram(program2)))
      << llvm::toString(readProgram(program2).takeError());
  ReadOptions shallow;
  shallow.maxSubgraphDepth = 1;
  auto deep = readProgram(program2, shallow);
  ASSERT_FALSE(static_cast<bool>(deep));
  message = llvm::toString(deep.takeError());
  EXPECT_NE(message.find("subgraphs nested deeper than the limit of 1"),
            std::string::npos)
      << message;
  ReadOptions shallowJson;
  shallowJson.maxDepth = 1;
  deep = readProgram(program2, shallowJson);
  ASSERT_FALSE(static_cast<bool>(deep));
  message = llvm::toString(deep.takeError());
  EXPECT_NE(message.find("nesting deeper than the limit of 1"),
            std::string::npos)
      << message;
}

TEST(MalformedInputTest, Utf8LeadByteAtTheEndIsRejectedInBounds) {
  // RapidJSON's UTF-8 validation takes a lead byte's continuation bytes
  // without checking for the end, so a lead byte last in the input read and
  // wrote past the reader's in-situ copy (fuzz finding: a stack overflow of
  // a 15-byte copy held in the string itself; ASan catches both cases).
  std::vector<std::string> inputs = {"{\"grcph_module\xeb"};
  for (const char *lead : {"\xc2", "\xe0", "\xed", "\xeb", "\xf0", "\xf4"}) {
    inputs.push_back(std::string("{\"") + lead);
    inputs.push_back(std::string("{\"a\": \"") + std::string(200, 'x') + lead);
    inputs.push_back(std::string("\"") + lead + "\x80");
  }
  for (const std::string &input : inputs) {
    SCOPED_TRACE(input);
    auto program = readProgram(input);
    ASSERT_FALSE(static_cast<bool>(program));
    std::string message = llvm::toString(program.takeError());
    EXPECT_NE(message.find("invalid JSON"), std::string::npos) << message;
  }
}

TEST(MalformedInputTest, SubgraphNestingIsCappedByDefault) {
  unsigned limit = ReadOptions().maxSubgraphDepth;
  auto atLimit = readProgram(nestedSubgraphProgram(limit));
  EXPECT_TRUE(static_cast<bool>(atLimit))
      << llvm::toString(atLimit.takeError());
  auto past = readProgram(nestedSubgraphProgram(limit + 1));
  ASSERT_FALSE(static_cast<bool>(past));
  std::string message = llvm::toString(past.takeError());
  EXPECT_NE(message.find("subgraphs nested deeper than the limit of " +
                         std::to_string(limit)),
            std::string::npos)
      << message;
}

/// Sanitizers make frames several times larger; the budget scales with them.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr unsigned SmallStackBytes = 8u << 20;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr unsigned SmallStackBytes = 8u << 20;
#else
constexpr unsigned SmallStackBytes = 1u << 20;
#endif
#else
constexpr unsigned SmallStackBytes = 1u << 20;
#endif

TEST(MalformedInputTest, DeepestAcceptedProgramsFitInASmallStack) {
  // Everything that recurses over user data is bounded by the reader's
  // limits; at those limits the whole pipeline fits in 1 MiB of stack.
  const std::string inputs[] = {
      nestedSubgraphProgram(ReadOptions().maxSubgraphDepth),
      nestedMapProgram(ReadOptions().maxDepth)};
  for (const std::string &input : inputs) {
    bool finished = false;
    std::string failure;
    llvm::thread worker(std::optional<unsigned>(SmallStackBytes), [&] {
      auto program = readProgram(input);
      if (!program) {
        failure = llvm::toString(program.takeError());
        return;
      }
      std::string json = writeProgram(*program);
      std::string text;
      llvm::raw_string_ostream os(text);
      printProgram(os, *program);
      {
        ExportedProgram copy = program->clone();
        if (writeProgram(copy) != json)
          failure = "the clone writes different JSON";
      }
      (void)verifyProgram(*program);
      if (json != input)
        failure = "the program does not round-trip byte for byte";
      finished = true;
    });
    worker.join();
    EXPECT_TRUE(finished) << failure;
    EXPECT_EQ(failure, "");
  }
}

TEST(MalformedInputTest, EveryCommittedProgramButTheValidOneIsRejected) {
  std::vector<std::string> files = malformedFiles(".json");
  EXPECT_GE(files.size(), 60u);
  for (const std::string &file : files) {
    SCOPED_TRACE(file);
    std::string path = malformedPath(file);
    auto program = readProgramFile(path);
    if (file == "valid-base.json") {
      EXPECT_TRUE(static_cast<bool>(program))
          << llvm::toString(program.takeError());
      continue;
    }
    ASSERT_FALSE(static_cast<bool>(program));
    std::string message = llvm::toString(program.takeError());
    EXPECT_EQ(message.rfind(path, 0), 0u) << message;
    EXPECT_NE(message.find("error: "), std::string::npos) << message;
  }
}

TEST(MalformedInputTest, ReadingNeverChangesItsInput) {
  std::vector<std::string> files = malformedFiles(".json");
  for (const std::string &file : malformedFiles(".pt2"))
    files.push_back(file);
  for (const std::string &file : files) {
    SCOPED_TRACE(file);
    std::string path = malformedPath(file);
    llvm::sys::fs::file_status before;
    ASSERT_FALSE(llvm::sys::fs::status(path, before));
    std::string bytes = readBytes(path);
    if (llvm::StringRef(file).ends_with(".pt2"))
      (void)readArchive(path);
    else if (auto program = readProgramFile(path); !program)
      llvm::consumeError(program.takeError());
    llvm::sys::fs::file_status after;
    ASSERT_FALSE(llvm::sys::fs::status(path, after));
    EXPECT_EQ(readBytes(path), bytes);
    EXPECT_EQ(after.getLastModificationTime(),
              before.getLastModificationTime());
    EXPECT_EQ(after.getSize(), before.getSize());
  }
}

TEST(MalformedInputTest, FailedWritesLeaveExistingOutputAndNoTemporary) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("malformed-out", dir));
  auto listDir = [&] {
    std::vector<std::string> names;
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
         it.increment(ec))
      names.push_back(llvm::sys::path::filename(it->path()).str());
    std::sort(names.begin(), names.end());
    return names;
  };

  // The output path is an existing directory: the final rename fails.
  llvm::SmallString<128> asDir(dir);
  llvm::sys::path::append(asDir, "out.json");
  ASSERT_FALSE(llvm::sys::fs::create_directory(asDir));
  llvm::SmallString<128> keep(asDir);
  llvm::sys::path::append(keep, "keep");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(keep, ec);
    ASSERT_FALSE(ec);
    os << "previous";
  }
  llvm::Error err = writeFileAtomically(asDir, "{}");
  EXPECT_TRUE(static_cast<bool>(err));
  llvm::consumeError(std::move(err));
  EXPECT_TRUE(llvm::sys::fs::is_directory(asDir));
  EXPECT_EQ(readBytes(keep.str().str()), "previous");
  EXPECT_EQ(listDir(), std::vector<std::string>{"out.json"});

  // The output's folder is a regular file: nothing can be created.
  llvm::SmallString<128> file(dir);
  llvm::sys::path::append(file, "plain");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(file, ec);
    ASSERT_FALSE(ec);
    os << "plain file";
  }
  llvm::SmallString<128> under(file);
  llvm::sys::path::append(under, "out.json");
  err = writeFileAtomically(under, "{}");
  EXPECT_TRUE(static_cast<bool>(err));
  llvm::consumeError(std::move(err));
  EXPECT_EQ(readBytes(file.str().str()), "plain file");
  EXPECT_EQ(listDir(), (std::vector<std::string>{"out.json", "plain"}));

  // The same for archives: a failed archive write keeps the old file.
  llvm::SmallString<128> archivePath(dir);
  llvm::sys::path::append(archivePath, "model.pt2");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(archivePath, ec);
    ASSERT_FALSE(ec);
    os << "old archive";
  }
  auto archive =
      Pt2Archive::open(malformedPath("archive-config-names-missing-payload.pt2"));
  ASSERT_TRUE(static_cast<bool>(archive));
  auto contents = archive->readContents();
  ASSERT_TRUE(static_cast<bool>(contents));
  err = writePt2Archive(archivePath, *contents);
  EXPECT_TRUE(static_cast<bool>(err));
  llvm::consumeError(std::move(err));
  EXPECT_EQ(readBytes(archivePath.str().str()), "old archive");
  EXPECT_EQ(listDir(),
            (std::vector<std::string>{"model.pt2", "out.json", "plain"}));

  llvm::sys::fs::remove_directories(dir);
}

} // namespace
} // namespace pt2ir
