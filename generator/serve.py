"""``qipu serve``: a local preview that rebuilds on every save and reloads the page.

Three parts, kept apart as in MkDocs:

- the *config and build* (:mod:`generator.config`, :mod:`generator.build`),
  which know nothing about serving;
- the *watcher* (:class:`Watcher`, :class:`Rebuilder`): watchdog observers on
  the content folder, the templates, the static files and ``site.toml``.
  Saves are debounced, so the burst an editor makes when it writes a temp
  file and renames it gives one rebuild;
- the *server* (:class:`PreviewServer`): ``http.server`` serving only the
  output folder. When it sends an HTML page it adds, on the fly, a small
  script that long-polls ``/__qipu/wait?since=N`` and reloads the page once
  build N+1 is done. The files on disk never contain that script: the built
  site stays exactly what ``qipu build`` writes. It answers only requests
  whose Host header names it (a guard against DNS rebinding), marks every
  answer ``nosniff``, types files by their extension alone, and neither a
  strange path nor a client that goes away mid-answer reaches the terminal.

A record with errors never stops the server: the build reports it as a
diagnostic like any other. A build that *raises* (a bug in Qipu) is caught:
the traceback goes to the log, the last good site keeps being served, and the
pages show a banner with the error.
"""

from __future__ import annotations

import errno
import html
import ipaddress
import json
import os
import re
import secrets
import shutil
import signal
import stat
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from socket import AF_INET6
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, unquote, urlsplit

from watchdog.events import (
    EVENT_TYPE_CREATED,
    EVENT_TYPE_DELETED,
    EVENT_TYPE_MODIFIED,
    EVENT_TYPE_MOVED,
    DirCreatedEvent,
    DirDeletedEvent,
    DirMovedEvent,
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileSystemEvent,
    FileSystemEventHandler,
)
from watchdog.observers import Observer

from generator import scan
from generator.diagnostics import Diagnostic

if TYPE_CHECKING:  # the config and the build are written in parallel with this module
    from generator.build import Builder, BuildReport
    from generator.config import Config

Log = Callable[[str], None]

WAIT_PATH = "/__qipu/wait"  # long poll: answered when the build number exceeds ?since=N
STATUS_PATH = "/__qipu/status"  # the current build number and problems, as JSON
QUIET_SECONDS = 0.2  # a burst of saves ends after this long without another one
POLL_SECONDS = 25.0  # a long poll is answered after this long even without a build
SHOWN_DIAGNOSTICS = 50  # how many errors and warnings a build logs, and the banner lists

# What the content folder holds is decided by generator.scan, for build, check
# and serve alike (scan.ignored: editors' backups, swap files, hidden files).
# Besides, folders that are never content wherever they lie: a change there does not rebuild.
IGNORED_DIRS = frozenset({".qipu-cache", ".git", ".hg", ".svn", "__pycache__"})

# Only changes rebuild: the build reading the content makes open/close events
# on inotify, and those must not trigger another build.
_WATCHED_EVENTS = [
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    DirCreatedEvent,
    DirDeletedEvent,
    DirMovedEvent,
]
_CHANGE_TYPES = frozenset({EVENT_TYPE_CREATED, EVENT_TYPE_DELETED, EVENT_TYPE_MODIFIED, EVENT_TYPE_MOVED})


def templates_dir() -> Path:
    """The built-in Jinja templates (see generator.render)."""
    from generator.render import TEMPLATES_DIR

    return TEMPLATES_DIR


def static_dir() -> Path:
    """The built-in CSS and the viewer's JavaScript (see generator.render)."""
    from generator.render import STATIC_DIR

    return STATIC_DIR


# --------------------------------------------------------------------------
# Build state shared with the browsers


@dataclass(frozen=True, slots=True)
class BuildStatus:
    """What the open pages are told about the last build.

    Frozen: :class:`LiveReload` replaces it whole, so a request thread always
    reads one consistent snapshot.
    """

    number: int = 0  # increases after every build; pages reload when it does
    crash: str | None = None  # the exception the last build raised, if it raised
    config_errors: tuple[str, ...] = ()  # site.toml errors; the last good config is in use
    errors: int = 0
    warnings: int = 0
    problems: tuple[str, ...] = ()  # the first errors of the last build, formatted


