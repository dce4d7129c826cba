"""Game records against hostile input: AP, Result vs play, the null record, BOMs, PBN -> PBN."""

from __future__ import annotations

import numpy as np
import pytest

from ddsbind.deal import Card, Deal, Seat
from ddsbind.errors import Error, FieldWarning, FormatError
from ddsbind.formats import decode_zrj, encode_zrj
from ddsbind.formats.convert import convert
from ddsbind.formats.files import count_records, iter_chunks, read_records
from ddsbind.formats.games import read_games
from ddsbind.formats.pbn import parse_pbn
from ddsbind.formats.pbngame import format_games, parse_games
from ddsbind.formats.zrjgame import game_to_zrj, zrj_bytes_to_games, zrj_to_game
from ddsbind.record import GameRecord

# list100's first hand (DDS's hands/list100.txt): trump S, North leads, so West declares.
DEAL0 = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"
# Trick 1: N CT, E C4, S CA, W CJ (South wins); trick 2 led by S: S H8, W H4, N HK, E H9 (North wins).
TWO_TRICKS = "CT C4 CA CJ\nHK H9 H8 H4\n*"


def _game(
    auction: str, *, contract: str = "2S", result: str = "8", play: str | None = TWO_TRICKS, declarer: str = "W"
) -> str:
    text = (
        f'[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{DEAL0}"]\n'
        f'[Declarer "{declarer}"]\n[Contract "{contract}"]\n[Result "{result}"]\n[Auction "N"]\n{auction}\n'
    )
    return text if play is None else text + f'[Play "N"]\n{play}\n'


def _zrj_round_trip(g: GameRecord) -> GameRecord:
    return zrj_to_game(decode_zrj(encode_zrj([game_to_zrj(g)]))[0])


# --------------------------------------------------------------------------
# AP: only the passes that end the auction


@pytest.mark.parametrize(
    ("auction", "contract", "calls"),
    [
        ("4H Pass AP", "4H", ["4H", "Pass", "Pass", "Pass"]),
        ("Pass Pass AP", "Pass", ["Pass"] * 4),
        ("Pass AP", "Pass", ["Pass"] * 4),
        ("AP", "Pass", ["Pass"] * 4),
        ("1S X AP", "1SX", ["1S", "X", "Pass", "Pass", "Pass"]),
        ("1S Pass 2S AP", "2S", ["1S", "Pass", "2S", "Pass", "Pass", "Pass"]),
        ("1S Pass Pass Pass AP", "1S", ["1S", "Pass", "Pass", "Pass"]),
    ],
)
def test_ap_appends_only_the_missing_passes(auction, contract, calls):
    """Without this, `4H Pass AP` read as four passes after 4H and `Pass Pass AP` as six: illegal auctions."""
    (g,) = parse_games(
        _game(auction, contract=contract, play=None, result="" if contract == "Pass" else "8", declarer="")
    )
    assert [str(c) for c in g.auction] == calls
    back = _zrj_round_trip(g)
    assert back.auction == g.auction
    assert back.contract == g.contract


def test_zrj_of_an_ap_auction_stores_the_legal_calls():
    """Without this, the ZRJ record written from `4H Pass AP` would store one pass too many."""
    (g,) = parse_games(_game("4H Pass AP", contract="4H", play=None, declarer=""))
    p = game_to_zrj(g)
    assert (p.initial_passes, len(p.calls)) == (0, 4)
    (g,) = parse_games(_game("Pass Pass AP", contract="Pass", result="", play=None, declarer=""))
    p = game_to_zrj(g)
    assert (p.initial_passes, len(p.calls)) == (3, 1)


def test_calls_after_the_auction_ended_are_refused():
    """Without this, a call after three closing passes would be stored as if the bidding went on."""
    with pytest.raises(FormatError, match=r"^record 1 \(Board 1\), line 8: .*call 5 \(5H, N\) comes after the"):
        parse_games(_game("4H Pass Pass Pass 5H", contract="4H", play=None, declarer=""), strict=True)
    g = GameRecord(deal=Deal.from_pbn(DEAL0), dealer=Seat.N, contract="Pass", auction=["Pass"] * 6)
    with pytest.raises(FormatError, match=r"game 3 of the file: auction call 5 \(Pass, N\) comes after"):
        game_to_zrj(g, index=2)


# --------------------------------------------------------------------------
# Result against the play


def _full_play(list100) -> tuple[object, GameRecord]:
    h = next(h for h in list100 if len(h.play) == 104)
    cards = [Card.parse(h.play[i : i + 2]) for i in range(0, len(h.play), 2)]
    rec = GameRecord(
        deal=h.deal, dealer=Seat.N, contract=f"1{['S', 'H', 'D', 'C', 'NT'][h.trump]}", declarer=Seat(h.first).next(3)
    )
    rec.play = cards
    return h, rec


