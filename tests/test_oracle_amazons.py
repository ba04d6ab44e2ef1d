"""Differential test: random OpenSpiel games of Amazons, written as CCGC AM records and replayed by Qipu.

OpenSpiel (``open-spiel`` from PyPI, a test dependency only) plays random
legal games of ``amazons`` on 10x10: one turn is three actions of the same
player (the queen's square, where it lands, the arrow), player 0 owns a4 d1
g1 j4 and moves first, and the player left without a move loses (ORACLES.md
section 3.1). Each game is written as the record a tournament program would
write (``#[AM][…]`` header, numbered turns ``1 d1d8(b6) g10g3(i5)``), some
writers in upper case with double spaces, and some files holding several
games one after the other, as real files do.

Qipu must accept every turn, decide the same winner at the same turn, and
at every position agree with OpenSpiel on which queens can move, where the
played queen may go, and where its arrow may fly (Qipu's
:class:`generator.rules.amazons.Board`, the engine's own). A turn OpenSpiel
refuses (from a square without the mover's queen, a queen's move or an arrow
that is not along a free line), put in place of one of the game's turns, must
be an error at exactly that move: its line, its column, and nothing replayed
from there on; a turn written after OpenSpiel's end must be the error that
the game was already over (RULE-E003), at that turn.

The default run plays a small seeded sample. The long run, 1,000 games, is
marked ``amazons_long`` (deselected by default)::

    python -m pytest -m amazons_long tests/test_oracle_amazons.py -rP

``QIPU_AMAZONS_GAMES`` sets its number of games and ``QIPU_AMAZONS_SEED``
its first seed (to share the run between processes).
"""

from __future__ import annotations

import collections
import os
import random
import time
from dataclasses import dataclass, field

import pytest
from conftest import unavailable

from generator.model import Source
from generator.pipeline import Processed, process_games, sha256
from generator.rules import amazons

N = 10
FAST = 24
LONG = 1000
FAST_SEED = 20251124
LONG_SEED = 3_000_000
HEADER_LINE = "#[AM][{first}][{second}][{result}][2025/11/24 10:00:00 北京][oracle];"


@pytest.fixture(scope="module")
def spiel():
    """OpenSpiel's amazons game, once it imports."""
    try:
        import pyspiel
    except ImportError as exc:
        unavailable(f"OpenSpiel is not installed ({exc}): pip install open-spiel==2.0.2")
    return pyspiel.load_game("amazons", {"board_size": N})


@pytest.fixture
def long_run(request: pytest.FixtureRequest) -> None:
    if "amazons_long" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("the long OpenSpiel run: python -m pytest -m amazons_long tests/test_oracle_amazons.py")


def cell(action: int) -> str:
    """OpenSpiel's action (row 0 at the top) as the record's square: 'd1'."""
    r, c = divmod(action, N)
    return f"{chr(97 + c)}{N - r}"


def action(square: str) -> int:
    return (N - int(square[1:])) * N + ord(square[0]) - 97


# -- the oracle's games -------------------------------------------------------------


@dataclass(slots=True)
class Position:
    """What OpenSpiel allowed before one turn: the queens that can move, the played queen's squares and arrows."""

    queens: set[str]
    destinations: set[str]
    arrows: set[str]


@dataclass(slots=True)
class Game:
    turns: list[tuple[str, str, str]]
    positions: list[Position]
    winner: str  # "first" or "second"
    states: list  # OpenSpiel's state before each turn (for illegal turns)


def play(spiel, rng: random.Random) -> Game:
    state = spiel.new_initial_state()
    turns, positions, states = [], [], []
    while not state.is_terminal():
        states.append(state.clone())
        queens = state.legal_actions()
        queen = rng.choice(queens)
        state.apply_action(queen)
        destinations = state.legal_actions()
        to = rng.choice(destinations)
        state.apply_action(to)
        arrows = state.legal_actions()
        arrow = rng.choice(arrows)
        state.apply_action(arrow)
        positions.append(Position({cell(a) for a in queens}, {cell(a) for a in destinations}, {cell(a) for a in arrows}))
        turns.append((cell(queen), cell(to), cell(arrow)))
    return Game(turns, positions, "first" if state.returns()[0] > 0 else "second", states)


def oracle_allows(state, turn: tuple[str, str, str]) -> bool:
    s = state.clone()
    for square in turn:
        a = action(square)
        if s.is_terminal() or a not in s.legal_actions():
            return False
        s.apply_action(a)
    return True


# -- the records ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Writer:
    upper: bool = False
    gap: str = " "


WRITERS = (Writer(), Writer(upper=True, gap="  "), Writer(gap="\t"))


def turn_text(turn: tuple[str, str, str], writer: Writer) -> str:
    text = f"{turn[0]}{turn[1]}({turn[2]})"
    return text.upper() if writer.upper else text


