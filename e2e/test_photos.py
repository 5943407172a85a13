"""The Unsplash-style photo browser (/photos/…) in real Chromium.

Expectations come from the data (content/photos/{photos,users,collections,topics}.json and the JPEG
sizes of content/photos/images/<id>.jpg, read from their JPEG headers and EXIF orientation by helpers.jpeg_upright_size) and the app's rules (DESIGN.md
§2.2, site.yml), never from sitegen's output:

* Feed /photos/: photos newest first (`created_at` descending). A Masonry.js shortest-column
  masonry: columns {0: 1, 768: 2, 1280: 3}, gap 8, insets top 8 / left 4 / bottom 8 / right 4,
  the PinterestLayout cell model sitegen documents (README "Masonry"): column width
  colw = (W − 4 − 4) / N for the list width W, each card sits in a cell with gap/2 = 4 px padding,
  so card width = colw − 8, card left = 4 + c × colw + 4, a column's bottom starts at the top
  inset 8, a card's top is its column's bottom + 4 and the column grows by card height + 8; photo
  height = card width × h / w.  Each card goes to the column whose bottom is lowest (leftmost on
  ties).  sitegen decides the placement at a breakpoint's narrowest width, so exact columns and tops
  are checked at 768 and 1280 px (the narrowest widths of their ranges); at 1024 px only that the
  cards form columns without overlaps or holes.  Each card links to /photos/view/#photo-<id>.
* A bottom tab bar (Photos /photos/, Search /search/; the current one aria-current="page") that
  hides while scrolling down and comes back when scrolling up; without JavaScript it stays.
* Pager /photos/view/: one `li.slide#photo-<id>` per photo in feed order, a horizontal CSS
  scroll-snap list (x mandatory), each slide filling the viewport; the address follows the photo
  shown (history.replaceState); tapping the photo toggles the info bar; Escape goes back (to the
  feed it was opened from, else to /photos/); the close control points at /photos/.
* A light page /photos/<id>/ per photo (the deep link without JavaScript): h1 = description, or
  alt_description when description is null; links to the pager, the author, topics, collections.
* /photos/collections/<id>/, /photos/users/<username>/, /photos/topics/<slug>/: exactly the photos
  of photos.json that belong there (collections ∋ id, user.username, topics ∋ slug), feed order.
"""

from __future__ import annotations

import json
import time
from datetime import datetime
from pathlib import Path

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from helpers import (
    open_nojs,
    jpeg_upright_size,
    assert_no_horizontal_scroll, fmt, http_get, open_at, overlapping_pairs, page_layout_shift, query_rects,
    WAIT, set_reduced_motion, wait_for,
)

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "content" / "photos"


def _load(name: str) -> list[dict]:
    return json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))


PHOTOS = _load("photos")
USERS = _load("users")
COLLECTIONS = _load("collections")
TOPICS = _load("topics")
FEED = sorted(PHOTOS, key=lambda p: datetime.fromisoformat(p["created_at"].replace("Z", "+00:00")), reverse=True)
FEED_IDS = [p["id"] for p in FEED]
SIZES = {p["id"]: jpeg_upright_size(DATA / "images" / f"{p['id']}.jpg") for p in PHOTOS}  # (w, h) as shown

LIST = '[data-layout="masonry"]'
CARD = f"{LIST} > [data-item]"
COLUMNS = {0: 1, 768: 2, 1280: 3}
GAP = 8.0
INSET_TOP, INSET_LEFT, INSET_BOTTOM, INSET_RIGHT = 8.0, 4.0, 8.0, 4.0
EPS = 0.5


def n_columns(width: int) -> int:
    return max(n for bp, n in COLUMNS.items() if width >= bp)


def is_phone(width: int) -> bool:
    return width < 768


def masonry(width_px: float, n: int) -> tuple[list[dict], float]:
    """Masonry.js shortest-column placement of FEED in a list `width_px` wide (list-relative
    rects, column index), and the list's height (longest column + bottom inset)."""
    colw = (width_px - INSET_LEFT - INSET_RIGHT) / n
    card_w = colw - GAP
    bottoms = [INSET_TOP] * n
    out = []
    for pid in FEED_IDS:
        w, h = SIZES[pid]
        card_h = card_w * h / w
        low = min(bottoms)
        c = next(i for i, b in enumerate(bottoms) if b <= low + 1e-9)   # leftmost on ties
        out.append({"item": pid, "column": c, "left": INSET_LEFT + c * colw + GAP / 2,
                    "top": bottoms[c] + GAP / 2, "width": card_w, "height": card_h})
        bottoms[c] += card_h + GAP
    return out, max(bottoms) + INSET_BOTTOM


def feed_cards(driver) -> tuple[dict, list[dict]]:
    box = query_rects(driver, LIST)
    assert len(box) == 1, f"expected one {LIST} on /photos/, found {len(box)}"
    cards = driver.execute_script("""
        const rect = el => { const r = el.getBoundingClientRect();
          return {left: r.left + scrollX, top: r.top + scrollY, width: r.width, height: r.height,
                  right: r.right + scrollX, bottom: r.bottom + scrollY}; };
        return [...document.querySelectorAll(arguments[0])].map(c => {
          const img = c.querySelector('img'), a = c.querySelector('a[href]');
          return {item: c.getAttribute('data-item'), card: rect(c), photo: img ? rect(img) : null,
                  href: a ? a.href : null};
        });""", CARD)
    return box[0], cards


def open_feed(driver, base_url, width, *, mobile=None):
    open_at(driver, base_url + "/photos/", width, mobile=is_phone(width) if mobile is None else mobile)


# --------------------------------------------------------------------------- feed


