"""Bridge against its oracles: duplicate scoring against endplay, auctions and play against OpenSpiel.

* endplay 0.5.12 ``Contract.score``: thousands of random contracts, results
  and vulnerabilities scored by Qipu's :func:`duplicate_score` and by endplay.
* OpenSpiel ``bridge`` (``use_double_dummy_result=False``): random deals,
  random legal auctions and random legal play to the end, written as PBN
  (the deal, the Auction section from the dealer, the Play section in the
  opening leader's columns, Contract, Declarer, Result, Score), read and
  replayed by Qipu: the same contract and declarer, the same tricks, the
  same score as OpenSpiel's returns, and no diagnostic but notes. Some
  boards are written by endplay's own PBN writer instead, a real writer.

endplay's two pitfalls (../shared/ORACLES.md 3.9) are kept clear of: its
``Board.contract`` is never read (the contract comes from OpenSpiel's
auction), and its trick count is never used.

The default run plays a small seeded sample. The long run is marked
``bridge_long``::

    QIPU_BRIDGE_BOARDS=2000 python -m pytest -m bridge_long tests/test_bridge_oracle.py -p no:warnings -rP
"""

from __future__ import annotations

import os
import random

import pytest

from generator import games
from generator.model import Source
from generator.pipeline import process_games, sha256
from generator.rules import bridge

SEATS = "NESW"
SUITS = "CDHS"  # OpenSpiel: card = rank * 4 + suit
RANKS = "23456789TJQKA"
VULS = ("None", "NS", "EW", "All")
SAMPLE, LONG = 60, 2000


def _endplay():
    return pytest.importorskip("endplay", reason="endplay==0.5.12 is a test dependency (see /tmp/h20-br/test-deps.txt)")


def _pyspiel():
    return pytest.importorskip("pyspiel", reason="open-spiel is a test dependency")


@pytest.fixture
def long_run(request: pytest.FixtureRequest) -> None:
    if "bridge_long" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("the long bridge run: python -m pytest -m bridge_long tests/test_bridge_oracle.py")


# -- scoring against endplay ----------------------------------------------------------------------


def _score_many(count: int, seed: int) -> tuple[int, int]:
    _endplay()
    from endplay.types import Contract, Denom, Penalty, Player, Vul

    denoms = {"C": Denom.clubs, "D": Denom.diamonds, "H": Denom.hearts, "S": Denom.spades, "N": Denom.nt}
    penalties = (Penalty.passed, Penalty.doubled, Penalty.redoubled)
    rng = random.Random(seed)
    compared = differ = 0
    for _ in range(count):
        level, strain, doubled = rng.randint(1, 7), rng.choice("CDHSN"), rng.randint(0, 2)
        declarer, vul = rng.randrange(4), rng.choice(VULS)
        tricks = rng.randint(0, 13)
        theirs = Contract(
            level=level,
            denom=denoms[strain],
            penalty=penalties[doubled],
            declarer=Player.find(SEATS[declarer]),
            result=tricks - level - 6,
        )
        vul_type = {"None": Vul.none, "NS": Vul.ns, "EW": Vul.ew, "All": Vul.both}[vul]
        ours = bridge.duplicate_score(bridge.Contract(level, strain, doubled, declarer), bridge.vulnerable(vul, declarer), tricks)
        compared += 1
        differ += ours != theirs.score(vul_type)
    return compared, differ


def test_scoring_agrees_with_endplay_on_thousands_of_contracts() -> None:
    compared, differ = _score_many(5000, seed=13)
    print(f"\nscores compared with endplay: {compared}, different: {differ}")
    assert compared == 5000 and differ == 0


# -- auctions and play against OpenSpiel ----------------------------------------------------------


