"""The registry: one entry per game code, and the only place codes are named.

An entry says which notation family reads the records (``formats/``), which
engine replays them (``rules/``), which board draws them (``boards/``), and
how the sides are written and coloured. Adding a game is one entry here plus
the family modules it needs.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import importlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType, ModuleType
from typing import Any

from generator.i18n import Named
from generator.model import SEATS


@dataclass(frozen=True, slots=True)
class Side:
    letter: str  # as written in records: "B", "W", "R" ...
    colour: str  # colour name used by boards and the viewer: "black", "white", ...
    name_zh: str  # 黑方
    name_en: str  # Black

    @property
    def name(self) -> Named:
        """The side's name, said in a message's language."""
        return Named(self.name_en, self.name_zh)


@dataclass(frozen=True, slots=True)
class GameType:
    code: str
    name_zh: str
    name_en: str
    format: str  # module in generator/formats/
    rules: str  # module in generator/rules/
    board: str  # module in generator/boards/
    first: Side
    second: Side
    # The board's size; 0 for a game whose records name no point on a grid
    # (cards: Dou Dizhu, bridge, poker). Nothing outside the game's own
    # modules reads them.
    columns: int
    rows: int
    # Rule parameters fixed by the game (k in a row, stones per turn ...).
    params: Mapping[str, Any] = field(default_factory=dict)
    # Options an event may set in site.toml, with their defaults.
    options: Mapping[str, Any] = field(default_factory=dict)
    # Whether each record says who moves first (SU: black or red may); then
    # ``first`` is only the standard's choice, and ``ordered()`` gives the record's.
    first_from_record: bool = False
    # String options that take one of a few values: option -> the values.
    choices: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # The file suffixes its records are written with, lower case; a game page
    # is named after its record without one of them.
    suffixes: tuple[str, ...] = (".txt",)
    # The seats after ``first`` and ``second``, in the order of play: a game
    # of three seats (Dou Dizhu) or four (bridge) names them here.
    more_seats: tuple[Side, ...] = ()
    # Seats that win or lose together whatever the record says (bridge:
    # ((0, 2), (1, 3)), North-South against East-West). Partnerships that a
    # record decides (Dou Dizhu's two farmers) are its result's business:
    # the result names every seat that won ("second+third").
    partnerships: tuple[tuple[int, ...], ...] = ()
    # Whether its results are scores (boxes, chips, bridge points): the
    # standings then add each team's up (see archive.standings).
    scored: bool = False
    # Whether a pairing plays a match of several games (EinStein): the
    # event page lists the matches and the standings count match points,
    # unless the event says otherwise (``matches`` in site.toml).
    matches: bool = False
    # What ranks the teams of an event: "points" (won, drawn, lost: most
    # games) or "score", the sum of their scores (Dou Dizhu's points across
    # sessions), unless the event says otherwise (``rank_by`` in site.toml).
    rank_by: str = "points"
    # Played in duplicate (bridge): each board at several tables, a result
    # judged against the others' (IMPs, matchpoints: archive.duplicate);
    # its rules module then defines imps, victory_points and matchpoint_percentages.
    duplicate: bool = False

    @property
    def name(self) -> Named:
        """The game's name, said in a message's language."""
        return Named(self.name_en, self.name_zh)

    @property
    def seats(self) -> tuple[Side, ...]:
        """Every seat's side, in the order of play: ``first``, ``second``, then ``more_seats``."""
        return (self.first, self.second, *self.more_seats)

    @property
    def grid(self) -> bool:
        """Whether records name points on a board of ``columns`` x ``rows`` (not cards)."""
        return self.columns > 0 and self.rows > 0

    def side_of(self, letter: str) -> str | None:
        """The seat ("first", "second", "third" ...) a side letter as written names, or None if unknown."""
        letter = letter.upper()
        if letter == self.first.letter:
            return "first"
        if letter == self.second.letter:
            return "second"
        for seat, side in enumerate(self.more_seats, 2):
            if letter == side.letter:
                return SEATS[seat]
        return None

    def colour(self, side: str) -> str:
        if side == "first" or side == "second" or not self.more_seats:
            return self.first.colour if side == "first" else self.second.colour
        return self.seats[SEATS.index(side)].colour

    def partners(self, seat: int) -> tuple[int, ...]:
        """The seats that win or lose with ``seat`` (itself included) by the game's partnerships."""
        for partnership in self.partnerships:
            if seat in partnership:
                return partnership
        return (seat,)

    def ordered(self, first_letter: str | None) -> GameType:
        """This game type with the sides in the order one record plays them.

        Itself unless the game lets the record decide and the record's first
        mover is the standard's second side: then the sides are swapped, so
        everything keyed by first/second (result words, colours, names) follows.
        """
        if not self.first_from_record or not first_letter or first_letter.upper() != self.second.letter:
            return self
        return _swapped(self)

    def module(self, layer: str) -> ModuleType:
        """The module of this game type for a layer: "format", "rules" or "board".

        A name with a dot in it is a full module path (a game type a test
        defines in its own module); a plain name is a module of the package.
        """
        return _module(_PACKAGES[layer], getattr(self, layer))


