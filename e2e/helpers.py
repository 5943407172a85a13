"""Shared browser helpers and JS snippets for sitegen's end-to-end tests.

Everything here is page-agnostic so that later tests (masonry page, other pages) can reuse it:
open a page at an exact viewport, read element rectangles, count columns, find overlaps,
check horizontal overflow, make sure images are loaded, measure layout shift, and emulate
reduced motion.

Viewport model
--------------
`open_at(driver, url, width, height, mobile=False)` uses CDP `Emulation.setDeviceMetricsOverride`
so that `window.innerWidth == width`.

* mobile=False (the default) is a desktop window: Chromium on Linux draws *classic* scrollbars,
  so a page taller than the viewport loses ~15 px of layout width to the vertical scrollbar
  (`document.documentElement.clientWidth == width - 15`).  This is what catches `100vw` bugs.
* mobile=True emulates a phone: overlay scrollbars (clientWidth == width) and the viewport
  `<meta>` is honoured (a page without one lays out at 980 px and fails the width checks).
  Beware: in this mode Chromium *widens the layout viewport* to fit overflowing content, so
  `innerWidth` grows beyond `width`; `assert_no_horizontal_scroll` therefore compares against
  the requested width and `clientWidth`, never against `innerWidth` alone.
"""

from __future__ import annotations

import json
import math
import re
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Iterable
from urllib.parse import quote, unquote

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.support.ui import WebDriverWait

# Tolerance used to decide that two floats are "the same" pixel position.
PX_EPS = 0.5


# --------------------------------------------------------------------------- navigation


def open_at(driver, url: str, width: int, height: int = 900, *, mobile: bool = False,
            timeout: float = 15.0) -> None:
    """Set an exact CSS viewport (deviceScaleFactor 1), load `url`, and wait until the document
    is complete and its fonts are ready."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": int(width), "height": int(height), "deviceScaleFactor": 1, "mobile": bool(mobile),
    })
    driver.get(url)
    wait_ready(driver, timeout)
    inner = driver.execute_script("return window.innerWidth")
    if not mobile:
        # In mobile mode innerWidth may legitimately grow past `width` on overflowing pages;
        # assert_no_horizontal_scroll reports that case.  On desktop it must be exact.
        assert inner == width, f"viewport emulation failed: innerWidth={inner}, wanted {width}"


def open_nojs(driver, url: str, width: int, height: int = 900) -> None:
    """open_at for the JavaScript-off browser: without its async-script waits (they need page
    timers, which JS-off pages lack)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": int(width), "height": int(height), "deviceScaleFactor": 1, "mobile": width < 768})
    driver.get(url)
    end = time.time() + 15
    while driver.execute_script("return document.readyState") != "complete":
        if time.time() > end:
            raise TimeoutException(f"{url} did not finish loading")
        time.sleep(0.05)


# The upper bound of a wait for something the page does (a transition, a debounced update, a
# search): generous, because a loaded machine is slow, and free, because waits end when it happens.
WAIT = 15.0


def wait_for(driver, predicate, timeout: float = WAIT, message=""):
    """Poll `predicate(driver)` until truthy and return its value; past `timeout`, fail with
    `message` (a text, or a function giving one, so it can describe the page at that moment)."""
    end = time.time() + timeout
    while True:
        value = predicate(driver)
        if value:
            return value
        if time.time() > end:
            raise AssertionError(message() if callable(message) else (message or f"condition not met within {timeout}s on {driver.current_url}"))
        time.sleep(0.05)


# Installed before a page's own scripts (watch_live_reload): notes when the page's live-reload
# EventSource has had the server's `hello`, i.e. the stream is open and edits will reach the page.
LIVE_HELLO_JS = """(() => {
  const Native = window.EventSource;
  if (!Native) return;
  window.__e2eLiveHello = false;
  window.EventSource = class extends Native {
    constructor(...args) { super(...args); this.addEventListener('hello', () => { window.__e2eLiveHello = true; }); }
  };
})();"""


