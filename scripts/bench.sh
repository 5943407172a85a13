#!/usr/bin/env bash
# sitegen against Hugo on the shared corpus (../shared/bench): installs Hugo if missing, builds
# sitegen in release mode, generates the corpora if missing and runs bench/compare.py, which
# prints the table of medians and ratios. Arguments go to compare.py, e.g.
#   scripts/bench.sh --sizes 1000:1000,10000:10000 --rounds 5,5 --targets tmpfs
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh bench
swift build -c release --product sitegen
swift build -c release --product SitegenHighlight   # code in the corpus notes is highlighted, as Hugo does
exec python3 bench/compare.py --sitegen .build/release/sitegen "$@"
