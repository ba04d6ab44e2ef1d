"""The ``qipu`` command: build, serve, check. The only module that prints."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from generator import __version__
from generator.config import Config, load_config
from generator.diagnostics import Diagnostic

if TYPE_CHECKING:
    from generator.build import BuildReport

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2
SHOWN_DIAGNOSTICS = 25


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="qipu", description="Qipu (棋谱): tournament archives as static websites.")
    parser.add_argument("--version", action="version", version=f"qipu {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    def site_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("--config", type=Path, help="the site.toml to use (default: ./site.toml if present)")
        p.add_argument("--content", type=Path, help="folder of records (overrides site.toml)")
        p.add_argument("--out", type=Path, help="output folder (overrides site.toml)")
        p.add_argument("--cache", type=Path, help="folder of the build cache (overrides site.toml; default .qipu-cache)")
        p.add_argument(
            "--force", action="store_true",
            help="build into an output folder that holds files Qipu did not write (it then removes only its own)",
        )

    build = sub.add_parser("build", help="build the site")
    site_options(build)
    build.add_argument("--clean", action="store_true", help="throw the build cache away and rebuild from nothing")
    build.add_argument("--strict", action="store_true", help="fail without writing anything if any record has an error")
    build.add_argument("--jobs", type=int, default=None, help="worker processes (default: all cores)")
    build.add_argument("--verbose", "-v", action="store_true", help="print every diagnostic")

    serve = sub.add_parser("serve", help="serve the site locally, rebuilding and reloading on every save")
    site_options(serve)
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--open", action="store_true", help="open the site in a browser")

    check = sub.add_parser("check", help="lint records and print diagnostics")
    check.add_argument("paths", nargs="*", type=Path, help="record files or folders (default: the content folder)")
    check.add_argument("--config", type=Path)
    check.add_argument("--content", type=Path)
    check.add_argument("--format", choices=("text", "json"), default="text")

    sub.add_parser("codes", help="print the table of diagnostic codes (Markdown)")
    return parser


def run() -> None:
    """The ``qipu`` command: :func:`main`, then the process ends at once.

    A build leaves hundreds of thousands of objects behind; freeing them one
    by one as Python shuts down takes a tenth of a second that nobody needs
    (the system takes the memory back). Everything Qipu writes is closed and
    flushed before main() returns.
    """
    _restart_in_utf8_mode()
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def _restart_in_utf8_mode() -> None:
    """Run again in Python's UTF-8 mode when the locale would make file names ASCII.

    Under ``LC_ALL=C`` (a bare container, a cron job) with UTF-8 mode off,
    Python names files in ASCII: every record named in Chinese would fail
    to open or to be written. UTF-8 mode reads and writes names as UTF-8
    bytes whatever the locale, and names that are not UTF-8 still reach
    the scan as they are (generator.decode.shown_name).
    """
    if sys.flags.utf8_mode or sys.getfilesystemencoding().lower().replace("-", "") == "utf8":
        return
    if os.environ.get("QIPU_UTF8_RESTART"):  # once only, whatever happens
        return
    os.environ["QIPU_UTF8_RESTART"] = "1"
    argv = [sys.executable, "-X", "utf8", "-m", "generator", *sys.argv[1:]]
    try:
        os.execv(sys.executable, argv)
    except OSError:
        pass  # carry on as we are: names that are not ASCII may fail, each with its own message


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except KeyboardInterrupt:
        print("qipu: stopped", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`qipu check --format json | head`): stop quietly,
        # as other command-line tools do, and keep Python from complaining at exit.
        # Not 0: the check did not finish, so the records are not known to be clean.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_ERRORS


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "codes":
        from generator.diagnostics import catalog_markdown

        sys.stdout.write(catalog_markdown())
        return EXIT_OK
    config, problems = _config(args)
    if config is None:
        return EXIT_USAGE
    if args.command == "build":
        return _build(args, config, problems)
    if args.command == "serve":
        refusal = _folders_refused(config, args.force)
        if refusal is not None:
            print(f"qipu: {refusal}", file=sys.stderr)
            return EXIT_USAGE
        return _serve(args)
    return _check(args, config, problems)


def _config(args: argparse.Namespace) -> tuple[Config | None, list[Diagnostic]]:
    path = getattr(args, "config", None)
    if path is not None and not path.is_file():
        print(f"qipu: no such configuration file: {path}", file=sys.stderr)
        return None, []
    root = path.resolve().parent if path else Path.cwd()
    content = getattr(args, "content", None)
    out = getattr(args, "out", None)
    cache = getattr(args, "cache", None)
    config, problems = load_config(
        path.resolve() if path else None,
        root=root,
        content=content.resolve() if content else None,
        output=out.resolve() if out else None,
        cache=cache.resolve() if cache else None,
    )
    return config, problems


def for_terminal(text: str) -> str:
    """``text`` with every character a terminal would act on written as an escape.

    Diagnostics quote records, and records come from many hands: an escape
    sequence in a team name must not clear the screen, set the window's
    title or hide the rest of the line (control characters, bidirectional
    overrides). Ordinary text, Chinese included, is unchanged.
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch == " " else _escaped(ch) for ch in text)


