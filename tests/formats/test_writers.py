"""Hand records as the programs that write them lay them out (issue 35): read, kept, solved, par as Bridge Composer.

The corpus is tests/data/records (NOTES.md says which program each file
imitates); each defect of the issue has a test here that failed before.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ddsbind
from ddsbind.deal import Deal, Seat
from ddsbind.errors import DroppedDataWarning, FieldWarning, FormatError, ResultsWarning
from ddsbind.formats import reading
from ddsbind.formats.convert import convert
from ddsbind.formats.lin import format_lin, parse_lin
from ddsbind.formats.pbn import add_results, parse_pbn
from ddsbind.formats.pbngame import dump_games, format_games, holds_games, parse_games

RECORDS = Path(__file__).resolve().parents[1] / "data" / "records"
PBN_FILES = ("bridgecomposer_utf8.pbn", "bba_results.pbn", "pbntools_play.pbn", "club_program.pbn")
PBN_FILES += ("deepfinesse_ability.pbn", "bbohelper.pbn", "csvtopbn.pbn", "xin2pbn.pbn", "commentary_places.pbn")
LIN_FILES = ("tmpbn2linvg.lin", "bridgecomposer_vugraph.lin", "bbohelper.lin")
#: Every field of a game record LIN holds, commentary's place included.
LIN_FIELDS = ("deal", "dealer", "vulnerable", "board", "auction", "alerts", "notes", "call_notes", "commentary")
LIN_FIELDS += ("commentary_at", "contract", "declarer", "result", "play", "tags")
DEAL = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"


def _read(name: str) -> bytes:
    return (RECORDS / name).read_bytes()


def _quiet_pbn(data: bytes, name: str = "PBN") -> list:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResultsWarning)
        return parse_pbn(data, name=name)


def _cli(*args):
    from click.testing import CliRunner

    from ddsbind.cli import main

    return CliRunner().invoke(main, [str(a) for a in args])


def _fill(owners, tables):
    """Tables solved by DDS for every deal (what `--solve` does, without the CLI)."""
    return np.stack([np.asarray(ddsbind.dd_table(Deal.from_owners(o))) for o in owners]).astype(np.uint8)


# --------------------------------------------------------------------------
# The corpus: each file read, written back, solved


def test_corpus_notes_name_every_file():
    """Without this, a corpus file could be added with nobody saying which program's layout it imitates."""
    notes = (RECORDS / "NOTES.md").read_text()
    for name in (*PBN_FILES, *LIN_FILES):
        assert f"`{name}`" in notes and (RECORDS / name).exists()


@pytest.mark.parametrize("name", PBN_FILES)
def test_pbn_file_reads_and_comes_back_byte_for_byte(name):
    """Without this, a file one of these programs wrote would be refused, or changed by reading and writing it."""
    data = _read(name)
    boards = _quiet_pbn(data, name)
    assert boards and all(b.deal.is_full for b in boards)  # xin2pbn writes one board a file
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResultsWarning)  # bba_results.pbn's board 12: its own test
        assert add_results(data, name)[0] == data  # nothing to add: checked and returned as it was
    if holds_games(data, name=name):
        assert dump_games(parse_games(data, name=name)) == data


@pytest.mark.parametrize("name", LIN_FILES)
def test_lin_file_comes_back_with_every_field_and_commentary_in_place(name):
    """Without this, a vugraph file read and written again would move commentary, players or rooms."""
    games = parse_lin(_read(name), name=name)
    assert len(games) >= 3
    back = parse_lin(format_lin(games))
    assert [{f: getattr(g, f) for f in LIN_FIELDS} for g in back] == [
        {f: getattr(g, f) for f in LIN_FIELDS} for g in games
    ]


@pytest.mark.parametrize("name", (*PBN_FILES, *LIN_FILES))
def test_solve_gives_dd_table_for_every_board(name, tmp_path):
    """Without this, `convert --solve` on a real program's file could refuse it or write tricks DDS does not give."""
    out = tmp_path / "solved.pbn"
    res = _cli("convert", RECORDS / name, out, "--solve")
    assert res.exit_code == 0, res.output
    boards = parse_pbn(out.read_bytes())  # every table written reads back, no warning
    assert boards
    for b in boards:
        np.testing.assert_array_equal(b.table, np.asarray(ddsbind.dd_table(b.deal)))


# --------------------------------------------------------------------------
# Refused before


