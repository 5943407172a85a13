"""A new user's first site, end to end (issue 36): `sitegen init`, `sitegen eject`, a poster dataset
laid out as a grid with the defaults taken from its images, a detail template of one's own, and the
command line's hints.

* test_init_starter_site: the starter's .gitignore leaves out public/ and .sitegen-cache/; its book
  page labels its fields (no raw `pagesText`); the `Next:` line; a folder holding only .git and
  dotfiles is accepted (`init .`, no `cd .`), an existing .gitignore kept, any other file refused.
* test_eject_builds_the_same_site: `sitegen eject` writes every built-in template and asset into
  templates/, and the next build is byte for byte the same; a second run skips them all, a file
  that exists is never overwritten and is named.
* test_mistyped_subcommand: `sitegen biuld` → exit 64 and "did you mean 'sitegen build'?".
* test_poster_grid_defaults: 30 posters of 600×900 in a grid with no `columns` or `mediaAspect`:
  2:3 media boxes, 4 columns at 1280 px, 2 at 375 px where the cards keep the heading's 16 px
  from the screen's edges.
* test_detail_image_is_sharp: at 1280 px the detail image (built-in detail template, and a
  template of one's own using `{{#item.poster.detail}}`) loads a file at least as wide as it is
  drawn.
* test_theme_consistency: a note page is centred like a detail page at 1280 px; the home page's
  notes heading is not a large underlined link.

Pictures are made with ImageMagick (`convert`, installed by scripts/setup.sh) in a temporary folder.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import _serve, _QuietHandler
from helpers import load_all_images, open_at

TIMEOUT = 300


def run(sitegen: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(sitegen), *args], capture_output=True, text=True, timeout=TIMEOUT,
                          cwd=cwd, env=dict(os.environ, NO_COLOR="1"))


def ok(p: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert p.returncode == 0, f"exit {p.returncode}\n--- stdout ---\n{p.stdout}\n--- stderr ---\n{p.stderr}"
    return p


def tree(root: Path) -> dict[str, str]:
    """Every file under root by relative path → sha256 of its bytes."""
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


# --------------------------------------------------------------------------- init


def test_init_starter_site(sitegen_bin, tmp_path):
    p = ok(run(sitegen_bin, "init", "my-site", cwd=tmp_path))
    assert p.stdout.splitlines()[-1].startswith("Next: cd my-site && sitegen serve"), p.stdout
    site = tmp_path / "my-site"
    ignored = (site / ".gitignore").read_text().split()
    assert "public/" in ignored and ".sitegen-cache/" in ignored, ignored
    ok(run(sitegen_bin, "build", "--source", str(site)))
    page = (site / "public" / "books" / "the-little-prince" / "index.html").read_text()
    fields = dict(re.findall(r"<dt>([^<]*)</dt><dd>([^<]*)</dd>", page))
    assert fields.get("Pages") == "96" and fields.get("Published") == "1943", fields
    assert "pagesText" not in page and "<dt>pages</dt>" not in page, page

    # A folder from `git init`, with a dotfile of its own and its own .gitignore.
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / ".editorconfig").write_text("root = true\n")
    (repo / ".gitignore").write_text("*.log\n")
    p = ok(run(sitegen_bin, "init", ".", cwd=repo))
    assert "Next: sitegen serve" in p.stdout and "cd ." not in p.stdout, p.stdout
    assert "kept your .gitignore; add public/ and .sitegen-cache/ to it" in p.stdout, p.stdout
    assert (repo / ".gitignore").read_text() == "*.log\n"
    assert (repo / "site.yml").is_file() and (repo / ".editorconfig").read_text() == "root = true\n"

    taken = tmp_path / "taken"
    taken.mkdir()
    (taken / "notes.txt").write_text("mine\n")
    p = run(sitegen_bin, "init", str(taken))
    assert p.returncode == 1 and p.stderr == (
        f"{taken}: error: folder is not empty (it holds 'notes.txt'); sitegen init writes only into a new "
        "folder or one holding nothing but dotfiles such as .git\n"), p.stderr
    assert sorted(x.name for x in taken.iterdir()) == ["notes.txt"]


# --------------------------------------------------------------------------- eject


def test_eject_builds_the_same_site(sitegen_bin, tmp_path):
    site = tmp_path / "site"
    ok(run(sitegen_bin, "init", str(site)))
    notes = site / "content" / "notes"
    (notes / "tagged.md").write_text("---\ntitle: Tagged\ndate: 2026-02-01\ntags: [books]\n---\nA tag page too.\n")
    ok(run(sitegen_bin, "build", "--source", str(site), "--output", str(tmp_path / "before")))

    p = ok(run(sitegen_bin, "eject", "--source", str(site)))
    written = sorted(str(x.relative_to(site / "templates")) for x in (site / "templates").rglob("*") if x.is_file())
    assert "detail.mustache" in written and "base.mustache" in written and "assets/sitegen.css" in written, written
    assert "skipped" not in p.stdout.replace("skipped 0", ""), p.stdout
    ok(run(sitegen_bin, "build", "--source", str(site), "--output", str(tmp_path / "after")))
    before, after = tree(tmp_path / "before"), tree(tmp_path / "after")
    assert before.keys() == after.keys(), sorted(before.keys() ^ after.keys())
    assert [k for k in before if before[k] != after[k]] == []

    # Again: nothing written, every file named as skipped; an edited file is left as it is.
    detail = site / "templates" / "detail.mustache"
    detail.write_text(detail.read_text() + "<!-- mine -->\n")
    p = ok(run(sitegen_bin, "eject", "--source", str(site), "detail", "sitegen.css"))
    assert p.stdout.splitlines() == [
        "skipped templates/assets/sitegen.css: it exists (left as it is)",
        "skipped templates/detail.mustache: it exists (left as it is)",
        "sitegen: wrote 0 files, skipped 2; the site builds as before until you edit them "
        "(README: \"The built-in theme\")"], p.stdout
    assert detail.read_text().endswith("<!-- mine -->\n")
    p = run(sitegen_bin, "eject", "--source", str(site), "detial")
    assert p.returncode == 1 and "the built-in theme has no 'detial'; did you mean 'detail'?" in p.stderr, p.stderr


# --------------------------------------------------------------------------- check


def test_check_exit_status_and_base_url(sitegen_bin, tmp_path):
    site = tmp_path / "site"
    ok(run(sitegen_bin, "init", str(site)))
    ok(run(sitegen_bin, "build", "--source", str(site)))
    p = ok(run(sitegen_bin, "check", "--source", str(site)))
    assert "0 broken links" in p.stdout, p.stdout
    # A link to a page that is not there: named, and the exit status says so.
    index = site / "public" / "index.html"
    index.write_text(index.read_text().replace("</main>", '<a href="/no-such-page/">gone</a></main>', 1))
    p = run(sitegen_bin, "check", "--source", str(site))
    assert p.returncode == 1 and "/no-such-page/" in p.stderr and "1 broken link" in p.stdout, p.stdout + p.stderr
    # --base-url is checked before anything is read, and replaces site.yml's.
    p = run(sitegen_bin, "check", "--source", str(site), "--base-url", "ftp://example.org/")
    assert p.returncode == 64 and "--base-url must be an absolute http(s) URL" in p.stderr, p.stderr
    (site / "site.yml").rename(site / "site.yml.away")
    p = run(sitegen_bin, "check", "--source", str(site), "--base-url", "https://example.org/")
    assert p.returncode == 1 and "/no-such-page/" in p.stderr, p.stdout + p.stderr
    p = run(sitegen_bin, "check", "--source", str(site))
    assert p.returncode == 1 and "cannot read the base URL from site.yml" in p.stderr, p.stderr


# --------------------------------------------------------------------------- command line


def test_mistyped_subcommand(sitegen_bin, tmp_path):
    p = run(sitegen_bin, "biuld", cwd=tmp_path)
    assert p.returncode == 64 and p.stderr == (
        "error: unknown command 'biuld'; did you mean 'sitegen build'? "
        "(commands: build, serve, check, init, eject)\n"), p.stderr
    # Options are the argument parser's: --help is help, not a command two letters from `help`.
    p = run(sitegen_bin, "--help", cwd=tmp_path)
    assert p.returncode == 0 and "SUBCOMMANDS" in p.stdout and "eject" in p.stdout, p.stdout + p.stderr


# --------------------------------------------------------------------------- posters

POSTER_SITE = """\
title: Posters
baseURL: https://example.org/
language: en
collections:
  movies:
    title: Movies
    data: movies.json
    slug: { from: title }
    images: { fields: poster }
    card: { title: title, subtitle: year, image: poster }
    layout: { kind: grid }
    detail: { template: DETAIL }
