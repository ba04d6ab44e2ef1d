"""Portable Bridge Notation (PBN 2.1), the record format of bridge (BR): one board per game, several per file.

The championship standard (``specs/002_…txt``, 桥牌牌谱格式说明文档) adopts PBN::

    [Event "BoYiDaSai"]            tags: [Name "value"]; the standard spells Date "Data"
    [Board "1"]
    [Dealer "E"]
    [Vulnerable "NS"]
    [Deal "W:986.KQJ95.53.KQ6 T.A.KQ98.JT95432 KJ543.T876.AJ74. AQ72.432.T62.A87"]
    [Declarer "N"] [Contract "4C"] [Result "9"] [Score "NS -100"]
    [Auction "E"]                  the calls from the dealer, four to a line
    Pass Pass 1H 2C
    ...
    [Play "E"]                     the tricks, one per line, in columns fixed by the opening leader
    H7 H2 HJ HA
    *

What this reader takes, as PBN 2.1 and real writers (``corpus/SOURCES.md``) write it:

* games separated by empty lines; a repeated ``Board`` or ``Deal`` tag also
  starts a new game; ``%`` lines (escapes, a writer's directives) are skipped;
* every tag, in any order, its value kept in :attr:`Record.tags`; ``#`` copies
  the previous game's value of the tag, ``##value`` sets a value that the
  following games inherit where they do not write the tag;
* ``{…}`` comments (across lines) and ``;`` comments to the end of the line;
  a comment after a call or card is that move's comment;
* the Auction section: ``Pass`` ``X`` ``XX`` and bids, ``AP`` (all pass),
  ``!`` after a call (an alert), ``=n=`` note references (the text from the
  ``[Note "n:text"]`` tags), ``$n`` and ``?``/``!!`` annotations, ``*`` (the
  auction stops here), ``+`` (it goes on elsewhere: nothing may follow);
* the Play section: a trick per line in the columns of the opening leader;
  ``-`` is a card not played (after a claim), ``*`` and ``+`` as above. The
  cards are put in the order played (the leader of each trick first: the
  winner of the one before), which needs the trump suit: the auction's last
  bid, else the Contract tag;
* supplemental sections (``OptimumResultTable``, ``ScoreTable`` ...): their
  lines are kept with the tag (``Name.rows``), for a double-dummy table.

Each call and card is a :class:`Move` of its seat (``N`` ``E`` ``S`` ``W``)
whose ``parts`` say what it is (``("call", "1H", alerted)``,
``("card", "SA")``); the Deal's four hands, North first, are
:attr:`Record.setup`. The board's players are the seats' tags (``North``,
``East``, then ``South`` and ``West`` in :attr:`Metadata.more`); its declared
score comes from ``Score``, else from ``Contract`` and ``Result`` scored.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from generator import games, metadata
from generator.diagnostics import Diagnostic, define, make
from generator.games import GameType
from generator.i18n import N_
from generator.model import Metadata, Move, Record, Text
from generator.rules import bridge

# Codes of this family: block 13 of FMT-.
BAD_TAG = define(
    "FMT-E1301",
    "error",
    "A PBN tag cannot be read",
    'Write a tag as [Name "value"] on its own line; the line was skipped.',
)
BAD_CALL = define(
    "FMT-E1302",
    "error",
    "A call in the Auction section cannot be read",
    "Calls are Pass, X, XX and bids 1C to 7NT; the auction is replayed up to it.",
)
BAD_CARD = define(
    "FMT-E1303",
    "error",
    "A card in the Play section cannot be read",
    "A card is a suit letter S H D C and a rank 2-9 T J Q K A (SA, HT), or '-' for a card not played; "
    "the play is replayed up to it.",
)
BAD_DEAL = define(
    "FMT-E1304",
    "error",
    "The Deal tag cannot be read",
    'Write the deal as "N:hand hand hand hand", the first seat then clockwise, each hand as '
    "spades.hearts.diamonds.clubs (AQ983.A973.K92.3); the board is shown without its cards.",
)
AFTER_END = define(
    "FMT-E1305",
    "error",
    "Something follows the end mark of a section",
    "In PBN '+' says the section goes on elsewhere and '*' ends it: nothing may follow either; what follows was not read.",
)
BAD_VALUE = define(
    "FMT-W1301",
    "warning",
    "A tag's value is not one PBN allows",
    "The message names the tag and what it may hold; the value was not used.",
)
NO_INHERITANCE = define(
    "FMT-W1302",
    "warning",
    "A tag says '#' (as the previous board) but no earlier board has it",
    "Write the value, or give the first board of the file the tag; it was read as empty.",
)
UNKNOWN_NOTE = define(
    "FMT-W1303",
    "warning",
    "A note reference =n= has no [Note] tag",
    'Add [Note "n:text"] after the section, or remove the reference; it was ignored.',
)
NO_DEAL = define(
    "FMT-W1304",
    "warning",
    "The board has no deal",
    "A board's Deal tag gives the four hands; without it the page shows no cards and the play is not checked.",
)
PLAY_UNORDERED = define(
    "FMT-W1305",
    "warning",
    "The order of the play cannot be worked out",
    "The cards of a trick are written in the opening leader's columns; their order needs the trump suit "
    "(from the auction or the Contract tag) and every card of the earlier tricks. The play is shown up to here.",
)
DATA_TAG = define(
    "FMT-N1301",
    "note",
    "The tag Data was read as Date",
    "The championship standard writes Data; PBN's name is Date. Nothing to do.",
)
DEAL_ONLY = define(
    "FMT-N1302",
    "note",
    "The board has a deal but no auction, contract or result",
    "Nothing to do for a hand record (a dealing program's output); the page shows the deal.",
)
NOT_PLAYED = define(
    "FMT-N1304",
    "note",
    "The board gives its contract and result but no auction or play",
    "Nothing to do for a scoring program's record; the declared contract and result are scored, not replayed.",
)
IRREGULAR = define(
    "FMT-N1303",
    "note",
    "An irregularity mark or annotation was read and not checked",
    "PBN's irregularity marks (^R, ^S, ...) and NAGs ($n) are kept as they are; nothing to do.",
)

_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_NOTE = re.compile(r"=(\d+)=")
_WORD = re.compile(r"[^\s\[{;]+")
_CARD = re.compile(r"([SHDCshdc])(10|[2-9TJQKAtjqka])")
# Tags whose value says a seat, and what each value may be.
_SECTIONS = ("Auction", "Play")


@dataclass(slots=True)
class _Token:
    text: str
    line: int
    column: int
    comment: bool = False  # a {…} or ; comment: ``text`` is its inside


@dataclass(slots=True)
class _Tag:
    name: str
    value: str
    line: int
    column: int
    body: list[_Token] = field(default_factory=list)  # the tokens after it, up to the next tag


@dataclass(slots=True)
class _Game:
    line: int
    tags: list[_Tag] = field(default_factory=list)
    comments: list[_Token] = field(default_factory=list)  # before the first tag

    def named(self, name: str) -> _Tag | None:
        return next((tag for tag in self.tags if tag.name == name), None)


def sniff(text: str) -> str | None:
    """The family's game when the head of the text looks like PBN: a ``% PBN`` line or a Deal or Board tag."""
    head = text[:4000].lstrip("\ufeff")
    if re.search(r"^%\s*PBN\b", head, re.MULTILINE) or re.search(
        r'^\s*\[(Deal|Board|Auction|Vulnerable)\s+"', head, re.MULTILINE
    ):
        codes = [game.code for game in games.of_format(__name__)]
        return codes[0] if codes else None
    return None


