"""What a record says about its game: teams, result, date, time, place, event.

Three sources may say it (``specs/README.md``, "Where metadata comes from"):
the record's own header, the file name (``CODE-先手 vs 后手-结果-时间地点-赛事.txt``
and its real-world variants) and the folder's settings. This module reads the
pieces every notation family shares, the result words and the time/place
field, reads file names, and merges the sources field by field, the header
first, warning where the header and the file name disagree.

Nothing here names a game code: colour words and side letters come from the
game type's registry entry.
"""

from __future__ import annotations

import datetime
import functools
import re
import unicodedata
from collections.abc import Callable

from generator import games
from generator.diagnostics import Diagnostic, define, make
from generator.games import GameType, Side
from generator.i18n import T, Term
from generator.model import Metadata, Result

CODE_DIFFERS = define(
    "META-W001",
    "warning",
    "The file name and the header name different games",
    "Rename the file or correct the header; the header's game code is used.",
)
TEAM_DIFFERS = define(
    "META-W002",
    "warning",
    "The file name and the header name different teams",
    "Rename the file or correct the header; the header's team names are used.",
)
RESULT_DIFFERS = define(
    "META-W003",
    "warning",
    "The file name and the header declare different results",
    "Find out which result is right and correct the other; the header's result is used.",
)
WHEN_DIFFERS = define(
    "META-W004",
    "warning",
    "The file name and the header give a different date or time",
    "Rename the file or correct the header; the header's date and time are used.",
)
PLACE_DIFFERS = define(
    "META-W005",
    "warning",
    "The file name and the header give a different place",
    "Rename the file or correct the header; the header's place is used.",
)
EVENT_DIFFERS = define(
    "META-W006",
    "warning",
    "The file name and the header name a different event",
    "Rename the file or correct the header; the header's event name is used.",
)
RESULT_UNREADABLE = define(
    "META-W007",
    "warning",
    "The result words are not recognised",
    "Write 先手胜, 后手胜, 平局 or 未决胜. The result is taken from the file name "
    "when it has one; otherwise the game shows no declared result.",
)
DATE_UNREADABLE = define(
    "META-W008",
    "warning",
    "The time and place field has no readable date",
    'Write the date and time as "2017.07.29 14:00" followed by the place.',
)
UNDECIDED_HEADER = define(
    "META-N001",
    "note",
    "The header leaves the result undecided; the file name's result is used",
    "Programs write the header before the game ends (输赢未定, 未决胜) and name the "
    "file after it; nothing to do unless the file name is wrong.",
)

# ---------------------------------------------------------------------------
# Comparing names


# Names up to this long are remembered by loose(): real team and event names
# are far shorter. A longer text (a damaged header field of a megabyte) is
# reduced each time instead: remembered, 4,096 of them would keep gigabytes
# alive after their records are gone.
LOOSE_CACHED = 256


def loose(name: str) -> str:
    """A team or event name reduced for comparison: NFKC, case folded, no spaces.

    "Ａ２", "a2" and "A 2" all become "a2"; full-width and half-width
    punctuation become the same.
    """
    return _loose_cached(name) if len(name) <= LOOSE_CACHED else _reduced(name)


def _reduced(name: str) -> str:
    return "".join(unicodedata.normalize("NFKC", name).casefold().split())


# Remembered: the same team and event names are compared in record after record.
_loose_cached = functools.lru_cache(maxsize=4096)(_reduced)


def strip_colour(name: str, letter: str | None) -> str:
    """Drop the side letter the standards append to a team name.

    The headers write ``[先手参赛队 B]`` and the file names ``先手参赛队B vs
    后手参赛队W``, where B and W are the colours, not part of the name. The
    letter goes when it follows a space, when it is glued to a Chinese
    character as in the standard's own file name example (a Latin name such
    as ``TeamB`` keeps its letter: there the letter is likely part of it),
    and when it stands alone, which leaves no name.
    """
    name = name.strip()
    if not letter or not name or name[-1] != letter:
        return name
    if name == letter:  # "[ W]": the letter with no name in front of it
        return ""
    before = name[-2]
    if before.isspace():
        return name[:-2].rstrip()
    if unicodedata.category(before) == "Lo":  # CJK ideographs and kana are "Lo"
        return name[:-1]
    return name


