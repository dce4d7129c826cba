"""Each format one object of the table: what it holds said once, and its own writing told by its content."""

from __future__ import annotations

import numpy as np
import pytest

from ddsbind.deal import Seat, Vulnerability
from ddsbind.errors import FormatError
from ddsbind.formats import registry
from ddsbind.formats.registry import Records
from tests.support import reference_file

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


def _owners(n: int) -> np.ndarray:
    rng = np.random.default_rng(3)
    return rng.permuted(np.tile(np.repeat(np.arange(4, dtype=np.int8), 13), (n, 1)), axis=1)


def test_one_dealer_and_vulnerability_for_every_record_or_one_each():
    """Without this, a script's one dealer and a file's dealer per deal were two fields every writer had to read."""
    owners = _owners(3)
    one = Records(owners, dealers=Seat.S, vulnerabilities=Vulnerability.EW)
    assert one.dealers is not None and one.vulnerabilities is not None
    assert (one.dealers.tolist(), one.vulnerabilities.tolist()) == ([2, 2, 2], [3, 3, 3])  # DDS's numbers
    each = Records(owners, dealers=[Seat.S] * 3, vulnerabilities=np.full(3, Vulnerability.EW, np.int8))
    pbn, lin = registry.get("pbn"), registry.get("lin")
    assert pbn.dump is not None and lin.dump is not None
    text = pbn.dump(one)
    assert text == pbn.dump(each) and text.count(b'[Dealer "S"]') == 3 and text.count(b'[Vulnerable "EW"]') == 3
    assert lin.dump(one) == lin.dump(each) and lin.dump(one).count(b"md|1") == 3  # LIN's 1 is South
    with pytest.warns(DeprecationWarning, match=r"Records\(dealer=..., vulnerable=...\) is now Records\(dealers="):
        old = Records(owners, dealer=Seat.S, vulnerable=Vulnerability.EW)
    assert pbn.dump(old) == text
    cycle = pbn.dump(Records(owners))  # none given: the board cycle, N E S dealing boards 1 2 3
    assert [line for line in cycle.splitlines() if line.startswith(b"[Dealer")] == [
        b'[Dealer "N"]',
        b'[Dealer "E"]',
        b'[Dealer "S"]',
    ]
    with pytest.raises(FormatError, match=r"dealers: 2 values for 3 records"):
        Records(owners, dealers=[Seat.N, Seat.E])


def test_dds_reference_hands_keep_their_dealers_in_lin_as_in_pbn():
    """Without this, DDS's reference hands written as LIN got the board cycle's dealer and vulnerability, though
    the same hands written as PBN keep each hand's own (one field, read by every writer)."""
    from ddsbind.formats.ddsref import read_reference
    from ddsbind.formats.lin import parse_lin

    src = reference_file("list10.txt")
    hands = read_reference(src)
    dds, lin = registry.get("dds"), registry.get("lin")
    assert dds.load is not None and lin.dump is not None
    games = parse_lin(lin.dump(dds.load(src.read_bytes(), str(src))))
    assert [(g.dealer, g.vulnerable) for g in games] == [(Seat(h.dealer), Vulnerability(h.vul)) for h in hands]
    assert any(g.dealer != Seat.dealer_of_board(k + 1) for k, g in enumerate(games))  # not the cycle's
