"""`sitegen build` never replaces what it did not write (issue 31).

Every case runs in a site made by `sitegen init` inside a temporary folder that also holds a
folder of someone else's (`thesis/`) and a file (`f`). A refused command exits 64 before reading or
writing anything: the first line of stderr is the exact message, and every path of the whole
temporary tree (type, mode, bytes, link target) is as it was. An accepted one changes nothing
outside its output folder.

The swap is tested by killing the build (strace's fault injection) at each of its renames, with
the exchange (`renameat2` RENAME_EXCHANGE) and with the two-rename fallback
(`SITEGEN_TEST_TWO_RENAMES=1`): the output path holds the old site or the new one each time (or,
in the fallback, nothing between the two renames: then the next build, even a failing one, puts
the old site back), and the next build leaves nothing beside the output.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

TIMEOUT = 120


def run(sitegen: Path, args: list[str], cwd: Path, env: dict[str, str] | None = None,
        prefix: list[str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*(prefix or []), str(sitegen), *args], cwd=cwd, capture_output=True, text=True,
                          timeout=TIMEOUT, env=dict(os.environ, NO_COLOR="1", **(env or {})))


def tree(root: Path, skip: set[str] = frozenset()) -> dict[str, tuple]:
    """Every path below root (not following links): its type, mode and checksum or link target;
    `skip` names top-level folders (relative paths) left out."""
    out: dict[str, tuple] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        dirnames[:] = [d for d in dirnames if os.path.normpath(os.path.join(rel_dir, d)) not in skip]
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            rel = os.path.normpath(os.path.join(rel_dir, name))
            if rel in skip:
                continue
            st = p.lstat()
            if stat.S_ISLNK(st.st_mode):
                content: object = os.readlink(p)
            elif stat.S_ISREG(st.st_mode):
                content = hashlib.sha256(p.read_bytes()).hexdigest()
            else:
                content = None
            out[rel] = (stat.S_IFMT(st.st_mode), stat.S_IMODE(st.st_mode), content)
    return out


def site_files(root: Path) -> dict[str, object]:
    """A built site's paths and file checksums (folders included: the marker is one)."""
    return {k: v[2] if v[0] != stat.S_IFDIR else "dir" for k, v in tree(root).items()}


@pytest.fixture
def place(sitegen_bin, tmp_path) -> Path:
    """tmp/site (from `sitegen init`, built once into site/public), tmp/thesis (someone's), tmp/f."""
    r = run(sitegen_bin, ["init", "site"], tmp_path)
    assert r.returncode == 0, r.stderr
    (tmp_path / "thesis").mkdir()
    (tmp_path / "thesis" / "chapter1.tex").write_text("\\chapter{One}\n")
    (tmp_path / "f").write_text("x\n")
    return tmp_path


REPLACED = ": each build replaces the whole output folder, so it must be a folder of its own, such as public/ in the site's folder"

