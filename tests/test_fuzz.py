"""Fuzzing the readers and engines with damaged records of every game.

Every case starts from a valid record of the demo archive (``content/``; the
GO and GO13 records are its GO9 records rewritten for those boards), damages
it one way or several (truncation, flipped and inserted bytes, lost and
doubled lines and moves, control characters, NUL bytes, BOMs in the middle,
CR-only line ends, huge, negative and non-ASCII numbers, very long lines,
empty files, headers or moves alone, GBK bytes in UTF-8, another game's
code, unbalanced brackets ...) and drives it through
:func:`generator.pipeline.process`, as a build does. Every damaged file must
give a replayed game or at least one diagnostic, and never a crash: no
exception, no REC-E900 or FMT-E003 (the pipeline's and the readers' "bug in
Qipu"), no diagnostic whose line and column lie outside the file, no
point read from digits other than ASCII (or full-width, which SU reads with
a note), and no replay that stops without a diagnostic at that move.

A case depends only on the seed and its number; the time budget decides only
how many cases a run makes. A failure names the case, so
``damaged(number)`` rebuilds it. The default run takes about ten seconds; the
long run is marked ``fuzz_long`` and prints its counts with ``-rP``::

    python -m pytest -m fuzz_long tests/test_fuzz.py -rP

``QIPU_FUZZ_SEED`` picks other cases, ``QIPU_FUZZ_CASES`` the long run's
number of cases, ``QIPU_FUZZ_SECONDS`` the default run's budget.
"""

from __future__ import annotations

import codecs
import functools
import json
import os
import random
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from markupsafe import escape

from generator import decode, games
from generator.diagnostics import Diagnostic
from generator.model import Source
from generator.pipeline import Processed, process, sha256

REPO = Path(__file__).resolve().parents[1]
CONTENT = REPO / "content"

SEED = int(os.environ.get("QIPU_FUZZ_SEED", "20251122"))
BUDGET = float(os.environ.get("QIPU_FUZZ_SECONDS", "10"))
LONG_CASES = int(os.environ.get("QIPU_FUZZ_CASES", "30000"))

CODES = ("C5", "C6", "SU", "GO", "GO13", "GO9", "NG", "PG", "HEX")
OPTIONS = {code: games.get(code).options for code in CODES}  # type: ignore[union-attr]
# Diagnostics that say Qipu itself failed: each one is a bug.
CRASH_CODES = {"REC-E900", "FMT-E003"}


# -- the valid records we start from -------------------------------------------


@dataclass(frozen=True, slots=True)
class Seed:
    code: str
    path: str  # as the site names it: "2025-c5/C5-….txt"
    data: bytes


def _text(data: bytes) -> tuple[str, str]:
    """The text of a record and the codec that gives its bytes back (the BOM kept).

    Bytes that do not decode are kept as surrogate escapes, so that damage
    already done survives the next one.
    """
    if data.startswith(codecs.BOM_UTF8):
        return data[3:].decode("utf-8", "surrogateescape"), "utf-8-sig"
    for codec in ("utf-8", "gb18030"):
        try:
            return data.decode(codec), codec
        except UnicodeDecodeError:
            continue
    return data.decode("utf-8", "surrogateescape"), "utf-8"


def _bytes(text: str, codec: str) -> bytes:
    return text.encode(codec, "surrogateescape")


def _go_from_go9(seed: Seed, code: str) -> Seed:
    """A GO9 record rewritten as GO13 (same points) or GO (rows as letters, "(;[GO]")."""
    text, codec = _text(seed.data)
    if code == "GO13":
        text = text.replace("[GO9]", "[GO13]").replace("(GO9)", "(GO13)")
    else:
        text = text.replace("([GO9]", "(;[GO]").replace("(GO9)", "(GO)")
        text = re.sub(r"([BW])\[([A-I])([1-9])\]", lambda m: f"{m[1]}[{m[2]}{chr(64 + int(m[3]))}]", text)
    folder, _, name = seed.path.rpartition("/")
    name = code + name.removeprefix("GO9")
    return Seed(code, f"{folder.replace('go9', code.lower())}/{name}", _bytes(text, codec))


