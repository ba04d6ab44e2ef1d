"""Dou Dizhu (P2T1) rules: dealing, bidding, the bottom cards, plays, the end and the score.

Each test writes a deal as a referee's record (``DA``-``DC``, bids, ``LA``-``LC``,
plays, ``OVER``) and runs it through the pipeline, as the build does.
The hands are chosen card by card where the test needs them and filled up
from the rest of the pack otherwise (seeded).
"""

from __future__ import annotations

import random

import pytest

from generator import games, scene
from generator.model import Source
from generator.pipeline import Processed, process_games, sha256
from generator.rules import doudizhu as dd

P2T1 = games.GAMES["P2T1"]
LETTERS = "ABC"
NAME = "P2T1-甲队 vs 乙队 vs 丙队-2025.12.20 09:00 北京-测试.txt"


def cards(text: str) -> list[int]:
    """Card numbers of names as the deck writes them: ``"3♠ 10♥ BJ"``."""
    return [dd.DECK.index(name) for name in text.split()]


def listed(text: str) -> str:
    return ",".join(map(str, cards(text)))


def deal(landlord: str = "A", seed: int = 1, **fixed: str) -> tuple[dict[str, list[int]], list[int]]:
    """17 cards for each seat and the three bottom cards, with the cards ``fixed`` names per seat (A="3♠ 4♠").

    The landlord's fixed cards may be up to 20: the last three of its
    twenty are the bottom cards.
    """
    rng = random.Random(seed)
    chosen = {letter: cards(fixed.get(letter, "")) for letter in LETTERS}
    rest = sorted(set(range(54)) - {c for cs in chosen.values() for c in cs})
    rng.shuffle(rest)
    for letter in LETTERS:
        want = 20 if letter == landlord else 17
        while len(chosen[letter]) < want:
            chosen[letter].append(rest.pop())
    bottom = chosen[landlord][17:]
    chosen[landlord] = chosen[landlord][:17]
    return chosen, bottom


def record(hands: dict[str, list[int]], lines: list[str], ms: int = 3150, over: str | None = None) -> str:
    head = ["(", ";VER[1.0]PA[甲队]PB[乙队]PC[丙队]", f";TI[1]TC[4]RI[1]RC[9]UC[9]MS[{ms}]"]
    head += [f";D{letter}[{','.join(map(str, hands[letter]))}]" for letter in LETTERS]
    tail = [f";OVER[{over}]"] if over else []
    return "\n".join([*head, *(";" + line for line in lines), *tail, ")"]) + "\n"


def run(text: str, name: str = NAME) -> Processed:
    data = text.encode("utf-8")
    [done] = process_games(Source(name, data, sha256(data)), encoding=None, options={})
    return done


def errors(done: Processed) -> list[tuple[str, str]]:
    return [(d.code, d.message) for d in done.diagnostics if d.severity == "error"]


def bottom_line(letter: str, bottom: list[int]) -> str:
    return f"L{letter}[{','.join(map(str, bottom))}]"


# -- the standard's example ------------------------------------------------------------------

EXAMPLE = """(
;VER[1.0]PA[选手 1 名称]PB[选手 2 名称]PC[选手 3 名称]
;TI[1]TC[4]RI[1]RC[9]UC[9]MS[3150]
;DA[40,28,19,41,42,11,15,35,5,45,30,9,48,31,34,16,6]
;DB[38,44,37,43,47,36,22,0,14,12,18,2,7,29,53,10,4]
;DC[8,50,21,51,23,46,27,52,25,24,32,13,1,3,49,17,26]
;BA[1]
;BB[2]
;BC[3]
;LC[33,39,20]
;C[24,25,26,27,1,3,32,33]
;A[-1]
;B[-1]
;C[20,21,23,49,50]
;OVER[B]
)
"""


