"""The documentation site builds from the checkout with no warning (mkdocs build --strict), as `make docs` builds it."""

from __future__ import annotations

import pytest

from tests.support import REPO


@pytest.mark.slow
def test_site_builds_strict(site):
    """A broken link, a page left out of the nav or a docstring the API reference cannot read fails the build."""
    api = (site / "reference" / "api" / "index.html").read_text()
    for name in ("ddsbind.dd_table", "ddsbind.SolverPool", "ddsbind.Deal.from_pbn", "ddsbind.prove"):
        assert f'id="{name}"' in api, name  # the whole public API, from the docstrings
    cli = (site / "reference" / "cli.html").read_text()
    for command in ("generate", "dealer", "convert", "analyse", "prove", "cribbage"):
        assert f"ddsbind {command}" in cli, command  # every command, from click
    formats = (site / "reference" / "file-formats.html").read_text()
    assert "TTTTDDII" in formats  # the ZRJ byte layout, from zrj's docstring


def _site_hooks():
    """docs/_ext/site_hooks.py, loaded as MkDocs loads it (by path)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("site_hooks", REPO / "docs" / "_ext" / "site_hooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cli_reference_defaults():
    """The command-line page gives each option the value it takes when left out, never click's `Sentinel.UNSET`."""
    hooks = _site_hooks()
    page = hooks.cli_reference()
    assert "Sentinel" not in page
    rows = {
        line.split(" | ")[0].strip("| "): line.rsplit(" | ", 1)[1].strip(" |")
        for line in page.splitlines()
        if line.startswith("| `")
    }
    assert rows["`--count`"] == "required"  # generate --count
    assert rows["`--shard`"] == "`256`"
    assert rows["`--trick`"] == "empty"  # solve/line: no card played yet
    assert rows["`-0`"] == "on" and rows["`-2`"] == "off"  # dealer's swap modes: -0 is the default choice
    assert rows["`--hand`"] == "`N`"  # convert --hand: the seat North
    assert rows["`--json`"] == "off"
    assert rows["`--from`"] == "none"
    assert "| `-h`, `--help` |" in page  # dealer's own help flags, as `ddsbind dealer -h` takes them
    assert (
        page.startswith("## ddsbind\n")
        and "\n## " not in page
        and "### ddsbind analyse" in page
        and "#### ddsbind cribbage show" in page
    )
