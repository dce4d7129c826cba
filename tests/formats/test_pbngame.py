"""PBN game records: the Play section's layout, the rules of play, and ZRJ conversion (no DDS)."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddsbind.deal import Card, Deal, Seat, Strain
from ddsbind.errors import ContractError, FieldWarning, FormatError
from ddsbind.formats import decode_zrj, encode_zrj
from ddsbind.formats.convert import convert
from ddsbind.formats.games import read_games
from ddsbind.formats.pbngame import GameRecord, format_games, parse_games
from ddsbind.formats.zrjgame import TruncatedPlayWarning, game_to_zrj, zrj_to_game
from ddsbind.scoring import Contract
from tests.support import reference_record

# list100's first hand (DDS's hands/list100.txt): trump S, North leads, so West declares.
DEAL0 = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"

HEADER = f"""[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "{DEAL0}"]
[Declarer "W"]
[Contract "2S"]
[Result "8"]
[Auction "N"]
Pass Pass Pass 1S
Pass 2S AP
"""


def _game(play_lines: str, header: str = HEADER) -> str:
    return header + '[Play "N"]\n' + play_lines + "\n"


def cards(text: str) -> list[Card]:
    return [Card.parse(text[i : i + 2]) for i in range(0, len(text), 2)]


def test_play_section_is_by_seat_not_play_order():
    """Without this, every trick not led by the Play tag's seat would be read in the wrong order."""
    # Trick 1: N CT, E C4, S CA, W CJ -- South wins and leads trick 2: S H8, W H4, N HK, E H9.
    # By seat from N, trick 2's line is "HK H9 H8 H4" (worked out by hand).
    (g,) = parse_games(_game("CT C4 CA CJ\nHK H9 H8 H4\n*"))
    assert g.play == cards("CTC4CACJH8H4HKH9")
    assert [str(c) for c in g.auction] == ["Pass", "Pass", "Pass", "1S", "Pass", "2S", "Pass", "Pass", "Pass"]
    assert (str(g.contract), g.declarer, g.result, g.strain, g.leader) == ("2S", Seat.W, 8, Strain.S, Seat.N)
    assert format_games([g]).split('[Play "N"]\n')[1].splitlines()[:3] == ["CT C4 CA CJ", "HK H9 H8 H4", "*"]


def test_reference_plays_round_trip_through_pbn_and_zrj(list100):
    """Without this, converting played deals PBN -> ZRJ -> PBN could lose the deal, auction, contract or play."""
    games = [reference_record(h) for h in list100]
    again = parse_games(format_games(games))
    zrj = encode_zrj([game_to_zrj(g, index=i) for i, g in enumerate(again)])
    back = parse_games(format_games([zrj_to_game(p, index=i) for i, p in enumerate(decode_zrj(zrj))]))
    for i, (a, b) in enumerate(zip(games, back, strict=True)):
        got = (b.deal, b.dealer, b.vulnerable, b.auction, b.contract, b.declarer, b.result, b.play, b.board)
        assert got == (a.deal, a.dealer, a.vulnerable, a.auction, a.contract, a.declarer, a.result, a.play, a.board), i


def test_malformed_plays_name_the_card_and_position(list100):
    """Without this, a bad play would be analysed anyway, or fail without saying which card is wrong."""
    cases = {
        # E does not hold the SA (South ... no: West holds it).
        "CT SA CA CJ": r"play 2 \(trick 1, 2nd card, E\): SA is not held by E \(held by W\)",
        # E holds C4 and CQ but plays a heart to a club lead.
        "CT H7 CA CJ": r"play 2 \(trick 1, 2nd card, E\): H7 is a revoke: E holds C",
        # A card after the claim: trick 2 stops at W ('-') but N plays on.
        "CT C4 CA CJ\nHK - H8 -": r"play 7 .*HK comes after the claim",
        "CT C4 CA CJ\n* C2": r"C2 comes after the end of the play",
    }
    for play, pattern in cases.items():
        with pytest.raises(FormatError, match=pattern):
            parse_games(_game(play), strict=True)
        with pytest.warns(FieldWarning, match=pattern):  # read leniently: the play set aside, kept as written
            (kept,) = parse_games(_game(play))
        kept.source = None  # written anew from the record: the Play section as the file wrote it
        again = format_games([kept])
        assert kept.play == [] and '[Play "N"]' in again and all(tok in again for tok in play.split())
    with pytest.raises(FormatError, match=r"wrong leader: Play starts with E .* N leads"):
        parse_games(HEADER + '[Play "E"]\nC4 CA CJ CT\n', strict=True)
    with pytest.raises(FormatError, match=r"play 53 \(SA\): 53 cards"):
        h = next(h for h in list100 if len(h.play) == 104)
        GameRecord(deal=h.deal, contract=f"1{Strain(h.trump).symbol}", declarer=Seat(h.first).next(3),
                   play=[*cards(h.play), Card.parse("SA")]).tricks()  # fmt: skip
    with pytest.raises(FormatError, match=r"53 tokens"):
        parse_games(_game(" ".join(["-"] * 53)), strict=True)


