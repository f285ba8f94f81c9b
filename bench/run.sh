#!/usr/bin/env bash
# Builds the benchmark (Release, in build-bench/) and prints the performance
# table: read, write, verify, every registered pass and pt2-opt round trips at
# 1k, 10k, 100k and 1M nodes, with the RapidJSON baselines and the targets.
#
# Usage: bench/run.sh [--no-thp] [--quick] [pt2-bench options...]
#   --no-thp  do not ask glibc for transparent huge pages (see below)
#   --quick   1k, 10k and 50k nodes with short runs (a few minutes)
# Other options go to pt2-bench (see build-bench/bench/pt2-bench --help),
# e.g. --sizes=10000,100000 or --work-dir=DIR. Generated programs are cached
# in the work directory (default /tmp/pt2ir-bench; the 1M-node file is
# about 1.4 GB). The full run needs ~10 GB of memory at its peak: run it
# alone on a quiet machine.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${PT2IR_BENCH_BUILD_DIR:-$root/build-bench}"

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DPT2IR_BUILD_BENCH=ON >/dev/null
cmake --build "$build" -j2 --target pt2-bench pt2-bench-gen pt2-opt >/dev/null
# Transparent huge pages for every measured process (RapidJSON baselines
# included): on this VM a TLB miss is so costly that with 4 KiB pages every
# stage slows down per node as the program grows. --no-thp measures without.
if [ "${1:-}" = "--no-thp" ]; then
  shift
else
  export GLIBC_TUNABLES="${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.malloc.hugetlb=1"
fi
exec "$build/bench/pt2-bench" "$@"
