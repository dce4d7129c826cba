"""Converting between deal formats without solving anything.

Format names: ``zbd``, ``zrd``, ``zdd``, ``hand-makes``, ``zbs``, ``pbn``,
``dds`` (DDS's reference-hands text, :mod:`ddsbind.formats.ddsref`), ``gib``.
Every input is read as deals ``(N, 52)`` owners and/or tables ``(N, 5, 4)``
(DDS order, 15 = unknown); every output takes what it can hold:

* a result the input lacks is written as 15 (``zrd``, ``zdd``,
  ``hand-makes``), left out (``pbn``, ``dds``), or refused with a clear error
  (``gib``, which has no "unknown");
* a target that needs deals (everything but ``zdd``) refuses a ``zdd`` input;
* ``zbs`` holds diagrams: reading it as deals requires full deals.

Binary inputs are streamed in chunks; text formats are read whole.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ddsbind.deal import Deal
from ddsbind.formats import files, gib, pbn, zbs

__all__ = ["FORMATS", "convert", "read_any"]

FORMATS = ("zbd", "zrd", "zdd", "hand-makes", "zbs", "pbn", "dds", "gib")
_HAS_DEALS = {"zbd", "zrd", "hand-makes", "zbs", "pbn", "dds", "gib"}

Batch = tuple[NDArray[np.int8] | None, NDArray[np.uint8] | None]


def _name(path: str | os.PathLike[str], given: str | None, role: str) -> str:
    name = given or files.guess_format(path)
    if name is None:
        raise ValueError(f"cannot tell the {role} format of {os.fspath(path)!r}; name it (one of {FORMATS})")
    if name not in FORMATS:
        raise ValueError(f"unknown format {name!r} (one of {FORMATS})")
    return name


def _stack_deals(deals: list[Deal]) -> NDArray[np.int8]:
    if not deals:
        return np.zeros((0, 52), np.int8)
    return np.stack([d.owners() for d in deals])


def _stack_tables(tables: list[NDArray | None]) -> NDArray[np.uint8] | None:
    if not tables or all(t is None for t in tables):
        return None
    return np.stack([np.full((5, 4), 15, np.uint8) if t is None else np.asarray(t, np.uint8) for t in tables])


def read_any(path: str | os.PathLike[str], format: str | None = None, *, chunk: int = 1 << 20) -> Iterator[Batch]:
    """Yield ``(owners or None, tables or None)`` batches from a file of any supported format."""
    name = _name(path, format, "input")
    if name in files.RECORD_SIZES:
        for c in files.iter_chunks(path, name, chunk=chunk):
            yield c.owners, c.tables
    elif name == "zbs":
        diagrams = zbs.decode_diagrams(Path(path).read_bytes())
        yield diagrams, None
    elif name == "pbn":
        boards = pbn.read_pbn(path)
        yield _stack_deals([b.deal for b in boards]), _stack_tables([b.table for b in boards])
    elif name == "gib":
        yield gib.read_gib(path)
    elif name == "dds":
        from ddsbind.formats import ddsref  # written on main; see the module's API

        hands = ddsref.read_reference(path)
        yield _stack_deals([h.deal for h in hands]), _stack_tables([h.table for h in hands])


def _full(owners: NDArray[np.int8], name: str) -> None:
    if owners.size and (owners.min() < 0 or ((owners[:, :, None] == np.arange(4)).sum(axis=1) != 13).any()):
        raise ValueError(f"{name} holds full deals only; the input has a diagram that is not a full deal")


def convert(
    src: str | os.PathLike[str],
    dst: str | os.PathLike[str],
    *,
    src_format: str | None = None,
    dst_format: str | None = None,
    hand: int = 0,
    progress: Callable[[int], None] | None = None,
    fill: Callable[[NDArray[np.int8], NDArray[np.uint8] | None], NDArray[np.uint8]] | None = None,
) -> int:
    """Convert ``src`` into ``dst``; returns the number of records written.

    Parameters
    ----------
    src, dst : path-like
    src_format, dst_format : str, optional
        One of :data:`FORMATS`; guessed from ``.zbd .zrd .zdd .zbs .pbn .gib``.
    hand : int
        DDS seat whose makes a ``hand-makes`` output stores.
    progress : callable, optional
        Called with the number of records written after each batch.
    fill : callable, optional
        ``fill(owners, tables) -> tables`` applied to each batch read that has
        deals (``ddsbind convert --solve`` passes
        :class:`ddsbind.database.TableFiller`, which solves unknown results);
        this module itself never solves.

    Raises
    ------
    ValueError
        The target needs something the input lacks (deals, or complete
        results for ``gib``); ``dst`` is then left as it was only for text
        targets, binary targets keep the whole records written so far.
    FormatError
        Malformed input, with its record index.
    """
    sname = _name(src, src_format, "input")
    dname = _name(dst, dst_format, "output")
    if dname in _HAS_DEALS and sname == "zdd":
        raise ValueError(f"{dname} needs deals but a zdd file holds only results")
    if Path(dst).exists() and Path(dst).stat().st_size:
        raise ValueError(f"output {os.fspath(dst)!r} exists and is not empty; refusing to overwrite it")
    total = 0
    batches = read_any(src, sname)
    if fill is not None:
        batches = ((o, t if o is None else fill(o, t)) for o, t in batches)
    if dname in files.RECORD_SIZES:
        with files.RecordWriter(dst, dname) as w:
            for owners, tables in batches:
                if dname == "zdd":
                    if tables is None:
                        tables = np.full((0 if owners is None else owners.shape[0], 5, 4), 15, np.uint8)
                    n = w.write(tables=tables)
                elif dname == "hand-makes":
                    assert owners is not None
                    makes = None if tables is None else tables[:, :, hand]
                    n = w.write(owners, hand=np.full(owners.shape[0], hand), makes=makes)
                else:
                    assert owners is not None
                    n = w.write(owners, tables)
                total += n
                if progress is not None:
                    progress(n)
        return total
    owners_all, tables_all = [], []
    for owners, tables in batches:
        assert owners is not None
        owners_all.append(owners)
        tables_all.append(np.full((owners.shape[0], 5, 4), 15, np.uint8) if tables is None else tables)
    owners = np.concatenate(owners_all) if owners_all else np.zeros((0, 52), np.int8)
    tables = np.concatenate(tables_all) if tables_all else np.zeros((0, 5, 4), np.uint8)
    has_results = bool(np.any(tables != 15))
    if dname == "zbs":
        Path(dst).write_bytes(zbs.encode_diagrams(owners).tobytes())
    elif dname == "gib":
        if np.any(tables > 13):
            raise ValueError("gib text needs complete double-dummy results; the input lacks some (solve first)")
        _full(owners, dname)
        gib.write_gib(dst, owners, tables)
    elif dname == "pbn":
        pbn.write_pbn(dst, owners, tables if has_results else None)
    elif dname == "dds":
        from ddsbind.formats import ddsref  # written on main; see the module's API

        ddsref.write_reference(dst, [Deal.from_owners(o) for o in owners], tables if has_results else None)
    total = owners.shape[0]
    if progress is not None:
        progress(total)
    return total
