"""Differential tests of Dou Dizhu (P2T1): OpenSpiel ``dou_dizhu`` for whole deals, rlcard for hand types.

OpenSpiel (``open-spiel`` on PyPI, import ``pyspiel``) plays random deals:
the deal (17 cards each, three bottom cards), the bidding (1-3, a seat may
bid again until two passes follow the highest bid; nobody bids: the deal is
over with 0 for all), the plays and the score (the bid doubled for every
bomb, the rocket and a spring). Each deal is written as the record a CCGC
referee writes (``DA``-``DC``, ``BA``-``BC`` in the order bid, ``LA``-``LC``,
plays, ``OVER``; card numbers by the standard's table) and replayed by Qipu,
which must accept the deal and the bidding, make the same landlord, accept
every play and score every seat as OpenSpiel does. Mutated deals (a card
of a play swapped for one another seat holds, a bid no higher than the
last) must be refused at exactly the line changed.

Where Qipu's rules and OpenSpiel's differ, and how the test handles it:

* OpenSpiel offers a bomb after the rocket (ORACLES.md section 4: its move
  generator treats the rocket as an ordinary play). Nothing beats the rocket
  (specs/README.md, P2T1), so Qipu must refuse that play, at exactly its
  move, with RULE-E1115; the deal is counted as "bomb after rocket" and not
  compared further.
* OpenSpiel has no four-with-two (四带二). Its deals never hold one, so
  the hand types are checked against rlcard 1.2.0's tables instead
  (``CARD_TYPE``: every one of its 27,471 plays classified alike, and as
  many random card sets that are no play refused alike), and a
  four-with-two is replayed in tests/test_doudizhu_rules.py.
* OpenSpiel does not cap the score; the records here say ``MS[100000]``,
  which no random deal reaches.

The default run plays a small seeded sample. The long run (5,000 deals) is
marked ``doudizhu_long``::

    python -m pytest -m doudizhu_long -p no:warnings tests/test_doudizhu_oracle.py -rP

``QIPU_DOUDIZHU_DEALS`` sets its number of deals, ``QIPU_DOUDIZHU_SEED`` its first seed.
"""

from __future__ import annotations

import collections
import os
import random
import re
import time
from dataclasses import dataclass, field

import pytest
from conftest import unavailable

from generator.model import Source
from generator.pipeline import Processed, process_games, sha256
from generator.rules import doudizhu as dd

FAST = 300
LONG = 5000
FAST_SEED = 20251125
LONG_SEED = 9_000_000
LETTERS = "ABC"
ORDER = "3456789TJQKA2BR"  # rlcard's ranks; B and R the black and the red joker
_SUIT = {"S": 0, "H": 1, "D": 2, "C": 3}


@pytest.fixture(scope="module")
def spiel():
    try:
        import pyspiel
    except ImportError as exc:
        unavailable(f"OpenSpiel is not installed ({exc}): pip install open-spiel==2.0.2")
    return pyspiel.load_game("dou_dizhu")


@pytest.fixture(scope="module")
def card_type():
    try:
        from rlcard.games.doudizhu.utils import CARD_TYPE
    except ImportError as exc:
        unavailable(f"rlcard is not installed ({exc}): pip install rlcard==1.2.0")
    return CARD_TYPE


@pytest.fixture
def long_run(request: pytest.FixtureRequest) -> None:
    if "doudizhu_long" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("the long OpenSpiel run: python -m pytest -m doudizhu_long tests/test_doudizhu_oracle.py")


# -- OpenSpiel's deals --------------------------------------------------------------------


def spiel_card(text: str) -> int:
    """The standard's number of an OpenSpiel card: ``HK`` (suit, rank), ``(BWJ)``, ``(CJ)``."""
    if text == "(BWJ)":
        return dd.SMALL_JOKER
    if text == "(CJ)":
        return dd.BIG_JOKER
    return 4 * "3456789TJQKA2".index(text[1]) + _SUIT[text[0]]


