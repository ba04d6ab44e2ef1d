"""Scan: what every file under the content folder is, and how it is read.

One walk decides, for ``qipu build``, ``qipu serve`` and ``qipu check``
alike, what each entry is: a record, a Markdown page, an asset to publish, or
nothing (hidden files and folders, editors' temporary files). Only regular
files whose real path lies inside the content folder are ever read: a link
that leads out of it (``logo.png -> /proc/self/environ``), a dangling link, a
link loop, a FIFO, a socket or a device is *refused*: it gets a diagnostic
naming it and is neither read, nor copied, nor linked, nor rendered. A file
above the size limit is refused too, before anything reads it.

Reading goes through :func:`read_file`, which opens without following a link
at the end of the path and without waiting on a FIFO, checks that what it
opened is a regular file, and never reads more than the limit: a file that
was swapped or grew between the scan and the read is still refused.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator import decode, i18n
from generator.diagnostics import Diagnostic, define, make
from generator.i18n import N_, Said

ASSET_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".pdf", ".css", ".ico"})
# Assets a browser runs scripts in when opened on their own: published only
# from the top of the content folder, the organiser's own place beside the
# Markdown pages, never from the event folders that teams send records to.
ACTIVE_ASSET_SUFFIXES = frozenset({".svg"})
PAGE_SUFFIXES = frozenset({".md", ".markdown"})
# Files editors and tools write beside the one being saved (backups, vim's swap
# files and write test, emacs locks and autosaves, gedit, JetBrains, macOS'
# .DS_Store): never content, and saving one does not rebuild (qipu serve).
# Hidden files (a leading ".") and names from "~" are never content either.
TEMPORARY = ("~", ".swp", ".swx", ".swo", ".tmp", "___jb_tmp___", "___jb_old___")
_TOOLS_FILES = frozenset({"4913"})  # vim's test that it may write in a folder

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_BINARY = getattr(os, "O_BINARY", 0)

OUTSIDE = define(
    "FILE-E001",
    "error",
    "A link in the content folder leads outside it",
    "Qipu reads only files inside the content folder: the link is neither read nor published. "
    "Copy the file into the content folder instead of linking to it, or remove the link.",
)
NOT_A_FILE = define(
    "FILE-E002",
    "error",
    "An entry in the content folder is not a regular file (a FIFO, socket or device)",
    "Qipu reads only regular files: the entry is neither read nor published. Remove it from the content folder.",
)
BROKEN_LINK = define(
    "FILE-E003",
    "error",
    "A link in the content folder leads nowhere, or into a loop",
    "Remove the link, or point it at a file inside the content folder; it is neither read nor published.",
)
TOO_LARGE = define(
    "FILE-E004",
    "error",
    "A file in the content folder is larger than the size limit",
    "A game record is a few kilobytes: check that the right file was saved. The limit is "
    "limits.file_bytes in site.toml; the file is neither read nor published.",
)
ACTIVE_ASSET = define(
    "FILE-W001",
    "warning",
    "An SVG image inside an event folder is not published",
    "An SVG can carry scripts that run when it is opened: Qipu publishes SVG files only from the top "
    "of the content folder, beside the Markdown pages. Move it there, or convert it to PNG.",
)
SAME_NAME = define(
    "FILE-W002",
    "warning",
    "Two files in one folder have names that read the same",
    "One name is not UTF-8 and reads, as GB18030, like its neighbour's: the second is shown under "
    "the name the message gives. Rename or remove one of them.",
)
UNREADABLE = define(
    "FILE-E005",
    "error",
    "A file in the content folder cannot be read",
    "Check the file's permissions (the build must be able to read it); it is neither read nor published.",
)


class Refused(Exception):
    """A file :func:`read_file` would not read; ``code`` and ``reason`` say why."""

    def __init__(self, code: str, reason: str, /, **args: Any) -> None:
        super().__init__(i18n.say(reason, args))
        self.code = code
        self.reason = reason  # a template marked with N_, said with ``args``
        self.values = args  # not .args: every exception has that

    def diagnostic(self, rel: str) -> Diagnostic:
        return refusal(rel, self.code, self.reason, self.values)


def refusal(rel: str, code: str, reason: str, args: Mapping[str, Any]) -> Diagnostic:
    """A file refused: ``<file>: <reason>``, both parts said in the reader's language."""
    return make(rel, 0, 0, code, N_("{file}: {reason}"), file=rel, reason=Said(reason, i18n.args_of(args)))


