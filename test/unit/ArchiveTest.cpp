//===- ArchiveTest.cpp - Tests for the .pt2 archive layer -----------------===//
//
// Builds archives with writePt2Archive and reads them back; checks that
// every payload is stored and 64-byte aligned with torch's "FB" padding;
// reads deflated entries (made with libzip directly) and ZIP64 records (made
// byte by byte); rejects every unsafe or corrupt input the reader and writer
// promise to reject, with the entry named; checks that pass-through is byte
// identical, that failed writes leave nothing behind, that the pre-archive
// layout is read as one model, and that Python's zipfile (when
// /usr/bin/python3 exists) opens a written archive, finds the expected names
// and agrees on the alignment.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/archive/ArchivePath.h"
#include "pt2ir/archive/Pt2Archive.h"
#include "pt2ir/archive/Pt2ArchiveLayout.h"
#include "pt2ir/archive/Pt2ArchiveWriter.h"
#include "pt2ir/archive/ZipReader.h"
#include "pt2ir/archive/ZipWriter.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CRC.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>
#include <zip.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <thread>

using namespace pt2ir;
using llvm::StringRef;

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

std::string errorText(llvm::Error err) {
  return err ? llvm::toString(std::move(err)) : std::string();
}

template <typename T> std::string errorText(llvm::Expected<T> value) {
  if (value)
    return std::string();
  return llvm::toString(value.takeError());
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in),
                     std::istreambuf_iterator<char>());
}

void writeFile(const std::string &path, StringRef bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
}

uint16_t load16(StringRef bytes, size_t at) {
  return uint16_t(uint8_t(bytes[at]) | (uint8_t(bytes[at + 1]) << 8));
}

/// A scratch directory removed at the end of each test.
class ArchiveTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("pt2ir-archive", dir));
    root = std::string(dir);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(root); }

  std::string path(StringRef name) const { return root + "/" + name.str(); }

  /// Names of the files in the scratch directory.
  std::vector<std::string> listDirectory() const {
    std::vector<std::string> names;
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(root, ec), end; it != end && !ec;
         it.increment(ec))
      names.push_back(llvm::sys::path::filename(it->path()).str());
    std::sort(names.begin(), names.end());
    return names;
  }

  std::string root;
};

/// A program JSON good enough for the archive layer (which never parses it).
std::string programJson(StringRef tag) {
  return "{\"graph_module\": {\"graph\": {\"nodes\": []}}, \"tag\": \"" +
         tag.str() + "\", \"schema_version\": {\"major\": 8, \"minor\": 19}}";
}

std::string payloadConfig(
    std::initializer_list<std::pair<StringRef, StringRef>> fqnToPath) {
  std::string json = "{\"config\": {";
  bool first = true;
  for (auto [fqn, path] : fqnToPath) {
    if (!first)
      json += ", ";
    first = false;
    json += "\"" + fqn.str() + "\": {\"path_name\": \"" + path.str() +
            "\", \"is_param\": true, \"use_pickle\": false, \"tensor_meta\": "
            "{\"dtype\": 7, \"sizes\": [{\"as_int\": 4}]}}";
  }
  return json + "}}";
}

/// Bytes that are not all alike, so misplaced reads show.
std::string patternBytes(size_t size, unsigned seed) {
  std::string bytes(size, '\0');
  for (size_t i = 0; i < size; ++i)
    bytes[i] = char((i * 131 + seed * 17 + (i >> 8)) & 0xff);
  return bytes;
}

/// A two-model archive touching every category of the layout.
Pt2ArchiveContents sampleContents() {
  Pt2ArchiveContents contents;
  Pt2Model a;
  a.name = "model";
  a.programJson = programJson("a");
  a.weightsConfigJson = payloadConfig(
      {{"linear.weight", "weight_0"}, {"linear.bias", "weight_1"}});
  a.weights.push_back(
      {"weight_0", PayloadSource::fromBytes(patternBytes(48, 1))});
  a.weights.push_back(
      {"weight_1", PayloadSource::fromBytes(patternBytes(13, 2))});
  a.constantsConfigJson =
      payloadConfig({{"lifted_tensor_0", "tensor_0"}, {"obj", "custom_obj_0"}});
  a.constants.push_back(
      {"tensor_0", PayloadSource::fromBytes(patternBytes(7, 3))});
  a.constants.push_back(
      {"custom_obj_0", PayloadSource::fromBytes("\x80\x02opaque pickle")});
  a.sampleInputs = PayloadSource::fromBytes("\x80\x02sample inputs pickle");

  Pt2Model b;
  b.name = "second";
  b.programJson = programJson("b");
  b.weightsConfigJson = payloadConfig({{"w", "weight_2"}});
  b.weights.push_back(
      {"weight_2", PayloadSource::fromBytes(patternBytes(100, 4))});
  b.constantsConfigJson = payloadConfig({});
  b.sampleInputs = PayloadSource::fromBytes("inputs b");

  contents.models.push_back(std::move(a));
  contents.models.push_back(std::move(b));
  contents.aotinductorFiles.push_back(
      {"model/abc.wrapper.so", PayloadSource::fromBytes(patternBytes(333, 5))});
  contents.extraFiles.push_back(
      {"module_info.json", PayloadSource::fromBytes("{\"info\": 1}")});
  contents.otherFiles.push_back(
      {"data/mtia/blob.bin", PayloadSource::fromBytes(patternBytes(65, 6))});
  return contents;
}

std::string bytesOf(const PayloadSource &source) {
  llvm::Expected<std::string> bytes = source.readAll();
  if (!bytes) {
    ADD_FAILURE() << llvm::toString(bytes.takeError());
    return std::string();
  }
  return *bytes;
}

/// A zip built byte by byte, so that every field can be made wrong.
struct RawEntry {
  RawEntry(std::string name, std::string data)
      : name(std::move(name)), data(std::move(data)) {}

  std::string name;
  /// The bytes as they appear in the file.
  std::string data;
  uint16_t method = 0;
  uint16_t flags = 0;
  std::optional<std::string> localName;
  std::optional<uint32_t> crc;
  /// Overrides both sizes in the local header / the central directory.
  std::optional<uint64_t> localSize;
  std::optional<uint64_t> centralSize;
  /// Overrides the local header offset recorded in the central directory.
  std::optional<uint64_t> centralOffset;
};

void put16(std::string &out, uint64_t v) {
  out.push_back(char(v & 0xff));
  out.push_back(char((v >> 8) & 0xff));
}
void put32(std::string &out, uint64_t v) {
  put16(out, v & 0xffff);
  put16(out, (v >> 16) & 0xffff);
}
void put64(std::string &out, uint64_t v) {
  put32(out, v & 0xffffffffu);
  put32(out, v >> 32);
}

