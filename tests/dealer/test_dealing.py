"""Dealing: exact sampling (chi-square against combinatorial values), predeal, reproducibility, derived arrays."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest

from ddsbind.dealer import BATCH, DealerError, Hands, Predeal, deal_batch, deal_batches

SAMPLE = 1 << 17


def chi_square_z(observed: np.ndarray, expected_p: np.ndarray) -> float:
    """Wilson-Hilferty z of Pearson's chi-square (cells with expected count < 5 pooled); z > 4 means p < 3e-5."""
    n = observed.sum()
    expected = expected_p * n
    small = expected < 5
    obs = np.append(observed[~small], observed[small].sum())
    exp = np.append(expected[~small], expected[small].sum())
    keep = exp > 0
    obs, exp = obs[keep], exp[keep]
    chi2 = float(((obs - exp) ** 2 / exp).sum())
    k = obs.size - 1
    return ((chi2 / k) ** (1 / 3) - (1 - 2 / (9 * k))) / math.sqrt(2 / (9 * k))


def exact_patterns() -> dict[tuple[int, ...], float]:
    """Probability of each hand pattern (lengths sorted, longest first), from binomial coefficients."""
    total = math.comb(52, 13)
    out: Counter[tuple[int, ...]] = Counter()
    for lengths in itertools.product(range(14), repeat=4):
        if sum(lengths) == 13:
            ways = math.prod(math.comb(13, n) for n in lengths)
            out[tuple(sorted(lengths, reverse=True))] += ways / total
    return dict(out)


def exact_hcp() -> np.ndarray:
    """P(hand has h HCP), h = 0..37: honours chosen by DP over the 16 honours, the rest from 36 spot cards."""
    ways = np.zeros((17, 41), dtype=object)  # [honours taken][points]
    ways[0, 0] = 1
    for weight in [4, 3, 2, 1] * 4:
        nxt = ways.copy()
        nxt[1:, weight:] += ways[:-1, : 41 - weight]
        ways = nxt
    total = math.comb(52, 13)
    probs = np.zeros(41)
    for k in range(14):
        for p in range(41):
            probs[p] += ways[k, p] * math.comb(36, 13 - k) / total
    return probs


def north_hands(predeal: Predeal | None = None, seed: int = 7) -> Hands:
    return Hands(np.concatenate(list(deal_batches(seed, SAMPLE, predeal, threads=2))))


def test_quoted_shape_frequencies_are_the_exact_ones():
    """The issue's 4-3-3-3 10.54%, 4-4-3-2 21.55%, 5-3-3-2 15.52% come out of the combinatorics used below."""
    p = exact_patterns()
    assert round(100 * p[(4, 3, 3, 3)], 2) == 10.54
    assert round(100 * p[(4, 4, 3, 2)], 2) == 21.55
    assert round(100 * p[(5, 3, 3, 2)], 2) == 15.52
    assert math.isclose(sum(p.values()), 1.0)


def test_shape_frequencies_match_exact_values():
    """Dealt hand patterns follow the exact distribution (chi-square), so no bias from the shuffle."""
    hands = north_hands()
    patterns = np.sort(hands.lengths[:, 0, :], axis=1)[:, ::-1]
    exact = exact_patterns()
    keys = sorted(exact)
    index = {k: i for i, k in enumerate(keys)}
    observed = np.zeros(len(keys))
    for row, count in Counter(map(tuple, patterns.tolist())).items():
        observed[index[row]] += count
    assert chi_square_z(observed, np.array([exact[k] for k in keys])) < 4
    share = observed[index[(4, 4, 3, 2)]] / SAMPLE
    assert abs(share - 0.2155) < 5 * math.sqrt(0.2155 * 0.7845 / SAMPLE)


def test_hcp_distribution_matches_exact_values():
    """HCP of a hand follows the exact distribution for each seat (chi-square)."""
    hands = north_hands(seed=11)
    exact = exact_hcp()
    for seat in range(4):
        observed = np.bincount(hands.hcp[:, seat], minlength=41)[:41].astype(float)
        assert chi_square_z(observed, exact) < 4, seat


def test_predealt_hand_is_kept_and_partner_hcp_is_exact():
    """A predealt South keeps its 13 cards on every deal; North's spades follow the hypergeometric law."""
    pre = Predeal.from_hands({"S": "SAQ542,HKJ87,D32,CAK"})
    hands = north_hands(pre, seed=3)
    south = pre.owners == 2
    assert (hands.owners[:, south] == 2).all()
    assert (np.bincount(hands.owners.ravel(), minlength=4) == 13 * hands.n).all()
    # 8 spades among the 39 unseen cards; North gets 13 of them.
    exact = np.array([math.comb(8, k) * math.comb(31, 13 - k) / math.comb(39, 13) for k in range(9)])
    observed = np.bincount(hands.lengths[:, 0, 0], minlength=9).astype(float)
    assert chi_square_z(observed, exact) < 4
    mean = hands.hcp[:, 0].mean()
    assert abs(mean - 23 / 3) < 0.05  # 40 - 17 points shared by three hands