def test_feed_is_newest_first_and_links_to_the_pager(browser, base_url):
    assert len({p["created_at"] for p in PHOTOS}) == len(PHOTOS), "data: created_at ties"
    open_feed(browser, base_url, 375)
    _, cards = feed_cards(browser)
    assert [c["item"] for c in cards] == FEED_IDS, "feed is not ordered by created_at descending"
    for c in cards:
        assert c["href"] == f"{base_url}/photos/view/#photo-{c['item']}", f"card {c['item']} links to {c['href']}"


def test_one_column_on_a_phone(browser, base_url):
    open_feed(browser, base_url, 375)
    box, cards = feed_cards(browser)
    W = box["width"]
    card_w = (W - INSET_LEFT - INSET_RIGHT) - GAP
    want_left = box["left"] + INSET_LEFT + GAP / 2
    prev_bottom = None
    for k, c in enumerate(cards):
        r, pid = c["card"], c["item"]
        assert abs(r["left"] - want_left) <= EPS, f"375px: card {k} ({pid}) left {r['left']}, want {want_left}"
        assert abs(r["width"] - card_w) <= EPS, f"375px: card {k} ({pid}) width {r['width']}, want {card_w}"
        w, h = SIZES[pid]
        assert abs(c["photo"]["height"] - card_w * h / w) <= EPS, (
            f"375px: card {k} ({pid}) photo {c['photo']['height']:.3f} px tall, want {card_w * h / w:.3f} ({w}×{h})")
        want_top = box["top"] + INSET_TOP + GAP / 2 if prev_bottom is None else prev_bottom + GAP
        assert abs(r["top"] - want_top) <= EPS, f"375px: card {k} ({pid}) top {r['top']:.3f}, want {want_top:.3f}"
        prev_bottom = r["bottom"]


@pytest.mark.parametrize("width,mobile", [(768, False), (768, True), (1280, False)],
                         ids=["768-desktop", "768-tablet", "1280-desktop"])
def test_shortest_column_masonry(browser, base_url, width, mobile):
    open_feed(browser, base_url, width, mobile=mobile)
    box, cards = feed_cards(browser)
    assert [c["item"] for c in cards] == FEED_IDS, "DOM order is not the feed order"
    want, want_height = masonry(box["width"], n_columns(width))
    lefts = sorted({round(w["left"], 3) for w in want})
    for k, (c, w) in enumerate(zip(cards, want)):
        r = c["card"]
        got_col = min(range(len(lefts)), key=lambda i: abs(r["left"] - box["left"] - lefts[i]))
        where = f"{width}px (list {box['width']} px): card {k} ({w['item']})"
        assert got_col == w["column"], f"{where} is in column {got_col}, Masonry.js puts it in {w['column']}"
        assert abs(r["left"] - box["left"] - w["left"]) <= EPS, f"{where} left {r['left'] - box['left']:.3f}, want {w['left']:.3f}"
        assert abs(r["top"] - box["top"] - w["top"]) <= EPS, f"{where} top {r['top'] - box['top']:.3f}, want {w['top']:.3f}"
        assert abs(r["width"] - w["width"]) <= EPS, f"{where} width {r['width']:.3f}, want {w['width']:.3f}"
        assert abs(c["photo"]["height"] - w["height"]) <= EPS, f"{where} photo height {c['photo']['height']:.3f}, want {w['height']:.3f}"
    assert abs(box["height"] - want_height) <= EPS, f"{width}px: list height {box['height']:.3f}, want {want_height:.3f}"
    assert not overlapping_pairs([c["card"] for c in cards])


def test_two_columns_at_1024_stack_without_holes(browser, base_url):
    open_feed(browser, base_url, 1024)
    box, cards = feed_cards(browser)
    n = n_columns(1024)
    colw = (box["width"] - INSET_LEFT - INSET_RIGHT) / n
    col_lefts = [box["left"] + INSET_LEFT + c * colw + GAP / 2 for c in range(n)]
    by_col: dict[int, list[dict]] = {c: [] for c in range(n)}
    for c in cards:
        r = c["card"]
        col = next((i for i, x in enumerate(col_lefts) if abs(r["left"] - x) <= EPS), None)
        assert col is not None, f"1024px: card {c['item']} left {r['left']:.3f} is in no column {col_lefts}"
        assert abs(r["width"] - (colw - GAP)) <= EPS, f"1024px: card {c['item']} width {r['width']:.3f}, want {colw - GAP:.3f}"
        by_col[col].append(r)
    for col, rects in by_col.items():
        assert rects, f"1024px: column {col} is empty"
        rects.sort(key=lambda r: r["top"])
        want = box["top"] + INSET_TOP + GAP / 2
        for r in rects:
            assert abs(r["top"] - want) <= EPS, f"1024px: column {col}: a card starts at {r['top']:.3f}, want {want:.3f} (hole or overlap)"
            want = r["bottom"] + GAP
    pairs = overlapping_pairs([c["card"] for c in cards])
    assert not pairs, f"1024px: overlapping cards {pairs}"


@pytest.mark.parametrize("width", [320, 375, 768, 1024, 1280])
def test_no_overlap_no_horizontal_scroll(browser, base_url, width):
    open_feed(browser, base_url, width)
    box, cards = feed_cards(browser)
    assert len(cards) == len(PHOTOS)
    rects = [c["card"] for c in cards]
    pairs = overlapping_pairs(rects)
    assert not pairs, f"{width}px: overlapping cards " + ", ".join(f"{cards[i]['item']}/{cards[j]['item']}" for i, j in pairs)
    for c in cards:
        r = c["card"]
        assert r["left"] >= box["left"] - EPS and r["right"] <= box["right"] + EPS, f"{width}px: {c['item']} sticks out sideways"
        assert r["bottom"] <= box["bottom"] + EPS, f"{width}px: {c['item']} hangs below the list"
    assert_no_horizontal_scroll(browser, width)


