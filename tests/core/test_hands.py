"""Hand evaluation (ddsbind.hands, Deal.hcp/lengths/controls/losers/diagram) against Debian's dealer and by hand.

The oracle for the counts is Debian's ``dealer`` (installed by the project's
set-up): it deals 100,000 hands and prints, for each, the deal and its own
``hcp``, ``controls`` and ``losers`` per hand and per suit; ddsbind must
give every one of those numbers from the printed deal.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddsbind import hands
from ddsbind.deal import Deal, Seat
from ddsbind.dealer.dealing import Hands, deal_batch
from ddsbind.dealer.language import Frame, parse
from ddsbind.errors import InvalidArgumentError
from tests.support import owners_from_onelines

DEALER = shutil.which("dealer") or "/usr/games/dealer"
SEATS = ("north", "east", "south", "west")
SUITS = ("spades", "hearts", "diamonds", "clubs")
RANKS = "AKQJT98765432"


def _dealer_script(n: int) -> str:
    values = []
    for seat in SEATS:
        values += [f"hcp({seat})", f"controls({seat})", f"losers({seat})"]
        for suit in SUITS:
            values += [f"hcp({seat}, {suit})", f"controls({seat}, {suit})", f"losers({seat}, {suit})"]
    items = ', " ", '.join(values)
    return f'generate {n}\nproduce {n}\naction printes({items}, " "), printoneline\n'


def test_counts_equal_debian_dealers_on_100000_deals(tmp_path: Path) -> None:
    """hcp, controls, losers per hand and suit equal Debian dealer's on 100,000 deals: scripts port as they are."""
    assert Path(DEALER).exists(), "Debian's dealer is part of the project's set-up (apt-get install dealer)"
    n = 100_000
    script = tmp_path / "counts.dl"
    script.write_text(_dealer_script(n))
    out = subprocess.run([DEALER, "-s", "11", str(script)], capture_output=True, text=True, check=True).stdout
    lines = [line for line in out.splitlines() if " n " in line]
    assert len(lines) == n
    printed_numbers, printed_deals = zip(*(line.split(" n ", 1) for line in lines), strict=True)
    numbers = np.loadtxt(printed_numbers, dtype=np.int16).reshape(n, 4, 15)
    owners = owners_from_onelines(["n " + deal for deal in printed_deals])
    assert (np.bincount(owners.ravel(), minlength=4) == 13 * n).all()
    per_suit = numbers[:, :, 3:].reshape(n, 4, 4, 3)  # [deal, seat, suit, (hcp, controls, losers)]
    np.testing.assert_array_equal(hands.hcp(owners), numbers[:, :, 0])
    np.testing.assert_array_equal(hands.controls(owners), numbers[:, :, 1])
    np.testing.assert_array_equal(hands.losers(owners), numbers[:, :, 2])
    np.testing.assert_array_equal(hands.hcp(owners, by_suit=True), per_suit[..., 0])
    np.testing.assert_array_equal(hands.controls(owners, by_suit=True), per_suit[..., 1])
    np.testing.assert_array_equal(hands.losers(owners, by_suit=True), per_suit[..., 2])
    for k in range(0, n, 997):  # the Deal methods on a sample: one per-deal path over the same arrays
        deal = Deal.from_owners(owners[k])
        for seat in Seat:
            assert deal.hcp(seat) == numbers[k, seat, 0]
            assert deal.controls(seat) == numbers[k, seat, 1]
            assert deal.losers(seat) == numbers[k, seat, 2]
        printed = lines[k].split(" n ", 1)[1].split()[0::2]  # the four hands as dealer printed them
        for seat in Seat:
            assert deal.lengths(seat) == tuple(len(h) for h in printed[seat].split("."))


