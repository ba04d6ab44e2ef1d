"""``qipu check``: the flow up to the index, without rendering anything."""

from __future__ import annotations

import os
from pathlib import Path

from generator.archive.index import build_index
from generator.build import Builder, summarize
from generator.config import Config
from generator.diagnostics import Diagnostic
from generator.model import Source
from generator.pipeline import event_key, process, sha256


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


def check_paths(config: Config, paths: list[Path]) -> list[Diagnostic]:
    """Every diagnostic of the records under ``paths``, sorted by file and position."""
    builder = Builder(config, jobs=1)
    summaries = []
    for path in _files(paths):
        rel = _relative(config, path)
        data = path.read_bytes()
        event = event_key(rel)
        processed = process(
            Source(rel, data, sha256(data)),
            encoding=config.encoding_for(rel),
            options=builder.options_for(event),
            folder=builder.folder_meta(event),
        )
        summaries.append(summarize(processed, processed.sha256))
    archive = build_index(summaries, config)
    return sorted({d for found in archive.problems.values() for d in found} | {d for s in summaries for d in s.diagnostics})
