"""Played deals against DDS's reference hands: traces through game records, costly cards, best lines."""

from __future__ import annotations

import pytest

import ddsbind
from ddsbind.deal import Card, Seat, Strain
from ddsbind.errors import PlayFaultError
from ddsbind.formats import decode_zrj, encode_zrj
from ddsbind.formats.pbngame import format_games, parse_games
from ddsbind.formats.zrjgame import game_to_zrj, zrj_to_game
from ddsbind.game import play_out
from ddsbind.play import analyse_plays, best_line, costly_cards, costly_cards_batch
from ddsbind.record import GameRecord
from ddsbind.scoring import PASSED_OUT


def _cards(text: str) -> list[Card]:
    return [Card.parse(text[i : i + 2]) for i in range(0, len(text), 2)]


def _record(h) -> GameRecord:
    """A game record for a reference hand: its trump at the 1 level, declared by the opening leader's RHO."""
    declarer = Seat((h.first + 3) % 4)
    strain = Strain(h.trump).symbol
    return GameRecord(
        deal=h.deal,
        dealer=declarer,
        vulnerable="None",
        auction=[f"1{strain}", "Pass", "Pass", "Pass"],
        contract=f"1{strain}",
        declarer=declarer,
        result=h.trace[-1],
        play=_cards(h.play),
    )


def _jobs(games: list[GameRecord]) -> list[tuple]:
    return [(g.deal, g.strain, g.leader, g.play) for g in games]


def _traces_through_records(hands) -> None:
    games = [_record(h) for h in hands]
    via_pbn = parse_games(format_games(games))
    via_zrj = [zrj_to_game(p) for p in decode_zrj(encode_zrj([game_to_zrj(g) for g in via_pbn]))]
    want = [list(h.trace) for h in hands]
    # One call for both: a played deal that reads back the same from both formats is analysed once.
    both = analyse_plays(_jobs(via_pbn) + _jobs(via_zrj))
    for name, got in (("PBN", both[: len(hands)]), ("ZRJ", both[len(hands) :])):
        bad = [i for i, (a, b) in enumerate(zip(got, want, strict=True)) if a != b]
        assert not bad, f"{name}: hands {bad[:10]} differ from their TRACE lines"


def test_list100_traces_through_pbn_and_zrj_records(list100):
    """Without this, analysing a played deal read from a PBN or ZRJ file could disagree with DDS's own TRACE."""
    _traces_through_records(list100)


@pytest.mark.slow
def test_list1000_traces_through_pbn_and_zrj_records(list1000):
    """Without this, some of DDS's 1000 reference plays would analyse differently once stored as game records."""
    _traces_through_records(list1000)


@pytest.mark.slow
def test_best_line_reaches_the_table_and_keeps_the_value(list100):
    """Without this, the 'best line' could lose tricks, or not be double-dummy best at every card."""
    for i, h in enumerate(list100):
        line = best_line(h.deal, h.trump, h.first)
        declarer = (h.first + 3) % 4
        won = sum(1 for t in line if t.winner % 2 == declarer % 2)
        assert won == h.table[h.trump][declarer] == line[0].value, i
        assert [t.number for t in line] == list(range(1, 14)), i
        if i < 10:
            plays = [c for t in line for c in t.cards]
            trace = ddsbind.analyse_play(h.deal, h.trump, h.first, plays)
            assert set(trace) == {won}, i


def test_best_line_from_a_trick_in_progress(list100):
    """Without this, asking for the best line in the middle of a trick would fail or restart the trick."""
    h = list100[3]
    plays = _cards(h.play)
    played, on_trick = plays[:8], plays[8:10]  # two tricks done, two cards on the third
    tricks = play_out(h.deal, h.trump, h.first, plays[:10])
    leader = tricks[-1].leader
    masks = h.deal.remain_cards.astype(int)
    for c in played + on_trick:
        masks[h.deal.holder(c), c.suit] &= ~(1 << c.rank)
    position = ddsbind.Deal(masks)
    line = best_line(position, h.trump, leader, current_trick=on_trick)
    assert line[0].number == 3 and line[0].cards[:2] == tuple(on_trick) and len(line) == 11
    assert [s.seat for s in line[0].steps] == [Seat((leader + 2) % 4), Seat((leader + 3) % 4)]
    # The value is the SolveBoard score of the side to play, seen from the side to the leader's right.
    sol = ddsbind.solve_board(position, h.trump, leader, current_trick=on_trick)
    to_play_is_declarer = (leader + 2) % 2 == (leader + 3) % 2
    assert line[0].value == (sol.best_score if to_play_is_declarer else 11 - sol.best_score)
    declarer_side = (leader + 3) % 2
    assert sum(1 for t in line if t.winner % 2 == declarer_side) == line[0].value


