"""Hosting under a sub-path (issue 8): the example site built for `/apps/`, served by a real nginx
(the Debian package) on 127.0.0.1, crawled page by page over real loopback HTTP; the sitemap and the
Atom feed read with a real XML parser and checked against sitemaps.org's protocol and RFC 4287.

Base URL.  The site is built with `sitegen build --base-url http://127.0.0.1:<port>/apps/`, the port
chosen free beforehand (bound to port 0 and released; if nginx then finds it taken — another process
won the race — a new port is chosen and the site rebuilt, up to 5 times).  So every absolute URL
sitegen writes (canonical links, sitemap <loc>s, the feed's links) names the server under test
exactly as written, and the crawler follows it literally.  The other way — `--base-url
https://example.org/apps/` and a crawler that maps that origin onto 127.0.0.1 — would put a URL
rewrite inside the test, one more place where a wrong origin or path could be hidden.

nginx.  Run as the current user, no root needed: `nginx -p <tmp> -c <tmp>/nginx.conf -e
<tmp>/error.log -g 'daemon off;'` in its own session; the configuration (written by nginx_conf())
keeps the pid, logs and every temp path inside <tmp>, listens on 127.0.0.1:<port>, serves the output
folder at `/apps/` (`location /apps/ { alias <public>/; }`), nothing outside it (an empty root),
`error_page 404 /apps/404.html`, and the MIME types of /etc/nginx/mime.types.  Under root, workers
run as root too (`user`), as nginx's default `nobody` could not read pytest's 0700 tmp folders.
Start-up waits until nginx.pid holds the pid of the process started and a response with `Server:
nginx` arrives (so no other listener on the port is mistaken for it); the end is SIGTERM to nginx's
process group, then SIGKILL.  A missing nginx ($NGINX, else `nginx` on PATH or /usr/sbin/nginx) is
a failure, never a skip.

The crawler (class Crawler, Python's html.parser, one keep-alive http.client connection, no
redirects followed).  It starts at `/apps/` and then also takes every URL of the sitemap and every
HTML file of the output as a seed, so each page is crawled even if nothing links it (the 404 page).
Every page is fetched with GET and parsed; every reference is resolved against the page URL (or its
<base href>): a/area href, link href (+ imagesrcset), img src/srcset, script src, source src/srcset,
video src/poster, audio/track/embed/iframe src, object data, form action, button/input formaction,
input[type=image] src, cite, meta og:/twitter: URLs (which must be absolute), meta refresh, url() in
style attributes and <style>, and data-* attributes holding a site-absolute path (sitegen's search
forms: data-index, data-search-url, data-close).  Stylesheets are read for url()/@import, the JSON
search indexes for their `url`/`src` values.  Other origins and mailto:, tel:, javascript:, data:,
about: … are not followed (counted).  Each URL is fetched once.  Problems, each reported with every
page and attribute that references it:
  * broken   — an internal URL under /apps/ that does not answer 200 (redirects count as broken);
  * escapes  — a same-origin URL outside /apps/ (a link that ignored the base path; nginx's answer
               is shown but it is a failure whatever it is);
  * anchor   — a #fragment with no element of that id (or <a name>) in the target page;
  * type     — an asset of the wrong kind (a stylesheet not text/css, an img not image/*, …);
  * relative — an og:/twitter: URL that is not absolute.

The tests:
* test_every_link_and_asset_answers_200_under_the_base_path: the crawl above, 0 problems.  Figures
  (pages, links, assets, problems, time, output files nothing references) are printed (`-s`),
  recorded as properties (`--junitxml`) and written with the full problem list to
  <pytest tmp>/hosting0/crawl.json.
* test_sitemap_is_valid_and_every_url_is_served: /apps/sitemap.xml (or a sitemap index) parsed
  with xml.etree and checked against the sitemaps.org 0.9 protocol (urlset namespace, one <loc> per
  <url>, absolute and under the base URL, escaped, unique, < 2,048 characters, <lastmod> a W3C
  Datetime, <changefreq>/<priority> values, 50,000 URLs / 50 MB); every URL answers 200 text/html.
* test_missing_page_gets_the_sites_404_page: missing URLs at several depths → 404 with the bytes of
  404.html; the 404 page's references resolve alike at every depth, under /apps/; a folder without
  its slash → 301 to the folder.
* test_atom_feed_is_linked_valid_and_served: the feed the home page names with <link
  rel="alternate" type="application/atom+xml"> — FAILS while there is none — checked by AtomCheck
  against RFC 4287 (feed: one id/title/updated, an author or one per entry, exactly one rel=self
  equal to the feed's URL; entries: one id/title/updated, an alternate link, unique absolute-IRI
  ids; RFC 3339 dates with upper-case T/Z; text constructs; xml:base, self/alternate links and the
  links inside html/xhtml content under the base URL), then every self/alternate/content link that
  stays on the server is fetched (200).
* test_crawler_finds_exactly_the_planted_fault, test_atom_checker_…, test_sitemap_checker_…: the
  checkers can fail — a clean input gives no problem, each planted fault exactly the expected one
  (the crawler's through the same nginx set-up, on a two-page folder).

Binary: $SITEGEN (default ../.build/debug/sitegen), fixture `sitegen_bin` in conftest.py.
"""

from __future__ import annotations

import grp
import http.client
import json
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import time
import xml.etree.ElementTree as ET
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote, unquote, urljoin, urlsplit, urlunsplit

import pytest

from conftest import REPO
from helpers import site_pages

BASE_PATH = "/apps/"
MIME_TYPES = Path("/etc/nginx/mime.types")
STARTUP_TIMEOUT = 20.0
PORT_ATTEMPTS = 5
# Where the Atom feed is looked for when the home page does not link one (the main developer is
# adding it at one of the first two).
FEED_CANDIDATES = ("feed.xml", "notes/feed.xml", "atom.xml", "notes/atom.xml", "index.xml")

# Characters left as they are when a URL is percent-encoded for the request line (so existing
# %XX escapes, reserved characters and sub-delims survive; non-ASCII and spaces are encoded).
PATH_SAFE = "/%:@!$&'()*+,;=-._~"
QUERY_SAFE = PATH_SAFE + "?"


# --------------------------------------------------------------------------- nginx


def nginx_binary() -> str:
    env = os.environ.get("NGINX")
    for cand in ([env] if env else [shutil.which("nginx"), "/usr/sbin/nginx"]):
        if cand and os.path.isfile(cand) and os.access(cand, os.X_OK):
            return cand
    pytest.fail("nginx not found: set NGINX=<binary> or `apt-get install nginx` "
                "(scripts/setup.sh test installs it)", pytrace=False)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PortInUse(Exception):
    pass


def nginx_conf(prefix: Path, root: Path, port: int) -> str:
    """A self-contained configuration: everything nginx writes stays under `prefix`."""
    user = ""
    if os.geteuid() == 0:
        user = f"user {pwd.getpwuid(os.geteuid()).pw_name} {grp.getgrgid(os.getegid()).gr_name};\n"
    q = lambda p: '"' + str(p).replace('"', '\\"') + '"'   # noqa: E731
    return f"""# written by e2e/test_hosting.py
{user}worker_processes 1;
pid {q(prefix / "nginx.pid")};
error_log {q(prefix / "error.log")} warn;
events {{ worker_connections 256; }}
http {{
    include {q(MIME_TYPES)};
    default_type application/octet-stream;
    access_log {q(prefix / "access.log")};
    client_body_temp_path {q(prefix / "temp" / "client_body")};
    proxy_temp_path {q(prefix / "temp" / "proxy")};
    fastcgi_temp_path {q(prefix / "temp" / "fastcgi")};
    uwsgi_temp_path {q(prefix / "temp" / "uwsgi")};
    scgi_temp_path {q(prefix / "temp" / "scgi")};
    server {{
        listen 127.0.0.1:{port};
        server_name 127.0.0.1;
        root {q(prefix / "empty")};      # nothing is served outside {BASE_PATH}
        location {BASE_PATH} {{
            alias {q(str(root).rstrip("/") + "/")};
        }}
        error_page 404 {BASE_PATH}404.html;
    }}
}}
"""


@dataclass
class Nginx:
    proc: subprocess.Popen
    port: int
    prefix: Path
    root: Path

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def logs(self) -> str:
        parts = []
        for name in ("nginx.out", "error.log"):
            f = self.prefix / name
            if f.is_file() and f.stat().st_size:
                parts.append(f"--- {f} ---\n" + f.read_text(errors="replace")[-4000:])
        return "\n".join(parts)


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)      # nginx's own session: master and workers
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait(timeout=5)