# ---------------------------------------------------------------------------
# Result words

_WIN = ("胜", "获胜", "胜出", "胜利", "赢")


def _words(prefixes: tuple[str, ...], result: Result) -> dict[str, Result]:
    return {p + w: result for p in prefixes for w in _WIN}


# Keys are in loose() form. Colour words (黑方胜 ...) depend on the game and
# are added per game type by _colour_words().
_FIXED: dict[str, Result] = {
    **_words(("先手", "先手方", "先"), "first"),
    **_words(("后手", "后手方", "后"), "second"),
    "1-0": "first",
    "0-1": "second",
    **dict.fromkeys(("平局", "平", "和棋", "和局", "和", "平手", "draw", "1/2-1/2", "1\u20442-1\u20442", "0.5-0.5"), "draw"),
    **dict.fromkeys(("未决胜", "未决", "输赢未定", "胜负未定", "未定", "未知", "*", "unknown"), "unknown"),
}
# Recognised result words that do not say who won: the standards' own
# placeholder "先(后)手胜", written unchanged by some engines.
_AMBIGUOUS = frozenset({"先后手胜", "先(后)手胜", "先(后)手获胜", "先/后手胜"})
# Any colour word, for files whose game is unknown: recognised, winner unknown.
_ANY_COLOUR = re.compile(r"执?[黑白红蓝]方?(?:胜|获胜|胜出|胜利|赢)")
_TEAM_WIN = re.compile(r"(.+?)(?:胜出|获胜|胜利|胜|赢)")
# A reason after the words: "先手胜(超时)", "后手胜，对方认输".
_REASON = re.compile(r"[(（\[［【,，;；]")

# Keyed by the sides, not the code: colour words depend on nothing else.
_colour_cache: dict[tuple[object, object], dict[str, Result]] = {}


def _colour_words(game: GameType) -> dict[str, Result]:
    """黑方胜/白方胜 (or 红方胜/蓝方胜 ...) for this game's two sides, in loose() form."""
    key = (game.first, game.second)
    words = _colour_cache.get(key)
    if words is None:
        words = {}
        sides: tuple[tuple[Side, Result], ...] = ((game.first, "first"), (game.second, "second"))
        for side, result in sides:
            names = {side.name_zh, side.name_zh.removesuffix("方"), "执" + side.name_zh[:1]}
            words |= _words(tuple(names), result)
            english = loose(side.name_en)
            words |= {english + w: result for w in ("wins", "win", "won")}
        _colour_cache[key] = words
    return words


def parse_result(
    words: str, game: GameType | None, first: str | None = None, second: str | None = None
) -> tuple[Result | None, bool]:
    """Read declared result words: ``(result, recognised)`` (see :func:`_parse_result`).

    Remembered: an archive writes the same few result words again and again,
    and each record reads them twice (its header, and after its moves).
    """
    # The game counts by its two sides alone (its colour words), as for _colour_words().
    key = (words, (game.first, game.second) if game is not None else None, first, second)
    found = _RESULTS.get(key)
    if found is None:
        if len(_RESULTS) >= 4096:  # bounded: team names make the keys many in a big archive
            _RESULTS.clear()
        found = _RESULTS[key] = _parse_result(words, game, first, second)
    return found


_RESULTS: dict[tuple[str, object, str | None, str | None], tuple[Result | None, bool]] = {}


def _parse_result(
    words: str, game: GameType | None, first: str | None = None, second: str | None = None
) -> tuple[Result | None, bool]:
    """Read declared result words: ``(result, recognised)``.

    Accepts the canonical 先手胜/后手胜/平局/未决胜, the game's colour words,
    先手方获胜 and kin, ``<team>胜出``/``<team>胜`` (compared loosely with the
    team names ``first`` and ``second``), 输赢未定, ``1-0``, ``0-1``,
    ``1/2-1/2`` and ``*``. Words that are recognised but do not say who won
    (先后手胜, or colour words when the game is unknown) give ``(None, True)``.
    Unrecognised words give ``(None, False)``; the caller warns.
    """
    text = unicodedata.normalize("NFKC", words).strip().lstrip("#").strip()
    key = loose(text)
    if not key:
        return None, False
    for candidate in dict.fromkeys((key, loose(_without_reason(text)))):
        found = _lookup_result(candidate, game, first, second)
        if found is not None:
            return found
    return None, False