_PACKAGES = {"format": "formats", "rules": "rules", "board": "boards"}


_SWAPPED: dict[str, GameType] = {}


def _swapped(game: GameType) -> GameType:
    swapped = _SWAPPED.get(game.code)
    if swapped is None:
        swapped = _SWAPPED[game.code] = dataclasses.replace(game, first=game.second, second=game.first)
    return swapped


@functools.cache
def _module(package: str, name: str) -> ModuleType:
    # Asked for several times per record: the import machinery costs more than the answer.
    return importlib.import_module(name if "." in name else f"generator.{package}.{name}")

_BLACK = Side("B", "black", "黑方", "Black")
_WHITE = Side("W", "white", "白方", "White")
_RED = Side("R", "red", "红方", "Red")
_BLUE = Side("B", "blue", "蓝方", "Blue")
# Bridge's four seats, clockwise; North-South against East-West, each partnership one colour.
_NORTH = Side("N", "red", "北家", "North")
_EAST = Side("E", "blue", "东家", "East")
_SOUTH = Side("S", "red", "南家", "South")
_WEST = Side("W", "blue", "西家", "West")
# Dou Dizhu (P2T1): the standard's three seats A, B and C, in the order of play.
_SEAT_A = Side("A", "red", "A方", "Seat A")
_SEAT_B = Side("B", "blue", "B方", "Seat B")
_SEAT_C = Side("C", "green", "C方", "Seat C")
# Army chess (AC2): the records write the sides as A and B (MA/MB); the protocol's red moves first.
_ARMY_RED = Side("A", "red", "红方", "Red")
_ARMY_BLACK = Side("B", "black", "黑方", "Black")
# Shogi records write the sides as "+" (sente, ▲, moves first) and "-" (gote, △);
# black and white are the colours the move list and the pages use for them.
_SENTE = Side("+", "black", "先手", "Sente")
_GOTE = Side("-", "white", "后手", "Gote")

def _go_family(code: str, name_zh: str, name_en: str, size: int, variant: str, **params: Any) -> GameType:
    """An entry of the Go family: black first; komi for the games that count (not NoGo)."""
    return GameType(
        code=code,
        name_zh=name_zh,
        name_en=name_en,
        format="paren",
        rules="go",
        board="grid",
        first=_BLACK,
        second=_WHITE,
        columns=size,
        rows=size,
        params=MappingProxyType({"variant": variant, **params}),
        options=MappingProxyType({} if variant == "nogo" else {"komi": 7.5}),
    )


