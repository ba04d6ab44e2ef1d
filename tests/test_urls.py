"""Links between pages: relative, and percent-encoded exactly as urllib would."""

from __future__ import annotations

import random
from urllib.parse import quote, unquote

import pytest

from generator.render import urls

# No "#" or "?": in a record's name they must reach the server, not start a fragment or a query.
SAFE = "/=.-_~"


def test_a_record_link_is_percent_encoded_as_urllib_quote_does() -> None:
    name = "files/2016-001/C5-中科大-墨子 B vs 华科海燕 W-后手胜-2016.07.01 13.21 重庆-赛事（一）.txt"
    link = urls.href("games/2016-001/x.html", name)
    assert link == "../../" + quote(name, safe=SAFE)
    assert unquote(link[len("../../") :]) == name


def test_percent_encoding_matches_urllib_on_any_text() -> None:
    rng = random.Random(7)
    alphabet = [chr(c) for c in range(1, 0x2FF)] + list("中科大后手胜“”（）　€😀\u2028%?&+ ")
    for _ in range(5000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 24)))
        assert urls.percent_encoded(text) == quote(text, safe=SAFE), text


def test_a_hash_or_question_mark_in_a_record_name_keeps_its_link_whole() -> None:
    for name in ("a#b.txt", "a?b.txt", "a%23b.txt"):
        link = urls.href("games/e/x.html", urls.record_file(f"e/{name}"))
        assert "#" not in link and "?" not in link
        assert unquote(link.removeprefix("../../")) == f"files/e/{name}"


def test_a_record_that_a_browser_could_run_is_published_as_text() -> None:
    assert urls.record_file("e/x.txt") == "files/e/x.txt"
    assert urls.record_file("e/x.TXT") == "files/e/x.TXT"
    for name in ("x.html", "x.HTM", "x.svg", "x.xhtml", "x.xml", "x", "x.pgn", "x.txt.html"):
        published = urls.record_file(f"e/{name}")
        assert published == f"files/_/e/{name}.txt", published
    # The two never collide: no record path begins with "_/" (the scan skips such folders).
    assert urls.record_file("e/x.html.txt") != urls.record_file("e/x.html")


def test_a_name_that_is_no_valid_unicode_fails_as_urllib_fails() -> None:
    with pytest.raises(UnicodeEncodeError):
        quote("x\udcff", safe=SAFE)
    with pytest.raises(UnicodeEncodeError):
        urls.percent_encoded("x\udcff")


def test_page_links_are_relative_and_name_index_html() -> None:
    assert urls.href("games/e/g.html", "events/e/index.html") == "../../events/e/index.html"
    assert urls.href("index.html", "teams/index.html") == "teams/index.html"
