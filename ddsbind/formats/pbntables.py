r"""PBN's double-dummy result tags (``DoubleDummyTricks``, ``OptimumResultTable``, ``Ability``) and par's, compared.

The layouts, their sources and our readings are :mod:`ddsbind.formats.pbn`'s
docstring; this module holds the tags' codecs, which
:mod:`ddsbind.formats.pbn` re-exports.  Tables are DDS order ``(5, 4)``
uint8, strains S H D C NT, hands N E S W, 15 = unknown.
"""

from __future__ import annotations

import re

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ddsbind.deal import SEAT_LETTERS, Strain
from ddsbind.errors import FormatError
from ddsbind.formats import _dtypes, order

__all__ = [
    "Verbatim",
    "format_double_dummy_tricks",
    "optimum_header",
    "par_agrees",
    "parse_ability",
    "parse_double_dummy_tricks",
]

#: The order of the result tags' strains, NT S H D C (Pavlicek's order).
_RESULT_STRAINS = [int(s) for s in order.dds_strains(np.arange(5))]
#: (DDS strain, DDS seat) of each DoubleDummyTricks digit: declarers N S E W, each NT S H D C.
_DDT_CELLS = tuple((s, SEAT_LETTERS.index(d)) for d in "NSEW" for s in _RESULT_STRAINS)


def parse_double_dummy_tricks(text: str) -> NDArray[np.uint8]:
    """A ``DoubleDummyTricks`` value (20 hex digits, N S E W x NT S H D C) to a DDS ``(5, 4)`` table."""
    s = text.strip()
    if len(s) != 20:
        raise FormatError(f"DoubleDummyTricks {text!r} must be 20 hex digits")
    table = np.full((5, 4), _dtypes.UNKNOWN, dtype=np.uint8)
    for (strain, seat), ch in zip(_DDT_CELLS, s, strict=True):
        if ch not in "-*":
            table[strain, seat] = _hex_tricks(ch, f"DoubleDummyTricks {text!r}")
    return table


def _hex_tricks(ch: str, what: str) -> int:
    """One hex digit of tricks (0..13), or ``FormatError`` naming ``what``."""
    try:
        v = int(ch, 16)
    except ValueError:
        raise FormatError(f"{what}: {ch!r} is not a hex digit") from None
    if v > 13:
        raise FormatError(f"{what}: {v} tricks is more than 13")
    return v


def parse_ability(text: str) -> NDArray[np.uint8]:
    """An ``Ability`` value (Deep Finesse's, PBN 2.1 section 3.9) to a DDS ``(5, 4)`` table.

    ``"N:34425 E:A98B7 S:34425 W:A98B7"``: each seat, a colon, then five hex
    digits, the tricks that seat takes as declarer in NT S H D C; seats in
    any order, a seat missing stays unknown (15).
    """
    table = np.full((5, 4), _dtypes.UNKNOWN, dtype=np.uint8)
    for item in text.split():
        seat, _, digits = item.partition(":")
        if len(seat) != 1 or seat.upper() not in SEAT_LETTERS or len(digits) != 5:
            raise FormatError(f"Ability {text!r}: {item!r} is not a seat, ':' and five hex digits (NT S H D C)")
        for strain, ch in zip(_RESULT_STRAINS, digits, strict=True):
            table[strain, SEAT_LETTERS.index(seat.upper())] = _hex_tricks(ch, f"Ability {text!r}")
    return table


def format_double_dummy_tricks(table: ArrayLike) -> str:
    """A complete DDS ``(5, 4)`` table as a ``DoubleDummyTricks`` value (lower-case hex)."""
    t = np.asarray(table).reshape(5, 4)
    vals = [int(t[strain, seat]) for strain, seat in _DDT_CELLS]
    if any(v < 0 or v > 13 for v in vals):
        raise FormatError("DoubleDummyTricks needs a complete table (values 0..13)")
    return "".join(f"{v:x}" for v in vals)


#: Column names of a result table, PBN 2.1's and BBA's (``"Declarer Suit Tricks"``).
_COLUMNS = {"declarer": "declarer", "denomination": "denomination", "suit": "denomination", "strain": "denomination"}
_COLUMNS |= {"result": "result", "tricks": "result"}