"""

OWN_DETAIL = """\
{{<base}}
{{$content}}
<article class="detail">
<h1>{{item.title}}</h1>
{{#item.poster.detail}}<img class="own-poster" src="{{src}}" srcset="{{srcset}}" sizes="{{sizes}}" width="{{width}}" height="{{height}}" alt="" style="display:block">{{/item.poster.detail}}
</article>
{{/content}}
{{/base}}
"""


@pytest.fixture(scope="module")
def posters(tmp_path_factory, sitegen_bin):
    """A site of 30 movies with 600×900 posters, built twice: with the built-in detail template and
    with one of its own; (public of each, their base URLs)."""
    root = tmp_path_factory.mktemp("posters")
    (root / "content" / "posters").mkdir(parents=True)
    movies = []
    for i in range(30):
        name = f"poster-{i:02d}.jpg"
        hue = (i * 37) % 360
        proc = subprocess.run(["convert", "-size", "600x900", f"gradient:hsl({hue},60%,45%)-hsl({(hue + 60) % 360},60%,25%)",
                               "-quality", "85", str(root / "content" / "posters" / name)], capture_output=True, text=True)
        assert proc.returncode == 0, f"ImageMagick's convert failed (scripts/setup.sh installs it): {proc.stderr}"
        movies.append(f'{{"title": "Movie {i:02d}", "year": {1990 + i}, "poster": "posters/{name}"}}')
    (root / "content" / "movies.json").write_text("[\n" + ",\n".join(movies) + "\n]\n")
    (root / "templates").mkdir()
    (root / "templates" / "own.mustache").write_text(OWN_DETAIL)
    outs = {}
    for detail in ("detail", "own"):
        (root / "site.yml").write_text(POSTER_SITE.replace("DETAIL", detail))
        out = root / f"public-{detail}"
        ok(run(sitegen_bin, "build", "--source", str(root), "--output", str(out)))
        outs[detail] = out
    yield outs


@pytest.fixture(scope="module")
def poster_urls(posters):
    gens = {k: _serve(v, _QuietHandler, f"posters-{k}") for k, v in posters.items()}
    urls = {k: next(g) for k, g in gens.items()}
    yield urls
    for g in gens.values():
        for _ in g:
            pass


CARDS_JS = """
const head = document.querySelector('.list-head h1').getBoundingClientRect();
return {head: head.left, vw: document.documentElement.clientWidth,
  cards: [...document.querySelectorAll('.cards-grid .card')].map(c => {
    const r = c.getBoundingClientRect(), m = c.querySelector('.card-media').getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, mw: m.width, mh: m.height};
  })};
"""


def test_poster_grid_defaults(browser, poster_urls):
    for width, want_cols in ((1280, 4), (375, 2)):
        open_at(browser, poster_urls["detail"] + "/movies/", width)
        g = browser.execute_script(CARDS_JS)
        cards = g["cards"]
        assert len(cards) == 30
        lefts = sorted({round(c["left"]) for c in cards})
        assert len(lefts) == want_cols, f"{width}px: {len(lefts)} columns ({lefts}), want {want_cols}"
        for c in cards:
            assert abs(c["mh"] - c["mw"] * 3 / 2) <= 1, f"{width}px: media {c['mw']:.1f}x{c['mh']:.1f} is not 2:3"
        assert abs(min(c["left"] for c in cards) - g["head"]) <= 0.5, f"{width}px: cards start at " \
            f"{min(c['left'] for c in cards)}, the heading at {g['head']}"
        if width == 375:
            assert g["head"] == 16 and max(c["right"] for c in cards) <= g["vw"] - 16 + 0.5, g


IMAGE_JS = """
const img = document.querySelector(arguments[0]);
const r = img.getBoundingClientRect();
return {src: img.currentSrc, drawn: r.width, natural: img.naturalWidth};
"""


@pytest.mark.parametrize("template,selector", [("detail", ".detail-image"), ("own", ".own-poster")])
def test_detail_image_is_sharp(browser, poster_urls, template, selector):
    open_at(browser, poster_urls[template] + "/movies/movie-03/", 1280)
    load_all_images(browser)
    i = browser.execute_script(IMAGE_JS, selector)
    file_width = int(re.search(r"-(\d+)\.\w+$", i["src"]).group(1))
    assert i["drawn"] >= 400, f"the detail image is drawn only {i['drawn']} px wide: {i}"
    assert file_width >= i["drawn"], f"{template}: {i['src']} ({file_width} px) drawn {i['drawn']} px wide"
    # The detail variant holds its own widths (760 px and more, here the posters' 600), not the cards'.
    srcset = browser.execute_script("return document.querySelector(arguments[0]).srcset", selector)
    widths = [int(w) for w in re.findall(r"-(\d+)\.\w+ \d+w", srcset)]
    assert widths == [600], f"{template}: the detail image's srcset {srcset}"


# --------------------------------------------------------------------------- theme


def test_theme_consistency(browser, tmp_path, sitegen_bin):
    site = tmp_path / "site"
    ok(run(sitegen_bin, "init", str(site)))
    ok(run(sitegen_bin, "build", "--source", str(site)))
    gen = _serve(site / "public", _QuietHandler, "starter")
    url = next(gen)
    try:
        open_at(browser, url + "/notes/welcome/", 1280)
        r = browser.execute_script("const r = document.querySelector('.note-page').getBoundingClientRect();"
                                   "const m = document.querySelector('main').getBoundingClientRect();"
                                   "return {left: r.left, right: r.right, mainLeft: m.left, mainRight: m.right};")
        assert abs((r["left"] - r["mainLeft"]) - (r["mainRight"] - r["right"])) <= 1, f"the note page is not centred: {r}"
        open_at(browser, url + "/books/the-little-prince/", 1280)
        d = browser.execute_script("const r = document.querySelector('.detail').getBoundingClientRect();"
                                   "return {left: r.left, right: r.right};")
        assert abs(d["left"] - r["left"]) <= 1, f"note {r} and detail {d} columns differ"
        lefts = browser.execute_script("return ['.detail h1', '.detail .note h2'].map("
                                       "s => document.querySelector(s).getBoundingClientRect().left)")
        assert abs(lefts[0] - lefts[1]) <= 0.5, f"the item's note is indented from its title: {lefts}"
        open_at(browser, url + "/", 1280)
        h = browser.execute_script("""const h = document.querySelector('.home-notes h2');
            const a = h.querySelector('a') || h; const s = getComputedStyle(a);
            return {size: parseFloat(getComputedStyle(h).fontSize), line: s.textDecorationLine};""")
        assert h["size"] <= 20 and h["line"] == "none", f"the notes heading: {h}"
    finally:
        for _ in gen:
            pass
