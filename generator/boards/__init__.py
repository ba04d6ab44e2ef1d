"""Boards: SVG drawings of the positions of each family of games.

What every board shares (pieces as symbols placed with ``<use>``, marks,
paths, coordinate labels, the viewer's scene) is :class:`generator.boards.base.Board`;
piece drawings are :mod:`generator.boards.symbols`. A board's static drawing
(its symbols, grid, star points, labels: the same on every page of that
board) is made with svgwrite on first use and kept here under a key naming
the board. The build keeps these drawings in its state (:func:`drawings`,
:func:`remember`): importing svgwrite takes longer than a quick rebuild that
re-renders one game page.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

_DRAWINGS: dict[str, str] = {}
# Stands for the static drawing in an SVG made with ``static=False``.
STATIC_MARK = "<!--q-board-->"


def static_drawing(key: str, draw: Callable[[], str]) -> str:
    """The static drawing of the board ``key`` names, drawn by ``draw`` the first time."""
    drawing = _DRAWINGS.get(key)
    if drawing is None:
        drawing = _DRAWINGS[key] = draw()
    return drawing


def drawings() -> dict[str, str]:
    """Every static drawing made or remembered in this process."""
    return dict(_DRAWINGS)


def remember(known: Mapping[str, str]) -> None:
    """Drawings a previous build made with this same code."""
    _DRAWINGS.update(known)