def test_result_contradicting_a_complete_play_is_refused(list100):
    """Without this, `[Result "13"]` after a play in which declarer won 6 tricks was copied into ZRJ."""
    _, rec = _full_play(list100)
    won = rec.declarer_tricks_played()
    rec.result = won
    (ok,) = parse_games(format_games([rec]))
    assert ok.result == won
    wrong = 13 if won != 13 else 12
    rec.result = wrong
    text = format_games([GameRecord(deal=rec.deal, dealer=Seat.N, board=1), rec])
    with pytest.raises(FormatError, match=rf"^record 2, line \d+: .*Result {wrong} contradicts the play: .* won {won}"):
        parse_games(text, strict=True)
    with pytest.warns(
        FieldWarning, match=rf"record 2, line \d+: \[Result \"{wrong}\"\] set aside: Result {wrong} contradicts"
    ):
        kept = parse_games(text)[1]
    kept.source = None  # written anew from the record: the Result as the file wrote it
    assert kept.result is None and format_games([kept]) == format_games([rec])
    with pytest.raises(FormatError, match=rf"game 5 of the file\)?: Result {wrong} contradicts the play"):
        game_to_zrj(rec, index=4)
    rec.result = won
    p = game_to_zrj(rec)
    p.tricks = wrong  # a ZRJ record whose trick count the play contradicts
    with pytest.raises(FormatError, match=rf"record 8: ZRJ: Result {wrong} contradicts the play"):
        zrj_to_game(p, index=7)


def test_result_after_a_claim_lies_between_tricks_won_and_tricks_left():
    """Without this, a claimed play could carry a result declarer had already lost or could no longer reach."""
    # Two tricks played, North (defence, declarer W) won both: declarer's side took 0, 11 tricks remain.
    for result in ("0", "11"):
        (g,) = parse_games(_game("Pass Pass Pass 1S\nPass 2S AP", result=result))
        assert g.result == int(result)
    with pytest.raises(FormatError, match=r"^record 1 \(Board 1\), line 7: .*Result 12 contradicts .* is 0\.\.11"):
        parse_games(_game("Pass Pass Pass 1S\nPass 2S AP", result="12"), strict=True)
    # One trick played, won by South (defence): a trick in progress counts as not played.
    (g,) = parse_games(_game("Pass Pass Pass 1S\nPass 2S AP", result="12", play="CT C4 CA CJ\n- - H8 -\n*"))
    assert g.result == 12


# --------------------------------------------------------------------------
# The null record


@pytest.fixture()
def zrj_with_null(tmp_path):
    games = parse_games(_game("Pass Pass Pass 1S\nPass 2S AP"))
    data = encode_zrj([game_to_zrj(games[0])] * 3).tobytes()
    junk = bytes(range(80))  # no deal at all: read, it would fail
    path = tmp_path / "games.zrj"
    path.write_bytes(data + bytes(80) + junk)
    return path


def test_every_zrj_reader_stops_at_the_null_record(zrj_with_null, tmp_path):
    """Without this, analyse and convert-to-PBN failed on the 80 zero bytes while convert-to-ZBD stopped there."""
    data = zrj_with_null.read_bytes()
    assert len(decode_zrj(data)) == 3
    assert len(zrj_bytes_to_games(data)) == 3
    assert len(read_games(zrj_with_null)) == 3
    assert count_records(zrj_with_null) == 3
    assert sum(len(c) for c in iter_chunks(zrj_with_null, chunk=2)) == 3
    assert len(read_records(zrj_with_null)) == 3
    assert convert(zrj_with_null, tmp_path / "out.pbn") == 3
    assert len(read_games(tmp_path / "out.pbn")) == 3
    assert convert(zrj_with_null, tmp_path / "out.zbd") == 3
    assert (tmp_path / "out.zbd").stat().st_size == 3 * 13


# --------------------------------------------------------------------------
# Game records in, game records out


def test_convert_pbn_game_records_to_pbn_keeps_everything(tmp_path):
    """Without this, `convert games.pbn out.pbn` kept only Board/Dealer/Vulnerable/Deal."""
    src = tmp_path / "games.pbn"
    extra = '[Event "Club night"]\n[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]\nN NT 4\nS S 5\n'
    src.write_text(extra + _game("Pass Pass Pass 1S\nPass 2S AP"), encoding="latin-1")
    assert convert(src, tmp_path / "out.pbn") == 1
    (a,), (b,) = read_games(src), read_games(tmp_path / "out.pbn")
    assert (b.contract, b.declarer, b.result, b.auction, b.play) == (
        a.contract,
        a.declarer,
        a.result,
        a.auction,
        a.play,
    )
    assert (str(b.contract), b.declarer, b.result, len(b.auction), len(b.play)) == ("2S", Seat.W, 8, 9, 8)
    assert b.tags["Event"] == "Club night"
    (board,) = parse_pbn((tmp_path / "out.pbn").read_bytes())
    assert board.table is not None and (board.table[4, 0], board.table[0, 2]) == (4, 5)


