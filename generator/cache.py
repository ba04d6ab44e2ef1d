"""The build cache on disk: SQLite files of sealed blobs (length and CRC-32 each).

Two stores, one mechanism: the prepared game views (:class:`ViewStore`), and
the state of the last build (:class:`StateStore`, see generator.build.state).

One row per processed record (key = content hash + settings), holding the
pickled, finished parts of its game page (not compressed: compressing them
took a tenth of a cold build; about 20 kB per game). SQLite files rather than
one file per record, because opening ten thousand small files costs more than
the work they save; SQLite gives atomic commits and cheap lookups by key.

One file per writing process (``views-0.sqlite``, ``views-1.sqlite`` ...,
numbered as the build's workers are): each worker stores the views it made
itself, in parallel and without waiting for a lock, instead of sending two
hundred megabytes through a pipe to a parent that stored them one by one. A
reader looks for a key in each file; there are as many as the build had workers.
"""

from __future__ import annotations

import sqlite3
import struct
import zlib
from collections.abc import Iterable
from pathlib import Path

_PREFIX = "views-"

# Everything the cache holds is checked before it is believed: a file cut
# short, zeroed or with a flipped bit (a full disk, a killed build, a bad
# sector) is thrown away and made again, never unpickled as it is. A CRC-32
# finds every such accident (it is no defence against someone who can
# write the cache, who could as well change the code) at a third of SHA-256's cost.
_SEAL = struct.Struct("<QI")  # length and CRC-32 of what follows


class CacheDamaged(Exception):
    """Something in the cache failed its check: the build throws the cache away and starts afresh."""


def seal(blob: bytes) -> bytes:
    """``blob`` behind its length and CRC (see :func:`unsealed`)."""
    return _SEAL.pack(len(blob), zlib.crc32(blob)) + blob


def unsealed(data: bytes, start: int = 0) -> tuple[memoryview, int] | None:
    """The blob sealed at ``start`` (a view, not a copy) and where the next one begins; None where damaged."""
    end = start + _SEAL.size
    if len(data) < end:
        return None
    size, crc = _SEAL.unpack_from(data, start)
    blob = memoryview(data)[end : end + size]
    if len(blob) != size or zlib.crc32(blob) != crc:
        return None
    return blob, end + size


def view_key(record: str, game: int) -> str:
    """The cache key of one game's view: its record's key, and ``#n`` for game n of a file of several."""
    return f"{record}#{game}" if game else record


def record_key(view: str) -> str:
    """The key of the record a view's key (:func:`view_key`) belongs to."""
    return view.partition("#")[0]


