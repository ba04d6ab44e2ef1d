"""Orchestration: scan, process (cached, in parallel), index, render, write.

The :class:`Builder` keeps its cache between calls, so ``qipu serve`` can
call :meth:`Builder.build` after every save and only the changed records are
decoded, parsed and replayed again. The same cache lives on disk in
``.qipu-cache/`` so a fresh ``qipu build`` is incremental too:

* records are keyed by content hash, generator version and the settings that
  affect them (encoding override, rule options of their event);
* every output file is keyed by the inputs it was made from; a file whose key
  did not change and that still exists is neither rendered nor written;
* an edit that changes no fact the index uses (a MARK value, a comment) takes
  a quick path that rewrites only that game page and download (``_quick``).

Reading records and rendering game pages run in worker processes that keep
each record's prepared view until its page is rendered (generator/workers.py).
"""

from __future__ import annotations

import dataclasses
import functools
import gc
import hashlib
import itertools
import json
import operator
import os
import pickle
import shutil
import stat
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, AbstractSet, Any, Callable, Collection, Iterable, Iterator

from generator import __version__, boards, decode, games, workers
from generator.scan import Found, Refused, classify_one, path_of, read_file, scan
from generator.archive.summary import Summary
from generator.cache import CacheDamaged, ViewStore, seal, unsealed
from generator.config import Config
from generator.diagnostics import Diagnostic
from generator.model import Metadata, Source
from generator.pipeline import Processed, event_key, group_key, process, sha256
from generator.render import Theme, pages, urls
from generator.render.strings import strings as ui_strings
from generator.render.write import (
    ADOPTED,
    MARKER,
    OWNED,
    claim_output,
    copy_if_changed,
    is_temporary,
    listed,
    read_bytes,
    sweep,
    write_if_changed,
)

# Imported where first needed: a quick rebuild (Builder._quick) uses none of
# these, and Python's start-up and imports are most of its time.
if TYPE_CHECKING:
    from generator.archive.compare import Comparison
    from generator.archive.index import Archive, Event, GameEntry, Indexer

CACHE_FORMAT = f"{__version__}/1"
# A quick rebuild (Builder._quick) renders its pages in this process: for more edits, the full path.
QUICK_LIMIT = 50
# Below this many records to (re)process or pages to render, a process pool costs more than it saves.
POOL_THRESHOLD = 200
# File times have a coarse clock tick: a file this close to a scan is read again.
RACY_NS = 2_000_000_000
JOURNAL_LIMIT = 4 << 20  # bytes of state journal before the whole state is written again
_GONE = object()


@dataclass(slots=True)
class BuildReport:
    records: int = 0
    games: int = 0
    pages: int = 0  # output files produced by this build
    written: int = 0  # of which written (bytes changed)
    unchanged: int = 0
    removed: int = 0
    reparsed: int = 0  # records decoded, parsed and replayed (not taken from the cache)
    quick: bool = False  # only the edited records' game pages were rewritten (Builder._quick)
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
class _EventPart:
    """What the write stage derives from one event's games."""

    jobs: list[pages.GameJob]
    listed: dict[str, str]  # source -> digest of what pages other than its own show of the game (_listed)
    digest: str  # of all of them
    jsonl: bytes  # its lines of data/games.jsonl
    _pickled: bytes = b""

    def pickled(self) -> bytes:
        """The jobs, pickled once for the build state (a quick rebuild needs one of them)."""
        if not self._pickled:
            self._pickled = pickle.dumps(self.jobs, pickle.HIGHEST_PROTOCOL)
        return self._pickled


class _Pickled:
    """Values by name, kept pickled until one is asked for.

    The build state holds a summary for every record; a quick rebuild (one
    record edited, see :meth:`Builder._quick`) looks at one or two of ten
    thousand, so loading the state does not unpickle the rest.
    """

    __slots__ = ("raw", "_live")

    def __init__(self, raw: dict[str, bytes] | None = None) -> None:
        self.raw: dict[str, bytes] = raw if raw is not None else {}
        self._live: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        value = self._live.get(name)
        if value is None:
            value = self._live[name] = pickle.loads(self.raw[name])
        return value

    def __contains__(self, name: str) -> bool:
        return name in self.raw

    def put(self, name: str, raw: bytes, value: Any) -> None:
        """A value and its pickled bytes (made anyway, to cross from a worker)."""
        self.raw[name] = raw
        self._live[name] = value

    def carried(self, names: Collection[str]) -> _Pickled:
        """A copy holding only these names (unpickled values stay unpickled)."""
        raw = dict(self.raw)
        for name in self.raw.keys() - names:  # a set difference in C: most names stay
            del raw[name]
        copy = _Pickled(raw)
        copy._live = {name: value for name, value in self._live.items() if name in names}
        return copy

    def __getstate__(self) -> dict[str, bytes]:
        return self.raw

    def __setstate__(self, raw: dict[str, bytes]) -> None:
        self.raw, self._live = raw, {}


@dataclass(slots=True)
class _CacheState:
    """What the last build knew: records by path, output keys by file, and what a quick rebuild needs."""

    records: dict[str, tuple[int, int, str]] = field(default_factory=dict)  # path -> size, mtime, key
    summaries: _Pickled = field(default_factory=_Pickled)  # path -> Summary
    outputs: dict[str, str] = field(default_factory=dict)  # output path -> key
    inputs: str = ""  # digest of every input of the last build that wrote the site
    settings: str = ""  # digest of the inputs other than the records (code, theme, site.toml, pages, assets)
    reading: str = ""  # digest of the settings that decide how records are read (Builder._reading)
    scanned_ns: int = 0  # wall clock when that build looked at the files
    games: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # For a quick rebuild: the game page jobs per event (pickled), the site
    # around every page and its key, the records compared side by side.
    jobs: dict[str, bytes] = field(default_factory=dict)
    site: bytes = b""
    site_key: str = ""
    compared: frozenset[str] = frozenset()
    boards: dict[str, str] = field(default_factory=dict)  # static board drawings (generator.boards)
    # Output folder -> its modification time once the build had written it
    # (None: too recent to trust, see _folder_times): a folder whose time has
    # not changed since holds the same files, so the next build need not list it.
    # (mtime, outputs it holds, written too recently for its time to be trusted)
    folders: dict[str, tuple[int | None, int, bool]] = field(default_factory=dict)
    # Output file -> (size, modification time, inode) once written: a file
    # whose stamp changed was edited or replaced by hand, and is made again.
    stamps: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    token: str = ""  # names this state: a journal entry applies to the state it names (Builder._save_state)
    # Records read again since the view cache was last pruned: at most that
    # many of its rows can be dead, so it is not counted before there are enough.
    unpruned: int = 0


def _inputs_digest(settings: str, rels: list[str], records: dict[str, tuple[int, int, str]]) -> str:
    """One digest of the settings and every record's key, in the order of their paths.

    A key digests the record's path too (its settings part), so the keys
    stand for the paths: hashing 10,000 long names as well cost a one-record
    rebuild 7 ms. Joined into one string and hashed once: the repr of ten
    thousand tuples (what _digest would take) cost three times as long.
    """
    h = hashlib.sha256(settings.encode())
    h.update("\0".join([records[rel][2] for rel in rels]).encode("ascii"))
    return h.hexdigest()


