"""The demo archive's Go-family and Hex events: GO9, NoGo, Phantom Go and Hex.

Called by ``make_records.py --demo``. Four double round robins of invented
university teams, played by small random players through Qipu's own
engines (``generator.rules.go`` and ``generator.rules.hex``), so every move is
legal and every result the rules decide is the declared one, except where a
record is broken on purpose:

- ``2025-go9``: 9x9 Go. Most games end with two passes and an area count
  (komi 7.5); a few end by resignation (the declared result stands). One
  record holds a suicide move (an error on the problems page); one opens with
  the standard's own slip ``[(GO9)``.
- ``2025-ng``: NoGo, played until a side has no legal move; one record holds
  a capture, which NoGo forbids.
- ``2025-pg``: Phantom Go. The players see only their own stones and the
  ones their failed attempts found, so records hold failed attempts (the same
  colour twice in a row), as the real record in the corpus does.
- ``2025-hex``: Hex, red joining rows 1 and 11; one record declares the loser
  as the winner (the rules contradict it).

The records carry the habits of real team programs (``corpus/SOURCES.md``):
GBK or UTF-8 with a BOM, one line or one move per line, no final newline,
full-width semicolons, MARK values, passes written ``B[]`` or ``B[tt]``.
Deterministic: the same command writes the same bytes.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field

from generator import games, scene
from generator.rules.go import GoState
from generator.rules.hex import HexState

RESULT_WORDS = {"first": "先手胜", "second": "后手胜", "draw": "平局"}


@dataclass(frozen=True, slots=True)
class DemoEvent:
    folder: str
    code: str
    name: str  # as the record headers write it
    place: str
    date: str  # "2025.12.06"
    teams: tuple[str, ...]
    skill: tuple[float, ...]  # per team: how often it plays its best move instead of a random one


EVENTS = (
    DemoEvent("2025-go9", "GO9", "2025 计算机博弈锦标赛 九路围棋", "北京", "2025.12.06",
              ("北邮·星弈", "清华·天元", "北航·鹰眼", "哈工大·冰川", "东大·白山", "电子科大·蜀道"),
              (0.9, 0.8, 0.6, 0.5, 0.3, 0.2)),
    DemoEvent("2025-ng", "NG", "2025 计算机博弈锦标赛 不围棋", "北京", "2025.12.07",
              ("北交·不争", "重大·山城", "西电·无围", "中南·岳麓", "大工·海韵", "兰大·金城"),
              (0.9, 0.7, 0.6, 0.4, 0.3, 0.1)),
    DemoEvent("2025-pg", "PG", "2025 计算机博弈锦标赛 幻影围棋", "北京", "2025.12.07",
              ("北邮·幻影", "东北大学·暗棋", "沈工大·迷雾", "太原理工·晋阳"),
              (0.8, 0.6, 0.4, 0.2)),
    DemoEvent("2025-hex", "HEX", "2025 计算机博弈锦标赛 海克斯棋", "北京", "2025.12.08",
              ("北理工·六角", "南航·蜂巢", "华科·龟甲", "中山·木棉", "厦大·凤凰", "石大·油田"),
              (0.95, 0.8, 0.6, 0.5, 0.3, 0.1)),
)


@dataclass(slots=True)
class Game:
    first: str
    second: str
    # (side letter, point as written between the brackets or "" for a pass)
    moves: list[tuple[str, str]] = field(default_factory=list)
    result: str = ""  # "first", "second", "draw"
    marks: dict[int, int] = field(default_factory=dict)  # move index -> MARK value
    time: str = ""  # "09:00"


# -- players -------------------------------------------------------------------


def _point(state: GoState, i: int) -> str:
    """The point of storage index ``i`` as GO9/NG/PG records write it (``D5``)."""
    y, x = divmod(i, state.stride)
    return scene.grid_cell(x - 1, y)


def _own_eye(state: GoState, i: int, colour: int) -> bool:
    return all(state.board[q] in (colour, 3) for q in state.adj[i])  # 3: off the board


def _go_move(state: GoState, rng: random.Random, skill: float, seen: bytearray | None = None) -> list[int]:
    """Points to try in order, never the player's own eyes (Go); the best first when skilled.

    ``seen``: Phantom Go, the board as the player knows it (own stones and the
    opponent stones its failed attempts found); None: the whole board.
    Every player avoids putting its own stones in atari, as even simple
    programs do, so that both sides keep living groups; a skilled move looks
    at every point and prefers captures, ataris and liberties.
    """
    colour = state.to_move
    board = seen if seen is not None else state.board
    # Go players never fill their own eyes; in NoGo any point may be the last legal one.
    nogo = state.variant == "nogo"
    free = [i for i in state.points if board[i] == 0 and (nogo or not _own_eye(state, i, colour))]
    rng.shuffle(free)
    if nogo:
        return free
    skilled = rng.random() < skill
    sample = free if skilled else free[:4]
    scored = []
    for i in sample:
        captured, liberties, ataris = _after(board, state.adj, i, colour)
        value = -12 if liberties == 1 and not captured else 0
        if skilled:  # capture, put groups in atari, keep liberties
            value += 10 * captured + 4 * ataris + min(liberties, 4)
        scored.append((value, rng.random(), i))
    best = [i for _, _, i in sorted(scored, reverse=True)]
    return best + [i for i in free if i not in best]


def _group(board: bytearray, adj: tuple[tuple[int, ...], ...], start: int) -> tuple[set[int], set[int]]:
    """The stones of the group at ``start`` and its liberties."""
    colour = board[start]
    stones, liberties, stack = {start}, set(), [start]
    while stack:
        p = stack.pop()
        for q in adj[p]:
            if board[q] == 0:
                liberties.add(q)
            elif board[q] == colour and q not in stones:
                stones.add(q)
                stack.append(q)
    return stones, liberties


def _after(board: bytearray, adj: tuple[tuple[int, ...], ...], i: int, colour: int) -> tuple[int, int, int]:
    """If ``colour`` played ``i``: (stones captured, liberties of its group, opponent groups left in atari)."""
    trial = bytearray(board)
    trial[i] = colour
    captured = 0
    for q in adj[i]:
        if trial[q] == 3 - colour:
            stones, liberties = _group(trial, adj, q)
            if not liberties:
                captured += len(stones)
                for stone in stones:
                    trial[stone] = 0
    ataris = sum(1 for q in adj[i] if trial[q] == 3 - colour and len(_group(trial, adj, q)[1]) == 1)
    return captured, len(_group(trial, adj, i)[1]), ataris


def play_go(event: DemoEvent, first: str, second: str, rng: random.Random) -> Game:
    """Go, NoGo or Phantom Go between two teams; the engine decides the end."""
    gtype = games.GAMES[event.code]
    state = GoState(gtype, {})
    game = Game(first, second)
    skills = {1: event.skill[event.teams.index(first)], 2: event.skill[event.teams.index(second)]}
    phantom = event.code == "PG"
    seen = {1: bytearray(len(state.board)), 2: bytearray(len(state.board))}
    letter = {1: "B", 2: "W"}
    limit = 4 * len(state.points)
    while not state.over and len(game.moves) < limit:
        colour = state.to_move
        view = seen[colour] if phantom else None
        if view is not None:  # own stones as they stand now (captures are announced)
            for i in state.points:
                if state.board[i] == colour:
                    view[i] = colour
                elif view[i] == colour:
                    view[i] = 0
        played = False
        for i in _go_move(state, rng, skills[colour], view):
            reason, _, _ = state.place(i)
            if reason is None:
                game.moves.append((letter[colour], _point(state, i)))
                played = True
                break
            if phantom:  # a failed attempt is written down, and the player learns
                game.moves.append((letter[colour], _point(state, i)))
                state.fail()
                if reason == "occupied":
                    view[i] = 3 - colour
                if sum(1 for m in game.moves[-3:] if m[0] == letter[colour]) >= 3 and len(game.moves) > 60:
                    break  # three failures in one turn late in the game: the board is full enough, pass
        if not played:
            if event.code == "NG":
                break  # cannot happen: the engine ends NoGo when a side has no legal move
            game.moves.append((letter[colour], ""))
            state.pass_turn()
    game.result = state.winner or _count(state)
    return game


def _count(state: GoState) -> str:
    black, white = state.score()
    margin = black - white - state.komi
    return "first" if margin > 0 else "second" if margin < 0 else "draw"


def play_hex(event: DemoEvent, first: str, second: str, rng: random.Random) -> Game:
    """Hex: the skilled move shortens the mover's own path across the board most."""
    state = HexState(games.GAMES["HEX"], {})
    game = Game(first, second)
    skills = {"first": event.skill[event.teams.index(first)], "second": event.skill[event.teams.index(second)]}
    letter = {"first": "R", "second": "B"}
    while not state.over:
        side = state.to_move
        empty = state.empty_cells()
        if rng.random() < skills[side]:
            # A cell on short paths of both players: it helps one and blocks the other.
            other = "second" if side == "first" else "first"
            mine, theirs = _through(state, side), _through(state, other)
            x, y = min(empty, key=lambda c: (mine[c] + theirs[c], mine[c], rng.random()))
        else:
            x, y = rng.choice(empty)
        state.play(x, y)
        game.moves.append((letter[side], f"{scene.COLUMN_LETTERS[x]},{y + 1}"))
    game.result = state.winner
    return game


