"""The photo viewer and feed as a user of the Unsplash-style app finds them (issue 50 items 2, 4,
5, 7 and 9), in real Chromium at 375 and 1,280 px, with geometry measured:

* Paging with a mouse (/photos/view/): previous/next buttons where a mouse is the pointer or the
  screen is wide (named, none past either end, the focus handed on when one goes); a mouse drag
  sideways pages (the photos follow it; past a sixth of the width or flicked the next one comes,
  else the same one comes back); a vertical wheel turn pages once. A finger gets no buttons and
  swipes as before.
* Pull down (item 4): at every step of a drag the photo is where the pointer is and the black
  fades in proportion; released short of the threshold it springs back (at once with reduced
  motion), past it the viewer closes.
* Mid-swipe (item 5): no part of a photo's author row, avatar, "사진 정보" link or caption passes
  under the fixed ✕ and ⓘ buttons, at any point between two photos (and held by a real finger or
  mouse halfway).
* The desktop feed (item 7): Tab visits the cards column by column, each top to bottom, the order
  the eye reads the masonry's columns in; Shift+Tab the reverse; the focus ring is at least 2 px
  and outside the photo; the focused card is not under the tab bar.
* Room for the tab bar (item 9): on /photos/topics/ and /photos/users/ at 375 px the footer ends
  above the bar, also with a 34 px bottom safe area (a phone's home indicator).

Every test also fails on a console error or an uncaught exception of the page (`page_errors`).
Waits poll for the state they need (helpers.wait_for, WAIT seconds at most), never a fixed sleep.
"""

from __future__ import annotations

import json
import time
import uuid

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from helpers import WAIT, fmt, next_frames, open_at, page_layout_shift, set_reduced_motion, wait_for
from test_photos import FEED_IDS, PAGER_URL, PHOTOS, Pointer, backdrop_alpha, fills_viewport, photo_box, slide

WIDTHS = [375, 1280]
EPS = 0.5


# --------------------------------------------------------------------------- console errors

ERRORS_JS = """(() => {
  const key = %s;
  const note = text => {
    try {
      const all = JSON.parse(sessionStorage.getItem(key) || '[]');
      all.push(location.pathname + ': ' + text);
      sessionStorage.setItem(key, JSON.stringify(all));
    } catch (e) { }
  };
  const error = console.error;
  console.error = function (...args) { note('console.error ' + args.map(String).join(' ')); return error.apply(this, args); };
  addEventListener('error', e => note('uncaught ' + (e.message || e.type) + ' ' + (e.filename || '') + ':' + (e.lineno || '')));
  addEventListener('unhandledrejection', e => note('unhandled rejection ' + String(e.reason)));
})();"""


@pytest.fixture(autouse=True)
def page_errors(browser):
    """Records console.error calls, uncaught exceptions and unhandled rejections of every page the
    test opens (in sessionStorage, which outlives a navigation on one origin); the test fails on any."""
    key = "e2e-errors-" + uuid.uuid4().hex
    ident = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": ERRORS_JS % json.dumps(key)})["identifier"]
    try:
        yield
        try:
            errors = browser.execute_script("return JSON.parse(sessionStorage.getItem(arguments[0]) || '[]')", key)
        except Exception:  # noqa: BLE001 - a page without sessionStorage (about:blank) has none
            errors = []
        assert not errors, "errors on the page:\n" + "\n".join(errors)
    finally:
        browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": ident})


@pytest.fixture
def touch(browser):
    browser.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
    try:
        yield
    finally:
        browser.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})


# --------------------------------------------------------------------------- the viewer

def open_viewer(driver, base_url, pid: str, width: int, *, phone: bool = False, height: int = 800) -> dict:
    """The viewer at #photo-<pid>, `width` × `height`: a desktop window (a mouse) unless `phone`."""
    driver.get("about:blank")   # a fresh document, not a same-page fragment jump
    open_at(driver, f"{base_url}{PAGER_URL}#photo-{pid}", width, height, mobile=phone)
    return wait_for(driver, lambda d: (lambda s: s if fills_viewport(s) else None)(slide(d, pid)), WAIT,
                    lambda: f"#photo-{pid} at {width}px does not fill the viewport: {fmt(slide(driver, pid))}")


