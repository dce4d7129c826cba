"""The question planner: a dealer script's tricks() solved the cheapest way, with the answers whole tables give.

Oracle: the same script on the same deals with a plain ``solve`` (every deal
asked anything gets its whole DD table from the pool's table route).
"""

from __future__ import annotations

import io

import numpy as np
import pytest

from ddsbind.dealer import deal_batch, parse, run
from ddsbind.dealer.dealing import Hands
from ddsbind.dealer.run import QuestionSolver
from ddsbind.pool import SolverPool

STRAINS = ("spades", "hearts", "diamonds", "clubs", "notrumps")
SEATS = ("north", "east", "south", "west")
TWENTY = "action " + ",\n  ".join(f"average tricks({seat}, {strain})" for strain in STRAINS for seat in SEATS)

#: Every script of tests/dealer/ that calls tricks() (test_script.py's two), then the planner's own:
#: thresholds with each operator and on either side, names, || and ?:, scores, printes, 2-D frequency,
#: all twenty results (the whole-table route).
SCRIPTS = {
    "printed tricks": (
        "produce 5\ncondition hcp(north) + hcp(south) >= 20\n"
        "action printoneline(tricks(south, notrump) * 100 + tricks(east, hearts)), average tricks(north, spades)\n"
    ),
    "lazy condition": "produce 3\ncondition hcp(north) > 9 && tricks(north, notrump) >= 7\naction printoneline",
    "every comparison": (
        "produce 5\ncondition hcp(north) + hcp(south) >= 24\n"
        "action average (tricks(south, notrump) >= 9), average (tricks(south, notrump) > 8),\n"
        "  average (tricks(south, notrump) < 9), average (tricks(south, notrump) <= 8),\n"
        "  average (9 <= tricks(north, spades)), average (9 > tricks(north, spades)),\n"
        "  average (tricks(east, hearts) >= -1), average (tricks(east, hearts) > 13),\n"
        "  average (tricks(west, clubs) == 4), average (tricks(west, clubs) != 4), average (0 < tricks(west, clubs))\n"
    ),
    "names": (
        "nt = tricks(south, notrump)\ngame = nt >= 9\nproduce 4\ncondition hcp(north) >= 15 && game\n"
        "action average nt, frequency (tricks(north, hearts), 0, 13)\n"
    ),
    "or and select": (
        "produce 4\ncondition hcp(north) >= 13 && (tricks(north, spades) >= 10 || tricks(north, hearts) >= 10"
        " || hcp(south) > 12)\naction printoneline(tricks(north, spades) > 9 ? 1 : tricks(east, diamonds))\n"
    ),
    "scores": (
        "produce 4\ncondition hcp(north) + hcp(south) > 25\n"
        "action average score(nv, x3N, tricks(south, notrump)),"
        " average imps(score(vul, x4S, tricks(north, spades)) - score(vul, x3N, tricks(north, notrump)))\n"
    ),
    "printes": 'produce 3\ncondition hcp(west) > 14\naction printes("t=", tricks(west, notrump), "\\n")\n',
    "frequency 2-d": (
        "produce 4\ncondition hcp(east) > 15\n"
        "action frequency (tricks(east, notrumps), 4, 10, tricks(west, spades), 2, 8)\n"
    ),
    "twenty results": "produce 3\ncondition hcp(north) >= 19\n" + TWENTY + "\n",
    "par beside tricks": (
        "produce 3\ncondition hcp(north) >= 16 && tricks(north, notrump) >= 8\n"
        "action average par(ns), average tricks(south, hearts)\n"
    ),
}


class Recording(QuestionSolver):
    """A QuestionSolver that notes every call: whole tables (deals) and answers (deals, questions)."""

    def __init__(self, pool: SolverPool) -> None:
        super().__init__(pool)
        self.table_calls: list[np.ndarray] = []
        self.answer_calls: list[tuple[np.ndarray, list[tuple[int, int, int]]]] = []

    def __call__(self, owners):
        self.table_calls.append(owners.copy())
        return super().__call__(owners)

    def answers(self, owners, questions):
        self.answer_calls.append((owners.copy(), list(questions)))
        return super().answers(owners, questions)


@pytest.fixture(scope="module")
def pool():
    with SolverPool(2) as p:
        yield p


