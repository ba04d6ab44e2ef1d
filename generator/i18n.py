"""Messages in the reader's language: gettext catalogs, maintained with Babel.

Every sentence Qipu says about a record (a diagnostic's message and title, an
engine's note under the board) is written in the code as an English
template with named arguments, marked with :func:`N_` where it is written::

    make(path, line, column, E_RESULT, N_("the {where} declares {declared} but ..."),
         where=T("header"), declared=T("first player wins"))

The marked templates are the msgids of the catalogs in
``generator/locale/<language>/LC_MESSAGES/<domain>.po`` (one domain per
layer: ``formats``, ``rules`` and ``qipu`` for the rest, so each layer keeps
its sentences near its code). A template is said in a language when a page
or ``qipu check --lang`` shows it, not when it is made: the build cache holds
templates and arguments, and one cached replay serves both languages.
Arguments given with :func:`T` are words translated too ("header", "Black").

``python -m generator.i18n`` brings the catalogs in line with the code (new
templates added untranslated, vanished ones dropped); ``tests/test_i18n.py``
fails while any template lacks a translation.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

LOCALE = Path(__file__).parent / "locale"
DOMAINS: Mapping[str, tuple[str, ...]] = {
    # domain -> the folders of generator/ whose templates it holds ("" = the
    # modules at the top of the package and every folder not named elsewhere)
    "formats": ("formats",),
    "rules": ("rules",),
    "qipu": ("",),
}
# The site's language names (site.toml, --lang) and the catalogs' folder names.
CATALOG_FOLDERS: Mapping[str, str] = {"zh-CN": "zh_CN"}
SOURCE_LANGUAGE = "en"


def N_(template: str) -> str:
    """Mark a template for the catalogs; it is said in a language later."""
    return template


class Term(str):
    """An argument that is itself a word to translate ("header", "Black")."""

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (Term, (str(self),))


class Phrase(str):
    """A short text to say in the page's language, with its values: a move list's
    ``raise to 212``. Its own value is the English text, so that it stands
    wherever a string does; ``template`` and ``args`` say it in another
    language (:meth:`in_language`)."""

    template: str
    args: Args

    def __new__(cls, template: str, **args: Any) -> Phrase:
        phrase = super().__new__(cls, template.format(**args) if args else template)
        phrase.template, phrase.args = template, tuple(args.items())
        return phrase

    def __reduce__(self) -> tuple[Any, ...]:
        return (_phrase, (self.template, self.args))

    def in_language(self, language: str) -> str:
        return say(self.template, self.args, language)


def _phrase(template: str, args: Args) -> Phrase:
    return Phrase(template, **dict(args))


class Named(tuple):
    """A name the registry writes in each language (a game, a side): ``Named("Black", "黑方")``.

    As an argument it is said in the message's language, with no catalog entry.
    """

    __slots__ = ()

    def __new__(cls, en: str, zh: str) -> Named:
        return tuple.__new__(cls, (en, zh))

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        return (Named, (self[0], self[1]))

    def __str__(self) -> str:
        return str(self[0])

    def __format__(self, spec: str) -> str:
        return format(self[0], spec)

    def said(self, language: str) -> str:
        return str(self[1]) if language.lower().startswith("zh") and self[1] else str(self[0])


class Said(tuple):
    """An argument that is itself a template with its arguments: ``Said(N_("cannot be read: {error}"), args)``.

    Said in the message's language, as the message is (a refused file's
    ``{file}: {reason}``).
    """

    __slots__ = ()

    def __new__(cls, template: str, args: Args = ()) -> Said:
        return tuple.__new__(cls, (template, tuple(args)))

    def __reduce__(self) -> tuple[Any, tuple[str, Args]]:
        return (Said, (self[0], self[1]))

    def __str__(self) -> str:
        return say(self[0], self[1])

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def said(self, language: str) -> str:
        return say(self[0], self[1], language)


def T(word: str) -> Term:
    """Mark a word for the catalogs and for translation where it is an argument."""
    return Term(word)


Args = tuple[tuple[str, Any], ...]


def args_of(values: Mapping[str, Any]) -> Args:
    """Arguments as a sorted tuple: hashable, comparable and cheap to pickle."""
    return tuple(sorted(values.items()))


def say(template: str, args: Args | Mapping[str, Any] = (), language: str = SOURCE_LANGUAGE) -> str:
    """The template in ``language`` with its arguments filled in.

    Without arguments the template is returned as it is (after translation):
    messages made before templates existed, and record text that may hold
    braces, are never formatted. A translation that does not fit its
    arguments (a catalog error) falls back to the English template.
    """
    values = dict(args)
    text = translate(template, language)
    if not values:
        return text
    if language != SOURCE_LANGUAGE:
        values = {name: _said(value, language) for name, value in values.items()}
    try:
        return text.format(**values)
    except (KeyError, IndexError, ValueError):
        return template.format(**{name: str(value) for name, value in dict(args).items()})


def _said(value: Any, language: str) -> Any:
    if isinstance(value, Term):
        return translate(value, language)
    if isinstance(value, Named | Said):
        return value.said(language)
    return value


def translate(text: str, language: str) -> str:
    """One msgid in ``language``; itself where the catalog has no translation."""
    if language == SOURCE_LANGUAGE:
        return text
    return catalog(language).get(text) or text


@functools.cache
def catalog(language: str) -> Mapping[str, str]:
    """msgid -> translation for a language, from every domain's catalog (read once per process)."""
    folder = CATALOG_FOLDERS.get(language)
    if folder is None:
        return {}
    found: dict[str, str] = {}
    for po in sorted((LOCALE / folder / "LC_MESSAGES").glob("*.po")):
        found.update(read_catalog(po.read_text(encoding="utf-8")))
    return found


