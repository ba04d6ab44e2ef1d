"""Differential test: random OpenSpiel games of EinStein würfelt nicht, written as WTN records and replayed by Qipu.

OpenSpiel's ``einstein_wurfelt_nicht`` (``open-spiel`` on PyPI, import name
``pyspiel``; a test dependency only) has the set-ups and every die as chance
actions, so a game is forced to any set-up and any throws (ORACLES.md 3.2):
each side's set-up is the k-th permutation of 1-6 laid out row by row on its
corner, and before each move the die ``d`` is action ``d - 1``. OpenSpiel's
black (player 0) sets up top-left and moves right, down and down-right: our
red; its white (player 1) our blue, and white always moves first there. So
every other game is turned half round (column c to 4 - c, row r to 6 - r)
with the colours swapped, and red moves first: both first movers are tried.

Each game is written as the CCGC record a tournament program writes
(specs/000_…txt): the header with the teams' colour letters, both set-ups,
and every move with its die, as the standard's piece form ``1:5;(R5,C3)``
in one game and as a real writer's squares ``1:5;(B4,C3)`` in the next.
Qipu must accept every move, list at every position the same moves as
OpenSpiel for the die thrown, and decide the same winner (EinStein always
ends: every game has one). A move OpenSpiel refuses (a piece the die did not
allow, a step backward or sideways, a jump), put in place of one of the
game's moves, must be an error at exactly that move.

The default run plays a small seeded sample. The long run, 1,000 games, is
marked ``einstein_long`` (deselected by default)::

    python -m pytest -m einstein_long tests/test_oracle_einstein.py -rP -p no:warnings

``QIPU_EINSTEIN_GAMES`` sets its number of games and ``QIPU_EINSTEIN_SEED``
its first seed (to share the run between processes).
"""

from __future__ import annotations

import collections
import itertools
import os
import random
import time
from dataclasses import dataclass, field

import pytest
from conftest import unavailable

from generator.model import Source
from generator.pipeline import Processed, process, sha256
from generator.rules import einstein as wtn

FAST = 40
LONG = 1000
FAST_SEED = 20251125
LONG_SEED = 9_000_000
PERMS = list(itertools.permutations(range(1, 7)))
# OpenSpiel's set-up squares per player, in the order a permutation fills them, as (row from the top, column).
SETUP_SQUARES = {0: [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (2, 0)], 1: [(2, 4), (3, 3), (3, 4), (4, 2), (4, 3), (4, 4)]}
DIRECTIONS = [(1, 1), (1, 0), (0, 1), (-1, 0), (-1, -1), (0, -1)]  # (rows down, columns right)
FIRST_MOVE_LINE = 4  # header, red's set-up, blue's set-up, then the moves


@pytest.fixture(scope="module")
def spiel():
    try:
        import pyspiel
    except ImportError as exc:
        unavailable(f"OpenSpiel is not installed ({exc}): pip install open-spiel==2.0.2")
    return pyspiel.load_game("einstein_wurfelt_nicht")


@pytest.fixture
def long_run(request: pytest.FixtureRequest) -> None:
    if "einstein_long" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("the long OpenSpiel run: python -m pytest -m einstein_long tests/test_oracle_einstein.py")


# -- the oracle's games -------------------------------------------------------------


def cell(row: int, column: int, turned: bool) -> str:
    """Our cell of OpenSpiel's (row from the top, column), the board turned half round or not."""
    if turned:
        row, column = 4 - row, 4 - column
    return f"{'ABCDE'[column]}{5 - row}"


def decode(action: int) -> tuple[tuple[int, int], tuple[int, int]]:
    row, rest = divmod(action, 5 * 6 * 2)
    column, rest = divmod(rest, 6 * 2)
    direction, _ = divmod(rest, 2)
    dr, dc = DIRECTIONS[direction]
    return (row, column), (row + dr, column + dc)


@dataclass(slots=True)
class Ply:
    die: int
    side: str  # "R" or "B", ours
    piece: int
    start: str
    to: str
    legal: frozenset[tuple[str, str]]  # OpenSpiel's moves for this die, as our (start, to)


@dataclass(slots=True)
class Game:
    seed: int
    turned: bool
    setups: dict[str, list[tuple[str, int]]]
    plies: list[Ply] = field(default_factory=list)
    winner: str = ""  # our colour


