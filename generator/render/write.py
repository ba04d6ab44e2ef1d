"""Writing the site: atomic per file, and untouched when the bytes are the same.

A file is written to a temporary name beside it and renamed over the old
one, so a reader (or a failed build) never sees half a file; a file whose
bytes did not change is not rewritten, so its mtime stays and a sync to
GitHub Pages sends only what changed.
"""

from __future__ import annotations

import os
from pathlib import Path


def write_if_changed(path: Path, data: bytes, made: set[Path] | None = None) -> bool:
    """Write ``data`` to ``path`` atomically unless it already holds exactly that. True if written.

    ``made`` remembers folders already created, to spare a system call per file.
    """
    try:
        if path.stat().st_size == len(data) and path.read_bytes() == data:
            return False
    except FileNotFoundError:
        pass
    if made is None or path.parent not in made:
        path.parent.mkdir(parents=True, exist_ok=True)
        if made is not None:
            made.add(path.parent)
    # A temporary name unique to this process, renamed over the target: atomic.
    tmp = path.with_name(f".{path.name}.{os.getpid()}.qipu-tmp")
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return True


def remove_stale(output: Path, keep: set[str], previous: set[str]) -> int:
    """Delete files this build wrote last time but no longer produces. Returns how many."""
    removed = 0
    for rel in sorted(previous - keep):
        target = output / rel
        try:
            target.unlink()
            removed += 1
        except FileNotFoundError:
            continue
        parent = target.parent
        while parent != output and parent.is_dir() and not any(parent.iterdir()):
            parent.rmdir()
            parent = parent.parent
    return removed
