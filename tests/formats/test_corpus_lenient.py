"""Issue 46's corpus (tests/data/records, NOTES.md): each layout read, round-tripped field by field, and solved."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
from click.testing import CliRunner

import ddsbind
from ddsbind.cli import main
from ddsbind.deal import Vulnerability
from ddsbind.errors import FieldWarning, FormatError
from ddsbind.formats import pbn
from ddsbind.formats.ddsref import read_reference
from ddsbind.formats.lin import format_lin, parse_lin
from ddsbind.formats.pbn import format_par
from ddsbind.formats.pbngame import format_games, parse_games
from ddsbind.record import GameRecord
from tests.support import REPO

RECORDS = REPO / "tests" / "data" / "records"

#: Each file of game records, and the (board, tag) of every field its reader must set aside and name.
GAME_FILES = {
    "wbridge5.pbn": set(),
    "team_match.pbn": set(),
    "bba_garbage.pbn": {
        ("1", "Scoring"),
        ("1", "Result"),
        ("3", "Declarer"),
        ("4", "Auction"),
        ("99999999999999999999", "Board"),
    },
}
#: Each file of deals (no auction or play), and the fields set aside.
DEAL_FILES = {"practice_two_hands.pbn": set(), "windows1252.pbn": set(), "club_scoretable.pbn": set()}


def _read(path, read):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = read(path.read_bytes())
    named = {(w.message.board, w.message.tag) for w in caught if isinstance(w.message, FieldWarning)}
    return out, named


#: What a PBN game record holds, compared field by field.
FIELDS = ("deal", "dealer", "vulnerable", "board", "auction", "contract", "declarer", "result", "tags", "unread")


#: Tags a record holds in its fields (written from them: ``Deal`` from North, say), compared there.
OWNED = ("Board", "Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Result", "Auction", "Play")


def _fields(g: GameRecord, names: tuple[str, ...] = FIELDS) -> dict[str, object]:
    out = {n: getattr(g, n) for n in names}
    if "tags" in out:
        out["tags"] = {k: v for k, v in g.tags.items() if k not in OWNED}
    return out


@pytest.mark.parametrize("name", GAME_FILES)
def test_each_game_file_reads_names_what_it_sets_aside_and_is_refused_strictly(name):
    """Without this, one field a reader dislikes refused a whole file, or was dropped without a word."""
    games, named = _read(RECORDS / name, parse_games)
    assert games and named == GAME_FILES[name]
    if named:
        with pytest.raises(FormatError, match=r"refused \(strict reading\)"):
            parse_games((RECORDS / name).read_bytes(), strict=True)
    assert format_games(games) == (RECORDS / name).read_bytes().decode(games[0].source.encoding)  # type: ignore[attr-defined]
    for g in games:
        g.source = None  # written anew from the records: the same records again, every field
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FieldWarning)
        again = parse_games(format_games(games))
    assert [_fields(g) for g in again] == [_fields(g) for g in games]


@pytest.mark.parametrize("name", ["wbridge5.pbn", "team_match.pbn"])
def test_game_files_through_lin_keep_every_field_lin_holds(name):
    """Without this, PBN to LIN of a team match lost the event and both team names, which LIN's vg| holds."""
    games = parse_games((RECORDS / name).read_bytes())
    back = parse_lin(format_lin(games))
    held = ("deal", "dealer", "vulnerable", "board", "auction", "contract", "declarer", "result")
    assert [_fields(g, held) for g in back] == [_fields(g, held) for g in games]
    for g, b in zip(games, back, strict=True):
        assert g.players == b.players
        for tag in ("Event", "HomeTeam", "VisitTeam", "Room"):
            assert b.tags.get(tag) == g.tags.get(tag), tag


