"""Records as pandas DataFrames: :func:`read_dataframe`, one row a record, chunked for files larger than memory.

pandas is an optional extra (``pip install ddsbind[pandas]``); it is
imported when :func:`read_dataframe` runs, never when :mod:`ddsbind.formats`
is imported.  Game records (deal, auction, play) add their double-dummy
results when a solver is passed in (``solve``, a
:class:`~ddsbind._typing.TablesSolver` such as :func:`ddsbind.dd_tables`):
this module never imports the solver.  :func:`ddsbind.read_dataframe`
passes DDS's by default.

Columns
-------
* ``deal``: the deal in PBN, North first (``"N:QJ6.K652.J85.T98 873..."``),
  for formats that hold deals.
* ``S_N`` .. ``NT_W``: twenty columns of double-dummy tricks, strain then
  declarer, strains S H D C NT and declarers N E S W (``S_N, S_E, S_S, S_W,
  H_N, ..., NT_W``), pandas ``Int8`` with ``<NA>`` for an unknown result; for
  formats with results, and for game records.
* Game records add, one row per record (a board played in two rooms is
  two rows): ``board`` (``Int64``), ``dealer`` and ``declarer`` (seat
  letters N E S W, ``None`` unknown or passed out), ``vulnerability``
  (``None``, ``NS``, ``EW``, ``All``: ``str(Vulnerability)``), ``room``
  (the record's ``Room`` tag, ``"Open"`` or ``"Closed"`` in a team match;
  ``None`` when it has none), ``north`` .. ``west`` (the players' names,
  ``None`` unnamed), ``contract`` (``"4HX"``, ``"Pass"``), ``result``
  (tricks declarer took, ``Int8``), ``score`` (North-South's score by the
  Laws, negative when East-West score, 0 passed out, ``Int64``),
  ``auction`` (the calls from the dealer, space-separated) and ``play``
  (the cards in play order, ``"H4 H6 HK ..."``), ``None`` where the file
  has none; with a solver, ``dd_tricks`` (the tricks declarer takes double
  dummy in the contract's strain, ``Int8``; ``<NA>`` passed out) and the
  twenty table columns.  :func:`ddsbind.read_dataframe` adds ``par``
  (North-South's par score when the dealer bids first) and
  ``par_contracts``.
* ``hand-makes`` files add ``hand`` (the seat letter).
* Hand records (PBN deals without auction or play; DDS's reference text)
  add ``board`` (``Int64``), ``dealer`` (a seat letter, ``None`` unknown)
  and ``vulnerability`` as game records do, and one column per other tag
  of the file (``Event``, ``Site``, ..., the text as written); with a
  solver, the table columns are the solver's (a deal with unknown hands
  keeps the file's) and :func:`ddsbind.read_dataframe` adds ``par``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from ddsbind._typing import TablesSolver
from ddsbind.deal import RANKS_HIGH_FIRST, SEAT_LETTERS, Deal, Seat, Strain, Vulnerability
from ddsbind.errors import DDSError, FormatError, MissingExtraError
from ddsbind.formats import ddsref, pbn, registry
from ddsbind.formats._common import batched, reading, set_aside, unsaid
from ddsbind.formats._dtypes import UNKNOWN
from ddsbind.formats.convert import read_batches
from ddsbind.formats.pbngame import MAX_BOARD
from ddsbind.formats.registry import FormatLike, Records
from ddsbind.record import GameRecord, contract_text

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["TABLE_COLUMNS", "MissingExtraError", "deal_strings", "pandas_module", "read_dataframe"]

#: The twenty result columns: strains S H D C NT (DDS order) x declarers N E S W.
TABLE_COLUMNS = tuple(f"{s.symbol}_{h}" for s in Strain for h in SEAT_LETTERS)
_RANKS = np.frombuffer(RANKS_HIGH_FIRST.encode("ascii"), np.uint8)


def pandas_module(who: str = "read_dataframe") -> Any:
    """pandas, imported on first use; ``MissingExtraError`` naming ``who`` and the extra when it is not installed."""
    try:
        import pandas
    except ImportError:
        raise MissingExtraError(f"{who} needs pandas: install the extra, pip install 'ddsbind[pandas]'") from None
    return pandas


def deal_strings(owners: NDArray[np.int8]) -> NDArray[np.str_]:
    """PBN deal strings, North first, of full deals given as owner rows, without a loop per deal.

    Parameters
    ----------
    owners : ndarray, shape (n, 52), int8
        DDS seat (N=0 E=1 S=2 W=3) of each card SA..C2; every seat 13 cards.

    Returns
    -------
    ndarray, shape (n,), str
        ``"N:" + hands N E S W``, each ``S.H.D.C`` with ranks high to low
        (always 69 characters).

    Raises
    ------
    FormatError
        A row that is not a full deal (use :class:`~ddsbind.deal.Deal` for
        partial deals).
    """
    o = np.asarray(owners, dtype=np.int8)
    n = o.shape[0]
    counts = np.stack([(o == s).sum(1) for s in range(4)], 1) if n else np.zeros((0, 4), np.int64)
    wrong = np.any(counts != 13, axis=1)
    if wrong.any():
        bad = int(np.argmax(wrong))
        raise FormatError("not a full deal (13 cards a hand)", index=bad)
    out = np.empty(n, dtype="S69")
    # A few thousand rows at a time: the sort's work arrays (about 1.5 kB a row) stay small for any n.
    for start in range(0, n, _DEAL_BLOCK):
        out[start : start + _DEAL_BLOCK] = _deal_bytes(o[start : start + _DEAL_BLOCK])
    return out.astype(str)


#: Rows of :func:`deal_strings` sorted at a time.
_DEAL_BLOCK = 1 << 11


def _deal_bytes(o: NDArray[np.int8]) -> NDArray[np.bytes_]:
    """PBN deal strings of full deals ``(n, 52)`` as ``S69`` bytes (see :func:`deal_strings`)."""
    n = o.shape[0]
    card = np.arange(52)
    # Sort key of each card: its hand, then its suit, then its place in the suit (ace first);
    # the separators sort after the last card of their suit ('.') or hand (' ').
    keys = o.astype(np.int32) * 100 + (card // 13) * 20 + card % 13
    dots = (np.arange(4)[:, None] * 100 + np.arange(3)[None, :] * 20 + 19).ravel()
    spaces = np.arange(3) * 100 + 99
    allkeys = np.concatenate([keys, np.broadcast_to(np.concatenate([dots, spaces]), (n, 15))], axis=1)
    chars = np.concatenate([np.broadcast_to(_RANKS[card % 13], (n, 52)), np.full((n, 12), 46), np.full((n, 3), 32)], 1)
    order = np.argsort(allkeys, axis=1, kind="stable")
    text = np.take_along_axis(chars.astype(np.uint8), order, axis=1)
    text = np.concatenate([np.broadcast_to(np.frombuffer(b"N:", np.uint8), (n, 2)), text], axis=1)
    return np.ascontiguousarray(text).view("S69").ravel()


def _deal_column(owners: NDArray[np.int8]) -> list[str] | NDArray[np.str_]:
    if owners.shape[0] and np.all((owners >= 0).sum(1) == 52):
        try:
            return deal_strings(owners)
        except FormatError:
            pass
    return [Deal.from_owners(row).to_pbn() for row in owners]


def _table_columns(tables: NDArray[np.uint8]) -> dict[str, Any]:
    pd = pandas_module()
    flat = np.asarray(tables).reshape(-1, 20)
    known = flat != UNKNOWN
    return {
        name: pd.arrays.IntegerArray(flat[:, k].astype(np.int8), ~known[:, k]) for k, name in enumerate(TABLE_COLUMNS)
    }


def _records_frame(r: Records, fmt: registry.Format) -> pd.DataFrame:
    pd = pandas_module()
    cols: dict[str, Any] = {}
    if r.owners is not None:
        cols["deal"] = _deal_column(r.owners)
    if r.hand is not None:
        cols["hand"] = np.array(list(SEAT_LETTERS))[np.asarray(r.hand, dtype=np.intp)]
    if fmt.results and r.tables is not None:
        cols.update(_table_columns(r.tables))
    elif fmt.results:
        cols.update(_table_columns(np.full((len(r), 5, 4), UNKNOWN, np.uint8)))
    return pd.DataFrame(cols)


def _games_frame(games: Sequence[GameRecord], solve: TablesSolver | None) -> pd.DataFrame:
    pd = pandas_module()
    letter = lambda s: None if s is None else SEAT_LETTERS[s]  # noqa: E731
    cols: dict[str, Any] = {
        "deal": [g.deal.to_pbn() for g in games],
        "board": pd.array([g.board for g in games], dtype="Int64"),
        "dealer": [letter(g.dealer) for g in games],
        "vulnerability": [str(g.vulnerable) for g in games],
        "room": [g.tags.get("Room") or None for g in games],
        **{seat.full_name.lower(): [g.players.get(seat.name) for g in games] for seat in Seat},
        "contract": [contract_text(g.contract) or None for g in games],
        "declarer": [letter(g.declarer) for g in games],
        "result": pd.array([g.result for g in games], dtype="Int8"),
        "score": pd.array([g.ns_score() for g in games], dtype="Int64"),
        "auction": [" ".join(map(str, g.auction)) or None for g in games],
        "play": [" ".join(map(str, g.play)) or None for g in games],
    }
    if solve is not None:
        tables = np.stack([np.asarray(t) for t in solve([g.deal for g in games])]) if games else None
        tables = tables if tables is not None else np.zeros((0, 5, 4), np.int8)
        dd = [
            None if g.strain is None or g.declarer is None else int(tables[k, g.strain, g.declarer])
            for k, g in enumerate(games)
        ]
        cols["dd_tricks"] = pd.array(dd, dtype="Int8")
        cols.update(_table_columns(tables.astype(np.uint8)))
    return pd.DataFrame(cols)


#: Tags a deals frame holds in columns of their own (``board``, ``dealer``, ``vulnerability``, ``deal``).
_OWN_COLUMNS = {"Board": "board", "Dealer": "dealer", "Vulnerable": "vulnerability", "Deal": "deal"}


def _board_fields(b: registry.Board) -> tuple[int | None, str | None, str | None, dict[str, str]]:
    """(board number, dealer letter, vulnerability, the other tags) of a PBN board or a reference hand.

    A value that is no board number, seat or vulnerability is None here (the
    file's text stays in nothing else: a deals frame has no room for it),
    named once (:func:`ddsbind.formats._common.set_aside`).
    """
    if isinstance(b, ddsref.ReferenceHand):
        return None, SEAT_LETTERS[b.dealer], str(Vulnerability(b.vul)), {}
    tags = b.tags
    text = tags.get("Board", "").strip()
    board = int(text) if text.isdigit() and int(text) <= MAX_BOARD else None
    if text and board is None:
        set_aside(text, "Board", text, f"not a board number 1..{MAX_BOARD}")
    dealer = tags.get("Dealer", "").strip().upper() or None
    if dealer is not None and (len(dealer) != 1 or dealer not in SEAT_LETTERS):
        set_aside(text or None, "Dealer", tags["Dealer"], "not N, E, S or W")
        dealer = None
    vulnerable: str | None = str(unsaid(board)[1])
    try:
        said = tags.get("Vulnerable", "").strip()
        vulnerable = str(Vulnerability.parse(said)) if said else vulnerable
    except DDSError:
        set_aside(text or None, "Vulnerable", tags["Vulnerable"], "not None, NS, EW or All")
        vulnerable = None
    return board, dealer, vulnerable, {k: v for k, v in tags.items() if k not in _OWN_COLUMNS}


def _boards_frame(boards: Sequence[registry.Board], solve: TablesSolver | None) -> pd.DataFrame:
    """One row a deal: ``deal``, ``board``, ``dealer``, ``vulnerability``, the file's other tags, the table.

    With ``solve``, the table is the solver's for every full deal (a deal
    with unknown hands keeps the file's, and is named once).
    """
    pd = pandas_module()
    fields = [_board_fields(b) for b in boards]
    cols: dict[str, Any] = {
        "deal": [b.deal.to_pbn() for b in boards],
        "board": pd.array([f[0] for f in fields], dtype="Int64"),
        "dealer": [f[1] for f in fields],
        "vulnerability": [f[2] for f in fields],
    }
    for name in dict.fromkeys(k for f in fields for k in f[3]):  # every tag, in the file's order
        cols.setdefault(name, [f[3].get(name) for f in fields])
    unknown = np.full((5, 4), UNKNOWN, np.uint8)
    tables = np.stack([unknown if b.table is None else np.asarray(b.table, np.uint8) for b in boards] or [unknown])
    tables = tables[: len(boards)]
    if solve is not None and boards:
        full = [k for k, b in enumerate(boards) if b.deal.is_full]
        for k, b in enumerate(boards):
            if not b.deal.is_full:
                text = b.tags.get("Deal", "") if isinstance(b, pbn.PBNBoard) else b.pbn
                set_aside(fields[k][0], "Deal", text, "a deal with unknown hands is not solved")
        if full:
            tables[full] = np.stack([np.asarray(t) for t in solve([boards[k].deal for k in full])]).astype(np.uint8)
    cols.update(_table_columns(tables))
    return pd.DataFrame(cols)


def _strictly(frames: Iterator[pd.DataFrame], strict: bool | None) -> Iterator[pd.DataFrame]:
    with reading(strict):
        yield from frames


def _slices(n: int, chunksize: int) -> Iterator[slice]:
    for start in range(0, n, chunksize):
        yield slice(start, min(n, start + chunksize))


def _frames(
    source: str | os.PathLike[str] | Sequence[GameRecord],
    format: FormatLike | None,
    chunksize: int,
    solve: TablesSolver | None,
) -> Iterator[pd.DataFrame]:
    if not isinstance(source, str | os.PathLike):
        games = list(source)
        for sl in _slices(len(games), chunksize):
            yield _games_frame(games[sl], solve)
        return
    fmt = registry.guess(source, format)
    if fmt.holds_games(source):
        assert fmt.games is not None
        with open(source, "rb") as f:  # a batch of game records at a time
            for games in fmt.games.read(f, os.fspath(source), chunksize):
                yield _games_frame(games, solve)
    elif fmt.boards is not None:
        with open(source, "rb") as f:  # a batch of boards at a time, each with what the file says of it
            for boards in batched(fmt.boards(f, os.fspath(source)), chunksize):
                yield _boards_frame(boards, solve)
    else:
        # A chunk at a time (record files; PBN, GIB, DDS, LIN, ZBS text), cut to size.
        for r in read_batches(source, fmt, chunk=chunksize):
            for sl in _slices(len(r), chunksize):
                part = Records(
                    None if r.owners is None else r.owners[sl],
                    None if r.tables is None else r.tables[sl],
                    None if r.hand is None else r.hand[sl],
                    None if r.makes is None else r.makes[sl],
                )
                yield _records_frame(part, fmt)


def read_dataframe(
    path_or_records: str | os.PathLike[str] | Sequence[GameRecord],
    *,
    format: FormatLike | None = None,
    chunksize: int | None = None,
    solve: TablesSolver | bool | None = None,
    strict: bool | None = None,
) -> pd.DataFrame | Iterator[pd.DataFrame]:
    """Records as a pandas DataFrame, one row a record (columns: the module docstring).

    Parameters
    ----------
    path_or_records : path-like or sequence of GameRecord
        A file of any readable format of :mod:`ddsbind.formats.registry`
        (``.zrd``, ``.zbd``, ``.pbn``, ``.lin``, ...), or game records.
    format : str, optional
        The file's format; guessed from the extension when None.
    chunksize : int, optional
        Rows per frame: then an iterator of DataFrames, and a file of
        fixed-size records (ZBD, ZRD, ...), of PBN, GIB, DDS or ZBS deals or
        of game records (PBN, LIN, ZRJ) is read a chunk at a time (memory
        stays that of one chunk).  None: one DataFrame of every record.
    solve : TablesSolver, optional
        For game records, the solver of their deals (:func:`ddsbind.dd_tables`):
        adds ``dd_tricks`` and the twenty table columns.  None (or False)
        leaves those columns out.  :func:`ddsbind.read_dataframe` is this
        function with DDS's solver passed in (``solve=True``, its default).

    strict : bool, optional
        True refuses a file with a field that cannot be used (``FormatError``);
        else it is kept out of the frame and named in a
        :class:`~ddsbind.errors.FieldWarning`.

    Returns
    -------
    DataFrame or iterator of DataFrame

    Raises
    ------
    MissingExtraError
        pandas is not installed (an ``ImportError`` naming ``ddsbind[pandas]``).
    FormatError
        An unreadable file or a malformed record, as the format's reader says;
        a file with no deal;
        ``solve=True`` (this layer has no solver: pass one, or call
        :func:`ddsbind.read_dataframe`).

    Examples
    --------
    >>> df = read_dataframe("deals.zrd")  # doctest: +SKIP
    >>> df.loc[0, "NT_N"]  # doctest: +SKIP
    """
    pd = pandas_module()
    if solve is True:
        raise FormatError(
            "read_dataframe(solve=True) needs a solver here: pass solve=ddsbind.dd_tables, "
            "or call ddsbind.read_dataframe, which solves with DDS"
        )
    solver = None if isinstance(solve, bool) else solve
    if chunksize is not None:
        if chunksize < 1:
            raise FormatError("chunksize must be at least 1 record")
        return _strictly(_frames(path_or_records, format, chunksize, solver), strict)
    with reading(strict):
        parts = list(_frames(path_or_records, format, 1 << 20, solver))
    if not parts and isinstance(path_or_records, str | os.PathLike):
        raise FormatError(f"{os.fspath(path_or_records)}: no deal in the file (nothing to make rows of)")
    if not parts:  # no game record given: the columns game records have
        return _games_frame([], solver)
    return parts[0] if len(parts) == 1 else pd.concat(parts, ignore_index=True)
