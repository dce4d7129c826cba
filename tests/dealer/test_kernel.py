"""The compiled dealing kernel (generator philox-shuffle-1) and generator selection.

Oracles: numpy's own Philox4x64-10 for the kernel's random words; a
plain-Python rendering of the recipe written in ``native/dealkernel.c``'s
header (so the documented recipe is the one the kernel runs); deals of the
first generator recorded from ddsbind's main branch (commit 3da37b0) before
the kernel existed.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ddsbind import hands
from ddsbind.dealer import BATCH, DealerError, Hands, Predeal, deal_batch, deal_batches, parse, run
from ddsbind.dealer.dealing import counts_room
from ddsbind.dealer.kernel import DEFAULT_GENERATOR, GENERATORS, SHUFFLE, SORT, Counts, deal_rows, philox_blocks
from ddsbind.hands import CONTROL_WEIGHTS, HCP_WEIGHTS

MASK64 = (1 << 64) - 1


def reference_deal(seed: int, d: int, predeal: Predeal) -> np.ndarray:
    """Deal ``d`` of ``seed`` by the recipe in native/dealkernel.c, in plain Python on numpy's Philox."""
    # numpy's Philox adds one to the counter before its first block.
    words = iter(np.random.Philox(key=seed, counter=(d << 64) + (2 << 192) - 1).random_raw(64).tolist())
    deck = predeal.free_slots.tolist()
    m = len(deck)
    i = m - 1
    while i > 0:
        product, last = i + 1, i - 1
        while last > 0 and product * (last + 1) <= 1 << 48:
            product *= last + 1
            last -= 1
        while True:
            x = next(words)
            draws = {}
            for k in range(i, last, -1):
                x *= k + 1
                draws[k], x = x >> 64, x & MASK64
            if x >= (1 << 64) % product:
                break
        for k in range(i, last, -1):
            j = draws[k]
            deck[k], deck[j] = deck[j], deck[k]
        i = last
    out = predeal.owners.copy()
    out[predeal.free_cards] = deck
    return out


def _predeal_from(draw_seats: list[int], draw_cards: list[int]) -> Predeal:
    owners = np.full(52, -1, dtype=np.int8)
    counts = [0, 0, 0, 0]
    for seat, card in zip(draw_seats, draw_cards, strict=False):
        if owners[card] < 0 and counts[seat] < 13:
            owners[card] = seat
            counts[seat] += 1
    return Predeal(owners)


predeals = st.builds(
    _predeal_from,
    st.lists(st.integers(0, 3), max_size=52),
    st.lists(st.integers(0, 51), max_size=52),
)


def test_kernel_philox_is_numpys_philox():
    """The kernel's random words are Philox4x64-10's: a wrong round constant would deal a different, unvetted stream."""
    for seed, counter in [(0, 0), (2**128 - 1, 7 + (3 << 64) + (2 << 192)), (123456789, MASK64 - 5)]:
        ours = philox_blocks(seed, counter, 5)
        numpys = np.random.Philox(key=seed, counter=(counter - 1) % (1 << 256)).random_raw(20).reshape(5, 4)
        assert np.array_equal(ours, numpys)


@given(seed=st.integers(0, 2**128 - 1), first=st.integers(0, 2**63), predeal=predeals)
def test_kernel_deals_are_valid_and_honour_the_predeal(seed: int, first: int, predeal: Predeal):
    """Every kernel deal gives each card once, 13 to a hand, the predealt cards where predealt: no impossible deal."""
    owners = deal_rows(seed, first, 40, predeal.owners, predeal.free_cards, predeal.free_slots)
    assert owners.shape == (40, 52)
    assert ((owners >= 0) & (owners <= 3)).all()
    assert (np.apply_along_axis(np.bincount, 1, owners, minlength=4) == 13).all()
    fixed = predeal.owners >= 0
    assert (owners[:, fixed] == predeal.owners[fixed]).all()


