"""The draughts notation of the CCGC championship standard (DR10, DR8).

The standard (``specs/002_…txt``, 100 格 / 64 格国际跳棋棋谱格式说明文档)::

                                   line 1 is empty
    时间：2018.03.10
    先手：1                         1: the upper side moves first, 2: the lower
    先手方：重庆理工大学 1 队        the team of the UPPER pieces
    后手方：重庆理工大学 2 队        the team of the LOWER pieces
    结果：*                         1-0 upper wins, 0-1 lower wins, * a draw

    1. 20-24 33-29                  round, first mover's move, second's
    4. 19-23 29x18x27               a capture through every landing square
    *                               the result again

Squares are numbered from the top-left, two digits (``07``). The standard
names the teams by the side of the board they hold, not by who moves first:
先手方 is the upper side's team even under 先手：2, and ``1-0`` is a win of
the upper side. This reader turns all of it into the order of play
(``Metadata.first`` is the team that moves first), as everything else in
Qipu counts. In DR records ``*`` is a draw (specs/README.md).

The upper side is black, the lower white (the standard's table: 黑方先手 with
the upper side moving first in its examples; FMJD's white moves first from
below, ``先手：2``). Moves get the side letters B and W in turn from the first
mover; which board size a file is for is the file name's business, or, when
the file name says nothing, the squares' (only 10x10 has squares above 32,
and the first move comes from disjoint squares on the two boards).

Real writers vary; this reader takes ASCII or full-width colons, spaces inside
captures (``29 x 18 x 27``, as the standard's own text writes them), ``X`` or
``×`` for ``x``, ``:`` for a capture as PDN does, unpadded squares, several
rounds on a line or none numbered, ``{comments}``, a missing 先手 line (the
first move says), and a 先手 line that the first move contradicts (the moves
win, with a warning).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator import games, metadata
from generator.diagnostics import define
from generator.formats import NARROW, LineReader
from generator.games import GameType
from generator.i18n import N_, T, Term
from generator.model import Metadata, Move, Record, Result, Text

# Codes of this family: the 8xx block of FMT-.
BAD_MOVE = define(
    "FMT-E801",
    "error",
    "A draughts move cannot be read",
    "Write a move as two square numbers joined by - (07-11), a capture with x through its landing "
    "squares (29x18x27). The moves from here on are shown as not replayed.",
)
NO_MOVES = define(
    "FMT-W801",
    "warning",
    "The record has no moves",
    "Check that the file was written completely.",
)
NO_FIRST = define(
    "FMT-W802",
    "warning",
    "The record does not say which side moves first",
    "Write the line 先手：1 (the upper side moves first) or 先手：2 (the lower side); the first move "
    "was used to tell.",
)
FIRST_DIFFERS = define(
    "FMT-W803",
    "warning",
    "The 先手 line and the first move disagree about which side moves first",
    "Correct the 先手 line (1: the upper side moves first, 2: the lower side); the moves were read as "
    "the first move says.",
)
TRAILER_RESULT = define(
    "FMT-W804",
    "warning",
    "The result after the moves differs from the 结果 line",
    "Correct one of them; the 结果 line is used.",
)
FULL_WIDTH = define(
    "FMT-N801",
    "note",
    "Full-width characters in the moves were read as ASCII",
    "Nothing to do; writing programs should use ASCII for moves.",
)
OTHER_LINE = define(
    "FMT-N802",
    "note",
    "Text that is no move was kept as a comment",
    "Nothing to do if it is a comment; the header lines are 时间, 先手, 先手方, 后手方 and 结果.",
)

# A header line: key, colon (either width), value.
_HEADER = re.compile(r"(?P<key>时间|日期|先手方|后手方|先手|结果|地点|赛事|比赛)\s*[:：]\s*(?P<value>.*)")
# What a move line holds, in order of trial: a round number ("12." "12..."),
# a move of squares joined by signs (spaces allowed around the signs, as the
# standard writes "29 x 18 x 27"), a result, a comment, anything else.
_TOKEN = re.compile(
    r"(?P<round>[0-9]+\s*\.+)"
    r"|(?P<move>[0-9]+(?:\s*[-xX:]\s*[0-9]+)+)"
    r"|(?P<result>\*|1/2-1/2)"
    r"|(?P<comment>\{[^}]*\}?)"
    r"|(?P<other>\S+)"
)
_SQUARE = re.compile(r"[0-9]+")
# _TOKEN over a whole head at once (sniff): no token crosses a line end, and a
# header line is one token, as reading line by line skips it. Its one group is a move.
_HEADER_KEYS = "时间|日期|先手方|后手方|先手|结果|地点|赛事|比赛"  # as _HEADER has them
_HEAD_TOKEN = re.compile(
    rf"(?m)^[^\S\n]*(?:{_HEADER_KEYS})[^\S\n]*[:：].*"
    r"|[0-9]+[^\S\n]*\.+"
    r"|([0-9]+(?:[^\S\n]*[-xX:][^\S\n]*[0-9]+)+)"
    r"|\*|1/2-1/2"
    r"|\{[^}\n]*\}?"
    r"|\S+"
)
# A move written the usual way: digits joined by - or by x, the x with one space on
# both sides or none (20-24, 25x34x23, 23 x 32), as _TOKEN reads it.
_PLAIN_MOVE = r"[0-9]+(?:-|x| x )[0-9]+(?:(?:x| x )[0-9]+)*"
# What _head_moves() reads without _HEAD_TOKEN: the header lines and empty lines
# at the top (_HEADER_LINES), then only the characters of rounds and plain moves,
# whose tokens are a round or a move without spaces (_PLAIN_ROUND, _PLAIN_TOKEN).
_HEADER_LINES = re.compile(rf"(?:[ \t]*(?:{_HEADER_KEYS})[ \t]*[:：][^\n]*\n|[ \t]*\n)*")
_PLAIN_CHARACTERS = re.compile(r"[0-9 \t\n.x-]*")
_PLAIN_ROUND = re.compile(r"[0-9]+\.+")
_PLAIN_TOKEN = re.compile(r"[0-9]+(?:[-x][0-9]+)+")
# A line of plain moves, a round number before them or not: what _TOKEN reads as a round and one or
# two moves, where a move is written the usual way (_PLAIN_MOVE).
_ROUND = re.compile(rf"[ \t]*(?:[0-9]+\.+[ \t]*)?({_PLAIN_MOVE})(?:[ \t]+({_PLAIN_MOVE}))?[ \t]*")
# The header lines that tell a record of this family (sniff).
_SNIFF_HEADER = re.compile(r"(?m)^\s*(?:先手\s*[:：]\s*[12]|先手方\s*[:：]|结果\s*[:：])")
# A move that is one of _RESULT_MOVES, spaces allowed around the sign (fullmatch).
_RESULT_MOVE = re.compile(r"1\s*-\s*[01]|0\s*-\s*[12]|2\s*-\s*0")
# Characters that _NARROW changes: a line without any is read as it is.
_WIDE = re.compile(r"[\uff01-\uff5e\u3000\xd7]")
# Results written as squares would be: no square 0 exists.
_RESULT_MOVES = frozenset({"1-0", "0-1", "2-0", "0-2", "1-1"})
# DR results, from the upper side's point of view: "up", "down", "draw".
_DR_RESULTS = {"1-0": "up", "2-0": "up", "0-1": "down", "0-2": "down", "*": "draw", "1-1": "draw", "1/2-1/2": "draw"}
# Full-width ASCII and the ideographic space as ASCII; × as x.
_NARROW = {**NARROW, 0xD7: ord("x")}
UPPER, LOWER = "B", "W"  # the side letters moves are given: black above, white below


def _family_codes() -> dict[int, str]:
    """Board size -> code of the games this family reads (from the registry)."""
    return {int(g.params["size"]): g.code for g in games.of_format(__name__)}


def start_rows(size: int) -> int:
    """Rows of men each side starts with: 4 on 10x10, 3 on 8x8."""
    return size // 2 - 1


def side_at_start(square: int, size: int) -> str | None:
    """Which side's man stands on ``square`` at the start: UPPER, LOWER or None."""
    per_row = size // 2
    men = start_rows(size) * per_row
    if 1 <= square <= men:
        return UPPER
    if per_row * size - men < square <= per_row * size:
        return LOWER
    return None


