"""The media-trend list (/trends/) and casting pages (/trends/<slug>/) in real Chromium.

Expectations come from content/trends/shows.json (DESIGN.md §2.4): a card per show in data order
with poster, title, genre, region, rate and release date, an external link button at the card's
top right (rel="noopener"), rounded cards with a shadow; the casting page with the backdrop, the
starring actors (an empty `starring` shows an empty state) and an overview in <details>.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import assert_no_horizontal_scroll, open_at, page_layout_shift, fmt, resized_copy_problem

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
        const d = document.querySelector('details.casting-overview');
        return {title: document.querySelector('h1').textContent, backdrop: document.querySelector('.casting-backdrop').getAttribute('src'),
                cast: [...document.querySelectorAll('.casting-cast li')].map(li => li.textContent),
                empty: !!document.querySelector('.empty-state'), open: d.open, overview: d.querySelector('p').textContent};""")
    assert page["title"] == show["title"]
    problem = resized_copy_problem(site_dir, page["backdrop"], REPO / "content" / show["backdropImage"])
    assert problem is None, problem
    assert page["cast"] == [n.strip() for n in show["starring"].split(",") if n.strip()]
    assert page["empty"] == (not show["starring"].strip())
    assert page["overview"] == show["overview"] and page["open"] is False
    # The overview opens and closes with the native <details> control (no script on the page).
    summary = browser.find_element("css selector", "details.casting-overview summary")
    summary.click()
    assert browser.execute_script("return document.querySelector('details.casting-overview').open") is True
    summary.click()
    assert browser.execute_script("return document.querySelector('details.casting-overview').open") is False
    assert "<script" not in browser.page_source.lower()
    assert_no_horizontal_scroll(browser, 375)