# (arguments run in site/, the exact first line of stderr; the command's usage follows it)
REFUSED = [
    pytest.param(["build", "--output", "content"], f"Error: --output 'content' is the site's content folder{REPLACED}", id="content"),
    pytest.param(["build", "--source", ".", "--output", "."], f"Error: --output '.' is the site's folder{REPLACED}", id="dot"),
    pytest.param(["build", "--output", ""], "Error: --output '' names no folder (an unset variable?): give the folder to write the "
                                "site to, or leave the option out for public/ in the site's folder", id="empty"),
    pytest.param(["build", "--output", ".."], f"Error: --output '..' contains the site's folder{REPLACED}", id="dotdot"),
    pytest.param(["build", "--output", "../thesis"], "Error: --output '../thesis' is a folder sitegen did not write (1 entry, e.g. "
                                         "'chapter1.tex'), which the build would replace: empty it or choose another "
                                         "folder, or pass --force to replace it", id="thesis"),
    pytest.param(["build", "--output", "../f"], f"Error: --output '../f' is an existing file, not a folder{REPLACED}", id="file"),
    pytest.param(["build", "--output", "content/out"], f"Error: --output 'content/out' is inside the site's content folder{REPLACED}", id="content-out"),
    pytest.param(["build", "--cache-dir", "content/cache"], "Error: --cache-dir 'content/cache' is inside the site's content folder, "
                                                "so the cache would be published or read as the site's sources: keep the "
                                                "cache elsewhere, e.g. leave the option out", id="cache-in-content"),
    pytest.param(["build", "--output", "templates"], f"Error: --output 'templates' is the site's templates folder{REPLACED}", id="templates"),
    pytest.param(["build", "--output", "templates/site"], f"Error: --output 'templates/site' is inside the site's templates folder{REPLACED}", id="templates-site"),
    pytest.param(["build", "--output", "site.yml"], f"Error: --output 'site.yml' is the site's configuration (site.yml){REPLACED}", id="site-yml"),
    pytest.param(["build", "--output", ".sitegen-cache"], f"Error: --output '.sitegen-cache' is the cache folder (--cache-dir){REPLACED}", id="cache"),
    pytest.param(["build", "--output", "/"], f"Error: --output '/' contains the site's folder{REPLACED}", id="root"),
    pytest.param(["build", "--output", "public/../content"], f"Error: --output 'public/../content' is the site's content folder{REPLACED}", id="dotdot-content"),
    pytest.param(["build", "--output", "public", "--cache-dir", "public/cache"],
     "Error: --cache-dir 'public/cache' is inside the output folder, which each build replaces: keep the cache elsewhere, "
     "e.g. leave the option out", id="cache-in-output"),
    pytest.param(["build", "--cache-dir", "templates"], "Error: --cache-dir 'templates' is the site's templates folder, so the cache "
                                            "would be published or read as the site's sources: keep the cache elsewhere, "
                                            "e.g. leave the option out", id="cache-templates"),
    pytest.param(["serve", "--port", "0", "--output", "content"], f"Error: --output 'content' is the site's content folder{REPLACED}", id="serve-content"),
]


@pytest.mark.parametrize("args,message", REFUSED)
def test_refused_before_anything_is_touched(sitegen_bin, place, args, message):
    site = place / "site"
    assert run(sitegen_bin, ["build"], site).returncode == 0
    before = tree(place)
    r = run(sitegen_bin, args, site)
    assert r.returncode == 64, (r.returncode, r.stderr)
    assert r.stderr.splitlines()[0] == message
    assert r.stderr.splitlines()[1].startswith(f"Usage: sitegen {args[0]} "), "the command's usage follows"
    assert r.stdout == ""
    assert tree(place) == before


def test_refused_through_symbolic_links(sitegen_bin, place):
    """Real paths are compared: a link to content/, and an output holding content/'s real folder."""
    site = place / "site"
    (site / "content").rename(place / "data")
    (site / "content").symlink_to("../data")
    os.symlink("content", site / "pub")
    before = tree(place)
    for args, message in [
        (["--output", "pub"], f"Error: --output 'pub' is the site's content folder{REPLACED}"),
        (["--output", "../data"], f"Error: --output '../data' is the site's content folder{REPLACED}"),
        (["--output", "../data/x/.."], f"Error: --output '../data/x/..' is the site's content folder{REPLACED}"),
    ]:
        r = run(sitegen_bin, ["build", *args], site)
        assert (r.returncode, r.stderr.splitlines()[0]) == (64, message)
    assert tree(place) == before


def test_fifo_output_is_refused(sitegen_bin, place):
    site = place / "site"
    os.mkfifo(site / "pipe")
    before = tree(place)
    r = run(sitegen_bin, ["build", "--output", "pipe"], site)
    assert (r.returncode, r.stderr.splitlines()[0]) == (64, f"Error: --output 'pipe' is a FIFO, not a folder{REPLACED}")
    assert tree(place) == before


