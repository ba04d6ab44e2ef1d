"""``qipu serve`` under strange requests, dropped clients and many clients at once.

The server runs as in ``test_serve.py`` (``serve()`` in a thread on port 0,
with the small stand-in builder: nothing here depends on the real build),
and the tests talk to it over loopback like a browser, or like a client a
browser would never be. Every wait is bounded; no test asserts how fast
anything is (``benchmarks/bench_serve.py`` measures that).
"""

from __future__ import annotations

import errno
import http.client
import ipaddress
import socket
import struct
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from test_serve import PAGE, WAIT, FakeBuilder, Running, small_site, wait_for
from test_serve import start as start_on

from generator import serve as serve_module
from generator.serve import host_allowed

CLIENTS = 64


@pytest.fixture
def make_site(tmp_path: Path, monkeypatch) -> Iterator:
    """Starts servers on a small site built by the stand-in builder; stops them after the test."""
    monkeypatch.setattr(serve_module.Site, "_make_builder", lambda self, config: FakeBuilder(config))
    small_site(tmp_path, monkeypatch)
    running: list[Running] = []

    def make(host: str = "127.0.0.1") -> Running:
        running.append(start_on(tmp_path, host))
        return running[-1]

    yield make
    for server in running:
        assert server.stop() == 0


@pytest.fixture
def site(make_site) -> Running:
    return make_site()


def request(
    port: int, path: str, host: str | None = "127.0.0.1", *, address: str = "127.0.0.1", extra: tuple = ()
) -> http.client.HTTPResponse:
    """A GET with exactly the Host header given (None: none at all); the response is read."""
    connection = http.client.HTTPConnection(address, port, timeout=WAIT)
    try:
        connection.putrequest("GET", path, skip_host=True, skip_accept_encoding=True)
        if host is not None:
            connection.putheader("Host", host)
        for name, value in extra:
            connection.putheader(name, value)
        connection.endheaders()
        response = connection.getresponse()
        response.body = response.read()  # type: ignore[attr-defined]
        return response
    finally:
        connection.close()


