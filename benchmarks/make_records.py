"""Write invented, legal C5/C6 game records in the CCGC ``{[C5]…}`` format.

Two uses:

``python benchmarks/make_records.py N OUTDIR [--seed S] [--jobs J]``
    N random games (gomoku and connect6 mixed) spread over several events
    (one folder each, at least 8 teams per event), for the build benchmark.
    Fast: stones go near earlier stones at random, and at the end the winner
    fills a line on purpose (or resigns, or a draw is agreed).

``python benchmarks/make_records.py --demo [--out content]``
    Re-make the demo archive's records (``content/2025-c5``,
    ``content/2025-c6``, and through ``demo_su.py`` and ``demo_go.py`` the
    Surakarta, GO9, NoGo, Phantom Go and Hex events): double round robins played by a small greedy
    player whose strength depends on the team, with planned results that make
    interesting standings (a tie on points broken by a tie-break), and the
    realistic blemishes the demo is meant to show (encodings, line ends,
    full-width punctuation, a team name spelled two ways, a duplicate, an
    illegal move, a declared result the rules contradict). Deterministic: the
    same command always writes the same bytes. The Markdown pages in
    ``content/`` are hand-written and left alone.

Every game is played through :class:`generator.rules.connect.ConnectState`,
so legality and the winner come from the engine Qipu itself uses; the only
board knowledge here is what a player needs to choose a move.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator import games, scene  # noqa: E402
from generator.games import GameType  # noqa: E402
from generator.rules.connect import ConnectState  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import demo_go  # noqa: E402  (the Go-family and Hex events of --demo)
import demo_su  # noqa: E402  (the Surakarta event of --demo)

RESULT_WORDS = {"first": "先手胜", "second": "后手胜", "draw": "平局", "unknown": "未决胜"}


# ---------------------------------------------------------------------------
# Records: what was played, and how a team's program writes it down


@dataclass(slots=True)
class Stone:
    """One stone as played; ``side`` is "first" or "second"."""

    side: str
    x: int  # 0-based column
    y: int  # 0-based row from the bottom
    mark: int | None = None


@dataclass(slots=True)
class Game:
    """A played game and how it ended.

    ``ending``: "line" (the winner made k in a row), "resign" (stopped before
    the line; the declared result stands), "draw" (agreed), "accident" (the
    random player completed a line by chance: the rules decided).
    """

    code: str
    stones: list[Stone]
    result: str  # "first", "second", "draw"
    ending: str


@dataclass(slots=True)
class Header:
    """The bracketed fields before the first ``;``."""

    code: str
    first: str
    second: str
    result: str  # words as written: 先手胜 ...
    date: str  # "2025.08.02"
    time: str  # "10:00"
    place: str
    event: str


@dataclass(frozen=True, slots=True)
class Style:
    """How one writer program lays out a record file."""

    encoding: str = "gbk"  # "gbk", "utf-8-sig", "utf-8", "utf-16-le"
    layout: str = "line"  # "line": all on one line; "lines": one move per line
    eol: str = ""  # line end; for "line" the final newline ("" = none, like most real files)
    colours_in_header: bool = True  # "[队名 B]" as the standard and real writers do
    colours_in_name: bool = True  # "C5-队名 B vs 队名 W-…" as real writers do
    space_before_paren: bool = False  # "B (J,10)" as in the standard's own example
    fullwidth_header: bool = False  # "［先手胜］［2025.08.02 10：00 合肥］；"


def move_text(game: GameType, stone: Stone, style: Style) -> str:
    letter = (game.first if stone.side == "first" else game.second).letter
    gap = " " if style.space_before_paren else ""
    text = f"{letter}{gap}({scene.COLUMN_LETTERS[stone.x]},{stone.y + 1})"
    if stone.mark is not None:
        text += f"MARK[{stone.mark}]"
    return text


def header_text(game: GameType, h: Header, style: Style) -> str:
    b = f" {game.first.letter}" if style.colours_in_header else ""
    w = f" {game.second.letter}" if style.colours_in_header else ""
    fields = [h.code, f"{h.first}{b}", f"{h.second}{w}", h.result, f"{h.date} {h.time} {h.place}", h.event]
    if not style.fullwidth_header:
        return "{" + "".join(f"[{f}]" for f in fields)
    # A writer whose author typed the header with a Chinese input method on.
    fields[4] = fields[4].replace(":", "：")
    return "{" + "".join(f"[{f}]" for f in fields[:3]) + "".join(f"［{f}］" for f in fields[3:])


def record_text(game: GameType, h: Header, stones: list[Stone], style: Style) -> str:
    head = header_text(game, h, style)
    sep = "；" if style.fullwidth_header else ";"
    moves = [move_text(game, s, style) for s in stones]
    if style.layout == "lines":
        eol = style.eol or "\n"
        body = eol.join(m + ";" for m in moves[:-1]) + (eol if len(moves) > 1 else "")
        return head + sep + eol + body + (moves[-1] if moves else "") + "}" + eol
    return head + sep + ";".join(moves) + "}" + style.eol


def file_name(game: GameType, h: Header, style: Style) -> str:
    b = f" {game.first.letter}" if style.colours_in_name else ""
    w = f" {game.second.letter}" if style.colours_in_name else ""
    # ':' is not allowed in Windows file names, so writers put a dot there.
    when = f"{h.date} {h.time.replace(':', '.')} {h.place}"
    return f"{h.code}-{h.first}{b} vs {h.second}{w}-{h.result}-{when}-{h.event}.txt"


def encode(text: str, style: Style) -> bytes:
    return text.encode(style.encoding)


# ---------------------------------------------------------------------------
# Board geometry shared by both players


def centre(game: GameType) -> tuple[int, int]:
    return game.columns // 2, game.rows // 2


def opponent(side: str) -> str:
    return "second" if side == "first" else "first"


DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


# ---------------------------------------------------------------------------
# Fast random games (benchmark)


def random_game(game: GameType, rng: random.Random, winner: str, ending: str, length: int) -> Game:
    """A legal game of about ``length`` stones ending as planned.

    Stones go near recent stones at random until ``length``; then, for a
    "line" ending, the winner fills a free line of k through one of its own
    stones while the loser plays elsewhere. Should a random stone complete a
    line first, the rules decide and the game ends there ("accident").
    """
    state = ConnectState(game, {})
    stones: list[Stone] = []
    k = int(game.params["k"])

    def put(x: int, y: int) -> bool:
        side = state.to_move
        state.play(x, y)
        stones.append(Stone(side, x, y))
        return state.over

    cx, cy = centre(game)
    put(cx + rng.randint(-1, 1), cy + rng.randint(-1, 1))
    avoid: set[tuple[int, int]] = set()
    while len(stones) < length:
        if put(*_near(state, stones, rng, avoid)):
            return _accident(game, state, stones)
    if ending != "line":
        result = winner if ending == "resign" else "draw"
        return Game(game.code, stones, result, ending)
    for _ in range(8):  # a few line attempts: the loser may block one by chance
        window = _free_window(state, stones, winner, k, rng)
        if window is None:
            break
        avoid = set(window)
        while not state.over:
            todo = [c for c in window if state.at(*c) is None]
            if state.to_move == winner:
                if not todo:
                    break
                x, y = todo[0]
            else:
                x, y = _near(state, stones, rng, avoid)
            if state.check(x, y) is not None:
                break  # the loser took a window cell (cannot happen, but be safe)
            put(x, y)
            if any(state.at(*c) == opponent(winner) for c in window):
                break
        if state.over:
            return _accident(game, state, stones) if state.winner != winner else Game(game.code, stones, winner, "line")
    # No free line found: stop here and let the planned winner's opponent resign.
    return Game(game.code, stones, winner, "resign")


def _accident(game: GameType, state: ConnectState, stones: list[Stone]) -> Game:
    return Game(game.code, stones, state.winner or "draw", "accident")


def _near(state: ConnectState, stones: list[Stone], rng: random.Random, avoid: set) -> tuple[int, int]:
    """An empty point within two steps of one of the last few stones."""
    recent = stones[-6:]
    for _ in range(12):
        s = recent[rng.randrange(len(recent))]
        x, y = s.x + rng.randint(-2, 2), s.y + rng.randint(-2, 2)
        if state.check(x, y) is None and (x, y) not in avoid:
            return x, y
    while True:
        x, y = state.random_empty(rng)
        if (x, y) not in avoid:
            return x, y


def _free_window(state: ConnectState, stones: list[Stone], side: str, k: int, rng: random.Random):
    """k points in a row through one of ``side``'s stones, none held by the opponent."""
    own = [s for s in stones if s.side == side]
    other = opponent(side)
    for _ in range(40):
        s = own[rng.randrange(len(own))] if own else stones[-1]
        dx, dy = DIRECTIONS[rng.randrange(4)]
        shift = rng.randrange(k)
        cells = [(s.x + (j - shift) * dx, s.y + (j - shift) * dy) for j in range(k)]
        if all(0 <= x < state.columns and 0 <= y < state.rows and state.at(x, y) != other for x, y in cells):
            return cells
    return None


