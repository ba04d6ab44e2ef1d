"""Differential test: random pydraughts games of draughts, written as DR records and replayed by Qipu.

pydraughts (``pydraughts`` on PyPI, import name ``draughts``; a test
dependency only) plays random legal games of international draughts
(variant ``standard``: DR10), and of Russian and Brazilian draughts (DR8 with
the event option ``rules``). Each game is written as the CCGC record a
tournament program would write (../shared/specs/002_…txt): pydraughts' white
moves first from below, so most records say ``先手：2``; every other game is
turned half round (square k becomes N + 1 - k) and says ``先手：1``, with the
upper side moving first. Captures are written through every landing square,
or, where pydraughts itself writes them so (it adds landing squares only
when start and end leave a doubt), by start and end alone.

Qipu must accept every move, list at every position the same moves as
pydraughts (compared as start, end and the pieces taken, since one capture
may be written along several paths: ORACLES.md section 4), and where pydraughts
ends the game with a winner (the side to move has no move) decide the same
winner; where pydraughts calls a draw by its own endgame rules (repetition,
king moves without capture), which the CCGC rules leave to the organiser,
Qipu must decide nothing. A move pydraughts refuses, put in place of one
of the game's moves, must be an error at exactly that move.

The default run plays a small seeded sample. The long run, 1,000 games per
game type, is marked ``draughts_long`` (deselected by default)::

    python -m pytest -m draughts_long tests/test_oracle_draughts.py -rP

``QIPU_DRAUGHTS_GAMES`` sets its number of games per type,
``QIPU_DRAUGHTS_VARIANTS`` (``standard,russian,brazilian``) which types it plays
and ``QIPU_DRAUGHTS_SEED`` its first seed (to share the run between processes).
"""

from __future__ import annotations

import collections
import os
import random
import time
from dataclasses import dataclass, field

import pytest
from conftest import unavailable

from generator import games
from generator.model import Source
from generator.pipeline import Processed, process, sha256
from generator.rules import draughts as dr

# pydraughts variant -> (game code, event options).
VARIANTS = {"standard": ("DR10", {}), "russian": ("DR8", {"rules": "russian"}), "brazilian": ("DR8", {"rules": "brazilian"})}
FAST = {"standard": 4, "russian": 6, "brazilian": 6}
LONG = 1000
FAST_SEED = 20251124
LONG_SEED = 7_000_000
MAX_PLIES = 300


@pytest.fixture(scope="module")
def pyd():
    """pydraughts' module, once it imports."""
    try:
        import draughts
    except ImportError as exc:
        unavailable(f"pydraughts is not installed ({exc}): pip install pydraughts==0.6.7")
    if not hasattr(draughts, "Board") or not hasattr(draughts, "Move"):
        unavailable("the module 'draughts' is not pydraughts (py-draughts has the same import name)")
    return draughts


@pytest.fixture
def long_run(request: pytest.FixtureRequest) -> None:
    if "draughts_long" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("the long pydraughts run: python -m pytest -m draughts_long tests/test_oracle_draughts.py")


# -- the oracle's games -------------------------------------------------------------


@dataclass(slots=True)
class Ply:
    squares: list[int]  # Qipu's numbers, every landing square
    capture: bool
    short: bool  # pydraughts writes it by start and end alone
    legal: set[tuple[int, int, frozenset[int]]]  # what pydraughts allowed before it: start, end, pieces taken


@dataclass(slots=True)
class Game:
    variant: str
    plies: list[Ply]
    winner: int | None  # pydraughts' WHITE or BLACK; 0 a draw; None: stopped at MAX_PLIES


def _ours(variant: str, n: int) -> int:
    """Qipu's square number (from the top-left) of a pydraughts internal square."""
    if variant == "standard":
        return n  # FMJD numbers already
    rank, i = (n - 1) // 4 + 1, (n - 1) % 4  # pydraughts' 8x8 numbers: 1 = a1, 2 = c1, ..., 5 = b2
    column = 2 * i + (0 if rank % 2 else 1)
    return (8 - rank) * 4 + column // 2 + 1