def game_lines(turns: list[tuple[str, str, str]], winner: str, writer: Writer, k: int) -> list[str]:
    result = {"first": "先手胜", "second": "后手胜"}[winner]
    lines = [HEADER_LINE.format(first=f"白{k}", second=f"黑{k}", result=result)]
    texts = [turn_text(t, writer) for t in turns]
    for i in range(0, len(texts), 2):
        lines.append(f"{i // 2 + 1}{writer.gap}" + writer.gap.join(texts[i : i + 2]))
    return lines


def where(turn_index: int, start_line: int, texts: list[str], writer: Writer) -> tuple[int, int]:
    """Line and column of a turn in a game whose header is on ``start_line``."""
    line = start_line + 1 + turn_index // 2
    column = len(f"{turn_index // 2 + 1}{writer.gap}") + 1
    if turn_index % 2:
        column += len(texts[turn_index - 1]) + len(writer.gap)
    return line, column


def qipu(text: str, name: str) -> list[Processed]:
    data = text.encode("utf-8")
    return process_games(Source(f"oracle/AM-{name}.txt", data, sha256(data)), encoding=None, options={})


# -- checks ----------------------------------------------------------------------------


@dataclass
class Tally:
    games: int = 0
    files: int = 0
    turns: int = 0
    positions: int = 0
    first_wins: int = 0
    illegal: int = 0
    after_end: int = 0
    illegal_codes: collections.Counter[str] = field(default_factory=collections.Counter)
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)


def compare_positions(game: Game, tally: Tally, label: str) -> None:
    """Before every turn, Qipu's board agrees with OpenSpiel on the queens that can move, the destinations, the arrows."""
    board = amazons.Board(N, N)
    queens: list[list[int]] = [[], []]
    for seat, squares in enumerate((("a4", "d1", "g1", "j4"), ("a7", "d10", "g10", "j7"))):
        for name in squares:
            at = board.index((name[0], int(name[1:])))
            assert at is not None
            board.squares[at] = 1 + seat
            queens[seat].append(at)
    names = board.names
    everything = range(N * N)
    for n, (turn, seen) in enumerate(zip(game.turns, game.positions)):
        seat = n % 2
        tally.positions += 1
        movable = {names[q] for q in queens[seat] if board.can_move([q])}
        start, to, arrow = (board.index((s[0], int(s[1:]))) for s in turn)
        assert start is not None and to is not None and arrow is not None
        destinations = {names[t] for t in everything if board.blocked(start, t) is None}
        board.squares[start] = amazons.EMPTY
        arrows = {names[t] for t in everything if board.blocked(to, t) is None}
        if (movable, destinations, arrows) != (seen.queens, seen.destinations, seen.arrows):
            tally.problems.append(
                f"{label}: turn {n + 1} {turn}: Qipu's queens/destinations/arrows differ: "
                f"{sorted(movable ^ seen.queens)} / {sorted(destinations ^ seen.destinations)} / {sorted(arrows ^ seen.arrows)}"
            )
            return
        board.squares[to], board.squares[arrow] = 1 + seat, amazons.ARROW
        queens[seat][queens[seat].index(start)] = to
    loser = len(game.turns) % 2
    if board.can_move(queens[loser]):
        tally.problems.append(f"{label}: OpenSpiel's game is over but Qipu's board lets the loser move")


def illegal_turn(game: Game, n: int, rng: random.Random) -> tuple[str, str, str] | None:
    """A turn OpenSpiel refuses before turn n, near the one played: another queen, landing square or arrow."""
    state = game.states[n]
    start, to, arrow = game.turns[n]
    squares = [cell(a) for a in range(N * N)]
    for _ in range(200):
        kind = rng.randrange(3)
        if kind == 0:
            candidate = (rng.choice(squares), to, arrow)
        elif kind == 1:
            candidate = (start, rng.choice(squares), arrow)
        else:
            candidate = (start, to, rng.choice(squares))
        if not oracle_allows(state, candidate):
            return candidate
    return None


def check_file(spiel, seed: int, tally: Tally) -> None:
    """One file of one to three games."""
    rng = random.Random(seed)
    count = 1 if seed % 3 else rng.randint(2, 3)
    played = [play(spiel, rng) for _ in range(count)]
    writers = [WRITERS[(seed + k) % len(WRITERS)] for k in range(count)]
    lines: list[str] = []
    starts = []
    for k, (game, writer) in enumerate(zip(played, writers)):
        starts.append(len(lines) + 1)
        lines += game_lines(game.turns, game.winner, writer, k)
    done = qipu("\n".join(lines) + "\n", f"g{seed:x}")
    tally.files += 1
    label = f"seed {seed}"
    if len(done) != count:
        tally.problems.append(f"{label}: {count} games written, Qipu read {len(done)}")
        return
    for k, (game, result) in enumerate(zip(played, done)):
        tally.games += 1
        tally.turns += len(game.turns)
        tally.first_wins += game.winner == "first"
        problems = [d for d in result.diagnostics if d.severity != "note"]
        replay = result.replay
        if problems or replay is None or len(replay.plies) != len(game.turns):
            tally.problems.append(f"{label} game {k + 1}: Qipu refused a turn OpenSpiel played: {problems[:2]}")
            continue
        decision = replay.decision
        if decision is None or (decision.winner, decision.ply) != (game.winner, len(game.turns)):
            tally.problems.append(f"{label} game {k + 1}: OpenSpiel's winner {game.winner} at {len(game.turns)}, Qipu's {decision}")
        compare_positions(game, tally, f"{label} game {k + 1}")
    check_illegal(played[0], writers[0], rng, tally, label)
    check_after_end(played[0], writers[0], rng, tally, label)


