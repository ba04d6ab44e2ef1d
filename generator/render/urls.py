"""The URL scheme: where every page lives, and relative links between them.

Every link is relative and names ``index.html`` explicitly, so one output
works from ``file://``, from a server root and from a GitHub Pages subpath.
Page paths are ASCII slugs: stable across rebuilds (derived from names and
paths, never from build order) and safe on every file system and zip tool.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

_UNSAFE = re.compile(r"[^a-z0-9._-]+")
_DASHES = re.compile(r"-{2,}")


def _digest(text: str, size: int = 6) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:size]


def slug(text: str) -> str:
    """An ASCII file-name slug; names that lose characters get a short hash.

    ``"C6-A2 B vs B3 W"`` -> ``"c6-a2-b-vs-b3-w"``; ``"北航-天行"`` -> ``"x-3fa2b1"``.
    """
    folded = unicodedata.normalize("NFKC", text).lower()
    ascii_part = _DASHES.sub("-", _UNSAFE.sub("-", folded)).strip("-.")
    lost = not folded.isascii() or not ascii_part
    if not ascii_part:
        return f"x-{_digest(text)}"
    if lost:
        return f"{ascii_part[:60]}-{_digest(text)}"
    return ascii_part[:80]


def unique_slugs(keys: list[str]) -> dict[str, str]:
    """Slugs for many keys, made unique deterministically (sorted keys get suffixes)."""
    result: dict[str, str] = {}
    taken: set[str] = set()
    for key in sorted(keys):
        candidate = slug(key)
        if candidate in taken:
            candidate = f"{candidate}-{_digest(key, 8)}"
        taken.add(candidate)
        result[key] = candidate
    return result


def root_of(page: str) -> str:
    """The relative prefix from a page to the site root: ``games/e/x.html`` -> ``../../``."""
    return "../" * page.count("/")


# No "#" or "?": in a file name they must be percent-encoded, else the
# browser takes them for the start of a fragment or a query (a#b.txt -> a).
_URL_SAFE = re.compile(r"[A-Za-z0-9/=._~-]*")


def href(from_page: str, target: str) -> str:
    """A relative link from one page to another path in the site, percent-encoded."""
    if _URL_SAFE.fullmatch(target):  # every page path (slugs are ASCII); only record files need quoting
        return "../" * from_page.count("/") + target
    return root_of(from_page) + percent_encoded(target)


def percent_encoded(text: str) -> str:
    """``urllib.parse.quote(text, safe="/=.-_~")``, by ``str.translate``.

    Every game page links its record, whose name is mostly Chinese: quote()
    looks each UTF-8 byte up in Python (12 µs a name); a translation table
    that learns each character's encoding the first time is looked up in C.
    """
    return text.translate(_PERCENT)


class _PercentTable(dict):
    """Code point -> the character itself if URL-safe, else its UTF-8 bytes as %XX."""

    def __missing__(self, code: int) -> str:
        char = chr(code)
        value = char if _URL_SAFE.fullmatch(char) else "".join(f"%{byte:02X}" for byte in char.encode("utf-8"))
        self[code] = value
        return value


_PERCENT = _PercentTable()


# The folders of a site: everything in them is Qipu's to write and remove.
SITE_FOLDERS = frozenset({"games", "events", "teams", "files", "static", "data", "problems"})


def is_site_path(rel: str) -> bool:
    """Whether a path of the output folder is one Qipu makes: in its folders, or a page at the top.

    Anything else there (a CNAME for GitHub Pages) is the organiser's and is left alone.
    """
    top, slash, _ = rel.partition("/")
    return top in SITE_FOLDERS if slash else rel.endswith(".html")


HOME = "index.html"
PROBLEMS = "problems/index.html"
TEAMS = "teams/index.html"
GAMES_JSONL = "data/games.jsonl"


def event_page(event_slug: str) -> str:
    return f"events/{event_slug}/index.html"


def game_page(event_slug: str, game_slug: str) -> str:
    return f"games/{event_slug}/{game_slug}.html"


def match_page(event_slug: str, teams: tuple[str, ...], key: str) -> str:
    """The page of one match (a session of deals, a match of hands) of an event: its teams, and a hash of what makes it one."""
    names = " vs ".join(teams)
    if not names.isascii():  # Chinese names would leave only "vs": the hash alone names it
        return f"events/{event_slug}/match-{_digest(key, 8)}.html"
    return f"events/{event_slug}/{slug(names)[:60].strip('-.') or 'match'}-{_digest(key)}.html"


def team_page(team_slug: str) -> str:
    return f"teams/{team_slug}.html"


def markdown_page(name_slug: str) -> str:
    return f"{name_slug}.html"


# Suffixes that every browser (from file:// too) and every static server,
# GitHub Pages included, shows as text or offers to save, and never runs.
SAFE_DOWNLOAD_SUFFIXES = frozenset({".txt", ".json", ".csv"})
ESCAPED_DOWNLOADS = "files/_/"


def record_file(source: str) -> str:
    """Where the original record is published for download.

    Under its own path and name when that ends in a suffix no browser or
    server runs (``.txt``); any other record (``x.html``, ``x.svg``, no
    suffix at all, which a browser sniffs from file://) under ``files/_/``
    with ``.txt`` added, so that opening it from the site shows its text
    and never runs it. No record's own path begins with ``_/`` (the scan
    skips folders whose name begins with ``_``), so the two never collide.
    """
    dot = source.rfind(".")
    if dot > source.rfind("/") and source[dot:].lower() in SAFE_DOWNLOAD_SUFFIXES:
        return f"files/{source}"
    return f"{ESCAPED_DOWNLOADS}{source}.txt"


def asset_file(rel: str) -> str:
    """Where an image or style sheet of the content folder is published (see generator.scan)."""
    return f"files/{rel}"