def watch_live_reload(driver) -> None:
    """From the next document on, record the live-reload stream's hello (wait_live_connected)."""
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": LIVE_HELLO_JS})


def wait_live_connected(driver, timeout: float = WAIT) -> None:
    wait_for(driver, lambda d: d.execute_script("return window.__e2eLiveHello === true"), timeout,
             lambda: f"{driver.current_url}: the live-reload stream never said hello")


def wait_ready(driver, timeout: float = 15.0) -> None:
    try:
        WebDriverWait(driver, timeout).until(
            lambda d: d.execute_script("return document.readyState") == "complete")
    except TimeoutException:
        raise AssertionError(f"{driver.current_url}: document.readyState never became 'complete'")
    # document.fonts.ready is a promise; wait for it with an async script.
    driver.set_script_timeout(timeout)
    driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        (document.fonts ? document.fonts.ready : Promise.resolve()).then(() => done(true));
    """)
    next_frames(driver, 2)


def next_frames(driver, n: int = 2) -> None:
    """Wait for `n` animation frames (lets style/layout settle after a change)."""
    driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        let n = arguments[0];
        const step = () => (--n <= 0) ? done(true) : requestAnimationFrame(step);
        requestAnimationFrame(step);
    """, n)


def http_get(url: str, timeout: float = 10.0) -> tuple[int, str]:
    """(status, body) of a plain HTTP GET, without raising on 4xx/5xx."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, r.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8", "replace")


# --------------------------------------------------------------------------- geometry

RECT_JS = """
const r = arguments[0].getBoundingClientRect();
return {left: r.left + scrollX, top: r.top + scrollY, width: r.width, height: r.height,
        right: r.right + scrollX, bottom: r.bottom + scrollY};
"""

RECTS_JS = """
const els = arguments[0] instanceof Element || arguments[0] === null
    ? [arguments[0]] : [...arguments[0]];
return els.map(el => {
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return {left: r.left + scrollX, top: r.top + scrollY, width: r.width, height: r.height,
          right: r.right + scrollX, bottom: r.bottom + scrollY};
});
"""

QUERY_RECTS_JS = """
return [...document.querySelectorAll(arguments[0])].map(el => {
  const r = el.getBoundingClientRect();
  return {left: r.left + scrollX, top: r.top + scrollY, width: r.width, height: r.height,
          right: r.right + scrollX, bottom: r.bottom + scrollY,
          item: el.getAttribute('data-item')};
});
"""

CHILD_RECTS_JS = """
const p = document.querySelector(arguments[0]);
if (!p) return null;
return [...p.children].map(el => {
  const r = el.getBoundingClientRect();
  return {left: r.left + scrollX, top: r.top + scrollY, width: r.width, height: r.height,
          right: r.right + scrollX, bottom: r.bottom + scrollY,
          item: el.getAttribute('data-item')};
});
"""


def rect(driver, element) -> dict:
    """Document-relative rectangle of a WebElement."""
    return driver.execute_script(RECT_JS, element)


def query_rects(driver, selector: str) -> list[dict]:
    """Document-relative rectangles (plus `item` = data-item) of all matches of `selector`."""
    return driver.execute_script(QUERY_RECTS_JS, selector)


def child_rects(driver, parent_selector: str) -> list[dict]:
    """Rectangles of the element children of the first match of `parent_selector`."""
    rects = driver.execute_script(CHILD_RECTS_JS, parent_selector)
    assert rects is not None, f"no element matches {parent_selector!r} on {driver.current_url}"
    return rects


def distinct(values: Iterable[float], eps: float = PX_EPS) -> list[float]:
    """Sorted distinct values, treating values within `eps` of each other as one."""
    out: list[float] = []
    for v in sorted(values):
        if not out or abs(v - out[-1]) > eps:
            out.append(v)
    return out


def columns(rects: list[dict], eps: float = PX_EPS) -> list[float]:
    """Distinct `left` positions of a list of rects: the grid's columns."""
    return distinct((r["left"] for r in rects), eps)


