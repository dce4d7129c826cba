"""Cribbage Code64 records (seed 004, our reading): worked example, round trips, validation, CLI."""

from __future__ import annotations

import base64
import datetime as dt
import json
import re

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddsbind.cli import main
from ddsbind.cribbage import (
    Card,
    Deal,
    Play,
    Session,
    decode,
    encode,
    from_json,
    record_length,
    to_json,
)
from ddsbind.errors import FormatError
from tests.support import cli

# --------------------------------------------------------------------------
# The hand-worked example (derived on paper from seed 004's tables).
#
# One game of one deal, player 0 ("Hal") deals and wins during pegging:
#   Hal keeps 5S 5H JD 4C, discards KS QH; Ann keeps 6D 7D 8C 9S, discards AH 2C;
#   starter KC.  Pegging: Ann 6D (6), Hal 4C (10), Ann 7D (17), Hal 5S (22, a
#   run of four), and Hal reaches 121 -- the remaining four slots are "no play".
#   Scores 121 and 110 (illustrative: the format does not check how they arose).
#
# Header, bytes 0..65 (text fields end on a byte boundary, so they are bytes):
#   origin   "Hal" + 13 NUL   48 61 6C 00*13
#   program  ""               00*16
#   player 0 "Hal" + 5 NUL    48 61 6C 00*5      (bytes 32..39)
#   player 1 "Ann" + 5 NUL    41 6E 6E 00*5      (bytes 40..47)
#   comments ""               00*18              (bytes 48..65)
# Base64 of bytes 0..65 (66 = 22 groups of 3, so it ends cleanly):
#   48 61 6C -> 010010 000110 000101 101100 -> 18 6 5 44 -> "SGFs" (the seed's 'Hal')
#   00 00 00 -> "AAAA" (groups 1..9, bytes 3..29)
#   00 00 48 -> 000000 000000 000001 001000 -> 0 0 1 8   -> "AABI"  (bytes 30..32)
#   61 6C 00 -> 011000 010110 110000 000000 -> 24 22 48 0 -> "YWwA" (bytes 33..35)
#   00 00 00 -> "AAAA" (bytes 36..38)
#   00 41 6E -> 000000 000100 000101 101110 -> 0 4 5 46  -> "AEFu"  (bytes 39..41)
#   6E 00 00 -> 011011 100000 000000 000000 -> 27 32 0 0 -> "bgAA"  (bytes 42..44)
#   00 00 00 -> "AAAA" x 7 (bytes 45..65)
#
# From bit 528 on, field by field (MSB first):
#   year 2024      011111101000      month 5   0101       day 1    00001
#   hour 12        001100            minute 30 011110     second 45 101101
#   games 1        00000001          deals-1 0 00000000
#   deal 1: Hal keeps 5S 000101  5H 010101  JD 101011  4C 110100
#           Ann keeps 6D 100110  7D 100111  8C 111000  9S 001001
#           Hal discards KS 001101  QH 011100;  Ann discards AH 010001  2C 110010
#           starter KC 111101 (the seed's "0011 1101")
#           pegging 1 6D 1100110 | 0 4C 0110100 | 1 7D 1100111 | 0 5S 0000101
#                   no play 1111111 x 4
#           scores 121 1111001, 110 1101110; dealer 0; last of game 1
#   583 + 150 = 733 bits, padded with 3 zero bits to 736 = 92 bytes.
# Grouped into bytes 66..91:
#   01111110 10000101 00001001 10001111 01011010 00000010 00000000 00101010
#   7E       85       09       8F       5A       02       00       2A
#   10110101 11101001 00110100 11111100 00010010 01101011 10001000 11100101
#   B5       E9       34       FC       12       6B       88       E5
#   11101110 01100110 10011001 11000010 11111111 11111111 11111111 11111111
#   EE       66       99       C2       FF       FF       FF       FF
#   10011101 11001000   (the last three bits, 000, are padding)
#   9D       C8
# Base64 of bytes 66..91 (66 is a multiple of 3, so this continues the text):
#   7E 85 09 -> 011111 101000 010100 001001 -> 31 40 20 9 -> "foUJ"
#   8F 5A 02 -> 100011 110101 101000 000010 -> 35 53 40 2 -> "j1oC"
#   ... (likewise) "ACq1" "6TT8" "EmuI" "5e5m" "mcL/" "////"
#   9D C8    -> 100111 011100 1000+00       -> 39 28 32   -> "ncg="
EXAMPLE_TEXT = (
    "SGFsAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABIYWwAAAAAAEFubgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "foUJj1oCACq16TT8EmuI5e5mmcL/////ncg="
)
EXAMPLE_TAIL_HEX = "7E85098F5A02002AB5E934FC126B88E5EE6699C2FFFFFFFF9DC8"


