"""Differential test: random OpenSpiel games of dots and boxes, written as DB records and replayed by Qipu.

OpenSpiel (``open-spiel``, a test dependency only) plays random legal games
of ``dots_and_boxes`` with ``num_rows=num_cols=5`` (its parameters count
boxes: 6 x 6 dots) and ``utility_margin=True`` (its returns are the box
difference). Each game is written as the JSON record of the university
standard (../shared/specs/000_…txt) the way tournament programs write it:
OpenSpiel's first player is red in even seeds and blue in odd ones (the
first piece says who moved first); keys ``winner`` or ``Winner``; scores as
numbers or strings; one piece per line or the whole record on one line.

Qipu must accept every move (which also checks the turn order: a completed
box keeps the turn, and a piece by the wrong colour is an error), decide the
game at the last edge, with OpenSpiel's winner and a box difference equal
to OpenSpiel's margin. A move OpenSpiel refuses, put in place of one of the
game's moves (an edge already drawn, an edge off the board, a piece by the
player whose turn it is not), must be an error at exactly that move's line
and column, with the moves before it replayed.

A second oracle, the DotsAndBoxes package (``pip install --no-deps
DotsAndBoxes==1.1.0``: the contest GUI that writes this record), replays a
few of the same games and saves them with its own writer; Qipu must read
its files to the same score.

The default run plays a small seeded sample. The long run, 1,000 games, is
marked ``dots_long`` (deselected by default)::

    python -m pytest -m dots_long tests/test_oracle_dots.py -rP

``QIPU_DOTS_GAMES`` sets its number of games, ``QIPU_DOTS_SEED`` its first seed.
"""

from __future__ import annotations

import collections
import json
import os
import random
import time
from dataclasses import dataclass, field

import pytest
from conftest import unavailable

from generator.model import Source
from generator.pipeline import Processed, process, sha256

ROWS = COLUMNS = 5  # boxes, as OpenSpiel counts
FAST = 40
LONG = 1000
FAST_SEED = 20251124
LONG_SEED = 9_000_000


@pytest.fixture(scope="module")
def spiel():
    try:
        import pyspiel
    except ImportError as exc:
        unavailable(f"OpenSpiel is not installed ({exc}): pip install open-spiel==2.0.2")
    return pyspiel.load_game("dots_and_boxes", {"num_rows": ROWS, "num_cols": COLUMNS, "utility_margin": True})


@pytest.fixture
def long_run(request: pytest.FixtureRequest) -> None:
    if "dots_long" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("the long OpenSpiel run: python -m pytest -m dots_long tests/test_oracle_dots.py")


# -- OpenSpiel's actions as the record's pieces -----------------------------------------


def edge(action: int) -> tuple[str, str]:
    """An OpenSpiel action as the record writes its edge: the left or lower dot and h or v."""
    horizontal = (ROWS + 1) * COLUMNS
    if action < horizontal:
        row, column = divmod(action, COLUMNS)  # dots (row, column) and (row, column + 1); row 0 = top
        return f"{chr(97 + column)}{ROWS + 1 - row}", "h"
    row, column = divmod(action - horizontal, COLUMNS + 1)  # dots (row, column) and (row + 1, column)
    return f"{chr(97 + column)}{ROWS - row}", "v"


def action_of(dot: str, direction: str) -> int | None:
    """The OpenSpiel action of an edge as written, None if it is no edge of the board."""
    for action in range((ROWS + 1) * COLUMNS + ROWS * (COLUMNS + 1)):
        if edge(action) == (dot, direction):
            return action
    return None


@dataclass(slots=True)
class Game:
    moves: list[tuple[int, int]]  # (OpenSpiel player, action)
    margin: int  # boxes of player 0 minus boxes of player 1


def play(spiel, seed: int) -> Game:
    rng = random.Random(seed)
    state = spiel.new_initial_state()
    moves = []
    while not state.is_terminal():
        player = state.current_player()
        action = rng.choice(state.legal_actions())
        moves.append((player, action))
        state.apply_action(action)
    return Game(moves, int(state.returns()[0]))


# -- the record -------------------------------------------------------------------------


def pieces(game: Game, letters: tuple[str, str]) -> list[tuple[str, str, str]]:
    return [(letters[player], *edge(action)) for player, action in game.moves]


