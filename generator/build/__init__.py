"""The build: scan, read and replay (cached, in parallel), index, render, write.

:meth:`Builder.build` reads as these stages, each a function or a small
object of its own module:

- scan (generator.scan): what every file of the content folder is;
- read and replay (records.py): every record's summary, from the cache where
  its inputs did not change, else in worker processes (tasks.py, pool.py);
- index (generator.archive): events, teams, standings, duplicates;
- render and write (site.py): every output file whose inputs changed;
  or, for an edit that changes no fact of the index, the quick path
  (quick.py): that record's game page and download only;
- and the state the next build starts from (state.py: the build cache;
  outputs.py: what the output folder holds).

The :class:`Builder` keeps the cache between calls, so ``qipu serve`` can
call :meth:`Builder.build` after every save and only the changed records are
decoded, parsed and replayed again. The same cache lives on disk in
``.qipu-cache/`` so a fresh ``qipu build`` is incremental too.
"""

from __future__ import annotations

import gc
import hashlib
import os
import shutil
import threading
import time
from collections.abc import Callable, Collection, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator import boards, workers
from generator.build.outputs import OutputFolder, folder_times
from generator.build.pool import POOL_THRESHOLD, Pool
from generator.build.quick import QUICK_LIMIT, quick
from generator.build.records import Read, read_records, reading
from generator.build.report import BuildReport
from generator.build.site import SiteWriter, games_jsonl, site_info
from generator.build.state import CACHE_FORMAT, BuildCache, BuildState, code_digest, digest
from generator.build.tasks import Local, refused_summary, summarize
from generator.cache import CacheDamaged
from generator.config import Config
from generator.render import Theme, urls
from generator.render.write import ADOPTED, MARKER, OWNED, claim_output, is_temporary, sweep, write_if_changed
from generator.scan import Found, rescan

if TYPE_CHECKING:
    from generator.archive.index import Archive, Indexer

__all__ = [
    "CACHE_FORMAT", "POOL_THRESHOLD", "QUICK_LIMIT", "BuildReport", "BuildState", "Builder", "build_site",
    "games_jsonl", "refused_summary", "summarize",
]  # fmt: skip


