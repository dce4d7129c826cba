"""The post-mortem players want: scorecards, the auction/play split, matchpoints, players, every input and output."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import quote

import numpy as np
import pytest
from click.testing import CliRunner

import ddsbind
from ddsbind.cli import main
from ddsbind.deal import Side, Vulnerability
from ddsbind.errors import ContractError, FormatError
from ddsbind.formats.games import read_games, read_played
from ddsbind.formats.lin import parse_lin
from ddsbind.match import SessionReport, analyse_session
from ddsbind.scoring import PASSED_OUT, Contract, imps, neuberg
from tests.support import REPO

SESSION = REPO / "examples" / "data" / "session.lin"
RECORDS = REPO / "tests" / "data" / "records"
SCORE_TABLE = RECORDS / "bridgecomposer_scoretable.pbn"
MYHANDS = RECORDS / "bbo_myhands.lin"
VIEWER = "https://www.bridgebase.com/tools/handviewer.html"

# What no output may show: Python's None and nan, and reprs of ddsbind's objects.
PYTHON = re.compile(r"\bNone\b|\bnan\b|\bNaN\b|<[A-Z][A-Za-z]*\.[A-Z]+: \d+>|Seat\.|Card\(|Contract\(| object at ")


@pytest.fixture(scope="module")
def session() -> SessionReport:
    """The sample match analysed once (every card of every board solved)."""
    return ddsbind.analyse(SESSION)


def test_auction_and_play_add_up_to_the_swing(session):
    """Without this, a team would be told a swing came from the auction when the play made it (or the reverse)."""
    for b in session.boards:
        assert b.auction_imps is not None and b.play_imps is not None
        assert b.auction_imps + b.play_imps == b.imps
        o, c = b.tables
        # Worked from the WBF scale: the two rooms' contracts at their double-dummy tricks.
        assert b.auction_imps == int(imps(o.dd_score - c.dd_score))
    # Board 4: open 4H by S at 9 tricks double dummy, vulnerable: NS -100; closed 3S by W at 6: NS +300.
    # 400 is 9 IMPs (370-420): Tigers' swing came from the auction, none from the play.
    last = session.boards[-1]
    assert (last.tables[0].dd_score, last.tables[1].dd_score) == (-100, 300)
    assert (last.auction_imps, last.play_imps) == (-9, 0)
    # Board 3: both rooms in 4S making 10 double dummy (no auction swing); open went down: 10 IMPs of play.
    assert (session.boards[2].auction_imps, session.boards[2].play_imps) == (0, -10)


def test_costly_cards_name_the_player_who_chose_them(session):
    """Without this, declarer's misplay from dummy would be blamed on dummy, and no one would see what it cost."""
    (card,) = session.boards[2].tables[0].costly  # board 3, open room: 4S by S (Ames), North (Carr) is dummy
    assert (str(card.card), card.seat.name, card.chooser.name, card.player) == ("S3", "N", "S", "Ames")
    # One trick in 4S not vulnerable: 420 made against 50 down, a 470 difference: 10 IMPs (450-490).
    assert (card.cost, card.imps) == (1, 10)
    lines = session.lines(detail=True)
    assert any("trick  3, Ames (S, from dummy) played S3: cost 1 trick, 10 IMPs" in line for line in lines)
    ames = next(p for p in session.players if p.player == "Ames")
    assert (ames.declared, ames.lost_declaring, ames.worst) == (3, 1, [("Board 3 open", "S3", 1)])
    gold = next(p for p in session.players if p.player == "Gold")
    assert gold.lost_on_lead == 1  # board 1 closed: Gold's opening lead of the HJ cost a trick


def test_claims_are_checked_against_double_dummy():
    """Without this, a claim for a trick too many (or too few) would pass unnoticed in the report."""
    report = analyse_session(parse_lin(MYHANDS.read_bytes())[1:2])  # board 2: 4HX by E claimed at 8 tricks
    (t,) = report.boards[0].tables
    assert (t.result, t.claim_dd) == (8, 7)
    assert "    play: claim of 8 tricks after 24 cards, double dummy 7: 1 trick more" in report.lines(detail=True)


