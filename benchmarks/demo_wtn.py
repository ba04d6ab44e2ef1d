"""The demo archive's EinStein würfelt nicht event (WTN), played as matches.

Run from the repository root::

    python benchmarks/demo_wtn.py            # writes content/2025-wtn/

Four teams play a round robin; each pairing plays a match of five games, the
first mover changing from game to game. Two of the three writers append the
match's games to one file, as the programs teams publish do; the third
writes a file per game. Every game is played
by a small seeded player through Qipu's own EinStein rules
(generator/rules/einstein.py): the die is thrown, the player takes one of the
moves it allows, preferring to reach the far corner or to take an enemy
piece, and otherwise choosing at random. Each program chooses its own
set-up, shuffled for every game.

The match files come from three writers with the habits of real ones:

* the organiser's tool: the standard's header ``#[WTN][A R][B B][先手胜][…][…];``,
  the set-ups in the standard's order, moves as ``1:5;(R5,C3)``, a MARK (1-5)
  now and then;
* a C++ engine that appends every game to its log: the header names the
  teams by colour (``[红方:A][蓝方:B][红方先手][红方胜]``), ``R: A5-1;…;`` with a
  space and a trailing ``;``, moves as ``(from,to)`` squares;
* a Python GUI that writes one file per game: ``[None]`` in the result field
  (the file name says it), a leading space in the second team's name, the
  set-up squares listed in another order, and a file name with no ``-``
  before its 12-digit time (``WTN-AvsB-先手胜202512200900.txt``).

Wrong on purpose, as real tournaments have them:

* a program that moved the piece it wanted rather than the one the die
  allowed (an error at that move; the rest of that game is not replayed,
  the other games of its match are);
* a writer that swapped the result words of one game (后手胜 for a game the
  first mover won: the declared result contradicts the rules).
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.rules import einstein as wtn  # noqa: E402

FOLDER = "2025-wtn"
EVENT = "2025 计算机博弈锦标赛 爱恩斯坦棋"
DATE = "2025.12.20"
PLACE = "北京"
TEAMS = ["北理工·掷骰", "合工大·相对论", "东北大学·六面", "重邮·五格"]
SLOTS = ("09.00", "10.30", "13.30", "15.00", "16.30", "19.00")
GAMES_PER_MATCH = 5
WRITERS = ("organiser", "cpp", "python")
# Faults by (match index, game index): see the module's text.
FAULTS = {(1, 2): "die", (3, 3): "result"}


@dataclass(slots=True)
class Game:
    """One game as played: the set-ups, the first mover's colour, the moves and the winner."""

    setups: dict[str, list[tuple[str, int]]]
    first: str  # "R" or "B"
    moves: list[tuple[int, str, int, str, str]] = field(default_factory=list)  # (die, side, piece, from, to)
    winner: str | None = None  # the colour that won
    faulted: bool = False


def _setup(rng: random.Random, side: str) -> list[tuple[str, int]]:
    numbers = list(range(1, 7))
    rng.shuffle(numbers)
    return [(square, n) for (square, _), n in zip(wtn.STANDARD[side], numbers, strict=True)]


def play(rng: random.Random, first: str, fault: str = "") -> Game:
    """A game to its end; with ``fault == "die"`` one move of a piece the die did not allow."""
    game = Game({side: _setup(rng, side) for side in ("R", "B")}, first)
    board: dict[int, tuple[str, int]] = {}
    for side, pairs in game.setups.items():
        for square, n in pairs:
            board[wtn.INDEX[square]] = (side, n)
    side = first
    while game.winner is None:
        die = rng.randint(1, 6)
        mine = {n: at for at, (s, n) in board.items() if s == side}
        pieces = wtn.allowed(set(mine), die)
        if fault == "die" and not game.faulted and len(game.moves) >= 6 and len(mine) > len(pieces):
            pieces = tuple(n for n in mine if n not in pieces)[:1]
            game.faulted = True
        options = [(n, mine[n], to) for n in pieces for to in wtn.forward(side, mine[n])]
        n, start, to = _choose(rng, options, board, side)
        taken = board.pop(to, None)
        board[to] = board.pop(start)
        game.moves.append((die, side, n, wtn.CELLS[start], wtn.CELLS[to]))
        if to == wtn.TARGET[side] or (taken is not None and not any(s != side for s, _ in board.values())):
            game.winner = side
        side = wtn.OTHER[side]
    return game


def _choose(rng: random.Random, options: list[tuple[int, int, int]], board: dict[int, tuple[str, int]], side: str):
    """Reach the corner if it can, else take an enemy piece half the time, else any move."""
    for option in options:
        if option[2] == wtn.TARGET[side]:
            return option
    takes = [o for o in options if board.get(o[2], (side, 0))[0] != side]
    if takes and rng.random() < 0.5:
        return rng.choice(takes)
    return rng.choice(options)