def test_zrj_truncates_only_the_play_and_warns(list100):
    """Without this, a long auction with a full play would be refused or silently lose calls, not just cards."""
    h = next(h for h in list100 if len(h.play) == 104)
    g = reference_record(h)
    t = Strain(h.trump).symbol
    # Legal by the rules: declarer raises his own strain over each redouble, and his LHO doubles the last.
    middle = ["X", "XX", "Pass", f"2{t}", "X", "XX", "Pass", f"3{t}", "X", "XX", "Pass", f"4{t}", "Pass", "Pass", "X"]
    g.auction = ["Pass"] * 3 + [f"1{t}"] + middle + ["Pass"] * 3
    g.dealer = Seat((g.declarer - 3) % 4)  # so that the declarer is the one who bids the strain first
    g.board = {Seat.N: 1, Seat.E: 14, Seat.S: 11, Seat.W: 8}[g.dealer]  # a board of that dealer, nobody vulnerable
    g.contract = Contract.parse(f"4{t}X")
    # 22 calls, of which the 3 opening passes live in byte 15: 19 call bytes, 80 - 18 - 19 = 43 play bytes.
    with pytest.warns(TruncatedPlayWarning, match=r"game 8 of the file\)?: .* keeps the first 43"):
        p = game_to_zrj(g, index=7)
    back = zrj_to_game(decode_zrj(encode_zrj([p]))[0])
    assert back.auction == g.auction and back.contract == g.contract and back.result == g.result
    assert back.play == g.play[:43]


def test_convert_files_both_ways(list100, tmp_path):
    """Without this, `ddsbind convert games.pbn games.zrj` and back would not give the same games."""
    src = tmp_path / "games.pbn"
    src.write_text(format_games([reference_record(h) for h in list100[:20]]), encoding="latin-1")
    assert convert(src, tmp_path / "games.zrj") == 20
    assert (tmp_path / "games.zrj").stat().st_size == 20 * 80
    assert convert(tmp_path / "games.zrj", tmp_path / "back.pbn") == 20
    a, b = read_games(src), read_games(tmp_path / "back.pbn")
    assert [(g.deal, g.auction, g.contract, g.play) for g in a] == [(g.deal, g.auction, g.contract, g.play) for g in b]


def test_zrj_record_with_illegal_play_names_record_and_card():
    """Without this, a corrupt ZRJ play would reach DDS, or fail without naming the record and card."""
    g = parse_games(_game("CT C4 CA CJ"))[0]
    p = game_to_zrj(g)
    p.plays[1] = p.plays[0]  # E "plays" the CT again
    with pytest.raises(FormatError, match=r"record 4: .*play 2 \(trick 1, 2nd card, E\): CT is not held by E"):
        zrj_to_game(p, index=3)


def test_game_record_with_unreadable_contract_is_refused_by_name():
    """Without this, a hand-built record with a contract like "4Z" would fail later (going to ZRJ) with a TypeError."""
    with pytest.raises(ContractError, match=r"contract '4Z' is not a level 1-7"):
        GameRecord(deal=Deal.from_pbn(DEAL0), declarer=Seat.W, contract="4Z", result=8)
    with pytest.raises(ContractError, match=r"passed-out game has no contract"), pytest.deprecated_call():
        GameRecord(deal=Deal.from_pbn(DEAL0), contract="4S", passed_out=True)


