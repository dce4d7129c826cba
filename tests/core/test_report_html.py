"""Notebook output of simulations: a contract report and an opening-lead table as HTML tables, cell by cell."""

from __future__ import annotations

from html.parser import HTMLParser

import numpy as np

from ddsbind.dealer.statistics import LeadTable, results_report
from ddsbind.scoring import Contract


class _Cells(HTMLParser):
    """The text of each table cell, keyed by (table kind, row, column); row labels under column -1."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: dict[tuple[str, int, int], str] = {}
        self.captions: list[str] = []
        self._kind = ""
        self._rows = -1
        self._key: tuple[str, int, int] | None = None
        self._text: list[str] = []
        self._in_body = False

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        if tag == "table":
            self._kind = (values.get("class") or "").removeprefix("ddsbind-")
            self._rows = -2  # the header row comes first
        elif tag == "tr":
            self._rows += 1
        elif tag == "td":
            self._key = (self._kind, int(values["data-row"]), int(values["data-col"]))
            self._text = []
        elif tag == "th" and self._rows >= 0:
            self._key = (self._kind, self._rows, -1)
            self._text = []
        elif tag == "caption":
            self._key = ("caption", 0, 0)
            self._text = []

    def handle_endtag(self, tag):
        if tag in ("td", "th", "caption") and self._key is not None:
            text = "".join(self._text).replace("\xa0", " ")
            if tag == "caption":
                self.captions.append(text)
            else:
                self.cells[self._key] = text
            self._key = None

    def handle_data(self, data):
        if self._key is not None:
            self._text.append(data)


def _cells(html: str) -> _Cells:
    parser = _Cells()
    parser.feed(html)
    return parser


def test_contract_report_html_shows_what_the_text_report_shows():
    """A notebook shows a simulation's make odds, tricks, scores and IMP comparison as the text report prints them."""
    # 4 deals; 3NT by N takes 9, 8, 10, 9 tricks; 4S by N takes 10, 9, 10, 8.
    results = np.array([[9, 10], [8, 9], [10, 10], [9, 8]])
    report = results_report(results, ["3NN", "4SN"], "none")
    text = report.render()
    page = _cells(report._repr_html_())
    assert page.captions[0] == "4 deals"
    assert [page.cells[("contracts", r, -1)] for r in (0, 1)] == [str(c) for c in report.contracts]
    assert page.cells[("contracts", 0, 0)] == "75.00% ± 21.65"  # 3 of 4 make: sqrt(.75 * .25 / 4)
    assert page.cells[("contracts", 1, 0)] == "50.00% ± 25.00"
    assert page.cells[("contracts", 0, 1)] == "9.00" and page.cells[("contracts", 1, 1)] == "9.25"
    for row in (0, 1):
        assert page.cells[("contracts", row, 2)] in text  # mean score, as printed
    (difference,) = report.differences
    assert page.cells[("differences", 0, -1)] == f"{difference['contract']} vs {difference['against']}"
    assert page.cells[("differences", 0, 1)] == f"{difference['imps']:+.2f} ± {difference['imps_se']:.2f}"


def test_contract_report_html_make_or_fail_only():
    """A make-or-fail simulation shows only the make odds in a notebook (no tricks or scores it does not know)."""
    report = results_report(np.array([[1], [0], [1], [1]]), ["3NS"], makes_only=True)
    page = _cells(report._repr_html_())
    assert page.captions == ["4 deals (make or fail only)"]
    assert page.cells[("contracts", 0, 0)] == "75.00% ± 21.65"
    assert ("contracts", 0, 1) not in page.cells


def test_lead_table_html_best_lead_first():
    """A notebook shows the opening leads best first (most sets), with deals held, declarer tricks and set share."""
    table = LeadTable(Contract.parse("3NTS"), 10, ["SA", "HK", "D2"], [10, 4, 6], [9.4, 8.25, 9.0], [0.2, 0.75, 0.5])
    page = _cells(table._repr_html_())
    assert page.captions == ["Opening leads against 3NT by S (10 deals)"]
    assert [page.cells[("leads", r, -1)] for r in range(3)] == ["♥K", "♦2", "♠A"]
    assert [page.cells[("leads", 0, c)] for c in range(3)] == ["4", "8.25", "75.0%"]
    assert [page.cells[("leads", 2, c)] for c in range(3)] == ["10", "9.40", "20.0%"]
