"""What a user of endplay or redeal expects: bridge words, one set of spellings, DD scores, dealing to a condition.

Oracles: bridge's own words (PBN's vulnerability names), DDS's reference
hands (list100's tables) for double-dummy tricks, the dealer's recipe
(``deal_batch``) for which deals a seed gives, and payoffs worked by hand.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from click.testing import CliRunner

import ddsbind
from ddsbind import Contract, Deal, Seat, Strain, Vulnerability
from ddsbind.cli import main
from ddsbind.dealer import DealerError, Predeal, deal_batch, deal_to
from ddsbind.errors import ContractError, Error, InvalidArgumentError
from ddsbind.formats import GameRecord
from ddsbind.scoring import payoff
from tests.support import cli

_FULL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"

# -- bridge words ---------------------------------------------------------------------


def test_print_of_seats_strains_and_vulnerability_gives_bridge_words():
    """print(game.declarer, game.dealer, game.vulnerable) reads 'S N All', not '2 0 1'."""
    game = GameRecord(Deal.random(1), dealer=Seat.N, vulnerable="All", declarer=Seat.S, contract="4S")
    assert f"{game.declarer} {game.dealer} {game.vulnerable}" == "S N All"
    assert [str(s) for s in Strain] == ["S", "H", "D", "C", "NT"]
    assert [str(v) for v in Vulnerability] == ["None", "All", "NS", "EW"]
    assert f"{Seat.E:>3}|{Strain.NT:<3}|{Vulnerability.EW:^6}" == "  E|NT |  EW  "


def test_a_game_prints_its_diagram_with_board_dealer_and_vulnerability():
    """print(game.diagram()) heads the deal with 'Board 5, dealer N, vulnerable NS' as a hand record does."""
    game = GameRecord(Deal.from_pbn(_FULL), dealer=Seat.N, vulnerable="NS", board=5)
    lines = game.diagram().splitlines()
    assert lines[0] == "Board 5, dealer N, vulnerable NS"
    assert lines[1:] == Deal.from_pbn(_FULL).diagram().splitlines()


def test_numeric_format_still_gives_dds_numbers():
    """f'{seat:d}' and int(seat) keep DDS's numbers, for code that writes numbers on purpose."""
    assert f"{Seat.W:d} {Strain.NT:d} {Vulnerability.BOTH:d}" == "3 4 1"
    assert int(Seat.S) == 2 and Seat.S == 2
    assert f"{Seat.E:02d}" == "01"


@pytest.mark.parametrize(
    ("spelling", "expected"),
    [
        ("none", Vulnerability.NONE),
        ("Love", Vulnerability.NONE),
        ("-", Vulnerability.NONE),
        ("o", Vulnerability.NONE),
        ("both", Vulnerability.BOTH),
        ("All", Vulnerability.BOTH),
        ("b", Vulnerability.BOTH),
        ("NS", Vulnerability.NS),
        ("n-s", Vulnerability.NS),
        ("North-South", Vulnerability.NS),
        ("E/W", Vulnerability.EW),
        ("ew", Vulnerability.EW),
        (3, Vulnerability.EW),
    ],
)
def test_one_set_of_vulnerability_spellings(spelling, expected):
    """PBN's, dealer's, LIN's and people's words for vulnerability all read: no command refuses 'all' or 'both'."""
    assert Vulnerability.parse(spelling) is expected


@pytest.mark.parametrize("spelling", ["both", "all", "b", "ALL", "love", "none", "ns", "e-w"])
def test_every_command_takes_the_same_vulnerability_words(spelling, tmp_path):
    """`table --vulnerable` and `dealer --vulnerable` accept the same words: the same habit works in every command."""
    result = cli("table", _FULL, "--vulnerable", spelling)
    assert result.exit_code == 0, result.output
    assert f"Par ({Vulnerability.parse(spelling)})" in result.output
    script = tmp_path / "s.dl"
    script.write_text("produce 1\naction printoneline\n")
    result = cli("dealer", str(script), "--vulnerable", spelling, "-s", "1")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("seat", ["N", "north", "North", "n"])
