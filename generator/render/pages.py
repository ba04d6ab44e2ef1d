"""Page models: the context each template receives.

Each function turns archive values into plain dicts and lists for one page.
Links are made relative here (``href``), so templates never compute paths.
"""

from __future__ import annotations

import functools
import secrets
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from markupsafe import Markup

from generator import __version__, boards, diagnostics, games
from generator.diagnostics import Diagnostic
from generator.pipeline import Processed
from generator.render import urls
from generator.render.rows import format_number
from generator.render.viewer import HTML_PARTS, ui_strings, viewer_parts

if TYPE_CHECKING:  # the index is not needed to render a game page (a quick rebuild)
    from generator.archive.compare import Comparison
    from generator.archive.index import Archive, Event, GameEntry, Team


class Attrs:
    """Values that templates read as attributes (``{{ game.first }}``), or by
    key where the key is no name (``t["severity." ~ d.severity]``).

    Jinja looks an attribute up before an item. The values are the object's
    own attributes, so that lookup succeeds at once: on a dict, even one with
    a ``__getattr__``, it first fails and builds an AttributeError, which made
    up a fifth of rendering a game page.
    """

    def __init__(self, values: Mapping[str, Any]) -> None:
        self.__dict__.update(values)

    def __getitem__(self, key: str) -> Any:
        return self.__dict__[key]


@dataclass(frozen=True, slots=True)
class Link:
    title: str
    url: str  # path from the site root


@dataclass(frozen=True, slots=True)
class SiteInfo:
    """What every page shows around its content: title, language, navigation.

    Every page depends on it, so it holds nothing that changes with a single
    record (such as how many records have problems): a change here re-renders
    the whole site.
    """

    title: str
    language: str
    strings: Mapping[str, str]
    events: tuple[Link, ...]
    pages: tuple[Link, ...]
    base_url: str | None = None


@dataclass(frozen=True, slots=True)
class GameJob:
    """Everything a worker needs to render one game page besides the cached record."""

    url: str
    source: str
    key: str
    event_name: str
    event_url: str
    first: str | None
    second: str | None
    first_url: str | None
    second_url: str | None
    duplicates: tuple[str, ...]
    diagnostics: tuple[Diagnostic, ...]
    group: str = ""
    extra: tuple[tuple[str, str], ...] = field(default=())

    def __reduce__(self) -> tuple[type, tuple]:
        # As a plain tuple: the build state pickles ten thousand of these, and
        # the slots-dataclass default (a dict per object) is several times slower.
        return (GameJob, tuple(getattr(self, name) for name in GameJob.__slots__))


def base(site: SiteInfo, page: str, title: str) -> dict[str, Any]:
    def link(target: str) -> str:
        return urls.href(page, target)

    return {
        "site": site,
        "t": _site_strings(site)[0],
        "lang": site.language,
        "page": page,
        "root": urls.root_of(page),
        "link": link,
        "title": title,
        "version": __version__,
        "home_href": link(urls.HOME),
        "teams_href": link(urls.TEAMS),
        "problems_href": link(urls.PROBLEMS),
        "diag_title": functools.partial(diagnostics.title, language=site.language),
    }


def result_word(strings: Mapping[str, str], result: str | None) -> str:
    return strings[f"result.{result}"] if result else strings["result.none"]


def _zh(site: SiteInfo) -> bool:
    return site.language.lower().startswith("zh")


def game_type_name(site: SiteInfo, code: str | None) -> str:
    game = games.get(code)
    if game is None:
        return code or "?"
    return game.name_zh if _zh(site) else game.name_en


def game_row(entry: GameEntry, page: str, site: SiteInfo, team_href: Mapping[str, str]) -> dict[str, Any]:
    """One line of a game list; ``team_href``: links from ``page`` to the team pages.

    A plain dict, read by key in the templates (``g['href']``): an event or
    team page shows hundreds of rows, and Jinja's attribute syntax tries
    getattr() first, which fails at a cost on every read of a dict.
    """
    s = entry.summary
    diagnostics = entry.diagnostics
    return {
        "href": urls.href(page, entry.url),
        "code": s.code,
        "game_type": game_type_name(site, s.code),
        "first": entry.first or "?",
        "second": entry.second or "?",
        "first_href": team_href.get(entry.first) if entry.first else None,
        "second_href": team_href.get(entry.second) if entry.second else None,
        "result": s.result,
        "result_word": result_word(site.strings, s.result),
        "by_rules": s.computed is not None,
        "date": s.date or "",
        "time": s.time or "",
        "plies": s.plies,
        "group": s.group,
        "errors": sum(1 for d in diagnostics if d.severity == "error") if diagnostics else 0,
        "warnings": sum(1 for d in diagnostics if d.severity == "warning") if diagnostics else 0,
        "counted": entry.counted,
    }


