"""Proof trees as users meet them: default good guys, a full deal refused at once, --max-nodes, progress, HTML."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

import ddsbind
from ddsbind.proof import ESTIMATE_FACTOR, ProofTooLargeError, estimate_size, prove
from tests.support import cli

# The simple squeeze (tests/core/test_prove.py's SQUEEZE): South to play and make all three tricks in notrump.
SQUEEZE = "N:J.A2.. ..987. .3.2.A Q.KQ.."


def test_default_good_guys_are_the_side_on_lead():
    """The squeeze ending proves 'NS to take 3 of 3', as the problem is set, not 'EW to take 0'."""
    tree = prove(SQUEEZE, "NT", "S")
    assert (tree.goodguys, tree.target) == ("NS", 3)
    result = cli("prove", SQUEEZE, "--strain", "NT", "--leader", "S")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("NS to take 3 of 3 tricks against any defence")


def test_a_full_deal_is_refused_before_the_search():
    """A full deal is refused with its estimated size, not after minutes and a gigabyte of search."""
    deal = ddsbind.Deal.random(7)
    assert estimate_size(deal, "NT", "N") > ESTIMATE_FACTOR * 1_000_000
    with pytest.raises(ProofTooLargeError, match=r"13-card ending .* estimated size is [\d.e+]+ nodes"):
        prove(deal, "NT", "N")
    result = cli("prove", deal.to_pbn(), "--strain", "NT", "--leader", "N")
    assert result.exit_code == 1 and "estimated size" in result.output


def test_estimate_is_exact_on_a_one_card_ending_and_reproducible():
    """One card each: 4 turns and the end of play, 5 nodes exactly; the same estimate every time."""
    assert estimate_size("N:A... K... Q... J...", "NT", "N") == 5.0
    assert estimate_size(SQUEEZE, "NT", "S") == estimate_size(SQUEEZE, "NT", "S")


def test_max_nodes_on_the_command_line():
    """--max-nodes bounds the tree from the command line; a bad value is a usage error."""
    args = ["prove", SQUEEZE, "--strain", "NT", "--leader", "S"]
    result = cli(*args, "--max-nodes", "5")
    assert result.exit_code == 1 and "max_nodes=5" in result.output
    assert cli(*args, "--max-nodes", "0").exit_code == 2
    assert cli(*args, "--max-nodes", "100000").exit_code == 0


def test_progress_counts_the_nodes_built():
    """The progress callback sees the nodes as they are built, in steps of 1,000, never more than the tree."""
    deal = "N:3.K.Q54. AQ.T.J2. K76.Q..4 .82.3.63"  # 5 cards a hand, 1207 nodes
    seen: list[int] = []
    tree = prove(deal, "NT", "N", progress=seen.append)
    assert all(step == 1000 for step in seen)
    assert sum(seen) <= tree.size < sum(seen) + 1000


class _Tricks(HTMLParser):
    """Each ``data-trick`` element's own line (a <details>' summary, or the <li>'s text) and whether it is open."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, dict[str, str | None]]] = []
        self.lines: dict[str, str] = {}
        self.opened: dict[str, bool] = {}
        self._target: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.stack.append((tag, a))
        if "data-trick" in a:
            label = a["data-trick"] or ""
            self.opened[label] = "open" in a
            self.lines[label] = ""
            self._target = label if tag == "li" else None
        if tag == "details":
            self._target = None
        if tag == "summary":
            parent = self.stack[-2][1]
            self._target = parent.get("data-trick")

    def handle_endtag(self, tag):
        t, _ = self.stack.pop()
        if t in ("summary", "li"):
            self._target = None

    def handle_data(self, data):
        if self._target is not None:
            self.lines[self._target] += data


