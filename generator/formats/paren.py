"""The ``([GO9]…)`` notation family: GO, GO13, GO9, NG and PG records.

One record per file, in parentheses; the header fields of the ``{[C5]…}``
family, then moves in square brackets::

    ([GO9][先手参赛队 B][后手参赛队 W][先手胜][2017.07.29 14:00 重庆][2017 CCGC];
     B[D5]MARK[1];W[E5];B[];W[tt])

GO13, GO9, NG and PG write a point as column letter and row number (``D5``,
rows from 1 at the bottom). The 19-line GO writes both as letters, SGF-like
(``B[LI]``: column L, row I = 9), and opens with ``(;``. A pass is ``B[]``
or ``B[tt]``.

Tolerated, with a diagnostic where an organiser should know: the standard's
own GO9 example opens with ``[(GO9)`` (read as ``([GO9]``), a record with no
closing ``)``, text around the record, full-width punctuation, lower-case
letters, a GO record that writes the row as a number, MARK on any move and
unknown annotations. One unreadable move never stops the reading: it becomes
a :class:`~generator.model.Move` with no point, where the replay stops.
"""

from __future__ import annotations

import re

from generator.diagnostics import define
from generator.formats.brace import (
    _CODE,
    _NORMALISE,
    MISSING_SEMICOLON,
    NO_MOVES,
    TEXT_IN_MOVE,
    Reader,
    _after_space,
)
from generator.games import GameType
from generator.i18n import N_
from generator.model import Move, Record, Text

NO_RECORD = define(
    "FMT-E301",
    "error",
    "No ([…]…) record was found in the file",
    "Check that this is a record file; it should start with ([CODE], or (;[GO] for 19-line Go.",
)
BAD_MOVE = define(
    "FMT-E302",
    "error",
    "A move cannot be read (Go family)",
    "Write each move as side[column letter and row number], e.g. B[D5] (19-line Go: two letters, "
    "B[LI]); B[] is a pass. The moves from here on are shown as not replayed.",
)
BAD_OPENING = define(
    "FMT-W301",
    "warning",
    "The record opens with [(CODE) instead of ([CODE]",
    "Write the opening as ([CODE]; the record was read anyway (the standard's own GO9 example has this slip).",
)
NO_CLOSING = define(
    "FMT-W302",
    "warning",
    "The record has no closing ): it may be truncated",
    "Check that the file was written completely, then add ) after the last move.",
)
TEXT_AROUND = define(
    "FMT-W303",
    "warning",
    "Text outside the record's parentheses was ignored",
    "Remove it; a file holds one record only.",
)
NUMBER_ROW = define(
    "FMT-N301",
    "note",
    "A 19-line Go record writes rows as numbers",
    "The standard writes GO rows as letters (B[LI]); numbers (B[L9]) were read as rows, as GO13 writes them.",
)

# The opening: "(", "(;" or the standard's slip "[(GO9)"; then the code field.
_OPEN = re.compile(rf"\(\s*;?\s*(?=\[)|\[\s*\(\s*(?={_CODE}\s*\))")
_SNIFF = re.compile(rf"\s*(?:\(\s*;?\s*\[\s*({_CODE})\s*\]|\[\s*\(\s*({_CODE})\s*\))")