@functools.cache
def seeds() -> dict[str, tuple[Seed, ...]]:
    """The demo archive's records by game code, sorted by path (so the cases are stable)."""
    found: dict[str, list[Seed]] = {code: [] for code in CODES}
    for path in sorted(CONTENT.rglob("*.txt")):
        code = path.name.split("-", 1)[0].upper()
        if code in found:
            found[code].append(Seed(code, path.relative_to(CONTENT).as_posix(), path.read_bytes()))
    for code in ("GO13", "GO"):
        found[code] = [_go_from_go9(s, code) for s in found["GO9"]]
    assert all(found.values()), {code: len(s) for code, s in found.items()}
    return {code: tuple(s) for code, s in found.items()}


# -- ways to damage a record -----------------------------------------------------


@dataclass(slots=True)
class Case:
    number: int
    code: str
    kind: str
    path: str
    data: bytes
    steps: list[str] = field(default_factory=list)  # the kinds applied (a combination has several)

    def describe(self) -> str:
        shown = self.data[:160] + (b"..." if len(self.data) > 160 else b"")
        return f"case {self.number} ({self.code}, {'+'.join(self.steps)}) {self.path}: {shown!r}"


Damage = Callable[[random.Random, Case], None]
DAMAGES: dict[str, Damage] = {}


def damage(kind: str) -> Callable[[Damage], Damage]:
    def register(fn: Damage) -> Damage:
        DAMAGES[kind] = fn
        return fn

    return register


def _on_text(case: Case, change: Callable[[str], str]) -> None:
    text, codec = _text(case.data)
    case.data = _bytes(change(text), codec)


def _spot(rng: random.Random, size: int) -> int:
    return rng.randrange(size + 1)


def _insert(rng: random.Random, text: str, piece: str) -> str:
    at = _spot(rng, len(text))
    return text[:at] + piece + text[at:]


@damage("truncate")
def _truncate(rng: random.Random, case: Case) -> None:
    case.data = case.data[: _spot(rng, len(case.data))]


@damage("flip-bits")
def _flip(rng: random.Random, case: Case) -> None:
    data = bytearray(case.data)
    for _ in range(rng.randint(1, 8)):
        if data:
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    case.data = bytes(data)


@damage("insert-bytes")
def _insert_bytes(rng: random.Random, case: Case) -> None:
    for _ in range(rng.randint(1, 6)):
        at = _spot(rng, len(case.data))
        case.data = case.data[:at] + rng.randbytes(rng.randint(1, 12)) + case.data[at:]


@damage("delete-bytes")
def _delete_bytes(rng: random.Random, case: Case) -> None:
    for _ in range(rng.randint(1, 4)):
        at = _spot(rng, len(case.data))
        case.data = case.data[:at] + case.data[at + rng.randint(1, 24) :]


def _lines(rng: random.Random, case: Case, edit: Callable[[list[str], int, int], None]) -> None:
    def change(text: str) -> str:
        lines = text.splitlines(keepends=True) or [""]
        edit(lines, rng.randrange(len(lines)), rng.randrange(len(lines)))
        return "".join(lines)

    _on_text(case, change)


@damage("delete-line")
def _delete_line(rng: random.Random, case: Case) -> None:
    _lines(rng, case, lambda lines, i, _: lines.pop(i))


@damage("duplicate-line")
def _duplicate_line(rng: random.Random, case: Case) -> None:
    _lines(rng, case, lambda lines, i, j: lines.insert(j, lines[i]))


@damage("swap-lines")
def _swap_lines(rng: random.Random, case: Case) -> None:
    def swap(lines: list[str], i: int, j: int) -> None:
        lines[i], lines[j] = lines[j], lines[i]

    _lines(rng, case, swap)


def _moves(rng: random.Random, case: Case, edit: Callable[[list[str], int, int], None]) -> None:
    """Edit the moves: lines in SU, the pieces between ";" elsewhere (header kept first)."""
    if games.get(case.code).format == "su":  # type: ignore[union-attr]
        _lines(rng, case, edit)
        return

    def change(text: str) -> str:
        pieces = text.split(";")
        if len(pieces) > 2:
            body = pieces[1:]
            edit(body, rng.randrange(len(body)), rng.randrange(len(body)))
            pieces[1:] = body
        return ";".join(pieces)

    _on_text(case, change)


@damage("delete-move")
def _delete_move(rng: random.Random, case: Case) -> None:
    _moves(rng, case, lambda moves, i, _: moves.pop(i))


@damage("duplicate-move")
def _duplicate_move(rng: random.Random, case: Case) -> None:
    _moves(rng, case, lambda moves, i, j: moves.insert(j, moves[i]))