def _ascii_bits(text: str, width: int) -> str:
    return "".join(f"{b:08b}" for b in text.encode("ascii").ljust(width, b"\0"))


# The example's fields as bit strings, by name, so tests can corrupt one field.
EXAMPLE_FIELDS: dict[str, str] = {
    "origin": _ascii_bits("Hal", 16),
    "program": _ascii_bits("", 16),
    "player0": _ascii_bits("Hal", 8),
    "player1": _ascii_bits("Ann", 8),
    "comments": _ascii_bits("", 18),
    "year": "011111101000",
    "month": "0101",
    "day": "00001",
    "hour": "001100",
    "minute": "011110",
    "second": "101101",
    "games": "00000001",
    "deals": "00000000",
    "hand0": "000101010101101011110100",
    "hand1": "100110100111111000001001",
    "discard0": "001101011100",
    "discard1": "010001110010",
    "starter": "111101",
    "peg1": "1100110",
    "peg2": "0110100",
    "peg3": "1100111",
    "peg4": "0000101",
    "peg5": "1111111",
    "peg6": "1111111",
    "peg7": "1111111",
    "peg8": "1111111",
    "score0": "1111001",
    "score1": "1101110",
    "dealer": "0",
    "last": "1",
}


def _pack(bits: str, pad: str | None = None) -> str:
    """Bits to Base64, independently of the module: zero padding unless ``pad`` is given."""
    bits += pad if pad is not None else "0" * (-len(bits) % 8)
    data = bytes(int(bits[i : i + 8], 2) for i in range(0, len(bits), 8))
    return base64.b64encode(data).decode("ascii")


def _record(**fields: str) -> str:
    """The example record with some fields' bit strings replaced."""
    unknown = set(fields) - set(EXAMPLE_FIELDS)
    assert not unknown, unknown
    return _pack("".join(fields.get(name, bits) for name, bits in EXAMPLE_FIELDS.items()))


def C(text: str) -> Card:
    return Card.parse(text)


EXAMPLE_DEAL = Deal(
    hands=((C("5S"), C("5H"), C("JD"), C("4C")), (C("6D"), C("7D"), C("8C"), C("9S"))),
    discards=((C("KS"), C("QH")), (C("AH"), C("2C"))),
    starter=C("KC"),
    pegging=(Play(1, C("6D")), Play(0, C("4C")), Play(1, C("7D")), Play(0, C("5S"))),
    scores=(121, 110),
    dealer=0,
    last_of_game=True,
)
EXAMPLE = Session(
    origin="Hal",
    program="",
    players=("Hal", "Ann"),
    comments="",
    played=dt.datetime(2024, 5, 1, 12, 30, 45),
    games=1,
    deals=(EXAMPLE_DEAL,),
)


def _replace_deal(session: Session, k: int = 0, **changes: object) -> Session:
    deals = list(session.deals)
    deals[k] = Deal(**{**deals[k].__dict__, **changes})
    return Session(**{**session.__dict__, "deals": tuple(deals)})


def _replace(session: Session, **changes: object) -> Session:
    return Session(**{**session.__dict__, **changes})


# A full eight-play deal, legal pegging, player 1 dealing (not the last deal of its game).
FULL_DEAL = Deal(
    hands=([C("5S"), C("5H"), C("JD"), C("4C")], [C("6D"), C("7D"), C("8C"), C("9S")]),
    discards=([C("KS"), C("QH")], [C("AH"), C("2C")]),
    starter=C("KC"),
    pegging=[
        Play(0, C("5S")),
        Play(1, C("6D")),
        Play(0, C("4C")),
        Play(1, C("7D")),
        Play(0, C("5H")),
        Play(1, C("8C")),
        Play(0, C("JD")),
        Play(1, C("9S")),
    ],
    scores=[30, 41],
    dealer=1,
    last_of_game=False,
)


