"""The dealer language's numeric policy (ddsbind.dealer.compiler): 64-bit values, division by zero, score().

Oracles: Debian's ``/usr/games/dealer`` (installed by the project's set-up), run
on the same scripts; brute force over the operators' value ranges.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ddsbind.cli import main
from ddsbind.dealer import DealerError, parse, run

DEALER = shutil.which("dealer") or "/usr/games/dealer"


def _cli(tmp_path: Path, text: str, *args: str) -> Result:
    path = tmp_path / "s.dl"
    path.write_text(text)
    return CliRunner().invoke(main, ["dealer", "-s", "1", *args, str(path)])


def _dealer(tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "d.dl"
    path.write_text(text)
    return subprocess.run([DEALER, "-s", "1", "-v", str(path)], capture_output=True, text=True, timeout=60)


def _one_error(result: Result, pattern: str) -> None:
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert re.search(pattern, lines[0]), lines[0]


@pytest.mark.parametrize("expr", ["-(0 - 9223372036854775807 - 1)", "-(hcp(north) - 9223372036854775807 - 1)"])
def test_unary_minus_beyond_64_bits_is_refused_naming_the_line(tmp_path: Path, expr: str) -> None:
    """-(-2**63) is refused before dealing, as the binary 0 - (-2**63) is: never a wrapped negative value, exit 0."""
    result = _cli(tmp_path, f"produce 1\ncondition {expr} > 0\n")
    _one_error(result, r"s\.dl:2:\d+: values can reach 9223372036854775808, beyond 64-bit integers")


def test_unary_minus_of_the_largest_value_is_fine() -> None:
    """-(2**63 - 1) fits: the check refuses only what overflows."""
    script = parse("produce 1\ngenerate 1\naction average -(9223372036854775807)\n")
    assert run(script, 1).sums == [-(2**63 - 1)]


@pytest.mark.parametrize(("op", "word"), [("/", "division"), ("%", "remainder")])
def test_division_by_zero_on_a_deal_is_refused_naming_the_line(tmp_path: Path, op: str, word: str) -> None:
    """x / 0 on a deal stops the run with one line naming the script's line (Debian's dealer dies of SIGFPE)."""
    text = f'generate 10\nproduce 2\naction printes(7 {op} (hcp(north) - hcp(north)), "\\n")\n'
    oracle = _dealer(tmp_path, text)
    assert oracle.returncode not in (0, 1, 255)  # killed by the floating point exception: no value to copy
    _one_error(_cli(tmp_path, text), rf"s\.dl:3:\d+: {word} by zero on a deal")


def test_division_by_a_constant_zero_is_refused_before_dealing(tmp_path: Path) -> None:
    """7 / 0 is refused when the script is read, naming line and column: no deal is dealt first."""
    with pytest.raises(DealerError, match=r"^s:2:\d+: division by zero$"):
        parse("produce 1\ncondition 7 / 0 > 1\n", "s")


def test_division_guarded_by_and_runs_where_the_divisor_is_not_zero(tmp_path: Path) -> None:
    """hcp(north) > 0 && 40 / hcp(north) > 2 divides only deals with points, as C's && does: no refusal."""
    text = (
        "generate 2000\nproduce 50\ncondition hcp(north) > 0 && 40 / hcp(north) > 3\naction average 40 % hcp(north)\n"
    )
    result = _cli(tmp_path, text, "-v")
    assert result.exit_code == 0, result.output


def test_score_beyond_thirteen_tricks_prints_what_debians_dealer_prints(tmp_path: Path) -> None:
    """score(vul, x3N, 14) and tricks below 0 give Debian dealer's values (oracle: /usr/games/dealer), no stop."""
    calls = [
        f"score({vul}, x{level}{strain}, {tricks})"
        for vul in ("nv", "vul")
        for level, strain in ((1, "C"), (3, "N"), (4, "S"), (6, "H"), (7, "N"))
        for tricks in (-3, -1, 14, 15, 20)
    ]
    text = "generate 1\nproduce 1\naction printes(" + ', " ", '.join(calls) + ', "X")\n'
    oracle = _dealer(tmp_path, text)
    assert oracle.returncode == 0, oracle.stderr
    result = _cli(tmp_path, text, "-v")
    assert result.exit_code == 0, result.output
    assert result.stdout.split("X")[0].split() == oracle.stdout.split("X")[0].split()
    assert result.stdout.split()[calls.index("score(nv, x3N, 14)")] == "550"


def test_imps_of_minus_two_to_the_63_is_refused_naming_the_line() -> None:
    """imps(-2**63) is refused when read (its size is beyond 64 bits), not 0 IMPs with exit 0."""
    with pytest.raises(DealerError, match=r"^s:1:\d+: imps\(\) of a value that can reach -9223372036854775808"):
        parse("action average imps(0 - 9223372036854775807 - 1)\n", "s")