def _without_reason(text: str) -> str:
    """The text up to a reason after the result words, on its last line.

    What ``re.sub(r"[(（[［【,，;；].*$", "", text)`` gives, in one pass: as a
    pattern, every bracket before the last line break would be tried against
    the rest of its line, the square of the text's length on a long field.
    """
    reason = _REASON.search(text, text.rfind("\n") + 1)
    return text if reason is None else text[: reason.start()]


def _lookup_result(
    key: str, game: GameType | None, first: str | None, second: str | None
) -> tuple[Result | None, bool] | None:
    if not key:
        return None
    if key in _FIXED:
        return _FIXED[key], True
    if key in _AMBIGUOUS:
        return None, True
    if game is not None and (colour := _colour_words(game).get(key)) is not None:
        return colour, True
    m = _TEAM_WIN.fullmatch(key)
    if m:
        name = m.group(1)
        is_first = bool(first and loose(first) == name)
        is_second = bool(second and loose(second) == name)
        if is_first != is_second:
            return ("first" if is_first else "second"), True
        if is_first:  # both teams have that name: recognised, but who won?
            return None, True
    if game is None and _ANY_COLOUR.fullmatch(key):
        return None, True
    return None


# ---------------------------------------------------------------------------
# Date, time and place

# One-to-one replacements, so offsets into the original text stay valid and
# the place can be cut from the text exactly as written.
_WHEN_TABLE = str.maketrans(
    {**{chr(0xFF10 + i): str(i) for i in range(10)}, "：": ":", "．": ".", "／": "/", "－": "-", "｜": "|", "\u3000": " "}
)
_PLACEHOLDER = re.compile(r"[Yy]{4}[Mm]{2}[Dd]{2}(?:[HhTt]{2}[Mm]{2}(?:[Ss]{2})?)?")
_SEPARATED = re.compile(
    r"(?P<y>[0-9]{4})\s*[-./_年]\s*(?P<mo>[0-9]{1,2})\s*[-./_月]\s*(?P<d>[0-9]{1,2})(?![0-9])\s*日?"
    r"(?:[\sT_|,-]*(?P<h>[0-9]{1,2})\s*[:._时点]\s*(?P<mi>[0-9]{1,2})(?![0-9])(?:\s*[:._分]\s*(?P<s>[0-9]{1,2})(?![0-9]))?\s*[分秒]?)?"
)
# ASCII digits only: \d takes any script's digits ("٢٠٢٥"), which no record tool writes
# (full-width ones are turned into ASCII first, see _WHEN_WIDE).
_DIGITS = re.compile(r"[0-9]{8,14}(?![0-9])")
# The characters _WHEN_TABLE replaces: translate() is slow on CJK text and most texts have none.
_WHEN_WIDE = re.compile("[\uFF10-\uFF19：．／－｜\u3000]")
_PLACE_TRIM = " \t|,-_;，、"


def parse_when(text: str) -> tuple[str | None, str | None, str | None]:
    """Read a time-and-place field: ``(ISO date, "HH:MM" or None, place or None)``.

    Accepts ``2017.07.29 14:00 重庆``, ``2025.12.27 14.55 北京`` (a dot in the
    time, as in file names), ``2025.09.20 23_22 本地``,
    ``2018-08-03-10:40|安徽大学``, ``2018/8/3 10:00:00 合肥``, full-width colons,
    runs of digits (``201808031020`` = date and time, ``20180803932`` = an
    unpadded hour, ``20180803095429`` = with seconds, ``20180803`` = date
    only), a date alone, and the literal placeholder ``YYYYMMDDhhmm``. Seconds
    are dropped. When no date can be read the whole text is the place.
    """
    date, clock, end = _read_when(text)
    return date, clock, _place(text, end)


def _read_when(text: str) -> tuple[str | None, str | None, int]:
    """Date, time, and the offset where the text after them begins."""
    return _read_plain(_plain(text))


