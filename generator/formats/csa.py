"""The CSA-based record format of 5x5 minishogi (``specs/001_…txt``, version ``V2.1-55``).

One statement per line, several on a line when separated by commas; a line
that ends with a comma goes on on the next one. The elements, in order::

    'a comment                    anywhere
    V2.1-55                       the version: the first line that is not a comment
    N+SUGATA  N-NAKASHIZU         players (teams): sente, gote
    $EVENT:…  $SITE:…  $START_TIME:2025/12/27 14:55:00  $END_TIME:…  $TIME_LIMIT:…
    PI                            the standard start, PI15HI removes pieces from it
    P1-HI-KA-GI-KI-OU             a whole row, files 5 to 1 (" * " empty)
    P-22GI  P+00FU  P-00AL        single pieces; 00 is the hand; AL every piece left
    +                             who moves first
    +3534GI  -0033FU  T15         moves: side, from, to, the piece after the move; time
    %TORYO                        a special move: resignation, and the others below

Squares are two digits, the file then the rank: ``11`` is the top-right
square (gote's side), ``55`` the bottom-left. The piece after the move is
the piece moved or its promotion; whether it is is the rules engine's
business (it knows which piece stands there), as is the start position.

Everything odd becomes a diagnostic at its line and column, and reading goes
on. The declared result comes from the special move that ends the record
(``%TORYO``: the side to move resigned), and the file name where the record
says nothing (``%CHUDAN``) or the standard is silent (``%SENNICHITE``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator import games, metadata
from generator.diagnostics import define
from generator.formats import LineReader
from generator.games import GameType
from generator.i18n import N_
from generator.model import Metadata, Move, Record, Text

# Codes of this family: the 7xx block of FMT-.
BAD_MOVE = define(
    "FMT-E701",
    "error",
    "A move cannot be read",
    "Write a move as side, from, to and the piece after the move, e.g. +3534GI, or a drop "
    "from the hand as +0033FU. The replay stops at this move.",
)
NO_VERSION = define(
    "FMT-W701",
    "warning",
    "The record does not start with the version line",
    "Write V2.1-55 as the first line that is not a comment; the record was read as that version.",
)
OTHER_VERSION = define(
    "FMT-W702",
    "warning",
    "The record names another version of the format",
    "The record was read as version V2.1-55; write that version if the record follows it.",
)
BAD_LINE = define(
    "FMT-W703",
    "warning",
    "A line was not understood and was left out",
    "Start comments with an apostrophe ('); check the line for a typing error.",
)
BAD_SETUP = define(
    "FMT-W704",
    "warning",
    "A line of the start position was not understood",
    "Write PI, a row as P1-HI-KA-GI-KI-OU, or single pieces as P-22GI or P+00FU; "
    "the rest of the position was read.",
)
AFTER_END = define(
    "FMT-W705",
    "warning",
    "Moves follow the special move that ended the game",
    "Remove the moves after %TORYO (or the other special move), or the special move; "
    "the moves were read and replayed.",
)
UNKNOWN_SPECIAL = define(
    "FMT-W706",
    "warning",
    "A special move is not one the format knows",
    "The special moves are %TORYO, %CHUDAN, %SENNICHITE, %TIME_UP, %ILLEGAL_MOVE, %JISHOGI, "
    "%KACHI, %HIKIWAKE, %MATTA, %TSUMI, %FUZUMI and %ERROR.",
)
OUT_OF_ORDER = define(
    "FMT-W707",
    "warning",
    "An element of the record is out of the standard's order",
    "Write the version, the game information (N, $), the start position (P), the side to "
    "move, then the moves, in this order.",
)
NO_MOVES = define(
    "FMT-W708",
    "warning",
    "The record has no moves",
    "Check that the file was written completely.",
)
LOOSE_MOVE = define(
    "FMT-N701",
    "note",
    "A move was read with a correction",
    "Write moves in upper case without spaces, e.g. +3534GI; writing programs should follow the standard.",
)

VERSION = "V2.1-55"
# Piece codes of the format; promoted ones after the unpromoted.
PIECES = frozenset(("FU", "GI", "KI", "KA", "HI", "OU", "TO", "NG", "UM", "RY"))
# A move as written, loosely: spaces inside and lower case are read with a note.
_MOVE = re.compile(r"([+-])\s*([0-9])\s*([0-9])\s*([0-9])\s*([0-9])\s*([A-Za-z]{2})")
_SQUARE_PIECE = re.compile(r"([0-9])([0-9])([A-Z]{2})")
_TIME = re.compile(r"T\s*[0-9]+(?:\.[0-9]+)?")
_VERSION = re.compile(r"V[0-9][0-9A-Za-z.\-]*")
_ROW = re.compile(r"P([1-9])(.*)")
# A line that is one move as the standard writes it, and maybe its time after a comma: most lines of a record.
# Groups: the move as written, its side, from, to, piece.
_PLAIN_MOVE = re.compile(r"(([+-])([0-9]{2})([0-9]{2})(FU|GI|KI|KA|HI|OU|TO|NG|UM|RY))(?:,T[0-9]+(?:\.[0-9]+)?)?")
# A square as written (two digits) -> the point a Move holds: (file as written, rank); the start of a drop (00) is None.
_POINTS = {f"{f}{r}": (str(f), r) for f in range(10) for r in range(10)}
_STARTS: dict[str, tuple[str, int] | None] = {**_POINTS, "00": None}
_PARTS = {piece: (piece,) for piece in PIECES}  # Move.parts of each piece, shared by the moves

# Special moves: who wins, from the side to move ("mover") at the special move.
#   "other": the side to move lost; "mover": the side to move won;
#   "draw"; None: the record does not say (the file name may).
SPECIAL = {
    "TORYO": "other",  # 投了: the side to move resigned
    "CHUDAN": None,  # 中断: interrupted
    "SENNICHITE": None,  # 千日手: the standard does not say who wins; see rules.shogi
    "TIME_UP": "other",  # 時間切れ of the side to move
    "ILLEGAL_MOVE": "other",  # 反則負け of the side to move
    "JISHOGI": "draw",  # 持将棋
    "KACHI": "mover",  # 入玉勝ち宣言 by the side to move
    "HIKIWAKE": "draw",  # 引き分けの宣言
    "MATTA": None,  # 待った
    "TSUMI": "other",  # 詰み: the side to move is mated
    "FUZUMI": None,  # 不詰
    "ERROR": None,
}
# CSA V2.2 names the offender: %+ILLEGAL_ACTION, %-ILLEGAL_ACTION.
_ACTION = re.compile(r"%([+-])ILLEGAL_ACTION")


@dataclass(slots=True)
class Statement:
    text: str  # without surrounding spaces
    line: int
    column: int  # 1-based, of the first character of ``text``


def sniff(text: str) -> str | None:
    """The family's game when the first line that is not a comment is a version line ``V2…``."""
    codes = [game.code for game in games.of_format(__name__)]
    if len(codes) != 1:
        return None
    for raw in text[:400].lstrip("\ufeff").splitlines():
        line = raw.strip()
        if not line or line.startswith("'"):
            continue
        return codes[0] if _VERSION.fullmatch(line) else None
    return None


