#!/usr/bin/env python3
"""What highlighting costs: 1,500 notes, each with a 40-line Swift block, built with highlighting
on and off (`highlight: false`) in the same run, alternately, several rounds; prints the medians
and the wall and CPU time added per block.

    swift build -c release --product sitegen && swift build -c release --product SitegenHighlight
    python3 bench/highlight_bench.py [--sitegen .build/release/sitegen] [--notes 1500] [--rounds 7] [--threads N]
        [--alone] [--folder /dev/shm]

With --alone, each round also times KSyntaxHighlighting alone on the same block, as many times
(bench/highlight_alone.c, built with cc, through the library beside sitegen): sitegen's own cost
of a block is the time added per block minus the library's.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

SWIFT = """/// A bounty, as the app lists it.
struct Bounty: Codable, Hashable {
    let name: String
    let bounty: Int  // berries
    var image: String { "\\(name).jpg" }
}

enum Order { case highestFirst, byName }

/// Sorts `list` the way the grid shows it.
func sorted(_ list: [Bounty], by order: Order = .highestFirst) -> [Bounty] {
    switch order {
    case .highestFirst:
        return list.sorted { $0.bounty > $1.bounty }
    case .byName:
        return list.sorted { $0.name < $1.name }
    }
}

final class BountyStore {
    private(set) var items: [Bounty] = []
    private let url = URL(string: "https://example.org/bounties.json")!

    func load() async throws {
        let (data, _) = try await URLSession.shared.data(from: url)
        items = try JSONDecoder().decode([Bounty].self, from: data)
    }

    func total() -> Int { items.reduce(0) { $0 + $1.bounty } }
}

let formatter = NumberFormatter()
formatter.numberStyle = .decimal
let store = BountyStore()
for (rank, item) in sorted(store.items).enumerated() where rank < 10 {
    print(rank + 1, item.name, formatter.string(from: item.bounty as NSNumber) ?? "-")
}
let hex = 0x1F, ratio = 3.5e2  // a number or two
_ = #selector(BountyStore.load)
print("total:", store.total())
"""


def make_site(root: Path, notes: int, highlight: bool) -> Path:
    site = root / ("on" if highlight else "off")
    (site / "content" / "notes").mkdir(parents=True)
    (site / "site.yml").write_text("title: Code\nbaseURL: https://example.org/\n" + ("" if highlight else "highlight: false\n"))
    assert SWIFT.count("\n") == 40
    for i in range(notes):
        (site / "content" / "notes" / f"n{i:05}.md").write_text(
            f"---\ntitle: Note {i}\ndate: 2026-01-{i % 28 + 1:02}\n---\nText {i}.\n\n```swift\n{SWIFT}```\n")
    return site


def build(sitegen: str, site: Path, threads: int | None) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one build into an empty folder."""
    out = site.parent / (site.name + "-out")
    shutil.rmtree(out, ignore_errors=True)
    args = [sitegen, "build", "--source", str(site), "--output", str(out)] + (["--threads", str(threads)] if threads else [])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    r = subprocess.run(args, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0 or "warning" in r.stderr:
        raise SystemExit(f"{site.name}: {r.stderr}")
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def build_alone(tmp: Path) -> Path:
    """bench/highlight_alone.c compiled into `tmp`."""
    root = Path(__file__).resolve().parent.parent
    exe = tmp / "highlight_alone"
    subprocess.run(["cc", "-O2", "-I", str(root / "Sources/SitegenHighlight/include"),
                    str(root / "bench/highlight_alone.c"), "-o", str(exe), "-ldl"], check=True)
    return exe


def alone(exe: Path, library: Path, block: Path, blocks: int) -> tuple[float, float, str]:
    """Wall and CPU µs of KSyntaxHighlighting alone per block (the median of 5 rounds), and its one-off costs."""
    r = subprocess.run([str(exe), str(library), str(block), "Swift", str(blocks), "5"],
                       capture_output=True, text=True, check=True)
    wall, cpu = map(float, re.search(r"wall ([\d.]+) µs, CPU ([\d.]+) µs", r.stdout).groups())
    return wall, cpu, r.stdout.splitlines()[0]


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--sitegen", default=".build/release/sitegen")
    p.add_argument("--notes", type=int, default=1500)
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--threads", type=int)
    p.add_argument("--alone", action="store_true", help="time the library alone on the same block each round")
    p.add_argument("--folder", help="where the sites and their output go (default: the system's temporary folder; "
                   "/dev/shm leaves out the disk's noise)")
    a = p.parse_args()
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory(dir=a.folder) as tmp:
        sites = {h: make_site(Path(tmp), a.notes, h) for h in (False, True)}
        for h in (False, True):
            build(a.sitegen, sites[h], a.threads)  # warm the page cache
        times: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
        alone_times: list[tuple[float, float, str]] = []
        if a.alone:
            exe = build_alone(Path(tmp))
            library = Path(a.sitegen).resolve().parent / "libSitegenHighlight.so"
            block = Path(tmp) / "block.swift"
            block.write_text(SWIFT)
        for _ in range(a.rounds):
            for h in (False, True):
                times[h].append(build(a.sitegen, sites[h], a.threads))
            if a.alone:
                alone_times.append(alone(exe, library, block, a.notes))
        print(f"{a.notes} notes with a 40-line Swift block, threads {a.threads or 'all'}, {a.rounds} rounds (medians)")
        for k, what in ((0, "wall"), (1, "CPU")):
            off, on = (statistics.median(t[k] for t in times[h]) for h in (False, True))
            added = (on - off) / a.notes * 1e6
            line = f"  {what:4}: off {off * 1000:7.0f} ms, on {on * 1000:7.0f} ms; added per block {added:7.1f} µs"
            if alone_times and k == 1:
                lib = statistics.median(t[1] for t in alone_times)
                line += f"; library alone {lib:6.1f} µs, the rest {added - lib:6.1f} µs"
            print(line)
        if alone_times:
            threads = a.threads or os.cpu_count() or 1
            lib = statistics.median(t[1] for t in alone_times)
            print(f"  library alone (one thread, CPU, median of the rounds): {lib:.1f} µs a block, so at best "
                  f"{lib / threads:.1f} µs of wall a block on {threads} threads")
            print(f"  {alone_times[-1][2]}")
        print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
