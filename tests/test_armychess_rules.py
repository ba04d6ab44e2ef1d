"""The rules of army chess (rules/armychess.py), tested without an oracle (../shared/ORACLES.md, 3.7).

No usable independent engine exists, so: the battle table written out from
``specs/003_…txt`` cell by cell; a second, deliberately simple move
generator compared with the engine's on thousands of random positions;
every rule with a hand-made record that breaks it. Invariants of random
games are in test_armychess_random.py.
"""

from __future__ import annotations

import random

import pytest

from generator import games
from generator.model import Metadata, Move, Record
from generator.rules import armychess as ac
from generator.scene import position_after

AC2 = games.GAMES["AC2"]

# The battle table of specs/003_…txt (碰子规则), copied cell by cell: a row is the piece attacked,
# a column the attacker (司令 … 工兵, 炸弹); "同尽" both go, "X败" X loses.
ATTACKERS = "司令 军长 师长 旅长 团长 营长 连长 排长 工兵 炸弹".split()
TABLE = """
司令 | 同尽   | 军长败 | 师长败 | 旅长败 | 团长败 | 营长败 | 连长败 | 排长败 | 工兵败 | 同尽
军长 | 军长败 | 同尽   | 师长败 | 旅长败 | 团长败 | 营长败 | 连长败 | 排长败 | 工兵败 | 同尽
师长 | 师长败 | 师长败 | 同尽   | 旅长败 | 团长败 | 营长败 | 连长败 | 排长败 | 工兵败 | 同尽
旅长 | 旅长败 | 旅长败 | 旅长败 | 同尽   | 团长败 | 营长败 | 连长败 | 排长败 | 工兵败 | 同尽
团长 | 团长败 | 团长败 | 团长败 | 团长败 | 同尽   | 营长败 | 连长败 | 排长败 | 工兵败 | 同尽
营长 | 营长败 | 营长败 | 营长败 | 营长败 | 营长败 | 同尽   | 连长败 | 排长败 | 工兵败 | 同尽
连长 | 连长败 | 连长败 | 连长败 | 连长败 | 连长败 | 连长败 | 同尽   | 排长败 | 工兵败 | 同尽
排长 | 排长败 | 排长败 | 排长败 | 排长败 | 排长败 | 排长败 | 排长败 | 同尽   | 工兵败 | 同尽
工兵 | 工兵败 | 工兵败 | 工兵败 | 工兵败 | 工兵败 | 工兵败 | 工兵败 | 工兵败 | 同尽   | 同尽
地雷 | 司令败 | 军长败 | 师长败 | 旅长败 | 团长败 | 营长败 | 连长败 | 排长败 | 地雷败 | 同尽
炸弹 | 同尽   | 同尽   | 同尽   | 同尽   | 同尽   | 同尽   | 同尽   | 同尽   | 同尽   | 同尽
军旗 | 军旗败 | 军旗败 | 军旗败 | 军旗败 | 军旗败 | 军旗败 | 军旗败 | 军旗败 | 军旗败 | 同尽
"""
CODE = {name: code for code, name in ac.CHINESE.items()}


def table_cells() -> list[tuple[str, str, int]]:
    cells = []
    for line in TABLE.strip().splitlines():
        defender, *row = (part.strip() for part in line.split("|"))
        assert len(row) == len(ATTACKERS)
        for attacker, cell in zip(ATTACKERS, row, strict=True):
            if cell == "同尽":
                outcome = ac.BOTH
            else:
                loser = cell.removesuffix("败")
                # "X败" names the loser: the attacker's loss, or else the defender's.
                outcome = ac.LOST if loser == attacker else ac.WON
                assert loser in (attacker, defender), line
            cells.append((CODE[attacker], CODE[defender], outcome))
    return cells


def test_the_battle_table_cell_by_cell() -> None:
    cells = table_cells()
    assert len(cells) == 12 * 10  # every defender, every piece that can attack
    wrong = [(a, d, want, ac.battle(a, d)) for a, d, want in cells if ac.battle(a, d) != want]
    assert wrong == []


