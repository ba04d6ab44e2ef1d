"""One record through decode, parse and replay: the per-file half of the flow.

This is what the build runs in its worker processes and caches by content
hash, and what ``qipu check`` runs without rendering anything. It never
raises on bad input and never prints: everything found goes into the
returned :class:`Processed`'s diagnostics.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from generator import decode, formats, games, metadata
from generator.config import DEFAULT_PLIES
from generator.diagnostics import Diagnostic, define, make
from generator.i18n import Named, T
from generator.model import Metadata, Record, Replay, Result, Source, decided, game_id, seats_of, winner_by_score

E_RESULT = define(
    "RES-E001",
    "error",
    "The declared result contradicts the result the rules decide",
    "Correct the result in the header and the file name; the page and the standings use the computed result.",
)
W_NO_RESULT = define(
    "RES-W001",
    "warning",
    "No result is declared and the rules did not decide the game",
    "Add the result (先手胜, 后手胜, 平局) to the header or the file name.",
)
E_TOO_LONG = define(
    "REC-E002",
    "error",
    "The record has more moves than the ply limit",
    "No real game is that long: check that the right file was saved. The limit is limits.plies in "
    "site.toml; the record is not replayed, only offered for download.",
)
E_CRASH = define(
    "REC-E900",
    "error",
    "Qipu failed on this record (a bug in Qipu, not in the record)",
    "Report it with the record attached; the rest of the site is built.",
)


@dataclass(slots=True)
class Processed:
    """Everything the later stages need to know about one record file."""

    source: str  # path relative to the content folder
    sha256: str
    size: int
    code: str | None  # registry code, or None when not a known game
    meta: Metadata  # merged: header, then file name, then folder
    declared_header: Result | None
    declared_name: Result | None
    record: Record | None
    replay: Replay | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    named: Metadata | None = None  # what the file name alone says
    game: int = 0  # its number in a file of several games, from 1; 0: the file holds one game

    @property
    def id(self) -> str:
        """What names this game in the archive: its file, and its number where the file holds several."""
        return game_id(self.source, self.game)

    @property
    def players(self) -> tuple[str | None, ...]:
        """The player (team) of every seat, in the order of play (merged metadata)."""
        return self.meta.players

    @property
    def score(self) -> dict[str, float] | None:
        """The score of a game whose result is one (boxes, chips, bridge points): per seat or partnership.

        The rules' where they counted it, else the declared one; None for
        games that are won, not scored (Go's area count is how it was won,
        not a score the standings add up).
        """
        game = games.get(self.code)
        if game is None or not game.scored:
            return None
        decision = self.replay.decision if self.replay else None
        if decision is not None and decision.score:
            return {key: value for key, value in decision.score.items() if seats_of(key)}
        declared = self.meta.score
        return {key: float(value) for key, value in declared.items() if seats_of(key)} if declared else None

    def spellings(self) -> tuple[tuple[str, str], ...]:
        """Team names the header and the file name spell differently: (header, file name) pairs.

        The same game names the same team twice; a difference is a spelling
        the organiser may want as an alias ("八哥" in the record, "BaGe" in its name).
        """
        named, header = self.named, self.record.header if self.record else None
        if named is None or header is None:
            return ()
        pairs = []
        for side in ("first", "second"):
            written, in_name = getattr(header, side), getattr(named, side)
            if written and in_name and metadata.loose(written) != metadata.loose(in_name):
                pairs.append((written, in_name))
        return tuple(pairs)

    @property
    def declared(self) -> Result | None:
        return self.meta.result

    @property
    def computed(self) -> Result | None:
        return self.replay.computed if self.replay else None

    @property
    def result(self) -> Result | None:
        """The result that counts: the rules' where they decided, else the declared one."""
        computed = self.computed
        if computed is not None:
            return computed
        declared = self.declared
        return declared if decided(declared) else None

    @property
    def plies(self) -> int:
        return len(self.replay.plies) if self.replay else 0

    def moves_text(self) -> list[str]:
        return [m.text for m in self.record.moves] if self.record else []