def front_row(square: int, size: int) -> str | None:
    """Which side's men stand on ``square`` at the start and can make the first move: UPPER, LOWER or None.

    The squares are those of each side's front row, and they differ between
    the boards (10x10: 16-20 and 31-35; 8x8: 9-12 and 21-24).
    """
    per_row = size // 2
    men = start_rows(size) * per_row
    if men - per_row < square <= men:
        return UPPER
    if per_row * size - men < square <= per_row * size - men + per_row:
        return LOWER
    return None


def sniff(text: str) -> str | None:
    """DR10 or DR8 when the text has the family's header lines and the moves tell the board.

    The records name no game inside; the file name usually does, and this
    answers only where the squares leave no doubt, so that one damaged move
    does not outvote the file name: the first two moves must start on the
    front rows of the two sides of one board only (10x10: 16-20 and 31-35;
    8x8: 9-12 and 21-24), and no square may lie off that board.
    """
    head = text[:800]
    if _WIDE.search(head):
        head = _narrow(head)
    if not _SNIFF_HEADER.search(head):
        return None
    # One line end for every kind that splitlines() knows, so that _HEAD_TOKEN reads the lines it would.
    head = "\n".join(head.splitlines())
    moves = _head_moves(head)
    if len(moves) < 2:
        return None
    sizes = _family_codes()
    highest = max(high for _, high in moves)
    starts = [moves[0][0], moves[1][0]]
    fits = []
    for size in sorted(sizes):
        first, second = front_row(starts[0], size), front_row(starts[1], size)
        if first is not None and second is not None and first != second and highest <= size * size // 2:
            fits.append(size)
    return sizes[fits[0]] if len(fits) == 1 else None