/// Writes `entries` as a zip; with `zip64`, every size and offset goes
/// through ZIP64 extra fields and ZIP64 end records.
std::string buildZip(const std::vector<RawEntry> &entries, bool zip64 = false) {
  std::string out;
  std::vector<uint64_t> offsets;
  for (const RawEntry &e : entries) {
    offsets.push_back(out.size());
    std::string name = e.localName.value_or(e.name);
    uint32_t crc =
        e.crc.value_or(llvm::crc32(llvm::arrayRefFromStringRef(e.data)));
    uint64_t size = e.localSize.value_or(e.data.size());
    put32(out, 0x04034b50);
    put16(out, zip64 ? 45 : 20);
    put16(out, e.flags);
    put16(out, e.method);
    put16(out, 0);
    put16(out, 0x21);
    put32(out, crc);
    put32(out, zip64 ? 0xffffffffu : size);
    put32(out, zip64 ? 0xffffffffu : size);
    put16(out, name.size());
    put16(out, zip64 ? 20 : 0);
    out += name;
    if (zip64) {
      put16(out, 1);
      put16(out, 16);
      put64(out, size);
      put64(out, size);
    }
    out += e.data;
  }
  uint64_t directoryStart = out.size();
  for (size_t i = 0; i < entries.size(); ++i) {
    const RawEntry &e = entries[i];
    uint32_t crc =
        e.crc.value_or(llvm::crc32(llvm::arrayRefFromStringRef(e.data)));
    uint64_t size = e.centralSize.value_or(e.data.size());
    uint64_t offset = e.centralOffset.value_or(offsets[i]);
    put32(out, 0x02014b50);
    put16(out, 0x031e);
    put16(out, zip64 ? 45 : 20);
    put16(out, e.flags);
    put16(out, e.method);
    put16(out, 0);
    put16(out, 0x21);
    put32(out, crc);
    put32(out, zip64 ? 0xffffffffu : size);
    put32(out, zip64 ? 0xffffffffu : size);
    put16(out, e.name.size());
    put16(out, zip64 ? 28 : 0);
    put16(out, 0);
    put16(out, 0);
    put16(out, 0);
    put32(out, 0);
    put32(out, zip64 ? 0xffffffffu : offset);
    out += e.name;
    if (zip64) {
      put16(out, 1);
      put16(out, 24);
      put64(out, size);
      put64(out, size);
      put64(out, offset);
    }
  }
  uint64_t directorySize = out.size() - directoryStart;
  if (zip64) {
    uint64_t zip64End = out.size();
    put32(out, 0x06064b50);
    put64(out, 44);
    put16(out, 45);
    put16(out, 45);
    put32(out, 0);
    put32(out, 0);
    put64(out, entries.size());
    put64(out, entries.size());
    put64(out, directorySize);
    put64(out, directoryStart);
    put32(out, 0x07064b50);
    put32(out, 0);
    put64(out, zip64End);
    put32(out, 1);
  }
  put32(out, 0x06054b50);
  put16(out, 0);
  put16(out, 0);
  put16(out, zip64 ? 0xffff : entries.size());
  put16(out, zip64 ? 0xffff : entries.size());
  put32(out, zip64 ? 0xffffffffu : directorySize);
  put32(out, zip64 ? 0xffffffffu : directoryStart);
  put16(out, 0);
  return out;
}

/// The minimal valid pt2 entries under `root`.
std::vector<RawEntry> minimalPt2(StringRef root) {
  return {{(root + "/archive_format").str(), "pt2"},
          {(root + "/archive_version").str(), "0"},
          {(root + "/models/model.json").str(), programJson("raw")}};
}

/// Creates a zip with libzip; `deflate` names the entries to compress.
void writeWithLibzip(
    const std::string &path,
    const std::vector<std::pair<std::string, std::string>> &files,
    const std::vector<std::string> &deflate) {
  int code = 0;
  zip_t *archive = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &code);
  ASSERT_NE(archive, nullptr);
  for (const auto &[name, data] : files) {
    zip_source_t *source =
        zip_source_buffer(archive, data.data(), data.size(), 0);
    ASSERT_NE(source, nullptr);
    zip_int64_t index = zip_file_add(archive, name.c_str(), source, 0);
    ASSERT_GE(index, 0) << zip_strerror(archive);
    bool compress =
        std::find(deflate.begin(), deflate.end(), name) != deflate.end();
    ASSERT_EQ(zip_set_file_compression(archive, uint64_t(index),
                                       compress ? ZIP_CM_DEFLATE : ZIP_CM_STORE,
                                       9),
              0);
  }
  ASSERT_EQ(zip_close(archive), 0);
}

//===----------------------------------------------------------------------===//
// Writing and reading back
//===----------------------------------------------------------------------===//

TEST_F(ArchiveTest, WrittenArchiveReadsBackIntoTheSameContents) {
  Pt2ArchiveContents original = sampleContents();
  std::string file = path("model.pt2");
  ASSERT_EQ(errorText(writePt2Archive(file, original)), "");

  llvm::Expected<Pt2Archive> archive = Pt2Archive::open(file);
  ASSERT_TRUE(bool(archive)) << errorText(archive.takeError());
  EXPECT_EQ(archive->layout(), Pt2ArchiveLayout::Pt2);
  // The root folder comes from the file name, as torch does it.
  EXPECT_EQ(archive->rootFolder(), "model");

  llvm::Expected<Pt2ArchiveContents> loaded = archive->readContents();
  ASSERT_TRUE(bool(loaded)) << errorText(loaded.takeError());
  EXPECT_EQ(loaded->rootFolder, "model");
  EXPECT_EQ(loaded->archiveFormat, "pt2");
  EXPECT_EQ(loaded->archiveVersion, std::optional<std::string>("0"));
  EXPECT_EQ(loaded->dataVersion, std::optional<std::string>("6\n"));
  EXPECT_EQ(loaded->byteOrder, std::optional<std::string>("little"));
  ASSERT_TRUE(loaded->serializationId.has_value());
  EXPECT_EQ(loaded->serializationId->size(), 40u);
  EXPECT_TRUE(llvm::all_of(*loaded->serializationId, llvm::isDigit));

  ASSERT_EQ(loaded->models.size(), 2u);
  for (size_t m = 0; m < 2; ++m) {
    const Pt2Model &want = original.models[m];
    const Pt2Model &got = loaded->models[m];
    EXPECT_EQ(got.name, want.name);
    EXPECT_EQ(got.programJson, want.programJson);
    EXPECT_EQ(got.weightsConfigJson, want.weightsConfigJson);
    EXPECT_EQ(got.constantsConfigJson, want.constantsConfigJson);
    ASSERT_EQ(got.weights.size(), want.weights.size());
    for (size_t i = 0; i < want.weights.size(); ++i) {
      EXPECT_EQ(got.weights[i].path, want.weights[i].path);
      EXPECT_TRUE(got.weights[i].payload.isZipEntry());
      EXPECT_EQ(bytesOf(got.weights[i].payload),
                bytesOf(want.weights[i].payload));
    }
    ASSERT_EQ(got.constants.size(), want.constants.size());
    for (size_t i = 0; i < want.constants.size(); ++i) {
      EXPECT_EQ(got.constants[i].path, want.constants[i].path);
      EXPECT_EQ(bytesOf(got.constants[i].payload),
                bytesOf(want.constants[i].payload));
    }
    ASSERT_TRUE(got.sampleInputs.has_value());
    EXPECT_EQ(bytesOf(*got.sampleInputs), bytesOf(*want.sampleInputs));
  }
  ASSERT_EQ(loaded->aotinductorFiles.size(), 1u);
  EXPECT_EQ(loaded->aotinductorFiles[0].path, "model/abc.wrapper.so");
  EXPECT_EQ(bytesOf(loaded->aotinductorFiles[0].payload), patternBytes(333, 5));
  ASSERT_EQ(loaded->extraFiles.size(), 1u);
  EXPECT_EQ(loaded->extraFiles[0].path, "module_info.json");
  EXPECT_EQ(bytesOf(loaded->extraFiles[0].payload), "{\"info\": 1}");
  ASSERT_EQ(loaded->otherFiles.size(), 1u);
  EXPECT_EQ(loaded->otherFiles[0].path, "data/mtia/blob.bin");
  EXPECT_EQ(bytesOf(loaded->otherFiles[0].payload), patternBytes(65, 6));
}

