"""What the last build knew, kept in the cache folder between builds (the build cache).

:class:`BuildCache` is the one object the build asks: the state of the last
build (records by path, output keys, what a quick rebuild needs) and the
prepared game views. Both live in SQLite files of sealed blobs
(generator.cache): the state as named parts, the views by key. A part that
fails its check, or a file SQLite cannot read, throws the cache away and the
build starts afresh.

The big tables (records, output keys, output stamps) are stored one part per
folder: a rebuild after one edit rewrites the few folders it touched, not
twenty thousand entries.
"""

from __future__ import annotations

import functools
import hashlib
import pickle
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator import __version__
from generator.archive.summary import Summary
from generator.cache import CacheDamaged, StateStore, ViewStore, record_key
from generator.diagnostics import Diagnostic

CACHE_FORMAT = f"{__version__}/2"

# The tables stored one part per folder of their keys, and the other fields, one part each.
_TABLES = ("records", "outputs", "stamps")
_FIELDS = (
    "inputs", "settings", "reading", "scanned_ns", "games", "diagnostics", "jobs_events", "site", "site_key",
    "compared", "boards", "folders", "unpruned",
)  # fmt: skip


@functools.cache
def code_digest() -> str:
    """The generator's own source: a new Qipu (or an edited one) re-reads and re-renders everything."""
    h = hashlib.sha256(CACHE_FORMAT.encode())
    package = Path(__file__).resolve().parents[1]
    for path in sorted(package.rglob("*.py")):
        h.update(path.relative_to(package).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def digest(*parts: object) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(repr(part).encode("utf-8"))
        h.update(b"\x00")
    return h.hexdigest()


class Summaries:
    """The summaries of every record's games by path, made by this build or read from the last one's when asked.

    A record holds one game, or several (a match): a tuple of one summary per game, in the file's order.

    A quick rebuild (one record edited) looks at one or two of ten
    thousand: the others stay on disk. Summaries that arrive from workers
    come pickled, and are kept so, to be stored as they are.
    """

    __slots__ = ("keys", "raw", "_live", "_store")

    def __init__(self, store: StateStore | None = None, keys: dict[str, str] | None = None) -> None:
        self.keys: dict[str, str] = keys if keys is not None else {}  # path -> its record's key
        self.raw: dict[str, bytes] = {}  # made by this build, pickled (to be stored)
        self._live: dict[str, tuple[Summary, ...]] = {}
        self._store = store

    def __contains__(self, name: str) -> bool:
        return name in self.keys

    def __getitem__(self, name: str) -> tuple[Summary, ...]:
        value = self._live.get(name)
        if value is None:
            raw = self.raw.get(name)
            if raw is None:
                if self._store is None or name not in self.keys:
                    raise KeyError(name)
                raw = self._store.get(f"summary/{name}")
            value = self._live[name] = self._loaded(raw, name)
        return value

    def pickled(self, name: str) -> bytes:
        raw = self.raw.get(name)
        if raw is None:
            raw = pickle.dumps(self[name], pickle.HIGHEST_PROTOCOL)
        return raw

    def load(self, names: Collection[str]) -> None:
        """Read these from disk at once (a full build needs every one): one query, not ten thousand."""
        wanted = {name for name in names if name not in self._live and name not in self.raw}
        if len(wanted) > 50 and self._store is not None:
            for part, raw in self._store.parts("summary/"):
                name = part[8:]
                if name in wanted:
                    self._live[name] = self._loaded(raw, name)

    def put(self, name: str, raw: bytes, value: tuple[Summary, ...]) -> None:
        self.keys[name] = record_key(value[0].key)
        self.raw[name] = raw
        self._live[name] = value

    def carried(self, names: Collection[str]) -> Summaries:
        """A copy holding only these names; what this one read stays read."""
        copy = Summaries(self._store, {name: self.keys[name] for name in names if name in self.keys})
        copy._live = {name: value for name, value in self._live.items() if name in copy.keys}
        return copy

    def _loaded(self, raw: bytes, name: str) -> tuple[Summary, ...]:
        """A record's summaries read back, checked: of this record, as the records table knows it."""
        try:
            played = pickle.loads(raw)
        except Exception as error:  # noqa: BLE001 - passed its check, yet not a summary of this Qipu
            raise CacheDamaged(f"the summary of {name} cannot be read") from error
        key = self.keys.get(name)
        if not (
            isinstance(played, tuple)
            and played
            and all(isinstance(s, Summary) and s.source == name and record_key(s.key) == key for s in played)
        ):
            raise CacheDamaged(f"the summary of {name} is not the one the state names")
        return played


@dataclass(slots=True)
class BuildState:
    """What a build knew: records by path, output keys by file, and what a quick rebuild needs."""

    records: dict[str, tuple[int, int, str]] = field(default_factory=dict)  # path -> size, mtime, key
    summaries: Summaries = field(default_factory=Summaries)  # path -> the summaries of its games
    outputs: dict[str, str] = field(default_factory=dict)  # output path -> key
    inputs: str = ""  # digest of every input of the last build that wrote the site
    settings: str = ""  # digest of the inputs other than the records (code, theme, site.toml, pages, assets)
    reading: str = ""  # digest of the settings that decide how records are read (Builder.reading)
    scanned_ns: int = 0  # wall clock when that build looked at the files
    games: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # For a quick rebuild: the game page jobs per event (pickled), the site
    # around every page and its key, the records compared side by side.
    jobs: dict[str, bytes | None] = field(default_factory=dict)  # None: in the state file (BuildCache.event_jobs)
    site: bytes = b""
    site_key: str = ""
    compared: frozenset[str] = frozenset()
    boards: dict[str, str] = field(default_factory=dict)  # static board drawings (generator.boards)
    # Output folder -> (modification time once the build had written it, or
    # None: too recent to trust; outputs it holds; written too recently for
    # its time to be trusted): a folder whose time has not changed since
    # holds the same files, so the next build need not list it.
    folders: dict[str, tuple[int | None, int, bool]] = field(default_factory=dict)
    # Output file -> (size, modification time, inode) once written: a file
    # whose stamp changed was edited or replaced by hand, and is made again.
    stamps: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    token: str = ""  # names this state: another process that saved since is seen (BuildCache.save)
    # Records read again since the view cache was last pruned: at most that
    # many of its rows can be dead, so it is not counted before there are enough.
    unpruned: int = 0

    @property
    def jobs_events(self) -> list[str]:
        return sorted(self.jobs)


def _by_folder(table: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The entries of ``table`` grouped by folder."""
    groups: dict[str, dict[str, Any]] = {}
    for key, value in table.items():
        folder = key.rpartition("/")[0]
        group = groups.get(folder)
        if group is None:
            group = groups[folder] = {}
        group[key] = value
    return groups


class BuildCache:
    """The cache folder of one content and output folder: the last build's state and the game views."""

    def __init__(self, folder: Path, content: Path, output: Path) -> None:
        self.folder = folder
        self.views = ViewStore(folder)
        self.store = StateStore(folder / f"state-{digest(str(content), str(output))[:16]}.sqlite")
        self._on_disk = ""  # token of the state the file holds, as this object last read or wrote it
        # The tables as the file holds them, by table and folder: a save rewrites
        # the folders that changed from these (see save), without grouping every entry again.
        self._groups: dict[str, dict[str, dict[str, Any]]] | None = None

    def load(self) -> BuildState:
        """The last build's state; an empty one when there is none, or it is damaged or another Qipu's.

        Another Qipu's state gives only the files it wrote, so that pages of
        records since removed or renamed are still deleted. Their keys cannot
        match this version's pages (they digest the code), so every page is
        rendered again.
        """
        store = self.store
        self._groups = None
        try:
            fields = {name[6:]: pickle.loads(raw) for name, raw in store.parts("field/")}
            tables: dict[str, dict[str, Any]] = {table: {} for table in _TABLES}
            groups: dict[str, dict[str, dict[str, Any]]] = {table: {} for table in _TABLES}
            for table in _TABLES if fields.get("version") == code_digest() else ("outputs",):
                start = len(table) + 1
                for name, raw in store.parts(f"{table}/"):
                    group = groups[table][name[start:]] = pickle.loads(raw)
                    tables[table].update(group)
        except Exception:  # noqa: BLE001 - damaged (CacheDamaged, a bad pickle): start afresh
            store.discard()
            self._on_disk = ""
            return BuildState()
        if fields.get("version") != code_digest():
            self._on_disk = ""
            return BuildState(outputs=tables["outputs"])
        self._groups = groups
        state = BuildState(
            records=tables["records"], outputs=tables["outputs"], stamps=tables["stamps"],
            summaries=Summaries(store, {rel: record[2] for rel, record in tables["records"].items()}),
        )  # fmt: skip
        for name in _FIELDS:
            if name in fields and name != "jobs_events":
                setattr(state, name, fields[name])
        state.jobs = dict.fromkeys(fields.get("jobs_events", ()), None)  # read when asked (event_jobs)
        state.token = self._on_disk = fields.get("token", "")
        return state

    def event_jobs(self, state: BuildState, event: str) -> bytes:
        """An event's game page jobs, pickled; KeyError when the state has none."""
        raw = state.jobs[event]
        if raw is None:
            raw = state.jobs[event] = self.store.get(f"jobs/{event}")
        return raw

    def save(self, state: BuildState, previous: BuildState, changed: dict[str, Collection[str]] | None = None) -> None:
        """Store ``state``: only what changed since ``previous``, when that is what the file holds.

        ``changed``: by table, the keys whose entries may differ from
        ``previous`` (the build knows them: the records read again, the
        files a quick rebuild wrote); a table not named is compared whole.
        Another process (a second ``qipu build`` beside ``qipu serve``) may
        have saved since this one read: then everything is written again.
        """
        store = self.store
        try:
            on_disk = pickle.loads(store.get("field/token"))
        except Exception:  # noqa: BLE001 - none, or damaged: write it all
            on_disk = ""
        everything = (
            not previous.token or on_disk != previous.token or on_disk != self._on_disk or self._groups is None
        )
        if everything:
            # What this state left on disk goes too: read it first.
            for event in [event for event, raw in state.jobs.items() if raw is None]:
                try:
                    self.event_jobs(state, event)
                except (KeyError, CacheDamaged):
                    del state.jobs[event]
            previous = BuildState()
        put: dict[str, bytes] = {}
        drop: list[str] = []
        dumps = functools.partial(pickle.dumps, protocol=pickle.HIGHEST_PROTOCOL)
        groups = {table: {} for table in _TABLES} if everything or self._groups is None else self._groups
        self._groups = None  # until the file holds what they say
        for table in _TABLES:
            new, old = getattr(state, table), getattr(previous, table)
            if new is old:
                continue
            if everything:
                groups[table] = _by_folder(new)
                folders: set[str] = set(groups[table])
            else:
                keys = (changed or {}).get(table)
                if keys is None:
                    keys = {key for key, _ in new.items() - old.items()} | (old.keys() - new.keys())
                folders = set()
                for key in keys:
                    folder = key.rpartition("/")[0]
                    group = groups[table].setdefault(folder, {})
                    if key in new:
                        group[key] = new[key]
                    else:
                        group.pop(key, None)
                    folders.add(folder)
            for folder in folders:
                entries = groups[table].get(folder)
                if entries:
                    put[f"{table}/{folder}"] = dumps(entries)
                else:
                    groups[table].pop(folder, None)
                    drop.append(f"{table}/{folder}")
        summaries = state.summaries
        fresh = summaries.keys if everything else summaries.raw
        for name in fresh:
            put[f"summary/{name}"] = summaries.pickled(name)
        drop += [f"summary/{name}" for name in previous.summaries.keys.keys() - summaries.keys.keys()]
        for event, raw in state.jobs.items():
            if raw is not None and previous.jobs.get(event) is not raw:
                put[f"jobs/{event}"] = raw
        drop += [f"jobs/{event}" for event in previous.jobs.keys() - state.jobs.keys()]
        for name in (*_FIELDS, "token"):
            value = getattr(state, name)
            if everything or value != getattr(previous, name):
                put[f"field/{name}"] = dumps(value)
        put["field/version"] = dumps(code_digest())
        store.write(put, drop, everything=everything)
        self._on_disk = state.token
        self._groups = groups

    def discard(self) -> None:
        """Forget everything (``qipu build --clean``, or a damaged cache)."""
        self.views.clear()
        self.store.discard()
        self._groups = None
        for old in self.folder.glob("state-*.pickle"):  # an earlier Qipu's state, with its journal
            old.unlink(missing_ok=True)
        for old in self.folder.glob("state-*.journal"):
            old.unlink(missing_ok=True)
        self._on_disk = ""

    def close(self) -> None:
        self.views.close()
        self.store.close()
