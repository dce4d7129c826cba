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
from html import escape

from ddsbind._holdings import SUITS

__all__ = ["card", "diagram", "grid", "hands_of_pbn", "suit_symbol"]

_SYMBOLS = ("\u2660", "\u2665", "\u2666", "\u2663")
_COLOURS = ("#000000", "#c8102e", "#c8102e", "#000000")
_TABLE = "border-collapse:collapse;font-family:sans-serif"
_CELL = "border:1px solid #bbb;padding:2px 8px;text-align:center"


def suit_symbol(suit: int) -> str:
    """The suit (0..3: S H D C) as its coloured symbol, a ``<span>``."""
    return f'<span class="ddsbind-suit" style="color:{_COLOURS[suit]}">{_SYMBOLS[suit]}</span>'


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
    body = f"{_SYMBOLS[suit]}{escape(text[1:])}"
    return f'<span style="color:{_COLOURS[suit]}">{body}</span>' if suit in (1, 2) else body


def _hand(seat: str, holdings: Sequence[str]) -> str:
    rows = "".join(
        f'<div data-suit="{SUITS[s]}">{suit_symbol(s)}&nbsp;{escape(h) if h else "&mdash;"}</div>'
        for s, h in enumerate(holdings)
    )
    return f'<td class="ddsbind-hand" data-seat="{seat}" style="padding:4px 10px;vertical-align:top">{rows}</td>'


def hands_of_pbn(pbn: str) -> dict[str, list[str]]:
    """The four hands of a PBN deal string that starts with ``"N:"``, as :func:`diagram` takes them."""
    return dict(zip("NESW", (h.split(".") for h in pbn[2:].split(" ")), strict=True))


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
        '<td style="padding:4px;text-align:center;border:1px solid #bbb;font-family:monospace">'
        "&nbsp;N&nbsp;<br>W&nbsp;&nbsp;E<br>&nbsp;S&nbsp;</td>"
    )
    empty = "<td></td>"
    cap = f"<caption>{escape(caption)}</caption>" if caption else ""
    return (
        f'<table class="ddsbind-deal" style="{_TABLE}">{cap}'
        f"<tr>{empty}{_hand('N', hands['N'])}{empty}</tr>"
        f"<tr>{_hand('W', hands['W'])}{compass}{_hand('E', hands['E'])}</tr>"
        f"<tr>{empty}{_hand('S', hands['S'])}{empty}</tr></table>"
    )


def grid(kind: str, header: Sequence[str], rows: Sequence[tuple[str, Sequence[str]]], caption: str = "") -> str:
    """A table with a header row and labelled rows; ``header`` and cells are HTML, ``caption`` text.

    Each ``<td>`` carries ``data-row`` (its row's index) and ``data-col``
    (its column's index) for tests and styling.
    """
    head = "".join(f'<th style="{_CELL}">{h}</th>' for h in header)
    body = "".join(
        f'<tr><th style="{_CELL}">{label}</th>'
        + "".join(f'<td data-row="{r}" data-col="{c}" style="{_CELL}">{v}</td>' for c, v in enumerate(cells))
        + "</tr>"
        for r, (label, cells) in enumerate(rows)
    )
    cap = f"<caption>{escape(caption)}</caption>" if caption else ""
    return f'<table class="ddsbind-{kind}" style="{_TABLE}">{cap}<tr>{head}</tr>{body}</table>'