def _plain(text: str) -> str:
    """The text with full-width digits and separators made ASCII, one character for one."""
    return text.translate(_WHEN_TABLE) if _WHEN_WIDE.search(text) else text


_NON_SPACE = re.compile(r"\S")


def _read_plain(plain: str, start: int = 0) -> tuple[str | None, str | None, int]:
    """:func:`_read_when` of ``plain[start:]``, made plain by :func:`_plain`; offsets are in ``plain``.

    File names are read from every segment on, so nothing here may copy or
    scan the rest of the text: that would cost its length at each segment.
    """
    text_start = _NON_SPACE.search(plain, start)
    lead = text_start.start() if text_start else len(plain)
    m = _PLACEHOLDER.match(plain, lead)
    if m:
        return None, None, m.end()
    m = _SEPARATED.match(plain, lead)
    if m:
        date = _date(m["y"], m["mo"], m["d"])
        if date is not None:
            clock = _clock(m["h"], m["mi"]) if m["h"] else None
            end = m.end() if clock or not m["h"] else m.end("d")
            return date, clock, end
    m = _DIGITS.match(plain, lead)
    if m:
        found = _from_digits(m.group())
        if found is not None:
            return found[0], found[1], m.end()
    return None, None, start


def _from_digits(digits: str) -> tuple[str, str | None] | None:
    date = _date(digits[:4], digits[4:6], digits[6:8])
    rest = digits[8:]
    if date is None:
        return None
    if not rest:
        return date, None
    # 11 and 13 digits: the hour was written without its leading zero.
    if len(rest) in (3, 5):
        rest = "0" + rest
    if len(rest) not in (4, 6):
        return None
    clock = _clock(rest[:2], rest[2:4])
    return (date, clock) if clock else None


# Remembered, as the clock below: a tournament's games share a few days and times.
@functools.lru_cache(maxsize=4096)
def _date(year: str, month: str, day: str) -> str | None:
    try:
        return datetime.date(int(year), int(month), int(day)).isoformat()
    except ValueError:
        return None


@functools.lru_cache(maxsize=4096)
def _clock(hour: str, minute: str) -> str | None:
    h, m = int(hour), int(minute)
    return f"{h:02d}:{m:02d}" if h < 24 and m < 60 else None


def _place(text: str, start: int) -> str | None:
    return text[start:].strip(_PLACE_TRIM + "\u3000｜") or None


# ---------------------------------------------------------------------------
# File names

_EXTENSION = re.compile(r"\.[A-Za-z][A-Za-z0-9_]{0,9}$")
_CODE_LIKE = re.compile(r"[A-Z][A-Z0-9]{1,4}")
# Where a match around "vs" may start: not inside a run of spaces, only where
# the run does (a match inside it would start there too, further left). The
# engine would otherwise try each space of a long run against the rest of the
# run, the square of its length. The runs themselves are possessive (\s*+):
# what follows them is never a space, so giving one back never helps.
_RUN_START = r"(?:(?<!\s)|(?!\s))"
_VS_SPACED = re.compile(_RUN_START + r"\s++vs\.?\s+", re.IGNORECASE)
_VS_ANY = re.compile(_RUN_START + r"\s*+vs\.?\s*", re.IGNORECASE)
# Result words glued to the end of the second team's name:
# "沼泽vs北京工业大学-知行执守黑方胜" (a real SU file name).
_GLUED_RESULT = re.compile(
    r"(?P<head>.+?)(?P<words>(?:先手|后手)方?(?:获胜|胜出|胜)|执?[黑白红蓝]方?(?:获胜|胜出|胜)|平局|和棋|未决胜|输赢未定)"
)
_VS_ALONE = re.compile(_RUN_START + r"\s*+-\s*+vs\.?\s*+-\s*", re.IGNORECASE)
# "先手方贝壳苏拉后手方北信科苏拉卡尔塔后手胜": the teams named by their role.
_SIDES_NAMED = re.compile(r"先手方?[:：]?(?P<first>.+?)后手方?[:：]?(?P<second>.+)")
_RESULT_AND_TIME = re.compile(r"(?P<words>\S+)\s+(?P<when>[0-9].*)")
# The same with nothing between them, as a real writer names its files: "先手胜202507291400"
# (the naming rule's 12-digit time glued to the result words).
_RESULT_GLUED_TIME = re.compile(r"(?P<words>\S*[^\s0-9])(?P<when>[0-9]{12})")
# A name whose code is followed by a colon (full-width, or ASCII and a space), and such colons.
_COLON_FIELDS = re.compile(r"[A-Za-z][A-Za-z0-9]{0,5}\s*(?:：|:\s)")
_FIELD_COLON = re.compile(r"\s*(?:：|:\s)\s*")
_LOOKS_LIKE_RESULT = re.compile(r".*(?:胜|胜出|获胜|赢)")
# File systems keep a name to 255 bytes or characters (Linux: 255 bytes,
# NTFS: 255 UTF-16 units), so a longer one did not come from a file and is
# not read: each segment that may name a winner ("x胜利") reads the team names
# before it, which costs the square of the name's length.
NAME_MAX = 1024