@dataclass(slots=True)
class Found:
    """What one scan found, each list sorted by its relative path (as the site shows it)."""

    records: list[tuple[str, str, os.stat_result]] = field(default_factory=list)  # rel, path on disk, stat
    pages: list[tuple[str, Path]] = field(default_factory=list)
    assets: list[tuple[str, Path]] = field(default_factory=list)
    # Where a file is on disk when that is not ``content/rel``: names that
    # are not UTF-8, twins of such names, links inside the content folder.
    located: dict[str, str] = field(default_factory=dict)
    # rel -> a warning about its name, added to the file's own diagnostics
    # (a name that is not UTF-8, ENC-W002; a twin of a neighbour's, FILE-W002).
    notes: dict[str, Diagnostic] = field(default_factory=dict)
    refused: dict[str, Diagnostic] = field(default_factory=dict)  # rel -> why it is never read

    def path_of(self, content: str | Path, rel: str) -> str:
        """Where the file the site names ``rel`` is on disk."""
        return path_of(content, self.located, rel)

    def fingerprint(self) -> list[tuple[str, str]]:
        """What the refusals say, for the digest of a build's inputs."""
        return [(rel, d.message) for rel, d in sorted(self.refused.items())]


def path_of(content: str | Path, located: dict[str, str], rel: str) -> str:
    """Where the file the site names ``rel`` is on disk (see ``Found.located``)."""
    return located.get(rel) or f"{content}/{rel}"


def ignored(name: str) -> bool:
    """Whether a file of this name is never content: hidden, or an editor's or tool's (see TEMPORARY).

    The one rule ``qipu build``, ``qipu check`` and ``qipu serve`` follow.
    """
    return (
        not name
        or name[0] in ".~"
        or name.endswith(TEMPORARY)
        or (name[0] == "#" and name.endswith("#"))  # emacs' autosave
        or name in _TOOLS_FILES
    )


def ignored_folder(name: str) -> bool:
    """Whether a folder of this name is never walked: hidden (.git), or set aside with a "_"."""
    return name[0] in "._"


def kind(name: str) -> str:
    """``"page"``, ``"asset"`` or ``"record"``, by the name's suffix; ``""`` for a file never read."""
    if ignored(name):
        return ""
    dot = name.rfind(".")
    suffix = name[dot:].lower() if dot >= 0 else ""
    if suffix in PAGE_SUFFIXES:
        return "page"
    if suffix in ASSET_SUFFIXES:
        return "asset"
    return "record"


def is_active_asset(rel: str) -> bool:
    """An asset that must stay at the top of the content folder (see ACTIVE_ASSET_SUFFIXES)."""
    dot = rel.rfind(".")
    return dot >= 0 and rel[dot:].lower() in ACTIVE_ASSET_SUFFIXES


# os.scandir() takes a folder's descriptor on POSIX systems, not on Windows.
_SCAN_BY_FD = os.scandir in os.supports_fd


