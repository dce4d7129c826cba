"""Par in words: DDS's par text (``NS:EW 45S``, ``4S*-EW-1``) as a person reads it, in the library and the CLI."""

from __future__ import annotations

import pytest

import ddsbind
from ddsbind.solver import DealerPar, Par
from tests.support import cli

# list100's first hand (DDS's hands/list100.txt): PAR "NS -110" "EW 110" "NS:EW 2S" "EW:EW 2S", PAR2 "-110" "2S-EW".
PBN = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"


@pytest.mark.parametrize(
    ("scores", "contracts", "first", "words"),
    [
        (("NS -110", "EW 110"), ("NS:EW 2S", "EW:EW 2S"), "NS", "2♠ by East or West (either partner): EW +110"),
        (("NS -450", "EW 450"), ("NS:EW 45H", "EW:EW 45H"), "NS", "4♥ or 5♥ by East or West (either partner): EW +450"),
        (("NS -660", "EW 660"), ("NS:W 345N", "EW:W 345N"), "EW", "3NT, 4NT or 5NT by West: EW +660"),
        (("NS -100", "EW 100"), ("NS:N 3Sx", "EW:N 3Sx"), "NS", "3♠ doubled by North: EW +100"),
        (
            ("NS -500", "EW 500"),
            ("NS:NS 4Nx,NS 5Cx", "EW:NS 4Nx,NS 5Cx"),
            "NS",
            "4NT doubled by North or South (either partner); or 5♣ doubled by North or South (either partner): EW +500",
        ),
        (("NS 420", "EW -420"), ("NS:S 4H", "EW:S 4H"), "EW", "4♥ by South: NS +420"),
        (("NS 0", "EW 0"), ("NS:", "EW:"), "NS", "passed out: 0"),
    ],
)
def test_par_words(scores, contracts, first, words):
    """Without this, users would have to decode DDS's "NS:EW 45H" themselves (or get it wrong)."""
    assert Par(scores, contracts).words(first) == words


@pytest.mark.parametrize(
    ("score", "contracts", "words"),
    [
        (-110, ("2S-EW",), "2♠ by East or West (either partner): EW +110"),
        (100, ("4S*-EW-1",), "4♠ doubled by East or West (either partner), 1 down: NS +100"),
        (460, ("3N-N+2",), "3NT by North, 2 overtricks: NS +460"),
        (
            -300,
            ("5H*-NS-2", "5D*-S-2"),
            "5♥ doubled by North or South (either partner), 2 down; or 5♦ doubled by South, 2 down: EW +300",
        ),
        (0, ("",), "passed out: 0"),
    ],
)
def test_dealer_par_words(score, contracts, words):
    """Without this, DealerPar's "4S*-EW-1" would stay unreadable to players."""
    assert DealerPar(score, contracts).words() == words


def test_every_reference_par_reads(list100):
    """Without this, a par string of a shape DDS writes (list100's PAR/PAR2 lines) could fail or lose a contract."""
    for h in list100:
        if h.par is None or h.dealer_par is None:
            continue
        p = Par(h.par[:2], h.par[2:])
        for k, first in enumerate(("NS", "EW")):
            text = p.words(first)
            items = [i for i in h.par[2 + k].partition(":")[2].split(",") if i]
            assert text.count(" by ") == len(items)
            score = int(h.par[k].split()[-1]) * (1 if k == 0 else -1)
            assert text.endswith("0" if score == 0 else f"+{abs(score)}")
        dp = DealerPar(int(h.dealer_par[0]), tuple(h.dealer_par[1:]))
        assert dp.words().count(" by ") == sum(1 for c in dp.contracts if c)


def test_cli_table_prints_par_in_words():
    """Without this, `ddsbind table` would print only DDS's terse par text."""
    result = cli("table", PBN, "--vulnerable", "none", "--dealer", "N")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    k = lines.index("Par (None): NS -110  NS:EW 2S")
    assert lines[k + 1] == "  that is: 2♠ by East or West (either partner): EW +110"
    table = ddsbind.dd_table(PBN)
    assert ddsbind.par(table, "none").words() in result.output
    assert f"  that is: {ddsbind.dealer_par(table, 'N', 'none').words()}" in lines
