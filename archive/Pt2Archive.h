//===- Pt2Archive.h - Reading PyTorch .pt2 archives -------------*- C++ -*-===//
//
// A `.pt2` file is a zip whose entries all sit under one top-level folder
// (see Pt2ArchiveLayout.h for the names inside it). Pt2Archive opens one,
// checks the container rules (one top-level folder, `archive_format` is
// "pt2", `archive_version` is 0, plus every zip-level safety check of
// ZipReader) and gives lazy access to entries by their path inside the
// folder. readContents() sorts the entries into a Pt2ArchiveContents: one
// Pt2Model per `models/<m>.json` with its configs and payload files, the
// AOTInductor, extra and sample-input files, and every other entry kept
// verbatim. The pre-archive layout of torch <= ~2.5 (root-level
// `serialized_exported_program.json` and siblings) is read as one model.
//
// Programs and payload configs are kept as JSON bytes; payloads are
// PayloadSource references into the open archive, loaded only when used.
// Pickled payloads are opaque bytes: nothing here unpickles anything.
// Turning program JSON into IR is ProgramReader's job, not this file's.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_ARCHIVE_PT2ARCHIVE_H
#define PT2IR_ARCHIVE_PT2ARCHIVE_H

#include "pt2ir/archive/ArchiveLimits.h"
#include "pt2ir/archive/ArchivePayload.h"
#include "pt2ir/archive/ZipReader.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pt2ir {

/// Which of torch's two archive layouts a file uses.
enum class Pt2ArchiveLayout {
  /// torch.export.save / package_pt2: everything under one folder.
  Pt2,
  /// torch <= ~2.5: `serialized_*` members at the zip root.
  Legacy,
};

/// One file of an archive: its path relative to the folder it is listed
/// under (documented at each use) and its bytes.
struct Pt2ArchiveFile {
  std::string path;
  PayloadSource payload;
};

/// One exported program and the files that belong to it.
struct Pt2Model {
  /// The `<m>` of `models/<m>.json`.
  std::string name;
  /// The ExportedProgram JSON, byte for byte.
  std::string programJson;
  /// `data/weights/<m>_weights_config.json` (a PayloadConfig), if present.
  std::optional<std::string> weightsConfigJson;
  /// Payload files the weights config refers to; paths relative to
  /// `data/weights/` (e.g. `weight_0`).
  std::vector<Pt2ArchiveFile> weights;
  /// Older archives: the whole state dict as one torch.save pickle
  /// (`data/weights/<m>.pt`; the legacy layout's `serialized_state_dict`).
  std::optional<PayloadSource> weightsPickle;
  /// `data/constants/<m>_constants_config.json`, if present.
  std::optional<std::string> constantsConfigJson;
  /// Payload files the constants config refers to (`tensor_N`,
  /// `custom_obj_N`, `opaque_obj_N`); paths relative to `data/constants/`.
  std::vector<Pt2ArchiveFile> constants;
  /// Older archives: all constants as one pickle (`data/constants/<m>.pt`;
  /// the legacy layout's `serialized_constants`).
  std::optional<PayloadSource> constantsPickle;
  /// `data/sample_inputs/<m>.pt` (the legacy layout's
  /// `serialized_example_inputs.pt`), a pickle of (args, kwargs).
  std::optional<PayloadSource> sampleInputs;
};

/// Everything in a `.pt2` archive, sorted by role. writePt2Archive writes it
/// back in torch's layout.
struct Pt2ArchiveContents {
  Pt2ArchiveLayout layout = Pt2ArchiveLayout::Pt2;
  /// The top-level folder. Empty: the writer derives it from the output file
  /// name as torch does (`model` for `model.pt2`).
  std::string rootFolder;
  /// `archive_format`; only "pt2" is accepted.
  std::string archiveFormat = "pt2";
  /// `archive_version`; absent counts as "0", the only supported version.
  std::optional<std::string> archiveVersion;
  /// `.data/version` (written as "6\n" when absent).
  std::optional<std::string> dataVersion;
  /// `byteorder` (written as "little" when absent).
  std::optional<std::string> byteOrder;
  /// `.data/serialization_id`, written verbatim when set; when absent the
  /// writer computes one. Clear it after changing the contents.
  std::optional<std::string> serializationId;
  /// The legacy layout's `version` member ("<major>.<minor>").
  std::optional<std::string> legacyVersion;

  /// Programs in archive order.
  std::vector<Pt2Model> models;
  /// `data/constants/custom_objs_config.json`, if present.
  std::optional<std::string> customObjsConfigJson;
  /// Paths relative to `data/aotinductor/` (`<model>/<file>`).
  std::vector<Pt2ArchiveFile> aotinductorFiles;
  /// Paths relative to `extra/` (the legacy layout's `extra_files/`).
  std::vector<Pt2ArchiveFile> extraFiles;
  /// Every other entry, paths relative to the root folder, passed through
  /// byte for byte (including payload files no config refers to).
  std::vector<Pt2ArchiveFile> otherFiles;

  /// The model named `name`, or null.
  Pt2Model *findModel(llvm::StringRef name);
  const Pt2Model *findModel(llvm::StringRef name) const;
};

/// An open, validated `.pt2` archive. Cheap to copy (copies share the open
/// file); may be used from several threads.
class Pt2Archive {
public:
  /// Opens `path`, validates the zip and the container rules. Only the
  /// directory and a few tiny records are read.
  static llvm::Expected<Pt2Archive> open(llvm::StringRef path,
                                         const ArchiveLimits &limits = {});

  Pt2ArchiveLayout layout() const { return layoutKind; }
  /// The top-level folder ("" for the legacy layout).
  llvm::StringRef rootFolder() const { return root; }
  llvm::StringRef path() const { return reader->path(); }
  /// Entry paths relative to the root folder, in archive order; directory
  /// entries are left out.
  llvm::ArrayRef<std::string> entryPaths() const { return paths; }
  bool hasEntry(llvm::StringRef path) const;
  /// The zip-level description of an entry, or null.
  const ZipEntryInfo *entryInfo(llvm::StringRef path) const;

  /// Reads an entry whole (CRC-checked).
  llvm::Expected<std::string> readEntry(llvm::StringRef path) const;
  /// Streams an entry (CRC-checked at the end).
  llvm::Expected<ZipEntryStream> openEntry(llvm::StringRef path) const;
  /// Maps a stored entry without copying (not CRC-checked).
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
  mapEntry(llvm::StringRef path) const;
  /// A lazy reference to an entry, for writing it into another archive.
  llvm::Expected<PayloadSource> payload(llvm::StringRef path) const;

  /// Sorts every entry into a Pt2ArchiveContents. Program and config JSON
  /// is read into memory; payloads stay lazy references to this archive.
  llvm::Expected<Pt2ArchiveContents> readContents() const;

private:
  Pt2Archive() = default;
  llvm::Expected<size_t> indexOf(llvm::StringRef path) const;
  llvm::Expected<std::string> readSmallEntry(llvm::StringRef path) const;
  llvm::Expected<Pt2ArchiveContents> readPt2Contents() const;
  llvm::Expected<Pt2ArchiveContents> readLegacyContents() const;

  std::shared_ptr<ZipReader> reader;
  Pt2ArchiveLayout layoutKind = Pt2ArchiveLayout::Pt2;
  std::string root;
  std::vector<std::string> paths;
  /// Relative path -> zip entry index.
  llvm::StringMap<size_t> zipIndex;
};

} // namespace pt2ir

#endif