@damage("swap-moves")
def _swap_moves(rng: random.Random, case: Case) -> None:
    def swap(moves: list[str], i: int, j: int) -> None:
        moves[i], moves[j] = moves[j], moves[i]

    _moves(rng, case, swap)


# C0 controls, DEL, NEL, the Unicode line and paragraph separators, zero-width
# and bidi marks: several of them end a line for str.splitlines() but not for Qipu.
CONTROLS = [chr(c) for c in (*range(1, 9), 11, 12, *range(14, 32), 127)] + [
    "\x85", "\u2028", "\u2029", "\u200b", "\u200e", "\u202e", "\ufffd", "\ufeff", "\u3000",
]


@damage("control-chars")
def _controls(rng: random.Random, case: Case) -> None:
    def change(text: str) -> str:
        for _ in range(rng.randint(1, 6)):
            text = _insert(rng, text, rng.choice(CONTROLS) * rng.randint(1, 3))
        return text

    _on_text(case, change)


@damage("nul-bytes")
def _nul(rng: random.Random, case: Case) -> None:
    for _ in range(rng.randint(1, 4)):
        at = _spot(rng, len(case.data))
        case.data = case.data[:at] + b"\x00" * rng.randint(1, 3) + case.data[at:]


@damage("bom-inside")
def _bom(rng: random.Random, case: Case) -> None:
    marks = [codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE]
    for _ in range(rng.randint(1, 3)):
        at = _spot(rng, len(case.data))
        case.data = case.data[:at] + rng.choice(marks) + case.data[at:]


@damage("cr-only")
def _cr_only(rng: random.Random, case: Case) -> None:
    ends = ["\r", "\r", "\n", "\r\n", "\r\r\n", "\n\r"]
    mixed = rng.random() < 0.5

    def change(text: str) -> str:
        return re.sub(r"\r\n|\r|\n", lambda _: rng.choice(ends) if mixed else "\r", text)

    _on_text(case, change)


def _numbers(rng: random.Random, case: Case, replace: Callable[[str], str]) -> None:
    """Replace one to three runs of ASCII digits."""

    def change(text: str) -> str:
        runs = list(re.finditer(r"[0-9]+", text))
        for m in sorted(rng.sample(runs, min(len(runs), rng.randint(1, 3))), key=lambda m: -m.start()):
            text = text[: m.start()] + replace(m.group()) + text[m.end() :]
        return text

    _on_text(case, change)


@damage("huge-number")
def _huge(rng: random.Random, case: Case) -> None:
    # Past 4,300 digits int() refuses a string (CPython's limit on conversions).
    sizes = [10, 20, 40, 400, 4301, 6000]
    _numbers(rng, case, lambda digits: digits + "9" * rng.choice(sizes))


@damage("negative-number")
def _negative(rng: random.Random, case: Case) -> None:
    _numbers(rng, case, lambda digits: rng.choice(["-", "+", "--", "−"]) + digits)


# Characters str.isdigit(), int() or \d take for digits, and look-alikes that
# they do not: Arabic-Indic, extended Arabic-Indic, Devanagari, full-width,
# mathematical bold, superscripts, circled, Roman numerals.
UNICODE_DIGITS = ["٣", "۳", "३", "３", "𝟑", "¹", "²", "³", "①", "Ⅲ", "〇", "三"]


@damage("unicode-digits")
def _unicode_digits(rng: random.Random, case: Case) -> None:
    def swap(digits: str) -> str:
        return "".join(rng.choice(UNICODE_DIGITS) if rng.random() < 0.5 else d for d in digits)

    _numbers(rng, case, swap)


@damage("long-line")
def _long_line(rng: random.Random, case: Case) -> None:
    pieces = ["x", "B(", "[", "(", "W[", "B(J,1", "MARK[", ";", " ", "B2E-3E", "#", "１", "\t"]
    _on_text(case, lambda text: _insert(rng, text, rng.choice(pieces) * rng.choice([300, 5000, 40000])))


@damage("empty")
def _empty(rng: random.Random, case: Case) -> None:
    case.data = rng.choice([b"", b"\n", b" \r\n\t", codecs.BOM_UTF8, codecs.BOM_UTF16_LE, b"\x00", b";", b"{}", b"()"])


