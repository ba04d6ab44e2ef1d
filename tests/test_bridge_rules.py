"""Bridge rules: scoring, IMPs, VPs, matchpoints, the board number, the auction, the play, and what a page shows."""

from __future__ import annotations

import pytest

from generator import games
from generator.model import Source
from generator.pipeline import Processed, process_games, sha256
from generator.render.viewer import STRINGS, viewer_parts
from generator.rules import bridge
from generator.rules.bridge import Contract, duplicate_score, imps, matchpoint_percentages, matchpoints, victory_points
from generator.scene import position_after

# The championship standard's own example (specs/002_…txt, 桥牌牌谱格式说明文档), played to trick 7 then claimed.
CCGC = """[Event "BoYiDaSai"]
[Site "chongqing"]
[Data "2017-11-17"]
[Board "1"]
[West "CQUT-WEST"]
[North "CQUT-NORTH"]
[East "CQUT-EAST"]
[South "CQUT-SOUTH"]
[Dealer "E"]
[Vulnerable "NS"]
[Deal "W:986.KQJ95.53.KQ6 T.A.KQ98.JT95432 KJ543.T876.AJ74. AQ72.432.T62.A87"]
[Scoring "IMP"]
[Declarer "N"]
[Contract "4C"]
[Result "9"]
[Score "NS -100"]
[Auction "E"]
Pass Pass 1H 2C
3S 3NT Pass 4C
Pass Pass Pass
[Play "E"]
H7 H2 HJ HA
S3 C7 CQ CJ
H6 H3 HK C4
H8 C8 CK C3
D4 CA C6 C5
D7 DT D5 DK
S4 S2 D3 CT
*
"""


def read(text: str) -> list[Processed]:
    data = text.encode("utf-8")
    return process_games(Source("BR-test.pbn", data, sha256(data)), encoding=None, options={})


def codes(done: Processed) -> list[str]:
    return [d.code for d in done.diagnostics]


# -- scoring -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "vul", "tricks", "score"),
    [
        (Contract(4, "S"), False, 10, 420),
        (Contract(4, "S"), True, 11, 650),
        (Contract(3, "N"), False, 9, 400),
        (Contract(1, "N"), False, 7, 90),
        (Contract(2, "C"), False, 8, 90),
        (Contract(5, "C", 1), False, 11, 550),  # PBN 2.1's own example: 5CX made, Score "NS +550"
        (Contract(6, "H"), True, 12, 1430),
        (Contract(7, "N", 2), True, 13, 2980),
        (Contract(2, "H", 1), False, 9, 570),  # doubled into game (120 + 300), insult 50, an overtrick 100
        (Contract(4, "C"), True, 9, -100),
        (Contract(3, "N", 1), False, 5, -800),  # down four doubled, not vulnerable: 100 200 200 300
        (Contract(3, "N", 1), True, 5, -1100),
        (Contract(6, "S", 2), True, 10, -1000),  # redoubled, vulnerable, down two: 2 * (200 + 300)
        (Contract(1, "C", 2), False, 7, 230),  # redoubled part score: 80, +50 part score, +100 insult
    ],
)
def test_duplicate_scoring(contract: Contract, vul: bool, tricks: int, score: int) -> None:
    assert duplicate_score(contract, vul, tricks) == score


def test_imps_follow_the_wbf_table() -> None:
    assert [imps(d) for d in (0, 10, 20, 40, 50, 420, 430, 620, 1430, 4000, 5000)] == [0, 0, 1, 1, 2, 9, 10, 12, 16, 24, 24]
    assert imps(-470) == -10


def test_wbf_continuous_victory_points() -> None:
    assert victory_points(0, 16) == (10.0, 10.0)
    assert victory_points(60, 16) == (20.0, 0.0)  # the blitz of 16 boards: 15 * 4
    high, low = victory_points(12, 16)
    assert 13 < high < 15 and high + low == 20
    assert victory_points(-12, 16) == (low, high)
    assert victory_points(1, 16)[0] == pytest.approx(10.31, abs=0.01)


def test_matchpoints_two_per_score_beaten_one_per_tie() -> None:
    assert matchpoints([420, 450, 420, -50]) == [3.0, 6.0, 3.0, 0.0]
    assert matchpoint_percentages([420, 450, 420, -50]) == [50.0, 100.0, 50.0, 0.0]


def test_dealer_and_vulnerability_of_the_board_number() -> None:
    assert [bridge.SEAT_LETTERS[bridge.board_dealer(b)] for b in (1, 2, 3, 4, 5, 16, 17)] == list("NESWNWN")
    assert [bridge.board_vulnerability(b) for b in (1, 2, 3, 4, 5, 8, 9, 13, 16, 17)] == [
        "None",
        "NS",
        "EW",
        "All",
        "NS",
        "None",
        "EW",
        "All",
        "EW",
        "None",
    ]


# -- the standard's example ------------------------------------------------------------------------