# --------------------------------------------------------------------------
# The worked example and the seed's examples


def test_example_bits_group_into_the_worked_bytes():
    """Without this the worked example's bit strings and its hex/Base64 could disagree unnoticed."""
    bits = "".join(EXAMPLE_FIELDS.values())
    assert len(bits) == 583 + 150
    assert len(_pack(bits)) == len(EXAMPLE_TEXT)
    data = base64.b64decode(_pack(bits))
    assert data[66:].hex().upper() == EXAMPLE_TAIL_HEX
    assert _pack(bits) == EXAMPLE_TEXT


def test_encode_worked_example():
    """Without this, records we write would not match the hand-derived bit layout of seed 004."""
    assert encode(EXAMPLE) == EXAMPLE_TEXT


def test_decode_worked_example():
    """Without this, records written to the hand-derived layout would not read back as the same game."""
    assert decode(EXAMPLE_TEXT) == EXAMPLE


def test_seed_hal_example_is_the_records_first_four_characters():
    """Without this, the Base64 layer would not match the seed's 'Hal' -> 'SGFs' example."""
    assert EXAMPLE_TEXT.startswith("SGFs")
    assert decode(EXAMPLE_TEXT).origin == "Hal"
    assert encode(_replace(EXAMPLE, origin="Hal")).startswith("SGFs")


def test_seed_card_examples():
    """Without this, cards would not carry the seed's codes (0011 1101 = KC; 0111 1101 = KC by player 1)."""
    king_of_clubs = Card.from_code(0b0011_1101)
    assert king_of_clubs == Card(3, 13) == C("KC")
    assert king_of_clubs.code == 0b0011_1101
    assert Play(0, king_of_clubs).code == 0b0011_1101
    assert Play(1, king_of_clubs).code == 0b0111_1101
    assert Card.from_code(0b0000_0001) == C("AS")
    assert Card.from_code(0b0001_1010) == C("TH")


def test_example_deal_with_eight_plays_round_trips():
    """Without this, full pegging sequences (no 'no play' slots) and player-1 dealers could be lost."""
    session = _replace(EXAMPLE, deals=(FULL_DEAL, EXAMPLE_DEAL))
    text = encode(session)
    assert len(base64.b64decode(text)) == record_length(2) == 111
    assert decode(text) == session


def test_deal_accepts_lists_and_equals_tuple_built_deal():
    """Without this, deals built from lists (as JSON gives them) would not compare equal to decoded ones."""
    assert decode(encode(_replace(EXAMPLE, deals=[FULL_DEAL, EXAMPLE_DEAL]))).deals[0] == FULL_DEAL
    assert isinstance(FULL_DEAL.hands[0], tuple)


# --------------------------------------------------------------------------
# Cards and pegging counts


@pytest.mark.parametrize(
    ("text", "suit", "rank"),
    [
        ("5H", 1, 5),
        ("KC", 3, 13),
        ("AS", 0, 1),
        ("10D", 2, 10),
        ("TD", 2, 10),
        ("jd", 2, 11),
        (" qs ", 0, 12),
    ],
)
def test_card_parse(text, suit, rank):
    """Without this, users could not write cards as '5H', 'KC', 'AS', '10D' or 'TD'."""
    assert Card.parse(text) == Card(suit, rank)


@pytest.mark.parametrize("text", ["1H", "11D", "KX", "H5", "", "5HH", "10"])
def test_card_parse_rejects(text):
    """Without this, a typo in a card would become some other card instead of an error."""
    with pytest.raises(FormatError, match=re.escape(repr(text))):
        Card.parse(text)


def test_card_rejects_bad_rank_and_suit():
    """Without this, impossible cards (rank 14, suit 4) could be built and written."""
    with pytest.raises(FormatError, match="rank = 14"):
        Card(0, 14)
    with pytest.raises(FormatError, match="suit = 4"):
        Card(4, 1)