def shows(driver, pid: str) -> bool:
    """The viewer has settled on `pid`: its slide fills the window and the address names it."""
    s = slide(driver, pid)
    return fills_viewport(s) and s["hash"] == f"#photo-{pid}"


def wait_shows(driver, pid: str, why: str) -> None:
    wait_for(driver, lambda d: shows(d, pid) and not d.execute_script(
        "return document.querySelector('[data-pager]').classList.contains('pager-paging')"), WAIT,
        lambda: f"{why}: the viewer does not show #photo-{pid}: {fmt(slide(driver, pid))}, "
                f"scrollLeft {pager_left(driver)}")


STEPS_JS = """
return [...document.querySelectorAll('[data-pager] button')].filter(b => !b.matches('[data-info-toggle]')).map(b => {
  const r = b.getBoundingClientRect();
  return {name: b.textContent.trim(), label: b.getAttribute('aria-label'), step: b.getAttribute('data-pager-step'),
          shown: b.checkVisibility({visibilityProperty: true, opacityProperty: true}), focused: b === document.activeElement,
          left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height};
});
"""


def step_buttons(driver) -> dict:
    """The viewer's previous/next buttons by their accessible name."""
    return {b["label"] or b["name"]: b for b in driver.execute_script(STEPS_JS)}


PREV, NEXT = "이전 사진", "다음 사진"


def click_at(driver, b: dict) -> None:
    """A real mouse click in the middle of a measured rectangle."""
    x, y = (b["left"] + b["right"]) / 2, (b["top"] + b["bottom"]) / 2
    for kind, buttons in (("mousePressed", 1), ("mouseReleased", 0)):
        driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left",
                                                             "buttons": buttons, "clickCount": 1})


@pytest.mark.parametrize("width", WIDTHS)
def test_previous_and_next_buttons_page_with_a_mouse(browser, base_url, width):
    first, second = FEED_IDS[0], FEED_IDS[1]
    open_viewer(browser, base_url, first, width)
    b = step_buttons(browser)
    assert set(b) == {PREV, NEXT}, f"{width}px: the viewer's paging buttons are named {sorted(b)}, want {PREV!r} and {NEXT!r}"
    assert not b[PREV]["shown"], f"{width}px: a previous button on the first photo: {fmt(b[PREV])}"
    nb = b[NEXT]
    assert nb["shown"], f"{width}px: no next button for a mouse: {fmt(nb)}"
    assert nb["width"] >= 44 and nb["height"] >= 44, f"{width}px: the next button is {nb['width']}×{nb['height']} px"
    assert 0 <= nb["left"] and nb["right"] <= width and width - nb["right"] <= 24, f"{width}px: next is not at the right edge: {fmt(nb)}"
    assert abs((nb["top"] + nb["bottom"]) / 2 - 400) <= 2, f"{width}px: next is not halfway down: {fmt(nb)}"
    click_at(browser, nb)
    wait_shows(browser, second, f"{width}px: the next button")
    b = step_buttons(browser)
    assert b[PREV]["shown"] and b[NEXT]["shown"], f"{width}px: on the second photo: {fmt(b)}"
    pb = b[PREV]
    assert pb["left"] <= 24 and abs((pb["top"] + pb["bottom"]) / 2 - 400) <= 2, f"{width}px: previous is not at the left edge: {fmt(pb)}"
    click_at(browser, pb)
    wait_shows(browser, first, f"{width}px: the previous button")
    # The last photo has no next.
    open_viewer(browser, base_url, FEED_IDS[-1], width)
    b = step_buttons(browser)
    assert b[PREV]["shown"] and not b[NEXT]["shown"], f"{width}px: on the last photo: {fmt(b)}"


def test_the_focus_stays_on_a_button_at_the_end(browser, base_url):
    """Enter on the focused next button brings the last photo: the next button goes, and the focus
    goes to the previous one, not to the page."""
    open_viewer(browser, base_url, FEED_IDS[-2], 1280)
    browser.execute_script("document.querySelector('[data-pager-step=\"1\"]').focus()")
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    wait_shows(browser, FEED_IDS[-1], "Enter on the next button")
    b = step_buttons(browser)
    assert not b[NEXT]["shown"] and b[PREV]["focused"], f"the focus after the last photo came: {fmt(b)}; " \
        f"active element {browser.execute_script('return document.activeElement.outerHTML.slice(0, 80)')}"


