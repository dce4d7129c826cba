"""Writing a run's deals (ddsbind.dealer.files.write_deals): the script's dealer and vulnerability in PBN and LIN.

Oracle: the files read back with the format's own reader (``ddsbind.formats.lin.parse_lin``,
``ddsbind.formats.pbn.parse_pbn``) and the script's words.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ddsbind.cli import main
from ddsbind.deal import Seat, Vulnerability
from ddsbind.dealer.dealing import deal_batch
from ddsbind.dealer.files import write_deals
from ddsbind.formats import lin
from ddsbind.formats.pbn import parse_pbn


def test_lin_output_carries_the_scripts_dealer_and_vulnerability(tmp_path: Path) -> None:
    """ddsbind dealer -o boards.lin with 'dealer east' and 'vulnerable NS': every board says E and NS, as PBN does."""
    script = tmp_path / "s.dl"
    script.write_text("generate 100\nproduce 5\ndealer east\nvulnerable NS\naction printoneline\n")
    out = tmp_path / "boards.lin"
    result = CliRunner().invoke(main, ["dealer", "-s", "1", "-v", "-o", str(out), str(script)])
    assert result.exit_code == 0, result.output
    games = lin.parse_lin(out.read_text())
    assert len(games) == 5
    assert {(g.dealer, g.vulnerable) for g in games} == {(Seat.E, Vulnerability.NS)}
    assert [g.board for g in games] == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("name", ["boards.lin", "boards.pbn"])
def test_without_a_script_dealer_boards_follow_the_cycle(tmp_path: Path, name: str) -> None:
    """No dealer or vulnerable given: board 2 is dealt by East, NS vulnerable (the 16-board cycle), in PBN and LIN."""
    path = tmp_path / name
    write_deals(path, deal_batch(1, 0, size=3))
    if name.endswith(".lin"):
        got = [(g.dealer, g.vulnerable) for g in lin.parse_lin(path.read_text())]
    else:
        got = [
            (Seat.parse(b.tags["Dealer"]), Vulnerability.parse(b.tags["Vulnerable"]))
            for b in parse_pbn(path.read_bytes())
        ]
    assert got == [(Seat.N, Vulnerability.NONE), (Seat.E, Vulnerability.NS), (Seat.S, Vulnerability.EW)]


def test_pbn_and_lin_name_the_same_dealer_and_vulnerability(tmp_path: Path) -> None:
    """write_deals(dealer=W, vulnerable='all') gives W and All in PBN and in LIN alike: one source of both."""
    owners = deal_batch(2, 0, size=4)
    write_deals(tmp_path / "a.pbn", owners, dealer="W", vulnerable="all")
    write_deals(tmp_path / "a.lin", owners, dealer="W", vulnerable="all")
    pbn_boards = parse_pbn((tmp_path / "a.pbn").read_bytes())
    lin_games = lin.parse_lin((tmp_path / "a.lin").read_text())
    assert {(Seat.parse(b.tags["Dealer"]), Vulnerability.parse(b.tags["Vulnerable"])) for b in pbn_boards} == {
        (Seat.W, Vulnerability.BOTH)
    }
    assert {(g.dealer, g.vulnerable) for g in lin_games} == {(Seat.W, Vulnerability.BOTH)}
