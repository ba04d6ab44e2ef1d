"""The work a build hands to its worker processes (generator.workers), and what a worker keeps.

Every task is a module-level function ``fn(local, task)``: ``local`` is the
:class:`Local` of the process it runs in (a worker's, or the parent's own
when the work is too little for workers), ``task`` a small picklable value.
A worker sets itself up from the :class:`Local` it was started with and
from what :func:`set_up` sends it; nothing reaches it through globals, so
workers may be forked or spawned alike.

A record's prepared view goes to the view cache, into the file of the
process that made it (a few dozen at a time); its game page, rendered by
whichever worker is free once the archive is indexed, reads it from there.
Keeping each view in the worker that made it and sending the page there
(as Qipu did before) gave no faster build and twice the memory per worker
(benchmarks/README.md).
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator import boards
from generator.archive.summary import Summary, summarize
from generator.cache import CacheDamaged, ViewStore, view_key
from generator.diagnostics import Diagnostic
from generator.model import Metadata, Source
from generator.pipeline import event_key, group_key, process_games, sha256
from generator.render import Theme, pages, urls
from generator.render.write import copy_if_changed, write_if_changed
from generator.scan import Refused, path_of, read_file

if TYPE_CHECKING:
    from jinja2 import Environment


@dataclass(slots=True, frozen=True)
class RecordTask:
    """Decode, parse and replay one record; prepare its game page's heavy parts."""

    rel: str  # as the site names it
    path: str  # on disk
    data: bytes | None  # None: the worker reads the file
    encoding: str | None  # an override from site.toml
    options: dict[str, dict[str, Any]]  # rule options of its event, by game code
    folder: Metadata | None  # what the event's folder says (its name)
    settings: str  # digest of everything besides its bytes that shapes its view
    file_bytes: int  # the largest record read
    plies: int  # the longest game replayed
    note: Diagnostic | None = None  # about its name (see scan.Found.notes)


# Views made and not stored yet, at most: stored together, in one transaction.
STORE_BATCH = 32


@dataclass(slots=True, frozen=True)
class GameTask:
    """Render and write one game page, and publish the record files it names."""

    job: pages.GameJob
    copies: tuple[str, ...]  # sources whose files go to files/ (the record and its duplicates)


@dataclass(slots=True, frozen=True)
class RenderSetup:
    """What rendering game pages needs besides each task: sent once to every worker (set_up)."""

    site: pages.SiteInfo
    output: Path
    content: Path
    located: dict[str, str]  # see scan.Found.located
    templates: Path  # the compiled templates' cache
    theme: Theme


@dataclass(slots=True)
class Local:
    """What one process keeps between the tasks of a build."""

    site: pages.SiteInfo  # what a game view needs of the site
    views_path: Path  # the view cache's folder
    number: int | None = None  # a worker's number, None in the parent
    unstored: list[tuple[str, Any]] = field(default_factory=list)  # views made here and not stored yet
    made_dirs: set[str] = field(default_factory=set)  # output folders known to exist
    render: RenderSetup | None = None
    env: Any = None  # the Jinja environment of ``render``
    _views: ViewStore | None = None

    def __getstate__(self) -> dict[str, Any]:
        # Spawned workers get only what sets them up; what a process made stays there.
        return {"site": self.site, "views_path": self.views_path}

    def __setstate__(self, state: dict[str, Any]) -> None:
        Local.__init__(self, state["site"], state["views_path"])

    def views(self) -> ViewStore:
        """This process's own connection to the view cache (SQLite's must not cross a fork)."""
        if self._views is None:
            self._views = ViewStore(self.views_path)
        return self._views

    def store_views(self) -> None:
        """Store the views made here and not stored yet, in this process's file of the cache."""
        if self.unstored:
            # Pickled, not compressed: zlib took a tenth of a cold build (the cache
            # holds about 20 kB per game instead of 5).
            dumps, protocol = pickle.dumps, pickle.HIGHEST_PROTOCOL
            self.views().put_many([(key, dumps(view, protocol)) for key, view in self.unstored], shard=self.number or 0)
            self.unstored.clear()

    def close(self) -> None:
        self.unstored.clear()
        if self._views is not None:
            self._views.close()
            self._views = None


