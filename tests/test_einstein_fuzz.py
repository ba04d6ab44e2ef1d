"""Damaged WTN records never crash a build (the damages of tests/test_fuzz.py, on EinStein files).

The demo's match files and the corpus's real files, damaged one way or
another (truncation, flipped bytes, lost lines and moves, NUL bytes, huge
numbers, full-width brackets, GBK in UTF-8 ...), go through the pipeline game
by game: no "bug in Qipu" diagnostic, no position outside the file, no
replay that stops without a diagnostic at that move. (The damages that
rewrite points in another family's syntax do not apply and are left out.)
"""

from __future__ import annotations

import pytest
import test_fuzz as tf
from conftest import CORPUS, DEMO_CONTENT

CASES = 400


def starts() -> list[tuple[str, bytes]]:
    found = [(f"2025-wtn/{p.name}", p.read_bytes()) for p in sorted((DEMO_CONTENT / "2025-wtn").glob("*.txt"))]
    if (CORPUS / "WTN").is_dir():
        found += [(f"WTN/WTN-{p.name}", p.read_bytes()) for p in sorted((CORPUS / "WTN").iterdir())]
    return found


def test_damaged_einstein_records_never_crash() -> None:
    records = starts()
    if not records:
        pytest.skip("no EinStein records: python benchmarks/demo_wtn.py")
    failed, kinds = tf.damage_files("WTN", records, CASES)
    assert not failed, failed[:3]
    assert len(kinds) >= len(tf.KINDS) - 4, sorted(set(tf.KINDS) - set(kinds))
