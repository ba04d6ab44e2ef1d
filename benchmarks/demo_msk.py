"""The demo archive's 5x5 minishogi event (MSK), and random games for the benchmarks.

    python benchmarks/demo_msk.py [--out content]

A double round robin of four teams (each pair plays twice, each side first
once) in ``content/2025-msk/``, written as the MSK format's programs write
it: the version line, players, the event, ``PI``, moves with their times on
lines of their own or after a comma, and the special move that ends the
game. Every game is played by a small greedy player through Qipu's own
minishogi rules, so every record is legal and every result the rules decide
is the declared one, except on purpose:

* one record writes a bishop's move with the rook's code (``HI`` for
  ``KA``), the very fault of the standard's own example: an error at that
  move, and the replay goes on;
* one record's file name declares the loser as the winner (typed by hand):
  the rules' checkmate contradicts it.

Games the rules do not decide within 160 moves end with the side behind in
material resigning (``%TORYO``): the declared result stands.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator import games  # noqa: E402
from generator.model import Move, Ply  # noqa: E402
from generator.rules.shogi import INDEX, KIND, KINDS, ShogiEngine  # noqa: E402

FOLDER = "2025-msk"
EVENT = "2025 中国计算机博弈锦标赛 · 五五将棋"
PLACE = "北京"
TEAMS = ["北航·飞龙", "东大·小角", "哈工大·金将", "重大·步兵"]
DAYS = ("2025.12.13", "2025.12.14")
MAX_PLIES = 160
VALUE = {"FU": 1, "GI": 5, "KI": 6, "KA": 8, "HI": 10, "TO": 6, "NG": 6, "UM": 12, "RY": 13, "OU": 0}
WORDS = {"first": "先手胜", "second": "后手胜"}
MSK = games.GAMES["MSK"]


@dataclass(slots=True)
class Game:
    first: str
    second: str
    day: str
    clock: str
    moves: list[str] = field(default_factory=list)
    times: list[int] = field(default_factory=list)
    result: str = ""  # "first" or "second"
    special: str = "%TORYO"
    decided: bool = False  # checkmate


def play(rng: random.Random, game: Game | None = None) -> Game:
    """A game of the greedy player against itself: captures and promotions first, otherwise at random."""
    game = game or Game("A", "B", DAYS[0], "10:00")
    engine = ShogiEngine(MSK)  # the standard start
    while len(game.moves) < MAX_PLIES:
        _push(engine, game, rng)
        if engine.decision is not None:
            game.result, game.decided = engine.decision.winner, True
            game.special = "%TORYO" if rng.random() < 0.5 else "%TSUMI"
            return game
    # No mate in time: the side to move resigns (%TORYO); the player lets it come to the side behind in material.
    if _material(engine, engine.turn) > _material(engine, 1 - engine.turn) and engine.legal_moves():
        _push(engine, game, rng)
        if engine.decision is not None:
            game.result, game.decided, game.special = engine.decision.winner, True, "%TSUMI"
            return game
    game.special = "%TORYO"
    game.result = "second" if engine.turn == 0 else "first"
    return game


def _push(engine: ShogiEngine, game: Game, rng: random.Random) -> None:
    """The greedy player's move, played and written down."""
    text = max(engine.legal_moves(), key=lambda m: _score(engine, m, rng))
    start = None if text[1:3] == "00" else (text[1], int(text[2]))
    move = Move(text[0], text, start, 0, 0, to=(text[3], int(text[4])), parts=(text[5:],))
    ply = engine.play(move, engine.read(move), len(game.moves) + 1, engine.turn)
    assert isinstance(ply, Ply), ply
    if engine.unsettled:  # the player needs to know at once whether the game is over (see Engine.settle)
        engine.unsettled = False
        engine.settle(ply)
    game.moves.append(text)
    game.times.append(rng.randint(1, 30))


def _material(engine: ShogiEngine, seat: int) -> int:
    on_board = sum(VALUE[KINDS[k]] for i, k in enumerate(engine.kind) if k and engine.owner[i] == seat)
    return on_board + sum(VALUE[KINDS[k]] * n for k, n in enumerate(engine.hand[seat]) if k)


def _score(engine: ShogiEngine, text: str, rng: random.Random) -> float:
    """Captures by the value taken, then promotions, then chance."""
    captured = engine.kind[INDEX[text[3], int(text[4])]]
    value = VALUE[KINDS[captured]] * 10 if captured else 0
    promotes = text[1:3] != "00" and KIND[text[5:]] != engine.kind[INDEX[text[1], int(text[2])]]
    return value + (4 if promotes else 0) + rng.random() * 6


def record_text(game: Game, style: int) -> str:
    """The record as one of three programs writes it: times on their own lines, after a comma, or none."""
    lines = [f"'{EVENT}", "V2.1-55", f"N+{game.first}", f"N-{game.second}", f"$EVENT:{EVENT}", f"$SITE:{PLACE}"]
    lines.append(f"$START_TIME:{game.day.replace('.', '/')} {game.clock}:00")
    lines += ["PI", "+"]
    for move, seconds in zip(game.moves, game.times, strict=True):
        if style == 0:
            lines += [move, f"T{seconds}"]
        elif style == 1:
            lines.append(f"{move},T{seconds}")
        else:
            lines.append(move)
    lines.append(game.special)
    return "\r\n".join(lines) + "\r\n" if style == 1 else "\n".join(lines) + "\n"


def event_files() -> dict[str, bytes]:
    """Every record of the event: file name -> bytes."""
    rng = random.Random("demo-msk-2025")
    pairs = [(a, b) for a in TEAMS for b in TEAMS if a != b]
    files: dict[str, bytes] = {}
    played: list[tuple[Game, int]] = []
    for n, (first, second) in enumerate(pairs):
        day = DAYS[n // 6]
        clock = f"{9 + (n % 6) // 2 * 2:02d}:{'00' if n % 2 == 0 else '30'}"
        game = play(rng, Game(first, second, day, clock))
        played.append((game, n % 3))
    _wrong_piece(played)
    wrong_name = next(i for i, (g, _) in enumerate(played) if g.decided and g.result == "first")
    for i, (game, style) in enumerate(played):
        words = WORDS[game.result]
        if i == wrong_name:
            words = WORDS["second"]  # typed by hand: the winner mixed up
        name = f"MSK-{game.first} vs {game.second}-{words}-{game.day} {game.clock.replace(':', '.')} {PLACE}-{EVENT}.txt"
        text = record_text(game, style)
        files[name] = text.encode("gb18030" if style == 2 else "utf-8")
    return files


def _wrong_piece(played: list[tuple[Game, int]]) -> None:
    """The standard's own fault, once: a bishop's move written with the rook's code."""
    for game, _ in played:
        for i, move in enumerate(game.moves):
            if move.endswith("KA") and move[1:3] != "00":
                game.moves[i] = move[:5] + "HI"
                return


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "content"))
    args = parser.parse_args(argv)
    folder = Path(args.out) / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    files = event_files()
    for name, data in files.items():
        (folder / name).write_bytes(data)
    print(f"{FOLDER}: {len(files)} records")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