def _through(state: HexState, side: str) -> dict[tuple[int, int], int]:
    """For each cell: the empty cells ``side`` needs on its shortest edge-to-edge path through it."""
    low, high = _from_edge(state, side, 0), _from_edge(state, side, -1)
    return {c: low[c] + high[c] - (1 if state.at(*c) is None else 0) for c in low}


def _from_edge(state: HexState, side: str, edge: int) -> dict[tuple[int, int], int]:
    """Empty cells ``side`` must fill to reach each cell from one of its edges (0-1 BFS).

    ``edge`` 0 is row 1 (or column A), -1 row 11 (or column K). Opponent
    stones are walls (a large distance).
    """
    rows = state.joins_rows(side)
    n = state.rows if rows else state.columns
    line = 0 if edge == 0 else n - 1
    far = 10 * n
    best = {(x, y): far for y in range(state.rows) for x in range(state.columns)}
    queue: deque[tuple[int, int]] = deque()

    def cost(cell: tuple[int, int]) -> int | None:
        owner = state.at(*cell)
        return 0 if owner == side else 1 if owner is None else None

    for i in range(n):
        cell = (i, line) if rows else (line, i)
        c = cost(cell)
        if c is not None:
            best[cell] = c
            (queue.appendleft if c == 0 else queue.append)(cell)
    while queue:
        cell = queue.popleft()
        d = best[cell]
        for nb in state.neighbours(*cell):
            c = cost(nb)
            if c is not None and d + c < best[nb]:
                best[nb] = d + c
                (queue.appendleft if c == 0 else queue.append)(nb)
    return best


