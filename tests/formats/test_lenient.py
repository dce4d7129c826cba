"""Hand-record files read leniently (issue 46): what is wrong kept as written, named once, refused when strict."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from click.testing import CliRunner

import ddsbind
from ddsbind.cli import main
from ddsbind.deal import Deal, Seat, Vulnerability
from ddsbind.errors import FieldWarning, FormatError
from ddsbind.formats import pbn, registry
from ddsbind.formats.dataframe import TABLE_COLUMNS
from ddsbind.formats.pbngame import format_games, parse_games
from tests.support import REPO, reference_file

DEAL = "N:AKQ2.K43.J54.QT9 J543.AQ2.876.J32 T876.JT9.AKQ.AK8 9.8765.T932.7654"


def _game(board: str, result: str, *, declarer: str = "N", extra: str = "") -> str:
    return (
        f'[Board "{board}"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{DEAL}"]\n{extra}'
        f'[Declarer "{declarer}"]\n[Contract "3NT"]\n[Result "{result}"]\n[Auction "N"]\n1NT Pass 3NT AP\n'
    )


#: Each garbage or contradicting field seen in real files, with the tag and the words its warning gives.
GARBAGE = {
    "BBA's result": (_game("1", "-9752"), "Result", "not 0..13 tricks"),
    "a Declarer the auction contradicts": (_game("2", "9", declarer="E"), "Declarer", "auction's declarer is N"),
    "a board number too large (issue 47)": (_game("99999999999999999999", "9"), "Board", "not a board number"),
    "an auction note written as words": (
        _game("4", "9").replace("1NT Pass 3NT AP", "1NT Pass 2C or 2D"),
        "Auction",
        "auction token 3 'or' is not a call",
    ),
}


@pytest.mark.parametrize("name", GARBAGE)
def test_a_garbage_field_is_kept_named_once_and_refused_when_strict(name):
    """Without this, one garbage value refused a whole file (or was dropped, or rewritten, without a word)."""
    text, tag, why = GARBAGE[name]
    with pytest.warns(FieldWarning) as caught:
        (rec,) = parse_games(text)
    (w,) = [x.message for x in caught if isinstance(x.message, FieldWarning)]
    assert isinstance(w, FieldWarning) and w.tag == tag and why in str(w)
    board = text.split('"')[1]
    assert w.board == board and (tag == "Board" or f"(Board {board}), line " in str(w))
    with pytest.raises(FormatError, match=rf"\[{tag} .*refused \(strict reading\)"):
        parse_games(text, strict=True)
    rec.source = None  # written anew from the record: the field as the file wrote it
    again = format_games([rec])
    assert f'[{tag} "{w.value}"]' in again
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        (back,) = parse_games(again)
    assert back.unread == rec.unread and back.contract == rec.contract and back.declarer == rec.declarer


def test_unknown_and_inherited_values_read_without_refusing_the_file():
    """Without this, `[Result "?"]` or a `#` with nothing to repeat refused every game of the file."""
    text = _game("1", "?") + "\n" + _game("2", "9", extra='[Scoring "#"]\n')
    with pytest.warns(FieldWarning, match=r'record 2 \(Board 2\), line 15: \[Scoring "#"\] set aside: the game before'):
        first, second = parse_games(text, name="x.pbn")
    assert first.result is None and second.result == 9 and second.tags["Scoring"] == "#"
    assert format_games([first, second]) == text
    first.source = None
    assert '[Result "?"]' in format_games([first])
    with pytest.raises(FormatError, match=r"x\.pbn: record 2 \(Board 2\), line 15: \[Scoring \"#\"\] refused"):
        parse_games(text, name="x.pbn", strict=True)


def test_wbridge5_unquoted_event_reads():
    """Without this, all 379 games of a WBridge5 file were refused for its `[Event Random Deal #]` line."""
    text = '[Event Random Deal #]\n[Site "WBridge5"]\n' + _game("1", "9")
    (rec,) = parse_games(text)
    assert rec.tags["Event"] == "Random Deal #" and rec.result == 9 and format_games([rec]) == text


def test_windows_1252_bytes_in_an_iso_8859_1_file_read_and_write_back_byte_for_byte():
    """Without this, a Windows program's euro sign (byte 0x80) refused the file as 'not PBN text'."""
    data = b"%Content-type: text/x-pbn; charset=ISO-8859-1\n" + b'[Event "Caf\xe9 \x80 \x93quoted\x94"]\n'
    data += _game("1", "9").encode("ascii")
    assert pbn.pbn_encoding(data) == "cp1252" and pbn.pbn_encoding(data[48:]) == "cp1252"
    (rec,) = parse_games(data)
    assert rec.tags["Event"] == "Caf\xe9 \u20ac \u201cquoted\u201d"
    assert pbn.encode_pbn(format_games([rec]), rec.source.encoding) == data  # type: ignore[attr-defined]
    (board,) = pbn.parse_pbn(data)
    assert board.tags["Event"] == rec.tags["Event"]
    with pytest.raises(FormatError, match=r"byte 0x81 is not PBN text"):  # undefined in Windows-1252 too
        parse_games(data.replace(b"\x80", b"\x81"))


