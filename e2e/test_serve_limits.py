"""`sitegen serve` under hostile and broken clients (issue 20): real processes, real loopback
sockets, no mocks. Requests are written byte for byte on raw sockets, so the server sees exactly
the malformed or oversized heads an attacker would send.

* test_hostile_request: each request of HOSTILE (2 MB path, 5 MB header, 101 header lines, 16 KB
  of headers, binary garbage, a request line without version, a header without colon, NUL in the
  path, Content-Length: -5, a bad chunk size, HTTP/9.9, POST/PUT/DELETE, a GET with a 1 MB body) gets
  its status and Connection: close within seconds; an ordinary GET right after answers 200; the server's
  CPU goes idle again. The limits' edges (a request line of exactly 8 KB, exactly 100 header
  lines) are still served. Times are printed (`-rA` shows them).
* test_half_open_connections_and_the_connection_bound: 800 connections that never finish their
  head, then an ordinary GET answers; at 1,024 open connections the next one is refused at once
  (503, closed); once some close, GETs are answered again. The server is started with a soft limit
  of 512 open files, which it raises to fit the bound.
* test_slow_header_client_is_dropped: a client sending one header byte a second is dropped after
  the 10 s header timeout (the default, not shortened).
* test_idle_keep_alive_closes_but_event_streams_stay: with --idle-timeout 2, an idle kept-alive
  connection is closed, while an event stream opened before it is still open and still delivers.
* test_event_streams_are_bounded_and_freed: with --max-event-streams 3 the fourth stream gets 503;
  closing one frees its place.
* test_host_policy: foreign Host names (and the event stream under one) get 403 with the line
  naming --allowed-host; localhost, *.localhost, IPv4/IPv6 literals and --allowed-host names are
  served; no response carries CORS headers.
* test_wrk_then_live_reload: `wrk` for 10 s at 50 connections: no errors, no non-2xx; then an edit
  still reaches an open event stream as a `reload`.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from test_serve import (NOTE, NOTE_URL, STARTUP_TIMEOUT, Server, copy_site, edit_and_wait_reload, note_text, open_events, request, serve,
                        with_marker)

ANSWER_TIMEOUT = 10.0      # generous: the server answers in milliseconds
CPU_IDLE_TIMEOUT = 15.0
PAGE = "/bounties/"


@pytest.fixture(scope="module", autouse=True)
def _photos_resized_once(site_dir):
    """The example site built first (site_dir uses the repository's image cache, which copies of the
    site share): a serve started here does not resize every photo while a start-up wait is timed."""
    return site_dir


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return copy_site(tmp_path_factory.mktemp("limits") / "site")


@pytest.fixture(scope="module")
def srv(sitegen_bin, site, tmp_path_factory):
    with serve(sitegen_bin, site, output=tmp_path_factory.mktemp("limits-out") / "out") as s:
        assert request(s.port, "GET", PAGE).status == 200, s.logs()
        yield s


# --------------------------------------------------------------------------- raw HTTP


def exchange(port: int, data: bytes, timeout: float = ANSWER_TIMEOUT) -> tuple[int | None, bytes, float]:
    """Sends `data` (from a thread: the server may answer and close before reading it all) and
    reads until the server closes. Returns (status or None, the bytes received, seconds)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    t0 = time.monotonic()

    def send():
        try:
            s.sendall(data)
        except OSError:
            pass        # the server answered and closed before reading everything: allowed
    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    buf = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            buf += chunk
    except socket.timeout:
        pytest.fail(f"no answer and no close within {timeout:.0f} s for {data[:80]!r}… ({len(data)} bytes); "
                    f"got {buf[:200]!r}", pytrace=False)
    except ConnectionResetError:
        pass
    finally:
        elapsed = time.monotonic() - t0
        s.close()
        sender.join(timeout)
    m = re.match(rb"HTTP/1\.[01] (\d{3}) ", buf)
    return (int(m.group(1)) if m else None), buf, elapsed


def head_of(buf: bytes) -> dict[str, str]:
    lines = buf.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")[1:]
    return {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines if ":" in line)}


