"""The ``{[C5]…}`` notation family: C5, C6 and HEX records.

One record per file, in braces; a header of bracketed fields, then moves
separated by semicolons::

    {[C6][先手参赛队 B][后手参赛队 W][先手胜][2017.07.29 14:00 重庆][2017 CCGC];
     B(J,10)MARK[1];W(I,11);W(I,9);B(K,9)}

The header fields are ``[code][first][second][result][time place][event]``.
A move is ``side(column letter,row number)`` with an optional ``MARK[n]``.

Real files differ from the standard in many small ways (``specs/README.md``
and ``corpus/SOURCES.md``): one line or one move per line, MARK on most moves
and negative, a space before ``(``, full-width punctuation, lower-case
letters, a ``;`` before ``}``, no closing ``}``, missing or extra header
fields. This reader accepts all of them, reports what an organiser should
know, and never gives up on a file because one move is odd: a move it cannot
read becomes a :class:`~generator.model.Move` with no point, which the rules
engine treats as the end of what can be replayed.

Board bounds and occupancy are the rules engine's business, not this one's.
"""

from __future__ import annotations

import re
import sys
from bisect import bisect_right

from generator import metadata
from generator.diagnostics import Diagnostic, define, make
from generator.games import GameType
from generator.i18n import N_, T
from generator.model import Metadata, Move, Record, Text

# Codes of this family are numbered from 101 so other families can use their
# own block of the FMT- range without colliding.
FULL_WIDTH = define(
    "FMT-N101",
    "note",
    "Full-width punctuation was read as its ASCII form",
    "Nothing to do; writing programs should use ASCII punctuation for the syntax.",
)
NO_RECORD = define(
    "FMT-E101",
    "error",
    "No {[…]…} record was found in the file",
    "Check that this is a record file; it should start with {[CODE].",
)
BAD_MOVE = define(
    "FMT-E102",
    "error",
    "A move cannot be read",
    "Write each move as side(column letter,row number), e.g. B(J,10). "
    "The moves from here on are shown as not replayed.",
)
BAD_SIDE = define(
    "FMT-E103",
    "error",
    "A move names a side the game does not have",
    "Use the game's side letters (B and W for black and white, R and B for red "
    "and blue). The moves from here on are shown as not replayed.",
)
UNCLOSED_FIELD = define(
    "FMT-E104",
    "error",
    "A header field has no closing ]",
    "Close each header field with ]; the header was read up to the first ;.",
)
TEXT_BEFORE = define(
    "FMT-W101",
    "warning",
    "Text before the opening { was ignored",
    "Remove it, or check that the file holds one record only.",
)
NO_OPENING_BRACE = define(
    "FMT-W102",
    "warning",
    "The record does not start with {",
    "Add { before the header; the record was read anyway.",
)
NO_CLOSING_BRACE = define(
    "FMT-W103",
    "warning",
    "The record has no closing }: it may be truncated",
    "Check that the file was written completely, then add } after the last move.",
)
TEXT_AFTER = define(
    "FMT-W104",
    "warning",
    "Text after the closing } was ignored",
    "Remove it; a file holds one record only.",
)
FIELD_COUNT = define(
    "FMT-W105",
    "warning",
    "The header does not have the six fields the standard asks for",
    "Write [code][first team][second team][result][time place][event]; "
    "what is missing is taken from the file name where possible.",
)
HEADER_TEXT = define(
    "FMT-W106",
    "warning",
    "Text between header fields was ignored",
    "Put every header value inside [ ] and end the header with ;.",
)
BAD_MARK = define(
    "FMT-W107",
    "warning",
    "A MARK value is not a whole number",
    "Write MARK[-2] to MARK[2]; the mark is left out.",
)
UNKNOWN_ANNOTATION = define(
    "FMT-W108",
    "warning",
    "An unknown annotation was kept as a comment",
    "Only MARK[...] is defined by the standard; the text is shown as the move's comment.",
)
TEXT_IN_MOVE = define(
    "FMT-W109",
    "warning",
    "Unexpected text after a move was ignored",
    "Separate moves with ; and remove the extra text.",
)
MISSING_SEMICOLON = define(
    "FMT-W110",
    "warning",
    "Moves are not separated by ;",
    "Put ; between moves; they were read anyway.",
)
NO_CODE = define(
    "FMT-W111",
    "warning",
    "The header does not start with the game code",
    "Start the header with the code, e.g. {[C6]; the game was taken from the file name.",
)
NO_MOVES = define(
    "FMT-W112",
    "warning",
    "The record has no moves",
    "Check that the file was written completely.",
)

