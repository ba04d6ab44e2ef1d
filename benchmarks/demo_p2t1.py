"""The demo archive's Dou Dizhu event (P2T1): sessions of three teams, several deals each.

    python benchmarks/demo_p2t1.py [--out content]     # writes content/2025-p2t1/

Six teams play two rounds; in each round they sit at two tables of three,
and a table's session is six deals, one file per session. Every deal is
dealt from a seeded shuffle and played by a small greedy player through
Qipu's own Dou Dizhu rules (generator/rules/doudizhu.py): a seat bids by the
strength of its hand (jokers, 2s, bombs, aces), leads its lowest play
(straights and airplanes first), beats the last play as cheaply as it can
and saves its bombs unless an opponent is about to go out; a farmer lets
its partner's play stand. Whoever bids first turns with the deal.

The records come from two writers, as at a real event:

* the referee platform: one file per session, each deal in its own
  brackets, the header fields in every deal, GBK (the standard's GB2312)
  with CRLF line ends, named as the standard says
  (``P2T1-A vs B vs C-2025.12.20 09:00 北京-赛事.txt``);
* a team's own logger for one session: UTF-8, no brackets between deals,
  the team names only in the first deal, full-width semicolons (``；``).

Wrong on purpose, as real tournaments have them:

* in one deal the logger writes ``OVER`` with the farmer who did not go
  out (its partner did): an error at that deal's last play;
* in one deal the platform writes a card of a play off by one (the
  number of the next card of the table): the seat does not hold it, an
  error at that play, and the rest of the deal is shown as not replayed
  (its ``OVER`` stands as declared);
* one deal nobody bids for: void, as the rules say, and the page says so.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.rules import doudizhu as dd  # noqa: E402

FOLDER = "2025-p2t1"
EVENT = "2025 中国计算机博弈锦标赛 · 斗地主"
PLACE = "北京"
TEAMS = ["北理工·斗神", "哈工大·地主", "东北大学·春天", "重大·炸弹", "沈航·王炸", "安大·飞机"]
# Two rounds, two tables each: every team plays one session a round.
TABLES = (((0, 1, 2), (3, 4, 5)), ((3, 0, 1), (2, 4, 5)))
DAYS = ("2025.12.20", "2025.12.21")
CLOCKS = ("09:00", "14:00")
DEALS = 6  # RC: deals a session
CAP = 24  # MS: the cap of a deal's score
LOGGER = (1, 0)  # the session (round, table) written by a team's logger
LETTERS = "ABC"


@dataclass(slots=True)
class Deal:
    hands: list[list[int]]
    bottom: list[int]
    first_bidder: int
    bids: list[tuple[int, int]] = field(default_factory=list)  # (seat, bid)
    landlord: int | None = None
    plays: list[tuple[int, list[int] | None]] = field(default_factory=list)  # (seat, cards); None a pass
    over: int | None = None  # the seat that went out
    fault: str = ""


@dataclass(slots=True)
class Session:
    teams: tuple[str, str, str]
    round: int
    table: int
    deals: list[Deal] = field(default_factory=list)


# -- the player -----------------------------------------------------------------------


def _by_rank(hand: Sequence[int]) -> dict[int, list[int]]:
    ranks: dict[int, list[int]] = {}
    for card in sorted(hand):
        ranks.setdefault(dd.rank_of(card), []).append(card)
    return ranks


def candidates(hand: Sequence[int]) -> list[list[int]]:
    """Plays the player considers: sets of a rank, trios with a kicker, straights, airplanes, bombs, the rocket."""
    ranks = _by_rank(hand)
    singles = [cards[0] for rank, cards in sorted(ranks.items()) if len(cards) == 1]
    out: list[list[int]] = []
    for rank, cards in sorted(ranks.items()):
        for n in range(1, len(cards) + 1):
            out.append(cards[:n])
        if len(cards) >= 3:
            kicker = next((c for c in singles if dd.rank_of(c) != rank), None)
            if kicker is not None:
                out.append(cards[:3] + [kicker])
            pair = next((other[:2] for r, other in sorted(ranks.items()) if r != rank and len(other) == 2), None)
            if pair:
                out.append(cards[:3] + pair)
        if len(cards) == 4 and len(singles) >= 2:
            out.append(cards + singles[:2])  # four with two
    for width, least in ((1, 5), (2, 3), (3, 2)):
        for start in range(0, dd.ACE + 1):
            run: list[int] = []
            for rank in range(start, dd.ACE + 1):
                if len(ranks.get(rank, [])) < width:
                    break
                run += ranks[rank][:width]
                if (rank - start + 1) >= least:
                    out.append(list(run))
                    if width == 3:  # an airplane with single wings
                        wings = [c for c in singles if not start <= dd.rank_of(c) <= rank][: rank - start + 1]
                        if len(wings) == rank - start + 1:
                            out.append(run + wings)
    return [play for play in out if dd.classify(play)]


def choose(rng: random.Random, hand: list[int], top: list[dd.Kind], top_seat: int, seat: int,
           landlord: int, left: Sequence[int]) -> list[int] | None:
    """The play of ``seat`` (None: a pass); ``left`` the cards each seat holds."""
    options = candidates(hand)
    if not top:
        plain = [p for p in options if not dd.classify(p)[0].bomb] or options
        plain.sort(key=lambda p: (dd.classify(p)[0].rank - len(p) // 2, -len(p)))
        return rng.choice(plain[:2])
    beating = [p for p in options if dd.answers(dd.classify(p), top)]
    if not beating:
        return None
    going_out = [p for p in beating if len(p) == len(hand)]
    if going_out:
        return going_out[0]
    if seat != landlord and top_seat != landlord:
        return None  # the partner's play stands
    plain = [p for p in beating if not dd.classify(p)[0].bomb]
    if plain:
        plain.sort(key=lambda p: dd.classify(p)[0].rank)
        return plain[0] if rng.random() < 0.9 else None
    danger = left[top_seat] <= 4
    return beating[0] if danger or rng.random() < 0.3 else None


def strength(hand: Sequence[int]) -> float:
    ranks = _by_rank(hand)
    jokers = len(ranks.get(dd.BLACK, [])) + len(ranks.get(dd.RED, []))
    return 2 * jokers + len(ranks.get(dd.TWO, [])) + sum(2 for cards in ranks.values() if len(cards) == 4) + len(
        ranks.get(dd.ACE, [])
    ) / 2


def play_deal(rng: random.Random, first_bidder: int, force_void: bool = False) -> Deal:
    pack = list(range(dd.CARDS))
    rng.shuffle(pack)
    hands = [sorted(pack[17 * seat : 17 * seat + 17]) for seat in range(3)]
    deal = Deal(hands, sorted(pack[51:]), first_bidder)
    highest = 0
    for k in range(3):
        seat = (first_bidder + k) % 3
        power = strength(hands[seat])
        want = 0 if force_void else 3 if power >= 7 else 2 if power >= 5 else 1 if power >= 3 else 0
        bid = want if want > highest else 0
        deal.bids.append((seat, bid))
        if bid:
            highest, deal.landlord = bid, seat
        if bid == 3:
            break
    if deal.landlord is None:
        return deal
    held = [list(hand) for hand in hands]
    held[deal.landlord] += deal.bottom
    seat, top, top_seat = deal.landlord, [], -1
    while True:
        left = [len(cards) for cards in held]
        cards = choose(rng, held[seat], top, top_seat, seat, deal.landlord, left)
        deal.plays.append((seat, cards))
        if cards is not None:
            kinds = dd.classify(cards)
            top = dd.answers(kinds, top) if top else kinds
            top_seat = seat
            for card in cards:
                held[seat].remove(card)
            if not held[seat]:
                deal.over = seat
                return deal
        seat = (seat + 1) % 3
        if seat == top_seat:
            top = []


# -- the records ------------------------------------------------------------------------


def deal_lines(session: Session, number: int, deal: Deal, header: bool, over: int | None) -> list[str]:
    lines = []
    if header:
        lines.append(f";VER[1.0]PA[{session.teams[0]}]PB[{session.teams[1]}]PC[{session.teams[2]}]")
    lines.append(f";TI[{session.round}]TC[2]RI[{number}]RC[{DEALS}]UC[3]MS[{CAP}]")
    lines += [f";D{LETTERS[seat]}[{','.join(map(str, hand))}]" for seat, hand in enumerate(deal.hands)]
    lines += [f";B{LETTERS[seat]}[{bid}]" for seat, bid in deal.bids]
    if deal.landlord is not None:
        lines.append(f";L{LETTERS[deal.landlord]}[{','.join(map(str, deal.bottom))}]")
    for seat, cards in deal.plays:
        lines.append(f";{LETTERS[seat]}[{','.join(map(str, cards)) if cards else -1}]")
    if over is not None:
        lines.append(f";OVER[{LETTERS[over]}]")
    return lines


def file_name(session: Session) -> str:
    day, clock = DAYS[session.round - 1], CLOCKS[session.table]
    return f"P2T1-{' vs '.join(session.teams)}-{day} {clock} {PLACE}-{EVENT}.txt"


def platform_file(session: Session) -> tuple[str, bytes]:
    lines: list[str] = []
    for number, deal in enumerate(session.deals, 1):
        lines += ["(", *deal_lines(session, number, deal, True, deal.over), ")"]
    return file_name(session), ("\r\n".join(lines) + "\r\n").encode("gb18030")


def logger_file(session: Session) -> tuple[str, bytes]:
    lines: list[str] = []
    for number, deal in enumerate(session.deals, 1):
        over = deal.over
        if deal.fault == "over" and deal.landlord is not None and over is not None:
            over = next(s for s in range(3) if s not in (deal.landlord, over))  # the other farmer
        lines += [line.replace(";", "；", 1) for line in deal_lines(session, number, deal, number == 1, over)]
    return file_name(session), ("\n".join(lines) + "\n").encode("utf-8")


def event_files(seed: int = 2025) -> dict[str, bytes]:
    """File name -> bytes of every record of the event."""
    rng = random.Random(seed)
    files: dict[str, bytes] = {}
    void_done = False
    for round_index, tables in enumerate(TABLES, 1):
        for table, seats in enumerate(tables):
            session = Session((TEAMS[seats[0]], TEAMS[seats[1]], TEAMS[seats[2]]), round_index, table)
            for number in range(DEALS):
                force_void = not void_done and round_index == 1 and table == 1 and number == 2
                deal = play_deal(rng, number % 3, force_void)
                void_done = void_done or deal.landlord is None
                session.deals.append(deal)
            logged = (round_index - 1, table) == LOGGER
            if logged:
                _spoil_over(session)
            elif round_index == 1 and table == 0:
                _spoil_card(session)
            name, data = logger_file(session) if logged else platform_file(session)
            files[name] = data
    return files


def _spoil_over(session: Session) -> None:
    """The logger's OVER names the wrong farmer in the first deal the farmers won."""
    for deal in session.deals:
        if deal.landlord is not None and deal.over is not None and deal.over != deal.landlord:
            deal.fault = "over"
            return
    raise RuntimeError("no deal won by the farmers to spoil")


def _spoil_card(session: Session) -> None:
    """The platform writes a card number off by one in a play of a deal played out (the next card of the table)."""
    for deal in session.deals[1:]:
        for k, (seat, cards) in enumerate(deal.plays[4:], 4):
            if cards and len(cards) == 1 and cards[0] + 1 < dd.SMALL_JOKER:
                owner = deal.hands[seat] + (deal.bottom if seat == deal.landlord else [])
                if cards[0] + 1 not in owner:
                    deal.plays[k] = (seat, [cards[0] + 1])
                    deal.fault = "card"
                    return
    raise RuntimeError("no play to spoil")


def main() -> None:
    import demo_event  # beside this script: only running it as one needs it

    demo_event.main(FOLDER, event_files, __doc__)


if __name__ == "__main__":
    main()
