"""Worker processes that keep what they made between the stages of one build.

A build reads every record in parallel, indexes the archive in the parent,
then renders every game page in parallel. Each game page needs the view its
record's replay prepared (board, viewer data, move list: tens of kilobytes).
A process pool forgets everything between two maps, so every view used to
travel to the parent and out to a renderer again, compressed on the way to
spare memory: a sixth of a cold build's time. These workers are forked once
per build and keep the views they made in their own memory (``kept``); the
render stage sends each page to the worker that holds its view.

A worker can also be left work that may wait (``idle``): it runs while no
task is waiting, which in a build is while the parent indexes the archive.

Functions and arguments cross the pipes pickled: functions by name, so they
must live at module level. An exception in a worker is raised again in the
parent with the worker's traceback.
"""

from __future__ import annotations

import threading
import time
import traceback
from collections import deque
from typing import TYPE_CHECKING, Any, Callable, Iterable

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from queue import SimpleQueue

# multiprocessing (and queue) are imported where workers start: a rebuild that
# needs none (one record edited) spares their import, a twentieth of that rebuild.

# In a worker: its number, and what it keeps between two calls of map().
index: int | None = None
kept: dict[str, Any] = {}
# In a worker: work that can wait for a moment with no task to do (the
# parent indexing the archive, say). Each call does a little of it and says
# whether some is left; a task that arrives meanwhile goes first.
idle: list[Callable[[], bool]] = []

# Batches sent to a worker before it returns the first. Three, not two: the
# parent keys a whole event's game pages at once (20-30 ms for 500 games), and
# with one batch waiting a worker sometimes ran dry meanwhile.
AHEAD = 3
_END = object()


class WorkerError(RuntimeError):
    """A task failed inside a worker; the message holds the worker's traceback.

    ``kind``: the name of the exception's class, for the parent to tell
    apart the failures it can recover from (a damaged cache: generator.cache).
    """

    def __init__(self, message: str, kind: str = "") -> None:
        super().__init__(message)
        self.kind = kind