@pytest.mark.slow
def test_read_dataframe_of_a_hand_record_has_its_tags_and_solves_every_row():
    """Without this, a deals-only hand record gave twenty empty DD columns and lost board, dealer and vulnerability."""
    df = ddsbind.read_dataframe(REPO / "examples" / "data" / "boards.pbn", solve=True)
    assert list(df["board"]) == [1, 2, 3, 4] and list(df["dealer"]) == ["N", "E", "S", "W"]
    assert list(df["vulnerability"]) == ["None", "NS", "EW", "All"] and set(df["Event"]) == {"ddsbind example"}
    for _, row in df.iterrows():
        deal = Deal.from_pbn(row["deal"])
        table = np.asarray(ddsbind.dd_table(deal))
        assert row[list(TABLE_COLUMNS)].to_numpy(dtype=int).reshape(5, 4).tolist() == table.tolist()
        par = ddsbind.dealer_par(table, Seat.parse(row["dealer"]), Vulnerability.parse(row["vulnerability"]))
        assert row["par"] == par.score and row["par_contracts"] == par.words()
    unsolved = ddsbind.formats.read_dataframe(REPO / "examples" / "data" / "boards.pbn")
    assert list(unsolved["board"]) == [1, 2, 3, 4] and unsolved["NT_N"].isna().all()


def test_read_dataframe_of_a_file_without_deals_is_one_error(tmp_path):
    """Without this, a file of no deal gave an empty frame, and a huge board number a raw OverflowError."""
    empty = tmp_path / "none.pbn"
    empty.write_text('[Event "nothing"]\n')
    for read in (ddsbind.read_dataframe, ddsbind.formats.read_dataframe):
        with pytest.raises(FormatError, match=r"none\.pbn: no deal in the file"):
            read(empty)
    big = tmp_path / "big.pbn"
    big.write_text(_game("99999999999999999999", "9"))
    with pytest.warns(FieldWarning, match=r"\[Board \"99999999999999999999\"\] set aside"):
        df = ddsbind.formats.read_dataframe(big)
    assert df["board"].isna().all() and df["result"].tolist() == [9]


def test_strict_on_the_command_line_refuses_what_is_otherwise_named(tmp_path):
    """Without this, a user could not ask for a file with a garbage field to be refused rather than read."""
    path = tmp_path / "bba.pbn"
    path.write_text(_game("7", "-9752"))
    lenient = CliRunner().invoke(main, ["analyse", str(path)])
    said = 'bba.pbn: record 1 (Board 7), line 7: [Result "-9752"]'
    assert lenient.exit_code == 0 and f"{said} set aside: not 0..13 tricks" in lenient.output
    assert "3NT by N, result unknown, double dummy 10 tricks" in lenient.output
    strict = CliRunner().invoke(main, ["--strict", "analyse", str(path)])
    assert strict.exit_code == 1 and f"{said} refused (strict reading)" in strict.output
    assert len(strict.output.strip().splitlines()) == 1


