"""Collections read live from HTTP APIs (`data:` URLs, `fetch:`), against a loopback server with
KOBIS-, TMDB- and Unsplash-shaped answers (api_server.py): the list and per-item joins (each
distinct URL fetched once), "yesterday" in a time zone where the date differs from UTC, maxAge
(request counts), --offline, onError: stale, HTTPS with a CA made here, `serve`'s background
fetch, and each failure with its exact message and the previous output untouched.

Every URL is on 127.0.0.1 (the redirect test runs in a network namespace of its own, where
nothing but its loopback exists). Every run's stdout and stderr, and every file and file name of
the site's folder (output and cache), are checked for the secrets.
"""

from __future__ import annotations

import html
import json
import os
import re
import secrets
import shutil
import socket
import ssl
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

import pytest

from api_server import ApiServer
from conftest import E2E_DIR, _sitegen_binary

SECRETS = {"KOBIS_KEY": "kobis-" + secrets.token_hex(12), "TMDB_KEY": "tmdb-" + secrets.token_hex(12),
           "UNSPLASH_KEY": "unsplash-" + secrets.token_hex(12)}
# 2025-01-04 20:00 UTC: already 2025-01-05 in Seoul, so Seoul's yesterday is 20250104, UTC's 20250103.
EPOCH = "1736020800"
LIST = "/kobis/boxoffice/searchDailyBoxOfficeList.json"
MOVIE = "/kobis/movie/searchMovieInfo.json"
WAIT = 60


def assert_no_secret(text: str, where: str) -> None:
    for name, value in SECRETS.items():
        assert value not in text, f"the value of {name} appears in {where}"


def assert_folder_has_no_secret(root: Path) -> None:
    """Names and contents of every file under `root` (the site: output, cache, sources)."""
    for path in root.rglob("*"):
        assert_no_secret(str(path.relative_to(root)), f"the name {path}")
        if path.is_file():
            assert_no_secret(path.read_bytes().decode("utf-8", "replace"), f"the file {path}")


def environment(**extra: str | None) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("SSL_CERT_FILE", "SOURCE_DATE_EPOCH") and "proxy" not in k.lower()}
    env.update(SECRETS, SOURCE_DATE_EPOCH=EPOCH, NO_COLOR="1")
    for k, v in extra.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    return env


def run(site: Path, *args: str, env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(_sitegen_binary()), "build", "--source", str(site), *args], capture_output=True, text=True,
                          env=env or environment(), timeout=timeout)
    assert_no_secret(proc.stdout + proc.stderr, f"the output of sitegen build {' '.join(args)}")
    return proc


BOXOFFICE = """\
  boxoffice:
    data: "{api}/kobis/boxoffice/searchDailyBoxOfficeList.json?key={{env.KOBIS_KEY}}&targetDt={{yesterday:YYYYMMDD}}"
    items: boxOfficeResult.dailyBoxOfficeList
    fields: {{ rank: string, movieCd: string, movieNm: string }}
    slug: movieCd
    sort: [{{ field: rank, compare: number }}]
    meta: {{ showRange: boxOfficeResult.showRange }}
    join:
      info: {{ data: "{api}/kobis/movie/searchMovieInfo.json?key={{env.KOBIS_KEY}}&movieCd={{movieCd}}",
               items: movieInfoResult.movieInfo, key: movieCd }}
    derived:
      titleEn: {{ from: info.movieNmEn }}
      genres: {{ from: info.genres, format: join, field: genreNm }}
    card: {{ title: movieNm, subtitle: titleEn }}
"""

OTHERS = """\
  shows:
    data: "{api}/tmdb/3/trending/tv/week?api_key={{env.TMDB_KEY}}"
    items: results
    fields: {{ id: integer, name: string, genre_id: integer }}
    slug: {{ from: name }}
    join:
      genre: {{ data: "{api}/tmdb/3/genre/{{genre_id}}?api_key={{env.TMDB_KEY}}", key: id, on: genre_id }}
    derived:
      genreName: {{ from: genre.name }}
    card: {{ title: name, subtitle: genreName }}
  photos:
    data: {{ url: "{api}/unsplash/photos?per_page=30", headers: {{ Authorization: "Client-ID {{env.UNSPLASH_KEY}}" }} }}
    fields: {{ id: string, alt_description: string }}
    slug: id
    derived:
      author: {{ from: user.name }}
    card: {{ title: alt_description, subtitle: author }}
"""


def make_site(root: Path, api: str, fetch: str = "timeZone: Asia/Seoul", others: bool = False) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "content").mkdir(exist_ok=True)
    text = f"title: Live\nbaseURL: https://example.org/\nfetch: {{ {fetch} }}\ncollections:\n" + BOXOFFICE.format(api=api)
    if others:
        text += OTHERS.format(api=api)
    (root / "site.yml").write_text(text)
    return root


