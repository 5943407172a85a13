"""The two search screens in real Chromium: the media-trend show search (/trends/search/) and the
photo browser's discover/search screen (/search/), plus their static JSON indexes.

Expectations come from the data files (content/trends/shows.json, content/photos/*.json), site.yml
(`search:` fields of each collection) and DESIGN.md §2.2/§2.4, never from sitegen's output:

* Matching (README "Search", DESIGN.md): both sides are folded — Unicode NFKD, combining marks
  dropped (so "cafe" finds "Café", a Hangul syllable splits into jamo so "바" finds "바람" and
  full-width "ＦＥＲＲＹ" is "ferry"), lower case, runs of spaces collapsed — and every word of the
  query must be a substring of an item's folded fields.  Fields: shows — title, genre, region and
  the starring names; photos — description, alt_description, user.name, user.username, topics;
  collections — title, description, user.name; users — name, username, location.
* /trends/search/: without JavaScript every show is listed in shows.json order; with it the list
  filters as you type, [data-search-status] gives the count, [data-search-empty] shows for no
  match; a close link (aria-label with 닫기) returns to /trends/, which links to the search.
* /search/: one horizontally scrolling `ul.topic-row` per topic (topics.json order) holding that
  topic's photos (feed order: created_at descending), a grid of every photo; a search form (hidden
  without JavaScript) with an underlined field and scopes 사진/컬렉션/사용자; an empty query shows
  a warning right under the field (aria-invalid); results show the photo's alt_description, the
  collection's title or the user's name, in data order, linking to the item's page; the discover
  content is hidden while a query is active.
"""

from __future__ import annotations

import json
import re
import unicodedata
import urllib.request
from datetime import datetime
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from helpers import WAIT, open_nojs, assert_no_horizontal_scroll, fmt, open_at, wait_for

REPO = Path(__file__).resolve().parent.parent
SHOWS = json.loads((REPO / "content" / "trends" / "shows.json").read_text(encoding="utf-8"))
PHOTO_DATA = REPO / "content" / "photos"
PHOTOS = json.loads((PHOTO_DATA / "photos.json").read_text(encoding="utf-8"))
COLLECTIONS = json.loads((PHOTO_DATA / "collections.json").read_text(encoding="utf-8"))
USERS = json.loads((PHOTO_DATA / "users.json").read_text(encoding="utf-8"))
TOPICS = json.loads((PHOTO_DATA / "topics.json").read_text(encoding="utf-8"))
FEED = sorted(PHOTOS, key=lambda p: datetime.fromisoformat(p["created_at"].replace("Z", "+00:00")), reverse=True)


def fold(text: str) -> str:
    t = unicodedata.normalize("NFKD", text)
    t = "".join(ch for ch in t if unicodedata.category(ch) not in ("Mn", "Mc", "Me"))
    return " ".join(t.lower().replace("ς", "σ").split())


def matches(fields: list, query: str) -> bool:
    text = fold(" ".join(str(f) for f in fields if f is not None))
    return all(word in text for word in fold(query).split())


def show_fields(s: dict) -> list:
    return [s["title"], s["genre"], s["region"], *[n.strip() for n in s["starring"].split(",") if n.strip()]]


def numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text or "")]


# --------------------------------------------------------------------------- /trends/search/

TREND_ROWS_JS = """
return [...document.querySelectorAll('[data-search-list] > [data-item]')].map(li => ({
  title: (li.querySelector('.search-row-title') || li).textContent.trim(),
  href: (li.querySelector('a[href]') || {}).href,
  shown: li.checkVisibility({visibilityProperty: true})}));
"""
TREND_STATE_JS = """
const q = s => document.querySelector(s);
return {status: (q('[data-search-status]') || {}).textContent || '',
        empty: q('[data-search-empty]') ? q('[data-search-empty]').checkVisibility() : null};
"""


def trend_rows(driver) -> list[dict]:
    return driver.execute_script(TREND_ROWS_JS)


def shown_titles(driver) -> list[str]:
    return [r["title"] for r in trend_rows(driver) if r["shown"]]


def test_trend_search_lists_every_show_without_javascript(nojs_browser, base_url):
    d = nojs_browser
    open_nojs(d, base_url + "/trends/search/", 375)
    rows = trend_rows(d)
    assert [r["title"] for r in rows if r["shown"]] == [s["title"] for s in SHOWS], fmt(rows)
    assert all(r["href"] and "/trends/" in r["href"] for r in rows)
    state = d.execute_script(TREND_STATE_JS)
    assert state["empty"] is False, "the no-match message shows without JavaScript"