# A well-formed move and its ";" (or the end). The point is one or two
# letters, or a letter and a number, or nothing (a pass). Digits are ASCII
# only: \d would take "٣" for 3 (int() reads it so), and "¹" would pass
# str.isdigit() and then make int() raise.
_MOVE_BODY = (
    r"(\s*)([A-Za-z])\s*\[\s*([A-Za-z]{0,2}|[A-Za-z][0-9]{1,2})\s*\]"
    r"\s*(?:(?i:MARK)\s*\[\s*([+-]?[0-9]{1,9})\s*\]\s*)?(?:;|\Z)"
)
_MOVES = re.compile(f"({_MOVE_BODY})")
# A point as the careful path reads it (spaces removed): a column letter, then
# a row number of up to three ASCII digits (off the board is the rules'
# business) or, in 19-line Go, a row letter.
_POINT = re.compile(r"(?P<col>[A-Za-z])(?:(?P<row>[0-9]{1,3})|(?P<letter>[A-Za-z]))")
_LOOSE_MOVE = re.compile(r"(?P<side>[^\s();\[\]]*)\s*\[(?P<inner>[^\[\];()]*)\]")
_NEXT_MOVE = re.compile(r"\s*[A-Za-z]\s*\[")
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def sniff(text: str) -> str | None:
    """The game code written at the start, as in ``([GO9]``, ``(;[GO]`` or ``[(GO9)``."""
    head = text[:64].lstrip("\ufeff")
    m = _SNIFF.match(head) or _SNIFF.match(head.translate(_NORMALISE))
    return (m.group(1) or m.group(2)) if m else None


def parse(text: Text, game: GameType | None) -> Record:
    """Read one record. Never raises; problems become diagnostics."""
    return _Reader(text, game).read()