def tree_state(root: Path) -> dict:
    """Every path under `root` with its type, mode, inode, modification time and bytes."""
    state = {}
    for p in sorted(root.rglob("*")):
        st = p.lstat()
        state[str(p.relative_to(root))] = (st.st_mode, st.st_ino, st.st_mtime_ns, p.read_bytes() if p.is_file() else None)
    return state


@pytest.fixture
def api():
    server = ApiServer(SECRETS).start()
    yield server
    server.stop()


@pytest.fixture
def site(tmp_path, api):
    path = make_site(tmp_path / "site", api.url)
    yield path
    assert_folder_has_no_secret(tmp_path)


def pages(site: Path) -> str:
    return "\n".join(p.read_text() for p in sorted((site / "public").rglob("*.html")))


# --------------------------------------------------------------------------- live builds


def test_live_build_lists_joins_and_headers(tmp_path, api):
    site = make_site(tmp_path / "site", api.url, others=True)
    proc = run(site)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    # 1 list + 3 movies + 1 show list + 2 distinct genres + 1 photo list.
    assert "sitegen: data: 8 fetched, 0 from the cache" in proc.stdout
    assert api.hits(LIST) == 1 and api.hits(MOVIE) == 3, api.counts
    assert api.hits("/tmdb/3/genre/18") == 1 and api.hits("/tmdb/3/genre/10765") == 1, api.counts  # two shows share 18
    assert api.hits("/unsplash/photos") == 1
    assert [q["movieCd"] for q in api.queries if "movieCd" in q] and sorted(q["movieCd"] for q in api.queries if "movieCd" in q) == \
        ["20199882", "20210028", "20218764"]
    html = pages(site)
    for text in ("경관의 피", "Spider-Man: No Way Home", "Sing 2", "Squid Game", "Sci-Fi &amp; Fantasy", "Drama",
                 "a river between mountains", "A. Miro"):
        assert text in html, text
    assert (site / "public/boxoffice/20210028/index.html").is_file()
    assert_folder_has_no_secret(tmp_path)


@pytest.mark.parametrize("zone, day", [("Asia/Seoul", "20250104"), ("UTC", "20250103"), ("America/Los_Angeles", "20250103")])
def test_yesterday_is_a_day_of_the_time_zone(tmp_path, api, zone, day):
    site = make_site(tmp_path / "site", api.url, fetch=f"timeZone: {zone}")
    proc = run(site)
    assert proc.returncode == 0, proc.stderr
    assert [q["targetDt"] for q in api.queries if "targetDt" in q] == [day]


def test_max_age_uses_the_cache_then_asks_again(tmp_path, api):
    site = make_site(tmp_path / "site", api.url, fetch="timeZone: Asia/Seoul, maxAge: 3600")
    assert run(site).returncode == 0
    assert api.total() == 4
    again = run(site)
    assert again.returncode == 0, again.stderr
    assert "sitegen: data: 0 fetched, 4 from the cache" in again.stdout
    assert api.total() == 4
    make_site(site, api.url, fetch="timeZone: Asia/Seoul, maxAge: 0")
    assert run(site).returncode == 0
    assert api.total() == 8 and api.hits(LIST) == 2
    cache = site / ".sitegen-cache/data"
    assert len(list(cache.glob("*.json"))) == 4 and len(list(cache.glob("*.body"))) == 4
    assert_folder_has_no_secret(tmp_path)


def test_an_incremental_build_of_fetched_data_asks_again(tmp_path, api):
    """An incremental build whose sources are as the last one read them still runs when its
    data comes from an API (the answers may have changed): with maxAge 0 it asks again."""
    site = make_site(tmp_path / "site", api.url, fetch="timeZone: Asia/Seoul, maxAge: 0")
    assert run(site, "--incremental").returncode == 0
    assert api.total() == 4
    again = run(site, "--incremental")
    assert again.returncode == 0, again.stderr
    assert "nothing changed" not in again.stdout
    assert "sitegen: data: 4 fetched, 0 from the cache" in again.stdout
    assert api.total() == 8
    assert_folder_has_no_secret(tmp_path)


def test_offline_uses_the_cache_and_never_the_network(tmp_path, api):
    site = make_site(tmp_path / "site", api.url, fetch="timeZone: Asia/Seoul, maxAge: 0")
    assert run(site).returncode == 0
    before = api.total()
    proc = run(site, "--offline", env=environment(KOBIS_KEY="another-key-entirely"))
    assert proc.returncode == 0, proc.stderr
    assert "sitegen: data: 0 fetched, 4 from the cache" in proc.stdout
    assert api.total() == before
    # Another day is not in the cache.
    state = tree_state(site / "public")
    proc = run(site, "--offline", env=environment(SOURCE_DATE_EPOCH=str(int(EPOCH) + 86400)))
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        f"{api.url}{LIST}?key=***&targetDt=20250105: error: collection 'boxoffice': not in the data cache, and --offline forbids "
        "fetching it (build once without --offline)",
        f"sitegen: build failed with 1 error; {site}/public was left unchanged"]
    assert tree_state(site / "public") == state
    assert api.total() == before


