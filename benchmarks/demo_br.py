"""The demo archive's bridge event (BR): a team match of four teams, and random boards for the benchmarks.

    python benchmarks/demo_br.py [--out content]     # writes content/2025-br/

Four teams play a round robin of three rounds; each match is sixteen boards
played at two tables, the home team North-South in the open room and
East-West in the closed room, on the same deals. Each room's sixteen boards
are one PBN file, as a scoring program writes them: the deal, the auction,
the play trick by trick, contract, declarer, result, score and, comparing
the two rooms, the IMPs.

The programs are small and honest about it: each side sees its own two hands
(a computer match lets the organiser's tool pass both hands to one program),
bids its combined strength straight to a contract (the longest fit, else no
trump; the level from the points, one program a little bolder than the
other), the opponents double now and then when they hold the balance; the
play is greedy (win the trick cheaply where possible, else play low), and a
board whose last tricks are certain is claimed, as real players do.

Wrong on purpose, as real tournaments have them:

* one closed-room file was written by a scorer that forgets vulnerability
  in its Score tag: the score of one vulnerable board differs from the
  contract and result scored (an error naming both);
* one open-room board's log has a card the player did not hold at that
  point (a revoke typed into the record): the play stops there, the
  declared result stands;
* one file comes from a Windows program in GBK with CRLF line ends and the
  standard's own spelling ``Data`` for ``Date``.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.rules import bridge  # noqa: E402

FOLDER = "2025-br"
EVENT = "2025 中国计算机博弈锦标赛 · 桥牌"
PLACE = "北京"
TEAMS = ["清华·星火", "北航·苍穹", "中科大·墨子", "哈工大·冰城"]
BOARDS = 16
DAY = "2025.12.21"
CLOCKS = ("09:00", "13:30", "16:00")
RANKS = "23456789TJQKA"
SUITS = "SHDC"
HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}


@dataclass(slots=True)
class Table:
    """One board at one table: who sat where, the calls, the cards in play order, the outcome."""

    board: int
    room: str  # "Open" or "Closed"
    players: tuple[str, str, str, str]  # N E S W
    calls: list[str] = field(default_factory=list)
    cards: list[tuple[int, str]] = field(default_factory=list)
    contract: bridge.Contract | None = None
    tricks: int = 0  # won by declarer
    claimed_after: int = 13  # the tricks written before a claim
    score: int = 0  # North-South's
    fault: str = ""


def deal(rng: random.Random) -> list[list[str]]:
    cards = [suit + rank for suit in SUITS for rank in RANKS]
    rng.shuffle(cards)
    return [sorted(cards[13 * i : 13 * i + 13]) for i in range(4)]


def points(hand: list[str]) -> int:
    return sum(HCP.get(card[1], 0) for card in hand)


def choose_contract(hands: list[list[str]], bold: int, rng: random.Random) -> tuple[int, str, int] | None:
    """The stronger side's contract (declarer seat, strain, level); None: the board is passed out."""
    ns, ew = points(hands[0]) + points(hands[2]), points(hands[1]) + points(hands[3])
    side = 0 if ns >= ew else 1
    strength = max(ns, ew) + bold
    if strength < 20 + rng.randint(0, 1):
        return None
    pair = (side, side + 2)
    fits = {suit: sum(1 for seat in pair for card in hands[seat] if card[0] == suit) for suit in "SHDC"}
    best = max("SHDC", key=lambda s: (fits[s], "CDHS".index(s)))
    strain = best if fits[best] >= 8 else "N"
    if strength >= 33:
        level = 7
    elif strength >= 30:
        level = 6
    elif strength >= 25:
        level = 3 if strain == "N" else 4 if strain in "HS" else 5
    elif strength >= 23:
        level = 3 if strain != "N" else 2
    else:
        level = 2 if strength >= 21 else 1
    # The partner with more of the strain (the more points in no trump) declares.
    declarer = max(pair, key=lambda seat: sum(1 for c in hands[seat] if c[0] == strain) if strain != "N" else points(hands[seat]))
    return declarer, strain, level


