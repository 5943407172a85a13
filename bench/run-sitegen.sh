#!/usr/bin/env bash
# Build a gen_corpus.py corpus with sitegen (the counterpart of /work/shared/bench/run_hugo.sh).
#   bench/run-sitegen.sh CORPUS_DIR OUT_DIR
# Steps (timed separately on stderr):
#   1. prep: prepare-site.sh (symlink content/, copy site.yml + templates/) into the work dir
#   2. sitegen build --source WORK --output OUT_DIR   (OUT_DIR removed first: a cold, full build)
# Env: SITEGEN (default: the release binary, .build/release/sitegen), SITEGEN_WORK (default:
#      CORPUS_DIR/sitegen-work, like run_hugo.sh's hugo-work), SKIP_PREP=1 to reuse the work dir.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
corpus="$(cd "$1" && pwd)"
out="$2"
work="${SITEGEN_WORK:-$corpus/sitegen-work}"
sitegen="${SITEGEN:-$here/../.build/release/sitegen}"

now() { date +%s.%N; }
if [[ "${SKIP_PREP:-0}" != 1 ]]; then
  t0=$(now)
  "$here/prepare-site.sh" "$corpus" "$work"
  t1=$(now)
  echo "prep_s $(echo "$t1 - $t0" | bc)" >&2
fi
rm -rf "$out"
t1=$(now)
"$sitegen" build --source "$work" --output "$out"
t2=$(now)
echo "sitegen_s $(echo "$t2 - $t1" | bc)" >&2