# --------------------------------------------------------------------------- failures


def closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


FAILURES = {
    # name: (fetch settings, the server's failure, the first line of stderr after the URL)
    "timeout": ("timeout: 0.5, retries: 0", {LIST: {"sleep": 3}}, "no answer within 0.5 s (fetch.timeout)"),
    "not-found": ("retries: 2", {LIST: {"status": 404, "body": "<html>\n<h1>Not Found</h1>\n</html>"}},
                  "the server answered 404 Not Found: <html> <h1>Not Found</h1> </html>"),
    "server-error": ("retries: 2", {LIST: {"status": 503, "body": "busy", "retry_after": 0}},
                     "the server answered 503 Service Unavailable: busy (3 attempts)"),
    "too-big": ("maxBytes: 300", {LIST: {"big": 5000}}, "the answer is larger than fetch.maxBytes (300 bytes)"),
    "redirect-scheme": ("", {LIST: {"redirect": "ftp://127.0.0.1/daily.json"}},
                        "redirected to 'ftp://127.0.0.1/daily.json', which is not an http(s) URL: refused"),
    "echoed-key": ("", {LIST: {"echo_secret": True}}, "the server answered 403 Forbidden: {\"message\": \"key *** is not allowed\"}"),
    "trickle": ("timeout: 1, retries: 0", {LIST: {"trickle": 0.3}}, "no answer within 1 s (fetch.timeout)"),
    "retry-after-too-long": ("retries: 2", {LIST: {"status": 503, "body": "busy", "retry_after": 120}},
                             "the server answered 503 Service Unavailable: busy; it asks to retry after 120 s, longer than "
                             "sitegen waits (60 s)"),
    "answer-holds-key": ("", {LIST: {"answer_secret": True}},
                         "the answer contains the value of a secret ({env.…} or a header): refused, so that it is neither cached "
                         "nor published"),
}


@pytest.mark.parametrize("name", sorted(FAILURES))
def test_failure_keeps_the_previous_site(tmp_path, api, name):
    settings, mode, message = FAILURES[name]
    site = make_site(tmp_path / "site", api.url)
    assert run(site).returncode == 0
    state = tree_state(site / "public")
    make_site(site, api.url, fetch="timeZone: Asia/Seoul, maxAge: 0" + (", " + settings if settings else ""))
    api.mode = mode
    before = api.hits(LIST)
    proc = run(site)
    assert proc.returncode == 1, proc.stdout
    assert proc.stdout == ""
    assert proc.stderr.splitlines() == [
        f"{api.url}{LIST}?key=***&targetDt=20250104: error: collection 'boxoffice': {message}",
        f"sitegen: build failed with 1 error; {site}/public was left unchanged"]
    assert tree_state(site / "public") == state
    if name == "server-error":
        assert api.hits(LIST) - before == 3
    assert_folder_has_no_secret(tmp_path)


def test_redirect_loop(site, api):
    api.mode = {LIST: {"redirect": LIST + "?again"}}
    proc = run(site)
    assert proc.returncode == 1
    assert proc.stderr.splitlines()[0] == (
        f"{api.url}{LIST}?key=***&targetDt=20250104: error: collection 'boxoffice': more than 5 redirects")
    assert api.hits(LIST) == 6


def test_headers_do_not_follow_a_redirect_to_another_host(tmp_path, api):
    site = make_site(tmp_path / "site", api.url, others=True)
    port = api.url.rsplit(":", 1)[1]
    # Same host: the Authorization header goes along and the photos load.
    api.mode = {"/unsplash/photos": {"redirect": "/unsplash/photos?page=1", "times": 1}}
    assert run(site).returncode == 0
    # Another host name (the same server): the header stays behind, so the API refuses.
    shutil.rmtree(site / ".sitegen-cache")
    api.mode = {"/unsplash/photos": {"redirect": f"http://localhost:{port}/unsplash/photos?page=1", "times": 3}}
    proc = run(site)
    assert proc.returncode == 1
    assert proc.stderr.splitlines()[0] == (
        f"{api.url}/unsplash/photos?per_page=30: error: collection 'photos': the server answered 401 Unauthorized: "
        '{"errors": ["OAuth error: The access token is invalid"]}')
    assert "Authorization" not in api.headers[-1]