def read_catalog(text: str) -> dict[str, str]:
    """The translated, non-fuzzy messages of a .po file, as Babel writes them.

    Babel maintains the catalogs (:func:`update_catalogs`); reading them is
    this small loop, because importing Babel and its reader cost a new
    process 50 ms, a sixth of a one-record rebuild (tests/test_i18n.py
    checks that both read the same).
    """
    found: dict[str, str] = {}
    fields: dict[str, list[str]] = {}
    current = ""
    fuzzy = False

    def flush() -> None:
        msgid, msgstr = "".join(fields.get("msgid", ())), "".join(fields.get("msgstr", ()))
        if msgid and msgstr and not fuzzy:
            found[msgid] = msgstr

    for line in text.splitlines():
        if not line or line.startswith("#"):
            if fields and (not line or line.startswith("#,") or line.startswith("#:")):
                flush()
                fields, current, fuzzy = {}, "", False
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            continue
        if line.startswith('"'):
            fields.setdefault(current, []).append(_unquote(line))
            continue
        keyword, _, rest = line.partition(" ")
        current = keyword
        fields[current] = [_unquote(rest)]
    if fields:
        flush()
    return found


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}


def _unquote(quoted: str) -> str:
    body = quoted.strip()[1:-1]
    if "\\" not in body:
        return body
    out, i = [], 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            out.append(_ESCAPES.get(body[i + 1], body[i + 1]))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


# Maintaining the catalogs: used by the command below and by tests/test_i18n.py.

# N_ and T mark templates and words; the title of ``diagnostics.define`` (its
# third argument) and the message of ``diagnostics.make`` (its fifth) are
# templates wherever they are written as plain strings.
KEYWORDS: Mapping[str, Any] = {"N_": None, "T": None, "define": (3,), "make": (5,)}


def domain_of(relative: Path) -> str:
    """The catalog domain of a module, by its path inside ``generator/``."""
    top = relative.parts[0] if len(relative.parts) > 1 else ""
    for domain, folders in DOMAINS.items():
        if top in folders:
            return domain
    return "qipu"


def extract() -> dict[str, dict[str, list[tuple[str, int]]]]:
    """domain -> template -> the places (module, line) that write it, read from the source."""
    from babel.messages.extract import extract_from_file

    package = Path(__file__).parent
    found: dict[str, dict[str, list[tuple[str, int]]]] = {domain: {} for domain in DOMAINS}
    for module in sorted(package.rglob("*.py")):
        relative = module.relative_to(package)
        for line, message, _comments, _context in extract_from_file("python", str(module), keywords=KEYWORDS):
            if isinstance(message, str):
                found[domain_of(relative)].setdefault(message, []).append((str(Path("generator") / relative), line))
    return found


def catalog_path(language: str, domain: str) -> Path:
    return LOCALE / CATALOG_FOLDERS[language] / "LC_MESSAGES" / f"{domain}.po"


def update_catalogs() -> Iterator[str]:
    """Bring every catalog in line with the source; yields one line per catalog changed."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    for domain, templates in extract().items():
        for language, folder in CATALOG_FOLDERS.items():
            path = catalog_path(language, domain)
            old = read_po(path.open("rb")) if path.exists() else Catalog(locale=folder, domain=domain)
            new = Catalog(locale=folder, domain=domain, project="Qipu", charset="utf-8")
            for template, places in sorted(templates.items()):
                known = old.get(template)
                new.add(template, known.string if known else "", locations=places)
            missing = sum(1 for m in new if m.id and not m.string)
            path.parent.mkdir(parents=True, exist_ok=True)
            before = path.read_bytes() if path.exists() else b""
            with path.open("wb") as handle:
                write_po(handle, new, width=100, omit_header=True, sort_output=True, include_lineno=False)
            if path.read_bytes() != before:
                yield f"{path}: {len(templates)} templates, {missing} without a translation"


if __name__ == "__main__":
    for changed in update_catalogs():
        print(changed)
