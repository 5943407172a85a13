"""The example site's bounty grid (/bounties/) and detail pages (/bounties/<slug>/) in real Chromium.

DOM contract:
  /bounties/: one `[data-layout="grid"]`; its children are cards with `data-item="<slug>"`, each
  holding `.card-media` (with the <img>) and `.card-text` (with `.card-title` and `.card-meta`).
  /bounties/<slug>/: the name in `.detail-name` (or <h1>), the bounty in `.detail-bounty`, and a
  close link `a.close` (or `[data-close]`) back to /bounties/.

Phone widths are loaded with mobile emulation (overlay scrollbars, viewport <meta> honoured), as on
a phone; desktop widths without it (classic 15 px scrollbars). See helpers.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from helpers import (
    approx, assert_no_horizontal_scroll, child_rects, columns, computed_style,
    fmt, http_get, is_identity_transform, page_layout_shift,
    animation_disabled, load_all_images, open_at, overlapping_pairs, query_rects, record_samples,
    set_reduced_motion, viewport, WAIT, wait_for,
)

GRID = '[data-layout="grid"]'
CARD = f'{GRID} > [data-item]'
EXPECTED_ORDER = ["luffy", "zoro", "robin", "sanji", "franky", "brook", "nami", "chopper"]
SPACING = 10.0          # column gap, px
MEDIA_RATIO = 10 / 7    # .card-media height / width
TEXT_HEIGHT = 65.0      # .card-text height, px

# Numbers as written on the page: 300,000,000 or 50 (a bare run of 4+ digits is a formatting bug).
NUMBER_RE = re.compile(r"\d[\d,]*")
GROUPED_RE = re.compile(r"^\d{1,3}(,\d{3})*$")


def grid_url(base_url: str) -> str:
    return base_url + "/bounties/"


def is_phone(width: int) -> bool:
    return width < 768


def card_parts(driver) -> list[dict]:
    """Per card: its rect and those of its .card-media, .card-text (document coordinates)."""
    return driver.execute_script("""
        const rect = el => { if (!el) return null; const r = el.getBoundingClientRect();
          return {left: r.left + scrollX, top: r.top + scrollY, width: r.width, height: r.height,
                  right: r.right + scrollX, bottom: r.bottom + scrollY}; };
        return [...document.querySelectorAll(arguments[0])].map(c => ({
          item: c.getAttribute('data-item'), card: rect(c),
          media: rect(c.querySelector('.card-media')), text: rect(c.querySelector('.card-text')),
          mediaHasImg: !!(c.querySelector('.card-media img')),
        }));
    """, CARD)


def open_grid(browser, base_url, width, *, mobile=None):
    open_at(browser, grid_url(base_url), width, mobile=is_phone(width) if mobile is None else mobile)
    n = browser.execute_script(f"return document.querySelectorAll('{GRID}').length")
    assert n == 1, f"expected exactly one {GRID} on /bounties/, found {n}"


def assert_contract_structure(parts, children):
    assert children, f"{GRID} has no children"
    missing = [i for i, c in enumerate(children) if not c["item"]]
    assert not missing, f"grid children without data-item at positions {missing}"
    for p in parts:
        assert p["media"] is not None, f"card {p['item']}: no .card-media"
        assert p["text"] is not None, f"card {p['item']}: no .card-text"
        assert p["mediaHasImg"], f"card {p['item']}: .card-media holds no <img>"


def assert_media_ratio(parts, width):
    for p in parts:
        m = p["media"]
        want = m["width"] * MEDIA_RATIO
        assert approx(m["height"], want, 1.0), (
            f"{width}px, card {p['item']}: .card-media is {m['width']:.2f}x{m['height']:.2f}, "
            f"height should be width*10/7 = {want:.2f} (±1)")


# --------------------------------------------------------------------------- grid geometry


def test_grid_geometry_phone_375(browser, base_url):
    width = 375
    open_grid(browser, base_url, width)
    v = viewport(browser)
    assert v["innerWidth"] == width, f"innerWidth {v['innerWidth']} != {width} (layout viewport widened?)"
    grid = query_rects(browser, GRID)[0]
    W = grid["width"]
    assert approx(W, width, 1.0), f"grid width {W} should span the {width}px viewport (±1)"
    assert approx(W, v["clientWidth"], 1.0), f"grid width {W} != documentElement.clientWidth {v['clientWidth']}"

    children = child_rects(browser, GRID)
    parts = card_parts(browser)
    assert_contract_structure(parts, children)
    cols = columns([p["card"] for p in parts])
    assert len(cols) == 2, f"expected 2 columns at {width}px, card lefts are {cols}"

    want_w = (W - SPACING) / 2
    for p in parts:
        c = p["card"]
        assert approx(c["width"], want_w, 0.5), f"card {p['item']} width {c['width']:.2f}, want {want_w:.2f} (±0.5)"

    # Horizontal gap between the two columns, measured per row.
    rows: dict[float, list[dict]] = {}
    for p in parts:
        rows.setdefault(round(p["card"]["top"]), []).append(p["card"])
    for top, cards in rows.items():
        if len(cards) == 2:
            a, b = sorted(cards, key=lambda r: r["left"])
            gap = b["left"] - a["right"]
            assert approx(gap, SPACING, 0.5), f"row at y={top}: column gap {gap:.2f}, want {SPACING} (±0.5)"
    assert any(len(c) == 2 for c in rows.values()), "no row holds two cards"

    assert_media_ratio(parts, width)
    want_h = want_w * MEDIA_RATIO + TEXT_HEIGHT  # 325.71 at 375
    for p in parts:
        t = p["text"]
        assert approx(t["height"], TEXT_HEIGHT, 0.5), f"card {p['item']}: .card-text height {t['height']:.2f}, want 65 (±0.5)"
        assert approx(p["card"]["height"], want_h, 1.0), (
            f"card {p['item']}: height {p['card']['height']:.2f}, want {want_h:.2f} (±1)")
    assert approx(want_h, 325.7, 1.0)  # the contract's number at 375 px
    assert_no_horizontal_scroll(browser, width)


def test_grid_geometry_desktop_1280(browser, base_url):
    width = 1280
    open_grid(browser, base_url, width)
    parts = card_parts(browser)
    assert_contract_structure(parts, child_rects(browser, GRID))
    cols = columns([p["card"] for p in parts])
    assert len(cols) == 4, f"expected 4 columns at {width}px, card lefts are {cols}"
    assert_media_ratio(parts, width)
    assert_no_horizontal_scroll(browser, width)


SWEEP = [(w, "desktop") for w in (320, 360, 414, 768, 1024, 1440)] + \
        [(w, "phone") for w in (320, 360, 414)]


@pytest.mark.parametrize("width,mode", SWEEP, ids=[f"{w}-{m}" for w, m in SWEEP])
def test_grid_no_overflow_no_overlap(browser, base_url, width, mode):
    open_grid(browser, base_url, width, mobile=(mode == "phone"))
    assert_no_horizontal_scroll(browser, width)
    parts = card_parts(browser)
    assert len(parts) >= 2, f"expected cards in the grid, found {len(parts)}"
    cards = [p["card"] for p in parts]
    pairs = overlapping_pairs(cards)
    assert not pairs, f"{width}px: overlapping cards " + ", ".join(
        f"{parts[i]['item']}/{parts[j]['item']} {fmt(cards[i])} {fmt(cards[j])}" for i, j in pairs)
    client = viewport(browser)["clientWidth"]
    outside = [p["item"] for p in parts if p["card"]["right"] > client + 0.5 or p["card"]["left"] < -0.5]
    assert not outside, f"{width}px: cards outside the {client}px layout width: {outside}"
    for p in parts:
        assert p["card"]["width"] > 0 and p["card"]["height"] > 0, f"card {p['item']} is empty: {p['card']}"


# --------------------------------------------------------------------------- order and text


def test_order_and_bounty_text(browser, base_url):
    open_grid(browser, base_url, 1280)
    items = browser.execute_script(
        f"return [...document.querySelectorAll('{CARD}')].map(c => c.getAttribute('data-item'))")
    assert items == EXPECTED_ORDER, f"cards in DOM order {items}, want {EXPECTED_ORDER}"
    metas = browser.execute_script(f"""
        return [...document.querySelectorAll('{CARD}')].map(c => {{
          const m = c.querySelector('.card-meta'); return m ? m.textContent : null; }})""")
    assert None not in metas, f"cards without .card-meta: {metas}"
    bounties = []
    for item, text in zip(items, metas):
        nums = NUMBER_RE.findall(text)
        assert len(nums) == 1, f"card {item}: .card-meta {text!r} should hold one number"
        assert GROUPED_RE.match(nums[0]), f"card {item}: {nums[0]!r} lacks thousands separators"
        bounties.append(int(nums[0].replace(",", "")))
    assert "300,000,000" in metas[0], f"first card's bounty: {metas[0]!r}, want 300,000,000"
    assert NUMBER_RE.findall(metas[-1]) == ["50"], f"last card's bounty: {metas[-1]!r}, want 50"
    assert bounties == sorted(bounties, reverse=True), f"bounties not highest first: {bounties}"


# --------------------------------------------------------------------------- images


@pytest.mark.parametrize("width", [375, 1280])
def test_images_sized_described_loaded(browser, base_url, width):
    open_grid(browser, base_url, width)
    before = card_parts(browser)
    imgs = load_all_images(browser)
    assert imgs, "no <img> on /bounties/"
    problems = []
    for im in imgs:
        name = im["src"].rsplit("/", 1)[-1]
        for attr in ("width", "height"):
            val = im[attr]
            if val is None or not re.fullmatch(r"\d+", val.strip()) or int(val) <= 0:
                problems.append(f"{name}: {attr} attribute is {val!r}")
        if not (im["alt"] or "").strip():
            problems.append(f"{name}: empty or missing alt")
        if not im["complete"] or im["naturalWidth"] <= 0:
            problems.append(f"{name}: not loaded (complete={im['complete']}, naturalWidth={im['naturalWidth']})")
    assert not problems, "\n".join(problems)
    # The image box has its final size before the image arrives.
    after = card_parts(browser)
    for b, a in zip(before, after):
        for key in ("width", "height"):
            assert approx(a["media"][key], b["media"][key], 0.5), (
                f"card {a['item']}: .card-media {key} changed from {b['media'][key]} to {a['media'][key]} on image load")


@pytest.mark.parametrize("width", [375, 1280])
def test_no_layout_shift(browser, base_url, width):
    open_grid(browser, base_url, width)
    res = page_layout_shift(browser, settle_ms=500)
    assert res["cls"] == 0, f"{width}px: cumulative layout shift {res['cls']:.5f}: {fmt(res['entries'])}"


# --------------------------------------------------------------------------- detail pages


@pytest.fixture(scope="module")
def card_links(browser, base_url):
    """{slug: {"href": resolved link, "name": card title, "meta": card meta}} from /bounties/."""
    open_grid(browser, base_url, 1280)
    return browser.execute_script(f"""
        const out = {{}};
        for (const c of document.querySelectorAll('{CARD}')) {{
          const a = c.closest('a[href]') || c.querySelector('a[href]');
          const t = c.querySelector('.card-title'), m = c.querySelector('.card-meta');
          out[c.getAttribute('data-item')] = {{href: a ? a.href : null,
            name: t ? t.textContent.trim() : null, meta: m ? m.textContent.trim() : null}};
        }}
        return out;""")


def close_link_href(browser):
    return browser.execute_script("""
        const a = document.querySelector('a.close, [data-close]');
        if (!a) return null;
        const h = a.getAttribute('href') ?? a.getAttribute('data-close');
        return h === null ? '' : new URL(h, location.href).href;""")


@pytest.mark.parametrize("slug", EXPECTED_ORDER)
def test_card_links_to_detail_page(browser, base_url, card_links, slug):
    assert slug in card_links, f"no card with data-item={slug!r}; cards: {list(card_links)}"
    card = card_links[slug]
    assert card["href"], f"card {slug}: no <a href> inside or around it"
    assert card["name"], f"card {slug}: empty .card-title"
    want_path = f"/bounties/{slug}/"
    assert urlsplit(card["href"]).path == want_path, f"card {slug} links to {card['href']}, want {want_path}"
    assert urlsplit(card["href"]).netloc == urlsplit(base_url).netloc, f"card {slug} links off-site: {card['href']}"
    status, _ = http_get(card["href"])
    assert status == 200, f"GET {card['href']} -> {status}"

    open_at(browser, card["href"], 1280)
    detail = browser.execute_script("""
        const n = document.querySelector('.detail-name') || document.querySelector('h1');
        const b = document.querySelector('.detail-bounty');
        return {name: n ? n.textContent.trim() : null, bounty: b ? b.textContent.trim() : null};""")
    assert detail["name"] is not None, f"{want_path}: no .detail-name or <h1>"
    assert card["name"] in detail["name"], f"{want_path}: name {detail['name']!r}, want {card['name']!r}"
    assert detail["bounty"] is not None, f"{want_path}: no .detail-bounty"
    card_nums = NUMBER_RE.findall(card["meta"] or "")
    nums = NUMBER_RE.findall(detail["bounty"])
    assert len(nums) == 1 and GROUPED_RE.match(nums[0]), f"{want_path}: bounty {detail['bounty']!r} not one grouped number"
    assert nums == card_nums, f"{want_path}: bounty {nums} differs from the card's {card_nums}"
    close = close_link_href(browser)
    assert close is not None, f"{want_path}: no a.close or [data-close]"
    assert urlsplit(close).path == "/bounties/" and urlsplit(close).netloc == urlsplit(base_url).netloc, \
        f"{want_path}: close link resolves to {close!r}, want {urljoin(base_url, '/bounties/')}"


ANIM_TIMES = [0, 100, 300, 600, 1500]


def _name_selector(browser):
    return ".detail-name" if browser.execute_script("return !!document.querySelector('.detail-name')") else "h1"


@pytest.mark.parametrize("mode", ["phone", "desktop"])
def test_detail_entrance_animation_never_scrolls_sideways(browser, base_url, mode):
    width = 375
    url = base_url + "/bounties/luffy/"
    samples = record_samples(browser, url, width, ANIM_TIMES, [".detail-name", "h1", ".detail-bounty"],
                             mobile=(mode == "phone"))
    bad = [s for s in samples
           if s["scrollWidth"] > s["clientWidth"] or s["innerWidth"] > width or s["scrollWidth"] > width]
    assert not bad, f"/bounties/luffy/ at {width}px ({mode}) scrolls sideways during the entrance animation: {fmt(bad)}"
    sel = _name_selector(browser)
    last = samples[-1]
    assert last["label"] == 1500 and last["t"] >= 1500, f"last sample taken too early: {fmt(last)}"
    st = last["styles"][sel]
    assert st is not None, f"no {sel} on /bounties/luffy/"
    assert float(st["opacity"]) == 1.0, f"{sel} opacity after 1.5 s is {st['opacity']}"
    assert is_identity_transform(st["transform"]), f"{sel} transform after 1.5 s is {st['transform']}"
    assert_no_horizontal_scroll(browser, width)


def test_detail_reduced_motion(browser, base_url):
    width = 375
    url = base_url + "/bounties/luffy/"
    set_reduced_motion(browser, True)
    try:
        samples = record_samples(browser, url, width, [0], [".detail-name", "h1", ".detail-bounty"], mobile=True)
        assert browser.execute_script("return matchMedia('(prefers-reduced-motion: reduce)').matches"), \
            "reduced-motion emulation did not take effect"
        sel = _name_selector(browser)
        first = samples[0]
        for s in (sel, ".detail-bounty"):
            st = first["styles"][s]
            assert st is not None, f"no {s} on /bounties/luffy/"
            style = {"animation-name": st["animationName"], "animation-duration": st["animationDuration"]}
            assert animation_disabled(style), f"{s} still animates under reduced motion: {style}"
            assert float(st["opacity"]) == 1.0, f"{s} not visible immediately under reduced motion: opacity {st['opacity']}"
            now = computed_style(browser, s, "opacity", "visibility", "transform")
            assert float(now["opacity"]) == 1.0 and now["visibility"] == "visible", f"{s}: {now}"
            assert is_identity_transform(now["transform"]), f"{s} transform under reduced motion: {now['transform']}"
        assert_no_horizontal_scroll(browser, width)
    finally:
        set_reduced_motion(browser, False)


# --------------------------------------------------------------------------- the sheet is modal (issue 35)

SHEET_JS = """
const sheet = document.querySelector('.bounty-sheet');
const r = sheet.getBoundingClientRect();
const header = [...document.querySelectorAll('.site-header a, .site-footer a')].map(a => {
  const b = a.getBoundingClientRect();
  const hit = b.width && b.height ? document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2) : null;
  return {text: a.textContent.trim(), shown: a.checkVisibility({visibilityProperty: true}) && !!hit && a.contains(hit)};
});
return {top: r.top, left: r.left, right: r.right, innerWidth: innerWidth, headerShown: header.filter(h => h.shown).map(h => h.text)};
"""


@pytest.mark.parametrize("width", [375, 1280])
def test_detail_sheet_covers_the_site_header(browser, base_url, width):
    """Presented modally (DESIGN §2.1), the sheet covers the screen it came from, site header
    included: it starts at the top of the window, and what is under it can be neither seen nor
    reached with Tab; its close control stays, and Escape closes it too."""
    open_at(browser, base_url + "/bounties/zoro/", width, mobile=width < 768)
    browser.execute_script("for (const a of document.getAnimations()) a.finish()")
    s = browser.execute_script(SHEET_JS)
    assert s["top"] <= 16, f"{width}px: the sheet starts {s['top']:.0f} px down, under the site header: {fmt(s)}"
    assert not s["headerShown"], f"{width}px: site header/footer links still shown beside the sheet: {s['headerShown']}"
    stops = []
    for _ in range(6):
        ActionChains(browser).send_keys(Keys.TAB).perform()
        stops.append(browser.execute_script(
            "const a = document.activeElement; return a.closest('.site-header, .site-footer') ? a.textContent : null"))
    assert not any(stops), f"{width}px: Tab reaches the site header under the sheet: {[s for s in stops if s]}"
    assert urlsplit(close_link_href(browser)).path == "/bounties/"
    ActionChains(browser).send_keys(Keys.ESCAPE).perform()
    wait_for(browser, lambda d: urlsplit(d.current_url).path == "/bounties/", WAIT,
             lambda: f"Escape did not close the sheet ({browser.current_url})")


# --------------------------------------------------------------------------- names as the data writes them (issue 50)


def test_names_as_the_data_writes_them(browser, base_url):
    """A name reads the same on the grid, on its sheet and in the sheet's neighbour links: as the
    data writes it (lower case), not capitalised on one screen only."""
    data = Path(__file__).resolve().parent.parent / "content" / "bounties" / "bounties.json"
    names = {r["name"] for r in json.loads(data.read_text(encoding="utf-8"))}
    open_grid(browser, base_url, 375)
    grid = browser.execute_script(f"return [...document.querySelectorAll('{CARD} .card-title')].map(t => t.innerText.trim())")
    assert set(grid) == names, f"grid names {grid}, data {sorted(names)}"
    for slug in ("zoro", "chopper"):
        open_at(browser, base_url + f"/bounties/{slug}/", 375, mobile=True)
        browser.execute_script("for (const a of document.getAnimations()) a.finish()")
        shown = browser.execute_script("""
            return {name: document.querySelector('.detail-name').innerText.trim(),
                    neighbours: [...document.querySelectorAll('.bounty-neighbours a')].map(a => a.innerText.replace(/[←→]/g, '').trim())};""")
        assert shown["name"] == slug, f"/bounties/{slug}/ shows the name as {shown['name']!r}, the data and the grid {slug!r}"
        assert set(shown["neighbours"]) <= names, f"/bounties/{slug}/: neighbour names {shown['neighbours']} not as the data writes them"
