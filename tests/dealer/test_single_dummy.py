"""Single dummy (``ddsbind.single_dummy``): exact answers against an independent enumeration, honest intervals,
uniform layouts, a plain rejection sampler, reproducibility across threads, and every bad input named.

The endings are random deals played out at random for eight tricks (found once, written here), so that
their layouts are few enough to enumerate and their answers vary from layout to layout.
"""

from __future__ import annotations

import itertools
import math
import statistics

import numpy as np
import pytest

import ddsbind
from ddsbind import Card, Deal, Seat, single_dummy, solve_board
from ddsbind.errors import DDSError
from ddsbind.game import Play

#: (contract, full deal, play, view): declarer (N+S) on lead to trick 9, 252 layouts.
DECLARER = (
    "2NTS",
    "N:QT84.KT8.AT.AJ62 AK952.J3.KJ62.75 7.AQ54.Q975.K843 J63.9762.843.QT9",
    "H7 HK HJ H4 ST S5 S7 S6 C2 C5 CK CQ DQ D4 DT DK D6 D7 D8 DA SQ SK C3 SJ S2 D9 S3 S4 CA C7 C4 C9",
    "N:QT84.KT8.AT.AJ62 - 7.AQ54.Q975.K843 -",
)
#: A defender (E, with dummy N) second to play to trick 9, 56 layouts.
DEFENDER = (
    "1NTS",
    "N:A2.872.K8742.963 KJ763.J96.T9.Q85 QT954.543.AJ5.J4 8.AKQT.Q63.AKT72",
    "C7 C9 CQ CJ SJ S4 S8 SA D4 D9 DJ D6 DA D3 D8 DT H4 HA H2 H9 CK C3 C8 C4 CT C6 C5 D5 DQ DK H6 H5 D2",
    "N:A2.872.K8742.963 KJ763.J96.T9.Q85 - -",
)
#: Declarer third to play to trick 9, 70 layouts.
MID_TRICK = (
    "1NTS",
    "N:9853.T65.9.AJT93 AQ74.AQ92.AK6.KQ KJ6.KJ87.Q854.74 T2.43.JT732.8652",
    "D7 D9 D6 D5 H6 HQ H7 H4 DK DQ DT CJ S7 SK ST S9 HK H3 HT H9 C4 C8 C9 CK H2 H8 D3 H5 SJ S2 S3 S4 HJ C6",
    "N:9853.T65.9.AJT93 - KJ6.KJ87.Q854.74 -",
)


def consistent_deals(deal_pbn: str, play: str, view: str, contract: str) -> list[Deal]:
    """Every full deal agreeing with the view and the play, found without ddsbind's sampler.

    The hidden hands' unplayed cards (of the true deal) are split among them in every way, and a split is kept
    when the play, replayed by the rules of :class:`ddsbind.game.Play`, is legal on it (no revoke).
    """
    truth = Deal.from_pbn(deal_pbn)
    c = ddsbind.Contract.parse(contract)
    hidden = [s for s, hand in zip("NESW", _hands(view), strict=True) if hand == "-"]
    played = set(play.split())
    owners = truth.owners()
    pool = [i for i in range(52) if "NESW"[owners[i]] in hidden and str(Card.from_index(i)) not in played]
    sizes = [sum(1 for i in pool if "NESW"[owners[i]] == s) for s in hidden]
    out = []
    for chosen in itertools.combinations(pool, sizes[0]):
        o = owners.copy()
        o[pool] = "NESW".index(hidden[1])
        o[list(chosen)] = "NESW".index(hidden[0])
        if fits(Deal.from_owners(o), play, c):
            out.append(Deal.from_owners(o))
    return out


def fits(deal: Deal, play: str, contract: ddsbind.Contract) -> bool:
    """True when ``play`` is legal on ``deal`` by the rules of :class:`ddsbind.game.Play` (nobody revokes)."""
    try:
        Play(deal, contract.strain, contract.declarer.next()).play_all(play)
    except DDSError:
        return False
    return True


def _hands(view: str) -> list[str]:
    first = "NESW".index(view[0])
    hands = view[2:].split()
    return [hands[(i - first) % 4] for i in range(4)]


