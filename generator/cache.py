"""The build cache on disk: prepared game views in one SQLite file.

One row per processed record (key = content hash + settings), holding the
pickled, finished parts of its game page (not compressed: compressing them
took a tenth of a cold build; about 20 kB per game). One file instead of one per
record because opening ten thousand small files costs more than the work
they save; SQLite gives atomic commits and cheap lookups by key.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Iterable


class ViewStore:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = None

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            try:
                self._db = self._open()
            except sqlite3.DatabaseError:
                # A damaged cache is thrown away, never trusted.
                self.path.unlink(missing_ok=True)
                self._db = self._open()
        return self._db

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path)
        # A rollback journal: a bulk insert appends pages and journals almost nothing
        # (WAL would write every view twice, once more at the checkpoint).
        db.execute("PRAGMA journal_mode=DELETE")
        # A cache: losing the last commit to a power cut costs a re-read, not
        # correctness (keys are content digests), and an fsync per save costs more.
        db.execute("PRAGMA synchronous=OFF")
        db.execute("CREATE TABLE IF NOT EXISTS views (key TEXT PRIMARY KEY, blob BLOB NOT NULL)")
        return db

    def keys(self) -> set[str]:
        return {row[0] for row in self._conn().execute("SELECT key FROM views")}

    def get(self, key: str) -> bytes:
        row = self._conn().execute("SELECT blob FROM views WHERE key = ?", (key,)).fetchone()
        if row is None:
            raise KeyError(key)
        return row[0]

    def has(self, key: str) -> bool:
        return self._conn().execute("SELECT 1 FROM views WHERE key = ?", (key,)).fetchone() is not None

    def put_many(self, items: Iterable[tuple[str, bytes]]) -> None:
        db = self._conn()
        with db:
            db.executemany("INSERT OR REPLACE INTO views (key, blob) VALUES (?, ?)", items)

    def prune(self, live: set[str]) -> int:
        """Drop the rows no record uses any more, once they are a third of the file.

        Counts and reads keys through the primary-key index: reading the rows
        would read every view.
        """
        if self._conn().execute("SELECT count(*) FROM views").fetchone()[0] <= len(live) * 1.5 + 50:
            return 0
        dead = [(key,) for key in self.keys() - live]
        with self._conn() as db:
            db.executemany("DELETE FROM views WHERE key = ?", dead)
        return len(dead)

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
