"""The Dou Dizhu notation of the championship standard (P2T1): a session of deals.

The standard (``specs/002_…txt``, 斗地主牌谱格式说明文档)::

    (
    ;VER[1.0]PA[team A]PB[team B]PC[team C]
    ;TI[1]TC[4]RI[1]RC[9]UC[9]MS[3150]
    ;DA[40,28,19,…]          the 17 cards dealt to A (numbers 0-53), then DB, DC
    ;BA[1]                   A's bid (0 a pass), then BB, BC
    ;LC[33,39,20]            the landlord (C) takes the three bottom cards
    ;C[24,25,26,27,1,3,32,33] a play of C; A[-1] a pass
    ;OVER[B]                 the seat whose hand was emptied
    )

``VER`` is the protocol's version, ``PA PB PC`` the teams, ``TI``/``TC`` the
round and the rounds, ``RI``/``RC`` the deal and the deals of the round,
``UC`` the players who go through, ``MS`` the cap of a deal's score.

One file may hold the deals of a session: each ``(`` … ``)`` is a deal
(:func:`parse_games`: one record per deal, in the file's order, with the
line it starts on); a deal that does not repeat the header fields takes
them from the deal before it. A writer that forgets the brackets is read
all the same: a new ``DA``/``DB``/``DC`` after plays, or a second deal of
the same seat, starts the next deal. Deals, bids, the bottom cards and
plays become moves in the order written (the rules tell them apart by
``Move.point``: ``("D", 0)`` a deal, ``("B", bid)`` a bid, ``("L", 0)``
the bottom cards, none for a play; ``Move.parts`` are the card numbers,
``passed`` a ``-1``). ``OVER`` is the declared result: the landlord's seat
when the landlord went out, both farmers when a farmer did.
The header's fields as written are ``Record.tags`` (``MS`` is read by the rules).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from generator import games
from generator.diagnostics import Diagnostic, define, make
from generator.formats import NARROW
from generator.games import GameType
from generator.i18n import N_
from generator.model import SEATS, Metadata, Move, Record, Text, winner_of

# Codes of this family: block 11 of FMT- (the rules' are RULE-x1110 on).
BAD_VALUE = define(
    "FMT-E1101",
    "error",
    "A Dou Dizhu line cannot be read",
    "Cards are numbers 0-53 separated by commas (DA[40,28,…]), a bid a number 0-3 (BA[1]), "
    "a pass A[-1]. The replay of this deal stops at the line.",
)
UNKNOWN_PROPERTY = define(
    "FMT-W1102",
    "warning",
    "An unknown property was left out",
    "The standard's properties are VER, PA, PB, PC, TI, TC, RI, RC, UC, MS, DA-DC, BA-BC, LA-LC, A-C and OVER.",
)
BAD_FIELD = define(
    "FMT-W1103",
    "warning",
    "A header field of a Dou Dizhu deal is not a number",
    "TI, TC, RI, RC, UC and MS are whole numbers; the field was left out.",
)
NO_DEAL = define(
    "FMT-W1104",
    "warning",
    "The record holds no deal",
    "A deal starts with the hands DA, DB and DC; check that the file was written completely.",
)
STRAY_TEXT = define(
    "FMT-W1105",
    "warning",
    "Text outside the properties was left out",
    "Write each line as ;NAME[value]; the text was not read.",
)
BAD_OVER = define(
    "FMT-W1106",
    "warning",
    "OVER does not name a seat A, B or C",
    "OVER names the seat whose hand was emptied; the result was left undeclared.",
)
FULL_WIDTH = define(
    "FMT-N1107",
    "note",
    "Full-width characters were read as ASCII",
    "Nothing to do; writing programs should use ASCII for the brackets, commas and semicolons.",
)

_TOKEN = re.compile(r"(?P<open>\()|(?P<close>\))|(?P<semi>;)|(?P<name>[A-Za-z]+)\s*\[(?P<value>[^\]\n]*)\]?|(?P<space>\s+)")
_NUMBER = re.compile(r"\s*(-?\d+)\s*$")
_FIELDS = ("TI", "TC", "RI", "RC", "UC", "MS")
_LETTERS = "ABC"
_DEALS = {f"D{letter}": letter for letter in _LETTERS}
_BIDS = {f"B{letter}": letter for letter in _LETTERS}
_BOTTOM = {f"L{letter}": letter for letter in _LETTERS}


def sniff(text: str) -> str | None:
    """The family's game when the head of the text has the standard's properties (VER, or a team and a deal)."""
    head = text[:4000].translate(NARROW).upper()
    if "VER[" in head or ("PA[" in head and "DA[" in head):
        family = games.of_format(__name__)
        return family[0].code if family else None
    return None


def parse_games(text: Text, game: GameType | None) -> list[Record]:
    """Every deal of the file, in order. Never raises; problems become diagnostics of their deal."""
    return _Reader(text, game).read()


@dataclass(slots=True)
class _Deal:
    line: int
    meta: Metadata
    tags: dict[str, str]
    moves: list[Move] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    dealt: set[str] = field(default_factory=set)  # the seats whose hands were read
    played: bool = False  # a play or OVER was read: a new hand starts the next deal
    over: str | None = None
    over_line: int = 0
    landlord: str | None = None  # the letter of the LA/LB/LC line

    @property
    def empty(self) -> bool:
        return not self.moves and self.over is None


class _Reader:
    def __init__(self, text: Text, game: GameType | None) -> None:
        self.source = text
        self.code = game.code if game is not None else None  # no game known: the record names none
        self.deals: list[_Deal] = []
        self.full_width = 0  # the first line written with full-width characters

    def report(self, deal: _Deal, offset: int, code: str, template: str, /, **args: object) -> None:
        line, column = self.source.position(offset)
        deal.diagnostics.append(make(self.source.path, line, column, code, template, **args))

    def read(self) -> list[Record]:
        raw = self.source.text
        text = raw.translate(NARROW)  # one character for one: offsets stay the same
        if text != raw:
            first = next(i for i, (a, b) in enumerate(zip(raw, text)) if a != b)
            self.full_width = first + 1
        pos = 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None:  # text that is no property: up to the next token that is one
                end = pos
                while end < len(text) and ((t := _TOKEN.match(text, end)) is None or t["space"]):
                    end = t.end() if t is not None else end + 1
                stray = text[pos:end].strip().strip("\ufeff")
                if stray:
                    template = N_("text {text!r} outside the properties was left out")
                    self.report(self._current(pos), pos, STRAY_TEXT, template, text=stray[:40])
                pos = end
                continue
            if m["open"]:
                if not self.deals or not self.deals[-1].empty:
                    self._start(m.start())
            elif m["name"]:
                self._property(m["name"].upper(), m["value"], m.start(), m.start("value"))
            pos = m.end()
        if all(deal.empty for deal in self.deals):
            deal = self.deals[0] if self.deals else self._start(0)
            self.report(deal, 0, NO_DEAL, N_("no deal found: the file holds no DA, DB or DC line"))
        if self.full_width:
            deal = self.deals[0]
            self.report(deal, self.full_width - 1, FULL_WIDTH, N_("full-width brackets, commas or semicolons were read as ASCII"))
        records = [self._record(n, deal) for n, deal in enumerate(self.deals, 1)]
        if len(records) == 1:
            records[0].game, records[0].line = 0, 1
        return records

    def _start(self, offset: int) -> _Deal:
        """A new deal, with the header fields of the deal before it."""
        line, _ = self.source.position(offset)
        before = self.deals[-1] if self.deals else None
        meta = Metadata(code=self.code)
        tags: dict[str, str] = {}
        if before is not None:
            meta.first, meta.second, meta.more = before.meta.first, before.meta.second, before.meta.more
            tags = dict(before.tags)
        deal = _Deal(line, meta, tags)
        self.deals.append(deal)
        return deal

    def _current(self, offset: int) -> _Deal:
        return self.deals[-1] if self.deals else self._start(offset)

    # -- one property -------------------------------------------------------------------

    def _property(self, name: str, value: str, offset: int, at: int) -> None:
        deal = self._current(offset)
        if name in _DEALS and (deal.played or _DEALS[name] in deal.dealt):
            deal = self._start(offset)  # no brackets between two deals
        if name == "VER":
            deal.tags["VER"] = value.strip()
        elif name in ("PA", "PB", "PC"):
            self._team(deal, name[1], value.strip() or None)
        elif name in _FIELDS:
            m = _NUMBER.match(value)
            if m is None:
                template = N_("{name}[{value}] is not a number; left out")
                self.report(deal, offset, BAD_FIELD, template, name=name, value=value[:20])
            else:
                deal.tags[name] = str(int(m[1]))
        elif name in _DEALS:
            deal.dealt.add(_DEALS[name])
            self._cards(deal, _DEALS[name], name, value, offset, at, ("D", 0))
        elif name in _BIDS:
            self._bid(deal, _BIDS[name], name, value, offset)
        elif name in _BOTTOM:
            deal.landlord = _BOTTOM[name]
            self._cards(deal, _BOTTOM[name], name, value, offset, at, ("L", 0))
        elif name in _LETTERS:
            deal.played = True
            self._cards(deal, name, name, value, offset, at, None)
        elif name == "OVER":
            deal.played = True
            self._over(deal, value.strip().upper(), offset)
        else:
            template = N_("unknown property {name}[{value}] left out")
            self.report(deal, offset, UNKNOWN_PROPERTY, template, name=name, value=value[:20])

    def _team(self, deal: _Deal, letter: str, team: str | None) -> None:
        meta = deal.meta
        if letter == "A":
            meta.first = team
        elif letter == "B":
            meta.second = team
        else:
            meta.more = (team,)

    def _move(self, deal: _Deal, letter: str, text: str, offset: int, **fields: object) -> Move:
        line, column = self.source.position(offset)
        move = Move(letter, text, None, line, column, **fields)  # type: ignore[arg-type]
        deal.moves.append(move)
        return move

    def _cards(
        self, deal: _Deal, letter: str, name: str, value: str, offset: int, at: int, point: tuple[str, int] | None
    ) -> None:
        """A line of cards: a deal, the bottom cards or a play (``point`` None; -1 alone a pass)."""
        text = f"{name}[{value.strip()}]"
        items = [item.strip() for item in value.split(",")]
        numbers = [int(item) if re.fullmatch(r"-?\d+", item) else None for item in items]
        if point is None and numbers == [-1]:
            self._move(deal, letter, text, offset, passed=True)
            return
        bad = next((i for i, number in enumerate(numbers) if number is None or not 0 <= number <= 53), None)
        if bad is not None:
            where = at + sum(len(part) + 1 for part in value.split(",")[:bad])  # the item's own column
            where += len(value.split(",")[bad]) - len(value.split(",")[bad].lstrip())
            template = N_("{text}: {item!r} is not a card number 0-53")
            self.report(deal, where, BAD_VALUE, template, text=text[:60], item=items[bad])
            self._move(deal, letter, text, offset)  # unreadable: the replay stops here
            return
        move = self._move(deal, letter, text, offset, parts=tuple(numbers))
        move.point = point

    def _bid(self, deal: _Deal, letter: str, name: str, value: str, offset: int) -> None:
        text = f"{name}[{value.strip()}]"
        m = _NUMBER.match(value)
        if m is None:
            self.report(deal, offset, BAD_VALUE, N_("{text}: a bid is a number 0-3"), text=text[:40])
            self._move(deal, letter, text, offset)
            return
        move = self._move(deal, letter, text, offset)
        move.point = ("B", int(m[1]))

    def _over(self, deal: _Deal, letter: str, offset: int) -> None:
        if letter not in _LETTERS:
            self.report(deal, offset, BAD_OVER, N_("OVER[{value}] names no seat A, B or C"), value=letter[:20])
            return
        deal.over, deal.over_line = letter, self.source.position(offset)[0]

    # -- the record -----------------------------------------------------------------------

    def _record(self, number: int, deal: _Deal) -> Record:
        meta = deal.meta
        if deal.over is not None:
            meta.result_text = f"OVER[{deal.over}]"
            meta.result = _declared(deal.over, deal.landlord)
        record = Record(self.source.path, self.code, meta, deal.moves, deal.diagnostics, game=number, line=deal.line)
        record.tags = deal.tags
        return record


def _declared(over: str, landlord: str | None) -> str | None:
    """The result OVER declares: the landlord's seat, or both farmers; None without a landlord."""
    if landlord is None:
        return None
    seat, lord = _LETTERS.index(over), _LETTERS.index(landlord)
    if seat == lord:
        return SEATS[seat]
    return winner_of(other for other in range(3) if other != lord)