def test_utf8_without_byte_order_mark_read_and_written_as_utf8():
    """Without this, a Bridge Composer file declaring charset=UTF-8 (or suit symbols in a note) is refused."""
    data = _read("bridgecomposer_utf8.pbn")
    assert not data.startswith(b"\xef\xbb\xbf") and "♠AK".encode() in data
    b1 = parse_pbn(data)[0]
    assert b1.tags["West"] == "Åsa Lind" and b1.tags["Event"] == "Clubabend Frühjahr"
    undeclared = '[Event "Coupe ♥"]\n[Deal "' + DEAL + '"]\n[Contract "2S"]\n[Declarer "W"]\n'
    (g,) = parse_games(undeclared.encode("utf-8"))
    assert g.tags["Event"] == "Coupe ♥"
    g.tags["Site"] = "Lyon"
    assert dump_games([g]).decode("utf-8").count("♥") == 1  # written back in UTF-8, no mark added


def test_bba_one_row_table_read_and_a_garbage_board_set_aside():
    """Without this, BBA's result table is refused, and one bad value refuses the whole file."""
    data = _read("bba_results.pbn")
    with pytest.warns(ResultsWarning, match=r"line 16 \(Board 12\).*'E H x'"):
        b11, b12, b13 = parse_pbn(data, name="bba_results.pbn")
    assert b12.table is None
    for b in (b11, b13):
        np.testing.assert_array_equal(b.table, np.asarray(ddsbind.dd_table(b.deal)))


def test_club_program_layout_dash_hand_no_space_contract_unknown_and_bang_token():
    """Without this, `-` for a hand, `[Event"x"]`, `[Contract "?"]` and `1C !` each refuse the whole file."""
    g21, g22, g23 = parse_games(_read("club_program.pbn"))
    assert g21.tags["Event"] == "Spring pairs" and g21.board == 21 and g21.dealer == Seat.N
    assert str(g21.contract) == "2S" and g21.declarer == Seat.S  # "?" unknown: the auction's
    assert str(g21.auction[0]) == "1C" and g21.auction_marks[0] == 1  # "!" belongs to 1C
    assert g22.auction_marks[:2] == [0, 1]
    assert g23.deal.is_full and g23.deal.hand_lengths == (13, 13, 13, 13)  # "-": the 13 cards left
    assert g23.tags["Site"] == "Club room"  # "#" twice over


def test_play_without_contract_tags_and_pbn21_annotations():
    """Without this, pbntools' played boards (no Contract tag) and `!!`/`??`/`?!` annotations are refused."""
    g3, g4 = parse_games(_read("pbntools_play.pbn"))
    assert (str(g3.contract), g3.declarer) == ("2H", Seat.W) and len(g3.play) == 8
    assert g3.auction_marks[:4] == [0, 3, 0, 5] and g3.play_marks[0] == 4 and g3.play_marks[5] == 6
    assert (str(g4.contract), g4.declarer) == ("3NT", Seat.W)


def test_deep_finesse_ability_read_as_results():
    """Without this, Deep Finesse's results are ignored and solved again (or a contradiction goes unseen)."""
    data = _read("deepfinesse_ability.pbn")
    for b in parse_pbn(data):
        np.testing.assert_array_equal(b.table, np.asarray(ddsbind.dd_table(b.deal)))
    wrong = data.replace(b'[Ability "N:', b'[DoubleDummyTricks "00000000000000000000"]\n[Ability "N:', 1)
    with pytest.warns(ResultsWarning, match="DoubleDummyTricks and Ability disagree"):
        assert parse_pbn(wrong)[0].table is None


# --------------------------------------------------------------------------
# Lost or wrong before


def test_two_tags_on_one_line_keep_board_and_dealer():
    """Without this, `[Board "7"] [Dealer "S"]` is read as section text: the board and dealer are lost."""
    text = f'[Board "7"] [Dealer "S"]\n[Vulnerable "All"] [Deal "{DEAL}"]\n[Contract "2S"] [Declarer "W"]\n'
    (b,) = parse_pbn(text)
    assert (b.tags["Board"], b.tags["Dealer"], b.tags["Vulnerable"]) == ("7", "S", "All")
    (g,) = parse_games(text)
    assert (g.board, g.dealer) == (7, Seat.S)
    g.tags["Event"] = "x"
    g.board = 7
    assert format_games(parse_games(format_games([g]))) == format_games([g])


