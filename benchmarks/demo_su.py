"""The demo archive's Surakarta event, kept the way a real tournament leaves it.

Called by ``make_records.py --demo``. Two groups of four teams and a final
stage (semi-finals between each group's first and the other's second, ranked
by the event's tie-breaks, a match for third place and a final), in folders
as the 2018 CCGC Surakarta archive has them: one folder per group pairing in
group A (``A1A2/``), one per round in group B (``B1/``),
``决赛/11.23/A1-B2/`` for the final stage, and two group-B records left loose
in the event folder. The records come from several team programs, each with
its own habits (the variants of ``corpus/SOURCES.md``): ``|`` or 12-digit
times, captures written X, x, × or plain -, red on top, red moving first, no
board block, spaced moves, a closing result comment, GBK, UTF-8 with a BOM.

On purpose: one game saved by both programs with the team spelled two ways
(one game page, an alias suggestion), one game whose two copies disagree
(shown side by side on the problems page), group A's first pairing written
with the group codes "A1"/"A2" as team names (aliases in site.toml), and one
record with a capture along a blocked loop (an error on the problems page).

Every game is played by a small random player through Qipu's own Surakarta
rules, so each record is legal (except the broken one) and every result
the rules decide is the declared one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from generator.archive.standings import Played, Points, standings
from generator.rules.surakarta import CELLS, EMPTY, NEIGHBOURS, captures

FOLDER = "2025-su"
PLACE = "合肥"
GROUPS = {
    "A": ["北科大·沼泽", "哈理工·苏拉", "北信科·贝壳", "安大·天源"],
    "B": ["八哥", "北理工·一齐", "沈航·峰回", "合工大·苏苏"],
}
BLACK, RED = 1, 2
LETTER = {BLACK: "B", RED: "R"}


@dataclass(slots=True)
class Game:
    first: str  # team names
    second: str
    first_colour: int
    date: str  # "2025-11-22"
    time: str  # "09:30"
    moves: list[tuple[int, int, int, bool]] = field(default_factory=list)  # colour, from, to, capture
    result: str = ""  # "first", "second", "draw"
    decided: bool = False  # the rules decided (no pieces left)


def _start(black_on_top: bool = True) -> list[int]:
    top, bottom = (BLACK, RED) if black_on_top else (RED, BLACK)
    return [top] * 12 + [EMPTY] * 12 + [bottom] * 12


def play(rng: random.Random, first_colour: int, limit: int) -> tuple[list[tuple[int, int, int, bool]], int | None]:
    """A random game from the standard start (black on top); (moves, colour that lost all pieces)."""
    cells = _start()
    moves: list[tuple[int, int, int, bool]] = []
    colour = first_colour
    for _ in range(limit):
        mine = [i for i, c in enumerate(cells) if c == colour]
        takes = [(i, t) for i in mine for t in captures(cells, i) if cells[t] not in (EMPTY, colour)]
        steps = [(i, n) for i in mine for n in sorted(NEIGHBOURS[i]) if cells[n] == EMPTY]
        if takes and (rng.random() < 0.7 or not steps):
            start, to = rng.choice(sorted(takes))
        elif steps:
            start, to = rng.choice(steps)
        else:
            break
        capture = cells[to] != EMPTY
        cells[to], cells[start] = colour, EMPTY
        moves.append((colour, start, to, capture))
        other = RED if colour == BLACK else BLACK
        if other not in cells:
            return moves, other
        colour = other
    return moves, None


def make_game(first: str, second: str, first_colour: int, date: str, time: str, seed: str) -> Game:
    rng = random.Random(seed)
    moves, lost = play(rng, first_colour, rng.randint(60, 140))
    game = Game(first, second, first_colour, date, time, moves)
    if lost is not None:
        game.decided = True
        game.result = "second" if lost == first_colour else "first"
    else:
        # Stopped before the end: the side with more pieces was given the win
        # (resignation or adjudication), equal counts a draw.
        cells = _start()
        for colour, a, b, _ in moves:
            cells[b], cells[a] = colour, EMPTY
        mine, theirs = cells.count(first_colour), cells.count(RED if first_colour == BLACK else BLACK)
        game.result = "first" if mine > theirs else "second" if theirs > mine else "draw"
    return game


# -- writing a record ------------------------------------------------------------

RESULT_WORDS = {"first": "先手胜", "second": "后手胜", "draw": "平局"}
TIEBREAKS = ("head-to-head", "wins", "sonneborn-berger")  # the event's, in site.toml


@dataclass(frozen=True, slots=True)
class Writer:
    """One team program's habits."""

    name: str
    time: str  # "dashed" "#2025-11-22-09:30|合肥", "digits" "#202511220930|合肥", "space"
    capture: str  # "X", "x", "×", "-"
    board: str  # "standard", "none", "upside-down" (red rows first while black is on top)
    spaced: bool = False  # "B2C - 3C"
    trailer: bool = False  # "#先手胜" after the moves
    encoding: str = "gbk"  # "gbk", "utf-8-sig", "utf-8"
    newline: str = "\r\n"
    colon: str = ":"


