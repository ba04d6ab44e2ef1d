"""Random games played in OpenSpiel, written as CCGC records.

The differential test (``tests/test_openspiel.py``) plays random legal games
of Go (9x9, 13x13, 19x19), Phantom Go (9x9) and Hex (11x11) in OpenSpiel
(``pip install open-spiel``, the ``test`` extra), writes each one as the
CCGC record a tournament program would write, and lets Qipu replay it. This
module holds everything that knows OpenSpiel: playing, and the map from
OpenSpiel's actions to CCGC coordinates. It imports ``pyspiel`` at the top,
so import it only once OpenSpiel is known to be importable.

Coordinates, checked by hand in the test module:

Go and Phantom Go
    OpenSpiel's action ``a`` on an N x N board is the point ``(x, y) =
    (a % N, a // N)``: ``x`` the column from the left, ``y`` the row from the
    bottom (OpenSpiel prints ``a1`` bottom-left, as GTP does); ``N * N`` is the
    pass. CCGC uses the same origin, bottom-left, but its column letters keep
    I (``A..I`` on 9x9, where GTP writes ``A..J`` without I): column letter
    ``"ABCDEFGHIJKLMNOPQRS"[x]``, row ``y + 1``. The 19-line GO writes the row
    as a letter too (row letter A = row 1, S = row 19). A pass is written
    ``B[]`` or ``B[tt]``, both (alternately).

Hex
    OpenSpiel's action ``a`` on an 11 x 11 board is the cell ``(r, c) =
    (a // 11, a % 11)``. Player 0 (OpenSpiel's "black", who moves first) joins
    rows r = 0 and r = 10 ("north" and "south"), player 1 columns c = 0 and
    c = 10; the six neighbours of (r, c) are (r, c +- 1), (r +- 1, c),
    (r - 1, c + 1) and (r + 1, c - 1). CCGC's red moves first and, by default,
    joins rows 1 and 11; blue joins columns A and K. So the map is the
    identity on the numbers: column letter ``"ABCDEFGHIJK"[c]``, row ``r + 1``
    (OpenSpiel's r = 0 is CCGC's bottom row 1). It keeps the neighbour
    relation -- Qipu's neighbours of (x, y) are (x +- 1, y), (x, y +- 1),
    (x - 1, y + 1) and (x + 1, y - 1), the same two diagonals -- and each
    side's edges, so it keeps the winner. OpenSpiel *prints* r = 0 at the top,
    a mirror image of CCGC's drawing; a mirror image of a Hex board is the
    same game.

Records are written one move per line after a one-line header (or on one
line, for some), so that a diagnostic's line and column name a move.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pyspiel

COLUMNS = "ABCDEFGHIJKLMNOPQRS"  # CCGC column letters: I is included
ROW_LETTERS = "ABCDEFGHIJKLMNOPQRS"  # 19-line GO: row letter A = row 1 (bottom)
CODES = {("go", 9): "GO9", ("go", 13): "GO13", ("go", 19): "GO", ("phantom_go", 9): "PG", ("hex", 11): "HEX"}
RESULT_WORDS = {"first": "先手胜", "second": "后手胜", "draw": "平局", None: "未决胜"}
_BOARD_LINE = re.compile(r"^\s*(\d+) ([+XO]+)\s*$")


@dataclass(slots=True)
class Played:
    """One OpenSpiel move as the record writes it."""

    side: str  # "first" (black, red) or "second" (white, blue)
    action: int  # OpenSpiel's action
    point: tuple[int, int] | None  # (x, y), 0-based, origin bottom-left; None for a pass
    failed: bool = False  # Phantom Go: an attempt OpenSpiel refused (same player again)


@dataclass(slots=True)
class Game:
    """A finished OpenSpiel game and what OpenSpiel says about it."""

    code: str  # CCGC code: GO9, GO13, GO, PG, HEX
    kind: str  # OpenSpiel's game name: go, phantom_go, hex
    size: int
    seed: int
    komi: float | None
    moves: list[Played]  # every move OpenSpiel played, failed attempts included
    # How the game ends under the CCGC rules, as far as the record goes:
    #   "passes"      two passes in a row, then the area count (Tromp-Taylor);
    #   "turn-passes" Phantom Go only: a pass, then the other player's failed
    #                 attempts and pass -- two passes in a row by turn, which
    #                 ends the game under the CCGC rules (an attempt that fails
    #                 is not a move) but not in OpenSpiel, whose phantom_go
    #                 looks at its last two actions only. ``returns`` is then
    #                 OpenSpiel's go count of the same board;
    #   "max-length"  OpenSpiel's move limit: no ending under the CCGC rules;
    #   "superko"     a move repeated a whole-board position (OpenSpiel ends the
    #                 game there and calls it a draw; Qipu refuses the move);
    #   "connection"  Hex.
    end: str
    returns: tuple[float, float]  # OpenSpiel's, for the ending above
    length: int  # moves the CCGC record keeps (the game up to ``end``, the repeating move left out)
    # Superko games: the 0-based index of the repeating move in ``moves``, the
    # record's move number after which the position had stood before (0: the
    # empty start) and that position, rows from the top as OpenSpiel prints them.
    superko_at: int | None = None
    earlier: int | None = None
    repeated: tuple[str, ...] | None = None
    openspiel_end: str = ""  # how OpenSpiel itself ended it, when that differs from ``end``
    options: dict = field(default_factory=dict)

    @property
    def decided(self) -> bool:
        """Whether the rules decided the game (two passes and the count; a Hex connection)."""
        return self.end in ("passes", "turn-passes", "connection")

    @property
    def winner(self) -> str | None:
        """OpenSpiel's winner as a CCGC result, where the rules decided one."""
        if not self.decided:
            return None
        return outcome(self.returns)

    @property
    def kept(self) -> list[Played]:
        """The moves of the CCGC record."""
        return self.moves[: self.length]

    def label(self) -> str:
        return f"{self.code} seed {self.seed}"