# ---------------------------------------------------------------------------
# A small greedy player (demo): extend own lines, block the opponent's

EMPTY, FIRST, SECOND, EDGE = 0, 1, 2, 3
WIN = 10**7
# Value of a line through the candidate point by (stones still missing, open ends).
LINE_VALUE = {
    (1, 2): 200_000, (1, 1): 30_000, (1, 0): 30_000,
    (2, 2): 12_000, (2, 1): 1_500, (2, 0): 400,
    (3, 2): 600, (3, 1): 120, (3, 0): 30,
    (4, 2): 60, (4, 1): 15, (4, 0): 5,
}  # fmt: skip


@dataclass(slots=True)
class Skill:
    """How well a program plays: how often it misses the best move, and by how much."""

    noise: float  # relative random spread on move values
    blunder: float  # chance of picking among the top few instead of the best
    miss: float  # chance of overlooking the opponent's threat to win next stone
    defence: float = 0.9  # weight of blocking the opponent against building one's own


class Board:
    """The player's own view of the board: a padded bytearray, as the engine keeps it."""

    def __init__(self, game: GameType, radius: int) -> None:
        self.columns, self.rows, self.k = game.columns, game.rows, int(game.params["k"])
        stride = self.stride = self.columns + 1
        self.cells = bytearray([EDGE]) * ((self.rows + 3) * stride)
        for y in range(self.rows):
            for x in range(self.columns):
                self.cells[self.index(x, y)] = EMPTY
        self.dirs = (1, stride, stride + 1, 1 - stride)
        self.candidates: set[int] = set()
        self.radius = radius

    def index(self, x: int, y: int) -> int:
        return (y + 1) * self.stride + x + 1

    def xy(self, i: int) -> tuple[int, int]:
        return i % self.stride - 1, i // self.stride - 1

    def place(self, i: int, colour: int) -> None:
        cells = self.cells
        cells[i] = colour
        self.candidates.discard(i)
        r = self.radius
        for dy in range(-r, r + 1):
            for dx in range(-r, r + 1):
                j = i + dy * self.stride + dx
                if 0 <= j < len(cells) and cells[j] == EMPTY:
                    self.candidates.add(j)

    def value(self, i: int, colour: int) -> int:
        """How much a stone of ``colour`` on the empty point i is worth for its lines."""
        cells, k = self.cells, self.k
        total = 0
        for d in self.dirs:
            j = i + d
            while cells[j] == colour:
                j += d
            h = i - d
            while cells[h] == colour:
                h -= d
            run = (j - h) // d - 1
            if run >= k:
                return WIN
            # Room: can k stones of this colour ever stand on this line here?
            room = run
            f = j
            while room < k and (cells[f] == EMPTY or cells[f] == colour):
                room += 1
                f += d
            b = h
            while room < k and (cells[b] == EMPTY or cells[b] == colour):
                room += 1
                b -= d
            if room < k:
                continue
            ends = (cells[j] == EMPTY) + (cells[h] == EMPTY)
            total += LINE_VALUE.get((k - run, ends), 2)
        return total


