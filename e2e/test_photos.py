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
    WAIT, wait_for,
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
    photo = browser.find_element(By.CSS_SELECTOR, f"#photo-{pid} > img")   # the photo, not the avatar
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
