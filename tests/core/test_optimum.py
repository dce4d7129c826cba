"""Par over arrays of tables (ddsbind.optimum, its own C kernel) equals DDS's ``Par`` and ``DealerPar``.

The oracle is DDS itself, called through the DLL layer one table at a time:
on every table of DDS's list1000.txt (real solved deals) for every dealer
and vulnerability, and by hypothesis on arbitrary tables of 0..13 (par is
defined on any table, and DDS answers on any).
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import ddsbind
from ddsbind import dll, optimum
from ddsbind._marshal import text
from ddsbind.database import statistics
from ddsbind.deal import Seat
from ddsbind.errors import InvalidArgumentError
from ddsbind.formats.zrd import encode_zrd
from ddsbind.game import Vulnerability
from tests.support import cli, python_c


def dds_dealer_par(table: np.ndarray, dealer: int, vul: int) -> tuple[int, tuple[str, ...]]:
    """DDS's own ``DealerPar`` of one table: NS score and contract strings."""
    out = dll.parResultsDealer()
    dll.raising.DealerPar(dll.ddTableResults(resTable=table.tolist()), out, dealer, vul)
    contracts = tuple(text(out.contracts[i]) for i in range(out.number))
    return (0 if contracts == ("pass",) else out.score), contracts


def dds_par(table: np.ndarray, vul: int) -> tuple[tuple[str, str], tuple[str, str]]:
    """DDS's own ``Par`` of one table: score strings and contract strings, NS first then EW first."""
    out = dll.parResults()
    dll.raising.Par(dll.ddTableResults(resTable=table.tolist()), out, vul)
    return (text(out.parScore[0]), text(out.parScore[1])), (
        text(out.parContractsString[0]),
        text(out.parContractsString[1]),
    )


def assert_equal_to_dds(tables: np.ndarray) -> None:
    """Every dealer and vulnerability: scores and contract lists as DDS gives them, batch and one-table alike."""
    for vul in range(4):
        ps = optimum.pars(tables, vul)
        scores = optimum.par_scores(tables, vul)
        for i, t in enumerate(tables):
            want = dds_par(t, vul)
            assert (ps[i].score_text, ps[i].contracts) == want, f"Par, table {i + 1} {t.tolist()}, vulnerable {vul}"
            assert [f"NS {scores[i, 0]}", f"EW {scores[i, 1]}"] == list(want[0])
        for dealer in range(4):
            dps = optimum.dealer_pars(tables, dealer, vul)
            fast = optimum.dealer_par_scores(tables, dealer, vul)
            for i, t in enumerate(tables):
                want = dds_dealer_par(t, dealer, vul)
                got = (dps[i].score, dps[i].contracts)
                assert got == want, f"DealerPar, table {i + 1} {t.tolist()}, dealer {dealer}, vulnerable {vul}"
                assert fast[i] == want[0]


@pytest.mark.slow
def test_every_reference_table_every_dealer_and_vulnerability(list1000):
    """Without this, par of real deals (scores or contract lists) could differ from DDS's for some dealer or vul."""
    tables = np.array([h.table for h in list1000], dtype=np.int8)
    assert_equal_to_dds(tables)


@settings(max_examples=40)
@given(arrays(np.int8, st.integers(1, 8).map(lambda n: (n, 5, 4)), elements=st.integers(0, 13)))
def test_arbitrary_tables_equal_dds(tables):
    """Without this, a table no sampled deal has (par is defined on any 0..13 table) could get another par than DDS."""
    assert_equal_to_dds(tables)


def test_per_table_dealers_and_vulnerabilities(list100):
    """Without this, a batch mixing dealers and vulnerabilities (a file's boards) could score one with the wrong one."""
    tables = np.array([h.table for h in list100], dtype=np.int8)
    dealers = np.array([h.dealer for h in list100])
    vuls = np.array([h.vul for h in list100])
    got = optimum.dealer_pars(tables, dealers, vuls)
    assert [(str(p.score), *p.contracts) for p in got] == [h.dealer_par for h in list100]
    assert optimum.dealer_par_scores(tables, dealers, vuls).tolist() == [p.score for p in got]


# A deal where East-West sacrifice: NS make 4H (N or S), EW go two down in 4S doubled, not vulnerable.
SACRIFICE = np.array(
    [
        [3, 8, 3, 8],  # spades: EW take 8 (4S doubled two down)
        [10, 3, 10, 3],  # hearts: NS take 10 (4H)
        [5, 7, 5, 7],
        [6, 6, 6, 6],
        [6, 6, 6, 6],
    ],
    dtype=np.int8,
)


def test_sacrifice_explained():
    """Without this, a player would see "4S*-EW-2" and not what it saves against or what it costs."""
    p = ddsbind.dealer_par(SACRIFICE, "N", "NS")
    assert p.contracts == dds_dealer_par(SACRIFICE, 0, 2)[1]
    (c,) = p.details
    assert c.explain() == "4\u2660X by E or W, down 2, saves against 4\u2665 by N or S: EW -300 vs -620"
    assert (c.score, c.against_score, str(c.against)) == (-300, 620, "4H")
    assert p.to_dict()["details"][0]["saves_against"] == {"contract": "4H", "declarers": "NS", "score": 620}
    both = ddsbind.par(SACRIFICE, "NS")
    assert both.explain("EW") == "4\u2660X by E or W, down 2, saves against 4\u2665 by N or S: EW -300 vs -620"
    assert both.to_dict()["NS"]["score"] == 300


