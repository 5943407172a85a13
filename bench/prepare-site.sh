#!/usr/bin/env bash
# Assemble a runnable sitegen source folder for a gen_corpus.py corpus.
#   bench/prepare-site.sh CORPUS_DIR WORK_DIR
# WORK_DIR gets: content -> CORPUS_DIR/content (symlink), site.yml and templates/ (copies of
# bench/site/). Then:
#   sitegen build --source WORK_DIR --output OUT
# Env: COPY_CONTENT=1 copies content/ instead of symlinking it.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [[ $# -ne 2 ]]; then
  echo "usage: $0 CORPUS_DIR WORK_DIR" >&2
  exit 64
fi
corpus="$(cd "$1" && pwd)"
work="$2"
if [[ ! -d "$corpus/content" ]]; then
  echo "error: $corpus/content is not a folder (not a gen_corpus.py corpus?)" >&2
  exit 1
fi
rm -rf "$work"
mkdir -p "$work"
cp "$here/site/site.yml" "$work/site.yml"
cp -r "$here/site/templates" "$work/templates"
if [[ "${COPY_CONTENT:-0}" == 1 ]]; then
  cp -r "$corpus/content" "$work/content"
else
  ln -s "$corpus/content" "$work/content"
fi
echo "prepared $work from $corpus" >&2
