//===- Pt2Archive.cpp - Reading PyTorch .pt2 archives ---------------------===//
//
// Implements Pt2Archive: container checks at open time and the sorting of
// entries into Pt2ArchiveContents.
//
//===----------------------------------------------------------------------===//
#include "pt2ir/archive/Pt2Archive.h"

#include "pt2ir/archive/ArchivePath.h"
#include "pt2ir/archive/Pt2ArchiveLayout.h"
#include "llvm/ADT/StringSet.h"
#include <algorithm>

using namespace llvm;

namespace pt2ir {
namespace L = pt2layout;

namespace {

/// Largest size accepted for the one-line records (archive_format, byteorder
/// and the like).
constexpr uint64_t MaxSmallRecordBytes = 4096;

Error archiveError(StringRef path, const Twine &message) {
  return createStringError(inconvertibleErrorCode(), path + ": " + message);
}

/// If `path` is `<prefix><m><suffix>` with a non-empty `<m>` free of '/',
/// returns `<m>`.
std::optional<StringRef> middleName(StringRef path, StringRef prefix,
                                    StringRef suffix) {
  if (!path.consume_front(prefix) || !path.consume_back(suffix))
    return std::nullopt;
  if (path.empty() || path.contains('/'))
    return std::nullopt;
  return path;
}

} // namespace

Pt2Model *Pt2ArchiveContents::findModel(StringRef name) {
  for (Pt2Model &model : models)
    if (model.name == name)
      return &model;
  return nullptr;
}

const Pt2Model *Pt2ArchiveContents::findModel(StringRef name) const {
  return const_cast<Pt2ArchiveContents *>(this)->findModel(name);
}

//===----------------------------------------------------------------------===//
// Opening
//===----------------------------------------------------------------------===//

Expected<Pt2Archive> Pt2Archive::open(StringRef path,
                                      const ArchiveLimits &limits) {
  Expected<std::shared_ptr<ZipReader>> opened = ZipReader::open(path, limits);
  if (!opened)
    return opened.takeError();
  Pt2Archive archive;
  archive.reader = std::move(*opened);
  ArrayRef<ZipEntryInfo> entries = archive.reader->entries();

  bool anyFile = llvm::any_of(
      entries, [](const ZipEntryInfo &entry) { return !entry.isDirectory(); });
  if (!anyFile)
    return archiveError(path, "the archive holds no files");

  bool legacy = llvm::any_of(entries, [](const ZipEntryInfo &entry) {
    return entry.name == L::LegacyProgramPath;
  });

  if (legacy) {
    // Legacy archives keep their members at the zip root; only extra files
    // live in a folder.
    archive.layoutKind = Pt2ArchiveLayout::Legacy;
    for (const ZipEntryInfo &entry : entries) {
      StringRef name = entry.name;
      if (name.contains('/') && !name.starts_with(L::LegacyExtraDir))
        return archiveError(path, "entry " + quoteEntryName(name) +
                                      " is outside the legacy layout (root "
                                      "members and " +
                                      L::LegacyExtraDir + " only)");
    }
  } else {
    // torch takes the folder from the first entry and requires every other
    // entry to share it.
    StringRef first = entries.front().name;
    size_t slash = first.find('/');
    if (slash == StringRef::npos)
      return archiveError(path, "entry " + quoteEntryName(first) +
                                    " is not inside a top-level folder");
    archive.root = first.take_front(slash).str();
    std::string prefix = archive.root + "/";
    for (const ZipEntryInfo &entry : entries) {
      StringRef name = entry.name;
      if (name.starts_with(prefix))
        continue;
      size_t otherSlash = name.find('/');
      if (otherSlash == StringRef::npos)
        return archiveError(path, "entry " + quoteEntryName(name) +
                                      " is not inside the top-level folder " +
                                      quoteEntryName(archive.root));
      return archiveError(
          path,
          "more than one top-level folder: " + quoteEntryName(archive.root) +
              " and " + quoteEntryName(name.take_front(otherSlash)) +
              " (entry " + quoteEntryName(name) + ")");
    }
  }

  size_t strip = archive.root.empty() ? 0 : archive.root.size() + 1;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].isDirectory())
      continue;
    std::string relative = entries[i].name.substr(strip);
    archive.zipIndex.try_emplace(relative, i);
    archive.paths.push_back(std::move(relative));
  }

  if (archive.layoutKind == Pt2ArchiveLayout::Legacy)
    return archive;

  if (!archive.hasEntry(L::ArchiveFormatPath))
    return archiveError(path, "not a PT2 archive: " +
                                  quoteEntryName(archive.root + "/" +
                                                 L::ArchiveFormatPath.str()) +
                                  " is missing");
  Expected<std::string> format = archive.readSmallEntry(L::ArchiveFormatPath);
  if (!format)
    return format.takeError();
  if (*format != L::ArchiveFormatValue)
    return archiveError(path, "archive_format is " + quoteEntryName(*format) +
                                  ", expected 'pt2'");
  if (archive.hasEntry(L::ArchiveVersionPath)) {
    Expected<std::string> version =
        archive.readSmallEntry(L::ArchiveVersionPath);
    if (!version)
      return version.takeError();
    if (*version != L::ArchiveVersionValue)
      return archiveError(path, "archive_version is " +
                                    quoteEntryName(*version) +
                                    "; only version 0 is supported");
  }
  return archive;
}