def reset_close(sock: socket.socket) -> None:
    """Close with a TCP reset, as a browser tab killed mid-download does."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def requests_done() -> None:
    """Wait until no request thread is left: one answering a dropped client may still be writing."""
    wait_for(
        lambda: not any("process_request_thread" in t.name for t in threading.enumerate()),
        "the server's request threads to finish",
    )


def assert_no_traceback(capfd, site: Running) -> None:
    requests_done()
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err
    assert not any("Traceback" in line for line in site.lines), site.lines[-3:]


# --------------------------------------------------------------------------
# Many clients at once


def test_64_clients_connecting_at_once_all_get_their_page(site: Running) -> None:
    barrier = threading.Barrier(CLIENTS)
    statuses: list[int] = []
    failures: list[BaseException] = []

    def client() -> None:
        try:
            barrier.wait(WAIT)
            statuses.append(request(site.server.port, "/").status)
        except BaseException as exc:  # reported below, not lost in the thread
            failures.append(exc)

    threads = [threading.Thread(target=client, daemon=True) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT * 3)  # a connection left to the client's SYN retries can take 1 + 3 + 7 s
    assert not any(thread.is_alive() for thread in threads)
    assert not failures, failures[:3]
    assert statuses == [200] * CLIENTS


# --------------------------------------------------------------------------
# Paths the file system refuses


@pytest.mark.parametrize(
    "path",
    ["/" + "a" * 300, "/" + "a" * 300 + "/index.html", "/games/" + quote("名" * 100) + ".html", "/" + "b" * 256 + "/"],
    ids=["300-bytes", "300-bytes-folder", "300-bytes-utf8", "256-bytes-slash"],
)
def test_a_segment_over_255_bytes_is_404_and_the_server_goes_on(site: Running, capfd, path: str) -> None:
    response = request(site.server.port, path)
    assert response.status == 404
    assert b"Not found" in response.body
    assert site.get("/")[0] == 200
    assert_no_traceback(capfd, site)


def test_a_symlink_loop_is_404(site: Running, capfd) -> None:
    (site.output / "loop").symlink_to("loop")
    (site.output / "ping").symlink_to("pong")
    (site.output / "pong").symlink_to("ping")
    for path in ("/loop", "/loop/", "/loop/index.html", "/ping/x.html"):
        assert site.raw_get(path) == 404, path
    assert site.get("/")[0] == 200
    assert_no_traceback(capfd, site)


def test_a_file_the_server_may_not_read_is_404(site: Running, capfd, monkeypatch) -> None:
    locked = site.output / "locked"
    (locked / "inner").mkdir(parents=True)
    (locked / "index.html").write_text("<p>locked</p>", "utf-8")
    real_stat = Path.stat

    def stat(self: Path, *, follow_symlinks: bool = True):
        # chmod 000 does not stop root, who may run these tests: refuse the way the kernel would.
        if "locked" in self.parts:
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_stat(self, follow_symlinks=follow_symlinks)

    monkeypatch.setattr(Path, "stat", stat)
    for path in ("/locked", "/locked/", "/locked/index.html", "/locked/inner/x.txt"):
        assert site.raw_get(path) == 404, path
    monkeypatch.undo()
    assert site.get("/")[0] == 200
    assert_no_traceback(capfd, site)


# --------------------------------------------------------------------------
# Clients that go away


def test_a_client_that_drops_a_download_leaves_no_traceback(site: Running, capfd) -> None:
    # Larger than any socket buffer: the server is still writing when the client goes.
    (site.output / "big.txt").write_bytes(b"x" * (32 << 20))
    for _ in range(3):
        sock = socket.create_connection(("127.0.0.1", site.server.port), timeout=WAIT)
        sock.sendall(b"GET /big.txt HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert sock.recv(1024).startswith(b"HTTP/1.0 200")
        reset_close(sock)
    # The server goes on, and the dropped answers were neither printed nor logged.
    assert site.get("/")[0] == 200
    assert_no_traceback(capfd, site)


def test_a_client_that_drops_a_long_poll_leaves_no_traceback(site: Running, capfd) -> None:
    before = site.build
    sock = socket.create_connection(("127.0.0.1", site.server.port), timeout=WAIT)
    sock.sendall(f"GET /__qipu/wait?since={before} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
    reset_close(sock)
    (site.content / "about.md").write_text(PAGE % "BETA", "utf-8")  # the answer now goes to a closed socket
    wait_for(lambda: site.build > before, "a rebuild after the save")
    assert site.get("/")[0] == 200
    assert_no_traceback(capfd, site)


def test_a_client_that_sends_half_a_request_and_resets_leaves_no_traceback(site: Running, capfd) -> None:
    sock = socket.create_connection(("127.0.0.1", site.server.port), timeout=WAIT)
    sock.sendall(b"GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: te")
    reset_close(sock)
    assert site.get("/")[0] == 200
    assert_no_traceback(capfd, site)


def test_a_bug_while_answering_is_logged_once_not_printed(site: Running, capfd, monkeypatch) -> None:
    def broken(self, path: str, query: str, body: bool) -> None:
        raise RuntimeError("a bug in the handler")

    monkeypatch.setattr(serve_module.PreviewHandler, "_send_path", broken)
    with pytest.raises((http.client.HTTPException, ConnectionError)):
        request(site.server.port, "/index.html")
    wait_for(lambda: any("RuntimeError" in line for line in site.lines), "the error in the log")
    monkeypatch.undo()
    assert site.get("/")[0] == 200
    logged = [line for line in site.lines if "Traceback" in line]
    assert len(logged) == 1 and "a bug in the handler" in logged[0]
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err


# --------------------------------------------------------------------------
# DNS rebinding: the Host header must name this server


@pytest.mark.parametrize(
    "host",
    ["127.0.0.1", "127.0.0.1:{port}", "localhost", "localhost:{port}", "LocalHost", "localhost.:{port}", "[::1]:{port}",
     "[::1]", "127.0.0.1:9999", ""],
)  # fmt: skip
def test_hosts_naming_this_server_are_served(site: Running, host: str) -> None:
    response = request(site.server.port, "/index.html", host.format(port=site.server.port))
    assert response.status == 200


def test_a_request_without_host_is_served(site: Running) -> None:
    assert request(site.server.port, "/index.html", None).status == 200
    with socket.create_connection(("127.0.0.1", site.server.port), timeout=WAIT) as sock:
        sock.sendall(b"GET /index.html HTTP/1.0\r\n\r\n")
        assert sock.makefile("rb").readline().startswith(b"HTTP/1.0 200")


@pytest.mark.parametrize(
    "host",
    ["evil.example:{port}", "evil.example", "127.0.0.1.evil.example", "localhost.evil.example:{port}",
     "evil.localhost", "10.0.0.1:{port}", "[::1", "[127.0.0.1]", "local host", "localhost:{port}@evil.example",
     "0x7f.1"],
)  # fmt: skip
def test_other_hosts_are_refused(site: Running, capfd, host: str) -> None:
    for path in ("/index.html", "/__qipu/status", "/no/such/page.html"):
        response = request(site.server.port, path, host.format(port=site.server.port))
        assert response.status == 403, path
        assert response.getheader("Content-Type") == "text/plain; charset=utf-8"
        assert b"Host" in response.body and len(response.body) < 300
        assert b"<" not in response.body  # plain text: the page of the site is not in it
    assert site.get("/")[0] == 200
    assert_no_traceback(capfd, site)


def test_two_host_headers_are_refused(site: Running) -> None:
    response = request(site.server.port, "/index.html", "127.0.0.1", extra=(("Host", "evil.example"),))
    assert response.status == 403


def test_a_server_on_localhost_answers_to_its_names(make_site) -> None:
    running = make_site("localhost")
    port = running.server.port
    for host in (f"localhost:{port}", f"127.0.0.1:{port}"):
        assert request(port, "/", host).status == 200
    assert request(port, "/", f"evil.example:{port}").status == 403


def test_a_server_on_ipv6_loopback_answers_to_it(make_site) -> None:
    try:
        socket.socket(socket.AF_INET6).close()
        running = make_site("::1")
    except OSError as exc:  # pragma: no cover - a machine without IPv6
        pytest.skip(f"no IPv6 loopback: {exc}")
    port = running.server.port
    for host in (f"[::1]:{port}", "[::1]", "localhost"):
        assert request(port, "/", host, address="::1").status == 200
    assert request(port, "/", f"evil.example:{port}", address="::1").status == 403


@pytest.mark.parametrize(
    ("host", "names", "bound", "allowed"),
    [
        ("preview.lan:8000", {"preview.lan"}, "192.0.2.7", True),  # the name given with --host
        ("PREVIEW.LAN", {"preview.lan"}, "192.0.2.7", True),
        ("other.lan:8000", {"preview.lan"}, "192.0.2.7", False),
        ("192.0.2.7:8000", set(), "192.0.2.7", True),  # the bound address
        ("192.0.2.8:8000", set(), "192.0.2.7", False),
        ("192.0.2.8:8000", set(), "0.0.0.0", True),  # bound to every address: any IP literal
        ("[2001:db8::1]:8000", set(), "::", True),
        ("[2001:db8::1]:8000", set(), "2001:db8::1", True),
        ("[2001:db8::2]", set(), "2001:db8::1", False),
        ("evil.example:8000", set(), "0.0.0.0", False),
        ("127.0.0.1:8000", set(), "192.0.2.7", True),  # loopback is this machine
        ("localhost:99999", {"localhost"}, "127.0.0.1", True),  # the port is not what rebinding changes
        ("localhost:8000:8000", {"localhost"}, "127.0.0.1", False),
    ],
)
def test_host_allowed(host: str, names: set[str], bound: str, allowed: bool) -> None:
    assert host_allowed(host, frozenset(names), ipaddress.ip_address(bound)) is allowed


# --------------------------------------------------------------------------
# Content types, and no sniffing


def _headers(site: Running, path: str) -> tuple[int, str | None, str | None]:
    response = request(site.server.port, path)
    return response.status, response.getheader("Content-Type"), response.getheader("X-Content-Type-Options")


def test_every_answer_says_nosniff(site: Running) -> None:
    folder = site.output / "static-test"
    (folder / "sub").mkdir(parents=True)
    (folder / "site.css").write_text("body{}", "utf-8")
    (folder / "record.txt").write_text("<html><script>alert(1)</script>", "utf-8")  # looks like HTML
    for path in ("/", "/index.html", "/static-test/site.css", "/static-test/record.txt", "/no/such/page.html",
                 "/static-test/sub", "/..%2fsecret.txt", "/__qipu/status", "/" + "a" * 300):  # fmt: skip
        status, _, nosniff = _headers(site, path)
        assert nosniff == "nosniff", (path, status)
    assert request(site.server.port, "/", "evil.example").getheader("X-Content-Type-Options") == "nosniff"
    with socket.create_connection(("127.0.0.1", site.server.port), timeout=WAIT) as sock:
        sock.sendall(b"BREW / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")  # answered by http.server itself
        head = sock.makefile("rb").read(4096)
    assert head.startswith(b"HTTP/1.0 501") and b"X-Content-Type-Options: nosniff" in head


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("page.html", "text/html; charset=utf-8"),
        ("site.css", "text/css"),
        ("viewer.js", "text/javascript"),
        ("games.jsonl", "application/json"),
        ("C5-甲 vs 乙.txt", "text/plain"),
        ("RECORD.TXT", "text/plain"),
        ("board.svg", "image/svg+xml"),
        ("records.txt.gz", "application/gzip"),
        ("notes.qipu", "application/octet-stream"),
        ("README", "application/octet-stream"),
        (".nojekyll", "application/octet-stream"),
    ],
)
def test_files_are_typed_by_their_extension_only(site: Running, name: str, expected: str) -> None:
    folder = site.output / "types-test"
    folder.mkdir(exist_ok=True)
    (folder / name).write_bytes(b"<!DOCTYPE html><html><body>not what the name says</body></html>")
    status, ctype, _ = _headers(site, "/types-test/" + quote(name))
    assert (status, ctype) == (200, expected)


def test_a_redirect_never_leads_to_another_host(site: Running) -> None:
    (site.output / "evil.example").mkdir()
    response = request(site.server.port, "////evil.example")
    assert response.status == 301
    assert response.getheader("Location") == "/evil.example/"