def _head_moves(head: str) -> list[tuple[int, int]]:
    """The first and the highest square of each move of ``head`` as _HEAD_TOKEN reads them, results left out.

    A findall() of _HEAD_TOKEN makes an object for every token, most of the
    cost of a sniff. Most heads are header lines, then lines of nothing but
    rounds and plain moves, where splitting at spaces gives the same tokens
    (_plain_token() says whether each is one); only the last line, which the
    800 characters may cut anywhere, needs _HEAD_TOKEN then.
    """
    cut = head.rfind("\n") + 1
    body = _HEADER_LINES.match(head).end()  # type: ignore[union-attr]  # it matches "" at least
    if _PLAIN_CHARACTERS.fullmatch(head, body, cut):
        # The spaces around an x (23 x 32) are part of the move: left out, as the squares are what counts.
        tokens = head[body:cut].replace(" x ", "x").split()
        read = list(map(_PLAIN_TOKENS.get, tokens))
        if None in read:  # a token not met before, or one of no plain line: read those
            read = [_plain_token(token) if known is None else known for token, known in zip(tokens, read)]
        if None not in read:
            last = [_squares(move) for move in _HEAD_TOKEN.findall(head, cut) if move and move not in _RESULT_MOVES]
            return [token for token in read if token] + last
    # findall(): the move group of every token, "" for the others.
    return [_squares(move) for move in _HEAD_TOKEN.findall(head) if move and move not in _RESULT_MOVES]