//===----------------------------------------------------------------------===//
// Entry access
//===----------------------------------------------------------------------===//

bool Pt2Archive::hasEntry(StringRef path) const {
  return zipIndex.count(path) != 0;
}

const ZipEntryInfo *Pt2Archive::entryInfo(StringRef path) const {
  auto it = zipIndex.find(path);
  if (it == zipIndex.end())
    return nullptr;
  return &reader->entries()[it->second];
}

Expected<size_t> Pt2Archive::indexOf(StringRef path) const {
  auto it = zipIndex.find(path);
  if (it == zipIndex.end())
    return archiveError(reader->path(),
                        "no entry " + quoteEntryName(path) +
                            (root.empty()
                                 ? std::string()
                                 : " in folder " + quoteEntryName(root)));
  return it->second;
}

Expected<std::string> Pt2Archive::readEntry(StringRef path) const {
  Expected<size_t> index = indexOf(path);
  if (!index)
    return index.takeError();
  return reader->readEntry(*index);
}

Expected<ZipEntryStream> Pt2Archive::openEntry(StringRef path) const {
  Expected<size_t> index = indexOf(path);
  if (!index)
    return index.takeError();
  return reader->openEntry(*index);
}

Expected<std::unique_ptr<MemoryBuffer>>
Pt2Archive::mapEntry(StringRef path) const {
  Expected<size_t> index = indexOf(path);
  if (!index)
    return index.takeError();
  return reader->mapEntry(*index);
}

Expected<PayloadSource> Pt2Archive::payload(StringRef path) const {
  Expected<size_t> index = indexOf(path);
  if (!index)
    return index.takeError();
  return PayloadSource::fromZipEntry(reader, *index);
}

Expected<std::string> Pt2Archive::readSmallEntry(StringRef path) const {
  Expected<size_t> index = indexOf(path);
  if (!index)
    return index.takeError();
  uint64_t size = reader->entries()[*index].size;
  if (size > MaxSmallRecordBytes)
    return reader->entryError(*index, "is " + Twine(size) +
                                          " bytes; a record like this is at "
                                          "most " +
                                          Twine(MaxSmallRecordBytes));
  return reader->readEntry(*index);
}

//===----------------------------------------------------------------------===//
// Contents
//===----------------------------------------------------------------------===//

