"""The README a newcomer reads first: short, its quickstart first, its commands and links real.

Its code blocks run in tests/project/test_docs.py, as every page's do.
"""

from __future__ import annotations

import re

from tests.doc_blocks import blocks, run_python
from tests.support import REPO

README = REPO / "README.md"


def test_readme_is_short():
    """The README stays a page a newcomer reads, under 250 lines; the rest lives on the site."""
    assert len(README.read_text().splitlines()) < 250


def test_quickstart_prints_the_table_and_par(tmp_path, monkeypatch):
    """The first Python block is the quickstart: a few lines that print the deal's DD table and its par."""
    first = next(b for b in blocks(README) if b.lang == "python")
    assert len(first.code.strip().splitlines()) <= 6
    assert first.output is not None
    monkeypatch.chdir(tmp_path)
    run_python(first, {"__name__": "__docs__"})  # checks the printed table and par against the shown ones
    assert re.search(r"^NT +6 +6 +6 +6$", first.output, re.M)
    assert "EW +110" in first.output


def test_readme_names_the_two_commands_and_how_to_run_ddsbind():
    """The two set-up commands are make demo and make test, and the README says how to reach the installed command."""
    text = README.read_text()
    sh = [b.code for b in blocks(README) if b.lang == "sh"]
    assert re.match(r"make demo\b.*\nmake test\b", sh[0])
    assert "source .venv/bin/activate" in text and ".venv/bin/ddsbind" in text


def test_readme_links_resolve():
    """Every relative link of the README names a file of the checkout (GitHub shows them as they are)."""
    missing = []
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README.read_text()):
        if "://" not in target and not (REPO / target).exists():
            missing.append(target)
    assert not missing, missing
