#!/usr/bin/env bash
# libFuzzer targets for the readers of untrusted input (see README.md in this folder).
#   fuzz/run.sh [SECONDS] [TARGET...]     default: 30 seconds each, every target
# Compiles every reader any target feeds ONCE with `swiftc -sanitize=fuzzer,address` (one module
# with the targets, an object file per source), then links each target's binary from the objects
# of the modules it needs, so its coverage map is its own readers' (as small as when each target
# was compiled alone: libFuzzer scans the whole map after every input). Each target then runs from
# its seed corpus (fuzz/seeds/TARGET plus the files found so far in .build-fuzz/corpus/TARGET;
# random seed FUZZ_SEED, default 1, so a clean clone repeats the same runs), and fails on the
# first crash, hang (10 s) or memory blow-up (2 GB); the input is left in .build-fuzz/crashes/ to
# become a regression test. An unknown TARGET stops the script with status 64 before anything is built.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
shift || true
all=(json plist csv image vips frontmatter config sanitizer)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")

modules_of() {
  case "$1" in
    json|plist|csv) echo "SiteCore SiteFormats" ;;
    image) echo "SiteCore ImageProbe" ;;
    vips) echo "SiteCore ImageProbe SiteImages" ;;
    frontmatter|sanitizer) echo "SiteCore SiteMarkdown" ;;
    config) echo "SiteCore SiteFormats ImageProbe SiteMarkdown SiteFetch SiteHighlight SiteLoad" ;;
    *) return 1 ;;
  esac
}
for t in "${targets[@]}"; do
  modules_of "$t" > /dev/null || { echo "fuzz: unknown target '$t' (known: ${all[*]})" >&2; exit 64; }
done

root=$PWD
work=.build-fuzz
src="$work/src"
obj="$work/obj"
rm -rf "$src" "$obj"
mkdir -p "$src" "$obj"
# Every reader any target feeds (the union of modules_of), compiled together.
for m in SiteCore SiteFormats ImageProbe SiteImages SiteMarkdown SiteFetch SiteHighlight SiteLoad; do
  for f in Sources/"$m"/*.swift; do
    # SiteFetch's HTTP client (AsyncHTTPClient) is replaced by fuzz/targets/offline/: fuzzing never fetches.
    if [ "$f" = Sources/SiteFetch/HTTPFetcher.swift ]; then
      cp fuzz/targets/offline/HTTPFetcher.swift "$src/${m}_HTTPFetcher.swift"
      continue
    fi
    # One module: the readers' own `import` lines between modules go, and every import has one
    # access level (indented too: the formatter indents those inside `#if`).
    sed -E '/^[[:space:]]*((public|internal) )?import (SiteCore|SiteFormats|ImageProbe|SiteImages|SiteMarkdown|SiteFetch|SiteHighlight|SiteLoad)$/d; s/^([[:space:]]*)(internal|public) import /\1import /' "$f" > "$src/${m}_$(basename "$f")"
  done
done

# Yams (Swift, from the resolved package) and its C core, the system cmark-gfm and gumbo (SiteMarkdown).
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
# The highlighter's loader (SiteLoad reads highlight: and its themes); never opened by a target.
clang -O1 -I Sources/CHighlightLoader/include -c Sources/CHighlightLoader/highlight_loader.c -o "$work/highlight_loader.o"
# The system libvips, loaded at run time by sitegen's loader (not instrumented: its crashes and
# hangs still stop the run).
clang -O1 -I Sources/CVipsLoader/include -c Sources/CVipsLoader/vips_loader.c -o "$work/vips_loader.o"

echo "fuzz: compiling the readers and the targets"
files=("$root/$src"/*.swift "$root"/fuzz/targets/common/*.swift)
for t in "${all[@]}"; do files+=("$root/fuzz/targets/$t.swift"); done
# Not whole-module: an object per source (SOURCE.o in $obj), so each target links only its modules'
# (and the code is compiled as when each target was built alone); batch mode type-checks the
# module once per job rather than once per file.
(cd "$obj" && swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name Fuzz \
  -c -enable-batch-mode -j "$(nproc)" "${files[@]}" \
  -I "$root/$yams/CYaml/include" -I "$root/$work/yams" -I "$root/Sources/CCmark" -I "$root/Sources/CGumbo" \
  -I "$root/Sources/CHighlightLoader/include" -I "$root/Sources/CVipsLoader/include" -I "$root/Sources/CLinux") \
  2> "$work/build.log" \
  || { grep -E "error" "$work/build.log" | head -30; exit 1; }

for t in "${targets[@]}"; do
  objects=("$obj"/Walk.o "$obj/$t.o")
  for m in $(modules_of "$t"); do objects+=("$obj/${m}_"*.o); done
  libs=()
  if [[ " $(modules_of "$t") " == *" SiteMarkdown "* ]]; then
    libs+=("$work/yams/yams.o" "$work"/yams/cyaml_*.o -lcmark-gfm -lcmark-gfm-extensions -lgumbo)
  fi
  if [[ " $(modules_of "$t") " == *" SiteHighlight "* ]]; then libs+=("$work/highlight_loader.o" -ldl); fi
  if [[ " $(modules_of "$t") " == *" SiteImages "* ]]; then libs+=("$work/vips_loader.o" -ldl); fi
  echo "fuzz: linking $t"
  # The target's entry point (fuzz_TARGET, a @_cdecl function) is the one libFuzzer calls.
  swiftc -sanitize=fuzzer,address "${objects[@]}" "${libs[@]}" -l_FoundationICU \
    -Xlinker "--defsym=LLVMFuzzerTestOneInput=fuzz_$t" -o "$work/fuzz-$t" 2> "$work/link-$t.log" \
    || { grep -E "error|undefined" "$work/link-$t.log" | head -30; exit 1; }
done

for t in "${targets[@]}"; do
  mkdir -p "$work/corpus/$t" "$work/crashes/$t"
  echo "fuzz: running $t for ${seconds}s"
  status=0
  SWIFT_BACKTRACE=enable=no "$work/fuzz-$t" -seed="${FUZZ_SEED:-1}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -detect_leaks=0 \
    -print_final_stats=1 -artifact_prefix="$work/crashes/$t/" "$work/corpus/$t" "fuzz/seeds/$t" 2>&1 \
    | { grep -E "^(#[0-9]+ *DONE|Done|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)" \
        || true; } \
    || status=$?
  if compgen -G "$work/crashes/$t/*" > /dev/null; then
    echo "fuzz: $t found crashing inputs:"; ls -la "$work/crashes/$t"; exit 1
  fi
  # A run that stops without leaving an input (a binary that could not start, say) fails too.
  [ "$status" = 0 ] || { echo "fuzz: $t exited with status $status"; exit 1; }
done
echo "fuzz: no crashes"