def test_running_counts_restart_past_31():
    """Without this, the pegging display would show counts above 31 instead of restarting."""
    counts = [(str(p.card), count, reset) for p, count, reset in FULL_DEAL.running_counts()]
    # 5 11 15 22 27; both say go (8C, 9S, JD would pass 31), Ann leads again: 8 18 27.
    assert counts == [
        ("5S", 5, False),
        ("6D", 11, False),
        ("4C", 15, False),
        ("7D", 22, False),
        ("5H", 27, False),
        ("8C", 8, True),
        ("JD", 18, False),
        ("9S", 27, False),
    ]


# --------------------------------------------------------------------------
# The text layer


def test_reader_tolerates_whitespace_and_line_breaks():
    """Without this, wrapped or indented records (mail, files) would not read."""
    wrapped = "\r\n".join(EXAMPLE_TEXT[i : i + 19] for i in range(0, len(EXAMPLE_TEXT), 19))
    assert decode("  \t" + wrapped.replace("AAAA", "AA AA") + "\n\n") == EXAMPLE
    assert decode(EXAMPLE_TEXT.encode("ascii")) == EXAMPLE


def test_reader_reports_offending_character_position():
    """Without this, a user could not find the bad character in a long record."""
    text = "SGFs\nAA!A" + EXAMPLE_TEXT[8:]
    with pytest.raises(FormatError, match=r"character 7 \(0-based\) = '!'") as info:
        decode(text)
    assert info.value.offset == 7


def test_reader_rejects_non_ascii_whitespace_and_letters():
    """Without this, look-alike characters (non-breaking space, accented letters) would slip through."""
    with pytest.raises(FormatError, match=r"character 4 \(0-based\) = '\\xa0'"):
        decode(EXAMPLE_TEXT[:4] + "\u00a0" + EXAMPLE_TEXT[4:])
    with pytest.raises(FormatError, match=r"character 0 \(0-based\) = 'é'"):
        decode("é" + EXAMPLE_TEXT)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (EXAMPLE_TEXT[:-1], "not a multiple of 4"),
        (EXAMPLE_TEXT + "==", "padding characters"),
        (EXAMPLE_TEXT[:-1] + "=A", "data after '=' padding"),
        (EXAMPLE_TEXT[:-2] + "h=", "unused low bits"),
        ("", "empty record"),
        (" \n ", "empty record"),
    ],
)
def test_reader_rejects_bad_padding(text, message):
    """Without this, damaged or truncated Base64 would decode to silently wrong bytes."""
    with pytest.raises(FormatError, match=message):
        decode(text)


def test_extra_whole_bytes_after_padding_are_an_error():
    """Without this, junk appended to a record (or two records glued together) would be ignored."""
    data = base64.b64decode(EXAMPLE_TEXT) + b"\0\0\0"
    with pytest.raises(FormatError, match="3 extra bytes"):
        decode(base64.b64encode(data).decode())


def test_truncated_record_is_an_error():
    """Without this, a cut-off record would read as a shorter game or crash."""
    data = base64.b64decode(EXAMPLE_TEXT)
    with pytest.raises(FormatError, match="truncated"):
        decode(base64.b64encode(data[:-1]).decode())
    with pytest.raises(FormatError, match="header"):
        decode(base64.b64encode(data[:40]).decode())


def test_nonzero_padding_bits_are_an_error():
    """Without this, records whose last byte carries stray bits would be accepted and not round-trip."""
    bits = "".join(EXAMPLE_FIELDS.values())
    with pytest.raises(FormatError, match=r"padding bits after deal 1 .*0b001"):
        decode(_pack(bits, pad="001"))


