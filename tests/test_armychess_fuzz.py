"""Damaged army chess records never crash a build (the damages of tests/test_fuzz.py, on AC2 files).

The demo's event and the corpus's real files, damaged one way or another
(truncation, flipped bytes, lost lines, NUL bytes, huge numbers, full-width
brackets, GBK in UTF-8 ...), go through the pipeline: no "bug in Qipu"
diagnostic, no position outside the file, no replay that stops without a
diagnostic at that move.
"""

from __future__ import annotations

import pytest
import test_fuzz as tf
from conftest import CORPUS, DEMO_CONTENT

CASES = 300


def starts() -> list[tuple[str, bytes]]:
    folder = DEMO_CONTENT / "2025-ac2"
    found = [(f"2025-ac2/{p.name}", p.read_bytes()) for p in sorted(folder.iterdir())] if folder.is_dir() else []
    if (CORPUS / "AC2").is_dir():
        found += [(f"AC2/{p.name}", p.read_bytes()) for p in sorted((CORPUS / "AC2").iterdir())]
    return found


def test_damaged_army_chess_records_never_crash() -> None:
    records = starts()
    if not records:
        pytest.skip("no army chess records: python benchmarks/demo_ac2.py")
    failed, kinds = tf.damage_files("AC2", records, CASES)
    assert not failed, failed[:3]
    assert len(kinds) >= len(tf.KINDS) - 4, sorted(set(tf.KINDS) - set(kinds))
