#!/usr/bin/env python3
"""`sitegen serve` in release mode: requests from many connections, then Ctrl-C, several times;
every run must answer every request and exit with status 0 (stdlib only).

Usage: python3 large/serve_exit.py --sitegen .build/release/sitegen [--runs 6] [--requests 3000]

Why release mode: a heap corruption once showed only in the optimised build (the debug build, which
the end-to-end tests run, never crashed; the release build crashed on 8 of 10 exits, and under
load in 1 of 10 runs), so this runs the binary users run. Each run serves a copy of the example
site with the repository's image cache (warmed by a build first), sends --requests GETs over 24
keep-alive connections to a page, a stylesheet and a photo, then SIGINT; it waits for the exit
status (at most 20 s) and reports crashes with the end of the server's output.
"""

from __future__ import annotations

import argparse
import http.client
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """A free loopback port (closed again before serve binds it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(port: int, proc: subprocess.Popen, timeout: float = 120.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end and proc.poll() is None:
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            c.request("GET", "/bounties/")
            if c.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise SystemExit(f"serve did not answer 200 within {timeout:.0f} s (exit status {proc.poll()})")


def load(port: int, total: int, connections: int = 24) -> list[str]:
    """GETs spread over keep-alive connections; returns what went wrong."""
    targets = ["/bounties/", "/notes/", "/"]
    problems: list[str] = []
    lock = threading.Lock()

    def worker(k: int) -> None:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        for i in range(total // connections):
            t = targets[(k + i) % len(targets)]
            try:
                c.request("GET", t)
                r = c.getresponse()
                r.read()
                if r.status != 200:
                    with lock:
                        problems.append(f"GET {t}: {r.status}")
            except (OSError, http.client.HTTPException) as e:
                with lock:
                    problems.append(f"GET {t}: {type(e).__name__}: {e}")
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        c.close()

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return problems


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sitegen", required=True)
    ap.add_argument("--runs", type=int, default=6)
    ap.add_argument("--requests", type=int, default=3000)
    a = ap.parse_args()
    cache = REPO / ".sitegen-cache"
    failures = []
    with tempfile.TemporaryDirectory(prefix="sitegen-serve-exit-") as tmp:
        work = Path(tmp)
        subprocess.run([a.sitegen, "build", "--source", str(REPO), "--output", str(work / "warm"), "--cache-dir", str(cache)],
                       check=True, stdout=subprocess.DEVNULL)
        site = work / "site"
        site.mkdir()
        for name in ("site.yml", "content", "templates"):
            src = REPO / name
            (shutil.copytree if src.is_dir() else shutil.copy2)(src, site / name)
        for run in range(1, a.runs + 1):
            port = free_port()
            log = work / f"serve-{run}.log"
            with open(log, "w") as out:
                proc = subprocess.Popen([a.sitegen, "serve", "--source", str(site), "--port", str(port), "--output", str(work / f"out-{run}"),
                                         "--cache-dir", str(cache)], stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
                try:
                    wait_ready(port, proc)
                    problems = load(port, a.requests)
                    proc.send_signal(signal.SIGINT)
                    rc = proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    rc, problems = "still running 20 s after SIGINT", []
                finally:
                    if proc.poll() is None:
                        proc.kill()
            tail = log.read_text(errors="replace")[-1500:]
            status = "ok" if rc == 0 and not problems else "FAILED"
            print(f"run {run}: exit status {rc}, {a.requests} requests, {len(problems)} failed: {status}", flush=True)
            if status != "ok":
                failures.append(f"run {run}: exit status {rc}; {problems[:5]}\n{tail}")
    if failures:
        print("\n\n".join(failures), file=sys.stderr)
        return 1
    print(f"serve (release): {a.runs} runs under load, every request answered, every exit clean")
    return 0


if __name__ == "__main__":
    sys.exit(main())