# -- writing --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Writer:
    """One team program's habits."""

    encoding: str = "gbk"  # "gbk", "utf-8-sig"
    one_line: bool = True
    final_newline: bool = False
    separator: str = ";"  # or "；"
    pass_text: str = ""  # "" or "tt"
    marks: bool = False


WRITERS = (
    Writer(),
    Writer("utf-8-sig", one_line=True, marks=True),
    Writer("gbk", one_line=False, final_newline=True, pass_text="tt"),
    Writer("gbk", separator="；", marks=True),
    Writer("utf-8-sig", one_line=False, pass_text="tt", marks=True),
)


def record_text(event: DemoEvent, game: Game, writer: Writer, result: str | None = None) -> str:
    gtype = games.GAMES[event.code]
    a, b = gtype.first.letter, gtype.second.letter
    when = f"{event.date} {game.time} {event.place}"
    header = f"[{event.code}][{game.first} {a}][{game.second} {b}][{RESULT_WORDS[result or game.result]}][{when}][{event.name}]"
    entries = []
    for n, (side, point) in enumerate(game.moves):
        mark = f"MARK[{game.marks[n]}]" if writer.marks and n in game.marks else ""
        if event.code == "HEX":
            entries.append(f"{side}({point}){mark}")
        else:
            entries.append(f"{side}[{point or writer.pass_text}]{mark}")
    sep = writer.separator + ("" if writer.one_line else "\r\n")
    open_, close = ("{", "}") if event.code == "HEX" else ("(", ")")
    text = f"{open_}{header}{sep}{sep.join(entries)}{close}"
    return text + ("\r\n" if writer.final_newline else "")


def file_name(event: DemoEvent, game: Game) -> str:
    gtype = games.GAMES[event.code]
    clock = game.time.replace(":", ".")
    return (
        f"{event.code}-{game.first} {gtype.first.letter} vs {game.second} {gtype.second.letter}-"
        f"{RESULT_WORDS[game.result]}-{event.date} {clock} {event.place}-{event.name}.txt"
    )


@dataclass(frozen=True, slots=True)
class DemoFile:
    path: str
    data: bytes
    quirk: str = ""