def both_ways(text: str, pool: SolverPool, seed: int = 3, size: int = 400):
    """The script run on the same deals by the planner and by whole tables: (planner, run, out), (run, out)."""
    deals = deal_batch(seed, 0, size=size)
    plain = QuestionSolver(pool)
    planner = Recording(pool)
    out_planned, out_tables = io.StringIO(), io.StringIO()
    planned = run(parse(text), seed, deals=deals, solve=planner, out=out_planned, keep=True)
    tables = run(parse(text), seed, deals=deals, solve=lambda owners: plain(owners), out=out_tables, keep=True)
    return (planner, planned, out_planned.getvalue()), (tables, out_tables.getvalue())


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_planner_gives_what_whole_tables_give(name, pool):
    """Without this, a script's printed deals, averages or frequencies could change when the planner solves less."""
    (_, planned, out_planned), (tables, out_tables) = both_ways(SCRIPTS[name], pool)
    assert planned.produced == tables.produced > 0
    assert planned.generated == tables.generated
    assert out_planned == out_tables
    assert planned.sums == tables.sums
    for a, b in zip(planned.counts, tables.counts, strict=True):
        assert np.array_equal(a, b)
    assert planned.known is not None and tables.tables is not None
    solved = planned.known >= 0
    assert np.array_equal(planned.known[solved], tables.tables[solved])  # every exact result it kept is DDS's


def test_threshold_only_script_asks_target_searches_only(pool):
    """Without this, `tricks(...) >= 7` would cost a whole table (or a full search) per deal instead of a target."""
    (planner, _, _), _ = both_ways(SCRIPTS["lazy condition"], pool)
    assert not planner.table_calls
    assert planner.answer_calls
    assert all(q == [(4, 0, 7)] for _, q in planner.answer_calls)


def test_deals_failing_the_cheap_part_never_reach_dds(pool):
    """Without this, every dealt deal would be solved even when hcp() already rejects it."""
    (planner, _, _), _ = both_ways(SCRIPTS["lazy condition"], pool)
    asked = np.concatenate([owners for owners, _ in planner.answer_calls])
    assert (Hands(asked).count((4, 3, 2, 1))[:, 0] > 9).all()


def test_one_result_per_deal_is_one_search_and_twenty_are_a_table(pool):
    """Without this, a script reading one result would pay for twenty, or twenty would go search by search."""
    deals = deal_batch(8, 0, size=6)
    one = Recording(pool)
    run(parse("action average tricks(south, notrumps)"), 8, deals=deals, solve=one)
    assert not one.table_calls
    assert [(len(o), q) for o, q in one.answer_calls] == [(6, [(4, 2, -1)])]
    twenty = Recording(pool)
    result = run(parse(TWENTY), 8, deals=deals, solve=twenty, keep=True)
    assert [len(o) for o in twenty.table_calls] == [6] and not twenty.answer_calls
    assert result.tables is not None and (result.tables >= 0).all()


def test_a_result_already_known_is_not_solved_again(pool):
    """Without this, a condition's exact count would be searched again when the action reads it."""
    text = "produce 3\ncondition hcp(north) > 12 && tricks(north, spades) > 5\naction average tricks(north, spades)"
    deals = deal_batch(4, 0, size=200)
    rec = Recording(pool)
    run(parse(text.replace("> 5", "+ 0 > 5")), 4, deals=deals, solve=rec)  # `+ 0`: an exact count, not a threshold
    assert all(q == [(0, 0, -1)] for _, q in rec.answer_calls)
    assert len(rec.answer_calls) >= 1
    asked = np.concatenate([owners for owners, _ in rec.answer_calls])
    assert len(np.unique(asked, axis=0)) == len(asked)  # each deal searched once, condition and action together


def test_script_records_the_exact_results_its_actions_read():
    """Without this, the planner would not know which results to solve together for the accepted deals."""
    script = parse(
        "x = tricks(south, notrump)\ncondition hcp(north) > 10 && x >= 9 && 7 < tricks(north, spades)\n"
        "action average tricks(east, hearts), printoneline(tricks(west, clubs) + x),"
        " average (tricks(north, diamonds) > 8)"
    )
    assert script.action_tricks == ((1, 1), (3, 3), (4, 2))
    assert script.uses_tricks


def test_par_asks_the_solver_it_is_given_with_the_script_dealer_and_vulnerability():
    """Without this, par() could score with a solver of its own, or read `vulnerable ew` in another order."""
    from ddsbind.dealer.run import WholeTables
    from ddsbind.game import Seat, Vulnerability

    class FixedPar(WholeTables):
        def __init__(self) -> None:
            super().__init__(lambda owners: np.zeros((len(owners), 5, 4), dtype=np.int8))
            self.asked: list[tuple[Seat, Vulnerability]] = []

        def par(self, tables, dealer, vulnerable):
            self.asked.append((dealer, vulnerable))
            return np.full(len(tables), 7, dtype=np.int64)

    solver = FixedPar()
    text = "dealer west\nvulnerable ew\naction average par(ns), average par(ew)"
    result = run(parse(text), 8, deals=deal_batch(8, 0, size=5), solve=solver)
    assert result.sums == [35, -35]
    assert set(solver.asked) == {(Seat.W, Vulnerability.EW)}
    assert all(type(d) is Seat and type(v) is Vulnerability for d, v in solver.asked)
