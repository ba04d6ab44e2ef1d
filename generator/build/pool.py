"""The worker processes of one build, behind one small object.

:class:`Pool` starts workers (generator.workers) when a stage has enough
work to pay for them, keeps them from the records stage to the game pages,
and ends them with the build. With little
work, or one core, the same task functions run in this process, on its own
:class:`~generator.build.tasks.Local`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any

from generator import workers
from generator.build.tasks import Local, drawings, store_all

# Below this many records to (re)process or pages to render, a process pool costs more than it saves.
POOL_THRESHOLD = 200


def chunk(tasks: int, jobs: int) -> int:
    # Small chunks: the last one leaves the other workers idle, and a chunk of
    # 1/16 of ten thousand records is most of a second of work.
    return max(1, min(64, tasks // (jobs * 8)))


class Pool:
    """``jobs`` workers at most, started with ``method`` (None: workers.start_method())."""

    def __init__(self, jobs: int, method: str | None = None) -> None:
        self.jobs = jobs
        self.method = method
        self.team: workers.Workers | None = None

    def wanted(self, tasks: int, threshold: int = POOL_THRESHOLD) -> bool:
        return tasks >= threshold and self.jobs > 1

    def start(self, local: Local) -> workers.Workers:
        """The workers, started now if they are not yet, each with a copy of ``local``."""
        if self.team is None:
            self.team = workers.Workers(self.jobs, Local(local.site, local.views_path), self.method)
        return self.team

    def map(
        self,
        fn: Callable[[Any, Any], Any],
        tasks: Iterable[Any],
        *,
        expected: int,
        local: Local,
        arrived: Callable[[Any], Any] = lambda result: result,
    ) -> list[Any]:
        """``fn(local, task)`` for each task: in the workers when ``expected`` is enough, else here.

        ``tasks`` may be a generator still making later tasks while the
        workers run the first; ``expected``: about how many it gives, at most.
        """
        if not self.wanted(expected):
            return [arrived(fn(local, task)) for task in tasks]
        return self.start(local).map(fn, tasks, chunk=chunk(expected, self.jobs), arrived=arrived)

    def each(self, fn: Callable[[Any, Any], Any], arg: Any = None) -> list[Any]:
        return self.team.each(fn, arg) if self.team is not None else []

    def end(self, store: bool = False) -> None:
        """The workers end with the build that started them.

        ``store``: each first stores the views it made and has not stored
        yet (see tasks.STORE_BATCH), and hands back its boards' static
        drawings (the build state keeps them, so the next one-record rebuild
        needs no svgwrite). Without it (a task failed) the workers are only
        closed: a failed map leaves the answers to other batches in the
        pipes, which a question now would read as its own answer, and its
        error would hide the task's.
        """
        team, self.team = self.team, None
        if team is None:
            return
        from generator import boards

        try:
            if store:
                team.each(store_all)
                for drawn in team.each(drawings):
                    boards.remember(drawn)
        finally:
            team.close()


def in_background(
    jobs: int, fn: Callable[[Any, Any], Any], local: Any, tasks: list[Any], threshold: int, method: str | None
) -> Callable[[], list[Any]]:
    """``fn(local, task)`` over ``tasks``; returns what gives the results in order, once asked.

    When many, in workers started now with ``local`` (forked: they inherit
    it as it is), which work while the parent goes on with its own: a thread
    hands them the tasks. The fork happens here, in the calling thread
    (never fork from a second thread: the child would have only that one).
    When few, or when workers would be spawned (``local`` holds what only a
    fork passes on), in this process when the results are asked for.
    """
    method = method or workers.start_method()
    if len(tasks) < threshold or jobs == 1 or method != "fork":
        return lambda: [fn(local, task) for task in tasks]
    team = workers.Workers(jobs, local, method)
    outcome: list[tuple[bool, Any]] = []

    def run() -> None:
        try:
            outcome.append((True, team.map(fn, tasks, chunk=chunk(len(tasks), jobs))))
        except BaseException as exc:  # noqa: BLE001 - raised in the caller by results()
            outcome.append((False, exc))

    thread = threading.Thread(target=run, name="qipu-pages", daemon=True)
    thread.start()

    def results() -> list[Any]:
        thread.join()
        team.close()
        ok, value = outcome[0]
        if not ok:
            raise value
        return value

    return results