# --------------------------------------------------------------------------
# Validation on decode (fields corrupted in the worked example's bits)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"starter": "001101"}, r"deal 1 \(1-based\), starter = KS: card already in player 0 discards"),
        ({"hand1": "000101" + "100111111000001001"}, r"player 1 kept hand = 5S: card already in player 0"),
        ({"starter": "001110"}, r"deal 1 \(1-based\), starter = 0b001110: rank 14 is not a card"),
        ({"hand0": "010000" + "010101101011110100"}, r"player 0 kept hand card 1 = 0b010000: rank 0"),
        ({"peg2": "1110100"}, r"deal 1 \(1-based\), pegging play 2 = 4C: not in player 1's kept hand"),
        ({"peg3": "1100110"}, r"pegging play 3 = 6D: card played twice"),
        ({"peg6": "0000101"}, r"pegging play 6 = 0b0000101: a play after 'no play' in play 5"),
        ({"peg5": "0111111"}, r"pegging play 5 = 0b0111111: rank 15 is not a card"),
        ({"score0": "1111010"}, r"deal 1 \(1-based\), player 0 score = 122: not in 0..121"),
        ({"last": "0", "games": "00000000"}, r"pegging = 4 plays: fewer than 8 plays"),
        ({"games": "00000010"}, r"number of games = 2: does not match the 1 deal"),
        ({"month": "1101"}, r"header, month = 13: not in 1..12"),
        ({"month": "0010", "day": "11110"}, r"header, day = 30: not a day of 2024-02"),
        ({"hour": "011000"}, r"header, hour = 24"),
        ({"year": "000000000000"}, r"header, year = 0: not in 1..4095"),
        ({"player1": _ascii_bits("A", 8)[:16] + _ascii_bits("n", 1) + "0" * 40}, r"player 1 name = .*NUL"),
        ({"comments": _ascii_bits("caf", 18)[:24] + "11101001" + "0" * 112}, r"comments = .*0xe9"),
        ({"origin": "00001001" + "0" * 120}, r"origin = .*0x09 is not printable"),
    ],
)
def test_decode_names_deal_field_and_value(fields, message):
    """Without this, a user could not tell which deal, field and value make a record invalid."""
    with pytest.raises(FormatError, match=message):
        decode(_record(**fields))


def test_decode_second_deal_is_named_two():
    """Without this, errors in later deals would point at the wrong deal (message 1-based, .index 0-based)."""
    text = encode(_replace(EXAMPLE, deals=(FULL_DEAL, EXAMPLE_DEAL)))
    data = bytearray(base64.b64decode(text))
    # Deal 2's starter is at bit 583 + 150 + 72 = 805..810: byte 100, bits 5..7 and byte 101, bits 0..2.
    bits = "".join(f"{b:08b}" for b in data)
    assert bits[805:811] == "111101"
    bits = bits[:805] + "001101" + bits[811:]  # KS, already a discard of player 0
    with pytest.raises(FormatError, match=r"deal 2 \(1-based\), starter = KS") as info:
        decode(_pack(bits[: 583 + 300], pad=bits[583 + 300 :]))
    assert info.value.index == 1


# --------------------------------------------------------------------------
# Validation on encode


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"starter": C("5S")}, r"deal 1 \(1-based\), starter = 5S: card already in player 0 kept hand"),
        ({"discards": ((C("KS"), C("QH")), (C("AH"), C("QH")))}, r"player 1 discards = QH: card already"),
        (
            {"hands": ((C("5S"), C("5H"), C("JD")), EXAMPLE_DEAL.hands[1])},
            r"player 0 kept hand = .*expected 4",
        ),
        ({"pegging": (Play(0, C("6D")),)}, r"pegging play 1 = 6D: not in player 0's kept hand"),
        ({"pegging": (Play(1, C("6D")), Play(1, C("6D")))}, r"pegging play 2 = 6D: card played twice"),
        ({"pegging": (Play(2, C("6D")),)}, r"pegging play 1 player = 2: not 0 or 1"),
        ({"pegging": (*FULL_DEAL.pegging, Play(0, C("KS")))}, r"pegging = .*at most 8 plays"),
        ({"scores": (121, 130)}, r"deal 1 \(1-based\), player 1 score = 130: not in 0..121"),
        ({"scores": (-1, 0)}, r"player 0 score = -1"),
        ({"dealer": 2}, r"dealer = 2: not 0 or 1"),
        ({"last_of_game": False}, r"pegging = 4 plays: fewer than 8 plays"),
        ({"starter": "KC"}, r"starter = .*not a Card"),
    ],
)
def test_encode_names_deal_field_and_value(changes, message):
    """Without this, encode would write records that break the format, or fail without saying where."""
    with pytest.raises(FormatError, match=message):
        encode(_replace_deal(EXAMPLE, **changes))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"games": 2}, r"number of games = 2: does not match the 1 deal"),
        ({"games": 256}, r"number of games = 256: not in 0..255"),
        ({"deals": ()}, r"number of deals = 0: not in 1..256"),
        ({"deals": (EXAMPLE_DEAL,) * 257}, r"number of deals = 257: not in 1..256"),
        ({"origin": "x" * 17}, r"origin = 'xxxxxxxxxxxxxxxxx': 17 characters, at most 16 fit"),
        ({"players": ("Hal", "Annabelle")}, r"player 1 name = 'Annabelle': 9 characters, at most 8"),
        ({"players": ("Hal",)}, r"players = \('Hal',\): expected two names"),
        ({"comments": "café"}, r"comments = 'café': character 3 \(0-based\) 'é' is not printable ASCII"),
        ({"program": "a\0b"}, r"program = 'a\\x00b': character 1"),
        ({"played": dt.datetime(2024, 1, 1, microsecond=5)}, r"played = .*fraction of a second"),
        ({"played": dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc)}, r"played = .*time zone"),
        ({"played": dt.datetime(4096, 1, 1)}, r"year = 4096"),
        ({"played": "2024-01-01"}, r"played = '2024-01-01': not a datetime"),
    ],
)
def test_encode_rejects_bad_header(changes, message):
    """Without this, header fields that do not fit their bits would be truncated or mangled silently."""
    with pytest.raises(FormatError, match=message):
        encode(_replace(EXAMPLE, **changes))


