"""Proof trees as users meet them: default good guys, a full deal refused at once, --max-nodes, progress, HTML."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from click.testing import CliRunner

import ddsbind
from ddsbind.cli import main
from ddsbind.proof import ESTIMATE_FACTOR, ProofTooLargeError, estimate_size, prove

# The simple squeeze (tests/test_prove.py's SQUEEZE): South to play and make all three tricks in notrump.
SQUEEZE = "N:J.A2.. ..987. .3.2.A Q.KQ.."


def test_default_good_guys_are_the_side_on_lead():
    """The squeeze ending proves 'NS to take 3 of 3', as the problem is set, not 'EW to take 0'."""
    tree = prove(SQUEEZE, "NT", "S")
    assert (tree.goodguys, tree.target) == ("NS", 3)
    result = CliRunner().invoke(main, ["prove", SQUEEZE, "--trump", "NT", "--leader", "S"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("NS to take 3 of 3 tricks against any defence")


def test_a_full_deal_is_refused_before_the_search():
    """A full deal is refused with its estimated size, not after minutes and a gigabyte of search."""
    deal = ddsbind.Deal.random(7)
    assert estimate_size(deal, "NT", "N") > ESTIMATE_FACTOR * 1_000_000
    with pytest.raises(ProofTooLargeError, match=r"13-card ending .* estimated size is [\d.e+]+ nodes"):
        prove(deal, "NT", "N")
    result = CliRunner().invoke(main, ["prove", deal.to_pbn(), "--trump", "NT", "--leader", "N"])
    assert result.exit_code == 1 and "estimated size" in result.output


def test_estimate_is_exact_on_a_one_card_ending_and_reproducible():
    """One card each: 4 turns and the end of play, 5 nodes exactly; the same estimate every time."""
    assert estimate_size("N:A... K... Q... J...", "NT", "N") == 5.0
    assert estimate_size(SQUEEZE, "NT", "S") == estimate_size(SQUEEZE, "NT", "S")


def test_max_nodes_on_the_command_line():
    """--max-nodes bounds the tree from the command line; a bad value is a usage error."""
    args = ["prove", SQUEEZE, "--trump", "NT", "--leader", "S"]
    result = CliRunner().invoke(main, [*args, "--max-nodes", "5"])
    assert result.exit_code == 1 and "max_nodes=5" in result.output
    assert CliRunner().invoke(main, [*args, "--max-nodes", "0"]).exit_code == 2
    assert CliRunner().invoke(main, [*args, "--max-nodes", "100000"]).exit_code == 0


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