def event_key(rel_path: str) -> str:
    """Records directly in a folder under content/ belong to the event of that folder."""
    slash = rel_path.find("/")
    return rel_path[:slash] if slash > 0 else ""


def group_key(rel_path: str) -> str:
    """Folders below the event folder: stages or groups (``A1A2/``, ``决赛/8.4/``)."""
    first, last = rel_path.find("/"), rel_path.rfind("/")
    return rel_path[first + 1 : last] if last > first else ""


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def process(
    source: Source,
    *,
    encoding: str | None,
    options: Mapping[str, Mapping[str, Any]],
    folder: Metadata | None = None,
    plies: int = DEFAULT_PLIES,
) -> Processed:
    """Decode, parse and replay one record. ``options`` maps a game code to its rule options.

    ``plies``: a record with more moves than this is not replayed (REC-E002).
    A file that holds several games gives its first here: see :func:`process_games`.
    """
    return process_games(source, encoding=encoding, options=options, folder=folder, plies=plies)[0]


def process_games(
    source: Source,
    *,
    encoding: str | None,
    options: Mapping[str, Mapping[str, Any]],
    folder: Metadata | None = None,
    plies: int = DEFAULT_PLIES,
) -> list[Processed]:
    """Every game of one record file, each decoded, parsed and replayed as :func:`process` does one.

    A file of one game gives a list of one. A file of several (an Amazons
    file, a match of EinStein, bridge or poker) gives one :class:`Processed`
    per game, in the file's order, each with its own moves, replay, result
    and diagnostics; what is said about the file as a whole (its encoding)
    goes with its first game.
    """
    try:
        return _process_games(source, encoding=encoding, options=options, folder=folder, plies=plies)
    except Exception as exc:  # a bug in Qipu must not take the build down
        diag = make(
            source.path, 0, 0, E_CRASH, "internal error while reading this record: {error}", error=f"{type(exc).__name__}: {exc}"
        )
        return [Processed(source.path, source.sha256, len(source.data), None, Metadata(), None, None, None, None, [diag])]


def _process_games(
    source: Source,
    *,
    encoding: str | None,
    options: Mapping[str, Mapping[str, Any]],
    folder: Metadata | None,
    plies: int,
) -> list[Processed]:
    name = source.path.rpartition("/")[2]  # a relative POSIX path (PurePosixPath costs microseconds)
    from_name = metadata.from_filename(name)
    text, found = decode.decode(source, encoding)
    if text is None:
        return [
            Processed(
                source.path, source.sha256, len(source.data), None, from_name, None, from_name.result, None, None, found
            )
        ]
    records = formats.read_games(text, from_name.code)
    if len(records) == 1:
        return [_process_game(source, records[0], from_name, found, options, folder, plies)]
    # The file name's result is the match's (poker's chips, the games won),
    # not any one game's, and so is its time: each game is compared with its
    # own header only. Who moves first changes from game to game of a match,
    # so the name's two teams are taken in each game's order where they are
    # the same two teams.
    match = dataclasses.replace(from_name, result=None, result_text=None, time=None)
    return [
        _process_game(source, record, _named_as_played(match, record), found if n == 0 else [], options, folder, plies)
        for n, record in enumerate(records)
    ]


def _named_as_played(match: Metadata, record: Record) -> Metadata:
    """The file name's facts for one game of a match: its two teams in the order this game's header has them."""
    header = record.header
    if (match.first, match.second) == (header.second, header.first) and match.first != match.second:
        return dataclasses.replace(match, first=header.first, second=header.second)
    return dataclasses.replace(match)