def test_the_special_cases_of_the_protocol_text() -> None:
    assert all(ac.battle("k", d) == ac.BOTH for d in ac.KINDS)  # the bomb takes anything with it
    assert ac.battle("i", "j") == ac.WON  # the engineer takes a mine
    assert all(ac.battle(a, "j") == ac.LOST for a in "abcdefgh")  # a mine takes any other attacker
    assert all(ac.battle(a, a) == ac.BOTH for a in "abcdefghi")  # equal ranks both go
    assert all(ac.battle(a, "l") == ac.WON for a in "abcdefghi")


# -- a second, deliberately simple move generator ------------------------------------------

ROW_LETTERS = "ABCDEFGHIJKL"
SIMPLE_CAMPS = {"C1", "C3", "D2", "E1", "E3", "H1", "H3", "I2", "J1", "J3"}
SIMPLE_HQ = {"A1", "A3", "L1", "L3"}
# The railways as the board draws them: whole lines, each a straight polyline.
SIMPLE_LINES = [
    [f"B{c}" for c in range(5)], [f"F{c}" for c in range(5)], [f"G{c}" for c in range(5)], [f"K{c}" for c in range(5)],
    [f"{r}0" for r in "BCDEFGHIJK"], [f"{r}4" for r in "BCDEFGHIJK"], ["F2", "G2"],
]


def rc(cell: str) -> tuple[int, int]:
    return ROW_LETTERS.index(cell[0]), int(cell[1])


def road(a: str, b: str) -> bool:
    (r1, c1), (r2, c2) = rc(a), rc(b)
    if abs(r1 - r2) + abs(c1 - c2) == 1:
        return not ({r1, r2} == {5, 6} and c1 in (1, 3))  # the mountains
    return abs(r1 - r2) == 1 and abs(c1 - c2) == 1 and (a in SIMPLE_CAMPS or b in SIMPLE_CAMPS)


def rail_neighbours(cell: str) -> set[str]:
    out = set()
    for line in SIMPLE_LINES:
        for x, y in zip(line, line[1:]):
            if cell == x:
                out.add(y)
            if cell == y:
                out.add(x)
    return out


def simple_moves(board: dict[str, tuple[int, str]], seat: int) -> set[tuple[str, str]]:
    """Every (from, to) by brute force over all pairs of cells."""
    found = set()
    cells = [f"{r}{c}" for r in ROW_LETTERS for c in range(5)]
    for start, (owner, kind) in board.items():
        if owner != seat or kind in "jl" or start in SIMPLE_HQ:
            continue
        # The engineer's railway reach: grow the set of empty stations it gets to until nothing changes.
        reach: set[str] = set()
        if kind == "i":
            grown = {start}
            changed = True
            while changed:
                changed = False
                for cell in list(grown):
                    for n in rail_neighbours(cell):
                        if n not in grown and n not in board:
                            grown.add(n)
                            changed = True
            reach = {n for cell in grown for n in rail_neighbours(cell)} - {start}
        for to in cells:
            if to == start:
                continue
            there = board.get(to)
            if there is not None and (there[0] == seat or to in SIMPLE_CAMPS):
                continue
            ok = road(start, to) or to in reach
            for line in SIMPLE_LINES:
                if start in line and to in line:
                    i, j = sorted((line.index(start), line.index(to)))
                    if all(cell not in board for cell in line[i + 1 : j]):
                        ok = True
            if ok:
                found.add((start, to))
    return found


def engine_moves(board: dict[str, tuple[int, str]], seat: int) -> set[tuple[str, str]]:
    position = ac.Position()
    for cell, (owner, kind) in board.items():
        position.cells[ac.INDEX[cell]] = (owner, kind, cell)
    return {(ac.CELLS[a], ac.CELLS[b]) for a, b in position.moves(seat)}


def random_board(rng: random.Random) -> dict[str, tuple[int, str]]:
    cells = [f"{r}{c}" for r in ROW_LETTERS for c in range(5)]
    chosen = rng.sample(cells, rng.randint(2, 40))
    pieces = "abcdefghiiiijklk"  # engineers often: they have the hardest moves
    return {cell: (rng.randint(0, 1), rng.choice(pieces)) for cell in chosen}