def _changes(old: _CacheState, new: _CacheState) -> dict[str, Any]:
    """What differs from ``old`` in ``new``: per table the entries changed and the names removed, else the value."""
    changes: dict[str, Any] = {}
    for name in _CacheState.__slots__:
        a, b = getattr(old, name), getattr(new, name)
        if isinstance(b, _Pickled):
            a, b = a.raw, b.raw
        if isinstance(b, dict):
            changed = {key: value for key, value in b.items() if a.get(key, _GONE) != value}
            added = sum(1 for key in changed if key not in a)
            removed = [key for key in a if key not in b] if len(a) + added != len(b) else []
            if changed or removed:
                changes[name] = (changed, removed)
        elif a != b:
            changes[name] = b
    return changes


def _replay_journal(state: _CacheState, journal: Path) -> int:
    """Apply the journal's changes that follow ``state``; returns how far the journal held them.

    Reading stops at an entry made for another state or by another version,
    or cut short (a build stopped while appending it): what follows it is
    not trusted.
    """
    try:
        data = journal.read_bytes()
    except OSError:
        return 0
    end = 0
    while (found := unsealed(data, end)) is not None:
        blob, after = found
        try:
            version, parent, changes = pickle.loads(blob)
        except Exception:  # noqa: BLE001 - sealed but not ours to read (another Qipu): keep what came before
            break
        if version != _code_digest() or parent != state.token:
            break
        for name, change in changes.items():
            table = getattr(state, name)
            if isinstance(table, _Pickled):
                table = table.raw
            if isinstance(table, dict):
                changed, removed = change
                for key in removed:
                    table.pop(key, None)
                table.update(changed)
            else:
                setattr(state, name, change)
        end = after
    return end


def _folder_times(
    output: Path, outputs: Iterable[str], last: dict[str, tuple[int | None, int, bool]] | None = None
) -> dict[str, tuple[int | None, int, bool]]:
    """Each output folder's modification time, how many outputs it holds, and whether it is recent.

    A folder changed in the same tick of the file system's clock as the
    build's last write into it would keep its time: such folders, any
    written in the last RACY_NS (FAT counts in two seconds), are *recent*,
    and listed by the next build whatever their time (Builder._outputs_intact).
    ``last``: the counts, when the outputs are those of the last build.
    """
    if last is None:
        counts: dict[str, int] = {}
        for rel in outputs:
            folder = rel.rpartition("/")[0]
            counts[folder] = counts.get(folder, 0) + 1
    else:
        counts = {folder: count for folder, (_, count, _) in last.items()}
    # Folders that hold only folders (games/) are watched too: a file added there changes their time.
    for folder in list(counts):
        while folder:
            folder = folder.rpartition("/")[0]
            counts.setdefault(folder, 0)
    root = os.fspath(output)
    recent = time.time_ns() - RACY_NS
    times: dict[str, tuple[int | None, int, bool]] = {}
    for folder, count in counts.items():
        try:
            mtime: int | None = os.lstat(f"{root}/{folder}").st_mtime_ns
        except OSError:
            mtime = None
        times[folder] = (mtime, count, mtime is None or mtime >= recent)
    return times


def _stat_outputs(output: Path, rels: Iterable[str]) -> dict[str, tuple[int, int, int, tuple[int, int]] | None]:
    """Each output file's (size, modification time, inode, (device, inode)), None where missing or no regular file.

    A plain lstat per path: through each folder's descriptor it was slower
    here, Python's argument handling costing more than the path walk saves.
    """
    root = f"{os.fspath(output)}/"
    lstat, regular = os.lstat, stat.S_ISREG
    found: dict[str, tuple[int, int, int, tuple[int, int]] | None] = {}
    for rel in rels:
        try:
            st = lstat(root + rel)
        except OSError:
            found[rel] = None
            continue
        found[rel] = (st.st_size, st.st_mtime_ns, st.st_ino, (st.st_dev, st.st_ino)) if regular(st.st_mode) else None
    return found


def _digest(*parts: object) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(repr(part).encode("utf-8"))
        h.update(b"\x00")
    return h.hexdigest()


def summarize(p: Processed, key: str) -> Summary:
    from generator.archive import duplicates

    moves = p.moves_text()
    moves_key, opening = duplicates.game_keys(p.code or "", moves)
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
        moves_key=moves_key,
        opening=opening,
        spellings=p.spellings(),
        date=p.meta.date,
        time=p.meta.time,
        place=p.meta.place,
        event_name=p.meta.event,
        diagnostics=tuple(sorted(set(p.diagnostics))),
    )


def refused_summary(rel: str, diagnostic: Diagnostic) -> Summary:
    """A file in the content folder that was never read (see generator.scan): listed with why, never published."""
    return Summary(
        source=rel, sha256="", key="", code=None, event_key=event_key(rel), group=group_key(rel),
        first=None, second=None, declared=None, declared_header=None, declared_name=None, computed=None,
        rule=None, result=None, plies=0, moves=0, moves_key="", date=None, time=None, place=None,
        event_name=None, diagnostics=(diagnostic,),
    )


# Work done in worker processes (generator.workers). A record's prepared view
# stays in the worker that made it (workers.kept) until its game page is
# rendered there; the worker also stores a copy in its own file of the cache.

# relative path, full path, bytes (None: the worker reads them), encoding,
# options, folder metadata, settings digest, limits (file bytes, plies)
_RECORD_TASK = tuple[str, str, bytes | None, str | None, dict, Metadata | None, str, tuple[int, int]]
# What the tasks need besides their arguments: site info, templates, folders,
# the view cache. Set in the parent (and inherited by a fork) or sent to
# workers forked earlier (_set_up).
_WORKER: dict[str, Any] = {}
_MADE_DIRS: set[str] = set()
_UNSTORED: list[tuple[str, dict[str, Any]]] = []  # views made here and not stored yet (_store_views)


def _views_here() -> ViewStore:
    """This process's own connection to the view cache: SQLite's must not cross a fork."""
    pid, store = _WORKER.get("views", (None, None))
    if pid != os.getpid() or store is None:
        store = ViewStore(_WORKER["views_path"])
        _WORKER["views"] = (os.getpid(), store)
    return store


def _store_views(most: int | None = None) -> bool:
    """Store views made here and not stored yet, in this process's file of the cache.

    ``most``: at most that many (None: all). True while some are left.
    """
    start = 0 if most is None else max(0, len(_UNSTORED) - most)
    some = _UNSTORED[start:]
    del _UNSTORED[start:]
    if some:
        # Pickled, not compressed: zlib took a tenth of a cold build (the cache
        # holds about 20 kB per game instead of 5).
        dumps, protocol = pickle.dumps, pickle.HIGHEST_PROTOCOL
        _views_here().put_many([(key, dumps(view, protocol)) for key, view in some], shard=workers.index or 0)
    return bool(_UNSTORED)


def _store_some_views() -> bool:
    """A worker's idle work: store some of the views it made; True while some are left.

    Storing waits for moments the worker has no task: the parent indexing
    the archive or keying the pages (a second of a cold build), the last
    batches of a stage. It then costs the build nothing; what is left when
    the pages are written is stored before the workers end (_end_workers).
    A few milliseconds a call: a task arriving meanwhile waits no longer.
    """
    return _store_views(128)


