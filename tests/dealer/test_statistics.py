"""Statistics: contract reports, opening-lead tables, scores/IMPs, deals written through the format registry."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from ddsbind.dealer import Predeal, deal_batch, imps, score, write_deals
from ddsbind.dealer.statistics import contract_name, contract_report, declared, lead_table, tables_of_owners
from ddsbind.errors import ContractError, InvalidArgumentError
from ddsbind.scoring import Contract
from tests.support import ask_dds, cli


def test_scores_of_known_contracts():
    """Duplicate scores: partscores, games, slams, overtricks, undertricks at both vulnerabilities."""
    assert score(False, 3, 4, [9, 10, 7]).tolist() == [400, 430, -100]
    assert score(True, 4, 0, [10, 11, 6]).tolist() == [620, 650, -400]
    assert score(False, 2, 3, 8).tolist() == 90
    assert score(True, 6, 2, 12).tolist() == 1370
    assert score(False, 7, 4, 13).tolist() == 1520
    assert score(False, 5, 3, 11).tolist() == 400


def test_imp_scale_boundaries():
    """IMPs change exactly at the WBF scale's boundaries, with the difference's sign."""
    assert imps([10, 20, 40, 50, 80, 90, 420, 430, 3990, 4000, -4000, -10]).tolist() == [
        0,
        1,
        1,
        2,
        2,
        3,
        9,
        10,
        23,
        24,
        -24,
        0,
    ]


def test_contract_report_on_known_tables():
    """Make rate, its standard error, mean tricks, distribution and IMP difference from hand-made tables."""
    tables = np.zeros((4, 5, 4), dtype=np.int8)
    tables[:, 4, 2] = [9, 9, 8, 10]  # NT by South
    tables[:, 0, 2] = [10, 9, 10, 11]  # spades by South
    report = contract_report(tables, ["3NS", "4SS"], "none")
    assert report.make == [0.75, 0.75]
    assert math.isclose(report.make_se[0], math.sqrt(0.75 * 0.25 / 4))
    assert report.mean_tricks == [9.0, 10.0]
    assert report.distribution[0, 8:11].tolist() == [1, 2, 1]
    assert report.mean_score == [(400 + 400 - 50 + 430) / 4, (420 - 50 + 420 + 450) / 4]
    diff = report.differences[0]
    assert diff["score"] == ((420 - 400) + (-50 - 400) + (420 + 50) + (450 - 430)) / 4
    assert diff["imps"] == (1 - 10 + 10 + 1) / 4
    assert json.loads(report.render("json"))["contracts"][1]["contract"] == "4SS"
    assert report.render("csv").splitlines()[1].startswith("3NTS,4,0.750000")


def test_contract_parsing():
    """A simulation's contracts read as level, strain, declarer; nonsense, or no declarer, is refused."""
    assert declared("3nts") == Contract(3, 4, declarer=2)
    assert contract_name(declared("4SN")) == "4SN" and contract_name(declared("4SXN")) == "4SXN"
    with pytest.raises(ContractError, match="not a level 1-7"):
        declared("8NS")
    with pytest.raises(ContractError, match="3NS or 4SN"):
        declared("3NT")


@pytest.mark.slow
def test_lead_table_matches_dds(dds_oracle, tmp_path: Path):
    """Each of West's 13 leads against 3NT by South: its mean tricks and set rate are those of DDS's SolveBoard
    scores for that card over the deals, asked of DDS from C (tests/dds_solve_oracle.c)."""
    pre = Predeal.from_hands({"W": "SKJ4,HQT62,DA93,C752"})
    deals = deal_batch(8, 0, pre, size=6)
    table = lead_table(deals, "3NS", threads=2)
    assert table.held == [6] * 13
    ranks = "AKQJT98765432"  # owner column c = 13 * suit + (14 - rank): A first

    def pbn(row: np.ndarray) -> str:
        return "N:" + " ".join(
            ".".join("".join(ranks[i] for i in range(13) if row[13 * suit + i] == seat) for suit in range(4))
            for seat in range(4)
        )

    answers = ask_dds(dds_oracle, [f"4 3 -1 3 1 0 0 0 0 0 0 0 {pbn(row)}" for row in deals], tmp_path)
    tricks: dict[str, list[int]] = {card: [] for card in table.cards}
    for answer in answers:
        assert answer[0] == "ok", answer
        for i in range(int(answer[2])):
            suit, rank, equals, score = map(int, answer[3 + 4 * i : 7 + 4 * i])
            for r in [rank, *(r for r in range(2, 15) if equals >> r & 1)]:
                tricks["SHDC"[suit] + ranks[14 - r]].append(13 - score)
    for k, card in enumerate(table.cards):
        assert len(tricks[card]) == 6, card
        assert math.isclose(table.mean_tricks[k], np.mean(tricks[card])), card
        assert math.isclose(table.set_rate[k], np.mean(np.array(tricks[card]) < 9)), card