def _squares(move, variant: str) -> tuple[list[int], frozenset[int], bool]:
    """A legal move of pydraughts in Qipu's numbers: every landing square, the pieces taken, whether written short.

    Read from the move objects ``legal_moves()`` gives (``steps_move``,
    ``captures`` and ``pdn_move`` in pydraughts' own numbers): building a
    ``Move`` for its notation costs a whole move generation.
    """
    squares = [_ours(variant, s) for s in move.steps_move]
    taken = frozenset(_ours(variant, s) for s in move.captures or ())
    short = len(move.pdn_move.replace(":", "x").replace("-", "x").split("x")) == 2
    return squares, taken, short


def play(pyd, variant: str, seed: int) -> Game:
    rng = random.Random(seed)
    board = pyd.Board(variant=variant)
    plies: list[Ply] = []
    while not board.is_over() and len(plies) < MAX_PLIES:
        options = board.legal_moves()
        legal = set()
        for m in options:
            squares, taken, _ = _squares(m, variant)
            legal.add((squares[0], squares[-1], taken))
        move = rng.choice(options)
        squares, taken, short = _squares(move, variant)
        plies.append(Ply(squares, bool(move.has_captures), short, legal))
        board.push(move)
    return Game(variant, plies, board.winner() if board.is_over() else None)


# -- the record ---------------------------------------------------------------------


def turned(square: int, count: int, flip: bool) -> int:
    return count + 1 - square if flip else square


def move_text(ply: Ply, count: int, flip: bool, rng: random.Random) -> str:
    squares = [turned(s, count, flip) for s in ply.squares]
    if ply.capture and ply.short and rng.random() < 0.5:
        squares = [squares[0], squares[-1]]
    return ("x" if ply.capture else "-").join(f"{s:02d}" for s in squares)


FIRST_MOVE_LINE = 8  # the line of "1. ..." in record(): after an empty line, five header lines and an empty line


def record(pyd, game: Game, texts: list[str], flip: bool) -> str:
    """The CCGC record: white (pydraughts' first mover) below, or above when turned half round."""
    if game.winner in (pyd.WHITE, pyd.BLACK):
        white_above = flip
        upper_won = (game.winner == pyd.WHITE) == white_above
        result = "1-0" if upper_won else "0-1"
    else:
        result = "*" if game.winner == 0 else "未决胜"
    upper, lower = ("白队", "黑队") if flip else ("黑队", "白队")
    lines = ["", "时间：2025.11.24", f"先手：{1 if flip else 2}", f"先手方：{upper}", f"后手方：{lower}", f"结果：{result}", ""]
    for i in range(0, len(texts), 2):
        lines.append(f"{i // 2 + 1}. " + " ".join(texts[i : i + 2]))
    if result != "未决胜":
        lines.append(result)
    return "\n".join(lines) + "\n"


def qipu(code: str, text: str, options: dict, name: str) -> Processed:
    data = text.encode("utf-8")
    return process(Source(f"oracle/{code}-{name}.txt", data, sha256(data)), encoding=None, options={code: options})


def qipu_legal(board: list[int], geo: dr.Geometry, side: int, rules: str) -> set[tuple[int, int, frozenset[int]]]:
    """The moves Qipu's rules allow a side, as (start, end, pieces taken)."""
    captures = dr.legal_captures(board, geo, side, rules)
    if captures:
        return {(c.start, c.end, frozenset(c.taken)) for c in captures}
    return {
        (sq, to, frozenset())
        for sq in range(1, geo.count + 1)
        if board[sq] and dr.owner(board[sq]) == side
        for to in dr.steps(board, geo, sq)
    }


# -- one game -------------------------------------------------------------------------


@dataclass
class Tally:
    games: int = 0
    plies: int = 0
    positions: int = 0
    decided: int = 0
    oracle_draws: int = 0
    capped: int = 0
    short_captures: int = 0
    upper_first: int = 0
    illegal: int = 0
    illegal_codes: collections.Counter[str] = field(default_factory=collections.Counter)
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)


