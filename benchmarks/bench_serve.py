"""How ``qipu serve`` answers many browsers at once.

    python benchmarks/bench_serve.py [--records N] [--clients C] [--rounds R] [--backlog K] [--serve-from FILE] [--json]

Writes N records (default 200) with ``make_records.py`` into a temporary
folder, starts ``serve()`` in this process on 127.0.0.1, port 0, as the tests
do, and waits for its first build. Then C client threads (default 64) each
send R requests (default 20), one new connection per request, all C threads
released together at the start of every round: the burst a browser makes
when a page with many parts loads in several tabs at once. The requests cycle
through the home page, game pages, downloads of original records, the CSS and
the JavaScript, and a missing page. Prints the latency of one request
(connect, send, read the whole answer) at p50, p99 and the maximum, and the
requests per second over the whole run.

``--backlog K`` sets the server's listen backlog (``request_queue_size``)
before it starts: ``--backlog 5`` is what ``socketserver`` gives by default.
``--serve-from FILE`` measures another copy of ``generator/serve.py``, e.g.
the last commit's: ``git show HEAD:generator/serve.py > /tmp/serve_head.py``.
The clients run in the same process as the server and share its interpreter
lock: the figures are those of a busy machine, not of a browser alone.
"""

from __future__ import annotations

import argparse
import http.client
import importlib.util
import json
import math
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import quote

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

import make_records  # noqa: E402

TIMEOUT = 60.0  # seconds one request may take before it counts as an error
START_TIMEOUT = 120.0  # the first build of the generated site


@dataclass(slots=True)
class Answer:
    """One request as a client saw it."""

    seconds: float
    status: int  # 0 when the request failed (refused, reset, timed out)


@dataclass(slots=True)
class Figures:
    records: int
    clients: int
    requests: int
    errors: int
    statuses: dict[str, int]
    p50_ms: float
    p99_ms: float
    max_ms: float
    requests_per_second: float
    backlog: int
    server_log_lines: int  # what the server logged while the clients ran: a traceback shows here


def load_serve(path: Path | None) -> ModuleType:
    """``generator.serve``, or the copy of it in ``path``."""
    if path is None:
        from generator import serve

        return serve
    spec = importlib.util.spec_from_file_location("bench_serve_under_test", path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def start(module: ModuleType, root: Path, log: list[str]) -> tuple[Any, threading.Thread]:
    """Run ``serve()`` in a thread; the server once its first build is done, and the thread."""
    ready = threading.Event()
    servers: list[Any] = []

    def on_ready(server: Any) -> None:
        servers.append(server)
        ready.set()

    def run() -> None:
        try:
            module.serve(None, root=root, content=None, output=None, port=0, log=log.append, ready=on_ready)
        finally:
            ready.set()

    thread = threading.Thread(target=run, name="bench-serve", daemon=True)
    thread.start()
    if not ready.wait(START_TIMEOUT) or not servers:
        raise SystemExit(f"the server did not start: {log[-5:]}")
    return servers[0], thread


def request_paths(output: Path) -> list[str]:
    """A mix of what a browser asks for: pages, downloads, theme files, a missing page."""
    pages = sorted(p for p in output.rglob("*.html") if p.name != "index.html")[:8]
    records = sorted(output.rglob("*.txt"))[:4]
    theme = sorted(output.rglob("*.css"))[:2] + sorted(output.rglob("*.js"))[:1]
    paths = ["/", "/index.html"] + ["/" + p.relative_to(output).as_posix() for p in pages + records + theme]
    return [quote(p) for p in paths] + ["/no/such/page.html"]


def fetch(port: int, path: str) -> Answer:
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        status = response.status
    except OSError:
        status = 0
    finally:
        connection.close()
    return Answer(time.perf_counter() - started, status)


def run_clients(port: int, paths: list[str], clients: int, rounds: int) -> tuple[list[Answer], float]:
    """Every client's answers, and the wall time of the whole run."""
    barrier = threading.Barrier(clients)
    answers: list[list[Answer]] = [[] for _ in range(clients)]

    def client(number: int) -> None:
        for r in range(rounds):
            barrier.wait(TIMEOUT * 2)  # all clients connect at the same moment
            answers[number].append(fetch(port, paths[(number + r) % len(paths)]))

    threads = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [a for mine in answers for a in mine], time.perf_counter() - started


def percentile(sorted_values: list[float], q: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, max(0, math.ceil(q * len(sorted_values)) - 1))]


def figures(answers: list[Answer], seconds: float, records: int, clients: int, backlog: int, logged: int) -> Figures:
    latencies = sorted(a.seconds * 1000 for a in answers)
    statuses: dict[str, int] = {}
    for a in answers:
        statuses[str(a.status)] = statuses.get(str(a.status), 0) + 1
    return Figures(
        records=records,
        clients=clients,
        requests=len(answers),
        errors=statuses.get("0", 0),
        statuses=dict(sorted(statuses.items())),
        p50_ms=percentile(latencies, 0.50),
        p99_ms=percentile(latencies, 0.99),
        max_ms=latencies[-1],
        requests_per_second=len(answers) / seconds,
        backlog=backlog,
        server_log_lines=logged,
    )


def report(f: Figures) -> str:
    statuses = ", ".join(f"{code}: {n}" for code, n in f.statuses.items())
    return "\n".join(
        [
            f"records {f.records}, clients {f.clients}, listen backlog {f.backlog}",
            f"requests      {f.requests} ({statuses}; errors {f.errors})",
            f"latency p50   {f.p50_ms:8.1f} ms",
            f"latency p99   {f.p99_ms:8.1f} ms",
            f"latency max   {f.max_ms:8.1f} ms",
            f"requests/s    {f.requests_per_second:8.0f}",
            f"server log    {f.server_log_lines} lines while the clients ran",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=200, help="records in the generated site (default 200)")
    parser.add_argument("--clients", type=int, default=64, help="simultaneous clients (default 64)")
    parser.add_argument("--rounds", type=int, default=20, help="requests per client (default 20)")
    parser.add_argument("--backlog", type=int, help="the server's listen backlog (default: the server's own)")
    parser.add_argument("--serve-from", type=Path, help="another copy of generator/serve.py to measure")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args(argv)
    module = load_serve(args.serve_from)
    if args.backlog is not None:
        module.PreviewServer.request_queue_size = args.backlog
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as scratch:
        root = Path(scratch)
        make_records.write_bench(args.records, root / "content", seed=1, jobs=1)
        log: list[str] = []
        server, thread = start(module, root, log)
        try:
            paths = request_paths(root / "site")
            before = len(log)
            answers, seconds = run_clients(server.port, paths, args.clients, args.rounds)
            logged = len(log) - before
        finally:
            server.stop()
            thread.join(TIMEOUT)  # before the scratch folder goes: the watcher is still on it
        result = figures(answers, seconds, args.records, args.clients, module.PreviewServer.request_queue_size, logged)
    print(json.dumps(asdict(result)) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
