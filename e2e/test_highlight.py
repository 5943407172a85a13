"""Highlighted code (KSyntaxHighlighting through libSitegenHighlight.so), end to end: the library
is opened only for a site with code, a sitegen without it builds plain code and says so once,
the user's own syntax files, the locale and the thread count change nothing, and in Chromium
the line numbers are not copied and the dark theme applies under prefers-color-scheme."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from helpers import open_at, wait_for
from test_determinism import digest

NOTE = """---
title: Code
---
Some Swift:

```swift {2} showLineNumbers
let 이름 = "😀"
print(이름) // 한글
```

```python
def f(): return 1
```
"""


def make_site(root: Path, sitegen: Path, code: bool) -> Path:
    """A starter site (`sitegen init`), with a note holding code when `code`."""
    site = root / "site"
    subprocess.run([str(sitegen), "init", str(site)], check=True, capture_output=True, timeout=60)
    if code:
        (site / "content" / "notes" / "code.md").write_text(NOTE)
    return site


def build(sitegen: Path, site: Path, out: Path, env: dict | None = None, prefix=(), threads: int = 2):
    r = subprocess.run([*prefix, str(sitegen), "build", "--source", str(site), "--output", str(out), "--threads", str(threads)],
                       capture_output=True, text=True, timeout=300, env={**os.environ, **(env or {})})
    assert r.returncode == 0, r.stderr
    return r


def opened_files(sitegen: Path, site: Path, out: Path, tmp: Path) -> str:
    strace = shutil.which("strace")
    assert strace, "strace not found (Debian package strace; scripts/setup.sh test installs it)"
    log = tmp / "strace.log"
    build(sitegen, site, out, prefix=(strace, "-f", "-e", "trace=open,openat", "-o", str(log)))
    return log.read_text()


def test_a_site_without_code_never_opens_the_highlighter(sitegen_bin, tmp_path):
    plain = make_site(tmp_path / "plain", sitegen_bin, code=False)
    calls = opened_files(sitegen_bin, plain, tmp_path / "plain-out", tmp_path)
    assert "libc.so" in calls, "strace saw the build's openat calls"
    for library in ("libSitegenHighlight", "libKF5SyntaxHighlighting", "libQt5Core"):
        assert library not in calls, f"a site without code opened {library}"
    # The same site with a note of code opens them, once.
    code = make_site(tmp_path / "code", sitegen_bin, code=True)
    calls = opened_files(sitegen_bin, code, tmp_path / "code-out", tmp_path)
    for library in ("libSitegenHighlight.so", "libKF5SyntaxHighlighting.so.5", "libQt5Core.so.5"):
        assert re.search(rf'openat\(.*{re.escape(library)}", O_RDONLY\|O_CLOEXEC\) = \d', calls), f"{library} was not opened"


def test_code_is_highlighted_and_its_stylesheet_linked_only_where_shown(sitegen_bin, tmp_path):
    site = make_site(tmp_path, sitegen_bin, code=True)
    out = tmp_path / "out"
    r = build(sitegen_bin, site, out)
    assert "warning" not in r.stderr
    page = (out / "notes" / "code" / "index.html").read_text()
    assert '<pre class="code numbered" tabindex="0"><code class="language-swift"><span class="line"><span class="kw">let</span>' in page
    assert '<span class="line hl">print' in page
    assert '<span class="kw">def</span>' in page
    css = re.findall(r'<link rel="stylesheet" href="/assets/(highlight\.[0-9a-f]{16}\.css)">', page)
    assert len(css) == 1, "the note's page links the code's stylesheet"
    assert (out / "assets" / css[0]).read_text() == (out / "assets" / "highlight.css").read_text()
    assert "@media (prefers-color-scheme: dark)" in (out / "assets" / "highlight.css").read_text()
    for other in ("index.html", "notes/index.html", "notes/welcome/index.html"):
        if (out / other).exists():
            assert "highlight." not in (out / other).read_text(), f"{other} shows no code but links its stylesheet"


def test_highlight_false_leaves_code_plain(sitegen_bin, tmp_path):
    site = make_site(tmp_path, sitegen_bin, code=True)
    with open(site / "site.yml", "a") as f:
        f.write("highlight: false\n")
    out = tmp_path / "out"
    build(sitegen_bin, site, out)
    page = (out / "notes" / "code" / "index.html").read_text()
    assert '<pre class="code" tabindex="0"><code class="language-swift">let 이름 = &quot;😀&quot;\n' in page
    assert 'class="kw"' not in page and "highlight." not in page
    assert not (out / "assets" / "highlight.css").exists()


def test_without_the_library_code_stays_plain_and_the_build_says_how_once(sitegen_bin, tmp_path):
    """sitegen copied alone (no libSitegenHighlight.so beside it), or pointed at a missing file."""
    site = make_site(tmp_path, sitegen_bin, code=True)
    (site / "content" / "notes" / "more.md").write_text(NOTE.replace("title: Code", "title: More"))
    alone = tmp_path / "bin" / "sitegen"
    alone.parent.mkdir()
    shutil.copy2(sitegen_bin, alone)
    for binary, env in ((alone, {}), (sitegen_bin, {"SITEGEN_HIGHLIGHT_LIBRARY": str(tmp_path / "none.so")})):
        out = tmp_path / f"out-{len(env)}"
        r = build(binary, site, out, env=env)
        warnings = [line for line in r.stderr.splitlines() if "warning:" in line]
        assert len(warnings) == 1, r.stderr
        assert "code blocks are not highlighted" in warnings[0] and "apt-get install libkf5syntaxhighlighting5" in warnings[0]
        assert "libSitegenHighlight.so" in warnings[0]
        page = (out / "notes" / "code" / "index.html").read_text()
        assert '<pre class="code numbered" tabindex="0"><code class="language-swift"><span class="line">let 이름 = &quot;😀&quot;\n</span>' in page
        assert 'class="kw"' not in page and "highlight." not in page
        assert not (out / "assets" / "highlight.css").exists()


SWIFT_OVERRIDE = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE language>
<language name="Swift" version="999" kateversion="5.0" section="Sources" extensions="*.swift" priority="99">
  <highlighting>
    <contexts><context attribute="Alert" lineEndContext="#stay" name="Normal"/></contexts>
    <itemDatas><itemData name="Alert" defStyleNum="dsAlert"/></itemDatas>
  </highlighting>
</language>
"""


