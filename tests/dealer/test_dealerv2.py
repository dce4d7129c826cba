"""DealerV2's extensions to the dealer language: script parameters, evalcontract, csvrpt, export.

The oracles are hand derivations of DealerV2's user guide and ddsbind's own
independent pieces (the Laws' scores in ``ddsbind.scoring``, the deals a
run prints).  ``ltc()`` is tested in ``tests/core/test_hands.py``.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from ddsbind.dealer import DealerError
from ddsbind.dealer.language import substitute_parameters
from tests.support import REPO, cli, one_error, oneline_hands, script_file

# --- $0..$9 ------------------------------------------------------------------------------------


def test_parameters_replace_dollar_digits_from_the_command_line(tmp_path: Path) -> None:
    """-P N=TEXT fills $N: one DealerV2 script studies many conditions without being edited."""
    text = 'produce $0\ncondition hcp(north) >= $1\naction printes("at least $1: ", hcp(north), \\n)\n'
    path = script_file(tmp_path, text)
    result = cli("dealer", path, "-s", "5", "-v", "-P", "0=4", "--param", "1=19")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 4
    for line in lines:
        label, value = line.split(": ")
        assert label == "at least 19" and int(value) >= 19


def test_a_missing_parameter_is_refused_naming_its_line(tmp_path: Path) -> None:
    """A script using $1 without -P 1=... stops before dealing, naming the line, instead of a parse error."""
    path = script_file(tmp_path, "produce 3\ncondition hcp(north) >= $1\n")
    one_error(
        cli("dealer", path, "-s", "1", "-P", "0=3"), r"s\.dl:2: \$1 is used but not given \(give it with -P 1=VALUE\)"
    )


@pytest.mark.parametrize("bad", ["x=3", "10=3", "3"])
def test_a_malformed_parameter_is_a_usage_error(tmp_path: Path, bad: str) -> None:
    """-P without N=TEXT (N one digit) is refused by name: dealer's -0/-2/-3 keep their meaning."""
    result = cli("dealer", script_file(tmp_path, "produce 1\n"), "-P", bad)
    assert result.exit_code == 2
    assert "N=TEXT with N a digit 0..9" in result.stderr


def test_substitution_is_textual_and_not_rescanned() -> None:
    """$N's text goes in as written, once: a value containing '$1' is not replaced again."""
    assert substitute_parameters("a $0 b $0 $1", {0: "$1", 1: "x"}) == "a $1 b $1 x"
    with pytest.raises(DealerError, match=r"^s:3: \$7 is used"):
        substitute_parameters("\n\n$7", {}, "s")


# --- evalcontract --------------------------------------------------------------------------------


def _run_with_tricks(text: str, west_hearts: list[int]) -> str:
    """Run ``text`` over len(west_hearts) deals whose DD tables say West takes those tricks in hearts."""
    import io

    import numpy as np

    from ddsbind.dealer import parse, run
    from ddsbind.dealer.dealing import deal_batch
    from ddsbind.dealer.run import finish

    deals = deal_batch(1, 0, size=len(west_hearts))
    known = {deals[i].tobytes(): t for i, t in enumerate(west_hearts)}

    def solve(owners: np.ndarray) -> np.ndarray:
        tables = np.zeros((len(owners), 5, 4), dtype=np.int8)
        for k, row in enumerate(owners):
            tables[k, 1, 3] = known[row.tobytes()]
        return tables

    script = parse(text)
    out = io.StringIO()
    result = run(script, 1, deals=deals, solve=solve, out=out)
    finish(script, result, out, summary=False)
    return out.getvalue()


def test_evalcontract_doubled_and_undoubled_reports_worked_by_hand() -> None:
    """evalcontract's average, made/failed and missed-game IMPs equal the Laws worked by hand for 4 deals.

    Oracle for the missed IMPs: DealerV2's source (showevalcontract), which compares undoubled scores.
    """
    text = "action evalcontract(EW, z3Hx, nv), evalcontract(EW, z2H, nv)"
    got = _run_with_tricks(text, [9, 10, 8, 11]).splitlines()
    # 3HX nv: 9 tricks 530, 10 630, 8 -100, 11 730 -> 447.50; missed game as DealerV2 counts it, undoubled:
    # 4H 420 - 3H 170 and 450 - 200 are 6 IMPs each: 12 / 4 deals.
    assert got[0] == "Contract 3HX NV by EW Average Result = 447.50, Made pct=75.00, Fail pct=25.00"
    assert got[1] == (
        " Missed Game_pct=50.00, Missed Slam_pct=0.00, Missed Game Imps/board=3.00, Missed Slam Imps/board=0.00"
    )
    # 2H nv: 140, 170, 110, 200 -> 155.00; 4H makes twice, 420-170 and 450-200 are 6 IMPs each: 12 / 4 deals.
    assert got[2] == "Contract 2H NV by EW Average Result = 155.00, Made pct=100.00, Fail pct=0.00"
    assert got[3] == (
        " Missed Game_pct=50.00, Missed Slam_pct=0.00, Missed Game Imps/board=3.00, Missed Slam Imps/board=0.00"
    )


