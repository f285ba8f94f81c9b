#!/usr/bin/env bash
# Builds and runs the libFuzzer targets of fuzz/ (clang, AddressSanitizer,
# UndefinedBehaviorSanitizer and LeakSanitizer) in build-fuzz/.
#
#   scripts/fuzz.sh TARGET SECONDS [libFuzzer flags...]   fuzz one target
#   scripts/fuzz.sh all SECONDS                           every target in turn
#   scripts/fuzz.sh TARGET --replay FILE...               run given inputs once
#   scripts/fuzz.sh --build                               only build
#   scripts/fuzz.sh --list                                list the targets
#
# TARGET is program_reader, roundtrip, streaming, text, treespec, symexpr,
# archive, pipeline or tools
# (the executable is build-fuzz/fuzz/fuzz_TARGET). Seeds are rebuilt from the
# tests by fuzz/make_seeds.py into build-fuzz/seeds/TARGET; the growing corpus
# lives in build-fuzz/corpus/TARGET, and crashes, leaks, timeouts and
# out-of-memory inputs go to build-fuzz/artifacts/TARGET/. The last line says
# how many inputs ran and whether anything was found.
#
# libFuzzer ships with Debian's libclang-rt-14-dev (clang-14 is `clang`);
# if it is missing this script installs it (an optional extra: the normal
# build and tests never need it). Environment: PT2IR_FUZZ_CXX (default
# clang++), PT2IR_JOBS (build parallelism, default 2), PT2IR_FUZZ_NO_BUILD=1
# (run the executables already in build-fuzz, e.g. while the tree is being
# edited).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build-fuzz"
targets=(program_reader roundtrip streaming text treespec symexpr archive pipeline tools)
cxx="${PT2IR_FUZZ_CXX:-clang++}"
export CMAKE_BUILD_PARALLEL_LEVEL="${PT2IR_JOBS:-2}"

usage() {
  sed -n '4,9p' "$0" | sed 's/^# //' >&2
  exit 2
}

has_libfuzzer() {
  command -v "$cxx" >/dev/null || return 1
  echo 'extern "C" int LLVMFuzzerTestOneInput(const char *, unsigned long) { return 0; }' |
    "$cxx" -x c++ -fsanitize=fuzzer,address - -o /dev/null 2>/dev/null
}

ensure_libfuzzer() {
  has_libfuzzer && return 0
  echo "fuzz: installing clang-14 and libclang-rt-14-dev (libFuzzer)"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
      clang-14 libclang-rt-14-dev || return 1
  has_libfuzzer || { echo "fuzz: $cxx cannot link -fsanitize=fuzzer" >&2; return 1; }
}

build_targets() {
  [ "${PT2IR_FUZZ_NO_BUILD:-0}" = 1 ] && return 0
  bash "$root/scripts/setup.sh" --no-build || return 1
  ensure_libfuzzer || return 1
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER="$cxx" -DPT2IR_SANITIZE=ON -DPT2IR_BUILD_FUZZERS=ON \
    -DPT2IR_BUILD_TESTS=OFF -DPT2IR_BUILD_BENCH=OFF >/dev/null || return 1
  cmake --build "$build" --target "$@"
}

# Leaks fail the run; a report aborts so that libFuzzer keeps the input.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1:suppressions=$root/fuzz/ubsan.supp:${UBSAN_OPTIONS:-}"

run_target() {
  local target="$1" seconds="$2"
  shift 2
  local exe="$build/fuzz/fuzz_$target"
  local seeds="$build/seeds/$target" corpus="$build/corpus/$target"
  local artifacts="$build/artifacts/$target" log="$build/logs/$target.log"
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  python3 "$root/fuzz/make_seeds.py" "$target" "$seeds" || return 1
  local dict=()
  case "$target" in
  program_reader | roundtrip | streaming | pipeline | tools) dict=(-dict="$root/fuzz/dicts/program.dict") ;;
  treespec) dict=(-dict="$root/fuzz/dicts/treespec.dict") ;;
  symexpr) dict=(-dict="$root/fuzz/dicts/symexpr.dict") ;;
  esac
  echo "fuzz: $target for ${seconds}s (log: $log)"
  "$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2560 \
    -max_len=262144 -print_final_stats=1 -artifact_prefix="$artifacts/" \
    "${dict[@]}" "$@" "$corpus" "$seeds" >"$log" 2>&1
  local rc=$?
  local runs
  runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' | tail -1)
  local found
  found=$(find "$artifacts" -type f | wc -l)
  local cov
  cov=$(grep -Eo 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)
  echo "fuzz: $target: ${runs:-0} inputs in ${seconds}s, $cov, corpus $(find "$corpus" -type f | wc -l) files, exit $rc, $found artifact(s) in $artifacts"
  [ "$rc" -eq 0 ] || tail -40 "$log"
  return $rc
}

[ $# -ge 1 ] || usage
case "$1" in
--build)
  build_targets $(printf 'fuzz_%s ' "${targets[@]}")
  exit $?
  ;;
--list)
  printf '%s\n' "${targets[@]}"
  exit 0
  ;;
all)
  [ $# -ge 2 ] || usage
  build_targets $(printf 'fuzz_%s ' "${targets[@]}") || exit 1
  failed=0
  for t in "${targets[@]}"; do
    run_target "$t" "$2" || failed=$((failed + 1))
  done
  echo "fuzz: ${#targets[@]} targets, $failed with findings"
  [ "$failed" -eq 0 ]
  exit $?
  ;;
esac

target="$1"
[[ " ${targets[*]} " == *" $target "* ]] || { echo "fuzz: unknown target '$target'" >&2; usage; }
[ $# -ge 2 ] || usage
build_targets "fuzz_$target" || exit 1
if [ "$2" = "--replay" ]; then
  shift 2
  "$build/fuzz/fuzz_$target" -runs=1 "$@"
  exit $?
fi
seconds="$2"
shift 2
run_target "$target" "$seconds" "$@"