def test_single_card_predeal():
    """Predealing one card fixes it and leaves the rest of the suit free: spades(N) = 1 + Hypergeometric(51, 12, 12)."""
    pre = Predeal.from_hands({"N": "S2"})
    hands = north_hands(pre, seed=5)
    assert (hands.owners[:, 12] == 0).all()
    exact = np.zeros(14)
    for k in range(13):
        exact[k + 1] = math.comb(12, k) * math.comb(39, 12 - k) / math.comb(51, 12)
    assert chi_square_z(np.bincount(hands.lengths[:, 0, 0], minlength=14).astype(float), exact) < 4


def test_every_completion_of_a_small_predeal_is_equally_likely():
    """With 48 cards predealt, the 70 ways to split the last 8 between East and West are equally frequent."""
    owners = np.repeat(np.arange(4, dtype=np.int8), 13)
    rng = np.random.default_rng(0)
    owners = owners[rng.permutation(52)]
    free = np.flatnonzero(owners % 2 == 1)[:8]
    east_free = free[owners[free] == 1]
    if east_free.size != 4:  # keep 4 free cards each side
        free = np.concatenate([np.flatnonzero(owners == 1)[:4], np.flatnonzero(owners == 3)[:4]])
    pre = owners.copy()
    pre[free] = -1
    deals = np.concatenate([deal_batch(9, k, Predeal(pre)) for k in range(4)])
    codes = (deals[:, free] == 1).astype(np.int64) @ (1 << np.arange(8))
    counts = np.bincount(codes, minlength=256)
    used = counts[counts > 0]
    assert used.size == math.comb(8, 4)
    assert chi_square_z(used.astype(float), np.full(used.size, 1 / used.size)) < 4


def test_same_seed_same_deals_at_any_thread_count():
    """Batch k of seed S does not depend on the threads dealing it, and the first rows of a short batch agree."""
    one = np.concatenate(list(deal_batches(42, 3 * BATCH + 5, threads=1)))
    two = np.concatenate(list(deal_batches(42, 3 * BATCH + 5, threads=2)))
    assert np.array_equal(one, two)
    assert np.array_equal(deal_batch(42, 1, size=10), one[BATCH : BATCH + 10])
    assert not np.array_equal(deal_batch(43, 0, size=10), one[:10])


@pytest.mark.slow
def test_same_deals_on_a_two_worker_dask_cluster():
    """Dealing on Dask gives the very deals the threads give."""
    distributed = pytest.importorskip("dask.distributed")
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        dask = np.concatenate(list(deal_batches(42, 2 * BATCH + 3, client=client)))
    assert np.array_equal(dask, np.concatenate(list(deal_batches(42, 2 * BATCH + 3))))


def test_derived_arrays_on_a_known_deal():
    """HCP, lengths, controls, losers, top-k and c13 of one known deal are dealer's values."""
    pre = Predeal.from_hands(
        {"N": "AKQ2.A32.5432.32", "E": "J543.KQJ.AK.AKQ4", "S": "T9876.54.QJ.JT98", "W": ".T9876.T9876.765"}
    )
    hands = Hands(deal_batch(1, 0, pre, size=1))
    assert hands.hcp[0].tolist() == [13, 23, 4, 0]
    assert hands.lengths[0, 0].tolist() == [4, 3, 4, 2]
    assert hands.controls[0].tolist() == [5, 7, 0, 0]
    assert hands.losers_by_suit[0, 0].tolist() == [0, 2, 3, 2]  # AKQx, Axx, xxxx, xx
    assert hands.losers_by_suit[0, 3].tolist() == [0, 3, 3, 3]
    assert hands.losers_by_suit[0, 1].tolist() == [3, 1, 0, 0]  # Jxxx, KQJ, AK, AKQx
    assert hands.count((1, 1, 1), by_suit=True)[0, 0].tolist() == [3, 1, 0, 0]
    assert hands.count((6, 4, 2, 1))[0].tolist() == [18, 30, 4, 0]


def test_predeal_errors():
    """A card predealt twice or a 14th card to one seat is refused with a message naming it."""
    with pytest.raises(DealerError, match="SA is predealt twice"):
        Predeal.from_hands({"N": "SA", "E": "SA"})
    with pytest.raises(DealerError, match="14 cards"):
        Predeal.from_hands({"N": "SAKQJT98765432,HA"})
    with pytest.raises(DealerError, match="seed"):
        deal_batch(-1, 0)


def test_tied_rows_are_dealt_again_as_permutations():
    """Rows whose 26-bit keys tie get fresh exact permutations, reproducibly, so no row is biased by the tie-break."""
    from ddsbind.dealer.dealing import _permutations, _redraw

    rows = np.array([3, 17, 40000])
    again = _redraw(5, 2, rows, 52)
    assert (np.sort(again, axis=1) == np.arange(52)).all()
    assert np.array_equal(again, _redraw(5, 2, rows, 52))
    assert len({r.tobytes() for r in again}) == 3
    perms = _permutations(5, 0, BATCH, 39)
    assert (np.sort(perms, axis=1) == np.arange(39)).all()
