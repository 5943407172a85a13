"""The four list apps' detail pages over their lists (bounties, Pinterest, trends, box office), in
real Chromium: what issue 50 found missing across them.

* Closing a detail page (its close control or Escape) returns to the list where the reader left it,
  at the card they tapped, as the apps do: the scroll position restored within 2 px, the card in
  view; also after stepping to a neighbour (prev/next) first. A page opened from elsewhere (a
  shared link) closes to its list, at its card where the list gives cards ids (trends, box office).
* /trends/search/: the field has the focus on open; Escape clears a field with text, then closes;
  a show opened from the results closes back to them.
* Keyboard focus on the lists' cards is a ring of 2 px or more, off the control, in a colour that
  stands out on the page (3:1) in light and dark.
* /favicon.ico is served (an ICO), and every page that names an icon names one that is there.
* Korean words never break inside themselves (word-break: keep-all): `강도현`, not `강도/현`.
* No console errors on any page these tests open.

Phone widths load with mobile emulation (overlay scrollbars), desktop widths without (helpers.py).
"""

from __future__ import annotations

import json
import re
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from helpers import WAIT, finish_animations, fmt, next_frames, open_at, set_color_scheme, wait_for, wait_ready

REPO = Path(__file__).resolve().parent.parent
SHOWS = json.loads((REPO / "content" / "trends" / "shows.json").read_text(encoding="utf-8"))
HEIGHTS = {375: 812, 1280: 800}
TOLERANCE = 2.0   # px: the bound on the restored scroll position
MIN_SCROLL = 100  # px: a test scrolled less than this could not tell a restored list from a new one


@dataclass(frozen=True)
class App:
    name: str
    list_path: str
    cards: str            # the list's cards, in order
    tap: float            # which card to tap: its fraction of the way down the list
    neighbours: bool      # the detail page links its prev/next items
    card_ids: bool        # the list gives its cards ids, so a link can name one (#item-<slug>)


APPS = [
    App("bounties", "/bounties/", '[data-layout="grid"] > [data-item]', 1.0, True, False),
    App("pinterest", "/pinterest/", '[data-layout="masonry"] > [data-item]', 0.6, True, False),
    App("trends", "/trends/", '[data-layout="trends"] > [data-item]', 0.7, False, True),
    App("boxoffice", "/boxoffice/", '[data-layout="ranking"] > [data-item]', 0.7, True, True),
]
BY_NAME = {a.name: a for a in APPS}


def is_phone(width: int) -> bool:
    return width < 768


def open_page(driver, url: str, width: int) -> None:
    open_at(driver, url, width, HEIGHTS.get(width, 900), mobile=is_phone(width))


def console_errors(driver) -> list[str]:
    """SEVERE entries of the browser's log since the last call (JavaScript errors, console.error,
    failed loads): the log empties as it is read."""
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def path_of(driver) -> str:
    return urlsplit(driver.current_url).path


CARD_JS = """
const card = document.querySelectorAll(arguments[0])[arguments[1]];
if (!card) return null;
const r = card.getBoundingClientRect(), a = card.querySelector('a[href]');
return {item: card.dataset.item, top: r.top, bottom: r.bottom, height: r.height, docTop: r.top + scrollY,
        href: a && a.href, scrollY: scrollY, innerHeight: innerHeight,
        maxScroll: document.documentElement.scrollHeight - innerHeight};
"""


def card_state(driver, app: App, index: int) -> dict:
    c = driver.execute_script(CARD_JS, app.cards, index)
    assert c is not None, f"{driver.current_url}: no card {index} ({app.cards})"
    return c


def in_view(c: dict) -> bool:
    """The card's top edge is on screen and at least 100 px of it (or all of a shorter one) shows."""
    shown = min(c["bottom"], c["innerHeight"]) - max(c["top"], 0)
    return 0 <= c["top"] < c["innerHeight"] and shown >= min(100, c["height"]) - 1


