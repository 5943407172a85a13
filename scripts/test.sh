#!/usr/bin/env bash
# The whole test suite: Swift unit and end-to-end tests, then the real-browser and HTML
# validator tests against the built example site, the fuzzers, and the large-input tests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh test
swift build --build-tests
swift test --skip-build
export SITEGEN="$PWD/.build/debug/sitegen" SE_OFFLINE=1
(cd e2e && python3 -m pytest -q)
# The readers of untrusted input under libFuzzer, briefly (fuzz/README.md); FUZZ_SECONDS=0 skips.
if [ "${FUZZ_SECONDS:-30}" != 0 ]; then fuzz/run.sh "${FUZZ_SECONDS:-30}"; fi
# Empty and 200 MB datasets, in release mode (scripts/large-tests.sh); LARGE_TESTS=0 skips.
if [ "${LARGE_TESTS:-1}" != 0 ]; then scripts/large-tests.sh; fi