def test_the_standards_example_replays_and_its_claim_ends_the_play() -> None:
    (done,) = read(CCGC)
    replay = done.replay
    assert replay is not None and replay.decision is not None
    assert [p.label for p in replay.plies[:11]] == [
        "E Pass",
        "S Pass",
        "W 1♥",
        "N 2♣",
        "E 3♠",
        "S 3NT",
        "W Pass",
        "N 4♣",
        "E Pass",
        "S Pass",
        "W Pass",
    ]
    # Trick 2 is led by North, who won trick 1 with the ace: the columns are E S W N, the order N E S W.
    assert [p.label for p in replay.plies[15:19]] == ["N ♣J", "E ♠3", "S ♣7", "W ♣Q"]
    assert replay.decision.rule == "claim" and replay.decision.score == {bridge.NS: -100.0, bridge.EW: 100.0}
    assert done.result == "second+fourth" and done.meta.date == "2017-11-17"
    assert (done.meta.first, done.meta.second, done.meta.more) == ("CQUT-NORTH", "CQUT-EAST", ("CQUT-SOUTH", "CQUT-WEST"))
    assert "FMT-N1301" in codes(done)  # Data for Date
    assert not [d for d in done.diagnostics if d.severity == "error"]


def change(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


def test_a_wrong_score_says_what_duplicate_scoring_gives() -> None:
    (done,) = read(change(CCGC, '[Score "NS -100"]', '[Score "NS -50"]'))
    (message,) = [d.message for d in done.diagnostics if d.code == "RULE-E1317"]
    assert "-50" in message and "-100" in message and "4♣" in message


def test_a_wrong_contract_or_declarer_tag_is_an_error() -> None:
    (done,) = read(change(CCGC, '[Contract "4C"]', '[Contract "4CX"]'))
    assert "RULE-E1315" in codes(done)
    (done,) = read(change(CCGC, '[Declarer "N"]', '[Declarer "S"]'))
    assert any("makes N declarer" in d.message for d in done.diagnostics)


def test_an_impossible_claim_is_an_error() -> None:
    (done,) = read(change(CCGC, '[Result "9"]', '[Result "3"]'))  # declarer already has 4 of 7 tricks
    assert "RULE-E1318" in codes(done) and done.replay is not None and done.replay.decision is None


def test_an_insufficient_bid_stops_the_auction() -> None:
    (done,) = read(change(CCGC, "3S 3NT Pass 4C", "3S 3NT Pass 3C"))
    assert done.replay is not None and len(done.replay.plies) == 7
    (message,) = [d.message for d in done.diagnostics if d.code == "RULE-E1311"]
    assert "3♣ is not higher than 3NT" in message


def test_doubles_and_redoubles_only_where_allowed() -> None:
    (done,) = read(change(CCGC, "Pass Pass 1H 2C", "Pass Pass 1H XX"))
    assert any(d.code == "RULE-E1311" and "redouble" in d.message for d in done.diagnostics)
    (done,) = read(change(CCGC, "3S 3NT Pass 4C", "3S X Pass 4C"))  # South doubles East's 3S: legal
    assert not [d for d in done.diagnostics if d.code == "RULE-E1311"]
    (done,) = read(change(CCGC, "3S 3NT Pass 4C", "3S 3NT X 4C"))  # West doubles 3NT: legal
    assert not [d for d in done.diagnostics if d.code == "RULE-E1311"]


def test_a_revoke_and_a_card_not_held_are_errors() -> None:
    # Trick 2: East throws S3 on North's club lead holding no club: legal. South's C7 -> S2: a revoke.
    (done,) = read(change(CCGC, "S3 C7 CQ CJ", "S3 S2 CQ CJ"))
    (message,) = [d.message for d in done.diagnostics if d.code == "RULE-E1314"]
    assert "must follow suit" in message and "♣7" in message
    (done,) = read(change(CCGC, "H7 H2 HJ HA", "H7 H2 HJ HQ"))  # HQ is West's
    assert any(d.code == "RULE-E1313" and "W's" in d.message for d in done.diagnostics)


def test_four_passes_pass_the_board_out() -> None:
    text = CCGC.split("[Auction")[0].replace('[Contract "4C"]', '[Contract "Pass"]').replace('[Score "NS -100"]\n', "")
    text = text.replace('[Declarer "N"]\n', "").replace('[Result "9"]\n', "")
    (done,) = read(text + '[Auction "E"]\nPass Pass Pass Pass\n')
    assert done.replay is not None and done.replay.decision is not None
    assert done.replay.decision.rule == "passed-out" and done.result == "draw"


def test_dealer_and_vulnerability_come_from_the_board_number_when_absent() -> None:
    text = change(change(CCGC, '[Dealer "E"]\n', ""), '[Vulnerable "NS"]\n', "")
    (done,) = read(change(text, '[Board "1"]', '[Board "2"]'))  # board 2: East deals, North-South vulnerable
    assert done.replay is not None and done.replay.decision is not None
    assert done.replay.decision.score == {bridge.NS: -100.0, bridge.EW: 100.0}
    assert not [d for d in done.diagnostics if d.severity != "note"]


def test_a_bad_deal_is_reported_and_the_auction_still_replayed() -> None:
    (done,) = read(change(CCGC, "W:986.KQJ95", "W:AQ986.KQJ95"))
    assert "RULE-E1310" in codes(done)
    assert done.replay is not None and len(done.replay.plies) >= 11


# -- what the page shows ----------------------------------------------------------------------------


def test_the_viewer_plays_the_cards_out_of_the_hands_and_counts_tricks() -> None:
    (done,) = read(CCGC)
    replay = done.replay
    assert replay is not None
    start = position_after(replay.setup, [])
    assert sum(1 for p in start.pieces.values() if p.kind.startswith("h-")) == 52
    assert start.pieces["dealer"].at == "dealer-E" and start.pieces["seat-N"].kind == "seat-N-vul"
    after_trick_1 = position_after(replay.setup, replay.plies, 15)
    assert after_trick_1.pieces["HA"].at == "trick-N" and after_trick_1.pieces["HA"].kind == "c-HA"
    assert after_trick_1.counts == {"tricks.NS": 1, "tricks.EW": 0}
    end = position_after(replay.setup, replay.plies)
    assert sum(1 for p in end.pieces.values() if p.kind.startswith("h-")) == 52 - 28
    assert end.counts["tricks.NS"] + end.counts["tricks.EW"] == 7


def test_a_seat_sees_its_own_hand_and_dummy_after_the_lead() -> None:
    (done,) = read(CCGC)
    replay = done.replay
    assert replay is not None and replay.setup_hidden
    east = position_after(replay.setup, [], view="second", setup_hidden=replay.setup_hidden)
    faces = {p.kind[2:] for p in east.pieces.values() if p.kind.startswith("h-")}
    assert faces == {"SK", "SJ", "S5", "S4", "S3", "HT", "H8", "H7", "H6", "DA", "DJ", "D7", "D4"}
    # After the opening lead (ply 12) dummy (South, declarer North's partner) is face up for East too.
    led = position_after(replay.setup, replay.plies, 12, view="second", setup_hidden=replay.setup_hidden)
    seen = {p.kind[2:] for p in led.pieces.values() if p.kind.startswith("h-")}
    assert {"HT", "D2", "SA"} <= seen and not {"HK", "DK"} & seen  # own, dummy's; not West's nor declarer's
    referee = position_after(replay.setup, replay.plies, 12, setup_hidden=replay.setup_hidden)
    assert sum(1 for p in referee.pieces.values() if p.kind.startswith("h-")) == 51


def test_the_page_offers_the_four_seats_views() -> None:
    (done,) = read(CCGC)
    game = games.get("BR")
    assert game is not None and done.replay is not None
    names = tuple(side.name_en for side in game.seats)
    parts = viewer_parts(game, done.replay, strings=STRINGS["en"], label="board 1", side_names=names, entries=False)
    assert parts["views"] == ["referee", "first", "second", "third", "fourth"]
    assert "North's view" in parts["data"] and "West's view" in parts["data"]
    assert "q-bridge-" in parts["svg"] or "q-board-bridge" in parts["svg"]


def test_a_double_dummy_table_is_shown_only_when_the_record_carries_one() -> None:
    (done,) = read(CCGC)
    assert done.replay is not None and not [op for op in done.replay.setup if op[1].startswith("dd-")]
    text = change(CCGC, '[Scoring "IMP"]', '[Scoring "IMP"]\n[DoubleDummyTricks "63b3c63b3c492a0492a0"]')
    (done,) = read(text)
    assert done.replay is not None
    cells = {op[4]: op[2] for op in done.replay.setup if op[0] == "add" and op[1].startswith("dd-")}
    assert cells["dd-0-4"] == "dd-6"  # North in no trump: 6 tricks
    assert cells["dd-0-2"] == "dd-make-11"  # North in hearts: 11 ("b")


def test_a_claim_during_a_trick_ends_the_play() -> None:
    (done,) = read(change(CCGC, "S4 S2 D3 CT\n*", "S4 S2 D3 CT\n-  -  -  C9\n*"))  # North (the last column) leads C9, claims
    assert done.replay is not None and done.replay.decision is not None
    assert done.replay.decision.rule == "claim" and done.replay.plies[-1].label == "N ♣9"


def test_a_result_that_is_no_number_of_tricks_is_a_warning() -> None:
    (done,) = read(change(CCGC, '[Result "9"]', '[Result "nine"]'))
    assert any(d.code == "FMT-W1301" and "nine" in d.message for d in done.diagnostics)
    assert done.replay is not None and done.replay.decision is None  # no claim without its tricks


def test_hands_the_deal_does_not_give_are_played_unchecked() -> None:
    text = change(CCGC, "W:986.KQJ95.53.KQ6 T.A.KQ98.JT95432 KJ543.T876.AJ74. AQ72.432.T62.A87", "N:T.A.KQ98.JT95432 - - -")
    (done,) = read(text)
    assert "RULE-N1310" in codes(done)
    assert done.replay is not None and done.replay.decision is not None and done.replay.decision.rule == "claim"
    (done,) = read(change(text, "H7 H2 HJ HA", "H7 H2 CJ HA"))  # West plays North's CJ
    assert any(d.code == "RULE-E1313" and "N's" in d.message for d in done.diagnostics)
