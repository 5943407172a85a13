"""Bounded work per note (issue 47, items 6 and 7): cmark-gfm's quadratic cases are refused before
parsing with the note's file and line (MarkdownBudget), the worst notes under the budgets build in
bounded time and memory, and a code block past the highlighter's nesting budget is escaped text
with one warning. Each build is measured as a child of its own (os.wait4: the CPU time it used,
user and system, on one thread, and its peak resident memory), against generous bounds: 5 s and
500 MB. CPU time is the work done; wall time would measure what else the machine runs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from test_invalid_sites import BASE, scrub, snapshot

SECONDS = 5.0
PEAK_MB = 500


class Build:
    def __init__(self, returncode: int, stdout: str, stderr: str, seconds: float, peak_mb: float):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr
        self.seconds, self.peak_mb = seconds, peak_mb


def measured_build(sitegen: Path, site: Path) -> Build:
    """`sitegen build` of `site`, one thread, its CPU time and peak RSS (the child's own rusage)."""
    logs = Path(tempfile.mkdtemp(prefix="sitegen-bounds-"))  # outside the tree the refusals compare
    out, err = logs / "build.out", logs / "build.err"
    env = dict(os.environ, NO_COLOR="1")
    with open(out, "wb") as o, open(err, "wb") as e:
        start = time.monotonic()
        child = subprocess.Popen([str(sitegen), "build", "--source", str(site), "--threads", "1"],
                                 stdout=o, stderr=e, cwd=site.parent, env=env)
        deadline = start + 120
        while True:  # a hang fails the test instead of blocking it
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                child.kill()
                child.wait()
                pytest.fail(f"sitegen build of {site} ran past 120 s")
            time.sleep(0.02)
        seconds = usage.ru_utime + usage.ru_stime
    stdout, stderr = (p.read_bytes().decode("utf-8", "replace") for p in (out, err))
    shutil.rmtree(logs)
    return Build(os.waitstatus_to_exitcode(status), stdout, scrub(stderr, site), seconds, usage.ru_maxrss / 1024)


@pytest.fixture
def site(sitegen_bin, tmp_path) -> Path:
    s = tmp_path / "site"
    shutil.copytree(BASE, s, symlinks=True)
    b = measured_build(sitegen_bin, s)
    assert b.returncode == 0, b.stderr
    return s


def note(site: Path, body: str, name: str = "big.md") -> None:
    (site / "content" / "notes" / name).write_text("---\ntitle: Big\n---\n" + body, encoding="utf-8")


def refused(sitegen_bin, site: Path) -> list[str]:
    """The failing build's lines, after checking exit 1, the bounds and the untouched tree."""
    before = snapshot(site.parent)
    b = measured_build(sitegen_bin, site)
    assert b.returncode == 1, b.stderr
    assert snapshot(site.parent) == before, "the build changed files"
    assert b.seconds < SECONDS and b.peak_mb < PEAK_MB, f"{b.seconds:.2f} s, {b.peak_mb:.0f} MB"
    return b.stderr.splitlines()


def built(sitegen_bin, site: Path) -> Build:
    b = measured_build(sitegen_bin, site)
    assert b.returncode == 0, b.stderr
    assert b.seconds < SECONDS and b.peak_mb < PEAK_MB, f"{b.seconds:.2f} s, {b.peak_mb:.0f} MB"
    return b


LINKS_MESSAGE = (
    "content/notes/big.md:6: error: too many links among emphasis in one paragraph: its link ends (']') each "
    "come after up to {openers} emphasis markers and brackets, past the budget of 10,000,000 link end × marker "
    "pairs per note that keeps the Markdown library's work bounded; split the paragraph with blank lines")
FAILED = "sitegen: build failed with 1 error; <SITE>/public was left unchanged"


def test_links_among_emphasis_are_refused_at_the_paragraph(sitegen_bin, site):
    # The case: "[a](b) *c* " × 80,000 took 9.97 s; refused at the 2,583rd link end.
    note(site, "# Title\n\n" + "[a](b) *c* " * 80_000 + "\n")
    assert refused(sitegen_bin, site) == [LINKS_MESSAGE.format(openers=7_747), FAILED]


def test_a_48_mb_line_is_refused_in_seconds(sitegen_bin, site):
    note(site, "# Title\n\n" + "[a](b) *c* " * 4_400_000 + "\n")  # 48 MB, past 600 s before
    assert refused(sitegen_bin, site) == [LINKS_MESSAGE.format(openers=7_747), FAILED]


def test_the_wide_table_is_refused_at_its_delimiter_row(sitegen_bin, site):
    # 3,000 columns over 3,000 short rows (18 KB): a 90 MB page and 2.36 GB before.
    note(site, "|" + "a|" * 3_000 + "\n|" + "-|" * 3_000 + "\n" + "x\n" * 3_000)
    assert refused(sitegen_bin, site) == [
        "content/notes/big.md:5: error: a table of 3000 columns, more than the 500 a table may have "
        "(each row's work grows with the square of its columns)", FAILED]


def test_tables_past_the_cells_budget_are_refused_at_the_row(sitegen_bin, site):
    note(site, "|" + "a|" * 500 + "\n|" + "-|" * 500 + "\n" + "x\n" * 500)
    assert refused(sitegen_bin, site) == [
        "content/notes/big.md:204: error: tables of more than 100,000 cells in one note (columns × rows, every row "
        "filled up to the header's columns): the page would be too large to make", FAILED]


def test_the_worst_notes_under_the_budgets_build_in_bounds(sitegen_bin, site):
    note(site, "[a](b) *c* " * 2_582 + "\n", "links.md")  # 9,998,795 of 10,000,000
    assert "warning" not in built(sitegen_bin, site).stderr
    note(site, "|" + "a|" * 500 + "\n|" + "-|" * 500 + "\n" + "x\n" * 198, "links.md")  # 100,000 cells
    built(sitegen_bin, site)
    page = (site / "public" / "notes" / "links" / "index.html").read_text()
    assert page.count("<td></td>") == 499 * 198
    note(site, "|" + "a|" * 500 + "\n|" + "-|" * 500 + "\n" + ("|" + "x|" * 500 + "\n") * 198, "links.md")
    built(sitegen_bin, site)


CODE_WARNING = (
    "content/notes/big.md:{line}: warning: code block not highlighted (shown as plain text): its lines open brackets "
    "that stay open, more than 20000000 line × open bracket pairs, past which the highlighter's work grows with "
    "the square of the lines{more}")


def test_deeply_nested_code_is_plain_text_with_one_warning(sitegen_bin, site):
    # 252 KB of Python, `{[(` on each of 63,000 lines: 12.75 s before.
    note(site, "Some code:\n\n```python\n" + "{[(\n" * 63_000 + "```\n\n```python\nx = [1]\n```\n")
    b = built(sitegen_bin, site)
    assert CODE_WARNING.format(line=6, more="") in b.stderr.splitlines()
    page = (site / "public" / "notes" / "big" / "index.html").read_text()
    assert '<code class="language-python">{[(\n{[(\n' in page, "the block is escaped text"
    assert '<span class="dv">1</span>' in page, "the small block is highlighted"


def test_four_blocks_warn_once(sitegen_bin, site):
    # Four 126 KB blocks in one note: 13.2 s before.
    block = "```bash\n" + "{[(\n" * 31_500 + "```\n\n"
    note(site, "Intro\n\n" + block * 4)
    b = built(sitegen_bin, site)
    warnings = [line for line in b.stderr.splitlines() if "warning" in line]
    assert warnings == [CODE_WARNING.format(line=6, more=" (and 3 more code blocks of this note)")]