TEST_F(ArchiveTest, EntriesAreWrittenInTorchOrder) {
  llvm::Expected<std::vector<ZipWriteEntry>> plan =
      planPt2Archive(path("out.pt2"), sampleContents());
  ASSERT_TRUE(bool(plan)) << errorText(plan.takeError());
  std::vector<std::string> names;
  for (const ZipWriteEntry &entry : *plan)
    names.push_back(entry.name);
  std::vector<std::string> expected = {
      "out/data/weights/weight_0",
      "out/data/weights/weight_1",
      "out/data/weights/model_weights_config.json",
      "out/data/constants/tensor_0",
      "out/data/constants/custom_obj_0",
      "out/data/constants/model_constants_config.json",
      "out/models/model.json",
      "out/data/sample_inputs/model.pt",
      "out/data/weights/weight_2",
      "out/data/weights/second_weights_config.json",
      "out/data/constants/second_constants_config.json",
      "out/models/second.json",
      "out/data/sample_inputs/second.pt",
      "out/data/aotinductor/model/abc.wrapper.so",
      "out/extra/module_info.json",
      "out/data/mtia/blob.bin",
      "out/archive_format",
      "out/archive_version",
      "out/.data/version",
      "out/byteorder",
      "out/.data/serialization_id",
  };
  EXPECT_EQ(names, expected);
}

TEST_F(ArchiveTest, EveryEntryIsStoredAnd64ByteAlignedWithFBPadding) {
  // Payload sizes and name lengths vary so the padding takes many values.
  Pt2ArchiveContents contents = sampleContents();
  for (unsigned i = 0; i < 40; ++i)
    contents.otherFiles.push_back(
        {"data/misc/" + std::string(i % 7 + 1, 'n') + std::to_string(i),
         PayloadSource::fromBytes(patternBytes(i * 3 + 1, i))});
  std::string file = path("aligned.pt2");
  ASSERT_EQ(errorText(writePt2Archive(file, contents)), "");

  llvm::Expected<std::shared_ptr<ZipReader>> zip = ZipReader::open(file);
  ASSERT_TRUE(bool(zip)) << errorText(zip.takeError());
  std::string bytes = readFile(file);
  std::set<unsigned> paddings;
  for (const ZipEntryInfo &entry : (*zip)->entries()) {
    SCOPED_TRACE(entry.name);
    EXPECT_TRUE(entry.isStored());
    EXPECT_EQ(entry.dataOffset % 64, 0u);
    // Re-derive the offset from the raw local header: 30 fixed bytes, the
    // name, then exactly one extra field "FB" + length + 'Z' filler.
    size_t header = size_t(entry.localHeaderOffset);
    uint16_t nameLength = load16(bytes, header + 26);
    uint16_t extraLength = load16(bytes, header + 28);
    size_t extra = header + 30 + nameLength;
    ASSERT_GE(extraLength, 4u);
    EXPECT_EQ(bytes.substr(extra, 2), "FB");
    uint16_t padding = load16(bytes, extra + 2);
    EXPECT_EQ(padding + 4u, extraLength);
    EXPECT_EQ(bytes.substr(extra + 4, padding), std::string(padding, 'Z'));
    EXPECT_EQ(extra + extraLength, entry.dataOffset);
    paddings.insert(padding);
    // And the data really is there.
    llvm::Expected<std::string> data =
        (*zip)->readEntry(size_t(&entry - (*zip)->entries().data()));
    ASSERT_TRUE(bool(data)) << errorText(data.takeError());
    EXPECT_EQ(bytes.substr(entry.dataOffset, entry.size), *data);
  }
  EXPECT_GT(paddings.size(), 10u);
}

TEST_F(ArchiveTest, WritingTheSameContentsTwiceGivesIdenticalBytes) {
  ASSERT_TRUE(llvm::sys::fs::create_directory(path("a")) == std::error_code());
  ASSERT_TRUE(llvm::sys::fs::create_directory(path("b")) == std::error_code());
  ASSERT_EQ(errorText(writePt2Archive(path("a/m.pt2"), sampleContents())), "");
  ASSERT_EQ(errorText(writePt2Archive(path("b/m.pt2"), sampleContents())), "");
  std::string first = readFile(path("a/m.pt2"));
  EXPECT_FALSE(first.empty());
  EXPECT_EQ(first, readFile(path("b/m.pt2")));
}