def test_proof_html_is_one_line_a_trick_folded_below_the_first_level():
    """The HTML shows a trick a line (4 cards, winner), the first level open and the rest folded."""
    tree = prove(SQUEEZE, "NT", "S")
    page = _Tricks()
    page.feed(tree._repr_html_())
    # S CA, W SQ, N H2, E D9 (= D8 D7): S wins; as to_text() writes "11a: S CA, W SQ, N H2, E D9(=D8,D7); S wins".
    assert page.lines["11a"] == "11a: S\xa0\u2663A, W\xa0\u2660Q, N\xa0\u26652, E\xa0\u26669(=\u26668\u26667); S wins"
    folded = {"11a.12": False, "11a.12.13": False, "11b.12": False, "11b.12.13": False}
    assert page.opened == {"11a": True, "11b": True, **folded}
    text = {line.strip().split(": ", 1)[0]: line.strip() for line in tree.to_text().splitlines()[2:]}
    assert set(page.lines) == set(text)
    for label, line in page.lines.items():
        assert line.count(",") == 3, line  # four cards
        assert line.split("; ")[1] == text[label].split("; ")[1]  # the same winner as the text form
        depth = label.count(".")
        if label in page.opened:
            assert page.opened[label] == (depth == 0 and any(k.startswith(label + ".") for k in text))


# -- played games, par and costly cards in notebooks ---------------------------------------------


class _Page(HTMLParser):
    """Every element with data-* attributes: its attributes, text and style; and every cell's style."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[tuple[str, dict[str, str | None], list[str]]] = []
        self.found: list[tuple[dict[str, str | None], str]] = []
        self.cell_styles: list[str] = []
        self.table_styles: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("td", "th"):
            self.cell_styles.append(a.get("style") or "")
        if tag == "table":
            self.table_styles.append(a.get("style") or "")
        self.open.append((tag, a, []))

    def handle_endtag(self, tag):
        _, a, text = self.open.pop()
        joined = "".join(text)
        if any(k.startswith("data-") for k in a):
            self.found.append((a, joined))
        if self.open:
            self.open[-1][2].append(joined)

    def handle_data(self, data):
        if self.open:
            self.open[-1][2].append(data)

    def with_attr(self, name: str) -> dict[str, str]:
        return {a[name] or "": text for a, text in self.found if name in a}


def _game(h, board: int):
    from ddsbind.formats import GameRecord

    declarer = ddsbind.Seat((h.first + 3) % 4)
    strain = ddsbind.Strain(h.trump)
    return GameRecord(
        deal=h.deal,
        dealer=ddsbind.Seat((board - 1) % 4),
        vulnerable="NS",
        board=board,
        auction=["Pass"] * ((declarer - (board - 1)) % 4) + [f"1{strain}", "X", "Pass", "Pass", "Pass"],
        contract=f"1{strain}X",
        declarer=declarer,
        result=h.trace[-1],
        play=[ddsbind.Card.parse(h.play[i : i + 2]) for i in range(0, len(h.play), 2)],
    )


SYMBOLS = dict(zip("SHDC", "\u2660\u2665\u2666\u2663", strict=True))


def _shown(card: str) -> str:
    return SYMBOLS[card[0]] + card[1:]


def test_game_html_shows_diagram_auction_play_and_dd_with_costly_cards_marked(list100):
    """A played game in a notebook: every card under its player, trick by trick, DD after each, costly ones marked."""
    from ddsbind.play import analyse_game

    h = next(h for h in list100 if len(h.play) == 104 and ddsbind.costly_cards(h.deal, h.trump, h.first, h.play))
    game = _game(h, 3)
    analysis = analyse_game(game)
    assert analysis.trace == ddsbind.analyse_play(h.deal, h.trump, h.first, h.play)
    assert analysis.dd_result == h.trace[0]
    html = analysis._repr_html_()
    page = _Page()
    page.feed(html)
    # The diagram: each hand's cell holds its suits' ranks.
    hands = {a["data-seat"]: text for a, text in page.found if a.get("class") == "ddsbind-hand"}
    for seat in ddsbind.Seat:
        for suit in range(4):
            ranks = "".join(str(c)[1] for c in game.deal.hand(seat) if c.suit == suit)
            assert SYMBOLS["SHDC"[suit]] + "\xa0" + (ranks or "\u2014") in hands[seat.name]
    # The auction: each call in its cell, in order.
    calls = page.with_attr("data-call")
    assert [calls[str(i)] for i in range(len(game.auction))] == [
        c if c in ("Pass", "X") else c[0] + ("NT" if c[1:] == "NT" else SYMBOLS[c[1]]) for c in map(str, game.auction)
    ]
    # The play: card i of the play carries data-play i, in the cell of the seat that played it.
    plays = page.with_attr("data-play")
    assert [plays[str(i)] for i in range(52)] == [_shown(str(c)) for c in game.play]
    play_cells = [(a["data-seat"], text) for a, text in page.found if "data-seat" in a and a.get("class") is None]
    tricks = game.tricks()
    assert len(play_cells) == 52
    for k, (seat, text) in enumerate(play_cells):
        t = tricks[k // 4]
        k_in_trick = next(j for j in range(4) if t.leader.next(j).name == seat)
        assert text.split("\u2212")[0] == _shown(str(t.cards[k_in_trick]))
    rows = [text for a, text in page.found if "data-trick" in a]
    assert len(rows) == 13
    for row, t, after in zip(rows, tricks, range(4, 53, 4), strict=True):
        dd = analysis.trace[min(after, len(analysis.trace) - 1)]  # DDS's trace stops before the forced last trick
        assert row.endswith(f"{t.winner.name}{dd}")  # the winner, then declarer's DD tricks
    # Costly cards: exactly costly_cards' cards are marked, with their cost.
    marked = [(a["data-cost"], text) for a, text in page.found if "data-cost" in a]
    want = ddsbind.costly_cards(h.deal, h.trump, h.first, h.play)
    assert [(int(cost), text.split("\u2212")[0]) for cost, text in marked] == [
        (c.cost, _shown(str(c.card))) for c in want
    ]
    # The result line: contract, declarer, tricks and score, and the double-dummy result.
    assert f"{game.contract} by {game.declarer}: {h.trace[-1]} tricks, {game.score():+d}" in html
    assert f"double dummy {h.trace[0]} tricks" in html


def test_notebook_tables_fix_alignment_against_notebook_css(list100):
    """Every cell says its own alignment and background, every table its margin: JupyterLab's CSS cannot move them."""
    from ddsbind.play import analyse_game

    h = next(h for h in list100 if len(h.play) == 104)
    page = _Page()
    page.feed(analyse_game(_game(h, 1))._repr_html_())
    page.feed(h.deal._repr_html_())
    assert page.cell_styles and all("text-align:" in s and "background:" in s for s in page.cell_styles)
    assert all("margin:0" in s for s in page.table_styles)
    hands = [s for s in page.cell_styles if "width:8em" in s]  # the diagram's hand cells
    assert hands and all("text-align:left" in s for s in hands)


