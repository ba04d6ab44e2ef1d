"""The rows of the game tables on the home, event and team pages, written in Python.

An event page lists all its games and a team page every game the team
played: thirty thousand rows in an archive of ten thousand games. Written as
a Jinja loop, with a dozen values escaped on every row, they took most of
the time of all the pages besides the game pages. The markup is the one the
templates wrote (``_games.html``, ``team.html`` call these); every value goes
through ``escape()``, once per distinct value on a page, as the same team
names, dates and words recur row after row.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from markupsafe import Markup, escape

# The characters markupsafe.escape replaces: a string without them is its own
# escape (most values have none).
_special = re.compile("[&<>\"']").search


def escaped(value: Any) -> str:
    """The text of ``markupsafe.escape(value)``, without making a Markup where nothing changes.

    A string with none of ``& < > " '`` and an integer are written as they
    are; anything else goes to markupsafe (a Markup comes back). The
    templates' own output uses it too (render/env.py).
    """
    kind = type(value)
    if kind is str:
        return value if _special(value) is None else escape(value)
    if kind is int:
        return str(value)
    return escape(value)


def format_number(value: float) -> str:
    """Points and tie-breaks: ``3`` not ``3.0``, ``2.5`` stays."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _escaper() -> Callable[[Any], str]:
    """:func:`escaped` for the values of one table, the escaped ones remembered:
    the same team names and words recur row after row."""
    memo: dict[Any, str] = {}

    def esc(value: Any) -> str:
        kind = type(value)
        if kind is str and _special(value) is None:
            return value
        if kind is int:
            return str(value)
        text = memo.get(value)
        if text is None:
            text = memo[value] = escaped(value)
        return text

    return esc


def _link(esc: Callable[[Any], str], href: str | None, text: Any) -> str:
    return f'<a href="{esc(href)}">{esc(text)}</a>' if href else esc(text)


def _links(esc: Callable[[Any], str], teams: Iterable[tuple[str, str | None]], between: str) -> str:
    """Several teams in one cell (a game of more seats), each linked to its page."""
    return between.join(_link(esc, href, name) for name, href in teams)


def _result(esc: Callable[[Any], str], g: Mapping[str, Any], declared: str) -> str:
    """A row's result, marked "declared" when the rules did not decide it."""
    result = esc(g["result_word"])
    return result + declared if not g["by_rules"] and g["result"] else result


def game_rows(rows: Iterable[Mapping[str, Any]], t: Any) -> Markup:
    """The ``<tr>`` lines of a game table (rows from ``pages.game_row``); ``t``: the page strings.

    No newline after the last row: the template's line adds it.
    """
    esc = _escaper()
    declared = f' <small class="q-declared">({esc(t["declared"])})</small>'
    not_counted = f' <small class="q-muted">{esc(t["not_counted"])}</small>'
    view = esc(t["view_game"])
    errors_title, warnings_title = esc(t["errors"]), esc(t["warnings"])
    between = esc(t["players.and"])
    lines = []
    for g in rows:
        errors, warnings = g["errors"], g["warnings"]
        group = f"<br><small>{esc(g['group'])}</small>" if g["group"] else ""
        result = _result(esc, g, declared)
        if not g["counted"]:
            result += not_counted
        badges = ""
        if errors:
            badges += f' <span class="q-badge q-error" title="{errors_title}">{esc(errors)}</span>'
        if warnings:
            badges += f' <span class="q-badge q-warning" title="{warnings_title}">{esc(warnings)}</span>'
        flagged = ' class="q-has-errors"' if errors else ""
        sides = g["sides"]
        if sides is None:
            first, second = _link(esc, g["first_href"], g["first"]), _link(esc, g["second_href"], g["second"])
        else:  # a game of more seats: the first seat and its partners, then the others
            first, second = _links(esc, sides[0], between), _links(esc, sides[1], between)
        lines.append(
            f"    <tr{flagged}>\n"
            f'      <td class="q-nowrap">{esc(g["date"])} {esc(g["time"])}{group}</td>\n'
            f"      <td>{esc(g['game_type'])}</td>\n"
            f"      <td>{first}</td>\n"
            f"      <td>{second}</td>\n"
            f"      <td>{result}</td>\n"
            f"      <td>{esc(g['plies'])}</td>\n"
            f'      <td><a href="{esc(g["href"])}">{view}</a>{badges}</td>\n'
            "    </tr>"
        )
    return Markup("\n".join(lines))


def team_game_rows(rows: Iterable[Mapping[str, Any]], t: Any) -> Markup:
    """The ``<tr>`` lines of a team's game table (rows from ``pages.team``); ``t``: the page strings."""
    esc = _escaper()
    declared = f' <small class="q-declared">({esc(t["declared"])})</small>'
    view = esc(t["view_game"])
    lines = []
    for g in rows:
        result = _result(esc, g, declared)
        opponents = g.get("opponents")
        if opponents:  # a game of more seats: every opponent, each linked
            opponent = _links(esc, opponents, esc(t["players.and"]))
        else:
            opponent = _link(esc, g["opponent_href"], g["opponent"] or "?")
        lines.append(
            f'    <tr class="q-{esc(g["outcome"])}">\n'
            f'      <td class="q-nowrap">{esc(g["date"])} {esc(g["time"])}</td>\n'
            f"      <td>{esc(g['event'])}</td>\n"
            f"      <td>{esc(g['game_type'])}</td>\n"
            f"      <td>{opponent}</td>\n"
            f"      <td>{esc(g['side'])}</td>\n"
            f"      <td>{esc(g['outcome_word'])}</td>\n"
            f"      <td>{result}</td>\n"
            f"      <td>{esc(g['plies'])}</td>\n"
            f'      <td><a href="{esc(g["href"])}">{view}</a></td>\n'
            "    </tr>"
        )
    return Markup("\n".join(lines))


def cross_games(games: Iterable[Mapping[str, Any]]) -> Markup:
    """The game links in one cell of a crosstable (``pages._table`` cells): twice as many as the games."""
    esc = _escaper()
    return Markup(
        "".join(
            f'<a href="{esc(g["href"])}" class="q-score{" q-as-first" if g["as_first"] else ""}" '
            f'title="{esc(g["side"])}">{esc(g["score"])}</a>'
            for g in games
        )
    )
