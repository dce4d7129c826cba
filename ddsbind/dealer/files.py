"""Writing a run's deals (and tables) through the format registry: PBN, ZBD, ZRD, and the rest."""

from __future__ import annotations

import os
import re

import numpy as np
from numpy.typing import NDArray

from ddsbind.deal import Seat, Vulnerability
from ddsbind.formats import registry

__all__ = ["check_output", "write_deals"]


def check_output(path: str | os.PathLike[str], format: str | None = None, *, force: bool = False) -> registry.Format:
    """The format deals will be written to ``path`` in; refuse, before any dealing, what would fail later.

    Raises
    ------
    FormatError
        Unknown format, or one that holds no deals or cannot be written.
    FileExistsError
        ``path`` exists and ``force`` is false.
    FileNotFoundError, NotADirectoryError
        ``path``'s folder does not exist.
    """
    fmt = registry.guess(path, format, role="output")
    if not fmt.deals or (fmt.encode is None and fmt.dump is None):
        raise registry.FormatError(f"{os.fspath(path)}: {fmt.name} cannot hold the deals of a dealer run")
    folder = os.path.dirname(os.path.abspath(os.fspath(path)))
    if not os.path.isdir(folder):
        raise FileNotFoundError(2, "no such folder", folder)
    if os.path.exists(path) and not force:
        raise FileExistsError(17, "exists (use --force to replace it)", os.fspath(path))
    return fmt


def write_deals(
    path: str | os.PathLike[str],
    owners: NDArray[np.int8],
    tables: NDArray[np.int8] | None = None,
    format: str | None = None,
    *,
    dealer: Seat | int | str | None = None,
    vulnerable: Vulnerability | str | None = None,
) -> str:
    """Write deals ``(n, 52)`` (DDS seats N=0 E=1 S=2 W=3) and optional tables ``(n, 5, 4)`` to ``path``.

    The format is ``format`` or guessed from the extension (``.pbn``,
    ``.zbd``, ``.zrd``...).  A format holding results gets the tables (15 =
    unknown when none were solved).  ``dealer`` (a :class:`~ddsbind.Seat`)
    and ``vulnerable`` (a :class:`~ddsbind.Vulnerability`), a script's
    ``dealer`` and ``vulnerable``, replace the board cycle in PBN's Dealer and Vulnerable
    tags (the other formats have no such field).  The file is written
    atomically: a failure leaves ``path`` as it was.  Returns the format's
    name.

    Raises
    ------
    FormatError
        Unknown format, or one that cannot be written or holds no deals.
    """
    from ddsbind.formats._common import atomic_output

    fmt = registry.guess(path, format, role="output")
    table_array = None if tables is None else np.asarray(tables, dtype=np.uint8)
    records = registry.Records(owners=np.asarray(owners, dtype=np.int8), tables=table_array)
    if fmt.encode is not None:
        data = np.ascontiguousarray(fmt.encode(records)).tobytes()
    elif fmt.dump is not None:
        data = fmt.dump(records)
    else:  # pragma: no cover - guess() refuses formats that cannot be written
        raise registry.FormatError(f"{fmt.name} cannot be written")
    if fmt.name == "pbn":
        data = _pbn_tags(data, dealer, vulnerable)
    with atomic_output(path) as handle:
        handle.write(data)
    return fmt.name


def _pbn_tags(data: bytes, dealer: Seat | int | str | None, vulnerable: Vulnerability | str | None) -> bytes:
    """PBN text with every Dealer and Vulnerable tag set to the script's (when it names them)."""
    if dealer is not None:
        seat = Seat.parse(dealer, "dealer")
        data = re.sub(rb'^\[Dealer "[^"]*"\]', f'[Dealer "{seat}"]'.encode(), data, flags=re.M)
    if vulnerable is not None:
        vul = Vulnerability.parse(vulnerable)
        data = re.sub(rb'^\[Vulnerable "[^"]*"\]', f'[Vulnerable "{vul.pbn}"]'.encode(), data, flags=re.M)
    return data