def test_par_and_costly_cards_have_html(list100):
    """Par and costly cards show as tables in notebooks, cell by cell what the text says."""
    h = list100[0]
    p = ddsbind.par(ddsbind.dd_table(h.deal), "none")
    page = _Page()
    page.feed(p._repr_html_())
    cells = {(a["data-row"], a["data-col"]): text for a, text in page.found if "data-row" in a}
    assert cells[("0", "0")] == p.score_text[0] and cells[("0", "1")] == p.contracts[0]
    assert cells[("0", "2")] == p.words("NS") and cells[("1", "2")] == p.words("EW")
    h = next(h for h in list100 if len(h.play) == 104 and ddsbind.costly_cards(h.deal, h.trump, h.first, h.play))
    costly = ddsbind.costly_cards(h.deal, h.trump, h.first, h.play)
    page = _Page()
    page.feed(costly._repr_html_())
    cells = {(a["data-row"], a["data-col"]): text for a, text in page.found if "data-row" in a}
    for r, c in enumerate(costly):
        assert cells[(str(r), "0")] == c.seat.name
        assert cells[(str(r), "1")] == _shown(str(c.card))
        assert cells[(str(r), "2")] == str(c.cost)
        assert cells[(str(r), "3")] == " ".join(_shown(str(b)) for b in c.better)