def _process_game(
    source: Source,
    record: Record,
    from_name: Metadata,
    found: list[Diagnostic],
    options: Mapping[str, Mapping[str, Any]],
    folder: Metadata | None,
    plies: int,
) -> Processed:
    """One game of a file, read: its replay, its merged metadata, its result checked."""
    diagnostics = found + record.diagnostics
    game = games.get(record.code) or games.get(from_name.code)
    header = record.header
    if header.result is None and header.score:  # a score declared alone says who won
        header.result = winner_by_score(header.score)
    if len(record.moves) > plies:
        first = record.moves[plies]
        diagnostics.append(
            make(
                source.path,
                first.line,
                first.column,
                E_TOO_LONG,
                "the record has {moves} moves, more than the limit of {limit} (limits.plies in site.toml): it is not replayed",
                moves=len(record.moves),
                limit=plies,
            )
        )
        game = None
    replay = None
    if game is not None:
        replay = game.module("rules").replay(record, game, options.get(game.code, game.options))
        _reread_colour_words(from_name, game, replay)
    meta, merged = metadata.merge(source.path, record.header, from_name, folder)
    if record.line != 1:  # merge() speaks of the file's first line: this game's header starts later
        merged = [dataclasses.replace(d, line=record.line) if d.line == 1 else d for d in merged]
    diagnostics += merged
    meta.code = game.code if game else (record.code or from_name.code)
    # What merge() does not know of: the players of seats three and on, a declared score.
    meta.more = record.header.more or from_name.more
    meta.score = record.header.score if record.header.score is not None else from_name.score
    meta.board, meta.room = record.header.board, record.header.room
    if game is not None and replay is not None:
        diagnostics += replay.diagnostics
        diagnostics += _check_result(source.path, game, record.header.result, from_name.result, replay, record.line)
    return Processed(
        source.path,
        source.sha256,
        len(source.data),
        game.code if game else None,
        meta,
        record.header.result,
        from_name.result,
        record,
        replay,
        diagnostics,
        from_name,
        record.game,
    )


def _reread_colour_words(from_name: Metadata, game: games.GameType, replay: Replay) -> None:
    """The file name's result words once the replay knows who moved first.

    File names are read before the record, with the standard's order of
    sides; where the record lets the other side move first (red in SU),
    "黑方胜" names the second player, not the first.
    """
    ordered = game.ordered(replay.first_letter)
    if ordered is game or not from_name.result_text:
        return
    result, recognised = metadata.parse_result(from_name.result_text, ordered, from_name.first, from_name.second)
    if recognised:
        from_name.result = result


_RESULT_WORDS = {
    "first": T("first player wins"),
    "second": T("second player wins"),
    "draw": T("draw"),
    "unknown": T("undecided"),
}
_WHERE = {"header": T("header"), "file name": T("file name")}


def _check_result(
    path: str, game: games.GameType, header: Result | None, name: Result | None, replay: Replay, line: int = 1
) -> list[Diagnostic]:
    """Compare the declared results (header, file name) with what the rules decided.

    ``line``: where the game starts in its file (a file of several games).
    """
    found: list[Diagnostic] = []
    decision = replay.decision
    if decision is None:
        if header in (None, "unknown") and name in (None, "unknown"):
            found.append(make(path, line, 1, W_NO_RESULT, "no result is declared and the rules did not decide the game"))
        return found
    for where, declared in (("header", header), ("file name", name)):
        if declared in (None, "unknown") or declared == decision.winner:
            continue
        found.append(
            make(
                path,
                line,
                1,
                E_RESULT,
                "the {where} declares '{declared}' but the rules decide '{computed}' at move {ply}",
                where=_WHERE[where],
                declared=_result_words(game, declared),
                computed=_result_words(game, decision.winner),
                ply=decision.ply,
            )
        )
    return found


def _result_words(game: games.GameType, result: Result) -> str | Named:
    """A result said in a message's language: the words of two-seat games, else the winning seats' names."""
    words = _RESULT_WORDS.get(result)
    if words is not None and (not game.more_seats or result in ("draw", "unknown")):
        return words
    seats = game.seats
    won = [seats[seat] for seat in seats_of(result) if seat < len(seats)]
    if not won:
        return result
    if len(won) == 1:
        return Named(f"{won[0].name_en} wins", f"{won[0].name_zh}胜")
    return Named(" and ".join(side.name_en for side in won) + " win", "、".join(side.name_zh for side in won) + "胜")