def test_two_move_generators_agree_on_thousands_of_random_positions() -> None:
    rng = random.Random(20)
    compared = moves = 0
    for _ in range(3000):
        board = random_board(rng)
        for seat in (0, 1):
            simple, engine = simple_moves(board, seat), engine_moves(board, seat)
            assert simple == engine, (board, seat, simple ^ engine)
            compared += 1
            moves += len(engine)
    assert compared == 6000 and moves > 50_000  # the positions were not trivial
    print(f"compared {compared} positions, {moves} moves")


def test_known_moves_of_the_engineer_and_the_others() -> None:
    alone = {"K0": (0, "i")}
    # The engineer turns at K0 and at B0/B4: the whole railway network is its reach.
    reach = {to for _, to in engine_moves(alone, 0)}
    assert {"B4", "K4", "F2", "G2", "L0", "J1"} <= reach and "F1" in reach
    other = {"K0": (0, "b")}
    reach = {to for _, to in engine_moves(other, 0)}
    assert reach == {f"{r}0" for r in "BCDEFGHIJ"} | {"K1", "K2", "K3", "K4", "L0", "J1"}
    # Across the mountains there is no road; across the front at column 2 a rail and a road.
    assert ("F1", "G1") not in engine_moves({"F1": (0, "c")}, 0)
    assert ("F2", "G2") in engine_moves({"F2": (0, "c")}, 0)
    # A piece in a camp may not be attacked, a mine and the flag never move, nor a piece in a headquarters.
    assert ("G1", "H1") not in engine_moves({"G1": (0, "c"), "H1": (1, "h")}, 0)
    assert engine_moves({"K1": (0, "j"), "L1": (0, "l"), "L3": (0, "a")}, 0) == set()


def test_a_position_and_its_mirror_image_give_mirrored_moves() -> None:
    rng = random.Random(7)

    def mirrored(cell: str) -> str:
        return f"{cell[0]}{4 - int(cell[1])}"

    def turned(cell: str) -> str:
        return f"{ROW_LETTERS[11 - ROW_LETTERS.index(cell[0])]}{4 - int(cell[1])}"

    for _ in range(500):
        board = random_board(rng)
        moves = engine_moves(board, 0)
        left_right = {mirrored(c): p for c, p in board.items()}
        assert engine_moves(left_right, 0) == {(mirrored(a), mirrored(b)) for a, b in moves}
        # Turned half round with the sides swapped: the other side's moves, turned.
        half_round = {turned(c): (1 - p[0], p[1]) for c, p in board.items()}
        assert engine_moves(half_round, 1) == {(turned(a), turned(b)) for a, b in moves}


# -- hand-made records, one rule each --------------------------------------------------------------


def record(board: dict[str, str], *moves: str, sl: int = 31) -> Record:
    """A record of a position made by hand: ``board`` maps cells to codes (upper case: the first
    player's); a move is ``"A G0F0 1"`` (side, cells, recorded outcome or "-") and may end ``F B00``."""
    rows = [["."] * 5 for _ in range(12)]
    for cell, code in board.items():
        r, c = rc(cell)
        rows[r][c] = code
    made = []
    for n, text in enumerate(moves, 1):
        side, cells, *rest = text.split()
        outcome = int(rest[0]) if rest and rest[0] != "-" else None
        flag = rest[2] if len(rest) > 2 and rest[1] == "F" else None
        point, to = (cells[0], int(cells[1])), (cells[2], int(cells[3]))
        made.append(Move(side, cells, point, n + 4, 2, to=to, parts=(outcome, flag)))
    setup = ["".join(r) for r in rows] + [str(sl), "3:2", "4:2", ""]
    return Record("AC2-test.txt", "AC2", Metadata(), made, setup=setup, setup_line=3)


def run(board: dict[str, str], *moves: str, sl: int = 31):
    return ac.replay(record(board, *moves, sl=sl), AC2)