class LiveReload:
    """The build number, shared between the rebuild thread and the requests.

    A request for ``/__qipu/wait?since=N`` blocks in :meth:`wait` until the
    number exceeds N. ``session`` changes each time the server starts, so a
    page opened before a restart reloads too, even though the number starts
    again from 1.
    """

    def __init__(self) -> None:
        self.session = secrets.token_hex(8)
        self._status = BuildStatus()
        self._changed = threading.Condition()
        self._closed = False

    @property
    def status(self) -> BuildStatus:
        return self._status

    def publish(self, **changes: Any) -> BuildStatus:
        """Record a finished build (with what changed) and wake every waiting page."""
        with self._changed:
            self._status = replace(self._status, number=self._status.number + 1, **changes)
            self._changed.notify_all()
            return self._status

    def update(self, **changes: Any) -> None:
        """Change what the next pages are told, without making open pages reload."""
        with self._changed:
            self._status = replace(self._status, **changes)

    def wait(self, since: int, timeout: float) -> BuildStatus:
        """The status once its number exceeds ``since``, or after ``timeout`` seconds."""
        with self._changed:
            self._changed.wait_for(lambda: self._closed or self._status.number > since, timeout)
            return self._status

    def close(self) -> None:
        """Release every waiting request: the server is stopping."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()


# --------------------------------------------------------------------------
# The site: config, builder and the build loop


@dataclass(slots=True)
class ConfigArgs:
    """What the command line gave; reloading ``site.toml`` applies them again."""

    path: Path | None
    root: Path
    content: Path | None
    output: Path | None
    cache: Path | None = None


class Site:
    """The config in use, its builder, and one method to (re)build.

    Only the rebuild thread calls :meth:`rebuild` (and ``serve`` the first
    :meth:`build`, before that thread starts), so builds never overlap.
    """

    def __init__(self, args: ConfigArgs, config: Config, live: LiveReload, log: Log, jobs: int | None) -> None:
        self.args = args
        self.config = config
        self.live = live
        self.log = log
        self.jobs = jobs
        self.builder = self._make_builder(config)
        self.on_config_change: Callable[[Config], None] | None = None
        self._logged: set[Diagnostic] = set()  # what the last build logged

    @property
    def output_dir(self) -> Path:
        return self.config.output_dir

    @property
    def config_file(self) -> Path:
        """The ``site.toml`` to watch: the one in use, or the one that may appear."""
        if self.config.path is not None:
            return Path(self.config.path).resolve()
        # Not there yet: where load_config would look (a relative --config is from root).
        return (Path(self.args.root) / (self.args.path or "site.toml")).resolve()

    def watched_dirs(self) -> list[tuple[Path, bool]]:
        """(folder, recursive) pairs for the observers."""
        return [
            (Path(self.config.content_dir).resolve(), True),
            *((folder, True) for folder in (self.config.theme_templates, self.config.theme_static) if folder),
            (templates_dir(), True),
            (static_dir(), True),
            (self.config_file.parent, False),  # site.toml alone is filtered in the handler
        ]

    def _make_builder(self, config: Config) -> Builder:
        from generator.build import Builder

        return Builder(config, jobs=self.jobs)

    def build(self, changed: set[Path] | None = None) -> BuildStatus:
        """Build once; never raises. The result is published to the open pages."""
        started = time.monotonic()
        try:
            report = self.builder.build(changed)
        except Exception as exc:  # a bug in Qipu: keep the last good site and say so
            self.log(f"The build failed after {time.monotonic() - started:.2f} s (a bug in Qipu):")
            self.log(traceback.format_exc().rstrip())
            self.log("Still serving the last good site.")
            return self.live.publish(crash=f"{type(exc).__name__}: {exc}")
        self._log_report(report)
        problems = [d for d in report.diagnostics if d.severity == "error"]
        return self.live.publish(
            crash=None,
            errors=report.errors,
            warnings=report.warnings,
            # The banner is part of the page: in the page's language (the log stays English).
            problems=tuple(d.format(self.config.language) for d in problems[:SHOWN_DIAGNOSTICS]),
        )

    def rebuild(self, changed: set[Path]) -> BuildStatus:
        """Rebuild after the given files changed, reloading ``site.toml`` first if it did."""
        names = sorted(_display(p, self.args.root) for p in changed)
        more = f" and {len(names) - 3} more" if len(names) > 3 else ""
        self.log(f"Changed: {', '.join(names[:3])}{more}. Rebuilding...")
        if self.config_file in changed:
            self.reload_config()
            return self.build()
        # The builder looks again only at the files that were saved.
        return self.build(changed)

    def reload_config(self) -> None:
        """Load ``site.toml`` again; with errors, keep the last good config and show them."""
        from generator.config import load_config

        args = self.args
        try:
            config, diagnostics = load_config(
                args.path, root=args.root, content=args.content, output=args.output, cache=args.cache
            )
        except Exception as exc:  # a bug in the config loader: same as a config error
            self.log(traceback.format_exc().rstrip())
            diagnostics = []
            errors = [f"{type(exc).__name__}: {exc}"]
        else:
            errors = [d.format(config.language) for d in diagnostics if d.severity == "error"]
        for d in diagnostics:
            self.log(d.format())
        if errors:
            self.log("site.toml has errors: serving with the last good configuration.")
            self.live.update(config_errors=tuple(errors))
            return
        self.builder = self._make_builder(config)  # first: if this raises, nothing changed
        old, self.config = self.config, config
        self.live.update(config_errors=())
        self.log("Reloaded the configuration.")
        if self.on_config_change is not None and _folders(old) != _folders(config):
            self.on_config_change(config)

    def _log_report(self, report: BuildReport) -> None:
        """The errors and warnings not logged by the previous build, then the counts.

        After a save, the organiser wants to see what that save broke, not
        the whole archive's warnings again; the counts say how many remain.
        """
        found = [d for d in report.diagnostics if d.severity in ("error", "warning")]
        new = [d for d in found if d not in self._logged]
        self._logged = set(found)
        for d in new[:SHOWN_DIAGNOSTICS]:
            self.log(d.format())
        if len(new) > SHOWN_DIAGNOSTICS:
            self.log(f"... and {len(new) - SHOWN_DIAGNOSTICS} more errors and warnings (qipu check lists them all).")
        self.log(
            f"Built in {report.seconds:.2f} s: {_plural(report.written, 'file')} written, "
            f"{_plural(report.reparsed, 'record')} read; {_plural(report.errors, 'error')}, "
            f"{_plural(report.warnings, 'warning')}."
        )


def _folders(config: Config) -> tuple[Path | None, ...]:
    """The folders to watch: a reloaded site.toml that moves one of them reschedules the watches."""
    return (
        Path(config.content_dir).resolve(), Path(config.output_dir).resolve(), config.path,
        config.theme_templates, config.theme_static,
    )


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _display(path: Path, root: Path) -> str:
    try:
        return path.relative_to(Path(root).resolve()).as_posix()
    except ValueError:
        return str(path)


# --------------------------------------------------------------------------
# Watching and debouncing


class Rebuilder:
    """Collects changed paths and rebuilds once saves have been quiet for a while.

    Editors save in bursts (write a temp file, rename it over the original,
    touch a backup); waiting for ``quiet`` seconds without a new change turns
    each burst into one rebuild. Changes that arrive during a build start
    another one after it.
    """

    def __init__(self, site: Site, quiet: float = QUIET_SECONDS) -> None:
        self.site = site
        self.quiet = quiet
        self._pending: set[Path] = set()
        self._last = 0.0
        self._stopping = False
        self._wake = threading.Condition()
        # A daemon thread: Ctrl-C must not wait for a long build to finish.
        self._thread = threading.Thread(target=self._run, name="qipu-rebuild", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def changed(self, paths: Iterable[Path]) -> None:
        with self._wake:
            self._pending.update(paths)
            self._last = time.monotonic()
            self._wake.notify()

    def stop(self, timeout: float = 5.0) -> None:
        with self._wake:
            self._stopping = True
            self._wake.notify()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _next_batch(self) -> set[Path] | None:
        """Block until a burst of changes is over; None when stopping."""
        with self._wake:
            while not self._stopping:
                if not self._pending:
                    self._wake.wait()
                    continue
                remaining = self._last + self.quiet - time.monotonic()
                if remaining <= 0:
                    batch, self._pending = self._pending, set()
                    return batch
                self._wake.wait(remaining)
            return None

    def _run(self) -> None:
        while (batch := self._next_batch()) is not None:
            try:
                self.site.rebuild(batch)
            except Exception:  # never let the watcher die: the next save must still work
                self.site.log(traceback.format_exc().rstrip())


def is_ignored(path: Path, output_dir: Path, cache_dir: Path | None = None, content_dir: Path | None = None) -> bool:
    """True for files whose change must not rebuild: output, cache, and what the scan never reads.

    A file the scan passes over (``scan.ignored``: an editor's backup, a
    swap file, a hidden file), or one in a content folder it does not walk
    (``scan.ignored_folder``), changes nothing the build reads.
    """
    if any(part in IGNORED_DIRS for part in path.parts):
        return True
    if scan.ignored(path.name):
        return True
    if content_dir is not None and content_dir in path.parents:
        if any(scan.ignored_folder(part) for part in path.relative_to(content_dir).parts[:-1]):
            return True
    return any(folder is not None and (path == folder or folder in path.parents) for folder in (output_dir, cache_dir))


class _ChangeHandler(FileSystemEventHandler):
    """Turns watchdog events into changed paths for the :class:`Rebuilder`."""

    def __init__(self, site: Site, rebuilder: Rebuilder) -> None:
        self.site = site
        self.rebuilder = rebuilder

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type not in _CHANGE_TYPES:
            return
        if event.is_directory and event.event_type == EVENT_TYPE_MODIFIED:
            return  # a file in it changed: that file has its own event
        paths = [event.src_path, getattr(event, "dest_path", "")]
        relevant = [p for p in (self._relevant(_as_path(raw)) for raw in paths if raw) if p is not None]
        if relevant:
            self.rebuilder.changed(relevant)

    def _relevant(self, path: Path) -> Path | None:
        config = self.site.config
        config_file = self.site.config_file
        if path == config_file:
            return path  # whatever its name (a hidden site.toml is the organiser's choice)
        folders = (Path(config.output_dir).resolve(), Path(config.cache_dir).resolve(), Path(config.content_dir).resolve())
        if is_ignored(path, *folders):
            return None
        if path.parent == config_file.parent and not self._inside_recursive_watch(path):
            # The config folder is watched alone for site.toml.
            return path if path.name == config_file.name else None
        return path

    def _inside_recursive_watch(self, path: Path) -> bool:
        return any(recursive and (folder in path.parents) for folder, recursive in self.site.watched_dirs())


def _as_path(raw: str | bytes) -> Path:
    return Path(os.fsdecode(raw))


class Watcher:
    """The watchdog observer, scheduled on the folders the site is built from."""

    def __init__(self, site: Site, rebuilder: Rebuilder) -> None:
        self.site = site
        self.handler = _ChangeHandler(site, rebuilder)
        self.observer = Observer()
        self.observer.daemon = True

    def start(self) -> None:
        self._schedule()
        self.observer.start()

    def reschedule(self, config: Config | None = None) -> None:
        """Watch the folders of a reloaded config (content folder moved, ...)."""
        self.observer.unschedule_all()
        self._schedule()

    def stop(self) -> None:
        self.observer.stop()
        if self.observer.is_alive():
            self.observer.join(5.0)

    def _schedule(self) -> None:
        for folder, recursive in _minimal_watches(self.site.watched_dirs()):
            if not folder.is_dir():
                self.site.log(f"Not watching {folder}: no such folder.")
                continue
            try:
                self.observer.schedule(self.handler, str(folder), recursive=recursive, event_filter=_WATCHED_EVENTS)
            except OSError as exc:  # e.g. the inotify watch limit
                self.site.log(f"Cannot watch {folder}: {exc}")


def _minimal_watches(watches: list[tuple[Path, bool]]) -> list[tuple[Path, bool]]:
    """Drop watches already covered by a recursive watch on a parent (or the same) folder."""
    kept: list[tuple[Path, bool]] = []
    for folder, recursive in sorted(set(watches), key=lambda w: (len(w[0].parts), not w[1])):
        covered = any(r and (f == folder or f in folder.parents) for f, r in kept)
        if not covered:
            kept.append((folder, recursive))
    return kept


# --------------------------------------------------------------------------
# The server


RELOAD_SCRIPT = """<script>
/* Added by qipu serve; not in the built files. Reloads when the site is rebuilt. */
(function () {
  var since = %(number)d, session = "%(session)s", key = "qipu-serve-scroll:" + location.pathname;
  try {
    var y = sessionStorage.getItem(key);
    if (y !== null) {
      sessionStorage.removeItem(key);
      window.addEventListener("load", function () { window.scrollTo(0, +y); });
    }
  } catch (e) {}
  function reload() {
    try { sessionStorage.setItem(key, String(window.scrollY)); } catch (e) {}
    location.reload();  /* keeps the #ply=N hash */
  }
  function poll() {
    fetch("%(wait)s?since=" + since, { cache: "no-store" })
      .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.json(); })
      .then(function (s) {
        if (s.session !== session || s.build > since) { reload(); } else { poll(); }
      })
      .catch(function () { setTimeout(poll, 1000); });  /* server restarting: try again */
  }
  poll();
})();
</script>
"""

BANNER_STYLE = (
    "position:fixed;left:0;right:0;bottom:0;z-index:2147483647;max-height:40vh;overflow:auto;"
    "margin:0;padding:.6em 2.5em .6em 1em;font:14px/1.4 system-ui,sans-serif;text-align:left;"
    "color:#fff;background:%s;box-shadow:0 -2px 6px rgba(0,0,0,.3)"
)


def reload_snippet(status: BuildStatus, session: str) -> str:
    """The HTML added before ``</body>``: the banner (if any) and the reload script."""
    script = RELOAD_SCRIPT % {"number": status.number, "session": session, "wait": WAIT_PATH}
    return banner(status) + script


def banner(status: BuildStatus) -> str:
    """A banner at the bottom of the page for a crashed build, config or record errors."""
    parts: list[str] = []
    if status.crash:
        parts.append(
            "<p style='margin:.2em 0'><strong>The last build failed</strong> (a bug in Qipu): "
            f"<code>{html.escape(status.crash)}</code>. This is the last good site; "
            "the terminal shows the traceback.</p>"
        )
    if status.config_errors:
        parts.append(
            "<p style='margin:.2em 0'><strong>site.toml has errors</strong>; "
            "the site is built with the last good configuration.</p>" + _list(status.config_errors)
        )
    if status.errors:
        summary = f"{_plural(status.errors, 'error')} in the records"
        if status.warnings:
            summary += f", {_plural(status.warnings, 'warning')}"
        parts.append(f"<details><summary>{html.escape(summary)}</summary>{_list(status.problems)}</details>")
    if not parts:
        return ""
    colour = "#b00020" if status.crash or status.config_errors else "#8a4b00"
    close = (
        "<button type='button' aria-label='Close' onclick='this.parentNode.remove()' "
        "style='position:absolute;top:.3em;right:.5em;color:inherit;background:none;border:0;"
        "font-size:1.4em;cursor:pointer'>\u00d7</button>"
    )
    style = BANNER_STYLE % colour
    return f'<div id="qipu-serve-banner" role="alert" style="{style}">{close}{"".join(parts)}</div>\n'


def _list(lines: Iterable[str]) -> str:
    items = "".join(f"<li><code>{html.escape(line)}</code></li>" for line in lines)
    return f"<ul style='margin:.2em 0;padding-left:1.5em'>{items}</ul>" if items else ""


def inject(page: bytes, snippet: str) -> bytes:
    """The page with ``snippet`` before its last ``</body>`` (or at the end if it has none)."""
    at = page.lower().rfind(b"</body>")
    extra = snippet.encode("utf-8")
    if at < 0:
        return page + extra
    return page[:at] + extra + page[at:]


# A client that went away mid-answer (a reload, a closed tab, a stopped
# download): ConnectionResetError, BrokenPipeError, ConnectionAbortedError,
# and socket timeouts. Nothing to answer and nothing to report.
DISCONNECTS = (ConnectionError, TimeoutError)

HOST_REFUSED = (
    "Refused: the Host header names another server. qipu serve answers only to localhost, "
    "IP addresses and the name given with --host (a guard against DNS rebinding).\n"
)

# The type of a file comes from its extension alone, the same on every
# machine (mimetypes would read the system's tables, and the Windows
# registry). Pages are sent by _send_html with their charset; original
# records keep their own encoding (often GB18030), so .txt has no charset.
CONTENT_TYPES = {
    ".css": "text/css",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".json": "application/json",
    ".jsonl": "application/json",
    ".map": "application/json",
    ".webmanifest": "application/manifest+json",
    ".txt": "text/plain",
    ".xml": "application/xml",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".avif": "image/avif",
    ".ico": "image/x-icon",
    ".woff": "font/woff",
    ".woff2": "font/woff2",
    ".ttf": "font/ttf",
    ".otf": "font/otf",
    ".pdf": "application/pdf",
    ".zip": "application/zip",
    ".gz": "application/gzip",
    ".sgf": "application/x-go-sgf",
}
UNKNOWN_TYPE = "application/octet-stream"  # with nosniff, a browser downloads it rather than guess


def content_type(path: Path) -> str:
    """The Content-Type of a file, from its extension only."""
    return CONTENT_TYPES.get(path.suffix.lower(), UNKNOWN_TYPE)


# A Host header: a bracketed IPv6 literal or a name (or IPv4 literal), then
# an optional port. Names are ASCII: browsers send IDNs as punycode.
_HOST = re.compile(r"(?:\[(?P<ip6>[0-9A-Fa-f:.]+)\]|(?P<name>[A-Za-z0-9._-]+))(?::[0-9]{0,5})?")

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


def host_allowed(header: str, names: frozenset[str], bound: IPAddress | None) -> bool:
    """Whether a Host header names this server: a guard against DNS rebinding.

    A page on evil.example whose name the attacker re-points at 127.0.0.1
    reaches this server with ``Host: evil.example``; a real visitor names it
    by ``localhost``, the name given with ``--host`` (``names``) or an IP
    address, which an attacker cannot re-point. IP literals allowed are the
    loopback ones and the bound address, or any when bound to all addresses.
    The port is not checked: a forwarded port (ssh -L) arrives with another.
    """
    match = _HOST.fullmatch(header.strip())
    if match is None:
        return False
    name = (match["ip6"] or match["name"]).lower().rstrip(".")
    try:
        ip = ipaddress.ip_address(name)
    except ValueError:
        return match["ip6"] is None and name in names
    if match["ip6"] is not None and ip.version != 6:
        return False
    return ip.is_loopback or bound is None or bound.is_unspecified or ip == bound


def _ip(text: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


NOT_FOUND_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Not found</title></head>
<body><h1>Not found</h1><p>Nothing at <code>%s</code> in the built site%s.</p>
<p><a href="/index.html">Home</a></p></body></html>
"""