def test_a_repeated_build_replaces_its_own_output_only(sitegen_bin, place):
    """Only the output and sitegen's cache (its build record, the notes it loaded) change."""
    site = place / "site"
    skip = {"site/public", "site/.sitegen-cache"}
    for _ in range(3):
        before = tree(place, skip=skip)
        r = run(sitegen_bin, ["build"], site)
        assert r.returncode == 0, r.stderr
        assert tree(place, skip=skip) == before
    cache = site / ".sitegen-cache"
    assert not cache.exists() or {p.name for p in cache.iterdir()} <= {"records", "notes"}
    assert (site / "public" / ".sitegen-output").is_dir()
    assert not any((site / "public" / ".sitegen-output").iterdir()), "the marker is empty"


def test_force_replaces_a_foreign_folder_and_only_it(sitegen_bin, place):
    site = place / "site"
    before = tree(place, skip={"thesis", "site/.sitegen-cache"})
    r = run(sitegen_bin, ["build", "--output", "../thesis", "--force"], site)
    assert r.returncode == 0, r.stderr
    assert tree(place, skip={"thesis", "site/.sitegen-cache"}) == before
    assert (place / "thesis" / "index.html").is_file() and not (place / "thesis" / "chapter1.tex").exists()
    # Now it is sitegen's: the next build needs no --force.
    assert run(sitegen_bin, ["build", "--output", "../thesis"], site).returncode == 0


def test_an_empty_folder_is_used(sitegen_bin, place):
    site = place / "site"
    (place / "out").mkdir()
    before = tree(place, skip={"out", "site/.sitegen-cache"})
    r = run(sitegen_bin, ["build", "--output", "../out"], site)
    assert r.returncode == 0, r.stderr
    assert (place / "out" / "index.html").is_file()
    assert tree(place, skip={"out", "site/.sitegen-cache"}) == before


def test_an_output_of_an_earlier_sitegen_is_recognised_once(sitegen_bin, place):
    """Without the marker, a folder shaped like sitegen's output (index.html, 404.html,
    sitemap.xml, a fingerprinted stylesheet in assets/) is replaced, and then carries the marker;
    without the fingerprinted stylesheet it is someone else's."""
    site = place / "site"
    assert run(sitegen_bin, ["build"], site).returncode == 0
    (site / "public" / ".sitegen-output").rmdir()
    r = run(sitegen_bin, ["build"], site)
    assert r.returncode == 0, r.stderr
    assert (site / "public" / ".sitegen-output").is_dir()

    (site / "public" / ".sitegen-output").rmdir()
    for css in (site / "public" / "assets").glob("*.*.css"):
        css.unlink()
    before = tree(place)
    r = run(sitegen_bin, ["build"], site)
    assert r.returncode == 64
    assert r.stderr.splitlines()[0].startswith(
        f"Error: the output folder {site / 'public'} (the default of --output) is a folder sitegen did not write (")
    assert tree(place) == before


# --------------------------------------------------------------------------- killed swaps


RENAMES = "rename,renameat,renameat2"
REMOVALS = "unlink,unlinkat,rmdir"


def strace_build(sitegen: Path, site: Path, calls: str, n: int, env: dict[str, str]) -> subprocess.CompletedProcess:
    """A build killed (SIGKILL, before the call runs) at the nth of `calls`."""
    strace = shutil.which("strace")
    assert strace, "strace not found (Debian package strace; scripts/setup.sh test installs it)"
    return run(sitegen, ["build"], site, env=env,
               prefix=[strace, "-f", "-qq", "-o", "/dev/null", "-e", f"trace={calls}",
                       "-e", f"inject={calls}:signal=KILL:when={n}"])


