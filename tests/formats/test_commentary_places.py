"""PBN commentary stays at its call or card (issue 35): read into GameRecord.commentary_at, written back there.

The corpus file ``tests/data/records/commentary_places.pbn`` is a teacher's
annotated lesson file (NOTES.md): ``{...}`` and ``;`` commentary between the
calls of the Auction section and the cards of the Play section, and the
game's own commentary among its tags.
"""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddsbind.deal import Card
from ddsbind.formats.lin import format_lin, parse_lin
from ddsbind.formats.pbngame import dump_games, format_games, parse_games

RECORDS = Path(__file__).resolve().parents[1] / "data" / "records"
LESSON = RECORDS / "commentary_places.pbn"


def _anew(games):
    """The records as if made in memory: written from their fields, not from the text they were read from."""
    for g in games:
        g.source = None
    return games


def _placed(g) -> list[tuple[str, int | None]]:
    return list(zip(g.commentary, g.commentary_places(), strict=True))


def test_lesson_file_commentary_stands_at_its_call_and_card():
    """Without this, a teacher's comment on a call or a card moves to the end of the game when the file is read."""
    data = LESSON.read_bytes()
    b1, b2 = parse_games(data, name=LESSON.name)
    after = {c: len(b1.auction) + b1.play.index(Card.parse(c)) + 1 for c in ("CA", "HJ", "D2", "SJ")}
    assert _placed(b1) == [
        ("15-17", 1),  # after 1NT
        ("Stayman", 4),  # a `;` remark at the end of the first auction line
        ("East could double 2C.", 6),
        ("The auction is over.", 10),
        ("East leads from three small.", 10),  # before the Play section's first card
        ("West takes the ace at once.", after["CA"]),
        ("The queen falls: a trump trick for East?", after["HJ"]),  # at a row's end: after that seat's card
        ("A second\nline of commentary.", after["D2"]),
        ("One down.", after["SJ"]),
        ("After the play: draw trumps first next time.", after["SJ"]),
        ("Lesson 4: the play at trick one", None),  # before the game's first tag: the game's own
        ("North opens a weak notrump here.", None),  # among the tags
    ]
    assert _placed(b2) == [
        ("East passes with 11 points.", 0),
        ("takeout", 3),
        ("Declarer finesses in diamonds.", len(b2.auction) + b2.play.index(Card.parse("D9")) + 1),
    ]
    assert dump_games([b1, b2]) == data  # unchanged records: byte for byte


def test_lesson_file_written_anew_and_through_lin_keeps_every_place():
    """Without this, a record edited (or converted from LIN and back) loses where each comment was written."""
    games = parse_games(LESSON.read_bytes())
    again = parse_games(format_games(_anew(parse_games(LESSON.read_bytes()))))
    assert [_placed(g) for g in again] == [_placed(g) for g in games]
    line = next(x for x in format_lin(games).splitlines() if "md|" in x)  # the first board (after the event's vg|)
    assert re.search(r"mb\|1N\|nt\|15-17\|mb\|p\|", line)
    assert re.search(r"pc\|CA\|nt\|West takes the ace at once\.\|", line)
    back = parse_lin(format_lin(games))
    for g, lin in zip(games, back, strict=True):
        actions = len(g.auction) + len(g.play)
        # LIN has no "the game's own": those come back after the last card
        assert _placed(lin) == [(t, actions if at is None else at) for t, at in _placed(g)]


_TEXT = st.text(alphabet=st.sampled_from(list("ab ZQ.,;:!?'\"-[]%#=*♠é\n")), max_size=12)


@st.composite
def _commented(draw):
    """A corpus record (with play, a play cut short, or only an auction) and commentary at random places."""
    g = parse_games(LESSON.read_bytes())[draw(st.integers(0, 1))]
    if draw(st.booleans()):
        g.play, g.play_marks, g.card_notes, g.result = [], [], {}, None
    actions = len(g.auction) + len(g.play)
    items = draw(st.lists(st.tuples(_TEXT, st.one_of(st.none(), st.integers(0, actions))), max_size=6))
    placed = sorted(((t, a) for t, a in items if a is not None), key=lambda item: item[1])
    g.commentary = [t for t, _ in placed] + [t for t, a in items if a is None]
    g.commentary_at = [a for _, a in placed]
    g.source = None
    return g


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_commented())
def test_commentary_at_any_place_round_trips_through_pbn_and_lin(g):
    """Without this, a comment at some call or card (first, last, mid-trick, end of play) would move when written."""
    (back,) = parse_games(format_games([g]))
    assert (back.commentary, back.commentary_at) == (g.commentary, g.commentary_at)
    if not any("\n" in t for t in g.commentary):  # a LIN value is one line
        (lin,) = parse_lin(format_lin([g]))
        actions = len(g.auction) + len(g.play)
        assert _placed(lin) == [(t, actions if at is None else at) for t, at in _placed(g)]


#: Board 2 of club_handrecord.pbn (its `#` tags and closing commentary left out): eight calls, a whole play.
_CLUB = [
    line
    for line in (RECORDS / "club_handrecord.pbn").read_text(encoding="latin-1").split("\n\n")[2].split("\n")
    if '"#"' not in line and not line.startswith("{")
]


@st.composite
def _club_with_comments(draw):
    """Board 2's text with `{n}` written after random tokens of its Auction and Play sections; where each stands."""
    a = next(i for i, x in enumerate(_CLUB) if x.startswith("[Auction "))
    p = next(i for i, x in enumerate(_CLUB) if x.startswith("[Play "))
    lines = list(_CLUB)
    spots = []
    for tag, lo, hi in (("Auction", a + 1, p), ("Play", p + 1, len(lines))):
        rows = [lines[i].split() for i in range(lo, hi)]
        where = [(r, c) for r, row in enumerate(rows) for c in range(len(row))]
        chosen = sorted(draw(st.sets(st.integers(0, len(where)), max_size=4)))
        labels = {k: len(spots) + n for n, k in enumerate(chosen)}
        spots += [(tag, k) for k in chosen]
        for k in reversed(chosen):  # from the last, so the earlier positions stay where they were
            if k == 0:
                rows[0][0] = f"{{{labels[k]}}} {rows[0][0]}"
            else:
                r, c = where[k - 1]
                rows[r][c] += f" {{{labels[k]}}}"
        lines[lo:hi] = [" ".join(row) for row in rows]
    return "\n".join(lines) + "\n", spots


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_club_with_comments())
def test_comment_written_after_any_token_stands_after_that_call_or_card(case):
    """Without this, a comment a program wrote after some call or card would be read at another one (or lost)."""
    text, spots = case
    (g,) = parse_games(text)
    calls = len(g.auction)
    play_tokens = [t for t in text.split("[Play ")[1].split("\n", 1)[1].split() if not t.startswith("{")]
    want = []
    for n, (tag, k) in enumerate(spots):
        if tag == "Auction":
            want.append((str(n), k))  # no AP, no notes: after k tokens, after k calls
        else:  # after the card written just before it, in play order (found by the card, not the row's column)
            want.append((str(n), calls + (0 if k == 0 else g.play.index(Card.parse(play_tokens[k - 1])) + 1)))
    assert sorted(_placed(g), key=lambda item: (item[1], int(item[0]))) == sorted(
        want, key=lambda item: (item[1], int(item[0]))
    )
    assert format_games([g]) == text
    (again,) = parse_games(format_games(_anew([g])))
    assert _placed(again) == _placed(g)
