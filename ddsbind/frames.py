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

    from ddsbind.deal import Seat
    from ddsbind.game import Vulnerability
    from ddsbind.optimum import dealer_pars, pars

    tables = frame[list(dataframe.TABLE_COLUMNS)].to_numpy(dtype=np.int64, na_value=15).reshape(-1, 5, 4)
    # A row whose table or vulnerability the file left unknown (a deal with unknown hands) has no par.
    ok = (tables <= 13).all(axis=(1, 2)) & ~frame["vulnerability"].isna().to_numpy()
    vul = np.array([int(Vulnerability.parse(v)) if o else 0 for v, o in zip(frame["vulnerability"], ok, strict=True)])
    known = ~frame["dealer"].isna().to_numpy() & ok
    scores = np.zeros(len(frame), dtype=np.int64)
    words = np.empty(len(frame), dtype=object)
    if known.any():
        seats = np.array([int(Seat.parse(d)) for d in frame["dealer"][known]], dtype=np.int8)
        dps = dealer_pars(tables[known], seats, vul[known].astype(np.int8), explain=False)
        scores[known] = [p.score for p in dps]
        words[known] = [p.words() for p in dps]
    rest = ~known & ok
    if rest.any():
        ps = pars(tables[rest], vul[rest].astype(np.int8), explain=False)
        scores[rest] = [p.score for p in ps]
        words[rest] = [p.words() for p in ps]
    out = frame.copy()
    out["par"] = pandas.array(np.where(ok, scores, 0), dtype="Int64")
    out.loc[~ok, "par"] = pandas.NA
    out["par_contracts"] = words.tolist()
    return out