WRITERS = (
    Writer("organiser", "dashed", "X", "standard"),
    Writer("dash", "digits", "-", "standard", trailer=True),
    Writer("times", "dashed", "×", "standard", colon="："),
    Writer("lower", "dashed", "x", "standard", trailer=True, encoding="utf-8-sig"),
    Writer("spaced", "space", "x", "none", spaced=True, encoding="utf-8", newline="\n"),
)


def record_text(game: Game, writer: Writer, result_words: str | None = None) -> str:
    when = {
        "dashed": f"{game.date}-{game.time}|{PLACE}",
        "digits": f"{game.date.replace('-', '')}{game.time.replace(':', '')}|{PLACE}",
        "space": f"{game.date}-{game.time} {PLACE}",
    }[writer.time]
    words = result_words or RESULT_WORDS[game.result]
    c = writer.colon
    lines = [f"#{when}", f"#先手方{c}{game.first}|后手方{c}{game.second}|{words}"]
    if writer.board == "standard":
        lines += ["!BBBBBB"] * 2 + ["!000000"] * 2 + ["!RRRRRR"] * 2
    elif writer.board == "upside-down":
        lines += ["!RRRRRR"] * 2 + ["!000000"] * 2 + ["!BBBBBB"] * 2
    for colour, a, b, capture in game.moves:
        sign = writer.capture if capture else "-"
        gap = " " if writer.spaced else ""
        lines.append(f"{LETTER[colour]}{CELLS[a]}{gap}{sign}{gap}{CELLS[b]}")
    if writer.trailer:
        lines.append(f"#{words}")
    return writer.newline.join(lines) + writer.newline


def file_name(game: Game, tag: str = "") -> str:
    stamp = f"{game.date.replace('-', '')}{game.time.replace(':', '')}"
    return f"SU-{game.first}vs{game.second}-{RESULT_WORDS[game.result]}-{stamp}{tag}.txt"


def encode(text: str, writer: Writer) -> bytes:
    return text.encode("gbk" if writer.encoding == "gbk" else writer.encoding)


# -- the event ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DemoFile:
    path: str
    data: bytes
    quirk: str = ""


def _round_robin(teams: list[str]) -> list[list[tuple[str, str]]]:
    """Three rounds of two pairings (circle method)."""
    a, b, c, d = teams
    return [[(a, d), (b, c)], [(a, c), (d, b)], [(a, b), (c, d)]]


def event_files() -> tuple[list[DemoFile], dict[str, list[str]]]:
    """Every file of the event, and the group standings order (for the final)."""
    files: list[DemoFile] = []
    played: dict[str, list[Played]] = {letter: [] for letter in GROUPS}
    n = 0
    slots = ("09:30", "10:40", "13:30", "14:40", "16:00", "17:10")
    for letter, teams in GROUPS.items():
        for rnd, pairings in enumerate(_round_robin(teams)):
            for pair_no, (x, y) in enumerate(pairings):
                for leg, (first, second) in enumerate(((x, y), (y, x))):
                    n += 1
                    writer = WRITERS[n % len(WRITERS)]
                    # Programs that let red move first (from the bottom rows), as real ones do.
                    colour = RED if writer.name in ("dash", "lower") else BLACK
                    seed = f"su:{letter}:{rnd}:{x}:{y}:{leg}"
                    game = make_game(first, second, colour, "2025-11-22", slots[(2 * rnd + leg) % 6], seed)
                    played[letter].append(Played(seed, first, second, game.result))
                    folder = _group_folder(letter, teams, x, y, rnd)
                    loose = letter == "B" and rnd == 2 and leg == 1
                    files += _files(game, writer, "" if loose else folder, (letter, rnd, pair_no, leg), teams)
    # The groups' order as the event's rules rank them (site.toml: head-to-head, wins, Sonneborn-Berger).
    order = {g: [row.team for row in standings(teams, played[g], Points(), TIEBREAKS)] for g, teams in GROUPS.items()}
    files += _final(order)
    return files, order


def _group_folder(letter: str, teams: list[str], x: str, y: str, rnd: int) -> str:
    if letter == "A":
        i, j = sorted((teams.index(x) + 1, teams.index(y) + 1))
        return f"A{i}A{j}/"
    return f"B{rnd + 1}/"


