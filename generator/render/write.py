"""Writing the site: atomic per file, and untouched when the bytes are the same.

A file is written to a temporary name beside it and renamed over the old
one, so a reader (or a failed build) never sees half a file; a file whose
bytes did not change is not rewritten, so its mtime stays and a sync to
GitHub Pages sends only what changed.
"""

from __future__ import annotations

import os
from pathlib import Path


def write_if_changed(path: str | os.PathLike[str], data: bytes, made: set[str] | None = None) -> bool:
    """Write ``data`` to ``path`` atomically unless it already holds exactly that. True if written.

    ``made`` remembers folders already created, to spare a system call per
    file. Plain ``os`` calls rather than ``open()``: a build writes tens of
    thousands of files and Python's file objects add four system calls each.
    """
    target = os.fspath(path)
    try:
        if os.stat(target).st_size == len(data) and _read(target) == data:
            return False
    except FileNotFoundError:
        pass
    folder, name = os.path.split(target)
    if made is None or folder not in made:
        os.makedirs(folder, exist_ok=True)
        if made is not None:
            made.add(folder)
    # A temporary name unique to this process, renamed over the target: atomic.
    tmp = os.path.join(folder, f".{name}.{os.getpid()}.qipu-tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.close(fd)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.close(fd)
        except OSError:
            pass
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return True


def _read(path: str) -> bytes:
    fd = os.open(path, os.O_RDONLY)
    try:
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


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
