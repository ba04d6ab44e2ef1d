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
from typing import Any, Mapping

from markupsafe import Markup, escape

from generator.games import GameType
from generator.model import Move, Op, Ply, Replay
from generator.render.strings import LANGUAGES
from generator.scene import Position, position_after

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


def json_for_script(obj: Any) -> str:
    """JSON that is inert inside an HTML ``<script>`` element, deterministic.

    ``<``, ``>``, ``&``, U+2028 and U+2029 can only occur inside JSON strings,
    where their ``\\uXXXX`` escapes mean the same characters; so a team named
    ``</script><script>alert(1)</script>`` stays text.
    """
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    # str.replace is several times faster than str.translate on page-sized text.
    for char, escaped in _SCRIPT_ESCAPES:
        if char in text:
            text = text.replace(char, escaped)
    return text


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


def _cells_used(setup: list[Op], plies: list[Ply]) -> set[str]:
    """Cells named by any operation: the only coordinates the page needs."""
    used: set[str] = set()
    hidden = [ops for ply in plies for _, ops in ply.hidden]
    for ops in [setup, *(ply.ops for ply in plies), *hidden]:
        for op in ops:
            name = op[0]
            if name == "add":
                used.add(op[4])
            elif name in ("move", "mark"):
                used.add(op[2] if name == "move" else op[1])
            elif name == "path":
                used.update(op[1])
    return used


def _views(plies: list[Ply]) -> list[str]:
    """The views a reader can choose: the referee's (everything), then each side's.

    Empty when every ply is visible to everyone (no selector is shown).
    """
    if all(ply.visible_to is None and not ply.hidden for ply in plies):
        return []
    views: list[str] = ["referee", "first", "second"]
    for ply in plies:
        for who in ply.visible_to or ():
            if who not in views:
                views.append(who)
    return views


# Counters the engines set with ["count", key, value], in the order shown.
_COUNTERS = ("captures.first", "captures.second", "attempts.first", "attempts.second")


def _counters(plies: list[Ply], final: Position, side_names: tuple[str, str], strings: Mapping[str, str]) -> list[list[Any]]:
    """[key, label, final value] of each counter some ply sets, labelled in the page language."""
    keys = {op[1] for ply in plies for ops in [ply.ops, *(o for _, o in ply.hidden)] for op in ops if op[0] == "count"}
    shown = [key for key in _COUNTERS if key in keys] + sorted(keys.difference(_COUNTERS))
    rows = []
    for key in shown:
        what, _, side = key.partition(".")
        name = side_names[0] if side == "first" else side_names[1] if side == "second" else side
        label = _string(strings, f"viewer.count.{what}", "{side} " + what).format(side=name)
        rows.append([key, label, final.counts.get(key, 0)])
    return rows


# Note arguments that name a side ("first"/"second"), said with the page's side names.
_SIDE_ARGS = frozenset(("side", "owner", "winner", "loser", "first", "second"))


def _localised(plies: list[Ply], strings: Mapping[str, str], names: tuple[str, str]) -> list[Ply]:
    """The plies with their keyed notes said in the page's language (see :func:`generator.scene.note`).

    Plies without such notes are the same objects: most games have none.
    """
    out = plies
    for i, ply in enumerate(plies):
        # Plain loops: this runs for every ply of every game page.
        keyed = False
        for ops in (ply.ops, *(ops for _, ops in ply.hidden)) if ply.hidden else (ply.ops,):
            for op in ops:
                if op[0] == "note" and len(op) > 2:
                    keyed = True
                    break
        if not keyed:
            continue
        if out is plies:
            out = list(plies)
        out[i] = dataclasses.replace(
            ply,
            ops=_say(ply.ops, strings, names),
            hidden=[(views, _say(ops, strings, names)) for views, ops in ply.hidden],
        )
    return out


def _say(ops: list[Op], strings: Mapping[str, str], names: tuple[str, str]) -> list[Op]:
    return [_note(op, strings, names) if op[0] == "note" and len(op) > 2 else op for op in ops]


def _note(op: Op, strings: Mapping[str, str], names: tuple[str, str]) -> Op:
    """``["note", text]`` in the page's words, or the English text where the page has none."""
    _, text, key, args = op
    template = strings.get(f"note.{key}")
    if template is None:
        return ["note", text]
    values = {}
    for name, value in args.items():
        if name in _SIDE_ARGS and value in ("first", "second"):
            value = names[0] if value == "first" else names[1]
        elif isinstance(value, str) and value.startswith("kind."):  # a word with its own string
            value = strings.get(f"note.{value}", value).format(**args)
        values[name] = value
    try:
        return ["note", template.format(**values)]
    except (KeyError, IndexError, ValueError):  # a translation that names another argument
        return ["note", text]


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