# A token of a plain line -> what _HEAD_TOKEN reads in it (_plain_token): the same few thousand
# come back in every head (bounded, for an archive of odd writings).
_PLAIN_TOKENS: dict[str, tuple[int, int] | tuple[()]] = {}


def _plain_token(token: str) -> tuple[int, int] | tuple[()] | None:
    """What _HEAD_TOKEN reads in a token of a line of rounds and moves: () for a round or a result,
    a move's squares (_squares), None for anything else, where splitting at spaces may not give
    its tokens."""
    if _PLAIN_ROUND.fullmatch(token) or token in _RESULT_MOVES:
        read: tuple[int, int] | tuple[()] = ()
    elif _PLAIN_TOKEN.fullmatch(token):
        read = _squares(token)
    else:
        return None
    if len(_PLAIN_TOKENS) < 20_000:
        _PLAIN_TOKENS[token] = read
    return read


def _squares(move: str) -> tuple[int, int]:
    """The first and the highest square of a move as written."""
    squares = [int(square) for square in _SQUARE.findall(move)]
    return squares[0], max(squares)


def _narrow(text: str) -> str:
    """``text`` with _NARROW applied: the colon of the header lines, nearly always the only wide
    character, at the cost of a replace(); translate() costs as much for every other character."""
    text = text.replace("：", ":")
    return text.translate(_NARROW) if _WIDE.search(text) else text


def parse(text: Text, game: GameType | None) -> Record:
    """Read one record. Never raises; problems become diagnostics."""
    return _Reader(text, game).read()


@dataclass(slots=True)
class _Header:
    first_value: str | None = None  # "1" or "2" as written
    first_line: int = 0
    upper: str | None = None  # 先手方: the upper side's team
    lower: str | None = None  # 后手方: the lower side's team
    result: str | None = None  # as written
    result_line: int = 0
    trailer: str | None = None  # the result after the moves
    trailer_line: int = 0


