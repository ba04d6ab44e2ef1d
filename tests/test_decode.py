"""Decoding record files: BOMs, UTF-8, the GB18030 fallback, overrides, bad bytes."""

from __future__ import annotations

import codecs
import hashlib

import pytest

from generator.decode import decode, line_starts
from generator.model import Source, Text

RECORD = "{[C6][先手参赛队 B][后手参赛队 W][先手胜][2017.07.29 14:00 重庆][2017 CCGC];B(J,10)}"


def source(data: bytes, path: str = "C6/game.txt") -> Source:
    return Source(path, data, hashlib.sha256(data).hexdigest())


def codes(diagnostics) -> list[str]:
    return [d.code for d in diagnostics]


def test_plain_utf8_is_read_as_utf8():
    text, diagnostics = decode(source(RECORD.encode("utf-8")))
    assert text is not None
    assert text.text == RECORD
    assert text.encoding == "utf-8"
    assert text.path == "C6/game.txt"
    assert diagnostics == []


def test_utf8_bom_is_reported_and_stripped():
    text, diagnostics = decode(source(codecs.BOM_UTF8 + RECORD.encode("utf-8")))
    assert text.encoding == "utf-8-sig"
    assert text.text == RECORD
    assert diagnostics == []


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_with_either_bom(codec):
    bom = codecs.BOM_UTF16_LE if codec.endswith("le") else codecs.BOM_UTF16_BE
    text, diagnostics = decode(source(bom + RECORD.encode(codec)))
    assert text.encoding == "utf-16"
    assert text.text == RECORD
    assert diagnostics == []


def test_gbk_bytes_fall_back_to_gb18030():
    text, diagnostics = decode(source(RECORD.encode("gbk")))
    assert text.encoding == "gb18030"
    assert text.text == RECORD
    assert "先手参赛队" in text.text
    assert diagnostics == []


def test_gb18030_only_characters_decode():
    # U+20000 is outside GBK; only GB18030's four-byte forms encode it.
    record = RECORD.replace("重庆", "\U00020000")
    text, _ = decode(source(record.encode("gb18030")))
    assert text.text == record


def test_override_wins_over_automatic_choice():
    data = "Kraków ó".encode("cp1250")
    text, diagnostics = decode(source(data), override="cp1250")
    assert text.text == "Kraków ó"
    assert text.encoding == "cp1250"
    assert diagnostics == []


def test_override_wins_over_a_bom():
    data = codecs.BOM_UTF8 + "é".encode()
    text, _ = decode(source(data), override="latin-1")
    assert text.encoding == "latin-1"
    assert text.text == "\u00ef\u00bb\u00bf\u00c3\u00a9"


def test_utf8_override_still_drops_the_bom():
    text, _ = decode(source(codecs.BOM_UTF8 + b"{[C6]}"), override="utf-8")
    assert text.text == "{[C6]}"


def test_unknown_override_is_an_error_and_decoding_goes_on():
    text, diagnostics = decode(source(RECORD.encode("gbk")), override="klingon-8")
    assert codes(diagnostics) == ["ENC-E002"]
    assert "klingon-8" in diagnostics[0].message
    assert text is not None and text.text == RECORD


def test_undecodable_bytes_name_the_byte_offset():
    data = b"{[C6][A B][C W]\r\n;B(J,10);\xff\xfe;W(K,10)}"
    offset = data.index(b"\xff")
    text, diagnostics = decode(source(data))
    assert text is None
    assert codes(diagnostics) == ["ENC-E001"]
    d = diagnostics[0]
    assert d.severity == "error"
    assert f"byte offset {offset}" in d.message
    assert "0xFF" in d.message
    assert (d.line, d.column) == (2, 10)  # after ";B(J,10);"
    assert d.path == "C6/game.txt"


def test_undecodable_under_the_override_names_the_codec():
    data = "队".encode("gbk")
    text, diagnostics = decode(source(data), override="ascii")
    assert text is None
    assert codes(diagnostics) == ["ENC-E001"]
    assert "byte offset 0" in diagnostics[0].message
    assert "ascii" in diagnostics[0].message


def test_bad_utf8_after_a_utf8_bom_is_not_guessed_away():
    data = codecs.BOM_UTF8 + b"ok\n\xc3("
    text, diagnostics = decode(source(data))
    assert text is None
    assert f"byte offset {len(codecs.BOM_UTF8) + 3}" in diagnostics[0].message


def test_ascii_utf16_without_bom_is_flagged_with_the_fix():
    text, diagnostics = decode(source("{[C6][A B][C W];B(J,10)}".encode("utf-16-le")))
    assert text is not None
    assert codes(diagnostics) == ["ENC-W001"]
    assert '"utf-16-le"' in diagnostics[0].message


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_chinese_utf16_without_bom_is_undecodable_and_the_message_says_why(codec):
    data = RECORD.encode(codec)
    text, diagnostics = decode(source(data))
    assert text is None
    assert codes(diagnostics) == ["ENC-E001"]
    assert f'"{codec}"' in diagnostics[0].message
    # ... and naming that encoding is the fix.
    fixed, diagnostics = decode(source(data), override=codec)
    assert fixed.text == RECORD and diagnostics == []


def test_mixed_line_ends_are_kept_and_positions_follow_them():
    raw = "{[C6][A B][C W]\n;B(J,10);\r\nW(K,10);\rB(L,10)}"
    text, _ = decode(source(raw.encode("utf-8")))
    assert text.text == raw  # nothing rewritten
    assert text.position(raw.index("B(J")) == (2, 2)
    assert text.position(raw.index("W(K")) == (3, 1)
    assert text.position(raw.index("B(L")) == (4, 1)


@pytest.mark.parametrize(
    "raw",
    ["", "one line", "a\r\nb\nc\rd", "\r\r\n\n", "trailing\n", "x\r", "\n\n\r\n\r"],
)
def test_line_starts_agree_with_text(raw):
    assert line_starts(raw) == Text("p", raw, "utf-8").line_starts


def test_empty_file_decodes_to_empty_text():
    text, diagnostics = decode(source(b""))
    assert text.text == ""
    assert diagnostics == []
