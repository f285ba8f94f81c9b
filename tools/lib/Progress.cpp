//===- Progress.cpp - A progress line on stderr for long work -------------===//

#include "tools/lib/Progress.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/Process.h"

#include <optional>

namespace pt2ir {

/// Redraw at most this often.
static constexpr std::chrono::milliseconds RedrawInterval(100);

std::chrono::milliseconds Progress::initialDelayFromEnvironment() {
  std::optional<std::string> text =
      llvm::sys::Process::GetEnv("PT2IR_PROGRESS_DELAY_MS");
  unsigned ms = 0;
  if (!text || llvm::StringRef(*text).getAsInteger(10, ms))
    return DefaultInitialDelay;
  return std::chrono::milliseconds(ms);
}

Progress::Progress(llvm::StringRef label, uint64_t total, Unit unit)
    : Progress(label, total, unit, llvm::errs(),
               llvm::sys::Process::StandardErrIsDisplayed(),
               initialDelayFromEnvironment()) {}

Progress::Progress(llvm::StringRef label, uint64_t total, Unit unit,
                   llvm::raw_ostream &os, bool enabled,
                   std::chrono::milliseconds initialDelay)
    : label(label.str()), total(total), unit(unit), os(os), enabled(enabled),
      initialDelay(initialDelay), lastDraw(std::chrono::steady_clock::now()) {}

Progress::~Progress() { finish(); }

std::string Progress::formatBytes(uint64_t bytes) {
  static const char *const Units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  unsigned index = 0;
  while (value >= 1024 && index + 1 < std::size(Units)) {
    value /= 1024;
    ++index;
  }
  std::string out;
  llvm::raw_string_ostream os(out);
  if (index == 0)
    os << bytes << " B";
  else
    os << llvm::format("%.1f %s", value, Units[index]);
  return out;
}

std::string Progress::render() const {
  auto amount = [&](uint64_t n) {
    return unit == Unit::Bytes ? formatBytes(n) : std::to_string(n);
  };
  std::string out = label + ": " + amount(done);
  if (total) {
    out += " / " + amount(total);
    uint64_t shown = done > total ? total : done;
    out += " (" + std::to_string(static_cast<unsigned>(shown * 100.0 / total)) +
           "%)";
  }
  return out;
}

void Progress::draw() {
  std::string line = render();
  os << '\r' << line;
  if (line.size() < drawnWidth)
    os.indent(drawnWidth - line.size());
  drawnWidth = std::max(drawnWidth, line.size());
  os.flush();
  lastDraw = std::chrono::steady_clock::now();
}

void Progress::update(uint64_t newDone) {
  done = newDone;
  if (!enabled || finished)
    return;
  auto waited = std::chrono::steady_clock::now() - lastDraw;
  if (waited >= (drawnWidth == 0 ? initialDelay : RedrawInterval))
    draw();
}

void Progress::finish() {
  if (finished)
    return;
  finished = true;
  if (!enabled || drawnWidth == 0)
    return;
  os << '\r';
  os.indent(drawnWidth);
  os << '\r';
  os.flush();
}

} // namespace pt2ir
