"""``qipu serve``: live reload, rebuild on save, and a server that never falls over.

Each server test starts ``serve`` in a thread on a free port, with a temporary
content and output folder, and talks to it over HTTP like a browser would.
The tests run against the real :class:`generator.build.Builder` when it is
there, and always against a small stand-in of the same shape, which makes
the server's own behaviour (debounce, crash handling) checkable on its own.
Every wait is bounded (``WAIT`` seconds); no test asserts how fast anything is.
"""

from __future__ import annotations

import http.client
import importlib.util
import json
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from generator import serve as serve_module
from generator.diagnostics import Diagnostic
from generator.serve import (
    WAIT_PATH,
    BuildStatus,
    PreviewServer,
    banner,
    inject,
    is_ignored,
    reload_snippet,
    serve,
)

WAIT = 10.0  # the longest any test waits for a rebuild
HAS_BUILD = importlib.util.find_spec("generator.build") is not None
MARKER = "__qipu/wait"  # in the injected script, never in the built files

RECORD = "{[C5][%s B][%s W][先手胜][2017.07.29 14:00 重庆][2017 CCGC];B(H,8);W(I,9);B(H,9);W(I,10);B(H,10);W(I,11);B(H,11);W(I,12);B(H,12)}\n"
PAGE = "# 关于\n\nThe championship page, version %s.\n"
FILE_NAME = "C5-%s vs %s-先手胜-2017.07.29 14:00 重庆-2017 CCGC.txt"


# --------------------------------------------------------------------------
# A stand-in for generator.build.Builder, same shape


@dataclass
class FakeReport:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    errors: int = 0
    warnings: int = 0
    seconds: float = 0.0
    written: int = 0
    reparsed: int = 0


class FakeBuilder:
    """Writes one page per record, holding its text, and an index; text not
    starting with ``{[`` is a broken record."""

    builds = 0  # over all instances: a config reload makes a new builder

    def __init__(self, config, *, jobs=None, strict=False) -> None:
        self.config = config

    def build(self, changed=None) -> FakeReport:  # same signature as Builder.build
        type(self).builds += 1
        content, out = Path(self.config.content_dir), Path(self.config.output_dir)
        report = FakeReport()
        items = []
        for path in sorted(content.rglob("*.txt")):
            text = path.read_text("utf-8")
            rel = path.relative_to(content).as_posix()
            if not text.startswith("{["):
                # The message the real reader gives (a template of the catalogs, said in the banner's language).
                message = "not a record of a known game: the header names no game and the file name has no game code"
                report.diagnostics.append(Diagnostic(rel, 1, 1, "error", "FMT-E001", message))
            page = out / "games" / f"{len(items)}.html"
            report.written += _write(page, f"<!DOCTYPE html><html><body><pre>{text}</pre></body></html>")
            items.append(rel)
        for path in sorted(content.rglob("*.md")):
            page = out / path.relative_to(content).with_suffix(".html")
            report.written += _write(page, f"<!DOCTYPE html><html><body>{path.read_text('utf-8')}</body></html>")
        index = "".join(f"<li>{i}</li>" for i in items)
        report.written += _write(out / "index.html", f"<!DOCTYPE html><html><body><ul>{index}</ul></body></html>")
        report.errors = len(report.diagnostics)
        return report


def _write(path: Path, text: str) -> int:
    if path.exists() and path.read_text("utf-8") == text:
        return 0
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    return 1


# --------------------------------------------------------------------------
# Running a server


