"""The example site's Pinterest photo stream (/pinterest/): a build-time masonry, measured in Chromium.

The expectations come from the reference app (DESIGN.md §2.3), not from sitegen's output:
round-robin columns (item k in column k mod N), section insets top 23, left 5, bottom 10, right 5,
cell padding 6 (so cards are 12 px apart and 11 px from the left edge), card width =
(W − 10) / N − 12, photo height = card width × h / w, N = 2 at 375 px, 3 at 768 px, 4 at 1280 px,
and the data order of content/pinterest/Photos.plist.

DOM contract: one `[data-layout="masonry"]` list whose children are the cards (`data-item` = the
photo name) in data order, each with `.card-media img`, `.card-title` and `.card-meta`.
"""

from __future__ import annotations

import plistlib
from pathlib import Path

import pytest
from selenium.webdriver.common.keys import Keys

from helpers import (
    approx, assert_no_horizontal_scroll, fmt, http_get, open_at, overlapping_pairs, page_layout_shift, query_rects,
)

REPO = Path(__file__).resolve().parent.parent
LIST = '[data-layout="masonry"]'
CARD = f'{LIST} > [data-item]'
COLUMNS = {375: 2, 768: 3, 1280: 4}
INSET_TOP, INSET_LEFT, INSET_BOTTOM, INSET_RIGHT = 23.0, 5.0, 10.0, 5.0
PADDING = 6.0            # the app's cellPadding: half the gap between cards
GAP = 2 * PADDING
TOLERANCE = 2.0          # px, the bound on every card's top
RESULTS: dict[int, dict] = {}


def photos() -> list[dict]:
    with open(REPO / "content" / "pinterest" / "Photos.plist", "rb") as f:
        return plistlib.load(f)


def open_stream(driver, base_url: str, width: int, *, mobile: bool | None = None) -> None:
    open_at(driver, base_url + "/pinterest/", width, height=900, mobile=width < 768 if mobile is None else mobile)


def cards(driver) -> list[dict]:
    """Per card in DOM order: its rect, its photo box, the image's declared size, text overflow."""
    return driver.execute_script("""
        const rect = el => { const r = el.getBoundingClientRect();
          return {left: r.left + scrollX, top: r.top + scrollY, width: r.width, height: r.height,
                  right: r.right + scrollX, bottom: r.bottom + scrollY}; };
        return [...document.querySelectorAll(arguments[0])].map(c => {
          const img = c.querySelector('.card-media img'), meta = c.querySelector('.card-meta');
          return {item: c.getAttribute('data-item'), card: rect(c), media: rect(c.querySelector('.card-media')),
                  imgWidth: +img.getAttribute('width'), imgHeight: +img.getAttribute('height'),
                  title: c.querySelector('.card-title').textContent, meta: meta ? meta.textContent : '',
                  metaClipped: meta ? meta.scrollHeight > meta.clientHeight + 1 : false,
                  radius: getComputedStyle(c).borderTopLeftRadius};
        });
    """, CARD)


def measure(driver, width: int) -> dict:
    """Checks the app's round-robin layout on the loaded page; returns the worst deviations."""
    n = COLUMNS[width]
    box = query_rects(driver, LIST)[0]
    parts = cards(driver)
    data = photos()
    assert [p["item"] for p in parts] == [d["Photo"] for d in data], "cards are not in the data order of Photos.plist"
    assert len(parts) >= 30

    W = box["width"]
    column_width = (W - INSET_LEFT - INSET_RIGHT) / n
    card_width = column_width - GAP
    worst = {"top": 0.0, "left": 0.0, "width": 0.0, "photo": 0.0}
    bottoms: list[float | None] = [None] * n
    lefts = sorted({round(p["card"]["left"], 1) for p in parts})
    assert len(lefts) == n, f"{width}px: expected {n} columns, card lefts are {lefts}"
    for k, p in enumerate(parts):
        c, column = p["card"], k % n
        # In the column its policy names: the k mod N-th distinct left edge, at the app's offset.
        assert lefts.index(round(c["left"], 1)) == column, f"{width}px: card {k} ({p['item']}) is not in column {column}"
        want_left = box["left"] + INSET_LEFT + column * column_width + PADDING
        want_top = box["top"] + INSET_TOP + PADDING if bottoms[column] is None else bottoms[column] + GAP
        want_photo = card_width * p["imgHeight"] / p["imgWidth"]
        deviations = {"left": abs(c["left"] - want_left), "top": abs(c["top"] - want_top),
                      "width": abs(c["width"] - card_width), "photo": abs(p["media"]["height"] - want_photo)}
        for key, d in deviations.items():
            worst[key] = max(worst[key], d)
        assert deviations["top"] <= TOLERANCE, (
            f"{width}px: card {k} ({p['item']}) top {c['top']:.2f}, want {want_top:.2f} "
            f"(bottom of the card above + {GAP} gap), off by {deviations['top']:.2f} px")
        assert deviations["left"] <= TOLERANCE, f"{width}px: card {k} left {c['left']:.2f}, want {want_left:.2f}"
        assert deviations["width"] <= 1.0, f"{width}px: card {k} width {c['width']:.2f}, want {card_width:.2f}"
        assert deviations["photo"] <= 1.0, (
            f"{width}px: card {k} photo {p['media']['height']:.2f} px tall, want {want_photo:.2f} (aspect fit)")
        assert approx(p["media"]["width"], card_width, 1.0)
        assert p["radius"] == "5px", f"card {k} corner radius {p['radius']}"
        assert not p["metaClipped"], f"{width}px: card {k} comment is cut off: the line estimate was too low: {p['meta']!r}"
        bottoms[column] = c["bottom"]

    pairs = overlapping_pairs([p["card"] for p in parts])
    assert not pairs, f"{width}px: overlapping cards {pairs}"
    # The list is as tall as its longest column plus the cell padding and bottom inset: nothing
    # after it can overlap the cards.
    want_height = max(b for b in bottoms if b is not None) + PADDING + INSET_BOTTOM - box["top"]
    assert approx(box["height"], want_height, TOLERANCE), f"{width}px: list height {box['height']:.2f}, want {want_height:.2f}"
    worst["height"] = abs(box["height"] - want_height)
    return worst