def spiel_ranks(text: str) -> list[int]:
    """The ranks of an OpenSpiel play (``5888999Q``, ``333444-T(CJ)``)."""
    text = text.replace("(BWJ)", "B").replace("(CJ)", "R").replace("-", "")
    return [ORDER.index(ch) for ch in text]


@dataclass(slots=True)
class Deal:
    hands: list[list[int]] = field(default_factory=lambda: [[], [], []])
    bottom: list[int] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)  # bids, bottom cards and plays as the record writes them
    returns: list[float] = field(default_factory=list)
    landlord: int | None = None
    bomb_after_rocket: int = 0  # the move number (in the record) of the first bomb OpenSpiel lets follow a rocket
    last: int | None = None  # the seat that played its last card

    def record(self, ms: int = 100000) -> str:
        head = [
            "(", ";VER[1.0]PA[甲队]PB[乙队]PC[丙队]", f";TI[1]TC[1]RI[1]RC[1]UC[1]MS[{ms}]",
            *(f";D{LETTERS[seat]}[{','.join(map(str, hand))}]" for seat, hand in enumerate(self.hands)),
        ]
        over = [f";OVER[{LETTERS[self.last]}]"] if self.last is not None else []
        return "\n".join([*head, *(";" + line for line in self.lines), *over, ")"]) + "\n"


def play(game, seed: int) -> Deal:
    """A random deal of OpenSpiel's, with the cards each seat plays chosen from its hand."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    deal = Deal()
    dealt = 0
    held: list[list[int]] = [[], [], []]
    top_rocket = False  # the last play of the trick is the rocket
    moves = 3  # the record's moves so far: the three deals
    while not state.is_terminal():
        if state.is_chance_node():
            action = rng.choice([a for a, _ in state.chance_outcomes()])
            text = state.action_to_string(state.current_player(), action)
            if text.startswith("Deal "):  # the k-th card dealt goes to seat k mod 3
                deal.hands[dealt % 3].append(spiel_card(text[5:]))
                dealt += 1
            state.apply_action(action)
            continue
        if not held[0]:
            held = [list(hand) for hand in deal.hands]
            deal.bottom = sorted(set(range(54)) - {card for hand in deal.hands for card in hand})
        seat = state.current_player()
        legal = state.legal_actions()
        bidding = _bidding(state)
        action = rng.choice(legal)
        text = state.action_to_string(seat, action)
        letter = LETTERS[seat]
        moves += 1
        if bidding:
            deal.lines.append(f"B{letter}[{text[4:] if text.startswith('Bid') else 0}]")
        elif text == "Pass":
            deal.lines.append(f"{letter}[-1]")
            if _two_passes(deal.lines):
                top_rocket = False
        else:
            cards = []
            for rank in spiel_ranks(text):
                card = next(c for c in sorted(held[seat]) if dd.rank_of(c) == rank)
                held[seat].remove(card)
                cards.append(card)
            kinds = dd.classify(cards)
            if top_rocket and kinds and kinds[0].name == "bomb" and not deal.bomb_after_rocket:
                deal.bomb_after_rocket = moves
            top_rocket = bool(kinds) and kinds[0].name == "rocket"
            deal.lines.append(f"{letter}[{','.join(map(str, cards))}]")
            if not held[seat]:
                deal.last = seat
        state.apply_action(action)
        if bidding and not state.is_terminal() and not _bidding(state):  # the landlord takes the bottom cards
            deal.landlord = state.current_player()
            held[deal.landlord] += deal.bottom
            moves += 1
            deal.lines.append(f"L{LETTERS[deal.landlord]}[{','.join(map(str, deal.bottom))}]")
    deal.returns = list(state.returns())
    return deal


def _bidding(state) -> bool:
    """Whether OpenSpiel is in the auction: only then does it offer bids (a bid below 3 is always open)."""
    player = state.current_player()
    return any(state.action_to_string(player, a).startswith("Bid") for a in state.legal_actions())


def _two_passes(lines: list[str]) -> bool:
    return len(lines) >= 2 and lines[-1].endswith("[-1]") and lines[-2].endswith("[-1]")


def replay(deal: Deal, ms: int = 100000) -> Processed:
    data = deal.record(ms).encode("utf-8")
    name = "P2T1-甲队 vs 乙队 vs 丙队-2025.12.20 09:00 北京-测试.txt"
    [processed] = process_games(Source(name, data, sha256(data)), encoding=None, options={})
    return processed


def check(deal: Deal, tally: collections.Counter) -> None:
    """Qipu's replay of an OpenSpiel deal: the same landlord, every play accepted, the same score."""
    done = replay(deal)
    replay_ = done.replay
    assert replay_ is not None
    errors = [d for d in done.diagnostics if d.severity == "error"]
    if deal.bomb_after_rocket:
        # OpenSpiel's bug: Qipu refuses the bomb, at exactly that move.
        assert [d.code for d in errors] == ["RULE-E1115"], [d.message for d in errors]
        assert len(replay_.plies) + 1 == deal.bomb_after_rocket
        tally["bomb after rocket (refused)"] += 1
        return
    assert not errors, [d.message for d in errors]
    assert not replay_.not_replayed
    decision = replay_.decision
    assert decision is not None
    score = [decision.score[seat] for seat in ("first", "second", "third")] if decision.score else None
    assert score == deal.returns, (score, deal.returns)
    if deal.landlord is None:
        assert decision.rule == "void" and decision.winner == "draw"
        tally["void (nobody bid)"] += 1
        return
    won = [seat for seat in range(3) if deal.returns[seat] > 0]
    assert decision.winner == "+".join(("first", "second", "third")[seat] for seat in won)
    assert done.declared == done.computed  # OVER agrees
    tally["landlord wins" if deal.returns[deal.landlord] > 0 else "farmers win"] += 1


