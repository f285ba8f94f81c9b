#!/usr/bin/env bash
# Runs the test suite under sanitizers. Usage:
#
#   scripts/sanitize.sh            AddressSanitizer + UndefinedBehaviorSanitizer
#                                  (+ LeakSanitizer): configures build-asan with
#                                  -DPT2IR_SANITIZE=ON and runs every unit test
#                                  and every lit test through scripts/test.sh.
#   scripts/sanitize.sh thread     ThreadSanitizer: configures build-tsan with
#                                  -fsanitize=thread and runs the concurrency
#                                  test (plus any test names given after it).
#
# Any report fails the run: sanitizers abort on the first error, so even a
# `not pt2-opt ...` lit line (which expects a plain failure) fails when the
# tool dies of a sanitizer report instead of exiting with its own error.
# Environment: PT2IR_JOBS (default 2) caps the build's parallelism.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mode="${1:-address}"
jobs="${PT2IR_JOBS:-2}"

# abort_on_error turns a report into SIGABRT, which `not` does not invert.
export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:detect_stack_use_after_return=1:strict_string_checks=1:check_initialization_order=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="abort_on_error=1:halt_on_error=1:print_stacktrace=1:${UBSAN_OPTIONS:-}"
export LSAN_OPTIONS="abort_on_error=1:${LSAN_OPTIONS:-}"
export TSAN_OPTIONS="halt_on_error=1:abort_on_error=1:second_deadlock_stack=1:${TSAN_OPTIONS:-}"
export CMAKE_BUILD_PARALLEL_LEVEL="$jobs"

case "$mode" in
address | asan)
  export PT2IR_BUILD_DIR="$root/build-asan"
  export PT2IR_BUILD_TYPE=RelWithDebInfo
  export PT2IR_CMAKE_ARGS="-DPT2IR_SANITIZE=ON -DPT2IR_BUILD_BENCH=OFF ${PT2IR_CMAKE_ARGS:-}"
  exec bash "$root/scripts/test.sh"
  ;;
thread | tsan)
  shift || true
  build="$root/build-tsan"
  tests=(ConcurrencyTest "$@")
  bash "$root/scripts/setup.sh" --no-build || exit 1
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DPT2IR_BUILD_BENCH=OFF \
    "-DCMAKE_CXX_FLAGS=-fsanitize=thread -fno-omit-frame-pointer" \
    "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread" >/dev/null || exit 1
  cmake --build "$build" --target "${tests[@]}" || exit 1
  failed=0
  for t in "${tests[@]}"; do
    echo "== $t (ThreadSanitizer)"
    # Some kernels randomize mmap more than TSan's shadow layout allows;
    # setarch -R turns address randomization off for the test process only.
    if ! setarch "$(uname -m)" -R "$build/test/$t"; then
      echo "FAILED: $t"
      failed=$((failed + 1))
    fi
  done
  echo "thread sanitizer: ${#tests[@]} test executables, $failed failed"
  [ "$failed" -eq 0 ]
  ;;
*)
  echo "usage: scripts/sanitize.sh [address|thread [TestName...]]" >&2
  exit 2
  ;;
esac