TREND_QUERIES = {
    "accent-free": "cafe",
    "upper-case": "DRAMA",
    "hangul-syllable": next(s["title"] for s in SHOWS if re.search("[\uac00-\ud7a3]", s["title"]))[0],
    "full-width": "ＦＥＲＲＹ",
    "two-words": "south  drama",
    "actor-accent": "elodie",
    "no-match": "xyzzy",
}


@pytest.mark.parametrize("query", TREND_QUERIES.values(), ids=TREND_QUERIES.keys())
def test_trend_search_filters_as_you_type(browser, base_url, query):
    want = [s["title"] for s in SHOWS if matches(show_fields(s), query)]
    if query == "cafe":
        assert "Café Lumière" in want
    if query == "xyzzy":
        assert want == []
    else:
        assert 0 < len(want) < len(SHOWS), f"query {query!r} does not filter: {want}"
    open_at(browser, base_url + "/trends/search/", 375, mobile=True)
    assert shown_titles(browser) == [s["title"] for s in SHOWS]
    field = browser.find_element(By.CSS_SELECTOR, "form[data-search] input[type=search]")
    field.click()
    field.send_keys(query)
    wait_for(browser, lambda d: shown_titles(d) == want, WAIT,
             lambda: f"typed {query!r}: shows {shown_titles(browser)}, want {want}")
    state = wait_for(browser, lambda d: (lambda s: s if numbers(s["status"]) == [len(want)] else None)(
        d.execute_script(TREND_STATE_JS)), WAIT, lambda: f"status {browser.execute_script(TREND_STATE_JS)}, want {len(want)}")
    assert state["empty"] is (not want), f"[data-search-empty] visible={state['empty']} for {len(want)} results"
    assert_no_horizontal_scroll(browser, 375)


def test_trend_search_close_returns_to_the_list(browser, base_url):
    open_at(browser, base_url + "/trends/", 375, mobile=True)
    hrefs = browser.execute_script("return [...document.querySelectorAll('main a[href]')].map(a => a.href)")
    assert base_url + "/trends/search/" in hrefs, "/trends/ does not link to /trends/search/"
    open_at(browser, base_url + "/trends/search/", 375, mobile=True)
    close = [a for a in browser.find_elements(By.CSS_SELECTOR, "a[aria-label]") if "닫기" in a.get_attribute("aria-label")]
    assert len(close) == 1, f"expected one close link (aria-label 닫기), found {len(close)}"
    assert close[0].get_attribute("href") == base_url + "/trends/"
    close[0].click()
    wait_for(browser, lambda d: d.current_url == base_url + "/trends/", WAIT, lambda: f"close led to {browser.current_url}")


# --------------------------------------------------------------------------- /search/

DISCOVER_JS = """
const rows = [...document.querySelectorAll('ul.topic-row')].map(ul => {
  const cs = getComputedStyle(ul);
  return {links: [...ul.querySelectorAll('a[href]')].map(a => a.href), scrollWidth: ul.scrollWidth,
          clientWidth: ul.clientWidth, overflowX: cs.overflowX};
});
const idle = document.querySelector('[data-search-idle]');
return {rows, grid: idle ? [...idle.querySelectorAll('li[data-item]')].map(li => [li.getAttribute('data-item'),
        (li.querySelector('a[href]') || {}).href]) : null};
"""


def test_discover_topic_rows_and_grid(browser, base_url):
    open_at(browser, base_url + "/search/", 375, mobile=True)
    page = browser.execute_script(DISCOVER_JS)
    rows = page["rows"]
    assert len(rows) == len(TOPICS), f"{len(rows)} topic rows, want {len(TOPICS)}"
    for row, topic in zip(rows, TOPICS):
        topic_page = f"{base_url}/photos/topics/{topic['slug']}/"
        assert topic_page in row["links"], f"row for {topic['slug']} does not link to its topic page: {row['links']}"
        photos = [l for l in row["links"] if "/photos/view/#photo-" in l]
        want = [f"{base_url}/photos/view/#photo-{p['id']}" for p in FEED if topic["slug"] in p["topics"]]
        assert photos == want, f"row {topic['slug']}: {photos}, want {want}"
        assert row["overflowX"] == "auto" and row["scrollWidth"] > row["clientWidth"], \
            f"row {topic['slug']} does not scroll sideways: {fmt(row)}"
    moved = browser.execute_script("const r = document.querySelector('ul.topic-row'); r.scrollLeft = 150; return r.scrollLeft")
    assert moved > 0, "the first topic row cannot be scrolled"
    assert_no_horizontal_scroll(browser, 375)
    assert page["grid"] == [[p["id"], f"{base_url}/photos/view/#photo-{p['id']}"] for p in FEED], \
        f"discover grid: {page['grid']}"


