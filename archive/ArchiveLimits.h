//===- ArchiveLimits.h - Resource limits for reading zip --------*- C++ -*-===//
//
// The limits a zip reader enforces before it trusts an archive: how many
// entries it may list and how many decompressed bytes a single entry, and all
// entries together, may declare. They guard against zip bombs and against
// archives built to exhaust memory. The defaults admit real multi-hundred-GB
// model archives; tighten them for untrusted input.
//
// This header only describes the limits; ZipDirectory and ZipReader enforce
// them.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_ARCHIVE_ARCHIVELIMITS_H
#define PT2IR_ARCHIVE_ARCHIVELIMITS_H

#include <cstdint>

namespace pt2ir {

/// Limits checked when an archive is opened (against the sizes the central
/// directory declares) and again while entries are read (against the bytes
/// actually produced).
struct ArchiveLimits {
  /// Most entries an archive may list.
  uint64_t maxEntries = uint64_t(1) << 20;
  /// Most decompressed bytes one entry may hold (16 GiB).
  uint64_t maxEntryBytes = uint64_t(16) << 30;
  /// Most decompressed bytes all entries together may hold (1 TiB).
  uint64_t maxTotalBytes = uint64_t(1) << 40;
};

} // namespace pt2ir

#endif
