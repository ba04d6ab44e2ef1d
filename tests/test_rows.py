"""The game tables' rows, written in Python for speed, are the markup the Jinja
loops they replaced wrote: every branch, every value escaped."""

from __future__ import annotations

import jinja2

from generator.render.pages import Attrs
from generator.render.rows import cross_games, game_rows, team_game_rows

T = Attrs(
    {
        "declared": "声明",
        "not_counted": "不计分 <b>",
        "view_game": "查看",
        "errors": 'errors "e"',
        "warnings": "warn & co",
        "players.and": "、",
    }
)

EVIL = "</script><script>alert(1)</script>"


def jinja(source: str, **context: object) -> str:
    env = jinja2.Environment(autoescape=True, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    return env.from_string(source).render(t=T, **context)


# The loops as the templates had them (templates/_games.html, team.html, event.html).
GAMES_LOOP = """\
  {% for g in rows %}
    <tr{% if g['errors'] %} class="q-has-errors"{% endif %}>
      <td class="q-nowrap">{{ g['date'] }} {{ g['time'] }}{% if g['group'] %}<br><small>{{ g['group'] }}</small>{% endif %}</td>
      <td>{{ g['game_type'] }}</td>
      <td>{% if g['first_href'] %}<a href="{{ g['first_href'] }}">{{ g['first'] }}</a>{% else %}{{ g['first'] }}{% endif %}</td>
      <td>{% if g['second_href'] %}<a href="{{ g['second_href'] }}">{{ g['second'] }}</a>{% else %}{{ g['second'] }}{% endif %}</td>
      <td>{{ g['result_word'] }}{% if not g['by_rules'] and g['result'] %} <small class="q-declared">({{ t.declared }})</small>{% endif %}{% if not g['counted'] %} <small class="q-muted">{{ t.not_counted }}</small>{% endif %}</td>
      <td>{{ g['plies'] }}</td>
      <td><a href="{{ g['href'] }}">{{ t.view_game }}</a>{% if g['errors'] %} <span class="q-badge q-error" title="{{ t.errors }}">{{ g['errors'] }}</span>{% endif %}{% if g['warnings'] %} <span class="q-badge q-warning" title="{{ t.warnings }}">{{ g['warnings'] }}</span>{% endif %}</td>
    </tr>
  {% endfor %}
"""  # noqa: E501 (the loop verbatim, long lines and all)

TEAM_LOOP = """\
  {% for g in games %}
    <tr class="q-{{ g['outcome'] }}">
      <td class="q-nowrap">{{ g['date'] }} {{ g['time'] }}</td>
      <td>{{ g['event'] }}</td>
      <td>{{ g['game_type'] }}</td>
      <td>{% if g['opponent_href'] %}<a href="{{ g['opponent_href'] }}">{{ g['opponent'] or "?" }}</a>{% else %}{{ g['opponent'] or "?" }}{% endif %}</td>
      <td>{{ g['side'] }}</td>
      <td>{{ g['outcome_word'] }}</td>
      <td>{{ g['result_word'] }}{% if not g['by_rules'] and g['result'] %} <small class="q-declared">({{ t.declared }})</small>{% endif %}</td>
      <td>{{ g['plies'] }}</td>
      <td><a href="{{ g['href'] }}">{{ t.view_game }}</a></td>
    </tr>
  {% endfor %}
"""  # noqa: E501 (the loop verbatim, long lines and all)

CROSS_LOOP = """{% for g in games %}<a href="{{ g['href'] }}" class="q-score{% if g['as_first'] %} q-as-first{% endif %}" \
title="{{ g['side'] }}">{{ g['score'] }}</a>{% endfor %}"""


def row(**changes: object) -> dict[str, object]:
    base: dict[str, object] = {
        "href": "../games/a.html",
        "game_type": "五子棋",
        "first": "甲队",
        "second": "乙队",
        "first_href": "../teams/a.html",
        "second_href": "../teams/b.html",
        "result": "first",
        "result_word": "先手胜",
        "by_rules": True,
        "date": "2025-08-01",
        "time": "09:00",
        "plies": 41,
        "group": "",
        "errors": 0,
        "warnings": 0,
        "counted": True,
        "event": "2025 锦标赛",
        "opponent": "乙队",
        "opponent_href": "../teams/b.html",
        "side": "先手",
        "outcome": "win",
        "outcome_word": "胜",
        "sides": None,
    }
    base.update(changes)
    return base


ROWS = [
    row(),
    row(errors=2, warnings=1, group="A组/第1轮"),
    row(by_rules=False, counted=False, first_href=None, second_href=None, opponent_href=None, opponent=None),
    row(first=EVIL, second='"><img src=x>', event=EVIL, group=EVIL, date="2025-08-01 & 02", href="a.html?x='1'"),
    row(first=EVIL, second=EVIL, result=None, result_word="未知", by_rules=False, plies=0, outcome="none", outcome_word=""),
]


def test_game_rows_are_the_markup_of_the_template_loop() -> None:
    assert f"{game_rows(ROWS, T)}\n" == jinja(GAMES_LOOP, rows=ROWS)
    assert "<script>alert(1)" not in game_rows(ROWS, T)


def test_team_rows_are_the_markup_of_the_template_loop() -> None:
    assert f"{team_game_rows(ROWS, T)}\n" == jinja(TEAM_LOOP, games=ROWS)


def test_the_players_of_a_game_of_more_seats_are_each_linked_and_escaped() -> None:
    sides = ((("甲队", "../teams/a.html"),), ((EVIL, None), ("丙队", "x.html?a=1&b=2")))
    more = row(sides=sides, opponents=sides[1])
    cells = game_rows([more], T).split("\n")
    assert cells[3] == '      <td><a href="../teams/a.html">甲队</a></td>'
    assert cells[4] == (
        "      <td>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;、"
        '<a href="x.html?a=1&amp;b=2">丙队</a></td>'
    )
    # On a team page: every opponent, the same way.
    assert cells[4] in team_game_rows([more], T).split("\n")
    # Two-seat rows stay the template loop's (above), whatever the other rows are.
    assert game_rows([more, row()], T).endswith(game_rows([row()], T))


def test_crosstable_links_are_the_markup_of_the_template_loop() -> None:
    games = [
        {"href": "../games/a.html", "as_first": True, "side": "先手", "score": 1},
        {"href": "../games/b.html", "as_first": False, "side": EVIL, "score": 0.5},
        {"href": "x.html?a=1&b=2", "as_first": False, "side": "后手", "score": "½"},
    ]
    assert cross_games(games) == jinja(CROSS_LOOP, games=games)
    assert cross_games([]) == ""


class _Html:
    def __html__(self) -> str:
        return "<i>safe</i>"


# Values as templates write them: plain and hostile strings, numbers, None, Markup, objects with __html__.
VALUES = [
    "", "甲队", EVIL, "a & b", "it's", 'say "hi"', 3, -1, 2.5, True, None, jinja2.utils.markupsafe.Markup("<b>ok</b>"), _Html()
]


def test_the_sites_templates_write_every_value_as_markupsafe_escapes_it() -> None:
    from markupsafe import escape

    from generator.render.env import make_env

    source = "{% for v in values %}[{{ v }}]{% endfor %}|{% set s %}{{ values[2] }}{% endset %}{{ s }}|{{ values[2]|e }}"
    ours = make_env().from_string(source).render(values=VALUES)
    plain = jinja(source, values=VALUES)
    assert ours == plain
    assert ours.startswith("".join(f"[{escape(v)}]" for v in VALUES))
    assert EVIL not in ours