# -- writing ---------------------------------------------------------------------------


def _words(game: Game, wrong: bool = False) -> str:
    first_won = game.winner == game.first
    return "先手胜" if first_won != wrong else "后手胜"


def _setup_line(side: str, pairs: list[tuple[str, int]], writer: str) -> str:
    if writer == "cpp":
        return f"{side}: " + "".join(f"{sq}-{n};" for sq, n in pairs)
    if writer == "python":
        pairs = sorted(pairs, key=lambda p: (p[0][1], p[0][0]))  # the squares row by row from the bottom
    return f"{side}:" + ";".join(f"{sq}-{n}" for sq, n in pairs)


def game_text(game: Game, teams: dict[str, str], writer: str, when: str, rng: random.Random, wrong: bool) -> str:
    """One game as the writer writes it. ``teams``: colour -> team."""
    first, second = game.first, wtn.OTHER[game.first]
    result = _words(game, wrong)  # a faulted game too: its program played on to the end
    if writer == "cpp":
        colour = {"R": "红方", "B": "蓝方"}
        won = f"{colour[game.winner or 'R']}胜"
        head = f"#[WTN][红方:{teams['R']}][蓝方:{teams['B']}][{colour[first]}先手][{won}][{when} {PLACE}][{EVENT}]"
    elif writer == "python":
        head = f"#[WTN][{teams[first]} {first}][ {teams[second]} {second}][None][{when} {PLACE}][{EVENT}];"
    else:
        head = f"#[WTN][{teams[first]} {first}][{teams[second]} {second}][{result}][{when} {PLACE}][{EVENT}];"
    lines = [head, _setup_line("R", game.setups["R"], writer), _setup_line("B", game.setups["B"], writer)]
    for k, (die, side, n, start, to) in enumerate(game.moves, 1):
        if writer == "cpp":
            text = f"{k}:{die};({start},{to})"
        else:
            text = f"{k}:{die};({side}{n},{to})"
        if writer == "organiser" and rng.random() < 0.15:
            text += f"MARK[{rng.randint(1, 5)}]"
        lines.append(text)
    return "\n".join(lines) + "\n"


def _pairings(teams: list[str]) -> list[tuple[str, str]]:
    return [(a, b) for i, a in enumerate(teams) for b in teams[i + 1 :]]


def event_files() -> dict[str, bytes]:
    """File name -> bytes of every record file of the event, the same on every run."""
    files: dict[str, bytes] = {}
    for m, (a, b) in enumerate(_pairings(TEAMS)):
        rng = random.Random(f"WTN:{m}:{a}:{b}")
        writer = WRITERS[m % len(WRITERS)]
        slot = SLOTS[m % len(SLOTS)]
        red, blue = (a, b) if m % 2 == 0 else (b, a)
        teams = {"R": red, "B": blue}
        texts, wins = [], {a: 0, b: 0}
        for g in range(GAMES_PER_MATCH):
            fault = FAULTS.get((m, g), "")
            first = "R" if g % 2 == 0 else "B"
            game = _game(rng, first, fault)
            if game.winner:
                wins[teams[game.winner]] += 1
            # Each game at its own time: a game takes about ten minutes.
            hour, minute = (int(x) for x in slot.split("."))
            clock = f"{hour + (minute + 10 * g) // 60:02d}:{(minute + 10 * g) % 60:02d}"
            when = f"{DATE} {clock}" if writer != "cpp" else f"{DATE.replace('.', '-')} {clock}:{rng.randint(0, 59):02d}"
            text = game_text(game, teams, writer, when, rng, fault == "result")
            if writer == "python":
                # One file per game, the time glued to the result words, as the GUI names them.
                first_team, second_team = teams[game.first], teams[wtn.OTHER[game.first]]
                digits = DATE.replace(".", "") + clock.replace(":", "")
                files[f"WTN-{first_team}vs{second_team}-{_words(game)}{digits}.txt"] = text.encode("utf-8")
            texts.append(text)
        if writer != "python":
            # One file per match, all its games appended; the name has the match's winner and day.
            winner = a if wins[a] > wins[b] else b
            files[f"WTN-{a} vs {b}-{winner}胜出-{DATE} {PLACE}-{EVENT}.txt"] = "".join(texts).encode("gb18030")
    return files


def _game(rng: random.Random, first: str, fault: str) -> Game:
    """The next seeded game that shows its fault (a game long enough for the die fault)."""
    for _ in range(200):
        game = play(rng, first, fault if fault == "die" else "")
        if fault != "die" or game.faulted:
            return game
    raise RuntimeError(f"no game shows the fault {fault!r}")


def main() -> None:
    import demo_event  # beside this script: only running it as one needs it

    demo_event.main(FOLDER, event_files, __doc__)


if __name__ == "__main__":
    main()
