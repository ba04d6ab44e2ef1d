"""Differential test: random pyffish games of 5x5 minishogi, written as MSK records, replayed by Qipu.

pyffish (Fairy-Stockfish, variant ``minishogi``; pinned in the test
requirements, never imported by ``generator``) plays random legal games;
each is written as the CSA-based MSK record a tournament program writes
(version line, players, ``PI``, moves with the piece after the move, drops
from ``00``, and the special move that ends it) with the result in the file
name. Qipu must accept every move; where the rules decide (checkmate, or no
legal move) it must name pyffish's winner; where the game ended otherwise it
must decide nothing and the declared result stands.

Where the two differ, the test follows the rules of the standard and says so:

* Pawn-drop mate (打ち歩詰め). pyffish lists it as a legal move and then
  scores the position as a loss for the side that dropped. (A pawn drop
  that leaves the opponent no move without checking is no such mate: it is
  legal, and the side without a move loses, in pyffish and in Qipu.) The rules forbid
  the move: Qipu must refuse exactly that drop (RULE-E706), and the declared
  result (the dropper lost, written ``%+ILLEGAL_ACTION`` or
  ``%-ILLEGAL_ACTION``) stands: the same winner, for another reason.
* Repetition (千日手). pyffish ends the game at the fourth occurrence of a
  position and gives it to gote (or against the side giving perpetual
  check); the MSK standard ends it with ``%SENNICHITE`` and says nothing of
  the winner. Qipu must note the repetition at exactly the last move and
  keep the declared result.

Moves pyffish refuses (a piece that does not move so, a move into check, a
drop onto an occupied square, 二歩, a missing forced promotion ...) put in
the middle of a game must be errors at exactly that move.

The default run plays a small seeded sample; the long run (1,000 games) is
marked ``minishogi_long``::

    python -m pytest -m minishogi_long tests/test_oracle_minishogi.py -rP
"""

from __future__ import annotations

import collections
import os
import random
from dataclasses import dataclass

import pytest
from conftest import unavailable

from generator.model import Source
from generator.pipeline import Processed, process, sha256

V = "minishogi"
FAST_GAMES, LONG_GAMES = 6, 1000
FAST_ILLEGAL, LONG_ILLEGAL = 12, 1000
FAST_SEED, LONG_SEED = 20251124, 5_000_000
MAX_PLIES = 300
# Qipu's codes for the moves the rules refuse (rules/shogi.py, and the driver's wrong side).
REFUSED = {"RULE-E701", "RULE-E702", "RULE-E703", "RULE-E705", "RULE-E706", "RULE-E707"}
PAWN_DROP_MATE = "RULE-E706"
REPETITION = "RULE-N701"
NO_RESULT = "RES-W001"

LETTERS = {"P": "FU", "S": "GI", "G": "KI", "B": "KA", "R": "HI", "K": "OU"}
PROMOTED = {"FU": "TO", "GI": "NG", "KA": "UM", "HI": "RY"}
FEN_PROMOTED = {"+P": "TO", "+S": "NG", "+B": "UM", "+R": "RY"}
RESULT_WORDS = {"first": "先手胜", "second": "后手胜", None: "未决胜"}


@pytest.fixture(scope="module")
def sf():
    try:
        import pyffish
    except ImportError as exc:
        unavailable(f"pyffish is not installed ({exc}): pip install pyffish==0.0.90")
    return pyffish


@pytest.fixture
def long_run(request: pytest.FixtureRequest) -> None:
    """The long run only when its marker is asked for (-m minishogi_long)."""
    if "minishogi_long" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("the long minishogi run: python -m pytest -m minishogi_long tests/test_oracle_minishogi.py")


# -- pyffish's notation and the MSK record ------------------------------------------------


def csa_square(sq: str) -> str:
    """FSF ``a1`` (sente's lower left) as an MSK square: file 5, rank 5 -> ``55``."""
    return f"{5 - (ord(sq[0]) - 97)}{6 - int(sq[1:])}"


def fen_board(fen: str) -> dict[str, tuple[str, str]]:
    """The board of a FEN: FSF square -> (side, MSK piece); FEN ranks 5 (gote's side) down to 1."""
    board = {}
    rows = fen.split("[")[0].split()[0].split("/")
    for r, row in enumerate(rows):
        rank, file, promoted = 5 - r, 0, False
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            elif ch == "+":
                promoted = True
            else:
                code = FEN_PROMOTED["+" + ch.upper()] if promoted else LETTERS[ch.upper()]
                board[f"{chr(97 + file)}{rank}"] = ("+" if ch.isupper() else "-", code)
                file, promoted = file + 1, False
    return board