def test_best_line_options_score_every_legal_card(list100):
    """Without this, the line's per-step alternatives could miss a legal card or misstate its score."""
    h = list100[5]
    line = best_line(h.deal, h.trump, h.first)
    step = line[0].steps[0]
    offered = sorted(c.index for o in step.options for c in o.cards)
    assert offered == sorted(c.index for c in h.deal.hand(h.first))
    best = max(o.score for o in step.options)
    assert step.card in [c for o in step.options if o.score == best for c in o.cards]
    assert step.card.rank == min(c.rank for o in step.options if o.score == best for c in o.cards)


@pytest.fixture(scope="module")
def costly_one_by_one(list100) -> list[list]:
    """``costly_cards`` of list100's first 40 plays, each deal alone, computed once for the tests below."""
    return [costly_cards(h.deal, h.trump, h.first, h.play) for h in list100[:40]]


def test_costly_cards_really_cost_what_they_say(list100, costly_one_by_one):
    """Without this, a card named as a mistake might not lose a trick, or lose a different number."""
    seen = 0
    for h, costly in zip(list100[:40], costly_one_by_one, strict=True):
        plays = _cards(h.play)
        for cc in costly:
            seen += 1
            trace_k = h.trace[cc.index] - h.trace[cc.index + 1]
            assert (cc.before, cc.after) == (h.trace[cc.index], h.trace[cc.index + 1])
            declarer = (h.first + 3) % 4
            assert cc.cost == (trace_k if cc.seat % 2 == declarer % 2 else -trace_k) > 0
            # Independent check with SolveBoard at the position before the card.
            tricks = play_out(h.deal, h.trump, h.first, plays[: cc.index + 1])
            t = tricks[-1]
            assert t.number == cc.trick and t.cards[-1] == cc.card
            masks = h.deal.remain_cards.astype(int)
            for c in plays[: cc.index]:
                masks[h.deal.holder(c), c.suit] &= ~(1 << c.rank)
            sol = ddsbind.solve_board(ddsbind.Deal(masks), h.trump, t.leader, current_trick=t.cards[:-1])
            assert sol.best_score - sol.score_of(cc.card) == cc.cost
            assert cc.card not in cc.better and all(sol.score_of(c) == sol.best_score for c in cc.better)
    assert seen > 10  # list100's plays are real enough to hold mistakes


def test_costly_cards_batch_equals_one_by_one(list100, costly_one_by_one):
    """Without this, analysing a whole file could give other costly cards than analysing each deal."""
    hands = list100[:30]
    batch = costly_cards_batch([(h.deal, h.trump, h.first, h.play) for h in hands])
    assert batch == costly_one_by_one[:30]


def test_costly_cards_refuses_malformed_play(list100):
    """Without this, an impossible play would be analysed (or crash DDS) instead of naming the bad card."""
    h = list100[0]
    plays = _cards(h.play)
    with pytest.raises(PlayFaultError, match=r"play 2: trick 1, 2nd card, E: .* is not held by E") as info:
        costly_cards(h.deal, h.trump, h.first, [plays[0], plays[2], *plays[1:]])
    assert (info.value.item, info.value.index) == ("play", 1)
    with pytest.raises(PlayFaultError, match=r"revoke"):
        costly_cards(h.deal, h.trump, h.first, [plays[0], next(c for c in h.deal.hand("E") if c.suit != 3)])
    with pytest.raises(PlayFaultError, match=r"deal 2: play 1: trick 1, 1st card, N: .* is not held by N") as info:
        costly_cards_batch([(h.deal, h.trump, h.first, h.play), (h.deal, h.trump, h.first, [plays[1]])])
    # The batch keeps the position of the bad deal (``.index``), not only a prefix in the message.
    assert (info.value.item, info.value.index) == ("deal", 1)


# -- CardPlay: the one type of a played deal ----------------------------------------------


