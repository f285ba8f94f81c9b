//===- BenchSupport.cpp - Timers, memory probes and subprocesses ----------===//

#include "pt2ir/bench/BenchSupport.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

namespace pt2ir {
namespace bench {

double processCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) +
         static_cast<double>(ts.tv_nsec) * 1e-9;
}

double wallSeconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

/// Reads a `Key:   123 kB` line of /proc/self/status.
static int64_t statusKilobytes(const char *key) {
  FILE *f = std::fopen("/proc/self/status", "r");
  if (!f)
    return -1;
  char line[256];
  int64_t result = -1;
  size_t keyLen = std::strlen(key);
  while (std::fgets(line, sizeof(line), f)) {
    if (std::strncmp(line, key, keyLen) == 0 && line[keyLen] == ':') {
      result = std::strtoll(line + keyLen + 1, nullptr, 10);
      break;
    }
  }
  std::fclose(f);
  return result;
}

int64_t currentRssBytes() {
  int64_t kb = statusKilobytes("VmRSS");
  return kb < 0 ? -1 : kb * 1024;
}

int64_t peakRssBytes() {
  int64_t kb = statusKilobytes("VmHWM");
  return kb < 0 ? -1 : kb * 1024;
}

bool resetPeakRss() {
  int fd = open("/proc/self/clear_refs", O_WRONLY);
  if (fd < 0)
    return false;
  bool ok = write(fd, "5", 1) == 1;
  close(fd);
  return ok;
}

void releaseFreeHeap() { malloc_trim(0); }

ChildResult runChild(llvm::ArrayRef<std::string> argv,
                     llvm::StringRef logPath) {
  ChildResult result;
  std::vector<char *> args;
  for (const std::string &a : argv)
    args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  std::string log = logPath.str();
  double start = wallSeconds();
  pid_t pid = fork();
  if (pid < 0)
    return result;
  if (pid == 0) {
    int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
      close(fd);
    }
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  if (wait4(pid, &status, 0, &usage) < 0)
    return result;
  result.wallSeconds = wallSeconds() - start;
  result.cpuSeconds =
      static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
      static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) *
          1e-6;
  result.peakRssBytes = static_cast<int64_t>(usage.ru_maxrss) * 1024;
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::string selfExecutablePath() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0)
    return {};
  return std::string(buf, static_cast<size_t>(n));
}

} // namespace bench
} // namespace pt2ir
