"""Differential test: random heads-up no-limit hands, replayed by Qipu and by pokerkit from the same STATE lines.

OpenSpiel's ``universal_poker`` (the ACPC reference game code inside;
``../shared/ORACLES.md`` section 3.10) deals and plays random hands of the
ACPC two-player no-limit game (stacks 20,000, blinds 100/50, the big blind
written first) and prints each as an ACPC ``STATE`` line. The lines are
written as one match file of the CCGC standard (players alternating in the
blinds, a closing ``{[THP]…}`` line with the match's total) and read by
Qipu's whole pipeline; pokerkit 0.7.7 replays every same line on its own
(``HandHistory.from_acpc_protocol``, blinds given as ``(50, 100)``: the
other order silently reverses who acts first). Every hand must replay in
Qipu without an error, and the chips Qipu counts must equal pokerkit's
payoffs and OpenSpiel's returns.

The hand ranks are checked on their own too: random boards and two hands,
ordered by Qipu's best five of seven and by pokerkit's ``StandardHighHand``.

Illegal actions are checked the same way: a raise below the minimum or
above the stack, put into a random hand, must be refused by pokerkit and be
an error of Qipu's at exactly that action. A fold with nothing owed, which
the ACPC code refuses, pokerkit plays with a warning: Qipu follows ACPC.

The default run plays a small seeded sample. The long run, 3,000 hands, is
marked ``holdem_long`` (deselected by default)::

    python -m pytest -m holdem_long -p no:warnings tests/test_holdem_oracle.py -rP

``QIPU_HOLDEM_HANDS`` sets its number of hands, ``QIPU_HOLDEM_SEED`` its seed.
"""

from __future__ import annotations

import collections
import os
import random
import re
import time
import warnings

import pytest
from conftest import unavailable

from generator.model import Source
from generator.pipeline import Processed, process_games, sha256

FAST = 40
FAST_SEED = 20251125
LONG = 3000
LONG_SEED = 9_000_000
TEAMS = ("北大扑克", "Deep Stack 队")


@pytest.fixture(scope="module")
def oracles():
    """(OpenSpiel's universal_poker game, pokerkit's no-limit hold'em game, pokerkit.HandHistory)."""
    try:
        import pyspiel
    except ImportError as exc:
        unavailable(f"OpenSpiel is not installed ({exc}): pip install open-spiel==2.0.2")
    try:
        from pokerkit import HandHistory, NoLimitTexasHoldem
    except ImportError as exc:
        unavailable(f"pokerkit is not installed ({exc}): pip install pokerkit==0.7.7")
    spiel = pyspiel.load_game("universal_poker", {
        "betting": "nolimit", "numPlayers": 2, "numRounds": 4, "blind": "100 50", "firstPlayer": "2 1 1 1",
        "numSuits": 4, "numRanks": 13, "numHoleCards": 2, "numBoardCards": "0 3 1 1",
        "stack": "20000 20000", "bettingAbstraction": "fullgame",
    })
    # Blinds written (50, 100): pokerkit's p1 is ACPC seat 0, the big blind.
    kit = NoLimitTexasHoldem((), True, 0, (50, 100), 100)
    return spiel, kit, HandHistory


@pytest.fixture
def long_run(request: pytest.FixtureRequest) -> None:
    if "holdem_long" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("the long pokerkit run: python -m pytest -m holdem_long tests/test_holdem_oracle.py")


# -- the oracles' hands --------------------------------------------------------------


def random_hand(spiel, rng: random.Random) -> tuple[str, list[int]]:
    """A random hand played out in OpenSpiel: its ACPC state (STATE:0:betting:cards) and returns per seat."""
    state = spiel.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        legal = state.legal_actions()  # 0 fold, 1 check/call, n >= 2 raise to n
        x = rng.random()
        if x < 0.1 and 0 in legal:
            action = 0
        elif x < 0.6 or len(legal) <= 2:
            action = 1
        else:
            raises = [a for a in legal if a >= 2]
            y = rng.random()
            action = raises[0] if y < 0.35 else raises[-1] if y < 0.5 else rng.choice(raises)
        state.apply_action(action)
    found = re.search(r"ACPC State: (STATE:\S+)", str(state))
    assert found is not None
    return found[1], [int(x) for x in state.returns()]