def test_score_table_matchpoints_equal_the_hand_worked_ones():
    """Without this, a club's pairs evening would be ranked wrongly from its own results table."""
    report = ddsbind.analyse(SCORE_TABLE)
    assert report.kind == "pairs"
    # Worked by hand, 2 a score beaten, 1 a tie:
    # board 1, five results 420 450 -50 420 0: 5 8 0 5 2 of 8.
    # board 2, four results -400 -430 50 50 (top 6): 2 0 5 5; five was the most, so Neuberg: (mp + 1) * 5/4 - 1.
    # board 3, two results 110 110: 1 each (top 2), Neuberg (1 + 1) * 5/2 - 1 = 4 of 8.
    got = [[t.matchpoints for t in b.tables] for b in report.boards]
    assert got == [[5, 8, 0, 5, 2], [2.75, 0.25, 6.5, 6.5], [4, 4]]
    assert {t.top for b in report.boards for t in b.tables} == {8}
    ns = {p.pair: p for p in report.pairs if p.direction is Side.NS}
    assert (ns["Mo Nash - Ned Orr"].matchpoints, ns["Mo Nash - Ned Orr"].tops) == (11.5, 16)  # 5 + 6.5
    assert ns["Mo Nash - Ned Orr"].rank == 1 and round(ns["Mo Nash - Ned Orr"].percent, 2) == 71.88
    ew = {p.pair: p for p in report.pairs if p.direction is Side.EW}
    assert ew["Kit Lowe - Lou Marsh"].matchpoints == 8 + (8 - 0.25) + 4  # EW's are the top less NS's
    assert [p.rank for p in report.pairs if p.direction is Side.EW] == [1, 2, 3, 4, 5]
    assert [p.to_json()["direction"] for p in report.pairs] == ["NS"] * 5 + ["EW"] * 5  # a Side, "NS" in JSON


def test_score_table_by_section():
    """Without this, a two-section evening could not be scored as the club scores it, each section apart."""
    report = ddsbind.analyse(SCORE_TABLE, by_section=True)
    # Section A: board 1 420 450 -50: 2 4 0 of 4; board 2 -400 -430 50: 2 0 4; board 3 110 110 (2 of 3 played):
    # 1 each of 2, Neuberg (1 + 1) * 3/2 - 1 = 2 of 4.  Section B: board 1 420 0: 2 0 of 2; board 2 at one table.
    got = [[(t.section, t.matchpoints, t.top) for t in b.tables] for b in report.boards]
    assert got[0] == [("A", 2, 4), ("A", 4, 4), ("A", 0, 4), ("B", 2, 2), ("B", 0, 2)]
    assert got[1] == [("A", 2, 4), ("A", 0, 4), ("A", 4, 4), ("B", None, None)]
    assert got[2] == [("A", 2, 4), ("A", 2, 4)]
    assert {(p.section, p.direction) for p in report.pairs} == {
        ("A", Side.NS),
        ("A", Side.EW),
        ("B", Side.NS),
        ("B", Side.EW),
    }
    assert "  section B, NS Mo Nash - Ned Orr v EW Sal Tate - Ted Urey: 3NT by E, 8 tricks" in "\n".join(report.lines())
    headings = [line for line in report.lines() if line.endswith("):")]  # each field's totals, headed by its side
    assert headings == [f"{side} (section {s})" + ":" for s in "AB" for side in ("North-South", "East-West")]
    assert "East-West section B" in report.to_html()


def test_neuberg_by_hand():
    """Without this, a board played fewer times would weigh more or less than the others in the totals."""
    # Three results of a board five pairs played elsewhere: (p + 1/2) * 5/3 - 1/2 on the 1-a-score-beaten scale.
    assert np.allclose(neuberg([0, 1, 2], 5), [1 / 3, 2, 11 / 3])
    assert neuberg([1.5, 1.5, 0], 3).tolist() == [1.5, 1.5, 0]  # a full field is unchanged
    with pytest.raises(ContractError, match="not to 2"):
        neuberg([0, 1, 2], 2)


def test_single_table_boards_are_shown_as_such():
    """Without this, a board played once would show nan or a made-up score against nobody."""
    report = ddsbind.analyse(REPO / "examples" / "data" / "club.pbn")
    assert report.kind == "games" and all(t.matchpoints is None for b in report.boards for t in b.tables)
    lines = report.lines()
    assert sum("one table: no matchpoints" in line for line in lines) == 4
    assert "NS Lindqvist - Moreau v EW Baptiste - Okafor: 5D by E, 12 tricks, lead H4, NS -420" in lines[1]


def _match_file(tmp_path: Path, vg: list[str]) -> Path:
    """The sample match with its vg| line replaced, one copy of the boards per vg| line given."""
    text = SESSION.read_text(encoding="utf-8")
    head, rest = text.split("\n", 1)
    assert head.startswith("vg|")
    path = tmp_path / "match.lin"
    path.write_text("".join(f"{v}\n{rest}" for v in vg), encoding="utf-8")
    return path


def test_vugraph_carry_over_starts_the_match(tmp_path):
    """Without this, the second segment of a match would restart at 0-0 and the running score would be wrong."""
    path = _match_file(tmp_path, ["vg|Thursday Club Teams,Round 2,I,1,4,Lions,15,Tigers,37|"])
    report = ddsbind.analyse(path)
    (m,) = report.matches
    assert m.carry == (15, 37)
    assert [b.match for b in report.boards] == [(16, 37), (17, 37), (17, 47), (17, 56)]
    assert report.total == (17, 56)
    lines = report.lines()
    assert "Carried over: Lions 15, Tigers 37 (the match score starts there)" in lines
    assert "Match: Lions 17, Tigers 56 IMPs" in lines