def reference_answers(deals: list[Deal], play: str, contract: str) -> dict[str, tuple[list[int], list[bool]]]:
    """Each legal card's declarer-side tricks and made flags on each deal, by ``solve_board`` (solutions=3)."""
    c = ddsbind.Contract.parse(contract)
    out: dict[str, tuple[list[int], list[bool]]] = {}
    for deal in deals:
        p = Play(deal, c.strain, c.declarer.next())
        p.play_all(play)
        won = sum(t.winner.side == c.declarer.side for t in p.tricks)
        left = 13 - len(p.tricks)
        declaring = p.to_play.side == c.declarer.side
        for scored in solve_board(p.deal(), c.strain, p.leader, current_trick=p.current, solutions=3):
            for card in scored.cards:
                total = won + (scored.score if declaring else left - scored.score)
                tricks, made = out.setdefault(str(card), ([], []))
                tricks.append(total)
                made.append(total >= c.trick_target)
    return out


@pytest.mark.parametrize("problem", [DECLARER, DEFENDER, MID_TRICK], ids=["declarer", "defender", "mid-trick"])
def test_exact_answer_equals_an_independent_enumeration(problem):
    """Without this, an exact single-dummy answer could differ from solving every layout by hand: a wrong card
    recommended with full confidence."""
    contract, deal, play, view = problem
    deals = consistent_deals(deal, play, view, contract)
    reference = reference_answers(deals, play, contract)
    r = single_dummy(view, contract=contract, played=play, exact=True, tricks=True, threads=1)
    assert r.exact and r.samples == len(deals) and r.seed is None
    assert sorted(r.deals) == sorted(d.to_pbn() for d in deals)
    assert sorted(c.card for c in r.cards) == sorted(reference)
    for c in r.cards:
        tricks, made = reference[c.card]
        assert c.makes == pytest.approx(sum(made) / len(made), abs=1e-12), c.card
        assert c.mean_tricks == pytest.approx(statistics.fmean(tricks), abs=1e-12), c.card
        assert c.makes_ci == (c.makes, c.makes) and c.mean_tricks_ci == (c.mean_tricks, c.mean_tricks)
    best = max(r.cards, key=lambda x: x.mean_tricks if r.problem.declaring else -x.mean_tricks)
    for c in r.cards:
        assert c.vs_best == pytest.approx(c.mean_tricks - best.mean_tricks, abs=1e-12)
    odds = {card: sum(made) / len(made) for card, (_, made) in reference.items()}
    best_odds = max(odds.values()) if r.problem.declaring else min(odds.values())
    for c in r.cards:  # the make odds' difference from the best card's (what the analysis board shows)
        assert c.makes_vs_best == pytest.approx(odds[c.card] - best_odds, abs=1e-12), c.card
        assert c.makes_vs_best_ci == (c.makes_vs_best, c.makes_vs_best)


def test_make_odds_alone_agree_with_full_scores():
    """Without this, the cheap target search (make odds only) could disagree with the full scores it stands for."""
    contract, _, play, view = DEFENDER
    cheap = single_dummy(view, contract=contract, played=play, exact=True, threads=1)
    full = single_dummy(view, contract=contract, played=play, exact=True, tricks=True, threads=1)
    assert [c.makes for c in cheap.cards] == [c.makes for c in full.cards]
    assert [c.mean_tricks for c in cheap.cards] == [c.mean_tricks for c in full.cards]  # solved when first read


def test_groups_are_ddss():
    """Without this, equal cards would be grouped otherwise than DDS groups them (an entry naming wrong equals)."""
    for contract, deal, play, view in (DECLARER, DEFENDER, MID_TRICK):
        r = single_dummy(view, contract=contract, played=play, exact=True, threads=1)
        mine = {frozenset((c.card, *c.equals)) for c in r.cards}
        c = ddsbind.Contract.parse(contract)
        p = Play(Deal.from_pbn(deal), c.strain, c.declarer.next())
        p.play_all(play)
        dds = {
            frozenset(str(x) for x in s.cards)
            for s in solve_board(p.deal(), c.strain, p.leader, current_trick=p.current)
        }
        assert mine == dds, (mine, dds)


