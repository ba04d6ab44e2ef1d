"""Read and replay: every record's key and the summaries of its games, from the cache where its inputs did not change.

A record is known by its content hash plus the settings that shape it
(generator version, encoding override, rule options of its event, its
path). Records the last build read and that have the same size and time are
not opened; the others are decoded, parsed and replayed, in workers when
they are many (tasks.process_record), which store the views they prepare
for the game pages in the view cache.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import pickle
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from generator import games
from generator.archive.summary import Summary
from generator.build.outputs import RACY_NS
from generator.build.pool import Pool
from generator.build.state import BuildCache, BuildState, Summaries, code_digest, digest
from generator.build.tasks import Local, RecordTask, process_record
from generator.cache import record_key, view_key
from generator.config import Config
from generator.model import Metadata, Source
from generator.pipeline import Processed, event_key, process_games, sha256
from generator.scan import Found, Refused, read_file


@dataclass(slots=True)
class Read:
    """What the records stage gives the rest of the build."""

    records: dict[str, tuple[int, int, str]]  # path -> size, mtime, key
    summaries: Summaries
    reparsed: list[str]  # the paths of the records decoded, parsed and replayed again
    cleared: bool  # every record was read again, and the view cache emptied first
    changed: set[str]  # the paths whose entry in ``records`` is not the last build's (reparsed, or touched)


def options_for(config: Config, event: str) -> dict[str, dict[str, Any]]:
    return {code: dict(config.rules_for(event, code).options) for code in games.codes()}


def folder_meta(config: Config, event: str) -> Metadata | None:
    if event in config.events:
        return Metadata(event=config.events[event].name)
    return None


def read_games(config: Config, rel: str, data: bytes) -> list[Processed]:
    """Every game of one record file, read as the build reads it: its event's rule options, its folder, the limits.

    For the few files read outside the records stage (``qipu check``, copies shown side by side).
    """
    event = event_key(rel)
    return process_games(
        Source(rel, data, sha256(data)),
        encoding=config.encoding_for(rel),
        options=options_for(config, event),
        folder=folder_meta(config, event),
        plies=config.plies,
    )


def reading(config: Config) -> str:
    """Everything besides a record's own bytes that decides how it is read and replayed."""
    return digest(code_digest(), config.language, config.site_fingerprint(), sorted(config.encodings.items()))


def read_records(
    config: Config,
    found: Found,
    state: BuildState,
    cache: BuildCache,
    pool: Pool,
    local: Local,
    trusted: Callable[[str], bool] = lambda rel: False,
    progress: Callable[[str, int, int], None] = lambda stage, done, total: None,
) -> Read:
    """Every record's key and summary, from the cache where the inputs did not change.

    ``trusted(rel)`` says a record is known unchanged since the last build
    of this process (``qipu serve`` knows what was saved): it is not checked.
    """
    options_by_event: dict[str, tuple[dict[str, dict[str, Any]], str]] = {}
    # A file modified less than this before the last scan may have been
    # saved again since without its size or time changing ("racy" files).
    racy = state.scanned_ns - RACY_NS
    # Settings as the last build read the records: if they are the same,
    # a record's size and time say enough (the common case, ten thousand times).
    same_reading = reading(config) == state.reading
    known = state.records
    fresh: dict[str, tuple[int, int, str]] = {}
    changed: set[str] = set()
    tasks: list[RecordTask] = []
    stats: dict[str, os.stat_result] = {}
    file_bytes = config.file_bytes
    for rel, path, st in found.records:
        old = known.get(rel)
        if old is not None and (
            (same_reading and old[0] == st.st_size and old[1] == st.st_mtime_ns and st.st_mtime_ns < racy)
            or trusted(rel)
        ):
            fresh[rel] = old
            continue
        event = event_key(rel)
        if event not in options_by_event:
            opts = options_for(config, event)
            # Everything that shapes a record's cached view besides its bytes and path.
            options_by_event[event] = (
                opts,
                digest(
                    code_digest(), config.language, config.plies,
                    sorted((k, sorted(v.items())) for k, v in opts.items()),
                ),
            )  # fmt: skip
        options, options_digest = options_by_event[event]
        encoding = config.encoding_for(rel)
        settings = hashlib.sha256(f"{options_digest}\0{rel}\0{encoding}".encode()).hexdigest()
        if (
            old
            and old[0] == st.st_size
            and old[1] == st.st_mtime_ns
            and st.st_mtime_ns < racy  # else saved in the same clock tick as the last scan: read it
            and old[2].endswith(settings[:16])
        ):
            fresh[rel] = old
            continue
        data = None
        if old:  # known before: perhaps only touched, same bytes
            try:
                data = read_file(path, file_bytes)
            except Refused:
                data = None  # the task reads it again and says why
            else:
                key = f"{sha256(data)[:40]}{settings[:16]}"
                # A file of several games has a view per game: its first is enough to tell.
                if old[2] == key and (cache.views.has(key) or cache.views.has(view_key(key, 1))):
                    fresh[rel] = (st.st_size, st.st_mtime_ns, key)
                    changed.add(rel)
                    continue
        stats[rel] = st
        tasks.append(
            RecordTask(
                rel, path, data, encoding, options, folder_meta(config, event), settings, file_bytes, config.plies,
                found.notes.get(rel),
            )  # fmt: skip
        )
    cleared = bool(tasks) and not fresh
    if cleared:
        # Every record is read again (a new Qipu, new rule options for all):
        # no view in the cache will be used, and deleting them row by row
        # reads each one back (seconds, on a slow disk).
        cache.views.clear()
    summaries = state.summaries.carried(fresh.keys())
    done = itertools.count(1)

    def arrived(raw: bytes) -> None:
        progress("records", next(done), len(tasks))
        played: tuple[Summary, ...] = pickle.loads(raw)
        source = played[0].source
        st = stats[source]
        fresh[source] = (st.st_size, st.st_mtime_ns, record_key(played[0].key))
        changed.add(source)
        summaries.put(source, raw, played)

    # With workers, kept until the game pages are written (pool.end).
    pool.map(process_record, tasks, expected=len(tasks), local=local, arrived=arrived)
    local.store_views()  # what this process made, if anything
    cache.views.close()  # the workers may have made new files: look again when next asked
    return Read(fresh, summaries, [task.rel for task in tasks], cleared, changed)