@contextmanager
def nginx_serving(root: Path, prefix: Path, port: int):
    """nginx serving `root` at http://127.0.0.1:<port>/apps/ while the block runs.  Raises
    PortInUse if the port was taken meanwhile; any other start-up failure fails the test."""
    binary = nginx_binary()
    assert MIME_TYPES.is_file(), f"{MIME_TYPES} missing (it comes with the Debian nginx package)"
    prefix.mkdir(parents=True, exist_ok=True)
    (prefix / "temp").mkdir(exist_ok=True)
    (prefix / "empty").mkdir(exist_ok=True)
    for name in ("error.log", "nginx.out", "nginx.pid"):
        (prefix / name).unlink(missing_ok=True)
    conf = prefix / "nginx.conf"
    conf.write_text(nginx_conf(prefix, root, port), encoding="utf-8")
    cmd = [binary, "-p", str(prefix), "-c", str(conf), "-e", str(prefix / "error.log"), "-g", "daemon off;"]
    with open(prefix / "nginx.out", "wb") as out:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
    srv = Nginx(proc, port, prefix, root)
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while True:
            if proc.poll() is not None:
                logs = srv.logs()
                if "Address already in use" in logs:
                    raise PortInUse(logs)
                pytest.fail(f"nginx exited {proc.returncode} at start-up: {' '.join(cmd)}\n{logs}", pytrace=False)
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                conn.request("GET", BASE_PATH)
                r = conn.getresponse()
                r.read()
                conn.close()
                pid = prefix / "nginx.pid"     # written once nginx holds its port: not another server
                if ((r.getheader("Server") or "").lower().startswith("nginx") and pid.is_file()
                        and pid.read_text().strip() == str(proc.pid)):
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"nginx did not answer on 127.0.0.1:{port} within {STARTUP_TIMEOUT:.0f} s\n"
                            f"{srv.logs()}", pytrace=False)
            time.sleep(0.05)
        yield srv
    finally:
        _stop(proc)


def serve_with_retry(root_for_port, prefix: Path):
    """Pick a free port, prepare the root for it (root_for_port(port) → Path), start nginx; retry
    with a new port if nginx finds it taken.  A context manager yielding (Nginx)."""
    @contextmanager
    def cm():
        last = ""
        for _ in range(PORT_ATTEMPTS):
            port = free_port()
            root = root_for_port(port)
            try:
                ctx = nginx_serving(root, prefix, port)
                srv = ctx.__enter__()
            except PortInUse as e:
                last = str(e)
                continue
            try:
                yield srv
            finally:
                ctx.__exit__(None, None, None)
            return
        pytest.fail(f"nginx found {PORT_ATTEMPTS} free ports taken in a row\n{last}", pytrace=False)
    return cm()


# --------------------------------------------------------------------------- HTTP


@dataclass
class Resp:
    status: int
    headers: dict[str, str]
    body: bytes

    def header(self, name: str) -> str | None:
        return self.headers.get(name.lower())

    @property
    def ctype(self) -> str:
        return (self.header("content-type") or "").split(";")[0].strip().lower()


class Http:
    """GET/HEAD on one keep-alive connection to 127.0.0.1:port (reopened when nginx closes it)."""

    def __init__(self, port: int, timeout: float = 15.0):
        self.port, self.timeout = port, timeout
        self.conn: http.client.HTTPConnection | None = None
        self.count = 0

    def request(self, target: str, method: str = "GET") -> Resp:
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
            try:
                self.conn.putrequest(method, target, skip_accept_encoding=True)
                self.conn.endheaders()
                r = self.conn.getresponse()
                body = r.read()
                hdrs = {k.lower(): v for k, v in r.getheaders()}
                if r.will_close:
                    self.close()
                self.count += 1
                return Resp(r.status, hdrs, body)
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError,
                    http.client.CannotSendRequest):
                self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


# --------------------------------------------------------------------------- HTML parsing


def srcset_urls(value: str) -> list[str]:
    """The candidate URLs of a srcset/imagesrcset, by the HTML standard's parsing algorithm: a URL
    runs to the next whitespace (it may contain commas; trailing commas end the candidate), then
    descriptors run to the next comma outside parentheses."""
    urls, i, n = [], 0, len(value)
    while i < n:
        while i < n and (value[i].isspace() or value[i] == ","):
            i += 1
        if i >= n:
            break
        j = i
        while j < n and not value[j].isspace():
            j += 1
        url = value[i:j]
        i = j
        if url.endswith(","):
            url = url.rstrip(",")
        else:
            depth = 0
            while i < n:
                c = value[i]
                i += 1
                if c == "(":
                    depth += 1
                elif c == ")" and depth:
                    depth -= 1
                elif c == "," and depth == 0:
                    break
        if url:
            urls.append(url)
    return urls


CSS_URL_RE = re.compile(r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s]*))\s*\)|@import\s+(?:"([^"]*)"|'([^']*)')""",
                        re.IGNORECASE)


def css_urls(text: str) -> list[str]:
    out = []
    for m in CSS_URL_RE.finditer(text):
        u = next((g for g in m.groups() if g is not None), "")
        if u and not u.startswith("#"):        # url(#id): an element of the same document (SVG)
            out.append(u)
    return out


# tag → [(attribute, expected kind of the target)]; kinds: css, js, image, json, or None (any)
URL_ATTRS: dict[str, list[tuple[str, str | None]]] = {
    "a": [("href", None)], "area": [("href", None)],
    "img": [("src", "image")], "script": [("src", "js")],
    "source": [("src", None)], "video": [("src", None), ("poster", "image")],
    "audio": [("src", None)], "track": [("src", None)], "embed": [("src", None)],
    "iframe": [("src", None)], "object": [("data", None)], "form": [("action", None)],
    "button": [("formaction", None)], "input": [("formaction", None)],
    "blockquote": [("cite", None)], "q": [("cite", None)], "del": [("cite", None)], "ins": [("cite", None)],
}
LINK_REL_KIND = {"stylesheet": "css", "icon": "image", "apple-touch-icon": "image", "modulepreload": "js",
                 "mask-icon": "image"}
LINK_REL_SKIP = {"preconnect", "dns-prefetch"}          # name an origin, not a resource
META_URL_PROPS = {"og:image": "image", "og:image:url": "image", "og:image:secure_url": "image",
                  "og:url": None, "og:video": None, "og:audio": None,
                  "twitter:image": "image", "twitter:image:src": "image"}
REFRESH_RE = re.compile(r"^\s*\d+(?:\.\d*)?\s*[;,]\s*(?:url\s*=\s*)?(['\"]?)(.+?)\1\s*$", re.IGNORECASE)