def test_no_layout_shift_on_a_phone(browser, base_url):
    open_feed(browser, base_url, 375)
    res = page_layout_shift(browser, settle_ms=400)
    assert res["cls"] == 0, f"/photos/ at 375px: cumulative layout shift {res['cls']:.5f}: {fmt(res['entries'])}"


# --------------------------------------------------------------------------- tab bar

TABBAR_JS = """
const b = document.querySelector('[data-tabbar]');
if (!b) return null;
const r = b.getBoundingClientRect();
return {top: r.top, bottom: r.bottom, left: r.left, width: r.width, innerHeight: innerHeight,
        innerWidth: innerWidth, hidden: b.classList.contains('tabbar-hidden'), scrollY: scrollY,
        links: [...b.querySelectorAll('a[href]')].map(a => ({href: a.href, current: a.getAttribute('aria-current')}))};
"""


def tabbar(driver) -> dict:
    bar = driver.execute_script(TABBAR_JS)
    assert bar is not None, f"{driver.current_url}: no [data-tabbar]"
    return bar


def bar_shown(bar: dict) -> bool:
    return abs(bar["bottom"] - bar["innerHeight"]) <= 1 and bar["top"] < bar["innerHeight"] - 20 and not bar["hidden"]


def bar_gone(bar: dict) -> bool:
    return bar["top"] >= bar["innerHeight"] - EPS


@pytest.mark.parametrize("path,current", [("/photos/", "/photos/"), ("/search/", "/search/")])
def test_tab_bar_sits_at_the_bottom(browser, base_url, path, current):
    open_at(browser, base_url + path, 375, mobile=True)
    bar = tabbar(browser)
    assert bar_shown(bar), f"{path}: tab bar not at the viewport's bottom: {fmt(bar)}"
    assert abs(bar["left"]) <= EPS and abs(bar["width"] - bar["innerWidth"]) <= 1
    hrefs = [l["href"] for l in bar["links"]]
    assert hrefs == [base_url + "/photos/", base_url + "/search/"], f"{path}: tab bar links {hrefs}"
    for link in bar["links"]:
        want = "page" if link["href"] == base_url + current else None
        assert link["current"] == want, f"{path}: {link['href']} has aria-current={link['current']!r}, want {want!r}"


@pytest.mark.parametrize("how", ["script", "wheel"])
def test_tab_bar_hides_scrolling_down_and_returns_scrolling_up(browser, base_url, how):
    open_feed(browser, base_url, 375)
    assert bar_shown(tabbar(browser)), fmt(tabbar(browser))

    def scroll(dy: int):
        if how == "script":
            browser.execute_script("window.scrollBy(0, arguments[0])", dy)
        else:
            ActionChains(browser).scroll_by_amount(0, dy).perform()

    scroll(700)
    bar = wait_for(browser, lambda d: (lambda b: b if bar_gone(b) else None)(tabbar(d)), WAIT,
                   f"tab bar still on screen after scrolling down ({how}): {fmt(tabbar(browser))}")
    assert bar["scrollY"] > 0
    # Once its transition has ended (no running animation), the bar is still gone.
    wait_for(browser, lambda d: d.execute_script(
        "return document.querySelector('[data-tabbar]').getAnimations().length === 0"), WAIT,
        lambda: f"the tab bar's transition never ended: {fmt(tabbar(browser))}")
    assert bar_gone(tabbar(browser)), fmt(tabbar(browser))
    scroll(-300)
    wait_for(browser, lambda d: bar_shown(tabbar(d)), WAIT,
             f"tab bar did not come back after scrolling up ({how}): {fmt(tabbar(browser))}")


# --------------------------------------------------------------------------- without JavaScript


def test_tab_bar_stays_without_javascript(nojs_browser, base_url):
    d = nojs_browser
    open_nojs(d, base_url + "/photos/", 375)
    assert bar_shown(tabbar(d)), fmt(tabbar(d))
    d.execute_script("window.scrollTo(0, 1500)")
    bar = wait_for(d, lambda d: (lambda b: b if b["scrollY"] >= 1000 else None)(tabbar(d)), WAIT,
                   lambda: f"the no-JS page did not scroll: {fmt(tabbar(d))}")
    assert bar_shown(bar), f"without JavaScript the tab bar left the screen: {fmt(bar)}"


# --------------------------------------------------------------------------- pager

PAGER_URL = "/photos/view/"
SLIDE_JS = """
const s = document.getElementById(arguments[0]);
if (!s) return null;
const r = s.getBoundingClientRect(), pager = document.querySelector('[data-pager]');
const info = s.querySelector('.slide-info, [data-info]');
return {left: r.left, top: r.top, width: r.width, height: r.height, innerWidth: innerWidth,
        innerHeight: innerHeight, hash: location.hash, path: location.pathname,
        infoOff: pager ? pager.classList.contains('info-off') : null,
        infoVisibility: info ? getComputedStyle(info).visibility : null};
"""


def slide(driver, pid: str) -> dict:
    s = driver.execute_script(SLIDE_JS, f"photo-{pid}")
    assert s is not None, f"{driver.current_url}: no #photo-{pid}"
    return s


def fills_viewport(s: dict) -> bool:
    return (abs(s["left"]) <= 1 and abs(s["width"] - s["innerWidth"]) <= 1
            and abs(s["top"]) <= 1 and abs(s["height"] - s["innerHeight"]) <= 1)


