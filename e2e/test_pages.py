"""Every page of the built site in real Chromium, whatever templates and content produce them.

Pages are discovered by walking site_dir (helpers.site_pages: every *.html; index.html is served as
its directory URL), so new pages are covered without touching this file.  Each page is a pytest
subtest, reported as e.g. `SUBFAILED (page='/bounties/luffy/', scheme='light')`.

* test_axe_every_page: axe-core (axe.min.js shipped by PyPI axe-playwright-python) at 1280 px, in
  the light and the dark colour scheme: no violation of impact "serious" or "critical".
* test_no_horizontal_scroll_every_page: no sideways scrolling at 320, 375, 768, 1024 and 1440 px
  (phone widths < 768 with mobile emulation), plus at 1280 px as the page is first painted.
* test_axe_phone_one_page_per_kind: axe at 375 px (phone emulation), light and dark, on one page of
  each kind (helpers.page_kind: first path segment, depth and layout — <body> class and the first
  element in <main> — e.g. /bounties/ vs /bounties/<slug>/, /photos/view/ vs /photos/<id>/).
* test_no_layout_shift_one_page_per_kind: cumulative layout shift 0 at 375 and 1280 px.
* test_usable_without_javascript: one page of each kind in a second Chromium whose JavaScript is off
  (content setting): <main> shows text, and every <a href> in it reaches a page/file of the site.

The first two share one pass over the site (fixture `survey`): each page is loaded once at 1280 px,
axe runs in light, the scheme is switched to dark in place and axe runs again, then the viewport is
resized (not reloaded) through the five widths.  Pages are shared out among $E2E_WORKERS browsers
(default 2: conftest's `browser` and one more; fixture `browsers`), as are the per-kind checks.  Resizing was checked against fresh loads at every
width on every page (identical scrollWidth/clientWidth/innerWidth, also for deliberately overflowing
and <meta viewport>-less pages).  Finite CSS animations are fast-forwarded to their end state before
axe and the width sweep (contrast is judged on what a reader sees once the entrance is over; the
bounty tests check overflow during the animation itself).
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from urllib.parse import urldefrag, urlsplit, urlunsplit

import pytest
from selenium.common.exceptions import NoSuchElementException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import start_chrome
from helpers import (
    blocking_violations, finish_animations, fmt, format_axe, horizontal_overflow, http_get,
    install_axe, one_page_per_kind, open_at, overflow_problems, page_layout_shift, resize_viewport,
    run_axe, set_color_scheme, site_pages, uninstall_axe,
)

WIDTHS = (320, 375, 768, 1024, 1440)  # the no-sideways-scroll sweep
PHONE_BELOW = 768                      # narrower widths are loaded as a phone (mobile emulation)
AXE_WIDTH = 1280
PHONE_WIDTH = 375
SCHEMES = ("light", "dark")
BLOCKING = ("serious", "critical")


def is_phone(width: int) -> bool:
    return width < PHONE_BELOW


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def pages(site_dir) -> list[str]:
    found = site_pages(site_dir)
    assert found, f"no *.html files under {site_dir}"
    return found


@pytest.fixture(scope="module")
def kinds(pages, site_dir) -> list[str]:
    return one_page_per_kind(pages, site_dir)


@pytest.fixture(scope="module")
def browsers(browser):
    """$E2E_WORKERS browsers (default 2: the shared one plus one more) that visit pages in parallel
    (run_parallel).  Two cores run two Chromiums ~1.4x faster than one, and the layout-shift
    measurement's settle times overlap."""
    workers = max(1, int(os.environ.get("E2E_WORKERS", "2")))
    extra = [start_chrome() for _ in range(workers - 1)]
    try:
        yield [browser, *extra]
    finally:
        set_color_scheme(browser, "")
        for d in extra:
            d.quit()


@contextlib.contextmanager
def axe_injected(drivers):
    """axe-core defined in every document the drivers load while inside the block."""
    idents = [(d, install_axe(d)) for d in drivers]
    try:
        yield
    finally:
        for d, ident in idents:
            uninstall_axe(d, ident)
            set_color_scheme(d, "")


