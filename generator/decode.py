"""Decode: the bytes of a record file become a :class:`~generator.model.Text`.

The rulings (``specs/README.md``): a byte-order mark decides; otherwise the
bytes are strict UTF-8 if they decode as such, else GB18030 (a superset of
GB2312 and GBK, the charset the CCGC standards prescribe). A codec named in
``site.toml`` for a folder or a file wins over all of that. Bytes that no
candidate decodes are an error naming the byte offset; the caller skips the
file and the build goes on.

Line ends are kept exactly as written: the text is never rewritten, so every
line and column reported later points at the file the organiser has open.
"""

from __future__ import annotations

import codecs
import os
import re

from generator.diagnostics import Diagnostic, define, make
from generator.i18n import N_
from generator.model import Source, Text, line_starts

UNDECODABLE = define(
    "ENC-E001",
    "error",
    "The file's bytes are not text in any accepted encoding",
    "Save the file as UTF-8 or GB18030/GBK, or name its encoding for the file or "
    "its folder in site.toml. The file is left out of the site until then.",
)
UNKNOWN_CODEC = define(
    "ENC-E002",
    "error",
    "site.toml names an encoding Python does not know",
    "Use a codec name such as utf-8, gb18030, cp1250 or latin-1. The file was "
    "decoded as if no encoding had been named.",
)
NUL_CHARACTERS = define(
    "ENC-W001",
    "warning",
    "The text contains NUL characters",
    "The file may be UTF-16 saved without a byte-order mark. Save it as UTF-8, "
    "or name its encoding (utf-16-le or utf-16-be) in site.toml.",
)
NAME_NOT_UTF8 = define(
    "ENC-W002",
    "warning",
    "The name of the file or of its folder is not UTF-8",
    "It was read as GB18030 (what a zip made on Windows leaves when unpacked on "
    "Linux), and the site shows and publishes the file under that name. Rename "
    "it, or unpack the archive with its encoding (unzip -O GBK).",
)

