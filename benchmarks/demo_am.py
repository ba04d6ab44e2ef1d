"""The demo archive's Amazons event (AM), and random games for the benchmarks.

    python benchmarks/demo_am.py [--out content]     # writes content/2025-am/

A round robin of six teams in which every pair plays two games, each team
moving first once: thirty games. Each game is played by a small greedy
player through Qipu's own Amazons rules (generator/rules/amazons.py): of a
few random legal turns it takes the one that leaves its queens the most
room and the opponent's the least. A game ends when a side cannot move (the
rules decide it); a side left far behind in room resigns earlier, and the
record ends there with the declared result.

The records come from three writers, as at a real event:

* the organiser's tool: one file per game, named as the standard says, the
  header, numbered turns in lower case, UTF-8;
* a team's engine log (as ``知于行``'s in the corpus): both games of its
  pairings appended in one GBK file named after the team, upper-case
  coordinates, double spaces, and a remark after the header's ``;`` saying
  which colour it held;
* a Python GUI: one file per game, the result words ``输赢未定`` until an
  operator typed the result in.

Wrong on purpose, as real tournaments have them:

* the GUI writes one arrow where the queen stood before the move instead of
  where it landed (a flight that is on no line): an error at that move;
  the rest of the game is shown as not replayed;
* one record's header has the result outside the brackets
  (``[乙]后手胜[2025…]``): a warning, and the result is read;
* one record's header declares the loser as the winner (typed by hand; the
  file name has it right): the rules' decision contradicts it.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator import games  # noqa: E402
from generator.rules import amazons as am  # noqa: E402

FOLDER = "2025-am"
EVENT = "2025 中国计算机博弈锦标赛 · 亚马逊棋"
PLACE = "北京"
TEAMS = ["知于行", "北理工·马爷", "东北大学·雪原", "重大·嘉陵", "哈工程·破浪", "沈航·长空"]
LOGGER = "知于行"  # the team whose engine log holds both games of each of its pairings
DAYS = ("2025.12.20", "2025.12.21")
SLOTS = ("09:00", "10:30", "13:30", "15:00", "16:30")
WORDS = {"first": "先手胜", "second": "后手胜"}
AM = games.GAMES["AM"]
SIZE = AM.columns
DIRECTIONS = am.DIRECTIONS


@dataclass(slots=True)
class Game:
    first: str
    second: str
    day: str
    clock: str
    turns: list[tuple[str, str, str]] = field(default_factory=list)
    result: str = ""  # "first" or "second"
    decided: bool = False  # the loser could not move
    fault: str = ""


# -- the player ------------------------------------------------------------------------


def _ray(board: am.Board, start: int, dc: int, dr: int) -> list[int]:
    """The empty squares from ``start`` along one direction, nearest first."""
    out = []
    c, r = start % SIZE + dc, start // SIZE + dr
    while 0 <= c < SIZE and 0 <= r < SIZE and board.squares[r * SIZE + c] == am.EMPTY:
        out.append(r * SIZE + c)
        c, r = c + dc, r + dr
    return out


def reach(board: am.Board, start: int) -> list[int]:
    return [sq for dc, dr in DIRECTIONS for sq in _ray(board, start, dc, dr)]


def room(board: am.Board, queens: list[int]) -> int:
    """Empty squares next to the queens: how much room a side has."""
    return sum(1 for q in queens for n in board.neighbours[q] if board.squares[n] == am.EMPTY)


def random_turn(board: am.Board, queens: list[int], rng: random.Random) -> tuple[int, int, int] | None:
    movable = [q for q in queens if board.can_move([q])]
    if not movable:
        return None
    start = rng.choice(movable)
    to = rng.choice(reach(board, start))
    piece, board.squares[start] = board.squares[start], am.EMPTY  # the arrow may fly over or onto it
    arrow = rng.choice(reach(board, to))
    board.squares[start] = piece
    return start, to, arrow


def apply(board: am.Board, queens: list[int], seat: int, turn: tuple[int, int, int]) -> None:
    start, to, arrow = turn
    board.squares[start] = am.EMPTY
    board.squares[to], board.squares[arrow] = 1 + seat, am.ARROW
    queens[queens.index(start)] = to


def undo(board: am.Board, queens: list[int], seat: int, turn: tuple[int, int, int]) -> None:
    start, to, arrow = turn
    board.squares[arrow] = am.EMPTY
    board.squares[to] = am.EMPTY
    board.squares[start] = 1 + seat
    queens[queens.index(to)] = start


def start_position() -> tuple[am.Board, list[list[int]]]:
    board = am.Board(SIZE, SIZE)
    queens: list[list[int]] = []
    for seat, squares in enumerate(AM.params["start"]):
        mine = []
        for name in squares:
            at = board.index((name[0], int(name[1:])))
            assert at is not None
            board.squares[at] = 1 + seat
            mine.append(at)
        queens.append(mine)
    return board, queens


def play(rng: random.Random, game: Game, tries: int = 12, resign_at: int = 12) -> Game:
    """A greedy game: of ``tries`` random turns, the one with the best room; resigns when hopelessly behind."""
    board, queens = start_position()
    names = board.names
    seat = 0
    while True:
        if not board.can_move(queens[seat]):
            game.result, game.decided = ("second" if seat == 0 else "first"), True
            return game
        best, best_score = None, -10**9
        for _ in range(tries):
            turn = random_turn(board, queens[seat], rng)
            assert turn is not None
            apply(board, queens[seat], seat, turn)
            score = room(board, queens[seat]) - 2 * room(board, queens[1 - seat])
            undo(board, queens[seat], seat, turn)
            if score > best_score:
                best, best_score = turn, score
        assert best is not None
        apply(board, queens[seat], seat, best)
        game.turns.append((names[best[0]], names[best[1]], names[best[2]]))
        seat = 1 - seat
        mine, theirs = room(board, queens[seat]), room(board, queens[1 - seat])
        if len(game.turns) > 40 and mine * 4 < theirs and theirs - mine >= resign_at:
            game.result = "second" if seat == 0 else "first"  # the side to move resigns
            return game


# -- the records ---------------------------------------------------------------------------


def turn_text(turn: tuple[str, str, str], upper: bool) -> str:
    text = f"{turn[0]}{turn[1]}({turn[2]})"
    return text.upper() if upper else text


def header(game: Game, words: str, outside: bool = False) -> str:
    when = f"{game.day.replace('.', '/')} {game.clock}:00 {PLACE}"
    if outside:  # the result written between the brackets, as one real GUI does
        return f"#[AM][{game.first}][{game.second}]{words}[{when}][{EVENT}];"
    return f"#[AM][{game.first}][{game.second}][{words}][{when}][{EVENT}];"


def turns_lines(game: Game, upper: bool = False, gap: str = " ") -> list[str]:
    texts = [turn_text(t, upper) for t in game.turns]
    return [f"{i // 2 + 1}{gap}" + gap.join(texts[i : i + 2]) for i in range(0, len(texts), 2)]


def organiser_file(game: Game, words: str | None = None, outside: bool = False) -> tuple[str, bytes]:
    words = words or WORDS[game.result]
    text = "\n".join([header(game, words, outside), *turns_lines(game)]) + "\n"
    return file_name(game, WORDS[game.result]), text.encode("utf-8")


def gui_file(game: Game) -> tuple[str, bytes]:
    """The GUI's file: ``输赢未定`` in the header (the operator typed the result in the file name only)."""
    text = "\n".join([header(game, "输赢未定"), *turns_lines(game)])  # and no final newline
    return file_name(game, WORDS[game.result]), text.encode("utf-8")