def _files(game: Game, writer: Writer, folder: str, where: tuple[str, int, int, int], teams: list[str]) -> list[DemoFile]:
    letter, rnd, pair_no, leg = where
    path = f"{FOLDER}/{folder}{file_name(game)}"
    out: list[DemoFile] = []
    if letter == "A" and rnd == 2 and {game.first, game.second} == {teams[0], teams[1]} and leg == 0:
        # Group A's first pairing, written by the organiser's tool with the group codes.
        coded = Game("A1", "A2", game.first_colour, game.date, game.time, game.moves, game.result, game.decided)
        words = "A1胜出" if game.result == "first" else "A2胜出" if game.result == "second" else None
        text = record_text(coded, WRITERS[0], words)
        return [DemoFile(f"{FOLDER}/{folder}{file_name(coded)}", encode(text, WRITERS[0]), "team codes as names")]
    out.append(DemoFile(path, encode(record_text(game, writer), writer), "loose in the event folder" if not folder else ""))
    if where == ("A", 0, 0, 1):
        # One program draws the board block with red on top while its moves
        # play black from the top rows (a real one does): read upside down.
        flipped = Writer("times", "dashed", "×", "upside-down", colon="：")
        out[0] = DemoFile(path, encode(record_text(game, flipped), flipped), "board block upside down")
    if where == ("A", 1, 1, 0):
        # The same game saved by the second team's program, its own name in pinyin.
        pinyin = {"哈理工·苏拉": "HLG SuLa"}
        copy = Game(
            pinyin.get(game.first, game.first), pinyin.get(game.second, game.second), game.first_colour,
            game.date, game.time, game.moves, game.result, game.decided,
        )  # fmt: skip
        other = WRITERS[3]
        data = encode(record_text(copy, other), other)
        out.append(DemoFile(f"{FOLDER}/{folder}{file_name(copy, '-副本')}", data, "copy by the other program"))
    if where == ("B", 1, 0, 0):
        # The second program's copy stopped four moves early and says the game was undecided.
        short = Game(game.first, game.second, game.first_colour, game.date, game.time, game.moves[:-4], game.result)
        other = WRITERS[1]
        text = record_text(short, other, "未决胜")
        out.append(DemoFile(f"{FOLDER}/{folder}{file_name(short, '-对方记录')}", encode(text, other), "copy that disagrees"))
    if where == ("B", 0, 0, 1):
        # A capture along a blocked loop: the writer invented a move.
        broken = _break(game)
        out[0] = DemoFile(path, encode(record_text(broken, writer), writer), "illegal capture (blocked loop)")
    return out


def _break(game: Game) -> Game:
    """Replace the first plain move after move 10 by a capture no loop allows."""
    cells = _start()
    moves = list(game.moves)
    for k, (colour, a, b, capture) in enumerate(moves):
        if k >= 10 and not capture:
            enemy = RED if colour == BLACK else BLACK
            targets = sorted(t for t, c in enumerate(cells) if c == enemy and t not in captures(cells, a))
            if targets:
                moves = moves[:k] + [(colour, a, targets[0], True)] + moves[k + 1 :]
                return Game(game.first, game.second, game.first_colour, game.date, game.time, moves, game.result)
        cells[b], cells[a] = colour, EMPTY
    return game


def _final(order: dict[str, list[str]]) -> list[DemoFile]:
    a, b = order["A"], order["B"]
    files: list[DemoFile] = []
    semis = ((a[0], b[1], "A1-B2"), (b[0], a[1], "B1-A2"))
    times = ("09:30", "10:40")
    winners, losers = [], []
    for k, (x, y, label) in enumerate(semis):
        game = make_game(x, y, BLACK, "2025-11-23", times[k], f"su:semi:{label}")
        if game.result == "draw":
            game.result = "first"  # decided by the tie-break game, not recorded here
        winners.append(x if game.result == "first" else y)
        losers.append(y if game.result == "first" else x)
        data = encode(record_text(game, WRITERS[0]), WRITERS[0])
        files.append(DemoFile(f"{FOLDER}/决赛/11.23/{label}/{file_name(game)}", data))
    # The semi-finals' losers play for third place, the winners the final: a knockout Qipu draws as a bracket.
    for teams, time, seed, folder in ((losers, "13:30", "su:third", "三四名"), (winners, "14:00", "su:final", "冠亚军")):
        game = make_game(teams[0], teams[1], BLACK, "2025-11-23", time, seed)
        data = encode(record_text(game, WRITERS[0]), WRITERS[0])
        files.append(DemoFile(f"{FOLDER}/决赛/11.23/{folder}/{file_name(game)}", data))
    return files
