"""The command line's one error boundary (issue 45, item 5): any ``ddsbind.Error`` is one line and status 1.

Every command ends in error the same way: a click exception,
:class:`~ddsbind.cli._common.CommandError`, printed by click as
``ddsbind: error: <the error's own str()>``.  The library's error stays
the data behind it (its ``__cause__``): nothing rewrites its text.
"""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from ddsbind.cli import main
from ddsbind.cli._common import CommandError
from ddsbind.errors import DealerError, DuplicateCardsError, Error, FormatError
from tests.support import cli, one_error

DUPLICATE = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 QT942.AQ4.32.KJ3"  # SQ in N and W


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    garbage = tmp_path / "garbage.zrd"
    garbage.write_bytes(b"\xff" * 46)  # two records' length, no deal in them
    script = tmp_path / "s.dl"
    script.write_text("condition hcp(north) >\n")
    return {"garbage": garbage, "script": script}


@pytest.mark.parametrize(
    ("args", "cls", "pattern"),
    [
        (["table", DUPLICATE], DuplicateCardsError, r"SQ is held by both N and W"),
        (["convert", "{garbage}", "{garbage}.pbn"], FormatError, r"garbage\.zrd: record 1"),
        (["dealer", "{script}"], DealerError, r"s\.dl"),
    ],
)
def test_a_library_error_is_one_line_status_1_from_every_command(
    files: dict[str, Path], args: list[str], cls: type[Error], pattern: str
) -> None:
    """Without this, one command prints a traceback or a second line for the error another prints in one, and a
    script checking `$?` or parsing stderr must know which command it ran."""
    argv = [a.format(**files) for a in args]
    one_error(cli(*argv), pattern)
    with pytest.raises(CommandError) as info:  # the same, as data: click's exception over the library's
        main(argv, standalone_mode=False)
    assert info.value.exit_code == 1 and isinstance(info.value, click.ClickException)
    assert isinstance(info.value.__cause__, cls)
    assert info.value.format_message() == str(info.value.__cause__)


def test_a_commands_own_refusal_and_a_file_error_are_the_same_exception(tmp_path: Path) -> None:
    """Without this, the command's own refusals (conflicting options) and a missing file went out through a
    second path (print, then sys.exit) that a caller of main() could not catch as click's exception."""
    script = tmp_path / "s.dl"
    script.write_text("produce 1\n")
    one_error(cli("dealer", script, "--json", "--csv"), r"^ddsbind: error: --json and --csv: choose one$")
    with pytest.raises(CommandError, match="--json and --csv: choose one"):
        main(["dealer", str(script), "--json", "--csv"], standalone_mode=False)
    one_error(cli("table", tmp_path / "missing.pbn"), r"missing\.pbn")