def test_tag_edit_on_a_line_with_a_comment():
    """Without this, changing a tag whose line ends in `; comment` raises a bare StopIteration."""
    text = f'[Event "Club"] ; typed late\n[Deal "{DEAL}"]\n[Contract "2S"]\n[Declarer "W"]\n'
    (g,) = parse_games(text)
    g.tags["Event"] = "Club night"
    out = format_games([g])
    assert '[Event "Club night"] ; typed late' in out and out.replace("Club night", "Club") == text


def test_solve_replaces_a_commented_optimum_score():
    """Without this, `convert --solve` over `[OptimumScore "NS 999"] ; old` ends in a traceback."""
    text = f'[Board "1"]\n[Deal "{DEAL}"]\n[OptimumScore "NS 999"] ; old\n'
    from ddsbind.cli.files import _dealer_par

    out, n = add_results(text, fill=_fill, par=_dealer_par)
    assert n == 1 and b"; old" in out and b"NS 999" not in out


def test_hash_has_one_reading():
    """Without this, `#` gives one value to read_games and another (or an error) to parse_pbn and add_results."""
    text = (
        f'[Site "Hall"]\n[Deal "{DEAL}"]\n[Contract "2S"]\n[Declarer "W"]\n\n'
        f'[Site "#"]\n[Event "E2"]\n[Deal "{DEAL}"]\n[Contract "2S"]\n[Declarer "W"]\n\n'
        f'[Site "#"]\n[Deal "{DEAL}"]\n[Contract "2S"]\n[Declarer "W"]\n'
    )
    assert [b.tags["Site"] for b in parse_pbn(text)] == ["Hall"] * 3
    assert [g.tags["Site"] for g in parse_games(text)] == ["Hall"] * 3
    missing = f'[Deal "{DEAL}"]\n[Contract "2S"]\n[Declarer "W"]\n\n[Event "#"]\n[Deal "{DEAL}"]\n'
    for reader in (parse_pbn, parse_games, add_results):
        with reading(True), pytest.raises(FormatError, match=r'\[Event "#"\] refused .*the game before has no Event'):
            reader(missing)
        with pytest.warns(FieldWarning, match=r'record 2, line 5: \[Event "#"\] set aside: the game before has no'):
            reader(missing)  # read leniently: the "#" kept as written, named once


def test_contract_contradicting_the_auction_is_refused_naming_the_board():
    """Without this, a Declarer or Contract tag the auction contradicts is analysed and stored in ZRJ as if true."""
    tags = f'[Board "5"]\n[Dealer "N"]\n[Deal "{DEAL}"]\n[Contract "2S"]\n[Declarer "E"]\n'
    text = tags + '[Auction "N"]\nPass 1S Pass 2S\nAP\n'
    assert parse_games(text)[0].declarer == Seat.E  # E bid spades first: agrees
    with pytest.raises(FormatError, match=r"^record 1 \(Board 5\), line 5: \[Declarer \"W\"\] refused .*declarer is E"):
        parse_games(text.replace('[Declarer "E"]', '[Declarer "W"]'), strict=True)
    with pytest.raises(FormatError, match=r"^record 1 \(Board 5\), line 4: \[Contract \"3S\"\] refused .*reaches 2S"):
        parse_games(text.replace('[Contract "2S"]', '[Contract "3S"]'), strict=True)
    # Read leniently, the tag is set aside (named, written back as the file wrote it) and the auction's taken.
    with pytest.warns(FieldWarning, match=r"record 1 \(Board 5\), line 5: \[Declarer \"W\"\] set aside: .*er is E"):
        (rec,) = parse_games(text.replace('[Declarer "E"]', '[Declarer "W"]'))
    assert rec.declarer == Seat.E and rec.unread == {"Declarer": "W"}


def test_converting_to_zrj_names_what_it_drops(tmp_path):
    """Without this, Event, players, notes and commentary vanish in a conversion to ZRJ without a word."""
    src = tmp_path / "games.pbn"
    src.write_bytes(_read("club_handrecord.pbn"))
    with pytest.warns(DroppedDataWarning, match=r"zrj cannot hold .*tags Event.*notes and alerts.*commentary"):
        convert(src, tmp_path / "games.zrj")


