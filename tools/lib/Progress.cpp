//===- Progress.cpp - A progress line on stderr for long work -------------===//

#include "pt2ir/tools/lib/Progress.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/Process.h"

#include <optional>

#if __has_include(<sys/ioctl.h>)
#include <sys/ioctl.h>
#include <unistd.h>
#endif

namespace pt2ir {

/// The width of the terminal on stderr, or 0 when unknown. (LLVM's
/// StandardErrColumns only reads $COLUMNS, which shells do not export.)
static unsigned terminalColumns() {
#if defined(TIOCGWINSZ)
  struct winsize size;
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0)
    return size.ws_col;
#endif
  return llvm::sys::Process::StandardErrColumns();
}

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
               initialDelayFromEnvironment()) {
  // The last column stays free: writing into it wraps on some terminals.
  unsigned columns = enabled ? terminalColumns() : 0;
  if (columns > 20)
    maxWidth = columns - 1;
}

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
  if (!total && !done)
    return label;
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
  if (maxWidth && line.size() > maxWidth) {
    size_t head = (maxWidth - 3) / 2;
    size_t tail = maxWidth - 3 - head;
    line = line.substr(0, head) + "..." + line.substr(line.size() - tail);
  }
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

void Progress::erase() {
  if (!enabled || drawnWidth == 0)
    return;
  os << '\r';
  os.indent(drawnWidth);
  os << '\r';
  os.flush();
  drawnWidth = 0;
}

void Progress::finish() {
  if (finished)
    return;
  finished = true;
  erase();
}

void Progress::setStage(llvm::StringRef newLabel, uint64_t newTotal) {
  label = newLabel.str();
  total = newTotal;
  done = 0;
  if (enabled && !finished && drawnWidth > 0)
    draw();
  else
    update(0);
}

void Progress::show() {
  if (enabled && !finished)
    draw();
}

void Progress::clear() {
  if (!finished)
    erase();
}

void ProgressAwareStream::write_impl(const char *ptr, size_t size) {
  progress.clear();
  out.write(ptr, size);
  out.flush();
  written += size;
}

} // namespace pt2ir
