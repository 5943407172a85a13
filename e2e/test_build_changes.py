"""A build rewrites no file whose bytes did not change, and `--changes FILE` lists what it added,
changed and removed (issue 48): output that deploy tools can diff.

Every case builds a site made by `sitegen init` in a temporary folder, once without and once with
SOURCE_DATE_EPOCH. A file of the new output with the previous output's bytes is that very file
(same inode, same modification time); a file with other bytes is a new one. The list is checked
against a diff computed here, by walking the two outputs (links not followed, folders not listed).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

TIMEOUT = 120
EPOCH = "1767225600"  # 2026-01-01


@pytest.fixture(params=[None, EPOCH], ids=["clock", "source-date-epoch"])
def env(request) -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"}
    out["NO_COLOR"] = "1"
    if request.param:
        out["SOURCE_DATE_EPOCH"] = request.param
    return out


@pytest.fixture
def site(sitegen_bin, tmp_path, env) -> Path:
    """tmp/site from `sitegen init`, not built yet."""
    r = subprocess.run([str(sitegen_bin), "init", "site"], cwd=tmp_path, capture_output=True, text=True,
                       timeout=TIMEOUT, env=env)
    assert r.returncode == 0, r.stderr
    return tmp_path / "site"


def build(sitegen: Path, site: Path, env: dict[str, str], *args: str, ok: bool = True,
          output: str = "public") -> subprocess.CompletedProcess:
    """`sitegen build --output OUTPUT ARGS` run in the site's parent folder (so `--changes` names
    files relative to it)."""
    r = subprocess.run([str(sitegen), "build", "--source", site.name, "--output", f"{site.name}/{output}", *args],
                       cwd=site.parent, capture_output=True, text=True, timeout=TIMEOUT, env=env)
    if ok:
        assert r.returncode == 0, r.stderr
    return r


def snapshot(root: Path) -> dict[str, tuple[int, int, str]]:
    """Every entry below root that is not a folder: (inode, mtime in ns, SHA-256 or link target)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            p = Path(dirpath) / name
            st = p.lstat()
            content = os.readlink(p) if stat.S_ISLNK(st.st_mode) else hashlib.sha256(p.read_bytes()).hexdigest()
            out[str(p.relative_to(root))] = (st.st_ino, st.st_mtime_ns, content)
    return out


def diff(before: dict, after: dict) -> dict[str, list[str]]:
    """What changed from one snapshot to the other, by bytes."""
    return {
        "added": sorted(after.keys() - before.keys()),
        "changed": sorted(k for k in after.keys() & before.keys() if after[k][2] != before[k][2]),
        "removed": sorted(before.keys() - after.keys()),
    }


def assert_kept_and_rewritten(before: dict, after: dict) -> None:
    """Files with the same bytes are the same files; files with other bytes are new ones."""
    for path in after.keys() & before.keys():
        same_bytes = after[path][2] == before[path][2]
        if same_bytes:
            assert after[path][:2] == before[path][:2], f"{path}: same bytes, but rewritten"
        else:
            assert after[path][0] != before[path][0], f"{path}: other bytes written into the old file"


def listed(path: Path) -> dict[str, list[str]]:
    data = json.loads(path.read_text())
    assert list(data) == ["added", "changed", "removed"]
    return data


def test_a_first_build_lists_every_file_as_added(sitegen_bin, site, env):
    build(sitegen_bin, site, env, "--changes", "changes.json")
    files = snapshot(site / "public")
    assert listed(site.parent / "changes.json") == {"added": sorted(files), "changed": [], "removed": []}
    assert "\\/" not in (site.parent / "changes.json").read_text()