def home(archive: Archive, site: SiteInfo) -> dict[str, Any]:
    page = urls.HOME
    ctx = base(site, page, site.title)
    code_counts: dict[str, int] = {}
    for entry in archive.games:
        code = entry.summary.code or "?"
        code_counts[code] = code_counts.get(code, 0) + 1
    recent = sorted(archive.games, key=lambda e: (e.summary.date or "", e.summary.time or "", e.source), reverse=True)
    del recent[20:]  # the latest twenty are listed
    named = {t for e in recent for t in (e.first, e.second) if t in archive.teams}
    team_href = {t: urls.href(page, archive.teams[t].url) for t in named}
    ctx.update(
        events=[
            {
                "name": e.name,
                "href": urls.href(page, e.url),
                "dates": e.config.dates,
                "place": e.config.place,
                "game_types": [game_type_name(site, s.code) for s in e.sections],
                "games": len(e.games),
                "teams": len({t for s in e.sections for t in s.teams}),
            }
            for e in archive.events
        ],
        game_types=[
            {"code": code, "name": game_type_name(site, code), "games": count}
            for code, count in sorted(code_counts.items())
        ],
        recent=[game_row(e, page, site, team_href) for e in recent],
        counts={
            "records": len(archive.summaries),
            "games": len(archive.games),
            "teams": len(archive.teams),
            "events": len(archive.events),
            # Files that need the organiser: notes alone (normalised punctuation ...) do not.
            "problems": sum(1 for found in archive.problems.values() if any(d.severity != "note" for d in found)),
        },
    )
    return ctx


def event(ev: Event, archive: Archive, site: SiteInfo) -> dict[str, Any]:
    page = ev.url
    strings = site.strings
    ctx = base(site, page, ev.name)
    # Links to every team the page names, made once for all its tables and game rows.
    named = {t for e in ev.games for t in (e.first, e.second) if t in archive.teams}
    named.update(t for section in ev.sections for t in section.teams if t in archive.teams)
    team_href = {t: urls.href(page, archive.teams[t].url) for t in named}
    sections = []
    for section in ev.sections:
        tiebreaks = section.rules.tiebreaks
        sections.append(
            {
                "code": section.code,
                "name": game_type_name(site, section.code),
                "points_rule": strings["points_rule"].format(
                    win=_num(section.rules.points.win),
                    draw=_num(section.rules.points.draw),
                    loss=_num(section.rules.points.loss),
                ),
                "tiebreaks": [
                    {"key": tb, "label": strings[f"tb.{tb}"], "help": strings[f"tb_help.{tb}"]} for tb in tiebreaks
                ],
                **_table(section, tiebreaks, page, team_href, site),
                "divisions": [
                    {
                        "id": f"{section.code}-{division.part.kind}-{urls.slug(division.part.name) or 'other'}",
                        "name": _division_name(division.part, strings),
                        "kind": division.part.kind,
                        "placed": len(division.placed),
                        **_table(division.table, tiebreaks, page, team_href, site),
                    }
                    for division in section.divisions
                ],
            }
        )
    ctx.update(event={"name": ev.name, "dates": ev.config.dates, "place": ev.config.place}, sections=sections)
    return ctx


def _division_name(part: Any, strings: Mapping[str, str]) -> str:
    if part.kind == "group":
        return strings["division.group"].format(name=part.name)
    if part.kind == "stage":
        return part.name
    return strings["division.other"]


# A crosstable has a cell for every pair of teams: beyond this many teams
# (an open Swiss event is far below it, a damaged archive can be far above)
# the page would weigh megabytes for a table nobody can read.
CROSSTABLE_MOST_TEAMS = 200