def _header_end(text: str, code: str) -> int:
    """Where the header ends: after the first ";" (braces, parentheses) or the last "#" line before a move."""
    if games.get(code).format != "su":  # type: ignore[union-attr]
        semicolon = text.find(";")
        return semicolon + 1 if semicolon >= 0 else len(text)
    end = 0
    for m in re.finditer(r"[^\r\n]*(?:\r\n|\r|\n|$)", text):
        if m.group().lstrip("\ufeff").startswith(("#", "!")):
            end = m.end()
        elif m.group().strip():
            break
    return end


@damage("header-only")
def _header_only(rng: random.Random, case: Case) -> None:
    closing = rng.choice(["", "}", ")", "\n"])
    _on_text(case, lambda text: text[: _header_end(text, case.code)] + closing)


@damage("moves-only")
def _moves_only(rng: random.Random, case: Case) -> None:
    _on_text(case, lambda text: text[_header_end(text, case.code) :])


@damage("gbk-in-utf8")
def _gbk(rng: random.Random, case: Case) -> None:
    words = rng.choice(["先手胜", "黑方", "中国棋院", "第二届长三角"])
    # Into a UTF-8 file: GBK bytes; into a GBK file: UTF-8 bytes. Either way the file mixes two encodings.
    piece = words.encode("gbk") if rng.random() < 0.7 else words.encode("utf-8")
    for _ in range(rng.randint(1, 2)):
        at = _spot(rng, len(case.data))
        case.data = case.data[:at] + piece + case.data[at:]


OTHER_CODES = [*CODES, "DB", "CC", "AM", "X", "go9", "c5", "GO99", "C55", "HEXX", ""]


@damage("mixed-code")
def _mixed_code(rng: random.Random, case: Case) -> None:
    other = rng.choice(OTHER_CODES)
    where = rng.choice(["header", "name", "both"])
    if where in ("header", "both"):
        written = re.escape(case.code)
        _on_text(case, lambda text: re.sub(rf"(?<=[\[(]){written}(?=[\])])", other, text, count=1))
    if where in ("name", "both"):
        folder, _, name = case.path.rpartition("/")
        case.path = f"{folder}/{other}{name[len(case.code):]}"


BRACKETS = list("()[]{}") + list("（）［］【】｛｝") + ["((((", "]]]]", "[[", "{{{", "))", "([", "])", "[]", "()", "{}"]


