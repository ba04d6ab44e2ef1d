"""Damaged dots and boxes records (as tests/test_fuzz.py does for the other games): never a crash.

Each case starts from a record of the demo event (content/2025-db) and
damages it: cut off anywhere, bytes flipped or deleted, lines lost or
doubled, brackets and quotes dropped, numbers made huge or negative, keys
renamed. Every damaged file must give a game (replayed as far as it goes)
or a diagnostic, never a crash (REC-E900, FMT-E003), never a diagnostic
outside the file, and never a replay that stops without saying where.
"""

from __future__ import annotations

import hashlib
import random
import re
from pathlib import Path

import pytest

from generator import pipeline
from generator.model import Source, Text

CONTENT = Path(__file__).resolve().parents[1] / "content" / "2025-db"
CASES = 400
CRASH_CODES = {"REC-E900", "FMT-E003"}


def _seeds() -> list[bytes]:
    if not CONTENT.is_dir():
        pytest.skip("content/2025-db is not there: python benchmarks/demo_db.py")
    return [p.read_bytes() for p in sorted(CONTENT.glob("*.txt"))]


def damage(data: bytes, rng: random.Random) -> bytes:
    text = data.decode("utf-8")
    how = rng.randrange(9)
    at = rng.randrange(max(1, len(text)))
    if how == 0:
        return text[:at].encode("utf-8")
    if how == 1:
        return (text[:at] + text[at + rng.randint(1, 20) :]).encode("utf-8")
    if how == 2:
        raw = bytearray(data)
        for _ in range(rng.randint(1, 5)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        return bytes(raw)
    if how == 3:
        lines = text.splitlines(keepends=True)
        k = rng.randrange(len(lines))
        lines[k : k + 1] = [] if rng.random() < 0.5 else [lines[k], lines[k]]
        return "".join(lines).encode("utf-8")
    if how == 4:
        sign = rng.choice(['"', "{", "}", "[", "]", ",", ":", "("])
        spots = [m.start() for m in re.finditer(re.escape(sign), text)]
        if spots:
            k = rng.choice(spots)
            text = text[:k] + text[k + 1 :]
        return text.encode("utf-8")
    if how == 5:
        number = rng.choice(["99999999999999999999", "-3", "1e400", "NaN", "٣", "３"])
        return re.sub(r"(?<=[(a-f])[1-6](?=,)", number, text, count=rng.randint(1, 3)).encode("utf-8")
    if how == 6:
        return re.sub(r'"(R|B|RScore|BScore|winner|Winner|game|piece)"', lambda m: f'"{m[1]}x"', text, count=1).encode("utf-8")
    if how == 7:
        return text.replace("(", "（", rng.randint(1, 4)).replace(",", "\u3000,", 1).encode("utf-8")
    return (text[:at] + rng.choice(["\x00", "\ufeff", "\r", "null", "[]", "{}", '"piece": 5']) + text[at:]).encode("utf-8")


def test_damaged_records_never_crash_and_say_where():
    seeds = _seeds()
    rng = random.Random(20251125)
    problems = []
    for case in range(CASES):
        data = damage(rng.choice(seeds), rng)
        name = f"2025-db/case {case}.txt"
        done = pipeline.process(Source(name, data, hashlib.sha256(data).hexdigest()), encoding=None, options={})
        crash = [d for d in done.diagnostics if d.code in CRASH_CODES]
        if crash:
            problems.append(f"case {case}: {crash[0].message}")
            continue
        try:
            text = Text(name, data.decode("utf-8"), "utf-8")
        except UnicodeDecodeError:
            text = None
        for d in done.diagnostics:
            if text is not None and d.line > len(text.line_starts):
                problems.append(f"case {case}: {d.code} at line {d.line}, past the end")
        if done.replay is not None and done.replay.not_replayed:
            stop = done.replay.not_replayed[0]
            if not any((d.line, d.column) == (stop.line, stop.column) for d in done.diagnostics):
                problems.append(f"case {case}: the replay stops at line {stop.line} without a diagnostic there")
        if done.replay is None and not done.diagnostics:
            problems.append(f"case {case}: neither a game nor a diagnostic")
    assert not problems, problems[:5]