def _escaped(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _print(diagnostics: list[Diagnostic], limit: int | None) -> None:
    shown = diagnostics if limit is None else diagnostics[:limit]
    for d in shown:
        print(for_terminal(d.format()), file=sys.stderr)
    if limit is not None and len(diagnostics) > limit:
        print(f"... and {len(diagnostics) - limit} more (see the problems page, or run with --verbose)", file=sys.stderr)


def _build(args: argparse.Namespace, config: Config, problems: list[Diagnostic]) -> int:
    from generator.build import Builder
    from generator.cache import CacheDamaged
    from generator.workers import WorkerError

    if problems:
        _print(problems, None)
        if any(d.severity == "error" for d in problems):
            print("qipu: fix the configuration errors above", file=sys.stderr)
            return EXIT_ERRORS
    refusal = _folders_refused(config, args.force)
    if refusal is not None:
        print(f"qipu: {refusal}", file=sys.stderr)
        return EXIT_USAGE
    builder = Builder(config, jobs=args.jobs, strict=args.strict)
    try:
        if args.clean:
            builder.discard_cache()
        report = builder.build()
        try:
            return _report(args, config, report)
        finally:
            builder.wait()  # the build state is saved while the result is printed
    except OSError as error:  # a disk full, a folder made read-only during the build
        where = f" {error.filename}" if error.filename else ""
        print(f"qipu: the build stopped: cannot write{where}: {error.strerror or error}", file=sys.stderr)
        return EXIT_ERRORS
    except (WorkerError, CacheDamaged) as error:  # a damaged cache twice in a row; a worker killed
        last = str(error).strip().splitlines()[-1:] or [""]
        print(f"qipu: the build stopped ({for_terminal(last[0])}); build again, or with --clean", file=sys.stderr)
        return EXIT_ERRORS


def _folders_refused(config: Config, force: bool) -> str | None:
    """Why the build must not start: no content folder, an output folder not Qipu's, a folder it cannot write.

    Asked before anything is written, so that the previous site stays as it was.
    """
    from generator.render.write import claim_output, unwritable

    if not config.content_dir.is_dir():
        return f"the content folder {config.content_dir} does not exist"
    _, refusal = claim_output(config.output_dir, force)
    if refusal is not None:
        return refusal
    problem = unwritable(config.output_dir)
    if problem is not None:
        return f"cannot write to the output folder {config.output_dir}: {problem}; the site there was left as it was"
    problem = unwritable(config.cache_dir)
    if problem is not None:
        return (
            f"cannot write to the cache folder {config.cache_dir}: {problem}; "
            'put the cache elsewhere with --cache DIR or cache = "DIR" in site.toml'
        )
    return None


def _report(args: argparse.Namespace, config: Config, report: BuildReport) -> int:
    serious = [d for d in report.diagnostics if d.severity in ("error", "warning")]
    _print(serious, None if args.verbose else SHOWN_DIAGNOSTICS)
    print(
        f"{report.records} records, {report.games} games: {report.errors} errors, {report.warnings} warnings; "
        f"re-read {report.reparsed} records"
    )
    if not report.published:
        print("qipu: --strict: records have errors, nothing was written", file=sys.stderr)
        return EXIT_ERRORS
    print(
        f"wrote {report.written} of {report.pages} files ({report.unchanged} unchanged, {report.removed} removed) "
        f"to {_shown_path(config.output_dir)} in {report.seconds:.2f} s"
    )
    if args.verbose:
        print("  " + ", ".join(f"{stage} {seconds:.2f} s" for stage, seconds in report.timings.items()))
    return EXIT_OK


def _shown_path(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _serve(args: argparse.Namespace) -> int:
    from generator.serve import serve

    return serve(
        args.config.resolve() if args.config else None,
        root=args.config.resolve().parent if args.config else Path.cwd(),
        content=args.content.resolve() if args.content else None,
        output=args.out.resolve() if args.out else None,
        cache=args.cache.resolve() if args.cache else None,
        host=args.host,
        port=args.port,
        open_browser=args.open,
        log=lambda line: print(for_terminal(line), flush=True),
    )


def _check(args: argparse.Namespace, config: Config, problems: list[Diagnostic]) -> int:
    from generator.check import check_paths

    paths = args.paths or [config.content_dir]
    missing = [p for p in paths if not p.exists()]
    if missing:
        print(f"qipu: no such file or folder: {', '.join(map(str, missing))}", file=sys.stderr)
        return EXIT_USAGE
    checked = check_paths(config, paths)
    found = problems + checked.diagnostics
    for d in found:
        if args.format == "json":
            print(json.dumps(d.to_json(), ensure_ascii=False))
        else:
            print(for_terminal(d.format()))
    errors = sum(1 for d in found if d.severity == "error")
    if args.format == "text":
        warnings = sum(1 for d in found if d.severity == "warning")
        if checked.aliases:
            print("\nLikely aliases: check each, then add under [aliases] in site.toml:")
            print("\n".join(f"  {for_terminal(line)}" for line in checked.aliases))
        print(f"{errors} errors, {warnings} warnings", file=sys.stderr)
    return EXIT_ERRORS if errors else EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