def open_pager(driver, base_url, pid: str, width: int) -> dict:
    driver.get("about:blank")   # a fresh document, not a same-page fragment jump
    open_at(driver, f"{base_url}{PAGER_URL}#photo-{pid}", width, mobile=is_phone(width))
    return wait_for(driver, lambda d: (lambda s: s if fills_viewport(s) else None)(slide(d, pid)), WAIT,
                    f"#photo-{pid} at {width}px does not fill the viewport: {fmt(slide(driver, pid))}")


def test_pager_has_every_photo_in_feed_order(browser, base_url):
    open_at(browser, base_url + PAGER_URL, 375, mobile=True)
    slides = browser.execute_script(
        "return [...document.querySelectorAll('li.slide')].map(s => [s.id, s.parentElement === document.querySelector('li.slide').parentElement])")
    assert [s[0] for s in slides] == [f"photo-{pid}" for pid in FEED_IDS]
    assert all(s[1] for s in slides), "slides are not siblings of one list"
    snap = browser.execute_script("return getComputedStyle(document.querySelector('li.slide').parentElement).scrollSnapType")
    assert "x" in snap and "mandatory" in snap, f"pager scroll-snap-type is {snap!r}"
    close = browser.execute_script(
        "return [...document.querySelectorAll('[data-pager] a[aria-label]')].map(a => [a.href, a.getAttribute('aria-label')])")
    assert any(href == base_url + "/photos/" and label.strip() for href, label in close), f"no labelled close link to /photos/: {close}"