class PageParser(HTMLParser):
    """References (where, raw value, expected kind), ids, <base href>, alternate feeds of one page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.refs: list[tuple[str, str, str | None]] = []
        self.absolute_only: list[tuple[str, str]] = []   # meta URLs that must be absolute
        self.ids: set[str] = set()
        self.base: str | None = None
        self.feeds: list[tuple[str, str]] = []          # (type, href) of <link rel=alternate type=…+xml>
        self._style_depth = 0
        self._style_text: list[str] = []

    def handle_starttag(self, tag, attrs):
        a: dict[str, str] = {}
        for k, v in attrs:
            a.setdefault(k, v if v is not None else "")   # the first of duplicate attributes wins
        if "id" in a and a["id"]:
            self.ids.add(a["id"])
        if tag == "a" and a.get("name"):
            self.ids.add(a["name"])
        if tag == "base" and "href" in a and self.base is None:
            self.base = a["href"]
        for attr, kind in URL_ATTRS.get(tag, []):
            if attr in a:
                self.refs.append((f"{tag} {attr}", a[attr], kind))
        if tag == "input" and a.get("type", "").lower() == "image" and "src" in a:
            self.refs.append(("input[type=image] src", a["src"], "image"))
        if tag in ("img", "source") and "srcset" in a:
            for u in srcset_urls(a["srcset"]):
                self.refs.append((f"{tag} srcset", u, "image"))
        if tag == "link":
            rels = set(a.get("rel", "").lower().split())
            if "href" in a and not rels & LINK_REL_SKIP:
                kind = next((LINK_REL_KIND[r] for r in rels if r in LINK_REL_KIND), None)
                if "preload" in rels:
                    kind = {"style": "css", "script": "js", "image": "image"}.get(a.get("as", "").lower())
                self.refs.append((f"link[rel={a.get('rel', '')}] href", a["href"], kind))
                if "alternate" in rels and a.get("type", "").lower().endswith("+xml"):
                    self.feeds.append((a.get("type", "").lower(), a["href"]))
            if "imagesrcset" in a:
                for u in srcset_urls(a["imagesrcset"]):
                    self.refs.append(("link imagesrcset", u, "image"))
        if tag == "meta":
            prop = (a.get("property") or a.get("name") or "").lower()
            if prop in META_URL_PROPS and a.get("content"):
                self.absolute_only.append((f"meta[{prop}] content", a["content"]))
                self.refs.append((f"meta[{prop}] content", a["content"], META_URL_PROPS[prop]))
            if a.get("http-equiv", "").lower() == "refresh":
                m = REFRESH_RE.match(a.get("content", ""))
                if m:
                    self.refs.append(("meta[http-equiv=refresh] content", m.group(2), None))
        for k, v in a.items():
            if k.startswith("data-") and v.startswith("/") and not v.startswith("//"):
                self.refs.append((f"{tag} {k}", v, "json" if k == "data-index" else None))
        if "style" in a:
            for u in css_urls(a["style"]):
                self.refs.append((f"{tag} style url()", u, None))
        if tag == "style":
            self._style_depth += 1

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag == "style":
            self._style_depth -= 1

    def handle_endtag(self, tag):
        if tag == "style" and self._style_depth:
            self._style_depth -= 1

    def handle_data(self, data):
        if self._style_depth:
            self._style_text.append(data)

    def close(self):
        super().close()
        for u in css_urls("".join(self._style_text)):
            self.refs.append(("style url()", u, None))


def parse_html(body: bytes) -> PageParser:
    p = PageParser()
    p.feed(body.decode("utf-8", errors="replace"))
    p.close()
    return p


# --------------------------------------------------------------------------- the crawler


@dataclass(frozen=True)
class Ref:
    page: str          # the URL of the page (or stylesheet, index) that holds the reference
    where: str         # 'a href', 'img srcset', 'css url()', 'search index url', …
    raw: str           # as written
    url: str           # absolute, percent-encoded, without fragment
    fragment: str
    expect: str | None


@dataclass
class Problem:
    kind: str          # broken | escapes | anchor | type | relative
    target: str        # the URL (with #fragment for anchors)
    detail: str
    refs: list[Ref] = field(default_factory=list)

    def describe(self, origin: str) -> str:
        short = lambda u: u[len(origin):] if u.startswith(origin) else u   # noqa: E731
        pages = sorted({short(r.page) for r in self.refs})
        written = sorted({f'{r.where}="{r.raw}"' for r in self.refs})
        shown = ", ".join(pages[:6]) + (f", … ({len(pages)} pages)" if len(pages) > 6 else "")
        return (f"{self.kind.upper():8} {short(self.target)} — {self.detail}\n"
                f"         written as {'; '.join(written[:4])}{' …' if len(written) > 4 else ''}\n"
                f"         on {shown}")

    def as_json(self, origin: str) -> dict:
        short = lambda u: u[len(origin):] if u.startswith(origin) else u   # noqa: E731
        return {"kind": self.kind, "target": short(self.target), "detail": self.detail,
                "references": [{"page": short(r.page), "where": r.where, "raw": r.raw} for r in self.refs]}


KIND_CHECK = {
    "css": lambda t: t == "text/css",
    "js": lambda t: t in ("application/javascript", "text/javascript", "application/ecmascript"),
    "image": lambda t: t.startswith("image/"),
    "json": lambda t: t == "application/json" or t.endswith("+json"),
}


class Crawler:
    """Crawls the site under http://127.0.0.1:<port><base_path> (see the module docstring)."""

    def __init__(self, port: int, base_path: str = BASE_PATH):
        self.http = Http(port)
        self.origin = f"http://127.0.0.1:{port}"
        self.base_path = base_path
        self.base_url = self.origin + base_path
        self.responses: dict[str, Resp] = {}
        self.pages: dict[str, PageParser] = {}         # parsed HTML pages (200, text/html, under base)
        self.refs: list[Ref] = []                      # every internal reference checked
        self.refs_to: dict[str, list[Ref]] = {}
        self.seeded: dict[str, str] = {}               # URL → why it was crawled without a link to it
        self.external = 0                              # other origins, not followed
        self.other_schemes = 0                         # mailto:, tel:, data:, … not followed
        self.relative_meta: list[Ref] = []
        self._queue: deque[str] = deque()
        self._queued: set[str] = set()

    # -- URLs
    def resolve(self, base: str, raw: str) -> tuple[str, str, str]:
        """('internal', url, fragment) | ('external', url, '') | ('other', scheme, '')."""
        value = re.sub(r"[\t\n\r]", "", raw.strip(" \t\n\r\f"))
        absolute = urljoin(base, value)
        parts = urlsplit(absolute)
        scheme = parts.scheme.lower()
        if scheme not in ("http", "https"):
            return "other", scheme, ""
        if f"{scheme}://{parts.netloc.lower()}" != self.origin:
            return "external", absolute, ""
        url = urlunsplit((scheme, parts.netloc.lower(), quote(parts.path or "/", safe=PATH_SAFE),
                          quote(parts.query, safe=QUERY_SAFE), ""))
        return "internal", url, parts.fragment

    def under_base(self, url: str) -> bool:
        return url.startswith(self.base_url)

    def target(self, url: str) -> str:
        return url[len(self.origin):]

    def fetch(self, url: str) -> Resp:
        if url not in self.responses:
            self.responses[url] = self.http.request(self.target(url))
        return self.responses[url]

    # -- crawling
    def add_ref(self, page: str, where: str, raw: str, expect: str | None = None,
                must_be_absolute: bool = False) -> None:
        kind, url, frag = self.resolve(page, raw)
        if kind == "other":
            self.other_schemes += 1
            return
        if kind == "external":
            self.external += 1
            return
        ref = Ref(page, where, raw, url, frag, expect)
        if must_be_absolute and not urlsplit(raw.strip()).scheme:
            self.relative_meta.append(ref)
        self.refs.append(ref)
        self.refs_to.setdefault(url, []).append(ref)
        self._enqueue(url)

    def _enqueue(self, url: str) -> None:
        if url not in self._queued:
            self._queued.add(url)
            self._queue.append(url)

    def seed(self, raw: str, why: str) -> None:
        kind, url, _ = self.resolve(self.base_url, raw)
        assert kind == "internal", f"seed {raw!r} is not on {self.origin}"
        if url not in self._queued:
            self.seeded[url] = why
            self._enqueue(url)

    def run(self) -> None:
        while self._queue:
            url = self._queue.popleft()
            r = self.fetch(url)
            if r.status != 200 or not self.under_base(url):
                continue                       # reported by problems(); an escaping URL is not read
            if r.ctype == "text/html":
                p = parse_html(r.body)
                self.pages[url] = p
                base = urljoin(url, p.base) if p.base else url
                for where, raw, expect in p.refs:
                    self.add_ref(base, where, raw, expect,
                                 must_be_absolute=any(where == w for w, _ in p.absolute_only))
            elif r.ctype == "text/css":
                for raw in css_urls(r.body.decode("utf-8", errors="replace")):
                    self.add_ref(url, "css url()", raw, None)
            elif r.ctype == "application/json":
                try:
                    data = json.loads(r.body)
                except ValueError:
                    continue
                self._json_refs(url, data)

    def _json_refs(self, url: str, data, key: str = "") -> None:
        """The `url`/`src`/`href` strings of a JSON file (sitegen's search indexes: items[].url and
        items[].image.src), relative to the JSON file's URL."""
        if isinstance(data, dict):
            for k, v in data.items():
                self._json_refs(url, v, k)
        elif isinstance(data, list):
            for v in data:
                self._json_refs(url, v, key)
        elif isinstance(data, str) and key in ("url", "src", "href") and data:
            self.add_ref(url, f"search index {key}", data, "image" if key == "src" else None)

    # -- results
    def problems(self) -> list[Problem]:
        out: list[Problem] = []
        for url, refs in self.refs_to.items():
            r = self.responses.get(url)
            status = f"HTTP {r.status}" + (f" → {r.header('location')}" if r.header("location") else "") if r else "not fetched"
            if not self.under_base(url):
                out.append(Problem("escapes", url, f"outside {self.base_path} (nginx: {status})", refs))
            elif r is None or r.status != 200:
                out.append(Problem("broken", url, status, refs))
            else:
                by_kind: dict[str, list[Ref]] = {}
                for ref in refs:
                    if ref.expect and not KIND_CHECK[ref.expect](r.ctype):
                        by_kind.setdefault(ref.expect, []).append(ref)
                for kind, bad in by_kind.items():
                    out.append(Problem("type", url, f"served as {r.ctype or '(no Content-Type)'}, "
                                                    f"referenced as {kind}", bad))
        anchors: dict[str, list[Ref]] = {}
        for ref in self.refs:
            frag = unquote(ref.fragment)
            if not frag or frag.startswith(":~:") or ref.url not in self.pages:
                continue
            if frag not in self.pages[ref.url].ids and frag.lower() != "top":
                anchors.setdefault(f"{ref.url}#{ref.fragment}", []).append(ref)
        out += [Problem("anchor", t, "no element with this id in the page", refs) for t, refs in anchors.items()]
        rel: dict[str, list[Ref]] = {}
        for ref in self.relative_meta:
            rel.setdefault(ref.url, []).append(ref)
        out += [Problem("relative", u, "Open Graph / Twitter URLs must be absolute", refs) for u, refs in rel.items()]
        order = {"escapes": 0, "broken": 1, "type": 2, "anchor": 3, "relative": 4}
        return sorted(out, key=lambda p: (order[p.kind], p.target))

    def assets(self) -> list[str]:
        return [u for u, r in self.responses.items() if u not in self.pages and self.under_base(u)
                and not (r.status == 200 and r.ctype == "text/html")]


