"""Fixtures for sitegen's real-browser and HTML-validation tests.

Run from this folder:

    pip install -r requirements.txt          # plus Debian: chromium chromium-driver fonts-nanum default-jre-headless
    SITE_DIR=/path/to/built/site python -m pytest      # test an already built site
    python -m pytest                                    # build with $SITEGEN (default ../.build/debug/sitegen)

Environment:
    SITE_DIR      a built site to test (skips the build)
    SITEGEN       the sitegen binary (default <repo>/.build/debug/sitegen)
    CHROME_BIN    the Chromium binary (default: chromium / chromium-browser / google-chrome on PATH)
    CHROMEDRIVER  the chromedriver binary (default /usr/bin/chromedriver, else on PATH)
    JAVA          the java binary for the Nu HTML Checker (default: java on PATH)

A missing browser, driver, java or sitegen binary is a test FAILURE, never a skip.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest

# Selenium Manager must not try to download drivers/browsers (no network besides registries).
os.environ.setdefault("SE_OFFLINE", "1")

from cold_build import ColdBuild, cold_build as build_cold  # noqa: E402
from helpers import open_at  # noqa: E402  (re-exported for tests: `from conftest import open_at` also works)

E2E_DIR = Path(__file__).resolve().parent
REPO = E2E_DIR.parent

__all__ = ["open_at"]


# --------------------------------------------------------------------------- site


def _sitegen_binary() -> Path:
    """$SITEGEN (default <repo>/.build/debug/sitegen); a missing binary fails the test."""
    sitegen = Path(os.environ.get("SITEGEN", REPO / ".build" / "debug" / "sitegen"))
    if not (sitegen.is_file() and os.access(sitegen, os.X_OK)):
        pytest.fail(f"sitegen binary not found at {sitegen}: run `swift build` in {REPO}, "
                    f"or set SITEGEN=<binary> or SITE_DIR=<built site>", pytrace=False)
    return sitegen


@pytest.fixture(scope="session")
def sitegen_bin() -> Path:
    """The sitegen binary itself, for tests that run it (`sitegen serve`): $SITEGEN, default
    <repo>/.build/debug/sitegen."""
    return _sitegen_binary()


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory) -> Path:
    """The built example site: $SITE_DIR, or `sitegen build --source <repo> --output <tmp>/public`."""
    env = os.environ.get("SITE_DIR")
    if env:
        p = Path(env).resolve()
        if not p.is_dir():
            pytest.fail(f"SITE_DIR={env!r} is not a directory", pytrace=False)
        return p
    sitegen = _sitegen_binary()
    out = tmp_path_factory.mktemp("site") / "public"
    proc = subprocess.run([str(sitegen), "build", "--source", str(REPO), "--output", str(out)],
                          capture_output=True, text=True, timeout=900)  # a cold image cache: every photo resized
    if proc.returncode != 0:
        pytest.fail(f"`{sitegen} build` exited {proc.returncode}\n--- stderr ---\n{proc.stderr}"
                    f"\n--- stdout ---\n{proc.stdout}", pytrace=False)
    if not out.is_dir():
        pytest.fail(f"`sitegen build` exited 0 but wrote no {out}", pytrace=False)
    return out


@pytest.fixture(scope="session")
def cold_build(sitegen_bin, tmp_path_factory):
    """cold_build(threads) -> ColdBuild: the example site built from an empty image cache
    of its own on that many threads (1: on a pseudo-terminal; more: on a pipe with CI set), under
    /usr/bin/time.  Each thread count is built once per session, by this fixture, when a test first
    asks for it; the tests that need a cold build share it (cold_build.py).  The caller checks the
    exit status.  Nothing may write into the result: copy its cache to build from it again."""
    built: dict[int, ColdBuild] = {}

    def get(threads: int) -> ColdBuild:
        if threads not in built:
            built[threads] = build_cold(sitegen_bin, tmp_path_factory.mktemp(f"cold-{threads}-threads"), threads)
        return built[threads]

    return get


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - keep test output readable
        pass


@pytest.fixture(scope="session")
def base_url(site_dir) -> str:
    """site_dir served over real loopback HTTP (ephemeral port), e.g. 'http://127.0.0.1:41234'.
    The site's baseURL path is '/', so URLs are base_url + '/bounties/'."""
    yield from _serve(site_dir, _QuietHandler, "e2e-http")