def record(game: Game, written: list[tuple[str, str, str]], letters: tuple[str, str], style: int) -> tuple[str, list[int]]:
    """The JSON record and the offset of each piece's value (its opening quote) in it.

    ``style`` 0: one piece per line, ``Winner``, scores as numbers; 1: the
    whole record on one line, ``winner``, scores as strings.
    """
    boxes = (ROWS * COLUMNS + game.margin) // 2, (ROWS * COLUMNS - game.margin) // 2  # players 0 and 1
    red = boxes[0] if letters[0] == "r" else boxes[1]
    blue = ROWS * COLUMNS - red
    head = {
        "R": "红队",
        "B": "蓝队",
        "Winner" if style == 0 else "winner": "R" if red > blue else "B",
        "RScore": red if style == 0 else str(red),
        "BScore": blue if style == 0 else str(blue),
        "Date": "2025-11-24",
        "Event": "oracle",
    }
    indent, gap = ("\n  ", "\n    ") if style == 0 else ("", " ")
    text = "{" + ",".join(f"{indent}{json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)}"
                          for k, v in head.items())
    text += f',{indent}"game": ['
    offsets = []
    for n, (letter, dot, direction) in enumerate(written):
        text += ("," if n else "") + gap + '{"piece": '
        offsets.append(len(text))
        text += f'"{letter}({dot},{direction})"' + "}"
    text += ("\n  ]\n}\n" if style == 0 else "]}")
    return text, offsets


def position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def qipu(text: str, name: str) -> Processed:
    data = text.encode("utf-8")
    return process(Source(f"oracle/game {name}.txt", data, sha256(data)), encoding=None, options={})


# -- one game ------------------------------------------------------------------------------


@dataclass
class Tally:
    games: int = 0
    plies: int = 0
    red_first: int = 0
    extra_turns: int = 0
    illegal: int = 0
    illegal_codes: collections.Counter[str] = field(default_factory=collections.Counter)
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)