def _process_task(task: _RECORD_TASK) -> tuple[bytes, bool, int | None]:
    """Decode, parse and replay one record, then prepare its game page's heavy parts.

    Returns the record's summary pickled (as the build state keeps it),
    whether it has a view (a game page), and the worker keeping that view.
    """
    rel, path, data, encoding, options, folder, settings, (file_bytes, plies) = task
    if data is None:  # a record the last build did not know: read here, in parallel
        try:
            data = read_file(path, file_bytes)
        except Refused as refusal:  # swapped for a link or grown since the scan
            return pickle.dumps(refused_summary(rel, refusal.diagnostic(rel)), pickle.HIGHEST_PROTOCOL), False, None
    digest = sha256(data)
    key = f"{digest[:40]}{settings[:16]}"
    processed = process(Source(rel, data, digest), encoding=encoding, options=options, folder=folder, plies=plies)
    note = _WORKER.get("notes", {}).get(rel)
    if note is not None:  # about its name (see scan.Found.notes)
        processed.diagnostics.append(note)
    viewed = processed.replay is not None and bool(processed.code)
    if viewed:
        # Kept as it is (its big parts are bytes already): pickled only to be
        # stored, which waits for the worker's idle moments, and never
        # unpickled to render the page here.
        view = workers.kept[key] = pages.game_view(processed, _WORKER["site"])
        _UNSTORED.append((key, view))
        if workers.index is not None and _store_some_views not in workers.idle:
            workers.idle.append(_store_some_views)
    return pickle.dumps(summarize(processed, key), pickle.HIGHEST_PROTOCOL), viewed, workers.index


def _render_game_task(task: tuple[pages.GameJob, tuple[str, ...]]) -> tuple[str, bool, tuple[str, ...]]:
    """Render and write one game page, and publish the record files it names."""
    job, copies = task
    env, site, output = _WORKER["env"], _WORKER["site"], _WORKER["output"]
    view = workers.kept.pop(job.key, None)
    if view is None:  # made by an earlier build, or by another worker: from the cache
        store = _views_here()
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
    page = pages.game_page(env.get_template("game.html"), job, view, site)
    written = write_if_changed(f"{output}/{job.url}", page, _MADE_DIRS)
    content, located = _WORKER["content"], _WORKER["located"]
    copied = tuple(rel for rel in copies if _publish(path_of(content, located, rel), f"{output}/{urls.record_file(rel)}"))
    return job.url, written, copied


def _publish(record: str, target: str) -> bool:
    """Offer a record for download (see copy_if_changed); False when it is no longer a regular file."""
    try:
        return copy_if_changed(record, target, _MADE_DIRS)
    except OSError:  # removed or made a link since the scan: not published (the next build sees it)
        return False


def _render_page_task(index: int) -> tuple[str, bool]:
    """Render one of the other pages; the list of them is inherited from the parent."""
    path, template, context = _WORKER["pages"][index]
    html = _WORKER["env"].get_template(template).render(context())
    return path, write_if_changed(_WORKER["output"] / path, html.encode("utf-8"), _MADE_DIRS)


def _drawings(_: object = None) -> dict[str, str]:
    """The static board drawings this worker made (see generator.boards)."""
    return boards.drawings()


def _set_up(setup: dict[str, Any]) -> None:
    """In a worker forked before the index: what rendering game pages needs."""
    # Jinja: imported only where templates are rendered.
    from generator.render.env import make_env

    _WORKER.update(setup, env=make_env(setup["theme"].templates, cache=setup["templates"]))


