"""The home page (/): one tile per app, in real Chromium.

Expectations come from site.yml: every collection without `menu: false`, in file order, gets a tile
with its `icon` (an image that loads, shown at 72 × 72 px), its `title`, its one-line
`description` and a link to its list URL (`list.url`, default /<name>/).  The tiles form a grid
(several per row: at least 2 at 375 px, at least 4 at 1280 px) and the page never scrolls sideways.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpers import assert_no_horizontal_scroll, distinct, fmt, open_at

REPO = Path(__file__).resolve().parent.parent


def _collections(text: str) -> dict[str, dict]:
    """site.yml's collections → {name: {title, description, icon, menu, url}}, read line by line
    (two-space names, four-space keys): PyYAML rejects site.yml's flow mappings with `string?`
    values, which sitegen's YAML 1.2 parser accepts."""
    out: dict[str, dict] = {}
    inside, name = False, None
    for line in text.splitlines():
        if re.match(r"^\S", line):
            inside = line.startswith("collections:")
            continue
        if not inside:
            continue
        if m := re.match(r"^  ([\w-]+):\s*(#.*)?$", line):
            name = m.group(1)
            out[name] = {"title": None, "description": None, "icon": None, "menu": True, "url": None}
        elif name and (m := re.match(r"^    (title|description|icon|menu):\s*(.*?)\s*(#.*)?$", line)):
            value = m.group(2)
            out[name][m.group(1)] = value != "false" if m.group(1) == "menu" else value
        elif name and (m := re.match(r"^    list:.*\burl:\s*([^,}\s]+)", line)):
            out[name]["url"] = m.group(1)
    return out


APPS = [
    {"name": name, "title": c["title"], "description": c["description"], "icon": c["icon"],
     "url": c["url"] or f"/{name}/"}
    for name, c in _collections((REPO / "site.yml").read_text(encoding="utf-8")).items() if c["menu"] is not False
]

# A tile: the nearest <li> (or the link itself) around a link in <main> holding an icon image.
TILES_JS = """
const links = [...document.querySelectorAll('main a[href]')].filter(a => a.querySelector('img[src*="icons/"]'));
return links.map(a => {
  const tile = a.closest('li') || a, r = tile.getBoundingClientRect(), img = a.querySelector('img[src*="icons/"]');
  const ir = img.getBoundingClientRect();
  const texts = [...tile.querySelectorAll('*')].filter(e => !e.children.length).map(e => e.textContent.trim()).filter(Boolean);
  return {href: a.href, src: img.getAttribute('src'), complete: img.complete, natural: img.naturalWidth,
          iconWidth: ir.width, iconHeight: ir.height, texts, top: r.top + scrollY, left: r.left, width: r.width};
});
"""


def tiles(driver) -> list[dict]:
    return driver.execute_script(TILES_JS)


def test_site_yml_apps():
    assert [a["title"] for a in APPS] == ["현상금 목록", "사진", "포토 스트림", "미디어 트렌드", "일별 박스오피스"]
    assert all(a["icon"] and a["description"] for a in APPS)


@pytest.mark.parametrize("width", [375, 1280])
def test_one_tile_per_app(browser, base_url, width):
    open_at(browser, base_url + "/", width, mobile=width < 768)
    browser.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    got = tiles(browser)
    assert [t["href"] for t in got] == [base_url + a["url"] for a in APPS], fmt(got)
    for t, app in zip(got, APPS):
        assert t["src"].endswith(f"icons/{app['name']}.svg") and t["src"].endswith(app["icon"]), f"{app['name']}: icon {t['src']}"
        assert t["complete"] and t["natural"] > 0, f"{app['name']}: icon {t['src']} did not load"
        assert abs(t["iconWidth"] - 72) <= 0.5 and abs(t["iconHeight"] - 72) <= 0.5, \
            f"{app['name']}: icon shown at {t['iconWidth']}×{t['iconHeight']}, want 72×72"
        assert app["title"] in t["texts"], f"{app['name']}: tile texts {t['texts']} lack the name {app['title']!r}"
        assert app["description"] in t["texts"], f"{app['name']}: tile texts {t['texts']} lack {app['description']!r}"


@pytest.mark.parametrize("width,per_row", [(375, 2), (1280, 4)])
def test_tiles_form_a_grid(browser, base_url, width, per_row):
    open_at(browser, base_url + "/", width, mobile=width < 768)
    got = tiles(browser)
    rows = distinct(t["top"] for t in got)
    widest = max(sum(1 for t in got if abs(t["top"] - top) <= 0.5) for top in rows)
    assert widest >= per_row, f"{width}px: at most {widest} tiles share a row, want ≥ {per_row}: tops {[t['top'] for t in got]}"
    assert_no_horizontal_scroll(browser, width)


def test_no_horizontal_scroll_at_320(browser, base_url):
    open_at(browser, base_url + "/", 320, mobile=True)
    assert len(tiles(browser)) == len(APPS)
    assert_no_horizontal_scroll(browser, 320)