def format_problems(problems: list[Problem], origin: str) -> str:
    return "\n".join(p.describe(origin) for p in problems)


# --------------------------------------------------------------------------- the hosted example site


@dataclass
class Hosted:
    nginx: Nginx
    public: Path
    tmp: Path
    base_url: str

    @property
    def port(self) -> int:
        return self.nginx.port


def build_site(sitegen: Path, public: Path, base_url: str) -> None:
    cmd = [str(sitegen), "build", "--source", str(REPO), "--output", str(public), "--base-url", base_url]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    if p.returncode != 0 or not (public / "index.html").is_file():
        pytest.fail(f"`{' '.join(cmd)}` exited {p.returncode}\n--- stderr ---\n{p.stderr}\n--- stdout ---\n{p.stdout}",
                    pytrace=False)


@pytest.fixture(scope="module")
def hosted(sitegen_bin, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hosting")
    public = tmp / "public"
    urls: dict[int, str] = {}

    def build_for(port: int) -> Path:
        urls[port] = f"http://127.0.0.1:{port}{BASE_PATH}"
        build_site(sitegen_bin, public, urls[port])
        return public

    with serve_with_retry(build_for, tmp / "nginx") as srv:
        yield Hosted(srv, public, tmp, urls[srv.port])


@dataclass
class Crawl:
    crawler: Crawler
    problems: list[Problem]
    seconds: float
    from_home: int                     # pages reached by links from /apps/
    sitemap_locs: list[str]


def sitemap_locs(xml: bytes) -> list[str]:
    try:
        root = ET.fromstring(xml)
    except ET.ParseError:
        return []
    return [(e.text or "").strip() for e in root.iter(f"{SITEMAP_NS}loc")]


@pytest.fixture(scope="module")
def crawl(hosted) -> Crawl:
    """The whole crawl, once: from /apps/ by links, then the sitemap's URLs and every HTML file of
    the output as further seeds."""
    c = Crawler(hosted.port)
    t0 = time.monotonic()
    c.seed(BASE_PATH, "start")
    c.run()
    from_home = len(c.pages)
    sm = c.fetch(c.base_url + "sitemap.xml")
    locs = sitemap_locs(sm.body) if sm.status == 200 else []
    for loc in locs:
        if loc.startswith(c.origin):
            c.seed(loc, "sitemap")
    for path in site_pages(hosted.public):
        c.seed(BASE_PATH.rstrip("/") + path, "output folder")
    c.run()
    seconds = time.monotonic() - t0
    return Crawl(c, c.problems(), seconds, from_home, locs)


# --------------------------------------------------------------------------- 1. links and assets


def test_every_link_and_asset_answers_200_under_the_base_path(hosted, crawl, record_property):
    c = crawl.crawler
    problems = crawl.problems
    count = lambda k: sum(1 for p in problems if p.kind == k)   # noqa: E731
    served = {u for u, r in c.responses.items() if r.status == 200}
    unreferenced = []
    for f in sorted(hosted.public.rglob("*")):
        if f.is_file():
            rel = f.relative_to(hosted.public).as_posix()
            urls = {hosted.base_url + quote(rel)}
            if rel == "index.html" or rel.endswith("/index.html"):
                urls.add(hosted.base_url + quote(rel[: -len("index.html")]))
            if not urls & served:
                unreferenced.append(BASE_PATH + rel)
    figures = {
        "base_url": hosted.base_url,
        "pages_crawled": len(c.pages),
        "pages_reached_from_home": crawl.from_home,
        "pages_only_seeded": sorted(c.target(u) for u in c.pages if u in c.seeded and c.seeded[u] != "start"),
        "links_followed": len(c.refs),
        "unique_internal_urls": len(c.refs_to),
        "assets_fetched": len(c.assets()),
        "requests": c.http.count,
        "external_links_not_followed": c.external,
        "other_scheme_links_not_followed": c.other_schemes,
        "broken": count("broken"),
        "escaping": count("escapes"),
        "wrong_type": count("type"),
        "missing_anchors": count("anchor"),
        "relative_meta_urls": count("relative"),
        "problems_total": len(problems),
        "crawl_seconds": round(crawl.seconds, 3),
        "output_files": sum(1 for f in hosted.public.rglob("*") if f.is_file()),
        "output_files_never_referenced": unreferenced,
        "problems": [p.as_json(c.origin) for p in problems],
    }
    report = hosted.tmp / "crawl.json"
    report.write_text(json.dumps(figures, indent=1, ensure_ascii=False), encoding="utf-8")
    for k, v in figures.items():
        if k not in ("problems", "pages_only_seeded", "output_files_never_referenced"):
            record_property(k, v)
    print(f"\ncrawl of {hosted.base_url} served by nginx: {len(c.pages)} pages "
          f"({crawl.from_home} reached by links from {BASE_PATH}), {len(c.refs)} links followed "
          f"({len(c.refs_to)} distinct URLs), {len(c.assets())} assets fetched, {c.http.count} requests, "
          f"{c.external} external + {c.other_schemes} mailto:/data:/… links not followed, "
          f"{len(problems)} problems (broken {figures['broken']}, escaping {figures['escaping']}, "
          f"wrong type {figures['wrong_type']}, missing anchors {figures['missing_anchors']}) "
          f"in {crawl.seconds:.2f} s → {report}")
    if figures["pages_only_seeded"]:
        print(f"pages no link leads to (crawled from the sitemap / output folder): {figures['pages_only_seeded']}")
    if unreferenced:    # not an error: published files nothing links (e.g. images only a dataset names)
        print(f"{len(unreferenced)} of {figures['output_files']} output files are referenced by no page, "
              f"stylesheet or index: {unreferenced[:5]}{' …' if len(unreferenced) > 5 else ''}")
    assert len(c.pages) >= 100, f"only {len(c.pages)} pages crawled: {sorted(c.target(u) for u in c.pages)}"
    if problems:
        pytest.fail(f"{len(problems)} broken or escaping references on {hosted.base_url} "
                    f"(full list in {report}):\n{format_problems(problems, c.origin)}", pytrace=False)


# --------------------------------------------------------------------------- 2. sitemap

SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
W3C_DATETIME_RE = re.compile(
    r"^\d{4}(-\d{2}(-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?)?)?$")
CHANGEFREQ = {"always", "hourly", "daily", "weekly", "monthly", "yearly", "never"}


def w3c_datetime_ok(value: str) -> bool:
    """W3C Datetime (https://www.w3.org/TR/NOTE-datetime), the format of sitemap <lastmod>:
    YYYY, YYYY-MM, YYYY-MM-DD, or a date with hh:mm[:ss[.s]] and a zone designator."""
    if not W3C_DATETIME_RE.match(value):
        return False
    try:
        if len(value) == 4:
            return True
        if len(value) == 7:
            datetime.strptime(value, "%Y-%m")
        elif len(value) == 10:
            datetime.strptime(value, "%Y-%m-%d")
        else:
            v = value.replace("Z", "+00:00")
            if re.match(r"^.{10}T\d{2}:\d{2}[+-]", v):
                v = v[:16] + ":00" + v[16:]
            datetime.fromisoformat(v)
        return True
    except ValueError:
        return False


def sitemap_problems(body: bytes, where: str, base_url: str, kind: str = "urlset") -> tuple[list[str], list[str]]:
    """sitemaps.org protocol 0.9 checks of one sitemap (or sitemap index) file: (problems, locs)."""
    problems: list[str] = []
    try:
        root = ET.fromstring(body)
    except ET.ParseError as e:
        return [f"{where}: not well-formed XML: {e}"], []
    child = "url" if kind == "urlset" else "sitemap"
    if root.tag not in (f"{SITEMAP_NS}urlset", f"{SITEMAP_NS}sitemapindex"):
        return [f"{where}: root element {root.tag}, want {SITEMAP_NS}urlset or sitemapindex"], []
    if root.tag == f"{SITEMAP_NS}sitemapindex":
        kind, child = "sitemapindex", "sitemap"
    if len(body) > 50 * 1024 * 1024:
        problems.append(f"{where}: {len(body)} bytes, more than the protocol's 50 MB")
    entries = list(root)
    if len(entries) > 50_000:
        problems.append(f"{where}: {len(entries)} entries, more than the protocol's 50,000")
    locs: list[str] = []
    allowed = {"loc", "lastmod"} | ({"changefreq", "priority"} if kind == "urlset" else set())
    for i, e in enumerate(entries, 1):
        at = f"{where}: <{child}> #{i}"
        if e.tag != f"{SITEMAP_NS}{child}":
            if e.tag.startswith(SITEMAP_NS):
                problems.append(f"{at}: unexpected element {e.tag}")
            continue
        names = [c.tag[len(SITEMAP_NS):] for c in e if c.tag.startswith(SITEMAP_NS)]
        for n in set(names):
            if n not in allowed:
                problems.append(f"{at}: unexpected <{n}>")
            elif names.count(n) > 1:
                problems.append(f"{at}: {names.count(n)} <{n}>, at most one allowed")
        loc_el = e.find(f"{SITEMAP_NS}loc")
        if loc_el is None:
            problems.append(f"{at}: no <loc>")
            continue
        loc = loc_el.text or ""
        at = f"{where}: <loc>{loc}</loc>"
        if loc != loc.strip():
            problems.append(f"{at}: whitespace around the URL")
        loc = loc.strip()
        locs.append(loc)
        parts = urlsplit(loc)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            problems.append(f"{at}: not an absolute http(s) URL")
        elif not loc.startswith(base_url):
            problems.append(f"{at}: not under the base URL {base_url}")
        if len(loc) >= 2048:
            problems.append(f"{at}: {len(loc)} characters, the protocol allows less than 2,048")
        if re.search(r"[\s<>\"{}|\\^`]", loc):
            problems.append(f"{at}: characters that must be percent-encoded")
        if parts.fragment:
            problems.append(f"{at}: a #fragment")
        lm = e.find(f"{SITEMAP_NS}lastmod")
        if lm is not None and not w3c_datetime_ok((lm.text or "").strip()):
            problems.append(f"{at}: <lastmod>{lm.text}</lastmod> is not a W3C Datetime")
        cf = e.find(f"{SITEMAP_NS}changefreq")
        if cf is not None and (cf.text or "").strip() not in CHANGEFREQ:
            problems.append(f"{at}: <changefreq>{cf.text}</changefreq> is not one of {sorted(CHANGEFREQ)}")
        pr = e.find(f"{SITEMAP_NS}priority")
        if pr is not None:
            try:
                ok = 0.0 <= float((pr.text or "").strip()) <= 1.0
            except ValueError:
                ok = False
            if not ok:
                problems.append(f"{at}: <priority>{pr.text}</priority> is not a number from 0.0 to 1.0")
    dups = sorted({u for u in locs if locs.count(u) > 1})
    if dups:
        problems.append(f"{where}: URLs listed more than once: {dups[:10]}")
    if kind == "urlset" and not locs:
        problems.append(f"{where}: no URLs")
    return problems, locs if kind == "urlset" else [f"index:{u}" for u in locs]


def test_sitemap_is_valid_and_every_url_is_served(hosted, crawl):
    c = crawl.crawler
    problems: list[str] = []
    page_locs: list[str] = []
    todo = [(hosted.base_url + "sitemap.xml", "sitemap.xml")]
    seen: set[str] = set()
    while todo:
        url, where = todo.pop(0)
        if url in seen:
            continue
        seen.add(url)
        kind, req, _ = c.resolve(url, url)
        if kind != "internal":
            problems.append(f"{where}: sitemap {url} is not on {c.origin}")
            continue
        r = c.fetch(req)
        if r.status != 200:
            problems.append(f"GET {c.target(req)}: HTTP {r.status}")
            continue
        if r.ctype not in ("text/xml", "application/xml"):
            problems.append(f"GET {c.target(req)}: Content-Type {r.ctype!r}, want an XML type")
        found, locs = sitemap_problems(r.body, c.target(req), hosted.base_url)
        problems += found
        for loc in locs:
            if loc.startswith("index:"):
                todo.append((loc[6:], f"listed in {c.target(req)}"))
            else:
                page_locs.append(loc)
    for loc in page_locs:
        kind, url, _ = c.resolve(loc, loc)
        if kind != "internal" or not c.under_base(url):
            continue                                     # reported above (not under the base URL)
        r = c.fetch(url)
        if r.status != 200:
            problems.append(f"sitemap URL {loc}: HTTP {r.status}"
                            + (f" → {r.header('location')}" if r.header("location") else ""))
        elif r.ctype != "text/html":
            problems.append(f"sitemap URL {loc}: Content-Type {r.ctype!r}")
    listed = {c.resolve(u, u)[1] for u in page_locs}
    unlisted = sorted(c.target(u) for u in c.pages if u not in listed and not u.endswith("/404.html"))
    print(f"\nsitemap: {len(page_locs)} URLs, all fetched from nginx; {len(problems)} problems"
          + (f"; crawled pages not in it: {unlisted}" if unlisted else "; every crawled page is listed"))
    assert page_locs or problems, "the sitemap lists no URLs"
    if problems:
        pytest.fail(f"{len(problems)} sitemap problems:\n  " + "\n  ".join(problems), pytrace=False)


# --------------------------------------------------------------------------- 3. 404 page


def test_missing_page_gets_the_sites_404_page(hosted):
    """A missing URL → 404 with the bytes of the site's 404.html (error_page), at any depth; the
    404 page's links resolve to the same URLs whatever the depth of the missing URL (so they are
    root-relative or absolute, never relative), all under /apps/."""
    c = Crawler(hosted.port)
    expected = (hosted.public / "404.html").read_bytes()
    problems = []
    resolved_at: dict[str, list[tuple[str, str, str]]] = {}   # target → (where, raw, resolved); #fragments left out
    for target in (BASE_PATH + "no-such-page/", BASE_PATH + "no-such-page.html",
                   BASE_PATH + "bounties/no-such-bounty/", BASE_PATH + "a/b/c/d/e/missing",
                   BASE_PATH + "assets/no-such.css", BASE_PATH + "%ED%95%9C/%EC%97%86%EC%9D%8C/"):
        r = c.http.request(target)
        if r.status != 404:
            problems.append(f"GET {target}: HTTP {r.status}, want 404")
        if r.body != expected:
            problems.append(f"GET {target}: body is not 404.html ({len(r.body)} bytes, starts "
                            f"{r.body[:120]!r})")
            continue
        if r.ctype != "text/html":
            problems.append(f"GET {target}: Content-Type {r.ctype!r}")
        p = parse_html(r.body)
        here = c.origin + target
        resolved_at[target] = sorted((w, raw, c.resolve(here, raw)[1]) for w, raw, _ in p.refs
                                     if c.resolve(here, raw)[0] == "internal" and not raw.startswith("#"))
    # the 404 page's references, resolved from every depth, must agree
    variants = {tuple(v) for v in resolved_at.values()}
    if len(variants) > 1:
        first, *rest = resolved_at.items()
        for t, refs in rest:
            diff = sorted({f"{w}={raw!r} → {u}" for w, raw, u in set(refs) ^ set(first[1])})
            if diff:
                problems.append(f"the 404 page's references resolve differently at {t} than at {first[0]} "
                                f"(relative URLs): {diff[:8]}")
    for t, refs in resolved_at.items():
        outside = [f"{w}={raw!r} → {u}" for w, raw, u in refs if not u.startswith(hosted.base_url)]
        if outside:
            problems.append(f"the 404 page served at {t} references URLs outside {BASE_PATH}: {outside[:8]}")
    # a folder without its slash: nginx's redirect, to the same place under /apps/
    r = c.http.request(BASE_PATH + "bounties")
    loc = urljoin(c.origin + BASE_PATH, r.header("location") or "")
    if r.status != 301 or loc != hosted.base_url + "bounties/":
        problems.append(f"GET {BASE_PATH}bounties: HTTP {r.status} Location {r.header('location')!r}, "
                        f"want 301 to {hosted.base_url}bounties/")
    if problems or not resolved_at:
        pytest.fail("\n".join(problems) or "no 404 response carried the site's 404 page", pytrace=False)


# --------------------------------------------------------------------------- 4. Atom feed

ATOM_NS = "http://www.w3.org/2005/Atom"
ATOM = "{" + ATOM_NS + "}"
XHTML = "{http://www.w3.org/1999/xhtml}"
XML_BASE = "{http://www.w3.org/XML/1998/namespace}base"
RFC3339_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")
IRI_SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")
EMAIL_RE = re.compile(r"^[^@\s<>()]+@[^@\s<>()]+$")
MIME_RE = re.compile(r"^[A-Za-z0-9!#$&^_.+-]+/[A-Za-z0-9!#$&^_.+-]+(\s*;.*)?$")
FEED_TYPES = ("application/atom+xml", "application/xml", "text/xml")


def rfc3339(value: str) -> datetime | None:
    """An RFC 3339 date-time as Atom (RFC 4287 §3.3) requires it: upper-case T and Z, seconds, a
    zone; None if it is not one."""
    if not RFC3339_RE.match(value):
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


class AtomCheck:
    """RFC 4287 rules for one feed document.  Collects problems and the links to fetch
    (where, absolute URL, must be under base)."""

    def __init__(self, feed_url: str, base_url: str):
        self.feed_url, self.base_url = feed_url, base_url
        self.problems: list[str] = []
        self.fetch: list[tuple[str, str]] = []           # (where, absolute URL) of alternate/self links
        self.content_refs: list[tuple[str, str]] = []    # (where, absolute URL) inside content/summary
        self.entries = 0

    def bad(self, msg: str) -> None:
        self.problems.append(msg)

    def kids(self, el, name: str) -> list:
        return el.findall(ATOM + name)

    def base_of(self, el, parent_base: str, where: str) -> str:
        xb = el.get(XML_BASE)
        if xb is None:
            return parent_base
        b = urljoin(parent_base, xb)
        if not b.startswith(self.base_url):
            self.bad(f"{where}: xml:base={xb!r} resolves to {b}, outside the base URL {self.base_url}")
        return b

    def cardinality(self, el, where: str, exactly_one=(), at_most_one=()) -> None:
        for n in exactly_one:
            k = len(self.kids(el, n))
            if k != 1:
                self.bad(f"{where}: {k} <{n}> elements, RFC 4287 requires exactly one")
        for n in at_most_one:
            k = len(self.kids(el, n))
            if k > 1:
                self.bad(f"{where}: {k} <{n}> elements, RFC 4287 allows at most one")

    def date(self, el, name: str, where: str) -> datetime | None:
        e = el.find(ATOM + name)
        if e is None:
            return None
        d = rfc3339((e.text or "").strip())
        if d is None:
            self.bad(f"{where}: <{name}>{e.text}</{name}> is not an RFC 3339 date-time (YYYY-MM-DDThh:mm:ss[.f](Z|±hh:mm))")
        elif (e.text or "") != (e.text or "").strip():
            self.bad(f"{where}: whitespace around <{name}>")
        return d

    def id(self, el, where: str) -> str | None:
        e = el.find(ATOM + "id")
        if e is None:
            return None
        v = e.text or ""
        if v != v.strip() or not v:
            self.bad(f"{where}: <id>{v!r}</id> is empty or has whitespace")
        if not IRI_SCHEME_RE.match(v.strip()) or re.search(r"\s", v.strip()):
            self.bad(f"{where}: <id>{v}</id> is not an absolute IRI")
        elif v.strip().startswith(("http:", "https:")) and not urlsplit(v.strip()).netloc:
            self.bad(f"{where}: <id>{v}</id> has no host")
        return v.strip()

    def text(self, el, name: str, where: str, required_nonempty=False, base: str = "") -> None:
        for e in self.kids(el, name):
            t = e.get("type", "text")
            w = f"{where} <{name}>"
            if t not in ("text", "html", "xhtml"):
                self.bad(f"{w}: type={t!r}, must be text, html or xhtml")
                continue
            if t in ("text", "html") and len(e):
                self.bad(f"{w}: type={t} with child elements (markup must be escaped)")
            if t == "xhtml":
                divs = list(e)
                if len(divs) != 1 or divs[0].tag != XHTML + "div" or (e.text or "").strip():
                    self.bad(f"{w}: type=xhtml needs exactly one xhtml:div child")
            if required_nonempty and not "".join(e.itertext()).strip():
                self.bad(f"{w}: empty")
            self.markup_refs(e, t, w, self.base_of(e, base or self.feed_url, w))

    def markup_refs(self, e, t: str, where: str, base: str) -> None:
        """References inside html/xhtml text and content, resolved against xml:base; a reference
        to the site's own origin outside the base URL ignored the base path."""
        found: list[tuple[str, str]] = []
        if t == "html":
            p = parse_html((e.text or "").encode("utf-8"))
            found = [(f"{where} {w}={raw!r}", raw) for w, raw, _ in p.refs]
        elif t == "xhtml" or t.endswith("+xml") or t.endswith("/xml"):
            for x in e.iter():
                for attr in ("href", "src", "poster", "cite", "action"):
                    if attr in x.attrib:
                        found.append((f"{where} {x.tag.split('}')[-1]} {attr}={x.get(attr)!r}", x.get(attr)))
        origin = "{0.scheme}://{0.netloc}".format(urlsplit(self.base_url))
        for w, raw in found:
            url = urljoin(base, raw.strip())
            self.content_refs.append((w, url))
            if url.startswith(origin + "/") and not url.startswith(self.base_url):
                self.bad(f"{w}: resolves to {url}, outside the base URL {self.base_url} "
                         f"(a link that ignores the base path)")

    def person(self, el, where: str, base: str) -> None:
        w = f"{where} <{el.tag.split('}')[-1]}>"
        self.cardinality(el, w, exactly_one=("name",), at_most_one=("uri", "email"))
        n = el.find(ATOM + "name")
        if n is not None and not (n.text or "").strip():
            self.bad(f"{w}: empty <name>")
        u = el.find(ATOM + "uri")
        if u is not None and not (u.text or "").strip():
            self.bad(f"{w}: empty <uri>")
        m = el.find(ATOM + "email")
        if m is not None and not EMAIL_RE.match((m.text or "").strip()):
            self.bad(f"{w}: <email>{m.text}</email> is not an e-mail address")

    def links(self, el, where: str, base: str) -> dict[str, list[str]]:
        by_rel: dict[str, list[str]] = {}
        seen_alt: set[tuple[str, str]] = set()
        for l in self.kids(el, "link"):
            href = l.get("href")
            rel = l.get("rel", "alternate")
            w = f"{where} <link rel={rel!r}>"
            if href is None:
                self.bad(f"{w}: no href (required)")
                continue
            lbase = self.base_of(l, base, w)
            url = urljoin(lbase, href)
            by_rel.setdefault(rel, []).append(url)
            t = l.get("type")
            if t is not None and not MIME_RE.match(t):
                self.bad(f"{w}: type={t!r} is not a media type")
            if rel == "alternate":
                key = ((t or "").lower(), (l.get("hreflang") or "").lower())
                if key in seen_alt:
                    self.bad(f"{w}: two alternate links with the same type and hreflang {key}")
                seen_alt.add(key)
            if l.get("length") is not None and not (l.get("length") or "").isdigit():
                self.bad(f"{w}: length={l.get('length')!r} is not a number")
            if rel in ("self", "alternate"):
                if not url.startswith(self.base_url):
                    self.bad(f"{w}: href={href!r} resolves to {url}, outside the base URL {self.base_url}")
                self.fetch.append((f"{w} href={href!r}", url))
        return by_rel

    def run(self, body: bytes) -> None:
        try:
            root = ET.fromstring(body)
        except ET.ParseError as e:
            self.bad(f"not well-formed XML: {e}")
            return
        if root.tag != ATOM + "feed":
            self.bad(f"root element is {root.tag}, want {ATOM}feed (an Atom 1.0 feed)")
            return
        where = "feed"
        base = self.base_of(root, self.feed_url, where)
        self.cardinality(root, where, exactly_one=("id", "title", "updated"),
                         at_most_one=("subtitle", "rights", "icon", "logo", "generator"))
        feed_id = self.id(root, where)
        self.text(root, "title", where, required_nonempty=True, base=base)
        self.text(root, "subtitle", where, base=base)
        self.text(root, "rights", where, base=base)
        feed_updated = self.date(root, "updated", where)
        feed_authors = self.kids(root, "author")
        for p in feed_authors + self.kids(root, "contributor"):
            self.person(p, where, base)
        rels = self.links(root, where, base)
        selfs = rels.get("self", [])
        if len(selfs) != 1:
            self.bad(f"{where}: {len(selfs)} <link rel=\"self\">, want exactly one (the feed's own URL)")
        elif selfs[0] != self.feed_url:
            self.bad(f"{where}: <link rel=\"self\"> is {selfs[0]}, but the feed is served at {self.feed_url}")
        ids: dict[str, str] = {}
        entries = self.kids(root, "entry")
        self.entries = len(entries)
        if not entries:
            self.bad(f"{where}: no <entry> (the site has notes)")
        for i, e in enumerate(entries, 1):
            title = (e.findtext(ATOM + "title") or "").strip()
            w = f"entry #{i} ({title!r})"
            ebase = self.base_of(e, base, w)
            self.cardinality(e, w, exactly_one=("id", "title", "updated"),
                             at_most_one=("published", "summary", "content", "rights", "source"))
            eid = self.id(e, w)
            if eid:
                if eid in ids:
                    self.bad(f"{w}: <id>{eid}</id> also used by {ids[eid]}")
                if eid == feed_id:
                    self.bad(f"{w}: <id> equals the feed's <id>")
                ids.setdefault(eid, w)
            self.text(e, "title", w, required_nonempty=True, base=ebase)
            self.text(e, "summary", w, base=ebase)
            self.text(e, "rights", w, base=ebase)
            updated = self.date(e, "updated", w)
            published = self.date(e, "published", w)
            if updated and published and published > updated:
                self.bad(f"{w}: <published> is after <updated>")
            if updated and feed_updated and updated > feed_updated:
                self.bad(f"{w}: <updated> {updated.isoformat()} is later than the feed's <updated> "
                         f"{feed_updated.isoformat()}")
            authors = self.kids(e, "author")
            src = e.find(ATOM + "source")
            if not authors and not feed_authors and (src is None or src.find(ATOM + "author") is None):
                self.bad(f"{w}: no <author>, and the feed has none (RFC 4287 §4.1.1)")
            for p in authors + self.kids(e, "contributor"):
                self.person(p, w, ebase)
            erels = self.links(e, w, ebase)
            if not erels.get("alternate"):
                self.bad(f"{w}: no <link rel=\"alternate\"> to the note's page")
            content = e.find(ATOM + "content")
            if content is not None:
                t = content.get("type", "text")
                cw = f"{w} <content>"
                cbase = self.base_of(content, ebase, cw)
                if content.get("src") is not None:
                    if (content.text or "").strip() or len(content):
                        self.bad(f"{cw}: has src and is not empty")
                    if e.find(ATOM + "summary") is None:
                        self.bad(f"{w}: <content src> without <summary>")
                elif t not in ("text", "html", "xhtml") and not MIME_RE.match(t):
                    self.bad(f"{cw}: type={t!r} is neither text/html/xhtml nor a media type")
                elif t in ("text", "html") and len(content):
                    self.bad(f"{cw}: type={t} with child elements (markup must be escaped)")
                elif t == "xhtml" and (len(content) != 1 or content[0].tag != XHTML + "div"):
                    self.bad(f"{cw}: type=xhtml needs exactly one xhtml:div child")
                else:
                    self.markup_refs(content, t, cw, cbase)
            elif e.find(ATOM + "summary") is None and not erels.get("alternate"):
                self.bad(f"{w}: neither <content> nor <summary> nor an alternate link")
        if feed_updated is None and root.find(ATOM + "updated") is not None:
            pass    # already reported as a date problem


def test_atom_feed_is_linked_valid_and_served(hosted, crawl):
    c = crawl.crawler
    home = c.pages.get(hosted.base_url)
    assert home is not None, f"the home page {hosted.base_url} was not crawled"
    linked = [(t, urljoin(hosted.base_url, h)) for t, h in home.feeds if t == "application/atom+xml"]
    probes = {}
    for cand in FEED_CANDIDATES:
        probes[cand] = c.http.request(BASE_PATH + cand)
    existing = [hosted.base_url + cand for cand, r in probes.items() if r.status == 200]
    if not linked:
        tried = ", ".join(f"{BASE_PATH}{cand} → {r.status}" for cand, r in probes.items())
        pytest.fail(
            f"no Atom feed yet: the home page {hosted.base_url} has no "
            f"<link rel=\"alternate\" type=\"application/atom+xml\" href=\"…\"> "
            f"(its alternate feeds: {home.feeds or 'none'}); probed {tried}"
            + (f"; a file exists at {existing} but the home page does not link it" if existing else ""),
            pytrace=False)
    problems: list[str] = []
    if len(linked) > 1:
        problems.append(f"the home page links {len(linked)} Atom feeds: {linked}")
    feed_url = linked[0][1]
    kind, req, _ = c.resolve(feed_url, feed_url)
    if kind != "internal" or not c.under_base(req):
        pytest.fail(f"the home page's Atom feed link {feed_url} is not under {hosted.base_url}", pytrace=False)
    r = c.fetch(req)
    if r.status != 200:
        pytest.fail(f"the Atom feed {feed_url} (linked from the home page): HTTP {r.status}", pytrace=False)
    if r.ctype not in FEED_TYPES:
        problems.append(f"the feed is served as {r.ctype!r}, want one of {FEED_TYPES}")
    check = AtomCheck(req, hosted.base_url)
    check.run(r.body)
    problems += check.problems
    for where, url in check.fetch + check.content_refs:
        k, u, _ = c.resolve(url, url)
        if k != "internal":
            continue                                    # another origin: not ours to fetch
        if not c.under_base(u):
            continue                                    # reported by AtomCheck
        fr = c.fetch(u)
        if fr.status != 200:
            problems.append(f"{where}: {u} → HTTP {fr.status}")
    print(f"\nAtom feed {feed_url}: {check.entries} entries, {len(check.fetch) + len(check.content_refs)} "
          f"links checked, {len(problems)} problems")
    if problems:
        pytest.fail(f"Atom feed {feed_url}: {len(problems)} problems (RFC 4287):\n  " + "\n  ".join(problems),
                    pytrace=False)


# --------------------------------------------------------------------------- 5. the crawler itself

PIXEL_SVG = b'<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1" viewBox="0 0 1 1"></svg>\n'
MINI_INDEX = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>one</title>
<link rel="stylesheet" href="style.css"></head>
<body><a id="top-link" href="#top-link">here</a>
<a href="page2.html#second">two</a> <a href="https://example.com/elsewhere">external</a>
<a href="mailto:someone@example.com">mail</a> <a href="data:text/plain,x">data</a>
<img src="pixel.svg" srcset="pixel.svg 1x, pixel.svg?w=2,2 2x" alt="">
{extra}
</body></html>
"""
MINI_PAGE2 = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>two</title></head>
<body><h1 id="second">two</h1><a href="./">back</a> <a href="/apps/#top-link">home</a></body></html>
"""
# case → (extra markup on the first page, the one problem expected: (kind, target path, where))
PLANTED = {
    "clean": ("", None),
    "broken-link": ('<a href="missing.html">gone</a>', ("broken", "/apps/missing.html", "a href")),
    "escaping-link": ('<a href="/page2.html">no base path</a>', ("escapes", "/page2.html", "a href")),
    "broken-image": ('<img src="pixel.svg" srcset="pixel.svg 1x, img/none.png 2x" alt="">',
                     ("broken", "/apps/img/none.png", "img srcset")),
    "missing-anchor": ('<a href="page2.html#nowhere">anchor</a>', ("anchor", "/apps/page2.html#nowhere", "a href")),
    "stylesheet-not-css": ('<link rel="stylesheet" href="page2.html">', ("type", "/apps/page2.html", "link[rel=stylesheet] href")),
}


@pytest.mark.parametrize("case", list(PLANTED))
def test_crawler_finds_exactly_the_planted_fault(case, tmp_path):
    """A two-page folder (plus a stylesheet and an image) served by the same nginx set-up; each
    case plants one fault on the first page (or none) and the crawler must report exactly it."""
    extra, want = PLANTED[case]
    root = tmp_path / "mini"
    root.mkdir()
    (root / "index.html").write_text(MINI_INDEX.format(extra=extra), encoding="utf-8")
    (root / "page2.html").write_text(MINI_PAGE2, encoding="utf-8")
    (root / "style.css").write_text('body { background: url("pixel.svg") no-repeat; }\n', encoding="utf-8")
    (root / "pixel.svg").write_bytes(PIXEL_SVG)
    with serve_with_retry(lambda port: root, tmp_path / "nginx") as srv:
        c = Crawler(srv.port)
        c.seed(BASE_PATH, "start")
        c.run()
        problems = c.problems()
    got = [(p.kind, c.target(p.target), sorted({r.where for r in p.refs}), sorted({c.target(r.page) for r in p.refs}))
           for p in problems]
    pages = sorted(c.target(u) for u in c.pages)
    assert pages == ["/apps/", "/apps/page2.html"], f"pages crawled: {pages}"
    assert (c.external, c.other_schemes) == (1, 2), (c.external, c.other_schemes)
    assert "/apps/style.css" in {c.target(u) for u in c.assets()}, "the stylesheet was not fetched"
    assert f"{c.origin}/apps/pixel.svg?w=2,2" in c.responses, "srcset candidate with a comma not parsed"
    if want is None:
        assert not problems, f"false positives on a clean site:\n{format_problems(problems, c.origin)}"
    else:
        kind, target, where = want
        assert got == [(kind, target, [where], ["/apps/"])], \
            f"want exactly {want}, got:\n{format_problems(problems, c.origin)}"


# --------------------------------------------------------------------------- 6. the feed and sitemap checkers

CHECK_BASE = "http://127.0.0.1:8/apps/"
GOOD_FEED = """<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="ko">
  <id>http://127.0.0.1:8/apps/</id>
  <title>sitegen 예제</title>
  <updated>2026-11-21T00:00:00Z</updated>
  <author><name>sitegen</name></author>
  <link rel="self" type="application/atom+xml" href="http://127.0.0.1:8/apps/feed.xml"/>
  <link rel="alternate" type="text/html" href="http://127.0.0.1:8/apps/"/>
  <entry xml:base="http://127.0.0.1:8/apps/notes/about/">
    <id>http://127.0.0.1:8/apps/notes/about/</id>
    <title>About this site</title>
    <updated>2026-11-21T08:30:00+09:00</updated>
    <published>2026-11-20T00:00:00Z</published>
    <link rel="alternate" type="text/html" href="./"/>
    <content type="html">&lt;p&gt;&lt;a href="/apps/bounties/"&gt;Bounty list&lt;/a&gt; &lt;a href="../"&gt;notes&lt;/a&gt;&lt;/p&gt;</content>
  </entry>
  <entry>
    <id>tag:127.0.0.1,2026:notes/luffy</id>
    <title type="html">선장의 &lt;b&gt;현상금&lt;/b&gt;</title>
    <updated>2026-11-20T00:00:00.5Z</updated>
    <link href="http://127.0.0.1:8/apps/bounties/luffy/"/>
    <summary type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><a href="http://127.0.0.1:8/apps/bounties/">list</a></div></summary>
  </entry>
</feed>
"""
# fault → (replacement of the valid feed's text, a phrase of the problem it must give[, how many: 1])
ATOM_FAULTS = {
    "valid": (None, None),
    "not-atom": (("<feed xmlns=\"http://www.w3.org/2005/Atom\"", "<feed xmlns=\"http://example.org/\""), "root element"),
    "no-self-link": (("<link rel=\"self\"", "<link rel=\"related\""), "want exactly one"),
    "self-elsewhere": (("/apps/feed.xml\"", "/apps/other.xml\""), "but the feed is served at"),
    "date-not-rfc3339": (("<updated>2026-11-21T08:30:00+09:00", "<updated>2026-11-21"), "not an RFC 3339"),
    "lower-case-t": (("<updated>2026-11-21T08:30:00+09:00", "<updated>2026-11-21t08:30:00+09:00"), "not an RFC 3339"),
    "relative-id": (("<id>http://127.0.0.1:8/apps/notes/about/</id>", "<id>notes/about/</id>"), "not an absolute IRI"),
    "duplicate-id": (("<id>tag:127.0.0.1,2026:notes/luffy</id>", "<id>http://127.0.0.1:8/apps/notes/about/</id>"), "also used by"),
    "no-alternate": (("<link href=\"http://127.0.0.1:8/apps/bounties/luffy/\"/>", ""), "no <link rel=\"alternate\">"),
    "no-author": (("<author><name>sitegen</name></author>", ""), "no <author>", 2),            # one per entry
    "two-titles": (("<title>About this site</title>", "<title>About</title><title>this site</title>"), "exactly one"),
    "entry-newer-than-feed": (("<updated>2026-11-20T00:00:00.5Z", "<updated>2027-01-01T00:00:00Z"), "later than the feed"),
    "alternate-outside-base": (("href=\"http://127.0.0.1:8/apps/bounties/luffy/\"", "href=\"http://127.0.0.1:8/bounties/luffy/\""), "outside the base URL"),
    "xml-base-outside": (("xml:base=\"http://127.0.0.1:8/apps/notes/about/\"", "xml:base=\"http://127.0.0.1:8/notes/about/\""),
                         "outside the base URL", 3),    # the xml:base, and the two relative links under it
    "content-link-escapes": (("href=\"/apps/bounties/\"", "href=\"/bounties/\""), "ignores the base path"),
    "markup-not-escaped": (("<content type=\"html\">&lt;p&gt;", "<content type=\"html\"><p/>&lt;p&gt;"), "must be escaped"),
    "malformed": (("</feed>", ""), "not well-formed"),
}


@pytest.mark.parametrize("fault", list(ATOM_FAULTS))
def test_atom_checker_accepts_a_valid_feed_and_finds_each_planted_fault(fault):
    """AtomCheck (RFC 4287 rules) on a hand-written valid feed (relative links under xml:base, a
    tag: id, html and xhtml text) → no problem; each planted fault → exactly one problem."""
    change, phrase, *n = ATOM_FAULTS[fault]
    text = GOOD_FEED
    if change:
        assert change[0] in text, change
        text = text.replace(change[0], change[1], 1)
    check = AtomCheck(CHECK_BASE + "feed.xml", CHECK_BASE)
    check.run(text.encode("utf-8"))
    if phrase is None:
        assert not check.problems, check.problems
        assert check.entries == 2
        assert (("feed <link rel='self'> href='http://127.0.0.1:8/apps/feed.xml'", CHECK_BASE + "feed.xml")
                in check.fetch), check.fetch
        assert CHECK_BASE + "notes/about/" in [u for _, u in check.fetch], check.fetch
        assert {u for _, u in check.content_refs} == {CHECK_BASE + "bounties/", CHECK_BASE + "notes/"}, check.content_refs
    else:
        assert len(check.problems) == (n[0] if n else 1), check.problems
        assert all(phrase in p for p in check.problems), check.problems


GOOD_SITEMAP = """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url><loc>http://127.0.0.1:8/apps/</loc><lastmod>2026-11-21</lastmod><changefreq>weekly</changefreq><priority>1.0</priority></url>
  <url><loc>http://127.0.0.1:8/apps/notes/about/</loc><lastmod>2026-11-21T09:30:00+09:00</lastmod></url>
  <url><loc>http://127.0.0.1:8/apps/trends/caf%C3%A9-lumi%C3%A8re/</loc><image:image><image:loc>http://127.0.0.1:8/apps/x.jpg</image:loc></image:image></url>
  <url><loc>http://127.0.0.1:8/apps/a?b=1&amp;c=2</loc><lastmod>2026</lastmod></url>
</urlset>
"""
SITEMAP_FAULTS = {
    "valid": (None, None),
    "wrong-namespace": (("http://www.sitemaps.org/schemas/sitemap/0.9", "http://www.sitemaps.org/schemas/sitemap/0.8"), "root element"),
    "relative-loc": (("<loc>http://127.0.0.1:8/apps/notes/about/</loc>", "<loc>/apps/notes/about/</loc>"), "not an absolute"),
    "outside-base": (("<loc>http://127.0.0.1:8/apps/notes/about/</loc>", "<loc>http://127.0.0.1:8/notes/about/</loc>"), "not under the base URL"),
    "bad-lastmod": (("<lastmod>2026-11-21</lastmod>", "<lastmod>21.11.2026</lastmod>"), "not a W3C Datetime"),
    "bad-lastmod-date": (("<lastmod>2026-11-21</lastmod>", "<lastmod>2026-02-30</lastmod>"), "not a W3C Datetime"),
    "duplicate": (("<loc>http://127.0.0.1:8/apps/notes/about/</loc>", "<loc>http://127.0.0.1:8/apps/</loc>"), "more than once"),
    "unknown-element": (("<priority>1.0</priority>", "<weight>1.0</weight>"), "unexpected <weight>"),
    "bad-priority": (("<priority>1.0</priority>", "<priority>1.5</priority>"), "from 0.0 to 1.0"),
    "bad-changefreq": (("<changefreq>weekly</changefreq>", "<changefreq>sometimes</changefreq>"), "not one of"),
    "no-loc": (("<url><loc>http://127.0.0.1:8/apps/</loc>", "<url>"), "no <loc>"),
    "unescaped-space": (("/apps/notes/about/</loc>", "/apps/notes/a bout/</loc>"), "percent-encoded"),
    "malformed": (("&amp;c=2", "&c=2"), "not well-formed"),
}


@pytest.mark.parametrize("fault", list(SITEMAP_FAULTS))
def test_sitemap_checker_accepts_a_valid_sitemap_and_finds_each_planted_fault(fault):
    change, phrase = SITEMAP_FAULTS[fault]
    text = GOOD_SITEMAP
    if change:
        assert change[0] in text, change
        text = text.replace(change[0], change[1], 1)
    problems, locs = sitemap_problems(text.encode("utf-8"), "sitemap.xml", CHECK_BASE)
    if phrase is None:
        assert not problems, problems
        assert len(locs) == 4 and locs[3] == CHECK_BASE + "a?b=1&c=2", locs
    else:
        assert len(problems) == 1 and phrase in problems[0], problems