# Full-width forms of the syntax characters and the ideographic space. Each
# maps to one character, so offsets into the normalised text are offsets into
# the original and positions need no mapping.
_FULL_WIDTH = "｛｝［］【】（），；：\u3000"
_NORMALISE = str.maketrans(_FULL_WIDTH, "{}[][](),;: ")
_FULL_WIDTH_RE = re.compile(f"[{_FULL_WIDTH}]")

_CODE = r"[A-Za-z][A-Za-z0-9]{0,7}"
_SNIFF = re.compile(rf"\s*\{{\s*\[\s*({_CODE})\s*\]")
_CODE_FIELD = re.compile(rf"\s*({_CODE})\s*")
_FIELD = re.compile(r"\[([^\[\];{}]*)\]")

# A well-formed entry: a move and its MARK, with the space before and after
# them. Most entries match this one expression; everything else takes the
# slow, careful path. Numbers are ASCII digits only, here and in every
# pattern below: \d takes "٣" (which int() reads as 3) and str.isdigit() "¹"
# (which int() refuses); a number is also kept short, since int() raises
# past 4,300 digits.
_ENTRY_BODY = (
    r"(\s*)([A-Za-z])\s*\(\s*([A-Za-z])\s*,\s*([0-9]{1,3})\s*\)"
    r"\s*(?:(?i:MARK)\s*\[\s*([+-]?[0-9]{1,9})\s*\]\s*)?"
)
_ENTRY = re.compile(_ENTRY_BODY)
# The same with its ";" (or the end of the moves).
_MOVE = re.compile(_ENTRY_BODY + r"(?:;|\Z)")
# The careful path: anything before "(", anything inside the parentheses.
_LOOSE_MOVE = re.compile(r"(?P<side>[^\s();\[\]]*)\s*\((?P<inner>[^();]*)\)")
_POINT = re.compile(r"\s*(?P<col>[A-Za-z])\s*,\s*(?P<row>[0-9]{1,3})\s*")
_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,9}")
_ANNOTATION = re.compile(r"\s*(?P<name>[A-Za-z_]+)\s*\[(?P<value>[^\]]*)\]")
_NEXT_MOVE = re.compile(r"\s*[A-Za-z]\s*\(")
_SPACE = re.compile(r"\s*")


def _after_space(text: str, pos: int = 0, end: int = sys.maxsize) -> int:
    """Where the white space at ``pos`` (up to ``end``) ends."""
    space = _SPACE.match(text, pos, end)
    assert space is not None  # \s* matches, if only the empty string, wherever pos <= end
    return space.end()


_FIELDS = ("code", "first", "second", "result", "when", "event")
# What a header of n fields lacks, by n: written out so each is translated.
_MISSING_FIELDS = (
    T("code, first, second, result, time place, event"),
    T("first, second, result, time place, event"),
    T("second, result, time place, event"),
    T("result, time place, event"),
    T("time place, event"),
    T("event"),
)

# (length of the space before the move, side, move text, point, MARK) of
# each well-formed entry read so far: the same few thousand entries
# ("B(J,10)MARK[0]") occur in record after record.
_Entry = tuple[int, str, str, tuple[str, int], int | None]
_ENTRIES: dict[str, _Entry] = {}


def whole_number(text: str) -> int | None:
    """The integer ``text`` writes in ASCII digits (a sign allowed, at most nine digits), else None.

    int() alone would read "٣" and "３" as 3, accept "1_000", and raise on "¹"
    or on more than 4,300 digits.
    """
    text = text.strip()
    return int(text) if _WHOLE_NUMBER.fullmatch(text) else None


