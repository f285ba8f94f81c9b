//===- Progress.h - A progress line on stderr for long work -----*- C++ -*-===//
//
// Long work on big inputs (reading a multi-gigabyte archive, walking a
// million-node graph) shows how far it got:
//
//   reading model.pt2: 412.0 MiB / 1.2 GiB (33%)
//   diffing nodes: 120000 / 350000 (34%)
//
// on one line of stderr that is redrawn in place (`\r`) at most ten times a
// second, and erased when the work is done. Work that ends within 0.3 s
// draws nothing. It only draws when stderr is a
// terminal (isatty(2)), so logs and pipes never see it. The environment
// variable PT2IR_PROGRESS_DELAY_MS changes the 0.3 s (lit tests set it to 0
// and run the tool under a pseudo-terminal).
//
// A Progress is one object per task, owned by the caller; there is no global
// state. It never fails and never affects the work it reports on.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_TOOLS_PROGRESS_H
#define PT2IR_TOOLS_PROGRESS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdint>
#include <string>

namespace pt2ir {

class Progress {
public:
  /// What the counts measure: shown as sizes (KiB, MiB) or plain numbers.
  enum class Unit { Bytes, Items };

  /// A task called `label` with `total` units of work (0 when unknown),
  /// drawn on stderr when it is a terminal, after the delay that
  /// PT2IR_PROGRESS_DELAY_MS names (default 300 ms); a line wider than the
  /// terminal is shortened in the middle so that it never wraps.
  Progress(llvm::StringRef label, uint64_t total, Unit unit = Unit::Items);
  /// Draws on `os` only when `enabled`, after `initialDelay`.
  Progress(llvm::StringRef label, uint64_t total, Unit unit,
           llvm::raw_ostream &os, bool enabled,
           std::chrono::milliseconds initialDelay = DefaultInitialDelay);
  Progress(const Progress &) = delete;
  Progress &operator=(const Progress &) = delete;
  /// Erases the line if one is showing.
  ~Progress();

  /// Records that `done` units are finished; redraws when enough time has
  /// passed since the last drawing. Cheap enough to call per node (one
  /// clock read).
  void update(uint64_t done);
  /// Adds `delta` to the finished units.
  void advance(uint64_t delta = 1) { update(done + delta); }
  /// Erases the line; later updates draw nothing.
  void finish();

  /// Starts the next stage of a task made of stages (`reading x.json`,
  /// `verifying x.json`, ...): a new label and total, nothing done yet. A
  /// line already showing switches to it at once; otherwise it is drawn
  /// after the usual delay, at the next update or stage.
  void setStage(llvm::StringRef newLabel, uint64_t newTotal = 0);
  /// Draws the line now, without waiting for the delay (for a stage known
  /// to be long, such as reading a big file). Does nothing when disabled.
  void show();
  /// Erases the line if one is showing, e.g. before printing a message;
  /// later updates and stages draw it again.
  void clear();

  bool isEnabled() const { return enabled; }
  /// The text the line shows now (also when disabled; for tests): the
  /// label, then the counts unless both are zero.
  std::string render() const;

  /// `1.5 MiB`-style size.
  static std::string formatBytes(uint64_t bytes);

  /// Short tasks show nothing: the first drawing waits this long.
  static constexpr std::chrono::milliseconds DefaultInitialDelay{300};
  /// The first-drawing delay PT2IR_PROGRESS_DELAY_MS asks for (a decimal
  /// number of milliseconds), else DefaultInitialDelay.
  static std::chrono::milliseconds initialDelayFromEnvironment();

private:
  void draw();
  void erase();

  std::string label;
  uint64_t total;
  Unit unit;
  llvm::raw_ostream &os;
  bool enabled;
  std::chrono::milliseconds initialDelay;
  /// The widest line drawn (0: no limit).
  size_t maxWidth = 0;
  bool finished = false;
  uint64_t done = 0;
  size_t drawnWidth = 0;
  /// The last drawing, or the construction time before the first.
  std::chrono::steady_clock::time_point lastDraw;
};

/// A stream for messages printed while a Progress line may be showing: the
/// line is erased before each write, then the text goes to `out` (a later
/// stage or update draws the line again below the message).
class ProgressAwareStream : public llvm::raw_ostream {
public:
  ProgressAwareStream(Progress &line, llvm::raw_ostream &stream)
      : progress(line), out(stream) {
    SetUnbuffered();
  }

private:
  void write_impl(const char *ptr, size_t size) override;
  uint64_t current_pos() const override { return written; }

  Progress &progress;
  llvm::raw_ostream &out;
  uint64_t written = 0;
};

} // namespace pt2ir

#endif
