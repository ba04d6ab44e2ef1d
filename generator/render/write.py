"""Writing the site: atomic per file, and untouched when the bytes are the same.

A file that exists is replaced through a temporary name beside it, renamed
over the old one, so a reader (or a failed build) never sees half of it; a
file whose bytes did not change is not rewritten, so its mtime stays and a
sync to GitHub Pages sends only what changed.

A file that does not exist yet is written in place: there is no old version
to protect, and the temporary file and rename cost as much again as the
write (half a cold build's system time on ext4). If a build dies while
writing one, the next build finds its bytes wrong and replaces it.
"""

from __future__ import annotations

import os
from pathlib import Path


def write_if_changed(
    path: str | os.PathLike[str], data: bytes, made: set[str] | None = None, current: bytes | None = None
) -> bool:
    """Write ``data`` to ``path`` atomically unless it already holds exactly that. True if written.

    ``made`` remembers folders already created, to spare a system call per
    file. Plain ``os`` calls rather than ``open()``: a build writes tens of
    thousands of files and Python's file objects add four system calls each.
    ``current``: the file's bytes, when the caller has just read them (it
    is not read again).
    """
    target = os.fspath(path)
    exists = True
    if current is not None:
        if current == data:
            return False
    else:
        try:
            if os.stat(target).st_size == len(data) and read_bytes(target) == data:
                return False
        except FileNotFoundError:
            exists = False
    folder, name = os.path.split(target)
    if made is None or folder not in made:
        os.makedirs(folder, exist_ok=True)
        if made is not None:
            made.add(folder)
    if not exists:
        try:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            pass  # made meanwhile by someone else: replace it atomically below
        else:
            try:
                _write_all(fd, data)
            finally:
                os.close(fd)
            return True
    # A temporary name unique to this process, renamed over the target: atomic.
    tmp = os.path.join(folder, f".{name}.{os.getpid()}.qipu-tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        _write_all(fd, data)
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


def copy_if_changed(source: str | os.PathLike[str], path: str | os.PathLike[str], made: set[str] | None = None) -> bool:
    """Publish the file ``source`` at ``path`` unless it already holds the same bytes. True if written.

    A hard link where the file system allows one, else a copy. The site offers
    every record for download; on ext4 creating ten thousand new files costs
    the kernel more than parsing them, and a link creates no file, only a name.
    The link shares the record's bytes: an edit that writes the record in
    place shows at once in the site, which holds that record anyway, and the
    next build finds the bytes equal. Replacing a record by saving a new file
    (what editors and ``git`` do) leaves the site's copy as it was until the
    next build.
    """
    src, target = os.fspath(source), os.fspath(path)
    src_st = os.stat(src)
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    if st is not None:
        if os.path.samestat(st, src_st):
            return False
        if st.st_size == src_st.st_size and read_bytes(target) == read_bytes(src):
            return False
    folder, name = os.path.split(target)
    if made is None or folder not in made:
        os.makedirs(folder, exist_ok=True)
        if made is not None:
            made.add(folder)
    if src_st.st_mode & 0o044 != 0o044:  # a private file: the site's copy must be readable by all
        return write_if_changed(target, read_bytes(src), made)
    tmp = target if st is None else os.path.join(folder, f".{name}.{os.getpid()}.qipu-tmp")
    try:
        os.link(src, tmp)
    except OSError:  # another file system, no permission, no links (FAT): copy the bytes
        return write_if_changed(target, read_bytes(src), made)
    if tmp != target:
        os.replace(tmp, target)
    return True


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """A file's bytes, with plain ``os`` calls (see :func:`write_if_changed`)."""
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
