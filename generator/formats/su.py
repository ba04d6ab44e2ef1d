"""The line notation of Surakarta (SU): one fact per line, ``#`` for comments.

The standard (``specs/000_…txt``, 苏拉卡尔塔棋谱格式说明文档)::

    #2017-11-30-20:55 中国棋院
    #先手方:苏拉卡尔塔 1 队|后手方:苏拉卡尔塔 2 队|未决胜
    !BBBBBB                      six rows of the start position, top first
    …
    B2E-3E                       side, from (row digit, column letter), to
    R6C×4A                       a capture: X, x or ×
    # 未分出胜负

Real files (``corpus/SOURCES.md``) differ in every line, and this reader
takes them as they are: ``|`` or a space between time and place, times of
12, 11 or 14 digits or a date alone, unpadded dates, full-width colons; a
missing colon after 先手方, spaces around ``|``; result words of every kind,
or only in a closing comment (``# 先手方获胜``); captures written with a
plain ``-``; moves with spaces inside (``B2C - 2D``); rows counted from 0;
no board block, or one with red on top; red moving first; comments after
the moves; truncated files; CR, LF and mixed line ends.

Which side is on top and who moves first are the rules engine's business
(it sees the block and the moves); this reader only reads. It needs the
first mover to read colour words in the result (黑方胜 means the first player
when black moved first), so it reads the moves before the result.
"""

from __future__ import annotations

import re

from generator import games, metadata
from generator.diagnostics import define
from generator.formats import NARROW, LineReader
from generator.games import GameType
from generator.i18n import N_
from generator.model import Metadata, Move, Record, Text

# Codes of this family: the 2xx block of FMT-.
NO_MOVES = define(
    "FMT-W201",
    "warning",
    "The record has no moves",
    "Check that the file was written completely.",
)
BAD_MOVE = define(
    "FMT-E201",
    "error",
    "A move line cannot be read",
    "Write a move as side, start and end, e.g. B2E-3E (row digit, then column "
    "letter A-F) or B4AX6C for a capture. The moves from here on are shown as not replayed.",
)
BAD_BOARD_ROW = define(
    "FMT-W202",
    "warning",
    "A line of the board block was read with a correction",
    "Start each of the six board rows with ! followed by six of 0, B and R.",
)
ZERO_BASED = define(
    "FMT-W203",
    "warning",
    "The moves count rows from 0: they were read as rows 1-6",
    "Write rows 1 to 6, top to bottom, as the standard does.",
)
NO_TEAMS_LINE = define(
    "FMT-W204",
    "warning",
    "The record has no line naming the teams",
    "Write the second line as #先手方:team|后手方:team|result; the teams are "
    "taken from the file name where it has them.",
)
TRAILER_RESULT = define(
    "FMT-W205",
    "warning",
    "The closing comment declares another result than the header",
    "Correct one of them; the header's result is used.",
)
FULL_WIDTH = define(
    "FMT-N201",
    "note",
    "Full-width characters in a move were read as ASCII",
    "Nothing to do; writing programs should use ASCII for moves.",
)
OTHER_COMMENT = define(
    "FMT-N202",
    "note",
    "A line before the moves was kept as a comment",
    "Nothing to do if it is a comment; the time and teams lines start with #.",
)

# A move once full-width letters and digits are ASCII (NARROW): side, row
# and column of the start, the sign, row and column of the end. Captures are
# X, x or ×; a plain move "-" or a dash. Rows are ASCII digits only: \d would
# also take "٣", which int() reads as 3.
_MOVE = re.compile(
    r"(?P<side>[A-Za-z])\s*(?P<r1>[0-9])\s*(?P<c1>[A-Za-z])\s*(?P<sign>[-xX×—–－~])\s*(?P<r2>[0-9])\s*(?P<c2>[A-Za-z])"
    r"\s*(?:[#;,，。]\s*(?P<comment>.*))?"
)
# A row of the board block; "1000000" is how the standard's own scanned
# example shows "!000000".
_BOARD_ROW = re.compile(r"[!！](?P<cells>.*)")
_SCANNED_ROW = re.compile(r"[1lI|](?P<cells>[0BRbr]{6})")
# The separator after 先手方 is a colon, but programs also write ";", "；" or none at all:
# never part of the team's name ("后手方;峰回路转" names 峰回路转).
_SIDE_FIELD = re.compile(r"(?P<role>先手方?|后手方?)\s*[:：;；]?\s*(?P<name>.*)")
_ROLES = ("先手", "后手")
_CAPTURE_SIGNS = frozenset("xX×")


