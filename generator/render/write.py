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

import itertools
import os
import stat
from pathlib import Path

# Temporary files are named by this prefix, the process and a counter: short
# whatever the target's name (a record's name may be 250 bytes, and a name
# built on it would pass the file system's limit of 255), and recognised by
# the next build when a build was killed before renaming one (sweep).
TEMPORARY_PREFIX = ".qipu-tmp-"
_counter = itertools.count()

# The marker that says an output folder is Qipu's (claim_output).
MARKER = ".qipu-site"
OWNED = b"This folder is a site built by Qipu: every build makes it equal to a fresh build, removing other files.\n"
ADOPTED = b"Qipu was told to build into this folder (--force): builds remove only the files Qipu wrote here.\n"


def _temporary(folder: str) -> str:
    return os.path.join(folder, f"{TEMPORARY_PREFIX}{os.getpid()}-{next(_counter)}")


def is_temporary(rel: str) -> bool:
    """A temporary file a build left behind (killed before renaming it); also those of Qipu before 0.2."""
    name = rel.rpartition("/")[2]
    return name.startswith(TEMPORARY_PREFIX) or (name.startswith(".") and name.endswith(".qipu-tmp"))


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
    tmp = _temporary(folder)
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
    src_st = os.lstat(src)
    if not stat.S_ISREG(src_st.st_mode):
        # The scan resolved links inside the content folder to real paths: a
        # link here was made since. Never linked or copied (a link in the site).
        raise OSError(f"{src}: not a regular file any more")
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
    tmp = target if st is None else _temporary(folder)
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


def listed(output: Path) -> tuple[set[str], list[str]]:
    """The output folder's files and the links in it, as paths relative to it.

    Hidden folders are not entered (``.git`` of a gh-pages worktree); hidden
    files are listed (the site's own ``.nojekyll`` and marker, temporary files).
    """
    files: set[str] = set()
    links: list[str] = []

    def walk(folder: str, prefix: str) -> None:
        try:
            entries = list(os.scandir(folder))
        except (FileNotFoundError, NotADirectoryError):
            return
        for entry in entries:
            if entry.is_symlink():
                links.append(prefix + entry.name)
            elif entry.is_dir(follow_symlinks=False):
                if not entry.name.startswith("."):
                    walk(entry.path, f"{prefix}{entry.name}/")
            else:
                files.add(prefix + entry.name)

    walk(str(output), "")
    return files, links


def sweep(output: Path, gone: set[str]) -> int:
    """Delete the files of ``gone`` from the output folder; returns how many.

    The caller names the files the site no longer has that are Qipu's to
    remove (see generator.build, Builder._write). Hidden files are left
    alone, but for Qipu's temporary files (a build killed mid-write). Folders left empty go too.
    """
    removed = 0
    for rel in sorted(gone):
        if rel.rpartition("/")[2].startswith(".") and not is_temporary(rel):
            continue  # not Qipu's (its own hidden files are kept): left alone
        target = output / rel
        try:
            target.unlink()
            removed += 1
        except FileNotFoundError:
            continue
        except IsADirectoryError:
            continue
        parent = target.parent
        while parent != output and parent.is_dir() and not any(parent.iterdir()):
            parent.rmdir()
            parent = parent.parent
    return removed


def claim_output(output: Path, force: bool) -> tuple[bool, str | None]:
    """Whether Qipu owns the output folder, or why it must not build there.

    Owned (True): the folder does not exist, holds nothing but hidden
    entries (a ``.git``), or holds Qipu's marker. Every build then makes it
    equal to a fresh build, removing files Qipu did not write. A folder
    with other files (``$HOME``, a project) is refused, unless ``force``:
    then Qipu builds into it but only ever removes the files it wrote
    (False). The marker, written by the build, says which of the two.
    """
    try:
        marker = read_bytes(output / MARKER)
    except FileNotFoundError:
        marker = None
    except OSError as error:  # not a folder, no permission ...
        return False, f"cannot use the output folder {output}: {error.strerror or error}"
    if marker is not None:
        return marker == OWNED, None
    try:
        visible = [name for name in os.listdir(output) if not name.startswith(".")]
    except FileNotFoundError:
        return True, None
    except OSError as error:
        return False, f"cannot use the output folder {output}: {error.strerror or error}"
    if not visible:
        return True, None
    if force:
        return False, None
    return False, (
        f"the output folder {output} holds files that Qipu did not write ({', '.join(sorted(visible)[:3])}"
        f"{' ...' if len(visible) > 3 else ''}); choose another folder with --out, or add --force to build into it anyway"
    )


def unwritable(folder: Path) -> str | None:
    """Why files cannot be written in ``folder`` (made if missing), or None when they can.

    Asked before a build writes anything, so that a read-only output or
    cache folder stops it with one clear line and the site stays as it was.
    """
    try:
        os.makedirs(folder, exist_ok=True)
        probe = _temporary(os.fspath(folder))
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
        os.unlink(probe)
    except OSError as error:
        return error.strerror or str(error)
    return None
