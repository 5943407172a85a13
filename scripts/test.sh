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
# The code's layout is the toolchain's formatter's (.swift-format: 120 columns): `swift format -i -r
# Sources Tests` fixes what this reports.
phase format swift format lint --strict --recursive Sources Tests
phase build swift build --build-tests
phase unit swift test --skip-build
export SITEGEN="$PWD/.build/debug/sitegen" SE_OFFLINE=1
# The large-input tests' release build (~400 s of both cores alone, the longest step of the large
# phase) runs in the background from here on at the lowest priority, on the CPU the end-to-end
# tests (browsers, servers, waits) and the fuzzers (one core) leave idle; the large phase waits for
# it (its own `swift build -c release` then finds nothing to do). Not during `swift test`: SwiftPM
# locks .build. RELEASE_BUILD_EARLY=0 builds it in the large phase instead.
release_pid=""
trap '[ -z "$release_pid" ] || kill "$release_pid" 2>/dev/null || true' EXIT
if [ "${LARGE_TESTS:-1}" != 0 ] && [ "${RELEASE_BUILD_EARLY:-1}" != 0 ]; then
  nice -n 19 swift build -c release --product sitegen > .build/release-build.log 2>&1 &
  release_pid=$!
fi
# --durations: the slowest end-to-end tests, for the budget.
phase e2e bash -c 'cd e2e && python3 -m pytest -q --durations=25'
# The readers of untrusted input under libFuzzer, briefly (fuzz/README.md); FUZZ_SECONDS=0 skips.
if [ "${FUZZ_SECONDS:-30}" != 0 ]; then phase fuzz fuzz/run.sh "${FUZZ_SECONDS:-30}"; fi
# Empty and 200 MB datasets, in release mode (scripts/large-tests.sh); LARGE_TESTS=0 skips.
if [ "${LARGE_TESTS:-1}" != 0 ]; then
  if [ -n "$release_pid" ]; then
    wait_release() {  # the background release build's status, and what it took
      local status=0
      wait "$release_pid" || status=$?
      release_pid=""
      if [ "$status" != 0 ]; then tail -40 .build/release-build.log; echo "test.sh: the release build failed"; return 1; fi
      { grep -E "complete!" .build/release-build.log || true; } | sed 's/^/test.sh: background release build: /'
    }
    phase release-wait wait_release
  fi
  phase large scripts/large-tests.sh
fi
echo "test.sh: phases: ${timings[*]} (total $SECONDS s)"
