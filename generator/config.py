"""``site.toml``: the site configuration.

Every setting is optional; without a ``site.toml`` the defaults serve. The
file is read with :mod:`tomllib` and checked key by key. Reading never raises
on bad input: each problem becomes a :class:`~generator.diagnostics.Diagnostic`
whose message names the full dotted key (``events.c5-2025.games.C5.points.win``)
and whose line is where that key stands in the file, and the bad value falls
back to its default so the rest of the site still builds.

The reference for organisers is ``docs/site-toml.md``.
"""

from __future__ import annotations

import codecs
import datetime
import difflib
import hashlib
import json
import math
import os
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from generator import games
from generator.archive.stages import STAGE_KINDS
from generator.archive.standings import CHOSEN_TIEBREAKS, MATCH_TIEBREAKS, SCORE, TIEBREAKS, Points
from generator.diagnostics import Diagnostic, define, make
from generator.i18n import N_, T, Term

CONFIG_NAME = "site.toml"
DEFAULT_TITLE = "Qipu 棋谱"
DEFAULT_LANGUAGE = "zh-CN"
LANGUAGES: tuple[str, ...] = ("zh-CN", "en")
DEFAULT_CONTENT = "content"
DEFAULT_OUTPUT = "site"
DEFAULT_CACHE = ".qipu-cache"
# Far above any real record (a few kilobytes) and any real game (a few
# hundred moves), far below what makes a build use gigabytes.
DEFAULT_FILE_BYTES = 10_000_000
DEFAULT_PLIES = 100_000

CFG_SYNTAX = define(
    "CFG-E001", "error", "site.toml is not valid TOML",
    "Fix the syntax at the line and column shown. Until then the whole file is ignored and the defaults are used.",
)
CFG_UNKNOWN_KEY = define(
    "CFG-E002", "error", "a key in site.toml that Qipu does not know",
    "Check the spelling against docs/site-toml.md (keys are case-sensitive), or remove the key.",
)
CFG_TYPE = define(
    "CFG-E003", "error", "a setting in site.toml has a value of the wrong type",
    "Write the value as the type the message asks for (a string in quotes, a number, true/false, a list in [ ], a table); "
    "the default is used meanwhile.",
)
CFG_GAME = define(
    "CFG-E004", "error", "an unknown or repeated game code under events.<event>.games",
    "Use a game code from the registry (C5, C6 ...), each once per event; the settings of that entry are ignored.",
)
CFG_OPTION = define(
    "CFG-E005", "error", "an unknown rule option for that game",
    "Use only the options that game offers (listed in docs/site-toml.md); the option is ignored.",
)
CFG_TIEBREAK = define(
    "CFG-E006", "error", "an unknown or repeated tie-break name",
    "Use head-to-head, sonneborn-berger, wins, second-wins or (for games won on score) score, "
    "each at most once; the name is ignored.",
)
CFG_LANGUAGE = define(
    "CFG-E007", "error", "an unknown site language",
    'Set language to "zh-CN" or "en"; zh-CN is used meanwhile.',
)
CFG_ENCODING = define(
    "CFG-E008", "error", "an unknown text encoding under [encodings]",
    'Use an encoding name Python knows ("gb18030", "cp1250", "latin-1", "utf-16" ...); '
    "the files are decoded automatically meanwhile.",
)
CFG_ALIAS = define(
    "CFG-E009", "error", "a team spelling listed under two canonical names",
    "List each spelling under one canonical name only, and do not list a canonical name as a spelling of another; "
    "the first listing is kept.",
)
CFG_UNREADABLE = define(
    "CFG-E010", "error", "the configuration file cannot be read",
    "Check that the file exists, is readable and is saved as UTF-8; the defaults are used meanwhile.",
)
CFG_URL = define(
    "CFG-E011", "error", "base_url is not an absolute http(s) address",
    'Write the full address where the site will be published, e.g. "https://org.github.io/archive/"; '
    "no canonical links are written meanwhile.",
)
CFG_FOLDERS = define(
    "CFG-E012", "error", "the output folder is the content folder or contains it",
    "Choose an output folder outside the content folder, e.g. output = \"site\"; the default is used meanwhile.",
)
CFG_PATH = define(
    "CFG-E013", "error", "a key that should name a place inside the content folder does not",
    "Event keys are folder names directly under the content folder; [encodings] keys are paths relative to it, without '..'.",
)
CFG_THEME = define(
    "CFG-W002", "warning", "a theme folder named under [theme] does not exist",
    "Check the path (relative to site.toml's folder); the built-in templates or static files are used meanwhile.",
)
CFG_NOT_FOUND = define(
    "CFG-W001", "warning", "a configured event folder or encoding path does not exist under the content folder",
    "Check the spelling of the folder or file name (names are case-sensitive); the setting has no effect as it stands.",
)

K = TypeVar("K")
V = TypeVar("V")