class _Walk:
    """One scan of a content folder (see :func:`scan`)."""

    def __init__(self, root: str, skip: set[str], limit: int) -> None:
        self.root = root  # the real path of the content folder
        self.skip = skip
        self.limit = limit
        self.found = Found()
        self.folders: set[tuple[int, int]] = set()  # (device, inode) of the folders being walked: a link back loops

    def refuse(self, rel: str, code: str, reason: str, /, **args: Any) -> None:
        self.found.refused[rel] = refusal(rel, code, reason, args)

    def folder(self, path: str, prefix: str, renamed: bool, st: os.stat_result) -> None:
        if (st.st_dev, st.st_ino) in self.folders:
            self.refuse(prefix.rstrip("/"), BROKEN_LINK, N_("a link to a folder that contains it (a loop): not read"))
            return
        try:
            fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY) if _SCAN_BY_FD else None
        except OSError as error:
            cause = error.strerror or str(error)
            self.refuse(prefix.rstrip("/") or ".", UNREADABLE, N_("the folder cannot be listed: {error}"), error=cause)
            return
        self.folders.add((st.st_dev, st.st_ino))
        try:
            # Listed through the folder's descriptor where the system allows it:
            # each stat then looks up a name in that folder instead of walking
            # the whole path again.
            with os.scandir(path if fd is None else fd) as it:
                entries = list(it)
            if renamed or not all(entry.name.isprintable() for entry in entries):
                # Names that are not UTF-8 (or odd ones): sorted, so that twins
                # are named alike every time, and each looked at in full.
                taken: set[str] = set()
                for entry in sorted(entries, key=_plain_first):
                    self.entry(entry, path, prefix, renamed, taken)
            else:
                self.plain(entries, path, prefix)
        except OSError as error:
            cause = error.strerror or str(error)
            self.refuse(prefix.rstrip("/") or ".", UNREADABLE, N_("the folder cannot be listed: {error}"), error=cause)
        finally:
            self.folders.discard((st.st_dev, st.st_ino))
            if fd is not None:
                os.close(fd)

    def plain(self, entries: list[os.DirEntry[str]], folder: str, prefix: str) -> None:
        """A folder whose names are all plain (UTF-8, printable): no twins, and records taken quickly.

        The hot loop of a no-change rebuild: one stat per record, little else
        (a method call per file was a third of this walk).
        """
        records, limit, sep = self.found.records, self.limit, os.sep
        for entry in entries:
            name = entry.name
            if entry.is_file(follow_symlinks=False):
                if (name[0] in ".~#" or name.endswith(TEMPORARY) or name in _TOOLS_FILES) and ignored(name):
                    continue
                dot = name.rfind(".")
                suffix = name[dot:].lower() if dot >= 0 else ""
                if suffix not in PAGE_SUFFIXES and suffix not in ASSET_SUFFIXES:
                    st = entry.stat(follow_symlinks=False)
                    if st.st_size <= limit:
                        records.append((prefix + name, f"{folder}{sep}{name}", st))
                        continue
            self.entry(entry, folder, prefix, False, set())

    def entry(self, entry: os.DirEntry[str], folder: str, prefix: str, renamed: bool, taken: set[str]) -> None:
        name = entry.name
        # A surrogate escape (a name that is not UTF-8) is not printable:
        # the exact test is left to the rare names with other such characters.
        shown = name if name.isprintable() else decode.shown_name(name)
        path = f"{folder}{os.sep}{name}"
        if entry.is_file(follow_symlinks=False):
            what = kind(name)
            if what:
                st = entry.stat(follow_symlinks=False)
                self.file(prefix, name, shown, path, what, st, renamed, taken)
        elif entry.is_dir(follow_symlinks=False):
            if not ignored_folder(name) and os.path.realpath(path) not in self.skip:
                shown = self.unique(prefix, name, shown, taken)
                self.folder(path, f"{prefix}{shown}/", renamed or shown is not name, entry.stat(follow_symlinks=False))
        elif not ignored(name):
            self.odd(entry, prefix, name, shown, path, renamed, taken)

    def odd(self, entry: os.DirEntry[str], prefix: str, name: str, shown: str, path: str, renamed: bool, taken: set[str]) -> None:
        """A link, or something that is neither a file nor a folder."""
        rel = prefix + shown
        if not entry.is_symlink():
            self.refuse(rel, NOT_A_FILE, N_("not a regular file (a FIFO, socket or device): not read"))
            return
        try:
            st = os.stat(path)  # follows the link
        except OSError as error:
            loop = error.errno == errno.ELOOP
            self.refuse(rel, BROKEN_LINK, N_("a link into a loop: not read") if loop else N_("a link to nothing: not read"))
            return
        real = os.path.realpath(path)
        if not _inside(real, self.root):
            self.refuse(rel, OUTSIDE, N_("a link to a place outside the content folder: not read"))
            return
        if stat.S_ISDIR(st.st_mode):
            if not ignored_folder(name) and real not in self.skip:
                shown = self.unique(prefix, name, shown, taken)
                # Walked through the link's own path: its files keep paths under the content folder.
                self.folder(path, f"{prefix}{shown}/", renamed or shown is not name, st)
        elif stat.S_ISREG(st.st_mode):
            if kind(name):
                self.file(prefix, name, shown, real, kind(name), st, renamed, taken, link=True)
        else:
            self.refuse(rel, NOT_A_FILE, N_("a link to something that is not a regular file: not read"))

    def unique(self, prefix: str, name: str, shown: str, taken: set[str]) -> str:
        """``shown``, or a numbered variant when a neighbour already reads the same (see SAME_NAME)."""
        if shown not in taken:
            taken.add(shown)
            return shown
        stem, dot, suffix = shown.rpartition(".") if "." in shown[1:] else (shown, "", "")
        number = 2
        while (candidate := f"{stem} ({number}){dot}{suffix}") in taken:
            number += 1
        taken.add(candidate)
        self.found.notes[prefix + candidate] = make(
            prefix + candidate, 1, 1, SAME_NAME,
            "the name on disk reads like its neighbour {neighbour}: this file is shown as {shown}",
            neighbour=prefix + shown,
            shown=prefix + candidate,
        )
        return candidate

    def file(
        self, prefix: str, name: str, shown: str, path: str, what: str, st: os.stat_result,
        renamed: bool, taken: set[str], link: bool = False,
    ) -> None:
        found = self.found
        if shown is not name or name in taken:
            shown = self.unique(prefix, name, shown, taken)
        else:
            taken.add(name)
        rel = prefix + shown
        if st.st_size > self.limit:
            size, most = _size(st.st_size), _size(self.limit)
            self.refuse(rel, TOO_LARGE, N_("{size}, above the limit of {limit}: not read"), size=size, limit=most)
            return
        if what == "asset" and prefix and is_active_asset(name):
            found.refused[rel] = refusal(
                rel, ACTIVE_ASSET, N_("an SVG inside a folder is not published; move it to the top of the content folder"), {}
            )
            return
        if (renamed or shown is not name) and rel not in found.notes:
            found.notes[rel] = decode.renamed(rel)
        if link or renamed or shown != name:
            found.located[rel] = path
        if what == "page":
            found.pages.append((rel, Path(path)))
        elif what == "asset":
            found.assets.append((rel, Path(path)))
        else:
            found.records.append((rel, path, st))