TEST_F(ArchiveTest, StreamsAndMapsEntries) {
  std::string file = path("model.pt2");
  ASSERT_EQ(errorText(writePt2Archive(file, sampleContents())), "");
  llvm::Expected<Pt2Archive> archive = Pt2Archive::open(file);
  ASSERT_TRUE(bool(archive)) << errorText(archive.takeError());

  EXPECT_TRUE(archive->hasEntry("data/aotinductor/model/abc.wrapper.so"));
  EXPECT_FALSE(archive->hasEntry("model/archive_format"));
  const ZipEntryInfo *info =
      archive->entryInfo("data/aotinductor/model/abc.wrapper.so");
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->size, 333u);

  llvm::Expected<ZipEntryStream> stream =
      archive->openEntry("data/aotinductor/model/abc.wrapper.so");
  ASSERT_TRUE(bool(stream)) << errorText(stream.takeError());
  std::string streamed;
  char chunk[7];
  while (true) {
    llvm::Expected<size_t> n = stream->read(chunk);
    ASSERT_TRUE(bool(n)) << errorText(n.takeError());
    if (*n == 0)
      break;
    streamed.append(chunk, *n);
  }
  EXPECT_EQ(streamed, patternBytes(333, 5));

  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> mapped =
      archive->mapEntry("data/weights/weight_2");
  ASSERT_TRUE(bool(mapped)) << errorText(mapped.takeError());
  EXPECT_EQ((*mapped)->getBuffer(), patternBytes(100, 4));

  EXPECT_NE(errorText(archive->readEntry("no/such/entry"))
                .find("no entry 'no/such/entry'"),
            std::string::npos);
}

TEST_F(ArchiveTest, ConcurrentReadsOfOneArchiveAgree) {
  std::string file = path("model.pt2");
  ASSERT_EQ(errorText(writePt2Archive(file, sampleContents())), "");
  llvm::Expected<Pt2Archive> archive = Pt2Archive::open(file);
  ASSERT_TRUE(bool(archive)) << errorText(archive.takeError());
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        llvm::Expected<std::string> bytes =
            archive->readEntry(t % 2 ? "data/weights/weight_2"
                                     : "data/aotinductor/model/abc.wrapper.so");
        if (!bytes) {
          llvm::consumeError(bytes.takeError());
          ++failures[t];
          continue;
        }
        if (*bytes != (t % 2 ? patternBytes(100, 4) : patternBytes(333, 5)))
          ++failures[t];
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(failures, std::vector<int>(4, 0));
}

TEST_F(ArchiveTest, PayloadFilesNoConfigNamesArePassedThrough) {
  Pt2ArchiveContents contents = sampleContents();
  contents.otherFiles.push_back(
      {"data/weights/weight_9", PayloadSource::fromBytes("orphan")});
  std::string file = path("model.pt2");
  ASSERT_EQ(errorText(writePt2Archive(file, contents)), "");
  llvm::Expected<Pt2Archive> archive = Pt2Archive::open(file);
  ASSERT_TRUE(bool(archive));
  llvm::Expected<Pt2ArchiveContents> loaded = archive->readContents();
  ASSERT_TRUE(bool(loaded)) << errorText(loaded.takeError());
  ASSERT_EQ(loaded->otherFiles.size(), 2u);
  EXPECT_EQ(loaded->otherFiles[0].path, "data/mtia/blob.bin");
  EXPECT_EQ(loaded->otherFiles[1].path, "data/weights/weight_9");
  EXPECT_EQ(bytesOf(loaded->otherFiles[1].payload), "orphan");
  EXPECT_EQ(loaded->models[0].weights.size(), 2u);
  EXPECT_EQ(loaded->models[1].weights.size(), 1u);
}

//===----------------------------------------------------------------------===//
// Deflated and ZIP64 input
//===----------------------------------------------------------------------===//

TEST_F(ArchiveTest, ReadsDeflatedEntriesMadeByLibzip) {
  std::string file = path("deflated.pt2");
  std::string program = programJson(std::string(5000, 'x'));
  std::string weights = patternBytes(70000, 9);
  writeWithLibzip(file,
                  {{"pkg/archive_format", "pt2"},
                   {"pkg/models/model.json", program},
                   {"pkg/data/weights/model_weights_config.json",
                    payloadConfig({{"w", "weight_0"}})},
                   {"pkg/data/weights/weight_0", weights}},
                  {"pkg/models/model.json", "pkg/data/weights/weight_0"});

  llvm::Expected<Pt2Archive> archive = Pt2Archive::open(file);
  ASSERT_TRUE(bool(archive)) << errorText(archive.takeError());
  const ZipEntryInfo *info = archive->entryInfo("models/model.json");
  ASSERT_NE(info, nullptr);
  ASSERT_EQ(info->method, ZipMethod::Deflated);
  EXPECT_LT(info->compressedSize, info->size);

  llvm::Expected<std::string> readProgram =
      archive->readEntry("models/model.json");
  ASSERT_TRUE(bool(readProgram)) << errorText(readProgram.takeError());
  EXPECT_EQ(*readProgram, program);
  EXPECT_NE(errorText(archive->mapEntry("models/model.json")).find("deflated"),
            std::string::npos);

  llvm::Expected<Pt2ArchiveContents> contents = archive->readContents();
  ASSERT_TRUE(bool(contents)) << errorText(contents.takeError());
  ASSERT_EQ(contents->models.size(), 1u);
  ASSERT_EQ(contents->models[0].weights.size(), 1u);
  EXPECT_EQ(bytesOf(contents->models[0].weights[0].payload), weights);

  // Rewritten, the deflated entries come out stored with the same bytes.
  std::string rewritten = path("rewritten.pt2");
  ASSERT_EQ(errorText(writePt2Archive(rewritten, *contents)), "");
  llvm::Expected<Pt2Archive> again = Pt2Archive::open(rewritten);
  ASSERT_TRUE(bool(again)) << errorText(again.takeError());
  EXPECT_EQ(again->rootFolder(), "pkg");
  EXPECT_TRUE(again->entryInfo("data/weights/weight_0")->isStored());
  EXPECT_EQ(*again->readEntry("data/weights/weight_0"), weights);
  EXPECT_EQ(*again->readEntry("models/model.json"), program);
}

TEST_F(ArchiveTest, ReadsZip64Records) {
  std::vector<RawEntry> entries = minimalPt2("z");
  entries.push_back({"z/data/weights/weight_0", patternBytes(999, 3)});
  std::string file = path("zip64.pt2");
  writeFile(file, buildZip(entries, /*zip64=*/true));

  llvm::Expected<std::shared_ptr<ZipReader>> zip = ZipReader::open(file);
  ASSERT_TRUE(bool(zip)) << errorText(zip.takeError());
  EXPECT_TRUE((*zip)->directory().zip64);
  llvm::Expected<Pt2Archive> archive = Pt2Archive::open(file);
  ASSERT_TRUE(bool(archive)) << errorText(archive.takeError());
  EXPECT_EQ(archive->entryInfo("data/weights/weight_0")->size, 999u);
  llvm::Expected<std::string> bytes =
      archive->readEntry("data/weights/weight_0");
  ASSERT_TRUE(bool(bytes)) << errorText(bytes.takeError());
  EXPECT_EQ(*bytes, patternBytes(999, 3));
}

//===----------------------------------------------------------------------===//
// Rejections
//===----------------------------------------------------------------------===//

