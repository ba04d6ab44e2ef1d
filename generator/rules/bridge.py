"""Contract bridge (duplicate), replayed from a PBN record: the deal, the auction, the play, the score.

Seats are the registry's four sides in clockwise order, North (0), East (1),
South (2), West (3); North-South and East-West are the partnerships. Who
calls first is the dealer (the ``Dealer`` tag, or the board number's when it
is missing); cards are named by suit letter and rank, ``"SA"``, ``"HT"``.

The rules checked, in the order of a board:

* the deal: 52 distinct cards, 13 in each hand;
* the auction: each bid higher than the last, a double only of the
  opponents' undoubled bid, a redouble only of one's own side's doubled bid;
  three passes after a bid end it, four passes pass the board out;
* the contract is the last bid with its double or redouble, the declarer the
  first of the declaring side to name its strain;
* the play: the opening lead from declarer's left, then the winner of each
  trick leads; each card from the hand of the seat to play (declarer plays
  dummy's cards from dummy's seat, as PBN writes them), following suit when
  possible; a trick is won by the highest trump, else the highest card of
  the suit led;
* the end: thirteen tricks, or a claim (a ``Result`` with fewer tricks played:
  the tricks claimed must be possible from the tricks already won);
* the tags: ``Contract``, ``Declarer``, ``Result`` and ``Score`` are checked
  against the auction, the play and duplicate scoring.

The pure functions at the top (scoring, IMPs, VPs, matchpoints, the board
number's dealer and vulnerability, trick winners) are what event pages and
tests use too.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from generator import scene
from generator.diagnostics import Diagnostic, define, make
from generator.games import GameType
from generator.i18n import N_, T
from generator.model import Decision, Move, Op, Ply, Record, Replay
from generator.rules.engine import SEATS, Engine, Message

# -- the cards and the seats ------------------------------------------------------------

SEAT_LETTERS = "NESW"  # seat index -> letter, clockwise
SUITS = "SHDC"  # the order of a PBN hand: spades, hearts, diamonds, clubs
RANKS = "23456789TJQKA"  # low to high
STRAINS = "CDHSN"  # low to high: clubs, diamonds, hearts, spades, no trump
DECK: tuple[str, ...] = tuple(suit + rank for suit in SUITS for rank in reversed(RANKS))
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "N": "NT"}
NS, EW = "first+third", "second+fourth"  # the two partnerships, keyed as results are


def seat_of(letter: str) -> int | None:
    """The seat index of ``N``, ``E``, ``S`` or ``W`` (any case), None for anything else."""
    index = SEAT_LETTERS.find(letter.strip().upper()[:1]) if letter.strip() else -1
    return index if index >= 0 and len(letter.strip()) == 1 else None


def side_key(seat: int) -> str:
    """The partnership key of a seat: ``"first+third"`` (NS) or ``"second+fourth"`` (EW)."""
    return NS if seat % 2 == 0 else EW


def card_label(card: str) -> str:
    """A card as the pages show it: ``♠A``, ``♥10``."""
    rank = card[1]
    return SUIT_SYMBOLS[card[0]] + ("10" if rank == "T" else rank)


def strain_label(strain: str) -> str:
    return SUIT_SYMBOLS[strain]


# -- the board number -----------------------------------------------------------------------

# The vulnerability of boards 1-16, repeated every 16 boards (the standard duplicate cycle).
_VULNERABLE = ("None", "NS", "EW", "All", "NS", "EW", "All", "None", "EW", "All", "None", "NS", "All", "None", "NS", "EW")


def board_dealer(board: int) -> int:
    """The dealer of a board number: board 1 North, 2 East, 3 South, 4 West, and so on."""
    return (board - 1) % 4


def board_vulnerability(board: int) -> str:
    """The vulnerability of a board number: ``"None"``, ``"NS"``, ``"EW"`` or ``"All"``."""
    return _VULNERABLE[(board - 1) % 16]


_VULNERABILITY_WORDS = {"NONE": "None", "LOVE": "None", "-": "None", "NS": "NS", "EW": "EW", "ALL": "All", "BOTH": "All"}


def vulnerability(text: str) -> str | None:
    """A ``Vulnerable`` value in its standard word (``"None"``, ``"NS"``, ``"EW"``, ``"All"``); None if unknown."""
    return _VULNERABILITY_WORDS.get(text.strip().upper())


def vulnerable(vul: str, seat: int) -> bool:
    """Whether ``seat``'s side is vulnerable under ``vul``."""
    return vul == "All" or vul == ("NS" if seat % 2 == 0 else "EW")


# -- scoring -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Contract:
    """A contract: level 1-7, strain (C D H S N), 0/1/2 for undoubled/doubled/redoubled, the declarer's seat."""

    level: int
    strain: str
    doubled: int = 0
    declarer: int | None = None

    @property
    def text(self) -> str:
        """As PBN writes it: ``4S``, ``3NTX``, ``6HXX``."""
        return f"{self.level}{'NT' if self.strain == 'N' else self.strain}{'X' * self.doubled}"

    @property
    def label(self) -> str:
        """As the pages show it: ``4♠``, ``3NTX``."""
        return f"{self.level}{strain_label(self.strain)}{'X' * self.doubled}"


_CONTRACT = re.compile(r"([1-7])\s*(NT|N|C|D|H|S)\s*(XX|X|\*\*|\*)?", re.IGNORECASE)


def parse_contract(text: str) -> Contract | None | str:
    """A ``Contract`` tag: a :class:`Contract`, ``"pass"`` for a passed-out board, None if unreadable."""
    value = text.strip()
    if value.upper() in ("PASS", "P", "AP"):
        return "pass"
    m = _CONTRACT.fullmatch(value)
    if not m:
        return None
    strain = m[2].upper()[0]
    doubles = (m[3] or "").upper().replace("*", "X")
    return Contract(int(m[1]), strain, len(doubles))