def test_dealer_language_functions_equal_hands_on_100000_deals() -> None:
    """The language's hcp/controls/losers/suit lengths (every seat and suit) equal ddsbind.hands on 100,000 deals."""
    owners = np.concatenate([deal_batch(2026, k) for k in range(7)])[:100_000]
    frame = Frame(Hands(owners))
    rows = np.arange(owners.shape[0])
    want_lengths = hands.suit_lengths(owners)
    for s, seat in enumerate(SEATS):
        for name, function in (("hcp", hands.hcp), ("controls", hands.controls), ("losers", hands.losers)):
            script = parse(f"condition {name}({seat}) >= 0\naction average {name}({seat})")
            (expr,) = script.actions[0].exprs
            np.testing.assert_array_equal(expr(frame, rows), function(owners)[:, s], err_msg=f"{name}({seat})")
            for u, suit in enumerate(SUITS):
                (expr,) = parse(f"action average {name}({seat}, {suit})").actions[0].exprs
                np.testing.assert_array_equal(expr(frame, rows), function(owners, by_suit=True)[:, s, u])
        for u, suit in enumerate(SUITS):
            (expr,) = parse(f"action average {suit}({seat})").actions[0].exprs
            np.testing.assert_array_equal(expr(frame, rows), want_lengths[:, s, u])


# A deal counted by hand, hand by hand below.
HAND_DEAL = "N:AKQJ.T98.765.432 75.AJ2.Q9.AKQJT9 T9.KQ7.AKJT.8765 86432.6543.8432.-"


@pytest.mark.parametrize(
    ("seat", "hcp", "lengths", "controls", "losers"),
    [
        # N: AKQJ (10) T98 (0) 765 (0) 432 (0); controls A K = 3; losers 0 + 3 + 3 + 3.
        ("N", 10, (4, 3, 3, 3), 3, 9),
        # E: 75 (0) AJ2 (5) Q9 (2) AKQJT9 (10) = 17; controls 2 + 3 = 5; losers 2 + 2 (AJ2: A counts) + 2 + 0.
        ("E", 17, (2, 3, 2, 6), 5, 6),
        # S: T9 (0) KQ7 (5) AKJT (8) 8765 (0) = 13; controls 1 + 3 = 4; losers 2 + 1 + 1 + 3.
        ("S", 13, (2, 3, 4, 4), 4, 7),
        # W: 86432 6543 8432 void: 0 HCP, 0 controls, losers 3 + 3 + 3 + 0.
        ("W", 0, (5, 4, 4, 0), 0, 9),
    ],
)
def test_deal_methods_count_a_deal_as_by_hand(seat, hcp, lengths, controls, losers):
    """Deal.hcp/lengths/controls/losers of a deal counted by hand: a user's evaluation is the textbook's."""
    deal = Deal.from_pbn(HAND_DEAL)
    assert (deal.hcp(seat), deal.lengths(seat), deal.controls(seat), deal.losers(seat)) == (
        hcp,
        lengths,
        controls,
        losers,
    )


def _north_with_spades(holding: str) -> Deal:
    """A deal whose North holds ``holding`` (ranks, ``"KQ2"``) in spades; every other card filled in, in order."""
    cards = [f"S{r}" for r in holding]
    north = [*cards, *[f"{s}{r}" for s in "HDC" for r in RANKS][: 13 - len(cards)]]
    others = [c for c in (f"{s}{r}" for s in "SHDC" for r in RANKS) if c not in north]
    return Deal.from_hands({"N": north, "E": others[:13], "S": others[13:26], "W": others[26:]})


@pytest.mark.parametrize(
    ("holding", "losers"),
    [("K", 1), ("A", 0), ("Q2", 2), ("K2", 1), ("AK", 0), ("KQ2", 1), ("QJ2", 2), ("AQ432", 1), ("J", 1), ("", 0)],
)
def test_losers_follow_dealers_rule_suit_by_suit(holding, losers):
    """Singleton king a loser, doubleton queen two, voids none: dealer's rule, which scripts rely on."""
    assert int(hands.losers(_north_with_spades(holding).owners(), by_suit=True)[0, 0]) == losers


def test_an_ending_counts_the_cards_still_held():
    """In a 3-card ending the counts are of the cards left (absent cards count for nobody)."""
    deal = Deal.from_pbn("N:AK.2.. QJ.3.. T9.4.. 87.5..")
    assert [deal.hcp(s) for s in Seat] == [7, 3, 0, 0]
    assert deal.lengths("N") == (2, 1, 0, 0)
    assert deal.controls("N") == 3
    assert deal.losers("E") == 2 + 1  # QJ: doubleton queen; the 3 of hearts