/// Opens `bytes` written to a file and returns the error text ("" if it
/// opened).
std::string openError(const std::string &file, StringRef bytes,
                      const ArchiveLimits &limits = {}) {
  writeFile(file, bytes);
  return errorText(Pt2Archive::open(file, limits));
}

void expectContains(const std::string &text, StringRef part) {
  EXPECT_NE(text.find(part.str()), std::string::npos)
      << "expected \"" << part.str() << "\" in: " << text;
}

TEST_F(ArchiveTest, RejectsDotDotComponents) {
  std::vector<RawEntry> entries = minimalPt2("m");
  entries.push_back({"m/data/../../etc/passwd", "x"});
  std::string error = openError(path("a.pt2"), buildZip(entries));
  expectContains(error, "'m/data/../../etc/passwd'");
  expectContains(error, "'..' component");
}

TEST_F(ArchiveTest, RejectsAbsoluteAndBackslashNames) {
  std::vector<RawEntry> entries = minimalPt2("m");
  entries.push_back({"/etc/passwd", "x"});
  expectContains(openError(path("a.pt2"), buildZip(entries)),
                 "'/etc/passwd': it is an absolute path");

  entries.back().name = "m\\..\\evil";
  expectContains(openError(path("b.pt2"), buildZip(entries)), "backslash");

  entries.back().name = "C:/evil";
  expectContains(openError(path("c.pt2"), buildZip(entries)), "drive letter");
}

TEST_F(ArchiveTest, RejectsDuplicateEntries) {
  std::vector<RawEntry> entries = minimalPt2("m");
  entries.push_back({"m/extra/x", "one"});
  entries.push_back({"m/extra/x", "two"});
  expectContains(openError(path("a.pt2"), buildZip(entries)),
                 "duplicate entry 'm/extra/x'");
}

TEST_F(ArchiveTest, RejectsLocalHeadersThatDisagreeWithTheDirectory) {
  std::vector<RawEntry> entries = minimalPt2("m");
  entries.push_back({"m/data/weights/weight_0", "0123456789"});
  entries.back().localSize = 4;
  std::string error = openError(path("a.pt2"), buildZip(entries));
  expectContains(error, "'m/data/weights/weight_0'");
  expectContains(error, "local header says 4/4");

  entries.back().localSize.reset();
  entries.back().localName = "m/data/weights/weight_1";
  expectContains(openError(path("b.pt2"), buildZip(entries)),
                 "the local header names it 'm/data/weights/weight_1'");

  // Central directory sizes reaching into the directory itself.
  entries.back().localName.reset();
  entries.back().centralSize = 100000;
  entries.back().localSize = 100000;
  expectContains(openError(path("c.pt2"), buildZip(entries)),
                 "run past the start of the central directory");
}

TEST_F(ArchiveTest, RejectsOverlappingEntries) {
  // The first entry's declared data swallows the second entry's header: a
  // classic zip-bomb trick. Both headers agree with the directory.
  std::vector<RawEntry> entries = minimalPt2("m");
  std::vector<RawEntry> tail = {{"m/extra/b", "bbbb"}};
  size_t secondLocal = 30 + tail[0].name.size() + tail[0].data.size();
  RawEntry first{"m/extra/a", "aaaa"};
  first.localSize = 4 + secondLocal;
  first.centralSize = 4 + secondLocal;
  entries.push_back(first);
  entries.push_back(tail[0]);
  std::string error = openError(path("a.pt2"), buildZip(entries));
  expectContains(error, "'m/extra/a' and 'm/extra/b' overlap");
}

TEST_F(ArchiveTest, RejectsCorruptAndTruncatedFiles) {
  expectContains(openError(path("a.pt2"), "this is not a zip file at all"),
                 "no end-of-central-directory record");
  std::string good = buildZip(minimalPt2("m"));
  expectContains(openError(path("b.pt2"), good.substr(0, good.size() - 5)),
                 "no end-of-central-directory record");
  // Cutting into the entry data: the directory no longer fits.
  std::string cut = good.substr(0, 40) + good.substr(good.size() - 150);
  EXPECT_NE(openError(path("c.pt2"), cut), "");
  expectContains(openError(path("d.pt2"), ""), "too short");
}

TEST_F(ArchiveTest, RejectsEmptyArchivesAndMissingDirectories) {
  expectContains(openError(path("empty.pt2"), buildZip({})),
                 "the archive holds no files");
  std::vector<RawEntry> onlyDirectory = {{"m/", ""}};
  expectContains(openError(path("dir.pt2"), buildZip(onlyDirectory)),
                 "the archive holds no files");
  expectContains(errorText(Pt2Archive::open(path("missing.pt2"))),
                 "missing.pt2: cannot open");
  expectContains(
      errorText(writePt2Archive(path("no/such/dir/m.pt2"), sampleContents())),
      "cannot create a temporary file in " + path("no/such/dir"));
}

TEST_F(ArchiveTest, RejectsEncryptedAndUnsupportedMethods) {
  std::vector<RawEntry> entries = minimalPt2("m");
  entries.push_back({"m/extra/secret", "xxxx"});
  entries.back().flags = 1;
  expectContains(openError(path("a.pt2"), buildZip(entries)),
                 "'m/extra/secret': encrypted entries are not supported");
  entries.back().flags = 0;
  entries.back().method = 12;
  expectContains(openError(path("b.pt2"), buildZip(entries)),
                 "compression method 12 is not supported");
}

TEST_F(ArchiveTest, EnforcesSizeAndCountLimits) {
  std::vector<RawEntry> entries = minimalPt2("m");
  entries.push_back({"m/data/weights/weight_0", std::string(1000, 'w')});
  uint64_t total = 0;
  for (const RawEntry &entry : entries)
    total += entry.data.size();
  std::string bytes = buildZip(entries);

  ArchiveLimits perEntry;
  perEntry.maxEntryBytes = 999;
  std::string error = openError(path("a.pt2"), bytes, perEntry);
  expectContains(error, "entry 'm/data/weights/weight_0': declares 1000 "
                        "uncompressed bytes, more than the per-entry limit "
                        "of 999");

  ArchiveLimits total1;
  total1.maxTotalBytes = total - 1;
  expectContains(openError(path("b.pt2"), bytes, total1),
                 "entries up to and including 'm/data/weights/weight_0' "
                 "declare more uncompressed bytes than the total limit of " +
                     std::to_string(total - 1));

  ArchiveLimits count;
  count.maxEntries = 3;
  expectContains(openError(path("c.pt2"), bytes, count),
                 "4 entries, more than the limit of 3");

  // Exactly at the limits is fine, and so are the defaults.
  ArchiveLimits exact;
  exact.maxEntries = 4;
  exact.maxEntryBytes = 1000;
  exact.maxTotalBytes = total;
  EXPECT_EQ(openError(path("d.pt2"), bytes, exact), "");
  EXPECT_EQ(openError(path("e.pt2"), bytes), "");
}