def test_search_form_is_hidden_without_javascript(nojs_browser, base_url):
    d = nojs_browser
    open_nojs(d, base_url + "/search/", 375)
    assert not d.find_element(By.CSS_SELECTOR, "form[role=search]").is_displayed()
    assert d.find_element(By.CSS_SELECTOR, "[data-search-idle]").is_displayed()
    assert len(d.find_elements(By.CSS_SELECTOR, "ul.topic-row")) == len(TOPICS)


FORM_JS = """
const f = document.querySelector('form[role=search]'), i = f.querySelector('input[type=search]');
const cs = getComputedStyle(i);
return {borders: [cs.borderTopWidth, cs.borderRightWidth, cs.borderBottomWidth, cs.borderLeftWidth].map(parseFloat),
        bottomStyle: cs.borderBottomStyle,
        scopes: [...f.querySelectorAll('input[type=radio][name=scope]')].map(r => ({
          label: (r.closest('label') || {}).textContent.trim(), checked: r.checked}))};
"""


def test_search_form_underlined_field_and_scopes(browser, base_url):
    open_at(browser, base_url + "/search/", 375, mobile=True)
    assert browser.find_element(By.CSS_SELECTOR, "form[role=search]").is_displayed(), "search form hidden with JavaScript on"
    form = browser.execute_script(FORM_JS)
    top, right, bottom, left = form["borders"]
    assert bottom > 0 and form["bottomStyle"] != "none", f"the field is not underlined: {fmt(form)}"
    assert top == right == left == 0, f"the field has a box border, not an underline: {form['borders']}"
    assert [s["label"] for s in form["scopes"]] == ["사진", "컬렉션", "사용자"], fmt(form["scopes"])
    assert [s["checked"] for s in form["scopes"]] == [True, False, False]


def field_and_warning(driver) -> dict:
    return driver.execute_script("""
        const i = document.querySelector('form[role=search] input[type=search]'), w = document.querySelector('[data-search-warning]');
        const ir = i.getBoundingClientRect(), wr = w.getBoundingClientRect();
        return {invalid: i.getAttribute('aria-invalid'), shown: w.checkVisibility({visibilityProperty: true}),
                inputBottom: ir.bottom, inputLeft: ir.left, warnTop: wr.top, warnLeft: wr.left, text: w.textContent.trim()};""")


def test_empty_query_warns_under_the_field(browser, base_url):
    open_at(browser, base_url + "/search/", 375, mobile=True)
    assert not field_and_warning(browser)["shown"], "the warning shows before anything was submitted"
    field = browser.find_element(By.CSS_SELECTOR, "form[role=search] input[type=search]")
    field.click()
    field.send_keys(Keys.ENTER)
    s = wait_for(browser, lambda d: (lambda s: s if s["shown"] else None)(field_and_warning(d)), WAIT,
                 lambda: f"no warning after submitting an empty query: {fmt(field_and_warning(browser))}")
    assert s["text"], "the warning is empty"
    assert s["invalid"] == "true", f"aria-invalid={s['invalid']!r}"
    gap = s["warnTop"] - s["inputBottom"]
    assert 0 <= gap <= 24, f"warning is not right under the field: its top is {gap:.1f} px below the field's bottom"
    assert browser.current_url == base_url + "/search/", "submitting reloaded the page"
    field.send_keys("fog")
    s = wait_for(browser, lambda d: (lambda s: s if not s["shown"] else None)(field_and_warning(d)), WAIT,
                 lambda: f"warning stays while typing: {fmt(field_and_warning(browser))}")
    assert s["invalid"] != "true"


def photo_result(p):
    return ([p["description"], p["alt_description"], p["user"]["name"], p["user"]["username"], *p["topics"]],
            p["alt_description"], f"/photos/{p['id']}/")


def collection_result(c):
    return [c["title"], c["description"], c["user"]["name"]], c["title"], f"/photos/collections/{c['id']}/"


def user_result(u):
    return [u["name"], u["username"], u["location"]], u["name"], f"/photos/users/{u['username']}/"