def test_a_finger_swipes_and_gets_no_buttons(browser, base_url, touch):
    pid, after = FEED_IDS[2], FEED_IDS[3]
    open_viewer(browser, base_url, pid, 375, phone=True, height=812)
    b = step_buttons(browser)
    assert not b[PREV]["shown"] and not b[NEXT]["shown"], f"paging buttons over a phone's photo: {fmt(b)}"
    t0 = time.time()

    def touch_at(kind, x, ms):
        points = [] if kind == "touchEnd" else [{"x": x, "y": 400, "id": 1}]
        browser.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points, "timestamp": t0 + ms / 1000})

    touch_at("touchStart", 340, 0)
    for k in range(1, 13):
        touch_at("touchMove", 340 - 20 * k, 30 * k)
    touch_at("touchEnd", 100, 400)
    wait_shows(browser, after, "a finger's swipe of 240 px to the left")


def pager_left(driver) -> float:
    return driver.execute_script("return document.querySelector('.pager').scrollLeft")


def mouse_drag(driver, x0: float, y0: float, moves: list[tuple[float, float]], step_ms: float, release_ms: float,
               during=None) -> None:
    """Press at (x0, y0), move through each (dx, dy) `step_ms` apart, call `during()` while the
    button is still down, release `release_ms` after the last move."""
    p = Pointer(driver, "mouse")
    p._send("down", x0, y0, 0)
    ms = 0.0
    for dx, dy in moves:
        ms += step_ms
        p._send("move", x0 + dx, y0 + dy, ms)
    if during:
        during()
    dx, dy = moves[-1]
    p._send("up", x0 + dx, y0 + dy, ms + release_ms)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_mouse_drag_pages(browser, base_url, width):
    a, b, c = FEED_IDS[3], FEED_IDS[4], FEED_IDS[5]
    open_viewer(browser, base_url, b, width)
    before = photo_box(browser, b)
    x0, y0 = width * 0.7, 400
    far = width * 0.4
    moves = [(-far * k / 8, 2 * k) for k in range(1, 9)]

    def follows():
        # While the button is down the photos are where the mouse put them, not pulled down.
        left = wait_for(browser, lambda d: (lambda s: s if abs(s["left"] + far) <= 2 else None)(slide(d, b)), WAIT,
                        lambda: f"{width}px: the photo did not follow the mouse {far:.0f} px left: {fmt(slide(browser, b))}")
        box = photo_box(browser, b)
        assert abs(box["cy"] - before["cy"]) <= 0.5 and abs(backdrop_alpha(box) - backdrop_alpha(before)) < 0.01, \
            f"{width}px: a sideways drag pulled the photo down: {fmt(before)} → {fmt(box)}"
        return left

    mouse_drag(browser, x0, y0, moves, 40, 400, during=follows)   # 40 % of the width, let go slowly
    wait_shows(browser, c, f"{width}px: a drag of 40 % to the left")
    mouse_drag(browser, width * 0.3, y0, [(far * k / 8, 0) for k in range(1, 9)], 40, 400)
    wait_shows(browser, b, f"{width}px: a drag of 40 % to the right")
    # A short slow drag brings the same photo back; a short fast one (a flick) pages.
    mouse_drag(browser, x0, y0, [(-width * 0.05 * k / 4, 0) for k in range(1, 5)], 40, 400)
    wait_shows(browser, b, f"{width}px: a slow drag of 5 %")
    assert abs(pager_left(browser) - FEED_IDS.index(b) * width) <= 1
    mouse_drag(browser, x0, y0, [(-20, 0), (-40, 0), (-60, 0)], 16, 16)
    wait_shows(browser, c, f"{width}px: a flick of 60 px in 48 ms")
    # The end of a drag is no click on the photo: the info bar stays.
    assert browser.execute_script("return document.querySelector('[data-pager]').classList.contains('info-off')") is False


def test_a_mouse_drag_past_the_first_photo_stays(browser, base_url):
    first = FEED_IDS[0]
    open_viewer(browser, base_url, first, 1280)
    mouse_drag(browser, 400, 400, [(60 * k, 0) for k in range(1, 9)], 40, 400)
    wait_shows(browser, first, "a drag to the right on the first photo")