def parse_games(text: Text, game: GameType | None) -> list[Record]:
    """Every board of the file, in order; never raises. A problem in one board is that board's diagnostic."""
    reader = _Reader(text, game)
    return reader.read()


class _Reader:
    def __init__(self, text: Text, game: GameType | None) -> None:
        self.source = text
        self.code = game.code if game else None
        self.loose: list[Diagnostic] = []  # diagnostics before any game

    def read(self) -> list[Record]:
        games_found = self._games(self._tokens())
        records: list[Record] = []
        previous: dict[str, str] = {}
        sticky: dict[str, str] = {}
        for number, found in enumerate(games_found, 1):
            records.append(self._record(found, number if len(games_found) > 1 else 0, previous, sticky))
        if not records:
            return [
                Record(
                    self.source.path,
                    self.code,
                    Metadata(code=self.code),
                    [],
                    self.loose + [make(self.source.path, 1, 1, NO_DEAL, "the file holds no board: no PBN tag was found")],
                )
            ]
        for diagnostic in self.loose:  # a tag that cannot be read belongs to the board whose lines hold it
            owner = records[0]
            for record in records:
                if record.line <= diagnostic.line:
                    owner = record
            owner.diagnostics.insert(0, diagnostic)
        return records

    # -- tokens ----------------------------------------------------------------------------

    def _tokens(self) -> list[_Token | _Tag | None]:
        """Tags, words and comments in order; None for an empty line (between games)."""
        text = self.source.text
        out: list[_Token | _Tag | None] = []
        i, n = 0, len(text)
        line, start = 1, 0  # the line number of offset i, and where that line starts
        at_line_start = True
        blank = True  # the current line holds nothing so far
        while i < n:
            c = text[i]
            if c == "\n" or c == "\r":
                if blank and (not out or out[-1] is not None):
                    out.append(None)
                if c == "\r" and i + 1 < n and text[i + 1] == "\n":
                    i += 1
                i += 1
                line, start, at_line_start, blank = line + 1, i, True, True
                continue
            if at_line_start and c == "%":  # an escape line: skipped whole
                end = _line_end(text, i)
                i, blank = end, False
                continue
            at_line_start = False
            if c.isspace() or c == "\ufeff":
                i += 1
                continue
            blank = False
            column = i - start + 1
            if c == "[":
                end = _line_end(text, i)
                m = _TAG.match(text, i, end)
                if m is None:
                    close = text.find("]", i, end)
                    stop = close + 1 if close >= 0 else end
                    self.loose.append(
                        make(
                            self.source.path,
                            line,
                            column,
                            BAD_TAG,
                            'the tag {written} cannot be read: a tag is [Name "value"]',
                            written=text[i:stop].strip(),
                        )
                    )
                    out.append(_Tag("", "", line, column))  # still a tag of its game: the game is not lost
                    i = stop
                    continue
                out.append(_Tag(m[1], m[2].replace('\\"', '"').replace("\\\\", "\\"), line, column))
                i = m.end()
            elif c == "{":
                close = text.find("}", i + 1)
                end = close if close >= 0 else n
                inside = text[i + 1 : end]
                out.append(_Token(inside.strip(), line, column, comment=True))
                for m in re.finditer(r"\r\n|\r|\n", inside):  # a comment across lines: keep counting them
                    line += 1
                    start = i + 1 + m.end()
                i = end + 1
            elif c == ";":
                end = _line_end(text, i)
                out.append(_Token(text[i + 1 : end].strip(), line, column, comment=True))
                i = end
            else:
                m = _WORD.match(text, i)
                end = m.end() if m else i + 1  # a word up to a space or a syntax character
                out.append(_Token(text[i:end], line, column))
                i = end
        return out

    def _games(self, tokens: list[_Token | _Tag | None]) -> list[_Game]:
        """Tokens grouped into games: an empty line ends one, a second Board or Deal tag starts the next."""
        found: list[_Game] = []
        current: _Game | None = None
        loose: list[_Token] = []
        for token in tokens:
            if token is None:
                if current is not None and current.tags:
                    found.append(current)
                current = None
                continue
            if isinstance(token, _Tag):
                if current is not None and token.name in ("Board", "Deal") and current.named(token.name):
                    found.append(current)
                    current = None
                if current is None:
                    current = _Game(token.line, comments=loose)
                    loose = []
                current.tags.append(token)
            elif current is None or not current.tags:
                loose.append(token)
            else:
                current.tags[-1].body.append(token)
        if current is not None and current.tags:
            found.append(current)
        return found

    # -- one game ------------------------------------------------------------------------------

    def _record(self, found: _Game, number: int, previous: dict[str, str], sticky: dict[str, str]) -> Record:
        path = self.source.path
        diagnostics: list[Diagnostic] = []
        tags: dict[str, str] = {}
        where: dict[str, tuple[int, int]] = {}
        notes: dict[str, str] = {}
        for tag in found.tags:
            name, value = tag.name, tag.value
            if not name:  # a tag that could not be read (reported where it was found)
                continue
            if name == "Data":
                diagnostics.append(make(path, tag.line, tag.column, DATA_TAG, "the tag Data was read as Date"))
                name = "Date"
            if name == "Note":
                key, _, text = value.partition(":")
                notes[key.strip()] = text.strip()
                continue
            if value == "#":
                if name in previous:
                    value = previous[name]
                else:
                    diagnostics.append(
                        make(
                            path,
                            tag.line,
                            tag.column,
                            NO_INHERITANCE,
                            "the tag {tag} says '#' but no earlier board gives it",
                            tag=name,
                        )
                    )
                    value = ""
            elif value.startswith("##"):
                value = value[2:] or previous.get(name, "")
                sticky[name] = value
            if name in tags:
                continue  # PBN: a tag that appears twice keeps its first value
            tags[name] = value
            where[name] = (tag.line, tag.column)
            if tag.body and name not in _SECTIONS:
                rows = [
                    " ".join(t.text for t in tag.body if not t.comment and t.line == line)
                    for line in sorted({t.line for t in tag.body if not t.comment})
                ]
                tags[name + ".rows"] = "\n".join(rows)
        for name, value in sticky.items():
            tags.setdefault(name, value)
        previous.clear()
        previous.update({k: v for k, v in tags.items() if not k.endswith(".rows")})

        meta = self._metadata(tags)
        setup, setup_line = self._deal(tags, where, diagnostics)
        moves: list[Move] = []
        auction = found.named("Auction")
        calls: list[str] = []
        if auction is not None:
            moves += self._auction(auction, notes, diagnostics, calls)
        play = found.named("Play")
        if play is not None:
            moves += self._play(play, tags, calls, notes, diagnostics)
        if setup is None and "Deal" not in tags:
            diagnostics.append(
                make(path, found.line, 1, NO_DEAL, "board {board}: no Deal tag gives the hands", board=tags.get("Board") or "?")
            )
        elif not moves and (_known(tags.get("Contract")) or _known(tags.get("Result"))):
            diagnostics.append(
                make(
                    path,
                    found.line,
                    1,
                    NOT_PLAYED,
                    "board {board}: contract and result are declared, with no auction or play to replay",
                    board=tags.get("Board") or "?",
                )
            )
        elif not moves:
            diagnostics.append(
                make(
                    path,
                    found.line,
                    1,
                    DEAL_ONLY,
                    "board {board} has a deal only: no auction, contract or result",
                    board=tags.get("Board") or "?",
                )
            )
        meta.score = self._declared_score(tags, calls, where, diagnostics)
        return Record(
            path, self.code, meta, moves, diagnostics, setup=setup, setup_line=setup_line, game=number, line=found.line, tags=tags
        )

    def _metadata(self, tags: dict[str, str]) -> Metadata:
        def value(name: str) -> str | None:
            text = tags.get(name, "").strip()
            return text if _known(text) else None

        players = [value(seat) for seat in ("North", "East", "South", "West")]
        home, visit = value("HomeTeam"), value("VisitTeam")
        room = (value("Room") or value("Table") or "").lower()
        # A team match names its teams: home sits North-South in the open room, East-West in the
        # closed (BBO's and the vugraph writers' habit). The teams are what the match compares,
        # so they stand for the seats where both rooms are told apart, even where the players
        # are named too (a human match); with no room, or no teams, the seats' own names.
        if (home and visit and room.startswith(("open", "closed"))) or (not any(players) and (home or visit)):
            closed = room.startswith(("closed", "c"))
            ns, ew = (visit, home) if closed else (home, visit)
            players = [ns, ew, ns, ew]
        meta = Metadata(code=self.code, first=players[0], second=players[1], more=(players[2], players[3]))
        when = value("Date")
        if when:
            date, clock, _ = metadata.parse_when(when.replace(".", "-") if re.fullmatch(r"\d{4}\.\d\d\.\d\d", when) else when)
            if date is None and re.fullmatch(r"\d{1,2}:\d\d", when):
                clock = when  # BBO writes the time alone
            meta.date, meta.time = date, clock
        meta.place = value("Site")
        meta.event = value("Event")
        # Duplicate scoring compares the tables of a board: its number and the room or table it was played at.
        meta.board = value("Board")
        meta.room = value("Room") or value("Table")
        return meta

    def _deal(
        self, tags: dict[str, str], where: dict[str, tuple[int, int]], diagnostics: list[Diagnostic]
    ) -> tuple[list[str] | None, int]:
        text = tags.get("Deal", "").strip()
        if not text:
            return None, 0
        line, column = where.get("Deal", (1, 1))
        m = re.fullmatch(r"([NESWnesw])\s*:\s*(.*)", text)
        hands = m[2].split() if m else []
        if m is None or len(hands) != 4 or any(h != "-" and bridge.parse_hand(h) is None for h in hands):
            diagnostics.append(make(self.source.path, line, column, BAD_DEAL, "the deal {written} cannot be read", written=text))
            return None, line
        first = bridge.seat_of(m[1]) or 0
        setup = [""] * 4
        for i, hand in enumerate(hands):
            setup[(first + i) % 4] = hand
        return setup, line

    def _auction(self, tag: _Tag, notes: dict[str, str], diagnostics: list[Diagnostic], calls: list[str]) -> list[Move]:
        path = self.source.path
        seat = bridge.seat_of(tag.value)
        if seat is None:
            diagnostics.append(
                make(
                    path,
                    tag.line,
                    tag.column,
                    BAD_VALUE,
                    "the Auction tag says {written}; it names the dealer: N, E, S or W",
                    tag="Auction",
                    written=tag.value,
                )
            )
            seat = 0
        moves: list[Move] = []
        after_end = N_("{written} follows the auction's end mark {mark}")
        for word, token in self._words(tag, after_end, lambda text: _comment(moves, text), diagnostics):
            if self._annotation(word, token, moves, notes, diagnostics):
                continue
            alerted = word.endswith("!") and not word.endswith("!!")
            plain = word.rstrip("!?")
            if plain.upper() == "AP":
                bid_seen = any(c not in ("P", "X", "XX") for c in calls)
                trailing = len(calls) - len(_strip_passes(calls))
                for _ in range(max((3 if bid_seen else 4) - trailing, 0)):
                    moves.append(_call_move(seat, "P", False, token))
                    calls.append("P")
                    seat = (seat + 1) % 4
                continue
            call = bridge.parse_call(plain)
            if call is None:
                diagnostics.append(make(path, token.line, token.column, BAD_CALL, "{written} is not a call", written=word))
                moves.append(
                    Move(bridge.SEAT_LETTERS[seat], f"{bridge.SEAT_LETTERS[seat]} {word}", None, token.line, token.column)
                )
                break
            moves.append(_call_move(seat, call, alerted, token))
            calls.append(call)
            seat = (seat + 1) % 4
        return moves

    def _words(
        self, tag: _Tag, after_end: str, comment: Callable[[str], None], diagnostics: list[Diagnostic]
    ) -> Iterator[tuple[str, _Token]]:
        """The words of an Auction or Play section in order, each with its token.

        Comments go to ``comment``. An end mark (``*``, ``+``) ends the
        section: a word after it is reported with the ``after_end`` template
        (written with ``N_`` by the caller) and nothing more is read.
        """
        ended: _Token | None = None
        for token in tag.body:
            if token.comment:
                comment(token.text)
                continue
            word = token.text
            if ended is not None:
                diagnostics.append(
                    make(self.source.path, token.line, token.column, AFTER_END, after_end, written=word, mark=ended.text)
                )
                return
            if word in ("*", "+"):
                ended = token
                continue
            yield word, token

    def _annotation(
        self, word: str, token: _Token, moves: list[Move], notes: dict[str, str], diagnostics: list[Diagnostic]
    ) -> bool:
        """A note reference, NAG, alert or irregularity mark: attached to the move before it. True if it was one."""
        m = _NOTE.fullmatch(word)
        if m:
            text = notes.get(m[1])
            if text is None:
                diagnostics.append(
                    make(
                        self.source.path,
                        token.line,
                        token.column,
                        UNKNOWN_NOTE,
                        'the note reference {written} has no [Note "{key}:…"] tag',
                        written=word,
                        key=m[1],
                    )
                )
            else:
                _comment(moves, text)
            return True
        if word == "!" and moves:
            last = moves[-1]
            if last.parts and last.parts[0][0] == "call":
                last.parts = (("call", last.parts[0][1], True),)
                last.text += "!"
            return True
        if re.fullmatch(r"\$\d+|[!?]{1,2}|\^[A-Za-z]", word):
            diagnostics.append(
                make(
                    self.source.path,
                    token.line,
                    token.column,
                    IRREGULAR,
                    "{written} was kept as written and not checked",
                    written=word,
                )
            )
            return True
        return False

    def _play(
        self, tag: _Tag, tags: dict[str, str], calls: list[str], notes: dict[str, str], diagnostics: list[Diagnostic]
    ) -> list[Move]:
        path = self.source.path
        leader = bridge.seat_of(tag.value)
        if leader is None:
            diagnostics.append(
                make(
                    path,
                    tag.line,
                    tag.column,
                    BAD_VALUE,
                    "the Play tag says {written}; it names the opening leader: N, E, S or W",
                    tag="Play",
                    written=tag.value,
                )
            )
            return []
        # The cards as written: rows of four in the leader's columns (None: '-', not played).
        tricks: list[list[tuple[str | None, _Token, list[str]]]] = [[]]

        def comment(text: str) -> None:  # kept with the card written before it
            if tricks[-1]:
                tricks[-1][-1][2].append(text)

        after_end = N_("{written} follows the play's end mark {mark}")
        for word, token in self._words(tag, after_end, comment, diagnostics):
            m = _NOTE.fullmatch(word)
            if m:
                if tricks[-1] and m[1] in notes:
                    tricks[-1][-1][2].append(notes[m[1]])
                elif m[1] not in notes:
                    diagnostics.append(
                        make(
                            path,
                            token.line,
                            token.column,
                            UNKNOWN_NOTE,
                            'the note reference {written} has no [Note "{key}:…"] tag',
                            written=word,
                            key=m[1],
                        )
                    )
                continue
            if re.fullmatch(r"\$\d+|[!?]{1,2}", word):
                continue
            plain = word.rstrip("!?")
            card_match = _CARD.fullmatch(plain)
            if plain != "-" and card_match is None:
                diagnostics.append(make(path, token.line, token.column, BAD_CARD, "{written} is not a card", written=word))
                tricks[-1].append(("?", token, []))
                break
            card = (
                None if plain == "-" else card_match[1].upper() + card_match[2].upper().replace("10", "T") if card_match else None
            )
            if len(tricks[-1]) == 4:
                tricks.append([])
            tricks[-1].append((card, token, []))
        return self._in_order(leader, tricks, tags, calls, diagnostics)

    def _in_order(
        self,
        leader: int,
        tricks: list[list[tuple[str | None, _Token, list[str]]]],
        tags: dict[str, str],
        calls: list[str],
        diagnostics: list[Diagnostic],
    ) -> list[Move]:
        """The cards in the order played: each trick from its leader on, the leader the last trick's winner."""
        strain = _trump(tags, calls)
        moves: list[Move] = []
        lead = leader
        for number, trick in enumerate(tricks, 1):
            if not trick or all(card is None for card, _, _ in trick):
                continue
            if strain is None:
                token = trick[0][1]
                diagnostics.append(
                    make(
                        self.source.path,
                        token.line,
                        token.column,
                        PLAY_UNORDERED,
                        "trick {trick}: neither the auction nor the Contract tag gives the trump suit",
                        trick=number,
                    )
                )
                break
            start = (lead - leader) % 4  # the column of this trick's leader
            played: list[tuple[int, str]] = []
            for k in range(len(trick)):
                column = (start + k) % 4
                if column >= len(trick):
                    continue
                card, token, comments = trick[column]
                seat = (leader + column) % 4
                letter = bridge.SEAT_LETTERS[seat]
                if card is None:
                    continue
                if card == "?":
                    moves.append(Move(letter, f"{letter} {token.text}", None, token.line, token.column))
                    return moves
                comment = " ".join(comments) or None
                moves.append(
                    Move(
                        letter,
                        f"{letter} {bridge.card_label(card)}",
                        None,
                        token.line,
                        token.column,
                        comment=comment,
                        parts=(("card", card),),
                    )
                )
                played.append((seat, card))
            if len(played) < 4:
                if number < len(tricks) and any(c is not None for t in tricks[number:] for c, _, _ in t):
                    token = trick[0][1]
                    diagnostics.append(
                        make(
                            self.source.path,
                            token.line,
                            token.column,
                            PLAY_UNORDERED,
                            "trick {trick} has {count} cards and later tricks follow: who led them cannot be known",
                            trick=number,
                            count=len(played),
                        )
                    )
                break
            lead = bridge.trick_winner(played, strain)
        return moves

    def _declared_score(
        self, tags: dict[str, str], calls: list[str], where: dict[str, tuple[int, int]], diagnostics: list[Diagnostic]
    ) -> dict[str, float] | None:
        """North-South's and East-West's score as the board declares it: the Score tag, else Contract and Result scored."""
        contract = _contract(tags, calls)
        for name, allowed in _VALUES.items():
            text = tags.get(name, "").strip()
            if _known(text) and not allowed(text):
                line, column = where.get(name, (1, 1))
                diagnostics.append(make(
                    self.source.path, line, column, BAD_VALUE,
                    "the {tag} tag says {written}, which PBN does not allow there", tag=name, written=text,
                ))  # fmt: skip
        written = tags.get("Contract", "").strip()
        score_text = tags.get("Score", "").strip()
        if _known(score_text):
            ns = bridge.declared_ns_score(score_text, contract)
            if ns is not None:
                return {bridge.NS: float(ns), bridge.EW: float(-ns)}
        if bridge.parse_contract(written) == "pass":
            return {bridge.NS: 0.0, bridge.EW: 0.0}
        result = re.fullmatch(r"(?:(NS|EW)\s+)?(\d{1,2})", tags.get("Result", "").strip(), re.IGNORECASE)
        if contract is None or contract.declarer is None or result is None or int(result[2]) > 13:
            return None
        tricks = int(result[2])
        if result[1] and (result[1].upper() == "NS") != (contract.declarer % 2 == 0):
            tricks = 13 - tricks
        board = tags.get("Board", "").strip()
        vul = bridge.vulnerability(tags.get("Vulnerable", "")) or (
            bridge.board_vulnerability(int(board)) if board.isdigit() and int(board) > 0 else "None"
        )
        ns = bridge.ns_score(contract, vul, tricks)
        return {bridge.NS: float(ns), bridge.EW: float(-ns)}


