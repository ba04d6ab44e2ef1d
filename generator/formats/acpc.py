"""The ACPC ``STATE:`` notation of heads-up no-limit hold'em (the CCGC championship standard, THP).

The standard (``specs/002_…txt``, 德州扑克棋谱格式说明文档) writes one hand a
line and closes the match with one line of facts::

    STATE:7:r223c/cr646r1170c/cc/cr2340r7898c:6cQh|Ah6s/7h9d5h/8d/As:0|0:A|B;
    …                                            (70 hands in a national final)
    {[THP][参赛队 A][参赛队 B][参赛队 A 赢得 1000 个筹码][2017.07.29 14:00 重庆][2017 CCGC]}

A hand is ``STATE:number:betting:cards:chips:players``. The players are
written big blind first (记录时大盲注在前); so are the hole cards (``6cQh`` is
A's) and the chips each won (``0|0``: a split pot). The betting is one group
per street (pre-flop, flop, turn, river) separated by ``/``: ``r223`` raises
to 223 chips *in the pot for the whole hand* (ACPC's raise-to, not raise-by),
``c`` checks or calls, ``f`` folds. The cards give both hands, then the board
street by street. The ``;`` at the end is the standard's; the ACPC dealer
writes none.

The match's facts are on the closing line: the two teams, the result
("A 赢得 1000 个筹码", or in English "A wins 1000 chips"), time and place, the
event. Real files are the ACPC dealer's logs (``corpus/SOURCES.md``): ``#``
comment lines first, then the hands, then ``SCORE:-64658|64658:p1|p2``, the
chips each player won over the match, and no closing line. Both totals are
checked against the sum of the hands.

:func:`parse_games` gives one record per hand, in the file's order: its
players (``first`` the big blind), its chips as a declared score, the
closing line's date, place and event (its time is the match's), and as
moves the deal of the hole cards, the actions and, at each ``/``, the deal
of the next street (:class:`~generator.model.Move` with ``parts``:
``("hole", "6cQh", "Ah6s")``, ``("r", 223)``, ``("c",)``, ``("f",)``,
``("deal", street, card, …)``). ``Record.setup`` holds the cards as written: the big blind's
hand, the small blind's, the board (``["6cQh", "Ah6s", "7h9d5h8dAs"]``).

Which player acts is not written: heads-up betting decides it (the small
blind first before the flop, the big blind first after it), so moves carry
no side letter and the engine (``rules/holdem.py``) takes the mover from the
order of play.

What is not heads-up no-limit is read as far as the notation allows and
said once per file: a log of three players, or of limit betting (``r``
without an amount), gives each hand's players and chips, no moves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from generator import games, metadata
from generator.diagnostics import Diagnostic, define, make
from generator.formats import NARROW
from generator.games import GameType
from generator.i18n import N_, T
from generator.model import SEATS, Metadata, Move, Record, Text, winner_by_score

# Codes of this family: the 12xx block of FMT-.
BAD_LINE = define(
    "FMT-E1201",
    "error",
    "A hand's STATE line cannot be read",
    "Write a hand as STATE:number:betting:cards:chips:players, e.g. "
    "STATE:7:r223c/cc/cc/cc:6cQh|Ah6s/7h9d5h/8d/As:0|0:A|B; the message names the field that is wrong.",
)
BAD_ACTION = define(
    "FMT-E1202",
    "error",
    "A betting action cannot be read",
    "Actions are r with the chips in the pot after the raise (r300), c (check or call) and f (fold); "
    "streets are separated by /. The hand's actions from here on are shown as not replayed.",
)
BAD_CARDS = define(
    "FMT-E1203",
    "error",
    "The cards of a hand cannot be read",
    "Write a card as rank and suit (As, Td, 9c: ranks 2-9 T J Q K A, suits s h d c); the hands first, "
    "big blind first and separated by |, then the flop (3 cards), the turn and the river, separated by /.",
)
NOT_HEADS_UP = define(
    "FMT-E1204",
    "error",
    "The file holds hands of more than two players",
    "THP is heads-up (two players). The hands were read (players, cards and chips) and are listed with "
    "their declared chips, but they cannot be replayed under the THP rules.",
)
LIMIT = define(
    "FMT-E1205",
    "error",
    "The file is limit hold'em, not no-limit",
    "THP is no-limit: every raise names the chips it raises to (r300). The hands were read (players, cards "
    "and chips) and are listed with their declared chips, but they cannot be replayed under the THP rules.",
)
TOTAL_DIFFERS = define(
    "FMT-E1206",
    "error",
    "The match's total differs from the sum of its hands",
    "The closing line (or the SCORE line) must give the chips each team won over all hands of the file; "
    "check it and the chips of each hand.",
)
BAD_CLOSING = define(
    "FMT-E1207",
    "error",
    "The closing line cannot be read",
    "Write it as {[THP][team A][team B][team A 赢得 1000 个筹码][2017.07.29 14:00 重庆][2017 CCGC]}: "
    "the message names the part that is wrong.",
)
NO_HANDS = define(
    "FMT-E1208",
    "error",
    "The file holds no hand",
    "A hold'em record has one line per hand, each starting with STATE:; check that the file was written completely.",
)
NOT_ZERO = define(
    "FMT-W1201",
    "warning",
    "A hand's chips do not add up to zero",
    "What one player wins the other loses: write e.g. 300|-300 (a split pot is 0|0).",
)
HAND_NUMBER = define(
    "FMT-W1202",
    "warning",
    "A hand's number is not the next one",
    "Number the hands of a match in order (STATE:0, STATE:1 … or from 1); the hands were read in the order written.",
)
OTHER_TEAMS = define(
    "FMT-W1203",
    "warning",
    "A hand is played by others than the match's two teams",
    "Every hand of a file belongs to one match between the same two teams; check the players field "
    "(the last field of the STATE line).",
)
NO_CLOSING = define(
    "FMT-W1204",
    "warning",
    "The match has no closing line",
    "The standard ends the file with {[THP][team A][team B][result][time place][event]}; the teams were "
    "taken from the hands, and the match's total is not checked against a declared one.",
)
NO_CHIPS = define(
    "FMT-W1205",
    "warning",
    "A hand does not give the chips won or the players",
    "Write the chips each player won and the players, big blind first: …:300|-300:A|B.",
)
OTHER_LINE = define(
    "FMT-N1201",
    "note",
    "A line that is neither a hand nor the closing line was kept as a comment",
    "Nothing to do if it is a comment; hands start with STATE:, the closing line with {[THP].",
)
NAMES_MAPPED = define(
    "FMT-N1202",
    "note",
    "The hands name the players otherwise than the closing line",
    "The hands' names were matched to the closing line's teams in the order they first appear; write the "
    "same names in both places to be sure.",
)
NOT_REPLAYED = define(
    "FMT-N1204",
    "note",
    "A hand of a game other than heads-up no-limit is listed, not replayed",
    "The file's first hand says why (three players, or limit betting); its players and declared chips are shown.",
)
FULL_WIDTH = define(
    "FMT-N1203",
    "note",
    "Full-width characters were read as ASCII",
    "Nothing to do; writing programs should use ASCII for the syntax.",
)

RANKS = "23456789TJQKA"
SUITS = "cdhs"
STREETS = (T("preflop"), T("flop"), T("turn"), T("river"))
BOARD_SIZES = (3, 1, 1)  # cards dealt at the flop, the turn and the river
_CARD = re.compile(r"(10|[2-9TJQKAtjqka])([cdhsCDHS])")
_ACTION = re.compile(r"([rR])([0-9]{0,9})|([cCfFkK])")
_STATE = re.compile(r"\s*STATE\s*:", re.IGNORECASE)
_SCORE = re.compile(r"\s*SCORE\s*:", re.IGNORECASE)
_CLOSING = re.compile(r"\s*\{\s*(\[.*\])\s*\}?\s*;?\s*$")
_FIELD = re.compile(r"\[([^\[\]]*)\]")
_NUMBER = re.compile(r"[+-]?[0-9]{1,9}(?:\.[0-9]{1,6})?")
_WINS = re.compile(
    r"(?P<team>.+?)\s*(?P<verb>赢得|赢了|赢|胜|净胜|wins|won|loses|lost|输掉|输了|输)\s*(?P<chips>[0-9]{1,9})\s*(?:个)?\s*(?:筹码|chips?)?\s*$",
    re.IGNORECASE,
)
# A dealer comment that names a limit game ("holdem.limit.2p.game", "limit hold'em"), not a no-limit one.
_LIMIT_GAME = re.compile(r"\.limit\.|(?<!no)(?<!no-)(?<!no )\blimit\b", re.IGNORECASE)
_WINNER = re.compile(r"(?P<team>.+?)\s*(?:胜出|获胜|胜|wins?|won)\s*$", re.IGNORECASE)
_LOSING = frozenset(("loses", "lost", "输掉", "输了", "输"))
_DRAWN = frozenset(("平局", "平", "draw", "0", "打平"))


def card_name(text: str) -> str:
    """A card as the standard writes it: rank upper case (T for ten), suit lower case: ``Th``."""
    rank, suit = text[:-1].upper(), text[-1].lower()
    return ("T" if rank == "10" else rank) + suit


def _codes() -> list[str]:
    return [game.code for game in games.of_format(__name__)]


def sniff(text: str) -> str | None:
    """The family's game when a line of the head is a hand (``STATE:``) or the file closes with ``{[THP]…}``."""
    codes = _codes()
    if not codes:
        return None
    for line in text[:4000].lstrip("\ufeff").splitlines()[:40]:
        plain = line.translate(NARROW).strip()
        if _STATE.match(plain) and plain.count(":") >= 3:
            return codes[0]
    tail = text[-2000:].translate(NARROW)
    m = re.search(r"\{\s*\[\s*([A-Za-z0-9]+)\s*\]", tail)
    if m and m[1].upper() in codes:
        return m[1].upper()
    return None


