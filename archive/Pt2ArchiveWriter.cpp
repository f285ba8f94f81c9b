//===- Pt2ArchiveWriter.cpp - Writing PyTorch .pt2 archives ---------------===//
//
// Implements planPt2Archive and writePt2Archive.
//
//===----------------------------------------------------------------------===//
#include "pt2ir/archive/Pt2ArchiveWriter.h"

#include "pt2ir/archive/ArchivePath.h"
#include "pt2ir/archive/Pt2ArchiveLayout.h"
#include "llvm/ADT/StringSet.h"

using namespace llvm;

namespace pt2ir {
namespace L = pt2layout;

namespace {

Error planError(StringRef path, const Twine &message) {
  return createStringError(inconvertibleErrorCode(),
                           "cannot write " + path + ": " + message);
}

/// Collects entries with their paths relative to the root folder.
class EntryList {
public:
  explicit EntryList(StringRef outputPath) : outputPath(outputPath) {}

  Error add(const Twine &relative, PayloadSource payload) {
    std::string name = relative.str();
    if (Error err = validateEntryName(name))
      return planError(outputPath, toString(std::move(err)));
    if (StringRef(name).ends_with("/"))
      return planError(outputPath,
                       "entry " + quoteEntryName(name) + " names a directory");
    if (!names.insert(name).second)
      return planError(outputPath, "two files would both be written as " +
                                       quoteEntryName(name));
    entries.push_back({std::move(name), std::move(payload)});
    return Error::success();
  }
  Error addText(const Twine &relative, std::string text) {
    return add(relative, PayloadSource::fromBytes(std::move(text)));
  }
  bool contains(StringRef relative) const { return names.contains(relative); }

