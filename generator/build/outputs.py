"""The output folder as the last build left it: what is there, what was touched by hand.

A new ``qipu build`` process must know whether the site it wrote is still
as it left it before it trusts its keys. Listing twenty thousand files costs
more than a rebuild after one edit, so it looks at each output folder's
modification time and at each file's stamp (size, time, inode) instead, and
lists only folders whose time changed.
"""

from __future__ import annotations

import itertools
import os
import stat
import time
from collections.abc import Iterable, Set
from pathlib import Path

from generator.build.state import BuildState
from generator.render import urls
from generator.render.write import is_temporary, listed
from generator.scan import Found

# File times have a coarse clock tick: a file this close to a scan is read again.
RACY_NS = 2_000_000_000


def folder_times(
    output: Path, outputs: Iterable[str], last: dict[str, tuple[int | None, int, bool]] | None = None
) -> dict[str, tuple[int | None, int, bool]]:
    """Each output folder's modification time, how many outputs it holds, and whether it is recent.

    A folder changed in the same tick of the file system's clock as the
    build's last write into it would keep its time: such folders, any
    written in the last RACY_NS (FAT counts in two seconds), are *recent*,
    and listed by the next build whatever their time (OutputFolder.intact).
    ``last``: the counts, when the outputs are those of the last build.
    """
    if last is None:
        counts: dict[str, int] = {}
        for rel in outputs:
            folder = rel.rpartition("/")[0]
            counts[folder] = counts.get(folder, 0) + 1
    else:
        counts = {folder: count for folder, (_, count, _) in last.items()}
    # Folders that hold only folders (games/) are watched too: a file added there changes their time.
    for folder in list(counts):
        while folder:
            folder = folder.rpartition("/")[0]
            counts.setdefault(folder, 0)
    root = os.fspath(output)
    recent = time.time_ns() - RACY_NS
    times: dict[str, tuple[int | None, int, bool]] = {}
    for folder, count in counts.items():
        try:
            mtime: int | None = os.lstat(f"{root}/{folder}").st_mtime_ns
        except OSError:
            mtime = None
        times[folder] = (mtime, count, mtime is None or mtime >= recent)
    return times


def stat_outputs(output: Path, rels: Iterable[str]) -> dict[str, tuple[int, int, int, tuple[int, int]] | None]:
    """Each output file's (size, modification time, inode, (device, inode)), None where missing or no regular file.

    A plain lstat per path: through each folder's descriptor it was slower
    here, Python's argument handling costing more than the path walk saves.
    """
    root = f"{os.fspath(output)}/"
    lstat, regular = os.lstat, stat.S_ISREG
    found: dict[str, tuple[int, int, int, tuple[int, int]] | None] = {}
    for rel in rels:
        try:
            st = lstat(root + rel)
        except OSError:
            found[rel] = None
            continue
        found[rel] = (st.st_size, st.st_mtime_ns, st.st_ino, (st.st_dev, st.st_ino)) if regular(st.st_mode) else None
    return found


