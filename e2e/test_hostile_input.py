"""Hostile input that once crashed a build, published a draft or could run a script (issue 47).

- Numbers past 64 bits (`1e19`, `-1e19`, `1e300`, a 20-digit integer, the same as text) formatted
  with `format: thousands` build and print their digits grouped; they used to stop the build
  with "Double value cannot be converted to Int64" (SIGILL, exit 132).
- Front matter with classic-Mac line endings (a lone CR) is front matter: its `draft: true`
  keeps the note out; it used to be published, its front matter shown as a heading.
- A title built to break out of any attribute (`x autofocus tabindex=0 onfocus=alert(…)`, quotes,
  `<script>`, a `javascript:` URL) printed in every place a template may print a value — content,
  quoted attributes of both kinds, URLs, `<title>`, `<textarea>`, `style` — runs no
  script in Chromium, focused and clicked. The places where no escaping could make it safe
  (unquoted values, attribute names, comments, `srcdoc`, `on…` handlers, `<script>`, `<style>`)
  are template errors: the cases
  `invalid-sites/template-*`.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from selenium.webdriver.common.by import By

from helpers import wait_for

SITE_YML = """title: Hostile
baseURL: https://example.org/
language: en
collections:
  things:
    title: Things
    data: things.json
    fields: { title: string }
    slug: { from: title }
    derived:
      grouped: { from: n, format: thousands }
    layout: { kind: list }
    detail: { template: thing, url: "/things/{slug}/" }
notes:
  collection: things
