"""A loopback HTTP server with KOBIS-, TMDB- and Unsplash-shaped answers, for the tests of
collections read from HTTP APIs (test_fetch.py). It checks the keys it is sent, counts every
request by path, and can be told to fail in each way a real API does.

    server = ApiServer(secrets); server.start(); ... server.url; server.hits("/kobis/...")

Run as a script (`python3 api_server.py HOST PORT [REDIRECT_TO]`) it serves until killed, and with
REDIRECT_TO answers every request with a redirect there (test_fetch's network-namespace test).
"""

from __future__ import annotations

import http.server
import json
import ssl
import sys
import threading
import time
from collections import Counter
from urllib.parse import parse_qs, urlsplit

MOVIES = [
    # rank, movieCd, movieNm, movieNmEn, genre
    ("1", "20199882", "경관의 피", "The Policeman's Lineage", "범죄"),
    ("2", "20210028", "스파이더맨: 노 웨이 홈", "Spider-Man: No Way Home", "액션"),
    ("3", "20218764", "씽2게더", "Sing 2", "애니메이션"),
]

SHOWS = [
    {"id": 93405, "name": "Squid Game", "first_air_date": "2021-09-17", "genre_id": 18, "vote_average": 7.8},
    {"id": 92783, "name": "Maid", "first_air_date": "2021-10-01", "genre_id": 18, "vote_average": 8.1},
    {"id": 71912, "name": "The Witcher", "first_air_date": "2019-12-20", "genre_id": 10765, "vote_average": 8.0},
]
GENRES = {"18": "Drama", "10765": "Sci-Fi & Fantasy"}

PHOTOS = [
    {"id": "Dwu85P9SOIk", "created_at": "2016-05-03T11:00:28-04:00", "width": 2448, "height": 3264,
     "alt_description": "a river between mountains", "user": {"username": "jdoe", "name": "J. Doe"}},
    {"id": "k_T9Zj3SE8k", "created_at": "2017-01-12T09:41:02-05:00", "width": 4000, "height": 2667,
     "alt_description": "lights of a city at night", "user": {"username": "amiro", "name": "A. Miro"}},
]


def daily(target: str) -> dict:
    return {"boxOfficeResult": {
        "boxofficeType": "일별 박스오피스", "showRange": f"{target}~{target}",
        "dailyBoxOfficeList": [
            {"rnum": r, "rank": r, "rankInten": "0", "rankOldAndNew": "OLD", "movieCd": cd, "movieNm": nm,
             "openDt": "2022-01-05", "audiCnt": "64050", "audiAcc": "69228"} for r, cd, nm, _, _ in MOVIES]}}


def movie_info(code: str) -> dict | None:
    for _, cd, nm, en, genre in MOVIES:
        if cd == code:
            return {"movieInfoResult": {"movieInfo": {
                "movieCd": cd, "movieNm": nm, "movieNmEn": en, "showTm": "119", "prdtYear": "2021", "openDt": "20220105",
                "genres": [{"genreNm": genre}], "directors": [{"peopleNm": "감독"}], "actors": [], "audits": []},
                "source": "영화진흥위원회"}}
    return None


class QuietServer(http.server.ThreadingHTTPServer):
    """A client that gave up (a timeout, an answer over maxBytes) is what the tests make happen:
    not worth a traceback."""

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


class ApiServer:
    """The server; `mode` (set by tests) makes it fail: see `Handler.fail`."""

    def __init__(self, secrets: dict[str, str], host: str = "127.0.0.1", tls: ssl.SSLContext | None = None):
        self.secrets = secrets
        self.mode: dict = {}
        self.counts: Counter = Counter()
        self.times: list[tuple[str, float]] = []
        self.queries: list[dict] = []
        self.headers: list[dict] = []
        self.in_flight = 0
        self.most_in_flight = 0
        self.lock = threading.Lock()
        # Signalled whenever a request arrives (for the `gather` rule).
        self.arrived = threading.Condition(self.lock)
        handler = type("BoundHandler", (Handler,), {"api": self})
        self.httpd = QuietServer((host, 0), handler)
        self.httpd.daemon_threads = True
        if tls is not None:
            self.httpd.socket = tls.wrap_socket(self.httpd.socket, server_side=True)
        scheme = "https" if tls else "http"
        self.url = f"{scheme}://{host}:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def start(self) -> "ApiServer":
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)

    def hits(self, path: str) -> int:
        with self.lock:
            return self.counts[path]

    def total(self) -> int:
        with self.lock:
            return sum(self.counts.values())


