"""Duplicate records: the same game saved by both sides' programs.

At a CCGC event each team's program writes its own record of every game it
plays, and organisers often collect both. The two files differ in their
headers, whitespace and MARK annotations but hold the same moves. Qipu shows
one game page per game: the records are grouped by game code and a hash of
the normalised move sequence (:func:`moves_key`), the first file by path is
shown, and the others are named on its page.

Two checks fall out of the grouping, both warnings since the organiser has to
decide which file is right:

- copies of one game that declare different results or different team names;
- records of the same pairing at the same date and time whose moves differ
  (two programs that disagree about what was played).
"""

from __future__ import annotations

import bisect
import hashlib
import heapq
import re
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from generator.archive.teams import few_pairs
from generator.diagnostics import Diagnostic, define, make
from generator.i18n import N_, T

__all__ = [
    "COPY_RESULT",
    "COPY_TEAMS",
    "DUPLICATE",
    "NEAR_COPY",
    "NEAR_MAX",
    "SAME_PAIRING",
    "Entry",
    "game_keys",
    "group",
    "moves_key",
    "near_copies",
    "shared_names",
]

# Codes are numbered from 101 so that other archive modules (events, config
# of events) can use ARC-W001 onwards without clashing.
COPY_RESULT = define(
    "ARC-W101",
    "warning",
    "two copies of one game declare different results",
    "Check which result is right and correct the other file, or remove the wrong copy.",
)
COPY_TEAMS = define(
    "ARC-W102",
    "warning",
    "two copies of one game name different teams",
    "If both names mean one team, add an alias in site.toml; otherwise correct the wrong file.",
)
SAME_PAIRING = define(
    "ARC-W103",
    "warning",
    "records of the same pairing and time hold different moves",
    "The two programs disagree about what was played: compare the files and keep the correct one.",
)
NEAR_COPY = define(
    "ARC-W104",
    "warning",
    "two records of one game start alike but disagree later",
    "Both teams' programs saved this game and their moves differ: compare them side by side "
    "on the problems page and keep the correct file.",
)
DUPLICATE = define(
    "ARC-N101",
    "note",
    "this record is a copy of a game shown from another file",
    "Nothing to do; the game page names every copy. Remove the copy if you want one file per game.",
)


@dataclass(frozen=True, slots=True)
class Entry:
    """What duplicate detection needs to know about one record."""

    path: str
    code: str
    moves_key: str  # from moves_key(); "" when the record has no moves
    first: str | None  # canonical team names
    second: str | None
    date: str | None
    time: str | None
    declared: str | None  # "first", "second", "draw", "unknown" or None
    plies: int  # number of moves in the record
    opening: str = ""  # the opening key of game_keys()
    folder: str = ""  # the folders below the event (group, stage)
    # The file, when ``path`` names one game of a file of several (a match):
    # two games of one file are two games, however alike, never copies.
    file: str = ""


_MARK = re.compile(r"MARK\[[^\]]*\]", re.IGNORECASE)


def normalise_move(move: str) -> str:
    """A move as both sides' writers would agree on it (see :func:`moves_key`)."""
    return _normalise(move)


# A capture sign between two squares ("4AX6C"): some writers mark captures,
# others write every move with "-" (SU); both mean the same move.
_CAPTURE_SIGN = re.compile(r"(?<=[A-Z0-9])[X×](?=\d)")


def _normalise(move: str) -> str:
    """A move as both sides' writers would agree on it: no MARK, no spaces, upper case, "-" for "X"."""
    move = unicodedata.normalize("NFKC", move)
    if "[" in move:  # a MARK[...] to drop (a regex search costs more than this test)
        move = _without_marks(move)
    # str.split() splits at exactly the characters \s matches (str.isspace), in a tenth of the time.
    move = "".join(move.split()).upper()
    return _CAPTURE_SIGN.sub("-", move) if "X" in move or "×" in move else move


def _without_marks(text: str) -> str:
    """``_MARK.sub("", text)``, in one pass over the text.

    A MARK[ with no "]" after it is tried against the whole rest of the text,
    and so is every later one: on the joined moves of a record full of
    unclosed marks, the square of its length. No match ends after the last
    "]", so the text after it is left as it is.
    """
    end = text.rfind("]") + 1
    return _MARK.sub("", text[:end]) + text[end:] if end else text


