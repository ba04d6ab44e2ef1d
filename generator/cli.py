"""The ``qipu`` command: build, serve, check. The only module that prints."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from generator import __version__
from generator.config import LANGUAGES, Config, load_config
from generator.diagnostics import Diagnostic
from generator.i18n import N_, say

if TYPE_CHECKING:
    from generator.archive.teams import Suggestion
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
    build.add_argument("--quiet", "-q", action="store_true", help="print only errors and warnings: no progress, no summary")

    serve = sub.add_parser("serve", help="serve the site locally, rebuilding and reloading on every save")
    site_options(serve)
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--open", action="store_true", help="open the site in a browser")

    check = sub.add_parser("check", help="lint records and print diagnostics")
    check.add_argument("paths", nargs="*", type=Path, help="record files or folders (default: the content folder)")
    check.add_argument("--config", type=Path)
    check.add_argument("--content", type=Path)
    check.add_argument(
        "--format", choices=("text", "json", "github"), default="text",
        help="text; json: one object per line; github: GitHub Actions annotations (errors shown on the record's line)",
    )
    check.add_argument(
        "--lang", choices=LANGUAGES, default="en", type=_language,
        help="the language of the messages: en (the default) or zh-CN",
    )
    check.add_argument(
        "--write-aliases", action="store_true",
        help="add the likely aliases to [aliases] in site.toml (its comments and layout kept); check them first",
    )

    new = sub.add_parser("new", help="make a new archive: site.toml, an example event, a GitHub Pages workflow")
    new.add_argument("folder", type=Path, help="the folder to make (it must be new or empty)")
    new.add_argument("--force", action="store_true", help="add the archive's files to a folder that is not empty")

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
    if args.command == "new":
        return _new(args)
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


_GITHUB_LEVELS = {"error": "error", "warning": "warning", "note": "notice"}


def _language(text: str) -> str:
    """A language as typed (``zh-cn``, ``EN``) in the spelling of site.toml."""
    return next((known for known in LANGUAGES if known.lower() == text.lower()), text)


def github_annotation(d: Diagnostic, path: str, language: str = "en") -> str:
    """``d`` as a GitHub Actions workflow command: shown on its line of the pull request's files.

    ``path`` is the file relative to the repository (the job's working
    folder). Values are escaped as the runner reads them: ``%``, line ends,
    and in properties ``:`` and ``,``.
    """
    where = [f"file={_github_escape(path, True)}"]
    if d.line:
        where.append(f"line={d.line}")
        if d.column:
            where.append(f"col={d.column}")
    where.append(f"title={_github_escape(d.code, True)}")
    return f"::{_GITHUB_LEVELS[d.severity]} {','.join(where)}::{_github_escape(for_terminal(d.say(language)), False)}"


def _github_escape(text: str, property: bool) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if property else text


def _repository_path(config: Config, rel: str) -> str:
    """A diagnostic's file as a path from the current folder (the repository, in CI)."""
    if rel == "site.toml" or (config.path is not None and rel == config.path.name):
        base = config.path.parent if config.path is not None else Path.cwd()
        return _shown_path(base / rel)
    return _shown_path(config.content_dir / rel)


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
    progress = Progress(enabled=not args.quiet and sys.stderr.isatty())
    builder = Builder(config, jobs=args.jobs, strict=args.strict, progress=progress.update)
    try:
        if args.clean:
            builder.discard_cache()
        try:
            report = builder.build()
        finally:
            progress.close()
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


