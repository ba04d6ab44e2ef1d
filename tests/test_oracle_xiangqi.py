"""Differential test: random xiangqi games of OpenSpiel and pyffish, replayed by Qipu.

Two independent engines play random legal games (``../shared/ORACLES.md``
section 3.4): OpenSpiel ``xiangqi`` (fast; no repetition rules, a draw at 500
plies) and pyffish ``xiangqi`` (Fairy-Stockfish; slow, but it also says where
a game ends by repetition, perpetual check or the 50-move rule). Each game is
written as the CCGC record a tournament program writes (``1. H2E2 H9G7``,
the result tag) and replayed by Qipu, which must

* accept every move;
* where the oracle's game ends with the side to move having no legal move
  (checkmate or stalemate: both lose), decide the same winner at the last move;
* where it ends otherwise (a ply limit, or pyffish's repetition and 50-move
  verdicts, which are out of Qipu's scope), decide nothing and keep the
  declared result;
* refuse a move the oracle refuses, with an error at exactly that move.

OpenSpiel's legal-move sets are also compared with Qipu's own at every
position of its games. The default run plays a small seeded sample; the
long run (1,000 OpenSpiel games and their 1,000 mutated copies, plus 100
pyffish games) is marked ``xiangqi_long``::

    python -m pytest -m xiangqi_long tests/test_oracle_xiangqi.py -rP

``QIPU_XIANGQI_GAMES`` sets the long run's number of OpenSpiel games.
Oracles skip cleanly where they are not installed.
"""

from __future__ import annotations

import collections
import os
import random
import re
import time
from dataclasses import dataclass

import pytest
from conftest import unavailable

from generator.model import Source
from generator.pipeline import Processed, process, sha256
from generator.rules.xiangqi import (
    ADVISOR,
    CANNON,
    CELLS,
    CHARIOT,
    COLUMNS,
    ELEPHANT,
    HORSE,
    INDEX,
    KING,
    SOLDIER,
    Position,
    start_position,
)

FAST_OPENSPIEL = 20
FAST_PYFFISH = 3
LONG_OPENSPIEL = 1000
LONG_PYFFISH = 100
FAST_SEED = 20251124
LONG_SEED = 2_000_000
NO_RESULT = "RES-W001"  # "no result declared and the rules did not decide": expected for "*" records


@dataclass(slots=True)
class OracleGame:
    source: str  # "openspiel" or "pyffish"
    seed: int
    moves: list[str]  # CCGC coordinates, "H2E2"
    winner: str | None  # "first" (red), "second" (black), "draw", or None (no verdict: a ply limit)
    end: str  # "no legal move", "ply cap", "repetition/perpetual/50-move rule"

    def label(self) -> str:
        return f"{self.source} game seed {self.seed}"


@pytest.fixture
def long_run(request: pytest.FixtureRequest) -> None:
    if "xiangqi_long" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("the long xiangqi run: python -m pytest -m xiangqi_long tests/test_oracle_xiangqi.py")


@pytest.fixture(scope="module")
def spiel():
    try:
        import pyspiel
    except ImportError as exc:
        unavailable(f"OpenSpiel is not installed ({exc}): pip install open-spiel==2.0.2")
    return pyspiel.load_game("xiangqi")


@pytest.fixture(scope="module")
def ffish():
    try:
        import pyffish
    except ImportError as exc:
        unavailable(f"pyffish is not installed ({exc}): pip install pyffish==0.0.90")
    return pyffish


# -- the oracles' games, in CCGC coordinates -------------------------------------------


def ccgc(column: int, row: int) -> str:
    return f"{COLUMNS[column]}{row}"


def openspiel_move(text: str) -> str:
    """OpenSpiel's ``C(7,1)-(0,1)`` (row 0 = black's back rank) as CCGC ``B2B9``."""
    (r1, c1), (r2, c2) = ((int(a), int(b)) for a, b in re.findall(r"\((\d+),(\d+)\)", text))
    return ccgc(c1, 9 - r1) + ccgc(c2, 9 - r2)