def moves_key(code: str, moves: Iterable[str]) -> str:
    """A stable key of a game: its code and its normalised move texts.

    Returns "" for a record without moves: such records are never grouped,
    since every empty record of a game type would otherwise be "the same".
    """
    return game_keys(code, moves)[0]


# How many moves two records must share from the start to be taken for
# copies of one game: a record truncated early (a real one stops after six)
# still pairs with its complete copy.
OPENING = 6


def game_keys(code: str, moves: Iterable[str]) -> tuple[str, str]:
    """(:func:`moves_key`, the opening key) of a record, its moves normalised once.

    The opening key is that of its first :data:`OPENING` moves ("" if it has fewer).
    """
    # One normalisation of the joined texts, not one per move: the same result.
    texts = [t for t in _normalise("\x00".join(moves)).split("\x00") if t]
    if not texts:
        return "", ""
    # Unit separators keep ("AB", "C") and ("A", "BC") apart.
    head = code.upper()
    whole = hashlib.sha256("\x1f".join([head, *texts]).encode("utf-8")).hexdigest()[:32]
    if len(texts) < OPENING:
        return whole, ""
    opening = hashlib.sha256("\x1f".join([head, *texts[:OPENING]]).encode("utf-8")).hexdigest()[:24]
    return whole, opening


def near_copies(groups: list[list[Entry]]) -> tuple[list[tuple[str, str]], list[Diagnostic]]:
    """Records that are one game saved twice with different moves or results.

    Pairs (shown file, other file) to compare side by side: copies of one
    move sequence that declare different results, and records that share
    their opening moves, their folder, their date (or give none) and at
    least one team, but not all their moves: one program wrote a move the
    other did not, or stopped early. Warnings (ARC-W104) for the second kind.
    """
    pairs: list[tuple[str, str]] = []
    for members in groups:
        results = {e.declared for e in members if e.declared not in (None, "unknown")}
        if len(members) > 1 and len(results) > 1:
            pairs += [(members[0].path, e.path) for e in members[1:] if e.declared != members[0].declared]
    buckets: dict[tuple[str, str, str], list[Entry]] = defaultdict(list)
    for members in groups:
        shown = members[0]
        if shown.opening:
            buckets[(shown.code, shown.opening, shown.folder)].append(shown)
    found: list[Diagnostic] = []
    for candidates in buckets.values():
        for a, b in _same_games(candidates):
            pairs.append((a.path, b.path))
            if (a.first, a.second, a.date, a.time) == (b.first, b.second, b.date, b.time) and a.time:
                continue  # SAME_PAIRING already says so
            for this, other in ((a, b), (b, a)):
                found.append(
                    make(
                        this.path, 1, 1, NEAR_COPY,
                        "this record and {other} start with the same {opening} moves but differ later "
                        "({plies} and {other_plies} moves): probably one game saved by both programs; "
                        "the problems page compares them",
                        other=other.path,
                        opening=OPENING,
                        plies=this.plies,
                        other_plies=other.plies,
                    )
                )
    return sorted(set(pairs)), sorted(found)


def _same_game(a: Entry, b: Entry) -> bool:
    if a.date and b.date and a.date != b.date:
        return False
    return bool((a.first and a.first == b.first) or (a.second and a.second == b.second))


# A record is paired with at most this many later records of its bucket that
# may be the same game. Real archives have one, the other program's copy; a
# record that shares its opening, a team and a day with hundreds (a damaged
# or generated archive) would otherwise give the square of their number in
# pairs and warnings.
NEAR_MAX = 8


def _same_games(candidates: Sequence[Entry]) -> Iterator[tuple[Entry, Entry]]:
    """Pairs (a, b), a before b, that :func:`_same_game` accepts: for each a the first :data:`NEAR_MAX`.

    Only records that share a team on one side can be one game, so each
    record looks up the others by team (and by day, where it gives one)
    instead of trying every other record of the bucket.
    """
    index = _Positions(candidates)
    for i, a in enumerate(candidates):
        later = heapq.merge(*(_after(positions, i) for positions in index.partners(a)))
        previous, taken = -1, 0
        for j in later:
            if j == previous:
                continue  # found on both sides
            previous = j
            if _same_game(a, candidates[j]):  # always: the index only narrows the candidates
                yield a, candidates[j]
                taken += 1
                if taken == NEAR_MAX:
                    break