def refused_summary(rel: str, diagnostic: Diagnostic) -> Summary:
    """A file in the content folder that was never read (see generator.scan): listed with why, never published."""
    return Summary(
        source=rel, sha256="", key="", code=None, event_key=event_key(rel), group=group_key(rel),
        first=None, second=None, declared=None, declared_header=None, declared_name=None, computed=None,
        rule=None, result=None, plies=0, moves=0, moves_key="", date=None, time=None, place=None,
        event_name=None, diagnostics=(diagnostic,),
    )  # fmt: skip


def process_record(local: Local, task: RecordTask) -> bytes:
    """Decode, parse and replay one record, and prepare its game pages' heavy parts (their views).

    Returns the summaries of its games (a tuple, one for a file of one
    game), pickled as the build state keeps them; the views go to the cache.
    """
    data = task.data
    if data is None:  # a record the last build did not know: read here, in parallel
        try:
            data = read_file(task.path, task.file_bytes)
        except Refused as refusal:  # swapped for a link or grown since the scan
            summary = refused_summary(task.rel, refusal.diagnostic(task.rel))
            return pickle.dumps((summary,), pickle.HIGHEST_PROTOCOL)
    digest = sha256(data)
    key = f"{digest[:40]}{task.settings[:16]}"
    played = process_games(
        Source(task.rel, data, digest), encoding=task.encoding, options=task.options, folder=task.folder, plies=task.plies
    )
    if task.note is not None:
        played[0].diagnostics.append(task.note)
    summaries = []
    for processed in played:
        game_key = view_key(key, processed.game)
        if processed.replay is not None and processed.code:
            local.unstored.append((game_key, pages.game_view(processed, local.site)))
            if len(local.unstored) >= STORE_BATCH:
                local.store_views()
        summaries.append(summarize(processed, game_key))
    return pickle.dumps(tuple(summaries), pickle.HIGHEST_PROTOCOL)


def set_up(local: Local, setup: RenderSetup) -> None:
    """What rendering game pages needs: the site around them, the folders, the templates."""
    # Jinja: imported only where templates are rendered.
    from generator.render.env import make_env

    local.env = make_env(setup.theme.templates, cache=setup.templates)
    local.render = setup


def render_game(local: Local, task: GameTask) -> tuple[str, bool, tuple[str, ...]]:
    """Render and write one game page, and publish the record files it names."""
    job, setup = task.job, local.render
    assert setup is not None, "set_up() first"
    store = local.views()
    try:
        raw = store.get(job.key)
    except KeyError:  # in a file another worker made after this one last looked
        store.close()
        try:
            raw = store.get(job.key)
        except KeyError:  # gone or damaged: the build starts again without the cache
            raise CacheDamaged(f"the view of {job.source} is not in the cache") from None
    try:
        view = pickle.loads(raw)
    except Exception as error:  # noqa: BLE001 - passed its check, yet not a view of this Qipu
        raise CacheDamaged(f"the view of {job.source} cannot be read") from error
    page = pages.game_page(local.env.get_template("game.html"), job, view, setup.site)
    output = setup.output
    written = write_if_changed(f"{output}/{job.url}", page, local.made_dirs)
    content, located = setup.content, setup.located
    copied = tuple(
        rel
        for rel in task.copies
        if publish(path_of(content, located, rel), f"{output}/{urls.record_file(rel)}", local.made_dirs)
    )
    return job.url, written, copied


def publish(record: str, target: str, made_dirs: set[str]) -> bool:
    """Offer a record for download (see copy_if_changed); False when it is no longer a regular file."""
    try:
        return copy_if_changed(record, target, made_dirs)
    except OSError:  # removed or made a link since the scan: not published (the next build sees it)
        return False


def store_all(local: Local, _: object = None) -> None:
    """Store every view made here and not stored yet."""
    local.store_views()


def drawings(local: Local, _: object = None) -> dict[str, str]:
    """The static board drawings this process made (see generator.boards)."""
    return boards.drawings()


@dataclass(slots=True)
class PageRenderer:
    """The local object of workers that render the pages other than game pages (fork only).

    ``pages``: (path, template, context) where context is a function the
    parent made and the forked worker inherits: building an event page's
    context is most of its cost, so it too runs in the worker.
    """

    pages: list[tuple[str, str, Callable[[], dict[str, Any]]]]
    output: Path
    env: Environment
    made_dirs: set[str] = field(default_factory=set)


def render_page(local: PageRenderer, index: int) -> tuple[str, bool]:
    """Render one of the other pages."""
    path, template, context = local.pages[index]
    html = local.env.get_template(template).render(context())
    return path, write_if_changed(local.output / path, html.encode("utf-8"), local.made_dirs)