class Builder:
    """Builds the site of one configuration; call :meth:`build` as often as needed."""

    def __init__(
        self,
        config: Config,
        *,
        jobs: int | None = None,
        strict: bool = False,
        cache_dir: Path | None = None,
        progress: Callable[[str, int, int], None] | None = None,
        start_method: str | None = None,
    ) -> None:
        self.config = config
        self.jobs = max(1, jobs or os.cpu_count() or 1)
        self.strict = strict
        # Told (stage, done, total) as records are read and game pages written:
        # the CLI shows a progress line on a terminal (generator.cli.Progress).
        self.progress = progress or (lambda stage, done, total: None)
        self.cache_dir = cache_dir or config.cache_dir
        self.theme = Theme.of(config.theme_templates, config.theme_static)
        self.cache = BuildCache(self.cache_dir, config.content_dir, config.output_dir)
        self.pool = Pool(self.jobs, start_method)  # started for one build, when it has enough work
        self.local = Local(site_info(config, None, []), self.cache_dir)  # this process's own, as a worker's
        self.output = OutputFolder(config.output_dir)
        self.writer = SiteWriter(config, self.theme, self.cache_dir, self.pool, self.local, self.progress)
        self._state: BuildState | None = None
        self._found: Found | None = None  # the last scan, updated from `changed` by serve
        self._indexer: Indexer | None = None  # made on the first full build: a quick one needs none
        self._saver: threading.Thread | None = None

    # -- the stages ----------------------------------------------------------

    def _build(self, changed: Iterable[Path] | None = None) -> BuildReport:
        """Build the site; returns what happened. Never raises for bad records.

        ``changed``: the files saved since this Builder's last build, when the
        caller knows them (``qipu serve`` does): only those are looked at
        again. None: every file is checked (a plain ``qipu build``).
        """
        started = time.perf_counter()
        report = BuildReport()
        timings = report.timings

        def lap(stage: str) -> None:
            timings[stage] = time.perf_counter() - started - sum(timings.values())

        state = self._load_state()
        # Files edited, replaced or deleted by hand since the last build wrote
        # them (a new process only: `qipu serve` knows what it left there).
        trust_output = self.output.wrote
        scanned_ns = time.time_ns()
        found, trusted = self._scan(changed)
        damaged = set() if trust_output else self.output.damaged(state, found)
        lap("scan")
        read = read_records(self.config, found, state, self.cache, self.pool, self.local, trusted, self.progress)
        self._trust_downloads(damaged, state, read.records, read.reparsed)
        report.records, report.reparsed = len(read.records), len(read.reparsed)
        lap("process")
        self.writer.theme_digest = self.theme.digest()  # read once per build: the inputs digest and the page keys use it
        settings = self._settings(found)
        inputs = _inputs_digest(settings, [rel for rel, _, _ in found.records], read.records)
        fresh = BuildState(
            read.records, read.summaries, inputs=inputs, settings=settings, scanned_ns=scanned_ns,
            reading=reading(self.config),
        )  # fmt: skip
        if not read.reparsed and not damaged and inputs == state.inputs and self.output.intact(state):
            # Nothing the site is made from changed, and every file it wrote is there.
            report.games, report.diagnostics = state.games, list(state.diagnostics)
            report.pages = report.unchanged = len(state.outputs)
            report.published = not (self.strict and report.errors)
            report.seconds = time.perf_counter() - started
            return report
        touched: set[str] = set()  # the outputs a quick rebuild may have written
        report.quick = not damaged and quick(
            state, fresh, read.reparsed, report, touched, strict=self.strict, cache=self.cache, output=self.output,
            found=found, writer=self.writer, pool=self.pool, local=self.local, progress=self.progress,
        )  # fmt: skip
        if report.quick:
            lap("game pages")
        else:
            archive = self._index(found, fresh, report)
            if self.strict and report.errors:
                report.published = False  # --strict and errors: nothing written
                report.seconds = time.perf_counter() - started
                return report
            self._write(archive, found, state, fresh, report, damaged)
        self._finish(state, fresh, found, read, touched if report.quick else None, damaged)
        report.seconds = time.perf_counter() - started
        lap("finish")
        return report

    def _scan(self, changed: Iterable[Path] | None) -> tuple[Found, Callable[[str], bool]]:
        """This build's files, and which records are known not to have changed (see scan.rescan)."""
        config = self.config
        found, looked_at = rescan(config.content_dir, config.not_content(), config.file_bytes, self._found, changed)
        self._found = found
        if looked_at is None:  # a whole walk: the output folder is looked at again too
            self.output.forget()
            return found, lambda rel: False
        return found, lambda rel: rel not in looked_at

    def _index(self, found: Found, fresh: BuildState, report: BuildReport) -> Archive:
        """The archive: events, teams, standings, duplicates, problems."""
        from generator.archive.index import Indexer

        started = time.perf_counter()
        rels = [rel for rel, _, _ in found.records]
        fresh.summaries.load(rels)
        summaries = [game for rel in rels for game in fresh.summaries[rel]]
        summaries += [refused_summary(rel, why) for rel, why in found.refused.items()]
        if self._indexer is None:
            self._indexer = Indexer()
        archive = self._indexer.index(summaries, self.config)
        report.timings["index"] = time.perf_counter() - started
        report.games = fresh.games = len(archive.games)
        report.diagnostics = fresh.diagnostics = sorted({d for found_ in archive.problems.values() for d in found_})
        return archive

    def _write(
        self, archive: Archive, found: Found, state: BuildState, fresh: BuildState, report: BuildReport, damaged: set[str]
    ) -> None:
        """Write every page whose inputs changed, and every file in ``damaged`` (changed by hand).

        Then every file the site no longer has is removed (write.sweep): the
        files the last build wrote, temporary files, and in a folder Qipu
        owns (write.claim_output) any file in the site's own places
        (urls.is_site_path), such as a page a killed build wrote.
        """
        output = self.config.output_dir
        owned = claim_output(output, force=True)[0]
        # The marker first: a build killed before the end leaves a folder the
        # next build knows for its own, not one it must refuse (cli).
        write_if_changed(output / MARKER, OWNED if owned else ADOPTED, self.local.made_dirs)
        on_disk = self.output.on_disk(self._state)
        outputs = self.writer.write(archive, found, state, fresh, set(on_disk) - damaged, owned, report.timings)
        fresh.outputs = {path: key for path, (key, _) in outputs.items()}
        report.pages = len(outputs)
        report.written = sum(1 for _, written in outputs.values() if written)
        report.unchanged = report.pages - report.written
        extra = (on_disk | state.outputs.keys()) - outputs.keys()  # in C: few are left
        previous = state.outputs
        gone = {rel for rel in extra if rel in previous or is_temporary(rel) or (owned and urls.is_site_path(rel))}
        report.removed = sweep(output, gone)

    def _finish(
        self,
        state: BuildState,
        fresh: BuildState,
        found: Found,
        read: Read,
        touched: set[str] | None,
        damaged: set[str],
    ) -> None:
        """What the next build starts from: stamps and folder times of the output, the state saved.

        ``touched``: the outputs a quick rebuild wrote (None: a full build).
        """
        fresh.stamps = self.output.stamps(state, fresh, found, touched, damaged)
        fresh.boards = boards.drawings()  # the ones drawn in this process, and those the state brought
        # Every file is written: now the output folders' times mean something.
        same = touched is not None and state.folders and fresh.outputs.keys() == state.outputs.keys()
        fresh.folders = folder_times(self.config.output_dir, fresh.outputs, state.folders if same else None)
        fresh.unpruned = 0 if read.cleared else state.unpruned + len(read.reparsed)
        # Only new views can leave old ones unused, and the cache is pruned once
        # a third of its rows are dead: not worth counting them before then.
        if fresh.unpruned > len(fresh.records) // 2 + 50:
            self.cache.views.prune({record[2] for record in fresh.records.values()})
            fresh.unpruned = 0
        if (fresh.outputs, fresh.records, fresh.inputs) != (state.outputs, state.records, state.inputs):
            # Written after build() returns (the site is already complete), so a
            # rebuild under `qipu serve` reloads the page sooner; the thread is
            # not a daemon, so a `qipu build` process waits for it before exiting.
            fresh.token = os.urandom(8).hex()
            # What may differ from the last state, as the build knows it: the save need not compare every entry.
            changed: dict[str, Collection[str]] = {"records": read.changed | (state.records.keys() - fresh.records.keys())}
            if touched is not None:
                changed["outputs"] = changed["stamps"] = touched
            self._saver = threading.Thread(target=self._save_state, args=(fresh, state, changed), name="qipu-state")
            self._saver.start()
        self._state = fresh
        self.output.written()
        self.cache.views.close()

    # -- around the stages ---------------------------------------------------

    def build(self, changed: Iterable[Path] | None = None) -> BuildReport:
        """Build the site (see :meth:`_build`), with the cyclic garbage collector paused.

        A build makes millions of small objects that live until it ends and
        form no cycles worth collecting; a collector pass would walk them all.
        A cache found damaged on the way (a view that fails its check, say)
        is thrown away, and the build starts again as a fresh one.
        """
        enabled = gc.isenabled()
        gc.disable()
        try:
            self.wait()
            try:
                report = self._build(changed)
            except (CacheDamaged, workers.WorkerError) as error:
                if isinstance(error, workers.WorkerError) and error.kind != CacheDamaged.__name__:
                    raise
                self._end_workers()
                self.discard_cache()
                report = self._build(None)
            self._end_workers(store=True)  # if the pages did not end them: --strict stopped first
            return report
        finally:
            self._end_workers()  # when a task failed
            if enabled:
                gc.enable()

    def _end_workers(self, store: bool = False) -> None:
        """The workers, and the views this process and they keep, end with the build."""
        try:
            self.pool.end(store)
        finally:
            if store:
                self.local.store_views()
            self.local.close()

    def wait(self) -> None:
        """Wait until the last build's state is on disk."""
        if self._saver is not None:
            self._saver.join()
            self._saver = None

    def discard_cache(self) -> None:
        """Forget all the cache holds (``qipu build --clean``, or a damaged cache).

        The next build reads every record and renders every page, and
        compares each with the file in the output folder: the site it leaves
        is what a build into an empty folder makes.
        """
        self.wait()
        self.cache.discard()
        shutil.rmtree(self.cache_dir / "templates", ignore_errors=True)
        self._state, self._found, self._indexer = None, None, None
        self.writer.forget()
        self.output.forget()

    def _load_state(self) -> BuildState:
        if self._state is None:
            self._state = self.cache.load()
            boards.remember(self._state.boards)
        return self._state

    def _save_state(self, state: BuildState, previous: BuildState, changed: dict[str, Collection[str]]) -> None:
        try:
            self.cache.save(state, previous, changed)
        except Exception:  # noqa: BLE001 - a cache that cannot be saved costs the next build work, not correctness
            self.cache.store.discard()

    def _trust_downloads(
        self, damaged: set[str], state: BuildState, records: dict[str, tuple[int, int, str]], reparsed: list[str]
    ) -> None:
        """A download is a hard link to its record (copy_if_changed): a record edited in place changes it too.

        One whose bytes changed is published again anyway (its key is their
        digest). Where the last build's key is not known (another Qipu's
        state), it stays to be checked.
        """
        known = state.records
        damaged.difference_update(
            urls.record_file(rel) for rel in reparsed if rel in known and known[rel][2][:40] != records[rel][2][:40]
        )

    def _settings(self, found: Found) -> str:
        """One digest of everything the site is made from besides the records."""
        files = []
        for rel, path in found.pages + found.assets:
            try:
                st = path.stat()
            except OSError:  # removed since the scan: the next build sees it gone
                continue
            files.append((rel, st.st_size, st.st_mtime_ns))
        limits = (self.config.file_bytes, self.config.plies)
        return digest(code_digest(), self.writer.theme_digest, self.config.site_fingerprint(), files, found.fingerprint(), limits)


def _inputs_digest(settings: str, rels: list[str], records: dict[str, tuple[int, int, str]]) -> str:
    """One digest of the settings and every record's key, in the order of their paths.

    A key digests the record's path too (its settings part), so the keys
    stand for the paths. Joined into one string and hashed once: the repr of
    ten thousand tuples cost three times as long.
    """
    h = hashlib.sha256(settings.encode())
    h.update("\0".join([records[rel][2] for rel in rels]).encode("ascii"))
    return h.hexdigest()


def build_site(config: Config, **kwargs: Any) -> BuildReport:
    builder = Builder(config, **kwargs)
    report = builder.build()
    builder.wait()
    return report
