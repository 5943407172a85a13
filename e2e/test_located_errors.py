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
import stat
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


def failing_build(sitegen_bin, site: Path, staged: bool = False) -> list[str]:
    """The build's stderr lines (site path as <SITE>), after checking it exits 1 and changes nothing.
    `staged`: the error is found while writing (a file to copy), after the staging folder was made
    beside the output and before it was removed again: the site folder's own times change, nothing else."""
    before = snapshot(site.parent)
    r = run_build(sitegen_bin, site, site / "public")
    assert r.returncode == 1, r.stderr
    assert r.stdout == b""
    after = snapshot(site.parent)
    if staged:
        before.pop("site"), after.pop("site")
    assert after == before, "the build changed files"
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


# Issue 47: what a file is when it is no file to read, said as such (never "permission", never
# "does not exist"), without blocking on a FIFO.

def test_a_fifo_as_a_content_file(sitegen_bin, site):
    os.mkfifo(site / "content" / "x.bin")
    assert failing_build(sitegen_bin, site, staged=True) == [
        "content/x.bin: error: cannot read file: it is a FIFO, not a regular file",
        "sitegen: build failed with 1 error; <SITE>/public was left unchanged"]


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_a_character_device_as_a_content_file(sitegen_bin, site):
    os.mknod(site / "content" / "zero.bin", 0o644 | stat.S_IFCHR, os.makedev(1, 5))  # /dev/zero's
    assert failing_build(sitegen_bin, site, staged=True) == [
        "content/zero.bin: error: cannot read file: it is a character device, not a regular file",
        "sitegen: build failed with 1 error; <SITE>/public was left unchanged"]


def test_a_fifo_as_an_asset(sitegen_bin, site):
    (site / "templates" / "assets").mkdir()
    os.mkfifo(site / "templates" / "assets" / "x.css")
    assert failing_build(sitegen_bin, site) == [
        "templates/assets/x.css: error: cannot read file: it is a FIFO, not a regular file",
        "sitegen: build failed with 1 error; <SITE>/public was left unchanged"]


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_site_yml_that_is_no_file(sitegen_bin, site, kind):
    (site / "site.yml").unlink()
    (os.mkfifo if kind == "fifo" else os.mkdir)(site / "site.yml")
    what = "a FIFO" if kind == "fifo" else "a folder"
    assert failing_build(sitegen_bin, site) == [
        f"site.yml: error: cannot read the site configuration: it is {what}, not a regular file",
        "sitegen: build failed with 1 error; <SITE>/public was left unchanged"]


def test_an_html_page_named_jpg(sitegen_bin, site):
    (site / "content" / "images" / "photo.jpg").write_text(
        "<!DOCTYPE html>\n<html><head><title>Not found</title></head><body>404</body></html>\n")
    books = site / "content" / "books.json"
    books.write_text(books.read_text().replace('"images/a.svg" }\n]', '"images/photo.jpg" }\n]'))
    assert failing_build(sitegen_bin, site) == [
        "content/books.json:3:45: error: image 'content/images/photo.jpg': not a PNG, JPEG, GIF, WebP or SVG image: "
        "it starts like HTML",
        "sitegen: build failed with 1 error; <SITE>/public was left unchanged"]
