#!/usr/bin/env python3
"""Large-input tests of issue 7 (stdlib only): two valid edge cases that must build normally.

Usage: python3 large/run.py --sitegen .build/release/sitegen [--mb 200] [--formats json,bplist]
           [--seed 7] [--tmp DIR] [--keep] [--skip-empty] [--bound-factor 2.75] [--bound-base 64]
(scripts/large-tests.sh builds sitegen in release mode and runs this.)

1. Empty datasets: one site whose collections read `[]` (JSON), `<array/>` (XML plist) and an
   empty binary-plist array. The build exits 0; each list page exists, parses as balanced HTML,
   shows the site's empty-list text ("아직 항목이 없습니다.") and has no card and no item link.
2. A ~200 MB dataset: one collection whose one data file is a JSON array of 42,283 items (an
   integer id, a title, an integer count, ~4.8 KB of mixed ASCII and Korean text with & < > " ',
   tabs, emoji and backslashes; every 7th item written with \\uXXXX escapes), generated from a seed,
   with list pages (100 per page, count descending) and a page per item. Then the same items as
   a binary plist (249 MB: plists store non-ASCII text as UTF-16). Each is built under
   /usr/bin/time -v and must: exit 0; report and write every page (items + list pages + home +
   404); hold, on ~90 sampled item pages, the title and the whole text escaped the way sitegen
   escapes; show the right items in order on list pages 1, 2 and the last; and stay under the
   peak RSS bound.

Peak RSS bound: 2.75 × the dataset's size + 64 MB (614 MB for the 200 MB JSON file).
Measured (2 cores, release build, tcmalloc): 544 MB for the 200 MB JSON file (2.72×), 604 MB for
the 249 MB binary plist (2.43×); an empty site takes 37 MB; runs differ by 1-6 MB. On glibc's
malloc the same hour: 464 and 512 MB, but 19.7 and 18.5 s against tcmalloc's 5.4 and 7.7 s (glibc
spent 28 s of system time on the render's large pages). The peak is in the
load phase: the file's bytes (1×) and the parsed values (~1×); rendering holds less. Before the
items were located during the one parse (a second parse only to find where each item starts), the
JSON peak was 644 MB (3.06 MB per MB of JSON plus ~30 MB, linear from 25 to 400 MB). The bound
(64 MB: the empty site's 35 MB and allocator slack) fails on one more copy of the dataset in
memory or on rendered pages held until the end (the pages hold ~1.3× the dataset).

Everything is written under one temporary folder (default: the system's; --tmp to choose; ~1 GB
free at the peak) and removed at the end, also on failure (--keep leaves it for inspection).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import plistlib
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from html.parser import HTMLParser
from pathlib import Path

BOUND_FACTOR = 2.75
BOUND_BASE_MB = 64
PAGE_SIZE = 100
BUILD_TIMEOUT = 600  # seconds; the 200 MB builds take 20-40 s
EMPTY_TEXT = "아직 항목이 없습니다."  # the built-in theme's empty-list text for language: ko
MB = 1024 * 1024

# ------------------------------------------------------------------------------------------------
# Checks


class Failure(Exception):
    pass


def check(cond: bool, message: str) -> None:
    if not cond:
        raise Failure(message)


def escape(text: str) -> str:
    """sitegen's HTML escaping (SafeHTML.escape): & < > " ' as character references."""
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#39;"))


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Balanced(HTMLParser):
    """Parses a page, checking that every non-void element is closed in order; collects links."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, tuple[int, int]]] = []
        self.problems: list[str] = []
        self.links: list[str] = []
        self.items: list[str] = []  # data-item of the cards, in order
        self.text: list[str] = []
        self.doctype = False

    def handle_decl(self, decl: str) -> None:
        self.doctype |= decl.lower() == "doctype html"

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = dict(attrs)
        if tag == "a" and "href" in a:
            self.links.append(a["href"] or "")
        if tag == "li" and "card" in (a.get("class") or "").split():
            self.items.append(a.get("data-item") or "")
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        if tag not in VOID:
            self.problems.append(f"<{tag}/> at {self.getpos()}")

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            self.problems.append(f"</{tag}> (void element) at {self.getpos()}")
        elif not self.stack or self.stack[-1][0] != tag:
            top = self.stack[-1] if self.stack else None
            self.problems.append(f"</{tag}> at {self.getpos()} closes {top}")
        else:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse_page(path: Path) -> Balanced:
    check(path.is_file(), f"missing page {path}")
    p = Balanced()
    p.feed(path.read_text(encoding="utf-8"))
    p.close()
    check(p.doctype, f"{path}: no <!DOCTYPE html>")
    check(not p.problems, f"{path}: unbalanced HTML: {p.problems[:5]}")
    check(not p.stack, f"{path}: unclosed elements {p.stack[:5]}")
    return p


