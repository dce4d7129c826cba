"""The DLL-faithful layer: DDS's functions under their own names.

Every function exported by DDS 2.9's ``dll.h`` is here with the same name,
the same arguments in the same order and the same integer status code, so a C
program using DDS translates line by line::

    dl = dll.deal()                      # struct deal dl;
    fut = dll.futureTricks()             # struct futureTricks fut;
    dl.trump = 4; dl.first = 0           # dl.trump = 4; dl.first = 0;
    dl.remainCards[0][0] = 0x4000        # ...
    rc = dll.SolveBoard(dl, -1, 3, 1, fut, 0)
    if rc != dll.RETURN_NO_FAULT: ...

Struct constructors carry the C names (``dll.deal()``, ``dll.dealPBN()``,
``dll.futureTricks()``, ``dll.ddTableDeal()``, ...).  Each returns a cffi
pointer that owns zeroed memory, optionally initialised from keyword fields;
``count=n`` gives an array (``dll.parResultsDealer(count=2)`` for
``SidesPar``).  Functions accept those objects wherever C takes the struct
by value or a pointer to it.

Differences from calling the C library directly, all on the safe side:

* Every input is checked before DDS sees it, in DDS's own order, and the code
  DDS would return is returned without calling DDS (which would otherwise
  write ``dump.txt`` into the current directory, or read out of bounds).
  :func:`last_error` tells which card or field was at fault.
* A ``threadIndex`` is locked for the duration of a call, and the batch
  functions (which use all of DDS's thread memory through DDS's own threads)
  wait for, and exclude, single-board calls: see ``_binding.ThreadSlots``.
* ``SetMaxThreads``, ``SetResources``, ``SetThreading`` and ``FreeMemory``
  raise :class:`~ddsbind.errors.StateError` (a ``RuntimeError``) instead of
  pulling memory from under a running call.
* ``SolveAllBoardsBin`` exists even on DDS 2.9.0, which lacks it: there it
  runs ``SolveAllChunksBin`` with chunk size 1.
* PBN strings are parsed by ddsbind and handed to DDS in canonical form, so
  DDS solves exactly the deal that was checked.
* A wrong argument type raises :class:`~ddsbind.errors.ArgumentError`, and
  so does a NULL pointer or an array too short for what DDS reads or writes
  there (``dll.futureTricks(count=0)``); C would crash on both.
* The table functions (``CalcDDtable``, ``CalcAllTables``, ``CalcPar`` and
  their PBN twins) take full deals only: DDS answers an ending as if 13
  tricks were left.  ``ddsbind.dd_table`` solves endings with ``SolveBoard``.
* After ``FreeMemory`` the next call that solves first gives DDS its thread
  memory back (DDS 2.9 alone crashes); ``SetResources`` refuses memory
  sizes DDS cannot live with (see :data:`MIN_MEMORY_MB`).

Every check raises a :class:`~ddsbind.errors.DDSError` subclass naming the
fault (``index``, ``card``, ``field``); one decorator turns it into DDS's
int code and :func:`last_error` for the functions here, while
``dll.raising.<Name>`` runs the same function and lets the exception out
(the Pythonic layer uses those for DDS's batch functions).  For the
single-board functions the Pythonic layer calls :func:`solve_board` and
:func:`analyse_play_bin`: the same checks, raising, and the thread slot
taken once (a free one, or the one the calling pool worker already holds)
instead of a ``threadIndex`` the caller must have locked first.

The GIL is released during every DDS call (cffi does so for all calls).
"""

from __future__ import annotations

import functools
import operator
import os
import threading
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any, TypeVar

from ddsbind import _validate, game
from ddsbind._binding import CData, ffi, lib, slots
from ddsbind.deal import Card, masks_to_pbn, pbn_to_masks
from ddsbind.errors import (
    ArgumentError,
    ChunkSizeError,
    DDSError,
    InvalidArgumentError,
    NoSuitError,
    PBNError,
    PlayFaultError,
    StateError,
    TooManyBoardsError,
    TooManyTablesError,
    UnknownFaultError,
    check,
)

# -- constants, from the build ------------------------------------------------

DDS_VERSION: int = lib.DDS_VERSION
DDS_HANDS: int = lib.DDS_HANDS
DDS_SUITS: int = lib.DDS_SUITS
DDS_STRAINS: int = lib.DDS_STRAINS
MAXNOOFBOARDS: int = lib.MAXNOOFBOARDS
MAXNOOFTABLES: int = lib.MAXNOOFTABLES
RETURN_NO_FAULT: int = lib.RETURN_NO_FAULT

_RETURN_NAMES = [n for n in dir(lib) if n.startswith("RETURN_")]
globals().update({n: getattr(lib, n) for n in _RETURN_NAMES})

# -- struct constructors ------------------------------------------------------

_STRUCTS = [
    "futureTricks",
    "deal",
    "dealPBN",
    "boards",
    "boardsPBN",
    "solvedBoards",
    "ddTableDeal",
    "ddTableDeals",
    "ddTableDealPBN",
    "ddTableDealsPBN",
    "ddTableResults",
    "ddTablesRes",
    "parResults",
    "allParResults",
    "parResultsDealer",
    "contractType",
    "parResultsMaster",
    "parTextResults",
    "playTraceBin",
    "playTracePBN",
    "solvedPlay",
    "playTracesBin",
    "playTracesPBN",
    "solvedPlays",
    "DDSInfo",
]


def _constructor(name: str) -> Callable[..., CData]:
    ctype = f"struct {name}"

    def make(*, count: int | None = None, **fields: object) -> CData:
        if count is not None:
            if fields:
                raise ArgumentError("give either count= or field values, not both")
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise ArgumentError(f"{name}(): count must be an int >= 0, got {count!r}")
            return ffi.new(f"{ctype}[{count}]")
        try:
            return ffi.new(f"{ctype} *", fields or None)
        except (TypeError, ValueError, KeyError, OverflowError) as exc:
            raise ArgumentError(f"{name}(): {exc}") from None

    make.__name__ = make.__qualname__ = name
    make.__doc__ = (
        f"A new zeroed ``{ctype}`` (a cffi pointer owning its memory).\n\n"
        f"Keyword arguments set fields, as a C initialiser would; ``count=n`` returns\n"
        f"an array ``{ctype}[n]`` instead."
    )
    return make


