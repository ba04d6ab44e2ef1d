"""Worker processes for the stages of one build.

A build reads every record in parallel, indexes the archive in the parent,
then renders every game page in parallel, with the same workers. Each has a
*local* object, given to the pool when it starts and handed to every task as
its first argument (``fn(local, task)``): what a worker sets itself up with
and keeps between tasks (its connection to the view cache, say).

Workers start with the platform's method: ``fork`` where it is safe (Linux),
``spawn`` elsewhere (Windows, macOS), or what ``QIPU_START_METHOD`` names.
Under ``spawn`` the local object, the functions (by name, so at module
level) and the tasks cross to the workers pickled; under ``fork`` the local
object is inherited as it is. An exception in a worker is raised again in the
parent with the worker's traceback.
"""

from __future__ import annotations

import itertools
import os
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from queue import SimpleQueue

# multiprocessing (and queue) are imported where workers start: a rebuild that
# needs none (one record edited) spares their import, a twentieth of that rebuild.

# Batches sent to a worker before it returns the first. Three, not two: the
# parent keys a whole event's game pages at once (20-30 ms for 500 games), and
# with one batch waiting a worker sometimes ran dry meanwhile.
AHEAD = 3


def start_method() -> str:
    """How workers start here: ``QIPU_START_METHOD``, else fork on Linux, else the platform's default.

    Fork is not the default on macOS (system libraries are not fork-safe)
    nor available on Windows; from Python 3.14 Linux defaults to forkserver,
    which gives nothing a build needs that fork does not.
    """
    import multiprocessing

    chosen = os.environ.get("QIPU_START_METHOD", "")
    if chosen in multiprocessing.get_all_start_methods():
        return chosen
    if sys.platform.startswith("linux"):
        return "fork"
    return multiprocessing.get_start_method()


class WorkerError(RuntimeError):
    """A task failed inside a worker; the message holds the worker's traceback.

    ``kind``: the name of the exception's class, for the parent to tell
    apart the failures it can recover from (a damaged cache: generator.cache).
    """

    def __init__(self, message: str, kind: str = "") -> None:
        super().__init__(message)
        self.kind = kind


