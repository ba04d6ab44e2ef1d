"""Writing one demo event's records into a content folder.

Shared by every ``benchmarks/demo_*.py`` run alone (``python
benchmarks/demo_br.py``) and by ``make_records.py --demo``, so that both
leave the same files: the folder is emptied first (every file, not only
``*.txt``: army chess records have no suffix, bridge's are ``.pbn``, hold'em
dealer logs ``.log``), then each record is written as made.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from pathlib import Path

CONTENT = Path(__file__).resolve().parents[1] / "content"


def write(content: Path, folder: str, files: Mapping[str, bytes]) -> None:
    """The event's records in ``content/folder``, and nothing else there."""
    target = content / folder
    target.mkdir(parents=True, exist_ok=True)
    for old in target.iterdir():
        if old.is_file():
            old.unlink()
    for name, data in files.items():
        (target / name).write_bytes(data)


def main(folder: str, event_files: Callable[[], Mapping[str, bytes]], doc: str | None) -> None:
    """A demo module run as a script: ``--out`` names the content folder (the repository's by default)."""
    parser = argparse.ArgumentParser(description=(doc or folder).splitlines()[0])
    parser.add_argument("--out", type=Path, default=CONTENT, help="content folder (default: the repository's content/)")
    content = parser.parse_args().out
    files = event_files()
    write(content, folder, files)
    print(f"{folder}: {len(files)} files in {content / folder}")