def test_two_matches_in_one_file_are_each_reported(tmp_path):
    """Without this, a file of two matches would be told it lacks a room on every board, with a 0-0 match."""
    path = _match_file(
        tmp_path,
        ["vg|Club Teams,Round 2,I,1,4,Lions,0,Tigers,0|", "vg|Club Teams,Round 2,I,1,4,Bears,3,Wolves,0|"],
    )
    report = ddsbind.analyse(path)
    assert [m.teams for m in report.matches] == [("Lions", "Tigers"), ("Bears", "Wolves")]
    assert [m.total for m in report.matches] == [(2, 19), (5, 19)]
    text = "\n".join(report.lines())
    assert "lacks one room" not in text
    assert "Match: Lions 2, Tigers 19 IMPs" in text and "Match: Bears 5, Wolves 19 IMPs" in text


def test_two_matches_no_one_can_tell_apart_are_refused(tmp_path):
    """Without this, two tables' results for one room would be mixed into one swing without a word."""
    games = read_games(SESSION)
    for g in games:
        g.tags.pop("LinHeader", None)  # no vg| line: nothing names the two matches
    with pytest.raises(FormatError, match=r"Board 1: 2 open-room results in one match: record 1 .*, record 9"):
        analyse_session(games + games)


def test_handviewer_address_gives_the_report_of_its_lin(tmp_path):
    """Without this, a board pasted from BBO's handviewer would be scored otherwise than the LIN file it encodes."""
    line = MYHANDS.read_text(encoding="utf-8").splitlines()[1]
    (tmp_path / "b.lin").write_text(line + "\n", encoding="utf-8")
    (tmp_path / "links.txt").write_text(f"# board 2\n{VIEWER}?lin={quote(line)}\n", encoding="utf-8")
    from_file = ddsbind.analyse(tmp_path / "b.lin")
    from_address = ddsbind.analyse(f"{VIEWER}?lin={quote(line)}")
    from_list = ddsbind.analyse(tmp_path / "links.txt")
    assert from_address.to_json() == from_file.to_json() == from_list.to_json()
    assert from_address.lines(detail=True) == from_file.lines(detail=True)
    runner = CliRunner()
    cli = runner.invoke(main, ["analyse", f"{VIEWER}?lin={quote(line)}", "--detail"])
    assert cli.exit_code == 0 and cli.stdout.splitlines() == from_file.lines(detail=True)


def test_shortened_link_and_deals_only_file_are_one_line_and_status_1():
    """Without this, a tinyurl link or a file of deals would end in a traceback or a report of Python's None."""
    runner = CliRunner()
    for args, words in (
        (["https://tinyurl.com/2abcde"], "needs the network"),
        ([str(REPO / "examples" / "data" / "boards.pbn")], "no contract or result: nothing to analyse"),
    ):
        r = runner.invoke(main, ["analyse", *args])
        assert r.exit_code == 1 and r.stdout == ""
        assert len(r.stderr.strip().splitlines()) == 1 and words in r.stderr


def _outputs(path: Path, tmp_path: Path) -> list[str]:
    """Every output of the report of a file: text, detail, JSON, the HTML page and fragment, the DataFrame; and
    `ddsbind analyse --detail --html` (its stdout and page)."""
    report = ddsbind.analyse(path)
    out = [str(report), "\n".join(report.lines(detail=True)), json.dumps(report.to_json())]
    out += [report.to_html(), report._repr_html_(), report.to_frame().to_string()]
    r = CliRunner().invoke(main, ["analyse", str(path), "--detail", "--html", str(tmp_path / "r.html")])
    assert r.exit_code == 0, r.output
    return [*out, r.stdout, (tmp_path / "r.html").read_text(encoding="utf-8")]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["session", "myhands", "score_table", "club"])
def test_no_output_shows_python(name, tmp_path):
    """Without this, players would read Python's None, nan or an object's repr in their report."""
    path = {
        "session": SESSION,
        "myhands": MYHANDS,  # board 3 passed out
        "score_table": SCORE_TABLE,  # a passed-out result, a board at one table of its section
        "club": REPO / "examples" / "data" / "club.pbn",
    }[name]
    outputs = _outputs(path, tmp_path)
    assert json.loads(outputs[2])["boards"]
    for text in outputs:
        # PBN's vulnerability word "None" is the one allowed: "vulnerable None" in the text, in JSON's "vulnerable".
        cleaned = re.sub(r'vulnerable None|"vulnerable": "None"', "", text)
        found = PYTHON.search(cleaned)
        assert found is None, f"{name}: {cleaned[max(0, found.start() - 60) : found.end() + 60]!r}"


