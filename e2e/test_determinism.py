"""The same sources give the same bytes: whatever the number of threads, and run after run."""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

from conftest import REPO


def digest(root: Path) -> dict[str, str]:
    out = {}
    for dirpath, _, files in os.walk(root):
        for f in files:
            p = Path(dirpath) / f
            out[str(p.relative_to(root))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def build(sitegen: Path, out: Path, threads: int) -> dict[str, str]:
    r = subprocess.run([str(sitegen), "build", "--source", str(REPO), "--output", str(out), "--threads", str(threads)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return digest(out)


def test_output_does_not_depend_on_threads(sitegen_bin, tmp_path):
    one = build(sitegen_bin, tmp_path / "t1", 1)
    assert len(one) > 250, "the example site has pages and files"
    for threads in (2, 3, 8):
        other = build(sitegen_bin, tmp_path / f"t{threads}", threads)
        differ = sorted(k for k in one.keys() | other.keys() if one.get(k) != other.get(k))
        assert not differ, f"--threads 1 and {threads} differ in {differ[:10]}"


def test_threads_must_be_positive(sitegen_bin, tmp_path):
    r = subprocess.run([str(sitegen_bin), "build", "--source", str(REPO), "--output", str(tmp_path / "o"), "--threads", "0"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 64 and "--threads must be at least 1" in r.stderr