def codes(done) -> list[str]:
    return [d.code for d in done.diagnostics if d.code != "RULE-E1016"]  # sparse boards break the layout counts


BOTH_FLAGS = {"L1": "L", "A1": "l", "L0": "J", "A0": "j"}


def test_a_move_that_breaks_a_rule_is_an_error_and_loses() -> None:
    cases = {
        "RULE-E1010": ({"G0": "H"}, "A G1G2 3"),  # no piece there
        "RULE-E1011": ({"K1": "J"}, "A K1J1 3"),  # a mine
        "RULE-E1012": ({"G1": "C"}, "A G1F1 3"),  # over the mountain
        "RULE-E1013": ({"G1": "C", "H1": "h"}, "A G1H1 1"),  # a piece in a camp
        "RULE-E1015": ({"G1": "C", "G2": "h"}, "A G1G2 3"),  # a battle recorded as a plain move
    }
    for code, (board, move) in cases.items():
        done = run({**BOTH_FLAGS, **board}, move)
        assert codes(done) == [code], (code, [d.message for d in done.diagnostics])
        assert done.plies == []
        if code == "RULE-E1015":  # the move was legal, the record is wrong: nothing decided
            assert done.decision is None
        else:
            assert done.decision is not None and (done.decision.rule, done.decision.winner) == ("illegal", "second")
    done = run({**BOTH_FLAGS, "L3": "A"}, "A L3K3 3")
    assert "headquarters" in done.diagnostics[-1].message
    done = run({**BOTH_FLAGS, "K0": "B", "H0": "h"}, "A K0G0 3")  # a rail run over a piece
    assert codes(done) == ["RULE-E1012"]
    done = run({**BOTH_FLAGS, "K0": "B"}, "A K0B1 3")  # round a railway corner: only the engineer
    assert codes(done) == ["RULE-E1012"] and "only the engineer turns corners" in done.diagnostics[-1].message
    assert codes(run({**BOTH_FLAGS, "K0": "I"}, "A K0B1 3")) == []
    done = run(BOTH_FLAGS, "A L1K1 3")  # the flag
    assert codes(done) == ["RULE-E1011"] and "军旗 on L1 never moves" in done.diagnostics[-1].message
    done = run({**BOTH_FLAGS, "K4": "H", "B4": "h"}, "A K4K3 3", "A K3K4 3")  # out of turn: the driver's check
    assert codes(done) == ["RULE-E001"]


def test_a_recorded_outcome_against_the_table_names_both_pieces_and_is_followed() -> None:
    done = run({**BOTH_FLAGS, "G0": "C", "F0": "b", "K4": "H", "B4": "h"}, "A G0F0 1", "B B4C4 3")
    [problem] = [d for d in done.diagnostics if d.code == "RULE-E1014"]
    assert "师长 attacks 军长 on F0" in problem.message and "the mover lost" in problem.message
    assert len(done.plies) == 2  # the replay went on, as the record says
    final = position_after(done.setup, done.plies)
    assert any(p.at == "F0" and p.kind == "major-general" for p in final.pieces.values())


def test_the_commanders_fall_shows_the_flag_to_the_opponent_only() -> None:
    board = {**BOTH_FLAGS, "G0": "A", "F0": "a", "K4": "H", "B4": "h"}
    # Both commanders fall together: both flags are shown, each line names the opponent's (the standard's FB on MA).
    done = run(board, "A G0F0 2 F BA1", "B B4C4 3 F AL1", "A K4J4 3 F BA1")
    assert codes(done) == []
    first = position_after(done.setup, done.plies, 1, view="first", setup_hidden=done.setup_hidden)
    second = position_after(done.setup, done.plies, 1, view="second", setup_hidden=done.setup_hidden)
    kind_at = lambda position, cell: next(p.kind for p in position.pieces.values() if p.at == cell)  # noqa: E731
    assert kind_at(first, "A1") == "flag" and kind_at(second, "L1") == "flag"
    before = position_after(done.setup, done.plies, 0, view="first", setup_hidden=done.setup_hidden)
    assert kind_at(before, "A1") == "hidden" and kind_at(before, "L1") == "flag"  # own pieces face up
    # The record must then show the flag: 00 for a flag the rules have shown is an error.
    done = run(board, "A G0F0 2 F BA1", "B B4C4 3 F A00")
    assert codes(done) == ["RULE-E1017"] and "stands on L1" in done.diagnostics[-1].message
    done = run(board, "A G0F0 2 F BA0")
    assert codes(done) == ["RULE-E1017"]