# The tags whose values PBN restricts, and what it allows (a value "?" or "" is unknown, not wrong).
_VALUES: dict[str, Callable[[str], bool]] = {
    "Vulnerable": lambda text: bridge.vulnerability(text) is not None,
    "Dealer": lambda text: bridge.seat_of(text.lstrip("^")) is not None,
    "Declarer": lambda text: bridge.seat_of(text.lstrip("^")) is not None,
    "Result": lambda text: re.fullmatch(r"(?:(?:NS|EW)\s+)?(?:1[0-3]|[0-9])", text, re.IGNORECASE) is not None,
    "Contract": lambda text: bridge.parse_contract(text) is not None,
}


def _line_end(text: str, i: int) -> int:
    ends = [e for e in (text.find("\n", i), text.find("\r", i)) if e >= 0]
    return min(ends) if ends else len(text)


def _known(text: str | None) -> bool:
    return bool(text) and text.strip() not in ("?", "")  # type: ignore[union-attr]


def _strip_passes(calls: list[str]) -> list[str]:
    out = list(calls)
    while out and out[-1] == "P":
        out.pop()
    return out


def _comment(moves: list[Move], text: str) -> None:
    if moves and text:
        last = moves[-1]
        last.comment = f"{last.comment} {text}" if last.comment else text