def test_tag_values_survive_repeated_conversion(tmp_path):
    """Without this, every PBN -> PBN pass doubled the backslashes of a tag (`\\2R` in a table header)."""
    src = tmp_path / "0.pbn"
    header = '[Event "say \\"hi\\" \\\\ bye"]\n[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]\nN NT 4\n'
    src.write_text(header + _game("Pass Pass Pass 1S\nPass 2S AP"), encoding="latin-1")
    for k in range(1, 4):
        assert convert(tmp_path / f"{k - 1}.pbn", tmp_path / f"{k}.pbn") == 1
        (g,) = read_games(tmp_path / f"{k}.pbn")
        assert g.tags["Event"] == 'say "hi" \\ bye'
        assert g.tags["OptimumResultTable"] == "Declarer;Denomination\\2R;Result\\2R"
    assert (tmp_path / "3.pbn").read_text(encoding="latin-1").count("\\2R") == 2


def test_convert_pbn_deals_to_pbn_still_goes_deal_by_deal(tmp_path):
    """Without this, a PBN file of bare (even partial) deals would be refused as game records."""
    src = tmp_path / "deals.pbn"
    src.write_text('[Deal "N:A... K... Q... J..."]\n\n[Deal "' + DEAL0 + '"]\n', encoding="latin-1")
    assert convert(src, tmp_path / "out.pbn") == 2


def test_solving_game_records_keeps_the_play_or_is_refused(tmp_path):
    """Without this, `convert --solve games.pbn out` would drop either the play or the request to solve."""
    src = tmp_path / "games.pbn"
    src.write_text(_game("Pass Pass Pass 1S\nPass 2S AP"), encoding="latin-1")
    seven = lambda owners, tables: np.full((len(owners), 5, 4), 7, np.uint8)  # noqa: E731
    assert convert(src, tmp_path / "out.pbn", fill=seven) == 1
    out = (tmp_path / "out.pbn").read_text(encoding="latin-1")
    without = "\n".join(line for line in out.split("\n") if not line.startswith("[DoubleDummyTricks "))
    assert without.startswith(src.read_text(encoding="latin-1").rstrip("\n"))  # the game as it was, play included
    assert out.index("[DoubleDummyTricks ") < out.index("[Auction ")  # where Bridge Composer puts it
    assert '[DoubleDummyTricks "77777777777777777777"]' in out
    assert read_games(tmp_path / "out.pbn")[0].play == read_games(src)[0].play
    with pytest.raises(FormatError, match="game records, and zrj files cannot hold double-dummy results"):
        convert(src, tmp_path / "out.zrj", fill=seven)
    assert not (tmp_path / "out.zrj").exists()


# --------------------------------------------------------------------------
# Smaller: byte-order mark, truncated and junk record files


def test_pbn_with_a_utf8_byte_order_mark_is_read(tmp_path):
    """Without this, a PBN file saved by an editor that writes a BOM was refused."""
    text = '[Event "Café Zürich ♠"]\n' + _game("Pass Pass Pass 1S\nPass 2S AP")
    path = tmp_path / "bom.pbn"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    (board,) = parse_pbn(path.read_bytes())
    assert board.tags["Event"] == "Café Zürich ♠"
    (g,) = read_games(path)
    assert (g.tags["Event"], str(g.contract)) == ("Café Zürich ♠", "2S")
    assert convert(path, tmp_path / "out.pbn") == 1
    (back,) = read_games(tmp_path / "out.pbn")
    assert back.tags["Event"] == "Café Zürich ♠"


def test_count_records_refuses_truncated_and_junk_files(tmp_path):
    """Without this, info on a truncated or junk .zbd/.zrj printed a count and exited 0."""
    from ddsbind.formats import encode_zbd

    deals = np.stack([Deal.from_pbn(DEAL0).owners()] * 3)
    good = encode_zbd(deals).tobytes()
    path = tmp_path / "cut.zbd"
    path.write_bytes(good + good[:5])
    with pytest.raises(FormatError, match=r"cut\.zbd: record 4, byte offset 39: truncated") as info:
        count_records(path)
    assert (info.value.index, info.value.offset) == (3, 39)
    assert count_records(path, check=False) == 3
    with pytest.raises(FormatError, match=r"cut\.zbd: record 4, byte offset 39: truncated"):
        list(iter_chunks(path))
    junk = tmp_path / "junk.zrj"
    junk.write_bytes(bytes(range(1, 161)))
    with pytest.raises(FormatError, match=r"junk\.zrj: record 1, byte offset 0:") as info:
        count_records(junk)
    assert isinstance(info.value, Error)