def _table(
    table: Any, tiebreaks: tuple[str, ...], page: str, team_href: Mapping[str, str], site: SiteInfo
) -> dict[str, Any]:
    """Standings rows, crosstable and game rows of a section or of one of its groups or stages.

    The crosstable's games are dicts read by key, as game rows are (see
    :func:`game_row`): a table of sixteen teams holds hundreds of them.
    """
    strings = site.strings
    games = [game_row(e, page, site, team_href) for e in table.games]
    game_href = {e.url: row["href"] for e, row in zip(table.games, games)}  # the crosstable links them again
    crossed = table.teams if len(table.teams) <= CROSSTABLE_MOST_TEAMS else []
    side = {True: strings["first"], False: strings["second"]}
    return {
        "rows": [
            {
                "rank": row.rank,
                "tied": row.tied,
                "team": row.team,
                "href": team_href.get(row.team),
                "games": row.games,
                "wins": row.wins,
                "draws": row.draws,
                "losses": row.losses,
                "points": row.points,
                "tiebreaks": [row.tiebreaks.get(tb, 0) for tb in tiebreaks],
            }
            for row in table.rows
        ],
        "team_count": len(table.teams),
        "cross_teams": [{"name": t, "href": team_href.get(t), "index": i + 1} for i, t in enumerate(crossed)],
        "cross": [
            [
                {
                    "diagonal": col_team == row_team,
                    "games": [
                        {
                            "href": game_href.get(g.game_id) or urls.href(page, g.game_id),
                            "score": g.score,
                            "as_first": g.as_first,
                            "side": side[g.as_first],
                        }
                        for g in table.cross.get(row_team, {}).get(col_team, [])
                    ],
                }
                for col_team in crossed
            ]
            for row_team in crossed
        ],
        "games": games,
    }


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def team(tm: Team, archive: Archive, site: SiteInfo) -> dict[str, Any]:
    page = tm.url
    strings = site.strings
    ctx = base(site, page, tm.name)
    # What every row looks up, made once per page.
    named = {t for e in tm.games for t in (e.first, e.second) if t in archive.teams}
    team_href = {t: urls.href(page, archive.teams[t].url) for t in named}
    event_names = {e.key: e.name for e in archive.events}
    outcome_words = {"win": strings["wins"], "loss": strings["losses"], "draw": strings["draws"], "none": ""}
    rows = []
    for entry in sorted(tm.games, key=lambda e: e.sort_key()):
        row = game_row(entry, page, site, team_href)
        as_first = entry.first == tm.name
        opponent = entry.second if as_first else entry.first
        result = entry.summary.result
        if result == "draw":
            outcome = "draw"
        elif result in ("first", "second"):
            outcome = "win" if (result == "first") == as_first else "loss"
        else:
            outcome = "none"
        row.update(
            as_first=as_first,
            side=strings["first"] if as_first else strings["second"],
            opponent=opponent,
            opponent_href=team_href.get(opponent) if opponent else None,
            outcome=outcome,
            outcome_word=outcome_words[outcome],
            event=event_names.get(entry.event_key, entry.event_key),
        )
        rows.append(row)
    ctx.update(
        team={"name": tm.name, "spellings": [s for s in tm.spellings if s != tm.name]},
        results=[
            {
                "event": r.event.name,
                "event_href": urls.href(page, r.event.url),
                "game_type": game_type_name(site, r.code),
                "rank": r.row.rank,
                "tied": r.row.tied,
                "games": r.row.games,
                "wins": r.row.wins,
                "draws": r.row.draws,
                "losses": r.row.losses,
                "points": r.row.points,
            }
            for r in tm.results
        ],
        games=rows,
    )
    return ctx


def teams_index(archive: Archive, site: SiteInfo) -> dict[str, Any]:
    page = urls.TEAMS
    ctx = base(site, page, site.strings["all_teams"])
    ctx.update(
        teams=[
            {"name": t.name, "href": urls.href(page, t.url), "games": len(t.games), "events": len({r.event.key for r in t.results})}
            for t in archive.teams.values()
        ]
    )
    return ctx