class Handler(http.server.BaseHTTPRequestHandler):
    api: ApiServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # noqa: A002 - quiet
        pass

    def send(self, status: int, body: bytes | str | dict, *, ctype="application/json;charset=UTF-8", headers=None):
        if isinstance(body, (dict, list)):
            body = json.dumps(body, ensure_ascii=False)
        if isinstance(body, str):
            body = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):  # noqa: N802 - http.server's name
        parts = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        api = self.api
        with api.lock:
            api.counts[parts.path] += 1
            api.times.append((parts.path, time.monotonic()))
            api.queries.append(query)
            api.headers.append(dict(self.headers))
            api.in_flight += 1
            api.most_in_flight = max(api.most_in_flight, api.in_flight)
            api.arrived.notify_all()
            self.released = False
            mode = dict(api.mode)
        try:
            rule = mode.get(parts.path) or mode.get("*")
            if rule and self.fail(rule, api.hits(parts.path)):
                return
            self.answer(parts, query)
        finally:
            self.release()

    def release(self):
        """The request no longer counts as in flight: once its answer is about to be sent (the
        client may send its next request before this handler returns)."""
        with self.api.lock:
            if not self.released:
                self.api.in_flight -= 1
                self.released = True

    def answer(self, parts, query):
        api = self.api
        secrets = api.secrets
        if parts.path.startswith("/kobis/"):
            if query.get("key") != secrets["KOBIS_KEY"]:
                return self.send(401, {"faultInfo": {"message": "유효하지 않은 키값입니다."}})
            if parts.path.endswith("searchDailyBoxOfficeList.json"):
                return self.send(200, daily(query.get("targetDt", "")))
            info = movie_info(query.get("movieCd", ""))
            return self.send(200, info) if info else self.send(404, {"faultInfo": {"message": "no such movie"}})
        if parts.path.startswith("/tmdb/"):
            if query.get("api_key") != secrets["TMDB_KEY"]:
                return self.send(401, {"status_code": 7, "status_message": "Invalid API key"})
            if parts.path == "/tmdb/3/trending/tv/week":
                return self.send(200, {"page": 1, "results": SHOWS, "total_pages": 1})
            genre = parts.path.rsplit("/", 1)[-1]
            return self.send(200, {"id": int(genre), "name": GENRES[genre]}) if genre in GENRES else self.send(404, {})
        if parts.path == "/unsplash/photos":
            if self.headers.get("Authorization") != f"Client-ID {secrets['UNSPLASH_KEY']}":
                return self.send(401, {"errors": ["OAuth error: The access token is invalid"]})
            return self.send(200, PHOTOS)
        return self.send(404, "not found", ctype="text/plain")

    def fail(self, rule: dict, hit: int) -> bool:
        """Fails the request as `rule` says (for its first `times` requests, default all):
        status (+ body, retry_after), sleep (seconds before answering), body (raw 200 body),
        redirect (a Location), big (a 200 of that many bytes), echo_secret (an error echoing the key),
        gather (held until that many requests are in flight, or 10 s: overlap however loaded the machine)."""
        if hit > rule.get("times", 10**9):
            return False
        if "gather" in rule:
            with self.api.arrived:
                self.api.arrived.wait_for(lambda: self.api.in_flight >= rule["gather"], timeout=10)
        if "sleep" in rule:
            time.sleep(rule["sleep"])
        if "gather" in rule:
            self.release()
        if rule.keys() <= {"sleep", "times", "gather"}:
            return False
        if "redirect" in rule:
            self.send(302, "", ctype="text/plain", headers={"Location": rule["redirect"]})
        elif "status" in rule:
            headers = {"Retry-After": str(rule["retry_after"])} if "retry_after" in rule else None
            self.send(rule["status"], rule.get("body", ""), headers=headers)
        elif "body" in rule:
            self.send(200, rule["body"])
        elif "big" in rule:
            self.send(200, "[" + " " * (rule["big"] - 2) + "]")
        elif "echo_secret" in rule:
            self.send(403, {"message": f"key {self.api.secrets['KOBIS_KEY']} is not allowed"})
        elif "trickle" in rule:
            body = json.dumps(daily("20250104")).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            for i in range(0, len(body), 40):
                self.wfile.write(body[i:i + 40])
                self.wfile.flush()
                time.sleep(rule["trickle"])
        elif "answer_secret" in rule:
            self.send(200, {"boxOfficeResult": {"showRange": "", "key": self.api.secrets["KOBIS_KEY"], "dailyBoxOfficeList": []}})
        else:
            return False
        return True


class Redirector(http.server.BaseHTTPRequestHandler):
    target = ""

    def log_message(self, format, *args):  # noqa: A002
        pass

    def do_GET(self):  # noqa: N802
        self.send_response(302)
        self.send_header("Location", self.target + self.path)
        self.send_header("Content-Length", "0")
        self.end_headers()


if __name__ == "__main__":
    host, port = sys.argv[1], int(sys.argv[2])
    if len(sys.argv) > 3:
        Redirector.target = sys.argv[3]
        httpd = http.server.ThreadingHTTPServer((host, port), Redirector)
    else:
        srv = ApiServer(json.loads(sys.stdin.readline()), host=host)
        httpd = srv.httpd
        httpd.server_close()
        srv.httpd = httpd = http.server.ThreadingHTTPServer((host, port), type("H", (Handler,), {"api": srv}))
    print("ready", flush=True)
    httpd.serve_forever()
