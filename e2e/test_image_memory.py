"""The image phase's memory bound (issue 17), with real libvips, libheif and libaom.

The example site is built with an empty image cache under /usr/bin/time, once on one thread and
once on two: its 144 sources (photos drawn up to 1440×2560, icons, avatars) are resized into 4-6
widths each in AVIF, WebP and JPEG. Each build processes every source and its peak RSS stays
under the bound the README states: BASE_MB for the process and PER_THREAD_MB for each thread.

Measured (2 cores): see README.md "Memory and threads". Before this bound held, the process kept
what libaom freed (blocks of many sizes, encode after encode: 416 MB at one thread, 532 MB at
two), and libaom's intra block copy, which it turns on for drawn pictures, took ~200 MB for one
1440×2160 picture: either fails the bound.

The same two builds show the image phase's progress (it lasts well over a second): the one-thread
build runs on a pseudo-terminal and must draw the live line (`\r`, erase line, `images N/N, …`),
the two-thread one runs with `CI` set on a pipe and must print plain lines instead.
"""

from __future__ import annotations

import os
import pty
import re
import shutil
import subprocess
import threading
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
BASE_MB = 80
PER_THREAD_MB = 120


def run_on_a_terminal(args, env, timeout):
    """`args` with a pseudo-terminal as standard input, output and error (read as it is written,
    so that the child never blocks on a full terminal); returns (exit status, everything written)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
    os.close(slave)
    chunks: list[bytes] = []

    def drain():
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the child's side is closed
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    status = proc.wait(timeout=timeout)
    reader.join(timeout=30)
    os.close(master)
    return status, b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.parametrize("threads", [1, 2])
def test_a_cold_build_stays_under_the_memory_bound(sitegen_bin, tmp_path, threads):
    site = tmp_path / "site"
    site.mkdir()
    for name in ("site.yml", "content", "templates"):
        (shutil.copytree if (REPO / name).is_dir() else shutil.copy)(REPO / name, site / name)
    report = tmp_path / "time.txt"
    args = ["/usr/bin/time", "-f", "%M", "-o", str(report), str(sitegen_bin), "build", "--source", str(site),
            "--threads", str(threads), "--cache-dir", str(tmp_path / "cache")]
    env = {"PATH": "/usr/bin:/bin", "NO_COLOR": "1"}
    if threads == 1:
        status, output = run_on_a_terminal(args, env, timeout=900)
        assert status == 0, output[-3000:]
        assert re.search(r"\r\x1b\[Kimages (\d+)/\1, [0-9.]+/s, 0 s left\r?\n", output), output[-2000:]
    else:
        proc = subprocess.run(args, capture_output=True, text=True, timeout=900, env=env | {"CI": "true"})
        assert proc.returncode == 0, proc.stderr[-3000:]
        output = proc.stdout
        assert "\x1b" not in proc.stderr, proc.stderr[-2000:]
        assert re.search(r"^images (\d+)/\1, [0-9.]+/s, 0 s left$", proc.stderr, re.M), proc.stderr[-2000:]
    m = re.search(r"images: (\d+) processed, (\d+) from the cache", output)
    assert m and int(m[1]) >= 144 and m[2] == "0", output[-2000:]
    peak_mb = int(report.read_text().split()[-1]) / 1024
    bound = BASE_MB + PER_THREAD_MB * threads
    print(f"image memory: {m[1]} sources on {threads} thread(s), peak RSS {peak_mb:.0f} MB (bound {bound} MB)")
    assert peak_mb <= bound, f"peak RSS {peak_mb:.0f} MB is above the bound {bound} MB on {threads} thread(s)"