def duplicate_score(contract: Contract, vulnerable: bool, tricks: int) -> int:
    """The duplicate score of the declaring side: made (trick score, game or part-score
    bonus, slam bonus, the insult for a doubled contract, overtricks) or down (undertricks)."""
    level, doubled = contract.level, contract.doubled
    need = level + 6
    per = 20 if contract.strain in "CD" else 30
    if tricks >= need:
        trick_score = (per * level + (10 if contract.strain == "N" else 0)) * (1, 2, 4)[doubled]
        score = trick_score + ((500 if vulnerable else 300) if trick_score >= 100 else 50)
        if level == 6:
            score += 750 if vulnerable else 500
        elif level == 7:
            score += 1500 if vulnerable else 1000
        over = tricks - need
        if doubled:
            score += 50 * doubled + over * (200 if vulnerable else 100) * doubled
        else:
            score += over * per
        return score
    down = need - tricks
    if not doubled:
        return -down * (100 if vulnerable else 50)
    # Doubled: not vulnerable 100, then 200, 200, then 300 each; vulnerable 200, then 300 each.
    penalty = 200 + 300 * (down - 1) if vulnerable else 100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0)
    return -penalty * doubled


def ns_score(contract: Contract | None, vul: str, tricks: int) -> int:
    """The board's score from North-South's side (0 for a board passed out: ``contract`` None)."""
    if contract is None or contract.declarer is None:
        return 0
    score = duplicate_score(contract, vulnerable(vul, contract.declarer), tricks)
    return score if contract.declarer % 2 == 0 else -score


# The lower bound of each IMP step: a difference of 20-40 is 1 IMP, ..., 4000 and more 24.
_IMP_STEPS = (
    20,
    50,
    90,
    130,
    170,
    220,
    270,
    320,
    370,
    430,
    500,
    600,
    750,
    900,
    1100,
    1300,
    1500,
    1750,
    2000,
    2250,
    2500,
    3000,
    3500,
    4000,
)


def imps(difference: int) -> int:
    """The IMPs a score difference is worth (the WBF table), signed as the difference is."""
    size = abs(difference)
    won = sum(1 for step in _IMP_STEPS if size >= step)
    return won if difference >= 0 else -won


_TAU = (math.sqrt(5) - 1) / 2


def victory_points(imp_margin: float, boards: int) -> tuple[float, float]:
    """The WBF continuous 20-point VP scale (2013): (winner's or the first team's VPs, the other's).

    The blitz ``B = 15 * sqrt(boards)``; a margin ``M`` below it gives
    ``10 + 10 * (1 - tau ** (3 * M / B)) / (1 - tau ** 3)``, tau the golden ratio's
    inverse, rounded to two decimals; the other team gets the rest of 20.
    """
    if boards <= 0:
        raise ValueError("a match has at least one board")
    blitz = 15 * math.sqrt(boards)
    margin = abs(imp_margin)
    high = 20.0 if margin >= blitz else round(10 + 10 * (1 - _TAU ** (3 * margin / blitz)) / (1 - _TAU**3), 2)
    low = round(20 - high, 2)
    return (high, low) if imp_margin >= 0 else (low, high)


def matchpoints(scores: Sequence[int]) -> list[float]:
    """Matchpoints of each score of a board among all its results: 2 per score beaten, 1 per tie."""
    return [float(sum(2 if score > other else 1 if score == other else 0 for other in scores) - 1) for score in scores]


def matchpoint_percentages(scores: Sequence[int]) -> list[float]:
    """Each score's matchpoints as a percentage of the top (2 per other score); 50 where it is alone."""
    top = 2 * (len(scores) - 1)
    return [50.0 if not top else round(100 * mp / top, 2) for mp in matchpoints(scores)]


# -- the deal --------------------------------------------------------------------------------


def parse_hand(text: str) -> list[str] | None:
    """A PBN hand ``AQ983.A973.K92.3`` as cards (spades first), None if not four suits of ranks."""
    suits = text.strip().split(".")
    if len(suits) != 4:
        return None
    cards = []
    for suit, ranks in zip(SUITS, suits):
        ranks = ranks.upper().replace("10", "T")
        for rank in ranks:
            if rank not in RANKS:
                return None
            cards.append(suit + rank)
    return cards


def sorted_hand(cards: Sequence[str]) -> list[str]:
    """Cards in diagram order: spades, hearts, diamonds, clubs, each from the ace down."""
    return sorted(cards, key=lambda c: (SUITS.index(c[0]), -RANKS.index(c[1])))


def trick_winner(cards: Sequence[tuple[int, str]], trump: str) -> int:
    """The seat that wins a trick of (seat, card) in the order played: the highest trump, else the highest of the suit led."""
    best_seat, best = cards[0]
    for seat, card in cards[1:]:
        if card[0] == best[0]:
            if RANKS.index(card[1]) > RANKS.index(best[1]):
                best_seat, best = seat, card
        elif card[0] == trump and best[0] != trump:
            best_seat, best = seat, card
    return best_seat


# -- the auction ------------------------------------------------------------------------------------

_CALL = re.compile(r"(PASS|P|XX|X|R|D|([1-7])(NT|N|C|D|H|S))", re.IGNORECASE)


def parse_call(text: str) -> str | None:
    """A call as PBN writes it, normalised: ``"P"``, ``"X"``, ``"XX"``, ``"1C"`` ... ``"7N"``; None if not a call."""
    m = _CALL.fullmatch(text.strip())
    if not m:
        return None
    if m[2]:
        return m[2] + m[3].upper()[0]
    word = m[1].upper()
    return {"PASS": "P", "P": "P", "X": "X", "D": "X", "XX": "XX", "R": "XX"}[word]