TEST_F(ArchiveTest, DetectsDataLongerThanDeclaredAndBadCrc) {
  // A deflated entry whose directory claims fewer bytes than it inflates to.
  std::string file = path("bomb.pt2");
  writeWithLibzip(file,
                  {{"m/archive_format", "pt2"},
                   {"m/models/model.json", programJson("x")},
                   {"m/extra/big", std::string(100000, 'a')}},
                  {"m/extra/big"});
  std::string bytes = readFile(file);
  // Patch the uncompressed size (local header +22, central header +24).
  size_t local = bytes.find("m/extra/big") - 30;
  size_t central = bytes.rfind("m/extra/big") - 46;
  for (size_t field : {local + 22, central + 24}) {
    ASSERT_EQ(load16(bytes, field), 100000 & 0xffff);
    bytes[field] = 10;
    bytes[field + 1] = bytes[field + 2] = bytes[field + 3] = 0;
  }
  writeFile(file, bytes);
  llvm::Expected<Pt2Archive> archive = Pt2Archive::open(file);
  ASSERT_TRUE(bool(archive)) << errorText(archive.takeError());
  std::string error = errorText(archive->readEntry("extra/big"));
  expectContains(error, "'m/extra/big'");
  expectContains(error, "longer than the declared 10 bytes");

  // A stored entry with one flipped byte: opens (CRCs are checked when
  // read), fails when read.
  std::string good = path("good.pt2");
  ASSERT_EQ(errorText(writePt2Archive(good, sampleContents())), "");
  llvm::Expected<std::shared_ptr<ZipReader>> zip = ZipReader::open(good);
  ASSERT_TRUE(bool(zip));
  size_t index = *(*zip)->findEntry("good/data/weights/weight_2");
  uint64_t offset = (*zip)->entries()[index].dataOffset;
  zip->reset();
  std::string flipped = readFile(good);
  flipped[offset + 5] ^= 0x40;
  writeFile(good, flipped);
  llvm::Expected<Pt2Archive> corrupt = Pt2Archive::open(good);
  ASSERT_TRUE(bool(corrupt)) << errorText(corrupt.takeError());
  error = errorText(corrupt->readEntry("data/weights/weight_2"));
  expectContains(error, "'good/data/weights/weight_2': data is corrupt");
  expectContains(error, "CRC");
}

TEST_F(ArchiveTest, RejectsMoreThanOneTopLevelFolder) {
  std::vector<RawEntry> entries = minimalPt2("a");
  entries.push_back({"b/extra/x", "x"});
  expectContains(openError(path("a.pt2"), buildZip(entries)),
                 "more than one top-level folder: 'a' and 'b' (entry "
                 "'b/extra/x')");

  entries.back().name = "stray";
  expectContains(openError(path("b.pt2"), buildZip(entries)),
                 "entry 'stray' is not inside the top-level folder 'a'");

  std::vector<RawEntry> flat = {{"archive_format", "pt2"}};
  expectContains(openError(path("c.pt2"), buildZip(flat)),
                 "entry 'archive_format' is not inside a top-level folder");
}

TEST_F(ArchiveTest, RejectsWrongFormatAndVersion) {
  std::vector<RawEntry> entries = minimalPt2("m");
  entries[0].data = "zip";
  expectContains(openError(path("a.pt2"), buildZip(entries)),
                 "archive_format is 'zip', expected 'pt2'");
  entries[0].data = "pt2";
  entries[1].data = "1";
  expectContains(openError(path("b.pt2"), buildZip(entries)),
                 "archive_version is '1'; only version 0 is supported");
  entries.erase(entries.begin());
  expectContains(openError(path("c.pt2"), buildZip(entries)),
                 "not a PT2 archive: 'm/archive_format' is missing");
  // A missing archive_version counts as version 0.
  std::vector<RawEntry> noVersion = minimalPt2("m");
  noVersion.erase(noVersion.begin() + 1);
  EXPECT_EQ(openError(path("d.pt2"), buildZip(noVersion)), "");
}

TEST_F(ArchiveTest, RejectsBrokenPayloadConfigs) {
  std::vector<RawEntry> entries = minimalPt2("m");
  entries.push_back(
      {"m/data/weights/model_weights_config.json", "{\"config\": "});
  std::string file = path("a.pt2");
  writeFile(file, buildZip(entries));
  llvm::Expected<Pt2Archive> archive = Pt2Archive::open(file);
  ASSERT_TRUE(bool(archive)) << errorText(archive.takeError());
  std::string error = errorText(archive->readContents());
  expectContains(error, "model 'model': weights config: payload config is "
                        "not valid JSON");

  std::string deep =
      "{\"config\": " + std::string(5000, '[') + std::string(5000, ']') + "}";
  llvm::Expected<std::vector<std::string>> names =
      pt2layout::payloadConfigPathNames(deep);
  expectContains(errorText(std::move(names)), "nests deeper than 64 levels");

  llvm::Expected<std::vector<std::string>> good =
      pt2layout::payloadConfigPathNames(
          payloadConfig({{"a", "weight_3"}, {"b", "weight_1"}}));
  ASSERT_TRUE(bool(good));
  EXPECT_EQ(*good, (std::vector<std::string>{"weight_3", "weight_1"}));
  expectContains(errorText(pt2layout::payloadConfigPathNames("[1, 2]")),
                 "no \"config\" object");
}

//===----------------------------------------------------------------------===//
// Writer checks and atomicity
//===----------------------------------------------------------------------===//

TEST_F(ArchiveTest, WriterRejectsUnsafeOrInconsistentContents) {
  std::string file = path("out.pt2");
  {
    Pt2ArchiveContents contents = sampleContents();
    contents.extraFiles.push_back({"../escape", PayloadSource::fromBytes("x")});
    expectContains(errorText(writePt2Archive(file, contents)),
                   "'extra/../escape': it has a '..' component");
  }
  {
    Pt2ArchiveContents contents = sampleContents();
    contents.otherFiles.push_back(
        {"archive_format", PayloadSource::fromBytes("pt2")});
    expectContains(errorText(writePt2Archive(file, contents)),
                   "two files would both be written as 'archive_format'");
  }
  {
    Pt2ArchiveContents contents = sampleContents();
    contents.models[0].weights.pop_back();
    expectContains(errorText(writePt2Archive(file, contents)),
                   "model 'model': the weights config refers to 'weight_1', "
                   "which is not in the archive");
  }
  {
    Pt2ArchiveContents contents = sampleContents();
    contents.models[1].name = "bad/name";
    expectContains(errorText(writePt2Archive(file, contents)),
                   "model name 'bad/name' must not contain '/'");
  }
  {
    Pt2ArchiveContents contents = sampleContents();
    contents.archiveFormat = "zip";
    expectContains(errorText(writePt2Archive(file, contents)),
                   "only 'pt2' archives are written");
  }
  expectContains(errorText(writePt2Archive(path(".pt2"), sampleContents())),
                 "cannot derive a root folder name");
  // Nothing was created by any of the failed writes.
  EXPECT_EQ(listDirectory(), std::vector<std::string>{});
}

