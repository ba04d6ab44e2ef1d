"""Damaged hold'em match files never crash a build (the damages of tests/test_fuzz.py, on THP files).

The demo's match files and the head of each real ACPC dealer log (its first
40 lines: the comment header and the first hands), damaged one way or
another (truncation, flipped bytes, lost lines and moves, NUL bytes, huge
numbers, full-width characters, GBK in UTF-8 ...), go through the pipeline
hand by hand: no "bug in Qipu" diagnostic, no position outside the file, no
replay that stops without a diagnostic at that action.
"""

from __future__ import annotations

import pytest
import test_fuzz as tf
from conftest import CORPUS, DEMO_CONTENT

CASES = 200


def starts() -> list[tuple[str, bytes]]:
    folder = DEMO_CONTENT / "2025-thp"
    found = [(f"2025-thp/{p.name}", p.read_bytes()) for p in sorted(folder.iterdir())] if folder.is_dir() else []
    if (CORPUS / "THP").is_dir():
        for p in sorted((CORPUS / "THP").iterdir()):
            head = b"".join(p.read_bytes().splitlines(keepends=True)[:40])
            found.append((f"THP/THP-{p.name}", head))
    return found


def test_damaged_holdem_records_never_crash() -> None:
    records = starts()
    if not records:
        pytest.skip("no hold'em records: python benchmarks/demo_thp.py")
    failed, kinds = tf.damage_files("THP", records, CASES)
    assert not failed, failed[:3]
    assert len(kinds) >= len(tf.KINDS) - 4, sorted(set(tf.KINDS) - set(kinds))
