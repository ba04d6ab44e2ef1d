"""Orchestration: scan, process (cached, in parallel), index, render, write.

The :class:`Builder` keeps its cache between calls, so ``qipu serve`` can
call :meth:`Builder.build` after every save and only the changed records are
decoded, parsed and replayed again. The same cache lives on disk in
``.qipu-cache/`` so a fresh ``qipu build`` is incremental too:

* records are keyed by content hash, generator version and the settings that
  affect them (encoding override, rule options of their event);
* every output file is keyed by the inputs it was made from; a file whose key
  did not change and that still exists is neither rendered nor written.
"""

from __future__ import annotations

import functools
import gc
import hashlib
import json
import multiprocessing
import os
import pickle
import threading
import time
import zlib
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Callable, Iterable

from generator import __version__, games
from generator.archive import duplicates
from generator.archive.index import Archive, Event, GameEntry, Indexer, Summary
from generator.cache import ViewStore
from generator.config import Config
from generator.diagnostics import Diagnostic
from generator.model import Metadata, Source
from generator.archive.compare import Comparison, compare
from generator.pipeline import Processed, event_key, group_key, process, sha256
from generator.render import pages, urls
from generator.render.env import STATIC_DIR, TEMPLATES_DIR, make_env
from generator.render.markdown import render_markdown
from generator.render.strings import strings as ui_strings
from generator.render.write import copy_if_changed, remove_stale, write_if_changed

CACHE_FORMAT = f"{__version__}/1"
# Below this many records to (re)process or pages to render, a process pool costs more than it saves.
POOL_THRESHOLD = 200
# File times have a coarse clock tick: a file this close to a scan is read again.
RACY_NS = 2_000_000_000
ASSET_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".pdf", ".css", ".ico"}
PAGE_SUFFIXES = {".md", ".markdown"}


@dataclass(slots=True)
class BuildReport:
    records: int = 0
    games: int = 0
    pages: int = 0  # output files produced by this build
    written: int = 0  # of which written (bytes changed)
    unchanged: int = 0
    removed: int = 0
    reparsed: int = 0  # records decoded, parsed and replayed (not taken from the cache)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    seconds: float = 0.0
    published: bool = True  # False when --strict refused to write
    timings: dict[str, float] = field(default_factory=dict)  # seconds per stage, for --verbose and benchmarks

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == "error")

    @property
    def warnings(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == "warning")


@dataclass(slots=True)
class _Found:
    records: list[tuple[str, str, os.stat_result]]  # relative path, full path, stat
    pages: list[tuple[str, Path]]
    assets: list[tuple[str, Path]]


@dataclass(slots=True)
class _EventPart:
    """What the write stage derives from one event's games."""

    jobs: list[pages.GameJob]
    fps: dict[str, str]  # source -> digest of its game page's inputs
    digest: str  # of all of them
    jsonl: bytes  # its lines of data/games.jsonl


@dataclass(slots=True)
class _CacheState:
    """What the last build knew: record summaries by path, output keys by file."""

    records: dict[str, tuple[int, int, str, Summary]] = field(default_factory=dict)  # path -> size, mtime, key, summary
    outputs: dict[str, str] = field(default_factory=dict)  # output path -> key
    inputs: str = ""  # digest of every input of the last build that wrote the site
    scanned_ns: int = 0  # wall clock when that build looked at the files
    games: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)


def scan(content: Path, exclude: Iterable[Path] = ()) -> _Found:
    """Every file under the content folder, sorted; hidden files and folders skipped.

    ``exclude`` names folders to pass over, such as the output folder when it
    lies inside the content folder (``content = "."``). Uses ``os.scandir``:
    a rebuild of a large archive is mostly this walk.
    """
    found = _Found([], [], [])
    if not content.is_dir():
        return found
    skip = {os.path.realpath(p) for p in exclude}

    def walk(folder: str, prefix: str) -> None:
        with os.scandir(folder) as it:
            entries = sorted(it, key=lambda e: e.name)
        for entry in entries:
            name = entry.name
            if entry.is_dir():
                if not name.startswith((".", "_")) and os.path.realpath(entry.path) not in skip:
                    walk(entry.path, f"{prefix}{name}/")
                continue
            if name.startswith((".", "~")) or name.endswith(("~", ".swp", ".tmp")) or not entry.is_file():
                continue
            _classify(found, prefix + name, entry.path, entry.stat)

    walk(str(content), "")
    found.records.sort(key=lambda r: r[0])
    return found