def _call_move(seat: int, call: str, alerted: bool, token: _Token) -> Move:
    letter = bridge.SEAT_LETTERS[seat]
    return Move(
        letter,
        f"{letter} {bridge.call_label(call)}{'!' if alerted else ''}",
        None,
        token.line,
        token.column,
        parts=(("call", call, alerted),),
    )


def _contract(tags: dict[str, str], calls: list[str]) -> bridge.Contract | None:
    """The contract: the auction's where it is complete, else the Contract and Declarer tags'."""
    dealer = bridge.seat_of(tags.get("Auction", "")) if tags.get("Auction") else None
    if calls and dealer is not None:
        auction = bridge.Auction(dealer)
        for call in calls:
            if auction.over or auction.problem(call, auction.next_seat) is not None:
                break
            auction.add(call, auction.next_seat)
        if auction.over:
            return auction.contract()
    parsed = bridge.parse_contract(tags.get("Contract", ""))
    declarer = bridge.seat_of(tags.get("Declarer", "").strip().lstrip("^"))
    if isinstance(parsed, bridge.Contract) and declarer is not None:
        return bridge.Contract(parsed.level, parsed.strain, parsed.doubled, declarer)
    return None


def _trump(tags: dict[str, str], calls: list[str]) -> str | None:
    contract = _contract(tags, calls)
    if contract is not None:
        return contract.strain
    parsed = bridge.parse_contract(tags.get("Contract", ""))
    return parsed.strain if isinstance(parsed, bridge.Contract) else None