def run(game, seeds: range) -> collections.Counter:
    tally: collections.Counter = collections.Counter()
    for seed in seeds:
        deal = play(game, seed)
        check(deal, tally)
        tally["deals"] += 1
        bombs = sum(1 for line in deal.lines if _is_bomb(line))
        if bombs:
            tally["with a bomb or the rocket"] += 1
    return tally


def _is_bomb(line: str) -> bool:
    m = re.fullmatch(r"[ABC]\[([\d,]+)\]", line)
    if not m:
        return False
    kinds = dd.classify(int(c) for c in m[1].split(","))
    return bool(kinds) and kinds[0].bomb


# -- the tests -----------------------------------------------------------------------------


def test_random_openspiel_deals_replay_with_the_same_landlord_and_score(spiel) -> None:
    started = time.process_time()
    tally = run(spiel, range(FAST_SEED, FAST_SEED + FAST))
    print(f"\nOpenSpiel dou_dizhu: {dict(tally)} in {time.process_time() - started:.1f} CPU-s")
    assert tally["deals"] == FAST
    assert tally["landlord wins"] and tally["farmers win"] and tally["with a bomb or the rocket"]


@pytest.mark.doudizhu_long
def test_long_run_against_openspiel(spiel, long_run) -> None:
    count = int(os.environ.get("QIPU_DOUDIZHU_DEALS", LONG))
    seed = int(os.environ.get("QIPU_DOUDIZHU_SEED", LONG_SEED))
    started = time.process_time()
    tally = run(spiel, range(seed, seed + count))
    print(f"\nOpenSpiel dou_dizhu, long run: {dict(tally)} in {time.process_time() - started:.1f} CPU-s")
    assert tally["deals"] == count