def test_the_wbridge5_event_and_the_team_match_read_as_written():
    """Without this, WBridge5's unquoted `[Event Random Deal #]` refused all its games; a match lost its rooms."""
    (first, *_) = parse_games((RECORDS / "wbridge5.pbn").read_bytes())
    assert first.tags["Event"] == "Random Deal #" and first.tags["Site"] == "WBridge5"
    match = parse_games((RECORDS / "team_match.pbn").read_bytes())
    assert [(g.board, g.tags["Room"]) for g in match] == [(1, "Open"), (1, "Closed"), (2, "Open"), (2, "Closed")]
    assert {g.tags["HomeTeam"] for g in match} == {"Otters"} and match[3].players["N"] == "Eve"


@pytest.mark.parametrize("name", DEAL_FILES)
def test_each_deal_file_reads_and_round_trips(name, tmp_path):
    """Without this, a hand record with two hands shown, Windows bytes or a score table was refused whole."""
    boards, named = _read(RECORDS / name, pbn.parse_pbn)
    assert boards and named == DEAL_FILES[name]
    out = tmp_path / name
    r = CliRunner().invoke(main, ["convert", str(RECORDS / name), str(out)])
    assert r.exit_code == 0, r.output
    assert out.read_bytes() == (RECORDS / name).read_bytes()  # PBN to PBN: every byte, every field kept
    again = pbn.parse_pbn(out.read_bytes())
    assert [(b.deal, b.tags) for b in again] == [(b.deal, b.tags) for b in boards]


def test_the_deal_files_say_what_they_hold():
    """Without this, the layouts could read without their point: unknown hands, Windows letters, score rows."""
    practice = pbn.parse_pbn((RECORDS / "practice_two_hands.pbn").read_bytes())
    assert [b.deal.is_full for b in practice] == [False, False, False, True]
    assert {b.tags["Event"] for b in practice} == {"Thursday bidding practice"}
    windows = pbn.parse_pbn((RECORDS / "windows1252.pbn").read_bytes())
    assert windows[1].tags["Event"] == "Caf\xe9 \u20ac5 pairs \u201cwinter\u201d"
    assert pbn.pbn_encoding((RECORDS / "windows1252.pbn").read_bytes()) == "cp1252"
    (game, _) = parse_games((RECORDS / "club_scoretable.pbn").read_bytes())
    assert game.sections["ScoreTable"][1] == '2  1  2  6 4S   E 10 "-420"  1.0'


def test_dds_reference_layout_keeps_each_hands_dealer_vulnerability_and_par(tmp_path):
    """Without this, DDS's largest.txt layout converted to PBN took the board cycle's dealer and vulnerability."""
    hands = read_reference(RECORDS / "dds_largest.txt")
    out = tmp_path / "largest.pbn"
    assert CliRunner().invoke(main, ["convert", "--from", "dds", str(RECORDS / "dds_largest.txt"), str(out)])
    boards = pbn.parse_pbn(out.read_bytes())
    for hand, board in zip(hands, boards, strict=True):
        assert (board.tags["Dealer"], board.tags["Vulnerable"]) == ("NESW"[hand.dealer], Vulnerability(hand.vul).pbn)
        assert hand.dealer_par is not None
        par = format_par(int(hand.dealer_par[0]), list(hand.dealer_par[1:]))
        assert (board.tags["OptimumScore"], board.tags["ParContract"]) == par
        np.testing.assert_array_equal(board.table, hand.table)