"""

THING = """{{<base}}
{{$title}}{{item.title}}{{/title}}
{{$content}}
<article class="{{item.title}}" title='{{item.title}}' data-x="{{item.title}}">
<h1 id="t">{{item.title}}</h1>
<p id="grouped">{{item.grouped}}</p>
<a id="link" href="{{item.title}}">{{item.title}}</a> <img alt="{{item.title}}" src="{{item.title}}">
<textarea>{{item.title}}</textarea><!-- a comment -->
<div id="styled" style="--x: {{item.title}}" tabindex="0">{{item.title}}</div>
<input id="field" value="{{item.title}}">
</article>
{{/content}}
{{/base}}
"""

PAYLOADS = [
    "x autofocus tabindex=0 onfocus=alert(document.domain)",
    "\"><script>alert(1)</script><b x=\"",
    "' onmouseover='alert(2)' x='",
    "javascript:alert(3)",
    "<img src=x onerror=alert(4)>",
    "&lt;script&gt;alert(5)&lt;/script&gt;",
]

# Installed before any page script: a call of any of these marks the page.
HOOK = """
window.__ran = [];
for (const name of ['alert', 'confirm', 'prompt', 'print']) {
  window[name] = (...args) => { window.__ran.push(name + ':' + args.join(',')); };
}
"""


SHAPE = """
const out = [];
for (const el of document.querySelectorAll('*')) {
  out.push(el.tagName + ' ' + Array.from(el.attributes, a => a.name).sort().join(' '));
}
return out;"""


def shape(browser) -> list[str]:
    """Each element of the page, in order, with the names of its attributes."""
    return browser.execute_script(SHAPE)


def build(sitegen_bin: Path, site: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.run([str(sitegen_bin), "build", "--source", str(site), "--output", str(site / "public")],
                          capture_output=True, timeout=120, env=env, text=True)


def make_site(root: Path, items: list[dict]) -> Path:
    site = root / "site"
    (site / "content" / "notes").mkdir(parents=True)
    (site / "templates").mkdir()
    (site / "site.yml").write_text(SITE_YML)
    (site / "templates" / "thing.mustache").write_text(THING)
    (site / "content" / "things.json").write_text(json.dumps(items))
    return site


def test_numbers_past_64_bits_are_grouped(sitegen_bin, tmp_path):
    # JSON keeps 18446744073709551617 as written; json.dumps of a float writes 1e+19.
    items = [{"title": "a", "n": 1e19}, {"title": "b", "n": -1e19}, {"title": "c", "n": 1e300},
             {"title": "d", "n": 18446744073709551617}, {"title": "e", "n": "10000000000000000000"},
             {"title": "f", "n": 1234.5}]
    site = make_site(tmp_path, items)
    r = build(sitegen_bin, site)
    assert r.returncode == 0, r.stderr

    def grouped(slug: str) -> str:
        html = (site / "public" / "things" / slug / "index.html").read_text()
        return html.split('<p id="grouped">', 1)[1].split("</p>", 1)[0]

    assert grouped("a") == "10,000,000,000,000,000,000"
    assert grouped("b") == "-10,000,000,000,000,000,000"
    assert grouped("c") == "1" + ",000" * 100
    assert grouped("d") == "18,446,744,073,709,552,000"
    assert grouped("e") == "10,000,000,000,000,000,000"
    assert grouped("f") == "1,234.5"


def test_front_matter_with_lone_cr_line_ends_keeps_a_draft_out(sitegen_bin, tmp_path):
    site = make_site(tmp_path, [{"title": "a", "n": 1}])
    notes = site / "content" / "notes"
    (notes / "draft.md").write_bytes(b"---\rtitle: Draft\rdraft: true\r---\rSecret plans.\r")
    (notes / "mac.md").write_bytes(b"---\rtitle: Classic\rtags: [mac]\r---\r# Heading\r\rBody text.\r")
    r = build(sitegen_bin, site)
    assert r.returncode == 0, r.stderr
    public = site / "public"
    assert not (public / "notes" / "draft").exists()
    for page in public.rglob("*.html"):
        assert "Secret plans" not in page.read_text(), page
    mac = (public / "notes" / "mac" / "index.html").read_text()
    assert "<title>Classic" in mac
    assert "title: Classic" not in mac and "draft" not in mac
    assert (public / "tags" / "mac" / "index.html").exists()


def test_a_hostile_title_runs_no_script_in_any_place_a_template_may_print_it(sitegen_bin, tmp_path, browser):
    items = [{"title": p, "slug": f"p{i}", "n": i} for i, p in enumerate(PAYLOADS)]
    items.append({"title": "plain", "slug": "plain", "n": 0})
    site = make_site(tmp_path, items)
    yml = (site / "site.yml").read_text().replace("slug: { from: title }", "slug: slug")
    (site / "site.yml").write_text(yml.replace("fields: { title: string }", "fields: { title: string, slug: string }"))
    r = build(sitegen_bin, site)
    assert r.returncode == 0, r.stderr
    hook = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HOOK})["identifier"]
    try:
        browser.get((site / "public" / "things" / "plain" / "index.html").as_uri())
        plain_shape = shape(browser)
        for i, payload in enumerate(PAYLOADS):
            page = site / "public" / "things" / f"p{i}" / "index.html"
            browser.get(page.as_uri())
            wait_for(browser, lambda d: d.execute_script("return document.readyState") == "complete",
                     message=f"page p{i} did not load")
            assert browser.find_element(By.ID, "t").text == payload
            assert browser.find_element(By.ID, "field").get_attribute("value") == payload
            for target in ("field", "styled", "link", "t"):
                element = browser.find_element(By.ID, target)
                browser.execute_script("arguments[0].focus(); arguments[0].dispatchEvent("
                                       "new MouseEvent('mouseover', {bubbles: true}))", element)
            browser.execute_script("document.getElementById('link').addEventListener('click', "
                                   "e => e.preventDefault()); document.getElementById('link').click()")
            # Focus and mouse events are dispatched synchronously; a timer or load handler the
            # payload might have set would have run by the time a later frame is painted.
            browser.execute_async_script("requestAnimationFrame(() => requestAnimationFrame(arguments[0]))")
            assert browser.execute_script("return window.__ran") == [], payload
            # No element or attribute came from the data: the page has the elements and attributes
            # of the same page with a plain title.
            assert shape(browser) == plain_shape, payload
            assert browser.find_element(By.ID, "link").get_attribute("href") != "javascript:alert(3)"
    finally:
        browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": hook})