def _classify(found: _Found, rel: str, path: str, stat: Callable[[], os.stat_result]) -> None:
    """A Markdown page, an asset to publish, or (anything else) a record."""
    suffix = os.path.splitext(rel)[1].lower()
    if suffix in PAGE_SUFFIXES:
        found.pages.append((rel, Path(path)))
    elif suffix in ASSET_SUFFIXES:
        found.assets.append((rel, Path(path)))
    else:
        found.records.append((rel, path, stat()))


def scan_one(path: Path, rel: str) -> _Found:
    """One file, classified as :func:`scan` would (hidden and temporary files skipped)."""
    found = _Found([], [], [])
    name = path.name
    if not (name.startswith((".", "~")) or name.endswith(("~", ".swp", ".tmp"))):
        _classify(found, rel, str(path), path.stat)
    return found


def _existing(output: Path) -> set[str]:
    """Every file in the output folder, as paths relative to it."""
    found: set[str] = set()

    def walk(folder: str, prefix: str) -> None:
        try:
            entries = list(os.scandir(folder))
        except FileNotFoundError:
            return
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                walk(entry.path, f"{prefix}{entry.name}/")
            else:
                found.add(prefix + entry.name)

    walk(str(output), "")
    return found


def _read(path: str | Path) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def _digest(*parts: object) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(repr(part).encode("utf-8"))
        h.update(b"\x00")
    return h.hexdigest()


def summarize(p: Processed, key: str) -> Summary:
    moves = p.moves_text()
    return Summary(
        source=p.source,
        sha256=p.sha256,
        key=key,
        code=p.code if p.replay is not None else None,
        event_key=event_key(p.source),
        group=group_key(p.source),
        first=p.meta.first,
        second=p.meta.second,
        declared=p.declared,
        declared_header=p.declared_header,
        declared_name=p.declared_name,
        computed=p.computed,
        rule=p.replay.decision.rule if p.replay and p.replay.decision else None,
        result=p.result,
        plies=p.plies,
        moves=len(moves),
        moves_key=duplicates.moves_key(p.code or "", moves) if moves else "",
        opening=duplicates.opening_key(p.code or "", moves) if moves else "",
        spellings=p.spellings(),
        date=p.meta.date,
        time=p.meta.time,
        place=p.meta.place,
        event_name=p.meta.event,
        diagnostics=tuple(sorted(set(p.diagnostics))),
    )


# Work done in pool processes. Arguments and results are small and picklable,
# except the prepared views, which come back as pickled bytes for the cache.

# relative path, full path, bytes (None: the worker reads them), encoding, options, folder metadata, settings digest
_RECORD_TASK = tuple[str, str, bytes | None, str | None, dict, Metadata | None, str]
# Set in the parent before a pool forks: site info, templates, folders, views.
_WORKER: dict[str, Any] = {}
_MADE_DIRS: set[str] = set()


def _process_task(task: _RECORD_TASK) -> tuple[Summary, bytes | None]:
    """Decode, parse and replay one record, then prepare its game page's heavy parts."""
    rel, path, data, encoding, options, folder, settings = task
    if data is None:  # a record the last build did not know: read here, in parallel
        data = _read(path)
    digest = sha256(data)
    key = f"{digest[:40]}{settings[:16]}"
    processed = process(Source(rel, data, digest), encoding=encoding, options=options, folder=folder)
    view = None
    if processed.replay is not None and processed.code:
        # Compressed here, in parallel: the views are mostly repeated markup and
        # travel through a pipe and into the cache file.
        view = zlib.compress(pickle.dumps(pages.game_view(processed, _WORKER["site"]), pickle.HIGHEST_PROTOCOL), 1)
    return summarize(processed, key), view


