"""Damaged PBN records never crash a build (the damages of tests/test_fuzz.py, on bridge files).

The demo's event and the corpus's real files, damaged one way or another
(truncation, flipped bytes, lost lines and moves, NUL bytes, huge numbers,
full-width brackets, GBK in UTF-8 ...), go through the pipeline board by
board: no "bug in Qipu" diagnostic, no position outside the file, no replay
that stops without a diagnostic at that move. (The damages that rewrite
points in a family's own syntax do not know PBN and are left out.)
"""

from __future__ import annotations

import pytest
import test_fuzz as tf
from conftest import CORPUS, DEMO_CONTENT

CASES = 300


def starts() -> list[tuple[str, bytes]]:
    found = [(f"2025-br/{p.name}", p.read_bytes()) for p in sorted((DEMO_CONTENT / "2025-br").glob("*.pbn"))[:4]]
    if (CORPUS / "BR").is_dir():  # the files in ASCII or close to it (the 8-bit ones need their site.toml setting)
        found += [
            (f"BR/{p.name}", p.read_bytes())
            for p in sorted((CORPUS / "BR").iterdir())
            if p.name[:5] in ("BR_01", "BR_04", "BR_05", "BR_06")
        ]
    return found


def test_damaged_bridge_records_never_crash() -> None:
    records = starts()
    if not records:
        pytest.skip("no bridge records: python benchmarks/demo_br.py")
    failed, kinds = tf.damage_files("BR", records, CASES)
    assert not failed, failed[:3]
    assert len(kinds) >= len(tf.KINDS) - 4, sorted(set(tf.KINDS) - set(kinds))