@pytest.mark.parametrize("width", sorted(COLUMNS))
def test_round_robin_layout_matches_the_app(browser, base_url, width):
    open_stream(browser, base_url, width)
    worst = measure(browser, width)
    RESULTS[width] = worst
    print(f"\n/pinterest/ at {width}px: worst deviation (px) " + ", ".join(f"{k} {v:.3f}" for k, v in worst.items()))
    assert_no_horizontal_scroll(browser, width)


def test_layout_needs_no_javascript(base_url):
    """The page carries no script at all, so the layout measured above is CSS alone."""
    status, html = http_get(base_url + "/pinterest/")
    assert status == 200
    lowered = html.lower()
    assert "<script" not in lowered, "the masonry page ships JavaScript"
    assert not any(f" on{event}=" in lowered for event in ("load", "error", "resize", "scroll")), "inline event handlers"
    assert ".js\"" not in lowered, "the masonry page references a script file"


SWEEP = sorted(set(range(320, 1441, 40)) | {375, 767, 768, 1023, 1279, 1280, 1440})


@pytest.mark.parametrize("width", SWEEP)
def test_no_overlap_no_horizontal_scroll(browser, base_url, width):
    open_stream(browser, base_url, width, mobile=False)
    parts = cards(browser)
    rects = [p["card"] for p in parts]
    pairs = overlapping_pairs(rects)
    assert not pairs, f"{width}px: overlapping cards " + ", ".join(
        f"{parts[i]['item']}/{parts[j]['item']} {fmt(rects[i])} {fmt(rects[j])}" for i, j in pairs)
    assert_no_horizontal_scroll(browser, width)
    box = query_rects(browser, LIST)[0]
    for p in parts:
        c = p["card"]
        assert c["left"] >= box["left"] - 0.5 and c["right"] <= box["right"] + 0.5, f"{width}px: card {p['item']} sticks out of the list"
        assert c["bottom"] <= box["bottom"] + 0.5, f"{width}px: card {p['item']} hangs below the list"


@pytest.mark.parametrize("width", [375, 390, 414])
def test_phone_widths_keep_two_columns(browser, base_url, width):
    open_stream(browser, base_url, width, mobile=True)
    assert_no_horizontal_scroll(browser, width)
    lefts = {round(p["card"]["left"]) for p in cards(browser)}
    assert len(lefts) == 2, f"{width}px phone: expected 2 columns, lefts {sorted(lefts)}"
    assert not overlapping_pairs([p["card"] for p in cards(browser)])


@pytest.mark.parametrize("width", [375, 1280])
def test_no_layout_shift(browser, base_url, width):
    open_stream(browser, base_url, width)
    before = [p["card"] for p in cards(browser)]
    res = page_layout_shift(browser, settle_ms=500)
    assert res["cls"] == 0, f"{width}px: cumulative layout shift {res['cls']:.5f}: {fmt(res['entries'])}"
    browser.execute_script("window.scrollTo(0, 0)")
    after = [p["card"] for p in cards(browser)]
    moved = [i for i, (a, b) in enumerate(zip(before, after)) if abs(a["top"] - b["top"]) > 0.01 or abs(a["left"] - b["left"]) > 0.01]
    assert not moved, f"{width}px: cards moved once the images loaded: {moved}"


def test_tab_order_follows_the_data(browser, base_url):
    open_stream(browser, base_url, 1280)
    expected = [d["Photo"] for d in photos()]
    assert browser.execute_script("return document.querySelectorAll('[tabindex]:not([tabindex=\"-1\"]):not([tabindex=\"0\"])').length") == 0
    body = browser.find_element("tag name", "body")
    body.click()
    seen: list[str] = []
    for _ in range(len(expected) + 40):
        browser.switch_to.active_element.send_keys(Keys.TAB)
        item = browser.execute_script(
            "const c = document.activeElement.closest(arguments[0]); return c ? c.getAttribute('data-item') : null;", CARD)
        if item is not None and (not seen or seen[-1] != item):
            seen.append(item)
        if len(seen) == len(expected):
            break
    assert seen == expected, f"tab order {seen} is not the data order {expected}"


def test_cards_show_caption_and_comment_and_link_to_a_photo_page(browser, base_url):
    open_stream(browser, base_url, 768)
    data = photos()
    parts = cards(browser)
    for d, p in zip(data, parts):
        assert p["title"].strip() == d["Caption"]
        assert p["meta"].strip() == d["Comment"]
    link = browser.execute_script(f"return document.querySelector('{CARD} a[href]').href")
    assert link.endswith(f"/pinterest/{data[0]['Photo']}/")
    open_at(browser, link, 768)
    assert browser.find_element("tag name", "h1").text.strip() == data[0]["Caption"]