def outcome(returns) -> str:
    return "first" if returns[0] > 0 else "second" if returns[0] < 0 else "draw"


# -- playing -------------------------------------------------------------------


def load(kind: str, size: int, komi: float | None = None):
    if kind == "hex":
        return pyspiel.load_game("hex", {"board_size": size})
    return pyspiel.load_game(kind, {"board_size": size, "komi": float(komi if komi is not None else 7.5)})


def board_rows(state, size: int) -> tuple[str, ...]:
    """The real board as OpenSpiel prints it (rows from the top; X black, O white, + empty).

    Phantom Go prints the referee's board first and each player's view after
    it: the first ``size`` board lines are the real board.
    """
    rows = []
    for line in str(state).splitlines():
        m = _BOARD_LINE.match(line)
        if m:
            rows.append(m.group(2))
            if len(rows) == size:
                break
    if len(rows) != size or any(len(r) != size for r in rows):
        raise AssertionError(f"cannot read OpenSpiel's board from:\n{state}")
    return tuple(rows)


def stone_at(rows: tuple[str, ...], x: int, y: int) -> str:
    """'X', 'O' or '+' at (x, y) (y from the bottom) of :func:`board_rows`."""
    return rows[len(rows) - 1 - y][x]


def go_point(action: int, size: int) -> tuple[int, int] | None:
    if action == size * size:
        return None
    return action % size, action // size


def go_action(x: int, y: int, size: int) -> int:
    return y * size + x


def hex_point(action: int, size: int) -> tuple[int, int]:
    """(x, y) = (column, row from the bottom) of an OpenSpiel Hex action; see the module docstring."""
    return action % size, action // size


def hex_action(x: int, y: int, size: int) -> int:
    return y * size + x


