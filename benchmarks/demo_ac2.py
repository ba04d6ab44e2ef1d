"""The demo archive's army chess event (AC2), and random games for the tests and benchmarks.

    python benchmarks/demo_ac2.py [--out content]     # writes content/2025-ac2/

A double round robin of four teams: every pair plays two games, each team
moving first once; twelve games. Each side lays out its 25 pieces at random
under the layout rules, then plays through Qipu's own army chess rules
(generator/rules/armychess.py) as a small greedy player: it takes a battle
its piece wins where it has one, runs its engineers along the railways, and
otherwise moves forward at random. A game ends where the rules end it (a
flag taken, a side that cannot move, SL plies without a battle); a game
still going after 300 plies is stopped by the referee (EA[2]EB[2]).

The records come from two writers, as at a real event:

* the organiser's referee tool: the standard's file (``AB`` reversed, the
  opponent's flag on the mover's line, FB on MA lines), UTF-8;
* one team's own referee tool (as the corpus's): the second layout not
  reversed, the flag property with the mover's own letter, `` )`` as the
  closer, GBK, no ``.txt`` name suffix.

Wrong on purpose, as real tournaments have them:

* the organiser's tool records one battle's outcome wrong (a 1 typed where
  the table gives 2): an error naming both pieces, the replay goes on;
* one record's EA/EB are swapped (the loser declared the winner): the
  rules' decision contradicts it.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.rules import armychess as ac  # noqa: E402

FOLDER = "2025-ac2"
EVENT = "2025 中国计算机博弈锦标赛 · 二人军棋"
PLACE = "北京"
TEAMS = ["哈理工·铁军", "东大·先锋", "北科·利刃", "沈航·长缨"]
TOOL_TEAM = "北科·利刃"  # writes its games with its own referee tool
DAY = "2025.12.21"
SLOTS = ("09:00", "10:00", "11:00", "13:30", "14:30", "15:30")
WORDS = {"first": "先手胜", "second": "后手胜", "draw": "平局", "unknown": "未决胜"}
SL = 31
LIMIT = 300


@dataclass(slots=True)
class Move:
    seat: int
    start: str
    to: str
    outcome: int
    flags: tuple[str, str]  # after the move: where each seat's flag is shown ("00": not shown)


@dataclass(slots=True)
class Game:
    first: str
    second: str
    clock: str
    layouts: tuple[str, str] = ("", "")  # each as the player sent it (its front row first)
    moves: list[Move] = field(default_factory=list)
    result: str = "unknown"
    rule: str = ""
    fault: str = ""


# -- layouts and play -------------------------------------------------------------------------

# A player's stations in its own view (below, front row first), as the protocol's ARRAY lists them.
STATIONS = [(r, c) for r in range(6, 12) for c in range(5) if r * 5 + c not in ac.CAMPS]


def random_layout(rng: random.Random) -> str:
    """25 codes under the layout rules, in the protocol's order (G0 … L4 of the player's own view)."""
    pieces = [code for code, count in ac.COUNTS.items() for _ in range(count)]
    while True:
        slots: dict[tuple[int, int], str] = {}
        hq = rng.choice([(11, 1), (11, 3)])
        slots[hq] = "l"
        back = [s for s in STATIONS if s[0] >= 10 and s not in slots]
        for s in rng.sample(back, 3):
            slots[s] = "j"
        rest = [p for p in pieces if p not in "jl"]
        free = [s for s in STATIONS if s not in slots]
        rng.shuffle(rest)
        for s, code in zip(free, rest, strict=True):
            slots[s] = code
        if all(not (code == "k" and s[0] == 6) for s, code in slots.items()):
            return "".join(slots[s] for s in STATIONS)


def board_rows(first: str, second: str) -> list[str]:
    """The board the standard's record gives: the first player below as sent, the second turned half round."""
    rows = [["."] * 5 for _ in range(12)]
    for (r, c), code in zip(STATIONS, first, strict=True):
        rows[r][c] = code.upper()
    for (r, c), code in zip(STATIONS, second, strict=True):
        rows[11 - r][4 - c] = code
    return ["".join(row) for row in rows]