class _Reader(Reader):
    """The brace family's header reading, with this family's brackets and moves."""

    def __init__(self, text: Text, game: GameType | None) -> None:
        super().__init__(text, game)
        self.row_letters = bool(game and game.params.get("row_letters"))
        self.number_rows_at: int | None = None

    def read(self) -> Record:
        t = self.t
        start = _after_space(t)
        opening = _OPEN.search(t, start)
        if opening is None:
            self.report(start, NO_RECORD, N_("no ([…]…) record found: the file does not start with ([CODE]"))
            return self.record()
        if opening.start() > start:
            template = N_('text before the record ignored: "{text}"')
            self.report(start, TEXT_AROUND, template, text=self.shown(start, opening.start()))
        pos = opening.end()
        if t[opening.start()] == "[":
            # "[(GO9)[...": the same characters as "([GO9][...", two of them swapped.
            close = t.index(")", pos)  # _OPEN only matches this opening when the ")" is there
            self.report(
                opening.start(),
                BAD_OPENING,
                N_('the record opens with "{opening}"; read as ([CODE]'),
                opening=self.shown(opening.start(), close + 1),
            )
            s = opening.start()
            # Rewritten to the same length, so that offsets hold: the spaces
            # _OPEN allows inside "[ ( GO9)" go after the "]".
            opened = f"([{t[pos:close]}]"
            self.t = t = f"{t[:s]}{opened}{' ' * (close + 1 - s - len(opened))}{t[close + 1:]}"
            pos = opening.start() + 1
        pos = self.read_header(pos, len(t))
        end = t.find(")", pos)
        if end < 0:
            end = len(t.rstrip())
            self.report(end, NO_CLOSING, N_("no closing ): the record may be truncated"))
        else:
            after = _after_space(t, end + 1)
            if after < len(t):
                self.report(after, TEXT_AROUND, N_('text after the closing ) ignored: "{text}"'), text=self.shown(after, len(t)))
        self.record_span = (opening.start() + 1, end)
        self.read_moves(pos, end)
        if not self.moves:
            self.report(min(pos, end), NO_MOVES, N_("the record has no moves"))
        if self.number_rows_at is not None:
            template = N_("rows written as numbers (B[L9]) rather than letters (B[LI]); read as numbers")
            self.report(self.number_rows_at, NUMBER_ROW, template)
        self.note_full_width()
        self.note_annotations()
        return self.record()

    # -- moves ------------------------------------------------------------

    def read_moves(self, pos: int, end: int) -> None:
        section = self.t[pos:end].rstrip()
        if not self.read_clean_moves(section, pos):
            self.moves.clear()
            self.read_moves_carefully(pos, pos + len(section))

    def read_clean_moves(self, section: str, pos: int) -> bool:
        """The fast path: every entry well formed (see the brace family's).

        Matched entry after entry from where the last one ended, never
        searched for: a search (findall) retries the leading \\s* at every
        offset of a long run of spaces, and 40,000 of them took 20 seconds.
        """
        sides = self.sides
        offset = 0
        moves: list[Move] = []
        match = _MOVES.match
        while offset < len(section):
            m = match(section, offset)
            if m is None:
                return False
            whole, lead, side, inner, mark = m.groups()
            at = pos + offset + len(lead)
            offset += len(whole)
            side = side.upper()
            if sides is not None and side not in sides:
                return False
            move = self.move(side, inner, at)
            if move is None:
                return False
            if mark:
                move.mark = int(mark)  # at most nine ASCII digits: _MOVE_BODY
            moves.append(move)
        self.moves.extend(moves)
        return True

    def move(self, side: str, inner: str, at: int) -> Move | None:
        """The move ``side[inner]`` at offset ``at``; None if the point cannot be read."""
        line, column = self.source.position(at)
        inner = inner.strip()
        if not inner or (inner.isascii() and inner.upper() == "TT"):
            return Move(side, f"{side}[{inner.lower()}]", None, line, column, passed=True)
        point = self.point(inner, at)
        if point is None:
            return None
        return Move(side, f"{side}[{inner.upper()}]", point, line, column)

    def point(self, inner: str, at: int) -> tuple[str, int] | None:
        """(column letter, row) of ``D5`` (or ``LI`` in 19-line Go); None unless ASCII letters and digits.

        Matched before any upper(): "ß".upper() is "SS", which would read a
        German letter as the point S19.
        """
        m = _POINT.fullmatch(inner)
        if m is None:
            return None
        col = m["col"].upper()
        if m["row"] is not None:
            if self.row_letters and self.number_rows_at is None:
                self.number_rows_at = at
            return col, int(m["row"])
        if self.row_letters:
            return col, _LETTERS.index(m["letter"].upper()) + 1
        return None

    def read_moves_carefully(self, pos: int, end: int) -> None:
        t = self.t
        while pos < end:
            pos = _after_space(t, pos, end)
            if pos >= end:
                return
            if t[pos] == ";":
                pos += 1
                continue
            stop = t.find(";", pos, end)
            stop = end if stop < 0 else stop
            m = _LOOSE_MOVE.match(t, pos, stop)
            move = self.loose_move(m, pos, stop) if m else None
            if m is None or move is None:
                raw = self.original[pos:stop].strip()
                self.report(pos, BAD_MOVE, N_('cannot read the move "{move}"'), move=self.shown(pos, stop))
                self.add_unreadable(pos, raw)
                pos = stop + 1
                continue
            self.moves.append(move)
            after = _after_space(t, self.read_annotations(move, m.end(), stop), stop)
            if after >= stop:
                pos = stop + 1
            elif _NEXT_MOVE.match(t, after, stop):
                if self.glued_at is None:
                    self.glued_at = after
                    self.report(after, MISSING_SEMICOLON, N_("moves not separated by ; (read anyway; first place shown)"))
                pos = after
            else:
                self.report(after, TEXT_IN_MOVE, N_('text after the move ignored: "{text}"'), text=self.shown(after, stop))
                pos = stop + 1

    def loose_move(self, m: re.Match[str], pos: int, stop: int) -> Move | None:
        """A move the fast pattern did not take; reports what is wrong with it."""
        side = m["side"].strip().upper()
        raw = " ".join(self.original[pos : m.end()].split())
        line, column = self.source.position(pos)
        if len(side) != 1 or not (side.isascii() and side.isalpha()) or (self.sides is not None and side not in self.sides):
            self.report_side(pos, raw, m["side"])
            return Move(side[:1], raw, None, line, column)
        inner = "".join(m["inner"].split())
        move = self.move(side, inner, pos)
        if move is None:
            if self.row_letters:
                template = N_('cannot read the point of move "{move}": write two letters, as in B[LI]; B[] is a pass')
            else:
                template = N_('cannot read the point of move "{move}": write a letter and a number, as in B[D5]; B[] is a pass')
            self.report(pos, BAD_MOVE, template, move=raw)
            return Move(side, raw, None, line, column)
        return move

