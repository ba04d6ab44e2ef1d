"""Heads-up no-limit Texas hold'em, one hand a record, as the ACPC dealer plays it.

The rules (specs/README.md, THP; the ACPC reference code, ``project_acpc_server/game.c``):

* every hand starts from the same stacks, 20,000 chips by default, and the
  blinds 100 and 50 (the event may set ``stack``, ``big_blind`` and
  ``small_blind``). Seat 0 (the first player written) posts the big blind,
  seat 1 the small blind;
* four streets: pre-flop, flop (3 board cards), turn (1), river (1). The
  small blind acts first before the flop, the big blind first after it;
  in between, the players take turns;
* ``r N`` raises to N chips *in the pot for the whole hand*, not N more.
  The smallest raise-to is the largest commitment so far plus the largest
  raise of the street, and at least the big blind: 200 before the flop,
  commitment + 100 for a first bet on a later street. A player with fewer
  chips may still raise all in; an all-in raise smaller than a full raise
  does not lower the minimum (ACPC's ``minNoLimitRaiseTo`` never shrinks
  within a street). No raise above the stack, and none when the other
  player is all in;
* ``c`` calls what is owed (or checks when nothing is), all in where the
  stack is short; ``f`` folds, which ACPC allows only when something is owed;
* a street ends when every player still able to act has called the last
  bet (the big blind's pre-flop option included); when one player is all
  in and called, the remaining board is dealt without betting;
* a fold gives the other player the folder's chips in the pot; at a
  showdown the best five of seven cards wins the smaller of the two
  commitments, and equal hands split the pot (0 chips each);
* the nine cards of a hand (four hole cards, five board cards) are distinct.

The chips each seat won are the decision's score (rule ``"fold"`` or
``"showdown"``) and are checked against the chips the record declares. A
record that stops before the hand ends leaves the result to the declaration.

The scene: the blinds posted at the start; the first ply (the record's
first move, the deal of the hole cards) lays each seat's two cards
(``first-1``, ``first-2``, ``second-1``, ``second-2``) face down for
everyone, face up for the referee, and for each seat its own; its label,
which names them, only the referee's view reads. A showdown shows both
hands to every view. The board cards (``board-1`` … ``board-5``) come with
their deal; the pot, each seat's bet on this street and each stack are
numbers drawn digit by digit (see ``boards/holdem.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from itertools import combinations
from typing import Any

from generator import diagnostics, scene
from generator.diagnostics import Diagnostic
from generator.games import GameType
from generator.i18n import N_, Phrase, T, Term
from generator.model import SEATS, Decision, Move, Op, Ply, Record, Replay
from generator.rules.engine import Engine, Message

# Codes of this family: the 12xx block of RULE- (from 10 on: 00-09 are the format's).
BAD_RAISE = diagnostics.define(
    "RULE-E1210",
    "error",
    "A raise is too small, too large or not allowed (hold'em)",
    "r gives the chips in the pot for the whole hand after the raise. A raise must be at least the last "
    "raise of the street (and the big blind) above the largest commitment, unless it puts the player all in; "
    "it cannot exceed the stack, and nobody may raise a player who is all in.",
)
BAD_FOLD = diagnostics.define(
    "RULE-E1211",
    "error",
    "A player folds when nothing is owed (hold'em)",
    "ACPC allows a fold only when the player has a bet to call; with nothing to call the action is c (check).",
)
OUT_OF_STREET = diagnostics.define(
    "RULE-E1212",
    "error",
    "An action or a deal does not fit the betting round (hold'em)",
    "A street ends when the last bet is called (or checked round); the next street begins after a /. The "
    "message says whether a / is missing or one too many.",
)
SAME_CARD = diagnostics.define(
    "RULE-E1213",
    "error",
    "A card appears twice in one hand (hold'em)",
    "The four hole cards and the five board cards of a hand come from one deck: check the cards field.",
)
CHIPS_DIFFER = diagnostics.define(
    "RULE-E1214",
    "error",
    "The chips the record declares differ from the betting and the showdown (hold'em)",
    "The hand was played out, so its chips follow from the bets and the cards; correct the chips field. "
    "The page and the standings use the counted chips.",
)
NO_SHOWDOWN_CARDS = diagnostics.define(
    "RULE-W1210",
    "warning",
    "The hand reaches a showdown but not all its cards are written (hold'em)",
    "Write both players' hole cards and the whole board; the declared chips stand.",
)
UNFINISHED = diagnostics.define(
    "RULE-W1211",
    "warning",
    "The hand stops before a fold or a showdown (hold'em)",
    "The betting of the record ends while a player still has to act or a street is still to come; the "
    "declared chips stand.",
)
EXTRA_BOARD = diagnostics.define(
    "RULE-N1210",
    "note",
    "Board cards are written for streets the hand did not reach (hold'em)",
    "Nothing to do; the ACPC dealer writes only the streets played. The extra cards are not shown.",
)

RANKS = "23456789TJQKA"
STREET_NAMES = (T("preflop"), T("flop"), T("turn"), T("river"))
BOARD_CELLS = ((1, 2, 3), (4,), (5,))  # the board cells each deal fills
# Hand categories, weakest first: their names for notes.
CATEGORIES = (
    T("high card"), T("one pair"), T("two pair"), T("three of a kind"), T("straight"), T("flush"),
    T("full house"), T("four of a kind"), T("straight flush"),
)
DIGITS = 6  # the largest number a counter shows has this many digits


def rank_five(cards: tuple[str, ...]) -> tuple[int, ...]:
    """The value of a five-card hand: category (0 high card … 8 straight flush), then the ranks that break ties."""
    ranks = sorted((RANKS.index(card[0]) for card in cards), reverse=True)
    counts = Counter(ranks)
    flush = len({card[1] for card in cards}) == 1
    distinct = sorted(counts, reverse=True)
    straight_high = -1
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            straight_high = distinct[0]
        elif distinct == [12, 3, 2, 1, 0]:  # A-2-3-4-5: the ace plays low
            straight_high = 3
    if straight_high >= 0:
        return (8 if flush else 4, straight_high)
    # Ranks ordered by how often they appear, then by rank: (3, 3, 3, 9, 9) for a full house.
    grouped = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    shape = tuple(count for _, count in grouped)
    order = tuple(rank for rank, _ in grouped)
    if flush:
        return (5, *ranks)
    category = {(4, 1): 7, (3, 2): 6, (3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1}.get(shape, 0)
    return (category, *order)


def best_hand(cards: tuple[str, ...]) -> tuple[int, ...]:
    """The value of the best five of (up to) seven cards."""
    return max(rank_five(five) for five in combinations(cards, 5))


class HoldemEngine(Engine):
    """The replay of one hand: betting street by street, then a fold or a showdown.

    :meth:`read` gives a move's parts as the reader wrote them: ``("hole",
    "6cQh", "Ah6s")`` (the first move), ``("r", 300)``, ``("c",)``, ``("f",)``,
    ``("deal", street, card, …)``.
    """

    __slots__ = (
        "big", "board", "called", "folded", "holes", "line", "min_raise_to", "max_spent", "outcome",
        "pending_deal", "run_out", "shown", "spent", "stack", "street", "street_start", "total_board",
    )

    def __init__(self, game: GameType, options: Mapping[str, Any] | None, record: Record) -> None:
        super().__init__(game, options)
        options = options or game.options
        self.stack = int(options.get("stack", 20000))
        self.big = int(options.get("big_blind", 100))
        small = int(options.get("small_blind", 50))
        self.spent = [min(self.big, self.stack), min(small, self.stack)]  # seat 0 the big blind
        self.max_spent = max(self.spent)
        self.min_raise_to = 2 * self.max_spent if self.max_spent else 1
        self.street = 0
        self.street_start = [0, 0]  # what each seat had in when the street began (the blinds are pre-flop bets)
        self.called = 0  # ACPC's numCalled: players who called the current bet, the raiser included
        self.folded = [False, False]
        self.pending_deal = False  # a street ended: the next move must deal
        self.run_out = False  # both players all in (or one all in and called): deals only
        self.outcome: str | None = None
        setup = record.setup or ["", "", ""]
        self.holes = [_cards(setup[0]), _cards(setup[1])]
        self.total_board = _cards(setup[2]) if len(setup) > 2 else []
        self.board: list[str] = []
        self.shown = False  # the hole cards shown to their owners (the first ply)
        self.turn = 1  # the small blind acts first before the flop
        self.line = record.line
        self._check_cards(record)

    # -- set-up ------------------------------------------------------------------------

    def _check_cards(self, record: Record) -> None:
        cards = [*self.holes[0], *self.holes[1], *self.total_board]
        twice = sorted(card for card, n in Counter(cards).items() if n > 1)
        if twice:
            self.found.append(diagnostics.make(
                record.path, record.setup_line or record.line, 1, SAME_CARD,
                N_("the cards {cards} appear more than once in this hand"), cards=" ".join(twice),
            ))

    def setup(self) -> list[Op]:
        ops: list[Op] = []
        for seat in (0, 1):
            ops += _number(f"bet-{SEATS[seat]}", 0, self.spent[seat])
            ops += _number(f"stack-{SEATS[seat]}", 0, self.stack - self.spent[seat])
        return ops

    # -- the driver's hooks --------------------------------------------------------------

    def seat_of(self, letter: str) -> int | None:
        # Moves name no player: heads-up betting decides who acts (see the module's text).
        return self.turn if not letter else super().seat_of(letter)

    def read(self, move: Move) -> Any:
        return move.parts or None

    def play(self, move: Move, at: Any, number: int, seat: int) -> Ply | Diagnostic:
        if at[0] == "hole":
            return self._deal_holes(move, number, seat)
        if not self.shown:
            return self.error(
                OUT_OF_STREET, move, number,
                N_("move {number}, {move}: the hand has no hole cards; they are dealt before any action"),
            )
        before = self._numbers()
        label = _label(at, self.spent[seat] < max(self.spent))
        if at[0] == "deal":
            result = self._deal(move, at, number)
        else:
            result = self._act(move, at, number, seat)
        if isinstance(result, Diagnostic):
            return result
        ops = result
        ops += self._number_ops(before)
        if self.decision is not None and self.outcome == "showdown":
            ops += self._face_up(0) + self._face_up(1)  # shown down: every view sees both hands
        colour = self.colours[seat] if at[0] != "deal" else "deal"
        return Ply(number, SEATS[seat], colour, label, ops, move.mark, move.line, move.column, alt=move.text)

    def _deal_holes(self, move: Move, number: int, seat: int) -> Ply | Diagnostic:
        """The first ply: two cards face down before each seat; each seat sees its own, the referee both.

        Its label names the cards: only the referee's view reads it.
        """
        if self.shown:
            return self.error(
                OUT_OF_STREET, move, number, N_("move {number}, {move}: the hole cards are dealt a second time")
            )
        self.shown = True
        ops = [
            scene.add(_hole_id(s, i), "hidden", self.colours[s], f"{SEATS[s]}-{i}") for s in (0, 1) for i in (1, 2)
        ]
        ops.append(scene.note(N_("the hole cards are dealt")))
        label = " | ".join(" ".join(_pretty(card) for card in cards) or "?" for cards in self.holes)
        return Ply(number, SEATS[seat], "deal", label, ops, move.mark, move.line, move.column,
                   visible_to=(), hidden=self._reveal_to_owners())

    def finish(self, record: Record, replay: Replay) -> None:
        path, line = self.path, record.line
        decision = self.decision
        if decision is None:
            if record.moves and not replay.not_replayed and self.outcome is None:
                replay.diagnostics.append(diagnostics.make(
                    path, line, 1, UNFINISHED,
                    N_("the betting stops on the {street} before a fold or a showdown"),
                    street=STREET_NAMES[self.street],
                ))
            return
        if len(self.total_board) > len(self.board):
            replay.diagnostics.append(diagnostics.make(
                path, line, 1, EXTRA_BOARD,
                N_("board cards {cards} are written, but the hand ended on the {street}"),
                cards="".join(self.total_board[len(self.board):]),
                street=STREET_NAMES[self.street],
            ))
        declared = record.header.score
        if declared and decision.score and "first" in declared and "second" in declared:
            counted = (decision.score["first"], decision.score["second"])
            written = (float(declared["first"]), float(declared["second"]))
            if counted != written:
                replay.diagnostics.append(diagnostics.make(
                    path, line, 1, CHIPS_DIFFER,
                    N_("the record declares {first} {da} and {second} {db}, but the betting and "
                       "the cards give {first} {a} and {second} {b}"),
                    first=self.names[0], second=self.names[1],
                    da=_chips(written[0]), db=_chips(written[1]), a=_chips(counted[0]), b=_chips(counted[1]),
                ))

    # -- betting -------------------------------------------------------------------------

    def _act(self, move: Move, at: tuple[Any, ...], number: int, seat: int) -> list[Op] | Diagnostic:
        if self.pending_deal:
            return self.error(
                OUT_OF_STREET, move, number,
                N_("move {number}, {move}: the {street} betting was already over (both players had called); "
                   "a / must come before the next street's first action"),
                {"street": STREET_NAMES[self.street]},
            )
        kind = at[0]
        owed = self.max_spent - self.spent[seat]
        other = 1 - seat
        name = self.names[seat]
        ops: list[Op] = []
        if kind == "f":
            if owed <= 0 or self.spent[seat] >= self.stack:
                return self.error(
                    BAD_FOLD, move, number,
                    N_("move {number}, {move}: {side} folds, but nothing is owed (write c to check)"), {"side": name},
                )
            self.folded[seat] = True
            ops.append(scene.note(N_("{side} folds"), side=SEATS[seat]))
            self._end_by_fold(seat, number, ops)
            return ops
        if kind == "c":
            paid = min(self.max_spent, self.stack) - self.spent[seat]
            self.spent[seat] += max(paid, 0)
            if paid > 0:
                all_in = self.spent[seat] >= self.stack
                template = N_("{side} calls {chips} and is all in") if all_in else N_("{side} calls {chips}")
                ops.append(scene.note(template, side=SEATS[seat], chips=paid))
            else:
                ops.append(scene.note(N_("{side} checks"), side=SEATS[seat]))
            if self.spent[seat] < self.stack:
                self.called += 1
        else:
            to = int(at[1])
            problem = self._raise_problem(to, seat)
            if problem is not None:
                template, args = problem
                return self.error(BAD_RAISE, move, number, template, {"side": name, **args})
            bet = self.max_spent == self.street_start[seat] and self.max_spent == self.street_start[other] and self.street > 0
            self.min_raise_to = max(self.min_raise_to, 2 * to - self.max_spent)
            self.max_spent = self.spent[seat] = to
            self.called = 1 if to < self.stack else 0
            if to >= self.stack:
                template = N_("{side} goes all in: {chips} chips in the pot")
            elif bet:
                template = N_("{side} bets: {chips} chips in the pot")
            else:
                template = N_("{side} raises to {chips} chips in the pot")
            ops.append(scene.note(template, side=SEATS[seat], chips=to))
        self._after_action(number, ops)
        return ops

    def _raise_problem(self, to: int, seat: int) -> tuple[str, dict[str, Any]] | None:
        """Why raising to ``to`` is not allowed (template, arguments), or None (ACPC's raiseIsValid)."""
        acting = sum(1 for s in (0, 1) if not self.folded[s] and self.spent[s] < self.stack)
        if acting <= 1 or self.max_spent >= self.stack:
            return N_("move {number}, {move}: {side} raises, but the other player is all in: only c or f"), {}
        if to <= self.max_spent:
            return N_("move {number}, {move}: {side} raises to {to}, not above the {most} already in the pot "
                      "(r gives the total for the hand)"), {"to": to, "most": self.max_spent}
        if to > self.stack:
            return N_("move {number}, {move}: {side} raises to {to}, more than the stack of {stack}"), {
                "to": to, "stack": self.stack,
            }
        least = min(self.min_raise_to, self.stack)
        if to < least:
            return N_("move {number}, {move}: {side} raises to {to}; the smallest raise here is to {least} "
                      "(or all in to {stack})"), {"to": to, "least": least, "stack": self.stack}
        return None

    def _after_action(self, number: int, ops: list[Op]) -> None:
        """Whether the street (or the hand) is over after an action that was not a fold (ACPC's doAction)."""
        acting = sum(1 for s in (0, 1) if not self.folded[s] and self.spent[s] < self.stack)
        if self.called < acting:
            self.turn = 1 - self.turn
            return
        # The street is over: its bets go to the pot.
        self.street_start = list(self.spent)
        if acting > 1 and self.street < 3:
            self.pending_deal = True
            self.min_raise_to = self.max_spent + max(self.big, 1)
            self.called = 0
            self.turn = 0  # the big blind acts first after the flop
        elif acting > 1:
            self._showdown(number, ops)
        else:
            # Someone is all in and called: the rest of the board comes without betting.
            self.run_out = True
            if self.street < 3:
                self.pending_deal = True
                self.turn = 0
            else:
                self._showdown(number, ops)

    def _deal(self, move: Move, at: tuple[Any, ...], number: int) -> list[Op] | Diagnostic:
        street = int(at[1])
        if not self.pending_deal:
            seat = self.turn
            return self.error(
                OUT_OF_STREET, move, number,
                N_("move {number}, {move}: the {next} is dealt, but the {street} betting is not over: {side} "
                   "still has to act"),
                {"next": STREET_NAMES[min(street, 3)], "street": STREET_NAMES[self.street], "side": self.names[seat]},
            )
        self.street += 1
        self.pending_deal = False
        cards = list(at[2:])
        ops: list[Op] = []
        for cell, card in zip(BOARD_CELLS[self.street - 1], cards):
            ops.append(scene.add(f"board.{cell}", card, "deal", f"board-{cell}"))
        self.board += cards
        ops.append(scene.note(N_("the {street}"), street=STREET_NAMES[self.street]))
        self.turn = 0
        if self.run_out:
            if self.street < 3:
                self.pending_deal = True
            else:
                self._showdown(number, ops)
        return ops

    # -- the end ---------------------------------------------------------------------------

    def _end_by_fold(self, seat: int, number: int, ops: list[Op]) -> None:
        winner = 1 - seat
        won = self.spent[seat]
        score = {SEATS[winner]: float(won), SEATS[seat]: float(-won)}
        self.outcome = "fold"
        self.decision = Decision(
            SEATS[winner], "fold", number, (), {"first": score["first"], "second": score["second"]},
            reason=N_("{loser} folded: {winner} wins {chips} chips"),
            reason_args=(("chips", won), ("loser", self.names[seat]), ("winner", self.names[winner])),
        )
        ops.append(scene.note(N_("{winner} wins {chips} chips"), winner=SEATS[winner], chips=won))

    def _showdown(self, number: int, ops: list[Op]) -> None:
        self.pending_deal = False
        holes, board = self.holes, self.board
        if len(holes[0]) != 2 or len(holes[1]) != 2 or len(board) != 5:
            self.outcome = "unknown"  # shown down, but who won is not written
            self.found.append(diagnostics.make(
                self.path, self.line, 1, NO_SHOWDOWN_CARDS,
                N_("the hand is shown down after move {number}, but its cards are not all written: the declared "
                   "chips stand"),
                number=number,
            ))
            return
        values = [best_hand((*holes[s], *board)) for s in (0, 1)]
        pot = min(self.spent)
        if values[0] == values[1]:
            score = {"first": 0.0, "second": 0.0}
            ops.append(scene.note(N_("both have {hand}: the pot is split"), hand=CATEGORIES[values[0][0]]))
        else:
            winner = 0 if values[0] > values[1] else 1
            score = {SEATS[winner]: float(pot), SEATS[1 - winner]: float(-pot)}
            ops.append(scene.note(N_("{winner} wins {chips} chips with {hand}"), winner=SEATS[winner], chips=pot,
                                  hand=CATEGORIES[values[winner][0]]))
        self.outcome = "showdown"
        self.decision = Decision.from_scores(score, "showdown", number)
        self.decision.reason = N_("showdown: {first} has {a}, {second} {b}")
        self.decision.reason_args = (
            ("a", CATEGORIES[values[0][0]]), ("b", CATEGORIES[values[1][0]]),
            ("first", self.names[0]), ("second", self.names[1]),
        )

    # -- the scene -------------------------------------------------------------------------

    def _numbers(self) -> dict[str, int]:
        """What the counters on the table show now: the pot, each bet on this street, each stack."""
        numbers = {"pot": sum(self.street_start)}
        if self.decision is None:
            for seat in (0, 1):
                numbers[f"bet-{SEATS[seat]}"] = self.spent[seat] - self.street_start[seat]
                numbers[f"stack-{SEATS[seat]}"] = self.stack - self.spent[seat]
        return numbers

    def _number_ops(self, before: dict[str, int]) -> list[Op]:
        after = self._numbers()
        if self.decision is not None and self.decision.score:
            # The hand is over: the pot has gone to the winner (or back, split).
            after["pot"] = 0
            for seat in (0, 1):
                after[f"bet-{SEATS[seat]}"] = 0
                after[f"stack-{SEATS[seat]}"] = self.stack + int(self.decision.score[SEATS[seat]])
        ops: list[Op] = []
        for key in sorted(after):
            old, new = before.get(key, 0), after[key]
            if old != new:
                ops += _number(key, old, new)
        return ops

    def _reveal_to_owners(self) -> list[tuple[tuple[str, ...], list[Op]]]:
        groups: list[tuple[tuple[str, ...], list[Op]]] = [(("referee",), self._face_up(0) + self._face_up(1))]
        for seat in (0, 1):
            groups.append(((SEATS[seat],), self._face_up(seat)))
        return groups

    def _face_up(self, seat: int) -> list[Op]:
        return [scene.set_kind(_hole_id(seat, i + 1), card) for i, card in enumerate(self.holes[seat][:2])]

    # -- what the driver's diagnostics say ------------------------------------------------

    def ended(self) -> Message:
        end = self.decision.ply if self.decision else 0
        if self.outcome == "fold":
            return N_("move {number}, {move}: the hand ended with a fold at move {end}; nothing may follow"), {"end": end}
        return N_("move {number}, {move}: the hand was shown down at move {end}; nothing may follow"), {"end": end}


def _hole_id(seat: int, i: int) -> str:
    return f"hole.{SEATS[seat]}.{i}"


def _cards(text: str) -> list[str]:
    return [text[i : i + 2] for i in range(0, len(text) - 1, 2)]


def _number(key: str, old: int, new: int) -> list[Op]:
    """The operations that change a number shown digit by digit (cells ``key-<length>-<i>``; 0 shows nothing).

    A chip (cell ``key-chip``) lies beside every number shown.
    """
    ops: list[Op] = []
    old_text = str(old) if old > 0 else ""
    new_text = str(new) if new > 0 else ""
    if new_text and not old_text:
        ops.append(scene.add(f"{key}.chip", "chip", "deal", f"{key}-chip"))
    elif old_text and not new_text:
        ops.append(scene.remove(f"{key}.chip"))
    if len(old_text) == len(new_text):
        for i, (a, b) in enumerate(zip(old_text, new_text)):
            if a != b:
                ops.append(scene.set_kind(f"{key}.{i}", f"digit-{b}"))
        return ops
    ops += [scene.remove(f"{key}.{i}") for i in range(len(old_text))]
    ops += [scene.add(f"{key}.{i}", f"digit-{d}", "deal", f"{key}-{len(new_text)}-{i}") for i, d in enumerate(new_text)]
    return ops


def _label(at: tuple[Any, ...], facing_a_bet: bool) -> str:
    """The move list's text, in players' words said in the page's language (raise to 300, call,
    check, fold), a deal as its cards (``8♦ A♠ 8♠``); the ACPC text shows on hover."""
    if at[0] == "deal":
        return " ".join(_pretty(card) for card in at[2:])
    if at[0] == "r":
        return Phrase(N_("raise to {amount}"), amount=at[1])
    if at[0] == "f":
        return Term(N_("fold"))
    return Term(N_("call") if facing_a_bet else N_("check"))


_SUIT_SIGNS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


def _pretty(card: str) -> str:
    return ("10" if card[0] == "T" else card[0]) + _SUIT_SIGNS.get(card[1], card[1])


def _chips(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def category_name(value: tuple[int, ...]) -> Term:
    """The name of a hand's category, for notes and tests: ``best_hand(...)`` -> "full house"."""
    return CATEGORIES[value[0]]


def replay(record: Record, game: GameType, options: Mapping[str, Any] | None = None) -> Replay:
    """Replay one hand action by action; stop at the first action the rules do not allow.

    The decision (rule ``"fold"`` or ``"showdown"``, its score the chips each
    seat won) comes with the fold or the last call or deal before the
    showdown; a record that stops before leaves it None.
    """
    return HoldemEngine(game, options, record).replay(record)