_REGISTRY: dict[str, GameType] = dict(
    {
        "C5": GameType(
            code="C5",
            name_zh="五子棋",
            name_en="Gomoku (Connect5)",
            format="brace",
            rules="connect",
            board="grid",
            first=_BLACK,
            second=_WHITE,
            columns=15,
            rows=15,
            params=MappingProxyType({"k": 5, "first_turn": 1, "per_turn": 1}),
            options=MappingProxyType({"exact_five": False, "renju": False}),
        ),
        "C6": GameType(
            code="C6",
            name_zh="六子棋",
            name_en="Connect6",
            format="brace",
            rules="connect",
            board="grid",
            first=_BLACK,
            second=_WHITE,
            columns=19,
            rows=19,
            params=MappingProxyType({"k": 6, "first_turn": 1, "per_turn": 2}),
            options=MappingProxyType({}),
        ),
        "SU": GameType(
            code="SU",
            name_zh="苏拉卡尔塔棋",
            name_en="Surakarta",
            format="su",
            rules="surakarta",
            board="surakarta",
            # The standard's example: black on top and moving first. Real
            # records let red move first; the replay reads it from the moves.
            first=_BLACK,
            second=_RED,
            columns=6,
            rows=6,
            params=MappingProxyType({}),
            options=MappingProxyType({}),
            first_from_record=True,
        ),
        # The Go family (formats/paren.py, rules/go.py): Chinese rules, area
        # scoring; "variant" switches the engine to NoGo or Phantom Go.
        # The 19-line standard writes the row as a letter too (B[LI]: column L, row 9).
        "GO": _go_family("GO", "围棋", "Go (19x19)", 19, "go", row_letters=True),
        "GO13": _go_family("GO13", "十三路围棋", "Go (13x13)", 13, "go"),
        "GO9": _go_family("GO9", "九路围棋", "Go (9x9)", 9, "go"),
        "NG": _go_family("NG", "不围棋", "NoGo", 9, "nogo"),
        "PG": _go_family("PG", "幻影围棋", "Phantom Go", 9, "phantom"),
        "HEX": GameType(
            code="HEX",
            name_zh="海克斯棋",
            name_en="Hex",
            format="brace",
            rules="hex",
            board="hex",
            first=_RED,
            second=_BLUE,
            columns=11,
            rows=11,
            params=MappingProxyType({}),
            # "rows": red joins the row-1 and row-11 edges, blue the A and K
            # edges (the standard's default); "columns": the other way round.
            options=MappingProxyType({"red_joins": "rows"}),
            choices=MappingProxyType({"red_joins": ("rows", "columns")}),
        ),
        "MSK": GameType(
            code="MSK",
            name_zh="五五将棋",
            name_en="Minishogi (5x5)",
            format="csa",
            rules="shogi",
            board="shogi",
            first=_SENTE,
            second=_GOTE,
            columns=5,
            rows=5,
            # How often a position must recur for a repetition (千日手): four
            # times, as in shogi. (The format's version line, V2.1-55, is formats/csa.py's.)
            params=MappingProxyType({"repetition": 4}),
            options=MappingProxyType({}),
            suffixes=(".txt", ".csa"),
        ),
        # Draughts (formats/draughts.py, rules/draughts.py, boards/checkered.py):
        # squares numbered from the top-left; black holds the upper side, white
        # the lower, and the record's line 先手：1 (upper) or 先手：2 (lower)
        # says who moves first. Men capture backwards, kings fly, capturing is
        # mandatory; "rules" picks the capture rules (see rules/draughts.py).
        "DR10": GameType(
            code="DR10",
            name_zh="国际跳棋（100格）",
            name_en="International draughts (10x10)",
            format="draughts",
            rules="draughts",
            board="checkered",
            first=_BLACK,
            second=_WHITE,
            columns=10,
            rows=10,
            # FMJD: the maximum capture is mandatory, a man is crowned only
            # where its move ends on the far row.
            params=MappingProxyType({"size": 10, "rules": "international"}),
            options=MappingProxyType({}),
            first_from_record=True,
        ),
        "DR8": GameType(
            code="DR8",
            name_zh="国际跳棋（64格）",
            name_en="Draughts (8x8)",
            format="draughts",
            rules="draughts",
            board="checkered",
            first=_BLACK,
            second=_WHITE,
            columns=8,
            rows=8,
            params=MappingProxyType({"size": 8}),
            # "russian": any capture sequence may be chosen, a man crowned
            # during a capture goes on as a king; "brazilian": the
            # international rules on 8x8.
            options=MappingProxyType({"rules": "russian"}),
            choices=MappingProxyType({"rules": ("russian", "brazilian")}),
            first_from_record=True,
        ),
        # Xiangqi (formats/pgn.py, rules/xiangqi.py): red moves first; the
        # standard names .PGN files, the naming rule .txt ones.
        "CC": GameType(
            code="CC",
            name_zh="中国象棋",
            name_en="Xiangqi (Chinese chess)",
            format="pgn",
            rules="xiangqi",
            board="xiangqi",
            first=_RED,
            second=_BLACK,
            columns=9,
            rows=10,
            params=MappingProxyType({}),
            options=MappingProxyType({}),
            suffixes=(".txt", ".pgn"),
        ),
        # EinStein würfelt nicht (formats/einstein.py, rules/einstein.py,
        # boards/einstein.py): 5x5, red's six numbered pieces start in the
        # top-left corner, blue's in the bottom-right; either colour may move
        # first (the record says which); a die picks the piece. A pairing
        # plays a match of several games, often in one file.
        "WTN": GameType(
            code="WTN",
            name_zh="爱恩斯坦棋",
            name_en="EinStein würfelt nicht",
            format="einstein",
            rules="einstein",
            board="einstein",
            first=_RED,
            second=_BLUE,
            columns=5,
            rows=5,
            # The MARK values of this game's standard: 1 (大劣) to 5 (大好).
            params=MappingProxyType({"marks": (1, 5)}),
            options=MappingProxyType({}),
            first_from_record=True,
            matches=True,
        ),
        # Amazons (formats/amazons.py, rules/amazons.py, boards/amazons.py):
        # the first player holds white, below; a turn is a queen's move and
        # the arrow it shoots; who cannot move loses. A file may hold several games.
        "AM": GameType(
            code="AM",
            name_zh="亚马逊棋",
            name_en="Amazons",
            format="amazons",
            rules="amazons",
            board="amazons",
            first=_WHITE,
            second=_BLACK,
            columns=10,
            rows=10,
            # Each seat's queens at the start, in the order of play.
            params=MappingProxyType({"start": (("a4", "d1", "g1", "j4"), ("a7", "d10", "g10", "j7"))}),
            options=MappingProxyType({}),
        ),
        # Dots and boxes (formats/dots.py, a JSON record; rules/dots.py;
        # boards/dots.py): 6x6 dots (25 boxes), an edge per move, a completed
        # box gives its player another move; the score is the boxes taken.
        # Either colour may move first (轮流先手): the first piece says.
        "DB": GameType(
            code="DB",
            name_zh="点格棋",
            name_en="Dots and boxes",
            format="dots",
            rules="dots",
            board="dots",
            first=_RED,
            second=_BLUE,
            columns=6,
            rows=6,
            params=MappingProxyType({}),
            options=MappingProxyType({}),
            first_from_record=True,
            scored=True,
        ),
        # Heads-up no-limit Texas hold'em (formats/acpc.py, the ACPC STATE
        # lines; rules/holdem.py; boards/holdem.py): one hand a line, a match
        # of 70 or more hands a file. The record lists the big blind first, so
        # the big blind is the first seat, though the small blind acts first
        # before the flop; the seats change hands every hand. The result of a
        # hand is the chips each seat won.
        "THP": GameType(
            code="THP",
            name_zh="德州扑克",
            name_en="Texas hold'em (heads-up no-limit)",
            format="acpc",
            rules="holdem",
            board="holdem",
            first=Side("BB", "red", "大盲", "Big blind"),
            second=Side("SB", "blue", "小盲", "Small blind"),
            columns=0,
            rows=0,
            params=MappingProxyType({}),
            # Every hand starts from these stacks (ACPC: reset each hand).
            options=MappingProxyType({"stack": 20000, "big_blind": 100, "small_blind": 50}),
            suffixes=(".txt", ".log"),
            scored=True,
            matches=True,
        ),
        # Two-player army chess (formats/armychess.py, rules/armychess.py,
        # boards/armychess.py): the CCGC referee protocol 1.0; 12 rows A-L by
        # 5 columns 0-4, 25 hidden pieces a side, both layouts in the record.
        "AC2": GameType(
            code="AC2",
            name_zh="二人军棋",
            name_en="Army chess",
            format="armychess",
            rules="armychess",
            board="armychess",
            first=_ARMY_RED,
            second=_ARMY_BLACK,
            columns=5,
            rows=12,
            # SL, the plies without a battle after which the side to move loses, where the record gives none.
            params=MappingProxyType({"steps": 31}),
            options=MappingProxyType({}),
        ),
        # Dou Dizhu (formats/doudizhu.py, rules/doudizhu.py, the card table of
        # boards/table.py): three seats, one landlord (the highest bidder)
        # against two farmers, who win or lose together: a deal's result names
        # the landlord or both farmers ("second+third"), its score is points
        # per seat. A session of several deals is one file, each deal a game.
        "P2T1": GameType(
            code="P2T1",
            name_zh="斗地主",
            name_en="Dou Dizhu",
            format="doudizhu",
            rules="doudizhu",
            board="table",
            first=_SEAT_A,
            second=_SEAT_B,
            more_seats=(_SEAT_C,),
            columns=0,
            rows=0,
            params=MappingProxyType({
                # The cards 0-53 of the standard's table: 3-10 J Q K A 2 in the suits
                # spades, hearts, diamonds, clubs, then the black and the red joker.
                "deck": tuple(
                    f"{rank}{suit}" for rank in ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
                    for suit in "♠♥♦♣"
                ) + ("BJ", "RJ"),
                # The table: 20 cards in a hand and in a play (the landlord's), fanned;
                # the three bottom cards in the middle; the landlord's crown by its seat.
                "slots": 20, "hand": 20, "fan": 18, "centre": 3, "tokens": MappingProxyType({"landlord": "♛"}),
            }),
            options=MappingProxyType({}),
            scored=True,
            matches=True,
            # Teams are ranked by their points over every session, as Dou Dizhu events rank them.
            rank_by="score",
        ),
        # Contract bridge (formats/pbn.py, rules/bridge.py, boards/bridge.py):
        # PBN records, one board per game and several per file; four seats
        # clockwise from North, who calls first is the board's dealer;
        # North-South and East-West win or lose together; a board's result is
        # its duplicate score.
        "BR": GameType(
            code="BR",
            name_zh="桥牌",
            name_en="Contract bridge",
            format="pbn",
            rules="bridge",
            board="bridge",
            first=_NORTH,
            second=_EAST,
            columns=0,
            rows=0,
            params=MappingProxyType({}),
            # The scale that turns a team match's IMP margin into victory
            # points: the WBF continuous 20-point scale, or none (IMPs rank).
            options=MappingProxyType({"vp_scale": "wbf"}),
            choices=MappingProxyType({"vp_scale": ("wbf", "none")}),
            suffixes=(".pbn", ".txt"),
            more_seats=(_SOUTH, _WEST),
            partnerships=((0, 2), (1, 3)),
            scored=True,
            # Each board is played at several tables: its results are compared
            # (IMPs, VPs, matchpoints: archive/duplicate.py), not added up.
            duplicate=True,
        ),
    }
)