class FrozenMap(Mapping[K, V]):
    """A read-only, hashable and picklable mapping (unlike MappingProxyType)."""

    __slots__ = ("_data",)

    def __init__(self, data: Mapping[K, V] | None = None) -> None:
        self._data: dict[K, V] = dict(data or {})

    def __getitem__(self, key: K) -> V:
        return self._data[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        return hash(frozenset(self._data.items()))

    def __repr__(self) -> str:
        return f"FrozenMap({self._data!r})"


@dataclass(frozen=True, slots=True)
class GameRules:
    """How one game type is scored and played in one event."""

    points: Points
    tiebreaks: tuple[str, ...]
    options: Mapping[str, Any]
    # Whether a pairing plays a match of several games: points are then per
    # match, and the event page lists the matches (archive.standings).
    matches: bool = False
    # What ranks the teams: "points" (from wins, draws, losses) or "score"
    # (the sum of their scores in games won on score), see archive.standings.
    rank_by: str = "points"
    # The kind of each stage folder the organiser sets ("knockout" or
    # "round-robin"); a stage not named here is known by its pairings.
    stages: Mapping[str, str] = field(default_factory=lambda: FrozenMap())
    # How the teams of an event with groups and stages are ranked overall:
    # stage folder names and "groups", in order (archive.index); () none.
    overall: tuple[str, ...] = ()


# What may rank the teams of an event (``rank_by``): points from results, or the sum of scores.
RANKINGS = ("points", "score")


@dataclass(frozen=True, slots=True)
class EventConfig:
    """The settings of one event (赛事), keyed by its folder under content/."""

    key: str
    name: str
    dates: str | None
    place: str | None
    games: Mapping[str, GameRules]  # by canonical game code, rules already merged over defaults
    # Where site.toml lists it (0 first): the site shows events in the
    # organiser's order, not the folders' alphabetical one.
    position: int = 0


@dataclass(frozen=True, slots=True)
class Config:
    """The whole site configuration, validated and with defaults filled in."""

    root: Path  # the folder of site.toml: relative folders resolve against it
    path: Path | None  # the file the settings came from, None when there is none
    title: str
    language: str
    base_url: str | None  # always ends with "/"
    content_dir: Path
    output_dir: Path
    timestamp: bool
    events: Mapping[str, EventConfig]
    aliases: Mapping[str, str]  # spelling -> canonical; canonical names map to themselves
    encodings: Mapping[str, str]  # path relative to content/ (folders end in "/") -> codec name
    cache_dir: Path = Path(DEFAULT_CACHE)
    file_bytes: int = DEFAULT_FILE_BYTES  # [limits] file_bytes: larger files in content/ are refused unread
    plies: int = DEFAULT_PLIES  # [limits] plies: a record with more moves is not replayed
    # [theme]: the organiser's templates and static files, each replacing the built-in one of its name
    theme_templates: Path | None = None
    theme_static: Path | None = None

    def not_content(self) -> list[Path]:
        """Folders Qipu writes or reads for itself, never records, wherever they lie (``content = "."``)."""
        return [p for p in (self.output_dir, self.cache_dir, self.theme_templates, self.theme_static) if p is not None]

    def event(self, key: str) -> EventConfig:
        """The configured event, or a default one whose name is its folder name."""
        found = self.events.get(key)
        return found if found is not None else EventConfig(key, key, None, None, FrozenMap())

    def rules_for(self, event_key: str, code: str) -> GameRules:
        """The rules of a game type in an event: the event's settings over the defaults."""
        game = games.get(code)
        canonical = game.code if game is not None else code
        found = self.event(event_key).games.get(canonical)
        return found if found is not None else default_rules(game)

    def encoding_for(self, rel_path: str) -> str | None:
        """The encoding override for a record, or None to detect it.

        An entry for the file itself wins; otherwise the longest folder that
        contains the file. A folder may be written with or without its final
        "/", so every entry also counts as a folder.
        """
        if not self.encodings:  # the common case, asked once per record
            return None
        rel = _normalise_rel(rel_path)
        if rel is None:
            return None
        exact = self.encodings.get(rel)
        if exact is not None:
            return exact
        best: tuple[int, str] | None = None
        for entry, encoding in self.encodings.items():
            folder = entry if entry == "" or entry.endswith("/") else entry + "/"
            if rel.startswith(folder) and (best is None or len(folder) > best[0]):
                best = (len(folder), encoding)
        return best[1] if best is not None else None

    def record_settings(self, rel_path: str, event_key: str, code: str | None) -> str:
        """A short fingerprint of the settings that decide how one record is read.

        That is its encoding override and its game's rule options. Points,
        tie-breaks and aliases only change pages, not the replay, so they are
        left out: changing them must not re-replay anything. When the game code
        is not known yet (before parsing) the options of every game the event
        configures count, so a change still reaches only that event's records.
        """
        if code is not None:
            options: object = dict(self.rules_for(event_key, code).options)
        else:
            event = self.events.get(event_key)
            options = {c: dict(r.options) for c, r in event.games.items()} if event else {}
        return _digest({"encoding": self.encoding_for(rel_path), "options": options})

    def site_fingerprint(self) -> str:
        """A stable hash of every setting that shows on rendered pages.

        Folders and encodings are left out: the pages do not depend on where
        the files live, and a record decoded differently is caught by its own
        cache key (:meth:`record_settings`).
        """
        return _digest(
            {
                "title": self.title,
                "language": self.language,
                "base_url": self.base_url,
                "timestamp": self.timestamp,
                "events": {key: _event_json(event) for key, event in self.events.items()},
                "aliases": dict(self.aliases),
            }
        )


def default_rules(game: games.GameType | None) -> GameRules:
    """The rules of a game type in an event that does not configure it."""
    options = FrozenMap(dict(game.options)) if game is not None else FrozenMap()
    matches = game is not None and game.matches
    rank_by = game.rank_by if game is not None else "points"
    return GameRules(Points(), default_tiebreaks(game, matches, rank_by), options, matches, rank_by)


def default_tiebreaks(game: games.GameType | None, matches: bool, rank_by: str) -> tuple[str, ...]:
    """The tie-breaks of an event that names none.

    Per game, or per match where pairings play matches; where matches are
    won on score (hold'em's chips) and points rank, the score breaks ties first.
    """
    order = MATCH_TIEBREAKS if matches else tuple(TIEBREAKS)
    if matches and rank_by == "points" and game is not None and game.scored:
        return (SCORE, *order)
    return order


def load_config(
    path: Path | None = None,
    *,
    root: Path | None = None,
    content: Path | None = None,
    output: Path | None = None,
    cache: Path | None = None,
) -> tuple[Config, list[Diagnostic]]:
    """Read and check ``site.toml``; return the configuration and what was wrong.

    ``path`` None means ``site.toml`` in ``root`` (default: the current
    folder); a missing file there is no error, the defaults serve. A relative
    ``path`` is taken relative to ``root``. Folders in the file are relative
    to the file's own folder. ``content``, ``output`` and ``cache`` (the CLI
    flags ``--content``, ``--out`` and ``--cache``) override the file;
    relative ones are taken from the current folder, like any command-line path.
    """
    base = _absolute(Path(root), Path.cwd()) if root is not None else Path.cwd()
    explicit = path is not None
    file = _absolute(Path(path) if path is not None else Path(CONFIG_NAME), base)
    display = _display_name(file, base)
    diagnostics: list[Diagnostic] = []
    text, data = _read_file(file, explicit, display, diagnostics)

    reader = _Reader(display, text, diagnostics)
    values = reader.top(data)

    folder = file.parent
    content_dir = _absolute(Path(content), Path.cwd()) if content is not None else _absolute(Path(values["content"]), folder)
    output_dir = _absolute(Path(output), Path.cwd()) if output is not None else _absolute(Path(values["output"]), folder)
    if output_dir == content_dir or content_dir.is_relative_to(output_dir):
        reader.error(
            CFG_FOLDERS, ("output",),
            N_(
                "{key}: the output folder {output} is the content folder {content} or contains it; "
                "building there could overwrite the records, so {default!r} is used"
            ),
            output=str(output_dir), content=str(content_dir), default=DEFAULT_OUTPUT,
        )
        output_dir = _absolute(Path(DEFAULT_OUTPUT), folder)
    reader.check_paths_exist(content_dir, values["events"], values["encodings"])
    cache_dir = _absolute(Path(cache), Path.cwd()) if cache is not None else _absolute(Path(values["cache"]), folder)
    theme = reader.check_theme(folder, values["theme"])

    config = Config(
        root=folder,
        path=file if file.is_file() else None,
        title=values["title"],
        language=values["language"],
        base_url=values["base_url"],
        content_dir=content_dir,
        output_dir=output_dir,
        timestamp=values["timestamp"],
        events=FrozenMap(dict(sorted(values["events"].items()))),
        aliases=FrozenMap(dict(sorted(values["aliases"].items()))),
        encodings=FrozenMap(dict(sorted(values["encodings"].items()))),
        cache_dir=cache_dir,
        file_bytes=values["limits"]["file_bytes"],
        plies=values["limits"]["plies"],
        theme_templates=theme.get("templates"),
        theme_static=theme.get("static"),
    )
    # In file order, as an organiser reads them top to bottom (sort is stable).
    diagnostics.sort(key=lambda d: (d.line, d.column))
    return config, diagnostics


# --- reading the file -------------------------------------------------------

_AT = re.compile(r"\s*\(at (?:line (\d+), column (\d+)|end of document)\)\s*$")


def _read_file(file: Path, explicit: bool, display: str, diagnostics: list[Diagnostic]) -> tuple[str, dict[str, Any]]:
    """The text and the parsed table of the file; ("", {}) when there is none to use."""
    if not file.is_file():
        if explicit:
            if file.exists():
                diagnostics.append(make(display, 0, 0, CFG_UNREADABLE, "cannot read {file}: it is a folder", file=display))
            else:
                diagnostics.append(make(display, 0, 0, CFG_UNREADABLE, "cannot read {file}: there is no such file", file=display))
        return "", {}
    try:
        raw = file.read_bytes()
    except OSError as error:
        # The reason is the system's own words (strerror), shown as they are.
        reason = str(error.strerror or error)
        diagnostics.append(make(display, 0, 0, CFG_UNREADABLE, "cannot read {file}: {reason}", file=display, reason=reason))
        return "", {}
    try:
        # A BOM is what Windows editors add; TOML forbids it, organisers should not care.
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        column = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
        diagnostics.append(
            make(
                display, line, column, CFG_UNREADABLE,
                "{file} is not saved as UTF-8 (byte 0x{byte:02X} at offset {offset}); save it as UTF-8",
                file=display, byte=raw[error.start], offset=error.start,
            )
        )
        return "", {}
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        at = _AT.search(message)
        line = column = 0
        if at is not None:
            message = message[: at.start()]
            if at.group(1):
                line, column = int(at.group(1)), int(at.group(2))
            else:
                line = text.count("\n") + (0 if text.endswith("\n") else 1)
        # tomllib's own words (English), shown as they are.
        diagnostics.append(
            make(
                display, line, column, CFG_SYNTAX,
                "{file} is not valid TOML: {error}; the defaults are used",
                file=display, error=message,
            )
        )
        return text, {}


class _Reader:
    """Checks the parsed table key by key, collecting diagnostics."""

    def __init__(self, display: str, text: str, diagnostics: list[Diagnostic]) -> None:
        self.display = display
        self.locator = _Locator(text)
        self.diagnostics = diagnostics
        self.encoding_keys: dict[str, str] = {}  # normalised path -> key as written

    def error(self, code: str, path: tuple[str, ...], template: str, /, *, needle: str | None = None, **args: Any) -> None:
        """A diagnostic about the key at ``path``, named ``{key}`` in ``template`` (written with N_() where this is called)."""
        line, column = self.locator.position(path, needle)
        self.diagnostics.append(make(self.display, line, column, code, template, key=dotted(path), **args))

    # -- generic checks --

    def unknown_keys(self, path: tuple[str, ...], table: Mapping[str, Any], allowed: tuple[str, ...]) -> None:
        for key in table:
            if key not in allowed:
                near = difflib.get_close_matches(key, allowed, n=1)
                if near:
                    self.error(CFG_UNKNOWN_KEY, path + (key,), N_("{key}: unknown key; did you mean {near!r}?"), near=near[0])
                else:
                    known = ", ".join(allowed)
                    self.error(CFG_UNKNOWN_KEY, path + (key,), N_("{key}: unknown key; known keys here: {known}"), known=known)

    def wrong_type(self, path: tuple[str, ...], expected: str, value: Any) -> None:
        """CFG_TYPE: ``expected`` is what the key takes (a Term), or the values it allows as written."""
        kind, shown = describe(value)
        if kind is None:
            self.error(CFG_TYPE, path, N_("{key}: expected {expected}, got {value}"), expected=expected, value=shown)
        elif shown is None:
            self.error(CFG_TYPE, path, N_("{key}: expected {expected}, got {kind}"), expected=expected, kind=kind)
        else:
            self.error(
                CFG_TYPE, path, N_("{key}: expected {expected}, got {kind} {value}"), expected=expected, kind=kind, value=shown
            )

    def table(self, path: tuple[str, ...], value: Any) -> dict[str, Any]:
        if isinstance(value, dict):
            return value
        self.wrong_type(path, T("a table"), value)
        return {}

    def string(self, path: tuple[str, ...], value: Any, default: str | None, *, empty: bool = False) -> str | None:
        # TOML dates written without quotes are read as dates; the organiser meant the text.
        if isinstance(value, (datetime.date, datetime.time)):
            value = value.isoformat()
        if isinstance(value, str) and (empty or value.strip()):
            return value.strip()
        self.wrong_type(path, T("a string") if empty else T("a non-empty string"), value)
        return default

    def boolean(self, path: tuple[str, ...], value: Any, default: bool) -> bool:
        if isinstance(value, bool):
            return value
        self.wrong_type(path, T("true or false"), value)
        return default

    def number(self, path: tuple[str, ...], value: Any, default: float) -> float:
        if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
            return float(value)
        self.wrong_type(path, T("a number"), value)
        return default

    # -- the schema --

    def top(self, data: dict[str, Any]) -> dict[str, Any]:
        allowed = (
            "title", "language", "base_url", "content", "output", "cache", "timestamp",
            "limits", "theme", "events", "aliases", "encodings",
        )
        self.unknown_keys((), data, allowed)
        values: dict[str, Any] = {
            "title": DEFAULT_TITLE,
            "language": DEFAULT_LANGUAGE,
            "base_url": None,
            "content": DEFAULT_CONTENT,
            "output": DEFAULT_OUTPUT,
            "cache": DEFAULT_CACHE,
            "timestamp": False,
            "limits": {"file_bytes": DEFAULT_FILE_BYTES, "plies": DEFAULT_PLIES},
            "theme": {},
            "events": {},
            "aliases": {},
            "encodings": {},
        }
        if "title" in data:
            values["title"] = self.string(("title",), data["title"], DEFAULT_TITLE)
        if "language" in data:
            values["language"] = self.language(data["language"])
        if "base_url" in data:
            values["base_url"] = self.base_url(data["base_url"])
        for key in ("content", "output", "cache"):
            if key in data:
                values[key] = self.string((key,), data[key], values[key])
        if "timestamp" in data:
            values["timestamp"] = self.boolean(("timestamp",), data["timestamp"], False)
        if "limits" in data:
            values["limits"] = self.limits(data["limits"], values["limits"])
        if "theme" in data:
            values["theme"] = self.theme(data["theme"])
        if "events" in data:
            values["events"] = self.events(data["events"])
        if "aliases" in data:
            values["aliases"] = self.aliases(data["aliases"])
        if "encodings" in data:
            values["encodings"] = self.encodings(data["encodings"])
        return values

    def theme(self, value: Any) -> dict[str, str]:
        """``[theme]``: folders of templates and of static files (text, relative to site.toml's folder)."""
        table = self.table(("theme",), value)
        self.unknown_keys(("theme",), table, ("templates", "static"))
        return {
            key: text
            for key in ("templates", "static")
            if key in table and (text := self.string(("theme", key), table[key], None))
        }

    def check_theme(self, folder: Path, theme: dict[str, str]) -> dict[str, Path]:
        """The theme folders that exist, as absolute paths; a warning for each that does not."""
        found = {}
        for key, text in theme.items():
            path = _absolute(Path(text), folder)
            if path.is_dir():
                found[key] = path
            else:
                what = T("templates") if key == "templates" else T("static")
                self.error(
                    CFG_THEME, ("theme", key), N_("{key}: there is no folder {folder}; the built-in {what} are used"),
                    folder=str(path), what=what,
                )
        return found

    def limits(self, value: Any, defaults: dict[str, int]) -> dict[str, int]:
        """``[limits]``: whole numbers of at least 1 (bytes of a file in content/, plies of a record)."""
        table = self.table(("limits",), value)
        self.unknown_keys(("limits",), table, tuple(defaults))
        limits = dict(defaults)
        for key in defaults:
            if key not in table:
                continue
            given = table[key]
            if isinstance(given, int) and not isinstance(given, bool) and given >= 1:
                limits[key] = given
            else:
                self.wrong_type(("limits", key), T("a whole number of at least 1"), given)
        return limits

    def language(self, value: Any) -> str:
        text = self.string(("language",), value, None)
        if text is None:
            return DEFAULT_LANGUAGE
        # Accept "zh-cn", "zh_CN", "EN": the organiser's intent is plain.
        wanted = text.replace("_", "-").lower()
        for language in LANGUAGES:
            if language.lower() == wanted:
                return language
        known = ", ".join(map(repr, LANGUAGES))
        template = N_("{key}: unknown language {language!r}; use one of {known}")
        self.error(CFG_LANGUAGE, ("language",), template, language=text, known=known)
        return DEFAULT_LANGUAGE

    def base_url(self, value: Any) -> str | None:
        text = self.string(("base_url",), value, None)
        if text is None:
            return None
        if not re.match(r"https?://[^/\s]+", text) or any(c.isspace() for c in text):
            self.error(CFG_URL, ("base_url",), N_("{key}: {url!r} is not an absolute http:// or https:// address"), url=text)
            return None
        # Canonical links are base_url + a relative page path: it must end in "/".
        return text if text.endswith("/") else text + "/"

    def events(self, value: Any) -> dict[str, EventConfig]:
        events: dict[str, EventConfig] = {}
        for key, table in self.table(("events",), value).items():
            path = ("events", key)
            if not _is_folder_name(key):
                self.error(
                    CFG_PATH, path,
                    N_("{key}: an event key is the name of one folder directly under the content folder, without '/' or '..'"),
                )
                continue
            events[key] = self.event(path, key, self.table(path, table), position=len(events))
        return events

    def event(self, path: tuple[str, ...], key: str, table: dict[str, Any], position: int = 0) -> EventConfig:
        self.unknown_keys(path, table, ("name", "dates", "place", "games"))
        name = self.string(path + ("name",), table["name"], key) if "name" in table else key
        dates = self.string(path + ("dates",), table["dates"], None) if "dates" in table else None
        place = self.string(path + ("place",), table["place"], None) if "place" in table else None
        rules: dict[str, GameRules] = {}
        for code, game_table in self.table(path + ("games",), table.get("games", {})).items():
            game_path = path + ("games", code)
            game = games.get(code)
            if game is None:
                known = ", ".join(games.codes())
                template = N_("{key}: unknown game code {code!r}; known codes: {known}")
                self.error(CFG_GAME, game_path, template, code=code, known=known)
                continue
            if game.code in rules:
                template = N_("{key}: game {code} is configured twice in this event; this entry is ignored")
                self.error(CFG_GAME, game_path, template, code=game.code)
                continue
            rules[game.code] = self.game(game_path, game, self.table(game_path, game_table))
        return EventConfig(key, name or key, dates, place, FrozenMap(dict(sorted(rules.items()))), position)

    def game(self, path: tuple[str, ...], game: games.GameType, table: dict[str, Any]) -> GameRules:
        self.unknown_keys(path, table, ("points", "tiebreaks", "options", "matches", "rank_by", "stages", "overall"))
        default = default_rules(game)
        points = self.points(path + ("points",), table["points"]) if "points" in table else default.points
        matches = self.boolean(path + ("matches",), table["matches"], default.matches) if "matches" in table else default.matches
        rank_by = default.rank_by
        if "rank_by" in table:
            if table["rank_by"] in RANKINGS:
                rank_by = table["rank_by"]
            else:
                self.wrong_type(path + ("rank_by",), '"points", "score"', table["rank_by"])
        if "tiebreaks" in table:
            tiebreaks = self.tiebreaks(path + ("tiebreaks",), table["tiebreaks"])
        else:
            tiebreaks = default_tiebreaks(game, matches, rank_by)
        options = dict(game.options)
        if "options" in table:
            options.update(self.options(path + ("options",), game, table["options"]))
        stage_kinds = self.stage_kinds(path + ("stages",), table["stages"]) if "stages" in table else {}
        overall = self.overall(path + ("overall",), table["overall"]) if "overall" in table else ()
        return GameRules(points, tiebreaks, FrozenMap(options), matches, rank_by, FrozenMap(stage_kinds), overall)

    def stage_kinds(self, path: tuple[str, ...], value: Any) -> dict[str, str]:
        """``stages = { "决赛" = "knockout" }``: a stage folder's kind, where its pairings do not say it."""
        kinds: dict[str, str] = {}
        for name, kind in self.table(path, value).items():
            if kind in STAGE_KINDS:
                kinds[name.strip()] = kind
            else:
                self.wrong_type(path + (name,), " or ".join(repr(k) for k in STAGE_KINDS), kind)
        return kinds

    def overall(self, path: tuple[str, ...], value: Any) -> tuple[str, ...]:
        """``overall = ["决赛", "groups"]``: the stages, then the group ranks, that place the teams overall."""
        if not isinstance(value, list) or not all(isinstance(item, str) and item.strip() for item in value):
            self.wrong_type(path, T('a list of stage folder names and "groups"'), value)
            return ()
        return tuple(dict.fromkeys(item.strip() for item in value))

    def points(self, path: tuple[str, ...], value: Any) -> Points:
        table = self.table(path, value)
        default = Points()
        fields = ("win", "draw", "loss")
        self.unknown_keys(path, table, fields)
        return Points(
            **{f: self.number(path + (f,), table[f], getattr(default, f)) if f in table else getattr(default, f) for f in fields}
        )

    def tiebreaks(self, path: tuple[str, ...], value: Any) -> tuple[str, ...]:
        if not isinstance(value, list):
            self.wrong_type(path, T("a list of tie-break names"), value)
            return tuple(TIEBREAKS)
        chosen: list[str] = []
        for item in value:
            if not isinstance(item, str):
                self.wrong_type(path, T("tie-break names as strings"), item)
            elif item not in CHOSEN_TIEBREAKS:
                near = difflib.get_close_matches(item, CHOSEN_TIEBREAKS, n=1)
                if near:
                    template = N_("{key}: unknown tie-break {name!r}; did you mean {near!r}?")
                    self.error(CFG_TIEBREAK, path, template, needle=item, name=item, near=near[0])
                else:
                    template = N_("{key}: unknown tie-break {name!r}; known: {known}")
                    self.error(CFG_TIEBREAK, path, template, needle=item, name=item, known=", ".join(CHOSEN_TIEBREAKS))
            elif item in chosen:
                self.error(CFG_TIEBREAK, path, N_("{key}: tie-break {name!r} is listed twice"), name=item)
            else:
                chosen.append(item)
        return tuple(chosen)

    def options(self, path: tuple[str, ...], game: games.GameType, value: Any) -> dict[str, Any]:
        chosen: dict[str, Any] = {}
        for name, option in self.table(path, value).items():
            option_path = path + (name,)
            if name not in game.options:
                if game.options:
                    template = N_("{key}: {game} has no rule option {name!r}; its options: {known}")
                    self.error(CFG_OPTION, option_path, template, game=game.code, name=name, known=", ".join(game.options))
                else:
                    template = N_("{key}: {game} has no rule option {name!r}; its options: none")
                    self.error(CFG_OPTION, option_path, template, game=game.code, name=name)
                continue
            checked = _option_value(game.options[name], option)
            allowed = game.choices.get(name)
            if checked is None:
                self.wrong_type(option_path, _type_name(game.options[name]), option)
            elif allowed and checked[0] not in allowed:
                # The allowed values as written in site.toml ("'rows' or 'columns'").
                self.wrong_type(option_path, " or ".join(repr(v) for v in allowed), option)
            else:
                chosen[name] = checked[0]
        return chosen

    def aliases(self, value: Any) -> dict[str, str]:
        found: dict[str, str] = {}  # spelling -> canonical
        table = self.table(("aliases",), value)
        canonicals = {name.strip() for name in table}
        for canonical, spellings in table.items():
            path = ("aliases", canonical)
            name = canonical.strip()
            if not name:
                self.error(CFG_TYPE, path, N_("{key}: a canonical team name must not be empty"))
                continue
            if found.get(name, name) != name:
                template = N_("{key}: {name!r} is already listed as a spelling under {owner}; this entry is ignored")
                self.error(CFG_ALIAS, path, template, name=name, owner=dotted(("aliases", found[name])))
                continue
            found[name] = name
            for spelling in self.spellings(path, spellings):
                owner = found.get(spelling)
                if owner is None and spelling in canonicals:
                    owner = spelling  # a canonical name of its own, further down
                if owner is None or owner == name:
                    found[spelling] = name
                elif owner == spelling:
                    self.error(
                        CFG_ALIAS, path,
                        N_("{key}: {spelling!r} is a canonical name of its own ({owner}); merge the two entries instead"),
                        needle=spelling, spelling=spelling, owner=dotted(("aliases", spelling)),
                    )
                else:
                    self.error(
                        CFG_ALIAS, path,
                        N_("{key}: the spelling {spelling!r} is also listed under {owner}; the first listing is kept"),
                        needle=spelling, spelling=spelling, owner=dotted(("aliases", owner)),
                    )
        return found

    def spellings(self, path: tuple[str, ...], value: Any) -> list[str]:
        if isinstance(value, str):
            value = [value]  # one spelling written without brackets
        if not isinstance(value, list):
            self.wrong_type(path, T("a list of spellings"), value)
            return []
        good: list[str] = []
        for spelling in value:
            if isinstance(spelling, str) and spelling.strip():
                good.append(spelling.strip())
            else:
                self.wrong_type(path, T("spellings as non-empty strings"), spelling)
        return good

    def encodings(self, value: Any) -> dict[str, str]:
        chosen: dict[str, str] = {}
        for key, encoding in self.table(("encodings",), value).items():
            path = ("encodings", key)
            rel = _normalise_rel(key)
            if rel is None:
                self.error(
                    CFG_PATH, path,
                    N_("{key}: not a path inside the content folder; write it relative to the content folder, without '..'"),
                )
                continue
            name = self.string(path, encoding, None)
            if name is None:
                continue
            codec = _text_codec(name)
            if codec is None:
                template = N_('{key}: unknown text encoding {name!r} (e.g. "gb18030", "cp1250", "latin-1")')
                self.error(CFG_ENCODING, path, template, name=name)
                continue
            chosen[rel] = codec
            self.encoding_keys[rel] = key
        return chosen

    def check_paths_exist(self, content_dir: Path, events: Mapping[str, EventConfig], encodings: Mapping[str, str]) -> None:
        """Warn about settings for folders or files that are not there (typos)."""
        if not content_dir.is_dir():
            return  # the build reports a missing content folder itself
        for key in events:
            if not (content_dir / key).is_dir():
                self.error(
                    CFG_NOT_FOUND, ("events", key), N_("{key}: there is no folder {folder!r} in {content}"),
                    folder=key, content=str(content_dir),
                )
        for rel in encodings:
            target = content_dir / rel if rel else content_dir
            exists = target.is_dir() if rel.endswith("/") or not rel else target.exists()
            if not exists:
                path = ("encodings", self.encoding_keys.get(rel, rel))
                if rel.endswith("/"):
                    template = N_("{key}: there is no such folder in {content}")
                else:
                    template = N_("{key}: there is no such file or folder in {content}")
                self.error(CFG_NOT_FOUND, path, template, content=str(content_dir))


def _option_value(default: Any, value: Any) -> tuple[Any] | None:
    """The value in the type of the registry default, or None if it does not fit."""
    if isinstance(default, bool):
        return (value,) if isinstance(value, bool) else None
    if isinstance(value, bool):
        return None  # true is not the number 1 here
    if isinstance(default, int):
        return (value,) if isinstance(value, int) else None
    if isinstance(default, float):
        return (float(value),) if isinstance(value, (int, float)) and math.isfinite(value) else None
    return (value,) if isinstance(value, type(default)) else None


def _type_name(default: Any) -> str:
    if isinstance(default, bool):
        return T("true or false")
    if isinstance(default, int):
        return T("an integer")
    if isinstance(default, float):
        return T("a number")
    if isinstance(default, str):
        return T("a string")
    return repr(default)  # the registry's default as written: no option has another type today


def _text_codec(name: str) -> str | None:
    """The canonical codec name for a text encoding, None if unknown or not text."""
    try:
        codec = codecs.lookup(name)
    except LookupError:
        return None
    try:
        b"A\x00".decode(codec.name)  # bytes-to-bytes codecs (base64, zlib) refuse here
    except LookupError:
        return None
    except UnicodeError:
        pass  # a real text encoding that dislikes these two bytes
    return codec.name


# --- where keys stand in the file ----------------------------------------

_BARE = re.compile(r"[A-Za-z0-9_-]+")


class _Locator:
    """Finds the line and column of a dotted key in the TOML text (best effort)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.line_starts = [0] + [m.end() for m in re.finditer(r"\n", text)]
        self.keys: dict[tuple[str, ...], int] = {}
        self._scan()

    def _record(self, path: tuple[str, ...], offset: int) -> None:
        # Every prefix too: [events.a.games.C5] is where events.a first shows.
        for n in range(1, len(path) + 1):
            self.keys.setdefault(path[:n], offset)

    def _scan(self) -> None:
        table: tuple[str, ...] = ()
        closing: str | None = None  # the delimiter of an open multi-line string
        for start in self.line_starts:
            end = self.text.find("\n", start)
            line = self.text[start : end if end >= 0 else len(self.text)]
            if closing is not None:
                if closing in line:
                    closing = None
                continue
            indent = len(line) - len(line.lstrip())
            body = line[indent:]
            if body.startswith("["):
                depth = 2 if body.startswith("[[") else 1
                parsed = _parse_key(body, depth)
                if parsed is not None:
                    table = tuple(parsed[0])
                    self._record(table, start + indent)
                continue
            parsed = _parse_key(body, 0)
            if parsed is None or not body.startswith("=", parsed[1]):
                continue
            self._record(table + tuple(parsed[0]), start + indent)
            rest = body[parsed[1] + 1 :].lstrip()
            for delimiter in ('"""', "'''"):
                if rest.startswith(delimiter) and rest.count(delimiter) % 2 == 1:
                    closing = delimiter

    def position(self, path: tuple[str, ...], needle: str | None = None) -> tuple[int, int]:
        """1-based (line, column) of the key, or of ``needle`` in its value; (0, 0) if not found."""
        n = len(path)
        while n and path[:n] not in self.keys:
            n -= 1
        if n == 0:
            return 0, 0
        offset = self.keys[path[:n]]
        # Keys inside an inline table ({ win = 2 }) are not at a line start: search on.
        for part in path[n:]:
            found = re.compile(rf"(?<![\w\"'-]){re.escape(_key_text(part))}\s*=").search(self.text, offset)
            if found is None:
                break
            offset = found.start()
        if needle is not None:
            hits = [i for q in ('"', "'") if (i := self.text.find(f"{q}{needle}{q}", offset)) >= 0]
            if hits:
                offset = min(hits)
        line = self._line_of(offset)
        return line + 1, offset - self.line_starts[line] + 1

    def _line_of(self, offset: int) -> int:
        low, high = 0, len(self.line_starts) - 1
        while low < high:
            mid = (low + high + 1) // 2
            if self.line_starts[mid] <= offset:
                low = mid
            else:
                high = mid - 1
        return low


def _parse_key(text: str, i: int) -> tuple[list[str], int] | None:
    """A dotted TOML key starting at ``text[i]``: its parts and the index after it."""
    parts: list[str] = []
    while True:
        while i < len(text) and text[i] in " \t":
            i += 1
        if i >= len(text):
            return None
        if text[i] == '"':
            close = i + 1
            while close < len(text) and text[close] != '"':
                close += 2 if text[close] == "\\" else 1
            if close >= len(text):
                return None
            try:
                parts.append(json.loads(text[i : close + 1]))
            except ValueError:
                parts.append(text[i + 1 : close])
            i = close + 1
        elif text[i] == "'":
            close = text.find("'", i + 1)
            if close < 0:
                return None
            parts.append(text[i + 1 : close])
            i = close + 1
        else:
            bare = _BARE.match(text, i)
            if bare is None:
                return None
            parts.append(bare.group())
            i = bare.end()
        while i < len(text) and text[i] in " \t":
            i += 1
        if i < len(text) and text[i] == ".":
            i += 1
            continue
        return parts, i


# --- small helpers ------------------------------------------------------------


def _key_text(part: str) -> str:
    return part if _BARE.fullmatch(part) else json.dumps(part, ensure_ascii=False)


def dotted(path: tuple[str, ...]) -> str:
    """A key path as written in TOML: ``events.c5-2025.games.C5``, quoting where needed."""
    return ".".join(_key_text(part) for part in path)


def describe(value: Any) -> tuple[Term | None, str | int | float | None]:
    """A value's TOML type (a word to translate) and the value itself as shown, for messages.

    The value is None for a list or a table (not shown); the type is None
    for what TOML never gives (the value's repr is shown alone).
    """
    if isinstance(value, bool):
        return T("a boolean"), str(value).lower()
    if isinstance(value, int):
        return T("an integer"), value
    if isinstance(value, float):
        return T("a number"), value
    if isinstance(value, str):
        return T("a string"), json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return T("a list"), None
    if isinstance(value, dict):
        return T("a table"), None
    if isinstance(value, datetime.datetime):
        return T("a date-time"), value.isoformat()
    if isinstance(value, datetime.date):
        return T("a date"), value.isoformat()
    if isinstance(value, datetime.time):
        return T("a time"), value.isoformat()
    return None, repr(value)


def _is_folder_name(key: str) -> bool:
    return bool(key.strip()) and key not in (".", "..") and "/" not in key and "\\" not in key


def _normalise_rel(rel: str) -> str | None:
    """A path relative to content/ in POSIX form ("" is the whole folder); None if outside."""
    rel = rel.strip().replace("\\", "/")
    while rel.startswith("./"):
        rel = rel[2:]
    if rel == ".":
        rel = ""
    if rel.startswith("/") or re.match(r"[A-Za-z]:", rel) or ".." in rel.split("/"):
        return None
    return re.sub(r"/+", "/", rel)


def _absolute(path: Path, base: Path) -> Path:
    """``path`` against ``base``, made absolute and tidied, without following links."""
    return Path(os.path.normpath(base / path))


def _display_name(file: Path, base: Path) -> str:
    try:
        return file.relative_to(base).as_posix()
    except ValueError:
        return file.as_posix()


def _event_json(event: EventConfig) -> dict[str, Any]:
    return {
        "name": event.name,
        "position": event.position,  # the order of the events shows in every page's navigation
        "dates": event.dates,
        "place": event.place,
        "games": {
            code: {
                "points": [rules.points.win, rules.points.draw, rules.points.loss],
                "tiebreaks": list(rules.tiebreaks),
                "options": dict(rules.options),
                "matches": rules.matches,
                "rank_by": rules.rank_by,
                "stages": dict(rules.stages),
                "overall": list(rules.overall),
            }
            for code, rules in event.games.items()
        },
    }


def _digest(value: object) -> str:
    """A short stable hash of a JSON-able value (sorted keys, so order never matters)."""
    data = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(data.encode("utf-8")).hexdigest()[:16]