def _read_entry(entry: str) -> _Entry | None:
    """What a well-formed entry says (see :data:`_ENTRIES`), remembered; None if it is not one."""
    m = _ENTRY.fullmatch(entry)
    if m is None:
        return None
    lead, side, col, row, mark = m.groups()
    upper, column, number = side.upper(), col.upper(), int(row)
    read = len(lead), upper, f"{upper}({column},{number})", (column, number), None if mark is None else int(mark)
    if len(_ENTRIES) < 100_000:  # bounded: odd files must not grow it forever
        _ENTRIES[entry] = read
    return read


def _line_of(starts: list[int], offset: int) -> tuple[int, int]:
    """1-based line of an offset and the offset where that line starts."""
    i = bisect_right(starts, offset) - 1
    return i + 1, starts[i]


def sniff(text: str) -> str | None:
    """The game code written at the start, as in ``{[C5]``, or None."""
    head = text[:64].lstrip("\ufeff")
    m = _SNIFF.match(head) or _SNIFF.match(head.translate(_NORMALISE))
    return m.group(1) if m else None


def parse(text: Text, game: GameType | None) -> Record:
    """Read one record. Never raises; problems become diagnostics."""
    return Reader(text, game).read()


class Reader:
    """State for reading one file: the normalised text and what was found.

    The ``([GO9]…)`` family (formats/paren.py) extends it: the header and the
    notes are the same, the brackets and the moves differ.
    """

    def __init__(self, text: Text, game: GameType | None) -> None:
        self.source = text
        self.original = text.text
        # translate() is slow on CJK text; most files need none of it.
        self.has_full_width = _FULL_WIDTH_RE.search(text.text) is not None
        self.t = text.text.translate(_NORMALISE) if self.has_full_width else text.text
        self.game = game
        self.sides = frozenset((game.first.letter, game.second.letter)) if game else None
        self.diagnostics: list[Diagnostic] = []
        self.moves: list[Move] = []
        self.header = Metadata()
        self.value_spans: list[tuple[int, int]] = []  # header values: text, not syntax
        self.annotations: dict[str, tuple[int, int]] = {}  # name -> (first offset, count)
        self.glued_at: int | None = None
        self.record_span = (0, len(self.t))  # from "{" to "}": text outside is ignored

    # -- helpers ----------------------------------------------------------

    def report(self, offset: int, code: str, template: str, /, **args: object) -> None:
        """A diagnostic at ``offset``; ``template`` is written with N_() where this is called."""
        line, column = self.source.position(offset)
        self.diagnostics.append(make(self.source.path, line, column, code, template, **args))

    def shown(self, start: int, end: int, limit: int = 40) -> str:
        """Original text of a span, on one line and shortened for messages."""
        s = " ".join(self.original[start:end].split())
        return s if len(s) <= limit else s[: limit - 1] + "…"

    # -- the record -------------------------------------------------------

    def read(self) -> Record:
        t = self.t
        start = _after_space(t)
        brace = t.find("{")
        if brace < 0:
            if not t.startswith("[", start):
                self.report(start, NO_RECORD, N_("no {[…]…} record found: the file does not start with {[CODE]"))
                return self.record()
            self.report(start, NO_OPENING_BRACE, N_("the record does not start with {; read from the first ["))
            pos = start
        else:
            if brace > start:
                self.report(start, TEXT_BEFORE, N_('text before the opening {{ ignored: "{text}"'), text=self.shown(start, brace))
            pos = brace + 1
        end = t.find("}", pos)
        if end < 0:
            end = len(t.rstrip())
            self.report(end, NO_CLOSING_BRACE, N_("no closing }: the record may be truncated"))
        else:
            after = _after_space(t, end + 1)
            if after < len(t):
                self.report(after, TEXT_AFTER, N_('text after the closing }} ignored: "{text}"'), text=self.shown(after, len(t)))
        self.record_span = (pos, end)
        pos = self.read_header(pos, end)
        self.read_moves(pos, end)
        if not self.moves:
            self.report(min(pos, end), NO_MOVES, N_("the record has no moves"))
        self.note_full_width()
        self.note_annotations()
        return self.record()

    def record(self) -> Record:
        code = self.game.code if self.game else self.header.code
        self.diagnostics.sort(key=lambda d: (d.line, d.column))
        return Record(self.source.path, code, self.header, self.moves, self.diagnostics)

    # -- header -----------------------------------------------------------

    def read_header(self, pos: int, end: int) -> int:
        """Read the bracketed fields up to the first ";"; return where moves start."""
        t = self.t
        fields: list[tuple[int, int]] = []  # spans of the values inside [ ]
        header_start = pos
        while pos < end:
            pos = _after_space(t, pos, end)
            if pos >= end:
                break
            ch = t[pos]
            if ch == ";":
                pos += 1
                break
            if ch == "[":
                m = _FIELD.match(t, pos, end)
                if m:
                    fields.append(m.span(1))
                    pos = m.end()
                    continue
                stop = t.find(";", pos, end)
                stop = end if stop < 0 else stop
                self.report(pos, UNCLOSED_FIELD, N_('header field "{field}" has no closing ]'), field=self.shown(pos, stop))
                fields.append((pos + 1, stop))
                pos = stop + 1
                break
            if not fields and _NEXT_MOVE.match(t, pos, end):
                break  # no header at all: the moves start right away
            # Junk between fields: skip to the next field or the end of the header.
            stop = min(i for i in (t.find("[", pos, end), t.find(";", pos, end), end) if i >= 0)
            self.report(pos, HEADER_TEXT, N_('text in the header ignored: "{text}"'), text=self.shown(pos, stop))
            pos = stop
        self.value_spans = fields
        self.fill_header(fields, header_start)
        return pos

    def fill_header(self, fields: list[tuple[int, int]], header_start: int) -> None:
        values = [self.original[a:b].strip() for a, b in fields]
        if values and _CODE_FIELD.fullmatch(self.t[fields[0][0] : fields[0][1]]):
            self.header.code = values[0].upper()
        elif fields:
            self.report(fields[0][0] - 1, NO_CODE, N_("the header does not start with the game code"))
            fields, values = [(header_start, header_start), *fields], ["", *values]
        if len(values) != len(_FIELDS):
            self.warn_field_count(fields, values, header_start)
        named = dict(zip(_FIELDS, values))
        offsets = dict(zip(_FIELDS, (a for a, _ in fields)))
        game = self.game
        first = metadata.strip_colour(named.get("first", ""), game.first.letter if game else None)
        second = metadata.strip_colour(named.get("second", ""), game.second.letter if game else None)
        self.header.first, self.header.second = first or None, second or None
        if named.get("result"):
            words = named["result"]
            self.header.result_text = words
            result, recognised = metadata.parse_result(words, game, first or None, second or None)
            self.header.result = result
            if not recognised:
                self.report(
                    offsets["result"],
                    metadata.RESULT_UNREADABLE,
                    N_('result "{words}" not recognised; write 先手胜, 后手胜, 平局 or 未决胜'),
                    words=words,
                )
        if named.get("when"):
            date, clock, place = metadata.parse_when(named["when"])
            self.header.date, self.header.time, self.header.place = date, clock, place
            # Any digit, ASCII or not ("٢٠٢٥", "¹"): a field that starts like
            # a date the reader could not read is worth a warning.
            if date is None and named["when"][:1].isdigit():
                template = N_('no date could be read in "{when}"')
                self.report(offsets["when"], metadata.DATE_UNREADABLE, template, when=named["when"])
        self.header.event = named.get("event") or None

    def warn_field_count(self, fields: list[tuple[int, int]], values: list[str], header_start: int) -> None:
        if len(values) < len(_FIELDS):
            where = fields[-1][1] if fields else header_start
            self.report(
                where,
                FIELD_COUNT,
                N_(
                    "the header has {count} of 6 fields ([code][first team][second team][result][time place][event]); "
                    "missing: {missing}"
                ),
                count=len(values),
                missing=_MISSING_FIELDS[len(values)],
            )
        else:
            self.report(
                fields[len(_FIELDS)][0] - 1,
                FIELD_COUNT,
                N_(
                    "the header has more than 6 fields ([code][first team][second team][result][time place][event]); "
                    "ignored: {extra}"
                ),
                extra="".join(f"[{v}]" for v in values[len(_FIELDS) :]),
            )

    # -- moves ------------------------------------------------------------

    def read_moves(self, pos: int, end: int) -> None:
        """Read the moves between ``pos`` and ``end`` (the closing brace)."""
        section = self.t[pos:end].rstrip()
        if not self.read_clean_moves(section, pos):
            self.read_moves_carefully(pos, pos + len(section))

    def read_clean_moves(self, section: str, pos: int) -> bool:
        """The fast path: every entry between two ";" well formed.

        Ten thousand records of a hundred moves must parse in a second or two,
        so the common case is one split() and a look-up per entry (a move
        never holds a ";", so the entries are exactly what the move pattern
        would match one by one). Any other entry and the careful reader starts over.
        """
        starts = self.source.line_starts
        line, line_start = _line_of(starts, pos)
        # Offsets only grow: a move's line is looked up again only once it is
        # past the start of the next line (most files are a single line).
        following = starts[line] if line < len(starts) else len(self.t) + 1
        sides = self.sides
        known = _ENTRIES
        moves: list[Move] = []
        append = moves.append
        entries = section.split(";")
        if not entries[-1]:  # the ";" after the last move (or no moves at all)
            entries.pop()
        offset = pos
        for entry in entries:
            read = known.get(entry) or _read_entry(entry)
            if read is None:
                return False
            lead, side, text, point, mark = read
            if sides is not None and side not in sides:
                return False
            at = offset + lead
            offset += len(entry) + 1
            if at >= following:
                line, line_start = _line_of(starts, at)
                following = starts[line] if line < len(starts) else len(self.t) + 1
            append(Move(side, text, point, line, at - line_start + 1, mark))
        self.moves.extend(moves)
        return True

    def read_moves_carefully(self, pos: int, end: int) -> None:
        """Move by move: well-formed ones by the fast pattern, the rest with care."""
        t = self.t
        match = _MOVE.match
        position = self.source.position
        sides = self.sides
        append = self.moves.append
        while pos < end:
            m = match(t, pos, end)
            if m is not None:
                _, side, col, row, mark = m.groups()
                side = side.upper()
                if sides is None or side in sides:
                    col, number = col.upper(), int(row)
                    line, column = position(m.start(2))
                    value = int(mark) if mark else None
                    append(Move(side, f"{side}({col},{number})", (col, number), line, column, value))
                    pos = m.end()
                    continue
            pos = self.read_odd_move(pos, end)

    def read_odd_move(self, pos: int, end: int) -> int:
        """The careful path for one move that the fast pattern did not take."""
        t = self.t
        pos = _after_space(t, pos, end)
        if pos >= end:
            return end
        if t[pos] == ";":  # an empty entry, ";;": nothing to say
            return pos + 1
        stop = t.find(";", pos, end)
        stop = end if stop < 0 else stop
        m = _LOOSE_MOVE.match(t, pos, stop)
        if m is None:
            raw = self.original[pos:stop].strip()
            self.report(pos, BAD_MOVE, N_('cannot read the move "{move}"'), move=self.shown(pos, stop))
            self.add_unreadable(pos, raw)
            return stop + 1
        move = self.read_point(m, pos)
        after = self.read_annotations(move, m.end(), stop)
        self.moves.append(move)
        after = _after_space(t, after, stop)
        if after >= stop:
            return stop + 1
        if _NEXT_MOVE.match(t, after, stop):
            if self.glued_at is None:
                self.glued_at = after
                self.report(after, MISSING_SEMICOLON, N_("moves not separated by ; (read anyway; first place shown)"))
            return after
        self.report(after, TEXT_IN_MOVE, N_('text after the move ignored: "{text}"'), text=self.shown(after, stop))
        return stop + 1

    def read_point(self, m: re.Match[str], pos: int) -> Move:
        side = m["side"].upper()
        line, column = self.source.position(pos)
        raw = " ".join(self.original[pos : m.end()].split())
        point = _POINT.fullmatch(m["inner"])
        if not side:
            self.report(pos, BAD_MOVE, N_('move "{move}" has no side letter'), move=raw)
            return Move(side, raw, None, line, column)
        if len(side) != 1 or not (side.isascii() and side.isalpha()) or (self.sides is not None and side not in self.sides):
            self.report_side(pos, raw, m["side"])
            return Move(side, raw, None, line, column)
        if point is None:
            if self.column_comes_first(m["inner"]):
                template = N_('cannot read the point of move "{move}": the column letter comes first, as in (J,10)')
            else:
                template = N_('cannot read the point of move "{move}": write (column letter,row number), as in (J,10)')
            self.report(pos, BAD_MOVE, template, move=raw)
            return Move(side, raw, None, line, column)
        col, row = point["col"].upper(), int(point["row"])
        return Move(side, f"{side}({col},{row})", (col, row), line, column)

    def report_side(self, pos: int, move: str, side: str) -> None:
        """BAD_SIDE: ``side`` (as written) is no side of this game."""
        if self.game is None:
            self.report(pos, BAD_SIDE, N_('move "{move}": "{side}" is not a side of this game'), move=move, side=side)
            return
        self.report(
            pos,
            BAD_SIDE,
            N_('move "{move}": "{side}" is not a side of {game} ({first} or {second})'),
            move=move,
            side=side,
            # The game's name is data (games.py), not a template: a Term, said
            # in another language once a catalog has it.
            game=self.game.name,
            first=self.game.first.letter,
            second=self.game.second.letter,
        )

    @staticmethod
    def column_comes_first(inner: str) -> bool:
        """Whether a point was written row first, as in (10,J)."""
        parts = [p.strip() for p in inner.split(",")]
        return len(parts) == 2 and bool(_WHOLE_NUMBER.fullmatch(parts[0])) and parts[1].isascii() and parts[1].isalpha()

    def read_annotations(self, move: Move, pos: int, stop: int) -> int:
        """MARK[...] and unknown NAME[...] after a move; return where they end."""
        t = self.t
        while (a := _ANNOTATION.match(t, pos, stop)) is not None:
            name, start = a["name"].upper(), a.start("name")
            value = self.original[a.start("value") : a.end("value")].strip()
            if name == "MARK":
                mark = whole_number(value)
                if mark is None:
                    shown = value if len(value) <= 20 else value[:19] + "…"
                    self.report(
                        start,
                        BAD_MARK,
                        N_('MARK[{mark}] of move "{move}" is not a whole number of up to 9 digits; ignored'),
                        mark=shown,
                        move=move.text,
                    )
                else:
                    move.mark = mark
            else:
                first, count = self.annotations.get(a["name"], (start, 0))
                self.annotations[a["name"]] = (first, count + 1)
                text = f"{a['name']}[{value}]"
                move.comment = f"{move.comment} {text}" if move.comment else text
            pos = a.end()
        return pos

    def add_unreadable(self, pos: int, raw: str) -> None:
        line, column = self.source.position(pos)
        # A side letter only when it looks like one ("B(J,10", not "hello").
        side = raw[:1].upper() if raw[:1].isascii() and raw[:1].isalpha() and not raw[1:2].isalpha() else ""
        text = " ".join(raw.split())
        self.moves.append(Move(side, text if len(text) <= 40 else text[:39] + "…", None, line, column))

    # -- notes gathered over the whole file -------------------------------

    def note_full_width(self) -> None:
        """One note per file for full-width syntax characters (not those inside header values)."""
        if not self.has_full_width:
            return
        spans = self.value_spans
        found: dict[str, int] = {}
        start, end = self.record_span
        # The braces themselves are just outside the span.
        for m in _FULL_WIDTH_RE.finditer(self.original, max(start - 1, 0), end + 1):
            i = m.start()
            if not any(a <= i < b for a, b in spans):
                found.setdefault(m.group(), i)
        if found:
            # The ideographic space is invisible: it is named, in the page's language.
            space = "\u3000" in found
            shown = " ".join(c for c in found if c != "\u3000")
            at = min(found.values())
            if not space:
                self.report(at, FULL_WIDTH, N_("full-width punctuation read as ASCII: {characters}"), characters=shown)
            elif shown:
                self.report(
                    at, FULL_WIDTH, N_("full-width punctuation read as ASCII: {characters} ideographic space"), characters=shown
                )
            else:
                self.report(at, FULL_WIDTH, N_("full-width punctuation read as ASCII: ideographic space"))

    def note_annotations(self) -> None:
        for name, (first, count) in self.annotations.items():
            if count > 1:
                template = N_("unknown annotation {name}[…] kept as the move's comment ({count} times)")
            else:
                template = N_("unknown annotation {name}[…] kept as the move's comment")
            self.report(first, UNKNOWN_ANNOTATION, template, name=name, count=count)
