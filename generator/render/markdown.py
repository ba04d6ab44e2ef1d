"""Markdown pages from ``content/*.md``, rendered with markdown-it-py.

Raw HTML in the Markdown is escaped, not passed through: the pages come from
many hands and must not be able to inject scripts. Links to other ``.md``
files are rewritten to the ``.html`` pages they become.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import unquote

from markdown_it import MarkdownIt

_MD = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")
_MD_LINK = re.compile(r'href="(?![a-z][a-z0-9+.-]*:|/|#)([^"#?]+)\.md(#[^"]*)?"', re.IGNORECASE)


def render_markdown(
    text: str, *, fallback_title: str, link: Callable[[str], str | None] = lambda target: None
) -> tuple[str, str]:
    """(title, html): the title is the first level-1 heading, else ``fallback_title``.

    ``link(target)`` gives the page a link to another ``.md`` file becomes
    (``target`` as written, without ``.md``); None keeps the name with ``.html``.
    """
    tokens = _MD.parse(text)
    title = fallback_title
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag == "h1" and i + 1 < len(tokens):
            title = tokens[i + 1].content.strip() or fallback_title
            break
    html = _MD.renderer.render(tokens, _MD.options, {})
    html = _MD_LINK.sub(lambda m: f'href="{link(unquote(m.group(1))) or m.group(1) + ".html"}{m.group(2) or ""}"', html)
    return title, html
