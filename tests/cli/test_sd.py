"""The ``ddsbind sd`` command: a text table or JSON of each card's odds, and one error line for every bad input."""

from __future__ import annotations

import json

import pytest

from tests.dealer.test_single_dummy import DEFENDER
from tests.support import cli, one_error

CONTRACT, _, PLAY, VIEW = DEFENDER


def test_sd_prints_each_card_with_its_interval():
    """Without this, the command would not show the cards of the hand to play or their odds."""
    result = cli("sd", VIEW, "--contract", CONTRACT, "--played", PLAY, "--samples", 30, "--seed", 4, "--sample",
                 "--threads", 1)  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("1NT by S: E to play after C7 C9") and lines[0].endswith("30 layouts, seed 4")
    assert lines[1].startswith("card  equals      makes   95% interval")
    assert len(lines) == 2 + 5


def test_sd_json_agrees_with_the_library_and_takes_commas():
    """Without this, --json could disagree with ddsbind.single_dummy, or commas in --played be refused."""
    import ddsbind

    result = cli("sd", VIEW, "--contract", CONTRACT, "--played", PLAY.replace(" ", ","), "--exact", "--tricks",
                 "--json", "--threads", 1)  # fmt: skip
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    r = ddsbind.single_dummy(VIEW, contract=CONTRACT, played=PLAY, exact=True, tricks=True, threads=1)
    assert doc["exact"] is True and doc["samples"] == r.samples and doc["seed"] is None
    assert [c["card"] for c in doc["cards"]] == [c.card for c in r.cards]
    assert [c["makes"] for c in doc["cards"]] == [c.makes for c in r.cards]
    assert [c["mean_tricks"] for c in doc["cards"]] == [c.mean_tricks for c in r.cards]


def test_sd_reads_a_dealer_script(tmp_path):
    """Without this, a condition kept in a dealer script file could not be used."""
    script = tmp_path / "auction.dl"
    script.write_text("# what the auction said\ncondition hcp(south) >= 10\n")
    result = cli("sd", VIEW, "--contract", CONTRACT, "--played", PLAY, "--script", script, "--exact", "--json",
                 "--threads", 1)  # fmt: skip
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["samples"] == 40  # 40 of the 56 layouts give South 10 HCP or more


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["N:KQ32.A43.KJ32.43 - KQ32.A43.KJ32.43 -", "--contract", "3NTS"], r"SK is in two hands, N and S$"),
        (["W:KQ32.A43.KJ32.43 - - -", "--contract", "3NTS", "--played", "SA"], r"SA is not in W's hand"),
        (
            ["W:KQ32.A43.KJ32.43 - - -", "--contract", "3NTS", "--condition", "hcp(north) > 37", "--tries", 30000],
            r"no layout .* in 30,000 deals dealt",
        ),
        (["W:KQ32.A43.KJ32.43 - - -", "--contract", "3NT"], r"names no declarer"),
        (["W:KQ32.A43.KJ32.43 - -", "--contract", "3NTS"], r"4 hands"),
        (["W:KQ32.A43.KJ32.43 - - -", "--contract", "3NTS", "--exact"], r"exact=True: .* layouts"),
        (["W:KQ32.A43.KJ32.43 - - -", "--contract", "3NTS", "--condition", "hcp(north) >"], r"condition"),
    ],
)
def test_sd_bad_input_is_one_line(args, message):
    """Without this, a bad view, play or condition would end in a traceback instead of one line and status 1."""
    one_error(cli("sd", *args, "--samples", 5, "--threads", 1), message)