def sniff(text: str) -> str | None:
    """The family's game when the first lines look like it: ``#`` lines, ``!`` rows or SU moves.

    The files name no game inside, so the shape decides: a line naming 先手方
    and 后手方, a board row, or a move like ``B2E-3E`` among the first lines.
    """
    codes = [game.code for game in games.of_format(__name__)]
    if len(codes) != 1:
        return None
    head = text[:600].lstrip("\ufeff \t\r\n")
    if not head or head[0] in "{([":
        return None
    lines = [line.strip() for line in head.splitlines()[:12]]
    for line in lines:
        plain = line.translate(NARROW)
        if plain.startswith("#") and plain[1:].lstrip().startswith("["):
            return None  # "#[AM][…]": a header that names its game, another family's
        if plain.startswith("#") and "先手" in plain and "后手" in plain:
            return codes[0]
        if (m := _BOARD_ROW.fullmatch(plain)) and re.fullmatch(r"\s*[0BRbr]{6}\s*", m["cells"]):
            return codes[0]
        if _MOVE.fullmatch(plain) and plain[0].upper() in "BR":
            return codes[0]
    return None


def parse(text: Text, game: GameType | None) -> Record:
    """Read one record. Never raises; problems become diagnostics."""
    return _Reader(text, game).read()


class _Reader(LineReader):
    def __init__(self, text: Text, game: GameType | None) -> None:
        super().__init__(text)
        self.game = game
        self.header = Metadata(code=game.code if game else None)
        self.moves: list[Move] = []
        self.setup: list[str] = []
        self.setup_line = 0
        self.teams_line: tuple[int, str] | None = None  # (line, text after "#")
        self.trailer: tuple[int, str] | None = None  # a result in a comment after the moves
        self.full_width_at: int | None = None

    def read(self) -> Record:
        for number, line in self.lines():
            self._line(number, line)
        self._rows_from_zero()
        self._teams_and_result()
        if self.full_width_at is not None:
            self.report(self.full_width_at, 1, FULL_WIDTH, N_("full-width characters in moves were read as ASCII"))
        if not self.moves:
            self.report(max(1, len(self.source.line_starts)), 1, NO_MOVES, N_("the record has no moves"))
        return Record(
            self.source.path,
            self.header.code,
            self.header,
            self.moves,
            self.diagnostics,
            setup=self.setup or None,
            setup_line=self.setup_line,
        )

    # -- one line -------------------------------------------------------------

    def _line(self, number: int, raw: str) -> None:
        line = raw.strip()
        if not line:
            return
        indent = len(raw) - len(raw.lstrip())
        plain = line.translate(NARROW)
        if plain.startswith("#"):
            self._comment(number, plain[1:].strip())
        elif m := _BOARD_ROW.fullmatch(plain):
            self._board_row(number, m["cells"].strip(), raw)
        elif self.setup and len(self.setup) < 6 and not self.moves and (m := _SCANNED_ROW.fullmatch(plain)):
            self.report(number, indent + 1, BAD_BOARD_ROW, N_("board row {line!r} read as !{cells}"), line=line, cells=m["cells"])
            self._board_row(number, m["cells"], raw, checked=True)
        else:
            self._move(number, indent + 1, line, plain)

    def _comment(self, number: int, body: str) -> None:
        if not self.moves and not self.setup:
            if "先手" in body and "后手" in body and self.teams_line is None:
                self.teams_line = (number, body)
                return
            date, clock, place = metadata.parse_when(body)
            if date is not None and self.header.date is None:
                self.header.date, self.header.time, self.header.place = date, clock, place
                return
            if body and self.teams_line is None and number > 1:
                self.report(number, 1, OTHER_COMMENT, N_("line #{text} kept as a comment"), text=body[:40])
            return
        if self.moves:
            # A comment after a move: a closing result ("# 先手方获胜"), or a remark.
            self.trailer = (number, body)
            last = self.moves[-1]
            last.comment = f"{last.comment}\n{body}" if last.comment else body

    def _board_row(self, number: int, cells: str, raw: str, checked: bool = False) -> None:
        if self.moves:
            # A board after the moves is no start position: keep it as a comment.
            return
        if not self.setup:
            self.setup_line = number
        if not checked and not re.fullmatch(r"[0BRbr]{6}", cells):
            self.report(number, 1, BAD_BOARD_ROW, N_("board row !{cells} should be six of 0, B and R"), cells=cells)
        self.setup.append(cells.upper())

    def _move(self, number: int, column: int, line: str, plain: str) -> None:
        m = _MOVE.fullmatch(plain)
        if m is None:
            side = plain[0].upper() if plain[:1].isascii() and plain[:1].isalpha() else "?"
            self.report(number, column, BAD_MOVE, N_("move {ply}: cannot read {text!r}"), ply=len(self.moves) + 1, text=line[:40])
            self.moves.append(Move(side, line[:24], None, number, column))
            return
        if plain != line and self.full_width_at is None:
            self.full_width_at = number
        side = m["side"].upper()
        sign = "X" if m["sign"] in _CAPTURE_SIGNS else "-"
        start = (m["c1"].upper(), int(m["r1"]))
        end = (m["c2"].upper(), int(m["r2"]))
        move = Move(side, "", start, number, column, to=end, capture=sign == "X")
        move.text = _text(move)
        if m["comment"]:
            move.comment = m["comment"].strip()
        self.moves.append(move)

    # -- after all lines --------------------------------------------------------

    def _rows_from_zero(self) -> None:
        """Files that count rows 0-5 (a real one does): shift them to 1-6, with a warning."""
        rows = {p[1] for m in self.moves for p in (m.point, m.to) if p is not None}
        if 0 not in rows:
            return
        first = next(m for m in self.moves if m.point and 0 in (m.point[1], m.to[1] if m.to else 1))
        if 6 in rows:
            # Both 0 and 6: no consistent reading. The moves naming row 0 cannot be played.
            for move in self.moves:
                for p in (move.point, move.to):
                    if p is not None and p[1] == 0:
                        move.point = None
                        template = N_("move {move}: there is no row 0 (rows are 1-6)")
                        self.report(move.line, move.column, BAD_MOVE, template, move=move.text)
                        break
            return
        self.report(first.line, first.column, ZERO_BASED, N_("rows 0-5 are used: read as rows 1-6 (each row number plus one)"))
        for move in self.moves:
            if move.point is not None:
                move.point = (move.point[0], move.point[1] + 1)
            if move.to is not None:
                move.to = (move.to[0], move.to[1] + 1)
            move.text = _text(move)

    def _teams_and_result(self) -> None:
        header = self.header
        first_letter = next((m.side for m in self.moves if m.side in ("B", "R")), None)
        game = self.game.ordered(first_letter) if self.game else None
        if self.teams_line is None:
            self.report(1, 1, NO_TEAMS_LINE, N_("no #先手方:…|后手方:… line; teams come from the file name"))
        else:
            number, body = self.teams_line
            words: list[str] = []
            for field in re.split(r"[|｜]", body):
                field = field.strip()
                m = _SIDE_FIELD.fullmatch(field)
                if m and m["role"].startswith("先手") and header.first is None:
                    header.first = m["name"].strip() or None
                elif m and m["role"].startswith("后手") and header.second is None:
                    header.second = m["name"].strip() or None
                elif field:
                    words.append(field)
            if words:
                text = " ".join(words)
                result, recognised = metadata.parse_result(text, game, header.first, header.second)
                header.result_text = text
                header.result = result
                if not recognised:
                    template = N_("result words {words!r} are not recognised")
                    self.report(number, 1, metadata.RESULT_UNREADABLE, template, words=text)
        self._trailer(game)

    def _trailer(self, game: GameType | None) -> None:
        """A result in the comment after the last move: used when the header has none."""
        if self.trailer is None:
            return
        number, body = self.trailer
        result, recognised = metadata.parse_result(body, game, self.header.first, self.header.second)
        if not recognised:
            return
        header = self.header
        if header.result is None:
            header.result, header.result_text = result, body
        elif result is not None and result != header.result:
            self.report(
                number, 1, TRAILER_RESULT,
                N_("the closing comment says {trailer!r}, the header {header!r}; using the header"),
                trailer=body,
                header=header.result_text,
            )


def _text(move: Move) -> str:
    """The move as the standard writes it: B2E-3E, B4AX6C."""
    a, b = move.point, move.to
    if a is None or b is None:
        return move.text
    return f"{move.side}{a[1]}{a[0]}{'X' if move.capture else '-'}{b[1]}{b[0]}"
