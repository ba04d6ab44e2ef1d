"""What the index needs of one record: a small value, cached per record file.

Its own module because the build state holds ten thousand of them and a quick
rebuild unpickles a few without importing the index itself.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass

from generator.diagnostics import Diagnostic
from generator.model import Result


@dataclass(frozen=True, slots=True)
class Summary:
    """What the index needs of one record; the full game stays in the cache.

    Ten thousand of these are pickled into the build state on every build, so
    they pickle as plain tuples (the slots-dataclass default is much slower).
    """

    source: str
    sha256: str
    key: str  # cache key of the processed record
    code: str | None  # None: not a game Qipu can show (undecodable, unknown code)
    event_key: str
    group: str
    first: str | None  # as written (merged metadata)
    second: str | None
    declared: Result | None
    declared_header: Result | None
    declared_name: Result | None
    computed: Result | None
    rule: str | None
    result: Result | None  # computed if the rules decided, else declared
    plies: int
    moves: int
    moves_key: str
    date: str | None
    time: str | None
    place: str | None
    event_name: str | None
    diagnostics: tuple[Diagnostic, ...]
    opening: str = ""  # duplicates.game_keys()[1]: copies that disagree later share it
    spellings: tuple[tuple[str, str], ...] = ()  # (header, file name) team names that differ

    def __reduce__(self) -> tuple[type, tuple]:
        return (Summary, tuple(getattr(self, name) for name in Summary.__slots__))

    def index_fields(self) -> tuple:
        """Every field but the record's hash and cache key.

        What the index and every page other than the record's own game page
        are made from: an edit that leaves these equal (a MARK value, a
        comment) changes only that game page and the download.
        """
        return _index_fields(self)

    def index_event(self) -> str:
        """The event the index puts this record in: its folder, else the event its header names."""
        return self.event_key or self.event_name or "other"


_INDEX_FIELDS = tuple(name for name in Summary.__slots__ if name not in ("sha256", "key"))
_index_fields = operator.attrgetter(*_INDEX_FIELDS)  # a tuple of them, read in C
