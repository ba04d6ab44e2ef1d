"""The chart of a match's running totals: what it draws, read back from its SVG."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from generator.render import chart


def polylines(svg: str) -> list[list[tuple[float, float]]]:
    return [
        [tuple(map(float, pair.split(","))) for pair in points.split()]  # type: ignore[misc]
        for points in re.findall(r'<polyline points="([^"]+)"', svg)
    ]


def test_each_team_is_one_line_from_zero_through_its_total_after_every_game() -> None:
    svg = chart.running_chart([chart.Series("A", (150, 250, -50)), chart.Series("B", (-150, -250, 50))], "chips")
    ET.fromstring(svg)  # well-formed
    a, b = polylines(svg)
    assert len(a) == len(b) == 4  # the start, then three hands
    assert a[0][1] == b[0][1]  # both start at zero
    # Higher totals are drawn higher (smaller y); the lines cross where the totals do.
    assert a[2][1] < a[1][1] < a[0][1] < a[3][1] and b[3][1] < b[0][1]
    xs = [x for x, _ in a]
    assert xs == sorted(xs) and len(set(xs)) == 4


def test_ticks_are_round_and_cover_every_value() -> None:
    assert chart.nice_ticks(-300, 250) == [-300, -200, -100, 0, 100, 200, 300]
    assert chart.nice_ticks(0, 3) == [0, 0.5, 1, 1.5, 2, 2.5, 3]
    ticks = chart.nice_ticks(-1234, 20000)
    assert ticks[0] <= -1234 and ticks[-1] >= 20000 and 0 in ticks


def test_names_are_escaped_and_the_chart_is_labelled_for_screen_readers() -> None:
    svg = chart.running_chart([chart.Series('<script>alert("x")</script>', (1, 2))], 'A & "B"')
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    root = ET.fromstring(svg)
    assert root.get("role") == "img" and root.get("aria-label") == 'A & "B"'


def test_a_long_match_labels_about_ten_round_game_numbers() -> None:
    svg = chart.running_chart([chart.Series("A", tuple(range(70)))], "seventy hands")
    labels = [int(t) for t in re.findall(r'class="q-chart-tick">(\d+)</text>', svg.split("</line>")[-1])]
    assert 0 < len([n for n in labels if n <= 70]) <= 20