DEEP = [FEED_IDS[0], FEED_IDS[len(FEED_IDS) // 2], FEED_IDS[-1]]


@pytest.mark.parametrize("width", [375, 1280])
@pytest.mark.parametrize("pid", DEEP, ids=["first", "middle", "last"])
def test_deep_link_shows_that_photo(browser, base_url, pid, width):
    s = open_pager(browser, base_url, pid, width)
    assert s["hash"] == f"#photo-{pid}"


def test_scrolling_one_screen_shows_the_next_photo_and_updates_the_address(browser, base_url):
    first, second, third = FEED_IDS[3], FEED_IDS[4], FEED_IDS[5]
    open_pager(browser, base_url, first, 375)
    browser.execute_script("const l = document.getElementById(arguments[0]).parentElement;"
                           "l.scrollBy({left: l.clientWidth, behavior: 'instant'})", f"photo-{first}")
    wait_for(browser, lambda d: fills_viewport(slide(d, second)), WAIT, f"next photo not shown: {fmt(slide(browser, second))}")
    wait_for(browser, lambda d: d.execute_script("return location.hash") == f"#photo-{second}", WAIT,
             lambda: f"address is {browser.execute_script('return location.hash')}, want #photo-{second}")
    # A real horizontal wheel turn snaps to the photo after that.
    ActionChains(browser).scroll_by_amount(375, 0).perform()
    wait_for(browser, lambda d: fills_viewport(slide(d, third)), WAIT, f"wheel did not page on: {fmt(slide(browser, third))}")
    wait_for(browser, lambda d: d.execute_script("return location.hash") == f"#photo-{third}", WAIT,
             f"address is {browser.execute_script('return location.hash')}, want #photo-{third}")


def test_arrow_keys_page_a_directly_opened_pager(browser, base_url):
    here, after = FEED_IDS[10], FEED_IDS[11]
    open_pager(browser, base_url, here, 1280)
    ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
    wait_for(browser, lambda d: fills_viewport(slide(d, after)), WAIT,
             f"ArrowRight did not show the next photo (focus on {browser.execute_script('return document.activeElement.tagName')})")
    wait_for(browser, lambda d: d.execute_script("return location.hash") == f"#photo-{after}", WAIT,
             f"address is {browser.execute_script('return location.hash')}, want #photo-{after}")


def test_tapping_the_photo_toggles_the_info_bar(browser, base_url):
    pid = FEED_IDS[1]
    s = open_pager(browser, base_url, pid, 375)
    assert s["infoOff"] is False and s["infoVisibility"] == "visible", fmt(s)
    photo = browser.find_element(By.CSS_SELECTOR, f"#photo-{pid} .slide-photo")   # the photo, not the avatar
    photo.click()
    s = slide(browser, pid)
    assert s["infoOff"] is True and s["infoVisibility"] == "hidden", f"info bar still shown after a tap: {fmt(s)}"
    photo.click()
    s = slide(browser, pid)
    assert s["infoOff"] is False and s["infoVisibility"] == "visible", f"info bar not back after a second tap: {fmt(s)}"
    assert fills_viewport(s), "tapping moved the photo"


def test_escape_goes_back_to_the_feed_it_came_from(browser, base_url):
    open_feed(browser, base_url, 375)
    pid = FEED_IDS[2]
    link = browser.find_element(By.CSS_SELECTOR, f'{CARD}[data-item="{pid}"] a')
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    link.click()
    wait_for(browser, lambda d: d.current_url == f"{base_url}{PAGER_URL}#photo-{pid}", WAIT,
             f"clicking card {pid} opened {browser.current_url}")
    wait_for(browser, lambda d: fills_viewport(slide(d, pid)), WAIT, f"card {pid} opened another photo: {fmt(slide(browser, pid))}")
    ActionChains(browser).send_keys(Keys.ESCAPE).perform()
    wait_for(browser, lambda d: d.current_url == base_url + "/photos/", WAIT, f"Escape led to {browser.current_url}")
    wait_for(browser, lambda d: d.execute_script("return document.readyState") == "complete")
    assert browser.execute_script(f"return document.querySelectorAll('{CARD}').length") == len(PHOTOS)


def test_escape_on_a_directly_opened_pager_goes_to_the_feed(browser, base_url):
    open_pager(browser, base_url, FEED_IDS[7], 1280)
    ActionChains(browser).send_keys(Keys.ESCAPE).perform()
    wait_for(browser, lambda d: d.current_url == base_url + "/photos/", WAIT, f"Escape led to {browser.current_url}")


# --------------------------------------------------------------------------- light pages and groups

TOPIC_BY_SLUG = {t["slug"]: t for t in TOPICS}
COLLECTION_BY_ID = {c["id"]: c for c in COLLECTIONS}

PHOTO_PAGE_JS = """
const main = document.querySelector('main');
return {h1: [...main.querySelectorAll('h1')].map(h => h.textContent.trim()),
        links: [...main.querySelectorAll('a[href]')].map(a => ({href: a.href, text: a.textContent.trim()}))};
"""


@pytest.mark.parametrize("pid", FEED_IDS)
def test_photo_page(browser, base_url, pid):
    photo = next(p for p in PHOTOS if p["id"] == pid)
    url = f"{base_url}/photos/{pid}/"
    status, _ = http_get(url)
    assert status == 200, f"{url}: HTTP {status}"
    open_at(browser, url, 1280)
    page = browser.execute_script(PHOTO_PAGE_JS)
    title = photo["description"] if photo["description"] is not None else photo["alt_description"]
    assert page["h1"] == [title], f"/photos/{pid}/: h1 {page['h1']}, want [{title!r}]"
    links = page["links"]
    hrefs = [l["href"] for l in links]
    assert f"{base_url}/photos/view/#photo-{pid}" in hrefs, f"/photos/{pid}/: no link to the pager"
    user = photo["user"]
    author = [l for l in links if l["href"] == f"{base_url}/photos/users/{user['username']}/"]
    assert author and user["name"] in author[0]["text"], f"/photos/{pid}/: no author link to {user['username']}: {links}"
    topics = [l for l in links if l["href"].startswith(base_url + "/photos/topics/")]
    assert [l["href"] for l in topics] == [f"{base_url}/photos/topics/{s}/" for s in photo["topics"]]
    assert [l["text"] for l in topics] == [TOPIC_BY_SLUG[s]["title"] for s in photo["topics"]]
    colls = [l for l in links if l["href"].startswith(base_url + "/photos/collections/")]
    assert [l["href"] for l in colls] == [f"{base_url}/photos/collections/{c}/" for c in photo["collections"]]
    assert [l["text"] for l in colls] == [COLLECTION_BY_ID[c]["title"] for c in photo["collections"]]


GROUPS = ([("collections", c["id"], lambda p, k=c["id"]: k in p["collections"]) for c in COLLECTIONS]
          + [("users", u["username"], lambda p, k=u["username"]: p["user"]["username"] == k) for u in USERS]
          + [("topics", t["slug"], lambda p, k=t["slug"]: k in p["topics"]) for t in TOPICS])


@pytest.mark.parametrize("kind,key,belongs", GROUPS, ids=[f"{k}/{key}" for k, key, _ in GROUPS])
def test_group_page_lists_its_photos(browser, base_url, kind, key, belongs):
    url = f"{base_url}/photos/{kind}/{key}/"
    status, _ = http_get(url)
    assert status == 200, f"{url}: HTTP {status}"
    open_at(browser, url, 375, mobile=True)
    got = browser.execute_script("""
        return [...document.querySelectorAll('main li[data-item]')].map(li => {
          const a = li.querySelector('a[href]'); return [li.getAttribute('data-item'), a ? a.href : null]; });""")
    want = [pid for pid in FEED_IDS if belongs(next(p for p in PHOTOS if p["id"] == pid))]
    assert want, f"data: {kind}/{key} has no photos"
    assert [g[0] for g in got] == want, f"/photos/{kind}/{key}/ lists {[g[0] for g in got]}, want {want}"
    for pid, href in got:
        assert href == f"{base_url}/photos/view/#photo-{pid}", f"{pid} links to {href}"
    assert_no_horizontal_scroll(browser, 375)


# --------------------------------------------------------------------------- pager: captions (issue 35)

CAPTIONS_JS = """
return [...document.querySelectorAll('li.slide')].map(s => {
  const c = s.querySelector('.slide-caption');
  return {id: s.id.replace(/^photo-/, ''), caption: c ? c.textContent.trim() : null};
});
"""


def test_pager_captions_are_each_photos_own(browser, base_url):
    """A slide's caption is its photo's description; a photo without one has no caption (not the
    collection's tagline, which Mustache finds in an enclosing context when the photo has none)."""
    open_at(browser, base_url + PAGER_URL, 375, mobile=True)
    got = {s["id"]: s["caption"] for s in browser.execute_script(CAPTIONS_JS)}
    by_id = {p["id"]: p for p in PHOTOS}
    wrong = [f"{pid}: caption {got.get(pid)!r}, want {by_id[pid]['description']!r}"
             for pid in FEED_IDS if got.get(pid) != by_id[pid]["description"]]
    assert any(p["description"] is None for p in PHOTOS), "data: every photo has a description"
    assert not wrong, "\n".join(wrong)


# --------------------------------------------------------------------------- pager: keyboard (issue 35)

FOCUS_JS = """
const a = document.activeElement;
if (!a || a === document.body || a === document.documentElement) return {body: true};
const slide = a.closest('li.slide');
let d = a.tagName.toLowerCase();
if (a.className) d += '.' + String(a.className).trim().split(/\\s+/).join('.');
if (a.getAttribute('href')) d += '[href=' + a.getAttribute('href') + ']';
return {body: false, desc: d, tag: a.tagName.toLowerCase(), inPager: !!a.closest('[data-pager]'),
        inHeader: !!a.closest('.site-header, .site-footer'), slide: slide ? slide.id : null,
        visible: a.checkVisibility({visibilityProperty: true}),
        focusVisible: a.matches(':focus-visible')};
"""


def tab_stops(driver, presses: int = 12, backwards: bool = False) -> list[dict]:
    """The focused element after each of up to `presses` Tab (or Shift+Tab) presses (stops once
    one repeats)."""
    stops, seen = [], set()
    for _ in range(presses):
        if backwards:
            ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
        else:
            ActionChains(driver).send_keys(Keys.TAB).perform()
        f = driver.execute_script(FOCUS_JS)
        key = f.get("desc", "body") + str(f.get("slide"))
        if key in seen:
            break
        seen.add(key)
        stops.append(f)
    return stops


@pytest.mark.parametrize("backwards", [False, True], ids=["tab", "shift-tab"])
@pytest.mark.parametrize("width", [375, 1280])
def test_pager_tab_order_stays_on_the_shown_photo(browser, base_url, width, backwards):
    """Tab (and Shift+Tab) visits the viewer's own controls and the shown photo's links, never the
    site header under the overlay nor another photo's links (which would scroll the pager away)."""
    pid = FEED_IDS[5]
    open_pager(browser, base_url, pid, width)
    stops = tab_stops(browser, backwards=backwards)
    stops = [s for s in stops if not s["body"]]
    problems = [f"Tab reached {s['desc']} in the site header/footer under the viewer" for s in stops if s["inHeader"]]
    problems += [f"Tab reached {s['desc']} outside the viewer" for s in stops if not s["inPager"] and not s["inHeader"]]
    problems += [f"Tab reached {s['desc']} of {s['slide']}, not of the shown #photo-{pid}"
                 for s in stops if s["slide"] and s["slide"] != f"photo-{pid}"]
    problems += [f"Tab reached {s['desc']}, which is not visible" for s in stops if not s["visible"]]
    assert not problems, "\n".join(problems) + f"\nstops: {fmt(stops)}"
    assert any(s["slide"] == f"photo-{pid}" and s["tag"] == "a" for s in stops), \
        f"Tab never reached the shown photo's links: {fmt(stops)}"
    assert any(s["tag"] == "button" for s in stops), f"no button among the tab stops (info toggle): {fmt(stops)}"
    s = slide(browser, pid)
    assert fills_viewport(s) and s["hash"] == f"#photo-{pid}", f"tabbing moved the viewer: {fmt(s)}"


def info_hidden(driver, pid: str) -> bool:
    s = slide(driver, pid)
    return s["infoOff"] is True and s["infoVisibility"] == "hidden"


@pytest.mark.parametrize("key", ["Enter", "Space"])
def test_pager_info_toggle_by_keyboard(browser, base_url, key):
    pid = FEED_IDS[8]
    open_pager(browser, base_url, pid, 375)
    for _ in range(12):
        ActionChains(browser).send_keys(Keys.TAB).perform()
        if browser.execute_script("return document.activeElement.tagName") == "BUTTON":
            break
    else:
        pytest.fail(f"no button reached by Tab in the viewer: stops end at {fmt(browser.execute_script(FOCUS_JS))}")
    assert not info_hidden(browser, pid)
    press = Keys.ENTER if key == "Enter" else Keys.SPACE
    ActionChains(browser).send_keys(press).perform()
    wait_for(browser, lambda d: info_hidden(d, pid), WAIT, lambda: f"{key} did not hide the info: {fmt(slide(browser, pid))}")
    pressed = browser.execute_script("return document.activeElement.getAttribute('aria-pressed')")
    ActionChains(browser).send_keys(press).perform()
    wait_for(browser, lambda d: not info_hidden(d, pid), WAIT, lambda: f"{key} did not show the info again: {fmt(slide(browser, pid))}")
    assert pressed is not None and pressed != browser.execute_script(
        "return document.activeElement.getAttribute('aria-pressed')"), "the toggle's aria-pressed does not follow it"
    assert fills_viewport(slide(browser, pid)) and browser.execute_script("return location.hash") == f"#photo-{pid}"


def test_no_focus_frame_after_a_pointer_opens_the_viewer(browser, base_url):
    """Opened by a click (mouse or touch), the viewer shows no focus frame (:focus-visible), yet the
    arrow keys page at once."""
    open_feed(browser, base_url, 1280)
    pid = FEED_IDS[1]
    link = browser.find_element(By.CSS_SELECTOR, f'{CARD}[data-item="{pid}"] a')
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    ActionChains(browser).move_to_element(link).click().perform()
    wait_for(browser, lambda d: d.current_url == f"{base_url}{PAGER_URL}#photo-{pid}", WAIT,
             lambda: f"clicking card {pid} opened {browser.current_url}")
    wait_for(browser, lambda d: d.execute_script("return document.readyState") == "complete")
    wait_for(browser, lambda d: fills_viewport(slide(d, pid)), WAIT, lambda: fmt(slide(browser, pid)))
    # The page's load handlers have run (a frame after `load`).
    browser.execute_async_script("const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(done));")
    framed = browser.execute_script("""
        return [...document.querySelectorAll(':focus-visible')].map(e => {
          const cs = getComputedStyle(e); return e.tagName + '.' + e.className + ' outline ' + cs.outlineStyle + ' ' + cs.outlineWidth; });""")
    assert framed == [], f"a focus frame after a pointer opened the viewer: {framed}"
    after = FEED_IDS[2]
    ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
    wait_for(browser, lambda d: fills_viewport(slide(d, after)), WAIT,
             lambda: f"ArrowRight did not page after a pointer open: {fmt(slide(browser, after))}")


# --------------------------------------------------------------------------- pager: pull down (issue 35)

PHOTO_BOX_JS = """
const img = document.querySelector('#' + arguments[0] + ' .slide-photo');
const r = img.getBoundingClientRect(), screen = document.querySelector('[data-pager]');
return {cx: r.left + r.width / 2, cy: r.top + r.height / 2, width: r.width, path: location.pathname,
        animations: img.getAnimations().length, backdrop: getComputedStyle(screen).backgroundColor,
        opacity: parseFloat(getComputedStyle(screen).opacity)};
"""


def photo_box(driver, pid: str) -> dict:
    return driver.execute_script(PHOTO_BOX_JS, f"photo-{pid}")


def backdrop_alpha(box: dict) -> float:
    """The viewer's backdrop opacity: its background colour's alpha times its own opacity."""
    c = box["backdrop"]
    alpha = float(c[c.index("(") + 1:-1].split(",")[3]) if c.startswith("rgba") else 1.0
    return alpha * box["opacity"]


class Pointer:
    """A real pointer in Chromium through CDP input events (mouse, or touch with touch emulation),
    each event stamped `ms` after the gesture started so speeds do not depend on the machine."""

    def __init__(self, driver, kind: str):
        self.d, self.kind, self.t0 = driver, kind, time.time()

    def _send(self, phase: str, x: float, y: float, ms: float) -> None:
        stamp = self.t0 + ms / 1000
        if self.kind == "mouse":
            kind = {"down": "mousePressed", "move": "mouseMoved", "up": "mouseReleased"}[phase]
            self.d.execute_cdp_cmd("Input.dispatchMouseEvent", {
                "type": kind, "x": x, "y": y, "button": "left", "buttons": 0 if phase == "up" else 1,
                "clickCount": 1, "timestamp": stamp})
        else:
            kind = {"down": "touchStart", "move": "touchMove", "up": "touchEnd"}[phase]
            points = [] if phase == "up" else [{"x": x, "y": y, "id": 1}]
            self.d.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points, "timestamp": stamp})

    def drag(self, x: float, y0: float, dys: list[float], step_ms: float) -> None:
        """Press at (x, y0) and move through y0 + each of dys, `step_ms` apart; no release."""
        self._send("down", x, y0, 0)
        self.x, self.y0, self.ms = x, y0, 0.0
        for dy in dys:
            self.ms += step_ms
            self._send("move", x, y0 + dy, self.ms)
        self.dy = dys[-1] if dys else 0

    def release(self, after_ms: float) -> None:
        self._send("up", self.x, self.y0 + self.dy, self.ms + after_ms)