def parse(text: Text, game: GameType | None) -> Record:
    """Read one record. Never raises; problems become diagnostics."""
    return _Reader(text, game).read()


def _split(raw: str, number: int) -> list[Statement]:
    """The statements of one line, in order: split at commas, comments kept whole.

    A comment (``'``) runs to the end of its line; so does the value of an
    ``N`` or ``$`` line, which may hold commas (a team's name), except a last
    comma, which continues the line as everywhere else.
    """
    if "," not in raw and raw[:1] not in ("", " ", "\t", "\u3000"):  # the usual line: one statement at most
        body = raw.rstrip()
        return [Statement(body, number, 1)] if body else []
    out: list[Statement] = []
    offset = 0
    while offset < len(raw):
        while offset < len(raw) and raw[offset] in " \t\u3000":
            offset += 1
        if offset >= len(raw):
            break
        if raw[offset] in "'N$":
            body = raw[offset:].rstrip()
            if raw[offset] != "'" and body.endswith(","):
                body = body[:-1].rstrip()
            out.append(Statement(body, number, offset + 1))
            break
        comma = raw.find(",", offset)
        end = len(raw) if comma < 0 else comma
        body = raw[offset:end].rstrip()
        if body:
            out.append(Statement(body, number, offset + 1))
        offset = end + 1
    return out