def openspiel_actions(state) -> dict[str, int]:
    return {openspiel_move(state.action_to_string(a)): a for a in state.legal_actions()}


def play_openspiel(game, seed: int, keep=None) -> OracleGame:
    """A random OpenSpiel game; ``keep(moves, legal)`` sees each position's legal set before the move."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    moves: list[str] = []
    while not state.is_terminal():
        legal = openspiel_actions(state)
        if keep is not None:
            keep(list(moves), set(legal))
        move = rng.choice(sorted(legal))
        state.apply_action(legal[move])
        moves.append(move)
    returns = state.returns()
    if returns[0] == returns[1]:
        return OracleGame("openspiel", seed, moves, None, "ply cap")
    if keep is not None:
        keep(list(moves), set())
    return OracleGame("openspiel", seed, moves, "first" if returns[0] > 0 else "second", "no legal move")


def _uci(move: str) -> str:
    """CCGC ``H2E2`` as Fairy-Stockfish's ``h3e3`` (ranks 1-10)."""
    a, b = move[:2], move[2:]
    return "".join(f"{'abcdefghi'[COLUMNS.index(p[0])]}{int(p[1]) + 1}" for p in (a, b))


def _from_uci(move: str) -> str:
    f1, r1, f2, r2 = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", move).groups()  # type: ignore[union-attr]
    return ccgc("abcdefghi".index(f1), int(r1) - 1) + ccgc("abcdefghi".index(f2), int(r2) - 1)


def play_pyffish(sf, seed: int, max_plies: int) -> OracleGame:
    """A random pyffish game (the ORACLES.md recipe: restart the move list after each capture)."""
    rng = random.Random(seed)
    variant = "xiangqi"
    fen, segment, moves = sf.start_fen(variant), [], []
    while True:
        legal = sf.legal_moves(variant, fen, segment)
        red_to_move = len(moves) % 2 == 0
        if not legal:
            return OracleGame("pyffish", seed, moves, "second" if red_to_move else "first", "no legal move")
        end, value = sf.is_optional_game_end(variant, fen, segment)
        if end:
            winner = "draw" if value == 0 else ("first" if (value > 0) == red_to_move else "second")
            return OracleGame("pyffish", seed, moves, winner, "repetition/perpetual/50-move rule")
        if len(moves) >= max_plies:
            return OracleGame("pyffish", seed, moves, None, "ply cap")
        move = rng.choice(sorted(legal))
        if sf.is_capture(variant, fen, segment, move):
            fen, segment = sf.get_fen(variant, fen, segment + [move]), []
        else:
            segment.append(move)
        moves.append(_from_uci(move))


# -- Qipu ------------------------------------------------------------------------------

RESULT_TAG = {"first": "1-0", "second": "0-1", "draw": "1/2-1/2", None: "*"}


def record_text(moves: list[str], winner: str | None, event: str = "oracle") -> str:
    tags = {"Game": "Chinese Chess", "Event": event, "Red": "红方程序", "Black": "黑方程序", "Result": RESULT_TAG[winner]}
    lines = [f'[{k} "{v}"]' for k, v in tags.items()] + [""]
    for i in range(0, len(moves), 2):
        lines.append(f"{i // 2 + 1}. " + " ".join(moves[i : i + 2]))
    lines.append(RESULT_TAG[winner])
    return "\n".join(lines) + "\n"


def qipu(text: str, name: str = "oracle") -> Processed:
    data = text.encode("utf-8")
    return process(Source(f"oracle/{name.replace('-', '_')}.pgn", data, sha256(data)), encoding=None, options={})