@pytest.mark.parametrize("concurrency", [1, 3])
def test_concurrency_bounds_the_requests_in_flight(tmp_path, api, concurrency):
    site = make_site(tmp_path / "site", api.url, fetch=f"timeZone: Asia/Seoul, concurrency: {concurrency}, timeout: 30",
                     others=True)
    # Each answer waits until `concurrency` requests are in flight (10 s at most: a last batch may
    # be smaller; the client's timeout is longer, so no request is abandoned and sent again), then
    # a second more, so that a request over the bound would overlap them.
    api.mode = {"*": {"gather": concurrency, "sleep": 1.0}}
    proc = run(site, "--threads", "3")
    assert proc.returncode == 0, proc.stderr
    # Three collections load at once; their lists, then joins (three movies), go `concurrency` at a time.
    assert api.most_in_flight == concurrency


def test_retry_after_is_honoured_and_a_retry_can_succeed(tmp_path, api):
    site = make_site(tmp_path / "site", api.url, fetch="retries: 1, timeZone: Asia/Seoul")
    api.mode = {LIST: {"status": 429, "body": "slow down", "retry_after": 1, "times": 1}}
    proc = run(site)
    assert proc.returncode == 0, proc.stderr
    times = [t for path, t in api.times if path == LIST]
    assert len(times) == 2 and times[1] - times[0] >= 1.0, times


def timed_run(site: Path, *args: str, env: dict | None = None) -> tuple[subprocess.CompletedProcess, float]:
    started = time.monotonic()
    proc = run(site, *args, env=env)
    return proc, time.monotonic() - started


def test_refused_connection(tmp_path):
    """A stopped API (a port bound and closed): the build fails at once, without waiting for
    fetch.timeout or trying again, and says how to build without it. Before issue 47, each of the
    three attempts waited the whole timeout (16.5 s here)."""
    url = f"http://127.0.0.1:{closed_port()}"
    site = make_site(tmp_path / "site", url, fetch="timeout: 5, retries: 2, timeZone: Asia/Seoul")
    (site / "public/.sitegen-output").mkdir(parents=True)  # a previous output of sitegen's
    (site / "public/index.html").write_text("old")
    state = tree_state(site / "public")
    proc, seconds = timed_run(site)
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        f"{url}{LIST}?key=***&targetDt=20250104: error: collection 'boxoffice': cannot connect: connection refused; to "
        "build without it, set fetch.onError: stale (the last good answer) or pass --offline (the cached answers)",
        f"sitegen: build failed with 1 error; {site}/public was left unchanged"]
    assert seconds < 5, seconds  # generous: 0.6-0.9 s measured on a loaded machine (16.5 s before)
    assert tree_state(site / "public") == state
    # With onError: stale already set, the way out is a cached answer, which there is not.
    make_site(site, url, fetch="timeout: 5, retries: 2, timeZone: Asia/Seoul, onError: stale")
    proc = run(site)
    assert proc.returncode == 1
    assert proc.stderr.splitlines()[0] == (
        f"{url}{LIST}?key=***&targetDt=20250104: error: collection 'boxoffice': cannot connect: connection refused "
        "(onError: stale, but no answer of it is cached)")
    assert_folder_has_no_secret(tmp_path)


UNKNOWN_HOST_SCRIPT = r"""
import json, subprocess, sys, time
started = time.monotonic()
r = subprocess.run([sys.argv[1], "build", "--source", sys.argv[2]], capture_output=True, text=True)
print(json.dumps([r.returncode, r.stdout, r.stderr, time.monotonic() - started]))
"""


def test_unknown_host(tmp_path):
    """A name under .invalid (RFC 6761: never resolves), in a network namespace of its own (only
    its loopback: no resolver answers, whatever the machine's DNS), fails at once."""
    if shutil.which("unshare") is None:
        pytest.fail("unshare (util-linux) is needed: scripts/setup.sh test installs it", pytrace=False)
    url = "http://api.sitegen-test.invalid:8080"
    site = make_site(tmp_path / "site", url, fetch="timeout: 5, retries: 2, timeZone: Asia/Seoul")
    script = tmp_path / "unknown.py"
    script.write_text(UNKNOWN_HOST_SCRIPT)
    proc = subprocess.run(["unshare", "-rn", sys.executable, str(script), str(_sitegen_binary()), str(site)],
                          capture_output=True, text=True, env=environment(), timeout=120)
    assert proc.returncode == 0, proc.stderr
    code, out, err, seconds = json.loads(proc.stdout)
    assert_no_secret(out + err, "the build's output")
    assert code == 1
    first = err.splitlines()[0]
    assert re.fullmatch(re.escape(f"{url}{LIST}?key=***&targetDt=20250104: error: collection 'boxoffice': cannot connect: "
                                  "cannot resolve the host 'api.sitegen-test.invalid' (") + r"[a-z ]+" + re.escape(
        "); to build without it, set fetch.onError: stale (the last good answer) or pass --offline (the cached answers)"),
        first), first
    assert seconds < 5, seconds


def test_invalid_json_is_located_in_the_answer(site, api):
    api.mode = {LIST: {"body": '{"boxOfficeResult": {\n  "dailyBoxOfficeList": [1,, 2]\n}}'}}
    proc = run(site)
    assert proc.returncode == 1
    first = proc.stderr.splitlines()[0]
    assert first.startswith(f"{api.url}{LIST}?key=***&targetDt=20250104:2:28: error: "), first