class ViewStore:
    """The views in ``folder``: read from every shard, written to one."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._dbs: dict[int, sqlite3.Connection] = {}
        self._shards: list[int] | None = None  # the files there, found on first read

    def _conn(self, shard: int) -> sqlite3.Connection:
        db = self._dbs.get(shard)
        if db is None:
            self.folder.mkdir(parents=True, exist_ok=True)
            path = self.folder / f"{_PREFIX}{shard}.sqlite"
            try:
                db = _open(path)
            except sqlite3.DatabaseError:
                # A damaged cache is thrown away, never trusted.
                for stale in self.folder.glob(f"{path.name}*"):
                    stale.unlink(missing_ok=True)
                db = _open(path)
            self._dbs[shard] = db
        return db

    def _all(self) -> list[sqlite3.Connection]:
        if self._shards is None:
            numbers = []
            for path in self.folder.glob(f"{_PREFIX}*.sqlite"):
                number = path.stem[len(_PREFIX) :]
                if number.isdigit():
                    numbers.append(int(number))
            self._shards = sorted(numbers)
        return [self._conn(shard) for shard in self._shards]

    def get(self, key: str) -> bytes:
        """The view stored under ``key``; KeyError when there is none, or it failed its check.

        Each blob carries a CRC-32 of itself (put_many): a view damaged on
        disk is a miss, never a wrong page. A file SQLite finds damaged is
        thrown away whole (:meth:`clear`), and every view is a miss.
        """
        try:
            for db in self._all():
                row = db.execute("SELECT blob FROM views WHERE key = ?", (key,)).fetchone()
                if row is not None:
                    try:
                        return _checked(row[0], key)
                    except CacheDamaged:
                        break
        except sqlite3.DatabaseError:
            self.clear()
        raise KeyError(key)

    def has(self, key: str) -> bool:
        try:
            return any(db.execute("SELECT 1 FROM views WHERE key = ?", (key,)).fetchone() for db in self._all())
        except sqlite3.DatabaseError:
            self.clear()
            return False

    def put_many(self, items: Iterable[tuple[str, bytes]], shard: int = 0) -> None:
        """Store views in the shard of this process (a worker's number; 0 outside workers)."""
        rows = [(key, seal(blob)) for key, blob in items]
        try:
            db = self._conn(shard)
            with db:
                db.executemany("INSERT OR REPLACE INTO views (key, blob) VALUES (?, ?)", rows)
        except sqlite3.DatabaseError:
            # Damaged since it was opened: start this shard afresh.
            self.clear()
            db = self._conn(shard)
            with db:
                db.executemany("INSERT OR REPLACE INTO views (key, blob) VALUES (?, ?)", rows)
        if self._shards is not None and shard not in self._shards:
            self._shards = sorted([*self._shards, shard])

    def prune(self, live: set[str]) -> int:
        """Drop the rows no record uses any more, once they are a third of the store.

        ``live``: the keys of the records in use; a view of a game of one of
        them (:func:`view_key`) is kept.

        Counts and reads keys through the primary-key index: reading the rows
        would read every view.
        """
        try:
            dbs = self._all()
            if sum(db.execute("SELECT count(*) FROM views").fetchone()[0] for db in dbs) <= len(live) * 1.5 + 50:
                return 0
            dead = 0
            for db in dbs:
                gone = [(key,) for (key,) in db.execute("SELECT key FROM views") if record_key(key) not in live]
                with db:
                    db.executemany("DELETE FROM views WHERE key = ?", gone)
                dead += len(gone)
            return dead
        except sqlite3.DatabaseError:
            self.clear()
            return 0

    def clear(self) -> None:
        """Delete every view: cheaper than deleting rows, which reads each row's pages back.

        Also the one ``views.sqlite`` of earlier versions (a new version reads
        every record again, which is when this is called), and any journal a
        build stopped mid-commit left.
        """
        self.close()
        for path in self.folder.glob("views*.sqlite*"):
            path.unlink(missing_ok=True)
        self._shards = []

    def close(self) -> None:
        """Close every file; the next use looks again for the shards there (workers may have added one)."""
        for db in self._dbs.values():
            try:
                db.close()
            except sqlite3.DatabaseError:
                pass
        self._dbs = {}
        self._shards = None


def _open(path: Path, table: str = "views", key: str = "key") -> sqlite3.Connection:
    db = sqlite3.connect(path, check_same_thread=False)
    # A rollback journal: a bulk insert appends pages and journals almost nothing
    # (WAL would write every view twice, once more at the checkpoint).
    db.execute("PRAGMA journal_mode=DELETE")
    # A cache: losing the last commit to a power cut costs a re-read, not
    # correctness (keys are content digests), and an fsync per save costs more.
    db.execute("PRAGMA synchronous=OFF")
    # Another build or `qipu serve` may hold the file a moment: wait rather than fail.
    db.execute("PRAGMA busy_timeout=10000")
    db.execute(f"CREATE TABLE IF NOT EXISTS {table} ({key} TEXT PRIMARY KEY, blob BLOB NOT NULL)")
    return db


class StateStore:
    """What the last build knew (generator.build.state), as named parts in one SQLite file.

    The same mechanism as the views: each part is a sealed blob (length and
    CRC), so a damaged part is found, never believed. Parts are small enough
    that a rebuild after one edit rewrites a few of them (one folder's
    records and pages, one summary), in one transaction: a build killed
    while saving leaves the previous state whole.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = None

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            try:
                self._db = _open(self.path, "parts", "name")
            except sqlite3.DatabaseError:
                self.discard()
                self._db = _open(self.path, "parts", "name")
        return self._db

    def get(self, name: str) -> bytes:
        """The part ``name``; KeyError when missing, CacheDamaged when it fails its check."""
        try:
            row = self._conn().execute("SELECT blob FROM parts WHERE name = ?", (name,)).fetchone()
        except sqlite3.DatabaseError as error:
            raise CacheDamaged(f"{self.path.name} cannot be read") from error
        if row is None:
            raise KeyError(name)
        return _checked(row[0], name)

    def parts(self, prefix: str) -> list[tuple[str, bytes]]:
        """Every part whose name starts with ``prefix`` (a name such as ``records/``), checked."""
        try:
            rows = self._conn().execute(
                "SELECT name, blob FROM parts WHERE name >= ? AND name < ?", (prefix, prefix + "\U0010ffff")
            ).fetchall()
        except sqlite3.DatabaseError as error:
            raise CacheDamaged(f"{self.path.name} cannot be read") from error
        return [(name, _checked(blob, name)) for name, blob in rows]

    def write(self, put: dict[str, bytes], drop: Iterable[str] = (), *, everything: bool = False) -> None:
        """Store the parts ``put`` and delete those named in ``drop``, in one transaction.

        ``everything``: the parts replace all that was there.
        """
        rows = [(name, seal(blob)) for name, blob in put.items()]
        try:
            db = self._conn()
            with db:
                if everything:
                    db.execute("DELETE FROM parts")
                db.executemany("DELETE FROM parts WHERE name = ?", [(name,) for name in drop])
                db.executemany("INSERT OR REPLACE INTO parts (name, blob) VALUES (?, ?)", rows)
        except sqlite3.DatabaseError:
            self.discard()  # damaged since it was opened: the next build starts afresh
            raise

    def discard(self) -> None:
        """Delete the file (and what a commit cut short left beside it)."""
        self.close()
        for path in self.path.parent.glob(f"{self.path.name}*"):
            path.unlink(missing_ok=True)

    def close(self) -> None:
        if self._db is not None:
            try:
                self._db.close()
            except sqlite3.DatabaseError:
                pass
            self._db = None


def _checked(blob: object, name: str) -> bytes:
    found = unsealed(blob) if isinstance(blob, bytes) else None
    if found is None or found[1] != len(blob):  # type: ignore[arg-type]
        raise CacheDamaged(f"{name} failed its check")
    return found[0].tobytes()