class PreviewServer(ThreadingHTTPServer):
    """An HTTP server for the output folder, with the live-reload endpoints.

    ``port`` is the real port (useful with port 0). :meth:`stop` may be
    called from any other thread; ``serve`` then cleans up and returns 0.
    """

    daemon_threads = True  # long polls must not keep the process alive
    # socketserver listens with a backlog of 5: a page and its parts opened in
    # a few tabs at once overflow it, and the connections beyond wait for the
    # client to retry (1 s, then 3 s, 7 s ...). The kernel caps this at
    # net.core.somaxconn.
    request_queue_size = 128

    def __init__(self, host: str, port: int, site: Site) -> None:
        if ":" in host:
            self.address_family = AF_INET6
        self.site = site
        self.live = site.live
        super().__init__((host, port), PreviewHandler)
        given = host.strip("[]").lower().rstrip(".")  # --host: a name the user chose to call it by
        self.host_names = frozenset({"localhost", given} - {""})
        self.bound_ip = _ip(str(self.server_address[0]))

    def accepts_host(self, headers: list[str] | None) -> bool:
        """Whether the request's Host headers name this server (see :func:`host_allowed`)."""
        if not headers:
            return True  # HTTP/1.0 clients may send none; browsers always send one
        if len(headers) > 1:
            return False  # a proxy and this server might read different ones
        return not headers[0].strip() or host_allowed(headers[0], self.host_names, self.bound_ip)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """After a handler raised, in its thread. socketserver's own prints the
        traceback to stderr; a client that went away is no error at all."""
        error = sys.exc_info()[1]
        if isinstance(error, DISCONNECTS):
            return
        # One entry, the traceback in it: the request was not answered, the server goes on.
        self.site.log(f"Error answering a request from {client_address[0]} (a bug in Qipu):\n"
                      f"{traceback.format_exc().rstrip()}")

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    @property
    def url(self) -> str:
        host = str(self.server_address[0])
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}/"

    @property
    def build_number(self) -> int:
        return self.live.status.number

    def stop(self) -> None:
        """Ask :meth:`serve_forever` to return, without waiting for it."""
        threading.Thread(target=self.shutdown, name="qipu-serve-stop", daemon=True).start()


