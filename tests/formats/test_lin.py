"""LIN hand records: round trips with DDS's reference hands, sessions, odd records, malformed records named."""

from __future__ import annotations

import contextlib
import re

import pytest
from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ddsbind.deal import Card, Deal, Seat, Strain
from ddsbind.errors import FieldWarning, FormatError
from ddsbind.formats import reading, registry
from ddsbind.formats.convert import DroppedDataWarning, convert
from ddsbind.formats.ddsref import read_reference
from ddsbind.formats.games import read_games, write_games
from ddsbind.formats.lin import format_lin, parse_lin
from ddsbind.game import Vulnerability
from ddsbind.record import GameRecord, contract_of_auction
from ddsbind.scoring import PASSED_OUT, Contract
from tests.support import reference_file

# A made-up deal, each hand one suit: S spades, W hearts, N diamonds, E clubs (LIN order S, W, N, E).
SUITED = "SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,CAKQJT98765432"


def _reference_games(count: int) -> list[GameRecord]:
    """Game records from DDS's list100.txt: deal, dealer, vulnerability, an auction to its contract, the PLAY line."""
    hands = read_reference(reference_file("list100.txt"))
    out = []
    for k, h in enumerate([h for h in hands if h.play][:count]):
        dealer = Seat(h.dealer)
        declarer = Seat((h.first + 3) % 4)
        strain = Strain(h.trump).symbol
        calls = ["Pass"] * ((declarer - dealer) % 4) + [f"{1 + k % 7}{strain}"] + ["Pass"] * 3
        plays = [Card.parse(h.play[i : i + 2]) for i in range(0, len(h.play), 2)]
        g = GameRecord(h.deal, dealer, h.vul, board=k + 1, auction=calls, auction_marks=[0] * len(calls))
        contract, g.declarer = contract_of_auction(dealer, calls)
        assert isinstance(contract, Contract)
        g.contract = contract
        g.play, g.play_marks = plays, [0] * len(plays)
        played = g.declarer_tricks_played()
        finished = sum(1 for t in g.tricks() if t.winner is not None)
        g.result = played + (13 - finished) // 2  # a claim within what is left (the whole play when 52 cards)
        out.append(g)
    return out


def _same(a: GameRecord, b: GameRecord) -> None:
    for name in ("deal", "dealer", "vulnerable", "board", "auction", "contract", "declarer", "result", "play"):
        assert getattr(a, name) == getattr(b, name), name


def test_reference_hands_round_trip_through_lin_and_pbn(tmp_path):
    """Without this, a LIN file converted to PBN and back would lose deals, auctions, plays or claims."""
    games = _reference_games(40)
    assert any(len(g.play) < 52 for g in games) and any(len(g.play) == 52 for g in games)
    lin = tmp_path / "games.lin"
    write_games(lin, games)
    back = read_games(lin)
    assert len(back) == len(games)
    for a, b in zip(games, back, strict=True):
        _same(a, b)
    pbn = tmp_path / "games.pbn"
    convert(lin, pbn)
    lin2 = tmp_path / "again.lin"
    convert(pbn, lin2)
    for a, b in zip(games, read_games(lin2), strict=True):
        _same(a, b)
    for a, b in zip(games, read_games(pbn), strict=True):
        _same(a, b)


def test_cli_convert_and_analyse_read_lin(tmp_path):
    """Without this, `ddsbind convert x.lin x.pbn` and `ddsbind analyse x.lin` would refuse BBO's files."""
    from ddsbind.cli import main

    games = _reference_games(3)
    lin = tmp_path / "games.lin"
    write_games(lin, games)
    runner = CliRunner()
    res = runner.invoke(main, ["convert", str(lin), str(tmp_path / "games.pbn")])
    assert res.exit_code == 0, res.output
    res = runner.invoke(main, ["analyse", str(lin), "--json"])
    assert res.exit_code == 0, res.output
    assert '"board": 1' in res.output and '"dd_result"' in res.output