TEST_F(ArchiveTest, FailedWriteLeavesExistingFileAndNoTemporary) {
  // A source archive with a corrupted payload: it opens, but streaming the
  // payload into a new archive fails its CRC check half way through.
  std::string source = path("source.pt2");
  ASSERT_EQ(errorText(writePt2Archive(source, sampleContents())), "");
  {
    llvm::Expected<std::shared_ptr<ZipReader>> zip = ZipReader::open(source);
    ASSERT_TRUE(bool(zip));
    uint64_t offset =
        (*zip)
            ->entries()[*(*zip)->findEntry("source/data/weights/weight_2")]
            .dataOffset;
    std::string bytes = readFile(source);
    bytes[offset] ^= 1;
    writeFile(source, bytes);
  }
  llvm::Expected<Pt2Archive> archive = Pt2Archive::open(source);
  ASSERT_TRUE(bool(archive)) << errorText(archive.takeError());
  llvm::Expected<Pt2ArchiveContents> contents = archive->readContents();
  ASSERT_TRUE(bool(contents)) << errorText(contents.takeError());

  std::string target = path("target.pt2");
  writeFile(target, "the old file");
  std::string error = errorText(writePt2Archive(target, *contents));
  expectContains(error, "cannot write " + target);
  expectContains(error, "'source/data/weights/weight_2'");
  EXPECT_EQ(readFile(target), "the old file");
  EXPECT_EQ(listDirectory(),
            (std::vector<std::string>{"source.pt2", "target.pt2"}));

  // Without an existing file, nothing is left behind either.
  std::string fresh = path("fresh.pt2");
  EXPECT_NE(errorText(writePt2Archive(fresh, *contents)), "");
  EXPECT_FALSE(llvm::sys::fs::exists(fresh));
  EXPECT_EQ(listDirectory(),
            (std::vector<std::string>{"source.pt2", "target.pt2"}));
}

TEST_F(ArchiveTest, OverwritesAnArchiveItIsReadingFrom) {
  std::string file = path("model.pt2");
  ASSERT_EQ(errorText(writePt2Archive(file, sampleContents())), "");
  llvm::Expected<Pt2Archive> archive = Pt2Archive::open(file);
  ASSERT_TRUE(bool(archive));
  llvm::Expected<Pt2ArchiveContents> contents = archive->readContents();
  ASSERT_TRUE(bool(contents));
  contents->extraFiles.push_back(
      {"added.txt", PayloadSource::fromBytes("new")});
  contents->serializationId.reset();
  ASSERT_EQ(errorText(writePt2Archive(file, *contents)), "");

  llvm::Expected<Pt2Archive> again = Pt2Archive::open(file);
  ASSERT_TRUE(bool(again)) << errorText(again.takeError());
  EXPECT_EQ(*again->readEntry("extra/added.txt"), "new");
  EXPECT_EQ(*again->readEntry("data/weights/weight_2"), patternBytes(100, 4));
  EXPECT_EQ(listDirectory(), std::vector<std::string>{"model.pt2"});
}

//===----------------------------------------------------------------------===//
// Pass-through
//===----------------------------------------------------------------------===//

TEST_F(ArchiveTest, PassThroughIsByteIdentical) {
  ASSERT_EQ(llvm::sys::fs::create_directory(path("copy")), std::error_code());
  std::string original = path("model.pt2");
  ASSERT_EQ(errorText(writePt2Archive(original, sampleContents())), "");

  llvm::Expected<Pt2Archive> archive = Pt2Archive::open(original);
  ASSERT_TRUE(bool(archive));
  llvm::Expected<Pt2ArchiveContents> contents = archive->readContents();
  ASSERT_TRUE(bool(contents)) << errorText(contents.takeError());
  // Payloads are still references into the original file, not loaded.
  EXPECT_TRUE(contents->models[0].weights[0].payload.isZipEntry());
  EXPECT_EQ(contents->models[0].weights[0].payload.zipEntryName(),
            "model/data/weights/weight_0");

  std::string copy = path("copy/model.pt2");
  ASSERT_EQ(errorText(writePt2Archive(copy, *contents)), "");
  EXPECT_EQ(readFile(copy), readFile(original));

  // A foreign entry torch would not write survives a rewrite unchanged.
  std::string foreign = path("foreign.pt2");
  std::vector<RawEntry> entries = minimalPt2("foreign");
  entries.push_back({"foreign/some/tool/state.bin", patternBytes(4097, 8)});
  writeFile(foreign, buildZip(entries));
  llvm::Expected<Pt2Archive> foreignArchive = Pt2Archive::open(foreign);
  ASSERT_TRUE(bool(foreignArchive)) << errorText(foreignArchive.takeError());
  llvm::Expected<Pt2ArchiveContents> foreignContents =
      foreignArchive->readContents();
  ASSERT_TRUE(bool(foreignContents));
  std::string rewritten = path("copy/foreign.pt2");
  ASSERT_EQ(errorText(writePt2Archive(rewritten, *foreignContents)), "");
  llvm::Expected<Pt2Archive> check = Pt2Archive::open(rewritten);
  ASSERT_TRUE(bool(check));
  EXPECT_EQ(*check->readEntry("some/tool/state.bin"), patternBytes(4097, 8));
}

//===----------------------------------------------------------------------===//
// The pre-archive layout
//===----------------------------------------------------------------------===//

