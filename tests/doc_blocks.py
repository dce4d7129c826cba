"""The code blocks of README.md and docs/**/*.md, found and run as a reader would run them.

Rules a page follows (tests/project/test_docs.py enforces them):

* A ```` ```python ```` block runs; the blocks of one page share one
  namespace and run in page order, so a tutorial can build on its earlier
  blocks.  A ```` ```text ```` block right after it (nothing but blank lines
  between) is what it prints, and is checked.
* A ```` ```console ```` block holds ``$ ddsbind ...`` lines, each followed
  by what it prints (standard output and standard error, as a terminal shows
  them); each command runs and its output is checked where the block shows
  any.  A command must exit with status 0 unless what it shows is an
  ``ddsbind: error: ...`` line.  ``> FILE`` after a command writes its
  standard output to FILE, as the shell does.
* In expected output, a line ``...`` stands for any lines (or none), and
  ``...`` inside a line for any text on that line.
* ```` ```sh ```` blocks (setting up, ``make`` targets) never run, and must
  not hold ``ddsbind`` commands: those belong in console blocks.
* ``<!-- not run: WHY -->`` on the line before a block's fence leaves it
  out (a command that takes minutes, a path the reader has and we do not);
  its Python must still compile.
* Pages run in an empty temporary directory holding ``examples`` (a link to
  the checkout's examples/), so ``examples/data/club.pbn`` resolves and
  every file a page writes lands in the temporary directory.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from tests.support import REPO, child_env

NOT_RUN = re.compile(r"<!-- not run: .+ -->")
FENCE = re.compile(r"^(?P<indent> *)```(?P<lang>[\w-]*)[^\n]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.M | re.S)


@dataclass
class Block:
    """One fenced block: its page, line, language, code, the marker line before it, and its checked output."""

    page: Path
    line: int
    lang: str
    code: str
    before: str
    end: int = 0
    output: str | None = None

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(REPO)}:{self.line}"

    @property
    def runs(self) -> bool:
        return self.lang in ("python", "console") and not NOT_RUN.fullmatch(self.before.strip())


def pages() -> list[Path]:
    """README.md and every Markdown page of the site, in a stable order."""
    return [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]


def blocks(page: Path) -> list[Block]:
    """Every fenced block of ``page``; a text block right after a python block becomes that block's ``output``."""
    text = page.read_text()
    out: list[Block] = []
    for m in FENCE.finditer(text):
        head = text[: m.start()]
        before = head.rstrip("\n").rsplit("\n", 1)[-1]
        indent = len(m.group("indent"))
        body = "\n".join(line[indent:] for line in m.group("body").split("\n"))
        block = Block(page, head.count("\n") + 1, m.group("lang"), body, before, m.end())
        last = out[-1] if out else None
        follows = last is not None and not text[last.end : m.start()].strip()
        if block.lang == "text" and follows and last and last.lang == "python" and last.output is None:
            last.output = body
            continue
        out.append(block)
    return out


def _line_pattern(line: str) -> str:
    return ".*?".join(re.escape(part) for part in line.split("..."))


def matches(expected: str, actual: str) -> bool:
    """Whether ``actual`` is ``expected`` with its ``...`` filled in (trailing spaces and blank ends ignored)."""
    exp = [line.rstrip() for line in expected.strip("\n").split("\n")]
    act = "\n".join(line.rstrip() for line in actual.strip("\n").split("\n"))
    parts = [r"(?:[^\n]*\n)*?" if line.strip() == "..." else _line_pattern(line) + r"\n" for line in exp]
    return re.fullmatch("".join(parts), act + "\n") is not None


def check_output(block: Block, what: str, expected: str, actual: str) -> None:
    if not matches(expected, actual):
        raise AssertionError(f"{block.where}: {what} printed\n{actual}\n--- but the page shows ---\n{expected}")


def run_python(block: Block, namespace: dict) -> None:
    """Run a python block in the page's namespace; check what it prints against its output block."""
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        exec(compile(block.code, block.where, "exec"), namespace)
    if block.output is not None:
        check_output(block, "the block", block.output, buffer.getvalue())


def console_commands(block: Block) -> list[tuple[str, str]]:
    """(command, shown output) of each ``$ `` line of a console block."""
    commands: list[tuple[str, list[str]]] = []
    for line in block.code.rstrip("\n").split("\n"):
        if line.startswith("$ "):
            commands.append((line[2:], []))
        elif commands:
            commands[-1][1].append(line)
        else:
            raise AssertionError(f"{block.where}: a console block starts with {line!r}, not a $ command")
    return [(cmd, "\n".join(lines)) for cmd, lines in commands]


def run_console(block: Block, cwd: Path) -> None:
    """Run each ``$ ddsbind ...`` command of a console block (under the build under test) and check its output."""
    env = child_env()
    env["PYTHONUNBUFFERED"] = "1"  # stdout and stderr interleaved as a terminal shows them
    env["COLUMNS"] = "80"
    for command, shown in console_commands(block):
        args = shlex.split(command)
        if args[0] != "ddsbind":
            raise AssertionError(f"{block.where}: {command!r} is not a ddsbind command (mark the block not run)")
        target = None
        if ">" in args:
            at = args.index(">")
            args, target = args[:at], args[at + 1]
        proc = subprocess.run(
            [sys.executable, "-m", "ddsbind", *args[1:]],
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT if target is None else subprocess.PIPE,
            text=True,
            timeout=600,
            check=False,
        )
        printed = proc.stdout if target is None else proc.stderr
        if target is not None:
            (cwd / target).write_text(proc.stdout)
        fails = any(line.startswith("ddsbind: error:") for line in shown.split("\n"))
        if (proc.returncode != 0) != fails:
            raise AssertionError(f"{block.where}: `{command}` exited with {proc.returncode}:\n{printed}")
        if shown.strip():
            check_output(block, f"`{command}`", shown, printed)


def run_page(page: Path, cwd: Path) -> int:
    """Run every block of ``page`` that runs, in order, in ``cwd``; return how many ran."""
    (cwd / "examples").symlink_to(REPO / "examples")
    namespace: dict = {"__name__": "__docs__"}
    ran = 0
    old = Path.cwd()
    os.chdir(cwd)
    try:
        for block in blocks(page):
            if not block.runs:
                continue
            if block.lang == "python":
                run_python(block, namespace)
            else:
                run_console(block, cwd)
            ran += 1
    finally:
        os.chdir(old)
    return ran