futureTricks = _constructor("futureTricks")
deal = _constructor("deal")
dealPBN = _constructor("dealPBN")
boards = _constructor("boards")
boardsPBN = _constructor("boardsPBN")
solvedBoards = _constructor("solvedBoards")
ddTableDeal = _constructor("ddTableDeal")
ddTableDeals = _constructor("ddTableDeals")
ddTableDealPBN = _constructor("ddTableDealPBN")
ddTableDealsPBN = _constructor("ddTableDealsPBN")
ddTableResults = _constructor("ddTableResults")
ddTablesRes = _constructor("ddTablesRes")
parResults = _constructor("parResults")
allParResults = _constructor("allParResults")
parResultsDealer = _constructor("parResultsDealer")
contractType = _constructor("contractType")
parResultsMaster = _constructor("parResultsMaster")
parTextResults = _constructor("parTextResults")
playTraceBin = _constructor("playTraceBin")
playTracePBN = _constructor("playTracePBN")
solvedPlay = _constructor("solvedPlay")
playTracesBin = _constructor("playTracesBin")
playTracesPBN = _constructor("playTracesPBN")
solvedPlays = _constructor("solvedPlays")
DDSInfo = _constructor("DDSInfo")


# -- argument plumbing ----------------------------------------------------------

_local = threading.local()

#: The same functions as this module's DDS functions, raising the
#: :class:`~ddsbind.errors.DDSError` subclass of a failure instead of returning
#: its code (and leaving ``last_error()`` alone): ``dll.raising.SolveBoard(...)``.
#: The Pythonic layer calls these for DDS's batch functions.
raising = SimpleNamespace()


def last_error() -> tuple[int, str | None, str | None]:
    """``(code, function, detail)`` of this thread's last failing DLL-layer call.

    ``detail`` names the card or field ddsbind's checks found at fault (None
    when DDS itself returned the code).  ``(RETURN_NO_FAULT, None, None)``
    before any failure.
    """
    return getattr(_local, "last", (RETURN_NO_FAULT, None, None))


_F = TypeVar("_F", bound=Callable[..., int])
_T = TypeVar("_T")


def _dds_function(fn: _F) -> _F:
    """The one edge between raising checks and DDS's int codes.

    ``fn`` raises a ``DDSError`` subclass for every fault (its own checks, or
    DDS's code through :func:`~ddsbind.errors.check`).  The public function
    returned here turns that into DDS's code and records ``last_error()``;
    ``raising.<name>`` keeps the exception.  ``ArgumentError`` (a wrong
    type, which C would not compile) propagates from both.
    """
    name = fn.__name__

    @functools.wraps(fn)
    def raising_version(*args: Any) -> int:
        try:
            return fn(*args)
        except DDSError as exc:
            if exc.function is None:
                exc.function = name
            raise

    @functools.wraps(fn)
    def returning_version(*args: Any) -> int:
        try:
            return raising_version(*args)
        except ArgumentError:
            raise
        except DDSError as exc:
            _local.last = (exc.code, name, exc.detail)
            return exc.code

    setattr(raising, name, raising_version)
    return returning_version  # type: ignore[return-value]


def _ctype(obj: object) -> Any:
    """The cffi type of a cdata object, None for anything else (ffi.typeof would parse a str)."""
    return ffi.typeof(obj) if isinstance(obj, ffi.CData) else None


def _ptr(obj: object, struct: str, function: str, arg: str, count: int = 1) -> CData:
    """``obj`` as a non-NULL pointer to ``count`` ``struct X`` (a pointer, an array, or a struct lvalue).

    DDS reads or writes whole structs through every pointer it is given, so an
    array must hold at least ``count`` of them and a pointer must not be NULL.
    (A pointer made with ``ffi.cast`` from a raw address is taken on trust.)
    """
    t = _ctype(obj)
    if t is None:
        raise ArgumentError(
            f"{arg} must be a struct {struct} (e.g. dll.{struct}()), got {type(obj).__name__}",
            function=function,
        )
    item = ffi.typeof(f"struct {struct}")
    if t.kind == "array" and t.item is item:
        if t.length < count:
            raise ArgumentError(
                f"{arg} is a struct {struct}[{t.length}]; DDS uses {count} "
                f"(make it with dll.{struct}(){'' if count == 1 else f' or count={count}'})",
                function=function,
            )
        return ffi.cast(f"struct {struct} *", obj)
    if t is item:
        return ffi.addressof(obj)
    if t.kind == "pointer" and t.item is item:
        if obj == ffi.NULL:
            raise ArgumentError(f"{arg} is a NULL pointer; DDS needs a struct {struct}", function=function)
        if count > 1:
            raise ArgumentError(f"{arg} must be a struct {struct}[{count}] array", function=function)
        return obj
    raise ArgumentError(f"{arg} must be a struct {struct}, got {t.cname}", function=function)


def _chars(obj: object, size: int, function: str, arg: str) -> CData:
    """A ``char[]`` of at least ``size`` bytes that DDS writes text into."""
    t = _ctype(obj)
    if t is None or t.kind != "array" or t.item is not ffi.typeof("char") or t.length < size:
        raise ArgumentError(f"{arg} must be a char[{size}] or larger (ffi.new('char[{size}]'))", function=function)
    return obj


