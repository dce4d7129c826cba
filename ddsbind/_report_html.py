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

__all__ = ["contract_report", "lead_table", "page", "session", "single_dummy"]


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


def _bar(value: float, ci: tuple[float, float], low: float, high: float) -> str:
    """A horizontal bar for ``value`` on the scale ``low .. high``, its interval ``ci`` drawn as a whisker over it."""
    span = high - low or 1.0

    def at(x: float) -> float:
        return 0.0 if math.isnan(x) else 100 * min(1.0, max(0.0, (x - low) / span))

    left, right = at(ci[0]), at(ci[1])
    return (
        '<div class="ddsbind-bar" style="position:relative;width:10em;height:0.9em;background:#eee">'
        f'<div style="position:absolute;left:0;top:0;bottom:0;width:{at(value):.1f}%;background:#7a9cc6"></div>'
        f'<div class="ddsbind-interval" style="position:absolute;left:{left:.1f}%;width:{right - left:.1f}%;'
        'top:45%;height:10%;background:#222"></div></div>'
    )


def single_dummy(caption: str, rows: Sequence[Mapping[str, object]], confidence: float) -> str:
    """A single-dummy result as HTML: one row a legal card, its make odds as a bar with the interval as a whisker.

    ``rows`` are :class:`~ddsbind.dealer.single_dummy.SingleDummy`'s cards as plain values: ``card``
    (``"SA"``), ``equals`` (card names), ``makes`` and ``makes_ci`` (fractions), and, when solved,
    ``mean_tricks``, ``vs_best`` and their ``*_ci``.
    """
    with_tricks = any("mean_tricks" in r for r in rows)
    level = f"{100 * confidence:g}%"
    header = ["card", "equals", "makes", f"{level} interval", ""]
    if with_tricks:
        header += ["mean tricks", f"{level} interval", "vs best", f"{level} interval"]
    tricks = [float(r["mean_tricks"]) for r in rows if "mean_tricks" in r]  # type: ignore[arg-type]
    low, high = (math.floor(min(tricks)) - 1, math.ceil(max(tricks)) + 1) if tricks else (0, 13)
    out = []
    for r in rows:
        makes, ci = float(r["makes"]), r["makes_ci"]  # type: ignore[arg-type]
        cells = [
            " ".join(_html.card(str(e)) for e in r["equals"]),  # type: ignore[attr-defined]
            f"{100 * makes:.1f}%",
            f"{100 * ci[0]:.1f}&ndash;{100 * ci[1]:.1f}%",  # type: ignore[index]
            _bar(makes, ci, 0.0, 1.0),  # type: ignore[arg-type]
        ]
        if with_tricks:
            m, mci = float(r["mean_tricks"]), r["mean_tricks_ci"]  # type: ignore[arg-type]
            d, dci = float(r["vs_best"]), r["vs_best_ci"]  # type: ignore[arg-type]
            cells += [
                f"{m:.2f}{_bar(m, mci, low, high)}",  # type: ignore[arg-type]
                f"{mci[0]:.2f}&ndash;{mci[1]:.2f}",  # type: ignore[index]
                f"{d:+.2f}",
                f"{dci[0]:+.2f}&ndash;{dci[1]:+.2f}",  # type: ignore[index]
            ]
        out.append((_html.card(str(r["card"])), cells))
    return _html.grid("single-dummy", header, out, caption)