def overlapping_pairs(rects: list[dict], eps: float = PX_EPS) -> list[tuple[int, int]]:
    """Index pairs of rects whose interiors intersect by more than `eps` in both axes."""
    pairs = []
    for i in range(len(rects)):
        a = rects[i]
        for j in range(i + 1, len(rects)):
            b = rects[j]
            dx = min(a["right"], b["right"]) - max(a["left"], b["left"])
            dy = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
            if dx > eps and dy > eps:
                pairs.append((i, j))
    return pairs


def approx(actual: float, expected: float, tol: float) -> bool:
    return math.isfinite(actual) and abs(actual - expected) <= tol


# --------------------------------------------------------------------------- overflow

VIEWPORT_JS = """
const de = document.documentElement;
return {innerWidth: innerWidth, innerHeight: innerHeight, clientWidth: de.clientWidth,
        scrollWidth: de.scrollWidth, bodyScrollWidth: document.body ? document.body.scrollWidth : 0,
        scrollX: scrollX};
"""

# Elements whose right edge sticks out past the layout viewport (for error messages).
WIDE_ELEMENTS_JS = """
const limit = document.documentElement.clientWidth + 0.5;
const out = [];
for (const el of document.querySelectorAll('body *')) {
  const r = el.getBoundingClientRect();
  if (r.right + scrollX > limit || r.left + scrollX < -0.5) {
    let d = el.tagName.toLowerCase();
    if (el.id) d += '#' + el.id;
    if (el.classList.length) d += '.' + [...el.classList].join('.');
    out.push(`${d} [${Math.round(r.left)}..${Math.round(r.right)}]`);
    if (out.length >= 10) break;
  }
}
return out;
"""


def viewport(driver) -> dict:
    return driver.execute_script(VIEWPORT_JS)


def horizontal_overflow(driver, width: int) -> str | None:
    """None if the page cannot scroll sideways at a viewport `width` px wide; else a message.

    Checks scrollWidth against clientWidth (the layout width left after a classic vertical
    scrollbar, so a `100vw` box counts as overflow, as it would show a horizontal scrollbar on a
    desktop) and that the layout viewport was not widened beyond `width` (mobile emulation
    widens it to fit overflowing content)."""
    v = viewport(driver)
    problems = overflow_problems(v, width)
    if not problems:
        return None
    wide = driver.execute_script(WIDE_ELEMENTS_JS)
    return (f"{driver.current_url} at {width}px scrolls sideways: " + "; ".join(problems)
            + (f"; elements past the edge: {wide}" if wide else ""))


def overflow_problems(v: dict, width: int) -> list[str]:
    """horizontal_overflow()'s verdict on a viewport() dict: [] if it cannot scroll sideways."""
    problems = []
    if v["scrollWidth"] > v["clientWidth"]:
        problems.append(f"documentElement.scrollWidth {v['scrollWidth']} > clientWidth {v['clientWidth']}")
    if v["innerWidth"] > width:
        problems.append(f"layout viewport widened to innerWidth {v['innerWidth']} > {width}")
    if v["scrollWidth"] > width:
        problems.append(f"scrollWidth {v['scrollWidth']} > viewport width {width}")
    return problems


def assert_no_horizontal_scroll(driver, width: int) -> None:
    msg = horizontal_overflow(driver, width)
    assert msg is None, msg


# --------------------------------------------------------------------------- images

IMAGES_JS = """
return [...document.images].map(img => ({
  src: img.currentSrc || img.src,
  width: img.getAttribute('width'), height: img.getAttribute('height'),
  alt: img.getAttribute('alt'),
  complete: img.complete, naturalWidth: img.naturalWidth, naturalHeight: img.naturalHeight,
}));
"""