@pytest.mark.slow
def test_intervals_cover_the_exact_values():
    """Without this, the 95% intervals could be far too narrow: a player trusting them would be misled."""
    contract, _, play, view = DECLARER
    exact = single_dummy(view, contract=contract, played=play, exact=True, tricks=True, threads=1)
    truth = {c.card: (c.makes, c.mean_tricks, c.vs_best) for c in exact.cards}
    top = max(c.mean_tricks for c in exact.cards)
    hits = {"makes": 0, "mean": 0, "vs": 0}
    same_best = 0
    for seed in range(40):
        r = single_dummy(view, contract=contract, played=play, exact=False, samples=60, seed=seed, tricks=True,
                         threads=1)  # fmt: skip
        assert not r.exact and r.samples == 60 and r.seed == seed
        cards = {c.card: c for c in r.cards}
        card = cards["S8"]  # a card whose odds are neither 0 nor 1 in this ending
        hits["makes"] += card.makes_ci[0] <= truth["S8"][0] <= card.makes_ci[1]
        hits["mean"] += card.mean_tricks_ci[0] <= truth["S8"][1] <= card.mean_tricks_ci[1]
        best = next(c.card for c in r.cards if c.vs_best == 0)
        if truth[best][1] == top:  # a truly best card: vs_best estimates the same difference
            same_best += 1
            hits["vs"] += card.vs_best_ci[0] <= truth["S8"][2] <= card.vs_best_ci[1]
    assert 0 < truth["S8"][0] < 1 and truth["S8"][2] < 0
    assert hits["makes"] >= 34 and hits["mean"] >= 34 and hits["vs"] >= 0.85 * same_best >= 0.85 * 30, hits


def _chi_square_ok(counts: list[int]) -> bool:
    """True unless ``counts`` are too uneven for equal cells at the 0.1% level (Wilson-Hilferty's approximation)."""
    k, n = len(counts), sum(counts)
    expected = n / k
    stat = sum((c - expected) ** 2 / expected for c in counts)
    dof = k - 1
    z = 3.09  # the normal quantile of 0.999
    critical = dof * (1 - 2 / (9 * dof) + z * math.sqrt(2 / (9 * dof))) ** 3
    return stat < critical


@pytest.mark.slow
@pytest.mark.parametrize("condition", [None, "hcp(south) >= 10"])
def test_layouts_are_uniform_with_a_shown_out_suit_and_a_condition(condition):
    """Without this, some layouts would be dealt more often than others: the odds would be weighted wrongly."""
    contract, deal, play, view = DEFENDER  # hidden S and W, one of whom showed out of a suit
    deals = consistent_deals(deal, play, view, contract)
    allowed = {d.to_pbn() for d in deals if condition is None or d.hcp("S") >= 10}
    assert 0 < len(allowed) <= len(deals)
    r = single_dummy(view, contract=contract, played=play, condition=condition, exact=False, samples=2500, seed=7,
                     threads=1)  # fmt: skip
    assert r.problem.void
    counts = {pbn: 0 for pbn in allowed}
    for pbn in r.deals:
        counts[pbn] += 1  # a KeyError: a layout the play or the condition rules out
    assert all(counts.values()) and _chi_square_ok(list(counts.values())), counts


def test_layouts_are_uniform_at_the_opening_lead():
    """Without this, the opening leader's samples could favour some distributions (no play, no condition)."""
    r = single_dummy("W:KQ32.A43.KJ32.43 - - -", contract="6NTS", condition="hcp(north) >= 16", samples=20,
                     seed=3, exact=False, threads=1)  # fmt: skip
    hands = Deal.from_pbn(r.deals[0])
    assert hands.hand_text("W") == "KQ32.A43.KJ32.43"
    assert all(Deal.from_pbn(p).hcp("N") >= 16 for p in r.deals)


def rejection_sample(deal_pbn: str, view: str, play: str, contract: str, n: int, seed: int) -> list[Deal]:
    """A plain reference sampler: the cards the hidden hands played stay theirs (as in the true deal), the other
    unseen cards are shuffled among the hidden hands' places, and a deal is kept when the play is legal on it."""
    rng = np.random.default_rng(seed)
    c = ddsbind.Contract.parse(contract)
    truth = Deal.from_pbn(deal_pbn).owners()
    hidden = [s for s, hand in enumerate(_hands(view)) if hand == "-"]
    played = {Card.parse(x).index for x in play.split()}
    free = np.array([i for i in range(52) if truth[i] in hidden and i not in played])
    slots = truth[free]
    out = []
    while len(out) < n:
        o = truth.copy()
        o[free] = rng.permutation(slots)
        if fits(Deal.from_owners(o), play, c):
            out.append(Deal.from_owners(o))
    return out


