"""Records as pandas DataFrames with their double-dummy results: :func:`read_dataframe`.

:func:`ddsbind.formats.read_dataframe` reads and never solves (``formats``
imports nothing of DDS); this is the same reader with DDS's solver,
:func:`ddsbind.dd_tables`, passed in (a :class:`~ddsbind._typing.TablesSolver`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from ddsbind._typing import TablesSolver
from ddsbind.formats import dataframe
from ddsbind.record import GameRecord

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["read_dataframe"]


def read_dataframe(
    path_or_records: str | os.PathLike[str] | Sequence[GameRecord],
    *,
    format: str | None = None,
    chunksize: int | None = None,
    solve: bool | TablesSolver = True,
) -> pd.DataFrame | Iterator[pd.DataFrame]:
    """:func:`ddsbind.formats.read_dataframe`, game records solved by DDS (:func:`ddsbind.dd_tables`) by default.

    ``solve`` is True (DDS's solver), False (no double-dummy columns), or
    another :class:`~ddsbind._typing.TablesSolver`; the other parameters,
    the columns and the errors are :func:`ddsbind.formats.read_dataframe`'s.

    Examples
    --------
    >>> frame = read_dataframe("examples/data/session.lin")  # doctest: +SKIP
    >>> frame.loc[0, "dd_tricks"]  # doctest: +SKIP
    """
    if solve is True:
        from ddsbind.solver import dd_tables

        solve = dd_tables
    return dataframe.read_dataframe(path_or_records, format=format, chunksize=chunksize, solve=solve or None)
