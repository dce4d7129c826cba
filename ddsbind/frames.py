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
) -> pd.DataFrame | Iterator[pd.DataFrame]:
    """:func:`ddsbind.formats.read_dataframe`, game records solved by DDS (:func:`ddsbind.dd_tables`) by default.

    ``solve`` is True (DDS's solver), False (no double-dummy columns), or
    another :class:`~ddsbind._typing.TablesSolver`; the other parameters,
    the columns and the errors are :func:`ddsbind.formats.read_dataframe`'s.
    Solved game records also get ``par`` (North-South's par score, the
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
    frames = dataframe.read_dataframe(path_or_records, format=format, chunksize=chunksize, solve=solve or None)
    if not solve:
        return frames
    if chunksize is None:
        assert not isinstance(frames, Iterator)
        return _with_par(frames)
    assert isinstance(frames, Iterator)
    return (_with_par(frame) for frame in frames)


def _with_par(frame: pd.DataFrame) -> pd.DataFrame:
    """Game records' frame with ``par`` (NS's score, dealer first) and ``par_contracts`` from its solved tables."""
    if "dd_tricks" not in frame.columns:
        return frame
    import pandas

    from ddsbind.deal import Seat
    from ddsbind.game import Vulnerability
    from ddsbind.optimum import dealer_pars, pars

    tables = frame[list(dataframe.TABLE_COLUMNS)].to_numpy(dtype=np.int64).reshape(-1, 5, 4)
    vul = np.array([int(Vulnerability.parse(v)) for v in frame["vulnerability"]], dtype=np.int8)
    known = ~frame["dealer"].isna().to_numpy()
    scores = np.zeros(len(frame), dtype=np.int64)
    words = np.empty(len(frame), dtype=object)
    if known.any():
        seats = np.array([int(Seat.parse(d)) for d in frame["dealer"][known]], dtype=np.int8)
        dps = dealer_pars(tables[known], seats, vul[known], explain=False)
        scores[known] = [p.score for p in dps]
        words[known] = [p.words() for p in dps]
    if not known.all():
        ps = pars(tables[~known], vul[~known], explain=False)
        scores[~known] = [p.score for p in ps]
        words[~known] = [p.words() for p in ps]
    out = frame.copy()
    out["par"] = pandas.array(scores, dtype="Int64")
    out["par_contracts"] = words.tolist()
    return out
