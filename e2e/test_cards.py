"""Every card shows its title, whatever the card holds (issue 16).

A generated site has one collection per layout kind (grid, masonry, list) × with or without an
image × with or without a subtitle, 7 items each.  In headless Chromium at 375 and 1280 px, every
card's title has a box, is scrolled into view, and is visible there: not clipped away by a
zero-height or overflow-hidden ancestor, not hidden by CSS, inside the viewport.
"""

from __future__ import annotations

import functools
import http.server
import json
import struct
import subprocess
import threading
import zlib
from pathlib import Path

import pytest

from conftest import start_chrome
from helpers import fmt, open_at

LAYOUTS = ["grid", "masonry", "list"]
WIDTHS = [375, 1280]
ITEMS = 7


def png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A solid-colour PNG, made here so the test needs no image library."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    row = b"\x00" + bytes(rgb) * width
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(row * height)) + chunk(b"IEND", b""))


def variants():
    for layout in LAYOUTS:
        for image in (True, False):
            for subtitle in (True, False):
                yield f"{layout}-{'img' if image else 'noimg'}-{'sub' if subtitle else 'nosub'}", layout, image, subtitle


def site_yml() -> str:
    out = ["title: Cards", "baseURL: https://example.org/", "collections:"]
    for name, layout, image, subtitle in variants():
        card = ["title: name"] + (["subtitle: role"] if subtitle else []) + (["image: picture"] if image else [])
        out += [f"  {name}:", "    data: people.json", "    slug: name",
                "    fields: { name: string, role: string }",
                f"    card: {{ {', '.join(card)} }}",
                f"    layout: {{ kind: {layout} }}", f"    list: {{ url: /{name}/ }}"]
        if image:
            out += ["    images: { fields: picture }"]
    return "\n".join(out) + "\n"


@pytest.fixture(scope="module")
def cards_site(sitegen_bin, tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("cards")
    (root / "content" / "pictures").mkdir(parents=True)
    people = [{"name": f"Person {i} with a long family name", "role": f"Role number {i}",
               "picture": f"pictures/p{i}.png"} for i in range(ITEMS)]
    (root / "content" / "people.json").write_text(json.dumps(people), encoding="utf-8")
    for i in range(ITEMS):
        (root / "content" / "pictures" / f"p{i}.png").write_bytes(png(60 + 20 * i, 80, (40 * i % 255, 120, 200)))
    (root / "site.yml").write_text(site_yml(), encoding="utf-8")
    out = root / "public"
    proc = subprocess.run([str(sitegen_bin), "build", "--source", str(root), "--output", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return out


@pytest.fixture(scope="module")
def cards_url(cards_site):
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(cards_site))
    handler.func.log_message = lambda *a: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


# For each card: its title scrolled into view, then the part of the title's box that survives every
# ancestor that clips (overflow other than visible) and the viewport.
TITLES_JS = """
const out = [];
for (const card of document.querySelectorAll('main .card')) {
  const t = card.querySelector('.card-title');
  if (!t) { out.push({item: card.dataset.item, problem: 'no .card-title'}); continue; }
  t.scrollIntoView({block: 'center', inline: 'nearest'});
  let r = t.getBoundingClientRect();
  let box = {l: r.left, t: r.top, r: r.right, b: r.bottom};
  for (let a = t.parentElement; a && a !== document.documentElement; a = a.parentElement) {
    const cs = getComputedStyle(a);
    if (cs.overflowX !== 'visible' || cs.overflowY !== 'visible') {
      const ar = a.getBoundingClientRect();
      box = {l: Math.max(box.l, ar.left), t: Math.max(box.t, ar.top), r: Math.min(box.r, ar.right), b: Math.min(box.b, ar.bottom)};
    }
  }
  box = {l: Math.max(box.l, 0), t: Math.max(box.t, 0), r: Math.min(box.r, innerWidth), b: Math.min(box.b, innerHeight)};
  out.push({item: card.dataset.item, text: t.textContent, w: r.width, h: r.height,
            shownW: Math.max(0, box.r - box.l), shownH: Math.max(0, box.b - box.t),
            css: t.checkVisibility({opacityProperty: true, visibilityProperty: true})});
}
return out;
"""


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", [v[0] for v in variants()])
def test_every_card_title_is_visible(browser, cards_url, name, width):
    open_at(browser, f"{cards_url}/{name}/", width, mobile=width < 768)
    titles = browser.execute_script(TITLES_JS)
    assert len(titles) == ITEMS, fmt(titles)
    bad = [t for t in titles if t.get("problem") or not t["text"].strip() or not t["css"]
           or t["w"] <= 0 or t["h"] <= 0 or t["shownH"] < 0.9 * t["h"] or t["shownW"] <= 0]
    assert not bad, f"/{name}/ at {width}px: titles not visible:\n{fmt(bad)}"