def check_game(spiel, seed: int, tally: Tally) -> None:
    game = play(spiel, seed)
    letters = ("r", "b") if seed % 2 == 0 else ("b", "r")
    written = pieces(game, letters)
    style = (seed // 2) % 2
    text, offsets = record(game, written, letters, style)
    done = qipu(text, f"{seed}")
    tally.games += 1
    tally.plies += len(written)
    tally.red_first += letters[0] == "r"
    tally.extra_turns += sum(1 for a, b in zip(game.moves, game.moves[1:]) if a[0] == b[0])
    where = f"seed {seed}"
    errors = [d for d in done.diagnostics if d.severity in ("error", "warning")]
    if errors or done.replay is None or len(done.replay.plies) != len(written):
        tally.problems.append(f"{where}: Qipu refused a game OpenSpiel played: {[d.message for d in errors[:2]]}")
        return
    decision = done.replay.decision
    want = "first" if game.margin > 0 else "second"
    if decision is None or decision.winner != want or decision.ply != len(written):
        tally.problems.append(f"{where}: OpenSpiel's winner {want} at move {len(written)}, Qipu's decision {decision}")
        return
    score = decision.score or {}
    if score.get("first", 0) - score.get("second", 0) != game.margin or sum(score.values()) != ROWS * COLUMNS:
        tally.problems.append(f"{where}: OpenSpiel's margin {game.margin}, Qipu's score {score}")
    sides = [p.side for p in done.replay.plies]
    if sides != [("first", "second")[player] for player, _ in game.moves]:
        tally.problems.append(f"{where}: the turn order differs from OpenSpiel's")
    _check_illegal(spiel, game, written, letters, style, seed, tally, where)


def _candidates(game: Game, written: list[tuple[str, str, str]], n: int, letters: tuple[str, str]) -> list[tuple[str, str, str]]:
    """Pieces to put in as move n: an edge drawn before, an edge off the board, the right edge by the wrong colour."""
    letter, dot, direction = written[n]
    out = [(letter, d, r) for _, d, r in written[:n]]
    out += [(letter, "f3", "h"), (letter, "c6", "v"), (letter, "g2", "v")]
    if n > 0:
        # Not as the first move: the first piece decides which colour moves first (轮流先手), so
        # the other colour there is a legal start, and the record goes wrong only at move 2.
        out.append(("b" if letter == "r" else "r", dot, direction))
    return out


def _check_illegal(spiel, game: Game, written, letters, style: int, seed: int, tally: Tally, where: str) -> None:
    rng = random.Random(seed * 7 + 1)
    n = rng.randrange(len(written))
    candidates = [c for c in _candidates(game, written, n, letters) if _refused(spiel, game, n, c, letters)]
    if not candidates:
        tally.problems.append(f"{where}: no refused move found for move {n + 1}")
        return
    bad = rng.choice(candidates)
    changed = written[:n] + [bad] + written[n + 1 :]
    text, offsets = record(game, changed, letters, style)
    done = qipu(text, f"{seed}-illegal")
    tally.illegal += 1
    errors = [d for d in done.diagnostics if d.severity == "error" and d.code.startswith("RULE-")]
    if not errors or done.replay is None:
        tally.problems.append(f"{where}: move {n + 1} {bad} (refused by OpenSpiel) accepted by Qipu")
        return
    error = errors[0]
    tally.illegal_codes[error.code] += 1
    line, column = position(text, offsets[n])
    if (error.line, error.column) != (line, column) or len(done.replay.plies) != n or f"move {n + 1}," not in error.message:
        tally.problems.append(
            f"{where}: move {n + 1} {bad} reported at line {error.line} column {error.column} "
            f"({len(done.replay.plies)} plies replayed), expected line {line} column {column}: {error.message}"
        )


def _refused(spiel, game: Game, n: int, piece: tuple[str, str, str], letters: tuple[str, str]) -> bool:
    state = spiel.new_initial_state()
    for _, action in game.moves[:n]:
        state.apply_action(action)
    letter, dot, direction = piece
    action = action_of(dot, direction)
    return action is None or action not in state.legal_actions() or letter != letters[state.current_player()]


def run(spiel, count: int, seed: int) -> Tally:
    tally = Tally()
    began = time.perf_counter()
    for k in range(count):
        check_game(spiel, seed + k, tally)
    tally.seconds = time.perf_counter() - began
    return tally


def report(t: Tally) -> None:
    print(
        f"dots_and_boxes (DB): {t.games} games, {t.plies} plies, {t.red_first} with red first, {t.extra_turns} extra "
        f"turns after a completed box; {t.illegal} illegal moves put in: {dict(t.illegal_codes)}; "
        f"{len(t.problems)} problems; {t.seconds:.1f} s"
    )
    for problem in t.problems[:10]:
        print("   ", problem)


def test_random_games_agree_with_openspiel(spiel):
    tally = run(spiel, FAST, FAST_SEED)
    report(tally)
    assert not tally.problems, tally.problems[:5]
    assert tally.games == FAST and tally.illegal == FAST
    # Every kind of refused move was put in at least once.
    assert set(tally.illegal_codes) == {"RULE-E001", "RULE-E002", "RULE-E901"}


def test_the_edges_as_openspiel_numbers_them():
    # The top-left horizontal edge a6-b6; the first vertical edge a6 down to a5, written from a5 up.
    assert edge(0) == ("a6", "h") and edge(30) == ("a5", "v") and edge(59) == ("f1", "v")
    assert action_of("a1", "h") == 25 and action_of("f3", "h") is None


@pytest.mark.dots_long
def test_long_run_agrees_with_openspiel(spiel, long_run):
    count = int(os.environ.get("QIPU_DOTS_GAMES", LONG))
    seed = int(os.environ.get("QIPU_DOTS_SEED", LONG_SEED))
    tally = run(spiel, count, seed)
    report(tally)
    assert not tally.problems, tally.problems[:5]
    assert tally.games == count


# -- the contest's own writer ------------------------------------------------------------


def test_records_saved_by_the_contest_gui_read_to_its_score(spiel, tmp_path):
    """DotsAndBoxes (the GUI that writes this record) replays OpenSpiel games and saves them; Qipu reads them."""
    try:
        from DotsAndBoxes.dots_and_boxes.dots_and_boxes import DotsAndBoxes
        from DotsAndBoxes.dots_and_boxes.model import Color
        from DotsAndBoxes.dots_and_boxes.player import HumanPlayer
    except ImportError as exc:
        unavailable(f"DotsAndBoxes is not installed ({exc}): pip install --no-deps DotsAndBoxes==1.1.0")
    for seed in range(5):
        game = play(spiel, FAST_SEED + seed)
        gui = DotsAndBoxes()
        gui.red_player = HumanPlayer(Color.red, "红队", gui)
        gui.blue_player = HumanPlayer(Color.blue, "蓝队", gui)
        gui.new_game()
        for letter, dot, direction in pieces(game, ("r", "b")):  # the GUI's red moves first
            gui.move_with_str(f"{letter}({dot},{direction})")
        folder = tmp_path / str(seed)
        folder.mkdir()
        gui.save_to_file(str(folder) + "/", 0, "测试赛")
        (saved,) = list(folder.iterdir())
        data = saved.read_bytes()
        done = process(Source(f"gui/{saved.name}", data, sha256(data)), encoding=None, options={})
        assert done.code == "DB"
        assert not [d for d in done.diagnostics if d.severity == "error"], done.diagnostics
        assert done.replay.decision is not None and len(done.replay.plies) == len(game.moves)
        assert done.score == {"first": float(gui.red_player.score), "second": float(gui.blue_player.score)}
        assert done.meta.first == "红队" and done.meta.second == "蓝队"
        assert done.result == ("first" if gui.red_player.score > gui.blue_player.score else "second")
