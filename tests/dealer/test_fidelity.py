"""``ddsbind dealer`` runs every script and takes every flag Debian's dealer does (issue 26's list, one test each)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ddsbind.dealer import DealerError, parse, run
from ddsbind.dealer.run import DEFAULT_GENERATE
from tests.support import cli, one_error, script_file

# --- scripts dealer runs -------------------------------------------------------------------------


@pytest.mark.parametrize("seats", ["north", "north, east, west"])
def test_print_of_one_or_three_seats(tmp_path: Path, seats: str) -> None:
    """action print(north) (Debian's Descr.yarb) prints a page per seat instead of an IndexError traceback."""
    result = cli("dealer", script_file(tmp_path, f"produce 5\naction print({seats})\n"), "-s", "1")
    assert result.exit_code == 0, result.output
    assert result.stdout.count(" hands:\n") == seats.count(",") + 1
    assert result.stdout.count("\f") == seats.count(",") + 1


def test_script_from_standard_input_and_dash(tmp_path: Path) -> None:
    """`dealer < script` and `-` as the file both run the script (dealer's manual's main way)."""
    text = "produce 3\naction printoneline\n"
    piped = cli("dealer", "-s", "4", input=text)
    dash = cli("dealer", "-", "-s", "4", input=text)
    from_file = cli("dealer", script_file(tmp_path, text), "-s", "4")
    assert piped.exit_code == dash.exit_code == 0, piped.output + dash.output
    strip = lambda text: text.split("Time needed")[0]  # noqa: E731
    assert strip(piped.stdout) == strip(dash.stdout) == strip(from_file.stdout)
    assert piped.stdout.count("\nn ") + piped.stdout.startswith("n ") == 3


def test_produce_and_generate_are_both_upper_limits(tmp_path: Path) -> None:
    """-g 2000 with produce 100000 in the script stops at 2000 deals, as dealer does, instead of an error."""
    result = cli(
        "dealer",
        script_file(tmp_path, "produce 100000\ncondition hcp(west) >= 11\naction average hcp(west)\n"),
        "-g",
        "2000",
    )
    assert result.exit_code == 0, result.output
    assert "Generated 2000 hands\n" in result.stdout


def test_rnd_cccc_quality_are_functions(tmp_path: Path) -> None:
    """rnd(), cccc() and quality() (Descr.evaluation) are known functions; rnd(n) is 0 .. n-1, about uniform."""
    text = "generate 30000\naction average cccc(north), average quality(south, hearts), frequency (rnd(4), 0, 3)\n"
    result = cli("dealer", script_file(tmp_path, text), "-s", "8")
    assert result.exit_code == 0, result.output
    counts = [int(n) for n in re.findall(r"^\s+[0-3]\t\s*(\d+)$", result.stdout, re.M)]
    assert len(counts) == 4 and sum(counts) == 30000
    assert all(abs(c - 7500) < 5 * np.sqrt(30000 * 0.25 * 0.75) for c in counts)
    assert "Low" not in result.stdout and "High" not in result.stdout


def test_rnd_depends_on_seed_not_threads() -> None:
    """rnd() gives the same values for a seed whatever the number of threads, and other values for another seed."""
    text = "generate 40000\ncondition rnd(1000) == 7\n"
    one = run(parse(text), 5, threads=1, keep=True).deals
    two = run(parse(text), 5, threads=2, keep=True).deals
    other = run(parse(text), 6, threads=1, keep=True).deals
    assert one is not None and two is not None and other is not None
    assert np.array_equal(one, two)
    assert 10 < len(one) < 80 and not np.array_equal(one[:5], other[:5])


def test_byte_order_mark_is_skipped(tmp_path: Path) -> None:
    """A script saved with a UTF-8 byte-order mark runs like the same script without it."""
    text = "produce 2\ncondition hcp(north) > 12\naction printoneline\n"
    with_bom = cli("dealer", script_file(tmp_path, "\ufeff" + text, "bom.dl"), "-s", "3")
    plain = cli("dealer", script_file(tmp_path, text), "-s", "3")
    assert with_bom.exit_code == 0, with_bom.output
    assert with_bom.stdout.split("Time")[0] == plain.stdout.split("Time")[0]


def test_shape_with_leading_minus_and_side_by_side() -> None:
    """shape(north, - 4333) is never true (nothing less 4333) and `4333 5332` means 4333 + 5332, as in dealer."""
    never = run(parse("generate 2000\ncondition shape(north, - 4333)\n"), 1)
    assert never.produced == 0
    side = run(parse("generate 5000\ncondition shape(north, any 4333 any 5332)\n"), 1, keep=True)
    plus = run(parse("generate 5000\ncondition shape(north, any 4333 + any 5332)\n"), 1, keep=True)
    assert side.deals is not None and plus.deals is not None
    assert side.produced > 0 and np.array_equal(side.deals, plus.deals)


def test_empty_action_prints_nothing_per_deal(tmp_path: Path) -> None:
    """An empty `action` prints no deal (not printall), and produces every accepted deal."""
    result = cli("dealer", script_file(tmp_path, "generate 50\naction\n"), "-s", "1")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Generated 50 hands\nProduced 50 hands\n")


def test_second_action_replaces_and_first_generate_produce_kept() -> None:
    """A second `action` replaces the first; the first generate and produce are kept, as in dealer."""
    parsed = parse("generate 10\ngenerate 99\nproduce 3\nproduce 7\naction printall\naction printoneline\n")
    assert (parsed.generate, parsed.produce) == (10, 3)
    assert [a.kind for a in parsed.actions] == ["printoneline"]


def test_default_generate_is_dealers() -> None:
    """Without generate or -g, a run deals up to dealer's 10,000,000 deals (not 1,000,000)."""
    assert DEFAULT_GENERATE == 10_000_000
    result = run(parse("condition hcp(north) > 36\n"), 1, time_limit=0.0)
    assert result.timed_out  # stopped by the limit, not by a smaller default


def test_average_over_no_deals_is_minus_nan(tmp_path: Path) -> None:
    """An average over no produced deal prints -nan as dealer does, not 0."""
    result = cli(
        "dealer",
        script_file(tmp_path, "generate 100\ncondition hcp(north) > 37\naction average hcp(south)\n"),
        "-s",
        "1",
    )
    assert result.stdout.startswith("-nan\n")


# --- flags ---------------------------------------------------------------------------------------


def test_quiet_flag_suppresses_pbn(tmp_path: Path) -> None:
    """-q leaves printpbn out and keeps the other actions."""
    result = cli("dealer", script_file(tmp_path, "produce 2\naction printpbn, printoneline\n"), "-s", "1", "-q")
    assert result.exit_code == 0 and "[Event" not in result.stdout and result.stdout.startswith("n ")


def test_v_flag_leaves_out_summary_and_u_changes_nothing(tmp_path: Path) -> None:
    """-v drops the closing lines; -u is accepted and the output is already upper case."""
    path = script_file(tmp_path, "produce 2\naction printoneline\n")
    plain = cli("dealer", path, "-s", "1")
    assert cli("dealer", path, "-s", "1", "-v").stdout == plain.stdout.split("Generated")[0]
    assert cli("dealer", path, "-s", "1", "-u").stdout.split("Time")[0] == plain.stdout.split("Time")[0]


def test_version_and_help_flags(tmp_path: Path) -> None:
    """-V prints a version and exits; -h prints the usage."""
    version = cli("dealer", "-V")
    assert version.exit_code == 0 and "dealer" in version.stdout
    assert "Usage:" in cli("dealer", "-h").stdout


@pytest.mark.parametrize(("flag", "pattern"), [("-e", r"-e .*exhaust"), ("-l", r"-l .*library\.dat")])
def test_unsupported_flags_are_refused_in_one_line(tmp_path: Path, flag: str, pattern: str) -> None:
    """-e and -l, which this dealer does not do, are refused with a line saying so."""
    args = [flag, "1"] if flag == "-l" else [flag]
    one_error(cli("dealer", script_file(tmp_path, "produce 1\n"), *args), pattern)


def test_t_is_dealers_time_limit_and_threads_a_long_option(tmp_path: Path) -> None:
    """-t N stops a run producing nothing after N seconds with status 1, as dealer; threads are --threads."""
    path = script_file(tmp_path, "condition hcp(north) > 36\n")
    result = cli("dealer", path, "-s", "1", "-t", "0.2")
    assert result.exit_code == 1 and "Produced 0 hands\n" in result.stdout
    assert "Generated 10000000 hands" not in result.stdout
    fine = cli(
        "dealer",
        script_file(tmp_path, "produce 2\naction printoneline\n", "b.dl"),
        "-s",
        "1",
        "--threads",
        "2",
        "-t",
        "60",
    )
    assert fine.exit_code == 0, fine.output


def test_swap_flags_multiply_deals(tmp_path: Path) -> None:
    """-2 and -3 deal each shuffle's rearrangements after it: North's hand repeats 2 and 6 times."""
    path = script_file(tmp_path, "produce 12\naction printoneline\n")
    for flag, k in (("-2", 2), ("-3", 6), ("-0", 1)):
        lines = [ln for ln in cli("dealer", path, "-s", "2", flag).stdout.splitlines() if ln.startswith("n ")]
        norths = [ln.split(" e ")[0] for ln in lines]
        assert len(lines) == 12 and len(set(norths)) == 12 // k


def test_negative_seed_is_taken_modulo_2_64(tmp_path: Path) -> None:
    """-s -5 is seed 2**64 - 5, as dealer reads it, not a refusal."""
    result = cli("dealer", script_file(tmp_path, "produce 1\naction printoneline\n"), "-s", "-5")
    assert result.exit_code == 0 and "Initial random seed 18446744073709551611\n" in result.stdout


def test_meter_flag_draws_progress_on_stderr(tmp_path: Path) -> None:
    """-m shows the progress meter on stderr even when stderr is not a terminal; stdout is unchanged."""
    result = cli("dealer", script_file(tmp_path, "generate 20000\naction average hcp(north)\n"), "-s", "1", "-m")
    assert result.exit_code == 0 and "dealing" in result.stderr


# --- -o, reports -------------------------------------------------------------------------------


def test_output_carries_script_dealer_and_vulnerable(tmp_path: Path) -> None:
    """-o FILE.pbn says Dealer W and Vulnerable EW when the script does, like printpbn in the same run."""
    path = script_file(tmp_path, "produce 4\ndealer west\nvulnerable ew\naction printpbn\n")
    result = cli("dealer", path, "-s", "1", "-o", str(tmp_path / "x.pbn"))
    assert result.exit_code == 0, result.output
    saved = (tmp_path / "x.pbn").read_text()
    assert saved.count('[Dealer "W"]') == 4 and saved.count('[Vulnerable "EW"]') == 4
    assert result.stdout.count('[Dealer "W"]') == 4


def test_output_refuses_to_replace_without_force(tmp_path: Path) -> None:
    """An existing -o file is refused before dealing (and kept); --force replaces it."""
    target = tmp_path / "x.pbn"
    target.write_text("mine")
    path = script_file(tmp_path, "produce 2\naction printoneline\n")
    result = cli("dealer", path, "-s", "1", "-o", str(target))
    one_error(result, r"exists .*--force")
    assert result.stdout == "" and target.read_text() == "mine"
    assert cli("dealer", path, "-s", "1", "-o", str(target), "--force").exit_code == 0
    assert target.read_text().count("[Deal ") == 2


@pytest.mark.parametrize(
    ("args", "pattern"),
    [
        (["--contract", "3XN"], r"contract '3XN'"),
        (["--lead", "9NS"], r"contract '9NS'"),
        (["-o", "nowhere/x.pbn"], r"no such folder"),
        (["-o", "x.pbn", "--to", "nope"], r"unknown format 'nope'"),
        (["--json", "--csv", "--contract", "3NS"], r"--json and --csv"),
        (["--csv"], r"--csv .*--contract or --lead"),
        (["--plot", "x.png"], r"--plot .*--contract"),
        (["--contract", "3NS", "--plot", "x.xyz"], r"--plot x\.xyz: cannot tell the image format"),
    ],
)
def test_arguments_checked_before_any_dealing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args, pattern) -> None:
    """A bad --contract, --lead, -o folder, --to, or conflicting options fail at once: nothing is dealt or printed."""
    monkeypatch.chdir(tmp_path)
    result = cli(
        "dealer", script_file(tmp_path, "generate 1000000\ncondition hcp(north) > 36\naction printoneline\n"), *args
    )
    one_error(result, pattern)
    assert result.stdout == ""


