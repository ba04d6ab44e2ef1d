"""Rendering the site: pages, boards' views, the viewer's data.

The theme's folders are named here, where importing costs nothing: a build
that renders no template (nothing changed) never loads Jinja (render/env.py).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent


def _theme_folder(name: str) -> Path:
    """A folder of the built-in theme: inside the package once installed
    from a wheel (pyproject.toml maps it there), at the top of the
    repository in a checkout, where it is kept."""
    inside = _PACKAGE / name
    return inside if inside.is_dir() else _PACKAGE.parent / name


TEMPLATES_DIR = _theme_folder("templates")
STATIC_DIR = _theme_folder("static")


@dataclass(frozen=True, slots=True)
class Theme:
    """What pages are made with: the organiser's folders first, file by file, then the built-in ones.

    As MkDocs' ``custom_dir`` and Hugo's layouts: a template or static file
    of the organiser's replaces the built-in one of the same name, and a
    missing one falls back to it (``[theme]`` in site.toml).
    """

    templates: tuple[Path, ...] = (TEMPLATES_DIR,)
    static: tuple[Path, ...] = (STATIC_DIR,)

    @classmethod
    def of(cls, templates: Path | None, static: Path | None) -> Theme:
        return cls(
            tuple(p for p in (templates, TEMPLATES_DIR) if p is not None),
            tuple(p for p in (static, STATIC_DIR) if p is not None),
        )

    def static_files(self) -> dict[str, Path]:
        """Every static file: path relative to ``static/`` -> the file (the first folder's wins)."""
        found: dict[str, Path] = {}
        for folder in self.static:
            for path in sorted(folder.rglob("*")):
                rel = path.relative_to(folder).as_posix()
                if path.is_file() and rel not in found and not any(part.startswith(".") for part in rel.split("/")):
                    found[rel] = path
        return dict(sorted(found.items()))

    def digest(self) -> str:
        """Every template and static file in use: any change re-renders every page."""
        h = hashlib.sha256()
        for kind, folders in (("templates", self.templates), ("static", self.static)):
            for number, folder in enumerate(folders):
                for path in sorted(folder.rglob("*")):
                    if path.is_file():
                        h.update(f"{kind}{number}/{path.relative_to(folder).as_posix()}".encode())
                        h.update(path.read_bytes())
        return h.hexdigest()