# Every image is first scrolled to, a frame each, so lazy loading starts its fetch (one it missed is
# scrolled to again below); then all are awaited together, so a page of 34 pictures costs its slowest
# fetch, not their sum under load. An image still loading at the deadline is named, not skipped.
LOAD_ALL_IMAGES_JS = """
const done = arguments[arguments.length - 1];
const deadline = performance.now() + arguments[0] * 1000;
const imgs = [...document.images];
const frame = () => new Promise(r => requestAnimationFrame(() => r()));
const late = () => new Promise(r => setTimeout(r, Math.max(0, deadline - performance.now())));
const settled = img => img.complete ? Promise.resolve() : new Promise(res => {
  img.addEventListener('load', res, {once: true});
  img.addEventListener('error', res, {once: true});
});
(async () => {
  for (const img of imgs) {
    img.scrollIntoView({block: 'center'});
    await frame();
  }
  for (const img of imgs) {
    if (img.complete) continue;
    img.scrollIntoView({block: 'center'});
    await Promise.race([settled(img), late()]);
  }
  await Promise.race([Promise.all(imgs.map(i => i.decode().catch(() => {}))), late()]);
  window.scrollTo(0, 0);
  await frame(); await frame();
  done(imgs.filter(i => !i.complete).map(i => i.currentSrc || i.src || i.outerHTML.slice(0, 120)));
})();
"""


def image_info(driver) -> list[dict]:
    return driver.execute_script(IMAGES_JS)


def load_all_images(driver, timeout: float = 60.0) -> list[dict]:
    """Scroll every <img> into view (so lazy images start), wait for each to load or fail,
    scroll back to the top; return image_info(). An image neither loaded nor failed within
    `timeout` seconds fails the test by its address."""
    driver.set_script_timeout(timeout + 30)
    pending = driver.execute_async_script(LOAD_ALL_IMAGES_JS, timeout)
    assert not pending, f"{driver.current_url}: {len(pending)} images still loading after {timeout} s: {pending[:5]}"
    return image_info(driver)


# --------------------------------------------------------------------------- layout shift

CLS_JS = """
const done = arguments[arguments.length - 1];
const settleMs = arguments[0];
const entries = [];
const describe = n => {
  if (!n || !n.tagName) return String(n && n.nodeName);
  let d = n.tagName.toLowerCase();
  if (n.id) d += '#' + n.id;
  if (n.classList && n.classList.length) d += '.' + [...n.classList].join('.');
  const item = n.closest && n.closest('[data-item]');
  if (item) d += `(in ${item.getAttribute('data-item')})`;
  return d;
};
const rect = r => r ? `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}x${Math.round(r.height)}` : '?';
let obs;
try {
  obs = new PerformanceObserver(list => {
    for (const e of list.getEntries()) entries.push(e);
  });
  obs.observe({type: 'layout-shift', buffered: true});
} catch (e) {
  done({error: 'layout-shift PerformanceObserver unsupported: ' + e});
  return;
}
setTimeout(() => {
  for (const e of obs.takeRecords()) entries.push(e);
  obs.disconnect();
  // Count every shift, not only Google's 5 s session windows, and also those flagged
  // hadRecentInput: the tests send no input, but Chromium flags shifts in the first ~500 ms
  // after a viewport change, which mobile emulation makes during load.  A stable page has none.
  const counted = entries;
  done({
    cls: counted.reduce((s, e) => s + e.value, 0),
    entries: counted.map(e => ({t: Math.round(e.startTime), value: e.value, hadRecentInput: e.hadRecentInput,
      sources: (e.sources || []).map(s => describe(s.node) + ' ' + rect(s.previousRect) + ' -> ' + rect(s.currentRect))})),
  });
}, settleMs);
"""


def page_layout_shift(driver, settle_ms: int = 500) -> dict:
    """CLS of a freshly loaded page as a reader sees it: first `settle_ms` at the top without
    scrolling (a late insertion above the fold shifts content; while scrolled, scroll anchoring
    would hide it), then every image scrolled into view and loaded, back to the top, settle again.
    Returns cumulative_layout_shift()'s result, covering everything since navigation."""
    time.sleep(settle_ms / 1000)
    load_all_images(driver)
    return cumulative_layout_shift(driver, settle_ms)


