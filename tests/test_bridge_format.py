"""Reading PBN as the standard describes it and as real writers write it; the corpus files, every board."""

from __future__ import annotations

from pathlib import Path

from generator.model import Source
from generator.pipeline import Processed, process_games, sha256
from generator.rules import bridge

TWO_BOARDS = """% PBN 2.1
% EXPORT
%BCOptions Center GutterH
[Event "##Club night"]
[Site "Chorzów"]
[Date "2013.08.07"]
[Board "1"]
[North "Ann"]
[East "Bob"]
[South "Cid"]
[West "Dan"]
[Room "Open"]
[Deal "N:AQ983.A973.K92.3 J7..AQJ863.KJ864 KT2.QT842.7.T952 654.KJ65.T54.AQ7"]
[Declarer "E"]
[Contract "5D"]
[Result "11"]
[Auction "N"]
1S 2NT =1= Pass 3C ; a comment to the end of the line
Pass 3D Pass 3H! {an alert, and
a comment across lines}
Pass 4D Pass 5D
AP
[Note "1:both minors"]
[Play "S"]
S2 S4 SA S7
SK S5 S3 SJ
ST S6 SQ D3
C5 CQ C3 C4
D7 DT D2 D6
H2 D4 D9 DJ
H4 D5 DK DA
C2 CA H3 C6
C9 C7 S9 CK
CT H5 H7 CJ
H8 H6 H9 C8
- - - -
- - - -

[Board "2"]
[Site "#"]
[North "Ann"]
[East "Bob"]
[South "Cid"]
[West "Dan"]
[Deal "E:K.KQ973.AT973.K2 QT965.AJT42..AQT 843.6.Q64.J98765 AJ72.85.KJ852.43"]
[Auction "E"]
1D 2D Pass 2S
Pass 3S Pass 4S
Pass Pass Pass
[Play "E"]
DA S5 D6 QQ
"""


def read(text: str, encoding: str | None = None, name: str = "BR-two.pbn") -> list[Processed]:
    data = text.encode(encoding or "utf-8")
    return process_games(Source(name, data, sha256(data)), encoding=encoding, options={})


def test_two_boards_with_notes_alerts_comments_and_inherited_tags() -> None:
    first, second = read(TWO_BOARDS)
    assert (first.game, second.game) == (1, 2)
    assert first.record is not None and second.record is not None
    assert first.record.tags["Board"] == "1" and first.record.tags["Room"] == "Open"
    # "##Club night" holds for the boards after it; "#" copies the board before.
    assert second.meta.event == "Club night" and second.meta.place == "Chorzów"
    assert first.meta.date == "2013-08-07"
    moves = first.record.moves
    assert moves[1].text == "E 2NT" and moves[1].comment == "both minors"
    assert moves[3].comment == "a comment to the end of the line"
    assert moves[7].text == "W 3♥!" and moves[7].parts == (("call", "3H", True),)
    assert moves[7].comment == "an alert, and\na comment across lines"
    assert [m.text for m in moves[8:15]] == ["N Pass", "E 4♦", "S Pass", "W 5♦", "N Pass", "E Pass", "S Pass"]  # AP: all pass
    replay = first.replay
    assert replay is not None and replay.decision is not None and replay.decision.rule == "claim"
    assert replay.decision.score == {bridge.NS: -400.0, bridge.EW: 400.0}
    assert first.score == {bridge.NS: -400.0, bridge.EW: 400.0}


def test_a_team_match_names_its_teams_at_each_room_even_where_the_players_are_named() -> None:
    # Vugraph habit: the home team sits North-South in the open room and East-West in the closed.
    open_room = TWO_BOARDS.replace('[Room "Open"]', '[Room "Open"]\n[HomeTeam "Lions"]\n[VisitTeam "Tigers"]')
    closed_room = open_room.replace('[Room "Open"]', '[Room "Closed"]')
    (first, *_), (second, *_) = read(open_room), read(closed_room)
    assert first.meta.players == ("Lions", "Tigers", "Lions", "Tigers") and first.meta.room == "Open"
    assert second.meta.players == ("Tigers", "Lions", "Tigers", "Lions") and second.meta.room == "Closed"
    # Without a room to tell the tables apart, the players named at the seats.
    assert read(open_room.replace('[Room "Open"]\n', ""))[0].meta.players == ("Ann", "Bob", "Cid", "Dan")


def test_an_error_in_one_board_leaves_the_others() -> None:
    first, second = read(TWO_BOARDS)
    assert not [d for d in first.diagnostics if d.severity == "error"]
    (bad,) = [d for d in second.diagnostics if d.code == "FMT-E1303"]
    assert (bad.line, bad.column) == (51, 10) and "QQ" in bad.message
    assert second.replay is not None and len(second.replay.plies) == 14 and len(second.replay.not_replayed) == 1


def test_a_board_with_a_deal_only_gives_its_page_and_a_note() -> None:
    text = '[Board "5"]\n[Deal "N:AKJ92.95.Q932.76 75.KQT.J8654.KQ3 643.73.K7.AJ9854 QT8.AJ8642.AT.T2"]\n'
    (done,) = read(text)
    assert done.replay is not None and done.replay.plies == []
    assert "FMT-N1302" in [d.code for d in done.diagnostics]
    assert sum(1 for op in done.replay.setup if op[2].startswith("h-")) == 52
    # Board 5: North deals, North-South vulnerable.
    kinds = {op[1]: op[2] for op in done.replay.setup}
    assert kinds["seat-N"] == "seat-N-vul" and kinds["seat-E"] == "seat-E"
    assert [op[4] for op in done.replay.setup if op[1] == "dealer"] == ["dealer-N"]


