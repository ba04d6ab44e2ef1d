"""Heads-up no-limit hold'em (THP): the ACPC STATE lines read, every hand replayed, drawn, the match checked.

The standard's own example (specs/002_…txt) is the first test: two straights
to the nine, a split pot, 0|0.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from generator import games, scene
from generator.formats import acpc
from generator.model import Source, Text
from generator.pipeline import Processed, process_games
from generator.render.strings import strings
from generator.render.viewer import viewer_context
from generator.rules import holdem

THP = games.get("THP")
EXAMPLE = "STATE:7:r223c/cr646r1170c/cc/cr2340r7898c:6cQh|Ah6s/7h9d5h/8d/As:0|0:A|B;"
CLOSING = "{[THP][参赛队 A][参赛队 B][参赛队 A 赢得 1000 个筹码][2017.07.29 14:00 重庆][2017 CCGC]}"
CORPUS = Path(__file__).resolve().parents[1] / ".." / "shared" / "corpus" / "THP"
NAME = "2025-thp/THP-红队 vs 蓝队-202511251400-测试赛.txt"


def read(text: str) -> list:
    assert THP is not None
    return acpc.parse_games(Text("t.txt", text, "utf-8"), THP)


def process(text: str, name: str = NAME, options: dict | None = None) -> list[Processed]:
    data = text.encode("utf-8")
    return process_games(Source(name, data, hashlib.sha256(data).hexdigest()), encoding=None,
                         options={"THP": options} if options else {})


def hand(betting: str, cards: str = "6cQh|Ah6s/7h9d5h/8d/As", chips: str = "0|0", number: int = 0) -> Processed:
    """One hand of 红队 (big blind) against 蓝队, processed alone."""
    return process(f"STATE:{number}:{betting}:{cards}:{chips}:红队|蓝队\n")[0]


def codes(game: Processed) -> list[str]:
    return [d.code for d in game.diagnostics]


def score(game: Processed) -> tuple[float, float] | None:
    decision = game.replay.decision if game.replay else None
    return (decision.score["first"], decision.score["second"]) if decision and decision.score else None


# -- reading ---------------------------------------------------------------------------


def test_the_standards_example_reads_into_actions_and_deals() -> None:
    (record,) = read(EXAMPLE)
    assert (record.header.first, record.header.second) == ("A", "B")  # the big blind first
    assert record.header.score == {"first": 0.0, "second": 0.0} and record.header.result == "draw"
    assert record.setup == ["6cQh", "Ah6s", "7h9d5h8dAs"]
    assert [m.text for m in record.moves] == [
        "6cQh|Ah6s", "r223", "c", "/7h9d5h", "c", "r646", "r1170", "c", "/8d", "c", "c", "/As", "c", "r2340", "r7898", "c",
    ]
    assert record.moves[0].parts == ("hole", "6cQh", "Ah6s") and record.moves[0].column == len("STATE:7:r223c/cr646r1170c/cc/cr2340r7898c:") + 1
    assert record.moves[1].parts == ("r", 223) and record.moves[3].parts == ("deal", 1, "7h", "9d", "5h")
    assert record.moves[1].column == len("STATE:7:") + 1
    assert not [d for d in record.diagnostics if d.code != "FMT-W1204"]


def test_a_match_file_gives_one_record_per_hand_with_the_closing_lines_facts() -> None:
    text = "\n".join([
        "STATE:1:r300c/cr600f:9s8h|KcQd/5h6d2c:-300|300:红队|蓝队;",
        "STATE:2:f:Ah8s|2h4c:50|-50:蓝队|红队;",
        "{[THP][红队][蓝队][蓝队 赢得 350 个筹码][2025.11.25 14:00 重庆][2025 CCGC]}",
    ])
    records = read(text)
    assert [r.game for r in records] == [1, 2] and [r.line for r in records] == [1, 2]
    assert [(r.header.first, r.header.second) for r in records] == [("红队", "蓝队"), ("蓝队", "红队")]
    assert [r.header.score for r in records] == [{"first": -300, "second": 300}, {"first": 50, "second": -50}]
    for record in records:  # the closing line's time is the match's, not a hand's
        assert (record.header.date, record.header.time, record.header.place) == ("2025-11-25", None, "重庆")
        assert record.header.event == "2025 CCGC"
    assert not [d for r in records for d in r.diagnostics]


def test_a_closing_total_that_is_not_the_sum_of_the_hands_is_an_error_at_its_line() -> None:
    text = "STATE:1:r300c/cr600f:9s8h|KcQd/5h6d2c:-300|300:红队|蓝队\n{[THP][红队][蓝队][红队 赢得 300 个筹码][2025.11.25 14:00 重庆][赛]}\n"
    (record,) = read(text)
    (wrong,) = [d for d in record.diagnostics if d.code == "FMT-E1206"]
    assert wrong.line == 2 and "红队" in wrong.message and "-300" in wrong.message


def test_the_standards_generic_names_are_matched_to_the_closing_lines_teams() -> None:
    records = read(EXAMPLE + "\n" + EXAMPLE.replace("STATE:7", "STATE:8").replace("A|B", "B|A") + "\n" + CLOSING)
    assert [(r.header.first, r.header.second) for r in records] == [("参赛队 A", "参赛队 B"), ("参赛队 B", "参赛队 A")]
    (mapped,) = [d for d in records[0].diagnostics if d.code == "FMT-N1202"]
    assert "A = 参赛队 A" in mapped.message
    # 0 + 0 chips, but the closing line says 参赛队 A won 1000.
    assert "FMT-E1206" in [d.code for d in records[0].diagnostics]


def test_a_bad_card_and_a_bad_action_are_errors_at_their_columns_and_the_hand_stops_there() -> None:
    (record,) = read("STATE:0:r300c/cX:9s8h|KcQd/5h6d2z:-300|300:A|B")
    (card,) = [d for d in record.diagnostics if "2z" in d.message]
    assert card.code == "FMT-E1203" and card.column == len("STATE:0:r300c/cX:9s8h|KcQd/5h6d") + 1
    # The flop's cards could not be read: the deal is a move that cannot be read, and nothing after it is made up.
    assert [m.text for m in record.moves] == ["9s8h|KcQd", "r300", "c", "/"]
    (bad,) = read("STATE:0:r300x/cc:9s8h|KcQd/5h6d2c:-300|300:A|B")
    (action,) = [d for d in bad.diagnostics if d.code == "FMT-E1202"]
    assert action.column == len("STATE:0:r300") + 1
    game = process("STATE:0:r300x/cc:9s8h|KcQd/5h6d2c:-300|300:红队|蓝队\n")[0]
    assert "RULE-N001" in codes(game) and len(game.replay.plies) == 2 and game.replay.decision is None


def test_odd_lines_numbers_and_chips_are_said_and_read_on() -> None:
    text = "\ufeffSTATE：3：f:Ah8s|2h4c:50|-40:A|B\nSTATE:5:f:Ah8s|2h4c:-50|50:B|A\nhello\n"
    records = read(text)
    assert len(records) == 2
    found = {d.code: d for r in records for d in r.diagnostics}
    assert found["FMT-N1203"].line == 1  # the full-width colons
    assert found["FMT-W1201"].line == 1  # 50 and -40 do not add up to zero
    assert found["FMT-W1202"].line == 2  # hand 5 after hand 3
    assert found["FMT-N1201"].line == 3  # a line kept as a comment
    assert records[0].header.score == {"first": 50, "second": -40}


def test_a_closing_line_in_english_and_a_draw() -> None:
    records = read("STATE:0:f:Ah8s|2h4c:50|-50:X|Y\n{[THP][X][Y][Y loses 50 chips][2025.11.25 北京][E]}\n")
    assert not [d for d in records[0].diagnostics if d.severity == "error"]
    records = read("STATE:0:f:Ah8s|2h4c:50|-50:X|Y\n{[THP][X][Y][平局][2025.11.25 北京][E]}\n")
    assert "FMT-E1206" in [d.code for d in records[0].diagnostics]
    records = read("STATE:0:f:Ah8s|2h4c:50|-50:X|Y\n{[THP][X][Y][Z 赢得 5 个筹码][2025.11.25 北京][E]}\n")
    assert "FMT-E1207" in [d.code for d in records[0].diagnostics]
    # The winner alone: checked against the sign of the sum.
    records = read("STATE:0:f:Ah8s|2h4c:50|-50:X|Y\n{[THP][X][Y][X胜][2025.11.25 北京][E]}\n")
    assert not [d for d in records[0].diagnostics if d.severity == "error"]
    records = read("STATE:0:f:Ah8s|2h4c:50|-50:X|Y\n{[THP][X][Y][Y 获胜][2025.11.25 北京][E]}\n")
    (wrong,) = [d for d in records[0].diagnostics if d.code == "FMT-E1206"]
    assert "Y won the match" in wrong.message and "-50" in wrong.message


def test_a_dealer_comment_naming_a_limit_game_and_one_naming_no_limit() -> None:
    line = "STATE:0:cc/cc/cc/cc:5d5c|9hQd/8dAs8s/4h/6d:20|-20:p1|p2"
    limit = read("# game holdem.limit.2p.reverse_blinds.game\n" + line)
    assert [d.code for d in limit[0].diagnostics if d.severity == "error"] == ["FMT-E1205"] and limit[0].moves == []
    for comment in ("# game holdem.nolimit.2p.reverse_blinds.game", "# heads-up No-Limit hold'em", "# no limit"):
        (record,) = read(comment + "\n" + line)
        assert not [d for d in record.diagnostics if d.severity == "error"], comment
        assert len(record.moves) == 12


def test_sniff_knows_a_dealer_log_and_a_closing_line_and_nothing_else() -> None:
    assert acpc.sniff("# name/game\nSTATE:0:f:Ah8s|2h4c:50|-50:p1|p2\n") == "THP"
    assert acpc.sniff("\n" * 3 + CLOSING) == "THP"
    assert acpc.sniff("{[C5][a][b][先手胜][2025.1.1 北京][x]}") is None
    assert acpc.sniff("#[AM][a][b][先手胜][2018/8/3 10:00:00 合肥][国赛];") is None


# -- the rules -------------------------------------------------------------------------


def test_the_standards_example_is_a_split_pot_of_two_straights() -> None:
    game = process(EXAMPLE + "\n")[0]
    assert not [c for c in codes(game) if c.startswith(("RULE", "RES"))]
    assert game.replay.decision.rule == "showdown" and score(game) == (0.0, 0.0) and game.result == "draw"
    assert holdem.category_name(holdem.best_hand(("6c", "Qh", "7h", "9d", "5h", "8d", "As"))) == "straight"


@pytest.mark.parametrize(
    ("cards", "category"),
    [
        (("As", "2d", "3c", "4h", "5s", "Kd", "Kc"), "straight"),  # the wheel beats a pair of kings
        (("Ah", "2h", "9h", "4h", "5h", "3s", "6d"), "flush"),
        (("9h", "9d", "9c", "4h", "4s", "4d", "Ac"), "full house"),
        (("9h", "Th", "Jh", "Qh", "Kh", "Ah", "2c"), "straight flush"),
        (("9h", "9d", "9c", "9s", "4s", "4d", "4c"), "four of a kind"),
        (("9h", "9d", "Tc", "Ts", "4s", "4d", "Ac"), "two pair"),
    ],
)
def test_hand_categories(cards: tuple[str, ...], category: str) -> None:
    assert holdem.category_name(holdem.best_hand(cards)) == category


def test_hand_order_and_kickers() -> None:
    best = holdem.best_hand
    board = ("Kd", "Kc", "9s", "8h", "7c")
    assert best(("As", "Qd", *board)) > best(("Ah", "Jd", *board))  # the queen kicker plays
    assert best(("As", "3d", *board)) == best(("Ac", "5d", *board))  # neither low card plays: a split
    assert best(("5s", "3d", "As", "2d", "4c", "Kc", "Kd")) < best(("6s", "3d", "2s", "4c", "5d", "Kc", "Kd"))  # 6-high straight beats the wheel
    assert best(("9h", "9d", "9c", "4h", "4s", "Ac", "Ad")) > best(("8h", "8d", "8c", "Ah", "As", "Kc", "Kd"))


def test_a_fold_gives_the_folders_chips_to_the_other() -> None:
    # The small blind raises to 300, the big blind folds and loses its 100.
    game = hand("r300f", cards="9s8h|KcQd", chips="-100|100")
    assert score(game) == (-100.0, 100.0) and game.replay.decision.rule == "fold" and game.result == "second"
    game = hand("r300c/r500r1500f", cards="9s8h|KcQd/5h6d2c", chips="-500|500")
    assert score(game) == (-500.0, 500.0)


@pytest.mark.parametrize(
    ("betting", "why"),
    [
        ("r150", "smallest raise here is to 200"),  # pre-flop: the big blind raised by the big blind
        ("cc/r150", "smallest raise here is to 200"),  # the first bet after the flop: the big blind at least
        ("r300r400", "smallest raise here is to 500"),  # a re-raise of at least the last raise (200)
        ("r300c/r1000r1500", "smallest raise here is to 1700"),  # the street's last raise was 700
        ("r20001", "more than the stack"),
        ("r20000r20000", "all in"),
        ("r90", "not above the 100"),
    ],
)
def test_raises_follow_the_acpc_minimum_and_the_stack(betting: str, why: str) -> None:
    game = hand(betting, cards="9s8h|KcQd/5h6d2c/7c/8c")
    (error,) = [d for d in game.diagnostics if d.code == "RULE-E1210"]
    assert why in error.message
    assert error.column == len("STATE:0:") + 1 + betting.rindex("r")


def test_an_all_in_for_less_than_a_full_raise_is_allowed() -> None:
    # The big blind's 9-8 makes a straight to the nine.
    game = hand("r19000r20000c///", cards="9s8h|KcQd/5h6d2c/7c/8c", chips="20000|-20000")
    assert not [c for c in codes(game) if c.startswith("RULE")]
    assert game.replay.decision.rule == "showdown" and score(game) == (20000.0, -20000.0)


def test_the_blinds_and_stacks_an_event_sets() -> None:
    game = process("STATE:0:r300f:9s8h|KcQd:-200|200:红队|蓝队\n", options={"stack": 1000, "big_blind": 200, "small_blind": 100})[0]
    assert "RULE-E1210" in codes(game)  # 300 is below 400, the smallest raise with a big blind of 200
    game = process("STATE:0:r1000c///:9s8h|KcQd/5h6d2c/7c/8c:1000|-1000:红队|蓝队\n", options={"stack": 1000, "big_blind": 200, "small_blind": 100})[0]
    assert score(game) == (1000.0, -1000.0) and not [c for c in codes(game) if c.startswith("RULE")]


def test_a_fold_with_nothing_owed_and_actions_outside_their_street() -> None:
    assert "RULE-E1211" in codes(hand("cc/f", cards="9s8h|KcQd/5h6d2c"))
    early = hand("r300/cc", cards="9s8h|KcQd/5h6d2c")  # the big blind has not answered the raise
    (error,) = [d for d in early.diagnostics if d.code == "RULE-E1212"]
    assert "still has to act" in error.message and error.column == len("STATE:0:r300") + 1
    late = hand("r300cc/cc", cards="9s8h|KcQd/5h6d2c")  # the call closed the pre-flop: a / is missing
    (error,) = [d for d in late.diagnostics if d.code == "RULE-E1212"]
    assert "/ must come" in error.message and error.column == len("STATE:0:r300c") + 1


def test_a_card_twice_and_chips_that_do_not_follow() -> None:
    assert "RULE-E1213" in codes(hand("f", cards="9s8h|9sQd"))
    game = hand("r300f", cards="9s8h|KcQd", chips="100|-100")
    assert "RULE-E1214" in codes(game) and "RES-E001" in codes(game)
    assert score(game) == (-100.0, 100.0) and game.score == {"first": -100.0, "second": 100.0}  # the counted chips count
    game = hand("r300f", cards="9s8h|KcQd", chips="-300|300")  # the right winner, the wrong chips
    assert "RULE-E1214" in codes(game) and "RES-E001" not in codes(game)


def test_a_hand_that_stops_early_keeps_its_declared_chips() -> None:
    game = hand("r300c/c", cards="9s8h|KcQd/5h6d2c", chips="-300|300")
    assert "RULE-W1211" in codes(game) and game.replay.decision is None
    assert game.score == {"first": -300.0, "second": 300.0} and game.result == "second"


def test_a_showdown_without_the_cards_keeps_the_declared_chips() -> None:
    # A player's own log: the other's hole cards are not written.
    game = hand("cc/cc/cc/cc", cards="|KcQd/5h6d2c/7c/8c", chips="-100|100")
    assert [c for c in codes(game) if c.startswith("RULE")] == ["RULE-W1210"]
    assert game.replay.decision is None and game.result == "second" and game.score == {"first": -100.0, "second": 100.0}


def test_board_cards_of_streets_not_played_are_a_note() -> None:
    game = hand("f", cards="9s8h|KcQd/5h6d2c/7c/8c", chips="50|-50")
    assert "RULE-N1210" in codes(game) and score(game) == (50.0, -50.0)
    assert not [c for c in codes(game) if c.startswith(("RULE-E", "RES"))]


# -- the table and its views ---------------------------------------------------------------


def _kinds(game: Processed, view: str, count: int | None = None) -> dict[str, str]:
    position = scene.position_after(game.replay.setup, game.replay.plies, count, view)
    return {piece.at: piece.kind for piece in position.pieces.values()}


def _number(kinds: dict[str, str], key: str) -> int:
    digits = sorted((cell, kind) for cell, kind in kinds.items() if cell.startswith(key + "-") and kind.startswith("digit-"))
    assert (kinds.get(f"{key}-chip") == "chip") == bool(digits)  # a chip lies beside every number shown
    return int("".join(kind[-1] for _, kind in digits) or 0)


def test_each_seat_sees_its_own_cards_until_the_showdown() -> None:
    game = process(EXAMPLE.replace("A|B", "红队|蓝队") + "\n")[0]
    start = _kinds(game, "referee", 0)  # the blinds are in, no card is dealt
    assert "first-1" not in start and _number(start, "bet-first") == 100 and _number(start, "bet-second") == 50
    after_one = {view: _kinds(game, view, 1) for view in ("referee", "first", "second")}
    assert [after_one["referee"][c] for c in ("first-1", "second-1")] == ["6c", "Ah"]
    assert (after_one["first"]["first-1"], after_one["first"]["second-1"]) == ("6c", "hidden")
    assert (after_one["second"]["first-1"], after_one["second"]["second-1"]) == ("hidden", "Ah")
    # The board card by card: the flop after the pre-flop call, then the turn.
    assert game.replay.plies[0].visible_to == ()  # the deal's label names the cards: the referee's only
    flop = _kinds(game, "first", 4)
    assert [flop.get(f"board-{i}") for i in range(1, 6)] == ["7h", "9d", "5h", None, None]
    assert _number(flop, "pot") == 446 and _number(flop, "stack-first") == 20000 - 223
    # Shown down: both hands face up in every view, and the pot split back.
    end = _kinds(game, "second")
    assert (end["first-1"], end["first-2"]) == ("6c", "Qh")
    assert _number(end, "stack-first") == 20000 and _number(end, "pot") == 0


def test_a_fold_keeps_the_folded_cards_hidden_from_the_other_seat() -> None:
    game = hand("r300f", cards="9s8h|KcQd", chips="-100|100")
    first = _kinds(game, "first")
    assert (first["first-1"], first["second-1"]) == ("9s", "hidden")
    assert _kinds(game, "referee")["second-1"] == "Kc"
    assert _number(first, "stack-first") == 19900 and _number(first, "stack-second") == 20100
    bets = _kinds(game, "referee", 2)
    assert _number(bets, "bet-second") == 300 and _number(bets, "bet-first") == 100


def test_the_page_offers_the_referees_and_each_seats_view_and_draws_every_card() -> None:
    game = process(EXAMPLE.replace("A|B", "红队|蓝队") + "\n")[0]
    assert THP is not None
    context = viewer_context(THP, game.replay, strings=strings("en"), label="hand 7")
    assert context["views"] == ["referee", "first", "second"]
    svg = context["svg"]
    for card in ("6c", "Qh", "Ah", "6s", "7h", "9d", "5h", "8d", "As"):
        assert f'href="#q-hold-card-{card}"' in svg
    assert svg.count("<use") >= 9 and "q-board-holdem" in svg
    # Labels: the actions in players' words (a c is a call facing a bet, else a check), the deals as
    # their cards; the ACPC text on hover.
    labels = [p.label for p in game.replay.plies]
    assert labels[:5] == ["6♣ Q♥ | A♥ 6♠", "raise to 223", "call", "7♥ 9♦ 5♥", "check"]
    assert [p.alt for p in game.replay.plies[1:3]] == ["r223", "c"]


# -- the real files of the corpus --------------------------------------------------------------


def _corpus(name: str) -> list[Processed]:
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"the real-file corpus is not there: {path}")
    data = path.read_bytes()
    return process_games(Source(f"corpus/{name}", data, hashlib.sha256(data).hexdigest()), encoding=None, options={})


def test_the_acpc_no_limit_log_replays_every_hand_to_its_declared_chips() -> None:
    found = _corpus("THP_01_acpc_2p_nolimit_1000hands.log")
    assert len(found) == 1000
    assert [c for g in found for c in codes(g)] == ["FMT-W1204"]  # no closing line: the dealer writes SCORE instead
    assert all(score(g) == (g.meta.score["first"], g.meta.score["second"]) for g in found)
    # The dealer's SCORE:-64658|64658:p1|p2 is the sum of the hands.
    won = {"p1": 0.0, "p2": 0.0}
    for g in found:
        first, second = score(g)
        won[g.meta.first] += first
        won[g.meta.second] += second
    assert won == {"p1": -64658.0, "p2": 64658.0}
    assert {g.replay.decision.rule for g in found} == {"fold", "showdown"}


@pytest.mark.parametrize(
    ("name", "code", "line", "players"),
    [("THP_02_acpc_2p_limit_1000hands.log", "FMT-E1205", 1, 2), ("THP_03_acpc_3p_limit_1000hands.log", "FMT-E1204", 5, 3)],
)
def test_the_limit_and_three_player_logs_are_read_and_said_not_replayed(name: str, code: str, line: int, players: int) -> None:
    found = _corpus(name)
    assert len(found) == 1000
    (said,) = [d for g in found for d in g.diagnostics if d.severity == "error"]
    assert said.code == code and said.line == line and said.column >= 1
    assert all(g.replay is not None and not g.replay.plies for g in found)
    assert all(len(g.meta.score) == players and sum(g.meta.score.values()) == 0 for g in found)
    assert len(found[0].players) == players
