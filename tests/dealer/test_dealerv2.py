"""DealerV2's extensions to the dealer language: script parameters, evalcontract, csvrpt, export.

The oracles are hand derivations of DealerV2's user guide and ddsbind's own
independent pieces (the Laws' scores in ``ddsbind.scoring``, the deals a
run prints).  ``ltc()`` is tested in ``tests/test_hands.py``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ddsbind.cli import main
from ddsbind.dealer import DealerError
from ddsbind.dealer.language import substitute_parameters


def cli(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, ["dealer", *args], input=stdin)


def script(tmp_path: Path, text: str, name: str = "s.dl") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def one_error(result: Result, pattern: str) -> None:
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ddsbind: error: "), result.stderr
    assert re.search(pattern, lines[0]), lines[0]


# --- $0..$9 ------------------------------------------------------------------------------------


def test_parameters_replace_dollar_digits_from_the_command_line(tmp_path: Path) -> None:
    """-P N=TEXT fills $N: one DealerV2 script studies many conditions without being edited."""
    text = 'produce $0\ncondition hcp(north) >= $1\naction printes("at least $1: ", hcp(north), \\n)\n'
    path = script(tmp_path, text)
    result = cli(path, "-s", "5", "-v", "-P", "0=4", "--param", "1=19")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 4
    for line in lines:
        label, value = line.split(": ")
        assert label == "at least 19" and int(value) >= 19


def test_a_missing_parameter_is_refused_naming_its_line(tmp_path: Path) -> None:
    """A script using $1 without -P 1=... stops before dealing, naming the line, instead of a parse error."""
    path = script(tmp_path, "produce 3\ncondition hcp(north) >= $1\n")
    one_error(cli(path, "-s", "1", "-P", "0=3"), r"s\.dl:2: \$1 is used but not given \(give it with -P 1=VALUE\)")


@pytest.mark.parametrize("bad", ["x=3", "10=3", "3"])
def test_a_malformed_parameter_is_a_usage_error(tmp_path: Path, bad: str) -> None:
    """-P without N=TEXT (N one digit) is refused by name: dealer's -0/-2/-3 keep their meaning."""
    result = cli(script(tmp_path, "produce 1\n"), "-P", bad)
    assert result.exit_code == 2
    assert "N=TEXT with N a digit 0..9" in result.stderr


def test_substitution_is_textual_and_not_rescanned() -> None:
    """$N's text goes in as written, once: a value containing '$1' is not replaced again."""
    assert substitute_parameters("a $0 b $0 $1", {0: "$1", 1: "x"}) == "a $1 b $1 x"
    with pytest.raises(DealerError, match=r"^s:3: \$7 is used"):
        substitute_parameters("\n\n$7", {}, "s")