def test_the_standards_example_replays_as_far_as_it_is_written() -> None:
    done = run(EXAMPLE)
    assert errors(done) == []
    replay = done.replay
    assert replay is not None and len(replay.plies) == 11 and not replay.not_replayed
    # C bid 3 and leads four nines with two pairs (four with two), then a trio of eights with a pair of twos.
    assert replay.plies[6].label == "C 底牌 8♠ J♥ Q♣"
    assert replay.plies[7].label == "C 3♥ 3♣ 9♠ 9♥ 9♦ 9♣ J♠ J♥"
    assert [k.name for k in dd.classify([24, 25, 26, 27, 1, 3, 32, 33])] == ["four_two_pair"]
    # The record stops before a hand is empty: OVER[B], a farmer, declares the farmers' win, which stands.
    assert replay.decision is None
    assert done.declared == "first+second" and done.result == "first+second"
    assert done.players == ("选手 1 名称", "选手 2 名称", "选手 3 名称")


# -- dealing ------------------------------------------------------------------------------------


def test_a_deal_of_sixteen_cards_is_an_error_naming_the_seat() -> None:
    hands, bottom = deal()
    hands["B"] = hands["B"][:16]
    done = run(record(hands, ["BA[1]"]))
    [(code, message)] = errors(done)
    assert code == "RULE-E1110" and "Seat B is dealt 16 cards, not 17" in message and "move 2" in message


def test_a_card_dealt_to_two_seats_is_an_error_naming_both() -> None:
    hands, _ = deal()
    hands["C"][0] = hands["A"][5]
    [(code, message)] = errors(run(record(hands, [])))
    assert code == "RULE-E1110" and f"card {hands['A'][5]}" in message and "also to Seat A" in message


def test_deals_may_be_written_in_any_order() -> None:
    hands, bottom = deal()
    text = record(hands, ["BA[3]", bottom_line("A", bottom)])
    a, c = text.index(";DA"), text.index(";DC")
    lines = text.splitlines()
    da, dc = lines.index(text[a:].split("\n")[0]), lines.index(text[c:].split("\n")[0])
    lines[da], lines[dc] = lines[dc], lines[da]
    done = run("\n".join(lines))
    assert errors(done) == [] and done.replay is not None and len(done.replay.plies) == 5


# -- bidding ---------------------------------------------------------------------------------------


def test_the_highest_bidder_is_the_landlord_after_one_round() -> None:
    hands, bottom = deal(landlord="B")
    done = run(record(hands, ["BA[1]", "BB[2]", "BC[0]", bottom_line("B", bottom), f"B[{hands['B'][0]}]"]))
    assert errors(done) == []
    final = scene.position_after(done.replay.setup, done.replay.plies)
    assert final.pieces["landlord"].at == "second-token"
    assert {final.pieces[f"b{card}"].kind for card in bottom} == {dd.DECK[card] for card in bottom}


def test_a_seat_may_bid_again_until_two_passes_follow_the_highest_bid() -> None:
    hands, bottom = deal(landlord="A")
    lines = ["BA[1]", "BB[2]", "BC[0]", "BA[3]", bottom_line("A", bottom)]
    assert errors(run(record(hands, lines))) == []
    hands, bottom = deal(landlord="B")
    lines = ["BC[0]", "BA[1]", "BB[2]", "BC[0]", "BA[0]", bottom_line("B", bottom)]  # C bids first
    assert errors(run(record(hands, lines))) == []


@pytest.mark.parametrize(
    ("bids", "words"),
    [
        (["BA[2]", "BB[1]"], "the bid 1 is not higher than the highest so far, 2"),
        (["BA[3]", "BB[0]"], "the bidding was over already"),
        (["BA[4]"], "a bid is 0 (pass), 1, 2 or 3"),
        (["BA[1]", "BB[0]", "BC[0]", "BA[2]"], "the bidding was over already"),
    ],
)
def test_a_bid_the_rules_do_not_allow_is_an_error(bids: list[str], words: str) -> None:
    hands, _ = deal()
    [(code, message)] = errors(run(record(hands, bids)))
    assert code == "RULE-E1111" and words in message


def test_a_bid_out_of_turn_is_the_wrong_side() -> None:
    hands, _ = deal()
    [(code, message)] = errors(run(record(hands, ["BA[1]", "BC[2]"])))
    assert code == "RULE-E001" and "expected Seat B to move, found Seat C" in message