class Progress:
    """A line on the terminal, updated in place, while a long build reads records and writes pages.

    Nothing for the first PROGRESS_AFTER seconds (a rebuild after an edit is
    over before), nothing when the output is not a terminal (a CI log, a
    pipe) or under ``-q``. Printed from the build's own calls, at most ten
    times a second, and cleared before the summary line.
    """

    AFTER = 2.0
    EVERY = 0.1

    def __init__(self, enabled: bool) -> None:
        import time

        self._clock = time.monotonic
        self.enabled = enabled
        self.started = self._clock()
        self.shown = 0.0
        self.counts: dict[str, tuple[int, int]] = {}
        self.printed = False

    def update(self, stage: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        self.counts[stage] = (done, total)
        now = self._clock()
        if now - self.started < self.AFTER or (now - self.shown < self.EVERY and done != total):
            return
        self.shown = now
        parts = []
        if "records" in self.counts:
            parts.append("read {:,} of {:,} records".format(*self.counts["records"]))
        if "pages" in self.counts:
            parts.append("game pages {:,} of {:,}".format(*self.counts["pages"]))
        sys.stderr.write(f"\r\x1b[K{'; '.join(parts)} ({now - self.started:.0f} s)")
        sys.stderr.flush()
        self.printed = True

    def close(self) -> None:
        if self.printed:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def _report(args: argparse.Namespace, config: Config, report: BuildReport) -> int:
    serious = [d for d in report.diagnostics if d.severity in ("error", "warning")]
    _print(serious, None if args.verbose else SHOWN_DIAGNOSTICS)
    if not args.quiet:
        print(
            f"{report.records} records, {report.games} games: {report.errors} errors, {report.warnings} warnings; "
            f"re-read {report.reparsed} records"
        )
    if not report.published:
        print("qipu: --strict: records have errors, nothing was written", file=sys.stderr)
        return EXIT_ERRORS
    if args.quiet:
        return EXIT_OK
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


def _new(args: argparse.Namespace) -> int:
    from generator import scaffold

    folder: Path = args.folder
    refusal = scaffold.refusal(folder, args.force)
    if refusal is not None:
        print(f"qipu: {refusal}", file=sys.stderr)
        return EXIT_USAGE
    written = scaffold.make(folder)
    print(f"made a new archive in {_shown_path(folder.resolve())}: {', '.join(written[:4])} and {len(written) - 4} more files")
    print(f"next: cd {_shown_path(folder.resolve())} && qipu build   (then open site/index.html)")
    return EXIT_OK


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
            print(json.dumps(d.to_json(args.lang), ensure_ascii=False))
        elif args.format == "github":
            print(github_annotation(d, _repository_path(config, d.path), args.lang))
        else:
            print(for_terminal(d.format(args.lang)))
    errors = sum(1 for d in found if d.severity == "error")
    if args.format == "text":
        warnings = sum(1 for d in found if d.severity == "warning")
        if checked.aliases:
            print("\n" + say(N_("Likely aliases: check each, then add under [aliases] in site.toml:"), language=args.lang))
            print("\n".join(f"  {for_terminal(line)}" for line in checked.aliases))
        counts = say(N_("{errors} errors, {warnings} warnings"), {"errors": errors, "warnings": warnings}, args.lang)
        print(counts, file=sys.stderr)
    if args.write_aliases and not _write_aliases(config, checked.suggestions, args.lang):
        return EXIT_USAGE
    return EXIT_ERRORS if errors else EXIT_OK


def _write_aliases(config: Config, suggestions: Sequence[Suggestion], language: str) -> bool:
    """``qipu check --write-aliases``: the suggestions added to site.toml (made if there is none); False if it cannot be."""
    from generator.check import add_aliases, alias_pair

    path = config.path or config.root / "site.toml"
    text = path.read_text(encoding="utf-8-sig") if path.is_file() else ""
    try:
        new, added = add_aliases(text, [alias_pair(s) for s in suggestions])
    except ValueError as problem:
        print(f"qipu: {path}: {problem}", file=sys.stderr)
        return False
    if added:
        path.write_text(new, encoding="utf-8")
    message = N_("{count} aliases added to {path}")
    print(say(message, {"count": len(added), "path": str(path)}, language), file=sys.stderr)
    return True


if __name__ == "__main__":
    sys.exit(main())
