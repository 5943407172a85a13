"""The example site built with an empty image cache of its own: the one expensive build (every
photo resized into every width and format, ~1-1.5 minutes on 2 cores) that several tests need
cold. conftest's session fixture `cold_build(threads)` makes each at most once per session, for
test_image_memory (peak RSS, the progress line), test_determinism (the output whatever the
thread count; the file-system fallbacks from a cold cache).

Each build copies site.yml, content/ and templates/ into a folder of its own and runs
`sitegen build --threads N --cache-dir <own empty cache>` under /usr/bin/time (peak RSS) with
PATH and NO_COLOR only: on one thread on a pseudo-terminal (the live progress line), on more
threads on a pipe with CI set (plain progress lines)."""

from __future__ import annotations

import os
import pty
import shutil
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class ColdBuild:
    threads: int
    status: int
    output: str        # what the build wrote to standard output (on a terminal: and to standard error)
    stderr: str        # standard error on a pipe ("" on a terminal: it is in `output`)
    peak_mb: float | None  # /usr/bin/time's maximum resident set size; None if it wrote none
    site: Path         # the copy of the sources
    public: Path       # the output (the default, <site>/public)
    cache: Path        # the image cache the build filled (hard-linked from `public`: copy it to write into it)


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


def copy_sources(site: Path) -> None:
    site.mkdir(parents=True)
    for name in ("site.yml", "content", "templates"):
        (shutil.copytree if (REPO / name).is_dir() else shutil.copy)(REPO / name, site / name)


def cold_build(sitegen: Path, tmp: Path, threads: int) -> ColdBuild:
    """The example site built in `tmp` from an empty cache on `threads` threads (module docstring)."""
    site, cache, report = tmp / "site", tmp / "cache", tmp / "time.txt"
    copy_sources(site)
    args = ["/usr/bin/time", "-f", "%M", "-o", str(report), str(sitegen), "build", "--source", str(site),
            "--threads", str(threads), "--cache-dir", str(cache)]
    env = {"PATH": "/usr/bin:/bin", "NO_COLOR": "1"}
    if threads == 1:
        status, output = run_on_a_terminal(args, env, timeout=900)
        stderr = ""
    else:
        proc = subprocess.run(args, capture_output=True, text=True, timeout=900, env=env | {"CI": "true"})
        status, output, stderr = proc.returncode, proc.stdout, proc.stderr
    words = report.read_text().split() if report.is_file() else []
    peak = int(words[-1]) / 1024 if words and words[-1].isdigit() else None
    return ColdBuild(threads, status, output, stderr, peak, site, site / "public", cache)