def _render_game_task(task: tuple[pages.GameJob, tuple[str, ...]]) -> tuple[str, bool, tuple[str, ...]]:
    """Render and write one game page, and publish the record files it names."""
    job, copies = task
    env, site, output = _WORKER["env"], _WORKER["site"], _WORKER["output"]
    view = pickle.loads(zlib.decompress(_WORKER["views"][job.key]))
    html = env.get_template("game.html").render(pages.game(job, view, site))
    written = write_if_changed(f"{output}/{job.url}", html.encode("utf-8"), _MADE_DIRS)
    content = _WORKER["content"]
    copied = tuple(
        rel for rel in copies
        if copy_if_changed(f"{content}/{rel}", f"{output}/{urls.record_file(rel)}", _MADE_DIRS)
    )
    return job.url, written, copied


def _render_page_task(index: int) -> tuple[str, bool]:
    """Render one of the other pages; the list of them is inherited from the parent."""
    path, template, context = _WORKER["pages"][index]
    html = _WORKER["env"].get_template(template).render(context())
    return path, write_if_changed(_WORKER["output"] / path, html.encode("utf-8"), _MADE_DIRS)


def _pool(jobs: int) -> ProcessPoolExecutor:
    # fork: workers inherit the parent's imports and the _WORKER globals at no cost.
    return ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("fork"))