def check_game(pyd, variant: str, seed: int, tally: Tally) -> None:
    code, options = VARIANTS[variant]
    game_type = games.GAMES[code]
    game = play(pyd, variant, seed)
    count = game_type.columns * game_type.rows // 2
    flip = seed % 2 == 1
    rng = random.Random(seed * 7 + 1)
    texts = [move_text(p, count, flip, rng) for p in game.plies]
    tally.short_captures += sum(1 for p, t in zip(game.plies, texts, strict=True) if p.capture and t.count("x") == 1 and len(p.squares) > 2)
    tally.upper_first += flip
    text = record(pyd, game, texts, flip)
    done = qipu(code, text, options, f"{variant}-{seed}")
    tally.games += 1
    tally.plies += len(game.plies)
    errors = [d for d in done.diagnostics if d.severity == "error"]
    where = f"{variant} seed {seed}"
    if errors or done.replay is None or len(done.replay.plies) != len(game.plies):
        tally.problems.append(f"{where}: Qipu refused a move pydraughts played: {errors[:1]}")
        return
    _compare_positions(game, flip, count, tally, where)
    decision = done.replay.decision
    if game.winner in (pyd.WHITE, pyd.BLACK):
        tally.decided += 1
        want = "first" if game.winner == pyd.WHITE else "second"  # white moved first
        if decision is None or decision.winner != want:
            tally.problems.append(f"{where}: pydraughts' winner {want}, Qipu's decision {decision}")
    else:
        tally.oracle_draws += game.winner == 0
        tally.capped += game.winner is None
        if decision is not None:
            tally.problems.append(f"{where}: pydraughts did not end the game with a winner, Qipu decided {decision}")
    _check_illegal(pyd, game, texts, flip, count, code, options, rng, tally, where)


def _compare_positions(game: Game, flip: bool, count: int, tally: Tally, where: str) -> None:
    """At every position, Qipu's legal moves are pydraughts' (start, end, pieces taken)."""
    code, options = VARIANTS[game.variant]
    rules = options.get("rules") or games.GAMES[code].params["rules"]
    geo = dr.geometry(games.GAMES[code].columns)
    board = geo.start()
    first = dr.UPPER if flip else dr.LOWER  # pydraughts' white moves first, below unless turned round
    for n, ply in enumerate(game.plies):
        side = first if n % 2 == 0 else 1 - first
        want = {(turned(a, count, flip), turned(b, count, flip), frozenset(turned(s, count, flip) for s in c))
                for a, b, c in ply.legal}
        got = qipu_legal(board, geo, side, rules)
        tally.positions += 1
        if got != want:
            tally.problems.append(
                f"{where}: move {n + 1}: legal moves differ: Qipu only {sorted(got - want)[:4]}, "
                f"pydraughts only {sorted(want - got)[:4]}"
            )
            return
        squares = tuple(turned(s, count, flip) for s in ply.squares)
        verdict = dr.judge(board, geo, side, rules, squares, ply.capture)
        if verdict.capture is not None:
            dr.make_capture(board, verdict.capture)
        elif verdict.step is not None:
            dr.make_step(board, geo, *verdict.step)
        else:
            tally.problems.append(f"{where}: move {n + 1} refused by the rules functions")
            return


def _illegal_candidates(game: Game, n: int, flip: bool, count: int) -> list[tuple[int, int, bool]]:
    """Moves pydraughts did not allow before move n: a step or a jump of the mover's neighbourhood."""
    code = VARIANTS[game.variant][0]
    geo = dr.geometry(games.GAMES[code].columns)
    legal = {(turned(a, count, flip), turned(b, count, flip)) for a, b, _ in game.plies[n].legal}
    start = turned(game.plies[n].squares[0], count, flip)
    near = {start} | {sq for ray in geo.rays[start] for sq in ray[:2]}
    out = []
    for a in sorted(near):
        for ray in geo.rays[a]:
            for k, b in enumerate(ray[:2]):
                if (a, b) not in legal:
                    out.append((a, b, k == 1))
    return out