def test_a_card_the_player_does_not_hold_put_into_an_openspiel_deal_is_refused_there(spiel) -> None:
    """Mutations (ORACLES.md section 5): one card of a play swapped for a card another seat was dealt."""
    rng = random.Random(FAST_SEED)
    checked = 0
    for seed in range(FAST_SEED, FAST_SEED + 60):
        deal = play(spiel, seed)
        plays = [i for i, line in enumerate(deal.lines) if re.fullmatch(r"[ABC]\[[\d,]+\]", line)]
        if not plays or deal.bomb_after_rocket:
            continue
        i = rng.choice(plays)
        seat = LETTERS.index(deal.lines[i][0])
        other = rng.choice([s for s in range(3) if s != seat])
        foreign = rng.choice(deal.hands[other])
        cards = deal.lines[i][2:-1].split(",")
        cards[0] = str(foreign)
        deal.lines[i] = f"{LETTERS[seat]}[{','.join(cards)}]"
        done = replay(deal)
        errors = [d for d in done.diagnostics if d.severity == "error"]
        assert [d.code for d in errors][:1] == ["RULE-E1113"], (seed, [d.message for d in errors])
        assert done.plies == 3 + i and f"does not hold card {foreign} " in errors[0].message
        checked += 1
    assert checked >= 50


def test_a_bid_no_higher_than_the_last_put_into_an_openspiel_deal_is_refused_there(spiel) -> None:
    checked = 0
    for seed in range(FAST_SEED, FAST_SEED + 200):
        deal = play(spiel, seed)
        bids = [(i, int(line[3:-1])) for i, line in enumerate(deal.lines) if re.fullmatch(r"B[ABC]\[\d\]", line)]
        raised = [(i, bid) for (i, bid), (_, before) in zip(bids[1:], bids) if bid and before]
        if not raised:
            continue
        i, bid = raised[0]
        highest = max(b for j, b in bids if j < i)
        deal.lines[i] = f"{deal.lines[i][:2]}[{highest}]"
        done = replay(deal)
        errors = [d for d in done.diagnostics if d.severity == "error"]
        assert [d.code for d in errors] == ["RULE-E1111"] and done.plies == 3 + i
        assert f"the bid {highest} is not higher than the highest so far, {highest}" in errors[0].message
        checked += 1
    assert checked >= 20


def test_a_deal_nobody_bids_for_is_void_in_both(spiel) -> None:
    """OpenSpiel ends a deal of three passes with 0 for all; Qipu calls it void and says so."""
    for seed in range(FAST_SEED, FAST_SEED + 3000):
        deal = play(spiel, seed)
        if deal.landlord is None:
            break
    else:
        pytest.fail("no void deal in 3,000 random deals")
    done = replay(deal)
    assert done.replay is not None and done.replay.decision is not None
    assert done.replay.decision.rule == "void" and done.replay.decision.score == {"first": 0.0, "second": 0.0, "third": 0.0}
    assert "RULE-N1119" in [d.code for d in done.diagnostics]
    assert deal.returns == [0.0, 0.0, 0.0]


def test_a_cap_lower_than_the_score_caps_it(spiel) -> None:
    """OpenSpiel has no cap: with MS below its score, Qipu's farmer pays MS and the landlord twice it."""
    deal = next(d for d in (play(spiel, seed) for seed in range(FAST_SEED, FAST_SEED + 500)) if
                d.landlord is not None and not d.bomb_after_rocket and abs(d.returns[d.landlord]) >= 4)  # fmt: skip
    done = replay(deal, ms=1)
    assert done.replay is not None and done.replay.decision is not None and done.replay.decision.score
    sign = 1 if deal.returns[deal.landlord] > 0 else -1
    lord = ("first", "second", "third")[deal.landlord]
    assert done.replay.decision.score[lord] == 2 * sign
    assert sorted(done.replay.decision.score.values()) == sorted([2.0 * sign, -sign, -sign])


# -- rlcard's tables -----------------------------------------------------------------------


def cards_of(text: str) -> list[int]:
    """Cards of the standard for an rlcard string (``33344455``): the lowest suits of each rank."""
    used: collections.Counter = collections.Counter()
    out = []
    for ch in text:
        rank = ORDER.index(ch)
        if rank < 13:
            out.append(4 * rank + used[rank])
            used[rank] += 1
        else:
            out.append(dd.SMALL_JOKER + rank - 13)
    return out


