"""Render and write: every output file whose inputs changed, and the keys of all of them.

Each output file has a key made of what it is made from; a file whose key
did not change and that is still there is neither rendered nor written.
Game pages (many) are keyed cheaply and rendered in the workers, from
the views in the cache (tasks.render_game); the other pages are keyed by digests of
the games they show, so a rebuild builds the context only of the pages
whose games changed.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import operator
import os
import pickle
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from generator.archive.summary import Summary
from generator.build.pool import POOL_THRESHOLD, Pool, in_background
from generator.build.records import read_games
from generator.build.state import BuildState, code_digest, digest
from generator.build.tasks import GameTask, Local, PageRenderer, RenderSetup, render_game, render_page, set_up, store_all
from generator.config import Config
from generator.pipeline import Processed
from generator.render import Theme, pages, urls
from generator.render.strings import strings as ui_strings
from generator.render.write import ADOPTED, MARKER, OWNED, write_if_changed
from generator.scan import Found, Refused, read_file

if TYPE_CHECKING:
    from generator.archive.compare import Comparison
    from generator.archive.index import Archive, Event, GameEntry


@dataclass(slots=True)
class EventPart:
    """What the write stage derives from one event's games."""

    jobs: list[pages.GameJob]
    listed: dict[str, str]  # game id -> digest of what pages other than its own show of the game (listed_digest)
    digest: str  # of all of them
    jsonl: bytes  # its lines of data/games.jsonl
    _pickled: bytes = b""

    def pickled(self) -> bytes:
        """The jobs, pickled once for the build state (a quick rebuild needs one of them)."""
        if not self._pickled:
            self._pickled = pickle.dumps(self.jobs, pickle.HIGHEST_PROTOCOL)
        return self._pickled


def site_info(config: Config, archive: Archive | None, md_pages: list[tuple[str, str, str]]) -> pages.SiteInfo:
    """Title, language and navigation; without an archive, just what a game view needs."""
    return pages.SiteInfo(
        title=config.title,
        language=config.language,
        strings=ui_strings(config.language),
        events=tuple(pages.Link(e.name, e.url) for e in archive.events) if archive else (),
        pages=tuple(pages.Link(title, url) for _, title, url in md_pages),
        base_url=config.base_url,
    )


def render_games(
    pool: Pool,
    local: Local,
    todo: Iterable[GameTask],
    setup: RenderSetup,
    expected: int,
    progress: Callable[[str, int, int], None] = lambda stage, done, total: None,
) -> list[tuple[str, bool, tuple[str, ...]]]:
    """Render game pages: in the workers when many, each from its view in the cache.

    ``todo`` may be a generator still keying later pages while the first
    are rendered; ``expected``: about how many it gives, at most.
    """
    pending = iter(todo)
    first = list(itertools.islice(pending, POOL_THRESHOLD))
    done = itertools.count(1)

    def arrived(result: tuple[str, bool, tuple[str, ...]]) -> tuple[str, bool, tuple[str, ...]]:
        progress("pages", next(done), expected)
        return result

    if not pool.wanted(len(first)):
        local.render = setup
        return [arrived(render_game(local, task)) for task in itertools.chain(first, pending)]
    pool.start(local)  # no record read again (a theme edit, say): the workers start now
    pool.each(store_all)  # the last views the workers made, to the cache: any worker may need them
    pool.each(set_up, setup)
    return pool.map(render_game, itertools.chain(first, pending), expected=expected, local=local, arrived=arrived)