# Read-only for everyone: only registered() below adds to it, for a while.
GAMES: Mapping[str, GameType] = MappingProxyType(_REGISTRY)


@contextlib.contextmanager
def registered(*extra: GameType) -> Iterator[None]:
    """The registry with these game types added, while the block runs.

    For tests of invented game types (their modules named by full dotted
    paths, see :meth:`GameType.module`): the real codes are named here and
    nowhere else, and none may be replaced.
    """
    taken = [game.code for game in extra if game.code in _REGISTRY]
    if taken:
        raise ValueError(f"game codes already registered: {', '.join(taken)}")
    for game in extra:
        _REGISTRY[game.code] = game
    _forget()
    try:
        yield
    finally:
        for game in extra:
            _REGISTRY.pop(game.code, None)
        _forget()


def _forget() -> None:
    """Drop what was worked out from the registry as it was."""
    record_suffixes.cache_clear()
    format_names.cache_clear()
    of_format.cache_clear()


def get(code: str | None) -> GameType | None:
    """The game type for a code as written (case-insensitive), or None."""
    if not code:
        return None
    return GAMES.get(code.strip().upper())


def codes() -> list[str]:
    return sorted(GAMES)


@functools.cache
def format_names() -> tuple[str, ...]:
    """The distinct format (notation family) modules the registry names, in registry order."""
    return tuple(dict.fromkeys(game.format for game in GAMES.values()))


@functools.cache
def of_format(name: str) -> tuple[GameType, ...]:
    """The game types whose records the format module ``name`` reads, in registry order.

    ``name`` is the module's own (``of_format(__name__)`` in a format module) or its last dotted part.
    """
    family = name.rpartition(".")[2]
    return tuple(game for game in GAMES.values() if game.format == family)


@functools.cache
def record_suffixes() -> frozenset[str]:
    """Every suffix a game type's records are written with."""
    return frozenset(suffix for game in GAMES.values() for suffix in game.suffixes)


def load_all() -> None:
    """Import every family module so all diagnostic codes are defined."""
    for game in GAMES.values():
        for layer in ("format", "rules", "board"):
            game.module(layer)
