"""The build cache on disk: prepared game views in a few SQLite files.

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


def _crc(blob: bytes) -> bytes:
    return struct.pack("<I", zlib.crc32(blob))


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

    def keys(self) -> set[str]:
        return {row[0] for db in self._all() for row in db.execute("SELECT key FROM views")}

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
                    blob = row[0]
                    if isinstance(blob, bytes) and len(blob) >= 4 and _crc(blob[4:]) == blob[:4]:
                        return blob[4:]
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
        rows = [(key, _crc(blob) + blob) for key, blob in items]
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

        Counts and reads keys through the primary-key index: reading the rows
        would read every view.
        """
        try:
            dbs = self._all()
            if sum(db.execute("SELECT count(*) FROM views").fetchone()[0] for db in dbs) <= len(live) * 1.5 + 50:
                return 0
            dead = 0
            for db in dbs:
                gone = [(key,) for (key,) in db.execute("SELECT key FROM views") if key not in live]
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


def _open(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path)
    # A rollback journal: a bulk insert appends pages and journals almost nothing
    # (WAL would write every view twice, once more at the checkpoint).
    db.execute("PRAGMA journal_mode=DELETE")
    # A cache: losing the last commit to a power cut costs a re-read, not
    # correctness (keys are content digests), and an fsync per save costs more.
    db.execute("PRAGMA synchronous=OFF")
    # Another build or `qipu serve` may hold the file a moment: wait rather than fail.
    db.execute("PRAGMA busy_timeout=10000")
    db.execute("CREATE TABLE IF NOT EXISTS views (key TEXT PRIMARY KEY, blob BLOB NOT NULL)")
    return db