SCOPES = {"사진": (FEED, photo_result), "컬렉션": (COLLECTIONS, collection_result), "사용자": (USERS, user_result)}
PHOTO_QUERIES = {   # test id → (scope label, query)
    "photos-word": ("사진", "blue"), "photos-hangul-author": ("사진", "박민서"),
    "photos-two-words-upper": ("사진", "FOG nature"), "photos-author-no-accent": ("사진", "lea"),
    "collections-word": ("컬렉션", "blue"), "collections-hangul-curator": ("컬렉션", "박민서"),
    "collections-description": ("컬렉션", "the"), "users-location": ("사용자", "kyoto"),
    "users-upper-accent": ("사용자", "LÉA"), "users-hangul-syllable": ("사용자", "박"),
    "photos-no-match": ("사진", "qqqzz"),
}

RESULTS_JS = """
const q = s => document.querySelector(s);
const list = q('[data-search-results]');
return {titles: [...list.querySelectorAll('.search-result-title')].map(t => t.textContent),
        links: [...list.querySelectorAll('.search-result')].map(li => (li.querySelector('a[href]') || {}).href || null),
        listShown: list.checkVisibility(), idleShown: q('[data-search-idle]').checkVisibility(),
        emptyShown: q('[data-search-empty]').checkVisibility(), status: q('[data-search-status]').textContent};
"""


def choose_scope(driver, label: str) -> None:
    labels = [l for l in driver.find_elements(By.CSS_SELECTOR, "form[role=search] label")
              if l.find_elements(By.CSS_SELECTOR, "input[type=radio]") and l.text.strip() == label]
    assert len(labels) == 1, f"no scope {label!r}"
    labels[0].click()
    assert labels[0].find_element(By.CSS_SELECTOR, "input").is_selected(), f"scope {label!r} not selected by a click"


@pytest.mark.parametrize("scope,query", PHOTO_QUERIES.values(), ids=PHOTO_QUERIES.keys())
def test_photo_search_results(browser, base_url, scope, query):
    items, describe = SCOPES[scope]
    want = [(title, base_url + url) for fields, title, url in map(describe, items) if matches(fields, query)]
    if query != "qqqzz":
        assert 0 < len(want) < len(items), f"query {query!r} does not filter {scope}: {want}"
    open_at(browser, base_url + "/search/", 375, mobile=True)
    if scope != "사진":
        choose_scope(browser, scope)
    field = browser.find_element(By.CSS_SELECTOR, "form[role=search] input[type=search]")
    field.click()
    field.send_keys(query)
    got = wait_for(browser, lambda d: (lambda r: r if list(zip(r["titles"], r["links"])) == want
                                       and numbers(r["status"]) == [len(want)] else None)(d.execute_script(RESULTS_JS)),
                   WAIT, lambda: f"{scope} {query!r}: {fmt(browser.execute_script(RESULTS_JS))}\nwant {fmt(want)}")
    assert not got["idleShown"], "discover content still shown while a query is active"
    assert got["emptyShown"] is (not want), f"[data-search-empty] visible={got['emptyShown']} for {len(want)} results"
    if want:
        assert got["listShown"]
    assert_no_horizontal_scroll(browser, 375)


def test_changing_scope_and_clearing_the_query(browser, base_url):
    open_at(browser, base_url + "/search/", 375, mobile=True)
    field = browser.find_element(By.CSS_SELECTOR, "form[role=search] input[type=search]")
    field.click()
    field.send_keys("blue")
    want_photos = [t for f, t, _ in map(photo_result, FEED) if matches(f, "blue")]
    want_colls = [t for f, t, _ in map(collection_result, COLLECTIONS) if matches(f, "blue")]
    assert want_photos != want_colls
    wait_for(browser, lambda d: d.execute_script(RESULTS_JS)["titles"] == want_photos, WAIT,
             lambda: fmt(browser.execute_script(RESULTS_JS)))
    choose_scope(browser, "컬렉션")
    wait_for(browser, lambda d: d.execute_script(RESULTS_JS)["titles"] == want_colls, WAIT,
             lambda: f"after switching to 컬렉션: {fmt(browser.execute_script(RESULTS_JS))}")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(Keys.BACKSPACE)
    r = wait_for(browser, lambda d: (lambda r: r if r["idleShown"] else None)(d.execute_script(RESULTS_JS)), WAIT,
                 lambda: f"discover content not back after clearing: {fmt(browser.execute_script(RESULTS_JS))}")
    assert not r["listShown"] and not r["emptyShown"], fmt(r)


# --------------------------------------------------------------------------- JSON indexes