def scroll_to_card(driver, app: App, width: int) -> tuple[int, dict]:
    """Open the list, scroll so the card to tap sits 20–60 % down the window; (its index, its state)."""
    open_page(driver, driver.base_url + app.list_path, width)
    n = driver.execute_script("return document.querySelectorAll(arguments[0]).length", app.cards)
    assert n >= 4, f"{app.list_path}: {n} cards"
    # Where the list shows the card 40 % down the window (or near it) and is neither at its top nor at
    # its end: a list opened anew at the card (#item-<slug>) would put the card at the top of the
    # window, or also be at the end, and the test could not tell the two apart.
    def placements():
        for index in range(min(n - 1, round(app.tap * (n - 1))), -1, -1):
            c = card_state(driver, app, index)
            for f in (0.4, 0.5, 0.3, 0.6, 0.2):
                yield index, c, c["docTop"] - f * c["innerHeight"]

    index, c, y = next(((i, c, y) for i, c, y in placements() if MIN_SCROLL <= y < c["maxScroll"] - 20), next(placements()))
    y = max(0, min(c["maxScroll"], y))
    driver.execute_script("window.scrollTo(0, arguments[0])", y)
    wait_for(driver, lambda d: abs(d.execute_script("return scrollY") - y) < 1, WAIT,
             lambda: f"could not scroll {app.list_path} to {y}")
    c = card_state(driver, app, index)
    assert c["scrollY"] >= MIN_SCROLL, (
        f"{app.list_path} at {width}px scrolls only {c['scrollY']} px: the test cannot tell a restored list from a new one")
    assert in_view(c), f"the card to tap is not in view: {fmt(c)}"
    return index, c


def tap(driver, app: App, index: int, c: dict) -> None:
    link = driver.execute_script("return document.querySelectorAll(arguments[0])[arguments[1]].querySelector('a[href]')",
                                 app.cards, index)
    link.click()
    want = urlsplit(c["href"]).path
    wait_for(driver, lambda d: path_of(d) == want, WAIT, lambda: f"tapping {c['item']} led to {driver.current_url}")
    wait_ready(driver)


def close(driver, how: str) -> None:
    if how == "escape":
        ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    else:
        driver.find_element(By.CSS_SELECTOR, "main a.close").click()


def wait_back_at(driver, app: App, index: int, before: dict, what: str) -> dict:
    """Wait until the list is shown again at the scroll position it had (±2 px); its card state."""
    wait_for(driver, lambda d: path_of(d) == app.list_path, WAIT,
             lambda: f"{what}: closing led to {driver.current_url}, want {app.list_path}")

    def restored(d):
        c = d.execute_script(CARD_JS, app.cards, index)
        return c if c and d.execute_script("return document.readyState") == "complete" \
            and abs(c["scrollY"] - before["scrollY"]) <= TOLERANCE else None

    wait_for(driver, restored, WAIT, lambda: (
        f"{what}: back on {app.list_path} at scrollY {driver.execute_script('return scrollY')}, "
        f"the list was left at {before['scrollY']} (±{TOLERANCE})"))
    next_frames(driver, 2)  # and it stays there
    c = card_state(driver, app, index)
    assert abs(c["scrollY"] - before["scrollY"]) <= TOLERANCE, f"{what}: the list moved on after its return: {fmt(c)}"
    assert in_view(c), f"{what}: the tapped card {c['item']} is not in view: {fmt(c)}"
    return c


@pytest.fixture()
def driver(browser, base_url):
    browser.base_url = base_url
    console_errors(browser)  # what earlier tests left in the log
    yield browser
    errors = console_errors(browser)
    assert not errors, f"console errors: {errors}"


# --------------------------------------------------------------------------- close returns to the card

CASES = [(a.name, w, how) for a in APPS for w in (375, 1280) for how in ("close", "escape")]


@pytest.mark.parametrize("app,width,how", CASES, ids=[f"{a}-{w}-{h}" for a, w, h in CASES])
def test_close_returns_to_the_tapped_card(driver, app, width, how):
    """List → tap a card far down → detail → close (or Escape): the list at the same scroll
    position (±2 px) with that card in view (issue 50 item 3, item 7's Escape)."""
    a = BY_NAME[app]
    index, before = scroll_to_card(driver, a, width)
    tap(driver, a, index, before)
    close(driver, how)
    wait_back_at(driver, a, index, before, f"{app} {width}px, {how}")


NEIGHBOUR_CASES = [(a.name, w) for a in APPS if a.neighbours for w in (375, 1280)]


@pytest.mark.parametrize("app,width", NEIGHBOUR_CASES, ids=[f"{a}-{w}" for a, w in NEIGHBOUR_CASES])
def test_close_after_a_neighbour_returns_to_the_tapped_card(driver, app, width):
    """List → card → its prev/next link → another → close: the list where it was left, at the
    card that was tapped (the app's back stack holds the list under the detail screens)."""
    a = BY_NAME[app]
    index, before = scroll_to_card(driver, a, width)
    tap(driver, a, index, before)
    for step in range(2):
        here = path_of(driver)
        link = driver.execute_script(
            "return document.querySelector('main a[rel=next]') || document.querySelector('main a[rel=prev]')")
        assert link is not None, f"{here}: no prev/next link"
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
        link.click()
        wait_for(driver, lambda d: path_of(d) != here, WAIT, lambda: f"the neighbour link on {here} did nothing")
        wait_ready(driver)
    close(driver, "close")
    wait_back_at(driver, a, index, before, f"{app} {width}px, after two neighbours")


