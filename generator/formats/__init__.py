"""Notation families: one module per family, not per game.

Each family module offers ``sniff(text) -> code | None`` (the game code the
text names in its own header, if the family recognises it) and
``parse(text, game) -> Record``; a family whose files may hold several games
(an Amazons file, a match of EinStein, bridge or poker) offers
``parse_games(text, game) -> list[Record]`` instead, one record per game, in
the order of the file, numbered from 1 (``Record.game``) with the line each
starts on (``Record.line``). :func:`read_games` finds the family of a decoded
file and calls it; :func:`read` is the same for a file of one game. Which module serves which game is the registry's business
(``games.py``); this package never names a game code.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Iterator
from types import ModuleType

from generator import games
from generator.diagnostics import Diagnostic, define, make
from generator.model import Metadata, Record, Text

UNKNOWN_GAME = define(
    "FMT-E001",
    "error",
    "The file is not a record of a known game",
    "Start the file name with the game code (e.g. C6-…), or check that the "
    "file is a record at all; it is left out of the site.",
)
UNSUPPORTED_GAME = define(
    "FMT-E002",
    "error",
    "The game code is not supported",
    "Check the spelling of the code in the header or file name; see the list "
    "of supported games in the documentation.",
)
READER_FAILED = define(
    "FMT-E003",
    "error",
    "The reader failed on this file (a bug in Qipu)",
    "Please report it with the file attached; the file is left out of the site.",
)

# Full-width ASCII (U+FF01-U+FF5E) and the ideographic space as their ASCII
# forms, for str.translate: what a line may write full-width ("＃", "：",
# "２０－２４"). Not NFKC, which goes further and reads superscripts, circled
# and mathematical digits ("¹", "①", "𝟑") as digits.
NARROW = {**{c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)}, 0x3000: 0x20}


class LineReader:
    """The common start of a family reader that goes line by line: the file, its diagnostics, its lines."""

    def __init__(self, text: Text) -> None:
        self.source = text
        self.diagnostics: list[Diagnostic] = []

    def report(self, line: int, column: int, code: str, template: str, /, **args: object) -> None:
        """A diagnostic; ``template`` is written with N_() where this is called."""
        self.diagnostics.append(make(self.source.path, line, column, code, template, **args))

    def lines(self) -> Iterator[tuple[int, str]]:
        """Each line: its number from 1 and its text without the line end or a byte-order mark (Text.lines)."""
        return enumerate(self.source.lines(), 1)


def _family_names() -> tuple[str, ...]:
    """The distinct family modules the registry names, in registry order."""
    return games.format_names()


@functools.cache
def _family(name: str) -> ModuleType | None:
    try:
        # A full dotted path: a family a test defines (see games.registered()).
        return importlib.import_module(name if "." in name else f"{__name__}.{name}")
    except ImportError:
        # A family named in the registry but not written yet: its games
        # get a diagnostic from read(); the others must still be read.
        return None


def sniff(text: str, hint: str | None = None) -> str | None:
    """The game code a family finds written in the text's own header, or None.

    ``hint``, the game code of the file's name: its family looks first.
    Most records are named after their game, so one family reads the header
    instead of every family before it in the registry (a dozen, each
    scanning the head of the text). Each family is imported when its turn
    comes: a rebuild of one record written in the first family imports no
    other (their patterns alone took a new process 15 ms to compile).
    """
    first = games.get(hint) if hint else None
    if first is not None:
        family = _family(first.format)
        sniffer = getattr(family, "sniff", None)
        code = sniffer(text) if sniffer else None
        if code:
            return code
    for name in _family_names():
        if first is not None and name == first.format:
            continue
        family = _family(name)
        sniffer = getattr(family, "sniff", None)
        code = sniffer(text) if sniffer else None
        if code:
            return code
    return None


def read(text: Text, filename_code: str | None) -> Record:
    """Parse a decoded file of one game with the family of its game (the first game, if it holds several).

    The game is the one the file's own header names; failing that, the one
    the file name's code prefix names (``filename_code``, from
    :func:`generator.metadata.from_filename`). Never raises: an unknown game,
    or a reader that fails, gives a record with no moves and one error.
    """
    return read_games(text, filename_code)[0]


def read_games(text: Text, filename_code: str | None) -> list[Record]:
    """Every game of a decoded file, as :func:`read` reads one: a list of at least one record."""
    code = sniff(text.text, filename_code) or filename_code
    if not code:
        diagnostic = make(
            text.path,
            1,
            1,
            UNKNOWN_GAME,
            "not a record of a known game: the header names no game and the file name has no game code",
        )
        return [_failed(text, None, diagnostic)]
    game = games.get(code)
    if game is None:
        return [_failed(text, code, make(text.path, 1, 1, UNSUPPORTED_GAME, "game code {code} is not supported", code=code))]
    try:
        family = game.module("format")
        several = getattr(family, "parse_games", None)
        if several is None:
            return [family.parse(text, game)]
        return several(text, game) or [Record(text.path, game.code, Metadata(code=game.code), [])]
    except Exception as e:  # noqa: BLE001  (one bad file must not stop a build of thousands)
        diagnostic = make(
            text.path,
            1,
            1,
            READER_FAILED,
            "the {family} reader failed: {error}",
            family=game.format,
            error=f"{type(e).__name__}: {e}",
        )
        return [_failed(text, game.code, diagnostic)]


def _failed(text: Text, code: str | None, diagnostic: Diagnostic) -> Record:
    return Record(text.path, code, Metadata(code=code), [], [diagnostic])