def test_a_deal_nobody_bids_for_is_void_and_says_so() -> None:
    hands, _ = deal()
    done = run(record(hands, ["BB[0]", "BC[0]", "BA[0]"]))
    assert errors(done) == []
    decision = done.replay.decision
    assert decision.rule == "void" and decision.winner == "draw" and decision.said("en") == "nobody bid: the deal is void"
    assert decision.score == {"first": 0.0, "second": 0.0, "third": 0.0}
    assert "RULE-N1119" in [d.code for d in done.diagnostics]
    last = scene.position_after(done.replay.setup, done.replay.plies)
    assert "nobody bids: the deal is void" in last.notes
    # Nothing may follow.
    [(code, _)] = errors(run(record(hands, ["BB[0]", "BC[0]", "BA[0]", "LA[1,2,3]"])))
    assert code == "RULE-E003"


# -- the bottom cards ----------------------------------------------------------------------------


def test_the_bottom_cards_must_be_the_three_not_dealt() -> None:
    hands, bottom = deal()
    wrong = [bottom[0], bottom[1], hands["B"][0]]
    [(code, message)] = errors(run(record(hands, ["BA[3]", bottom_line("A", wrong)])))
    assert code == "RULE-E1112" and ",".join(map(str, sorted(bottom))) in message


def test_the_bottom_cards_go_to_the_highest_bidder_only() -> None:
    hands, bottom = deal(landlord="C")
    [(code, message)] = errors(run(record(hands, ["BA[1]", "BB[0]", "BC[2]", bottom_line("B", bottom)])))
    assert code == "RULE-E001" and "go to the landlord, Seat C, the highest bidder, not Seat B" in message


def test_the_bottom_cards_come_after_the_bidding() -> None:
    hands, bottom = deal()
    [(code, _)] = errors(run(record(hands, ["BA[1]", bottom_line("A", bottom)])))
    assert code == "RULE-E1112"


def test_a_play_before_the_bottom_cards_is_out_of_phase() -> None:
    hands, _ = deal()
    [(code, message)] = errors(run(record(hands, ["BA[3]", f"A[{hands['A'][0]}]"])))
    assert code == "RULE-E1117" and "a play before the landlord took the bottom cards" in message
    [(code, message)] = errors(run(record(hands, ["BA[1]"]).replace(";DC", ";BB[2]\n;DC")))
    assert code == "RULE-E1117" and "a bid before every seat was dealt" in message


# -- plays ----------------------------------------------------------------------------------------


def _played(lines: list[str], landlord: str = "A", **fixed: str) -> Processed:
    hands, bottom = deal(landlord=landlord, **fixed)
    return run(record(hands, ["BA[3]" if landlord == "A" else "BA[0]", bottom_line(landlord, bottom), *lines]))


def test_a_card_not_in_the_hand_is_an_error_naming_it() -> None:
    done = _played([f"A[{listed('3♠')}]"], B="3♠")
    [(code, message)] = errors(done)
    assert code == "RULE-E1113" and "Seat A does not hold card 0 (3♠)" in message


def test_cards_that_are_no_hand_type_are_an_error() -> None:
    done = _played([f"A[{listed('3♠ 4♠')}]"], A="3♠ 4♠")
    [(code, message)] = errors(done)
    assert code == "RULE-E1114" and "3♠ 4♠ is not a hand type" in message


def test_the_leader_may_not_pass() -> None:
    [(code, message)] = errors(_played(["A[-1]"]))
    assert code == "RULE-E1116" and "Seat A leads this trick and must play" in message


