#!/usr/bin/env bash
# Installs what sitegen needs on Debian, skipping what is already there.
#   scripts/setup.sh build   — the C library sitegen links (libcmark-dev)
#   scripts/setup.sh test    — also headless Chromium, chromedriver, a Korean font, Java (for the
#                              Nu HTML Checker), ImageMagick (cross-checks image headers) and the Python test tools
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-build}"

packages=(libcmark-dev pkg-config)
if [ "$mode" = test ]; then
  packages+=(chromium chromium-driver fonts-nanum default-jre-headless imagemagick)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ "$mode" = test ]; then
  python3 -m pip install -q --disable-pip-version-check -r e2e/requirements.txt
fi