def cumulative_layout_shift(driver, settle_ms: int = 500) -> dict:
    """Sum of all layout-shift entries since navigation (buffered), after waiting `settle_ms`.

    Returns {"cls": float, "entries": [{t, value, sources}]}."""
    driver.set_script_timeout(settle_ms / 1000 + 10)
    res = driver.execute_async_script(CLS_JS, settle_ms)
    assert "error" not in res, res.get("error")
    return res


# --------------------------------------------------------------------------- style / motion

STYLE_JS = """
const el = typeof arguments[0] === 'string' ? document.querySelector(arguments[0]) : arguments[0];
if (!el) return null;
const cs = getComputedStyle(el);
const out = {};
for (const p of arguments[1]) out[p] = cs.getPropertyValue(p);
return out;
"""


def computed_style(driver, selector_or_element, *props: str) -> dict | None:
    return driver.execute_script(STYLE_JS, selector_or_element, list(props))


def is_identity_transform(value: str) -> bool:
    v = (value or "").strip()
    if v in ("", "none"):
        return True
    if v.startswith("matrix(") and v.endswith(")"):
        nums = [float(x) for x in v[7:-1].split(",")]
        return all(abs(a - b) < 1e-6 for a, b in zip(nums, [1, 0, 0, 1, 0, 0]))
    if v.startswith("matrix3d(") and v.endswith(")"):
        nums = [float(x) for x in v[9:-1].split(",")]
        ident = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        return all(abs(a - b) < 1e-6 for a, b in zip(nums, ident))
    return False


def animation_disabled(style: dict) -> bool:
    """True if computed animation-name is none or every animation-duration is 0."""
    names = [n.strip() for n in style.get("animation-name", "none").split(",")]
    if all(n == "none" for n in names):
        return True
    durations = [d.strip() for d in style.get("animation-duration", "0s").split(",")]
    return all(_seconds(d) == 0 for d in durations)


def _seconds(css_time: str) -> float:
    t = css_time.strip()
    if t.endswith("ms"):
        return float(t[:-2]) / 1000
    if t.endswith("s"):
        return float(t[:-1])
    return float(t or 0)


def set_reduced_motion(driver, reduce: bool) -> None:
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "media": "",
        "features": [{"name": "prefers-reduced-motion", "value": "reduce" if reduce else ""}],
    })


# Sampler injected before any page script (CDP Page.addScriptToEvaluateOnNewDocument): records
# viewport overflow and the computed style of some elements at fixed times after navigation
# start, so "during the entrance animation" is measured in the page, not via WebDriver latency.
SAMPLER_TEMPLATE = """
(() => {
  const times = %(times)s, selectors = %(selectors)s;
  window.__e2eSamples = [];
  const sample = (label) => {
    const de = document.documentElement;
    const s = {label, t: Math.round(performance.now()), scrollWidth: de.scrollWidth,
               clientWidth: de.clientWidth, innerWidth: innerWidth, styles: {}};
    for (const sel of selectors) {
      const el = document.querySelector(sel);
      if (!el) { s.styles[sel] = null; continue; }
      const cs = getComputedStyle(el);
      s.styles[sel] = {opacity: cs.opacity, transform: cs.transform,
                       animationName: cs.animationName, animationDuration: cs.animationDuration};
    }
    window.__e2eSamples.push(s);
  };
  const start = () => {
    // 0 ms = the first frame after the DOM exists; later samples are relative to that frame.
    requestAnimationFrame(() => {
      const t0 = performance.now();
      sample(0);
      for (const t of times) if (t > 0) setTimeout(() => sample(t), Math.max(0, t0 + t - performance.now()));
    });
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, {once: true});
  else start();
})();
"""