def test_the_users_syntax_files_locale_and_threads_change_nothing(sitegen_bin, tmp_path):
    site = make_site(tmp_path, sitegen_bin, code=True)
    build(sitegen_bin, site, tmp_path / "ref", threads=1)
    reference = digest(tmp_path / "ref")
    assert 'class="kw"' in (tmp_path / "ref" / "notes" / "code" / "index.html").read_text()
    data = tmp_path / "xdg"
    for folder in ("org.kde.syntax-highlighting/syntax", "katepart5/syntax"):
        (data / folder).mkdir(parents=True)
        (data / folder / "swift.xml").write_text(SWIFT_OVERRIDE)
    (data / "org.kde.syntax-highlighting" / "themes").mkdir()
    (data / "org.kde.syntax-highlighting" / "themes" / "github-light.theme").write_text(
        '{"metadata": {"name": "GitHub Light", "revision": 999}, "text-styles": {"Keyword": {"text-color": "#ff0000"}}, "editor-colors": {}}')
    runs = {
        "XDG_DATA_HOME": ({"XDG_DATA_HOME": str(data)}, 2),
        "XDG_DATA_DIRS": ({"XDG_DATA_DIRS": str(data), "HOME": str(tmp_path)}, 2),
        # Qt reads these itself (QLocale::system), installed locale or not.
        "Turkish locale, 4 threads": ({"LANG": "tr_TR.UTF-8", "LC_ALL": "tr_TR.UTF-8"}, 4),
        "C locale": ({"LANG": "C", "LC_ALL": "C"}, 1),
    }
    for name, (env, threads) in runs.items():
        out = tmp_path / re.sub(r"\W", "", name)
        build(sitegen_bin, site, out, env=env, threads=threads)
        other = digest(out)
        differ = sorted(k for k in reference.keys() | other.keys() if reference.get(k) != other.get(k))
        assert not differ, f"{name}: {differ}"


# --------------------------------------------------------------------------- in Chromium


def set_scheme(driver, scheme: str) -> None:
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})


def test_line_numbers_are_not_copied_and_the_dark_theme_applies(browser, base_url, site_dir):
    """The example's Swift note (on the luffy bounty's page): copying the block gives the code
    alone, the marked line has a background of its own, and each scheme its theme's colours."""
    source = (Path(__file__).resolve().parent.parent / "content" / "notes" / "luffy.md").read_text()
    code = source.split("```swift {8} showLineNumbers\n")[1].split("```")[0]
    open_at(browser, base_url + "/bounties/luffy/", 1280)
    wait_for(browser, lambda d: d.execute_script("return !!document.querySelector('pre.code.numbered')"), message="no numbered block")
    copied = browser.execute_script("""
        const range = document.createRange();
        range.selectNodeContents(document.querySelector('pre.code'));
        const selection = getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        return selection.toString();""")
    assert copied == code.rstrip("\n"), "the copied text is the code, without line numbers"
    numbers = browser.execute_script(
        "return [...document.querySelectorAll('pre.code .line')].map(l => getComputedStyle(l, '::before').content)")
    assert numbers == ["counter(line)"] * code.count("\n")
    try:
        for scheme, background, keyword in (("light", "rgb(255, 255, 255)", "rgb(204, 55, 69)"),
                                            ("dark", "rgb(36, 41, 46)", "rgb(249, 117, 131)")):
            set_scheme(browser, scheme)
            styles = browser.execute_script("""
                const pre = document.querySelector('pre.code');
                return [getComputedStyle(pre).backgroundColor, getComputedStyle(pre.querySelector('.kw')).color,
                        getComputedStyle(pre.querySelector('.line.hl')).backgroundColor,
                        getComputedStyle(pre.querySelector('.line:not(.hl)')).backgroundColor];""")
            assert styles[:2] == [background, keyword], scheme
            assert styles[2] != styles[3] and styles[2] != background, f"{scheme}: the marked line looks like the others"
    finally:
        set_scheme(browser, "light")