class PreviewHandler(SimpleHTTPRequestHandler):
    """Serves files under the output folder only, and adds the reload script to HTML."""

    server: PreviewServer
    # A client that connects and then says nothing holds a thread: let it go
    # after this long without a byte (long polls wait on the build, not the socket).
    timeout = 60

    def handle_one_request(self) -> None:
        try:
            super().handle_one_request()
        except DISCONNECTS:
            # The browser went away mid-answer: the rest cannot be sent either.
            self.close_connection = True

    def end_headers(self) -> None:
        # Every answer, errors included: a browser must never take a record,
        # or anything else, for a page because its bytes look like one.
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def guess_type(self, path: str | os.PathLike[str]) -> str:
        return content_type(Path(path))

    def do_GET(self) -> None:
        self._respond(body=True)

    def do_HEAD(self) -> None:
        self._respond(body=False)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # one line per request drowns the build messages

    def _respond(self, body: bool) -> None:
        if not self.server.accepts_host(self.headers.get_all("Host")):
            return self._send_text(HTTPStatus.FORBIDDEN, HOST_REFUSED, body)
        url = urlsplit(self.path)
        if url.path == WAIT_PATH:
            return self._send_status(parse_qs(url.query), body)
        if url.path == STATUS_PATH:
            return self._send_json(self._status_json(self.server.live.status), body)
        self._send_path(url.path, url.query, body)

    def _send_path(self, path: str, query: str, body: bool) -> None:
        """The file at a URL path: a page, a file, a folder's index, or 403/404."""
        segments = _segments(path)
        if segments is None:
            return self._send_page(HTTPStatus.FORBIDDEN, "Forbidden", body)
        try:
            target = _inside(Path(self.server.site.output_dir).resolve(), segments)
        except (OSError, ValueError):  # a link removed while it was read, ...
            return self._send_not_found(path, body)
        if target is None:
            return self._send_page(HTTPStatus.FORBIDDEN, "Forbidden", body)  # a symlink out of the site
        info = _stat(target)
        if info is not None and stat.S_ISDIR(info.st_mode):
            if not path.endswith("/"):
                # Relative links inside an index.html need the slash. One
                # leading slash: "//name/" would send the browser to another
                # host (recent versions of http.server collapse them too).
                return self._send_redirect("/" + path.lstrip("/") + "/" + (f"?{query}" if query else ""))
            target = target / "index.html"
            info = _stat(target)
        if info is None or not stat.S_ISREG(info.st_mode):
            return self._send_not_found(path, body)
        self._send_file(target, body)

    def _send_file(self, path: Path, body: bool) -> None:
        ctype = self.guess_type(path)
        try:
            if path.suffix.lower() in (".html", ".htm"):
                return self._send_html(HTTPStatus.OK, path.read_bytes(), body)
            handle = path.open("rb")
        except OSError:  # removed by the build in between
            return self._send_not_found(self.path, body)
        with handle:
            size = os.fstat(handle.fileno()).st_size
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(size))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            if body:
                shutil.copyfileobj(handle, self.wfile)

    def _send_html(self, code: HTTPStatus, page: bytes, body: bool) -> None:
        live = self.server.live
        data = inject(page, reload_snippet(live.status, live.session))
        self.send_response(code)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if body:
            self.wfile.write(data)

    def _send_not_found(self, path: str, body: bool) -> None:
        status = self.server.live.status
        hint = " (the last build failed)" if status.crash else ""
        page = NOT_FOUND_PAGE % (html.escape(path), hint)
        # With the reload script, so the page appears by itself once it is built.
        self._send_html(HTTPStatus.NOT_FOUND, page.encode("utf-8"), body)

    def _send_page(self, code: HTTPStatus, message: str, body: bool) -> None:
        data = f"<!DOCTYPE html><title>{message}</title><h1>{message}</h1>\n".encode()
        self.send_response(code)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if body:
            self.wfile.write(data)

    def _send_text(self, code: HTTPStatus, message: str, body: bool) -> None:
        data = message.encode("utf-8")
        self.send_response(code)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if body:
            self.wfile.write(data)

    def _send_redirect(self, location: str) -> None:
        self.send_response(HTTPStatus.MOVED_PERMANENTLY)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _send_status(self, query: dict[str, list[str]], body: bool) -> None:
        try:
            since = int(query.get("since", ["-1"])[0])
        except ValueError:
            since = -1
        status = self.server.live.wait(since, POLL_SECONDS)
        self._send_json(self._status_json(status), body)

    def _status_json(self, status: BuildStatus) -> dict[str, Any]:
        return {
            "build": status.number,
            "session": self.server.live.session,
            "crash": status.crash,
            "config_errors": list(status.config_errors),
            "errors": status.errors,
            "warnings": status.warnings,
        }

    def _send_json(self, value: dict[str, Any], body: bool) -> None:
        data = json.dumps(value).encode("utf-8")
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if body:
            self.wfile.write(data)