def auction(board: int, hands: list[list[str]], bold: int, rng: random.Random) -> list[str]:
    """Passes up to the declarer, the contract bid at once, a double now and then, then passes."""
    dealer = bridge.board_dealer(board)
    chosen = choose_contract(hands, bold, rng)
    if chosen is None:
        return ["P"] * 4
    declarer, strain, level = chosen
    calls = ["P"] * ((declarer - dealer) % 4)
    calls.append(f"{level}{strain}")
    defenders = points(hands[(declarer + 1) % 4]) + points(hands[(declarer + 3) % 4])
    if defenders >= 15 and rng.random() < 0.5:
        calls += ["X", "P", "P", "P"]
    else:
        calls += ["P", "P", "P"]
    return calls


def choose_card(hand: list[str], trick: list[tuple[int, str]], trump: str, seat: int, low_leads: bool = False) -> str:
    """Greedy: lead the top (one program: the bottom) of the longest suit; follow with the cheapest winner, else play low."""

    def rank(card: str) -> int:
        return RANKS.index(card[1])

    if not trick:
        longest = max("SHDC", key=lambda s: (sum(1 for c in hand if c[0] == s), s == trump))
        suit = [c for c in hand if c[0] == longest]
        return min(suit, key=rank) if low_leads else max(suit, key=rank)
    led = trick[0][1][0]
    winner = bridge.trick_winner(trick, trump)
    partner_wins = winner % 2 == seat % 2
    follow = [c for c in hand if c[0] == led]
    options = follow or hand
    winning = [c for c in options if bridge.trick_winner([*trick, (seat, c)], trump) == seat]
    if winning and not partner_wins:
        return min(winning, key=rank)
    return min(options, key=lambda c: (c[0] == trump, rank(c)))


def play_board(table: Table, hands: list[list[str]], rng: random.Random) -> None:
    table.contract = bridge.contract_of(bridge.board_dealer(table.board), table.calls)
    vul = bridge.board_vulnerability(table.board)
    contract = table.contract
    if contract is None or contract.declarer is None:
        return
    held = [list(hand) for hand in hands]
    lead = (contract.declarer + 1) % 4
    won = 0
    for _ in range(13):
        trick: list[tuple[int, str]] = []
        for k in range(4):
            seat = (lead + k) % 4
            card = choose_card(held[seat], trick, contract.strain, seat, low_leads=table.room == "Closed")
            held[seat].remove(card)
            trick.append((seat, card))
        table.cards += trick
        lead = bridge.trick_winner(trick, contract.strain)
        won += lead % 2 == contract.declarer % 2
    table.tricks = won
    table.score = bridge.ns_score(contract, vul, won)
    if rng.random() < 0.3:  # the last tricks are clear: a claim
        table.claimed_after = rng.randint(8, 12)


def hand_text(cards: list[str]) -> str:
    return ".".join(
        "".join(c[1] for c in sorted((c for c in cards if c[0] == s), key=lambda c: -RANKS.index(c[1]))) for s in SUITS
    )


def pbn_board(table: Table, hands: list[list[str]], imps: int | None, data_tag: bool) -> list[str]:
    """One board in PBN: tags, the Auction section, the Play section in the opening leader's columns."""
    board = table.board
    dealer = bridge.SEAT_LETTERS[bridge.board_dealer(board)]
    vul = bridge.board_vulnerability(board)
    contract = table.contract
    home, visit = (table.players[0], table.players[1]) if table.room == "Open" else (table.players[1], table.players[0])
    lines = [
        f'[Event "{EVENT}"]',
        f'[Site "{PLACE}"]',
        f'[{"Data" if data_tag else "Date"} "{DAY}"]',
        f'[Board "{board}"]',
        f'[West "{table.players[3]}"]',
        f'[North "{table.players[0]}"]',
        f'[East "{table.players[1]}"]',
        f'[South "{table.players[2]}"]',
        f'[Dealer "{dealer}"]',
        f'[Vulnerable "{vul}"]',
        f'[Deal "N:{" ".join(hand_text(h) for h in hands)}"]',
        '[Scoring "IMP"]',
        f'[HomeTeam "{home}"]',
        f'[VisitTeam "{visit}"]',
        f'[Room "{table.room}"]',
        f'[Declarer "{bridge.SEAT_LETTERS[contract.declarer] if contract and contract.declarer is not None else ""}"]',
        f'[Contract "{contract.text if contract else "Pass"}"]',
        f'[Result "{table.tricks if contract else ""}"]',
    ]
    score = table.score
    if table.fault == "score-without-vulnerability" and contract is not None and contract.declarer is not None:
        wrong = bridge.duplicate_score(contract, False, table.tricks)
        score = wrong if contract.declarer % 2 == 0 else -wrong
    lines.append(f'[Score "NS {score}"]')
    if imps is not None:
        lines.append(f'[ScoreIMP "NS {imps}"]')
    lines.append(f'[Auction "{dealer}"]')
    calls = [bridge.call_label(c).replace("♠", "S").replace("♥", "H").replace("♦", "D").replace("♣", "C") for c in table.calls]
    lines += [" ".join(calls[i : i + 4]) for i in range(0, len(calls), 4)]
    if contract is not None and contract.declarer is not None:
        leader = (contract.declarer + 1) % 4
        lines.append(f'[Play "{bridge.SEAT_LETTERS[leader]}"]')
        cards = list(table.cards)
        if table.fault == "revoke":  # trick 3's second card swapped with the same player's card of trick 5
            a, b = 9, 17
            cards[a], cards[b] = (cards[a][0], cards[b][1]), (cards[b][0], cards[a][1])
        for t in range(table.claimed_after):
            by_seat = dict(cards[4 * t : 4 * t + 4])
            lines.append(" ".join(by_seat.get((leader + k) % 4, "-") for k in range(4)))
        lines.append("*")
    return lines