def _plain_first(entry: os.DirEntry[str]) -> tuple[bool, bytes]:
    """Entries in a stable order, UTF-8 names first: a twin that is not UTF-8 gets the numbered name."""
    name = entry.name
    return (not name.isprintable() and decode.shown_name(name) != name, os.fsencode(name))


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _size(n: int) -> str:
    if n >= 1 << 30:
        return f"{n / (1 << 30):.1f} GB"
    if n >= 1 << 20:
        return f"{n / (1 << 20):.1f} MB"
    if n >= 1 << 10:
        return f"{n / (1 << 10):.1f} kB"
    return f"{n} bytes"


def scan(content: Path, exclude: Iterable[Path] = (), limit: int = 10_000_000) -> Found:
    """Every file under the content folder, sorted; hidden files and folders skipped.

    ``exclude`` names folders to pass over, such as the output folder when it
    lies inside the content folder (``content = "."``). ``limit``: the size in
    bytes above which a file is refused unread. Uses ``os.scandir``: a
    rebuild of a large archive is mostly this walk.
    """
    root = os.path.realpath(content)
    walk = _Walk(root, {os.path.realpath(p) for p in exclude}, limit)
    try:
        st = os.stat(root)
    except OSError:
        return walk.found
    if stat.S_ISDIR(st.st_mode):
        walk.folder(root, "", False, st)
    found = walk.found
    found.records.sort(key=lambda r: r[0])
    # Pages and assets in the order of a walk through sorted folders (the navigation lists pages so).
    found.pages.sort(key=lambda r: r[0].split("/"))
    found.assets.sort(key=lambda r: r[0].split("/"))
    return found