@pytest.fixture
def touch(browser):
    browser.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
    try:
        yield
    finally:
        browser.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})


def start_drag(driver, base_url, kind: str, pid: str, dys: list[float], step_ms: float = 40) -> tuple[Pointer, dict]:
    width = 375 if kind == "touch" else 1280
    open_pager(driver, base_url, pid, width)
    before = photo_box(driver, pid)
    p = Pointer(driver, kind)
    p.drag(before["cx"], before["cy"], dys, step_ms)
    return p, before


@pytest.mark.parametrize("kind", ["mouse", "touch"])
def test_pull_down_follows_the_pointer_and_springs_back(browser, base_url, kind, request):
    if kind == "touch":
        request.getfixturevalue("touch")
    pid = FEED_IDS[4]
    p, before = start_drag(browser, base_url, kind, pid, [10, 30, 50, 70, 90], step_ms=60)
    during = wait_for(browser, lambda d: (lambda b: b if abs(b["cy"] - before["cy"] - 90) <= 3 else None)(photo_box(d, pid)),
                      WAIT, lambda: f"{kind}: the photo did not follow the pointer 90 px down: "
                                    f"{fmt(before)} → {fmt(photo_box(browser, pid))}")
    assert backdrop_alpha(during) < backdrop_alpha(before) - 0.05, \
        f"{kind}: the background did not fade while dragging: {before['backdrop']} → {during['backdrop']}"
    p.release(after_ms=400)   # a slow release, short of the threshold: it springs back
    wait_for(browser, lambda d: (lambda b: abs(b["cy"] - before["cy"]) <= 0.5 and b["animations"] == 0)(photo_box(d, pid)),
             WAIT, lambda: f"{kind}: the photo did not spring back: {fmt(photo_box(browser, pid))}")
    after = photo_box(browser, pid)
    assert after["path"] == PAGER_URL and abs(backdrop_alpha(after) - backdrop_alpha(before)) < 0.01, fmt(after)
    # The release was no tap: the info bars did not toggle.
    assert not info_hidden(browser, pid)


