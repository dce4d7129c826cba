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
  raise ``RuntimeError`` instead of pulling memory from under a running call.
* ``SolveAllBoardsBin`` exists even on DDS 2.9.0, which lacks it: there it
  runs ``SolveAllChunksBin`` with chunk size 1.
* PBN strings are parsed by ddsbind and handed to DDS in canonical form, so
  DDS solves exactly the deal that was checked.
* A wrong argument type raises :class:`~ddsbind.errors.ArgumentError`.

The GIL is released during every DDS call (cffi does so for all calls).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from ddsbind import _validate
from ddsbind._binding import ffi, lib, slots
from ddsbind.deal import Card, masks_to_pbn, pbn_to_masks
from ddsbind.errors import ArgumentError, DDSError

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


def _constructor(name: str) -> Callable[..., object]:
    ctype = f"struct {name}"

    def make(*, count: int | None = None, **fields: object) -> object:
        if count is not None:
            if fields:
                raise ArgumentError("give either count= or field values, not both")
            return ffi.new(f"{ctype}[{int(count)}]")
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


for _name in _STRUCTS:
    globals()[_name] = _constructor(_name)


# -- argument plumbing ----------------------------------------------------------

_local = threading.local()


def last_error() -> tuple[int, str | None, str | None]:
    """``(code, function, detail)`` of this thread's last failing DLL-layer call.

    ``detail`` names the card or field ddsbind's checks found at fault (None
    when DDS itself returned the code).  ``(RETURN_NO_FAULT, None, None)``
    before any failure.
    """
    return getattr(_local, "last", (RETURN_NO_FAULT, None, None))


def _fail(function: str, code: int, detail: str | None) -> int:
    _local.last = (code, function, detail)
    return code


def _done(function: str, rc: int) -> int:
    if rc != RETURN_NO_FAULT:
        _local.last = (rc, function, None)
    return rc


def _ctype(obj: object) -> object:
    """The cffi type of a cdata object, None for anything else (ffi.typeof would parse a str)."""
    return ffi.typeof(obj) if isinstance(obj, ffi.CData) else None


def _ptr(obj: object, struct: str, function: str, arg: str) -> object:
    """``obj`` as a pointer to ``struct X`` (accepts a pointer, an array, or a struct lvalue)."""
    want = ffi.typeof(f"struct {struct} *")
    t = _ctype(obj)
    if t is None:
        raise ArgumentError(
            f"{arg} must be a struct {struct} (e.g. dll.{struct}()), got {type(obj).__name__}",
            function=function,
        )
    if t is want:
        return obj
    if t.kind == "array" and t.item is ffi.typeof(f"struct {struct}"):
        return ffi.cast(want, obj)
    if t is ffi.typeof(f"struct {struct}"):
        return ffi.addressof(obj)
    raise ArgumentError(f"{arg} must be a struct {struct}, got {t.cname}", function=function)