class Builder:
    """Builds the site of one configuration; call :meth:`build` as often as needed."""

    def __init__(
        self,
        config: Config,
        *,
        jobs: int | None = None,
        strict: bool = False,
        cache_dir: Path | None = None,
    ) -> None:
        self.config = config
        self.jobs = max(1, jobs or os.cpu_count() or 1)
        self.strict = strict
        self.cache_dir = cache_dir or (config.root / ".qipu-cache")
        self._state: _CacheState | None = None
        self._views = ViewStore(self.cache_dir / "views.sqlite")
        self._cached_keys: set[str] | None = None
        self._fresh_views: dict[str, bytes] = {}
        self._indexer = Indexer()
        self._theme = ""  # digest of templates and static files, taken at the start of each build
        self._found: _Found | None = None  # the last scan, updated from `changed` by serve
        self._outputs_seen: set[str] | None = None  # the output files as the last build left them
        self._env: tuple[str, Any] | None = None
        self._saver: threading.Thread | None = None
        self._parts: dict[str, tuple[tuple, _EventPart]] = {}

    def _scan(self, changed: Iterable[Path] | None) -> tuple[_Found, Callable[[str], bool]]:
        """This build's files, and which records are known not to have changed."""
        content = self.config.content_dir
        known = self._found
        rels: set[str] = set()
        if changed is not None and known is not None:
            files = {r[0] for r in known.records} | {p[0] for p in known.pages} | {a[0] for a in known.assets}
            for path in changed:
                try:
                    rel = Path(path).resolve().relative_to(content.resolve()).as_posix()
                except ValueError:
                    continue  # a template or site.toml: no file of the content changed
                gone_folder = not Path(path).exists() and rel not in files  # a folder moved or deleted
                if Path(path).is_dir() or gone_folder or not rel or rel.split("/")[0].startswith((".", "_")):
                    rels = set()
                    known = None  # a folder changed: walk everything
                    break
                rels.add(rel)
        if changed is None or known is None:
            self._found = scan(content, [self.config.output_dir])
            self._outputs_seen = None
            return self._found, lambda rel: False
        found = _Found(
            [r for r in known.records if r[0] not in rels],
            [p for p in known.pages if p[0] not in rels],
            [a for a in known.assets if a[0] not in rels],
        )
        for rel in sorted(rels):
            path = content / rel
            if path.is_file():
                one = scan_one(path, rel)
                found.records += one.records
                found.pages += one.pages
                found.assets += one.assets
        found.records.sort(key=lambda r: r[0])
        found.pages.sort()
        found.assets.sort()
        self._found = found
        return found, lambda rel: rel not in rels

    def wait(self) -> None:
        """Wait until the last build's state is on disk."""
        if self._saver is not None:
            self._saver.join()
            self._saver = None

    # -- cache ---------------------------------------------------------------

    def _state_file(self) -> Path:
        return self.cache_dir / f"state-{_digest(str(self.config.content_dir), str(self.config.output_dir))[:16]}.pickle"

    def _load_state(self) -> _CacheState:
        if self._state is None:
            self._state = _CacheState()
            try:
                with open(self._state_file(), "rb") as handle:
                    version, state = pickle.load(handle)
                if version == _code_digest():
                    self._state = state
                else:
                    # Another Qipu wrote it: start afresh, but remember which files
                    # it wrote, so pages of records since removed or renamed are
                    # still deleted. Their keys cannot match this version's pages
                    # (they digest the code), so every page is rendered again.
                    self._state = _CacheState(outputs=dict(state.outputs))
            except (OSError, pickle.PickleError, EOFError, ValueError, TypeError, AttributeError):
                pass
        return self._state

    def _save_state(self, state: _CacheState) -> None:
        path = self._state_file()
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        with open(tmp, "wb") as handle:
            pickle.dump((_code_digest(), state), handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)

    # -- stages --------------------------------------------------------------

    def options_for(self, event: str) -> dict[str, dict[str, Any]]:
        return {code: dict(self.config.rules_for(event, code).options) for code in games.codes()}

    def folder_meta(self, event: str) -> Metadata | None:
        if event in self.config.events:
            return Metadata(event=self.config.events[event].name)
        return None

    def process_records(
        self, found: _Found, state: _CacheState, trusted: Callable[[str], bool] = lambda rel: False
    ) -> tuple[list[Summary], dict[str, tuple[int, int, str, Summary]], int]:
        """Summaries for every record, from the cache where the inputs did not change.

        ``trusted(rel)`` says a record is known unchanged since the last build
        of this Builder (``qipu serve`` knows what was saved): it is not checked.
        """
        options_by_event: dict[str, tuple[dict, str]] = {}
        # A file modified less than this before the last scan may have been
        # saved again since without its size or time changing ("racy" files).
        racy = state.scanned_ns - RACY_NS
        summaries: dict[str, Summary] = {}
        fresh: dict[str, tuple[int, int, str, Summary]] = {}
        tasks: list[_RECORD_TASK] = []
        stats: dict[str, os.stat_result] = {}
        for rel, path, st in found.records:
            if trusted(rel):
                old = state.records.get(rel)
                if old is not None:
                    summaries[rel] = old[3]
                    fresh[rel] = old
                    continue
            event = event_key(rel)
            if event not in options_by_event:
                opts = self.options_for(event)
                # Everything that shapes a record's cached view besides its bytes and path.
                options_by_event[event] = (
                    opts,
                    _digest(_code_digest(), self.config.language, sorted((k, sorted(v.items())) for k, v in opts.items())),
                )
            options, options_digest = options_by_event[event]
            encoding = self.config.encoding_for(rel)
            settings = hashlib.sha256(f"{options_digest}\0{rel}\0{encoding}".encode()).hexdigest()
            old = state.records.get(rel)
            if (
                old
                and old[0] == st.st_size
                and old[1] == st.st_mtime_ns
                and st.st_mtime_ns < racy  # else saved in the same clock tick as the last scan: read it
                and old[3].key.endswith(settings[:16])
            ):
                summaries[rel] = old[3]
                fresh[rel] = old
                continue
            data = None
            if old:  # known before: perhaps only touched, same bytes
                data = _read(path)
                key = f"{sha256(data)[:40]}{settings[:16]}"
                if old[3].key == key and self._has_view(key):
                    fresh[rel] = (st.st_size, st.st_mtime_ns, key, old[3])
                    summaries[rel] = old[3]
                    continue
            stats[rel] = st
            tasks.append((rel, path, data, encoding, options, self.folder_meta(event), settings))
        _WORKER["site"] = self._site_info(None, [])
        done = self._run(_process_task, tasks)
        views: list[tuple[str, bytes]] = []
        for summary, view in done:
            st = stats[summary.source]
            fresh[summary.source] = (st.st_size, st.st_mtime_ns, summary.key, summary)
            summaries[summary.source] = summary
            if view is not None:
                views.append((summary.key, view))
        if views:
            self._views.put_many(views)
            self._known_keys().update(key for key, _ in views)
        self._fresh_views = dict(views)
        return [summaries[rel] for rel, _, _ in found.records], fresh, len(tasks)

    def _has_view(self, key: str) -> bool:
        # One look-up per touched record; all keys at once only once they are needed anyway.
        return key in self._cached_keys if self._cached_keys is not None else self._views.has(key)

    def _known_keys(self) -> set[str]:
        if self._cached_keys is None:
            self._cached_keys = self._views.keys()
        return self._cached_keys

    def _run(self, fn: Callable, tasks: list, threshold: int = POOL_THRESHOLD) -> list:
        if len(tasks) < threshold or self.jobs == 1:
            return [fn(task) for task in tasks]
        # Small chunks: the last one leaves the other workers idle, and a chunk of
        # 1/16 of ten thousand records is most of a second of work.
        chunk = max(1, min(64, len(tasks) // (self.jobs * 8)))
        with _pool(self.jobs) as pool:
            return list(pool.map(fn, tasks, chunksize=chunk))

    def build(self, changed: Iterable[Path] | None = None) -> BuildReport:
        """Build the site (see :meth:`_build`), with the cyclic garbage collector paused.

        A build makes millions of small objects that live until it ends and
        form no cycles worth collecting; a collector pass would walk them all.
        """
        enabled = gc.isenabled()
        gc.disable()
        try:
            return self._build(changed)
        finally:
            if enabled:
                gc.enable()

    def _build(self, changed: Iterable[Path] | None = None) -> BuildReport:
        """Build the site; returns what happened. Never raises for bad records.

        ``changed``: the files saved since this Builder's last build, when the
        caller knows them (``qipu serve`` does): only those are looked at
        again. None: every file is checked (a plain ``qipu build``).
        """
        started = time.perf_counter()
        config = self.config
        report = BuildReport()
        self.wait()
        state = self._load_state()
        scanned_ns = time.time_ns()
        found, trusted = self._scan(changed)
        report.timings["scan"] = time.perf_counter() - started
        summaries, fresh_records, report.reparsed = self.process_records(found, state, trusted)
        report.timings["process"] = time.perf_counter() - started - sum(report.timings.values())
        self._theme = _theme_digest()  # read once per build: the inputs digest and the page keys use it
        inputs = self._inputs(found, summaries)
        report.records = len(summaries)
        if not report.reparsed and inputs == state.inputs and _existing(config.output_dir) >= state.outputs.keys():
            # Nothing the site is made from changed, and every file it wrote is there.
            report.games, report.diagnostics = state.games, list(state.diagnostics)
            report.pages = report.unchanged = len(state.outputs)
            report.published = not (self.strict and report.errors)
            report.seconds = time.perf_counter() - started
            return report
        archive = self._indexer.index(summaries, config)
        report.timings["index"] = time.perf_counter() - started - sum(report.timings.values())
        report.games = len(archive.games)
        report.diagnostics = sorted({d for found_ in archive.problems.values() for d in found_})
        if self.strict and report.errors:
            report.published = False
            report.seconds = time.perf_counter() - started
            return report

        outputs = self._write_site(archive, found, state, report.timings)
        report.pages = len(outputs)
        report.written = sum(1 for _, written in outputs.values() if written)
        report.unchanged = report.pages - report.written
        report.removed = remove_stale(config.output_dir, set(outputs), set(state.outputs))
        new_state = _CacheState(
            records=fresh_records,
            outputs={path: key for path, (key, _) in outputs.items()},
            inputs=inputs,
            scanned_ns=scanned_ns,
            games=report.games,
            diagnostics=report.diagnostics,
        )
        if (new_state.outputs, new_state.records, inputs) != (state.outputs, state.records, state.inputs):
            # Written after build() returns (the site is already complete), so a
            # rebuild under `qipu serve` reloads the page sooner; the thread is
            # not a daemon, so a `qipu build` process waits for it before exiting.
            self._saver = threading.Thread(target=self._save_state, args=(new_state,), name="qipu-state")
            self._saver.start()
        self._state = new_state
        self._outputs_seen = set(new_state.outputs)
        if report.reparsed:  # only new views can leave old ones unused
            self._views.prune({s.key for s in summaries}, self._known_keys())
        self._views.close()
        self._cached_keys = None
        report.seconds = time.perf_counter() - started
        report.timings["finish"] = report.seconds - sum(report.timings.values())
        return report

    def _inputs(self, found: _Found, summaries: list[Summary]) -> str:
        """One digest of everything the site is made from."""
        files = [(rel, st.st_size, st.st_mtime_ns) for rel, p in found.pages + found.assets for st in (p.stat(),)]
        return _digest(
            _code_digest(),
            self._theme,
            self.config.site_fingerprint(),
            [(s.source, s.key) for s in summaries],
            files,
        )

    # -- rendering and writing ----------------------------------------------

    def _site_info(self, archive: Archive | None, md_pages: list[tuple[str, str, str]]) -> pages.SiteInfo:
        """Title, language and navigation; without an archive, just what a game view needs."""
        config = self.config
        return pages.SiteInfo(
            title=config.title,
            language=config.language,
            strings=ui_strings(config.language),
            events=tuple(pages.Link(e.name, e.url) for e in archive.events) if archive else (),
            pages=tuple(pages.Link(title, url) for _, title, url in md_pages),
            base_url=config.base_url,
        )

    def _write_site(
        self, archive: Archive, found: _Found, state: _CacheState, timings: dict[str, float]
    ) -> dict[str, tuple[str, bool]]:
        """Produce every output file; returns output path -> (key, written)."""
        config = self.config
        output = config.output_dir
        output.mkdir(parents=True, exist_ok=True)
        setup_started = time.perf_counter()
        results: dict[str, tuple[str, bool]] = {}
        theme = self._theme
        # Under `qipu serve` the output folder is as this Builder left it.
        existing = self._outputs_seen if self._outputs_seen is not None else _existing(output)

        def emit(path: str, key: str, produce: Callable[[], bytes]) -> None:
            if state.outputs.get(path) == key and path in existing:
                results[path] = (key, False)
                return
            results[path] = (key, write_if_changed(output / path, produce(), _MADE_DIRS))

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
            text = path.read_text(encoding="utf-8", errors="replace")
            title, html = render_markdown(text, fallback_title=PurePosixPath(rel).stem, link=md_link(rel))
            url = urls.markdown_page(page_slugs[str(PurePosixPath(rel).with_suffix(""))])
            md_pages.append((rel, title, url))
            md_sources.append((rel, title, url, html))
        site = self._site_info(archive, md_pages)
        site_key = _digest(_code_digest(), theme, config.site_fingerprint(), site)
        if self._env is None or self._env[0] != theme:
            self._env = (theme, make_env(cache=self.cache_dir / "templates"))  # compiled templates are kept while the theme is unchanged
        env = self._env[1]

        later: list[tuple[str, str, Callable[[], dict[str, Any]]]] = []  # pages to render: path, template, context

        def render(path: str, template: str, inputs: object, context: Callable[[], dict[str, Any]]) -> None:
            """Render a page unless its inputs (a cheap stand-in for its context) are unchanged."""
            key = _digest(site_key, template, inputs)
            results[path] = (key, False)
            if state.outputs.get(path) != key or path not in existing:
                later.append((path, template, context))

        # Game pages and the record files they name: many, so keyed cheaply
        # (without building their context) and rendered in the pool.
        by_source = {s.source: s for s in archive.summaries}

        timings["site setup"] = time.perf_counter() - setup_started
        started = time.perf_counter()
        todo: list[tuple[pages.GameJob, tuple[str, ...]]] = []
        game_fp: dict[str, str] = {}  # source -> digest of everything its page shows
        parts = self._event_parts(archive)
        previous = state.outputs
        for part in parts.values():
            fps = part.fps
            for job in part.jobs:
                game_fp[job.source] = fp = fps[job.source]
                key = site_key + fp
                results[job.url] = (key, False)
                page_stale = previous.get(job.url) != key or job.url not in existing
                copies: list[str] = []
                for rel in (job.source, *job.duplicates):
                    path, sha = urls.record_file(rel), by_source[rel].sha256
                    results[path] = (sha, False)
                    if previous.get(path) != sha or path not in existing:
                        copies.append(rel)
                if page_stale or copies:
                    todo.append((job, tuple(copies)))
        needed = {job.key for job, _ in todo} - self._fresh_views.keys()
        if todo:
            env.get_template("game.html")  # compiled once here, not once in each worker
        _WORKER.update(
            env=env,
            site=site,
            output=output,
            content=config.content_dir,
            views={**self._fresh_views, **self._views.get_many(needed)},
        )
        try:
            for url, written, copied in self._run(_render_game_task, todo):
                results[url] = (results[url][0], written)
                for rel in copied:
                    path = urls.record_file(rel)
                    results[path] = (results[path][0], True)
        finally:
            _WORKER.pop("views", None)
            self._fresh_views = {}
        timings["game pages"] = time.perf_counter() - started
        started = time.perf_counter()

        # The other pages are keyed by digests of the games they show, so a
        # rebuild builds the context only of the pages whose games changed.
        team_urls = _digest({name: t.url for name, t in archive.teams.items()})
        everything = _digest([parts[e.key].digest for e in archive.events], team_urls, [(e.key, e.name, e.url) for e in archive.events])
        render(urls.HOME, "home.html", everything, lambda: pages.home(archive, site))
        for ev in archive.events:
            inputs = (ev.key, ev.name, ev.config, parts[ev.key].digest, team_urls)
            render(ev.url, "event.html", inputs, lambda ev=ev: pages.event(ev, archive, site))
        event_names = {e.key: e.name for e in archive.events}
        for tm in archive.teams.values():
            inputs = (
                tm.name,
                tm.spellings,
                [game_fp[e.source] for e in tm.games],
                [(r.event.key, r.code, r.row) for r in tm.results],
                event_names,
                team_urls,
            )
            render(tm.url, "team.html", inputs, lambda tm=tm: pages.team(tm, archive, site))
        render(urls.TEAMS, "teams.html", everything, lambda: pages.teams_index(archive, site))
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
            lambda: pages.problems(archive, site, self._comparisons(archive.compared)),
        )
        for rel, title, url, html in md_sources:
            render(url, "page.html", (title, html), lambda title=title, url=url, html=html: pages.markdown(title, html, url, site))

        # Event and team pages list hundreds of games each: in the pool when many.
        _WORKER["pages"] = later
        for template in sorted({template for _, template, _ in later}):
            env.get_template(template)
        try:
            for path, written in self._run(_render_page_task, list(range(len(later))), threshold=16):
                results[path] = (results[path][0], written)
        finally:
            _WORKER.pop("pages", None)

        # Original records for download, static files, machine-readable data.
        for rel, path, _ in found.records:
            if urls.record_file(rel) not in results:  # records that are no game (unreadable ...)
                emit(urls.record_file(rel), by_source[rel].sha256, lambda path=path: _read(path))
        for rel, path in found.assets:
            st = path.stat()
            emit(f"files/{rel}", _digest(st.st_size, st.st_mtime_ns), path.read_bytes)
        for path in sorted(STATIC_DIR.rglob("*")):
            if path.is_file():
                rel = "static/" + path.relative_to(STATIC_DIR).as_posix()
                emit(rel, _digest(theme, rel), path.read_bytes)
        emit(".nojekyll", "nojekyll", lambda: b"")
        emit(urls.GAMES_JSONL, everything, lambda: b"".join(parts[e.key].jsonl for e in archive.events))
        timings["other pages"] = time.perf_counter() - started
        return results

    def _comparisons(self, pairs: list[tuple[str, str]]) -> list[Comparison]:
        """Copies of one game that disagree, read again to be shown side by side (few files)."""
        processed: dict[str, Processed] = {}

        def read(rel: str) -> Processed:
            if rel not in processed:
                data = _read(self.config.content_dir / rel)
                event = event_key(rel)
                processed[rel] = process(
                    Source(rel, data, sha256(data)),
                    encoding=self.config.encoding_for(rel),
                    options=self.options_for(event),
                    folder=self.folder_meta(event),
                )
            return processed[rel]

        return [compare(read(a), read(b)) for a, b in pairs]

    def _event_parts(self, archive: Archive) -> dict[str, _EventPart]:
        """Game jobs, their digests and data lines per event, kept while an event is unchanged."""
        parts: dict[str, _EventPart] = {}
        memo: dict[str, tuple[tuple, _EventPart]] = {}
        for ev in archive.events:
            names = sorted({t for e in ev.games for t in (e.first, e.second) if t})
            # The Indexer hands back the same Event object while its games are unchanged.
            signature = (ev, [(t, archive.teams[t].url) for t in names if t in archive.teams])
            known = self._parts.get(ev.key)
            if known is not None and known[0][0] is ev and known[0] == signature:
                part = known[1]
            else:
                jobs = self._game_jobs(ev, archive)
                fps = {job.source: _digest(*(getattr(job, name) for name in job.__slots__)) for job in jobs}
                part = _EventPart(jobs, fps, _digest(list(fps.values())), games_jsonl(ev.games))
            memo[ev.key] = (signature, part)
            parts[ev.key] = part
        self._parts = memo
        return parts

    def _game_jobs(self, ev: Event, archive: Archive) -> list[pages.GameJob]:
        teams = archive.teams
        jobs = []
        for entry in ev.games:
            jobs.append(
                pages.GameJob(
                    url=entry.url,
                    source=entry.source,
                    key=entry.summary.key,
                    event_name=ev.name,
                    event_url=ev.url,
                    first=entry.first,
                    second=entry.second,
                    first_url=teams[entry.first].url if entry.first in teams else None,
                    second_url=teams[entry.second].url if entry.second in teams else None,
                    duplicates=tuple(entry.duplicates),
                    diagnostics=tuple(entry.diagnostics),
                    group=entry.summary.group,
                )
            )
        return jobs


@functools.cache
def _code_digest() -> str:
    """The generator's own source: a new Qipu (or an edited one) re-reads and re-renders everything."""
    h = hashlib.sha256(CACHE_FORMAT.encode())
    package = Path(__file__).resolve().parent
    for path in sorted(package.rglob("*.py")):
        h.update(path.relative_to(package).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def _theme_digest() -> str:
    """Templates and static files: any change re-renders every page."""
    h = hashlib.sha256()
    for folder in (TEMPLATES_DIR, STATIC_DIR):
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                h.update(path.relative_to(folder.parent).as_posix().encode())
                h.update(path.read_bytes())
    return h.hexdigest()


def games_jsonl(entries: Iterable[GameEntry]) -> bytes:
    """Lines of ``data/games.jsonl``: one per game, stable key order."""
    lines = []
    for entry in entries:
        s = entry.summary
        lines.append(
            json.dumps(
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
                },
                ensure_ascii=False,
                sort_keys=True,
            )
        )
    return ("\n".join(lines) + "\n").encode("utf-8") if lines else b""


def build_site(config: Config, **kwargs: Any) -> BuildReport:
    builder = Builder(config, **kwargs)
    report = builder.build()
    builder.wait()
    return report