def msk_move(board: dict[str, tuple[str, str]], fsf: str, side: str) -> str:
    """One pyffish move as MSK writes it (the piece after the move), applied to ``board``."""
    if "@" in fsf:
        code = LETTERS[fsf[0].upper()]
        board[fsf[2:4]] = (side, code)
        return f"{side}00{csa_square(fsf[2:4])}{code}"
    start, to = fsf[0:2], fsf[2:4]
    _, code = board.pop(start)
    if fsf.endswith("+"):
        code = PROMOTED[code]
    board[to] = (side, code)
    return f"{side}{csa_square(start)}{csa_square(to)}{code}"


@dataclass
class Game:
    seed: int
    moves: list[str]  # pyffish's
    written: list[str]  # the MSK moves
    end: str  # "mate", "pawn-drop-mate", "repetition", "cap"
    winner: str | None  # "first" (sente), "second", None


def verdict(sf, start: str, moves: list[str]) -> tuple[list[str], tuple[str | None, str] | None]:
    """pyffish's legal moves, and how the game ended if it did: (winner, why)."""
    sente_to_move = len(moves) % 2 == 0
    legal = sf.legal_moves(V, start, moves)
    if not legal:
        value = sf.game_result(V, start, moves)
        return legal, (_winner(value, sente_to_move), "no-move")
    end, value = sf.is_optional_game_end(V, start, moves)
    return legal, ((_winner(value, sente_to_move), "repetition") if end else None)


def _winner(value: int, sente_to_move: bool) -> str | None:
    if value == 0:
        return None
    return "first" if (value > 0) == sente_to_move else "second"


def random_game(sf, seed: int) -> Game:
    rng = random.Random(seed)
    start = sf.start_fen(V)
    board = fen_board(start)
    moves: list[str] = []
    written: list[str] = []
    while True:
        legal, ended = verdict(sf, start, moves)
        if ended is not None:
            winner, why = ended
            end = why
            if why == "no-move":
                # A pawn drop that leaves no move is a pawn-drop mate only when it checks; a
                # drop that stalemates is legal, and the side without a move loses (pyffish agrees).
                dropped = moves[-1][0] == "P" and "@" in moves[-1]
                end = "pawn-drop-mate" if dropped and sf.gives_check(V, start, moves) else "mate"
            return Game(seed, moves, written, end, winner)
        if len(moves) >= MAX_PLIES:
            return Game(seed, moves, written, "cap", None)
        move = rng.choice(sorted(legal))
        written.append(msk_move(board, move, "+" if len(moves) % 2 == 0 else "-"))
        moves.append(move)


def record(game: Game, moves: list[str] | None = None, special: str | None = None) -> str:
    """The MSK record of a game: version, players, the standard start, the moves, its special move."""
    lines = ["'pyffish random game", "V2.1-55", "N+Sente Bot", "N-Gote Bot", "$EVENT:oracle", "PI", "+"]
    for n, move in enumerate(moves if moves is not None else game.written):
        lines.append(move)
        lines.append(f"T{n % 7}")
    if special is None:
        special = {
            "mate": "%TSUMI",
            "repetition": "%SENNICHITE",
            "cap": "%CHUDAN",
            # The side that dropped lost: %+ILLEGAL_ACTION names sente as the offender.
            "pawn-drop-mate": "%+ILLEGAL_ACTION" if game.winner == "second" else "%-ILLEGAL_ACTION",
        }[game.end]
    lines.append(special)
    return "\n".join(lines) + "\n"


def qipu(text: str, name: str) -> Processed:
    data = text.encode("utf-8")
    return process(Source(f"oracle/{name}.txt", data, sha256(data)), encoding=None, options={})


def move_line(text: str, number: int) -> int:
    """The line of the record's ``number``-th move (1-based)."""
    seen = 0
    for i, line in enumerate(text.splitlines(), 1):
        if line[:1] in "+-" and len(line) == 7:
            seen += 1
            if seen == number:
                return i
    raise AssertionError(f"no move {number}")


def _report(game: Game, text: str, p: Processed, what: str) -> str:
    decision = p.replay.decision if p.replay else None
    lines = [
        f"seed {game.seed}: {what}",
        f"  pyffish: end {game.end}, winner {game.winner}, {len(game.written)} moves",
        f"  Qipu: plies {p.plies}, computed {p.computed}" + (f" ({decision.rule} at {decision.ply})" if decision else ""),
    ]
    lines += [f"  {d.format()}" for d in p.diagnostics if d.severity != "note"][:5]
    lines.append("  moves: " + " ".join(game.written))
    return "\n".join(lines)


# -- whole games ---------------------------------------------------------------------------