@pytest.mark.parametrize("app", ["bounties", "boxoffice"])
def test_close_after_going_back_and_forth_returns_to_the_tapped_card(driver, app):
    """List → card A → neighbour B → the browser's Back (to A, from the back/forward cache) →
    another neighbour C → close: the list where it was left (A's place in history is counted
    again when the cache shows it)."""
    a = BY_NAME[app]
    index, before = scroll_to_card(driver, a, 375)
    tap(driver, a, index, before)
    first = path_of(driver)

    def follow(rel: str) -> None:
        here = path_of(driver)
        link = driver.find_element(By.CSS_SELECTOR, f"main a[rel={rel}]")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
        link.click()
        wait_for(driver, lambda d: path_of(d) != here, WAIT, lambda: f"the {rel} link on {here} did nothing")
        wait_ready(driver)

    follow("prev")
    driver.back()
    wait_for(driver, lambda d: path_of(d) == first, WAIT, lambda: f"Back led to {driver.current_url}, want {first}")
    wait_ready(driver)
    follow("prev")
    close(driver, "close")
    wait_back_at(driver, a, index, before, f"{app}: after Back and another neighbour")


@pytest.mark.parametrize("app", [a.name for a in APPS])
def test_close_of_a_page_opened_elsewhere_goes_to_its_list(driver, app):
    """A detail page opened from elsewhere (a shared link: no list under it in history) closes to
    its list, with its own card in view where the list gives cards ids."""
    a = BY_NAME[app]
    width = 375
    open_page(driver, driver.base_url + a.list_path, width)
    # The last card whose slug is not ASCII (its id is Hangul, its address percent-encoded), else the last.
    index = driver.execute_script("""
        const items = [...document.querySelectorAll(arguments[0])].map(c => c.dataset.item);
        const i = items.findLastIndex(s => /[^\\x00-\\x7f]/.test(s));
        return i >= 0 ? i : items.length - 1;""", a.cards)
    href = card_state(driver, a, index)["href"]
    driver.get(driver.base_url + "/")  # somewhere else first: history.back() would lead there
    wait_ready(driver)
    open_page(driver, href, width)
    close(driver, "close")
    wait_for(driver, lambda d: path_of(d) == a.list_path, WAIT,
             lambda: f"closing {href} led to {driver.current_url}, want {a.list_path}")
    wait_ready(driver)
    if a.card_ids:
        c = wait_for(driver, lambda d: (lambda c: c if c["scrollY"] > 0 and in_view(c) else None)(
            d.execute_script(CARD_JS, a.cards, index)), WAIT,
            lambda: f"{a.list_path}: the closed item's card is not in view: {fmt(card_state(driver, a, index))}")
        assert c["top"] >= -1, fmt(c)


# --------------------------------------------------------------------------- the trend search screen

FOCUS_JS = "const a = document.activeElement; return a ? (a.id || a.tagName) : null"


@pytest.mark.parametrize("width", [375, 1280])
def test_search_field_has_the_focus_on_open(driver, width):
    open_page(driver, driver.base_url + "/trends/search/", width)
    wait_for(driver, lambda d: d.execute_script(FOCUS_JS) == "trend-query", WAIT,
             lambda: f"{width}px: the focus is on {driver.execute_script(FOCUS_JS)}, not the search field")


@pytest.mark.parametrize("width", [375, 1280])
def test_escape_clears_then_closes_the_search(driver, width):
    """From the list: Escape in a field with text clears it (every show listed again); Escape in
    the empty field closes the screen, back on the list where it was left."""
    a = BY_NAME["trends"]
    open_page(driver, driver.base_url + a.list_path, width)
    y = driver.execute_script("return document.documentElement.scrollHeight - innerHeight")
    driver.execute_script("window.scrollTo(0, arguments[0])", y)
    y = driver.execute_script("return scrollY")
    assert y >= MIN_SCROLL or width == 1280, f"/trends/ scrolls only {y} px"
    link = driver.find_element(By.CSS_SELECTOR, "a.search-open")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    y = driver.execute_script("return scrollY")
    link.click()
    wait_for(driver, lambda d: path_of(d) == "/trends/search/", WAIT, lambda: f"the search link led to {driver.current_url}")
    wait_ready(driver)
    wait_for(driver, lambda d: d.execute_script(FOCUS_JS) == "trend-query", WAIT, "the search field has no focus")
    field = driver.switch_to.active_element
    field.send_keys("drama")
    shown = "return [...document.querySelectorAll('[data-search-list] > li')].filter(li => !li.hidden).length"
    wait_for(driver, lambda d: d.execute_script(shown) < len(SHOWS), WAIT, "typing did not filter the shows")
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    wait_for(driver, lambda d: d.execute_script(shown) == len(SHOWS) and field.get_attribute("value") == "", WAIT,
             lambda: f"Escape did not clear the field ({field.get_attribute('value')!r})")
    assert path_of(driver) == "/trends/search/", "Escape with text in the field closed the screen"
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    wait_for(driver, lambda d: path_of(d) == a.list_path, WAIT, lambda: f"Escape led to {driver.current_url}")
    wait_for(driver, lambda d: abs(d.execute_script("return scrollY") - y) <= TOLERANCE, WAIT,
             lambda: f"back on the list at {driver.execute_script('return scrollY')}, left at {y}")


