"""What ``templates/_viewer.html`` and ``static/viewer.js`` need for one game.

The page embeds the board's scene and the replay's frames as JSON inside a
``<script type="application/json">`` element (never fetched, so the site works
from ``file://``). :func:`viewer_context` gathers that JSON, the final
position drawn as SVG for readers without JavaScript, and the move list.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping
from typing import Any

from markupsafe import Markup, escape

try:
    import orjson as _orjson
except ImportError:  # pragma: no cover - a platform without its wheel: the standard encoder does it all
    _orjson = None  # type: ignore[assignment]

from generator import i18n
from generator.boards.base import Board
from generator.games import GameType
from generator.i18n import Phrase, Term
from generator.model import Move, Op, Ply, Replay
from generator.render.strings import LANGUAGES
from generator.scene import SEAT_INDEX, Position, note_text, position_after

# The UI strings the viewer uses, in both page languages (the tables live in
# render/strings.py with the rest of the site's). The caller passes the page's
# strings; a key it lacks falls back to English here, so a missing
# translation shows English instead of breaking the page.
VIEWER_KEYS = tuple(key for key in LANGUAGES["en"] if key.startswith(("viewer.", "mark.")))
STRINGS: Mapping[str, Mapping[str, str]] = {
    language: {key: table[key] for key in VIEWER_KEYS} for language, table in LANGUAGES.items()
}

# Keys the script reads from the JSON (the template reads the rest).
_SCRIPT_KEYS = ("viewer.ply", "viewer.play", "viewer.pause", "viewer.hidden", "viewer.view.referee")

# Characters that could end the <script> element or confuse an HTML parser,
# and the two line separators that older JavaScript parsers reject in strings.
_SCRIPT_ESCAPES = (
    ("<", "\\u003c"),
    (">", "\\u003e"),
    ("&", "\\u0026"),
    ("\u2028", "\\u2028"),
    ("\u2029", "\\u2029"),
)


# The site's JSON: compact, keys sorted (deterministic pages), UTF-8 text.
# No cycle check: what we encode are trees built from records and string
# tables, and the check costs a quarter of the encoding time.
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), sort_keys=True, check_circular=False)


def json_for_script(obj: Any) -> str:
    """JSON that is inert inside an HTML ``<script>`` element, deterministic.

    ``<``, ``>``, ``&``, U+2028 and U+2029 can only occur inside JSON strings,
    where their ``\\uXXXX`` escapes mean the same characters; so a team named
    ``</script><script>alert(1)</script>`` stays text.
    """
    return _script_safe(_ENCODER.encode(obj))


def _script_safe(text: str) -> str:
    """JSON text with the characters of :data:`_SCRIPT_ESCAPES` escaped."""
    # str.replace is several times faster than str.translate on page-sized text.
    for char, escaped in _SCRIPT_ESCAPES:
        if char in text:
            text = text.replace(char, escaped)
    return text


def _object_json(members: dict[str, str]) -> str:
    """A JSON object from its members' JSON texts, keys sorted as :data:`_ENCODER` sorts them.

    Keys must need no escaping (the viewer's own names).
    """
    return "{" + ",".join(f'"{key}":{members[key]}' for key in sorted(members)) + "}"


@dataclasses.dataclass(slots=True)
class _SceneJson:
    """A board's scene (:meth:`generator.boards.base.Board.scene`) as JSON pieces, made once per board."""

    board: Board  # held, so that its id() keys nothing else while it is cached
    members: dict[str, str]  # '"radius":18.5' and so on: every member but "cells"
    cells: dict[str, str]  # '"J10":[416,256]' of every cell


_SCENES: dict[int, _SceneJson] = {}


def _scene_json(board: Board, used: set[str]) -> str:
    """``_ENCODER.encode(scene)`` of the board's scene with only the ``used`` cells.

    A board keeps its scene and callers never edit inside it, so every page
    of a board shares all of it but the cells chosen: encoded once here.
    """
    cached = _SCENES.get(id(board))
    if cached is None or cached.board is not board:
        if len(_SCENES) >= 64:  # boards live as long as the build; tests make more
            _SCENES.clear()
        scene, encode = board.scene(), _ENCODER.encode
        members = {key: f"{encode(key)}:{encode(value)}" for key, value in scene.items() if key != "cells"}
        cells = {cell: f"{encode(cell)}:{encode(xy)}" for cell, xy in scene["cells"].items()}
        cached = _SCENES[id(board)] = _SceneJson(board, members, cells)
    cells = cached.cells
    members = dict(cached.members)
    members["cells"] = '"cells":{' + ",".join([cells[cell] for cell in sorted(used) if cell in cells]) + "}"
    return "{" + ",".join([members[key] for key in sorted(members)]) + "}"


def _plies_json(plies: list[Ply]) -> str:
    """``_ENCODER.encode([_ply_data(ply) for ply in plies])``: the plies, most of a page's JSON."""
    return _json([_ply_data(ply) for ply in plies])


def _json(value: Any) -> str:
    """``_ENCODER.encode(value)``, the same text, by orjson where it is installed.

    The standard library's encoder cost about a third of preparing a game's
    view; orjson writes the same text (compact, keys sorted, UTF-8 as it is)
    in a quarter of the time. Where it is not installed, or refuses a value
    the standard encoder takes (a lone surrogate from a damaged file, an
    integer over 64 bits), the standard encoder writes it. One difference,
    in values no game sends today: a float in exponent form is written
    ``1e16`` (the standard encoder: ``1e+16``, the same number), and NaN as
    ``null`` (the standard encoder writes ``NaN``, which is not JSON).
    """
    if _orjson is not None:
        try:
            return _orjson.dumps(value, option=_orjson.OPT_SORT_KEYS).decode("utf-8")
        except (TypeError, ValueError):  # orjson.JSONEncodeError is a TypeError
            pass
    return _ENCODER.encode(value)


def mark_class(mark: int | None) -> str:
    """CSS class of a MARK value: ``q-mark-n2`` … ``q-mark-0`` … ``q-mark-p2``."""
    if mark is None:
        return ""
    return f"q-mark-{'n' if mark < 0 else 'p' if mark > 0 else ''}{abs(mark)}"


def mark_word(mark: int | None, strings: Mapping[str, str]) -> str:
    """The word for a MARK value in the page language; the number if unknown."""
    if mark is None:
        return ""
    return _string(strings, f"mark.{mark}", str(mark))


def _string(strings: Mapping[str, str], key: str, default: str | None = None) -> str:
    value = strings.get(key)
    if value is None:
        value = STRINGS["en"].get(key, default if default is not None else key)
    return value


def _ply_data(ply: Ply) -> dict[str, Any]:
    """One ply in the compact form viewer.js reads (short keys: pages add up)."""
    # Only what viewer.js reads: the side and colour are in the operations already.
    data: dict[str, Any] = {"n": ply.number, "l": ply.label, "o": ply.ops}
    if ply.mark is not None:
        data["m"] = ply.mark
    if ply.visible_to is not None:
        data["v"] = list(ply.visible_to)
    if ply.hidden:
        data["h"] = [[list(views), ops] for views, ops in ply.hidden]
    return data


def _scan(groups: list[list[Op]], used: set[str], counters: set[str]) -> list[int]:
    """One pass over lists of operations: what the page needs to know of them.

    Adds the cells any operation names to ``used`` (the only coordinates the
    page needs) and the keys of the counters set to ``counters``; returns
    the indices of the lists holding a note with a key (see
    :func:`_localised`). One loop instead of one per question: it runs over
    every operation of every game page.
    """
    keyed: list[int] = []
    add = used.add
    for i, ops in enumerate(groups):
        for op in ops:
            name = op[0]
            # The most frequent first: nearly every ply marks a cell.
            if name == "mark":
                add(op[1])
            elif name == "move":
                add(op[2])
            elif name == "add":
                add(op[4])
            elif name == "path":
                used.update(op[1])
            elif name == "count":
                counters.add(op[1])
            elif name == "note" and len(op) > 2 and (not keyed or keyed[-1] != i):
                keyed.append(i)
    return keyed


def _op_lists(plies: list[Ply]) -> tuple[list[list[Op]], list[int]]:
    """Every list of operations of the plies (each ply's own, then the hidden groups), and the ply each belongs to."""
    groups = [ply.ops for ply in plies]
    owners = list(range(len(plies)))
    for i, ply in enumerate(plies):
        if ply.hidden:
            groups.extend(ops for _, ops in ply.hidden)
            owners.extend(i for _ in ply.hidden)
    return groups, owners


def _views(plies: list[Ply], hidden_setup: bool = False) -> list[str]:
    """The views a reader can choose: the referee's (everything), then each side's.

    Empty when every ply and the set-up are visible to everyone (no selector is shown).
    """
    if not hidden_setup and all(ply.visible_to is None and not ply.hidden for ply in plies):
        return []
    views: list[str] = ["referee", "first", "second"]
    for ply in plies:
        for who in ply.visible_to or ():
            if who not in views:
                views.append(who)
    return views


# Counters the engines set with ["count", key, value], in the order shown.
_COUNTERS = ("captures.first", "captures.second", "attempts.first", "attempts.second")


def _counters(keys: set[str], final: Position, side_names: tuple[str, ...], strings: Mapping[str, str]) -> list[list[Any]]:
    """[key, label, final value] of each counter some ply sets (``keys``), labelled in the page language."""
    shown = [key for key in _COUNTERS if key in keys] + sorted(keys.difference(_COUNTERS))
    rows = []
    for key in shown:
        what, _, side = key.partition(".")
        name = side_names[0] if side == "first" else side_names[1] if side == "second" else side
        label = _string(strings, f"viewer.count.{what}", "{side} " + what).format(side=name)
        rows.append([key, label, final.counts.get(key, 0)])
    return rows


def _localised(plies: list[Ply], strings: Mapping[str, str], names: tuple[str, ...], keyed: list[int]) -> list[Ply]:
    """The plies with their notes said in the page's language (see :func:`generator.scene.note`).

    ``keyed``: the indices of the plies with such notes (:func:`_scan` found
    them); the others are the same objects: most plies of most games have none.
    """
    out = list(plies)
    language = strings.get("language", "en")
    said: dict[Any, str] = {}  # a page says the same few notes again and again (check ...)
    for i in keyed:
        ply = plies[i]
        copy = out[i] = _copy(ply)
        copy.ops = _say(ply.ops, language, names, said)
        if ply.hidden:
            copy.hidden = [(views, _say(ops, language, names, said)) for views, ops in ply.hidden]
    return out


def _said_labels(plies: list[Ply], strings: Mapping[str, str]) -> list[Ply]:
    """The plies whose label is a word or phrase to translate (a Go pass, a hold'em
    ``raise to 212``) with it said in the page's language."""
    if not any(type(ply.label) in _WORDS for ply in plies):
        return plies
    language = strings.get("language", "en")
    out = list(plies)
    for i, ply in enumerate(plies):
        label = ply.label
        if type(label) is Phrase:
            copy = out[i] = _copy(ply)
            copy.label = label.in_language(language)
        elif type(label) is Term:
            copy = out[i] = _copy(ply)
            copy.label = i18n.translate(label, language)
    return out


_WORDS = (Term, Phrase)


_PLY_FIELDS = tuple(field.name for field in dataclasses.fields(Ply))


def _copy(ply: Ply) -> Ply:
    """A shallow copy of a ply (dataclasses.replace() costs ten times more, once per ply of a page)."""
    copy = object.__new__(Ply)
    for name in _PLY_FIELDS:
        setattr(copy, name, getattr(ply, name))
    return copy


def _say(ops: list[Op], language: str, names: tuple[str, ...], said: dict[Any, str]) -> list[Op]:
    out = []
    for op in ops:
        if op[0] == "note" and len(op) > 2:
            try:
                key: Any = (op[1], *op[2].items())
                text = said.get(key)
            except TypeError:  # an argument that cannot be hashed: said each time
                key, text = None, None
            if text is None:
                text = note_text(op, names, language)
                if key is not None:
                    said[key] = text
            op = ["note", text]
        out.append(op)
    return out


def _entry(
    number: int, label: str, side: str | None, colour: str, mark: int | None, strings: Mapping[str, str]
) -> dict[str, Any]:
    """One entry of the move list (replayed or not)."""
    return {
        "number": number,
        "label": label,
        "side": side or "",
        "colour": colour,
        "mark": mark,
        "mark_word": mark_word(mark, strings),
        "mark_class": mark_class(mark),
    }


def _not_replayed(game: GameType, moves: list[Move], start: int, strings: Mapping[str, str]) -> list[dict[str, Any]]:
    entries = []
    for i, move in enumerate(moves):
        side = game.side_of(move.side)
        colour = game.colour(side) if side else ""
        entries.append(_entry(start + i, move.text, side, colour, move.mark, strings))
    return entries


def _view_label(view: str, names: tuple[str, ...], strings: Mapping[str, str]) -> str:
    # A seat's view: named as the page names its side (the third and fourth seats of a card game too).
    seat = SEAT_INDEX.get(view)
    if seat is not None and seat < len(names):
        return _string(strings, "viewer.view.side", "{side}").format(side=names[seat])
    return _string(strings, f"viewer.view.{view}", view)


def ui_strings(strings: Mapping[str, str]) -> dict[str, str]:
    """The viewer's own strings, from the page's (English where a key is missing).

    Made once per table of page strings (a build has one): shared, not to be changed.
    """
    if _UI[0] is not strings:
        # _string() inlined: every key is in the English table.
        english = STRINGS["en"]
        _UI[:] = [strings, {key: english[key] if (value := strings.get(key)) is None else value for key in english}]
    return _UI[1]


_UI: list[Any] = [None, {}]  # the last table of page strings asked for, and its viewer strings


# The parts of the viewer's context that are finished HTML (marked safe for the template).
HTML_PARTS = ("svg", "data", "moves_html")


def viewer_context(game: GameType, replay: Replay, **options: Any) -> dict[str, Any]:
    """Everything ``templates/_viewer.html`` needs to show one replayed game.

    The options are those of :func:`viewer_parts`, whose finished HTML parts
    are marked safe here.
    """
    context = viewer_parts(game, replay, **options)
    for key in HTML_PARTS:
        context[key] = Markup(context[key])
    return context


def viewer_parts(
    game: GameType,
    replay: Replay,
    *,
    strings: Mapping[str, str],
    label: str,
    static: bool = True,
    side_names: tuple[str, ...] | None = None,
    entries: bool = True,
    board: Board | None = None,
) -> dict[str, Any]:
    """:func:`viewer_context` with the :data:`HTML_PARTS` as plain strings
    (escaped already), for callers that store or encode them: a Markup
    would be a copy of each.

    ``strings`` are the page's UI strings (keys as in :data:`STRINGS`),
    ``label`` the accessible name of the board, e.g. "A队 vs B队, final position";
    ``side_names`` the sides as the page names them (黑方, White ...), for the
    views and counters (English names by default). ``entries=False`` leaves
    out ``moves``, the move list as one dict per move: the template reads the
    finished ``moves_html``, and the build, which renders every game, has no
    use for them. ``board`` draws the game instead of the game type's own
    board (a board made for a test).
    """
    if board is None:
        board = game.module("board").board_for(game, replay.variant)
    names = side_names or tuple(side.name_en for side in game.seats)
    # Localised notes name no cells and set no counters: one scan of the
    # recorded plies answers all three questions.
    used: set[str] = set()
    counter_keys: set[str] = set()
    setup_hidden = replay.setup_hidden
    _scan([replay.setup, *(ops for _, ops in setup_hidden)], used, set())  # counters count what the plies do, not the set-up
    groups, owners = _op_lists(replay.plies)
    keyed = _scan(groups, used, counter_keys)
    plies = _localised(replay.plies, strings, names, sorted({owners[i] for i in keyed})) if keyed else replay.plies
    plies = _said_labels(plies, strings)
    final = position_after(replay.setup, plies)
    views = _views(plies, bool(setup_hidden))
    ui = ui_strings(strings)
    words = {mark: (mark_word(mark, strings), mark_class(mark)) for mark in {p.mark for p in plies}}
    # json_for_script() of these members as one object.
    encode = _json
    data = {
        "scene": _scene_json(board, used),
        "setup": encode(replay.setup),
        # The set-up's hidden groups, as a ply's "h" (army chess: each player's view of the layouts).
        **({"setupHidden": encode([[list(v), ops] for v, ops in setup_hidden])} if setup_hidden else {}),
        "plies": _plies_json(plies),
        "views": encode([[view, _view_label(view, names, strings)] for view in views]),
        "strings": encode({key: ui[key] for key in _SCRIPT_KEYS}),
        "marks": encode({str(mark): word for mark, (word, _) in words.items() if mark is not None}),
    }
    layout = turn_layout(plies)
    if layout and layout[2]:  # turns of two plies (connect6): the viewer steps, marks and counts by turn
        data["turns"] = encode(layout[2])
    last = plies[-1] if plies else None
    not_replayed = _not_replayed(game, replay.not_replayed, len(plies) + 1, strings)
    context = {
        "label": label,
        "svg": board.svg(final, label=label, static=static),
        "data": _script_safe(_object_json(data)),
        "count": len(plies),
        "not_replayed": not_replayed,
        "moves_html": moves_html(plies, words, not_replayed, ui, layout),
        "decision_cells": list(replay.decision.cells) if replay.decision else [],
        "views": views,
        "counters": _counters(counter_keys, final, names, strings),
        "final_notes": list(final.notes),
        "final_mark": _entry(last.number, last.label, last.side, last.colour, last.mark, strings) if last else None,
        # The game's own notation names the side (▲２四歩): the move list draws no side disc.
        "marked": board.marked_moves,
        "strings": ui,
    }
    if entries:
        context["moves"] = _move_entries(plies, words)
    return context


def _move_entries(plies: list[Ply], words: Mapping[int | None, tuple[str, str]]) -> list[dict[str, Any]]:
    """The move list, one dict per ply, as _entry() makes them (each MARK's word and class in ``words``)."""
    return [
        {
            "number": p.number,
            "label": p.label,
            "side": p.side,
            "colour": p.colour,
            "mark": p.mark,
            "mark_word": words[p.mark][0],
            "mark_class": words[p.mark][1],
        }
        for p in plies
    ]


# What markupsafe.escape() replaces: a label without these ("B(J,10)", "炮二平五") is written as it is.
_UNSAFE = re.compile(r"[&<>\"']")


# (start of the <li>, MARK badge) of each colour and MARK word seen so far:
# the same few recur on every line of every page, so each is escaped once.
_LOOKS: dict[tuple[str, str, str], tuple[str, str]] = {}


def _look(colour: str, word: str, cls: str) -> tuple[str, str]:
    """The start of a move-list entry in ``colour`` and its badge for a MARK ``word`` of class ``cls``."""
    look = _LOOKS.get((colour, word, cls))
    if look is None:
        badge = f' <span class="q-mark-word {escape(cls)}">{escape(word)}</span>' if word else ""
        look = (f'\n<li class="q-move q-{escape(colour)}', badge)
        if len(_LOOKS) < 1000:  # bounded: page strings are few, but nothing promises it
            _LOOKS[colour, word, cls] = look
    return look


# A move list's grid (turn_layout): each ply's column, the row each starts, the plies
# that end turns, and each ply's row where they must be given (rounds of three or four seats).
Layout = tuple[list[int], list[int], list[int], list[int] | None]


def turn_layout(plies: list[Ply]) -> Layout | None:
    """Where each ply goes in a move list of one row per move number, or None for a plain list.

    Returns, a list each: every ply's grid column (2 and on: the first is
    the move number's), the number of the row it starts (0 when it continues
    a row), where every turn but the first and the last is two plies of one
    side (connect6) the ply that ends each turn (else empty), and every ply's
    row where CSS placement would not find it (else None; see below).
    Two seats: a side that moves again (a failed Phantom Go attempt, another
    dots and boxes line) starts a new row in its own column, as CSS grid
    placement puts it. Three or four seats: a row is a round, each seat once,
    whoever leads it (a bridge trick, a Dou Dizhu round): a seat left of the
    leader's goes in the leader's row, so every ply's row is given. Only the
    sides (seats) are read: no game's rules.
    """
    seats = SEAT_INDEX
    sides = [ply.side for ply in plies]
    count = len(sides)
    # Most games: two seats taking turns, the first seat's column first. Built
    # from slices: this runs for every game page.
    if count > 1 and sides[0] in seats and sides[1] in seats and seats[sides[0]] < seats[sides[1]]:
        odd, even = set(sides[0::2]), set(sides[1::2])
        if len(odd) == 1 and len(even) == 1:
            pair = [2 + seats[sides[0]], 2 + seats[sides[1]]]
            starts = [0] * count
            starts[0::2] = range(1, (count + 1) // 2 + 1)
            return pair * (count // 2) + pair[:1] * (count % 2), starts, [], None
    runs: list[int] = []
    previous = None
    for ply in plies:
        if ply.side not in seats:
            return None  # a side that is no seat: no columns to give it
        if ply.side == previous:
            runs[-1] += 1
        else:
            runs.append(1)
            previous = ply.side
    if not runs:
        return None
    paired = len(runs) > 2 and max(runs) == 2 and all(run == 2 for run in runs[1:-1])
    width = 2 if paired else 1
    columns: list[int] = []
    rows: list[int] = []
    rounds = len({ply.side for ply in plies}) > 2
    every: list[int] = []
    wrapped = False
    row, last_column, previous, within = 0, 1 << 30, None, 0
    in_row: set[str] = set()
    for ply in plies:
        within = within + 1 if paired and ply.side == previous else 0
        continues = within > 0
        previous = ply.side
        column = 2 + seats[ply.side] * width + within
        if (row == 0 or ply.side in in_row and not continues) if rounds else column <= last_column:
            row += 1
            rows.append(row)
            in_row.clear()
        else:
            rows.append(0)
            wrapped = wrapped or column <= last_column
        in_row.add(ply.side)
        every.append(row)
        columns.append(column)
        last_column = column
    ends: list[int] = []
    if paired:
        total = 0
        for run in runs:
            total += run
            ends.append(total)
    return columns, rows, ends, every if wrapped else None


def moves_html(
    plies: list[Ply],
    words: Mapping[int | None, tuple[str, str]],
    not_replayed: list[dict[str, Any]],
    ui: Mapping[str, str],
    layout: Layout | None = None,
) -> str:
    """The ``<li>`` entries of the move list: the plies, then the moves not replayed.

    ``words`` holds each MARK value's (word, CSS class). Written here rather
    than as a template loop because a build renders hundreds of thousands of
    entries and a Jinja loop costs ten times more. Every user-controlled
    value goes through ``escape``. ``layout`` is :func:`turn_layout` of the
    plies (None: a plain list in ply order).
    """
    parts: list[str] = []
    append = parts.append
    last = len(plies)
    # Most games' labels are all plain ("B(J,10)"): one search over them all
    # spares a search per move.
    all_plain = _UNSAFE.search("".join([p.label for p in plies])) is None
    alts_plain = _UNSAFE.search("".join([p.alt for p in plies])) is None
    seen: dict[tuple[str, int | None], tuple[str, str]] = {}
    # One row per move number, the sides in columns (see turn_layout); the
    # classes place each entry (static/site.css), q-r marks a row's first.
    columns, rows = (layout[0], layout[1]) if layout else ([], [])
    given = layout[3] if layout else None
    # The hot loop of every game page: plain look-ups and one f-string per move.
    for i, p in enumerate(plies):
        number, mark = p.number, p.mark
        look = (p.colour, mark)
        shown = seen.get(look)
        if shown is None:
            shown = seen[look] = _look(p.colour, *words[mark])
        head, badge = shown
        label = p.label
        if not all_plain and _UNSAFE.search(label):
            label = str(escape(label))
        current = " q-current" if number == last else ""
        n = str(number)  # formatted once, written three times
        alt = p.alt
        title = f' title="{alt if alts_plain or not _UNSAFE.search(alt) else escape(alt)}"' if alt else ""
        # No id: a deep link #ply=N must not make the browser scroll the page to the entry.
        if layout is None:
            place, shown_n = "", f'<span class="q-n">{n}.</span> '
        elif rows[i]:
            place, shown_n = f" q-c{columns[i]} q-r", f'<span class="q-n">{rows[i]}.</span>'
        else:
            place, shown_n = f" q-c{columns[i]}", ""
        if given is not None:
            current += f'" style="grid-row:{given[i]}'
        append(
            f'{head}{place}{current}" data-ply="{n}">'
            f'<a href="#ply={n}"{title}>{shown_n}<span class="q-label">{label}</span></a>{badge}</li>'
        )
    help_text = escape(ui["viewer.not_replayed_help"])
    tag = escape(ui["viewer.not_replayed"])
    for i, m in enumerate(not_replayed):
        title = f' title="{help_text}"' if i == 0 else ""
        parts.append(
            f'\n<li class="q-move q-not-replayed q-{escape(m["colour"])}"{title}><span class="q-n">{m["number"]}.</span> '
            f'<span class="q-label">{escape(m["label"])}</span> <span class="q-nr">({tag})</span></li>'
        )
    return "".join(parts)