@pytest.mark.parametrize(
    ("a", "b", "beats"),
    [
        ("5♠", "6♠", True),
        ("5♠", "5♥", False),
        ("5♠ 5♥", "6♠", False),  # another type
        ("3♠ 4♠ 5♠ 6♠ 7♠", "4♥ 5♥ 6♥ 7♥ 8♥", True),
        ("3♠ 4♠ 5♠ 6♠ 7♠", "4♥ 5♥ 6♥ 7♥ 8♥ 9♥", False),  # another length
        ("2♠ 2♥", "9♠ 9♥ 9♦ 9♣", True),  # a bomb beats any other type
        ("8♠ 8♥ 8♦ 8♣", "9♠ 9♥ 9♦ 9♣", True),
        ("9♠ 9♥ 9♦ 9♣", "8♠ 8♥ 8♦ 8♣", False),
        ("9♠ 9♥ 9♦ 9♣", "BJ RJ", True),
        ("BJ RJ", "2♠ 2♥ 2♦ 2♣", False),  # nothing beats the rocket
        ("3♠ 3♥ 3♦ 4♠ 4♥ 4♦ 5♠ 6♠", "4♣ 7♥ 7♦ 7♣ 8♥ 8♦ 8♣ 9♠", True),  # airplanes with wings
        ("5♠ 5♥ 5♦ 5♣ 3♠ 4♠", "6♠ 6♥ 6♦ 6♣ 3♥ 3♦", True),  # four with two
    ],
)
def test_a_play_must_beat_the_last_play(a: str, b: str, beats: bool) -> None:
    done = _played([f"A[{listed(a)}]", f"B[{listed(b)}]"], A=a, B=b)
    if beats:
        assert errors(done) == []
    else:
        [(code, message)] = errors(done)
        assert code == "RULE-E1115" and "the last play of Seat A" in message


def test_after_two_passes_the_last_player_leads_again() -> None:
    lines = [f"A[{listed('5♠')}]", f"B[{listed('6♠')}]", "C[-1]", "A[-1]", f"B[{listed('3♥')}]"]
    done = _played(lines, A="5♠", B="6♠ 3♥")
    assert errors(done) == []
    notes = scene.position_after(done.replay.setup, done.replay.plies, 9).notes
    assert any("leads again" in note for note in notes)
    # Someone else playing then is out of turn.
    lines[-1] = f"C[{listed('3♣')}]"
    [(code, _)] = errors(_played(lines, A="5♠", B="6♠ 3♥", C="3♣"))
    assert code == "RULE-E001"


# -- the end and the score --------------------------------------------------------------------------

SPRING = "3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♠ 2♠ 2♥ 2♦ K♥ K♦ Q♥ Q♦ Q♣"


def _spring_lines() -> list[str]:
    chain, trio_pair, trio = SPRING.split()[:12], SPRING.split()[12:17], SPRING.split()[17:]
    lines = []
    for play in (chain, trio_pair, trio):
        lines += [f"A[{listed(' '.join(play))}]", "B[-1]", "C[-1]"]
    return lines[:-2]


def test_a_landlord_who_plays_out_before_the_farmers_play_wins_a_spring() -> None:
    hands, bottom = deal(landlord="A", A=SPRING)
    done = run(record(hands, ["BA[1]", "BB[0]", "BC[0]", bottom_line("A", bottom), *_spring_lines()], over="A"))
    assert errors(done) == []
    decision = done.replay.decision
    # Bid 1, doubled once for the spring: each farmer pays 2, the landlord gets 4.
    assert decision.winner == "first" and decision.rule == "hand-empty"
    assert decision.score == {"first": 4.0, "second": -2.0, "third": -2.0} == done.score
    assert done.declared == done.computed == "first"
    final = scene.position_after(done.replay.setup, done.replay.plies)
    assert "spring: the score doubles" in final.notes


def test_bombs_and_the_rocket_double_the_score_up_to_the_cap() -> None:
    a = "3♠ 3♥ 3♦ 3♣ BJ RJ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♠ 2♠ 2♥ 2♦"
    plays = ["3♠ 3♥ 3♦ 3♣", "BJ RJ", "4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♠", "2♠ 2♥ 2♦"]
    lines = ["BA[2]", "BB[0]", "BC[0]"]
    hands, bottom = deal(landlord="A", A=a)
    lines.append(bottom_line("A", bottom))
    for play in plays:
        lines += [f"A[{listed(play)}]", "B[-1]", "C[-1]"]
    lines = lines[:-2]
    # Bid 2, doubled for the bomb, the rocket and the spring: 16 a farmer.
    done = run(record(hands, lines, over="A"))
    assert done.replay.decision.score == {"first": 32.0, "second": -16.0, "third": -16.0}
    capped = run(record(hands, lines, ms=10, over="A"))
    assert capped.replay.decision.score == {"first": 20.0, "second": -10.0, "third": -10.0}
    notes = [op for op in capped.replay.plies[-1].ops if op[0] == "note"]
    assert ["note", "the score {points} is capped at {cap}", {"points": 16, "cap": 10}] in notes