def check_games(sf, count: int, base: int) -> collections.Counter:
    tally: collections.Counter = collections.Counter()
    failures = []
    for seed in range(base, base + count):
        game = random_game(sf, seed)
        tally[f"end:{game.end}"] += 1
        tally["moves"] += len(game.written)
        words = RESULT_WORDS[game.winner]
        text = record(game)
        p = qipu(text, f"s{seed}/MSK-Sente Bot vs Gote Bot-{words}")
        problems = check_one(game, text, p)
        if problems:
            failures.append(_report(game, text, p, "; ".join(problems)))
            tally["disagree"] += 1
        else:
            tally["agree"] += 1
    if failures:
        pytest.fail(f"{len(failures)} of {count} games disagree:\n\n" + "\n\n".join(failures[:6]), pytrace=False)
    return tally


def check_one(game: Game, text: str, p: Processed) -> list[str]:
    problems = []
    errors = [d for d in p.diagnostics if d.severity == "error"]
    n = len(game.written)
    if game.end == "pawn-drop-mate":
        # The rules refuse the drop pyffish plays: exactly there, and the declared result stands.
        if p.plies != n - 1 or [d.code for d in errors] != [PAWN_DROP_MATE] or errors[0].line != move_line(text, n):
            problems.append(f"the pawn-drop mate at move {n} is not refused there")
        if p.result != game.winner:
            problems.append(f"result: pyffish {game.winner}, Qipu {p.result}")
        return problems
    warnings = [d for d in p.diagnostics if d.severity == "warning" and d.code != NO_RESULT]
    if errors or warnings:
        problems.append("Qipu reports errors or warnings")
    if p.plies != n:
        problems.append(f"Qipu replayed {p.plies} of {n} moves")
    if game.end == "mate":
        if p.computed != game.winner:
            problems.append(f"winner: pyffish {game.winner}, Qipu {p.computed}")
    elif p.computed is not None:
        problems.append(f"Qipu decides {p.computed} where the rules do not")
    if game.end == "repetition":
        noted = [d for d in p.diagnostics if d.code == REPETITION]
        if len(noted) != 1 or noted[0].line != move_line(text, n):
            problems.append("the fourfold repetition is not noted at the last move")
        if p.result != game.winner:
            problems.append(f"declared result {game.winner} does not stand: Qipu {p.result}")
    return problems


# -- moves pyffish refuses -------------------------------------------------------------------


def illegal_move(sf, rng: random.Random, moves: list[str], board: dict[str, tuple[str, str]]) -> str | None:
    """A well-formed MSK move that pyffish refuses in this position (a board move or a drop), or None.

    Half the board moves go one step, where pins, checks and forced promotions are.
    """
    start = sf.start_fen(V)
    legal = set(sf.legal_moves(V, start, moves))
    side = "+" if len(moves) % 2 == 0 else "-"
    squares = [f"{f}{r}" for f in "abcde" for r in range(1, 6)]
    fen = sf.get_fen(V, start, moves)
    hand = fen.split("[")[1].split("]")[0] if "[" in fen else ""
    own_hand = sorted({c.upper() for c in hand if (c.isupper() if side == "+" else c.islower())})
    mine = [sq for sq, (owner, _) in board.items() if owner == side]
    for _ in range(500):
        if own_hand and rng.random() < 0.4:
            letter = rng.choice(own_hand)
            to = rng.choice(squares)
            if f"{letter}@{to}" not in legal:
                return f"{side}00{csa_square(to)}{LETTERS[letter]}"
            continue
        start_sq = rng.choice(mine)
        if rng.random() < 0.5:
            near = [sq for sq in squares if max(abs(ord(sq[0]) - ord(start_sq[0])), abs(int(sq[1]) - int(start_sq[1]))) == 1]
            to = rng.choice(near)
        else:
            to = rng.choice(squares)
        if start_sq == to or f"{start_sq}{to}" in legal:
            continue
        return f"{side}{csa_square(start_sq)}{csa_square(to)}{board[start_sq][1]}"
    return None