def test_evalcontract_redoubled_vulnerable_and_slam() -> None:
    """A redoubled vulnerable contract scores by the Laws; a missed slam is counted with DealerV2's IMPs (source)."""
    got = _run_with_tricks("action evalcontract(EW, z4Hxx, vul)", [12, 9]).splitlines()
    # 4HXX vul: 12 tricks 4*30*4=480 + 500 game + 100 + 2 overtricks * 400 = 1880; 9 tricks: one down xx vul -400.
    # Missed slam, undoubled as in DealerV2: 6H vul 1430 - 4H vul with 12 tricks 680 = 750, 13 IMPs: 13 / 2 deals.
    assert got[0] == "Contract 4HXX V by EW Average Result = 740.00, Made pct=50.00, Fail pct=50.00"
    assert got[1] == (
        " Missed Game_pct=0.00, Missed Slam_pct=50.00, Missed Game Imps/board=0.00, Missed Slam Imps/board=6.50"
    )


def test_evalcontract_agrees_with_score_of_dds_tricks(tmp_path: Path) -> None:
    """evalcontract's average equals averaging score(z-contract, tricks(west, ...)): one scoring, one solver."""
    text = (
        "produce 20\ncondition hearts(east) + hearts(west) >= 8\n"
        "action evalcontract(EW, z3Hxx, nv), average score(nv, z3Hxx, tricks(west, hearts))\n"
    )
    result = cli("dealer", script_file(tmp_path, text), "-s", "3", "-v")
    assert result.exit_code == 0, result.output
    first, _second, average = result.stdout.splitlines()[:3]
    assert first.startswith("Contract 3HXX NV by EW Average Result = ")
    assert float(first.split("= ")[1].split(",")[0]) == pytest.approx(float(average), abs=0.005)


def test_evalcontract_over_no_deals_prints_nan() -> None:
    """No deal produced: evalcontract prints -nan, as average does, not a division error."""
    assert "Average Result = -nan, Made pct=-nan" in _run_with_tricks("action evalcontract(NS, z3N, vul)", [])


@pytest.mark.parametrize(
    "bad", ["evalcontract(NS, z8N, vul)", "evalcontract(north, z3N, vul)", "evalcontract(NS, 3N, vul)"]
)
def test_evalcontract_bad_arguments_are_refused_naming_the_line(tmp_path: Path, bad: str) -> None:
    """A bad side or contract is one error line naming the script's line and what is expected, before dealing."""
    result = cli("dealer", script_file(tmp_path, f"produce 1\naction {bad}\n"), "-s", "1")
    one_error(result, r"s\.dl:2:\d+: unexpected .*expected (a side|a DealerV2 contract)")


# --- csvrpt / printrpt -------------------------------------------------------------------------


def test_csvrpt_fields_hands_strings_and_expressions(tmp_path: Path) -> None:
    """csvrpt writes one CSV line a deal: quoted label, value, side's hands, one hand: spreadsheets read them."""
    text = (
        "produce 3\ncondition hcp(north) >= 12\n"
        'action printoneline, csvrpt("N+S it\'s", hcp(north) + hcp(south), NS, west)\n'
    )
    path = script_file(tmp_path, text)
    result = cli("dealer", path, "-s", "4", "-v", "-C", str(tmp_path / "r.csv"))
    assert result.exit_code == 0, result.output
    deals = oneline_hands(result.stdout)
    lines = (tmp_path / "r.csv").read_text().splitlines()
    assert len(deals) == len(lines) == 3
    for (north, _east, south, west), line in zip(deals, lines, strict=True):
        label, total, side, one = line.split(",")
        assert label == "'N+S it''s'"
        hcp = sum({"A": 4, "K": 3, "Q": 2, "J": 1}.get(c, 0) for c in north + south)
        assert int(total) == hcp
        assert side == f"n {north} s {south}" and one == f"w {west}"


def test_csv_file_is_appended_to_unless_w_prefix(tmp_path: Path) -> None:
    """-C FILE appends (headings written first survive), -C w:FILE replaces: as DealerV2's -C."""
    path = script_file(tmp_path, 'produce 2\naction csvrpt("x", 1)\n')
    target = tmp_path / "r.csv"
    target.write_text("heading\n")
    assert cli("dealer", path, "-s", "1", "-C", str(target)).exit_code == 0
    assert target.read_text() == "heading\n'x',1\n'x',1\n"
    assert cli("dealer", path, "-s", "1", "-C", f"w:{target}").exit_code == 0
    assert target.read_text() == "'x',1\n'x',1\n"
    one_error(cli("dealer", path, "-s", "1", "-C", str(tmp_path / "no" / "r.csv")), r"-C .*r\.csv: No such file")