def test_a_missing_variable_is_named(site, api):
    proc = run(site, env=environment(KOBIS_KEY=None))
    assert proc.returncode == 1
    assert proc.stderr.splitlines()[0] == ("site.yml:6:11: error: collection 'boxoffice': {env.KOBIS_KEY} is not set: export the "
                                           "environment variable KOBIS_KEY before building")
    assert api.total() == 0


def test_a_wrong_key_shows_the_apis_answer(site, api):
    proc = run(site, env=environment(KOBIS_KEY="wrong-key-0000"))
    assert proc.returncode == 1
    assert proc.stderr.splitlines()[0] == (
        f"{api.url}{LIST}?key=***&targetDt=20250104: error: collection 'boxoffice': the server answered 401 Unauthorized: "
        '{"faultInfo": {"message": "유효하지 않은 키값입니다."}}')


# --------------------------------------------------------------------------- onError: stale


def test_stale_answers_keep_the_build_going(tmp_path, api):
    site = make_site(tmp_path / "site", api.url, fetch="timeZone: Asia/Seoul, maxAge: 0, onError: stale, retries: 0")
    assert run(site).returncode == 0
    api.mode = {LIST: {"status": 500, "body": "down"}}
    # The next day: today's URL was never fetched, yesterday's answer is the last good one.
    proc = run(site, env=environment(SOURCE_DATE_EPOCH=str(int(EPOCH) + 86400)))
    assert proc.returncode == 0, proc.stderr
    warning = proc.stderr.splitlines()
    assert len(warning) == 1 and re.fullmatch(
        re.escape(f"{api.url}{LIST}?key=***&targetDt=20250104: warning: using this answer cached ") + r"\d+ s" + re.escape(
            f" ago, since fetching {api.url}{LIST}?key=***&targetDt=20250105 failed: the server answered 500 Internal Server "
            "Error: down"), warning[0]), warning
    assert "경관의 피" in pages(site)
    # Without a cached answer, stale is no help.
    shutil.rmtree(site / ".sitegen-cache")
    proc = run(site)
    assert proc.returncode == 1
    assert proc.stderr.splitlines()[0] == (
        f"{api.url}{LIST}?key=***&targetDt=20250104: error: collection 'boxoffice': the server answered 500 Internal Server "
        "Error: down (onError: stale, but no answer of it is cached)")
    assert_folder_has_no_secret(tmp_path)


# --------------------------------------------------------------------------- HTTPS


def make_ca(folder: Path) -> tuple[Path, Path, Path]:
    """A CA and a certificate it signs for 127.0.0.1, made with openssl here."""
    def openssl(*args):
        subprocess.run(["openssl", *args], check=True, capture_output=True, cwd=folder)
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=sitegen test CA",
            "-keyout", "ca.key", "-out", "ca.pem", "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", "server.key", "-out", "server.csr")
    (folder / "ext.cnf").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n")
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-days", "2",
            "-out", "server.pem", "-extfile", "ext.cnf")
    return folder / "ca.pem", folder / "server.pem", folder / "server.key"


def test_https_verifies_certificates(tmp_path):
    ca, cert, key = make_ca(tmp_path)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server = ApiServer(SECRETS, tls=context).start()
    try:
        site = make_site(tmp_path / "site", server.url, fetch="timeZone: Asia/Seoul, retries: 0")
        proc = run(site)
        assert proc.returncode == 1
        first = proc.stderr.splitlines()[0]
        assert first.startswith(f"{server.url}{LIST}?key=***&targetDt=20250104: error: collection 'boxoffice': TLS failed: "), first
        assert "CERTIFICATE_VERIFY_FAILED" in first and first.endswith("(is the server's certificate from a trusted authority? see SSL_CERT_FILE)")
        assert not (site / "public").exists()
        proc = run(site, env=environment(SSL_CERT_FILE=str(ca)))
        assert proc.returncode == 0, proc.stderr
        assert "Spider-Man: No Way Home" in pages(site)
    finally:
        server.stop()
    assert_folder_has_no_secret(tmp_path)


# --------------------------------------------------------------------------- redirects to private addresses