@pytest.mark.parametrize("calls", [RENAMES, REMOVALS], ids=["renames", "removals"])
@pytest.mark.parametrize("mode", ["exchange", "two-renames"])
def test_a_build_killed_at_each_rename_leaves_the_old_or_the_new_site(sitegen_bin, place, mode, calls):
    """Killed at each rename (the swap), and at each removal (the old site's, after it)."""
    env = {"SITEGEN_TEST_TWO_RENAMES": "1"} if mode == "two-renames" else {}
    template = place / "site"
    assert run(sitegen_bin, ["build"], template).returncode == 0
    old = site_files(template / "public")
    note = template / "content" / "notes" / "welcome.md"
    changed_note = note.read_text().replace("title:", "title: Changed", 1)
    reference = place / "reference"
    shutil.copytree(template, reference, symlinks=True)
    (reference / "content" / "notes" / "welcome.md").write_text(changed_note)
    assert run(sitegen_bin, ["build"], reference).returncode == 0
    new = site_files(reference / "public")
    assert new != old

    killed = 0
    for n in range(1, 200):
        site = place / f"kill{n}"
        shutil.copytree(template, site, symlinks=True)
        (site / "content" / "notes" / "welcome.md").write_text(changed_note)
        sources = tree(site, skip={"public", ".sitegen-cache"})
        r = strace_build(sitegen_bin, site, calls, n, env)
        if r.returncode == 0:
            assert site_files(site / "public") == new
            break
        assert r.returncode in (-9, 137), (n, r.returncode, r.stderr)
        killed += 1
        public = site / "public"
        if public.exists() or mode == "exchange":
            assert site_files(public) in (old, new), f"rename {n}: the output is neither site"
        else:
            # Between the two renames: the next build, even one that fails, puts the old site back.
            site_yml = (site / "site.yml").read_text()
            (site / "site.yml").write_text(site_yml + "bogus: [\n")
            r = run(sitegen_bin, ["build"], site, env=env)
            assert r.returncode == 1 and r.stderr.endswith(f"{public} was left unchanged\n"), r.stderr
            assert site_files(public) == old
            (site / "site.yml").write_text(site_yml)
        r = run(sitegen_bin, ["build"], site, env=env)
        assert r.returncode == 0, r.stderr
        assert site_files(public) == new
        assert sorted(os.listdir(site)) == sorted(os.listdir(template)), f"rename {n}: leftovers beside the output"
        assert tree(site, skip={"public", ".sitegen-cache"}) == sources
    else:
        pytest.fail(f"the build was still killed after 199 of {calls}")
    if calls == RENAMES:
        # The swap's renames, then the note cache's file's (replaced after the output: the new site).
        swap = 1 if mode == "exchange" else 2
        assert killed in (swap, swap + 1), f"{killed} renames: the swap's are 1 (exchange) or 2, the note cache's 1"
    else:
        assert killed > 10, "the old site's files are removed one by one"
        shutil.rmtree(place / "reference")


# --------------------------------------------------------------------------- cache leftovers


def test_a_cache_write_killed_at_its_rename_leaves_nothing_after_the_next_build(sitegen_bin, tmp_path):
    """A build killed at the image cache's first rename leaves a temporary file (its writer gone);
    the next build that uses the cache deletes it, even one that fails."""
    from conftest import REPO
    site = tmp_path / "site"
    shutil.copytree(Path(__file__).parent / "invalid-sites" / "_base", site)
    photo = sorted((REPO / "content" / "photos" / "images").glob("*.jpg"))[0]
    shutil.copy(photo, site / "content" / "images" / "a.jpg")
    books = site / "content" / "books.json"
    books.write_text(books.read_text().replace("images/a.svg", "images/a.jpg"))
    cache = site / ".sitegen-cache" / "images"
    r = strace_build(sitegen_bin, site, RENAMES, 1, {})
    assert r.returncode in (-9, 137), r.stderr
    left = [p.name for p in cache.iterdir() if p.name.startswith(".tmp-")]
    assert left, "the killed build left its temporary file"
    (site / "content" / "notes" / "bad.md").write_text("---\ntitle: Bad\nitem: books/nope\n---\nx\n")
    r = run(sitegen_bin, ["build"], site)
    assert r.returncode == 1, r.stderr
    assert [p.name for p in cache.iterdir() if p.name.startswith(".tmp-")] == []
