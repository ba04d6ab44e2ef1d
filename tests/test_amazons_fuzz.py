"""Damaged Amazons records never crash a build (the damages of tests/test_fuzz.py, on AM files).

The demo's event and the corpus's real files, damaged one way or another
(truncation, flipped bytes, lost lines and moves, NUL bytes, huge numbers,
full-width brackets, GBK in UTF-8 ...), go through the pipeline game by
game: no "bug in Qipu" diagnostic, no position outside the file, no replay
that stops without a diagnostic at that move. (The damages that rewrite
points in a family's own syntax do not know Amazons and are left out.)
"""

from __future__ import annotations

import pytest
import test_fuzz as tf
from conftest import CORPUS, DEMO_CONTENT

CASES = 400


def starts() -> list[tuple[str, bytes]]:
    found = [(f"2025-am/{p.name}", p.read_bytes()) for p in sorted((DEMO_CONTENT / "2025-am").glob("*.txt"))]
    if (CORPUS / "AM").is_dir():
        found += [(f"AM/{p.name}", p.read_bytes()) for p in sorted((CORPUS / "AM").iterdir())]
    return found


def test_damaged_amazons_records_never_crash() -> None:
    records = starts()
    if not records:
        pytest.skip("no Amazons records: python benchmarks/demo_am.py")
    failed, kinds = tf.damage_files("AM", records, CASES)
    assert not failed, failed[:3]
    assert len(kinds) >= len(tf.KINDS) - 4, sorted(set(tf.KINDS) - set(kinds))