def problems(archive: Archive, site: SiteInfo, comparisons: Sequence[Comparison] = ()) -> dict[str, Any]:
    page = urls.PROBLEMS
    ctx = base(site, page, site.strings["problems"])
    files = []
    unpublished = {s.source for s in archive.summaries if not s.sha256}  # refused unread (generator.scan)
    for source, found in archive.problems.items():
        entry = archive.by_source.get(source)
        files.append(
            {
                "source": source,
                "download": None if source in unpublished else urls.href(page, urls.record_file(source)),
                "game_href": urls.href(page, entry.url) if entry else None,
                "errors": sum(1 for d in found if d.severity == "error"),
                "warnings": sum(1 for d in found if d.severity == "warning"),
                "diagnostics": found,
            }
        )
    totals = {
        sev: sum(1 for f in archive.problems.values() for d in f if d.severity == sev)
        for sev in ("error", "warning", "note")
    }
    ctx.update(
        files=files,
        totals=totals,
        by_team=_problems_by_team(archive, page, site.language),
        comparisons=[_comparison(c, archive, page, site) for c in comparisons],
    )
    return ctx


def _problems_by_team(archive: Archive, page: str, language: str) -> list[dict[str, Any]]:
    """The organiser's view: per team, its records that are inconsistent, and why.

    A record counts for both teams it names (which program wrote it is not
    known); "inconsistent" means at least one error or warning.
    """
    records: dict[str, set[str]] = defaultdict(set)
    bad: dict[str, set[str]] = defaultdict(set)
    reasons: dict[str, Counter[str]] = defaultdict(Counter)
    for source, entry in archive.by_source.items():
        found = [d for d in archive.problems.get(source, ()) if d.path == source and d.severity != "note"]
        for name in {entry.first, entry.second} - {None}:
            records[name].add(source)
            if found:
                bad[name].add(source)
                reasons[name].update({d.code for d in found})
    rows = []
    for name in sorted(bad, key=lambda n: (-len(bad[n]), n)):
        team = archive.teams.get(name)
        rows.append(
            {
                "team": name,
                "href": urls.href(page, team.url) if team else None,
                "records": len(records[name]),
                "inconsistent": len(bad[name]),
                "reasons": [
                    {"code": code, "count": count, "title": diagnostics.title(code, language)}
                    for code, count in sorted(reasons[name].items(), key=lambda item: (-item[1], item[0]))
                ],
            }
        )
    return rows


def _comparison(c: Comparison, archive: Archive, page: str, site: SiteInfo) -> dict[str, Any]:
    from generator.archive import compare

    strings = site.strings

    def side(copy: Any) -> dict[str, Any]:
        entry = archive.by_source.get(copy.source)
        return {
            "source": copy.source,
            "download": urls.href(page, urls.record_file(copy.source)),
            "game_href": urls.href(page, entry.url) if entry else None,
            "teams": f"{copy.first or '?'} {strings['vs']} {copy.second or '?'}",
            "result": result_word(strings, copy.declared) + (f" “{copy.result_text}”" if copy.result_text else ""),
            "when": " ".join(v for v in (copy.date, copy.time) if v),
            "moves": len(copy.moves),
        }

    return {
        "id": f"compare-{urls.slug(c.a.source)}",
        "a": side(c.a),
        "b": side(c.b),
        "differs": [strings[f"compare.{key}"] for key in c.differs_in],
        "first_difference": c.first_difference,
        "rows": compare.shown_rows(c.rows),
    }


def markdown(title: str, html: str, url: str, site: SiteInfo) -> dict[str, Any]:
    ctx = base(site, url, title)
    ctx.update(body=html)
    return ctx