def test_plot_without_matplotlib_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--plot without matplotlib installed says which extra to install, in one line, before dealing."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    one_error(
        cli("dealer", script_file(tmp_path, "produce 1\n"), "--contract", "3NS", "--plot", "x.png"),
        r"pip install matplotlib \(the .plot. extra\)",
    )


@pytest.mark.slow
def test_json_is_one_valid_document_with_null_for_nan(tmp_path: Path) -> None:
    """--json stdout is exactly one JSON document (no dealer text, null where a rate is undefined)."""
    text = "generate 200\ncondition hcp(north) > 37\naction printoneline, average hcp(south)\n"
    result = cli("dealer", script_file(tmp_path, text), "-s", "1", "--contract", "3NS", "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout, parse_constant=lambda c: pytest.fail(f"{c} in JSON"))
    assert document["produced"] == 0 and document["statistics"][0]["value"] is None
    assert document["contracts"][0]["make"] is None


@pytest.mark.slow
def test_script_vulnerable_scores_contract(tmp_path: Path) -> None:
    """--contract scores use the script's `vulnerable` when --vulnerable is not given (3NT made: 600 vulnerable)."""
    text = "produce 3\nvulnerable all\npredeal north SAKQ, HAKQ, DAKQ, CAKQJ\n"
    result = cli("dealer", script_file(tmp_path, text), "-s", "1", "--contract", "3NN", "--json")
    document = json.loads(result.stdout)
    assert document["contracts"][0]["make"] == 1.0
    assert document["contracts"][0]["mean_score"] == 600 + 30 * 4  # 13 tricks: 4 over


# --- overflow, pipes --------------------------------------------------------------------------


def test_large_pointcount_weights_do_not_wrap() -> None:
    """pointcount 40000 30000 20000 10000 counts exactly 10000 times the usual hcp (no int16 wrap-around)."""
    big = run(parse("generate 3000\npointcount 40000 30000 20000 10000\naction average hcp(north) + hcp(south)\n"), 2)
    small = run(parse("generate 3000\naction average hcp(north) + hcp(south)\n"), 2)
    assert big.sums[0] == 10000 * small.sums[0]


def test_large_altcount_weights_do_not_wrap() -> None:
    """altcount weights of 20000 give 20000 times the count per card, in every frequency row."""
    big = run(parse("generate 3000\naltcount 4 20000\naction average aces(west)\n"), 3)
    small = run(parse("generate 3000\naction average aces(west)\n"), 3)
    assert big.sums[0] == 20000 * small.sums[0]


@pytest.mark.parametrize(
    ("text", "pattern"),
    [
        ("condition hcp(north) > 9223372036854775808\n", r"s\.dl:1:24: number .* too large"),
        ("pointcount 100000000000000000000\n", r"s\.dl:1:12: weight .* too large"),
        ("x = 3037000500 * 3037000500\ncondition x > 1\n", r"s\.dl:1:5: values can reach .* beyond 64-bit"),
        ("action frequency (hcp(north), 0, 99999999999)\n", r"s\.dl:1:\d+: frequency bounds"),
    ],
)
def test_values_beyond_64_bits_refused_naming_line(tmp_path: Path, text: str, pattern: str) -> None:
    """Literals, weights or products beyond 64 bits are refused naming the line, never wrapped or a traceback."""
    one_error(cli("dealer", script_file(tmp_path, text), "-s", "1"), pattern)


def test_thousand_term_expression_runs(tmp_path: Path) -> None:
    """A 1,000-term sum (generated scripts) computes its value instead of a RecursionError."""
    text = "generate 10\naction average " + " + ".join(["hcp(north)"] * 500 + ["1"] * 500) + "\n"
    text += "condition " + " && ".join(["hcp(north) >= 0"] * 1000) + "\n"
    result = run(parse(text), 1, keep=True)
    assert result.produced == 10 and result.deals is not None
    from ddsbind.dealer.dealing import Hands

    assert result.sums[0] == 500 * int(Hands(result.deals).count((4, 3, 2, 1))[:, 0].sum()) + 5000


def test_deep_nesting_refused_naming_line() -> None:
    """An expression nested deeper than Python can compile is refused naming its line, not a RecursionError."""
    text = "produce 1\n\ncondition " + "!" * 5000 + "1\n"
    with pytest.raises(DealerError, match=r"<script>:3: expression nested too deeply"):
        parse(text)


def test_closed_pipe_exits_quietly(tmp_path: Path) -> None:
    """`ddsbind dealer script | head -1` ends without an error message when head stops reading."""
    path = script_file(tmp_path, "produce 20000\naction printall\n")
    proc = subprocess.Popen(
        [sys.executable, "-m", "ddsbind", "dealer", path, "-s", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    proc.wait(timeout=120)
    assert err == b"", err


# --- DealerV2 extensions -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("vulnerable", "expected"), [("", 1520), ("vulnerable all\n", 2220), ("vulnerable ew\n", 1520)]
)
def test_par_of_thirteen_top_tricks(vulnerable: str, expected: int) -> None:
    """par(ns) of North's 13 top winners is 7NT's score at the script's vulnerability; par(ew) its negative."""
    text = f"produce 2\n{vulnerable}predeal north SAKQ, HAKQ, DAKQ, CAKQJ\naction average par(ns), average par(ew)\n"
    result = run(parse(text), 3, threads=1)
    assert result.sums == [2 * expected, -2 * expected]


def test_run_is_the_function_whatever_was_imported_first():
    """Without this, `from ddsbind.dealer import run` gave the module once `ddsbind.dealer.run` was imported."""
    code = (
        "import ddsbind.dealer.run, inspect\n"
        "from ddsbind.dealer import run\n"
        "print(inspect.isfunction(run), run.__module__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "ddsbind.dealer.run"]