def _int(value: Any, function: str, arg: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            value = operator.index(value)
        except TypeError:
            raise ArgumentError(f"{arg} must be an int, got {type(value).__name__}", function=function) from None
    if not -(2**31) <= value < 2**31:
        raise ArgumentError(f"{arg} = {value} does not fit a C int", function=function)
    return value


def _ints(function: str, **args: object) -> list[int]:
    """Several int arguments checked at once, in the order given."""
    return [_int(v, function, name) for name, v in args.items()]


def _masks(cards: CData) -> list[list[int]]:
    """``unsigned int [4][4]`` as nested lists, read in one unpack (cheap on the per-call path)."""
    flat = ffi.unpack(ffi.cast("unsigned int *", cards), 16)
    return [flat[0:4], flat[4:8], flat[8:12], flat[12:16]]


def _masks_from_pbn(text: bytes) -> list[list[int]]:
    """remainCards from a PBN ``remainCards``/``cards`` string (hand lengths are checked later)."""
    try:
        return pbn_to_masks(text.decode("ascii"))
    except UnicodeDecodeError:
        raise PBNError("PBN string is not ASCII", field="remainCards") from None
    except DDSError as exc:
        raise PBNError(exc.reason, field="remainCards", card=exc.card) from None


def _canonical_pbn(masks: list[list[int]]) -> bytes:
    """The checked deal as DDS will receive it, so DDS solves exactly what was checked."""
    return masks_to_pbn(masks).encode("ascii")


def _board_checks(dl: CData, target: int, solutions: int, mode: int, masks: list[list[int]]) -> None:
    _validate.board(
        dl.trump, dl.first, list(dl.currentTrickSuit), list(dl.currentTrickRank), masks, target, solutions, mode
    )


def _in_batch(index: int, item: str, check: Callable[..., _T], *args: Any) -> _T:
    """Run ``check(*args)``; a fault it raises is marked as that of ``item`` number ``index``."""
    try:
        return check(*args)
    except DDSError as exc:
        raise exc.at(index, item) from None


# -- DDS's thread memory after FreeMemory ---------------------------------------------

#: The last thread-settings call (DDS's function and its arguments), re-applied
#: by FreeMemory: DDS 2.9 leaves no thread memory behind FreeMemory, and the
#: next solve would dereference it (SIGSEGV).
_settings: list[tuple[Callable[..., object], tuple[int, ...]]] = []
_settings_lock = threading.Lock()


# -- single boards ------------------------------------------------------------------


def _solve_board_args(
    fn: str, dl: object, target: object, solutions: object, mode: object, futp: object, thread: object
) -> tuple[Any, ...]:
    """SolveBoard's arguments checked: types, ``thread`` (unless None), then the board in DDS's order."""
    p = _ptr(dl, "deal", fn, "dl")
    out = _ptr(futp, "futureTricks", fn, "futp")
    t, s, m = _ints(fn, target=target, solutions=solutions, mode=mode)
    if thread is not None:
        _validate.thread_index(_int(thread, fn, "threadIndex"), slots.count)
    _board_checks(p, t, s, m, _masks(p.remainCards))
    return p, t, s, m, out


@_dds_function
def SolveBoard(dl: object, target: int, solutions: int, mode: int, futp: object, threadIndex: int) -> int:
    """``SolveBoard(struct deal dl, int target, int solutions, int mode, struct futureTricks *futp, int threadIndex)``."""
    fn = "SolveBoard"
    p, target, solutions, mode, out = _solve_board_args(fn, dl, target, solutions, mode, futp, threadIndex)
    threadIndex = _int(threadIndex, fn, "threadIndex")  # checked above
    with slots.slot(threadIndex):
        return check(lib.SolveBoard(p[0], target, solutions, mode, out, threadIndex), fn)


def solve_board(dl: object, target: int, solutions: int, mode: int, futp: object, thread: int | None = None) -> None:
    """``SolveBoard`` for the Pythonic layer: raises the ``DDSError`` of a fault, takes its thread slot once.

    ``thread`` None: the call takes a free thread memory for itself
    (``slots.any()``).  An index: the calling thread already holds that
    slot (a :class:`~ddsbind.SolverPool` worker holds its own for a whole
    task), so it is used as it is, not taken again.
    """
    fn = "SolveBoard"
    try:
        p, target, solutions, mode, out = _solve_board_args(fn, dl, target, solutions, mode, futp, None)
        with slots.any() if thread is None else slots.holding(thread) as index:
            check(lib.SolveBoard(p[0], target, solutions, mode, out, index), fn)
    except DDSError as exc:
        exc.function = exc.function or fn
        raise


@_dds_function
def SolveBoardPBN(dlpbn: object, target: int, solutions: int, mode: int, futp: object, thrId: int) -> int:
    """``SolveBoardPBN(struct dealPBN dlpbn, int target, int solutions, int mode, struct futureTricks *futp, int thrId)``."""
    fn = "SolveBoardPBN"
    p = _ptr(dlpbn, "dealPBN", fn, "dlpbn")
    out = _ptr(futp, "futureTricks", fn, "futp")
    target, solutions, mode, thrId = _ints(fn, target=target, solutions=solutions, mode=mode, thrId=thrId)
    _validate.thread_index(thrId, slots.count)
    masks = _masks_from_pbn(ffi.string(p.remainCards))
    _board_checks(p, target, solutions, mode, masks)
    canon = ffi.new("struct dealPBN *", p[0])
    canon.remainCards = _canonical_pbn(masks)
    with slots.slot(thrId):
        return check(lib.SolveBoardPBN(canon[0], target, solutions, mode, out, thrId), fn)


# -- tables -------------------------------------------------------------------------


@_dds_function
def CalcDDtable(tableDeal: object, tablep: object) -> int:
    """``CalcDDtable(struct ddTableDeal tableDeal, struct ddTableResults *tablep)``; uses DDS's threads.

    Stricter than DDS: the deal must be full (13 cards a hand), since DDS
    answers an ending as if 13 tricks were left.
    """
    fn = "CalcDDtable"
    p = _ptr(tableDeal, "ddTableDeal", fn, "tableDeal")
    out = _ptr(tablep, "ddTableResults", fn, "tablep")
    _validate.table_deal(_masks(p.cards))
    with slots.all():
        return check(lib.CalcDDtable(p[0], out), fn)


@_dds_function
def CalcDDtablePBN(tableDealPBN: object, tablep: object) -> int:
    """``CalcDDtablePBN(struct ddTableDealPBN tableDealPBN, struct ddTableResults *tablep)``; full deals only."""
    fn = "CalcDDtablePBN"
    p = _ptr(tableDealPBN, "ddTableDealPBN", fn, "tableDealPBN")
    out = _ptr(tablep, "ddTableResults", fn, "tablep")
    masks = _masks_from_pbn(ffi.string(p.cards))
    _validate.table_deal(masks)
    canon = ffi.new("struct ddTableDealPBN *", {"cards": _canonical_pbn(masks)})
    with slots.all():
        return check(lib.CalcDDtablePBN(canon[0], out), fn)


def max_tables(strains: int) -> int:
    """How many tables one ``CalcAllTables`` call takes when ``strains`` strains are solved.

    DDS's own rule: a call is refused (``RETURN_TOO_MANY_TABLES``) when
    ``strains * noOfTables > MAXNOOFTABLES * DDS_STRAINS``.  In 2.9 that is
    40 tables for all 5 strains, 50 for 4, 66 for 3, 100 for 2, 200 for 1
    (the tests ask DDS itself at each boundary).
    """
    return (MAXNOOFTABLES * DDS_STRAINS) // strains if strains > 0 else 0


def _filter_list(trumpFilter: Any, fn: str) -> list[int]:
    try:
        vals = [_int(trumpFilter[i], fn, "trumpFilter") for i in range(5)]
    except (TypeError, IndexError, KeyError, ValueError):
        raise ArgumentError("trumpFilter must hold 5 ints (1 = leave that strain out)", function=fn) from None
    return vals


def _calc_all(
    fn: str, dealsp: object, mode: object, trumpFilter: object, resp: object, presp: object, pbn: bool
) -> int:
    """CalcAllTables(PBN): every argument checked (each table's deal by its index), then one call on every slot."""
    kind = "ddTableDealsPBN" if pbn else "ddTableDeals"
    p = _ptr(dealsp, kind, fn, "dealsp")
    out = _ptr(resp, "ddTablesRes", fn, "resp")
    par = _ptr(presp, "allParResults", fn, "presp")
    mode = _int(mode, fn, "mode")
    filt = _filter_list(trumpFilter, fn)
    strains = sum(1 for f in filt if not f)
    if strains == 0:
        raise NoSuitError("trumpFilter leaves out all 5 strains", field="trumpFilter")
    # Stricter than DDS below 1: DDS would solve one uninitialised deal for noOfTables 0.
    n = p.noOfTables
    if n < 1 or n > min(max_tables(strains), len(p.deals)):
        raise TooManyTablesError(
            f"noOfTables {n}: one call takes 1..{max_tables(strains)} tables for {strains} strain(s)",
            field="noOfTables",
        )
    _validate.vulnerable(mode, allow_none=True)
    if pbn:
        canon = ffi.new(f"struct {kind} *")
        canon.noOfTables = n
        for i in range(n):
            masks = _in_batch(i, "table", _masks_from_pbn, ffi.string(p.deals[i].cards))
            _in_batch(i, "table", _validate.table_deal, masks)
            canon.deals[i].cards = _canonical_pbn(masks)
        p = canon
    else:
        for i in range(n):
            _in_batch(i, "table", _validate.table_deal, _masks(p.deals[i].cards))
    call = lib.CalcAllTablesPBN if pbn else lib.CalcAllTables
    with slots.all():
        return check(call(p, mode, ffi.new("int[5]", filt), out, par), fn)


@_dds_function
def CalcAllTables(dealsp: object, mode: int, trumpFilter: object, resp: object, presp: object) -> int:
    """``CalcAllTables(struct ddTableDeals *dealsp, int mode, int trumpFilter[5], struct ddTablesRes *resp, struct allParResults *presp)``.

    ``mode`` is the vulnerability for par (-1: no par); ``trumpFilter[s]``
    non-zero leaves strain ``s`` out.  See :func:`max_tables` for the limit.
    Full deals only (see :func:`CalcDDtable`).
    """
    return _calc_all("CalcAllTables", dealsp, mode, trumpFilter, resp, presp, pbn=False)


@_dds_function
def CalcAllTablesPBN(dealsp: object, mode: int, trumpFilter: object, resp: object, presp: object) -> int:
    """``CalcAllTablesPBN(struct ddTableDealsPBN *dealsp, int mode, int trumpFilter[5], struct ddTablesRes *resp, struct allParResults *presp)``."""
    return _calc_all("CalcAllTablesPBN", dealsp, mode, trumpFilter, resp, presp, pbn=True)


# -- batches of boards --------------------------------------------------------------


def _boards_checks(p: CData, pbn: bool) -> CData:
    """Check every board of a ``boards``/``boardsPBN``; returns what DDS is to receive."""
    n = p.noOfBoards
    if not 1 <= n <= len(p.deals):
        raise TooManyBoardsError(f"noOfBoards {n} is not 1..{len(p.deals)}", field="noOfBoards")
    canon = ffi.new("struct boardsPBN *", p[0]) if pbn else p

    def one(i: int) -> None:
        dl = p.deals[i]
        if pbn:
            masks = _masks_from_pbn(ffi.string(dl.remainCards))
            canon.deals[i].remainCards = _canonical_pbn(masks)
        else:
            masks = _masks(dl.remainCards)
        _board_checks(dl, p.target[i], p.solutions[i], p.mode[i], masks)

    for i in range(n):
        _in_batch(i, "board", one, i)
    return canon


def _solve_all(fn: str, bop: object, solvedp: object, pbn: bool, call: Callable[[CData, CData], int]) -> int:
    p = _ptr(bop, "boardsPBN" if pbn else "boards", fn, "bop")
    out = _ptr(solvedp, "solvedBoards", fn, "solvedp")
    canon = _boards_checks(p, pbn)
    with slots.all():
        return check(call(canon, out), fn)


@_dds_function
def SolveAllBoards(bop: object, solvedp: object) -> int:
    """``SolveAllBoards(struct boardsPBN *bop, struct solvedBoards *solvedp)``; DDS's threads."""
    return _solve_all("SolveAllBoards", bop, solvedp, True, lib.SolveAllBoards)


@_dds_function
def SolveAllBoardsBin(bop: object, solvedp: object) -> int:
    """``SolveAllBoardsBin(struct boards *bop, struct solvedBoards *solvedp)``.

    DDS 2.9.0 does not export it; there ddsbind runs ``SolveAllChunksBin`` with
    chunk size 1 (what DDS 2.9.0's ``SolveAllBoards`` does for PBN input).
    """
    return _solve_all("SolveAllBoardsBin", bop, solvedp, False, lib.ddsbind_SolveAllBoardsBin)


def _chunk(chunkSize: object, fn: str) -> int:
    c = _int(chunkSize, fn, "chunkSize")
    if c < 1:
        raise ChunkSizeError(f"chunkSize {c} < 1", field="chunkSize")
    return c


def _solve_chunks(fn: str, bop: object, solvedp: object, chunkSize: object, pbn: bool, call: Callable) -> int:
    c = _chunk(chunkSize, fn)
    return _solve_all(fn, bop, solvedp, pbn, lambda b, s: call(b, s, c))


@_dds_function
def SolveAllChunksBin(bop: object, solvedp: object, chunkSize: int) -> int:
    """``SolveAllChunksBin(struct boards *bop, struct solvedBoards *solvedp, int chunkSize)``."""
    return _solve_chunks("SolveAllChunksBin", bop, solvedp, chunkSize, False, lib.SolveAllChunksBin)


@_dds_function
def SolveAllChunksPBN(bop: object, solvedp: object, chunkSize: int) -> int:
    """``SolveAllChunksPBN(struct boardsPBN *bop, struct solvedBoards *solvedp, int chunkSize)``."""
    return _solve_chunks("SolveAllChunksPBN", bop, solvedp, chunkSize, True, lib.SolveAllChunksPBN)


@_dds_function
def SolveAllChunks(bop: object, solvedp: object, chunkSize: int) -> int:
    """``SolveAllChunks``: DDS's alias for ``SolveAllChunksPBN`` (DDS says: don't use it)."""
    return _solve_chunks("SolveAllChunks", bop, solvedp, chunkSize, True, lib.SolveAllChunks)


# -- par ------------------------------------------------------------------------------


def _par_call(
    fn: str, tablep: object, out: CData, dealer: int | None, vulnerable: object, call: Callable[..., int]
) -> int:
    """Check a par function's table, dealer and vulnerability, then call it (no thread memory used)."""
    t = _ptr(tablep, "ddTableResults", fn, "tablep")
    vul = _int(vulnerable, fn, "vulnerable")
    _validate.table_results([list(row) for row in t.resTable])
    if dealer is not None:
        _validate.dealer(dealer)
    _validate.vulnerable(vul)
    args = (t, out, vul) if dealer is None else (t, out, dealer, vul)
    return check(call(*args), fn)


@_dds_function
def Par(tablep: object, presp: object, vulnerable: int) -> int:
    """``Par(struct ddTableResults *tablep, struct parResults *presp, int vulnerable)``."""
    out = _ptr(presp, "parResults", "Par", "presp")
    return _par_call("Par", tablep, out, None, vulnerable, lib.Par)


@_dds_function
def DealerPar(tablep: object, presp: object, dealer: int, vulnerable: int) -> int:
    """``DealerPar(struct ddTableResults *tablep, struct parResultsDealer *presp, int dealer, int vulnerable)``."""
    out = _ptr(presp, "parResultsDealer", "DealerPar", "presp")
    return _par_call("DealerPar", tablep, out, _int(dealer, "DealerPar", "dealer"), vulnerable, lib.DealerPar)


@_dds_function
def DealerParBin(tablep: object, presp: object, dealer: int, vulnerable: int) -> int:
    """``DealerParBin(struct ddTableResults *tablep, struct parResultsMaster *presp, int dealer, int vulnerable)``."""
    out = _ptr(presp, "parResultsMaster", "DealerParBin", "presp")
    d = _int(dealer, "DealerParBin", "dealer")
    return _par_call("DealerParBin", tablep, out, d, vulnerable, lib.DealerParBin)


def _pair(obj: object, struct: str, fn: str) -> CData:
    """A ``struct X[2]`` argument (``sidesRes``)."""
    t = _ctype(obj)
    if t is None or t.kind != "array" or t.item is not ffi.typeof(f"struct {struct}") or t.length < 2:
        raise ArgumentError(f"sidesRes must be struct {struct}[2] (dll.{struct}(count=2))", function=fn)
    return obj


@_dds_function
def SidesPar(tablep: object, sidesRes: object, vulnerable: int) -> int:
    """``SidesPar(struct ddTableResults *tablep, struct parResultsDealer sidesRes[2], int vulnerable)``."""
    out = _pair(sidesRes, "parResultsDealer", "SidesPar")
    return _par_call("SidesPar", tablep, out, None, vulnerable, lib.SidesPar)


@_dds_function
def SidesParBin(tablep: object, sidesRes: object, vulnerable: int) -> int:
    """``SidesParBin(struct ddTableResults *tablep, struct parResultsMaster sidesRes[2], int vulnerable)``."""
    out = _pair(sidesRes, "parResultsMaster", "SidesParBin")
    return _par_call("SidesParBin", tablep, out, None, vulnerable, lib.SidesParBin)


def _master_ok(pres: CData, count: int) -> None:
    for j in range(count):
        m = pres[j]
        if not 0 <= m.number <= 10:
            field = f"parResultsMaster[{j}].number"
            raise UnknownFaultError(f"{field} {m.number} is not 0..10", field=field)
        for i in range(m.number):
            c = m.contracts[i]
            if not (0 <= c.underTricks <= 13 and 0 <= c.overTricks <= 13 and 0 <= c.level <= 7
                    and 0 <= c.denom <= 4 and 0 <= c.seats <= 5):  # fmt: skip
                field = f"parResultsMaster[{j}].contracts[{i}]"
                raise UnknownFaultError(f"{field} has a field out of range", field=field)


#: Smallest ``resp`` buffer ConvertToDealerTextFormat may write into (10 contracts of text).
DEALER_TEXT_SIZE = 256


@_dds_function
def ConvertToDealerTextFormat(pres: object, resp: object) -> int:
    """``ConvertToDealerTextFormat(struct parResultsMaster *pres, char *resp)``.

    ``resp`` must be a ``char[]`` of at least :data:`DEALER_TEXT_SIZE` bytes
    (``ffi.new("char[256]")``); DDS writes the text there.
    """
    fn = "ConvertToDealerTextFormat"
    p = _ptr(pres, "parResultsMaster", fn, "pres")
    text = _chars(resp, DEALER_TEXT_SIZE, fn, "resp")
    _master_ok(p, 1)
    return check(lib.ConvertToDealerTextFormat(p, text), fn)


@_dds_function
def ConvertToSidesTextFormat(pres: object, resp: object) -> int:
    """``ConvertToSidesTextFormat(struct parResultsMaster *pres, struct parTextResults *resp)``.

    ``pres`` is the two-element ``sidesRes`` array from :func:`SidesParBin`.
    """
    fn = "ConvertToSidesTextFormat"
    p = _pair(pres, "parResultsMaster", fn)
    out = _ptr(resp, "parTextResults", fn, "resp")
    _master_ok(p, 2)
    return check(lib.ConvertToSidesTextFormat(p, out), fn)


def _calc_par(
    fn: str, masks: list[list[int]], tablep: object, vulnerable: int, presp: object, call: Callable[..., int]
) -> int:
    """The checks of both deprecated CalcPar forms, then ``call(tablep, vulnerable, presp)`` on every slot."""
    t = _ptr(tablep, "ddTableResults", fn, "tablep")
    out = _ptr(presp, "parResults", fn, "presp")
    vulnerable = _int(vulnerable, fn, "vulnerable")
    _validate.table_deal(masks)
    _validate.vulnerable(vulnerable)
    with slots.all():
        return check(call(t, vulnerable, out), fn)


@_dds_function
def CalcPar(tableDeal: object, vulnerable: int, tablep: object, presp: object) -> int:
    """``CalcPar(struct ddTableDeal tableDeal, int vulnerable, struct ddTableResults *tablep, struct parResults *presp)`` (deprecated by DDS)."""
    p = _ptr(tableDeal, "ddTableDeal", "CalcPar", "tableDeal")
    return _calc_par(
        "CalcPar", _masks(p.cards), tablep, vulnerable, presp, lambda t, v, out: lib.CalcPar(p[0], v, t, out)
    )


@_dds_function
def CalcParPBN(tableDealPBN: object, tablep: object, vulnerable: int, presp: object) -> int:
    """``CalcParPBN(struct ddTableDealPBN tableDealPBN, struct ddTableResults *tablep, int vulnerable, struct parResults *presp)`` (deprecated by DDS)."""
    p = _ptr(tableDealPBN, "ddTableDealPBN", "CalcParPBN", "tableDealPBN")
    masks = _masks_from_pbn(ffi.string(p.cards))

    def call(t: CData, v: int, out: CData) -> int:
        canon = ffi.new("struct ddTableDealPBN *", {"cards": _canonical_pbn(masks)})  # after the checks
        return lib.CalcParPBN(canon[0], t, v, out)

    return _calc_par("CalcParPBN", masks, tablep, vulnerable, presp, call)


# -- play analysis ----------------------------------------------------------------------


def _pbn_play(text: bytes, number: int) -> tuple[list[int], list[int]]:
    """Suits and ranks of the first ``number`` cards of a playTracePBN string.

    Read by :func:`ddsbind.game.parse_cards` (``"SAHK"``, ``"SA HK"``,
    ``"SA,HK"``, ``"C10"``); DDS receives the cards rewritten as its own
    two-character form (:func:`_canonical_play`), so it reads exactly what
    was checked.
    """
    if not 0 <= number <= 52:
        raise PlayFaultError(f"playPBN.number {number} is not 0..52", field="number")
    try:
        cards = game.parse_cards(text.decode("ascii"))
    except UnicodeDecodeError:
        raise PlayFaultError("playPBN.cards is not ASCII", field="cards") from None
    except DDSError as exc:
        raise PlayFaultError(f"playPBN.cards: {exc.detail}", field="cards") from None
    if len(cards) < number:
        raise PlayFaultError(f"playPBN.cards holds {len(cards)} cards; number says {number}", field="cards")
    return [c.suit for c in cards[:number]], [c.rank for c in cards[:number]]


def _canonical_play(suits: list[int], ranks: list[int]) -> bytes:
    """A checked play as DDS's PBN play string: two characters a card (``"SAHT"``)."""
    return "".join(str(Card(s, r)) for s, r in zip(suits, ranks, strict=True)).encode("ascii")


def _bin_play(trace: CData) -> tuple[list[int], list[int]]:
    n = trace.number
    if not 0 <= n <= 52:
        raise PlayFaultError(f"play.number {n} is not 0..52", field="number")
    return list(trace.suit[0:n]), list(trace.rank[0:n])


def _play_checks(dl: CData, masks: list[list[int]], suits: list[int], ranks: list[int]) -> None:
    _board_checks(dl, -1, 1, 1, masks)
    _validate.play_trace(dl.trump, dl.first, list(dl.currentTrickSuit), list(dl.currentTrickRank), masks, suits, ranks)


def _analyse_play_args(fn: str, dl: object, play: object, solved: object, thread: object) -> tuple[Any, ...]:
    """AnalysePlayBin's arguments checked: types, ``thread`` (unless None), the board, the play."""
    p = _ptr(dl, "deal", fn, "dl")
    pl = _ptr(play, "playTraceBin", fn, "play")
    out = _ptr(solved, "solvedPlay", fn, "solved")
    if thread is not None:
        _validate.thread_index(_int(thread, fn, "thrId"), slots.count)
    _play_checks(p, _masks(p.remainCards), *_bin_play(pl))
    return p, pl, out


@_dds_function
def AnalysePlayBin(dl: object, play: object, solved: object, thrId: int) -> int:
    """``AnalysePlayBin(struct deal dl, struct playTraceBin play, struct solvedPlay *solved, int thrId)``."""
    fn = "AnalysePlayBin"
    p, pl, out = _analyse_play_args(fn, dl, play, solved, thrId)
    thrId = _int(thrId, fn, "thrId")  # checked above
    with slots.slot(thrId):
        return check(lib.AnalysePlayBin(p[0], pl[0], out, thrId), fn)


def analyse_play_bin(dl: object, play: object, solved: object, thread: int | None = None) -> None:
    """``AnalysePlayBin`` for the Pythonic layer: raises, and takes its thread slot once (see :func:`solve_board`)."""
    fn = "AnalysePlayBin"
    try:
        p, pl, out = _analyse_play_args(fn, dl, play, solved, None)
        with slots.any() if thread is None else slots.holding(thread) as index:
            check(lib.AnalysePlayBin(p[0], pl[0], out, index), fn)
    except DDSError as exc:
        exc.function = exc.function or fn
        raise


@_dds_function
def AnalysePlayPBN(dlPBN: object, playPBN: object, solvedp: object, thrId: int) -> int:
    """``AnalysePlayPBN(struct dealPBN dlPBN, struct playTracePBN playPBN, struct solvedPlay *solvedp, int thrId)``."""
    fn = "AnalysePlayPBN"
    p = _ptr(dlPBN, "dealPBN", fn, "dlPBN")
    pl = _ptr(playPBN, "playTracePBN", fn, "playPBN")
    out = _ptr(solvedp, "solvedPlay", fn, "solvedp")
    thrId = _int(thrId, fn, "thrId")
    _validate.thread_index(thrId, slots.count)
    masks = _masks_from_pbn(ffi.string(p.remainCards))
    suits, ranks = _pbn_play(ffi.string(pl.cards), pl.number)
    _play_checks(p, masks, suits, ranks)
    canon = ffi.new("struct dealPBN *", p[0])
    canon.remainCards = _canonical_pbn(masks)
    canon_play = ffi.new("struct playTracePBN *", {"number": pl.number, "cards": _canonical_play(suits, ranks)})
    with slots.slot(thrId):
        return check(lib.AnalysePlayPBN(canon[0], canon_play[0], out, thrId), fn)


def _analyse_all(fn: str, bop: object, plp: object, solvedp: object, chunkSize: object, pbn: bool) -> int:
    p = _ptr(bop, "boardsPBN" if pbn else "boards", fn, "bop")
    pl = _ptr(plp, "playTracesPBN" if pbn else "playTracesBin", fn, "plp")
    out = _ptr(solvedp, "solvedPlays", fn, "solvedp")
    # DDS 2.9 ignores chunkSize here (no RETURN_CHUNK_SIZE), and checks the
    # board count before the trace count: so does ddsbind.
    c = _int(chunkSize, fn, "chunkSize")
    n = p.noOfBoards
    if not 1 <= n <= min(len(p.deals), len(pl.plays)):
        raise TooManyBoardsError(f"noOfBoards {n} is not 1..{min(len(p.deals), len(pl.plays))}", field="noOfBoards")
    if n != pl.noOfBoards:
        raise UnknownFaultError(f"{n} boards but {pl.noOfBoards} play traces", field="noOfBoards")
    canon = ffi.new("struct boardsPBN *", p[0]) if pbn else p
    canon_plays = ffi.new("struct playTracesPBN *", pl[0]) if pbn else pl

    def one(i: int) -> None:
        dl, tr = p.deals[i], pl.plays[i]
        if pbn:
            masks = _masks_from_pbn(ffi.string(dl.remainCards))
            canon.deals[i].remainCards = _canonical_pbn(masks)
            cards = _pbn_play(ffi.string(tr.cards), tr.number)
            canon_plays.plays[i].cards = _canonical_play(*cards)
        else:
            masks = _masks(dl.remainCards)
            cards = _bin_play(tr)
        _play_checks(dl, masks, *cards)

    for i in range(n):
        _in_batch(i, "board", one, i)
    call = lib.AnalyseAllPlaysPBN if pbn else lib.AnalyseAllPlaysBin
    with slots.all():
        return check(call(canon, canon_plays, out, c), fn)


@_dds_function
def AnalyseAllPlaysBin(bop: object, plp: object, solvedp: object, chunkSize: int) -> int:
    """``AnalyseAllPlaysBin(struct boards *bop, struct playTracesBin *plp, struct solvedPlays *solvedp, int chunkSize)``."""
    return _analyse_all("AnalyseAllPlaysBin", bop, plp, solvedp, chunkSize, False)


@_dds_function
def AnalyseAllPlaysPBN(bopPBN: object, plpPBN: object, solvedp: object, chunkSize: int) -> int:
    """``AnalyseAllPlaysPBN(struct boardsPBN *bopPBN, struct playTracesPBN *plpPBN, struct solvedPlays *solvedp, int chunkSize)``."""
    return _analyse_all("AnalyseAllPlaysPBN", bopPBN, plpPBN, solvedp, chunkSize, True)


# -- resources and information ---------------------------------------------------------


def SetMaxThreads(userThreads: int) -> None:
    """``SetMaxThreads(int userThreads)``: 0 lets DDS choose.

    DDS never runs more threads than cores; ``GetDDSInfo`` (or
    ``ddsbind.dds_info().threads``) says how many it really runs.  Raises
    ``StateError`` (a ``RuntimeError``) while any board is being solved.
    """
    n = _int(userThreads, "SetMaxThreads", "userThreads")
    _apply_settings(lib.SetMaxThreads, n)


#: The least ``maxMemoryMB`` DDS 2.9 survives: below it (and for any negative
#: value) DDS configures no thread memory, prints ``Memory::GetPtr: 0 vs. 0``
#: and ends the process.  Found by experiment with Debian's DDS 2.9.0 (each
#: value in a fresh process); tests/core/test_hostile.py asks DDS again at the
#: boundary.  0 means "DDS chooses".
MIN_MEMORY_MB = 24


def _physical_memory_mb() -> int:
    return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2**20


def SetResources(maxMemoryMB: int, maxThreads: int) -> None:
    """``SetResources(int maxMemoryMB, int maxThreads)``; refused (``StateError``, a ``RuntimeError``) while solving.

    ``maxMemoryMB`` 0 lets DDS choose; otherwise it must be at least
    :data:`MIN_MEMORY_MB` (DDS ends the process below that) and at most the
    machine's physical memory (DDS would grow its tables until the machine
    runs out).  Anything else raises ``InvalidArgumentError`` before DDS sees
    it.  ``maxThreads`` of 0 or less lets DDS choose.
    """
    fn = "SetResources"
    mem = _int(maxMemoryMB, fn, "maxMemoryMB")
    thr = _int(maxThreads, fn, "maxThreads")
    if mem != 0 and not MIN_MEMORY_MB <= mem <= _physical_memory_mb():
        raise InvalidArgumentError(
            f"maxMemoryMB {mem} is not 0 (DDS chooses) or {MIN_MEMORY_MB}..{_physical_memory_mb()} "
            "(DDS ends the process with less, and exhausts the machine with more than it has)",
            function=fn,
            field="maxMemoryMB",
        )
    _apply_settings(lib.SetResources, mem, thr)


def _apply_settings(call: Callable[..., object], *args: int) -> None:
    with _settings_lock:
        slots.reconfigure(lambda: call(*args), StateError)
        _settings[:] = [(call, args)]


@_dds_function
def SetThreading(code: int) -> int:
    """``SetThreading(int code)``: choose DDS's threading system (0 = DDS's default).

    Returns DDS's status: ``RETURN_THREAD_MISSING`` for a system not compiled
    in.  Refused (``StateError``, a ``RuntimeError``) while solving.
    """
    c = _int(code, "SetThreading", "code")
    result: list[int] = []
    slots.reconfigure(lambda: result.append(lib.SetThreading(c)), StateError)
    return check(result[0], "SetThreading")


def FreeMemory() -> None:
    """``FreeMemory()``: DDS gives back its thread memory; refused (``StateError``, a ``RuntimeError``) while solving.

    DDS 2.9 crashes on the next solve after ``FreeMemory`` (it leaves no
    thread memory behind), so ddsbind re-applies the last ``SetMaxThreads``
    or ``SetResources`` in the same step, with nothing solving: the memory
    the threads had gathered (transposition tables) is freed, and no solve
    can ever see DDS without thread memory.
    """
    with _settings_lock:
        call, args = _settings[-1] if _settings else (lib.SetMaxThreads, (0,))

        def free_and_set_up() -> None:
            lib.FreeMemory()
            call(*args)

        slots.reconfigure(free_and_set_up, StateError)


def GetDDSInfo(info: object) -> None:
    """``GetDDSInfo(struct DDSInfo *info)``."""
    lib.GetDDSInfo(_ptr(info, "DDSInfo", "GetDDSInfo", "info"))


def ErrorMessage(code: int, line: object) -> None:
    """``ErrorMessage(int code, char line[80])``: DDS's text for ``code`` into ``line``."""
    text = _chars(line, 80, "ErrorMessage", "line")
    lib.ErrorMessage(_int(code, "ErrorMessage", "code"), text)


__all__ = [
    *_STRUCTS,
    *_RETURN_NAMES,
    "DDS_HANDS",
    "DDS_STRAINS",
    "DDS_SUITS",
    "DDS_VERSION",
    "DEALER_TEXT_SIZE",
    "MAXNOOFBOARDS",
    "MAXNOOFTABLES",
    "AnalyseAllPlaysBin",
    "AnalyseAllPlaysPBN",
    "AnalysePlayBin",
    "AnalysePlayPBN",
    "CalcAllTables",
    "CalcAllTablesPBN",
    "CalcDDtable",
    "CalcDDtablePBN",
    "CalcPar",
    "CalcParPBN",
    "ConvertToDealerTextFormat",
    "ConvertToSidesTextFormat",
    "DealerPar",
    "DealerParBin",
    "ErrorMessage",
    "FreeMemory",
    "GetDDSInfo",
    "Par",
    "SetMaxThreads",
    "SetResources",
    "SetThreading",
    "SidesPar",
    "SidesParBin",
    "SolveAllBoards",
    "SolveAllBoardsBin",
    "SolveAllChunks",
    "SolveAllChunksBin",
    "SolveAllChunksPBN",
    "SolveBoard",
    "SolveBoardPBN",
    "ffi",
    "MIN_MEMORY_MB",
    "last_error",
    "max_tables",
    "raising",
]
# Public inside the package (the Pythonic layer), not part of the DLL API:
# solve_board, analyse_play_bin.