def _os_card(action: int) -> str:
    return "SHDC"[3 - action % 4] + RANKS[action // 4]


def _os_call(action: int) -> str:
    k = action - 52
    if k < 3:
        return ("Pass", "X", "XX")[k]
    level, denom = divmod(k - 3, 5)
    return f"{level + 1}{('C', 'D', 'H', 'S', 'NT')[denom]}"


def random_board(rng: random.Random, dealer: int, vul: str, p_pass: float = 0.6):
    """A random deal, auction and play by OpenSpiel: (hands N E S W as card lists, calls, cards in play order, N's score)."""
    pyspiel = _pyspiel()
    ns_vul, ew_vul = vul in ("NS", "All"), vul in ("EW", "All")
    game = pyspiel.load_game(
        "bridge",
        {
            "use_double_dummy_result": False,
            "dealer": dealer,
            "dealer_vul": (ns_vul, ew_vul)[dealer % 2],
            "non_dealer_vul": (ew_vul, ns_vul)[dealer % 2],
        },
    )
    state = game.new_initial_state()
    deck = list(range(52))
    rng.shuffle(deck)
    hands: list[list[str]] = [[], [], [], []]
    for k, action in enumerate(deck):  # the k-th dealt card goes to player k % 4, whoever deals
        state.apply_action(action)
        hands[k % 4].append(_os_card(action))
    calls: list[str] = []
    cards: list[tuple[int, str]] = []
    while not state.is_terminal():
        legal = state.legal_actions()
        if legal[0] >= 52:
            action = 52 if rng.random() < p_pass and 52 in legal else rng.choice(legal)
            calls.append(_os_call(action))
        else:
            action = rng.choice(legal)
            card = _os_card(action)  # dummy's cards are chosen by declarer: the seat is the card's holder
            cards.append((next(seat for seat in range(4) if card in hands[seat]), card))
        state.apply_action(action)
    return hands, calls, cards, int(state.returns()[0])


def _hand(cards: list[str]) -> str:
    return ".".join("".join(r for r in reversed(RANKS) for c in cards if c == s + r) for s in "SHDC")


def to_pbn(board: int, dealer: int, vul: str, hands, calls, cards) -> str:
    """The board in PBN, as the standard lays it out: the Play section in the opening leader's columns."""
    contract = bridge.contract_of(dealer, [bridge.parse_call(c) or "" for c in calls])
    lines = [
        f'[Board "{board}"]',
        f'[Dealer "{SEATS[dealer]}"]',
        f'[Vulnerable "{vul}"]',
        f'[Deal "N:{" ".join(_hand(h) for h in hands)}"]',
        f'[Declarer "{SEATS[contract.declarer] if contract else ""}"]',
        f'[Contract "{contract.text if contract else "Pass"}"]',
    ]
    if contract is not None:
        won = 0
        for trick in range(0, len(cards), 4):
            winner = bridge.trick_winner(cards[trick : trick + 4], contract.strain)
            won += winner % 2 == (contract.declarer or 0) % 2
        lines.append(f'[Result "{won}"]')
        score = bridge.ns_score(contract, vul, won)
        lines.append(f'[Score "NS {score}"]')
    lines.append(f'[Auction "{SEATS[dealer]}"]')
    for i in range(0, len(calls), 4):
        lines.append(" ".join(calls[i : i + 4]))
    if contract is not None and contract.declarer is not None:
        leader = (contract.declarer + 1) % 4
        lines.append(f'[Play "{SEATS[leader]}"]')
        for trick in range(0, len(cards), 4):
            by_seat = {seat: card for seat, card in cards[trick : trick + 4]}
            lines.append(" ".join(by_seat[(leader + k) % 4] for k in range(4)))
        lines.append("*")
    return "\n".join(lines) + "\n"


def replay_text(text: str):
    data = text.encode()
    return process_games(Source("BR-oracle.pbn", data, sha256(data)), encoding=None, options={})


def _differential(count: int, seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    tally = {"boards": 0, "passed out": 0, "played": 0, "same": 0}
    texts = []
    expected = []
    for n in range(count):
        dealer, vul = n % 4, VULS[(n // 4) % 4]
        hands, calls, cards, ns = random_board(rng, dealer, vul)
        texts.append(to_pbn(n + 1, dealer, vul, hands, calls, cards))
        expected.append((calls, cards, ns, dealer))
    done = replay_text("\n".join(texts))  # one file of many boards, as events write them
    assert len(done) == count
    for game, (calls, cards, ns, dealer) in zip(done, expected):
        tally["boards"] += 1
        replay = game.replay
        assert replay is not None and replay.decision is not None, game.diagnostics
        assert not [d for d in game.diagnostics if d.severity != "note"], [d.message for d in game.diagnostics]
        contract = bridge.contract_of(dealer, [bridge.parse_call(c) or "" for c in calls])
        labels = [p.label.split(" ", 1)[1] for p in replay.plies]
        assert len(replay.plies) == len(calls) + len(cards)
        assert labels[len(calls) :] == [bridge.card_label(card) for _, card in cards]  # the order played
        assert [p.side for p in replay.plies[len(calls) :]] == [("first", "second", "third", "fourth")[s] for s, _ in cards]
        assert replay.decision.score == {bridge.NS: float(ns), bridge.EW: float(-ns)}
        if contract is None:
            tally["passed out"] += 1
            assert replay.decision.rule == "passed-out"
        else:
            tally["played"] += 1
            assert replay.decision.rule == "tricks"
        assert game.score == {bridge.NS: float(ns), bridge.EW: float(-ns)}
        tally["same"] += 1
    return tally


def test_random_boards_agree_with_openspiel() -> None:
    tally = _differential(SAMPLE, seed=22)
    print(f"\nOpenSpiel boards: {tally}")
    assert tally["same"] == tally["boards"] == SAMPLE and tally["played"] > SAMPLE // 2


def test_boards_written_by_endplay_replay_the_same() -> None:
    """endplay's PBN writer (a real one) for the same boards; its contract is built from the auction (pitfall 1)."""
    _endplay()
    from endplay.parsers import pbn
    from endplay.types import Bid, Board, Card, Contract, Deal, Player, Vul

    rng = random.Random(5)
    agreed = 0
    for n in range(12):
        dealer, vul = n % 4, VULS[n % 4]
        hands, calls, cards, ns = random_board(rng, dealer, vul, p_pass=0.5)
        deal = Deal("N:" + " ".join(_hand(h) for h in hands))
        auction = [Bid(c.replace("Pass", "P")) for c in calls]
        dealer_player = Player.find(SEATS[dealer])
        contract = Contract.from_auction(dealer_player, auction)
        board = Board(
            deal=deal,
            auction=auction,
            play=[Card(c) for _, c in cards],
            dealer=dealer_player,
            vul={"None": Vul.none, "NS": Vul.ns, "EW": Vul.ew, "All": Vul.both}[vul],
            board_num=n + 1,
            contract=contract,
        )
        (game,) = replay_text(pbn.dumps([board]))
        assert game.replay is not None and game.replay.decision is not None, [d.message for d in game.diagnostics]
        assert game.replay.decision.score is not None and game.replay.decision.score[bridge.NS] == ns
        agreed += 1
    print(f"\nboards written by endplay and replayed alike: {agreed}")


@pytest.mark.bridge_long
def test_long_run_agrees_with_openspiel_and_endplay(long_run) -> None:
    count = int(os.environ.get("QIPU_BRIDGE_BOARDS", LONG))
    tally = _differential(count, seed=2026)
    compared, differ = _score_many(count * 10, seed=2026)
    print(f"\nOpenSpiel boards: {tally}; endplay scores compared: {compared}, different: {differ}")
    assert tally["same"] == count and differ == 0


def test_the_registry_names_the_oracles_game() -> None:
    game = games.get("BR")
    assert game is not None and game.partnerships == ((0, 2), (1, 3)) and len(game.seats) == 4


def test_double_dummy_tables_in_records_agree_with_dds(corpus) -> None:  # type: ignore[no-untyped-def]
    """The DD tables the corpus's records carry, as Qipu reads them, against endplay's DDS (a test dependency only)."""
    _endplay()
    from endplay.dds import calc_dd_table
    from endplay.types import Deal, Denom, Player

    denoms = {"C": Denom.clubs, "D": Denom.diamonds, "H": Denom.hearts, "S": Denom.spades, "N": Denom.nt}
    compared = 0
    for name, encoding in (("BR_05_three_records_crlf.pbn", None), ("BR_07_bridgecomposer.pbn", "cp1250")):
        data = (corpus / "BR" / name).read_bytes()
        for board in process_games(Source(f"BR/{name}", data, sha256(data)), encoding=encoding, options={}):
            assert board.record is not None
            ours = bridge.dd_table(board.record.tags)
            assert ours is not None, (name, board.game)
            solved = calc_dd_table(Deal(board.record.tags["Deal"]))
            for (seat, strain), tricks in ours.items():
                assert solved[denoms[strain], Player.find(SEATS[seat])] == tricks, (name, board.game, seat, strain)
                compared += 1
    print(f"\ndouble-dummy tricks compared with DDS: {compared}")
    assert compared == 18 * 20