def test_passed_out_board_reads_as_passed_out():
    """Without this, a passed-out board would print 'Pass by ?' and 'double dummy None tricks' (issue 47)."""
    report = ddsbind.analyse(MYHANDS)
    text = "\n".join(report.lines(detail=True))
    assert "Board 3 (dealer S, vulnerable All)" in text
    assert re.search(r"Board 3 .*\n  NS partner - Ann v EW robot - robot: passed out, NS 0, one table", text)
    assert "None" not in text.replace("vulnerable None", "")


def test_passed_out_room_in_a_team_match(tmp_path):
    """Without this, a room that passed the board out would print Python's None in the scorecard (issue 47)."""
    games = [g for g in read_games(SESSION) if g.board == 4]
    closed = games[1]
    closed.auction, closed.auction_marks = ["Pass"] * 4, [0] * 4
    closed.contract, closed.declarer, closed.result = PASSED_OUT, None, None
    closed.play, closed.play_marks = [], []
    report = analyse_session(games)
    (b,) = report.boards
    # Open 4H by S one down vulnerable, NS -100; closed passed out, 0: 100 is 3 IMPs to Tigers.  Double dummy
    # the open room's 4H takes 9 tricks (NS -100) against 0: all 3 IMPs are the auction's.
    assert (b.imps, b.auction_imps, b.play_imps) == (-3, -3, 0)
    # The report holds the vocabulary's values, not their text: a contract, PASSED_OUT, a vulnerability.
    assert (b.tables[0].contract, b.tables[1].contract, b.vulnerable) == (
        Contract.parse("4H"),
        PASSED_OUT,
        Vulnerability.BOTH,
    )
    assert (b.to_json()["vulnerable"], [t.to_json()["contract"] for t in b.tables]) == ("All", ["4H", "Pass"])
    text = "\n".join(report.lines(detail=True))
    assert re.search(r"-100  Pass +0 ", text) and "closed passed out (NS 0)" in text
    assert PYTHON.search(text.replace("vulnerable None", "")) is None


def test_python_object_and_frame(session):
    """Without this, a notebook user would get no table of the match to sort, filter or plot."""
    assert len(session.boards) == 4
    frame = session.to_frame()
    assert len(frame) == 8 and list(frame["score"]) == [-400, -430, 680, 650, -50, 420, -100, 300]
    assert list(frame["imps"].dropna()) == [1, 1, -10, -9]
    pairs = ddsbind.analyse(SCORE_TABLE).to_frame()
    assert list(pairs["matchpoints_ns"].dropna())[:5] == [5, 8, 0, 5, 2]


def test_html_report_opens_from_disk_with_nothing_fetched(browser, session, tmp_path):
    """Without this, the report sent to a teammate could show nothing offline, or call home when opened."""
    path = tmp_path / "report.html"
    path.write_text(session.to_html(), encoding="utf-8")
    context = browser.new_context()
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(path.as_uri())
    assert requests == [path.as_uri()]  # the page itself, nothing else
    assert page.locator("table.ddsbind-session").count() == 1
    assert page.locator("table.ddsbind-players").count() == 1
    assert page.locator("table.ddsbind-deal").count() == 8  # each board's diagram, each room
    marked = page.locator("[data-cost]")
    assert marked.count() == sum(len(t.costly) for b in session.boards for t in b.tables) == 3
    assert page.locator("table.ddsbind-auction").count() == 8
    context.close()


def test_read_played_expands_score_tables():
    """Without this, a hand record's results table would be read as one deal with no result."""
    games = read_played(SCORE_TABLE)
    assert len(games) == 11
    assert [g.tags["Section"] for g in games[:5]] == ["A", "A", "A", "B", "B"]
    assert games[4].contract is PASSED_OUT and games[2].result == 9 and str(games[2].contract) == "4S"


def test_cli_by_section_and_json_entries():
    """Without this, `--by-section` or the JSON's per-card player and IMPs could be lost between library and CLI."""
    runner = CliRunner()
    r = runner.invoke(main, ["analyse", str(SCORE_TABLE), "--by-section", "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["kind"] == "pairs" and doc["by_section"] is True
    assert [t["matchpoints"] for t in doc["boards"][0]["tables"]] == [2, 4, 0, 2, 0]
    best = next(p for p in doc["pairs"] if p["section"] == "B" and p["direction"] == "NS")
    assert (best["pair"], best["matchpoints"], best["tops"], best["rank"]) == ("Mo Nash - Ned Orr", 2, 2, 1)
    r = runner.invoke(main, ["analyse", str(MYHANDS), "--json"])
    costly = [c for b in json.loads(r.stdout)["boards"] for t in b["tables"] for c in t["costly"]]
    assert costly and all({"player", "chooser", "trick", "cost", "imps", "better"} <= set(c) for c in costly)