NETNS_SCRIPT = r"""
import json, os, subprocess, sys, time
subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
subprocess.run(["ip", "addr", "add", "198.51.100.7/32", "dev", "lo"], check=True)
subprocess.run(["ip", "addr", "add", "198.51.100.8/32", "dev", "lo"], check=True)
here = sys.argv[1]
api = subprocess.Popen([sys.executable, f"{here}/api_server.py", "127.0.0.1", "8081"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
api.stdin.write(sys.argv[4] + "\n"); api.stdin.flush()
public_api = subprocess.Popen([sys.executable, f"{here}/api_server.py", "198.51.100.8", "8081"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
public_api.stdin.write(sys.argv[4] + "\n"); public_api.stdin.flush()
to_private = subprocess.Popen([sys.executable, f"{here}/api_server.py", "198.51.100.7", "8080", "http://127.0.0.1:8081"], stdout=subprocess.PIPE, text=True)
to_public = subprocess.Popen([sys.executable, f"{here}/api_server.py", "198.51.100.7", "8082", "http://198.51.100.8:8081"], stdout=subprocess.PIPE, text=True)
for p in (api, public_api, to_private, to_public):
    assert p.stdout.readline().strip() == "ready"
results = []
for site in sys.argv[3].split(","):
    r = subprocess.run([sys.argv[2], "build", "--source", site], capture_output=True, text=True)
    results.append([r.returncode, r.stdout, r.stderr])
for p in (api, public_api, to_private, to_public):
    p.kill()
print(json.dumps(results))
"""


def test_a_redirect_from_a_public_address_to_a_private_one_is_refused(tmp_path):
    """In a network namespace of its own (nothing beyond its loopback), 198.51.100.7 plays an
    API on the internet redirecting to 127.0.0.1; another redirect, to a public address, works."""
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        pytest.fail("unshare (util-linux) and ip (iproute2) are needed: scripts/setup.sh test installs them", pytrace=False)
    private = make_site(tmp_path / "private", "http://198.51.100.7:8080", fetch="timeZone: Asia/Seoul, retries: 0")
    public = make_site(tmp_path / "public-site", "http://198.51.100.7:8082", fetch="timeZone: Asia/Seoul, retries: 0")
    import json
    script = tmp_path / "netns.py"
    script.write_text(NETNS_SCRIPT)
    proc = subprocess.run(["unshare", "-rn", sys.executable, str(script), str(E2E_DIR), str(_sitegen_binary()),
                           f"{private},{public}", json.dumps(SECRETS)], capture_output=True, text=True,
                          env=environment(), timeout=180)
    assert proc.returncode == 0, proc.stderr
    (code, out, err), (code2, out2, err2) = json.loads(proc.stdout)
    assert_no_secret(out + err + out2 + err2, "the builds' output")
    assert code == 1
    assert err.splitlines()[0] == (
        f"http://198.51.100.7:8080{LIST}?key=***&targetDt=20250104: error: collection 'boxoffice': redirected from a public "
        f"address to 'http://127.0.0.1:8081{LIST}?key=***&targetDt=20250104', a private one: refused")
    assert code2 == 0, err2
    assert "Spider-Man: No Way Home" in pages(public)
    assert_folder_has_no_secret(tmp_path)


# --------------------------------------------------------------------------- sitegen serve


def test_serve_fetches_at_start_and_in_the_background(tmp_path, api):
    from test_serve import Server

    site = make_site(tmp_path / "site", api.url, fetch="timeZone: Asia/Seoul, maxAge: 2, timeout: 30")
    srv = Server([str(_sitegen_binary()), "serve", "--source", str(site), "--port", "0", "--output", str(tmp_path / "out")],
                 cwd=tmp_path, env=environment())
    try:
        srv.wait_started(WAIT)
        assert srv.wait_line("stdout", r"sitegen: built \d+ pages", WAIT), srv.logs()
        assert api.hits(LIST) == 1 and api.hits(MOVIE) == 3
        fetched = time.monotonic()
        # The answers become older than maxAge (2 s); the API then takes 12 s to answer.
        while time.monotonic() < fetched + 2.2:
            time.sleep(0.1)
        api.mode = {LIST: {"sleep": 12}}
        edited = time.monotonic()
        (site / "content/news.md").write_text("---\ntitle: News\ndate: 2025-01-05\n---\nHello.\n")
        rebuilt = srv.wait_line("stdout", r"sitegen: rebuilt .*\(content/news\.md\)", WAIT)
        assert rebuilt, srv.logs()
        # The rebuild did not wait for the API (which takes 12 s), and asked it in the background.
        assert time.monotonic() - edited < 12, srv.logs()
        # The background fetch arrives; its answer is the same data, so no page changes and
        # nothing is rebuilt (what a page read kept its version).
        deadline = time.monotonic() + WAIT
        while api.hits(LIST) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert api.hits(LIST) == 2, srv.logs()
        assert (tmp_path / "out/boxoffice/20210028/index.html").is_file()
    finally:
        srv.stop()
    assert_no_secret("\n".join(srv.stdout + srv.stderr), "the output of sitegen serve")
    assert_folder_has_no_secret(tmp_path)


# --------------------------------------------------------------------------- secrets in every form (issue 47)