def cpu_ticks(pid: int) -> int:
    """utime + stime of the process, in clock ticks (/proc/PID/stat fields 14 and 15)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2:].split()
    return int(fields[11]) + int(fields[12])


def wait_cpu_idle(pid: int, logs, timeout: float = CPU_IDLE_TIMEOUT) -> float:
    """Waits until the server uses under 10 % of a core over a 0.5 s window; returns when it did."""
    hz = os.sysconf("SC_CLK_TCK")
    t0 = time.monotonic()
    while True:
        before, w0 = cpu_ticks(pid), time.monotonic()
        time.sleep(0.5)     # the measuring window, not a wait for an event
        used = (cpu_ticks(pid) - before) / hz / (time.monotonic() - w0)
        if used < 0.10:
            return time.monotonic() - t0
        if time.monotonic() - t0 > timeout:
            pytest.fail(f"the server still uses {used:.0%} of a core {timeout:.0f} s after the request\n{logs()}",
                        pytrace=False)


HOST = b"Host: 127.0.0.1\r\n"


def line_of(length: int) -> bytes:
    """A request line (CRLF excluded) of exactly `length` bytes."""
    return b"GET /" + b"a" * (length - len("GET / HTTP/1.1")) + b" HTTP/1.1\r\n"


def headers_of(total: int, extra: bytes = b"") -> bytes:
    """Header lines of exactly `total` bytes, line ends and the final empty line included."""
    fixed = HOST + extra + b"X-Pad: " + b"\r\n" + b"\r\n"
    return HOST + extra + b"X-Pad: " + b"a" * (total - len(fixed)) + b"\r\n\r\n"


def fields_of(n: int, extra: bytes = b"") -> bytes:
    """`n` header fields (Host and `extra` included), then the empty line."""
    return HOST + extra + b"".join(b"X-%d: 1\r\n" % i for i in range(n - 1 - extra.count(b"\r\n"))) + b"\r\n"


HOSTILE = {
    "path of 2 MB": (b"GET /" + b"a" * 2_000_000 + b" HTTP/1.1\r\n" + HOST + b"\r\n", 414),
    "request line of 8 KB + 1": (line_of(8193) + HOST + b"\r\n", 414),
    "header of 5 MB": (b"GET / HTTP/1.1\r\n" + HOST + b"X-Big: " + b"a" * 5_000_000 + b"\r\n\r\n", 431),
    "101 header fields": (b"GET / HTTP/1.1\r\n" + fields_of(101), 431),
    "16 KB + 1 of headers": (b"GET / HTTP/1.1\r\n" + headers_of(16385), 431),
    "binary garbage": (bytes(range(256)) * 8, 400),
    "request line without version": (b"GET /\r\n" + HOST + b"\r\n", 400),
    "header without colon": (b"GET / HTTP/1.1\r\n" + HOST + b"NoColonHere\r\n\r\n", 400),
    "NUL in the path": (b"GET /a\x00b HTTP/1.1\r\n" + HOST + b"\r\n", 400),
    "Content-Length: -5": (b"GET / HTTP/1.1\r\n" + HOST + b"Content-Length: -5\r\n\r\n", 400),
    "bad chunk size": (b"GET / HTTP/1.1\r\n" + HOST + b"Transfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n", 400),
    "HTTP/9.9": (b"GET / HTTP/9.9\r\n" + HOST + b"\r\n", 505),
    "POST": (b"POST / HTTP/1.1\r\n" + HOST + b"Content-Length: 3\r\n\r\nabc", 405),
    "PUT of 1 MB": (b"PUT /index.html HTTP/1.1\r\n" + HOST + b"Content-Length: 1000000\r\n\r\n" + b"x" * 1_000_000, 405),
    "DELETE": (b"DELETE /index.html HTTP/1.1\r\n" + HOST + b"\r\n", 405),
    "GET with a body of 1 MB": (b"GET / HTTP/1.1\r\n" + HOST + b"Content-Length: 1000000\r\n\r\n" + b"x" * 1_000_000, 413),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_request(srv, name):
    data, want = HOSTILE[name]
    status, buf, elapsed = exchange(srv.port, data)
    print(f"\n{name}: {status} in {elapsed * 1000:.1f} ms")
    assert status == want, f"{name}: want {want}, got {status}: {buf[:300]!r}\n{srv.logs()}"
    headers = head_of(buf)
    assert headers.get("connection", "").lower() == "close", f"{name}: the connection must close: {buf[:300]!r}"
    if want == 405:
        assert headers.get("allow") == "GET, HEAD", f"{name}: 405 without Allow: GET, HEAD: {buf[:300]!r}"
    r = request(srv.port, "GET", PAGE, timeout=ANSWER_TIMEOUT)
    assert r.status == 200, f"GET {PAGE} after {name}: {r!r}\n{srv.logs()}"
    wait_cpu_idle(srv.proc.pid, srv.logs)
    assert srv.alive(), srv.logs()


CLOSE = b"Connection: close\r\n"


@pytest.mark.parametrize("name, data", [
    ("request line of exactly 8 KB", line_of(8192) + HOST + CLOSE + b"\r\n"),
    ("exactly 100 header fields", b"GET / HTTP/1.1\r\n" + fields_of(100, CLOSE)),
    ("exactly 16 KB of headers", b"GET / HTTP/1.1\r\n" + headers_of(16384, CLOSE)),
], ids=lambda v: v if isinstance(v, str) else "")
def test_requests_at_the_limits_are_served(srv, name, data):
    status, buf, _ = exchange(srv.port, data)
    assert status in (200, 404), f"{name}: want it served (200 or 404), got {status}: {buf[:300]!r}\n{srv.logs()}"


def test_pipelined_keep_alive_requests(srv):
    """Two requests in one write on one connection: two whole answers in order, the connection kept."""
    s = socket.create_connection(("127.0.0.1", srv.port), timeout=ANSWER_TIMEOUT)
    with s:
        s.sendall((f"GET {PAGE} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nHEAD /_sitegen/live.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").encode())
        buf = b""
        while buf.count(b"HTTP/1.1 200 OK") < 2:
            chunk = s.recv(65536)
            assert chunk, f"closed after {buf.count(b'HTTP/1.1 200 OK')} answers: {buf[-300:]!r}"
            buf += chunk
        assert b"connection: close" not in buf.lower(), buf[:300]


def test_a_request_with_a_body_closes_its_connection(srv):
    """A GET with a body is answered, then the connection closes: what follows a body is not read
    as further requests (nothing after it is counted or parsed)."""
    big = b"GET /" + b"a" * 200_000 + b" HTTP/1.1\r\n" + HOST + b"\r\n"
    status, buf, _ = exchange(srv.port, f"GET {PAGE} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\n\r\nabc".encode() + big)
    assert status == 200, f"{status}: {buf[:300]!r}"
    assert head_of(buf).get("connection", "").lower() == "close", f"no Connection: close after a body: {buf[:300]!r}"
    assert buf.count(b"HTTP/1.1 ") == 1, f"what followed the body was answered: {buf[-300:]!r}"


# --------------------------------------------------------------------------- connections


def test_half_open_connections_and_the_connection_bound(sitegen_bin, site, tmp_path):
    socks: list[socket.socket] = []
    # The default limits, with a header timeout long enough for the test to open 1,024 connections,
    # started with a soft limit of 512 open files (the server raises it to fit its connection bound).
    cmd = ["prlimit", "--nofile=512:", str(sitegen_bin), "serve", "--source", str(site), "--port", "0",
           "--header-timeout", "60", "--output", str(tmp_path / "out")]
    srv = Server(cmd, cwd=site.parent)
    with contextlib.ExitStack() as stack:
        stack.callback(srv.stop)
        srv.wait_started(STARTUP_TIMEOUT)
        try:
            for i in range(800):
                s = socket.create_connection(("127.0.0.1", srv.port), timeout=ANSWER_TIMEOUT)
                s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0")  # never finished
                socks.append(s)
            t0 = time.monotonic()
            r = request(srv.port, "GET", PAGE, timeout=ANSWER_TIMEOUT)
            print(f"\nGET with 800 half-open connections: {r.status} in {(time.monotonic() - t0) * 1000:.1f} ms")
            assert r.status == 200, f"GET {PAGE} with 800 half-open connections: {r!r}\n{srv.logs()}"
            for i in range(1024 - 800):
                socks.append(socket.create_connection(("127.0.0.1", srv.port), timeout=ANSWER_TIMEOUT))
            # The 1,025th: refused at once, not queued.
            status, buf, elapsed = exchange(srv.port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            print(f"connection 1,025: {status} in {elapsed * 1000:.1f} ms")
            assert status == 503, f"connection 1,025 (1,024 open): want 503 and a close, got {status} {buf[:200]!r}"
            for s in socks[:10]:
                s.close()
            end = time.monotonic() + ANSWER_TIMEOUT
            while True:
                status, buf, _ = exchange(srv.port, f"GET {PAGE} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
                if status == 200:
                    break
                assert time.monotonic() < end, f"still {status} {ANSWER_TIMEOUT:.0f} s after closing 10 connections"
            wait_cpu_idle(srv.proc.pid, srv.logs)
        finally:
            for s in socks:
                s.close()


def test_slow_header_client_is_dropped(srv):
    """One header byte a second: dropped by the 10 s header timeout (counted from the connection's
    opening), while the server keeps answering others."""
    s = socket.create_connection(("127.0.0.1", srv.port), timeout=ANSWER_TIMEOUT)
    t0 = time.monotonic()
    head = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 100
    closed_at = None
    with s:
        s.settimeout(1.0)   # the client's pace: one byte a second
        for byte in head:
            try:
                s.send(bytes([byte]))
                data = s.recv(1)
            except socket.timeout:
                continue
            except (BrokenPipeError, ConnectionResetError):
                closed_at = time.monotonic() - t0
                break
            if data == b"":
                closed_at = time.monotonic() - t0
                break
            pytest.fail(f"the server answered a head that never ended: {data!r}")
            if time.monotonic() - t0 > 20:
                break
    print(f"\nslow client dropped after {closed_at} s")
    assert closed_at is not None, f"a client sending a byte a second was still connected after 20 s\n{srv.logs()}"
    assert 9.0 <= closed_at <= 13.0, f"dropped after {closed_at:.1f} s, want about 10 s"
    assert request(srv.port, "GET", PAGE).status == 200


def wait_closed(s: socket.socket, timeout: float) -> float | None:
    """Seconds until the server closes `s` (reading what it sends), or None."""
    t0 = time.monotonic()
    s.settimeout(timeout)
    try:
        while s.recv(65536):
            pass
    except socket.timeout:
        return None
    except ConnectionResetError:
        pass
    return time.monotonic() - t0


def test_idle_keep_alive_closes_but_event_streams_stay(sitegen_bin, site, tmp_path):
    with serve(sitegen_bin, site, "--idle-timeout", "2", output=tmp_path / "out") as srv:
        with open_events(srv) as sse:
            s = socket.create_connection(("127.0.0.1", srv.port), timeout=ANSWER_TIMEOUT)
            with s:
                s.sendall(f"GET {PAGE} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
                after = wait_closed(s, 15.0)
            print(f"\nkept-alive connection closed {after} s after its request")
            assert after is not None and 1.5 <= after <= 8.0, f"idle keep-alive connection: closed after {after} s, want about 2"
            assert not sse.eof, f"the event stream closed with the idle connection: {sse.describe()}"
            # …and still delivers.
            note = site / NOTE
            original = note_text(site)
            try:
                edit_and_wait_reload(srv, sse, note, with_marker(original, "idle-marker"), "idle-marker")
            finally:
                note.write_text(original, encoding="utf-8")


def test_event_streams_are_bounded_and_freed(sitegen_bin, site, tmp_path):
    with serve(sitegen_bin, site, "--max-event-streams", "3", output=tmp_path / "out") as srv:
        streams = [open_events(srv) for _ in range(3)]
        try:
            status, buf, elapsed = exchange(srv.port, b"GET /_sitegen/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert status == 503, f"a 4th stream with 3 open: want 503, got {status} {buf[:200]!r}"
            streams.pop().close()   # a tab closes
            end = time.monotonic() + ANSWER_TIMEOUT
            while True:
                s = socket.create_connection(("127.0.0.1", srv.port), timeout=ANSWER_TIMEOUT)
                with s:
                    s.sendall(b"GET /_sitegen/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    first = s.recv(64)
                if first.startswith(b"HTTP/1.1 200"):
                    break
                assert time.monotonic() < end, f"a stream's place is not freed {ANSWER_TIMEOUT:.0f} s after its tab closed: {first!r}"
        finally:
            for s in streams:
                s.close()


# --------------------------------------------------------------------------- Host


FOREIGN = ["rebind.example", "rebind.example:8000", "localhost.evil.example", "evil.example.localhost.com", "evillocalhost",
           "notlocalhost:8000", "1.2.3.4.example", "999.1.1.1",
           "preview.lan.evil.example", "127.0.0.1.nip.io", "", "[::1", "127.0.0.1:80:80"]
ADMITTED = ["localhost", "localhost:{port}", "LOCALHOST", "app.localhost", "a.b.localhost:{port}", "localhost.",
            "127.0.0.1", "127.0.0.1:{port}", "10.1.2.3", "[::1]", "[::1]:{port}", "[fe80::1]", "preview.lan",
            "PREVIEW.lan:{port}"]


def test_host_policy(sitegen_bin, site, tmp_path):
    with serve(sitegen_bin, site, "--allowed-host", "preview.lan", "--allowed-host", "other.lan",
               output=tmp_path / "out") as srv:
        bad = []
        for host in FOREIGN:
            for target in (PAGE, "/_sitegen/events", "/_sitegen/live.js"):
                status, buf, _ = exchange(srv.port, f"GET {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
                body = buf.split(b"\r\n\r\n", 1)[-1]
                if status not in (403, 400):
                    bad.append(f"Host {host!r} {target}: {status}, want 403")
                elif status == 403 and (b"--allowed-host" not in body or body.count(b"\n") != 1):
                    bad.append(f"Host {host!r}: 403 without one line naming --allowed-host: {body!r}")
                if b"access-control" in buf.split(b"\r\n\r\n", 1)[0].lower():
                    bad.append(f"Host {host!r}: CORS header in {buf[:300]!r}")
        for host in ADMITTED:
            host = host.format(port=srv.port)
            status, buf, _ = exchange(srv.port, f"GET {PAGE} HTTP/1.1\r\nHost: {host}\r\nOrigin: http://evil.example\r\n"
                                                f"Connection: close\r\n\r\n".encode())
            if status != 200:
                bad.append(f"Host {host!r}: {status}, want 200")
            if b"access-control" in buf.split(b"\r\n\r\n", 1)[0].lower():
                bad.append(f"Host {host!r}: CORS header in {buf[:300]!r}")
        status, buf, _ = exchange(srv.port, b"GET / HTTP/1.1\r\nHost: rebind.example\r\nConnection: close\r\n\r\n")
        assert b"--allowed-host rebind.example" in buf, buf
        assert not bad, "\n".join(bad) + "\n" + srv.logs()
    # Without --allowed-host, the name is refused.
    with serve(sitegen_bin, site, output=tmp_path / "out2") as srv:
        status, _, _ = exchange(srv.port, f"GET {PAGE} HTTP/1.1\r\nHost: preview.lan\r\nConnection: close\r\n\r\n".encode())
        assert status == 403, f"Host preview.lan without --allowed-host: {status}"


# --------------------------------------------------------------------------- load


def test_wrk_then_live_reload(sitegen_bin, tmp_path):
    wrk = shutil.which("wrk")
    assert wrk, "wrk is not installed (Debian package wrk; scripts/setup.sh installs it)"
    site = copy_site(tmp_path / "site")
    with serve(sitegen_bin, site, output=tmp_path / "out") as srv:
        with open_events(srv) as sse:
            p = subprocess.run([wrk, "-t2", "-c50", "-d10s", "--latency", f"http://127.0.0.1:{srv.port}{PAGE}"],
                               capture_output=True, text=True, timeout=60)
            print("\n" + p.stdout)
            assert p.returncode == 0, p.stdout + p.stderr
            assert "Socket errors" not in p.stdout, f"wrk saw socket errors:\n{p.stdout}\n{srv.logs()}"
            assert "Non-2xx or 3xx" not in p.stdout, f"wrk saw error statuses:\n{p.stdout}\n{srv.logs()}"
            m = re.search(r"(\d+) requests in", p.stdout)
            assert m and int(m.group(1)) > 1000, p.stdout
            assert srv.alive(), srv.logs()
            original = note_text(site)
            edit_and_wait_reload(srv, sse, site / NOTE, with_marker(original, "after-wrk"), "after-wrk")
            wait_cpu_idle(srv.proc.pid, srv.logs)