class _Reader(LineReader):
    # Stages of the standard's order: version, information, position, turn, moves.
    VERSION, INFO, POSITION, TURN, MOVES = range(5)

    def __init__(self, text: Text, game: GameType | None) -> None:
        super().__init__(text)
        self.game = game
        self.header = Metadata(code=game.code if game else None)
        self.moves: list[Move] = []
        self.stage = self.VERSION
        self.seen_version = False
        # The start position as written: square (file, rank) -> (side, piece); hands; turn.
        self.board: dict[tuple[int, int], tuple[str, str]] | None = None
        self.hands: dict[str, list[str]] = {"+": [], "-": []}
        self.turn: str | None = None
        self.setup_line = 0
        self.special: Statement | None = None  # the special move that ended the game
        self.special_name = ""
        self.offender: str | None = None  # the side a %+ILLEGAL_ACTION names
        self.moves_before_special = 0
        self.order_warned = False
        self.after_end_warned = False
        self.loose_at: Statement | None = None

    def report_at(self, at: Statement, code: str, template: str, /, **args: object) -> None:
        """A diagnostic at a statement; ``template`` is written with N_() where this is called."""
        self.report(at.line, at.column, code, template, **args)

    def read(self) -> Record:
        plain, time, moves = _PLAIN_MOVE.fullmatch, _TIME.fullmatch, self.moves
        for number, line in enumerate(self.source.lines(), 1):
            # The lines of the moves section first, read at once: a move as
            # the standard writes it (after the first move, before any special
            # one), or a time alone; anything else goes statement by statement.
            m = plain(line)
            if m is not None and self.stage == self.MOVES and self.special is None:
                text, side, start, to, piece = m.groups()
                # As Move(side, text, point, number, 1, to=..., parts=...), positionally (model.MOVE_FIELDS).
                moves.append(Move(side, text, _STARTS[start], number, 1, None, None, _POINTS[to], False, False, _PARTS[piece]))
                continue
            if line[:1] == "T" and time(line):
                continue  # the time a move took: not shown
            for statement in _split(line, number):
                self._statement(statement)
        if not self.seen_version:
            self.report(1, 1, NO_VERSION, N_("the first line is not the version line {version}"), version=VERSION)
        if self.loose_at is not None:
            template = N_("moves with spaces or lower case letters were read as the standard writes them")
            self.report_at(self.loose_at, LOOSE_MOVE, template)
        self._result()
        if not self.moves:
            self.report(max(1, len(self.source.line_starts)), 1, NO_MOVES, N_("the record has no moves"))
        return Record(
            self.source.path,
            self.header.code,
            self.header,
            self.moves,
            self.diagnostics,
            setup=self._setup(),
            setup_line=self.setup_line,
        )

    # -- one statement ------------------------------------------------------------

    def _statement(self, at: Statement) -> None:
        text = at.text
        first = text[0]
        if first == "'":
            self._comment(text[1:].strip())
        elif not self.seen_version and self.stage == self.VERSION and _VERSION.fullmatch(text):
            self._version(at)
        elif first == "N" and text[1:2] in ("+", "-"):
            self._stage(at, self.INFO)
            name = text[2:].strip() or None
            if text[1] == "+":
                self.header.first = name
            else:
                self.header.second = name
        elif first == "$":
            self._stage(at, self.INFO)
            self._info(text[1:])
        elif first == "P":
            self._position(at)
        elif text in ("+", "-"):
            self._stage(at, self.TURN)
            self.turn = text
            self.setup_line = self.setup_line or at.line
        elif first == "%":
            self._special(at)
        elif first == "T" and _TIME.fullmatch(text):
            return  # the time a move took: not shown
        elif first in "+-" or _MOVE.fullmatch(text) or text[:1].isdigit():
            self._move(at)
        else:
            self.report_at(at, BAD_LINE, N_("line {text!r} is not part of the format and was left out"), text=text[:40])

    def _stage(self, at: Statement, stage: int) -> None:
        """Move on to ``stage``; a step back breaks the standard's order (warned once)."""
        if stage < self.stage and not self.order_warned:
            self.order_warned = True
            template = N_("{text!r} comes after the moves or the start position; read anyway")
            self.report_at(at, OUT_OF_ORDER, template, text=at.text[:40])
        self.stage = max(self.stage, stage)

    def _version(self, at: Statement) -> None:
        self.seen_version = True
        self.stage = self.INFO
        if at.text != VERSION:
            template = N_("version {found} is not {version}; read as {version}")
            self.report_at(at, OTHER_VERSION, template, found=at.text, version=VERSION)

    def _comment(self, body: str) -> None:
        if self.moves and body:
            last = self.moves[-1]
            last.comment = f"{last.comment}\n{body}" if last.comment else body

    def _info(self, body: str) -> None:
        key, _, value = body.partition(":")
        key, value = key.strip().upper(), value.strip()
        if key == "EVENT":
            self.header.event = value or None
        elif key == "SITE":
            self.header.place = value or None
        elif key == "START_TIME" and value:
            date, clock, _ = metadata.parse_when(value)
            self.header.date, self.header.time = date, clock
        # $END_TIME, $TIME_LIMIT, $OPENING and the rest: kept in the file, not shown.

    # -- the start position --------------------------------------------------------

    def _position(self, at: Statement) -> None:
        self._stage(at, self.POSITION)
        self.setup_line = self.setup_line or at.line
        text = at.text
        if text.startswith("PI"):
            self._standard(at, text[2:].strip())
        elif m := _ROW.fullmatch(text):
            self._row(at, int(m[1]), m[2])
        elif text[1:2] in ("+", "-"):
            self._singles(at, text[1], text[2:].strip())
        else:
            self.report_at(at, BAD_SETUP, N_("{text!r} is not a line of the start position"), text=text[:40])

    def _standard(self, at: Statement, removed: str) -> None:
        self.board = dict(_STANDARD_BOARD)
        self.hands = {"+": [], "-": []}
        for i in range(0, len(removed), 4):
            chunk = removed[i : i + 4]
            m = _SQUARE_PIECE.fullmatch(chunk)
            square = (int(m[1]), int(m[2])) if m else None
            if m is None or square is None or self.board.get(square, ("", ""))[1] != m[3]:
                template = N_("PI: there is no {piece} to take off at {square}")
                self.report_at(at, BAD_SETUP, template, piece=chunk[2:], square=chunk[:2])
                continue
            del self.board[square]

    def _row(self, at: Statement, rank: int, cells: str) -> None:
        if self.board is None:
            self.board = {}
        if rank > 5:
            self.report_at(at, BAD_SETUP, N_("there is no row {rank}: the board has rows 1 to 5"), rank=rank)
            return
        cells = cells.rstrip().ljust(15)
        if len(cells) > 15:
            self.report_at(at, BAD_SETUP, N_("row {rank} has more than five squares; the first five were read"), rank=rank)
        for k in range(5):
            cell = cells[3 * k : 3 * k + 3]
            square = (5 - k, rank)
            if cell[0] in "+-" and cell[1:] in PIECES:
                self.board[square] = (cell[0], cell[1:])
            elif cell.strip() in ("*", ""):
                self.board.pop(square, None)
            else:
                self.report_at(at, BAD_SETUP, N_("row {rank}: {cell!r} is not a piece nor an empty square"), rank=rank, cell=cell)

    def _singles(self, at: Statement, side: str, body: str) -> None:
        if self.board is None:
            self.board = {}  # single pieces alone: on an empty board, as in CSA
        for i in range(0, len(body), 4):
            chunk = body[i : i + 4]
            if chunk == "00AL":
                self._all_left(side)
                continue
            m = _SQUARE_PIECE.fullmatch(chunk)
            if m is None or m[3] not in PIECES:
                self.report_at(at, BAD_SETUP, N_("{chunk!r} is not a square and a piece"), chunk=chunk)
                continue
            file, rank = int(m[1]), int(m[2])
            if file == 0 and rank == 0:
                self.hands[side].append(UNPROMOTED.get(m[3], m[3]))
            elif 1 <= file <= 5 and 1 <= rank <= 5:
                self.board[file, rank] = (side, m[3])
            else:
                self.report_at(at, BAD_SETUP, N_("square {square} is not on the 5x5 board"), square=chunk[:2])

    def _all_left(self, side: str) -> None:
        """``00AL``: every piece not on the board nor in a hand goes to this side's hand (kings excepted)."""
        left = {kind: 2 for kind in ("HI", "KA", "GI", "KI", "FU")}
        for _, piece in (self.board or {}).values():
            base = UNPROMOTED.get(piece, piece)
            if base in left:
                left[base] -= 1
        for hand in self.hands.values():
            for piece in hand:
                if piece in left:
                    left[piece] -= 1
        for kind, count in left.items():
            self.hands[side].extend([kind] * max(0, count))

    def _setup(self) -> list[str] | None:
        """The start position for the engine: five rows in the P1…P5 form, the hands, the side to move.

        None when the record writes no position and no side to move: the standard start.
        """
        if self.board is None and self.turn is None and not any(self.hands.values()):
            return None
        board = self.board if self.board is not None else _STANDARD_BOARD
        if board == _STANDARD_BOARD:  # PI, the usual start: its rows are made once
            rows = list(_STANDARD_ROWS)
        else:
            rows = _rows(board)
        return [*rows, "+" + "".join(self.hands["+"]), "-" + "".join(self.hands["-"]), self.turn or "+"]

    # -- moves and the end ---------------------------------------------------------

    def _move(self, at: Statement) -> None:
        self._stage(at, self.MOVES)
        if self.special is not None and not self.after_end_warned:
            self.after_end_warned = True
            self.report_at(at, AFTER_END, N_("a move follows {special}; the moves after it were read"), special=self.special.text)
        m = _MOVE.fullmatch(at.text)
        number = len(self.moves) + 1
        if m is None or m[6].upper() not in PIECES:
            side = at.text[0] if at.text[0] in "+-" else "?"
            self.report_at(at, BAD_MOVE, N_("move {ply}: cannot read {text!r}"), ply=number, text=at.text[:40])
            self.moves.append(Move(side, at.text[:24], None, at.line, at.column))
            return
        side, f1, r1, f2, r2, piece = m[1], int(m[2]), int(m[3]), int(m[4]), int(m[5]), m[6].upper()
        text = f"{side}{f1}{r1}{f2}{r2}{piece}"
        if text != at.text and self.loose_at is None:
            self.loose_at = at
        start = None if f1 == 0 and r1 == 0 else (str(f1), r1)
        # The piece after the move rides in ``parts``: the engine checks it against the board.
        self.moves.append(Move(side, text, start, at.line, at.column, to=(str(f2), r2), parts=(piece,)))

    def _special(self, at: Statement) -> None:
        self._stage(at, self.MOVES)
        text = at.text.split()[0].upper()
        action = _ACTION.fullmatch(text)
        name = "ILLEGAL_ACTION" if action else text[1:]
        if action is None and name not in SPECIAL:
            self.report_at(at, UNKNOWN_SPECIAL, N_("{text!r} is not a special move of the format"), text=at.text[:40])
            return
        if self.special is None:
            self.special, self.special_name = at, name
            self.offender = action[1] if action else None
            self.moves_before_special = len(self.moves)

    def _result(self) -> None:
        """The declared result: what the special move says of the side to move at it."""
        if self.special is None:
            return
        header = self.header
        header.result_text = self.special.text.split()[0].upper()
        if self.special_name == "ILLEGAL_ACTION":
            header.result = "second" if self.offender == "+" else "first"
            return
        who = SPECIAL[self.special_name]
        if who is None:
            return
        if who == "draw":
            header.result = "draw"
            return
        mover = self._side_to_move()
        won = mover if who == "mover" else ("-" if mover == "+" else "+")
        header.result = "first" if won == "+" else "second"

    def _side_to_move(self) -> str:
        """The side to move after the last move before the special move (or at the start)."""
        before = self.moves[: self.moves_before_special]
        if before and before[-1].side in ("+", "-"):
            return "-" if before[-1].side == "+" else "+"
        start = self.turn or "+"
        if len(before) % 2 == 0:
            return start
        return "-" if start == "+" else "+"


UNPROMOTED = {"TO": "FU", "NG": "GI", "UM": "KA", "RY": "HI"}


def standard_board() -> dict[tuple[int, int], tuple[str, str]]:
    """The standard start (PI): gote on rank 1 (HI KA GI KI OU from file 5), sente on rank 5 mirrored."""
    board = {}
    for file, piece in zip((5, 4, 3, 2, 1), ("HI", "KA", "GI", "KI", "OU"), strict=True):
        board[file, 1] = ("-", piece)
        board[6 - file, 5] = ("+", piece)
    board[1, 2] = ("-", "FU")
    board[5, 4] = ("+", "FU")
    return board


def _rows(board: dict[tuple[int, int], tuple[str, str]]) -> list[str]:
    """The five rows of a board in the P1…P5 form, files 5 to 1."""
    rows = []
    for rank in range(1, 6):
        cells = []
        for file in range(5, 0, -1):
            piece = board.get((file, rank))
            cells.append(f"{piece[0]}{piece[1]}" if piece else " * ")
        rows.append("".join(cells))
    return rows


_STANDARD_BOARD = standard_board()
_STANDARD_ROWS = tuple(_rows(_STANDARD_BOARD))