def game_view(processed: Processed, site: SiteInfo) -> dict[str, Any]:
    """The part of a game page that depends on the record alone, not on the index.

    The build computes it right after the replay, in the same worker, and
    caches it: it holds the heavy parts (board, viewer data, move list) as
    finished strings, so rendering the page later is cheap.
    """
    strings = site.strings
    gtype = games.get(processed.code)
    assert gtype is not None and processed.replay is not None
    gtype = gtype.ordered(processed.replay.first_letter)  # SU: red may move first
    meta = processed.meta
    decision = processed.replay.decision
    rule = None
    if decision is not None:
        rule = decision.said(site.language)
    type_name = game_type_name(site, gtype.code)
    label = f"{type_name}: {meta.first or '?'} {strings['vs']} {meta.second or '?'}"
    # The board's static drawing and the UI strings are the same on every page:
    # left out here, put back by game_page() and game() (the view is cached per record).
    side_names = (gtype.first.name_zh, gtype.second.name_zh) if _zh(site) else (gtype.first.name_en, gtype.second.name_en)
    viewer = viewer_parts(
        gtype, processed.replay, strings=strings, label=label, static=False, side_names=side_names, entries=False
    )
    return {
        "code": gtype.code,
        "variant": processed.replay.variant,
        "game_type": type_name,
        "first_side": side_names[0],
        "second_side": side_names[1],
        "first_colour": gtype.first.colour,
        "second_colour": gtype.second.colour,
        "date": meta.date,
        "time": meta.time,
        "place": meta.place,
        "header_event": meta.event,
        "declared": processed.declared,
        "declared_word": result_word(strings, processed.declared),
        "declared_header": result_word(strings, processed.declared_header),
        "declared_name": result_word(strings, processed.declared_name),
        "result_text": meta.result_text,
        "computed": processed.computed,
        "computed_word": result_word(strings, processed.computed) if processed.computed else None,
        "rule": rule,
        "score": _score(strings, side_names, decision.score) if decision and decision.score else None,
        "decided_at": decision.ply if decision else None,
        "result": processed.result,
        "result_word": result_word(strings, processed.result),
        "plies": processed.plies,
        "moves": len(processed.record.moves) if processed.record else 0,
        # Only what _viewer.html reads. The finished HTML parts (most of a page)
        # as UTF-8 bytes, encoded once here: they are pickled, cached, kept and
        # spliced into the encoded page as they are (see game_page()).
        "viewer": {key: viewer[key].encode("utf-8") if key in HTML_PARTS else viewer[key] for key in _VIEWER_KEYS},
    }


def _score(strings: Mapping[str, str], side_names: tuple[str, str], score: Mapping[str, float]) -> str:
    """The area count behind a computed Go result, in the page language."""
    a, b, komi = (format_number(score.get(key, 0)) for key in ("first", "second", "komi"))  # 45.0 -> 45
    return strings["area_count"].format(first=side_names[0], a=a, second=side_names[1], b=b, komi=komi)


_VIEWER_KEYS = ("svg", "data", "count", "moves_html", "not_replayed", "views", "counters", "final_notes", "final_mark")

_SITE_STRINGS: list[Any] = [None, None]  # the last site, and its strings as _site_strings() gives them


def _site_strings(site: SiteInfo) -> tuple[Attrs, dict[str, str]]:
    """The page strings as templates read them (``t``) and the viewer's strings.

    The same for every page of a build, so made once per site rather than
    copied for each page; the viewer's controls (render/env.py) are then
    found without sorting their strings. Shared by all pages: not to be changed.
    """
    if _SITE_STRINGS[0] is not site:
        _SITE_STRINGS[:] = [site, (Attrs(site.strings), ui_strings(site.strings))]
    return _SITE_STRINGS[1]


# What stands for each finished HTML part of a view in the page Jinja renders:
# the prefix, then the part's key and a NUL. game_page() puts the part's bytes
# in its place. Unguessable (a record could hold any fixed text) and never in
# the output, which stays deterministic.
_PREFIX = f"\x00{secrets.token_hex(12)}:"
_MARKERS = {key: f"{_PREFIX}{key}\x00" for key in HTML_PARTS}
_PREFIX_BYTES = _PREFIX.encode("ascii")


def game_page(template: Any, job: GameJob, view: Mapping[str, Any], site: SiteInfo) -> bytes:
    """A game page rendered with ``template`` (game.html), as UTF-8 bytes.

    The view's board, move list and viewer data are three quarters of a
    page. Jinja renders the rest around markers, and the parts' bytes go
    where the markers are: they are not copied through the template's
    output, nor encoded once per page (strings holding a Chinese MARK word
    are two bytes a character, and encoding them was a tenth of a cold build).
    A template that leaves a part out, or shows it twice, gets it as often.
    """
    pieces = template.render(game(job, view, site)).encode("utf-8").split(_PREFIX_BYTES)
    if len(pieces) == 1:
        return pieces[0]
    out: list[Any] = [pieces[0]]
    for piece in pieces[1:]:  # each: the key, NUL, then the page up to the next marker
        end = piece.index(b"\x00")
        key = piece[:end].decode("ascii")
        out.append(_shown(view, key))
        out.append(memoryview(piece)[end + 1 :])  # not copied before the join
    return b"".join(out)


