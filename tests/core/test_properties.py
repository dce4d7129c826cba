"""Metamorphic properties of DDS's answers over random legal deals (hypothesis)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ddsbind
from ddsbind import Deal, Seat

pytestmark = pytest.mark.slow  # each example solves full tables: seconds per test

deals = st.integers(min_value=0, max_value=2**63).map(Deal.random)
# Each example solves full tables (~0.1-0.2 s each): keep the counts modest.
FEW = settings(max_examples=8, deadline=None)


@FEW
@given(deals, st.integers(1, 3))
def test_rotating_the_deal_rotates_the_table(d, k):
    """Moving every hand k seats clockwise moves every declarer's result k seats too."""
    t = np.asarray(ddsbind.dd_table(d))
    r = np.asarray(ddsbind.dd_table(d.rotated(k)))
    assert np.array_equal(np.roll(t, k, axis=1), r)


@FEW
@given(deals, st.permutations(range(4)))
def test_permuting_suits_permutes_suit_strains(d, perm):
    """Renaming the suits renames the suit strains and leaves notrump alone."""
    t = np.asarray(ddsbind.dd_table(d))
    p = np.asarray(ddsbind.dd_table(d.with_suits_permuted(perm)))
    assert np.array_equal(p[list(perm)], t[:4])
    assert np.array_equal(p[4], t[4])


@FEW
@given(deals, st.integers(0, 4), st.integers(0, 3))
def test_solve_board_best_score_matches_table(d, strain, leader):
    """The leader's side's best score is 13 minus the table entry of declarer (the leader's RHO)."""
    t = ddsbind.dd_table(d)
    declarer = Seat(leader).next(3)
    best = ddsbind.solve_board(d, strain, leader).best_score
    assert best == 13 - t[strain, declarer]


@FEW
@given(st.lists(deals, min_size=1, max_size=6))
def test_batched_tables_equal_single_tables(ds):
    """dd_tables over a batch gives the same tables as dd_table one by one."""
    assert ddsbind.dd_tables(ds) == [ddsbind.dd_table(d) for d in ds]