def test_makes_explained():
    """Without this, a make's explanation could name the wrong declarer, overtricks or score."""
    table = np.array([[6, 6, 6, 6]] * 4 + [[10, 3, 9, 3]], dtype=np.int8)
    p = ddsbind.dealer_par(table, Seat.E, Vulnerability.BOTH)
    assert p.contracts == ("3N-N+1",) == dds_dealer_par(table, 1, 1)[1]
    assert p.explain() == "3NT by N, 1 overtrick: NS +630"


def test_passed_out():
    """Without this, a table where nobody makes anything could give a contract or fail in words."""
    table = np.full((5, 4), 6, dtype=np.int8)
    p = ddsbind.dealer_par(table, "W", "none")
    assert (p.score, p.contracts, p.words(), p.explain()) == (0, ("pass",), "passed out: 0", "passed out")
    assert ddsbind.par(table, "none").words() == "passed out: 0"


@pytest.mark.parametrize(
    ("tables", "message"),
    [
        (np.zeros((3, 4, 5), dtype=np.int8), r"shape \(n, 5 strains, 4 declarers\)"),
        (
            np.concatenate([np.zeros((1, 5, 4)), np.full((1, 5, 4), 14)]).astype(np.int8),
            r"DD table 2 .* outside 0\.\.13",
        ),
        (np.full((2, 5, 4), 1.5), "whole trick counts"),
    ],
)
def test_bad_tables_named(tables, message):
    """Without this, a bad table in a batch would give garbage par or a crash instead of naming the table."""
    with pytest.raises(InvalidArgumentError, match=message):
        optimum.dealer_par_scores(tables, "N", "none")


def test_bad_dealer_array_named():
    """Without this, a dealer array of the wrong length or range would read past the tables."""
    tables = np.zeros((3, 5, 4), dtype=np.int8)
    with pytest.raises(InvalidArgumentError, match="dealer: 2 values for 3 tables"):
        optimum.dealer_par_scores(tables, [0, 1], "none")
    with pytest.raises(InvalidArgumentError, match=r"vulnerable numbers are 0\.\.3"):
        optimum.dealer_par_scores(tables, "N", [0, 1, 7])


def test_stats_count_par_of_every_deal_as_dds(list100, tmp_path):
    """Without this, `ddsbind stats` could count sacrifices of a sample only, or miscount them, without --par-sample."""
    tables = np.array([h.table for h in list100], dtype=np.uint8)
    owners = np.array([h.deal.owners() for h in list100], dtype=np.int8)
    path = tmp_path / "hundred.zrd"
    path.write_bytes(encode_zrd(owners, tables).tobytes())
    st = statistics.stats(path).statistics
    assert st is not None and st.par_sample is None and st.par_deals == 100
    dealers = statistics.record_hash(np.frombuffer(path.read_bytes(), np.uint8).reshape(-1, 23)) & np.uint64(3)
    want = np.zeros((4, 5), dtype=np.int64)
    for t, d in zip(tables, dealers.astype(int).tolist(), strict=True):
        want[d, 0] += 1
        for vul in range(4):
            # DDS writes a contract going down "4S*-EW-2", or "4S-E-2" when one player alone takes it.
            want[d, 1 + vul] += any(re.search(r"[NESW]-\d+$", c) for c in dds_dealer_par(t.astype(np.int8), d, vul)[1])
    assert st.par_table.tolist() == want.tolist()
    rates = st.sacrifice_rates()
    assert rates is not None
    p, se = rates["None"]
    assert p == pytest.approx(want[:, 1].sum() / 100) and se == pytest.approx(np.sqrt(p * (1 - p) / 100))


def test_table_json_explains_par():
    """Without this, a program reading `ddsbind table --json` would get no par, or a sacrifice without what it saves."""
    pbn = "E:QJT5432.T.6.QJ82 .J97543.K7532.94 87.A62.QJT4.AT75 AK96.KQ8.A98.K63"
    r = cli("table", pbn, "--vulnerable", "NS", "--dealer", "N", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["dealer_par"]["contracts"] == ["4S*-EW-1"]
    (c,) = doc["dealer_par"]["details"]
    assert c["saves_against"] == {"contract": "4H", "declarers": "NS", "score": 620}
    assert c["words"] == "4\u2660X by E or W, down 1, saves against 4\u2665 by N or S: EW -100 vs -620"
    assert doc["par"]["NS"]["contracts"] == "NS:EW 4Sx" and doc["table"]["H"]["N"] == 10
    text = cli("table", pbn, "--vulnerable", "NS", "--dealer", "N").output
    assert "explained: 4\u2660X by E or W, down 1, saves against 4\u2665 by N or S: EW -100 vs -620" in text


def test_library_par_is_ddss_and_never_loads_dds(list100, tmp_path):
    """Without this, library par() could differ from DDS's DealerPar, or load DDS and crawl a table at a time."""
    tables = np.array([h.table for h in list100], dtype=np.uint8)
    owners = np.array([h.deal.owners() for h in list100], dtype=np.int8)
    path = tmp_path / "hundred.zrd"
    path.write_bytes(encode_zrd(owners, tables).tobytes())
    want = sum(dds_dealer_par(t.astype(np.int8), 1, 3)[0] >= 100 for t in tables)
    proc = python_c(f"""
        import sys
        from ddsbind.dealer.statistics import simulate
        script = "dealer east\\nvulnerable ew\\ncondition par(ns) >= 100"
        report = simulate(script, ["3NN"], library={str(path)!r}, threads=2)
        print(report.deals, [m for m in ("ddsbind._dds", "ddsbind._binding", "ddsbind.dll") if m in sys.modules])
    """)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"{want} []\n"