def printed_forms(secret: str) -> set[str]:
    """The ways a message, an answer or a file can print `secret`: as it is, quoted, escaped as
    Swift, JSON (Python's and others'), percent-encoded (both cases of hex, `+` for spaces), HTML."""
    swift = "".join({"\\": "\\\\", '"': '\\"', "\r": "\\r", "\n": "\\n", "\t": "\\t"}.get(c) or
                    (f"\\u{{{ord(c):X}}}" if ord(c) < 0x20 or ord(c) == 0x7F else c) for c in secret)
    quoted = urllib.parse.quote(secret, safe="")
    return {secret, swift, repr(secret)[1:-1], json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=False)[1:-1],
            json.dumps(secret).replace("/", "\\/")[1:-1], quoted, re.sub(r"%[0-9A-F]{2}", lambda m: m.group().lower(), quoted),
            urllib.parse.quote_plus(secret, safe=""), html.escape(secret)}


def assert_no_form(secret: str, core: str, text: str, where: str) -> None:
    """Neither `core` (the secret's letters, whatever surrounds them) nor any printed form of `secret`."""
    assert core not in text, f"the secret appears in {where}"
    for form in printed_forms(secret):
        assert form not in text, f"the secret appears as {form!r} in {where}"


def assert_tree_has_no_form(root: Path, secret: str, core: str) -> None:
    for path in root.rglob("*"):
        assert_no_form(secret, core, str(path.relative_to(root)), f"the name {path}")
        if path.is_file():
            assert_no_form(secret, core, path.read_bytes().decode("utf-8", "replace"), f"the file {path}")


PHOTOS_ONLY = """\
title: Live
baseURL: https://example.org/
collections:
  photos:
    data: {{ url: "{api}/unsplash/photos?per_page=30",
            headers: {{ Authorization: "Client-ID {{env.UNSPLASH_KEY}}" }} }}
    fields: {{ id: string, alt_description: string }}
    slug: id
    card: {{ title: alt_description }}
"""


@pytest.mark.parametrize("bad, words", [
    ("{key}\r", "ends with a carriage return (U+000D)"),    # a .env file with CRLF line endings
    ("{key}\n{key}", "holds a line feed (U+000A)"),
    ("\x7f{key}", "starts with a DEL (U+007F)"),
])
def test_a_control_character_in_a_header_is_refused_by_name(tmp_path, api, bad, words):
    core = "SEKRETkey" + secrets.token_hex(6)
    value = bad.format(key=core)
    site = tmp_path / "site"
    (site / "content").mkdir(parents=True)
    (site / "site.yml").write_text(PHOTOS_ONLY.format(api=api.url))
    (site / "public/.sitegen-output").mkdir(parents=True)
    (site / "public/index.html").write_text("old")
    state = tree_state(site / "public")
    proc = run(site, env=environment(UNSPLASH_KEY=value))
    assert proc.returncode == 1, proc.stdout
    assert proc.stderr.splitlines() == [
        f"site.yml:6:39: error: collection 'photos': header 'Authorization': {{env.UNSPLASH_KEY}} {words}, which no key or "
        "header holds (a .env file with CRLF line endings?): remove it (the value is not shown)",
        f"sitegen: build failed with 1 error; {site}/public was left unchanged"]
    assert api.total() == 0  # refused before any request
    assert tree_state(site / "public") == state
    assert_no_form(value, core, proc.stdout + proc.stderr, "the output of sitegen build")
    assert_tree_has_no_form(tmp_path, value, core)


def test_a_control_character_in_a_urls_variable_is_refused_by_name(site, api):
    proc = run(site, env=environment(KOBIS_KEY=SECRETS["KOBIS_KEY"] + "\r"))
    assert proc.returncode == 1
    assert proc.stderr.splitlines()[0] == (
        "site.yml:6:11: error: collection 'boxoffice': {env.KOBIS_KEY} ends with a carriage return (U+000D), which no key "
        "or header holds (a .env file with CRLF line endings?): remove it (the value is not shown)")
    assert api.total() == 0