def test_every_command_takes_the_same_seat_words(seat):
    """Seat letters and names (any case) work for --leader and --dealer alike."""
    pbn = "N:A... K... Q... J..."
    result = cli("solve", pbn, "--strain", "notrump", "--leader", seat)
    assert result.exit_code == 0, result.output
    result = cli("table", _FULL, "--dealer", seat)
    assert result.exit_code == 0, result.output
    assert "Par with N dealing" in result.output


def test_bad_words_are_usage_errors_naming_the_choices():
    """A misspelt --vulnerable or --leader is click's one-line usage error listing the words, exit 2."""
    result = cli("table", _FULL, "--vulnerable", "sometimes")
    assert result.exit_code == 2
    assert "none|all|both|ns|ew" in result.output
    result = cli("solve", _FULL, "--strain", "S", "--leader", "X")
    assert result.exit_code == 2
    assert "N|E|S|W" in result.output


def test_par_words_refuse_a_bad_side_with_a_library_error():
    """Par.words('XX') is a ddsbind.Error naming the argument, not a bare ValueError from list.index."""
    p = ddsbind.Par(("NS -110", "EW 110"), ("NS:EW 2S", "EW:EW 2S"))
    with pytest.raises(InvalidArgumentError, match="side bidding first 'XX' is not one of NS"):
        p.words("XX")
    with pytest.raises(InvalidArgumentError):
        p.words(None)  # type: ignore[arg-type]
    assert p.words("e-w") == p.words("EW") == p.words(ddsbind.Side.EW)
    with pytest.raises(InvalidArgumentError, match="is a Seat, not a Side"):
        p.words(ddsbind.Seat.E)  # type: ignore[arg-type]
    assert "either partner" in p.words()


def test_score_of_a_card_not_returned_is_a_library_error():
    """Solutions.score_of for a card the hand does not hold raises a ddsbind.Error, not a KeyError."""
    sol = ddsbind.solve_board("N:A... K... Q... J...", "NT", "N")
    assert sol.score_of("SA") == 1
    with pytest.raises(Error):
        sol.score_of("SK")


# -- contracts and double-dummy scores -------------------------------------------------


def test_dd_score_is_the_laws_score_of_ddss_tricks(list100):
    """dd_score of each contract on DDS's reference hands = Law 77 score of the reference table's tricks."""
    for hand in list100[:12]:
        for strain, declarer in ((4, 2), (0, 1), (3, 0)):
            tricks = int(hand.table[strain, declarer])
            for doubled in (0, 1):
                for level in (1, 3, 4, 6):
                    c = Contract(level, strain, doubled)
                    vul = Vulnerability(hand.vul)
                    got = ddsbind.dd_score(hand.deal, c, declarer, vul)
                    assert got == c.score(tricks, declarer_vulnerable=vul.is_vulnerable(declarer))


def test_dd_score_reads_the_declarer_from_the_contract():
    """'4HX by E' needs no separate declarer; a contradicting one is refused."""
    assert ddsbind.dd_score(_FULL, "4HX by E", vulnerable="all") == -800  # EW take 7 heart tricks: down 3, vul
    with pytest.raises(ContractError, match="declared by E, but declarer=N"):
        ddsbind.dd_score(_FULL, "4HX by E", "N")
    with pytest.raises(ContractError, match="names no declarer"):
        ddsbind.dd_score(_FULL, "4H")
    with pytest.raises(ContractError):
        ddsbind.dd_score(_FULL, "4Q", "N")


# -- dealing to a Python condition -----------------------------------------------------


def test_deal_to_keeps_exactly_the_recipes_deals_that_pass():
    """deal_to(condition) returns the seed's deals (the dealer recipe's batches) that pass, in order, none other."""
    seed = 99

    def strong_north(h):
        return (h.hcp[:, Seat.N] >= 17) & (h.lengths[:, Seat.N, Strain.S] >= 4)

    sample = deal_to(strong_north, 200, seed=seed)
    batch = deal_batch(seed, 0)
    hcp_n = ddsbind.hands.hcp(batch)[:, 0]
    spades_n = ddsbind.hands.suit_lengths(batch)[:, 0, 0]
    passing = np.flatnonzero((hcp_n >= 17) & (spades_n >= 4))
    np.testing.assert_array_equal(sample.owners, batch[passing[:200]])
    assert sample.generated == passing[199] + 1
    assert sample.seed == seed
    assert 0 < sample.acceptance < 1