@given(seed=st.integers(0, 2**128 - 1), first=st.integers(0, 2**63), predeal=predeals)
def test_counts_made_while_dealing_are_the_deals_counts(seed: int, first: int, predeal: Predeal):
    """Counts the kernel makes as it deals equal those counted from the owners: conditions see the true hands."""
    counts = Counts.empty(30)
    owners = deal_rows(seed, first, 30, predeal.owners, predeal.free_cards, predeal.free_slots, counts)
    assert np.array_equal(owners, deal_rows(seed, first, 30, predeal.owners, predeal.free_cards, predeal.free_slots))
    assert np.array_equal(counts.lengths, hands.suit_lengths(owners))
    assert np.array_equal(counts.hcp, hands.hcp(owners, by_suit=True))
    assert np.array_equal(counts.controls, hands.controls(owners, by_suit=True))
    assert np.array_equal(counts.losers, hands.losers(owners, by_suit=True))
    room = counts_room(30)
    batch = Hands(deal_batch(seed % 2**64, 3, predeal, size=30, counts=room), room)
    plain = Hands(batch.owners)  # counted afterwards, by numpy
    assert np.array_equal(batch.lengths, plain.lengths) and batch.lengths.dtype == plain.lengths.dtype
    assert np.array_equal(batch.losers, plain.losers) and batch.losers.dtype == plain.losers.dtype
    assert np.array_equal(batch.losers_by_suit, plain.losers_by_suit)
    for weights in (HCP_WEIGHTS, CONTROL_WEIGHTS):
        for by_suit in (True, False):
            assert np.array_equal(batch.count(weights, by_suit=by_suit), plain.count(weights, by_suit=by_suit))
            assert batch.count(weights, by_suit=by_suit).dtype == plain.count(weights, by_suit=by_suit).dtype
        assert np.array_equal(batch.count(weights), plain.count(weights, by_suit=True).sum(axis=2))


def test_counts_are_refused_where_the_kernel_does_not_count():
    """Counts asked of swapped deals, the sort recipe or the wrong size are one clear error, never stale numbers."""
    assert counts_room(30, swap=2) is None and counts_room(30, generator=SORT) is None
    for swap, generator, size in ((2, SHUFFLE, 30), (0, SORT, 30), (0, SHUFFLE, 29)):
        with pytest.raises(DealerError, match="counts are made while dealing"):
            deal_batch(1, 0, size=size, swap=swap, generator=generator, counts=Counts.empty(30))


@given(seed=st.integers(0, 2**128 - 1), d=st.integers(0, 2**40), predeal=predeals)
def test_kernel_deals_what_its_documented_recipe_says(seed: int, d: int, predeal: Predeal):
    """The kernel deals exactly the recipe written in its header: the documented generator is the one users get."""
    kernel = deal_rows(seed, d, 2, predeal.owners, predeal.free_cards, predeal.free_slots)
    assert np.array_equal(kernel[0], reference_deal(seed, d, predeal))
    assert np.array_equal(kernel[1], reference_deal(seed, d + 1, predeal))


def test_any_batch_is_reproducible_from_seed_and_index_at_any_thread_count():
    """Batch k is the same whether dealt alone or among others, on 1 or 2 threads: a run can be re-made or resumed."""
    pre = Predeal.from_hands({"S": "SAQ542,HKJ87,D32,CAK"})
    one = np.concatenate(list(deal_batches(42, 3 * BATCH + 5, pre, threads=1)))
    two = np.concatenate(list(deal_batches(42, 3 * BATCH + 5, pre, threads=2)))
    assert np.array_equal(one, two)
    for k in (0, 2, 3):
        assert np.array_equal(deal_batch(42, k, pre, size=5), one[k * BATCH : k * BATCH + 5])
    # Deal d of the run is the kernel's deal d, however the rows are grouped.
    assert np.array_equal(
        deal_rows(42, 2 * BATCH + 1, 3, pre.owners, pre.free_cards, pre.free_slots), one[2 * BATCH + 1 : 2 * BATCH + 4]
    )


def test_a_run_deals_the_same_at_one_and_two_threads():
    """A script's accepted deals do not depend on --threads: results can be reproduced on any machine."""
    script = parse("generate 40000\ncondition hcp(north) >= 15 && spades(south) >= 4\n")
    one = run(script, 11, threads=1, keep=True, produce=40000)
    two = run(script, 11, threads=2, keep=True, produce=40000)
    assert one.deals is not None and two.deals is not None
    assert one.generated == two.generated == 40000
    assert np.array_equal(one.deals, two.deals)


def _digest(owners: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(owners, dtype=np.int8).tobytes()).hexdigest()