@pytest.mark.parametrize("suffix", [".pbn", ".zbd", ".zrd"])
def test_deals_written_through_the_registry_read_back(tmp_path: Path, suffix: str):
    """Produced deals (and tables for ZRD) saved as PBN/ZBD/ZRD read back the same."""
    from ddsbind.formats.convert import read_any

    deals = deal_batch(2, 0, size=5)
    tables = np.arange(5 * 20, dtype=np.int8).reshape(5, 5, 4) % 14
    path = tmp_path / f"d{suffix}"
    write_deals(path, deals, tables if suffix == ".zrd" else None)
    back = list(read_any(path))
    owners = np.concatenate([np.asarray(b[0]) for b in back])
    assert np.array_equal(owners, deals)
    if suffix == ".zrd":
        assert np.array_equal(np.concatenate([np.asarray(b[1]) for b in back]), tables)


@pytest.mark.parametrize(
    ("script_line", "tag"),
    [("vulnerable none", "None"), ("vulnerable NS", "NS"), ("vulnerable ew", "EW"), ("vulnerable all", "All")],
)
def test_written_pbn_carries_the_script_vulnerability(tmp_path: Path, script_line: str, tag: str):
    """A script's `vulnerable all` (or a Vulnerability given in Python) is written as PBN's "All", not as "NS"."""
    from ddsbind.dealer import parse
    from ddsbind.game import Vulnerability

    script = parse(f"{script_line}\ndealer east\nproduce 2\n")
    assert isinstance(script.vulnerable, Vulnerability)
    path = tmp_path / "deals.pbn"
    write_deals(path, deal_batch(3, 0, size=2), dealer=script.dealer, vulnerable=script.vulnerable)
    text = path.read_text()
    assert text.count(f'[Vulnerable "{tag}"]') == 2 and text.count('[Dealer "E"]') == 2
    write_deals(path, deal_batch(3, 0, size=1), vulnerable=Vulnerability.BOTH)
    assert '[Vulnerable "All"]' in path.read_text()


@pytest.mark.slow
def test_cli_statistics_and_zrd_output(tmp_path: Path):
    """`ddsbind dealer --contract --json -o x.zrd` reports make rates equal to the solved tables saved."""
    from ddsbind.formats.files import read_records

    script = tmp_path / "s.dl"
    script.write_text(
        "produce 6\npredeal south SAQ542, HKJ87, D32, CAK\ncondition hcp(north) >= 10\naction average hcp(north)\n"
    )
    out = tmp_path / "x.zrd"
    result = cli(
        "dealer",
        str(script),
        "-s",
        "1",
        "--threads",
        "2",
        "--contract",
        "4SS",
        "--contract",
        "3NS",
        "--json",
        "-o",
        str(out),
        "--plot",
        str(tmp_path / "t.png"),
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)  # stdout is the one JSON document, dealer's text left out
    chunk = read_records(out)
    tables = np.asarray(chunk.tables)
    assert tables.shape == (6, 5, 4)
    assert report["contracts"][0]["make"] == float(np.mean(tables[:, 0, 2] >= 10))
    assert np.array_equal(tables, tables_of_owners(chunk.owners))
    assert (tmp_path / "t.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_docstring_examples():
    """The examples in the dealer modules' docstrings run as shown."""
    import doctest

    from ddsbind.dealer import dealing, language, scoring, statistics

    for module in (dealing, language, scoring, statistics):
        assert doctest.testmod(module).failed == 0, module.__name__


@pytest.mark.slow
def test_simulate_from_python(dds_oracle, tmp_path: Path):
    """simulate(): a script and contracts in, make rates out, equal to what DDS (asked from C) says South takes
    in spades on the script's deals with West on lead."""
    from ddsbind.dealer import parse, simulate
    from ddsbind.dealer.run import run  # (the package attribute `run` turns into the submodule once it is imported)

    text = "produce 6\npredeal south SAQ542, HKJ87, D32, CAK\ncondition hcp(north) >= 12\n"
    report = simulate(text, ["4SS", "6SS"], 3, threads=2)
    deals = run(parse(text), 3, keep=True).deals
    ranks = "AKQJT98765432"  # owner column c = 13 * suit + (14 - rank): A first
    pbns = [
        "N:"
        + " ".join(
            ".".join("".join(ranks[i] for i in range(13) if row[13 * suit + i] == seat) for suit in range(4))
            for seat in range(4)
        )
        for row in deals
    ]
    answers = ask_dds(dds_oracle, [f"0 3 -1 1 1 0 0 0 0 0 0 0 {p}" for p in pbns], tmp_path)
    south = np.array([13 - int(a[6]) for a in answers])  # DDS's score is the defence's tricks
    assert report.deals == 6
    assert report.make == [float(np.mean(south >= 10)), float(np.mean(south >= 12))]


def test_contract_report_takes_every_spelling_of_vulnerability_and_names_a_bad_one() -> None:
    """PBN's and the CLI's spellings score alike; a bad one is a ddsbind.Error naming it, not a KeyError."""

    t = np.zeros((2, 5, 4), dtype=np.int8)
    t[:, 4, 2] = [9, 8]
    assert contract_report(t, ["3NS"], "love").mean_score == contract_report(t, ["3NS"], "none").mean_score
    assert contract_report(t, ["3NS"], "All").mean_score == contract_report(t, ["3NS"], "ns").mean_score
    assert contract_report(t, ["3NS"], "ew").mean_score == contract_report(t, ["3NS"], "none").mean_score
    with pytest.raises(InvalidArgumentError, match="sideways"):
        contract_report(t, ["3NS"], "sideways")