Expected<Pt2ArchiveContents> Pt2Archive::readContents() const {
  if (layoutKind == Pt2ArchiveLayout::Legacy)
    return readLegacyContents();
  return readPt2Contents();
}

Expected<Pt2ArchiveContents> Pt2Archive::readPt2Contents() const {
  Pt2ArchiveContents contents;
  contents.layout = Pt2ArchiveLayout::Pt2;
  contents.rootFolder = root;

  // Pass 1: the models, so their files can be recognized whatever the order.
  for (const std::string &path : paths) {
    std::optional<StringRef> name =
        middleName(path, L::ModelsDir, L::ModelSuffix);
    if (!name)
      continue;
    Expected<std::string> json = readEntry(path);
    if (!json)
      return json.takeError();
    Pt2Model model;
    model.name = name->str();
    model.programJson = std::move(*json);
    contents.models.push_back(std::move(model));
  }
  StringSet<> modelNames;
  for (const Pt2Model &model : contents.models)
    modelNames.insert(model.name);
  auto modelFor = [&](std::optional<StringRef> name) -> Pt2Model * {
    if (!name || !modelNames.contains(*name))
      return nullptr;
    return contents.findModel(*name);
  };

  // Pass 2: everything else. Payload files are held back until the configs
  // say which model they belong to; files kept verbatim remember their
  // archive position so the original order survives.
  std::vector<size_t> payloadCandidates;
  std::vector<std::pair<size_t, std::string>> others;
  for (size_t i = 0; i < paths.size(); ++i) {
    StringRef path = paths[i];
    auto assignSmall = [&](std::optional<std::string> &field) -> Error {
      Expected<std::string> text = readSmallEntry(path);
      if (!text)
        return text.takeError();
      field = std::move(*text);
      return Error::success();
    };
    auto assignJson = [&](std::optional<std::string> &field) -> Error {
      Expected<std::string> text = readEntry(path);
      if (!text)
        return text.takeError();
      field = std::move(*text);
      return Error::success();
    };
    auto lazy = [&]() {
      return PayloadSource::fromZipEntry(reader, zipIndex.lookup(path));
    };

    auto classify = [&]() -> Error {
      if (path == L::ArchiveFormatPath) {
        std::optional<std::string> format;
        if (Error err = assignSmall(format))
          return err;
        contents.archiveFormat = std::move(*format);
        return Error::success();
      }
      if (path == L::ArchiveVersionPath)
        return assignSmall(contents.archiveVersion);
      if (path == L::DataVersionPath)
        return assignSmall(contents.dataVersion);
      if (path == L::ByteOrderPath)
        return assignSmall(contents.byteOrder);
      if (path == L::SerializationIdPath)
        return assignSmall(contents.serializationId);
      if (middleName(path, L::ModelsDir, L::ModelSuffix))
        return Error::success(); // Read in pass 1.
      if (Pt2Model *model =
              modelFor(middleName(path, L::WeightsDir, L::WeightsConfigSuffix)))
        return assignJson(model->weightsConfigJson);
      if (Pt2Model *model = modelFor(
              middleName(path, L::ConstantsDir, L::ConstantsConfigSuffix)))
        return assignJson(model->constantsConfigJson);
      if (Pt2Model *model = modelFor(
              middleName(path, L::WeightsDir, L::LegacyPickleSuffix))) {
        model->weightsPickle = lazy();
        return Error::success();
      }
      if (Pt2Model *model = modelFor(
              middleName(path, L::ConstantsDir, L::LegacyPickleSuffix))) {
        model->constantsPickle = lazy();
        return Error::success();
      }
      if (Pt2Model *model = modelFor(
              middleName(path, L::SampleInputsDir, L::SampleInputsSuffix))) {
        model->sampleInputs = lazy();
        return Error::success();
      }
      if (path == (L::ConstantsDir + L::CustomObjsConfigName).str())
        return assignJson(contents.customObjsConfigJson);
      if (path.starts_with(L::WeightsDir) || path.starts_with(L::ConstantsDir))
        payloadCandidates.push_back(i);
      else if (path.starts_with(L::AotInductorDir))
        contents.aotinductorFiles.push_back(
            {path.drop_front(L::AotInductorDir.size()).str(), lazy()});
      else if (path.starts_with(L::ExtraDir))
        contents.extraFiles.push_back(
            {path.drop_front(L::ExtraDir.size()).str(), lazy()});
      else
        others.emplace_back(i, path.str());
      return Error::success();
    };
    if (Error err = classify())
      return err;
  }

  // Pass 3: hand each payload file to the first model whose config names
  // it. The rest are passed through verbatim.
  StringMap<Pt2Model *> owner;
  for (Pt2Model &model : contents.models) {
    auto claim = [&](const std::optional<std::string> &config, StringRef dir,
                     StringRef what) -> Error {
      if (!config)
        return Error::success();
      Expected<std::vector<std::string>> names =
          L::payloadConfigPathNames(*config);
      if (!names)
        return archiveError(path(), "model " + quoteEntryName(model.name) +
                                        ": " + what + ": " +
                                        toString(names.takeError()));
      for (const std::string &name : *names)
        owner.try_emplace((dir + name).str(), &model);
      return Error::success();
    };
    if (Error err =
            claim(model.weightsConfigJson, L::WeightsDir, "weights config"))
      return err;
    if (Error err = claim(model.constantsConfigJson, L::ConstantsDir,
                          "constants config"))
      return err;
  }
  for (size_t i : payloadCandidates) {
    StringRef path = paths[i];
    PayloadSource source =
        PayloadSource::fromZipEntry(reader, zipIndex.lookup(path));
    Pt2Model *model = owner.lookup(path);
    if (!model) {
      others.emplace_back(i, path.str());
      continue;
    }
    bool isWeight = path.starts_with(L::WeightsDir);
    StringRef dir = isWeight ? L::WeightsDir : L::ConstantsDir;
    (isWeight ? model->weights : model->constants)
        .push_back({path.drop_front(dir.size()).str(), source});
  }

  llvm::sort(others,
             [](const auto &a, const auto &b) { return a.first < b.first; });
  for (auto &[index, path] : others)
    contents.otherFiles.push_back(
        {path, PayloadSource::fromZipEntry(reader, zipIndex.lookup(path))});
  return contents;
}