def _segments(url_path: str) -> list[str] | None:
    """The path segments of a URL inside the site, or None if it tries to leave it.

    ``..`` anywhere (also percent-encoded), backslashes and NUL bytes are
    refused outright rather than normalised away. Colons are allowed: record
    file names hold times (``14:00``); a Windows drive letter cannot escape
    either, as the caller checks that the resolved file is inside the site.
    """
    try:
        path = unquote(url_path, errors="strict")
    except UnicodeDecodeError:
        return None
    if "\x00" in path or "\\" in path:
        return None
    segments = [s for s in path.split("/") if s not in ("", ".")]
    if ".." in segments:
        return None
    return segments


def _inside(root: Path, segments: list[str]) -> Path | None:
    """The real path of ``segments`` under ``root``, or None if a symlink leads out of it.

    ``os.path.realpath`` rather than ``Path.resolve``: on Python 3.11 the
    latter raises RuntimeError on a symlink loop; realpath leaves the rest
    of such a path as it is, and the stat that follows refuses it.
    """
    target = Path(os.path.realpath(root.joinpath(*segments)))
    return target if target == root or root in target.parents else None


def _stat(path: Path) -> os.stat_result | None:
    """The status of a file, or None for a path that is missing or that the file
    system refuses (a name over 255 bytes, a symlink loop, no permission ...)."""
    try:
        return path.stat()
    except (OSError, ValueError):
        return None