@pytest.mark.slow
def test_solve_leaves_right_par_tags_as_the_file_spelled_them(tmp_path):
    """Without this, `convert --solve` rewrote right par tags (`NS +90` to `NS 90`): 299 changed lines, none wrong."""
    solved = tmp_path / "solved.pbn"
    assert CliRunner().invoke(main, ["convert", str(REPO / "examples" / "data" / "boards.pbn"), str(solved), "--solve"])
    text = solved.read_text()
    assert '[OptimumScore "EW -100"]' in text and '[ParContract "EW 4SX-1"]' in text
    # The same values in other writers' spellings: the other side's view, a '+', 'NT', '*'.
    respelled = text.replace('"EW -100"', '"NS 100"').replace('"EW 1440"', '"EW +1440"')
    respelled = respelled.replace('"EW 6N="', '"EW 6NT="').replace('"EW 4SX-1"', '"EW 4S*-1"')
    mine = tmp_path / "mine.pbn"
    mine.write_bytes(respelled.encode("latin-1"))
    again = tmp_path / "again.pbn"
    r = CliRunner().invoke(main, ["convert", str(mine), str(again), "--solve"])
    assert r.exit_code == 0 and "warning" not in r.output and again.read_bytes() == mine.read_bytes()
    # A wrong one is replaced in Bridge Composer's spelling, and named.
    mine.write_bytes(respelled.replace('"NS 100"', '"NS 200"').encode("latin-1"))
    again.unlink()
    r = CliRunner().invoke(main, ["convert", str(mine), str(again), "--solve"])
    named = "Board 2: [OptimumScore 'NS 200'] is not the par of its double-dummy table, 'EW -100' written"
    assert r.exit_code == 0 and named in r.output
    assert again.read_text() == respelled.replace('"NS 100"', '"EW -100"')


def test_every_command_gives_one_answer_for_a_missing_file(tmp_path):
    """Without this, a missing file got click's four-line usage error (status 2), `[Errno 2] ...` or a one-liner."""
    missing = str(tmp_path / "nope.pbn")
    for args in (["analyse", missing], ["convert", missing, str(tmp_path / "x.zrd")], ["checksum", missing]):
        r = CliRunner().invoke(main, args)
        assert r.exit_code == 1 and r.output.startswith(f"ddsbind: error: {missing}: "), args
        assert r.output.count("\n") == 1 and "no such file" in r.output.lower(), args


def test_the_format_is_read_from_the_content_when_the_name_does_not_tell(tmp_path):
    """Without this, a LIN file named .txt was refused with a Python tuple of format names, its `vg|` unread."""
    lin = tmp_path / "session.txt"
    lin.write_bytes((REPO / "examples" / "data" / "session.lin").read_bytes())
    pbn_file = tmp_path / "deals.txt"
    pbn_file.write_bytes((REPO / "examples" / "data" / "boards.pbn").read_bytes())
    assert ddsbind.formats.registry.guess(lin).name == "lin" and ddsbind.formats.registry.guess(pbn_file).name == "pbn"
    r = CliRunner().invoke(main, ["convert", str(pbn_file), str(tmp_path / "out.zrd")])
    assert r.exit_code == 0 and (tmp_path / "out.zrd").stat().st_size == 4 * 23
    words = tmp_path / "words.txt"
    words.write_text("not a hand record\n")
    r = CliRunner().invoke(main, ["convert", str(words), str(tmp_path / "w.zrd")])
    assert r.exit_code == 1 and "name it with --from" in r.output and "pbn, gib, dds or lin" in r.output
    assert "(" not in r.output.split("--from")[1].split(":")[1]  # the formats in words, not a Python tuple


TWO_HANDS = (
    '[Event "Bidding practice"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
    '[Deal "W:- K43.AQJ54.63.T95 - A5.KT83.K752.843"]\n\n'
    f'[Event "Bidding practice"]\n[Board "2"]\n[Dealer "E"]\n[Vulnerable "NS"]\n[Deal "{DEAL}"]\n'
)


def test_a_deal_with_unknown_hands_is_kept_and_only_its_solving_refused(tmp_path):
    """Without this, a bidding-practice file showing two hands was refused whole as "DDS code -14"."""
    first, second = pbn.parse_pbn(TWO_HANDS)
    assert not first.deal.is_full and first.deal.hand_lengths == (13, 0, 13, 0) and second.deal.is_full
    assert first.deal.to_pbn(Seat.W).split()[1:] == ["K43.AQJ54.63.T95", "...", "A5.KT83.K752.843"]
    src, out = tmp_path / "practice.pbn", tmp_path / "solved.pbn"
    src.write_text(TWO_HANDS)
    r = CliRunner().invoke(main, ["convert", str(src), str(out), "--solve"])
    assert r.exit_code == 0 and "1 deals solved" in r.output
    assert r.output.count('Board 1, line 5: [Deal "W:- K43.AQJ54.63.T95 - A5.KT83.K752.843"] set aside') == 1
    solved = out.read_text()
    assert solved.startswith(TWO_HANDS.split("\n\n")[0] + "\n\n")  # board 1 as written, nothing added
    board2 = pbn.parse_pbn(solved)[1]
    assert board2.table is not None and board2.tags["ParContract"] == "NS 3N+1"
    np.testing.assert_array_equal(board2.table, np.asarray(ddsbind.dd_table(Deal.from_pbn(DEAL))))
    r = CliRunner().invoke(main, ["--strict", "convert", str(src), str(tmp_path / "strict.pbn"), "--solve"])
    assert r.exit_code == 1 and "refused (strict reading)" in r.output and not (tmp_path / "strict.pbn").exists()


