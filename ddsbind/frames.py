"""Records as pandas DataFrames with their double-dummy results: :func:`read_dataframe`.

:func:`ddsbind.formats.read_dataframe` reads and never solves (``formats``
imports nothing of DDS); this is the same reader with DDS's solver,
:func:`ddsbind.dd_tables`, passed in (a :class:`~ddsbind._typing.TablesSolver`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

import numpy as np

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
    strict: bool | None = None,
) -> pd.DataFrame | Iterator[pd.DataFrame]:
    """:func:`ddsbind.formats.read_dataframe`, game records solved by DDS (:func:`ddsbind.dd_tables`) by default.

    ``solve`` is True (DDS's solver), False (no double-dummy columns), or
    another :class:`~ddsbind._typing.TablesSolver`; the other parameters,
    the columns and the errors are :func:`ddsbind.formats.read_dataframe`'s.
    Solved game records and deals (a hand record's ``board``, ``dealer``,
    ``vulnerability`` and other tags in columns) also get ``par`` (North-South's par score, the
    dealer bidding first: DDS's ``DealerPar``; ``Par`` when the dealer is
    unknown, ``Int64``) and ``par_contracts`` (the par contracts in words).

    Examples
    --------
    >>> frame = read_dataframe("examples/data/session.lin")  # doctest: +SKIP
    >>> frame.loc[0, "dd_tricks"]  # doctest: +SKIP
    """
    if solve is True:
        from ddsbind.solver import dd_tables

        solve = dd_tables
    frames = dataframe.read_dataframe(
        path_or_records, format=format, chunksize=chunksize, solve=solve or None, strict=strict
    )
    if not solve:
        return frames
    if chunksize is None:
        assert not isinstance(frames, Iterator)
        return _with_par(frames)
    assert isinstance(frames, Iterator)
    return (_with_par(frame) for frame in frames)


def _with_par(frame: pd.DataFrame) -> pd.DataFrame:
    """A solved frame (game records, or a file's deals) with ``par`` (NS, dealer first) and ``par_contracts``."""
    if not set(dataframe.TABLE_COLUMNS) <= set(frame.columns) or "vulnerability" not in frame.columns:
        return frame
    import pandas

    from ddsbind.solver import dealer_par, par

    tables = frame[list(dataframe.TABLE_COLUMNS)].to_numpy(dtype=np.int64, na_value=15).reshape(-1, 5, 4)
    scores: list[int | None] = []
    words: list[str | None] = []
    for table, dealer, vulnerable in zip(tables, frame["dealer"], frame["vulnerability"], strict=True):
        if vulnerable is None or (table > 13).any():  # a table or a vulnerability the file left unknown: no par
            scores.append(None)
            words.append(None)
        elif dealer is None:
            p = par(table, vulnerable)
            scores.append(p.score)
            words.append(p.words())
        else:
            dp = dealer_par(table, dealer, vulnerable)
            scores.append(dp.score)
            words.append(dp.words())
    out = frame.copy()
    out["par"] = pandas.array(scores, dtype="Int64")
    out["par_contracts"] = words
    return out
