"""Each format one object of the table: what it holds said once, and its own writing told by its content."""

from __future__ import annotations

import numpy as np
import pytest

from ddsbind.formats import registry
from ddsbind.formats.registry import Records

TOLD_BY_CONTENT = [f for f in registry.formats() if f.starts is not None]


@pytest.mark.parametrize("fmt", TOLD_BY_CONTENT, ids=lambda f: f.name)
def test_a_format_tells_its_own_writing_by_content(fmt):
    """Without this, a file a format wrote, saved without an extension, would not be read back as that format."""
    rng = np.random.default_rng(7)
    owners = rng.permuted(np.tile(np.repeat(np.arange(4, dtype=np.int8), 13), (2, 1)), axis=1)
    tables = np.full((2, 5, 4), 7, np.uint8)
    assert fmt.dump is not None
    head = fmt.dump(Records(owners, tables)).removeprefix(b"\xef\xbb\xbf").lstrip()
    assert [f.name for f in registry.formats() if f.sniff(head)] == [fmt.name]


def test_what_each_format_holds():
    """Without this, a format's contents (deals, results, game records) could drift from what its codec reads."""
    held = {f.name: f.contents for f in registry.formats()}
    assert held == {
        "zbd": ("deals",),
        "zrd": ("deals", "results"),
        "zdd": ("results",),
        "hand-makes": ("deals", "results"),
        "zrj": ("deals", "games"),
        "zbs": ("deals",),
        "pbn": ("deals", "results", "games"),
        "gib": ("deals", "results"),
        "dds": ("deals", "results"),
        "lin": ("deals", "games"),
    }
    for f in registry.formats():
        assert f.readable
        assert ("games" in f.contents) == (f.games is not None)


def test_a_format_made_from_functions_still_registers():
    """Without this, a user's ``Format(name, extensions, load=..., dump=...)`` would stop working, or take a typo."""
    fmt = registry.Format("raw-test", (), deals=True, results=False, load=lambda data, name: Records())
    assert fmt.readable and not fmt.writable and fmt.contents == ("deals",)
    with pytest.raises(TypeError, match="lode"):
        registry.Format("raw-test", (), deals=True, results=False, lode=None)
