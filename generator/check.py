"""``qipu check``: the flow up to the index, without rendering anything."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from generator import decode
from generator.archive.index import alias_suggestions, build_index, placeholders
from generator.archive.teams import Suggestion
from generator.build import refused_summary, summarize
from generator.build.records import read_games
from generator.cache import view_key
from generator.config import Config
from generator.diagnostics import Diagnostic, define, make
from generator.scan import Refused, kind, read_file, scan

ALIAS = define(
    "ARC-N102",
    "note",
    "Two team spellings look like one team",
    "If they are one team, add the line the message gives under [aliases] in site.toml; "
    "the standings then count them as one.",
)
PLACEHOLDER = define(
    "ARC-N103",
    "note",
    "A team name that programs write by default",
    "Names such as 苏拉卡尔塔2队, 未知队伍 or 敌人 say nobody typed the team's name: Qipu never merges them "
    "with a team. Correct the records, or list the name under the right team in [aliases] if you know whose it is.",
)


def _files(config: Config, paths: list[Path]) -> tuple[list[tuple[Path, str, Diagnostic | None]], list[Diagnostic]]:
    """The records under ``paths`` as (path on disk, name shown, a warning about its name), and the entries refused.

    Folders are walked by the build's own scan (generator.scan), so ``qipu
    check`` looks at exactly the records ``qipu build`` reads and refuses
    what it refuses. A file named on the command line is the user's choice
    and is read even outside the content folder, but only if it is a
    regular file the scan would take for a record (not ``logo.png``, not
    ``notes.txt~``: a shell's ``*`` names those too).
    """
    found: dict[str, tuple[Path, str, Diagnostic | None]] = {}
    refused: list[Diagnostic] = []
    for path in paths:
        if not path.is_dir():
            if kind(path.name) != "record":
                continue  # a page, an asset, an editor's backup: what the build's scan would not read as a record
            on_disk = _relative(config, path)
            rel = decode.shown_path(on_disk)  # as the site names it: see decode.shown_name
            found[rel] = (Path(os.path.realpath(path)), rel, decode.renamed(rel) if rel != on_disk else None)
            continue
        walked = scan(path, config.not_content(), config.file_bytes)
        base = _relative(config, path)
        prefix = "" if base in (".", "") else base + "/"

        def moved(d: Diagnostic, prefix: str = prefix) -> Diagnostic:
            # The message names the file as the scan saw it: name it from here too.
            def here(value: object) -> object:
                return value.replace(d.path, prefix + d.path) if type(value) is str else value

            args = tuple((name, here(value)) for name, value in d.args)
            return dataclasses.replace(d, path=prefix + d.path, template=str(here(d.template)), args=args)

        for rel, real, _ in walked.records:
            note = walked.notes.get(rel)
            found[prefix + rel] = (Path(real), prefix + rel, moved(note) if note else None)
        refused += [moved(d) for d in walked.refused.values()]
    return [found[key] for key in sorted(found)], refused


def _relative(config: Config, path: Path) -> str:
    """Paths inside the content folder are named as the site names them; others as given."""
    resolved = path.resolve()
    for base in (config.content_dir.resolve(), Path.cwd()):
        try:
            return resolved.relative_to(base).as_posix()
        except ValueError:
            continue
    return resolved.as_posix()


@dataclass(slots=True)
class Checked:
    diagnostics: list[Diagnostic]  # sorted by file and position; alias notes last
    aliases: list[str]  # likely [aliases] lines for site.toml, ready to paste
    suggestions: list[Suggestion] = dataclasses.field(default_factory=list)  # the same, for --write-aliases


def check_paths(config: Config, paths: list[Path]) -> Checked:
    """Every diagnostic of the records under ``paths``, and the aliases they suggest."""
    summaries = []
    records, refused = _files(config, paths)
    for path, rel, note in records:
        try:
            data = read_file(path, config.file_bytes)
        except Refused as refusal:
            refused.append(refusal.diagnostic(rel))
            continue
        played = read_games(config, rel, data)
        if note is not None:
            played[0].diagnostics.append(note)
        summaries += [summarize(processed, view_key(processed.sha256, processed.game)) for processed in played]
    summaries += [refused_summary(d.path, d) for d in refused]
    archive = build_index(summaries, config)
    found = {d for problems in archive.problems.values() for d in problems} | {d for s in summaries for d in s.diagnostics}
    suggestions = alias_suggestions(archive, config)
    lines = [alias_line(s) for s in suggestions]
    notes = [
        make("site.toml", 0, 0, ALIAS, s.template, line=line, **dict(s.args))
        if s.template
        else make("site.toml", 0, 0, ALIAS, "{reason}: {line} under [aliases]?", reason=s.reason, line=line)
        for s, line in zip(suggestions, lines)
    ]
    for name, files in placeholders(archive):
        notes.append(make(
            files[0], 1, 1, PLACEHOLDER,
            "'{name}' is a name programs write by default, not a team's ({count} records); it is not merged with "
            "any team: write the team's real name in these records, or list it under that team in [aliases]",
            name=name, count=len(files),
        ))  # fmt: skip
    return Checked(sorted(found) + notes, lines, suggestions)


def alias_pair(suggestion: Suggestion) -> tuple[str, str]:
    """(canonical, variant) of a suggestion: see :meth:`Suggestion.pair`."""
    return suggestion.pair()


def alias_line(suggestion: Suggestion) -> str:
    """``"canonical" = ["variant"]``, as ``[aliases]`` in site.toml lists a team's spellings under its name."""
    canonical, variant = alias_pair(suggestion)
    return f"{json.dumps(canonical, ensure_ascii=False)} = [{json.dumps(variant, ensure_ascii=False)}]"


# -- qipu check --write-aliases ---------------------------------------------------------

_TABLE = re.compile(r"\s*\[\s*([^\]]*?)\s*\]\s*(?:#.*)?$")
_KEY = re.compile(r"""\s*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)\s*=\s*""")


def add_aliases(text: str, pairs: list[tuple[str, str]]) -> tuple[str, list[tuple[str, str]]]:
    """``site.toml``'s text with the aliases (canonical, spelling) added under ``[aliases]``; and those added.

    The file is edited as text, so that its comments, order and layout stay
    as the organiser wrote them: a spelling joins its team's existing line
    (``"北理工" = "BIT"`` becomes ``["BIT", "北理工"]``), a new team gets a line
    at the end of the table, a file without the table gets one at its end.
    A spelling the file already lists anywhere is left alone. Raises
    :class:`ValueError` where the file is not TOML, or would not be after.
    """
    table = tomllib.loads(text).get("aliases", {})
    if not isinstance(table, dict):
        raise ValueError("[aliases] is not a table")
    listed = {name.strip() for name in table} | {
        spelling.strip() for value in table.values() for spelling in ([value] if isinstance(value, str) else value)
    }
    wanted: dict[str, list[str]] = {}
    owners = {name.strip(): name for name in table}
    for canonical, spelling in pairs:
        if spelling in listed or spelling == canonical:
            continue
        if canonical in listed and canonical not in owners:
            continue  # the team's name is a spelling of another entry: the organiser must choose
        listed.add(spelling)
        wanted.setdefault(canonical, []).append(spelling)
    if not wanted:
        return text, []
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    start = next((i for i, line in enumerate(lines) if (m := _TABLE.match(line)) and m.group(1) == "aliases"), None)
    if start is None:
        lines += ["\n", "[aliases]\n"]
        start = len(lines) - 1
    end = next((i for i in range(start + 1, len(lines)) if _TABLE.match(lines[i])), len(lines))
    new_lines: list[str] = []
    for canonical, spellings in wanted.items():
        if canonical in owners:
            _extend(lines, start, end, owners[canonical], spellings)
        else:
            quoted = ", ".join(json.dumps(s, ensure_ascii=False) for s in spellings)
            new_lines.append(f"{json.dumps(canonical, ensure_ascii=False)} = [{quoted}]\n")
    # After the table's last entry, not after a comment that opens the next table.
    last = max((i for i in range(start, end) if lines[i].strip() and not lines[i].lstrip().startswith("#")), default=start)
    lines[last + 1 : last + 1] = new_lines
    result = "".join(lines)
    after = tomllib.loads(result).get("aliases", {})
    for canonical, spellings in wanted.items():
        value = after.get(owners.get(canonical, canonical))
        have = [value] if isinstance(value, str) else value or []
        if not set(spellings) <= set(have):
            raise ValueError(f"could not add {spellings} under {canonical!r}")
    return result, [(c, s) for c, spellings in wanted.items() for s in spellings]


def _extend(lines: list[str], start: int, end: int, key: str, spellings: list[str]) -> None:
    """Add spellings to the existing entry ``key`` of the table between ``start`` and ``end``."""
    items = [json.dumps(s, ensure_ascii=False) for s in spellings]
    added = ", ".join(items)
    for i in range(start + 1, end):
        m = _KEY.match(lines[i])
        if m is None or _key_text(m.group(1)) != key:
            continue
        value = lines[i][m.end():]
        if value.startswith("["):
            for j in range(i, end):  # the line that closes the list (the same one, for a list on one line)
                close = lines[j].rfind("]")
                if close >= 0 and j > i and not lines[j][:close].strip():
                    # A list of one spelling a line: one more line, in the same indentation.
                    previous = lines[j - 1]
                    text = previous.rstrip("\n").rstrip()
                    lines[j - 1] = (text if text.endswith(",") else text + ",") + "\n"
                    indent = previous[: len(previous) - len(previous.lstrip())]
                    lines.insert(j, "".join(f"{indent}{item},\n" for item in items))
                    return
                if close >= 0:
                    body = lines[j][:close].rstrip()
                    joiner = "" if body.endswith(("[", ",")) else ", "
                    lines[j] = body + joiner + added + lines[j][close:]
                    return
        elif value.startswith(('"', "'")):
            quote = value[0]
            close = value.index(quote, 1) if quote == "'" else _string_end(value)
            lines[i] = lines[i][: m.end()] + "[" + value[: close + 1] + ", " + added + "]" + value[close + 1 :]
            return
    raise ValueError(f"cannot find the entry {key!r} under [aliases]")


def _string_end(value: str) -> int:
    """The index of the closing quote of the basic string that ``value`` starts with."""
    i = 1
    while value[i] != '"':
        i += 2 if value[i] == "\\" else 1
    return i


def _key_text(key: str) -> str:
    if key.startswith('"'):
        return str(json.loads(key))
    return key.strip("'")