def log_file(team: str, pairing: list[Game]) -> tuple[str, bytes]:
    """The team's engine log: every game of a pairing appended, in GBK, CRLF, upper case."""
    lines = [""]
    for game in pairing:
        colour = "执白先手" if game.first == team else "执黑后手"
        lines.append(header(game, WORDS[game.result]) + f" {team}{colour}")
        lines += turns_lines(game, upper=True, gap="  ")
    opponent = next(t for t in (pairing[0].first, pairing[0].second) if t != team)
    name = f"AM-{team}-对{opponent}-棋谱-{pairing[0].day}.txt"
    return name, "\r\n".join(lines).encode("gb18030") + b"\r\n"


def file_name(game: Game, words: str) -> str:
    return f"AM-{game.first} vs {game.second}-{words}-{game.day} {game.clock.replace(':', '.')} {PLACE}-{EVENT}.txt"


# -- the event --------------------------------------------------------------------------------


def pairings(teams: list[str]) -> list[tuple[str, str]]:
    """A single round robin by the circle method: fifteen pairs of six teams, five rounds of three."""
    fixed, rest = teams[0], teams[1:]
    out = []
    for r in range(len(rest)):
        ring = [fixed, *rest[r:], *rest[:r]]
        out += [(ring[k], ring[-1 - k]) for k in range(len(ring) // 2)]
    return out


# Which games are wrong on purpose: (pairing, game in it) -> fault.
FAULTS = {(1, 1): "arrow-from-start", (4, 0): "result-outside", (7, 1): "wrong-winner"}


def event_files(seed: int = 2025) -> dict[str, bytes]:
    """File name -> bytes of every record of the event."""
    files: dict[str, bytes] = {}
    for n, (a, b) in enumerate(pairings(TEAMS)):
        day, slot = DAYS[n // 9], SLOTS[(n % 9) // 2]
        pairing = []
        for k, (first, second) in enumerate(((a, b), (b, a))):
            clock = slot if k == 0 else f"{int(slot[:2]) + 1:02d}{slot[2:]}"
            game = _game(Game(first, second, day, clock), random.Random(f"{seed}:{n}:{k}"), FAULTS.get((n, k), ""))
            pairing.append(game)
        if LOGGER in (a, b):
            name, data = log_file(LOGGER, pairing)
            files[name] = data
            continue
        for k, game in enumerate(pairing):
            if game.fault == "result-outside":
                name, data = organiser_file(game, outside=True)
            elif game.fault == "wrong-winner":
                name, data = organiser_file(game, words=WORDS["first" if game.result == "second" else "second"])
            elif n % 5 == 2 and k == 1 or game.fault == "arrow-from-start":
                name, data = gui_file(game)
            else:
                name, data = organiser_file(game)
            files[name] = data
    return files


def _game(game: Game, rng: random.Random, fault: str) -> Game:
    """A game; a decided one where the fault needs the rules' verdict; the fault put in."""
    for _ in range(200):
        trial = play(rng, Game(game.first, game.second, game.day, game.clock))
        if fault == "wrong-winner" and not trial.decided:
            continue
        trial.fault = fault
        if fault == "arrow-from-start":
            _arrow_from_start(trial, rng)
        return trial
    raise RuntimeError(f"no game for the fault {fault!r}")


def _arrow_from_start(game: Game, rng: random.Random) -> None:
    """One turn's arrow written as if shot from the queen's old square: on no line from where it landed."""
    for n in rng.sample(range(10, len(game.turns)), len(game.turns) - 10):
        start, to, arrow = game.turns[n]
        board = am.Board(SIZE, SIZE)
        a, b, c = (board.index((s[0], int(s[1:]))) for s in (start, to, arrow))
        assert a is not None and b is not None and c is not None
        # The arrow's square seen from the old square, moved onto no line from the landing square.
        for candidate in range(SIZE * SIZE):
            seen_from_start = board.blocked(a, candidate) != am.NO_LINE
            if candidate not in (a, b) and board.blocked(b, candidate) == am.NO_LINE and seen_from_start:
                if abs(candidate % SIZE - c % SIZE) + abs(candidate // SIZE - c // SIZE) <= 2:
                    game.turns[n] = (start, to, board.names[candidate])
                    return
    raise RuntimeError("no turn to spoil")


def main() -> None:
    import demo_event  # beside this script: only running it as one needs it

    demo_event.main(FOLDER, event_files, __doc__)


if __name__ == "__main__":
    main()