def wheel(driver, x: float, deltas: list[float], t0: float, step_ms: float = 16) -> None:
    """Wheel events over (x, 400), `step_ms` apart from `t0` (their own times, as a trackpad's
    stream has, whatever the machine's speed)."""
    for k, dy in enumerate(deltas):
        driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": x, "y": 400, "deltaX": 0,
                                                             "deltaY": dy, "timestamp": t0 + k * step_ms / 1000})


@pytest.mark.parametrize("width", WIDTHS)
def test_a_vertical_wheel_turn_pages_once(browser, base_url, width):
    """A mouse wheel's notch pages one photo; a trackpad's stream of small wheel events (one
    turn) pages one photo too, not one per event."""
    pid = FEED_IDS[7]
    open_viewer(browser, base_url, pid, width)
    wheel(browser, width / 2, [120], time.time())
    wait_shows(browser, FEED_IDS[8], f"{width}px: a wheel notch down")
    wheel(browser, width / 2, [-120], time.time())
    wait_shows(browser, pid, f"{width}px: a wheel notch up")
    wheel(browser, width / 2, [4, 12, 25, 30, 25, 18, 10, 6, 3, 1], time.time())
    wait_shows(browser, FEED_IDS[8], f"{width}px: one trackpad turn down (10 wheel events 16 ms apart)")
    assert slide(browser, FEED_IDS[8])["hash"] == f"#photo-{FEED_IDS[8]}"


# --------------------------------------------------------------------------- pull down (item 4)

@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("reduced", [False, True], ids=["motion", "reduced-motion"])
def test_pull_down_follows_step_by_step(browser, base_url, width, reduced, request):
    """Each move of a pull down puts the photo where the pointer is and fades the black in
    proportion, before the pointer is let go; short of the threshold it comes back (with a spring,
    or at once with reduced motion); a longer pull closes the viewer."""
    kind = "touch" if width == 375 else "mouse"
    if kind == "touch":
        request.getfixturevalue("touch")
    set_reduced_motion(browser, reduced)
    try:
        pid = FEED_IDS[4]
        open_viewer(browser, base_url, pid, width, phone=kind == "touch", height=812 if width == 375 else 800)
        before = photo_box(browser, pid)
        assert backdrop_alpha(before) == 1.0, fmt(before)
        p = Pointer(browser, kind)
        p._send("down", before["cx"], before["cy"], 0)
        alphas, ms = [1.0], 0
        for dy in (12, 24, 48, 72, 96, 110):
            ms += 50
            p._send("move", before["cx"], before["cy"] + dy, ms)
            box = wait_for(browser, lambda d: (lambda b: b if abs(b["cy"] - before["cy"] - dy) <= 2 else None)(photo_box(d, pid)),
                           WAIT, lambda: f"{kind} at {width}px: the pointer is {dy} px down, the photo "
                                         f"{photo_box(browser, pid)['cy'] - before['cy']:.1f} px")
            alphas.append(backdrop_alpha(box))
        assert all(b < a for a, b in zip(alphas, alphas[1:])), f"{kind} at {width}px: the black did not fade with the pull: {alphas}"
        assert alphas[-1] < 0.9, f"{kind} at {width}px: 110 px down the black is still {alphas[-1]:.2f} opaque"
        p.x, p.y0, p.ms, p.dy = before["cx"], before["cy"], ms, 110
        p.release(after_ms=400)   # short of the threshold (max(96 px, 18 % of the height)), slowly
        if reduced:
            next_frames(browser, 2)
            b = photo_box(browser, pid)
            assert abs(b["cy"] - before["cy"]) <= 0.5 and b["animations"] == 0, \
                f"{kind} at {width}px, reduced motion: the photo should be back at once: {fmt(b)}"
        else:
            wait_for(browser, lambda d: (lambda b: abs(b["cy"] - before["cy"]) <= 0.5 and b["animations"] == 0)(photo_box(d, pid)),
                     WAIT, lambda: f"{kind} at {width}px: the photo did not spring back: {fmt(photo_box(browser, pid))}")
        assert abs(backdrop_alpha(photo_box(browser, pid)) - 1) < 0.01 and shows(browser, pid)
        # Past the threshold the viewer closes (opened directly: to the feed).
        p = Pointer(browser, kind)
        p.drag(before["cx"], before["cy"], [20, 60, 120, 180, 240, 300], 50)
        wait_for(browser, lambda d: abs(photo_box(d, pid)["cy"] - before["cy"] - 300) <= 2, WAIT,
                 lambda: f"{kind} at {width}px: the photo did not follow 300 px down: {fmt(photo_box(browser, pid))}")
        p.release(after_ms=400)
        wait_for(browser, lambda d: d.current_url == base_url + "/photos/", WAIT,
                 lambda: f"{kind} at {width}px: a pull of 300 px did not close the viewer ({browser.current_url})")
    finally:
        set_reduced_motion(browser, False)


