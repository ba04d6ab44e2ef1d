"""Rendering the site: pages, boards' views, the viewer's data.

The theme's folders are named here, where importing costs nothing: a build
that renders no template (a one-record rebuild that swaps a view's parts
into its page, see pages.respliced) never loads Jinja (render/env.py).
"""

from __future__ import annotations

from pathlib import Path

TEMPLATES_DIR = Path(__file__).resolve().parent.parent.parent / "templates"
STATIC_DIR = Path(__file__).resolve().parent.parent.parent / "static"