def position_of(rows: list[str]) -> ac.Position:
    position = ac.Position()
    for r, row in enumerate(rows):
        for c, code in enumerate(row):
            if code != ".":
                at = r * 5 + c
                position.cells[at] = (0 if code.isupper() else 1, code.lower(), f"p{at}")
    return position


def choose(position: ac.Position, seat: int, rng: random.Random, eager: float = 0.85) -> tuple[int, int] | None:
    """The greedy player's move: a won battle (as often as ``eager`` says), else an engineer's run or a step
    forward, else anything. A timid player (``eager`` 0) only shuffles its pieces: SL ends its games."""
    moves = list(position.moves(seat))
    if not moves:
        return None
    cells = position.cells
    wins, forward = [], []
    for start, to in moves:
        piece, target = cells[start], cells[to]
        assert piece is not None
        if target is not None and ac.battle(piece[1], target[1]) != ac.LOST:
            wins.append((start, to))
        ahead = ac.row_of(to) < ac.row_of(start) if seat == 0 else ac.row_of(to) > ac.row_of(start)
        if ahead or (piece[1] == "i" and rng.random() < 0.3):
            forward.append((start, to))
    if wins and rng.random() < eager:
        return rng.choice(wins)
    if eager == 0:
        quiet = [(start, to) for start, to in moves if cells[to] is None]
        return rng.choice(quiet or moves)
    if forward and rng.random() < 0.7:
        return rng.choice(forward)
    return rng.choice(moves)


def play(rng: random.Random, game: Game, eager: float = 0.85) -> Game:
    """Lay out, then play until the rules end the game or the referee stops it."""
    while True:
        game.layouts = (random_layout(rng), random_layout(rng))
        if game.layouts[0] != game.layouts[1]:
            break
    position = position_of(board_rows(*game.layouts))
    cells = position.cells
    flags = [next(i for i, p in enumerate(cells) if p is not None and p[0] == seat and p[1] == "l") for seat in (0, 1)]
    shown = ["00", "00"]
    quiet = 0
    for ply in range(LIMIT):
        seat = ply % 2
        move = choose(position, seat, rng, eager)
        if move is None:  # only where the previous ply left it so: the rules end the game first
            raise AssertionError("a side to move without a move")
        start, to = move
        piece, target = cells[start], cells[to]
        assert piece is not None
        outcome = ac.MOVED if target is None else ac.battle(piece[1], target[1])
        cells[start] = None
        fallen = []
        if outcome == ac.MOVED:
            cells[to] = piece
            quiet += 1
        else:
            quiet = 0
            assert target is not None
            if outcome == ac.WON:
                cells[to] = piece
                fallen = [target]
            elif outcome == ac.LOST:
                fallen = [piece]
            else:
                cells[to] = None
                fallen = [piece, target]
        for lost in fallen:
            if lost[1] == "a":
                shown[lost[0]] = ac.CELLS[flags[lost[0]]]
        game.moves.append(Move(seat, ac.CELLS[start], ac.CELLS[to], outcome, (shown[0], shown[1])))
        waiting = 1 - seat
        if not position.can_move(waiting):
            game.result, game.rule = ("draw" if not position.can_move(seat) else ac.SEATS[seat]), "no-move"
            return game
        if any(lost[1] == "l" for lost in fallen):
            game.result, game.rule = ac.SEATS[seat], "flag"
            return game
        if quiet >= SL:
            game.result, game.rule = ac.SEATS[seat], "no-battle"
            return game
    game.result, game.rule = "unknown", "stopped"
    return game


# -- the records ----------------------------------------------------------------------------------


def ends(result: str) -> tuple[str, str]:
    return {"first": ("1", "0"), "second": ("0", "1")}.get(result, ("2", "2"))


def standard_text(game: Game) -> str:
    """The organiser's tool: the standard's record."""
    lines = ["(", f";INFO[1.0]PA[{game.first}]PB[{game.second}]TL[1800]SL[{SL}]"]
    lines += [f";AA[{game.layouts[0]}]", f";AB[{game.layouts[1][::-1]}]"]
    for n, move in enumerate(game.moves):
        me, other = "AB"[move.seat], "AB"[1 - move.seat]
        outcome = move.outcome
        if game.fault == "wrong-outcome" and n == _spoiled(game):
            outcome = ac.WON
        lines.append(f";M{me}[{move.start}{move.to}]R{me}[{outcome}]F{other}[{move.flags[1 - move.seat]}]")
    ea, eb = ends(game.result)
    if game.fault == "swapped-ends":
        ea, eb = eb, ea
    lines += [f";EA[{ea}]EB[{eb}]", ")"]
    return "\n".join(lines) + "\n"


