"""The demo archive's heads-up no-limit hold'em event (THP), and random matches for the benchmarks.

    python benchmarks/demo_thp.py [--out content]     # writes content/2025-thp/

A round robin of four teams: every pair plays one match of 70 hands, the
national final's length, in one file, the two teams taking the big blind
in turn. Each hand is dealt from a shuffled deck and played by small bots
of different styles (tight, loose, aggressive) through Qipu's own rules
(generator/rules/holdem.py), so every action is legal and every chip count
is the one the rules give.

The files come from two writers, as at a real event:

* the organiser's tool: the standard's lines (``STATE:…;`` with the team
  names, big blind first), the closing line ``{[THP][A][B][A 赢得 N 个筹码]
  [time place][event]}``, GB2312 as the standard says; one of its files
  writes the players as the standard's example does (``A|B``) and only the
  closing line names the teams (a note: the names are matched in order);
* the ACPC dealer one team ran its match on: ``#`` comment lines, no ``;``,
  a ``SCORE:`` line with the totals instead of a closing line (a warning),
  UTF-8.

Wrong on purpose, as real tournaments have them:

* one bot raises by less than the last raise once (an error at that action;
  the rest of the hand is shown as not replayed and its declared chips stand);
* one closing line has two digits of its total swapped (typed by hand): an
  error at the closing line, which no longer agrees with the sum of the hands.
"""

from __future__ import annotations

import itertools
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator import games  # noqa: E402
from generator.model import Metadata, Move, Ply, Record  # noqa: E402
from generator.rules import holdem  # noqa: E402

FOLDER = "2025-thp"
EVENT = "2025 中国计算机博弈锦标赛 · 德州扑克"
PLACE = "重庆"
TEAMS = ["北邮·扑克王", "重大·山城", "东北大学·雪原", "哈工大·冰城"]
STYLES = {  # team -> (raise at, call at, bluff): the bots' tempers
    "北邮·扑克王": (0.62, 0.35, 0.10),
    "重大·山城": (0.72, 0.45, 0.05),
    "东北大学·雪原": (0.55, 0.25, 0.20),
    "哈工大·冰城": (0.68, 0.30, 0.12),
}
HANDS = 70
DEALER_TEAM = "东北大学·雪原"  # its matches were run on the ACPC dealer
GENERIC = ("北邮·扑克王", "哈工大·冰城")  # this match's file writes the players A|B
SMALL_RAISE = ("重大·山城", "哈工大·冰城")  # a bot raises too little once in this match
TYPO = ("北邮·扑克王", "重大·山城")  # the closing line's total mistyped
DAYS = ("2025.12.13", "2025.12.14")
SLOTS = ("09:00", "14:00", "16:30")
THP = games.GAMES["THP"]
DECK = [rank + suit for suit in "cdhs" for rank in holdem.RANKS]


@dataclass(slots=True)
class Hand:
    names: tuple[str, str]  # big blind first
    betting: str
    cards: str
    chips: tuple[int, int]


@dataclass(slots=True)
class Match:
    first: str
    second: str
    day: str
    clock: str
    hands: list[Hand] = field(default_factory=list)

    @property
    def total(self) -> int:
        """The chips ``first`` won over the match."""
        return sum(h.chips[0] if h.names[0] == self.first else h.chips[1] for h in self.hands)


# -- the bots ------------------------------------------------------------------------------


def strength(holes: list[str], board: list[str]) -> float:
    """How good a hand looks, 0 to 1: the hole cards before the flop, the best hand after it."""
    ranks = sorted((holdem.RANKS.index(c[0]) for c in holes), reverse=True)
    if not board:
        value = (ranks[0] + ranks[1]) / 26 + (0.3 + ranks[0] / 40 if ranks[0] == ranks[1] else 0)
        return min(1.0, value + (0.05 if holes[0][1] == holes[1][1] else 0))
    category = holdem.best_hand((*holes, *board))[0]
    return min(1.0, 0.15 + category / 6 + ranks[0] / 60)


def choose(engine: holdem.HoldemEngine, seat: int, rng: random.Random, style: tuple[float, float, float]) -> tuple:
    raise_at, call_at, bluff = style
    owed = engine.max_spent - engine.spent[seat]
    pot = sum(engine.spent)
    s = strength(engine.holes[seat], engine.board) + rng.uniform(-bluff, bluff)
    least = min(engine.min_raise_to, engine.stack)
    if s > raise_at and engine._raise_problem(least, seat) is None:
        if s > 0.93 and rng.random() < 0.3:
            return ("r", engine.stack)
        to = engine.max_spent + int(pot * rng.choice((0.5, 0.75, 1.0)))
        return ("r", max(least, min(engine.stack, to)))
    if owed <= 0:
        return ("c",)
    if s > call_at or owed * 3 <= pot or rng.random() < bluff:
        return ("c",)
    return ("f",)