def record_samples(driver, url: str, width: int, times_ms: list[int], selectors: list[str],
                   height: int = 900, mobile: bool = False, timeout: float = 15.0) -> list[dict]:
    """Load `url` at `width` with the sampler installed; return one sample per time in `times_ms`."""
    src = SAMPLER_TEMPLATE % {"times": json.dumps(sorted(times_ms)), "selectors": json.dumps(selectors)}
    ident = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": src})["identifier"]
    try:
        open_at(driver, url, width, height, mobile=mobile, timeout=timeout)
        deadline = time.time() + max(times_ms) / 1000 + timeout
        samples: list[dict] = []
        while time.time() < deadline:
            samples = driver.execute_script("return window.__e2eSamples || []")
            if len(samples) >= len(times_ms):
                break
            time.sleep(0.05)
        assert len(samples) >= len(times_ms), f"sampler got only {samples!r}"
        return samples
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": ident})


def fmt(obj: Any) -> str:
    return json.dumps(obj, indent=1, ensure_ascii=False)


# --------------------------------------------------------------------------- image files


def jpeg_size(path) -> tuple[int, int]:
    """(width, height) from a baseline or progressive JPEG's SOF marker, read independently of
    sitegen's own image probe (no EXIF rotation: the example images carry none)."""
    data = Path(path).read_bytes()
    if data[:2] != b"\xff\xd8":
        raise ValueError(f"{path}: not a JPEG")
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            raise ValueError(f"{path}: bad marker at byte {i}")
        marker = data[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        length = int.from_bytes(data[i + 2:i + 4], "big")
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
            h = int.from_bytes(data[i + 5:i + 7], "big")
            w = int.from_bytes(data[i + 7:i + 9], "big")
            return w, h
        i += 2 + length
    raise ValueError(f"{path}: no SOF marker")


def jpeg_orientation(path) -> int:
    """The EXIF orientation (1–8) of a JPEG, 1 without one: the APP1 Exif segment's IFD0 tag
    0x0112, read here independently of sitegen and libvips."""
    data = Path(path).read_bytes()
    i = 2
    while i + 4 <= len(data) and data[i] == 0xFF and data[i + 1] not in (0xDA, 0xD9):
        length = int.from_bytes(data[i + 2:i + 4], "big")
        seg = data[i + 4:i + 2 + length]
        if data[i + 1] == 0xE1 and seg[:6] == b"Exif\0\0":
            tiff = seg[6:]
            order = "little" if tiff[:2] == b"II" else "big"
            ifd = int.from_bytes(tiff[4:8], order)
            for k in range(int.from_bytes(tiff[ifd:ifd + 2], order)):
                e = ifd + 2 + 12 * k
                if int.from_bytes(tiff[e:e + 2], order) == 0x0112:
                    return int.from_bytes(tiff[e + 8:e + 10], order)
        i += 2 + length
    return 1


def jpeg_upright_size(path) -> tuple[int, int]:
    """(width, height) as displayed: orientations 5–8 swap the stored sides."""
    w, h = jpeg_size(path)
    return (h, w) if jpeg_orientation(path) >= 5 else (w, h)


def resized_copy_problem(site_dir, src: str, source) -> str | None:
    """Why the site's file at URL path `src` is not a resized copy of the JPEG `source` (None if
    it is): it must exist, be a JPEG no wider than the source, with the source's upright aspect
    ratio (within 1.5 %)."""
    path = Path(site_dir) / src.lstrip("/")
    if not path.is_file():
        return f"{src} is not in the site"
    w, h = jpeg_size(path)
    sw, sh = jpeg_upright_size(source)
    if w > sw:
        return f"{src} is {w} px wide, wider than its source's {sw}"
    if abs((w / h) / (sw / sh) - 1) > 0.015:
        return f"{src} is {w}×{h}, not the shape of its source ({sw}×{sh})"
    return None


# --------------------------------------------------------------------------- site pages


def site_pages(site_dir) -> list[str]:
    """URL paths of every *.html file of a built site, sorted: `index.html` is served as its
    directory ('/', '/bounties/luffy/'), any other file under its own name ('/404.html')."""
    root = Path(site_dir)
    paths = []
    for f in root.rglob("*.html"):
        if not f.is_file():
            continue
        rel = f.relative_to(root).as_posix()
        if rel == "index.html":
            rel = ""
        elif rel.endswith("/index.html"):
            rel = rel[: -len("index.html")]
        paths.append("/" + quote(rel))
    return sorted(paths)


def page_kind(path: str, html: str = "") -> tuple[str, int, str]:
    """A page's kind: (first path segment, depth, its layout), where the layout is the <body> class
    plus the class of the first element in <main> — pages of one template share it, so
    '/photos/view/' (the pager) and '/photos/<id>/' (a photo's page) are different kinds although
    their paths look alike.  '/' → ('', 0, …), '/bounties/' → ('bounties', 1, …)."""
    segments = [s for s in path.split("/") if s]
    body = re.search(r'<body[^>]*?class="([^"]*)"', html)
    inner = re.search(r'<main[^>]*>\s*<[a-z0-9]+[^>]*?class="([^"]*)"', html)
    layout = f"{body.group(1) if body else ''}|{inner.group(1) if inner else ''}"
    return (segments[0] if segments else "", len(segments), layout)


def page_file(site_dir, path: str) -> Path:
    """The file that serves a site path (see site_pages)."""
    rel = unquote(path).lstrip("/")
    return Path(site_dir) / (rel + "index.html" if rel == "" or rel.endswith("/") else rel)


def one_page_per_kind(paths: Iterable[str], site_dir=None) -> list[str]:
    """The first page (in sorted order) of each page_kind(): a representative of every template.
    Without site_dir the kind is judged from the path alone."""
    first: dict[tuple[str, int, str], str] = {}
    for p in sorted(paths):
        html = page_file(site_dir, p).read_text(encoding="utf-8") if site_dir is not None else ""
        first.setdefault(page_kind(p, html), p)
    return list(first.values())


# --------------------------------------------------------------------------- colour scheme, animations


def set_color_scheme(driver, scheme: str) -> None:
    """Emulate `prefers-color-scheme: light|dark` ('' = the browser's default, light in headless
    Chromium).  NB: Emulation.setEmulatedMedia replaces all emulated features, so this also
    clears set_reduced_motion() (and vice versa)."""
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "media": "", "features": [{"name": "prefers-color-scheme", "value": scheme}],
    })