def _spoiled(game: Game) -> int:
    """The ply whose outcome the tool writes wrong: a battle where both pieces went and the piece
    the record keeps by mistake stands in nobody's way later (a typo, not a different game)."""
    for n, move in enumerate(game.moves):
        if move.outcome == ac.BOTH and not any(move.to in (m.start, m.to) for m in game.moves[n + 1 :]):
            if all(_clear(game, move.to, m) for m in game.moves[n + 1 :]):
                return n
    return -1


def _clear(game: Game, cell: str, move: Move) -> bool:
    """Whether a later move's railway run keeps clear of ``cell`` (it might have run through it)."""
    (r1, c1), (r2, c2), (r, c) = (_rc(move.start), _rc(move.to), _rc(cell))
    return not (min(r1, r2) <= r <= max(r1, r2) and min(c1, c2) <= c <= max(c1, c2))


def _rc(cell: str) -> tuple[int, int]:
    return ac.ROWS.index(cell[0]), int(cell[1])


def tool_text(game: Game) -> str:
    """A team's own tool: AB as sent (not reversed), the flag with the mover's letter, `` )`` to close."""
    lines = ["(", f";INFO[1.0]PA[{game.first}]PB[{game.second}]TL[1800]SL[{SL}]"]
    lines += [f";AA[{game.layouts[0]}]", f";AB[{game.layouts[1]}]"]
    for move in game.moves:
        me = "AB"[move.seat]
        lines.append(f";M{me}[{move.start}{move.to}]R{me}[{move.outcome}]F{me}[{move.flags[1 - move.seat]}]")
    ea, eb = ends(game.result)
    lines += [f";EA[{ea}]EB[{eb}]", " )"]
    return "\n".join(lines) + "\n"


def file_name(game: Game, suffix: str = ".txt") -> str:
    return f"AC2-{game.first} vs {game.second}-{WORDS[game.result]}-{DAY} {game.clock.replace(':', '.')} {PLACE}-{EVENT}{suffix}"


# -- the event --------------------------------------------------------------------------------------


def pairings(teams: list[str]) -> list[tuple[str, str]]:
    return [(a, b) for i, a in enumerate(teams) for b in teams[i + 1 :]]


# Which games are wrong on purpose: (pairing, game in it) -> fault.
FAULTS = {(0, 1): "wrong-outcome", (5, 0): "swapped-ends"}


def event_files(seed: int = 2025) -> dict[str, bytes]:
    """File name -> bytes of every record of the event."""
    files: dict[str, bytes] = {}
    for n, (a, b) in enumerate(pairings(TEAMS)):
        for k, (first, second) in enumerate(((a, b), (b, a))):
            fault = FAULTS.get((n, k), "")
            game = _game(Game(first, second, SLOTS[n]), random.Random(f"{seed}:{n}:{k}"), fault)
            if k:
                game.clock = f"{int(game.clock[:2]) + 5:02d}{game.clock[2:]}"
            if TOOL_TEAM in (first, second) and not fault:
                files[file_name(game, "")] = tool_text(game).encode("gb18030")
            else:
                files[file_name(game)] = standard_text(game).encode("utf-8")
    return files


def _game(game: Game, rng: random.Random, fault: str) -> Game:
    """A game the rules decide where the fault needs it, with the fault put in."""
    for _ in range(200):
        trial = play(rng, Game(game.first, game.second, game.clock))
        if fault == "swapped-ends" and trial.result not in ("first", "second"):
            continue
        if fault == "wrong-outcome" and _spoiled(trial) < 0:
            continue
        trial.fault = fault
        return trial
    raise RuntimeError(f"no game for the fault {fault!r}")


def main() -> None:
    import demo_event  # beside this script: only running it as one needs it

    demo_event.main(FOLDER, event_files, __doc__)


if __name__ == "__main__":
    main()