def test_lin_players_after_the_last_board_belong_to_nobody():
    """Without this, TMPbn2LinVG's closing `pn|` overwrites the last board's players."""
    games = parse_lin(_read("tmpbn2linvg.lin"))
    assert [(g.board, g.tags["Room"], g.tags["North"]) for g in games] == [
        (1, "Open", "Cy"), (1, "Closed", "Gil"), (2, "Open", "Cy"), (2, "Closed", "Gil"),
    ]  # fmt: skip
    assert games[-1].tags["LinTrailer"] == "pn|Ann,Ben,Cy,Di,Ed,Flo,Gil,Hu|pg||"
    text = "md|3" + DEAL_LIN + "|sv|o|mb|p|mb|p|mb|p|mb|p|pn|A,B,C,D|"
    (g,) = parse_lin(text)
    assert "North" not in g.tags


DEAL_LIN = "SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,"


def test_lin_commentary_stays_at_its_call_and_card():
    """Without this, `nt|` commentary written at a call or card moves to the end of its board."""
    g = parse_lin(_read("bridgecomposer_vugraph.lin"))[0]
    assert g.commentary == ["A jump to game.", "Declarer thinks."] and g.commentary_at == [2, 10]
    line = format_lin([g])
    assert re.search(r"mb\|p\|nt\|A jump to game\.\|mb\|4h\|", line, re.IGNORECASE)
    assert re.search(r"(pc\|\w+\|){4}nt\|Declarer thinks\.\|pc\|", line.split("pg||", 1)[1])


def test_lin_bridge_composer_qx_gives_board_room_and_closed_room_players():
    """Without this, `qx|o1,BOARD 1|` gives no board number and the closed room gets the open room's players."""
    games = parse_lin(_read("bridgecomposer_vugraph.lin"))
    assert [(g.board, g.tags["Room"], g.tags["South"]) for g in games] == [
        (1, "Open", "Ann"), (1, "Closed", "Ed"), (2, "Open", "Ann"), (2, "Closed", "Ed"),
    ]  # fmt: skip


def test_lin_names_with_comma_or_bar_refused_and_edited_names_written():
    """Without this, `Moreau, J.` shifts every seat's name in LIN, a `|` breaks the file, and edits are lost."""
    games = parse_lin(_read("bridgecomposer_vugraph.lin"))
    games[1].tags["North"] = "Gilles"
    back = parse_lin(format_lin(games))
    assert [g.tags["North"] for g in back] == ["Cy", "Gilles", "Cy", "Gil"]
    for bad in ("Moreau, J.", "a|b"):
        games[0].tags["West"] = bad
        with pytest.raises(FormatError, match=r"record 1 \(Board 1\): West's name .* which LIN's pn\| cannot hold"):
            format_lin(games)


# --------------------------------------------------------------------------
# Par and tables as Bridge Composer writes them

#: Bridge Composer 5.118.2's own analysis of eight deals (dealer N), as it saved them in a public repository's
#: test fixture (pbn-order-test-bc-dd.pbn): vulnerability, deal, then its DoubleDummyTricks, OptimumScore,
#: ParContract and the Result column's width.  Facts about what it writes, used as the oracle.
BRIDGE_COMPOSER = [
    ("None", "N:62.JT765.AKJ5.Q3 KQ85.Q9.Q876.J75 J9743.K84.T2.K84 AT.A32.943.AT962",
     "56865568656757867578", "EW -100", "EW 2SX-1; EW 3CX-1", 1),
    ("NS", "N:Q7432.85.J983.63 J65.64.AKT5.AK98 AK98.AKQJ7.6.QJ7 T.T932.Q742.T542",
     "7a9547a9544248942489", "EW -300", "EW 5CX-2", 2),
    ("EW", "N:984.AKT62.AJ9.62 AJ7.J873.K8.Q943 QT653.94.T632.KJ K2.Q5.Q754.AT875",
     "58664586648566975669", "NS -100", "NS 3SX-1", 1),
    ("All", "N:T84.AQT6.872.JT2 Q3.98542.AKJ5.A5 K952.KJ7.93.K763 AJ76.3.QT64.Q984",
     "5452454524887a8887a8", "EW 130", "EW 1D+3", 2),
    ("None", "N:KJ86.KQ9.T3.JT76 QT53.JT74.87.A93 -.A83.AQJ642.K542 A9742.652.K95.Q8",
     "967aa868aa4753347533", "NS 400", "N 3N=", 2),
    ("NS", "N:A42.KT952.Q97.63 T83.7.8432.AQJ52 KJ6.843.K65.K984 Q975.AQJ6.AJT.T7",
     "65755758556857867588", "EW 110", "E 2S=", 1),
    ("EW", "N:J742.AK.KT64.KT3 T986.85.A875.Q85 AQ5.QJT72.J.A642 K3.9643.Q932.J97",
     "9aa8a9aa8a2324323243", "NS 420", "NS 4H=; NS 4S=", 2),
    ("All", "N:Q95.AJ754.-.KQ865 AT43.-.KQJ72.JT94 J72.K6.A9863.A73 K86.QT9832.T54.2",
     "86869868695757456574", "NS 120", "NS 1N+1", 1),
]  # fmt: skip