@pytest.mark.slow
def test_every_new_layout_is_solved_and_its_right_tags_left_alone(tmp_path):
    """Without this, one unsolvable board (hands unknown) lost the file, or solving changed what was right."""
    for name in [*GAME_FILES, *DEAL_FILES]:
        out = tmp_path / name
        r = CliRunner().invoke(main, ["convert", str(RECORDS / name), str(out), "--solve"])
        assert r.exit_code == 0, (name, r.output)
        for board in pbn.parse_pbn(out.read_bytes()):
            if board.deal.is_full:
                np.testing.assert_array_equal(board.table, np.asarray(ddsbind.dd_table(board.deal)))
            else:  # kept as written, not solved, named once
                assert board.table is None and r.output.count(f'[Deal "{board.tags["Deal"]}"] set aside') == 1
        again = tmp_path / f"again-{name}"
        r = CliRunner().invoke(main, ["convert", str(out), str(again), "--solve"])
        assert r.exit_code == 0 and again.read_bytes() == out.read_bytes(), name  # all right now: byte for byte
    largest = tmp_path / "largest.pbn"
    src = RECORDS / "dds_largest.txt"
    assert CliRunner().invoke(main, ["convert", "--from", "dds", str(src), str(largest), "--solve"]).exit_code == 0
    again = tmp_path / "largest-again.pbn"
    assert CliRunner().invoke(main, ["convert", str(largest), str(again), "--solve"]).exit_code == 0
    assert again.read_bytes() == largest.read_bytes()


#: LIN files with commentary and both tables' names, for the LIN round trips of issue 46 item 3.
VUGRAPH_FILES = ("vugraph_long.lin", "vugraph_final.lin", "tmpbn2linvg.lin", "bridgecomposer_vugraph.lin")

#: What a LIN game record holds, compared field by field (LIN has no contract but the auction's).
LIN_FIELDS = (*FIELDS[:-1], "alerts", "notes", "call_notes", "play", "commentary", "commentary_at")


def _comment_places(text: str) -> list[list[tuple[str, int]]]:
    """Each board's ``nt|`` comments, each with the count of calls and cards kept (not taken back) before it.

    Read from the text alone (the oracle): an ``up|n`` takes back the last n
    calls or cards, so a comment after one taken back stands after those
    still before it.
    """
    boards: list[list[tuple[str, int]]] = []
    actions: list[bool] = []  # each call or card so far: kept (True) unless taken back
    pending: list[tuple[str, int]] = []  # comment, index into actions
    for tag, value in re.findall(r"([A-Za-z]{2})\|([^|]*)\|", text):
        tag = tag.lower()
        if tag == "qx" or (tag == "md" and not boards):
            if actions or pending:
                boards.append([(c, sum(actions[:i])) for c, i in pending])
            actions, pending = [], []
        elif tag in ("mb", "pc"):
            actions.append(True)
        elif tag == "up":
            for _ in range(int(value or 1)):
                actions[max(i for i, kept in enumerate(actions) if kept)] = False
        elif tag == "nt":
            pending.append((value, len(actions)))
    boards.append([(c, sum(actions[:i])) for c, i in pending])
    return boards


@pytest.mark.parametrize("name", VUGRAPH_FILES)
def test_lin_round_trips_keep_every_comment_at_its_place_and_all_eight_names(name):
    """Without this, a comment before a call taken back moved by one call; eight names came back as four."""
    text = (RECORDS / name).read_text(encoding="utf-8")
    games = parse_lin(text)
    assert [list(zip(g.commentary, g.commentary_at, strict=True)) for g in games] == _comment_places(text)
    written = format_lin(games)
    assert _comment_places(written) == _comment_places(text)
    back = parse_lin(written)
    assert [_fields(g, LIN_FIELDS) for g in back] == [_fields(g, LIN_FIELDS) for g in games]
    # through PBN: all but an explanation's alert (PBN's note marks no call as alerted or not)
    held = tuple(f for f in LIN_FIELDS if f != "alerts")
    back = parse_lin(format_lin(parse_games(format_games(games))))
    assert [_fields(g, held) for g in back] == [_fields(g, held) for g in games]
    eight = {g.tags["LinPlayers"] for g in games}
    assert all(len(e.split(",")) == 8 for e in eight)
    assert set(re.findall(r"pn\|([^|]*)\|", written)) == eight  # every board's pn| holds both tables
    for g in games:  # each room's four, in the seat order S W N E
        slot = 4 if g.tags.get("Room") == "Closed" else 0
        names = g.tags["LinPlayers"].split(",")[slot : slot + 4]
        assert [g.tags.get(t, "") for t in ("South", "West", "North", "East")] == names