def match_file(hands: list[tuple[str, list[int]]]) -> tuple[str, list[str]]:
    """The CCGC match file of these hands (the teams alternate in the blinds) and each hand's line."""
    lines, total = [], 0
    for n, (state, returns) in enumerate(hands):
        _, _, betting, cards = state.split(":", 3)
        names = TEAMS if n % 2 == 0 else TEAMS[::-1]
        lines.append(f"STATE:{n}:{betting}:{cards}:{returns[0]}|{returns[1]}:{names[0]}|{names[1]};")
        total += returns[0] if n % 2 == 0 else returns[1]
    winner, chips = (TEAMS[0], total) if total >= 0 else (TEAMS[1], -total)
    closing = f"{{[THP][{TEAMS[0]}][{TEAMS[1]}][{winner} 赢得 {chips} 个筹码][2025.11.25 14:00 重庆][2025 CCGC]}}"
    return "\n".join([*lines, closing]) + "\n", lines


def pokerkit_payoffs(kit, history, line: str) -> list[int]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        replayed = next(history.from_acpc_protocol(kit, 20000, line.rstrip(";"), error_status=True))
        *_, last = replayed
    return [int(x) for x in last.payoffs]


def qipu(text: str) -> list[Processed]:
    data = text.encode("utf-8")
    return process_games(
        Source("2025-thp/THP-北大扑克 vs Deep Stack 队-202511251400.txt", data, sha256(data)),
        encoding=None, options={},
    )


def errors(game: Processed) -> list[str]:
    return [f"{d.code} {d.message}" for d in game.diagnostics if d.severity == "error"]


# -- the runs ---------------------------------------------------------------------------


def run(oracles, count: int, seed: int) -> collections.Counter:
    spiel, kit, history = oracles
    rng = random.Random(seed)
    hands = [random_hand(spiel, rng) for _ in range(count)]
    text, lines = match_file(hands)
    games = qipu(text)
    assert len(games) == count
    tally: collections.Counter = collections.Counter()
    for game, (_, returns), line in zip(games, hands, lines):
        assert not errors(game), (line, errors(game))
        decision = game.replay.decision if game.replay else None
        assert decision is not None, line
        counted = [int(decision.score["first"]), int(decision.score["second"])]
        assert counted == returns, (line, counted, returns)
        assert pokerkit_payoffs(kit, history, line) == counted, line
        tally[decision.rule] += 1
        tally["split" if counted == [0, 0] else "won"] += 1
        tally["all in"] += "20000" in line.split(":")[2]
    # The closing line's total is the sum of the hands: no diagnostic about it.
    assert not [d for g in games for d in g.diagnostics if d.code == "FMT-E1206"]
    return tally


def test_random_hands_agree_with_pokerkit_and_openspiel(oracles) -> None:
    tally = run(oracles, FAST, FAST_SEED)
    assert tally["fold"] and tally["showdown"]


@pytest.mark.holdem_long
def test_long_run(oracles, long_run) -> None:
    count = int(os.environ.get("QIPU_HOLDEM_HANDS", LONG))
    seed = int(os.environ.get("QIPU_HOLDEM_SEED", LONG_SEED))
    start = time.process_time()
    tally: collections.Counter = collections.Counter()
    done = 0
    while done < count:  # matches of 100 hands: files of the size tournaments write
        size = min(100, count - done)
        tally.update(run(oracles, size, seed + done))
        done += size
    seconds = time.process_time() - start
    print(f"\n{count} hands, {seconds:.1f} CPU-s: {dict(sorted(tally.items()))}; 0 disagreements")


# -- hand ranks ---------------------------------------------------------------------------


def compare_ranks(count: int, seed: int) -> collections.Counter:
    """Random boards and two hands: Qipu's best five of seven must order them as pokerkit's StandardHighHand does."""
    from pokerkit import StandardHighHand

    from generator.rules import holdem

    deck = [rank + suit for suit in "cdhs" for rank in holdem.RANKS]
    rng = random.Random(seed)
    tally: collections.Counter = collections.Counter()
    for _ in range(count):
        cards = rng.sample(deck, 9)
        a, b, board = cards[0:2], cards[2:4], cards[4:9]
        ours = holdem.best_hand((*a, *board)), holdem.best_hand((*b, *board))
        theirs = StandardHighHand.from_game("".join(a), "".join(board)), StandardHighHand.from_game("".join(b), "".join(board))
        order = (ours[0] > ours[1]) - (ours[0] < ours[1])
        assert order == (theirs[0] > theirs[1]) - (theirs[0] < theirs[1]), (a, b, board, theirs)
        tally[str(holdem.category_name(max(ours)))] += 1
        tally["split"] += order == 0
    return tally


