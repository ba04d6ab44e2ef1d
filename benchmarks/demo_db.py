"""The demo archive's dots and boxes event (DB): content/2025-db/.

Run from the repository root::

    python benchmarks/demo_db.py            # writes content/2025-db/

A double round robin of four teams: every pair plays twice, each team moving
first once. The games are played by a small seeded player through Qipu's own
dots and boxes rules (generator/rules/dots.py): it takes a box when it can,
else draws an edge that gives none away, else any edge (so the long chains
at the end go to whoever the parity favours), and every game is played to
its last edge.

The records come from three team programs with their own habits, all seen in
the real files (../shared/corpus/DB, ORACLES.md on the contest GUI):

* the contest GUI (DotsAndBoxes): the whole record on one line, team names as
  ``\\u`` escapes, red always first, the file named ``DB：红 vs 蓝：先手胜.txt``
  with full-width colons, as the GUI names it;
* the gotack library: four-space indents, lower-case ``winner``, a date
  without leading zeros, the naming rule's file name;
* the organiser's tool: the standard's keys (``Winner``), scores as strings,
  a comment (``annotation``) on the move that opens the first long chain.

Wrong on purpose, as real tournaments have them:

* a program that writes its mover as ``n`` (as the standard's own example
  does): a warning, and the moves replay by the turn order;
* a program that swapped RScore and BScore: an error (the boxes counted win);
* a file cut off in the middle of the game list (the program was stopped
  while saving): an error where the JSON breaks; the header and the pieces
  before it are read, and the declared result stands;
* a game aborted after a crash (its program lost on time), declared for the
  other side: no error, the page says that the result is declared.
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.rules.dots import DotsState, H, V, dot_name  # noqa: E402

FOLDER = "2025-db"
EVENT = "2025 计算机博弈锦标赛 点格棋"
DATE = "2025.12.20"
PLACE = "北京"
TEAMS = ["北航·格物", "川大·锦江", "东大·白山", "合工大·巢湖"]
SLOTS = ("09:00", "10:00", "11:00", "14:00", "15:00", "16:00")
SIZE = 6  # dots
# Which game is wrong on purpose, and how.
FAULTS = {2: "mover-n", 5: "swapped-score", 7: "cut-off", 10: "aborted"}


@dataclass(slots=True)
class Game:
    first: str  # the team that moved first
    second: str
    first_colour: str  # "r" or "b"
    pieces: list[str] = field(default_factory=list)
    boxes: list[int] = field(default_factory=lambda: [0, 0])  # per seat
    opened_chain: int = 0  # the move that gave away the first box, 0: none

    @property
    def winner(self) -> int:
        return 0 if self.boxes[0] > self.boxes[1] else 1


def _edges() -> list[tuple[int, int, int]]:
    return [(H, x, y) for y in range(SIZE) for x in range(SIZE - 1)] + [(V, x, y) for y in range(SIZE - 1) for x in range(SIZE)]


def _sides_drawn(state: DotsState, box: tuple[int, int]) -> int:
    x, y = box
    return sum(edge in state.drawn for edge in ((H, x, y), (H, x, y + 1), (V, x, y), (V, x + 1, y)))


def choose(state: DotsState, rng: random.Random) -> tuple[int, int, int]:
    """Take a box if one is open, else give none away, else anything."""
    free = [e for e in _edges() if e not in state.drawn]
    taking = [e for e in free if any(_sides_drawn(state, b) == 3 for b in state.sides_of(*e))]
    if taking:
        return rng.choice(taking)
    safe = [e for e in free if all(_sides_drawn(state, b) < 2 for b in state.sides_of(*e))]
    return rng.choice(safe or free)


def play(first: str, second: str, first_colour: str, rng: random.Random) -> Game:
    game = Game(first, second, first_colour)
    state = DotsState(SIZE, SIZE)
    colours = (first_colour, "b" if first_colour == "r" else "r")
    seat, ply = 0, 0
    while not state.over:
        ply += 1
        edge = choose(state, rng)
        gives = any(_sides_drawn(state, b) == 2 for b in state.sides_of(*edge))
        if gives and not game.opened_chain:
            game.opened_chain = ply
        won = state.draw(edge, ply, seat)
        direction, x, y = edge
        game.pieces.append(f"{colours[seat]}({dot_name(x, y)},{'hv'[direction]})")
        if not won:
            seat = 1 - seat
    game.boxes = list(state.taken)
    return game


def _pairings(teams: list[str]) -> list[tuple[str, str]]:
    """Every pair twice, each team first once; two boards per round."""
    pairs = [(a, b) for i, a in enumerate(teams) for b in teams[i + 1 :]]
    return pairs + [(b, a) for a, b in pairs]


def record(game: Game, writer: str, fault: str, date: str, rng: random.Random) -> str:
    red_first = game.first_colour == "r"
    red, blue = (game.first, game.second) if red_first else (game.second, game.first)
    red_score, blue_score = (game.boxes[0], game.boxes[1]) if red_first else (game.boxes[1], game.boxes[0])
    pieces = list(game.pieces)
    winner_seat = game.winner
    if fault == "aborted":
        # The first mover's program crashed: the game stops, and its opponent wins on time.
        pieces = pieces[: rng.randint(12, 30)]
        winner_seat = 1
        red_score = blue_score = 0
    if fault == "swapped-score":
        red_score, blue_score = blue_score, red_score
    winner_colour = (game.first_colour if winner_seat == 0 else ("b" if red_first else "r")).upper()
    if fault == "mover-n":
        pieces = ["n" + p[1:] if n % 3 == 0 else p for n, p in enumerate(pieces)]
    if writer == "gui":
        entries = [{"piece": p} for p in pieces]
        head = {"R": red, "B": blue, "winner": winner_colour, "RScore": red_score, "BScore": blue_score,
                "Date": date.replace(".", "-"), "Event": EVENT, "game": entries}
        text = json.dumps(head)
    elif writer == "gotack":
        y, m, d = date.split(".")
        head = {"R": red, "B": blue, "winner": winner_colour, "RScore": red_score, "BScore": blue_score,
                "Date": f"{int(y)}-{int(m)}-{int(d)}", "Event": EVENT, "game": [{"piece": p} for p in pieces]}
        text = json.dumps(head, ensure_ascii=False, indent=4)
    else:
        entries = []
        for n, p in enumerate(pieces):
            entry = {"piece": p}
            if n + 1 == game.opened_chain:
                entry["annotation"] = "无安全边，只能让格"
            entries.append(entry)
        head = {"R": red, "B": blue, "Winner": winner_colour, "RScore": str(red_score), "BScore": str(blue_score),
                "Date": date.replace(".", "-"), "Event": EVENT, "game": entries}
        text = json.dumps(head, ensure_ascii=False, indent=2)
    if fault == "cut-off":
        text = text[: text.index('"piece"', len(text) // 2)]
    return text if writer == "gui" else text + "\n"


def file_name(game: Game, writer: str, fault: str, date: str, slot: str) -> str:
    first_won = game.winner == 0 and fault != "aborted"
    word = "先手胜" if first_won else "后手胜"
    if writer == "gui":
        return f"DB：{game.first} vs {game.second}：{word} {date.replace('.', '')}{slot.replace(':', '')}.txt"
    return f"DB-{game.first} vs {game.second}-{word}-{date} {slot.replace(':', '.')} {PLACE}-{EVENT}.txt"


WRITERS = ("organiser", "gotack", "gui")


def event_files() -> dict[str, bytes]:
    """File name -> record bytes, for the event."""
    files: dict[str, bytes] = {}
    for n, (first, second) in enumerate(_pairings(TEAMS)):
        rng = random.Random(f"DB:{n}:{first}:{second}")
        writer = WRITERS[n % len(WRITERS)]
        fault = FAULTS.get(n, "")
        # The GUI's red always moves first; the others let the draw decide.
        colour = "r" if writer == "gui" or rng.random() < 0.5 else "b"
        game = play(first, second, colour, rng)
        text = record(game, writer, fault, DATE, rng)
        files[file_name(game, writer, fault, DATE, SLOTS[n // 2])] = text.encode("utf-8")
    return files


def main() -> None:
    import demo_event  # beside this script: only running it as one needs it

    demo_event.main(FOLDER, event_files, __doc__)


if __name__ == "__main__":
    main()