class SiteWriter:
    """Writes the site of one configuration; keeps between builds what serves the next (``qipu serve``)."""

    def __init__(
        self,
        config: Config,
        theme: Theme,
        cache_dir: Path,
        pool: Pool,
        local: Local,
        progress: Callable[[str, int, int], None] = lambda stage, done, total: None,
    ) -> None:
        self.config = config
        self.theme = theme
        self.cache_dir = cache_dir
        self.pool = pool
        self.local = local
        self.progress = progress
        self.theme_digest = ""  # of templates and static files, taken at the start of each build
        self.parts: dict[str, tuple[tuple[Any, ...], EventPart]] = {}  # by event, while unchanged
        self._env: tuple[str, Any] | None = None

    def env(self) -> Any:
        """The Jinja environment, kept while the theme is unchanged (compiled templates are cached on disk too)."""
        if self._env is None or self._env[0] != self.theme_digest:
            # Jinja: imported only where templates are rendered.
            from generator.render.env import make_env

            self._env = (self.theme_digest, make_env(self.theme.templates, cache=self.cache_dir / "templates"))
        self.local.env = self._env[1]
        return self._env[1]

    def forget(self) -> None:
        self.parts, self._env = {}, None

    def render_setup(self, site: pages.SiteInfo, found: Found) -> RenderSetup:
        """What rendering game pages needs, for this process and for workers."""
        self.env()
        return RenderSetup(
            site=site,
            output=self.config.output_dir,
            content=self.config.content_dir,
            located=found.located,
            templates=self.cache_dir / "templates",
            theme=self.theme,
        )

    def write(
        self,
        archive: Archive,
        found: Found,
        state: BuildState,
        fresh: BuildState,
        existing: set[str],
        owned: bool,
        timings: dict[str, float],
    ) -> dict[str, tuple[str, bool]]:
        """Produce every output file; returns output path -> (key, written).

        A file is made again when its key changed, when it is missing, or
        when it is not in ``existing`` (the files on disk, less those
        touched by hand). Also leaves in ``fresh`` what a later quick
        rebuild needs (see generator.build.quick).
        """
        from generator.render.markdown import render_markdown

        config = self.config
        output = config.output_dir
        output.mkdir(parents=True, exist_ok=True)
        setup_started = time.perf_counter()
        results: dict[str, tuple[str, bool]] = {}
        theme = self.theme_digest
        made = self.local.made_dirs

        def emit(path: str, key: str, produce: Callable[[], bytes]) -> None:
            if state.outputs.get(path) == key and path in existing:
                results[path] = (key, False)
                return
            try:
                data = produce()
            except Refused:  # swapped for a link or grown since the scan: not published
                return
            results[path] = (key, write_if_changed(output / path, data, made))

        md_pages = []
        md_sources: list[tuple[str, str, str, str]] = []
        page_slugs = urls.unique_slugs([str(PurePosixPath(rel).with_suffix("")) for rel, _ in found.pages])

        def md_link(rel: str) -> Callable[[str], str | None]:
            """Links between Markdown pages: to the page each .md file became (all at the root)."""
            folder = PurePosixPath(rel).parent

            def resolve(target: str) -> str | None:
                name = os.path.normpath(str(folder / target)).replace(os.sep, "/")
                return urls.markdown_page(page_slugs[name]) if name in page_slugs else None

            return resolve

        for rel, path in found.pages:
            try:
                text = read_file(path, config.file_bytes).decode("utf-8", errors="replace")
            except Refused:  # swapped for a link or grown since the scan
                continue
            title, html = render_markdown(text, fallback_title=PurePosixPath(rel).stem, link=md_link(rel))
            url = urls.markdown_page(page_slugs[str(PurePosixPath(rel).with_suffix(""))])
            md_pages.append((rel, title, url))
            md_sources.append((rel, title, url, html))
        site = site_info(config, archive, md_pages)
        site_key = digest(code_digest(), theme, config.site_fingerprint(), site)
        env = self.env()

        later: list[tuple[str, str, Callable[[], dict[str, Any]]]] = []  # pages to render: path, template, context

        def render(path: str, template: str, inputs: object, context: Callable[[], dict[str, Any]]) -> None:
            """Render a page unless its inputs (a cheap stand-in for its context) are unchanged."""
            key = digest(site_key, template, inputs)
            results[path] = (key, False)
            if state.outputs.get(path) != key or path not in existing:
                later.append((path, template, context))

        # Game pages and the record files they name: many, so keyed cheaply
        # (without building their context) and rendered in the pool.
        by_source = {s.source: s for s in archive.summaries}

        timings["site setup"] = time.perf_counter() - setup_started
        started = time.perf_counter()
        game_fp: dict[str, str] = {}  # game id -> digest of what the other pages show of it
        parts: dict[str, EventPart] = {}
        memo: dict[str, tuple[tuple[Any, ...], EventPart]] = {}
        previous = state.outputs

        def stale_games() -> Iterator[GameTask]:
            """Each game page to render (and the record files it publishes), event by event.

            A generator: the workers render the first event's pages while
            the next event's are keyed.
            """
            for ev in archive.events:
                part = parts[ev.key] = self.event_part(ev, archive, memo)
                for job in part.jobs:
                    game_fp[job.id] = listed = part.listed[job.id]
                    key = page_key(site_key, listed, job)
                    results[job.url] = (key, False)
                    page_stale = previous.get(job.url) != key or job.url not in existing
                    copies: list[str] = []
                    for rel in (job.source, *job.duplicates):
                        path, sha = urls.record_file(rel), by_source[rel].sha256
                        if path in results:  # a file of several games: published with its first
                            continue
                        results[path] = (sha, False)
                        if previous.get(path) != sha or path not in existing:
                            copies.append(rel)
                    if page_stale or copies:
                        yield GameTask(job, tuple(copies))

        if archive.games:
            env.get_template("game.html")  # compiled once, here, into the cache the workers read
        setup = self.render_setup(site, found)
        for url, written, copied in render_games(self.pool, self.local, stale_games(), setup, len(archive.games), self.progress):
            results[url] = (results[url][0], written)
            for rel in copied:
                download = urls.record_file(rel)
                results[download] = (results[download][0], True)
        self.parts = memo  # every event's, now that the generator has run to its end
        self.pool.end(store=True)
        timings["game pages"] = time.perf_counter() - started
        started = time.perf_counter()

        # The other pages are keyed by digests of the games they show, so a
        # rebuild builds the context only of the pages whose games changed.
        team_urls = digest({name: t.url for name, t in archive.teams.items()})
        events = [(e.key, e.name, e.url) for e in archive.events]
        everything = digest([parts[e.key].digest for e in archive.events], team_urls, events)
        render(urls.HOME, "home.html", everything, functools.partial(pages.home, archive, site))
        for ev in archive.events:
            inputs = (ev.key, ev.name, ev.config, parts[ev.key].digest, team_urls)
            render(ev.url, "event.html", inputs, functools.partial(pages.event, ev, archive, site))
            for key, played in ev.matches.items():
                match_inputs = (ev.key, ev.name, key, played.url, parts[ev.key].digest, team_urls)
                render(played.url, "match.html", match_inputs, functools.partial(pages.match, ev, key, archive, site))
        event_names = {e.key: e.name for e in archive.events}
        for tm in archive.teams.values():
            team_inputs = (
                tm.name,
                tm.spellings,
                [game_fp[e.id] for e in tm.games],
                [(r.event.key, r.code, r.row) for r in tm.results],
                event_names,
                team_urls,
            )
            render(tm.url, "team.html", team_inputs, functools.partial(pages.team, tm, archive, site))
        render(urls.TEAMS, "teams.html", everything, functools.partial(pages.teams_index, archive, site))
        compared_files = sorted({src for pair in archive.compared for src in pair})
        render(
            urls.PROBLEMS,
            "problems.html",
            (
                archive.problems,
                {src: e.url for src, e in archive.by_source.items() if src in archive.problems},
                archive.compared,
                [by_source[src].sha256 for src in compared_files],
                team_urls,
            ),
            lambda: pages.problems(archive, site, self.comparisons(archive.compared, found)),
        )
        for _, title, url, html in md_sources:
            context = functools.partial(pages.markdown, title, html, url, site)
            render(url, "page.html", (title, html), context)

        # Event and team pages list hundreds of games each: in workers when
        # many, while this process writes the rest of the site.
        for template in sorted({template for _, template, _ in later}):
            env.get_template(template)
        renderer = PageRenderer(later, output, env, made)
        rendered = in_background(self.pool.jobs, render_page, renderer, list(range(len(later))), 16, self.pool.method)
        try:
            # Original records for download, static files, machine-readable data.
            for rel, on_disk, _ in found.records:
                sha = by_source[rel].sha256
                if sha and urls.record_file(rel) not in results:  # records that are no game (unreadable ...)
                    emit(urls.record_file(rel), sha, functools.partial(read_file, on_disk, config.file_bytes))
            for rel, path in found.assets:
                try:
                    st = path.stat()
                except OSError:  # removed since the scan
                    continue
                asset = functools.partial(read_file, path, config.file_bytes)
                emit(urls.asset_file(rel), digest(st.st_size, st.st_mtime_ns), asset)
            for name, path in self.theme.static_files().items():
                rel = "static/" + name
                emit(rel, digest(theme, rel), path.read_bytes)
            emit(".nojekyll", "nojekyll", lambda: b"")
            marker = OWNED if owned else ADOPTED
            emit(MARKER, digest(marker), lambda: marker)
            emit(urls.GAMES_JSONL, everything, lambda: b"".join(parts[e.key].jsonl for e in archive.events))
            fresh.jobs = {key: part.pickled() for key, part in parts.items()}
            fresh.site = pickle.dumps(site, pickle.HIGHEST_PROTOCOL)
        finally:
            pages_written = rendered()
        for path, written in pages_written:
            results[path] = (results[path][0], written)
        timings["other pages"] = time.perf_counter() - started
        fresh.site_key = site_key
        fresh.compared = frozenset(compared_files)
        return results

    def comparisons(self, pairs: list[tuple[str, str]], found: Found) -> list[Comparison]:
        """Copies of one game that disagree, read again to be shown side by side (few files)."""
        from generator.archive.compare import compare

        processed: dict[str, Processed] = {}

        def read(rel: str) -> Processed:
            if rel not in processed:
                data = read_file(found.path_of(self.config.content_dir, rel), self.config.file_bytes)
                processed[rel] = read_games(self.config, rel, data)[0]  # a file of one game (Archive.compared)
            return processed[rel]

        return [compare(read(a), read(b)) for a, b in pairs]

    def event_part(self, ev: Event, archive: Archive, memo: dict[str, tuple[tuple[Any, ...], EventPart]]) -> EventPart:
        """An event's game jobs, their digests and data lines, kept while the event is unchanged.

        Left in ``memo`` for the next build of this process (``qipu serve``).
        """
        names = sorted({t for e in ev.games for t in (e.first, e.second) if t})
        # The Indexer hands back the same Event object while its games are unchanged.
        signature = (ev, [(t, archive.teams[t].url) for t in names if t in archive.teams])
        known = self.parts.get(ev.key)
        if known is not None and known[0][0] is ev and known[0] == signature:
            part = known[1]
        else:
            jobs = [pages.game_job(entry, ev.name, ev.url, archive, ev.match_page_of.get(entry.url)) for entry in ev.games]
            listed = {job.id: listed_digest(job, entry.summary) for job, entry in zip(jobs, ev.games)}
            part = EventPart(jobs, listed, digest(list(listed.values())), games_jsonl(ev.games))
        memo[ev.key] = (signature, part)
        return part


