#!/usr/bin/env bash
# The whole test suite: Swift unit and end-to-end tests, then the real-browser and HTML
# validator tests against the built example site, the fuzzers, and the large-input tests.
# Each phase's time is printed at the end (CI has a 30-minute budget: see where it goes).
set -euo pipefail
cd "$(dirname "$0")/.."
timings=()
phase() {  # phase NAME COMMAND...: runs it and records how long it took
  local name=$1 start=$SECONDS
  shift
  "$@"
  timings+=("$name $((SECONDS - start)) s")
  echo "test.sh: $name took $((SECONDS - start)) s"
}
phase setup scripts/setup.sh test
phase build swift build --build-tests
phase unit swift test --skip-build
export SITEGEN="$PWD/.build/debug/sitegen" SE_OFFLINE=1
# --durations: the slowest end-to-end tests, for the budget.
phase e2e bash -c 'cd e2e && python3 -m pytest -q --durations=25'
# The readers of untrusted input under libFuzzer, briefly (fuzz/README.md); FUZZ_SECONDS=0 skips.
if [ "${FUZZ_SECONDS:-30}" != 0 ]; then phase fuzz fuzz/run.sh "${FUZZ_SECONDS:-30}"; fi
# Empty and 200 MB datasets, in release mode (scripts/large-tests.sh); LARGE_TESTS=0 skips.
if [ "${LARGE_TESTS:-1}" != 0 ]; then phase large scripts/large-tests.sh; fi
echo "test.sh: phases: ${timings[*]} (total $SECONDS s)"