SLOTS = ("09:00", "10:00", "11:00", "13:30", "14:30", "15:30", "16:30", "17:30", "19:00", "20:00")


def _rounds(teams: tuple[str, ...]) -> list[list[tuple[str, str]]]:
    """A double round robin in rounds (circle method): every team plays once a
    round, colours alternate, and the second half repeats the first with the
    colours swapped."""
    fixed, rest = teams[0], list(teams[1:])
    rounds = []
    for r in range(len(teams) - 1):
        ring = [fixed, *rest]
        pairs = [(ring[i], ring[-1 - i]) for i in range(len(ring) // 2)]
        rounds.append([(a, b) if (r + i) % 2 == 0 else (b, a) for i, (a, b) in enumerate(pairs)])
        rest = rest[-1:] + rest[:-1]
    return rounds + [[(b, a) for a, b in pairs] for pairs in rounds]


def event_files(event: DemoEvent) -> list[DemoFile]:
    """Every record of one event: a double round robin, one round per time slot."""
    rng = random.Random(f"demo-go:{event.folder}")
    files: list[DemoFile] = []
    n = 0
    for round_no, pairs in enumerate(_rounds(event.teams)):
        for first, second in pairs:
            grng = random.Random(f"demo-go:{event.folder}:{n}")
            game = play_hex(event, first, second, grng) if event.code == "HEX" else play_go(event, first, second, grng)
            game.time = SLOTS[round_no]
            for i in range(len(game.moves)):
                if grng.random() < 0.4:
                    game.marks[i] = grng.choice((-2, -1, 0, 0, 1, 1, 2))
            writer = WRITERS[n % len(WRITERS)]
            text, quirk = _quirks(event, game, writer, n, rng)
            name = file_name(event, game)
            data = text.encode("gbk" if writer.encoding == "gbk" else writer.encoding)
            files.append(DemoFile(f"{event.folder}/{name}", data, quirk))
            n += 1
    return files


def _quirks(event: DemoEvent, game: Game, writer: Writer, n: int, rng: random.Random) -> tuple[str, str]:
    """The record's text, broken on purpose for a few games (see the module docstring)."""
    if event.code == "GO9" and n == 3:
        text = record_text(event, game, writer)
        return "[(GO9)" + text[len("([GO9]"):], "the standard's [(GO9) slip"
    if event.code == "GO9" and n in (7, 19):
        # Resigned halfway: the declared result stands, nothing is counted.
        game.moves = game.moves[: len(game.moves) // 2]
        return record_text(event, game, writer), "resigned (declared result)"
    if event.code == "GO9" and n == 11:
        broken = _with_illegal("GO9", game, "suicide", 20, 4)
        if broken:
            return record_text(event, broken, writer), "suicide move (error)"
    if event.code == "NG" and n == 5:
        broken = _with_illegal("NG", game, "capture", 10, 3)
        if broken:
            return record_text(event, broken, writer), "capture in NoGo (error)"
    if event.code == "HEX" and n == 9:
        wrong = "second" if game.result == "first" else "first"
        return record_text(event, game, writer, wrong), "declared result contradicts the connection (error)"
    return record_text(event, game, writer), ""


def _replayed(code: str, moves: list[tuple[str, str]]) -> GoState:
    state = GoState(games.GAMES[code], {})
    for _, point in moves:
        if point:
            state.place(state.index(scene.COLUMN_LETTERS.index(point[0]), int(point[1:]) - 1))
        else:
            state.pass_turn()
    return state


def _with_illegal(code: str, game: Game, reason: str, first_cut: int, tail: int) -> Game | None:
    """The game cut at the first position from ``first_cut`` on where the player to move
    has a point that is illegal for ``reason`` ("suicide"; NoGo's "capture"), played
    there, followed by ``tail`` of the moves that came next (not replayed)."""
    for cut in range(first_cut, len(game.moves)):
        state = _replayed(code, game.moves[:cut])
        for i in state.points:
            if state.board[i] != 0:
                continue
            found, _, _ = state.place(i)
            if found == reason:
                side = "B" if state.to_move == 1 else "W"
                moves = game.moves[:cut] + [(side, _point(state, i))] + game.moves[cut : cut + tail]
                return Game(game.first, game.second, moves, game.result, game.marks, game.time)
            if found is None:  # a legal move changed the position: start this cut again
                state = _replayed(code, game.moves[:cut])
    return None


def all_files() -> list[DemoFile]:
    return [f for event in EVENTS for f in event_files(event)]