def listed_digest(job: pages.GameJob, summary: Summary) -> str:
    """Digest of what pages other than its own show of a game.

    Its job without the record's cache key, and its summary without the
    record's hash: an edit that changes neither (a MARK value) changes that
    game's own page only, and the event, team and home pages keep their keys.
    """
    # One repr of it all: ten thousand games, in the parent while the workers wait.
    text = repr((_listed_fields(job), summary.index_fields()))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_listed_fields = operator.attrgetter(*(name for name in pages.GameJob.__slots__ if name != "key"))


def page_key(site_key: str, listed: str, job: pages.GameJob) -> str:
    """A game page's key: the site around it, the game as listed, the record's view."""
    return f"{site_key[:32]}{listed[:32]}{job.key}"


# One encoder for ten thousand lines: json.dumps() with options makes a new one per call.
_JSONL_ENCODER = json.JSONEncoder(ensure_ascii=False, sort_keys=True)


def games_jsonl(entries: Iterable[GameEntry]) -> bytes:
    """Lines of ``data/games.jsonl``: one per game, stable key order."""
    lines = []
    for entry in entries:
        s = entry.summary
        lines.append(
            _JSONL_ENCODER.encode(
                {
                    "id": entry.url.removeprefix("games/").removesuffix(".html"),
                    "code": s.code,
                    "event": entry.event_key,
                    "group": s.group or None,
                    "first": entry.first,
                    "second": entry.second,
                    "declared": s.declared,
                    "computed": s.computed,
                    "result": s.result,
                    "plies": s.plies,
                    "date": s.date,
                    "time": s.time,
                    "source": s.source,
                    "duplicates": entry.duplicates,
                    "url": entry.url,
                    "errors": [d.to_json() for d in entry.diagnostics if d.severity == "error"],
                    "warnings": [d.to_json() for d in entry.diagnostics if d.severity == "warning"],
                }
            )
        )
    if not lines:
        return b""
    text = "\n".join(lines) + "\n"
    # Line separators other than "\n" are valid in JSON strings, but readers
    # that split lines as Python's str.splitlines() does would cut a game in two.
    for separator in _OTHER_LINE_ENDS:
        if separator in text:
            text = text.replace(separator, f"\\u{ord(separator):04x}")
    return text.encode("utf-8")


_OTHER_LINE_ENDS = ("\x85", "\u2028", "\u2029")