def greedy_game(
    game: GameType, rng: random.Random, skills: dict[str, Skill], max_stones: int, radius: int
) -> Game:
    """Play a game between two greedy programs until a line or ``max_stones``."""
    state = ConnectState(game, {})
    board = Board(game, radius)
    stones: list[Stone] = []
    colour = {"first": FIRST, "second": SECOND}
    cx, cy = centre(game)
    first = (cx, cy) if rng.random() < 0.7 else (cx + rng.randint(-2, 2), cy + rng.randint(-2, 2))
    moves = 0
    while not state.over and moves < max_stones:
        side = state.to_move
        if moves == 0:
            x, y = first
        else:
            x, y = board.xy(_choose(board, colour[side], colour[opponent(side)], skills[side], rng))
        state.play(x, y)
        board.place(board.index(x, y), colour[side])
        stones.append(Stone(side, x, y))
        moves += 1
    if state.over:
        return Game(game.code, stones, state.winner or "draw", "line")
    return Game(game.code, stones, "unknown", "open")


def _choose(board: Board, me: int, them: int, skill: Skill, rng: random.Random) -> int:
    scored: list[tuple[float, int]] = []
    must_block: list[int] = []
    for i in sorted(board.candidates):  # sorted: a set's order would make the demo differ per run
        mine = board.value(i, me)
        if mine >= WIN:
            return i  # every program takes a win it sees
        theirs = board.value(i, them)
        if theirs >= WIN:
            must_block.append(i)
        value = (mine + skill.defence * theirs) * (1.0 + skill.noise * rng.random()) + rng.random()
        scored.append((value, i))
    if must_block and rng.random() >= skill.miss:
        return must_block[rng.randrange(len(must_block))]
    scored.sort(reverse=True)
    if rng.random() < skill.blunder:
        return scored[rng.randrange(min(4, len(scored)))][1]
    return scored[0][1]


def resign_before_line(game: GameType, played: Game) -> Game:
    """The same game, stopped when the loser saw it was lost and resigned.

    Drops the winner's last turn (the winning stones) and the loser's turn
    before it, so the record ends with the winner's unstoppable threat.
    """
    stones = list(played.stones)
    while stones and stones[-1].side == played.result:
        stones.pop()
    while stones and stones[-1].side != played.result:
        stones.pop()
    return Game(played.code, stones, played.result, "resign")


def add_marks(stones: list[Stone], result: str, rng: random.Random, rate: float) -> None:
    """MARK[v] the way the writer programs put them: their evaluation, -2..2.

    The evaluation drifts toward the side that wins as the game goes on.
    """
    n = max(1, len(stones))
    for number, stone in enumerate(stones):
        if rng.random() >= rate:
            stone.mark = None
            continue
        sign = 0 if result not in ("first", "second") else (1 if stone.side == result else -1)
        v = round(sign * 2.2 * (number + 1) / n + rng.gauss(0, 0.6))
        stone.mark = max(-2, min(2, v))


# ---------------------------------------------------------------------------
# Benchmark mode

SCHOOLS = (
    "清华", "北大", "北航", "北理工", "北邮", "人大", "哈工大", "哈工程", "东北大学", "大连理工",
    "吉大", "沈航", "南开", "天大", "浙大", "复旦", "上交", "同济", "南大", "东南",
    "中科大", "合工大", "安大", "厦大", "中大", "华工", "深大", "川大", "电子科大", "重大",
    "重邮", "西交", "西工大", "西电", "武大", "华科", "中南", "湖大", "山大", "郑大",
)  # fmt: skip
NICKNAMES = (
    "天行", "紫荆", "冰城", "雪狼", "黄山", "山城", "求是", "星火", "破浪", "白山",
    "斛兵", "鸿雁", "墨子", "紫金", "长空", "姑苏", "九龙湖", "龙腾", "蓝天", "锦江",
    "荔枝", "神机", "玄武", "北斗", "启明", "天枢", "飞鹰", "海燕", "卓越", "明德",
)  # fmt: skip
PLACES = ("合肥", "重庆", "沈阳", "北京", "南京", "成都", "西安", "武汉", "长沙", "厦门")
EVENT_NAMES = ("全国大学生计算机博弈大赛", "中国计算机博弈锦标赛", "高校计算机博弈邀请赛", "计算机博弈挑战赛")

# Encodings and layouts in roughly the proportions real archives show.
BENCH_STYLES: tuple[tuple[float, Style], ...] = (
    (0.55, Style()),
    (0.10, Style(eol="\r\n")),
    (0.12, Style(layout="lines", eol="\r\n")),
    (0.10, Style(encoding="utf-8-sig", eol="\n")),
    (0.08, Style(encoding="utf-8-sig", layout="lines", eol="\n", colours_in_name=False)),
    (0.05, Style(encoding="utf-8", eol="\n", colours_in_name=False)),
)


@dataclass(slots=True)
class Task:
    """One benchmark record to write (what a worker process needs)."""

    path: str
    code: str
    header: Header
    style: Style
    seed: str


def pick_style(rng: random.Random, styles: tuple[tuple[float, Style], ...] | None = None) -> Style:
    """A style drawn by weight (from the benchmark's mix unless ``styles`` is given)."""
    styles = BENCH_STYLES if styles is None else styles
    r = rng.random()
    for weight, style in styles:
        if r < weight:
            return style
        r -= weight
    return styles[0][1]


