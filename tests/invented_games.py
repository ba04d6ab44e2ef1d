"""Small invented game types for the tests of the model frame: not real games.

Each is a :class:`~generator.games.GameType` whose format and rules modules
are this module (named by its dotted path, as ``GameType.module`` allows), to
be registered only inside a test with :func:`generator.games.registered`:

- ``TRI`` "three piles": three seats (A, B, C) play cards 1 to 9, each card
  once per game; a move may play several cards at once (``A 4,5``: one ply).
  After two rounds the game ends; whoever played the highest total wins. No
  board: the records name no point. The pages draw it on the card table
  (``generator/boards/table.py``): a seat's cards lie in its slots until it plays again.
- ``DUO`` "partner piles": the same with four seats, A and C against B and D;
  the partnership with the higher total wins, a level total is a draw.
- ``HOP`` "hop and burn" on a 4x4 grid, columns a-d, rows 1-4: two seats
  (W, K) each move their own piece to a free cell and then burn another
  free cell (``W a1-c3/c1``: one ply of three points, as an Amazons turn
  of a queen's move and its arrow; no line of sight is asked for). The rules never decide; the declared result
  stands. A file may hold several games: each begins with a ``#GAME`` line.
  Drawn on a small board of this module (:func:`board_for`), cells ``a1`` to ``d4``.

The notation of all three, one item a line::

    #GAME TRI            starts a game (the file's first line, or several)
    #PLAYERS Ann | Bob | Cy
    #RESULT first        a declared result (optional)
    #SCORE first=12 second=9 third=5     a declared score (optional)
    A 4,5                a move: side letter, then the cards or points
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any

from generator import diagnostics, games, scene
from generator.boards import symbols
from generator.boards.base import Board
from generator.diagnostics import Diagnostic, make
from generator.games import GameType, Side
from generator.model import SEATS, Decision, Metadata, Move, Ply, Record, Replay, Text, winner_of
from generator.rules.engine import Engine

# The format and rules module of every invented game, by its full dotted path
# (the tests run from the repository's top folder, as `python -m pytest`).
HERE = "tests.invented_games"

# The invented games' own codes, defined only while a test runs (see define_codes()):
# the codes table of the docs lists real codes only.
BAD_LINE = "TEST-E801"
CARD_AGAIN = "TEST-E802"
CELL_TAKEN = "TEST-E803"


def define_codes() -> None:
    diagnostics.define(BAD_LINE, "error", "A line of an invented record cannot be read")
    diagnostics.define(CARD_AGAIN, "error", "A card is played twice (invented card games)")
    diagnostics.define(CELL_TAKEN, "error", "A cell is taken or burnt (invented hop game)")


def forget_codes() -> None:
    for code in (BAD_LINE, CARD_AGAIN, CELL_TAKEN):
        diagnostics.CATALOG.pop(code, None)


@contextlib.contextmanager
def in_use() -> Iterator[None]:
    """The invented games registered and their codes defined, for one test."""
    define_codes()
    try:
        with games.registered(*INVENTED):
            yield
    finally:
        forget_codes()


_A, _B = Side("A", "red", "甲方", "Player A"), Side("B", "blue", "乙方", "Player B")
_C, _D = Side("C", "green", "丙方", "Player C"), Side("D", "black", "丁方", "Player D")

# The cards 1 to 9, drawn on the card table of generator/boards/table.py; a play of up to three cards.
_DECK = tuple(str(card) for card in range(1, 10))
TRI = GameType(
    code="TRI",
    name_zh="三堆",
    name_en="Three piles",
    format=HERE,
    rules=HERE,
    board="table",
    first=_A,
    second=_B,
    more_seats=(_C,),
    columns=0,
    rows=0,
    params=MappingProxyType({"rounds": 2, "deck": _DECK, "slots": 3}),
    scored=True,
)
DUO = GameType(
    code="DUO",
    name_zh="对家堆",
    name_en="Partner piles",
    format=HERE,
    rules=HERE,
    board="table",
    first=_A,
    second=_B,
    more_seats=(_C, _D),
    partnerships=((0, 2), (1, 3)),
    columns=0,
    rows=0,
    params=MappingProxyType({"rounds": 1, "deck": _DECK, "slots": 3}),
    scored=True,
    suffixes=(".duo",),
)
HOP = GameType(
    code="HOP",
    name_zh="跳烧",
    name_en="Hop and burn",
    format=HERE,
    rules=HERE,
    board=HERE,
    first=Side("W", "white", "白方", "White"),
    second=Side("K", "black", "黑方", "Black"),
    columns=4,
    rows=4,
)
INVENTED = (TRI, DUO, HOP)
_BY_CODE = {game.code: game for game in INVENTED}


# -- the format -------------------------------------------------------------------------

_GAME = re.compile(r"#GAME\s+(\w+)\s*$")
_POINT = re.compile(r"([a-z])(\d+)$")


def sniff(text: str) -> str | None:
    m = _GAME.match(text.lstrip("\ufeff").split("\n", 1)[0].strip())
    return m[1] if m and m[1] in _BY_CODE else None


def parse(text: Text, game: GameType) -> Record:
    return parse_games(text, game)[0]


def parse_games(text: Text, game: GameType) -> list[Record]:
    """One record per ``#GAME`` line; a file of one game gives game 0, starting on line 1."""
    records: list[Record] = []
    for number, line in enumerate(text.text.splitlines(), 1):
        stripped = line.strip()
        if not stripped:
            continue
        m = _GAME.match(stripped)
        if m or not records:
            code = m[1] if m else game.code
            records.append(Record(text.path, code, Metadata(code=code), [], [], game=len(records) + 1, line=number))
            if m:
                continue
        _item(records[-1], stripped, number, line.index(stripped) + 1)
    if len(records) == 1:
        records[0].game, records[0].line = 0, 1
    return records


