"""The console command's boundary: one line per fault, the same for every command; bugs still show.

Each command runs in a subprocess (``python -m ddsbind``), as a user runs it:
the exit status, the one ``ddsbind: error:`` line and the absence of a
traceback are what a script around ddsbind relies on.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from ddsbind.cli import main
from tests.support import REPO, child_env, cli, python_m

FULL = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"


def _one_error_line(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 1, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ln.startswith("ddsbind: error:")]
    assert len(lines) == 1, proc.stderr
    return lines[0]


# The same faults through every command that takes a position: each names what is wrong.
_FAULTS = {
    "card not held on the trick": (["--strain", "S", "--leader", "W", "--trick", "SA"], r"SA"),
    "five trick cards": (["--strain", "S", "--leader", "W", "--trick", "SA,SK,SQ,SJ,ST"], r"at most 3"),
    "four trick cards": (["--strain", "S", "--leader", "W", "--trick", "SA,SK,SQ,SJ"], r"at most 3"),
    "the same card four times": (["--strain", "H", "--leader", "W", "--trick", "SA,SA,SA"], r"SA"),
    "not a card": (["--strain", "S", "--leader", "W", "--trick", "SZ"], r"SZ"),
}


@pytest.mark.parametrize("command", ["solve", "line"])
@pytest.mark.parametrize("fault", sorted(_FAULTS))
def test_position_faults_are_one_line_from_every_command(command, fault):
    """`solve` and `line` refuse the same bad current trick the same way (before: `line` printed 14 tricks)."""
    args, pattern = _FAULTS[fault]
    line = _one_error_line(python_m("ddsbind", command, FULL, *args))
    assert re.search(pattern, line), line


def test_bad_deal_is_one_line_from_table_solve_and_line():
    bad = "N:AKQ... QJ... T9... 87.."
    for command, extra in [("table", []), ("solve", ["--strain", "S", "--leader", "N"]),
                           ("line", ["--strain", "S", "--leader", "N"])]:  # fmt: skip
        line = _one_error_line(python_m("ddsbind", command, bad, *extra))
        assert "4 suits" in line, (command, line)


def test_trick_given_with_spaces_commas_or_ten_as_10():
    """`--trick` takes 'HA,H2', 'HA H2' and 'H10': one card parser everywhere."""
    deal = "N:T... J... Q9... 87..."  # N led SA, E played SK: S to play
    outs = set()
    for trick in ["SA,SK", "SA SK", "sa , sk"]:
        r = cli("solve", deal, "--strain", "NT", "--leader", "N", "--trick", trick)
        assert r.exit_code == 0, r.output
        outs.add(r.output)
    assert len(outs) == 1
    r = cli("solve", "N:... J... Q... 8...", "--strain", "NT", "--leader", "N", "--trick", "S10")
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[2].split()[:2] == ["SJ", "0"], r.output


def test_demo_refuses_bad_counts_naming_the_option():
    for args, option in [(["--deals", "-1"], "--deals"), (["--deals", "0"], "--deals"), (["--seed", "-5"], "--seed")]:
        r = cli("demo", *args)
        assert r.exit_code == 2, (args, r.output)
        assert option in r.output, r.output


def test_info_is_dds_and_stats_is_the_database():
    """`info` describes DDS and takes no file; database statistics are `stats`."""
    r = cli("info", "x.zrd")
    assert r.exit_code == 2
    r = cli("stats", "--help")
    assert r.exit_code == 0 and "statistics" in r.output


def test_warnings_print_one_way():
    """A library warning prints as one `ddsbind: warning:` line, never Python's raw warning with its source line."""
    import warnings

    @main.command("warn-test", hidden=True)
    def _warn() -> None:
        warnings.warn("this is a test warning", UserWarning, stacklevel=1)

    try:
        r = cli("warn-test")
    finally:
        main.commands.pop("warn-test", None)
    assert r.exit_code == 0
    assert "ddsbind: warning: this is a test warning" in r.output
    assert "UserWarning" not in r.output and "warnings.warn" not in r.output


def test_a_bug_is_not_hidden_as_a_one_line_error():
    """Only ddsbind.Error and OSError become one line: an unexpected ValueError keeps its traceback."""

    @main.command("bug-test", hidden=True)
    def _bug() -> None:
        raise ValueError("an internal bug")

    try:
        r = cli("bug-test")
    finally:
        main.commands.pop("bug-test", None)
    assert isinstance(r.exception, ValueError)
    assert "ddsbind: error:" not in r.output


@pytest.mark.parametrize(
    "args",
    [
        ["analyse", "examples/data/session.lin"],
        ["table", "examples/data/boards.pbn"],
        ["line", FULL, "--strain", "S", "--leader", "W"],
    ],
    ids=["analyse", "table", "line"],
)
def test_closed_pipe_ends_quietly(args: list[str]) -> None:
    """`ddsbind ... | head` ends without a "Broken pipe" error when the reader stops reading, whatever the command."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "ddsbind", *args],
        cwd=REPO,
        env=child_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader is gone before the first line: every write meets a closed pipe
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=300) == 141, err
    assert err == "", err


@pytest.mark.parametrize("command", ["analyse", "convert"])
def test_errors_name_boards_as_the_file_numbers_them(tmp_path, command: str) -> None:
    """A bad card in a match file is reported by the board the file numbers, not by a record index counted from 0."""
    text = (REPO / "examples" / "data" / "session.lin").read_text()
    bad = tmp_path / "bad.lin"
    bad.write_text(text.replace("pc|h8|pc|h6|", "pc|h8|pc|s6|"))  # the closed room's board 2: S revokes
    args = [command, str(bad)] + ([str(tmp_path / "out.pbn")] if command == "convert" else [])
    line = _one_error_line(python_m("ddsbind", *args))
    assert "record 4 (Board 2, closed room), line " in line and "S6 is a revoke" in line
    assert "record 3" not in line, line


def test_every_command_is_listed_and_loads_on_first_use():
    """`ddsbind --help` lists every command and each one runs: none lost by importing them only when used."""
    import importlib

    import click

    from ddsbind.cli import COMMANDS

    listing = cli("--help").output
    for name, module in COMMANDS.items():
        command = getattr(importlib.import_module(f"ddsbind.cli.{module}"), name)
        assert isinstance(command, click.Command) and command.name == name
        assert main.get_command(click.Context(main), name) is command
        assert f"  {name} " in listing
    assert cli("no-such-command").exit_code == 2
