"""Errors that say what happened, where, and not too much of it (issue 31): the cases that cannot
be committed as files of `invalid-sites/` (a FIFO, a folder in a file's place, a file name that is
not UTF-8, a 5 MB tag, 100,000 duplicate slugs) are made here over a copy of `invalid-sites/_base`,
built once before. Each build must exit 1 with the exact message, and leave the whole temporary
tree (the previous output included) exactly as it was.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from test_invalid_sites import BASE, run_build, scrub, snapshot


@pytest.fixture
def site(sitegen_bin, tmp_path) -> Path:
    s = tmp_path / "site"
    shutil.copytree(BASE, s, symlinks=True)
    r = run_build(sitegen_bin, s, s / "public")
    assert r.returncode == 0, r.stderr
    return s


def failing_build(sitegen_bin, site: Path) -> list[str]:
    """The build's stderr lines (site path as <SITE>), after checking it exits 1 and changes nothing."""
    before = snapshot(site.parent)
    r = run_build(sitegen_bin, site, site / "public")
    assert r.returncode == 1, r.stderr
    assert r.stdout == b""
    assert snapshot(site.parent) == before, "the build changed files"
    return scrub(r.stderr.decode("utf-8", "backslashreplace"), site).splitlines()


def test_a_fifo_as_a_dataset(sitegen_bin, site):
    (site / "content" / "books.json").unlink()
    os.mkfifo(site / "content" / "books.json")
    assert failing_build(sitegen_bin, site) == [
        "content/books.json: error: cannot read the dataset of collection 'books' (named by its 'data' in site.yml): "
        "it is a FIFO, not a regular file",
        "sitegen: build failed with 1 error; <SITE>/public was left unchanged"]


def test_a_folder_as_a_dataset(sitegen_bin, site):
    (site / "content" / "books.json").unlink()
    (site / "content" / "books.json").mkdir()
    assert failing_build(sitegen_bin, site) == [
        "content/books.json: error: cannot read the dataset of collection 'books' (named by its 'data' in site.yml): "
        "it is a folder, not a regular file",
        "sitegen: build failed with 1 error; <SITE>/public was left unchanged"]


def test_a_file_name_that_is_not_utf8(sitegen_bin, site):
    notes = os.fsencode(site / "content" / "notes")
    shutil.copy(site / "content" / "notes" / "hello.md", notes + b"/caf\xe9.md")
    assert failing_build(sitegen_bin, site) == [
        "content/notes/caf\\xE9.md: error: the file name is not UTF-8 (its bytes: 63 61 66 E9 2E 6D 64): rename it",
        "sitegen: build failed with 1 error; <SITE>/public was left unchanged"]


def test_a_5_mb_tag_is_shown_by_its_start(sitegen_bin, site):
    (site / "content" / "notes" / "big.md").write_text("---\ntitle: Big\ntags: [" + "x" * 5_000_000 + "]\n---\nText.\n")
    lines = failing_build(sitegen_bin, site)
    assert lines == [
        "content/notes/big.md:3: error: the tag makes the file name '" + "x" * 60 + "… (5000000 bytes)', longer than "
        "the 255 bytes a file name may have: shorten it",
        "sitegen: build failed with 1 error; <SITE>/public was left unchanged"]


def test_100000_duplicate_slugs_print_50_errors_and_a_count(sitegen_bin, site):
    items = [{"title": "Same", "year": 1, "cover": "images/a.svg"}] * 100_000
    (site / "content" / "books.json").write_text(json.dumps(items))
    lines = failing_build(sitegen_bin, site)
    assert len(lines) == 52
    assert lines[0] == ("content/books.json:1:57: error: duplicate slug 'same' in collection 'books': item 1 and the "
                        "item at content/books.json:1 would share the page /books/same/")
    assert all(": error: duplicate slug 'same'" in line for line in lines[:50])
    assert lines[50:] == ["sitegen: … and 99949 more errors",
                          "sitegen: build failed with 99999 errors; <SITE>/public was left unchanged"]
