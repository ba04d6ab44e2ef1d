"""Dou Dizhu (斗地主): three seats, one landlord against two farmers.

The cards are numbered 0-53 as the championship standard's table
(``specs/002_…txt``) says: ``4 * rank + suit`` with the ranks 3 4 5 6 7 8 9
10 J Q K A 2 (0-12) and the suits ♠ ♥ ♦ ♣ (0-3), then 52 the small (black)
joker and 53 the big (red) one. A record (``formats/doudizhu.py``) gives,
as moves in the order written, each seat's deal (``DA``), the bids (``BA``),
the landlord's bottom cards (``LC``) and the plays (``A``, ``-1`` a pass).
The rules (specs/README.md, P2T1), and what this module decides where the
standard is silent:

* **Dealing.** 17 cards to each seat and 3 bottom cards, every card exactly
  once. The deals may be written in any order; they are not turns.
* **Bidding** 1-3 (0 a pass), in the order of play A, B, C from whoever bids
  first (the record says who: the standard does not). A bid must be higher
  than the highest so far. Bidding ends at a 3, or, once every seat has
  spoken, when the bottom cards are taken (one round, as the standard's
  example), or when the two other seats pass after the highest bid (further
  rounds, as OpenSpiel plays it). All three pass: the deal is void, nobody
  scores, and the page says so.
* **The landlord** is the highest bidder; the bottom cards (the three not
  dealt) are shown to everyone and join the landlord's hand; the landlord leads.
* **Plays** in the order A, B, C. A play must come from the player's hand and
  be a hand type (:func:`classify`): single, pair, trio, trio with a single
  or a pair, a straight of five or more singles, of three or more pairs, an
  airplane (two or more trios in sequence) with or without wings (one single
  or one pair per trio), four with two singles or two pairs, a bomb (four of
  a rank) or the rocket (both jokers). Straights and airplanes stop at the
  ace (no 2, no joker). Kickers follow rlcard's tables: no kicker of a rank
  in the airplane, no four of a rank and no rocket among kickers, no trio of
  kickers next to the airplane (that is a longer airplane), the two pairs of
  a four-with-two of different ranks. The leader of a trick must play; the
  others pass or beat the last play: the same type and length and a higher
  rank, any bomb beats any other type, a higher bomb a bomb, the rocket
  everything, and nothing the rocket. After two passes the last player to
  play leads again.
* **The end.** The deal ends when a hand is empty. Its score is the winning
  bid, doubled for every bomb and for the rocket played, and once more for a
  spring (the landlord wins and neither farmer played a card) or an
  anti-spring (the farmers win and the landlord played only the first lead);
  capped at the record's ``MS``. Each farmer pays (or gets) the score, the
  landlord gets (or pays) twice it: points per seat, which the standings add up.
  (OpenSpiel scores the same, without a cap.)

Scene: the card table of :mod:`generator.boards.table`. Each seat's hand
lies in its hand row, face up in the referee's view and in the seat's own,
face down in the others'; a play moves the cards to the seat's row of played
cards, face up for everyone; the bottom cards lie in the middle, and the
landlord's seat carries a crown.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from generator import scene
from generator.boards import table
from generator.diagnostics import Diagnostic, define
from generator.games import GameType
from generator.i18n import N_
from generator.model import Decision, Move, Op, Ply, Record, Replay, winner_of
from generator.rules.engine import SEATS, Engine, Message

# Codes of this family: block 11 of RULE-, from 10 on (the format's are FMT-x11xx).
BAD_DEAL = define(
    "RULE-E1110",
    "error",
    "A deal is not 17 distinct cards, or a card is dealt twice (Dou Dizhu)",
    "Each of DA, DB and DC holds 17 different cards numbered 0-53 and no card is in two hands; "
    "check the deal lines against the writer's log.",
)
BAD_BID = define(
    "RULE-E1111",
    "error",
    "A bid is not allowed (Dou Dizhu)",
    "Bids are 0 (pass) or 1-3, each higher than the highest before it, in the order A, B, C; "
    "nobody bids after a 3 or once the bidding is over. The message says which rule is broken.",
)
BAD_BOTTOM = define(
    "RULE-E1112",
    "error",
    "The bottom cards are not the three cards left after the deal, or come before the bidding is over (Dou Dizhu)",
    "LA, LB or LC names the landlord (the highest bidder) and the three cards nobody was dealt.",
)
NOT_IN_HAND = define(
    "RULE-E1113",
    "error",
    "A card played is not in the player's hand (Dou Dizhu)",
    "The card was dealt to another seat, is a bottom card of another landlord, or was played before; "
    "the message names it.",
)
NOT_A_HAND = define(
    "RULE-E1114",
    "error",
    "The cards played are not a hand type of Dou Dizhu",
    "A play is a single, pair, trio (with a single or a pair), straight, pair straight, airplane (with wings), "
    "four with two, bomb or rocket; check the card numbers against the standard's table.",
)
DOES_NOT_BEAT = define(
    "RULE-E1115",
    "error",
    "The play does not beat the last play of the trick (Dou Dizhu)",
    "Beat the last play with the same type and length and a higher rank, or with a bomb or the rocket; "
    "otherwise pass (-1). Nothing beats the rocket.",
)
LEADER_PASSES = define(
    "RULE-E1116",
    "error",
    "The player who leads a trick passes (Dou Dizhu)",
    "The landlord's first play and the play after two passes lead a trick and cannot be -1.",
)
OUT_OF_PHASE = define(
    "RULE-E1117",
    "error",
    "A line comes before its phase of the deal (Dou Dizhu)",
    "A deal is written in order: the three hands, the bids, the landlord's bottom cards, then the plays.",
)
OVER_SEAT = define(
    "RULE-E1118",
    "error",
    "OVER names another seat than the one whose hand was emptied (Dou Dizhu)",
    "OVER names the seat that played its last card; the page and the standings use the replayed result.",
)
VOID_DEAL = define(
    "RULE-N1119",
    "note",
    "Nobody bid: the deal is void (Dou Dizhu)",
    "Nothing to do: a deal in which all three seats pass scores nothing and is not played.",
)

# -- cards ------------------------------------------------------------------------------

RANKS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
SUITS = ("♠", "♥", "♦", "♣")
SMALL_JOKER, BIG_JOKER = 52, 53
ACE, TWO, BLACK, RED = 11, 12, 13, 14  # ranks: the ace (the last rank of a straight), 2, the jokers
CARDS = 54
HAND = 17  # cards dealt to each seat
BOTTOM = 3

# Each card's name on the table and in the move list (table.py draws "BJ" and "RJ" as jokers).
DECK: tuple[str, ...] = tuple(f"{rank}{suit}" for rank in RANKS for suit in SUITS) + ("BJ", "RJ")


def rank_of(card: int) -> int:
    """0-12 for 3 to 2, 13 the small joker, 14 the big one."""
    return card // 4 if card < SMALL_JOKER else card - SMALL_JOKER + BLACK


def card_name(card: int) -> str:
    return DECK[card]


def counts_of(cards: Iterable[int]) -> list[int]:
    """How many cards of each rank (15 ranks)."""
    counts = [0] * 15
    for card in cards:
        counts[rank_of(card)] += 1
    return counts


# -- hand types -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Kind:
    """One reading of a set of cards as a hand type.

    ``name`` as rlcard names the types (``solo``, ``pair_chain``, ``four_two_solo`` ...),
    ``length`` the number of ranks in a chain (1 for the others), ``rank`` the rank that
    compares (the lowest of a chain; the trio's or the four's).
    """

    name: str
    rank: int
    length: int = 1

    @property
    def bomb(self) -> bool:
        return self.name in ("bomb", "rocket")

    def beats(self, other: Kind) -> bool:
        """Whether a play of this reading beats one of ``other``."""
        if other.name == "rocket":
            return False
        if self.name == "rocket":
            return True
        if self.name == "bomb" and other.name != "bomb":
            return True
        return self.name == other.name and self.length == other.length and self.rank > other.rank


def _runs(counts: Sequence[int], least: int, length: int) -> list[int]:
    """The lowest ranks of every run of ``length`` consecutive ranks (3 to A) holding ``least`` cards or more."""
    return [
        start
        for start in range(0, ACE + 2 - length)
        if all(counts[rank] >= least for rank in range(start, start + length))
    ]


def _chain(counts: Sequence[int], width: int, least: int) -> list[Kind]:
    """A straight of singles (width 1), pairs (2) or trios (3): every card in one run."""
    ranks = [rank for rank, n in enumerate(counts) if n]
    if any(counts[rank] != width for rank in ranks) or len(ranks) < least:
        return []
    start, end = ranks[0], ranks[-1]
    if end > ACE or end - start + 1 != len(ranks):
        return []
    name = {1: "solo_chain", 2: "pair_chain", 3: "trio_chain"}[width]
    return [Kind(name, start, len(ranks))]


def _airplanes(counts: Sequence[int], total: int) -> list[Kind]:
    """Trios in sequence with one single (wings of 4k cards) or one pair (5k cards) per trio."""
    found = []
    for per, name in ((4, "trio_solo"), (5, "trio_pair")):
        if total % per:
            continue
        length = total // per
        for start in _runs(counts, 3, length) if length >= 2 else range(0, 13):
            if length == 1 and counts[start] != 3:
                continue
            chain = range(start, start + length)
            if any(counts[rank] != 3 for rank in chain):
                continue  # a kicker of a rank of the airplane (rlcard's tables have none)
            kickers = [0 if rank in chain else n for rank, n in enumerate(counts)]
            if _wings(kickers, per, length, start):
                found.append(Kind(name if length == 1 else name + "_chain", start, length))
    return found


def _wings(kickers: Sequence[int], per: int, length: int, start: int) -> bool:
    if kickers[BLACK] and kickers[RED]:
        return False  # the rocket is no kicker
    if any(n == 4 for n in kickers):
        return False  # nor a bomb
    if per == 5:  # pairs of different ranks, no joker pairs
        return all(n in (0, 2) for n in kickers) and not kickers[BLACK] and not kickers[RED]
    # Singles may pair up or make a trio, but not a trio next to the airplane (a longer airplane).
    if length >= 2:
        for rank in (start - 1, start + length):
            if 0 <= rank <= ACE and kickers[rank] == 3:
                return False
    return True


def _four_with_two(counts: Sequence[int], total: int) -> list[Kind]:
    if total not in (6, 8):
        return []
    fours = [rank for rank in range(13) if counts[rank] == 4]
    if len(fours) != 1:
        return []
    four = fours[0]
    kickers = [0 if rank == four else n for rank, n in enumerate(counts)]
    if total == 6:
        return [] if kickers[BLACK] and kickers[RED] else [Kind("four_two_solo", four)]
    if all(n in (0, 2) for n in kickers) and not kickers[BLACK] and not kickers[RED]:
        return [Kind("four_two_pair", four)]
    return []


def classify(cards: Iterable[int]) -> list[Kind]:
    """Every reading of the cards as a hand type; empty when they are none."""
    counts = counts_of(cards)
    total = sum(counts)
    ranks = [rank for rank, n in enumerate(counts) if n]
    if total == 0:
        return []
    if total == 2 and counts[BLACK] and counts[RED]:
        return [Kind("rocket", RED)]
    if len(ranks) == 1:
        rank = ranks[0]
        if total == 4:
            return [Kind("bomb", rank)]
        if total > 1 and rank >= BLACK:
            return []
        return [Kind(("solo", "pair", "trio")[total - 1], rank)] if total <= 3 else []
    found = []
    if total >= 5:
        found += _chain(counts, 1, 5)
    if total >= 6 and total % 2 == 0:
        found += _chain(counts, 2, 3)
    if total >= 6 and total % 3 == 0:
        found += _chain(counts, 3, 2)
    if not found:  # an airplane all of trios is no airplane with wings (333444555666: rlcard)
        found += _airplanes(counts, total)
    found += _four_with_two(counts, total)
    return found


def answers(play: Sequence[Kind], top: Sequence[Kind]) -> list[Kind]:
    """The readings of ``play`` that beat a reading of ``top`` (the last play of the trick)."""
    return [kind for kind in play if any(kind.beats(other) for other in top)]


# -- the replay -------------------------------------------------------------------------

DEAL, BID, PLAY = "deal", "bid", "play"


def _kind_of(move: Move) -> str | None:
    """The line a move is: "D" a deal, "B" a bid, "L" the bottom cards, "P" a play or a pass; None unreadable."""
    if move.point is not None:
        return move.point[0]
    if move.passed or move.parts:
        return "P"
    return None


class DouDizhuEngine(Engine):
    """The replay of one deal of a Dou Dizhu session."""

    __slots__ = (
        "bid_phase", "bids", "bombs", "bottom", "cap", "dealt", "hands", "highest", "landlord",
        "on_table", "phase", "played", "top", "top_seat",
    )

    def __init__(self, game: GameType, options: Mapping[str, Any] | None = None, cap: int | None = None) -> None:
        super().__init__(game, options)
        self.phase = DEAL
        self.hands: list[set[int]] = [set(), set(), set()]
        self.dealt: dict[int, int] = {}  # card -> seat
        self.bids: list[tuple[int, int]] = []  # (seat, bid) in order
        self.highest = 0
        self.bid_phase = "open"  # "open", "closed" (a 3, or passes after the highest), "void"
        self.landlord: int | None = None
        self.bottom: tuple[int, ...] = ()
        self.top: list[Kind] = []  # the last play of the trick; empty: the next play leads
        self.top_seat = -1
        self.played = [0, 0, 0]  # plays (not passes) per seat
        self.bombs = 0  # bombs and rockets played
        self.on_table: list[list[str]] = [[], [], []]  # ids of the cards in each seat's row of plays
        self.cap = cap

    # -- the driver's hooks ---------------------------------------------------------------

    def read(self, move: Move) -> Any:
        kind = _kind_of(move)
        if kind is None:
            return None
        seat = self.letters.get(move.side)
        # Deals are not turns, and the record says who bids first: the turn is the line's own.
        if seat is not None and (kind == "D" or (kind == "B" and not self.bids)):
            self.turn = seat
        elif kind in "LP" and self.phase == BID and self.landlord is not None and (kind == "L" or self._bidding_over()):
            # The highest bidder's line: _bottom() and _play() say what is early about it.
            self.turn = self.landlord
        return kind

    def wrong_side(self, move: Move, expected: int, found: int | None) -> Message:
        if found is not None and _kind_of(move) == "L" and self.landlord is not None:
            return N_(
                "move {number}, {move}: the bottom cards go to the landlord, {expected}, the highest bidder, not {found}"
            ), {"expected": self.names[expected], "found": self.names[found]}
        return super().wrong_side(move, expected, found)

    def play(self, move: Move, at: Any, number: int, seat: int) -> Ply | Diagnostic:
        if at == "D":
            return self._deal(move, number, seat)
        if at == "B":
            return self._bid(move, number, seat)
        if at == "L":
            return self._bottom(move, number, seat)
        return self._play(move, number, seat)

    def finish(self, record: Record, replay: Replay) -> None:
        """OVER must name the seat whose hand was emptied (the pipeline compares the teams)."""
        decision = replay.decision
        over = _over_letter(record)
        if decision is None or decision.rule != "hand-empty" or over is None or not replay.plies:
            return
        winner = SEATS.index(replay.plies[-1].side)
        named = self.letters.get(over)
        team = record.header.result
        if named is not None and named != winner and team == decision.winner:
            last = record.moves[len(replay.plies) - 1]
            replay.diagnostics.append(self.error(
                OVER_SEAT, last, len(replay.plies),
                N_("move {number}, {move}: OVER names {named}, but the hand of {winner} was emptied here"),
                {"named": self.names[named], "winner": self.names[winner]},
            ))  # fmt: skip

    # -- the deal ---------------------------------------------------------------------------

    def _deal(self, move: Move, number: int, seat: int) -> Ply | Diagnostic:
        if self.phase != DEAL or self.hands[seat]:
            return self.error(OUT_OF_PHASE, move, number, N_(
                "move {number}, {move}: {side} was dealt already, or the bidding has begun"
            ), {"side": self.names[seat]})  # fmt: skip
        cards = list(move.parts)
        twice = sorted({card for card in cards if cards.count(card) > 1} | {card for card in cards if card in self.dealt})
        if twice:
            card = twice[0]
            owner = self.dealt.get(card, seat)
            return self.error(BAD_DEAL, move, number, N_(
                "move {number}, {move}: card {card} ({name}) is dealt twice (also to {owner})"
            ), {"card": card, "name": card_name(card), "owner": self.names[owner]})  # fmt: skip
        if len(cards) != HAND:
            return self.error(BAD_DEAL, move, number, N_(
                "move {number}, {move}: {side} is dealt {count} cards, not 17"
            ), {"side": self.names[seat], "count": len(cards)})  # fmt: skip
        self.hands[seat] = set(cards)
        for card in cards:
            self.dealt[card] = seat
        if all(self.hands):
            self.phase = BID
        ops = self._show_hand(seat, [])
        name = SEATS[seat]
        return Ply(
            number, name, self.colours[seat], f"{move.side.upper()} 发牌 " + _names(cards), [], move.mark,
            move.line, move.column, visible_to=("referee", name), hidden=ops, alt=move.text,
        )

    def _show_hand(self, seat: int, before: list[int]) -> list[tuple[tuple[str, ...], list[Op]]]:
        """The seat's hand laid out anew: face up for the referee and the seat, face down for the others.

        ``before``: the cards that lay there (taken off first, so the new
        cards lie in order over each other where the row overlaps them).
        """
        cards = sorted(self.hands[seat])
        name, colour = SEATS[seat], self.colours[seat]
        cells = table.row_cells(name, "h", len(cards), self._hand_size())
        gone = [scene.remove(f"k{card}") for card in before]
        mine = gone + [scene.add(f"k{card}", card_name(card), colour, cell) for card, cell in zip(cards, cells)]
        theirs = gone + [scene.add(f"k{card}", "hidden", colour, cell) for card, cell in zip(cards, cells)]
        others = tuple(SEATS[other] for other in range(3) if other != seat)
        return [(("referee", name), mine), (others, theirs)]

    def _hand_size(self) -> int:
        return int(self.game.params.get("hand", HAND + BOTTOM))

    def _slots(self) -> int:
        return int(self.game.params.get("slots", HAND + BOTTOM))

    # -- the bidding --------------------------------------------------------------------------

    def _bid(self, move: Move, number: int, seat: int) -> Ply | Diagnostic:
        bid = move.point[1] if move.point else 0
        if self.phase != BID:
            template = N_("move {number}, {move}: a bid before every seat was dealt") if self.phase == DEAL else N_(
                "move {number}, {move}: a bid after the bidding was over"
            )
            return self.error(OUT_OF_PHASE, move, number, template)
        if self.bid_phase != "open":
            return self.error(BAD_BID, move, number, N_("move {number}, {move}: the bidding was over already"))
        if not 0 <= bid <= 3:
            return self.error(BAD_BID, move, number, N_("move {number}, {move}: a bid is 0 (pass), 1, 2 or 3"))
        if bid and bid <= self.highest:
            return self.error(BAD_BID, move, number, N_(
                "move {number}, {move}: the bid {bid} is not higher than the highest so far, {highest}"
            ), {"bid": bid, "highest": self.highest})  # fmt: skip
        self.bids.append((seat, bid))
        if bid:
            self.highest, self.landlord = bid, seat
        said = scene.note(N_("{side} bids {bid}"), side=SEATS[seat], bid=bid) if bid else None
        ops: list[Op] = [said or scene.note(N_("{side} passes"), side=SEATS[seat])]
        passes = _trailing_passes(self.bids)
        if bid == 3 or (self.highest and passes == 2):
            self.bid_phase = "closed"
        elif not self.highest and passes == 3:
            self.bid_phase = "void"
            self.decision = Decision(
                "draw", "void", number, (), {"first": 0.0, "second": 0.0, "third": 0.0},
                reason=N_("nobody bid: the deal is void"),
            )
            ops.append(scene.note(N_("nobody bids: the deal is void")))
            template = N_("move {number}, {move}: all three passed; the deal is void")
            self.found.append(self.error(VOID_DEAL, move, number, template))
        self.turn = (seat + 1) % 3
        # The words players use (叫 1 分, 不叫); the record's BA[1] on hover.
        label = f"{move.side.upper()} 叫{bid}分" if bid else f"{move.side.upper()} 不叫"
        return self.ply(move, number, seat, ops, label=label, alt=move.text)

    def _bidding_over(self) -> bool:
        spoken = {seat for seat, _ in self.bids}
        return self.bid_phase == "closed" or (self.highest > 0 and len(spoken) == 3)

    # -- the bottom cards -------------------------------------------------------------------

    def _bottom(self, move: Move, number: int, seat: int) -> Ply | Diagnostic:
        if self.phase != BID or not self._bidding_over() or self.landlord is None:
            return self.error(BAD_BOTTOM, move, number, N_(
                "move {number}, {move}: the bottom cards come after the bidding, which is not over"
            ))  # fmt: skip
        left = sorted(set(range(CARDS)) - set(self.dealt))
        cards = sorted(move.parts)
        if cards != left:
            return self.error(BAD_BOTTOM, move, number, N_(
                "move {number}, {move}: the bottom cards are {left}, the three cards nobody was dealt"
            ), {"left": ",".join(map(str, left))})  # fmt: skip
        before = sorted(self.hands[seat])
        self.bottom = tuple(cards)
        self.hands[seat].update(cards)
        for card in cards:
            self.dealt[card] = seat
        self.phase = PLAY
        self.turn = seat  # the landlord leads
        colour = self.colours[seat]
        ops: list[Op] = [
            scene.add(f"b{card}", card_name(card), colour, cell)
            for card, cell in zip(cards, table.row_cells("centre", "", len(cards), BOTTOM))
        ]
        ops.append(scene.add("landlord", "landlord", colour, f"{SEATS[seat]}-token"))
        template = N_("{side} is the landlord at {bid} and takes the bottom cards")
        ops.append(scene.note(template, side=SEATS[seat], bid=self.highest))
        return Ply(
            number, SEATS[seat], colour, f"{move.side.upper()} 底牌 " + _names(cards), ops, move.mark, move.line,
            move.column, hidden=self._show_hand(seat, before), alt=move.text,
        )

    # -- the plays ------------------------------------------------------------------------------

    def _play(self, move: Move, number: int, seat: int) -> Ply | Diagnostic:
        if self.phase != PLAY:
            return self.error(OUT_OF_PHASE, move, number, N_(
                "move {number}, {move}: a play before the landlord took the bottom cards"
            ))  # fmt: skip
        if move.passed:
            return self._pass(move, number, seat)
        cards = list(move.parts)
        hand = self.hands[seat]
        missing = sorted(card for card in set(cards) if card not in hand) or sorted(
            card for card in set(cards) if cards.count(card) > 1
        )
        if missing:
            card = missing[0]
            return self.error(NOT_IN_HAND, move, number, N_(
                "move {number}, {move}: {side} does not hold card {card} ({name})"
            ), {"side": self.names[seat], "card": card, "name": card_name(card)})  # fmt: skip
        kinds = classify(cards)
        if not kinds:
            return self.error(NOT_A_HAND, move, number, N_(
                "move {number}, {move}: {cards} is not a hand type"
            ), {"cards": _names(cards)})  # fmt: skip
        if self.top:
            beating = answers(kinds, self.top)
            if not beating:
                return self.error(DOES_NOT_BEAT, move, number, N_(
                    "move {number}, {move}: {cards} does not beat {last}, the last play of {side}"
                ), {"cards": _names(cards), "last": self._last_cards(), "side": self.names[self.top_seat]})  # fmt: skip
            kinds = beating
        ops: list[Op] = []
        if not self.top:  # a new trick: the last one's cards leave the table
            for row in self.on_table:
                ops += [scene.remove(piece) for piece in row]
                row.clear()
        else:
            ops += [scene.remove(piece) for piece in self.on_table[seat]]
            self.on_table[seat] = []
        self.top, self.top_seat = kinds, seat
        hand.difference_update(cards)
        self.played[seat] += 1
        name = SEATS[seat]
        played = sorted(cards)
        for card, cell in zip(played, table.row_cells(name, "", len(played), self._slots())):
            ops += [scene.move(f"k{card}", cell), scene.set_kind(f"k{card}", card_name(card))]
        self.on_table[seat] = [f"k{card}" for card in played]
        rest = sorted(hand)
        cells = table.row_cells(name, "h", len(rest), self._hand_size())
        ops += [scene.move(f"k{card}", cell) for card, cell in zip(rest, cells)]
        if any(kind.bomb for kind in kinds) and len(kinds) == 1:
            self.bombs += 1
            template = N_("{side} plays the rocket: the score doubles") if kinds[0].name == "rocket" else N_(
                "{side} plays a bomb: the score doubles"
            )
            ops.append(scene.note(template, side=name))
        self.turn = (seat + 1) % 3
        if not hand:
            self._end(number, seat, ops)
        return self.ply(move, number, seat, ops, label=f"{move.side.upper()} " + _names(played), alt=move.text)

    def _pass(self, move: Move, number: int, seat: int) -> Ply | Diagnostic:
        if not self.top:
            return self.error(LEADER_PASSES, move, number, N_(
                "move {number}, {move}: {side} leads this trick and must play"
            ), {"side": self.names[seat]})  # fmt: skip
        self.turn = (seat + 1) % 3
        ops: list[Op] = [scene.note(N_("{side} passes"), side=SEATS[seat])]
        if self.turn == self.top_seat:  # two passes: the last player leads again
            self.top = []
            ops.append(scene.note(N_("{side} leads again"), side=SEATS[self.top_seat]))
        return self.ply(move, number, seat, ops, label=f"{move.side.upper()} 不要", alt=move.text)

    def _last_cards(self) -> str:
        return _names(sorted(piece_card(piece) for piece in self.on_table[self.top_seat]))

    def _end(self, number: int, seat: int, ops: list[Op]) -> None:
        """The hand of ``seat`` is empty: the deal's score."""
        landlord = self.landlord if self.landlord is not None else seat
        farmers = [other for other in range(3) if other != landlord]
        won = seat == landlord
        spring = (won and not any(self.played[f] for f in farmers)) or (not won and self.played[landlord] == 1)
        doubles = self.bombs + (1 if spring else 0)
        points = self.highest * 2**doubles
        capped = min(points, self.cap) if self.cap else points
        sign = 1 if won else -1
        score = {SEATS[landlord]: float(2 * sign * capped)}
        for farmer in farmers:
            score[SEATS[farmer]] = float(-sign * capped)
        score = {key: score[key] for key in SEATS[:3]}
        winner = SEATS[landlord] if won else winner_of(farmers)
        args = (("side", self.names[seat]), ("points", capped), ("bid", self.highest), ("doubles", doubles))
        if won:
            reason = N_(
                "{side}, the landlord, played every card: each farmer pays {points} points (bid {bid}, doublings: {doubles})"
            )
        else:
            reason = N_(
                "{side}, a farmer, played every card: the landlord pays {points} points to each farmer "
                "(bid {bid}, doublings: {doubles})"
            )
        self.decision = Decision(winner, "hand-empty", number, (), score, reason=reason, reason_args=args)
        if spring:
            ops.append(scene.note(N_("spring: the score doubles") if won else N_("anti-spring: the score doubles")))
        if self.cap and points > self.cap:
            ops.append(scene.note(N_("the score {points} is capped at {cap}"), points=points, cap=self.cap))
        ops.append(scene.note(
            N_("{side} has played every card: landlord {landlord}, each farmer {farmer}"),
            side=SEATS[seat], landlord=f"{2 * sign * capped:+d}", farmer=f"{-sign * capped:+d}",
        ))  # fmt: skip


def piece_card(piece: str) -> int:
    """The card of a scene piece id ``k12``."""
    return int(piece[1:])


def _names(cards: Iterable[int]) -> str:
    return " ".join(card_name(card) for card in sorted(cards))


def _trailing_passes(bids: Sequence[tuple[int, int]]) -> int:
    count = 0
    for _, bid in reversed(bids):
        if bid:
            break
        count += 1
    return count


def _over_letter(record: Record) -> str | None:
    """The seat letter OVER names, as the format kept it (``OVER[B]``)."""
    text = record.header.result_text or ""
    if text.upper().startswith("OVER[") and text.endswith("]"):
        return text[5:-1].strip().upper() or None
    return None


def cap_of(record: Record) -> int | None:
    """The record's MS (the cap of a deal's score), from the header fields the format kept."""
    value = record.tags.get("MS", "")
    return int(value) or None if value.isdigit() else None


def replay(record: Record, game: GameType, options: Mapping[str, Any] | None = None) -> Replay:
    """Replay one deal; stop at the first line the rules refuse."""
    return DouDizhuEngine(game, options, cap_of(record)).replay(record)
