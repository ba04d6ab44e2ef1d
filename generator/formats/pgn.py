"""The PGN family of xiangqi records: CCGC coordinates, ICCS and Chinese notation.

The championship standard (``specs/002_…txt``, 中国象棋棋谱格式说明文档)::

    [Game "Chinese Chess"]
    [Red "unknown"]
    [Black "Neuchess"]
    [Result "0:1"]
    [FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r"]
    1. H2E2 H9G7
    2. H0G2 J9H9

Columns A-J without I, rows 0-9 from red's side; a set-up whose black moves
first writes red's move of the first round as four spaces (``1.     H9G7``).

Real files (``corpus/SOURCES.md``) are written otherwise, and this reader
takes them as they are: the 1st CCGC archive (XQBase PGN) writes Chinese
notation (``炮二平五 马８进７``: Chinese numerals for red, full-width digits
for black, 前/后/中 for pieces on one file), ``RedTeam``/``BlackTeam`` tags,
indented move numbers, ``{…}`` comments, black's move again after its move
number (``3.          马８进７``), and an advert after the result. Others write
ICCS in lower case (``h2e2  b9c7``), a FEN without the side to move, a tag
value over two lines, and variations in ``(…)``, which are skipped. Upper-case
ICCS (``H2E2``, column I) reads as the CCGC form: columns A-H agree, and I
and J both name the ninth column.

A coordinate move is read to ``point`` and ``to``; a move in Chinese notation
says which piece only with the position, so it is kept in ``parts`` (its
canonical form, e.g. ``"C2=5"``: piece letter, file or 前/后/中 as ``f``/``b``/``m``
(followed by the file where one is written, ``"Pf3+1"`` for 前兵三进一), or 一兵/二兵 as
``#1``/``#2``, then ``+`` 进 ``-`` 退 ``=`` 平, number) and the rules engine finds the piece. The
side of each move follows from the order of play: red first, or black where
the set-up says so.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

from generator import games, metadata
from generator.diagnostics import Diagnostic, define, make
from generator.games import GameType
from generator.i18n import N_
from generator.model import Metadata, Move, Record, Text

# Codes of this family: the 5xx block of FMT-.
NO_MOVES = define(
    "FMT-W501",
    "warning",
    "The record has no moves",
    "Check that the file was written completely.",
)
BAD_MOVE = define(
    "FMT-E501",
    "error",
    "A move cannot be read",
    "Write a move as CCGC coordinates (H2E2: columns A-J without I, rows 0-9 from red's side), "
    "ICCS (h2e2) or Chinese notation (炮二平五). The moves from here on are shown as not replayed.",
)
BAD_TAG = define(
    "FMT-W502",
    "warning",
    "A header line cannot be read as a tag",
    'Write each tag as [Name "value"] on a line of its own.',
)
RESULTS_DIFFER = define(
    "FMT-W503",
    "warning",
    "The result after the moves differs from the Result tag",
    "Correct one of them; the Result tag is used.",
)
VARIATION = define(
    "FMT-N501",
    "note",
    "Variations in brackets are not replayed",
    "Nothing to do: only the main line of the game is replayed and shown.",
)
UNCLOSED = define(
    "FMT-W504",
    "warning",
    "A comment or variation is not closed",
    "Close every comment and every variation; the rest of the file was read as inside it.",
)


# A tag: [Name "value"]; the standard's own example quotes with “ ”. A value
# may run over lines (a real file's does), but not into the next tag's line,
# and is bounded, so that a broken tag costs its own line to find out.
_TAG = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_-]{0,40})\s*["“”]((?:[^"“”\n]|\n(?![ \t]*\[)){0,4000})["“”]\s*\]')
# The same for a value on one line, the usual tag: a plain run, which the matcher takes at
# once, where the above weighs each character. Where it matches, so does the above, alike.
_LINE_TAG = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_-]{0,40})\s*["“”]([^"“”\n]{0,4000})["“”]\s*\]')
_GAME_WORDS = frozenset(("chinesechess", "xiangqi", "象棋", "中国象棋", "cc"))
_GAME_TAG = re.compile(r'\[\s*Game\s*["“”]([^"“”\]]*)', re.I)
_SIDE_TAG = re.compile(r"\[\s*(?:Red|Black|RedTeam|BlackTeam)\s*[\"“”]")
# A xiangqi FEN's board: ten ranks of the letters of its pieces.
_FEN_BOARD = re.compile(r"(?:[KABNRCPEHkabnrcpeh1-9]{1,9}/){9}[KABNRCPEHkabnrcpeh1-9]{1,9}")

# Chinese notation, once read: piece letters, file numerals, actions, positions.
_PIECES = {
    **dict.fromkeys("帅帥将將", "K"),
    **dict.fromkeys("仕士", "A"),
    **dict.fromkeys("相象", "B"),
    **dict.fromkeys("马馬傌", "N"),
    **dict.fromkeys("车車俥", "R"),
    **dict.fromkeys("炮砲包", "C"),
    **dict.fromkeys("兵卒", "P"),
}
_NUMERALS = {
    **{c: str(i) for i, c in enumerate("一二三四五六七八九", 1)},
    **{str(i): str(i) for i in range(1, 10)},
    **{chr(0xFF10 + i): str(i) for i in range(1, 10)},
}
_ACTIONS = {"进": "+", "進": "+", "退": "-", "平": "="}
_PLACES = {"前": "f", "后": "b", "後": "b", "中": "m"}
_ORDINALS = {c: f"#{i}" for i, c in enumerate("一二三四五", 1)}
_P = "帅帥将將仕士相象马馬傌车車俥炮砲包兵卒"
_N = "一二三四五六七八九1-9１-９"
# 炮二平五; 前马进七 and, soldiers doubled on two files, 前兵三进一 (the file written too) or
# 前三进一 (the soldier left out); 二兵平四, the computer standard's count of such soldiers.
_CHINESE = re.compile(
    rf"[{_P}][{_N}][进進退平][{_N}]|[前后後中][{_P}][{_N}]?[进進退平][{_N}]"
    rf"|[前后後中][{_N}][进進退平][{_N}]|[一二三四五][{_P}][进進退平][{_N}]"
)
# Coordinates: CCGC H2E2 (column J), ICCS h2e2 (column i), either case; "H2-E2" too.
_COORDINATE = r"[A-Ja-j][0-9][-–]?[A-Ja-j][0-9](?![0-9A-Za-z])"
# A move number, "12." (full-width "１２．" too), and "..." where black's move follows alone.
_NUMBER = r"[0-9０-９]+\s*(?:[.．](?:\s*\.\.)?|、|…)(?:\s*(?:\.\.\.|…))?"
_RESULT = re.compile(r"(1-0|0-1|1/2-1/2|½-½|1:0|0:1|1/2:1/2|\*)(?![0-9A-Za-z])")
_SPACE = re.compile(r"\s+")
_WORD = re.compile(r"\S+")
# After "1." four spaces or more and then a move on the same line: red's move left out.
_BLACK_FIRST = re.compile(r"[ \t\u3000]{4,}")
# What nearly all of a move text is, after any spaces: a coordinate move, a move in Chinese
# notation (each with its annotation), or a move number. One match per token; the rest
# (comments, variations, the result, what cannot be read) is dispatched character by character.
_TOKEN = re.compile(rf"\s*(?:({_COORDINATE})[!?+#]*|({_CHINESE.pattern})[!?+#]*|({_NUMBER}))")
# The same, where a move may come with its number before it ("12. H2E2"), one match for both.
_NUMBERED_TOKEN = re.compile(
    rf"\s*(?:(?:{_NUMBER}\s*)?(?:({_COORDINATE})[!?+#]*|({_CHINESE.pattern})[!?+#]*)|({_NUMBER}))"
)
_COORDINATE_TOKEN, _NUMBER_TOKEN = 1, 3
# A coordinate move as written -> its text as shown and its two points: the same few hundred
# moves recur in every record, so each is worked out once.
_COORDINATES: dict[str, tuple[str, tuple[str, int], tuple[str, int]]] = {}
# The same for a move in Chinese notation: its Move.parts, the canonical form alone.
_CANONICAL: dict[str, tuple[str | None]] = {}


def sniff(text: str) -> str | None:
    """The family's game when the header says it: a Game tag naming xiangqi, or red and black tags with xiangqi moves."""
    codes = [game.code for game in games.of_format(__name__)]
    if len(codes) != 1:
        return None
    head = text[:3000].lstrip("\ufeff \t\r\n")
    if not head.startswith("["):
        return None
    m = _GAME_TAG.search(head)
    if m and metadata.loose(m.group(1)) in _GAME_WORDS:
        return codes[0]
    if _SIDE_TAG.search(head) and (_FEN_BOARD.search(head) or _CHINESE.search(head)):
        return codes[0]
    return None