def from_filename(name: str) -> Metadata:
    """What a file name says (see :func:`_from_filename`); a game of more seats
    names the teams of the third seat on after more ``vs`` (``P2T1-A vs B vs C-…``)."""
    meta = _from_filename(name)
    game = games.get(meta.code)
    if game is not None and game.more_seats and meta.second:
        parts = _VS_SPACED.split(meta.second, maxsplit=len(game.more_seats))
        if len(parts) == 1:
            parts = _VS_ANY.split(meta.second, maxsplit=len(game.more_seats))
        second, *more = (team.strip() for team in parts)
        if more:
            meta.second, meta.more = second or None, tuple(team or None for team in more)
    return meta


def _from_filename(name: str) -> Metadata:
    """What a file name says, following ``CODE-先手 vs 后手-结果-时间地点-赛事.txt``.

    Team names may contain ``-`` (``北京科技大学-沼泽``), so the name is not
    simply split: the code is the part before the first ``-``, the result is
    the first later segment that reads as result words, the teams are what
    comes before it, around ``vs``; after the result come the time and
    place, then the event. Names outside the convention give what could be
    read, often nothing; this never raises. A name longer than
    :data:`NAME_MAX` characters gives nothing.
    """
    stem = re.split(r"[\\/]", name)[-1]
    stem = _EXTENSION.sub("", stem.strip()).strip()
    meta = Metadata()
    if len(stem) > NAME_MAX:
        return meta
    if _COLON_FIELDS.match(stem):
        # The naming "CODE：先手 vs 后手：先(后)手胜" (a standard's, and a contest GUI's):
        # after the code, colons separate the fields as "-" does; a time keeps its "10:00".
        stem = _FIELD_COLON.sub("-", stem)
    code, sep, rest_of_name = stem.partition("-")
    if sep and _is_code(code, rest_of_name):
        meta.code = code.strip().upper()
        stem = rest_of_name
    game = games.get(meta.code)
    # "oppo-vs-将军2": a "vs" standing alone between dashes joins the two names.
    segments = _VS_ALONE.sub(" vs ", stem).split("-")

    vs = next((i for i, s in enumerate(segments) if _VS_ANY.search(s)), None)
    start = 0 if vs is None else vs + 1
    # Whether a date starts at a segment is read from the name joined once:
    # joining the rest of the name at every segment costs its length each time.
    dated = _dated_segments(segments)
    for i in range(start, len(segments)):
        if dated(i):
            # No result in the name. Anything between the teams and the date
            # sits where the result belongs and is not taken as a team name.
            meta.first, meta.second = _teams("-".join(segments[:start]), game)
            _read_when_and_event(segments[i:], meta)
            return meta
        # The teams decide only words that name a winner ("<team>胜出"): the
        # names before a segment are read for those alone, and for the result.
        teams = _teams("-".join(segments[:i]), game) if _NAMES_WINNER.search(segments[i]) else None
        found = _read_result_segment(segments[i], game, *(teams or (None, None)))
        if found is not None:
            words, result, head, when = found
            if head:  # words glued to the second name: the teams are read again with its head
                first, second = _teams("-".join([*segments[:i], head]), game)
            else:
                first, second = teams or _teams("-".join(segments[:i]), game)
            meta.first, meta.second = first, second
            meta.result, meta.result_text = result, words
            _read_when_and_event(([when] if when else []) + segments[i + 1 :], meta)
            return meta
    # Neither result nor date: only the teams can be trusted.
    meta.first, meta.second = _teams("-".join(segments[:start]), game)
    return meta