def test_farmers_who_play_out_after_the_landlords_only_play_win_an_anti_spring() -> None:
    b = "4♠ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥ 2♠ 2♥ 2♦ 9♦ 8♦ 8♣"
    hands, bottom = deal(landlord="A", A="3♠", B=b)
    lines = ["BA[1]", "BB[0]", "BC[0]", bottom_line("A", bottom), f"A[{listed('3♠')}]", f"B[{listed('4♠')}]", "C[-1]", "A[-1]"]
    for play in ("5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥", "2♠ 2♥ 2♦ 9♦", "8♦ 8♣"):
        lines += [f"B[{listed(play)}]", "C[-1]", "A[-1]"]
    lines = lines[:-2]
    done = run(record(hands, lines, over="B"))
    assert errors(done) == []
    decision = done.replay.decision
    assert decision.winner == "second+third" and decision.score == {"first": -4.0, "second": 2.0, "third": 2.0}
    assert "anti-spring: the score doubles" in scene.position_after(done.replay.setup, done.replay.plies).notes
    # OVER naming the other farmer: the team agrees, the seat does not.
    wrong = run(record(hands, lines, over="C"))
    [(code, message)] = errors(wrong)
    assert code == "RULE-E1118" and "OVER names Seat C, but the hand of Seat B was emptied here" in message
    # OVER naming the landlord: the declared result contradicts the rules.
    [(code, _)] = errors(run(record(hands, lines, over="A")))
    assert code == "RES-E001"


def test_no_line_may_follow_the_end() -> None:
    hands, bottom = deal(landlord="A", A=SPRING)
    lines = ["BA[1]", "BB[0]", "BC[0]", bottom_line("A", bottom), *_spring_lines(), "B[-1]"]
    [(code, _)] = errors(run(record(hands, lines)))
    assert code == "RULE-E003"


# -- what each view sees --------------------------------------------------------------------------


def test_each_seat_sees_its_own_hand_and_the_others_face_down() -> None:
    hands, bottom = deal(landlord="A", A=SPRING)
    done = run(record(hands, ["BA[1]", "BB[0]", "BC[0]", bottom_line("A", bottom), *_spring_lines()[:3]]))
    replay = done.replay
    a_card, b_card = hands["A"][0], hands["B"][0]
    for view, a_kind, b_kind in (
        ("referee", dd.DECK[a_card], dd.DECK[b_card]),
        ("first", dd.DECK[a_card], "hidden"),
        ("second", "hidden", dd.DECK[b_card]),
        ("third", "hidden", "hidden"),
    ):
        after_deal = scene.position_after(replay.setup, replay.plies, 3, view=view)
        assert after_deal.pieces[f"k{a_card}"].kind == a_kind, view
        assert after_deal.pieces[f"k{b_card}"].kind == b_kind, view
        # The cards played lie face up in every view, in the seat's row of plays.
        final = scene.position_after(replay.setup, replay.plies, view=view)
        chain = cards(" ".join(SPRING.split()[:12]))
        assert {final.pieces[f"k{c}"].kind for c in chain} == {dd.DECK[c] for c in chain}
        assert all(final.pieces[f"k{c}"].at.startswith("first-") and "-h" not in final.pieces[f"k{c}"].at for c in chain)
    # Each deal's line is read only by its seat and the referee.
    assert [ply.visible_to for ply in replay.plies[:3]] == [("referee", "first"), ("referee", "second"), ("referee", "third")]


def test_the_landlords_hand_holds_twenty_cards_after_the_bottom_cards() -> None:
    hands, bottom = deal(landlord="C")
    done = run(record(hands, ["BA[0]", "BB[0]", "BC[1]", bottom_line("C", bottom)]))
    position = scene.position_after(done.replay.setup, done.replay.plies, view="first")
    held = [piece for piece in position.pieces.values() if piece.at.startswith("third-h")]
    assert len(held) == 20 and {piece.kind for piece in held} == {"hidden"}
    mine = [piece for piece in position.pieces.values() if piece.at.startswith("first-h")]
    assert len(mine) == 17 and "hidden" not in {piece.kind for piece in mine}
