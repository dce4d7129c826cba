"""A file of played boards scored as it was played: a team match in IMPs, a pairs session in matchpoints."""

from __future__ import annotations

import dataclasses
import json

import pytest
from click.testing import CliRunner

from ddsbind.cli import main
from ddsbind.formats.games import read_games, write_games
from ddsbind.match import SessionReport, analyse_session
from ddsbind.scoring import imps
from tests.support import REPO

SESSION = REPO / "examples" / "data" / "session.lin"
CLUB = REPO / "examples" / "data" / "club.pbn"

# The sample match worked by hand, North-South's score in each room (the Laws' table):
#   1  None  3NT by W:  9 tricks EW +400, 10 tricks EW +430       -> NS -400 / -430
#   2  NS    4S by S:  12 tricks 120+500+60 = 680, 11 tricks 650  -> NS +680 / +650
#   3  EW    4S by S (NS not vulnerable): one down -50; made +420 -> NS  -50 / +420
#   4  All   open 4H by S one down -100; closed 3S by W three down vulnerable, EW -300 -> NS -100 / +300
HAND_SCORES = [(-400, -430), (680, 650), (-50, 420), (-100, 300)]
# WBF scale: 30 -> 1, 30 -> 1, 470 (450-490) -> 10, 400 (370-420) -> 9, for Lions (NS in the open room).
HAND_IMPS = [1, 1, -10, -9]


@pytest.fixture(scope="module")
def session_report() -> SessionReport:
    """The sample match's report, analysed once (every card of every board solved) for the tests that read it."""
    return analyse_session(read_games(SESSION))


def test_team_match_imps_equal_the_wbf_scale_over_hand_scores(session_report):
    """A team player's match score: each board's two rooms, their scores, the swing and the running total are right."""
    report = session_report
    assert report.kind == "teams" and report.teams == ("Lions", "Tigers")
    assert [b.board for b in report.boards] == [1, 2, 3, 4]
    assert [tuple(t.score for t in b.tables) for b in report.boards] == HAND_SCORES
    assert [[t.room for t in b.tables] for b in report.boards] == [["Open", "Closed"]] * 4
    assert [b.imps for b in report.boards] == HAND_IMPS
    assert [b.imps for b in report.boards] == [int(imps(o - c)) for o, c in HAND_SCORES]
    assert [b.match for b in report.boards] == [(1, 0), (2, 0), (2, 10), (2, 19)]
    home = sum(i for i in HAND_IMPS if i > 0)
    away = -sum(i for i in HAND_IMPS if i < 0)
    assert report.total == (home, away) == (2, 19)
    first = report.boards[0]
    assert first.tables[0].players == {"N": "Carr", "E": "Dale", "S": "Ames", "W": "Brook"}
    assert first.tables[1].players == {"N": "Gold", "E": "Hart", "S": "Ellis", "W": "Fry"}
    assert [t.dd_result for t in first.tables] == [9, 9]
    assert first.par_score == -400  # 3NT by East or West, nobody vulnerable


def test_team_match_from_pbn_with_both_rooms_is_the_same(tmp_path, session_report):
    """The same match as PBN (Room tags) gives the same report as its LIN."""
    write_games(tmp_path / "session.pbn", read_games(SESSION))
    assert analyse_session(read_games(tmp_path / "session.pbn")).to_json() == session_report.to_json()


def test_pairs_session_gets_matchpoints():
    """Boards played at several tables without rooms get each table's North-South matchpoints."""
    (game, *_) = read_games(CLUB)  # board 1: 5D by E, 12 tricks, nobody vulnerable: NS -420 (100 + 300 + 20)
    tables = [
        dataclasses.replace(game, tags={}),
        dataclasses.replace(game, tags={}, result=11, play=[]),  # NS -400
        dataclasses.replace(game, tags={}, result=10, play=[]),  # 5D one down: NS +50
    ]
    report = analyse_session(tables)
    assert report.kind == "pairs"
    (board,) = report.boards
    assert [t.score for t in board.tables] == [-420, -400, 50]
    # 2 matchpoints a score beaten, 1 a tie: -420 beats none, -400 beats one, +50 beats two (top 4).
    assert [t.matchpoints for t in board.tables] == [0.0, 2.0, 4.0]
    assert [t.top for t in board.tables] == [4.0] * 3
    assert all(b.imps is None for b in report.boards)


def test_analyse_cli_team_report_text_and_json_agree():
    """`ddsbind analyse` on a match prints each board once with its swing, and --json gives the same numbers."""
    runner = CliRunner()
    text = runner.invoke(main, ["analyse", str(SESSION)])
    assert text.exit_code == 0, text.output
    lines = text.stdout.splitlines()
    rows = [line.split() for line in lines if line[:5].strip().isdigit()]
    assert [int(r[0]) for r in rows] == [1, 2, 3, 4]
    assert "Match: Lions 2, Tigers 19 IMPs" in lines
    # Board 1: open 3NT W lead SA 9 tricks NS -400, closed 3NT W lead HJ 10 tricks NS -430, Lions 1, match 1 - 0.
    assert rows[0] == ["1", "3NT", "W", "SA", "9", "-400", "3NT", "W", "HJ", "10", "-430", "1", "1", "-", "0"]
    assert rows[2][-4:] == ["10", "2", "-", "10"]
    doc = json.loads(runner.invoke(main, ["analyse", str(SESSION), "--json"]).stdout)
    assert doc["kind"] == "teams" and doc["total"] == {"Lions": 2, "Tigers": 19}
    assert [b["imps"] for b in doc["boards"]] == HAND_IMPS
    assert [[t["score"] for t in b["tables"]] for b in doc["boards"]] == [list(s) for s in HAND_SCORES]


def test_a_board_in_one_room_has_no_swing():
    """A board the file holds for one room only is reported without a swing, and the total leaves it out."""
    games = [g for g in read_games(SESSION) if not (g.board == 4 and g.tags.get("Room") == "Closed")]
    report = analyse_session(games)
    assert report.boards[-1].imps is None and report.total == (2, 10)
    assert "       no swing: the file lacks one room's result" in report.lines()


def test_team_match_html_in_notebooks(session_report):
    """A notebook shows the match as a scorecard: one row a board, both rooms, the IMPs, the match score, the split."""
    from tests.core.test_report_html import _cells

    page = _cells(session_report._repr_html_())
    assert page.captions[0] == "Lions v Tigers: 2 - 19 IMPs"
    rows = sorted({row for kind, row, _ in page.cells if kind == "session"})
    assert len(rows) == 4
    assert [page.cells[("session", r, 0)].split()[-1] for r in rows] == [f"{o:+d}" for o, _ in HAND_SCORES]
    assert [page.cells[("session", r, 1)].split()[-1] for r in rows] == [f"{c:+d}" for _, c in HAND_SCORES]
    lions = [page.cells[("session", r, 2)] for r in rows]
    tigers = [page.cells[("session", r, 3)] for r in rows]
    assert lions == ["1", "1", "", ""] and tigers == ["", "", "10", "9"]
    assert page.cells[("session", 3, 4)] == "2 - 19"
    assert ("players", 0, 0) in page.cells
