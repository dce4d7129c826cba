"""Notebook output: the HTML of Deal, DDTable, Solutions and best lines, parsed and checked cell by cell."""

from __future__ import annotations

from html.parser import HTMLParser

import ddsbind
from ddsbind.deal import SUITS, Deal, Seat
from ddsbind.play import BestLine, LineTrick

# list100's first hand (DDS's hands/list100.txt): TABLE 5 8 5 8 6 6 6 6 5 7 5 7 7 5 7 5 6 6 6 6.
PBN = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"
SYMBOLS = dict(zip("SHDC", "♠♥♦♣", strict=True))


class _Cells(HTMLParser):
    """Collects the text of every element with a ``data-*`` attribute, keyed by those attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[tuple[tuple[tuple[str, str], ...], list[str]]] = []
        self.found: dict[tuple[tuple[str, str], ...], str] = {}
        self.styles: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.styles += [v for k, v in attrs if k == "style" and v]
        data = tuple((k, v) for k, v in attrs if k.startswith("data-"))
        self.open.append((data, []))

    def handle_endtag(self, tag):
        data, text = self.open.pop()
        joined = "".join(text)
        if data:
            self.found[data] = joined
        if self.open:
            self.open[-1][1].append(joined)

    def handle_data(self, data):
        if self.open:
            self.open[-1][1].append(data)


def _parse(html: str) -> _Cells:
    p = _Cells()
    p.feed(html)
    p.close()
    return p


def test_deal_html_puts_each_card_in_its_hand():
    """Without this, a notebook's diagram could show a card in the wrong hand or lose the suit symbols."""
    deal = Deal.from_pbn(PBN)
    cells = _parse(deal._repr_html_())
    for seat in Seat:
        text = cells.found[(("data-seat", seat.name),)]
        for s, letter in enumerate(SUITS):
            ranks = "".join(str(c)[1] for c in deal.hand(seat) if c.suit == s)
            assert f"{SYMBOLS[letter]}\xa0{ranks or '—'}" in text
    assert any("#c8102e" in s for s in cells.styles)  # red hearts and diamonds
    assert repr(deal) == f"Deal.from_pbn({PBN!r})" and str(deal) == PBN


def test_ddtable_html_numbers_in_their_cells():
    """Without this, a notebook's DD table could put a strain's tricks under the wrong declarer."""
    table = ddsbind.dd_table(PBN)
    cells = _parse(table._repr_html_())
    order = ("NT", "S", "H", "D", "C")
    for r, strain in enumerate(order):
        for c, seat in enumerate("NESW"):
            assert cells.found[(("data-row", str(r)), ("data-col", str(c)))] == str(table[strain, seat])
    assert str(table).splitlines()[0] == "      N   E   S   W"


def test_solutions_html_lists_cards_and_scores():
    """Without this, a notebook would show solve_board's cards without their scores."""
    sol = ddsbind.solve_board(PBN, "S", "N")
    cells = _parse(sol._repr_html_())
    for r, sc in enumerate(sol):
        assert cells.found[(("data-row", str(r)), ("data-col", "0"))] == str(sc.score)
        eq = cells.found[(("data-row", str(r)), ("data-col", "1"))]
        assert eq.split() == [SYMBOLS[str(e)[0]] + str(e)[1] for e in sc.equals]


def test_best_line_is_a_list_with_html():
    """Without this, a notebook would print a best line as a wall of dataclasses, or callers get a non-list."""
    line = ddsbind.best_line("N:AK... 2.2.. QJ... 3.3..", "NT", "N")
    assert isinstance(line, BestLine) and isinstance(line, list)
    assert all(isinstance(t, LineTrick) for t in line) and len(line) == 2
    assert repr(line).startswith("[LineTrick(")
    cells = _parse(line._repr_html_())
    for r, t in enumerate(line):
        assert cells.found[(("data-row", str(r)), ("data-col", "0"))] == t.leader.name
        played = cells.found[(("data-row", str(r)), ("data-col", "1"))].split()
        assert played == [SYMBOLS[str(c)[0]] + str(c)[1] for c in t.cards]
        assert cells.found[(("data-row", str(r)), ("data-col", "2"))] == t.winner.name
        assert cells.found[(("data-row", str(r)), ("data-col", "3"))] == str(t.value)


def test_proof_tree_html_shows_every_trick_and_reference():
    """Without this, a proof tree in a notebook could drop a defence or a repeated position."""
    tree = ddsbind.prove("N:J.A2.. ..987. .3.2.A Q.KQ..", "NT", "S", goodguys="NS")
    page = _Cells()
    page.feed(tree._repr_html_())
    tricks = {v: text for attrs, text in page.found.items() for k, v in attrs if k == "data-trick"}
    refs = {v for attrs in page.found for k, v in attrs if k == "data-ref"}
    # The text form lists every trick from every position once, labelled; the HTML has the same tricks.
    lines = tree.to_text().splitlines()[2:]
    labels = [line.strip().split(":")[0] for line in lines]
    assert sorted(tricks) == sorted(labels)
    assert refs == {line.rsplit("as after ", 1)[1] for line in lines if "as after" in line}
    for line, label in zip(lines, labels, strict=True):
        winner = line.split("; ")[1]
        assert winner in tricks[label], (label, tricks[label])
    hands = {v: text for attrs, text in page.found.items() for k, v in attrs if k == "data-seat"}
    assert hands["S"].startswith(f"{SYMBOLS['S']}") and "A" in hands["S"]