_STATIC_MARK = boards.STATIC_MARK.encode("ascii")


def respliced(page: bytes, old: Mapping[str, Any], new: Mapping[str, Any]) -> bytes | None:
    """The game ``page`` made with the view ``old``, made again for the view ``new``; None if it cannot be.

    Views that differ only in their finished HTML parts (a MARK value or a
    comment edited) give the same page around those parts: everything
    Jinja renders comes from the job, the site and the view's other fields.
    Each old part, as :func:`game_page` put it there, is found in the page
    and the new one takes its place. Not a page rendered: the one-record
    rebuild that takes this way never loads Jinja. None when the other
    fields differ, or a part is empty or not found exactly once (the
    template shows it twice, or the page is not the one the view made):
    then the page is rendered.
    """
    if _frame(old) != _frame(new):
        return None
    spots = []
    for key in HTML_PARTS:
        shown = _shown(old, key)
        start = page.find(shown) if shown else -1
        if start < 0 or page.find(shown, start + 1) >= 0:
            return None
        spots.append((start, start + len(shown), _shown(new, key)))
    spots.sort()
    out: list[Any] = []
    at = 0
    for start, end, replacement in spots:
        if start < at:  # parts overlapping: not a page game_page() wrote
            return None
        out += (memoryview(page)[at:start], replacement)
        at = end
    out.append(memoryview(page)[at:])
    return b"".join(out)


def _frame(view: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """All of a view but its finished HTML parts: what the page around them is made from."""
    return (
        {key: value for key, value in view.items() if key != "viewer"},
        {key: value for key, value in view["viewer"].items() if key not in HTML_PARTS},
    )


def _shown(view: Mapping[str, Any], key: str) -> bytes:
    """An HTML part of the view as it is on the page (the board with its static drawing)."""
    html = view["viewer"][key]
    return html.replace(_STATIC_MARK, _static_bytes(view), 1) if key == "svg" else html


def _static_bytes(view: Mapping[str, Any]) -> bytes:
    """The static drawing of the view's board (the same on every page of it), encoded."""
    key = (view["code"], view["variant"])
    cached = _STATIC.get(key)
    if cached is None:
        gtype = games.GAMES[view["code"]]
        board = gtype.module("board").board_for(gtype, view["variant"])
        cached = _STATIC[key] = board.static_markup.encode("utf-8")
    return cached


_STATIC: dict[tuple[str, Any], bytes] = {}


def game(job: GameJob, view: Mapping[str, Any], site: SiteInfo) -> dict[str, Any]:
    """The whole context of a game page: the cached view plus the index's links.

    The finished HTML parts of the view are markers here: see :func:`game_page`.
    """
    page = job.url
    strings = site.strings
    title = f"{job.first or '?'} {strings['vs']} {job.second or '?'}"
    ctx = base(site, page, title)
    info = {key: value for key, value in view.items() if key != "viewer"}
    info.update(
        title=title,
        event=job.event_name,
        event_href=urls.href(page, job.event_url),
        first=job.first or "?",
        second=job.second or "?",
        first_href=urls.href(page, job.first_url) if job.first_url else None,
        second_href=urls.href(page, job.second_url) if job.second_url else None,
        group=job.group,
        source=job.source,
        download=urls.href(page, urls.record_file(job.source)),
        duplicates=[{"source": d, "download": urls.href(page, urls.record_file(d))} for d in job.duplicates],
    )
    viewer = dict(view["viewer"])
    for key in HTML_PARTS:
        viewer[key] = Markup(_MARKERS[key])
    viewer["strings"] = _site_strings(site)[1]
    ctx.update(game=Attrs(info), diagnostics=list(job.diagnostics), viewer=Attrs(viewer))
    return ctx