def _int(value: object, function: str, arg: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            import operator

            value = operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            raise ArgumentError(f"{arg} must be an int, got {type(value).__name__}", function=function) from None
    if not -(2**31) <= value < 2**31:
        raise ArgumentError(f"{arg} = {value} does not fit a C int", function=function)
    return value


def _ints(function: str, **args: object) -> list[int]:
    """Several int arguments checked at once, in the order given."""
    return [_int(v, function, name) for name, v in args.items()]


def _masks(cards: object) -> list[list[int]]:
    """``unsigned int [4][4]`` as nested lists, read in one unpack (cheap on the per-call path)."""
    flat = ffi.unpack(ffi.cast("unsigned int *", cards), 16)
    return [flat[0:4], flat[4:8], flat[8:12], flat[12:16]]


def _masks_from_pbn(text: bytes) -> tuple[list[list[int]] | None, str | None]:
    """remainCards from a PBN ``remainCards``/``cards`` string (hand lengths are checked later)."""
    try:
        return pbn_to_masks(text.decode("ascii")), None
    except UnicodeDecodeError:
        return None, "PBN string is not ASCII"
    except DDSError as exc:
        return None, exc.detail


def _canonical_pbn(masks: list[list[int]]) -> bytes:
    """The checked deal as DDS will receive it, so DDS solves exactly what was checked."""
    return masks_to_pbn(masks).encode("ascii")


def _board_checks(dl: object, target: int, solutions: int, mode: int, masks: list[list[int]]) -> tuple:
    return _validate.board(
        dl.trump,  # type: ignore[attr-defined]
        dl.first,  # type: ignore[attr-defined]
        list(dl.currentTrickSuit),  # type: ignore[attr-defined]
        list(dl.currentTrickRank),  # type: ignore[attr-defined]
        masks,
        target,
        solutions,
        mode,
    )


# -- single boards ------------------------------------------------------------------


def SolveBoard(dl: object, target: int, solutions: int, mode: int, futp: object, threadIndex: int) -> int:
    """``SolveBoard(struct deal dl, int target, int solutions, int mode, struct futureTricks *futp, int threadIndex)``."""
    fn = "SolveBoard"
    p = _ptr(dl, "deal", fn, "dl")
    out = _ptr(futp, "futureTricks", fn, "futp")
    target, solutions, mode, threadIndex = _ints(
        fn, target=target, solutions=solutions, mode=mode, threadIndex=threadIndex
    )
    code, detail = _validate.thread_index(threadIndex, slots.count)
    if code == RETURN_NO_FAULT:
        code, detail = _board_checks(p, target, solutions, mode, _masks(p.remainCards))
    if code != RETURN_NO_FAULT:
        return _fail(fn, code, detail)
    with slots.slot(threadIndex):
        return _done(fn, lib.SolveBoard(p[0], target, solutions, mode, out, threadIndex))


def SolveBoardPBN(dlpbn: object, target: int, solutions: int, mode: int, futp: object, thrId: int) -> int:
    """``SolveBoardPBN(struct dealPBN dlpbn, int target, int solutions, int mode, struct futureTricks *futp, int thrId)``."""
    fn = "SolveBoardPBN"
    p = _ptr(dlpbn, "dealPBN", fn, "dlpbn")
    out = _ptr(futp, "futureTricks", fn, "futp")
    target, solutions, mode, thrId = _ints(fn, target=target, solutions=solutions, mode=mode, thrId=thrId)
    code, detail = _validate.thread_index(thrId, slots.count)
    if code != RETURN_NO_FAULT:
        return _fail(fn, code, detail)
    masks, why = _masks_from_pbn(ffi.string(p.remainCards))
    if masks is None:
        return _fail(fn, lib.RETURN_PBN_FAULT, why)
    code, detail = _board_checks(p, target, solutions, mode, masks)
    if code != RETURN_NO_FAULT:
        return _fail(fn, code, detail)
    canon = ffi.new("struct dealPBN *", p[0])
    canon.remainCards = _canonical_pbn(masks)
    with slots.slot(thrId):
        return _done(fn, lib.SolveBoardPBN(canon[0], target, solutions, mode, out, thrId))


# -- tables -------------------------------------------------------------------------


def CalcDDtable(tableDeal: object, tablep: object) -> int:
    """``CalcDDtable(struct ddTableDeal tableDeal, struct ddTableResults *tablep)``; uses DDS's threads."""
    fn = "CalcDDtable"
    p = _ptr(tableDeal, "ddTableDeal", fn, "tableDeal")
    out = _ptr(tablep, "ddTableResults", fn, "tablep")
    code, detail = _validate.table_deal(_masks(p.cards))
    if code != RETURN_NO_FAULT:
        return _fail(fn, code, detail)
    with slots.all():
        return _done(fn, lib.CalcDDtable(p[0], out))


def CalcDDtablePBN(tableDealPBN: object, tablep: object) -> int:
    """``CalcDDtablePBN(struct ddTableDealPBN tableDealPBN, struct ddTableResults *tablep)``."""
    fn = "CalcDDtablePBN"
    p = _ptr(tableDealPBN, "ddTableDealPBN", fn, "tableDealPBN")
    out = _ptr(tablep, "ddTableResults", fn, "tablep")
    masks, why = _masks_from_pbn(ffi.string(p.cards))
    if masks is None:
        return _fail(fn, lib.RETURN_PBN_FAULT, why)
    code, detail = _validate.table_deal(masks)
    if code != RETURN_NO_FAULT:
        return _fail(fn, code, detail)
    canon = ffi.new("struct ddTableDealPBN *", {"cards": _canonical_pbn(masks)})
    with slots.all():
        return _done(fn, lib.CalcDDtablePBN(canon[0], out))


def max_tables(strains: int) -> int:
    """How many tables one ``CalcAllTables`` call takes when ``strains`` strains are solved.

    DDS's own rule: a call is refused (``RETURN_TOO_MANY_TABLES``) when
    ``strains * noOfTables > MAXNOOFTABLES * DDS_STRAINS``.  In 2.9 that is
    40 tables for all 5 strains, 50 for 4, 66 for 3, 100 for 2, 200 for 1
    (the tests ask DDS itself at each boundary).
    """
    return (MAXNOOFTABLES * DDS_STRAINS) // strains if strains > 0 else 0


def _filter_list(trumpFilter: object, fn: str) -> list[int]:
    try:
        vals = [int(trumpFilter[i]) for i in range(5)]  # type: ignore[index]
    except (TypeError, IndexError, ValueError):
        raise ArgumentError("trumpFilter must hold 5 ints (1 = leave that strain out)", function=fn) from None
    return vals


def _calc_all_checks(fn: str, n: int, mode: int, filt: list[int], capacity: int) -> tuple:
    strains = sum(1 for f in filt if not f)
    if strains == 0:
        return lib.RETURN_NO_SUIT, "trumpFilter leaves out all 5 strains"
    # Stricter than DDS below 1: DDS would solve one uninitialised deal for noOfTables 0.
    if n < 1 or n > min(max_tables(strains), capacity):
        return lib.RETURN_TOO_MANY_TABLES, (
            f"noOfTables {n}: one call takes 1..{max_tables(strains)} tables for {strains} strain(s)"
        )
    return _validate.vulnerable(mode, allow_none=True)


def CalcAllTables(dealsp: object, mode: int, trumpFilter: object, resp: object, presp: object) -> int:
    """``CalcAllTables(struct ddTableDeals *dealsp, int mode, int trumpFilter[5], struct ddTablesRes *resp, struct allParResults *presp)``.

    ``mode`` is the vulnerability for par (-1: no par); ``trumpFilter[s]``
    non-zero leaves strain ``s`` out.  See :func:`max_tables` for the limit.
    """
    fn = "CalcAllTables"
    p = _ptr(dealsp, "ddTableDeals", fn, "dealsp")
    out = _ptr(resp, "ddTablesRes", fn, "resp")
    par = _ptr(presp, "allParResults", fn, "presp")
    mode = _int(mode, fn, "mode")
    filt = _filter_list(trumpFilter, fn)
    code, detail = _calc_all_checks(fn, p.noOfTables, mode, filt, len(p.deals))
    for i in range(p.noOfTables) if code == RETURN_NO_FAULT else ():
        code, detail = _validate.table_deal(_masks(p.deals[i].cards))
        if code != RETURN_NO_FAULT:
            detail = f"table {i}: {detail}"
            break
    if code != RETURN_NO_FAULT:
        return _fail(fn, code, detail)
    with slots.all():
        return _done(fn, lib.CalcAllTables(p, mode, ffi.new("int[5]", filt), out, par))


def CalcAllTablesPBN(dealsp: object, mode: int, trumpFilter: object, resp: object, presp: object) -> int:
    """``CalcAllTablesPBN(struct ddTableDealsPBN *dealsp, int mode, int trumpFilter[5], struct ddTablesRes *resp, struct allParResults *presp)``."""
    fn = "CalcAllTablesPBN"
    p = _ptr(dealsp, "ddTableDealsPBN", fn, "dealsp")
    out = _ptr(resp, "ddTablesRes", fn, "resp")
    par = _ptr(presp, "allParResults", fn, "presp")
    mode = _int(mode, fn, "mode")
    filt = _filter_list(trumpFilter, fn)
    code, detail = _calc_all_checks(fn, p.noOfTables, mode, filt, len(p.deals))
    if code != RETURN_NO_FAULT:
        return _fail(fn, code, detail)
    canon = ffi.new("struct ddTableDealsPBN *")
    canon.noOfTables = p.noOfTables
    for i in range(p.noOfTables):
        masks, why = _masks_from_pbn(ffi.string(p.deals[i].cards))
        if masks is None:
            return _fail(fn, lib.RETURN_PBN_FAULT, f"table {i}: {why}")
        code, detail = _validate.table_deal(masks)
        if code != RETURN_NO_FAULT:
            return _fail(fn, code, f"table {i}: {detail}")
        canon.deals[i].cards = _canonical_pbn(masks)
    with slots.all():
        return _done(fn, lib.CalcAllTablesPBN(canon, mode, ffi.new("int[5]", filt), out, par))


# -- batches of boards --------------------------------------------------------------


def _boards_checks(fn: str, p: object, pbn: bool) -> tuple[int, str | None, object]:
    n = p.noOfBoards  # type: ignore[attr-defined]
    if not 1 <= n <= len(p.deals):  # type: ignore[attr-defined]
        return lib.RETURN_TOO_MANY_BOARDS, f"noOfBoards {n} is not 1..{len(p.deals)}", None  # type: ignore[attr-defined]
    canon = ffi.new("struct boardsPBN *", p[0]) if pbn else p  # type: ignore[index]
    for i in range(n):
        dl = p.deals[i]  # type: ignore[attr-defined]
        if pbn:
            masks, why = _masks_from_pbn(ffi.string(dl.remainCards))
            if masks is None:
                return lib.RETURN_PBN_FAULT, f"board {i}: {why}", None
            canon.deals[i].remainCards = _canonical_pbn(masks)  # type: ignore[attr-defined]
        else:
            masks = _masks(dl.remainCards)
        code, detail = _board_checks(
            dl,
            p.target[i],
            p.solutions[i],
            p.mode[i],
            masks,  # type: ignore[attr-defined]
        )
        if code != RETURN_NO_FAULT:
            return code, f"board {i}: {detail}", None
    return RETURN_NO_FAULT, None, canon


def _solve_all(fn: str, bop: object, solvedp: object, pbn: bool, call: Callable[[object, object], int]) -> int:
    p = _ptr(bop, "boardsPBN" if pbn else "boards", fn, "bop")
    out = _ptr(solvedp, "solvedBoards", fn, "solvedp")
    code, detail, canon = _boards_checks(fn, p, pbn)
    if code != RETURN_NO_FAULT:
        return _fail(fn, code, detail)
    with slots.all():
        return _done(fn, call(canon, out))


def SolveAllBoards(bop: object, solvedp: object) -> int:
    """``SolveAllBoards(struct boardsPBN *bop, struct solvedBoards *solvedp)``; DDS's threads."""
    return _solve_all("SolveAllBoards", bop, solvedp, True, lib.SolveAllBoards)


def SolveAllBoardsBin(bop: object, solvedp: object) -> int:
    """``SolveAllBoardsBin(struct boards *bop, struct solvedBoards *solvedp)``.

    DDS 2.9.0 does not export it; there ddsbind runs ``SolveAllChunksBin`` with
    chunk size 1 (what DDS 2.9.0's ``SolveAllBoards`` does for PBN input).
    """
    return _solve_all("SolveAllBoardsBin", bop, solvedp, False, lib.ddsbind_SolveAllBoardsBin)


def _solve_chunks(fn: str, bop: object, solvedp: object, chunkSize: object, pbn: bool, call: Callable) -> int:
    c = _int(chunkSize, fn, "chunkSize")
    if c < 1:
        return _fail(fn, lib.RETURN_CHUNK_SIZE, f"chunkSize {c} < 1")
    return _solve_all(fn, bop, solvedp, pbn, lambda b, s: call(b, s, c))


def SolveAllChunksBin(bop: object, solvedp: object, chunkSize: int) -> int:
    """``SolveAllChunksBin(struct boards *bop, struct solvedBoards *solvedp, int chunkSize)``."""
    return _solve_chunks("SolveAllChunksBin", bop, solvedp, chunkSize, False, lib.SolveAllChunksBin)


def SolveAllChunksPBN(bop: object, solvedp: object, chunkSize: int) -> int:
    """``SolveAllChunksPBN(struct boardsPBN *bop, struct solvedBoards *solvedp, int chunkSize)``."""
    return _solve_chunks("SolveAllChunksPBN", bop, solvedp, chunkSize, True, lib.SolveAllChunksPBN)


def SolveAllChunks(bop: object, solvedp: object, chunkSize: int) -> int:
    """``SolveAllChunks``: DDS's alias for ``SolveAllChunksPBN`` (DDS says: don't use it)."""
    return _solve_chunks("SolveAllChunks", bop, solvedp, chunkSize, True, lib.SolveAllChunks)


# -- par ------------------------------------------------------------------------------


def _par_call(
    fn: str, tablep: object, out: object, dealer: int | None, vulnerable: object, call: Callable[..., int]
) -> int:
    """Check a par function's table, dealer and vulnerability, then call it (no thread memory used)."""
    t = _ptr(tablep, "ddTableResults", fn, "tablep")
    vul = _int(vulnerable, fn, "vulnerable")
    code, detail = _validate.table_results([list(row) for row in t.resTable])  # type: ignore[attr-defined]
    if code == RETURN_NO_FAULT and dealer is not None:
        code, detail = _validate.dealer(dealer)
    if code == RETURN_NO_FAULT:
        code, detail = _validate.vulnerable(vul)
    if code != RETURN_NO_FAULT:
        return _fail(fn, code, detail)
    args = (t, out, vul) if dealer is None else (t, out, dealer, vul)
    return _done(fn, call(*args))


def Par(tablep: object, presp: object, vulnerable: int) -> int:
    """``Par(struct ddTableResults *tablep, struct parResults *presp, int vulnerable)``."""
    out = _ptr(presp, "parResults", "Par", "presp")
    return _par_call("Par", tablep, out, None, vulnerable, lib.Par)


def DealerPar(tablep: object, presp: object, dealer: int, vulnerable: int) -> int:
    """``DealerPar(struct ddTableResults *tablep, struct parResultsDealer *presp, int dealer, int vulnerable)``."""
    out = _ptr(presp, "parResultsDealer", "DealerPar", "presp")
    return _par_call("DealerPar", tablep, out, _int(dealer, "DealerPar", "dealer"), vulnerable, lib.DealerPar)


def DealerParBin(tablep: object, presp: object, dealer: int, vulnerable: int) -> int:
    """``DealerParBin(struct ddTableResults *tablep, struct parResultsMaster *presp, int dealer, int vulnerable)``."""
    out = _ptr(presp, "parResultsMaster", "DealerParBin", "presp")
    d = _int(dealer, "DealerParBin", "dealer")
    return _par_call("DealerParBin", tablep, out, d, vulnerable, lib.DealerParBin)


def _pair(obj: object, struct: str, fn: str) -> object:
    """A ``struct X[2]`` argument (``sidesRes``)."""
    t = _ctype(obj)
    if t is None or t.kind != "array" or t.item is not ffi.typeof(f"struct {struct}") or t.length < 2:
        raise ArgumentError(f"sidesRes must be struct {struct}[2] (dll.{struct}(count=2))", function=fn)
    return obj


def SidesPar(tablep: object, sidesRes: object, vulnerable: int) -> int:
    """``SidesPar(struct ddTableResults *tablep, struct parResultsDealer sidesRes[2], int vulnerable)``."""
    out = _pair(sidesRes, "parResultsDealer", "SidesPar")
    return _par_call("SidesPar", tablep, out, None, vulnerable, lib.SidesPar)


def SidesParBin(tablep: object, sidesRes: object, vulnerable: int) -> int:
    """``SidesParBin(struct ddTableResults *tablep, struct parResultsMaster sidesRes[2], int vulnerable)``."""
    out = _pair(sidesRes, "parResultsMaster", "SidesParBin")
    return _par_call("SidesParBin", tablep, out, None, vulnerable, lib.SidesParBin)


def _master_ok(pres: object, count: int) -> tuple[int, str | None]:
    for j in range(count):
        m = pres[j]  # type: ignore[index]
        if not 0 <= m.number <= 10:
            return lib.RETURN_UNKNOWN_FAULT, f"parResultsMaster[{j}].number {m.number} is not 0..10"
        for i in range(m.number):
            c = m.contracts[i]
            if not (0 <= c.underTricks <= 13 and 0 <= c.overTricks <= 13 and 0 <= c.level <= 7
                    and 0 <= c.denom <= 4 and 0 <= c.seats <= 5):  # fmt: skip
                return (
                    lib.RETURN_UNKNOWN_FAULT,
                    f"parResultsMaster[{j}].contracts[{i}] has a field out of range",
                )
    return RETURN_NO_FAULT, None


#: Smallest ``resp`` buffer ConvertToDealerTextFormat may write into (10 contracts of text).
DEALER_TEXT_SIZE = 256


def ConvertToDealerTextFormat(pres: object, resp: object) -> int:
    """``ConvertToDealerTextFormat(struct parResultsMaster *pres, char *resp)``.

    ``resp`` must be a ``char[]`` of at least :data:`DEALER_TEXT_SIZE` bytes
    (``ffi.new("char[256]")``); DDS writes the text there.
    """
    fn = "ConvertToDealerTextFormat"
    p = _ptr(pres, "parResultsMaster", fn, "pres")
    t = _ctype(resp)
    if t is None or t.kind != "array" or t.item is not ffi.typeof("char") or t.length < DEALER_TEXT_SIZE:
        raise ArgumentError(f"resp must be a char[{DEALER_TEXT_SIZE}] or larger", function=fn)
    code, detail = _master_ok(p, 1)
    if code != RETURN_NO_FAULT:
        return _fail(fn, code, detail)
    return _done(fn, lib.ConvertToDealerTextFormat(p, resp))


def ConvertToSidesTextFormat(pres: object, resp: object) -> int:
    """``ConvertToSidesTextFormat(struct parResultsMaster *pres, struct parTextResults *resp)``.

    ``pres`` is the two-element ``sidesRes`` array from :func:`SidesParBin`.
    """
    fn = "ConvertToSidesTextFormat"
    p = _pair(pres, "parResultsMaster", fn)
    out = _ptr(resp, "parTextResults", fn, "resp")
    code, detail = _master_ok(p, 2)
    if code != RETURN_NO_FAULT:
        return _fail(fn, code, detail)
    return _done(fn, lib.ConvertToSidesTextFormat(p, out))


def CalcPar(tableDeal: object, vulnerable: int, tablep: object, presp: object) -> int:
    """``CalcPar(struct ddTableDeal tableDeal, int vulnerable, struct ddTableResults *tablep, struct parResults *presp)`` (deprecated by DDS)."""
    fn = "CalcPar"
    p = _ptr(tableDeal, "ddTableDeal", fn, "tableDeal")
    t = _ptr(tablep, "ddTableResults", fn, "tablep")
    out = _ptr(presp, "parResults", fn, "presp")
    vulnerable = _int(vulnerable, fn, "vulnerable")
    code, detail = _validate.table_deal(_masks(p.cards))
    if code == RETURN_NO_FAULT:
        code, detail = _validate.vulnerable(vulnerable)
    if code != RETURN_NO_FAULT:
        return _fail(fn, code, detail)
    with slots.all():
        return _done(fn, lib.CalcPar(p[0], vulnerable, t, out))


def CalcParPBN(tableDealPBN: object, tablep: object, vulnerable: int, presp: object) -> int:
    """``CalcParPBN(struct ddTableDealPBN tableDealPBN, struct ddTableResults *tablep, int vulnerable, struct parResults *presp)`` (deprecated by DDS)."""
    fn = "CalcParPBN"
    p = _ptr(tableDealPBN, "ddTableDealPBN", fn, "tableDealPBN")
    t = _ptr(tablep, "ddTableResults", fn, "tablep")
    out = _ptr(presp, "parResults", fn, "presp")
    vulnerable = _int(vulnerable, fn, "vulnerable")
    masks, why = _masks_from_pbn(ffi.string(p.cards))
    if masks is None:
        return _fail(fn, lib.RETURN_PBN_FAULT, why)
    code, detail = _validate.table_deal(masks)
    if code == RETURN_NO_FAULT:
        code, detail = _validate.vulnerable(vulnerable)
    if code != RETURN_NO_FAULT:
        return _fail(fn, code, detail)
    canon = ffi.new("struct ddTableDealPBN *", {"cards": _canonical_pbn(masks)})
    with slots.all():
        return _done(fn, lib.CalcParPBN(canon[0], t, vulnerable, out))


# -- play analysis ----------------------------------------------------------------------


def _pbn_play(text: bytes, number: int) -> tuple[list[int], list[int]] | None:
    """Suits and ranks of a playTracePBN string; None if it is not ``number`` two-character cards."""
    s = text.decode("ascii", "replace")
    if len(s) % 2 or number < 0 or 2 * number > len(s):
        return None
    try:
        cards = [Card.parse(s[i : i + 2]) for i in range(0, 2 * number, 2)]
    except DDSError:
        return None
    return [c.suit for c in cards], [c.rank for c in cards]


def _play_checks(dl: object, masks: list[list[int]], suits: list[int], ranks: list[int]) -> tuple:
    code, detail = _board_checks(dl, -1, 1, 1, masks)
    if code != RETURN_NO_FAULT:
        return code, detail
    return _validate.play_trace(
        dl.trump, dl.first, list(dl.currentTrickSuit), list(dl.currentTrickRank),  # type: ignore[attr-defined]
        masks, suits, ranks,
    )  # fmt: skip


def AnalysePlayBin(dl: object, play: object, solved: object, thrId: int) -> int:
    """``AnalysePlayBin(struct deal dl, struct playTraceBin play, struct solvedPlay *solved, int thrId)``."""
    fn = "AnalysePlayBin"
    p = _ptr(dl, "deal", fn, "dl")
    pl = _ptr(play, "playTraceBin", fn, "play")
    out = _ptr(solved, "solvedPlay", fn, "solved")
    thrId = _int(thrId, fn, "thrId")
    code, detail = _validate.thread_index(thrId, slots.count)
    if code == RETURN_NO_FAULT:
        n = pl.number
        if not 0 <= n <= 52:
            code, detail = lib.RETURN_PLAY_FAULT, f"play.number {n} is not 0..52"
        else:
            code, detail = _play_checks(p, _masks(p.remainCards), list(pl.suit[0:n]), list(pl.rank[0:n]))
    if code != RETURN_NO_FAULT:
        return _fail(fn, code, detail)
    with slots.slot(thrId):
        return _done(fn, lib.AnalysePlayBin(p[0], pl[0], out, thrId))


def AnalysePlayPBN(dlPBN: object, playPBN: object, solvedp: object, thrId: int) -> int:
    """``AnalysePlayPBN(struct dealPBN dlPBN, struct playTracePBN playPBN, struct solvedPlay *solvedp, int thrId)``."""
    fn = "AnalysePlayPBN"
    p = _ptr(dlPBN, "dealPBN", fn, "dlPBN")
    pl = _ptr(playPBN, "playTracePBN", fn, "playPBN")
    out = _ptr(solvedp, "solvedPlay", fn, "solvedp")
    thrId = _int(thrId, fn, "thrId")
    code, detail = _validate.thread_index(thrId, slots.count)
    if code != RETURN_NO_FAULT:
        return _fail(fn, code, detail)
    masks, why = _masks_from_pbn(ffi.string(p.remainCards))
    if masks is None:
        return _fail(fn, lib.RETURN_PBN_FAULT, why)
    cards = _pbn_play(ffi.string(pl.cards), pl.number)
    if cards is None:
        return _fail(fn, lib.RETURN_PLAY_FAULT, f"playPBN.cards does not hold {pl.number} cards like 'SA'")
    code, detail = _play_checks(p, masks, *cards)
    if code != RETURN_NO_FAULT:
        return _fail(fn, code, detail)
    canon = ffi.new("struct dealPBN *", p[0])
    canon.remainCards = _canonical_pbn(masks)
    with slots.slot(thrId):
        return _done(fn, lib.AnalysePlayPBN(canon[0], pl[0], out, thrId))


def _analyse_all(fn: str, bop: object, plp: object, solvedp: object, chunkSize: object, pbn: bool) -> int:
    p = _ptr(bop, "boardsPBN" if pbn else "boards", fn, "bop")
    pl = _ptr(plp, "playTracesPBN" if pbn else "playTracesBin", fn, "plp")
    out = _ptr(solvedp, "solvedPlays", fn, "solvedp")
    # DDS 2.9 ignores chunkSize here (no RETURN_CHUNK_SIZE), and checks the
    # board count before the trace count: so does ddsbind.
    c = _int(chunkSize, fn, "chunkSize")
    n = p.noOfBoards
    if not 1 <= n <= min(len(p.deals), len(pl.plays)):
        return _fail(fn, lib.RETURN_TOO_MANY_BOARDS, f"noOfBoards {n} is not 1..{min(len(p.deals), len(pl.plays))}")
    if n != pl.noOfBoards:
        return _fail(fn, lib.RETURN_UNKNOWN_FAULT, f"{n} boards but {pl.noOfBoards} play traces")
    canon = ffi.new("struct boardsPBN *", p[0]) if pbn else p
    for i in range(n):
        dl, tr = p.deals[i], pl.plays[i]
        if pbn:
            masks, why = _masks_from_pbn(ffi.string(dl.remainCards))
            if masks is None:
                return _fail(fn, lib.RETURN_PBN_FAULT, f"board {i}: {why}")
            canon.deals[i].remainCards = _canonical_pbn(masks)
            cards = _pbn_play(ffi.string(tr.cards), tr.number)
        else:
            masks = _masks(dl.remainCards)
            k = tr.number
            cards = (list(tr.suit[0:k]), list(tr.rank[0:k])) if 0 <= k <= 52 else None
        if cards is None:
            return _fail(fn, lib.RETURN_PLAY_FAULT, f"board {i}: play trace is not {tr.number} cards")
        code, detail = _play_checks(dl, masks, *cards)
        if code != RETURN_NO_FAULT:
            return _fail(fn, code, f"board {i}: {detail}")
    call = lib.AnalyseAllPlaysPBN if pbn else lib.AnalyseAllPlaysBin
    with slots.all():
        return _done(fn, call(canon, pl, out, c))


def AnalyseAllPlaysBin(bop: object, plp: object, solvedp: object, chunkSize: int) -> int:
    """``AnalyseAllPlaysBin(struct boards *bop, struct playTracesBin *plp, struct solvedPlays *solvedp, int chunkSize)``."""
    return _analyse_all("AnalyseAllPlaysBin", bop, plp, solvedp, chunkSize, False)


def AnalyseAllPlaysPBN(bopPBN: object, plpPBN: object, solvedp: object, chunkSize: int) -> int:
    """``AnalyseAllPlaysPBN(struct boardsPBN *bopPBN, struct playTracesPBN *plpPBN, struct solvedPlays *solvedp, int chunkSize)``."""
    return _analyse_all("AnalyseAllPlaysPBN", bopPBN, plpPBN, solvedp, chunkSize, True)


# -- resources and information ---------------------------------------------------------


def SetMaxThreads(userThreads: int) -> None:
    """``SetMaxThreads(int userThreads)``: 0 lets DDS choose.

    DDS never runs more threads than cores; ``GetDDSInfo`` (or
    ``ddsbind.dds_info().threads``) says how many it really runs.  Raises
    ``RuntimeError`` while any board is being solved.
    """
    n = _int(userThreads, "SetMaxThreads", "userThreads")
    slots.reconfigure(lambda: lib.SetMaxThreads(n))


def SetResources(maxMemoryMB: int, maxThreads: int) -> None:
    """``SetResources(int maxMemoryMB, int maxThreads)``; refused (RuntimeError) while solving."""
    mem = _int(maxMemoryMB, "SetResources", "maxMemoryMB")
    thr = _int(maxThreads, "SetResources", "maxThreads")
    slots.reconfigure(lambda: lib.SetResources(mem, thr))


def SetThreading(code: int) -> int:
    """``SetThreading(int code)``: choose DDS's threading system (0 = DDS's default).

    Returns DDS's status: ``RETURN_THREAD_MISSING`` for a system not compiled
    in.  Refused (RuntimeError) while solving.
    """
    c = _int(code, "SetThreading", "code")
    result: list[int] = []
    slots.reconfigure(lambda: result.append(lib.SetThreading(c)))
    return _done("SetThreading", result[0])


def FreeMemory() -> None:
    """``FreeMemory()``: DDS gives back its thread memory; refused (RuntimeError) while solving."""
    slots.reconfigure(lib.FreeMemory)


def GetDDSInfo(info: object) -> None:
    """``GetDDSInfo(struct DDSInfo *info)``."""
    lib.GetDDSInfo(_ptr(info, "DDSInfo", "GetDDSInfo", "info"))


def ErrorMessage(code: int, line: object) -> None:
    """``ErrorMessage(int code, char line[80])``: DDS's text for ``code`` into ``line``."""
    t = _ctype(line)
    if t is None or t.kind != "array" or t.item is not ffi.typeof("char") or t.length < 80:
        raise ArgumentError("line must be a char[80] (ffi.new('char[80]'))", function="ErrorMessage")
    lib.ErrorMessage(_int(code, "ErrorMessage", "code"), line)


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
    "last_error",
    "max_tables",
]
