"""HTML for notebooks of reports: a simulation's contract report and lead table, a played session's scores.

The ``_repr_html_`` of :class:`ddsbind.dealer.statistics.ContractReport` and
:class:`~ddsbind.dealer.statistics.LeadTable` call in here with plain
values (contract names, numbers, card names), as the classes of
:mod:`ddsbind._html` do; the tables are :func:`ddsbind._html.grid`'s, with
its ``ddsbind-*`` classes and ``data-row``/``data-col`` cells.  Numbers are
shown as the text report shows them: make odds in percent with their
standard error, tricks to two decimals, scores to one.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape

from ddsbind import _html

__all__ = ["contract_report", "lead_table", "page", "session"]


def _percent(p: float, se: float) -> str:
    return "&ndash;" if math.isnan(p) else f"{100 * p:.2f}%&nbsp;&plusmn;&nbsp;{100 * se:.2f}"


def contract_report(
    contracts: Sequence[str],
    deals: int,
    make: Sequence[float],
    make_se: Sequence[float],
    mean_tricks: Sequence[float],
    mean_score: Sequence[float],
    differences: Sequence[Mapping[str, float | str]],
    makes_only: bool,
) -> str:
    """A contract report as HTML: one row a contract, then one row a comparison with the first contract.

    Parameters are :class:`~ddsbind.dealer.statistics.ContractReport`'s
    fields (``contracts`` as their names): ``make`` and ``make_se`` as
    fractions, ``mean_tricks`` declarer's, ``mean_score`` from declarer's
    side; ``differences`` rows with ``contract``, ``against``, ``score``,
    ``score_se``, ``imps`` and ``imps_se``.
    """
    if makes_only:
        rows = [(escape(c), [_percent(make[i], make_se[i])]) for i, c in enumerate(contracts)]
        return _html.grid("contracts", ["contract", "makes"], rows, f"{deals} deals (make or fail only)")
    rows = [
        (escape(c), [_percent(make[i], make_se[i]), f"{mean_tricks[i]:.2f}", f"{mean_score[i]:.1f}"])
        for i, c in enumerate(contracts)
    ]
    out = _html.grid("contracts", ["contract", "makes", "mean tricks", "mean score"], rows, f"{deals} deals")
    if differences:
        compared = [
            (
                f"{escape(str(d['contract']))} vs {escape(str(d['against']))}",
                [
                    f"{float(d['score']):+.1f}&nbsp;&plusmn;&nbsp;{float(d['score_se']):.1f}",
                    f"{float(d['imps']):+.2f}&nbsp;&plusmn;&nbsp;{float(d['imps_se']):.2f}",
                ],
            )
            for d in differences
        ]
        out += _html.grid("differences", ["", "points a deal", "IMPs a deal"], compared)
    return out


def lead_table(
    contract: str,
    deals: int,
    cards: Sequence[str],
    held: Sequence[int],
    mean_tricks: Sequence[float],
    set_rate: Sequence[float],
) -> str:
    """A lead table as HTML: one row a lead, best first (highest set rate, then fewest declarer tricks).

    Parameters are :class:`~ddsbind.dealer.statistics.LeadTable`'s fields:
    ``cards`` as ``"SA"``, ``held`` the deals where the leader held the card,
    ``set_rate`` a fraction.
    """
    order = sorted(range(len(cards)), key=lambda i: (-set_rate[i], mean_tricks[i]))
    rows = [(_html.card(cards[i]), [str(held[i]), f"{mean_tricks[i]:.2f}", f"{100 * set_rate[i]:.1f}%"]) for i in order]
    caption = f"Opening leads against {contract} ({deals} deals)"
    return _html.grid("leads", ["lead", "deals", "declarer tricks", "set"], rows, caption)


def session(
    header: Sequence[str], rows: Sequence[tuple[str, Sequence[str]]], caption: str, kind: str = "session"
) -> str:
    """A played session's table as HTML (``ddsbind-{kind}``): ``header`` and ``rows`` are text, escaped here."""
    cells = [(escape(label), [escape(c) for c in row]) for label, row in rows]
    return _html.grid(kind, [escape(h) for h in header], cells, caption)


def page(title: str, tables: Sequence[str], boards: Sequence[tuple[str, str, Sequence[tuple[str, str]]]]) -> str:
    """A whole report as one self-contained HTML page (inline styles, no script, nothing fetched).

    ``tables`` are HTML tables (:func:`session`'s) shown first; ``boards`` holds per board its label and a
    line of text (escaped here), then per table of it a heading (text) and the game's HTML
    (:meth:`ddsbind.record.GameRecord.to_html`).
    """
    body = [f"<h1>{escape(title)}</h1>"]
    body += [f'<div style="margin:12px 0">{t}</div>' for t in tables]
    for label, words, games in boards:
        body.append(f'<section class="ddsbind-board"><h2>{escape(label)}</h2><p>{escape(words)}</p>')
        body += [f"<h3>{escape(heading)}</h3>{html}" if heading else html for heading, html in games]
        body.append("</section>")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title></head>"
        '<body style="font-family:sans-serif;margin:16px">' + "".join(body) + "</body></html>\n"
    )
