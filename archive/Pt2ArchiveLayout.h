//===- Pt2ArchiveLayout.h - Names and rules of the .pt2 layout --*- C++ -*-===//
//
// The fixed names of PyTorch's `.pt2` archive (torch.export.save /
// package_pt2) and of the pre-archive layout (torch <= ~2.5), all relative to
// the archive's top-level folder, plus the few pieces of logic shared by the
// archive reader and writer: which payload files a payload config refers to,
// the root-folder name torch derives from a file name, and the
// `.data/serialization_id` this project writes.
//
// It does not read or write archives itself.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_ARCHIVE_PT2ARCHIVELAYOUT_H
#define PT2IR_ARCHIVE_PT2ARCHIVELAYOUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace pt2ir {
namespace pt2layout {

// Archive identity and container records.
inline constexpr llvm::StringLiteral ArchiveFormatPath = "archive_format";
inline constexpr llvm::StringLiteral ArchiveFormatValue = "pt2";
inline constexpr llvm::StringLiteral ArchiveVersionPath = "archive_version";
inline constexpr llvm::StringLiteral ArchiveVersionValue = "0";
inline constexpr llvm::StringLiteral DataVersionPath = ".data/version";
/// torch's PT2 writer raises the container version to 6 (decimal + '\n').
inline constexpr llvm::StringLiteral DataVersionValue = "6\n";
inline constexpr llvm::StringLiteral ByteOrderPath = "byteorder";
inline constexpr llvm::StringLiteral ByteOrderValue = "little";
inline constexpr llvm::StringLiteral SerializationIdPath =
    ".data/serialization_id";

// Per-model files; `<m>` is the model name.
inline constexpr llvm::StringLiteral ModelsDir = "models/"; // <m>.json
inline constexpr llvm::StringLiteral ModelSuffix = ".json";
inline constexpr llvm::StringLiteral WeightsDir = "data/weights/";
inline constexpr llvm::StringLiteral WeightsConfigSuffix =
    "_weights_config.json";
inline constexpr llvm::StringLiteral ConstantsDir = "data/constants/";
inline constexpr llvm::StringLiteral ConstantsConfigSuffix =
    "_constants_config.json";
/// Older archives hold whole torch.save pickles at `<dir><m>.pt`.
inline constexpr llvm::StringLiteral LegacyPickleSuffix = ".pt";
inline constexpr llvm::StringLiteral CustomObjsConfigName =
    "custom_objs_config.json";
inline constexpr llvm::StringLiteral SampleInputsDir = "data/sample_inputs/";
inline constexpr llvm::StringLiteral SampleInputsSuffix = ".pt";
inline constexpr llvm::StringLiteral AotInductorDir = "data/aotinductor/";
inline constexpr llvm::StringLiteral ExtraDir = "extra/";

// Payload file name prefixes (inside WeightsDir / ConstantsDir).
inline constexpr llvm::StringLiteral WeightPrefix = "weight_";
inline constexpr llvm::StringLiteral TensorConstantPrefix = "tensor_";
inline constexpr llvm::StringLiteral CustomObjPrefix = "custom_obj_";
inline constexpr llvm::StringLiteral OpaqueObjPrefix = "opaque_obj_";

// The pre-archive layout: a plain zip with these members at its root.
inline constexpr llvm::StringLiteral LegacyProgramPath =
    "serialized_exported_program.json";
inline constexpr llvm::StringLiteral LegacyStateDictPath =
    "serialized_state_dict.pt";
inline constexpr llvm::StringLiteral LegacyStateDictJsonPath =
    "serialized_state_dict.json";
inline constexpr llvm::StringLiteral LegacyConstantsPath =
    "serialized_constants.pt";
inline constexpr llvm::StringLiteral LegacyConstantsJsonPath =
    "serialized_constants.json";
inline constexpr llvm::StringLiteral LegacyExampleInputsPath =
    "serialized_example_inputs.pt";
inline constexpr llvm::StringLiteral LegacyVersionPath = "version";
inline constexpr llvm::StringLiteral LegacyExtraDir = "extra_files/";
/// The model name given to the single program of a legacy archive.
inline constexpr llvm::StringLiteral LegacyModelName = "model";

/// Deepest JSON nesting accepted in a payload config.
constexpr unsigned MaxPayloadConfigDepth = 64;

/// Returns the `path_name` of every entry of a PayloadConfig
/// (`{"config": {fqn: {"path_name": ...}}}`), in document order, duplicates
/// kept. Parsing is iterative with a depth cap; errors say where the JSON
/// is broken.
llvm::Expected<std::vector<std::string>>
payloadConfigPathNames(llvm::StringRef configJson);

/// The root folder torch uses for a file: its base name without the last
/// extension (`model` for `dir/model.pt2`). Empty when none can be formed.
std::string rootFolderForFile(llvm::StringRef path);

/// The 40-digit `.data/serialization_id` this project writes: 20 digits of a
/// hash over the sorted record names, then 20 digits of a hash over the
/// records' CRC-32s in write order. Unlike torch's (which iterates an
/// unordered set), it is the same on every machine.
std::string computeSerializationId(
    llvm::ArrayRef<std::pair<std::string, uint32_t>> namesAndCrcs);

} // namespace pt2layout
} // namespace pt2ir

#endif