def test_deal_to_with_predeal_and_without_condition_is_deal_batch():
    """With no condition the deals are deal_batch's own, predeal included: one sampler, exact as the dealer's."""
    pre = {"S": "SAQ542,HKJ87,D32,CAK"}
    sample = deal_to(None, 50, predeal=pre, seed=5)
    np.testing.assert_array_equal(sample.owners, deal_batch(5, 0, Predeal.from_hands(pre), size=50))
    assert all(
        set(str(c) for c in d.hand("S"))
        == {"SA", "SQ", "S5", "S4", "S2", "HK", "HJ", "H8", "H7", "D3", "D2", "CA", "CK"}
        for d in sample.deals()
    )


def test_deal_to_crosses_batches_and_is_reproducible():
    """A rare condition draws on several batches, and the same seed gives the same deals again."""

    def rare(h):
        return h.hcp[:, 0] >= 24

    a = deal_to(rare, 30, seed=3)
    b = deal_to(rare, 30, seed=3, threads=2)
    np.testing.assert_array_equal(a.owners, b.owners)
    assert a.generated == b.generated > ddsbind.dealer.BATCH
    assert (a.hands.hcp[:, 0] >= 24).all()


def test_deal_to_stops_at_max_deals_with_a_warning():
    """An impossible condition stops at max_deals with a warning, never loops for ever."""
    with pytest.warns(UserWarning, match="only 0 of 5"):
        sample = deal_to(lambda h: h.hcp[:, 0] > 37, 5, seed=1, max_deals=20_000)
    assert len(sample) == 0 and sample.generated == 20_000


@pytest.mark.parametrize(
    "condition",
    [lambda h: h.hcp[:, 0], lambda h: h.hcp >= 10, lambda h: np.ones(3, dtype=bool), lambda h: True, "hcp > 10"],
)
def test_a_condition_that_is_no_mask_is_refused(condition):
    """A condition returning points, a 2-D array or a scalar is a DealerError, not a silent wrong selection."""
    with warnings.catch_warnings(), pytest.raises(DealerError):
        deal_to(condition, 5, seed=1)


@pytest.mark.parametrize(
    "kwargs", [{"seed": -1}, {"seed": 1.5}, {"predeal": {"Q": "SA"}}, {"predeal": 5}, {"max_deals": 0}]
)
def test_bad_dealing_arguments_are_dealer_errors(kwargs):
    """Bad seeds, predeals and limits are DealerErrors naming them."""
    with pytest.raises(DealerError):
        deal_to(None, 5, **kwargs)


# -- payoff tables --------------------------------------------------------------------------


def test_payoff_table_by_hand():
    """Mean IMPs and matchpoint shares of each pair of contracts, worked by hand on four deals."""
    scores = {"3NT": [400, 400, -50, 430], "4S": [420, -50, -50, 450]}
    t = payoff(scores, "imps")
    # 3NT v 4S: -20 -> -1, +450 -> +10, 0 -> 0, -20 -> -1: mean 2, deviations (-3, 8, -2, -3).
    assert t.mean[0, 1] == pytest.approx(2.0)
    assert t.se[0, 1] == pytest.approx(np.sqrt((9 + 64 + 4 + 9) / 3) / 2)
    assert t.mean[1, 0] == pytest.approx(-2.0) and t.mean[0, 0] == 0
    mp = payoff(scores, "matchpoints")
    # 3NT loses, wins, ties, loses: 0, 1, 0.5, 0.
    assert mp.mean[0, 1] == pytest.approx(0.375)
    assert mp.mean[1, 0] == pytest.approx(0.625)
    total = payoff(scores, "total")
    assert total.mean[0, 1] == pytest.approx((-20 + 450 + 0 - 20) / 4)
    text = str(t)
    assert "3NT" in text and "+2.00" in text and "4 deals" in text