def test_unfinished_trailing_game_is_allowed():
    """Without this, a session saved in the middle of a game could not be written or read."""
    session = _replace(EXAMPLE, deals=(EXAMPLE_DEAL, FULL_DEAL), games=1)
    assert decode(encode(session)) == session


def test_256_deals_round_trip():
    """Without this, the largest session the format allows (deal count byte 255) could be lost."""
    session = _replace(EXAMPLE, deals=(FULL_DEAL,) * 255 + (EXAMPLE_DEAL,), games=1)
    text = encode(session)
    assert len(base64.b64decode(text)) == record_length(256) == (583 + 150 * 256 + 7) // 8
    assert decode(text) == session


# --------------------------------------------------------------------------
# Property tests

ALL_CARDS = [Card(s, r) for s in range(4) for r in range(1, 14)]
_PRINTABLE = st.characters(min_codepoint=0x20, max_codepoint=0x7E)


@st.composite
def deals(draw: st.DrawFn) -> Deal:
    cards = draw(st.permutations(ALL_CARDS))[:13]
    hands = (tuple(cards[0:4]), tuple(cards[4:8]))
    plays = draw(st.permutations([Play(p, c) for p in (0, 1) for c in hands[p]]))
    n = draw(st.integers(0, 8))
    return Deal(
        hands=hands,
        discards=(tuple(cards[8:10]), tuple(cards[10:12])),
        starter=cards[12],
        pegging=tuple(plays[:n]),
        scores=(draw(st.integers(0, 121)), draw(st.integers(0, 121))),
        dealer=draw(st.integers(0, 1)),
        last_of_game=True if n < 8 else draw(st.booleans()),
    )


@st.composite
def sessions(draw: st.DrawFn, max_deals: int = 12) -> Session:
    ds = tuple(draw(st.lists(deals(), min_size=1, max_size=max_deals)))
    played = draw(st.datetimes(min_value=dt.datetime(1, 1, 1), max_value=dt.datetime(4095, 12, 31, 23, 59, 59)))
    return Session(
        origin=draw(st.text(_PRINTABLE, max_size=16)),
        program=draw(st.text(_PRINTABLE, max_size=16)),
        players=(draw(st.text(_PRINTABLE, max_size=8)), draw(st.text(_PRINTABLE, max_size=8))),
        comments=draw(st.text(_PRINTABLE, max_size=18)),
        played=played.replace(microsecond=0),
        games=sum(d.last_of_game for d in ds),
        deals=ds,
    )


@given(sessions())
@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
def test_round_trip_random_sessions(session):
    """Without this, some legal sessions would not survive encode then decode."""
    text = encode(session)
    assert len(base64.b64decode(text)) == record_length(len(session.deals))
    assert decode(text) == session