@damage("brackets")
def _brackets(rng: random.Random, case: Case) -> None:
    def change(text: str) -> str:
        choice = rng.random()
        if choice < 0.2:  # deeply nested, balanced or not
            depth = rng.choice([50, 1000, 20000])
            opening, closing = rng.choice(["()", "[]", "{}"])
            return _insert(rng, text, opening * depth + closing * rng.choice([0, depth, depth // 2]))
        if choice < 0.5:  # one bracket of the record removed
            spots = [m.start() for m in re.finditer(r"[()\[\]{}]", text)]
            if spots:
                at = rng.choice(spots)
                return text[:at] + text[at + 1 :]
        for _ in range(rng.randint(1, 5)):
            text = _insert(rng, text, rng.choice(BRACKETS))
        return text

    _on_text(case, change)


# ASCII syntax and digits written full-width, as some team programs do.
_WIDE = {c: chr(ord(c) + 0xFEE0) for c in "()[]{},;:0123456789ABCDEFGHIJKLMNOPQRSTabcdefghijklmnopqrst-"}


@damage("full-width")
def _full_width(rng: random.Random, case: Case) -> None:
    share = rng.choice([0.1, 0.5, 1.0])
    _on_text(case, lambda text: "".join(_WIDE[c] if c in _WIDE and rng.random() < share else c for c in text))


# A move's side letter and point, per notation family: what the damage below
# rewrites so that the rules engines, not only the readers, see odd moves.
MOVE_PATTERNS = {
    "brace": re.compile(r"(?<![A-Za-z])(?P<side>[A-Za-z])\s*\(\s*(?P<point>[A-Za-z]\s*,\s*[0-9]+)\s*\)"),
    "paren": re.compile(r"(?<![A-Za-z])(?P<side>[A-Za-z])\s*\[(?P<point>[A-Za-z]{0,2}|[A-Za-z][0-9]{1,2})\]"),
    "su": re.compile(r"(?m)^\s*(?P<side>[A-Za-z])(?P<point>[0-9][A-Za-z][-xX×][0-9][A-Za-z])"),
}


def _random_point(rng: random.Random, family: str) -> str:
    letter = rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcs")
    if family == "brace":
        return f"{letter},{rng.choice([0, 1, 5, 9, 11, 15, 19, 20, 26, 999])}"
    if family == "paren":
        return rng.choice(["", "tt", letter, f"{letter}{rng.randint(0, 20)}", f"{letter}{rng.choice('ABIJSTZ')}"])
    a, b = (f"{rng.randint(0, 9)}{rng.choice('ABCDEFGH')}" for _ in range(2))
    return f"{a}{rng.choice('-xX×')}{b}"


def _rewrite_moves(rng: random.Random, case: Case, group: str, new: Callable[[str], str]) -> None:
    """Rewrite ``group`` ("side" or "point") of one to six moves of the record."""
    family = games.get(case.code).format  # type: ignore[union-attr]

    def change(text: str) -> str:
        found = list(MOVE_PATTERNS[family].finditer(text))
        for m in sorted(rng.sample(found, min(len(found), rng.randint(1, 6))), key=lambda m: -m.start()):
            text = text[: m.start(group)] + new(family) + text[m.end(group) :]
        return text

    _on_text(case, change)


@damage("random-points")
def _random_points(rng: random.Random, case: Case) -> None:
    _rewrite_moves(rng, case, "point", lambda family: _random_point(rng, family))


@damage("random-sides")
def _random_sides(rng: random.Random, case: Case) -> None:
    _rewrite_moves(rng, case, "side", lambda _: rng.choice("BWRbwrX"))


def _new_move(rng: random.Random, family: str) -> str:
    side, point = rng.choice("BR" if family == "su" else "BW"), _random_point(rng, family)
    return {"brace": f"{side}({point})", "paren": f"{side}[{point}]"}.get(family, side + point)


@damage("extra-moves")
def _extra_moves(rng: random.Random, case: Case) -> None:
    """Moves added at the end: repeats of earlier ones, passes, random ones (often after the game ended)."""
    family = games.get(case.code).format  # type: ignore[union-attr]

    def change(text: str) -> str:
        found = [m.group() for m in MOVE_PATTERNS[family].finditer(text)]
        extra = [
            rng.choice(found) if found and rng.random() < 0.5 else _new_move(rng, family)
            for _ in range(rng.randint(1, 8))
        ]
        if family == "su":
            return text.rstrip("\r\n") + "".join("\n" + e for e in extra) + "\n"
        end = text.rfind("}" if family == "brace" else ")")
        end = len(text) if end < 0 else end
        return text[:end] + "".join(";" + e for e in extra) + text[end:]

    _on_text(case, change)


# Header values an organiser may meet: every result word, impossible dates and
# times, other digits, brackets and separators where a value should be.
HEADER_VALUES = [
    "", " ", "先手胜", "后手胜", "平局", "未决胜", "1-0", "0-1", "1/2-1/2", "*", "黑方胜", "白方胜", "红方胜",
    "蓝方胜", "甲胜出", "2025.13.45 25:61 北京", "0000.00.00 00:00", "99999999999999", "٢٠٢٥.٠٨.٠٢ ١٤:٠٠ 合肥",
    "²⁰²⁵.⁰⁸.⁰²", "2025-08-02-10:40|安徽大学", "先手方:甲|后手方:乙|先手胜", "C5", "GO9", "SU", "HEX", "B", "W",
    "R", "[", "]", "|", ":", "x" * 5000,
]
# SU board rows: wrong lengths, wrong letters, lower case, a row of another digit.
BOARD_ROWS = ["!BBBBB", "!BBBBBBB", "!RRRRRR", "!000000", "!B0R0B0", "!bbbbbb", "!XXXXXX", "!", "!٠٠٠٠٠٠", "1000000", "!！！"]


@damage("header-values")
def _header_values(rng: random.Random, case: Case) -> None:
    """One to three header values (SU: "#" lines and board rows) replaced."""
    su = games.get(case.code).format == "su"  # type: ignore[union-attr]

    def change(text: str) -> str:
        end = _header_end(text, case.code)
        pattern = r"(?m)^[#!].*?$" if su else r"\[[^\[\];]*\]"
        spots = list(re.finditer(pattern, text[:end]))
        for m in sorted(rng.sample(spots, min(len(spots), rng.randint(1, 3))), key=lambda m: -m.start()):
            if su and m.group().startswith("!"):
                value = rng.choice(BOARD_ROWS)
            else:
                value = ("#" if su else "[") + rng.choice(HEADER_VALUES) + ("" if su else "]")
            text = text[: m.start()] + value + text[m.end() :]
        return text

    _on_text(case, change)


@damage("odd-move")
def _odd_move(rng: random.Random, case: Case) -> None:
    """One move replaced by something no reader takes for a move."""
    junk = rng.choice(["B(?,?)", "W[??]", "B2?-3E", "@@@", "R(K)", "B(A,)", "W[5D]", "B(,3)", "B[D٣]", "R(١,٢)"])
    _moves(rng, case, lambda moves, i, _: moves.__setitem__(i, junk))


@damage("utf-16")
def _utf16(rng: random.Random, case: Case) -> None:
    text, _ = _text(case.data)
    case.data = text.encode(rng.choice(["utf-16", "utf-16-le", "utf-16-be"]), "replace")


SIMPLE = tuple(DAMAGES)


@damage("combination")
def _combination(rng: random.Random, case: Case) -> None:
    for kind in rng.sample([k for k in SIMPLE if k != "empty"], rng.randint(2, 4)):
        case.steps.append(kind)
        DAMAGES[kind](rng, case)


KINDS = tuple(DAMAGES)


def damaged(number: int, seed: int = SEED) -> Case:
    """Case ``number``: which game and damage follow from the number, the rest from the seed."""
    code = CODES[number % len(CODES)]
    kind = KINDS[(number // len(CODES)) % len(KINDS)]
    rng = random.Random(f"{seed}/{number}")
    start = rng.choice(seeds()[code])
    case = Case(number, code, kind, start.path, start.data, [] if kind == "combination" else [kind])
    DAMAGES[kind](rng, case)
    return case


# -- what every damaged record must give ------------------------------------------


def run(case: Case) -> Processed:
    return process(Source(case.path, case.data, sha256(case.data)), encoding=None, options=OPTIONS, folder=None)


def _file_lines(case: Case) -> list[str]:
    """The file's lines (without their ends), as the diagnostics count lines and columns."""
    text, _ = decode.decode(Source(case.path, case.data, sha256(case.data)))
    if text is not None:
        starts, body = text.line_starts, text.text
        ends = [*starts[1:], len(body)]
        return [body[a:b].rstrip("\r\n") for a, b in zip(starts, ends)]
    # Undecodable: ENC-E001 counts lines in bytes and columns in GB18030 characters.
    return [line.decode("gb18030", "replace") for line in re.split(rb"\r\n|\r|\n", case.data)]


def _outside(d: Diagnostic, lines: list[str]) -> bool:
    if d.line == 0:
        return d.column != 0  # 0:0 is "the whole file"
    return not (1 <= d.line <= len(lines) and 1 <= d.column <= len(lines[d.line - 1]) + 1)


def _odd_digit(c: str) -> bool:
    """A character str.isdigit(), int() or \\d may take for a digit, other than ASCII and full-width ones.

    Full-width digits are the one non-ASCII form a reader may read (SU does, with a note).
    """
    return not c.isascii() and not "０" <= c <= "９" and (c.isdigit() or c.isnumeric() or c.isdecimal())


def _misread(processed: Processed, lines: list[str]) -> list[str]:
    """Moves read as a point from text that holds other digits ("٣", "¹"): coordinates are ASCII."""
    found = []
    for move in processed.record.moves if processed.record else []:
        if move.point is None or not 1 <= move.line <= len(lines):
            continue
        written = re.split(r"[)\]）］】#;；,，。]", lines[move.line - 1][move.column - 1 :], maxsplit=1)[0]
        if any(_odd_digit(c) for c in written):
            found.append(f"move at {move.line}:{move.column} read as {move.point} from {written!r}")
    return found


def failures(case: Case, processed: Processed) -> list[str]:
    """What is wrong with the outcome of one case; empty when it is as it must be."""
    found: list[str] = []
    diagnostics = processed.diagnostics
    for d in diagnostics:
        if d.code in CRASH_CODES:
            found.append(f"{d.code}: {d.message}")
        if d.path != case.path:
            found.append(f"diagnostic for another path: {d.format()}")
    lines = _file_lines(case)
    found += [f"position outside the file ({len(lines)} lines): {d.format()}" for d in diagnostics if _outside(d, lines)]
    found += _misread(processed, lines)
    if not processed.plies and not diagnostics:
        found.append("no game replayed and no diagnostic: the record would vanish silently")
    replay = processed.replay
    if replay is not None and replay.not_replayed:
        # The replay stopped: a diagnostic must say why, at that move.
        first = replay.not_replayed[0]
        if not any((d.line, d.column) == (first.line, first.column) for d in diagnostics):
            found.append(f"the replay stops at {first.line}:{first.column} ({first.text!r}) without a diagnostic there")
    return found


def damage_files(code: str, records: list[tuple[str, bytes]], cases: int) -> tuple[list[str], Counter[str]]:
    """Damage files of one game ``cases`` times, each kind in turn, through the pipeline game by game.

    The failures found and the damage kinds that applied (a damage written
    for another family's syntax that raises on these files is left out).
    """
    from generator.model import Source
    from generator.pipeline import process_games, sha256

    failed: list[str] = []
    kinds: Counter[str] = Counter()
    for number in range(cases):
        rng = random.Random(f"{code.lower()}/{number}")
        kind = KINDS[number % len(KINDS)]
        path, data = rng.choice(records)
        case = Case(number, code, kind, path, data, [kind])
        try:
            DAMAGES[kind](rng, case)
        except (KeyError, ValueError, IndexError, AttributeError, TypeError):
            continue
        kinds[kind] += 1
        for done in process_games(Source(case.path, case.data, sha256(case.data)), encoding=None, options={}):
            failed += [f"{case.describe()}\n    {problem}" for problem in failures(case, done)]
    return failed, kinds


@dataclass(slots=True)
class Tally:
    cases: Counter[str] = field(default_factory=Counter)  # per game code
    kinds: Counter[str] = field(default_factory=Counter)  # per damage kind
    replayed: int = 0  # files with at least one ply replayed
    diagnostics_only: int = 0  # files with no ply, only diagnostics
    failed: list[str] = field(default_factory=list)

    def add(self, case: Case, processed: Processed) -> None:
        self.cases[case.code] += 1
        self.kinds[case.kind] += 1
        if processed.plies:
            self.replayed += 1
        else:
            self.diagnostics_only += 1
        self.failed += [f"{case.describe()}\n    {problem}" for problem in failures(case, processed)]

    def report(self) -> str:
        total = sum(self.cases.values())
        return (
            f"{total} damaged records (seed {SEED}): {self.replayed} replayed at least one move, "
            f"{self.diagnostics_only} gave only diagnostics\n"
            f"per game: {dict(sorted(self.cases.items()))}\n"
            f"per damage: {dict(sorted(self.kinds.items()))}"
        )


def cases(limit: int | None = None, seconds: float | None = None) -> Iterator[Case]:
    """Cases 0, 1, 2 ... until ``limit``, or until ``seconds`` are spent after one full round.

    One round is every game with every damage, so even a slow machine tries each pair.
    """
    started = time.perf_counter()
    number = 0
    while limit is None or number < limit:
        if seconds is not None and number >= len(CODES) * len(KINDS) and time.perf_counter() - started > seconds:
            return
        yield damaged(number)
        number += 1


def fuzz(limit: int | None = None, seconds: float | None = None) -> Tally:
    tally = Tally()
    for case in cases(limit, seconds):
        try:
            processed = run(case)
        except Exception as exc:  # process() must not raise; say which case made it
            tally.failed.append(f"{case.describe()}\n    raised {type(exc).__name__}: {exc}")
            continue
        tally.add(case, processed)
    return tally


def _assert_clean(tally: Tally) -> None:
    if tally.failed:
        shown = "\n".join(tally.failed[:10])
        pytest.fail(f"{len(tally.failed)} failures; the first:\n{shown}\n{tally.report()}", pytrace=False)


# -- the tests ------------------------------------------------------------------------


def test_every_game_has_records_to_damage() -> None:
    found = seeds()
    assert set(found) == set(CODES)
    for code, records in found.items():
        # Each undamaged record is read as its game (the GO and GO13 rewrites included).
        processed = run(Case(0, code, "none", records[0].path, records[0].data))
        assert processed.code == code and processed.plies > 0, (code, processed.diagnostics)


def test_cases_depend_only_on_the_seed() -> None:
    assert [damaged(n).data for n in range(40)] == [damaged(n).data for n in range(40)]
    assert damaged(7, seed=1).data != damaged(7, seed=2).data


def test_damaged_records_never_crash() -> None:
    tally = fuzz(seconds=BUDGET)
    print(tally.report())
    _assert_clean(tally)
    assert set(tally.cases) == set(CODES) and set(tally.kinds) == set(KINDS)


@pytest.fixture
def long_run(request: pytest.FixtureRequest) -> None:
    """The long run only when its marker is asked for (-m fuzz_long)."""
    if "fuzz_long" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("the long fuzz run: python -m pytest -m fuzz_long tests/test_fuzz.py -rP")


@pytest.mark.fuzz_long
def test_long_fuzz_run(long_run: None) -> None:
    started = time.perf_counter()
    tally = fuzz(limit=LONG_CASES)
    print(f"{time.perf_counter() - started:.1f}s\n{tally.report()}")
    _assert_clean(tally)


# -- one move spoiled: the rest is still read ---------------------------------------------


@pytest.mark.parametrize("code", CODES)
def test_one_unreadable_move_stops_the_replay_there_and_nowhere_else(code: str) -> None:
    """The moves before a spoiled one replay as before; the spoiled one is reported at its place."""
    rng = random.Random(f"{SEED}/odd/{code}")
    for start in rng.sample(seeds()[code], 3):
        clean = run(Case(0, code, "none", start.path, start.data))
        moves = clean.record.moves if clean.record else []
        k = rng.randrange(len(moves))
        spoiled = _spoil(start.data, moves[k].line, moves[k].column, code)
        processed = run(Case(0, code, "odd-move", start.path, spoiled))
        # Exactly the moves before it replay (fewer if the clean record already stopped earlier).
        assert processed.plies == min(k, clean.plies), (start.path, k, processed.diagnostics)
        at = [d for d in processed.diagnostics if (d.line, d.column) == (moves[k].line, moves[k].column)]
        assert any(d.code.startswith("FMT-E") for d in at), (start.path, k, processed.diagnostics)


def _spoil(data: bytes, line: int, column: int, code: str) -> bytes:
    """The record with "?" written into the point of the move at line:column (its side letter)."""
    text, codec = _text(data)
    lines = re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", text)
    row, side = lines[line - 1], column - 1
    # SU: right after the side letter ("B?2E-3E"); the others: inside the brackets ("B(?J,10)", "B[?E5]").
    at = side + 1 if code == "SU" else re.compile(r"[(\[（［【]").search(row, side).end()
    lines[line - 1] = row[:at] + "?" + row[at:]
    return _bytes("".join(lines), codec)


# -- a small site built from damaged records: nothing vanishes ------------------------------


def test_a_site_of_damaged_records_shows_every_file(tmp_path: Path) -> None:
    from generator.build import Builder
    from generator.config import load_config

    content = tmp_path / "content"
    written: list[str] = []
    for case in _site_sample():
        # In its game's event folder, its number added: two cases may start from one record.
        event, _, name = case.path.partition("/")
        rel = f"{event}/{name.rpartition('/')[2].removesuffix('.txt')}-{case.number}.txt"
        (content / rel).parent.mkdir(parents=True, exist_ok=True)
        (content / rel).write_bytes(case.data)
        written.append(rel)
    config, problems = load_config(None, root=tmp_path, content=content, output=tmp_path / "site")
    assert not problems
    Builder(config, jobs=1).build()
    site = tmp_path / "site"
    shown: set[str] = set()
    # Split on "\n" only: a damaged team name may hold U+0085 or U+2028, which
    # JSON leaves as they are and str.splitlines() would take for line ends.
    for line in filter(None, (site / "data" / "games.jsonl").read_text(encoding="utf-8").split("\n")):
        game = json.loads(line)
        assert (site / game["url"]).is_file(), game["url"]
        shown |= {game["source"], *game["duplicates"]}
    problems_page = (site / "problems" / "index.html").read_text(encoding="utf-8")
    listed = {rel for rel in written if str(escape(rel)) in problems_page}
    vanished = [rel for rel in written if rel not in shown and rel not in listed]
    assert not vanished, vanished
    # The sample holds both kinds: damaged records still shown as games, and files only listed.
    assert shown & set(written) and set(written) - shown, (len(shown), len(written))


def _site_sample() -> list[Case]:
    """Sixty cases, every seventh: each game about seven times, each damage kind once or twice."""
    return [damaged(n) for n in range(0, 7 * 60, 7)]