# --------------------------------------------------------------------------
# The command


def serve(
    config_path: Path | None,
    *,
    root: Path,
    content: Path | None,
    output: Path | None,
    cache: Path | None = None,
    host: str = "127.0.0.1",
    port: int = 8000,
    open_browser: bool = False,
    log: Log = print,
    jobs: int | None = None,
    quiet: float = QUIET_SECONDS,
    ready: Callable[[PreviewServer], None] | None = None,
) -> int:
    """Build the site, serve it at ``http://host:port/``, rebuild on every save.

    Returns 0 after Ctrl-C (or :meth:`PreviewServer.stop`), 2 when the server
    cannot listen (port in use). ``port=0`` picks a free port; ``ready`` is
    called with the running server (its real ``port`` and ``url``) once the
    first build is done and the folders are watched. ``quiet`` is the
    debounce: how long saves must pause before a rebuild.
    """
    from generator.config import load_config

    args = ConfigArgs(config_path, Path(root), content, output, cache)
    config, diagnostics = load_config(config_path, root=args.root, content=content, output=output, cache=cache)
    live = LiveReload()
    for d in diagnostics:
        log(d.format())
    config_errors = tuple(d.format(config.language) for d in diagnostics if d.severity == "error")
    if config_errors:
        # No earlier good config exists: go on with what could be read and
        # show the errors; saving a fixed site.toml reloads it.
        log("site.toml has errors: building with what could be read.")
        live.update(config_errors=config_errors)
    site = Site(args, config, live, log, jobs)

    try:
        server = PreviewServer(host, port, site)
    except OSError as exc:
        log(_listen_error(host, port, exc))
        return 2

    rebuilder = Rebuilder(site, quiet)
    watcher = Watcher(site, rebuilder)
    site.on_config_change = watcher.reschedule
    restore = _stop_on_sigterm()
    try:
        # Watch before the first build, so a save during it is not lost.
        watcher.start()
        log(f"Building {_display(Path(config.content_dir).resolve(), args.root)} "
            f"into {_display(Path(config.output_dir).resolve(), args.root)}...")
        site.build()
        rebuilder.start()
        log(f"Serving on {server.url} (Ctrl-C to stop)")
        if open_browser:
            _open_browser(server.url)
        if ready is not None:
            ready(server)
        server.serve_forever()
    except KeyboardInterrupt:
        log("Stopping.")
    finally:
        restore()
        watcher.stop()
        rebuilder.stop()
        live.close()
        server.server_close()
    return 0


