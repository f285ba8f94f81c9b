#!/usr/bin/env bash
# Runs every test: installs what is missing, builds (Release), then the unit
# tests (ctest) and the lit + FileCheck suite. Ends with one summary line
# "N passed, N failed". Usage: scripts/test.sh
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${PT2IR_BUILD_DIR:-$root/build}"

bash "$root/scripts/setup.sh" --no-build || exit 1
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${PT2IR_BUILD_TYPE:-Release}" -DPT2IR_WERROR=ON ${PT2IR_CMAKE_ARGS:-} >/dev/null || exit 1
cmake --build "$build" || exit 1

unit_log="$(mktemp)"
lit_log="$(mktemp)"
(cd "$build" && ctest --output-on-failure -E '^lit$') 2>&1 | tee "$unit_log"
unit_rc=${PIPESTATUS[0]}
python3 /usr/lib/llvm-19/build/utils/lit/lit.py -sv "$build/test/lit" 2>&1 | tee "$lit_log"
lit_rc=${PIPESTATUS[0]}

unit_pass=$(grep -Eo '[0-9]+% tests passed, [0-9]+ tests failed out of [0-9]+' "$unit_log" | awk '{print $NF - $4}')
unit_fail=$(grep -Eo '[0-9]+ tests failed out of' "$unit_log" | awk '{print $1}')
lit_pass=$(grep -Eo '^ *(Passed|Expectedly Failed) *: *[0-9]+' "$lit_log" | awk -F: '{s+=$2} END {print s+0}')
lit_fail=$(grep -Eo '^ *(Failed|Unresolved|Timed Out|Unexpectedly Passed) *: *[0-9]+' "$lit_log" | awk -F: '{s+=$2} END {print s+0}')
passed=$(( ${unit_pass:-0} + ${lit_pass:-0} ))
failed=$(( ${unit_fail:-0} + ${lit_fail:-0} ))
if [ "$unit_rc" -ne 0 ] || [ "$lit_rc" -ne 0 ]; then
  [ "$failed" -eq 0 ] && failed=1
fi
echo
echo "unit tests: ${unit_pass:-0} passed, ${unit_fail:-0} failed; lit tests: ${lit_pass:-0} passed, ${lit_fail:-0} failed"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
