"""One fault, one class, from every Python entry point.

The same bad inputs -- a bad leader, a bad trump, a card not held, a revoke,
a bad deal, a bad current trick -- go to every entry point that takes them;
each raises one class per fault, every class a ``ddsbind.Error``, and a call
that took a batch says which item (``.index``) was at fault.  None of these
inputs reaches DDS: every one is refused by ddsbind's checks first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

import ddsbind
from ddsbind import Deal, errors
from ddsbind.play import analyse_plays, costly_cards_batch
from tests.support import without

FULL = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"
# W's ST swapped for SQ, which N holds too: 13 cards a hand, one card twice.
DUPLICATE = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AQ942.AQ4.32.KJ3"


@dataclass(frozen=True)
class Case:
    """A bad input: a position (deal, trump, leader, current trick) and a play from it."""

    deal: Any = FULL
    trump: Any = "NT"
    first: Any = "N"
    trick: tuple[str, ...] = ()
    plays: tuple[str, ...] = ()
    #: Which kinds of entry point the fault applies to: "position", "play", "table".
    kinds: frozenset[str] = field(default_factory=lambda: frozenset({"position", "play"}))


# N leads; in FULL, N holds S QJ6, E holds S 873 and H J97, W holds SA.
CASES: dict[str, tuple[Case, type[errors.DDSError]]] = {
    "bad leader": (Case(first="X"), errors.FirstWrongError),
    "leader out of range": (Case(first=7), errors.FirstWrongError),
    "bad trump": (Case(trump="Z"), errors.TrumpWrongError),
    # N leads SA, which W holds.
    "card not held (play)": (Case(plays=("SA",), kinds=frozenset({"play"})), errors.PlayFaultError),
    # E discards a heart while holding spades.
    "revoke (play)": (Case(plays=("SQ", "HJ"), kinds=frozenset({"play"})), errors.PlayFaultError),
    # N "led" SA, which W still holds.
    "trick card still held": (
        Case(deal=without(FULL, "S6"), trick=("SA",), kinds=frozenset({"position"})),
        errors.PlayedCardError,
    ),
    "revoke (current trick)": (
        Case(deal=without(FULL, "SQ", "HJ"), trick=("SQ", "HJ"), kinds=frozenset({"position"})),
        errors.PlayFaultError,
    ),
    "four cards on the current trick": (
        Case(deal=without(FULL, "SQ", "S8", "SK", "SA"), trick=("SQ", "S8", "SK", "SA"), kinds=frozenset({"position"})),
        errors.CardCountError,
    ),
    "a card held twice": (
        Case(deal=DUPLICATE, kinds=frozenset({"position", "play", "table"})),
        errors.DuplicateCardsError,
    ),
    "not a deal": (Case(deal=42, kinds=frozenset({"position", "play", "table"})), errors.ArgumentError),
}


@pytest.fixture(scope="module")
def pool():
    with ddsbind.SolverPool(1) as p:
        yield p


GOOD = Case()


def _board(c: Case) -> tuple[Any, ...]:
    return (c.deal, c.trump, c.first, list(c.trick))


def _job(c: Case) -> tuple[Any, ...]:
    return (c.deal, c.trump, c.first, list(c.plays))


#: name -> (kind, batch?, call(case, pool))
ENTRY_POINTS: dict[str, tuple[str, bool, Callable[[Case, Any], object]]] = {
    "solve_board": (
        "position",
        False,
        lambda c, p: ddsbind.solve_board(c.deal, c.trump, c.first, current_trick=c.trick),
    ),
    "best_line": ("position", False, lambda c, p: ddsbind.best_line(c.deal, c.trump, c.first, c.trick)),
    "analyse_play (trick)": (
        "position",
        False,
        lambda c, p: ddsbind.analyse_play(c.deal, c.trump, c.first, [], current_trick=c.trick),
    ),
    "SolverPool.solve_boards": ("position", True, lambda c, p: p.solve_boards([_board(GOOD), _board(c)])),
    "analyse_play": ("play", False, lambda c, p: ddsbind.analyse_play(c.deal, c.trump, c.first, c.plays)),
    "costly_cards": ("play", False, lambda c, p: ddsbind.costly_cards(c.deal, c.trump, c.first, c.plays)),
    "costly_cards_batch": ("play", True, lambda c, p: costly_cards_batch([_job(GOOD), _job(c)])),
    "analyse_plays": ("play", True, lambda c, p: analyse_plays([_job(GOOD), _job(c)])),
    "dd_table": ("table", False, lambda c, p: ddsbind.dd_table(c.deal)),
    "dd_tables": ("table", True, lambda c, p: ddsbind.dd_tables([GOOD.deal, c.deal])),
    "SolverPool.dd_tables": ("table", True, lambda c, p: p.dd_tables([GOOD.deal, c.deal])),
    "SolverPool.imap_tables": ("table", True, lambda c, p: list(p.imap_tables([GOOD.deal, c.deal]))),
}

PAIRS = [
    pytest.param(fault, entry, id=f"{entry}: {fault}")
    for entry, (kind, _, _) in ENTRY_POINTS.items()
    for fault, (case, _) in CASES.items()
    if kind in case.kinds
]


@pytest.mark.parametrize(("fault", "entry"), PAIRS)
def test_one_fault_one_class(fault, entry, pool, in_tmp_cwd):
    case, expected = CASES[fault]
    _, batch, call = ENTRY_POINTS[entry]
    with pytest.raises(errors.Error) as info:
        call(case, pool)
    exc = info.value
    assert type(exc) is expected, (type(exc).__name__, str(exc))
    if batch:
        assert exc.index == 1, str(exc)
    # ddsbind found it, not DDS: DDS would have written dump.txt.
    assert not (in_tmp_cwd / "dump.txt").exists()


def test_every_fault_reaches_every_kind_of_entry_point():
    """The table covers each fault at every entry point it applies to (no entry point is skipped)."""
    for entry, (kind, _, _) in ENTRY_POINTS.items():
        faults = {f for f, (c, _) in CASES.items() if kind in c.kinds}
        assert {"a card held twice", "not a deal"} <= faults, entry
        if kind != "table":
            assert {"bad leader", "bad trump"} <= faults, entry


def test_faults_ddsbind_finds_alone_do_not_print_dds_general_error():
    """ArgumentError / InvalidArgumentError: the message is the fault (function, position), not DDS's -1 text."""
    with pytest.raises(errors.ArgumentError) as info:
        ddsbind.dd_tables([FULL, 42])
    text = str(info.value)
    assert "General error" not in text and "DDS code" not in text
    assert text == "deal 2: a deal must be a Deal, a PBN string or a (4, 4) mask array, got int"
    with pytest.raises(errors.InvalidArgumentError) as info2:
        ddsbind.par([[7] * 4] * 5, "sideways")
    assert str(info2.value).startswith("vulnerability 'sideways'"), str(info2.value)
    assert str(errors.InvalidArgumentError("x is wrong", function="Par").at(3, "board")) == "Par: board 4: x is wrong"
    # A fault DDS has a code for keeps DDS's own text first.
    assert "DDS code -19" in str(errors.FirstWrongError("first 7", function="SolveBoard"))


CLI_CASES = [f for f, (c, _) in CASES.items() if "position" in c.kinds and c.deal != 42]


@pytest.mark.parametrize("command", ["solve", "line"])
@pytest.mark.parametrize("fault", CLI_CASES)
def test_the_cli_reports_the_same_fault_in_one_line(fault, command, in_tmp_cwd):
    """The console's `solve` and `line` say what `solve_board` says, in one line (exit 1), or refuse the option (2)."""
    from click.testing import CliRunner

    from ddsbind.cli import main

    case, expected = CASES[fault]
    deal = case.deal.to_pbn() if isinstance(case.deal, Deal) else case.deal
    args = [command, deal, "--strain", str(case.trump), "--leader", str(case.first), "--trick", ",".join(case.trick)]
    result = CliRunner().invoke(main, args)
    if expected in (errors.FirstWrongError, errors.TrumpWrongError):
        assert result.exit_code == 2 and ("--leader" in result.output or "--strain" in result.output), result.output
        return
    with pytest.raises(expected) as info:
        ddsbind.solve_board(deal, case.trump, case.first, current_trick=case.trick)
    assert result.exit_code == 1, result.output
    assert result.output.strip().splitlines() == [f"ddsbind: error: {info.value}"]