  std::vector<ZipWriteEntry> entries;

private:
  StringRef outputPath;
  StringSet<> names;
};

Error addModelFiles(EntryList &list, const Pt2Model &model) {
  const std::string &m = model.name;
  for (const Pt2ArchiveFile &file : model.weights)
    if (Error err = list.add(L::WeightsDir + file.path, file.payload))
      return err;
  if (model.weightsPickle)
    if (Error err = list.add(L::WeightsDir + m + L::LegacyPickleSuffix,
                             *model.weightsPickle))
      return err;
  if (model.weightsConfigJson)
    if (Error err = list.addText(L::WeightsDir + m + L::WeightsConfigSuffix,
                                 *model.weightsConfigJson))
      return err;
  for (const Pt2ArchiveFile &file : model.constants)
    if (Error err = list.add(L::ConstantsDir + file.path, file.payload))
      return err;
  if (model.constantsPickle)
    if (Error err = list.add(L::ConstantsDir + m + L::LegacyPickleSuffix,
                             *model.constantsPickle))
      return err;
  if (model.constantsConfigJson)
    if (Error err = list.addText(L::ConstantsDir + m + L::ConstantsConfigSuffix,
                                 *model.constantsConfigJson))
      return err;
  if (Error err =
          list.addText(L::ModelsDir + m + L::ModelSuffix, model.programJson))
    return err;
  if (model.sampleInputs)
    if (Error err = list.add(L::SampleInputsDir + m + L::SampleInputsSuffix,
                             *model.sampleInputs))
      return err;
  return Error::success();
}

/// Every payload a model's configs name must be written too.
Error checkConfigReferences(StringRef path, const EntryList &list,
                            const Pt2Model &model) {
  auto check = [&](const std::optional<std::string> &config, StringRef dir,
                   StringRef what) -> Error {
    if (!config)
      return Error::success();
    Expected<std::vector<std::string>> names =
        L::payloadConfigPathNames(*config);
    if (!names)
      return planError(path, "model " + quoteEntryName(model.name) + ": " +
                                 what + ": " + toString(names.takeError()));
    for (const std::string &name : *names)
      if (!list.contains((dir + name).str()))
        return planError(path, "model " + quoteEntryName(model.name) + ": " +
                                   what + " refers to " + quoteEntryName(name) +
                                   ", which is not in the archive");
    return Error::success();
  };
  if (Error err =
          check(model.weightsConfigJson, L::WeightsDir, "the weights config"))
    return err;
  return check(model.constantsConfigJson, L::ConstantsDir,
               "the constants config");
}

} // namespace

Expected<std::vector<ZipWriteEntry>>
planPt2Archive(StringRef path, const Pt2ArchiveContents &contents) {
  std::string root = contents.rootFolder.empty() ? L::rootFolderForFile(path)
                                                 : contents.rootFolder;
  if (root.empty())
    return planError(path, "cannot derive a root folder name from the file "
                           "name; set rootFolder");
  if (Error err = validatePathComponent(root, "root folder"))
    return planError(path, toString(std::move(err)));
  if (contents.archiveFormat != L::ArchiveFormatValue)
    return planError(path, "archive_format is " +
                               quoteEntryName(contents.archiveFormat) +
                               "; only 'pt2' archives are written");
  if (contents.archiveVersion &&
      *contents.archiveVersion != L::ArchiveVersionValue)
    return planError(path, "archive_version is " +
                               quoteEntryName(*contents.archiveVersion) +
                               "; only version 0 is written");

  EntryList list(path);
  StringSet<> modelNames;
  for (const Pt2Model &model : contents.models) {
    if (Error err = validatePathComponent(model.name, "model name"))
      return planError(path, toString(std::move(err)));
    if (!modelNames.insert(model.name).second)
      return planError(path,
                       "two models are named " + quoteEntryName(model.name));
    if (Error err = addModelFiles(list, model))
      return err;
  }
  if (contents.customObjsConfigJson)
    if (Error err = list.addText(L::ConstantsDir + L::CustomObjsConfigName,
                                 *contents.customObjsConfigJson))
      return err;
  for (const Pt2ArchiveFile &file : contents.aotinductorFiles)
    if (Error err = list.add(L::AotInductorDir + file.path, file.payload))
      return err;
  for (const Pt2ArchiveFile &file : contents.extraFiles)
    if (Error err = list.add(L::ExtraDir + file.path, file.payload))
      return err;
  for (const Pt2ArchiveFile &file : contents.otherFiles)
    if (Error err = list.add(file.path, file.payload))
      return err;

  for (const Pt2Model &model : contents.models)
    if (Error err = checkConfigReferences(path, list, model))
      return err;

  auto orDefault = [](const std::optional<std::string> &value,
                      StringRef fallback) {
    return value ? *value : fallback.str();
  };
  if (Error err = list.addText(L::ArchiveFormatPath, contents.archiveFormat))
    return err;
  if (Error err = list.addText(
          L::ArchiveVersionPath,
          orDefault(contents.archiveVersion, L::ArchiveVersionValue)))
    return err;
  if (Error err =
          list.addText(L::DataVersionPath,
                       orDefault(contents.dataVersion, L::DataVersionValue)))
    return err;
  if (Error err = list.addText(
          L::ByteOrderPath, orDefault(contents.byteOrder, L::ByteOrderValue)))
    return err;

  std::vector<ZipWriteEntry> entries = std::move(list.entries);
  for (ZipWriteEntry &entry : entries)
    entry.name = root + "/" + entry.name;

  std::string serializationId;
  if (contents.serializationId) {
    serializationId = *contents.serializationId;
  } else {
    std::vector<std::pair<std::string, uint32_t>> namesAndCrcs;
    namesAndCrcs.reserve(entries.size());
    for (const ZipWriteEntry &entry : entries)
      namesAndCrcs.emplace_back(entry.name, entry.payload.crc32());
    serializationId = L::computeSerializationId(namesAndCrcs);
  }
  std::string idName = root + "/" + L::SerializationIdPath.str();
  for (const ZipWriteEntry &entry : entries)
    if (entry.name == idName)
      return planError(path, "two files would both be written as " +
                                 quoteEntryName(L::SerializationIdPath));
  entries.push_back({std::move(idName),
                     PayloadSource::fromBytes(std::move(serializationId))});
  return entries;
}

Error writePt2Archive(StringRef path, const Pt2ArchiveContents &contents) {
  Expected<std::vector<ZipWriteEntry>> entries = planPt2Archive(path, contents);
  if (!entries)
    return entries.takeError();
  return writeAlignedZip(path, *entries, TorchDataAlignment);
}

} // namespace pt2ir
