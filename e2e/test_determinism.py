"""The same sources give the same bytes: whatever the number of threads, the day, the time zone,
the locale or the files' modification times, and run after run."""

from __future__ import annotations

import hashlib
import os
import shutil
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


def build(sitegen: Path, out: Path, threads: int, source: Path = REPO, prefix: tuple[str, ...] = (),
          env: dict[str, str] | None = None, cache: Path = REPO / ".sitegen-cache") -> dict[str, str]:
    r = subprocess.run([*prefix, str(sitegen), "build", "--source", str(source), "--output", str(out), "--threads", str(threads),
                        "--cache-dir", str(cache)],
                       capture_output=True, text=True, timeout=900, env=env)
    assert r.returncode == 0, r.stderr
    return digest(out)


def cold_digest(cold_build, threads: int) -> dict[str, str]:
    """The output of conftest's cold_build(threads): the example site from an empty cache of its own."""
    b = cold_build(threads)
    assert b.status == 0, (b.stderr or b.output)[-3000:]
    return digest(b.public)


def test_output_does_not_depend_on_threads(sitegen_bin, cold_build, tmp_path):
    # One and two threads: conftest's cold builds (shared with test_image_memory), each with an
    # image cache of its own, so every picture is really encoded on one thread and on two, started
    # in the two orders (narrowest first on one thread, largest first on more). Eight threads, from
    # the same copy of the sources, reads a copy of the one-thread cache: its pages and files are
    # made eight at a time. Its pictures are not encoded again: an encode runs on one thread
    # whatever --threads says (libvips' concurrency is 1), so more threads change only how many
    # run at once, which two threads already vary, and a third cold build took two minutes of CI.
    one = cold_digest(cold_build, 1)
    assert len(one) > 250, "the example site has pages and files"
    cache8 = tmp_path / "cache8"
    shutil.copytree(cold_build(1).cache, cache8)
    for threads in (2, 8):
        if threads == 8:
            other = build(sitegen_bin, tmp_path / "t8", 8, source=cold_build(1).site, cache=cache8)
        else:
            other = cold_digest(cold_build, threads)
        differ = sorted(k for k in one.keys() | other.keys() if one.get(k) != other.get(k))
        assert not differ, f"--threads 1 and {threads} differ in {differ[:10]}"


def test_output_does_not_depend_on_the_file_systems_fallbacks(sitegen_bin, cold_build, tmp_path):
    """Where a file system has no copy_file_range or hard links (forced with SITEGEN_TEST_FALLBACKS),
    files are copied through memory and images copied from the cache instead of linked: same bytes."""
    # The usual build: conftest's cold two-thread build; the fallback build, from the same sources,
    # reads a copy of its cache (the cold build's output is hard-linked to the cache itself).
    cold = cold_build(2)
    assert cold.status == 0, cold.stderr[-3000:]
    usual = digest(cold.public)
    linked = [p for p in cold.public.rglob("*.avif") if p.stat().st_nlink > 1]
    assert linked, "images are hard links to the cache where the file system allows"
    cache = tmp_path / "cache"
    shutil.copytree(cold.cache, cache)
    env = dict(os.environ, SITEGEN_TEST_FALLBACKS="copy-range,hard-links")
    fallback = build(sitegen_bin, tmp_path / "fallback", 2, source=cold.site, cache=cache, env=env)
    differ = sorted(k for k in usual.keys() | fallback.keys() if usual.get(k) != fallback.get(k))
    assert not differ, f"the fallbacks change {differ[:10]}"
    assert all(p.stat().st_nlink == 1 for p in (tmp_path / "fallback").rglob("*.avif")), "copied, not linked"


def test_threads_must_be_positive(sitegen_bin, tmp_path):
    r = subprocess.run([str(sitegen_bin), "build", "--source", str(REPO), "--output", str(tmp_path / "o"), "--threads", "0"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 64 and "--threads must be at least 1" in r.stderr


def test_output_does_not_depend_on_the_day_zone_locale_or_file_times(sitegen_bin, tmp_path):
    """No build timestamp anywhere: a build run (through libfaketime) in 2031 and in 1999, in
    other time zones and locales, from a copy whose files all have new modification times, is
    byte-identical to today's."""
    faketime = shutil.which("faketime")
    assert faketime, "faketime not found (Debian package faketime; scripts/setup.sh test installs it)"
    # The fake clock must really apply, or the comparison below would prove nothing.
    year = subprocess.run([faketime, "2031-05-17 12:00:00", "date", "+%Y"], capture_output=True, text=True, check=True).stdout
    assert year.strip() == "2031"

    today = build(sitegen_bin, tmp_path / "today", 2)
    source = tmp_path / "source"
    source.mkdir()
    for name in ("site.yml", "content", "templates"):
        (shutil.copytree if (REPO / name).is_dir() else shutil.copy)(REPO / name, source / name)
    for dirpath, _, files in os.walk(source):
        for f in files:
            os.utime(Path(dirpath) / f, (1_000_000_000, 1_000_000_000))  # 2001-09-09
    runs = {
        "2031, Asia/Seoul, ko_KR": (("2031-05-17 23:59:59",), {"TZ": "Asia/Seoul", "LANG": "ko_KR.UTF-8", "LC_ALL": "ko_KR.UTF-8"}),
        "1999, America/Los_Angeles, C": (("1999-12-31 23:30:00",), {"TZ": "America/Los_Angeles", "LANG": "C", "LC_ALL": "C"}),
    }
    for label, (when, extra) in runs.items():
        env = dict(os.environ, **extra)
        other = build(sitegen_bin, tmp_path / label.split(",")[0], 2, source=source, prefix=(faketime, *when), env=env)
        differ = sorted(k for k in today.keys() | other.keys() if today.get(k) != other.get(k))
        assert not differ, f"the build {label} differs from today's in {differ[:10]}"