@given(sessions(max_deals=4))
@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
def test_json_round_trip_random_sessions(session):
    """Without this, the CLI's JSON form would lose or change part of a session."""
    obj = json.loads(json.dumps(to_json(session)))
    assert from_json(obj) == session


def _decodes_cleanly_or_format_error(text: str) -> None:
    try:
        session = decode(text)
    except FormatError:
        return
    # Anything accepted must be canonical: writing it back gives the same text.
    assert encode(session) == "".join(text.split())


@given(st.text())
@settings(max_examples=300)
def test_random_text_raises_only_format_error(text):
    """Without this, garbage input could crash callers with errors other than FormatError."""
    _decodes_cleanly_or_format_error(text)


@given(st.binary(max_size=400))
@settings(max_examples=300)
def test_random_bytes_as_base64_raise_only_format_error(data):
    """Without this, well-formed Base64 of random bytes could crash the bit-level reader."""
    _decodes_cleanly_or_format_error(base64.b64encode(data).decode())


@given(st.integers(1, 4).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, 2 ** (150 * n) - 1))))
@settings(max_examples=300)
def test_valid_header_random_deals_raise_only_format_error(n_and_bits):
    """Without this, random deal bits behind a good header could crash the deal reader."""
    n, value = n_and_bits
    header = "".join(EXAMPLE_FIELDS[name] for name in list(EXAMPLE_FIELDS)[:12]) + f"{n - 1:08b}"
    assert len(header) == 583
    _decodes_cleanly_or_format_error(_pack(header + f"{value:0{150 * n}b}"))


@given(sessions(max_deals=3), st.data())
@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
def test_flipped_bit_raises_format_error_or_reads_canonically(session, data):
    """Without this, a single damaged bit could crash the reader or be accepted yet not round-trip."""
    raw = bytearray(base64.b64decode(encode(session)))
    bit = data.draw(st.integers(0, 8 * len(raw) - 1))
    raw[bit // 8] ^= 0x80 >> bit % 8
    _decodes_cleanly_or_format_error(base64.b64encode(bytes(raw)).decode())


# --------------------------------------------------------------------------
# JSON mapping


def test_to_json_shape():
    """Without this, the JSON the CLI reads and writes could change shape and break users' files."""
    obj = to_json(EXAMPLE)
    assert obj["players"] == ["Hal", "Ann"]
    assert obj["played"] == "2024-05-01T12:30:45"
    assert obj["games"] == 1
    deal = obj["deals"][0]
    assert deal["hands"] == [["5S", "5H", "JD", "4C"], ["6D", "7D", "8C", "9S"]]
    assert deal["discards"] == [["KS", "QH"], ["AH", "2C"]]
    assert deal["starter"] == "KC"
    assert deal["pegging"][0] == {"player": 1, "card": "6D"}
    assert deal["scores"] == [121, 110]
    assert (deal["dealer"], deal["last_of_game"]) == (0, True)


def test_from_json_accepts_ten_written_10_and_defaults():
    """Without this, hand-written JSON (10D, no header text, no games count) would be refused."""
    obj = to_json(EXAMPLE)
    obj["deals"][0]["hands"][0][2] = "jd"
    obj["deals"][0]["discards"][1] = ["ah", "2c"]
    del obj["games"], obj["origin"], obj["comments"]
    assert from_json(obj) == _replace(EXAMPLE, origin="")
    obj["deals"][0]["hands"][1][0] = "6D"
    obj["deals"][0]["discards"][0][0] = "10S"
    obj["deals"][0]["pegging"] = []
    assert from_json(obj).deals[0].discards[0][0] == C("TS")


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda o: o["deals"][0].pop("starter"), r"deal 1 \(1-based\), starter: missing"),
        (lambda o: o["deals"][0]["hands"][1].__setitem__(0, "6X"), r"player 1 kept hand = '6X': not a card"),
        (
            lambda o: o["deals"][0]["pegging"][0].__setitem__("card", 7),
            r"pegging play 1 card = 7: not a card",
        ),
        (
            lambda o: o["deals"][0].__setitem__("scores", 5),
            r"deal 1 \(1-based\), scores = 5: expected a JSON",
        ),
        (lambda o: o.__setitem__("played", "yesterday"), r"played = 'yesterday': not an ISO 8601"),
        (lambda o: o.pop("deals"), r"session, deals: missing"),
        (lambda o: o["deals"].__setitem__(0, []), r"deal 1 \(1-based\) = list: expected a JSON object"),
    ],
)
def test_from_json_names_deal_field_and_value(mutate, message):
    """Without this, mistakes in a hand-written JSON file would give unhelpful or non-FormatError errors."""
    obj = to_json(EXAMPLE)
    mutate(obj)
    with pytest.raises(FormatError, match=message):
        from_json(obj)


