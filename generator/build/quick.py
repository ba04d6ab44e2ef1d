"""The quick path: an edit that changes no fact of the index rewrites only its game page and download.

An edit that leaves every fact the index uses as it was (a MARK value, a
comment, the spacing of a record) changes only what that record's own game
page shows and the file offered for download: the events, teams, home and
problems pages and games.jsonl are made from the summaries' other fields
(:meth:`Summary.index_fields`), so the full path would find their keys
unchanged. This path goes straight to those pages without indexing the
archive: what makes ``qipu build`` after such an edit take a fraction of a
second. Anything else (a file added or removed, another result, team, date
or diagnostic, a record shown side by side on the problems page, changed
settings) takes the full path.
"""

from __future__ import annotations

import dataclasses
import pickle
from collections.abc import Callable

from generator.build.outputs import OutputFolder
from generator.build.pool import Pool
from generator.build.report import BuildReport
from generator.build.site import SiteWriter, listed_digest, page_key, render_games
from generator.build.state import BuildCache, BuildState
from generator.build.tasks import GameTask, Local, publish
from generator.render import pages, urls
from generator.scan import Found

# A quick rebuild renders its pages in this process: for more edits, the full path.
QUICK_LIMIT = 50


def quick(
    state: BuildState,
    fresh: BuildState,
    reparsed: list[str],
    report: BuildReport,
    touched: set[str],
    *,
    strict: bool,
    cache: BuildCache,
    output: OutputFolder,
    found: Found,
    writer: SiteWriter,
    pool: Pool,
    local: Local,
    progress: Callable[[str, int, int], None],
) -> bool:
    """Rewrite only the game pages and downloads of edited records, when nothing else can change.

    Returns False when this path cannot be taken; ``touched`` gets the
    outputs it may have written.
    """
    if (
        not state.site
        or not reparsed
        or (strict and any(d.severity == "error" for d in state.diagnostics))
        or len(reparsed) > QUICK_LIMIT
        or fresh.settings != state.settings
        or fresh.records.keys() != state.records.keys()
    ):
        return False
    for rel in reparsed:
        if rel in state.compared or rel not in state.summaries:
            return False
        if [s.index_fields() for s in fresh.summaries[rel]] != [s.index_fields() for s in state.summaries[rel]]:
            return False
    if not output.intact(state):
        return False  # a page was deleted: the full path writes it again
    outputs = dict(state.outputs)
    jobs: dict[str, list[pages.GameJob]] = {}
    todo: list[GameTask] = []
    downloads: list[str] = []  # records with no game page of their own
    for rel in reparsed:
        outputs[urls.record_file(rel)] = fresh.summaries[rel][0].sha256
        touched.add(urls.record_file(rel))
        copies: tuple[str, ...] = (rel,)  # published by the task of its first game that has a page
        for summary in fresh.summaries[rel]:
            event = summary.index_event()
            if event not in jobs and event in state.jobs:
                jobs[event] = pickle.loads(cache.event_jobs(state, event))
            found_at = [n for n, job in enumerate(jobs.get(event, ())) if job.id == summary.id]
            if not found_at:  # a copy of another record's game, or no game at all
                if summary.code is not None and not any(rel in job.duplicates for job in jobs.get(event, ())):
                    return False  # a game the last build did not show: only the full path knows why
                continue
            n = found_at[0]
            job = jobs[event][n] = dataclasses.replace(jobs[event][n], key=summary.key)
            outputs[job.url] = page_key(state.site_key, listed_digest(job, summary), job)
            touched.add(job.url)
            todo.append(GameTask(job, copies))
            copies = ()
        if copies:
            downloads.append(rel)
    setup = writer.render_setup(pickle.loads(state.site), found)
    written = render_games(pool, local, todo, setup, len(todo), progress) if todo else []
    content = writer.config.content_dir
    copied = sum(
        publish(found.path_of(content, rel), f"{output.path}/{urls.record_file(rel)}", local.made_dirs)
        for rel in downloads
    )
    fresh.outputs = outputs
    fresh.games, fresh.diagnostics = state.games, state.diagnostics
    fresh.jobs = {**state.jobs, **{event: pickle.dumps(js, pickle.HIGHEST_PROTOCOL) for event, js in jobs.items()}}
    fresh.site, fresh.site_key, fresh.compared = state.site, state.site_key, state.compared
    report.games, report.diagnostics = state.games, list(state.diagnostics)
    report.published = not (strict and report.errors)
    report.pages = len(outputs)
    report.written = copied + sum(page + len(files) for _, page, files in written)
    report.unchanged = report.pages - report.written
    return True