def test_a_show_opened_from_the_search_closes_back_to_it(driver):
    open_page(driver, driver.base_url + "/trends/search/", 375)
    field = driver.find_element(By.CSS_SELECTOR, "#trend-query")
    field.send_keys("korea")
    shown = "return [...document.querySelectorAll('[data-search-list] > li')].filter(li => !li.hidden).map(li => li.dataset.item)"
    items = wait_for(driver, lambda d: (lambda s: s if 0 < len(s) < len(SHOWS) else None)(d.execute_script(shown)), WAIT,
                     "typing did not filter the shows")
    driver.find_element(By.CSS_SELECTOR, f'[data-search-list] > li[data-item="{items[-1]}"] a').click()
    wait_for(driver, lambda d: path_of(d) != "/trends/search/", WAIT, "the result did not open")
    wait_ready(driver)
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    wait_for(driver, lambda d: path_of(d) == "/trends/search/", WAIT,
             lambda: f"closing a show opened from the search led to {driver.current_url}")
    wait_ready(driver)
    wait_for(driver, lambda d: d.execute_script(shown) == items, WAIT,
             lambda: f"the search came back with {driver.execute_script(shown)}, it showed {items}")


# --------------------------------------------------------------------------- focus rings

def luminance(rgb: tuple[float, float, float]) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def rgb(css: str) -> tuple[float, float, float]:
    nums = [float(x) for x in re.findall(r"[\d.]+", css)[:3]]
    assert len(nums) == 3, css
    return nums[0], nums[1], nums[2]


RING_JS = """
const a = document.activeElement, list = document.querySelector(arguments[0]);
if (!a || !list || !list.contains(a)) return null;
const cs = getComputedStyle(a);
let bg = 'rgba(0, 0, 0, 0)';
for (let e = list; e && /rgba\\(0, 0, 0, 0\\)|transparent/.test(bg); e = e.parentElement) bg = getComputedStyle(e).backgroundColor;
if (/rgba\\(0, 0, 0, 0\\)/.test(bg)) bg = getComputedStyle(document.documentElement).backgroundColor;
if (/rgba\\(0, 0, 0, 0\\)/.test(bg)) bg = getComputedStyle(document.body).backgroundColor;
return {element: a.outerHTML.slice(0, 80), visible: a.matches(':focus-visible'), style: cs.outlineStyle,
        width: parseFloat(cs.outlineWidth), offset: parseFloat(cs.outlineOffset), color: cs.outlineColor, page: bg};
"""

RING_LISTS = [
    # The bounty grid is the built-in list template: its ring is the theme's (.cards-grid .card-link).
    pytest.param("bounties", '[data-layout="grid"]'),
    pytest.param("trends", '[data-layout="trends"]'),
    pytest.param("boxoffice", '[data-layout="ranking"]'),
]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("app,selector", RING_LISTS)
def test_focus_ring_on_the_list_is_clearly_visible(driver, app, selector, scheme):
    a = BY_NAME[app]
    set_color_scheme(driver, scheme)
    try:
        open_page(driver, driver.base_url + a.list_path, 1280)
        ring = None
        for _ in range(40):
            ActionChains(driver).send_keys(Keys.TAB).perform()
            ring = driver.execute_script(RING_JS, selector)
            if ring:
                break
        assert ring, f"{a.list_path}: Tab never reached the list"
        assert ring["visible"], f"the focused card link does not match :focus-visible: {fmt(ring)}"
        assert ring["style"] not in ("none", "hidden") and ring["width"] >= 2, \
            f"{a.list_path} ({scheme}): the focus ring is {ring['width']} px ({ring['style']}), want 2 px or more: {fmt(ring)}"
        assert ring["style"] != "auto", f"the browser's own 1 px ring: {fmt(ring)}"
        assert ring["offset"] != 0, f"the ring sits on the control's edge: {fmt(ring)}"
        ratio = contrast(rgb(ring["color"]), rgb(ring["page"]))
        assert ratio >= 3, f"{a.list_path} ({scheme}): the ring's contrast with the page is {ratio:.2f}:1, want 3:1: {fmt(ring)}"
    finally:
        set_color_scheme(driver, "")