# --------------------------------------------------------------------------
# CLI


def test_cli_show_prints_deal_by_deal(tmp_path):
    """Without this, `ddsbind cribbage show` would not display a record readably from text or file."""
    session = _replace(EXAMPLE, deals=(FULL_DEAL, EXAMPLE_DEAL))
    path = tmp_path / "game.c64"
    path.write_text(encode(session) + "\n")
    result = cli("cribbage", "show", str(path))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Players:  0 = Hal, 1 = Ann" in out
    assert "Played:   2024-05-01 12:30:45" in out
    assert "Deal 1 (game 1), dealer Ann" in out
    assert "Hal  keeps 5S 5H JD 4C   discards KS QH" in out
    assert "Crib (Ann): KS QH AH 2C   Starter: KC" in out
    assert "8. Ann  9S  count 27" in out
    assert "-- count restarts --" in out
    assert "Deal 2 (game 1), dealer Hal" in out
    assert "no further plays: the game ended after 4" in out
    assert "Scores: Hal 121, Ann 110" in out
    assert out.count("== end of game 1 ==") == 1
    assert out.index("Deal 2") > out.index("Scores: Hal 30, Ann 41")
    direct = cli("cribbage", "show", encode(session))
    assert direct.stdout == out


def test_cli_encode_json_file(tmp_path):
    """Without this, `ddsbind cribbage encode FILE.json` would not produce the Code64 record."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(to_json(EXAMPLE)))
    result = cli("cribbage", "encode", str(path))
    assert result.exit_code == 0, result.output
    assert result.stdout == EXAMPLE_TEXT + "\n"


def test_cli_decode_then_encode_round_trips(tmp_path):
    """Without this, the JSON printed by `cribbage decode` could not be edited and encoded back."""
    runner = CliRunner()
    decoded = runner.invoke(main, ["cribbage", "decode", EXAMPLE_TEXT])
    assert decoded.exit_code == 0, decoded.output
    path = tmp_path / "game.json"
    path.write_text(decoded.stdout)
    assert runner.invoke(main, ["cribbage", "encode", str(path)]).stdout == EXAMPLE_TEXT + "\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["cribbage", "show", "SGF!"], r"character 3 \(0-based\) = '!'"),
        (["cribbage", "show", _record(peg2="1110100")], r"deal 1 \(1-based\), pegging play 2 = 4C"),
    ],
)
def test_cli_error_is_one_line_exit_1(args, message):
    """Without this, a bad record would give a traceback instead of one clear line and exit status 1."""
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("ddsbind: error: ")
    assert re.search(message, lines[0])


def test_cli_encode_bad_json_exit_1(tmp_path):
    """Without this, a JSON file breaking a rule would be encoded anyway or crash with a traceback."""
    obj = to_json(EXAMPLE)
    obj["deals"][0]["scores"] = [121, 122]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(obj))
    result = cli("cribbage", "encode", str(path))
    assert result.exit_code == 1
    assert result.stderr.strip().endswith("player 1 score = 122: not in 0..121")


def test_cli_show_reads_stdin_and_names_missing_file():
    """Without this, piped records would not read, and a mistyped file name would look like bad Base64."""
    runner = CliRunner()
    piped = runner.invoke(main, ["cribbage", "show", "-"], input=EXAMPLE_TEXT[:50] + "\n" + EXAMPLE_TEXT[50:])
    assert piped.exit_code == 0, piped.output
    assert "Deal 1 (game 1), dealer Hal" in piped.stdout
    missing = runner.invoke(main, ["cribbage", "show", "no-such-game.c64"])
    assert missing.exit_code == 1
    assert "no file named 'no-such-game.c64'" in missing.stderr