def check(game: OracleGame, tally: collections.Counter) -> None:
    """Qipu replays the oracle's game: every move accepted, the same verdict where the rules decide."""
    p = qipu(record_text(game.moves, game.winner), game.label().replace(" ", "-"))
    unexpected = [d.format() for d in p.diagnostics if d.severity == "error" or (d.severity == "warning" and d.code != NO_RESULT)]
    assert not unexpected, f"{game.label()} ({game.end}): {unexpected}\n{' '.join(game.moves)}"
    assert p.replay is not None and len(p.replay.plies) == len(game.moves), game.label()
    decision = p.replay.decision
    if game.end == "no legal move":
        assert decision is not None, f"{game.label()}: the oracle's side to move has no legal move, Qipu decides nothing"
        assert (decision.winner, decision.ply) == (game.winner, len(game.moves)), game.label()
        tally[f"{game.source}: {decision.rule}, {decision.winner} wins"] += 1
    else:
        assert decision is None, f"{game.label()}: the oracle ends by {game.end}, Qipu decides {decision}"
        assert p.result == game.winner if game.winner else p.result in (None, "unknown"), game.label()
        tally[f"{game.source}: {game.end} ({game.winner or 'no result'}), declared result kept"] += 1
    if any(d.code == "RULE-N501" for d in p.diagnostics):
        tally[f"{game.source}: threefold repetition noted"] += 1


def refused_move(rng: random.Random, position: Position, side: int, legal: set[str]) -> str:
    """A move the oracle refuses, by the side to move.

    Mostly a move of the shape its piece moves in (a horse's L, a chariot's
    line ...) that the oracle refuses all the same: blocked, out of the palace
    or across the river, onto an own piece, into check, generals facing. Now
    and then any two points (an empty start, a shape no piece has).
    """
    cells = position.cells
    own = [i for i in range(90) if cells[i] and cells[i] >> 3 == side]
    shaped = [
        CELLS[s] + CELLS[t] for s in own for t in _shape_targets(cells[s] & 7, side, s) if CELLS[s] + CELLS[t] not in legal
    ]
    if shaped and rng.random() < 0.7:
        return rng.choice(shaped)
    while True:
        start = rng.choice(own) if rng.random() < 0.9 else rng.randrange(90)
        target = rng.randrange(90)
        move = CELLS[start] + CELLS[target]
        if start != target and move not in legal:
            return move


def _shape_targets(kind: int, side: int, start: int) -> list[int]:
    """The points a piece's shape of move reaches from ``start`` on an empty board, palace and river ignored."""
    row, col = divmod(start, 9)
    if kind in (CHARIOT, CANNON):  # the whole row and file
        return [row * 9 + c for c in range(9) if c != col] + [r * 9 + col for r in range(10) if r != row]
    steps = {
        KING: [(1, 0), (-1, 0), (0, 1), (0, -1)],
        ADVISOR: [(1, 1), (1, -1), (-1, 1), (-1, -1)],
        ELEPHANT: [(2, 2), (2, -2), (-2, 2), (-2, -2)],
        HORSE: [(2, 1), (2, -1), (-2, 1), (-2, -1), (1, 2), (1, -2), (-1, 2), (-1, -2)],
        SOLDIER: [(1 if side == 0 else -1, 0), (0, 1), (0, -1)],
    }[kind]
    return [(row + dr) * 9 + col + dc for dr, dc in steps if 0 <= row + dr < 10 and 0 <= col + dc < 9]


def check_refused(spiel, seed: int, tally: collections.Counter) -> None:
    """One move of a random game replaced by a move OpenSpiel refuses: Qipu's error is at exactly that move."""
    rng = random.Random(seed)
    positions: list[tuple[list[str], set[str]]] = []
    game = play_openspiel(spiel, seed, keep=lambda moves, legal: positions.append((moves, legal)))
    candidates = [(moves, legal) for moves, legal in positions if legal]
    moves, legal = candidates[rng.randrange(len(candidates))]
    position = _position(moves)
    bad = refused_move(rng, position, len(moves) % 2, legal)
    written = [*moves, bad, *game.moves[len(moves) + 1 :][:4]]
    p = qipu(record_text(written, None), f"refused-{seed}")
    number = len(moves) + 1
    errors = [d for d in p.diagnostics if d.severity == "error"]
    assert errors, f"openspiel seed {seed}: Qipu accepts {bad} at move {number}, which OpenSpiel refuses"
    assert errors[0].message.startswith(f"move {number}, {bad}:"), (errors[0].message, number, bad)
    assert p.replay is not None and len(p.replay.plies) == number - 1
    tally[f"refused: {errors[0].code}"] += 1