def check_illegal(sf, count: int, base: int) -> collections.Counter:
    """In ``count`` random positions (up to 80 random plies in), one move pyffish refuses: Qipu must refuse it there."""
    tally: collections.Counter = collections.Counter()
    failures = []
    start = sf.start_fen(V)
    for seed in range(base, base + count):
        rng = random.Random(seed * 7 + 1)
        board = fen_board(start)
        moves: list[str] = []
        prefix: list[str] = []
        for _ in range(rng.randrange(0, 80)):
            legal = sf.legal_moves(V, start, moves)
            if not legal or sf.is_optional_game_end(V, start, moves)[0]:
                break
            move = rng.choice(sorted(legal))
            prefix.append(msk_move(board, move, "+" if len(moves) % 2 == 0 else "-"))
            moves.append(move)
        if not sf.legal_moves(V, start, moves):
            tally["game over before the illegal move"] += 1
            continue
        bad = illegal_move(sf, rng, moves, board)
        if bad is None:
            tally["no illegal move found"] += 1
            continue
        k = len(prefix)
        game = Game(seed, moves, prefix, "cap", None)
        text = record(game, [*prefix, bad], "%CHUDAN")
        p = qipu(text, f"i{seed}/MSK-Sente Bot vs Gote Bot-未决胜")
        errors = [d for d in p.diagnostics if d.severity == "error"]
        line = move_line(text, k + 1)
        if p.plies != k or not errors or errors[-1].code not in REFUSED or errors[-1].line != line:
            failures.append(
                f"seed {seed}: {bad} at move {k + 1} (line {line}) is refused by pyffish; Qipu: plies {p.plies}, "
                + "; ".join(d.format() for d in errors[:3])
                + "\n  moves: " + " ".join(prefix)
            )
            tally["disagree"] += 1
        else:
            tally[errors[-1].code] += 1
    if failures:
        pytest.fail(f"{len(failures)} of {count} illegal moves disagree:\n\n" + "\n\n".join(failures[:8]), pytrace=False)
    return tally


# -- the tests -------------------------------------------------------------------------------


def test_random_games_agree(sf):
    tally = check_games(sf, FAST_GAMES, FAST_SEED)
    print("minishogi games:", dict(sorted(tally.items())))
    assert tally["agree"] == FAST_GAMES


def test_moves_pyffish_refuses_are_refused_at_that_move(sf):
    tally = check_illegal(sf, FAST_ILLEGAL, FAST_SEED)
    print("minishogi illegal moves:", dict(sorted(tally.items())))
    refused = sum(v for k, v in tally.items() if k.startswith("RULE-"))
    assert refused >= FAST_ILLEGAL // 2 and refused + tally["no illegal move found"] + tally["game over before the illegal move"] == FAST_ILLEGAL


def test_pawn_drop_mate_pyffish_lists_is_refused_and_the_dropper_loses(sf):
    # The position of ORACLES.md: gote's king on 11, sente's silver on 32 and gold on 23, a pawn in hand.
    fen = "4k/2S2/3G1/5/K4[P] w - - 0 1"
    assert "P@e4" in sf.legal_moves(V, fen, [])  # pyffish lists the drop
    assert sf.legal_moves(V, fen, ["P@e4"]) == [] and sf.game_result(V, fen, ["P@e4"]) > 0  # and then gote wins
    board = fen_board(fen)
    position = [f"P{side}{csa_square(sq)}{code}" for sq, (side, code) in sorted(board.items())]
    text = "\n".join(["V2.1-55", *position, "P+00FU", "+", msk_move(board, "P@e4", "+"), "%+ILLEGAL_ACTION"]) + "\n"
    p = qipu(text, "udm/MSK-Sente Bot vs Gote Bot-后手胜")
    errors = [d for d in p.diagnostics if d.severity == "error"]
    assert [d.code for d in errors] == [PAWN_DROP_MATE] and errors[0].line == len(position) + 4
    assert p.plies == 0 and p.result == "second"


def test_a_fourfold_repetition_is_noted_and_the_declared_result_stands(sf):
    # The kings step out and back: the start position for the fourth time after twelve moves.
    start = sf.start_fen(V)
    cycle = ["a1b2", "e5d4", "b2a1", "d4e5"] * 3
    assert not sf.is_optional_game_end(V, start, cycle[:-1])[0]
    ended, value = sf.is_optional_game_end(V, start, cycle)
    assert ended
    board = fen_board(start)
    written = [msk_move(board, m, "+" if i % 2 == 0 else "-") for i, m in enumerate(cycle)]
    game = Game(0, cycle, written, "repetition", _winner(value, True))
    text = record(game)
    p = qipu(text, f"rep/MSK-Sente Bot vs Gote Bot-{RESULT_WORDS[game.winner]}")
    assert check_one(game, text, p) == []
    assert game.winner == "second"  # pyffish's rule: gote wins a repetition; here only declared


@pytest.mark.minishogi_long
def test_long_run(sf, long_run):
    seed = int(os.environ.get("QIPU_MINISHOGI_SEED", LONG_SEED))
    games = int(os.environ.get("QIPU_MINISHOGI_GAMES", LONG_GAMES))
    tally = check_games(sf, games, seed)
    print(f"\nminishogi, {games} pyffish games from seed {seed}:", dict(sorted(tally.items())))
    illegal = check_illegal(sf, int(os.environ.get("QIPU_MINISHOGI_ILLEGAL", LONG_ILLEGAL)), seed)
    print("minishogi illegal moves:", dict(sorted(illegal.items())))
    assert tally["agree"] == games