def _check_illegal(pyd, game: Game, texts: list[str], flip: bool, count: int, code: str, options: dict,
                   rng: random.Random, tally: Tally, where: str) -> None:
    if not game.plies:
        return
    n = rng.randrange(len(game.plies))
    candidates = _illegal_candidates(game, n, flip, count)
    if not candidates:
        return
    a, b, jump = rng.choice(candidates)
    bad = f"{a:02d}{'x' if jump else '-'}{b:02d}"
    changed = texts[:n] + [bad] + texts[n + 1 :]
    text = record(pyd, game, changed, flip)
    done = qipu(code, text, options, f"{game.variant}-illegal")
    tally.illegal += 1
    line = FIRST_MOVE_LINE + n // 2
    column = len(f"{n // 2 + 1}. ") + 1 + (len(changed[n - 1]) + 1 if n % 2 else 0)
    errors = [d for d in done.diagnostics if d.severity == "error" and d.code.startswith("RULE-")]
    if not errors or done.replay is None:
        tally.problems.append(f"{where}: move {n + 1} {bad} (refused by pydraughts) accepted by Qipu")
        return
    error = errors[0]
    tally.illegal_codes[error.code] += 1
    if (error.line, error.column) != (line, column) or len(done.replay.plies) != n or f"move {n + 1}," not in error.message:
        tally.problems.append(
            f"{where}: move {n + 1} {bad} reported at line {error.line} column {error.column} "
            f"({len(done.replay.plies)} plies replayed), expected line {line} column {column}: {error.message}"
        )


def run(pyd, counts: dict[str, int], seed: int) -> dict[str, Tally]:
    tallies = {}
    for variant, count in counts.items():
        tally = Tally()
        began = time.perf_counter()
        for k in range(count):
            check_game(pyd, variant, seed + k, tally)
        tally.seconds = time.perf_counter() - began
        tallies[variant] = tally
    return tallies


def report(tallies: dict[str, Tally]) -> None:
    for variant, t in tallies.items():
        print(
            f"{variant} ({VARIANTS[variant][0]}): {t.games} games, {t.plies} plies, {t.positions} positions compared, "
            f"{t.decided} won by the rules (winners compared), {t.oracle_draws} drawn by pydraughts' rules, "
            f"{t.capped} stopped at {MAX_PLIES} plies; {t.upper_first} with 先手：1; {t.short_captures} multiple "
            f"captures written by start and end; {t.illegal} illegal moves put in: {dict(t.illegal_codes)}; "
            f"{len(t.problems)} problems; {t.seconds:.1f} s"
        )
        for problem in t.problems[:10]:
            print("   ", problem)


def test_random_games_agree_with_pydraughts(pyd):
    tallies = run(pyd, FAST, FAST_SEED)
    report(tallies)
    for variant, t in tallies.items():
        assert not t.problems, t.problems[:5]
        assert t.games == FAST[variant] and t.illegal > 0


def test_the_writer_and_reader_agree_on_squares(pyd):
    # The mapping of pydraughts' 8x8 squares: a1 (1) is Qipu's 29, h8 (32) Qipu's 4, b8 (29) Qipu's 1.
    assert (_ours("russian", 1), _ours("russian", 32), _ours("russian", 29), _ours("russian", 5)) == (29, 4, 1, 25)


@pytest.mark.draughts_long
def test_long_run_agrees_with_pydraughts(pyd, long_run):
    count = int(os.environ.get("QIPU_DRAUGHTS_GAMES", LONG))
    wanted = os.environ.get("QIPU_DRAUGHTS_VARIANTS", ",".join(VARIANTS)).split(",")
    seed = int(os.environ.get("QIPU_DRAUGHTS_SEED", LONG_SEED))
    tallies = run(pyd, dict.fromkeys((v for v in VARIANTS if v in wanted), count), seed)
    report(tallies)
    for t in tallies.values():
        assert not t.problems, t.problems[:5]