def test_taking_the_flag_wins() -> None:
    done = run({**BOTH_FLAGS, "B1": "I", "K4": "h"}, "A B1A1 1")
    assert (done.decision.rule, done.decision.winner, done.decision.cells) == ("flag", "first", ("A1",))
    done = run({**BOTH_FLAGS, "B1": "K", "K4": "h", "K3": "I"}, "A B1A1 2")  # blown up by a bomb
    assert (done.decision.rule, done.decision.winner) == ("flag", "first")
    done = run({**BOTH_FLAGS, "B1": "I", "K4": "h"}, "A B1A1 1", "B K4K3 3")
    assert codes(done) == ["RULE-E003"]


def test_no_legal_move_loses_and_neither_side_moving_is_a_draw() -> None:
    done = run({**BOTH_FLAGS, "K4": "H", "B4": "h"}, "A K4J4 3", "B B4C4 3", "A J4I4 3")
    assert done.decision is None
    done = run({**BOTH_FLAGS, "K4": "H", "B0": "h", "A4": "j"}, "A K4B4 3")  # black's only piece moved... still moves
    assert done.decision is None
    # Black's last movable piece is taken: black, to move, has none.
    done = run({**BOTH_FLAGS, "C4": "H", "B4": "i"}, "A C4B4 1")
    assert (done.decision.rule, done.decision.winner) == ("no-move", "first")
    # Both last movable pieces go together: neither side can move.
    done = run({**BOTH_FLAGS, "C4": "H", "B4": "h"}, "A C4B4 2")
    assert (done.decision.rule, done.decision.winner) == ("no-move", "draw")


def test_sl_moves_without_a_battle_lose_for_the_side_to_move() -> None:
    moves = ["A K4J4 3", "B B4C4 3", "A J4K4 3", "B C4B4 3"]
    done = run({**BOTH_FLAGS, "K4": "H", "B4": "h"}, *moves, sl=4)
    assert (done.decision.rule, done.decision.winner, done.decision.ply) == ("no-battle", "second", 4)
    done = run({**BOTH_FLAGS, "K4": "H", "B4": "h"}, *moves, sl=5)
    assert done.decision is None


def test_a_record_whose_layout_breaks_the_rules_says_which_rule_and_where() -> None:
    from test_armychess_format import AA, EXAMPLE, read

    bad = "k" + AA[1:5] + "a" + AA[6:]  # a bomb in the front row where the commander stood, the commander in row H
    record = read(EXAMPLE.replace(f"AA[{AA}]", f"AA[{bad}]"))
    done = ac.replay(record, AC2)
    layout = [(d.line, d.column, d.message) for d in done.diagnostics if d.code == "RULE-E1016"]
    assert layout and all(line == 3 and column == 2 for line, column, _ in layout)
    assert "Red's layout: the bomb on G0 is in the front row" in [m for _, _, m in layout]


