"""``qipu new DIR``: a new archive an organiser can build at once and publish from GitHub.

It writes a commented ``site.toml``, ``content/`` with one small example
event and an ``about.md``, a ``.gitignore`` for the output and cache
folders, and ``.github/workflows/pages.yml``, which installs this version of
Qipu as a package, checks the records of every pull request (the errors
shown on the lines of the files) and publishes every push to ``main`` with
``qipu build --strict``. Nothing is printed here: the CLI says what was made.
"""

from __future__ import annotations

from pathlib import Path

from generator import __version__

DISTRIBUTION = "qipu-archive"  # the name on PyPI; the command is qipu

EVENT = "2026-example"
EVENT_NAME = "2026 示例赛 · 五子棋"
# Three teams, a round robin of three games: a win for the first player, a
# win for the second, and a game the teams agreed drawn early. Each record is
# written as tournament software writes CCGC records (header and file name
# both carry the teams, the result, the time and the place).
GAMES = (
    (
        "示例大学·白鹤", "示例学院·青松", "先手胜", "2026.03.01 09.00",
        "B(H,8);W(H,9);B(I,8);W(I,9);B(J,8);W(J,9);B(K,8);W(K,9);B(L,8)",
    ),
    (
        "示例学院·青松", "示例中学·红枫", "后手胜", "2026.03.01 10.30",
        "B(A,1);W(H,8);B(A,3);W(I,8);B(A,5);W(J,8);B(A,7);W(K,8);B(A,9);W(L,8)",
    ),
    ("示例中学·红枫", "示例大学·白鹤", "平局", "2026.03.01 14.00", "B(H,8);W(I,9);B(G,7);W(J,10)"),
)

SITE_TOML = f'''# The settings of this archive; every key is explained in Qipu's docs/site-toml.md.
# Every setting is optional: delete what you do not need.

title = "示例棋谱档案"          # shown on every page
language = "zh-CN"               # or "en": the language of the site's own words
content = "content"              # the folder of records: one folder per event
output = "site"                  # where the site is written (qipu build, qipu serve)
# cache = ".qipu-cache"          # the build cache; delete it whenever you like
# base_url = "https://ORG.github.io/REPO/"   # only for canonical links; links stay relative

[events.{EVENT}]                 # the folder content/{EVENT}/
name = "{EVENT_NAME}"
dates = "2026-03-01"
place = "示例城"

  [events.{EVENT}.games.C5]      # how the gomoku games of this event are scored
  points = {{ win = 2, draw = 1, loss = 0 }}
  tiebreaks = ["head-to-head", "sonneborn-berger", "wins", "second-wins"]

# [aliases]                      # one team, several spellings: canonical = [others]
# "示例大学·白鹤" = ["示例大学-白鹤", "Example U. Crane"]

# [encodings]                    # files that are neither UTF-8 nor GB18030
# "old-2018/" = "gb18030"

# [theme]                        # your own templates and static files, file by file
# templates = "theme/templates"  # e.g. theme/templates/base.html
# static = "theme/static"        # e.g. theme/static/logo.png

# [limits]                       # far above any real record
# file_bytes = 10_000_000
# plies = 100_000
'''

ABOUT = """# 关于本档案

这是用 [Qipu](https://pypi.org/project/qipu-archive/) 生成的棋谱档案示例。把各赛事的棋谱放进
`content/` 下的赛事文件夹（每个赛事一个文件夹），运行 `qipu build`，打开 `site/index.html`。

- `qipu serve`：本地预览，保存文件后自动重新生成并刷新页面。
- `qipu check`：检查棋谱，列出每个错误所在的文件、行和列。
- 推送到 GitHub 的 `main` 分支后，`.github/workflows/pages.yml` 会用 `qipu build --strict`
  生成网站并发布到 GitHub Pages（仓库设置中把 Pages 的来源设为 GitHub Actions）。
"""

GITIGNORE = """# Made by qipu build: never committed
/site/
.qipu-cache/
"""

# The steps both jobs begin with: the repository, Python, and this version of Qipu as a package.
_SETUP = f"""\
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: "3.11"
      - run: pip install "{DISTRIBUTION}=={__version__}"
"""

WORKFLOW = f"""# Check every pull request's records, and publish the archive on GitHub Pages
# on every push to main. Made by `qipu new` with Qipu {__version__}; set the
# Pages source to "GitHub Actions" in the repository's settings.
name: Archive
on:
  push:
    branches: [main]
  pull_request:
  workflow_dispatch:
permissions:
  contents: read
concurrency:
  group: archive-${{{{ github.ref }}}}
  cancel-in-progress: true
jobs:
  check:
    # A pull request that adds a broken record shows each error on its line.
    if: github.event_name == 'pull_request'
    runs-on: ubuntu-latest
    steps:
{_SETUP}      - run: qipu check --format github
  build:
    if: github.event_name != 'pull_request'
    runs-on: ubuntu-latest
    steps:
{_SETUP}      # --strict: an official archive is not published while a record has an error.
      - run: qipu build --strict
      - uses: actions/upload-pages-artifact@v3
        with:
          path: site
  deploy:
    needs: build
    runs-on: ubuntu-latest
    permissions:
      pages: write
      id-token: write
    environment:
      name: github-pages
      url: ${{{{ steps.deployment.outputs.page_url }}}}
    steps:
      - id: deployment
        uses: actions/deploy-pages@v4
"""


def record(first: str, second: str, result: str, when: str, moves: str) -> tuple[str, str]:
    """A C5 record's file name and text, as CCGC tournament software writes them."""
    date, clock = when.split(" ")
    name = f"C5-{first} B vs {second} W-{result}-{when} 示例城-{EVENT_NAME}.txt"
    text = f"{{[C5][{first} B][{second} W][{result}][{date} {clock.replace('.', ':')} 示例城][{EVENT_NAME}];{moves}}}\n"
    return name, text


def files() -> dict[str, str]:
    """Every file of a new archive: relative path -> text."""
    made = {
        "site.toml": SITE_TOML,
        "content/about.md": ABOUT,
        ".gitignore": GITIGNORE,
        ".github/workflows/pages.yml": WORKFLOW,
    }
    for game in GAMES:
        name, text = record(*game)
        made[f"content/{EVENT}/{name}"] = text
    return made


def refusal(folder: Path, force: bool) -> str | None:
    """Why ``qipu new`` must not write into ``folder``, or None."""
    if folder.exists() and not folder.is_dir():
        return f"{folder} exists and is not a folder"
    if folder.is_dir() and any(True for _ in folder.iterdir()) and not force:
        return f"{folder} is not empty; choose a new folder, or add --force to add the archive's files to it"
    if force:
        clashes = [rel for rel in files() if (folder / rel).exists()]
        if clashes:
            return f"{folder} already has {', '.join(clashes[:3])}; Qipu overwrites no file of yours"
    return None


def make(folder: Path) -> list[str]:
    """Write a new archive into ``folder`` (see :func:`refusal` first); returns the files written."""
    written = []
    for rel, text in files().items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "x", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        written.append(rel)
    return written
