"""The media-trend list (/trends/) and casting pages (/trends/<slug>/) in real Chromium.

Expectations come from content/trends/shows.json (DESIGN.md §2.4): a card per show in data order
with poster, title, genre, region, rate and release date, an external link button at the card's
top right (rel="noopener"), rounded cards with a shadow; the casting page with the backdrop, the
starring actors as cells of the theme's list layout (an empty `starring` shows an empty state)
and the overview folded to three lines, a <details> unfolding it (issue 35).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import (
    WAIT, assert_no_horizontal_scroll, open_at, open_nojs, page_layout_shift, fmt, resize_viewport,
    resized_copy_problem, wait_for,
)

REPO = Path(__file__).resolve().parent.parent
SHOWS = json.loads((REPO / "content" / "trends" / "shows.json").read_text(encoding="utf-8"))


def cards(driver) -> list[dict]:
    return driver.execute_script("""
        return [...document.querySelectorAll('[data-layout="trends"] > [data-item]')].map(c => {
          const box = c.getBoundingClientRect(), link = c.querySelector('.trend-link'), l = link.getBoundingClientRect();
          const img = c.querySelector('.trend-poster'), cs = getComputedStyle(c);
          return {slug: c.dataset.item, href: c.querySelector('.trend-main').href, title: c.querySelector('.trend-title').textContent,
                  meta: c.querySelector('.trend-meta').textContent, rate: c.querySelector('.trend-rate').textContent,
                  date: c.querySelector('.trend-date').textContent, link: link.href, rel: link.rel,
                  linkTopRight: l.right <= box.right && box.right - l.right < 24 && l.top - box.top < 24,
                  poster: img && img.getAttribute('src'), radius: cs.borderTopLeftRadius, shadow: cs.boxShadow};
        });""")


@pytest.mark.parametrize("width", [320, 375, 1280])
def test_trend_cards(browser, base_url, site_dir, width):
    open_at(browser, base_url + "/trends/", width, mobile=width < 768)
    got = cards(browser)
    assert [c["title"] for c in got] == [s["title"] for s in SHOWS]
    for c, s in zip(got, SHOWS):
        assert c["meta"] == f"{s['genre']} · {s['region']}"
        assert c["rate"] == ("평점 없음" if s["rate"] == 0 else f"★ 평점 {s['rate']:g}")
        m, d, y = s["releaseDate"].split("/")
        assert c["date"] == f"{y}.{m}.{d}"
        assert c["link"] == s["link"] and "noopener" in c["rel"]
        assert c["linkTopRight"], f"{s['title']}: the link button is not at the card's top right"
        # The card shows a resized copy of its poster (the original is not published).
        assert resized_copy_problem(site_dir, c["poster"], REPO / "content" / s["poster"]) is None, resized_copy_problem(site_dir, c["poster"], REPO / "content" / s["poster"])
        assert c["radius"] != "0px" and c["shadow"] != "none"
        assert "/trends/" in c["href"]
    assert_no_horizontal_scroll(browser, width)


def test_no_layout_shift(browser, base_url):
    open_at(browser, base_url + "/trends/", 375, mobile=True)
    res = page_layout_shift(browser, settle_ms=300)
    assert res["cls"] == 0, fmt(res["entries"])


@pytest.mark.parametrize("index", range(len(SHOWS)), ids=[s["title"] for s in SHOWS])
def test_casting_page(browser, base_url, site_dir, index):
    show = SHOWS[index]
    open_at(browser, base_url + "/trends/", 375, mobile=True)
    href = cards(browser)[index]["href"]
    open_at(browser, href, 375, mobile=True)
    page = browser.execute_script("""
        const d = document.querySelector('.casting-overview details');
        return {title: document.querySelector('h1').textContent, backdrop: document.querySelector('.casting-backdrop').getAttribute('src'),
                cast: [...document.querySelectorAll('.casting-cast li')].map(li => li.textContent),
                empty: !!document.querySelector('.empty-state'), open: d.open,
                overview: document.querySelector('.casting-overview-text').textContent};""")
    assert page["title"] == show["title"]
    problem = resized_copy_problem(site_dir, page["backdrop"], REPO / "content" / show["backdropImage"])
    assert problem is None, problem
    assert page["cast"] == [n.strip() for n in show["starring"].split(",") if n.strip()]
    assert page["empty"] == (not show["starring"].strip())
    assert page["overview"] == show["overview"] and page["open"] is False
    # The overview unfolds and folds with the native <details> control (no script on the page).
    summary = browser.find_element("css selector", ".casting-overview details summary")
    summary.click()
    assert browser.execute_script("return document.querySelector('.casting-overview details').open") is True
    summary.click()
    assert browser.execute_script("return document.querySelector('.casting-overview details').open") is False
    # Scripts only enhance the page (the fold works without them: test_synopsis_folds_without_javascript).
    scripts = browser.execute_script("return [...document.scripts].map(s => ({src: s.getAttribute('src'), defer: s.defer}))")
    assert all(s["src"] and s["defer"] for s in scripts), f"a script that is inline or blocks the page: {scripts}"
    assert_no_horizontal_scroll(browser, 375)


# --------------------------------------------------------------------------- casting (issue 35)

OVERVIEW_JS = """
const want = arguments[0];
const all = [...document.querySelectorAll('main *')].filter(e => e.textContent.trim() === want);
const text = all[all.length - 1];   // the innermost element holding exactly the overview
if (!text) return null;
const toggles = [...document.querySelectorAll('main summary, main button')].filter(t => t.checkVisibility());
const toggle = toggles.find(t => /더보기|접기/.test(t.textContent));
const cs = getComputedStyle(text), r = text.getBoundingClientRect();
return {height: r.height, lineHeight: parseFloat(cs.lineHeight), shown: text.checkVisibility({visibilityProperty: true}),
        label: toggle ? toggle.innerText.trim() : null, toggleTag: toggle ? toggle.tagName : null,
        hasToggle: !!toggle};
