"""The one door from the database to the solver: solving tables, making records, filling unknown results."""

from __future__ import annotations

import warnings
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from ddsbind._typing import Progress
from ddsbind.database.check import RECORD
from ddsbind.database.recipe import make_deals
from ddsbind.errors import ThreadsWarning
from ddsbind.formats import zbd, zdd

if TYPE_CHECKING:
    from ddsbind.pool import SolverPool

__all__ = ["FILLER_CACHE", "TableFiller", "ThreadsWarning", "make_records", "solver_pool", "tables_of_masks"]


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


def tables_of_masks(
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

    ZRD records are solved through :func:`tables_of_masks` (on ``pool`` when
    given).  This is what a distributed worker runs for one shard.
    """
    owners = make_deals(seed, start, stop)
    deals = zbd.zbd_from_owners(owners)
    if format == "zbd":
        if progress is not None:
            progress(stop - start)
        return deals
    from ddsbind.deal import owners_to_masks

    tables = tables_of_masks(owners_to_masks(owners), threads=threads, pool=pool, progress=progress)
    out = np.empty((stop - start, RECORD["zrd"]), dtype=np.uint8)
    out[:, : RECORD["zbd"]] = deals
    zdd.nibbles_from_tables(tables.astype(np.uint8), out=out[:, RECORD["zbd"] :])
    return out


def shard_bytes(seed: int, start: int, stop: int, format: str, threads: int | None) -> bytes:
    """A shard's records as bytes (what a Dask worker returns)."""
    return make_records(seed, start, stop, format, threads=threads).tobytes()


#: Distinct deals whose tables a :class:`TableFiller` remembers (about 200
#: bytes each with the dict's overhead: some 50 MB at most).
FILLER_CACHE = 1 << 18


@dataclass(eq=False, kw_only=True)
class TableFiller:
    """Fills unknown DD results (15), solving each distinct deal once while it is remembered.

    Call it with each batch of ``(owners, tables)`` (tables None = all unknown,
    DDS order, uint8); it returns the tables with every unknown entry solved.
    Within a batch, repeats are found by :func:`ddsbind._marshal.distinct_deals`
    (the pool's own dedupe) and each distinct deal is solved once.  Across
    batches, the tables of the last ``cache_size`` distinct deals used are
    remembered in a least-recently-used map, and a deal found there is not
    solved again.

    Results the input already gives (another program's tables, a record
    file's known entries) are **checked** by default: every deal is solved
    and the returned table is DDS's whole answer, so a wrong entry is
    replaced, never carried on (the caller compares, naming the board:
    :func:`ddsbind.formats._common.disagreements`).  No cheaper check is
    sound: a table's only necessary condition is that each entry is 0..13
    (tricks for N and for E as declarers come from different leads, and
    the side on lead can take all thirteen tricks where the other lead
    gives it none), so an entry is known right only by solving; and DDS
    solves all twenty entries of a deal together faster than it could test
    one.  With ``trust_results=True`` the given entries are kept as they
    are and only unknown ones solved (a complete given table is not solved
    at all): the fast path for files one trusts.  Only a table DDS produced
    is reused on another record: a trusted table is kept on the record that
    gave it, never copied to another record of the same deal.

    Why an LRU of fixed size: a 10-million-deal input would otherwise keep
    every distinct deal's table in memory (gigabytes of Python objects),
    while repeated boards in game records sit close together (the boards of
    one session, the same board at several tables), so the recently used
    deals catch nearly every repeat.  A repeat further back than
    ``cache_size`` distinct deals is solved again: the same table, more time,
    never a wrong result.

    Attributes
    ----------
    solved : int
        Distinct deals sent to the solver.
    reused : int
        Records filled from a deal DDS solved elsewhere (never from a table a file gave).
    checked : int
        Records whose given results were solved again to check them (0 when trusting).
    trust_results : bool
        Keep given results unchecked (default False: check them).
    cache_size : int
        The most distinct deals remembered (default :data:`FILLER_CACHE`).
    """

    threads: int | None = None
    progress: Progress | None = None
    cache_size: int = FILLER_CACHE
    trust_results: bool = False
    solved: int = field(default=0, init=False)
    reused: int = field(default=0, init=False)
    checked: int = field(default=0, init=False)
    #: ZBD bytes of a deal -> its (5, 4) uint8 table bytes, least recently used first.
    _known: OrderedDict[bytes, bytes] = field(default_factory=OrderedDict, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.cache_size < 0:
            raise ValueError(f"cache_size must be >= 0, got {self.cache_size}")

    def __len__(self) -> int:
        """How many distinct deals' tables are remembered now (at most ``cache_size``)."""
        return len(self._known)

    def _remember(self, key: bytes, table: bytes) -> None:
        self._known[key] = table
        self._known.move_to_end(key)
        while len(self._known) > self.cache_size:
            self._known.popitem(last=False)

    def _recall(self, key: bytes) -> bytes | None:
        table = self._known.get(key)
        if table is not None:
            self._known.move_to_end(key)
        return table

    def __call__(self, owners: NDArray[np.int8], tables: NDArray[np.uint8] | None) -> NDArray[np.uint8]:
        from ddsbind._marshal import distinct_deals
        from ddsbind.deal import owners_to_masks

        n = owners.shape[0]
        t = np.full((n, 5, 4), zdd.UNKNOWN, np.uint8) if tables is None else np.array(tables, dtype=np.uint8)
        keys = zbd.encode_zbd(owners)
        if self.trust_results:
            # A trusted table stays on its own record: only DDS's answers are remembered and reused,
            # so a record without results never receives another record's unchecked table.
            need = np.flatnonzero(~(t <= 13).all(axis=(1, 2)))
        else:  # every deal solved: only DDS's answers are remembered and returned
            self.checked += int((t <= 13).any(axis=(1, 2)).sum())
            need = np.arange(n)
        if need.size == 0:
            return t
        masks = owners_to_masks(owners[need])
        first, inverse = distinct_deals(masks)
        full = np.empty((len(first), 5, 4), np.uint8)
        todo = []
        for k, f in enumerate(first.tolist()):
            known = self._recall(keys[need[f]].tobytes())
            if known is None:
                todo.append(k)
            else:
                full[k] = np.frombuffer(known, np.uint8).reshape(5, 4)
        if todo:
            solved = tables_of_masks(masks[first[todo]], threads=self.threads, progress=self.progress)
            full[todo] = solved.astype(np.uint8)
            for k in todo:
                self._remember(keys[need[first[k]]].tobytes(), full[k].tobytes())
        self.solved += len(todo)
        self.reused += len(need) - len(todo)
        rows = t[need]
        replace = rows == zdd.UNKNOWN if self.trust_results else np.ones_like(rows, dtype=bool)
        rows[replace] = full[inverse][replace]
        t[need] = rows
        return t