def play_hand(names: tuple[str, str], rng: random.Random) -> Hand:
    deck = DECK[:]
    rng.shuffle(deck)
    holes, board = [deck[0:2], deck[2:4]], deck[4:9]
    setup = ["".join(holes[0]), "".join(holes[1]), "".join(board)]
    engine = holdem.HoldemEngine(THP, THP.options, Record("demo", "THP", Metadata(), [], setup=setup))
    deal: tuple = ("hole", setup[0], setup[1])
    engine.play(Move("", "|".join(deal[1:]), None, 1, 1, parts=deal), deal, 1, engine.turn)
    text: list[str] = []
    number = 1
    while engine.decision is None:
        number += 1
        if engine.pending_deal:
            cards = holdem.BOARD_CELLS[engine.street]
            parts: tuple = ("deal", engine.street + 1, *(board[c - 1] for c in cards))
            text.append("/")
        else:
            seat = engine.turn
            parts = choose(engine, seat, rng, STYLES[names[seat]])
            text.append(f"r{parts[1]}" if parts[0] == "r" else parts[0])
        ply = engine.play(Move("", text[-1], None, 1, 1, parts=parts), parts, number, engine.turn)
        assert isinstance(ply, Ply), ply
    assert engine.decision is not None and engine.decision.score
    shown = "".join(holes[0]) + "|" + "".join(holes[1])
    dealt = [board[0:3], board[3:4], board[4:5]][: engine.street]
    cards = shown + "".join("/" + "".join(street) for street in dealt)
    chips = (int(engine.decision.score["first"]), int(engine.decision.score["second"]))
    return Hand(names, "".join(text), cards, chips)


def play_match(first: str, second: str, day: str, clock: str, rng: random.Random) -> Match:
    match = Match(first, second, day, clock)
    for n in range(HANDS):
        names = (first, second) if n % 2 == 0 else (second, first)
        match.hands.append(play_hand(names, rng))
    return match


def raise_too_little(match: Match, rng: random.Random) -> None:
    """One hand's re-raise made smaller than the raise before it (a bot's bug)."""
    for index in rng.sample(range(len(match.hands)), len(match.hands)):
        hand = match.hands[index]
        street = hand.betting.split("/")[0]
        raises = [int(x) for x in street.replace("c", " ").replace("f", " ").replace("r", " ").split()]
        if len(raises) >= 2 and raises[1] < holdem_stack():
            first, second = raises[0], raises[1]
            lowered = first + max(1, (first - 100) // 2)  # raised by half the last raise: too little
            if first < lowered < second:
                hand.betting = hand.betting.replace(f"r{second}", f"r{lowered}", 1)
                return
    raise AssertionError("no hand with a re-raise to make too small")


def holdem_stack() -> int:
    return int(THP.options["stack"])


# -- the files ------------------------------------------------------------------------------


def _when(match: Match) -> tuple[str, str]:
    """The closing line's time and place, and the file name's 12 digits."""
    y, m, d = match.day.split(".")
    return f"{match.day} {match.clock} {PLACE}", f"{y}{m}{d}{match.clock.replace(':', '')}"


def organiser_file(match: Match, generic: bool = False, typo: bool = False) -> bytes:
    letters = {match.first: "A", match.second: "B"}
    lines = []
    for n, hand in enumerate(match.hands, 1):
        names = "|".join(letters[t] if generic else t for t in hand.names)
        lines.append(f"STATE:{n}:{hand.betting}:{hand.cards}:{hand.chips[0]}|{hand.chips[1]}:{names};")
    total = match.total
    winner, chips = (match.first, total) if total >= 0 else (match.second, -total)
    written = str(chips)
    if typo and len(written) >= 2:
        written = written[:-2] + written[-1] + written[-2]  # two digits swapped by hand
        if written == str(chips):
            written = str(chips + 9)
    when, _ = _when(match)
    lines.append(f"{{[THP][{match.first}][{match.second}][{winner} 赢得 {written} 个筹码][{when}][{EVENT}]}}")
    return ("\r\n".join(lines) + "\r\n").encode("gb18030")


def dealer_file(match: Match) -> bytes:
    lines = [
        "# name/game/hands/seed ccgc2025.thp holdem.nolimit.2p.reverse_blinds.game 70 20251213",
        "#--t_response 600000",
        "#--t_hand 600000",
    ]
    for n, hand in enumerate(match.hands):
        names = "|".join(hand.names)
        lines.append(f"STATE:{n}:{hand.betting}:{hand.cards}:{hand.chips[0]}|{hand.chips[1]}:{names}")
    total = match.total
    lines.append(f"SCORE:{total}|{-total}:{match.first}|{match.second}")
    return ("\n".join(lines) + "\n").encode("utf-8")


def file_name(match: Match) -> str:
    total = match.total
    winner = match.first if total > 0 else match.second if total < 0 else ""
    result = f"{winner}胜" if winner else "平局"
    _, stamp = _when(match)
    return f"THP-{match.first} vs {match.second}-{result}-{stamp}-{EVENT}.txt"


def event_files(seed: int = 2025) -> dict[str, bytes]:
    """File name -> bytes of the demo event: six matches of 70 hands."""
    rng = random.Random(seed)
    out: dict[str, bytes] = {}
    slots = itertools.cycle([(day, clock) for day in DAYS for clock in SLOTS])
    for first, second in itertools.combinations(TEAMS, 2):
        day, clock = next(slots)
        match = play_match(first, second, day, clock, rng)
        pair = (first, second)
        if pair == SMALL_RAISE:
            raise_too_little(match, rng)
        if DEALER_TEAM in pair:
            out[file_name(match).replace(".txt", ".log")] = dealer_file(match)
        else:
            out[file_name(match)] = organiser_file(match, generic=pair == GENERIC, typo=pair == TYPO)
    return out


def main() -> None:
    import demo_event  # beside this script: only running it as one needs it

    demo_event.main(FOLDER, event_files, __doc__)


if __name__ == "__main__":
    main()