class Workers:
    """``count`` worker processes, each with its own copy of ``local``; use as a context manager so they always end.

    ``local``: handed to every task as its first argument; a worker sets
    ``local.number`` to its own number (0, 1 ...) if it has that attribute.
    ``method``: the start method (see :func:`start_method`).
    """

    def __init__(self, count: int, local: Any = None, method: str | None = None) -> None:
        import multiprocessing

        self.method = method or start_method()
        context = multiprocessing.get_context(self.method)
        self._conns: list[Connection] = []
        self._procs = []
        for number in range(count):
            mine, theirs = context.Pipe()
            # Forked, a worker holds copies of the parent's ends of every pipe
            # so far: it closes them, so that its own pipe ends when the parent
            # does. Spawned, it inherits none.
            parent_ends = [*self._conns, mine] if self.method == "fork" else []
            proc = context.Process(  # type: ignore[attr-defined]
                target=_serve, args=(theirs, number, local, parent_ends), daemon=True, name=f"qipu-worker-{number}"
            )
            proc.start()
            theirs.close()
            self._conns.append(mine)
            self._procs.append(proc)

    def __len__(self) -> int:
        return len(self._conns)

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def map(
        self,
        fn: Callable[[Any, Any], Any],
        tasks: Iterable[Any],
        *,
        chunk: int,
        arrived: Callable[[Any], Any] | None = None,
    ) -> list[Any]:
        """``fn(local, task)`` for every task, in the workers; the results in the order of ``tasks``.

        ``tasks`` are taken as the workers need them, ``chunk`` at a time: a
        generator may still be working out the later ones (the pages of the
        next event) while the workers run the first. ``arrived(result)``,
        called in the parent as each result comes in, stands in for it in
        the list: large results can be stored away at once instead of all
        held until the end.

        Each worker has more batches waiting while it works on one (see
        :data:`AHEAD`): with a single batch it idled for every round trip
        through the parent, a quarter of a second per worker over ten
        thousand pages. A thread sends the batches, so the parent always
        takes in results: were it to block sending to a worker that blocks
        sending its results (pipes hold a few kilobytes on some systems),
        both would wait forever.
        """
        from multiprocessing.connection import wait
        from queue import SimpleQueue

        source = iter(tasks)
        results: list[Any] = []
        sent: list[deque[tuple[int, int]]] = [deque() for _ in self._conns]  # (first, count) of each batch sent
        outbox: SimpleQueue[tuple[int, Any] | None] = SimpleQueue()
        sender = threading.Thread(target=self._send, args=(outbox,), name="qipu-workers-send", daemon=True)
        sender.start()

        def feed(worker: int) -> None:
            batch = list(itertools.islice(source, chunk))
            if batch:
                outbox.put((worker, (fn, batch)))
                sent[worker].append((len(results), len(batch)))
                results.extend([None] * len(batch))

        try:
            for _ in range(AHEAD):
                for worker in range(len(self._conns)):
                    feed(worker)
            while any(sent):
                for conn in wait([self._conns[w] for w in range(len(sent)) if sent[w]]):
                    worker = self._conns.index(conn)  # type: ignore[arg-type]
                    first, _ = sent[worker].popleft()
                    ok, payload = self._receive(worker)
                    if not ok:
                        raise WorkerError(*payload)
                    feed(worker)  # first: the worker computes while the parent takes in the results
                    for i, result in enumerate(payload, first):
                        results[i] = result if arrived is None else arrived(result)
        finally:
            outbox.put(None)
            sender.join()
        return results

    def each(self, fn: Callable[[Any, Any], Any], arg: Any = None) -> list[Any]:
        """``fn(local, arg)`` once in every worker (to set it up, say); the results by worker."""
        for conn in self._conns:
            conn.send((fn, [arg]))  # small and answered at once: no need for the sender thread
        found = []
        for worker in range(len(self._conns)):
            ok, payload = self._receive(worker)
            if not ok:
                raise WorkerError(*payload)
            found.append(payload[0])
        return found

    def _receive(self, worker: int) -> tuple[bool, Any]:
        try:
            return self._conns[worker].recv()
        except EOFError:
            raise WorkerError(f"worker {worker} ended unexpectedly", "ended") from None

    def _send(self, outbox: SimpleQueue[tuple[int, Any] | None]) -> None:
        """Send each batch put in ``outbox`` to its worker, until None comes."""
        broken: set[int] = set()
        while (item := outbox.get()) is not None:
            worker, message = item
            if worker in broken:
                continue
            try:
                self._conns[worker].send(message)
            except OSError:  # the worker is gone: map() finds its pipe closed and says so
                broken.add(worker)

    def close(self) -> None:
        for conn in self._conns:
            try:
                conn.send(None)
            except OSError:
                pass  # already gone
        for proc in self._procs:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.terminate()
        for conn in self._conns:
            conn.close()
        self._conns, self._procs = [], []


def _watch_parent(parent: int) -> None:
    """End this worker as soon as the process that started it is gone.

    A build killed mid-task (SIGKILL, a closed terminal) must not leave its
    workers running on: a worker busy with a task would not notice its pipe
    closing until the task ended, and one whose parent's end of the pipe
    another process still holds would never notice.
    """
    while True:
        time.sleep(0.25)
        if os.getppid() != parent:
            os._exit(1)


def _serve(conn: Connection, number: int, local: Any, parent_ends: list[Connection]) -> None:
    for end in parent_ends:
        end.close()
    threading.Thread(target=_watch_parent, args=(os.getppid(),), name="qipu-parent-watch", daemon=True).start()
    if hasattr(local, "number"):
        local.number = number
    while True:
        try:
            message = conn.recv()
        except EOFError:
            return
        if message is None:
            return
        fn, batch = message
        try:
            conn.send((True, [fn(local, task) for task in batch]))
        except BaseException as error:  # noqa: BLE001 - reported to the parent, which raises it
            conn.send((False, (traceback.format_exc(), type(error).__name__)))