def call_label(call: str) -> str:
    """A call as the pages show it: ``Pass``, ``X``, ``XX``, ``1♥``, ``3NT``."""
    if call == "P":
        return "Pass"
    if call in ("X", "XX"):
        return call
    return call[0] + strain_label(call[1])


def _rank(call: str) -> int:
    return (int(call[0]) - 1) * 5 + STRAINS.index(call[1])


@dataclass(slots=True)
class Auction:
    """An auction as it goes: the last bid, its doubling, the passes since, who named each strain first."""

    dealer: int
    calls: list[str] = field(default_factory=list)
    bid: str | None = None  # the last bid
    bidder: int | None = None
    doubled: int = 0
    passes: int = 0
    first_named: dict[tuple[int, str], int] = field(default_factory=dict)  # (side, strain) -> seat

    @property
    def over(self) -> bool:
        return (self.bid is None and self.passes == 4) or (self.bid is not None and self.passes == 3)

    @property
    def next_seat(self) -> int:
        return (self.dealer + len(self.calls)) % 4

    def problem(self, call: str, seat: int) -> Message | None:
        """Why ``seat`` may not make ``call`` now (None: it may)."""
        if call == "X":
            if self.bid is None:
                return N_("move {number}, {move}: a double needs a bid to double; there is none yet"), {}
            if self.doubled:
                return N_("move {number}, {move}: {last} is already doubled; only a redouble may follow"), {"last": self.label()}
            if self.bidder is not None and self.bidder % 2 == seat % 2:
                return N_("move {number}, {move}: a double must be of the opponents' bid, and {last} is your side's"), {
                    "last": self.label()
                }
        elif call == "XX":
            if self.bid is None or self.doubled != 1:
                return N_("move {number}, {move}: a redouble needs a doubled bid, and {last} is not doubled"), {
                    "last": self.label() if self.bid else "-"
                }
            if self.bidder is not None and self.bidder % 2 != seat % 2:
                return N_(
                    "move {number}, {move}: a redouble must be of your own side's doubled bid, and {last} is the opponents'"
                ), {"last": self.label()}
        elif call != "P" and self.bid is not None and _rank(call) <= _rank(self.bid):
            return N_("move {number}, {move}: insufficient bid: {call} is not higher than {last}"), {
                "call": call_label(call),
                "last": call_label(self.bid),
            }
        return None

    def add(self, call: str, seat: int) -> None:
        self.calls.append(call)
        if call == "P":
            self.passes += 1
            return
        self.passes = 0
        if call == "X":
            self.doubled = 1
        elif call == "XX":
            self.doubled = 2
        else:
            self.bid, self.bidder, self.doubled = call, seat, 0
            self.first_named.setdefault((seat % 2, call[1]), seat)

    def label(self) -> str:
        return call_label(self.bid) + "X" * self.doubled if self.bid else "-"

    def contract(self) -> Contract | None:
        """The contract the auction reached (None: passed out, or not over)."""
        if self.bid is None or self.bidder is None:
            return None
        declarer = self.first_named[(self.bidder % 2, self.bid[1])]
        return Contract(int(self.bid[0]), self.bid[1], self.doubled, declarer)


def contract_of(dealer: int, calls: Sequence[str]) -> Contract | None:
    """The contract of a complete legal auction (None: passed out)."""
    auction = Auction(dealer)
    for call in calls:
        auction.add(call, auction.next_seat)
    return auction.contract()


# -- the diagnostics ---------------------------------------------------------------------------------

# Codes of this family: block 13 of RULE-, from 1310 on.
BAD_DEAL = define(
    "RULE-E1310",
    "error",
    "The deal is not 52 different cards, 13 in each hand",
    "Check the Deal tag: each card once, thirteen per hand. The play is checked against the hands as written.",
)
ILLEGAL_CALL = define(
    "RULE-E1311",
    "error",
    "A call the auction does not allow",
    "A bid must be higher than the last one; a double only of the opponents' undoubled bid; a redouble only of "
    "your side's doubled bid. The message says which rule; the calls from there on are not replayed.",
)
OUT_OF_PHASE = define(
    "RULE-E1312",
    "error",
    "A call after the auction ended, or a card before it did",
    "Three passes after a bid end the auction (four passes pass the board out); check the Auction section.",
)
NOT_HELD = define(
    "RULE-E1313",
    "error",
    "A card that the player does not hold",
    "Check the Deal tag and the Play section: the card is in another hand, or was played already.",
)
REVOKE = define(
    "RULE-E1314",
    "error",
    "A revoke: the player did not follow suit although able to",
    "A player must follow the suit led while holding a card of it; check the Play section's columns.",
)
CONTRACT_DIFFERS = define(
    "RULE-E1315",
    "error",
    "The Contract or Declarer tag differs from what the auction reached",
    "The contract is the last bid with its double or redouble, the declarer the first of that side to name the "
    "strain; the page uses the auction's.",
)
RESULT_DIFFERS = define(
    "RULE-E1316",
    "error",
    "The Result tag differs from the tricks won in the play",
    "The play was replayed to its end; correct the Result tag. The page and the score use the tricks counted.",
)
SCORE_DIFFERS = define(
    "RULE-E1317",
    "error",
    "The Score tag differs from the duplicate score of the contract and result",
    "The message gives the score the contract, vulnerability and tricks make; the page uses it.",
)
BAD_CLAIM = define(
    "RULE-E1318",
    "error",
    "The tricks claimed cannot be reached from the play so far",
    "A claim gives declarer between the tricks already won and those plus the tricks still to play; check the Result tag.",
)
DEALER_DIFFERS = define(
    "RULE-E1319",
    "error",
    "The auction does not start with the dealer",
    "The dealer calls first: the Auction tag names the dealer's seat. The auction is replayed from the dealer.",
)
# A note, not a warning: the tags are what the table played (the championship standard's own
# example deals board 1 from East), and PBN derives them from the board number only where absent.
BOARD_DIFFERS = define(
    "RULE-N1311",
    "note",
    "Dealer or vulnerability differs from the board number's",
    "In duplicate the board number fixes dealer and vulnerability (board 1: North, none vulnerable ...); "
    "check the Board, Dealer and Vulnerable tags if the boards were meant to follow it. The tags as written are used.",
)
UNCHECKED = define(
    "RULE-N1310",
    "note",
    "The play cannot be checked against the hands",
    "The deal is missing or incomplete; the tricks are still counted from the cards played.",
)