@pytest.mark.slow
def test_dds_reference_text_to_pbn_keeps_each_deals_dealer_vulnerability_and_par(tmp_path):
    """Without this, DDS's reference hands converted to PBN got the board cycle's dealer and vulnerability
    (20 of 21 hands changed, silently), and `--solve` wrote no OptimumScore/ParContract though the source gives both."""
    from ddsbind.formats.ddsref import read_reference
    from ddsbind.formats.pbn import format_par

    src = reference_file("list10.txt")
    hands = read_reference(src)
    out = tmp_path / "ref.pbn"
    r = CliRunner().invoke(main, ["convert", "--from", "dds", str(src), str(out), "--solve"])
    assert r.exit_code == 0, r.output
    boards = pbn.parse_pbn(out.read_bytes())
    assert len(boards) == len(hands) == 10
    cycle_differs = 0
    for k, (hand, board) in enumerate(zip(hands, boards, strict=True)):
        assert board.tags["Dealer"] == "NESW"[hand.dealer]
        assert board.tags["Vulnerable"] == Vulnerability(hand.vul).pbn
        cycle_differs += ddsbind.Seat.dealer_of_board(k + 1) != hand.dealer
        assert hand.dealer_par is not None and hand.table is not None
        score, contract = format_par(int(hand.dealer_par[0]), list(hand.dealer_par[1:]))
        assert (board.tags["OptimumScore"], board.tags["ParContract"]) == (score, contract)
        np.testing.assert_array_equal(board.table, hand.table)
        assert board.deal == hand.deal
    assert cycle_differs  # the file's own dealers, not the board cycle's


def test_strict_keyword_of_the_readers(tmp_path):
    """Without this, a library user could not ask read_games or read_dataframe to refuse a garbage field."""
    path = tmp_path / "bba.pbn"
    path.write_text(_game("7", "-9752"))
    with pytest.warns(FieldWarning, match=r'bba.pbn: record 1 \(Board 7\), line 7: \[Result "-9752"\] set aside'):
        (rec,) = ddsbind.formats.read_games(path)
    assert rec.result is None and rec.contract is not None
    for read in (ddsbind.formats.read_games, ddsbind.formats.read_dataframe):
        with pytest.raises(FormatError, match=r'\[Result "-9752"\] refused \(strict reading\)'):
            read(path, strict=True)
    with pytest.raises(FormatError, match=r"refused \(strict reading\)"):
        list(ddsbind.formats.read_dataframe(path, chunksize=1, strict=True))


# --------------------------------------------------------------------------
# GIB text and DDS's reference text: a bad line set aside, the rest read


def _caught(read):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = read()
    return out, [w.message for w in caught if isinstance(w.message, FieldWarning)]


def test_gib_sets_aside_a_bad_line_and_reads_the_rest():
    """Without this, one bad line in the middle of a GIB file refused every deal in it."""
    from ddsbind.formats.gib import format_gib_line, parse_gib

    deals = [Deal.random(k) for k in range(3)]
    tables = [(np.arange(20).reshape(5, 4) + k) % 14 for k in range(3)]
    good = [format_gib_line(d, t) for d, t in zip(deals, tables, strict=True)]
    text = "\n".join([good[0], "W:garbage:0123", good[1], good[2][:-1] + "z", good[2]]) + "\n"
    (owners, got), named = _caught(lambda: parse_gib(text.encode(), name="x.gib"))
    assert (owners == np.stack([d.owners() for d in deals])).all()  # lines 1, 3 and 5, in order
    assert (got == np.stack(tables)).all()
    assert [(w.tag, w.value[:9], w.source) for w in named] == [
        ("line 2", "W:garbage", "x.gib"),
        ("line 4", good[2][:9], "x.gib"),
    ]
    assert "not 'W N E S hands:20 hex digits'" in named[0].why and "non-hex" in named[1].why
    with pytest.raises(FormatError, match=r"x.gib: line 2: GIB line"), ddsbind.formats.reading(True):
        parse_gib(text.encode(), name="x.gib")
    with pytest.raises(FormatError, match=r"x.gib: line 1: GIB line"):  # nothing in it reads: refused
        parse_gib(b"W:garbage:0123\nmore garbage\n", name="x.gib")
    records, named = _caught(lambda: registry.get("gib").load(text.encode(), "x.gib"))  # the format's loader
    assert len(records) == 3 and len(named) == 2