# Longest first: the UTF-32 LE mark starts with the UTF-16 LE one, and we do
# not accept UTF-32, so only the three marks the rulings name are listed.
_BOMS: tuple[tuple[bytes, str, str], ...] = (
    (codecs.BOM_UTF8, "utf-8-sig", "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "utf-16"),
)

# CR alone, LF alone and CRLF each end one line, exactly as Text counts them
# (model.line_starts), here in bytes: where an undecodable byte stands.
_EOL_BYTES = re.compile(rb"\r\n|\r|\n")


def shown_name(name: str) -> str:
    """A file or folder name as the site shows it.

    On Linux a name whose bytes are not UTF-8 arrives with surrogate escapes,
    which no page, link or JSON line can hold: such a name is read as
    GB18030 (Windows archives of Chinese tournaments unpacked on Linux), else
    as UTF-8 with replacement characters.
    """
    if name.isascii():
        return name
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raw = os.fsencode(name)
        try:
            return raw.decode("gb18030")
        except UnicodeDecodeError:
            return raw.decode("utf-8", "replace")
    return name


def shown_path(rel: str) -> str:
    """A relative path with every name in it as the site shows it (:func:`shown_name`)."""
    return rel if rel.isascii() else "/".join(shown_name(part) for part in rel.split("/"))


def renamed(rel: str) -> Diagnostic:
    """The warning for a record whose path on disk is not UTF-8, shown as ``rel``."""
    return make(rel, 1, 1, NAME_NOT_UTF8, "the name on disk is not UTF-8; read as GB18030: {path}", path=rel)


def decode(source: Source, override: str | None = None) -> tuple[Text | None, list[Diagnostic]]:
    """Decode a record file.

    Returns the text (``None`` when the bytes decode under nothing) and the
    diagnostics. ``override`` is a codec name from ``site.toml``; it wins over
    the BOM and over the automatic choice.
    """
    diagnostics: list[Diagnostic] = []
    data = source.data
    if override is not None:
        codec = _lookup(override)
        if codec is None:
            diagnostics.append(
                make(
                    source.path,
                    0,
                    0,
                    UNKNOWN_CODEC,
                    'site.toml names the encoding "{encoding}", which is not known',
                    encoding=override,
                )
            )
        else:
            text, error = _try(data, codec)
            if error is not None:
                templates = (
                    N_(
                        "cannot decode the bytes at byte offset {offset} ({bytes}): the file is not valid {encoding} "
                        "(the encoding named in site.toml); it is skipped"
                    ),
                    N_(
                        "cannot decode the bytes at byte offset {offset} ({bytes}): the file is not valid {encoding} "
                        "(the encoding named in site.toml) (it looks like UTF-16 without a byte-order mark: "
                        'name the encoding "{guess}" for it in site.toml); it is skipped'
                    ),
                )
                diagnostics.append(_undecodable(source, data, error, templates, encoding=override))
                return None, diagnostics
            assert text is not None  # _try gives the text exactly when it gives no offset
            # A BOM written by an editor survives a plain "utf-8" override.
            return _finish(source, text.removeprefix("\ufeff"), override, diagnostics), diagnostics

    for bom, codec, name in _BOMS:
        if data.startswith(bom):
            text, error = _try(data[len(bom):], codec)
            if error is not None:
                templates = (
                    N_(
                        "cannot decode the bytes at byte offset {offset} ({bytes}): the file is not valid {encoding}, "
                        "although it starts with that byte-order mark; it is skipped"
                    ),
                    N_(
                        "cannot decode the bytes at byte offset {offset} ({bytes}): the file is not valid {encoding}, "
                        'although it starts with that byte-order mark (it looks like UTF-16 without a byte-order mark: name the '
                        'encoding "{guess}" for it in site.toml); it is skipped'
                    ),
                )
                diagnostics.append(_undecodable(source, data, error + len(bom), templates, encoding=name))
                return None, diagnostics
            assert text is not None  # _try gives the text exactly when it gives no offset
            return _finish(source, text, name, diagnostics), diagnostics

    text, _ = _try(data, "utf-8")
    if text is not None:
        return _finish(source, text, "utf-8", diagnostics), diagnostics
    text, error = _try(data, "gb18030")
    if error is not None:
        templates = (
            N_(
                "cannot decode the bytes at byte offset {offset} ({bytes}): the file is neither UTF-8 nor GB18030 (GBK); "
                "it is skipped"
            ),
            N_(
                "cannot decode the bytes at byte offset {offset} ({bytes}): the file is neither UTF-8 nor GB18030 (GBK) "
                '(it looks like UTF-16 without a byte-order mark: name the encoding "{guess}" for it in site.toml); it is skipped'
            ),
        )
        diagnostics.append(_undecodable(source, data, error, templates))
        return None, diagnostics
    assert text is not None  # _try gives the text exactly when it gives no offset
    return _finish(source, text, "gb18030", diagnostics), diagnostics


def _lookup(name: str) -> str | None:
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


def _try(data: bytes, codec: str) -> tuple[str, None] | tuple[None, int]:
    """The decoded text, or the offset of the first byte that does not decode."""
    try:
        return data.decode(codec), None
    except UnicodeDecodeError as e:
        return None, e.start


def _finish(source: Source, text: str, encoding: str, diagnostics: list[Diagnostic]) -> Text:
    result = Text(source.path, text, encoding, line_starts(text))
    nul = text.find("\x00")
    if nul >= 0:
        line, column = result.position(nul)
        guess = _utf16_guess(source.data)
        if guess:
            diagnostics.append(
                make(
                    source.path,
                    line,
                    column,
                    NUL_CHARACTERS,
                    "the text contains NUL characters (first at line {line}); it looks like UTF-16 without a "
                    'byte-order mark: name the encoding "{guess}" for it in site.toml',
                    line=line,
                    guess=guess,
                )
            )
        else:
            diagnostics.append(
                make(
                    source.path,
                    line,
                    column,
                    NUL_CHARACTERS,
                    "the text contains NUL characters (first at line {line})",
                    line=line,
                )
            )
    return result


def _utf16_guess(data: bytes) -> str | None:
    """"utf-16-le"/"utf-16-be" when NUL bytes fill one byte of every other pair.

    ASCII saved as UTF-16 has a zero in every other byte; Chinese text has
    fewer, so a third of the pairs is taken as enough.
    """
    sample = data[:400]
    pairs = len(sample) // 2
    if pairs < 4:
        return None
    high = sample[1::2].count(0)  # zeros in odd positions: little-endian
    low = sample[0::2].count(0)
    if high >= pairs / 3 and low < pairs / 10:
        return "utf-16-le"
    if low >= pairs / 3 and high < pairs / 10:
        return "utf-16-be"
    return None


def _undecodable(source: Source, data: bytes, offset: int, templates: tuple[str, str], **args: str) -> Diagnostic:
    """Name the byte offset (and, as a help, the line) of the first bad byte.

    ``templates``: the message, and the same with a hint for a file that
    looks like UTF-16 (it has a ``{guess}`` place), each written with N_().
    """
    shown = " ".join(f"0x{b:02X}" for b in data[offset : offset + 4])
    guess = _utf16_guess(data)
    template = templates[1] if guess else templates[0]
    if guess:
        args["guess"] = guess
    if guess or data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        # Counting b"\n" means nothing in UTF-16: the offset alone must do.
        return make(source.path, 0, 0, UNDECODABLE, template, offset=offset, bytes=shown, **args)
    ends = [m.end() for m in _EOL_BYTES.finditer(data, 0, offset)]
    line = len(ends) + 1
    line_start = ends[-1] if ends else 0
    # Columns count characters; the bytes before the bad one decode as far as
    # the fallback can tell, which is close enough to find the place.
    column = len(data[line_start:offset].decode("gb18030", errors="replace")) + 1
    return make(source.path, line, column, UNDECODABLE, template, offset=offset, bytes=shown, **args)