def _item(record: Record, item: str, line: int, column: int) -> None:
    header = record.header
    if item.startswith("#PLAYERS"):
        names = [name.strip() or None for name in item[len("#PLAYERS") :].split("|")]
        header.first, header.second, *more = names
        header.more = tuple(more)
    elif item.startswith("#RESULT"):
        header.result = header.result_text = item[len("#RESULT") :].strip()
    elif item.startswith("#SCORE"):
        header.score = {key: float(value) for key, _, value in (p.partition("=") for p in item[6:].split())}
    else:
        side, _, rest = item.partition(" ")
        parts = tuple(p.strip() for p in rest.split(",") if p.strip())
        if len(side) != 1 or not parts:
            record.diagnostics.append(make(record.path, line, column, BAD_LINE, "cannot read {item}", item=item))
            record.moves.append(Move(side[:1], item, None, line, column))
            return
        if "-" in parts[0]:  # HOP: "a1-c3/c1", a queen's move and its burn
            start, _, rest = parts[0].partition("-")
            to, _, burn = rest.partition("/")
            record.moves.append(Move(side, item, _point(start), line, column, to=_point(to), parts=(_point(burn),)))
        else:  # the cards of a card play: no point at all
            cards = tuple(int(p) if p.isdigit() else -1 for p in parts)
            record.moves.append(Move(side, item, None, line, column, parts=cards))


def _point(text: str) -> tuple[str, int] | None:
    m = _POINT.match(text.strip())
    return (m[1], int(m[2])) if m else None


# -- the rules --------------------------------------------------------------------------


def replay(record: Record, game: GameType, options: Mapping[str, Any] | None = None) -> Replay:
    engine: Engine = HopEngine(game, options) if game.grid else PilesEngine(game, options)
    return engine.replay(record)