# Result words that can only be read with the team names ("<team>胜出" and
# kin, see parse_result) hold one of these; no other character becomes one
# under NFKC or case folding.
_NAMES_WINNER = re.compile("[胜赢]")


def _dated_segments(segments: list[str]) -> Callable[[int], bool]:
    """A test of whether the name from segment ``i`` on begins with a date, as :func:`_when_starts`."""
    plain = _plain("-".join(segments))
    offsets = [0]
    for segment in segments:
        offsets.append(offsets[-1] + len(segment) + 1)

    def dated(i: int) -> bool:
        date, _, end = _read_plain(plain, offsets[i])
        return date is not None or end > offsets[i]

    return dated


def _is_code(segment: str, following: str) -> bool:
    """Whether the part before the first "-" is a game code.

    A registered code always is. Codes not (yet) in the registry are
    recognised by their shape (upper case letters and digits, 2 to 5 of
    them) when the rest of the name has a "vs" in it. A team code in front,
    as in "A1-B2 vs C3", would be mistaken for a game code; no real file
    name seen so far does that.
    """
    code = segment.strip()
    if games.get(code) is not None:
        return True
    return bool(_CODE_LIKE.fullmatch(code)) and bool(_VS_ANY.search(following))


def _teams(text: str, game: GameType | None) -> tuple[str | None, str | None]:
    text = text.strip()
    parts = _VS_SPACED.split(text, maxsplit=1)
    if len(parts) != 2:
        parts = _VS_ANY.split(text, maxsplit=1)
    if len(parts) != 2:
        m = _SIDES_NAMED.fullmatch(text)
        if m is None:
            return None, None
        parts = [m["first"], m["second"]]
    first = strip_colour(parts[0], game.first.letter if game else None)
    second = strip_colour(parts[1], game.second.letter if game else None)
    return first or None, second or None


def _read_result_segment(
    segment: str, game: GameType | None, first: str | None, second: str | None
) -> tuple[str, Result | None, str | None, str | None] | None:
    """(words, result, text glued before the words, time text after them), or None."""
    words = segment.strip()
    result, recognised = parse_result(words, game, first, second)
    if recognised:
        return words, result, None, None
    # The standard's own example: "先(后)手胜 yyyymmddttmm" in one segment.
    m = _RESULT_AND_TIME.fullmatch(words) or _RESULT_GLUED_TIME.fullmatch(words)
    if m and _when_starts(m["when"]):
        result, recognised = parse_result(m["words"], game, first, second)
        if recognised:
            return m["words"], result, None, m["when"]
    m = _GLUED_RESULT.fullmatch(words)
    if m:
        result, recognised = parse_result(m["words"], game, first, second)
        if recognised:
            return m["words"], result, m["head"], None
    if _LOOKS_LIKE_RESULT.fullmatch(words):
        # "X胜出" for a team that is not in the name: a result, winner unknown.
        return words, None, None, None
    return None


def _when_starts(text: str) -> bool:
    """Whether the text begins with a date (or the YYYYMMDDhhmm placeholder)."""
    date, _, end = _read_when(text)
    return date is not None or end > 0


def _read_when_and_event(segments: list[str], meta: Metadata) -> None:
    """The segments after the result: time and place, then the event."""
    text = "-".join(segments).strip(" -")
    if not text:
        return
    date, clock, end = _read_when(text)
    if date is not None or end > 0:  # as _when_starts(text), without reading the text twice
        meta.date, meta.time = date, clock
        after = text[end:].lstrip(" \t|_\u3000")
        if after.startswith("-"):
            # "…-201808031040-2018CCGC": a dash right after the time, no place.
            meta.event = after.strip(" -") or None
        else:
            # "…-2025.12.27 14.55 北京-赛事": the place ends at the first dash.
            place, _, event = after.partition("-")
            meta.place = place.strip() or None
            meta.event = event.strip(" -") or None
        return
    parts = [p.strip() for p in text.split("-") if p.strip() and not _PLACEHOLDER.fullmatch(p.strip())]
    if len(parts) == 1:
        meta.event = parts[0]
    elif parts:
        # No date, but the slot where time and place go is filled: a place.
        meta.place, meta.event = parts[0], "-".join(parts[1:])