def run_parallel(drivers, items, fn) -> dict:
    """fn(driver, item) for every item, the items shared out among the drivers (one thread each).
    Returns {item: (result, None) or (None, "ExceptionType: message")} in the order of `items`."""
    results: dict = {item: (None, "not run") for item in items}
    queue = list(reversed(items))
    lock = threading.Lock()

    def worker(d) -> None:
        while True:
            with lock:
                if not queue:
                    return
                item = queue.pop()
            try:
                results[item] = (fn(d, item), None)
            except Exception as e:  # noqa: BLE001 - one broken page must not hide the others
                results[item] = (None, f"{type(e).__name__}: {e}")

    threads = [threading.Thread(target=worker, args=(d,), name=f"e2e-worker-{i}") for i, d in enumerate(drivers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def _axe_blocking(driver) -> tuple[str, list[dict]]:
    finish_animations(driver)
    res = run_axe(driver)
    return res["version"], blocking_violations(res["violations"], BLOCKING)


def _visit(d, url: str) -> dict:
    """axe in light and dark at 1280 px, then the width sweep, on one load of the page.
    Returns {"axe_version", "axe": {scheme: [blocking violations]}, "overflow": {label: message or None}}."""
    rec: dict = {"axe_version": None, "axe": {}, "overflow": {}}
    set_color_scheme(d, "light")
    open_at(d, url, AXE_WIDTH)
    # As first painted (entrance animations running): nothing may stick out either.
    rec["overflow"][f"{AXE_WIDTH} as loaded"] = horizontal_overflow(d, AXE_WIDTH)
    for scheme in SCHEMES:
        if scheme != "light":
            set_color_scheme(d, scheme)
            resize_viewport(d, AXE_WIDTH)  # same size: just waits two frames for the restyle
        rec["axe_version"], rec["axe"][scheme] = _axe_blocking(d)
    set_color_scheme(d, "light")
    for width in WIDTHS:
        v = resize_viewport(d, width, mobile=is_phone(width), finish=True)
        # overflow_problems(v) is horizontal_overflow()'s verdict on the same numbers, one round
        # trip cheaper; on a problem, horizontal_overflow() adds the elements past the edge.
        problems = overflow_problems(v, width)
        if problems:
            problems = [horizontal_overflow(d, width) or "; ".join(problems)]
        rec["overflow"][str(width)] = problems[0] if problems else None
    return rec


class Survey(dict):
    def __repr__(self) -> str:  # keep pytest's tracebacks short
        return f"<survey of {len(self.get('pages', {}))} pages>"


@pytest.fixture(scope="module")
def survey(browsers, base_url, pages) -> Survey:
    """One visit per page (_visit), shared out among `browsers`.
    Returns {"axe_version", "seconds", "pages": {path: (_visit's result, None) or (None, error)}}."""
    t0 = time.monotonic()
    with axe_injected(browsers):
        results = run_parallel(browsers, pages, lambda d, path: _visit(d, base_url + path))
    versions = {r["axe_version"] for r, _ in results.values() if r}
    out = Survey(pages=results, seconds=time.monotonic() - t0, axe_version=", ".join(sorted(versions)) or None)
    print(f"\nsurvey: {len(pages)} pages in {out['seconds']:.1f}s with {len(browsers)} browser(s), "
          f"axe-core {out['axe_version']}")
    return out


# --------------------------------------------------------------------------- axe


def test_axe_core_is_loaded(survey):
    """axe-core really ran (a pass below means something); its version is printed."""
    v = survey["axe_version"]
    print(f"axe-core {v}")
    assert v and v.split(".")[0] == "4", f"unexpected axe-core version {v!r}"


def test_axe_every_page(survey, subtests):
    """No serious/critical axe violation on any page at 1280 px, light and dark."""
    for path, (rec, error) in survey["pages"].items():
        for scheme in SCHEMES:
            with subtests.test(page=path, scheme=scheme):
                if error:
                    pytest.fail(f"{path}: {error}", pytrace=False)
                bad = rec["axe"][scheme]
                if bad:
                    pytest.fail(f"{path} ({scheme}, {AXE_WIDTH}px): {len(bad)} serious/critical axe "
                                f"violation(s):\n{format_axe(bad)}", pytrace=False)


def _phone_axe(d, url: str) -> dict:
    out = {}
    for i, scheme in enumerate(SCHEMES):
        set_color_scheme(d, scheme)
        if i == 0:
            open_at(d, url, PHONE_WIDTH, mobile=True)
        else:
            resize_viewport(d, PHONE_WIDTH, mobile=True)
        out[scheme] = _axe_blocking(d)[1]
    set_color_scheme(d, "")
    return out


def test_axe_phone_one_page_per_kind(browsers, base_url, kinds, subtests):
    """The same at 375 px with phone emulation, on one page of each kind."""
    with axe_injected(browsers):
        results = run_parallel(browsers, kinds, lambda d, path: _phone_axe(d, base_url + path))
    for path, (res, error) in results.items():
        for scheme in SCHEMES:
            with subtests.test(page=path, scheme=scheme):
                if error:
                    pytest.fail(f"{path}: {error}", pytrace=False)
                bad = res[scheme]
                if bad:
                    pytest.fail(f"{path} ({scheme}, {PHONE_WIDTH}px phone): {len(bad)} serious/critical "
                                f"axe violation(s):\n{format_axe(bad)}", pytrace=False)


# --------------------------------------------------------------------------- overflow


def test_no_horizontal_scroll_every_page(survey, subtests):
    for path, (rec, error) in survey["pages"].items():
        with subtests.test(page=path):
            if error:
                pytest.fail(f"{path}: {error}", pytrace=False)
            problems = [f"[{label}] {msg}" for label, msg in rec["overflow"].items() if msg]
            if problems:
                pytest.fail("\n".join(problems), pytrace=False)


# --------------------------------------------------------------------------- layout shift


def _layout_shift(d, url: str, width: int) -> dict:
    open_at(d, url, width, mobile=is_phone(width))
    return page_layout_shift(d)


@pytest.mark.parametrize("width", [PHONE_WIDTH, AXE_WIDTH])
def test_no_layout_shift_one_page_per_kind(browsers, trickle_url, kinds, width, subtests):
    results = run_parallel(browsers, kinds, lambda d, path: _layout_shift(d, trickle_url + path, width))
    for path, (res, error) in results.items():
        with subtests.test(page=path):
            if error:
                pytest.fail(f"{path}: {error}", pytrace=False)
            if res["cls"] != 0:
                pytest.fail(f"{path} at {width}px: cumulative layout shift {res['cls']:.5f}: "
                            f"{fmt(res['entries'])}", pytrace=False)


# --------------------------------------------------------------------------- without JavaScript


CONTROL_PAGE = ("data:text/html;charset=utf-8,<!DOCTYPE html><title>t</title><main><p id=p>static</p></main>"
                "<script>document.getElementById('p').textContent = 'script ran'</script>")


def test_no_script_browser_really_has_javascript_off(nojs_browser):
    """Control: the page's own script does not run, yet WebDriver can still inspect the page."""
    nojs_browser.get(CONTROL_PAGE)
    assert nojs_browser.find_element(By.ID, "p").text == "static", "page JavaScript ran: not a no-JS browser"
    assert nojs_browser.execute_script("return document.querySelector('main p').textContent") == "static"


# Visible text in <main>: text nodes whose element is rendered (checkVisibility: display,
# visibility, opacity 0 on it or an ancestor, content-visibility) and that lie inside the page
# horizontally (not pushed off-canvas).
VISIBLE_MAIN_TEXT_JS = """
const main = document.querySelector('main');
if (!main) return null;
const right = document.documentElement.scrollWidth;
const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
let text = '';
for (let n = walker.nextNode(); n; n = walker.nextNode()) {
  const t = n.data.trim();
  if (!t || !n.parentElement) continue;
  if (!n.parentElement.checkVisibility({opacityProperty: true, visibilityProperty: true,
                                        contentVisibilityAuto: true})) continue;
  const range = document.createRange();
  range.selectNodeContents(n);
  const onPage = [...range.getClientRects()].some(r => r.width > 0 && r.height > 0
      && r.right + scrollX > 0 && r.left + scrollX < right && r.bottom + scrollY > 0);
  if (onPage) text += t + ' ';
}
return text.trim();
"""

MAIN_LINKS_JS = """
return [...document.querySelectorAll('main a[href]')].map(a => ({raw: a.getAttribute('href'), href: a.href}));
"""


def _load_without_js(driver, url: str, timeout: float = 15.0) -> None:
    driver.get(url)
    try:
        WebDriverWait(driver, timeout).until(lambda d: d.execute_script("return document.readyState") == "complete")
    except TimeoutException:
        raise AssertionError(f"{url}: document.readyState never became 'complete' without JavaScript")


def _site_origins(driver, base_url: str) -> set[str]:
    """Origins that mean 'this site': the loopback server, and the origin of the page's canonical
    URL (the site's production baseURL), which maps onto the loopback server."""
    origins = {_origin(base_url)}
    canonical = driver.execute_script("const l = document.querySelector('link[rel=canonical]'); return l && l.href")
    if canonical:
        origins.add(_origin(canonical))
    return origins


def _origin(url: str) -> str:
    s = urlsplit(url)
    return f"{s.scheme}://{s.netloc}"


def test_usable_without_javascript(nojs_browser, base_url, kinds, subtests):
    d = nojs_browser
    statuses: dict[str, tuple[int, str]] = {}

    def fetch(url: str) -> tuple[int, str]:
        if url not in statuses:
            statuses[url] = http_get(url)
        return statuses[url]

    external: set[str] = set()
    for path in kinds:
        with subtests.test(page=path):
            url = base_url + path
            _load_without_js(d, url)
            try:
                d.find_element(By.TAG_NAME, "main")
            except NoSuchElementException:
                raise AssertionError(f"{path}: no <main> element") from None
            text = ""
            try:  # CSS entrance animations (no script needed) may start from opacity 0
                text = WebDriverWait(d, 5, poll_frequency=0.1).until(
                    lambda drv: drv.execute_script(VISIBLE_MAIN_TEXT_JS))
            except TimeoutException:
                pass
            if not text:
                pytest.fail(f"{path}: <main> shows no visible text without JavaScript", pytrace=False)

            origins = _site_origins(d, base_url)
            broken = []
            for link in d.execute_script(MAIN_LINKS_JS):
                raw, href = link["raw"], link["href"]
                scheme = urlsplit(href).scheme
                if scheme == "javascript":
                    broken.append(f"{raw!r}: a javascript: link does nothing without JavaScript")
                    continue
                if scheme not in ("http", "https"):
                    continue  # mailto:, tel:, …
                if _origin(href) not in origins:
                    external.add(href)
                    continue
                target, fragment = urldefrag(href)
                s = urlsplit(target)
                local = base_url + urlunsplit(("", "", s.path or "/", s.query, ""))
                status, body = fetch(local)
                if status != 200:
                    broken.append(f"{raw!r} → {local}: HTTP {status}")
                elif fragment and not any(f'{attr}="{fragment}"' in body or f"{attr}={fragment}" in body
                                          for attr in ("id", "name")):
                    broken.append(f"{raw!r}: {s.path} has no element id={fragment!r}")
            if broken:
                pytest.fail(f"{path}: links in <main> that lead nowhere:\n  " + "\n  ".join(broken), pytrace=False)
    if external:
        print("links to other sites (not checked, no network):", sorted(external))