@dataclass
class Running:
    server: PreviewServer
    thread: threading.Thread
    result: list[int]
    lines: list[str]
    root: Path
    content: Path
    output: Path

    @property
    def build(self) -> int:
        return self.server.build_number

    def url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self.server.port}{path}"

    def get(self, path: str = "/") -> tuple[int, str]:
        try:
            with urllib.request.urlopen(self.url(path), timeout=WAIT) as response:
                return response.status, response.read().decode("utf-8")
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode("utf-8")

    def raw_get(self, path: str) -> int:
        """The status for a path sent exactly as written (urllib would tidy ``..`` away)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=WAIT)
        try:
            connection.putrequest("GET", path, skip_host=True, skip_accept_encoding=True)
            connection.putheader("Host", "127.0.0.1")
            connection.endheaders()
            response = connection.getresponse()
            body = response.read().decode("utf-8", "replace")
            assert "SECRET" not in body
            return response.status
        finally:
            connection.close()

    def status(self) -> dict:
        return json.loads(self.get("/__qipu/status")[1])

    @property
    def about(self) -> Path:
        return self.content / "about.md"

    def page_with(self, text: str) -> str | None:
        """The URL path of a built HTML page containing ``text`` (found on disk)."""
        for page in sorted(self.output.rglob("*.html")):
            if text in page.read_text("utf-8", "replace"):
                return "/" + page.relative_to(self.output).as_posix()
        return None

    def stop(self) -> int:
        if self.thread.is_alive():
            self.server.stop()
            self.thread.join(WAIT)
        assert not self.thread.is_alive(), "serve() did not return after stop()"
        return self.result[0]


def wait_for(condition: Callable[[], object], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"waited {WAIT} s for {what}")
        time.sleep(0.05)


def start(root: Path, host: str = "127.0.0.1") -> Running:
    """``serve()`` in a thread on ``host``, port 0, once its first build is done."""
    content, output = root / "content", root / "site"
    ready = threading.Event()
    servers: list[PreviewServer] = []
    result: list[int] = []
    lines: list[str] = []

    def on_ready(server: PreviewServer) -> None:
        servers.append(server)
        ready.set()

    def run() -> None:
        try:
            result.append(
                serve(None, root=root, content=None, output=None, host=host, port=0, log=lines.append, ready=on_ready)
            )
        finally:
            ready.set()

    thread = threading.Thread(target=run, name="test-serve", daemon=True)
    thread.start()
    assert ready.wait(60), "the first build did not finish"
    assert servers, f"serve() stopped before serving: {lines}"
    return Running(servers[0], thread, result, lines, root, content, output)


@pytest.fixture(params=["real", "fake"])
def kind(request, monkeypatch) -> str:
    if request.param == "real":
        if not HAS_BUILD:
            pytest.skip("generator/build.py is not written yet")
    else:
        FakeBuilder.builds = 0
        monkeypatch.setattr(serve_module.Site, "_make_builder", lambda self, config: FakeBuilder(config))
    return request.param


def small_site(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """One record and one page under ``tmp_path``, and stand-ins for the theme folders.

    An edit to the repository's own templates while the tests run must not
    rebuild in the middle of one.
    """
    for name in ("templates", "static"):
        (tmp_path / "theme" / name).mkdir(parents=True)
        monkeypatch.setattr(serve_module, f"{name}_dir", lambda name=name: tmp_path / "theme" / name)
    content = tmp_path / "content" / "2017-ccgc"
    content.mkdir(parents=True)
    (content / (FILE_NAME % ("甲队", "乙队"))).write_text(RECORD % ("甲队", "乙队"), "utf-8")
    (tmp_path / "content" / "about.md").write_text(PAGE % "ALPHA", "utf-8")


@pytest.fixture
def site(tmp_path: Path, kind: str, monkeypatch) -> Iterator[Running]:
    small_site(tmp_path, monkeypatch)
    running = start(tmp_path)
    yield running
    assert running.stop() == 0


def save(path: Path, text: str) -> None:
    path.write_text(text, "utf-8")


# --------------------------------------------------------------------------
# Injection, never on disk


def test_reload_script_is_served_but_not_written(site: Running) -> None:
    status, page = site.get("/")
    assert status == 200
    assert MARKER in page and "location.reload()" in page
    assert page.rindex(MARKER) < page.lower().rindex("</body>")
    built = list(site.output.rglob("*.html"))
    assert built
    assert all(MARKER not in p.read_text("utf-8", "replace") for p in built)
    # Other files are served as they are.
    _, index = site.get("/index.html")
    assert MARKER in index


def test_a_saved_page_rebuilds_and_reloads(site: Running) -> None:
    assert site.page_with("version ALPHA") is not None, "the first build shows the page"
    before = site.build
    save(site.about, PAGE % "BETA")
    wait_for(lambda: site.build > before, "a rebuild after the save")
    path = site.page_with("version BETA")
    assert path is not None
    status, page = site.get(path)
    assert status == 200 and "version BETA" in page and MARKER in page


def test_the_long_poll_answers_after_the_next_build(site: Running) -> None:
    answer: list[dict] = []
    since = site.build

    def poll() -> None:
        with urllib.request.urlopen(site.url(f"{WAIT_PATH}?since={since}"), timeout=WAIT + 30) as response:
            answer.append(json.loads(response.read()))

    waiter = threading.Thread(target=poll, daemon=True)
    waiter.start()
    time.sleep(0.2)  # let the request reach the server; the answer must wait for a build
    assert not answer
    save(site.about, PAGE % "GAMMA")
    waiter.join(WAIT + 30)
    assert answer and answer[0]["build"] > since
    assert answer[0]["session"] in site.get("/")[1]


def test_a_burst_of_saves_rebuilds_once(site: Running, kind: str) -> None:
    before = site.build
    for n in range(5):
        save(site.about, PAGE % f"BURST{n}")
        time.sleep(0.02)
    wait_for(lambda: site.build > before, "a rebuild after the burst")
    wait_for(lambda: site.page_with("version BURST4") is not None, "the last save in the site")
    time.sleep(1.0)  # room for any extra rebuild to show up
    assert site.build - before in (1, 2)
    if kind == "fake":
        assert FakeBuilder.builds - 1 in (1, 2)


def test_editor_temp_files_and_the_output_do_not_rebuild(site: Running) -> None:
    before = site.build
    folder = next(site.content.rglob("*.txt")).parent
    (folder / ".record.txt.swp").write_text("x")
    (folder / "4913").write_text("")
    (folder / "record.txt~").write_text("x")
    (site.output / "extra.html").write_text("<p>x</p>")
    (site.root / "notes.md").write_text("not watched: beside site.toml")
    time.sleep(1.0)  # well past the quiet period: a rebuild would have started
    assert site.build == before, site.lines[-3:]
    # The watcher is still alive: a real save rebuilds once.
    save(site.about, PAGE % "DELTA")
    # The page file is written before the build is published: wait for the build.
    wait_for(lambda: site.build > before, "the rebuild after a real save")
    assert site.page_with("version DELTA") is not None
    time.sleep(0.5)  # a second rebuild would have started by now
    assert site.build == before + 1


def test_theme_files_are_watched(site: Running) -> None:
    for changed in (serve_module.templates_dir() / "page.html", serve_module.static_dir() / "site.css"):
        before = site.build
        changed.write_text("/* edited */", "utf-8")
        wait_for(lambda before=before: site.build > before, f"a rebuild after {changed.name} changed")
        assert any(changed.name in line for line in site.lines)


def test_a_broken_record_is_a_diagnostic_and_the_server_goes_on(site: Running) -> None:
    folder = next(site.content.rglob("*.txt")).parent
    errors = site.status()["errors"]
    before = site.build
    broken = folder / (FILE_NAME % ("坏队", "乙队"))
    save(broken, "this is not a game record at all\n")
    wait_for(lambda: site.build > before, "a rebuild after the broken record")
    status = site.status()
    assert status["errors"] > errors and status["crash"] is None
    code, page = site.get("/")
    assert code == 200
    assert "qipu-serve-banner" in page and "坏队" in page  # the banner lists the error with its file
    logged = [line for line in site.lines if "坏队" in line and "error[" in line]
    assert logged
    # The log is English; the banner is part of the page, in the site's language (zh-CN by default).
    code_of, english = logged[0].split("error[", 1)[1].split("]: ", 1)
    banner_html = page.split('id="qipu-serve-banner"', 1)[1]
    assert f"error[{code_of}]" in banner_html and english.strip() not in banner_html
    # The server goes on: removing the file rebuilds and the error is gone.
    broken.unlink()
    wait_for(lambda: site.status()["errors"] == errors, "the error to clear")
    assert site.get("/")[0] == 200


def test_a_crashing_build_keeps_the_last_good_site(site: Running, monkeypatch) -> None:
    index = site.output / "index.html"
    good = index.read_bytes()
    builder = site.server.site.builder

    def crash(changed=None):
        raise RuntimeError("boom <script>alert(1)</script>")

    monkeypatch.setattr(builder, "build", crash)
    before = site.build
    save(site.about, PAGE % "CRASH")
    wait_for(lambda: site.build > before, "the failed build to be published")
    assert "boom" in site.status()["crash"]
    code, page = site.get("/")
    assert code == 200
    assert index.read_bytes() == good
    body = good.decode("utf-8")
    assert page.startswith(body[: body.lower().rindex("</body>")])  # the last good page, plus the banner
    assert "boom &lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<script>alert(1)" not in page
    assert any("Traceback" in line and "RuntimeError" in line for line in site.lines)
    # The next good build clears the banner.
    monkeypatch.undo()
    before = site.build
    save(site.about, PAGE % "FIXED")
    wait_for(lambda: site.build > before and site.status()["crash"] is None, "a good build after the crash")
    assert site.page_with("version FIXED") is not None
    assert "The last build failed" not in site.get("/")[1]


@pytest.mark.parametrize(
    "path",
    ["/../secret.txt", "/%2e%2e/secret.txt", "/games/../../secret.txt", "/..%2fsecret.txt", "/..\\secret.txt"],
)
def test_paths_outside_the_output_folder_are_refused(site: Running, path: str) -> None:
    (site.root / "secret.txt").write_text("SECRET")
    assert site.raw_get(path) in (403, 404)


def test_directories_serve_their_index_and_missing_pages_are_404(site: Running) -> None:
    code, page = site.get("/")
    assert code == 200 and page.startswith((site.output / "index.html").read_text("utf-8")[:30])
    sub = site.output / "folder-test"
    sub.mkdir()
    (sub / "index.html").write_text("<html><body>folder page</body></html>", "utf-8")
    connection = http.client.HTTPConnection("127.0.0.1", site.server.port, timeout=WAIT)
    connection.request("GET", "/folder-test")
    response = connection.getresponse()
    assert response.status == 301 and response.getheader("Location") == "/folder-test/"
    connection.close()
    code, page = site.get("/folder-test/")
    assert code == 200 and "folder page" in page and MARKER in page
    code, page = site.get("/no/such/page.html")
    assert code == 404 and MARKER in page  # it appears by itself once built


def test_original_records_with_colons_and_spaces_in_their_names_are_served(site: Running) -> None:
    folder = site.output / "files-test"
    folder.mkdir()
    (folder / "C5-甲 vs 乙-先手胜-2017.07.29 14:00 重庆.txt").write_bytes(b"{[C5]}")
    url = "/files-test/" + urllib.parse.quote("C5-甲 vs 乙-先手胜-2017.07.29 14:00 重庆.txt")
    assert site.get(url) == (200, "{[C5]}")
    assert site.raw_get("/files-test/%ff%fe.txt") in (403, 404)  # not UTF-8


def test_a_site_toml_with_errors_keeps_the_last_good_config(site: Running) -> None:
    config = site.root / "site.toml"
    before = site.build
    config.write_text('title = "第一届"\n', "utf-8")
    wait_for(lambda: site.build > before, "a rebuild after site.toml appeared")
    assert site.status()["config_errors"] == []
    assert site.server.site.config.title == "第一届"
    before = site.build
    config.write_text("title = [unclosed\n", "utf-8")
    wait_for(lambda: site.build > before, "a rebuild after site.toml broke")
    assert site.status()["config_errors"]
    assert site.server.site.config.title == "第一届"
    code, page = site.get("/")
    assert code == 200 and "site.toml has errors" in page
    before = site.build
    config.write_text('title = "第二届"\n', "utf-8")
    wait_for(lambda: site.build > before and not site.status()["config_errors"], "the fixed site.toml")
    assert site.server.site.config.title == "第二届"


# --------------------------------------------------------------------------
# Starting and stopping


def test_stop_returns_0_and_closes_the_port(site: Running) -> None:
    port = site.server.port
    assert site.stop() == 0
    assert not any(t.name == "qipu-rebuild" and t.is_alive() for t in threading.enumerate())
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


def test_ctrl_c_stops_cleanly(tmp_path: Path, kind: str) -> None:
    (tmp_path / "content").mkdir()
    lines: list[str] = []

    def interrupt(server: PreviewServer) -> None:
        raise KeyboardInterrupt

    assert serve(None, root=tmp_path, content=None, output=None, port=0, log=lines.append, ready=interrupt) == 0
    assert not any(t.name == "qipu-rebuild" and t.is_alive() for t in threading.enumerate())


def test_a_port_in_use_is_a_clear_message_and_code_2(tmp_path: Path, kind: str) -> None:
    (tmp_path / "content").mkdir()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        lines: list[str] = []
        assert serve(None, root=tmp_path, content=None, output=None, port=port, log=lines.append) == 2
    assert any("already in use" in line and str(port) in line for line in lines)


# --------------------------------------------------------------------------
# The pieces


def test_inject_goes_before_the_last_body_end() -> None:
    assert inject(b"<body>a</body><!-- </BODY> --></BODY>", "<x>") == b"<body>a</body><!-- </BODY> --><x></BODY>"
    assert inject(b"<p>no body end", "<x>") == b"<p>no body end<x>"
    assert inject("<body>棋谱</body>".encode(), "<x>").decode() == "<body>棋谱<x></body>"


def test_the_script_carries_the_build_number_and_keeps_the_hash() -> None:
    snippet = reload_snippet(BuildStatus(number=7), "abc123")
    assert "since = 7" in snippet and '"abc123"' in snippet
    assert "location.reload()" in snippet  # reload() keeps #ply=N; assigning location.href would not
    assert "qipu-serve-banner" not in snippet


def test_the_banner_escapes_what_it_shows() -> None:
    text = banner(BuildStatus(number=1, errors=1, problems=("a.txt:1:1: error[X-E001]: <b>&",)))
    assert "&lt;b&gt;&amp;" in text and "<b>&" not in text
    assert banner(BuildStatus(number=3)) == ""


@pytest.mark.parametrize(
    ("name", "ignored"),
    [
        ("content/a/.r.txt.swp", True),
        ("content/a/r.txt~", True),
        ("content/a/.#r.txt", True),
        ("content/a/4913", True),
        ("content/.qipu-cache/x.json", True),
        (".qipu-cache/x.json", True),
        ("site/index.html", True),
        ("content/a/C5-甲 vs 乙.txt", False),
        ("content/a/README.md", False),
    ],
)
def test_what_is_ignored(tmp_path: Path, name: str, ignored: bool) -> None:
    assert is_ignored(tmp_path / name, tmp_path / "site") is ignored