class OutputFolder:
    """The output folder of a build, and what this process knows of it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        # True once a build of this process wrote the folder and nothing since
        # made it look again (`qipu serve`): its state says what is there.
        self.wrote = False
        self._listed: set[str] | None = None  # the folder as listed in this build

    def forget(self) -> None:
        """Look again: the folder may have changed behind this process's back."""
        self.wrote, self._listed = False, None

    def written(self) -> None:
        """A build just wrote it: its state says what is there."""
        self.wrote, self._listed = True, None

    def intact(self, state: BuildState) -> bool:
        """Whether the output folder holds exactly the files the last build wrote, and no link.

        Under ``qipu serve`` this Builder knows what it left there. A new
        process looks at folder times instead of listing twenty thousand
        files: a file deleted, added or renamed in a folder changes its time.
        Only folders whose time changed, or was too recent to trust, are
        listed; a file there that the last build did not write (a page of a
        build killed before it saved its state, a file put there by hand),
        a link or a missing file sends the build down the full path, which
        removes or writes it. Files outside the site's own places (a CNAME)
        are the organiser's, and left alone.
        """
        if self.wrote:
            return True
        if not state.folders:  # a state without folder times
            return False
        output, outputs, folders = os.fspath(self.path), state.outputs, state.folders
        for folder, (mtime, count, recent) in folders.items():
            path = f"{output}/{folder}" if folder else output
            try:
                if not recent and os.lstat(path).st_mtime_ns == mtime:
                    continue
                prefix = f"{folder}/" if folder else ""
                held = 0
                with os.scandir(path) as entries:
                    for entry in entries:
                        rel = prefix + entry.name
                        if entry.is_symlink():
                            return False
                        if entry.is_dir(follow_symlinks=False):
                            if rel not in folders and urls.is_site_path(rel + "/"):
                                return False
                        elif rel in outputs:
                            held += 1
                        elif is_temporary(rel) or urls.is_site_path(rel):
                            return False
                if held != count:
                    return False
            except OSError:
                return False  # the folder is gone, or is no folder
        return True

    def on_disk(self, state: BuildState | None) -> Set[str]:
        """The output folder's files: as this Builder left them (`qipu serve`), else listed once per build.

        Links found in the listing are removed at once, before anything is
        written: a page must never be written through a link (site/games -> /etc).
        """
        if self.wrote and state is not None:
            return state.outputs.keys()
        if self._listed is None:
            files, links = listed(self.path)
            for rel in links:
                try:
                    os.unlink(self.path / rel)
                except FileNotFoundError:
                    pass
            self._listed = files
        return self._listed

    def damaged(self, state: BuildState, found: Found) -> set[str]:
        """The output files the last build wrote that were edited, replaced or deleted since.

        A file with a stamp (size, time, inode) is stat'ed and compared. A
        download that was a hard link to its record has none (stamps): an
        edit of it is an edit of the record, which the scan sees, and it can
        only have been replaced if its folder's entries changed, which
        changes the folder's time; only then is it looked at, and it must
        still be a link to a record.
        """
        if not state.outputs:
            return set()
        stamps, folders = state.stamps, state.folders
        output = os.fspath(self.path)
        settled = set()
        for folder, (mtime, _, _) in folders.items():
            try:
                if os.lstat(f"{output}/{folder}" if folder else output).st_mtime_ns == mtime:
                    settled.add(folder)
            except OSError:
                continue
        links = [rel for rel in state.outputs.keys() - stamps.keys() if rel.rpartition("/")[0] not in settled]
        records = {(st.st_dev, st.st_ino) for _, _, st in found.records} if links else set()
        now = stat_outputs(self.path, itertools.chain(stamps.keys() & state.outputs.keys(), links))
        damaged = set()
        for rel, seen in now.items():
            kept = stamps.get(rel)
            if seen is None or (seen[:3] != kept if kept is not None else seen[3] not in records):
                damaged.add(rel)
        return damaged

    def stamps(
        self, state: BuildState, fresh: BuildState, found: Found, touched: set[str] | None, damaged: set[str]
    ) -> dict[str, tuple[int, int, int]]:
        """The stamp of every output file but the downloads that are hard links to their records (see damaged).

        Taken again for the files this build may have written: ``touched``
        when the build knows them (a quick rebuild); else the files whose
        key changed, that had no stamp, or were damaged, found with set
        operations (in C): twenty thousand files, a few of them written.
        """
        stamps = dict(state.stamps)
        outputs = fresh.outputs
        if touched is not None:
            again = touched
        else:
            for rel in stamps.keys() - outputs.keys():
                del stamps[rel]
            again = {rel for rel, _ in outputs.items() - state.outputs.items()}
            again |= outputs.keys() - stamps.keys()
            again |= damaged & outputs.keys()
        records = {(st.st_dev, st.st_ino) for _, _, st in found.records}
        for rel, stamp in stat_outputs(self.path, again).items():
            if stamp is None or (stamp[3] in records and rel.startswith("files/")):
                stamps.pop(rel, None)
            else:
                stamps[rel] = stamp[:3]
        return stamps
