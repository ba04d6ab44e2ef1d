"""The viewer's page data: script-safe JSON and the context of templates/_viewer.html."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest
from svg_pieces import pieces_shown

from generator import games
from generator.model import Decision, Move, Ply, Replay
from generator.render.env import make_env
from generator.render.viewer import STRINGS, json_for_script, viewer_context
from generator.scene import add, mark, note, position_after

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
EVIL = "</script><script>alert(1)</script>"


def test_json_for_script_keeps_a_closing_tag_inert() -> None:
    text = json_for_script({"team": EVIL, "and": "a & b", "gt": "x > y"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == {"team": EVIL, "and": "a & b", "gt": "x > y"}


def test_json_for_script_escapes_line_separators_and_keeps_other_text() -> None:
    value = {"note": "one\u2028two\u2029three", "zh": "先手胜"}
    text = json_for_script(value)
    assert "\u2028" not in text and "\u2029" not in text
    assert "\\u2028" in text and "\\u2029" in text
    assert "先手胜" in text  # readable, not \\u escaped
    assert json.loads(text) == value


def test_json_for_script_is_deterministic() -> None:
    assert json_for_script({"b": 1, "a": [1, 2]}) == json_for_script({"a": [1, 2], "b": 1}) == '{"a":[1,2],"b":1}'


def small_replay() -> Replay:
    """Three plies of Gomoku, then two moves that were not replayed."""
    plies = [
        Ply(1, "first", "black", "B(H,8)", [add("s1", "stone", "black", "H8"), mark("H8", "last")], mark=2),
        Ply(2, "second", "white", "W(I,9)", [add("s2", "stone", "white", "I9"), mark("I9", "last")], mark=-1),
        Ply(3, "first", "black", EVIL, [add("s3", "stone", "black", "J10"), mark("J10", "last"), note(EVIL)]),
    ]
    not_replayed = [Move("W", "W(H,8)", ("H", 8), 1, 40), Move("B", "B(A,1)", ("A", 1), 1, 47, mark=1)]
    return Replay([], plies, not_replayed, Decision("first", "line", 3, ("H8", "J10")))


def zh() -> dict[str, str]:
    return dict(STRINGS["zh-CN"])


def render(viewer: dict) -> str:
    return make_env(TEMPLATES).get_template("_viewer.html").render(viewer=viewer)


class Scripts(HTMLParser):
    """Collects the text of <script> elements as an HTML parser sees them."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self._open: dict[str, str | None] | None = None
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        if tag == "script":
            self._open = a
            self.scripts.append((a, ""))

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            attrs, text = self.scripts[-1]
            self.scripts[-1] = (attrs, text + data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._open = None


def test_viewer_context_for_a_small_replay() -> None:
    viewer = viewer_context(games.get("C5"), small_replay(), strings=zh(), label="A队 vs B队")
    assert viewer["count"] == 3
    assert [m["label"] for m in viewer["moves"]] == ["B(H,8)", "W(I,9)", EVIL]
    assert [m["mark_word"] for m in viewer["moves"]] == ["大好", "小劣", ""]
    assert [(m["number"], m["label"], m["side"], m["colour"]) for m in viewer["not_replayed"]] == [
        (4, "W(H,8)", "second", "white"),
        (5, "B(A,1)", "first", "black"),
    ]
    assert viewer["not_replayed"][1]["mark_word"] == "小好"
    assert viewer["decision_cells"] == ["H8", "J10"]
    assert viewer["final_notes"] == [EVIL]

    data = json.loads(str(viewer["data"]))
    assert [p["n"] for p in data["plies"]] == [1, 2, 3]
    assert data["plies"][0]["o"] == [["add", "s1", "stone", "black", "H8"], ["mark", "H8", "last"]]
    assert data["plies"][0]["m"] == 2 and "m" not in data["plies"][2]
    # Only the cells the game uses travel with the page.
    assert set(data["scene"]["cells"]) == {"H8", "I9", "J10"}
    assert data["views"] == []  # nothing hidden: no view selector


def test_mark_words_follow_the_page_language() -> None:
    english = viewer_context(games.get("C5"), small_replay(), strings=STRINGS["en"], label="x")
    assert [m["mark_word"] for m in english["moves"]][:2] == ["much better", "worse"]
    # A table without the viewer's keys still gives a usable page (English).
    bare = viewer_context(games.get("C5"), small_replay(), strings={}, label="x")
    assert bare["moves"][0]["mark_word"] == "much better"
    assert bare["strings"]["viewer.next"] == "Next move"


def test_rendered_partial_keeps_hostile_text_inert() -> None:
    html = render(viewer_context(games.get("C5"), small_replay(), strings=zh(), label=EVIL))
    parser = Scripts()
    parser.feed(html)
    # Exactly one script element, the data; the hostile text did not open another.
    assert len(parser.scripts) == 1
    attrs, text = parser.scripts[0]
    assert attrs["type"] == "application/json"
    data = json.loads(text)
    assert data["plies"][2]["l"] == EVIL
    assert ["note", EVIL] in data["plies"][2]["o"]
    assert "<script>alert" not in html
    assert html.count("</script>") == 1


def test_rendered_partial_lists_moves_as_anchors() -> None:
    html = render(viewer_context(games.get("C5"), small_replay(), strings=zh(), label="A队 vs B队"))
    parser = Scripts()
    parser.feed(html)
    assert parser.links == ["#ply=1", "#ply=2", "#ply=3"]
    # No element has the links' ids: a deep link #ply=N opens on the board, not
    # scrolled down to the move's entry (issue 23); viewer.js reads the hash.
    assert not {link[1:] for link in parser.links} & parser.ids
    assert html.count("q-not-replayed") == 2
    assert "未回放" in html
    assert 'class="q-viewer"' in html and 'tabindex="0"' in html
    assert "<svg" in html and "q-pieces" in html


def test_a_move_in_another_notation_shows_on_hover_escaped() -> None:
    replay = small_replay()
    replay.plies[0].alt = "H2E2"
    replay.plies[1].alt = EVIL
    html = render(viewer_context(games.get("C5"), replay, strings=zh(), label="x"))
    assert '<a href="#ply=1" title="H2E2">' in html
    assert "<script>alert" not in html and 'title="&lt;/script&gt;' in html
    assert '<a href="#ply=3">' in html  # no title where there is no other notation


def test_a_notation_that_names_its_side_draws_no_side_disc() -> None:
    board = games.get("C5").module("board").board_for(games.get("C5"))
    plain = render(viewer_context(games.get("C5"), small_replay(), strings=zh(), label="x", board=board))
    assert 'class="q-moves"' in plain
    marked_board = games.get("MSK").module("board").board_for(games.get("MSK"))
    assert marked_board.marked_moves and not board.marked_moves
    shogi = Replay([], [Ply(1, "first", "black", "▲２四歩", [mark("24", "to")])], [], None)
    html = render(viewer_context(games.get("MSK"), shogi, strings=zh(), label="x"))
    assert 'class="q-moves q-marked"' in html
    css = (Path(__file__).resolve().parents[1] / "static" / "viewer.css").read_text()
    assert ".q-marked .q-move::before { display: none; }" in css


def test_views_are_offered_for_hidden_plies() -> None:
    plies = [
        Ply(1, "first", "black", "B[D5]", [], visible_to=("first",),
            hidden=[(("referee", "first"), [add("s1", "stone", "black", "D5")])]),
        Ply(2, "second", "white", "W[E5]", [], visible_to=("second",),
            hidden=[(("referee", "second"), [add("s2", "stone", "white", "E5")])]),
    ]
    viewer = viewer_context(games.get("C5"), Replay([], plies, [], None), strings=STRINGS["en"], label="x")
    data = json.loads(str(viewer["data"]))
    assert data["views"] == [["referee", "Referee"], ["first", "Black's view"], ["second", "White's view"]]
    assert data["plies"][0]["v"] == ["first"]
    assert data["plies"][0]["h"] == [[["referee", "first"], [["add", "s1", "stone", "black", "D5"]]]]
    # Hidden stones are on the board only in the views that may see them.
    assert {p.at for p in position_after([], plies).pieces.values()} == {"D5", "E5"}
    assert {p.at for p in position_after([], plies, view="first").pieces.values()} == {"D5"}
    assert 'class="q-view"' in render(viewer)


@pytest.mark.parametrize("lang", sorted(STRINGS))
def test_string_tables_have_the_same_keys(lang: str) -> None:
    assert set(STRINGS[lang]) == set(STRINGS["en"])
    assert all(f"mark.{m}" in STRINGS[lang] for m in range(-2, 3))


def test_a_game_without_plies_still_renders() -> None:
    viewer = viewer_context(games.get("C6"), Replay([], [], [], None), strings=zh(), label="空")
    html = render(viewer)
    assert viewer["count"] == 0 and viewer["moves"] == []
    assert 'max="0"' in html and "<svg" in html


def _notes(viewer: dict) -> list[str]:
    data = json.loads(str(viewer["data"]))
    return [op[1] for ply in data["plies"] for op in ply["o"] if op[0] == "note"]


def test_engine_notes_are_said_in_the_page_language() -> None:
    from generator.model import Metadata, Record
    from generator.render.strings import LANGUAGES
    from generator.rules import go

    gtype = games.get("GO9")
    moves = [
        Move("B", "B[E5]", ("E", 5), 1, 1),
        Move("W", "W[]", None, 1, 7, passed=True),
        Move("B", "B[tt]", None, 1, 11, passed=True),
    ]
    replay = go.replay(Record("r.txt", "GO9", Metadata(), moves), gtype, gtype.options)
    chinese = viewer_context(gtype, replay, strings=LANGUAGES["zh-CN"], label="x", side_names=("黑方", "白方"))
    # Black's one stone owns the whole empty board: 81 to 0, 7.5 komi.
    assert _notes(chinese) == ["白方虚手", "黑方虚手", "数子：黑方 81，白方 0（贴目 7.5）：黑方胜 73.5 子"]
    assert chinese["final_notes"] == ["黑方虚手", "数子：黑方 81，白方 0（贴目 7.5）：黑方胜 73.5 子"]
    english = viewer_context(gtype, replay, strings=LANGUAGES["en"], label="x")
    assert _notes(english) == ["White passes", "Black passes", "Black 81, White 0 (komi 7.5): Black wins by 73.5"]


def test_a_note_the_page_cannot_say_keeps_its_english_text() -> None:
    from generator.render.strings import LANGUAGES

    renju = "{cell} is a forbidden move for {side} under renju rules: double three (two open threes at once); {side} loses"
    plies = [
        Ply(1, "first", "black", "x", [note("Plain English for {side}", side="first")]),  # in no catalog
        Ply(2, "second", "white", "y", [note("{side} passes", side="second")]),
        Ply(3, "first", "black", "z", [note(renju, cell="H8", side="first", k=5)]),
    ]
    viewer = viewer_context(
        games.get("C5"), Replay([], plies, [], None), strings=LANGUAGES["zh-CN"], label="x", side_names=("黑方", "白方")
    )
    assert _notes(viewer) == ["Plain English for 黑方", "白方虚手", "H8 是黑方的禁手（三三）：黑方负"]


def _game_page_parts(tmp_path: Path, marks: tuple[str, str] = ("2", "")):  # -> (view, job, site)
    """The view and job of one C5 record with a hostile team name, as a build makes them.

    ``marks``: the MARK values of the first and of the last move ("": none).
    """
    import pickle

    from conftest import C5_BLACK_FIVE, c5_record

    from generator.build.site import site_info
    from generator.config import load_config
    from generator.model import Source
    from generator.pipeline import process, sha256
    from generator.render.pages import GameJob, game_view

    data = c5_record(EVIL, "乙队", "先手胜", _marked(C5_BLACK_FIVE, *marks)).encode()
    config, _ = load_config(content=tmp_path, output=tmp_path / "site")
    site = site_info(config, None, [])
    processed = process(Source("ev/a.txt", data, sha256(data)), encoding=None, options={})
    view = pickle.loads(pickle.dumps(game_view(processed, site)))  # as the cache returns it
    job = GameJob(
        url="games/ev/a.html", source="ev/a.txt", key="k", event_name="赛", event_url="events/ev/index.html",
        first=EVIL, second="乙队", first_url=None, second_url=None, duplicates=(), diagnostics=(),
    )
    return view, job, site


def _marked(moves: str, first: str, last: str) -> str:
    head, *middle, tail = moves.split(";")
    return ";".join([head + (f"MARK[{first}]" if first else ""), *middle, tail + (f"MARK[{last}]" if last else "")])


def test_game_page_has_the_board_moves_and_data_of_its_view(tmp_path: Path) -> None:
    from generator.render.pages import game_page

    view, job, site = _game_page_parts(tmp_path)
    page = game_page(make_env(TEMPLATES).get_template("game.html"), job, view, site).decode("utf-8")
    assert "\x00" not in page  # no marker left behind
    assert page.count('<svg xmlns="http://www.w3.org/2000/svg" class="q-board"') == 1
    board = page[page.index('class="q-board"') : page.index("</svg>", page.index('class="q-board"'))]
    assert 'class="q-grid' in board  # the static drawing, put back
    start = page.index('<svg xmlns="http://www.w3.org/2000/svg" class="q-board"')
    svg = page[start : page.index("</svg>", start) + len("</svg>")]
    assert len(pieces_shown(svg)) == 9  # each stone a <use> of a symbol declared in this board's <defs>
    assert page.count('<li class="q-move') == 9 and "大好" in page  # MARK 2 of the first move
    scripts = Scripts()
    scripts.feed(page)
    data = json.loads(next(text for attrs, text in scripts.scripts if attrs.get("class") == "q-data"))
    assert len(data["plies"]) == 9
    assert EVIL not in page and "&lt;/script&gt;" in page  # the team name is text


def test_game_page_follows_a_template_that_shows_a_part_twice_or_not_at_all(tmp_path: Path) -> None:
    from generator.render.pages import game_page

    view, job, site = _game_page_parts(tmp_path)
    env = make_env(TEMPLATES)
    twice = game_page(env.from_string("{{ viewer.moves_html }}<hr>{{ viewer.moves_html }}"), job, view, site).decode()
    once = twice.split("<hr>")[0]
    assert twice == f"{once}<hr>{once}" and once.count('<li class="q-move') == 9
    escaped = b"<p>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;</p>"
    assert game_page(env.from_string("<p>{{ game.first }}</p>"), job, view, site) == escaped
