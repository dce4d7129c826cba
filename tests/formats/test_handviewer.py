"""BBO handviewer addresses: each reads as the LIN it encodes; what needs the network is refused in one line."""

from __future__ import annotations

import warnings
from pathlib import Path
from urllib.parse import quote

import pytest

from ddsbind.deal import Card, Seat, Strain
from ddsbind.errors import DroppedDataWarning, FormatError
from ddsbind.formats.handviewer import handviewer_lin, is_handviewer, parse_handviewer
from ddsbind.formats.lin import format_lin, parse_lin
from ddsbind.game import Vulnerability

DATA = Path(__file__).resolve().parents[1] / "data" / "records"
VIEWER = "https://www.bridgebase.com/tools/handviewer.html"

# A made-up board written twice by hand: as a handviewer address (suits in any order, any case, "10" for the
# ten, West's hand left out) and as the LIN that says the same (names S, W, N, E; dealer digit 4 = East).
ADDRESS = (
    VIEWER + "?n=s9h109dakq32cakq54&s=sKJ4H8762DJ10C9876&e=sAQ107hAKQJ3d765c3"
    "&d=e&v=b&b=7&nn=Nadia%20N&sn=Sam%20S&en=Eve&wn=Walt"
    "&a=1h!(five%20hearts)2cp2d{a%20pause}pp3hppp"
    "&p=c9c10cac3"
)
LIN = (
    "pn|Sam S,Walt,Nadia N,Eve|md|4SKJ4H8762DJTC9876,,S9HT9DAKQ32CAKQ54,SAQT7HAKQJ3D765C3|sv|b|ah|Board 7|"
    "mb|1h!|an|five hearts|mb|2c|mb|p|mb|2d|nt|a pause|mb|p|mb|p|mb|3h|mb|p|mb|p|mb|p|"
    "pc|C9|pc|CT|pc|CA|pc|C3|"
)


def test_parameters_read_as_the_lin_they_encode() -> None:
    """Without this, a board pasted from BBO's handviewer would analyse as another deal, auction or play."""
    rec = parse_handviewer(ADDRESS)
    assert rec == parse_lin(LIN)[0]
    assert rec.dealer is Seat.E and rec.vulnerable is Vulnerability.BOTH and rec.board == 7
    assert rec.contract is not None and rec.contract.strain is Strain.H and rec.declarer is Seat.E
    assert rec.alerts == {0} and rec.notes and list(rec.notes.values()) == ["five hearts"]
    assert rec.commentary == ["a pause"] and rec.commentary_at == [4]
    assert rec.play[:2] == [Card.parse("C9"), Card.parse("CT")]
    assert rec.tags["North"] == "Nadia N" and rec.tags["South"] == "Sam S"


def test_bare_query_and_full_address_agree() -> None:
    """Without this, a player pasting only the part after '?' would get another board, or none."""
    query = ADDRESS.split("?", 1)[1]
    assert parse_handviewer(query) == parse_handviewer("?" + query) == parse_handviewer(ADDRESS)


@pytest.mark.parametrize("name", ["bbo_session_oneline.lin", "bbo_myhands.lin"])
def test_lin_address_reads_as_its_lin(name: str) -> None:
    """Without this, a handviewer ?lin= link would read differently from the LIN file BBO saves for the board."""
    text = (DATA / name).read_text(encoding="utf-8")
    records = parse_lin(text)
    # One board a time, as BBO puts it in a link: each board of a one-line session cut at its qx|, or each line.
    boards = [b for b in text.replace("qx|", "\nqx|").splitlines() if "md|" in b]
    assert len(boards) == len(records)
    for k, board in enumerate(boards):
        single = parse_lin(board)[0]
        for address in (f"{VIEWER}?lin={quote(board)}", f"lin={board}"):
            got = parse_handviewer(address)
            assert got == single, (name, k)
        assert (got.deal, got.auction, got.play, got.result) == (
            records[k].deal,
            records[k].auction,
            records[k].play,
            records[k].result,
        )


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("*.lin")))
def test_every_lin_board_as_an_address(name: str) -> None:
    """Without this, a board of any LIN file written into a handviewer link would read back as another board."""
    for k, rec in enumerate(parse_lin((DATA / name).read_bytes())):
        line = format_lin([rec])
        assert parse_handviewer(f"{VIEWER}?lin={quote(line)}") == parse_lin(line)[0], (name, k)


def test_default_dealer_and_vulnerability_from_board() -> None:
    """Without this, a board number without d=/v= would be read with the wrong dealer or vulnerability."""
    hands = "n=SAKQJT98765432&e=HAKQJT98765432&s=DAKQJT98765432"
    rec = parse_handviewer(f"{hands}&b=6")  # board 6: East deals, East-West vulnerable (the board cycle)
    assert rec.dealer is Seat.E and rec.vulnerable is Vulnerability.EW
    assert parse_handviewer(f"{hands}&d=w&v=-").vulnerable is Vulnerability.NONE


@pytest.mark.parametrize(
    "address",
    ["https://tinyurl.com/2p8k3xyz", "http://bit.ly/3abcd", "www.bbo.tips/x1", f"{VIEWER}?linurl=http://x/y.lin"],
)
def test_links_that_need_the_network_are_refused(address: str) -> None:
    """Without this, a shortened link would fail as a missing file or a bad board, never saying what it needs."""
    assert is_handviewer(address)
    with pytest.raises(FormatError, match="needs the network") as info:
        parse_handviewer(address)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("address", "words"),
    [
        (f"{VIEWER}?n=SA&s=SK", "three hands"),
        ("n=SAKQJT98765432&e=HAKQJT98765432&s=DAKQJT98765432&d=n&a=1sx", r"call 2 \('x'\)"),
        ("n=SAKQJT98765432&e=HAKQJT98765432&s=DAKQJT98765432&d=n&p=sa", "no contract|without a contract"),
        ("n=SAKQJT98765432&e=HAKQJT98765432&s=DAKQJT98765432&d=n&a=7sppp&p=sasz", r"card 2 \('sz'\)"),
        ("n=SAKQJT98765432&e=HAKQJT98765432&s=DAKQJT98765432", "no dealer"),
        ("n=SAKQJT98765432&e=HAKQJT98765432&s=DAKQJT98765432&d=q", "not a dealer"),
        ("n=SAKQJT98765432&e=HAKQJT98765432&s=DAKQJT98765432&d=n&v=z", "not a vulnerability"),
        (f"lin={quote(LIN + LIN)}", "2 boards"),
    ],
)
def test_bad_addresses_are_named(address: str, words: str) -> None:
    """Without this, a mistyped address would give a traceback or a board nobody dealt."""
    with pytest.raises(FormatError, match=words):
        parse_handviewer(address)


def test_display_settings_are_named_when_left_out() -> None:
    """Without this, a parameter the reader does not know would vanish without a word."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        handviewer_lin(ADDRESS + "&k=nesw&tbt=y")
    assert [str(w.message) for w in caught if issubclass(w.category, DroppedDataWarning)] == [
        "handviewer: parameters k=, tbt= left out (display settings, no part of the board)"
    ]


def test_file_names_are_not_addresses() -> None:
    """Without this, the command line would take a file such as 'a=b.lin' or 'match.lin' for an address."""
    assert not is_handviewer("match.lin") and not is_handviewer("tests/data/x.pbn")
    assert is_handviewer("?lin=md|1|") and is_handviewer(ADDRESS)
