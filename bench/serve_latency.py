#!/usr/bin/env python3
"""Edit-to-reload latency of `sitegen serve` on a benchmark corpus (stdlib only).

Usage: python3 bench/serve_latency.py SITE_DIR [--sitegen BIN] [--edits 20]

SITE_DIR is a sitegen source folder (bench/prepare-site.sh CORPUS WORK makes one from a corpus of
../shared/bench/gen_corpus.py). Starts `sitegen serve --port 0`, listens to its live-reload event
stream like an open page does, then saves one note at a time (a standalone note, then a note shown
on a bounty's page, alternating; written the way editors do: a temporary file renamed over it) and
measures the time from the save to the `reload` event. Prints each edit, the median, and
sitegen's own rebuild times. The notes are restored at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path


def events(host: str, port: int, out: "queue.Queue[tuple[float, str, dict]]") -> None:
    """Reads the server-sent events; puts (arrival time, name, data) for each."""
    s = socket.create_connection((host, port))
    s.sendall(f"GET /_sitegen/events HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
    buffer = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            return
        now = time.perf_counter()
        buffer += chunk
        while b"\n\n" in buffer:
            block, buffer = buffer.split(b"\n\n", 1)
            text = block.decode("utf-8", "replace")
            name = re.search(r"^event: (\S+)", text, re.M)
            data = re.search(r"^data: (.*)$", text, re.M)
            if name:
                out.put((now, name.group(1), json.loads(data.group(1)) if data else {}))


def save(path: Path, text: str) -> None:
    """Writes like vim or an IDE: a temporary file in the same folder renamed over the original."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("site")
    ap.add_argument("--sitegen", default=str(Path(__file__).resolve().parent.parent / ".build/release/sitegen"))
    ap.add_argument("--edits", type=int, default=20)
    a = ap.parse_args()
    site = Path(a.site).resolve()
    notes_dir = site / "content" / "notes"
    notes = sorted(notes_dir.glob("*.md"))
    attached = [p for p in notes if re.search(r"^item:", p.read_text(encoding="utf-8").split("\n---", 1)[0], re.M)]
    standalone = [p for p in notes if p not in set(attached)]
    if not attached or not standalone:
        raise SystemExit("the corpus needs attached and standalone notes")

    t0 = time.perf_counter()
    proc = subprocess.Popen([a.sitegen, "serve", "--source", str(site), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: "queue.Queue[str]" = queue.Queue()
    threading.Thread(target=lambda: [lines.put(l) for l in proc.stdout], daemon=True).start()
    log: list[str] = []

    def wait_line(pattern: str, timeout: float) -> re.Match:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                line = lines.get(timeout=0.5)
            except queue.Empty:
                if proc.poll() is not None:
                    raise SystemExit("sitegen serve exited:\n" + "".join(log))
                continue
            log.append(line)
            m = re.search(pattern, line)
            if m:
                return m
        raise SystemExit(f"timeout waiting for {pattern!r}:\n" + "".join(log))

    originals: dict[Path, str] = {}
    results: list[dict] = []
    try:
        built = wait_line(r"built (\d+) pages in (\d+) ms", 900)
        url = wait_line(r"at http://([\d.]+):(\d+)/", 60)
        startup = time.perf_counter() - t0
        host, port = url.group(1), int(url.group(2))
        q: "queue.Queue[tuple[float, str, dict]]" = queue.Queue()
        threading.Thread(target=events, args=(host, port, q), daemon=True).start()
        _, name, hello = q.get(timeout=10)
        assert name == "hello", name
        time.sleep(0.5)
        while not q.empty():
            q.get()
        for i in range(a.edits):
            pool = standalone if i % 2 == 0 else attached
            path = pool[(i * 7919) % len(pool)]
            text = originals.setdefault(path, path.read_text(encoding="utf-8"))
            start = time.perf_counter()
            save(path, text + f"\nEdit number {i}.\n")
            while True:
                at, name, data = q.get(timeout=30)
                if name == "error":
                    raise SystemExit(f"build error: {data}")
                if name == "reload":
                    break
            rebuilt = wait_line(r"rebuilt (.*?) in (\d+) ms(?:.*; ms: (.*))?", 30)
            results.append({"note": path.name, "kind": "standalone" if pool is standalone else "attached",
                            "reload_ms": (at - start) * 1000, "rebuild_ms": int(rebuilt.group(2)),
                            "pages": data.get("pages")})
            print(f"edit {i + 1:2d}: {results[-1]['kind']:10s} {path.name:40s} save→reload {results[-1]['reload_ms']:6.1f} ms "
                  f"(rebuild {rebuilt.group(2)} ms, {rebuilt.group(1)}; {rebuilt.group(3)})", flush=True)
            time.sleep(0.3)
    finally:
        for path, text in originals.items():
            save(path, text)
        proc.terminate()
        proc.wait(timeout=30)
    reload_ms = [r["reload_ms"] for r in results]
    summary = {
        "site": str(site), "pages": int(built.group(1)), "initial_build_ms": int(built.group(2)),
        "server_ready_s": round(startup, 2), "edits": len(results),
        "save_to_reload_median_ms": round(statistics.median(reload_ms), 1),
        "save_to_reload_min_ms": round(min(reload_ms), 1), "save_to_reload_max_ms": round(max(reload_ms), 1),
        "rebuild_median_ms": statistics.median(r["rebuild_ms"] for r in results),
        "median_by_kind_ms": {k: round(statistics.median(r["reload_ms"] for r in results if r["kind"] == k), 1)
                              for k in ("standalone", "attached")},
    }
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
