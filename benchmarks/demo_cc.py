"""The demo archive's xiangqi event, written the way real programs write CC records.

    python benchmarks/demo_cc.py [--out content]

Four teams, a double round robin (each pair twice, red and black once each):
twelve games in ``content/2025-cc/``. Every game is played by a small greedy
player (mate in one when it sees one, otherwise a capture of the most valuable
piece it can take, otherwise a random move) through Qipu's own xiangqi rules,
so every record is legal and every result the rules decide (checkmate,
stalemate) is the declared one. A game the rules do not end within the move
limit is resigned by the side behind on material, or agreed drawn.

Each team's program writes its own dialect (``corpus/SOURCES.md``): the
standard's CCGC coordinates (``H2E2``) in GB18030, the 1st CCGC archive's
Chinese notation (``炮二平五 马８进７``, ``RedTeam``/``BlackTeam`` tags, indented
move numbers, an advert after the result) and lower-case ICCS with comments.

On purpose, two faults organisers meet: one record declares the loser of a
checkmate as the winner (an error on the problems page), and one record in
Chinese notation writes a move by its file where two such pieces stand on it
(车三进一 for 前车进一: a warning, read as the only piece that can move so).

:func:`play` is also what the replay benchmark and the tests use for random
legal games.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.formats.pgn import canonical  # noqa: E402
from generator.rules.xiangqi import (  # noqa: E402
    ADVISOR,
    CELLS,
    ELEPHANT,
    KING,
    WIDTH,
    Position,
    start_position,
)

FOLDER = "2025-cc"
TEAMS = ["北理工·象眼", "东北大学·棋天", "哈工大·楚汉", "合工大·将神"]
# The dialect each team's program writes.
DIALECT = {"北理工·象眼": "ccgc", "东北大学·棋天": "chinese", "哈工大·楚汉": "iccs", "合工大·将神": "ccgc"}
VALUE = (0, 100, 2, 2, 4, 9, 4, 1)  # by kind: general, advisor, elephant, horse, chariot, cannon, soldier
LIMIT = 180  # plies before the players stop and the game is resigned or drawn
EVENT = "2025 中国计算机博弈锦标赛"
ADVERT = "============================\r\n欢迎访问 2025 中国计算机博弈锦标赛棋谱库\r\n"


@dataclass(slots=True)
class Game:
    red: str
    black: str
    round: int
    moves: list[tuple[int, int]] = field(default_factory=list)  # (start, target) cell indices
    notations: list[str] = field(default_factory=list)  # Chinese notation of each move
    result: str = "*"  # "1-0", "0-1", "1/2-1/2"
    ending: str = ""  # "checkmate", "stalemate", "resigned", "agreed"


def play(rng: random.Random, limit: int = LIMIT) -> tuple[list[tuple[int, int]], list[str], str, str]:
    """A greedy game from the start: (moves, Chinese notations, result, how it ended)."""
    position = start_position()
    moves: list[tuple[int, int]] = []
    notations: list[str] = []
    side = 0
    while len(moves) < limit:
        legal = position.legal_moves(side)
        if not legal:
            winner = 1 - side
            ending = "checkmate" if position.in_check(side) else "stalemate"
            return moves, notations, ("1-0", "0-1")[winner], ending
        move = _choose(position, side, legal, rng)
        notations.append(position.notation(*move))
        position.push(*move)
        moves.append(move)
        side = 1 - side
    balance = sum(
        VALUE[p & 7] * (1 if p >> 3 == 0 else -1) for p in position.cells if p and p & 7 != KING
    )
    if abs(balance) >= 4:
        return moves, notations, "1-0" if balance > 0 else "0-1", "resigned"
    return moves, notations, "1/2-1/2", "agreed"


def _choose(position: Position, side: int, legal: list[tuple[int, int]], rng: random.Random) -> tuple[int, int]:
    cells = position.cells
    for move in legal:
        taken = position.push(*move)
        mate = not position.has_move(1 - side)
        position.pop(*move, taken)
        if mate:
            return move
    captures = [(VALUE[cells[t] & 7], rng.random(), (s, t)) for s, t in legal if cells[t]]
    if captures and rng.random() < 0.85:
        return max(captures)[2]
    return rng.choice(legal)


def iccs(move: tuple[int, int], upper: bool) -> str:
    """The move in coordinates: CCGC ``H2E2`` (upper) or ICCS ``h2e2``."""
    text = CELLS[move[0]] + CELLS[move[1]]
    return text if upper else text.lower().replace("j", "i")


def schedule() -> list[Game]:
    """The double round robin: six rounds of two games, then the return legs with colours swapped."""
    teams = TEAMS
    pairs = [[(teams[0], teams[3]), (teams[1], teams[2])], [(teams[2], teams[0]), (teams[3], teams[1])],
             [(teams[0], teams[1]), (teams[2], teams[3])]]
    games = []
    for leg in range(2):
        for n, rnd in enumerate(pairs):
            for red, black in rnd:
                games.append(Game(*((red, black) if leg == 0 else (black, red)), round=leg * 3 + n + 1))
    return games


def play_all() -> list[Game]:
    games = schedule()
    for n, game in enumerate(games):
        rng = random.Random(f"demo-cc:{n}")
        game.moves, game.notations, game.result, game.ending = play(rng)
    return games


def ambiguous_rewrite(game: Game) -> int | None:
    """The first move whose piece shares its file with a twin that cannot make the move: written by file (a fault)."""
    position = start_position()
    for n, (start, target) in enumerate(game.moves):
        piece = position.cells[start]
        notation = game.notations[n]
        column = start % WIDTH
        if notation[0] in "前后" and piece & 7 not in (ADVISOR, ELEPHANT) and position.cells[column::WIDTH].count(piece) == 2:
            side = piece >> 3
            # Only a move the other piece cannot make by the same words is a warning, not an error.
            written = notation[1] + position.file_name(side, column) + notation[2:]
            if position.resolve(side, canonical(written) or "") == (start, target):
                game.notations[n] = written
                return n
        position.push(start, target)
    return None


def record_text(game: Game, dialect: str, declared: str | None = None) -> str:
    result = declared or game.result
    date = f"2025.12.{13 + (game.round - 1) // 3}"
    if dialect == "chinese":
        tags = [
            ("Game", "Chinese Chess"), ("Event", EVENT), ("Round", str(game.round)),
            ("Date", date), ("Site", "北京"), ("RedTeam", game.red), ("Red", game.red),
            ("BlackTeam", game.black), ("Black", game.black), ("Result", result), ("ECCO", ""), ("Opening", ""),
        ]
        lines = [f'[{k} "{v}"]' for k, v in tags]
        notes = game.notations
        for i in range(0, len(notes), 2):
            pair = " ".join(notes[i : i + 2])
            lines.append(f"{i // 2 + 1:>3}. {pair}")
        lines.append(f" {result}")
        return "\r\n".join(lines) + "\r\n" + ADVERT
    upper = dialect == "ccgc"
    tags = [
        ("Game", "Chinese Chess"), ("Event", EVENT), ("Site", "北京"), ("Date", date),
        ("Round", str(game.round)), ("Red", game.red), ("RedElo", ""), ("Black", game.black), ("BlackElo", ""),
        ("Result", result), ("ECCO", "?"), ("Opening", "?"), ("Variation", "?"), ("FEN", "?"),
    ]
    if not upper:
        tags = [t for t in tags if t[0] not in ("RedElo", "BlackElo", "ECCO", "Opening", "Variation", "FEN")]
    lines = [f'[{k} "{v}"]' for k, v in tags] + [""]
    moves = [iccs(m, upper) for m in game.moves]
    for i in range(0, len(moves), 2):
        lines.append(f"{i // 2 + 1}. " + " ".join(moves[i : i + 2]))
    if not upper:
        lines.append("{" + {"checkmate": "绝杀", "stalemate": "困毙", "resigned": "认负", "agreed": "议和"}[game.ending] + "}")
    lines.append(result)
    return "\n".join(lines) + "\n"


WORDS = {"1-0": "先手胜", "0-1": "后手胜", "1/2-1/2": "平局"}


def event_files() -> list[tuple[str, bytes]]:
    """(file name, bytes) of every record of the event."""
    games = play_all()
    out = []
    wrong_result_done = ambiguity_done = False
    for n, game in enumerate(games):
        dialect = DIALECT[game.red]
        declared = None
        if not wrong_result_done and game.ending == "checkmate" and dialect == "ccgc":
            # The fault: the writer swapped the colours of the result.
            declared = "0-1" if game.result == "1-0" else "1-0"
            wrong_result_done = True
        if dialect == "chinese" and not ambiguity_done:
            ambiguity_done = ambiguous_rewrite(game) is not None
        text = record_text(game, dialect, declared)
        stamp = f"202512{13 + (game.round - 1) // 3}{9 + n % 8:02d}{(n * 7) % 60:02d}"
        # The naming rule of the standards: .txt (the CC section names .PGN; the corpus tests read those).
        name = f"CC-{game.red} vs {game.black}-{WORDS[declared or game.result]}-{stamp}.txt"
        data = text.encode("gb18030" if dialect in ("ccgc", "chinese") else "utf-8")
        out.append((name, data))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="content", help="the content folder (default: content)")
    args = parser.parse_args(argv)
    folder = Path(args.out) / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("CC-*"):
        old.unlink()
    for name, data in event_files():
        (folder / name).write_bytes(data)
        print(folder / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
