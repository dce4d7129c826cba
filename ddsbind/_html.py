"""HTML for notebooks: the pieces of the ``_repr_html_`` methods of ``Deal``, ``DDTable``, ``Solutions`` and best lines.

Plain strings in, HTML out; nothing here knows ddsbind's classes (they call
in), so the classes' modules import this one and never the other way round.
Suits are shown as symbols (spades, hearts, diamonds, clubs), hearts and
diamonds in red.  Every element carries a ``ddsbind-*`` class (and ``data-``
attributes naming the seat, strain or card) so that a page can style it and
a test can find it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ddsbind._holdings import SEAT_LETTERS, SUIT_SYMBOLS, SUITS

__all__ = ["auction", "card", "diagram", "grid", "hands_of_pbn", "short_card", "suit_symbol"]


def escape(text: str, quote: bool = True) -> str:
    """:func:`html.escape`, imported on first use: ``html`` loads its entity table (a few ms of every start-up)."""
    import html

    return html.escape(text, quote)


_COLOURS = ("#000000", "#c8102e", "#c8102e", "#000000")
# Every table sets what notebook style sheets change (JupyterLab right-aligns cells, stripes rows, centres
# tables, caps widths): inline styles beat a style sheet's class rules, so the layout is the same everywhere.
_TABLE = (
    "border-collapse:collapse;font-family:sans-serif;margin:0;width:auto;table-layout:auto;"
    "background:transparent;color:inherit;font-size:inherit"
)
_CELL = "border:1px solid #bbb;padding:2px 8px;text-align:center;background:transparent;vertical-align:middle"
_BARE = "border:none;padding:0;background:transparent"
_HAND = (
    "border:none;padding:4px 10px;vertical-align:top;text-align:left;white-space:nowrap;"
    "background:transparent;width:8em;min-width:8em;font-family:sans-serif;line-height:1.3"
)
_ROW = '<tr style="background:transparent">'
_CAPTION = "text-align:left;caption-side:top;padding:2px;white-space:nowrap"
_DIAGRAM = (
    "border-collapse:collapse;border:none;margin:0;table-layout:fixed;width:auto;background:transparent;"
    "color:inherit;font-size:inherit"
)


def suit_symbol(suit: int) -> str:
    """The suit (0..3: S H D C) as its coloured symbol, a ``<span>``."""
    return f'<span class="ddsbind-suit" style="color:{_COLOURS[suit]}">{SUIT_SYMBOLS[suit]}</span>'


def strain_label(strain: int) -> str:
    """A strain (0..3 suits, 4 notrump) as its coloured symbol or ``NT``."""
    return suit_symbol(strain) if strain < 4 else "NT"


def card(text: str) -> str:
    """A card written ``"SA"``, ``"HT"`` as symbol and rank, a ``<span data-card>``."""
    symbol = suit_symbol(SUITS.index(text[0]))
    return f'<span class="ddsbind-card" data-card="{escape(text)}">{symbol}{escape(text[1:])}</span>'


def short_card(text: str) -> str:
    """A card written ``"SA"`` as symbol and rank in the fewest bytes (red hearts and diamonds), for large trees."""
    suit = SUITS.index(text[0])
    body = f"{SUIT_SYMBOLS[suit]}{escape(text[1:])}"
    return f'<span style="color:{_COLOURS[suit]}">{body}</span>' if suit in (1, 2) else body


def _hand(seat: str, holdings: Sequence[str]) -> str:
    rows = "".join(
        f'<div data-suit="{SUITS[s]}">{suit_symbol(s)}&nbsp;{escape(h) if h else "&mdash;"}</div>'
        for s, h in enumerate(holdings)
    )
    return f'<td class="ddsbind-hand" data-seat="{seat}" style="{_HAND}">{rows}</td>'


def hands_of_pbn(pbn: str) -> dict[str, list[str]]:
    """The four hands of a PBN deal string that starts with ``"N:"``, as :func:`diagram` takes them."""
    return dict(zip(SEAT_LETTERS, (h.split(".") for h in pbn[2:].split(" ")), strict=True))


def diagram(hands: Mapping[str, Sequence[str]], caption: str = "") -> str:
    """A bridge diagram: North on top, West left, East right, South below.

    Parameters
    ----------
    hands : dict
        Seat letter (``"N" "E" "S" "W"``) -> four holdings (spades, hearts,
        diamonds, clubs; ranks as text, high to low; empty for a void).
    caption : str
        Shown above the diagram (escaped).
    """
    compass = (
        '<td style="padding:4px;text-align:center;vertical-align:middle;border:1px solid #bbb;'
        'font-family:monospace;background:transparent;width:4em;white-space:nowrap">'
        "&nbsp;N&nbsp;<br>W&nbsp;&nbsp;E<br>&nbsp;S&nbsp;</td>"
    )
    empty = f'<td style="{_HAND}"></td>'
    # Above the table, not a <caption>: a caption is as wide as its table, and wraps there.
    cap = f'<div class="ddsbind-caption" style="{_CAPTION}">{escape(caption)}</div>' if caption else ""
    row = _ROW
    return (
        f'{cap}<table class="ddsbind-deal" style="{_DIAGRAM}">'
        f"{row}{empty}{_hand('N', hands['N'])}{empty}</tr>"
        f"{row}{_hand('W', hands['W'])}{compass}{_hand('E', hands['E'])}</tr>"
        f"{row}{empty}{_hand('S', hands['S'])}{empty}</tr></table>"
    )


def hand(holdings: Sequence[str], caption: str = "") -> str:
    """One hand on its own: its four holdings (spades first, ranks as text, empty for a void) under ``caption``."""
    cap = f'<div class="ddsbind-caption" style="{_CAPTION}">{escape(caption)}</div>' if caption else ""
    return f'{cap}<table class="ddsbind-deal" style="{_DIAGRAM}">{_ROW}{_hand("", holdings)}</tr></table>'


def grid(kind: str, header: Sequence[str], rows: Sequence[tuple[str, Sequence[str]]], caption: str = "") -> str:
    """A table with a header row and labelled rows; ``header`` and cells are HTML, ``caption`` text.

    Each ``<td>`` carries ``data-row`` (its row's index) and ``data-col``
    (its column's index) for tests and styling.
    """
    head = "".join(f'<th style="{_CELL}">{h}</th>' for h in header)
    body = "".join(
        f'<tr style="background:transparent"><th style="{_CELL}">{label}</th>'
        + "".join(f'<td data-row="{r}" data-col="{c}" style="{_CELL}">{v}</td>' for c, v in enumerate(cells))
        + "</tr>"
        for r, (label, cells) in enumerate(rows)
    )
    cap = f'<caption style="{_CAPTION}">{escape(caption)}</caption>' if caption else ""
    return f'<table class="ddsbind-{kind}" style="{_TABLE}">{cap}{_ROW}{head}</tr>{body}</table>'


def call(text: str) -> str:
    """A call of an auction as PBN spells it: ``"1S"`` with its suit symbol; ``"2NT"``, ``"Pass"``, ``"X"`` as they are.

    The calls come read (:meth:`ddsbind.scoring.Call.parse`, through the
    record's formats); this only draws a suit bid's symbol.
    """
    level, strain = text[:1], text[1:].upper()
    if level in "1234567" and level and len(strain) == 1 and strain in SUITS:
        return level + suit_symbol(SUITS.index(strain))
    return escape(text)


def auction(calls: Sequence[str], dealer: int) -> str:
    """An auction as a table with columns W N E S (the usual order), the dealer's column first used.

    ``dealer`` is a DDS seat (0=N 1=E 2=S 3=W); each call's cell carries ``data-call`` (its 0-based index).
    """
    column = {3: 0, 0: 1, 1: 2, 2: 3}[dealer]
    cells = [""] * column + [f'<span data-call="{i}">{call(c)}</span>' for i, c in enumerate(calls)]
    rows = [cells[k : k + 4] for k in range(0, len(cells), 4)] or [[]]
    body = "".join(
        '<tr style="background:transparent">'
        + "".join(f'<td style="{_CELL}">{c}</td>' for c in row + [""] * (4 - len(row)))
        + "</tr>"
        for row in rows
    )
    head = "".join(f'<th style="{_CELL}">{seat}</th>' for seat in "WNES")
    return (
        f'<table class="ddsbind-auction" style="{_TABLE}"><tr style="background:transparent">{head}</tr>{body}</table>'
    )


def play_table(
    tricks: Sequence[tuple[int, int, Sequence[tuple[int, str, int]], int | None, int | None]],
    costly: Mapping[int, tuple[int, Sequence[str]]] | None = None,
    dd_label: str = "",
) -> str:
    """The play, a row a trick: each card under its seat (N E S W), the lead underlined, the winner, DD tricks.

    ``tricks`` holds ``(number, leader seat, [(seat, card "SA", play index)...], winner seat or None,
    declarer's DD tricks after the trick or None)``; seats are DDS's 0..3.  ``costly`` maps a play
    index to ``(tricks it cost, better cards)``: that card's cell is marked (pink, ``data-cost``, a
    tooltip naming the better cards).  Each card carries ``data-play`` (its index in the play).
    """
    costly = costly or {}
    with_dd = any(t[4] is not None for t in tricks)
    header = ["trick", *SEAT_LETTERS, "won"] + ([dd_label or "DD"] if with_dd else [])
    head = "".join(f'<th style="{_CELL}">{h}</th>' for h in header)
    body = []
    for number, leader, cards, winner, dd in tricks:
        cells = [""] * 4
        styles = [_CELL] * 4
        for seat, text, index in cards:
            shown = card(text).replace("<span ", f'<span data-play="{index}" ', 1)
            if seat == leader:
                shown = f'<span style="text-decoration:underline">{shown}</span>'
            if index in costly:
                cost, better = costly[index]
                tip = escape(f"cost {cost} trick{'s' if cost > 1 else ''}; better: {' '.join(better)}", quote=True)
                shown = f'<span data-cost="{cost}" title="{tip}">{shown}<sup>&minus;{cost}</sup></span>'
                styles[seat] = _CELL.replace("background:transparent", "background:#ffd7d7")
            cells[seat] = shown
        row = [f'<td style="{_CELL}">{number}</td>']
        row += [f'<td data-seat="{SEAT_LETTERS[k]}" style="{styles[k]}">{cells[k]}</td>' for k in range(4)]
        row.append(f'<td style="{_CELL}">{SEAT_LETTERS[winner] if winner is not None else ""}</td>')
        if with_dd:
            row.append(f'<td style="{_CELL}">{"" if dd is None else dd}</td>')
        body.append(f'<tr data-trick="{number}" style="background:transparent">{"".join(row)}</tr>')
    return f'<table class="ddsbind-play" style="{_TABLE}">{_ROW}{head}</tr>{"".join(body)}</table>'


def game(diagram_html: str, auction_html: str, play_html: str, result: str) -> str:
    """A played game: diagram and auction side by side, the result line, then the play."""
    cell = "border:none;padding:0 16px 0 0;vertical-align:top;text-align:left;background:transparent"
    top = (
        f'<table style="{_DIAGRAM}">{_ROW}<td style="{cell}">{diagram_html}</td>'
        f'<td style="{cell}">{auction_html}</td></tr></table>'
    )
    return (
        f'<div class="ddsbind-game" style="text-align:left">{top}'
        f'<p class="ddsbind-result" style="margin:6px 0;text-align:left">{escape(result)}</p>{play_html}</div>'
    )