def test_the_layout_rules() -> None:
    good = ac.layout_problems(["." * 5] * 6 + ac_rows("ibccidde" + "effgggh" + "hhaikjljkj"), 0, False)
    assert good == []
    bad_rows = ["." * 5] * 6 + ac_rows("kbccidde" + "effgggh" + "hhaiijljlj")  # bomb in front, flag off, mine moved
    said = [template.format(side="Red", **args) for template, args in ac.layout_problems(bad_rows, 0, False)]
    assert said == [
        "Red's layout: the bomb on G0 is in the front row",
        "Red's layout: 1 × 炸弹 where the rules give 2",
        "Red's layout: 2 × 军旗 where the rules give 1",
    ]
    moved = ["." * 5] * 6 + ac_rows("ibccidde" + "effgggh" + "jhaikhljkj")  # a mine in row K's first cell is fine ...
    assert ac.layout_problems(moved, 0, False) == []
    astray = ["." * 5] * 6 + ac_rows("ibccidde" + "jffgggh" + "hhaikeljkj")  # ... in row I it is not
    said = [template.format(side="Red", **args) for template, args in ac.layout_problems(astray, 0, False)]
    assert said == ["Red's layout: the mine on I0 is not in the last two rows"]
    off = ["." * 5] * 6 + ac_rows("ibccidde" + "effgggh" + "hhaikjjlkj")
    said = [template.format(side="Red", **args) for template, args in ac.layout_problems(off, 0, False)]
    assert said == ["Red's layout: the flag on L2 is not in a headquarters"]
    in_camp = ["." * 5] * 6 + ac_rows("ibccidde" + "effgggh" + "hhaikjljkj")
    in_camp[7] = "DE.." + in_camp[7][4]  # a piece moved into the camp at H1
    said = [template.format(side="Red", **args) for template, args in ac.layout_problems(in_camp, 0, False)]
    assert said[0] == "Red's layout: 团长 on H1: nothing may be laid out in a camp"


def ac_rows(bottom: str) -> list[str]:
    """The six bottom rows of the first player's layout as written (G0 … L4, camps left out)."""
    stations = [(r, c) for r in range(6, 12) for c in range(5) if f"{ROW_LETTERS[r]}{c}" not in SIMPLE_CAMPS]
    rows = [["."] * 5 for _ in range(6)]
    for (r, c), code in zip(stations, bottom, strict=True):
        rows[r - 6][c] = code.upper()
    return ["".join(r) for r in rows]


@pytest.mark.parametrize("seat", [0, 1])
def test_the_set_up_shows_own_pieces_and_the_opponents_face_down(seat: int) -> None:
    done = run({**BOTH_FLAGS, "K4": "H", "B4": "h"})
    view = ("first", "second")[seat]
    position = position_after(done.setup, [], view=view, setup_hidden=done.setup_hidden)
    mine, theirs = ("red", "black")[seat], ("red", "black")[1 - seat]
    assert {p.kind for p in position.pieces.values() if p.side == theirs} == {"hidden"}
    assert "hidden" not in {p.kind for p in position.pieces.values() if p.side == mine}
    referee = position_after(done.setup, [], setup_hidden=done.setup_hidden)
    assert "hidden" not in {p.kind for p in referee.pieces.values()}


def test_ranks_that_follow_from_the_outcomes_are_shown_as_deduced() -> None:
    kind_at = lambda position, cell: next(p.kind for p in position.pieces.values() if p.at == cell)  # noqa: E731
    # Red's commander dies on a black piece in the last two rows: only a mine beats a commander.
    board = {**BOTH_FLAGS, "C2": "A", "B2": "j", "K4": "H", "B4": "h", "F0": "i"}
    done = run(board, "A C2B2 0", "B F0G0 3", "A K4J4 3")
    views = {v: position_after(done.setup, done.plies, view=v, setup_hidden=done.setup_hidden) for v in SEATS_VIEWS}
    assert kind_at(views["first"], "B2") == "deduced-mine" and kind_at(views["referee"], "B2") == "mine"
    assert kind_at(views["second"], "B2") == "mine"  # black's own piece, face up
    # Black's piece ran the railway round a corner (F0 down column 0 to K0, then along row K to K1): an engineer.
    done = run(board, "A C2B2 0", "B F0K1 3")
    views = {v: position_after(done.setup, done.plies, view=v, setup_hidden=done.setup_hidden) for v in SEATS_VIEWS}
    assert kind_at(views["first"], "K1") == "deduced-engineer"
    # A plain step teaches nothing that names one rank.
    done = run(board, "A C2B2 0", "B F0E0 3")
    views = {v: position_after(done.setup, done.plies, view=v, setup_hidden=done.setup_hidden) for v in SEATS_VIEWS}
    assert kind_at(views["first"], "E0") == "hidden"


SEATS_VIEWS = ("referee", "first", "second")
