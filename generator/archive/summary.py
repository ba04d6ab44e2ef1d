"""What the index needs of one record: a small value, cached per record file.

Its own module because the build state holds ten thousand of them and a quick
rebuild unpickles a few without importing the index itself.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from generator.diagnostics import Diagnostic
from generator.model import Result, game_id

if TYPE_CHECKING:
    from generator.pipeline import Processed


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
    # A file of several games (a match) gives one summary per game: its
    # number in the file, from 1, and the line it starts on. 0 and 1 for a
    # file of one game.
    game: int = 0
    line: int = 1
    more: tuple[str | None, ...] = ()  # the players of seats three and on (Dou Dizhu, bridge)
    # A game won on score: per seat or partnership ("first", "first+third"), in key order.
    score: tuple[tuple[str, float], ...] = ()
    # Games played in duplicate (bridge): the board's number and the table it was played at.
    board: str = ""
    room: str = ""
    # How the rules ended the game, as its engine words it (an English
    # template and its values): a bridge table's contract and tricks.
    decided: tuple[str, tuple[tuple[str, object], ...]] = ("", ())

    def __reduce__(self) -> tuple[type, tuple]:
        return (Summary, tuple(getattr(self, name) for name in Summary.__slots__))

    def index_fields(self) -> tuple:
        """Every field but the record's hash and cache key.

        What the index and every page other than the record's own game page
        are made from: an edit that leaves these equal (a MARK value, a
        comment) changes only that game page and the download.
        """
        return _index_fields(self)

    @property
    def id(self) -> str:
        """What names this game in the archive: its file, and ``#n`` after it for game n of a file of several."""
        return game_id(self.source, self.game)

    @property
    def players(self) -> tuple[str | None, ...]:
        """The player (team) of every seat, as written, in the order of play."""
        return (self.first, self.second, *self.more)

    def index_event(self) -> str:
        """The event the index puts this record in: its folder, else the event its header names."""
        return self.event_key or self.event_name or "other"


_INDEX_FIELDS = tuple(name for name in Summary.__slots__ if name not in ("sha256", "key"))
_index_fields = operator.attrgetter(*_INDEX_FIELDS)  # a tuple of them, read in C


def summarize(p: Processed, key: str) -> Summary:
    """The summary of one processed game (see :func:`generator.pipeline.process_games`)."""
    # Not imported with the module: the quick path only unpickles summaries.
    from generator import games
    from generator.archive import duplicates
    from generator.pipeline import event_key, group_key

    moves = p.moves_text()
    moves_key, opening = duplicates.game_keys(p.code or "", moves)
    game = games.get(p.code)
    if game is not None and game.duplicate:
        # A board played in duplicate is one game only at one table: its deal,
        # board and room are part of its key. Alike auctions at other tables
        # are the point of duplicate play, not near copies.
        deal = (p.record.setup or []) if p.record is not None else []
        table = [*deal, p.meta.board or "", p.meta.room or "", "\x1e"]
        moves_key, opening = duplicates.game_keys(p.code or "", [*table, *moves])[0], ""
    decision = p.replay.decision if p.replay is not None else None
    score = p.score
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
        game=p.game,
        line=p.record.line if p.record else 1,
        more=p.meta.more,
        score=tuple(sorted(score.items())) if score else (),
        board=p.meta.board or "",
        room=p.meta.room or "",
        decided=(decision.reason, tuple(decision.reason_args)) if decision is not None else ("", ()),
    )

