"""The Jinja2 environment: autoescaping on, undefined names are errors."""

from __future__ import annotations

from pathlib import Path

import jinja2
from markupsafe import Markup

from generator.render.viewer import json_for_script

TEMPLATES_DIR = Path(__file__).resolve().parent.parent.parent / "templates"
STATIC_DIR = Path(__file__).resolve().parent.parent.parent / "static"


def make_env(templates: Path = TEMPLATES_DIR, cache: Path | None = None) -> jinja2.Environment:
    """The environment of the site's templates.

    ``cache``: a folder for compiled templates. Compiling them costs a new
    ``qipu build`` process about a tenth of a second, as much as a one-record
    rebuild; Jinja checks each template's source before using its entry.
    """
    bytecode = None
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
        bytecode = jinja2.FileSystemBytecodeCache(str(cache))
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates)),
        bytecode_cache=bytecode,
        autoescape=True,  # every user-controlled string is escaped unless marked safe
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["script_json"] = lambda value: jinja2.utils.markupsafe.Markup(json_for_script(value))
    env.filters["num"] = format_number
    env.globals["nav"] = _nav_renderer(env)
    env.globals["viewer_controls"] = _controls_renderer(env)
    return env


def _controls_renderer(env: jinja2.Environment):  # type: ignore[no-untyped-def]
    """``viewer_controls(strings)``: the viewer's buttons, the same on every game page."""
    done: dict[tuple, Markup] = {}
    template = env.get_template("_viewer_controls.html")

    def controls(strings) -> Markup:  # type: ignore[no-untyped-def]
        key = tuple(sorted(strings.items()))
        if key not in done:
            done[key] = Markup(template.render(s=strings))
        return done[key]

    return controls


def _nav_renderer(env: jinja2.Environment):  # type: ignore[no-untyped-def]
    """``nav(site, root)``: the navigation is the same on every page at one depth,
    so it is rendered once per depth instead of once per page."""
    done: dict[tuple, Markup] = {}
    template = env.get_template("_nav.html")

    def nav(site, root: str) -> Markup:  # type: ignore[no-untyped-def]
        key = (site.title, site.language, site.events, site.pages, root)
        if key not in done:
            done[key] = Markup(template.render(site=site, root=root))
        return done[key]

    return nav


def format_number(value: float | int) -> str:
    """Points and tie-breaks: ``3`` not ``3.0``, ``2.5`` stays."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)