def test_vectorised_forms_keep_the_leading_shape():
    """(…, 52) owners give (…, 4) totals and (…, 4, 4) per suit: batches of batches work as one."""
    owners = deal_batch(5, 0, size=24).reshape(2, 3, 4, 52)
    assert hands.hcp(owners).shape == (2, 3, 4, 4)
    assert hands.suit_lengths(owners).shape == (2, 3, 4, 4, 4)
    assert (hands.hcp(owners).sum(axis=-1) == 40).all()
    assert (hands.suit_lengths(owners).sum(axis=(-1, -2)) == 52).all()
    assert (hands.controls(owners).sum(axis=-1) == 12).all()


def test_large_weights_do_not_overflow():
    """Weights whose sums pass int16 (pointcount 10000 ...) count exactly instead of wrapping round."""
    owners = deal_batch(5, 0, size=100)
    got = hands.count(owners, (10000, 1000), by_suit=False)
    aces, kings = (hands.count(owners, w, by_suit=False).astype(np.int64) for w in ((1,), (0, 1)))
    want = 10000 * aces + 1000 * kings  # int64: 4 aces (40000) would wrap in the int16 the counts come as
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize(
    "bad",
    [np.zeros((3, 51), dtype=np.int8), np.full((1, 52), 4, dtype=np.int8), np.zeros((1, 52), dtype=float)],
)
def test_bad_owner_arrays_are_refused(bad):
    """An array that is no deal is an InvalidArgumentError naming the fault, not a wrong count."""
    with pytest.raises(InvalidArgumentError):
        hands.hcp(bad)


def test_diagram_is_the_conventional_layout():
    """N on top, W left, E right, S below, with dealer and vulnerability: the layout of every bridge book."""
    deal = Deal.from_pbn(HAND_DEAL)
    text = deal.diagram(dealer="E", vulnerable="both", board=2)
    lines = text.splitlines()
    assert lines[0] == "Board 2, dealer E, vulnerable All"
    pad = " " * 20
    assert lines[1:5] == [pad + "S AKQJ", pad + "H T98", pad + "D 765", pad + "C 432"]
    assert lines[5:9] == [
        "S 86432" + " " * 33 + "S 75",
        "H 6543" + " " * 34 + "H AJ2",
        "D 8432" + " " * 34 + "D Q9",
        "C -" + " " * 37 + "C AKQJT9",
    ]
    assert lines[9:] == [pad + "S T9", pad + "H KQ7", pad + "D AKJT", pad + "C 8765"]
    assert deal.diagram().splitlines()[0] == pad + "S AKQJ"


LTC_DEAL = "N:AQ.Q32.KJ54.8765 KJT98.AKJ.AQ2.43 765.T987.T987.AK 432.654.63.QJT92"


def test_ltc_of_a_deal_is_dealerv2s_rule_worked_by_hand():
    """DealerV2's ltc (hundredths; oracle: DealerV2's source, countltc) worked by hand for one deal's 16 suits."""
    owners = Deal.from_pbn(LTC_DEAL).owners()
    # N: AQ 0.5, Q32 2.5, KJ54 (KJx) 2, 8765 3;   E: KJT98 (KJT) 1.5, AKJ 0.5, AQ2 1, 43 2;
    # S: 765 3, T987 (Txx) 3, T987 3, AK 0;      W: 432 3, 654 3, 63 2, QJT92 (QJT) 2
    expected = [[50, 250, 200, 300], [150, 50, 100, 200], [300, 300, 300, 0], [300, 300, 200, 200]]
    assert hands.ltc(owners, by_suit=True).tolist() == expected
    assert hands.ltc(owners).tolist() == [800, 500, 900, 1000]


def test_ltc_counts_dealerv2s_half_losers_of_the_issue():
    """North K / AJT2 / KJT4 / QJ32 is 550 as in DealerV2 (source: countltc), not 750: scripts select the same hands."""
    owners = Deal.from_pbn("N:K.AJT2.KJT4.QJ32 AQJT98765432.K.. .Q9876543.AQ987. ..6532.AKT987654").owners()
    assert hands.ltc(owners, by_suit=True)[0].tolist() == [50, 150, 150, 200]
    assert int(hands.ltc(owners)[0]) == 550


