"""The README's Python examples run as printed (each block marked to be run, in a fresh namespace).

A ```` ```python ```` block of README.md must be preceded by one of two
comment lines: ``<!-- README example: run by tests/test_readme.py -->``,
and this test runs it (from the checkout's root, so that its paths such as
``examples/data/games.pbn`` resolve), or ``<!-- README example: not run (why)
-->``.  So no example can quietly use a name it never defines.
"""

from __future__ import annotations

import re

import pytest

from tests.conftest import REPO

RUN = "<!-- README example: run by tests/test_readme.py -->"
NOT_RUN = re.compile(r"<!-- README example: not run \(.+\) -->")


def python_blocks(text: str) -> list[tuple[int, str, str]]:
    """(line number, the line before the fence, the code) of every ```python block."""
    out = []
    for m in re.finditer(r"^```python\n(.*?)^```$", text, re.M | re.S):
        before = text[: m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        out.append((text[: m.start()].count("\n") + 1, before, m.group(1)))
    return out


BLOCKS = python_blocks((REPO / "README.md").read_text())
TO_RUN = [(line, code) for line, before, code in BLOCKS if before == RUN]


def test_every_python_block_says_whether_it_runs():
    unmarked = [line for line, before, _ in BLOCKS if before != RUN and not NOT_RUN.fullmatch(before)]
    assert not unmarked, f"README.md python blocks on lines {unmarked} lack a run / not-run marker"
    assert len(TO_RUN) >= 6  # quickstart, using it, dll, pool, played deals, formats


@pytest.mark.parametrize(("line", "code"), TO_RUN, ids=[f"line{line}" for line, _ in TO_RUN])
def test_readme_example_runs(line, code, monkeypatch, capsys):
    monkeypatch.chdir(REPO)
    exec(compile(code, f"README.md:{line}", "exec"), {"__name__": "readme_example"})
    out = capsys.readouterr().out
    if re.search(r"^print\(", code, re.M):  # an unconditional print
        assert out.strip(), "the example prints nothing"


def test_quickstart_prints_the_table_and_par(capsys, monkeypatch):
    """The first example is the quickstart: it prints the deal's DD table and its par."""
    line, code = TO_RUN[0]
    assert line < 40 and len(code.strip().splitlines()) <= 6
    exec(compile(code, f"README.md:{line}", "exec"), {"__name__": "readme_example"})
    out = capsys.readouterr().out
    assert re.search(r"^NT +6 +6 +6 +6$", out, re.M), out
    assert "NS -110" in out and "EW 110" in out