TEST_F(ArchiveTest, ReadsTheLegacyLayoutAsOneModel) {
  std::string file = path("old.zip");
  writeWithLibzip(file,
                  {{"serialized_exported_program.json", programJson("old")},
                   {"serialized_state_dict.pt", "state dict pickle"},
                   {"serialized_constants.pt", "constants pickle"},
                   {"serialized_example_inputs.pt", "inputs pickle"},
                   {"version", "5.1"},
                   {"extra_files/notes.txt", "hello"}},
                  {"serialized_exported_program.json"});
  llvm::Expected<Pt2Archive> archive = Pt2Archive::open(file);
  ASSERT_TRUE(bool(archive)) << errorText(archive.takeError());
  EXPECT_EQ(archive->layout(), Pt2ArchiveLayout::Legacy);
  EXPECT_EQ(archive->rootFolder(), "");

  llvm::Expected<Pt2ArchiveContents> contents = archive->readContents();
  ASSERT_TRUE(bool(contents)) << errorText(contents.takeError());
  EXPECT_EQ(contents->layout, Pt2ArchiveLayout::Legacy);
  EXPECT_EQ(contents->legacyVersion, std::optional<std::string>("5.1"));
  ASSERT_EQ(contents->models.size(), 1u);
  const Pt2Model &model = contents->models[0];
  EXPECT_EQ(model.name, "model");
  EXPECT_EQ(model.programJson, programJson("old"));
  ASSERT_TRUE(model.weightsPickle && model.constantsPickle &&
              model.sampleInputs);
  EXPECT_EQ(bytesOf(*model.weightsPickle), "state dict pickle");
  EXPECT_EQ(bytesOf(*model.constantsPickle), "constants pickle");
  EXPECT_EQ(bytesOf(*model.sampleInputs), "inputs pickle");
  ASSERT_EQ(contents->extraFiles.size(), 1u);
  EXPECT_EQ(contents->extraFiles[0].path, "notes.txt");

  // Written back, it takes the current layout.
  std::string upgraded = path("new.pt2");
  ASSERT_EQ(errorText(writePt2Archive(upgraded, *contents)), "");
  llvm::Expected<Pt2Archive> again = Pt2Archive::open(upgraded);
  ASSERT_TRUE(bool(again)) << errorText(again.takeError());
  EXPECT_EQ(again->layout(), Pt2ArchiveLayout::Pt2);
  EXPECT_EQ(again->rootFolder(), "new");
  EXPECT_EQ(*again->readEntry("models/model.json"), programJson("old"));
  EXPECT_EQ(*again->readEntry("data/weights/model.pt"), "state dict pickle");
  EXPECT_EQ(*again->readEntry("data/constants/model.pt"), "constants pickle");
  EXPECT_EQ(*again->readEntry("data/sample_inputs/model.pt"), "inputs pickle");
  EXPECT_EQ(*again->readEntry("extra/notes.txt"), "hello");
  // ... and reading it again finds the whole pickles in their legacy slots.
  llvm::Expected<Pt2ArchiveContents> upgradedContents = again->readContents();
  ASSERT_TRUE(bool(upgradedContents));
  ASSERT_TRUE(upgradedContents->models[0].weightsPickle.has_value());
  EXPECT_EQ(bytesOf(*upgradedContents->models[0].weightsPickle),
            "state dict pickle");
}

TEST_F(ArchiveTest, RejectsFoldersInTheLegacyLayout) {
  std::vector<RawEntry> entries = {
      {"serialized_exported_program.json", programJson("x")},
      {"elsewhere/file", "x"}};
  expectContains(openError(path("a.zip"), buildZip(entries)),
                 "entry 'elsewhere/file' is outside the legacy layout");
}

//===----------------------------------------------------------------------===//
// Small pieces
//===----------------------------------------------------------------------===//

TEST(ArchivePathTest, ValidatesNames) {
  EXPECT_EQ(errorText(validateEntryName("model/data/weights/weight_0")), "");
  EXPECT_EQ(errorText(validateEntryName("model/data/")), "");
  EXPECT_EQ(errorText(validateEntryName("model/.data/version")), "");
  expectContains(errorText(validateEntryName("")), "the name is empty");
  expectContains(errorText(validateEntryName("a//b")), "empty path component");
  expectContains(errorText(validateEntryName("a/./b")), "'.' component");
  expectContains(errorText(validateEntryName(StringRef("a\0b", 3))),
                 "'a\\x00b': it contains a NUL byte");
  EXPECT_EQ(quoteEntryName("\x1b[31m"), "'\\x1b[31m'");
}

TEST(Pt2ArchiveLayoutTest, RootFolderFollowsTorch) {
  EXPECT_EQ(pt2layout::rootFolderForFile("/tmp/dir/model.pt2"), "model");
  EXPECT_EQ(pt2layout::rootFolderForFile("a.b.pt2"), "a.b");
  EXPECT_EQ(pt2layout::rootFolderForFile("noext"), "noext");
  EXPECT_EQ(pt2layout::rootFolderForFile("dir/.pt2"), "");
}

TEST(Pt2ArchiveLayoutTest, SerializationIdDependsOnNamesAndData) {
  std::string id = pt2layout::computeSerializationId({{"a", 1}, {"b", 2}});
  EXPECT_EQ(id.size(), 40u);
  EXPECT_EQ(id, pt2layout::computeSerializationId({{"a", 1}, {"b", 2}}));
  EXPECT_NE(id, pt2layout::computeSerializationId({{"a", 1}, {"c", 2}}));
  EXPECT_NE(id, pt2layout::computeSerializationId({{"a", 1}, {"b", 3}}));
}

//===----------------------------------------------------------------------===//
// Python's zipfile agrees
//===----------------------------------------------------------------------===//

TEST_F(ArchiveTest, PythonZipfileOpensWrittenArchive) {
  if (!llvm::sys::fs::can_execute("/usr/bin/python3"))
    GTEST_SKIP() << "/usr/bin/python3 is not available";
  std::string file = path("model.pt2");
  ASSERT_EQ(errorText(writePt2Archive(file, sampleContents())), "");
  llvm::Expected<std::vector<ZipWriteEntry>> plan =
      planPt2Archive(file, sampleContents());
  ASSERT_TRUE(bool(plan));
  std::string expected;
  for (const ZipWriteEntry &entry : *plan)
    expected += entry.name + "\n";
  writeFile(path("expected.txt"), expected);
  writeFile(path("check.py"), R"PY(
import struct, sys, zipfile
archive, expected_file = sys.argv[1], sys.argv[2]
expected = open(expected_file).read().split()
with zipfile.ZipFile(archive) as z:
    bad = z.testzip()
    if bad is not None:
        sys.exit("bad CRC in " + bad)
    if z.namelist() != expected:
        sys.exit("names differ: %r" % z.namelist())
    raw = open(archive, "rb").read()
    for info in z.infolist():
        if info.compress_type != zipfile.ZIP_STORED:
            sys.exit(info.filename + " is not stored")
        at = info.header_offset
        name_len, extra_len = struct.unpack("<HH", raw[at + 26:at + 30])
        start = info.header_offset + 30 + name_len + extra_len
        if start % 64:
            sys.exit(info.filename + " data at %d" % start)
        if raw[start:start + info.file_size] != z.read(info.filename):
            sys.exit(info.filename + " data mismatch")
    if z.read("model/archive_format") != b"pt2":
        sys.exit("archive_format")
)PY");
  std::string command = "/usr/bin/python3 " + path("check.py") + " " + file +
                        " " + path("expected.txt");
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
}

} // namespace