def check_after_end(game: Game, writer: Writer, rng: random.Random, tally: Tally, label: str) -> None:
    """A turn written after OpenSpiel's end (whatever it is) is an error at that turn: the game was over."""
    extra = (rng.choice("abcdefghij") + str(rng.randint(1, N)), rng.choice("abcdefghij") + str(rng.randint(1, N)), "a1")
    turns = [*game.turns, extra]
    lines = game_lines(turns, game.winner, writer, 0)
    (done,) = qipu("\n".join(lines) + "\n", "after-end")
    tally.after_end += 1
    texts = [turn_text(t, writer) for t in turns]
    line, column = where(len(game.turns), 1, texts, writer)
    errors = [d for d in done.diagnostics if d.severity == "error"]
    replay = done.replay
    if (
        replay is None or len(replay.plies) != len(game.turns) or replay.computed != game.winner
        or [(d.code, d.line, d.column) for d in errors] != [("RULE-E003", line, column)]
    ):
        tally.problems.append(f"{label}: a turn after the end, {extra}, gave {[d.format() for d in errors]}")


def check_illegal(game: Game, writer: Writer, rng: random.Random, tally: Tally, label: str) -> None:
    n = rng.randrange(len(game.turns))
    bad = illegal_turn(game, n, rng)
    if bad is None:
        return
    turns = game.turns[:n] + [bad] + game.turns[n + 1 :]
    lines = game_lines(turns, game.winner, writer, 0)
    (done,) = qipu("\n".join(lines) + "\n", "illegal")
    tally.illegal += 1
    texts = [turn_text(t, writer) for t in turns]
    line, column = where(n, 1, texts, writer)
    errors = [d for d in done.diagnostics if d.severity == "error" and d.code.startswith("RULE-")]
    if not errors or done.replay is None:
        tally.problems.append(f"{label}: turn {n + 1} {bad} (refused by OpenSpiel) accepted by Qipu")
        return
    error = errors[0]
    tally.illegal_codes[error.code] += 1
    if (error.line, error.column) != (line, column) or len(done.replay.plies) != n or f"move {n + 1}," not in error.message:
        tally.problems.append(
            f"{label}: turn {n + 1} {bad} reported at line {error.line} column {error.column} "
            f"({len(done.replay.plies)} plies replayed), expected line {line} column {column}: {error.message}"
        )


def run(spiel, count: int, seed: int) -> Tally:
    tally = Tally()
    began = time.perf_counter()
    for k in range(count):
        check_file(spiel, seed + k, tally)
    tally.seconds = time.perf_counter() - began
    return tally


def report(t: Tally) -> None:
    print(
        f"amazons: {t.files} files, {t.games} games, {t.turns} turns, {t.positions} positions compared, "
        f"{t.first_wins} won by the first player; {t.illegal} illegal turns put in: {dict(t.illegal_codes)}; "
        f"{t.after_end} turns after the end; "
        f"{len(t.problems)} problems; {t.seconds:.1f} s"
    )
    for problem in t.problems[:10]:
        print("   ", problem)


def test_the_squares_map_both_ways() -> None:
    assert cell(0) == "a10" and cell(99) == "j1" and action("d1") == 93 and cell(action("g10")) == "g10"


def test_random_games_agree_with_openspiel(spiel) -> None:
    tally = run(spiel, FAST, FAST_SEED)
    report(tally)
    assert not tally.problems, tally.problems[:5]
    assert tally.files == FAST and tally.games > FAST and tally.illegal > FAST // 2
    assert len(tally.illegal_codes) >= 2  # refused for more than one reason


@pytest.mark.amazons_long
def test_long_run_agrees_with_openspiel(spiel, long_run) -> None:
    count = int(os.environ.get("QIPU_AMAZONS_GAMES", LONG))
    seed = int(os.environ.get("QIPU_AMAZONS_SEED", LONG_SEED))
    tally = run(spiel, count, seed)
    report(tally)
    assert not tally.problems, tally.problems[:5]
    assert tally.games >= count
