"""Configuration that reaches markup is escaped or refused (issue 31).

Every string `site.yml` can set — titles, descriptions, the author, the language, the interface
words, URL patterns, derived text and separators, page settings — is set to a value that would
open a tag and break out of an attribute; the whole output (every file: pages, feeds, sitemap,
search indexes, scripts) must hold none of it unescaped. A base URL with a character HTML needs
escaped is refused at its line (or as `--base-url`), and `{{#site.asset}}` escapes what it prints.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

HOSTILE = "\"'><img src=x onerror=alert(1)>&amp"
# What must never appear in a file: a tag opened, or a quote closing an attribute before it.
UNESCAPED = ["<img src=x", "\"'>", "'><"]


def q(text: str) -> str:
    """`text` as a single-quoted YAML scalar."""
    return "'" + text.replace("'", "''") + "'"


def hostile_site(h: str) -> str:
    return f"""title: {q("T " + h)}
baseURL: https://example.org/
language: {q("en " + h)}
description: {q("D " + h)}
author: {q("A " + h)}
collections:
  books:
    title: {q("B " + h)}
    description: {q("BD " + h)}
    data: books.json
    fields: {{ title: string, year: integer, released: string }}
    slug: {{ from: title }}
    pageSize: 1
    derived:
      y: {{ template: {q("Y{year} " + h)} }}
      day: {{ from: released, format: date, input: YYYYMMDD, output: {q("YYYY " + h)} }}
      words: {{ from: title, format: list, separator: {q(h)} }}
    card: {{ title: title, subtitle: y }}
    layout: {{ kind: list }}
    list: {{ url: {q("/b " + h + "/")} }}
    detail: {{ url: {q("/d " + h + "/{slug}/")} }}
    search: {{ url: {q("/s " + h + ".json")}, fields: [title, y, day, words] }}
    feed: {{ date: released }}
pages:
  about:
    url: {q("/p " + h + "/")}
    template: home
    title: {q("PT " + h)}
    description: {q("PD " + h)}
    section: books
notes:
  collection: books
  title: {q("N " + h)}
  url: {q("/n " + h + "/{slug}/")}
  list: {{ url: {q("/nl " + h + "/")} }}
  feed: {q("/f " + h + ".xml")}
  tags: {q("/t " + h + "/")}
words:
  skipLink: {q("W1 " + h)}
  navigation: {q("W2 " + h)}
  close: {q("W3 " + h)}
  pagination: {q("W4 " + h)}
  empty: {q("W5 " + h)}
  tags: {q("W6 " + h)}
  items: {{ one: {q("{n} I1 " + h)}, other: {q("{n} I2 " + h)} }}
"""


def build(sitegen: Path, site: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(sitegen), "build", "--source", str(site), *args], capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, NO_COLOR="1"))


@pytest.fixture
def site(tmp_path) -> Path:
    s = tmp_path / "site"
    (s / "content" / "notes").mkdir(parents=True)
    (s / "content" / "books.json").write_text(
        '[{"title": "Alpha", "year": 1943, "released": "19430406"}, {"title": "Beta", "year": 1987, "released": "19870904"}]')
    (s / "content" / "notes" / "n.md").write_text(f"---\ntitle: Note\ndate: 2026-01-01\ntags: [x]\n---\nHi\n")
    return s


def test_every_configuration_string_is_escaped_everywhere(sitegen_bin, site):
    (site / "site.yml").write_text(hostile_site(HOSTILE))
    r = build(sitegen_bin, site)
    assert r.returncode == 0, r.stderr
    files = [p for p in (site / "public").rglob("*") if p.is_file()]
    assert len(files) > 15
    shown = 0
    for p in files:
        text = p.read_text(encoding="utf-8")
        for bad in UNESCAPED:
            assert bad not in text, f"{p.relative_to(site)} holds {bad!r} unescaped"
        shown += "img src=x" in text
    # The values are there, escaped: in most files (not the CSS, the scripts, robots.txt).
    assert shown >= len(files) - 6, f"only {shown} of {len(files)} files show the values"
    home = (site / "public" / "index.html").read_text()
    assert "<title>T &quot;&#39;&gt;&lt;img src=x onerror=alert(1)&gt;&amp;amp" in home


BASE_CASES = [
    ("https://example.org/\"><img src=x onerror=alert(1)>/", '"', "%22"),
    ("https://example.org/a b/", " ", "%20"),
    ("https://example.org/a'b/", "'", "%27"),
    ("https://example.org/a<b/", "<", "%3C"),
    ("https://example.org/a>b/", ">", "%3E"),
    ("https://exa\"mple.org/", '"', "%22"),
]


@pytest.mark.parametrize("url,char,encoded", BASE_CASES)
def test_a_base_url_that_needs_escaping_is_refused_at_its_line(sitegen_bin, site, url, char, encoded):
    (site / "site.yml").write_text(f"title: T\n# the address\nbaseURL: {q(url)}\n")
    r = build(sitegen_bin, site)
    assert r.returncode == 1
    assert r.stderr.splitlines()[0] == (f"site.yml:3:10: error: 'baseURL' must not contain '{char}', which would need "
                                        f"escaping in HTML: percent-encode it as {encoded} (found '{url}')")
    (site / "site.yml").write_text("title: T\nbaseURL: https://example.org/\n")
    r = build(sitegen_bin, site, "--base-url", url)
    assert r.returncode == 1
    assert r.stderr.splitlines()[0] == (f"--base-url: error: the base URL must not contain '{char}', which would need "
                                        f"escaping in HTML: percent-encode it as {encoded} (found '{url}')")
    assert not (site / "public").exists()


def test_the_asset_helper_escapes_what_it_prints(sitegen_bin, site):
    """`&` is allowed in a base URL's path; `{{#site.asset}}` prints it escaped, like any value."""
    (site / "site.yml").write_text("title: T\nbaseURL: https://example.org/a&b/\n")
    r = build(sitegen_bin, site)
    assert r.returncode == 0, r.stderr
    home = (site / "public" / "index.html").read_text()
    assert '<link rel="stylesheet" href="/a&amp;b/assets/sitegen.' in home
    assert 'href="/a&b/' not in home