class _Positions:
    """Where each team stands in a bucket of records, by side: in any record, and on each day."""

    def __init__(self, candidates: Sequence[Entry]) -> None:
        self.any_day: dict[tuple[int, str], list[int]] = defaultdict(list)
        self.on_day: dict[tuple[int, str, str], list[int]] = defaultdict(list)  # day "": no date given
        for j, entry in enumerate(candidates):
            for side, team in ((0, entry.first), (1, entry.second)):
                if team:
                    self.any_day[(side, team)].append(j)
                    self.on_day[(side, team, entry.date or "")].append(j)

    def partners(self, a: Entry) -> list[list[int]]:
        """Sorted lists of positions that together hold every record that may be ``a``'s game.

        A record without a date may be any day's game; one with a date, a
        game of that day or of a record that gives none.
        """
        lists: list[list[int]] = []
        for side, team in ((0, a.first), (1, a.second)):
            if not team:
                continue
            if a.date:
                lists += [self.on_day.get((side, team, a.date), []), self.on_day.get((side, team, ""), [])]
            else:
                lists.append(self.any_day.get((side, team), []))
        return lists


def _after(positions: list[int], i: int) -> Iterator[int]:
    """The positions after ``i``, found by bisection and read lazily: a copy would cost the whole list."""
    return (positions[k] for k in range(bisect.bisect_right(positions, i), len(positions)))


def _has_moves(entry: Entry) -> bool:
    return entry.plies > 0 and bool(entry.moves_key)


_RESULT_WORDS = {
    "first": T("first player wins"),
    "second": T("second player wins"),
    "draw": T("draw"),
    "unknown": T("undecided"),
}

# A message names up to three other files (path1, value1, ...), then how many
# more there are: one template per count, so that every word is translated.
_Templates = tuple[str, str, str, str]  # 1, 2 or 3 others named; 3 named and {more}
_COPY_RESULT_TEMPLATES: _Templates = (
    N_("this file declares '{value}', but other copies of this game differ: {path1} ('{value1}')"),
    N_("this file declares '{value}', but other copies of this game differ: {path1} ('{value1}'), {path2} ('{value2}')"),
    N_(
        "this file declares '{value}', but other copies of this game differ: {path1} ('{value1}'), {path2} ('{value2}'), "
        "{path3} ('{value3}')"
    ),
    N_(
        "this file declares '{value}', but other copies of this game differ: {path1} ('{value1}'), {path2} ('{value2}'), "
        "{path3} ('{value3}') and {more} more"
    ),
)
_COPY_FIRST_TEMPLATES: _Templates = (
    N_("this file names the first player '{value}', but other copies of this game differ: {path1} ('{value1}')"),
    N_(
        "this file names the first player '{value}', but other copies of this game differ: {path1} ('{value1}'), "
        "{path2} ('{value2}')"
    ),
    N_(
        "this file names the first player '{value}', but other copies of this game differ: {path1} ('{value1}'), "
        "{path2} ('{value2}'), {path3} ('{value3}')"
    ),
    N_(
        "this file names the first player '{value}', but other copies of this game differ: {path1} ('{value1}'), "
        "{path2} ('{value2}'), {path3} ('{value3}') and {more} more"
    ),
)
_COPY_SECOND_TEMPLATES: _Templates = (
    N_("this file names the second player '{value}', but other copies of this game differ: {path1} ('{value1}')"),
    N_(
        "this file names the second player '{value}', but other copies of this game differ: {path1} ('{value1}'), "
        "{path2} ('{value2}')"
    ),
    N_(
        "this file names the second player '{value}', but other copies of this game differ: {path1} ('{value1}'), "
        "{path2} ('{value2}'), {path3} ('{value3}')"
    ),
    N_(
        "this file names the second player '{value}', but other copies of this game differ: {path1} ('{value1}'), "
        "{path2} ('{value2}'), {path3} ('{value3}') and {more} more"
    ),
)
_PAIRING_TEMPLATES: _Templates = (
    N_(
        "records of the same pairing and time disagree: {first} vs {second} on {date} {time}; this file has {plies} "
        "moves, different moves are in {path1} ({value1} moves)"
    ),
    N_(
        "records of the same pairing and time disagree: {first} vs {second} on {date} {time}; this file has {plies} "
        "moves, different moves are in {path1} ({value1} moves), {path2} ({value2} moves)"
    ),
    N_(
        "records of the same pairing and time disagree: {first} vs {second} on {date} {time}; this file has {plies} "
        "moves, different moves are in {path1} ({value1} moves), {path2} ({value2} moves), {path3} ({value3} moves)"
    ),
    N_(
        "records of the same pairing and time disagree: {first} vs {second} on {date} {time}; this file has {plies} "
        "moves, different moves are in {path1} ({value1} moves), {path2} ({value2} moves), {path3} ({value3} moves) "
        "and {more} more"
    ),
)