def _stop_on_sigterm() -> Callable[[], None]:
    """Make SIGTERM (``kill``, a closing terminal, a service manager) stop like Ctrl-C.

    Returns what puts the previous handler back. Signals can only be handled
    in the main thread; elsewhere (tests) this does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)

    def restore() -> None:
        signal.signal(signal.SIGTERM, previous)

    return restore


def _listen_error(host: str, port: int, exc: OSError) -> str:
    if exc.errno == errno.EADDRINUSE:
        return (
            f"Cannot serve on {host}:{port}: the port is already in use "
            f"(another qipu serve?). Stop it, or choose another port with --port."
        )
    if exc.errno == errno.EACCES:
        return f"Cannot serve on {host}:{port}: permission denied (ports below 1024 need privileges). Try --port 8000."
    return f"Cannot serve on {host}:{port}: {exc.strerror or exc}."


def _open_browser(url: str) -> None:
    import webbrowser

    # In a thread: some browsers block until they exit.
    threading.Thread(target=webbrowser.open, args=(url,), name="qipu-browser", daemon=True).start()


__all__ = [
    "BuildStatus",
    "LiveReload",
    "PreviewServer",
    "Rebuilder",
    "Site",
    "Watcher",
    "inject",
    "is_ignored",
    "reload_snippet",
    "serve",
]