def bench_plan(n: int, seed: int) -> list[Task]:
    """Spread n games over events of a few hundred games, 8-16 teams each."""
    rng = random.Random(f"plan:{seed}")
    tasks: list[Task] = []
    n_events = max(1, math.ceil(n / 500))
    sizes = [n // n_events + (1 if e < n % n_events else 0) for e in range(n_events)]
    for e, size in enumerate(sizes):
        year = 2016 + e % 10
        place = PLACES[rng.randrange(len(PLACES))]
        event = f"{year} {EVENT_NAMES[rng.randrange(len(EVENT_NAMES))]}"
        folder = f"{year}-{e + 1:03d}"
        teams = _team_names(rng, rng.randint(8, 16))
        # The k-in-a-row games of the registry: the ones ConnectState plays.
        codes = [code for code in games.codes() if games.GAMES[code].rules == "connect"]
        code_of = [codes[rng.randrange(len(codes))] for _ in range(size)]
        minute = 9 * 60  # 09:00 of day 1; each game starts a few minutes after the last
        day = 0
        for i in range(size):
            a, b = rng.sample(teams, 2)
            minute += rng.randint(1, 4)
            if minute >= 18 * 60:
                day, minute = day + 1, 9 * 60
            month, dom = 7 + (day // 28), 1 + day % 28
            r = rng.random()
            result = "first" if r < 0.52 else "second"
            h = Header(code_of[i], a, b, RESULT_WORDS[result], f"{year}.{month:02d}.{dom:02d}",
                       f"{minute // 60:02d}:{minute % 60:02d}", place, event)  # fmt: skip
            style = pick_style(rng)
            game = games.GAMES[h.code]
            tasks.append(Task(f"{folder}/{file_name(game, h, style)}", h.code, h, style, f"{seed}:{e}:{i}"))
    return tasks


def _team_names(rng: random.Random, n: int) -> list[str]:
    names: set[str] = set()
    while len(names) < n:
        names.add(f"{rng.choice(SCHOOLS)}-{rng.choice(NICKNAMES)}" if rng.random() < 0.3
                  else f"{rng.choice(SCHOOLS)}{rng.choice(NICKNAMES)}")  # fmt: skip
    return sorted(names)


def bench_record(task: Task) -> tuple[str, bytes]:
    """Play one benchmark game and return (relative path, file bytes)."""
    rng = random.Random(task.seed)
    game = games.GAMES[task.code]
    h = task.header
    planned = "first" if h.result == RESULT_WORDS["first"] else "second"
    r = rng.random()
    ending = "line" if r < 0.8 else "resign" if r < 0.97 else "draw"
    # Room for the winner's line after the random part: 150 stones at most in all.
    top = 150 - 2 * int(game.params["k"]) if ending == "line" else 150
    for _ in range(20):
        length = min(top, max(20, int(rng.triangular(20, top, 45))))
        played = random_game(game, rng, planned, ending, length)
        if 20 <= len(played.stones) <= 150:
            break  # else a stone completed a line by chance in the first 20: play again
    add_marks(played.stones, played.result, rng, rng.choice((0.0, 0.3, 0.8)))
    header = replace(h, result=RESULT_WORDS[played.result])
    path = task.path
    if header.result != h.result:  # the rules decided otherwise: name the file after what happened
        path = f"{path.rsplit('/', 1)[0]}/{file_name(game, header, task.style)}"
    return path, encode(record_text(game, header, played.stones, task.style), task.style)


def write_bench(n: int, out: Path, seed: int, jobs: int) -> int:
    """Write n records under out; returns the number of files written."""
    tasks = bench_plan(n, seed)
    out.mkdir(parents=True, exist_ok=True)
    made: set[str] = set()
    for folder in {t.path.split("/")[0] for t in tasks}:
        (out / folder).mkdir(exist_ok=True)
    if jobs > 1 and n >= 1000:
        import multiprocessing

        with multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn").Pool(jobs) as pool:
            results: Iterable[tuple[str, bytes]] = pool.imap(bench_record, tasks, chunksize=64)
            for path, data in results:
                _write_unique(out, path, data, made)
    else:
        for task in tasks:
            path, data = bench_record(task)
            _write_unique(out, path, data, made)
    return len(made)


PIECE_CODES = ("CC", "MSK", "DR10", "DR8")


def pieces_plan(n: int, seed: int) -> list[tuple[str, str, str, str, int, str]]:
    """n games of xiangqi, minishogi and both draughts: events of 500 games, one game type each.

    (folder, code, first team, second team, number in the event, seed).
    """
    rng = random.Random(f"pieces:{seed}")
    n_events = max(1, math.ceil(n / 500))
    sizes = [n // n_events + (1 if e < n % n_events else 0) for e in range(n_events)]
    tasks = []
    for e, size in enumerate(sizes):
        code = PIECE_CODES[e % len(PIECE_CODES)]
        folder = f"{2016 + e % 10}-{e + 1:03d}-{code.lower()}"
        teams = _team_names(rng, rng.randint(8, 16))
        for i in range(size):
            a, b = rng.sample(teams, 2)
            tasks.append((folder, code, a, b, i, f"{seed}:{e}:{i}"))
    return tasks


def pieces_record(task: tuple[str, str, str, str, int, str]) -> tuple[str, bytes]:
    """Play one game with the demo players of demo_cc, demo_msk or demo_dr; (relative path, bytes)."""
    import demo_cc
    import demo_dr
    import demo_msk

    folder, code, first, second, i, seed = task
    rng = random.Random(seed)
    day = 13 + i // 60
    stamp = f"2025.12.{day:02d} {9 + i % 60 // 6:02d}.{i % 6 * 10:02d}"
    if code == "CC":
        cc = demo_cc.Game(first, second, 1 + 3 * (day - 13))  # its round gives the header's date
        cc.moves, cc.notations, cc.result, cc.ending = demo_cc.play(rng, limit=rng.randint(60, 200))
        dialect = rng.choice(("ccgc", "ccgc", "iccs", "chinese"))
        words, event = demo_cc.WORDS[cc.result], demo_cc.EVENT
        data = demo_cc.record_text(cc, dialect).encode("gb18030" if dialect != "iccs" else "utf-8")
    elif code == "MSK":
        msk = demo_msk.play(rng, demo_msk.Game(first, second, stamp[:10], stamp[11:].replace(".", ":")))
        words, event = demo_msk.WORDS[msk.result], demo_msk.EVENT
        data = demo_msk.record_text(msk, i % 3).encode("utf-8")
    else:
        size, rules = (10, "international") if code == "DR10" else (8, "russian")
        writer = demo_dr.WRITERS[i % len(demo_dr.WRITERS)]
        dr = demo_dr.play(size, rules, rng, rng.randint(70, 200), writer.upper_first)
        dr.first, dr.second = first, second
        words, event = demo_dr.RESULT_WORDS[dr.result], demo_dr.EVENTS[code][1]
        data = demo_dr.record_text(dr, writer, stamp[:10]).encode("utf-8")
    return f"{folder}/{code}-{first} vs {second}-{words}-{stamp} 北京-{event}.txt", data


def write_bench_pieces(n: int, out: Path, seed: int, jobs: int) -> int:
    """Write n records of the piece games (CC, MSK, DR10, DR8) under out; the number written."""
    tasks = pieces_plan(n, seed)
    out.mkdir(parents=True, exist_ok=True)
    for folder in {t[0] for t in tasks}:
        (out / folder).mkdir(exist_ok=True)
    made: set[str] = set()
    if jobs > 1 and n >= 100:
        import multiprocessing

        with multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn").Pool(jobs) as pool:
            for path, data in pool.imap(pieces_record, tasks, chunksize=16):
                _write_unique(out, path, data, made)
    else:
        for task in tasks:
            _write_unique(out, *pieces_record(task), made)
    return len(made)


def _write_unique(out: Path, path: str, data: bytes, made: set[str]) -> None:
    # A result that changed can, rarely, make a name collide with another game's.
    stem, n = path[:-4], 2
    while path in made:
        path, n = f"{stem} ({n}).txt", n + 1
    made.add(path)
    (out / path).write_bytes(data)


# ---------------------------------------------------------------------------
# Demo mode


@dataclass(slots=True)
class Team:
    name: str
    strength: float  # 0..1


@dataclass(slots=True)
class DemoEvent:
    folder: str
    code: str
    event: str  # as the writers put it in the header
    place: str
    days: tuple[str, ...]  # "2025.08.01", ...
    slots: tuple[str, ...]  # round start times of a day
    teams: list[Team]
    tiebreaks: tuple[str, ...]
    draws: int
    resigns: int
    max_stones: int
    radius: int


@dataclass(slots=True)
class Pairing:
    number: int  # 1-based, in schedule order
    round: int
    first: str
    second: str
    date: str
    time: str
    result: str = ""  # planned: "first", "second", "draw"
    ending: str = "line"  # "line", "resign", "draw"
    quirk: str = ""  # what is special about this record, if anything


DEMO_EVENTS = (
    DemoEvent(
        folder="2025-c5",
        code="C5",
        event="2025 全国大学生计算机博弈大赛",
        place="合肥",
        days=("2025.08.01", "2025.08.02", "2025.08.03"),
        slots=("09:00", "10:30", "14:00", "15:30"),
        teams=[
            Team("浙大·求是", 0.85), Team("北邮·星火", 0.78), Team("哈工程·破浪", 0.72),
            Team("东北大学·白山", 0.6), Team("合工大·斛兵", 0.5), Team("重邮·鸿雁", 0.38),
        ],  # fmt: skip
        tiebreaks=("head-to-head", "sonneborn-berger", "wins"),
        draws=1,
        resigns=3,
        max_stones=120,
        radius=2,
    ),
    DemoEvent(
        folder="2025-c6",
        code="C6",
        event="第二届长三角高校六子棋邀请赛",
        place="南京",
        days=("2025.11.15", "2025.11.16"),
        slots=("08:30", "09:30", "10:30", "13:30", "14:30", "15:30", "16:30"),
        teams=[
            Team("中科大·墨子", 0.85), Team("NJUPT·紫金", 0.75), Team("东南大学·九龙湖", 0.7),
            Team("南航·长空", 0.6), Team("苏大·姑苏", 0.55), Team("合工大·斛兵", 0.45),
            Team("安大·黄山", 0.38),
        ],  # fmt: skip
        tiebreaks=("head-to-head", "wins", "sonneborn-berger"),
        draws=1,
        resigns=4,
        max_stones=110,
        radius=2,
    ),
)

# Team names written differently by some program (site.toml lists the aliases).
DEMO_SPELLINGS = {"哈工程·破浪": "哈尔滨工程大学·破浪", "NJUPT·紫金": "ＮＪＵＰＴ·紫金"}


def double_round_robin(event: DemoEvent) -> list[Pairing]:
    """Circle-method schedule; the second half repeats it with colours swapped."""
    names = [t.name for t in event.teams]
    if len(names) % 2:
        names.append("")  # the bye
    n = len(names)
    rounds: list[list[tuple[str, str]]] = []
    ring = names[:]
    for r in range(n - 1):
        pairs = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if not a or not b:
                continue
            pairs.append((a, b) if (r + i) % 2 == 0 else (b, a))
        rounds.append(pairs)
        ring = [ring[0], ring[-1], *ring[1:-1]]
    rounds += [[(b, a) for a, b in pairs] for pairs in rounds]
    out: list[Pairing] = []
    slots = [(d, t) for d in event.days for t in event.slots]
    for r, pairs in enumerate(rounds):
        date, start = slots[r]
        for board, (a, b) in enumerate(pairs):
            hh, mm = map(int, start.split(":"))
            mm += board * 2  # boards start a minute or two apart
            out.append(Pairing(len(out) + 1, r + 1, a, b, date, f"{hh:02d}:{mm:02d}"))
    return out


def standings(pairings: list[Pairing]) -> dict[str, dict[str, float]]:
    """Points (2/1/0), wins and Sonneborn-Berger per team, from planned results."""
    table: dict[str, dict[str, float]] = {}
    for p in pairings:
        for t in (p.first, p.second):
            table.setdefault(t, {"points": 0.0, "wins": 0.0, "sb": 0.0})
    scores: list[tuple[str, str, float]] = []  # (team, opponent, 1/0.5/0)
    for p in pairings:
        s = 1.0 if p.result == "first" else 0.5 if p.result == "draw" else 0.0
        scores += [(p.first, p.second, s), (p.second, p.first, 1.0 - s)]
    for team, _, s in scores:
        table[team]["points"] += 2 * s
        table[team]["wins"] += s == 1.0
    for team, other, s in scores:
        table[team]["sb"] += s * table[other]["points"]
    return table


def head_to_head(pairings: list[Pairing], a: str, b: str) -> float:
    """a's points minus b's in their own games."""
    diff = 0.0
    for p in pairings:
        if {p.first, p.second} == {a, b} and p.result != "draw":
            winner = p.first if p.result == "first" else p.second
            diff += 2 if winner == a else -2
    return diff


def interesting_tie(event: DemoEvent, pairings: list[Pairing]) -> tuple[str, str] | None:
    """Two teams alone on equal points in the top three, split by the first tie-break
    that the event's order should show (head-to-head for C5; for C6 head-to-head
    and wins equal, Sonneborn-Berger deciding)."""
    table = standings(pairings)
    order = sorted(table, key=lambda t: -table[t]["points"])
    for a, b in zip(order, order[1:]):
        pa = table[a]["points"]
        if pa != table[b]["points"] or sum(1 for t in table if table[t]["points"] == pa) != 2:
            continue
        if order.index(a) > 1:
            continue
        h2h = head_to_head(pairings, a, b)
        if event.tiebreaks[1] == "sonneborn-berger" and h2h != 0:
            return a, b
        if event.tiebreaks[1] == "wins" and h2h == 0 and table[a]["wins"] == table[b]["wins"] \
                and table[a]["sb"] != table[b]["sb"]:  # fmt: skip
            return a, b
    return None


def plan_results(event: DemoEvent) -> tuple[list[Pairing], tuple[str, str]]:
    """Results by strength (the first player has a small edge), re-drawn until the
    standings hold an interesting tie. Deterministic."""
    strength = {t.name: t.strength for t in event.teams}
    for attempt in range(10_000):
        rng = random.Random(f"demo-plan:{event.folder}:{attempt}")
        pairings = double_round_robin(event)
        draws = set(rng.sample(range(len(pairings)), event.draws))
        for n, p in enumerate(pairings):
            if n in draws:
                p.result, p.ending = "draw", "draw"
                continue
            edge = 0.5 + 1.0 * (strength[p.first] - strength[p.second]) + 0.06
            p.result = "first" if rng.random() < min(0.93, max(0.07, edge)) else "second"
        tie = interesting_tie(event, pairings)
        if tie is None or _agreement(event, pairings) < 0.7:
            continue
        if min(row["points"] for row in standings(pairings).values()) < 3:
            continue  # even the weakest program wins a game or two
        decided = [p for p in pairings if p.ending == "line"]
        for p in rng.sample(decided, event.resigns):
            p.ending = "resign"
        return pairings, tie
    raise RuntimeError(f"no plan with an interesting tie for {event.folder}")


def _agreement(event: DemoEvent, pairings: list[Pairing]) -> float:
    """Rank correlation (Spearman) of the planned points with the teams' strengths:
    upsets happen, but the stronger teams should mostly finish higher."""
    table = standings(pairings)
    names = [t.name for t in event.teams]  # listed strongest first
    by_points = sorted(names, key=lambda t: -table[t]["points"])
    n = len(names)
    d2 = sum((names.index(t) - by_points.index(t)) ** 2 for t in names)
    return 1 - 6 * d2 / (n * (n * n - 1))


def assign_quirks(event: DemoEvent, pairings: list[Pairing], tie: tuple[str, str], rng: random.Random) -> None:
    """Pick the records that show the blemishes, away from the tied teams.

    Keeping the broken and contradicted records out of the tied teams' games
    keeps the tie and its tie-break the same whether a standings table counts
    those games by their declared or their computed result.
    """
    calm = [p for p in pairings if p.ending == "line" and p.first not in tie and p.second not in tie]
    rng.shuffle(calm)
    wanted = (
        ["white-twice", "contradiction", "duplicate"] if event.code == "C5" else ["occupied", "utf-16"]
    )
    for quirk, p in zip(wanted, calm):
        p.quirk = quirk
    # A differently spelled team name, and a header typed with a Chinese input method.
    for team in DEMO_SPELLINGS:
        mine = [p for p in pairings if team in (p.first, p.second) and not p.quirk]
        if mine:
            mine[len(mine) // 2].quirk = "alias"
    plain = [p for p in pairings if not p.quirk]
    plain[len(plain) // 3].quirk = "fullwidth"
    plain[2 * len(plain) // 3].quirk = "spaced"


def skills_for(event: DemoEvent, p: Pairing, attempt: int) -> dict[str, Skill]:
    """Each side's skill for this game, tilted toward the planned result.

    A team whose result is planned as a loss plays a little below itself
    (that is how upsets happen); the tilt grows with each failed attempt so
    that an unlikely planned result is found in a few games.
    """
    strength = {t.name: t.strength for t in event.teams}
    tilt = min(0.6, 0.15 + 0.05 * attempt)
    out = {}
    for side, team in (("first", p.first), ("second", p.second)):
        s = strength[team]
        if p.result in ("first", "second"):
            s += tilt if side == p.result else -tilt
        s = min(1.0, max(0.0, s))
        out[side] = Skill(noise=0.8 * (1 - s) + 0.05, blunder=0.35 * (1 - s), miss=0.45 * (1 - s) ** 2)
    return out


def play_demo_game(event: DemoEvent, p: Pairing) -> Game:
    """A greedy game that ends as planned, 20-120 stones."""
    game = games.GAMES[event.code]
    for attempt in range(400):
        rng = random.Random(f"demo-game:{event.folder}:{p.number}:{attempt}")
        skills = skills_for(event, p, attempt)
        if p.ending == "draw":
            skills = {s: Skill(0.1, 0.02, 0.0) for s in ("first", "second")}
        played = greedy_game(game, rng, skills, event.max_stones, event.radius)
        if p.ending == "draw":
            if played.ending == "open" or len(played.stones) >= 70:
                stop = min(len(played.stones) - 6, rng.randint(56, 70))
                if stop >= 40:
                    return Game(game.code, played.stones[:stop], "draw", "draw")
            continue
        if played.ending != "line" or played.result != p.result:
            continue
        if p.ending == "resign":
            played = resign_before_line(game, played)
        if 20 <= len(played.stones) <= 120:
            return played
    raise RuntimeError(f"could not play {event.folder} game {p.number} as planned")


# Writer programs: most save GBK on one line without a final newline, as the
# real connect6 records in the corpus do; a few do otherwise.
DEMO_STYLES: tuple[tuple[float, Style], ...] = (
    (0.50, Style()),
    (0.12, Style(eol="\r\n")),
    (0.15, Style(layout="lines", eol="\r\n")),
    (0.10, Style(encoding="utf-8-sig", eol="\n", colours_in_name=False)),
    (0.08, Style(encoding="utf-8-sig", layout="lines", eol="\n")),
    (0.05, Style(encoding="utf-8", eol="\n")),
)


def demo_style(rng: random.Random) -> Style:
    return pick_style(rng, DEMO_STYLES)


@dataclass(slots=True)
class DemoFile:
    path: str  # relative to content/
    data: bytes
    quirk: str = ""


def demo_event_files(event: DemoEvent) -> tuple[list[DemoFile], list[Pairing], tuple[str, str]]:
    game = games.GAMES[event.code]
    pairings, tie = plan_results(event)
    rng = random.Random(f"demo-quirks:{event.folder}")
    assign_quirks(event, pairings, tie, rng)
    files: list[DemoFile] = []
    for p in pairings:
        played = play_demo_game(event, p)
        mrng = random.Random(f"demo-marks:{event.folder}:{p.number}")
        add_marks(played.stones, played.result, mrng, mrng.choice((0.5, 0.7, 0.9, 1.0)))
        style = demo_style(mrng)
        declared = played.result
        first, second = p.first, p.second
        header_event = event.event
        stones = played.stones
        if p.quirk == "white-twice":
            stones = _second_moves_twice(stones, game, mrng)
        elif p.quirk == "occupied":
            stones = _onto_occupied(stones)
        elif p.quirk == "contradiction":
            declared = opponent(played.result)  # the writer program had the colours the wrong way round
        elif p.quirk == "alias":
            first = DEMO_SPELLINGS.get(first, first)
            second = DEMO_SPELLINGS.get(second, second)
        elif p.quirk == "fullwidth":
            style = replace(style, fullwidth_header=True, encoding="gbk")
        elif p.quirk == "spaced":
            style = replace(style, space_before_paren=True)
        elif p.quirk == "utf-16":
            # A program that saved UTF-16 without a byte-order mark; site.toml names it.
            style = replace(style, encoding="utf-16-le", layout="lines", eol="\r\n")
        h = Header(event.code, first, second, RESULT_WORDS[declared], p.date, p.time, event.place, header_event)
        path = f"{event.folder}/{file_name(game, h, style)}"
        files.append(DemoFile(path, encode(record_text(game, h, stones, style), style), p.quirk))
        if p.quirk == "duplicate":
            # The opponent's program saved the same game: no MARKs, its own layout
            # and encoding, the event name typed without the space, no colour letters.
            copy = [Stone(s.side, s.x, s.y) for s in stones]
            style2 = Style(encoding="utf-8-sig", layout="lines", eol="\n", colours_in_name=False,
                           colours_in_header=False)  # fmt: skip
            h2 = replace(h, event=event.event.replace(" ", ""))
            path2 = f"{event.folder}/{file_name(game, h2, style2)}"
            files.append(DemoFile(path2, encode(record_text(game, h2, copy, style2), style2), "duplicate-copy"))
    return files, pairings, tie


def _second_moves_twice(stones: list[Stone], game: GameType, rng: random.Random) -> list[Stone]:
    """Insert a second stone for the second player right after one of its own, mid-game."""
    used = {(s.x, s.y) for s in stones}
    middle = [i for i in range(len(stones) // 3, 2 * len(stones) // 3) if stones[i].side == "second"]
    i = middle[len(middle) // 2]
    s = stones[i]
    for dx, dy in ((1, 1), (-1, 1), (1, -1), (-1, -1), (2, 0), (0, 2), (-2, 0), (0, -2)):
        x, y = s.x + dx, s.y + dy
        if (x, y) not in used and 0 <= x < game.columns and 0 <= y < game.rows:
            extra = Stone("second", x, y, None)
            return stones[: i + 1] + [extra] + stones[i + 1 :]
    raise RuntimeError("no free point next to the stone")


def _onto_occupied(stones: list[Stone]) -> list[Stone]:
    """Put one mid-game stone on the point of an earlier stone (a mistyped move)."""
    i = len(stones) // 2
    earlier = stones[i - 3]
    out = list(stones)
    out[i] = Stone(stones[i].side, earlier.x, earlier.y, stones[i].mark)
    return out


def write_demo(content: Path) -> list[DemoFile]:
    """(Re)write the demo records; returns what was written."""
    written: list[DemoFile] = []
    for event in DEMO_EVENTS:
        folder = content / event.folder
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*.txt"):
            old.unlink()
        files, pairings, tie = demo_event_files(event)
        for f in files:
            (content / f.path).write_bytes(f.data)
        written += files
        table = standings(pairings)
        order = sorted(table, key=lambda t: (-table[t]["points"], t))
        print(f"{event.folder}: {len(files)} files; tie on points: {tie[0]} / {tie[1]}")
        for t in order:
            row = table[t]
            print(f"  {t:<12} {row['points']:>4.0f} pts  {row['wins']:>2.0f} wins  SB {row['sb']:.1f}")
        for f in files:
            if f.quirk:
                print(f"  [{f.quirk}] {f.path}")
    written += write_demo_su(content)
    written += write_demo_go(content)
    written += write_demo_pieces(content)
    written += write_demo_university(content)
    return written


def write_demo_pieces(content: Path) -> list[DemoFile]:
    """The xiangqi, minishogi and draughts events (benchmarks/demo_cc.py, demo_msk.py, demo_dr.py)."""
    # Imported here: each plays its games through Qipu's own engine, which --records never needs.
    import demo_cc
    import demo_dr
    import demo_msk

    events: list[tuple[str, list[tuple[str, bytes]]]] = [
        (demo_cc.FOLDER, demo_cc.event_files()),
        (demo_msk.FOLDER, list(demo_msk.event_files().items())),
    ]
    for code, (folder, *_rest) in demo_dr.EVENTS.items():
        events.append((folder, [(name, text.encode("utf-8")) for name, text in demo_dr.event_files(code).items()]))
    written: list[DemoFile] = []
    for folder, files in events:
        target = content / folder
        target.mkdir(parents=True, exist_ok=True)
        for old in target.glob("*.txt"):
            old.unlink()
        for name, data in files:
            (target / name).write_bytes(data)
        print(f"{folder}: {len(files)} files")
        written += [DemoFile(f"{folder}/{name}", data, "") for name, data in files]
    return written


def write_demo_university(content: Path) -> list[DemoFile]:
    """The Amazons, EinStein, dots-and-boxes, army chess, Dou Dizhu, hold'em and bridge events (benchmarks/demo_*.py)."""
    import demo_ac2
    import demo_am
    import demo_br
    import demo_db
    import demo_event
    import demo_p2t1
    import demo_thp
    import demo_wtn

    written: list[DemoFile] = []
    for module in (demo_am, demo_wtn, demo_db, demo_ac2, demo_p2t1, demo_thp, demo_br):
        files = module.event_files()
        demo_event.write(content, module.FOLDER, files)
        print(f"{module.FOLDER}: {len(files)} files")
        written += [DemoFile(f"{module.FOLDER}/{name}", data, "") for name, data in files.items()]
    return written


def write_demo_go(content: Path) -> list[DemoFile]:
    """The GO9, NoGo, Phantom Go and Hex events (benchmarks/demo_go.py)."""
    written: list[DemoFile] = []
    for event in demo_go.EVENTS:
        folder = content / event.folder
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*.txt"):
            old.unlink()
        files = demo_go.event_files(event)
        for f in files:
            (content / f.path).write_bytes(f.data)
        print(f"{event.folder}: {len(files)} files")
        for f in files:
            if f.quirk:
                print(f"  [{f.quirk}] {f.path}")
        written += [DemoFile(f.path, f.data, f.quirk) for f in files]
    return written


def write_demo_su(content: Path) -> list[DemoFile]:
    """The Surakarta event with groups and a final stage (benchmarks/demo_su.py)."""
    folder = content / demo_su.FOLDER
    for old in sorted(folder.rglob("*.txt")) if folder.is_dir() else []:
        old.unlink()
    files, order = demo_su.event_files()
    for f in files:
        target = content / f.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(f.data)
    print(f"{demo_su.FOLDER}: {len(files)} files; group order: " + "; ".join(f"{g}: {' > '.join(t)}" for g, t in order.items()))
    for f in files:
        if f.quirk:
            print(f"  [{f.quirk}] {f.path}")
    return [DemoFile(f.path, f.data, f.quirk) for f in files]


# ---------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("n", nargs="?", type=int, help="number of records to write")
    parser.add_argument("outdir", nargs="?", type=Path, help="folder to write them into")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 1),
                        help="worker processes for large N (default: CPUs, at most 4)")  # fmt: skip
    parser.add_argument("--demo", action="store_true", help="re-make the demo archive's records")
    parser.add_argument("--games", choices=("connect", "pieces"), default="connect",
                        help="connect: C5/C6 records (default); pieces: CC, MSK, DR10 and DR8")  # fmt: skip
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / "content",
                        help="content folder for --demo (default: the repository's content/)")  # fmt: skip
    args = parser.parse_args(argv)
    if args.demo:
        write_demo(args.out)
        return 0
    if args.n is None or args.outdir is None:
        parser.error("give N and OUTDIR, or --demo")
    start = time.perf_counter()
    write = write_bench if args.games == "connect" else write_bench_pieces
    count = write(args.n, args.outdir, args.seed, args.jobs)
    seconds = time.perf_counter() - start
    print(f"wrote {count} records to {args.outdir} in {seconds:.1f} s ({count / seconds:.0f} records/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