def test_csvrpt_without_file_and_printrpt_go_to_stdout_with_trix(tmp_path: Path) -> None:
    """Without -C, csvrpt prints like printrpt; trix(seat) is the 5 DD counts C D H S NT, equal to tricks()."""
    text = (
        "produce 2\n"
        "action csvrpt(trix(south)), printrpt(tricks(south, clubs), tricks(south, diamonds), tricks(south, hearts),"
        " tricks(south, spades), tricks(south, notrumps), deal)\n"
    )
    result = cli("dealer", script_file(tmp_path, text), "-s", "9", "-v")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 4
    for trix, printed in zip(lines[::2], lines[1::2], strict=True):
        assert printed.startswith(trix + ",n ") and len(trix.split(",")) == 5
        assert len(printed.split(",")[5].split()) == 8  # n hand e hand s hand w hand


def test_trix_of_deal_is_twenty_counts_seat_by_seat(tmp_path: Path) -> None:
    """trix(deal) is N E S W each C D H S NT: the 20 results a downstream program reads by position."""
    text = "produce 1\naction csvrpt(trix(deal)), csvrpt(trix(north), trix(east), trix(south), trix(west))\n"
    result = cli("dealer", script_file(tmp_path, text), "-s", "2", "-v")
    assert result.exit_code == 0, result.output
    whole, parts = result.stdout.splitlines()
    assert whole == parts and len(whole.split(",")) == 20


# --- export --------------------------------------------------------------------------------------


def test_export_writes_predeal_holdings_of_a_side_or_seat(tmp_path: Path) -> None:
    """export(EW)/export(south) write -E/-W/-S holdings of the printed deal, voids left out, to -X or stdout."""
    text = "produce 3\naction printoneline, export(EW), export(south)\n"
    path = script_file(tmp_path, text)
    result = cli("dealer", path, "-s", "6", "-v", "-X", f"w:{tmp_path / 'x.txt'}")
    assert result.exit_code == 0, result.output
    deals = oneline_hands(result.stdout)
    lines = (tmp_path / "x.txt").read_text().splitlines()
    assert len(lines) == 6

    def spelled(seat: str, hand: str) -> str:
        return f"-{seat} " + ",".join(f"{s}{h}" for s, h in zip("SHDC", hand.split("."), strict=True) if h)

    for k, (_north, east, south, west) in enumerate(deals):
        assert lines[2 * k] == f"{spelled('E', east)}  {spelled('W', west)}"
        assert lines[2 * k + 1] == spelled("S", south)
    stdout_only = cli("dealer", path, "-s", "6", "-v")
    assert [line for line in stdout_only.stdout.splitlines() if line.startswith("-")] == lines


def test_exported_hand_predeals_a_later_run_through_a_parameter(tmp_path: Path) -> None:
    """An export(south) line's holdings, given to -P, predeal South in the next run: DealerV2's two-step study."""
    first = cli("dealer", script_file(tmp_path, "produce 1\naction export(south)\n", "a.dl"), "-s", "8", "-v")
    holdings = first.stdout.split()[1]
    second_script = script_file(tmp_path, "produce 5\npredeal south $0\naction printoneline\n", "b.dl")
    second = cli("dealer", second_script, "-s", "3", "-v", "-P", f"0={holdings}")
    assert second.exit_code == 0, second.output
    souths = {deal[2] for deal in oneline_hands(second.stdout)}
    suits = {part[0]: part[1:] for part in holdings.split(",")}
    expected = ".".join(suits.get(s, "") for s in "SHDC")
    assert souths == {expected}


def test_parameters_in_comments_are_left_alone() -> None:
    """A comment mentioning $9 does not demand -P 9: scripts document their parameters in comments."""
    text = '# give $0 and $9\n/* $5 */ produce $0 // $7\naction printes("n=$0", \\n)\n'
    assert (
        substitute_parameters(text, {0: "2"})
        == '# give $0 and $9\n/* $5 */ produce 2 // $7\naction printes("n=2", \\n)\n'
    )


def test_the_example_script_runs_with_its_documented_command(tmp_path: Path) -> None:
    """examples/dealerv2_extensions.dl runs as its comment says: the example users copy keeps working."""
    example = REPO / "examples" / "dealerv2_extensions.dl"
    csv_file, export_file = tmp_path / "fit.csv", tmp_path / "fit.txt"
    result = cli(
        "dealer", str(example), "-s", "1", "-P", "0=7.5", "-P", "1=5", "-C", f"w:{csv_file}", "-X", f"w:{export_file}"
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.count("Contract ") == 2 and "Produced 5 hands" in result.stdout
    rows = list(csv.reader(csv_file.read_text().splitlines(), quotechar="'"))  # the label holds a comma
    assert len(rows) == 5 and all(len(r) == 8 and int(r[1]) <= 750 for r in rows)
    exported = export_file.read_text().splitlines()
    assert len(exported) == 5 and all(re.fullmatch(r"-N [SHDC][^ ]*  -S [SHDC][^ ]*", line) for line in exported)