@pytest.mark.parametrize(
    ("holding", "ltc"),
    [("", 0), ("A", 0), ("K", 50), ("Q", 100), ("AK", 0), ("AQ", 50), ("KQ", 100), ("Q2", 200), ("A2", 100),
     ("Q32", 250), ("QT3", 250), ("AQ3", 100), ("KQ3", 100), ("AKQ2", 0), ("AKJ", 50), ("AQJ3", 50), ("KJT", 150),
     ("AJT9", 150), ("QJ2", 200), ("QJT9", 200), ("J32", 300), ("T98", 300), ("KJ2", 200)],
)  # fmt: skip
def test_ltc_suit_by_suit(holding, ltc):
    """Each suit's ltc is DealerV2's (oracle: its source's countltc cases): DealerV2 scripts select the same hands."""
    assert int(hands.ltc(_north_with_spades(holding).owners(), by_suit=True)[0, 0]) == ltc


# DealerV2's countltc, transcribed: each card weighs A 64, K 32, Q 16, J 8, T 4, lower 1, a missing
# card 128; a suit's three heaviest weights are summed and the sum looked up in these cases.
_COUNTLTC_CASES = {
    0: (384, 320, 224, 112),
    50: (288, 208, 104, 88),
    100: (49, 52, 56, 81, 84, 97, 100, 161, 164, 168, 176, 193, 196, 200, 257, 260, 264, 272),
    150: (44, 76),
    200: (25, 28, 34, 37, 41, 66, 69, 73, 130, 133, 137, 140, 145, 148, 152),
    250: (18, 21),
    300: (3, 6, 10, 13),
}
_COUNTLTC = {weight: value for value, weights in _COUNTLTC_CASES.items() for weight in weights}
_LTC_WEIGHTS = (64, 32, 16, 8, 4, 1, 1, 1, 1, 1, 1, 1, 1)


def _countltc(owners_row: np.ndarray, seat: int, suit: int) -> int:
    held = [_LTC_WEIGHTS[r] for r in range(13) if owners_row[13 * suit + r] == seat]
    tops = sorted(held, reverse=True)[:3] + [128] * (3 - min(len(held), 3))
    return _COUNTLTC[sum(tops)]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**64 - 1))
def test_ltc_equals_a_transcription_of_dealerv2s_countltc_on_random_deals(seed):
    """On random deals every suit's ltc equals DealerV2's countltc transcribed card by card (oracle: its source)."""
    owners = deal_batch(seed, 0, size=64)
    expected = np.array([[[_countltc(row, seat, suit) for suit in range(4)] for seat in range(4)] for row in owners])
    np.testing.assert_array_equal(hands.ltc(owners, by_suit=True), expected)
    np.testing.assert_array_equal(hands.ltc(owners), expected.sum(axis=2))
    batch = Hands(owners)
    np.testing.assert_array_equal(batch.ltc_by_suit, expected)
    np.testing.assert_array_equal(batch.ltc, expected.sum(axis=2))


def test_dealer_language_ltc_equals_hands_and_reads_dotnums():
    """ltc(seat[, suit]) in a script equals hands.ltc, and 7.5 means 750: DealerV2 conditions run as written."""
    owners = deal_batch(3, 0, size=2_000)
    script = parse(
        "condition ltc(north) <= 7.5 && ltc(south, hearts) >= .5\naction average ltc(north), average ltc(west, clubs)"
    )
    frame = Frame(Hands(owners))
    rows = np.arange(len(owners))
    assert script.condition is not None
    accepted = script.condition(frame, rows) != 0
    expected_ltc = hands.ltc(owners)
    expected = (expected_ltc[:, 0] <= 750) & (hands.ltc(owners, by_suit=True)[:, 2, 1] >= 50)
    np.testing.assert_array_equal(accepted, expected)
    np.testing.assert_array_equal(script.actions[0].exprs[0](frame, rows), expected_ltc[:, 0])
    np.testing.assert_array_equal(script.actions[1].exprs[0](frame, rows), hands.ltc(owners, by_suit=True)[:, 3, 3])


def test_count_with_fractional_weights_is_not_truncated():
    """Weights 4.5/3/1.5/0.75 count an ace-king-queen-jack as 9.75, not 8 (oracle: the weights summed by hand)."""
    owners = Deal.from_pbn("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765").owners()
    weights = [4.5, 3, 1.5, 0.75]
    assert hands.count(owners, weights, by_suit=False).tolist() == [9.75] * 4
    assert hands.count(owners, weights)[0].tolist() == [9.75, 0.0, 0.0, 0.0]
    assert Hands(owners[None]).count(weights).tolist() == [[9.75] * 4]