def play_go(kind: str, size: int, seed: int, komi: float = 7.5, forced: list[int] | None = None) -> Game:
    """A random legal game of ``go`` or ``phantom_go``, uniform over OpenSpiel's legal actions.

    In Phantom Go the legal actions are the points the player to move has not
    seen occupied: some land on a hidden stone, or are suicide or a ko
    retake; OpenSpiel refuses those and the same player tries again. They are
    kept as failed attempts, as the record keeps them. The first moves are
    ``forced`` (OpenSpiel actions), when given.
    """
    rng = random.Random(seed)
    game = load(kind, size, komi)
    state = game.new_initial_state()
    pass_action = size * size
    rows = board_rows(state, size)
    seen = {rows: 0}  # position -> the record's move number after which it first stood
    moves: list[Played] = []
    superko_at = earlier = repeated = None
    while not state.is_terminal():
        player = state.current_player()
        legal = state.legal_actions()
        action = forced[len(moves)] if forced and len(moves) < len(forced) else rng.choice(legal)
        state.apply_action(action)
        after = board_rows(state, size)
        failed = action != pass_action and after == rows
        moves.append(Played("first" if player == 0 else "second", action, go_point(action, size), failed))
        if failed and not state.is_terminal() and state.current_player() != player:
            raise AssertionError(f"{kind} seed {seed}: after a refused move OpenSpiel gave the turn away")
        if action != pass_action and not failed:
            if after in seen:
                superko_at, earlier, repeated = len(moves) - 1, seen[after], after
                if not state.is_terminal():
                    raise AssertionError(f"{kind} seed {seed}: a repeated position did not end OpenSpiel's game")
            else:
                seen[after] = len(moves)
        rows = after
    returns = tuple(state.returns())
    history = state.history()
    if superko_at is not None:
        end = "superko"
    elif len(history) >= 2 and history[-1] == pass_action and history[-2] == pass_action:
        end = "passes"
    elif len(history) >= game.max_game_length():
        end = "max-length"
    else:
        raise AssertionError(f"{kind} seed {seed}: OpenSpiel ended the game for no reason this harness knows")
    if end == "superko" and returns[0] != 0:
        raise AssertionError(f"{kind} seed {seed}: OpenSpiel scored a superko game {returns}")
    length = superko_at if superko_at is not None else len(moves)
    played = Game(CODES[kind, size], kind, size, seed, komi, moves, end, returns, length, superko_at, earlier,
                  repeated, options={"komi": float(komi)})
    if kind == "phantom_go":
        _turn_passes(played)
    return played


def _turn_passes(game: Game) -> None:
    """Phantom Go: end the game at the first two passes in a row by turn (failed attempts between).

    OpenSpiel's phantom_go ends only on two passes among its last two actions,
    so after "B passes; W fails; W passes" it plays on. The CCGC rules (and
    Qipu) end the game there. The winner is then OpenSpiel's own count of that
    board: the successful moves alone, replayed in OpenSpiel's go, give the
    same board and end with the same two passes. The same projection checks
    the games both end alike: it must agree with phantom_go's count.
    """
    pass_action = game.size * game.size
    passes, stop = 0, None
    for n, move in enumerate(game.moves):
        if n == game.superko_at:
            break
        if move.action == pass_action:
            passes += 1
            if passes == 2:
                stop = n + 1
                break
        elif not move.failed:
            passes = 0
    if stop is None:
        return
    go = pyspiel.load_game("go", {"board_size": game.size, "komi": float(game.komi), "max_game_length": 10_000})
    state = go.new_initial_state()
    for move in game.moves[:stop]:
        if not move.failed:
            state.apply_action(move.action)
    if not state.is_terminal():
        raise AssertionError(f"{game.label()}: the successful moves do not end OpenSpiel's go with two passes")
    returns = tuple(state.returns())
    if game.end == "passes" and stop == len(game.moves):
        if outcome(returns) != outcome(game.returns):
            raise AssertionError(f"{game.label()}: OpenSpiel's go and phantom_go count the same board differently")
        return
    game.openspiel_end, game.end, game.returns, game.length = game.end, "turn-passes", returns, stop
    game.superko_at = game.earlier = game.repeated = None


def play_hex(seed: int, size: int = 11) -> Game:
    """A random legal Hex game (no swap), played until a chain joins a side's edges."""
    rng = random.Random(seed)
    game = load("hex", size)
    state = game.new_initial_state()
    moves: list[Played] = []
    while not state.is_terminal():
        player = state.current_player()
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        moves.append(Played("first" if player == 0 else "second", action, hex_point(action, size)))
    return Game(CODES["hex", size], "hex", size, seed, None, moves, "connection", tuple(state.returns()), len(moves))