def read_file(path: str | os.PathLike[str], limit: int) -> bytes:
    """A regular file's bytes, at most ``limit`` of them; :class:`Refused` otherwise.

    Opened without following a link at the end of the path (the scan
    resolved links inside the content folder to their real paths) and
    without blocking on a FIFO; what was opened is checked to be a regular
    file before a byte is read, and reading stops past the limit: a file
    swapped or grown since the scan cannot make a build read more.
    """
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _BINARY)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise Refused(OUTSIDE, N_("became a link after the scan: not read")) from None
        raise Refused(UNREADABLE, N_("cannot be read: {error}"), error=error.strerror or str(error)) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Refused(NOT_A_FILE, N_("not a regular file: not read"))
        if st.st_size > limit:
            raise Refused(
                TOO_LARGE, N_("{size}, above the limit of {limit}: not read"), size=_size(st.st_size), limit=_size(limit)
            )
        chunks = []
        size = 0
        while chunk := os.read(fd, min(1 << 20, limit + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise Refused(TOO_LARGE, N_("more than the limit of {limit}: not read"), limit=_size(limit))
        return b"".join(chunks)
    except OSError as error:
        raise Refused(UNREADABLE, N_("cannot be read: {error}"), error=error.strerror or str(error)) from None
    finally:
        os.close(fd)


def classify_one(content: Path, rel: str, limit: int) -> Found:
    """One file, as :func:`scan` would find it (``rel``: its path relative to the content folder, as on disk).

    For ``qipu serve``, which is told which files were saved. A file whose
    name reads like a neighbour's is left to a full scan (the caller walks
    everything when this returns None for it).
    """
    root = os.path.realpath(content)
    walk = _Walk(root, set(), limit)
    path = os.path.join(content, rel)
    name = os.path.basename(path)
    prefix, _, _ = rel.rpartition("/")
    prefix = decode.shown_path(prefix) + "/" if prefix else ""
    renamed = decode.shown_path(rel) != rel
    try:
        st = os.lstat(path)
    except OSError:
        return walk.found
    shown = decode.shown_name(name)
    if stat.S_ISREG(st.st_mode):
        if kind(name):
            walk.file(prefix, name, shown, path, kind(name), st, renamed, set())
    elif not stat.S_ISDIR(st.st_mode) and not ignored(name):
        with os.scandir(os.path.dirname(path) or ".") as it:
            for entry in it:
                if entry.name == name:
                    walk.odd(entry, prefix, name, shown, path, renamed, set())
    return walk.found


def rescan(
    content: Path, not_content: list[Path], limit: int, last: Found | None, changed: Iterable[Path] | None
) -> tuple[Found, set[str] | None]:
    """The content folder's files, and the files looked at again (None: all were).

    ``last``: the previous scan; ``changed``: the files saved since
    (``qipu serve`` knows them). Only those are classified again, unless one
    is a folder, a link or a name that is not UTF-8, which only a whole walk
    classifies rightly.
    """
    known: Found | None = last
    rels: set[str] = set()
    if changed is not None and known is not None:
        root = os.path.realpath(content)
        own = [os.path.realpath(folder) + os.sep for folder in not_content]
        files = {r[0] for r in known.records} | {p[0] for p in known.pages} | {a[0] for a in known.assets}
        for path in changed:
            rel = os.path.relpath(os.path.abspath(path), root).replace(os.sep, "/")
            if rel.startswith("../") or rel == ".." or (os.path.abspath(path) + os.sep).startswith(tuple(own)):
                continue  # a template, site.toml, the output: no file of the content changed
            gone_folder = not os.path.lexists(path) and rel not in files and rel not in known.refused
            if (
                rel == "." or os.path.isdir(path) or os.path.islink(path) or gone_folder
                or any(ignored_folder(part) for part in rel.split("/")[:-1]) or rel[0] in "._"
                or decode.shown_path(rel) != rel
            ):
                known = None  # walk everything
                break
            rels.add(rel)
    if changed is None or known is None:
        return scan(content, not_content, limit), None
    found = Found(
        [r for r in known.records if r[0] not in rels],
        [p for p in known.pages if p[0] not in rels],
        [a for a in known.assets if a[0] not in rels],
        {rel: path for rel, path in known.located.items() if rel not in rels},
        {rel: note for rel, note in known.notes.items() if rel not in rels},
        {rel: why for rel, why in known.refused.items() if rel not in rels},
    )
    for rel in sorted(rels):
        one = classify_one(content, rel, limit)
        found.records += one.records
        found.pages += one.pages
        found.assets += one.assets
        found.located.update(one.located)
        found.notes.update(one.notes)
        found.refused.update(one.refused)
    found.records.sort(key=lambda r: r[0])
    found.pages.sort(key=lambda r: r[0].split("/"))
    found.assets.sort(key=lambda r: r[0].split("/"))
    return found, rels