"""


def overview(driver, text: str) -> dict:
    o = driver.execute_script(OVERVIEW_JS, text)
    assert o is not None, f"{driver.current_url}: no element holds the overview text"
    return o


def long_show() -> dict:
    return max(SHOWS, key=lambda s: len(s["overview"]))


def lines(o: dict) -> float:
    return o["height"] / o["lineHeight"]


def check_fold(driver) -> None:
    show = long_show()
    o = overview(driver, show["overview"])
    assert o["shown"] and abs(lines(o) - 3) < 0.1, f"folded, the synopsis should show its first 3 lines: {fmt(o)}"
    assert o["label"] == "더보기", f"folded, the toggle should read 더보기: {fmt(o)}"
    toggle = driver.find_element("xpath", "//main//*[self::summary or self::button][contains(., '더보기')]")
    toggle.click()
    o = overview(driver, show["overview"])
    assert o["shown"] and lines(o) > 3.5, f"unfolded, the whole synopsis should show (over 3 lines here): {fmt(o)}"
    assert o["label"] == "접기", f"unfolded, the toggle should read 접기: {fmt(o)}"
    toggle.click()
    o = overview(driver, show["overview"])
    assert abs(lines(o) - 3) < 0.1 and o["label"] == "더보기", f"folded again: {fmt(o)}"


def test_synopsis_folds_to_three_lines(browser, base_url):
    open_at(browser, base_url + "/trends/", 375, mobile=True)
    href = next(c["href"] for c in cards(browser) if c["title"] == long_show()["title"])
    open_at(browser, href, 375, mobile=True)
    check_fold(browser)


def test_synopsis_folds_without_javascript(nojs_browser, base_url):
    from helpers import open_nojs
    open_nojs(nojs_browser, base_url + "/trends/", 375)
    href = next(c["href"] for c in cards(nojs_browser) if c["title"] == long_show()["title"])
    open_nojs(nojs_browser, href, 375)
    check_fold(nojs_browser)


CAST_JS = """
const list = document.querySelector('main [data-layout]:has(> li)') ;
const box = el => { if (!el) return null; const r = el.getBoundingClientRect();
  return {left: r.left, top: r.top, width: r.width, height: r.height, right: r.right, bottom: r.bottom}; };
return list && {layout: list.dataset.layout, classes: list.className, cells: [...list.children].map(li => ({
  name: (li.querySelector('.card-title') || {}).textContent, role: (li.querySelector('.card-meta') || {}).textContent || null,
  cell: box(li), media: box(li.querySelector('.card-media')), title: box(li.querySelector('.card-title')),
  picture: li.querySelector('.card-media img') ? li.querySelector('.card-media img').getAttribute('src') : null}))};
"""


@pytest.mark.parametrize("width", [375, 1280])
def test_cast_as_cells(browser, base_url, width):
    """Each actor is a cell of the core's list layout (cards-list): a picture box (the data has no
    pictures of actors, so a placeholder) beside the name (and the role, where the data has one)."""
    show = next(s for s in SHOWS if s["starring"].count(",") >= 2)
    open_at(browser, base_url + "/trends/", width, mobile=width < 768)
    href = next(c["href"] for c in cards(browser) if c["title"] == show["title"])
    open_at(browser, href, width, mobile=width < 768)
    cast = browser.execute_script(CAST_JS)
    names = [n.strip() for n in show["starring"].split(",") if n.strip()]
    assert cast and cast["layout"] in ("list", "grid") and "cards" in cast["classes"].split(), \
        f"the cast is not laid out as the core's list or grid of cards: {fmt(cast)}"
    assert [c["name"] for c in cast["cells"]] == names, fmt(cast)
    for c in cast["cells"]:
        m, t = c["media"], c["title"]
        assert m and m["width"] >= 32 and abs(m["width"] - m["height"]) < 1, f"{c['name']}: no picture box: {fmt(c)}"
        if cast["layout"] == "list":
            assert m["right"] <= t["left"] and m["top"] <= t["top"] and t["bottom"] <= m["bottom"] + 1, \
                f"{c['name']}: the name is not beside its picture: {fmt(c)}"
        assert c["role"] is None, "the data has no roles for shows"
    assert_no_horizontal_scroll(browser, width)


# --------------------------------------------------------------------------- 더보기 only when clamped (issue 50)

FOLD_JS = """
const s = document.querySelector('.casting-overview'), t = s.querySelector('.casting-overview-text');
const d = s.querySelector('details'), summary = d.querySelector('summary'), cs = getComputedStyle(t);
return {clamped: t.scrollHeight > t.clientHeight, lines: t.getBoundingClientRect().height / parseFloat(cs.lineHeight),
        toggle: summary.checkVisibility({visibilityProperty: true}), open: d.open, label: summary.innerText.trim(),
        width: innerWidth};