def test_philox_sort_1_deals_what_ddsbind_dealt_before_the_kernel():
    """--generator philox-sort-1 gives the very deals of ddsbind before the kernel: old runs can be dealt again."""
    pre = Predeal.from_hands({"S": "SAQ542,HKJ87,D32,CAK", "N": "S3"})
    # sha256 of deal_batch(...) recorded on main at 3da37b0 (before the kernel).
    recorded = [
        ((1, 0, None, 1000, 0), "4562cb2bb2bc4410ebae1d4e3989e9e094eac9b7345c845f1d9399ab38ae354c"),
        ((2**100 + 5, 3, None, 500, 0), "7a12f8c04d156a1ff2d07c2f8987984afce0ac79a8f1afbcf22823fc0cd4a7e2"),
        ((9, 2, pre, 700, 0), "3f12ce85156cd8253e9ebdee83fc0d847f5ad8801536ff4647a0b3a91b7c42f8"),
        ((4, 1, None, 300, 3), "4d4db85f8a618cc556f3354f484871ae58d763a3b5345cbd7675f79fb4385807"),
    ]
    for (seed, batch, predeal, size, swap), digest in recorded:
        assert _digest(deal_batch(seed, batch, predeal, size, swap, generator=SORT)) == digest
    assert _digest(deal_batch(1, 0, None, 1000)) != recorded[0][1]  # the default is the kernel


def test_philox_shuffle_1_deals_stay_the_same():
    """philox-shuffle-1's deals for a seed never change: a changed kernel must take a new generator name."""
    pre = Predeal.from_hands({"S": "SAQ542,HKJ87,D32,CAK", "N": "S3"})
    assert DEFAULT_GENERATOR == SHUFFLE
    assert _digest(deal_batch(1, 0, None, 1000)) == "079c8f7cdb2b2f269a5f9eb2b64b264e2faf06d1c506a80325cc8e7621f96e38"
    assert (
        _digest(deal_batch(2**100 + 5, 3, pre, 500))
        == "a8daba507277b5b87f52b31ed17c798a63fa20f3f2e91489ff03485dd4f2b4b7"
    )


def test_the_cli_selects_the_generator_and_refuses_unknown_ones(tmp_path: Path):
    """--generator picks the recipe (the old one deals as ddsbind did before), and a typo is one clear error."""
    script = tmp_path / "a.dl"
    script.write_text("generate 100000\nproduce 3\ncondition hcp(north)>=20\naction printoneline\n")
    command = [sys.executable, "-m", "ddsbind", "dealer", "-s", "7", "-v", str(script)]
    old = subprocess.run([*command, "--generator", SORT], capture_output=True, text=True, check=True).stdout
    # Printed by `ddsbind dealer -s 7 -v a.dl` on main at 3da37b0 (before the kernel).
    assert old == (
        "n A5.AK97.JT92.AKQ e KT63.Q4.K8.J9874 s 94.JT8532.Q64.T3 w QJ872.6.A753.652 \n"
        "n Q.AKT7.AK5.KQJ94 e A7.Q9.Q64.A76532 s KT96542.J82.T93. w J83.6543.J872.T8 \n"
        "n AKQ975.K8.AK2.Q6 e 6.AQJ3.JT3.T9543 s 2.T542.Q64.AKJ72 w JT843.976.9875.8 \n"
    )
    default = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    named = subprocess.run([*command, "--generator", SHUFFLE], capture_output=True, text=True, check=True).stdout
    assert default == named != old
    bad = subprocess.run([*command, "--generator", "philox-shufle-1"], capture_output=True, text=True, check=False)
    assert bad.returncode == 1 and bad.stdout == ""
    assert bad.stderr.strip() == (
        "ddsbind: error: --generator: unknown generator 'philox-shufle-1': "
        "choose one of philox-shuffle-1, philox-sort-1"
    )
    library = script.with_name("lib.zrd")
    library.write_bytes(b"")
    lib = subprocess.run([*command, "--generator", SORT, "--library", str(library)], capture_output=True, text=True)
    assert lib.returncode == 1 and "drop --generator" in lib.stderr
    helptext = subprocess.run([*command[:4], "--help"], capture_output=True, text=True, check=True).stdout
    assert all(name in " ".join(helptext.split()) for name in GENERATORS)


def test_unknown_generator_in_the_library_is_a_dealer_error():
    """A misspelt generator from Python is a DealerError naming the choices, before anything is dealt."""
    with pytest.raises(DealerError, match="philox-sort-1"):
        deal_batch(1, 0, generator="philox")
    with pytest.raises(DealerError, match="unknown generator"):
        run(parse("generate 10\n"), 1, generator="nope")