@pytest.mark.parametrize("kind", ["mouse", "touch"])
def test_pull_down_past_the_threshold_dismisses(browser, base_url, kind, request):
    if kind == "touch":
        request.getfixturevalue("touch")
    pid = FEED_IDS[6]
    p, before = start_drag(browser, base_url, kind, pid, [20, 60, 120, 180, 240, 300], step_ms=60)
    wait_for(browser, lambda d: (lambda b: abs(b["cy"] - before["cy"] - 300) <= 3)(photo_box(d, pid)), WAIT,
             lambda: f"{kind}: the photo did not follow the pointer 300 px down: {fmt(photo_box(browser, pid))}")
    p.release(after_ms=400)
    wait_for(browser, lambda d: d.current_url == base_url + "/photos/", WAIT,
             lambda: f"{kind}: a pull of 300 px did not dismiss the viewer ({browser.current_url})")


def test_a_fast_flick_dismisses(browser, base_url, touch):
    pid = FEED_IDS[9]
    p, before = start_drag(browser, base_url, "touch", pid, [15, 30, 45, 60], step_ms=16)
    p.release(after_ms=16)    # 60 px in 80 ms: short, but fast
    wait_for(browser, lambda d: d.current_url == base_url + "/photos/", WAIT,
             lambda: f"a fast flick did not dismiss the viewer ({browser.current_url})")