class Builder:
    """Builds the site of one configuration; call :meth:`build` as often as needed."""

    def __init__(
        self,
        config: Config,
        *,
        jobs: int | None = None,
        strict: bool = False,
        cache_dir: Path | None = None,
        progress: Callable[[str, int, int], None] | None = None,
    ) -> None:
        self.config = config
        self.jobs = max(1, jobs or os.cpu_count() or 1)
        self.strict = strict
        # Told (stage, done, total) as records are read and game pages written:
        # the CLI shows a progress line on a terminal (generator.cli.Progress).
        self.progress = progress or (lambda stage, done, total: None)
        self.cache_dir = cache_dir or config.cache_dir
        self.theme = Theme.of(config.theme_templates, config.theme_static)
        self._state: _CacheState | None = None
        self._views = ViewStore(self.cache_dir)
        self._views_cleared = False  # the last records pass emptied the view cache: nothing in it to prune
        self._workers: workers.Workers | None = None  # forked for one build (generator.workers)
        self._homes: dict[str, int] = {}  # view key -> the worker keeping that view
        self._indexer: Indexer | None = None  # made on the first full build: a quick one needs none
        self._theme = ""  # digest of templates and static files, taken at the start of each build
        self._found: Found | None = None  # the last scan, updated from `changed` by serve
        # True once a build of this Builder wrote the output folder and nothing
        # since made it look again (`qipu serve`): its state says what is there.
        self._wrote_output = False
        self._listed: set[str] | None = None  # the output folder as listed in this build
        self._env: tuple[str, Any] | None = None
        self._saver: threading.Thread | None = None
        self._on_file = ""  # token of the state the state file holds, journal included
        self._journal_end = 0  # the journal's length when this Builder last read or wrote it
        self._parts: dict[str, tuple[tuple, _EventPart]] = {}

    def _scan(self, changed: Iterable[Path] | None) -> tuple[Found, Callable[[str], bool]]:
        """This build's files, and which records are known not to have changed.

        ``changed``: the files saved since the last build (``qipu serve``);
        only those are looked at again, unless one is a folder, a link or a
        name that is not UTF-8, which only a whole walk classifies rightly.
        """
        content = self.config.content_dir
        known = self._found
        rels: set[str] = set()
        if changed is not None and known is not None:
            root = os.path.realpath(content)
            own = [os.path.realpath(folder) + os.sep for folder in self.config.not_content()]
            files = {r[0] for r in known.records} | {p[0] for p in known.pages} | {a[0] for a in known.assets}
            for path in changed:
                rel = os.path.relpath(os.path.abspath(path), root).replace(os.sep, "/")
                if rel.startswith("../") or rel == ".." or (os.path.abspath(path) + os.sep).startswith(tuple(own)):
                    continue  # a template, site.toml, the output: no file of the content changed
                gone_folder = not os.path.lexists(path) and rel not in files and rel not in known.refused
                if (
                    rel == "." or os.path.isdir(path) or os.path.islink(path) or gone_folder
                    or rel.split("/")[0].startswith((".", "_")) or decode.shown_path(rel) != rel
                ):
                    known = None  # walk everything
                    break
                rels.add(rel)
        if changed is None or known is None:
            self._found = scan(content, self.config.not_content(), self.config.file_bytes)
            self._wrote_output, self._listed = False, None
            return self._found, lambda rel: False
        found = Found(
            [r for r in known.records if r[0] not in rels],
            [p for p in known.pages if p[0] not in rels],
            [a for a in known.assets if a[0] not in rels],
            {rel: path for rel, path in known.located.items() if rel not in rels},
            {rel: note for rel, note in known.notes.items() if rel not in rels},
            {rel: why for rel, why in known.refused.items() if rel not in rels},
        )
        for rel in sorted(rels):
            one = classify_one(content, rel, self.config.file_bytes)
            found.records += one.records
            found.pages += one.pages
            found.assets += one.assets
            found.located.update(one.located)
            found.notes.update(one.notes)
            found.refused.update(one.refused)
        found.records.sort(key=lambda r: r[0])
        found.pages.sort(key=lambda r: r[0].split("/"))
        found.assets.sort(key=lambda r: r[0].split("/"))
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
            path = self._state_file()
            try:
                found = unsealed(read_bytes(path))
                if found is None:  # cut short, zeroed or flipped: start afresh (see cache.seal)
                    raise ValueError("damaged")
                version, state = pickle.loads(found[0])
                if version == _code_digest():
                    self._journal_end = _replay_journal(state, path.with_suffix(".journal"))
                    self._state, self._on_file = state, state.token
                    boards.remember(state.boards)
                else:
                    # Another Qipu wrote it: start afresh, but remember which files
                    # it wrote, so pages of records since removed or renamed are
                    # still deleted. Their keys cannot match this version's pages
                    # (they digest the code), so every page is rendered again.
                    self._state = _CacheState(outputs=dict(state.outputs))
            except Exception:  # noqa: BLE001 - missing, damaged or another Qipu's: start afresh
                self._state = _CacheState()
        return self._state

    def _save_state(self, state: _CacheState, previous: _CacheState) -> None:
        """Save the state: as what changed since ``previous`` when that is what the file holds.

        A rebuild after one edit changes a few entries of tables of tens of
        thousands; appending those to a journal beside the state takes a
        millisecond where pickling the whole state again took tens. Once the
        journal outgrows JOURNAL_LIMIT the whole state is written again.
        """
        path = self._state_file()
        journal = path.with_suffix(".journal")
        if previous.token and previous.token == self._on_file:
            try:
                size = os.path.getsize(journal)
            except OSError:
                size = 0
            # Another process may have written since this one read: then start afresh.
            if size == self._journal_end and size < JOURNAL_LIMIT:
                entry = seal(pickle.dumps((_code_digest(), previous.token, _changes(previous, state)), pickle.HIGHEST_PROTOCOL))
                with open(journal, "ab") as handle:
                    handle.write(entry)
                self._on_file, self._journal_end = state.token, size + len(entry)
                return
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        with open(tmp, "wb") as handle:
            handle.write(seal(pickle.dumps((_code_digest(), state), protocol=pickle.HIGHEST_PROTOCOL)))
        os.replace(tmp, path)
        # The journal's entries follow the state replaced: they no longer apply (nor would they, by token).
        journal.unlink(missing_ok=True)
        self._on_file, self._journal_end = state.token, 0

    # -- stages --------------------------------------------------------------

    def options_for(self, event: str) -> dict[str, dict[str, Any]]:
        return {code: dict(self.config.rules_for(event, code).options) for code in games.codes()}

    def folder_meta(self, event: str) -> Metadata | None:
        if event in self.config.events:
            return Metadata(event=self.config.events[event].name)
        return None

    def process_records(
        self, found: Found, state: _CacheState, trusted: Callable[[str], bool] = lambda rel: False
    ) -> tuple[dict[str, tuple[int, int, str]], _Pickled, list[str]]:
        """Every record's key and summary, from the cache where the inputs did not change.

        Returns the records (path -> size, mtime, key), their summaries and the
        paths of the records decoded, parsed and replayed again.
        ``trusted(rel)`` says a record is known unchanged since the last build
        of this Builder (``qipu serve`` knows what was saved): it is not checked.
        """
        options_by_event: dict[str, tuple[dict, str]] = {}
        # A file modified less than this before the last scan may have been
        # saved again since without its size or time changing ("racy" files).
        racy = state.scanned_ns - RACY_NS
        # Settings as the last build read the records: if they are the same,
        # a record's size and time say enough (the common case, ten thousand times).
        same_reading = self._reading() == state.reading
        known = state.records
        fresh: dict[str, tuple[int, int, str]] = {}
        tasks: list[_RECORD_TASK] = []
        stats: dict[str, os.stat_result] = {}
        limits = (self.config.file_bytes, self.config.plies)
        for rel, path, st in found.records:
            old = known.get(rel)
            if old is not None and (
                (same_reading and old[0] == st.st_size and old[1] == st.st_mtime_ns and st.st_mtime_ns < racy)
                or trusted(rel)
            ):
                fresh[rel] = old
                continue
            event = event_key(rel)
            if event not in options_by_event:
                opts = self.options_for(event)
                # Everything that shapes a record's cached view besides its bytes and path.
                options_by_event[event] = (
                    opts,
                    _digest(
                        _code_digest(), self.config.language, self.config.plies,
                        sorted((k, sorted(v.items())) for k, v in opts.items()),
                    ),
                )
            options, options_digest = options_by_event[event]
            encoding = self.config.encoding_for(rel)
            settings = hashlib.sha256(f"{options_digest}\0{rel}\0{encoding}".encode()).hexdigest()
            if (
                old
                and old[0] == st.st_size
                and old[1] == st.st_mtime_ns
                and st.st_mtime_ns < racy  # else saved in the same clock tick as the last scan: read it
                and old[2].endswith(settings[:16])
            ):
                fresh[rel] = old
                continue
            data = None
            if old:  # known before: perhaps only touched, same bytes
                try:
                    data = read_file(path, limits[0])
                except Refused:
                    data = None  # the task reads it again and says why
                else:
                    key = f"{sha256(data)[:40]}{settings[:16]}"
                    if old[2] == key and self._views.has(key):
                        fresh[rel] = (st.st_size, st.st_mtime_ns, key)
                        continue
            stats[rel] = st
            tasks.append((rel, path, data, encoding, options, self.folder_meta(event), settings, limits))
        self._views_cleared = bool(tasks) and not fresh
        if self._views_cleared:
            # Every record is read again (a new Qipu, new rule options for all):
            # no view in the cache will be used, and deleting them row by row
            # reads each one back (seconds, on a slow disk).
            self._views.clear()
        summaries = state.summaries.carried(fresh.keys())
        _WORKER["site"] = self._site_info(None, [])
        _WORKER["notes"] = found.notes
        _WORKER["views_path"] = self._views.folder

        done = itertools.count(1)

        def arrived(result: tuple[bytes, bool, int | None]) -> None:
            self.progress("records", next(done), len(tasks))
            raw, viewed, worker = result
            summary: Summary = pickle.loads(raw)
            st = stats[summary.source]
            fresh[summary.source] = (st.st_size, st.st_mtime_ns, summary.key)
            summaries.put(summary.source, raw, summary)
            if viewed and worker is not None:
                self._homes[summary.key] = worker

        if len(tasks) >= POOL_THRESHOLD and self.jobs > 1:
            # Kept until the game pages are written: the workers hold the views.
            team = self._workers = workers.Workers(self.jobs)
            team.map(_process_task, tasks, chunk=_chunk(len(tasks), self.jobs), arrived=arrived)
        else:
            for task in tasks:  # views kept in this process
                arrived(_process_task(task))
            _store_views()
        self._views.close()  # the workers may have made new files: look again when next asked
        return fresh, summaries, [task[0] for task in tasks]

    def _start(self, fn: Callable, tasks: list, threshold: int = POOL_THRESHOLD) -> Callable[[], list]:
        """``fn`` over ``tasks``; returns what gives the results in order, once asked.

        When many, in workers forked now (they inherit what the parent set
        up), which work while the parent goes on with its own: a thread
        hands them the tasks. The fork happens here, in the calling thread
        (never fork from a second thread: the child would have only that
        one). When few, in this process when the results are asked for.
        """
        if len(tasks) < threshold or self.jobs == 1:
            return lambda: [fn(task) for task in tasks]
        team = workers.Workers(self.jobs)
        outcome: list[tuple[bool, Any]] = []

        def run() -> None:
            try:
                outcome.append((True, team.map(fn, tasks, chunk=_chunk(len(tasks), self.jobs))))
            except BaseException as exc:  # noqa: BLE001 - raised in the caller by results()
                outcome.append((False, exc))

        thread = threading.Thread(target=run, name="qipu-pages", daemon=True)
        thread.start()

        def results() -> list:
            thread.join()
            team.close()
            ok, value = outcome[0]
            if not ok:
                raise value
            return value

        return results

    def _render_games(
        self, todo: Iterable[tuple[pages.GameJob, tuple[str, ...]]], setup: dict[str, Any], expected: int
    ) -> list:
        """Render game pages: each in the worker that keeps its view, if any; else where there is room.

        ``todo`` may be a generator still keying later pages while the first
        are rendered; ``expected``: about how many it gives, at most.
        """
        _WORKER.update(setup, env=self._template_env())
        pending = iter(todo)
        first = list(itertools.islice(pending, POOL_THRESHOLD))
        done = itertools.count(1)

        def arrived(result: tuple[str, bool, tuple[str, ...]]) -> tuple[str, bool, tuple[str, ...]]:
            self.progress("pages", next(done), expected)
            return result

        if len(first) < POOL_THRESHOLD or self.jobs == 1:
            return [arrived(_render_game_task(task)) for task in itertools.chain(first, pending)]
        if self._workers is None:  # views all from the cache (a theme edit, say): fork now
            self._workers = workers.Workers(self.jobs)
        team = self._workers
        # Every view the workers made goes to the cache first (most already
        # went while the parent indexed): then a worker whose own pages are
        # done can take the other's last ones, reading their views from there.
        team.each(_store_views)
        team.each(_set_up, setup)
        homes = self._homes
        return team.map(
            _render_game_task,
            itertools.chain(first, pending),
            chunk=_chunk(expected, self.jobs),
            home=lambda task: homes.get(task[0].key),
            steal=True,
            arrived=arrived,
        )

    def _end_workers(self, store: bool = False) -> None:
        """The workers and the views they keep end with the build that made them.

        ``store``: each first stores the views it made and has not stored
        yet (see _store_some_views), once the game pages are written. Without
        it (a task failed) the workers are only closed: a failed map leaves
        the answers to other batches in the pipes, which a question now would
        read as its own answer, and its error would hide the task's.
        """
        team, self._workers = self._workers, None
        if team is not None:
            try:
                if store:
                    team.each(_store_views)
                    # The boards' static drawings the workers made go into the build
                    # state: the next one-record rebuild then needs no svgwrite.
                    for drawn in team.each(_drawings):
                        boards.remember(drawn)
            finally:
                team.close()
        self._homes = {}
        workers.kept.clear()
        _UNSTORED.clear()
        pid, store = _WORKER.pop("views", (None, None))
        if store is not None and pid == os.getpid():
            store.close()

    def build(self, changed: Iterable[Path] | None = None) -> BuildReport:
        """Build the site (see :meth:`_build`), with the cyclic garbage collector paused.

        A build makes millions of small objects that live until it ends and
        form no cycles worth collecting; a collector pass would walk them all.
        A cache found damaged on the way (a view that fails its check, say)
        is thrown away, and the build starts again as a fresh one.
        """
        enabled = gc.isenabled()
        gc.disable()
        try:
            try:
                report = self._build(changed)
            except (CacheDamaged, workers.WorkerError) as error:
                if isinstance(error, workers.WorkerError) and error.kind != CacheDamaged.__name__:
                    raise
                self._end_workers()
                self.discard_cache()
                report = self._build(None)
            self._end_workers(store=True)  # if the pages did not end them: --strict stopped first
            return report
        finally:
            self._end_workers()  # when a task failed
            if enabled:
                gc.enable()

    def discard_cache(self) -> None:
        """Forget all the cache holds (``qipu build --clean``, or a damaged cache).

        The next build reads every record and renders every page, and
        compares each with the file in the output folder: the site it leaves
        is what a build into an empty folder makes.
        """
        self.wait()
        self._views.clear()
        state = self._state_file()
        for path in (state, state.with_suffix(".journal"), state.with_suffix(".tmp")):
            path.unlink(missing_ok=True)
        shutil.rmtree(self.cache_dir / "templates", ignore_errors=True)
        self._state, self._found, self._indexer, self._env = None, None, None, None
        self._parts = {}
        self._wrote_output, self._listed = False, None
        self._on_file, self._journal_end = "", 0

    def _build(self, changed: Iterable[Path] | None = None) -> BuildReport:
        """Build the site; returns what happened. Never raises for bad records.

        ``changed``: the files saved since this Builder's last build, when the
        caller knows them (``qipu serve`` does): only those are looked at
        again. None: every file is checked (a plain ``qipu build``).
        """
        started = time.perf_counter()
        report = BuildReport()
        self.wait()
        state = self._load_state()
        # Files edited, replaced or deleted by hand since the last build wrote
        # them (a new process only: `qipu serve` knows what it left there).
        trust_output = self._wrote_output
        scanned_ns = time.time_ns()
        found, trusted = self._scan(changed)
        damaged = set() if trust_output else self._damaged(state, found)
        report.timings["scan"] = time.perf_counter() - started
        records, summaries, reparsed = self.process_records(found, state, trusted)
        # A download is a hard link to its record (copy_if_changed): a record
        # edited in place changes it too, and one whose bytes changed is
        # published again anyway (its key is their digest). Where the last
        # build's key is not known (another Qipu's state), it stays to be checked.
        known = state.records
        damaged.difference_update(
            urls.record_file(rel) for rel in reparsed if rel in known and known[rel][2][:40] != records[rel][2][:40]
        )
        report.records, report.reparsed = len(records), len(reparsed)
        report.timings["process"] = time.perf_counter() - started - sum(report.timings.values())
        self._theme = self.theme.digest()  # read once per build: the inputs digest and the page keys use it
        settings = self._settings(found)
        inputs = _inputs_digest(settings, [rel for rel, _, _ in found.records], records)
        fresh = _CacheState(records, summaries, inputs=inputs, settings=settings, scanned_ns=scanned_ns, reading=self._reading())
        if not reparsed and not damaged and inputs == state.inputs and self._outputs_intact(state):
            # Nothing the site is made from changed, and every file it wrote is there.
            report.games, report.diagnostics = state.games, list(state.diagnostics)
            report.pages = report.unchanged = len(state.outputs)
            report.published = not (self.strict and report.errors)
            report.seconds = time.perf_counter() - started
            return report
        touched: set[str] = set()  # the outputs a quick rebuild may have written
        report.quick = not damaged and self._quick(state, fresh, reparsed, report, touched)
        if report.quick:
            report.timings["game pages"] = time.perf_counter() - started - sum(report.timings.values())
        elif not self._full(found, state, fresh, report, damaged):
            report.seconds = time.perf_counter() - started
            return report  # --strict and errors: nothing written
        fresh.stamps = self._stamps(state, fresh, found, touched if report.quick else None, damaged)
        fresh.boards = boards.drawings()  # the ones drawn in this process, and those the state brought
        # Every file is written: now the output folders' times mean something.
        same = report.quick and state.folders and fresh.outputs.keys() == state.outputs.keys()
        fresh.folders = _folder_times(self.config.output_dir, fresh.outputs, state.folders if same else None)
        fresh.unpruned = 0 if self._views_cleared else state.unpruned + len(reparsed)
        # Only new views can leave old ones unused, and the cache is pruned once
        # a third of its rows are dead: not worth counting them before then.
        if fresh.unpruned > len(records) // 2 + 50:
            self._views.prune({record[2] for record in records.values()})
            fresh.unpruned = 0
        if (fresh.outputs, fresh.records, inputs) != (state.outputs, state.records, state.inputs):
            # Written after build() returns (the site is already complete), so a
            # rebuild under `qipu serve` reloads the page sooner; the thread is
            # not a daemon, so a `qipu build` process waits for it before exiting.
            fresh.token = os.urandom(8).hex()
            self._saver = threading.Thread(target=self._save_state, args=(fresh, state), name="qipu-state")
            self._saver.start()
        self._state = fresh
        self._wrote_output, self._listed = True, None
        self._views.close()
        report.seconds = time.perf_counter() - started
        report.timings["finish"] = report.seconds - sum(report.timings.values())
        return report

    def _full(self, found: Found, state: _CacheState, fresh: _CacheState, report: BuildReport, damaged: set[str]) -> bool:
        """Index the archive and write every page whose inputs changed; False if --strict refused.

        Written too: every file in ``damaged`` (changed by hand). Then every
        file the site no longer has is removed (write.sweep): the files the
        last build wrote, temporary files, and in a folder Qipu owns
        (write.claim_output) any file in the site's own places
        (urls.is_site_path), such as a page a killed build wrote.
        """
        from generator.archive.index import Indexer

        started = time.perf_counter()
        summaries = [fresh.summaries[rel] for rel, _, _ in found.records]
        summaries += [refused_summary(rel, why) for rel, why in found.refused.items()]
        if self._indexer is None:
            self._indexer = Indexer()
        archive = self._indexer.index(summaries, self.config)
        report.timings["index"] = time.perf_counter() - started
        report.games = fresh.games = len(archive.games)
        report.diagnostics = fresh.diagnostics = sorted({d for found_ in archive.problems.values() for d in found_})
        if self.strict and report.errors:
            report.published = False
            return False
        output = self.config.output_dir
        owned = claim_output(output, force=True)[0]
        # The marker first: a build killed before the end leaves a folder the
        # next build knows for its own, not one it must refuse (cli).
        write_if_changed(output / MARKER, OWNED if owned else ADOPTED, _MADE_DIRS)
        outputs = self._write_site(archive, found, state, fresh, report.timings, damaged, owned)
        fresh.outputs = {path: key for path, (key, _) in outputs.items()}
        report.pages = len(outputs)
        report.written = sum(1 for _, written in outputs.values() if written)
        report.unchanged = report.pages - report.written
        extra = (self._on_disk() | state.outputs.keys()) - outputs.keys()  # in C: few are left
        previous = state.outputs
        gone = {rel for rel in extra if rel in previous or is_temporary(rel) or (owned and urls.is_site_path(rel))}
        report.removed = sweep(output, gone)
        return True

    def _quick(
        self, state: _CacheState, fresh: _CacheState, reparsed: list[str], report: BuildReport, touched: set[str]
    ) -> bool:
        """Rewrite only the game pages and downloads of edited records, when nothing else can change.

        An edit that leaves every fact the index uses as it was (a MARK value,
        a comment, the spacing of a record) changes only what that record's
        own game page shows and the file offered for download: the events,
        teams, home and problems pages and games.jsonl are made from the
        summaries' other fields (:meth:`Summary.index_fields`), so the full
        path would find their keys unchanged. This path goes straight to
        those pages without indexing the archive: what makes ``qipu build``
        after such an edit take a fraction of a second. Anything else (a file
        added or removed, another result, team, date or diagnostic, a record
        shown side by side on the problems page, changed settings) takes the
        full path. Returns False when it cannot be taken.
        """
        if (
            not state.site
            or not reparsed
            or (self.strict and any(d.severity == "error" for d in state.diagnostics))
            or len(reparsed) > QUICK_LIMIT
            or fresh.settings != state.settings
            or fresh.records.keys() != state.records.keys()
        ):
            return False
        for rel in reparsed:
            if rel in state.compared or rel not in state.summaries:
                return False
            if fresh.summaries[rel].index_fields() != state.summaries[rel].index_fields():
                return False
        output = self.config.output_dir
        if not self._outputs_intact(state):
            return False  # a page was deleted: the full path writes it again
        outputs = dict(state.outputs)
        jobs: dict[str, list[pages.GameJob]] = {}
        todo: list[tuple[pages.GameJob, tuple[str, ...]]] = []
        downloads: list[str] = []  # records with no game page of their own, or whose page is respliced
        spliced = 0  # pages written by _respliced
        for rel in reparsed:
            summary = fresh.summaries[rel]
            outputs[urls.record_file(rel)] = summary.sha256
            touched.add(urls.record_file(rel))
            event = summary.index_event()
            if event not in jobs and event in state.jobs:
                jobs[event] = pickle.loads(state.jobs[event])
            found = [n for n, job in enumerate(jobs.get(event, ())) if job.source == rel]
            if not found:  # a copy of another record's game, or no game at all
                if summary.code is not None and not any(rel in job.duplicates for job in jobs.get(event, ())):
                    return False  # a game the last build did not show: only the full path knows why
                downloads.append(rel)
                continue
            n = found[0]
            before = jobs[event][n].key  # of the view the page was made from
            job = jobs[event][n] = dataclasses.replace(jobs[event][n], key=summary.key)
            outputs[job.url] = _page_key(state.site_key, _listed(job, summary), job)
            touched.add(job.url)
            found_page = self._respliced(job, before)
            if found_page is None:
                todo.append((job, (rel,)))
            else:
                page, on_disk = found_page
                spliced += write_if_changed(output / job.url, page, _MADE_DIRS, current=on_disk)
                downloads.append(rel)
        written = self._render_games(todo, self._render_setup(pickle.loads(state.site)), len(todo)) if todo else []
        copied = sum(_publish(self._path_of(rel), f"{output}/{urls.record_file(rel)}") for rel in downloads)
        fresh.outputs = outputs
        fresh.games, fresh.diagnostics = state.games, state.diagnostics
        fresh.jobs = {**state.jobs, **{event: pickle.dumps(js, pickle.HIGHEST_PROTOCOL) for event, js in jobs.items()}}
        fresh.site, fresh.site_key, fresh.compared = state.site, state.site_key, state.compared
        report.games, report.diagnostics = state.games, list(state.diagnostics)
        report.published = not (self.strict and report.errors)
        report.pages = len(outputs)
        report.written = spliced + copied + sum(page + len(files) for _, page, files in written)
        report.unchanged = report.pages - report.written
        return True

    def _respliced(self, job: pages.GameJob, before: str) -> tuple[bytes, bytes] | None:
        """The game page of ``job`` with its view's parts swapped in for those of the view ``before``,
        and the page on disk it was made from.

        The page on disk is the one the last build wrote from the view
        ``before`` (see pages.respliced). None when that cannot be done: a
        view no longer in the cache, a page not there, views that differ in
        more than their parts. The view of ``job`` was made in this process.
        """
        view = workers.kept.get(job.key)
        if view is None or before == job.key:
            return None
        try:
            old = self._views.get(before)
            on_disk = read_bytes(self.config.output_dir / job.url)
        except (KeyError, OSError):
            return None
        page = pages.respliced(on_disk, pickle.loads(old), view)
        return None if page is None else (page, on_disk)

    def _reading(self) -> str:
        """Everything besides a record's own bytes that decides how it is read and replayed."""
        config = self.config
        return _digest(_code_digest(), config.language, config.site_fingerprint(), sorted(config.encodings.items()))

    def _outputs_intact(self, state: _CacheState) -> bool:
        """Whether the output folder holds exactly the files the last build wrote, and no link.

        Under ``qipu serve`` this Builder knows what it left there. A new
        process looks at folder times instead of listing twenty thousand
        files: a file deleted, added or renamed in a folder changes its time.
        Only folders whose time changed, or was too recent to trust, are
        listed; a file there that the last build did not write (a page of a
        build killed before it saved its state, a file put there by hand),
        a link or a missing file sends the build down the full path, which
        removes or writes it. Files outside the site's own places (a CNAME)
        are the organiser's, and left alone.
        """
        if self._wrote_output:
            return True
        if not state.folders:  # a state without folder times
            return False
        output, outputs, folders = os.fspath(self.config.output_dir), state.outputs, state.folders
        for folder, (mtime, count, recent) in folders.items():
            path = f"{output}/{folder}" if folder else output
            try:
                if not recent and os.lstat(path).st_mtime_ns == mtime:
                    continue
                prefix = f"{folder}/" if folder else ""
                held = 0
                with os.scandir(path) as entries:
                    for entry in entries:
                        rel = prefix + entry.name
                        if entry.is_symlink():
                            return False
                        if entry.is_dir(follow_symlinks=False):
                            if rel not in folders and urls.is_site_path(rel + "/"):
                                return False
                        elif rel in outputs:
                            held += 1
                        elif is_temporary(rel) or urls.is_site_path(rel):
                            return False
                if held != count:
                    return False
            except OSError:
                return False  # the folder is gone, or is no folder
        return True

    def _on_disk(self) -> AbstractSet[str]:
        """The output folder's files: as this Builder left them (`qipu serve`), else listed once per build.

        Links found in the listing are removed at once, before anything is
        written: a page must never be written through a link (site/games -> /etc).
        """
        if self._wrote_output and self._state is not None:
            return self._state.outputs.keys()
        if self._listed is None:
            files, links = listed(self.config.output_dir)
            for rel in links:
                try:
                    os.unlink(self.config.output_dir / rel)
                except FileNotFoundError:
                    pass
            self._listed = files
        return self._listed

    def _damaged(self, state: _CacheState, found: Found) -> set[str]:
        """The output files the last build wrote that were edited, replaced or deleted since.

        A file with a stamp (size, time, inode) is stat'ed and compared. A
        download that was a hard link to its record has none (_stamps): an
        edit of it is an edit of the record, which the scan sees, and it can
        only have been replaced if its folder's entries changed, which
        changes the folder's time; only then is it looked at, and it must
        still be a link to a record.
        """
        if not state.outputs:
            return set()
        stamps, folders = state.stamps, state.folders
        output = os.fspath(self.config.output_dir)
        settled = set()
        for folder, (mtime, _, _) in folders.items():
            try:
                if os.lstat(f"{output}/{folder}" if folder else output).st_mtime_ns == mtime:
                    settled.add(folder)
            except OSError:
                continue
        links = [rel for rel in state.outputs.keys() - stamps.keys() if rel.rpartition("/")[0] not in settled]
        records = {(st.st_dev, st.st_ino) for _, _, st in found.records} if links else set()
        now = _stat_outputs(self.config.output_dir, itertools.chain(stamps.keys() & state.outputs.keys(), links))
        damaged = set()
        for rel, seen in now.items():
            kept = stamps.get(rel)
            if seen is None or (seen[:3] != kept if kept is not None else seen[3] not in records):
                damaged.add(rel)
        return damaged

    def _stamps(
        self, state: _CacheState, fresh: _CacheState, found: Found, touched: set[str] | None, damaged: set[str]
    ) -> dict[str, tuple[int, int, int]]:
        """The stamp of every output file but the downloads that are hard links to their records (see _damaged).

        Taken again for the files this build may have written: ``touched``
        when the build knows them (a quick rebuild); else the files whose
        key changed, that had no stamp, or were damaged, found with set
        operations (in C): twenty thousand files, a few of them written.
        """
        stamps = dict(state.stamps)
        outputs = fresh.outputs
        if touched is not None:
            again = touched
        else:
            for rel in stamps.keys() - outputs.keys():
                del stamps[rel]
            again = {rel for rel, _ in outputs.items() - state.outputs.items()}
            again |= outputs.keys() - stamps.keys()
            again |= damaged & outputs.keys()
        records = {(st.st_dev, st.st_ino) for _, _, st in found.records}
        for rel, stamp in _stat_outputs(self.config.output_dir, again).items():
            if stamp is None or (stamp[3] in records and rel.startswith("files/")):
                stamps.pop(rel, None)
            else:
                stamps[rel] = stamp[:3]
        return stamps

    def _settings(self, found: Found) -> str:
        """One digest of everything the site is made from besides the records."""
        files = []
        for rel, path in found.pages + found.assets:
            try:
                st = path.stat()
            except OSError:  # removed since the scan: the next build sees it gone
                continue
            files.append((rel, st.st_size, st.st_mtime_ns))
        limits = (self.config.file_bytes, self.config.plies)
        return _digest(_code_digest(), self._theme, self.config.site_fingerprint(), files, found.fingerprint(), limits)

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
        self,
        archive: Archive,
        found: Found,
        state: _CacheState,
        fresh: _CacheState,
        timings: dict[str, float],
        damaged: set[str],
        owned: bool,
    ) -> dict[str, tuple[str, bool]]:
        """Produce every output file; returns output path -> (key, written).

        A file is made again when its key changed, when it is missing, or
        when it is in ``damaged``. Also leaves in ``fresh`` what a later
        quick rebuild needs (see :meth:`_quick`).
        """
        from generator.render.markdown import render_markdown

        config = self.config
        output = config.output_dir
        output.mkdir(parents=True, exist_ok=True)
        setup_started = time.perf_counter()
        results: dict[str, tuple[str, bool]] = {}
        theme = self._theme
        existing = self._on_disk() - damaged

        def emit(path: str, key: str, produce: Callable[[], bytes]) -> None:
            if state.outputs.get(path) == key and path in existing:
                results[path] = (key, False)
                return
            try:
                data = produce()
            except Refused:  # swapped for a link or grown since the scan: not published
                return
            results[path] = (key, write_if_changed(output / path, data, _MADE_DIRS))

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
        site = self._site_info(archive, md_pages)
        site_key = _digest(_code_digest(), theme, config.site_fingerprint(), site)
        env = self._template_env()

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
        game_fp: dict[str, str] = {}  # source -> digest of what the other pages show of its game
        parts: dict[str, _EventPart] = {}
        memo: dict[str, tuple[tuple, _EventPart]] = {}
        previous = state.outputs

        def stale_games() -> Iterator[tuple[pages.GameJob, tuple[str, ...]]]:
            """Each game page to render (and the record files it publishes), event by event.

            A generator: the workers render the first event's pages while
            the next event's are keyed.
            """
            for ev in archive.events:
                part = parts[ev.key] = self._event_part(ev, archive, memo)
                for job in part.jobs:
                    game_fp[job.source] = listed = part.listed[job.source]
                    key = _page_key(site_key, listed, job)
                    results[job.url] = (key, False)
                    page_stale = previous.get(job.url) != key or job.url not in existing
                    copies: list[str] = []
                    for rel in (job.source, *job.duplicates):
                        path, sha = urls.record_file(rel), by_source[rel].sha256
                        results[path] = (sha, False)
                        if previous.get(path) != sha or path not in existing:
                            copies.append(rel)
                    if page_stale or copies:
                        yield job, tuple(copies)

        if archive.games:
            env.get_template("game.html")  # compiled once, here, into the cache the workers read
        for url, written, copied in self._render_games(stale_games(), self._render_setup(site), len(archive.games)):
            results[url] = (results[url][0], written)
            for rel in copied:
                path = urls.record_file(rel)
                results[path] = (results[path][0], True)
        self._parts = memo  # every event's, now that the generator has run to its end
        self._end_workers(store=True)
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

        # Event and team pages list hundreds of games each: in workers when
        # many, while this process writes the rest of the site.
        _WORKER["pages"] = later
        for template in sorted({template for _, template, _ in later}):
            env.get_template(template)
        rendered = self._start(_render_page_task, list(range(len(later))), threshold=16)
        try:
            # Original records for download, static files, machine-readable data.
            for rel, path, _ in found.records:
                sha = by_source[rel].sha256
                if sha and urls.record_file(rel) not in results:  # records that are no game (unreadable ...)
                    emit(urls.record_file(rel), sha, lambda path=path: read_file(path, config.file_bytes))
            for rel, path in found.assets:
                try:
                    st = path.stat()
                except OSError:  # removed since the scan
                    continue
                emit(urls.asset_file(rel), _digest(st.st_size, st.st_mtime_ns), lambda path=path: read_file(path, config.file_bytes))
            for name, path in self.theme.static_files().items():
                rel = "static/" + name
                emit(rel, _digest(theme, rel), path.read_bytes)
            emit(".nojekyll", "nojekyll", lambda: b"")
            marker = OWNED if owned else ADOPTED
            emit(MARKER, _digest(marker), lambda: marker)
            emit(urls.GAMES_JSONL, everything, lambda: b"".join(parts[e.key].jsonl for e in archive.events))
            fresh.jobs = {key: part.pickled() for key, part in parts.items()}
            fresh.site = pickle.dumps(site, pickle.HIGHEST_PROTOCOL)
        finally:
            pages_written = rendered()
            _WORKER.pop("pages", None)
        for path, written in pages_written:
            results[path] = (results[path][0], written)
        timings["other pages"] = time.perf_counter() - started
        fresh.site_key = site_key
        fresh.compared = frozenset(compared_files)
        return results

    def _located(self) -> dict[str, str]:
        return self._found.located if self._found is not None else {}

    def _path_of(self, rel: str) -> str:
        """Where the record the site names ``rel`` is on disk."""
        return path_of(self.config.content_dir, self._located(), rel)

    def _render_setup(self, site: pages.SiteInfo) -> dict[str, Any]:
        """What rendering game pages needs, for this process and for workers."""
        return {
            "site": site,
            "output": self.config.output_dir,
            "content": self.config.content_dir,
            "located": self._located(),
            "views_path": self._views.folder,
            "templates": self.cache_dir / "templates",
            "theme": self.theme,
        }

    def _template_env(self) -> Any:
        """The Jinja environment, kept while the theme is unchanged (compiled templates are cached on disk too)."""
        if self._env is None or self._env[0] != self._theme:
            # Jinja: imported only where templates are rendered (not by a quick rebuild).
            from generator.render.env import make_env

            self._env = (self._theme, make_env(self.theme.templates, cache=self.cache_dir / "templates"))
        return self._env[1]

    def _comparisons(self, pairs: list[tuple[str, str]]) -> list[Comparison]:
        """Copies of one game that disagree, read again to be shown side by side (few files)."""
        from generator.archive.compare import compare

        processed: dict[str, Processed] = {}

        def read(rel: str) -> Processed:
            if rel not in processed:
                data = read_file(self._path_of(rel), self.config.file_bytes)
                event = event_key(rel)
                processed[rel] = process(
                    Source(rel, data, sha256(data)),
                    encoding=self.config.encoding_for(rel),
                    options=self.options_for(event),
                    folder=self.folder_meta(event),
                )
            return processed[rel]

        return [compare(read(a), read(b)) for a, b in pairs]

    def _event_part(self, ev: Event, archive: Archive, memo: dict[str, tuple[tuple, _EventPart]]) -> _EventPart:
        """An event's game jobs, their digests and data lines, kept while the event is unchanged.

        Left in ``memo`` for the next build of this Builder (``qipu serve``).
        """
        names = sorted({t for e in ev.games for t in (e.first, e.second) if t})
        # The Indexer hands back the same Event object while its games are unchanged.
        signature = (ev, [(t, archive.teams[t].url) for t in names if t in archive.teams])
        known = self._parts.get(ev.key)
        if known is not None and known[0][0] is ev and known[0] == signature:
            part = known[1]
        else:
            jobs = self._game_jobs(ev, archive)
            listed = {job.source: _listed(job, entry.summary) for job, entry in zip(jobs, ev.games)}
            part = _EventPart(jobs, listed, _digest(list(listed.values())), games_jsonl(ev.games))
        memo[ev.key] = (signature, part)
        return part

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


