"""Writing a run's deals (and tables) through the format registry: PBN, ZBD, ZRD, and the rest."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ddsbind.deal import Seat, Vulnerability
from ddsbind.errors import InvalidArgumentError
from ddsbind.formats import registry

__all__ = ["DealWriter", "check_output", "write_deals"]


def check_output(
    path: str | os.PathLike[str], format: registry.FormatLike | None = None, *, force: bool = False
) -> registry.Format:
    """The format deals will be written to ``path`` in; refuse, before any dealing, what would fail later.

    The format is decided here once (``format``, else ``path``'s extension):
    pass the answer on to :class:`DealWriter` or :func:`write_deals` as
    their ``format``, and the path is not looked at again.

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
    format: registry.FormatLike | None = None,
    *,
    dealer: Seat | int | str | None = None,
    vulnerable: Vulnerability | str | None = None,
) -> str:
    """Write deals ``(n, 52)`` (DDS seats N=0 E=1 S=2 W=3) and optional tables ``(n, 5, 4)`` to ``path``.

    The format is ``format`` (a name, or a :class:`~ddsbind.formats.registry.Format`
    decided already, :func:`check_output`'s) or told by the extension
    (``.pbn``, ``.zbd``, ``.zrd``...).  A format holding results gets the tables (15 =
    unknown when none were solved).  ``dealer`` (a :class:`~ddsbind.Seat`,
    0..3 = N E S W) and ``vulnerable`` (a :class:`~ddsbind.Vulnerability` or
    its name, never a bare number: DDS's and dealer's numberings differ), a
    script's ``dealer`` and ``vulnerable``, replace the board cycle in PBN's
    Dealer and Vulnerable tags and LIN's ``md|`` dealer and ``sv|`` (the
    other formats have no such field).  The
    file is written atomically: a failure leaves ``path`` as it was.  Returns
    the format's name.

    Raises
    ------
    FormatError
        Unknown format, or one that cannot be written or holds no deals.
    InvalidArgumentError
        A bad ``dealer`` or ``vulnerable`` (a number as ``vulnerable`` included).
    """
    with DealWriter(path, format, dealer=dealer, vulnerable=vulnerable) as writer:
        writer.write(owners, tables)
    return writer.format.name


class DealWriter:
    """Deals (and tables) written to ``path`` a batch at a time: the file is :func:`write_deals` of them all.

    Each batch goes to a :class:`~ddsbind.formats.files.BatchWriter`
    (record formats encoded batch by batch, PBN, GIB, LIN and ZBS written
    part by part, DDS's reference text, whose first line counts the deals,
    through a temporary body file), in memory of one batch.  The file is
    written atomically: it replaces ``path`` when the writer closes without
    error, and a failure leaves ``path`` as it was.  Parameters are
    :func:`write_deals`'s.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        format: registry.FormatLike | None = None,
        *,
        dealer: Seat | int | str | None = None,
        vulnerable: Vulnerability | str | None = None,
    ) -> None:
        from ddsbind.formats.files import BatchWriter

        self.dealer = None if dealer is None else Seat.parse(dealer, "dealer")
        if isinstance(vulnerable, int | np.integer) and not isinstance(vulnerable, Vulnerability):
            raise InvalidArgumentError(
                f"vulnerable {vulnerable!r} is a number: give a Vulnerability or its name ('none', 'NS', 'EW', 'all')",
                field="vulnerable",
            )
        self.vulnerable = None if vulnerable is None else Vulnerability.parse(vulnerable)
        self.format = registry.guess(path, format, role="output")
        self._writer = BatchWriter(path, self.format)

    def write(self, owners: NDArray[np.int8], tables: NDArray[np.integer] | None = None) -> None:
        """Add deals ``(n, 52)`` (DDS seats) and optional tables ``(n, 5, 4)`` (15 = unknown)."""
        records = registry.Records(
            owners=np.asarray(owners, dtype=np.int8),
            tables=None if tables is None else np.asarray(tables, dtype=np.uint8),
            dealers=self.dealer,
            vulnerabilities=self.vulnerable,
        )
        self._writer.write(records)

    def close(self) -> None:
        """Write what is held and put the file in place of ``path``."""
        self._writer.close()

    def __enter__(self) -> DealWriter:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: Any) -> None:
        self._writer.__exit__(exc_type, exc, tb)