def test_hand_ranks_agree_with_pokerkit(oracles) -> None:
    tally = compare_ranks(400, FAST_SEED)
    assert tally["split"] and tally["straight"] and tally["flush"] and tally["full house"]


@pytest.mark.holdem_long
def test_long_hand_ranks(oracles, long_run) -> None:
    count = 10 * int(os.environ.get("QIPU_HOLDEM_HANDS", LONG))
    tally = compare_ranks(count, int(os.environ.get("QIPU_HOLDEM_SEED", LONG_SEED)))
    print(f"\n{count} pairs of hands ranked as pokerkit ranks them: {dict(sorted(tally.items()))}")


# -- illegal actions ------------------------------------------------------------------


def _mutations(state: str) -> list[tuple[int, str, str]]:
    """Illegal versions of a hand's betting: (index of the changed action, new betting, what is wrong)."""
    _, _, betting, _ = state.split(":", 3)
    tokens = re.findall(r"r\d+|[cf]|/", betting)
    out = []
    # Where a raise is, a raise of one chip less than the previous commitment + the minimum, and one above the stack.
    committed, street_raise, index = 100, 100, 0
    for i, token in enumerate(tokens):
        if token == "/":
            street_raise = 100
            continue
        if token.startswith("r"):
            to = int(token[1:])
            if to < 20000 and to - 1 > committed:
                too_small = committed + street_raise - 1
                if committed < too_small < 20000:
                    out.append((index, "".join([*tokens[:i], f"r{too_small}", *tokens[i + 1 :]]), "small"))
            out.append((index, "".join([*tokens[:i], "r20001", *tokens[i + 1 :]]), "large"))
            street_raise = max(street_raise, to - committed)
            committed = to
        index += 1
    return out


def illegal(oracles, count: int, seed: int) -> collections.Counter:
    spiel, kit, history = oracles
    rng = random.Random(seed)
    tried: collections.Counter = collections.Counter()
    while sum(tried.values()) < count:
        state, _ = random_hand(spiel, rng)
        for index, betting, why in _mutations(state)[:2]:
            _, number, _, cards = state.split(":", 3)
            line = f"STATE:{number}:{betting}:{cards}:0|0:{TEAMS[0]}|{TEAMS[1]}"
            with pytest.raises(ValueError):
                pokerkit_payoffs(kit, history, line)
            game = qipu(line + "\n")[0]
            codes = [d.code for d in game.diagnostics if d.severity == "error"]
            assert "RULE-E1210" in codes, (line, codes)
            # The replay stops at the changed action: every action before it was played.
            actions = [p for p in game.replay.plies if p.colour != "deal"]
            assert len(actions) == index, (line, index, [p.label for p in game.replay.plies])
            tried[why] += 1
    return tried


def test_illegal_actions_are_refused_by_both(oracles) -> None:
    tried = illegal(oracles, 12, FAST_SEED + 1)
    assert tried["small"] and tried["large"]


@pytest.mark.holdem_long
def test_long_illegal_actions(oracles, long_run) -> None:
    count = int(os.environ.get("QIPU_HOLDEM_HANDS", LONG)) // 10
    tried = illegal(oracles, count, int(os.environ.get("QIPU_HOLDEM_SEED", LONG_SEED)) + 1)
    print(f"\n{count} illegal raises refused by pokerkit and by Qipu at the same action: {dict(tried)}")


def test_a_fold_with_nothing_owed(oracles) -> None:
    # ACPC's isValidAction refuses it; pokerkit plays it but warns. Qipu follows ACPC: an error.
    _, kit, history = oracles
    line = f"STATE:3:cc/f:6cQh|Ah6s/7h9d5h:100|-100:{TEAMS[0]}|{TEAMS[1]}"
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        with_warnings = next(history.from_acpc_protocol(kit, 20000, line, error_status=True))
        *_, last = with_warnings
    assert any("no reason for this player to fold" in str(w.message) for w in said)
    assert list(last.payoffs) == [-100, 100]
    game = qipu(line + "\n")[0]
    assert "RULE-E1211" in [d.code for d in game.diagnostics]
