"""Diagnostics: what a stage found wrong with its input, never raised.

Every stage returns its values together with a list of :class:`Diagnostic`.
Codes are stable and documented in ``docs/diagnostics.md``; each module that
reports something declares its codes with :func:`define` at import time, so
the table in the docs can be generated from (and tested against) the code.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Literal

from generator import i18n
from generator.i18n import Args

Severity = Literal["error", "warning", "note"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "note")


@dataclass(frozen=True, slots=True)
class Code:
    """One stable diagnostic code, e.g. ``RULE-E002``."""

    code: str
    severity: Severity
    title: str  # one line for the docs table: what happened
    help: str = ""  # what the organiser can do about it


CATALOG: dict[str, Code] = {}


def define(code: str, severity: Severity, title: str, help: str = "") -> str:
    """Declare a code (once, at import time) and return it for use in messages."""
    known = CATALOG.get(code)
    entry = Code(code, severity, title, help)
    if known is not None and known != entry:
        raise ValueError(f"diagnostic code {code} defined twice differently")
    CATALOG[code] = entry
    return code


@dataclass(frozen=True, slots=True, order=True)
class Diagnostic:
    """A problem found in one file, at one place, with a stable code.

    ``path`` is relative to the content folder (POSIX separators), or the
    config file name for configuration errors. ``line`` and ``column`` are
    1-based; 0 means "the whole file" / "unknown". ``template`` is the
    English message with ``{named}`` places for ``args``; :meth:`say` puts it
    in a language (see :mod:`generator.i18n`), :attr:`message` in English.
    """

    path: str
    line: int
    column: int
    severity: Severity
    code: str
    template: str
    args: Args = ()

    def __reduce__(self) -> tuple[type, tuple]:
        # Pickled by the thousand in the build cache: a plain tuple is much faster.
        return (Diagnostic, (self.path, self.line, self.column, self.severity, self.code, self.template, self.args))

    @property
    def message(self) -> str:
        """The message in English."""
        return i18n.say(self.template, self.args)

    def say(self, language: str) -> str:
        """The message in a site language ("zh-CN", "en")."""
        return i18n.say(self.template, self.args, language)

    def title(self, language: str) -> str:
        """What this code means, in a site language."""
        return title(self.code, language)

    def format(self, language: str = i18n.SOURCE_LANGUAGE) -> str:
        """Compiler style: ``path:line:col: error[RULE-E002]: message``."""
        return f"{self.path}:{self.line}:{self.column}: {self.severity}[{self.code}]: {self.say(language)}"

    def to_json(self, language: str = i18n.SOURCE_LANGUAGE) -> dict[str, object]:
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "severity": self.severity,
            "code": self.code,
            "message": self.say(language),
        }


def make(path: str, line: int, column: int, code: str, template: str, /, **args: Any) -> Diagnostic:
    """Build a diagnostic whose severity comes from the code's catalog entry.

    ``template`` is English with ``{named}`` places filled from ``args``
    (write it as a literal: the catalogs are extracted from the source).
    """
    return Diagnostic(path, line, column, CATALOG[code].severity, code, template, i18n.args_of(args) if args else ())


def title(code: str, language: str) -> str:
    """A code's title in a site language; the code itself when it is not defined."""
    entry = CATALOG.get(code)
    if entry is None:
        # Defined in a module only the worker processes imported (a game's engine).
        load_all()
        entry = CATALOG.get(code)
    return i18n.translate(entry.title, language) if entry else code


def count(diagnostics: list[Diagnostic], severity: Severity) -> int:
    return sum(1 for d in diagnostics if d.severity == severity)


@functools.cache
def load_all() -> None:
    """Import every module that defines codes, so that the catalog is whole (once per process)."""
    import importlib

    from generator import games

    games.load_all()  # the format, rules and board modules of every game
    for module in ("decode", "metadata", "pipeline", "config", "scan", "archive.duplicates", "build", "check"):
        importlib.import_module(f"generator.{module}")


def catalog_markdown() -> str:
    """The table of every code, as it stands in ``docs/diagnostics.md``."""
    load_all()
    rows = ["| code | severity | what it means | what to do |", "| --- | --- | --- | --- |"]
    for code in sorted(CATALOG):
        c = CATALOG[code]
        rows.append(f"| `{c.code}` | {c.severity} | {c.title} | {c.help} |")
    return "\n".join(rows) + "\n"
