"""The one door from the database to the solver: solving tables, making records, filling unknown results."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from ddsbind._typing import Progress
from ddsbind.database.check import RECORD
from ddsbind.database.recipe import make_deals
from ddsbind.formats import zbd, zdd

if TYPE_CHECKING:
    from ddsbind.pool import SolverPool

__all__ = ["TableFiller", "ThreadsWarning", "make_records", "solve_tables", "solver_pool"]


class ThreadsWarning(UserWarning):
    """Fewer solver threads run than were asked for (DDS never runs more threads than cores).

    Issued once per pool the database opens (one per ``generate`` or
    ``verify`` run), as a warning the caller can catch, filter or render
    (the CLI prints it as ``ddsbind: warning: ...``).
    """


def solver_pool(threads: int | None = None) -> SolverPool:
    """A new :class:`~ddsbind.SolverPool` of ``threads``, to use in ``with``.

    Fewer threads than asked is one :class:`ThreadsWarning`, attributed to
    the caller's caller (the database function the user called); the pool's
    own plain ``UserWarning`` is not issued.
    """
    from ddsbind.pool import SolverPool

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        pool = SolverPool(threads)
    if threads is not None and pool.threads < threads:
        warnings.warn(
            ThreadsWarning(
                f"asked for {threads} solver threads, DDS runs {pool.threads} (it never runs more threads than cores)"
            ),
            stacklevel=3,
        )
    return pool


def solve_tables(
    masks: NDArray[np.uint32],
    *,
    threads: int | None = None,
    pool: SolverPool | None = None,
    progress: Progress | None = None,
) -> NDArray[np.int8]:
    """Double-dummy tables of many deals: the only place the database solves.

    Parameters
    ----------
    masks : ndarray, shape (N, 4, 4), uint32
        remainCards of each deal (hands N E S W, suits S H D C, bit ``rank``).
    threads : int, optional
        Threads of the pool opened for this call when ``pool`` is None (None:
        every thread DDS has, one per core).
    pool : SolverPool, optional
        An open pool to solve on (a long run opens one for all its batches).
    progress : callable, optional
        Called with the number of deals finished as they finish.

    Returns
    -------
    ndarray, shape (N, 5, 4), int8
        Tricks by strain S H D C NT and declarer N E S W.
    """
    if pool is not None:
        return pool.dd_tables_array(masks, progress=progress)
    with solver_pool(threads) as own:
        return own.dd_tables_array(masks, progress=progress)


def make_records(
    seed: int,
    start: int,
    stop: int,
    format: str = "zrd",
    *,
    threads: int | None = None,
    pool: SolverPool | None = None,
    progress: Progress | None = None,
) -> NDArray[np.uint8]:
    """Records ``start .. stop-1`` of the database of ``seed``: ``(n, 23)`` ZRD or ``(n, 13)`` ZBD bytes.

    ZRD records are solved through :func:`solve_tables` (on ``pool`` when
    given).  This is what a distributed worker runs for one shard.
    """
    owners = make_deals(seed, start, stop)
    deals = zbd.zbd_from_owners(owners)
    if format == "zbd":
        if progress is not None:
            progress(stop - start)
        return deals
    from ddsbind.deal import owners_to_masks

    tables = solve_tables(owners_to_masks(owners), threads=threads, pool=pool, progress=progress)
    out = np.empty((stop - start, RECORD["zrd"]), dtype=np.uint8)
    out[:, : RECORD["zbd"]] = deals
    zdd.nibbles_from_tables(tables.astype(np.uint8), out=out[:, RECORD["zbd"] :])
    return out


def shard_bytes(seed: int, start: int, stop: int, format: str, threads: int | None) -> bytes:
    """A shard's records as bytes (what a Dask worker returns)."""
    return make_records(seed, start, stop, format, threads=threads).tobytes()


class TableFiller:
    """Fills unknown DD results (15) by solving each distinct deal once.

    Call it with each batch of ``(owners, tables)`` (tables None = all unknown,
    DDS order, uint8); it returns the tables with every unknown entry solved.
    Deals seen before (in this batch or an earlier one, solved or complete in
    the input) are not solved again.

    Attributes
    ----------
    solved : int
        Distinct deals sent to the solver.
    reused : int
        Records filled from a deal solved (or given complete) elsewhere.

    Notes
    -----
    It keeps every distinct deal's table (about 100 bytes each) for the whole
    run, which is what lets repeated deals anywhere in a file be solved once.
    """

    def __init__(self, *, threads: int | None = None, progress: Progress | None = None) -> None:
        self.threads = threads
        self.progress = progress
        self.solved = 0
        self.reused = 0
        self._known: dict[bytes, bytes] = {}

    def __call__(self, owners: NDArray[np.int8], tables: NDArray[np.uint8] | None) -> NDArray[np.uint8]:
        n = owners.shape[0]
        t = np.full((n, 5, 4), zdd.UNKNOWN, np.uint8) if tables is None else np.array(tables, dtype=np.uint8)
        keys = zbd.encode_zbd(owners)
        complete = (t <= 13).all(axis=(1, 2))
        for i in np.flatnonzero(complete).tolist():
            self._known.setdefault(keys[i].tobytes(), t[i].tobytes())
        need = np.flatnonzero(~complete)
        fresh: dict[bytes, list[int]] = {}
        for i in need.tolist():
            k = keys[i].tobytes()
            if k in self._known:
                self._fill(t, i, self._known[k])
                self.reused += 1
            else:
                fresh.setdefault(k, []).append(int(i))
        if fresh:
            from ddsbind.deal import owners_to_masks

            first = [rows[0] for rows in fresh.values()]
            solved = solve_tables(owners_to_masks(owners[first]), threads=self.threads, progress=self.progress)
            self.solved += len(first)
            for (k, rows), table in zip(fresh.items(), solved.astype(np.uint8), strict=True):
                self._known[k] = table.tobytes()
                for i in rows:
                    self._fill(t, i, self._known[k])
                self.reused += len(rows) - 1
        return t

    @staticmethod
    def _fill(t: NDArray[np.uint8], i: int, table: bytes) -> None:
        full = np.frombuffer(table, np.uint8).reshape(5, 4)
        row = t[i]
        unknown = row == zdd.UNKNOWN
        row[unknown] = full[unknown]
