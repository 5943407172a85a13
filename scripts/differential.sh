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
# A seed that finds a mismatch goes into DifferentialSeeds.fixed with a comment saying what it found.
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${1:-1000..1099}
edits=${2:-40}
swift build --build-tests
status=0
DIFFERENTIAL_SEEDS="$seeds" DIFFERENTIAL_EDITS="$edits" \
  swift test --skip-build --filter 'DifferentialRebuildTests/requestedSeed' 2>&1 | tee .build/differential.log \
  || status=$?
echo "differential.sh: seeds $seeds, $edits edits each; failing seeds:" \
  "$(grep -o 'seed [0-9]*, edit [0-9]*' .build/differential.log | sort -u -t' ' -k2,2n | tr '\n' ' ' || true)"
exit "$status"