@settings(max_examples=30, deadline=None)
@given(
    st.integers(0, 2**64 - 1),
    st.lists(st.floats(-100, 100, allow_nan=False).map(lambda w: round(w, 2)), min_size=1, max_size=13),
)
def test_count_equals_brute_force_over_any_weights(seed, weights):
    """count() of random deals equals summing each held card's weight one by one (oracle: brute force)."""
    owners = deal_batch(seed, 0, size=8)
    full = weights + [0.0] * (13 - len(weights))
    want = np.array(
        [
            [[sum(full[r] for r in range(13) if row[13 * s + r] == seat) for s in range(4)] for seat in range(4)]
            for row in owners
        ]
    )
    np.testing.assert_allclose(hands.count(owners, weights), want, atol=1e-9)


@pytest.mark.parametrize("bad", [[float("nan")], [1, float("inf")], ["a"]])
def test_count_refuses_weights_that_are_no_finite_numbers(bad):
    """A NaN or infinite weight is one InvalidArgumentError, not a NaN count."""
    with pytest.raises(InvalidArgumentError, match="weights must be"):
        hands.count(deal_batch(1, 0, size=1), bad)


def _summary_rule(tops: str) -> int:
    """hands' module docstring's summary of ltc: the named cases, else 100 per top card not A, K or a guarded queen."""
    named = {"K": 50, "AQ": 50, "AKJ": 50, "AQJ": 50, "AJT": 150, "KJT": 150, "QJx": 200, "QJT": 200}
    named |= {"Qxx": 250, "QTx": 250}
    if tops in named:
        return named[tops]
    guarded = len(tops) >= 3 and ("A" in tops or "K" in tops)
    return 100 * sum(1 for c in tops if c not in "AK" and not (c == "Q" and guarded))


def test_ltc_docstring_summary_agrees_with_every_case():
    """The rule the docs state in words gives every case of LTC_TOPS: a reader working ltc by hand gets DealerV2's."""
    assert len(hands.LTC_TOPS) == 1 + 6 + 16 + 26  # a void, and every top-card pattern of 1, 2 and 3 cards
    assert {tops: _summary_rule(tops) for tops in hands.LTC_TOPS} == hands.LTC_TOPS


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    keep=st.floats(0.0, 1.0),
    weights=st.sampled_from([(4, 3, 2, 1), (2, 1), (1, 1, 1, 1, 1), (6, 4, 2, 1), (0, 0, 0, 0, 1), (3, 2, 1)]),
    counted=st.booleans(),
)
def test_counts_of_some_deals_are_those_of_the_whole_batch(seed: int, keep: float, weights, counted: bool) -> None:
    """A count read for the deals a condition kept equals the whole batch's count of them: actions see true counts."""
    from ddsbind.dealer.dealing import counts_room

    room = counts_room(200) if counted else None
    owners = deal_batch(seed, 0, size=200, counts=room)
    batch, plain = Hands(owners, room), Hands(owners)
    rows = np.flatnonzero(np.random.default_rng(seed).random(200) < keep)
    for by_suit in (False, True):
        expected = plain.count(weights, by_suit=by_suit)[rows]
        got = batch.count_at(rows, weights, by_suit=by_suit)
        assert np.array_equal(got, expected) and got.dtype == expected.dtype
        assert np.array_equal(batch.count(weights, by_suit=by_suit)[rows], expected)  # and afterwards, cached


def test_counts_of_the_same_deals_share_their_work_but_never_go_stale() -> None:
    """Every action reads counts of a batch's accepted deals (made once for them): the same deals asked again,
    the same array changed in place, or other deals each get their own true counts, never the last ones'."""
    owners = deal_batch(5, 0, size=400)
    batch, plain = Hands(owners), Hands(owners)
    rows = np.flatnonzero(np.random.default_rng(5).random(400) < 0.1)
    for weights in [(6, 4, 2, 1), (1, 1, 1, 1), (6, 4, 2, 1), (4.5, 3, 1.5, 0.75)]:
        assert np.array_equal(batch.count_at(rows, weights, by_suit=True), plain.count(weights, by_suit=True)[rows])
    rows[:] = rows[::-1]  # the same array, other deals in it
    assert np.array_equal(batch.count_at(rows, (6, 4, 2, 1)), plain.count((6, 4, 2, 1))[rows])
    others = rows[: rows.size // 2].copy()
    assert np.array_equal(batch.count_at(others, (6, 4, 2, 1)), plain.count((6, 4, 2, 1))[others])