"""
FITS_SHOW = "Midnight Ferry"   # its synopsis fits in three lines at 1280 px, not at 375 px


def fold_state(driver) -> dict:
    return driver.execute_script(FOLD_JS)


def casting_href(driver, base_url, title, width) -> str:
    open_at(driver, base_url + "/trends/", width, mobile=width < 768)
    return next(c["href"] for c in cards(driver) if c["title"] == title)


def unfold_and_fold(driver) -> None:
    summary = driver.find_element("css selector", ".casting-overview summary")
    summary.click()
    o = fold_state(driver)
    assert o["open"] and not o["clamped"] and o["lines"] > 3.5 and o["label"] == "접기" and o["toggle"], f"unfolded: {fmt(o)}"
    summary.click()
    o = fold_state(driver)
    assert not o["open"] and o["clamped"] and abs(o["lines"] - 3) < 0.1 and o["label"] == "더보기" and o["toggle"], \
        f"folded again: {fmt(o)}"


def test_more_is_hidden_while_the_synopsis_fits(browser, base_url):
    """더보기 only when the text is clamped: at 1280 px Midnight Ferry's synopsis fits in its three
    lines, so there is nothing to unfold and no control; narrowed to 375 px it no longer fits, and
    the control shows and works; widened again, it goes (the script checks on every resize)."""
    open_at(browser, casting_href(browser, base_url, FITS_SHOW, 1280), 1280)
    o = wait_for(browser, lambda d: (lambda o: o if not o["toggle"] else None)(fold_state(d)), WAIT,
                 lambda: f"1280px: 더보기 still shown while the synopsis fits: {fmt(fold_state(browser))}")
    assert not o["clamped"] and o["lines"] <= 3.05, f"the synopsis should fit in three lines at 1280 px: {fmt(o)}"
    resize_viewport(browser, 375, 812, mobile=True)
    o = wait_for(browser, lambda d: (lambda o: o if o["toggle"] else None)(fold_state(d)), WAIT,
                 lambda: f"375px: the synopsis is clamped but 더보기 is not shown: {fmt(fold_state(browser))}")
    assert o["clamped"] and o["label"] == "더보기", fmt(o)
    unfold_and_fold(browser)
    resize_viewport(browser, 1280, 800)
    wait_for(browser, lambda d: not fold_state(d)["toggle"], WAIT,
             lambda: f"widened again to 1280px, 더보기 still shown: {fmt(fold_state(browser))}")


def test_more_is_shown_and_works_when_clamped(browser, base_url):
    open_at(browser, casting_href(browser, base_url, FITS_SHOW, 375), 375, 812, mobile=True)
    o = fold_state(browser)
    assert o["clamped"] and o["toggle"] and o["label"] == "더보기", f"375px: {fmt(o)}"
    unfold_and_fold(browser)


def test_synopsis_is_readable_without_javascript_when_it_fits(nojs_browser, base_url):
    """Without the script the control stays (nothing measures the text), and the whole synopsis
    can be read: it fits, or the control unfolds it."""
    open_nojs(nojs_browser, base_url + "/trends/", 1280)
    href = next(c["href"] for c in cards(nojs_browser) if c["title"] == FITS_SHOW)
    open_nojs(nojs_browser, href, 1280)
    o = fold_state(nojs_browser)
    if o["clamped"]:
        assert o["toggle"], f"without JavaScript the clamped synopsis has no control: {fmt(o)}"
        nojs_browser.find_element("css selector", ".casting-overview summary").click()
        o = fold_state(nojs_browser)
    assert not o["clamped"], f"without JavaScript the synopsis cannot be read whole: {fmt(o)}"


@pytest.mark.parametrize("width", [375, 1280])
def test_casting_page_does_not_move(browser, base_url, width):
    """Whether the script shows 더보기 or not, nothing on the page moves (it keeps its room)."""
    open_at(browser, casting_href(browser, base_url, FITS_SHOW, width), width, mobile=width < 768)
    res = page_layout_shift(browser, settle_ms=300)
    assert res["cls"] == 0, f"{width}px: {fmt(res['entries'])}"
