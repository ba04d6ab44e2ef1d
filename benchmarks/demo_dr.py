"""The demo archive's draughts events: 100-square (DR10) and 64-square (DR8, Russian rules).

Run from the repository root::

    python benchmarks/demo_dr.py            # writes content/2025-dr10/ and content/2025-dr8/

Each event is a double round robin of four teams: every pair plays twice,
each team moving first once. Games are played by a small random player
through Qipu's own draughts rules (generator/rules/draughts.py), so each
record is legal except where it is wrong on purpose; a game the rules do not
end within its length was adjudicated on material (more pieces wins, kings
counting as three men; equal material a draw) and the record declares that.

The records come from three team programs with their own habits: the
organiser's tool (the standard's layout, with the empty first line, 先手：1,
two-digit squares, every landing square); a compact writer (ASCII colons, no
empty first line, unpadded squares, captures by start and end, 先手：2 with
FMJD's white moving first from below); a spaced writer (``29 x 18 x 27``, as
the standard's own text prints captures).

Wrong on purpose, as real tournaments have them:

* DR10: a program that ignored the majority rule and played a capture taking
  fewer pieces than it could (an error at that move; the rest not replayed);
* DR10: a program writing 先手：2 that wrote ``1-0`` for its own win, where
  the standard's ``1-0`` means the upper side won (the result contradicts the
  rules);
* DR8: a program playing Brazilian rules in this Russian event: a man crowned
  during a capture stops instead of going on as a king (the error says that
  the move is legal under Brazilian rules);
* DR8: a record without its 先手 line (a warning: the first move tells; the
  record replays).
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.rules import draughts as dr  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PLACE = "北京"
EVENTS = {
    "DR10": ("2025-dr10", "2025 计算机博弈锦标赛 国际跳棋100格", "2025.12.13", 10, "international"),
    "DR8": ("2025-dr8", "2025 计算机博弈锦标赛 国际跳棋64格", "2025.12.14", 8, "russian"),
}
TEAMS = {
    "DR10": ["重理工·山城", "哈工大·冰城", "东北大学·白山", "安大·黄山"],
    "DR8": ["重理工·嘉陵", "北科大·钢铁", "沈航·长空", "中北·汾水"],
}
SLOTS = ("09.00", "10.30", "13.30", "15.00", "16.30", "19.00")
RESULT_WORDS = {"first": "先手胜", "second": "后手胜", "draw": "平局"}


@dataclass(slots=True)
class Game:
    first: str  # the teams in the order of play
    second: str
    upper_first: bool  # 先手：1
    # Every landing square, whether a capture, whether start and end alone name it unambiguously.
    moves: list[tuple[tuple[int, ...], bool, bool]] = field(default_factory=list)
    result: str = "draw"  # first, second, draw
    decided: bool = False  # by the rules: the side to move had no move


def _material(board: list[int], side: int) -> int:
    return sum(3 if dr.is_king(p) else 1 for p in board[1:] if p and dr.owner(p) == side)


def play(size: int, rules: str, rng: random.Random, limit: int, upper_first: bool, fault: str = "") -> Game:
    """A random game; ``fault`` plays one move that the event's rules forbid (see the module's text)."""
    geo = dr.geometry(size)
    board = geo.start()
    side = dr.UPPER if upper_first else dr.LOWER
    game = Game("", "", upper_first)
    faulted = False
    for _ in range(limit):
        captures = dr.legal_captures(board, geo, side, rules)
        if not faulted and fault == "minority" and captures:
            fewer = [c for c in dr.all_captures(board, geo, side, False) if len(c.taken) < len(captures[0].taken)]
            if fewer:
                captures, faulted = fewer, True
        if not faulted and fault == "brazilian" and captures:
            other = dr.legal_captures(board, geo, side, "brazilian")
            stops = [c for c in other if not dr.judge(board, geo, side, rules, (c.start, *c.landings), True).legal]
            if stops:
                captures, faulted = stops, True
        if captures:
            capture = rng.choice(captures)
            short = not dr.ambiguous(dr.matching(captures, (capture.start, capture.end)))
            game.moves.append(((capture.start, *capture.landings), True, short))
            dr.make_capture(board, capture)
        else:
            steps = [(sq, to) for sq in range(1, geo.count + 1)
                     if board[sq] and dr.owner(board[sq]) == side for to in dr.steps(board, geo, sq)]
            if not steps:
                break
            start, to = rng.choice(steps)
            game.moves.append(((start, to), False, True))
            dr.make_step(board, geo, start, to)
        side = 1 - side
        if not dr.can_move(board, geo, side):
            game.decided = True
            mover_first = (side != dr.UPPER) == upper_first  # the side that just moved
            game.result = "first" if mover_first else "second"
            break
    else:
        first_side = dr.UPPER if upper_first else dr.LOWER
        mine, theirs = _material(board, first_side), _material(board, 1 - first_side)
        game.result = "first" if mine > theirs else "second" if theirs > mine else "draw"
    if fault and not faulted:
        game.result = "unplayed"
    return game


# -- writing a record -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Writer:
    name: str
    upper_first: bool  # writes 先手：1 (its own side on top, moving first) or 先手：2
    colon: str = "："
    blank_first: bool = True
    padded: bool = True
    short: bool = False  # a capture by start and end where that is unambiguous
    spaced: bool = False  # 29 x 18 x 27
    first_line: bool = True  # writes the 先手 line


WRITERS = (
    Writer("organiser", True),
    Writer("compact", False, colon=":", blank_first=False, padded=False, short=True),
    Writer("spaced", True, spaced=True),
)


def move_text(squares: tuple[int, ...], capture: bool, short: bool, writer: Writer) -> str:
    if capture and short and writer.short and len(squares) > 2:
        squares = (squares[0], squares[-1])
    sign = (" x " if writer.spaced else "x") if capture else "-"
    return sign.join(f"{s:02d}" if writer.padded else str(s) for s in squares)


def record_text(game: Game, writer: Writer, date: str, result_words: str | None = None) -> str:
    c = writer.colon
    upper, lower = (game.first, game.second) if game.upper_first else (game.second, game.first)
    upper_won = (game.result == "first") == game.upper_first
    words = result_words or ("*" if game.result == "draw" else "1-0" if upper_won else "0-1")
    lines = [""] if writer.blank_first else []
    lines.append(f"时间{c}{date}")
    if writer.first_line:
        lines.append(f"先手{c}{1 if game.upper_first else 2}")
    lines += [f"先手方{c}{upper}", f"后手方{c}{lower}", f"结果{c}{words}", ""]
    texts = [move_text(squares, capture, short, writer) for squares, capture, short in game.moves]
    for i in range(0, len(texts), 2):
        lines.append(f"{i // 2 + 1}. " + " ".join(texts[i : i + 2]))
    lines.append(words)
    return "\n".join(lines) + "\n"


def file_name(code: str, game: Game, date: str, slot: str, event: str) -> str:
    return f"{code}-{game.first} vs {game.second}-{RESULT_WORDS[game.result]}-{date} {slot} {PLACE}-{event}.txt"


# -- the events ----------------------------------------------------------------------


def _pairings(teams: list[str]) -> list[tuple[str, str]]:
    a, b, c, d = teams
    rounds = [(a, d), (b, c), (a, c), (d, b), (a, b), (c, d)]
    return rounds + [(y, x) for x, y in rounds]


# Which game of each event is wrong on purpose, and how.
FAULTS = {"DR10": {3: "minority", 8: "result"}, "DR8": {5: "brazilian", 10: "no-first-line"}}


def event_files(code: str) -> dict[str, str]:
    """File name -> record text, for one event."""
    folder, event, date, size, rules = EVENTS[code]
    files: dict[str, str] = {}
    for n, (first, second) in enumerate(_pairings(TEAMS[code])):
        writer = WRITERS[n % len(WRITERS)]
        fault = FAULTS[code].get(n, "")
        if fault == "result":
            writer = WRITERS[1]  # the 先手：2 writer
        if fault == "no-first-line":
            writer = Writer("bare", True, first_line=False)
        game = _game(size, rules, writer, fault, f"{code}:{n}:{first}:{second}")
        game.first, game.second = first, second
        words = None
        if fault == "result":
            # The program's own win as 1-0, though it held the lower side.
            words = "1-0" if game.result == "first" else "0-1"
        text = record_text(game, writer, date, words)
        files[file_name(code, game, date, SLOTS[n // 2], event)] = text  # two boards per round
    return files


def _game(size: int, rules: str, writer: Writer, fault: str, seed: str) -> Game:
    """The first seeded game that shows its fault (a decided game for a wrong result)."""
    for k in range(2000):
        rng = random.Random(f"{seed}:{k}")
        limit = rng.randint(150, 260) if fault == "result" else rng.randint(70, 200)
        game = play(size, rules, rng, limit, writer.upper_first, fault if fault in ("minority", "brazilian") else "")
        if game.result == "unplayed":
            continue
        if fault == "result" and not (game.decided and game.result == "first"):
            continue
        return game
    raise RuntimeError(f"no game shows the fault {fault!r}")


def main() -> None:
    for code, (folder, *_rest) in EVENTS.items():
        target = ROOT / "content" / folder
        target.mkdir(parents=True, exist_ok=True)
        for old in target.glob("*.txt"):
            old.unlink()
        for name, text in event_files(code).items():
            (target / name).write_text(text, encoding="utf-8", newline="\n")
        print(f"{folder}: {len(list(target.glob('*.txt')))} records")


if __name__ == "__main__":
    main()