def rl_kind(name: str) -> tuple[str, int]:
    """rlcard's type name as (name, length): ``trio_solo_chain_3`` -> ("trio_solo_chain", 3)."""
    m = re.fullmatch(r"(.*_chain)_(\d+)", name)
    return (m[1], int(m[2])) if m else (name, 1)


def test_every_play_of_rlcards_tables_has_the_same_hand_types(card_type) -> None:
    table = card_type[0]
    differ = []
    order: dict[tuple[str, int], dict[int, int]] = collections.defaultdict(dict)
    for text, kinds in table.items():
        if text == "pass":
            continue
        ours = dd.classify(cards_of(text))
        if {(k.name, k.length) for k in ours} != {rl_kind(t) for t, _ in kinds}:
            differ.append((text, ours, kinds))
        for kind in ours:
            for t, weight in kinds:
                if rl_kind(t) == (kind.name, kind.length):
                    order[kind.name, kind.length].setdefault(kind.rank, int(weight))
    assert not differ, differ[:10]
    assert len(table) > 27000
    # The rank that compares orders the plays of a type as rlcard's weight does.
    for kind, weights in order.items():
        ranks = sorted(weights)
        assert [weights[r] for r in ranks] == sorted(weights.values()), kind


def test_random_card_sets_outside_rlcards_tables_are_no_play(card_type) -> None:
    table = card_type[0]
    rng = random.Random(FAST_SEED)
    for _ in range(20000):
        ranks = rng.sample(range(15), rng.randint(1, 7))
        pool = [c for c in range(54) if dd.rank_of(c) in ranks]
        cards = rng.sample(pool, min(rng.randint(1, 20), len(pool)))
        text = "".join(sorted((ORDER[dd.rank_of(c)] for c in cards), key=ORDER.index))
        assert bool(dd.classify(cards)) == (text in table), text


def test_which_play_beats_which_agrees_with_rlcard(card_type) -> None:
    """rlcard's comparison (the snippet of ORACLES.md 3.8) on random pairs of plays, bombs and the rocket included."""
    table = card_type[0]
    plays = [text for text in table if text != "pass"]
    by_type: dict[str, list[str]] = collections.defaultdict(list)
    for text in plays:
        for t, _ in table[text]:
            by_type[t].append(text)

    def beats(a: str, b: str) -> bool:
        ta, tb = table[a], table[b]
        kinds_a, kinds_b = {t for t, _ in ta}, {t for t, _ in tb}
        if "rocket" in kinds_b:
            return False
        if "rocket" in kinds_a:
            return True
        if "bomb" in kinds_a and "bomb" not in kinds_b:
            return True
        return any(t1 == t2 and int(w1) > int(w2) for t1, w1 in ta for t2, w2 in tb)

    rng = random.Random(FAST_SEED)
    checked = 0
    for _ in range(20000):
        a = rng.choice(plays)
        # Half of the pairs of one type (where ranks decide), half any two plays.
        b = rng.choice(by_type[rng.choice(table[a])[0]]) if rng.random() < 0.5 else rng.choice(plays)
        ours = bool(dd.answers(dd.classify(cards_of(a)), dd.classify(cards_of(b))))
        assert ours == beats(a, b), (a, b)
        checked += 1
    assert checked == 20000
    assert dd.answers(dd.classify(cards_of("3333")), dd.classify(cards_of("BR"))) == []  # no bomb after the rocket


def test_four_with_two_is_a_play_though_openspiel_has_none(card_type) -> None:
    """rlcard and the standard know four with two singles or two pairs; OpenSpiel's tables do not."""
    for text, name in (("333344", "four_two_solo"), ("33334455", "four_two_pair"), ("33334B", "four_two_solo")):
        assert [k.name for k in dd.classify(cards_of(text))] == [name] == [t for t, _ in card_type[0][text]]
    for text in ("33334444", "3333BR", "33335555"):  # two pairs of one rank, the rocket as kickers: none
        assert dd.classify(cards_of(text)) == [] and text not in card_type[0]