def test_agrees_with_a_plain_rejection_sampler():
    """Without this, the kernel's sampler could drift from the plain way of sampling the same problem."""
    contract, deal, play, view = MID_TRICK
    r = single_dummy(view, contract=contract, played=play, exact=False, samples=400, seed=5, threads=1)
    reference = reference_answers(rejection_sample(deal, view, play, contract, 400, 11), play, contract)
    for c in r.cards:
        made = reference[c.card][1]
        p = sum(made) / len(made)
        se = math.sqrt(c.makes * (1 - c.makes) / r.samples + p * (1 - p) / len(made))
        assert abs(c.makes - p) <= 3 * se + 1e-9, (c.card, c.makes, p)
    best = max(r.cards, key=lambda x: x.makes if r.problem.declaring else -x.makes)
    for c in r.cards:  # paired, layout by layout: the best card's is exactly zero, every other's interval holds it
        low, high = c.makes_vs_best_ci
        assert c.makes_vs_best == pytest.approx(c.makes - best.makes, abs=1e-12)
        assert low <= c.makes_vs_best <= high and (low < high or c.makes == best.makes)
    assert best.makes_vs_best_ci == (0.0, 0.0)


def test_same_seed_same_answer_at_one_and_two_threads():
    """Without this, a run could not be repeated: the answer would depend on the machine's cores."""
    args = {"contract": "3NTS", "samples": 24, "seed": 12, "exact": False}
    one = single_dummy("W:KQ32.A43.KJ32.43 - - -", threads=1, **args)
    two = single_dummy("W:KQ32.A43.KJ32.43 - - -", threads=2, **args)
    assert one.deals == two.deals and one.seed == two.seed == 12
    assert [(c.card, c.makes, c.makes_ci) for c in one.cards] == [(c.card, c.makes, c.makes_ci) for c in two.cards]


def test_auto_stops_once_the_best_card_is_separated():
    """Without this, samples="auto" would solve its maximum even when one card is plainly best."""
    contract, _, play, view = DECLARER
    r = single_dummy(view, contract=contract, played=play, samples="auto", exact=False, seed=1, threads=1)
    assert r.samples == ddsbind.dealer.single_dummy.AUTO_STEP < ddsbind.dealer.single_dummy.AUTO_MAX
    best = r.best  # HT, H8 and CJ always make here: tied; S8 and C6 fail often
    assert best.makes == 1.0 and sorted(c.card for c in r.cards if c.makes == 1.0) == ["CJ", "H8", "HT"]
    assert all(c.makes < 0.8 for c in r.cards if c.card in ("S8", "C6"))


def test_exact_none_enumerates_small_problems_only():
    """Without this, exact=None could sample a tiny ending (needless error bars) or enumerate a huge one."""
    contract, _, play, view = DEFENDER
    assert single_dummy(view, contract=contract, played=play, samples=100, threads=1).exact
    assert not single_dummy(view, contract=contract, played=play, samples=10, seed=1, threads=1).exact


def test_html_table_has_a_row_a_card_with_bars_and_intervals():
    """Without this, a notebook would show the result without its cards or error bars."""
    contract, _, play, view = DEFENDER
    r = single_dummy(view, contract=contract, played=play, exact=False, samples=50, seed=2, tricks=True, threads=1)
    html = r._repr_html_()
    assert html.count('class="ddsbind-bar"') == 2 * len(r.cards)
    assert html.count('class="ddsbind-interval"') == 2 * len(r.cards)
    for c in r.cards:
        assert f'data-card="{c.card}"' in html
    assert "50 layouts, seed 2" in html


def test_to_frame_has_a_row_a_card():
    """Without this, the DataFrame would lose cards or intervals."""
    pytest.importorskip("pandas")
    contract, _, play, view = DEFENDER
    r = single_dummy(view, contract=contract, played=play, exact=True, threads=1)
    frame = r.to_frame()
    assert list(frame.index) == [c.card for c in r.cards]
    assert frame["makes"].tolist() == [c.makes for c in r.cards]
    assert frame["mean_tricks_low"].tolist() == [c.mean_tricks for c in r.cards]