def _listed(job: pages.GameJob, summary: Summary) -> str:
    """Digest of what pages other than its own show of a game.

    Its job without the record's cache key, and its summary without the
    record's hash: an edit that changes neither (a MARK value) changes that
    game's own page only, and the event, team and home pages keep their keys.
    """
    # One repr of it all: ten thousand games, in the parent while the workers wait.
    text = repr((_listed_fields(job), summary.index_fields()))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_listed_fields = operator.attrgetter(*(name for name in pages.GameJob.__slots__ if name != "key"))


def _page_key(site_key: str, listed: str, job: pages.GameJob) -> str:
    """A game page's key: the site around it, the game as listed, the record's view."""
    return f"{site_key[:32]}{listed[:32]}{job.key}"


def _chunk(tasks: int, jobs: int) -> int:
    # Small chunks: the last one leaves the other workers idle, and a chunk of
    # 1/16 of ten thousand records is most of a second of work.
    return max(1, min(64, tasks // (jobs * 8)))


@functools.cache
def _code_digest() -> str:
    """The generator's own source: a new Qipu (or an edited one) re-reads and re-renders everything."""
    h = hashlib.sha256(CACHE_FORMAT.encode())
    package = Path(__file__).resolve().parent
    for path in sorted(package.rglob("*.py")):
        h.update(path.relative_to(package).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()


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


def build_site(config: Config, **kwargs: Any) -> BuildReport:
    builder = Builder(config, **kwargs)
    report = builder.build()
    builder.wait()
    return report