# -- the engine -------------------------------------------------------------------------------------

VIEWS = ("referee", *SEATS[:4])  # who may look at a board: everyone, or one seat


@dataclass(slots=True)
class _Layout:
    """Where each card lies in the diagram: its slot in its suit's row, or (face down) in the hand's row of backs."""

    face: dict[str, str] = field(default_factory=dict)  # card -> cell in its suit row, "N-S-0"
    rows: dict[tuple[int, str], list[str]] = field(default_factory=dict)  # (seat, suit) -> cards in the row, in order
    backs: dict[int, list[str]] = field(default_factory=dict)  # seat -> cards face down, in order


def face_cell(seat: int, suit: str, slot: int) -> str:
    return f"{SEAT_LETTERS[seat]}-{suit}-{slot}"


def back_cell(seat: int, slot: int) -> str:
    return f"{SEAT_LETTERS[seat]}-x-{slot}"


def trick_cell(seat: int) -> str:
    return f"trick-{SEAT_LETTERS[seat]}"


def auction_cell(index: int) -> str:
    """The cell of the ``index``-th call in the auction table (four columns from the dealer)."""
    return f"call-{index // 4}-{index % 4}"


class BridgeEngine(Engine):
    """One board: the auction from the dealer, then the play from declarer's left."""

    __slots__ = (
        "auction",
        "claimed",
        "concealed",
        "contract",
        "deal",
        "dealer",
        "dummy",
        "hands",
        "layout",
        "leader",
        "played",
        "record",
        "tags",
        "trick",
        "tricks",
        "trump",
        "unknown_hands",
        "vul",
    )

    def __init__(self, game: GameType, options: Mapping[str, Any] | None, record: Record) -> None:
        super().__init__(game, options)
        self.record = record
        self.tags = record.tags
        self.path = record.path
        self.dealer, self.vul = self._board()
        self.turn = self.dealer
        self.auction = Auction(self.dealer)
        self.contract: Contract | None = None
        self.hands: list[set[str]] = [set(), set(), set(), set()]
        self.deal: list[list[str] | None] = [None, None, None, None]
        self.unknown_hands: set[int] = set()
        self.layout = _Layout()
        self.trick: list[tuple[int, str]] = []
        self.tricks = [0, 0]  # won by NS, EW
        self.played: list[str] = []
        self.trump = "N"
        self.leader = 0
        self.dummy: int | None = None
        self.claimed = False
        self.concealed: list[tuple[tuple[str, ...], list[Op]]] = []
        first = record.moves[0].parts[:1] if record.moves else ()
        if first and first[0][0] == "card":  # a play without its auction: the contract of the tags
            contract = self._contract_from_tags()
            if contract is not None and contract.declarer is not None:
                self.contract, self.trump = contract, contract.strain
                self.leader = self.turn = (contract.declarer + 1) % 4
                self.dummy = (contract.declarer + 2) % 4

    # -- the board's facts ------------------------------------------------------------------

    def _board(self) -> tuple[int, str]:
        """Dealer and vulnerability: the tags, else the board number's; a difference is a note."""
        tags = self.tags
        number = _board_number(tags.get("Board", ""))
        dealer = seat_of(tags.get("Dealer", ""))
        vul = vulnerability(tags["Vulnerable"]) if tags.get("Vulnerable") else None
        if number is not None:
            if dealer is not None and dealer != board_dealer(number):
                self._warn(
                    N_("board {board}: the Dealer tag says {written}, the board number gives {board_value}"),
                    board=number,
                    written=SEAT_LETTERS[dealer],
                    board_value=SEAT_LETTERS[board_dealer(number)],
                )
            if vul is not None and vul != board_vulnerability(number):
                self._warn(
                    N_("board {board}: the Vulnerable tag says {written}, the board number gives {board_value}"),
                    board=number,
                    written=vul,
                    board_value=board_vulnerability(number),
                )
        if dealer is None:
            dealer = board_dealer(number) if number is not None else None
        if dealer is None:
            written = seat_of(tags.get("Auction", ""))
            dealer = written if written is not None else 0
        if vul is None:
            vul = board_vulnerability(number) if number is not None else "None"
        return dealer, vul

    def _warn(self, template: str, /, **args: Any) -> None:
        self.found.append(make(self.record.path, self.record.line, 1, BOARD_DIFFERS, template, **args))

    def setup(self) -> list[Op]:
        """The hands in the diagram (face up: the referee's view), vulnerability and dealer, and a DD table if given."""
        ops: list[Op] = []
        setup = self.record.setup or []
        for seat in range(4):
            cards = parse_hand(setup[seat]) if seat < len(setup) and setup[seat] not in ("", "-") else None
            self.deal[seat] = cards
            if cards is None:
                self.unknown_hands.add(seat)
                continue
            self.hands[seat] = set(cards)
            for card in sorted_hand(cards):
                row = self.layout.rows.setdefault((seat, card[0]), [])
                cell = face_cell(seat, card[0], len(row))
                row.append(card)
                self.layout.face[card] = cell
                ops.append(scene.add(card, "h-" + card, self.colours[seat], cell))
        self._check_deal()
        self.concealed = self._hide_hands()
        for seat in range(4):
            kind = "seat-" + SEAT_LETTERS[seat] + ("-vul" if vulnerable(self.vul, seat) else "")
            ops.append(scene.add("seat-" + SEAT_LETTERS[seat], kind, "*", "compass-" + SEAT_LETTERS[seat]))
        ops.append(scene.add("dealer", "dealer", "*", "dealer-" + SEAT_LETTERS[self.dealer]))
        for column in range(4):
            letter = SEAT_LETTERS[(self.dealer + column) % 4]
            ops.append(scene.add("head-" + str(column), "label-" + letter, "*", f"call-head-{column}"))
        ops += _dd_ops(self.record.tags)
        return ops

    def _check_deal(self) -> None:
        known = [cards for cards in self.deal if cards is not None]
        if not known:
            return
        counts = [len(cards) for cards in known]
        twice = sorted({c for c in (card for cards in known for card in cards) if sum(c in h for h in known) > 1})
        if twice or any(count != 13 for count in counts):
            sizes = ", ".join(f"{SEAT_LETTERS[seat]} {len(cards)}" for seat, cards in enumerate(self.deal) if cards is not None)
            twice_text = " ".join(card_label(card) for card in twice) or "-"
            self.found.append(
                make(
                    self.record.path,
                    self.record.setup_line or self.record.line,
                    1,
                    BAD_DEAL,
                    "the deal has {sizes} cards (13 each are needed); dealt twice: {twice}",
                    sizes=sizes,
                    twice=twice_text,
                )
            )
        if self.unknown_hands and len(self.unknown_hands) < 4:
            self.found.append(
                make(
                    self.record.path,
                    self.record.setup_line or self.record.line,
                    1,
                    UNCHECKED,
                    "the deal gives no cards for {seats}: their plays are not checked against a hand",
                    seats=" ".join(SEAT_LETTERS[s] for s in sorted(self.unknown_hands)),
                )
            )

    # -- the driver's hooks --------------------------------------------------------------------

    def read(self, move: Move) -> Any:
        return move.parts[0] if move.parts else None

    def play(self, move: Move, at: Any, number: int, seat: int) -> Ply | Diagnostic:
        kind, value = at[0], at[1]
        if kind == "call":
            return self._call(move, value, bool(at[2]) if len(at) > 2 else False, number, seat)
        return self._card(move, value, number, seat)

    def _call(self, move: Move, call: str, alerted: bool, number: int, seat: int) -> Ply | Diagnostic:
        auction = self.auction
        if auction.over:
            return self.error(
                OUT_OF_PHASE, move, number, N_("move {number}, {move}: the auction was already over; no call may follow")
            )
        problem = auction.problem(call, seat)
        if problem is not None:
            return self.error(ILLEGAL_CALL, move, number, *problem)
        index = len(auction.calls)
        auction.add(call, seat)
        ops: list[Op] = [scene.add(f"c{index}", "call-" + call, self.colours[seat], auction_cell(index))]
        if alerted:
            ops.append(scene.add(f"a{index}", "alert", "*", "alert-" + auction_cell(index)[5:]))
        if auction.over:
            self._end_auction(ops, number)
        else:
            self.turn = (seat + 1) % 4
        return self._seat_ply(move, number, seat, f"{SEAT_LETTERS[seat]} {call_label(call)}{'!' if alerted else ''}", ops)

    def _seat_ply(
        self, move: Move, number: int, seat: int, label: str, ops: list[Op],
        hidden: Sequence[tuple[tuple[str, ...], list[Op]]] = (),
    ) -> Ply:
        """A call or a card, seen by everyone; the first ply of a board names every seat's view,
        so that a reader may choose any of the four."""
        visible = VIEWS[1:] if number == 1 else None
        return Ply(
            number, SEATS[seat], self.colours[seat], label, ops, move.mark, move.line, move.column,
            visible_to=visible, hidden=hidden,
        )  # fmt: skip

    def _end_auction(self, ops: list[Op], number: int) -> None:
        contract = self.auction.contract()
        self.contract = contract
        if contract is None or contract.declarer is None:
            ops.append(scene.note(N_("four passes: the board is passed out")))
            self.decision = Decision.from_scores({NS: 0.0, EW: 0.0}, "passed-out", number)
            self.decision.reason = N_("passed out")
            return
        self.trump = contract.strain
        self.leader = (contract.declarer + 1) % 4
        self.dummy = (contract.declarer + 2) % 4
        self.turn = self.leader
        ops.append(scene.note(N_("the contract is {contract} by {side}"), contract=contract.label, side=SEATS[contract.declarer]))
        ops.append(scene.counter("tricks.NS", 0))
        ops.append(scene.counter("tricks.EW", 0))

    def _hide_hands(self) -> list[tuple[tuple[str, ...], list[Op]]]:
        """Each seat's view shows its own hand only: the others face down, in a row (Replay.setup_hidden)."""
        groups = []
        for seat in range(4):
            cards = self.deal[seat]
            if cards is None:
                continue
            ops: list[Op] = []
            backs = self.layout.backs.setdefault(seat, [])
            for card in sorted_hand(cards):
                ops += [scene.set_kind(card, "back"), scene.move(card, back_cell(seat, len(backs)))]
                backs.append(card)
            groups.append((tuple(v for v in VIEWS[1:] if v != SEATS[seat]), ops))
        return groups

    def _sees(self, seat: int) -> tuple[str, ...]:
        """The views that see ``seat``'s hand face up."""
        if self.dummy == seat and self.played:
            return VIEWS
        return ("referee", SEATS[seat])

    def _card(self, move: Move, card: str, number: int, seat: int) -> Ply | Diagnostic:
        if self.contract is None:
            if self.auction.over:
                return self.error(
                    OUT_OF_PHASE, move, number, N_("move {number}, {move}: the board was passed out; no card is played")
                )
            if self.auction.calls:
                return self.error(OUT_OF_PHASE, move, number, N_("move {number}, {move}: a card before the auction is over"))
            contract = self._contract_from_tags()
            if contract is None:
                return self.error(
                    OUT_OF_PHASE,
                    move,
                    number,
                    N_(
                        "move {number}, {move}: a card is played, but neither the auction nor the Contract and "
                        "Declarer tags give a contract"
                    ),
                )
            self.contract, self.trump = contract, contract.strain
            self.leader = (contract.declarer or 0) + 1
            self.leader %= 4
            self.dummy = ((contract.declarer or 0) + 2) % 4
            if seat != self.leader:
                return self.error(
                    OUT_OF_PHASE,
                    move,
                    number,
                    N_("move {number}, {move}: the opening lead is {expected}'s, on declarer's left"),
                    {"expected": self.names[self.leader]},
                )
            self.turn = seat
        if card in self.played:
            return self.error(
                NOT_HELD, move, number, N_("move {number}, {move}: {card} was played already"), {"card": card_label(card)}
            )
        known = seat not in self.unknown_hands
        # A hand the deal does not give may play any card but one a known hand holds.
        if card not in self.hands[seat] and (known or any(card in self.hands[s] for s in range(4))):
            holder = next((SEAT_LETTERS[s] for s in range(4) if card in self.hands[s]), None)
            where = T("another hand") if holder is None else holder
            return self.error(
                NOT_HELD,
                move,
                number,
                N_("move {number}, {move}: {side} does not hold {card} (it is {holder}'s)"),
                {"side": self.names[seat], "card": card_label(card), "holder": where},
            )
        if self.trick and known:
            led = self.trick[0][1][0]
            if card[0] != led and any(c[0] == led for c in self.hands[seat]):
                return self.error(
                    REVOKE,
                    move,
                    number,
                    N_("move {number}, {move}: {side} must follow suit: {suit} was led and {side} holds {cards}"),
                    {
                        "side": self.names[seat],
                        "suit": SUIT_SYMBOLS[led],
                        "cards": " ".join(card_label(c) for c in sorted_hand([c for c in self.hands[seat] if c[0] == led])),
                    },
                )
        return self._apply_card(move, card, number, seat)

    def _contract_from_tags(self) -> Contract | None:
        parsed = parse_contract(self.tags.get("Contract", ""))
        declarer = seat_of(self.tags.get("Declarer", "").lstrip("^"))
        if not isinstance(parsed, Contract) or declarer is None:
            return None
        return Contract(parsed.level, parsed.strain, parsed.doubled, declarer)

    def _apply_card(self, move: Move, card: str, number: int, seat: int) -> Ply:
        ops: list[Op] = []
        hidden: list[tuple[tuple[str, ...], list[Op]]] = []
        if not self.trick and self.played:  # a new trick: the last one leaves the table
            ops += [scene.remove(c) for c in self.played[-4:]]
        first_card = not self.played
        self.hands[seat].discard(card)
        self.played.append(card)
        self.trick.append((seat, card))
        if card in self.layout.face:
            hidden += self._leave_hand(seat, card)
            ops += [scene.move(card, trick_cell(seat)), scene.set_kind(card, "c-" + card)]
        else:  # a hand the deal does not give: the card appears on the table
            ops.append(scene.add(card, "c-" + card, self.colours[seat], trick_cell(seat)))
        if first_card and self.dummy is not None:
            hidden += self._show_dummy()
        if len(self.trick) == 4:
            winner = trick_winner(self.trick, self.trump)
            self.tricks[winner % 2] += 1
            self.trick = []
            self.turn = winner
            ops.append(scene.mark(trick_cell(winner), "winner"))
            ops.append(scene.counter("tricks." + ("NS" if winner % 2 == 0 else "EW"), self.tricks[winner % 2]))
            ops.append(scene.note(N_("{side} wins trick {trick}"), side=SEATS[winner], trick=sum(self.tricks)))
            if sum(self.tricks) == 13:
                self._decide(number, sum(self.tricks), claimed=False)
        else:
            self.turn = (seat + 1) % 4
        return self._seat_ply(move, number, seat, f"{SEAT_LETTERS[seat]} {card_label(card)}", ops, hidden)

    def _leave_hand(self, seat: int, card: str) -> list[tuple[tuple[str, ...], list[Op]]]:
        """The hand closes up where the card left: in its suit row for those who see it, in its row of backs for the others."""
        sees = self._sees(seat)
        groups: list[tuple[tuple[str, ...], list[Op]]] = []
        row = self.layout.rows.get((seat, card[0]), [])
        if card in row:
            gap = row.index(card)
            row.remove(card)
            moves = [scene.move(c, face_cell(seat, card[0], i)) for i, c in enumerate(row) if i >= gap]
            if moves:
                groups.append((sees, moves))
        backs = self.layout.backs.get(seat)
        if backs and card in backs:
            gap = backs.index(card)
            backs.remove(card)
            others = tuple(v for v in VIEWS if v not in sees)
            moves = [scene.move(c, back_cell(seat, i)) for i, c in enumerate(backs) if i >= gap]
            if moves and others:
                groups.append((others, moves))
        return groups

    def _show_dummy(self) -> list[tuple[tuple[str, ...], list[Op]]]:
        """After the opening lead dummy's cards are face up in every view."""
        dummy = self.dummy
        if dummy is None or self.deal[dummy] is None:
            return []
        others = tuple(v for v in VIEWS[1:] if v != SEATS[dummy])
        ops: list[Op] = []
        for suit in SUITS:
            for card in self.layout.rows.get((dummy, suit), []):
                ops += [scene.set_kind(card, "h-" + card), scene.move(card, self.layout.face[card])]
        return [(others, ops)] if ops else []

    def _decide(self, number: int, played_tricks: int, claimed: bool) -> None:
        contract = self.contract
        if contract is None or contract.declarer is None:
            return
        won = self.tricks[contract.declarer % 2]
        score = ns_score(contract, self.vul, won)
        self.decision = Decision.from_scores({NS: float(score), EW: float(-score)}, "claim" if claimed else "tricks", number)
        self.decision.reason = (
            N_("{contract} by {declarer}, {tricks} tricks (claimed): North-South {score}")
            if claimed
            else N_("{contract} by {declarer}, {tricks} tricks: North-South {score}")
        )
        self.decision.reason_args = (
            ("contract", contract.label),
            ("declarer", SEAT_LETTERS[contract.declarer]),
            ("tricks", won),
            ("score", f"{score:+d}"),
        )

    # -- what only the whole board shows -------------------------------------------------------------

    def finish(self, record: Record, replay: Replay) -> None:
        if replay.plies:  # a board that is played: each seat sees its own hand (a deal alone: all four)
            replay.setup_hidden = self.concealed
        found = replay.diagnostics
        where = (record.path, record.line, 1)
        tags = self.tags
        auction_seat = seat_of(tags.get("Auction", "")) if tags.get("Auction") else None
        if auction_seat is not None and auction_seat != self.dealer:
            found.append(
                make(
                    where[0],
                    where[1],
                    where[2],
                    DEALER_DIFFERS,
                    "the Auction tag starts with {written}, but the dealer is {dealer}",
                    written=SEAT_LETTERS[auction_seat],
                    dealer=SEAT_LETTERS[self.dealer],
                )
            )
        if self.auction.over:
            self._check_contract_tags(found, where)
        contract = self.contract if self.auction.over else self._contract_from_tags()
        if self.contract is None and contract is not None and not self.auction.calls:
            self.contract = contract
        tricks = self._declared_tricks(contract)
        if (
            contract is not None
            and contract.declarer is not None
            and self.played
            and replay.decision is None
            and not replay.not_replayed
        ):
            done = len(self.played) // 4
            won = self.tricks[contract.declarer % 2]
            if tricks is not None:  # a claim, at the end of a trick or during one
                if won <= tricks <= won + 13 - done:
                    self.tricks[contract.declarer % 2] = tricks
                    self._decide(len(replay.plies), done, claimed=True)
                    replay.decision = self.decision
                else:
                    found.append(
                        make(
                            where[0],
                            where[1],
                            where[2],
                            BAD_CLAIM,
                            "the Result tag gives declarer {claimed} tricks, but after {done} tricks declarer has {won} "
                            "and at most {most} can be reached",
                            claimed=tricks,
                            done=done,
                            won=won,
                            most=won + 13 - done,
                        )
                    )
        elif replay.decision is not None and replay.decision.rule == "tricks" and tricks is not None and contract is not None:
            won = self.tricks[contract.declarer % 2] if contract.declarer is not None else 0
            if tricks != won:
                found.append(
                    make(
                        where[0],
                        where[1],
                        where[2],
                        RESULT_DIFFERS,
                        "the Result tag gives declarer {declared} tricks, the play gives {won}",
                        declared=tricks,
                        won=won,
                    )
                )
        self._check_score(found, where, contract, tricks, replay.decision)

    def _check_contract_tags(self, found: list[Diagnostic], where: tuple[str, int, int]) -> None:
        tags = self.tags
        reached = self.contract
        written = tags.get("Contract", "").strip()
        if written and written not in ("?",):
            parsed = parse_contract(written)
            if (
                parsed == "pass"
                and reached is not None
                or isinstance(parsed, Contract)
                and (
                    reached is None
                    or (parsed.level, parsed.strain, parsed.doubled) != (reached.level, reached.strain, reached.doubled)
                )
            ):
                found.append(
                    make(
                        where[0],
                        where[1],
                        where[2],
                        CONTRACT_DIFFERS,
                        "the Contract tag says {written}, the auction reaches {reached}",
                        written=written,
                        reached=reached.label if reached else T("passed out"),
                    )
                )
        declarer = tags.get("Declarer", "").strip().lstrip("^")
        seat = seat_of(declarer) if declarer else None
        if seat is not None and reached is not None and reached.declarer is not None and seat != reached.declarer:
            found.append(
                make(
                    where[0],
                    where[1],
                    where[2],
                    CONTRACT_DIFFERS,
                    "the Declarer tag says {written}, the auction makes {reached} declarer",
                    written=declarer,
                    reached=SEAT_LETTERS[reached.declarer],
                )
            )

    def _declared_tricks(self, contract: Contract | None) -> int | None:
        """The Result tag as tricks won by declarer (``"NS 11"``: by that side), None if absent or unreadable."""
        text = self.tags.get("Result", "").strip()
        m = re.fullmatch(r"(?:(NS|EW)\s+)?(\d{1,2})", text, re.IGNORECASE)
        if not m or int(m[2]) > 13:
            return None
        tricks = int(m[2])
        if m[1] and contract is not None and contract.declarer is not None:
            if (m[1].upper() == "NS") != (contract.declarer % 2 == 0):
                tricks = 13 - tricks
        return tricks

    def _check_score(
        self,
        found: list[Diagnostic],
        where: tuple[str, int, int],
        contract: Contract | None,
        tricks: int | None,
        decision: Decision | None,
    ) -> None:
        written = self.tags.get("Score", "").strip()
        if not written:
            return
        declared = declared_ns_score(written, contract)
        if declared is None:
            return
        if decision is not None and decision.score is not None:
            counted = int(decision.score[NS])
        elif contract is not None and contract.declarer is not None and tricks is not None:
            counted = ns_score(contract, self.vul, tricks)
        else:
            return
        if declared != counted:
            found.append(
                make(
                    where[0],
                    where[1],
                    where[2],
                    SCORE_DIFFERS,
                    "the Score tag says North-South {declared}; {contract} by {declarer} with {tricks} tricks, "
                    "{vul} vulnerable, scores North-South {counted}",
                    declared=f"{declared:+d}",
                    counted=f"{counted:+d}",
                    contract=contract.label if contract else "-",
                    declarer=SEAT_LETTERS[contract.declarer] if contract and contract.declarer is not None else "-",
                    tricks=self.tricks[contract.declarer % 2]
                    if decision is not None and contract and contract.declarer is not None
                    else tricks,
                    vul=self.vul,
                )
            )

    # -- what the driver's diagnostics say ------------------------------------------------------

    def ended(self) -> Message:
        if self.decision is not None and self.decision.rule == "passed-out":
            return N_("move {number}, {move}: the board was passed out; nothing may follow"), {}
        return N_("move {number}, {move}: all thirteen tricks were played by move {end}; no card may follow"), {
            "end": self.decision.ply if self.decision else 0
        }

    def wrong_side(self, move: Move, expected: int, found: int | None) -> Message:
        if found is None:
            return super().wrong_side(move, expected, found)
        if self.contract is None and move.parts and move.parts[0][0] == "card":
            return N_(
                "move {number}, {move}: a card is played, but neither the auction nor the Contract and "
                "Declarer tags give a contract"
            ), {}
        if self.contract is not None and self.auction.over or self.played:
            why = T("the winner of the last trick leads") if self.played and not self.trick else T("play goes clockwise")
            if not self.played:
                why = T("the opening lead is from declarer's left")
            return N_("move {number}, {move}: wrong seat: {expected} is to play, found {found} ({why})"), {
                "expected": self.names[expected],
                "found": self.names[found],
                "why": why,
            }
        return N_(
            "move {number}, {move}: wrong seat: {expected} is to call, found {found} (the auction goes clockwise from the dealer)"
        ), {"expected": self.names[expected], "found": self.names[found]}


