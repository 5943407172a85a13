#!/usr/bin/env bash
# The differential test of `sitegen serve` and of warm builds on demand: random sites from each
# seed, random edits applied through a SiteSession, the live folder compared after every edit with
# a full build into an empty folder with an empty cache; so is a warm build (the same output and
# cache each time, now and then damaged) after the edits DIFFERENTIAL_WARM picks
# (Tests/SiteBuildTests/DifferentialRebuildTests.swift). `swift test` runs a fixed list of seeds;
# this runs as many as asked, each mismatch printed with its seed, edit, path and the edits so far.
#
#   scripts/differential.sh [SEEDS] [EDITS]
#     SEEDS  1000..1200 (both ends), 7, or 3,9,12       (default $DIFFERENTIAL_SEEDS, else 1000..1099)
#     EDITS  edits per site                              (default $DIFFERENTIAL_EDITS, else 40)
#   DIFFERENTIAL_WARM=every|some|none                    (default every: a warm build after each edit)
#
# A mismatch goes on with a new session (or an emptied warm output and cache), so one seed can show
# several. A seed that finds one goes into DifferentialSeeds.found, with what it found there.
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${1:-${DIFFERENTIAL_SEEDS:-1000..1099}}
edits=${2:-${DIFFERENTIAL_EDITS:-40}}
warm=${DIFFERENTIAL_WARM:-every}
swift build --build-tests
status=0
DIFFERENTIAL_SEEDS="$seeds" DIFFERENTIAL_EDITS="$edits" DIFFERENTIAL_WARM="$warm" \
  swift test --skip-build --filter 'DifferentialRebuildTests/requestedSeed' 2>&1 | tee .build/differential.log \
  || status=$?
echo "differential.sh: seeds $seeds, $edits edits each, warm builds: $warm; mismatches (seed: edits):"
grep '^↳ seed [0-9]*, edit' .build/differential.log \
  | sed -E 's/^↳ seed ([0-9]+), edit ([0-9]+) of [0-9]+, (serve|warm) (path|build):.*/\1 \2 \3/' \
  | awk '{ e[$1] = e[$1] (e[$1] == "" ? "" : ", ") $2 " (" $3 ")" } END { for (s in e) print "  " s ": " e[s] }' \
  | sort -n || true
exit "$status"