class _Reader(LineReader):
    def __init__(self, text: Text, game: GameType | None) -> None:
        super().__init__(text)
        self.game = game
        self.size = int(game.params.get("size", 10)) if game is not None else 10
        self.meta = Metadata(code=game.code if game else None)
        self.head = _Header()
        self.moves: list[Move] = []
        self.stopped = False  # an unreadable move was met: the rest is not read as moves
        self.full_width_at: int | None = None

    def read(self) -> Record:
        moves, head = self.moves, self.head
        for number, line in enumerate(self.source.lines(), 1):
            # Most lines are a round of plain moves (12. 20-24 33-29): read here at once, as _line() reads them.
            plain = _ROUND.fullmatch(line)
            if plain is not None and not self.stopped and head.trailer is None:
                first, second = plain.group(1, 2)
                # _is_result() of a plain move: no spaces around its -, so one of _RESULT_MOVES as written.
                if first not in _RESULT_MOVES and second not in _RESULT_MOVES:
                    moves.append(_move(first, number, plain.start(1) + 1))
                    if second:
                        moves.append(_move(second, number, plain.start(2) + 1))
                    continue
            self._line(number, line)
        first = self._first_letter()
        self._sides(first)
        self._teams_and_result(first)
        if self.full_width_at is not None:
            self.report(self.full_width_at, 1, FULL_WIDTH, N_("full-width characters in moves were read as ASCII"))
        if not self.moves:
            self.report(max(1, len(self.source.line_starts)), 1, NO_MOVES, N_("the record has no moves"))
        return Record(self.source.path, self.meta.code, self.meta, self.moves, self.diagnostics)

    # -- one line -------------------------------------------------------------

    def _line(self, number: int, raw: str) -> None:
        line = raw.strip()
        if not line:
            return
        header = _HEADER.match(line)
        if header:
            self._header(number, header["key"], header["value"].strip())
            return
        plain = raw if raw.isascii() or not _WIDE.search(raw) else _narrow(raw)
        if self.moves or re.match(r"\s*[0-9*]", plain):
            if plain != raw and self.full_width_at is None:
                self.full_width_at = number
            self._moves(number, plain)
        else:
            self.report(number, 1, OTHER_LINE, N_("line {text!r} kept as a comment"), text=line[:40])

    def _header(self, number: int, key: str, value: str) -> None:
        head = self.head
        if key == "先手":
            head.first_value, head.first_line = value.translate(_NARROW).strip(), number
        elif key == "先手方":
            head.upper = value or None
        elif key == "后手方":
            head.lower = value or None
        elif key == "结果":
            head.result, head.result_line = value or None, number
        elif key in ("时间", "日期"):
            date, clock, place = metadata.parse_when(value)
            if date is not None:
                self.meta.date, self.meta.time = date, clock
                self.meta.place = self.meta.place or place
            else:
                self.report(number, 1, metadata.DATE_UNREADABLE, N_("date {text!r} cannot be read"), text=value[:40])
        elif key == "地点":
            self.meta.place = value or None
        else:
            self.meta.event = value or None

    def _moves(self, number: int, plain: str) -> None:
        moves, head = self.moves, self.head
        for m in _TOKEN.finditer(plain):
            kind = m.lastgroup
            if kind == "move" and not self.stopped and head.trailer is None:
                # Nearly every token: the usual case first (the order of the checks below, shortened).
                written = m.group()
                if not _is_result(written):
                    moves.append(_move(written, number, m.start() + 1))
                    continue
            if kind == "round":
                continue
            column = m.start() + 1
            written = m.group()
            if kind == "comment":
                if self.moves:
                    body = written.strip("{} ")
                    last = self.moves[-1]
                    last.comment = f"{last.comment}\n{body}" if last.comment else body
                continue
            if kind == "result" or (kind == "move" and re.sub(r"\s", "", written) in _RESULT_MOVES):
                self.head.trailer, self.head.trailer_line = re.sub(r"\s", "", written), number
                continue
            if self.stopped or self.head.trailer is not None:
                continue  # after the closing result: an advert, a signature
            if kind == "move":
                self.moves.append(_move(written, number, column))
                continue
            if not re.search(r"[0-9]", written):
                # Words, not a move gone wrong ("谢谢", "(超时)"): kept with the move before them.
                self._remark(number, column, plain[m.start():].strip())
                return
            template = N_("move {ply}: cannot read {text!r}")
            self.report(number, column, BAD_MOVE, template, ply=len(self.moves) + 1, text=written[:40])
            self.moves.append(Move("?", written[:24], None, number, column))
            self.stopped = True

    def _remark(self, number: int, column: int, text: str) -> None:
        self.report(number, column, OTHER_LINE, N_("text {text!r} among the moves kept as a comment"), text=text[:40])
        if self.moves:
            last = self.moves[-1]
            last.comment = f"{last.comment}\n{text}" if last.comment else text

    # -- after all lines --------------------------------------------------------

    def _first_letter(self) -> str:
        """The first mover's letter: from 先手, checked against the first move (which wins)."""
        head = self.head
        written = {"1": UPPER, "2": LOWER}.get(head.first_value or "")
        by_move = None
        first = self.moves[0] if self.moves else None
        if first is not None and first.point is not None:
            by_move = side_at_start(first.point[1], self.size)
        if written is None:
            guess = by_move or UPPER
            line = head.first_line or 1
            if head.first_value is None:
                template = N_("no line 先手：1 or 先手：2; read as 先手：{value}, as the first move says")
                self.report(line, 1, NO_FIRST, template, value=_value(guess))
            else:
                template = N_("先手：{written} is neither 1 nor 2; read as 先手：{value}, as the first move says")
                self.report(line, 1, NO_FIRST, template, written=head.first_value, value=_value(guess))
            return guess
        if by_move is not None and by_move != written and first is not None:
            self.report(
                head.first_line, 1, FIRST_DIFFERS,
                N_(
                    "先手：{written} says the {said} side moves first, but the first move {move} is the {moved} "
                    "side's; read as 先手：{value}"
                ),
                written=head.first_value, said=_where(written), move=first.text, moved=_where(by_move), value=_value(by_move),
            )
            return by_move
        return written

    def _sides(self, first: str) -> None:
        """The side letters of the moves: in turn, from the first mover."""
        other = LOWER if first == UPPER else UPPER
        for letter, moves in ((first, self.moves[::2]), (other, self.moves[1::2])):
            for move in moves:
                if move.side != "?" or move.point is not None:
                    move.side = letter

    def _teams_and_result(self, first: str) -> None:
        head, meta = self.head, self.meta
        upper_first = first == UPPER
        meta.first, meta.second = (head.upper, head.lower) if upper_first else (head.lower, head.upper)
        game = self.game.ordered(first) if self.game else None
        declared = self._result(head.result, head.result_line, game, upper_first, warn=True)
        if declared is not None:
            meta.result, meta.result_text = declared, head.result
        trailer = self._result(head.trailer, head.trailer_line, game, upper_first, warn=False)
        if trailer is None:
            return
        if meta.result is None:
            meta.result, meta.result_text = trailer, head.trailer
        elif trailer != meta.result:
            self.report(
                head.trailer_line, 1, TRAILER_RESULT,
                N_("the result after the moves is {trailer!r}, the 结果 line says {header!r}; using the 结果 line"),
                trailer=head.trailer, header=head.result,
            )

    def _result(self, words: str | None, line: int, game: GameType | None, upper_first: bool, warn: bool) -> Result | None:
        """A declared result in the order of play; 1-0 and 0-1 name the upper and lower sides."""
        if not words:
            return None
        plain = re.sub(r"\s", "", words.translate(_NARROW))
        dr = _DR_RESULTS.get(plain)
        if dr == "draw":
            return "draw"
        if dr is not None:
            return "first" if (dr == "up") == upper_first else "second"
        result, recognised = metadata.parse_result(words, game, self.meta.first, self.meta.second)
        if not recognised and warn:
            self.report(line, 1, metadata.RESULT_UNREADABLE, N_("result words {words!r} are not recognised"), words=words)
        return result