def _others(
    items: list[tuple[str, str, object]], mine: str, total: int, templates: _Templates, limit: int = 3
) -> tuple[str, dict[str, object]]:
    """Name up to ``limit`` items (key, path, value) whose key is not ``mine``; ``total`` is how many there are.

    Returns the template for that many and its arguments (path1, value1, ...,
    more). Stops as soon as enough are found, so that naming the others for
    every member of a large group stays linear.
    """
    args: dict[str, object] = {}
    shown = 0
    for key, path, value in items:
        if key != mine:
            shown += 1
            args[f"path{shown}"], args[f"value{shown}"] = path, value
            if shown == limit:
                break
    rest = total - shown
    if rest > 0:
        args["more"] = rest
        return templates[3], args
    return templates[shown - 1], args


def _result_word(entry: Entry) -> str | None:
    return _RESULT_WORDS.get(entry.declared, entry.declared) if entry.declared else None


def _first(entry: Entry) -> str | None:
    return entry.first


def _second(entry: Entry) -> str | None:
    return entry.second


def _disagreements(copies: list[Entry]) -> list[Diagnostic]:
    """Warnings for copies of one game that disagree on the result or the teams.

    A field missing from one copy is not a disagreement: that copy just did
    not say.
    """
    out: list[Diagnostic] = []
    fields = (
        (_COPY_RESULT_TEMPLATES, COPY_RESULT, _result_word),
        (_COPY_FIRST_TEMPLATES, COPY_TEAMS, _first),
        (_COPY_SECOND_TEMPLATES, COPY_TEAMS, _second),
    )
    for templates, code, read in fields:
        values: dict[str, list[str]] = defaultdict(list)
        for entry in copies:
            value = read(entry)
            if value is not None:
                values[value].append(entry.path)
        if len(values) < 2:
            continue
        items: list[tuple[str, str, object]] = [
            (value, path, value) for value, paths in sorted(values.items()) for path in paths
        ]
        for value, paths in sorted(values.items()):
            template, named = _others(items, value, len(items) - len(paths), templates)
            for path in paths:
                out.append(make(path, 1, 1, code, template, value=value, **named))
    return out


def _pairing_conflicts(entries: list[Entry]) -> list[Diagnostic]:
    """Warnings for records of one pairing at one date and time with different moves.

    Only records that give both teams, a date and a time are compared: a
    date alone does not tell two games of one day apart.
    """
    slots: dict[tuple[str, str, str, str, str], list[Entry]] = defaultdict(list)
    for entry in entries:
        if entry.first and entry.second and entry.date and entry.time:
            slots[(entry.code, entry.first, entry.second, entry.date, entry.time)].append(entry)
    out: list[Diagnostic] = []
    for (_, first, second, date, time), records in slots.items():
        if len(records) < 2:
            continue  # almost every slot: one record, nothing to compare
        by_moves: dict[str, list[Entry]] = defaultdict(list)
        for entry in records:
            by_moves[entry.moves_key if _has_moves(entry) else ""].append(entry)
        if len(by_moves) < 2:
            continue
        total = len(records)
        # In the order of the text the message shows for each: "path (n moves)".
        items: list[tuple[str, str, object]] = sorted(
            ((key, e.path, e.plies) for key, members in by_moves.items() for e in members),
            key=lambda item: f"{item[1]} ({item[2]} moves)",
        )
        for key, members in by_moves.items():
            template, named = _others(items, key, total - len(members), _PAIRING_TEMPLATES)
            for entry in members:
                out.append(
                    make(
                        entry.path, 1, 1, SAME_PAIRING, template,
                        first=first, second=second, date=date, time=time, plies=entry.plies, **named,
                    )
                )
    return out


