#!/usr/bin/env bash
# One command from a fresh clone to the built example site in public/:
# installs what is missing, builds sitegen (release), runs `sitegen build`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
swift build -c release --product sitegen
swift build -c release --product SitegenHighlight   # libSitegenHighlight.so, beside sitegen: highlighted code
.build/release/sitegen build --source . --output public "$@"
echo "Open public/index.html through any static server, e.g.: python3 -m http.server -d public 8000"