def test_a_secret_echoed_in_any_form_is_blanked_out(tmp_path):
    """A key with characters each escaping writes its own way (`/`, a space, `+`, `&`, `"`, non-ASCII):
    an error answer quoting it in every form, and a 200 answer holding it escaped."""
    core = "SEKRETkey" + secrets.token_hex(6)
    key = f'sk/{core} +ü&"x'
    keys = dict(SECRETS, KOBIS_KEY=key)
    server = ApiServer(keys).start()
    try:
        site = make_site(tmp_path / "site", server.url, fetch="timeZone: Asia/Seoul, retries: 0")
        env = environment(KOBIS_KEY=key)
        assert run(site, env=env).returncode == 0  # the key reaches the server intact
        state = tree_state(site / "public")
        make_site(site, server.url, fetch="timeZone: Asia/Seoul, retries: 0, maxAge: 0")
        for form in sorted(printed_forms(key)):
            # Where the message cuts the body (200 characters), the key in any form is blanked
            # out whole first: cut first, its start would show.
            server.mode = {LIST: {"status": 403, "body": f"{'x' * 190} {form} is not allowed"}}
            proc = run(site, env=env)
            assert proc.returncode == 1
            assert proc.stderr.splitlines()[0] == (
                f"{server.url}{LIST}?key=***&targetDt=20250104: error: collection 'boxoffice': the server answered 403 "
                f"Forbidden: {'x' * 190} *** is no…"), form
            assert_no_form(key, core, proc.stdout + proc.stderr, "the output of sitegen build")
        # A 200 answer holding the key JSON-escaped (ensure_ascii) is refused, neither cached nor published.
        server.mode = {LIST: {"body": json.dumps({"boxOfficeResult": {"key": key, "dailyBoxOfficeList": []}})}}
        proc = run(site, env=env)
        assert proc.returncode == 1
        assert proc.stderr.splitlines()[0] == (
            f"{server.url}{LIST}?key=***&targetDt=20250104: error: collection 'boxoffice': the answer contains the value of "
            "a secret ({env.…} or a header): refused, so that it is neither cached nor published")
        assert_no_form(key, core, proc.stdout + proc.stderr, "the output of sitegen build")
        assert tree_state(site / "public") == state
    finally:
        server.stop()
    assert_tree_has_no_form(tmp_path, key, core)


# --------------------------------------------------------------------------- answers that do not read (issue 47)


MAINTENANCE = "<!DOCTYPE html>\n<html><body><h1>Down for maintenance</h1></body></html>\n"


def cached_bodies(site: Path) -> dict[str, bytes]:
    """The cached answers by URL as shown."""
    folder = site / ".sitegen-cache/data"
    return {json.loads(meta.read_text())["url"]: meta.with_suffix(".body").read_bytes() for meta in folder.glob("*.json")}


def test_an_answer_that_does_not_read_is_not_cached(tmp_path, api):
    site = make_site(tmp_path / "site", api.url, fetch="timeZone: Asia/Seoul, maxAge: 3600")
    assert run(site).returncode == 0
    state = tree_state(site / "public")
    next_day = environment(SOURCE_DATE_EPOCH=str(int(EPOCH) + 86400))
    url = f"{api.url}{LIST}?key=***&targetDt=20250105"
    # The API answers a maintenance page with 200: the build fails at the page's first line.
    api.mode = {LIST: {"body": MAINTENANCE}}
    proc = run(site, env=next_day)
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        f"{url}:1:1: error: collection 'boxoffice': expected a JSON value, found '<' (the answer was not cached)",
        f"sitegen: build failed with 1 error; {site}/public was left unchanged"]
    assert tree_state(site / "public") == state
    assert url not in cached_bodies(site)
    # --offline has nothing of that day to build with.
    proc = run(site, "--offline", env=next_day)
    assert proc.returncode == 1
    assert "not in the data cache, and --offline forbids fetching it" in proc.stderr.splitlines()[0]
    # The API is fixed: within maxAge, the next build asks it again and succeeds.
    api.mode = {}
    before = api.hits(LIST)
    proc = run(site, env=next_day)
    assert proc.returncode == 0, proc.stderr
    assert api.hits(LIST) == before + 1
    assert b"20250105" in cached_bodies(site)[url]
    assert_folder_has_no_secret(tmp_path)


def test_a_cached_answer_that_does_not_read_is_dropped(tmp_path, api):
    site = make_site(tmp_path / "site", api.url, fetch="timeZone: Asia/Seoul, maxAge: 3600")
    assert run(site).returncode == 0
    url = f"{api.url}{LIST}?key=***&targetDt=20250104"
    meta = next(m for m in (site / ".sitegen-cache/data").glob("*.json") if json.loads(m.read_text())["url"] == url)
    body = meta.with_suffix(".body")

    def corrupt():
        size = body.stat().st_size  # the same length: a whole entry, as the cache sees it
        body.write_bytes((b"<html>" + b"x" * size)[:size])

    corrupt()
    before = api.hits(LIST)
    proc = run(site)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines() == [
        f"{url}:1:1: warning: removed this answer from the data cache: it cannot be read as JSON (expected a JSON value, "
        "found '<')"]
    assert api.hits(LIST) == before + 1  # asked again, within maxAge
    assert b"20250104" in body.read_bytes()
    # Offline, the entry is dropped too, and the build says it has no answer.
    corrupt()
    state = tree_state(site / "public")
    proc = run(site, "--offline")
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        f"{url}:1:1: error: collection 'boxoffice': the cached answer was removed from the data cache, since it cannot "
        "be read as JSON (expected a JSON value, found '<'), and --offline forbids fetching it again (build once without "
        "--offline)",
        f"sitegen: build failed with 1 error; {site}/public was left unchanged"]
    assert not meta.exists() and not body.exists()
    assert tree_state(site / "public") == state
    assert api.hits(LIST) == before + 1
    assert_folder_has_no_secret(tmp_path)