class PilesEngine(Engine):
    """TRI and DUO: cards 1-9, each once; after ``rounds`` rounds the highest total wins."""

    __slots__ = ("on_table", "played", "totals")

    def __init__(self, game: GameType, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(game, options)
        self.played: set[int] = set()
        self.totals = [0] * len(game.seats)
        self.on_table: list[list[str]] = [[] for _ in game.seats]  # the pieces in each seat's slots

    def read(self, move: Move) -> Any:
        # Each card is checked: a 0 or a 10 is off the "board" of cards 1-9.
        return self.locate(move, lambda card: card if 1 <= card <= 9 else None)

    def play(self, move: Move, at: Any, number: int, seat: int) -> Ply | Diagnostic:
        again = [card for card in at if card in self.played]
        if again:
            template = "move {number}, {move}: card {card} was played before"
            return self.error(CARD_AGAIN, move, number, template, {"card": again[0]})
        self.played.update(at)
        self.totals[seat] += sum(at)
        seats = len(self.totals)
        self.turn = (seat + 1) % seats
        if number == self.game.params["rounds"] * seats:
            self.decision = Decision.from_scores(self.score(), "highest-total", number)
        # The seat's cards of its last play leave the table; this play's lie in its slots.
        ops: list[Any] = [scene.remove(piece) for piece in self.on_table[seat]]
        name, colour = SEATS[seat], self.game.seats[seat].colour
        self.on_table[seat] = [f"c{card}" for card in at]
        ops += [scene.add(f"c{card}", str(card), colour, f"{name}-{k}") for k, card in enumerate(at, 1)]
        return self.ply(move, number, seat, [*ops, scene.note("{cards}", cards=", ".join(map(str, at)))])

    def score(self) -> dict[str, float]:
        if not self.game.partnerships:
            return {SEATS[seat]: float(total) for seat, total in enumerate(self.totals)}
        return {winner_of(pair): float(sum(self.totals[s] for s in pair)) for pair in self.game.partnerships}


class HopEngine(Engine):
    """HOP: a piece moves like a queen, then burns a cell the same way; never decided by the rules."""

    __slots__ = ("blocked", "pieces")

    def __init__(self, game: GameType, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(game, options)
        self.pieces = {0: (0, 0), 1: (3, 3)}  # W on a1, K on d4
        self.blocked: set[tuple[int, int]] = set()

    def setup(self) -> list[Any]:
        return [scene.add("p0", "stone", "white", "a1"), scene.add("p1", "stone", "black", "d4")]

    def read(self, move: Move) -> Any:
        return self.locate(move, self._cell) if move.point and move.to and move.parts else None

    def _cell(self, point: tuple[str, int] | None) -> tuple[int, int] | None:
        if point is None:
            return None
        x, y = ord(point[0]) - ord("a"), point[1] - 1
        return (x, y) if 0 <= x < self.game.columns and 0 <= y < self.game.rows else None

    def play(self, move: Move, at: Any, number: int, seat: int) -> Ply | Diagnostic:
        start, to, burn = at
        others = set(self.pieces.values()) | self.blocked
        if start != self.pieces[seat] or to in others or burn in (others - {start}) | {to}:
            return self.error(CELL_TAKEN, move, number, "move {number}, {move}: a cell on its way is taken", {})
        self.pieces[seat] = to
        self.blocked.add(burn)
        self.turn = 1 - seat
        cell = _name
        ops = [scene.move(f"p{seat}", cell(to)), scene.add(f"x{number}", "stone", "red", cell(burn))]
        return self.ply(move, number, seat, ops)


def _name(at: tuple[int, int]) -> str:
    return f"{'abcd'[at[0]]}{at[1] + 1}"


# -- the board of HOP ---------------------------------------------------------------------


def board_for(game: GameType, variant: str | None = None) -> Board:
    """HOP's 4x4 board (cells a1 to d4): its two pieces and the burnt cells as red stones."""
    from tests.symbol_boards import TinyBoard

    board = _BOARDS.get(game.code)
    if board is None:
        stones = symbols.stones("q-hop-", ("black", "red", "white"), 20)
        board = _BOARDS[game.code] = TinyBoard(size=game.columns, symbols=stones)
    return board


_BOARDS: dict[str, Board] = {}


# A match of three HOP games in one file (Wen wins, Kai wins, Wen wins), as the tests use it.
MATCH = """#GAME HOP
#PLAYERS Wen | Kai
#RESULT first
W a1-a3/b3
K d4-d2/c2
#GAME HOP
#PLAYERS Wen | Kai
#RESULT second
W a1-b1/c1
K d4-d3/c3
#GAME HOP
#PLAYERS Wen | Kai
#RESULT first
W a1-a2/a3
"""