# --------------------------------------------------------------------------- mid-swipe (item 5)

OVERLAP_JS = """
const buttons = [...document.querySelectorAll('[data-pager-close], [data-info-toggle]')].map(b => b.getBoundingClientRect());
const out = [];
for (const s of document.querySelectorAll('li.slide')) {
  for (const el of s.querySelectorAll('.slide-info a, .slide-info img, .slide-info span, .slide-caption')) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || !el.checkVisibility({visibilityProperty: true, opacityProperty: true})) continue;
    for (const b of buttons) {
      const dx = Math.min(r.right, b.right) - Math.max(r.left, b.left), dy = Math.min(r.bottom, b.bottom) - Math.max(r.top, b.top);
      if (dx > 0.5 && dy > 0.5) out.push(s.id + ' ' + el.tagName.toLowerCase() + '.' + el.className + ' ' +
        [r.left, r.top, r.right, r.bottom].map(Math.round).join(',') + ' under a button at ' + [b.left, b.top, b.right, b.bottom].map(Math.round).join(','));
    }
  }
}
return {overlaps: out, buttons: buttons.length, left: document.querySelector('.pager').scrollLeft};
"""


def overlaps(driver) -> dict:
    res = driver.execute_script(OVERLAP_JS)
    assert res["buttons"] == 2, f"the ✕ and ⓘ buttons are not both there: {fmt(res)}"
    return res


@pytest.mark.parametrize("width", WIDTHS)
def test_nothing_slides_under_the_close_and_info_buttons(browser, base_url, width):
    """Between any two photos (the scroller held at tenths of the way), no author, avatar, link
    or caption of either photo is under ✕ or ⓘ."""
    pid = FEED_IDS[0]
    phone = width == 375
    open_viewer(browser, base_url, pid, width, phone=phone, height=812 if phone else 800)
    browser.execute_script("document.querySelector('.pager').style.scrollSnapType = 'none'")
    problems = []
    for k in range(len(FEED_IDS) - 1):
        for tenth in range(0, 10):
            left = (k + tenth / 10) * width
            browser.execute_script("document.querySelector('.pager').scrollLeft = arguments[0]", left)
            res = overlaps(browser)
            assert abs(res["left"] - left) <= 1, f"could not hold the scroller at {left}: {fmt(res)}"
            problems += res["overlaps"]
    assert not problems, f"{width}px: {len(problems)} overlaps, e.g.\n" + "\n".join(problems[:8])


def test_nothing_under_the_buttons_while_a_finger_holds_a_swipe(browser, base_url, touch):
    pid = FEED_IDS[0]
    open_viewer(browser, base_url, pid, 375, phone=True, height=812)
    t0 = time.time()

    def touch_at(kind, x, ms):
        points = [] if kind == "touchEnd" else [{"x": x, "y": 400, "id": 1}]
        browser.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points, "timestamp": t0 + ms / 1000})

    touch_at("touchStart", 350, 0)
    seen = []
    for k in range(1, 16):
        touch_at("touchMove", 350 - 20 * k, 30 * k)
        res = overlaps(browser)
        seen.append(res["left"])
        assert not res["overlaps"], f"a finger {20 * k} px into a swipe: " + "\n".join(res["overlaps"])
    touch_at("touchEnd", 50, 600)
    assert max(seen) > 100, f"the finger did not move the photos: scrollLeft {seen}"