def test_a_tag_that_cannot_be_read_and_a_card_after_the_end_mark() -> None:
    text = (
        '[Board "1"]\n[Deal "N:AKJ92.95.Q932.76 75.KQT.J8654.KQ3 643.73.K7.AJ9854 QT8.AJ8642.AT.T2"]\n'
        '[Oops "unclosed]\n[Auction "N"]\n1S Pass + Pass\n'
    )
    (done,) = read(text)
    found = {(d.code, d.line) for d in done.diagnostics}
    assert ("FMT-E1301", 3) in found and ("FMT-E1305", 5) in found


# -- the real files ---------------------------------------------------------------------------------

# The corpus files' encodings, as an organiser sets them in site.toml ([encodings]).
ENCODINGS = {"BR_02": "cp1250", "BR_03": "latin-1", "BR_07": "cp1250"}


def boards_of(corpus: Path, name: str) -> list[Processed]:
    data = (corpus / "BR" / name).read_bytes()
    encoding = ENCODINGS.get(name[:5])
    return process_games(Source(f"BR/{name}", data, sha256(data)), encoding=encoding, options={})


def test_every_board_of_the_corpus_gives_a_page_or_says_why(corpus: Path) -> None:
    names = sorted(p.name for p in (corpus / "BR").iterdir())
    assert len(names) == 7
    counts = {}
    for name in names:
        text = (corpus / "BR" / name).read_bytes().decode(ENCODINGS.get(name[:5], "ascii"))
        done = boards_of(corpus, name)
        counts[name[:5]] = len(done)
        for board in done:
            assert board.code == "BR" and board.record is not None and board.replay is not None, name
            replay = board.replay
            assert len(replay.plies) + len(replay.not_replayed) == len(board.record.moves)
            for d in board.diagnostics:
                assert d.line >= 1 and d.column >= 1 and d.message, (name, d)
            if "Deal" in board.record.tags:  # every dealt board draws its 52 cards, or says why not
                drawn = sum(1 for op in replay.setup if op[0] == "add" and op[2].startswith("h-"))
                assert drawn == 52 or [d for d in board.diagnostics if d.code in ("FMT-E1304", "RULE-E1310")], (name, board.game)
        deals = text.count("[Deal ")
        assert sum(1 for b in done if "Deal" in b.record.tags) == deals, name  # type: ignore[union-attr]
    assert counts == {"BR_01": 2, "BR_02": 108, "BR_03": 2, "BR_04": 22, "BR_05": 3, "BR_06": 32, "BR_07": 15}


def test_the_bbo_boards_replay_to_their_results(corpus: Path) -> None:
    first, second = boards_of(corpus, "BR_01_bbo_history_auction_play.pbn")
    assert first.meta.time == "14:12" and first.meta.players == ("jaak99", "myriam1745", "jdr9999", "sisse1745")
    assert first.replay is not None and first.replay.decision is not None
    assert first.replay.decision.rule == "claim" and first.result == "second+fourth"  # 5D by E, 11 tricks, two unplayed
    assert first.record is not None and first.record.moves[1].comment == "gesthem"
    assert second.replay is not None and second.replay.decision is not None and second.replay.decision.rule == "tricks"
    assert second.score == {bridge.NS: 650.0, bridge.EW: -650.0}  # 4S by N, vulnerable, 11 tricks
    assert not [d for b in (first, second) for d in b.diagnostics if d.severity == "error"]


def test_the_club_tournament_scores_every_table(corpus: Path) -> None:
    boards = boards_of(corpus, "BR_02_polish_club_tournament_20130807.pbn")
    assert all(b.score is not None for b in boards)
    assert boards[0].meta.event == "Turniej MONIKA Chorzów, 7.08.2013 r."  # Windows-1250, as site.toml says
    # Board 1, the first table: 4NT by West, 11 tricks, none vulnerable: East-West +460.
    assert boards[0].score == {bridge.NS: -460.0, bridge.EW: 460.0}
    assert not [d for b in boards for d in b.diagnostics if d.severity == "error"]


def test_the_pbn_reference_files(corpus: Path) -> None:
    deal_only, played = boards_of(corpus, "BR_03_pbn21_reference_correct.pbn")
    assert played.replay is not None and played.replay.decision is not None
    assert played.score == {bridge.NS: 550.0, bridge.EW: -550.0}  # [Result "NS 11"], [Score "NS +550"]
    assert not [d for d in played.diagnostics if d.severity == "error"]
    assert deal_only.replay is not None and any(op[1] == "dd-0-0" for op in deal_only.replay.setup)
    errors = boards_of(corpus, "BR_04_pbn20_reference_errors.pbn")
    by_game = {b.game: {d.code for d in b.diagnostics} for b in errors}
    assert "FMT-E1305" in by_game[7] and "FMT-E1305" in by_game[8]  # "+ +" and a card after "+"
    assert all("FMT-E1305" in by_game[g] for g in (9, 10, 11))  # a call after "+"
    assert "FMT-E1301" in by_game[12] and "FMT-E1301" in by_game[13]


def test_dealer_programs_and_bridgecomposer(corpus: Path) -> None:
    for name, first_board in (
        ("BR_05_three_records_crlf.pbn", "1"),
        ("BR_06_psbridge_dealer_output.pbn", "1"),
        ("BR_07_bridgecomposer.pbn", "16"),
    ):
        boards = boards_of(corpus, name)
        assert boards[0].record is not None and boards[0].record.tags["Board"] == first_board
        assert all("FMT-N1302" in {d.code for d in b.diagnostics} for b in boards), name
    composer = boards_of(corpus, "BR_07_bridgecomposer.pbn")
    assert composer[0].replay is not None and any(op[1].startswith("dd-") for op in composer[0].replay.setup)