def play(spiel, seed: int) -> Game:
    """A random OpenSpiel game: random set-ups, random throws, random legal moves."""
    rng = random.Random(seed)
    turned = seed % 2 == 1
    # OpenSpiel's player 0 is black, top-left: our red; turned round, white (player 1) is.
    colour = {0: "B", 1: "R"} if turned else {0: "R", 1: "B"}
    state = spiel.new_initial_state()
    setups: dict[str, list[tuple[str, int]]] = {}
    where: dict[str, tuple[str, int]] = {}
    for player in (0, 1):
        k = rng.randrange(720)
        state.apply_action(k)
        pairs = [(cell(r, c, turned), n) for (r, c), n in zip(SETUP_SQUARES[player], PERMS[k], strict=True)]
        setups[colour[player]] = pairs
        where.update({sq: (colour[player], n) for sq, n in pairs})
    game = Game(seed, turned, setups)
    while not state.is_terminal():
        die = rng.randint(1, 6)
        state.apply_action(die - 1)
        player = state.current_player()
        legal = {}
        for action in state.legal_actions():
            a, b = decode(action)
            legal[(cell(*a, turned), cell(*b, turned))] = action
        start, to = rng.choice(sorted(legal))
        side, piece = where.pop(start)
        assert side == colour[player]
        where[to] = (side, piece)
        game.plies.append(Ply(die, side, piece, start, to, frozenset(legal)))
        state.apply_action(legal[(start, to)])
    game.winner = colour[0] if state.returns()[0] > 0 else colour[1]
    return game


# -- the records --------------------------------------------------------------------------


def move_text(n: int, ply: Ply, squares: bool) -> str:
    return f"{n}:{ply.die};({ply.start},{ply.to})" if squares else f"{n}:{ply.die};({ply.side}{ply.piece},{ply.to})"


def record(game: Game, texts: list[str]) -> str:
    first = game.plies[0].side
    second = wtn.OTHER[first]
    words = "先手胜" if game.winner == first else "后手胜"
    lines = [f"#[WTN][队甲 {first}][队乙 {second}][{words}][2025.11.25 10:00 测试][oracle];"]
    for side in ("R", "B"):
        lines.append(f"{side}:" + ";".join(f"{sq}-{n}" for sq, n in game.setups[side]))
    lines += texts
    return "\n".join(lines) + "\n"


def qipu(text: str, name: str) -> Processed:
    data = text.encode("utf-8")
    return process(Source(f"oracle/WTN-{name}.txt", data, sha256(data)), encoding=None, options={})


def qipu_legal(board: dict[str, tuple[str, int]], side: str, die: int) -> frozenset[tuple[str, str]]:
    """The moves Qipu's rules allow ``side`` for ``die``, as (start, to)."""
    mine = {n: sq for sq, (s, n) in board.items() if s == side}
    return frozenset(
        (mine[n], wtn.CELLS[t]) for n in wtn.allowed(set(mine), die) for t in wtn.forward(side, wtn.INDEX[mine[n]])
    )


# -- one game -------------------------------------------------------------------------------


@dataclass
class Tally:
    games: int = 0
    plies: int = 0
    positions: int = 0
    red_first: int = 0
    by_squares: int = 0
    corner: int = 0
    no_pieces: int = 0
    illegal: int = 0
    illegal_codes: collections.Counter[str] = field(default_factory=collections.Counter)
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)


def check_game(spiel, seed: int, tally: Tally) -> None:
    game = play(spiel, seed)
    squares = seed % 4 >= 2
    texts = [move_text(n, p, squares) for n, p in enumerate(game.plies, 1)]
    done = qipu(record(game, texts), f"{seed}")
    tally.games += 1
    tally.plies += len(game.plies)
    tally.red_first += game.plies[0].side == "R"
    tally.by_squares += squares
    where = f"seed {seed}"
    errors = [d for d in done.diagnostics if d.severity == "error"]
    if errors or done.replay is None or len(done.replay.plies) != len(game.plies):
        tally.problems.append(f"{where}: Qipu refused a move OpenSpiel played: {[d.message for d in errors[:1]]}")
        return
    decision = done.replay.decision
    want = "first" if game.winner == game.plies[0].side else "second"
    if decision is None or decision.winner != want or decision.ply != len(game.plies):
        tally.problems.append(f"{where}: OpenSpiel's winner {want} at ply {len(game.plies)}, Qipu's decision {decision}")
    elif decision.rule == "corner":
        tally.corner += 1
    else:
        tally.no_pieces += 1
    _compare_positions(game, tally, where)
    _check_illegal(game, texts, squares, random.Random(seed * 7 + 3), tally, where)


def _compare_positions(game: Game, tally: Tally, where: str) -> None:
    """At every position, for the die thrown, Qipu's legal moves are OpenSpiel's."""
    board = {sq: (side, n) for side, pairs in game.setups.items() for sq, n in pairs}
    for n, ply in enumerate(game.plies):
        got = qipu_legal(board, ply.side, ply.die)
        tally.positions += 1
        if got != ply.legal:
            tally.problems.append(
                f"{where}: move {n + 1}: legal moves differ: Qipu only {sorted(got - ply.legal)}, "
                f"OpenSpiel only {sorted(ply.legal - got)}"
            )
            return
        board[ply.to] = board.pop(ply.start)