def declared_ns_score(text: str, contract: Contract | None) -> int | None:
    """A ``Score`` tag as North-South's score: ``"NS 620"``, ``"EW -100"``, ``"NS 100 EW -100"``, or a bare
    number (the declaring side's, as PBN says). None if unreadable."""
    m = re.match(r"\s*(NS|EW)?\s*([+-]?\d+)", text, re.IGNORECASE)
    if not m:
        return None
    value = int(m[2])
    side = (m[1] or "").upper()
    if not side:
        if contract is None or contract.declarer is None:
            return value
        side = "NS" if contract.declarer % 2 == 0 else "EW"
    return value if side == "NS" else -value


def _board_number(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isdigit() and 0 < int(text) < 100000 else None


def dd_table(tags: Mapping[str, str]) -> dict[tuple[int, str], int] | None:
    """Double-dummy tricks per (declarer seat, strain) from the record's tags, where it carries them.

    ``DoubleDummyTricks`` is 20 hex digits, declarers N S E W, strains NT S H D C in each (BridgeComposer);
    ``OptimumResultTable`` the same as a table (one ``N  S  6`` line per pair, kept by the reader as
    ``OptimumResultTable.rows``).
    """
    found: dict[tuple[int, str], int] = {}
    rows = tags.get("OptimumResultTable.rows", "")
    for line in rows.splitlines():
        parts = line.split()
        if (
            len(parts) == 3
            and seat_of(parts[0]) is not None
            and parts[1].upper() in ("NT", "N", "S", "H", "D", "C")
            and parts[2].isdigit()
        ):
            found[(seat_of(parts[0]) or 0, parts[1].upper()[0])] = int(parts[2])
    if len(found) == 20:
        return found
    digits = tags.get("DoubleDummyTricks", "").strip()
    if re.fullmatch(r"[0-9a-dA-D]{20}", digits):
        table = {}
        for i, digit in enumerate(digits):
            seat = "NSEW"[i // 5]
            table[(SEAT_LETTERS.index(seat), "NSHDC"[i % 5])] = int(digit, 16)
        return table
    return None


def _dd_ops(tags: Mapping[str, str]) -> list[Op]:
    """The double-dummy table beside the board, where the record carries one."""
    table = dd_table(tags)
    if table is None:
        return []
    ops: list[Op] = [scene.add("dd-title", "dd-title", "*", "dd-title")]
    for column, strain in enumerate(STRAINS):
        ops.append(scene.add(f"dd-h{column}", "strain-" + strain, "*", f"dd-head-{column}"))
    for row, seat in enumerate((0, 2, 1, 3)):
        ops.append(scene.add(f"dd-s{row}", "label-" + SEAT_LETTERS[seat], "*", f"dd-seat-{row}"))
        for column, strain in enumerate(STRAINS):
            tricks = table[(seat, strain)]
            ops.append(
                scene.add(f"dd-{row}-{column}", ("dd-make-" if tricks >= 7 else "dd-") + str(tricks), "*", f"dd-{row}-{column}")
            )
    return ops


def replay(record: Record, game: GameType, options: Mapping[str, Any] | None = None) -> Replay:
    """Replay one board: the auction, then the play; the score where the play ends (or a claim ends it)."""
    return BridgeEngine(game, options, record).replay(record)