def _is_result(written: str) -> bool:
    """Whether a token read as a move is one of _RESULT_MOVES (a result starts with one digit: a quick no)."""
    return not written[1].isdigit() and _RESULT_MOVE.fullmatch(written) is not None


def _move(written: str, line: int, column: int) -> Move:
    """A move as read: the first square in ``point``, the next in ``to``, the further landings in ``parts``."""
    known = _READ.get(written)
    if known is None:
        known = _read_move(written)
        if len(_READ) < 20_000:
            _READ[written] = known
    text, point, to, capture, parts = known
    # The fields after ``column`` set one by one: keyword arguments made every move cost half again.
    move = Move("", text, point, line, column)
    move.to, move.capture, move.parts = to, capture, parts
    return move


# A move as written -> what _move() reads in it: the same few thousand moves come back in
# every record of an archive (bounded, for an archive of odd writings).
_READ: dict[str, tuple[str, tuple[str, int], tuple[str, int], bool, tuple[tuple[str, int], ...]]] = {}


def _read_move(written: str) -> tuple[str, tuple[str, int], tuple[str, int], bool, tuple[tuple[str, int], ...]]:
    """The text, squares and sign of a move as written (see _move)."""
    squares = [int(s) for s in _SQUARE.findall(written)]
    capture = bool(re.search(r"[xX:]", written))
    points = [("", s) for s in squares]
    text = ("x" if capture else "-").join(f"{s:02d}" for s in squares)
    return text, points[0], points[1], capture, tuple(points[2:])


def _value(letter: str) -> str:
    return "1" if letter == UPPER else "2"


def _where(letter: str) -> Term:
    return T("upper") if letter == UPPER else T("lower")