def _by_date(members: list[Entry]) -> list[list[Entry]]:
    """Split copies of one move sequence that were played on different dates.

    Deterministic programs can play the very same game twice (a replayed
    round, a final after a group stage); records dated on different days are
    two games, not two copies. A copy without a date joins the earliest
    dated game.
    """
    dates = sorted({e.date for e in members if e.date})
    if len(dates) < 2:
        return [members]
    split: dict[str, list[Entry]] = {date: [] for date in dates}
    for entry in members:
        split[entry.date or dates[0]].append(entry)
    return list(split.values())


def _by_file(members: list[Entry]) -> list[list[Entry]]:
    """Split copies so that no two are games of one file: a match's games are all played.

    Deterministic programs can play the very same game twice in a match; each
    such game stays its own, with at most one game of each file as its copies.
    """
    if not any(entry.file for entry in members):
        return [members]
    parts: list[list[Entry]] = []
    files: list[set[str]] = []
    for entry in sorted(members, key=lambda e: e.path):
        # The first part that holds no game of this entry's file, else a new one.
        at = next((i for i, taken in enumerate(files) if not entry.file or entry.file not in taken), len(parts))
        if at == len(parts):
            parts.append([])
            files.append(set())
        parts[at].append(entry)
        if entry.file:
            files[at].add(entry.file)
    return parts


def group(
    entries: Iterable[Entry], prefer: Callable[[Entry], int] = lambda entry: 0
) -> tuple[list[list[Entry]], list[Diagnostic]]:
    """Group the records that hold the same game, and report what disagrees.

    A group is every record with the same game code and the same
    :func:`moves_key` (with at least one move), except that records dated on
    different days stay apart (see :func:`_by_date`), sorted by ``prefer``
    (smallest first) and then by path: the first is the canonical record,
    shown as the game page, and the others are named on
    it. A record without copies is a group of one; so is every record without
    moves. Groups are sorted by their first path. Runs in linear time (dict
    grouping), apart from the small work per group of copies.
    """
    entries = list(entries)
    buckets: dict[tuple[str, str], list[Entry]] = defaultdict(list)
    groups: list[list[Entry]] = []
    for entry in entries:
        if _has_moves(entry):
            buckets[(entry.code, entry.moves_key)].append(entry)
        else:
            groups.append([entry])
    for members in buckets.values():
        if len(members) == 1:  # most games have a single record: nothing to split or order
            groups.append(members)
            continue
        groups.extend(
            sorted(apart, key=lambda e: (prefer(e), e.path)) for part in _by_date(members) for apart in _by_file(part)
        )
    groups.sort(key=lambda members: members[0].path)

    diagnostics: list[Diagnostic] = []
    for members in groups:
        if len(members) < 2:
            continue
        shown = members[0]
        diagnostics.extend(_disagreements(members))
        for copy in members[1:]:
            diagnostics.append(
                make(copy.path, 1, 1, DUPLICATE, "same game as {path}, which is shown as the game page", path=shown.path)
            )
    diagnostics.extend(_pairing_conflicts(entries))
    diagnostics.sort()
    return groups, diagnostics


def shared_names(groups: Iterable[list[Entry]]) -> list[tuple[str, str]]:
    """Pairs of team names written on the same side of the same game in two copies.

    Feed them to :func:`generator.archive.teams.suggest_aliases` as
    ``shared_games``. Each pair is sorted; the list is sorted and unique.
    """
    pairs: set[tuple[str, str]] = set()
    for members in groups:
        if len(members) < 2:
            continue  # a single record names one spelling per side
        for side in ("first", "second"):
            names = sorted({getattr(e, side) for e in members if getattr(e, side)})
            # Past a few spellings, each with the first (a damaged archive
            # can hold one game under thousands of names).
            pairs.update(few_pairs(names))
    return sorted(pairs)