INDEXES = {   # path → (its dataset's item titles, their pages), in data order
    "/trends/search.json": [(s["title"], None) for s in SHOWS],
    "/search/photos.json": [(t, u) for _, t, u in map(photo_result, FEED)],
    "/search/collections.json": [(t, u) for _, t, u in map(collection_result, COLLECTIONS)],
    "/search/users.json": [(t, u) for _, t, u in map(user_result, USERS)],
}


@pytest.mark.parametrize("path", INDEXES)
def test_json_index_is_served(base_url, path):
    with urllib.request.urlopen(base_url + path, timeout=10) as r:
        status, ctype, body = r.status, r.headers.get("Content-Type", ""), r.read()
    assert status == 200
    assert "json" in ctype.lower(), f"{path}: Content-Type {ctype!r}"
    items = json.loads(body)["items"]
    want = INDEXES[path]
    assert len(items) == len(want), f"{path}: {len(items)} items, want {len(want)}"
    assert [it["title"] for it in items] == [t for t, _ in want], f"{path}: titles not in data order"
    for it, (_, url) in zip(items, want):
        if url is None:   # a show's page: /trends/<slug>/
            assert re.fullmatch(r"/trends/[^/]+/", it["url"]), f"{path}: {it['title']} → {it['url']}"
        else:
            assert it["url"] == url, f"{path}: {it['title']} → {it['url']}, want {url}"


# --------------------------------------------------------------------------- /trends/search/ (issue 35)

CLOSE_AND_FIELD_JS = """
const close = [...document.querySelectorAll('a[aria-label]')].find(a => a.getAttribute('aria-label').includes('닫기'));
const field = document.querySelector('form[data-search] input[type=search]');
const box = el => { const r = el.getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
return {close: close && box(close), field: field && box(field), innerWidth: innerWidth,
        order: close && field ? (close.compareDocumentPosition(field) & Node.DOCUMENT_POSITION_FOLLOWING ? 'close first' : 'field first') : null};
"""


@pytest.mark.parametrize("width", [375, 1280])
def test_trend_search_close_is_at_the_top_left(browser, base_url, width):
    """As in the seed (SearchVC: "B 화면의 왼쪽 상단 닫기 버튼"), the close control sits at the top
    left, before the field (visually and in tab order)."""
    open_at(browser, base_url + "/trends/search/", width, mobile=width < 768)
    g = browser.execute_script(CLOSE_AND_FIELD_JS)
    assert g["close"] and g["field"], fmt(g)
    c, f = g["close"], g["field"]
    assert c["top"] < 40 and c["right"] <= f["left"], f"{width}px: the close control is not left of the field: {fmt(g)}"
    # At the left of the search bar (the screen's left edge, or the centred column's at 1280 px).
    column_left = (width - min(width, 760)) / 2
    assert c["left"] - column_left < 24, f"{width}px: the close control is not at the top left: {fmt(g)}"
    assert g["order"] == "close first", "the close control comes after the field in tab order"


def test_trend_search_works_or_hides_without_javascript(nojs_browser, base_url):
    """Without JavaScript the search field either works (a query lists only the shows that match)
    or is not shown at all, like the photo search's; a field that does nothing is neither."""
    d = nojs_browser
    open_nojs(d, base_url + "/trends/search/", 375)
    fields = [f for f in d.find_elements(By.CSS_SELECTOR, "input[type=search]") if f.is_displayed()]
    if not fields:
        assert shown_titles(d) == [s["title"] for s in SHOWS], "without JavaScript every show is listed"
        return
    fields[0].send_keys("drama", Keys.ENTER)
    wait_for(d, lambda drv: "q=drama" in drv.current_url, WAIT, lambda: f"submitting went to {d.current_url}")
    wait_for(d, lambda drv: drv.execute_script("return document.readyState") == "complete")
    want = [s["title"] for s in SHOWS if matches(show_fields(s), "drama")]
    assert shown_titles(d) == want, f"without JavaScript, searching 'drama' shows {shown_titles(d)}, want {want}"


def test_trend_search_reads_the_query_from_the_address(browser, base_url):
    """The form submits ?q=… to the page itself; with JavaScript the page filters by it on load."""
    want = [s["title"] for s in SHOWS if matches(show_fields(s), "drama")]
    open_at(browser, base_url + "/trends/search/?q=drama", 375, mobile=True)
    wait_for(browser, lambda d: shown_titles(d) == want, WAIT, lambda: f"?q=drama shows {shown_titles(browser)}, want {want}")
    assert browser.find_element(By.CSS_SELECTOR, "form[data-search] input[type=search]").get_attribute("value") == "drama"