def test_session_on_one_line_and_one_board_a_line():
    """Without this, a BBO session (several boards on one line, or one a line) would read as one board or fail."""
    one = (
        "pn|Ann,Bob,Cy,Di|st||md|3" + SUITED + "|rh||ah|Board 1|sv|o|mb|p|mb|p|mb|p|mb|p|pg||"
        "qx|o2|md|1" + SUITED + "|ah|Board 2|sv|n|mb|1S|mb|p|mb|p|mb|p|pg||pc|HA|pc|DA|mc|12|"
        "qx|o3|md|4" + SUITED + "|sv|b|"
    )
    games = parse_lin(one)
    assert [g.board for g in games] == [1, 2, 3]
    assert [g.dealer for g in games] == [Seat.N, Seat.S, Seat.E]
    assert [g.vulnerable for g in games] == [Vulnerability.NONE, Vulnerability.NS, Vulnerability.BOTH]
    assert str(games[1].contract) == "1S" and games[1].declarer == Seat.S and games[1].result == 12
    assert games[2].tags["South"] == "Ann"  # names hold until the next pn|
    lines = format_lin(games)
    assert lines.count("\n") == 3
    again = parse_lin(lines)
    for a, b in zip(games, again, strict=True):
        _same(a, b)
    per_line = "\n".join(f"md|{d}{SUITED}|sv|o|" for d in "1234") + "\n"
    assert [g.dealer for g in parse_lin(per_line)] == [Seat.S, Seat.W, Seat.N, Seat.E]


def test_odd_but_valid_records():
    """Without this, alerts, annotations, a missing fourth hand, passed-out boards or claims would be lost."""
    text = (
        "md|2SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|sv|e|ah|Board 7|"
        "mb|p|mb|1C!|an|strong, artificial|mb|d|an|takeout|mb|r|mb|p|mb|p|mb|p|"
        "pc|C2|pc|S2|pc|H2|pc|D2|mc|1|nt|well played|vg|x,y|"
    )
    (g,) = parse_lin(text)
    assert g.deal.hand(Seat.E) == [Card.parse(f"C{r}") for r in "AKQJT98765432"]
    assert g.dealer == Seat.W and g.board == 7 and g.vulnerable == Vulnerability.EW
    assert [str(c) for c in g.auction] == ["Pass", "1C", "X", "XX", "Pass", "Pass", "Pass"] and g.alerts == {1}
    assert g.auction_marks == [0] * 7  # LIN's '!' is an alert, not PBN's "good call"
    assert str(g.contract) == "1CXX" and g.declarer == Seat.N and g.result == 1
    assert g.notes == {1: "strong, artificial", 2: "takeout"} and g.call_notes == {1: [1], 2: [2]}
    assert g.commentary == ["well played"] and g.tags["LinTrailer"] == "vg|x,y|"  # a header after the last board
    (back,) = parse_lin(format_lin([g]))
    _same(g, back)
    assert (back.alerts, back.notes, back.call_notes) == (g.alerts, g.notes, g.call_notes)
    assert back.commentary == g.commentary and back.tags["LinTrailer"] == g.tags["LinTrailer"]
    (passed,) = parse_lin("md|3" + SUITED + "|sv|b|mb|p|mb|p|mb|p|mb|p|")
    assert passed.contract is PASSED_OUT and passed.declarer is None and passed.result is None
    # The hands given with "10" and without the fourth comma.
    (ten,) = parse_lin("md|1SAKQJ1098765432,HAKQJT98765432,DAKQJT98765432|")
    assert Card.parse("CT") in ten.deal.hand(Seat.E)


def test_lin_deals_convert_to_binary_and_back(tmp_path):
    """Without this, a deal database could not be written as LIN for BBO's handviewer (and read back)."""
    deals = [Deal.random(k) for k in range(5)]
    pbn = tmp_path / "d.pbn"
    pbn.write_text("".join(f'[Board "{k + 1}"]\n[Deal "{d.to_pbn()}"]\n\n' for k, d in enumerate(deals)))
    with pytest.warns(DroppedDataWarning, match="zbd cannot hold .*board numbers: dropped"):
        convert(pbn, tmp_path / "d.zbd")
    convert(tmp_path / "d.zbd", tmp_path / "d.lin")
    assert [g.deal for g in read_games(tmp_path / "d.lin")] == deals
    assert registry.get("lin").extensions == (".lin",)