def test_solve_writes_what_bridge_composer_writes(tmp_path):
    """Without this, `--solve` writes par and tables in a layout no Bridge Composer user recognises."""
    src = tmp_path / "deals.pbn"
    src.write_text(
        "\n".join(
            f'[Board "{k + 1}"]\n[Dealer "N"]\n[Vulnerable "{v}"]\n[Deal "{d}"]\n'
            for k, (v, d, *_) in enumerate(BRIDGE_COMPOSER)
        ),
        encoding="latin-1",
    )
    out = tmp_path / "solved.pbn"
    assert _cli("convert", src, out, "--solve").exit_code == 0
    text = out.read_text(encoding="latin-1")
    games = text.split("\n\n")
    for game, (_, _, ddt, score, contract, width) in zip(games, BRIDGE_COMPOSER, strict=True):
        assert f'[DoubleDummyTricks "{ddt}"]\n[OptimumScore "{score}"]\n[ParContract "{contract}"]\n' in game
        assert f'[OptimumResultTable "Declarer;Denomination\\2R;Result\\{width}R"]\n' in game
        rows = game.split("Result\\")[1].splitlines()[1:]
        assert len(rows) == 20 and all(
            re.fullmatch(rf"[NSEW] [ NSHDC][TSHDC] {' ' * (width - 1)}?\d+", r) for r in rows
        )
        assert (rows[0][:4], rows[1][:4]) == ("N NT", "N  S")


# --------------------------------------------------------------------------
# Hypothesis: PBN as hands and programs write it


_TAGS = st.sampled_from(['[Event "E"]', '[Site "S"]', '[Annotator"N"]', '[Date "2025.01.01"]', '[Scoring "IMP"]'])


@st.composite
def _pbn_text(draw):
    games = []
    for b in range(draw(st.integers(1, 3))):
        tags = [f'[Board "{b + 1}"]', '[Dealer "N"]', '[Vulnerable "None"]', f'[Deal "{DEAL}"]']
        tags += draw(st.lists(_TAGS, max_size=3, unique=True))
        tags = draw(st.permutations(tags))
        lines: list[str] = []
        for tag in tags:
            if lines and draw(st.booleans()):
                lines[-1] += " " + tag  # several tags on one line
            else:
                lines.append(tag)
        if draw(st.booleans()):
            k = draw(st.integers(0, len(lines) - 1))
            lines[k] += draw(st.sampled_from([" ; a note", " {a comment}", " {♠ bid}"]))
        if draw(st.booleans()):
            calls = ["1S", "Pass", "2S", "Pass", "Pass", "Pass"]
            marks = [draw(st.sampled_from(["", "!", "?", "!!", "??", "!?", "?!", " !", " $1", " =1="])) for _ in calls]
            lines += [
                '[Contract "2S"]',
                '[Declarer "N"]',
                '[Auction "N"]',
                " ".join(c + m for c, m in zip(calls, marks, strict=True)),
            ]
            if any("=1=" in m for m in marks):
                lines.append('[Note "1:natural"]')
        if draw(st.booleans()):
            lines.insert(0, "{" + draw(st.sampled_from(["before", "two\nlines"])) + "}")
        games.append("\n".join(lines))
    eol = draw(st.sampled_from(["\n", "\r\n"]))
    junk = draw(st.sampled_from(["", "", "", "[Board 3]", '[Deal "N:AK"]', "{never closed", "1S Pass", '"']))
    return (("\n\n".join(games) + "\n" + junk).replace("\n", eol)).encode(draw(st.sampled_from(["utf-8", "utf-8-sig"])))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_pbn_text())
def test_random_pbn_round_trips_or_fails_with_format_error(data):
    """Without this, some PBN a program or a hand writes could be changed by a read and write, or crash the reader."""
    try:
        games = parse_games(data, name="random.pbn")
        boards = parse_pbn(data, name="random.pbn")
    except FormatError:
        return
    assert dump_games(games) == data
    assert len(boards) == len(games)
    assert [g.board for g in games] == [int(b.tags["Board"]) for b in boards]
