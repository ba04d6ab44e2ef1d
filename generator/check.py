"""``qipu check``: the flow up to the index, without rendering anything."""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass
from pathlib import Path

from generator import decode
from generator.archive.index import alias_suggestions, build_index
from generator.archive.teams import Suggestion
from generator.build import refused_summary, summarize
from generator.build.records import read_games
from generator.cache import view_key
from generator.config import Config
from generator.diagnostics import Diagnostic, define, make
from generator.scan import Refused, kind, read_file, scan

ALIAS = define(
    "ARC-N102",
    "note",
    "Two team spellings look like one team",
    "If they are one team, add the line the message gives under [aliases] in site.toml; "
    "the standings then count them as one.",
)


def _files(config: Config, paths: list[Path]) -> tuple[list[tuple[Path, str, Diagnostic | None]], list[Diagnostic]]:
    """The records under ``paths`` as (path on disk, name shown, a warning about its name), and the entries refused.

    Folders are walked by the build's own scan (generator.scan), so ``qipu
    check`` looks at exactly the records ``qipu build`` reads and refuses
    what it refuses. A file named on the command line is the user's choice
    and is read even outside the content folder, but only if it is a
    regular file the scan would take for a record (not ``logo.png``, not
    ``notes.txt~``: a shell's ``*`` names those too).
    """
    found: dict[str, tuple[Path, str, Diagnostic | None]] = {}
    refused: list[Diagnostic] = []
    for path in paths:
        if not path.is_dir():
            if kind(path.name) != "record":
                continue  # a page, an asset, an editor's backup: what the build's scan would not read as a record
            on_disk = _relative(config, path)
            rel = decode.shown_path(on_disk)  # as the site names it: see decode.shown_name
            found[rel] = (Path(os.path.realpath(path)), rel, decode.renamed(rel) if rel != on_disk else None)
            continue
        walked = scan(path, config.not_content(), config.file_bytes)
        base = _relative(config, path)
        prefix = "" if base in (".", "") else base + "/"

        def moved(d: Diagnostic, prefix: str = prefix) -> Diagnostic:
            # The message names the file as the scan saw it: name it from here too.
            def here(value: object) -> object:
                return value.replace(d.path, prefix + d.path) if type(value) is str else value

            args = tuple((name, here(value)) for name, value in d.args)
            return dataclasses.replace(d, path=prefix + d.path, template=str(here(d.template)), args=args)

        for rel, real, _ in walked.records:
            note = walked.notes.get(rel)
            found[prefix + rel] = (Path(real), prefix + rel, moved(note) if note else None)
        refused += [moved(d) for d in walked.refused.values()]
    return [found[key] for key in sorted(found)], refused


def _relative(config: Config, path: Path) -> str:
    """Paths inside the content folder are named as the site names them; others as given."""
    resolved = path.resolve()
    for base in (config.content_dir.resolve(), Path.cwd()):
        try:
            return resolved.relative_to(base).as_posix()
        except ValueError:
            continue
    return resolved.as_posix()


@dataclass(slots=True)
class Checked:
    diagnostics: list[Diagnostic]  # sorted by file and position; alias notes last
    aliases: list[str]  # likely [aliases] lines for site.toml, ready to paste


def check_paths(config: Config, paths: list[Path]) -> Checked:
    """Every diagnostic of the records under ``paths``, and the aliases they suggest."""
    summaries = []
    records, refused = _files(config, paths)
    for path, rel, note in records:
        try:
            data = read_file(path, config.file_bytes)
        except Refused as refusal:
            refused.append(refusal.diagnostic(rel))
            continue
        played = read_games(config, rel, data)
        if note is not None:
            played[0].diagnostics.append(note)
        summaries += [summarize(processed, view_key(processed.sha256, processed.game)) for processed in played]
    summaries += [refused_summary(d.path, d) for d in refused]
    archive = build_index(summaries, config)
    found = {d for problems in archive.problems.values() for d in problems} | {d for s in summaries for d in s.diagnostics}
    suggestions = alias_suggestions(archive, config)
    lines = [alias_line(s) for s in suggestions]
    notes = [
        make("site.toml", 0, 0, ALIAS, "{reason}: {line} under [aliases]?", reason=s.reason, line=line)
        for s, line in zip(suggestions, lines)
    ]
    return Checked(sorted(found) + notes, lines)


def alias_line(suggestion: Suggestion) -> str:
    """``"variant" = "canonical"`` for site.toml.

    The canonical name is the organiser's choice; we propose the core name
    for a school-prefixed spelling and the Chinese one for a transliteration.
    """
    a, b = suggestion.names
    if "prefix" in suggestion.reason or "suffix" in suggestion.reason or "added" in suggestion.reason:
        canonical = min((a, b), key=len)
    else:
        canonical = max((a, b), key=lambda n: (sum(1 for c in n if ord(c) > 0x2E7F), -len(n)))
    variant = b if canonical == a else a
    return f"{json.dumps(variant, ensure_ascii=False)} = {json.dumps(canonical, ensure_ascii=False)}"