def event_files(seed: int = 2025) -> dict[str, bytes]:
    """File name -> bytes of every record of the event: one file per match and room."""
    files: dict[str, bytes] = {}
    rounds = [((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))]
    for r, pairs in enumerate(rounds):
        for m, (h, v) in enumerate(pairs):
            home, visit = TEAMS[h], TEAMS[v]
            rng = random.Random(f"{seed}:{r}:{m}")
            deals = [deal(rng) for _ in range(BOARDS)]
            tables: dict[str, list[Table]] = {"Open": [], "Closed": []}
            for room, players, bold in (
                ("Open", (home, visit, home, visit), h % 2),
                ("Closed", (visit, home, visit, home), v % 2),
            ):
                for b, hands in enumerate(deals, 1):
                    table = Table(b, room, players)
                    table.calls = auction(b, hands, bold, rng)
                    play_board(table, hands, rng)
                    tables[room].append(table)
            if (r, m) == (1, 0):
                vulnerable = next(
                    t
                    for t in tables["Closed"]
                    if t.contract
                    and t.contract.declarer is not None
                    and bridge.vulnerable(bridge.board_vulnerability(t.board), t.contract.declarer)
                    and t.tricks >= t.contract.level + 6
                )
                vulnerable.fault = "score-without-vulnerability"
            if (r, m) == (2, 1):
                played = next(
                    t
                    for t in tables["Open"]
                    if t.contract and len(t.cards) == 52 and t.claimed_after == 13 and _revoke_possible(t, deals[t.board - 1])
                )
                played.fault = "revoke"
            clock = CLOCKS[r]
            for room in ("Open", "Closed"):
                gbk = (r, m, room) == (0, 1, "Closed")
                lines: list[str] = ["% PBN 2.1", "% EXPORT", ""]
                for b, table in enumerate(tables[room]):
                    other = tables["Closed" if room == "Open" else "Open"][b]
                    difference = table.score - other.score
                    lines += pbn_board(table, deals[b], bridge.imps(difference), data_tag=gbk)
                    lines.append("")
                where = "开室" if room == "Open" else "闭室"  # the room: a segment the file name's reader passes over
                name = f"BR-{home} vs {visit}-{where}-{DAY} {clock.replace(':', '.')} {PLACE}-{EVENT}.pbn"
                text = ("\r\n" if gbk else "\n").join(lines)
                files[name] = text.encode("gbk" if gbk else "utf-8")
    return files


def _revoke_possible(table: Table, hands: list[list[str]]) -> bool:
    """Whether swapping the cards of trick 3 and trick 5 of one player makes a revoke (see pbn_board)."""
    a, b = table.cards[9], table.cards[17]
    if a[0] != b[0] or a[1][0] == b[1][0]:
        return False
    led = table.cards[8][1][0]
    return a[1][0] == led and b[1][0] != led


def main() -> None:
    import demo_event  # beside this script: only running it as one needs it

    demo_event.main(FOLDER, event_files, __doc__)


if __name__ == "__main__":
    main()