@pytest.mark.parametrize(
    ("text", "board", "tag"),
    [
        ("md|5" + SUITED + "|", "record 1", "md|"),
        ("md|1SAKQ,HAKQ,DAKQ,CAKQ|", "record 1", "md|"),
        ("md|1SAA" + SUITED[3:] + "|", "record 1", "md|"),
        ("md|1" + SUITED + "|sv|x|", "record 1", "sv|"),
        ("md|1" + SUITED + "|ah|Board 4|mb|9S|", "Board 4", "mb|"),
        ("md|1" + SUITED + "|mb|d|", "record 1", "mb|"),
        ("md|1" + SUITED + "|mb|p|mb|p|mb|p|mb|d|", "record 1", "mb|"),  # three passes, still no bid
        ("md|1" + SUITED + "|mb|p|mb|r|", "record 1", "mb|"),
        ("md|1" + SUITED + "|mb|p|mb|p|mb|p|mb|p|mb|1S|", "record 1", "mb|"),
        ("md|1" + SUITED + "|an|why|", "record 1", "an|"),
        ("md|1" + SUITED + "|mb|1S|mb|p|mb|p|mb|p|pc|SA|", "record 1", "pc|"),  # S holds spades; W leads
        ("md|1" + SUITED + "|mb|1S|mb|p|mb|p|mb|p|pc|ZZ|", "record 1", "pc|"),
        ("md|1" + SUITED + "|pc|HA|", "record 1", "pc|"),
        ("md|1" + SUITED + "|mb|1S|mb|p|mb|p|mb|p|pc|HA|mc|14|", "record 1", "mc|"),
        ("md|1" + SUITED + "|mb|1S|mb|p|mb|p|mb|p|pc|HA|mc|3|pc|DA|", "record 1", "pc|"),
        ("md|1" + SUITED + "|mb|1S|mb|p|mb|p|mb|p|pc|HA|pc|DA|pc|CA|pc|SA|mc|0|", "record 1", "mc|"),
        ("md|1" + SUITED + "|\nmd|1" + SUITED + "|mb|p|mb|x|", "record 2", "mb|"),
        ("md|1" + SUITED + "|\nqx|o2|sv|o|", "record 2", "md|"),
    ],
)
def test_malformed_records_name_board_and_tag(text, board, tag):
    """Without this, a bad LIN board would be dropped or reported without saying which board and tag."""
    with reading(True), pytest.raises(FormatError) as info:  # strictly: every fault refuses, named
        parse_lin(text, name="x.lin")
    msg = str(info.value)
    assert board in msg and tag in msg and "x.lin" in msg
    if tag in ("sv|", "mc|"):  # leniently, a vulnerability or a claim is set aside and named
        with pytest.warns(FieldWarning, match=rf"\[{re.escape(tag)} .*\] set aside"):
            (rec,) = parse_lin(text, name="x.lin")
        assert f"{tag}" in rec.tags["LinOther"]  # kept as written


def test_a_bad_board_carries_its_location_as_fields_named_once(tmp_path):
    """Without this, a program must parse the message to learn which board and line of a LIN file is bad, and the
    message named the board twice ("record 2: x.lin: board 2 of the file ...")."""
    bad = tmp_path / "bad.lin"
    text = f"qx|o1|md|1{SUITED}|sv|o|mb|1S|\nqx|c7|md|1{SUITED}|sv|o|\nmb|1S|mb|p|\nmb|zz|mb|p|\n"
    bad.write_text(text)
    with reading(True), pytest.raises(FormatError) as info:
        parse_lin(bad.read_bytes(), name=str(bad))
    exc = info.value
    assert (exc.path, exc.record, exc.index, exc.board, exc.room, exc.line) == (str(bad), 2, 1, 7, "closed", 4)
    why = "'zz' is not a call (p, d, r, 1c .. 7n, optionally with '!')"
    assert str(exc) == f"{bad}: record 2 (Board 7, closed room), line 4: tag mb|zz|: {why}"
    assert exc.message == f"tag mb|zz|: {why}"  # the location only in the fields, rendered once
    with pytest.raises(FormatError) as info:  # text that is no pair: its line and record too
        parse_lin(f"md|1{SUITED}|\n\nmd|1{SUITED}|\nhello|x|", name="x.lin")
    assert (info.value.record, info.value.line) == (2, 4) and str(info.value).startswith("x.lin: record 2, line 4: ")


