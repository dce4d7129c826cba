"""Options renamed to the library's words (--strain, --vulnerable): the old spellings still work, deprecated.

Each old spelling (``--trump``, ``--vul``) must give what the new one gives,
print one ``ddsbind: warning:`` line saying so, show ``(DEPRECATED: use
--new)`` in ``--help``, and refuse to disagree with the new spelling given
beside it.
"""

from __future__ import annotations

import pytest

from tests.support import cli

FULL = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"
ENDING = "N:A... K... Q... J..."
SCRIPT = "generate 1000\nproduce 2\naction printoneline\n"

#: (command, arguments before the renamed option, old spelling, new spelling, value, a different value)
RENAMED = [
    ("solve", [ENDING, "--leader", "N"], "--trump", "--strain", "NT", "S"),
    ("line", [ENDING, "--leader", "N"], "--trump", "--strain", "NT", "S"),
    ("prove", [ENDING, "--leader", "N"], "--trump", "--strain", "NT", "S"),
    ("table", [FULL], "--vul", "--vulnerable", "ns", "ew"),
    ("dealer", ["{script}", "-s", "7", "--contract", "3NS", "--json"], "--vul", "--vulnerable", "all", "none"),
]


def _args(before: list[str], tmp_path) -> list[str]:
    script = tmp_path / "s.dl"
    script.write_text(SCRIPT)
    return [a.format(script=script) for a in before]


def _stdout(output: str) -> str:
    return "".join(line for line in output.splitlines(keepends=True) if not line.startswith("ddsbind: warning:"))


@pytest.mark.parametrize(("command", "before", "old", "new", "value", "other"), RENAMED, ids=lambda v: str(v))
def test_the_old_spelling_still_works_and_warns(command, before, old, new, value, other, tmp_path):
    """A script written with --trump or --vul keeps working (same output), told once to say --strain or --vulnerable."""
    args = _args(before, tmp_path)
    renamed = cli(command, *args, new, value)
    assert renamed.exit_code == 0, renamed.output
    assert "deprecated" not in renamed.output
    kept = cli(command, *args, old, value)
    assert kept.exit_code == 0, kept.output
    assert kept.output.count(f"ddsbind: warning: {old} is deprecated; use {new}\n") == 1
    assert _stdout(kept.output) == renamed.output
    same = cli(command, *args, old, value, new, value)
    assert same.exit_code == 0 and _stdout(same.output) == renamed.output, same.output
    clash = cli(command, *args, old, value, new, other)
    assert clash.exit_code == 2
    assert f"{old} " in clash.output and f"{new} " in clash.output and "disagree" in clash.output


@pytest.mark.parametrize(("command", "old", "new"), sorted({(r[0], r[2], r[3]) for r in RENAMED}))
def test_help_marks_the_old_spelling_deprecated(command, old, new):
    """--help lists the new spelling and marks the old one deprecated, so a reader knows which to write."""
    shown = " ".join(cli(command, "--help").output.split())
    assert f"{new} [" in shown
    assert f"{old} [" in shown and f"Old spelling of {new}. (DEPRECATED: use {new})" in shown


@pytest.mark.parametrize("command", ["solve", "line"])
def test_a_required_strain_is_required_under_either_spelling(command):
    """Without --strain (or --trump), solve and line still stop with click's usage error naming --strain."""
    result = cli(command, ENDING, "--leader", "N")
    assert result.exit_code == 2
    assert "Missing option '--strain'" in result.output
