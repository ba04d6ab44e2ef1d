"""Qipu as an organiser installs and uses it: a real package, ``qipu new``,
a theme of one's own, checks for CI, a progress line on long builds."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from conftest import REPO
from test_browser import browser  # noqa: F401 - the fixture: Debian's chromium through Playwright

from generator import __version__, scaffold
from generator.cli import Progress, github_annotation
from generator.diagnostics import Diagnostic


def qipu(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "generator", *args], cwd=cwd, capture_output=True, text=True, encoding="utf-8", timeout=300
    )


def test_a_new_archive_builds_at_once_without_a_problem(tmp_path: Path) -> None:
    made = qipu("new", "archive", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    archive = tmp_path / "archive"
    for rel in ("site.toml", "content/about.md", ".gitignore", ".github/workflows/pages.yml"):
        assert (archive / rel).is_file(), rel
    built = qipu("build", cwd=archive)
    assert built.returncode == 0, built.stderr
    assert "0 errors, 0 warnings" in built.stdout
    site = archive / "site"
    assert len(list((site / "games").rglob("*.html"))) == len(scaffold.GAMES)
    assert (site / "about.html").is_file()
    event = next((site / "events").rglob("index.html")).read_text(encoding="utf-8")
    assert scaffold.EVENT_NAME in event and "示例大学·白鹤" in event
    assert qipu("check", "--format", "github", cwd=archive).stdout == ""
    strict = qipu("build", "--strict", cwd=archive)  # what the workflow runs
    assert strict.returncode == 0, strict.stderr


def test_the_new_workflow_installs_this_version_and_checks_pull_requests(tmp_path: Path) -> None:
    workflow = scaffold.files()[".github/workflows/pages.yml"]
    assert f'pip install "qipu-archive=={__version__}"' in workflow
    assert "qipu check --format github" in workflow and "qipu build --strict" in workflow
    assert "pull_request" in workflow and "pip install -e" not in workflow
    ignored = scaffold.files()[".gitignore"].splitlines()
    assert "/site/" in ignored and ".qipu-cache/" in ignored


def test_new_refuses_a_folder_that_is_not_empty_unless_told(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    refused = qipu("new", str(folder), cwd=tmp_path)
    assert refused.returncode == 2 and refused.stderr.startswith("qipu: ") and "--force" in refused.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["notes.txt"]
    forced = qipu("new", str(folder), "--force", cwd=tmp_path)
    assert forced.returncode == 0 and (folder / "site.toml").is_file()
    assert (folder / "notes.txt").read_text(encoding="utf-8") == "mine"
    again = qipu("new", str(folder), "--force", cwd=tmp_path)  # it never overwrites a file
    assert again.returncode == 2 and "site.toml" in again.stderr


def test_check_prints_github_annotations_on_the_records_line(tmp_path: Path) -> None:
    assert qipu("new", "archive", cwd=tmp_path).returncode == 0
    archive = tmp_path / "archive"
    broken = archive / "content" / scaffold.EVENT / "C5-甲 vs 乙-先手胜-2026.03.02 09.00.txt"
    broken.write_text("{[C5][甲 B][乙 W][先手胜][2026.03.02 09:00 x][y];B(H,8);W(H,8)}", encoding="utf-8")
    done = qipu("check", "--format", "github", cwd=archive)
    assert done.returncode == 1
    line = next(line for line in done.stdout.splitlines() if "RULE-E104" in line)
    assert line.startswith(f"::error file=content/{scaffold.EVENT}/{broken.name},line=1,col=")
    assert line.endswith("::move 2, W(H,8): H8 is already occupied by move 1 (Black)")


def test_annotations_escape_what_the_runner_reads_as_syntax() -> None:
    d = Diagnostic("a,b:c.txt", 3, 4, "warning", "X-W001", "100% sure\nnext\x1b[2J")
    line = github_annotation(d, "content/a,b:c.txt")
    assert line == "::warning file=content/a%2Cb%3Ac.txt,line=3,col=4,title=X-W001::100%25 sure\\x0anext\\x1b[2J"
    assert github_annotation(Diagnostic("x", 0, 0, "note", "N", "m"), "x") == "::notice file=x,title=N::m"


def test_a_theme_replaces_built_in_files_one_by_one(tmp_path: Path) -> None:
    assert qipu("new", "archive", cwd=tmp_path).returncode == 0
    archive = tmp_path / "archive"
    from generator.render import TEMPLATES_DIR

    base = (TEMPLATES_DIR / "base.html").read_text(encoding="utf-8")
    footer = '<footer class="q-footer">组委会 · <img src="{{ root }}static/logo.png" alt="logo"></footer>'
    assert base.count('<footer class="q-footer">') == 1
    themed = base.replace(base[base.index("<footer"): base.index("</footer>") + len("</footer>")], footer)
    (archive / "theme" / "templates").mkdir(parents=True)
    (archive / "theme" / "templates" / "base.html").write_text(themed, encoding="utf-8")
    (archive / "theme" / "static").mkdir()
    (archive / "theme" / "static" / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\nlogo")
    with open(archive / "site.toml", "a", encoding="utf-8") as handle:
        handle.write('\n[theme]\ntemplates = "theme/templates"\nstatic = "theme/static"\n')
    built = qipu("build", cwd=archive)
    assert built.returncode == 0 and "CFG-" not in built.stderr, built.stderr
    site = archive / "site"
    game = next((site / "games").rglob("*.html")).read_text(encoding="utf-8")
    assert '组委会 · <img src="../../static/logo.png" alt="logo">' in game
    assert (site / "static" / "logo.png").read_bytes().endswith(b"logo")
    assert (site / "static" / "viewer.js").is_file()  # not overridden: the built-in one
    # Taking the theme away again gives back the built-in footer.
    (archive / "theme" / "templates" / "base.html").unlink()
    assert qipu("build", cwd=archive).returncode == 0
    assert "组委会" not in next((site / "games").rglob("*.html")).read_text(encoding="utf-8")


def test_theme_cache_and_output_inside_the_content_folder_are_never_records(tmp_path: Path) -> None:
    assert qipu("new", "archive", cwd=tmp_path).returncode == 0
    archive = tmp_path / "archive"
    theme = archive / "content" / "theme" / "templates"
    theme.mkdir(parents=True)
    (theme / "_nav.html").write_text("<nav>ours</nav>", encoding="utf-8")
    toml = (archive / "site.toml").read_text(encoding="utf-8").replace(
        'output = "site"', 'output = "content/site"\ncache = "content/cache"', 1
    )
    (archive / "site.toml").write_text(toml + '\n[theme]\ntemplates = "content/theme/templates"\n', encoding="utf-8")
    for _ in range(2):  # the second build finds the cache and the site of the first in the content folder
        built = qipu("build", cwd=archive)
        assert built.returncode == 0, built.stderr
        assert built.stdout.startswith(f"{len(scaffold.GAMES)} records"), built.stdout
    site = archive / "content" / "site"
    assert not (site / "files" / "_").exists() and not (site / "files" / "theme").exists()
    assert "<nav>ours</nav>" in (site / "index.html").read_text(encoding="utf-8")


def test_serve_watches_the_theme_folders(tmp_path: Path) -> None:
    from generator.config import load_config
    from generator.serve import ConfigArgs, LiveReload, Site

    (tmp_path / "theme").mkdir()
    (tmp_path / "site.toml").write_text('[theme]\ntemplates = "theme"\n', encoding="utf-8")
    config, problems = load_config(None, root=tmp_path)
    assert problems == []
    site = Site(ConfigArgs(None, tmp_path, None, None), config, LiveReload(), lambda line: None, jobs=1)
    assert (tmp_path / "theme", True) in site.watched_dirs()


def test_a_missing_theme_folder_is_a_warning_and_the_built_in_theme_serves(tmp_path: Path) -> None:
    from generator.config import load_config

    (tmp_path / "site.toml").write_text('[theme]\nstatic = "nowhere"\n', encoding="utf-8")
    config, problems = load_config(None, root=tmp_path)
    assert [d.code for d in problems] == ["CFG-W002"] and problems[0].line == 2
    assert config.theme_static is None


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_progress_shows_only_on_a_terminal_after_two_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    progress = Progress(enabled=True)
    progress._clock = clock = _Clock()
    progress.started = 0.0
    progress.update("records", 10, 100)
    clock.now = 1.9
    progress.update("records", 50, 100)
    assert err.getvalue() == ""
    clock.now = 2.5
    progress.update("records", 60, 100)
    progress.update("pages", 5, 100)  # within a tenth of a second: not shown
    clock.now = 2.7
    progress.update("pages", 6, 100)
    assert err.getvalue() == "\r\x1b[Kread 60 of 100 records (2 s)\r\x1b[Kread 60 of 100 records; game pages 6 of 100 (3 s)"
    progress.close()
    assert err.getvalue().endswith("\r\x1b[K")
    quiet = Progress(enabled=False)
    quiet.update("records", 1, 1)
    quiet.close()
    assert err.getvalue().endswith("\r\x1b[K")


def test_a_build_into_a_pipe_or_under_quiet_prints_no_progress_line(tmp_path: Path) -> None:
    assert qipu("new", "archive", cwd=tmp_path).returncode == 0
    done = qipu("build", cwd=tmp_path / "archive")
    assert "\r" not in done.stdout + done.stderr and done.stdout.startswith("3 records")
    quiet = qipu("build", "-q", "--clean", cwd=tmp_path / "archive")
    assert quiet.returncode == 0 and quiet.stdout == "" and quiet.stderr == ""


def _built_package(tmp_path: Path) -> Path:
    """A wheel of this checkout, built as a release would be."""
    out = tmp_path / "dist"
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(REPO)],
        capture_output=True, text=True, timeout=600,
    )
    if done.returncode != 0:
        pytest.fail(f"pip wheel failed:\n{done.stdout}\n{done.stderr}")
    (wheel,) = out.glob("*.whl")
    return wheel


@pytest.mark.browser
def test_the_wheel_carries_the_theme_and_builds_an_archive_far_from_any_checkout(tmp_path: Path, browser: object) -> None:  # noqa: F811
    wheel = _built_package(tmp_path)
    names = zipfile.ZipFile(wheel).namelist()
    for rel in (
        "templates/base.html", "templates/game.html", "static/viewer.js", "static/site.css",
        "locale/zh_CN/LC_MESSAGES/rules.po",  # the messages said in Chinese
    ):
        assert f"generator/{rel}" in names, rel
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    pip = subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", "install", "--quiet", str(wheel)], capture_output=True, text=True, timeout=900
    )
    assert pip.returncode == 0, pip.stdout + pip.stderr
    away = tmp_path / "elsewhere"  # no Qipu source here or above
    away.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    run = lambda *args, cwd: subprocess.run(  # noqa: E731
        [str(bin_dir / "qipu"), *args], cwd=cwd, capture_output=True, text=True, encoding="utf-8", env=env, timeout=300
    )
    assert run("--version", cwd=away).stdout.strip() == f"qipu {__version__}"
    assert run("new", "myarchive", cwd=away).returncode == 0
    built = run("build", cwd=away / "myarchive")
    assert built.returncode == 0, built.stderr
    site = away / "myarchive" / "site"
    assert (site / "index.html").is_file() and (site / "static" / "viewer.js").is_file()
    assert len(list((site / "games").rglob("*.html"))) == len(scaffold.GAMES)
    where = subprocess.run(
        [str(bin_dir / "python"), "-c", "import generator; print(generator.__file__)"], cwd=away, capture_output=True, text=True
    ).stdout
    assert str(venv) in where and str(REPO) not in where
    # Opened as an organiser would, from the disk: the home page links to a game, whose viewer steps.
    page = browser.new_page()  # type: ignore[attr-defined]
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto((site / "index.html").as_uri())
    page.click(f"main >> text={scaffold.EVENT_NAME}")  # the page's link, not the header's events menu
    page.click("a[href*='games/']")
    page.focus(".q-viewer")
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("location.hash === '#ply=1'", timeout=10_000)
    assert page.url.startswith((site / "games").as_uri()) and errors == []
    page.close()


def test_the_sdist_carries_the_theme_and_the_docs(tmp_path: Path) -> None:
    build = pytest.importorskip("build", reason="pip install -e '.[test]' installs the build front-end")
    del build
    out = tmp_path / "dist"
    done = subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--outdir", str(out), str(REPO)], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (sdist,) = out.glob("*.tar.gz")
    names = {name.split("/", 1)[1] for name in tarfile.open(sdist).getnames() if "/" in name}
    assert {
        "templates/base.html", "static/viewer.js", "docs/site-toml.md", "generator/scaffold.py",
        "generator/locale/zh_CN/LC_MESSAGES/qipu.po",
    } <= names