def test_a_slow_short_pull_does_not_dismiss(browser, base_url, touch):
    pid = FEED_IDS[9]
    p, before = start_drag(browser, base_url, "touch", pid, [15, 30, 45, 60], step_ms=200)
    p.release(after_ms=200)
    wait_for(browser, lambda d: (lambda b: abs(b["cy"] - before["cy"]) <= 0.5 and b["animations"] == 0)(photo_box(d, pid)),
             WAIT, lambda: f"the photo did not come back: {fmt(photo_box(browser, pid))}")
    assert browser.current_url.endswith(f"{PAGER_URL}#photo-{pid}")


def test_pull_down_with_reduced_motion_comes_back_at_once(browser, base_url):
    pid = FEED_IDS[3]
    set_reduced_motion(browser, True)
    try:
        p, before = start_drag(browser, base_url, "mouse", pid, [20, 40, 60, 80], step_ms=60)
        wait_for(browser, lambda d: abs(photo_box(d, pid)["cy"] - before["cy"] - 80) <= 3, WAIT,
                 lambda: f"the photo did not follow the pointer: {fmt(photo_box(browser, pid))}")
        p.release(after_ms=400)
        browser.execute_async_script("const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(done));")
        b = photo_box(browser, pid)
        assert abs(b["cy"] - before["cy"]) <= 0.5 and b["animations"] == 0, \
            f"with reduced motion the photo should be back at once, without a spring: {fmt(b)}"
    finally:
        set_reduced_motion(browser, False)


def test_a_sideways_drag_is_no_pull(browser, base_url):
    """A drag mostly sideways belongs to paging (the next photo), not to pull-to-dismiss: the
    photos follow it sideways only (not down, no shrinking, the black stays; issue 50: a mouse
    drag pages), and the viewer stays open."""
    pid = FEED_IDS[12]
    open_pager(browser, base_url, pid, 1280)
    before = photo_box(browser, pid)
    sideways = Pointer(browser, "mouse")
    sideways._send("down", before["cx"], before["cy"], 0)
    for k, (dx, dy) in enumerate([(30, 4), (80, 10), (140, 20), (200, 30)], 1):
        sideways._send("move", before["cx"] - dx, before["cy"] + dy, 40 * k)
    during = wait_for(browser, lambda d: (lambda b: b if abs(b["cx"] - before["cx"] + 200) <= 2 else None)(photo_box(d, pid)),
                      WAIT, lambda: f"the photo did not follow the drag sideways: {fmt(before)} → {fmt(photo_box(browser, pid))}")
    pulled = browser.execute_script(
        "return [document.querySelector('#photo-' + arguments[0] + ' .slide-photo').style.transform,"
        " document.querySelector('[data-pager]').classList.contains('pager-dragging')]", pid)
    sideways._send("up", before["cx"] - 200, before["cy"] + 30, 600)
    assert abs(during["cy"] - before["cy"]) <= 0.5 and abs(during["width"] - before["width"]) <= 0.5 \
        and backdrop_alpha(during) == backdrop_alpha(before) and pulled == ["", False], \
        f"a sideways drag moved the photo as a pull: {fmt(before)} → {fmt(during)}, transform and pulling {pulled}"
    # 200 px of 1,280, let go slowly: short of paging, the same photo comes back.
    wait_for(browser, lambda d: fills_viewport(slide(d, pid)) and d.execute_script("return location.hash") == f"#photo-{pid}",
             WAIT, lambda: f"the photo did not come back after a short sideways drag: {fmt(slide(browser, pid))}")
    assert browser.execute_script("return location.pathname") == PAGER_URL


def test_focus_follows_the_shown_photo(browser, base_url):
    """Paging on while a link of the shown photo has the focus: the slide left behind turns inert,
    and the focus moves to the pager (not lost to the page), so Tab goes on to the new photo's links."""
    pid, after = FEED_IDS[13], FEED_IDS[14]
    open_pager(browser, base_url, pid, 1280)
    for _ in range(12):
        ActionChains(browser).send_keys(Keys.TAB).perform()
        if browser.execute_script(FOCUS_JS).get("slide") == f"photo-{pid}":
            break
    else:
        pytest.fail("Tab never reached the shown photo's links")
    ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
    wait_for(browser, lambda d: fills_viewport(slide(d, after)) and d.execute_script("return location.hash") == f"#photo-{after}",
             WAIT, lambda: f"ArrowRight from a link did not page on: {fmt(slide(browser, after))}")
    f = wait_for(browser, lambda d: (lambda f: f if f.get("inPager") else None)(d.execute_script(FOCUS_JS)), WAIT,
                 lambda: f"the focus was lost when its slide was left: {fmt(browser.execute_script(FOCUS_JS))}")
    assert f["slide"] is None, f"the focus stayed in the slide left behind: {fmt(f)}"
    ActionChains(browser).send_keys(Keys.TAB).perform()
    f = browser.execute_script(FOCUS_JS)
    assert f.get("slide") == f"photo-{after}", f"Tab after paging went to {fmt(f)}, not to #photo-{after}'s links"


def test_a_malformed_address_still_opens_the_viewer(browser, base_url):
    """An address whose fragment is no valid %-escape (#%E0%A4) opens the viewer at its first photo
    with its script working: the info button shown, the arrow keys paging."""
    browser.get("about:blank")
    open_at(browser, f"{base_url}{PAGER_URL}#%E0%A4", 375, mobile=True)
    shown = browser.execute_script("const b = document.querySelector('[data-info-toggle]'); return !!b && b.checkVisibility()")
    assert shown, "the viewer's script stopped on the address: no info button"
    ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
    wait_for(browser, lambda d: fills_viewport(slide(d, FEED_IDS[1])), WAIT,
             lambda: f"ArrowRight did not page: {fmt(slide(browser, FEED_IDS[1]))}")