def _position(moves: list[str]) -> Position:
    position = start_position()
    for move in moves:
        position.push(INDEX[move[:2]], INDEX[move[2:]])
    return position


def check_legal_sets(spiel, seed: int, tally: collections.Counter) -> None:
    """At every position of a random OpenSpiel game, Qipu's legal moves are OpenSpiel's."""
    positions: list[tuple[list[str], set[str]]] = []
    play_openspiel(spiel, seed, keep=lambda moves, legal: positions.append((moves, legal)))
    position = _position([])
    for n, (moves, legal) in enumerate(positions):
        if n:
            last = moves[-1]
            position.push(INDEX[last[:2]], INDEX[last[2:]])
        ours = {CELLS[s] + CELLS[t] for s, t in position.legal_moves(len(moves) % 2)}
        assert ours == legal, f"openspiel seed {seed}, after {' '.join(moves)}: only Qipu {ours - legal}, only OpenSpiel {legal - ours}"
        tally["positions compared"] += 1


def _print(title: str, tally: collections.Counter, started: float) -> None:
    print(f"\n{title} ({time.perf_counter() - started:.1f} s)")
    for key, count in sorted(tally.items()):
        print(f"  {count:6d}  {key}")


# -- the default run ------------------------------------------------------------------


def test_openspiel_games_replay(spiel):
    tally: collections.Counter = collections.Counter()
    started = time.perf_counter()
    for n in range(FAST_OPENSPIEL):
        check(play_openspiel(spiel, FAST_SEED + n), tally)
    _print("OpenSpiel xiangqi games replayed by Qipu", tally, started)
    assert sum(v for k, v in tally.items() if "threefold" not in k) == FAST_OPENSPIEL


def test_openspiel_refused_moves_are_errors_at_that_move(spiel):
    tally: collections.Counter = collections.Counter()
    for n in range(FAST_OPENSPIEL):
        check_refused(spiel, FAST_SEED + n, tally)
    assert sum(tally.values()) == FAST_OPENSPIEL


def test_openspiel_legal_move_sets(spiel):
    tally: collections.Counter = collections.Counter()
    for n in range(3):
        check_legal_sets(spiel, FAST_SEED + n, tally)
    assert tally["positions compared"] > 100


def test_pyffish_games_replay(ffish):
    tally: collections.Counter = collections.Counter()
    started = time.perf_counter()
    for n in range(FAST_PYFFISH):
        check(play_pyffish(ffish, FAST_SEED + n, max_plies=120), tally)
    _print("pyffish xiangqi games replayed by Qipu", tally, started)


def test_coordinates_match_openspiel_by_hand(spiel):
    state = spiel.new_initial_state()
    legal = openspiel_actions(state)
    # 炮二平五 and 马二进三 from the start; a cannon over its screen takes the horse (炮二进七).
    assert {"H2E2", "H0G2", "H2H9", "B0C2"} <= set(legal)
    assert "H0H2" not in legal


# -- the long run ---------------------------------------------------------------------


@pytest.mark.xiangqi_long
def test_long_openspiel_run(spiel, long_run):
    games = int(os.environ.get("QIPU_XIANGQI_GAMES", LONG_OPENSPIEL))
    tally: collections.Counter = collections.Counter()
    started = time.perf_counter()
    for n in range(games):
        check(play_openspiel(spiel, LONG_SEED + n), tally)
    for n in range(games):
        check_refused(spiel, LONG_SEED + n, tally)
    for n in range(max(1, games // 50)):
        check_legal_sets(spiel, LONG_SEED + n, tally)
    _print(f"OpenSpiel xiangqi, {games} games and {games} refused moves", tally, started)


@pytest.mark.xiangqi_long
def test_long_pyffish_run(ffish, long_run):
    tally: collections.Counter = collections.Counter()
    started = time.perf_counter()
    for n in range(LONG_PYFFISH):
        check(play_pyffish(ffish, LONG_SEED + n, max_plies=300), tally)
    _print(f"pyffish xiangqi, {LONG_PYFFISH} games", tally, started)
