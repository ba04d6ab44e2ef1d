"""The Jinja2 environment: autoescaping on, undefined names are errors."""

from __future__ import annotations

from collections.abc import Callable, MutableMapping, Sequence
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from generator.render import TEMPLATES_DIR, rows
from generator.render.rows import format_number
from generator.render.viewer import json_for_script


def make_env(templates: Path | Sequence[Path] = TEMPLATES_DIR, cache: Path | None = None) -> jinja2.Environment:
    """The environment of the site's templates.

    ``templates``: a folder, or folders searched in order (the organiser's
    theme before the built-in one: see generator.render.Theme).

    ``cache``: a folder for compiled templates. Compiling them costs a new
    ``qipu build`` process about a tenth of a second, as much as a one-record
    rebuild; Jinja checks each template's source before using its entry.
    """
    bytecode = None
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
        bytecode = _CheckedBytecodeCache(str(cache))
    env = _Environment(
        loader=jinja2.FileSystemLoader([str(templates)] if isinstance(templates, Path) else [str(p) for p in templates]),
        bytecode_cache=bytecode,
        autoescape=True,  # every user-controlled string is escaped unless marked safe
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        # A build makes a new environment when a template changes (its theme
        # digest); checking a template's file before each use is a stat() per
        # template per page.
        auto_reload=False,
    )
    env.filters["script_json"] = lambda value: jinja2.utils.markupsafe.Markup(json_for_script(value))
    env.filters["num"] = format_number
    env.globals["nav"] = _nav_renderer(env)
    env.globals["viewer_controls"] = _controls_renderer(env)
    env.globals["game_rows"] = rows.game_rows
    env.globals["team_game_rows"] = rows.team_game_rows
    env.globals["cross_games"] = rows.cross_games
    return env


class _CheckedBytecodeCache(jinja2.FileSystemBytecodeCache):
    """Jinja's cache of compiled templates, each file sealed with its length and CRC.

    Jinja keeps a template's code as marshal data, which Python executes as
    it is: a file cut short or with a flipped bit could make wrong pages or
    crash the interpreter. A file that fails its check is ignored (the
    template is compiled again and the file rewritten).
    """

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        from generator.cache import unsealed

        try:
            with open(self._get_cache_filename(bucket), "rb") as handle:
                found = unsealed(handle.read())
        except OSError:
            return
        if found is not None:
            bucket.bytecode_from_string(found[0].tobytes())

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        from generator.cache import seal
        from generator.render.write import write_if_changed

        try:
            write_if_changed(self._get_cache_filename(bucket), seal(bucket.bytecode_to_string()))
        except OSError:
            pass  # a cache: the next build compiles the template again


class _Template(jinja2.Template):
    """A template whose output escaping is :func:`rows.escaped`.

    Jinja's compiled code calls ``escape`` on every value it writes (seventy
    on a game page), and markupsafe makes a new Markup of each. The code
    imports that name into the template's own namespace and looks it up
    there: that one name is replaced. Filters such as ``|e`` are unchanged.
    """

    @classmethod
    def _from_namespace(
        cls, environment: jinja2.Environment, namespace: MutableMapping[str, Any], globals: MutableMapping[str, Any]
    ) -> jinja2.Template:
        namespace["escape"] = rows.escaped
        return super()._from_namespace(environment, namespace, globals)


class _Environment(jinja2.Environment):
    """Jinja's environment, with each template's globals in a plain dict.

    Jinja copies a template's globals into the context of every render and
    include. Its default, a ChainMap over the environment's globals, is
    iterated in Python code, key by key: about 7 µs of each game page. The
    price: a global added to the environment after a template is loaded is
    not seen by that template; make_env() sets them all first.
    """

    template_class = _Template

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        return {**self.globals, **(d or {})}


def _controls_renderer(env: jinja2.Environment) -> Callable[[Any], Markup]:
    """``viewer_controls(strings)``: the viewer's buttons, the same on every game page."""
    done: dict[tuple, Markup] = {}
    last: list[Any] = [None, None]  # the strings of the last call, and their controls

    def controls(strings: Any) -> Markup:
        # The game pages of a build all pass the same dict (pages.game): spare
        # sorting it into a key on every page.
        if strings is last[0]:
            return last[1]
        key = tuple(sorted(strings.items()))
        if key not in done:
            done[key] = Markup(env.get_template("_viewer_controls.html").render(s=strings))
        last[:] = [strings, done[key]]
        return done[key]

    return controls


def _nav_renderer(env: jinja2.Environment) -> Callable[[Any, str], Markup]:
    """``nav(site, root)``: the navigation is the same on every page at one depth,
    so it is rendered once per depth instead of once per page."""
    done: dict[tuple, Markup] = {}
    last: list[Any] = [None, {}]  # the site of the last call, and its navigation per root

    def nav(site: Any, root: str) -> Markup:
        # The pages of a build all pass the same site: its navigation is found
        # by root alone, without hashing every event link into a key per page.
        if site is not last[0]:
            last[:] = [site, {}]
        known = last[1]
        if root not in known:
            key = (site.title, site.language, site.events, site.pages, root)
            if key not in done:
                done[key] = Markup(env.get_template("_nav.html").render(site=site, root=root))
            known[root] = done[key]
        return known[root]

    return nav