def parse_optimum(header: str, rows: list[str]) -> NDArray[np.uint8]:
    """An ``OptimumResultTable`` (header and section lines) as a DDS ``(5, 4)`` table.

    The header's columns are separated by ``;`` (PBN 2.1) or, in BBA's
    layout (``"Declarer Suit Tricks"``), by spaces; a ``\\2R`` after a name is
    a width hint.  The entries are read as a stream of cells, so one entry a
    line (PBN 2.1) and several on one line (BBA writes all twenty on one) read
    alike.
    """
    raw = header.split(";") if ";" in header else header.split()
    names = [_COLUMNS.get(c.split("\\")[0].strip().lower(), c.strip().lower()) for c in raw]
    try:
        i_decl, i_den, i_res = names.index("declarer"), names.index("denomination"), names.index("result")
    except ValueError:
        raise FormatError(f"OptimumResultTable header {header!r} lacks Declarer, Denomination or Result") from None
    table = np.full((5, 4), _dtypes.UNKNOWN, dtype=np.uint8)
    cells = " ".join(rows).split()
    if len(cells) % len(names):
        raise FormatError(
            f"OptimumResultTable has {len(cells)} cells, not a multiple of the header's {len(names)} columns"
        )
    for k in range(0, len(cells), len(names)):
        entry = cells[k : k + len(names)]
        res = entry[i_res]
        decl, den = entry[i_decl].upper(), entry[i_den].upper()
        seat = SEAT_LETTERS.find(decl) if len(decl) == 1 else -1
        strain = Strain.parse(den) if den in ("S", "H", "D", "C", "N", "NT") else -1
        if seat < 0 or strain < 0 or not res.isdigit() or int(res) > 13:
            raise FormatError(f"OptimumResultTable entry {' '.join(entry)!r} is not 'declarer denomination tricks'")
        table[strain, seat] = int(res)
    return table


def _result_width(table: NDArray[np.uint8]) -> int:
    """The ``Result`` column's width as Bridge Composer chooses it: 2 when a declarer takes ten or more, else 1."""
    known = [int(v) for v in np.asarray(table).ravel() if int(v) <= 13]
    return 2 if known and max(known) >= 10 else 1


def format_optimum(table: NDArray[np.uint8]) -> list[str]:
    """Rows as Bridge Composer writes them: declarers N S E W, strains NT S H D C, the strain right-aligned to
    width 2 and the tricks to :func:`_result_width` (``N NT 10``, ``N  S  7``; ``N NT 5`` when nobody takes ten)."""
    t = np.asarray(table).reshape(5, 4)
    width = _result_width(t)
    lines = []
    for decl in "NSEW":
        seat = SEAT_LETTERS.index(decl)
        for strain in _RESULT_STRAINS:
            v = int(t[strain, seat])
            if v <= 13:
                lines.append(f"{decl} {Strain(strain).symbol:>2} {v:>{width}}")
    return lines


def optimum_header(table: NDArray[np.uint8]) -> Verbatim:
    """The ``OptimumResultTable`` header Bridge Composer writes for ``table``: ``Result\\1R`` when no declarer
    takes ten tricks, ``Result\\2R`` when one does (its backslashes single, as every reader expects)."""
    return Verbatim(f"Declarer;Denomination\\2R;Result\\{_result_width(table)}R")


class Verbatim(str):
    """A tag value already as written between the quotes (:func:`quote` leaves it as it is)."""

    __slots__ = ()


#: ``OptimumScore``: a side and a score from that side's view (``"NS +90"``, ``"EW -100"``).
_SCORE = re.compile(r"^\s*(NS|EW)\s*([+-]?\d+)\s*$", re.IGNORECASE)
#: One ``ParContract`` entry: seats, then level, strain, doubling and result (``"N 3N="``, ``"EW 2SX-1"``).
_PAR_ENTRY = re.compile(r"^\s*([NESW]{1,2})\s+([1-7])\s*(NT|[SHDCN])\s*(X{0,2}|\*{0,2})\s*(=|[+-]\d+)?\s*$", re.I)


def _par_meaning(tag: str, text: str) -> object:
    """What an ``OptimumScore`` or ``ParContract`` value says, whatever its spelling; None if we cannot tell."""
    if tag == "OptimumScore":
        m = _SCORE.match(text)
        return None if m is None else int(m.group(2)) * (1 if m.group(1).upper() == "NS" else -1)
    if text.strip().lower() in ("pass", ""):
        return frozenset()
    out = set()
    for entry in re.split(r"[;,]", text):
        m = _PAR_ENTRY.match(entry)
        if m is None:
            return None
        seats, level, strain, doubled, result = (g.upper() if g else "" for g in m.groups())
        side = "NS" if seats[0] in "NS" else "EW"
        if any(("NS" if s in "NS" else "EW") != side for s in seats):
            return None
        made = 0 if result in ("", "=") else int(result)
        out.add((side, int(level), strain[0], len(doubled), made))
    return frozenset(out)


def par_agrees(tag: str, given: str | None, ours: str) -> bool:
    """True when a file's ``OptimumScore`` or ``ParContract`` says what ours says, in any spelling.

    ``"NS +90"`` and ``"NS 90"`` agree, and ``"NS 100"`` with ``"EW -100"``
    (the same score from the other side's view); par contracts agree when
    they name the same contracts for the same side, in any order, with
    ``NT`` or ``N``, ``X`` or ``*``, ``=`` or no result; a seat agrees with
    its side (``"NS 3N="`` and ``"N 3N="``).  A value we cannot read never
    agrees (it is replaced).
    """
    if given is None:
        return False
    mine = _par_meaning(tag, ours)
    return mine is not None and _par_meaning(tag, given) == mine