def _view_label(view: str, names: tuple[str, str], strings: Mapping[str, str]) -> str:
    if view in ("first", "second"):
        side = names[0] if view == "first" else names[1]
        return _string(strings, "viewer.view.side", "{side}").format(side=side)
    return _string(strings, f"viewer.view.{view}", view)


def ui_strings(strings: Mapping[str, str]) -> dict[str, str]:
    """The viewer's own strings, from the page's (English where a key is missing)."""
    return {key: _string(strings, key) for key in STRINGS["en"]}


def viewer_context(
    game: GameType,
    replay: Replay,
    *,
    strings: Mapping[str, str],
    label: str,
    static: bool = True,
    side_names: tuple[str, str] | None = None,
) -> dict[str, Any]:
    """Everything ``templates/_viewer.html`` needs to show one replayed game.

    ``strings`` are the page's UI strings (keys as in :data:`STRINGS`),
    ``label`` the accessible name of the board, e.g. "A队 vs B队, final position";
    ``side_names`` the sides as the page names them (黑方, White ...), for the
    views and counters (English names by default).
    """
    board = game.module("board").board_for(game, replay.variant)
    names = side_names or (game.first.name_en, game.second.name_en)
    plies = _localised(replay.plies, strings, names)
    final = position_after(replay.setup, plies)
    scene = board.scene()
    used = _cells_used(replay.setup, plies)
    cells = scene["cells"]
    scene["cells"] = {cell: cells[cell] for cell in sorted(used) if cell in cells}
    views = _views(plies)
    ui = ui_strings(strings)
    words = {mark: (mark_word(mark, strings), mark_class(mark)) for mark in {p.mark for p in plies}}
    data = {
        "scene": scene,
        "setup": replay.setup,
        "plies": [_ply_data(ply) for ply in plies],
        "views": [[view, _view_label(view, names, strings)] for view in views],
        "strings": {key: ui[key] for key in _SCRIPT_KEYS},
        "marks": {str(mark): word for mark, (word, _) in words.items() if mark is not None},
    }
    last = plies[-1] if plies else None
    moves = [
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
    ]  # as _entry() makes them, with each MARK's word looked up once
    not_replayed = _not_replayed(game, replay.not_replayed, len(plies) + 1, strings)
    return {
        "label": label,
        "svg": Markup(board.svg(final, label=label, static=static)),
        "data": Markup(json_for_script(data)),
        "count": len(plies),
        "moves": moves,
        "not_replayed": not_replayed,
        "moves_html": Markup(moves_html(moves, not_replayed, ui)),
        "decision_cells": list(replay.decision.cells) if replay.decision else [],
        "views": views,
        "counters": _counters(plies, final, names, strings),
        "final_notes": list(final.notes),
        "final_mark": _entry(last.number, last.label, last.side, last.colour, last.mark, strings) if last else None,
        "strings": ui,
    }


# Labels made only of these characters need no escaping (most moves: "B(J,10)").
_PLAIN = re.compile(r"[A-Za-z0-9(),;: .+\-\[\]]*")


def moves_html(moves: list[dict[str, Any]], not_replayed: list[dict[str, Any]], ui: Mapping[str, str]) -> str:
    """The ``<li>`` entries of the move list.

    Written here rather than as a template loop because a build renders
    hundreds of thousands of entries and a Jinja loop costs ten times more.
    Every user-controlled value goes through ``escape``.
    """
    parts: list[str] = []
    last = len(moves)
    # The same few colours and MARK badges recur on every line: escape each once.
    seen: dict[tuple[str, str, str], tuple[str, str]] = {}
    for m in moves:
        n = m["number"]
        look = (m["colour"], m["mark_class"], m["mark_word"])
        if look not in seen:
            colour, cls, word = look
            badge = f' <span class="q-mark-word {escape(cls)}">{escape(word)}</span>' if word else ""
            seen[look] = (str(escape(colour)), badge)
        colour, badge = seen[look]
        label = m["label"]
        if not _PLAIN.fullmatch(label):
            label = str(escape(label))
        current = " q-current" if n == last else ""
        parts.append(
            f'\n<li class="q-move q-{colour}{current}" id="ply={n}" data-ply="{n}">'
            f'<a href="#ply={n}"><span class="q-n">{n}.</span> <span class="q-label">{label}</span></a>{badge}</li>'
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