def test_card_play_reads_every_spelling_to_one_value(list100):
    """Without this, one play written as text or as cards would be two played deals (no dedupe, no ==)."""
    h = list100[0]
    cards = _cards(h.play)
    a = ddsbind.CardPlay(h.deal.to_pbn(), Strain(h.trump).symbol, Seat(h.first).name, h.play)
    b = ddsbind.CardPlay(h.deal, int(h.trump), int(h.first), " ".join(str(c) for c in cards))
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert (a.deal, a.strain, a.leader, a.plays, a.current_trick) == (h.deal, h.trump, h.first, tuple(cards), ())
    assert a.declarer == Seat((h.first + 3) % 4) and a.from_opening_lead
    assert a != ddsbind.CardPlay(h.deal, h.trump, h.first, cards[:-1])


def test_card_play_refuses_an_illegal_play_when_made(list100):
    """Without this, a CardPlay could hold a card not held or a revoke, met later by each analysis or never."""
    h = list100[0]
    plays = _cards(h.play)
    with pytest.raises(PlayFaultError, match=r"is not held by E") as info:
        ddsbind.CardPlay(h.deal, h.trump, h.first, [plays[0], plays[2]])
    assert (info.value.item, info.value.index) == ("play", 1)
    with pytest.raises(PlayFaultError, match="revoke"):
        ddsbind.CardPlay(h.deal, h.trump, h.first, [plays[0], next(c for c in h.deal.hand("E") if c.suit != 3)])
    with pytest.raises(ddsbind.errors.ArgumentError):
        ddsbind.CardPlay(42, h.trump, h.first)
    with pytest.raises(ddsbind.errors.FirstWrongError):
        ddsbind.CardPlay(h.deal, h.trump, "X")


def test_analyses_take_a_card_play_or_its_arguments_alike(list100):
    """Without this, a CardPlay (or a game record's) could answer otherwise than the arguments users always gave."""
    h = list100[4]
    played = ddsbind.CardPlay(h.deal, h.trump, h.first, h.play)
    assert ddsbind.analyse_play(played) == ddsbind.analyse_play(h.deal, h.trump, h.first, h.play) == list(h.trace)
    assert ddsbind.analyse_play(played=played) == list(h.trace)
    assert ddsbind.costly_cards(played) == costly_cards(h.deal, h.trump, h.first, h.play)
    game = _record(h)
    assert game.card_play == played
    assert analyse_plays([played, (h.deal, h.trump, h.first, h.play)]) == [list(h.trace)] * 2
    assert costly_cards_batch([game.card_play]) == [costly_cards(played)]
    # A play with a trick in progress, as analyse_play took it: the trick's cards come off the deal.
    cards = _cards(h.play)
    after = ddsbind.Deal.from_pbn(h.deal.to_pbn())
    masks = after.remain_cards.astype(int)
    for c in cards[:2]:
        masks[h.deal.holder(c), c.suit] &= ~(1 << c.rank)
    mid = ddsbind.CardPlay(ddsbind.Deal(masks), h.trump, h.first, cards[2:6], current_trick=cards[:2])
    assert ddsbind.analyse_play(mid) == list(h.trace)[2:7] and not mid.from_opening_lead
    with pytest.raises(PlayFaultError, match="full deal"):
        ddsbind.costly_cards(mid)


def test_best_line_of_a_card_play_starts_where_the_play_stands(list100):
    """Without this, best_line of a played deal would restart from the lead instead of continuing from the last card."""
    h = list100[3]
    cards = _cards(h.play)
    played = ddsbind.CardPlay(h.deal, h.trump, h.first, cards[:10])
    table = played.replayed()
    assert (table.trick_number, list(table.current)) == (3, cards[8:10])
    got = best_line(played)
    there = best_line(table.deal(), h.trump, table.leader, current_trick=table.current)
    assert [(t.cards, t.steps) for t in got] == [(t.cards, t.steps) for t in there]
    assert got[0].number == 3 and got[0].cards[:2] == tuple(cards[8:10])
    # Values count for the CardPlay's declarer (the opening leader's right), not the trick leader's right.
    same_side = played.declarer.side == table.leader.next(3).side
    assert [t.value for t in got] == [t.value if same_side else 14 - t.number - t.value for t in there]
    won = sum(1 for t in got if t.winner.side == played.declarer.side)
    assert won == got[0].value
    with pytest.raises(ddsbind.errors.InvalidArgumentError, match="takes no strain"):
        best_line(played, h.trump)


def test_a_passed_out_game_has_no_card_play():
    """Without this, analysing a passed-out game would fail with an unclear error, or analyse nothing silently."""
    game = GameRecord(ddsbind.Deal.random(1), dealer=Seat.N, auction=["Pass"] * 4, contract=PASSED_OUT)
    with pytest.raises(ddsbind.errors.InvalidArgumentError, match="no contract and declarer"):
        _ = game.card_play