def test_not_a_tag_is_reported_with_its_offset():
    """Without this, text that is no LIN at all would read as nothing instead of failing."""
    with pytest.raises(FormatError, match="not a two-letter tag"):
        parse_lin("hello world|x|")
    with pytest.raises(FormatError, match="not a tag"):
        parse_lin("md|1" + SUITED + "|trailing")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("|mdsvahbpcnt1234SHDCAKQJT98,!\n o")), max_size=120))
def test_random_text_raises_only_format_error(text):
    """Without this, a damaged LIN file could crash the reader with an unexpected exception."""
    with contextlib.suppress(FormatError):
        parse_lin(text)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=80))
def test_random_bytes_raise_only_format_error(data):
    """Without this, arbitrary bytes named .lin could crash the reader, or be read as games LIN does not write back."""
    try:
        games = parse_lin(data)
    except FormatError:
        return
    assert parse_lin(format_lin(games)) == games  # what is accepted is what writing it again says


def test_writing_a_contract_the_auction_does_not_reach_is_refused():
    """Without this, a PBN game with a contract but no auction would convert to LIN and lose its contract."""
    (g,) = parse_lin("md|1" + SUITED + "|mb|1S|mb|p|mb|p|mb|p|")
    g.auction, g.auction_marks = [], []
    with pytest.raises(FormatError, match=r"^record 1: LIN takes .*gives none by nobody, not 1S by S$"):
        format_lin([g])
    g.auction, g.auction_marks, g.contract, g.declarer = [], [], None, None
    assert "md|1" in format_lin([g])


def test_vugraph_style_file_with_header_and_both_rooms():
    """Without this, a BBO vugraph file (header, eight names, open and closed rooms) would fail or mix names."""
    text = (
        "vg|Final,Segment 1,I,1,2,Home,0,Away,0|\n"
        "pn|sa,wa,na,ea,sb,wb,nb,eb|pg||\n"
        "qx|o1|st||md|3" + SUITED + "|rh||ah|Board 1|sv|o|mb|1N|mb|p|mb|p|mb|p|pg||"
        "pc|cA|pc|s2|pc|h2|pc|d2|pg||mc|0|\n"
        "qx|c1|st||md|3" + SUITED + "|rh||ah|Board 1|sv|o|mb|p|mb|p|mb|p|mb|p|pg||\n"
    )
    games = parse_lin(text)
    assert [g.tags["LinQx"] for g in games] == ["o1", "c1"]
    assert games[0].tags["South"] == "sa" and games[1].tags["South"] == "sb" and games[1].tags["East"] == "eb"
    assert str(games[0].contract) == "1NT" and games[0].declarer == Seat.N and games[0].result == 0
    assert games[0].tags["LinHeader"].startswith("vg|Final") and "LinHeader" not in games[1].tags
    assert games[1].contract is PASSED_OUT
    for a, b in zip(games, parse_lin(format_lin(games)), strict=True):
        _same(a, b)


_PIECES = [
    "md|1" + SUITED + "|",
    "md|3" + SUITED[:-5] + "|",
    *("mb|p|", "mb|1s|", "mb|d|", "mb|r|", "mb|1n!|", "an|why|"),
    *("pc|ca|", "pc|s2|", "pc|h2|", "pc|d2|", "pc|CK|", "mc|3|", "mc|13|"),
    *("qx|o1|", "pn|a,b|", "\n", "sv|b|", "ah|Board 2|", "pg||", "nt|hi|", "zz|q|", "|", "md|"),
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=25))
@example(["mc|3|", "mc|3|", "md|1SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,CAKQJT98765432|"])  # claims before md
def test_records_built_from_lin_pieces_round_trip_or_fail_cleanly(pieces):
    """Without this, a LIN record we accept could be written back as one that reads differently (or not at all)."""
    try:
        games = parse_lin("".join(pieces))
    except FormatError:
        return
    fields = ("deal", "dealer", "vulnerable", "auction", "alerts", "notes", "call_notes", "contract", "declarer")
    fields += ("result", "play", "board", "tags")
    back = parse_lin(format_lin(games))
    assert [[getattr(g, f) for f in fields] for g in back] == [[getattr(g, f) for f in fields] for g in games]