class _TrickleHandler(_QuietHandler):
    """Sends HTML in TRICKLE_BYTES pieces, TRICKLE_PAUSE seconds apart, as a slow phone network
    does: the browser parses and paints each piece before the next arrives, so an element whose
    place depends on markup parsed after it (a row centred on its later items, a bar anchored
    at the bottom whose height comes from its text) is seen to move.  Other files go at once."""

    def copyfile(self, source, outputfile):
        if not (self.path.split("?")[0].endswith(("/", ".html"))):
            return super().copyfile(source, outputfile)
        while chunk := source.read(TRICKLE_BYTES):
            outputfile.write(chunk)
            outputfile.flush()
            time.sleep(TRICKLE_PAUSE)


TRICKLE_BYTES = int(os.environ.get("E2E_TRICKLE_BYTES", "160"))
TRICKLE_PAUSE = 0.025  # over a frame at 60 Hz, so a paint falls between two pieces


def _serve(site_dir, handler_class, name):
    handler = functools.partial(handler_class, directory=str(site_dir))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name=name, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture(scope="session")
def trickle_url(site_dir) -> str:
    """site_dir served like base_url, but HTML arrives in small pieces (_TrickleHandler)."""
    yield from _serve(site_dir, _TrickleHandler, "e2e-http-trickle")


# --------------------------------------------------------------------------- browser


def _find_chrome() -> str | None:
    env = os.environ.get("CHROME_BIN")
    if env:
        return env if os.path.exists(env) else None
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        p = shutil.which(name)
        if p:
            return p
    return None


def _find_chromedriver() -> str | None:
    env = os.environ.get("CHROMEDRIVER")
    if env:
        return env if os.path.exists(env) else None
    if os.path.exists("/usr/bin/chromedriver"):
        return "/usr/bin/chromedriver"
    return shutil.which("chromedriver")


def start_chrome(*, window: str = "1440,900", prefs: dict | None = None):
    """A headless Chromium (Selenium): the one binary, driver and switches every test uses.
    Use helpers.open_at() to load pages."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError as e:
        pytest.fail(f"selenium is not installed ({e}): pip install -r e2e/requirements.txt", pytrace=False)
    chrome = _find_chrome()
    driver_path = _find_chromedriver()
    if not chrome:
        pytest.fail("Chromium not found (set CHROME_BIN or `apt-get install chromium`)", pytrace=False)
    if not driver_path:
        pytest.fail("chromedriver not found (set CHROMEDRIVER or `apt-get install chromium-driver`)",
                    pytrace=False)
    opts = webdriver.ChromeOptions()
    if os.environ.get("CHROME_BIN"):
        opts.binary_location = chrome
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--force-device-scale-factor=1",
                "--disable-dev-shm-usage", f"--window-size={window}", "--lang=en-US"):
        opts.add_argument(arg)
    # NB: no --hide-scrollbars: tests look at real scrollbars and overflow.
    if prefs:
        opts.add_experimental_option("prefs", prefs)
    try:
        driver = webdriver.Chrome(options=opts, service=Service(executable_path=driver_path))
    except Exception as e:  # noqa: BLE001 - turn any start-up failure into a clear failure
        pytest.fail(f"could not start Chromium ({chrome}) via {driver_path}: {e}", pytrace=False)
    driver.set_page_load_timeout(30)
    return driver


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the whole session."""
    driver = start_chrome()
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="session")
def nojs_browser():
    """A second headless Chromium with JavaScript switched off by content setting.  Page scripts,
    inline handlers and script-scheduled callbacks never run, while WebDriver's find_element and
    synchronous execute_script still work (execute_async_script does not: its callback needs page
    timers; CDP Emulation.setScriptExecutionDisabled is no alternative, chromedriver's own waits
    time out under it).  Load pages with helpers.open_nojs()."""
    driver = start_chrome(window="1280,900", prefs={"profile.managed_default_content_settings.javascript": 2})
    try:
        yield driver
    finally:
        driver.quit()
