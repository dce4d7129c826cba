"""Every code block of README.md and of the documentation site runs as printed, and prints what the page shows.

The rules a page follows are in :mod:`tests.doc_blocks`.  Each page runs in
an empty temporary directory (with ``examples`` linked in), its Python
blocks in one namespace, its ``$ ddsbind`` commands under the build under
test.
"""

from __future__ import annotations

import pytest

from tests.doc_blocks import NOT_RUN, blocks, console_commands, matches, pages, run_page
from tests.support import REPO

PAGES = pages()
RUNNING = [p for p in PAGES if any(b.runs for b in blocks(p))]
#: Pages whose blocks solve for more than a few seconds.
SLOW = {"docs/tutorials/simulations.md", "docs/tutorials/databases.md", "docs/tutorials/played-games.md"}


def _param(page):
    name = str(page.relative_to(REPO))
    return pytest.param(page, id=name, marks=[pytest.mark.slow] if name in SLOW else [])


@pytest.mark.parametrize("page", [_param(p) for p in RUNNING])
def test_page_runs_as_printed(page, tmp_path):
    """Each Python block and ddsbind command of the page runs, and prints the output the page shows."""
    assert run_page(page, tmp_path) > 0


def test_every_block_is_run_or_says_why():
    """A reader's block either runs in the tests or says why not; ddsbind commands live in console blocks."""
    faults = []
    for page in PAGES:
        for b in blocks(page):
            marked = NOT_RUN.fullmatch(b.before.strip()) is not None
            if not b.lang:
                faults.append(f"{b.where}: a fence without a language")
            elif b.lang == "python":
                compile(b.code, b.where, "exec")  # even a block not run must be Python
            elif b.lang == "console":
                console_commands(b)  # every line a $ command or its output
            elif (
                b.lang in ("sh", "bash")
                and not marked
                and any(line.split()[:1] == ["ddsbind"] for line in b.code.splitlines())
            ):
                faults.append(f"{b.where}: a ddsbind command in a {b.lang} block (use a console block)")
            if marked and b.lang not in ("python", "console", "sh", "bash"):
                faults.append(f"{b.where}: a not-run marker on a {b.lang} block, which never runs")
    assert not faults, "\n".join(faults)


def test_the_docs_run_many_blocks():
    """The site's tutorials and how-tos are tested, not only the README (a page that stops matching drops out)."""
    pages_with_code = {str(p.relative_to(REPO)) for p in RUNNING}
    assert "README.md" in pages_with_code
    assert sum(name.startswith("docs/tutorials/") for name in pages_with_code) >= 6
    assert sum(name.startswith("docs/howto/") for name in pages_with_code) >= 4


@pytest.mark.parametrize(
    ("expected", "actual", "ok"),
    [
        ("a\nb", "a\nb\n", True),
        ("a\nb", "a\nc", False),
        ("a\n...\nd", "a\nb\nc\nd", True),
        ("a\n...\nd", "a\nd", True),
        ("a\n...\nd", "a\nb\nc", False),
        ("took ... s", "took 2.4 s", True),
        ("took ... s", "took 2.4 s\nmore", False),
        ("NT 6", "NT  6", False),
    ],
)
def test_output_matching(expected, actual, ok):
    """Shown output matches exactly, with ... for any lines or text: a wrong figure on a page fails its test."""
    assert matches(expected, actual) is ok