def _illegal_candidates(game: Game, n: int) -> list[tuple[str, str]]:
    """Moves of the mover's pieces to a square one or two steps away in any direction that OpenSpiel did not allow."""
    board = {sq: (side, k) for side, pairs in game.setups.items() for sq, k in pairs}
    for ply in game.plies[:n]:
        board[ply.to] = board.pop(ply.start)
    ply = game.plies[n]
    out = []
    for sq, (side, _) in sorted(board.items()):
        if side != ply.side:
            continue
        column, row = "ABCDE".index(sq[0]), int(sq[1])
        for dc, dr in itertools.product((-2, -1, 0, 1, 2), repeat=2):
            c, r = column + dc, row + dr
            if (dc, dr) != (0, 0) and 0 <= c < 5 and 1 <= r <= 5 and (sq, f"{'ABCDE'[c]}{r}") not in ply.legal:
                out.append((sq, f"{'ABCDE'[c]}{r}"))
    return out


def _check_illegal(game: Game, texts: list[str], squares: bool, rng: random.Random, tally: Tally, where: str) -> None:
    n = rng.randrange(len(game.plies))
    candidates = _illegal_candidates(game, n)
    if not candidates:
        return
    start, to = rng.choice(candidates)
    ply = game.plies[n]
    board = {sq: (side, k) for side, pairs in game.setups.items() for sq, k in pairs}
    for earlier in game.plies[:n]:
        board[earlier.to] = board.pop(earlier.start)
    bad = Ply(ply.die, ply.side, board[start][1], start, to, ply.legal)
    changed = texts[:n] + [move_text(n + 1, bad, squares)] + texts[n + 1 :]
    done = qipu(record(game, changed), f"{game.seed}-illegal")
    tally.illegal += 1
    errors = [d for d in done.diagnostics if d.severity == "error" and d.code.startswith("RULE-")]
    if not errors or done.replay is None:
        tally.problems.append(f"{where}: move {n + 1} {changed[n]} (refused by OpenSpiel) accepted by Qipu")
        return
    error = errors[0]
    tally.illegal_codes[error.code] += 1
    if (error.line, error.column) != (FIRST_MOVE_LINE + n, 1) or len(done.replay.plies) != n or f"move {n + 1}," not in error.message:
        tally.problems.append(
            f"{where}: move {n + 1} {changed[n]} reported at line {error.line} column {error.column} "
            f"({len(done.replay.plies)} plies replayed), expected line {FIRST_MOVE_LINE + n}: {error.message}"
        )


def run(spiel, count: int, seed: int) -> Tally:
    tally = Tally()
    began = time.perf_counter()
    for k in range(count):
        check_game(spiel, seed + k, tally)
    tally.seconds = time.perf_counter() - began
    return tally


def report(t: Tally) -> None:
    print(
        f"einstein_wurfelt_nicht (WTN): {t.games} games, {t.plies} plies, {t.positions} positions compared; "
        f"{t.corner} won by reaching the corner, {t.no_pieces} by taking every piece; {t.red_first} with red first, "
        f"{t.by_squares} written as squares; {t.illegal} illegal moves put in: {dict(t.illegal_codes)}; "
        f"{len(t.problems)} problems; {t.seconds:.1f} s"
    )
    for problem in t.problems[:10]:
        print("   ", problem)


def test_random_games_agree_with_openspiel(spiel):
    tally = run(spiel, FAST, FAST_SEED)
    report(tally)
    assert not tally.problems, tally.problems[:5]
    assert tally.games == FAST and tally.illegal > FAST // 2
    # Both first movers, both ways of writing moves, and all three kinds of illegal move were tried.
    assert 0 < tally.red_first < FAST and 0 < tally.by_squares < FAST
    assert set(tally.illegal_codes) >= {"RULE-E602", "RULE-E603"}


def test_the_setup_permutations_are_laid_out_as_openspiel_does(spiel):
    # Permutation 0 is 1-6 in order: the standard's set-up, black (our red) from a5 along the rows.
    state = spiel.new_initial_state()
    state.apply_action(PERMS.index((3, 1, 2, 6, 5, 4)))
    state.apply_action(0)
    rows = [line for line in str(state).splitlines() if line.strip()]
    assert rows[0].startswith("|b3||b1||b2|") and rows[1].startswith("|b6||b5|") and rows[2].startswith("|b4|")
    assert rows[2].endswith("|w1|") and rows[4].endswith("|w4||w5||w6|")


@pytest.mark.einstein_long
def test_long_run_agrees_with_openspiel(spiel, long_run):
    count = int(os.environ.get("QIPU_EINSTEIN_GAMES", LONG))
    seed = int(os.environ.get("QIPU_EINSTEIN_SEED", LONG_SEED))
    tally = run(spiel, count, seed)
    report(tally)
    assert not tally.problems, tally.problems[:5]
    assert tally.games == count