@pytest.mark.parametrize(
    ("view", "played", "condition", "message"),
    [
        ("N:AKQ2.A43.KJ32.43 - A.-.-.- -", "", None, r"S 1 cards"),
        ("N:KQ32.A43.KJ32.43 - KQ32.A43.KJ32.43 -", "", None, r"SK is in two hands, N and S"),
        ("W:KQ32.A43.KJ32.43 - - -", "SA", None, r"card 1 of the play \(trick 1, W\): SA is not in W's hand"),
        ("W:KQ32.A43.KJ32.43 - - -", "SK SA SQ", None, r"card 3 of the play \(trick 1, E\): SQ is in W's hand"),
        ("W:KQ32.A43.KJ32.43 - - -", "SK SA S2", None, r"SK was already played|S2 is in W's hand"),
        ("W:KQ32.A43.KJ32.43 - - -", "SK H2 HK", None, r"card 3 .*HK is not in S's hand|S is to play"),
        ("W:KQ32.A43.KJ32.43 - - -", "", "hcp(north) > 40", r"no layout .* in [\d,]+ deals dealt"),
        ("W:KQ32.A43.KJ32.43 - - -", "", "hcp(north >", r"condition"),
        ("W:KQ32.A43.KJ32.43 - - -", "SX", None, r"played: .*SX"),
    ],
)
def test_bad_input_is_named(view, played, condition, message):
    """Without this, a mistyped view or play would give a wrong answer or a traceback, not a clear message."""
    with pytest.raises(ddsbind.Error, match=message):
        single_dummy(view, contract="3NTS", played=played, condition=condition, samples=5, tries=20_000, threads=1)


def test_a_revoke_and_a_play_after_showing_out_are_refused():
    """Without this, an impossible play would be sampled as if it were possible."""
    with pytest.raises(ddsbind.DealerError, match=r"revoke: N holds S"):
        single_dummy("N:AKQ2.A43.KJ32.43 - - -", contract="3NTE", played="S3 S4 H3", threads=1)
    with pytest.raises(
        ddsbind.DealerError, match=r"card 8 of the play \(trick 2, W\): W plays S8 after showing out of S"
    ):
        single_dummy("N:AKQ2.A43.KJ32.43 - - -", contract="3NTE", played="S3 H5 SA S5 S2 S6 S7 S8", threads=1)


def test_exact_true_past_the_cap_is_refused():
    """Without this, exact=True on a full deal would try to solve millions of layouts."""
    with pytest.raises(
        ddsbind.DealerError, match=r"exact=True: 84,478,098,072,866,400 layouts .* more than the 200,000"
    ):
        single_dummy("W:KQ32.A43.KJ32.43 - - -", contract="3NTS", exact=True)


def test_hidden_hand_to_play_is_refused():
    """Without this, the analysis would pretend to know a hidden hand's cards."""
    with pytest.raises(ddsbind.DealerError, match=r"E is to play and the view hides that hand"):
        single_dummy("W:KQ32.A43.KJ32.43 - - -", contract="3NTS", played="SK H2")


def test_hidden_hand_never_holds_a_suit_it_showed_out_of():
    """Without this, a sample could give a defender cards of a suit it showed out of."""
    contract, _, play, view = DEFENDER
    r = single_dummy(view, contract=contract, played=play, exact=False, samples=200, seed=4, threads=1)
    seat, suit = r.problem.void[0]
    played = {Card.parse(c).index for c in play.split()}
    free = [i for i in range(13 * suit, 13 * suit + 13) if i not in played]
    assert not (r.owners[:, free] == seat).any()
    assert Seat(seat) in r.problem.hidden


@pytest.mark.slow
def test_html_bars_are_drawn_to_scale_in_chromium(browser):
    """Without this, the notebook's bars could be drawn at the wrong length, or the whisker miss its interval."""
    contract, _, play, view = MID_TRICK
    r = single_dummy(view, contract=contract, played=play, exact=False, samples=80, seed=3, threads=1)
    page = browser.new_page()
    page.set_content(f"<html><body>{r._repr_html_()}</body></html>")
    rows = page.query_selector_all("table.ddsbind-single-dummy tr")[1:]
    assert len(rows) == len(r.cards)
    for row, card in zip(rows, r.cards, strict=True):
        assert row.query_selector("[data-card]").get_attribute("data-card") == card.card
        bar = row.query_selector(".ddsbind-bar").bounding_box()
        fill = row.query_selector(".ddsbind-bar > div").bounding_box()
        whisker = row.query_selector(".ddsbind-interval").bounding_box()
        assert fill["width"] == pytest.approx(card.makes * bar["width"], abs=1.5)
        assert whisker["x"] - bar["x"] == pytest.approx(card.makes_ci[0] * bar["width"], abs=1.5)
        assert whisker["x"] + whisker["width"] - bar["x"] == pytest.approx(card.makes_ci[1] * bar["width"], abs=1.5)
    page.close()