@st.composite
def played_games(draw):
    rng_seed = draw(st.integers(0, 2**32 - 1))
    deal = Deal.random(rng_seed)
    trump = draw(st.sampled_from(list(Strain)))
    declarer = draw(st.sampled_from(list(Seat)))
    n = draw(st.integers(0, 52))
    hands = [list(deal.hand(s)) for s in Seat]
    leader, trick, play = declarer.next(), [], []
    won = finished = 0  # tricks declarer's side won, tricks finished
    for _ in range(n):
        seat = (leader + len(trick)) % 4
        legal = [c for c in hands[seat] if trick and c.suit == trick[0].suit] or hands[seat]
        c = draw(st.sampled_from(legal))
        hands[seat].remove(c)
        trick.append(c)
        play.append(c)
        if len(trick) == 4:
            best = max(range(4), key=lambda k: (trick[k].suit == trump, trick[k].suit == trick[0].suit, trick[k].rank))
            leader, trick = Seat((leader + best) % 4), []
            won, finished = won + (leader % 2 == declarer % 2), finished + 1
    marks = [draw(st.integers(0, 6)) for _ in play]
    passes = draw(st.integers(0, 3))
    dealer = Seat((declarer - passes) % 4)  # the declarer bids first, after the passes: the auction reaches him
    level = draw(st.integers(1, 7))
    doubled = draw(st.sampled_from(["", "X", "XX"]))
    contract = f"{level}{trump.symbol}{doubled}"
    doubles = {"": [], "X": ["X"], "XX": ["X", "XX"]}[doubled]
    auction = ["Pass"] * passes + [f"{level}{trump.symbol}", *doubles, "Pass", "Pass", "Pass"]
    return GameRecord(
        deal=deal, dealer=dealer, vulnerable=draw(st.sampled_from(["None", "NS", "EW", "All"])),
        auction=auction, auction_marks=[0] * len(auction), contract=contract, declarer=declarer,
        result=won if n == 52 else draw(st.integers(won, won + 13 - finished)), play=play, play_marks=marks,
    )  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(played_games())
def test_random_legal_plays_round_trip(g):
    """Without this, some legal play (any trump, leader, claim point) would not survive PBN and ZRJ."""
    (p,) = parse_games(format_games([g]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        z = zrj_to_game(decode_zrj(encode_zrj([game_to_zrj(p)]))[0])
    for r in (p, z):
        assert (r.deal, r.dealer, r.vulnerable, r.contract, r.declarer, r.result) == (
            g.deal, g.dealer, g.vulnerable, g.contract, g.declarer, g.result,
        )  # fmt: skip
        held = g.play_marks if r is p else [m if m <= 3 else 0 for m in g.play_marks]  # ZRJ: ! ? !? only
        assert (r.auction, r.play, r.play_marks) == (g.auction, g.play, held)


def test_a_strict_reading_error_carries_its_place_as_fields_and_names_the_board_once(tmp_path):
    """Without this, a bad PBN game read "record 2: PBN: f.pbn: Board 12 (line 12): ...": the place was text (the
    file and the game said twice, the line the game's first, not the bad tag's), which no caller could read."""
    path = tmp_path / "f.pbn"
    second = HEADER.replace('[Board "1"]', '[Board "12"]').replace('[Result "8"]', '[Result "99"]')
    path.write_text(HEADER + "\n" + second)  # game 2 starts on line 12; its Result tag is line 18
    with pytest.raises(FormatError) as info:
        read_games(path, strict=True)
    exc = info.value
    assert (exc.path, exc.record, exc.board, exc.line, exc.index) == (str(path), 2, "12", 18, 1)
    assert str(exc) == f'{path}: record 2 (Board 12), line 18: [Result "99"] refused (strict reading): not 0..13 tricks'
    assert str(exc).count("12") == 1 and "PBN:" not in str(exc)
    with pytest.warns(FieldWarning) as caught:  # read leniently: the warning names the same place, the same way
        read_games(path)
    (w,) = [x.message for x in caught if isinstance(x.message, FieldWarning)]
    assert (w.source, w.game, w.board, w.line) == (str(path), 2, "12", 18)
    assert str(w) == f'{path}: record 2 (Board 12), line 18: [Result "99"] set aside: not 0..13 tricks'


def test_text_that_is_not_pbn_is_refused_at_its_line_with_its_game_and_board(tmp_path):
    """Without this, a control byte read "f.pbn: line 13 (after Board 12): ...": the board as text (the last one
    read, even for a line outside any game), and not the record."""
    path = tmp_path / "f.pbn"
    path.write_text(HEADER + "\n" + HEADER.replace('[Board "1"]', '[Board "12"]').replace("[Dealer", "\x01\n[Dealer"))
    with pytest.raises(FormatError) as info:
        read_games(path)
    exc = info.value
    assert (exc.path, exc.record, exc.board, exc.line) == (str(path), 2, "12", 13)
    assert str(exc) == f"{path}: record 2 (Board 12), line 13: byte 0x01 is not PBN text"