def test_payoff_refuses_mismatched_scores():
    """Strategies scored on different numbers of deals, or an unknown scoring, are ContractErrors."""
    with pytest.raises(ContractError):
        payoff({"a": [1, 2], "b": [1]})
    with pytest.raises(ContractError):
        payoff({"a": [1, 2]}, "rubber")
    with pytest.raises(ContractError):
        payoff({})
    with pytest.raises(ContractError):
        payoff({"a": ["x", "y"]})


def test_simulation_from_condition_to_payoff():
    """Deal to a condition, score two contracts double dummy, compare: the redeal workflow end to end."""
    from ddsbind.dealer.statistics import tables_of_owners

    sample = deal_to(lambda h: (h.hcp[:, 0] + h.hcp[:, 2] >= 25) & (h.lengths[:, 0, 0] >= 5), 8, seed=4)
    tables = tables_of_owners(sample.owners, threads=1)
    np.testing.assert_array_equal(sample.dd_tables(threads=1), tables)
    three_nt = sample.dd_scores("3NT by S", "none", threads=1)
    four_s = sample.dd_scores("4S by N", "none", threads=1)
    assert three_nt.tolist() == [Contract.parse("3NT").score(int(t)) for t in tables[:, 4, 2]]
    assert four_s.tolist() == [Contract.parse("4S").score(int(t)) for t in tables[:, 0, 0]]
    t = payoff({"3NT": three_nt, "4S": four_s})
    assert t.deals == 8 and t.mean.shape == (2, 2)
    assert t.mean[0, 1] == pytest.approx(np.mean([ddsbind.imps(a - b) for a, b in zip(three_nt, four_s, strict=True)]))
    with pytest.raises(DealerError, match="declarer"):
        sample.dd_scores("4S")


# -- the command line ---------------------------------------------------------------------


def test_table_reads_a_pbn_file_with_boards_dealers_and_vulnerability(tmp_path):
    """`ddsbind table FILE.pbn` prints each board with the file's dealer and vulnerability, --vulnerable overriding."""
    path = tmp_path / "boards.pbn"
    path.write_text(
        f'[Board "7"]\n[Dealer "S"]\n[Vulnerable "All"]\n[Deal "{_FULL}"]\n\n'
        f'[Board "8"]\n[Dealer "W"]\n[Vulnerable "None"]\n[Deal "{Deal.random(3).to_pbn()}"]\n'
    )
    result = cli("table", str(path))
    assert result.exit_code == 0, result.output
    assert "Board 7, dealer S, vulnerable All" in result.output
    assert "Board 8, dealer W, vulnerable None" in result.output
    assert "Par (All): NS 80  NS:NS 1S" in result.output
    assert "Par with S dealing" in result.output
    result = cli("table", str(path), "--vulnerable", "ew")
    assert "Board 7, dealer S, vulnerable EW" in result.output
    bad = tmp_path / "bad.pbn"
    bad.write_text('[Deal "N:AKQ"]\n')
    result = cli("table", str(bad))
    assert result.exit_code == 1 and result.output.startswith("ddsbind: error:") and "bad.pbn" in result.output


def test_solve_says_whose_tricks_it_prints():
    """`ddsbind solve` names the hand to play and the side whose tricks the scores are."""
    result = cli("solve", "N:T... J... Q9... 87...", "--strain", "NT", "--leader", "N",
                                       "--trick", "SA,SK")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "S to play, notrump: tricks for NS (S's side) from this trick on"


def test_line_counts_for_the_declarer_given_in_an_ending():
    """`ddsbind line --declarer N` in an ending where North is on lead counts North's side's tricks."""
    args = ["line", "N:A... K... Q... J...", "--strain", "NT", "--leader", "N"]
    default = CliRunner().invoke(main, args)
    assert default.exit_code == 0, default.output
    assert "value = tricks for EW" in default.output
    assert default.output.splitlines()[-1].split()[-1] == "0"
    given = cli(*args, "--declarer", "north")
    assert "declarer N, trump NT; value = tricks for NS" in given.output
    assert given.output.splitlines()[-1].split()[-1] == "1"