def test_dds_reference_text_sets_aside_a_bad_line_and_reads_the_rest():
    """Without this, one bad line of DDS's reference text refused every hand in it."""
    from ddsbind.formats.ddsref import parse_reference

    deals = [Deal.random(k).to_pbn("N") for k in range(3)]
    table = " ".join(str(v % 14) for v in range(20))
    lines = [
        "NUMBER 3",
        f'PBN 0 0 4 0 "{deals[0]}"',
        f"TABLE {table}",
        f'PBN 0 9 4 0 "{deals[1]}"',  # vulnerability 9: the hand set aside, its TABLE with it
        f"TABLE {table}",
        f'PBN 1 2 4 0 "{deals[2]}"',
        "TABLE 1 2 3",  # the table set aside, the hand kept
        'PAR2 "NS 90" "1N-N"',
    ]
    text = "\n".join(lines) + "\n"
    hands, named = _caught(lambda: parse_reference(text.encode(), name="ref.txt"))
    assert [h.pbn for h in hands] == [deals[0], deals[2]]
    assert (hands[0].table == np.arange(20).reshape(5, 4) % 14).all() and hands[1].table is None
    assert (hands[1].dealer, hands[1].vul, hands[1].dealer_par) == (1, 2, ("NS 90", "1N-N"))
    assert [(w.tag, w.value, w.game) for w in named] == [("line 4", lines[3], 2), ("line 7", lines[6], 3)]
    assert "vul 9 is not in 0..3" in named[0].why and "20 numbers" in named[1].why
    with pytest.raises(FormatError, match=r"ref.txt: line 4: PBN vul 9"), ddsbind.formats.reading(True):
        parse_reference(text.encode(), name="ref.txt")
    with pytest.raises(FormatError, match=r"ref.txt: line 1: PBN needs"):  # nothing in it reads: refused
        parse_reference(b"PBN 0 0\nTABLE 1\n", name="ref.txt")
    _, named = _caught(lambda: parse_reference(text.replace("NUMBER 3", "NUMBER 5").encode(), name="ref.txt"))
    assert [(w.tag, w.value) for w in named][-1] == ("NUMBER", "5")  # a wrong count named, the hands kept
    records, _ = _caught(lambda: registry.get("dds").load(text.encode(), "ref.txt"))  # the format's loader
    assert len(records) == 2 and (records.tables[1] == 15).all() and list(records.dealers) == [0, 1]


def test_pbn_deals_set_aside_a_bad_deal_and_read_the_rest():
    """Without this, one garbage Deal in the middle of a PBN hand record refused every board of it."""
    other = Deal.random(7).to_pbn("N")
    text = (
        f'[Board "1"]\n[Deal "{DEAL}"]\n\n[Board "2"]\n[Deal "N:garbage"]\n\n'
        f'[Board "3"]\n[Deal "{other}"]\n[Dealer "E"]\n'
    )
    boards, named = _caught(lambda: pbn.parse_pbn(text, name="x.pbn"))
    assert [(b.tags["Board"], b.deal.to_pbn("N")) for b in boards] == [("1", DEAL), ("3", other)]
    assert [(w.board, w.tag, w.value, w.source) for w in named] == [("2", "Deal", "N:garbage", "x.pbn")]
    assert named[0].why.startswith("bad Deal") and (named[0].game, named[0].line) == (2, 5)
    records, named = _caught(lambda: registry.get("pbn").load(text.encode(), "x.pbn"))  # the format's loader
    assert len(records) == 2 and len(named) == 1
    with pytest.raises(FormatError, match=r"x.pbn: record 2 \(Board 2\), line 5: bad"), ddsbind.formats.reading(True):
        pbn.parse_pbn(text, name="x.pbn")
    with pytest.raises(FormatError, match=r"x.pbn: record 1 \(Board 1\), line 2: bad Deal"):  # none reads: refused
        pbn.parse_pbn('[Board "1"]\n[Deal "N:garbage"]\n', name="x.pbn")