def replay_state(game: Game, count: int):
    """OpenSpiel's state after the first ``count`` moves of ``game``."""
    state = load(game.kind, game.size, game.komi).new_initial_state()
    for move in game.moves[:count]:
        state.apply_action(move.action)
    return state


# -- illegal moves ---------------------------------------------------------------


@dataclass(slots=True)
class Illegal:
    """A move OpenSpiel refuses, to be appended after ``prefix`` moves of a game."""

    prefix: int  # moves of the game kept before it
    move: Played
    kind: str  # "occupied", "suicide", "ko" (Go); "occupied", "after-end" (Hex)
    why: str  # for failure messages


def _captures(rows: tuple[str, ...], x: int, y: int, colour: str) -> bool:
    """Whether placing ``colour`` on empty (x, y) captures: an enemy neighbour group whose only liberty is (x, y)."""
    size = len(rows)
    enemy = "O" if colour == "X" else "X"
    for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
        if not (0 <= nx < size and 0 <= ny < size) or stone_at(rows, nx, ny) != enemy:
            continue
        group, todo, liberties = {(nx, ny)}, [(nx, ny)], set()
        while todo:
            cx, cy = todo.pop()
            for px, py in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                if not (0 <= px < size and 0 <= py < size):
                    continue
                v = stone_at(rows, px, py)
                if v == "+":
                    liberties.add((px, py))
                elif v == enemy and (px, py) not in group:
                    group.add((px, py))
                    todo.append((px, py))
        if liberties == {(x, y)}:
            return True
    return False


def _random_prefixes(game: Game, rng: random.Random, tries: int = 20) -> Iterator[tuple[int, Any]]:
    """Up to ``tries`` random positions of ``game`` where it is not over: (moves played, OpenSpiel state)."""
    for _ in range(tries):
        count = rng.randrange(0, game.length)
        state = replay_state(game, count)
        if not state.is_terminal():
            yield count, state


def go_illegal(game: Game, rng: random.Random, prefer: str | None = None) -> Illegal | None:
    """A random move that OpenSpiel's Go refuses after a random prefix of ``game``.

    The kinds: a stone on an occupied point; on an empty point that is not
    among OpenSpiel's legal actions, which is suicide, or the simple-ko retake
    (a move that captures: OpenSpiel's ko point). Both are illegal in Qipu too
    (the ko retake as positional superko). ``prefer`` picks the kind when the
    position has one; None when no prefix has an illegal move (rare).
    """
    for count, state in _random_prefixes(game, rng):
        size = game.size
        rows = board_rows(state, size)
        player = state.current_player()
        colour = "X" if player == 0 else "O"
        legal = set(state.legal_actions())
        occupied, refused = [], []
        for y in range(size):
            for x in range(size):
                if stone_at(rows, x, y) != "+":
                    occupied.append((x, y))
                elif go_action(x, y, size) not in legal:
                    refused.append((x, y))
        choices = {"occupied": occupied, "refused": refused}
        wanted = "refused" if prefer in ("suicide", "ko") else prefer
        pool = choices.get(wanted) or occupied or refused
        if not pool:
            continue
        x, y = rng.choice(pool)
        if stone_at(rows, x, y) != "+":
            kind = "occupied"
        else:
            kind = "ko" if _captures(rows, x, y, colour) else "suicide"
        side = "first" if player == 0 else "second"
        move = Played(side, go_action(x, y, size), (x, y))
        return Illegal(count, move, kind, f"{kind} at {COLUMNS[x]}{y + 1} after {count} moves")
    return None


