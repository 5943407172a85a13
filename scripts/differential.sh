#!/usr/bin/env bash
# The differential test of `sitegen serve` on demand: random sites from each seed, random edits
# applied through a SiteSession, the live folder compared after every edit with a full build
# (Tests/SiteBuildTests/DifferentialRebuildTests.swift). `swift test` runs a fixed list of seeds;
# this runs as many as asked, each mismatch printed with its seed, edit and the edits so far.
#
#   scripts/differential.sh [SEEDS] [EDITS]
#     SEEDS  1000..1200 (both ends), 7, or 3,9,12       (default 1000..1099)
#     EDITS  edits per site                              (default 40)
#
# A mismatch goes on with a new session, so one seed can show several. A seed that finds one goes
# into DifferentialSeeds.found, with what it found in the comment there.
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${1:-1000..1099}
edits=${2:-40}
swift build --build-tests
status=0
DIFFERENTIAL_SEEDS="$seeds" DIFFERENTIAL_EDITS="$edits" \
  swift test --skip-build --filter 'DifferentialRebuildTests/requestedSeed' 2>&1 | tee .build/differential.log \
  || status=$?
echo "differential.sh: seeds $seeds, $edits edits each; mismatches (seed: edits):"
grep '^↳ seed [0-9]*, edit' .build/differential.log | grep -o 'seed [0-9]*, edit [0-9]*' \
  | awk '{ sub(",", "", $2); e[$2] = e[$2] (e[$2] == "" ? "" : ", ") $4 } END { for (s in e) print "  " s ": " e[s] }' \
  | sort -n || true
exit "$status"