# ---------------------------------------------------------------------------
# Merging the sources


# The fields merge() compares by name, and the word a warning says for each.
_NAMED_FIELDS = (("first", T("first team")), ("second", T("second team")), ("place", T("place")), ("event", T("event")))


def merge(
    path: str, header: Metadata, from_name: Metadata, folder: Metadata | None = None
) -> tuple[Metadata, list[Diagnostic]]:
    """Field by field: the header first, then the file name, then the folder.

    Where the header and the file name both give a value and disagree
    (compared loosely), a warning names both values and the header's is used.
    The folder only fills gaps: its settings are defaults, not claims about
    one game. Diagnostics point at line 1, column 1 of the file.
    """
    folder = folder or Metadata()
    out = Metadata()
    diagnostics: list[Diagnostic] = []

    def warn(code: str, what: Term, named: str, written: str) -> None:
        diagnostics.append(
            make(
                path,
                1,
                1,
                code,
                'file name says {what} "{named}", header says "{written}"; using the header',
                what=what,
                named=named,
                written=written,
            )
        )

    out.code = _pick(header.code, from_name.code, folder.code)
    if header.code and from_name.code and header.code.upper() != from_name.code.upper():
        warn(CODE_DIFFERS, T("game"), from_name.code, header.code)

    for field, what in _NAMED_FIELDS:
        h, n = getattr(header, field), getattr(from_name, field)
        setattr(out, field, _pick(h, n, getattr(folder, field)))
        if h and n and loose(h) != loose(n):
            code = {"place": PLACE_DIFFERS, "event": EVENT_DIFFERS}.get(field, TEAM_DIFFERS)
            warn(code, what, n, h)

    # The result and the words it was read from travel together. A header
    # that leaves it undecided (written before the game ended) gives way to a
    # file name that names one.
    undecided = header.result == "unknown" and from_name.result not in (None, "unknown")
    for source in (from_name, folder) if undecided else (header, from_name, folder):
        if source.result is not None:
            out.result, out.result_text = source.result, source.result_text
            break
    else:
        out.result_text = _pick(header.result_text, from_name.result_text, folder.result_text)
    if undecided:
        diagnostics.append(make(
            path, 1, 1, UNDECIDED_HEADER, 'header says "{written}", file name says "{named}"; using the file name',
            written=_shown_result(header), named=_shown_result(from_name),
        ))  # fmt: skip
    elif header.result and from_name.result and header.result != from_name.result:
        warn(RESULT_DIFFERS, T("result"), _shown_result(from_name), _shown_result(header))

    _merge_when(header, from_name, folder, out, warn)
    return out, diagnostics


def _merge_when(
    header: Metadata, from_name: Metadata, folder: Metadata, out: Metadata, warn: Callable[[str, Term, str, str], None]
) -> None:
    """Date and time as one value: a time is never taken from a source whose date differs."""
    if header.date and from_name.date and header.date != from_name.date:
        out.date, out.time = header.date, header.time
        warn(WHEN_DIFFERS, T("date"), _shown_when(from_name), _shown_when(header))
        return
    out.date = _pick(header.date, from_name.date, folder.date)
    same_day = [s for s in (header, from_name, folder) if s.date in (None, out.date)]
    out.time = _pick(*(s.time for s in same_day))
    if header.time and from_name.time and header.time != from_name.time:
        warn(WHEN_DIFFERS, T("time"), _shown_when(from_name), _shown_when(header))


def _pick(*values: str | None) -> str | None:
    for value in values:  # a plain loop: seven calls per record
        if value:
            return value
    return None


def _shown_result(meta: Metadata) -> str:
    return meta.result_text or meta.result or ""


def _shown_when(meta: Metadata) -> str:
    return " ".join(v for v in (meta.date, meta.time) if v)
