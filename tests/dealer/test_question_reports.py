"""Contract reports that solve only what they report: exact tricks per contract, or make-or-fail by target search.

Oracle: whole DD tables of the same deals (the pool's table route) through
``contract_report``, the report as it was computed before the planner.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from ddsbind.cli import main
from ddsbind.dealer import deal_batch
from ddsbind.dealer.statistics import contract_report, contract_results, results_report, simulate, tables_of_owners
from ddsbind.errors import ContractError
from tests.support import cli

CONTRACTS = ["3NS", "4SS", "3NN", "2HE", "5CW"]


@pytest.fixture(scope="module")
def deals_and_tables():
    deals = deal_batch(31, 0, size=10)
    return deals, tables_of_owners(deals, threads=2)


def test_contract_results_equal_the_tables(deals_and_tables):
    """Without this, a report's tricks or make rates could differ from the deals' DD tables."""
    deals, tables = deals_and_tables
    exact = contract_results(deals, CONTRACTS, threads=2)
    made = contract_results(deals, CONTRACTS, makes_only=True, threads=2)
    for i, text in enumerate(CONTRACTS):
        level, strain, declarer = int(text[0]), "SHDCN".index(text[1]), "NESW".index(text[2])
        assert exact[:, i].tolist() == tables[:, strain, declarer].tolist(), text
        assert made[:, i].tolist() == (tables[:, strain, declarer] >= level + 6).astype(int).tolist(), text


def test_reports_from_results_equal_reports_from_tables(deals_and_tables):
    """Without this, the cheap report would print other make rates, means or IMPs than the table report."""
    deals, tables = deals_and_tables
    full = contract_report(tables, CONTRACTS, "ns")
    exact = results_report(contract_results(deals, CONTRACTS, threads=2), CONTRACTS, "ns")
    made = results_report(contract_results(deals, CONTRACTS, makes_only=True, threads=2), CONTRACTS, makes_only=True)
    assert exact.render("json") == full.render("json")
    assert made.make == full.make and made.make_se == full.make_se
    document = json.loads(made.render("json"))
    assert [c["make"] for c in document["contracts"]] == full.make
    assert "nan" not in made.render("json").lower() and "nan" not in made.render("csv").lower()
    assert made.render("text").splitlines()[0] == "10 deals (make or fail only)"


def test_known_results_are_not_solved_again(deals_and_tables, monkeypatch):
    """Without this, a report after a script that already solved tricks() would pay for them twice."""
    from ddsbind import pool as pool_module

    deals, tables = deals_and_tables
    known = np.full_like(tables, -1)
    known[:6] = tables[:6]  # the first six deals fully known
    asked: list[int] = []
    real = pool_module.SolverPool.answers

    def spy(self, masks, questions, **kwargs):
        asked.append(len(masks))
        return real(self, masks, questions, **kwargs)

    monkeypatch.setattr(pool_module.SolverPool, "answers", spy)
    got = contract_results(deals, CONTRACTS, known=known, threads=1)
    assert asked == [4]
    assert got[:, 0].tolist() == tables[:, 4, 2].tolist()
    assert contract_results(deals, CONTRACTS, makes_only=True, known=tables, threads=1)[:, 1].tolist() == (
        (tables[:, 0, 2] >= 10).astype(int).tolist()
    )
    assert asked == [4]  # fully known: no pool call at all


def test_simulate_makes_only_agrees_with_the_full_report():
    """Without this, simulate(makes_only=True) could report another make rate than the full simulation."""
    script = "generate 3000\nproduce 8\ncondition hcp(north) + hcp(south) >= 25\naction printoneline\n"
    full = simulate(script, ["3NS", "4SN"], 5, threads=2)
    cheap = simulate(script, ["3NS", "4SN"], 5, threads=2, makes_only=True)
    assert cheap.deals == full.deals == 8
    assert cheap.make == full.make
    assert cheap.makes_only and not full.makes_only
    assert all(math.isnan(m) for m in cheap.mean_tricks)
    with pytest.raises(ContractError):  # one fault, one class: the contract's, not the dealer's
        simulate(script, ["9NS"], 5)


def test_cli_makes_only_report_and_refusals(tmp_path: Path):
    """Without this, --makes-only could print another make rate than --contract, or plot an unknown distribution."""
    script = tmp_path / "s.dl"
    script.write_text("generate 3000\nproduce 6\ncondition hcp(north) + hcp(south) >= 26\naction printoneline\n")
    runner = CliRunner()
    args = ["dealer", str(script), "-s", "3", "--threads", "2", "--contract", "3NS", "--json"]
    full = runner.invoke(main, args)
    cheap = runner.invoke(main, [*args, "--makes-only"])
    assert full.exit_code == 0 and cheap.exit_code == 0, (full.output, cheap.output)
    full_doc, cheap_doc = json.loads(full.stdout), json.loads(cheap.stdout)
    assert cheap_doc["contracts"][0]["make"] == full_doc["contracts"][0]["make"]
    assert "mean_tricks" in full_doc["contracts"][0] and "mean_tricks" not in cheap_doc["contracts"][0]
    refused = runner.invoke(main, [*args[:-1], "--makes-only", "--plot", str(tmp_path / "p.png")])
    assert refused.exit_code == 1 and "--makes-only" in refused.stderr
    assert not (tmp_path / "p.png").exists()


def test_cli_saves_whole_tables_for_a_script_with_tricks(tmp_path: Path):
    """Without this, -o deals.zrd after a script with tricks() would lose the tables it used to carry."""
    from ddsbind.formats.files import read_records

    script = tmp_path / "s.dl"
    script.write_text("generate 2000\nproduce 3\ncondition hcp(north) > 14 && tricks(north, notrump) >= 7\n")
    out = tmp_path / "d.zrd"
    result = cli("dealer", str(script), "-s", "2", "--threads", "2", "-o", str(out))
    assert result.exit_code == 0, result.output
    chunk = read_records(out)
    assert np.array_equal(np.asarray(chunk.tables), tables_of_owners(np.asarray(chunk.owners), threads=2))
    assert (np.asarray(chunk.tables)[:, 4, 0] >= 7).all()