class Workers:
    """``count`` forked processes; use as a context manager so they always end."""

    def __init__(self, count: int) -> None:
        import multiprocessing

        context = multiprocessing.get_context("fork")  # workers inherit the parent's imports and globals
        self._conns: list[Connection] = []
        self._procs = []
        for number in range(count):
            mine, theirs = context.Pipe()
            # The parent's ends of every pipe so far: the worker closes its
            # inherited copies, so that its own pipe ends when the parent does.
            parent_ends = [*self._conns, mine]
            proc = context.Process(
                target=_serve, args=(theirs, number, parent_ends), daemon=True, name=f"qipu-worker-{number}"
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
        fn: Callable[[Any], Any],
        tasks: Iterable[Any],
        *,
        chunk: int,
        home: Callable[[Any], int | None] | None = None,
        steal: bool = False,
        arrived: Callable[[Any], Any] | None = None,
    ) -> list[Any]:
        """``fn(task)`` for every task, in the workers; the results in the order of ``tasks``.

        ``tasks`` are taken as the workers need them: a generator may still
        be working out the later ones (the pages of the next event) while
        the workers run the first. ``home(task)`` names the worker that must
        run a task (the one holding what it needs), or None for any. A
        worker that runs out of its own tasks takes tasks anyone may run, so
        the slower worker sets the pace only as far as its own tasks go.
        With ``steal`` a worker that has nothing left to do then takes the
        last tasks of the longest backlog: what those need is found elsewhere
        too (game views, once all are in the cache), only at a cost.
        ``arrived(result)``, called in the parent as each result comes in,
        stands in for it in the list: large results can be stored away at
        once instead of all held until the end.

        Each worker has more batches waiting while it works on one (see
        :data:`AHEAD`): with a single batch it idled for every round trip
        through the parent, a quarter of a second per worker over ten
        thousand pages. A thread sends the batches, so the parent always
        takes in results: were it
        to block sending to a worker that blocks sending its results (pipes
        hold a few kilobytes on some systems), both would wait forever.
        """
        from multiprocessing.connection import wait
        from queue import SimpleQueue

        source = iter(tasks)
        taken: list[Any] = []  # the tasks taken from source so far, by number
        results: list[Any] = []
        own: list[deque[int]] = [deque() for _ in self._conns]
        anyone: deque[int] = deque()
        sent: list[deque[list[int]]] = [deque() for _ in self._conns]  # batches each worker has, in order
        outbox: SimpleQueue[tuple[int, Any] | None] = SimpleQueue()
        sender = threading.Thread(target=self._send, args=(outbox,), name="qipu-workers-send", daemon=True)
        sender.start()

        def take(worker: int) -> None:
            """Take tasks from source until this worker has a batch's worth, or none are left."""
            while len(own[worker]) < chunk and len(anyone) < chunk:
                task = next(source, _END)
                if task is _END:
                    return
                where = home(task) if home is not None else None
                (own[where] if where is not None and 0 <= where < len(own) else anyone).append(len(taken))
                taken.append(task)
                results.append(None)

        def feed(worker: int) -> None:
            take(worker)
            queue = own[worker] if own[worker] else anyone
            batch = [queue.popleft() for _ in range(min(chunk, len(queue)))]
            if not batch and steal:
                # The end of the work: half of another worker's backlog, from its
                # end, so that both finish together (it keeps its next tasks).
                backlog = max(own, key=len)
                batch = [backlog.pop() for _ in range(min(chunk, len(backlog) // 2))][::-1]
            if batch:
                outbox.put((worker, (fn, [taken[i] for i in batch])))
                sent[worker].append(batch)

        try:
            for _ in range(AHEAD):
                for worker in range(len(self._conns)):
                    feed(worker)
            while any(sent):
                for conn in wait([self._conns[w] for w in range(len(sent)) if sent[w]]):
                    worker = self._conns.index(conn)  # type: ignore[arg-type]
                    done = sent[worker].popleft()
                    ok, payload = self._receive(worker)
                    if not ok:
                        raise WorkerError(*payload)
                    feed(worker)  # first: the worker computes while the parent takes in the results
                    for i, result in zip(done, payload):
                        results[i] = result if arrived is None else arrived(result)
                        taken[i] = None  # sent and done: not kept to the end
        finally:
            outbox.put(None)
            sender.join()
        return results

    def each(self, fn: Callable[[Any], Any], arg: Any = None) -> list[Any]:
        """``fn(arg)`` once in every worker (to set it up, say); the results by worker."""
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
    import os

    while True:
        time.sleep(0.25)
        if os.getppid() != parent:
            os._exit(1)


def _serve(conn: Connection, number: int, parent_ends: list[Connection] = ()) -> None:  # type: ignore[assignment]
    import os

    global index
    index = number
    for end in parent_ends:
        end.close()
    threading.Thread(target=_watch_parent, args=(os.getppid(),), name="qipu-parent-watch", daemon=True).start()
    kept.clear()  # forked: whatever the parent kept is not this worker's
    idle.clear()
    failed = None  # a traceback from idle work, reported with the next batch
    while True:
        while idle and failed is None and not conn.poll():
            try:
                if not idle[0]():
                    idle.pop(0)
            except BaseException as error:  # noqa: BLE001 - reported to the parent, which raises it
                idle.pop(0)
                failed = (traceback.format_exc(), type(error).__name__)
        try:
            message = conn.recv()
        except EOFError:
            return
        if message is None:
            return
        fn, batch = message
        if failed is not None:
            conn.send((False, failed))
            failed = None
            continue
        try:
            conn.send((True, [fn(task) for task in batch]))
        except BaseException as error:  # noqa: BLE001 - reported to the parent, which raises it
            conn.send((False, (traceback.format_exc(), type(error).__name__)))