def parse_games(text: Text, game: GameType | None) -> list[Record]:
    """One record per hand, in the file's order (see the module's text). Never raises."""
    return _Reader(text, game).read()


@dataclass(slots=True)
class _Hand:
    """One STATE line as read, before the match's facts are known."""

    line: int
    column: int
    number: int | None = None
    names: list[str] = field(default_factory=list)
    names_column: int = 0
    chips: list[float] | None = None
    chips_column: int = 0
    holes: list[str] = field(default_factory=list)  # per player, "" where not shown
    board: list[list[str]] = field(default_factory=list)  # per street after the pre-flop
    cards_column: int = 0
    betting: str = ""
    betting_column: int = 0
    bare_raise: int = 0  # column of the first r without an amount (limit betting), 0: none
    diagnostics: list[Diagnostic] = field(default_factory=list)


@dataclass(slots=True)
class _Total:
    """A declared total for the match: the closing line's or the dealer's SCORE line."""

    line: int
    column: int
    chips: dict[str, float]  # team -> chips won
    words: str
    winner_only: bool = False  # "A 胜": the team that won more chips, how many not said


class _Reader:
    def __init__(self, text: Text, game: GameType | None) -> None:
        self.source = text
        self.game = game
        codes = _codes()
        self.code: str | None = game.code if game else (codes[0] if codes else None)
        self.file_diagnostics: list[Diagnostic] = []
        self.hands: list[_Hand] = []
        self.totals: list[_Total] = []
        self.closing: Metadata | None = None
        self.closing_teams: tuple[str, str] | None = None
        self.closing_line = 0
        self.limit_header = 0  # line of a dealer comment naming a limit game
        self.full_width = False

    def report(self, into: list[Diagnostic], line: int, column: int, code: str, template: str, /, **args: object) -> None:
        into.append(make(self.source.path, line, column, code, template, **args))

    # -- lines ------------------------------------------------------------------------

    def read(self) -> list[Record]:
        for number, line in enumerate(self.source.lines(), 1):
            self._line(number, line)
        return self._records()

    def _line(self, number: int, raw: str) -> None:
        plain = raw.translate(NARROW)
        if plain != raw and not self.full_width:
            self.full_width = True
            self.report(self.file_diagnostics, number, 1, FULL_WIDTH, N_("full-width characters read as ASCII"))
        stripped = plain.strip()
        if not stripped:
            return
        indent = len(plain) - len(plain.lstrip()) + 1
        if m := _STATE.match(plain):
            self._hand(number, indent, plain, m.end())
        elif m := _SCORE.match(plain):
            self._score(number, indent, plain, m.end())
        elif m := _CLOSING.match(plain):
            self._closing(number, indent, m[1])
        elif stripped.startswith("#"):
            # The ACPC dealer's header: which game definition it played.
            if _LIMIT_GAME.search(stripped) and not self.limit_header:
                self.limit_header = number
        else:
            into = self.hands[-1].diagnostics if self.hands else self.file_diagnostics
            self.report(into, number, indent, OTHER_LINE, N_("line {text!r} kept as a comment"), text=stripped[:40])

    # -- a hand -----------------------------------------------------------------------

    def _hand(self, number: int, column: int, plain: str, body: int) -> None:
        hand = _Hand(number, column)
        self.hands.append(hand)
        rest = plain[body:].rstrip()
        if rest.endswith(";"):
            rest = rest[:-1].rstrip()
        fields, at = [], body
        for part in rest.split(":"):
            fields.append((part, at + 1 + len(part) - len(part.lstrip())))
            at += len(part) + 1
        if len(fields) < 3:
            self.report(
                hand.diagnostics, number, column, BAD_LINE,
                N_("hand on line {line}: {count} fields after STATE:, where number, betting and cards at least are needed"),
                line=number, count=len(fields),
            )
            return
        written, where = fields[0][0].strip(), fields[0][1]
        if re.fullmatch(r"[0-9]{1,9}", written):
            hand.number = int(written)
        else:
            self.report(
                hand.diagnostics, number, where, BAD_LINE, N_("the hand number {text!r} is not a number"), text=written[:20]
            )
        hand.betting, hand.betting_column = fields[1][0].strip(), fields[1][1]
        m = re.search(r"[rR](?![0-9])", hand.betting)
        if m:
            hand.bare_raise = hand.betting_column + m.start()
        self._cards(hand, *fields[2])
        if len(fields) >= 5:
            self._chips(hand, *fields[3])
            self._names(hand, *fields[4])
            for extra, at_column in fields[5:]:
                self.report(
                    hand.diagnostics, number, at_column, BAD_LINE, N_("text {text!r} after the players field ignored"),
                    text=extra[:30],
                )
        else:
            self.report(
                hand.diagnostics, number, column, NO_CHIPS,
                N_("hand {hand} gives no chips or no players after its cards"), hand=written[:12],
            )

    def _cards(self, hand: _Hand, text: str, column: int) -> None:
        hand.cards_column = column
        groups = text.strip().split("/")
        at = column
        positions = []
        for group in groups:
            positions.append(at)
            at += len(group) + 1
        holes = groups[0].split("|")
        at = positions[0]
        for hole in holes:
            cards = self._card_list(hand, hole.strip(), at)
            if cards is None:
                hand.holes.append("")
            elif len(cards) not in (0, 2):
                self.report(
                    hand.diagnostics, hand.line, at, BAD_CARDS,
                    N_("a player's hand is {cards}: {count} cards, where hold'em deals two"),
                    cards=hole.strip()[:20], count=len(cards),
                )
                hand.holes.append("")
            else:
                hand.holes.append("".join(cards))
            at += len(hole) + 1
        for street, (group, at) in enumerate(zip(groups[1:], positions[1:]), 1):
            if street > len(BOARD_SIZES):
                self.report(
                    hand.diagnostics, hand.line, at, BAD_CARDS,
                    N_("board cards {cards!r} after the river ignored"), cards=group[:20],
                )
                break
            cards = self._card_list(hand, group.strip(), at)
            if cards is None:
                break
            size = BOARD_SIZES[street - 1]
            if len(cards) != size:
                self.report(
                    hand.diagnostics, hand.line, at, BAD_CARDS,
                    N_("the {street} is {cards}: {count} cards where {size} are dealt"),
                    street=STREETS[street], cards=group.strip()[:20] or "-", count=len(cards), size=size,
                )
                break
            hand.board.append(cards)

    def _card_list(self, hand: _Hand, text: str, column: int) -> list[str] | None:
        """The cards written together (``6cQh``); None, reported, if one cannot be read."""
        cards, at = [], 0
        while at < len(text):
            if text[at].isspace():
                at += 1
                continue
            m = _CARD.match(text, at)
            if not m:
                self.report(
                    hand.diagnostics, hand.line, column + at, BAD_CARDS,
                    N_("{text!r} is not a card (rank 2-9 T J Q K A, then suit s h d c)"), text=text[at : at + 2],
                )
                return None
            cards.append(card_name(m[0]))
            at = m.end()
        return cards

    def _chips(self, hand: _Hand, text: str, column: int) -> None:
        hand.chips_column = column
        values = []
        for part in text.split("|"):
            part = part.strip()
            if not _NUMBER.fullmatch(part):
                self.report(
                    hand.diagnostics, hand.line, column, BAD_LINE,
                    N_("the chips field {text!r} is not numbers separated by |"), text=text.strip()[:30],
                )
                return
            values.append(float(part))
        hand.chips = values
        if abs(sum(values)) > 1e-6:
            self.report(
                hand.diagnostics, hand.line, column, NOT_ZERO,
                N_("the chips {chips} add up to {total}, not 0"), chips=text.strip(), total=_chips_text(sum(values)),
            )

    def _names(self, hand: _Hand, text: str, column: int) -> None:
        hand.names_column = column
        hand.names = [name.strip() for name in text.split("|")]

    # -- the match's lines ---------------------------------------------------------------

    def _score(self, number: int, column: int, plain: str, body: int) -> None:
        """The ACPC dealer's total: ``SCORE:-64658|64658:p1|p2``."""
        chips_text, _, names_text = plain[body:].strip().rstrip(";").partition(":")
        parts, names = chips_text.split("|"), [n.strip() for n in names_text.split("|")]
        if len(parts) != len(names) or not all(_NUMBER.fullmatch(p.strip()) for p in parts):
            self.report(
                self.file_diagnostics, number, column, OTHER_LINE, N_("line {text!r} kept as a comment"),
                text=plain.strip()[:40],
            )
            return
        chips = {name: float(p) for name, p in zip(names, parts)}
        self.totals.append(_Total(number, column, chips, plain.strip()))

    def _closing(self, number: int, column: int, inner: str) -> None:
        fields = [f.strip() for f in _FIELD.findall(inner)]
        meta = Metadata(code=self.code)
        if fields and games.get(fields[0]) is not None:
            meta.code = fields[0].upper()
            fields = fields[1:]
        if len(fields) < 2:
            self.report(
                self.file_diagnostics, number, column, BAD_CLOSING,
                N_("the closing line names {count} teams, where two are needed"), count=len(fields),
            )
            return
        first, second = fields[0], fields[1]
        self.closing_teams = (first, second)
        self.closing_line = number
        meta.first, meta.second = first, second
        if len(fields) > 2 and fields[2]:
            self._total_words(number, column, fields[2], first, second)
        if len(fields) > 3 and fields[3]:
            date, clock, place = metadata.parse_when(fields[3])
            if date is not None:
                meta.date, meta.time, meta.place = date, clock, place
            else:
                self.report(self.file_diagnostics, number, column, metadata.DATE_UNREADABLE,
                            N_("date {text!r} cannot be read"), text=fields[3][:40])
        if len(fields) > 4:
            meta.event = fields[4] or None
        self.closing = meta

    def _total_words(self, number: int, column: int, words: str, first: str, second: str) -> None:
        """The closing line's result: "A 赢得 1000 个筹码", "B wins 300 chips", "平局"."""
        plain = words.strip()
        if plain.lower() in _DRAWN:
            self.totals.append(_Total(number, column, {first: 0.0, second: 0.0}, plain))
            return
        m = _WINS.match(plain)
        won = _WINNER.match(plain) if m is None else None
        if won is not None and (named := _named(won["team"].strip(), (first, second))) is not None:
            other = second if named == first else first
            self.totals.append(_Total(number, column, {named: 1.0, other: -1.0}, plain, winner_only=True))
            return
        team = m["team"].strip() if m else ""
        named = _named(team, (first, second))
        if m is None or named is None:
            self.report(
                self.file_diagnostics, number, column, BAD_CLOSING,
                N_("the result {words!r} does not say which of {first} and {second} won how many chips"),
                words=plain[:60], first=first, second=second,
            )
            return
        chips = float(m["chips"]) * (-1 if m["verb"].lower() in _LOSING else 1)
        other = second if named == first else first
        self.totals.append(_Total(number, column, {named: chips, other: -chips}, plain))

    # -- after all lines -----------------------------------------------------------------

    def _records(self) -> list[Record]:
        if not self.hands:
            self.report(self.file_diagnostics, 1, 1, NO_HANDS, N_("the file holds no hand: no line starts with STATE:"))
            record = Record(self.source.path, self.code, self.closing or Metadata(code=self.code), [],
                            list(self.file_diagnostics))
            return [record]
        kind = self._kind()
        teams = self._teams()
        self._check_numbers()
        records = [self._record(hand, index, kind, teams) for index, hand in enumerate(self.hands, 1)]
        if self.closing is None:
            line = self.totals[-1].line if self.totals else self.hands[-1].line
            template = N_("the file has no closing line {closing}: the teams are the hands' players, and the "
                          "SCORE line's total is checked instead") if self.totals else N_(
                "the file has no closing line {closing}: the match's total is not declared")
            self.report(self.file_diagnostics, line, 1, NO_CLOSING, template, closing="{[THP]…}")
        self._check_totals(teams)
        # What is said about the file as a whole goes with its first hand.
        records[0].diagnostics[:0] = self.file_diagnostics
        return records

    def _kind(self) -> str:
        """"holdem" where the hands are heads-up no-limit; "players" or "limit" where not (said once)."""
        wide = next((h for h in self.hands if max(len(h.names), len(h.holes), len(h.chips or ())) > 2), None)
        if wide is not None:
            count = max(len(wide.names), len(wide.holes), len(wide.chips or ()))
            self.report(
                self.file_diagnostics, wide.line, wide.names_column or wide.cards_column or wide.column, NOT_HEADS_UP,
                N_("hand {hand} has {count} players; THP is heads-up: the file's {hands} hands are read with their "
                   "chips but not replayed"),
                hand=wide.number if wide.number is not None else "?", count=count, hands=len(self.hands),
            )
            return "players"
        bare = [h for h in self.hands if h.bare_raise]
        sized = any(re.search(r"[rR][0-9]", h.betting) for h in self.hands)
        if self.limit_header or (bare and not sized):
            where = (self.limit_header, 1) if self.limit_header else (bare[0].line, bare[0].bare_raise)
            self.report(
                self.file_diagnostics, *where, LIMIT,
                N_("the file is limit hold'em (raises without amounts, or a limit game in its header); THP is "
                   "no-limit: the file's {hands} hands are read with their chips but not replayed"),
                hands=len(self.hands),
            )
            return "limit"
        return "holdem"

    def _teams(self) -> dict[str, str]:
        """Each name the hands write -> the team it stands for (the closing line's name where they differ)."""
        seen: list[str] = []
        for hand in self.hands:
            for name in hand.names[:2]:
                if name and name not in seen:
                    seen.append(name)
        mapping = {name: name for name in seen}
        if self.closing_teams is None:
            return mapping
        closing = list(self.closing_teams)
        if set(seen) <= set(closing):
            return mapping
        if len(seen) == 2 and not set(seen) & set(closing):
            mapping = dict(zip(seen, closing))
            self.report(
                self.file_diagnostics, self.closing_line, 1, NAMES_MAPPED,
                N_("the hands name the players {hands}, the closing line {teams}: read as {mapping}"),
                hands=" | ".join(seen), teams=" | ".join(closing),
                mapping=", ".join(f"{a} = {b}" for a, b in mapping.items()),
            )
        return mapping

    def _check_numbers(self) -> None:
        expected: int | None = None
        for hand in self.hands:
            if hand.number is None:
                continue
            if expected is not None and hand.number != expected:
                self.report(
                    hand.diagnostics, hand.line, hand.column, HAND_NUMBER,
                    N_("hand number {written} where {expected} was expected"), written=hand.number, expected=expected,
                )
            expected = hand.number + 1

    def _record(self, hand: _Hand, index: int, kind: str, teams: dict[str, str]) -> Record:
        meta = Metadata(code=self.code)
        if self.closing is not None:
            # The closing line's time is the match's, not any hand's (as a match file's name is):
            # hands of one pairing at one time would be taken for records of one game.
            meta.date, meta.place, meta.event = self.closing.date, self.closing.place, self.closing.event
        names = [teams.get(name, name) or None for name in hand.names]
        names += [None] * (2 - len(names))
        meta.first, meta.second = names[0], names[1]
        meta.more = tuple(names[2:])
        match = set(self.closing_teams) if self.closing_teams else set(teams.values())
        strangers = [name for name in names[:2] if name and name not in match]
        if strangers and kind == "holdem" and len(match) == 2:
            self.report(
                hand.diagnostics, hand.line, hand.names_column, OTHER_TEAMS,
                N_("hand {hand} is played by {players}, not by the match's teams {teams}"),
                hand=hand.number if hand.number is not None else "?", players=" | ".join(hand.names),
                teams=" | ".join(sorted(match)),
            )
        if hand.chips is not None:
            meta.score = {SEATS[seat]: value for seat, value in enumerate(hand.chips[: len(SEATS)])}
            meta.result = winner_by_score(meta.score)
            meta.result_text = "|".join(_chips_text(v) for v in hand.chips)
        moves: list[Move] = []
        setup = None
        if kind != "holdem" and index > 1:
            why = T("three or more players") if kind == "players" else T("limit betting")
            self.report(
                hand.diagnostics, hand.line, hand.column, NOT_REPLAYED,
                N_("hand {hand} is not replayed ({why}): see the file's first hand"),
                hand=hand.number if hand.number is not None else "?", why=why,
            )
        if kind == "holdem":
            moves = self._moves(hand)
            setup = [*(hand.holes + ["", ""])[:2], "".join("".join(cards) for cards in hand.board)]
        return Record(
            self.source.path, meta.code, meta, moves, hand.diagnostics, setup=setup, setup_line=hand.line,
            game=index, line=hand.line,
        )

    def _moves(self, hand: _Hand) -> list[Move]:
        """The actions and, at each ``/``, the deal of the next street."""
        # The deal of the hole cards comes first: it is what tells two hands of the same betting apart.
        holes = (hand.holes + ["", ""])[:2]
        moves: list[Move] = [Move("", "|".join(holes), None, hand.line, hand.cards_column, parts=("hole", *holes))]
        text, base, street = hand.betting, hand.betting_column, 0
        at = 0
        while at < len(text):
            char = text[at]
            if char.isspace():
                at += 1
                continue
            if char == "/":
                street += 1
                if street > len(BOARD_SIZES):
                    self._bad_action(hand, moves, base + at, text[at:], N_("a fifth street: {text!r} after the river"))
                    return moves
                cards = hand.board[street - 1] if street - 1 < len(hand.board) else None
                if cards is None:
                    self.report(
                        hand.diagnostics, hand.line, hand.cards_column, BAD_CARDS,
                        N_("the betting reaches the {street}, but the cards do not give it"), street=STREETS[street],
                    )
                    moves.append(Move("", "/", None, hand.line, base + at))
                    return moves
                moves.append(Move("", "/" + "".join(cards), None, hand.line, base + at, parts=("deal", street, *cards)))
                at += 1
                continue
            m = _ACTION.match(text, at)
            if m is None or (m[1] and not m[2]):
                template = N_("{text!r} is not an action (r and the chips raised to, c or f)") if m is None else N_(
                    "{text!r}: a raise must give the chips it raises to (r300)"
                )
                self._bad_action(hand, moves, base + at, text[at:], template)
                return moves
            if m[1]:
                moves.append(Move("", f"r{int(m[2])}", None, hand.line, base + at, parts=("r", int(m[2]))))
            else:
                letter = m[3].lower()
                # "k" (check) is no ACPC letter, but some writers use it for c.
                moves.append(Move("", "c" if letter == "k" else letter, None, hand.line, base + at,
                                  parts=("c",) if letter == "k" else (letter,)))
            at = m.end()
        return moves

    def _bad_action(self, hand: _Hand, moves: list[Move], column: int, rest: str, template: str) -> None:
        self.report(hand.diagnostics, hand.line, column, BAD_ACTION, template, text=rest[:12])
        moves.append(Move("", rest[:12], None, hand.line, column))

    def _check_totals(self, teams: dict[str, str]) -> None:
        """Each declared total (closing line, SCORE line) against the sum of the hands' chips."""
        sums: dict[str, float] = {}
        for hand in self.hands:
            for name, chips in zip(hand.names, hand.chips or ()):
                team = teams.get(name, name)
                sums[team] = sums.get(team, 0.0) + chips
        for total in self.totals:
            if total.winner_only:
                (name, _), = [(n, c) for n, c in total.chips.items() if c > 0]
                team = teams.get(name, name)
                if sums.get(team, 0.0) <= 0:
                    self.report(
                        self.file_diagnostics, total.line, total.column, TOTAL_DIFFERS,
                        N_("{words!r} says {team} won the match, but its hands add up to {counted} chips"),
                        words=total.words[:60], team=team, counted=_chips_text(sums.get(team, 0.0)),
                    )
                continue
            for name, chips in total.chips.items():
                team = teams.get(name, name)
                counted = sums.get(team, 0.0)
                if abs(counted - chips) > 1e-6:
                    self.report(
                        self.file_diagnostics, total.line, total.column, TOTAL_DIFFERS,
                        N_("{words!r} gives {team} {declared} chips, but its hands add up to {counted}"),
                        words=total.words[:60], team=team, declared=_chips_text(chips), counted=_chips_text(counted),
                    )
                    break


def _named(team: str, names: tuple[str, str]) -> str | None:
    """Which of the two teams a result's words name: exactly, or loosely (spaces, case)."""
    for name in names:
        if team == name:
            return name
    for name in names:
        if metadata.loose(team) == metadata.loose(name):
            return name
    return None


def _chips_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