# ------------------------------------------------------------------------------------------------
# Running sitegen


def timed_build(sitegen: Path, source: Path, output: Path, work: Path) -> dict:
    """sitegen build under /usr/bin/time -v: exit status, wall s, peak RSS MB, its stdout/stderr."""
    report = work / "time.txt"
    cmd = ["/usr/bin/time", "-v", "-o", str(report), str(sitegen), "build",
           "--source", str(source), "--output", str(output)]
    t0 = time.perf_counter()
    # Its own process group, so that a build past the time limit is stopped with time(1) itself.
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "NO_COLOR": "1"}, start_new_session=True)
    try:
        stdout, stderr = proc.communicate(timeout=BUILD_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise Failure(f"sitegen build --source {source} did not finish in {BUILD_TIMEOUT} s")
    out = {"wall": time.perf_counter() - t0, "stdout": stdout, "stderr": stderr, "status": proc.returncode}
    for line in report.read_text().splitlines():
        key, _, value = line.strip().rpartition(": ")
        if key == "Maximum resident set size (kbytes)":
            out["rss_mb"] = int(value) / 1024
        elif key == "Exit status":
            out["status"] = int(value)
        elif key.startswith("Elapsed (wall clock) time"):
            secs = 0.0
            for part in value.split(":"):
                secs = secs * 60 + float(part)
            out["wall"] = secs
        elif key in ("User time (seconds)", "System time (seconds)"):
            out[key.split()[0].lower()] = float(value)
    m = re.search(r"wrote (\d+) pages and (\d+) files .* in (\d+) ms \((.*)\)", stdout)
    if m:
        out["pages"], out["files"], out["phases"] = int(m[1]), int(m[2]), m[4]
    return out


def require_success(name: str, r: dict) -> None:
    if r["status"] != 0:
        raise Failure(f"{name}: sitegen exited {r['status']} after {r['wall']:.1f} s, "
                      f"peak RSS {r.get('rss_mb', 0):.0f} MB\n--- stdout\n{r['stdout'][-3000:]}"
                      f"\n--- stderr\n{r['stderr'][-5000:]}")


# ------------------------------------------------------------------------------------------------
# 1. Empty datasets

EMPTY_SITE = """\
title: 빈 데이터 <테스트> & "large"
baseURL: https://example.org/
language: ko
collections:
{collections}
"""

EMPTY_COLLECTION = """\
  {name}:
    title: {title}
    data: {file}
    fields:
      name: string
      count: {{ type: integer, default: 0 }}
    slug: name
    sort:
      - {{ field: count, order: descending, compare: number }}
    pageSize: 20
    card: {{ title: name }}
"""


def run_empty(sitegen: Path, work: Path) -> None:
    site = work / "empty-site"
    (site / "content").mkdir(parents=True)
    datasets = {
        "emptyjson": ("empty.json", b"[]\n", "빈 JSON"),
        "emptyxml": ("empty.plist", b'<?xml version="1.0" encoding="UTF-8"?>\n'
                     b'<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
                     b'"http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n'
                     b'<plist version="1.0">\n<array/>\n</plist>\n', "빈 XML plist"),
        "emptybinary": ("empty-binary.plist", plistlib.dumps([], fmt=plistlib.FMT_BINARY), "빈 binary plist"),
    }
    for file, data, _ in datasets.values():
        (site / "content" / file).write_bytes(data)
    (site / "site.yml").write_text(EMPTY_SITE.format(collections="".join(
        EMPTY_COLLECTION.format(name=n, title=t, file=f) for n, (f, _, t) in datasets.items())), encoding="utf-8")
    out = work / "empty-public"
    r = timed_build(sitegen, site, out, work)
    require_success("empty datasets", r)
    # home, 404 and one list page per collection
    expected_pages = 2 + len(datasets)
    check(r.get("pages") == expected_pages, f"empty datasets: {r.get('pages')} pages, expected {expected_pages}\n{r['stdout']}")
    for name, (file, _, title) in datasets.items():
        page = out / name / "index.html"
        p = parse_page(page)
        text = "".join(p.text)
        check(EMPTY_TEXT in text, f"{page}: no empty-list text {EMPTY_TEXT!r}")
        check(title in text, f"{page}: no collection title {title!r}")
        check(not p.items, f"{page}: cards on an empty list: {p.items[:5]}")
        item_links = [h for h in p.links if h.startswith(f"/{name}/") and h != f"/{name}/"]
        check(not item_links, f"{page}: links to items of an empty collection: {item_links[:5]}")
        check(not (out / name / "page" / "2").exists(), f"{name}: a second list page for no items")
        check(sorted(x.name for x in (out / name).iterdir()) == ["index.html"], f"{name}: files besides the list page")
        print(f"large: empty {file} dataset: list page /{name}/ is balanced HTML with the empty text and no item links")
    home = parse_page(out / "index.html")
    for name in datasets:
        check(f"/{name}/" in home.links, f"home page: no link to /{name}/")
    check((out / "404.html").is_file(), "empty datasets: no 404.html")
    print(f"large: empty datasets: built {r['pages']} pages in {r['wall']:.2f} s, peak RSS {r['rss_mb']:.0f} MB")


# ------------------------------------------------------------------------------------------------
# 2. The large dataset

LARGE_SITE = """\
title: 큰 데이터 <200 MB> & "large"
baseURL: https://example.org/
language: ko
collections:
  big:
    title: 큰 목록 & <items>
    data: {file}
    fields:
      id: integer
      title: string
      count: integer
      text: string
    slug: id
    sort:
      - {{ field: count, order: descending, compare: number }}
    derived:
      countText: {{ from: count, format: thousands }}
    card: {{ title: title, subtitle: countText }}
    pageSize: {page_size}
    list: {{ url: /big/ }}
    detail: {{ url: "/big/{{slug}}/" }}
"""

KO_WORDS = ("바람 하늘 바다 사람 이야기 현상금 해적 항해 기록 데이터 사진 영화 관객 순위 오늘 내일 "
            "밤하늘 별빛 도시 골목 커피 책방 노래 여름 겨울 가을 봄날 기차 여행 편지 약속 시간 "
            "한글 정렬 검색 페이지 목록 항목 작은 커다란 빠르게 천천히 그리고 하지만 또한").split()
EN_WORDS = ("the quick brown fox jumps over lazy dog static site generator dataset item page list "
            "memory bounded release build swift render template escape value field sort number "
            "text korean ascii mixed sample large input edge case").split()
SPECIALS = ["<b>굵게</b>", "&amp;", "a & b", '"인용"', "'apostrophe'", "x < y > z", "javascript:void(0)",
            "\t탭", "😀", "café", "ＡＢＣ", "\\역슬래시", "/slash/"]


def paragraph_pool(rng: random.Random, count: int = 256) -> list[str]:
    pool = []
    for _ in range(count):
        words = []
        for _ in range(rng.randint(50, 90)):
            r = rng.random()
            words.append(rng.choice(SPECIALS) if r < 0.04 else rng.choice(KO_WORDS) if r < 0.55 else rng.choice(EN_WORDS))
        pool.append(" ".join(words) + ".")
    return pool


def generate_items(seed: int, target_bytes: int):
    """Yields (item, encoded JSON) until their encodings add up to target_bytes."""
    rng = random.Random(seed)
    pool = paragraph_pool(rng)
    total, i = 2, 0
    while total < target_bytes:
        i += 1
        paras = [rng.choice(pool) for _ in range(rng.randint(6, 12))]
        item = {
            "id": i,
            "title": f"항목 {i}: {rng.choice(KO_WORDS)} <{rng.choice(EN_WORDS)}> & \"{rng.choice(KO_WORDS)}\" '{i % 97}'",
            "count": rng.randrange(0, 10_000_000),
            "text": f"#{i} <marker-{i}> &\n" + "\n".join(paras),
        }
        # Every 7th item is written ASCII-only: \uXXXX escapes, surrogate pairs for the emoji.
        enc = json.dumps(item, ensure_ascii=(i % 7 == 0), separators=(",", ":"))
        total += len(enc.encode("utf-8")) + 2
        yield item, enc


def write_dataset(path: Path, fmt: str, seed: int, target_bytes: int, sample_rng: random.Random):
    """Writes the dataset; returns ([(id, count)] of every item, {id: item} for a sample: the first,
    the last and ~0.2 % of the others)."""
    keys: list[tuple[int, int]] = []
    sample: dict[int, dict] = {}
    items = generate_items(seed, target_bytes)
    if fmt == "json":
        with path.open("w", encoding="utf-8") as f:
            f.write("[\n")
            for n, (item, enc) in enumerate(items):
                f.write(("" if n == 0 else ",\n") + enc)
                keys.append((item["id"], item["count"]))
                if n == 0 or sample_rng.random() < 0.002:
                    sample[item["id"]] = item
            f.write("\n]\n")
    else:  # bplist: the same items (same seed and target), through plistlib (held in memory here)
        all_items = [item for item, _ in items]
        for n, item in enumerate(all_items):
            keys.append((item["id"], item["count"]))
            if n == 0 or sample_rng.random() < 0.002:
                sample[item["id"]] = item
        path.write_bytes(plistlib.dumps(all_items, fmt=plistlib.FMT_BINARY, sort_keys=False))
        del all_items
    sample[item["id"]] = item  # the last one
    return keys, sample


def run_large(sitegen: Path, work: Path, fmt: str, mb: float, seed: int, factor: float, base: float,
              keep: bool = False) -> dict:
    site = work / f"large-{fmt}-{mb:g}"
    (site / "content").mkdir(parents=True)
    file = "big.json" if fmt == "json" else "big.plist"
    data = site / "content" / file
    t0 = time.perf_counter()
    keys, sample = write_dataset(data, fmt, seed, int(mb * MB), random.Random(seed + 1))
    n = len(keys)
    size_mb = data.stat().st_size / MB
    print(f"large: generated {file}: {size_mb:.1f} MB, {n} items in {time.perf_counter() - t0:.1f} s", flush=True)
    (site / "site.yml").write_text(LARGE_SITE.format(file=file, page_size=PAGE_SIZE), encoding="utf-8")

    out = work / f"large-{fmt}-{mb:g}-public"
    r = timed_build(sitegen, site, out, work)
    bound = factor * size_mb + base
    label = "JSON" if fmt == "json" else "binary plist"
    require_success(f"{size_mb:.0f} MB {label} dataset", r)
    print(f"large: {size_mb:.0f} MB {label} dataset ({n} items): built {r.get('pages', '?')} pages in "
          f"{r['wall']:.1f} s, peak RSS {r['rss_mb']:.0f} MB (bound {bound:.0f} MB)", flush=True)
    print(f"large:   peak RSS = {r['rss_mb'] / size_mb:.2f} × the dataset; user {r.get('user', 0):.1f} s, "
          f"sys {r.get('system', 0):.1f} s; sitegen phases: {r.get('phases')}", flush=True)
    check(r["rss_mb"] <= bound, f"peak RSS {r['rss_mb']:.0f} MB is above the bound {bound:.0f} MB "
                                f"({factor:g} × {size_mb:.0f} MB + {base:g} MB)")

    t1 = time.perf_counter()
    list_pages = math.ceil(n / PAGE_SIZE)
    expected_pages = n + list_pages + 2  # items, list pages, home, 404
    check(r.get("pages") == expected_pages, f"{r.get('pages')} pages reported, expected {expected_pages}")
    big = out / "big"
    item_dirs = sum(1 for e in os.scandir(big) if e.is_dir() and e.name != "page")
    check(item_dirs == n, f"{item_dirs} item folders under /big/, expected {n}")
    pager_dirs = sum(1 for e in os.scandir(big / "page") if e.is_dir()) if (big / "page").exists() else 0
    check(pager_dirs == list_pages - 1, f"{pager_dirs} list pages after the first, expected {list_pages - 1}")
    check((out / "index.html").is_file() and (out / "404.html").is_file() and (out / "sitemap.xml").is_file(),
          "no index.html, 404.html or sitemap.xml")

    # Sampled item pages: balanced HTML holding the title and the whole text, escaped.
    for id_, item in sample.items():
        page = big / str(id_) / "index.html"
        p = parse_page(page)
        html = page.read_text(encoding="utf-8")
        check(f'<h1 class="detail-name">{escape(item["title"])}</h1>' in html, f"{page}: title not found escaped")
        check(f"<dd>{escape(item['text'])}</dd>" in html, f"{page}: text not found escaped")
        check(f"<dd>{item['count']}</dd>" in html, f"{page}: count missing")
        check(f"<marker-{id_}>" not in html and "<b>굵게" not in html, f"{page}: unescaped markup from the data")
        check(f"<marker-{id_}>" in "".join(p.text), f"{page}: text does not read back as the item's text")

    # Display order: count descending, ties in data order (a stable sort).
    order = [str(i) for i, _ in sorted(keys, key=lambda k: -k[1])]
    checked = sorted({1, min(2, list_pages), list_pages})
    for number in checked:
        page = big / "index.html" if number == 1 else big / "page" / str(number) / "index.html"
        p = parse_page(page)
        want = order[(number - 1) * PAGE_SIZE: number * PAGE_SIZE]
        check(p.items == want, f"{page}: cards {p.items[:3]}… ≠ expected {want[:3]}…")
        check(f"/big/{want[0]}/" in p.links, f"{page}: no link to /big/{want[0]}/")
    print(f"large:   checked {len(sample)} item pages (escaped title and text), the order on list pages "
          f"{', '.join(map(str, checked))}, {item_dirs} item folders, {pager_dirs + 1} list pages "
          f"in {time.perf_counter() - t1:.1f} s", flush=True)
    if not keep:  # free the disk before the next case
        t2 = time.perf_counter()
        shutil.rmtree(out, ignore_errors=True)
        shutil.rmtree(site, ignore_errors=True)
        print(f"large:   removed the site and its output in {time.perf_counter() - t2:.1f} s", flush=True)
    return {"format": fmt, "size_mb": round(size_mb, 1), "items": n, "bound_mb": round(bound),
            **{k: r.get(k) for k in ("pages", "wall", "rss_mb", "user", "system", "phases")}}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sitegen", required=True, help="the sitegen binary (release build)")
    ap.add_argument("--mb", default="200", help="size of the large dataset in MB (default 200); several, "
                    "comma-separated (50,100,200), to see how memory scales")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--formats", default="json,bplist", help="json and/or bplist, comma-separated (default both)")
    ap.add_argument("--tmp", default=None, help="parent of the temporary folder (default: the system's)")
    ap.add_argument("--keep", action="store_true", help="leave the temporary folder")
    ap.add_argument("--skip-empty", action="store_true")
    ap.add_argument("--bound-factor", type=float, default=BOUND_FACTOR, help="peak RSS bound: this × dataset MB …")
    ap.add_argument("--bound-base", type=float, default=BOUND_BASE_MB, help="… + this many MB")
    ap.add_argument("--json", default="", help="write the measurements to this file")
    a = ap.parse_args()
    sitegen = Path(a.sitegen).resolve()
    if not sitegen.is_file():
        print(f"large: no sitegen binary at {sitegen}", file=sys.stderr)
        return 2
    if not Path("/usr/bin/time").is_file():
        print("large: /usr/bin/time is missing (Debian package 'time'; scripts/setup.sh test installs it)", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="sitegen-large-", dir=a.tmp))
    started = time.perf_counter()
    results = []
    try:
        if not a.skip_empty:
            run_empty(sitegen, work)
        for mb in [float(x) for x in a.mb.split(",") if x]:
            for fmt in [f for f in a.formats.split(",") if f]:
                if fmt not in ("json", "bplist"):
                    raise Failure(f"unknown format {fmt!r}")
                results.append(run_large(sitegen, work, fmt, mb, a.seed, a.bound_factor, a.bound_base, a.keep))
    except Failure as e:
        print(f"large: FAILED: {e}", file=sys.stderr)
        return 1
    finally:
        if a.keep:
            print(f"large: kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    if a.json:
        Path(a.json).write_text(json.dumps(results, indent=2))
    print(f"large: all passed in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
