"""``qipu check``: the flow up to the index, without rendering anything."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from generator import decode
from generator.archive.index import alias_suggestions, build_index
from generator.archive.teams import Suggestion
from generator.build import Builder, summarize
from generator.config import Config
from generator.diagnostics import Diagnostic, define, make
from generator.model import Source
from generator.pipeline import event_key, process, sha256


ALIAS = define(
    "ARC-N102",
    "note",
    "Two team spellings look like one team",
    "If they are one team, add the line the message gives under [aliases] in site.toml; "
    "the standings then count them as one.",
)


def _files(paths: list[Path]) -> list[Path]:
    found: list[Path] = []
    for path in paths:
        if path.is_file():
            found.append(path)
            continue
        for folder, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith((".", "_")))
            found += [Path(folder) / f for f in sorted(files) if not f.startswith(".") and not f.lower().endswith((".md", ".markdown"))]
    return sorted(set(found))


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
    builder = Builder(config, jobs=1)
    summaries = []
    for path in _files(paths):
        on_disk = _relative(config, path)
        rel = decode.shown_path(on_disk)  # as the site names it: see decode.shown_name
        data = path.read_bytes()
        event = event_key(rel)
        processed = process(
            Source(rel, data, sha256(data)),
            encoding=config.encoding_for(rel),
            options=builder.options_for(event),
            folder=builder.folder_meta(event),
        )
        if rel != on_disk:
            processed.diagnostics.append(decode.renamed(rel))
        summaries.append(summarize(processed, processed.sha256))
    archive = build_index(summaries, config)
    found = {d for problems in archive.problems.values() for d in problems} | {d for s in summaries for d in s.diagnostics}
    suggestions = alias_suggestions(archive, config)
    lines = [alias_line(s) for s in suggestions]
    notes = [make("site.toml", 0, 0, ALIAS, f"{s.reason}: {line} under [aliases]?") for s, line in zip(suggestions, lines)]
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
