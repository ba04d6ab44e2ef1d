"""Shared test helpers: the shared corpus (optional), demo content, small records."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"
DEMO_CONTENT = REPO / "content"


@pytest.fixture
def corpus() -> Path:
    """The shared corpus of real records; tests using it skip where it is absent."""
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is not present (it is not part of a user's clone)")
    return CORPUS


def unavailable(message: str) -> None:
    """A test dependency is missing: skip, saying how to install it; under CI (CI=true) fail instead."""
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(autouse=True)
def _no_proxy_env(monkeypatch: pytest.MonkeyPatch) -> None:
    # Builds in tests must not depend on the developer's working directory.
    monkeypatch.setenv("PYTHONHASHSEED", os.environ.get("PYTHONHASHSEED", "0"))


def red_blue(code: str):  # -> GameType
    """A red-and-blue game like HEX, built here so that tests do not depend on
    which codes the registry holds: colour words must come from the entry."""
    from generator.games import GameType, Side

    return GameType(
        code=code,
        name_zh="海克斯",
        name_en="Hex",
        format="brace",
        rules="none",
        board="none",
        first=Side("R", "red", "红方", "Red"),
        second=Side("B", "blue", "蓝方", "Blue"),
        columns=11,
        rows=11,
    )


def c5_record(
    first: str, second: str, result: str, moves: str, when: str = "2025.08.02 10:00 合肥", event: str = "测试赛"
) -> str:
    return f"{{[C5][{first} B][{second} W][{result}][{when}][{event}];{moves}}}"


# Black makes five on row 8 from H to L; White plays above.
C5_BLACK_FIVE = "B(H,8);W(H,9);B(I,8);W(I,9);B(J,8);W(J,9);B(K,8);W(K,9);B(L,8)"


_BRACE_ENTRY = re.compile(r"([A-Za-z]?)\((\w+),(-?\d+)\)(?:MARK\[(-?\d+)\])?")


def brace_moves(text: str, line: int = 1) -> list:  # -> list[Move]
    """Moves from the ``;``-separated ``B(H,8)MARK[1]`` entries of one line.

    Each move's column is where it starts in ``text``, so tests can check that
    a diagnostic points at the right entry. ``?`` stands for an unreadable move.
    """
    from generator.model import Move

    moves = []
    column = 1
    for entry in text.split(";"):
        m = _BRACE_ENTRY.fullmatch(entry)
        if m is None:
            moves.append(Move(entry[:1], entry, None, line, column))
        else:
            side, col, row, mark = m.groups()
            moves.append(Move(side, f"{side}({col},{row})", (col, int(row)), line, column, int(mark) if mark else None))
        column += len(entry) + 1
    return moves


def pool_records(tmp_path_factory: pytest.TempPathFactory, seed: int) -> Path:
    """A folder of generated records, enough for the build to start its workers (POOL_THRESHOLD + 40)."""
    import sys

    from generator.build import POOL_THRESHOLD

    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import make_records
    finally:
        sys.path.pop(0)
    content = tmp_path_factory.mktemp("records") / "content"
    make_records.write_bench(POOL_THRESHOLD + 40, content, seed=seed, jobs=1)
    return content