def test_nothing_under_the_buttons_while_a_mouse_holds_a_drag(browser, base_url):
    pid = FEED_IDS[0]
    open_viewer(browser, base_url, pid, 1280)
    held = {}

    def check():
        wait_for(browser, lambda d: pager_left(d) >= 500, WAIT, lambda: f"the mouse did not move the photos: {pager_left(browser)}")
        held.update(overlaps(browser))

    mouse_drag(browser, 1100, 400, [(-70 * k, 0) for k in range(1, 9)], 40, 400, during=check)
    assert not held["overlaps"], "a mouse halfway through a drag:\n" + "\n".join(held["overlaps"])


@pytest.mark.parametrize("width", WIDTHS)
def test_the_viewer_does_not_shift(browser, base_url, width):
    phone = width == 375
    open_viewer(browser, base_url, FEED_IDS[5], width, phone=phone, height=812 if phone else 800)
    res = page_layout_shift(browser, settle_ms=400)
    assert res["cls"] == 0, f"{PAGER_URL} at {width}px: cumulative layout shift {res['cls']:.5f}: {fmt(res['entries'])}"


# --------------------------------------------------------------------------- feed Tab order (item 7)

FEED_CARDS_JS = """
return [...document.querySelectorAll('[data-layout="masonry"] > [data-item]')].map(c => {
  const r = c.getBoundingClientRect();
  return {item: c.getAttribute('data-item'), left: r.left + scrollX, top: r.top + scrollY};
});
"""

FOCUS_JS = """
const a = document.activeElement, card = a && a.closest('[data-layout="masonry"] > [data-item]');
if (!card) return {item: null, desc: a ? a.tagName + '.' + a.className : null};
const ring = el => { const cs = getComputedStyle(el);
  return {style: cs.outlineStyle, width: parseFloat(cs.outlineWidth), offset: parseFloat(cs.outlineOffset), color: cs.outlineColor}; };
const r = card.getBoundingClientRect(), bar = document.querySelector('[data-tabbar]');
const b = bar ? bar.getBoundingClientRect() : null;
return {item: card.getAttribute('data-item'), visible: a.matches(':focus-visible'), card: ring(card), link: ring(a),
        top: r.top, bottom: r.bottom, innerHeight: innerHeight, barTop: b && b.top < innerHeight - 1 ? b.top : innerHeight};
"""


def reading_order(cards: list[dict]) -> list[str]:
    """Column by column, left to right; each column top to bottom."""
    lefts = sorted({round(c["left"]) for c in cards})
    return [c["item"] for c in sorted(cards, key=lambda c: (lefts.index(round(c["left"])), c["top"]))]


@pytest.mark.parametrize("width", [375, 1024, 1280])
def test_tab_goes_down_each_column_of_the_feed(browser, base_url, width):
    open_at(browser, base_url + "/photos/", width, 800, mobile=width < 768)
    cards = browser.execute_script(FEED_CARDS_JS)
    assert len(cards) == len(PHOTOS)
    want = reading_order(cards)
    columns = len({round(c["left"]) for c in cards})
    assert columns == {375: 1, 1024: 2, 1280: 3}[width], f"{width}px: {columns} columns"
    visited = []
    for _ in range(len(cards) + 40):
        ActionChains(browser).send_keys(Keys.TAB).perform()
        focus = browser.execute_script(FOCUS_JS)
        if focus["item"] is None:
            if visited:
                break
            continue
        visited.append(focus["item"])
        ring = max((focus["card"], focus["link"]), key=lambda r: r["width"] if r["style"] != "none" else 0)
        assert focus["visible"] and ring["style"] != "none" and ring["width"] >= 2, \
            f"{width}px: card {focus['item']} has no focus ring of 2 px or more: {fmt(focus)}"
        if focus["bottom"] - focus["top"] <= focus["barTop"]:
            assert focus["top"] >= -EPS and focus["bottom"] <= focus["barTop"] + EPS, \
                f"{width}px: the focused card {focus['item']} is not wholly in view above the tab bar: {fmt(focus)}"
    assert visited == want, (f"{width}px: Tab visits the cards in the order\n{visited}\nnot column by column\n{want}")
    back = []
    ActionChains(browser).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
    for _ in range(len(cards)):
        f = browser.execute_script(FOCUS_JS)
        if f["item"] is None:
            break
        back.append(f["item"])
        ActionChains(browser).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
    assert back == want[::-1], f"{width}px: Shift+Tab visits\n{back}\nnot the reverse of\n{want}"