FINISH_ANIMATIONS_JS = """
let n = 0;
for (const a of document.getAnimations()) {
  try { a.finish(); n++; } catch (e) { /* infinite animations cannot finish: leave them running */ }
}
return n;
"""


def finish_animations(driver) -> int:
    """Jump every finite CSS animation/transition of the page to its end state (what a reader sees
    once the entrance animations are over); returns how many were finished."""
    return driver.execute_script(FINISH_ANIMATIONS_JS)


RESIZED_JS = """
const done = arguments[arguments.length - 1], finish = arguments[0];
requestAnimationFrame(() => requestAnimationFrame(() => {
  if (finish) for (const a of document.getAnimations()) { try { a.finish(); } catch (e) {} }
  const de = document.documentElement;
  done({innerWidth: innerWidth, innerHeight: innerHeight, clientWidth: de.clientWidth,
        scrollWidth: de.scrollWidth, bodyScrollWidth: document.body ? document.body.scrollWidth : 0,
        scrollX: scrollX});
}));
"""


def resize_viewport(driver, width: int, height: int = 900, *, mobile: bool = False,
                    finish: bool = False) -> dict:
    """Change the emulated viewport of the page already loaded (the same CDP call as open_at, no
    reload), wait two frames for the new layout, optionally finish_animations() (e.g. transitions
    the new size started), and return viewport() of the result in the same round trip.
    Resizing a loaded page gives the same viewport() as loading it at that size (checked on
    every page of the example site at 320–1440 px, phone and desktop emulation)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": int(width), "height": int(height), "deviceScaleFactor": 1, "mobile": bool(mobile),
    })
    return driver.execute_async_script(RESIZED_JS, bool(finish))


# --------------------------------------------------------------------------- axe-core

_AXE_SOURCE: str | None = None


def axe_source() -> str:
    """The text of axe.min.js (axe-core) shipped inside the PyPI package axe-playwright-python,
    found through the package's installed file list (the package itself is never imported: its
    dependency playwright is not installed)."""
    global _AXE_SOURCE
    if _AXE_SOURCE is None:
        from importlib import metadata
        try:
            dist = metadata.distribution("axe-playwright-python")
        except metadata.PackageNotFoundError:
            raise AssertionError("axe-core not found: `pip install --no-deps axe-playwright-python==0.1.8` "
                                 "(it ships axe.min.js; see e2e/README.md)") from None
        files = [f for f in (dist.files or []) if f.name == "axe.min.js"]
        assert files, "axe-playwright-python is installed but ships no axe.min.js"
        _AXE_SOURCE = dist.locate_file(files[0]).read_text(encoding="utf-8")
    return _AXE_SOURCE


def install_axe(driver) -> str:
    """Make every document loaded from now on start with axe-core defined (CDP
    Page.addScriptToEvaluateOnNewDocument); returns the identifier for uninstall_axe()."""
    return driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                  {"source": axe_source()})["identifier"]


def uninstall_axe(driver, identifier: str) -> None:
    driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": identifier})


AXE_RUN_JS = """
const done = arguments[arguments.length - 1];
if (typeof axe === 'undefined') { done({missing: true}); return; }
axe.run(document, arguments[0]).then(r => done({
  version: axe.version,
  violations: r.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl,
    nodes: v.nodes.map(n => ({target: n.target, impact: n.impact, summary: n.failureSummary})),
  })),
}), e => done({error: String(e && e.stack || e)}));
"""


def run_axe(driver, options: dict | None = None, timeout: float = 60.0) -> dict:
    """axe.run() on the current page (injecting axe.min.js first if the page has no `axe`).
    Returns {"version": axe.version, "violations": [{id, impact, help, helpUrl, nodes: [{target,
    impact, summary}]}]}."""
    opts = {"resultTypes": ["violations"], **(options or {})}
    driver.set_script_timeout(timeout)
    res = driver.execute_async_script(AXE_RUN_JS, opts)
    if res.get("missing"):
        driver.execute_script(axe_source())
        res = driver.execute_async_script(AXE_RUN_JS, opts)
    assert "error" not in res and not res.get("missing"), \
        f"axe.run failed on {driver.current_url}: {res.get('error') or 'axe-core not loaded'}"
    return res


def blocking_violations(violations: list[dict], impacts: Iterable[str] = ("serious", "critical")) -> list[dict]:
    """The violations whose impact is one of `impacts`."""
    keep = set(impacts)
    return [v for v in violations if v.get("impact") in keep]


def format_axe(violations: list[dict], max_nodes: int = 8) -> str:
    """One block per violation: rule id, impact, help (+ URL), then each node's target selector and
    the first line of axe's failure summary."""
    lines = []
    for v in violations:
        lines.append(f"  [{v.get('impact')}] {v.get('id')}: {v.get('help')} ({v.get('helpUrl')})")
        nodes = v.get("nodes") or []
        for n in nodes[:max_nodes]:
            target = " ".join(json.dumps(t, ensure_ascii=False) if not isinstance(t, str) else t
                              for t in (n.get("target") or []))
            detail = [s.strip() for s in (n.get("summary") or "").splitlines() if s.strip()]
            detail = [s for s in detail if not s.startswith("Fix ")][:1]
            lines.append(f"      {target}" + (f" — {detail[0]}" if detail else ""))
        if len(nodes) > max_nodes:
            lines.append(f"      … and {len(nodes) - max_nodes} more")
    return "\n".join(lines)
