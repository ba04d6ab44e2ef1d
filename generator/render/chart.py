"""A line chart of running totals, drawn as SVG in the page: how a match went, game by game.

People would rather look at a session of seventy hold'em hands, or of a
dozen Dou Dizhu deals, than read seventy lines: the chart draws each team's
total after every game (chips, points, games won), one line per team, with
the zero line, a few round ticks on each axis and a legend. It is plain
SVG written here, with no JavaScript, so that it shows from ``file://``,
prints, and reads without scripts; every name in it is escaped.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from generator.boards.base import num

# Colours of the lines, one per team in seat order: told apart without
# relying on hue alone, each also has its own dash pattern.
COLOURS = ("#1f6fb2", "#c0392b", "#2e8b57", "#8e44ad", "#b9770e", "#555555")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "4 4", "1 2")

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 14, 34  # room for the tick labels
LEGEND_ROW = 20


@dataclass(frozen=True, slots=True)
class Series:
    """One team's line: its name and its total after each game."""

    name: str
    totals: tuple[float, ...]


def nice_ticks(low: float, high: float, most: int = 6) -> list[float]:
    """Round values from at most ``low`` to at least ``high``: the fewest-step round scale with at most ``most`` + 1 ticks."""
    if high <= low:
        high = low + 1
    power = 10 ** math.floor(math.log10((high - low) / max(1, most)))
    for step in (m * power for m in (1, 2, 2.5, 5, 10, 20, 25, 50, 100)):
        first, last = math.floor(low / step + 1e-9), math.ceil(high / step - 1e-9)
        if last - first <= most:
            break
    return [round(n * step, 10) for n in range(first, last + 1)]


def running_chart(series: Sequence[Series], label: str, x_label: str = "") -> str:
    """The SVG of the running totals: ``label`` names it for screen readers (and shows on hover)."""
    games = max((len(s.totals) for s in series), default=0)
    values = [v for s in series for v in s.totals] + [0.0]
    ticks = nice_ticks(min(values), max(values))
    low, high = ticks[0], ticks[-1]
    legend_rows = math.ceil(len(series) / 3)
    height = HEIGHT + legend_rows * LEGEND_ROW
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(game: int) -> float:  # game 0 is the start, before any game
        return LEFT + plot_w * game / max(1, games)

    def y(value: float) -> float:
        return TOP + plot_h * (high - value) / (high - low)

    parts = [
        f'<svg class="q-chart" viewBox="0 0 {WIDTH} {height}" role="img" aria-label="{escape(label)}" '
        f'xmlns="http://www.w3.org/2000/svg"><title>{escape(label)}</title>',
        f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="#fff" stroke="#bbb"/>',
    ]
    for tick in ticks:
        ty = num(y(tick))
        stroke = "#777" if tick == 0 else "#e3e3e3"
        parts.append(f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{ty}" y2="{ty}" stroke="{stroke}"/>')
        parts.append(
            f'<text x="{LEFT - 6}" y="{ty}" text-anchor="end" dominant-baseline="middle" class="q-chart-tick">{num(tick)}</text>'
        )
    for game in _x_ticks(games):
        gx = num(x(game))
        parts.append(f'<text x="{gx}" y="{TOP + plot_h + 16}" text-anchor="middle" class="q-chart-tick">{game}</text>')
    if x_label:
        parts.append(
            f'<text x="{LEFT + plot_w}" y="{TOP + plot_h + 30}" text-anchor="end" class="q-chart-tick">{escape(x_label)}</text>'
        )
    for i, s in enumerate(series):
        colour, dash = COLOURS[i % len(COLOURS)], DASHES[i % len(DASHES)]
        points = " ".join(f"{num(x(g))},{num(y(v))}" for g, v in enumerate((0.0, *s.totals)))
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"{dashed} class="q-chart-line">'
            f"<title>{escape(s.name)}</title></polyline>"
        )
        lx, ly = LEFT + (i % 3) * (plot_w / 3), HEIGHT + (i // 3) * LEGEND_ROW + 4
        parts.append(
            f'<line x1="{num(lx)}" x2="{num(lx + 24)}" y1="{num(ly)}" y2="{num(ly)}" stroke="{colour}" stroke-width="2"{dashed}/>'
            f'<text x="{num(lx + 30)}" y="{num(ly)}" dominant-baseline="middle" class="q-chart-legend">{escape(s.name)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _x_ticks(games: int) -> list[int]:
    """Game numbers to label under the chart: every one when few, else about ten round ones."""
    if games <= 12:
        return list(range(1, games + 1))
    step = int(nice_ticks(0, games, 10)[1])
    return list(range(step, games + 1, step))