def phantom_attempt(game: Game, rng: random.Random) -> tuple[Game, int] | None:
    """A Phantom Go game with a failed attempt on a hidden opponent stone put in at a random place.

    Replays a random prefix of ``game``, lets the player to move try a point
    where an opponent stone stands that this player has not seen (OpenSpiel
    refuses it and the same player moves again), then plays on at random to
    the end. Returns the new game and the index of the attempt in its moves.
    """
    for count, state in _random_prefixes(game, rng):
        size = game.size
        rows = board_rows(state, size)
        player = state.current_player()
        enemy = "O" if player == 0 else "X"
        legal = set(state.legal_actions())  # the points this player has not seen occupied
        hidden = [
            go_action(x, y, size)
            for y in range(size)
            for x in range(size)
            if stone_at(rows, x, y) == enemy and go_action(x, y, size) in legal
        ]
        if not hidden:
            continue
        target = rng.choice(hidden)
        forced = [m.action for m in game.moves[:count]] + [target]
        new = play_go(game.kind, game.size, rng.randrange(1 << 30), game.komi or 7.5, forced=forced)
        new.seed = game.seed  # the prefix is the original game's; the label names it
        attempt = new.moves[count]
        if not attempt.failed or attempt.action != target:
            raise AssertionError(f"{game.label()}: OpenSpiel did not refuse the move onto a hidden stone")
        return new, count
    return None


def hex_illegal(game: Game, rng: random.Random, after_end: bool = False) -> Illegal:
    """A Hex move OpenSpiel refuses: on an occupied cell after a random prefix, or any move after the win."""
    size = game.size
    count = len(game.moves) if after_end else rng.randrange(1, len(game.moves))
    state = replay_state(game, count)
    side = "first" if count % 2 == 0 else "second"
    if state.is_terminal():
        x, y = rng.randrange(size), rng.randrange(size)
        move = Played(side, hex_action(x, y, size), (x, y))
        return Illegal(count, move, "after-end", f"a move after the winning stone (move {count})")
    taken = [m.point for m in game.moves[:count]]
    x, y = rng.choice(taken)
    if hex_action(x, y, size) in state.legal_actions():
        raise AssertionError(f"{game.label()}: OpenSpiel would take a stone on an occupied cell")
    move = Played(side, hex_action(x, y, size), (x, y))
    return Illegal(count, move, "occupied", f"occupied cell {COLUMNS[x]}{y + 1} after {count} moves")


# -- writing records ---------------------------------------------------------------


@dataclass(slots=True)
class Written:
    """A record's text and where each move stands in it (1-based line, column; column end exclusive)."""

    text: str
    spans: list[tuple[int, int, int]]


def move_text(code: str, move: Played, number: int) -> str:
    if code == "HEX":
        letter = "R" if move.side == "first" else "B"
        x, y = move.point
        return f"{letter}({COLUMNS[x]},{y + 1})"
    letter = "B" if move.side == "first" else "W"
    if move.point is None:
        return f"{letter}[]" if number % 2 else f"{letter}[tt]"  # both ways of writing a pass
    x, y = move.point
    if code == "GO":
        return f"{letter}[{COLUMNS[x]}{ROW_LETTERS[y]}]"
    return f"{letter}[{COLUMNS[x]}{y + 1}]"


def header(code: str, result: str | None) -> str:
    teams = "[红队 R][蓝队 B]" if code == "HEX" else "[黑队 B][白队 W]"
    opening = "{" if code == "HEX" else "(;" if code == "GO" else "("
    return f"{opening}[{code}]{teams}[{RESULT_WORDS[result]}][2025.11.21 10:00 北京][测试赛]"


def write(code: str, moves: list[Played], result: str | None, one_line: bool = False) -> Written:
    """The CCGC record of ``moves``, with ``result`` (先手胜 ...; None: 未决胜) in the header.

    One move per line after the header, or everything on one line.
    """
    closing = "}" if code == "HEX" else ")"
    head = header(code, result)
    parts, spans = [head], []
    line, column = 1, len(head) + 2  # after the header and its ";"
    for n, move in enumerate(moves, 1):
        text = move_text(code, move, n)
        if not one_line:
            line, column = line + 1, 1
        spans.append((line, column, column + len(text)))
        parts.append(text)
        column += len(text) + 1
    separator = ";" if one_line else ";\n"
    return Written(separator.join(parts) + closing, spans)