# --------------------------------------------------------------------------- favicon


def fetch(url: str) -> tuple[int, bytes, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read(), r.headers.get("Content-Type", "")
    except urllib.error.HTTPError as e:
        return e.code, b"", ""


def test_favicon_is_served(base_url):
    status, body, _ = fetch(base_url + "/favicon.ico")
    assert status == 200, f"/favicon.ico -> {status}"
    assert body[:4] == b"\x00\x00\x01\x00", f"/favicon.ico is not an ICO file: {body[:8]!r}"
    count = int.from_bytes(body[4:6], "little")
    sizes = sorted(body[6 + 16 * i] or 256 for i in range(count))
    assert 16 in sizes and 32 in sizes, f"/favicon.ico holds sizes {sizes}, want 16 and 32"


@pytest.mark.parametrize("path", ["/", "/bounties/", "/bounties/luffy/", "/pinterest/", "/trends/",
                                  "/trends/search/", "/boxoffice/", "/404.html"])
def test_no_page_asks_for_a_missing_icon(driver, path):
    """The icon a page names (<link rel=icon>, else the browser's /favicon.ico) is there, and the
    page logs no error (a missing favicon is a console error in Chromium)."""
    open_page(driver, driver.base_url + path, 1280)
    icons = driver.execute_script("return [...document.querySelectorAll('link[rel~=icon]')].map(l => l.href)")
    for href in icons or [driver.base_url + "/favicon.ico"]:
        status, _, _ = fetch(href)
        assert status == 200, f"{path}: its icon {href} -> {status}"


def test_404_page_says_what_happened(driver):
    """The 404 page says, in the site's language, that the page is not there, and leads home."""
    open_page(driver, driver.base_url + "/404.html", 375)
    page = driver.execute_script("""
        const main = document.querySelector('main');
        return {lang: document.documentElement.lang, h1: main.querySelector('h1').innerText,
                text: main.innerText, home: [...main.querySelectorAll('a[href]')].some(a => a.getAttribute('href') === '/')};""")
    assert page["lang"] == "ko" and re.search(r"[\uAC00-\uD7A3]", page["h1"]), f"the 404 page's heading: {fmt(page)}"
    assert "찾을 수 없" in page["text"] and page["home"], fmt(page)


# --------------------------------------------------------------------------- Korean line breaks

# Every run of Hangul syllables in the page's text, and the lines it is laid out on.
BROKEN_WORDS_JS = """
const out = [], root = document.querySelector(arguments[0]);
const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
for (let n = walker.nextNode(); n; n = walker.nextNode()) {
  if (!n.parentElement.checkVisibility() || n.parentElement.closest('.visually-hidden')) continue;  // not laid out in lines
  for (const m of n.data.matchAll(/[\\uAC00-\\uD7A3]+/g)) {
    if (m[0].length < 2) continue;
    const tops = new Set();
    for (let i = 0; i < m[0].length; i++) {
      const r = document.createRange();
      r.setStart(n, m.index + i); r.setEnd(n, m.index + i + 1);
      const box = r.getClientRects()[0];
      if (box) tops.add(Math.round(box.top));
    }
    if (tops.size > 1) out.push(m[0]);
  }
}
return out;
"""

KOREAN_PAGES = [("/trends/search/", "main"), ("/trends/", "main"), ("/boxoffice/", "main"),
                ("/trends/%ED%95%9C%EA%B0%95-%ED%83%90%EC%A0%95%EB%8B%A8/", "main"), ("/bounties/luffy/", "main")]


@pytest.mark.parametrize("width", [320, 375])
@pytest.mark.parametrize("path,root", KOREAN_PAGES, ids=[p for p, _ in KOREAN_PAGES])
def test_korean_words_do_not_break_inside(driver, path, root, width):
    open_page(driver, driver.base_url + path, width)
    finish_animations(driver)  # the bounty sheet's labels fly in, scaled
    broken = driver.execute_script(BROKEN_WORDS_JS, root)
    assert not broken, f"{path} at {width}px: Korean words broken across lines: {broken}"