def parse(text: Text, game: GameType | None) -> Record:
    """Read one record. Never raises; problems become diagnostics."""
    return _Reader(text, game).read()


def canonical(notation: str) -> str | None:
    """A move in Chinese notation in canonical form (``炮二平五`` -> ``"C2=5"``), None if it is none."""
    if not _CHINESE.fullmatch(notation):
        return None
    a, b = notation[0], notation[1]
    action, number = _ACTIONS[notation[-2]], _NUMERALS[notation[-1]]
    if a in _PLACES:
        if b not in _PIECES:  # 前三进一: a soldier, by its place on the file written
            return f"P{_PLACES[a]}{_NUMERALS[b]}{action}{number}"
        file = _NUMERALS[notation[2]] if len(notation) == 5 else ""
        return f"{_PIECES[b]}{_PLACES[a]}{file}{action}{number}"
    if a in _ORDINALS and b in _PIECES:  # 二兵平四
        return f"{_PIECES[b]}{_ORDINALS[a]}{action}{number}"
    return f"{_PIECES[a]}{_NUMERALS[b]}{action}{number}"


@dataclass(slots=True)
class _Reader:
    source: Text
    game: GameType | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    header: Metadata = field(default_factory=Metadata)
    moves: list[Move] = field(default_factory=list)
    tags: dict[str, tuple[str, int]] = field(default_factory=dict)  # name (lower case) -> (value, line)
    trailer: tuple[str, int, int] | None = None  # the result after the moves: (text, line, column)
    black_first: bool = False  # the first move number is followed by four spaces: red's move left out
    numbered: bool = False  # a move number has been seen: from then on one is matched with its move

    def report(self, offset: int, code: str, template: str, /, **args: object) -> None:
        line, column = self.source.position(offset)
        self.diagnostics.append(make(self.source.path, line, column, code, template, **args))

    def read(self) -> Record:
        text = self.source.text
        self.header.code = self.game.code if self.game else None
        body = self._tags(text)
        self._movetext(text, body)
        setup = self._setup()
        self._sides(setup)
        self._metadata()
        if not self.moves:
            self.report(len(text), NO_MOVES, N_("the record has no moves"))
        fen_line = self.tags.get("fen", ("", 0))[1]
        return Record(self.source.path, self.header.code, self.header, self.moves, self.diagnostics, setup, fen_line)

    # -- the tags ---------------------------------------------------------------

    def _tags(self, text: str) -> int:
        """Read the tags at the start; the offset where the moves begin."""
        pos = 0
        n = len(text)
        while True:
            while pos < n and (text[pos].isspace() or text[pos] == "\ufeff"):
                pos += 1
            if pos >= n or text[pos] != "[":
                return pos
            m = _LINE_TAG.match(text, pos) or _TAG.match(text, pos)
            if m is None:
                end_of_line = text.find("\n", pos)
                end_of_line = n if end_of_line < 0 else end_of_line
                shown = text[pos:end_of_line].strip()[:60]
                self.report(pos, BAD_TAG, N_("{text!r} is not a tag [Name \"value\"]; it is left out"), text=shown)
                pos = end_of_line
                continue
            name, value = m.group(1).lower(), m.group(2).strip()
            line = bisect_right(self.source.line_starts, pos)  # 1-based, as source.position() says
            self.tags.setdefault(name, (value, line))
            pos = m.end()

    # -- the moves --------------------------------------------------------------

    def _movetext(self, text: str, pos: int) -> None:
        n = len(text)
        variations_at: int | None = None
        while pos < n:
            if (after := self._tokens(text, pos)) != pos:
                pos = after
                continue
            ch = text[pos]
            if ch.isspace():
                pos = _SPACE.match(text, pos).end()  # type: ignore[union-attr]
                continue
            if ch == "{":
                end = text.find("}", pos + 1)
                if end < 0:
                    self.report(pos, UNCLOSED, N_("a comment in braces is not closed; the rest of the file is read as a comment"))
                    end = n
                self._comment(text[pos + 1 : end])
                pos = end + 1
                continue
            if ch == ";":
                end = text.find("\n", pos)
                pos = n if end < 0 else end + 1
                continue
            if ch == "(":
                variations_at = pos if variations_at is None else variations_at
                pos = self._skip_variation(text, pos)
                continue
            if text.startswith("==", pos):
                break  # the XQBase writer's rule line: an advert follows, no part of the game
            if m := _RESULT.match(text, pos):
                line, column = self.source.position(pos)
                self.trailer = (m.group(1), line, column)
                break  # what follows the result (an advert, a signature) is no part of the game
            word = _WORD.match(text, pos).group(0)  # type: ignore[union-attr]
            word = re.split(r"[{(;]", word, maxsplit=1)[0] or word[:1]
            self.report(pos, BAD_MOVE, N_("move {ply}: cannot read {text!r}"), ply=len(self.moves) + 1, text=word[:40])
            line, column = self.source.position(pos)
            self.moves.append(Move("?", word[:24], None, line, column))
            pos += len(word)
        if variations_at is not None:
            self.report(variations_at, VARIATION, N_("variations in brackets (…) are skipped; the main line is replayed"))

    def _tokens(self, text: str, pos: int) -> int:
        """Read the moves and move numbers that follow ``pos`` one after another; the offset after them.

        The loop of every record, once per move: a move is read here without a call. Until the
        first move number is seen (it may say that red's move is left out) a number is a token of
        its own; from then on the number before a move is matched with it.
        """
        moves, starts = self.moves, self.source.line_starts
        token_at = (_NUMBERED_TOKEN if self.numbered else _TOKEN).match
        # A match at each offset, not a search: a search would scan on past what cannot be read.
        while m := token_at(text, pos):
            token = m.lastindex or 0  # never 0: each alternative is a group
            pos = m.end()
            if token == _NUMBER_TOKEN:
                if not self.numbered:
                    self.numbered = True
                    token_at = _NUMBERED_TOKEN.match
                    if not moves:
                        self._first_number(text, pos)
                continue
            written, at = m.group(token), m.start(token)
            line = bisect_right(starts, at)  # 1-based: the number of lines starting at or before
            column = at - starts[line - 1] + 1
            # Move's fields by position (model.MOVE_FIELDS): a call with keywords costs a third more, once per move.
            if token == _COORDINATE_TOKEN:
                known = _COORDINATES.get(written) or _coordinates(written)
                moves.append(Move("?", known[0], known[1], line, column, None, None, known[2]))
            else:
                parts = _CANONICAL.get(written) or _canonical(written)
                moves.append(Move("?", written, None, line, column, None, None, None, False, False, parts))
        return pos

    def _first_number(self, text: str, pos: int) -> None:
        """After the first move number: four spaces or more, then a move on the same line, leave red's move out."""
        gap = _BLACK_FIRST.match(text, pos)
        if gap and gap.end() < len(text) and text[gap.end()] not in "\r\n{(":
            self.black_first = True

    def _skip_variation(self, text: str, pos: int) -> int:
        """The offset after the variation opening at ``pos`` (nested ones and comments included)."""
        depth = 0
        n = len(text)
        i = pos
        while i < n:
            ch = text[i]
            if ch == "{":
                end = text.find("}", i + 1)
                i = n if end < 0 else end + 1
                continue
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
                if depth == 0:
                    return i + 1
            i += 1
        self.report(pos, UNCLOSED, N_("a variation ( is not closed; the rest of the file is read as part of it"))
        return n

    def _comment(self, body: str) -> None:
        body = body.strip()
        if body and self.moves:
            last = self.moves[-1]
            last.comment = f"{last.comment}\n{body}" if last.comment else body

    # -- after the moves --------------------------------------------------------

    def _setup(self) -> list[str] | None:
        """The FEN tag as [board, side to move]; the side is "" where the FEN leaves it out."""
        value = self.tags.get("fen", ("", 0))[0].strip()
        if not value or value in ("?", "-"):
            return None
        fields = value.split()
        side = fields[1].lower() if len(fields) > 1 else ""
        return [fields[0], side]

    def _sides(self, setup: list[str] | None) -> None:
        """Each move's side letter, in turn from the first mover."""
        red = self.game.first.letter if self.game else "R"
        black = self.game.second.letter if self.game else "B"
        side = setup[1] if setup else ""
        first_black = side == "b" or (side not in ("w", "r") and self.black_first)
        first, second = (black, red) if first_black else (red, black)
        for move in self.moves[::2]:
            move.side = first
        for move in self.moves[1::2]:
            move.side = second

    def _metadata(self) -> None:
        header, tags = self.header, self.tags

        def tag(name: str) -> str | None:
            value = tags.get(name, ("", 0))[0]
            return value if value and value not in ("?", "??", "-") else None

        header.first = tag("red") or tag("redteam")
        header.second = tag("black") or tag("blackteam")
        header.event = tag("event")
        header.place = tag("site")
        date = tag("date")
        if date:
            header.date, header.time, _ = metadata.parse_when(date)
        written, result_line = tags.get("result", ("", 0))
        written = written.strip()
        trailer = self.trailer
        if written:
            found, recognised = metadata.parse_result(_colon(written), self.game, header.first, header.second)
            header.result_text = written
            header.result = found
            if not recognised:
                self.diagnostics.append(make(
                    self.source.path, result_line, 1, metadata.RESULT_UNREADABLE,
                    N_("result words {words!r} are not recognised"), words=written,
                ))
            if trailer and found is not None and recognised:
                after, _ = metadata.parse_result(_colon(trailer[0]), self.game)
                if after is not None and after != found and after != "unknown":
                    self.diagnostics.append(make(
                        self.source.path, trailer[1], trailer[2], RESULTS_DIFFER,
                        N_("the moves end with {trailer!r}, the Result tag says {header!r}; using the tag"),
                        trailer=trailer[0], header=written,
                    ))
        elif trailer:
            header.result, _ = metadata.parse_result(_colon(trailer[0]), self.game)
            header.result_text = trailer[0]


def _coordinates(written: str) -> tuple[str, tuple[str, int], tuple[str, int]]:
    """A coordinate move as shown and its two points, kept in ``_COORDINATES``."""
    # H2E2, h2e2 or H2-E2: the columns and rows are the first two and the last two characters.
    start, end = (_column(written[0]), int(written[1])), (_column(written[-2]), int(written[-1]))
    known = _COORDINATES[written] = (f"{start[0]}{start[1]}{end[0]}{end[1]}", start, end)
    return known


def _canonical(written: str) -> tuple[str | None]:
    """A move in Chinese notation as Move.parts, kept in ``_CANONICAL``."""
    parts = _CANONICAL[written] = (canonical(written),)
    return parts


def _column(letter: str) -> str:
    """A column as the standard writes it: A-H, and J for the ninth (ICCS writes i)."""
    letter = letter.upper()
    return "J" if letter == "I" else letter


def _colon(words: str) -> str:
    """The standard's own ``0:1`` as ``0-1``."""
    return words.replace(":", "-") if re.fullmatch(r"[0-9/½]+:[0-9/½]+", words) else words
