#!/usr/bin/env bash
# The large-input tests of issue 7, apart from scripts/test.sh (they need a release build and a few
# hundred MB of disk; CI runs both): empty datasets ([] in JSON, <array/> in an XML plist, an
# empty binary plist) build a valid empty list page, and a generated ~200 MB JSON dataset (and the
# same items as a binary plist) builds every page with a bounded peak RSS (large/run.py).
#   scripts/large-tests.sh [large/run.py options]   e.g. --mb 50,100,200 to see how memory scales
# Env: LARGE_TMP — where the generated sites and outputs go (default: the system's temp folder;
#      ~1 GB free needed at the peak).
# About 2 minutes on a 2-core machine once sitegen is built (the first release build: ~2 more).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh test          # libcmark-dev to build; GNU time (/usr/bin/time) to measure peak RSS
swift build -c release --product sitegen
args=(--sitegen "$PWD/.build/release/sitegen")
if [ -n "${LARGE_TMP:-}" ]; then args+=(--tmp "$LARGE_TMP"); fi
python3 large/run.py "${args[@]}" "$@"
# The release binary's serve under load and Ctrl-C, a few times (large/serve_exit.py): a heap
# corruption once crashed only the optimised build, which the end-to-end tests do not run.
python3 large/serve_exit.py --sitegen "$PWD/.build/release/sitegen"
