"""PBN's ScoreTable: one game record a row of a hand record's results table; a bad row named by board and row."""

from __future__ import annotations

from pathlib import Path

import pytest

from ddsbind.deal import Seat
from ddsbind.errors import FieldWarning, FormatError
from ddsbind.formats import reading
from ddsbind.formats.games import read_games
from ddsbind.formats.scoretable import has_score_table, score_table_games
from ddsbind.scoring import PASSED_OUT

DATA = Path(__file__).resolve().parents[1] / "data" / "records"
HEAD = (
    '[Board "2"]\n[Dealer "E"]\n[Vulnerable "NS"]\n'
    '[Deal "N:732.AJ76.AT8.984 AJ65.K.43.AKJ752 QT84.T542.KJ97.T K9.Q983.Q652.Q63"]\n'
)


def _rows(tmp_path: Path, columns: str, *rows: str) -> list:
    path = tmp_path / "t.pbn"
    path.write_text(HEAD + f'[ScoreTable "{columns}"]\n' + "\n".join(rows) + "\n", encoding="utf-8")
    (game,) = read_games(path)
    return score_table_games(game)


def test_bridge_composer_rows_read_as_results():
    """Without this, a club's results table would be lost: no contract, declarer, tricks or pair per row."""
    games = [g for hand in read_games(DATA / "bridgecomposer_scoretable.pbn") for g in score_table_games(hand)]
    assert len(games) == 11
    first = games[0]
    assert (str(first.contract), first.declarer, first.result, first.ns_score()) == ("4S", Seat.N, 10, 420)
    assert first.tags["Names_NS"] == "Ada Brook - Ben Carr" and first.tags["PairId_EW"] == "4"
    assert first.tags["Section"] == "A" and "ScoreTable" not in first.tags and not first.sections
    assert games[4].contract is PASSED_OUT and games[4].ns_score() == 0
    assert [g.ns_score() for g in games[5:9]] == [-400, -430, 50, 50]


def test_results_written_against_the_contract(tmp_path):
    """Without this, a scorer writing '=' or '-1' for the tricks would have its results refused or misread."""
    games = _rows(
        tmp_path,
        "Contract\\4L;Declarer\\1R;Result\\2R",
        "3NT E =",
        "3NT E +1",
        "4H W -1",
    )
    assert [g.result for g in games] == [9, 10, 9]
    assert [g.ns_score() for g in games] == [-400, -430, 50]


def test_score_only_rows_keep_their_score(tmp_path):
    """Without this, a table giving only the scores (no tricks) would have no result to matchpoint."""
    (game,) = _rows(tmp_path, "Contract\\4L;Declarer\\1R;Score_NS\\5R;Score_EW\\5R", "3NT E - 400")
    assert game.result is None and game.tags["Score_NS"] == "-400"


@pytest.mark.parametrize(
    ("row", "words"),
    [
        ("3NT E 9 x y", "row 1 has 5 values for 3 columns"),
        ("3NT Q 9", "row 1"),
        ("3NT E 14", "not 0..13 tricks"),
        ("9NT E 9", "row 1"),
    ],
)
def test_bad_rows_are_named(tmp_path, row, words):
    """Without this, one mistyped row would give a traceback, a wrong result or a lost file, not the row named."""
    spec = "Contract\\4L;Declarer\\1R;Result\\2R"
    with pytest.warns(FieldWarning, match=words) as caught:
        games = _rows(tmp_path, spec, row, "3NT E 9")
    assert [g.result for g in games] == [9]  # the bad row left out, the good one kept
    assert "Board 2" in str(caught[0].message)
    with reading(True), pytest.raises(FormatError, match="strict"):
        _rows(tmp_path, spec, row)


def test_a_hand_record_without_a_table_has_none():
    """Without this, a hand record with no results table would be taken for a file of results."""
    (game, *_) = read_games(DATA / "club_deals.pbn")
    assert not has_score_table(game) and score_table_games(game) == []