def test_a_build_with_nothing_changed_keeps_every_file(sitegen_bin, site, env):
    build(sitegen_bin, site, env)
    before = snapshot(site / "public")
    r = build(sitegen_bin, site, env, "--changes", "changes.json")
    after = snapshot(site / "public")
    assert after == before, "every file keeps its inode, time and bytes"
    assert listed(site.parent / "changes.json") == {"added": [], "changed": [], "removed": []}
    assert f"sitegen: {len(before)} files had not changed" in r.stdout
    assert "sitegen: 0 added, 0 changed, 0 removed: listed in " in r.stdout
    # The same bytes as a build into an empty folder.
    build(sitegen_bin, site, env, output="fresh")
    fresh = snapshot(site / "fresh")
    assert {k: v[2] for k, v in fresh.items()} == {k: v[2] for k, v in after.items()}
    assert sorted(p.name for p in (site / "public").iterdir()) == sorted(p.name for p in (site / "fresh").iterdir())


def test_an_edited_note_rewrites_only_what_changed(sitegen_bin, site, env):
    build(sitegen_bin, site, env)
    before = snapshot(site / "public")
    note = site / "content" / "notes" / "welcome.md"
    note.write_text(note.read_text() + "\nA second paragraph.\n")
    build(sitegen_bin, site, env, "--changes", "changes.json")
    after = snapshot(site / "public")
    expected = diff(before, after)
    assert listed(site.parent / "changes.json") == expected
    assert any("welcome" in p for p in expected["changed"]), expected
    assert len(expected["changed"]) < len(after) // 2, "most files did not change"
    assert_kept_and_rewritten(before, after)


def test_a_removed_note_is_listed_and_gone(sitegen_bin, site, env):
    build(sitegen_bin, site, env)
    before = snapshot(site / "public")
    (site / "content" / "notes" / "welcome.md").unlink()
    build(sitegen_bin, site, env, "--changes", "changes.json")
    after = snapshot(site / "public")
    expected = diff(before, after)
    assert listed(site.parent / "changes.json") == expected
    gone = [p for p in before if "welcome" in p]
    assert gone and set(gone) <= set(expected["removed"]), expected
    assert not any((site / "public" / p).exists() for p in gone)
    assert_kept_and_rewritten(before, after)


def test_a_failed_build_leaves_the_output_and_the_list_as_they_were(sitegen_bin, site, env):
    build(sitegen_bin, site, env, "--changes", "changes.json")
    output = snapshot(site / "public")
    beside = sorted(os.listdir(site.parent)), sorted(os.listdir(site))
    listing = snapshot(site.parent)["changes.json"]
    (site / "site.yml").write_text((site / "site.yml").read_text() + "\ncollections: [\n")
    r = build(sitegen_bin, site, env, "--changes", "changes.json", ok=False)
    assert r.returncode == 1, r.stderr
    assert "was left unchanged" in r.stderr
    assert snapshot(site / "public") == output
    assert snapshot(site.parent)["changes.json"] == listing
    assert (sorted(os.listdir(site.parent)), sorted(os.listdir(site))) == beside


@pytest.mark.parametrize("where, what", [
    ("site/public/changes.json", "is inside the output folder"),
    ("site/public", "is the output folder"),
    ("site/content/changes.json", "is inside the site's content folder"),
    ("site/site.yml", "is the site's configuration (site.yml)"),
    ("site/.sitegen-cache/changes.json", "is inside the cache folder"),
], ids=["output", "output-itself", "content", "site-yml", "cache"])
def test_a_list_where_a_build_reads_or_replaces_is_refused(sitegen_bin, site, env, where, what):
    build(sitegen_bin, site, env)
    (site / ".sitegen-cache").mkdir(exist_ok=True)
    everything = snapshot(site.parent)
    r = build(sitegen_bin, site, env, "--changes", where, ok=False)
    assert r.returncode == 64, r.stderr
    assert r.stderr.splitlines()[0] == (
        f"Error: --changes '{where}' {what}: the list is written only outside the site's sources, its output and "
        "its cache; write it elsewhere, e.g. next to site.yml")
    assert snapshot(site.parent) == everything


def test_the_list_beside_the_sources_is_written_relative_to_the_current_folder(sitegen_bin, site, env):
    build(sitegen_bin, site, env, "--changes", "site/changes.json")
    assert listed(site / "changes.json")["added"]
    shutil.rmtree(site / "public")
    build(sitegen_bin, site, env, "--changes", "site/changes.json")
    assert listed(site / "changes.json")["added"], "no previous output: everything is added again"
