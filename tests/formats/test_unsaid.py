"""One meaning of a missing dealer or vulnerability: the board number's cycle, else none, however a file is read."""

from __future__ import annotations

import numpy as np
import pytest

from ddsbind.deal import Seat
from ddsbind.formats import lin, pbn, pbngame
from ddsbind.formats._common import unsaid
from ddsbind.game import Vulnerability

DEAL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"

#: Boards 1..4 and a board without a number, none naming its dealer or vulnerability (as dealing programs write).
UNSAID = "".join(f'[Board "{n}"]\n[Deal "{DEAL}"]\n\n' for n in (1, 2, 3, 4)) + f'[Deal "{DEAL}"]\n'

#: What a player reads on boards 1..4, then on the board without a number.
EXPECTED = [Vulnerability.NONE, Vulnerability.NS, Vulnerability.EW, Vulnerability.BOTH, Vulnerability.NONE]


def _par_asked(data: str) -> tuple[list[int], list[Vulnerability]]:
    """The dealers and vulnerabilities adding results to ``data`` gives DDS's DealerPar."""
    dealers: list[int] = []
    vulnerable: list[Vulnerability] = []

    def par(tables, ds, vs):
        dealers.extend(int(d) for d in ds)
        vulnerable.extend(vs)
        return [(90, ["1N-NS"]) for _ in ds]

    def fill(owners, tables):
        return np.zeros((len(owners), 5, 4), np.uint8)

    pbn.add_results(data, fill=fill, par=par)
    return dealers, vulnerable


def test_the_rule():
    """Without this, a board without its tags would not be the board a player holds (board 2: NS vulnerable, East)."""
    assert [unsaid(n) for n in (1, 2, 3, 4, 17)] == [
        (Seat.dealer_of_board(n), Vulnerability.of_board(n)) for n in (1, 2, 3, 4, 17)
    ]
    assert unsaid(2) == (Seat.E, Vulnerability.NS)
    assert unsaid(None) == unsaid(0) == (None, Vulnerability.NONE)


def test_one_file_read_as_games_and_solved_gives_one_vulnerability():
    """Without this, a file without [Vulnerable] would be non-vulnerable as games and by the cycle when solved."""
    games = pbngame.parse_games(UNSAID)
    assert [g.vulnerable for g in games] == EXPECTED
    _, solved = _par_asked(UNSAID)
    assert solved == EXPECTED


def test_a_deals_frame_says_the_same(tmp_path):
    """Without this, read_dataframe's vulnerability column would disagree with the game records of the same file."""
    pytest.importorskip("pandas")
    from ddsbind.formats.dataframe import read_dataframe

    path = tmp_path / "unsaid.pbn"
    path.write_text(UNSAID)
    frame = read_dataframe(path)
    assert list(frame["vulnerability"]) == [str(v) for v in EXPECTED]


def test_an_unsaid_dealer_is_unknown_in_the_record_and_the_cycle_where_a_seat_is_needed():
    """Without this, par would be computed for a dealer the file never named, or a round trip would add a Dealer tag."""
    games = pbngame.parse_games(UNSAID)
    assert [g.dealer for g in games] == [None] * 5
    assert "[Dealer" not in pbngame.dump_games(games[:1]).decode()
    dealers, _ = _par_asked(UNSAID)
    assert dealers == [int(Seat.N), int(Seat.E), int(Seat.S), int(Seat.W), int(Seat.N)]


def test_a_vulnerability_said_is_kept():
    """Without this, the rule would override what a file says (board 2 said to be nobody's)."""
    text = f'[Board "2"]\n[Vulnerable "None"]\n[Deal "{DEAL}"]\n'
    assert pbngame.parse_games(text)[0].vulnerable == Vulnerability.NONE
    assert _par_asked(text)[1] == [Vulnerability.NONE]


def test_an_unreadable_vulnerability_is_named_and_read_as_unsaid():
    """Without this, a garbage tag would be read one way as games and another when solved, or pass silently."""
    text = f'[Board "3"]\n[Vulnerable "Sometimes"]\n[Deal "{DEAL}"]\n'
    with pytest.warns(UserWarning, match="Vulnerable"):
        games = pbngame.parse_games(text)
    assert games[0].vulnerable == Vulnerability.EW
    assert games[0].unread["Vulnerable"] == "Sometimes"
    assert _par_asked(text)[1] == [Vulnerability.EW]


def test_lin_without_sv_takes_the_board_number():
    """Without this, a LIN board without sv| would be non-vulnerable where the same board in PBN is not."""
    md = "md|3SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|"
    (game,) = lin.parse_lin(md + "ah|Board 2|")
    assert game.vulnerable == Vulnerability.NS
    (game,) = lin.parse_lin(md + "sv|o|ah|Board 2|")
    assert game.vulnerable == Vulnerability.NONE
    (game,) = lin.parse_lin(md)
    assert game.vulnerable == Vulnerability.NONE