def test_the_feed_focus_ring_is_outside_the_photo(browser, base_url):
    """On the desktop feed the ring is drawn around the card, on the page's background (which any
    photo's colours leave visible), at least 2 px wide."""
    open_at(browser, base_url + "/photos/", 1280, 800)
    for _ in range(30):
        ActionChains(browser).send_keys(Keys.TAB).perform()
        f = browser.execute_script(FOCUS_JS)
        if f["item"]:
            break
    else:
        pytest.fail("Tab never reached a card of the feed")
    ring = f["card"]
    assert ring["style"] not in ("none", "") and ring["width"] >= 2 and ring["offset"] >= 0, \
        f"the focused card has no ring of 2 px or more outside it: {fmt(f)}"


# --------------------------------------------------------------------------- tab bar room (item 9)

ROOM_JS = """
const f = document.querySelector('.site-footer').getBoundingClientRect();
const b = document.querySelector('[data-tabbar]').getBoundingClientRect();
const de = document.documentElement;
return {footerTop: f.top, footerBottom: f.bottom, barTop: b.top, barBottom: b.bottom, innerHeight: innerHeight,
        scrollY: scrollY, maxScroll: de.scrollHeight - innerHeight,
        hidden: document.querySelector('[data-tabbar]').classList.contains('tabbar-hidden')};
"""


@pytest.mark.parametrize("height", [812, 667])
@pytest.mark.parametrize("inset", [0, 34], ids=["no-safe-area", "safe-area-34"])
@pytest.mark.parametrize("path", ["/photos/topics/", "/photos/users/"])
def test_the_tab_bar_leaves_the_footer_uncovered(browser, base_url, path, inset, height):
    """At the page's end the footer is above the tab bar, the bar shown: on a 375 × 812 phone these
    pages are too short to scroll (so the bar never hides), on a 375 × 667 one they scroll (the
    bar is brought back, as scrolling up or a focus in it does)."""
    browser.execute_cdp_cmd("Emulation.setSafeAreaInsetsOverride", {"insets": {"bottom": inset}})
    try:
        open_at(browser, base_url + path, 375, height, mobile=True)
        room = browser.execute_script(ROOM_JS)
        assert abs(room["barBottom"] - room["innerHeight"]) <= 1 and not room["hidden"], f"{path}: the bar is not shown: {fmt(room)}"
        assert abs(room["barBottom"] - room["barTop"] - (57 + inset)) <= 1, f"{path}: the bar is not 57 + {inset} px tall: {fmt(room)}"
        browser.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
        wait_for(browser, lambda d: (lambda r: r["scrollY"] >= r["maxScroll"] - 1)(d.execute_script(ROOM_JS)),
                 WAIT, lambda: f"{path}: did not scroll to the end: {fmt(browser.execute_script(ROOM_JS))}")
        next_frames(browser, 3)   # the bar's scroll handler runs in a frame
        browser.execute_script("document.querySelector('[data-tabbar] a').focus({preventScroll: true})")
        room = wait_for(browser, lambda d: (lambda r: r if not r["hidden"] and abs(r["barBottom"] - r["innerHeight"]) <= 0.5 else None)(
            d.execute_script(ROOM_JS)), WAIT, lambda: f"{path}: the bar did not come back: {fmt(browser.execute_script(ROOM_JS))}")
        assert room["scrollY"] >= room["maxScroll"] - 1, f"{path}: the page moved: {fmt(room)}"
        assert room["footerBottom"] <= room["barTop"] + EPS, \
            f"{path} at 375 × {height} (safe area {inset} px): the tab bar covers the footer's last " \
            f"{room['footerBottom'] - room['barTop']:.1f} px: {fmt(room)}"
        if height == 812:
            assert room["maxScroll"] <= 48, f"{path}: the page now scrolls far enough to hide the bar: {fmt(room)}"
        res = page_layout_shift(browser, settle_ms=300)
        assert res["cls"] == 0, f"{path}: layout shift {res['cls']:.5f}: {fmt(res['entries'])}"
    finally:
        browser.execute_cdp_cmd("Emulation.setSafeAreaInsetsOverride", {"insets": {}})