Expected<Pt2ArchiveContents> Pt2Archive::readLegacyContents() const {
  Pt2ArchiveContents contents;
  contents.layout = Pt2ArchiveLayout::Legacy;
  Pt2Model model;
  model.name = L::LegacyModelName.str();

  for (StringRef path : paths) {
    PayloadSource source =
        PayloadSource::fromZipEntry(reader, zipIndex.lookup(path));
    if (path == L::LegacyProgramPath) {
      Expected<std::string> json = readEntry(path);
      if (!json)
        return json.takeError();
      model.programJson = std::move(*json);
    } else if (path == L::LegacyStateDictPath ||
               path == L::LegacyStateDictJsonPath) {
      model.weightsPickle = source;
    } else if (path == L::LegacyConstantsPath ||
               path == L::LegacyConstantsJsonPath) {
      model.constantsPickle = source;
    } else if (path == L::LegacyExampleInputsPath) {
      model.sampleInputs = source;
    } else if (path == L::LegacyVersionPath) {
      Expected<std::string> version = readSmallEntry(path);
      if (!version)
        return version.takeError();
      contents.legacyVersion = std::move(*version);
    } else if (path.starts_with(L::LegacyExtraDir)) {
      contents.extraFiles.push_back(
          {path.drop_front(L::LegacyExtraDir.size()).str(), source});
    } else {
      contents.otherFiles.push_back({path.str(), source});
    }
  }
  contents.models.push_back(std::move(model));
  return contents;
}

} // namespace pt2ir
