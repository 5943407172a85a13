"""The image phase's memory bound (issue 17), with real libvips, libheif and libaom.

The example site is built with an empty image cache under /usr/bin/time, once on one thread and
once on two: its 175 sources (photos drawn up to 1440×2560, icons, avatars) are resized into 4-6
widths each in AVIF, WebP and JPEG. Each build processes every source and its peak RSS stays
under the bound the README states: BASE_MB for the process and PER_THREAD_MB for each thread.

Measured (2 cores): see README.md "Memory and threads". Before this bound held, the process kept
what libaom freed (blocks of many sizes, encode after encode: 416 MB at one thread, 532 MB at
two), and libaom's intra block copy, which it turns on for drawn pictures, took ~200 MB for one
1440×2160 picture: either fails the bound.

The same two builds show the image phase's progress (it lasts well over a second): the one-thread
build runs on a pseudo-terminal and must draw the live line (`\r`, erase line, `images N/N, …`),
the two-thread one runs with `CI` set on a pipe and must print plain lines instead.

Both builds are conftest's `cold_build` (e2e/cold_build.py), made once per session and shared with
test_determinism, which compares their outputs.
"""

from __future__ import annotations

import os
import re
import subprocess

import pytest

BASE_MB = 80
PER_THREAD_MB = 120


@pytest.mark.parametrize("threads", [1, 2])
def test_a_cold_build_stays_under_the_memory_bound(cold_build, threads):
    # The build itself (copied sources, an empty cache of its own, /usr/bin/time; one thread on a
    # pseudo-terminal, two on a pipe with CI set) is conftest's cold_build, shared with test_determinism.
    b = cold_build(threads)
    if threads == 1:
        assert b.status == 0, b.output[-3000:]
        assert re.search(r"\r\x1b\[Kimages (\d+)/\1, [0-9.]+/s, 0 s left\r?\n", b.output), b.output[-2000:]
    else:
        assert b.status == 0, b.stderr[-3000:]
        assert "\x1b" not in b.stderr, b.stderr[-2000:]
        assert re.search(r"^images (\d+)/\1, [0-9.]+/s, 0 s left$", b.stderr, re.M), b.stderr[-2000:]
    m = re.search(r"images: (\d+) processed, (\d+) from the cache", b.output)
    assert m and int(m[1]) >= 144 and m[2] == "0", b.output[-2000:]
    assert b.peak_mb is not None, f"/usr/bin/time wrote no peak RSS for the {threads}-thread build"
    bound = BASE_MB + PER_THREAD_MB * threads
    print(f"image memory: {m[1]} sources on {threads} thread(s), peak RSS {b.peak_mb:.0f} MB (bound {bound} MB)")
    assert b.peak_mb <= bound, f"peak RSS {b.peak_mb:.0f} MB is above the bound {bound} MB on {threads} thread(s)"


def test_the_command_allocates_with_tcmalloc(sitegen_bin):
    """sitegen links tcmalloc (Package.swift's CTCMalloc, through SiteImages), whose settings
    FreedMemory changes for the image phase: tcmalloc prints its statistics at exit when
    MALLOCSTATS asks, glibc's malloc prints nothing."""
    env = {"PATH": os.environ["PATH"], "MALLOCSTATS": "1"}
    r = subprocess.run([str(sitegen_bin), "--version"], env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "Bytes in use by application" in r.stderr, r.stderr[:2000]
