#!/usr/bin/env bash
# libFuzzer targets for the readers of untrusted input (see README.md in this folder).
#   fuzz/run.sh [SECONDS] [TARGET...]     default: 30 seconds each, every target
# Builds each target with `swiftc -sanitize=fuzzer,address` (the reader's modules compiled into
# one module with the target), runs it from its seed corpus (fuzz/seeds/TARGET plus the files
# found so far in .build-fuzz/corpus/TARGET; random seed FUZZ_SEED, default 1, so a clean
# clone repeats the same runs), and fails on the first crash, hang (10 s) or
# memory blow-up (2 GB); the input is left in .build-fuzz/crashes/ to become a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(json plist image vips frontmatter config sanitizer)

modules_of() {
  case "$1" in
    json|plist) echo "SiteCore SiteFormats" ;;
    image) echo "SiteCore ImageProbe" ;;
    vips) echo "SiteCore ImageProbe SiteImages" ;;
    frontmatter|sanitizer) echo "SiteCore SiteMarkdown" ;;
    config) echo "SiteCore SiteFormats ImageProbe SiteMarkdown SiteFetch SiteHighlight SiteLoad" ;;
    *) echo "unknown target $1" >&2; exit 64 ;;
  esac
}

work=.build-fuzz
mkdir -p "$work"
for t in "${targets[@]}"; do
  src="$work/src-$t"
  rm -rf "$src"
  mkdir -p "$src" "$work/corpus/$t" "$work/crashes/$t"
  for m in $(modules_of "$t"); do
    for f in Sources/"$m"/*.swift; do
      # SiteFetch's HTTP client (AsyncHTTPClient) is replaced by fuzz/targets/offline/: fuzzing never fetches.
      [ "$f" = Sources/SiteFetch/HTTPFetcher.swift ] && cp fuzz/targets/offline/HTTPFetcher.swift "$src/" && continue
      # One module: the readers' own `import` lines between modules go.
      sed -E '/^((public|internal) )?import (SiteCore|SiteFormats|ImageProbe|SiteImages|SiteMarkdown|SiteFetch|SiteHighlight|SiteLoad)$/d; s/^(internal|public) import /import /' "$f" > "$src/${m}_$(basename "$f")"
    done
  done
  extra=()
  if [[ " $(modules_of "$t") " == *" SiteMarkdown "* ]]; then
    # Yams (Swift, from the resolved package) and its C core, the system cmark-gfm and gumbo.
    yams=.build/checkouts/Yams/Sources
    [ -d "$yams" ] || swift package resolve >/dev/null
    mkdir -p "$work/yams"
    if [ ! -f "$work/yams/yams.o" ]; then
      for c in "$yams"/CYaml/src/*.c; do
        clang -O1 -fsanitize=fuzzer-no-link,address -I "$yams/CYaml/include" -c "$c" -o "$work/yams/cyaml_$(basename "$c" .c).o"
      done
      swiftc -O -sanitize=address -parse-as-library -D SWIFT_PACKAGE -module-name Yams -emit-module -emit-module-path "$work/yams/Yams.swiftmodule" \
        -I "$yams/CYaml/include" -wmo -c "$yams"/Yams/*.swift -o "$work/yams/yams.o" 2> "$work/build-yams.log" || { grep error "$work/build-yams.log" | head; exit 1; }
    fi
    extra=(-I "$yams/CYaml/include" -I "$work/yams" -I Sources/CCmark -I Sources/CGumbo "$work/yams/yams.o" "$work"/yams/cyaml_*.o
           -lcmark-gfm -lcmark-gfm-extensions -lgumbo)
  fi
  if [[ " $(modules_of "$t") " == *" SiteHighlight "* ]]; then
    # The highlighter's loader (SiteLoad reads highlight: and its themes); never opened by the target.
    clang -O1 -I Sources/CHighlightLoader/include -c Sources/CHighlightLoader/highlight_loader.c -o "$work/highlight_loader.o"
    extra+=(-I Sources/CHighlightLoader/include "$work/highlight_loader.o" -ldl)
  fi
  if [[ " $(modules_of "$t") " == *" SiteImages "* ]]; then
    # The system libvips, loaded at run time by sitegen's loader (not instrumented: its crashes
    # and hangs still stop the run).
    clang -O1 -I Sources/CVipsLoader/include -c Sources/CVipsLoader/vips_loader.c -o "$work/vips_loader.o"
    extra=(-I Sources/CVipsLoader/include "$work/vips_loader.o" -ldl)
  fi
  echo "fuzz: building $t"
  swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name Fuzz "$src"/*.swift fuzz/targets/common/*.swift "fuzz/targets/$t.swift" \
    "${extra[@]}" -l_FoundationICU -o "$work/fuzz-$t" 2> "$work/build-$t.log" || { grep -E "error" "$work/build-$t.log" | head -30; exit 1; }
  echo "fuzz: running $t for ${seconds}s"
  SWIFT_BACKTRACE=enable=no "$work/fuzz-$t" -seed="${FUZZ_SEED:-1}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -detect_leaks=0 \
    -print_final_stats=1 -artifact_prefix="$work/crashes/$t/" "$work/corpus/$t" "fuzz/seeds/$t" 2>&1 \
    | grep -E "^(#[0-9]+ *DONE|Done|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)" || true
  if compgen -G "$work/crashes/$t/*" > /dev/null; then
    echo "fuzz: $t found crashing inputs:"; ls -la "$work/crashes/$t"; exit 1
  fi
done
echo "fuzz: no crashes"
